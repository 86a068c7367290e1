/* hookline demo: a tiny agent loop that fires every lifecycle event through
 * the sample hooks config (hooks.json) plus one in-process callback hook,
 * and prints one line per event: what the agent did and what the hooks
 * decided, and why.
 *
 * hooks.json also has an http hook (an audit service: the tiny HTTP server
 * below, on 127.0.0.1:47811, started by this program) and a prompt hook
 * (answered by the scripted "model" below, set with hl_engine_set_handler:
 * hookline has no model of its own, the host answers prompt hooks).
 *
 * Build and run: `make demo` at the repository root.
 * Usage: agent [--json] [hooks-file]
 *   hooks-file defaults to the demo's hooks.json (its directory is compiled
 *   in as HOOKLINE_DEMO_DIR), so the agent runs from any directory; the
 *   workspace, where the hooks run (`sh hooks/...`), is the directory of the
 *   hooks file.
 *   --json, or HOOKLINE_DEMO_JSON=1, also prints each outcome's JSON. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <libgen.h>
#include <unistd.h>
#include <poll.h>
#include <pthread.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

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

/* The scripted model of the prompt hook: a real host would send
 * `prompt` to its model and return the model's {"ok","reason"}. This one
 * lets the agent stop once a stop hook already sent it back to work
 * (stop_hook_active) and otherwise says why not. */
static int32_t scripted_model(void *user_data, const char *request, size_t len, hl_reply *reply) {
  (void)user_data;
  (void)len;
  int again = strstr(request, "\"stop_hook_active\":true") != NULL;
  printf("    model: asked \"%.40s...\" -> %s\n", strstr(request, "\"prompt\":\"") ? strstr(request, "\"prompt\":\"") + 10 : "",
         again ? "ok" : "not yet");
  hl_reply_set_json(reply, again ? "{\"ok\":true}" : "{\"ok\":false,\"reason\":\"no test run seen yet\"}", NULL);
  return 0;
}

/* ---- the audit service the http hook posts to (loopback only) ---- */

#define AUDIT_PORT 47811
static volatile int audit_stop;
static int audit_fd = -1;

/* Answer every POST on a keep-alive connection with context naming the tool. */
static void audit_connection(int c) {
  char buf[65536];
  size_t have = 0;
  while (!audit_stop) {
    struct pollfd p = {c, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    ssize_t n = recv(c, buf + have, sizeof buf - 1 - have, 0);
    if (n <= 0) return;
    have += (size_t)n;
    buf[have] = 0;
    char *end = strstr(buf, "\r\n\r\n");
    if (!end) continue;
    char *cl = strcasestr(buf, "content-length:");
    size_t need = (size_t)(end + 4 - buf) + (cl ? (size_t)atol(cl + 15) : 0);
    if (have < need) continue;
    char tool[64] = "a tool";
    char *t = strstr(end, "\"tool_name\":\"");
    if (t) sscanf(t + 13, "%63[^\"]", tool);
    char body[256], resp[512];
    snprintf(body, sizeof body,
             "{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":"
             "\"audit service recorded %s\"}}", tool);
    int len = snprintf(resp, sizeof resp, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                       strlen(body), body);
    if (send(c, resp, (size_t)len, MSG_NOSIGNAL) < 0) return;
    memmove(buf, buf + need, have - need);
    have -= need;
  }
}

static void *audit_server(void *arg) {
  (void)arg;
  while (!audit_stop) {
    struct pollfd p = {audit_fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    int c = accept(audit_fd, NULL, NULL);
    if (c < 0) continue;
    audit_connection(c);
    close(c);
  }
  return NULL;
}

/* Start the audit service; 0 when it listens. */
static int audit_start(pthread_t *thread) {
  audit_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  setsockopt(audit_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_port = htons(AUDIT_PORT);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (audit_fd < 0 || bind(audit_fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(audit_fd, 8) != 0) {
    if (audit_fd >= 0) close(audit_fd);
    audit_fd = -1;
    return -1;
  }
  return pthread_create(thread, NULL, audit_server, NULL);
}

static hl_engine *engine;
static int show_json;

/* ---- a minimal reader for the outcome JSON (enough for this demo) ---- */

static const char *ws(const char *p) {
  while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
  return p;
}

/* The end of the JSON value starting at p. */
static const char *skip(const char *p) {
  p = ws(p);
  if (*p == '"') {
    for (p++; *p && *p != '"'; p++)
      if (*p == '\\' && p[1]) p++;
    return *p ? p + 1 : p;
  }
  if (*p == '{' || *p == '[') {
    int depth = 0;
    for (; *p; p++) {
      if (*p == '"') { p = skip(p) - 1; continue; }
      if (*p == '{' || *p == '[') depth++;
      if ((*p == '}' || *p == ']') && --depth == 0) return p + 1;
    }
    return p;
  }
  while (*p && *p != ',' && *p != '}' && *p != ']') p++;
  return p;
}

/* The value of member `key` of the object at obj, or NULL. */
static const char *member(const char *obj, const char *key) {
  const char *p = ws(obj);
  if (*p != '{') return NULL;
  p = ws(p + 1);
  size_t klen = strlen(key);
  while (*p == '"') {
    const char *k = p + 1, *v = ws(skip(p));
    if (*v != ':') return NULL;
    v = ws(v + 1);
    if ((size_t)(skip(p) - k - 1) == klen && strncmp(k, key, klen) == 0) return v;
    p = ws(skip(v));
    if (*p != ',') return NULL;
    p = ws(p + 1);
  }
  return NULL;
}

/* Append the JSON string at v to buf (escapes kept simple), or its raw text if not a string. */
static void put_value(char *buf, size_t cap, const char *v) {
  size_t n = strlen(buf);
  if (*v != '"') {
    size_t len = (size_t)(skip(v) - v);
    snprintf(buf + n, cap - n, "%.*s", (int)len, v);
    return;
  }
  for (v++; *v && *v != '"' && n + 2 < cap; v++) {
    if (*v == '\\' && v[1] == 'n') { /* several hooks' reasons, one per line: "a; b" */
      v++;
      buf[n++] = ';';
      buf[n++] = ' ';
    } else if (*v == '\\' && v[1]) {
      v++;
      buf[n++] = *v;
    } else {
      buf[n++] = *v;
    }
  }
  buf[n] = 0;
}

static int is_lit(const char *v, const char *lit) { return v && strncmp(v, lit, strlen(lit)) == 0; }
static int is_str(const char *v) { return v && *v == '"'; }

static void append(char *buf, size_t cap, const char *text) {
  size_t n = strlen(buf);
  snprintf(buf + n, cap - n, "%s", text);
}

/* "; context: a | b" for a non-empty array of strings. */
static void put_strings(char *buf, size_t cap, const char *label, const char *arr) {
  if (!arr || *arr != '[') return;
  const char *p = ws(arr + 1);
  int first = 1;
  while (*p && *p != ']') {
    append(buf, cap, first ? label : " | ");
    first = 0;
    put_value(buf, cap, p);
    p = ws(skip(p));
    if (*p == ',') p = ws(p + 1);
  }
}

/* One line saying what the hooks decided, and why. */
static void summarize(hl_event event, const char *o, char *buf, size_t cap) {
  const char *v;
  buf[0] = 0;
  switch (event) {
    case HL_EVENT_PRE_TOOL_USE:
      v = member(o, "decision");
      if (is_lit(v, "\"deny\"")) append(buf, cap, "denied: ");
      else if (is_lit(v, "\"allow\"")) append(buf, cap, "allowed");
      else if (is_lit(v, "\"ask\"")) append(buf, cap, "ask the user: ");
      else append(buf, cap, "continue (no hook allowed or denied it: the host's usual checks apply)");
      if (is_str(member(o, "reason"))) put_value(buf, cap, member(o, "reason"));
      v = member(o, "updated_input");
      if (v && !is_lit(v, "null")) {
        append(buf, cap, "; input rewritten to ");
        put_value(buf, cap, v);
      }
      break;
    case HL_EVENT_USER_PROMPT_SUBMIT:
      if (is_lit(member(o, "allow_prompt"), "false")) {
        append(buf, cap, "prompt blocked: ");
        put_value(buf, cap, member(o, "block_reason"));
      } else {
        append(buf, cap, "prompt accepted");
      }
      break;
    case HL_EVENT_POST_TOOL_USE:
    case HL_EVENT_POST_TOOL_USE_FAILURE:
      if (is_str(member(o, "block_reason"))) {
        append(buf, cap, "result flagged to the model: ");
        put_value(buf, cap, member(o, "block_reason"));
      } else {
        append(buf, cap, "recorded");
      }
      break;
    case HL_EVENT_PERMISSION_REQUEST:
      v = member(o, "decision");
      if (!v || is_lit(v, "null")) {
        append(buf, cap, "no decision (the host asks the user)");
      } else {
        const char *b = member(v, "behavior"), *sc = member(v, "scope");
        append(buf, cap, is_lit(b, "\"allow\"") ? "allowed" : "denied");
        if (sc) {
          append(buf, cap, " for scope ");
          put_value(buf, cap, sc);
        }
      }
      break;
    case HL_EVENT_STOP:
      if (is_str(member(o, "block_reason"))) {
        append(buf, cap, "stop blocked, the agent keeps working: ");
        put_value(buf, cap, member(o, "block_reason"));
      } else {
        append(buf, cap, "stop allowed");
      }
      break;
    default:
      append(buf, cap, "ok");
      break;
  }
  put_strings(buf, cap, "; context: ", member(o, "additional_context"));
  v = member(o, "messages");
  if (v && *v == '[') {
    const char *p = ws(v + 1);
    while (*p == '{') {
      append(buf, cap, "; hook ");
      const char *lvl = member(p, "level");
      if (lvl) put_value(buf, cap, lvl);
      append(buf, cap, ": ");
      const char *t = member(p, "text");
      if (t) put_value(buf, cap, t);
      p = ws(skip(p));
      if (*p == ',') p = ws(p + 1);
    }
  }
  if (is_lit(member(o, "continue"), "false")) {
    append(buf, cap, "; a hook asked to halt the agent (continue:false): ");
    v = member(o, "stop_reason");
    if (is_str(v)) put_value(buf, cap, v);
  }
}

/* Fire one event; `what` is what the agent is doing. */
static void fire(hl_event event, const char *input, const char *what) {
  char *outcome = NULL, *err = NULL;
  hl_status st = hl_engine_run(engine, event, input, &outcome, &err);
  if (st != HL_OK) {
    printf("%-19s %-34s -> error %s: %s\n", hl_event_name(event), what, hl_status_name(st), err ? err : "");
    hl_string_free(err);
    return;
  }
  char line[2048];
  summarize(event, outcome, line, sizeof line);
  printf("%-19s %-34s -> %s\n", hl_event_name(event), what, line);
  if (show_json) printf("    %s\n", outcome);
  hl_string_free(outcome);
}

#ifndef HOOKLINE_DEMO_DIR
#define HOOKLINE_DEMO_DIR "."
#endif

int main(int argc, char **argv) {
  const char *hooks_arg = HOOKLINE_DEMO_DIR "/hooks.json";
  const char *env_json = getenv("HOOKLINE_DEMO_JSON");
  show_json = env_json && *env_json && strcmp(env_json, "0") != 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) show_json = 1;
    else hooks_arg = argv[i];
  }
  /* The hooks file as an absolute path; the workspace is its directory. */
  char hooks_file[PATH_MAX], workspace[PATH_MAX];
  if (!realpath(hooks_arg, hooks_file)) {
    fprintf(stderr, "agent: cannot open the hooks file %s: ", hooks_arg);
    perror(NULL);
    return 1;
  }
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", hooks_file);
  snprintf(workspace, sizeof workspace, "%s", dirname(dir));
  char options[PATH_MAX * 3 + 256];
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
  hl_engine_set_handler(engine, "prompt", scripted_model, NULL, NULL, NULL);
  pthread_t audit;
  int audit_running = audit_start(&audit) == 0;
  if (!audit_running) printf("(the audit service could not listen on 127.0.0.1:%d: the http hook will report it)\n", AUDIT_PORT);
  printf("hookline %s demo in %s\n", hl_version(), workspace);
  char *digest = NULL;
  hl_engine_command_digest(engine, &digest, NULL);
  printf("command digest %s\n", digest);
  hl_string_free(digest);
  printf("%s\n\n", show_json ? "each line is followed by the outcome JSON"
                              : "one line per event (--json or HOOKLINE_DEMO_JSON=1 adds the outcome JSON)");

  fire(HL_EVENT_SESSION_START, "{}", "session begins");
  fire(HL_EVENT_USER_PROMPT_SUBMIT, "{\"turn_id\":\"t1\",\"prompt\":\"list the files, then clean up\"}",
       "prompt \"list the files...\"");
  fire(HL_EVENT_USER_PROMPT_SUBMIT, "{\"turn_id\":\"t2\",\"prompt\":\"use key AKIAABCDEFGHIJKLMNOP\"}",
       "prompt with an AWS key");
  fire(HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_call_id\":\"c1\"}",
       "Bash ls");
  fire(HL_EVENT_POST_TOOL_USE,
       "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls -la\"},\"tool_response\":{\"stdout\":\"README.md\"},"
       "\"tool_call_id\":\"c1\"}",
       "Bash ls -la finished");
  fire(HL_EVENT_PRE_TOOL_USE,
       "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf build/\"},\"tool_call_id\":\"c2\"}",
       "Bash rm -rf build/");
  fire(HL_EVENT_PRE_TOOL_USE,
       "{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"/etc/hosts\",\"content\":\"x\"},\"tool_call_id\":\"c3\"}",
       "Write /etc/hosts");
  fire(HL_EVENT_POST_TOOL_USE_FAILURE,
       "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"make\"},\"tool_call_id\":\"c4\",\"error\":\"exit 2\"}",
       "Bash make failed");
  fire(HL_EVENT_PERMISSION_REQUEST,
       "{\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"README.md\"},\"permission_request\":{\"reason\":\"read\"}}",
       "may I Read README.md?");
  fire(HL_EVENT_NOTIFICATION, "{\"notification_type\":\"idle_prompt\",\"title\":\"Waiting\",\"message\":\"Agent is idle\"}",
       "idle notification");
  fire(HL_EVENT_SUBAGENT_START,
       "{\"parent_session_id\":\"demo-session\",\"child_thread_id\":\"sub-1\",\"agent_name\":\"reviewer\","
       "\"display_label\":\"Reviewer\",\"background\":false,\"status\":\"running\"}",
       "subagent reviewer starts");
  fire(HL_EVENT_SUBAGENT_STOP,
       "{\"parent_session_id\":\"demo-session\",\"child_thread_id\":\"sub-1\",\"agent_name\":\"reviewer\","
       "\"display_label\":\"Reviewer\",\"background\":false,\"status\":\"completed\"}",
       "subagent reviewer stops");
  fire(HL_EVENT_PRE_COMPACT,
       "{\"trigger\":\"auto\",\"mode\":\"local\",\"original_message_count\":120,\"compacted_message_count\":12}",
       "compact 120 -> 12 messages");
  fire(HL_EVENT_STOP, "{\"last_assistant_message\":\"Done.\",\"stop_hook_active\":false}",
       "agent wants to stop");
  fire(HL_EVENT_STOP, "{\"last_assistant_message\":\"Tests pass. Done.\",\"stop_hook_active\":true}",
       "agent wants to stop (again)");
  fire(HL_EVENT_SESSION_END, "{\"turn_id\":\"t2\",\"reason\":\"completed\"}", "session ends");

  hl_engine_free(engine);
  if (audit_running) {
    audit_stop = 1;
    pthread_join(audit, NULL);
    close(audit_fd);
  }
  printf("\ndemo finished: every event fired through %s\n", hooks_file);
  return 0;
}
