/* The goose dialect (Open Plugins plugin hooks) through the C ABI: a plugin's
 * .agents/plugins/<plugin>/hooks/hooks.json read by its path, goose's strict
 * decision table (exit 2 and {"decision":"block"} deny; exit 0 with a stray
 * log line gives no decision, which on_failure: "block" turns into a denial
 * with goose's fixed reason), ${PLUGIN_ROOT}, goose's payload, a Stop block,
 * timeout 0 elapsing at once, and a file goose rejects (docs/dialects.md). */
#include "engine_util.h"

/* Write <ws>/.agents/plugins/<plugin>/hooks/hooks.json with `events` (the
 * object under "hooks"); its path. */
static char *goose_plugin(const char *plugin, const char *events) {
  mkdir(wpath(".agents"), 0755);
  mkdir(wpath(".agents/plugins"), 0755);
  mkdir(wpath(fmt(".agents/plugins/%s", plugin)), 0755);
  mkdir(wpath(fmt(".agents/plugins/%s/hooks", plugin)), 0755);
  char *path = wpath(fmt(".agents/plugins/%s/hooks/hooks.json", plugin));
  write_file(path, fmt("{\"hooks\":%s}", events));
  return path;
}

/* One rule of `event` with one command action (extra fields may be NULL). */
static char *gh(const char *event, const char *matcher, const char *command, const char *extra) {
  return fmt("{%s:[{%s%s\"hooks\":[{\"type\":\"command\",\"command\":%s%s%s}]}]}", jstr(event),
             matcher ? "\"matcher\":" : "", matcher ? fmt("%s,", jstr(matcher)) : "", jstr(command),
             extra ? "," : "", extra ? extra : "");
}

static hl_engine *goose_engine(const char *events) {
  char *path = goose_plugin("guard", events);
  return eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))));
}

#define BASH_RM "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf build\"},\"tool_use_id\":\"call-1\"}"

/* goose classify_output: "1. exit 2 denies, reason from stderr 2.
 * {"decision":"block"} denies whatever the exit status ... 5. anything else
 * produced no decision"; "A PreToolUse command action can set "on_failure":
 * "block" to deny the tool call when its hook cannot produce a decision". */
TEST(goose_decision_table_and_on_failure) {
  ws_begin();
  hl_engine *e = goose_engine(gh("PreToolUse", "developer__shell",
                                 "cat > payload.json; echo 'refused by policy' >&2; exit 2", NULL));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_RM);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "refused by policy");
  char *p = read_file(wpath("payload.json"));
  CHECK(p && strstr(p, "\"event\":\"PreToolUse\"") && strstr(p, "\"matcher_context\":\"developer__shell\"") &&
            strstr(p, "\"tool_call_id\":\"call-1\"") && !strstr(p, "hook_event_name"),
        "payload: %s", p ? p : "(none)");
  hl_engine_free(e);

  e = goose_engine(gh("PreToolUse", NULL, "printf '%s' '{\"decision\":\"block\",\"reason\":\"nope\"}'; exit 1", NULL));
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_RM);
  CHECK_STR(o, "reason", "nope");
  hl_engine_free(e);

  e = goose_engine(gh("PreToolUse", NULL, "echo checking policy", NULL));
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_RM);
  CHECK(!js(o, "decision") || strcmp(js(o, "decision"), "deny") != 0, "a stray log line fails open by default");
  CHECK_STR(o, "hooks[0].failure", "invalid_output");
  hl_engine_free(e);

  e = goose_engine(gh("PreToolUse", NULL, "echo checking policy", "\"on_failure\":\"block\""));
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_RM);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "the hook exited 0 without an allow or block decision on stdout");
  hl_engine_free(e);
  test_end();
}

/* "the zero timeout elapses before the child can report" (goose's own test,
 * "sleep 30" with "timeout": 0); ${PLUGIN_ROOT} is the plugin's folder; a Stop
 * hook's block keeps the agent going. */
TEST(goose_timeout_zero_plugin_root_and_stop) {
  ws_begin();
  hl_engine *e = goose_engine(gh("PreToolUse", NULL, "sleep 30", "\"timeout\":0,\"on_failure\":\"block\""));
  double t0 = now_ms();
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_RM);
  CHECK(now_ms() - t0 < 10000, "timeout 0 took %.0f ms", now_ms() - t0);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "the hook command failed to run");
  CHECK_STR(o, "hooks[0].failure", "timeout");
  hl_engine_free(e);

  e = goose_engine(fmt("{\"SessionStart\":[{\"hooks\":[{\"command\":%s}]}],\"Stop\":[{\"hooks\":[{\"command\":%s}]}]}",
                       jstr("echo ${PLUGIN_ROOT} > root.txt; echo \"$PLUGIN_ROOT\" >> root.txt"),
                       jstr("printf '%s' '{\"decision\":\"block\",\"reason\":\"say something first\"}'")));
  o = run_ev(e, HL_EVENT_SESSION_START, "{}");
  char *root = read_file(wpath("root.txt"));
  CHECK(root && strstr(root, ".agents/plugins/guard\n") && strstr(strstr(root, "\n") + 1, ".agents/plugins/guard"),
        "root.txt: %s", root ? root : "(none)");
  o = run_ev(e, HL_EVENT_STOP, "{}");
  CHECK_STR(o, "block_reason", "say something first");
  hl_engine_free(e);
  test_end();
}

/* "An unrecognised value is a config error rather than a silent choice of
 * either policy, so the file is rejected" (on_failure: "deny"). */
TEST(goose_an_invalid_on_failure_rejects_the_file) {
  ws_begin();
  char *path = goose_plugin("bad", gh("PreToolUse", NULL, "exit 0", "\"on_failure\":\"deny\""));
  hl_engine *b = NULL;
  char *msg = NULL;
  hl_status st = hl_engine_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(path))), &b, &msg);
  CHECK(st == HL_ERR_INVALID_CONFIG && msg && strstr(msg, "on_failure"), "status %s: %s", hl_status_name(st),
        msg ? msg : "");
  hl_string_free(msg);
  if (b) hl_engine_free(b);
  test_end();
}

int main(void) {
  RUN(goose_decision_table_and_on_failure);
  RUN(goose_timeout_zero_plugin_root_and_stop);
  RUN(goose_an_invalid_on_failure_rejects_the_file);
  return DONE();
}
