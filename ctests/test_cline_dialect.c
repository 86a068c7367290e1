/* The Cline dialect through the C ABI: a hooks folder (.clinerules/hooks) as
 * hooks_file, an executable file named after each event, the executable bit
 * turning a hook on (a non-executable file and a .ps1 skipped and reported),
 * the camelCase payload, {cancel, contextModification, errorMessage} read from
 * the last JSON object of stdout on any exit code, the Task* events fired by
 * name, and an approved folder that gains a hook file (docs/dialects.md). */
#include "engine_util.h"

#include <sys/stat.h>

#define BASH_INPUT(cmd) "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"" cmd "\"},\"tool_call_id\":\"tc-1\"}"

/* <ws>/.clinerules/hooks, created. */
static char *hooks_dir(void) {
  char *rules = wpath(".clinerules");
  mkdir(rules, 0755);
  char *dir = fmt("%s/hooks", rules);
  mkdir(dir, 0755);
  return dir;
}

/* Write the hook file `name` into the folder with `mode`. */
static void hook_file(const char *name, const char *body, mode_t mode) {
  char *path = fmt("%s/%s", hooks_dir(), name);
  write_file(path, body);
  CHECK(chmod(path, mode) == 0, "chmod %s", path);
}

/* Engine options reading the folder (recognised by its path), with `extra` (may be NULL). */
static char *folder_opts(const char *extra) {
  char *base = fmt("\"hooks_file\":%s", jstr(hooks_dir()));
  return opts(NULL, extra ? fmt("%s,%s", base, extra) : base);
}

static jv *run_named(hl_engine *e, const char *name, const char *input) {
  char *out = NULL, *err = NULL;
  hl_status st = hl_engine_run_named(e, name, input, &out, &err);
  CHECK(st == HL_OK && out != NULL, "hl_engine_run_named(%s): %s: %s", name, hl_status_name(st), err ? err : "");
  jv *o = out ? jv_parse(out) : NULL;
  hl_string_free(out);
  hl_string_free(err);
  return track_jv(o);
}

/* "a hook is an executable file named after the event"; "must be a regular
 * file and X_OK"; ".ps1 hook files are intentionally ignored on Unix
 * platforms"; "should handle script that blocks execution": {cancel: true,
 * errorMessage} cancels with that message. */
TEST(a_folder_of_executable_non_executable_and_ps1_files) {
  ws_begin();
  hook_file("PreToolUse", "#!/bin/sh\ncat >/dev/null\necho '{\"cancel\": true, \"errorMessage\": \"Hook blocked execution\"}'\n", 0755);
  hook_file("PostToolUse", "#!/bin/sh\necho '{\"cancel\": true}'\n", 0644);
  hook_file("UserPromptSubmit.ps1", "Write-Output '{\"cancel\":true}'\n", 0755);
  hook_file("README.md", "# hooks\n", 0644);
  hl_engine *e = eng_new(folder_opts(NULL));
  char *warnings = NULL;
  CHECK_STATUS(hl_engine_config_warnings(e, &warnings, NULL), HL_OK);
  CHECK(warnings && strstr(warnings, "PostToolUse") && strstr(warnings, "is not executable") &&
            strstr(warnings, "UserPromptSubmit.ps1") && strstr(warnings, "only on Windows") && !strstr(warnings, "README"),
        "warnings: %s", warnings ? warnings : "(null)");
  hl_string_free(warnings);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_INPUT("rm -rf build"));
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "Hook blocked execution");
  CHECK_BOOL(o, "continue", 0);
  CHECK_STR(o, "stop_reason", "Hook blocked execution");
  o = run_ev(e, HL_EVENT_POST_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_response\":\"ok\"}");
  CHECK_BOOL(o, "continue", 1);
  CHECK_LEN(o, "hooks", 0);
  o = run_ev(e, HL_EVENT_USER_PROMPT_SUBMIT, "{\"turn_id\":\"t\",\"prompt\":\"hi\"}");
  CHECK_LEN(o, "hooks", 0);
  hl_engine_free(e);
  test_end();
}

/* "should pass hook input via stdin": input.preToolUse.toolName; Claude
 * Code's Bash reaches a Cline hook as execute_command. "Try to extract JSON
 * from stdout ... Scan from the end to find the last complete JSON object";
 * "If we have valid JSON, honor it regardless of exit code". */
TEST(the_camel_case_payload_and_the_last_json_object_on_any_exit_code) {
  ws_begin();
  char *seen = wpath("seen.json");
  hook_file("PreToolUse",
            fmt("#!/bin/sh\ncat > '%s'\necho 'debug: checking'\necho '{\"contextModification\": \"checked\"}'\nexit 1\n", seen),
            0755);
  hl_engine *e = eng_new(folder_opts(NULL));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_INPUT("ls"));
  CHECK_STR(o, "decision", "continue");
  CHECK(jarr_has(o, "additional_context", "checked"), "context: %s", jraw(o));
  CHECK(jmsg(o, "warning", "exited with code 1 but answered with JSON") >= 0, "warning: %s", jraw(o));
  jv *p = read_json(seen);
  CHECK_STR(p, "hookName", "PreToolUse");
  CHECK_STR(p, "taskId", "sess-1");
  CHECK_STR(p, "preToolUse.toolName", "execute_command");
  CHECK_STR(p, "preToolUse.parameters.command", "ls");
  CHECK_STR(p, "model.slug", "unknown");
  hl_engine_free(e);
  test_end();
}

/* validateHookOutput: "The 'shouldContinue' field has been removed"; the
 * Task* hooks fire by name; TaskStart's contextModification is context. */
TEST(should_continue_is_an_error_and_task_events_fire_by_name) {
  ws_begin();
  hook_file("UserPromptSubmit", "#!/bin/sh\necho '{\"shouldContinue\": false}'\n", 0755);
  hook_file("TaskStart", "#!/bin/sh\ncat >/dev/null\necho '{\"contextModification\": \"task started\"}'\n", 0755);
  hl_engine *e = eng_new(folder_opts(NULL));
  jv *o = run_ev(e, HL_EVENT_USER_PROMPT_SUBMIT, "{\"turn_id\":\"t\",\"prompt\":\"hi\"}");
  CHECK_BOOL(o, "allow_prompt", 1);
  CHECK_STR(o, "hooks[0].failure", "invalid_output");
  CHECK(jmsg(o, "error", "'shouldContinue' field has been removed") >= 0, "error: %s", jraw(o));
  o = run_named(e, "TaskStart", "{\"task_metadata\":{\"taskId\":\"t1\"}}");
  CHECK(jarr_has(o, "additional_context", "task started"), "context: %s", jraw(o));
  hl_engine_free(e);
  test_end();
}

/* An approved folder pins every file in it: a hook file added afterwards
 * skips the folder's hooks until a new approval. */
TEST(a_hook_file_added_to_an_approved_folder_needs_a_new_approval) {
  ws_begin();
  hook_file("PreToolUse", "#!/bin/sh\necho '{\"contextModification\": \"approved\"}'\n", 0755);
  char *gated = fmt("\"workspace_gated\":true,\"trust_store\":%s", jstr(wpath("trust.json")));
  hl_engine *e = eng_new(folder_opts(gated));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_INPUT("ls"));
  CHECK_STR(o, "hooks[0].skipped", "not_approved");
  CHECK_STATUS(hl_engine_approve_workspace_hooks(e, 1, NULL), HL_OK);
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_INPUT("ls"));
  CHECK(jarr_has(o, "additional_context", "approved"), "context: %s", jraw(o));
  hook_file("PostToolUse", "#!/bin/sh\necho '{\"cancel\": true}'\n", 0755);
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, BASH_INPUT("ls"));
  CHECK_STR(o, "hooks[0].skipped", "changed_since_approval");
  hl_engine_free(e);
  e = eng_new(folder_opts(gated));
  CHECK(hl_engine_workspace_hooks_need_approval(e) == 1, "the folder with a new hook needs a new approval");
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(a_folder_of_executable_non_executable_and_ps1_files);
  RUN(the_camel_case_payload_and_the_last_json_object_on_any_exit_code);
  RUN(should_continue_is_an_error_and_task_events_fire_by_name);
  RUN(a_hook_file_added_to_an_approved_folder_needs_a_new_approval);
  return DONE();
}
