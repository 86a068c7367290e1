/* Engine conformance: payloads, environment, working directory and hook reports as a hook sees
 * them (docs/protocol.md §4, §5, §7, §8). */
#include "engine_util.h"

/* Engine with one hook for `ev` (VT dialect) running `cmd`; extra options may be NULL. */
static hl_engine *eng1(hl_event ev, const char *cmd, const char *extra) {
  return eng_new(opts(vt_cmds(eu_keys[ev], 0, (const char *[]){cmd, NULL}), extra));
}

/* `cat > file` as a hook command. */
static char *capture_stdin(const char *file) { return fmt("cat > '%s'", wpath(file)); }

/* Value of NAME in an `env` dump (tracked), or NULL when unset. */
static char *env_get(const char *dump, const char *name) {
  if (!dump) return NULL;
  char *key = fmt("%s=", name);
  const char *p = NULL;
  if (!strncmp(dump, key, strlen(key))) p = dump + strlen(key);
  else if ((p = strstr(dump, fmt("\n%s", key)))) p += strlen(key) + 1;
  if (!p) return NULL;
  size_t n = strcspn(p, "\n");
  return track(strndup(p, n));
}

#define CHECK_ENV(dump, name, want)                                                               \
  do {                                                                                            \
    char *eg_ = env_get((dump), (name));                                                          \
    CHECK(eg_ && !strcmp(eg_, (want)), "env %s = %s, want %s", (name), eg_ ? eg_ : "(unset)", (want)); \
  } while (0)
#define CHECK_NO_ENV(dump, name) \
  CHECK(env_get((dump), (name)) == NULL, "env %s is set (%s)", (name), env_get((dump), (name)))

TEST(payload_has_session_cwd_event_transcript_and_tool_use_id) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, capture_stdin("p.json"), NULL);
  run_ev(e, HL_EVENT_PRE_TOOL_USE,
         "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\",\"n\":[1,2]},\"tool_call_id\":\"call-77\","
         "\"permission_mode\":\"acceptEdits\",\"agent_id\":\"ag-1\",\"extra_obj\":{\"k\":true}}");
  jv *p = read_json(wpath("p.json"));
  CHECK(p != NULL, "payload is not JSON: %s", read_file(wpath("p.json")));
  CHECK_STR(p, "session_id", "sess-1");
  CHECK_STR(p, "cwd", eu_ws);
  CHECK_STR(p, "hook_event_name", "PreToolUse");
  CHECK_NULL(p, "transcript_path");
  CHECK_STR(p, "tool_name", "Bash");
  CHECK_STR(p, "tool_input.command", "ls");
  CHECK_NUM(p, "tool_input.n[1]", 2);
  CHECK_STR(p, "tool_use_id", "call-77");
  CHECK_STR(p, "permission_mode", "acceptEdits");
  CHECK_STR(p, "agent_id", "ag-1");
  CHECK_BOOL(p, "extra_obj.k", 1);
  hl_engine_free(e);
  test_end();
}

TEST(payload_is_compact_json_with_one_trailing_newline) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, capture_stdin("p.json"), NULL);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, "{ \"tool_name\" : \"Bash\" ,\n \"tool_input\" : { \"command\" : \"a b\" } }");
  char *raw = read_file(wpath("p.json"));
  size_t n = raw ? strlen(raw) : 0;
  CHECK(n > 2 && raw[n - 1] == '\n' && raw[n - 2] == '}', "payload does not end with }\\n: %s", raw ? raw : "");
  CHECK(raw && !memchr(raw, '\n', n - 1), "payload has a newline before the end: %s", raw);
  CHECK(raw && !strstr(raw, "\": ") && !strstr(raw, ", \"") && !strstr(raw, "{ "), "payload is not compact: %s", raw);
  hl_engine_free(e);
  test_end();
}

TEST(payload_cwd_and_hook_cwd_are_the_canonical_workspace) {
  ws_begin();
  CHECK(mkdir(wpath("real"), 0700) == 0, "mkdir");
  CHECK(symlink(wpath("real"), wpath("link")) == 0, "symlink");
  char *real = wpath("real");
  char *o = fmt("{\"workspace\":%s,\"session_id\":\"s\",\"hooks\":%s}", jstr(wpath("link/../link/.")),
                vt_cmds("pre_tool_use", 0,
                        (const char *[]){fmt("cat > '%s'; pwd -P > '%s'; pwd > '%s'; env > '%s'", wpath("p.json"),
                                             wpath("pwdP"), wpath("pwd"), wpath("env")),
                                         NULL}));
  hl_engine *e = eng_new(o);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  jv *p = read_json(wpath("p.json"));
  CHECK_STR(p, "cwd", real);
  char *pwdp = read_file(wpath("pwdP"));
  CHECK(pwdp && !strcmp(pwdp, fmt("%s\n", real)), "hook ran in %s, want %s", pwdp ? pwdp : "(none)", real);
  char *pwd = read_file(wpath("pwd"));
  CHECK(pwd && !strcmp(pwd, fmt("%s\n", real)), "hook $PWD is %s, want the canonical %s", pwd ? pwd : "(none)", real);
  char *env = read_file(wpath("env"));
  CHECK_ENV(env, "HOOKLINE_PROJECT_DIR", real);
  CHECK_ENV(env, "CLAUDE_PROJECT_DIR", real);
  CHECK_ENV(env, "VT_PROJECT_DIR", real);
  hl_engine_free(e);
  test_end();
}

TEST(transcript_path_null_then_set_then_cleared) {
  ws_begin();
  hl_engine *e =
      eng1(HL_EVENT_PRE_TOOL_USE, fmt("cat > '%s'; env > '%s'", wpath("p.json"), wpath("env")), NULL);
  char *tp = (char *)0x1;
  CHECK_STATUS(hl_engine_transcript_path(e, &tp, NULL), HL_OK);
  CHECK(tp == NULL, "transcript path set initially");
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  jv *p = read_json(wpath("p.json"));
  CHECK_NULL(p, "transcript_path");
  char *env = read_file(wpath("env"));
  CHECK_NO_ENV(env, "HOOKLINE_TRANSCRIPT_PATH");
  CHECK_NO_ENV(env, "VT_TRANSCRIPT_PATH");
  CHECK_NO_ENV(env, "CLAUDE_TRANSCRIPT_PATH");

  char *path = wpath("session transcript.jsonl");
  CHECK_STATUS(hl_engine_set_transcript_path(e, path, NULL), HL_OK);
  CHECK_STATUS(hl_engine_transcript_path(e, &tp, NULL), HL_OK);
  CHECK(tp && !strcmp(tp, path), "transcript_path() = %s", tp ? tp : "(null)");
  hl_string_free(tp);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  p = read_json(wpath("p.json"));
  CHECK_STR(p, "transcript_path", path);
  env = read_file(wpath("env"));
  CHECK_ENV(env, "HOOKLINE_TRANSCRIPT_PATH", path);
  CHECK_ENV(env, "VT_TRANSCRIPT_PATH", path);
  CHECK_ENV(env, "CLAUDE_TRANSCRIPT_PATH", path);

  CHECK_STATUS(hl_engine_set_transcript_path(e, NULL, NULL), HL_OK);
  CHECK_STATUS(hl_engine_transcript_path(e, &tp, NULL), HL_OK);
  CHECK(tp == NULL, "transcript path not cleared");
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  p = read_json(wpath("p.json"));
  CHECK_NULL(p, "transcript_path");
  env = read_file(wpath("env"));
  CHECK_NO_ENV(env, "HOOKLINE_TRANSCRIPT_PATH");
  hl_engine_free(e);
  test_end();
}

TEST(transcript_path_option_is_used) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_SESSION_END, capture_stdin("p.json"), "\"transcript_path\":\"/t/opt.jsonl\"");
  run_ev(e, HL_EVENT_SESSION_END, SEND_INPUT);
  jv *p = read_json(wpath("p.json"));
  CHECK_STR(p, "transcript_path", "/t/opt.jsonl");
  CHECK_STR(p, "reason", "completed");
  CHECK_STR(p, "turn_id", "t-9");
  hl_engine_free(e);
  test_end();
}

TEST(subagent_transcript_path_replaces_the_session_one) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_SUBAGENT_STOP, capture_stdin("p.json"), "\"transcript_path\":\"/t/parent.jsonl\"");
  run_ev(e, HL_EVENT_SUBAGENT_STOP,
         "{\"parent_session_id\":\"sess-1\",\"child_thread_id\":\"th-2\",\"agent_name\":\"explorer\","
         "\"display_label\":\"Explorer\",\"background\":true,\"status\":\"completed\","
         "\"transcript_path\":\"/t/child.jsonl\"}");
  jv *p = read_json(wpath("p.json"));
  CHECK_STR(p, "transcript_path", "/t/child.jsonl");
  CHECK_STR(p, "hook_event_name", "SubagentStop");
  CHECK_STR(p, "agent_name", "explorer");
  CHECK_BOOL(p, "background", 1);
  /* Without a child transcript the session's is used. */
  run_ev(e, HL_EVENT_SUBAGENT_STOP, SUBAGENT_INPUT);
  p = read_json(wpath("p.json"));
  CHECK_STR(p, "transcript_path", "/t/parent.jsonl");
  hl_engine_free(e);
  test_end();
}

TEST(session_start_payload_source_is_the_trigger) {
  ws_begin();
  const char *triggers[] = {"startup", "resume", "new_session", "compact"};
  for (int i = 0; i < 4; i++) {
    hl_engine *e = eng1(HL_EVENT_SESSION_START, capture_stdin("p.json"), fmt("\"trigger\":\"%s\"", triggers[i]));
    run_ev(e, HL_EVENT_SESSION_START, "{}");
    jv *p = read_json(wpath("p.json"));
    CHECK_STR(p, "source", triggers[i]);
    CHECK_STR(p, "hook_event_name", "SessionStart");
    CHECK_STR(p, "session_id", "sess-1");
    hl_engine_free(e);
  }
  hl_engine *e = eng1(HL_EVENT_SESSION_START, capture_stdin("p.json"), NULL);
  run_ev(e, HL_EVENT_SESSION_START, "{}");
  CHECK_STR(read_json(wpath("p.json")), "source", "startup");
  hl_engine_free(e);
  test_end();
}

TEST(every_event_payload_and_env_name_the_event) {
  ws_begin();
  static const char *names[12] = {"SessionStart", "SessionEnd", "SubagentStart", "SubagentStop",
                                  "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest",
                                  "PreCompact", "Stop", "Notification", "PostToolUseFailure"};
  for (int ev = 0; ev < 12; ev++) {
    CHECK(hl_event_name(ev) && !strcmp(hl_event_name(ev), names[ev]), "hl_event_name(%d) = %s", ev,
          hl_event_name(ev) ? hl_event_name(ev) : "(null)");
    hl_engine *e = eng1(ev, fmt("cat > '%s'; env > '%s'", wpath("p.json"), wpath("env")), NULL);
    jv *o = run_ev(e, ev, eu_inputs[ev]);
    CHECK(jlen(o, "hooks") == 1, "%s: hook did not run", names[ev]);
    jv *p = read_json(wpath("p.json"));
    CHECK_STR(p, "hook_event_name", names[ev]);
    CHECK_STR(p, "session_id", "sess-1");
    char *env = read_file(wpath("env"));
    CHECK_ENV(env, "HOOKLINE_HOOK_EVENT", names[ev]);
    CHECK_ENV(env, "VT_HOOK_EVENT", names[ev]);
    int tool_event = ev == HL_EVENT_PRE_TOOL_USE || ev == HL_EVENT_POST_TOOL_USE || ev == HL_EVENT_POST_TOOL_USE_FAILURE;
    if (tool_event) CHECK(js(p, "tool_use_id") != NULL, "%s payload lacks tool_use_id: %s", names[ev], jraw(p));
    unlink(wpath("p.json"));
    hl_engine_free(e);
  }
  test_end();
}

TEST(payload_event_fields_are_passed_through) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_PRE_COMPACT, capture_stdin("p.json"), NULL);
  run_ev(e, HL_EVENT_PRE_COMPACT,
         "{\"trigger\":\"manual\",\"mode\":\"local\",\"original_message_count\":40,\"compacted_message_count\":10,"
         "\"history_artifact_path\":\"/h/a.json\"}");
  jv *p = read_json(wpath("p.json"));
  CHECK_STR(p, "trigger", "manual");
  CHECK_STR(p, "mode", "local");
  CHECK_NUM(p, "original_message_count", 40);
  CHECK_NUM(p, "compacted_message_count", 10);
  CHECK_STR(p, "history_artifact_path", "/h/a.json");
  hl_engine_free(e);
  e = eng1(HL_EVENT_PERMISSION_REQUEST, capture_stdin("p.json"), NULL);
  run_ev(e, HL_EVENT_PERMISSION_REQUEST,
         "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"x\"},\"permission_request\":{\"kind\":\"exec\"},"
         "\"permission_suggestions\":[{\"type\":\"addRules\"}]}");
  p = read_json(wpath("p.json"));
  CHECK_STR(p, "permission_request.kind", "exec");
  CHECK_STR(p, "permission_suggestions[0].type", "addRules");
  CHECK_STR(p, "hook_event_name", "PermissionRequest");
  hl_engine_free(e);
  test_end();
}

TEST(env_has_engine_variables_and_aliases) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, fmt("env > '%s'", wpath("env")), NULL);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  char *env = read_file(wpath("env"));
  CHECK_ENV(env, "HOOKLINE_PROJECT_DIR", eu_ws);
  CHECK_ENV(env, "HOOKLINE_SESSION_ID", "sess-1");
  CHECK_ENV(env, "HOOKLINE_HOOK_EVENT", "PreToolUse");
  CHECK_ENV(env, "VT_PROJECT_DIR", eu_ws);
  CHECK_ENV(env, "VT_SESSION_ID", "sess-1");
  CHECK_ENV(env, "VT_HOOK_EVENT", "PreToolUse");
  CHECK_ENV(env, "CLAUDE_PROJECT_DIR", eu_ws);
  CHECK_ENV(env, "CLAUDE_SESSION_ID", "sess-1");
  CHECK_NO_ENV(env, "HOOKLINE_TRANSCRIPT_PATH");
  CHECK_NO_ENV(env, "CLAUDE_TRANSCRIPT_PATH");
  hl_engine_free(e);
  test_end();
}

TEST(env_option_adds_env_remove_removes_and_engine_variables_win) {
  ws_begin();
  setenv("HL_TEST_INHERITED_KEEP", "kept", 1);
  setenv("HL_TEST_INHERITED_DROP", "dropped", 1);
  setenv("HOOKLINE_SESSION_ID", "inherited-session", 1);
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, fmt("env > '%s'", wpath("env")),
                      "\"env\":{\"MY_VAR\":\"hello world\",\"HL_TEST_INHERITED_KEEP\":\"overridden\","
                      "\"HOOKLINE_SESSION_ID\":\"evil\",\"CLAUDE_PROJECT_DIR\":\"/evil\",\"VT_HOOK_EVENT\":\"Evil\"},"
                      "\"env_remove\":[\"HL_TEST_INHERITED_DROP\",\"HOOKLINE_PROJECT_DIR\"]");
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  char *env = read_file(wpath("env"));
  CHECK_ENV(env, "MY_VAR", "hello world");
  CHECK_ENV(env, "HL_TEST_INHERITED_KEEP", "overridden");
  CHECK_NO_ENV(env, "HL_TEST_INHERITED_DROP");
  CHECK_ENV(env, "HOOKLINE_SESSION_ID", "sess-1");
  CHECK_ENV(env, "CLAUDE_PROJECT_DIR", eu_ws);
  CHECK_ENV(env, "VT_HOOK_EVENT", "PreToolUse");
  CHECK_ENV(env, "HOOKLINE_PROJECT_DIR", eu_ws);
  CHECK(env_get(env, "PATH") != NULL, "inherited PATH missing");
  hl_engine_free(e);
  /* Without the options the inherited variables pass through. */
  e = eng1(HL_EVENT_PRE_TOOL_USE, fmt("env > '%s'", wpath("env")), NULL);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  env = read_file(wpath("env"));
  CHECK_ENV(env, "HL_TEST_INHERITED_KEEP", "kept");
  CHECK_ENV(env, "HL_TEST_INHERITED_DROP", "dropped");
  CHECK_ENV(env, "HOOKLINE_SESSION_ID", "sess-1");
  hl_engine_free(e);
  unsetenv("HL_TEST_INHERITED_KEEP");
  unsetenv("HL_TEST_INHERITED_DROP");
  unsetenv("HOOKLINE_SESSION_ID");
  test_end();
}

TEST(command_report_has_every_field) {
  ws_begin();
  const char *cmd = "echo out; echo err >&2; exit 3";
  hl_engine *e = eng1(HL_EVENT_POST_TOOL_USE, cmd, NULL);
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK_LEN(o, "hooks", 1);
  CHECK_STR(o, "hooks[0].kind", "command");
  CHECK_STR(o, "hooks[0].command", cmd);
  CHECK_NULL(o, "hooks[0].name");
  CHECK_NUM(o, "hooks[0].exit_code", 3);
  CHECK_BOOL(o, "hooks[0].timed_out", 0);
  CHECK(jnum(o, "hooks[0].duration_ms") >= 0 && jnum(o, "hooks[0].duration_ms") < 10000, "duration_ms: %s", jraw(o));
  CHECK_BOOL(o, "hooks[0].stdout_truncated", 0);
  CHECK_BOOL(o, "hooks[0].stderr_truncated", 0);
  CHECK_NULL(o, "hooks[0].skipped");
  CHECK(!jhas(o, "hooks[0].signal"), "signal present for a normal exit: %s", jraw(o));
  hl_engine_free(e);
  test_end();
}

TEST(hook_killed_by_signal_reports_signal_and_null_exit_code) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, "kill -9 $$", NULL);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_NULL(o, "hooks[0].exit_code");
  CHECK_NUM(o, "hooks[0].signal", 9);
  CHECK_BOOL(o, "hooks[0].timed_out", 0);
  CHECK(jmsg_count(o, "warning") >= 1, "a signal-killed PreToolUse hook gives no warning: %s", jraw(o));
  CHECK_STR(o, "decision", "continue");
  hl_engine_free(e);
  e = eng1(HL_EVENT_SESSION_END, "kill -TERM $$", NULL);
  o = run_ev(e, HL_EVENT_SESSION_END, SEND_INPUT);
  CHECK_NUM(o, "hooks[0].signal", 15);
  CHECK_NULL(o, "hooks[0].exit_code");
  CHECK(jmsg_count(o, "error") >= 1, "a signal-killed SessionEnd hook gives no error: %s", jraw(o));
  hl_engine_free(e);
  test_end();
}

TEST(output_beyond_max_output_bytes_is_truncated_and_flagged) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_POST_TOOL_USE,
                      "printf '0123456789abcdefghijKLMNOPQRST'; printf 'EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE' >&2",
                      "\"max_output_bytes\":16");
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK_BOOL(o, "hooks[0].stdout_truncated", 1);
  CHECK_BOOL(o, "hooks[0].stderr_truncated", 1);
  CHECK_NUM(o, "hooks[0].exit_code", 0);
  CHECK_MSG(o, "info", "0123456789abcdef");
  CHECK_NO_MSG(o, "info", "0123456789abcdefg");
  hl_engine_free(e);
  /* Exactly at the limit is not truncated. */
  e = eng1(HL_EVENT_POST_TOOL_USE, "printf '0123456789abcdef'", "\"max_output_bytes\":16");
  o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK_BOOL(o, "hooks[0].stdout_truncated", 0);
  hl_engine_free(e);
  test_end();
}

TEST(payload_never_appears_on_the_command_line) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, fmt("tr '\\0' ' ' < /proc/$$/cmdline > '%s'", wpath("cmdline")), NULL);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"SECRET-MARKER-123\"}}");
  char *cl = read_file(wpath("cmdline"));
  CHECK(cl && strstr(cl, "sh -c"), "hook not run through sh -c: %s", cl ? cl : "(none)");
  CHECK(cl && !strstr(cl, "SECRET-MARKER-123"), "payload on the command line: %s", cl ? cl : "");
  hl_engine_free(e);
  test_end();
}

TEST(hooks_run_in_their_own_process_group) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, fmt("cut -d' ' -f5 /proc/$$/stat > '%s'", wpath("pgid")),
                      NULL);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  char *t = read_file(wpath("pgid"));
  long pgid = t ? atol(t) : 0;
  CHECK(pgid > 0 && pgid != (long)getpgrp(), "hook pgid %ld, host pgid %ld", pgid, (long)getpgrp());
  hl_engine_free(e);
  test_end();
}

TEST(payload_is_readable_through_dev_stdin_and_read) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, fmt("cat /dev/stdin > '%s'", wpath("a.json")), NULL);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  jv *p = read_json(wpath("a.json"));
  CHECK_STR(p, "tool_name", "Bash");
  hl_engine_free(e);
  e = eng1(HL_EVENT_PRE_TOOL_USE, fmt("IFS= read -r line; printf '%%s' \"$line\" > '%s'", wpath("b.json")), NULL);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  p = read_json(wpath("b.json"));
  CHECK_STR(p, "tool_use_id", "call-1");
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(payload_has_session_cwd_event_transcript_and_tool_use_id);
  RUN(payload_is_compact_json_with_one_trailing_newline);
  RUN(payload_is_readable_through_dev_stdin_and_read);
  RUN(payload_cwd_and_hook_cwd_are_the_canonical_workspace);
  RUN(transcript_path_null_then_set_then_cleared);
  RUN(transcript_path_option_is_used);
  RUN(subagent_transcript_path_replaces_the_session_one);
  RUN(session_start_payload_source_is_the_trigger);
  RUN(every_event_payload_and_env_name_the_event);
  RUN(payload_event_fields_are_passed_through);
  RUN(env_has_engine_variables_and_aliases);
  RUN(env_option_adds_env_remove_removes_and_engine_variables_win);
  RUN(command_report_has_every_field);
  RUN(hook_killed_by_signal_reports_signal_and_null_exit_code);
  RUN(output_beyond_max_output_bytes_is_truncated_and_flagged);
  RUN(payload_never_appears_on_the_command_line);
  RUN(hooks_run_in_their_own_process_group);
  return DONE();
}
