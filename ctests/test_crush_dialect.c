/* The Crush dialect through the C ABI: a crush.json read by its name, exit 2
 * denying with stderr, exit 49 halting the turn, Crush's payload (`event`, the
 * tool as Crush names it) and CRUSH_* variables, updated_input patches merged
 * over the original input, and a Claude Code matcher group rejected as Crush
 * rejects it (docs/dialects.md). */
#include "engine_util.h"

/* Write <ws>/crush.json with `entries` (the array under hooks.PreToolUse); its path. */
static char *crush_file(const char *entries) {
  char *path = wpath("crush.json");
  write_file(path, fmt("{\"hooks\":{\"PreToolUse\":%s}}", entries));
  return path;
}

/* An entry running `command` for tools matching `matcher`. */
static char *ch(const char *matcher, const char *command) {
  return fmt("{\"matcher\":%s,\"command\":%s}", jstr(matcher), jstr(command));
}

#define BASH_PUSH "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git push --force\",\"timeout\":60000}}"

/* "2 | Block this tool call. Stderr becomes the deny reason. Stdout is
 * ignored."; "Matched against: the tool name (e.g. `bash`, ...)"; the stdin
 * payload `{event, session_id, cwd, tool_name, tool_input}` and
 * `CRUSH_TOOL_INPUT_COMMAND` (Crush docs/hooks/README.md). */
TEST(crush_exit_2_denies_with_stderr_and_hooks_see_crushs_names) {
  ws_begin();
  char *guard = "cat > payload.json; printf '%s' \"$CRUSH_TOOL_NAME|$CRUSH_TOOL_INPUT_COMMAND|$AI_AGENT\" > env.txt; "
                "echo '{\"decision\":\"allow\"}'; echo 'no force pushes' >&2; exit 2";
  char *path = crush_file(fmt("[%s]", ch("^bash$", guard)));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_PUSH);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "no force pushes");
  char *p = read_file(wpath("payload.json"));
  CHECK(p && strstr(p, "\"event\":\"PreToolUse\"") && strstr(p, "\"tool_name\":\"bash\"") && !strstr(p, "hook_event_name"),
        "payload: %s", p ? p : "(none)");
  char *env = read_file(wpath("env.txt"));
  CHECK(env && strcmp(env, "bash|git push --force|crush") == 0, "env: %s", env ? env : "(none)");
  hl_engine_free(e);
  test_end();
}

/* "49 | Halt the whole turn. Stderr becomes the halt reason."; "updated_input
 * patches shallow-merge in config order against the original tool input". */
TEST(crush_exit_49_halts_and_patches_merge) {
  ws_begin();
  char *path = crush_file(fmt("[%s]", ch("", "cat >/dev/null; echo 'halt now' >&2; exit 49")));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_PUSH);
  CHECK_STR(o, "decision", "deny");
  CHECK_BOOL(o, "continue", 0);
  CHECK_STR(o, "stop_reason", "halt now");
  hl_engine_free(e);
  path = crush_file(fmt("[%s,%s]", ch("bash", "cat >/dev/null; echo '{\"updated_input\":{\"command\":\"git push\"}}'"),
                        ch("bash", "cat >/dev/null; echo '{\"decision\":\"allow\",\"updated_input\":{\"description\":\"safe\"}}'")));
  e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_PUSH);
  CHECK_STR(o, "decision", "allow");
  CHECK_STR(o, "updated_input.command", "git push");
  CHECK_NUM(o, "updated_input.timeout", 60000);
  CHECK_STR(o, "updated_input.description", "safe");
  hl_engine_free(e);
  test_end();
}

/* ValidateHooks: "hook PreToolUse[0]: command is required" — a Claude Code
 * matcher group stops Crush from loading; HL_ERR_INVALID_CONFIG here. */
TEST(crush_a_nested_group_is_rejected) {
  ws_begin();
  char *path = crush_file("[{\"matcher\":\"bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"exit 2\"}]}]");
  hl_engine *b = NULL;
  char *msg = NULL;
  hl_status st = hl_engine_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))), &b, &msg);
  CHECK(st == HL_ERR_INVALID_CONFIG && msg && strstr(msg, "command is required"), "status %s: %s", hl_status_name(st),
        msg ? msg : "");
  hl_string_free(msg);
  if (b) hl_engine_free(b);
  test_end();
}

int main(void) {
  RUN(crush_exit_2_denies_with_stderr_and_hooks_see_crushs_names);
  RUN(crush_exit_49_halts_and_patches_merge);
  RUN(crush_a_nested_group_is_rejected);
  return DONE();
}
