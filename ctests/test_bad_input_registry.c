/* Bad input on every registry entry point (docs/c-api.md §1, docs/hardening.md): NULL handles,
 * strings and out-pointers, invalid UTF-8, malformed JSON, unknown points,
 * 100 000-deep JSON, valid JSON of the wrong shape, 64 MiB strings. Every
 * call returns a status (never a crash), a message where errmsg is given,
 * NULL out-parameters on failure, and *errmsg NULL on success. */
#include <stdint.h>
#include "harness.h"

static int tried;
static int free_calls;

static void count_free(void *ud) {
  (void)ud;
  free_calls++;
}
static int32_t allow_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  hl_reply_allow(reply);
  return 0;
}

/* Call `expr` (a hl_status expression using `err` as errmsg) and check the
 * status, that a failure carries a message and a success clears errmsg. */
#define TRY(expr, want)                                                                        \
  do {                                                                                         \
    char *err = (char *)1;                                                                     \
    hl_status st_ = (expr);                                                                    \
    tried++;                                                                                   \
    CHECK(st_ == (want), "%s: got %s, want %s", #expr, hl_status_name(st_), hl_status_name(want)); \
    if (st_ == HL_OK) CHECK(err == NULL, "%s: errmsg not cleared on success", #expr);           \
    else CHECK(err != NULL && err != (char *)1 && err[0] != '\0', "%s: no error message", #expr); \
    if (err != (char *)1) hl_string_free(err);                                                 \
  } while (0)

/* The same call with errmsg NULL must also be safe. */
#define TRY_NOERR(expr, want)                                                                  \
  do {                                                                                         \
    hl_status st_ = (expr);                                                                    \
    tried++;                                                                                   \
    CHECK(st_ == (want), "%s: got %s, want %s", #expr, hl_status_name(st_), hl_status_name(want)); \
  } while (0)

static const char *BAD_UTF8 = "{\"prompt\":\"\xff\xfe\",\"turn_number\":1}";
static const char *PRE_TURN = "{\"prompt\":\"p\",\"turn_number\":1}";

TEST(null_arguments_are_null_argument) {
  hl_registry *r = hl_registry_new();
  char *out = (char *)1;
  hl_registry_free(NULL); /* no-op */
  tried++;
  TRY(hl_registry_register(NULL, 0, "n", allow_cb, NULL, count_free, &err), HL_ERR_NULL_ARGUMENT);
  TRY(hl_registry_register(r, 0, NULL, allow_cb, NULL, count_free, &err), HL_ERR_NULL_ARGUMENT);
  TRY(hl_registry_register(r, 0, "n", NULL, NULL, count_free, &err), HL_ERR_NULL_ARGUMENT);
  TRY_NOERR(hl_registry_register(NULL, 0, NULL, NULL, NULL, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  TRY(hl_registry_unregister(NULL, 0, "n", &err), HL_ERR_NULL_ARGUMENT);
  TRY(hl_registry_unregister(r, 0, NULL, &err), HL_ERR_NULL_ARGUMENT);
  TRY_NOERR(hl_registry_unregister(NULL, 0, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  TRY((out = (char *)1, hl_registry_run(NULL, 0, PRE_TURN, &out, &err)), HL_ERR_NULL_ARGUMENT);
  CHECK(out == NULL, "result_json not cleared on failure");
  TRY((out = (char *)1, hl_registry_run(r, 0, NULL, &out, &err)), HL_ERR_NULL_ARGUMENT);
  CHECK(out == NULL, "result_json not cleared on failure");
  TRY(hl_registry_run(r, 0, PRE_TURN, NULL, &err), HL_ERR_NULL_ARGUMENT);
  TRY_NOERR(hl_registry_run(NULL, 0, NULL, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  TRY((out = (char *)1, hl_registry_entries(NULL, &out, &err)), HL_ERR_NULL_ARGUMENT);
  CHECK(out == NULL, "entries_json not cleared on failure");
  TRY(hl_registry_entries(r, NULL, &err), HL_ERR_NULL_ARGUMENT);
  TRY_NOERR(hl_registry_entries(NULL, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK(free_calls == 0, "free_user_data called for a failed registration");
  hl_registry_free(r);
}

TEST(invalid_utf8_is_invalid_utf8) {
  hl_registry *r = hl_registry_new();
  char *out = (char *)1;
  TRY(hl_registry_register(r, 0, "\xc3\x28", allow_cb, NULL, count_free, &err), HL_ERR_INVALID_UTF8);
  TRY(hl_registry_unregister(r, 0, "\xed\xa0\x80", &err), HL_ERR_INVALID_UTF8); /* surrogate */
  TRY((out = (char *)1, hl_registry_run(r, 0, BAD_UTF8, &out, &err)), HL_ERR_INVALID_UTF8);
  CHECK(out == NULL, "result_json not cleared on failure");
  TRY_NOERR(hl_registry_run(r, 0, BAD_UTF8, &out, NULL), HL_ERR_INVALID_UTF8);
  CHECK(free_calls == 0, "free_user_data called for a failed registration");
  hl_registry_free(r);
}

TEST(unknown_points_are_invalid_argument) {
  static const int32_t bad[] = {-1, 11, INT32_MAX, INT32_MIN, 1000};
  hl_registry *r = hl_registry_new();
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *out = (char *)1;
    TRY(hl_registry_register(r, bad[i], "n", allow_cb, NULL, count_free, &err), HL_ERR_INVALID_ARGUMENT);
    TRY(hl_registry_unregister(r, bad[i], "n", &err), HL_ERR_INVALID_ARGUMENT);
    TRY((out = (char *)1, hl_registry_run(r, bad[i], "{}", &out, &err)), HL_ERR_INVALID_ARGUMENT);
    CHECK(out == NULL, "result_json not cleared on failure");
    TRY_NOERR(hl_registry_run(r, bad[i], "{}", &out, NULL), HL_ERR_INVALID_ARGUMENT);
    CHECK(hl_point_name(bad[i]) == NULL, "hl_point_name(%d) must be NULL", bad[i]);
    tried++;
  }
  CHECK(free_calls == 0, "free_user_data called for a failed registration");
  hl_registry_free(r);
}

TEST(blank_names_are_invalid_argument) {
  hl_registry *r = hl_registry_new();
  TRY(hl_registry_register(r, 0, "", allow_cb, NULL, count_free, &err), HL_ERR_INVALID_ARGUMENT);
  TRY(hl_registry_register(r, 0, "   ", allow_cb, NULL, count_free, &err), HL_ERR_INVALID_ARGUMENT);
  TRY(hl_registry_register(r, 0, "\t\r\n", allow_cb, NULL, count_free, &err), HL_ERR_INVALID_ARGUMENT);
  TRY(hl_registry_unregister(r, 0, "", &err), HL_ERR_NOT_FOUND);
  CHECK(free_calls == 0, "free_user_data called for a failed registration");
  hl_registry_free(r);
}

TEST(malformed_json_is_invalid_json) {
  static const char *bad[] = {"", "{", "{\"prompt\":}", "nul", "{\"a\":1,}", "[1,2", "{'a':1}", "{} {}", "\"\\x\""};
  hl_registry *r = hl_registry_new();
  for (int p = 0; p <= 9; p++) {
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
      char *out = (char *)1;
      TRY((out = (char *)1, hl_registry_run(r, p, bad[i], &out, &err)), HL_ERR_INVALID_JSON);
      CHECK(out == NULL, "result_json not cleared on failure");
    }
  }
  hl_registry_free(r);
}

static char *deep_json(size_t depth, char open, char close) {
  char *s = malloc(2 * depth + 1);
  memset(s, open, depth);
  memset(s + depth, close, depth);
  s[2 * depth] = '\0';
  return s;
}

TEST(json_nested_100000_deep_is_invalid_json_with_a_message) {
  hl_registry *r = hl_registry_new();
  char *arr = deep_json(100000, '[', ']');
  char *out = (char *)1, *err = NULL;
  CHECK_STATUS(hl_registry_run(r, HL_POINT_PRE_TURN, arr, &out, &err), HL_ERR_INVALID_JSON);
  tried++;
  CHECK(out == NULL, "result_json not cleared");
  CHECK(err && strlen(err) > 0, "no message");
  hl_string_free(err);
  free(arr);
  /* Deep nesting inside a valid object field too. */
  size_t depth = 100000;
  const char *head = "{\"tool_name\":\"t\",\"tool_args\":";
  char *obj = malloc(strlen(head) + 2 * depth + 2);
  strcpy(obj, head);
  memset(obj + strlen(head), '[', depth);
  memset(obj + strlen(head) + depth, ']', depth);
  strcpy(obj + strlen(head) + 2 * depth, "}");
  for (int p = 0; p <= 9; p++) TRY(hl_registry_run(r, p, obj, &out, &err), HL_ERR_INVALID_JSON);
  free(obj);
  hl_registry_free(r);
}

TEST(valid_json_of_the_wrong_shape_is_invalid_argument) {
  static const char *shapes[] = {"[]", "[1,2]", "\"str\"", "42", "true", "null", "-1.5e3"};
  hl_registry *r = hl_registry_new();
  for (int p = 0; p <= 9; p++) {
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
      TRY(hl_registry_run(r, p, shapes[i], &(char *){NULL}, &err), HL_ERR_INVALID_ARGUMENT);
    }
  }
  /* Right container, wrong field types. */
  TRY(hl_registry_run(r, HL_POINT_PRE_TURN, "{\"prompt\":[],\"turn_number\":1}", &(char *){NULL}, &err),
      HL_ERR_INVALID_ARGUMENT);
  TRY(hl_registry_run(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":1e400}", &(char *){NULL}, &err),
      HL_ERR_INVALID_JSON); /* number out of range is a parse error */
  TRY(hl_registry_run(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":true}", &(char *){NULL}, &err),
      HL_ERR_INVALID_ARGUMENT);
  TRY(hl_registry_run(r, HL_POINT_ON_SESSION_START, "{\"session\":{\"session_id\":\"s\",\"agent_id\":1.0}}",
                      &(char *){NULL}, &err),
      HL_ERR_INVALID_ARGUMENT);
  TRY(hl_registry_run(r, HL_POINT_ON_INTERACTION, "{\"message\":{}}", &(char *){NULL}, &err), HL_ERR_INVALID_ARGUMENT);
  hl_registry_free(r);
}

static size_t big_seen_len;
static int32_t big_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  big_seen_len = len;
  return 0;
}

TEST(sixty_four_mib_strings_work_or_fail_with_a_status) {
  const size_t big = 64u << 20;
  hl_registry *r = hl_registry_new();
  CHECK_STATUS(hl_registry_register(r, HL_POINT_ON_INTERACTION, "big", big_cb, NULL, NULL, NULL), HL_OK);
  /* A 64 MiB message field. */
  const char *head = "{\"message\":\"";
  char *ctx = malloc(big + 32);
  strcpy(ctx, head);
  memset(ctx + strlen(head), 'x', big);
  strcpy(ctx + strlen(head) + big, "\"}");
  char *out = NULL, *err = NULL;
  hl_status s = hl_registry_run(r, HL_POINT_ON_INTERACTION, ctx, &out, &err);
  tried++;
  CHECK(s == HL_OK || (err != NULL && out == NULL), "64 MiB context: %s", hl_status_name(s));
  if (s == HL_OK) {
    CHECK(big_seen_len == strlen(ctx), "callback saw %zu bytes, want %zu", big_seen_len, strlen(ctx));
    CHECK_CONTAINS(out, "\"allow\":true");
  }
  hl_string_free(out);
  hl_string_free(err);
  /* A 64 MiB name. */
  memset(ctx, 'n', big);
  ctx[big] = '\0';
  err = NULL;
  s = hl_registry_register(r, HL_POINT_POST_TURN, ctx, big_cb, NULL, count_free, &err);
  tried++;
  CHECK(s == HL_OK || err != NULL, "64 MiB name: %s", hl_status_name(s));
  hl_string_free(err);
  if (s == HL_OK) {
    TRY(hl_registry_unregister(r, HL_POINT_POST_TURN, ctx, &err), HL_OK);
    CHECK(free_calls == 1, "free_user_data ran %d times", free_calls);
  }
  /* 64 MiB of garbage JSON. */
  memset(ctx, '{', big);
  s = hl_registry_run(r, HL_POINT_ON_COMPACTION, ctx, &out, &err);
  tried++;
  CHECK(s == HL_ERR_INVALID_JSON, "64 MiB of '{': %s", hl_status_name(s));
  CHECK(out == NULL, "result_json not cleared");
  hl_string_free(err);
  free(ctx);
  hl_registry_free(r);
  free_calls = 0;
}

TEST(success_sets_errmsg_to_null) {
  hl_registry *r = hl_registry_new();
  char *out = NULL;
  TRY(hl_registry_register(r, HL_POINT_PRE_TURN, "ok", allow_cb, NULL, count_free, &err), HL_OK);
  TRY(hl_registry_run(r, HL_POINT_PRE_TURN, PRE_TURN, &out, &err), HL_OK);
  hl_string_free(out);
  TRY(hl_registry_entries(r, &out, &err), HL_OK);
  hl_string_free(out);
  TRY(hl_registry_unregister(r, HL_POINT_PRE_TURN, "ok", &err), HL_OK);
  CHECK(free_calls == 1, "free_user_data ran %d times", free_calls);
  hl_registry_free(r);
  free_calls = 0;
}

/* hl_registry_run_brief takes the arguments of hl_registry_run and rejects the same ones with the
 * same statuses and messages; a failure leaves *result_json NULL. */
TEST(run_brief_rejects_what_run_rejects) {
  hl_registry *r = NULL;
  CHECK_STATUS(hl_registry_new_with_contract(HL_CONTRACT_ANTIGRAVITY_SDK, &r, NULL), HL_OK);
  char *deep = deep_json(100000, '[', ']');
  struct {
    hl_registry *r;
    int32_t point;
    const char *ctx;
    hl_status want;
  } bad[] = {
      {NULL, HL_POINT_PRE_TURN, "{}", HL_ERR_NULL_ARGUMENT},
      {r, HL_POINT_PRE_TURN, NULL, HL_ERR_NULL_ARGUMENT},
      {r, HL_POINT_PRE_TURN, BAD_UTF8, HL_ERR_INVALID_UTF8},
      {r, HL_POINT_PRE_TURN, "{\"prompt\":", HL_ERR_INVALID_JSON},
      {r, HL_POINT_PRE_TOOL_CALL_DECIDE, "{'a':1}", HL_ERR_INVALID_JSON},
      {r, HL_POINT_PRE_TURN, deep, HL_ERR_INVALID_JSON},
      {r, HL_POINT_PRE_TURN, "[]", HL_ERR_INVALID_ARGUMENT},
      {r, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":1}", HL_ERR_INVALID_ARGUMENT},
      {r, -1, "{}", HL_ERR_INVALID_ARGUMENT},
      {r, 11, "{}", HL_ERR_INVALID_ARGUMENT},
      {r, INT32_MAX, "{}", HL_ERR_INVALID_ARGUMENT},
      {r, INT32_MIN, "{}", HL_ERR_INVALID_ARGUMENT},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *out = (char *)1, *plain = NULL, *plain_err = NULL;
    char *brief_err = NULL;
    TRY((out = (char *)1, hl_registry_run_brief(bad[i].r, bad[i].point, bad[i].ctx, &out, &err)), bad[i].want);
    CHECK(out == NULL, "case %zu: result_json not cleared on failure", i);
    TRY_NOERR((out = (char *)1, hl_registry_run_brief(bad[i].r, bad[i].point, bad[i].ctx, &out, NULL)), bad[i].want);
    CHECK(out == NULL, "case %zu: result_json not cleared on failure", i);
    CHECK_STATUS(hl_registry_run_brief(bad[i].r, bad[i].point, bad[i].ctx, &out, &brief_err), bad[i].want);
    CHECK_STATUS(hl_registry_run(bad[i].r, bad[i].point, bad[i].ctx, &plain, &plain_err), bad[i].want);
    CHECK(brief_err && plain_err && strcmp(brief_err, plain_err) == 0, "case %zu: messages differ: %s / %s", i,
          brief_err, plain_err);
    hl_string_free(brief_err);
    hl_string_free(plain_err);
  }
  TRY(hl_registry_run_brief(r, HL_POINT_PRE_TURN, "{}", NULL, &err), HL_ERR_NULL_ARGUMENT);
  TRY_NOERR(hl_registry_run_brief(NULL, 0, NULL, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  free(deep);
  hl_registry_free(r);
}

int main(void) {
  RUN(null_arguments_are_null_argument);
  RUN(invalid_utf8_is_invalid_utf8);
  RUN(unknown_points_are_invalid_argument);
  RUN(blank_names_are_invalid_argument);
  RUN(malformed_json_is_invalid_json);
  RUN(json_nested_100000_deep_is_invalid_json_with_a_message);
  RUN(valid_json_of_the_wrong_shape_is_invalid_argument);
  RUN(run_brief_rejects_what_run_rejects);
  RUN(sixty_four_mib_strings_work_or_fail_with_a_status);
  RUN(success_sets_errmsg_to_null);
  printf("bad inputs: %d tried, 0 crashes\n", tried);
  return DONE();
}
