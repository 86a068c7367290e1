/* The OpenHands dialect through the C ABI: a .openhands/hooks.json read by its
 * path, a canonical Bash call matched as OpenHands' `terminal`, a top-level
 * {"decision": "deny"} read on a non-zero exit other than 2, OpenHands'
 * payload (`event_type`, `working_dir`, no `hook_event_name`), `continue:
 * false` blocking a prompt without halting the agent, and an unknown event
 * failing the file (docs/dialects.md). */
#include "engine_util.h"

/* Write <ws>/.openhands/hooks.json with `events` (the object under "hooks"); its path. */
static char *openhands_file(const char *events) {
  mkdir(wpath(".openhands"), 0755);
  char *path = wpath(".openhands/hooks.json");
  write_file(path, fmt("{\"hooks\":%s}", events));
  return path;
}

/* One group of `matcher` running `command`. */
static char *oh_group(const char *matcher, const char *command) {
  return fmt("[{\"matcher\":%s,\"hooks\":[{\"type\":\"command\",\"command\":%s}]}]", jstr(matcher), jstr(command));
}

#define BASH_RM "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf /\"}}"

/* "Try to parse JSON from stdout" whatever the return code; "if decision_str
 * == 'deny': ... blocked = True"; matcher "terminal" is an exact tool name
 * (OpenHands/software-agent-sdk hooks/executor.py, hooks/config.py). */
TEST(openhands_terminal_guard_denies_with_its_json_on_exit_1) {
  ws_begin();
  char *guard = "cat > payload.json; echo '{\"decision\": \"deny\", \"reason\": \"no rm -rf\"}'; exit 1";
  char *path = openhands_file(fmt("{\"pre_tool_use\":%s}", oh_group("terminal", guard)));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_RM);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "no rm -rf");
  char *p = read_file(wpath("payload.json"));
  CHECK(p && strstr(p, "\"event_type\":\"PreToolUse\"") && strstr(p, "\"tool_name\":\"terminal\"") &&
            strstr(p, "\"working_dir\":") && !strstr(p, "hook_event_name"),
        "payload: %s", p ? p : "(none)");
  hl_engine_free(e);
  test_end();
}

/* `if not output_data["continue"]: hook_result.blocked = True`: the prompt is
 * blocked, the agent is not halted; an unknown event fails the whole file
 * ("extra": "forbid"), HL_ERR_INVALID_CONFIG naming the key. */
TEST(openhands_continue_false_blocks_and_an_unknown_event_fails_the_file) {
  ws_begin();
  char *held = "cat >/dev/null; echo '{\"continue\": false, \"reason\": \"held for review\"}'";
  char *path = openhands_file(fmt("{\"UserPromptSubmit\":%s}", oh_group("*", held)));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
  jv *o = run_ev(e, HL_EVENT_USER_PROMPT_SUBMIT, "{\"prompt\":\"deploy\"}");
  CHECK(jb(o, "allow_prompt") == 0, "the prompt is blocked: %s", jraw(o));
  CHECK_STR(o, "block_reason", "held for review");
  CHECK(jb(o, "continue") == 1, "the agent goes on: %s", jraw(o));
  hl_engine_free(e);
  char *bad = openhands_file("{\"notification\":[]}");
  hl_engine *b = NULL;
  char *msg = NULL;
  hl_status st = hl_engine_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(bad))), &b, &msg);
  CHECK(st == HL_ERR_INVALID_CONFIG && msg && strstr(msg, "notification"), "status %s: %s", hl_status_name(st),
        msg ? msg : "");
  hl_string_free(msg);
  if (b) hl_engine_free(b);
  test_end();
}

int main(void) {
  RUN(openhands_terminal_guard_denies_with_its_json_on_exit_1);
  RUN(openhands_continue_false_blocks_and_an_unknown_event_fails_the_file);
  return DONE();
}
