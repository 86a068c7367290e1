/* Conformance tests for the in-process registry (docs/c-api.md §5) through the C ABI:
 * every row of the registration, context and semantics tables. */
#include <stdint.h>
#include "harness.h"

/* ── A configurable test callback ─────────────────────────────────────── */

enum { R_NONE, R_ALLOW, R_DENY, R_JSON };

typedef struct {
  const char *label; /* appended to the order log on each call */
  int ret;           /* return value (non-zero = failure) */
  int mode;          /* reply: R_NONE, R_ALLOW, R_DENY, R_JSON */
  const char *text;  /* deny message or reply JSON */
  int calls;
  int freed;
  size_t last_len;
  char last_ctx[4096];
} cb_state;

static char order_log[1024];

static void reset_log(void) { order_log[0] = '\0'; }

static int32_t test_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  cb_state *st = (cb_state *)ud;
  st->calls++;
  st->last_len = len;
  snprintf(st->last_ctx, sizeof st->last_ctx, "%s", ctx);
  if (st->label) {
    strncat(order_log, st->label, sizeof order_log - strlen(order_log) - 2);
    strncat(order_log, ",", sizeof order_log - strlen(order_log) - 1);
  }
  switch (st->mode) {
    case R_ALLOW: hl_reply_allow(reply); break;
    case R_DENY: hl_reply_deny(reply, st->text); break;
    case R_JSON: hl_reply_set_json(reply, st->text, NULL); break;
    default: break;
  }
  return st->ret;
}

static void test_free(void *ud) { ((cb_state *)ud)->freed++; }

static cb_state mk(const char *label, int ret, int mode, const char *text) {
  cb_state s;
  memset(&s, 0, sizeof s);
  s.label = label;
  s.ret = ret;
  s.mode = mode;
  s.text = text;
  return s;
}

static void reg(hl_registry *r, hl_hook_point p, const char *name, cb_state *st) {
  char *err = NULL;
  hl_status s = hl_registry_register(r, p, name, test_cb, st, test_free, &err);
  CHECK(s == HL_OK, "register %s: %s (%s)", name, hl_status_name(s), err ? err : "");
  hl_string_free(err);
}

/* Run and return the result JSON (caller frees), or NULL on error. */
static char *run(hl_registry *r, hl_hook_point p, const char *ctx) {
  char *out = NULL, *err = NULL;
  hl_status s = hl_registry_run(r, p, ctx, &out, &err);
  CHECK(s == HL_OK, "run %s: %s (%s)", hl_point_name(p), hl_status_name(s), err ? err : "");
  CHECK(err == NULL, "errmsg must be NULL on success");
  hl_string_free(err);
  return out;
}

#define TOOL_CTX "{\"tool_name\":\"Bash\",\"tool_args\":{\"command\":\"ls\"}}"

/* ── Registration ─────────────────────────────────────────────────────── */

TEST(callbacks_run_in_registration_order) {
  hl_registry *r = hl_registry_new();
  cb_state a = mk("a", 0, R_NONE, NULL), b = mk("b", 0, R_NONE, NULL), c = mk("c", 0, R_NONE, NULL);
  reg(r, HL_POINT_POST_TURN, "a", &a);
  reg(r, HL_POINT_POST_TURN, "b", &b);
  reg(r, HL_POINT_POST_TURN, "c", &c);
  reset_log();
  char *out = run(r, HL_POINT_POST_TURN, "{\"response_text\":\"r\",\"turn_number\":1}");
  CHECK(strcmp(order_log, "a,b,c,") == 0, "order %s", order_log);
  CHECK_CONTAINS(out, "\"allow\":true");
  hl_string_free(out);
  hl_registry_free(r);
  CHECK(a.freed == 1 && b.freed == 1 && c.freed == 1, "freed %d %d %d", a.freed, b.freed, c.freed);
}

static char warn_log[2048];
static int warn_count;
static void capture_log(void *ud, int32_t level, const char *msg) {
  (void)ud;
  if (level == 2 && strstr(msg, "dup-name")) {
    warn_count++;
    snprintf(warn_log, sizeof warn_log, "%s", msg);
  }
}

TEST(replace_in_place_keeps_position_frees_old_once_and_warns) {
  hl_registry *r = hl_registry_new();
  cb_state a = mk("a", 0, R_NONE, NULL), b1 = mk("b1", 0, R_NONE, NULL), c = mk("c", 0, R_NONE, NULL);
  cb_state b2 = mk("b2", 0, R_NONE, NULL);
  reg(r, HL_POINT_PRE_TURN, "a", &a);
  reg(r, HL_POINT_PRE_TURN, "dup-name", &b1);
  reg(r, HL_POINT_PRE_TURN, "c", &c);
  warn_count = 0;
  hl_set_log_handler(capture_log, NULL, 2);
  reg(r, HL_POINT_PRE_TURN, "dup-name", &b2);
  hl_set_log_handler(NULL, NULL, 0);
  CHECK(warn_count == 1, "one warning, got %d", warn_count);
  CHECK(b1.freed == 1, "old free_user_data ran %d times at replacement", b1.freed);
  reset_log();
  char *out = run(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":1}");
  CHECK(strcmp(order_log, "a,b2,c,") == 0, "order %s", order_log);
  CHECK(b1.calls == 0, "replaced callback called");
  hl_string_free(out);
  char *entries = NULL;
  CHECK_STATUS(hl_registry_entries(r, &entries, NULL), HL_OK);
  CHECK(entries && strcmp(entries,
                          "[{\"name\":\"a\",\"point\":\"pre_turn\",\"callback_id\":\"a\"},"
                          "{\"name\":\"dup-name\",\"point\":\"pre_turn\",\"callback_id\":\"dup-name\"},"
                          "{\"name\":\"c\",\"point\":\"pre_turn\",\"callback_id\":\"c\"}]") == 0,
        "entries %s", entries ? entries : "(null)");
  hl_string_free(entries);
  hl_registry_free(r);
  CHECK(b1.freed == 1 && b2.freed == 1 && a.freed == 1 && c.freed == 1, "each freed exactly once");
}

TEST(transform_and_decide_may_share_a_name) {
  hl_registry *r = hl_registry_new();
  cb_state d = mk(NULL, 0, R_ALLOW, NULL), t = mk(NULL, 0, R_NONE, NULL);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "same", &d);
  reg(r, HL_POINT_TRANSFORM_TOOL_INPUT, "same", &t);
  CHECK(d.freed == 0, "a transform must not replace a decide callback");
  char *entries = NULL;
  CHECK_STATUS(hl_registry_entries(r, &entries, NULL), HL_OK);
  CHECK_CONTAINS(entries, "\"point\":\"pre_tool_call_decide\"");
  CHECK_CONTAINS(entries, "\"point\":\"transform_tool_input\"");
  hl_string_free(entries);
  hl_registry_free(r);
}

TEST(entries_list_all_points_in_global_registration_order) {
  hl_registry *r = hl_registry_new();
  cb_state s[4];
  for (int i = 0; i < 4; i++) s[i] = mk(NULL, 0, R_NONE, NULL);
  reg(r, HL_POINT_ON_SESSION_END, "end", &s[0]);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "gate", &s[1]);
  reg(r, HL_POINT_TRANSFORM_TOOL_INPUT, "rewrite", &s[2]);
  reg(r, HL_POINT_ON_COMPACTION, "compact", &s[3]);
  char *entries = (char *)1, *err = (char *)1;
  CHECK_STATUS(hl_registry_entries(r, &entries, &err), HL_OK);
  CHECK(err == NULL, "errmsg NULL on success");
  CHECK(entries && strcmp(entries,
                          "[{\"name\":\"end\",\"point\":\"on_session_end\",\"callback_id\":\"end\"},"
                          "{\"name\":\"gate\",\"point\":\"pre_tool_call_decide\",\"callback_id\":\"gate\"},"
                          "{\"name\":\"rewrite\",\"point\":\"transform_tool_input\",\"callback_id\":\"rewrite\"},"
                          "{\"name\":\"compact\",\"point\":\"on_compaction\",\"callback_id\":\"compact\"}]") == 0,
        "entries %s", entries ? entries : "(null)");
  hl_string_free(entries);
  hl_registry *empty = hl_registry_new();
  CHECK_STATUS(hl_registry_entries(empty, &entries, NULL), HL_OK);
  CHECK(entries && strcmp(entries, "[]") == 0, "empty entries %s", entries ? entries : "(null)");
  hl_string_free(entries);
  hl_registry_free(empty);
  hl_registry_free(r);
}

TEST(unregister_removes_frees_once_and_unknown_is_not_found) {
  hl_registry *r = hl_registry_new();
  cb_state a = mk("a", 0, R_NONE, NULL), b = mk("b", 0, R_NONE, NULL);
  reg(r, HL_POINT_POST_TOOL_CALL, "a", &a);
  reg(r, HL_POINT_POST_TOOL_CALL, "b", &b);
  char *err = NULL;
  CHECK_STATUS(hl_registry_unregister(r, HL_POINT_POST_TOOL_CALL, "a", &err), HL_OK);
  CHECK(err == NULL, "errmsg NULL on success");
  CHECK(a.freed == 1, "free_user_data on unregister ran %d times", a.freed);
  CHECK_STATUS(hl_registry_unregister(r, HL_POINT_POST_TOOL_CALL, "a", &err), HL_ERR_NOT_FOUND);
  CHECK_CONTAINS(err, "a");
  hl_string_free(err);
  CHECK_STATUS(hl_registry_unregister(r, HL_POINT_PRE_TURN, "b", NULL), HL_ERR_NOT_FOUND);
  reset_log();
  char *out = run(r, HL_POINT_POST_TOOL_CALL, "{\"tool_name\":\"t\",\"result\":\"ok\"}");
  CHECK(strcmp(order_log, "b,") == 0, "order %s", order_log);
  hl_string_free(out);
  hl_registry_free(r);
  CHECK(a.freed == 1 && b.freed == 1, "freed %d %d", a.freed, b.freed);
}

TEST(failed_registration_never_calls_free_user_data) {
  hl_registry *r = hl_registry_new();
  cb_state s = mk(NULL, 0, R_NONE, NULL);
  char *err = NULL;
  CHECK_STATUS(hl_registry_register(r, HL_POINT_PRE_TURN, "", test_cb, &s, test_free, &err), HL_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(err, "name");
  hl_string_free(err);
  CHECK_STATUS(hl_registry_register(r, HL_POINT_PRE_TURN, " \t ", test_cb, &s, test_free, NULL), HL_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(hl_registry_register(r, 11, "x", test_cb, &s, test_free, NULL), HL_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(hl_registry_register(r, -1, "x", test_cb, &s, test_free, NULL), HL_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(hl_registry_register(r, HL_POINT_PRE_TURN, "x", NULL, &s, test_free, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_registry_register(r, HL_POINT_PRE_TURN, NULL, test_cb, &s, test_free, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_registry_register(NULL, HL_POINT_PRE_TURN, "x", test_cb, &s, test_free, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_registry_register(r, HL_POINT_PRE_TURN, "\xff\xfe", test_cb, &s, test_free, NULL), HL_ERR_INVALID_UTF8);
  CHECK(s.freed == 0, "free_user_data ran for a failed registration");
  char *entries = NULL;
  CHECK_STATUS(hl_registry_entries(r, &entries, NULL), HL_OK);
  CHECK(entries && strcmp(entries, "[]") == 0, "nothing registered: %s", entries ? entries : "(null)");
  hl_string_free(entries);
  hl_registry_free(r);
  CHECK(s.freed == 0, "free_user_data ran for a failed registration (at registry free)");
}

TEST(null_free_user_data_is_allowed) {
  hl_registry *r = hl_registry_new();
  cb_state s = mk(NULL, 0, R_DENY, "no");
  CHECK_STATUS(hl_registry_register(r, HL_POINT_PRE_TURN, "x", test_cb, &s, NULL, NULL), HL_OK);
  char *out = run(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":1}");
  CHECK_CONTAINS(out, "\"allow\":false");
  hl_string_free(out);
  CHECK_STATUS(hl_registry_unregister(r, HL_POINT_PRE_TURN, "x", NULL), HL_OK);
  hl_registry_free(r);
}

/* ── pre_tool_call_decide ─────────────────────────────────────────────── */

TEST(pre_tool_call_decide_first_deny_short_circuits) {
  hl_registry *r = hl_registry_new();
  cb_state a = mk("a", 0, R_ALLOW, NULL), d = mk("d", 0, R_DENY, "blocked by policy"), n = mk("n", 0, R_ALLOW, NULL);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "allow", &a);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "deny", &d);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "never", &n);
  char *out = run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, TOOL_CTX);
  CHECK(out && strcmp(out, "{\"allow\":false,\"message\":\"blocked by policy\",\"tool_args\":null,\"errors\":[]}") == 0,
        "result %s", out ? out : "(null)");
  CHECK(a.calls == 1 && d.calls == 1 && n.calls == 0, "calls %d %d %d", a.calls, d.calls, n.calls);
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(pre_tool_call_decide_all_allow_gives_default_result) {
  hl_registry *r = hl_registry_new();
  char *out = run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, TOOL_CTX);
  CHECK(out && strcmp(out, "{\"allow\":true,\"message\":\"\",\"tool_args\":null,\"errors\":[]}") == 0,
        "empty registry result %s", out ? out : "(null)");
  hl_string_free(out);
  cb_state a = mk(NULL, 0, R_ALLOW, NULL), n = mk(NULL, 0, R_NONE, NULL);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "a", &a);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "n", &n);
  out = run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, TOOL_CTX);
  CHECK_CONTAINS(out, "\"allow\":true");
  CHECK(a.calls == 1 && n.calls == 1, "both called");
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(pre_tool_call_decide_callback_failure_denies_with_name) {
  hl_registry *r = hl_registry_new();
  cb_state f = mk(NULL, 1, R_ALLOW, NULL), n = mk(NULL, 0, R_ALLOW, NULL);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "policy-gate", &f);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "after", &n);
  char *out = run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, TOOL_CTX);
  CHECK_CONTAINS(out, "\"allow\":false");
  CHECK_CONTAINS(out, "\"message\":\"hook 'policy-gate' failed\"");
  CHECK_CONTAINS(out, "\"errors\":[{\"name\":\"policy-gate\",\"message\":\"hook 'policy-gate' failed\"}]");
  CHECK(n.calls == 0, "fail closed: later callback ran");
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(pre_tool_call_decide_json_reply_decides) {
  hl_registry *r = hl_registry_new();
  cb_state j = mk(NULL, 0, R_JSON, "{\"allow\":false,\"message\":\"json says no\"}");
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "j", &j);
  char *out = run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, TOOL_CTX);
  CHECK_CONTAINS(out, "\"allow\":false,\"message\":\"json says no\"");
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(pre_tool_call_decide_invalid_reply_fails_closed) {
  hl_registry *r = hl_registry_new();
  cb_state j = mk(NULL, 0, R_JSON, "{\"allow\":\"yes\"}");
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "odd", &j);
  char *out = run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, TOOL_CTX);
  CHECK_CONTAINS(out, "\"allow\":false");
  CHECK_CONTAINS(out, "hook 'odd' failed");
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(modified_args_merge_is_seen_by_later_callbacks_and_reported) {
  hl_registry *r = hl_registry_new();
  cb_state m = mk(NULL, 0, R_JSON, "{\"allow\":true,\"message\":\"\",\"modified_args\":{\"command\":\"ls -la\",\"flag\":true}}");
  cb_state obs = mk(NULL, 0, R_ALLOW, NULL);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "rewrite", &m);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "observer", &obs);
  char *out = run(r, HL_POINT_PRE_TOOL_CALL_DECIDE,
                  "{\"tool_name\":\"Bash\",\"tool_args\":{\"command\":\"ls\",\"cwd\":\"/w\"}}");
  CHECK_CONTAINS(obs.last_ctx, "\"tool_args\":{\"command\":\"ls -la\",\"cwd\":\"/w\",\"flag\":true}");
  CHECK(out && strcmp(out, "{\"allow\":true,\"message\":\"\",\"tool_args\":{\"command\":\"ls -la\",\"cwd\":\"/w\",\"flag\":true},\"errors\":[]}") == 0,
        "result %s", out ? out : "(null)");
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(modified_args_replace_non_object_args) {
  hl_registry *r = hl_registry_new();
  cb_state m = mk(NULL, 0, R_JSON, "{\"allow\":true,\"message\":\"\",\"modified_args\":{\"a\":1}}");
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "m", &m);
  const char *ctxs[] = {"{\"tool_name\":\"t\",\"tool_args\":\"text\"}", "{\"tool_name\":\"t\",\"tool_args\":[1,2]}",
                        "{\"tool_name\":\"t\"}", "{\"tool_name\":\"t\",\"tool_args\":null}"};
  for (size_t i = 0; i < sizeof ctxs / sizeof *ctxs; i++) {
    char *out = run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, ctxs[i]);
    CHECK_CONTAINS(out, "\"tool_args\":{\"a\":1}");
    hl_string_free(out);
  }
  hl_registry_free(r);
}

TEST(modified_args_are_reported_after_a_deny) {
  hl_registry *r = hl_registry_new();
  cb_state m = mk(NULL, 0, R_JSON, "{\"allow\":true,\"message\":\"\",\"modified_args\":{\"x\":2}}");
  cb_state d = mk(NULL, 0, R_DENY, "no");
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "m", &m);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "d", &d);
  char *out = run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"t\",\"tool_args\":{\"x\":1,\"y\":0}}");
  CHECK(out && strcmp(out, "{\"allow\":false,\"message\":\"no\",\"tool_args\":{\"x\":2,\"y\":0},\"errors\":[]}") == 0,
        "result %s", out ? out : "(null)");
  CHECK_CONTAINS(d.last_ctx, "\"x\":2");
  hl_string_free(out);
  hl_registry_free(r);
}

/* ── pre_turn, on_interaction ─────────────────────────────────────────── */

TEST(pre_turn_failure_is_listed_and_next_callback_runs) {
  hl_registry *r = hl_registry_new();
  cb_state f = mk("f", 7, R_DENY, "ignored"), d = mk("d", 0, R_DENY, "prompt blocked"), n = mk("n", 0, R_NONE, NULL);
  reg(r, HL_POINT_PRE_TURN, "broken", &f);
  reg(r, HL_POINT_PRE_TURN, "blocker", &d);
  reg(r, HL_POINT_PRE_TURN, "never", &n);
  reset_log();
  char *out = run(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":2}");
  CHECK(out && strcmp(out, "{\"allow\":false,\"message\":\"prompt blocked\",\"tool_args\":null,"
                           "\"errors\":[{\"name\":\"broken\",\"message\":\"hook 'broken' failed\"}]}") == 0,
        "result %s", out ? out : "(null)");
  CHECK(strcmp(order_log, "f,d,") == 0, "order %s", order_log);
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(on_interaction_failure_does_not_block) {
  hl_registry *r = hl_registry_new();
  cb_state f = mk(NULL, 1, R_DENY, "would block"), a = mk(NULL, 0, R_ALLOW, NULL);
  reg(r, HL_POINT_ON_INTERACTION, "broken", &f);
  reg(r, HL_POINT_ON_INTERACTION, "ok", &a);
  char *out = run(r, HL_POINT_ON_INTERACTION, "{\"message\":\"hello\"}");
  CHECK_CONTAINS(out, "\"allow\":true");
  CHECK_CONTAINS(out, "\"errors\":[{\"name\":\"broken\",\"message\":\"hook 'broken' failed\"}]");
  CHECK(a.calls == 1, "next callback ran");
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(on_interaction_first_deny_stops) {
  hl_registry *r = hl_registry_new();
  cb_state d = mk(NULL, 0, R_DENY, "not now"), n = mk(NULL, 0, R_ALLOW, NULL);
  reg(r, HL_POINT_ON_INTERACTION, "d", &d);
  reg(r, HL_POINT_ON_INTERACTION, "n", &n);
  char *out = run(r, HL_POINT_ON_INTERACTION, "{\"message\":\"hello\"}");
  CHECK_CONTAINS(out, "\"allow\":false,\"message\":\"not now\"");
  CHECK(n.calls == 0, "later callback ran");
  CHECK_CONTAINS(d.last_ctx, "\"message\":\"hello\"");
  hl_string_free(out);
  hl_registry_free(r);
}

/* ── transform_tool_input ─────────────────────────────────────────────── */

static int32_t increment_step(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  /* Reads {"step":N} from tool_args and replies {"step":N+1}. */
  cb_state *st = (cb_state *)ud;
  st->calls++;
  snprintf(st->last_ctx, sizeof st->last_ctx, "%s", ctx);
  const char *p = strstr(ctx, "\"step\":");
  int n = p ? atoi(p + 7) : -100;
  char buf[64];
  snprintf(buf, sizeof buf, "{\"step\":%d}", n + 1);
  hl_reply_set_json(reply, buf, NULL);
  return 0;
}

TEST(transform_chain_each_sees_previous_result) {
  hl_registry *r = hl_registry_new();
  cb_state s1 = mk(NULL, 0, R_NONE, NULL), s2 = mk(NULL, 0, R_NONE, NULL), s3 = mk(NULL, 0, R_NONE, NULL);
  CHECK_STATUS(hl_registry_register(r, HL_POINT_TRANSFORM_TOOL_INPUT, "t1", increment_step, &s1, test_free, NULL), HL_OK);
  reg(r, HL_POINT_TRANSFORM_TOOL_INPUT, "no-opinion", &s2);
  CHECK_STATUS(hl_registry_register(r, HL_POINT_TRANSFORM_TOOL_INPUT, "t3", increment_step, &s3, test_free, NULL), HL_OK);
  char *out = run(r, HL_POINT_TRANSFORM_TOOL_INPUT, "{\"tool_name\":\"t\",\"tool_args\":{\"step\":0}}");
  CHECK(out && strcmp(out, "{\"allow\":true,\"message\":\"\",\"tool_args\":{\"step\":2},\"errors\":[]}") == 0,
        "result %s", out ? out : "(null)");
  CHECK_CONTAINS(s2.last_ctx, "\"tool_args\":{\"step\":1}");
  CHECK_CONTAINS(s3.last_ctx, "\"tool_args\":{\"step\":1}");
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(transform_failure_keeps_args_and_is_listed) {
  hl_registry *r = hl_registry_new();
  cb_state ok = mk(NULL, 0, R_JSON, "{\"v\":1}"), bad = mk(NULL, 3, R_JSON, "{\"v\":9}");
  reg(r, HL_POINT_TRANSFORM_TOOL_INPUT, "ok", &ok);
  reg(r, HL_POINT_TRANSFORM_TOOL_INPUT, "bad", &bad);
  char *out = run(r, HL_POINT_TRANSFORM_TOOL_INPUT, "{\"tool_name\":\"t\",\"tool_args\":{\"v\":0}}");
  CHECK(out && strcmp(out, "{\"allow\":true,\"message\":\"\",\"tool_args\":{\"v\":1},"
                           "\"errors\":[{\"name\":\"bad\",\"message\":\"hook 'bad' failed\"}]}") == 0,
        "result %s", out ? out : "(null)");
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(transform_null_reply_sets_null_and_allow_deny_mean_no_opinion) {
  hl_registry *r = hl_registry_new();
  cb_state a = mk(NULL, 0, R_ALLOW, NULL), d = mk(NULL, 0, R_DENY, "x");
  reg(r, HL_POINT_TRANSFORM_TOOL_INPUT, "a", &a);
  reg(r, HL_POINT_TRANSFORM_TOOL_INPUT, "d", &d);
  char *out = run(r, HL_POINT_TRANSFORM_TOOL_INPUT, "{\"tool_name\":\"t\",\"tool_args\":[1]}");
  CHECK(out && strcmp(out, "{\"allow\":true,\"message\":\"\",\"tool_args\":[1],\"errors\":[]}") == 0,
        "result %s", out ? out : "(null)");
  hl_string_free(out);
  cb_state nl = mk(NULL, 0, R_JSON, "null");
  reg(r, HL_POINT_TRANSFORM_TOOL_INPUT, "nuller", &nl);
  out = run(r, HL_POINT_TRANSFORM_TOOL_INPUT, "{\"tool_name\":\"t\",\"tool_args\":[1]}");
  CHECK(out && strcmp(out, "{\"allow\":true,\"message\":\"\",\"tool_args\":null,\"errors\":[]}") == 0,
        "result %s", out ? out : "(null)");
  hl_string_free(out);
  hl_registry_free(r);
}

/* ── observers ────────────────────────────────────────────────────────── */

TEST(observers_all_run_failures_listed_replies_ignored) {
  static const struct { hl_hook_point p; const char *ctx; } cases[] = {
      {HL_POINT_POST_TURN, "{\"response_text\":\"r\",\"turn_number\":1}"},
      {HL_POINT_POST_TOOL_CALL, "{\"tool_name\":\"t\",\"result\":\"ok\",\"metadata\":{\"ms\":3}}"},
      {HL_POINT_ON_TOOL_ERROR, "{\"tool_name\":\"t\",\"error\":\"boom\"}"},
      {HL_POINT_ON_COMPACTION, "{}"},
      {HL_POINT_ON_SESSION_START, "{\"session\":{\"session_id\":\"s\",\"agent_id\":1}}"},
      {HL_POINT_ON_SESSION_END, "{\"session\":{\"session_id\":\"s\",\"agent_id\":1,\"started_at\":\"t0\"}}"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    hl_registry *r = hl_registry_new();
    cb_state f = mk("f", 1, R_DENY, "x"), d = mk("d", 0, R_DENY, "ignored"), l = mk("l", 0, R_NONE, NULL);
    reg(r, cases[i].p, "fails", &f);
    reg(r, cases[i].p, "denies", &d);
    reg(r, cases[i].p, "last", &l);
    reset_log();
    char *out = run(r, cases[i].p, cases[i].ctx);
    CHECK(strcmp(order_log, "f,d,l,") == 0, "%s: order %s", hl_point_name(cases[i].p), order_log);
    CHECK(out && strcmp(out, "{\"allow\":true,\"message\":\"\",\"tool_args\":null,"
                             "\"errors\":[{\"name\":\"fails\",\"message\":\"hook 'fails' failed\"}]}") == 0,
          "%s: result %s", hl_point_name(cases[i].p), out ? out : "(null)");
    hl_string_free(out);
    hl_registry_free(r);
  }
}

/* ── contexts ─────────────────────────────────────────────────────────── */

static void expect_invalid(hl_registry *r, hl_hook_point p, const char *ctx, const char *field) {
  char *out = (char *)1, *err = NULL;
  hl_status s = hl_registry_run(r, p, ctx, &out, &err);
  CHECK(s == HL_ERR_INVALID_ARGUMENT, "%s %s: got %s", hl_point_name(p), ctx, hl_status_name(s));
  CHECK(out == NULL, "result must be NULL on failure");
  CHECK_CONTAINS(err, field);
  hl_string_free(err);
}

TEST(context_missing_or_mistyped_field_is_invalid_argument_naming_it) {
  hl_registry *r = hl_registry_new();
  cb_state s = mk(NULL, 0, R_NONE, NULL);
  reg(r, HL_POINT_PRE_TURN, "never", &s);
  expect_invalid(r, HL_POINT_PRE_TURN, "{\"turn_number\":1}", "'prompt'");
  expect_invalid(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\"}", "'turn_number'");
  expect_invalid(r, HL_POINT_PRE_TURN, "{\"prompt\":7,\"turn_number\":1}", "'prompt'");
  expect_invalid(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":-1}", "'turn_number'");
  expect_invalid(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":4294967296}", "'turn_number'");
  expect_invalid(r, HL_POINT_POST_TURN, "{\"turn_number\":1}", "'response_text'");
  expect_invalid(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_args\":{}}", "'tool_name'");
  expect_invalid(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":1}", "'tool_name'");
  expect_invalid(r, HL_POINT_TRANSFORM_TOOL_INPUT, "{\"name\":null}", "'tool_name'");
  expect_invalid(r, HL_POINT_POST_TOOL_CALL, "{\"tool_name\":\"t\"}", "'result'");
  expect_invalid(r, HL_POINT_ON_TOOL_ERROR, "{\"tool_name\":\"t\",\"error\":false}", "'error'");
  expect_invalid(r, HL_POINT_ON_SESSION_START, "{}", "'session'");
  expect_invalid(r, HL_POINT_ON_SESSION_START, "{\"session\":[]}", "'session'");
  expect_invalid(r, HL_POINT_ON_SESSION_END, "{\"session\":{\"agent_id\":1}}", "session_id");
  expect_invalid(r, HL_POINT_ON_SESSION_END, "{\"session\":{\"session_id\":\"s\",\"agent_id\":-5}}", "agent_id");
  expect_invalid(r, HL_POINT_ON_INTERACTION, "{}", "'message'");
  for (int p = 0; p <= 9; p++) {
    expect_invalid(r, p, "[]", "object");
    expect_invalid(r, p, "\"text\"", "object");
    expect_invalid(r, p, "null", "object");
  }
  CHECK(s.calls == 0, "a callback ran on an invalid context");
  hl_registry_free(r);
}

TEST(aliases_are_replaced_by_canonical_names_and_canonical_wins) {
  hl_registry *r = hl_registry_new();
  cb_state d = mk(NULL, 0, R_NONE, NULL), t = mk(NULL, 0, R_NONE, NULL), p = mk(NULL, 0, R_NONE, NULL),
           e = mk(NULL, 0, R_NONE, NULL);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "d", &d);
  reg(r, HL_POINT_TRANSFORM_TOOL_INPUT, "t", &t);
  reg(r, HL_POINT_POST_TOOL_CALL, "p", &p);
  reg(r, HL_POINT_ON_TOOL_ERROR, "e", &e);
  char *out = run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"name\":\"Bash\",\"args\":{\"c\":1}}");
  CHECK(strcmp(d.last_ctx, "{\"tool_name\":\"Bash\",\"tool_args\":{\"c\":1}}") == 0, "ctx %s", d.last_ctx);
  hl_string_free(out);
  out = run(r, HL_POINT_TRANSFORM_TOOL_INPUT, "{\"name\":\"alias\",\"tool_name\":\"canon\",\"args\":1,\"tool_args\":2}");
  CHECK(strcmp(t.last_ctx, "{\"tool_name\":\"canon\",\"tool_args\":2}") == 0, "ctx %s", t.last_ctx);
  CHECK_CONTAINS(out, "\"tool_args\":2");
  hl_string_free(out);
  out = run(r, HL_POINT_POST_TOOL_CALL, "{\"name\":\"R\",\"result\":\"ok\"}");
  CHECK(strcmp(p.last_ctx, "{\"tool_name\":\"R\",\"result\":\"ok\",\"tool_args\":null}") == 0, "ctx %s", p.last_ctx);
  hl_string_free(out);
  out = run(r, HL_POINT_ON_TOOL_ERROR, "{\"args\":[1],\"name\":\"E\",\"error\":\"bad\"}");
  CHECK(strcmp(e.last_ctx, "{\"tool_args\":[1],\"tool_name\":\"E\",\"error\":\"bad\"}") == 0, "ctx %s", e.last_ctx);
  hl_string_free(out);
  hl_registry_free(r);
}

TEST(extra_fields_are_kept_and_context_len_matches) {
  hl_registry *r = hl_registry_new();
  cb_state s = mk(NULL, 0, R_NONE, NULL);
  reg(r, HL_POINT_PRE_TURN, "s", &s);
  const char *ctx = "{\"prompt\":\"p\",\"turn_number\":2,\"session_id\":\"s-1\",\"meta\":{\"k\":[1,\"\xc3\xa9\"]}}";
  char *out = run(r, HL_POINT_PRE_TURN, ctx);
  CHECK(strcmp(s.last_ctx, ctx) == 0, "ctx %s", s.last_ctx);
  CHECK(s.last_len == strlen(s.last_ctx), "context_len %zu vs strlen %zu", s.last_len, strlen(s.last_ctx));
  hl_string_free(out);
  hl_registry_free(r);
}

/* ── re-entrancy ──────────────────────────────────────────────────────── */

typedef struct {
  hl_registry *self;
  hl_registry *other;
  cb_state added;
  cb_state victim;
  hl_status st_register, st_unregister, st_run;
  char inner_result[512];
  int calls;
} reentrant_state;

static int32_t reentrant_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  reentrant_state *rs = (reentrant_state *)ud;
  rs->calls++;
  if (rs->calls > 1) {
    hl_reply_allow(reply);
    return 0;
  }
  rs->st_register = hl_registry_register(rs->self, HL_POINT_POST_TURN, "added", test_cb, &rs->added, test_free, NULL);
  rs->st_unregister = hl_registry_unregister(rs->self, HL_POINT_PRE_TOOL_CALL_DECIDE, "victim", NULL);
  char *out = NULL;
  rs->st_run = hl_registry_run(rs->self, HL_POINT_POST_TURN, "{\"response_text\":\"r\",\"turn_number\":1}", &out, NULL);
  snprintf(rs->inner_result, sizeof rs->inner_result, "%s", out ? out : "");
  hl_string_free(out);
  hl_registry_free(rs->other);
  rs->other = NULL;
  hl_reply_deny(reply, "reentrant done");
  return 0;
}

TEST(reentrant_callback_registers_unregisters_runs_and_frees_another_registry) {
  reentrant_state rs;
  memset(&rs, 0, sizeof rs);
  rs.self = hl_registry_new();
  rs.other = hl_registry_new();
  rs.added = mk("added", 0, R_NONE, NULL);
  rs.victim = mk("victim", 0, R_ALLOW, NULL);
  cb_state other_cb = mk(NULL, 0, R_NONE, NULL);
  reg(rs.other, HL_POINT_ON_COMPACTION, "o", &other_cb);
  CHECK_STATUS(hl_registry_register(rs.self, HL_POINT_PRE_TOOL_CALL_DECIDE, "re", reentrant_cb, &rs, NULL, NULL), HL_OK);
  reg(rs.self, HL_POINT_PRE_TOOL_CALL_DECIDE, "victim", &rs.victim);
  char *out = run(rs.self, HL_POINT_PRE_TOOL_CALL_DECIDE, TOOL_CTX);
  CHECK_CONTAINS(out, "\"message\":\"reentrant done\"");
  hl_string_free(out);
  CHECK(rs.calls == 1, "calls %d", rs.calls);
  CHECK(rs.st_register == HL_OK && rs.st_unregister == HL_OK && rs.st_run == HL_OK, "nested statuses %d %d %d",
        rs.st_register, rs.st_unregister, rs.st_run);
  CHECK(rs.added.calls == 1, "the inner run called the callback added just before");
  CHECK_CONTAINS(rs.inner_result, "\"allow\":true");
  CHECK(rs.victim.calls == 0, "the deny stopped before the victim");
  CHECK(rs.victim.freed == 1, "victim freed exactly once (%d)", rs.victim.freed);
  CHECK(other_cb.freed == 1, "the other registry was freed from inside the callback");
  /* The victim was removed during the run: later runs do not see it. */
  out = run(rs.self, HL_POINT_PRE_TOOL_CALL_DECIDE, TOOL_CTX);
  CHECK(rs.victim.calls == 0, "victim ran after being unregistered");
  CHECK(rs.calls == 2, "calls %d", rs.calls);
  hl_string_free(out);
  hl_registry_free(rs.self);
  CHECK(rs.added.freed == 1, "added freed %d", rs.added.freed);
}

/* A callback that unregisters itself must not have its user_data freed
 * while it is still running. */
typedef struct {
  hl_registry *self;
  int freed;
  int freed_during_call;
} self_remove_state;

static void self_remove_free(void *ud) { ((self_remove_state *)ud)->freed++; }

static int32_t self_remove_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  self_remove_state *s = (self_remove_state *)ud;
  hl_registry_unregister(s->self, HL_POINT_POST_TURN, "self", NULL);
  s->freed_during_call = s->freed;
  return 0;
}

TEST(unregistering_itself_defers_free_until_the_call_returns) {
  self_remove_state s = {hl_registry_new(), 0, -1};
  CHECK_STATUS(hl_registry_register(s.self, HL_POINT_POST_TURN, "self", self_remove_cb, &s, self_remove_free, NULL), HL_OK);
  char *out = run(s.self, HL_POINT_POST_TURN, "{\"response_text\":\"r\",\"turn_number\":1}");
  hl_string_free(out);
  CHECK(s.freed_during_call == 0, "free_user_data ran during the call");
  CHECK(s.freed == 1, "free_user_data ran %d times", s.freed);
  hl_registry_free(s.self);
  CHECK(s.freed == 1, "free_user_data ran again at registry free");
}

/* Freeing its own registry from inside a callback: the run finishes on its
 * snapshot, then every callback is released exactly once. */
typedef struct {
  hl_registry *self;
  int freed;
} own_free_state;

static void own_free_fn(void *ud) { ((own_free_state *)ud)->freed++; }

static int32_t own_free_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  own_free_state *s = (own_free_state *)ud;
  hl_registry_free(s->self);
  hl_reply_deny(reply, "freed my registry");
  return 0;
}

TEST(freeing_own_registry_inside_a_callback_is_safe) {
  own_free_state s = {hl_registry_new(), 0};
  cb_state after = mk(NULL, 0, R_ALLOW, NULL);
  CHECK_STATUS(hl_registry_register(s.self, HL_POINT_PRE_TURN, "freer", own_free_cb, &s, own_free_fn, NULL), HL_OK);
  reg(s.self, HL_POINT_PRE_TURN, "after", &after);
  char *out = NULL;
  CHECK_STATUS(hl_registry_run(s.self, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":1}", &out, NULL), HL_OK);
  CHECK_CONTAINS(out, "freed my registry");
  hl_string_free(out);
  CHECK(s.freed == 1, "own callback freed %d times", s.freed);
  CHECK(after.freed == 1, "other callback freed %d times", after.freed);
}

/* ── names ────────────────────────────────────────────────────────────── */

TEST(point_names_are_the_wire_labels) {
  static const char *labels[] = {"pre_turn", "post_turn", "pre_tool_call_decide", "post_tool_call", "on_compaction",
                                 "on_session_start", "on_session_end", "on_tool_error", "on_interaction",
                                 "transform_tool_input", "stop"};
  for (int i = 0; i < 11; i++) {
    const char *n = hl_point_name(i);
    CHECK(n && strcmp(n, labels[i]) == 0, "point %d: %s", i, n ? n : "(null)");
  }
  CHECK(HL_POINT_PRE_TURN == 0 && HL_POINT_TRANSFORM_TOOL_INPUT == 9 && HL_POINT_ON_INTERACTION == 8 && HL_POINT_STOP == 10,
        "numbers");
  CHECK(hl_point_name(-1) == NULL && hl_point_name(11) == NULL && hl_point_name(INT32_MAX) == NULL &&
            hl_point_name(INT32_MIN) == NULL,
        "unknown points must give NULL");
}

int main(void) {
  RUN(callbacks_run_in_registration_order);
  RUN(replace_in_place_keeps_position_frees_old_once_and_warns);
  RUN(transform_and_decide_may_share_a_name);
  RUN(entries_list_all_points_in_global_registration_order);
  RUN(unregister_removes_frees_once_and_unknown_is_not_found);
  RUN(failed_registration_never_calls_free_user_data);
  RUN(null_free_user_data_is_allowed);
  RUN(pre_tool_call_decide_first_deny_short_circuits);
  RUN(pre_tool_call_decide_all_allow_gives_default_result);
  RUN(pre_tool_call_decide_callback_failure_denies_with_name);
  RUN(pre_tool_call_decide_json_reply_decides);
  RUN(pre_tool_call_decide_invalid_reply_fails_closed);
  RUN(modified_args_merge_is_seen_by_later_callbacks_and_reported);
  RUN(modified_args_replace_non_object_args);
  RUN(modified_args_are_reported_after_a_deny);
  RUN(pre_turn_failure_is_listed_and_next_callback_runs);
  RUN(on_interaction_failure_does_not_block);
  RUN(on_interaction_first_deny_stops);
  RUN(transform_chain_each_sees_previous_result);
  RUN(transform_failure_keeps_args_and_is_listed);
  RUN(transform_null_reply_sets_null_and_allow_deny_mean_no_opinion);
  RUN(observers_all_run_failures_listed_replies_ignored);
  RUN(context_missing_or_mistyped_field_is_invalid_argument_naming_it);
  RUN(aliases_are_replaced_by_canonical_names_and_canonical_wins);
  RUN(extra_fields_are_kept_and_context_len_matches);
  RUN(reentrant_callback_registers_unregisters_runs_and_frees_another_registry);
  RUN(unregistering_itself_defers_free_until_the_call_returns);
  RUN(freeing_own_registry_inside_a_callback_is_safe);
  RUN(point_names_are_the_wire_labels);
  return DONE();
}
