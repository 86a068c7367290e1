/* Engine runs: async runs, cancel, free with runs in flight, threads, re-entrancy, and the
 * concurrent/sequential execution of hooks (docs/c-api.md §4, §7-§9; docs/protocol.md §8). */
#include <stdatomic.h>

#include "engine_util.h"

static pthread_t main_thread;

/* ----------------------------------------------------------- done helper */

enum { DONE_PLAIN, DONE_RUN_SYNC, DONE_RUN_ASYNC, DONE_FREE_ENGINE };

typedef struct done_t {
  atomic_int calls;
  hl_status st;
  int had_outcome, had_err;
  char *outcome;
  pthread_t th;
  int mode;
  hl_engine *eng;        /* for the modes that call back into the engine */
  hl_status inner;       /* status of that call */
  struct done_t *nested; /* done of a nested async run */
} done_t;

static void done_fn(void *ud, hl_status st, const char *outcome, const char *errmsg) {
  done_t *d = ud;
  d->st = st;
  d->had_outcome = outcome != NULL;
  d->had_err = errmsg != NULL;
  d->th = pthread_self();
  if (outcome && !d->outcome) d->outcome = strdup(outcome);
  if (d->mode == DONE_RUN_SYNC) {
    char *out = NULL;
    d->inner = hl_engine_run(d->eng, HL_EVENT_SESSION_END, SEND_INPUT, &out, NULL);
    hl_string_free(out);
  } else if (d->mode == DONE_RUN_ASYNC) {
    d->inner = hl_engine_run_async(d->eng, HL_EVENT_SESSION_END, SEND_INPUT, done_fn, d->nested, NULL, NULL);
  } else if (d->mode == DONE_FREE_ENGINE) {
    hl_engine_free(d->eng);
    d->inner = HL_OK;
  }
  atomic_fetch_add(&d->calls, 1);
}

static int wait_calls(atomic_int *c, int want, int ms) {
  double end = now_ms() + ms;
  while (atomic_load(c) < want) {
    if (now_ms() > end) return 0;
    sleep_ms(5);
  }
  return 1;
}

static void done_clear(done_t *d) { free(d->outcome); d->outcome = NULL; }

/* ------------------------------------------------------- callback helper */

typedef struct {
  atomic_int calls;
  atomic_int frees;
  atomic_int in_flight;
  atomic_int freed_while_in_flight;
  pthread_t th;
  int sleep_ms;
  hl_engine *eng;
  int reenter; /* 1: call back into the engine */
  hl_status st_add, st_async, st_run, st_reload, st_tp;
  done_t nested_done;
  int depth;
} cb_t;

static int32_t cb_fn(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  cb_t *c = ud;
  atomic_fetch_add(&c->in_flight, 1);
  c->th = pthread_self();
  if (c->sleep_ms) sleep_ms(c->sleep_ms);
  atomic_fetch_add(&c->calls, 1);
  atomic_fetch_sub(&c->in_flight, 1);
  return 0;
}
static void cb_free(void *ud) {
  cb_t *c = ud;
  if (atomic_load(&c->in_flight)) atomic_fetch_add(&c->freed_while_in_flight, 1);
  atomic_fetch_add(&c->frees, 1);
}

static const char *reload_opts; /* options used by the re-entrant reload */

static int32_t reentrant_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  cb_t *c = ud;
  c->th = pthread_self();
  atomic_fetch_add(&c->calls, 1);
  if (c->depth++ > 0) return 0; /* the nested sync run calls us again: do not recurse further */
  static cb_t extra;
  c->st_add = hl_engine_add_callback_hook(c->eng, HL_EVENT_NOTIFICATION, NULL, "added-inside", cb_fn, &extra, NULL, NULL);
  c->st_async = hl_engine_run_async(c->eng, HL_EVENT_NOTIFICATION, NOTIF_INPUT, done_fn, &c->nested_done, NULL, NULL);
  char *out = NULL;
  c->st_run = hl_engine_run(c->eng, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &out, NULL);
  hl_string_free(out);
  c->st_tp = hl_engine_set_transcript_path(c->eng, "/t/inside.jsonl", NULL);
  c->st_reload = reload_opts ? hl_engine_reload(c->eng, reload_opts, NULL) : HL_OK;
  return 0;
}

/* ------------------------------------------------------------------ tests */

#define N_RUNS 1000
#define N_THREADS 8

static done_t many_done[N_RUNS];
static uint64_t many_ids[N_RUNS];
static atomic_int many_submit_fail;
static hl_engine *many_engine;
static int n_runs = N_RUNS; /* fewer under valgrind: its default thread limit (500) is below the runtime's blocking pool */

static void *submit_thread(void *arg) {
  int t = (int)(intptr_t)arg;
  for (int i = t; i < n_runs; i += N_THREADS) {
    char *err = NULL;
    hl_status st = hl_engine_run_async(many_engine, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_fn, &many_done[i],
                                       &many_ids[i], &err);
    if (st != HL_OK) {
      atomic_fetch_add(&many_submit_fail, 1);
      fprintf(stderr, "  run_async %d: %s %s\n", i, hl_status_name(st), err ? err : "");
    }
    hl_string_free(err);
  }
  return NULL;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

TEST(thousand_async_runs_from_8_threads_call_done_exactly_once) {
  ws_begin();
  many_engine = eng(vt_cmds("pre_tool_use", 30, (const char *[]){"true", NULL}));
  cb_t cb = {0};
  CHECK_STATUS(hl_engine_add_callback_hook(many_engine, HL_EVENT_PRE_TOOL_USE, NULL, "count", cb_fn, &cb, cb_free, NULL),
               HL_OK);
  n_runs = under_valgrind() ? 200 : N_RUNS;
  memset(many_done, 0, sizeof many_done);
  memset(many_ids, 0, sizeof many_ids);
  pthread_t th[N_THREADS];
  double t0 = now_ms();
  for (int t = 0; t < N_THREADS; t++) pthread_create(&th[t], NULL, submit_thread, (void *)(intptr_t)t);
  for (int t = 0; t < N_THREADS; t++) pthread_join(th[t], NULL);
  CHECK(atomic_load(&many_submit_fail) == 0, "%d submissions failed", atomic_load(&many_submit_fail));
  int all = 1;
  double end = now_ms() + 90000;
  for (int i = 0; i < n_runs && now_ms() < end; i++)
    while (atomic_load(&many_done[i].calls) == 0 && now_ms() < end) sleep_ms(2);
  double dt = now_ms() - t0;
  int missing = 0;
  for (int i = 0; i < n_runs; i++) missing += atomic_load(&many_done[i].calls) == 0;
  CHECK(missing == 0, "%d of %d runs had no done after 90 s", missing, n_runs);
  /* hl_engine_free returns after every pending done, so a second call to any
     done would be counted below. */
  hl_engine_free(many_engine);
  int bad_count = 0, bad_status = 0;
  for (int i = 0; i < n_runs; i++) {
    if (atomic_load(&many_done[i].calls) != 1) bad_count++;
    if (many_done[i].st != HL_OK || !many_done[i].had_outcome || many_done[i].had_err) bad_status++;
    if (many_done[i].outcome && (!strstr(many_done[i].outcome, "\"decision\":\"continue\"") ||
                                 !strstr(many_done[i].outcome, "\"kind\":\"command\",\"command\":\"true\"") ||
                                 !strstr(many_done[i].outcome, "\"kind\":\"callback\",\"command\":null,\"name\":\"count\"")))
      bad_status++;
    if (pthread_equal(many_done[i].th, main_thread)) all = 0;
    done_clear(&many_done[i]);
  }
  CHECK(bad_count == 0, "%d runs did not get exactly one done", bad_count);
  CHECK(bad_status == 0, "%d runs had a bad status/outcome", bad_status);
  CHECK(all, "a done ran on the main thread");
  CHECK(atomic_load(&cb.calls) == n_runs, "callback hook ran %d times", atomic_load(&cb.calls));
  qsort(many_ids, n_runs, sizeof many_ids[0], cmp_u64);
  int dup = 0;
  for (int i = 0; i < n_runs; i++) {
    if (many_ids[i] == 0) dup++;
    if (i && many_ids[i] == many_ids[i - 1]) dup++;
  }
  CHECK(dup == 0, "%d zero or duplicate run ids", dup);
  fprintf(stderr, "  %d async runs in %.0f ms\n", n_runs, dt);
  CHECK(atomic_load(&cb.frees) == 1, "callback user_data freed %d times", atomic_load(&cb.frees));
  CHECK(zombie_children() == 0, "zombies after the async runs");
  test_end();
}

TEST(cancel_in_flight_kills_the_hook_and_done_gets_cancelled) {
  ws_begin();
  char *pidf = wpath("hook.pid");
  hl_engine *e = eng(vt_cmds("pre_tool_use", 0, (const char *[]){fmt("echo $$ > '%s'; sleep 1000", pidf), NULL}));
  done_t d = {0};
  uint64_t id = 0;
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_fn, &d, &id, NULL), HL_OK);
  CHECK(id != 0, "run id 0");
  pid_t pid = read_pid(pidf, 10000);
  CHECK(pid > 0, "hook did not start");
  CHECK(atomic_load(&d.calls) == 0, "done called before cancel");
  double t0 = now_ms();
  char *err = NULL;
  CHECK_STATUS(hl_engine_cancel(e, id, &err), HL_OK);
  CHECK(err == NULL, "errmsg set on success");
  CHECK(wait_calls(&d.calls, 1, 3000), "done not called within 3 s of cancel");
  CHECK(now_ms() - t0 < 3000, "cancel took %.0f ms", now_ms() - t0);
  CHECK(d.st == HL_ERR_CANCELLED, "done status %s", hl_status_name(d.st));
  CHECK(!d.had_outcome && d.had_err, "cancelled done: outcome %d errmsg %d", d.had_outcome, d.had_err);
  CHECK(!pthread_equal(d.th, main_thread), "done ran on the caller thread");
  CHECK(wait_pid_gone(pid, 2000), "hook process %d survived the cancel", (int)pid);
  double zend = now_ms() + 2000;
  while (zombie_children() && now_ms() < zend) sleep_ms(20);
  CHECK(zombie_children() == 0, "zombie after cancel");
  CHECK_STATUS(hl_engine_cancel(e, id, NULL), HL_ERR_NOT_FOUND);
  hl_engine_free(e); /* returns after every pending done */
  CHECK(atomic_load(&d.calls) == 1, "done called %d times", atomic_load(&d.calls));
  done_clear(&d);
  test_end();
}

TEST(cancel_of_unknown_or_finished_run_is_not_found) {
  ws_begin();
  hl_engine *e = eng(vt_cmds("pre_tool_use", 0, (const char *[]){"true", NULL}));
  char *err = NULL;
  CHECK_STATUS(hl_engine_cancel(e, 0, NULL), HL_ERR_NOT_FOUND);
  CHECK_STATUS(hl_engine_cancel(e, 987654321ull, &err), HL_ERR_NOT_FOUND);
  CHECK(err != NULL, "no errmsg for NOT_FOUND");
  hl_string_free(err);
  done_t d = {0};
  uint64_t id = 0;
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_fn, &d, &id, NULL), HL_OK);
  CHECK(wait_calls(&d.calls, 1, 10000), "done not called");
  /* Once done has been called the run has left the run table. */
  CHECK_STATUS(hl_engine_cancel(e, id, NULL), HL_ERR_NOT_FOUND);
  CHECK(d.st == HL_OK, "status %s", hl_status_name(d.st));
  CHECK(atomic_load(&d.calls) == 1, "done called %d times", atomic_load(&d.calls));
  hl_engine_free(e);
  done_clear(&d);
  test_end();
}

TEST(free_with_runs_in_flight_cancels_them_before_returning) {
  ws_begin();
  hl_engine *e = eng(vt_cmds("post_tool_use", 0, (const char *[]){fmt("echo $$ >> '%s'; sleep 1000", wpath("pids")), NULL}));
  cb_t slow = {.sleep_ms = 500};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_NOTIFICATION, NULL, "slow", cb_fn, &slow, cb_free, NULL), HL_OK);
  done_t d[8];
  memset(d, 0, sizeof d);
  for (int i = 0; i < 5; i++)
    CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_POST_TOOL_USE, POST_INPUT, done_fn, &d[i], NULL, NULL), HL_OK);
  for (int i = 5; i < 8; i++)
    CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_NOTIFICATION, NOTIF_INPUT, done_fn, &d[i], NULL, NULL), HL_OK);
  /* Wait until the five hooks are running and a callback is in flight. */
  double end = now_ms() + 10000;
  for (;;) {
    char *t = read_file(wpath("pids"));
    int lines = 0;
    for (const char *p = t; p && *p; p++) lines += *p == '\n';
    if (lines >= 5 && atomic_load(&slow.in_flight) > 0) break;
    if (now_ms() > end) {
      CHECK(0, "after 10 s: %d of 5 hooks running, %d callbacks in flight", lines, atomic_load(&slow.in_flight));
      break;
    }
    sleep_ms(10);
  }
  double t0 = now_ms();
  hl_engine_free(e);
  double dt = now_ms() - t0;
  CHECK(dt < 5000, "hl_engine_free took %.0f ms", dt);
  for (int i = 0; i < 5; i++) {
    CHECK(atomic_load(&d[i].calls) == 1, "run %d: done called %d times before free returned", i,
          atomic_load(&d[i].calls));
    CHECK(d[i].st == HL_ERR_CANCELLED, "run %d: status %s", i, hl_status_name(d[i].st));
  }
  for (int i = 5; i < 8; i++) {
    CHECK(atomic_load(&d[i].calls) == 1, "callback run %d: done called %d times before free returned", i,
          atomic_load(&d[i].calls));
    CHECK(d[i].st == HL_ERR_CANCELLED || d[i].st == HL_OK, "callback run %d: status %s", i, hl_status_name(d[i].st));
  }
  /* free_user_data: exactly once, never while the callback is in flight. */
  end = now_ms() + 3000;
  while (atomic_load(&slow.frees) == 0 && now_ms() < end) sleep_ms(10);
  CHECK(atomic_load(&slow.frees) == 1, "slow callback freed %d times", atomic_load(&slow.frees));
  CHECK(atomic_load(&slow.freed_while_in_flight) == 0, "user_data freed while the callback was running");
  char *t = read_file(wpath("pids"));
  for (char *p = t; p && *p;) {
    pid_t pid = (pid_t)atol(p);
    CHECK(wait_pid_gone(pid, 2000), "hook %d survived hl_engine_free", (int)pid);
    p = strchr(p, '\n');
    if (p) p++;
  }
  for (int i = 0; i < 8; i++) {
    CHECK(atomic_load(&d[i].calls) == 1, "run %d: done called %d times", i, atomic_load(&d[i].calls));
    done_clear(&d[i]);
  }
  test_end();
}

static atomic_int slow_entered;
static int32_t slow_deny_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  atomic_store(&slow_entered, 1);
  sleep_ms(800);
  hl_reply_allow(reply);
  return 0;
}

TEST(cancel_while_a_callback_hook_runs_still_reports_cancelled) {
  ws_begin();
  hl_engine *e = eng(NULL);
  atomic_store(&slow_entered, 0);
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, NULL, "slow", slow_deny_cb, NULL, NULL, NULL), HL_OK);
  done_t d = {0};
  uint64_t id = 0;
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_fn, &d, &id, NULL), HL_OK);
  double end = now_ms() + 5000;
  while (!atomic_load(&slow_entered) && now_ms() < end) sleep_ms(2);
  CHECK(atomic_load(&slow_entered), "the callback hook did not start within 5 s");
  CHECK_STATUS(hl_engine_cancel(e, id, NULL), HL_OK);
  CHECK(wait_calls(&d.calls, 1, 5000), "done not called");
  CHECK(d.st == HL_ERR_CANCELLED, "done status %s after cancel during a callback", hl_status_name(d.st));
  hl_engine_free(e); /* returns after every pending done */
  CHECK(atomic_load(&d.calls) == 1, "done called %d times", atomic_load(&d.calls));
  done_clear(&d);
  test_end();
}

TEST(cancel_stops_the_later_hooks_of_a_sequential_run) {
  ws_begin();
  char *pidf = wpath("hook.pid"), *marker = wpath("later.marker");
  hl_engine *e = eng(vt_cmds("pre_tool_use", 0,
                             (const char *[]){fmt("echo $$ > '%s'; sleep 1000", pidf), fmt("touch '%s'", marker), NULL}));
  done_t d = {0};
  uint64_t id = 0;
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_fn, &d, &id, NULL), HL_OK);
  pid_t pid = read_pid(pidf, 10000);
  CHECK_STATUS(hl_engine_cancel(e, id, NULL), HL_OK);
  CHECK(wait_calls(&d.calls, 1, 3000), "done not called");
  CHECK(d.st == HL_ERR_CANCELLED, "status %s", hl_status_name(d.st));
  CHECK(wait_pid_gone(pid, 2000), "hook survived the cancel");
  /* done was called, so the run is over: a later hook could only have run before it. */
  CHECK(!file_exists(marker), "a hook after the cancelled one ran");
  hl_engine_free(e);
  done_clear(&d);
  test_end();
}

static atomic_int sleepy_in;
static int32_t sleepy_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  atomic_fetch_add(&sleepy_in, 1);
  sleep_ms(1500);
  return 0;
}

TEST(slow_async_callbacks_do_not_stall_other_runs) {
  ws_begin();
  /* Callbacks never run on the runtime's async workers: many slow ones in flight must not delay
   * an unrelated command run. */
  hl_engine *e = eng(vt_cmds("post_tool_use", 0, (const char *[]){"echo quick", NULL}));
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_NOTIFICATION, NULL, "sleepy", sleepy_cb, NULL, NULL, NULL), HL_OK);
  done_t slow[16], quick = {0};
  memset(slow, 0, sizeof slow);
  atomic_store(&sleepy_in, 0);
  for (int i = 0; i < 16; i++)
    CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_NOTIFICATION, NOTIF_INPUT, done_fn, &slow[i], NULL, NULL), HL_OK);
  /* Wait until the slow callbacks are in flight (at least a few: the point is that they are running). */
  double until = now_ms() + 10000;
  while (atomic_load(&sleepy_in) < 4 && now_ms() < until) sleep_ms(2);
  CHECK(atomic_load(&sleepy_in) >= 4, "only %d slow callbacks started within 10 s", atomic_load(&sleepy_in));
  double t0 = now_ms();
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_POST_TOOL_USE, POST_INPUT, done_fn, &quick, NULL, NULL), HL_OK);
  CHECK(wait_calls(&quick.calls, 1, 10000), "quick run never finished");
  double dt = now_ms() - t0;
  CHECK(dt < 1000, "a command run waited %.0f ms behind slow callbacks", dt);
  CHECK(quick.outcome && strstr(quick.outcome, "quick"), "quick outcome: %s", quick.outcome ? quick.outcome : "");
  for (int i = 0; i < 16; i++) {
    CHECK(wait_calls(&slow[i].calls, 1, 10000), "slow run %d never finished", i);
    done_clear(&slow[i]);
  }
  hl_engine_free(e);
  done_clear(&quick);
  test_end();
}

TEST(cancel_racing_with_completion_is_consistent_and_done_runs_once) {
  ws_begin();
  const int N = under_valgrind() ? 150 : 600;
  hl_engine *e = eng(vt_cmds("pre_tool_use", 10, (const char *[]){"true", NULL}));
  done_t *d = calloc(N, sizeof *d);
  hl_status *cancel_st = calloc(N, sizeof *cancel_st);
  for (int i = 0; i < N; i++) {
    uint64_t id = 0;
    hl_engine_run_async(e, i % 2 ? HL_EVENT_PRE_TOOL_USE : HL_EVENT_SESSION_END, i % 2 ? PTU_INPUT : SEND_INPUT, done_fn,
                        &d[i], &id, NULL);
    if (i % 3 == 0) sleep_ms(1);
    cancel_st[i] = hl_engine_cancel(e, id, NULL);
  }
  /* hl_engine_free returns after every pending done was called, so a done
     called twice would have been counted by then. */
  double end = now_ms() + 60000;
  int waiting = 0;
  for (int i = 0; i < N; i++)
    while (atomic_load(&d[i].calls) == 0 && now_ms() < end) sleep_ms(1);
  for (int i = 0; i < N; i++) waiting += atomic_load(&d[i].calls) == 0;
  CHECK(waiting == 0, "%d of %d runs had no done after 60 s", waiting, N);
  hl_engine_free(e);
  int once = 0, consistent = 0;
  for (int i = 0; i < N; i++) {
    if (atomic_load(&d[i].calls) == 1) once++;
    /* cancel OK: the run was in flight and done gets CANCELLED; NOT_FOUND: it had finished. */
    if ((cancel_st[i] == HL_OK && d[i].st == HL_ERR_CANCELLED) || (cancel_st[i] == HL_ERR_NOT_FOUND && d[i].st == HL_OK))
      consistent++;
    done_clear(&d[i]);
  }
  CHECK(once == N, "%d of %d runs got exactly one done", once, N);
  CHECK(consistent == N, "%d of %d cancel results disagree with the done status", N - consistent, N);
  free(d);
  free(cancel_st);
  test_end();
}

TEST(freeing_right_after_submitting_calls_every_done_once_before_returning) {
  ws_begin();
  int bad = 0;
  for (int round = 0; round < 40; round++) {
    hl_engine *e = eng(round % 2 ? vt_cmds("post_tool_use", 10, (const char *[]){"true", NULL}) : NULL);
    done_t d[16];
    memset(d, 0, sizeof d);
    for (int i = 0; i < 16; i++) hl_engine_run_async(e, HL_EVENT_POST_TOOL_USE, POST_INPUT, done_fn, &d[i], NULL, NULL);
    hl_engine_free(e);
    for (int i = 0; i < 16; i++) {
      if (atomic_load(&d[i].calls) != 1 || (d[i].st != HL_OK && d[i].st != HL_ERR_CANCELLED)) bad++;
      done_clear(&d[i]);
    }
  }
  CHECK(bad == 0, "%d runs without exactly one done (OK or CANCELLED) when hl_engine_free returned", bad);
  test_end();
}

TEST(replacing_a_callback_hook_in_flight_defers_its_free_until_the_call_returns) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cb_t old = {.sleep_ms = 600}, repl = {0};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_NOTIFICATION, NULL, "same", cb_fn, &old, cb_free, NULL), HL_OK);
  done_t d = {0};
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_NOTIFICATION, NOTIF_INPUT, done_fn, &d, NULL, NULL), HL_OK);
  double end = now_ms() + 5000;
  while (atomic_load(&old.in_flight) == 0 && now_ms() < end) sleep_ms(2);
  CHECK(atomic_load(&old.in_flight) == 1, "callback never started");
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_NOTIFICATION, NULL, "same", cb_fn, &repl, cb_free, NULL), HL_OK);
  CHECK(wait_calls(&d.calls, 1, 5000), "run never finished");
  end = now_ms() + 3000;
  while (atomic_load(&old.frees) == 0 && now_ms() < end) sleep_ms(5);
  CHECK(atomic_load(&old.frees) == 1, "replaced user_data freed %d times", atomic_load(&old.frees));
  CHECK(atomic_load(&old.freed_while_in_flight) == 0, "replaced user_data freed while its call was in flight");
  /* The next run uses the replacement. */
  run_ev(e, HL_EVENT_NOTIFICATION, NOTIF_INPUT);
  CHECK(atomic_load(&repl.calls) == 1 && atomic_load(&old.calls) == 1, "calls: old %d new %d", atomic_load(&old.calls),
        atomic_load(&repl.calls));
  hl_engine_free(e);
  CHECK(atomic_load(&repl.frees) == 1, "replacement freed %d times", atomic_load(&repl.frees));
  done_clear(&d);
  test_end();
}

TEST(hl_engine_run_inside_done_is_wrong_thread_and_run_async_works) {
  ws_begin();
  hl_engine *e = eng(NULL);
  done_t nested = {0};
  done_t d = {.mode = DONE_RUN_SYNC, .eng = e};
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_SESSION_END, SEND_INPUT, done_fn, &d, NULL, NULL), HL_OK);
  CHECK(wait_calls(&d.calls, 1, 10000), "done not called");
  CHECK(d.inner == HL_ERR_WRONG_THREAD, "hl_engine_run in done: %s", hl_status_name(d.inner));
  done_t d2 = {.mode = DONE_RUN_ASYNC, .eng = e, .nested = &nested};
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_SESSION_END, SEND_INPUT, done_fn, &d2, NULL, NULL), HL_OK);
  CHECK(wait_calls(&d2.calls, 1, 10000), "done not called");
  CHECK(d2.inner == HL_OK, "hl_engine_run_async in done: %s", hl_status_name(d2.inner));
  CHECK(wait_calls(&nested.calls, 1, 10000), "nested done not called");
  CHECK(nested.st == HL_OK, "nested status %s", hl_status_name(nested.st));
  hl_engine_free(e);
  done_clear(&d);
  done_clear(&d2);
  done_clear(&nested);
  test_end();
}

TEST(hl_engine_free_inside_its_own_done_does_not_deadlock) {
  ws_begin();
  hl_engine *e = eng(vt_cmds("session_end", 0, (const char *[]){"true", NULL}));
  done_t d = {.mode = DONE_FREE_ENGINE, .eng = e};
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_SESSION_END, SEND_INPUT, done_fn, &d, NULL, NULL), HL_OK);
  CHECK(wait_calls(&d.calls, 1, 10000), "done (which frees the engine) did not return");
  CHECK(d.st == HL_OK, "status %s", hl_status_name(d.st));
  done_clear(&d);
  test_end();
}

TEST(run_async_validation_failure_returns_error_and_never_calls_done) {
  ws_begin();
  hl_engine *e = eng(NULL);
  done_t d = {0};
  struct { hl_event ev; const char *in; hl_status want; } cases[] = {
      {12, PTU_INPUT, HL_ERR_INVALID_ARGUMENT},
      {-1, PTU_INPUT, HL_ERR_INVALID_ARGUMENT},
      {HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":", HL_ERR_INVALID_JSON},
      {HL_EVENT_PRE_TOOL_USE, "{\"tool_input\":{}}", HL_ERR_INVALID_ARGUMENT},
      {HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":5}", HL_ERR_INVALID_ARGUMENT},
      {HL_EVENT_SESSION_END, "{\"turn_id\":\"t\",\"reason\":\"bogus\"}", HL_ERR_INVALID_ARGUMENT},
      {HL_EVENT_PRE_TOOL_USE, NULL, HL_ERR_NULL_ARGUMENT},
      {HL_EVENT_PRE_TOOL_USE, "[]", HL_ERR_INVALID_ARGUMENT},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint64_t id = 77;
    char *err = NULL;
    hl_status st = hl_engine_run_async(e, cases[i].ev, cases[i].in, done_fn, &d, &id, &err);
    CHECK(st == cases[i].want, "case %zu: %s, want %s (%s)", i, hl_status_name(st), hl_status_name(cases[i].want),
          err ? err : "");
    CHECK(err != NULL, "case %zu: no errmsg", i);
    CHECK(id == 0, "case %zu: run_id %llu on failure", i, (unsigned long long)id);
    hl_string_free(err);
  }
  uint64_t id = 77;
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, NULL, &d, &id, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_engine_run_async(NULL, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_fn, &d, &id, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK(atomic_load(&d.calls) == 0, "done called %d times after failed submissions", atomic_load(&d.calls));
  /* run_id may be NULL. */
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_fn, &d, NULL, NULL), HL_OK);
  CHECK(wait_calls(&d.calls, 1, 10000), "done not called for a run without run_id");
  hl_engine_free(e);
  /* free waited for every pending done: only the one accepted run called it. */
  CHECK(atomic_load(&d.calls) == 1, "done called %d times for 1 accepted and 10 refused runs", atomic_load(&d.calls));
  done_clear(&d);
  test_end();
}

TEST(callback_hook_may_call_back_into_the_engine_without_deadlock) {
  ws_begin();
  char *o = opts(vt_cmds("session_end", 0, (const char *[]){"true", NULL}), NULL);
  hl_engine *e = eng_new(o);
  reload_opts = o;
  cb_t c = {.eng = e};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, NULL, "reenter", reentrant_cb, &c, NULL, NULL),
               HL_OK);
  jv *out = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK(out != NULL, "outer sync run failed");
  CHECK(atomic_load(&c.calls) == 2, "callback ran %d times (outer + re-entrant sync run)", atomic_load(&c.calls));
  CHECK(c.st_add == HL_OK, "add_callback_hook inside a callback: %s", hl_status_name(c.st_add));
  CHECK(c.st_async == HL_OK, "run_async inside a callback: %s", hl_status_name(c.st_async));
  CHECK(c.st_run == HL_OK, "re-entrant sync run on the caller thread: %s", hl_status_name(c.st_run));
  CHECK(c.st_tp == HL_OK, "set_transcript_path inside a callback: %s", hl_status_name(c.st_tp));
  CHECK(c.st_reload == HL_OK, "reload inside a callback: %s", hl_status_name(c.st_reload));
  CHECK(wait_calls(&c.nested_done.calls, 1, 10000), "nested async run never finished");
  CHECK(c.nested_done.st == HL_OK, "nested async status %s", hl_status_name(c.nested_done.st));
  char *tp = NULL;
  hl_engine_transcript_path(e, &tp, NULL);
  CHECK(tp && !strcmp(tp, "/t/inside.jsonl"), "transcript path set inside the callback: %s", tp ? tp : "(null)");
  hl_string_free(tp);
  reload_opts = NULL;
  hl_engine_free(e);
  done_clear(&c.nested_done);
  test_end();
}

static int32_t async_inner_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  cb_t *c = ud;
  c->th = pthread_self();
  char *out = NULL;
  c->st_run = hl_engine_run(c->eng, HL_EVENT_SESSION_END, SEND_INPUT, &out, NULL);
  hl_string_free(out);
  c->st_async = hl_engine_run_async(c->eng, HL_EVENT_SESSION_END, SEND_INPUT, done_fn, &c->nested_done, NULL, NULL);
  atomic_fetch_add(&c->calls, 1);
  return 0;
}

TEST(sync_callbacks_run_on_the_calling_thread_and_async_ones_do_not) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cb_t s = {0}, a = {.eng = e};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, NULL, "sync", cb_fn, &s, NULL, NULL), HL_OK);
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_STOP, NULL, "async", async_inner_cb, &a, NULL, NULL), HL_OK);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK(atomic_load(&s.calls) == 1 && pthread_equal(s.th, pthread_self()), "sync run callback not on the caller thread");
  done_t d = {0};
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_STOP, STOP_INPUT, done_fn, &d, NULL, NULL), HL_OK);
  CHECK(wait_calls(&d.calls, 1, 10000), "async run did not finish");
  CHECK(atomic_load(&a.calls) == 1, "async callback ran %d times", atomic_load(&a.calls));
  CHECK(!pthread_equal(a.th, pthread_self()), "async run callback ran on the caller thread");
  CHECK(a.st_run == HL_ERR_WRONG_THREAD, "hl_engine_run in an async callback: %s", hl_status_name(a.st_run));
  CHECK(a.st_async == HL_OK, "hl_engine_run_async in an async callback: %s", hl_status_name(a.st_async));
  CHECK(wait_calls(&a.nested_done.calls, 1, 10000), "nested async run never finished");
  /* A sync run from another host thread runs its callbacks on that thread. */
  hl_engine_free(e);
  done_clear(&d);
  done_clear(&a.nested_done);
  test_end();
}

static hl_engine *thr_engine;
static cb_t thr_cb;
static pthread_t thr_ids[4];
static atomic_int thr_mismatch;
static void *sync_thread(void *arg) {
  int idx = (int)(intptr_t)arg;
  for (int i = 0; i < 20; i++) {
    char *out = NULL;
    if (hl_engine_run(thr_engine, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &out, NULL) != HL_OK)
      atomic_fetch_add(&thr_mismatch, 1000);
    hl_string_free(out);
  }
  thr_ids[idx] = pthread_self();
  return NULL;
}
static int32_t thread_check_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  /* The calling host thread is one of the four workers, never a hookline thread: record it. */
  pthread_t me = pthread_self();
  if (pthread_equal(me, main_thread)) atomic_fetch_add(&thr_mismatch, 1);
  atomic_fetch_add(&((cb_t *)ud)->calls, 1);
  return 0;
}

TEST(concurrent_sync_runs_from_many_threads) {
  ws_begin();
  thr_engine = eng(vt_cmds("pre_tool_use", 0, (const char *[]){"true", NULL}));
  memset(&thr_cb, 0, sizeof thr_cb);
  CHECK_STATUS(hl_engine_add_callback_hook(thr_engine, HL_EVENT_PRE_TOOL_USE, NULL, "t", thread_check_cb, &thr_cb, NULL,
                                           NULL),
               HL_OK);
  pthread_t th[4];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, sync_thread, (void *)(intptr_t)i);
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  CHECK(atomic_load(&thr_mismatch) == 0, "mismatch/failures: %d", atomic_load(&thr_mismatch));
  CHECK(atomic_load(&thr_cb.calls) == 80, "callback calls %d", atomic_load(&thr_cb.calls));
  hl_engine_free(thr_engine);
  test_end();
}

/* Many threads running, registering and replacing at once; then free. */
static atomic_int stress_stop;
static cb_t stress_cbs[64];
static atomic_int stress_next;
static void *stress_runner(void *arg) {
  (void)arg;
  while (!atomic_load(&stress_stop)) {
    char *out = NULL;
    hl_engine_run(thr_engine, HL_EVENT_POST_TOOL_USE, POST_INPUT, &out, NULL);
    hl_string_free(out);
  }
  return NULL;
}
static void *stress_register(void *arg) {
  (void)arg;
  int i;
  while (!atomic_load(&stress_stop) && (i = atomic_fetch_add(&stress_next, 1)) < 64) {
    char name[16];
    snprintf(name, sizeof name, "cb%d", i % 5);
    if (hl_engine_add_callback_hook(thr_engine, HL_EVENT_POST_TOOL_USE, NULL, name, cb_fn, &stress_cbs[i], cb_free,
                                    NULL) != HL_OK)
      atomic_fetch_add(&thr_mismatch, 1);
    sleep_ms(10);
  }
  return NULL;
}

TEST(running_registering_and_freeing_at_once_frees_each_user_data_once) {
  ws_begin();
  thr_engine = eng(NULL);
  memset(stress_cbs, 0, sizeof stress_cbs);
  atomic_store(&stress_stop, 0);
  atomic_store(&stress_next, 0);
  atomic_store(&thr_mismatch, 0);
  pthread_t th[6];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, stress_runner, NULL);
  for (int i = 4; i < 6; i++) pthread_create(&th[i], NULL, stress_register, NULL);
  done_t d[16];
  memset(d, 0, sizeof d);
  for (int i = 0; i < 16; i++) {
    hl_engine_run_async(thr_engine, HL_EVENT_POST_TOOL_USE, POST_INPUT, done_fn, &d[i], NULL, NULL);
    sleep_ms(20);
  }
  for (int i = 4; i < 6; i++) pthread_join(th[i], NULL);
  atomic_store(&stress_stop, 1);
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  hl_engine_free(thr_engine);
  int n = atomic_load(&stress_next) > 64 ? 64 : atomic_load(&stress_next);
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (atomic_load(&stress_cbs[i].frees) != 1 || atomic_load(&stress_cbs[i].freed_while_in_flight)) bad++;
  CHECK(bad == 0, "%d of %d user_data not freed exactly once (or freed in flight)", bad, n);
  CHECK(atomic_load(&thr_mismatch) == 0, "%d registrations failed", atomic_load(&thr_mismatch));
  for (int i = 0; i < 16; i++) {
    CHECK(atomic_load(&d[i].calls) == 1, "async %d: done called %d times", i, atomic_load(&d[i].calls));
    done_clear(&d[i]);
  }
  test_end();
}

TEST(concurrent_event_hooks_run_in_parallel_and_merge_in_configuration_order) {
  ws_begin();
  const char *cmds[9];
  for (int i = 0; i < 8; i++)
    cmds[i] = fmt("sleep 1.%d; printf '%%s' '{\"systemMessage\":\"msg-%d\",\"hookSpecificOutput\":{"
                  "\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"ctx-%d\"}}'",
                  7 - i, i, i);
  cmds[8] = NULL;
  hl_engine *e = eng(vt_cmds("post_tool_use", 30, cmds));
  double t0 = now_ms();
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  double dt = now_ms() - t0;
  CHECK(dt < 6000, "8 hooks of ~1.5 s took %.0f ms: not concurrent", dt);
  CHECK_LEN(o, "additional_context", 8);
  CHECK_LEN(o, "hooks", 8);
  for (int i = 0; i < 8; i++) {
    CHECK_STR(o, fmt("additional_context[%d]", i), fmt("ctx-%d", i));
    CHECK_STR(o, fmt("messages[%d].text", i), fmt("msg-%d", i));
    CHECK_STR(o, fmt("hooks[%d].command", i), cmds[i]);
  }
  hl_engine_free(e);
  test_end();
}

TEST(decision_event_hooks_run_one_after_another) {
  ws_begin();
  char *log = wpath("seq.log");
  const char *cmds[4];
  for (int i = 0; i < 3; i++) cmds[i] = fmt("echo start%d >> '%s'; sleep 0.3; echo end%d >> '%s'", i, log, i, log);
  cmds[3] = NULL;
  const hl_event evs[] = {HL_EVENT_PRE_TOOL_USE, HL_EVENT_USER_PROMPT_SUBMIT, HL_EVENT_PERMISSION_REQUEST, HL_EVENT_STOP};
  for (int k = 0; k < 4; k++) {
    unlink(log);
    hl_engine *e = eng(vt_cmds(eu_keys[evs[k]], 30, cmds));
    run_ev(e, evs[k], eu_inputs[evs[k]]);
    char *got = read_file(log);
    CHECK(got && !strcmp(got, "start0\nend0\nstart1\nend1\nstart2\nend2\n"), "%s ran hooks concurrently: %s",
          hl_event_name(evs[k]), got ? got : "(none)");
    hl_engine_free(e);
  }
  test_end();
}

int main(void) {
  main_thread = pthread_self();
  alarm(240); /* a deadlock fails the test instead of hanging ctest */
  RUN(thousand_async_runs_from_8_threads_call_done_exactly_once);
  RUN(cancel_in_flight_kills_the_hook_and_done_gets_cancelled);
  RUN(cancel_of_unknown_or_finished_run_is_not_found);
  RUN(free_with_runs_in_flight_cancels_them_before_returning);
  RUN(cancel_while_a_callback_hook_runs_still_reports_cancelled);
  RUN(cancel_stops_the_later_hooks_of_a_sequential_run);
  RUN(slow_async_callbacks_do_not_stall_other_runs);
  RUN(cancel_racing_with_completion_is_consistent_and_done_runs_once);
  RUN(freeing_right_after_submitting_calls_every_done_once_before_returning);
  RUN(replacing_a_callback_hook_in_flight_defers_its_free_until_the_call_returns);
  RUN(hl_engine_run_inside_done_is_wrong_thread_and_run_async_works);
  RUN(hl_engine_free_inside_its_own_done_does_not_deadlock);
  RUN(run_async_validation_failure_returns_error_and_never_calls_done);
  RUN(callback_hook_may_call_back_into_the_engine_without_deadlock);
  RUN(sync_callbacks_run_on_the_calling_thread_and_async_ones_do_not);
  RUN(concurrent_sync_runs_from_many_threads);
  RUN(running_registering_and_freeing_at_once_frees_each_user_data_once);
  RUN(concurrent_event_hooks_run_in_parallel_and_merge_in_configuration_order);
  RUN(decision_event_hooks_run_one_after_another);
  return DONE();
}
