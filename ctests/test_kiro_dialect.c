/* The Kiro dialect (v1 hook files) through the C ABI: a .kiro/hooks/<name>.json
 * read by its path, exit 2 blocking PreToolUse with stderr, a canonical Bash
 * call matched as Kiro's `execute_bash` and by the `shell` category, stdout as
 * context on SessionStart, a disabled hook, a trigger fired by name, and a
 * file with a bad version rejected (docs/dialects.md). */
#include "engine_util.h"

/* Write <ws>/.kiro/hooks/<name> with `hooks` (the array under "hooks"); its path. */
static char *kiro_file(const char *name, const char *hooks) {
  mkdir(wpath(".kiro"), 0755);
  mkdir(wpath(".kiro/hooks"), 0755);
  char *path = wpath(fmt(".kiro/hooks/%s", name));
  write_file(path, fmt("{\"version\":\"v1\",\"hooks\":%s}", hooks));
  return path;
}

/* A command hook `name` on `trigger`, with extra fields (may be NULL). */
static char *kh(const char *name, const char *trigger, const char *command, const char *extra) {
  return fmt("{\"name\":%s,\"trigger\":%s,\"action\":{\"type\":\"command\",\"command\":%s}%s%s}", jstr(name), jstr(trigger),
             jstr(command), extra ? "," : "", extra ? extra : "");
}

#define BASH_PUSH "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git push --force\"}}"

/* "2 | Block execution (PreToolUse, UserPromptSubmit only). STDERR returned to
 * LLM"; "0 | Success. STDOUT added to context (SessionStart, ...)"; "enabled
 * ... Set false to skip without deleting" (Kiro CLI 3 hooks docs). */
TEST(kiro_exit_2_blocks_pre_tool_use_and_stdout_is_session_context) {
  ws_begin();
  char *guard = "cat > payload.json; echo 'ignored'; echo 'no force pushes' >&2; exit 2";
  char *hooks = fmt("[%s,%s,%s]", kh("guard", "PreToolUse", guard, "\"matcher\":\"shell\""),
                    kh("ctx", "SessionStart", "cat >/dev/null; echo 'on the release branch'", NULL),
                    kh("off", "SessionStart", "echo never", "\"enabled\":false"));
  char *path = kiro_file("guard.json", hooks);
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_PUSH);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "no force pushes");
  char *p = read_file(wpath("payload.json"));
  CHECK(p && strstr(p, "\"tool_name\":\"execute_bash\"") && strstr(p, "\"hook_event_name\":\"PreToolUse\""),
        "payload: %s", p ? p : "(none)");
  o = run_ev(e, HL_EVENT_SESSION_START, "{}");
  CHECK_STR(o, "additional_context[0]", "on the release branch");
  CHECK_LEN(o, "hooks", 1);
  hl_engine_free(e);
  test_end();
}

/* "PostFileSave ... File path (regex)", fired by name; a file whose version is
 * not "v1" is not loaded (HL_ERR_INVALID_CONFIG for a file given alone). */
TEST(kiro_file_triggers_by_name_and_a_bad_version) {
  ws_begin();
  char *path = kiro_file("lint.json", fmt("[%s]", kh("lint", "PostFileSave", "cat > saved.json", "\"matcher\":\"\\\\.ts$\"")));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
  char *out = NULL, *err = NULL;
  CHECK(hl_engine_run_named(e, "PostFileSave", "{\"file_path\":\"src/a.ts\"}", &out, &err) == HL_OK, "run: %s", err ? err : "");
  hl_string_free(out);
  hl_string_free(err);
  char *saved = read_file(wpath("saved.json"));
  CHECK(saved && strstr(saved, "\"file_path\":\"src/a.ts\""), "payload: %s", saved ? saved : "(none)");
  hl_engine_free(e);
  char *bad = wpath(".kiro/hooks/bad.json");
  write_file(bad, "{\"version\":\"v2\",\"hooks\":[]}");
  hl_engine *b = NULL;
  char *msg = NULL;
  hl_status st = hl_engine_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(bad))), &b, &msg);
  CHECK(st == HL_ERR_INVALID_CONFIG && msg && strstr(msg, "version"), "status %s: %s", hl_status_name(st), msg ? msg : "");
  hl_string_free(msg);
  if (b) hl_engine_free(b);
  test_end();
}

int main(void) {
  RUN(kiro_exit_2_blocks_pre_tool_use_and_stdout_is_session_context);
  RUN(kiro_file_triggers_by_name_and_a_bad_version);
  return DONE();
}
