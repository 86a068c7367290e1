/* hookline soak test (`make soak`, not part of CI).
 *
 * Runs a mixed load for a fixed number of iterations — synchronous and
 * asynchronous engine runs with command hooks and a C callback hook,
 * cancellations, registry runs, engine reloads — and samples the process's
 * RSS, open file descriptors and zombie children as it goes. Fails (exit 1)
 * when, after warm-up, RSS grows by more than SOAK_RSS_SLACK_KB (default
 * 16 MiB), the fd count changes, or a zombie child remains.
 *
 * SOAK_ITERATIONS (default 20000) sets the length. */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hookline.h"

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmRSS:", 6) == 0) kb = atol(line + 6);
  if (f) fclose(f);
  return kb;
}

static int fd_count(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  if (d) closedir(d);
  return n - 1; /* the DIR's own descriptor */
}

static int zombie_children(void) {
  DIR *d = opendir("/proc");
  struct dirent *e;
  int n = 0;
  pid_t self = getpid();
  while (d && (e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char path[300], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    char *p = strrchr(buf, ')');
    char state;
    int ppid;
    if (p && sscanf(p + 2, "%c %d", &state, &ppid) == 2 && state == 'Z' && ppid == self) n++;
  }
  if (d) closedir(d);
  return n;
}

static int32_t policy(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ud; (void)len;
  if (strstr(ctx, "rm -rf")) hl_reply_deny(reply, "no");
  else hl_reply_set_json(reply, "{\"hookSpecificOutput\":{\"additionalContext\":\"ok\"}}", NULL);
  return 0;
}

static int32_t decide(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ud; (void)len;
  if (strstr(ctx, "rm -rf")) hl_reply_deny(reply, "no");
  return 0;
}

static atomic_int done_count;
static void on_done(void *ud, hl_status st, const char *outcome, const char *err) {
  (void)ud; (void)st; (void)outcome; (void)err;
  atomic_fetch_add(&done_count, 1);
}

static const char *OPTIONS_FMT =
    "{\"workspace\":\"%s\",\"session_id\":\"soak\",\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":["
    "{\"command\":\"cat >/dev/null; echo '{\\\"hookSpecificOutput\\\":{\\\"permissionDecision\\\":\\\"ask\\\"}}'\"}]}],"
    "\"PostToolUse\":[{\"hooks\":[{\"command\":\"cat >/dev/null; echo done%d\"},{\"command\":\"true\"}]}],"
    "\"Notification\":[{\"hooks\":[{\"command\":\"sleep 5\",\"timeout\":1}]}]}}";

int main(void) {
  const char *it_env = getenv("SOAK_ITERATIONS");
  const char *slack_env = getenv("SOAK_RSS_SLACK_KB");
  long iterations = it_env ? atol(it_env) : 20000;
  long slack = slack_env ? atol(slack_env) : 16 * 1024;
  char ws[] = "/tmp/hookline-soak-XXXXXX";
  if (!mkdtemp(ws)) return 2;
  char options[4096];
  snprintf(options, sizeof options, OPTIONS_FMT, ws, 0);

  hl_engine *e = NULL;
  char *err = NULL;
  if (hl_engine_new(options, &e, &err) != HL_OK) { fprintf(stderr, "%s\n", err); return 2; }
  hl_engine_add_callback_hook(e, HL_EVENT_PRE_TOOL_USE, NULL, "policy", policy, NULL, NULL, NULL);
  hl_registry *r = hl_registry_new();
  hl_registry_register(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "decide", decide, NULL, NULL, NULL);

  long base_rss = 0;
  int base_fd = 0, failures = 0;
  long warmup = iterations / 10;
  printf("%10s %10s %6s %8s\n", "iteration", "rss_kb", "fds", "zombies");
  for (long i = 0; i < iterations; i++) {
    char *out = NULL;
    switch (i % 10) {
      case 0: case 1: case 2: /* sync command + callback hook run */
        hl_engine_run(e, HL_EVENT_PRE_TOOL_USE,
                      i % 2 ? "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf x\"}}"
                            : "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}",
                      &out, NULL);
        break;
      case 3: /* concurrent event */
        hl_engine_run(e, HL_EVENT_POST_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_response\":\"x\"}", &out, NULL);
        break;
      case 4: case 5: { /* async batch, one cancelled */
        uint64_t ids[4];
        int before = atomic_load(&done_count);
        for (int k = 0; k < 4; k++)
          hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Read\"}", on_done, NULL, &ids[k], NULL);
        hl_engine_cancel(e, ids[3], NULL);
        while (atomic_load(&done_count) < before + 4) usleep(100);
        break;
      }
      case 6: /* registry runs (cheap: many) */
        for (int k = 0; k < 50; k++) {
          hl_registry_run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "{\"tool_name\":\"Bash\",\"tool_args\":{\"command\":\"ls\"}}",
                          &out, NULL);
          hl_string_free(out);
          out = NULL;
        }
        break;
      case 7: /* reload with a different config (digest changes) */
        snprintf(options, sizeof options, OPTIONS_FMT, ws, (int)(i % 3));
        hl_engine_reload(e, options, NULL);
        break;
      case 8: /* no hook matches */
        hl_engine_run(e, HL_EVENT_STOP, "{\"last_assistant_message\":\"x\",\"stop_hook_active\":false}", &out, NULL);
        break;
      case 9: /* every 1000th: a timeout that kills a process group */
        if (i % 1000 == 9)
          hl_engine_run(e, HL_EVENT_NOTIFICATION, "{\"notification_type\":\"x\",\"title\":\"t\",\"message\":\"m\"}",
                        &out, NULL);
        break;
    }
    hl_string_free(out);
    if (i == warmup) { base_rss = rss_kb(); base_fd = fd_count(); }
    if (i % (iterations / 20 > 0 ? iterations / 20 : 1) == 0 || i == iterations - 1)
      printf("%10ld %10ld %6d %8d\n", i, rss_kb(), fd_count(), zombie_children());
  }
  long end_rss = rss_kb();
  int end_fd = fd_count(), zombies = zombie_children();
  printf("after warm-up: rss %ld -> %ld kB (slack %ld), fds %d -> %d, zombies %d\n", base_rss, end_rss, slack,
         base_fd, end_fd, zombies);
  if (end_rss - base_rss > slack) { printf("FAIL: RSS grew\n"); failures++; }
  if (end_fd != base_fd) { printf("FAIL: fd count changed\n"); failures++; }
  if (zombies) { printf("FAIL: zombie children\n"); failures++; }
  hl_registry_free(r);
  hl_engine_free(e);
  rmdir(ws);
  printf("soak: %ld iterations, %s\n", iterations, failures ? "FAILED" : "flat");
  return failures ? 1 : 0;
}
