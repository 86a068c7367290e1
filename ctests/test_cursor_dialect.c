/* The Cursor dialect through the C ABI: a project's .cursor/hooks.json read by
 * its path, Cursor's flat snake_case answers, exit 2 with the raw stdout,
 * failClosed, generic and specific hooks (preToolUse then
 * beforeShellExecution), events fired by name with their own rules, stop
 * follow-ups bounded by loop_limit, sessionStart env for later hooks, and the
 * outcome's dialect_fields (docs/dialects.md). */
#include "engine_util.h"

#define SHELL_INPUT(cmd) "{\"tool_name\":\"Shell\",\"tool_input\":{\"command\":\"" cmd "\"},\"tool_call_id\":\"tc-1\"}"
#define CSTOP_INPUT "{\"status\":\"completed\"}"

/* Write <ws>/.cursor/hooks.json with `hooks` (the object under "hooks") and return the engine's options. */
static char *cursor_file(const char *hooks) {
  char *dir = wpath(".cursor");
  mkdir(dir, 0755);
  char *path = fmt("%s/hooks.json", dir);
  write_file(path, fmt("{\"version\":1,\"hooks\":%s}", hooks));
  return opts(NULL, fmt("\"hooks_file\":%s", jstr(path)));
}

/* A Cursor hook object running `command`, with extra fields (may be NULL). */
static char *ch(const char *command, const char *extra) {
  if (extra) return fmt("{\"command\":%s,%s}", jstr(command), extra);
  return fmt("{\"command\":%s}", jstr(command));
}

/* Run a named event; the parsed outcome (tracked). */
static jv *run_named(hl_engine *e, const char *name, const char *input) {
  char *out = NULL, *err = NULL;
  hl_status st = hl_engine_run_named(e, name, input, &out, &err);
  CHECK(st == HL_OK && out != NULL, "hl_engine_run_named(%s): %s: %s", name, hl_status_name(st), err ? err : "");
  jv *o = out ? jv_parse(out) : NULL;
  hl_string_free(out);
  hl_string_free(err);
  return track_jv(o);
}

/* "Exit code 0 - Hook succeeded, use the JSON output": flat `permission` and
 * `user_message` from a .cursor/hooks.json recognised by its path. */
TEST(a_cursor_hooks_json_is_read_by_its_path_and_its_flat_answer_decides) {
  ws_begin();
  hl_engine *e = eng_new(cursor_file(fmt(
      "{\"preToolUse\":[%s]}", ch(say("{\"permission\":\"deny\",\"user_message\":\"not on main\"}"), "\"matcher\":\"Shell\""))));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, SHELL_INPUT("git push"));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "not on main");
  CHECK(!jhas(o, "dialect_fields"), "no dialect field was written, so none is serialised: %s", jraw(o));
  /* "the tool type: Shell, Read, Write, ..." is what the matcher tests: a Read
   * call is not the shell tool; a canonical Bash call is Cursor's Shell. */
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"/a\"}}");
  CHECK_STR(o, "decision", "continue");
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git push\"}}");
  CHECK_STR(o, "decision", "deny");
  hl_engine_free(e);
  test_end();
}

/* "A Shell call fires preToolUse and then beforeShellExecution"; its ask is
 * kept, preToolUse's is not enforced (reported in dialect_fields). */
TEST(shell_hooks_run_after_pre_tool_use_and_keep_their_ask) {
  ws_begin();
  char *log = wpath("order.log");
  char *pre = fmt("cat >/dev/null; sleep 0.3; echo pre >> '%s'; printf '%%s\\n' '{\"permission\":\"ask\"}'", log);
  char *sh = fmt("cat >/dev/null; echo shell >> '%s'; printf '%%s\\n' '{\"permission\":\"ask\",\"user_message\":\"sure?\"}'", log);
  hl_engine *e = eng_new(cursor_file(fmt("{\"beforeShellExecution\":[%s],\"preToolUse\":[%s]}", ch(sh, NULL), ch(pre, NULL))));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, SHELL_INPUT("gh pr create"));
  CHECK_STR(o, "decision", "ask");
  CHECK_STR(o, "reason", "sure?");
  CHECK_STR(o, "dialect_fields.cursor.permission", "ask");
  char *order = read_file(log);
  CHECK(order && strcmp(order, "pre\nshell\n") == 0, "order was %s", order ? order : "(none)");
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"/a\"}}");
  CHECK_STR(o, "decision", "continue");
  CHECK_LEN(o, "hooks", 1);
  hl_engine_free(e);
  test_end();
}

/* Exit 2 denies with the raw stdout as the reason; a failClosed hook's empty
 * answer denies; "the reasons of all blocking hooks are kept, in
 * configuration order, joined by \n\n---\n\n". */
TEST(exit_2_raw_stdout_and_fail_closed_reasons_are_joined) {
  ws_begin();
  char *hooks = fmt("{\"beforeShellExecution\":[%s,%s,%s]}", ch("cat >/dev/null; echo '{\"x\":1}'; exit 2", NULL),
                    ch("cat >/dev/null", "\"failClosed\":true"), ch("cat >/dev/null; exit 1", NULL));
  hl_engine *e = eng_new(cursor_file(hooks));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, SHELL_INPUT("ls"));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason",
            "{\"x\":1}\n\n---\n\nTool blocked because this hook is configured to fail closed (block when it fails). "
            "Hook \"cat >/dev/null\" returned no output.");
  CHECK_NULL(o, "hooks[0].failure");
  CHECK_STR(o, "hooks[1].failure", "no_output");
  CHECK_STR(o, "hooks[2].failure", "exit");
  hl_engine_free(e);
  test_end();
}

/* Cursor's events without a canonical meaning fire by name with their own
 * rules: beforeReadFile is a gate (allow/deny), afterFileEdit an observer. */
TEST(native_events_fire_by_name_with_their_own_rules) {
  ws_begin();
  char *deny = say("{\"permission\":\"deny\",\"user_message\":\"secrets\"}");
  hl_engine *e = eng_new(cursor_file(fmt("{\"beforeReadFile\":[%s],\"afterFileEdit\":[%s]}", ch(deny, "\"matcher\":\"Read\""),
                                         ch("cat >/dev/null; exit 2", NULL))));
  jv *o = run_named(e, "beforeReadFile", "{\"file_path\":\"/p/.env\",\"content\":\"A=1\"}");
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "secrets");
  o = run_named(e, "afterFileEdit", "{\"file_path\":\"/p/a.rs\",\"edits\":[]}");
  CHECK(!jhas(o, "decision"), "an observer has no decision: %s", jraw(o));
  CHECK_NULL(o, "hooks[0].failure");
  o = run_named(e, "preToolUse", SHELL_INPUT("ls"));
  CHECK_STR(o, "decision", "continue");
  hl_engine_free(e);
  test_end();
}

/* stop: `followup_message` is the Stop outcome's block_reason, at most
 * `loop_limit` times per script; the engine counts when the host sends no
 * `loop_count`, and hands the count to the hook. */
TEST(stop_follow_ups_are_bounded_by_loop_limit) {
  ws_begin();
  char *hook = fmt("jq -r .loop_count >> '%s'; printf '%%s\\n' '{\"followup_message\":\"again\"}'", wpath("counts"));
  hl_engine *e = eng_new(cursor_file(fmt("{\"stop\":[%s]}", ch(hook, "\"loop_limit\":2"))));
  jv *o = run_ev(e, HL_EVENT_STOP, CSTOP_INPUT);
  CHECK_STR(o, "block_reason", "again");
  o = run_ev(e, HL_EVENT_STOP, CSTOP_INPUT);
  CHECK_STR(o, "block_reason", "again");
  o = run_ev(e, HL_EVENT_STOP, CSTOP_INPUT);
  CHECK_NULL(o, "block_reason");
  CHECK_MSG(o, "info", "loop_limit of 2");
  char *counts = read_file(wpath("counts"));
  CHECK(counts && strcmp(counts, "0\n1\n2\n") == 0, "loop_count was %s", counts ? counts : "(none)");
  o = run_ev(e, HL_EVENT_STOP, "{\"status\":\"completed\",\"loop_count\":0}");
  CHECK_STR(o, "block_reason", "again");
  hl_engine_free(e);
  test_end();
}

/* sessionStart `env` is returned in the outcome and "passed to all subsequent
 * hook executions within that session". */
TEST(session_start_env_reaches_later_hooks) {
  ws_begin();
  char *start = say("{\"env\":{\"DEPLOY_ENV\":\"staging\"},\"additional_context\":\"deploys to staging\"}");
  char *later = fmt("cat >/dev/null; printf %%s \"$DEPLOY_ENV\" > '%s'", wpath("seen"));
  hl_engine *e = eng_new(cursor_file(fmt("{\"sessionStart\":[%s],\"postToolUse\":[%s]}", ch(start, NULL), ch(later, NULL))));
  jv *o = run_ev(e, HL_EVENT_SESSION_START, "{}");
  CHECK_STR(o, "env.DEPLOY_ENV", "staging");
  CHECK_STR(o, "additional_context[0]", "deploys to staging");
  run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  char *seen = read_file(wpath("seen"));
  CHECK(seen && strcmp(seen, "staging") == 0, "DEPLOY_ENV was %s", seen ? seen : "(unset)");
  hl_engine_free(e);
  test_end();
}

/* subagentStart is a gate in Cursor: "`ask` is not supported ... and is
 * treated as `deny`". */
TEST(subagent_start_ask_denies) {
  ws_begin();
  hl_engine *e = eng_new(cursor_file(fmt("{\"subagentStart\":[%s]}", ch(say("{\"permission\":\"ask\",\"user_message\":\"no\"}"), NULL))));
  jv *o = run_ev(e, HL_EVENT_SUBAGENT_START, SUBAGENT_INPUT);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "no");
  hl_engine_free(e);
  test_end();
}

/* The `dialect` option reads inline JSON as Cursor's; an unknown hook event
 * rejects the whole config with an error naming it. */
TEST(the_dialect_option_and_unknown_events) {
  ws_begin();
  hl_engine *e = eng_new(opts("{\"version\":1,\"hooks\":{\"stop\":[{\"command\":\"cat >/dev/null; echo '{\\\"followup_message\\\":\\\"go\\\"}'\"}]}}",
                              "\"dialect\":\"cursor\""));
  jv *o = run_ev(e, HL_EVENT_STOP, CSTOP_INPUT);
  CHECK_STR(o, "block_reason", "go");
  hl_engine_free(e);
  hl_engine *bad = NULL;
  char *err = NULL;
  hl_status st = hl_engine_new(opts("{\"version\":1,\"hooks\":{\"PreToolUse\":[{\"command\":\"x\"}]}}", "\"dialect\":\"cursor\""),
                               &bad, &err);
  CHECK(st == HL_ERR_INVALID_CONFIG && bad == NULL, "status %s", hl_status_name(st));
  CHECK(err && strstr(err, "PreToolUse") && strstr(err, "preToolUse"), "errmsg: %s", err ? err : "(null)");
  hl_string_free(err);
  test_end();
}

/* Digest lines and previews name the Cursor dialect; a beforeShellExecution
 * hook is listed once, under its own event. */
TEST(previews_name_the_cursor_dialect) {
  ws_begin();
  char *o = cursor_file("{\"preToolUse\":[{\"command\":\"a\"}],\"beforeShellExecution\":[{\"command\":\"b\"}]}");
  hl_engine *e = eng_new(fmt("%.*s,\"workspace_gated\":true,\"trust_store\":%s}", (int)strlen(o) - 1, o, jstr(wpath("trust.json"))));
  char *previews = NULL;
  CHECK_STATUS(hl_engine_command_previews(e, &previews, NULL), HL_OK);
  CHECK(previews && strstr(previews, "{\"type\":\"command\",\"dialect\":\"cursor\",\"event\":\"pre_tool_use\"") &&
            strstr(previews, "\"event\":\"beforeShellExecution\",\"matcher\":null,\"command\":\"b\""),
        "previews: %s", previews ? previews : "(null)");
  int listed = 0;
  for (const char *p = previews; p && (p = strstr(p, "\"command\":\"b\"")); p++) listed++;
  CHECK(listed == 1, "b is listed %d times: %s", listed, previews ? previews : "(null)");
  hl_string_free(previews);
  jv *r = run_ev(e, HL_EVENT_PRE_TOOL_USE, SHELL_INPUT("ls"));
  CHECK_STR(r, "hooks[0].skipped", "not_approved");
  CHECK_STR(r, "hooks[1].skipped", "not_approved");
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(a_cursor_hooks_json_is_read_by_its_path_and_its_flat_answer_decides);
  RUN(shell_hooks_run_after_pre_tool_use_and_keep_their_ask);
  RUN(exit_2_raw_stdout_and_fail_closed_reasons_are_joined);
  RUN(native_events_fire_by_name_with_their_own_rules);
  RUN(stop_follow_ups_are_bounded_by_loop_limit);
  RUN(session_start_env_reaches_later_hooks);
  RUN(subagent_start_ask_denies);
  RUN(the_dialect_option_and_unknown_events);
  RUN(previews_name_the_cursor_dialect);
  return DONE();
}
