/* Engine conformance: reading hook results per event (docs/protocol.md §5, §6) with real shell hooks. */
#include "engine_util.h"

/* Run `ev` with one VT-dialect group whose hooks are the given script bodies, in order. */
static jv *run_scripts(hl_event ev, const char *input, int timeout, const char *extra, const char **bodies) {
  const char *cmds[16];
  int i;
  for (i = 0; bodies[i]; i++) cmds[i] = script(fmt("h%d.sh", i), bodies[i]);
  cmds[i] = NULL;
  hl_engine *e = eng_new(opts(vt_cmds(eu_keys[ev], timeout, cmds), extra));
  if (!e) return NULL;
  jv *o = run_ev(e, ev, input);
  hl_engine_free(e);
  return o;
}
#define RUNS(ev, input, ...) run_scripts((ev), (input), 0, NULL, (const char *[]){__VA_ARGS__, NULL})
#define RUNS_T(ev, input, timeout, ...) run_scripts((ev), (input), (timeout), NULL, (const char *[]){__VA_ARGS__, NULL})

/* A script line creating the marker file `name` in the workspace. */
static char *mark(const char *name) { return fmt("touch '%s'", wpath(name)); }

/* ------------------------------------------------------------ PreToolUse */

TEST(pre_tool_use_exit_2_with_stderr_denies) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, "echo '  blocked by policy  ' >&2; exit 2");
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "blocked by policy");
  CHECK_NUM(o, "hooks[0].exit_code", 2);
  CHECK_BOOL(o, "continue", 1);
  test_end();
}

TEST(pre_tool_use_exit_2_ignores_stdout_json) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT,
               fmt("%s; echo 'stderr decides' >&2; exit 2",
                   say("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}")));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "stderr decides");
  test_end();
}

TEST(pre_tool_use_exit_2_without_stderr_is_error_and_no_decision) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, "printf '  \\n\\t ' >&2; exit 2", mark("second-ran"));
  CHECK_STR(o, "decision", "continue");
  CHECK_NULL(o, "reason");
  CHECK_MSG(o, "error", "without stderr feedback");
  CHECK_MSG(o, "error", "exited with code 2");
  CHECK(file_exists(wpath("second-ran")), "the next hook did not run after a no-decision exit 2");
  CHECK_LEN(o, "hooks", 2);
  test_end();
}

TEST(pre_tool_use_other_nonzero_exit_warns_and_json_still_honoured) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, "echo oops >&2; exit 1",
               fmt("%s; exit 3", say("{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\","
                                     "\"permissionDecisionReason\":\"check it\"}}")));
  CHECK_MSG(o, "warning", "oops");
  CHECK(jmsg_count(o, "warning") >= 2, "each non-zero exit gives a warning: %s", jraw(o));
  CHECK_STR(o, "decision", "ask");
  CHECK_STR(o, "reason", "check it");
  CHECK_NUM(o, "hooks[0].exit_code", 1);
  CHECK_NUM(o, "hooks[1].exit_code", 3);
  CHECK_BOOL(o, "continue", 1);
  test_end();
}

TEST(pre_tool_use_invalid_json_is_error) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, "echo '{\"continue\": fals'");
  CHECK_MSG(o, "error", "returned invalid JSON output");
  CHECK_MSG(o, "error", "PreToolUse hook");
  CHECK_STR(o, "decision", "continue");
  CHECK_NO_MSG(o, "info", "fals");
  test_end();
}

TEST(pre_tool_use_invalid_json_array_is_error) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, "echo '[1, 2'");
  CHECK_MSG(o, "error", "returned invalid JSON output");
  test_end();
}

TEST(pre_tool_use_continue_false_denies_with_stop_reason) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, say("{\"continue\":false,\"stopReason\":\"  halt now \"}"),
               mark("after"));
  CHECK_STR(o, "decision", "deny");
  CHECK_BOOL(o, "continue", 0);
  CHECK_STR(o, "stop_reason", "halt now");
  CHECK(!file_exists(wpath("after")), "a hook after the deny ran");
  CHECK_LEN(o, "hooks", 1);
  test_end();
}

TEST(pre_tool_use_permission_decision_allow_with_reason) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT,
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\","
                   "\"permissionDecisionReason\":\" safe command \"}}"));
  CHECK_STR(o, "decision", "allow");
  CHECK_STR(o, "reason", "safe command");
  CHECK_BOOL(o, "continue", 1);
  test_end();
}

TEST(pre_tool_use_permission_decision_deny_with_reason) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT,
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                   "\"permissionDecisionReason\":\"not here\"}}"));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "not here");
  test_end();
}

TEST(pre_tool_use_permission_decision_ask_with_reason) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT,
               say("{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"confirm\"}}"));
  CHECK_STR(o, "decision", "ask");
  CHECK_STR(o, "reason", "confirm");
  test_end();
}

TEST(pre_tool_use_legacy_decision_approve_allows) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, say("{\"decision\":\"approve\",\"reason\":\"legacy ok\"}"),
               mark("after"));
  CHECK_STR(o, "decision", "allow");
  CHECK_STR(o, "reason", "legacy ok");
  CHECK(!file_exists(wpath("after")), "a hook after the legacy approve ran");
  test_end();
}

TEST(pre_tool_use_legacy_decision_block_denies) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, say("{\"decision\":\"block\",\"reason\":\"legacy no\"}"));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "legacy no");
  test_end();
}

TEST(pre_tool_use_updated_input_is_seen_by_next_hook_and_returned) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT,
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"updatedInput\":{\"command\":\"ls -la\","
                   "\"added\":1}}}"),
               fmt("cat > '%s'", wpath("stdin2.json")));
  CHECK_STR(o, "decision", "continue");
  CHECK_STR(o, "updated_input.command", "ls -la");
  CHECK_NUM(o, "updated_input.added", 1);
  jv *p = read_json(wpath("stdin2.json"));
  CHECK(p != NULL, "second hook did not get a JSON payload: %s", read_file(wpath("stdin2.json")));
  CHECK_STR(p, "tool_input.command", "ls -la");
  CHECK_NUM(p, "tool_input.added", 1);
  CHECK_STR(p, "tool_name", "Bash");
  test_end();
}

TEST(pre_tool_use_updated_input_chains_through_hooks) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT,
               say("{\"hookSpecificOutput\":{\"updatedInput\":{\"command\":\"step1\"}}}"),
               say("{\"hookSpecificOutput\":{\"updatedInput\":{\"command\":\"step2\"}}}"),
               fmt("cat > '%s'", wpath("stdin3.json")));
  CHECK_STR(o, "updated_input.command", "step2");
  jv *p = read_json(wpath("stdin3.json"));
  CHECK_STR(p, "tool_input.command", "step2");
  test_end();
}

TEST(pre_tool_use_updated_input_returned_when_later_hook_denies) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT,
               say("{\"hookSpecificOutput\":{\"updatedInput\":{\"command\":\"rewritten\"}}}"),
               "echo 'denied later' >&2; exit 2");
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "denied later");
  CHECK_STR(o, "updated_input.command", "rewritten");
  test_end();
}

TEST(pre_tool_use_updated_input_not_object_ignored_with_warning) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, say("{\"hookSpecificOutput\":{\"updatedInput\":\"rm -rf /\"}}"),
               fmt("cat > '%s'", wpath("stdin2.json")));
  CHECK_NULL(o, "updated_input");
  CHECK(jmsg_count(o, "warning") >= 1, "no warning for a non-object updatedInput: %s", jraw(o));
  jv *p = read_json(wpath("stdin2.json"));
  CHECK_STR(p, "tool_input.command", "ls");
  test_end();
}

TEST(pre_tool_use_no_updated_input_is_null) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, "true");
  CHECK_NULL(o, "updated_input");
  CHECK_STR(o, "decision", "continue");
  CHECK_NULL(o, "reason");
  CHECK_LEN(o, "additional_context", 0);
  CHECK_LEN(o, "messages", 0);
  test_end();
}

TEST(pre_tool_use_first_allow_stops_later_hooks) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, say("{\"hookSpecificOutput\":{\"permissionDecision\":\"allow\"}}"),
               fmt("%s; echo 'would deny' >&2; exit 2", mark("later-ran")));
  CHECK_STR(o, "decision", "allow");
  CHECK(!file_exists(wpath("later-ran")), "the hook after an allow ran");
  CHECK_LEN(o, "hooks", 1);
  test_end();
}

TEST(pre_tool_use_first_deny_stops_later_hooks) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, "echo first >&2; exit 2",
               fmt("%s; %s", mark("later-ran"), say("{\"hookSpecificOutput\":{\"permissionDecision\":\"allow\"}}")));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "first");
  CHECK(!file_exists(wpath("later-ran")), "the hook after a deny ran");
  CHECK_LEN(o, "hooks", 1);
  test_end();
}

TEST(pre_tool_use_ask_does_not_stop_later_hooks) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, say("{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\"}}"),
               mark("later-ran"));
  CHECK_STR(o, "decision", "ask");
  CHECK(file_exists(wpath("later-ran")), "the hook after an ask did not run");
  CHECK_LEN(o, "hooks", 2);
  test_end();
}

TEST(pre_tool_use_deny_after_ask_denies) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, say("{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\"}}"),
               "echo nope >&2; exit 2");
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "nope");
  test_end();
}

TEST(pre_tool_use_hook_specific_output_for_other_event_is_ignored) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT,
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"permissionDecision\":\"deny\","
                   "\"additionalContext\":\"wrong event\",\"updatedInput\":{\"command\":\"x\"}}}"));
  CHECK_STR(o, "decision", "continue");
  CHECK_NULL(o, "updated_input");
  CHECK_LEN(o, "additional_context", 0);
  test_end();
}

TEST(pre_tool_use_hook_event_name_matches_case_insensitively) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT,
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"pretooluse\",\"permissionDecision\":\"deny\","
                   "\"permissionDecisionReason\":\"lower\"}}"));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "lower");
  test_end();
}

TEST(pre_tool_use_plain_stdout_is_info_and_stderr_on_success_warns) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, "echo '  checked the command  '; echo 'side note' >&2");
  CHECK_MSG(o, "info", "checked the command");
  int i = jmsg(o, "info", "checked the command");
  CHECK(i >= 0 && !strcmp(js(o, fmt("messages[%d].text", i)), "checked the command"), "info text not trimmed: %s",
        jraw(o));
  CHECK_MSG(o, "warning", "side note");
  CHECK_STR(o, "decision", "continue");
  test_end();
}

TEST(pre_tool_use_additional_context_collected_in_order) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT,
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\" ctx one \"}}"),
               say("{\"hookSpecificOutput\":{\"additionalContext\":\"ctx two\"}}"));
  CHECK_LEN(o, "additional_context", 2);
  CHECK_STR(o, "additional_context[0]", "ctx one");
  CHECK_STR(o, "additional_context[1]", "ctx two");
  test_end();
}

TEST(pre_tool_use_system_message_is_info) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, say("{\"systemMessage\":\"  hello user  \"}"));
  CHECK_MSG(o, "info", "hello user");
  CHECK_STR(o, "decision", "continue");
  test_end();
}

TEST(pre_tool_use_timeout_denies_fail_closed) {
  ws_begin();
  double t0 = now_ms();
  jv *o = RUNS_T(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, 1, "sleep 30", mark("after"));
  double dt = now_ms() - t0;
  CHECK(dt < 3000, "timeout 1 s run took %.0f ms", dt);
  CHECK_STR(o, "decision", "deny");
  CHECK_MSG(o, "error", "timed out");
  CHECK_BOOL(o, "hooks[0].timed_out", 1);
  CHECK_NULL(o, "hooks[0].exit_code");
  CHECK(!file_exists(wpath("after")), "a hook after the timeout-deny ran");
  test_end();
}

TEST(pre_tool_use_timeout_after_ask_stays_ask) {
  ws_begin();
  jv *o = RUNS_T(HL_EVENT_PRE_TOOL_USE, PTU_INPUT, 1,
                 say("{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"ask first\"}}"),
                 "sleep 30");
  CHECK_STR(o, "decision", "ask");
  CHECK_MSG(o, "error", "timed out");
  CHECK_BOOL(o, "hooks[1].timed_out", 1);
  test_end();
}

/* ------------------------------------------------------- UserPromptSubmit */

TEST(user_prompt_submit_exit_2_with_stderr_blocks_and_keeps_stdout_context) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT, "echo 'context line'; echo 'no secrets' >&2; exit 2",
               mark("after"));
  CHECK_BOOL(o, "allow_prompt", 0);
  CHECK_STR(o, "block_reason", "no secrets");
  CHECK(jarr_has(o, "additional_context", "context line"), "stdout of the blocking hook not kept: %s", jraw(o));
  CHECK(!file_exists(wpath("after")), "a hook after the block ran");
  test_end();
}

TEST(user_prompt_submit_exit_2_without_stderr_is_error_no_block) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT, "exit 2", mark("after"));
  CHECK_BOOL(o, "allow_prompt", 1);
  CHECK_NULL(o, "block_reason");
  CHECK_MSG(o, "error", "without stderr feedback");
  CHECK(file_exists(wpath("after")), "the run stopped without a block");
  test_end();
}

TEST(user_prompt_submit_decision_block_with_reason_blocks) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT, say("{\"decision\":\"block\",\"reason\":\" off-topic \"}"));
  CHECK_BOOL(o, "allow_prompt", 0);
  CHECK_STR(o, "block_reason", "off-topic");
  test_end();
}

TEST(user_prompt_submit_decision_block_needs_reason) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT, say("{\"decision\":\"block\",\"reason\":\"   \"}"),
               mark("after"));
  CHECK_BOOL(o, "allow_prompt", 1);
  CHECK_NULL(o, "block_reason");
  CHECK(jmsg_count(o, "error") >= 1, "no error for a block without reason: %s", jraw(o));
  CHECK(file_exists(wpath("after")), "the run stopped without a block");
  test_end();
}

TEST(user_prompt_submit_continue_false_blocks_with_stop_reason) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT,
               say("{\"continue\":false,\"stopReason\":\"stop reason wins\",\"reason\":\"plain reason\"}"));
  CHECK_BOOL(o, "allow_prompt", 0);
  CHECK_STR(o, "block_reason", "stop reason wins");
  CHECK_BOOL(o, "continue", 0);
  CHECK_STR(o, "stop_reason", "stop reason wins");
  test_end();
}

TEST(user_prompt_submit_continue_false_falls_back_to_reason) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT, say("{\"continue\":false,\"reason\":\"plain reason\"}"));
  CHECK_BOOL(o, "allow_prompt", 0);
  CHECK_STR(o, "block_reason", "plain reason");
  test_end();
}

TEST(user_prompt_submit_continue_false_without_reason_is_error_no_block) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT, say("{\"continue\":false}"));
  CHECK_BOOL(o, "allow_prompt", 1);
  CHECK_NULL(o, "block_reason");
  CHECK(jmsg_count(o, "error") >= 1, "no error for continue:false without reason: %s", jraw(o));
  test_end();
}

TEST(user_prompt_submit_plain_stdout_and_additional_context_become_context) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT, "echo '  plain ctx  '",
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"json ctx\"}}"),
               say("{\"additional_context\":\"vt ctx\"}"));
  CHECK_BOOL(o, "allow_prompt", 1);
  CHECK_LEN(o, "additional_context", 3);
  CHECK_STR(o, "additional_context[0]", "plain ctx");
  CHECK_STR(o, "additional_context[1]", "json ctx");
  CHECK_STR(o, "additional_context[2]", "vt ctx");
  test_end();
}

TEST(user_prompt_submit_suppress_output_hides_snake_case_context) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT, say("{\"additional_context\":\"hidden\",\"suppressOutput\":true}"));
  CHECK(!jarr_has(o, "additional_context", "hidden"), "suppressOutput did not hide additional_context: %s", jraw(o));
  test_end();
}

/* ------------------------------------------------------------------- Stop */

TEST(stop_decision_block_with_reason_blocks_and_stops) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_STOP, STOP_INPUT, say("{\"decision\":\"block\",\"reason\":\" tests still fail \"}"),
               mark("after"));
  CHECK_STR(o, "block_reason", "tests still fail");
  CHECK(!file_exists(wpath("after")), "a Stop hook after the block ran");
  CHECK_LEN(o, "hooks", 1);
  test_end();
}

TEST(stop_continue_false_stop_reason_is_block_reason) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_STOP, STOP_INPUT, say("{\"continue\":false,\"stopReason\":\"keep going\"}"));
  CHECK_STR(o, "block_reason", "keep going");
  CHECK_BOOL(o, "continue", 0);
  CHECK_STR(o, "stop_reason", "keep going");
  test_end();
}

TEST(stop_without_block_lets_agent_stop) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_STOP, STOP_INPUT, "echo fine", say("{\"decision\":\"block\"}"));
  CHECK_NULL(o, "block_reason");
  CHECK_LEN(o, "hooks", 2);
  test_end();
}

/* ------------------------------------------------------ PermissionRequest */

TEST(permission_request_vt_shape_updated_permissions_session_scope) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PERMISSION_REQUEST, PERM_INPUT,
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"},"
                   "\"updatedInput\":{\"command\":\"rm -rf build/tmp\"},"
                   "\"updatedPermissions\":[{\"addRules\":[{\"toolName\":\"Bash\",\"ruleContent\":\"rm -rf build\"}],"
                   "\"destination\":\"session\"}],\"message\":\" granted \"}}"),
               mark("after"));
  CHECK_STR(o, "decision.behavior", "allow");
  CHECK_STR(o, "decision.scope", "session");
  CHECK_STR(o, "decision.updated_input.command", "rm -rf build/tmp");
  CHECK_LEN(o, "decision.permission_updates", 1);
  CHECK_STR(o, "decision.permission_updates[0].addRules[0].toolName", "Bash");
  CHECK_BOOL(o, "decision.interrupt", 0);
  CHECK_STR(o, "decision.message", "granted");
  CHECK(!file_exists(wpath("after")), "a PermissionRequest hook after the decision ran");
  test_end();
}

TEST(permission_request_claude_shape_session_destination_is_session_scope) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PERMISSION_REQUEST, PERM_INPUT,
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\","
                   "\"updatedPermissions\":[{\"type\":\"addRules\",\"rules\":[{\"toolName\":\"Bash\"}],"
                   "\"behavior\":\"allow\",\"destination\":\"session\"}]}}}"));
  CHECK_STR(o, "decision.behavior", "allow");
  CHECK_STR(o, "decision.scope", "session");
  CHECK_STR(o, "decision.permission_updates[0].type", "addRules");
  CHECK_NULL(o, "decision.updated_input");
  test_end();
}

TEST(permission_request_project_settings_destination_is_permanent) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PERMISSION_REQUEST, PERM_INPUT,
               say("{\"hookSpecificOutput\":{\"decision\":{\"behavior\":\"allow\","
                   "\"updatedPermissions\":[{\"type\":\"addRules\",\"rules\":[{\"toolName\":\"Bash\"}],"
                   "\"behavior\":\"allow\",\"destination\":\"projectSettings\"}]}}}"));
  CHECK_STR(o, "decision.scope", "permanent");
  test_end();
}

TEST(permission_request_without_updates_is_once) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PERMISSION_REQUEST, PERM_INPUT,
               say("{\"hookSpecificOutput\":{\"decision\":{\"behavior\":\"deny\",\"message\":\"no way\","
                   "\"interrupt\":true}}}"));
  CHECK_STR(o, "decision.behavior", "deny");
  CHECK_STR(o, "decision.scope", "once");
  CHECK_BOOL(o, "decision.interrupt", 1);
  CHECK_STR(o, "decision.message", "no way");
  CHECK_LEN(o, "decision.permission_updates", 0);
  test_end();
}

TEST(permission_request_inside_decision_wins_over_vt_placement) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PERMISSION_REQUEST, PERM_INPUT,
               say("{\"hookSpecificOutput\":{\"decision\":{\"behavior\":\"allow\",\"message\":\"inner\","
                   "\"updatedInput\":{\"v\":\"inner\"}},\"message\":\"outer\",\"updatedInput\":{\"v\":\"outer\"}}}"));
  CHECK_STR(o, "decision.message", "inner");
  CHECK_STR(o, "decision.updated_input.v", "inner");
  test_end();
}

TEST(permission_request_no_decision_is_null_and_runs_all) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_PERMISSION_REQUEST, PERM_INPUT, "echo nothing to say", mark("after"));
  CHECK_NULL(o, "decision");
  CHECK(file_exists(wpath("after")), "second hook did not run");
  test_end();
}

/* ----------------------------------------------------------- SessionStart */

TEST(session_start_plain_stdout_is_context) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_SESSION_START, "{}", "echo '  repo uses pnpm  '");
  CHECK_LEN(o, "additional_context", 1);
  CHECK_STR(o, "additional_context[0]", "repo uses pnpm");
  test_end();
}

TEST(session_start_json_additional_context_string_and_array) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_SESSION_START, "{}",
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"single\"}}"),
               say("{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":[\"a1\",\"a2\"]}}"),
               say("{\"additional_context\":[\"snake\"]}"));
  CHECK_LEN(o, "additional_context", 4);
  CHECK_STR(o, "additional_context[0]", "single");
  CHECK_STR(o, "additional_context[1]", "a1");
  CHECK_STR(o, "additional_context[2]", "a2");
  CHECK_STR(o, "additional_context[3]", "snake");
  test_end();
}

TEST(session_start_nonzero_exit_or_stderr_is_error) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_SESSION_START, "{}", "echo 'boom' >&2; exit 1", "echo 'just stderr' >&2");
  CHECK_MSG(o, "error", "boom");
  CHECK_MSG(o, "error", "just stderr");
  CHECK_BOOL(o, "continue", 1);
  test_end();
}

/* ------------------------------------------------ PostToolUse / Failure */

TEST(post_tool_use_decision_block_with_reason_sets_block_reason) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_POST_TOOL_USE, POST_INPUT,
               say("{\"decision\":\"block\",\"reason\":\" lint failed \",\"hookSpecificOutput\":{\"hookEventName\":"
                   "\"PostToolUse\",\"additionalContext\":\"fix lint\"}}"));
  CHECK_STR(o, "block_reason", "lint failed");
  CHECK(jarr_has(o, "additional_context", "fix lint"), "additionalContext missing: %s", jraw(o));
  test_end();
}

TEST(post_tool_use_first_block_in_configuration_order_wins) {
  ws_begin();
  /* The first hook finishes last: concurrency must not change the merge order. */
  jv *o = RUNS(HL_EVENT_POST_TOOL_USE, POST_INPUT, fmt("sleep 0.5; %s", say("{\"decision\":\"block\",\"reason\":\"first\"}")),
               say("{\"decision\":\"block\",\"reason\":\"second\"}"));
  CHECK_STR(o, "block_reason", "first");
  CHECK_LEN(o, "hooks", 2);
  test_end();
}

TEST(post_tool_use_block_without_reason_is_error_no_block) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_POST_TOOL_USE, POST_INPUT, say("{\"decision\":\"block\"}"));
  CHECK_NULL(o, "block_reason");
  CHECK(jmsg_count(o, "error") >= 1, "no error for a block without reason: %s", jraw(o));
  test_end();
}

TEST(post_tool_use_nonzero_exit_warns_and_plain_stdout_is_info) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_POST_TOOL_USE, POST_INPUT, "echo 'bad thing' >&2; exit 1", "echo 'formatted 3 files'");
  CHECK_MSG(o, "warning", "bad thing");
  CHECK_MSG(o, "info", "formatted 3 files");
  CHECK_NULL(o, "block_reason");
  CHECK_LEN(o, "additional_context", 0);
  test_end();
}

TEST(post_tool_use_exit_2_is_not_a_block) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_POST_TOOL_USE, POST_INPUT, "echo 'exit two' >&2; exit 2");
  CHECK_NULL(o, "block_reason");
  CHECK_MSG(o, "warning", "exit two");
  test_end();
}

TEST(post_tool_use_failure_decision_block_and_context) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_POST_TOOL_USE_FAILURE, FAIL_INPUT,
               say("{\"decision\":\"block\",\"reason\":\"retry differently\",\"hookSpecificOutput\":{"
                   "\"additionalContext\":\"hint\"}}"));
  CHECK_STR(o, "block_reason", "retry differently");
  CHECK(jarr_has(o, "additional_context", "hint"), "additionalContext missing: %s", jraw(o));
  test_end();
}

/* ------------------------------------------------ observer events */

static void observer_case(hl_event ev) {
  jv *o = RUNS(ev, eu_inputs[ev], "echo 'observer failed' >&2; exit 2",
               say("{\"decision\":\"block\",\"reason\":\"cannot block\",\"systemMessage\":\"sys msg\"}"),
               "echo 'plain observer output'", "echo 'only stderr' >&2");
  CHECK(o != NULL, "%s run failed", hl_event_name(ev));
  CHECK_MSG(o, "error", "observer failed");
  CHECK_MSG(o, "error", "only stderr");
  CHECK_MSG(o, "info", "sys msg");
  CHECK_MSG(o, "info", "plain observer output");
  CHECK(!jhas(o, "block_reason") && !jhas(o, "decision") && !jhas(o, "allow_prompt"),
        "%s outcome has decision fields: %s", hl_event_name(ev), jraw(o));
  CHECK_BOOL(o, "continue", 1);
  CHECK_LEN(o, "hooks", 4);
}

TEST(session_end_never_blocks_and_reports_errors) { ws_begin(); observer_case(HL_EVENT_SESSION_END); test_end(); }
TEST(notification_never_blocks_and_reports_errors) { ws_begin(); observer_case(HL_EVENT_NOTIFICATION); test_end(); }
TEST(pre_compact_never_blocks_and_reports_errors) { ws_begin(); observer_case(HL_EVENT_PRE_COMPACT); test_end(); }
TEST(subagent_start_never_blocks_and_reports_errors) { ws_begin(); observer_case(HL_EVENT_SUBAGENT_START); test_end(); }
TEST(subagent_stop_never_blocks_and_reports_errors) { ws_begin(); observer_case(HL_EVENT_SUBAGENT_STOP); test_end(); }

TEST(observer_continue_false_sets_continue_and_stop_reason) {
  ws_begin();
  jv *o = RUNS(HL_EVENT_SESSION_END, SEND_INPUT, say("{\"continue\":false,\"stopReason\":\"first stop\"}"),
               say("{\"continue\":false,\"stopReason\":\"second stop\"}"));
  CHECK_BOOL(o, "continue", 0);
  CHECK_STR(o, "stop_reason", "first stop");
  test_end();
}

/* ------------------------------------------------------ quiet / timeouts */

TEST(quiet_success_output_suppresses_plain_stdout_info) {
  ws_begin();
  const char *cmd = script("quiet.sh", "echo 'routine chatter'");
  const char *fail = script("fail.sh", "echo 'failing chatter'; exit 1");
  char *lifecycle = fmt("{\"lifecycle\":{\"quiet_success_output\":true,\"post_tool_use\":[%s]}}",
                        group(NULL, fmt("%s,%s", vt_hook(cmd, 0), vt_hook(fail, 0))));
  hl_engine *e = eng(lifecycle);
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK_NO_MSG(o, "info", "routine chatter");
  CHECK(jmsg_count(o, "warning") >= 1, "the failing hook lost its warning: %s", jraw(o));
  hl_engine_free(e);
  /* Control: the same hook without the flag produces the info message. */
  e = eng(vt_cmds("post_tool_use", 0, (const char *[]){cmd, NULL}));
  o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK_MSG(o, "info", "routine chatter");
  hl_engine_free(e);
  test_end();
}

TEST(timeout_on_observer_event_is_error_and_run_goes_on) {
  ws_begin();
  double t0 = now_ms();
  jv *o = RUNS_T(HL_EVENT_POST_TOOL_USE, POST_INPUT, 1, "sleep 30", "echo 'still ran'");
  CHECK(now_ms() - t0 < 3000, "timeout 1 s run took %.0f ms", now_ms() - t0);
  CHECK_MSG(o, "error", "timed out");
  CHECK_MSG(o, "info", "still ran");
  CHECK_NULL(o, "block_reason");
  CHECK_BOOL(o, "hooks[0].timed_out", 1);
  CHECK_NULL(o, "hooks[0].exit_code");
  CHECK_BOOL(o, "hooks[1].timed_out", 0);
  test_end();
}

TEST(timeout_on_user_prompt_submit_does_not_block) {
  ws_begin();
  jv *o = RUNS_T(HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT, 1, "sleep 30", mark("after"));
  CHECK_BOOL(o, "allow_prompt", 1);
  CHECK_MSG(o, "error", "timed out");
  CHECK(file_exists(wpath("after")), "run did not go on after a timeout");
  test_end();
}

TEST(timeout_on_permission_request_is_no_decision) {
  ws_begin();
  jv *o = RUNS_T(HL_EVENT_PERMISSION_REQUEST, PERM_INPUT, 1, "sleep 30");
  CHECK_NULL(o, "decision");
  CHECK_MSG(o, "error", "timed out");
  test_end();
}

TEST(outcome_of_every_event_has_exactly_its_fields) {
  ws_begin();
  static const char *extra[12] = {
      "additional_context",                               /* SessionStart */
      "",                                                 /* SessionEnd */
      "",                                                 /* SubagentStart */
      "",                                                 /* SubagentStop */
      "allow_prompt block_reason additional_context",     /* UserPromptSubmit */
      "decision reason updated_input additional_context", /* PreToolUse */
      "block_reason additional_context",                  /* PostToolUse */
      "decision",                                         /* PermissionRequest */
      "",                                                 /* PreCompact */
      "block_reason",                                     /* Stop */
      "",                                                 /* Notification */
      "block_reason additional_context",                  /* PostToolUseFailure */
  };
  for (int ev = 0; ev < 12; ev++) {
    hl_engine *e = eng(NULL);
    jv *o = run_ev(e, ev, eu_inputs[ev]);
    CHECK(jlen(o, "messages") == 0 && jb(o, "continue") == 1 && jnull(o, "stop_reason") && jlen(o, "hooks") == 0,
          "%s: empty outcome wrong: %s", hl_event_name(ev), jraw(o));
    char *want = fmt("%s messages continue stop_reason hooks", extra[ev]);
    long n = 0;
    for (char *w = want; *w;) {
      size_t k = strcspn(w, " ");
      if (k) {
        char *key = fmt("%.*s", (int)k, w);
        CHECK(jhas(o, key), "%s outcome lacks `%s`: %s", hl_event_name(ev), key, jraw(o));
        n++;
      }
      w += k;
      while (*w == ' ') w++;
    }
    CHECK(jlen(o, "") == n, "%s outcome has %ld fields, want %ld: %s", hl_event_name(ev), jlen(o, ""), n, jraw(o));
    hl_engine_free(e);
  }
  test_end();
}

int main(void) {
  RUN(pre_tool_use_exit_2_with_stderr_denies);
  RUN(pre_tool_use_exit_2_ignores_stdout_json);
  RUN(pre_tool_use_exit_2_without_stderr_is_error_and_no_decision);
  RUN(pre_tool_use_other_nonzero_exit_warns_and_json_still_honoured);
  RUN(pre_tool_use_invalid_json_is_error);
  RUN(pre_tool_use_invalid_json_array_is_error);
  RUN(pre_tool_use_continue_false_denies_with_stop_reason);
  RUN(pre_tool_use_permission_decision_allow_with_reason);
  RUN(pre_tool_use_permission_decision_deny_with_reason);
  RUN(pre_tool_use_permission_decision_ask_with_reason);
  RUN(pre_tool_use_legacy_decision_approve_allows);
  RUN(pre_tool_use_legacy_decision_block_denies);
  RUN(pre_tool_use_updated_input_is_seen_by_next_hook_and_returned);
  RUN(pre_tool_use_updated_input_chains_through_hooks);
  RUN(pre_tool_use_updated_input_returned_when_later_hook_denies);
  RUN(pre_tool_use_updated_input_not_object_ignored_with_warning);
  RUN(pre_tool_use_no_updated_input_is_null);
  RUN(pre_tool_use_first_allow_stops_later_hooks);
  RUN(pre_tool_use_first_deny_stops_later_hooks);
  RUN(pre_tool_use_ask_does_not_stop_later_hooks);
  RUN(pre_tool_use_deny_after_ask_denies);
  RUN(pre_tool_use_hook_specific_output_for_other_event_is_ignored);
  RUN(pre_tool_use_hook_event_name_matches_case_insensitively);
  RUN(pre_tool_use_plain_stdout_is_info_and_stderr_on_success_warns);
  RUN(pre_tool_use_additional_context_collected_in_order);
  RUN(pre_tool_use_system_message_is_info);
  RUN(pre_tool_use_timeout_denies_fail_closed);
  RUN(pre_tool_use_timeout_after_ask_stays_ask);
  RUN(user_prompt_submit_exit_2_with_stderr_blocks_and_keeps_stdout_context);
  RUN(user_prompt_submit_exit_2_without_stderr_is_error_no_block);
  RUN(user_prompt_submit_decision_block_with_reason_blocks);
  RUN(user_prompt_submit_decision_block_needs_reason);
  RUN(user_prompt_submit_continue_false_blocks_with_stop_reason);
  RUN(user_prompt_submit_continue_false_falls_back_to_reason);
  RUN(user_prompt_submit_continue_false_without_reason_is_error_no_block);
  RUN(user_prompt_submit_plain_stdout_and_additional_context_become_context);
  RUN(user_prompt_submit_suppress_output_hides_snake_case_context);
  RUN(stop_decision_block_with_reason_blocks_and_stops);
  RUN(stop_continue_false_stop_reason_is_block_reason);
  RUN(stop_without_block_lets_agent_stop);
  RUN(permission_request_vt_shape_updated_permissions_session_scope);
  RUN(permission_request_claude_shape_session_destination_is_session_scope);
  RUN(permission_request_project_settings_destination_is_permanent);
  RUN(permission_request_without_updates_is_once);
  RUN(permission_request_inside_decision_wins_over_vt_placement);
  RUN(permission_request_no_decision_is_null_and_runs_all);
  RUN(session_start_plain_stdout_is_context);
  RUN(session_start_json_additional_context_string_and_array);
  RUN(session_start_nonzero_exit_or_stderr_is_error);
  RUN(post_tool_use_decision_block_with_reason_sets_block_reason);
  RUN(post_tool_use_first_block_in_configuration_order_wins);
  RUN(post_tool_use_block_without_reason_is_error_no_block);
  RUN(post_tool_use_nonzero_exit_warns_and_plain_stdout_is_info);
  RUN(post_tool_use_exit_2_is_not_a_block);
  RUN(post_tool_use_failure_decision_block_and_context);
  RUN(session_end_never_blocks_and_reports_errors);
  RUN(notification_never_blocks_and_reports_errors);
  RUN(pre_compact_never_blocks_and_reports_errors);
  RUN(subagent_start_never_blocks_and_reports_errors);
  RUN(subagent_stop_never_blocks_and_reports_errors);
  RUN(observer_continue_false_sets_continue_and_stop_reason);
  RUN(quiet_success_output_suppresses_plain_stdout_info);
  RUN(timeout_on_observer_event_is_error_and_run_goes_on);
  RUN(timeout_on_user_prompt_submit_does_not_block);
  RUN(timeout_on_permission_request_is_no_decision);
  RUN(outcome_of_every_event_has_exactly_its_fields);
  return DONE();
}
