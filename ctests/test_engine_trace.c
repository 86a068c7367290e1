/* Tracing (docs/c-api.md §12): hl_engine_set_trace_handler, the span tree of a run, its times,
 * the attributes of each failure kind, W3C trace context into hook processes, and the life of a
 * handler replaced or removed while runs are in flight (run under ASan by make test-c-sanitize). */
#include <stdatomic.h>

#include "engine_util.h"

#define HOST_TRACE "4bf92f3577b34da6a3ce929d0e0e4736"
#define HOST_SPAN "00f067aa0ba902b7"
#define HOST_TRACEPARENT "00-" HOST_TRACE "-" HOST_SPAN "-01"

/* ------------------------------------------------------------- collector */

typedef struct {
  pthread_mutex_t mu;
  char *spans[256];
  int n;
  atomic_int frees;
  atomic_int calls;
  pthread_t thread; /* the thread of the last call */
  hl_engine *engine; /* when set: the handler tries a blocking run on it */
  atomic_int wrong_thread;
} collector;

static void collector_init(collector *c) {
  memset(c, 0, sizeof *c);
  pthread_mutex_init(&c->mu, NULL);
}

static void collect_fn(void *ud, const char *span_json) {
  collector *c = ud;
  pthread_mutex_lock(&c->mu);
  if (c->n < 256) c->spans[c->n++] = strdup(span_json);
  c->thread = pthread_self();
  pthread_mutex_unlock(&c->mu);
  if (c->engine) {
    char *out = NULL, *em = NULL;
    if (hl_engine_run(c->engine, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &out, &em) == HL_ERR_WRONG_THREAD)
      atomic_fetch_add(&c->wrong_thread, 1);
    hl_string_free(out);
    hl_string_free(em);
  }
  atomic_fetch_add(&c->calls, 1);
}

static void collect_free(void *ud) { atomic_fetch_add(&((collector *)ud)->frees, 1); }

static void collector_done(collector *c) {
  for (int i = 0; i < c->n; i++) free(c->spans[i]);
  c->n = 0;
  pthread_mutex_destroy(&c->mu);
}

static void set_collector(hl_engine *e, collector *c) {
  char *em = NULL;
  CHECK_STATUS(hl_engine_set_trace_handler(e, collect_fn, c, collect_free, &em), HL_OK);
  CHECK(em == NULL, "errmsg set on success");
}

/* The parsed spans (tracked). */
static jv *span_at(collector *c, int i) { return track_jv(jv_parse(c->spans[i])); }

/* The attribute `key` of a span (keys hold dots, so no jget path). */
static jv *attr(jv *span, const char *key) {
  jv *a = jget(span, "attributes");
  if (!a || a->t != JV_OBJ) return NULL;
  for (size_t i = 0; i < a->count; i++)
    if (!strcmp(a->keys[i], key)) return a->kids[i];
  return NULL;
}
static const char *attr_s(jv *span, const char *key) {
  jv *v = attr(span, key);
  return v && v->t == JV_STR ? v->s : NULL;
}
static double attr_n(jv *span, const char *key) {
  jv *v = attr(span, key);
  return v && v->t == JV_NUM ? v->n : -1e300;
}
static int attr_b(jv *span, const char *key) {
  jv *v = attr(span, key);
  return v && v->t == JV_BOOL ? v->b : -1;
}
static unsigned long long nanos(jv *span, const char *key) {
  const char *s = js(span, key);
  return s ? strtoull(s, NULL, 10) : 0;
}

/* The run span (exactly one expected) and the hook span whose label attribute `key` is `value`. */
static jv *the_run(collector *c) {
  jv *run = NULL;
  int runs = 0;
  for (int i = 0; i < c->n; i++) {
    jv *s = span_at(c, i);
    if (s && js(s, "level") && !strcmp(js(s, "level"), "run")) { run = s; runs++; }
  }
  CHECK(runs == 1, "%d run spans among %d", runs, c->n);
  return run;
}
static jv *hook_with(collector *c, const char *key, const char *value) {
  for (int i = 0; i < c->n; i++) {
    jv *s = span_at(c, i);
    const char *v = s ? attr_s(s, key) : NULL;
    if (v && !strcmp(v, value)) return s;
  }
  CHECK(0, "no hook span with %s = %s", key, value);
  return NULL;
}

/* ------------------------------------------------------------------ tests */

TEST(set_trace_handler_rejects_a_null_engine) {
  char *em = NULL;
  collector c;
  collector_init(&c);
  CHECK_STATUS(hl_engine_set_trace_handler(NULL, collect_fn, &c, collect_free, &em), HL_ERR_NULL_ARGUMENT);
  CHECK_CONTAINS(em, "engine");
  hl_string_free(em);
  CHECK(atomic_load(&c.frees) == 0, "free called on failure");
  collector_done(&c);
}

TEST(a_run_span_is_the_parent_of_one_span_per_hook_and_lies_around_them) {
  ws_begin();
  const char *cmds[] = {"sleep 0.05", say("hi"), NULL};
  hl_engine *e = eng(vt_cmds("stop", 10, cmds));
  collector c;
  collector_init(&c);
  set_collector(e, &c);
  run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  hl_engine_free(e); /* returns after every span was delivered and free ran */
  CHECK(atomic_load(&c.frees) == 1, "free ran %d times", atomic_load(&c.frees));
  CHECK(c.n == 3, "%d spans", c.n);
  jv *run = the_run(&c);
  if (run) {
    CHECK(jnull(run, "parent_span_id"), "a run without traceparent is a root: %s", jraw(run));
    CHECK_STR(run, "name", "hooks Stop");
    CHECK_STR(run, "status", "ok");
    CHECK(js(run, "trace_id") && strlen(js(run, "trace_id")) == 32, "trace_id %s", jraw(run));
    CHECK(js(run, "span_id") && strlen(js(run, "span_id")) == 16, "span_id %s", jraw(run));
    CHECK(attr_s(run, "hook.event") && !strcmp(attr_s(run, "hook.event"), "Stop"), "%s", jraw(run));
    CHECK(attr_n(run, "hook.count") == 2, "%s", jraw(run));
    for (int i = 0; i < c.n; i++) {
      jv *s = span_at(&c, i);
      if (!s || !strcmp(js(s, "level"), "run")) continue;
      CHECK_STR(s, "level", "hook");
      CHECK_STR(s, "trace_id", js(run, "trace_id"));
      CHECK_STR(s, "parent_span_id", js(run, "span_id"));
      CHECK_STR(s, "name", "hook command");
      CHECK(nanos(run, "start_unix_nano") <= nanos(s, "start_unix_nano") &&
                nanos(s, "start_unix_nano") <= nanos(s, "end_unix_nano") &&
                nanos(s, "end_unix_nano") <= nanos(run, "end_unix_nano"),
            "hook span not inside its run: %s in %s", jraw(s), jraw(run));
    }
    jv *slow = hook_with(&c, "hook.command", "sleep 0.05");
    if (slow) CHECK(nanos(slow, "end_unix_nano") - nanos(slow, "start_unix_nano") >= 50000000ull, "%s", jraw(slow));
    /* Wall-clock sanity: the span started within a minute of now. */
    unsigned long long now = (unsigned long long)time(NULL) * 1000000000ull;
    CHECK(nanos(run, "start_unix_nano") + 60000000000ull > now && nanos(run, "start_unix_nano") < now + 60000000000ull,
          "start %llu vs now %llu", nanos(run, "start_unix_nano"), now);
  }
  collector_done(&c);
  test_end();
}

TEST(a_run_that_runs_no_hook_has_no_span) {
  ws_begin();
  hl_engine *e = eng(cc_config("PreToolUse", group("Write", cc_hook("true", 0))));
  collector c;
  collector_init(&c);
  set_collector(e, &c);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  hl_engine_free(e);
  CHECK(c.n == 0, "%d spans for runs that matched nothing", c.n);
  CHECK(atomic_load(&c.frees) == 1, "free ran %d times", atomic_load(&c.frees));
  collector_done(&c);
  test_end();
}

TEST(each_failure_kind_is_an_error_span_with_its_attributes) {
  ws_begin();
  const char *cmds[] = {"exit 3", "sleep 5", "kill -9 $$", "echo '{not json'", "true", NULL};
  hl_engine *e = eng(vt_cmds("stop", 1, cmds));
  collector c;
  collector_init(&c);
  set_collector(e, &c);
  run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  hl_engine_free(e);
  struct { const char *cmd, *failure; } want[] = {
      {"exit 3", "exit"}, {"sleep 5", "timeout"}, {"kill -9 $$", "signal"}, {"echo '{not json'", "invalid_output"}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    jv *s = hook_with(&c, "hook.command", want[i].cmd);
    if (!s) continue;
    CHECK_STR(s, "status", "error");
    CHECK(js(s, "status_message") && strstr(js(s, "status_message"), want[i].failure), "%s", jraw(s));
    CHECK(attr_s(s, "hook.failure") && !strcmp(attr_s(s, "hook.failure"), want[i].failure), "%s", jraw(s));
    CHECK(attr_s(s, "hook.dialect") && !strcmp(attr_s(s, "hook.dialect"), "vtcode"), "%s", jraw(s));
    CHECK(attr_s(s, "hook.source") != NULL, "%s", jraw(s));
  }
  jv *s = hook_with(&c, "hook.command", "exit 3");
  if (s) CHECK(attr_n(s, "hook.exit_code") == 3, "%s", jraw(s));
  s = hook_with(&c, "hook.command", "sleep 5");
  if (s) CHECK(attr_b(s, "hook.timed_out") == 1 && attr_n(s, "hook.timeout_ms") == 1000, "%s", jraw(s));
  s = hook_with(&c, "hook.command", "kill -9 $$");
  if (s) CHECK(attr_n(s, "hook.signal") == 9, "%s", jraw(s));
  s = hook_with(&c, "hook.command", "true");
  if (s) {
    CHECK_STR(s, "status", "ok");
    CHECK(!jhas(s, "status_message") && attr(s, "hook.failure") == NULL, "%s", jraw(s));
    CHECK(attr_n(s, "hook.exit_code") == 0 && attr_b(s, "hook.timed_out") == 0, "%s", jraw(s));
  }
  collector_done(&c);
  test_end();

  /* A hook that cannot start (its workspace is gone): failure spawn. */
  ws_begin();
  char *sub = wpath("gone");
  mkdir(sub, 0700);
  e = eng_new(fmt("{\"workspace\":%s,\"session_id\":\"s\",\"hooks\":%s}", jstr(sub), vt_cmds("stop", 0, (const char *[]){"true", NULL})));
  rmdir(sub);
  collector_init(&c);
  set_collector(e, &c);
  run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  hl_engine_free(e);
  s = hook_with(&c, "hook.command", "true");
  if (s) {
    CHECK_STR(s, "status", "error");
    CHECK(attr_s(s, "hook.failure") && !strcmp(attr_s(s, "hook.failure"), "spawn"), "%s", jraw(s));
  }
  collector_done(&c);
  test_end();
}

TEST(a_deny_is_an_answer_and_a_skipped_hook_says_why) {
  ws_begin();
  /* Claude Code: exit 2 denies; then a gated config whose hook is skipped (not approved). */
  hl_engine *e = eng_new(opts(cc_config("PreToolUse", group("Bash", cc_hook("echo nope >&2; exit 2", 0))), NULL));
  collector c;
  collector_init(&c);
  set_collector(e, &c);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "deny");
  hl_engine_free(e);
  jv *s = hook_with(&c, "hook.command", "echo nope >&2; exit 2");
  if (s) {
    CHECK_STR(s, "status", "ok");
    CHECK(attr_s(s, "hook.decision") && !strcmp(attr_s(s, "hook.decision"), "deny"), "%s", jraw(s));
    CHECK(attr_n(s, "hook.exit_code") == 2, "%s", jraw(s));
    CHECK(attr_s(s, "hook.dialect") && !strcmp(attr_s(s, "hook.dialect"), "claude"), "%s", jraw(s));
  }
  jv *run = the_run(&c);
  if (run) CHECK(attr_s(run, "hook.decision") && !strcmp(attr_s(run, "hook.decision"), "deny"), "%s", jraw(run));
  collector_done(&c);
  test_end();

  ws_begin();
  e = eng_new(opts(cc_config("PreToolUse", group("Bash", cc_hook("true", 0))),
                   fmt("\"workspace_gated\":true,\"trust_store\":%s", jstr(wpath("trust.json")))));
  collector_init(&c);
  set_collector(e, &c);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  hl_engine_free(e);
  s = hook_with(&c, "hook.command", "true");
  if (s) {
    CHECK(attr_s(s, "hook.skipped") && !strcmp(attr_s(s, "hook.skipped"), "not_approved"), "%s", jraw(s));
    CHECK(attr(s, "hook.exit_code") == NULL, "%s", jraw(s));
    CHECK(nanos(s, "end_unix_nano") - nanos(s, "start_unix_nano") < 50000000ull, "%s", jraw(s));
  }
  collector_done(&c);
  test_end();
}

TEST(a_traceparent_in_the_input_reaches_the_hook_process_with_the_hooks_span_as_parent) {
  ws_begin();
  const char *cmd = "printf '{\"systemMessage\":\"%s %s\"}' \"$TRACEPARENT\" \"$TRACESTATE\"";
  hl_engine *e = eng(cc_config("PreToolUse", group("Bash", cc_hook(cmd, 0))));
  collector c;
  collector_init(&c);
  set_collector(e, &c);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE,
                 "{\"tool_name\":\"Bash\",\"tool_input\":{},\"traceparent\":\"" HOST_TRACEPARENT
                 "\",\"tracestate\":\"rojo=00f067aa0ba902b7\"}");
  hl_engine_free(e);
  jv *run = the_run(&c);
  jv *hook = hook_with(&c, "hook.command", cmd);
  if (run && hook && o) {
    CHECK_STR(run, "trace_id", HOST_TRACE);
    CHECK_STR(run, "parent_span_id", HOST_SPAN);
    CHECK_STR(hook, "trace_id", HOST_TRACE);
    const char *printed = js(o, "messages[0].text");
    char *want = fmt("00-%s-%s-01 rojo=00f067aa0ba902b7", HOST_TRACE, js(hook, "span_id"));
    CHECK(printed && !strcmp(printed, want), "the hook printed %s, want %s", printed ? printed : "(nothing)", want);
  }
  collector_done(&c);
  test_end();
}

TEST(an_invalid_traceparent_starts_a_new_trace_and_the_run_span_says_why) {
  ws_begin();
  hl_engine *e = eng(cc_config("PreToolUse", group("Bash", cc_hook("true", 0))));
  collector c;
  collector_init(&c);
  set_collector(e, &c);
  run_ev(e, HL_EVENT_PRE_TOOL_USE,
         "{\"tool_name\":\"Bash\",\"tool_input\":{},\"traceparent\":\"00-" HOST_TRACE "-" HOST_SPAN "-1\"}");
  hl_engine_free(e);
  jv *run = the_run(&c);
  if (run) {
    CHECK(jnull(run, "parent_span_id"), "%s", jraw(run));
    CHECK(strcmp(js(run, "trace_id"), HOST_TRACE) != 0, "%s", jraw(run));
    CHECK(attr_s(run, "hook.traceparent.error") && strstr(attr_s(run, "hook.traceparent.error"), "55 characters"),
          "%s", jraw(run));
  }
  collector_done(&c);
  test_end();
}

TEST(spans_arrive_on_a_hookline_thread_where_blocking_runs_are_refused) {
  ws_begin();
  hl_engine *e = eng(cc_config("PreToolUse", group("Bash", cc_hook("true", 0))));
  collector c;
  collector_init(&c);
  c.engine = e;
  set_collector(e, &c);
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  double end = now_ms() + 10000;
  while (atomic_load(&c.calls) < 2 && now_ms() < end) sleep_ms(5);
  CHECK(atomic_load(&c.calls) == 2, "%d calls", atomic_load(&c.calls));
  CHECK(!pthread_equal(c.thread, pthread_self()), "the handler ran on the run's thread");
  CHECK(atomic_load(&c.wrong_thread) == 2, "hl_engine_run inside the handler: %d of 2 refused",
        atomic_load(&c.wrong_thread));
  c.engine = NULL;
  hl_engine_free(e);
  collector_done(&c);
  test_end();
}

TEST(removing_the_handler_releases_it_and_later_runs_send_nothing) {
  ws_begin();
  hl_engine *e = eng(cc_config("PreToolUse", group("Bash", cc_hook("true", 0))));
  collector c;
  collector_init(&c);
  set_collector(e, &c);
  char *em = NULL;
  CHECK_STATUS(hl_engine_set_trace_handler(e, NULL, NULL, NULL, &em), HL_OK);
  double end = now_ms() + 10000;
  while (atomic_load(&c.frees) < 1 && now_ms() < end) sleep_ms(5);
  CHECK(atomic_load(&c.frees) == 1, "free ran %d times after removal", atomic_load(&c.frees));
  run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  hl_engine_free(e);
  CHECK(c.n == 0 && atomic_load(&c.frees) == 1, "%d spans, %d frees", c.n, atomic_load(&c.frees));
  collector_done(&c);
  test_end();
}

/* ------------------------------------------- replacement while runs are in flight */

#define LIVE_MAGIC 0x5eed5eedu

typedef struct {
  unsigned magic;
  atomic_int in_call;
  atomic_int *frees, *bad, *calls;
} handler_state;

static void swap_fn(void *ud, const char *span_json) {
  handler_state *h = ud;
  if (h->magic != LIVE_MAGIC) { atomic_fetch_add(h->bad, 1); return; }
  atomic_fetch_add(&h->in_call, 1);
  if (strncmp(span_json, "{\"trace_id\":\"", 13) != 0) atomic_fetch_add(h->bad, 1);
  atomic_fetch_add(h->calls, 1);
  atomic_fetch_sub(&h->in_call, 1);
}

static void swap_free(void *ud) {
  handler_state *h = ud;
  if (h->magic != LIVE_MAGIC || atomic_load(&h->in_call) != 0) atomic_fetch_add(h->bad, 1);
  atomic_fetch_add(h->frees, 1);
  h->magic = 0;
  free(h); /* a later call with it is a use after free: ASan fails the test */
}

static int32_t cb_allow(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ud; (void)ctx; (void)len;
  return hl_reply_allow(reply) == HL_OK ? 0 : 1;
}

typedef struct {
  atomic_int pending;
} waiter;

static void done_count(void *ud, hl_status st, const char *outcome, const char *errmsg) {
  (void)st; (void)outcome; (void)errmsg;
  atomic_fetch_sub(&((waiter *)ud)->pending, 1);
}

typedef struct {
  hl_engine *e;
  atomic_int *stop;
  waiter *w;
} runner_args;

static void *runner(void *p) {
  runner_args *a = p;
  int i = 0;
  while (!atomic_load(a->stop)) {
    if (i++ % 2) {
      char *out = NULL;
      hl_engine_run(a->e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, &out, NULL);
      hl_string_free(out);
    } else {
      atomic_fetch_add(&a->w->pending, 1);
      if (hl_engine_run_async(a->e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_count, a->w, NULL, NULL) != HL_OK)
        atomic_fetch_sub(&a->w->pending, 1);
    }
  }
  return NULL;
}

TEST(replacing_or_removing_the_handler_while_runs_are_in_flight_frees_each_exactly_once_never_during_a_call) {
  ws_begin();
  /* A command hook and a callback hook: runs that hold their handler across a process spawn. */
  hl_engine *e = eng(cc_config("PreToolUse", group("Bash", cc_hook("true", 0))));
  char *em = NULL;
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, "Bash", "allow", cb_allow, NULL, NULL, &em), HL_OK);
  atomic_int frees = 0, bad = 0, stop = 0, calls = 0;
  waiter w = {0};
  runner_args a = {e, &stop, &w};
  pthread_t th[3];
  for (int i = 0; i < 3; i++) pthread_create(&th[i], NULL, runner, &a);
  int sets = 0;
  for (int i = 0; i < 300; i++) {
    if (i % 7 == 6) {
      CHECK_STATUS(hl_engine_set_trace_handler(e, NULL, NULL, NULL, NULL), HL_OK);
    } else {
      handler_state *h = calloc(1, sizeof *h);
      h->magic = LIVE_MAGIC;
      h->frees = &frees;
      h->bad = &bad;
      h->calls = &calls;
      hl_status st = hl_engine_set_trace_handler(e, swap_fn, h, swap_free, NULL);
      CHECK(st == HL_OK, "set: %s", hl_status_name(st));
      if (st == HL_OK) sets++;
      else free(h);
    }
    if (i % 10 == 0) sleep_ms(1);
  }
  atomic_store(&stop, 1);
  for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
  double end = now_ms() + 30000;
  while (atomic_load(&w.pending) > 0 && now_ms() < end) sleep_ms(5);
  hl_engine_free(e);
  CHECK(atomic_load(&frees) == sets, "%d handlers set, %d freed", sets, atomic_load(&frees));
  CHECK(atomic_load(&bad) == 0, "%d calls or frees of a released handler, or frees during a call", atomic_load(&bad));
  CHECK(atomic_load(&calls) > 0, "no span was delivered while handlers were swapped");
  test_end();
}

TEST(freeing_the_engine_with_runs_in_flight_delivers_their_spans_and_frees_the_handler) {
  ws_begin();
  hl_engine *e = eng(cc_config("PreToolUse", group("Bash", cc_hook("sleep 0.2", 0))));
  collector c;
  collector_init(&c);
  set_collector(e, &c);
  waiter w = {0};
  for (int i = 0; i < 4; i++) {
    atomic_fetch_add(&w.pending, 1);
    CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT, done_count, &w, NULL, NULL), HL_OK);
  }
  sleep_ms(50);
  hl_engine_free(e); /* cancels the runs; their spans are delivered before it returns */
  CHECK(atomic_load(&w.pending) == 0, "%d done calls missing", atomic_load(&w.pending));
  CHECK(atomic_load(&c.frees) == 1, "free ran %d times", atomic_load(&c.frees));
  int runs = 0, cancelled = 0;
  for (int i = 0; i < c.n; i++) {
    jv *s = span_at(&c, i);
    if (s && !strcmp(js(s, "level"), "run")) {
      runs++;
      if (!strcmp(js(s, "status"), "error") && attr_b(s, "hook.cancelled") == 1) cancelled++;
    }
  }
  CHECK(runs == 4 && cancelled == 4, "%d run spans, %d cancelled, of 4", runs, cancelled);
  collector_done(&c);
  test_end();
}

int main(void) {
  RUN(set_trace_handler_rejects_a_null_engine);
  RUN(a_run_span_is_the_parent_of_one_span_per_hook_and_lies_around_them);
  RUN(a_run_that_runs_no_hook_has_no_span);
  RUN(each_failure_kind_is_an_error_span_with_its_attributes);
  RUN(a_deny_is_an_answer_and_a_skipped_hook_says_why);
  RUN(a_traceparent_in_the_input_reaches_the_hook_process_with_the_hooks_span_as_parent);
  RUN(an_invalid_traceparent_starts_a_new_trace_and_the_run_span_says_why);
  RUN(spans_arrive_on_a_hookline_thread_where_blocking_runs_are_refused);
  RUN(removing_the_handler_releases_it_and_later_runs_send_nothing);
  RUN(replacing_or_removing_the_handler_while_runs_are_in_flight_frees_each_exactly_once_never_during_a_call);
  RUN(freeing_the_engine_with_runs_in_flight_delivers_their_spans_and_frees_the_handler);
  return DONE();
}
