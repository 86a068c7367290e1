/* Host handlers (hl_engine_set_handler) for prompt, agent and mcp_tool hooks,
 * deferred replies (hl_reply_defer / hl_deferred_finish), and an http hook
 * against a loopback server of this test (docs/c-api.md, docs/protocol.md).
 * Run under ASan/LSan by `make test-c-sanitize`: every user_data is freed
 * exactly once, never during a call. */
#include "engine_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <sys/socket.h>

/* ------------------------------------------------------------ a handler's state */

typedef struct {
  atomic_int calls;
  atomic_int frees;
  atomic_int in_call; /* calls running right now */
  atomic_int freed_during_call;
  const char *reply; /* JSON the handler answers with (NULL: none) */
  int rc;            /* what it returns */
  int sleep_ms;      /* how long it blocks first */
  int defer_ms;      /* >0: defer and answer from a thread after this long */
  char last_request[8192];
  pthread_mutex_t mu;
  /* gate: when set, the handler waits until `go` */
  int wait_for_go;
  int entered, go;
  pthread_cond_t cv;
} handler_t;

static void handler_init(handler_t *h, const char *reply) {
  memset(h, 0, sizeof *h);
  h->reply = reply;
  pthread_mutex_init(&h->mu, NULL);
  pthread_cond_init(&h->cv, NULL);
}

static void handler_destroy(handler_t *h) {
  pthread_mutex_destroy(&h->mu);
  pthread_cond_destroy(&h->cv);
}

typedef struct {
  hl_deferred *d;
  const char *reply;
  int ms;
} later_t;

static void *answer_later(void *arg) {
  later_t *l = arg;
  sleep_ms(l->ms);
  char *err = NULL;
  hl_status st = hl_deferred_finish(l->d, 0, l->reply, &err);
  if (st != HL_OK) fprintf(stderr, "hl_deferred_finish: %s\n", err ? err : "");
  hl_string_free(err);
  free(l);
  return NULL;
}

static int32_t handler_cb(void *user_data, const char *request, size_t len, hl_reply *reply) {
  handler_t *h = user_data;
  atomic_fetch_add(&h->in_call, 1);
  atomic_fetch_add(&h->calls, 1);
  pthread_mutex_lock(&h->mu);
  size_t n = len < sizeof h->last_request - 1 ? len : sizeof h->last_request - 1;
  memcpy(h->last_request, request, n);
  h->last_request[n] = 0;
  if (h->wait_for_go) {
    h->entered = 1;
    pthread_cond_broadcast(&h->cv);
    while (!h->go) pthread_cond_wait(&h->cv, &h->mu);
  }
  pthread_mutex_unlock(&h->mu);
  if (h->sleep_ms) sleep_ms(h->sleep_ms);
  int32_t rc = h->rc;
  if (h->defer_ms > 0) {
    later_t *l = malloc(sizeof *l);
    l->reply = h->reply;
    l->ms = h->defer_ms;
    char *err = NULL;
    if (hl_reply_defer(reply, &l->d, &err) != HL_OK) {
      fprintf(stderr, "hl_reply_defer: %s\n", err ? err : "");
      hl_string_free(err);
      free(l);
      rc = 1;
    } else {
      pthread_t t;
      pthread_create(&t, NULL, answer_later, l);
      pthread_detach(t);
    }
  } else if (h->reply) {
    hl_reply_set_json(reply, h->reply, NULL);
  }
  atomic_fetch_sub(&h->in_call, 1);
  return rc;
}

static void handler_free(void *user_data) {
  handler_t *h = user_data;
  if (atomic_load(&h->in_call) > 0) atomic_fetch_add(&h->freed_during_call, 1);
  atomic_fetch_add(&h->frees, 1);
}

static void set(hl_engine *e, const char *type, handler_t *h) {
  char *err = NULL;
  CHECK_STATUS(hl_engine_set_handler(e, type, handler_cb, h, handler_free, &err), HL_OK);
  CHECK(err == NULL, "errmsg set on success");
  hl_string_free(err);
}

static char *prompt_hooks(const char *event, const char *hook) {
  return fmt("{\"%s\":[{\"hooks\":[%s]}]}", event, hook);
}

/* ------------------------------------------------------------ tests */

TEST(set_handler_answers_prompt_hooks_and_frees_user_data_once_on_free) {
  ws_begin();
  handler_t h;
  handler_init(&h, "{\"ok\":false,\"reason\":\"tests still fail\"}");
  hl_engine *e = eng(prompt_hooks("Stop", "{\"type\":\"prompt\",\"prompt\":\"Done? $ARGUMENTS\",\"model\":\"m\"}"));
  set(e, "prompt", &h);
  jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "block_reason", "tests still fail");
  CHECK_STR(o, "hooks[0].kind", "prompt");
  CHECK_STR(o, "hooks[0].prompt", "Done? $ARGUMENTS");
  CHECK_NULL(o, "hooks[0].failure");
  jv *req = track_jv(jv_parse(h.last_request));
  CHECK_STR(req, "type", "prompt");
  CHECK_STR(req, "event", "Stop");
  CHECK_STR(req, "model", "m");
  CHECK_NUM(req, "timeout_ms", 30000);
  CHECK_STR(req, "input.hook_event_name", "Stop");
  CHECK_CONTAINS(js(req, "prompt"), "Done? {");
  hl_engine_free(e);
  CHECK(atomic_load(&h.frees) == 1, "freed %d times", atomic_load(&h.frees));
  handler_destroy(&h);
  test_end();
}

TEST(set_handler_rejects_unknown_types_and_null_arguments_keeping_user_data) {
  ws_begin();
  handler_t h;
  handler_init(&h, NULL);
  hl_engine *e = eng(NULL);
  char *err = NULL;
  CHECK_STATUS(hl_engine_set_handler(e, "command", handler_cb, &h, handler_free, &err), HL_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(err, "unknown handler type");
  hl_string_free(err);
  err = NULL;
  CHECK_STATUS(hl_engine_set_handler(e, NULL, handler_cb, &h, handler_free, &err), HL_ERR_NULL_ARGUMENT);
  hl_string_free(err);
  CHECK_STATUS(hl_engine_set_handler(NULL, "prompt", handler_cb, &h, handler_free, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_engine_set_handler(e, "\xff", handler_cb, &h, handler_free, NULL), HL_ERR_INVALID_UTF8);
  hl_engine_free(e);
  CHECK(atomic_load(&h.frees) == 0, "a refused registration freed user_data");
  handler_destroy(&h);
  test_end();
}

TEST(no_handler_is_a_non_blocking_no_handler_failure_and_null_cb_removes) {
  ws_begin();
  handler_t h;
  handler_init(&h, "{\"ok\":false,\"reason\":\"no\"}");
  hl_engine *e = eng(prompt_hooks("PreToolUse", "{\"type\":\"prompt\",\"prompt\":\"safe?\"}"));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "hooks[0].failure", "no_handler");
  CHECK_STR(o, "decision", "continue");
  set(e, "prompt", &h);
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "decision", "deny");
  CHECK_STATUS(hl_engine_set_handler(e, "prompt", NULL, NULL, NULL, NULL), HL_OK);
  CHECK(atomic_load(&h.frees) == 1, "removing did not free user_data (%d)", atomic_load(&h.frees));
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "hooks[0].failure", "no_handler");
  hl_engine_free(e);
  CHECK(atomic_load(&h.frees) == 1, "freed %d times", atomic_load(&h.frees));
  handler_destroy(&h);
  test_end();
}

TEST(a_failing_handler_is_a_handler_failure_and_fail_closed_denies) {
  ws_begin();
  handler_t h;
  handler_init(&h, "{\"ok\":true}");
  h.rc = 7;
  hl_engine *e = eng(prompt_hooks(
      "PreToolUse", "{\"type\":\"prompt\",\"prompt\":\"a\"},{\"type\":\"prompt\",\"prompt\":\"b\",\"failClosed\":true}"));
  set(e, "prompt", &h);
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
  CHECK_STR(o, "hooks[0].failure", "handler");
  CHECK_STR(o, "hooks[1].failure", "handler");
  CHECK_STR(o, "decision", "deny");
  hl_engine_free(e);
  handler_destroy(&h);
  test_end();
}

TEST(a_handler_that_blocks_past_the_timeout_counts_as_timed_out) {
  ws_begin();
  handler_t h;
  handler_init(&h, "{\"ok\":false,\"reason\":\"late\"}");
  h.sleep_ms = 1300;
  hl_engine *e = eng(prompt_hooks("Stop", "{\"type\":\"prompt\",\"prompt\":\"p\",\"timeout\":1}"));
  set(e, "prompt", &h);
  jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "hooks[0].failure", "timeout");
  CHECK_BOOL(o, "hooks[0].timed_out", 1);
  CHECK_NULL(o, "block_reason");
  hl_engine_free(e);
  handler_destroy(&h);
  test_end();
}

TEST(a_deferred_reply_from_another_thread_is_used_and_a_late_one_times_out) {
  ws_begin();
  handler_t h;
  handler_init(&h, "{\"ok\":false,\"reason\":\"deferred\"}");
  h.defer_ms = 30;
  hl_engine *e = eng(prompt_hooks("Stop", "{\"type\":\"agent\",\"prompt\":\"p\",\"timeout\":1}"));
  set(e, "agent", &h);
  jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "block_reason", "deferred");
  h.defer_ms = 2000;
  double t0 = now_ms();
  o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "hooks[0].failure", "timeout");
  CHECK(now_ms() - t0 < 1900, "waited %.0f ms for a late reply", now_ms() - t0);
  hl_engine_free(e);
  sleep_ms(2200); /* the late answer's thread finishes (and frees its handle) */
  handler_destroy(&h);
  test_end();
}

static int32_t defer_in_callback_hook(void *user_data, const char *ctx, size_t len, hl_reply *reply) {
  hl_deferred *d = (hl_deferred *)0x1;
  char *err = NULL;
  hl_status st = hl_reply_defer(reply, &d, &err);
  *(hl_status *)user_data = st;
  if (d != NULL) return 2; /* out-parameter must be NULL on failure */
  hl_string_free(err);
  return 0;
}

TEST(only_handlers_may_defer_their_reply) {
  ws_begin();
  hl_engine *e = eng(NULL);
  hl_status seen = HL_OK;
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_STOP, NULL, "cb", defer_in_callback_hook, &seen, NULL, NULL),
               HL_OK);
  jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK(seen == HL_ERR_INVALID_ARGUMENT, "hl_reply_defer in a callback hook: %s", hl_status_name(seen));
  CHECK_NUM(o, "hooks[0].exit_code", 0);
  CHECK_STATUS(hl_reply_defer(NULL, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(hl_deferred_finish(NULL, 0, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  hl_engine_free(e);
  test_end();
}

typedef struct {
  atomic_int done;
  char outcome[4096];
  hl_status status;
} async_t;

static void on_done(void *user_data, hl_status status, const char *outcome, const char *errmsg) {
  async_t *a = user_data;
  a->status = status;
  if (outcome) snprintf(a->outcome, sizeof a->outcome, "%s", outcome);
  atomic_store(&a->done, 1);
}

TEST(replacing_a_handler_while_a_run_is_in_flight_is_safe) {
  ws_begin();
  handler_t first, second;
  handler_init(&first, "{\"ok\":false,\"reason\":\"first\"}");
  handler_init(&second, "{\"ok\":false,\"reason\":\"second\"}");
  first.wait_for_go = 1;
  hl_engine *e = eng(prompt_hooks("Stop", "{\"type\":\"prompt\",\"prompt\":\"p\",\"timeout\":30}"));
  set(e, "prompt", &first);
  async_t a = {0};
  CHECK_STATUS(hl_engine_run_async(e, HL_EVENT_STOP, STOP_INPUT, on_done, &a, NULL, NULL), HL_OK);
  pthread_mutex_lock(&first.mu);
  double t0 = now_ms();
  while (!first.entered && now_ms() - t0 < 10000) {
    pthread_mutex_unlock(&first.mu);
    sleep_ms(2);
    pthread_mutex_lock(&first.mu);
  }
  pthread_mutex_unlock(&first.mu);
  set(e, "prompt", &second); /* while `first` is inside its call */
  CHECK(atomic_load(&first.frees) == 0, "replaced handler freed during its call");
  pthread_mutex_lock(&first.mu);
  first.go = 1;
  pthread_cond_broadcast(&first.cv);
  pthread_mutex_unlock(&first.mu);
  t0 = now_ms();
  while (!atomic_load(&a.done) && now_ms() - t0 < 10000) sleep_ms(2);
  CHECK(a.status == HL_OK, "run: %s", hl_status_name(a.status));
  CHECK_CONTAINS(a.outcome, "\"block_reason\":\"first\"");
  t0 = now_ms();
  while (atomic_load(&first.frees) == 0 && now_ms() - t0 < 5000) sleep_ms(2);
  CHECK(atomic_load(&first.frees) == 1, "first freed %d times", atomic_load(&first.frees));
  CHECK(atomic_load(&first.freed_during_call) == 0, "freed while in flight");
  jv *o = run_ev(e, HL_EVENT_STOP, STOP_INPUT);
  CHECK_STR(o, "block_reason", "second");
  hl_engine_free(e);
  CHECK(atomic_load(&second.frees) == 1, "second freed %d times", atomic_load(&second.frees));
  handler_destroy(&first);
  handler_destroy(&second);
  test_end();
}

TEST(mcp_tool_hooks_get_their_input_filled_and_read_the_tool_text_as_stdout) {
  ws_begin();
  handler_t h;
  handler_init(&h, "{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"decision\\\":\\\"block\\\",\\\"reason\\\":\\\"scan found a key\\\"}\"}]}");
  hl_engine *e = eng(prompt_hooks("PostToolUse", "{\"type\":\"mcp_tool\",\"server\":\"sec\",\"tool\":\"scan\","
                                                 "\"input\":{\"cmd\":\"${tool_input.command}\"}}"));
  set(e, "mcp_tool", &h);
  jv *o = run_ev(e, HL_EVENT_POST_TOOL_USE, POST_INPUT);
  CHECK_STR(o, "block_reason", "scan found a key");
  CHECK_STR(o, "hooks[0].server", "sec");
  CHECK_STR(o, "hooks[0].tool", "scan");
  jv *req = track_jv(jv_parse(h.last_request));
  CHECK_STR(req, "type", "mcp_tool");
  CHECK(js(req, "input.cmd") != NULL, "no filled input in %s", h.last_request);
  hl_engine_free(e);
  handler_destroy(&h);
  test_end();
}

/* ------------------------------------------------------------ an http hook, loopback */

typedef struct {
  int fd;
  int port;
  atomic_int requests;
  atomic_int stop;
  pthread_t thread;
} server_t;

/* One connection at a time; answers every request with a JSON deny (keep-alive). */
static void *serve(void *arg) {
  server_t *s = arg;
  while (!atomic_load(&s->stop)) {
    int c = accept(s->fd, NULL, NULL);
    if (c < 0) {
      sleep_ms(2);
      continue;
    }
    struct timeval tv = {0, 100000};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buf[65536];
    size_t have = 0;
    for (int rounds = 0; rounds < 2000 && !atomic_load(&s->stop); rounds++) {
      ssize_t n = recv(c, buf + have, sizeof buf - 1 - have, 0);
      if (n == 0) break;
      if (n < 0) continue;
      have += (size_t)n;
      buf[have] = 0;
      char *end = strstr(buf, "\r\n\r\n");
      if (!end) continue;
      char *cl = strcasestr(buf, "content-length:");
      size_t body = cl ? (size_t)atol(cl + 15) : 0;
      size_t need = (size_t)(end + 4 - buf) + body;
      if (have < need) continue;
      atomic_fetch_add(&s->requests, 1);
      const char *json = "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                         "\"permissionDecisionReason\":\"http says no\"}}";
      char resp[512];
      int len = snprintf(resp, sizeof resp, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                         strlen(json), json);
      if (send(c, resp, (size_t)len, MSG_NOSIGNAL) < 0) break;
      memmove(buf, buf + need, have - need);
      have -= need;
    }
    close(c);
  }
  return NULL;
}

static int server_start(server_t *s) {
  memset(s, 0, sizeof *s);
  s->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(s->fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(s->fd, 16) != 0) return -1;
  socklen_t l = sizeof a;
  getsockname(s->fd, (struct sockaddr *)&a, &l);
  s->port = ntohs(a.sin_port);
  return pthread_create(&s->thread, NULL, serve, s);
}

static void server_stop(server_t *s) {
  atomic_store(&s->stop, 1);
  pthread_join(s->thread, NULL);
  close(s->fd);
}

TEST(an_http_hook_posts_to_a_loopback_server_and_its_json_decides) {
  ws_begin();
  server_t s;
  CHECK(server_start(&s) == 0, "server did not start");
  hl_engine *e = eng(prompt_hooks("PreToolUse", fmt("{\"type\":\"http\",\"url\":\"http://127.0.0.1:%d/h\",\"timeout\":5}", s.port)));
  for (int i = 0; i < 3; i++) {
    jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, PTU_INPUT);
    CHECK_STR(o, "decision", "deny");
    CHECK_STR(o, "reason", "http says no");
    CHECK_STR(o, "hooks[0].kind", "http");
    CHECK_NUM(o, "hooks[0].status", 200);
  }
  CHECK(atomic_load(&s.requests) == 3, "server saw %d requests", atomic_load(&s.requests));
  hl_engine_free(e);
  server_stop(&s);
  test_end();
}

int main(void) {
  RUN(set_handler_answers_prompt_hooks_and_frees_user_data_once_on_free);
  RUN(set_handler_rejects_unknown_types_and_null_arguments_keeping_user_data);
  RUN(no_handler_is_a_non_blocking_no_handler_failure_and_null_cb_removes);
  RUN(a_failing_handler_is_a_handler_failure_and_fail_closed_denies);
  RUN(a_handler_that_blocks_past_the_timeout_counts_as_timed_out);
  RUN(a_deferred_reply_from_another_thread_is_used_and_a_late_one_times_out);
  RUN(only_handlers_may_defer_their_reply);
  RUN(replacing_a_handler_while_a_run_is_in_flight_is_safe);
  RUN(mcp_tool_hooks_get_their_input_filled_and_read_the_tool_text_as_stdout);
  RUN(an_http_hook_posts_to_a_loopback_server_and_its_json_decides);
  return DONE();
}
