/* The Claude Code profile through the C ABI, against the VT Code profile:
 * the same shell hooks written in both dialects, each profile's answer checked
 * (docs/profiles.md). */
#include "engine_util.h"

/* read_file's result is tracked (freed at test end). */

/* Claude-dialect config: one match-all group for `event_name` with the hook objects in `hooks_list`. */
static char *cc(const char *event_name, const char *hooks_list) { return cc_config(event_name, group(NULL, hooks_list)); }
static char *vt(hl_event ev, const char *hooks_list) { return vt_config(eu_keys[ev], group(NULL, hooks_list)); }

/* Run `ev` with its standard input on an engine with `hooks`. */
static jv *run_cfg(const char *hooks, hl_event ev) {
  hl_engine *e = eng(hooks);
  if (!e) return NULL;
  jv *o = run_ev(e, ev, eu_inputs[ev]);
  hl_engine_free(e);
  return o;
}

/* A command hook printing a PreToolUse decision. */
static char *decide(const char *d, const char *reason) {
  return say(fmt("{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"%s\","
                 "\"permissionDecisionReason\":\"%s\"}}",
                 d, reason));
}

#define EXIT2 "cat >/dev/null; echo 'stderr says' >&2; exit 2"

/* ------------------------------------------------------------ PreToolUse */

TEST(pre_tool_use_later_deny_wins_over_earlier_allow_in_claude_profile_only) {
  ws_begin();
  char *hooks = fmt("%s,%s", cc_hook(decide("allow", "fine"), 0), cc_hook(decide("deny", "guard says no"), 0));
  jv *o = run_cfg(cc("PreToolUse", hooks), HL_EVENT_PRE_TOOL_USE);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "guard says no");
  CHECK_LEN(o, "hooks", 2);
  char *vhooks = fmt("%s,%s", vt_hook(decide("allow", "fine"), 0), vt_hook(decide("deny", "guard says no"), 0));
  o = run_cfg(vt(HL_EVENT_PRE_TOOL_USE, vhooks), HL_EVENT_PRE_TOOL_USE);
  CHECK_STR(o, "decision", "allow");
  CHECK_LEN(o, "hooks", 1);
  test_end();
}

TEST(pre_tool_use_ask_beats_a_later_allow_in_claude_profile) {
  ws_begin();
  char *hooks = fmt("%s,%s", cc_hook(decide("ask", "confirm"), 0), cc_hook(decide("allow", "ok"), 0));
  jv *o = run_cfg(cc("PreToolUse", hooks), HL_EVENT_PRE_TOOL_USE);
  CHECK_STR(o, "decision", "ask");
  CHECK_STR(o, "reason", "confirm");
  char *vhooks = fmt("%s,%s", vt_hook(decide("ask", "confirm"), 0), vt_hook(decide("allow", "ok"), 0));
  o = run_cfg(vt(HL_EVENT_PRE_TOOL_USE, vhooks), HL_EVENT_PRE_TOOL_USE);
  CHECK_STR(o, "decision", "allow");
  test_end();
}

TEST(pre_tool_use_every_claude_hook_gets_the_original_tool_input) {
  ws_begin();
  char *rewrite = say("{\"hookSpecificOutput\":{\"updatedInput\":{\"command\":\"ls -la\"}}}");
  char *capture = fmt("cat > '%s'", wpath("seen.json"));
  jv *o = run_cfg(cc("PreToolUse", fmt("%s,%s", cc_hook(rewrite, 0), cc_hook(capture, 0))), HL_EVENT_PRE_TOOL_USE);
  CHECK_STR(o, "updated_input.command", "ls -la");
  jv *seen = read_json(wpath("seen.json"));
  CHECK_STR(seen, "tool_input.command", "ls");
  o = run_cfg(vt(HL_EVENT_PRE_TOOL_USE, fmt("%s,%s", vt_hook(rewrite, 0), vt_hook(capture, 0))), HL_EVENT_PRE_TOOL_USE);
  seen = read_json(wpath("seen.json"));
  CHECK_STR(seen, "tool_input.command", "ls -la");
  test_end();
}

TEST(pre_tool_use_claude_hooks_run_concurrently) {
  ws_begin();
  /* Each hook waits for the other two to have started: only a concurrent run lets all finish. */
  char *hooks = fmt("%s", "");
  for (int i = 1; i <= 3; i++) {
    char *body = fmt("cat >/dev/null; touch '%s/s%d'; n=0; while [ $n -lt 400 ]; do "
                     "[ -e '%s/s1' ] && [ -e '%s/s2' ] && [ -e '%s/s3' ] && exit 0; sleep 0.05; n=$((n+1)); done; exit 1",
                     eu_ws, i, eu_ws, eu_ws, eu_ws);
    hooks = fmt("%s%s%s", hooks, i > 1 ? "," : "", cc_hook(body, 0));
  }
  jv *o = run_cfg(cc("PreToolUse", hooks), HL_EVENT_PRE_TOOL_USE);
  CHECK_NUM(o, "hooks[0].exit_code", 0);
  CHECK_NUM(o, "hooks[1].exit_code", 0);
  CHECK_NUM(o, "hooks[2].exit_code", 0);
  test_end();
}

/* ------------------------------------------------ the exit-code table */

TEST(exit_2_table_row_by_row_in_both_profiles) {
  ws_begin();
  /* Claude Code profile. */
  jv *o = run_cfg(cc("PreToolUse", cc_hook(EXIT2, 0)), HL_EVENT_PRE_TOOL_USE);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "stderr says");
  CHECK_NULL(o, "hooks[0].failure");
  o = run_cfg(cc("UserPromptSubmit", cc_hook(EXIT2, 0)), HL_EVENT_USER_PROMPT_SUBMIT);
  CHECK_BOOL(o, "allow_prompt", 0);
  CHECK_STR(o, "block_reason", "stderr says");
  o = run_cfg(cc("Stop", cc_hook(EXIT2, 0)), HL_EVENT_STOP);
  CHECK_STR(o, "block_reason", "stderr says");
  o = run_cfg(cc("SubagentStop", cc_hook(EXIT2, 0)), HL_EVENT_SUBAGENT_STOP);
  CHECK_STR(o, "block_reason", "stderr says");
  o = run_cfg(cc("PreCompact", cc_hook(EXIT2, 0)), HL_EVENT_PRE_COMPACT);
  CHECK_STR(o, "block_reason", "stderr says");
  o = run_cfg(cc("PostToolUse", cc_hook(EXIT2, 0)), HL_EVENT_POST_TOOL_USE);
  CHECK_STR(o, "block_reason", "stderr says");
  o = run_cfg(cc("PostToolUseFailure", cc_hook(EXIT2, 0)), HL_EVENT_POST_TOOL_USE_FAILURE);
  CHECK_STR(o, "block_reason", "stderr says");
  const hl_event to_user[] = {HL_EVENT_SESSION_START, HL_EVENT_SESSION_END, HL_EVENT_SUBAGENT_START};
  for (int i = 0; i < 3; i++) {
    o = run_cfg(cc(hl_event_name(to_user[i]), cc_hook(EXIT2, 0)), to_user[i]);
    CHECK_MSG(o, "error", "stderr says");
  }
  o = run_cfg(cc("Notification", cc_hook(EXIT2, 0)), HL_EVENT_NOTIFICATION);
  CHECK_LEN(o, "messages", 0);
  o = run_cfg(cc("PermissionRequest", cc_hook(EXIT2, 0)), HL_EVENT_PERMISSION_REQUEST);
  CHECK_NULL(o, "decision");
  CHECK_LEN(o, "messages", 0);

  /* VT Code profile: only PreToolUse and UserPromptSubmit give exit 2 a meaning. */
  o = run_cfg(vt(HL_EVENT_PRE_TOOL_USE, vt_hook(EXIT2, 0)), HL_EVENT_PRE_TOOL_USE);
  CHECK_STR(o, "decision", "deny");
  o = run_cfg(vt(HL_EVENT_STOP, vt_hook(EXIT2, 0)), HL_EVENT_STOP);
  CHECK_NULL(o, "block_reason");
  CHECK_MSG(o, "warning", "stderr says");
  CHECK_STR(o, "hooks[0].failure", "exit");
  o = run_cfg(vt(HL_EVENT_SUBAGENT_STOP, vt_hook(EXIT2, 0)), HL_EVENT_SUBAGENT_STOP);
  CHECK(!jhas(o, "block_reason"), "VT Code SubagentStop has no block_reason: %s", jraw(o));
  o = run_cfg(vt(HL_EVENT_POST_TOOL_USE, vt_hook(EXIT2, 0)), HL_EVENT_POST_TOOL_USE);
  CHECK_NULL(o, "block_reason");
  o = run_cfg(vt(HL_EVENT_NOTIFICATION, vt_hook(EXIT2, 0)), HL_EVENT_NOTIFICATION);
  CHECK_MSG(o, "error", "stderr says");
  test_end();
}

TEST(session_start_context_only_on_exit_0_in_claude_profile) {
  ws_begin();
  char *failing = "echo 'ctx of a failing hook'; exit 1";
  jv *o = run_cfg(cc("SessionStart", fmt("%s,%s", cc_hook(failing, 0), cc_hook("echo 'ctx ok'", 0))),
                  HL_EVENT_SESSION_START);
  CHECK_LEN(o, "additional_context", 1);
  CHECK_STR(o, "additional_context[0]", "ctx ok");
  o = run_cfg(vt(HL_EVENT_SESSION_START, fmt("%s,%s", vt_hook(failing, 0), vt_hook("echo 'ctx ok'", 0))),
              HL_EVENT_SESSION_START);
  CHECK_LEN(o, "additional_context", 2);
  test_end();
}

TEST(failure_kinds_and_fail_closed) {
  ws_begin();
  char *hooks = fmt("%s,%s,%s", cc_hook("sleep 5", 1), cc_hook("kill -9 $$", 0), cc_hook("echo '{oops'", 0));
  jv *o = run_cfg(cc("PostToolUse", hooks), HL_EVENT_POST_TOOL_USE);
  CHECK_STR(o, "hooks[0].failure", "timeout");
  CHECK_STR(o, "hooks[1].failure", "signal");
  CHECK_STR(o, "hooks[2].failure", "invalid_output");
  /* Claude Code fails open on a PreToolUse timeout; failClosed denies. */
  o = run_cfg(cc("PreToolUse", cc_hook("sleep 5", 1)), HL_EVENT_PRE_TOOL_USE);
  CHECK_STR(o, "decision", "continue");
  o = run_cfg(cc("PreToolUse", "{\"command\":\"sleep 5\",\"timeout\":1,\"failClosed\":true}"), HL_EVENT_PRE_TOOL_USE);
  CHECK_STR(o, "decision", "deny");
  /* VT Code denies on a timeout. */
  o = run_cfg(vt(HL_EVENT_PRE_TOOL_USE, vt_hook("sleep 5", 1)), HL_EVENT_PRE_TOOL_USE);
  CHECK_STR(o, "decision", "deny");
  test_end();
}

/* -------------------------------------------------------- config fields */

TEST(identical_commands_run_once_and_if_filters_and_status_message_is_reported) {
  ws_begin();
  char *log = wpath("log");
  char *hook = cc_hook(fmt("cat >/dev/null; echo x >> '%s'", log), 0);
  char *cfg = fmt("{\"PostToolUse\":[%s,%s]}", group("Bash", hook), group(NULL, hook));
  jv *o = run_cfg(cfg, HL_EVENT_POST_TOOL_USE);
  CHECK_LEN(o, "hooks", 1);
  char *text = read_file(log);
  CHECK(text && strcmp(text, "x\n") == 0, "the identical command ran %s", text ? text : "never");
  char *guarded = fmt("{\"command\":%s,\"if\":\"Bash(git *)\",\"statusMessage\":\"Checking git\"}",
                      jstr(fmt("cat >/dev/null; echo g >> '%s'", wpath("glog"))));
  hl_engine *e = eng(cc("PreToolUse", guarded));
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT); /* command "ls": filtered out */
  CHECK_LEN(o, "hooks", 0);
  CHECK(!file_exists(wpath("glog")), "the hook ran although its `if` did not match");
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git status\"}}");
  CHECK_STR(o, "hooks[0].status_message", "Checking git");
  CHECK(file_exists(wpath("glog")), "the hook did not run for a matching tool call");
  hl_engine_free(e);
  test_end();
}

TEST(claude_inputs_are_lenient_vt_code_inputs_strict) {
  ws_begin();
  hl_engine *e = eng(cc("SessionEnd", cc_hook("true", 0)));
  CHECK_STATUS(run_status(e, HL_EVENT_SESSION_END, "{\"reason\":\"logout\"}", NULL), HL_OK);
  CHECK_STATUS(run_status(e, HL_EVENT_STOP, "{}", NULL), HL_OK);
  CHECK_STATUS(run_status(e, HL_EVENT_PRE_TOOL_USE, "{}", NULL), HL_ERR_INVALID_ARGUMENT);
  hl_engine_free(e);
  e = eng(vt(HL_EVENT_SESSION_END, vt_hook("true", 0)));
  CHECK_STATUS(run_status(e, HL_EVENT_SESSION_END, "{\"turn_id\":\"t\",\"reason\":\"logout\"}", NULL),
               HL_ERR_INVALID_ARGUMENT);
  hl_engine_free(e);
  e = eng_new(opts(NULL, "\"trigger\":\"clear\""));
  CHECK(e != NULL, "trigger clear rejected");
  hl_engine_free(e);
  test_end();
}

/* ------------------------------------------------------- named events */

TEST(run_named_fires_unknown_event_keys_with_observer_rules) {
  ws_begin();
  char *cfg = fmt("{\"PostCompact\":[%s,%s]}", group("auto", cc_hook("cat >/dev/null; echo 'compacted'", 0)),
                  group("manual", cc_hook("cat >/dev/null; echo 'manual only'; exit 2", 0)));
  hl_engine *e = eng(cfg);
  char *out = NULL, *err = NULL;
  CHECK_STATUS(hl_engine_run_named(e, "PostCompact", "{\"matcher_value\":\"auto\"}", &out, &err), HL_OK);
  jv *o = track_jv(jv_parse(out));
  CHECK_LEN(o, "hooks", 1);
  CHECK_MSG(o, "info", "compacted");
  hl_string_free(out);
  /* A known event by name keeps its rules. */
  CHECK_STATUS(hl_engine_run_named(e, "Stop", "{}", &out, &err), HL_OK);
  o = track_jv(jv_parse(out));
  CHECK(jhas(o, "block_reason"), "Stop fired by name lacks block_reason: %s", jraw(o));
  hl_string_free(out);
  CHECK_STATUS(hl_engine_run_named(e, "", "{}", &out, &err), HL_ERR_INVALID_ARGUMENT);
  hl_string_free(err);
  err = NULL;
  CHECK_STATUS(hl_engine_run_named(e, NULL, "{}", &out, &err), HL_ERR_NULL_ARGUMENT);
  hl_string_free(err);
  hl_engine_free(e);
  test_end();
}

/* A misspelt name runs nothing and says so: the outcome's first message is
 * a warning listing the configured events, with the closest known name. A
 * configured name, a canonical one and an agent's own (Codex's PostCompact)
 * never warn. */
TEST(run_named_warns_on_a_name_no_config_names_with_did_you_mean) {
  ws_begin();
  char *cfg = fmt("{\"PreToolUse\":[%s],\"TeammateIdle\":[%s]}",
                  group("Bash", cc_hook(fmt("cat >/dev/null; touch '%s'", wpath("ran")), 0)),
                  group(NULL, cc_hook("cat >/dev/null; echo idle", 0)));
  hl_engine *e = eng(cfg);
  char *out = NULL, *err = NULL;
  CHECK_STATUS(hl_engine_run_named(e, "PreToolUze", "{\"tool_name\":\"Bash\"}", &out, &err), HL_OK);
  jv *o = track_jv(jv_parse(out));
  CHECK_LEN(o, "hooks", 0);
  CHECK_LEN(o, "messages", 1);
  CHECK_STR(o, "messages[0].level", "warning");
  CHECK_STR(o, "messages[0].text",
            "no hooks config names the event `PreToolUze`, so no hook ran (the configured events are "
            "PreToolUse, TeammateIdle); did you mean `PreToolUse`?");
  CHECK(!file_exists(wpath("ran")), "a hook ran for a misspelt event name");
  hl_string_free(out);
  const char *known[] = {"TeammateIdle", "PreToolUse", "PostCompact", "Notification"};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    CHECK_STATUS(hl_engine_run_named(e, known[i], "{\"tool_name\":\"Read\"}", &out, &err), HL_OK);
    o = track_jv(jv_parse(out));
    CHECK_NO_MSG(o, "warning", "no hooks config names");
    hl_string_free(out);
  }
  /* The known-event entry point never carries it. */
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\"}");
  CHECK_LEN(o, "messages", 0);
  CHECK(file_exists(wpath("ran")), "the PreToolUse hook did not run");
  hl_engine_free(e);
  test_end();
}

typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;
  hl_status status;
  char *outcome;
} waiter;

static void on_done(void *ud, hl_status st, const char *outcome, const char *errmsg) {
  waiter *w = ud;
  pthread_mutex_lock(&w->mu);
  w->status = st;
  w->outcome = outcome ? strdup(outcome) : NULL;
  w->done = 1;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

TEST(run_named_async_calls_done_once_with_the_outcome) {
  ws_begin();
  hl_engine *e = eng(cc("TeammateIdle", cc_hook("cat >/dev/null; echo idle", 0)));
  waiter w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, HL_OK, NULL};
  uint64_t id = 0;
  CHECK_STATUS(hl_engine_run_named_async(e, "TeammateIdle", "{}", on_done, &w, &id, NULL), HL_OK);
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 30;
  pthread_mutex_lock(&w.mu);
  while (!w.done && pthread_cond_timedwait(&w.cv, &w.mu, &deadline) == 0) {
  }
  pthread_mutex_unlock(&w.mu);
  CHECK(w.done, "done was not called within 30 s");
  CHECK_STATUS(w.status, HL_OK);
  jv *o = track_jv(jv_parse(w.outcome ? w.outcome : "null"));
  CHECK_MSG(o, "info", "idle");
  free(w.outcome);
  hl_engine_free(e);
  test_end();
}

/* ---------------------------------------------- CLAUDE_ENV_FILE, sources */

TEST(session_start_env_file_lines_become_env) {
  ws_begin();
  char *hook = cc_hook("echo 'export A=1' >> \"$CLAUDE_ENV_FILE\"; echo 'B=\"two words\"' >> \"$CLAUDE_ENV_FILE\"", 0);
  jv *o = run_cfg(cc("SessionStart", hook), HL_EVENT_SESSION_START);
  CHECK_STR(o, "env.A", "1");
  CHECK_STR(o, "env.B", "two words");
  test_end();
}

TEST(hook_sources_gate_only_untrusted_sources_and_set_plugin_root) {
  ws_begin();
  char *user = cc("Stop", cc_hook(fmt("cat >/dev/null; touch '%s'", wpath("user_ran")), 0));
  char *plugin = cc("Stop", cc_hook(fmt("cat >/dev/null; printf %%s \"$CLAUDE_PLUGIN_ROOT\" > '%s'", wpath("root")), 0));
  char *extra = fmt("\"workspace_gated\":true,\"trust_store\":%s,\"hook_sources\":[{\"hooks\":%s,\"trusted\":true},"
                    "{\"hooks\":%s,\"plugin_root\":\"/plugins/fmt\"}]",
                    jstr(wpath("trust.json")), user, plugin);
  hl_engine *e = eng_new(opts(NULL, extra));
  CHECK(hl_engine_workspace_hooks_need_approval(e), "the untrusted plugin source needs approval");
  jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK(file_exists(wpath("user_ran")), "the trusted source's hook did not run");
  CHECK_STR(o, "hooks[1].skipped", "not_approved");
  char *previews = NULL;
  CHECK_STATUS(hl_engine_command_previews(e, &previews, NULL), HL_OK);
  CHECK(previews && !strstr(previews, "user_ran") && strstr(previews, "CLAUDE_PLUGIN_ROOT"),
        "previews must list only the untrusted command: %s", previews ? previews : "(null)");
  hl_string_free(previews);
  CHECK_STATUS(hl_engine_approve_workspace_hooks(e, false, NULL), HL_OK);
  run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  char *root = read_file(wpath("root"));
  CHECK(root && strcmp(root, "/plugins/fmt") == 0, "CLAUDE_PLUGIN_ROOT was %s", root ? root : "(unset)");
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(pre_tool_use_later_deny_wins_over_earlier_allow_in_claude_profile_only);
  RUN(pre_tool_use_ask_beats_a_later_allow_in_claude_profile);
  RUN(pre_tool_use_every_claude_hook_gets_the_original_tool_input);
  RUN(pre_tool_use_claude_hooks_run_concurrently);
  RUN(exit_2_table_row_by_row_in_both_profiles);
  RUN(session_start_context_only_on_exit_0_in_claude_profile);
  RUN(failure_kinds_and_fail_closed);
  RUN(identical_commands_run_once_and_if_filters_and_status_message_is_reported);
  RUN(claude_inputs_are_lenient_vt_code_inputs_strict);
  RUN(run_named_fires_unknown_event_keys_with_observer_rules);
  RUN(run_named_async_calls_done_once_with_the_outcome);
  RUN(run_named_warns_on_a_name_no_config_names_with_did_you_mean);
  RUN(session_start_env_file_lines_become_env);
  RUN(hook_sources_gate_only_untrusted_sources_and_set_plugin_root);
  return DONE();
}
