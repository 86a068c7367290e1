/* The Claude Code rules of the hooks reference through the C ABI: how a
 * settings file is read (hl_engine_config_warnings), `defer`, Stop, the
 * Stop block cap, the SessionStart source, `if` on Bash, and the outcome
 * shapes of the events fired by name that have rules of their own
 * (docs/profiles.md). Each test quotes the reference's sentence. */
#include "engine_util.h"

static char *cc(const char *event_name, const char *hooks_list) { return cc_config(event_name, group(NULL, hooks_list)); }

/* Fire `name` on `e`; the parsed outcome (tracked). */
static jv *named(hl_engine *e, const char *name, const char *input) {
  char *out = NULL, *err = NULL;
  hl_status st = hl_engine_run_named(e, name, input, &out, &err);
  CHECK(st == HL_OK && out != NULL, "hl_engine_run_named(%s): %s: %s", name, hl_status_name(st), err ? err : "");
  jv *o = out ? jv_parse(out) : NULL;
  hl_string_free(out);
  hl_string_free(err);
  return track_jv(o);
}

/* The engine's configuration warnings, parsed (tracked). */
static jv *warnings_of(hl_engine *e) {
  char *w = NULL, *err = NULL;
  CHECK_STATUS(hl_engine_config_warnings(e, &w, &err), HL_OK);
  CHECK(err == NULL, "errmsg set on success");
  jv *v = w ? jv_parse(w) : NULL;
  CHECK(v != NULL, "warnings are not JSON: %s", w ? w : "(null)");
  hl_string_free(w);
  return track_jv(v);
}

#define EXIT2(msg) "cat >/dev/null; echo '" msg "' >&2; exit 2"

/* "Fixed a malformed hooks entry in settings.json no longer invalidating the
 * entire file"; "Settings Warning: ... Claude Code skips those values and keeps
 * the rest of the file in effect." */
TEST(config_warnings_name_each_skipped_entry_and_the_rest_loads) {
  ws_begin();
  char *hooks = fmt("{\"PreToolUse\":[{\"hooks\":[{\"type\":\"command\"},{\"type\":\"webhook\"},%s]},"
                    "{\"matcher\":\"(\",\"hooks\":[%s]}]}",
                    cc_hook(EXIT2("guarded"), 0), cc_hook("true", 0));
  hl_engine *e = eng(hooks);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "guarded");
  jv *w = warnings_of(e);
  CHECK_LEN(w, "", 3);
  CHECK_STR(w, "[0].path", "hooks.PreToolUse[0].hooks[0]");
  CHECK(strstr(js(w, "[0].message") ? js(w, "[0].message") : "", "must specify a command") != NULL, "%s", jraw(w));
  CHECK_STR(w, "[1].path", "hooks.PreToolUse[0].hooks[1]");
  CHECK(strstr(js(w, "[1].message") ? js(w, "[1].message") : "", "\"webhook\"") != NULL, "%s", jraw(w));
  CHECK_STR(w, "[2].path", "hooks.PreToolUse[1]");
  hl_engine_free(e);
  /* No warnings: an empty array. Bad arguments: a status, never a crash. */
  e = eng(cc("Stop", cc_hook("true", 0)));
  CHECK_LEN(warnings_of(e), "", 0);
  char *out = NULL, *err = NULL;
  CHECK_STATUS(hl_engine_config_warnings(NULL, &out, &err), HL_ERR_NULL_ARGUMENT);
  CHECK(out == NULL, "no output on failure");
  hl_string_free(err);
  err = NULL;
  CHECK_STATUS(hl_engine_config_warnings(e, NULL, &err), HL_ERR_NULL_ARGUMENT);
  hl_string_free(err);
  hl_engine_free(e);
  /* VT Code still rejects the configuration. */
  hl_engine *vt = NULL;
  err = NULL;
  CHECK_STATUS(hl_engine_new(opts(vt_config("stop", group(NULL, "{\"type\":\"command\"}")), NULL), &vt, &err),
               HL_ERR_INVALID_CONFIG);
  CHECK_CONTAINS(err, "hooks.stop[0].hooks[0] must specify a command");
  hl_string_free(err);
  test_end();
}

/* "Settings Error: a user, project, or local file has invalid JSON" — and a
 * file without a `hooks` key contributes no hooks. */
TEST(a_settings_file_that_is_not_json_is_rejected_one_without_hooks_contributes_none) {
  ws_begin();
  mkdir(wpath(".claude"), 0700);
  write_file(wpath(".claude/settings.json"), "{\"hooks\": {\"Stop\": [],}}");
  hl_engine *e = NULL;
  char *err = NULL;
  CHECK_STATUS(hl_engine_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(wpath(".claude/settings.json")))), &e, &err),
               HL_ERR_INVALID_CONFIG);
  CHECK_CONTAINS(err, "not valid JSON");
  hl_string_free(err);
  write_file(wpath(".claude/settings.local.json"), "{\"permissions\":{\"allow\":[\"Bash(ls)\"]},\"availableModels\":[\"x\"]}");
  e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(wpath(".claude/settings.local.json")))));
  CHECK(e != NULL, "a settings file without hooks must not fail the engine");
  if (e) {
    jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
    CHECK_LEN(o, "hooks", 0);
    CHECK_LEN(warnings_of(e), "", 0);
  }
  hl_engine_free(e);
  test_end();
}

/* "precedence is deny > defer > ask > allow"; "For "defer", ignored". */
TEST(pre_tool_use_defer_is_the_decision_defer) {
  ws_begin();
  char *defer = say("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"defer\","
                    "\"permissionDecisionReason\":\"later\"}}");
  char *ask = say("{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"confirm\"}}");
  hl_engine *e = eng(cc("PreToolUse", fmt("%s,%s", cc_hook(ask, 0), cc_hook(defer, 0))));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "defer");
  CHECK_NULL(o, "reason");
  hl_engine_free(e);
  e = eng(cc("PreToolUse", fmt("%s,%s", cc_hook(defer, 0), cc_hook(EXIT2("no"), 0))));
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "deny");
  hl_engine_free(e);
  test_end();
}

/* "All matching hooks run in parallel"; Stop keeps every block reason. */
TEST(stop_hooks_all_run_and_every_reason_is_kept_in_order) {
  ws_begin();
  char *first = fmt("cat >/dev/null; n=0; while [ $n -lt 200 ] && [ ! -e '%s' ]; do sleep 0.05; n=$((n+1)); done; "
                    "[ -e '%s' ] || exit 0; echo one >&2; exit 2",
                    wpath("second"), wpath("second"));
  char *second = fmt("cat >/dev/null; touch '%s'; echo two >&2; exit 2", wpath("second"));
  hl_engine *e = eng(cc("Stop", fmt("%s,%s", cc_hook(first, 0), cc_hook(second, 0))));
  jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "block_reason", "one\ntwo");
  CHECK_LEN(o, "hooks", 2);
  hl_engine_free(e);
  test_end();
}

/* "Claude Code overrides the hook and ends the turn after 8 consecutive
 * blocks" — option stop_hook_block_cap (here 1; 0 turns it off). */
TEST(stop_hook_block_cap_allows_the_next_stop_with_a_warning) {
  ws_begin();
  hl_engine *e = eng_new(opts(cc("Stop", cc_hook(EXIT2("again"), 0)), "\"stop_hook_block_cap\":1"));
  jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "block_reason", "again");
  o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_NULL(o, "block_reason");
  CHECK_MSG(o, "warning", "stop_hook_block_cap");
  o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "block_reason", "again");
  hl_engine_free(e);
  hl_engine *bad = NULL;
  char *err = NULL;
  CHECK_STATUS(hl_engine_new(opts(NULL, "\"stop_hook_block_cap\":\"8\""), &bad, &err), HL_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(err, "stop_hook_block_cap");
  hl_string_free(err);
  test_end();
}

/* "fork | A new session forked from an existing one" — any source in the
 * Claude Code profile; the VT Code profile keeps its values. */
TEST(any_session_start_source_in_the_claude_profile_only) {
  ws_begin();
  char *hook = cc_hook(fmt("cat > '%s'", wpath("payload.json")), 0);
  hl_engine *e = eng_new(opts(cc_config("SessionStart", group("fork", hook)), "\"trigger\":\"fork\""));
  jv *o = run_ev(e, HL_EVENT_SESSION_START, "{}");
  CHECK_LEN(o, "hooks", 1);
  CHECK_STR(read_json(wpath("payload.json")), "source", "fork");
  hl_engine_free(e);
  hl_engine *vt = NULL;
  char *err = NULL;
  CHECK_STATUS(hl_engine_new(opts(vt_config("session_start", group(NULL, vt_hook("true", 0))), "\"trigger\":\"fork\""),
                             &vt, &err),
               HL_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(err, "option `trigger`");
  hl_string_free(err);
  test_end();
}

/* The reference's Bash matching table: "each subcommand is checked",
 * "commands inside $() and backticks are checked". */
TEST(if_on_bash_checks_each_subcommand) {
  ws_begin();
  hl_engine *e = eng(cc("PreToolUse", "{\"type\":\"command\",\"if\":\"Bash(rm *)\",\"command\":\"" EXIT2("rm") "\"}"));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"npm test && rm -rf x\"}}");
  CHECK_STR(o, "decision", "deny");
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo $(rm -rf x)\"}}");
  CHECK_STR(o, "decision", "deny");
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo $(date)\"}}");
  CHECK_STR(o, "decision", "continue");
  CHECK_LEN(o, "hooks", 0);
  hl_engine_free(e);
  test_end();
}

/* The events fired by name with rules of their own, and their outcome
 * shapes: TaskCreated "Exit code 2 ... cancels the task"; PermissionDenied
 * "hookSpecificOutput.retry: true"; WorktreeCreate "print the path as the last
 * non-empty line of stdout"; Elicitation "Exit code 2 denies the elicitation". */
TEST(named_events_get_their_own_rules_and_outcome_shapes) {
  ws_begin();
  char *cfg = fmt("{\"TaskCreated\":[%s],\"PermissionDenied\":[%s],\"WorktreeCreate\":[%s],\"Elicitation\":[%s]}",
                  group(NULL, cc_hook(EXIT2("needs a ticket"), 0)),
                  group("Bash", cc_hook(say("{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionDenied\",\"retry\":true}}"), 0)),
                  group(NULL, cc_hook("cat >/dev/null; echo banner; echo /srv/wt/feature", 0)),
                  group(NULL, cc_hook(EXIT2("hidden"), 0)));
  hl_engine *e = eng(cfg);
  jv *o = named(e, "TaskCreated", "{\"task_id\":\"t1\",\"task_subject\":\"x\"}");
  CHECK_STR(o, "block_reason", "needs a ticket");
  o = named(e, "PermissionDenied", "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}");
  CHECK_BOOL(o, "retry", 1);
  o = named(e, "WorktreeCreate", "{\"name\":\"feature\"}");
  CHECK_STR(o, "worktree_path", "/srv/wt/feature");
  o = named(e, "Elicitation", "{\"mcp_server_name\":\"db\",\"message\":\"?\"}");
  CHECK_STR(o, "action", "decline");
  CHECK_NULL(o, "content");
  CHECK_LEN(o, "messages", 0);
  hl_engine_free(e);
  test_end();
}

/* Claude Code 2.1.295's onFailure on command and http hooks: with "block", "a
 * hook that can't start, times out, or exits with an unexpected code blocks the
 * action instead of letting it through"; "continue" (the default) lets it
 * through. failClosed: true stays as hookline's earlier spelling of "block". */
static char *on_failure_hook(const char *command, int timeout, const char *extra) {
  if (timeout > 0)
    return fmt("{\"type\":\"command\",\"command\":%s,\"timeout\":%d,%s}", jstr(command), timeout, extra);
  return fmt("{\"type\":\"command\",\"command\":%s,%s}", jstr(command), extra);
}

TEST(on_failure_block_blocks_when_a_hook_cannot_start_times_out_or_exits_unexpectedly) {
  ws_begin();
  /* command, timeout, extra fields, the failure: a script that is not there
   * (exec form: cannot start; shell form: the shell exits 127), a hang, a crash. */
  const char *failing[][4] = {
      {"/nonexistent/guard.sh", "0", "\"args\":[],", "spawn"},
      {"/nonexistent/guard.sh", "0", "", "exit"},
      {"sleep 5", "1", "", "timeout"},
      {"cat >/dev/null; echo 'policy file unreadable' >&2; exit 1", "0", "", "exit"},
  };
  for (int i = 0; i < 4; i++) {
    int timeout = atoi(failing[i][1]);
    char *block = fmt("%s\"onFailure\":\"block\"", failing[i][2]);
    char *cont = fmt("%s\"onFailure\":\"continue\"", failing[i][2]);
    hl_engine *e = eng(cc("PreToolUse", on_failure_hook(failing[i][0], timeout, block)));
    CHECK_LEN(warnings_of(e), "", 0);
    jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
    CHECK_STR(o, "decision", "deny");
    CHECK_STR(o, "hooks[0].failure", failing[i][3]);
    hl_engine_free(e);
    e = eng(cc("UserPromptSubmit", on_failure_hook(failing[i][0], timeout, block)));
    o = run_ev(e, HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT);
    CHECK_BOOL(o, "allow_prompt", 0);
    hl_engine_free(e);
    e = eng(cc("PreToolUse", on_failure_hook(failing[i][0], timeout, cont)));
    o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
    CHECK_STR(o, "decision", "continue");
    CHECK_STR(o, "hooks[0].failure", failing[i][3]);
    hl_engine_free(e);
  }
  /* The failure is the reason. */
  hl_engine *e = eng(cc("PreToolUse", on_failure_hook(failing[3][0], 0, "\"onFailure\":\"block\"")));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK(strstr(js(o, "reason") ? js(o, "reason") : "", "policy file unreadable") != NULL, "%s", jraw(o));
  hl_engine_free(e);
  /* failClosed is an alias; when the two disagree the hook blocks, with a warning. */
  e = eng(cc("PreToolUse", on_failure_hook("cat >/dev/null; exit 1", 0, "\"failClosed\":true")));
  CHECK_STR(run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT), "decision", "deny");
  hl_engine_free(e);
  e = eng(cc("PreToolUse", on_failure_hook("cat >/dev/null; exit 1", 0, "\"onFailure\":\"continue\",\"failClosed\":true")));
  CHECK_STR(run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT), "decision", "deny");
  jv *w = warnings_of(e);
  CHECK_LEN(w, "", 1);
  CHECK(strstr(js(w, "[0].message") ? js(w, "[0].message") : "", "disagree") != NULL, "%s", jraw(w));
  hl_engine_free(e);
  /* Any other value: the entry is malformed, skipped, and named; the rest loads. */
  e = eng(cc("PreToolUse", fmt("%s,%s", on_failure_hook("touch skipped", 0, "\"onFailure\":\"deny\""),
                               cc_hook(fmt("cat >/dev/null; touch '%s'", wpath("ran")), 0))));
  w = warnings_of(e);
  CHECK_LEN(w, "", 1);
  CHECK_STR(w, "[0].path", "hooks.PreToolUse[0].hooks[0]");
  CHECK(strstr(js(w, "[0].message") ? js(w, "[0].message") : "", "onFailure must be") != NULL, "%s", jraw(w));
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_LEN(o, "hooks", 1);
  CHECK(access(wpath("ran"), F_OK) == 0, "the valid hook next to the skipped one must run");
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(config_warnings_name_each_skipped_entry_and_the_rest_loads);
  RUN(a_settings_file_that_is_not_json_is_rejected_one_without_hooks_contributes_none);
  RUN(pre_tool_use_defer_is_the_decision_defer);
  RUN(stop_hooks_all_run_and_every_reason_is_kept_in_order);
  RUN(stop_hook_block_cap_allows_the_next_stop_with_a_warning);
  RUN(any_session_start_source_in_the_claude_profile_only);
  RUN(if_on_bash_checks_each_subcommand);
  RUN(named_events_get_their_own_rules_and_outcome_shapes);
  RUN(on_failure_block_blocks_when_a_hook_cannot_start_times_out_or_exits_unexpectedly);
  return DONE();
}
