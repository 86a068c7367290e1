/* The registry's second contract, the Antigravity Python SDK's HookRunner
 * (HL_CONTRACT_ANTIGRAVITY_SDK, docs/c-api.md), and the stop point of both contracts, through the
 * C ABI. Each case quotes the SDK's runner (google/antigravity/hooks/hook_runner.py, in the
 * google-antigravity wheel) for the rule it checks. */
#include <stdint.h>
#include "harness.h"

typedef struct {
  const char *json; /* hl_reply_set_json text (NULL: see below) */
  int deny;         /* hl_reply_deny(json) instead */
  int allow;        /* hl_reply_allow */
  const char *fail; /* hl_reply_fail(fail) and return 1 */
  int calls;
  char ctx[1024];
} cb_t;

static int32_t cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  cb_t *c = ud;
  c->calls++;
  snprintf(c->ctx, sizeof c->ctx, "%s", ctx);
  if (c->fail) {
    hl_reply_fail(reply, c->fail);
    return 1;
  }
  if (c->allow) hl_reply_allow(reply);
  else if (c->deny) hl_reply_deny(reply, c->json);
  else if (c->json) hl_reply_set_json(reply, c->json, NULL);
  return 0;
}

static hl_registry *sdk(void) {
  hl_registry *r = NULL;
  CHECK_STATUS(hl_registry_new_with_contract(HL_CONTRACT_ANTIGRAVITY_SDK, &r, NULL), HL_OK);
  return r;
}

static void reg(hl_registry *r, hl_hook_point p, const char *name, cb_t *c) {
  CHECK_STATUS(hl_registry_register(r, p, name, cb, c, NULL, NULL), HL_OK);
}

static char *run(hl_registry *r, hl_hook_point p, const char *ctx) {
  static char keep[4096];
  char *out = NULL, *err = NULL;
  hl_status st = hl_registry_run(r, p, ctx, &out, &err);
  CHECK(st == HL_OK, "run %s: %s (%s)", hl_point_name(p), hl_status_name(st), err ? err : "");
  snprintf(keep, sizeof keep, "%s", out ? out : "");
  hl_string_free(out);
  hl_string_free(err);
  return keep;
}

#define EQ(got, want) CHECK(strcmp((got), (want)) == 0, "got %s\n      want %s", (got), (want))

TEST(new_with_contract_rejects_unknown_contracts_and_null_out) {
  hl_registry *r = (hl_registry *)0x1;
  char *err = NULL;
  CHECK_STATUS(hl_registry_new_with_contract(2, &r, &err), HL_ERR_INVALID_ARGUMENT);
  CHECK(r == NULL, "out must be NULL on failure");
  CHECK_CONTAINS(err, "contract");
  hl_string_free(err);
  CHECK_STATUS(hl_registry_new_with_contract(HL_CONTRACT_AGY_BRIDGE, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_registry_new_with_contract(HL_CONTRACT_AGY_BRIDGE, &r, NULL), HL_OK);
  hl_registry_free(r);
}

/* "for hook in self._stop_hooks: res = await hook.run(...); if res is not None and res.decision ==
 * types.StopDecision.CONTINUE: return res ... return types.StopHookResult(decision=ALLOW_STOP)" */
TEST(stop_first_continue_wins_in_both_contracts) {
  for (int contract = 0; contract < 2; contract++) {
    hl_registry *r = NULL;
    CHECK_STATUS(hl_registry_new_with_contract(contract, &r, NULL), HL_OK);
    cb_t none = {0}, allow = {.json = "{\"decision\":\"ALLOW_STOP\"}"}, go = {.json = "{\"decision\":\"CONTINUE\",\"reason\":\"tests fail\"}"},
         later = {0};
    later.deny = 1;
    later.json = "never";
    reg(r, HL_POINT_STOP, "none", &none);
    reg(r, HL_POINT_STOP, "allow", &allow);
    reg(r, HL_POINT_STOP, "go", &go);
    reg(r, HL_POINT_STOP, "later", &later);
    EQ(run(r, HL_POINT_STOP, "{\"response_text\":\"done\",\"continuation_count\":0}"),
       "{\"allow\":false,\"message\":\"tests fail\",\"tool_args\":null,\"errors\":[],"
       "\"answer\":{\"decision\":\"continue\",\"reason\":\"tests fail\"}}");
    CHECK(later.calls == 0, "a stop callback ran after the first continue");
    CHECK_CONTAINS(none.ctx, "\"trajectory_id\":\"\"");
    hl_registry_unregister(r, HL_POINT_STOP, "go", NULL);
    hl_registry_unregister(r, HL_POINT_STOP, "later", NULL);
    EQ(run(r, HL_POINT_STOP, "{}"), "{\"allow\":true,\"message\":\"\",\"tool_args\":null,\"errors\":[],\"answer\":null}");
    hl_registry_free(r);
  }
}

TEST(stop_deny_is_continue_and_an_invalid_decision_is_a_failure) {
  hl_registry *r = hl_registry_new();
  cb_t bad = {.json = "{\"decision\":\"maybe\"}"}, deny = {.json = "keep going"};
  deny.deny = 1;
  reg(r, HL_POINT_STOP, "bad", &bad);
  reg(r, HL_POINT_STOP, "deny", &deny);
  char *out = run(r, HL_POINT_STOP, "{}");
  CHECK_CONTAINS(out, "\"allow\":false,\"message\":\"keep going\"");
  CHECK_CONTAINS(out, "hook 'bad' failed: invalid reply: decision must be");
  hl_registry_free(r);
}

/* "last_allow_result = res ... return last_allow_result, current_tool_call, op_context": the last
 * allowing hook's message is the result's (agy-bridge's contract returns ""). */
TEST(pre_tool_call_allow_keeps_the_last_allowing_message_and_merged_args) {
  hl_registry *r = sdk();
  cb_t mod = {.json = "{\"allow\":true,\"modified_args\":{\"a\":10}}"}, audit = {.json = "{\"allow\":true,\"message\":\"Audited by policy\"}"};
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "mod", &mod);
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "audit", &audit);
  EQ(run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"t\",\"tool_args\":{\"a\":1,\"b\":2}}"),
     "{\"allow\":true,\"message\":\"Audited by policy\",\"tool_args\":{\"a\":10,\"b\":2},\"errors\":[]}");
  CHECK_CONTAINS(audit.ctx, "\"tool_args\":{\"a\":10,\"b\":2}");
  hl_registry_free(r);
  hl_registry *agy = hl_registry_new();
  reg(agy, HL_POINT_PRE_TOOL_CALL_DECIDE, "audit", &audit);
  CHECK_CONTAINS(run(agy, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"t\"}"), "\"message\":\"\"");
  hl_registry_free(agy);
}

/* "if not res.allow: return res, current_tool_call, op_context": a deny comes back as it is, its
 * own modified_args not merged into the call. */
TEST(pre_tool_call_deny_does_not_merge_its_own_args) {
  hl_registry *r = sdk();
  cb_t deny = {.json = "{\"allow\":false,\"message\":\"Forbidden tool\",\"modified_args\":{\"x\":1}}"};
  reg(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "deny", &deny);
  EQ(run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"t\",\"tool_args\":{\"cmd\":\"ls\"}}"),
     "{\"allow\":false,\"message\":\"Forbidden tool\",\"tool_args\":null,\"errors\":[]}");
  hl_registry_free(r);
}

/* "res = await hook.run(context=op_context, data=error); if res is not None: return
 * HookResult(allow=True), res ... except Exception as e: return HookResult(allow=False,
 * message=f"Error recovery failed: {e}"), None ... return HookResult(allow=False), None" */
TEST(on_tool_error_is_error_recovery) {
  hl_registry *r = sdk();
  cb_t none = {.json = "null"}, fix = {.json = "\"recovered_result\""}, never = {.json = "\"no\""};
  reg(r, HL_POINT_ON_TOOL_ERROR, "none", &none);
  reg(r, HL_POINT_ON_TOOL_ERROR, "fix", &fix);
  reg(r, HL_POINT_ON_TOOL_ERROR, "never", &never);
  EQ(run(r, HL_POINT_ON_TOOL_ERROR, "{\"error\":\"Error\"}"),
     "{\"allow\":true,\"message\":\"\",\"tool_args\":null,\"errors\":[],\"answer\":\"recovered_result\"}");
  CHECK(never.calls == 0, "a recovery hook ran after the first answer");
  hl_registry_free(r);

  r = sdk();
  cb_t boom = {0};
  boom.fail = "Hook failed";
  reg(r, HL_POINT_ON_TOOL_ERROR, "boom", &boom);
  EQ(run(r, HL_POINT_ON_TOOL_ERROR, "{\"tool_name\":\"t\",\"error\":{\"type\":\"ValueError\"}}"),
     "{\"allow\":false,\"message\":\"Error recovery failed: Hook failed\",\"tool_args\":null,"
     "\"errors\":[{\"name\":\"boom\",\"message\":\"hook 'boom' failed: Hook failed\"}],\"answer\":null}");
  hl_registry_unregister(r, HL_POINT_ON_TOOL_ERROR, "boom", NULL);
  reg(r, HL_POINT_ON_TOOL_ERROR, "none", &none);
  EQ(run(r, HL_POINT_ON_TOOL_ERROR, "{}"),
     "{\"allow\":false,\"message\":\"\",\"tool_args\":null,\"errors\":[],\"answer\":null}");
  hl_registry_free(r);

  /* agy-bridge's contract keeps on_tool_error an observer (and requires its fields). */
  hl_registry *agy = hl_registry_new();
  reg(agy, HL_POINT_ON_TOOL_ERROR, "fix", &fix);
  EQ(run(agy, HL_POINT_ON_TOOL_ERROR, "{\"tool_name\":\"t\",\"error\":\"e\"}"),
     "{\"allow\":true,\"message\":\"\",\"tool_args\":null,\"errors\":[]}");
  char *out = NULL;
  CHECK_STATUS(hl_registry_run(agy, HL_POINT_ON_TOOL_ERROR, "{}", &out, NULL), HL_ERR_INVALID_ARGUMENT);
  hl_registry_free(agy);
}

/* "if res is not None: return HookResult(allow=True), res, op_context ... return
 * HookResult(allow=False, message="No interaction hook handled the request"), None, op_context" */
TEST(on_interaction_answers_with_the_first_non_null_reply) {
  hl_registry *r = sdk();
  cb_t none = {0}, answer = {.json = "{\"responses\":[{\"selected_option_ids\":[\"a\"]}]}"};
  reg(r, HL_POINT_ON_INTERACTION, "none", &none);
  reg(r, HL_POINT_ON_INTERACTION, "answer", &answer);
  EQ(run(r, HL_POINT_ON_INTERACTION, "{\"spec\":\"magic_question\"}"),
     "{\"allow\":true,\"message\":\"\",\"tool_args\":null,\"errors\":[],"
     "\"answer\":{\"responses\":[{\"selected_option_ids\":[\"a\"]}]}}");
  hl_registry_unregister(r, HL_POINT_ON_INTERACTION, "answer", NULL);
  EQ(run(r, HL_POINT_ON_INTERACTION, "{}"),
     "{\"allow\":false,\"message\":\"No interaction hook handled the request\",\"tool_args\":null,\"errors\":[],"
     "\"answer\":null}");
  hl_registry_free(r);
}

/* "prompt = prompt or ''" and "a single string/media object or a list of multimodal primitives" */
TEST(pre_turn_takes_list_and_null_prompts) {
  hl_registry *r = sdk();
  cb_t seen = {0};
  reg(r, HL_POINT_PRE_TURN, "seen", &seen);
  run(r, HL_POINT_PRE_TURN, "{\"prompt\":[\"image\",\"text\"]}");
  CHECK_CONTAINS(seen.ctx, "\"prompt\":[\"image\",\"text\"]");
  run(r, HL_POINT_PRE_TURN, "{\"prompt\":null}");
  CHECK_CONTAINS(seen.ctx, "\"prompt\":\"\"");
  run(r, HL_POINT_PRE_TURN, "{}");
  CHECK_CONTAINS(seen.ctx, "\"prompt\":\"\"");
  hl_registry_free(r);
  /* agy-bridge's contract still requires a string prompt. */
  hl_registry *agy = hl_registry_new();
  char *out = NULL, *err = NULL;
  CHECK_STATUS(hl_registry_run(agy, HL_POINT_PRE_TURN, "{\"prompt\":[\"x\"],\"turn_number\":1}", &out, &err),
               HL_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(err, "prompt");
  hl_string_free(err);
  hl_registry_free(agy);
}

/* The SDK lets a hook's exception propagate out of every dispatch: nothing after it runs. */
TEST(a_failure_stops_the_run_at_every_point) {
  hl_registry *r = sdk();
  cb_t boom = {0}, after = {0};
  boom.fail = "policy file unreadable";
  reg(r, HL_POINT_PRE_TURN, "boom", &boom);
  reg(r, HL_POINT_PRE_TURN, "after", &after);
  reg(r, HL_POINT_POST_TURN, "boom", &boom);
  reg(r, HL_POINT_POST_TURN, "after", &after);
  EQ(run(r, HL_POINT_PRE_TURN, "{\"prompt\":\"hi\"}"),
     "{\"allow\":false,\"message\":\"hook 'boom' failed: policy file unreadable\",\"tool_args\":null,"
     "\"errors\":[{\"name\":\"boom\",\"message\":\"hook 'boom' failed: policy file unreadable\"}]}");
  EQ(run(r, HL_POINT_POST_TURN, "{}"),
     "{\"allow\":true,\"message\":\"\",\"tool_args\":null,"
     "\"errors\":[{\"name\":\"boom\",\"message\":\"hook 'boom' failed: policy file unreadable\"}]}");
  CHECK(after.calls == 0, "a callback ran after a failure (%d)", after.calls);
  hl_registry_free(r);
}

/* hl_registry_run_brief: the same run, but the result that says nothing beyond "allowed" is NULL
 * (no string to parse and free). Every case runs once through each entry point on fresh
 * callbacks, and the two must agree: NULL exactly when hl_registry_run gave the plain allow. */
static int plain_allow(const char *json) {
  return strcmp(json, "{\"allow\":true,\"message\":\"\",\"tool_args\":null,\"errors\":[]}") == 0 ||
         strcmp(json, "{\"allow\":true,\"message\":\"\",\"tool_args\":null,\"errors\":[],\"answer\":null}") == 0;
}

TEST(run_brief_is_null_for_a_plain_allow_and_the_full_result_otherwise) {
  struct {
    int contract;
    hl_hook_point point;
    const char *ctx;
    cb_t cb;
    int want_null;
  } cases[] = {
      {1, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"run_command\"}", {.allow = 1}, 1},
      {1, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"run_command\"}", {0}, 1},
      {1, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"t\"}", {.json = "{\"allow\":true,\"message\":\"audited\"}"}, 0},
      {1, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"t\"}", {.json = "{\"modified_args\":{\"a\":1}}"}, 0},
      {1, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"t\"}", {.deny = 1, .json = "no"}, 0},
      {1, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"t\"}", {.fail = "boom"}, 0},
      {0, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"t\"}", {.allow = 1}, 1},
      {0, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"t\",\"tool_args\":{\"x\":1}}", {.allow = 1}, 1},
      {0, HL_POINT_TRANSFORM_TOOL_INPUT, "{\"tool_name\":\"t\",\"tool_args\":{\"x\":1}}", {0}, 0},
      {1, HL_POINT_PRE_TURN, "{\"prompt\":\"hi\"}", {.allow = 1}, 1},
      {1, HL_POINT_POST_TURN, "{}", {0}, 1},
      {1, HL_POINT_POST_TURN, "{}", {.fail = "boom"}, 0},
      {1, HL_POINT_STOP, "{}", {0}, 1}, /* no "continue": answer null */
      {1, HL_POINT_STOP, "{}", {.json = "{\"decision\":\"continue\",\"reason\":\"again\"}"}, 0},
      {1, HL_POINT_ON_TOOL_ERROR, "{}", {0}, 0},                    /* no recovery: allow false */
      {1, HL_POINT_ON_TOOL_ERROR, "{}", {.json = "\"fixed\""}, 0}, /* recovered: answer */
      {1, HL_POINT_ON_INTERACTION, "{}", {0}, 0},
      {0, HL_POINT_ON_INTERACTION, "{\"message\":\"m\"}", {.allow = 1}, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char full[4096];
    cb_t a = cases[i].cb, b = cases[i].cb;
    hl_registry *r = NULL;
    CHECK_STATUS(hl_registry_new_with_contract(cases[i].contract, &r, NULL), HL_OK);
    reg(r, cases[i].point, "a", &a);
    snprintf(full, sizeof full, "%s", run(r, cases[i].point, cases[i].ctx));
    hl_registry_free(r);
    CHECK_STATUS(hl_registry_new_with_contract(cases[i].contract, &r, NULL), HL_OK);
    reg(r, cases[i].point, "a", &b);
    char *out = (char *)1, *err = NULL;
    CHECK_STATUS(hl_registry_run_brief(r, cases[i].point, cases[i].ctx, &out, &err), HL_OK);
    CHECK(err == NULL, "case %zu: errmsg set on success", i);
    CHECK(a.calls == 1 && b.calls == 1, "case %zu: calls %d and %d", i, a.calls, b.calls);
    CHECK(plain_allow(full) == cases[i].want_null, "case %zu: hl_registry_run gave %s", i, full);
    if (cases[i].want_null) {
      CHECK(out == NULL, "case %zu: want NULL for %s, got %s", i, full, out);
    } else {
      CHECK(out != NULL, "case %zu: NULL for %s", i, full);
      EQ(out, full);
    }
    hl_string_free(out);
    hl_registry_free(r);
  }
}

int main(void) {
  RUN(new_with_contract_rejects_unknown_contracts_and_null_out);
  RUN(stop_first_continue_wins_in_both_contracts);
  RUN(stop_deny_is_continue_and_an_invalid_decision_is_a_failure);
  RUN(pre_tool_call_allow_keeps_the_last_allowing_message_and_merged_args);
  RUN(pre_tool_call_deny_does_not_merge_its_own_args);
  RUN(on_tool_error_is_error_recovery);
  RUN(on_interaction_answers_with_the_first_non_null_reply);
  RUN(pre_turn_takes_list_and_null_prompts);
  RUN(a_failure_stops_the_run_at_every_point);
  RUN(run_brief_is_null_for_a_plain_allow_and_the_full_result_otherwise);
  return DONE();
}
