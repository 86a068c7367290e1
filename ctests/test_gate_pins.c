/* Script pins and the environment policy through the C ABI (docs/trust.md, "What the approval
 * pins" and "What a hook's environment holds"): the approval binds the bytes of the scripts a
 * gated command executes, re-verified right before every spawn; hook_env / untrusted_hook_env
 * shape what a hook inherits. Real files, real hooks (they write marker files), real processes. */
#include "gate_util.h"

#include <pthread.h>
#include <sys/stat.h>

static char *g_tmp;

static const char APPROVED[] = "#!/bin/sh\necho approved >> ran-approved\n";
static const char EVIL[] = "#!/bin/sh\necho evilxxx >> ran-evil.....\n"; /* same length */

#define HOOK_SH_GUARD "\"hooks\":{\"Notification\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"sh guard.sh\"}]}]}"

static char *ws_new(const char *name) { return gu_subdir(g_tmp, name); }

static char *path_in(const char *dir, const char *name) { return gu_fmt("%s/%s", dir, name); }

static void write_text(const char *dir, const char *name, const char *text) {
  char *p = path_in(dir, name);
  CHECK(gu_write_file(p, text, strlen(text)), "write %s", p);
  free(p);
}

/* Lines in `dir/name` (0 when missing). */
static int lines_in(const char *dir, const char *name) {
  char *p = path_in(dir, name);
  char *t = gu_read_file(p);
  free(p);
  int n = 0;
  for (const char *c = t; c && *c; c++) n += *c == '\n';
  free(t);
  return n;
}

/* The `skipped` member of the first hook report: "null", "\"not_approved\"", ... (malloc'd). */
static char *first_skipped(hl_engine *e, char **outcome) {
  char *o = gu_run(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT);
  char *r = o ? gu_hook_report(o, 0) : NULL;
  char *s = r ? gu_json_member(r, "skipped") : NULL;
  free(r);
  if (outcome) *outcome = o;
  else free(o);
  return s ? s : strdup("(none)");
}

static void check_skipped(hl_engine *e, const char *want, const char *what) {
  char *s = first_skipped(e, NULL);
  CHECK(strcmp(s, want) == 0, "%s: skipped %s, want %s", what, s, want);
  free(s);
}

static void sha_hex(const char *text, char out[65]) {
  gu_sha256 s;
  gu_sha256_init(&s);
  gu_sha256_update(&s, text, strlen(text));
  gu_sha256_final_hex(&s, out);
}

TEST(pins_a_changed_script_is_skipped_and_reprompts_until_its_approved_bytes_are_restored) {
  char *ws = ws_new("modify");
  char *store = path_in(ws, "trust.json");
  write_text(ws, "guard.sh", APPROVED);
  hl_engine *e = gu_engine_ws(ws, true, HOOK_SH_GUARD, store);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "unapproved at first");
  CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  check_skipped(e, "null", "approved");
  CHECK(lines_in(ws, "ran-approved") == 1, "the approved script ran");

  write_text(ws, "guard.sh", EVIL);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "a changed script re-prompts");
  char *o = NULL;
  char *s = first_skipped(e, &o);
  CHECK(strcmp(s, "\"changed_since_approval\"") == 0, "modified: skipped %s", s);
  char *script = path_in(ws, "guard.sh");
  CHECK_CONTAINS(o, script);
  CHECK_CONTAINS(o, "changed since the workspace hooks were approved");
  CHECK_CONTAINS(o, "\"exit_code\":null");
  CHECK(lines_in(ws, "ran-evil.....") == 0, "the changed script never ran");
  free(s);
  free(o);

  write_text(ws, "guard.sh", APPROVED);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "restored bytes are approved again");
  check_skipped(e, "null", "restored");
  CHECK(lines_in(ws, "ran-approved") == 2, "ran again after the restore");
  hl_engine_free(e);
  free(script);
  free(store);
  free(ws);
}

TEST(pins_a_symlink_swapped_in_for_the_script_is_skipped) {
  char *ws = ws_new("swap");
  char *store = path_in(ws, "trust.json");
  write_text(ws, "guard.sh", APPROVED);
  char *other = path_in(g_tmp, "swap-target.sh");
  CHECK(gu_write_file(other, APPROVED, strlen(APPROVED)), "target");
  hl_engine *e = gu_engine_ws(ws, true, HOOK_SH_GUARD, store);
  CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  char *script = path_in(ws, "guard.sh");
  CHECK(unlink(script) == 0 && symlink(other, script) == 0, "swap in a symlink");
  char *o = NULL;
  char *s = first_skipped(e, &o);
  CHECK(strcmp(s, "\"changed_since_approval\"") == 0, "swapped: skipped %s", s);
  CHECK_CONTAINS(o, "now resolves to");
  CHECK(lines_in(ws, "ran-approved") == 0, "nothing ran");
  free(s);
  free(o);
  hl_engine_free(e);
  free(script);
  free(other);
  free(store);
  free(ws);
}

TEST(pins_a_deleted_script_is_skipped_naming_it) {
  char *ws = ws_new("delete");
  char *store = path_in(ws, "trust.json");
  write_text(ws, "guard.sh", APPROVED);
  hl_engine *e = gu_engine_ws(ws, true, HOOK_SH_GUARD, store);
  CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  char *script = path_in(ws, "guard.sh");
  CHECK(unlink(script) == 0, "delete");
  char *o = NULL;
  char *s = first_skipped(e, &o);
  CHECK(strcmp(s, "\"changed_since_approval\"") == 0, "deleted: skipped %s", s);
  CHECK_CONTAINS(o, script);
  free(s);
  free(o);
  hl_engine_free(e);
  free(script);
  free(store);
  free(ws);
}

TEST(previews_carry_each_pin_as_canonical_path_and_sha256) {
  char *ws = ws_new("previews");
  char *sub = gu_subdir(ws, ".claude");
  char *hooks = gu_subdir(sub, "hooks");
  write_text(hooks, "x.py", "print('x')\n");
  hl_engine *e = gu_engine_ws(
      ws, true,
      "\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":"
      "\"python3 \\\"$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/x.py\"},{\"type\":\"command\",\"command\":\"echo hi\"}]}]}",
      NULL);
  char *p = gu_previews(e);
  char sha[65];
  sha_hex("print('x')\n", sha);
  char *want = gu_fmt("\"pins\":[{\"path\":\"%s/x.py\",\"sha256\":\"%s\"}]", hooks, sha);
  CHECK_CONTAINS(p, want);
  CHECK_CONTAINS(p, "\"command\":\"echo hi\",\"timeout_seconds\":null,\"pins\":[],\"env\":{\"inherit\":true,\"scrub\":[],\"set\":[]}");
  /* The digest is the seed's: pins are beside it, not in it. */
  const char *lines[] = {
      "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash\",\"command\":\"python3 \\\"$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/x.py\",\"timeout_seconds\":null}",
      "{\"event\":\"pre_tool_use\",\"matcher\":\"Bash\",\"command\":\"echo hi\",\"timeout_seconds\":null}"};
  char dwant[65];
  gu_digest_of_lines(lines, 2, dwant);
  char *d = gu_digest(e);
  CHECK(d && strcmp(d, dwant) == 0, "digest %s, want %s", d ? d : "", dwant);
  free(d);
  free(want);
  free(p);
  hl_engine_free(e);
  free(hooks);
  free(sub);
  free(ws);
}

TEST(persisted_pins_approve_a_new_engine_until_the_file_changes) {
  char *ws = ws_new("persist");
  char *store = path_in(g_tmp, "persist-store/trust.json");
  write_text(ws, "guard.sh", APPROVED);
  hl_engine *e = gu_engine_ws(ws, true, HOOK_SH_GUARD, store);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine_free(e);
  char *text = gu_read_file(store);
  char sha[65];
  sha_hex(APPROVED, sha);
  CHECK_CONTAINS(text, "\"version\": 2");
  CHECK_CONTAINS(text, sha);
  free(text);
  e = gu_engine_ws(ws, true, HOOK_SH_GUARD, store);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "approved from the store");
  check_skipped(e, "null", "persisted approval");
  hl_engine_free(e);
  write_text(ws, "guard.sh", EVIL);
  e = gu_engine_ws(ws, true, HOOK_SH_GUARD, store);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "a changed file needs approval in a new engine");
  check_skipped(e, "\"changed_since_approval\"", "new engine, changed file");
  hl_engine_free(e);
  free(store);
  free(ws);
}

TEST(old_format_trust_records_approve_no_command_that_has_pins) {
  char *ws = ws_new("oldformat");
  char *store = path_in(ws, "trust.json");
  write_text(ws, "guard.sh", APPROVED);
  hl_engine *probe = gu_engine_ws(ws, true, HOOK_SH_GUARD, store);
  char *digest = gu_digest(probe);
  hl_engine_free(probe);
  char *wsj = gu_json_str(ws);
  char *v1 = gu_fmt("{\"version\":1,\"workspaces\":{%s:{\"digest\":\"%s\",\"approved_at\":\"2026-01-01T00:00:00Z\"}}}",
                    wsj, digest ? digest : "");
  CHECK(gu_write_file(store, v1, strlen(v1)), "write a version-1 store");
  hl_engine *e = gu_engine_ws(ws, true, HOOK_SH_GUARD, store);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "a pinned command needs a new approval");
  check_skipped(e, "\"not_approved\"", "version-1 record");
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine_free(e);
  e = gu_engine_ws(ws, true, HOOK_SH_GUARD, store);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "re-approved: the record now has pins");
  hl_engine_free(e);
  /* A command that executes no file stays approved by a version-1 record. */
  const char *plain = "\"hooks\":{\"Notification\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"echo hi > out.log\"}]}]}";
  probe = gu_engine_ws(ws, true, plain, store);
  char *d2 = gu_digest(probe);
  hl_engine_free(probe);
  char *v1b = gu_fmt("{\"version\":1,\"workspaces\":{%s:{\"digest\":\"%s\"}}}", wsj, d2 ? d2 : "");
  CHECK(gu_write_file(store, v1b, strlen(v1b)), "write a version-1 store");
  e = gu_engine_ws(ws, true, plain, store);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "no pins: the version-1 record still approves");
  hl_engine_free(e);
  free(v1b);
  free(d2);
  free(v1);
  free(wsj);
  free(digest);
  free(store);
  free(ws);
}

/* Read NAME=VALUE lines of an `env` dump; true when `name` is set. */
static bool env_has(const char *dump, const char *name) {
  if (!dump) return false;
  size_t n = strlen(name);
  for (const char *l = dump; l && *l;) {
    if (strncmp(l, name, n) == 0 && l[n] == '=') return true;
    l = strchr(l, '\n');
    if (l) l++;
  }
  return false;
}

TEST(hook_env_scrub_secrets_removes_inherited_credentials_from_a_hook_that_prints_its_environment) {
  /* This test runs single-threaded: the host's environment may be changed here. */
  setenv("GITHUB_TOKEN", "ghp_secret", 1);
  setenv("MY_SERVICE_API_KEY", "k", 1);
  setenv("PGPASSWORD", "p", 1);
  setenv("AWS_SECRET_ACCESS_KEY", "a", 1);
  setenv("HL_TEST_KEEP", "yes", 1);
  char *ws = ws_new("scrub");
  char *wsj = gu_json_str(ws);
  char *opts = gu_fmt("{\"workspace\":%s,\"session_id\":\"s\",\"hook_env\":{\"scrub\":\"secrets\"},"
                      "\"hooks\":{\"Notification\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"env > env.txt\"}]}]}}",
                      wsj);
  hl_engine *e = gu_engine(opts);
  char *o = gu_run(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT);
  char *envp = path_in(ws, "env.txt");
  char *dump = gu_read_file(envp);
  CHECK(dump != NULL, "the hook wrote its environment");
  CHECK(!env_has(dump, "GITHUB_TOKEN") && !env_has(dump, "MY_SERVICE_API_KEY") && !env_has(dump, "PGPASSWORD") &&
            !env_has(dump, "AWS_SECRET_ACCESS_KEY"),
        "a secret reached the hook:\n%s", dump ? dump : "");
  CHECK(env_has(dump, "HL_TEST_KEEP") && env_has(dump, "PATH"), "other variables stay");
  CHECK(env_has(dump, "HOOKLINE_PROJECT_DIR"), "the engine's own variables stay");
  free(dump);
  free(o);
  hl_engine_free(e);
  /* Without a policy, the same variables are inherited (the default: as Claude Code does). */
  free(opts);
  opts = gu_fmt("{\"workspace\":%s,\"session_id\":\"s\","
                "\"hooks\":{\"Notification\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"env > env.txt\"}]}]}}",
                wsj);
  e = gu_engine(opts);
  o = gu_run(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT);
  dump = gu_read_file(envp);
  CHECK(env_has(dump, "GITHUB_TOKEN"), "inherited by default");
  free(dump);
  free(o);
  hl_engine_free(e);
  unsetenv("GITHUB_TOKEN");
  unsetenv("MY_SERVICE_API_KEY");
  unsetenv("PGPASSWORD");
  unsetenv("AWS_SECRET_ACCESS_KEY");
  unsetenv("HL_TEST_KEEP");
  free(envp);
  free(opts);
  free(wsj);
  free(ws);
}

TEST(untrusted_hook_env_applies_to_untrusted_sources_only) {
  setenv("GH_TOKEN", "gh_secret", 1);
  char *ws = ws_new("untrusted-env");
  char *wsj = gu_json_str(ws);
  char *opts = gu_fmt(
      "{\"workspace\":%s,\"session_id\":\"s\",\"untrusted_hook_env\":{\"inherit\":[\"PATH\",\"GH_*\"],\"scrub\":\"secrets\"},"
      "\"hook_sources\":[{\"trusted\":true,\"hooks\":{\"Notification\":[{\"hooks\":[{\"command\":\"env > trusted.txt\"}]}]}},"
      "{\"hooks\":{\"Notification\":[{\"hooks\":[{\"command\":\"env > untrusted.txt\"}]}]}}]}",
      wsj);
  hl_engine *e = gu_engine(opts);
  free(gu_run(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT));
  char *t = path_in(ws, "trusted.txt"), *u = path_in(ws, "untrusted.txt");
  char *td = gu_read_file(t), *ud = gu_read_file(u);
  CHECK(env_has(td, "GH_TOKEN") && env_has(td, "HOME"), "a trusted hook inherits everything");
  CHECK(!env_has(ud, "GH_TOKEN"), "scrubbed for the untrusted hook");
  CHECK(!env_has(ud, "HOME") && env_has(ud, "PATH"), "only the inherit list for the untrusted hook");
  unsetenv("GH_TOKEN");
  free(td);
  free(ud);
  free(t);
  free(u);
  hl_engine_free(e);
  free(opts);
  free(wsj);
  free(ws);
}

TEST(hook_env_errors_are_invalid_arguments_naming_the_field) {
  char *ws = ws_new("env-errors");
  char *wsj = gu_json_str(ws);
  const char *bad[] = {"\"hook_env\":true", "\"hook_env\":{\"scrub\":\"nope\"}", "\"untrusted_hook_env\":{\"inherit\":3}",
                       "\"hook_env\":{\"set\":{\"A\":1}}"};
  const char *field[] = {"`hook_env`", "`hook_env.scrub`", "`untrusted_hook_env.inherit`", "`hook_env.set.A`"};
  for (int i = 0; i < 4; i++) {
    char *opts = gu_fmt("{\"workspace\":%s,\"session_id\":\"s\",%s}", wsj, bad[i]);
    hl_engine *e = (hl_engine *)1;
    char *err = NULL;
    CHECK_STATUS(hl_engine_new(opts, &e, &err), HL_ERR_INVALID_ARGUMENT);
    CHECK(e == NULL, "no engine on failure");
    CHECK_CONTAINS(err, field[i]);
    hl_string_free(err);
    free(opts);
  }
  free(wsj);
  free(ws);
}

typedef struct {
  hl_engine *e;
  int ran, skipped;
} runner_arg;

static void *run_many(void *p) {
  runner_arg *a = (runner_arg *)p;
  for (int i = 0; i < 10; i++) {
    char *out = NULL;
    if (hl_engine_run(a->e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT, &out, NULL) == HL_OK && out) {
      if (strstr(out, "\"skipped\":null")) a->ran++;
      if (strstr(out, "\"skipped\":\"changed_since_approval\"")) a->skipped++;
    }
    hl_string_free(out);
  }
  return NULL;
}

TEST(pins_concurrent_runs_see_one_answer) {
  char *ws = ws_new("concurrent");
  char *store = path_in(ws, "trust.json");
  write_text(ws, "guard.sh", APPROVED);
  hl_engine *e = gu_engine_ws(ws, true, HOOK_SH_GUARD, store);
  CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  for (int phase = 0; phase < 2; phase++) {
    if (phase == 1) write_text(ws, "guard.sh", EVIL);
    pthread_t t[4];
    runner_arg a[4];
    for (int i = 0; i < 4; i++) {
      a[i] = (runner_arg){e, 0, 0};
      pthread_create(&t[i], NULL, run_many, &a[i]);
    }
    for (int i = 0; i < 4; i++) {
      pthread_join(t[i], NULL);
      if (phase == 0) CHECK(a[i].ran == 10, "thread %d ran %d of 10", i, a[i].ran);
      else CHECK(a[i].skipped == 10, "thread %d skipped %d of 10", i, a[i].skipped);
    }
  }
  CHECK(lines_in(ws, "ran-approved") == 40 && lines_in(ws, "ran-evil.....") == 0, "40 approved runs, no changed one");
  hl_engine_free(e);
  free(store);
  free(ws);
}

/* Gemini CLI's documented form, "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh", in every spelling
 * ($V, ${V}, "$V", $GEMINI_CWD, $CLAUDE_PROJECT_DIR in a Gemini file): pinned, so a script
 * replaced after the approval is skipped and never runs. */
TEST(pins_gemini_project_dir_spellings_bind_the_script) {
  static const char *const forms[] = {
      "$GEMINI_PROJECT_DIR/guard.sh", "${GEMINI_PROJECT_DIR}/guard.sh", "\\\"$GEMINI_PROJECT_DIR\\\"/guard.sh",
      "$GEMINI_CWD/guard.sh",         "$CLAUDE_PROJECT_DIR/guard.sh",
  };
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
    char *name = gu_fmt("gemini%zu", i);
    char *ws = ws_new(name);
    char *guard = path_in(ws, "guard.sh");
    write_text(ws, "guard.sh", APPROVED);
    CHECK(chmod(guard, 0755) == 0, "chmod");
    char *hooks = gu_fmt("\"dialect\":\"gemini\",\"hooks\":{\"hooks\":{\"Notification\":[{\"hooks\":[{\"type\":"
                         "\"command\",\"command\":\"%s\"}]}]}}",
                         forms[i]);
    hl_engine *e = gu_engine_ws(ws, true, hooks, NULL);
    char *previews = gu_previews(e);
    CHECK_CONTAINS(previews, guard);
    CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
    check_skipped(e, "null", forms[i]);
    write_text(ws, "guard.sh", EVIL);
    check_skipped(e, "\"changed_since_approval\"", forms[i]);
    CHECK(lines_in(ws, "ran-evil.....") == 0, "%s: the replaced script never ran", forms[i]);
    hl_engine_free(e);
    free(previews);
    free(hooks);
    free(guard);
    free(ws);
    free(name);
  }
}

/* A script path the gate cannot resolve is listed under "unpinned" in its preview. */
TEST(previews_list_unresolvable_script_paths_as_unpinned) {
  char *ws = ws_new("unpinned");
  hl_engine *e = gu_engine_ws(
      ws, true, "\"hooks\":{\"Notification\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"$SCRIPTS/guard.sh\"}]}]}",
      NULL);
  char *previews = gu_previews(e);
  CHECK_CONTAINS(previews, "\"unpinned\":[\"$SCRIPTS/guard.sh\"]");
  free(previews);
  hl_engine_free(e);
  free(ws);
}

int main(void) {
  g_tmp = gu_mkdtemp();
  RUN(pins_a_changed_script_is_skipped_and_reprompts_until_its_approved_bytes_are_restored);
  RUN(pins_a_symlink_swapped_in_for_the_script_is_skipped);
  RUN(pins_a_deleted_script_is_skipped_naming_it);
  RUN(previews_carry_each_pin_as_canonical_path_and_sha256);
  RUN(persisted_pins_approve_a_new_engine_until_the_file_changes);
  RUN(old_format_trust_records_approve_no_command_that_has_pins);
  RUN(hook_env_scrub_secrets_removes_inherited_credentials_from_a_hook_that_prints_its_environment);
  RUN(untrusted_hook_env_applies_to_untrusted_sources_only);
  RUN(hook_env_errors_are_invalid_arguments_naming_the_field);
  RUN(pins_concurrent_runs_see_one_answer);
  RUN(pins_gemini_project_dir_spellings_bind_the_script);
  RUN(previews_list_unresolvable_script_paths_as_unpinned);
  gu_rmtree(g_tmp);
  free(g_tmp);
  return DONE();
}
