/* Registry concurrency (docs/c-api.md §4, §9): 8 threads running while 2 threads
 * register and unregister; registries created, used and freed on many
 * threads at once. No crash, no deadlock, counts consistent, every
 * user_data released exactly once and never while its callback runs. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "harness.h"

#define RUNNERS 8
#define RUNS_PER_RUNNER 2000
#define REGISTRARS 2
#define CHURN_PER_REGISTRAR 2000
#define MAGIC 0x600dcafeu

typedef struct {
  unsigned magic;
  atomic_int in_call;
  int id;
} churn_data;

static atomic_long stable_calls;
static atomic_long churn_calls;
static atomic_long churn_allocated;
static atomic_long churn_freed;
static atomic_long freed_while_in_call;
static atomic_long bad_magic;
static atomic_long run_failures;
static atomic_long register_failures;

static int32_t stable_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ud;
  atomic_fetch_add(&stable_calls, 1);
  if (len != strlen(ctx)) atomic_fetch_add(&run_failures, 1);
  hl_reply_allow(reply);
  return 0;
}

static int32_t churn_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  churn_data *d = (churn_data *)ud;
  if (d->magic != MAGIC) atomic_fetch_add(&bad_magic, 1);
  atomic_fetch_add(&d->in_call, 1);
  atomic_fetch_add(&churn_calls, 1);
  /* Reply with modified_args half the time to exercise re-serialisation. */
  if (d->id % 2) hl_reply_set_json(reply, "{\"allow\":true,\"message\":\"\",\"modified_args\":{\"seen\":true}}", NULL);
  atomic_fetch_sub(&d->in_call, 1);
  return 0;
}

static void churn_free(void *ud) {
  churn_data *d = (churn_data *)ud;
  if (atomic_load(&d->in_call) != 0) atomic_fetch_add(&freed_while_in_call, 1);
  if (d->magic != MAGIC) atomic_fetch_add(&bad_magic, 1);
  d->magic = 0xdeadu;
  free(d);
  atomic_fetch_add(&churn_freed, 1);
}

static hl_registry *shared;

static void *runner(void *arg) {
  (void)arg;
  for (int i = 0; i < RUNS_PER_RUNNER; i++) {
    char *out = NULL, *err = NULL;
    hl_status s = hl_registry_run(shared, HL_POINT_PRE_TOOL_CALL_DECIDE,
                                  "{\"tool_name\":\"Bash\",\"tool_args\":{\"command\":\"ls\"}}", &out, &err);
    if (s != HL_OK || !out || !strstr(out, "\"allow\":true") || !strstr(out, "\"errors\":[]"))
      atomic_fetch_add(&run_failures, 1);
    hl_string_free(out);
    hl_string_free(err);
    if (i % 100 == 0) {
      char *entries = NULL;
      if (hl_registry_entries(shared, &entries, NULL) != HL_OK || !entries || !strstr(entries, "\"stable\""))
        atomic_fetch_add(&run_failures, 1);
      hl_string_free(entries);
    }
  }
  return NULL;
}

static void *registrar(void *arg) {
  int t = (int)(intptr_t)arg;
  for (int i = 0; i < CHURN_PER_REGISTRAR; i++) {
    char name[64];
    snprintf(name, sizeof name, "churn-%d-%d", t, i % 5);
    churn_data *d = malloc(sizeof *d);
    d->magic = MAGIC;
    atomic_init(&d->in_call, 0);
    d->id = i;
    atomic_fetch_add(&churn_allocated, 1);
    if (hl_registry_register(shared, HL_POINT_PRE_TOOL_CALL_DECIDE, name, churn_cb, d, churn_free, NULL) != HL_OK) {
      atomic_fetch_add(&register_failures, 1);
      free(d);
      atomic_fetch_add(&churn_freed, 1);
    }
    if (i % 3 == 0) {
      hl_status s = hl_registry_unregister(shared, HL_POINT_PRE_TOOL_CALL_DECIDE, name, NULL);
      if (s != HL_OK && s != HL_ERR_NOT_FOUND) atomic_fetch_add(&register_failures, 1);
    }
  }
  return NULL;
}

TEST(eight_runners_and_two_registrars_stay_consistent) {
  shared = hl_registry_new();
  CHECK_STATUS(hl_registry_register(shared, HL_POINT_PRE_TOOL_CALL_DECIDE, "stable", stable_cb, NULL, NULL, NULL), HL_OK);
  pthread_t th[RUNNERS + REGISTRARS];
  for (int i = 0; i < RUNNERS; i++) pthread_create(&th[i], NULL, runner, NULL);
  for (int i = 0; i < REGISTRARS; i++) pthread_create(&th[RUNNERS + i], NULL, registrar, (void *)(intptr_t)i);
  for (int i = 0; i < RUNNERS + REGISTRARS; i++) pthread_join(th[i], NULL);

  CHECK(atomic_load(&stable_calls) == (long)RUNNERS * RUNS_PER_RUNNER, "stable callback ran %ld times, want %d",
        atomic_load(&stable_calls), RUNNERS * RUNS_PER_RUNNER);
  CHECK(atomic_load(&run_failures) == 0, "%ld failed runs", atomic_load(&run_failures));
  CHECK(atomic_load(&register_failures) == 0, "%ld failed registrations", atomic_load(&register_failures));

  char *entries = NULL;
  CHECK_STATUS(hl_registry_entries(shared, &entries, NULL), HL_OK);
  CHECK(entries && strncmp(entries, "[{\"name\":\"stable\"", 17) == 0, "stable stays first: %.80s", entries ? entries : "");
  hl_string_free(entries);

  hl_registry_free(shared);
  CHECK(atomic_load(&churn_freed) == atomic_load(&churn_allocated), "freed %ld of %ld user_data",
        atomic_load(&churn_freed), atomic_load(&churn_allocated));
  CHECK(atomic_load(&freed_while_in_call) == 0, "%ld user_data freed during their call",
        atomic_load(&freed_while_in_call));
  CHECK(atomic_load(&bad_magic) == 0, "%ld calls on released user_data", atomic_load(&bad_magic));
  fprintf(stderr, "  %ld stable calls, %ld churn calls, %ld churn registrations\n", atomic_load(&stable_calls),
          atomic_load(&churn_calls), atomic_load(&churn_allocated));
}

/* Many threads each creating, using and freeing their own registries. */
static atomic_long own_freed;
static void count_free(void *ud) {
  (void)ud;
  atomic_fetch_add(&own_freed, 1);
}
static int32_t deny_cb(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ud;
  hl_reply_deny(reply, "no");
  return 0;
}

static void *own_registry_worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 300; i++) {
    hl_registry *r = hl_registry_new();
    hl_registry_register(r, HL_POINT_PRE_TURN, "a", deny_cb, NULL, count_free, NULL);
    hl_registry_register(r, HL_POINT_PRE_TURN, "a", deny_cb, NULL, count_free, NULL); /* replace */
    hl_registry_register(r, HL_POINT_ON_COMPACTION, "b", deny_cb, NULL, count_free, NULL);
    char *out = NULL;
    if (hl_registry_run(r, HL_POINT_PRE_TURN, "{\"prompt\":\"p\",\"turn_number\":1}", &out, NULL) != HL_OK ||
        !strstr(out, "\"allow\":false"))
      atomic_fetch_add(&run_failures, 1);
    hl_string_free(out);
    hl_registry_free(r);
  }
  return NULL;
}

TEST(registries_created_used_and_freed_on_many_threads) {
  atomic_store(&run_failures, 0);
  pthread_t th[6];
  for (int i = 0; i < 6; i++) pthread_create(&th[i], NULL, own_registry_worker, NULL);
  for (int i = 0; i < 6; i++) pthread_join(th[i], NULL);
  CHECK(atomic_load(&run_failures) == 0, "%ld failed runs", atomic_load(&run_failures));
  CHECK(atomic_load(&own_freed) == 6L * 300 * 3, "freed %ld, want %d", atomic_load(&own_freed), 6 * 300 * 3);
}

int main(void) {
  RUN(eight_runners_and_two_registrars_stay_consistent);
  RUN(registries_created_used_and_freed_on_many_threads);
  return DONE();
}
