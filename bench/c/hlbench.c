/*
 * hlbench: the C driver of hookline's benchmarks (see BENCHMARKS.md).
 *
 *   hlbench <scenario> [args]
 *
 * Every scenario prints one JSON object per line on stdout:
 *   {"name":..,"unit":"ns","n":..,"median":..,"p99":..,"min":..,"mean":..}   (latency samples)
 *   {"name":..,"unit":"..","value":..}                                          (a single number)
 * bench/report.js turns those lines into the tables and ratios of BENCHMARKS.md.
 *
 * Scenarios (iteration counts come from the environment, see bench/run.sh):
 *   payload <file>    write the exact stdin payload hookline gives the bench's PreToolUse hook
 *   nomatch           hl_engine_run(PreToolUse) when no configured hook matches
 *   registry          hl_registry_run(pre_tool_call_decide) with 1 and 10 C callbacks, and the
 *                     serde_json floor from $HLBENCH_FLOOR_LIB (bench/floor)
 *   spawn             one command hook through hl_engine_run vs a raw posix_spawn floor
 *   parallel          8 PostToolUse hooks that sleep 200 ms each: wall time of one run
 *   throughput        8 threads x hl_engine_run_async (callback hook, command hook) vs the floor
 *   memory            RSS of a 1000-hook engine; RSS and fds before/after many runs
 *   handlers          an http hook against a loopback keep-alive server vs the same POST by a raw
 *                     keep-alive client; a prompt hook answered by a C model handler
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hookline.h"

extern char **environ;

/* The command hook of scenarios 3-5 (issue #7): reads stdin, prints a decision. */
#define HOOK_CMD "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"allow\"}}'"
/* The PreToolUse input every engine scenario runs with. */
#define TOOL_INPUT "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git status --porcelain\"},\"tool_call_id\":\"call-1\"}"
/* A ~300-byte pre_tool_call_decide context (scenario 2); the floor round-trips the same text. */
#define DECIDE_CONTEXT                                                                              \
  "{\"tool_name\":\"Bash\",\"tool_args\":{\"command\":\"cargo test --release --workspace -- "       \
  "--nocapture\",\"cwd\":\"/home/dev/projects/hookline\",\"timeout_ms\":120000,\"env\":{"            \
  "\"RUST_BACKTRACE\":\"1\",\"CARGO_TERM_COLOR\":\"never\"},\"description\":\"Run the whole test "  \
  "suite\"},\"session_id\":\"sess-4f1c2a9e-77d0\",\"turn_number\":7,\"agent_id\":42}"

/* ------------------------------------------------------------------ utilities */

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("hlbench: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static void check(hl_status st, char *em, const char *what) {
  if (st != HL_OK) die("%s failed: %s (%s)", what, hl_status_name(st), em ? em : "");
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static long env_long(const char *name, long dflt) {
  const char *v = getenv(name);
  if (!v || !*v) return dflt;
  long n = strtol(v, NULL, 10);
  return n > 0 ? n : dflt;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Print median, p99 (nearest rank), min and mean of n samples (sorts them). */
static void emit_samples(const char *name, uint64_t *s, size_t n) {
  if (n == 0) die("no samples for %s", name);
  qsort(s, n, sizeof *s, cmp_u64);
  size_t r99 = (size_t)((n * 99 + 99) / 100);
  if (r99 < 1) r99 = 1;
  long double sum = 0;
  for (size_t i = 0; i < n; i++) sum += s[i];
  printf("{\"name\":\"%s\",\"unit\":\"ns\",\"n\":%zu,\"median\":%llu,\"p99\":%llu,\"min\":%llu,\"mean\":%.0Lf}\n",
         name, n, (unsigned long long)s[n / 2], (unsigned long long)s[r99 - 1], (unsigned long long)s[0],
         sum / n);
  fflush(stdout);
}

static void emit_value(const char *name, const char *unit, double v) {
  printf("{\"name\":\"%s\",\"unit\":\"%s\",\"value\":%.3f}\n", name, unit, v);
  fflush(stdout);
}

/* A growable string. */
typedef struct {
  char *p;
  size_t len, cap;
} buf_t;

static void buf_add(buf_t *b, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    size_t room = b->cap - b->len;
    va_start(ap, fmt);
    int n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0) die("vsnprintf");
    if ((size_t)n < room) {
      b->len += (size_t)n;
      return;
    }
    b->cap = (b->cap + (size_t)n + 1) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) die("out of memory");
  }
}

/* Append s as a JSON string literal. */
static void buf_json_str(buf_t *b, const char *s) {
  buf_add(b, "\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') buf_add(b, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) buf_add(b, "\\u%04x", *s);
    else buf_add(b, "%c", *s);
  }
  buf_add(b, "\"");
}

static char workspace[512];

static void make_workspace(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(workspace, sizeof workspace, "%s/hlbench.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(workspace)) die("mkdtemp: %s", strerror(errno));
  char *real = realpath(workspace, NULL);
  if (!real) die("realpath: %s", strerror(errno));
  snprintf(workspace, sizeof workspace, "%s", real);
  free(real);
}

static void remove_workspace(void) {
  char path[1024];
  DIR *d = opendir(workspace);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
        snprintf(path, sizeof path, "%s/%s", workspace, e->d_name);
        unlink(path);
      }
    }
    closedir(d);
  }
  rmdir(workspace);
}

/* Engine options JSON with `hooks_json` (NULL: no hooks) in the bench workspace. */
static hl_engine *engine_with(const char *hooks_json) {
  buf_t b = {0};
  buf_add(&b, "{\"workspace\":");
  buf_json_str(&b, workspace);
  buf_add(&b, ",\"session_id\":\"bench-session\"");
  if (hooks_json) buf_add(&b, ",\"hooks\":%s", hooks_json);
  buf_add(&b, "}");
  hl_engine *e = NULL;
  char *em = NULL;
  check(hl_engine_new(b.p, &e, &em), em, "hl_engine_new");
  free(b.p);
  return e;
}

/* Claude-dialect config: one group for `event` matching `matcher`, `count` copies of `command`
 * (made distinct by a trailing shell comment: the Claude Code profile runs identical commands once). */
/* The same as engine_with, gated (trust store inside the bench workspace), approved in memory. */
static hl_engine *engine_gated_approved(const char *hooks_json) {
  buf_t b = {0};
  buf_add(&b, "{\"workspace\":");
  buf_json_str(&b, workspace);
  buf_add(&b, ",\"session_id\":\"bench-session\",\"workspace_gated\":true,\"trust_store\":");
  char store[600];
  snprintf(store, sizeof store, "%s/trust.json", workspace);
  buf_json_str(&b, store);
  buf_add(&b, ",\"hooks\":%s}", hooks_json);
  hl_engine *e = NULL;
  char *em = NULL;
  check(hl_engine_new(b.p, &e, &em), em, "hl_engine_new (gated)");
  check(hl_engine_approve_workspace_hooks(e, false, &em), em, "hl_engine_approve_workspace_hooks");
  free(b.p);
  return e;
}

static char *hooks_config(const char *event, const char *matcher, const char *command, int count) {
  buf_t b = {0};
  buf_add(&b, "{\"%s\":[{\"matcher\":", event);
  buf_json_str(&b, matcher);
  buf_add(&b, ",\"hooks\":[");
  for (int i = 0; i < count; i++) {
    buf_add(&b, "%s{\"type\":\"command\",\"command\":", i ? "," : "");
    if (count > 1) {
      char distinct[4096];
      snprintf(distinct, sizeof distinct, "%s #%d", command, i);
      buf_json_str(&b, distinct);
    } else {
      buf_json_str(&b, command);
    }
    buf_add(&b, "}");
  }
  buf_add(&b, "]}]}");
  return b.p;
}

static char *run_engine(hl_engine *e, hl_event ev, const char *input) {
  char *out = NULL, *em = NULL;
  check(hl_engine_run(e, ev, input, &out, &em), em, "hl_engine_run");
  return out;
}

static void expect_contains(const char *haystack, const char *needle, const char *what) {
  if (!haystack || !strstr(haystack, needle)) die("%s: expected %s in %s", what, needle, haystack ? haystack : "(null)");
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) die("open %s: %s", path, strerror(errno));
  buf_t b = {0};
  char chunk[4096];
  size_t n;
  buf_add(&b, "%s", "");
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (b.len + n + 1 > b.cap) {
      b.cap = (b.len + n + 1) * 2;
      b.p = realloc(b.p, b.cap);
    }
    memcpy(b.p + b.len, chunk, n);
    b.len += n;
    b.p[b.len] = 0;
  }
  fclose(f);
  *len = b.len;
  return b.p;
}

/* ------------------------------------------------------------------ the raw spawn floor */

/* What a careful C host does to run one hook: posix_spawn `/bin/sh -c cmd` in the workspace, in
 * a new process group, with pipes for stdin/stdout/stderr; write the payload, close stdin, read
 * both outputs to EOF, wait. */
typedef struct {
  const char *cmd;
  const char *payload;
  size_t payload_len;
  char **envp;
} floor_spec;

static size_t floor_spawn(const floor_spec *fs, char *out, size_t outcap) {
  int in[2], po[2], pe[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) die("pipe2: %s", strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, po[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
  posix_spawn_file_actions_addchdir_np(&fa, workspace);
  posix_spawnattr_init(&at);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&at, 0);
  char *argv[] = {"sh", "-c", (char *)fs->cmd, NULL};
  pid_t pid;
  int rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, fs->envp);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (rc) die("posix_spawn: %s", strerror(rc));
  close(in[0]);
  close(po[1]);
  close(pe[1]);
  /* The payload fits in the pipe buffer: one write, then EOF. */
  size_t off = 0;
  while (off < fs->payload_len) {
    ssize_t w = write(in[1], fs->payload + off, fs->payload_len - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      break; /* the bench hook reads all of stdin, so EPIPE (and SIGPIPE) cannot happen */
    }
    off += (size_t)w;
  }
  close(in[1]);
  struct pollfd p[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
  size_t got = 0;
  char scratch[4096];
  int open_fds = 2;
  while (open_fds > 0) {
    if (poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      die("poll: %s", strerror(errno));
    }
    for (int i = 0; i < 2; i++) {
      if (p[i].fd < 0 || !p[i].revents) continue;
      char *dst = i == 0 && got < outcap ? out + got : scratch;
      size_t room = i == 0 && got < outcap ? outcap - got : sizeof scratch;
      ssize_t r = read(p[i].fd, dst, room);
      if (r > 0) {
        if (i == 0 && dst != scratch) got += (size_t)r;
      } else if (r == 0 || errno != EINTR) {
        close(p[i].fd);
        p[i].fd = -1;
        open_fds--;
      }
    }
  }
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) die("floor hook failed (status %d)", status);
  return got;
}

/* environ plus the variables hookline gives a hook, so that both spawn the same environment. */
static char **hook_envp(const char *event) {
  size_t n = 0;
  while (environ[n]) n++;
  char **envp = calloc(n + 9, sizeof *envp) /* 8 variables and the NULL */;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (strncmp(environ[i], "HOOKLINE_", 9) && strncmp(environ[i], "VT_", 3) && strncmp(environ[i], "CLAUDE_", 7))
      envp[k++] = environ[i];
  }
  const char *names[] = {"HOOKLINE_PROJECT_DIR", "VT_PROJECT_DIR", "CLAUDE_PROJECT_DIR"};
  for (int i = 0; i < 3; i++) {
    buf_t b = {0};
    buf_add(&b, "%s=%s", names[i], workspace);
    envp[k++] = b.p;
  }
  const char *sess[] = {"HOOKLINE_SESSION_ID=bench-session", "VT_SESSION_ID=bench-session",
                        "CLAUDE_SESSION_ID=bench-session"};
  for (int i = 0; i < 3; i++) envp[k++] = (char *)sess[i];
  buf_t a = {0}, b = {0};
  buf_add(&a, "HOOKLINE_HOOK_EVENT=%s", event);
  buf_add(&b, "VT_HOOK_EVENT=%s", event);
  envp[k++] = a.p;
  envp[k++] = b.p;
  envp[k] = NULL;
  return envp;
}

/* The exact payload hookline writes to the bench hook's stdin (captured with `cat > file`). */
static char *capture_payload(size_t *len) {
  buf_t cmd = {0};
  buf_add(&cmd, "cat > '%s/payload.json'", workspace);
  char *cfg = hooks_config("PreToolUse", "Bash", cmd.p, 1);
  hl_engine *e = engine_with(cfg);
  hl_string_free(run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT));
  hl_engine_free(e);
  free(cfg);
  free(cmd.p);
  buf_t path = {0};
  buf_add(&path, "%s/payload.json", workspace);
  char *p = read_file(path.p, len);
  unlink(path.p);
  free(path.p);
  return p;
}

/* ------------------------------------------------------------------ scenarios */

typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;
  hl_status status;
} waiter;

static void on_done(void *ud, hl_status st, const char *outcome, const char *errmsg) {
  waiter *w = ud;
  (void)errmsg;
  if (st == HL_OK && !strstr(outcome, "\"decision\":\"allow\"")) st = HL_ERR_PANIC;
  pthread_mutex_lock(&w->mu);
  w->status = st;
  w->done = 1;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

/* Run once through hl_engine_run_async and wait for done on this thread. */
static void run_async_wait(hl_engine *e, waiter *w) {
  char *em = NULL;
  w->done = 0;
  check(hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT, on_done, w, NULL, &em), em, "hl_engine_run_async");
  pthread_mutex_lock(&w->mu);
  while (!w->done) pthread_cond_wait(&w->cv, &w->mu);
  pthread_mutex_unlock(&w->mu);
  if (w->status != HL_OK) die("async run failed: %s", hl_status_name(w->status));
}

static void waiter_init(waiter *w) {
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
}

/* The floor of an asynchronous hand-off: the host hands a job to a thread that is already
 * awake (spinning on a flag, as hookline's run-pool thread does between short runs); that thread
 * works (busy-waits) for as long as the same run takes synchronously, then signals the host's
 * condition variable, and the host wakes up. What hookline adds beyond this floor is its own
 * hand-off cost; the floor itself is the run plus the platform's cost of waking a thread that
 * sleeps on a condition variable (on a small VM, tens of microseconds when its CPU went idle). */
typedef struct {
  atomic_int job; /* 1: a job is waiting; -1: stop */
  uint64_t work_ns;
  waiter w;
} handoff_floor;

static void *handoff_floor_worker(void *arg) {
  handoff_floor *f = arg;
  for (;;) {
    int j;
    while ((j = atomic_load_explicit(&f->job, memory_order_acquire)) == 0) {
    }
    if (j < 0) return NULL;
    atomic_store_explicit(&f->job, 0, memory_order_relaxed);
    uint64_t until = now_ns() + f->work_ns;
    while (now_ns() < until) {
    }
    on_done(&f->w, HL_OK, "\"decision\":\"allow\"", NULL);
  }
}

static void handoff_floor_samples(uint64_t *s, long n, uint64_t work_ns) {
  handoff_floor f;
  atomic_init(&f.job, 0);
  f.work_ns = work_ns;
  waiter_init(&f.w);
  pthread_t t;
  if (pthread_create(&t, NULL, handoff_floor_worker, &f)) die("pthread_create failed");
  for (long i = -n / 10; i < n; i++) {
    uint64_t t0 = now_ns();
    f.w.done = 0;
    atomic_store_explicit(&f.job, 1, memory_order_release);
    pthread_mutex_lock(&f.w.mu);
    while (!f.w.done) pthread_cond_wait(&f.w.cv, &f.w.mu);
    pthread_mutex_unlock(&f.w.mu);
    if (i >= 0) s[i] = now_ns() - t0;
  }
  atomic_store_explicit(&f.job, -1, memory_order_release);
  pthread_join(t, NULL);
}

static int32_t cb_hook_allow(void *ud, const char *payload, size_t len, hl_reply *reply) {
  (void)ud;
  (void)payload;
  (void)len;
  return hl_reply_allow(reply) == HL_OK ? 0 : 1;
}


/* A trace handler that only counts the spans (what an exporter's queue push costs, roughly). */
static atomic_long spans_seen;
static void count_span(void *ud, const char *span_json) {
  (void)ud;
  (void)span_json;
  atomic_fetch_add_explicit(&spans_seen, 1, memory_order_relaxed);
}

static hl_engine *traced(hl_engine *e) {
  char *em = NULL;
  check(hl_engine_set_trace_handler(e, count_span, NULL, NULL, &em), em, "hl_engine_set_trace_handler");
  return e;
}

static int scenario_payload(int argc, char **argv) {
  if (argc < 3) die("usage: hlbench payload <file>");
  size_t len;
  char *p = capture_payload(&len);
  FILE *f = fopen(argv[2], "wb");
  if (!f || fwrite(p, 1, len, f) != len || fclose(f)) die("write %s: %s", argv[2], strerror(errno));
  free(p);
  return 0;
}

/* 1. No hook matches. */
static int scenario_nomatch(void) {
  long n = env_long("HLBENCH_NOMATCH_N", 200000);
  uint64_t *s = malloc(sizeof *s * (size_t)n);
  char *cfg = hooks_config("PreToolUse", "Write|Edit", "./never-runs.sh", 1);
  hl_engine *e = engine_with(cfg);
  hl_engine *none = engine_with(NULL);
  hl_engine *et = traced(engine_with(cfg));
  char *o = run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
  expect_contains(o, "\"hooks\":[]", "nomatch outcome");
  hl_string_free(o);

  /* The cost of reading the clock, for reference. */
  for (long i = 0; i < n; i++) {
    uint64_t t0 = now_ns();
    s[i] = now_ns() - t0;
  }
  emit_samples("clock_overhead", s, (size_t)n);

  /* The three engines alternate in 10 rounds, so that drift on a shared machine hits each. */
  hl_engine *cases[] = {e, none, et};
  uint64_t *s2 = malloc(sizeof *s2 * (size_t)n), *s3 = malloc(sizeof *s3 * (size_t)n);
  uint64_t *dst[] = {s, s2, s3};
  for (int c = 0; c < 3; c++)
    for (long i = 0; i < n / 10; i++) hl_string_free(run_engine(cases[c], HL_EVENT_PRE_TOOL_USE, TOOL_INPUT));
  long per = n / 10, k = 0;
  for (long r = 0; r < 10; r++, k += per) {
    for (int c = 0; c < 3; c++) {
      for (long i = k; i < k + per; i++) {
        char *out = NULL, *em = NULL;
        uint64_t t0 = now_ns();
        hl_status st = hl_engine_run(cases[c], HL_EVENT_PRE_TOOL_USE, TOOL_INPUT, &out, &em);
        hl_string_free(out);
        dst[c][i] = now_ns() - t0;
        if (st != HL_OK) die("hl_engine_run: %s", em);
      }
    }
  }
  emit_samples("nomatch_c", s, (size_t)k);
  emit_samples("nohooks_c", s2, (size_t)k);
  emit_samples("nomatch_traced_c", s3, (size_t)k);
  if (atomic_load(&spans_seen) != 0) die("nomatch: a run that matched nothing sent a span");
  free(s2);
  free(s3);
  hl_engine_free(et);
  /* The fixed cost of an asynchronous run: a callback hook that allows, run through
   * hl_engine_run_async from one thread that waits for done, vs the same run through hl_engine_run. */
  hl_engine *cbe = engine_with(NULL);
  char *em = NULL;
  check(hl_engine_add_callback_hook(cbe, HL_EVENT_PRE_TOOL_USE, "Bash", "allow-all", cb_hook_allow, NULL, NULL, &em),
        em, "hl_engine_add_callback_hook");
  waiter w;
  waiter_init(&w);
  long na = n / 10;
  uint64_t *sa = malloc(sizeof *sa * (size_t)na);
  for (long i = 0; i < na / 10; i++) run_async_wait(cbe, &w);
  for (long i = 0; i < na; i++) {
    uint64_t t0 = now_ns();
    run_async_wait(cbe, &w);
    sa[i] = now_ns() - t0;
  }
  emit_samples("callback_hook_async_c", sa, (size_t)na);
  for (long i = 0; i < na; i++) {
    uint64_t t0 = now_ns();
    hl_string_free(run_engine(cbe, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT));
    sa[i] = now_ns() - t0;
  }
  emit_samples("callback_hook_sync_c", sa, (size_t)na); /* sorts sa */
  handoff_floor_samples(sa, na, sa[na / 2]);
  emit_samples("handoff_floor_c", sa, (size_t)na);
  free(sa);
  hl_engine_free(cbe);
  hl_engine_free(e);
  hl_engine_free(none);
  free(cfg);
  free(s);
  return 0;
}

static int32_t cb_allow(void *ud, const char *ctx, size_t len, hl_reply *reply) {
  (void)ud;
  (void)ctx;
  (void)len;
  return hl_reply_allow(reply) == HL_OK ? 0 : 1;
}

/* 2. In-process registry, against the serde_json floor (bench/floor, loaded from the shared
 * library named by $HLBENCH_FLOOR_LIB). Floor, 1 callback and 10 callbacks alternate in 10 rounds. */
typedef size_t (*floor_fn)(const char *text, size_t len);

static int scenario_registry(void) {
  long n = env_long("HLBENCH_REGISTRY_N", 100000);
  const long rounds = 10;
  long per = n / rounds > 0 ? n / rounds : 1;
  n = per * rounds;
  const char *ctx = DECIDE_CONTEXT;
  size_t ctx_len = strlen(ctx);
  emit_value("decide_context_bytes", "bytes", (double)ctx_len);

  floor_fn floor = NULL;
  const char *floor_lib = getenv("HLBENCH_FLOOR_LIB");
  if (floor_lib && *floor_lib) {
    void *h = dlopen(floor_lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) die("dlopen %s: %s", floor_lib, dlerror());
    floor = (floor_fn)(uintptr_t)dlsym(h, "hlbench_floor_roundtrip");
    if (!floor) die("dlsym hlbench_floor_roundtrip: %s", dlerror());
    if (floor(ctx, ctx_len) != ctx_len) die("floor: the round trip changed the context");
  }

  int counts[] = {1, 10};
  hl_registry *regs[2];
  for (int c = 0; c < 2; c++) {
    regs[c] = hl_registry_new();
    for (int i = 0; i < counts[c]; i++) {
      char name[32], *em = NULL;
      snprintf(name, sizeof name, "policy-%d", i);
      check(hl_registry_register(regs[c], HL_POINT_PRE_TOOL_CALL_DECIDE, name, cb_allow, NULL, NULL, &em), em,
            "hl_registry_register");
    }
    char *out = NULL, *em = NULL;
    check(hl_registry_run(regs[c], HL_POINT_PRE_TOOL_CALL_DECIDE, ctx, &out, &em), em, "hl_registry_run");
    expect_contains(out, "\"allow\":true", "registry result");
    hl_string_free(out);
    for (long i = 0; i < n / 10; i++) {
      hl_registry_run(regs[c], HL_POINT_PRE_TOOL_CALL_DECIDE, ctx, &out, NULL);
      hl_string_free(out);
    }
  }
  for (long i = 0; floor && i < n / 10; i++) floor(ctx, ctx_len);

  uint64_t *s[3];
  for (int c = 0; c < 3; c++) s[c] = malloc(sizeof *s[c] * (size_t)n);
  for (long r = 0, k = 0; r < rounds; r++, k += per) {
    for (long i = k; floor && i < k + per; i++) {
      uint64_t t0 = now_ns();
      size_t len = floor(ctx, ctx_len);
      s[2][i] = now_ns() - t0;
      if (len != ctx_len) die("floor failed");
    }
    for (int c = 0; c < 2; c++) {
      for (long i = k; i < k + per; i++) {
        char *out = NULL, *em = NULL;
        uint64_t t0 = now_ns();
        hl_status st = hl_registry_run(regs[c], HL_POINT_PRE_TOOL_CALL_DECIDE, ctx, &out, &em);
        hl_string_free(out);
        s[c][i] = now_ns() - t0;
        if (st != HL_OK) die("hl_registry_run: %s", em);
      }
    }
  }
  if (floor) emit_samples("serde_floor_parse_serialise", s[2], (size_t)n);
  emit_samples("registry_1cb_c", s[0], (size_t)n);
  emit_samples("registry_10cb_c", s[1], (size_t)n);
  for (int c = 0; c < 2; c++) hl_registry_free(regs[c]);
  for (int c = 0; c < 3; c++) free(s[c]);
  return 0;
}

/* 3. One command hook vs the posix_spawn floor, interleaved in rounds; the same hook as a script
 * file on a gated, approved engine (the script pinned and re-verified before every spawn). */
static int scenario_spawn(void) {
  long n = env_long("HLBENCH_SPAWN_N", 1000);
  const long rounds = 10;
  long per = n / rounds > 0 ? n / rounds : 1;
  n = per * rounds;
  uint64_t *se = malloc(sizeof *se * (size_t)n), *sf = malloc(sizeof *sf * (size_t)n),
           *sa = malloc(sizeof *sa * (size_t)n), *sg = malloc(sizeof *sg * (size_t)n),
           *st = malloc(sizeof *st * (size_t)n);
  /* The pinned script: the hook's text in a file, read by the shell itself (`. ./hook.sh`), so
   * the process work is the ungated row's plus one small file read. Written first: a pin is
   * re-hashed at every check until the file is 2 s old, and the steady state is measured. */
  char script[600];
  snprintf(script, sizeof script, "%s/hook.sh", workspace);
  FILE *sfp = fopen(script, "w");
  if (!sfp) die("cannot write %s: %s", script, strerror(errno));
  fputs(HOOK_CMD "\n", sfp);
  fclose(sfp);
  uint64_t script_written = now_ns();
  waiter w;
  waiter_init(&w);
  size_t plen;
  char *payload = capture_payload(&plen);
  emit_value("hook_payload_bytes", "bytes", (double)plen);
  floor_spec fs = {HOOK_CMD, payload, plen, hook_envp("PreToolUse")};
  char *cfg = hooks_config("PreToolUse", "Bash", HOOK_CMD, 1);
  hl_engine *e = engine_with(cfg);
  hl_engine *et = traced(engine_with(cfg));
  char *o = run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
  expect_contains(o, "\"decision\":\"allow\"", "command hook outcome");
  hl_string_free(o);
  char out[4096];
  size_t got = floor_spawn(&fs, out, sizeof out);
  if (got == 0 || !memmem(out, got, "permissionDecision", 18)) die("floor: unexpected hook output");
  char *gcfg = hooks_config("PreToolUse", "Bash", ". ./hook.sh", 1);
  hl_engine *g = engine_gated_approved(gcfg);
  o = run_engine(g, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
  expect_contains(o, "\"decision\":\"allow\"", "gated pinned-script hook outcome");
  hl_string_free(o);
  char *previews = NULL, *em = NULL;
  check(hl_engine_command_previews(g, &previews, &em), em, "hl_engine_command_previews");
  expect_contains(previews, "hook.sh\",\"sha256\":", "the script is pinned");
  hl_string_free(previews);
  for (int i = 0; i < 20; i++) {
    floor_spawn(&fs, out, sizeof out);
    hl_string_free(run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT));
    hl_string_free(run_engine(et, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT));
    hl_string_free(run_engine(g, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT));
  }
  while (now_ns() - script_written < 2200000000ull) usleep(10000);
  long k = 0, j = 0, m = 0, q = 0, u = 0;
  for (long r = 0; r < rounds; r++) {
    for (long i = 0; i < per; i++) {
      uint64_t t0 = now_ns();
      run_async_wait(e, &w);
      sa[m++] = now_ns() - t0;
    }
    for (long i = 0; i < per; i++) {
      uint64_t t0 = now_ns();
      floor_spawn(&fs, out, sizeof out);
      sf[k++] = now_ns() - t0;
    }
    /* The ungated, the gated pinned-script and the traced runs alternate run by run, so that
     * load changes on a shared machine hit all three alike (the ratios compare them). */
    for (long i = 0; i < per; i++) {
      uint64_t t0 = now_ns();
      char *oo = run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
      hl_string_free(oo);
      se[j++] = now_ns() - t0;
      t0 = now_ns();
      oo = run_engine(g, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
      sg[q++] = now_ns() - t0;
      if (!strstr(oo, "\"decision\":\"allow\"")) die("gated pinned-script hook stopped allowing: %s", oo);
      hl_string_free(oo);
      t0 = now_ns();
      oo = run_engine(et, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
      hl_string_free(oo);
      st[u++] = now_ns() - t0;
    }
  }
  emit_samples("spawn_floor_c", sf, (size_t)k);
  emit_samples("spawn_hookline_c", se, (size_t)j);
  emit_samples("spawn_hookline_async_c", sa, (size_t)m);
  emit_samples("spawn_hookline_traced_c", st, (size_t)u);
  emit_samples("spawn_hookline_gated_pinned_c", sg, (size_t)q);
  free(sa);
  free(sg);
  free(st);
  hl_engine_free(et); /* returns once every span is delivered */
  if (atomic_load(&spans_seen) != 2 * (u + 20)) die("spawn: %ld spans for %ld traced runs", atomic_load(&spans_seen), u + 20);
  hl_engine_free(g);
  free(gcfg);
  unlink(script);
  hl_engine_free(e);
  free(cfg);
  free(payload);
  free(se);
  free(sf);
  return 0;
}

/* 5a. 8 PostToolUse hooks of 200 ms each, run concurrently by one hl_engine_run. */
static int scenario_parallel(void) {
  long n = env_long("HLBENCH_PARALLEL_N", 10);
  uint64_t *s = malloc(sizeof *s * (size_t)n);
  char *cfg = hooks_config("PostToolUse", "Bash", "cat >/dev/null; sleep 0.2", 8);
  hl_engine *e = engine_with(cfg);
  const char *input =
      "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_response\":{\"exit_code\":0},"
      "\"tool_call_id\":\"call-2\"}";
  for (long i = 0; i < n; i++) {
    uint64_t t0 = now_ns();
    char *o = run_engine(e, HL_EVENT_POST_TOOL_USE, input);
    s[i] = now_ns() - t0;
    size_t hooks = 0;
    for (const char *p = o; (p = strstr(p, "\"exit_code\":0")); p++) hooks++;
    if (hooks != 8) die("parallel: expected 8 successful hooks in %s", o);
    hl_string_free(o);
  }
  emit_samples("parallel_8x200ms_c", s, (size_t)n);
  hl_engine_free(e);
  free(cfg);

  /* 5a'. 4 Claude Code PreToolUse hooks of 200 ms each: every hook runs, concurrently, so one
   * run costs about one hook's wall time. */
  cfg = hooks_config("PreToolUse", "Bash", "cat >/dev/null; sleep 0.2", 4);
  e = engine_with(cfg);
  for (long i = 0; i < n; i++) {
    uint64_t t0 = now_ns();
    char *o = run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
    s[i] = now_ns() - t0;
    size_t hooks = 0;
    for (const char *p = o; (p = strstr(p, "\"exit_code\":0")); p++) hooks++;
    if (hooks != 4) die("parallel: expected 4 successful PreToolUse hooks in %s", o);
    hl_string_free(o);
  }
  emit_samples("claude_pre_tool_use_4x200ms_c", s, (size_t)n);
  hl_engine_free(e);
  free(cfg);
  free(s);
  return 0;
}

/* 5b. Throughput: THREADS host threads, each submitting hl_engine_run_async and waiting for done. */
#define THREADS 8

typedef struct {
  int mode; /* 0: async hookline run, 1: floor spawn, 2: sync hookline run */
  hl_engine *engine;
  const floor_spec *fs;
  uint64_t deadline;
  atomic_int *go;
  long count;
} worker_arg;

static void *worker(void *p) {
  worker_arg *a = p;
  waiter w;
  waiter_init(&w);
  char out[4096];
  while (!atomic_load(a->go)) {
  }
  while (now_ns() < a->deadline) {
    if (a->mode == 0) {
      run_async_wait(a->engine, &w);
    } else if (a->mode == 1) {
      floor_spawn(a->fs, out, sizeof out);
    } else {
      hl_string_free(run_engine(a->engine, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT));
    }
    a->count++;
  }
  pthread_mutex_destroy(&w.mu);
  pthread_cond_destroy(&w.cv);
  return NULL;
}

static double run_threads(int mode, hl_engine *e, const floor_spec *fs, double seconds) {
  pthread_t t[THREADS];
  worker_arg a[THREADS];
  atomic_int go = 0;
  uint64_t start = now_ns() + 50000000ull; /* let every thread start first */
  uint64_t deadline = start + (uint64_t)(seconds * 1e9);
  for (int i = 0; i < THREADS; i++) {
    a[i] = (worker_arg){mode, e, fs, deadline, &go, 0};
    pthread_create(&t[i], NULL, worker, &a[i]);
  }
  while (now_ns() < start) usleep(1000);
  uint64_t t0 = now_ns();
  atomic_store(&go, 1);
  long total = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
    total += a[i].count;
  }
  return (double)total / ((double)(now_ns() - t0) / 1e9);
}

static int scenario_throughput(void) {
  double secs = (double)env_long("HLBENCH_THROUGHPUT_MS", 3000) / 1000.0;
  size_t plen;
  char *payload = capture_payload(&plen);
  floor_spec fs = {HOOK_CMD, payload, plen, hook_envp("PreToolUse")};

  hl_engine *cbe = engine_with(NULL);
  char *em = NULL;
  check(hl_engine_add_callback_hook(cbe, HL_EVENT_PRE_TOOL_USE, "Bash", "allow-all", cb_hook_allow, NULL, NULL, &em),
        em, "hl_engine_add_callback_hook");
  char *cfg = hooks_config("PreToolUse", "Bash", HOOK_CMD, 1);
  hl_engine *cmde = engine_with(cfg);

  emit_value("throughput_threads", "threads", THREADS);
  emit_value("throughput_callback_async_c", "runs/s", run_threads(0, cbe, NULL, secs));
  emit_value("throughput_callback_sync_c", "runs/s", run_threads(2, cbe, NULL, secs));
  /* Floor and hookline alternate twice each, so drift on a shared machine hits both. */
  double f1 = run_threads(1, NULL, &fs, secs / 2), h1 = run_threads(0, cmde, NULL, secs / 2);
  double f2 = run_threads(1, NULL, &fs, secs / 2), h2 = run_threads(0, cmde, NULL, secs / 2);
  emit_value("throughput_spawn_floor_c", "runs/s", (f1 + f2) / 2);
  emit_value("throughput_command_async_c", "runs/s", (h1 + h2) / 2);
  hl_engine_free(cbe);
  hl_engine_free(cmde);
  free(cfg);
  free(payload);
  return 0;
}

/* ------------------------------------------------------------------ memory */

static long rss_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) kib = strtol(line + 6, NULL, 10);
  if (f) fclose(f);
  return kib;
}

static long open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  long n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  if (d) closedir(d);
  return n - 1; /* the directory stream itself */
}

static long child_count(void) {
  /* Children still attached to this process (zombies included). */
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
  FILE *f = fopen(path, "r");
  long n = 0;
  int c, in_word = 0;
  while (f && (c = fgetc(f)) != EOF) {
    if (c == ' ' || c == '\n') in_word = 0;
    else if (!in_word) {
      in_word = 1;
      n++;
    }
  }
  if (f) fclose(f);
  return n;
}

static int scenario_memory(void) {
  long reg_n = env_long("HLBENCH_MEM_REGISTRY_N", 100000);
  long cmd_n = env_long("HLBENCH_MEM_COMMAND_N", 10000);
  long hooks_n = env_long("HLBENCH_MEM_HOOKS", 1000);

  /* Start the library (runtime, logging) so the baselines below exclude one-time setup. */
  hl_engine *warm = engine_with(NULL);
  hl_string_free(run_engine(warm, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT));
  hl_engine_free(warm);

  /* 6a. An engine with hooks_n configured hooks: groups spread over four events. Three configs:
   * "mixed" (half exact-name matchers, half regex matchers; the headline), "exact" and "regex".
   * RSS is read after malloc_trim, so it counts what the engine keeps, not the allocator's cache of
   * what parsing the options used and freed. */
  const char *events[] = {"PreToolUse", "PostToolUse", "PermissionRequest", "PostToolUseFailure"};
  const char *kinds[] = {"mixed", "exact", "regex"};
  long per_event = hooks_n / 4;
  hl_engine *big = NULL;
  for (int kind = 0; kind < 3; kind++) {
    buf_t b = {0};
    buf_add(&b, "{");
    for (int ev = 0; ev < 4; ev++) {
      buf_add(&b, "%s\"%s\":[", ev ? "," : "", events[ev]);
      for (long i = 0; i < per_event; i++) {
        int regex = kind == 2 || (kind == 0 && i % 2);
        if (regex) buf_add(&b, "%s{\"matcher\":\"mcp__server%ld__.*\",", i ? "," : "", i);
        else buf_add(&b, "%s{\"matcher\":\"Tool%ld|Other%ld\",", i ? "," : "", i, i);
        buf_add(&b, "\"hooks\":[{\"type\":\"command\",\"command\":\"./hooks/check-%s-%ld.sh --strict\",\"timeout\":30}]}",
                events[ev], i);
      }
      buf_add(&b, "]");
    }
    buf_add(&b, "}");
    malloc_trim(0);
    long rss0 = rss_kib();
    uint64_t t0 = now_ns();
    hl_engine *e = engine_with(b.p);
    uint64_t t1 = now_ns();
    malloc_trim(0);
    long rss1 = rss_kib();
    char name[96];
    snprintf(name, sizeof name, "engine_1000_hooks_%s_rss_delta", kinds[kind]);
    emit_value(name, "KiB", (double)(rss1 - rss0));
    snprintf(name, sizeof name, "engine_1000_hooks_%s_new_ms", kinds[kind]);
    emit_value(name, "ms", (double)(t1 - t0) / 1e6);
    if (kind == 0) {
      emit_value("engine_1000_hooks_count", "hooks", (double)(per_event * 4));
      emit_value("engine_1000_hooks_config_bytes", "bytes", (double)b.len);
      emit_value("process_rss_with_1000_hook_engine", "KiB", (double)rss1);
      big = e;
    } else {
      hl_engine_free(e);
    }
    free(b.p);
  }
  /* No-match cost on the big engine: all 250 PreToolUse matchers are tested. */
  {
    long n = env_long("HLBENCH_NOMATCH_N", 200000) / 10;
    uint64_t *s = malloc(sizeof *s * (size_t)n);
    for (long i = 0; i < n; i++) {
      char *out = NULL;
      uint64_t a = now_ns();
      hl_engine_run(big, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT, &out, NULL);
      hl_string_free(out);
      s[i] = now_ns() - a;
    }
    emit_samples("nomatch_1000_hooks_c", s, (size_t)n);
    free(s);
  }
  hl_engine_free(big);

  /* 6b. Registry runs. */
  hl_registry *r = hl_registry_new();
  char *em = NULL;
  check(hl_registry_register(r, HL_POINT_PRE_TOOL_CALL_DECIDE, "policy", cb_allow, NULL, NULL, &em), em,
        "hl_registry_register");
  for (long i = 0; i < 1000; i++) {
    char *out = NULL;
    hl_registry_run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, DECIDE_CONTEXT, &out, NULL);
    hl_string_free(out);
  }
  long rss_a = rss_kib(), fds_a = open_fds(), rss_mid = 0;
  for (long i = 0; i < reg_n; i++) {
    char *out = NULL;
    check(hl_registry_run(r, HL_POINT_PRE_TOOL_CALL_DECIDE, DECIDE_CONTEXT, &out, &em), em, "hl_registry_run");
    hl_string_free(out);
    if (i == reg_n / 2) rss_mid = rss_kib();
  }
  long rss_b = rss_kib(), fds_b = open_fds();
  emit_value("registry_runs", "runs", (double)reg_n);
  emit_value("registry_rss_before", "KiB", (double)rss_a);
  emit_value("registry_rss_half", "KiB", (double)rss_mid);
  emit_value("registry_rss_after", "KiB", (double)rss_b);
  emit_value("registry_fds_before", "fds", (double)fds_a);
  emit_value("registry_fds_after", "fds", (double)fds_b);
  hl_registry_free(r);

  /* 6b. Command-hook runs. */
  char *cfg = hooks_config("PreToolUse", "Bash", HOOK_CMD, 1);
  hl_engine *e = engine_with(cfg);
  for (long i = 0; i < 100; i++) hl_string_free(run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT));
  rss_a = rss_kib();
  fds_a = open_fds();
  for (long i = 0; i < cmd_n; i++) {
    char *o = run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
    if (i % 1000 == 0) expect_contains(o, "\"decision\":\"allow\"", "command hook outcome");
    hl_string_free(o);
    if (i == cmd_n / 2) rss_mid = rss_kib();
  }
  rss_b = rss_kib();
  fds_b = open_fds();
  emit_value("command_runs", "runs", (double)cmd_n);
  emit_value("command_rss_before", "KiB", (double)rss_a);
  emit_value("command_rss_half", "KiB", (double)rss_mid);
  emit_value("command_rss_after", "KiB", (double)rss_b);
  emit_value("command_fds_before", "fds", (double)fds_a);
  emit_value("command_fds_after", "fds", (double)fds_b);
  emit_value("command_children_after", "processes", (double)child_count());
  hl_engine_free(e);
  free(cfg);
  return 0;
}

/* CPU cost per command-hook run, independent of machine load: this process's own CPU time
 * (user + system, every thread) and its children's, per run, for the floor and for hookline
 * (sync and async), one run at a time. */
static double cpu_us(int who) {
  struct rusage ru;
  getrusage(who, &ru);
  return (double)ru.ru_utime.tv_sec * 1e6 + (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec * 1e6 +
         (double)ru.ru_stime.tv_usec;
}

static int scenario_cpu(void) {
  long n = env_long("HLBENCH_CPU_N", 1000);
  size_t plen;
  char *payload = capture_payload(&plen);
  floor_spec fs = {HOOK_CMD, payload, plen, hook_envp("PreToolUse")};
  char *cfg = hooks_config("PreToolUse", "Bash", HOOK_CMD, 1);
  hl_engine *e = engine_with(cfg);
  waiter w;
  waiter_init(&w);
  char out[4096];
  static const char *names[3][2] = {{"cpu_self_floor_c", "cpu_children_floor_c"},
                                    {"cpu_self_hookline_sync_c", "cpu_children_hookline_sync_c"},
                                    {"cpu_self_hookline_async_c", "cpu_children_hookline_async_c"}};
  double self[3] = {0}, kids[3] = {0};
  for (int round = 0; round < 10; round++) {
    for (int mode = 0; mode < 3; mode++) {
      double s0 = cpu_us(RUSAGE_SELF), c0 = cpu_us(RUSAGE_CHILDREN);
      for (long i = 0; i < n / 10; i++) {
        if (mode == 0) floor_spawn(&fs, out, sizeof out);
        else if (mode == 1) hl_string_free(run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT));
        else run_async_wait(e, &w);
      }
      self[mode] += cpu_us(RUSAGE_SELF) - s0;
      kids[mode] += cpu_us(RUSAGE_CHILDREN) - c0;
    }
  }
  for (int mode = 0; mode < 3; mode++) {
    emit_value(names[mode][0], "us/run", self[mode] / (double)(n / 10 * 10));
    emit_value(names[mode][1], "us/run", kids[mode] / (double)(n / 10 * 10));
  }
  hl_engine_free(e);
  free(cfg);
  free(payload);
  return 0;
}

/* ------------------------------------------------------------------ 6. handler types */

/* The loopback HTTP server of the http rows: one thread per connection, keep-alive, every
 * request answered with an empty JSON object (an http hook's "no opinion"). */
static const char HTTP_REPLY[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
static atomic_int http_stop;

static void *http_connection(void *arg) {
  int c = (int)(intptr_t)arg;
  int one = 1;
  setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  char buf[65536];
  size_t have = 0;
  while (!atomic_load(&http_stop)) {
    ssize_t n = recv(c, buf + have, sizeof buf - 1 - have, 0);
    if (n <= 0) break;
    have += (size_t)n;
    buf[have] = 0;
    for (;;) {
      char *end = strstr(buf, "\r\n\r\n");
      if (!end) break;
      char *cl = strcasestr(buf, "content-length:");
      size_t need = (size_t)(end + 4 - buf) + (cl && cl < end ? (size_t)atol(cl + 15) : 0);
      if (have < need) break;
      if (send(c, HTTP_REPLY, sizeof HTTP_REPLY - 1, MSG_NOSIGNAL) < 0) goto out;
      memmove(buf, buf + need, have - need);
      have -= need;
      buf[have] = 0;
    }
  }
out:
  close(c);
  return NULL;
}

static void *http_acceptor(void *arg) {
  int fd = (int)(intptr_t)arg;
  while (!atomic_load(&http_stop)) {
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    int c = accept(fd, NULL, NULL);
    if (c < 0) continue;
    pthread_t t;
    pthread_create(&t, NULL, http_connection, (void *)(intptr_t)c);
    pthread_detach(t);
  }
  close(fd);
  return NULL;
}

static int http_listen(pthread_t *thread) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 64)) die("listen: %s", strerror(errno));
  socklen_t l = sizeof a;
  getsockname(fd, (struct sockaddr *)&a, &l);
  pthread_create(thread, NULL, http_acceptor, (void *)(intptr_t)fd);
  return ntohs(a.sin_port);
}

/* The floor: the same POST (the payload the hook gets, the headers hookline sends) on one
 * keep-alive connection, the response read to its end. */
static void http_floor(int port, const char *payload, long n, long warm) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&a, sizeof a)) die("connect: %s", strerror(errno));
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  buf_t req = {0};
  buf_add(&req,
          "POST /hook HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUser-Agent: hookline-bench\r\nAccept: */*\r\n"
          "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
          port, strlen(payload), payload);
  uint64_t *s = malloc(sizeof *s * (size_t)n);
  char buf[4096];
  for (long i = -warm; i < n; i++) {
    uint64_t t0 = now_ns();
    if (send(fd, req.p, req.len, MSG_NOSIGNAL) != (ssize_t)req.len) die("send: %s", strerror(errno));
    size_t have = 0;
    for (;;) {
      ssize_t r = recv(fd, buf + have, sizeof buf - 1 - have, 0);
      if (r <= 0) die("recv: %s", strerror(errno));
      have += (size_t)r;
      buf[have] = 0;
      char *end = strstr(buf, "\r\n\r\n");
      char *cl = strcasestr(buf, "content-length:");
      if (end && cl && have >= (size_t)(end + 4 - buf) + (size_t)atol(cl + 15)) break;
    }
    if (i >= 0) s[i] = now_ns() - t0;
  }
  emit_samples("http_floor_c", s, (size_t)n);
  free(s);
  free(req.p);
  close(fd);
}

static int32_t model_ok(void *ud, const char *request, size_t len, hl_reply *reply) {
  (void)ud;
  (void)request;
  (void)len;
  return hl_reply_set_json(reply, "{\"ok\":true}", NULL) == HL_OK ? 0 : 1;
}

static int scenario_handlers(void) {
  long n = env_long("HLBENCH_HTTP_N", 20000);
  long warm = n / 10 + 1;
  pthread_t server;
  int port = http_listen(&server);
  char hooks[256];
  snprintf(hooks, sizeof hooks,
           "{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"http\",\"url\":\"http://127.0.0.1:%d/hook\","
           "\"timeout\":10}]}]}", port);
  hl_engine *e = engine_with(hooks);
  char *first = run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
  expect_contains(first, "\"status\":200", "http hook");
  hl_string_free(first);
  uint64_t *s = malloc(sizeof *s * (size_t)n);
  /* The two rows alternate in rounds, so that a slow phase of the machine hits both. */
  int rounds = 5;
  long per = n / rounds;
  for (int r = 0; r < rounds; r++) {
    for (long i = -warm / rounds; i < per; i++) {
      uint64_t t0 = now_ns();
      char *out = run_engine(e, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
      if (i >= 0) s[i] = now_ns() - t0;
      hl_string_free(out);
    }
    emit_samples("http_hook_c", s, (size_t)per);
    /* The floor posts what the hook posts: the payload of this very run. */
    http_floor(port, "{\"session_id\":\"bench-session\",\"transcript_path\":null,\"cwd\":\"/tmp/hlbench\","
                     "\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":"
                     "\"git status --porcelain\"},\"tool_use_id\":\"call-1\",\"tool_call_id\":\"call-1\"}",
               per, warm / rounds);
  }
  hl_engine_free(e);
  atomic_store(&http_stop, 1);
  pthread_join(server, NULL);

  /* A prompt hook answered by a C model handler, next to the callback-hook row it is compared with. */
  long np = env_long("HLBENCH_NOMATCH_N", 200000) / 10;
  hl_engine *pe = engine_with("{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"prompt\",\"prompt\":\"Is this safe? $ARGUMENTS\"}]}]}");
  char *em = NULL;
  check(hl_engine_set_handler(pe, "prompt", model_ok, NULL, NULL, &em), em, "hl_engine_set_handler");
  hl_engine *ce = engine_with(NULL);
  check(hl_engine_add_callback_hook(ce, HL_EVENT_PRE_TOOL_USE, "Bash", "allow-all", cb_hook_allow, NULL, NULL, &em),
        em, "hl_engine_add_callback_hook");
  first = run_engine(pe, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
  expect_contains(first, "\"kind\":\"prompt\"", "prompt hook");
  if (strstr(first, "\"failure\":null") == NULL) die("prompt hook failed: %s", first);
  hl_string_free(first);
  uint64_t *sp = malloc(sizeof *sp * (size_t)np);
  uint64_t *sc = malloc(sizeof *sc * (size_t)np);
  for (long i = -np / 10; i < np; i++) {
    uint64_t t0 = now_ns();
    char *out = run_engine(pe, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
    uint64_t t1 = now_ns();
    hl_string_free(out);
    uint64_t t2 = now_ns();
    out = run_engine(ce, HL_EVENT_PRE_TOOL_USE, TOOL_INPUT);
    uint64_t t3 = now_ns();
    hl_string_free(out);
    if (i >= 0) {
      sp[i] = t1 - t0;
      sc[i] = t3 - t2;
    }
  }
  emit_samples("prompt_hook_c", sp, (size_t)np);
  emit_samples("callback_hook_paired_c", sc, (size_t)np);
  hl_engine_free(pe);
  hl_engine_free(ce);
  free(s);
  free(sp);
  free(sc);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) die("usage: hlbench payload|nomatch|registry|spawn|parallel|throughput|memory|cpu|handlers");
  make_workspace();
  int rc;
  const char *s = argv[1];
  if (!strcmp(s, "payload")) rc = scenario_payload(argc, argv);
  else if (!strcmp(s, "nomatch")) rc = scenario_nomatch();
  else if (!strcmp(s, "registry")) rc = scenario_registry();
  else if (!strcmp(s, "spawn")) rc = scenario_spawn();
  else if (!strcmp(s, "parallel")) rc = scenario_parallel();
  else if (!strcmp(s, "throughput")) rc = scenario_throughput();
  else if (!strcmp(s, "memory")) rc = scenario_memory();
  else if (!strcmp(s, "cpu")) rc = scenario_cpu();
  else if (!strcmp(s, "handlers")) rc = scenario_handlers();
  else die("unknown scenario %s", s);
  remove_workspace();
  return rc;
}
