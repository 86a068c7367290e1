/* The GitHub Copilot CLI and VS Code dialects through the C ABI: a
 * hooks file (`.github/hooks/<name>.json`) recognised by its path, Copilot CLI's
 * decisions (first deny stops the rest, a crash denies, exit 2 is a
 * warning elsewhere, modifiedResult under dialect_fields), an event fired
 * by name, the digest naming the dialect, and the same file read with
 * VS Code's rules through the `dialect` option. */
#include "engine_util.h"

/* Write `json` as .github/hooks/<name> in the workspace; returns its path. */
static char *hooks_file(const char *name, const char *json) {
  mkdir(wpath(".github"), 0755);
  mkdir(wpath(".github/hooks"), 0755);
  char *path = wpath(fmt(".github/hooks/%s", name));
  write_file(path, json);
  return path;
}

/* An engine of one hooks file, with extra options (may be NULL). */
static hl_engine *file_engine(const char *path, const char *extra) {
  return eng_new(fmt("{\"workspace\":%s,\"session_id\":\"sess-1\",\"hooks_file\":%s%s%s}", jstr(eu_ws), jstr(path),
                     extra ? "," : "", extra ? extra : ""));
}

/* A flat Copilot CLI entry running `script` with bash. */
static char *entry(const char *script) { return fmt("{\"type\":\"command\",\"bash\":%s}", jstr(script)); }

#define PRE_RM "{\"tool_name\":\"bash\",\"tool_input\":{\"command\":\"rm -rf /\"}}"

/* "If multiple hooks of the same type are configured, they execute in
 * order. For preToolUse, if any hook returns "deny", the tool is blocked." */
TEST(copilot_pre_tool_use_first_deny_stops_the_rest) {
  ws_begin();
  char *guard = fmt("cat >/dev/null; echo one >> '%s'; %s", wpath("order"),
                    say("{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no rm\"}"));
  char *later = fmt("cat >/dev/null; echo two >> '%s'", wpath("order"));
  char *path = hooks_file("guard.json", fmt("{\"version\":1,\"hooks\":{\"preToolUse\":[%s,%s]}}", entry(guard), entry(later)));
  hl_engine *e = file_engine(path, NULL);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PRE_RM);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "no rm");
  CHECK_LEN(o, "hooks", 1);
  char *order = read_file(wpath("order"));
  CHECK(order && strcmp(order, "one\n") == 0, "order: %s", order ? order : "(none)");
  hl_engine_free(e);
  test_end();
}

/* "preToolUse command hooks are fail-closed on exit 2 and on non-timeout
 * errors ... even if the hook's stdout JSON reports permissionDecision:
 * "allow"." — and elsewhere exit 2 is a warning. */
TEST(copilot_crashes_deny_pre_tool_use_and_exit_2_warns_elsewhere) {
  ws_begin();
  char *crash = fmt("cat >/dev/null; %s; exit 1", say("{\"permissionDecision\":\"allow\"}"));
  char *warn = "cat >/dev/null; echo 'lint failed' >&2; exit 2";
  char *path = hooks_file("h.json", fmt("{\"hooks\":{\"preToolUse\":[%s],\"postToolUse\":[%s]}}", entry(crash), entry(warn)));
  hl_engine *e = file_engine(path, NULL);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PRE_RM);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "hooks[0].failure", "exit");
  o = run_ev(e, HL_EVENT_POST_TOOL_USE, "{\"tool_name\":\"bash\",\"tool_input\":{},\"tool_response\":\"x\"}");
  CHECK_NULL(o, "block_reason");
  CHECK_MSG(o, "warning", "lint failed");
  CHECK_NULL(o, "hooks[0].failure");
  hl_engine_free(e);
  test_end();
}

/* The payload: toolArgs is a JSON-encoded string, toolName the runtime
 * name; postToolUse's modifiedResult comes back under dialect_fields. */
TEST(copilot_payload_and_modified_result_through_the_abi) {
  ws_begin();
  char *capture = fmt("cat > '%s'", wpath("payload.json"));
  char *redact = fmt("cat >/dev/null; %s",
                     say("{\"modifiedResult\":{\"resultType\":\"success\",\"textResultForLlm\":\"[REDACTED]\"}}"));
  char *path = hooks_file("h.json", fmt("{\"hooks\":{\"preToolUse\":[%s],\"postToolUse\":[%s]}}", entry(capture), entry(redact)));
  hl_engine *e = file_engine(path, NULL);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}");
  CHECK_STR(o, "decision", "continue");
  CHECK(!jhas(o, "dialect_fields"), "no dialect_fields when none were given: %s", jraw(o));
  jv *p = read_json(wpath("payload.json"));
  CHECK_STR(p, "toolName", "bash");
  CHECK_STR(p, "toolArgs", "{\"command\":\"ls\"}");
  CHECK_STR(p, "sessionId", "sess-1");
  o = run_ev(e, HL_EVENT_POST_TOOL_USE, "{\"tool_name\":\"bash\",\"tool_input\":{},\"tool_response\":\"token\"}");
  CHECK_STR(o, "dialect_fields.copilot.modifiedResult.textResultForLlm", "[REDACTED]");
  hl_engine_free(e);
  test_end();
}

/* Events without a canonical meaning fire by name with the vendor's rules. */
TEST(copilot_native_event_fires_by_name) {
  ws_begin();
  char *rewrite = fmt("cat >/dev/null; %s", say("{\"modifiedTransformedPrompt\":\"shorter\"}"));
  char *path = hooks_file("h.json", fmt("{\"hooks\":{\"userPromptTransformed\":[%s]}}", entry(rewrite)));
  hl_engine *e = file_engine(path, NULL);
  char *out = NULL, *err = NULL;
  hl_status st = hl_engine_run_named(e, "userPromptTransformed", "{\"prompt\":\"p\",\"transformedPrompt\":\"tp\"}", &out, &err);
  CHECK(st == HL_OK, "run_named: %s %s", hl_status_name(st), err ? err : "");
  jv *o = track_jv(jv_parse(out ? out : ""));
  CHECK_STR(o, "dialect_fields.copilot.modifiedTransformedPrompt", "shorter");
  hl_string_free(out);
  hl_string_free(err);
  hl_engine_free(e);
  test_end();
}

/* What Copilot CLI rejects is HL_ERR_INVALID_CONFIG naming it. */
TEST(copilot_bad_version_is_invalid_config) {
  ws_begin();
  char *path = hooks_file("bad.json", "{\"version\":2,\"hooks\":{}}");
  hl_engine *e = NULL;
  char *err = NULL;
  hl_status st = hl_engine_new(fmt("{\"workspace\":%s,\"session_id\":\"s\",\"hooks_file\":%s}", jstr(eu_ws), jstr(path)), &e, &err);
  CHECK(st == HL_ERR_INVALID_CONFIG, "status %s", hl_status_name(st));
  CHECK(err && strstr(err, "Unsupported hooks config version: 2"), "errmsg: %s", err ? err : "(null)");
  CHECK(e == NULL, "no engine");
  hl_string_free(err);
  test_end();
}

/* Digest lines name the dialect; the same file read as VS Code's (the
 * `dialect` option) digests differently and merges most-restrictive. */
TEST(digest_names_the_dialect_and_vscode_is_chosen_by_the_option) {
  ws_begin();
  char *ask = say("{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\"}}");
  char *allow = say("{\"hookSpecificOutput\":{\"permissionDecision\":\"allow\"}}");
  char *path = hooks_file("h.json", fmt("{\"hooks\":{\"PreToolUse\":[%s,%s]}}", cc_hook(fmt("cat >/dev/null; %s", ask), 0),
                                        cc_hook(fmt("cat >/dev/null; %s", allow), 0)));
  hl_engine *copilot = file_engine(path, NULL);
  hl_engine *vscode = file_engine(path, "\"dialect\":\"vscode\"");
  char *pc = NULL, *pv = NULL;
  CHECK_STATUS(hl_engine_command_previews(copilot, &pc, NULL), HL_OK);
  CHECK_STATUS(hl_engine_command_previews(vscode, &pv, NULL), HL_OK);
  CHECK(pc && strstr(pc, "\"dialect\":\"copilot\""), "copilot previews: %s", pc ? pc : "");
  CHECK(pv && strstr(pv, "\"dialect\":\"vscode\""), "vscode previews: %s", pv ? pv : "");
  hl_string_free(pc);
  hl_string_free(pv);
  jv *o = run_ev(vscode, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"runTerminalCommand\",\"tool_input\":{\"command\":\"ls\"}}");
  CHECK_STR(o, "decision", "ask");
  CHECK_LEN(o, "hooks", 2);
  hl_engine_free(copilot);
  hl_engine_free(vscode);
  test_end();
}

/* A policy source (`hook_sources[i].policy`): Copilot CLI's policy hooks
 * are "Not disabled by `disableAllHooks`" and "Within an event, policy
 * entries are moved first"; a crash denies with Copilot CLI's words
 * ("Denied by preToolUse hook (hook errored)"); each report of a policy
 * hook says `"policy": true`. */
TEST(copilot_policy_source_runs_first_and_survives_disable_all_hooks) {
  ws_begin();
  char *log = fmt("cat >/dev/null; echo repo >> '%s'", wpath("order"));
  char *repo = hooks_file("repo.json", fmt("{\"version\":1,\"hooks\":{\"preToolUse\":[%s]}}", entry(log)));
  char *audit = fmt("cat >/dev/null; echo policy >> '%s'", wpath("order"));
  char *policy = wpath("00-org.json");
  write_file(policy, fmt("{\"version\":1,\"hooks\":{\"preToolUse\":[%s,%s]}}", entry(audit), entry("cat >/dev/null; exit 1")));
  hl_engine *e = eng_new(fmt("{\"workspace\":%s,\"session_id\":\"s\",\"hook_sources\":["
                             "{\"hooks_file\":%s,\"trusted\":true},"
                             "{\"hooks_file\":%s,\"policy\":true,\"dialect\":\"copilot\"}]}",
                             jstr(eu_ws), jstr(repo), jstr(policy)));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PRE_RM);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "Denied by preToolUse hook (hook errored)");
  CHECK_BOOL(o, "hooks[0].policy", true);
  CHECK_LEN(o, "hooks", 2);
  char *order = read_file(wpath("order"));
  CHECK(order && strcmp(order, "policy\n") == 0, "the policy hooks ran first and denied: %s", order ? order : "(none)");
  hl_engine_free(e);
  /* The repository's settings turn every other hook off, not the policy's. */
  unlink(wpath("order"));
  mkdir(wpath(".github/copilot"), 0755);
  char *settings = wpath(".github/copilot/settings.json");
  write_file(settings, "{\"disableAllHooks\":true}");
  write_file(policy, fmt("{\"version\":1,\"hooks\":{\"preToolUse\":[%s]}}", entry(audit)));
  e = eng_new(fmt("{\"workspace\":%s,\"session_id\":\"s\",\"hook_sources\":["
                  "{\"hooks_file\":%s,\"trusted\":true},{\"hooks_file\":%s,\"trusted\":true},"
                  "{\"hooks_file\":%s,\"policy\":true,\"dialect\":\"copilot\"}]}",
                  jstr(eu_ws), jstr(repo), jstr(settings), jstr(policy)));
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PRE_RM);
  CHECK_LEN(o, "hooks", 1);
  CHECK_BOOL(o, "hooks[0].policy", true);
  order = read_file(wpath("order"));
  CHECK(order && strcmp(order, "policy\n") == 0, "only the policy hook ran: %s", order ? order : "(none)");
  hl_engine_free(e);
  /* `policy` must be a boolean. */
  char *err = NULL;
  hl_engine *bad = NULL;
  const char *opts = fmt("{\"workspace\":%s,\"session_id\":\"s\",\"hook_sources\":[{\"hooks_file\":%s,\"policy\":1}]}", jstr(eu_ws), jstr(policy));
  CHECK_STATUS(hl_engine_new(opts, &bad, &err), HL_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(err, "policy` must be a boolean");
  hl_string_free(err);
  test_end();
}

int main(void) {
  RUN(copilot_pre_tool_use_first_deny_stops_the_rest);
  RUN(copilot_crashes_deny_pre_tool_use_and_exit_2_warns_elsewhere);
  RUN(copilot_payload_and_modified_result_through_the_abi);
  RUN(copilot_native_event_fires_by_name);
  RUN(copilot_bad_version_is_invalid_config);
  RUN(digest_names_the_dialect_and_vscode_is_chosen_by_the_option);
  RUN(copilot_policy_source_runs_first_and_survives_disable_all_hooks);
  return DONE();
}
