/* A host callback that fails can say why (docs/c-api.md, "hl_callback_fn"): hl_reply_fail(reply,
 * reason) in registry callbacks, engine callback hooks and handlers, and the reason of a deferred
 * handler's failure (hl_deferred_finish with a non-zero rc). */
#include "engine_util.h"

typedef struct {
  const char *reason; /* hl_reply_fail's message (NULL: do not call it) */
  int rc;             /* what the callback returns */
  int deny_first;     /* reply deny before failing (the failure replaces it) */
  int calls;
} failing_t;

static int32_t failing_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  failing_t *f = ud;
  f->calls++;
  if (f->deny_first) hl_reply_deny(reply, "an earlier reply");
  if (f->reason) CHECK_STATUS(hl_reply_fail(reply, f->reason), HL_OK);
  return f->rc;
}

static int32_t allow_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (*(int *)ud)++;
  hl_reply_allow(reply);
  return 0;
}

static char *registry_run(hl_registry *r, hl_hook_point p, const char *ctx) {
  char *out = NULL, *err = NULL;
  CHECK_STATUS(hl_registry_run(r, p, ctx, &out, &err), HL_OK);
  hl_string_free(err);
  return out ? track(out) : NULL;
}

static void reg(hl_registry *r, hl_hook_point p, const char *name, hl_callback_fn cb, void *ud) {
  CHECK_STATUS(hl_registry_register(r, p, name, cb, ud, NULL, NULL), HL_OK);
}

#define TOOL_CTX "{\"tool_name\":\"Bash\",\"tool_args\":{\"command\":\"ls\"}}"

TEST(decide_failure_with_a_reason_denies_naming_it) {
  hl_registry *r = hl_registry_new();
  failing_t f = {"policy file unreadable", 1, 0, 0};
  int later = 0;
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "boom", failing_cb, &f);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "later", allow_cb, &later);
  char *out = registry_run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, TOOL_CTX);
  CHECK_CONTAINS(out, "\"allow\":false");
  CHECK_CONTAINS(out, "\"message\":\"hook 'boom' failed: policy file unreadable\"");
  CHECK_CONTAINS(out, "\"errors\":[{\"name\":\"boom\",\"message\":\"hook 'boom' failed: policy file unreadable\"}]");
  CHECK(later == 0, "fail closed: a later callback ran");
  hl_registry_free(r);
  arena_free();
}

TEST(reply_fail_fails_whatever_the_callback_returns_and_replaces_a_deny) {
  hl_registry *r = hl_registry_new();
  failing_t f = {"no policy", 0, 1, 0};
  reg(r, HL_POINT_PRE_TURN, "returns-zero", failing_cb, &f);
  char *out = registry_run(r, HL_POINT_PRE_TURN, "{\"prompt\":\"hi\",\"turn_number\":1}");
  /* pre_turn: a failure is listed and does not block; the deny it replaced is gone. */
  CHECK_CONTAINS(out, "\"allow\":true");
  CHECK_CONTAINS(out, "\"errors\":[{\"name\":\"returns-zero\",\"message\":\"hook 'returns-zero' failed: no policy\"}]");
  hl_registry_free(r);
  arena_free();
}

TEST(non_zero_return_without_a_reason_keeps_the_plain_message) {
  hl_registry *r = hl_registry_new();
  failing_t silent = {NULL, 7, 0, 0};
  failing_t empty = {"", 1, 0, 0};
  reg(r, HL_POINT_POST_TURN, "silent", failing_cb, &silent);
  reg(r, HL_POINT_POST_TURN, "empty", failing_cb, &empty);
  char *out = registry_run(r, HL_POINT_POST_TURN, "{\"response_text\":\"ok\",\"turn_number\":1}");
  CHECK_CONTAINS(out, "{\"name\":\"silent\",\"message\":\"hook 'silent' failed\"}");
  CHECK_CONTAINS(out, "{\"name\":\"empty\",\"message\":\"hook 'empty' failed\"}");
  hl_registry_free(r);
  arena_free();
}

TEST(reply_fail_rejects_null_reply_and_invalid_utf8) {
  CHECK_STATUS(hl_reply_fail(NULL, "x"), HL_ERR_NULL_ARGUMENT);
}

static int32_t bad_utf8_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  *(hl_status *)ud = hl_reply_fail(reply, "\xff\xfe");
  return 1;
}

TEST(reply_fail_with_invalid_utf8_is_refused_and_the_failure_stays_plain) {
  hl_registry *r = hl_registry_new();
  hl_status st = HL_OK;
  reg(r, HL_POINT_ON_COMPACTION, "bad", bad_utf8_cb, &st);
  char *out = registry_run(r, HL_POINT_ON_COMPACTION, "{}");
  CHECK(st == HL_ERR_INVALID_UTF8, "hl_reply_fail gave %s", hl_status_name(st));
  CHECK_CONTAINS(out, "\"message\":\"hook 'bad' failed\"");
  hl_registry_free(r);
  arena_free();
}

TEST(engine_callback_hook_failure_reason_is_its_stderr) {
  ws_begin();
  hl_engine *e = eng(NULL);
  failing_t f = {"policy file unreadable", 1, 0, 0};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_POST_TOOL_USE, NULL, "boom", failing_cb, &f, NULL, NULL),
               HL_OK);
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK_STR(o, "hooks[0].name", "boom");
  CHECK_NUM(o, "hooks[0].exit_code", 1);
  CHECK_MSG(o, "warning", "policy file unreadable");
  /* A PreToolUse callback hook that replies fail and returns 0 still fails (exit 1). */
  failing_t zero = {"cannot read the policy", 0, 0, 0};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, NULL, "zero", failing_cb, &zero, NULL, NULL),
               HL_OK);
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_NUM(o, "hooks[0].exit_code", 1);
  CHECK_MSG(o, NULL, "cannot read the policy");
  hl_engine_free(e);
  test_end();
}

static int32_t failing_handler(void *ud, const char *req, size_t len, hl_reply *reply) {
  hl_reply_fail(reply, "model unreachable");
  return 1;
}

static int32_t deferring_handler(void *ud, const char *req, size_t len, hl_reply *reply) {
  hl_deferred *d = NULL;
  if (hl_reply_defer(reply, &d, NULL) != HL_OK) return 1;
  /* Answered at once from this thread: the handler failed, with a reason. */
  CHECK_STATUS(hl_deferred_finish(d, 1, "quota exceeded", NULL), HL_OK);
  return 0;
}

TEST(handler_failure_reason_is_in_the_hook_report) {
  ws_begin();
  hl_engine *e = eng("{\"Stop\":[{\"hooks\":[{\"type\":\"prompt\",\"prompt\":\"done?\"}]}]}");
  CHECK_STATUS(hl_engine_set_handler(e, "prompt", failing_handler, NULL, NULL, NULL), HL_OK);
  jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "hooks[0].failure", "handler");
  CHECK_MSG(o, NULL, "the prompt handler failed: model unreachable");
  CHECK_STATUS(hl_engine_set_handler(e, "prompt", deferring_handler, NULL, NULL, NULL), HL_OK);
  o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "hooks[0].failure", "handler");
  CHECK_MSG(o, NULL, "the prompt handler failed: quota exceeded");
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(decide_failure_with_a_reason_denies_naming_it);
  RUN(reply_fail_fails_whatever_the_callback_returns_and_replaces_a_deny);
  RUN(non_zero_return_without_a_reason_keeps_the_plain_message);
  RUN(reply_fail_rejects_null_reply_and_invalid_utf8);
  RUN(reply_fail_with_invalid_utf8_is_refused_and_the_failure_stays_plain);
  RUN(engine_callback_hook_failure_reason_is_its_stderr);
  RUN(handler_failure_reason_is_in_the_hook_report);
  return DONE();
}
