/* fork(): handles created before the fork return HL_ERR_FORKED in the child instead of hanging;
 * new handles created in the child work (docs/c-api.md §10). */
#include <stdatomic.h>

#include "engine_util.h"

static atomic_int done_calls;
static hl_status done_status;
static void done_fn(void *ud, hl_status st, const char *outcome, const char *errmsg) {
  (void)ud; (void)outcome; (void)errmsg;
  done_status = st;
  atomic_fetch_add(&done_calls, 1);
}

/* Bits of the child's exit code. */
enum {
  C_OLD_RUN = 1,        /* old engine: hl_engine_run did not return HL_ERR_FORKED */
  C_OLD_ASYNC = 2,      /* old engine: hl_engine_run_async did not return HL_ERR_FORKED, or done ran */
  C_NEW_RUN = 4,        /* new engine: sync run failed or the hook did not run */
  C_NEW_ASYNC = 8,      /* new engine: async run did not complete */
  C_OLD_OTHER = 16,     /* old engine: another call neither failed with FORKED nor succeeded */
};

static int32_t noop_cb(void *ud, const char *c, size_t l, hl_reply *r) { return 0; }

/* What the child does; returns the exit code (0 = all good). Every call on the pre-fork handle
 * must return (FORKED or a plain success), never hang: alarm(20) turns a hang into SIGALRM. */
static int child_body(hl_engine *old, int free_old) {
  int code = 0;
  char *out = NULL, *err = NULL;
  hl_status st = hl_engine_run(old, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &out, &err);
  if (st != HL_ERR_FORKED || out != NULL || err == NULL) {
    fprintf(stderr, "  child: old hl_engine_run -> %s (%s)\n", hl_status_name(st), err ? err : "");
    code |= C_OLD_RUN;
  }
  hl_string_free(out);
  hl_string_free(err);
  uint64_t id = 5;
  st = hl_engine_run_async(old, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_fn, NULL, &id, NULL);
  if (st != HL_ERR_FORKED || id != 0) {
    fprintf(stderr, "  child: old hl_engine_run_async -> %s\n", hl_status_name(st));
    code |= C_OLD_ASYNC;
  }
  /* Other calls on the old handle must not hang: FORKED or a plain success. */
  st = hl_engine_cancel(old, 1, NULL);
  if (st != HL_ERR_FORKED && st != HL_ERR_NOT_FOUND) code |= C_OLD_OTHER;
  char *s = NULL;
  st = hl_engine_command_digest(old, &s, NULL);
  if (st != HL_ERR_FORKED && st != HL_OK) code |= C_OLD_OTHER;
  hl_string_free(s);
  st = hl_engine_command_previews(old, &s, NULL);
  if (st != HL_ERR_FORKED && st != HL_OK) code |= C_OLD_OTHER;
  hl_string_free(s);
  st = hl_engine_set_transcript_path(old, "/t/child.jsonl", NULL);
  if (st != HL_ERR_FORKED && st != HL_OK) code |= C_OLD_OTHER;
  st = hl_engine_add_callback_hook(old, HL_EVENT_STOP, NULL, "child", noop_cb, NULL, NULL, NULL);
  if (st != HL_ERR_FORKED && st != HL_OK) code |= C_OLD_OTHER;
  st = hl_engine_reload(old, opts(NULL, NULL), NULL);
  if (st != HL_ERR_FORKED && st != HL_OK) code |= C_OLD_OTHER;
  st = hl_engine_approve_workspace_hooks(old, false, NULL);
  if (st != HL_ERR_FORKED && st != HL_OK) code |= C_OLD_OTHER;
  hl_engine_workspace_gated(old);
  hl_engine_workspace_hooks_need_approval(old);
  if (free_old) hl_engine_free(old);

  /* A new engine in the child works. */
  char *marker = wpath("child.marker");
  hl_engine *e = NULL;
  st = hl_engine_new(opts(vt_cmds("pre_tool_use", 10, (const char *[]){fmt("echo $PPID > '%s'", marker), NULL}), NULL),
                     &e, NULL);
  if (st != HL_OK) return code | C_NEW_RUN | C_NEW_ASYNC;
  out = NULL;
  st = hl_engine_run(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &out, NULL);
  jv *o = out ? jv_parse(out) : NULL;
  if (st != HL_OK || !o || jnum(o, "hooks[0].exit_code") != 0 || !file_exists(marker)) {
    fprintf(stderr, "  child: new engine run -> %s %s\n", hl_status_name(st), out ? out : "");
    code |= C_NEW_RUN;
  }
  jv_free(o);
  hl_string_free(out);
  atomic_store(&done_calls, 0);
  st = hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_fn, NULL, NULL, NULL);
  double end = now_ms() + 10000;
  while (st == HL_OK && atomic_load(&done_calls) == 0 && now_ms() < end) sleep_ms(5);
  if (st != HL_OK || atomic_load(&done_calls) != 1 || done_status != HL_OK) code |= C_NEW_ASYNC;
  hl_engine_free(e);
  return code;
}

/* Fork, run child_body in the child, and return its result code (-signal if it died before
 * reporting, -1000 if it hung past 30 s). */
static int fork_and_check(hl_engine *old, int free_old) {
  fflush(stdout);
  fflush(stderr);
  int fds[2];
  CHECK(pipe(fds) == 0, "pipe");
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    alarm(20); /* a hang kills the child with SIGALRM */
    unsigned char code = (unsigned char)child_body(old, free_old);
    if (write(fds[1], &code, 1) != 1) _exit(100);
    /* Under valgrind the child's exit would run a leak check that counts the parent's runtime
     * threads (absent in the child) as lost: end without one, the result is in the pipe. */
    if (under_valgrind()) kill(getpid(), SIGKILL);
    _exit(code);
  }
  close(fds[1]);
  CHECK(pid > 0, "fork failed");
  int status = 0;
  double end = now_ms() + 30000;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (now_ms() > end) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      close(fds[0]);
      return -1000;
    }
    sleep_ms(10);
  }
  unsigned char code = 0;
  ssize_t got = read(fds[0], &code, 1);
  close(fds[0]);
  if (got != 1) return WIFSIGNALED(status) ? -WTERMSIG(status) : 200 + WEXITSTATUS(status);
  if (!under_valgrind() && (!WIFEXITED(status) || WEXITSTATUS(status) != code)) return 300;
  return code;
}

TEST(engine_used_before_fork_returns_forked_in_child_and_new_engine_works) {
  ws_begin();
  hl_engine *e = eng(vt_cmds("pre_tool_use", 10, (const char *[]){"true", NULL}));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT); /* the runtime is running now */
  CHECK_LEN(o, "hooks", 1);
  int code = fork_and_check(e, 0);
  CHECK(code == 0, "child exit code %d (bits: 1 old run, 2 old async, 4 new run, 8 new async, 16 other; "
                   "negative: killed by signal, -14 = hang)", code);
  /* The parent's engine still works. */
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_NUM(o, "hooks[0].exit_code", 0);
  hl_engine_free(e);
  test_end();
}

TEST(engine_never_run_before_fork_returns_forked_in_child) {
  ws_begin();
  hl_engine *e = eng(vt_cmds("pre_tool_use", 10, (const char *[]){"true", NULL}));
  int code = fork_and_check(e, 0);
  CHECK(code == 0, "child exit code %d", code);
  hl_engine_free(e);
  test_end();
}

TEST(freeing_a_pre_fork_engine_in_the_child_does_not_hang) {
  ws_begin();
  hl_engine *e = eng(vt_cmds("pre_tool_use", 10, (const char *[]){"true", NULL}));
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  int code = fork_and_check(e, 1);
  CHECK(code == 0, "child exit code %d (-14: hl_engine_free hung in the child)", code);
  hl_engine_free(e);
  test_end();
}

TEST(fork_with_a_run_in_flight_in_the_parent) {
  ws_begin();
  hl_engine *e = eng(vt_cmds("post_tool_use", 10, (const char *[]){"sleep 1", NULL}));
  atomic_store(&done_calls, 0);
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_POST_TOOL_USE, POST_INPUT, done_fn, NULL, NULL, NULL), HL_OK);
  sleep_ms(200);
  int code = fork_and_check(e, 0);
  CHECK(code == 0, "child exit code %d", code);
  double end = now_ms() + 10000;
  while (atomic_load(&done_calls) == 0 && now_ms() < end) sleep_ms(10);
  CHECK(atomic_load(&done_calls) == 1 && done_status == HL_OK, "parent's in-flight run: done %d status %s",
        atomic_load(&done_calls), hl_status_name(done_status));
  hl_engine_free(e);
  test_end();
}

int main(void) {
  alarm(200);
  RUN(engine_used_before_fork_returns_forked_in_child_and_new_engine_works);
  RUN(engine_never_run_before_fork_returns_forked_in_child);
  RUN(freeing_a_pre_fork_engine_in_the_child_does_not_hang);
  RUN(fork_with_a_run_in_flight_in_the_parent);
  return DONE();
}
