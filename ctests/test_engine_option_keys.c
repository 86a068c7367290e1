/* Unknown top-level option keys and an empty session_id are HL_ERR_INVALID_ARGUMENT, for
 * hl_engine_new and hl_engine_reload alike: a misspelled `workspace_gated` must never build an
 * ungated engine. The message names the key and, when one is close, the intended option. */
#include "engine_util.h"

static void expect_new_fails(const char *options, const char *want_msg) {
  hl_engine *e = (hl_engine *)0x1;
  char *err = NULL;
  hl_status st = hl_engine_new(options, &e, &err);
  CHECK(st == HL_ERR_INVALID_ARGUMENT, "hl_engine_new(%s): %s, want HL_ERR_INVALID_ARGUMENT", options,
        hl_status_name(st));
  CHECK(e == NULL, "engine not NULL on failure");
  CHECK_CONTAINS(err, want_msg);
  if (st == HL_OK) hl_engine_free(e);
  hl_string_free(err);
}

TEST(misspelled_workspace_gated_is_an_error_naming_the_key_and_the_intended_option) {
  ws_begin();
  expect_new_fails(opts(NULL, "\"workspacegated\":true"),
                   "unknown option `workspacegated`; did you mean `workspace_gated`?");
  expect_new_fails(opts(NULL, "\"workspace_gate\":true"),
                   "unknown option `workspace_gate`; did you mean `workspace_gated`?");
  expect_new_fails(opts(NULL, "\"workspaceGated\":true"),
                   "unknown option `workspaceGated`; did you mean `workspace_gated`?");
  expect_new_fails(opts(NULL, "\"sessionId\":\"x\""), "did you mean `session_id`?");
  expect_new_fails(opts(NULL, "\"max_output_byte\":5"), "did you mean `max_output_bytes`?");
  test_end();
}

TEST(unknown_option_without_a_close_match_is_named_without_a_suggestion) {
  ws_begin();
  char *err = NULL;
  hl_engine *e = NULL;
  CHECK_STATUS(hl_engine_new(opts(NULL, "\"colour\":\"blue\""), &e, &err), HL_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(err, "unknown option `colour`");
  CHECK(err && !strstr(err, "did you mean"), "unexpected suggestion: %s", err ? err : "");
  hl_string_free(err);
  /* A null value does not make an unknown key acceptable. */
  expect_new_fails(opts(NULL, "\"workspacegated\":null"), "unknown option `workspacegated`");
  /* Every unknown key is listed. */
  expect_new_fails(opts(NULL, "\"aaa\":1,\"bbb\":2"), "`bbb`");
  test_end();
}

TEST(every_known_option_key_is_accepted) {
  ws_begin();
  hl_engine *e = NULL;
  char *err = NULL;
  const char *all = "\"trigger\":\"resume\",\"workspace_gated\":true,\"hooks_toml\":null,\"hooks_file\":null,"
                    "\"transcript_path\":null,\"trust_store\":null,\"env\":{},\"env_remove\":[],"
                    "\"max_output_bytes\":4096";
  CHECK_STATUS(hl_engine_new(opts("{}", all), &e, &err), HL_OK);
  CHECK(err == NULL, "errmsg: %s", err ? err : "");
  CHECK(e && hl_engine_workspace_gated(e), "engine is not gated");
  hl_engine_free(e);
  test_end();
}

TEST(reload_with_an_unknown_option_fails_and_changes_nothing) {
  ws_begin();
  hl_engine *e = NULL;
  char *err = NULL;
  CHECK_STATUS(hl_engine_new(opts(NULL, "\"workspace_gated\":true"), &e, &err), HL_OK);
  if (!e) { test_end(); return; }
  CHECK_STATUS(hl_engine_reload(e, opts(NULL, "\"workspaceGate\":false"), &err), HL_ERR_INVALID_ARGUMENT);
  CHECK_CONTAINS(err, "unknown option `workspaceGate`; did you mean `workspace_gated`?");
  hl_string_free(err);
  CHECK(hl_engine_workspace_gated(e), "a failed reload ungated the engine");
  hl_engine_free(e);
  test_end();
}

TEST(empty_session_id_is_rejected_like_a_missing_one) {
  ws_begin();
  expect_new_fails(fmt("{\"workspace\":%s,\"session_id\":\"\"}", jstr(eu_ws)),
                   "option `session_id` must be a non-empty string");
  expect_new_fails(fmt("{\"workspace\":%s}", jstr(eu_ws)), "option `session_id` is required");
  test_end();
}

int main(void) {
  RUN(misspelled_workspace_gated_is_an_error_naming_the_key_and_the_intended_option);
  RUN(unknown_option_without_a_close_match_is_named_without_a_suggestion);
  RUN(every_known_option_key_is_accepted);
  RUN(reload_with_an_unknown_option_fails_and_changes_nothing);
  RUN(empty_session_id_is_rejected_like_a_missing_one);
  return DONE();
}
