/* The Qwen Code dialect through the C ABI: a host linking libhookline with a
 * user's .qwen/settings.json gets Qwen Code's decisions (docs/dialects.md). */
#include "engine_util.h"

#define SHELL_INPUT(cmd) "{\"tool_name\":\"run_shell_command\",\"tool_input\":{\"command\":\"" cmd "\"}}"

/* A Qwen settings object with one match-all definition of `hooks_list` for `event`. */
static char *qw(const char *event, const char *hooks_list) {
  return fmt("{\"hooks\":{\"%s\":[{\"hooks\":[%s]}]}}", event, hooks_list);
}

static char *qw_hook(const char *command) { return fmt("{\"type\":\"command\",\"command\":%s}", jstr(command)); }

static hl_engine *qw_eng(const char *settings) { return eng_new(opts(settings, "\"dialect\":\"qwen\"")); }

/* "2 → ignore stdout, parse stderr as JSON if possible, else {decision:"deny",
 * reason:stderr}"; "JSON on stdout is honoured for any exit code other than
 * 2"; the OR merge joins the reasons with "\n". */
TEST(exit_codes_and_the_or_merge_arrive_as_pre_tool_use_outcomes) {
  ws_begin();
  char *hooks = fmt("%s,%s", qw_hook("cat >/dev/null; echo '{\"decision\":\"block\",\"reason\":\"first\"}'; exit 1"),
                    qw_hook("cat >/dev/null; echo '{\"decision\":\"allow\"}'; echo 'no shell here' >&2; exit 2"));
  hl_engine *e = qw_eng(qw("PreToolUse", hooks));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, SHELL_INPUT("ls"));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "first\nno shell here");
  hl_engine_free(e);
  test_end();
}

/* A display name matches its tool id exactly ("WriteFile" is write_file);
 * UserPromptSubmit context is wrapped in <qwen:user-prompt-submit-context>. */
TEST(display_names_match_and_prompt_context_is_wrapped) {
  ws_begin();
  char *cfg = fmt("{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"WriteFile\",\"hooks\":[%s]}],"
                  "\"UserPromptSubmit\":[{\"hooks\":[%s]}]}}",
                  qw_hook(say("{\"decision\":\"deny\",\"reason\":\"no writes\"}")),
                  qw_hook(say("{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\","
                              "\"additionalContext\":\"on main\"}}")));
  hl_engine *e = qw_eng(cfg);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"write_file\",\"tool_input\":{\"file_path\":\"a\"}}");
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "no writes");
  o = run_ev(e, HL_EVENT_USER_PROMPT_SUBMIT, "{\"prompt\":\"hi\"}");
  CHECK_STR(o, "additional_context[0]",
            "<qwen:user-prompt-submit-context>\non main\n</qwen:user-prompt-submit-context>");
  hl_engine_free(e);
  test_end();
}

/* .qwen/settings.json is recognised by its path; the payload is Claude
 * Code's with Qwen Code's tool id and a timestamp; the digest names qwen. */
TEST(a_qwen_settings_file_is_recognised_by_its_path) {
  ws_begin();
  mkdir(wpath(".qwen"), 0755);
  write_file(wpath(".qwen/settings.json"), qw("PreToolUse", qw_hook("cat > payload.json")));
  hl_engine *e = eng_new(opts(NULL, fmt("\"hooks_file\":%s", jstr(wpath(".qwen/settings.json")))));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, SHELL_INPUT("ls"));
  CHECK_LEN(o, "hooks", 1);
  jv *p = read_json(wpath("payload.json"));
  CHECK_STR(p, "hook_event_name", "PreToolUse");
  CHECK_STR(p, "tool_name", "run_shell_command");
  CHECK(jhas(p, "timestamp"), "no timestamp in %s", jraw(p));
  char *previews = NULL;
  CHECK_STATUS(hl_engine_command_previews(e, &previews, NULL), HL_OK);
  CHECK(previews && strstr(previews, "\"dialect\":\"qwen\""), "previews: %s", previews ? previews : "(null)");
  hl_string_free(previews);
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(exit_codes_and_the_or_merge_arrive_as_pre_tool_use_outcomes);
  RUN(display_names_match_and_prompt_context_is_wrapped);
  RUN(a_qwen_settings_file_is_recognised_by_its_path);
  return DONE();
}
