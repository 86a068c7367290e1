/* The Gemini CLI dialect through the C ABI: a host linking libhookline with a
 * user's .gemini/settings.json gets Gemini CLI's decisions (docs/dialects.md). */
#include "engine_util.h"

#define SHELL_INPUT(cmd) "{\"tool_name\":\"run_shell_command\",\"tool_input\":{\"command\":\"" cmd "\"}}"

/* A Gemini settings object with one match-all definition of `hooks_list` for `event`. */
static char *gm(const char *event, const char *hooks_list) {
  return fmt("{\"hooks\":{\"%s\":[{\"hooks\":[%s]}]}}", event, hooks_list);
}

static char *gm_hook(const char *command) { return fmt("{\"type\":\"command\",\"command\":%s}", jstr(command)); }

/* An engine reading `settings` as Gemini CLI's. */
static hl_engine *gm_eng(const char *settings) { return eng_new(opts(settings, "\"dialect\":\"gemini\"")); }

static jv *run_named(hl_engine *e, const char *name, const char *input) {
  char *out = NULL, *err = NULL;
  hl_status st = hl_engine_run_named(e, name, input, &out, &err);
  CHECK(st == HL_OK && out != NULL, "hl_engine_run_named(%s): %s: %s", name, hl_status_name(st), err ? err : "");
  jv *o = out ? jv_parse(out) : NULL;
  hl_string_free(out);
  hl_string_free(err);
  return track_jv(o);
}

/* "decision: block/deny ... Only the top-level field counts"; "plain text with
 * an exit code other than 0 and 1 denies"; "ask forces confirmation". */
TEST(before_tool_decisions_arrive_as_pre_tool_use_outcomes) {
  ws_begin();
  char *hooks = fmt("%s,%s", gm_hook(say("{\"decision\":\"allow\",\"reason\":\"first\"}")),
                    gm_hook("cat >/dev/null; echo 'no shell here' >&2; exit 2"));
  hl_engine *e = gm_eng(gm("BeforeTool", hooks));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, SHELL_INPUT("ls"));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "first\nno shell here");
  CHECK_STR(o, "hooks[1].failure", "exit");
  hl_engine_free(e);
  e = gm_eng(gm("BeforeTool", gm_hook(say("{\"decision\":\"ask\",\"systemMessage\":\"Run it?\"}"))));
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, SHELL_INPUT("ls"));
  CHECK_STR(o, "decision", "ask");
  CHECK_STR(o, "reason", "Run it?");
  hl_engine_free(e);
  test_end();
}

/* AfterAgent: "block → response rejected, reason sent as the next prompt"
 * (the Stop outcome's block_reason); AfterTool: "block → result replaced". */
TEST(after_agent_deny_is_the_stop_block_reason_and_after_tool_replaces_the_result) {
  ws_begin();
  char *cfg = fmt("{\"hooks\":{\"AfterAgent\":[{\"hooks\":[%s]}],\"AfterTool\":[{\"hooks\":[%s]}]}}",
                  gm_hook(say("{\"decision\":\"deny\",\"reason\":\"Run the tests first\"}")),
                  gm_hook(say("{\"decision\":\"block\",\"reason\":\"secret in output\"}")));
  hl_engine *e = gm_eng(cfg);
  jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "block_reason", "Run the tests first");
  o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK_STR(o, "block_reason", "secret in output");
  CHECK_BOOL(o, "block_replaces_result", 1);
  hl_engine_free(e);
  test_end();
}

/* BeforeModel fired by name: its overrides are under dialect_fields.gemini
 * with Gemini's field names; the hook's own decision is kept there as
 * gemini_decision, and a block/deny is the canonical deny. */
TEST(before_model_fired_by_name_returns_gemini_dialect_fields) {
  ws_begin();
  hl_engine *e = gm_eng(gm(
      "BeforeModel",
      gm_hook(say("{\"decision\":\"deny\",\"reason\":\"no\",\"hookSpecificOutput\":{\"llm_response\":{\"text\":\"canned\"}}}"))));
  jv *o = run_named(e, "BeforeModel", "{\"llm_request\":{\"model\":\"gemini-2.5-pro\",\"messages\":[]}}");
  CHECK_STR(o, "dialect_fields.gemini.gemini_decision", "deny");
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "dialect_fields.gemini.llm_response.text", "canned");
  /* The Gemini name of a canonical event fires it by name too. */
  hl_engine_free(e);
  e = gm_eng(gm("BeforeTool", gm_hook(say("{\"decision\":\"deny\"}"))));
  o = run_named(e, "BeforeTool", SHELL_INPUT("ls"));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "No reason provided");
  hl_engine_free(e);
  test_end();
}

static int warn_calls;
static char warn_text[4096];
static void on_log(void *ud, int32_t level, const char *msg) {
  (void)ud;
  if (level == 2 && strstr(msg, "Invalid hook event name")) {
    warn_calls++;
    snprintf(warn_text, sizeof warn_text, "%s", msg);
  }
}

/* A settings file at .gemini/settings.json is recognised by its path; an
 * entry Gemini CLI skips is skipped and reported (here through the log). */
TEST(a_gemini_settings_file_is_recognised_and_skipped_entries_are_logged) {
  ws_begin();
  mkdir(wpath(".gemini"), 0755);
  write_file(wpath(".gemini/settings.json"),
             fmt("{\"hooks\":{\"PreToolUse\":[{\"hooks\":[%s]}],\"BeforeTool\":[{\"matcher\":\"run_shell\",\"hooks\":[%s]}]}}",
                 gm_hook("true"), gm_hook("cat > payload.json")));
  warn_calls = 0;
  hl_set_log_handler(on_log, NULL, 2);
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(wpath(".gemini/settings.json")))));
  hl_set_log_handler(NULL, NULL, 0);
  CHECK(warn_calls == 1 && strstr(warn_text, "\"PreToolUse\""), "warnings: %d (%s)", warn_calls, warn_text);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, SHELL_INPUT("ls"));
  CHECK_LEN(o, "hooks", 1);
  jv *p = read_json(wpath("payload.json"));
  CHECK_STR(p, "hook_event_name", "BeforeTool");
  CHECK_STR(p, "transcript_path", "");
  CHECK(jhas(p, "timestamp"), "no timestamp in %s", jraw(p));
  char *previews = NULL;
  CHECK_STATUS(hl_engine_command_previews(e, &previews, NULL), HL_OK);
  CHECK(previews && strstr(previews, "\"dialect\":\"gemini\"") && strstr(previews, "\"event\":\"pre_tool_use\""),
        "previews: %s", previews ? previews : "(null)");
  hl_string_free(previews);
  hl_engine_free(e);
  test_end();
}

/* Sources of Gemini CLI and Claude Code in one engine: each hook reads its
 * own payload; the most restrictive decision wins. */
TEST(gemini_and_claude_sources_in_one_engine) {
  ws_begin();
  char *sources =
      fmt("\"hook_sources\":[{\"dialect\":\"gemini\",\"hooks\":%s},{\"hooks\":%s}]",
          gm("BeforeTool", gm_hook("cat > gemini.json; echo '{\"decision\":\"deny\",\"reason\":\"gemini says no\"}'")),
          cc_config("PreToolUse", group(NULL, cc_hook("cat > claude.json", 0))));
  hl_engine *e = eng_new(opts(NULL, sources));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, SHELL_INPUT("ls"));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "gemini says no");
  CHECK_STR(read_json(wpath("gemini.json")), "hook_event_name", "BeforeTool");
  CHECK_STR(read_json(wpath("claude.json")), "hook_event_name", "PreToolUse");
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(before_tool_decisions_arrive_as_pre_tool_use_outcomes);
  RUN(after_agent_deny_is_the_stop_block_reason_and_after_tool_replaces_the_result);
  RUN(before_model_fired_by_name_returns_gemini_dialect_fields);
  RUN(a_gemini_settings_file_is_recognised_and_skipped_entries_are_logged);
  RUN(gemini_and_claude_sources_in_one_engine);
  return DONE();
}
