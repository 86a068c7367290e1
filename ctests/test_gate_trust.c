/* The trust store through the C ABI (docs/protocol.md §10, docs/trust.md): persisted approvals, file
 * and directory modes, path resolution (option, $HOOKLINE_TRUST_STORE,
 * $XDG_CONFIG_HOME, ~/.config), symlinks, corrupt and unreadable stores,
 * and concurrent writers from several processes and threads. */
#include "gate_util.h"

#include <dirent.h>
#include <pthread.h>
#include <sys/wait.h>

static char *g_tmp;
static char *g_default_store; /* $HOOKLINE_TRUST_STORE for hermetic tests */

#define HOOKS_A "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":\"touch ran_a\"}]}]}}"
#define HOOKS_A_CLAUDE "\"hooks\":{\"Notification\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"touch ran_a\"}]}]}"
#define HOOKS_B "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":\"touch ran_b\"}]}]}}"

static char *ws_new(const char *name) { return gu_subdir(g_tmp, name); }

/* Run Notification; true when the outcome shows the hook was skipped. */
static bool run_is_skipped(hl_engine *e) {
  char *o = gu_run(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT);
  bool skipped = o && strstr(o, "\"skipped\":\"not_approved\"") != NULL;
  free(o);
  return skipped;
}

/* The store text contains a record for `ws` with `digest`. */
static void check_store_has(const char *store, const char *ws, const char *digest) {
  char *text = gu_read_file(store);
  CHECK(text != NULL, "store %s readable", store);
  char *wsj = gu_json_str(ws), *dj = gu_json_str(digest);
  CHECK(text && strstr(text, wsj), "store lacks workspace %s:\n%s", wsj, text ? text : "");
  CHECK(text && strstr(text, dj), "store lacks digest %s:\n%s", dj, text ? text : "");
  free(wsj);
  free(dj);
  free(text);
}

TEST(persist_records_canonical_workspace_and_digest_with_private_modes) {
  char *real = ws_new("canon-real");
  char *link = gu_fmt("%s/canon-link", g_tmp);
  CHECK(symlink(real, link) == 0, "symlink");
  char *given = gu_fmt("%s/./", link); /* not canonical: symlink and "./" */
  char *dir1 = gu_fmt("%s/persist-cfg", g_tmp), *dir2 = gu_fmt("%s/persist-cfg/hookline", g_tmp);
  char *store = gu_fmt("%s/trust.json", dir2);

  hl_engine *e = gu_engine_ws(given, true, HOOKS_A, store);
  char *digest = gu_digest(e);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "needs approval");
  CHECK(!gu_exists(dir1), "nothing is created before a persisting approval");
  char *err = NULL;
  CHECK_STATUS(gu_approve(e, true, &err), HL_OK);
  CHECK(err == NULL, "no error: %s", err ? err : "");
  free(err);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "approved");
  CHECK(!run_is_skipped(e), "hook runs after approval");
  CHECK(gu_exists_in(real, "ran_a"), "hook ran in the workspace");

  CHECK(gu_mode(store) == 0600, "store mode %o, want 600", gu_mode(store));
  CHECK(gu_mode(dir1) == 0700, "created directory %s mode %o, want 700", dir1, gu_mode(dir1));
  CHECK(gu_mode(dir2) == 0700, "created directory %s mode %o, want 700", dir2, gu_mode(dir2));
  struct stat st;
  CHECK(lstat(store, &st) == 0 && S_ISREG(st.st_mode), "store is a regular file");
  check_store_has(store, real, digest);
  char *text = gu_read_file(store);
  CHECK(text && !strstr(text, "canon-link"), "store keys the canonical path, not the given one:\n%s", text ? text : "");
  CHECK_CONTAINS(text, "approved_at");
  free(text);
  hl_engine_free(e);
  free(digest);
  free(store); free(dir1); free(dir2); free(given); free(link); free(real);
}

TEST(new_engine_with_persisted_digest_starts_approved) {
  char *ws = ws_new("restart");
  char *store = gu_fmt("%s/restart-store.json", g_tmp);
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine_free(e);

  e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "same config + store: starts approved");
  CHECK(!run_is_skipped(e), "hook not skipped");
  CHECK(gu_exists_in(ws, "ran_a"), "hook ran without a new approval");
  hl_engine_free(e);

  /* The other dialect with the same command set has the same digest. */
  e = gu_engine_ws(ws, true, HOOKS_A_CLAUDE, store);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "same digest in the Claude dialect: starts approved");
  hl_engine_free(e);
  free(store);
  free(ws);
}

TEST(changed_command_set_is_not_approved_by_the_store) {
  char *ws = ws_new("changed");
  char *store = gu_fmt("%s/changed-store.json", g_tmp);
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine_free(e);

  e = gu_engine_ws(ws, true, HOOKS_B, store);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "a different command set needs approval");
  CHECK(run_is_skipped(e), "hook skipped");
  CHECK(!gu_exists_in(ws, "ran_b"), "unapproved command ran");
  hl_engine_free(e);
  /* Same command, different timeout: a different digest too. */
  e = gu_engine_ws(ws, true,
                   "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":\"touch ran_a\",\"timeout_seconds\":60}]}]}}",
                   store);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "explicit timeout changes the digest");
  hl_engine_free(e);
  free(store);
  free(ws);
}

TEST(identical_config_on_another_workspace_is_not_approved) {
  char *ws1 = ws_new("other-1"), *ws2 = ws_new("other-2");
  char *sub = ws_new("other-1/sub");
  char *store = gu_fmt("%s/other-store.json", g_tmp);
  hl_engine *e = gu_engine_ws(ws1, true, HOOKS_A, store);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine_free(e);
  const char *others[] = {ws2, sub, g_tmp};
  for (int i = 0; i < 3; i++) {
    e = gu_engine_ws(others[i], true, HOOKS_A, store);
    CHECK(hl_engine_workspace_hooks_need_approval(e), "approval of %s must not cover %s", ws1, others[i]);
    CHECK(run_is_skipped(e), "skipped in %s", others[i]);
    CHECK(!gu_exists_in(others[i], "ran_a"), "hook ran in %s", others[i]);
    hl_engine_free(e);
  }
  free(store);
  free(sub);
  free(ws1);
  free(ws2);
}

TEST(latest_approval_replaces_the_earlier_record) {
  char *ws = ws_new("replace");
  char *store = gu_fmt("%s/replace-store.json", g_tmp);
  hl_engine *a = gu_engine_ws(ws, true, HOOKS_A, store);
  hl_engine *b = gu_engine_ws(ws, true, HOOKS_B, store);
  char *da = gu_digest(a), *db = gu_digest(b);
  CHECK_STATUS(gu_approve(a, true, NULL), HL_OK);
  CHECK_STATUS(gu_approve(b, true, NULL), HL_OK);
  hl_engine_free(a);
  hl_engine_free(b);
  char *text = gu_read_file(store);
  char *wsj = gu_json_str(ws);
  CHECK(gu_count(text, wsj) == 1, "one record per workspace:\n%s", text ? text : "");
  CHECK(text && strstr(text, db) && !strstr(text, da), "latest digest replaces the earlier:\n%s", text ? text : "");
  a = gu_engine_ws(ws, true, HOOKS_A, store);
  b = gu_engine_ws(ws, true, HOOKS_B, store);
  CHECK(hl_engine_workspace_hooks_need_approval(a), "replaced digest no longer approved");
  CHECK(!hl_engine_workspace_hooks_need_approval(b), "latest digest approved");
  hl_engine_free(a);
  hl_engine_free(b);
  free(wsj); free(text); free(da); free(db); free(store); free(ws);
}

/* Create an engine over ws with HOOKS_A and no trust_store option. */
static hl_engine *engine_no_store_option(const char *ws) { return gu_engine_ws(ws, true, HOOKS_A, NULL); }

TEST(hookline_trust_store_env_is_used_when_option_is_absent) {
  char *ws = ws_new("env-store");
  char *store = gu_fmt("%s/env-store-dir/trust.json", g_tmp);
  setenv("HOOKLINE_TRUST_STORE", store, 1);
  hl_engine *e = engine_no_store_option(ws);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  char *d = gu_digest(e);
  hl_engine_free(e);
  CHECK(gu_exists(store), "approval written to $HOOKLINE_TRUST_STORE (%s)", store);
  if (d) check_store_has(store, ws, d);
  e = engine_no_store_option(ws);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "a new engine reads $HOOKLINE_TRUST_STORE");
  hl_engine_free(e);

  /* The option wins over the environment. */
  char *opt_store = gu_fmt("%s/env-store-opt.json", g_tmp);
  e = gu_engine_ws(ws, true, HOOKS_A, opt_store);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "option store is empty: env store must not be consulted");
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  CHECK(gu_exists(opt_store), "option path written");
  hl_engine_free(e);
  setenv("HOOKLINE_TRUST_STORE", g_default_store, 1);
  free(opt_store); free(d); free(store); free(ws);
}

TEST(xdg_config_home_then_home_are_used_when_no_option_or_env) {
  char *ws = ws_new("xdg-store");
  char *xdg = gu_fmt("%s/xdg", g_tmp);
  char *xdg_store = gu_fmt("%s/hookline/trust.json", xdg);
  const char *old_home = getenv("HOME");
  char *saved_home = old_home ? strdup(old_home) : NULL;
  const char *old_xdg = getenv("XDG_CONFIG_HOME");
  char *saved_xdg = old_xdg ? strdup(old_xdg) : NULL;

  unsetenv("HOOKLINE_TRUST_STORE");
  setenv("XDG_CONFIG_HOME", xdg, 1);
  hl_engine *e = engine_no_store_option(ws);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine_free(e);
  CHECK(gu_exists(xdg_store), "approval written to $XDG_CONFIG_HOME/hookline/trust.json");
  CHECK(gu_mode(xdg_store) == 0600, "mode %o", gu_mode(xdg_store));
  e = engine_no_store_option(ws);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "a new engine reads the XDG store");
  hl_engine_free(e);

  /* Neither: ~/.config/hookline/trust.json */
  unsetenv("XDG_CONFIG_HOME");
  char *home = gu_fmt("%s/home", g_tmp);
  char *home_store = gu_fmt("%s/.config/hookline/trust.json", home);
  setenv("HOME", home, 1);
  e = engine_no_store_option(ws);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "the home store is empty");
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine_free(e);
  CHECK(gu_exists(home_store), "approval written to ~/.config/hookline/trust.json");
  e = engine_no_store_option(ws);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "a new engine reads the home store");
  hl_engine_free(e);

  if (saved_home) setenv("HOME", saved_home, 1); else unsetenv("HOME");
  if (saved_xdg) setenv("XDG_CONFIG_HOME", saved_xdg, 1); else unsetenv("XDG_CONFIG_HOME");
  setenv("HOOKLINE_TRUST_STORE", g_default_store, 1);
  free(saved_home); free(saved_xdg); free(home); free(home_store); free(xdg); free(xdg_store); free(ws);
}

TEST(symlink_at_store_path_fails_persist_with_io_and_approves_nothing) {
  char *ws = ws_new("symlink");
  char *target = gu_fmt("%s/symlink-target.json", g_tmp);
  char *store = gu_fmt("%s/symlink-store.json", g_tmp);
  /* A real store that approves ws, then a symlink to it at the store path. */
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, target);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine_free(e);
  char *before = gu_read_file(target);
  CHECK(symlink(target, store) == 0, "symlink");

  e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "a store read through a symlink approves nothing");
  CHECK(run_is_skipped(e), "hook skipped");
  CHECK(!gu_exists_in(ws, "ran_a"), "hook ran");
  char *err = NULL;
  CHECK_STATUS(gu_approve(e, true, &err), HL_ERR_IO);
  CHECK(err && *err, "an error message");
  free(err);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "a failed persisting approval approves nothing");
  CHECK(run_is_skipped(e), "hook still skipped");
  CHECK(!gu_exists_in(ws, "ran_a"), "hook ran after a failed approval");
  struct stat st;
  CHECK(lstat(store, &st) == 0 && S_ISLNK(st.st_mode), "symlink left in place");
  char *after = gu_read_file(target);
  CHECK(before && after && strcmp(before, after) == 0, "symlink target unchanged");
  free(before);
  free(after);
  hl_engine_free(e);

  /* A dangling symlink: nothing is created at its target. */
  char *dangling_target = gu_fmt("%s/dangling-target.json", g_tmp);
  char *dangling = gu_fmt("%s/dangling-store.json", g_tmp);
  CHECK(symlink(dangling_target, dangling) == 0, "symlink");
  e = gu_engine_ws(ws, true, HOOKS_A, dangling);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_ERR_IO);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "still needs approval");
  CHECK(!gu_exists(dangling_target), "nothing written through a dangling symlink");
  hl_engine_free(e);

  /* A symlinked parent directory (e.g. a dotfiles-managed ~/.config) is an
   * ordinary path component: only the store file itself is not followed. */
  char *realdir = ws_new("symlink-realdir");
  char *linkdir = gu_fmt("%s/symlink-linkdir", g_tmp);
  CHECK(symlink(realdir, linkdir) == 0, "symlink");
  char *via_link = gu_fmt("%s/trust.json", linkdir);
  e = gu_engine_ws(ws, true, HOOKS_A, via_link);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine_free(e);
  CHECK(gu_exists_in(realdir, "trust.json"), "store written inside the symlinked directory");
  e = gu_engine_ws(ws, true, HOOKS_A, via_link);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "store under a symlinked directory approves");
  hl_engine_free(e);
  free(via_link); free(linkdir); free(realdir);
  free(dangling); free(dangling_target); free(store); free(target); free(ws);
}

TEST(corrupt_store_reads_as_nothing_approved_and_is_replaced_by_persist) {
  char *ws = ws_new("corrupt");
  char *store = gu_fmt("%s/corrupt-store.json", g_tmp);
  const unsigned char garbage[] = {0xff, 0xfe, 0x00, 'g', 'a', 'r', 'b', 0x80, '{', '"', 0x01, 0xc3};
  const char *bad_texts[] = {NULL, "{\"workspaces\":", "[1,2,3]", "{\"workspaces\":[]}", "null", ""};
  for (size_t i = 0; i < sizeof bad_texts / sizeof bad_texts[0]; i++) {
    bool ok = bad_texts[i] ? gu_write_file(store, bad_texts[i], strlen(bad_texts[i]))
                           : gu_write_file(store, garbage, sizeof garbage);
    CHECK(ok, "write corrupt store");
    hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, store);
    CHECK(e != NULL, "a corrupt store does not prevent creating an engine (case %zu)", i);
    CHECK(hl_engine_workspace_hooks_need_approval(e), "corrupt store (case %zu) approves nothing", i);
    CHECK(run_is_skipped(e), "hook skipped (case %zu)", i);
    hl_engine_free(e);
  }
  CHECK(!gu_exists_in(ws, "ran_a"), "hook ran with a corrupt store");

  /* Persisting over the (garbage) store replaces it with a valid one. */
  gu_write_file(store, garbage, sizeof garbage);
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, store);
  char *d = gu_digest(e);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine_free(e);
  char *text = gu_read_file(store);
  CHECK(text && text[0] == '{', "valid JSON object store:\n%s", text ? text : "");
  free(text);
  if (d) check_store_has(store, ws, d);
  CHECK(gu_mode(store) == 0600, "mode %o", gu_mode(store));
  e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "the replaced store approves");
  hl_engine_free(e);
  free(d);
  free(store);
  free(ws);
}

TEST(unreadable_store_reads_as_nothing_approved) {
  char *ws = ws_new("unreadable");
  /* A directory at the store path. */
  char *store = gu_fmt("%s/dir-store.json", g_tmp);
  CHECK(mkdir(store, 0700) == 0, "mkdir");
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK(e != NULL, "engine created");
  CHECK(hl_engine_workspace_hooks_need_approval(e), "a directory at the store path approves nothing");
  CHECK(run_is_skipped(e), "skipped");
  CHECK_STATUS(gu_approve(e, true, NULL), HL_ERR_IO);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "a failed persisting approval approves nothing");
  CHECK(!gu_exists_in(ws, "ran_a"), "hook ran");
  hl_engine_free(e);

  /* A store file without read permission (meaningless for root). */
  if (geteuid() != 0) {
    char *store2 = gu_fmt("%s/noperm-store.json", g_tmp);
    e = gu_engine_ws(ws, true, HOOKS_A, store2);
    CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
    hl_engine_free(e);
    CHECK(chmod(store2, 0000) == 0, "chmod");
    e = gu_engine_ws(ws, true, HOOKS_A, store2);
    CHECK(hl_engine_workspace_hooks_need_approval(e), "an unreadable store approves nothing");
    hl_engine_free(e);
    chmod(store2, 0600);
    free(store2);
  }

  /* A parent that is a file: persisting fails with HL_ERR_IO. */
  char *file = gu_fmt("%s/plain-file", g_tmp);
  gu_write_file(file, "x", 1);
  char *store3 = gu_fmt("%s/trust.json", file);
  e = gu_engine_ws(ws, true, HOOKS_A, store3);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "needs approval");
  CHECK_STATUS(gu_approve(e, true, NULL), HL_ERR_IO);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "nothing approved");
  hl_engine_free(e);
  free(store3); free(file); free(store); free(ws);
}

/* Entries in `dir` whose name ends with ".tmp" (leftover temporary files). */
static int count_tmp_leftovers(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    size_t len = strlen(de->d_name);
    if (len >= 4 && strcmp(de->d_name + len - 4, ".tmp") == 0) n++;
  }
  closedir(d);
  return n;
}

#define PROCS 8
#define ROUNDS 3

TEST(concurrent_processes_persisting_lose_no_record) {
  char *dir = gu_fmt("%s/multi-proc", g_tmp);
  char *store = gu_fmt("%s/trust.json", dir);
  char *wss[PROCS * ROUNDS];
  for (int round = 0; round < ROUNDS; round++) {
    int gate[2];
    CHECK(pipe(gate) == 0, "pipe");
    pid_t pids[PROCS];
    for (int i = 0; i < PROCS; i++) {
      char name[32];
      snprintf(name, sizeof name, "mp-%d-%d", round, i);
      wss[round * PROCS + i] = ws_new(name);
      char *opts = gu_options(wss[round * PROCS + i], true, HOOKS_A, store);
      fflush(NULL);
      pid_t pid = fork();
      if (pid == 0) {
        close(gate[1]);
        char c;
        while (read(gate[0], &c, 1) < 0 && errno == EINTR) {
        }
        hl_engine *e = NULL;
        int rc = 2;
        if (hl_engine_new(opts, &e, NULL) == HL_OK) {
          rc = hl_engine_approve_workspace_hooks(e, true, NULL) == HL_OK ? 0 : 1;
          hl_engine_free(e);
        }
        _exit(rc);
      }
      CHECK(pid > 0, "fork");
      pids[i] = pid;
      free(opts);
    }
    close(gate[0]);
    close(gate[1]); /* releases every child at once */
    for (int i = 0; i < PROCS; i++) {
      int status = 0;
      CHECK(waitpid(pids[i], &status, 0) == pids[i], "waitpid");
      CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d of round %d: status %d", i, round, status);
    }
  }
  /* The store is valid and holds every record. */
  char *text = gu_read_file(store);
  CHECK(text && text[0] == '{', "store:\n%s", text ? text : "(missing)");
  for (int i = 0; i < PROCS * ROUNDS; i++) {
    char *wsj = gu_json_str(wss[i]);
    CHECK(text && gu_count(text, wsj) == 1, "record of %s present once", wss[i]);
    free(wsj);
    hl_engine *e = gu_engine_ws(wss[i], true, HOOKS_A, store);
    CHECK(!hl_engine_workspace_hooks_need_approval(e), "workspace %s approved by the store", wss[i]);
    hl_engine_free(e);
    free(wss[i]);
  }
  CHECK(gu_mode(store) == 0600, "mode %o", gu_mode(store));
  CHECK(count_tmp_leftovers(dir) == 0, "no temporary files left in the store directory");
  free(text);
  free(store);
  free(dir);
}

struct approve_arg {
  hl_engine *e;
  pthread_barrier_t *barrier;
  hl_status st;
};

static void *approve_thread(void *p) {
  struct approve_arg *a = (struct approve_arg *)p;
  pthread_barrier_wait(a->barrier);
  a->st = hl_engine_approve_workspace_hooks(a->e, true, NULL);
  return NULL;
}

#define THREADS 8

TEST(concurrent_threads_persisting_lose_no_record) {
  char *store = gu_fmt("%s/multi-thread/trust.json", g_tmp);
  char *wss[THREADS];
  hl_engine *es[THREADS];
  struct approve_arg args[THREADS];
  pthread_t th[THREADS];
  pthread_barrier_t barrier;
  pthread_barrier_init(&barrier, NULL, THREADS);
  for (int i = 0; i < THREADS; i++) {
    char name[32];
    snprintf(name, sizeof name, "mt-%d", i);
    wss[i] = ws_new(name);
    es[i] = gu_engine_ws(wss[i], true, i % 2 ? HOOKS_A : HOOKS_B, store);
    args[i] = (struct approve_arg){es[i], &barrier, -1};
    pthread_create(&th[i], NULL, approve_thread, &args[i]);
  }
  for (int i = 0; i < THREADS; i++) {
    pthread_join(th[i], NULL);
    CHECK(args[i].st == HL_OK, "thread %d: %s", i, hl_status_name(args[i].st));
    hl_engine_free(es[i]);
  }
  pthread_barrier_destroy(&barrier);
  for (int i = 0; i < THREADS; i++) {
    hl_engine *e = gu_engine_ws(wss[i], true, i % 2 ? HOOKS_A : HOOKS_B, store);
    CHECK(!hl_engine_workspace_hooks_need_approval(e), "workspace %d approved", i);
    hl_engine_free(e);
    e = gu_engine_ws(wss[i], true, i % 2 ? HOOKS_B : HOOKS_A, store);
    CHECK(hl_engine_workspace_hooks_need_approval(e), "workspace %d: the other digest is not approved", i);
    hl_engine_free(e);
    free(wss[i]);
  }
  free(store);
}

int main(void) {
  g_tmp = gu_mkdtemp();
  g_default_store = gu_fmt("%s/default-store/trust.json", g_tmp);
  setenv("HOOKLINE_TRUST_STORE", g_default_store, 1);
  RUN(persist_records_canonical_workspace_and_digest_with_private_modes);
  RUN(new_engine_with_persisted_digest_starts_approved);
  RUN(changed_command_set_is_not_approved_by_the_store);
  RUN(identical_config_on_another_workspace_is_not_approved);
  RUN(latest_approval_replaces_the_earlier_record);
  RUN(hookline_trust_store_env_is_used_when_option_is_absent);
  RUN(xdg_config_home_then_home_are_used_when_no_option_or_env);
  RUN(symlink_at_store_path_fails_persist_with_io_and_approves_nothing);
  RUN(corrupt_store_reads_as_nothing_approved_and_is_replaced_by_persist);
  RUN(unreadable_store_reads_as_nothing_approved);
  RUN(concurrent_processes_persisting_lose_no_record);
  RUN(concurrent_threads_persisting_lose_no_record);
  gu_rmtree(g_tmp);
  free(g_default_store);
  free(g_tmp);
  return DONE();
}
