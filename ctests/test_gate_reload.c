/* hl_engine_reload and the workspace gate (docs/protocol.md §10): the configuration is
 * swapped, the approval carries over only for an unchanged digest, the
 * trust store is consulted otherwise, a failed reload changes nothing, and
 * runs in flight finish with the configuration they started with. */
#include "gate_util.h"

#include <pthread.h>

static char *g_tmp;

#define HOOKS_A "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":\"touch ran_a\"}]}]}}"
#define HOOKS_A_CLAUDE "\"hooks\":{\"Notification\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"touch ran_a\"}]}]}"
#define HOOKS_B "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":\"touch ran_b\"}]}]}}"

static char *ws_new(const char *name) { return gu_subdir(g_tmp, name); }

static void rm_in(const char *dir, const char *name) {
  char *p = gu_fmt("%s/%s", dir, name);
  unlink(p);
  free(p);
}

/* Run Notification and return the outcome (malloc'd). */
static char *notify(hl_engine *e) { return gu_run(e, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT); }

static bool notify_skipped(hl_engine *e) {
  char *o = notify(e);
  bool r = o && strstr(o, "\"skipped\":\"not_approved\"");
  free(o);
  return r;
}

static char *digest_of(const char *ws, const char *hooks) {
  hl_engine *e = gu_engine_ws(ws, false, hooks, NULL);
  char *d = gu_digest(e);
  hl_engine_free(e);
  return d;
}

TEST(reload_swaps_the_configuration) {
  char *ws = ws_new("swap");
  hl_engine *e = gu_engine_ws(ws, false, HOOKS_A, NULL);
  char *da = gu_digest(e);
  char *o = gu_options(ws, false, HOOKS_B, NULL);
  char *err = NULL;
  CHECK_STATUS(gu_reload(e, o, &err), HL_OK);
  CHECK(err == NULL, "errmsg: %s", err ? err : "");
  free(err);
  char *out = notify(e);
  CHECK(gu_exists_in(ws, "ran_b"), "new hook runs after reload");
  CHECK(!gu_exists_in(ws, "ran_a"), "old hook does not run after reload");
  CHECK_CONTAINS(out, "\"command\":\"touch ran_b\"");
  free(out);
  char *db = gu_digest(e), *want_b = digest_of(ws, HOOKS_B);
  CHECK(db && da && strcmp(db, da) != 0 && strcmp(db, want_b) == 0, "digest follows the new config");
  char *p = gu_previews(e);
  CHECK_CONTAINS(p, "\"command\":\"touch ran_b\"");
  CHECK(p && !strstr(p, "ran_a"), "previews follow the new config: %s", p);
  free(p);
  /* Reloading to no hooks at all: nothing runs. */
  free(o);
  o = gu_options(ws, false, NULL, NULL);
  CHECK_STATUS(gu_reload(e, o, NULL), HL_OK);
  rm_in(ws, "ran_b");
  out = notify(e);
  CHECK(gu_hook_count(out) == 0, "no hooks after reload to none: %s", out);
  CHECK(!gu_exists_in(ws, "ran_b"), "removed hook ran");
  free(out);
  free(db); free(want_b); free(da); free(o);
  hl_engine_free(e);
  free(ws);
}

TEST(reload_with_unchanged_digest_keeps_the_approval) {
  char *ws = ws_new("carry");
  char *store = gu_fmt("%s/carry-store.json", g_tmp);
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  /* Same command set in the other dialect, other session: same digest. */
  char *wsj = gu_json_str(ws), *sj = gu_json_str(store);
  char *o = gu_fmt("{\"workspace\":%s,\"session_id\":\"s-other\",\"workspace_gated\":true,%s,\"trust_store\":%s}", wsj,
                   HOOKS_A_CLAUDE, sj);
  CHECK_STATUS(gu_reload(e, o, NULL), HL_OK);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "approval carries over an unchanged digest");
  CHECK(!notify_skipped(e), "hook not skipped");
  CHECK(gu_exists_in(ws, "ran_a"), "hook ran after the reload");
  CHECK(!gu_exists(store), "carrying an approval over writes nothing");
  free(o); free(wsj); free(sj);
  hl_engine_free(e);
  free(store);
  free(ws);
}

TEST(approval_for_one_digest_does_not_authorize_a_reload_to_another) {
  char *ws = ws_new("no-carry");
  char *store = gu_fmt("%s/no-carry-store.json", g_tmp);
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  CHECK(!notify_skipped(e), "A runs while approved");
  CHECK(gu_exists_in(ws, "ran_a"), "A ran");
  char *o = gu_options(ws, true, HOOKS_B, store);
  CHECK_STATUS(gu_reload(e, o, NULL), HL_OK);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "a new digest needs approval");
  char *out = notify(e);
  CHECK(!gu_exists_in(ws, "ran_b"), "unapproved reloaded hook ran");
  const char *cmd = "\"command\":\"touch ran_b\"";
  CHECK_CONTAINS(out, cmd);
  CHECK_CONTAINS(out, "\"skipped\":\"not_approved\"");
  CHECK_CONTAINS(out, "not approved");
  free(out);
  CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  CHECK(!notify_skipped(e), "B runs once approved");
  CHECK(gu_exists_in(ws, "ran_b"), "B ran");
  free(o);
  hl_engine_free(e);
  free(store);
  free(ws);
}

TEST(reload_back_consults_the_trust_store) {
  char *ws = ws_new("back");
  char *store = gu_fmt("%s/back-store.json", g_tmp);
  char *oa = gu_options(ws, true, HOOKS_A, store), *ob = gu_options(ws, true, HOOKS_B, store);

  /* Persisted A: A -> B -> A is approved again. */
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  CHECK_STATUS(gu_reload(e, ob, NULL), HL_OK);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "B not approved");
  CHECK_STATUS(gu_reload(e, oa, NULL), HL_OK);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "back to the persisted digest: approved from the store");
  CHECK(!notify_skipped(e), "A runs");
  CHECK(gu_exists_in(ws, "ran_a"), "A ran");
  hl_engine_free(e);

  /* In-memory approval of B only: B -> A -> B needs approval again. */
  e = gu_engine_ws(ws, true, HOOKS_B, store);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "B was never persisted");
  CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  CHECK_STATUS(gu_reload(e, oa, NULL), HL_OK);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "A approved by the store");
  CHECK_STATUS(gu_reload(e, ob, NULL), HL_OK);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "an unpersisted approval of B does not survive a reload away from B");
  CHECK(notify_skipped(e), "B skipped");
  CHECK(!gu_exists_in(ws, "ran_b"), "B ran without approval");
  hl_engine_free(e);
  free(oa); free(ob); free(store); free(ws);
}

TEST(reload_to_a_digest_persisted_elsewhere_starts_approved) {
  char *ws = ws_new("persisted-b");
  char *store = gu_fmt("%s/persisted-b-store.json", g_tmp);
  hl_engine *other = gu_engine_ws(ws, true, HOOKS_B, store);
  CHECK_STATUS(gu_approve(other, true, NULL), HL_OK);
  hl_engine_free(other);
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "A needs approval");
  char *ob = gu_options(ws, true, HOOKS_B, store);
  CHECK_STATUS(gu_reload(e, ob, NULL), HL_OK);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "B is in the trust store");
  CHECK(!notify_skipped(e), "B runs");
  CHECK(gu_exists_in(ws, "ran_b"), "B ran");
  /* Persisting after a reload records the new digest. */
  char *oa = gu_options(ws, true, HOOKS_A, store);
  CHECK_STATUS(gu_reload(e, oa, NULL), HL_OK);
  CHECK_STATUS(gu_approve(e, true, NULL), HL_OK);
  hl_engine *fresh = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK(!hl_engine_workspace_hooks_need_approval(fresh), "A persisted after the reload");
  hl_engine_free(fresh);
  free(oa); free(ob);
  hl_engine_free(e);
  free(store); free(ws);
}

TEST(approval_does_not_carry_to_another_workspace_on_reload) {
  /* Trust is per workspace, so a reload that moves the
   * engine to another workspace must not carry the approval. */
  char *ws1 = ws_new("move-1"), *ws2 = ws_new("move-2");
  char *store = gu_fmt("%s/move-store.json", g_tmp);
  hl_engine *e = gu_engine_ws(ws1, true, HOOKS_A, store);
  CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  char *o = gu_options(ws2, true, HOOKS_A, store);
  CHECK_STATUS(gu_reload(e, o, NULL), HL_OK);
  CHECK(hl_engine_workspace_hooks_need_approval(e), "approval bound to the first workspace");
  CHECK(notify_skipped(e), "skipped in the new workspace");
  CHECK(!gu_exists_in(ws2, "ran_a"), "hook ran in the new workspace");
  free(o);
  hl_engine_free(e);
  free(store); free(ws1); free(ws2);
}

TEST(reload_can_turn_the_gate_on_and_off) {
  char *ws = ws_new("flip");
  char *store = gu_fmt("%s/flip-store.json", g_tmp);
  hl_engine *e = gu_engine_ws(ws, false, HOOKS_A, store);
  char *gated = gu_options(ws, true, HOOKS_A, store), *open = gu_options(ws, false, HOOKS_A, store);
  CHECK_STATUS(gu_reload(e, gated, NULL), HL_OK);
  CHECK(hl_engine_workspace_gated(e), "gated after reload");
  CHECK(hl_engine_workspace_hooks_need_approval(e), "gating an engine requires approval");
  CHECK(notify_skipped(e), "skipped");
  CHECK(!gu_exists_in(ws, "ran_a"), "ran while gated");
  CHECK_STATUS(gu_reload(e, open, NULL), HL_OK);
  CHECK(!hl_engine_workspace_gated(e), "ungated after reload");
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "ungated needs no approval");
  CHECK(!notify_skipped(e), "runs");
  CHECK(gu_exists_in(ws, "ran_a"), "ran when ungated");
  free(gated); free(open);
  hl_engine_free(e);
  free(store); free(ws);
}

static int32_t cb_mark(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ctx; (void)len; (void)reply;
  (*(int *)ud)++;
  return 0;
}

TEST(reload_keeps_callback_hooks) {
  /* Callback hooks are host code, not configuration: a reload keeps them. */
  char *ws = ws_new("keep-cb");
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, NULL);
  int calls = 0;
  CHECK_STATUS(hl_engine_add_callback_hook(e, HL_EVENT_NOTIFICATION, NULL, "host", cb_mark, &calls, NULL, NULL), HL_OK);
  char *o = gu_options(ws, true, HOOKS_B, NULL);
  CHECK_STATUS(gu_reload(e, o, NULL), HL_OK);
  char *out = notify(e);
  CHECK(calls == 1, "callback ran %d times after reload", calls);
  CHECK_CONTAINS(out, "\"name\":\"host\"");
  free(out);
  free(o);
  hl_engine_free(e);
  free(ws);
}

TEST(failed_reload_changes_nothing) {
  char *ws = ws_new("failed");
  char *store = gu_fmt("%s/failed-store.json", g_tmp);
  hl_engine *e = gu_engine_ws(ws, true, HOOKS_A, store);
  CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  char *before = gu_digest(e), *prev_before = gu_previews(e);
  char *wsj = gu_json_str(ws), *sj = gu_json_str(store);
  char *missing_ws = gu_fmt("%s/does-not-exist", g_tmp), *mwsj = gu_json_str(missing_ws);
  char *missing_file = gu_fmt("%s/missing-hooks.json", g_tmp), *mfj = gu_json_str(missing_file);
  struct {
    char *options;
    hl_status want;
  } cases[] = {
      /* invalid hooks config: an empty command */
      {gu_fmt("{\"workspace\":%s,\"session_id\":\"s\",\"workspace_gated\":true,\"trust_store\":%s,"
              "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":\"\"}]}]}}}", wsj, sj),
       HL_ERR_INVALID_CONFIG},
      /* invalid matcher */
      {gu_fmt("{\"workspace\":%s,\"session_id\":\"s\",\"workspace_gated\":true,\"trust_store\":%s,"
              "\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"matcher\":\"(\",\"hooks\":[{\"command\":\"touch ran_b\"}]}]}}}", wsj, sj),
       HL_ERR_INVALID_CONFIG},
      /* malformed JSON */
      {gu_fmt("{\"workspace\":%s,", wsj), HL_ERR_INVALID_JSON},
      /* missing workspace directory */
      {gu_fmt("{\"workspace\":%s,\"session_id\":\"s\",\"workspace_gated\":true,%s}", mwsj, HOOKS_B), HL_ERR_INVALID_ARGUMENT},
      /* missing session_id */
      {gu_fmt("{\"workspace\":%s,\"workspace_gated\":true,%s}", wsj, HOOKS_B), HL_ERR_INVALID_ARGUMENT},
      /* two hooks sources */
      {gu_fmt("{\"workspace\":%s,\"session_id\":\"s\",%s,\"hooks_toml\":\"\"}", wsj, HOOKS_B), HL_ERR_INVALID_ARGUMENT},
      /* unreadable hooks_file */
      {gu_fmt("{\"workspace\":%s,\"session_id\":\"s\",\"workspace_gated\":true,\"hooks_file\":%s}", wsj, mfj), HL_ERR_IO},
      /* wrong type */
      {gu_fmt("{\"workspace\":%s,\"session_id\":\"s\",\"workspace_gated\":\"yes\",%s}", wsj, HOOKS_B), HL_ERR_INVALID_ARGUMENT},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *err = NULL;
    CHECK_STATUS(gu_reload(e, cases[i].options, &err), cases[i].want);
    CHECK(err && *err, "case %zu: an error message", i);
    free(err);
    char *after = gu_digest(e), *prev_after = gu_previews(e);
    CHECK(after && before && strcmp(after, before) == 0, "case %zu: digest changed by a failed reload", i);
    CHECK(prev_after && prev_before && strcmp(prev_after, prev_before) == 0, "case %zu: previews changed", i);
    CHECK(hl_engine_workspace_gated(e), "case %zu: still gated", i);
    CHECK(!hl_engine_workspace_hooks_need_approval(e), "case %zu: approval kept", i);
    rm_in(ws, "ran_a");
    char *out = notify(e);
    CHECK(gu_exists_in(ws, "ran_a"), "case %zu: the old hook still runs", i);
    CHECK(!gu_exists_in(ws, "ran_b"), "case %zu: the rejected hook ran", i);
    CHECK(out && !strstr(out, "not_approved"), "case %zu: %s", i, out ? out : "");
    free(out);
    free(after);
    free(prev_after);
    free(cases[i].options);
  }
  CHECK_STATUS(gu_reload(e, NULL, NULL), HL_ERR_NULL_ARGUMENT);
  CHECK_STATUS(gu_reload(NULL, "{}", NULL), HL_ERR_NULL_ARGUMENT);
  CHECK(!hl_engine_workspace_hooks_need_approval(e), "approval kept after NULL reloads");
  free(wsj); free(sj); free(mwsj); free(missing_ws); free(missing_file); free(mfj);
  free(before); free(prev_before);
  hl_engine_free(e);
  free(store); free(ws);
}

/* -------------------------------------------------------------- in flight */

struct done_wait {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;
  hl_status st;
  char *outcome;
};

static void on_done(void *ud, hl_status st, const char *outcome, const char *err) {
  (void)err;
  struct done_wait *w = (struct done_wait *)ud;
  pthread_mutex_lock(&w->mu);
  w->done++;
  w->st = st;
  w->outcome = outcome ? strdup(outcome) : NULL;
  pthread_cond_broadcast(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

static bool wait_done(struct done_wait *w, int seconds) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += seconds;
  pthread_mutex_lock(&w->mu);
  while (!w->done) {
    if (pthread_cond_timedwait(&w->cv, &w->mu, &deadline) != 0) break;
  }
  bool r = w->done == 1;
  pthread_mutex_unlock(&w->mu);
  return r;
}

/* Start an async run of `ev` whose first hook touches `started` then
 * sleeps 1 s; once it has started, reload to `reload_hooks`; check that the
 * run produced `want` markers and none of `unwanted`. */
static void in_flight_case(bool gated, hl_event ev, const char *input, const char *hooks, const char *reload_hooks,
                           const char *const *want, int nwant, const char *const *unwanted, int nunwanted) {
  static int n = 0;
  char name[32];
  snprintf(name, sizeof name, "inflight-%d", n++);
  char *ws = ws_new(name);
  char *store = gu_fmt("%s/%s-store.json", g_tmp, name);
  hl_engine *e = gu_engine_ws(ws, gated, hooks, store);
  if (gated) CHECK_STATUS(gu_approve(e, false, NULL), HL_OK);
  struct done_wait w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, -1, NULL};
  uint64_t run_id = 0;
  CHECK_STATUS(hl_engine_run_async(e, ev, input, on_done, &w, &run_id, NULL), HL_OK);
  char *started = gu_fmt("%s/started", ws);
  CHECK(gu_wait_for(started, 10), "the in-flight hook started");
  char *o = gu_options(ws, gated, reload_hooks, store);
  CHECK_STATUS(gu_reload(e, o, NULL), HL_OK);
  CHECK(wait_done(&w, 15), "done called once within the timeout");
  CHECK(w.st == HL_OK, "run status %s", hl_status_name(w.st));
  for (int i = 0; i < nwant; i++)
    CHECK(gu_exists_in(ws, want[i]), "%s: in-flight run did not finish with its own config (%s missing): %s", name,
          want[i], w.outcome ? w.outcome : "");
  for (int i = 0; i < nunwanted; i++)
    CHECK(!gu_exists_in(ws, unwanted[i]), "%s: in-flight run used the reloaded config (%s exists)", name, unwanted[i]);
  CHECK(w.outcome && !strstr(w.outcome, "touch b"), "outcome reports the new config: %s", w.outcome ? w.outcome : "");
  free(w.outcome);
  free(o);
  free(started);
  hl_engine_free(e);
  free(store);
  free(ws);
}

TEST(in_flight_run_finishes_with_the_config_it_started_with) {
  const char *want[] = {"marker_a"};
  const char *unwanted[] = {"marker_b"};
  in_flight_case(false, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT,
                 "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":\"touch started; sleep 1; touch marker_a\"}]}]}}",
                 "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":\"touch b; touch marker_b\"}]}]}}",
                 want, 1, unwanted, 1);
}

TEST(in_flight_sequential_run_keeps_its_remaining_hooks_after_reload) {
  /* A decision event runs hooks one after another: the second hook of the
   * old config still runs after the reload; none of the new config does. */
  const char *want[] = {"marker_a1", "marker_a2"};
  const char *unwanted[] = {"marker_b"};
  in_flight_case(false, HL_EVENT_PRE_TOOL_USE, GU_PRE_TOOL_INPUT,
                 "\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"hooks\":[{\"command\":\"touch started; sleep 1; touch marker_a1\"},"
                 "{\"command\":\"touch marker_a2\"}]}]}}",
                 "\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"hooks\":[{\"command\":\"touch b; touch marker_b\"}]}]}}",
                 want, 2, unwanted, 1);
}

TEST(in_flight_gated_run_is_not_replaced_by_the_reloaded_config) {
  const char *want[] = {"marker_a"};
  const char *unwanted[] = {"marker_b"};
  in_flight_case(true, HL_EVENT_NOTIFICATION, GU_NOTIFICATION_INPUT,
                 "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":\"touch started; sleep 1; touch marker_a\"}]}]}}",
                 "\"hooks\":{\"lifecycle\":{\"notification\":[{\"hooks\":[{\"command\":\"touch b; touch marker_b\"}]}]}}",
                 want, 1, unwanted, 1);
}

TEST(in_flight_gated_run_skips_remaining_old_commands_after_reload_to_unapproved_digest) {
  /* docs/protocol.md §10: a gated engine keeps exactly one approved digest and
   * every spawn is checked against it, so after a reload to an unapproved
   * D' the remaining commands of a run still executing D are skipped (fail
   * closed), and nothing of D' runs. */
  const char *want[] = {"marker_a1"};
  const char *unwanted[] = {"marker_a2", "marker_b"};
  in_flight_case(true, HL_EVENT_PRE_TOOL_USE, GU_PRE_TOOL_INPUT,
                 "\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"hooks\":[{\"command\":\"touch started; sleep 1; touch marker_a1\"},"
                 "{\"command\":\"touch marker_a2\"}]}]}}",
                 "\"hooks\":{\"lifecycle\":{\"pre_tool_use\":[{\"hooks\":[{\"command\":\"touch b; touch marker_b\"}]}]}}",
                 want, 1, unwanted, 2);
}

int main(void) {
  g_tmp = gu_mkdtemp();
  char *default_store = gu_fmt("%s/default-store/trust.json", g_tmp);
  setenv("HOOKLINE_TRUST_STORE", default_store, 1);
  free(default_store);
  RUN(reload_swaps_the_configuration);
  RUN(reload_with_unchanged_digest_keeps_the_approval);
  RUN(approval_for_one_digest_does_not_authorize_a_reload_to_another);
  RUN(reload_back_consults_the_trust_store);
  RUN(reload_to_a_digest_persisted_elsewhere_starts_approved);
  RUN(approval_does_not_carry_to_another_workspace_on_reload);
  RUN(reload_can_turn_the_gate_on_and_off);
  RUN(reload_keeps_callback_hooks);
  RUN(failed_reload_changes_nothing);
  RUN(in_flight_run_finishes_with_the_config_it_started_with);
  RUN(in_flight_sequential_run_keeps_its_remaining_hooks_after_reload);
  RUN(in_flight_gated_run_is_not_replaced_by_the_reloaded_config);
  RUN(in_flight_gated_run_skips_remaining_old_commands_after_reload_to_unapproved_digest);
  gu_rmtree(g_tmp);
  free(g_tmp);
  return DONE();
}
