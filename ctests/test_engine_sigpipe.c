/* Host signal set-ups (docs/c-api.md §11): a C host keeping the DEFAULT SIGPIPE action survives hooks
 * that exit without reading their payload; the library leaves the host's signal dispositions
 * alone; and exit codes keep their meaning whatever the host does with SIGCHLD (a host that
 * ignores SIGCHLD, or reaps children in a handler, is common among C daemons). */
#include "engine_util.h"

static char *big_input(size_t n) {
  const char *head = "{\"tool_name\":\"Bash\",\"tool_input\":{\"data\":\"";
  const char *tail = "\"},\"tool_call_id\":\"big\"}";
  size_t hl = strlen(head), tl = strlen(tail);
  char *s = malloc(hl + n + tl + 1);
  if (!s) abort();
  memcpy(s, head, hl);
  memset(s + hl, 'y', n);
  memcpy(s + hl + n, tail, tl + 1);
  return track(s);
}

static int sigpipe_is_default(void) {
  struct sigaction sa;
  sigaction(SIGPIPE, NULL, &sa);
  return sa.sa_handler == SIG_DFL;
}

TEST(default_sigpipe_host_survives_hooks_that_do_not_read_a_10_mib_payload) {
  ws_begin();
  signal(SIGPIPE, SIG_DFL);
  char *input = big_input(10u << 20);
  /* Sequential event: each hook exits (closing stdin) while the payload is being written. */
  const char *cmds[] = {"exit 0", "exec 0<&-; sleep 0.05", "head -c 1 >/dev/null", NULL};
  hl_engine *e = eng(vt_cmds("pre_tool_use", 20, cmds));
  int ok = 0;
  for (int i = 0; i < 25; i++) {
    jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, input);
    if (o && jlen(o, "hooks") == 3 && jnum(o, "hooks[0].exit_code") == 0 && jnum(o, "hooks[1].exit_code") == 0)
      ok++;
  }
  CHECK(ok == 25, "%d of 25 runs had the expected report", ok);
  hl_engine_free(e);
  /* Concurrent event and async runs. */
  e = eng(vt_cmds("post_tool_use", 20, (const char *[]){"true", "exit 0", "exec 0<&-; sleep 0.01", "true", NULL}));
  char *post = fmt("{\"tool_name\":\"Bash\",\"tool_response\":%s}", jstr(input));
  for (int i = 0; i < 10; i++) run_ev(e, HL_EVENT_POST_TOOL_USE, post);
  hl_engine_free(e);
  CHECK(sigpipe_is_default(), "the library changed the SIGPIPE disposition");
  test_end();
}

static void *thread_runs(void *arg) {
  hl_engine *e = arg;
  char *input = malloc((4u << 20) + 100);
  strcpy(input, "{\"tool_name\":\"Bash\",\"tool_input\":{\"data\":\"");
  size_t n = strlen(input);
  memset(input + n, 'z', 4u << 20);
  strcpy(input + n + (4u << 20), "\"}}");
  for (int i = 0; i < 10; i++) {
    char *out = NULL;
    hl_engine_run(e, HL_EVENT_PRE_TOOL_USE, input, &out, NULL);
    hl_string_free(out);
  }
  free(input);
  return NULL;
}

TEST(default_sigpipe_host_survives_unread_payloads_from_many_threads) {
  ws_begin();
  signal(SIGPIPE, SIG_DFL);
  hl_engine *e = eng(vt_cmds("pre_tool_use", 20, (const char *[]){"exit 0", NULL}));
  pthread_t th[4];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, thread_runs, e);
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  hl_engine_free(e);
  CHECK(sigpipe_is_default(), "the library changed the SIGPIPE disposition");
  test_end();
}

static void on_usr1(int sig) { (void)sig; }

TEST(library_leaves_the_host_signal_dispositions_alone) {
  ws_begin();
  signal(SIGPIPE, SIG_DFL);
  signal(SIGUSR1, on_usr1);
  signal(SIGCHLD, SIG_DFL);
  hl_engine *e = eng(vt_cmds("post_tool_use", 20, (const char *[]){"sleep 0.05", NULL}));
  run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  hl_engine_free(e);
  struct sigaction sa;
  sigaction(SIGUSR1, NULL, &sa);
  CHECK(sa.sa_handler == on_usr1, "SIGUSR1 handler replaced");
  sigaction(SIGCHLD, NULL, &sa);
  CHECK(sa.sa_handler == SIG_DFL, "SIGCHLD disposition changed");
  CHECK(sigpipe_is_default(), "SIGPIPE disposition changed");
  sigset_t cur;
  pthread_sigmask(SIG_BLOCK, NULL, &cur);
  CHECK(!sigismember(&cur, SIGPIPE) && !sigismember(&cur, SIGCHLD), "the calling thread's signal mask was left changed");
  signal(SIGUSR1, SIG_DFL);
  test_end();
}

static void reap_all(int sig) {
  (void)sig;
  int saved = errno;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
  errno = saved;
}

/* Whether the runner backend can lose an exit status to a host that reaps children first. The
 * Linux backend recovers it from the shell's pidfd; the portable backend (HOOKLINE_RUNNER=posix)
 * recovers it from the kqueue exit event on macOS and the BSDs, but on Linux it learns of the exit
 * by waitpid, so the status of a shell the host reaped is unknown there (docs/runner.md): the run
 * reports it as unknown and PreToolUse fails closed. */
static int portable_backend_on_linux(void) {
#ifdef __linux__
  const char *backend = getenv("HOOKLINE_RUNNER");
  return backend && !strcmp(backend, "posix");
#else
  return 0;
#endif
}

enum status_fate { STATUS_KEPT, STATUS_LOST, STATUS_RACE };

static const char *UNKNOWN = "unknown exit status";

/* One PreToolUse run with a hook that denies by exit 2 and one PostToolUse run with a hook that
 * succeeds, under the current SIGCHLD set-up. With the status lost, the deny still holds (fail
 * closed, saying why) and the success reads as an unknown status, never as a failure or a deny. */
static void exit_codes_keep_their_meaning(const char *setup, enum status_fate fate) {
  hl_engine *e = eng(vt_cmds("pre_tool_use", 10, (const char *[]){"sleep 0.1; echo 'policy says no' >&2; exit 2", NULL}));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK(js(o, "decision") && !strcmp(js(o, "decision"), "deny"),
        "%s: a PreToolUse hook exiting 2 did not deny (fail open): %s", setup, jraw(o));
  int lost = jnull(o, "hooks[0].exit_code");
  if (fate == STATUS_KEPT)
    CHECK(jnum(o, "hooks[0].exit_code") == 2, "%s: the exit status was lost: %s", setup, jraw(o));
  if (fate == STATUS_LOST) CHECK(lost, "%s: the portable backend cannot know this status on Linux: %s", setup, jraw(o));
  if (lost) CHECK(jmsg(o, NULL, UNKNOWN) >= 0, "%s: a deny for an unknown status must say so: %s", setup, jraw(o));
  hl_engine_free(e);
  e = eng(vt_cmds("post_tool_use", 10, (const char *[]){"sleep 0.1; echo fine", NULL}));
  o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  lost = jnull(o, "hooks[0].exit_code");
  if (fate == STATUS_LOST) CHECK(lost, "%s: the portable backend cannot know this status on Linux: %s", setup, jraw(o));
  if (fate == STATUS_KEPT || !lost)
    CHECK(jnum(o, "hooks[0].exit_code") == 0 && jmsg_count(o, "warning") == 0 && jmsg_count(o, "error") == 0,
          "%s: a hook exiting 0 was not a success: %s", setup, jraw(o));
  else
    CHECK(jmsg(o, "warning", UNKNOWN) >= 0 && jmsg_count(o, "warning") == 1 && jmsg_count(o, "error") == 0 &&
              jb(o, "continue") == 1 && jnull(o, "block_reason"),
          "%s: an unknown status must be one warning and change nothing else: %s", setup, jraw(o));
  hl_engine_free(e);
}

TEST(pre_tool_use_exit_2_denies_when_the_host_ignores_sigchld) {
  ws_begin();
  signal(SIGCHLD, SIG_IGN);
  exit_codes_keep_their_meaning("SIGCHLD SIG_IGN", portable_backend_on_linux() ? STATUS_LOST : STATUS_KEPT);
  signal(SIGCHLD, SIG_DFL);
  test_end();
}

TEST(pre_tool_use_exit_2_denies_when_the_host_reaps_children_in_a_sigchld_handler) {
  ws_begin();
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = reap_all;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGCHLD, &sa, &old);
  exit_codes_keep_their_meaning("SIGCHLD reaper handler", portable_backend_on_linux() ? STATUS_RACE : STATUS_KEPT);
  sigaction(SIGCHLD, &old, NULL);
  test_end();
}

int main(void) {
  RUN(default_sigpipe_host_survives_hooks_that_do_not_read_a_10_mib_payload);
  RUN(default_sigpipe_host_survives_unread_payloads_from_many_threads);
  RUN(library_leaves_the_host_signal_dispositions_alone);
  RUN(pre_tool_use_exit_2_denies_when_the_host_ignores_sigchld);
  RUN(pre_tool_use_exit_2_denies_when_the_host_reaps_children_in_a_sigchld_handler);
  return DONE();
}
