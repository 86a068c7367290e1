/* The Augment dialect (Auggie CLI's .augment/settings.json) through the C ABI:
 * a script path run directly that exits 2 blocks launch-process with its
 * stderr, the payload's conversation_id and workspace_roots, millisecond
 * timeouts, permissionDecision "allow" deciding nothing, and a command with
 * arguments reported and skipped (docs/dialects.md, "Augment"). */
#include "engine_util.h"

/* An executable script <ws>/.augment/hooks/<name> with `body`; its absolute
 * path, unquoted (Augment's `command` is the script path itself). */
static char *aug_script(const char *name, const char *body) {
  mkdir(wpath(".augment"), 0755);
  mkdir(wpath(".augment/hooks"), 0755);
  char *path = wpath(fmt(".augment/hooks/%s", name));
  write_file(path, fmt("#!/bin/sh\n%s\n", body));
  chmod(path, 0755);
  return path;
}

/* Write <ws>/.augment/settings.json with `hooks` (the object under "hooks"); its path. */
static char *aug_settings(const char *hooks) {
  mkdir(wpath(".augment"), 0755);
  char *path = wpath(".augment/settings.json");
  write_file(path, fmt("{\"hooks\":%s}", hooks));
  return path;
}

#define LAUNCH_RM "{\"tool_name\":\"launch-process\",\"tool_input\":{\"command\":\"rm -rf build\"}}"

/* "command | Path to the shell script to execute"; "timeout | (Optional)
 * Timeout in milliseconds (default: 60000ms)"; exit 2 blocks PreToolUse with
 * stderr; the payload has conversation_id and workspace_roots, no session_id
 * (docs.augmentcode.com/cli/hooks). */
TEST(augment_exit_2_blocks_launch_process_with_stderr) {
  ws_begin();
  char *guard = aug_script("guard.sh", fmt("cat > %s\necho 'rm -rf is blocked' >&2\nexit 2", shq(wpath("payload.json"))));
  char *path = aug_settings(fmt("{\"PreToolUse\":[%s]}", group("launch-process", cc_hook(guard, 5000))));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, LAUNCH_RM);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "rm -rf is blocked");
  jv *p = read_json(wpath("payload.json"));
  CHECK(p != NULL, "the hook read its payload");
  if (p) {
    CHECK_STR(p, "hook_event_name", "PreToolUse");
    CHECK(js(p, "conversation_id") != NULL, "conversation_id in %s", jraw(p));
    CHECK(jget(p, "session_id") == NULL, "no session_id in %s", jraw(p));
    CHECK_LEN(p, "workspace_roots", 1);
    CHECK_BOOL(p, "is_mcp_tool", 0);
  }
  hl_engine_free(e);
  test_end();
}

/* Only permissionDecision "deny" is implemented: an "allow" decides nothing
 * and is reported; a timeout of 300 is 300 milliseconds. */
TEST(augment_allow_decides_nothing_and_timeouts_are_milliseconds) {
  ws_begin();
  char *allow = aug_script(
      "allow.sh", fmt("cat >/dev/null\n%s",
                      say("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}")));
  char *slow = aug_script("slow.sh", "cat >/dev/null\nsleep 5");
  char *path = aug_settings(fmt("{\"PreToolUse\":[%s]}", group(NULL, fmt("%s,%s", cc_hook(allow, 0), cc_hook(slow, 300)))));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
  double t0 = now_ms();
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, LAUNCH_RM);
  CHECK(now_ms() - t0 < 4000, "300 ms, not seconds: %.0f ms", now_ms() - t0);
  CHECK_STR(o, "decision", "continue");
  CHECK_MSG(o, "warning", "Augment does not implement permissionDecision");
  hl_engine_free(e);
  test_end();
}

/* A command with arguments names no script (Augment runs `command`
 * directly, without a shell): skipped and reported. */
TEST(augment_command_with_arguments_is_skipped_and_reported) {
  ws_begin();
  char *ok = aug_script("ok.sh", "cat >/dev/null; exit 0");
  char *path = aug_settings(fmt("{\"PreToolUse\":[%s]}", group(NULL, cc_hook(fmt("%s --strict", ok), 0))));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
  char *w = NULL;
  CHECK_STATUS(hl_engine_config_warnings(e, &w, NULL), HL_OK);
  CHECK_CONTAINS(w, "has arguments");
  hl_string_free(w);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, LAUNCH_RM);
  CHECK_LEN(o, "hooks", 0);
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(augment_exit_2_blocks_launch_process_with_stderr);
  RUN(augment_allow_decides_nothing_and_timeouts_are_milliseconds);
  RUN(augment_command_with_arguments_is_skipped_and_reported);
  return DONE();
}
