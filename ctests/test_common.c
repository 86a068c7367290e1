/* Shared C functions (docs/c-api.md §3, §4): hl_version, hl_status_name,
 * hl_string_free, hl_set_log_handler, and the hl_reply_* functions with bad
 * inputs (the reply slot only exists inside a callback, so those checks run
 * from a registry callback). */
#include <ctype.h>
#include <stdint.h>
#include "harness.h"

TEST(version_is_a_static_semver_string) {
  const char *v = hl_version();
  CHECK(v != NULL, "hl_version returned NULL");
  if (!v) return;
  int dots = 0;
  for (const char *p = v; *p; p++) {
    if (*p == '.') dots++;
    else CHECK(isdigit((unsigned char)*p) || *p == '-' || isalpha((unsigned char)*p), "odd char in %s", v);
  }
  CHECK(dots >= 2, "version %s is not x.y.z", v);
  CHECK(hl_version() == v, "hl_version must return the same static string");
}

TEST(status_names_cover_every_status_and_unknown_is_null) {
  static const char *names[] = {"HL_OK", "HL_ERR_NULL_ARGUMENT", "HL_ERR_INVALID_UTF8", "HL_ERR_INVALID_JSON",
                                "HL_ERR_INVALID_ARGUMENT", "HL_ERR_INVALID_CONFIG", "HL_ERR_NOT_FOUND",
                                "HL_ERR_CANCELLED", "HL_ERR_WRONG_THREAD", "HL_ERR_CLOSED", "HL_ERR_IO",
                                "HL_ERR_PANIC", "HL_ERR_FORKED"};
  for (int i = 0; i <= 12; i++) {
    const char *n = hl_status_name(i);
    CHECK(n && strcmp(n, names[i]) == 0, "status %d: %s", i, n ? n : "(null)");
  }
  CHECK(HL_OK == 0 && HL_ERR_NOT_FOUND == 6 && HL_ERR_FORKED == 12, "status numbers");
  CHECK(hl_status_name(-1) == NULL, "-1");
  CHECK(hl_status_name(13) == NULL, "13");
  CHECK(hl_status_name(INT32_MAX) == NULL, "INT32_MAX");
  CHECK(hl_status_name(INT32_MIN) == NULL, "INT32_MIN");
}

TEST(string_free_accepts_null_and_returned_strings) {
  hl_string_free(NULL);
  hl_registry *r = hl_registry_new();
  char *entries = NULL, *err = NULL;
  CHECK_STATUS(hl_registry_entries(r, &entries, NULL), HL_OK);
  hl_string_free(entries);
  CHECK_STATUS(hl_registry_unregister(r, HL_POINT_PRE_TURN, "nope", &err), HL_ERR_NOT_FOUND);
  CHECK(err != NULL, "error message expected");
  hl_string_free(err); /* error messages are freed with hl_string_free too */
  hl_registry_free(r);
}

/* ── logging ──────────────────────────────────────────────────────────── */

static int log_calls;
static int32_t log_last_level;
static char log_last[1024];
static int log_ud_ok;

static void log_handler(void *ud, int32_t level, const char *msg) {
  log_calls++;
  log_last_level = level;
  log_ud_ok = (ud == (void *)&log_calls);
  snprintf(log_last, sizeof log_last, "%s", msg ? msg : "");
}

static int32_t noop_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) { return 0; }

static void trigger_warning(void) {
  /* Replacing a registration logs a warning (docs/c-api.md §5). */
  hl_registry *r = hl_registry_new();
  hl_registry_register(r, HL_POINT_PRE_TURN, "warn-me", noop_cb, NULL, NULL, NULL);
  hl_registry_register(r, HL_POINT_PRE_TURN, "warn-me", noop_cb, NULL, NULL, NULL);
  hl_registry_free(r);
}

TEST(log_handler_receives_messages_at_or_below_max_level) {
  log_calls = 0;
  hl_set_log_handler(log_handler, &log_calls, 2 /* WARN */);
  trigger_warning();
  CHECK(log_calls >= 1, "handler not called");
  CHECK(log_last_level == 2, "level %d", log_last_level);
  CHECK(log_ud_ok, "user_data not passed through");
  CHECK(strstr(log_last, "warn-me") != NULL, "last message: %s", log_last);

  log_calls = 0;
  hl_set_log_handler(log_handler, &log_calls, 1 /* ERROR only */);
  trigger_warning();
  CHECK(log_calls == 0, "a WARN message reached a handler with max_level ERROR");

  log_calls = 0;
  hl_set_log_handler(NULL, NULL, 0); /* back to the default (stderr, gated by HOOKLINE_LOG) */
  trigger_warning();
  CHECK(log_calls == 0, "handler still called after reset");
}

/* ── replies ──────────────────────────────────────────────────────────── */

typedef struct {
  int step;
  hl_status st[32];
  char *errs[32];
  int n;
} reply_probe;

static void probe_store(reply_probe *p, hl_status s, char *err) {
  if (p->n < 32) {
    p->st[p->n] = s;
    p->errs[p->n] = err;
    p->n++;
  } else {
    hl_string_free(err);
  }
}

static char *deep_json(size_t depth) {
  char *s = malloc(2 * depth + 1);
  memset(s, '[', depth);
  memset(s + depth, ']', depth);
  s[2 * depth] = '\0';
  return s;
}

/* Sequenced: the status is taken before *errmsg is read. */
#define probe(p, call, errvar)       \
  do {                               \
    hl_status probe_st_ = (call);    \
    probe_store((p), probe_st_, (errvar)); \
  } while (0)

/* Exercises every hl_reply_* bad input, then leaves a final reply chosen by
 * p->step so that "each call replaces the previous reply" is observable. */
static int32_t reply_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  reply_probe *p = (reply_probe *)ud;
  char *err = (char *)1;
  p->n = 0;
  probe(p, hl_reply_set_json(NULL, "{}", &err), err);                 /* 0: NULL reply */
  err = (char *)1;
  probe(p, hl_reply_set_json(reply, NULL, &err), err);                /* 1: NULL json */
  err = (char *)1;
  probe(p, hl_reply_set_json(reply, "{\"a\":", &err), err);           /* 2: malformed */
  err = (char *)1;
  probe(p, hl_reply_set_json(reply, "\"\xff\"", &err), err);          /* 3: invalid UTF-8 */
  char *deep = deep_json(100000);
  err = (char *)1;
  probe(p, hl_reply_set_json(reply, deep, &err), err);                /* 4: 100 000 deep */
  free(deep);
  probe(p, hl_reply_set_json(reply, "{}", NULL), NULL);               /* 5: errmsg NULL, ok */
  probe(p, hl_reply_allow(NULL), NULL);                               /* 6 */
  probe(p, hl_reply_deny(NULL, "x"), NULL);                           /* 7 */
  probe(p, hl_reply_deny(reply, "\xc3\x28"), NULL);                   /* 8: invalid UTF-8 */
  err = (char *)1;
  probe(p, hl_reply_set_json(reply, "{\"allow\":true}", &err), err);  /* 9: ok, errmsg cleared */
  switch (p->step) {
    case 0: hl_reply_deny(reply, NULL); break;                     /* deny, empty message */
    case 1: hl_reply_deny(reply, "first"); hl_reply_allow(reply); break; /* allow replaces deny */
    case 2: hl_reply_allow(reply); hl_reply_set_json(reply, "{\"allow\":false,\"message\":\"json\"}", NULL); break;
    case 3: hl_reply_set_json(reply, "{\"allow\":false,\"message\":\"json\"}", NULL); hl_reply_deny(reply, "last"); break;
    default: break;
  }
  return 0;
}

TEST(reply_functions_reject_bad_input_with_a_status) {
  hl_registry *r = hl_registry_new();
  reply_probe p;
  memset(&p, 0, sizeof p);
  CHECK_STATUS(hl_registry_register(r, HL_POINT_PRE_TURN, "probe", reply_cb, &p, NULL, NULL), HL_OK);
  char *out = NULL;
  CHECK_STATUS(hl_registry_run(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":1}", &out, NULL), HL_OK);
  hl_string_free(out);
  CHECK(p.n == 10, "probes %d", p.n);
  CHECK(p.st[0] == HL_ERR_NULL_ARGUMENT, "NULL reply: %s", hl_status_name(p.st[0]));
  CHECK(p.st[1] == HL_ERR_NULL_ARGUMENT, "NULL json: %s", hl_status_name(p.st[1]));
  CHECK(p.st[2] == HL_ERR_INVALID_JSON, "malformed: %s", hl_status_name(p.st[2]));
  CHECK(p.st[3] == HL_ERR_INVALID_UTF8, "bad utf8: %s", hl_status_name(p.st[3]));
  CHECK(p.st[4] == HL_ERR_INVALID_JSON, "deep: %s", hl_status_name(p.st[4]));
  CHECK(p.st[5] == HL_OK, "ok with errmsg NULL: %s", hl_status_name(p.st[5]));
  CHECK(p.st[6] == HL_ERR_NULL_ARGUMENT && p.st[7] == HL_ERR_NULL_ARGUMENT, "allow/deny NULL reply");
  CHECK(p.st[8] == HL_ERR_INVALID_UTF8, "deny bad utf8: %s", hl_status_name(p.st[8]));
  CHECK(p.st[9] == HL_OK, "valid json: %s", hl_status_name(p.st[9]));
  for (int i = 0; i < 5; i++) {
    CHECK(p.errs[i] != NULL && p.errs[i] != (char *)1 && strlen(p.errs[i]) > 0, "probe %d: no error message", i);
  }
  CHECK(p.errs[9] == NULL, "errmsg must be set to NULL on success");
  for (int i = 0; i < p.n; i++) {
    if (p.errs[i] != (char *)1) hl_string_free(p.errs[i]);
  }
  hl_registry_free(r);
}

TEST(each_reply_call_replaces_the_previous_one) {
  static const char *want[] = {"\"allow\":false,\"message\":\"\"", "\"allow\":true,\"message\":\"\"",
                               "\"allow\":false,\"message\":\"json\"", "\"allow\":false,\"message\":\"last\""};
  for (int step = 0; step < 4; step++) {
    hl_registry *r = hl_registry_new();
    reply_probe p;
    memset(&p, 0, sizeof p);
    p.step = step;
    hl_registry_register(r, HL_POINT_PRE_TURN, "probe", reply_cb, &p, NULL, NULL);
    char *out = NULL;
    CHECK_STATUS(hl_registry_run(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":1}", &out, NULL), HL_OK);
    CHECK_CONTAINS(out, want[step]);
    hl_string_free(out);
    for (int i = 0; i < p.n; i++) {
      if (p.errs[i] != (char *)1) hl_string_free(p.errs[i]);
    }
    hl_registry_free(r);
  }
}

int main(void) {
  RUN(version_is_a_static_semver_string);
  RUN(status_names_cover_every_status_and_unknown_is_null);
  RUN(string_free_accepts_null_and_returned_strings);
  RUN(log_handler_receives_messages_at_or_below_max_level);
  RUN(reply_functions_reject_bad_input_with_a_status);
  RUN(each_reply_call_replaces_the_previous_one);
  return DONE();
}
