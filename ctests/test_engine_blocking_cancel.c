/* Cancellable blocking runs (hl_engine_reserve_run + hl_engine_run_reserved + hl_engine_cancel)
 * and the non-blocking no-match answer (hl_engine_try_run_inline). */
#include <stdatomic.h>

#include "engine_util.h"

static pthread_t main_thread;

/* ------------------------------------------------------------ run on a thread */

typedef struct {
  hl_engine *e;
  uint64_t id;
  hl_event ev;
  const char *input;
  hl_status st;
  char *outcome;
  char *err;
  atomic_int finished;
  pthread_t th;
} blocking_t;

static void *blocking_thread(void *p) {
  blocking_t *b = p;
  b->th = pthread_self();
  b->st = hl_engine_run_reserved(b->e, b->id, b->ev, b->input, &b->outcome, &b->err);
  atomic_store(&b->finished, 1);
  return NULL;
}

static void blocking_clear(blocking_t *b) {
  hl_string_free(b->outcome);
  hl_string_free(b->err);
  b->outcome = b->err = NULL;
}

static int wait_flag(atomic_int *f, int ms) {
  double end = now_ms() + ms;
  while (!atomic_load(f)) {
    if (now_ms() > end) return 0;
    sleep_ms(2);
  }
  return 1;
}

static uint64_t reserve(hl_engine *e) {
  uint64_t id = 0;
  char *err = NULL;
  hl_status st = hl_engine_reserve_run(e, &id, &err);
  CHECK(st == HL_OK && id != 0, "hl_engine_reserve_run: %s: %s", hl_status_name(st), err ? err : "");
  CHECK(err == NULL, "errmsg set on success");
  hl_string_free(err);
  return id;
}

/* ------------------------------------------------------------------ callbacks */

typedef struct {
  atomic_int calls;
  atomic_int entered;
  pthread_t th;
  int sleep_ms;
} cb_t;

static int32_t allow_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  cb_t *c = ud;
  c->th = pthread_self();
  atomic_store(&c->entered, 1);
  if (c->sleep_ms) sleep_ms(c->sleep_ms);
  atomic_fetch_add(&c->calls, 1);
  return hl_reply_allow(reply) == HL_OK ? 0 : 1;
}

/* ---------------------------------------------------------------------- tests */

TEST(reserved_run_without_cancel_returns_the_real_outcome_and_consumes_the_id) {
  ws_begin();
  hl_engine *e = eng(vt_cmds("pre_tool_use", 10, (const char *[]){say("{\"hookSpecificOutput\":{\"permissionDecision\":\"allow\"}}"), NULL}));
  uint64_t id = reserve(e);
  char *out = NULL, *err = NULL;
  CHECK_STATUS(hl_engine_run_reserved(e, id, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &out, &err), HL_OK);
  CHECK(err == NULL, "errmsg set on success");
  CHECK_CONTAINS(out, "\"decision\":\"allow\"");
  hl_string_free(out);
  /* The run has left the run table: cancel finds nothing, the id cannot run again. */
  CHECK_STATUS(hl_engine_cancel(e, id, NULL), HL_ERR_NOT_FOUND);
  out = NULL;
  CHECK_STATUS(hl_engine_run_reserved(e, id, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &out, &err), HL_ERR_NOT_FOUND);
  CHECK(out == NULL && err != NULL, "outcome %p errmsg %p", (void *)out, (void *)err);
  hl_string_free(err);
  /* Two reservations get different ids. */
  uint64_t a = reserve(e), b = reserve(e);
  CHECK(a != b, "two reservations share id %llu", (unsigned long long)a);
  CHECK_STATUS(hl_engine_run_reserved(e, a, HL_EVENT_SESSION_END, SEND_INPUT, &out, NULL), HL_OK);
  hl_string_free(out);
  CHECK_STATUS(hl_engine_run_reserved(e, b, HL_EVENT_SESSION_END, SEND_INPUT, &out, NULL), HL_OK);
  hl_string_free(out);
  hl_engine_free(e);
  test_end();
}

TEST(reserved_no_match_run_gives_the_same_outcome_as_hl_engine_run) {
  ws_begin();
  hl_engine *e = eng(cc_config("PreToolUse", group("Write|Edit", cc_hook("exit 2", 10))));
  char *want = NULL, *got = NULL;
  CHECK_STATUS(hl_engine_run(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &want, NULL), HL_OK);
  uint64_t id = reserve(e);
  CHECK_STATUS(hl_engine_run_reserved(e, id, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &got, NULL), HL_OK);
  CHECK(want && got && strcmp(want, got) == 0, "reserved %s vs run %s", got ? got : "(null)", want ? want : "(null)");
  hl_string_free(want);
  hl_string_free(got);
  hl_engine_free(e);
  test_end();
}

TEST(cancel_before_the_run_starts_makes_it_return_cancelled_without_running_hooks) {
  ws_begin();
  char *marker = wpath("ran");
  hl_engine *e = eng(vt_cmds("pre_tool_use", 10, (const char *[]){fmt("touch '%s'", marker), NULL}));
  uint64_t id = reserve(e);
  CHECK_STATUS(hl_engine_cancel(e, id, NULL), HL_OK);
  CHECK_STATUS(hl_engine_cancel(e, id, NULL), HL_OK); /* still reserved: cancelling again is fine */
  char *out = NULL, *err = NULL;
  double t0 = now_ms();
  CHECK_STATUS(hl_engine_run_reserved(e, id, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &out, &err), HL_ERR_CANCELLED);
  CHECK(now_ms() - t0 < 1000, "a cancelled reservation took %.0f ms", now_ms() - t0);
  CHECK(out == NULL && err != NULL, "outcome %p errmsg %p", (void *)out, (void *)err);
  hl_string_free(err);
  CHECK(!file_exists(marker), "the hook of a run cancelled before it started ran");
  CHECK_STATUS(hl_engine_cancel(e, id, NULL), HL_ERR_NOT_FOUND);
  hl_engine_free(e);
  test_end();
}

TEST(cancel_during_the_run_kills_the_hook_and_the_run_returns_cancelled) {
  ws_begin();
  char *pidf = wpath("hook.pid");
  hl_engine *e = eng(vt_cmds("pre_tool_use", 0, (const char *[]){fmt("echo $$ > '%s'; sleep 1000", pidf), NULL}));
  blocking_t b = {.e = e, .ev = HL_EVENT_PRE_TOOL_USE, .input = PTU_INPUT};
  b.id = reserve(e);
  pthread_t th;
  pthread_create(&th, NULL, blocking_thread, &b);
  pid_t pid = read_pid(pidf, 10000);
  CHECK(pid > 0, "hook did not start");
  CHECK(!atomic_load(&b.finished), "the run returned before the cancel");
  double t0 = now_ms();
  char *err = NULL;
  CHECK_STATUS(hl_engine_cancel(e, b.id, &err), HL_OK);
  CHECK(err == NULL, "errmsg set on success");
  CHECK(wait_flag(&b.finished, 3000), "the run did not return within 3 s of the cancel");
  CHECK(now_ms() - t0 < 3000, "cancel took %.0f ms", now_ms() - t0);
  pthread_join(th, NULL);
  CHECK(b.st == HL_ERR_CANCELLED, "run status %s", hl_status_name(b.st));
  CHECK(b.outcome == NULL && b.err != NULL, "cancelled run: outcome %p errmsg %p", (void *)b.outcome, (void *)b.err);
  CHECK(wait_pid_gone(pid, 2000), "hook process %d survived the cancel", (int)pid);
  double zend = now_ms() + 2000;
  while (zombie_children() && now_ms() < zend) sleep_ms(20);
  CHECK(zombie_children() == 0, "zombie after cancel");
  CHECK_STATUS(hl_engine_cancel(e, b.id, NULL), HL_ERR_NOT_FOUND);
  blocking_clear(&b);
  hl_engine_free(e);
  test_end();
}

TEST(cancel_during_a_callback_hook_reports_cancelled_after_it_returns) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cb_t slow = {.sleep_ms = 300};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, NULL, "slow", allow_cb, &slow, NULL, NULL), HL_OK);
  blocking_t b = {.e = e, .ev = HL_EVENT_PRE_TOOL_USE, .input = PTU_INPUT};
  b.id = reserve(e);
  pthread_t th;
  pthread_create(&th, NULL, blocking_thread, &b);
  CHECK(wait_flag(&slow.entered, 10000), "the callback hook did not start");
  CHECK_STATUS(hl_engine_cancel(e, b.id, NULL), HL_OK);
  pthread_join(th, NULL);
  CHECK(b.st == HL_ERR_CANCELLED, "run status %s", hl_status_name(b.st));
  blocking_clear(&b);
  hl_engine_free(e);
  test_end();
}

/* A worker thread that runs one reserved run per request, so the race loop
 * does not pay a thread start per iteration. */
typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int have_work, quit;
  blocking_t job;
} worker_t;

static void *worker_main(void *p) {
  worker_t *w = p;
  for (;;) {
    pthread_mutex_lock(&w->mu);
    while (!w->have_work && !w->quit) pthread_cond_wait(&w->cv, &w->mu);
    if (w->quit) {
      pthread_mutex_unlock(&w->mu);
      return NULL;
    }
    w->have_work = 0;
    pthread_mutex_unlock(&w->mu);
    blocking_thread(&w->job);
  }
}

TEST(cancel_racing_with_completion_is_linearizable) {
  ws_begin();
  const int N = under_valgrind() ? 150 : 1200;
  hl_engine *e = eng(vt_cmds("pre_tool_use", 10, (const char *[]){"true", NULL}));
  cb_t cb = {0};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_STOP, NULL, "allow", allow_cb, &cb, NULL, NULL), HL_OK);
  worker_t w = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
  pthread_t th;
  pthread_create(&th, NULL, worker_main, &w);
  int cancel_ok = 0, cancel_nf = 0, inconsistent = 0;
  for (int i = 0; i < N; i++) {
    /* A command hook, a callback hook, and a run where nothing matches. */
    static const hl_event evs[] = {HL_EVENT_PRE_TOOL_USE, HL_EVENT_STOP, HL_EVENT_SESSION_END};
    static const char *inputs[] = {PTU_INPUT, STOP_INPUT, SEND_INPUT};
    int k = i % 3;
    uint64_t id = reserve(e);
    pthread_mutex_lock(&w.mu);
    w.job = (blocking_t){.e = e, .id = id, .ev = evs[k], .input = inputs[k]};
    w.have_work = 1;
    pthread_cond_signal(&w.cv);
    pthread_mutex_unlock(&w.mu);
    /* Vary where the cancel lands: before, during and after the run. */
    int d = (i / 3) % 8;
    if (d > 0) usleep((useconds_t)(d * d * 30));
    hl_status cst = hl_engine_cancel(e, id, NULL);
    if (!wait_flag(&w.job.finished, 30000)) {
      CHECK(0, "run %d did not return", i);
      break;
    }
    hl_status rst = w.job.st;
    if (cst == HL_OK) cancel_ok++;
    if (cst == HL_ERR_NOT_FOUND) cancel_nf++;
    if (!((cst == HL_OK && rst == HL_ERR_CANCELLED && w.job.outcome == NULL) ||
          (cst == HL_ERR_NOT_FOUND && rst == HL_OK && w.job.outcome != NULL))) {
      if (inconsistent++ < 5)
        fprintf(stderr, "  run %d (event %d): cancel %s, run %s\n", i, (int)evs[k], hl_status_name(cst), hl_status_name(rst));
    }
    blocking_clear(&w.job);
  }
  pthread_mutex_lock(&w.mu);
  w.quit = 1;
  pthread_cond_signal(&w.cv);
  pthread_mutex_unlock(&w.mu);
  pthread_join(th, NULL);
  fprintf(stderr, "  %d cancels won, %d found the run finished\n", cancel_ok, cancel_nf);
  CHECK(inconsistent == 0, "%d of %d runs disagree with their cancel's status", inconsistent, N);
  CHECK(cancel_ok + cancel_nf == N, "cancel returned something else %d times", N - cancel_ok - cancel_nf);
  hl_engine_free(e);
  test_end();
}

TEST(free_with_a_blocking_run_in_flight_cancels_it_and_reclaims_unused_reservations) {
  ws_begin();
  char *pidf = wpath("hook.pid");
  hl_engine *e = eng(vt_cmds("pre_tool_use", 0, (const char *[]){fmt("echo $$ > '%s'; sleep 1000", pidf), NULL}));
  cb_t cb = {0};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_STOP, NULL, "allow", allow_cb, &cb, NULL, NULL), HL_OK);
  blocking_t b = {.e = e, .ev = HL_EVENT_PRE_TOOL_USE, .input = PTU_INPUT};
  b.id = reserve(e);
  (void)reserve(e); /* never run: hl_engine_free releases it (LSan would report a leak) */
  pthread_t th;
  pthread_create(&th, NULL, blocking_thread, &b);
  pid_t pid = read_pid(pidf, 10000);
  CHECK(pid > 0, "hook did not start");
  double t0 = now_ms();
  hl_engine_free(e); /* does not wait for blocking runs; the handle is gone from here on */
  CHECK(wait_flag(&b.finished, 3000), "the blocking run did not return within 3 s of hl_engine_free");
  CHECK(now_ms() - t0 < 3000, "free + return took %.0f ms", now_ms() - t0);
  pthread_join(th, NULL);
  CHECK(b.st == HL_ERR_CANCELLED, "run status %s after hl_engine_free", hl_status_name(b.st));
  CHECK(wait_pid_gone(pid, 2000), "hook process %d survived hl_engine_free", (int)pid);
  blocking_clear(&b);
  test_end();
}

TEST(callback_hooks_of_a_reserved_run_run_on_the_calling_thread) {
  ws_begin();
  hl_engine *e = eng(NULL);
  cb_t cb = {0};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, NULL, "allow", allow_cb, &cb, NULL, NULL), HL_OK);
  uint64_t id = reserve(e);
  char *out = NULL;
  CHECK_STATUS(hl_engine_run_reserved(e, id, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &out, NULL), HL_OK);
  CHECK_CONTAINS(out, "\"decision\":\"allow\"");
  hl_string_free(out);
  CHECK(atomic_load(&cb.calls) == 1, "callback ran %d times", atomic_load(&cb.calls));
  CHECK(pthread_equal(cb.th, main_thread), "the callback of a reserved run ran on another thread");
  hl_engine_free(e);
  test_end();
}

typedef struct {
  hl_engine *e;
  hl_status reserve_st, run_st;
  uint64_t id;
  atomic_int calls;
} in_done_t;

static void reserve_in_done(void *ud, hl_status st, const char *outcome, const char *errmsg) {
  in_done_t *d = ud;
  char *err = NULL;
  d->id = 12345;
  d->reserve_st = hl_engine_reserve_run(d->e, &d->id, &err);
  hl_string_free(err);
  char *out = NULL;
  d->run_st = hl_engine_run_reserved(d->e, 7, HL_EVENT_SESSION_END, SEND_INPUT, &out, NULL);
  hl_string_free(out);
  atomic_fetch_add(&d->calls, 1);
}

TEST(reserving_on_a_hookline_thread_is_wrong_thread) {
  ws_begin();
  hl_engine *e = eng(NULL);
  in_done_t d = {.e = e};
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_SESSION_END, SEND_INPUT, reserve_in_done, &d, NULL, NULL), HL_OK);
  CHECK(wait_flag(&d.calls, 10000), "done not called");
  CHECK(d.reserve_st == HL_ERR_WRONG_THREAD, "reserve in done: %s", hl_status_name(d.reserve_st));
  CHECK(d.id == 0, "run_id %llu after a failed reservation", (unsigned long long)d.id);
  /* id 7 is no reservation: NOT_FOUND is decided before the thread rule. */
  CHECK(d.run_st == HL_ERR_NOT_FOUND, "run_reserved in done: %s", hl_status_name(d.run_st));
  hl_engine_free(e);
  test_end();
}

TEST(bad_arguments_to_reserved_runs_are_errors_and_consume_the_reservation) {
  ws_begin();
  hl_engine *e = eng(NULL);
  uint64_t id = 99;
  char *err = NULL, *out = NULL;
  CHECK_STATUS(hl_engine_reserve_run(NULL, &id, &err), HL_ERR_NULL_ARGUMENT);
  CHECK(id == 0 && err != NULL, "id %llu errmsg %p", (unsigned long long)id, (void *)err);
  hl_string_free(err);
  CHECK_STATUS(hl_engine_reserve_run(e, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_engine_run_reserved(NULL, 1, HL_EVENT_STOP, STOP_INPUT, &out, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_engine_run_reserved(e, 0, HL_EVENT_STOP, STOP_INPUT, &out, NULL), HL_ERR_NOT_FOUND);
  CHECK_STATUS(hl_engine_run_reserved(e, 424242, HL_EVENT_STOP, STOP_INPUT, &out, NULL), HL_ERR_NOT_FOUND);

  struct {
    hl_event ev;
    const char *input;
    int null_out;
    hl_status want;
  } bad[] = {
      {HL_EVENT_STOP, "{not json", 0, HL_ERR_INVALID_JSON},
      {HL_EVENT_STOP, "[1,2]", 0, HL_ERR_INVALID_ARGUMENT},
      {HL_EVENT_STOP, NULL, 0, HL_ERR_NULL_ARGUMENT},
      {HL_EVENT_STOP, "\xff\xfe", 0, HL_ERR_INVALID_UTF8},
      {(hl_event)99, STOP_INPUT, 0, HL_ERR_INVALID_ARGUMENT},
      {(hl_event)-1, STOP_INPUT, 0, HL_ERR_INVALID_ARGUMENT},
      {HL_EVENT_PRE_TOOL_USE, "{}", 0, HL_ERR_INVALID_ARGUMENT},
      {HL_EVENT_STOP, STOP_INPUT, 1, HL_ERR_NULL_ARGUMENT},
  };
  /* JSON nested 100 000 deep. */
  char *deep = malloc(200001);
  for (int i = 0; i < 100000; i++) deep[i] = '[';
  for (int i = 0; i < 100000; i++) deep[100000 + i] = ']';
  deep[200000] = 0;
  bad[0].input = deep; /* replaces "{not json" (same status) */
  uint64_t deep_id = reserve(e);
  CHECK_STATUS(hl_engine_run_reserved(e, deep_id, HL_EVENT_STOP, deep, &out, NULL), HL_ERR_INVALID_JSON);
  bool ran = true;
  CHECK_STATUS(hl_engine_try_run_inline(e, HL_EVENT_STOP, deep, &ran, &out, NULL), HL_ERR_INVALID_JSON);
  CHECK(!ran && out == NULL, "deep input: ran %d", ran);
  CHECK_STATUS(hl_engine_try_run_inline(e, HL_EVENT_STOP, "\xff\xfe", &ran, &out, NULL), HL_ERR_INVALID_UTF8);
  bad[0].input = "{not json";
  free(deep);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint64_t rid = reserve(e);
    out = NULL;
    err = NULL;
    hl_status st = hl_engine_run_reserved(e, rid, bad[i].ev, bad[i].input, bad[i].null_out ? NULL : &out, &err);
    CHECK(st == bad[i].want, "case %zu: got %s, want %s", i, hl_status_name(st), hl_status_name(bad[i].want));
    CHECK(out == NULL && err != NULL, "case %zu: outcome %p errmsg %p", i, (void *)out, (void *)err);
    hl_string_free(err);
    /* Whatever it returned, the call consumed the reservation. */
    CHECK_STATUS(hl_engine_cancel(e, rid, NULL), HL_ERR_NOT_FOUND);
    CHECK_STATUS(hl_engine_run_reserved(e, rid, HL_EVENT_STOP, STOP_INPUT, &out, NULL), HL_ERR_NOT_FOUND);
  }
  hl_engine_free(e);
  test_end();
}

TEST(an_id_that_is_running_or_belongs_to_an_async_run_cannot_be_run_again) {
  ws_begin();
  char *pidf = wpath("hook.pid");
  hl_engine *e = eng(vt_cmds("pre_tool_use", 0, (const char *[]){fmt("echo $$ > '%s'; sleep 1000", pidf), NULL}));
  blocking_t b = {.e = e, .ev = HL_EVENT_PRE_TOOL_USE, .input = PTU_INPUT};
  b.id = reserve(e);
  pthread_t th;
  pthread_create(&th, NULL, blocking_thread, &b);
  CHECK(read_pid(pidf, 10000) > 0, "hook did not start");
  char *out = NULL, *err = NULL;
  CHECK_STATUS(hl_engine_run_reserved(e, b.id, HL_EVENT_SESSION_END, SEND_INPUT, &out, &err), HL_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(err, "already running");
  hl_string_free(err);
  err = NULL;
  CHECK_STATUS(hl_engine_cancel(e, b.id, NULL), HL_OK);
  pthread_join(th, NULL);
  CHECK(b.st == HL_ERR_CANCELLED, "run status %s", hl_status_name(b.st));
  blocking_clear(&b);
  hl_engine_free(e);
  test_end();
}

static void ignore_done(void *ud, hl_status st, const char *outcome, const char *errmsg) {
  atomic_fetch_add((atomic_int *)ud, 1);
}

TEST(an_async_run_id_is_not_a_reservation) {
  ws_begin();
  char *pidf = wpath("hook.pid");
  hl_engine *e = eng(vt_cmds("pre_tool_use", 0, (const char *[]){fmt("echo $$ > '%s'; sleep 1000", pidf), NULL}));
  atomic_int calls = 0;
  uint64_t id = 0;
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, ignore_done, &calls, &id, NULL), HL_OK);
  CHECK(read_pid(pidf, 10000) > 0, "hook did not start");
  char *out = NULL, *err = NULL;
  CHECK_STATUS(hl_engine_run_reserved(e, id, HL_EVENT_SESSION_END, SEND_INPUT, &out, &err), HL_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(err, "not a reserved run");
  hl_string_free(err);
  /* The async run was not disturbed: it is still cancellable. */
  CHECK_STATUS(hl_engine_cancel(e, id, NULL), HL_OK);
  CHECK(wait_flag(&calls, 5000), "done not called after cancel");
  hl_engine_free(e);
  test_end();
}

TEST(try_run_inline_answers_no_match_in_place_and_runs_nothing_otherwise) {
  ws_begin();
  char *marker = wpath("ran");
  hl_engine *e = eng(cc_config("PreToolUse", group("Bash", cc_hook(fmt("touch '%s'", marker), 10))));
  cb_t cb = {0};
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_STOP, NULL, "allow", allow_cb, &cb, NULL, NULL), HL_OK);
  bool ran = true;
  char *out = NULL, *err = NULL;
  /* A matching command hook: nothing runs, the host must run the event itself. */
  CHECK_STATUS(hl_engine_try_run_inline(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &ran, &out, &err), HL_OK);
  CHECK(!ran && out == NULL && err == NULL, "ran %d outcome %p errmsg %p", ran, (void *)out, (void *)err);
  CHECK(!file_exists(marker), "try_run_inline ran a command hook");
  /* A matching callback hook: same. */
  ran = true;
  CHECK_STATUS(hl_engine_try_run_inline(e, HL_EVENT_STOP, STOP_INPUT, &ran, &out, NULL), HL_OK);
  CHECK(!ran && out == NULL, "ran %d for a callback hook", ran);
  CHECK(atomic_load(&cb.calls) == 0, "try_run_inline ran a callback hook");
  /* No match: the outcome is the one hl_engine_run gives. */
  const char *read_input = "{\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"a\"}}";
  char *want = NULL;
  CHECK_STATUS(hl_engine_run(e, HL_EVENT_PRE_TOOL_USE, read_input, &want, NULL), HL_OK);
  CHECK_STATUS(hl_engine_try_run_inline(e, HL_EVENT_PRE_TOOL_USE, read_input, &ran, &out, &err), HL_OK);
  CHECK(ran && err == NULL, "ran %d errmsg %p", ran, (void *)err);
  CHECK(want && out && strcmp(want, out) == 0, "inline %s vs run %s", out ? out : "(null)", want ? want : "(null)");
  hl_string_free(want);
  hl_string_free(out);
  out = NULL;
  CHECK_STATUS(hl_engine_try_run_inline(e, HL_EVENT_SESSION_END, SEND_INPUT, &ran, &out, NULL), HL_OK);
  CHECK(ran, "an event without hooks was not answered inline");
  CHECK_CONTAINS(out, "\"hooks\":[]");
  hl_string_free(out);
  CHECK(!file_exists(marker), "a hook ran");
  /* Bad input is reported as by hl_engine_run. */
  ran = true;
  out = NULL;
  CHECK_STATUS(hl_engine_try_run_inline(e, HL_EVENT_PRE_TOOL_USE, "{bad", &ran, &out, &err), HL_ERR_INVALID_JSON);
  CHECK(!ran && out == NULL && err != NULL, "ran %d outcome %p errmsg %p", ran, (void *)out, (void *)err);
  hl_string_free(err);
  CHECK_STATUS(hl_engine_try_run_inline(e, (hl_event)42, "{}", &ran, &out, NULL), HL_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(hl_engine_try_run_inline(NULL, HL_EVENT_STOP, STOP_INPUT, &ran, &out, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_engine_try_run_inline(e, HL_EVENT_STOP, STOP_INPUT, NULL, &out, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_engine_try_run_inline(e, HL_EVENT_STOP, STOP_INPUT, &ran, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_engine_try_run_inline(e, HL_EVENT_STOP, NULL, &ran, &out, NULL), HL_ERR_NULL_ARGUMENT);
  hl_engine_free(e);
  test_end();
}

int main(void) {
  main_thread = pthread_self();
  alarm(240); /* a deadlock fails the test instead of hanging ctest */
  RUN(reserved_run_without_cancel_returns_the_real_outcome_and_consumes_the_id);
  RUN(reserved_no_match_run_gives_the_same_outcome_as_hl_engine_run);
  RUN(cancel_before_the_run_starts_makes_it_return_cancelled_without_running_hooks);
  RUN(cancel_during_the_run_kills_the_hook_and_the_run_returns_cancelled);
  RUN(cancel_during_a_callback_hook_reports_cancelled_after_it_returns);
  RUN(cancel_racing_with_completion_is_linearizable);
  RUN(free_with_a_blocking_run_in_flight_cancels_it_and_reclaims_unused_reservations);
  RUN(callback_hooks_of_a_reserved_run_run_on_the_calling_thread);
  RUN(reserving_on_a_hookline_thread_is_wrong_thread);
  RUN(bad_arguments_to_reserved_runs_are_errors_and_consume_the_reservation);
  RUN(an_id_that_is_running_or_belongs_to_an_async_run_cannot_be_run_again);
  RUN(an_async_run_id_is_not_a_reservation);
  RUN(try_run_inline_answers_no_match_in_place_and_runs_nothing_otherwise);
  return DONE();
}
