/* Workspace approval gate through the C ABI (docs/protocol.md §10): the command digest
 * bit for bit, the previews, and the gate itself (nothing spawns before
 * approval, skipped hooks are reported, callbacks still run, the payload
 * never reaches a command line). */
#include "gate_util.h"

#include <pthread.h>

#define EXAMPLE_DIGEST "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89"
#define EMPTY_DIGEST "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static char *g_tmp; /* per-process scratch directory */

/* A fresh workspace directory under the scratch directory. */
static char *new_workspace(const char *name) {
  return gu_subdir(g_tmp, name);
}

/* Digest of an engine over a fresh workspace with the given hooks member. */
static char *digest_for(const char *hooks_member) {
  static int n = 0;
  char name[32];
  snprintf(name, sizeof name, "dg%d", n++);
  char *ws = new_workspace(name);
  hl_engine *e = gu_engine_ws(ws, true, hooks_member, NULL);
  char *d = e ? gu_digest(e) : NULL;
  hl_engine_free(e);
  free(ws);
  return d;
}

static void check_digest(const char *hooks_member, const char *const *lines, size_t n) {
  char want[65];
  gu_digest_of_lines(lines, n, want);
  char *got = digest_for(hooks_member);
  CHECK(got && strcmp(got, want) == 0, "digest of %s: got %s, want %s", hooks_member, got ? got : "(null)", want);
  free(got);
}

/* ---------------------------------------------------------------- digest */

TEST(reference_sha256_matches_known_vectors) {
  /* Guards the test's own SHA-256 against known vectors (the empty string and the worked example). */
  char out[65];
  gu_digest_of_lines(NULL, 0, out);
  CHECK(strcmp(out, EMPTY_DIGEST) == 0, "sha256('') = %s", out);
  const char *line = "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash\",\"command\":\"./check.sh\",\"timeout_seconds\":10}";
  gu_digest_of_lines(&line, 1, out);
  CHECK(strcmp(out, EXAMPLE_DIGEST) == 0, "sha256(example line) = %s", out);
}

TEST(digest_worked_example_reproduces_bit_for_bit) {
  char *d = digest_for(
      "\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\","
      "\"command\":\"./check.sh\",\"timeout_seconds\":10}]}]}}");
  CHECK(d && strcmp(d, EXAMPLE_DIGEST) == 0, "got %s", d ? d : "(null)");
  CHECK(d && strlen(d) == 64, "digest is 64 hex digits");
  for (const char *p = d; p && *p; p++) CHECK((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'), "lowercase hex: %c", *p);
  free(d);
}

TEST(digest_unicode_and_escaped_commands_serialise_as_serde_json) {
  /* Raw UTF-8, `"` and `\` escaped, `/` not escaped, newline as \n. */
  const char *lines[] = {
      "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash\",\"command\":\"echo \\\"héllo ✓ 日本 🚀\\\" > /dev/null\",\"timeout_seconds\":5}",
      "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash\",\"command\":\"printf '%s\\\\n' a/b\\necho ok\",\"timeout_seconds\":5}",
  };
  check_digest("\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"matcher\":\"Bash\",\"hooks\":["
               "{\"command\":\"echo \\\"héllo ✓ 日本 🚀\\\" > /dev/null\",\"timeout_seconds\":5},"
               "{\"command\":\"printf '%s\\\\n' a/b\\necho ok\",\"timeout_seconds\":5}]}]}}",
               lines, 2);
}

TEST(digest_null_matcher_and_timeout_when_absent) {
  const char *lines[] = {"{\"event\":\"session_start\",\"matcher\":null,\"command\":\"echo hi\",\"timeout_seconds\":null}"};
  check_digest("\"hooks\":{\"lifecycle\":{\"session_start\":[{\"hooks\":[{\"command\":\"echo hi\"}]}]}}", lines, 1);
}

TEST(digest_matcher_kept_exactly_as_written) {
  /* Untrimmed; "" and "*" stay as written (not normalised to null). */
  const char *lines[] = {
      "{\"event\":\"pre_tool_use\",\"matcher\":\" Bash \",\"command\":\"a\",\"timeout_seconds\":null}",
      "{\"event\":\"pre_tool_use\",\"matcher\":\"\",\"command\":\"b\",\"timeout_seconds\":null}",
      "{\"event\":\"pre_tool_use\",\"matcher\":\"*\",\"command\":\"c\",\"timeout_seconds\":null}",
  };
  check_digest("\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"matcher\":\" Bash \",\"hooks\":[{\"command\":\"a\"}]},"
               "{\"matcher\":\"\",\"hooks\":[{\"command\":\"b\"}]},{\"matcher\":\"*\",\"hooks\":[{\"command\":\"c\"}]}]}}",
               lines, 3);
}

TEST(digest_claude_matcher_kept_exactly_as_written) {
  const char *lines[] = {
      "{\"event\":\"pre_tool_use\",\"matcher\":\" Bash | Edit \",\"command\":\"a\",\"timeout_seconds\":null}",
      "{\"event\":\"pre_tool_use\",\"matcher\":\"*\",\"command\":\"b\",\"timeout_seconds\":2}",
  };
  check_digest("\"hooks\":{\"PreToolUse\":[{\"matcher\":\" Bash | Edit \",\"hooks\":[{\"type\":\"command\",\"command\":\"a\"}]},"
               "{\"matcher\":\"*\",\"hooks\":[{\"command\":\"b\",\"timeout\":2}]}]}",
               lines, 2);
}

TEST(digest_orders_events_by_hl_event_number_then_configuration_order) {
  /* Written in reverse event order; digested in hl_event order. */
  const char *lines[] = {
      "{\"event\":\"session_start\",\"matcher\":\"startup\",\"command\":\"s\",\"timeout_seconds\":3}",
      "{\"event\":\"pre_tool_use\",\"matcher\":\"Edit\",\"command\":\"e1\",\"timeout_seconds\":null}",
      "{\"event\":\"pre_tool_use\",\"matcher\":\"Edit\",\"command\":\"e2\",\"timeout_seconds\":null}",
      "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash\",\"command\":\"b\",\"timeout_seconds\":null}",
      "{\"event\":\"pre_compact\",\"matcher\":null,\"command\":\"pc\",\"timeout_seconds\":null}",
      "{\"event\":\"stop\",\"matcher\":null,\"command\":\"st\",\"timeout_seconds\":null}",
      "{\"event\":\"notification\",\"matcher\":null,\"command\":\"n\",\"timeout_seconds\":null}",
      "{\"event\":\"post_tool_use_failure\",\"matcher\":null,\"command\":\"f\",\"timeout_seconds\":null}",
  };
  check_digest("\"hooks\":{\"lifecycle\":{"
               "\"post_tool_use_failure\":[{\"hooks\":[{\"command\":\"f\"}]}],"
               "\"notification\":[{\"hooks\":[{\"command\":\"n\"}]}],"
               "\"stop\":[{\"hooks\":[{\"command\":\"st\"}]}],"
               "\"pre_compact\":[{\"hooks\":[{\"command\":\"pc\"}]}],"
               "\"pre_tool_use\":[{\"matcher\":\"Edit\",\"hooks\":[{\"command\":\"e1\"},{\"command\":\"e2\"}]},"
               "{\"matcher\":\"Bash\",\"hooks\":[{\"command\":\"b\"}]}],"
               "\"session_start\":[{\"matcher\":\"startup\",\"hooks\":[{\"command\":\"s\",\"timeout_seconds\":3}]}]}}",
               lines, 8);
}

TEST(digest_same_for_both_dialects_and_all_config_forms) {
  const char *lines[] = {
      "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash\",\"command\":\"./check.sh\",\"timeout_seconds\":10}",
      "{\"event\":\"stop\",\"matcher\":null,\"command\":\"./stop.sh\",\"timeout_seconds\":null}",
  };
  char want[65];
  gu_digest_of_lines(lines, 2, want);
  const char *vt = "{\"lifecycle\":{\"stop\":[{\"hooks\":[{\"command\":\"./stop.sh\"}]}],"
                   "\"pre_tool_use\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"./check.sh\","
                   "\"timeout_seconds\":10}]}]}}";
  const char *claude = "{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"./stop.sh\"}]}],"
                       "\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"./check.sh\","
                       "\"timeout\":10}]}]}";
  const char *toml_vtcode = "[hooks.lifecycle]\n"
                            "[[hooks.lifecycle.pre_tool_use]]\nmatcher = \"Bash\"\n"
                            "[[hooks.lifecycle.pre_tool_use.hooks]]\ntype = \"command\"\ncommand = \"./check.sh\"\n"
                            "timeout_seconds = 10\n"
                            "[[hooks.lifecycle.stop]]\n[[hooks.lifecycle.stop.hooks]]\ncommand = \"./stop.sh\"\n";
  const char *toml_lifecycle = "[[lifecycle.stop]]\n[[lifecycle.stop.hooks]]\ncommand = \"./stop.sh\"\n"
                               "[[lifecycle.pre_tool_use]]\nmatcher = \"Bash\"\n"
                               "[[lifecycle.pre_tool_use.hooks]]\ncommand = \"./check.sh\"\ntimeout_seconds = 10\n";
  char *members[8];
  int n = 0;
  members[n++] = gu_fmt("\"hooks\":%s", vt);
  members[n++] = gu_fmt("\"hooks\":{\"hooks\":%s}", vt); /* JSON of a whole vtcode.toml */
  members[n++] = gu_fmt("\"hooks\":%s", claude);
  members[n++] = gu_fmt("\"hooks\":{\"hooks\":%s}", claude); /* whole settings.json */
  char *t1 = gu_json_str(toml_vtcode), *t2 = gu_json_str(toml_lifecycle);
  members[n++] = gu_fmt("\"hooks_toml\":%s", t1);
  members[n++] = gu_fmt("\"hooks_toml\":%s", t2);
  free(t1);
  free(t2);
  /* hooks_file: .json (Claude) and .toml (vtcode.toml) */
  char *fj = gu_fmt("%s/settings.json", g_tmp), *ft = gu_fmt("%s/vtcode.toml", g_tmp);
  CHECK(gu_write_file(fj, claude, strlen(claude)), "write %s", fj);
  CHECK(gu_write_file(ft, toml_vtcode, strlen(toml_vtcode)), "write %s", ft);
  char *fjs = gu_json_str(fj), *fts = gu_json_str(ft);
  members[n++] = gu_fmt("\"hooks_file\":%s", fjs);
  members[n++] = gu_fmt("\"hooks_file\":%s", fts);
  free(fj); free(ft); free(fjs); free(fts);
  for (int i = 0; i < n; i++) {
    char *got = digest_for(members[i]);
    CHECK(got && strcmp(got, want) == 0, "form %d (%s): got %s, want %s", i, members[i], got ? got : "(null)", want);
    free(got);
    free(members[i]);
  }
}

TEST(digest_changes_when_two_commands_are_reordered) {
  const char *ab[] = {"{\"event\":\"pre_tool_use\",\"matcher\":\"Bash\",\"command\":\"a.sh\",\"timeout_seconds\":null}",
                      "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash\",\"command\":\"b.sh\",\"timeout_seconds\":null}"};
  const char *ba[] = {ab[1], ab[0]};
  const char *cfg_ab = "\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"matcher\":\"Bash\",\"hooks\":[{\"command\":\"a.sh\"},{\"command\":\"b.sh\"}]}]}}";
  const char *cfg_ba = "\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"matcher\":\"Bash\",\"hooks\":[{\"command\":\"b.sh\"},{\"command\":\"a.sh\"}]}]}}";
  check_digest(cfg_ab, ab, 2);
  check_digest(cfg_ba, ba, 2);
  char *d1 = digest_for(cfg_ab), *d2 = digest_for(cfg_ba);
  CHECK(d1 && d2 && strcmp(d1, d2) != 0, "reordering must change the digest (%s)", d1 ? d1 : "");
  free(d1);
  free(d2);
}

TEST(digest_changes_when_a_timeout_changes) {
  char *d10 = digest_for("\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"matcher\":\"Bash\",\"hooks\":[{\"command\":\"./check.sh\",\"timeout_seconds\":10}]}]}}");
  char *d11 = digest_for("\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"matcher\":\"Bash\",\"hooks\":[{\"command\":\"./check.sh\",\"timeout_seconds\":11}]}]}}");
  CHECK(d10 && strcmp(d10, EXAMPLE_DIGEST) == 0, "timeout 10 is the worked example");
  CHECK(d11 && d10 && strcmp(d10, d11) != 0, "timeout 11 must digest differently");
  const char *l11 = "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash\",\"command\":\"./check.sh\",\"timeout_seconds\":11}";
  char want[65];
  gu_digest_of_lines(&l11, 1, want);
  CHECK(d11 && strcmp(d11, want) == 0, "timeout 11: got %s want %s", d11 ? d11 : "", want);
  free(d10);
  free(d11);
}

TEST(digest_explicit_60_and_absent_timeout_differ) {
  const char *l60 = "{\"event\":\"stop\",\"matcher\":null,\"command\":\"x\",\"timeout_seconds\":60}";
  const char *lnull = "{\"event\":\"stop\",\"matcher\":null,\"command\":\"x\",\"timeout_seconds\":null}";
  check_digest("\"hooks\":{\"lifecycle\":{\"stop\":[{\"hooks\":[{\"command\":\"x\",\"timeout_seconds\":60}]}]}}", &l60, 1);
  check_digest("\"hooks\":{\"lifecycle\":{\"stop\":[{\"hooks\":[{\"command\":\"x\"}]}]}}", &lnull, 1);
  /* Claude dialect: `timeout` 60 vs absent */
  check_digest("\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"x\",\"timeout\":60}]}]}", &l60, 1);
  check_digest("\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"x\"}]}]}", &lnull, 1);
}

TEST(digest_task_completion_aliases_digest_as_stop_after_stop) {
  /* Aliases are appended after `stop`, task_completion then task_completed,
   * whatever order the config lists them in. */
  const char *lines[] = {
      "{\"event\":\"stop\",\"matcher\":null,\"command\":\"a\",\"timeout_seconds\":null}",
      "{\"event\":\"stop\",\"matcher\":null,\"command\":\"b\",\"timeout_seconds\":null}",
      "{\"event\":\"stop\",\"matcher\":null,\"command\":\"c\",\"timeout_seconds\":7}",
  };
  check_digest("\"hooks\":{\"lifecycle\":{\"task_completed\":[{\"hooks\":[{\"command\":\"c\",\"timeout_seconds\":7}]}],"
               "\"task_completion\":[{\"hooks\":[{\"command\":\"b\"}]}],"
               "\"stop\":[{\"hooks\":[{\"command\":\"a\"}]}]}}",
               lines, 3);
  const char *only[] = {"{\"event\":\"stop\",\"matcher\":null,\"command\":\"b\",\"timeout_seconds\":null}"};
  check_digest("\"hooks\":{\"lifecycle\":{\"task_completion\":[{\"hooks\":[{\"command\":\"b\"}]}]}}", only, 1);
}

TEST(digest_of_no_commands_is_sha256_of_empty_string) {
  const char *forms[] = {NULL, "\"hooks\":{\"lifecycle\":{}}", "\"hooks\":{}", "\"hooks_toml\":\"\""};
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    char *d = digest_for(forms[i]);
    CHECK(d && strcmp(d, EMPTY_DIGEST) == 0, "form %s: got %s", forms[i] ? forms[i] : "(no hooks)", d ? d : "(null)");
    free(d);
  }
}

static int32_t cb_noop(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ud; (void)ctx; (void)len; (void)reply;
  return 0;
}

TEST(digest_ignores_callback_hooks) {
  char *ws = new_workspace("cbdigest");
  hl_engine *e = gu_engine_ws(ws, true, "\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"matcher\":\"Bash\",\"hooks\":"
                                        "[{\"command\":\"./check.sh\",\"timeout_seconds\":10}]}]}}", NULL);
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, "Bash", "host-check", cb_noop, NULL, NULL, NULL), HL_OK);
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_STOP, NULL, "host-stop", cb_noop, NULL, NULL, NULL), HL_OK);
  char *d = gu_digest(e);
  CHECK(d && strcmp(d, EXAMPLE_DIGEST) == 0, "callback hooks changed the digest: %s", d ? d : "");
  char *p = gu_previews(e);
  CHECK(p && !strstr(p, "host-"), "callback hooks appear in previews: %s", p ? p : "");
  free(p);
  free(d);
  hl_engine_free(e);
  free(ws);
}

TEST(digest_and_previews_reject_null_arguments) {
  char *hex = (char *)"sentinel", *err = NULL;
  CHECK_STATUS(hl_engine_command_digest(NULL, &hex, &err), HL_ERR_NULL_ARGUMENT);
  CHECK(hex == NULL, "out parameter cleared on failure");
  CHECK(err != NULL, "error message set");
  hl_string_free(err);
  char *ws = new_workspace("nullargs");
  hl_engine *e = gu_engine_ws(ws, false, NULL, NULL);
  CHECK_STATUS(hl_engine_command_digest(e, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_engine_command_previews(e, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  char *pv = (char *)"sentinel";
  CHECK_STATUS(hl_engine_command_previews(NULL, &pv, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK(pv == NULL, "out parameter cleared on failure");
  CHECK_STATUS(hl_engine_approve_workspace_hooks(NULL, false, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK(!hl_engine_workspace_gated(NULL), "gated(NULL) is false");
  CHECK(!hl_engine_workspace_hooks_need_approval(NULL), "need_approval(NULL) is false");
  hl_engine_free(e);
  free(ws);
}

/* -------------------------------------------------------------- previews */

/* Previews are the digest lines, each tagged with its handler type first, then the files the command
 * executes (none of these exist) and its environment policy (the default). */
#define NO_PINS "\"pins\":[],\"env\":{\"inherit\":true,\"scrub\":[],\"set\":[]}"
TEST(previews_are_the_digest_lines_as_a_json_array_in_digest_order) {
  char *ws = new_workspace("previews");
  hl_engine *e = gu_engine_ws(ws, true,
                              "\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"./stop.sh\"}]}],"
                              "\"PreToolUse\":[{\"matcher\":\"Bash|Edit\",\"hooks\":[{\"type\":\"command\",\"command\":"
                              "\"./a \\\"q\\\" é/x\",\"timeout\":10},{\"command\":\"./b\"}]}],"
                              "\"SessionStart\":[{\"matcher\":\"*\",\"hooks\":[{\"command\":\"./s\",\"timeout\":60}]}]}",
                              NULL);
  const char *want =
      "[{\"type\":\"command\",\"event\":\"session_start\",\"matcher\":\"*\",\"command\":\"./s\",\"timeout_seconds\":60," NO_PINS "},"
      "{\"type\":\"command\",\"event\":\"pre_tool_use\",\"matcher\":\"Bash|Edit\",\"command\":\"./a \\\"q\\\" é/x\",\"timeout_seconds\":10," NO_PINS "},"
      "{\"type\":\"command\",\"event\":\"pre_tool_use\",\"matcher\":\"Bash|Edit\",\"command\":\"./b\",\"timeout_seconds\":null," NO_PINS "},"
      "{\"type\":\"command\",\"event\":\"stop\",\"matcher\":null,\"command\":\"./stop.sh\",\"timeout_seconds\":null," NO_PINS "}]";
  char *p = gu_previews(e);
  CHECK(p && strcmp(p, want) == 0, "previews:\n got  %s\n want %s", p ? p : "(null)", want);
  /* The digest is the SHA-256 of the same objects joined by "\n". */
  const char *lines[] = {
      "{\"event\":\"session_start\",\"matcher\":\"*\",\"command\":\"./s\",\"timeout_seconds\":60}",
      "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash|Edit\",\"command\":\"./a \\\"q\\\" é/x\",\"timeout_seconds\":10}",
      "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash|Edit\",\"command\":\"./b\",\"timeout_seconds\":null}",
      "{\"event\":\"stop\",\"matcher\":null,\"command\":\"./stop.sh\",\"timeout_seconds\":null}",
  };
  char dwant[65];
  gu_digest_of_lines(lines, 4, dwant);
  char *d = gu_digest(e);
  CHECK(d && strcmp(d, dwant) == 0, "digest %s, want %s", d ? d : "", dwant);
  free(d);
  free(p);
  hl_engine_free(e);
  free(ws);
}

TEST(previews_of_no_commands_is_empty_array) {
  char *ws = new_workspace("previews-empty");
  hl_engine *e = gu_engine_ws(ws, true, NULL, NULL);
  char *p = gu_previews(e);
  CHECK(p && strcmp(p, "[]") == 0, "got %s", p ? p : "(null)");
  free(p);
  hl_engine_free(e);
  free(ws);
}

/* ------------------------------------------------------------------ gate */

/* Hooks that would create marker files in the workspace for several
 * events: decision events (PreToolUse, UserPromptSubmit, Stop) and
 * concurrent ones (PostToolUse with two commands, Notification,
 * SessionStart). The PreToolUse hook would deny if it ran. */
#define GATED_HOOKS                                                                                        \
  "\"hooks\":{\"lifecycle\":{"                                                                             \
  "\"session_start\":[{\"hooks\":[{\"command\":\"touch ran_session_start\"}]}],"                           \
  "\"user_prompt_submit\":[{\"hooks\":[{\"command\":\"touch ran_prompt; echo blocked >&2; exit 2\"}]}],"   \
  "\"pre_tool_use\":[{\"matcher\":\"Bash\",\"hooks\":[{\"command\":\"touch ran_pre1; echo no >&2; exit 2\"}," \
  "{\"command\":\"touch ran_pre2\"}]}],"                                                                   \
  "\"post_tool_use\":[{\"hooks\":[{\"command\":\"touch ran_post1\"},{\"command\":\"touch ran_post2\"}]}],"  \
  "\"notification\":[{\"hooks\":[{\"command\":\"touch ran_notification\"}]}],"                             \
  "\"stop\":[{\"hooks\":[{\"command\":\"touch ran_stop; echo '{\\\"decision\\\":\\\"block\\\",\\\"reason\\\":\\\"r\\\"}'\"}]}]}}"

static const char *const MARKERS[] = {"ran_session_start", "ran_prompt", "ran_pre1", "ran_pre2",
                                      "ran_post1", "ran_post2", "ran_notification", "ran_stop"};

static void check_no_markers(const char *ws) {
  for (size_t i = 0; i < sizeof MARKERS / sizeof MARKERS[0]; i++)
    CHECK(!gu_exists_in(ws, MARKERS[i]), "gated hook ran before approval: %s exists", MARKERS[i]);
}

/* Every report of `outcome` is a command skipped by the gate with the exact
 * shape of docs/protocol.md §10; returns the number of reports. */
static int check_all_skipped(const char *outcome, const char *const *commands, int n) {
  int count = gu_hook_count(outcome);
  CHECK(count == n, "want %d reports, got %d in %s", n, count, outcome ? outcome : "(null)");
  for (int i = 0; i < count && i < n; i++) {
    char *r = gu_hook_report(outcome, i);
    char *cmd = gu_json_str(commands[i]);
    CHECK(gu_member_is(r, "kind", "\"command\""), "kind: %s", r);
    CHECK(gu_member_is(r, "command", cmd), "command %s: %s", cmd, r);
    CHECK(gu_member_is(r, "skipped", "\"not_approved\""), "skipped: %s", r);
    CHECK(gu_member_is(r, "exit_code", "null"), "exit_code: %s", r);
    CHECK(gu_member_is(r, "timed_out", "false"), "timed_out: %s", r);
    CHECK(gu_member_num(r, "duration_ms") == 0.0, "duration_ms: %s", r);
    CHECK(!strstr(r, "\"signal\""), "no signal: %s", r);
    free(cmd);
    free(r);
  }
  /* One error message per skipped command, each containing "not approved". */
  CHECK(gu_count(outcome, "not approved") == (size_t)n, "want %d 'not approved' messages: %s", n, outcome);
  CHECK(gu_count(outcome, "{\"level\":\"error\",\"text\":") >= (size_t)n, "error-level messages: %s", outcome);
  return count;
}

TEST(gated_engine_spawns_nothing_before_approval_and_reports_skips) {
  char *ws = new_workspace("gated");
  hl_engine *e = gu_engine_ws(ws, true, GATED_HOOKS, NULL);
  CHECK(hl_engine_workspace_gated(e), "gated");
  CHECK(hl_engine_workspace_hooks_need_approval(e), "needs approval before approve");

  char *o = gu_run(e, HL_EVENT_SESSION_START, "{}");
  const char *c_ss[] = {"touch ran_session_start"};
  check_all_skipped(o, c_ss, 1);
  CHECK_CONTAINS(o, "\"additional_context\":[]");
  free(o);

  o = gu_run(e, HL_EVENT_USER_PROMPT_SUBMIT, GU_PROMPT_INPUT);
  const char *c_up[] = {"touch ran_prompt; echo blocked >&2; exit 2"};
  check_all_skipped(o, c_up, 1);
  CHECK_CONTAINS(o, "\"allow_prompt\":true");
  CHECK_CONTAINS(o, "\"block_reason\":null");
  free(o);

  /* Both PreToolUse commands are reported: a skipped hook makes no decision,
   * so the run does not stop at the first one. */
  o = gu_run(e, HL_EVENT_PRE_TOOL_USE, GU_PRE_TOOL_INPUT);
  const char *c_pre[] = {"touch ran_pre1; echo no >&2; exit 2", "touch ran_pre2"};
  check_all_skipped(o, c_pre, 2);
  CHECK_CONTAINS(o, "\"decision\":\"continue\"");
  CHECK_CONTAINS(o, "\"reason\":null");
  CHECK_CONTAINS(o, "\"updated_input\":null");
  free(o);

  o = gu_run(e, HL_EVENT_POST_TOOL_USE, GU_POST_TOOL_INPUT);
  const char *c_post[] = {"touch ran_post1", "touch ran_post2"};
  check_all_skipped(o, c_post, 2);
  CHECK_CONTAINS(o, "\"block_reason\":null");
  free(o);

  o = gu_run(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT);
  const char *c_n[] = {"touch ran_notification"};
  check_all_skipped(o, c_n, 1);
  free(o);

  o = gu_run(e, HL_EVENT_STOP, GU_STOP_INPUT);
  const char *c_st[] = {"touch ran_stop; echo '{\"decision\":\"block\",\"reason\":\"r\"}'"};
  check_all_skipped(o, c_st, 1);
  CHECK_CONTAINS(o, "\"block_reason\":null");
  CHECK_CONTAINS(o, "\"continue\":true");
  free(o);

  hl_engine_free(e);
  e = gu_engine_ws(ws, true,
                   "\"hooks\":{\"lifecycle\":{\"permission_request\":[{\"hooks\":[{\"command\":"
                   "\"touch ran_permission; echo '{\\\"hookSpecificOutput\\\":{\\\"decision\\\":{\\\"behavior\\\":\\\"allow\\\"}}}'\"}]}]}}",
                   NULL);
  o = gu_run(e, HL_EVENT_PERMISSION_REQUEST,
             "{\"tool_name\":\"Bash\",\"tool_input\":{},\"permission_request\":{\"kind\":\"exec\"}}");
  CHECK(gu_count(o, "\"skipped\":\"not_approved\"") == 1, "permission hook skipped: %s", o);
  CHECK_CONTAINS(o, "\"decision\":null");
  free(o);
  CHECK(!gu_exists_in(ws, "ran_permission"), "permission hook ran");

  /* Give any stray process a moment, then check that nothing ran. */
  usleep(200 * 1000);
  check_no_markers(ws);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "still needs approval");
  hl_engine_free(e);
  free(ws);
}

struct run_arg {
  hl_engine *e;
  hl_event ev;
  const char *input;
  int ok;
};

static void *run_thread(void *p) {
  struct run_arg *a = (struct run_arg *)p;
  for (int i = 0; i < 5; i++) {
    char *out = NULL;
    if (hl_engine_run(a->e, a->ev, a->input, &out, NULL) == HL_OK && out &&
        gu_count(out, "\"skipped\":\"not_approved\"") >= 1)
      a->ok++;
    hl_string_free(out);
  }
  return NULL;
}

static int g_done_skips = 0, g_done_calls = 0;
static pthread_mutex_t g_done_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_done_cv = PTHREAD_COND_INITIALIZER;

static void done_count_skips(void *ud, hl_status st, const char *outcome, const char *err) {
  (void)ud; (void)err;
  pthread_mutex_lock(&g_done_mu);
  if (st == HL_OK && outcome) g_done_skips += (int)gu_count(outcome, "\"skipped\":\"not_approved\"");
  g_done_calls++;
  pthread_cond_broadcast(&g_done_cv);
  pthread_mutex_unlock(&g_done_mu);
}

/* Wait (at most 60 s) until `n` done callbacks have been called. */
static bool wait_done_calls(int n) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 60;
  pthread_mutex_lock(&g_done_mu);
  while (g_done_calls < n && pthread_cond_timedwait(&g_done_cv, &g_done_mu, &deadline) == 0) {
  }
  bool ok = g_done_calls >= n;
  pthread_mutex_unlock(&g_done_mu);
  return ok;
}

TEST(gated_engine_spawns_nothing_under_concurrent_runs) {
  char *ws = new_workspace("gated-concurrent");
  hl_engine *e = gu_engine_ws(ws, true, GATED_HOOKS, NULL);
  struct run_arg args[6] = {
      {e, HL_EVENT_POST_TOOL_USE, GU_POST_TOOL_INPUT, 0}, {e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT, 0},
      {e, HL_EVENT_PRE_TOOL_USE, GU_PRE_TOOL_INPUT, 0},   {e, HL_EVENT_SESSION_START, "{}", 0},
      {e, HL_EVENT_STOP, GU_STOP_INPUT, 0},               {e, HL_EVENT_USER_PROMPT_SUBMIT, GU_PROMPT_INPUT, 0},
  };
  pthread_t th[6];
  for (int i = 0; i < 6; i++) pthread_create(&th[i], NULL, run_thread, &args[i]);
  /* Async runs at the same time. */
  g_done_skips = 0;
  g_done_calls = 0;
  for (int i = 0; i < 5; i++) {
    CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_POST_TOOL_USE, GU_POST_TOOL_INPUT, done_count_skips, NULL, NULL, NULL), HL_OK);
    CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT, done_count_skips, NULL, NULL, NULL), HL_OK);
  }
  for (int i = 0; i < 6; i++) {
    pthread_join(th[i], NULL);
    CHECK(args[i].ok == 5, "thread %d: %d of 5 runs reported skipped hooks", i, args[i].ok);
  }
  CHECK(wait_done_calls(10), "every async run finished");
  hl_engine_free(e);
  CHECK(g_done_skips == 15, "async runs reported %d skips, want 15", g_done_skips);
  usleep(200 * 1000);
  check_no_markers(ws);
  free(ws);
}

struct cb_state {
  int calls;
  int deny;
};

static int32_t cb_count(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ctx; (void)len;
  struct cb_state *s = (struct cb_state *)ud;
  s->calls++;
  if (s->deny) hl_reply_deny(reply, "host says no");
  return 0;
}

TEST(gated_engine_still_runs_callback_hooks) {
  char *ws = new_workspace("gated-callbacks");
  hl_engine *e = gu_engine_ws(ws, true, GATED_HOOKS, NULL);
  struct cb_state pre = {0, 1}, post = {0, 0};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, "Bash", "host-pre", cb_count, &pre, NULL, NULL), HL_OK);
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_POST_TOOL_USE, NULL, "host-post", cb_count, &post, NULL, NULL), HL_OK);

  char *o = gu_run(e, HL_EVENT_PRE_TOOL_USE, GU_PRE_TOOL_INPUT);
  CHECK(pre.calls == 1, "callback ran %d times", pre.calls);
  CHECK(gu_hook_count(o) == 3, "two skipped commands then the callback: %s", o);
  char *r0 = gu_hook_report(o, 0), *r2 = gu_hook_report(o, 2);
  CHECK(gu_member_is(r0, "skipped", "\"not_approved\""), "first is skipped: %s", r0);
  CHECK(gu_member_is(r2, "kind", "\"callback\""), "callback report: %s", r2);
  CHECK(gu_member_is(r2, "name", "\"host-pre\""), "callback name: %s", r2);
  CHECK(gu_member_is(r2, "skipped", "null"), "callback not skipped: %s", r2);
  CHECK(gu_member_is(r2, "exit_code", "2"), "deny = exit 2: %s", r2);
  /* The decision comes from the callback only. */
  CHECK_CONTAINS(o, "\"decision\":\"deny\"");
  CHECK_CONTAINS(o, "\"reason\":\"host says no\"");
  free(r0);
  free(r2);
  free(o);

  o = gu_run(e, HL_EVENT_POST_TOOL_USE, GU_POST_TOOL_INPUT);
  CHECK(post.calls == 1, "observer callback ran %d times", post.calls);
  CHECK(gu_count(o, "\"skipped\":\"not_approved\"") == 2, "two skipped commands: %s", o);
  free(o);
  usleep(100 * 1000);
  check_no_markers(ws);
  hl_engine_free(e);
  free(ws);
}

TEST(approve_without_persist_lets_hooks_run) {
  char *ws = new_workspace("approve");
  char *store = gu_fmt("%s/approve-store/trust.json", g_tmp);
  hl_engine *e = gu_engine_ws(ws, true, GATED_HOOKS, store);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "needs approval before");
  char *err = (char *)"sentinel";
  CHECK_STATUS(hl_engine_approve_workspace_hooks(e, false, &err), HL_OK);
  CHECK(err == NULL, "errmsg NULL on success");
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "no approval needed after approve");
  CHECK(hl_engine_workspace_gated(e), "still a gated engine");
  CHECK(!gu_exists(store), "approve(persist=false) must not write the trust store");

  char *o = gu_run(e, HL_EVENT_PRE_TOOL_USE, GU_PRE_TOOL_INPUT);
  CHECK(gu_exists_in(ws, "ran_pre1"), "approved hook ran");
  CHECK(!gu_exists_in(ws, "ran_pre2"), "the deny stopped the run");
  CHECK_CONTAINS(o, "\"decision\":\"deny\"");
  CHECK_CONTAINS(o, "\"skipped\":null");
  CHECK(!strstr(o, "not_approved") && !strstr(o, "not approved"), "nothing skipped: %s", o);
  free(o);
  o = gu_run(e, HL_EVENT_POST_TOOL_USE, GU_POST_TOOL_INPUT);
  CHECK(gu_exists_in(ws, "ran_post1") && gu_exists_in(ws, "ran_post2"), "both concurrent hooks ran");
  char *r = gu_hook_report(o, 0);
  CHECK(gu_member_is(r, "exit_code", "0"), "report: %s", r);
  free(r);
  free(o);
  /* Approving again is harmless. */
  CHECK_STATUS(hl_engine_approve_workspace_hooks(e, false, NULL), HL_OK);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "still approved");
  hl_engine_free(e);
  free(store);
  free(ws);
}

TEST(approval_is_per_engine_not_per_workspace_without_persist) {
  char *ws = new_workspace("per-engine");
  hl_engine *a = gu_engine_ws(ws, true, GATED_HOOKS, NULL);
  CHECK_STATUS(hl_engine_approve_workspace_hooks(a, false, NULL), HL_OK);
  /* A second engine over the same workspace: separate trust store path so
   * no persisted record can leak in. */
  char *store = gu_fmt("%s/per-engine-store.json", g_tmp);
  hl_engine *b = gu_engine_ws(ws, true, GATED_HOOKS, store);
  CHECK(hl_engine_workspace_hooks_need_approval(b), "an in-memory approval does not carry to other engines");
  char *o = gu_run(b, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT);
  CHECK(!gu_exists_in(ws, "ran_notification"), "unapproved engine ran a hook");
  CHECK_CONTAINS(o, "\"skipped\":\"not_approved\"");
  free(o);
  hl_engine_free(a);
  hl_engine_free(b);
  free(store);
  free(ws);
}

TEST(need_approval_false_on_ungated_engine_and_gated_engine_without_commands) {
  char *ws = new_workspace("ungated");
  hl_engine *e = gu_engine_ws(ws, false, GATED_HOOKS, NULL);
  CHECK(!hl_engine_workspace_gated(e), "ungated");
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "ungated engine never needs approval");
  char *o = gu_run(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT);
  CHECK(gu_exists_in(ws, "ran_notification"), "ungated hook runs without approval");
  CHECK(!strstr(o, "not_approved"), "nothing skipped: %s", o);
  free(o);
  hl_engine_free(e);

  /* Default of workspace_gated is false. */
  char *wsj = gu_json_str(ws);
  char *opts = gu_fmt("{\"workspace\":%s,\"session_id\":\"s\",%s}", wsj, GATED_HOOKS);
  e = gu_engine(opts);
  CHECK(!hl_engine_workspace_gated(e), "workspace_gated defaults to false");
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "default engine needs no approval");
  hl_engine_free(e);
  free(opts);
  free(wsj);

  const char *empty[] = {NULL, "\"hooks\":{\"lifecycle\":{}}", "\"hooks\":{}"};
  for (size_t i = 0; i < 3; i++) {
    e = gu_engine_ws(ws, true, empty[i], NULL);
    CHECK(hl_engine_workspace_gated(e), "gated");
    CHECK(!hl_engine_workspace_hooks_need_approval(e), "gated engine with no commands needs no approval (%s)",
          empty[i] ? empty[i] : "no hooks");
    hl_engine_free(e);
  }
  free(ws);
}

/* ------------------------------------------------------------- injection */

static const char *const PWNED[] = {"pwned", "pwned2", "pwned3", "pwned4", "pwned5", "pwned6", "pwned7"};

static void check_no_pwned(const char *ws) {
  for (size_t i = 0; i < sizeof PWNED / sizeof PWNED[0]; i++) {
    CHECK(!gu_exists_in(ws, PWNED[i]), "injected command ran: %s exists in workspace", PWNED[i]);
    CHECK(!gu_exists_in(g_tmp, PWNED[i]), "injected command ran: %s exists in the parent dir", PWNED[i]);
  }
}

TEST(payload_injection_never_executes_on_approved_engine) {
  char *ws = new_workspace("inject");
  /* Hooks that read stdin in several ways; each records what it got. */
  hl_engine *e = gu_engine_ws(
      ws, true,
      "\"hooks\":{\"lifecycle\":{"
      "\"pre_tool_use\":[{\"hooks\":[{\"command\":\"cat > pre_payload.json\"},"
      "{\"command\":\"read -r line; printf '%s' \\\"$line\\\" > pre_line.txt\"}]}],"
      "\"post_tool_use\":[{\"hooks\":[{\"command\":\"cat > post_payload.json; echo \\\"$HOOKLINE_SESSION_ID\\\" > sid.txt\"}]}],"
      "\"user_prompt_submit\":[{\"hooks\":[{\"command\":\"cat > prompt_payload.json\"}]}]}}",
      NULL);
  CHECK_STATUS(hl_engine_approve_workspace_hooks(e, false, NULL), HL_OK);
  const char *input =
      "{\"tool_name\":\"Bash\",\"tool_call_id\":\"$(touch pwned7)\",\"tool_input\":{"
      "\"command\":\"$(touch pwned)\",\"b\":\"`touch pwned2`\",\"c\":\"; touch pwned3\",\"d\":\"| touch pwned4\","
      "\"e\":\"\\\"; touch pwned5; echo \\\"\",\"f\":\"' ; touch pwned6 ; '\",\"g\":\"$(touch pwned)\\n`touch pwned2`\"}}";
  char *o = gu_run(e, HL_EVENT_PRE_TOOL_USE, input);
  CHECK(!strstr(o, "not_approved"), "approved: %s", o);
  free(o);
  const char *post = "{\"tool_name\":\"$(touch pwned)\",\"tool_input\":{\"x\":\"`touch pwned2`\"},"
                     "\"tool_response\":\"; touch pwned3 | touch pwned4\"}";
  o = gu_run(e, HL_EVENT_POST_TOOL_USE, post);
  free(o);
  o = gu_run(e, HL_EVENT_USER_PROMPT_SUBMIT, "{\"turn_id\":\"$(touch pwned5)\",\"prompt\":\"`touch pwned6`; touch pwned3\"}");
  free(o);
  usleep(200 * 1000);
  check_no_pwned(ws);
  /* The hooks did run and received the payload verbatim on stdin. */
  char *p = gu_fmt("%s/pre_payload.json", ws);
  char *payload = gu_read_file(p);
  CHECK(payload != NULL, "pre hook read its stdin");
  CHECK_CONTAINS(payload, "\"command\":\"$(touch pwned)\"");
  CHECK_CONTAINS(payload, "`touch pwned2`");
  CHECK_CONTAINS(payload, "; touch pwned3");
  CHECK_CONTAINS(payload, "| touch pwned4");
  CHECK_CONTAINS(payload, "\"hook_event_name\":\"PreToolUse\"");
  free(payload);
  free(p);
  CHECK(gu_exists_in(ws, "pre_line.txt"), "second pre hook ran");
  CHECK(gu_exists_in(ws, "post_payload.json"), "post hook ran");
  CHECK(gu_exists_in(ws, "prompt_payload.json"), "prompt hook ran");
  hl_engine_free(e);
  free(ws);
}

TEST(session_id_with_shell_syntax_never_executes) {
  char *ws = new_workspace("inject-sid");
  char *wsj = gu_json_str(ws);
  char *opts = gu_fmt("{\"workspace\":%s,\"session_id\":\"$(touch pwned); `touch pwned2`\",\"workspace_gated\":true,"
                      "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":"
                      "\"printf '%%s' \\\"$HOOKLINE_SESSION_ID\\\" > sid.txt; cat > n.json\"}]}]}}}",
                      wsj);
  hl_engine *e = gu_engine(opts);
  CHECK_STATUS(hl_engine_approve_workspace_hooks(e, false, NULL), HL_OK);
  char *o = gu_run(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT);
  free(o);
  char *p = gu_fmt("%s/sid.txt", ws);
  char *sid = gu_read_file(p);
  CHECK(sid && strcmp(sid, "$(touch pwned); `touch pwned2`") == 0, "session id passed verbatim: %s", sid ? sid : "(null)");
  free(sid);
  free(p);
  check_no_pwned(ws);
  hl_engine_free(e);
  free(opts);
  free(wsj);
  free(ws);
}

TEST(workspace_path_with_shell_syntax_never_executes) {
  /* The workspace reaches hooks as the cwd, in the payload and in the
   * environment, never inside a command line. */
  char *ws = new_workspace("ws $(touch pwned) `touch pwned2`; touch pwned3 | touch pwned4");
  hl_engine *e = gu_engine_ws(ws, true,
                              "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":"
                              "\"pwd > cwd.txt; printf '%s' \\\"$HOOKLINE_PROJECT_DIR\\\" > env.txt\"}]}]}}",
                              NULL);
  CHECK_STATUS(hl_engine_approve_workspace_hooks(e, false, NULL), HL_OK);
  char *o = gu_run(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT);
  free(o);
  char *p = gu_fmt("%s/env.txt", ws);
  char *env = gu_read_file(p);
  CHECK(env && strcmp(env, ws) == 0, "project dir passed verbatim: %s", env ? env : "(null)");
  free(env);
  free(p);
  usleep(100 * 1000);
  check_no_pwned(ws);
  hl_engine_free(e);
  free(ws);
}

int main(void) {
  g_tmp = gu_mkdtemp();
  /* Anything an injected command created relative to the host's cwd would
   * land in the scratch directory, which check_no_pwned inspects. */
  if (chdir(g_tmp) != 0) return 2;
  /* Hermetic: engines without a trust_store option never see a real store. */
  char *default_store = gu_fmt("%s/default-store/trust.json", g_tmp);
  setenv("HOOKLINE_TRUST_STORE", default_store, 1);
  free(default_store);
  RUN(reference_sha256_matches_known_vectors);
  RUN(digest_worked_example_reproduces_bit_for_bit);
  RUN(digest_unicode_and_escaped_commands_serialise_as_serde_json);
  RUN(digest_null_matcher_and_timeout_when_absent);
  RUN(digest_matcher_kept_exactly_as_written);
  RUN(digest_claude_matcher_kept_exactly_as_written);
  RUN(digest_orders_events_by_hl_event_number_then_configuration_order);
  RUN(digest_same_for_both_dialects_and_all_config_forms);
  RUN(digest_changes_when_two_commands_are_reordered);
  RUN(digest_changes_when_a_timeout_changes);
  RUN(digest_explicit_60_and_absent_timeout_differ);
  RUN(digest_task_completion_aliases_digest_as_stop_after_stop);
  RUN(digest_of_no_commands_is_sha256_of_empty_string);
  RUN(digest_ignores_callback_hooks);
  RUN(digest_and_previews_reject_null_arguments);
  RUN(previews_are_the_digest_lines_as_a_json_array_in_digest_order);
  RUN(previews_of_no_commands_is_empty_array);
  RUN(gated_engine_spawns_nothing_before_approval_and_reports_skips);
  RUN(gated_engine_spawns_nothing_under_concurrent_runs);
  RUN(gated_engine_still_runs_callback_hooks);
  RUN(approve_without_persist_lets_hooks_run);
  RUN(approval_is_per_engine_not_per_workspace_without_persist);
  RUN(need_approval_false_on_ungated_engine_and_gated_engine_without_commands);
  RUN(payload_injection_never_executes_on_approved_engine);
  RUN(session_id_with_shell_syntax_never_executes);
  RUN(workspace_path_with_shell_syntax_never_executes);
  gu_rmtree(g_tmp);
  free(g_tmp);
  return DONE();
}
