/* The Codex dialect through the C ABI: a project's .codex/hooks.json (and
 * the [hooks] of .codex/config.toml) recognised by path, the `dialect`
 * option, Codex's exit-code table and merge rules, its exact payload, the
 * whole-file rejection of what Codex cannot parse, and a Codex source next
 * to a Claude Code one (docs/dialects.md). */
#include "engine_util.h"

/* {"hooks":{"<event>":[<groups>]}}: a Codex hooks.json object. */
static char *cx(const char *event_name, const char *groups) {
  return fmt("{\"hooks\":{\"%s\":[%s]}}", event_name, groups);
}

/* An engine over inline Codex hooks (the `dialect` option). */
static hl_engine *cx_eng(const char *hooks) { return eng_new(opts(hooks, "\"dialect\":\"codex\"")); }

static jv *cx_run(const char *hooks, hl_event ev, const char *input) {
  hl_engine *e = cx_eng(hooks);
  if (!e) return NULL;
  jv *o = run_ev(e, ev, input);
  hl_engine_free(e);
  return o;
}

/* A hook printing a PreToolUse permissionDecision (reason NULL: none). */
static char *pre(const char *decision, const char *reason) {
  if (!reason)
    return say(fmt("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"%s\"}}", decision));
  return say(fmt("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"%s\","
                 "\"permissionDecisionReason\":\"%s\"}}",
                 decision, reason));
}

TEST(codex_hooks_json_is_recognised_by_its_path) {
  ws_begin();
  mkdir(wpath(".codex"), 0755);
  char *file = wpath(".codex/hooks.json");
  write_file(file, cx("PreToolUse", group("Bash", cc_hook(fmt("cat > '%s'; %s", wpath("payload.json"), pre("deny", "not here")), 0))));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(file))));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_call_id\":\"c1\",\"turn_id\":\"t1\",\"extra\":1}");
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "not here");
  char *payload = read_file(wpath("payload.json"));
  char *want = fmt("{\"session_id\":\"sess-1\",\"turn_id\":\"t1\",\"transcript_path\":null,\"cwd\":%s,\"hook_event_name\":"
                   "\"PreToolUse\",\"model\":\"\",\"permission_mode\":\"default\",\"tool_name\":\"Bash\",\"tool_input\":"
                   "{\"command\":\"ls\"},\"tool_use_id\":\"c1\"}",
                   jstr(eu_ws));
  CHECK(payload && strcmp(payload, want) == 0, "Codex payload (exact, no newline):\n got %s\nwant %s", payload ? payload : "(none)", want);
  char *previews = NULL;
  CHECK_STATUS(hl_engine_command_previews(e, &previews, NULL), HL_OK);
  CHECK(previews && strstr(previews, "\"dialect\":\"codex\""), "previews name the dialect: %s", previews ? previews : "(null)");
  hl_string_free(previews);
  hl_engine_free(e);
  /* config.toml's [hooks], by path too. */
  write_file(wpath(".codex/config.toml"), "model = \"gpt-5\"\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\n"
                                          "command = \"cat >/dev/null; printf '%s' '{\\\"decision\\\":\\\"block\\\",\\\"reason\\\":\\\"tests first\\\"}'\"\n");
  e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(wpath(".codex/config.toml")))));
  o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "block_reason", "tests first");
  hl_engine_free(e);
  test_end();
}

/* Codex never stops for a hooks problem: a file it cannot parse loads no
 * hooks and is named in the configuration warnings. */
TEST(a_file_codex_cannot_parse_is_a_warning) {
  ws_begin();
  char *err = NULL;
  hl_engine *e = NULL;
  const char *bad[] = {
      "{\"PreToolUse\":[]}",
      "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"command\":\"x\"}]}]}}",
      "{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"x\",\"timeout\":-1}]}]}}",
      NULL,
  };
  const char *needle[] = {"unknown field `PreToolUse`", "missing field `type`", "timeout must be a non-negative integer"};
  for (int i = 0; bad[i]; i++) {
    hl_status st = hl_engine_new(opts(bad[i], "\"dialect\":\"codex\""), &e, &err);
    CHECK(st == HL_OK && e != NULL, "%s: %s %s", bad[i], hl_status_name(st), err ? err : "");
    hl_string_free(err);
    err = NULL;
    if (e) {
      char *w = NULL;
      CHECK_STATUS(hl_engine_config_warnings(e, &w, &err), HL_OK);
      CHECK(w && strstr(w, "not loaded") && strstr(w, needle[i]), "%s: warnings %s", bad[i], w ? w : "(null)");
      hl_string_free(w);
      hl_string_free(err);
      err = NULL;
      hl_engine_free(e);
      e = NULL;
    }
  }
  hl_status st = hl_engine_new(opts("{\"hooks\":{}}", "\"dialect\":\"codx\""), &e, &err);
  CHECK(st == HL_ERR_INVALID_ARGUMENT && err && strstr(err, "codex"), "unknown dialect: %s %s", hl_status_name(st), err ? err : "");
  hl_string_free(err);
  test_end();
}

TEST(codex_pre_tool_use_rows_allow_is_a_rewrite_ask_fails_open_exit_2_needs_stderr) {
  ws_begin();
  jv *o = cx_run(cx("PreToolUse", group(NULL, cc_hook(say("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
                                                        "\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"ls -la\"}}}"), 0))),
                 HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "continue");
  CHECK_STR(o, "updated_input.command", "ls -la");
  o = cx_run(cx("PreToolUse", group(NULL, cc_hook(pre("ask", "sure?"), 0))), HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "continue");
  CHECK_MSG(o, "error", "unsupported permissionDecision:ask");
  CHECK_STR(o, "hooks[0].failure", "invalid_output");
  o = cx_run(cx("PreToolUse", group(NULL, cc_hook("cat >/dev/null; exit 2", 0))), HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "continue");
  CHECK_MSG(o, "error", "exited with code 2 but did not write a blocking reason to stderr");
  /* Any deny blocks, the first reason wins, and a deny drops every rewrite. */
  char *hooks = fmt("%s,%s,%s", cc_hook(say("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":"
                                            "\"allow\",\"updatedInput\":{\"command\":\"x\"}}}"), 0),
                    cc_hook(pre("deny", "first"), 0), cc_hook("cat >/dev/null; echo second >&2; exit 2", 0));
  o = cx_run(cx("PreToolUse", group(NULL, hooks)), HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "first");
  CHECK_NULL(o, "updated_input");
  CHECK_LEN(o, "hooks", 3);
  test_end();
}

TEST(codex_permission_request_exit_2_denies_and_any_deny_wins) {
  ws_begin();
  jv *o = cx_run(cx("PermissionRequest", group(NULL, cc_hook("cat >/dev/null; echo 'needs review' >&2; exit 2", 0))),
                 HL_EVENT_PERMISSION_REQUEST, PERM_INPUT);
  CHECK_STR(o, "decision.behavior", "deny");
  CHECK_STR(o, "decision.message", "needs review");
  char *allow = cc_hook(say("{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}"), 0);
  char *deny = cc_hook(say("{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\"}}}"), 0);
  o = cx_run(cx("PermissionRequest", group(NULL, fmt("%s,%s", allow, deny))), HL_EVENT_PERMISSION_REQUEST, PERM_INPUT);
  CHECK_STR(o, "decision.behavior", "deny");
  CHECK_STR(o, "decision.message", "PermissionRequest hook denied approval");
  test_end();
}

TEST(codex_stop_joins_reasons_and_continue_false_overrides_them) {
  ws_begin();
  char *b1 = cc_hook(say("{\"decision\":\"block\",\"reason\":\"first\"}"), 0);
  char *b2 = cc_hook("cat >/dev/null; echo second >&2; exit 2", 0);
  jv *o = cx_run(cx("Stop", group(NULL, fmt("%s,%s", b1, b2))), HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "block_reason", "first\n\nsecond");
  char *halt = cc_hook(say("{\"continue\":false,\"stopReason\":\"enough\"}"), 0);
  o = cx_run(cx("Stop", group(NULL, fmt("%s,%s", b1, halt))), HL_EVENT_STOP, STOP_INPUT);
  CHECK_NULL(o, "block_reason");
  CHECK_BOOL(o, "continue", 0);
  CHECK_STR(o, "stop_reason", "enough");
  o = cx_run(cx("Stop", group(NULL, cc_hook(say("plain text"), 0))), HL_EVENT_STOP, STOP_INPUT);
  CHECK_MSG(o, "error", "hook returned invalid stop hook JSON output");
  test_end();
}

TEST(codex_post_compact_fires_by_name_with_codex_rules) {
  ws_begin();
  hl_engine *e = cx_eng(cx("PostCompact", group("manual", cc_hook(say("{\"continue\":false,\"stopReason\":\"compacted\"}"), 0))));
  char *out = NULL, *err = NULL;
  CHECK_STATUS(hl_engine_run_named(e, "PostCompact", "{\"trigger\":\"manual\"}", &out, &err), HL_OK);
  jv *o = track_jv(jv_parse(out));
  CHECK_BOOL(o, "continue", 0);
  CHECK_STR(o, "stop_reason", "compacted");
  hl_string_free(out);
  CHECK_STATUS(hl_engine_run_named(e, "PostCompact", "{\"trigger\":\"auto\"}", &out, &err), HL_OK);
  o = track_jv(jv_parse(out));
  CHECK_LEN(o, "hooks", 0);
  hl_string_free(out);
  hl_engine_free(e);
  test_end();
}

TEST(a_codex_source_and_a_claude_source_in_one_engine) {
  ws_begin();
  char *codex = cx("UserPromptSubmit", group(NULL, cc_hook(fmt("cat > '%s'; echo codex context", wpath("codex.json")), 0)));
  char *claude = cc_config("UserPromptSubmit", group(NULL, cc_hook(fmt("cat > '%s'; echo claude context", wpath("claude.json")), 0)));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hook_sources\":[{\"hooks\":%s,\"dialect\":\"codex\"},{\"hooks\":%s}]", codex, claude)));
  jv *o = run_ev(e, HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT);
  CHECK(jarr_has(o, "additional_context", "codex context") && jarr_has(o, "additional_context", "claude context"),
        "both contexts: %s", jraw(o));
  char *cp = read_file(wpath("codex.json")), *lp = read_file(wpath("claude.json"));
  CHECK(cp && lp, "both hooks ran");
  if (cp && lp) {
    CHECK(cp[strlen(cp) - 1] == '}' && lp[strlen(lp) - 1] == '\n', "Codex payload has no newline, Claude's has one");
    CHECK(strstr(cp, "\"model\":\"\"") && !strstr(lp, "\"model\""), "each hook gets its own dialect's payload");
  }
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(codex_hooks_json_is_recognised_by_its_path);
  RUN(a_file_codex_cannot_parse_is_a_warning);
  RUN(codex_pre_tool_use_rows_allow_is_a_rewrite_ask_fails_open_exit_2_needs_stderr);
  RUN(codex_permission_request_exit_2_denies_and_any_deny_wins);
  RUN(codex_stop_joins_reasons_and_continue_false_overrides_them);
  RUN(codex_post_compact_fires_by_name_with_codex_rules);
  RUN(a_codex_source_and_a_claude_source_in_one_engine);
  return DONE();
}
