/* hookline demo: a tiny agent loop that fires every lifecycle event through
 * the sample hooks config (hooks.json) plus one in-process callback hook,
 * and prints each outcome.
 *
 * Build and run: `make demo` at the repository root. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include "hookline.h"

/* A host policy written in C: deny writes under /etc. */
static int32_t host_policy(void *user_data, const char *payload, size_t len, hl_reply *reply) {
  (void)user_data;
  (void)len;
  if (strstr(payload, "\"tool_name\":\"Write\"") && strstr(payload, "\"file_path\":\"/etc/")) {
    hl_reply_deny(reply, "host policy: writes under /etc are not allowed");
  }
  return 0;
}

static hl_engine *engine;

static void fire(hl_event event, const char *input, const char *what) {
  char *outcome = NULL, *err = NULL;
  hl_status st = hl_engine_run(engine, event, input, &outcome, &err);
  printf("\n== %-18s %s\n", hl_event_name(event), what);
  if (st != HL_OK) {
    printf("   error %s: %s\n", hl_status_name(st), err ? err : "");
    hl_string_free(err);
    return;
  }
  /* The outcome is JSON (docs/protocol.md §5); print it without the per-hook report. */
  char *hooks = strstr(outcome, ",\"hooks\":[");
  if (hooks) strcpy(hooks, "}");
  printf("   %s\n", outcome);
  hl_string_free(outcome);
}

int main(int argc, char **argv) {
  char workspace[PATH_MAX];
  if (!getcwd(workspace, sizeof workspace)) return 1;
  const char *hooks_file = argc > 1 ? argv[1] : "hooks.json";
  char options[PATH_MAX * 2 + 256];
  snprintf(options, sizeof options,
           "{\"workspace\":\"%s\",\"session_id\":\"demo-session\",\"trigger\":\"startup\","
           "\"hooks_file\":\"%s\",\"transcript_path\":\"%s/.transcript.jsonl\"}",
           workspace, hooks_file, workspace);

  char *err = NULL;
  hl_status st = hl_engine_new(options, &engine, &err);
  if (st != HL_OK) {
    fprintf(stderr, "hl_engine_new: %s: %s\n", hl_status_name(st), err);
    hl_string_free(err);
    return 1;
  }
  hl_engine_add_callback_hook(engine, HL_EVENT_PRE_TOOL_USE, "Write|Edit", "host-policy", host_policy, NULL,
                              NULL, NULL);
  printf("hookline %s demo in %s\n", hl_version(), workspace);
  char *digest = NULL;
  hl_engine_command_digest(engine, &digest, NULL);
  printf("command digest %s\n", digest);
  hl_string_free(digest);

  fire(HL_EVENT_SESSION_START, "{}", "session begins: hooks add context");
  fire(HL_EVENT_USER_PROMPT_SUBMIT, "{\"turn_id\":\"t1\",\"prompt\":\"list the files, then clean up\"}",
       "a normal prompt");
  fire(HL_EVENT_USER_PROMPT_SUBMIT, "{\"turn_id\":\"t2\",\"prompt\":\"use key AKIAABCDEFGHIJKLMNOP\"}",
       "a prompt with a secret: blocked");
  fire(HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_call_id\":\"c1\"}",
       "`ls`: rewritten to `ls -la`");
  fire(HL_EVENT_POST_TOOL_USE,
       "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls -la\"},\"tool_response\":{\"stdout\":\"README.md\"},"
       "\"tool_call_id\":\"c1\"}",
       "audit log");
  fire(HL_EVENT_PRE_TOOL_USE,
       "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf build/\"},\"tool_call_id\":\"c2\"}",
       "`rm -rf`: denied");
  fire(HL_EVENT_PRE_TOOL_USE,
       "{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"/etc/hosts\",\"content\":\"x\"},\"tool_call_id\":\"c3\"}",
       "write under /etc: denied by the C callback");
  fire(HL_EVENT_POST_TOOL_USE_FAILURE,
       "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"make\"},\"tool_call_id\":\"c4\",\"error\":\"exit 2\"}",
       "a tool failed");
  fire(HL_EVENT_PERMISSION_REQUEST,
       "{\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"README.md\"},\"permission_request\":{\"reason\":\"read\"}}",
       "permission prompt: allowed for the session");
  fire(HL_EVENT_NOTIFICATION, "{\"notification_type\":\"idle_prompt\",\"title\":\"Waiting\",\"message\":\"Agent is idle\"}",
       "notification");
  fire(HL_EVENT_SUBAGENT_START,
       "{\"parent_session_id\":\"demo-session\",\"child_thread_id\":\"sub-1\",\"agent_name\":\"reviewer\","
       "\"display_label\":\"Reviewer\",\"background\":false,\"status\":\"running\"}",
       "subagent starts");
  fire(HL_EVENT_SUBAGENT_STOP,
       "{\"parent_session_id\":\"demo-session\",\"child_thread_id\":\"sub-1\",\"agent_name\":\"reviewer\","
       "\"display_label\":\"Reviewer\",\"background\":false,\"status\":\"completed\"}",
       "subagent stops");
  fire(HL_EVENT_PRE_COMPACT,
       "{\"trigger\":\"auto\",\"mode\":\"local\",\"original_message_count\":120,\"compacted_message_count\":12}",
       "compaction");
  fire(HL_EVENT_STOP, "{\"last_assistant_message\":\"Done.\",\"stop_hook_active\":false}",
       "the agent wants to stop: blocked until tests run");
  fire(HL_EVENT_STOP, "{\"last_assistant_message\":\"Tests pass. Done.\",\"stop_hook_active\":true}",
       "second stop: allowed");
  fire(HL_EVENT_SESSION_END, "{\"turn_id\":\"t2\",\"reason\":\"completed\"}", "session ends");

  hl_engine_free(engine);
  printf("\ndemo finished: every event fired through %s\n", hooks_file);
  return 0;
}
