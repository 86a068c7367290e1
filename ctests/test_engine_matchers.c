/* Engine conformance: matcher dialects, hook order and callback hooks (docs/protocol.md §8, §9). */
#include "engine_util.h"

/* Number of hooks that ran for `ev` with `input` on an engine built from `hooks`. */
static long ran(const char *hooks, const char *extra, hl_event ev, const char *input) {
  hl_engine *e = eng_new(opts(hooks, extra));
  if (!e) return -1;
  jv *o = run_ev(e, ev, input);
  long n = jlen(o, "hooks");
  hl_engine_free(e);
  return n;
}

static char *ptu(const char *tool) { return fmt("{\"tool_name\":%s,\"tool_input\":{}}", jstr(tool)); }

/* VT config: one pre_tool_use group with matcher (NULL = absent) running `true`. */
static char *vt_m(const char *key, const char *matcher) { return vt_config(key, group(matcher, vt_hook("true", 0))); }
static char *cc_m(const char *name, const char *matcher) { return cc_config(name, group(matcher, cc_hook("true", 0))); }

#define CHECK_RUNS(hooks, ev, input, want)                                                              \
  do {                                                                                                 \
    long n_ = ran((hooks), NULL, (ev), (input));                                                       \
    CHECK(n_ == (want), "%ld hooks ran, want %d (config %s, input %s)", n_, (int)(want), (hooks), (input)); \
  } while (0)

TEST(vt_matcher_is_anchored_edit_does_not_match_notebook_edit) {
  ws_begin();
  char *h = vt_m("pre_tool_use", "Edit");
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Edit"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("NotebookEdit"), 0);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Edits"), 0);
  test_end();
}

TEST(vt_matcher_alternation_is_an_anchored_regex) {
  ws_begin();
  char *h = vt_m("pre_tool_use", "Bash|Edit");
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Bash"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Edit"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Read"), 0);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("BashEdit"), 0);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("NotebookEdit"), 0);
  test_end();
}

TEST(vt_matcher_mcp_regex) {
  ws_begin();
  char *h = vt_m("pre_tool_use", "mcp__.*");
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("mcp__fs__read"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("xmcp__fs"), 0);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Bash"), 0);
  test_end();
}

TEST(vt_matcher_is_trimmed) {
  ws_begin();
  CHECK_RUNS(vt_m("pre_tool_use", "  Bash  "), HL_EVENT_PRE_TOOL_USE, ptu("Bash"), 1);
  CHECK_RUNS(vt_m("pre_tool_use", " * "), HL_EVENT_PRE_TOOL_USE, ptu("Anything"), 1);
  test_end();
}

TEST(claude_matcher_exact_name_edit_does_not_match_notebook_edit) {
  ws_begin();
  char *h = cc_m("PreToolUse", "Edit");
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Edit"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("NotebookEdit"), 0);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Edits"), 0);
  test_end();
}

TEST(claude_matcher_pipe_and_comma_lists_are_exact_names) {
  ws_begin();
  char *h = cc_m("PreToolUse", "Bash|Edit");
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Bash"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Edit"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Read"), 0);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("NotebookEdit"), 0);
  h = cc_m("PreToolUse", " Bash , Edit ");
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Bash"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Edit"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Write"), 0);
  test_end();
}

TEST(claude_matcher_with_regex_characters_is_unanchored_regex) {
  ws_begin();
  char *h = cc_m("PreToolUse", "mcp__.*");
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("mcp__fs__read"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("xmcp__y"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Bash"), 0);
  h = cc_m("PreToolUse", "^Write$");
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Write"), 1);
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("WriteFile"), 0);
  test_end();
}

TEST(star_empty_and_absent_matchers_match_all_in_both_dialects) {
  ws_begin();
  const char *ms[] = {"*", "", NULL};
  for (int i = 0; i < 3; i++) {
    CHECK_RUNS(vt_m("pre_tool_use", ms[i]), HL_EVENT_PRE_TOOL_USE, ptu("Whatever"), 1);
    CHECK_RUNS(cc_m("PreToolUse", ms[i]), HL_EVENT_PRE_TOOL_USE, ptu("Whatever"), 1);
    CHECK_RUNS(vt_m("post_tool_use", ms[i]), HL_EVENT_POST_TOOL_USE, POST_INPUT, 1);
    CHECK_RUNS(cc_m("Notification", ms[i]), HL_EVENT_NOTIFICATION, NOTIF_INPUT, 1);
  }
  test_end();
}

TEST(matching_is_case_sensitive_in_both_dialects) {
  ws_begin();
  CHECK_RUNS(vt_m("pre_tool_use", "bash"), HL_EVENT_PRE_TOOL_USE, ptu("Bash"), 0);
  CHECK_RUNS(cc_m("PreToolUse", "bash"), HL_EVENT_PRE_TOOL_USE, ptu("Bash"), 0);
  CHECK_RUNS(cc_m("PreToolUse", "ba.h"), HL_EVENT_PRE_TOOL_USE, ptu("BASH"), 0);
  CHECK_RUNS(cc_m("PreToolUse", "Bash"), HL_EVENT_PRE_TOOL_USE, ptu("Bash"), 1);
  test_end();
}

TEST(claude_user_prompt_submit_and_stop_ignore_matchers) {
  ws_begin();
  CHECK_RUNS(cc_m("UserPromptSubmit", "nomatch"), HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT, 1);
  CHECK_RUNS(cc_m("Stop", "nomatch"), HL_EVENT_STOP, STOP_INPUT, 1);
  test_end();
}

TEST(vt_user_prompt_submit_matches_prompt_and_stop_matches_literal_stop) {
  ws_begin();
  char *h = vt_m("user_prompt_submit", "deploy.*");
  CHECK_RUNS(h, HL_EVENT_USER_PROMPT_SUBMIT, "{\"turn_id\":\"t\",\"prompt\":\"deploy now\"}", 1);
  CHECK_RUNS(h, HL_EVENT_USER_PROMPT_SUBMIT, "{\"turn_id\":\"t\",\"prompt\":\"please deploy\"}", 0);
  CHECK_RUNS(vt_m("stop", "stop"), HL_EVENT_STOP, STOP_INPUT, 1);
  CHECK_RUNS(vt_m("stop", "other"), HL_EVENT_STOP, STOP_INPUT, 0);
  test_end();
}

TEST(session_start_matches_the_trigger) {
  ws_begin();
  char *vt = vt_m("session_start", "resume");
  char *cc = cc_m("SessionStart", "resume");
  CHECK(ran(vt, NULL, HL_EVENT_SESSION_START, "{}") == 0, "VT resume matcher ran on startup");
  CHECK(ran(vt, "\"trigger\":\"resume\"", HL_EVENT_SESSION_START, "{}") == 1, "VT resume matcher did not run on resume");
  CHECK(ran(cc, NULL, HL_EVENT_SESSION_START, "{}") == 0, "Claude resume matcher ran on startup");
  CHECK(ran(cc, "\"trigger\":\"resume\"", HL_EVENT_SESSION_START, "{}") == 1, "Claude resume matcher did not run");
  CHECK(ran(cc_m("SessionStart", "startup"), NULL, HL_EVENT_SESSION_START, "{}") == 1, "default trigger is not startup");
  CHECK(ran(vt_m("session_start", "compact"), "\"trigger\":\"compact\"", HL_EVENT_SESSION_START, "{}") == 1,
        "compact trigger did not match");
  CHECK(ran(vt_m("session_start", "new_session"), "\"trigger\":\"new_session\"", HL_EVENT_SESSION_START, "{}") == 1,
        "new_session trigger did not match");
  test_end();
}

/* Claude Code's SubagentStart/SubagentStop matchers test `agent_type` ("the agent name that the
   matcher filters on"), VT Code's `agent_name`; the standard input carries both. */
TEST(other_events_match_their_documented_field) {
  ws_begin();
  struct { hl_event ev; const char *cc_name; const char *key; const char *hit; const char *miss; } cases[] = {
      {HL_EVENT_SESSION_END, "SessionEnd", "session_end", "completed", "error"},
      {HL_EVENT_SUBAGENT_START, "SubagentStart", "subagent_start", "explorer", "planner"},
      {HL_EVENT_SUBAGENT_STOP, "SubagentStop", "subagent_stop", "explorer", "planner"},
      {HL_EVENT_POST_TOOL_USE, "PostToolUse", "post_tool_use", "Bash", "Edit"},
      {HL_EVENT_PERMISSION_REQUEST, "PermissionRequest", "permission_request", "Bash", "Edit"},
      {HL_EVENT_PRE_COMPACT, "PreCompact", "pre_compact", "auto", "manual"},
      {HL_EVENT_NOTIFICATION, "Notification", "notification", "idle_prompt", "permission_prompt"},
      {HL_EVENT_POST_TOOL_USE_FAILURE, "PostToolUseFailure", "post_tool_use_failure", "Bash", "Edit"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *in = eu_inputs[cases[i].ev];
    long a = ran(cc_m(cases[i].cc_name, cases[i].hit), NULL, cases[i].ev, in);
    long b = ran(cc_m(cases[i].cc_name, cases[i].miss), NULL, cases[i].ev, in);
    long c = ran(vt_m(cases[i].key, cases[i].hit), NULL, cases[i].ev, in);
    long d = ran(vt_m(cases[i].key, cases[i].miss), NULL, cases[i].ev, in);
    CHECK(a == 1 && b == 0 && c == 1 && d == 0, "%s matcher target: cc hit %ld miss %ld, vt hit %ld miss %ld",
          cases[i].cc_name, a, b, c, d);
  }
  test_end();
}

TEST(hooks_of_every_matching_group_run_in_configuration_order) {
  ws_begin();
  char *log = wpath("order.log");
  char *h = vt_config("pre_tool_use",
                      fmt("%s,%s,%s", group("Bash", fmt("%s,%s", vt_hook(fmt("echo g1a >> '%s'", log), 0),
                                                       vt_hook(fmt("echo g1b >> '%s'", log), 0))),
                          group("Edit", vt_hook(fmt("echo skip >> '%s'", log), 0)),
                          group("*", vt_hook(fmt("echo g3 >> '%s'", log), 0))));
  CHECK_RUNS(h, HL_EVENT_PRE_TOOL_USE, ptu("Bash"), 3);
  char *got = read_file(log);
  CHECK(got && !strcmp(got, "g1a\ng1b\ng3\n"), "order log: %s", got ? got : "(none)");
  test_end();
}

/* ------------------------------------------------- config sources via the engine */

static jv *run_with_options(const char *options, hl_event ev, const char *input) {
  hl_engine *e = eng_new(options);
  if (!e) return NULL;
  jv *o = run_ev(e, ev, input);
  hl_engine_free(e);
  return o;
}

TEST(every_config_source_and_dialect_runs_its_hooks) {
  ws_begin();
  const char *toml_nested = "[[hooks.lifecycle.pre_tool_use]]\nmatcher = \"Bash\"\n"
                            "[[hooks.lifecycle.pre_tool_use.hooks]]\ntype = \"command\"\ncommand = \"echo from-toml-nested\"\n";
  const char *toml_direct = "[[lifecycle.pre_tool_use]]\nmatcher = \"Bash\"\n"
                            "[[lifecycle.pre_tool_use.hooks]]\ncommand = \"echo from-toml-direct\"\ntimeout_seconds = 5\n";
  jv *o = run_with_options(opts(NULL, fmt("\"hooks_toml\":%s", jstr(toml_nested))), HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_MSG(o, "info", "from-toml-nested");
  o = run_with_options(opts(NULL, fmt("\"hooks_toml\":%s", jstr(toml_direct))), HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_MSG(o, "info", "from-toml-direct");
  o = run_with_options(opts("{\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"matcher\":\"Bash\",\"hooks\":[{\"command\":"
                            "\"echo from-vtcode-json\"}]}]}}}",
                            NULL),
                       HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_MSG(o, "info", "from-vtcode-json");
  o = run_with_options(opts("{\"permissions\":{\"allow\":[]},\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":"
                            "[{\"type\":\"command\",\"command\":\"echo from-settings-json\"}]}]}}",
                            NULL),
                       HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_MSG(o, "info", "from-settings-json");
  write_file(wpath("vtcode.toml"), toml_nested);
  o = run_with_options(opts(NULL, fmt("\"hooks_file\":%s", jstr(wpath("vtcode.toml")))), HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_MSG(o, "info", "from-toml-nested");
  write_file(wpath("settings.json"), "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\","
                                     "\"command\":\"echo from-settings-file\"}]}]}}");
  o = run_with_options(opts(NULL, fmt("\"hooks_file\":%s", jstr(wpath("settings.json")))), HL_EVENT_PRE_TOOL_USE,
                       PTU_INPUT);
  CHECK_MSG(o, "info", "from-settings-file");
  write_file(wpath("vt.json"), "{\"lifecycle\":{\"pre_tool_use\":[{\"hooks\":[{\"command\":\"echo from-vt-file\"}]}]}}");
  o = run_with_options(opts(NULL, fmt("\"hooks_file\":%s", jstr(wpath("vt.json")))), HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_MSG(o, "info", "from-vt-file");
  /* No hooks source: a cheap no-op run. */
  o = run_with_options(opts(NULL, NULL), HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_LEN(o, "hooks", 0);
  CHECK_STR(o, "decision", "continue");
  test_end();
}

TEST(task_completion_aliases_run_after_stop_hooks_in_that_order) {
  ws_begin();
  char *log = wpath("stop.log");
  char *h = fmt("{\"lifecycle\":{\"task_completed\":[%s],\"stop\":[%s],\"task_completion\":[%s]}}",
                group(NULL, vt_hook(fmt("echo task_completed >> '%s'", log), 0)),
                group(NULL, vt_hook(fmt("echo stop >> '%s'", log), 0)),
                group(NULL, vt_hook(fmt("echo task_completion >> '%s'", log), 0)));
  CHECK_RUNS(h, HL_EVENT_STOP, STOP_INPUT, 3);
  char *got = read_file(log);
  CHECK(got && !strcmp(got, "stop\ntask_completion\ntask_completed\n"), "Stop order: %s", got ? got : "(none)");
  test_end();
}

/* ----------------------------------------------------------- callbacks */

enum { CB_NONE, CB_JSON, CB_DENY, CB_ALLOW, CB_FAIL, CB_DENY_FAIL, CB_DENY_THEN_EMPTY_JSON, CB_JSON_THEN_ALLOW };

typedef struct {
  const char *tag;
  int mode;
  const char *arg; /* JSON or deny message */
  const char *log; /* file to append the tag to */
  int calls;
  int freed;
  char *ctx;
  size_t ctx_len;
} cbd;

static int32_t cb_fn(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  cbd *d = ud;
  d->calls++;
  free(d->ctx);
  d->ctx = strdup(ctx);
  d->ctx_len = len;
  if (d->log) {
    FILE *f = fopen(d->log, "a");
    if (f) { fprintf(f, "%s\n", d->tag); fclose(f); }
  }
  switch (d->mode) {
    case CB_JSON: hl_reply_set_json(reply, d->arg, NULL); return 0;
    case CB_DENY: hl_reply_deny(reply, d->arg); return 0;
    case CB_ALLOW: hl_reply_allow(reply); return 0;
    case CB_FAIL: return 1;
    case CB_DENY_FAIL: hl_reply_deny(reply, d->arg); return 7;
    case CB_DENY_THEN_EMPTY_JSON: hl_reply_deny(reply, "first"); hl_reply_set_json(reply, "{}", NULL); return 0;
    case CB_JSON_THEN_ALLOW:
      hl_reply_set_json(reply, "{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\"}}", NULL);
      hl_reply_allow(reply);
      return 0;
    default: return 0;
  }
}
static void cb_free(void *ud) { ((cbd *)ud)->freed++; }
static void cbd_clear(cbd *d) { free(d->ctx); d->ctx = NULL; }

static hl_status add_cb(hl_engine *e, hl_event ev, const char *matcher, const char *name, cbd *d) {
  char *err = NULL;
  hl_status st = hl_engine_add_callback_hook(e, ev, matcher, name, cb_fn, d, cb_free, &err);
  if (st == HL_OK) CHECK(err == NULL, "errmsg set on success");
  else CHECK(err != NULL, "no errmsg on failure");
  hl_string_free(err);
  return st;
}

TEST(configured_hooks_run_before_callback_hooks_in_order_added) {
  ws_begin();
  char *log = wpath("order.log");
  const char *cmds[] = {fmt("echo cmd1 >> '%s'", log), fmt("echo cmd2 >> '%s'", log), NULL};
  hl_engine *e = eng(vt_cmds("pre_tool_use", 0, cmds));
  cbd a = {.tag = "cbA", .log = log}, b = {.tag = "cbB", .log = log};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "zeta", &a), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, "*", "alpha", &b), HL_OK);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  char *got = read_file(log);
  CHECK(got && !strcmp(got, "cmd1\ncmd2\ncbA\ncbB\n"), "order: %s", got ? got : "(none)");
  CHECK_LEN(o, "hooks", 4);
  CHECK_STR(o, "hooks[0].kind", "command");
  CHECK_STR(o, "hooks[1].kind", "command");
  CHECK_STR(o, "hooks[2].kind", "callback");
  CHECK_STR(o, "hooks[2].name", "zeta");
  CHECK_NULL(o, "hooks[2].command");
  CHECK_STR(o, "hooks[3].name", "alpha");
  /* The same order in the report of a concurrent event. */
  hl_engine_free(e);
  e = eng(vt_cmds("post_tool_use", 0, cmds));
  CHECK_STATUS(add_cb(e, HL_EVENT_POST_TOOL_USE, NULL, "zeta", &a), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_POST_TOOL_USE, NULL, "alpha", &b), HL_OK);
  o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK_STR(o, "hooks[0].kind", "command");
  CHECK_STR(o, "hooks[1].kind", "command");
  CHECK_STR(o, "hooks[2].name", "zeta");
  CHECK_STR(o, "hooks[3].name", "alpha");
  hl_engine_free(e);
  /* Each user_data was registered on two engines: freed once per engine. */
  CHECK(a.freed == 2 && b.freed == 2, "free_user_data: a %d b %d", a.freed, b.freed);
  cbd_clear(&a);
  cbd_clear(&b);
  test_end();
}

TEST(callback_hook_receives_the_same_payload_as_a_command) {
  ws_begin();
  char *stdin_file = wpath("stdin.json");
  hl_engine *e = eng(vt_cmds("pre_tool_use", 0, (const char *[]){fmt("cat > '%s'", stdin_file), NULL}));
  cbd a = {.tag = "a"};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "a", &a), HL_OK);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK(a.calls == 1, "callback called %d times", a.calls);
  CHECK(a.ctx && a.ctx_len == strlen(a.ctx), "context_len %zu != strlen", a.ctx_len);
  jv *c = track_jv(jv_parse(a.ctx));
  CHECK_STR(c, "hook_event_name", "PreToolUse");
  CHECK_STR(c, "session_id", "sess-1");
  CHECK_STR(c, "cwd", eu_ws);
  CHECK_STR(c, "tool_name", "Bash");
  CHECK_STR(c, "tool_use_id", "call-1");
  CHECK_STR(c, "tool_input.command", "ls");
  char *cmd_payload = read_file(stdin_file);
  size_t n = cmd_payload ? strlen(cmd_payload) : 0;
  CHECK(cmd_payload && n > 0 && cmd_payload[n - 1] == '\n' && a.ctx && strlen(a.ctx) == n - 1 &&
            !strncmp(cmd_payload, a.ctx, n - 1),
        "callback context differs from command stdin:\n  cmd: %s\n  cb:  %s", cmd_payload ? cmd_payload : "",
        a.ctx ? a.ctx : "");
  hl_engine_free(e);
  cbd_clear(&a);
  test_end();
}

TEST(callback_hook_sees_updated_input_and_can_rewrite_it) {
  ws_begin();
  hl_engine *e = eng(vt_cmds("pre_tool_use", 0, (const char *[]){say("{\"hookSpecificOutput\":{\"updatedInput\":{\"command\":\"from-command\"}}}"), NULL}));
  cbd a = {.mode = CB_JSON, .arg = "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"updatedInput\":{\"command\":\"from-callback\"}}}"};
  cbd b = {.tag = "b"};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "rewrite", &a), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "observe", &b), HL_OK);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  jv *ca = track_jv(jv_parse(a.ctx ? a.ctx : ""));
  jv *cb = track_jv(jv_parse(b.ctx ? b.ctx : ""));
  CHECK_STR(ca, "tool_input.command", "from-command");
  CHECK_STR(cb, "tool_input.command", "from-callback");
  CHECK_STR(o, "updated_input.command", "from-callback");
  hl_engine_free(e);
  cbd_clear(&a);
  cbd_clear(&b);
  test_end();
}

TEST(callback_hook_set_json_reply_is_read_like_stdout) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cbd a = {.mode = CB_JSON,
           .arg = "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                  "\"permissionDecisionReason\":\"cb says no\"},\"systemMessage\":\"from cb\"}"};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, "Bash", "policy", &a), HL_OK);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "cb says no");
  CHECK_MSG(o, "info", "from cb");
  CHECK_STR(o, "hooks[0].kind", "callback");
  CHECK_STR(o, "hooks[0].name", "policy");
  CHECK_NUM(o, "hooks[0].exit_code", 0);
  CHECK_BOOL(o, "hooks[0].timed_out", 0);
  hl_engine_free(e);
  cbd_clear(&a);
  test_end();
}

TEST(callback_hook_deny_is_exit_2_with_stderr) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cbd a = {.mode = CB_DENY, .arg = "  callback denied  "}, b = {.tag = "b"};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "guard", &a), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "after", &b), HL_OK);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "callback denied");
  CHECK_NUM(o, "hooks[0].exit_code", 2);
  CHECK_STR(o, "hooks[0].kind", "callback");
  CHECK_STR(o, "hooks[0].name", "guard");
  CHECK_LEN(o, "hooks", 1);
  CHECK(b.calls == 0, "callback after a deny was called");
  hl_engine_free(e);
  cbd_clear(&a);
  cbd_clear(&b);
  test_end();
}

TEST(callback_hook_deny_is_exit_2_whatever_it_returns) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cbd a = {.mode = CB_DENY_FAIL, .arg = "denied and failed"};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "guard", &a), HL_OK);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "deny");
  CHECK_NUM(o, "hooks[0].exit_code", 2);
  hl_engine_free(e);
  cbd_clear(&a);
  test_end();
}

TEST(callback_hook_allow_allows_pre_tool_use_and_means_nothing_elsewhere) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cbd a = {.mode = CB_ALLOW}, b = {.mode = CB_ALLOW}, c = {.tag = "c"};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "ok", &a), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "later", &c), HL_OK);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "allow");
  CHECK(c.calls == 0, "callback after an allow was called");
  CHECK_STATUS(add_cb(e, HL_EVENT_USER_PROMPT_SUBMIT, NULL, "ok", &b), HL_OK);
  o = run_ev(e, HL_EVENT_USER_PROMPT_SUBMIT, UPS_INPUT);
  CHECK_BOOL(o, "allow_prompt", 1);
  CHECK_LEN(o, "messages", 0);
  CHECK_LEN(o, "additional_context", 0);
  CHECK_NUM(o, "hooks[0].exit_code", 0);
  hl_engine_free(e);
  cbd_clear(&a);
  cbd_clear(&b);
  cbd_clear(&c);
  test_end();
}

TEST(callback_hook_nonzero_return_is_exit_1_warning) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cbd a = {.mode = CB_FAIL}, b = {.tag = "b"};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "flaky", &a), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "next", &b), HL_OK);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_NUM(o, "hooks[0].exit_code", 1);
  CHECK_MSG(o, "warning", "flaky");
  CHECK_STR(o, "decision", "continue");
  CHECK(b.calls == 1, "the next callback did not run after a failure");
  hl_engine_free(e);
  cbd_clear(&a);
  cbd_clear(&b);
  test_end();
}

TEST(callback_hook_last_reply_call_wins) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cbd a = {.mode = CB_DENY_THEN_EMPTY_JSON};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "a", &a), HL_OK);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "continue");
  CHECK_NUM(o, "hooks[0].exit_code", 0);
  hl_engine_free(e);
  e = eng(NULL);
  cbd b = {.mode = CB_JSON_THEN_ALLOW};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "b", &b), HL_OK);
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "allow");
  hl_engine_free(e);
  cbd_clear(&a);
  cbd_clear(&b);
  test_end();
}

TEST(callback_hook_replace_in_place_frees_old_user_data_once) {
  ws_begin();
  char *log = wpath("order.log");
  hl_engine *e = eng(NULL);
  cbd a = {.tag = "a", .log = log}, b = {.tag = "b", .log = log}, a2 = {.tag = "a2", .log = log};
  CHECK_STATUS(add_cb(e, HL_EVENT_POST_TOOL_USE, NULL, "first", &a), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_POST_TOOL_USE, NULL, "second", &b), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_POST_TOOL_USE, NULL, "first", &a2), HL_OK);
  CHECK(a.freed == 1, "replaced user_data freed %d times", a.freed);
  CHECK(a2.freed == 0 && b.freed == 0, "live user_data freed early");
  /* The same name on another event is a different hook. */
  cbd other = {.tag = "other", .log = log};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "first", &other), HL_OK);
  CHECK(a2.freed == 0, "a hook on another event replaced this one");
  /* Sequential event: the log order is deterministic. */
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK_LEN(o, "hooks", 2);
  CHECK_STR(o, "hooks[0].name", "first");
  CHECK_STR(o, "hooks[1].name", "second");
  CHECK(a.calls == 0 && a2.calls == 1 && b.calls == 1, "calls a %d a2 %d b %d", a.calls, a2.calls, b.calls);
  hl_engine_free(e);
  CHECK(a.freed == 1 && a2.freed == 1 && b.freed == 1 && other.freed == 1, "after free: a %d a2 %d b %d other %d",
        a.freed, a2.freed, b.freed, other.freed);
  cbd_clear(&a);
  cbd_clear(&a2);
  cbd_clear(&b);
  cbd_clear(&other);
  test_end();
}

TEST(callback_hook_invalid_matcher_or_name_is_rejected_without_free) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cbd a = {.tag = "a"};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, "(", "bad", &a), HL_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, "[a-", "bad", &a), HL_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "", &a), HL_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "  \t ", &a), HL_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(add_cb(e, 12, NULL, "ok", &a), HL_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(add_cb(e, -1, NULL, "ok", &a), HL_ERR_INVALID_ARGUMENT);
  CHECK(a.freed == 0, "free_user_data called for a failed registration (%d)", a.freed);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_LEN(o, "hooks", 0);
  CHECK(a.calls == 0, "a rejected callback ran");
  hl_engine_free(e);
  CHECK(a.freed == 0, "free_user_data called for a failed registration at engine free (%d)", a.freed);
  test_end();
}

TEST(callback_hook_matcher_follows_the_claude_rule) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cbd edit = {.tag = "edit"}, list = {.tag = "list"}, re = {.tag = "re"}, all1 = {.tag = "n"}, all2 = {.tag = "e"},
      all3 = {.tag = "s"};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, "Edit", "edit", &edit), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, "Bash|Write", "list", &list), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, "mcp__.*", "re", &re), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "all-null", &all1), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, "", "all-empty", &all2), HL_OK);
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, "*", "all-star", &all3), HL_OK);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, ptu("NotebookEdit"));
  CHECK(edit.calls == 0 && list.calls == 0 && re.calls == 0, "NotebookEdit matched: edit %d list %d re %d", edit.calls,
        list.calls, re.calls);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, ptu("Edit"));
  CHECK(edit.calls == 1, "Edit did not match Edit");
  run_ev(e, HL_EVENT_PRE_TOOL_USE, ptu("Write"));
  CHECK(list.calls == 1, "Write did not match Bash|Write");
  run_ev(e, HL_EVENT_PRE_TOOL_USE, ptu("xmcp__fs"));
  CHECK(re.calls == 1, "mcp__.* (unanchored) did not match xmcp__fs");
  run_ev(e, HL_EVENT_PRE_TOOL_USE, ptu("edit"));
  CHECK(edit.calls == 1, "matching is not case-sensitive");
  CHECK(all1.calls == 5 && all2.calls == 5 && all3.calls == 5, "match-all: %d %d %d", all1.calls, all2.calls,
        all3.calls);
  /* A callback hook only runs for its event. */
  run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK(all1.calls == 5, "a PreToolUse callback ran for PostToolUse");
  hl_engine_free(e);
  cbd_clear(&edit);
  cbd_clear(&list);
  cbd_clear(&re);
  cbd_clear(&all1);
  cbd_clear(&all2);
  cbd_clear(&all3);
  test_end();
}

TEST(callback_hooks_are_not_gated_and_not_in_the_digest) {
  ws_begin();
  char *store = wpath("trust.json");
  hl_engine *e = eng_new(opts(NULL, fmt("\"workspace_gated\":true,\"trust_store\":%s", jstr(store))));
  char *d1 = NULL, *d2 = NULL;
  CHECK_STATUS(hl_engine_command_digest(e, &d1, NULL), HL_OK);
  cbd a = {.mode = CB_DENY, .arg = "host policy"};
  CHECK_STATUS(add_cb(e, HL_EVENT_PRE_TOOL_USE, NULL, "host", &a), HL_OK);
  CHECK_STATUS(hl_engine_command_digest(e, &d2, NULL), HL_OK);
  CHECK(d1 && d2 && !strcmp(d1, d2), "callback hook changed the digest");
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK(a.calls == 1, "callback hook did not run on a gated engine");
  CHECK_STR(o, "decision", "deny");
  hl_string_free(d1);
  hl_string_free(d2);
  hl_engine_free(e);
  cbd_clear(&a);
  test_end();
}

int main(void) {
  RUN(vt_matcher_is_anchored_edit_does_not_match_notebook_edit);
  RUN(vt_matcher_alternation_is_an_anchored_regex);
  RUN(vt_matcher_mcp_regex);
  RUN(vt_matcher_is_trimmed);
  RUN(claude_matcher_exact_name_edit_does_not_match_notebook_edit);
  RUN(claude_matcher_pipe_and_comma_lists_are_exact_names);
  RUN(claude_matcher_with_regex_characters_is_unanchored_regex);
  RUN(star_empty_and_absent_matchers_match_all_in_both_dialects);
  RUN(matching_is_case_sensitive_in_both_dialects);
  RUN(claude_user_prompt_submit_and_stop_ignore_matchers);
  RUN(vt_user_prompt_submit_matches_prompt_and_stop_matches_literal_stop);
  RUN(session_start_matches_the_trigger);
  RUN(other_events_match_their_documented_field);
  RUN(hooks_of_every_matching_group_run_in_configuration_order);
  RUN(every_config_source_and_dialect_runs_its_hooks);
  RUN(task_completion_aliases_run_after_stop_hooks_in_that_order);
  RUN(configured_hooks_run_before_callback_hooks_in_order_added);
  RUN(callback_hook_receives_the_same_payload_as_a_command);
  RUN(callback_hook_sees_updated_input_and_can_rewrite_it);
  RUN(callback_hook_set_json_reply_is_read_like_stdout);
  RUN(callback_hook_deny_is_exit_2_with_stderr);
  RUN(callback_hook_deny_is_exit_2_whatever_it_returns);
  RUN(callback_hook_allow_allows_pre_tool_use_and_means_nothing_elsewhere);
  RUN(callback_hook_nonzero_return_is_exit_1_warning);
  RUN(callback_hook_last_reply_call_wins);
  RUN(callback_hook_replace_in_place_frees_old_user_data_once);
  RUN(callback_hook_invalid_matcher_or_name_is_rejected_without_free);
  RUN(callback_hook_matcher_follows_the_claude_rule);
  RUN(callback_hooks_are_not_gated_and_not_in_the_digest);
  return DONE();
}
