/* Faults that must not hurt the host (docs/protocol.md §8, docs/hardening.md): hangs, grandchildren holding the pipes,
 * floods, unread payloads, signals, invalid UTF-8, background processes. Each run returns within
 * its timeout plus a small margin, leaves no zombie child and no stray process. */
#include "engine_util.h"

static hl_engine *eng1(hl_event ev, const char *cmd, int timeout, const char *extra) {
  return eng_new(opts(vt_cmds(eu_keys[ev], timeout, (const char *[]){cmd, NULL}), extra));
}

/* Number of open file descriptors of this process. */
static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  if (!d) return -1;
  while (readdir(d)) n++;
  closedir(d);
  return n;
}

#define CHECK_NO_ZOMBIE() CHECK(zombie_children() == 0, "%d zombie children after the run", zombie_children())
#define CHECK_GONE(pid)                                                                       \
  do {                                                                                        \
    pid_t gp_ = (pid);                                                                        \
    CHECK(gp_ > 0, "hook did not record its pid");                                            \
    CHECK(wait_pid_gone(gp_, 2000), "process %d still alive after the run", (int)gp_);        \
    if (gp_ > 0 && pid_alive(gp_)) kill(gp_, SIGKILL);                                        \
  } while (0)

/* A tool input whose tool_input.data is a string of n bytes. */
static char *big_input(size_t n) {
  const char *head = "{\"tool_name\":\"Bash\",\"tool_input\":{\"data\":\"";
  const char *tail = "\"},\"tool_call_id\":\"big\"}";
  size_t hl = strlen(head), tl = strlen(tail);
  char *s = malloc(hl + n + tl + 1);
  if (!s) abort();
  memcpy(s, head, hl);
  memset(s + hl, 'x', n);
  memcpy(s + hl + n, tail, tl + 1);
  return track(s);
}

TEST(hook_that_sleeps_forever_is_killed_at_timeout) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE,
                      fmt("echo $$ > '%s'; sleep 1000 & echo $! > '%s'; wait", wpath("sh.pid"), wpath("gc.pid")), 1, NULL);
  double t0 = now_ms();
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  double dt = now_ms() - t0;
  CHECK(dt < 3000, "run took %.0f ms with timeout 1 s", dt);
  CHECK_STR(o, "decision", "deny");
  CHECK_BOOL(o, "hooks[0].timed_out", 1);
  CHECK_NO_ZOMBIE();
  CHECK_GONE(read_pid(wpath("sh.pid"), 0));
  CHECK_GONE(read_pid(wpath("gc.pid"), 0));
  hl_engine_free(e);
  test_end();
}

TEST(grandchild_holding_stdout_is_killed_and_run_returns) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_POST_TOOL_USE, fmt("sleep 1000 & echo $! > '%s'; echo started; sleep 1000", wpath("gc.pid")),
                      1, NULL);
  double t0 = now_ms();
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  double dt = now_ms() - t0;
  CHECK(dt < 3000, "run took %.0f ms with timeout 1 s", dt);
  CHECK_BOOL(o, "hooks[0].timed_out", 1);
  CHECK_NULL(o, "hooks[0].exit_code");
  CHECK_MSG(o, "error", "timed out");
  CHECK_NO_ZOMBIE();
  CHECK_GONE(read_pid(wpath("gc.pid"), 0));
  hl_engine_free(e);
  test_end();
}

TEST(grandchild_in_another_session_holding_pipes_does_not_block_the_run) {
  ws_begin();
  /* setsid moves the grandchild out of the hook's process group: the group kill cannot reach
   * it, yet the run must return promptly although it still holds stdout and stderr. */
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, fmt("setsid sleep 30 & echo $! > '%s'; sleep 1000", wpath("gc.pid")), 1,
                      NULL);
  double t0 = now_ms();
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  double dt = now_ms() - t0;
  CHECK(dt < 3000, "run took %.0f ms with timeout 1 s", dt);
  CHECK_STR(o, "decision", "deny");
  CHECK_NO_ZOMBIE();
  pid_t gc = read_pid(wpath("gc.pid"), 0);
  if (gc > 0) kill(gc, SIGKILL);
  hl_engine_free(e);
  test_end();
}

static volatile int rss_stop;
static long rss_peak;
static void *rss_sampler(void *arg) {
  (void)arg;
  while (!rss_stop) {
    long kb = vmrss_kb();
    if (kb > rss_peak) rss_peak = kb;
    sleep_ms(5);
  }
  return NULL;
}

TEST(one_gib_of_stdout_is_capped_with_bounded_memory) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_POST_TOOL_USE, "head -c 1073741824 /dev/zero", 60, NULL);
  long base = vmrss_kb();
  rss_stop = 0;
  rss_peak = base;
  pthread_t th;
  pthread_create(&th, NULL, rss_sampler, NULL);
  double t0 = now_ms();
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  double dt = now_ms() - t0;
  rss_stop = 1;
  pthread_join(th, NULL);
  CHECK(dt < 62000, "run took %.0f ms with timeout 60 s", dt);
  CHECK_BOOL(o, "hooks[0].stdout_truncated", 1);
  CHECK_BOOL(o, "hooks[0].timed_out", 0);
  CHECK_NUM(o, "hooks[0].exit_code", 0);
  /* What the design guarantees for a 1 MiB cap (the default max_output_bytes):
     at most the cap per stream in the runner, the decoded text and the outcome
     JSON built from it (NUL bytes escape to 6 bytes each), and this test's own
     parse of that outcome: about 10 x the cap, so 16 x is the bound. Under
     AddressSanitizer freed memory stays in its quarantine (256 MiB by default)
     and counts as resident, so the bound adds that. */
  long cap_kib = 1024, bound_kib = 16 * cap_kib;
#if defined(__SANITIZE_ADDRESS__)
  bound_kib += 256 * 1024;
#endif
  CHECK(rss_peak - base < bound_kib, "RSS grew by %ld KiB (base %ld KiB, peak %ld KiB; bound %ld KiB)", rss_peak - base,
        base, rss_peak, bound_kib);
  fprintf(stderr, "  1 GiB flood: %.0f ms, RSS +%ld KiB\n", dt, rss_peak - base);
  CHECK_NO_ZOMBIE();
  hl_engine_free(e);
  test_end();
}

TEST(stderr_flood_is_capped) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, "head -c 67108864 /dev/zero | tr '\\0' e >&2; exit 2", 60,
                      "\"max_output_bytes\":4096");
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_BOOL(o, "hooks[0].stderr_truncated", 1);
  CHECK_STR(o, "decision", "deny");
  const char *r = js(o, "reason");
  CHECK(r && strlen(r) <= 4096 && strlen(r) > 1000, "deny reason length %zu", r ? strlen(r) : 0);
  CHECK_NO_ZOMBIE();
  hl_engine_free(e);
  test_end();
}

TEST(hook_that_never_reads_a_10_mib_payload_is_fine) {
  ws_begin();
  char *input = big_input(10u << 20);
  const char *bodies[] = {"exit 0", "sleep 0.2; exit 0", "exec 0<&-; sleep 0.1; echo closed-stdin",
                          "head -c 10 > /dev/null; echo read-ten"};
  for (int i = 0; i < 4; i++) {
    hl_engine *e = eng1(HL_EVENT_PRE_TOOL_USE, bodies[i], 10, NULL);
    double t0 = now_ms();
    jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, input);
    double dt = now_ms() - t0;
    CHECK(dt < 8000, "'%s': run took %.0f ms", bodies[i], dt);
    CHECK(jnum(o, "hooks[0].exit_code") == 0, "'%s': %s", bodies[i], jraw(o));
    CHECK_BOOL(o, "hooks[0].timed_out", 0);
    hl_engine_free(e);
  }
  /* Concurrent event: several hooks that do not read. */
  const char *cmds[] = {"true", "exit 0", "sleep 0.1", "true", NULL};
  hl_engine *e = eng_new(opts(vt_cmds("post_tool_use", 10, cmds), NULL));
  char *post = fmt("{\"tool_name\":\"Bash\",\"tool_response\":%s}", jstr(input));
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, post);
  CHECK_LEN(o, "hooks", 4);
  hl_engine_free(e);
  CHECK_NO_ZOMBIE();
  test_end();
}

TEST(hooks_killed_by_signals_leave_no_zombie) {
  ws_begin();
  const char *cmds[] = {"kill -KILL $$", "kill -SEGV $$", "kill -ABRT $$", "kill -PIPE $$", NULL};
  const int sigs[] = {9, 11, 6, 13};
  hl_engine *e = eng_new(opts(vt_cmds("notification", 10, cmds), NULL));
  jv *o = run_ev(e, HL_EVENT_NOTIFICATION, NOTIF_INPUT);
  for (int i = 0; i < 4; i++) {
    CHECK_NULL(o, fmt("hooks[%d].exit_code", i));
    CHECK_NUM(o, fmt("hooks[%d].signal", i), sigs[i]);
  }
  CHECK(jmsg_count(o, "error") >= 4, "each signal-killed hook should give an error: %s", jraw(o));
  CHECK_NO_ZOMBIE();
  hl_engine_free(e);
  test_end();
}

TEST(invalid_utf8_output_is_decoded_lossily_into_valid_json) {
  ws_begin();
  hl_engine *e = eng1(HL_EVENT_POST_TOOL_USE, "printf '\\377\\376 plain'", 10, NULL);
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK(o != NULL, "outcome is not valid JSON");
  CHECK_MSG(o, "info", "\xEF\xBF\xBD");
  CHECK_MSG(o, "info", " plain");
  hl_engine_free(e);
  e = eng1(HL_EVENT_PRE_TOOL_USE, "printf 'bad \\300 byte' >&2; exit 2", 10, NULL);
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "deny");
  CHECK_STR(o, "reason", "bad \xEF\xBF\xBD byte");
  hl_engine_free(e);
  e = eng1(HL_EVENT_SESSION_START, "printf '{\"systemMessage\":\"a\\377b\",\"hookSpecificOutput\":{"
                                   "\"additionalContext\":\"c\\376d\"}}'",
           10, NULL);
  o = run_ev(e, HL_EVENT_SESSION_START, "{}");
  CHECK_MSG(o, "info", "a\xEF\xBF\xBD" "b");
  CHECK_STR(o, "additional_context[0]", "c\xEF\xBF\xBD" "d");
  hl_engine_free(e);
  CHECK_NO_ZOMBIE();
  test_end();
}

TEST(background_process_is_not_waited_for_nor_killed) {
  ws_begin();
  char *marker = wpath("late.marker");
  hl_engine *e = eng1(HL_EVENT_POST_TOOL_USE, fmt("(sleep 3; touch '%s'; echo late) & echo now", marker), 30, NULL);
  double t0 = now_ms();
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  double dt = now_ms() - t0;
  CHECK(dt < 2500, "run waited for the background process: %.0f ms", dt);
  CHECK_MSG(o, "info", "now");
  CHECK_NO_MSG(o, NULL, "late");
  CHECK_NUM(o, "hooks[0].exit_code", 0);
  CHECK_BOOL(o, "hooks[0].timed_out", 0);
  CHECK_NO_ZOMBIE();
  CHECK(wait_file(marker, 6000), "the background process was killed (fire-and-forget must stay possible)");
  hl_engine_free(e);
  test_end();
}

TEST(faulty_runs_leak_no_file_descriptors) {
  ws_begin();
  const char *cmds[] = {"sleep 1000 & sleep 1000", "kill -9 $$", "printf '\\377'; exit 3",
                        "head -c 3000000 /dev/zero", "exec 0<&- 1>&- 2>&-; sleep 1000", NULL};
  hl_engine *e = eng_new(opts(vt_cmds("post_tool_use", 1, cmds), "\"max_output_bytes\":1000"));
  run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT); /* warm up the runtime */
  int before = open_fds();
  for (int i = 0; i < 3; i++) run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  int after = open_fds();
  CHECK(after == before, "open fds %d before, %d after", before, after);
  CHECK_NO_ZOMBIE();
  hl_engine_free(e);
  test_end();
}

TEST(concurrent_hooks_time_out_together_not_one_after_another) {
  ws_begin();
  const char *cmds[] = {"trap '' TERM INT HUP; sleep 1000", "sleep 1000", "sleep 1000 & sleep 1000", "echo fast", NULL};
  hl_engine *e = eng_new(opts(vt_cmds("notification", 1, cmds), NULL));
  double t0 = now_ms();
  jv *o = run_ev(e, HL_EVENT_NOTIFICATION, NOTIF_INPUT);
  double dt = now_ms() - t0;
  CHECK(dt < 3000, "three 1 s timeouts took %.0f ms", dt);
  for (int i = 0; i < 3; i++) CHECK_BOOL(o, fmt("hooks[%d].timed_out", i), 1);
  CHECK_BOOL(o, "hooks[3].timed_out", 0);
  CHECK_MSG(o, "info", "fast");
  CHECK_NO_ZOMBIE();
  hl_engine_free(e);
  test_end();
}

TEST(hook_that_cannot_be_started_gives_an_error_message) {
  ws_begin();
  /* The workspace disappears after the engine was created. */
  mkdir(wpath("gone"), 0700);
  hl_engine *e = eng_new(fmt("{\"workspace\":%s,\"session_id\":\"s\",\"hooks\":%s}", jstr(wpath("gone")),
                             vt_cmds("post_tool_use", 5, (const char *[]){"echo hi", NULL})));
  rmdir(wpath("gone"));
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK(jmsg_count(o, "error") >= 1, "no error for a hook that could not start: %s", jraw(o));
  CHECK_NULL(o, "hooks[0].exit_code");
  hl_engine_free(e);
  /* A command longer than the kernel allows for one argument (E2BIG). */
  char *big = malloc(300001);
  memset(big, 'x', 300000);
  big[300000] = 0;
  e = eng(vt_cmds("post_tool_use", 5, (const char *[]){fmt("echo %s", big), NULL}));
  free(big);
  o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK(jmsg_count(o, "error") >= 1, "no error for an unstartable command");
  CHECK_NO_ZOMBIE();
  hl_engine_free(e);
  test_end();
}

int main(void) {
  RUN(hook_that_sleeps_forever_is_killed_at_timeout);
  RUN(grandchild_holding_stdout_is_killed_and_run_returns);
  RUN(concurrent_hooks_time_out_together_not_one_after_another);
  RUN(grandchild_in_another_session_holding_pipes_does_not_block_the_run);
  RUN(one_gib_of_stdout_is_capped_with_bounded_memory);
  RUN(stderr_flood_is_capped);
  RUN(hook_that_never_reads_a_10_mib_payload_is_fine);
  RUN(hooks_killed_by_signals_leave_no_zombie);
  RUN(invalid_utf8_output_is_decoded_lossily_into_valid_json);
  RUN(background_process_is_not_waited_for_nor_killed);
  RUN(faulty_runs_leak_no_file_descriptors);
  RUN(hook_that_cannot_be_started_gives_an_error_message);
  CHECK(zombie_children() == 0, "zombies at exit");
  return DONE();
}
