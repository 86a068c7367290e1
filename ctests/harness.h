/* Minimal test harness for the C conformance tests.
 * CHECK(cond, ...) records a failure with a message and carries on;
 * TEST(name) declares a test function; RUN(name) runs one and counts it;
 * DONE() prints "N passed, N failed" and returns the exit code. */
#ifndef HOOKLINE_TEST_HARNESS_H
#define HOOKLINE_TEST_HARNESS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hookline.h"

static int hl_t_failures = 0, hl_t_passed = 0, hl_t_failed = 0, hl_t_cur_fail = 0;
static const char *hl_t_current = "";

#define CHECK(cond, ...)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      hl_t_failures++;                                                                \
      hl_t_cur_fail++;                                                                \
      fprintf(stderr, "FAIL %s (%s:%d): %s: ", hl_t_current, __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                   \
      fputc('\n', stderr);                                                            \
    }                                                                                 \
  } while (0)

#define CHECK_STATUS(expr, want)                                                      \
  do {                                                                                \
    hl_status hl_t_st_ = (expr);                                                      \
    CHECK(hl_t_st_ == (want), "got %s, want %s", hl_status_name(hl_t_st_),          \
          hl_status_name(want));                                                      \
  } while (0)

#define CHECK_CONTAINS(haystack, needle)                                              \
  CHECK((haystack) != NULL && strstr((haystack), (needle)) != NULL,                   \
        "'%s' does not contain '%s'", (haystack) ? (haystack) : "(null)", (needle))

/* HL_TEST_FILTER="a|b": run only the tests whose name contains a or b
   (unset: all). Used by `make stress` to repeat the concurrency tests. */
static int hl_t_selected(const char *name) {
  const char *f = getenv("HL_TEST_FILTER");
  if (!f || !*f) return 1;
  while (*f) {
    const char *end = strchr(f, '|');
    size_t n = end ? (size_t)(end - f) : strlen(f);
    if (n) {
      char part[256];
      if (n >= sizeof part) n = sizeof part - 1;
      memcpy(part, f, n);
      part[n] = 0;
      if (strstr(name, part)) return 1;
    }
    if (!end) break;
    f = end + 1;
  }
  return 0;
}

#define TEST(name) static void name(void)
#define RUN(name)                                                                     \
  if (hl_t_selected(#name)) do {                                                      \
    hl_t_current = #name;                                                             \
    hl_t_cur_fail = 0;                                                                \
    name();                                                                           \
    if (hl_t_cur_fail) { hl_t_failed++; fprintf(stderr, "not ok %s\n", #name); }      \
    else { hl_t_passed++; fprintf(stderr, "ok %s\n", #name); }                        \
  } while (0)
#define DONE()                                                                        \
  (printf("%d passed, %d failed\n", hl_t_passed, hl_t_failed), hl_t_failed ? 1 : 0)

#endif
