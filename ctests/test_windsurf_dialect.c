/* The Windsurf / Devin Desktop dialect (Cascade hooks) through the C ABI: a
 * workspace's .windsurf/hooks.json read by its path, Cascade's events fired
 * by name with the `{"tool_info": {...}}` input, exit 2 on a pre_* event
 * denying with stderr and Cascade's suffix, stdout never read,
 * pre_user_prompt as UserPromptSubmit, a canonical tool call running the
 * hooks of its kind, and what Cascade cannot express reported as dropped
 * (docs/dialects.md). */
#include "engine_util.h"

/* Write <ws>/<dir>/hooks.json with `hooks` (the object under "hooks"); the engine's options. */
static char *windsurf_file(const char *dir, const char *hooks) {
  mkdir(wpath(dir), 0755);
  char *path = wpath(fmt("%s/hooks.json", dir));
  write_file(path, fmt("{\"hooks\":%s}", hooks));
  return opts(NULL, fmt("\"hooks_file\":%s", jstr(path)));
}

/* A Cascade entry running `command`. */
static char *wh(const char *command) { return fmt("{\"command\":%s}", jstr(command)); }

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

#define RUN_CMD "{\"tool_info\":{\"command_line\":\"rm -rf /\",\"cwd\":\"/\"}}"

/* "2 on pre_* -> action blocked, stderr delivered to the agent with the
 * suffix `: action blocked by hook`"; "stdout is never parsed (verified: JSON
 * ignored)"; "2 on post_* -> no effect" (live runs of Devin Desktop). */
TEST(windsurf_exit_2_on_a_pre_event_denies_with_stderr_stdout_is_never_read) {
  ws_begin();
  char *guard = "cat > payload.json; printf '{\"decision\":\"allow\"}'; echo 'no rm -rf' >&2; exit 2";
  char *allow_json = "cat >/dev/null; printf '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\"}}'";
  hl_engine *e = eng_new(windsurf_file(".windsurf", fmt("{\"pre_run_command\":[%s],\"pre_read_code\":[%s],"
                                                        "\"post_run_command\":[%s]}",
                                                        wh(guard), wh(allow_json), wh("cat >/dev/null; exit 2"))));
  jv *o = run_named(e, "pre_run_command", RUN_CMD);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "no rm -rf: action blocked by hook");
  char *payload = read_file(wpath("payload.json"));
  CHECK(payload && strstr(payload, "\"agent_action_name\":\"pre_run_command\"") &&
            strstr(payload, "\"command_line\":\"rm -rf /\"") && strstr(payload, "\"trajectory_id\""),
        "payload: %s", payload ? payload : "(none)");
  o = run_named(e, "pre_read_code", "{\"tool_info\":{\"file_path\":\"/w/.env\"}}");
  CHECK_STR(o, "decision", "continue");
  o = run_named(e, "post_run_command", RUN_CMD);
  CHECK(!jhas(o, "decision"), "post_* has no decision: %s", jraw(o));
  CHECK_NULL(o, "hooks[0].failure");
  hl_engine_free(e);
  test_end();
}

/* pre_user_prompt is the canonical UserPromptSubmit: "on pre_user_prompt the
 * user sees it in the UI"; a canonical PreToolUse of `Bash` runs the
 * pre_run_command hooks with Cascade's `tool_info`. */
TEST(windsurf_prompt_and_canonical_tool_calls) {
  ws_begin();
  char *prompt = "cat > prompt.json; echo 'no secrets in prompts' >&2; exit 2";
  char *shell = "cat > shell.json; exit 0";
  hl_engine *e = eng_new(windsurf_file(".devin", fmt("{\"pre_user_prompt\":[%s],\"pre_run_command\":[%s]}", wh(prompt), wh(shell))));
  jv *o = run_ev(e, HL_EVENT_USER_PROMPT_SUBMIT, "{\"prompt\":\"my key is sk-1\"}");
  CHECK_BOOL(o, "allow_prompt", 0);
  CHECK_STR(o, "block_reason", "no secrets in prompts: action blocked by hook");
  char *p = read_file(wpath("prompt.json"));
  CHECK(p && strstr(p, "\"user_prompt\":\"my key is sk-1\""), "prompt payload: %s", p ? p : "(none)");
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"cwd\":\"/w\"}");
  CHECK_STR(o, "decision", "continue");
  char *s = read_file(wpath("shell.json"));
  CHECK(s && strstr(s, "\"command_line\":\"ls\""), "shell payload: %s", s ? s : "(none)");
  hl_engine_free(e);
  test_end();
}

static int32_t allow_cb(void *ud, const char *payload, size_t len, hl_reply *reply) {
  (void)ud;
  (void)payload;
  (void)len;
  hl_reply_allow(reply);
  return 0;
}

/* Cascade has no allow: a callback hook's allow in a Windsurf run is dropped
 * and reported (dialect_fields.windsurf.dropped and a warning). */
TEST(windsurf_an_allow_cascade_cannot_express_is_reported_dropped) {
  ws_begin();
  hl_engine *e = eng_new(windsurf_file(".windsurf", fmt("{\"pre_run_command\":[%s]}", wh("cat >/dev/null"))));
  CHECK(hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, NULL, "host", allow_cb, NULL, NULL, NULL) == HL_OK, "add");
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}");
  CHECK_STR(o, "decision", "continue");
  CHECK_STR(o, "dialect_fields.windsurf.dropped[0]", "allow");
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(windsurf_exit_2_on_a_pre_event_denies_with_stderr_stdout_is_never_read);
  RUN(windsurf_prompt_and_canonical_tool_calls);
  RUN(windsurf_an_allow_cascade_cannot_express_is_reported_dropped);
  return DONE();
}
