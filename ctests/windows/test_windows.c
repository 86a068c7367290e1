/* The C ABI on Windows: a host built with mingw-w64, linked against hookline.dll through its
 * import library, runs hooks (cmd.exe and exec form) through the engine (`make test-windows`
 * runs it under Wine). Exit codes, JSON output, the stdin payload, a 1 MiB payload with a hook
 * writing as much, a timeout with a grandchild holding the pipes, cancel, and 20 runs that
 * leave no handle open.
 *
 * usage: test_windows.exe HOOK_EXE   (HOOK_EXE: ctests/windows/hook.c built for Windows) */
#include <windows.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hookline.h"

static int failures = 0, checks = 0;
static const char *hook_exe;
static char workspace[MAX_PATH];

#define CHECK(cond, ...)                                                  \
  do {                                                                    \
    checks++;                                                             \
    if (!(cond)) {                                                        \
      failures++;                                                         \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);     \
      fprintf(stderr, __VA_ARGS__);                                       \
      fputc('\n', stderr);                                                \
    }                                                                     \
  } while (0)

/* A printf into a fresh buffer (leaked: the program is short-lived). */
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *s = malloc((size_t)n + 1);
  va_start(ap, f);
  vsnprintf(s, (size_t)n + 1, f, ap);
  va_end(ap);
  return s;
}

/* `s` as a JSON string literal. */
static char *jstr(const char *s) {
  char *out = malloc(strlen(s) * 6 + 3), *o = out;
  *o++ = '"';
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      *o++ = '\\';
      *o++ = (char)c;
    } else if (c < 0x20) {
      o += sprintf(o, "\\u%04x", c);
    } else {
      *o++ = (char)c;
    }
  }
  *o++ = '"';
  *o = 0;
  return out;
}

/* Options for the workspace with one Claude Code settings event and its hooks (a JSON list). */
static char *options(const char *event, const char *hooks_list) {
  return fmt("{\"workspace\":%s,\"session_id\":\"sess-w\",\"hooks\":{\"%s\":[{\"hooks\":[%s]}]}}", jstr(workspace),
             event, hooks_list);
}

/* Options with one VT Code lifecycle event key and its hooks: VT Code's shell on Windows is
 * cmd.exe (Claude Code's is Git Bash, else PowerShell, which Wine does not have). */
static char *vt_options(const char *event_key, const char *hooks_list) {
  return fmt("{\"workspace\":%s,\"session_id\":\"sess-w\",\"hooks\":{\"lifecycle\":{\"%s\":[{\"hooks\":[%s]}]}}}",
             jstr(workspace), event_key, hooks_list);
}

/* A shell-form VT Code hook (cmd.exe on Windows). */
static char *shell_hook(const char *command) {
  return fmt("{\"type\":\"command\",\"command\":%s}", jstr(command));
}

/* An exec-form hook: hook.exe with `args_json` (a JSON list). */
static char *exec_hook(const char *args_json, int timeout) {
  return fmt("{\"type\":\"command\",\"command\":%s,\"args\":%s,\"timeout\":%d}", jstr(hook_exe), args_json,
             timeout > 0 ? timeout : 30);
}

static hl_engine *engine(const char *opts) {
  hl_engine *e = NULL;
  char *err = NULL;
  hl_status st = hl_engine_new(opts, &e, &err);
  CHECK(st == HL_OK && e, "hl_engine_new: %s: %s (options %s)", hl_status_name(st), err ? err : "", opts);
  hl_string_free(err);
  return e;
}

/* Run and return the outcome JSON (malloc'd copy), or NULL after a recorded failure. */
static char *run(hl_engine *e, hl_event ev, const char *input) {
  char *out = NULL, *err = NULL;
  hl_status st = hl_engine_run(e, ev, input, &out, &err);
  CHECK(st == HL_OK && out, "hl_engine_run: %s: %s", hl_status_name(st), err ? err : "");
  char *copy = out ? strdup(out) : NULL;
  if (getenv("HL_TEST_VERBOSE") && copy) fprintf(stderr, "  outcome: %.3000s\n", copy);
  hl_string_free(out);
  hl_string_free(err);
  return copy;
}

static int has(const char *outcome, const char *needle) { return outcome && strstr(outcome, needle) != NULL; }

static double now_ms(void) {
  LARGE_INTEGER f, c;
  QueryPerformanceFrequency(&f);
  QueryPerformanceCounter(&c);
  return (double)c.QuadPart * 1000.0 / (double)f.QuadPart;
}

#define PTU "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"dir\"},\"tool_call_id\":\"call-1\"}"

static void test_exit_codes_through_cmd(void) {
  /* 0: continue; 2: deny with stderr as the reason; 1: a non-blocking error. */
  hl_engine *e = engine(vt_options("pre_tool_use", shell_hook("echo ok& exit /b 0")));
  char *o = run(e, HL_EVENT_PRE_TOOL_USE, PTU);
  CHECK(has(o, "\"exit_code\":0") && has(o, "\"decision\":\"continue\""), "exit 0: %s", o);
  hl_engine_free(e);

  e = engine(vt_options("pre_tool_use", shell_hook("echo no entry 1>&2& exit /b 2")));
  o = run(e, HL_EVENT_PRE_TOOL_USE, PTU);
  CHECK(has(o, "\"exit_code\":2") && has(o, "\"decision\":\"deny\"") && has(o, "no entry"), "exit 2: %s", o);
  hl_engine_free(e);

  e = engine(vt_options("pre_tool_use", shell_hook("exit /b 1")));
  o = run(e, HL_EVENT_PRE_TOOL_USE, PTU);
  CHECK(has(o, "\"exit_code\":1") && !has(o, "\"decision\":\"deny\""), "exit 1: %s", o);
  hl_engine_free(e);
}

static void test_claude_code_shell_is_git_bash_else_powershell(void) {
  /* Claude Code's shell on Windows is Git Bash, else PowerShell. Wine has no Git Bash and ships a
   * stub powershell.exe in System32\WindowsPowerShell\v1.0 (on its PATH), which the fallback
   * finds: the command is not run by cmd.exe (which would exit 7). */
  hl_engine *e = engine(options("PreToolUse", "{\"type\":\"command\",\"command\":\"exit /b 7\"}"));
  char *o = run(e, HL_EVENT_PRE_TOOL_USE, PTU);
  CHECK(o && !has(o, "\"exit_code\":7"), "Claude Code's hook ran in cmd.exe: %s", o);
  hl_engine_free(e);
}

static void test_json_output_in_exec_form(void) {
  const char *reply =
      "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
      "\"permissionDecisionReason\":\"json says no\"}}";
  hl_engine *e = engine(options("PreToolUse", exec_hook(fmt("[\"reply\",\"0\",%s]", jstr(reply)), 0)));
  char *o = run(e, HL_EVENT_PRE_TOOL_USE, PTU);
  CHECK(has(o, "\"decision\":\"deny\"") && has(o, "json says no"), "JSON reply: %s", o);
  hl_engine_free(e);
}

static void test_stdin_payload(void) {
  /* The hook echoes its stdin: the payload the engine wrote, whole. */
  hl_engine *e = engine(options("SessionStart", exec_hook("[\"cat\"]", 0)));
  char *o = run(e, HL_EVENT_SESSION_START, "{}");
  CHECK(o && has(o, "\"exit_code\":0"), "cat: %s", o);
  hl_engine_free(e);
  /* Through cmd.exe, with a payload cmd would expand if it ever saw it. */
  char *cmd = fmt("\"%s\" reply 2 blocked", hook_exe);
  e = engine(vt_options("pre_tool_use", shell_hook(cmd)));
  o = run(e, HL_EVENT_PRE_TOOL_USE,
          "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo %PATH% & del /q x\"},\"tool_call_id\":\"c\"}");
  CHECK(has(o, "\"exit_code\":2") && has(o, "stderr:2"), "cmd + stdin: %s", o);
  hl_engine_free(e);
}

static void test_one_mib_payload_and_output(void) {
  size_t n = 1 << 20;
  char *big = malloc(n + 1);
  memset(big, 'a', n);
  big[n] = 0;
  char *input = fmt("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"%s\"},\"tool_call_id\":\"c\"}", big);
  hl_engine *e = engine(options("PreToolUse", exec_hook("[\"write\",\"1048576\"]", 60)));
  double t0 = now_ms();
  char *o = run(e, HL_EVENT_PRE_TOOL_USE, input);
  CHECK(has(o, "\"exit_code\":0") && has(o, "\"timed_out\":false"), "1 MiB: %.500s", o);
  CHECK(!has(o, "\"stdout_truncated\":true"), "1 MiB of output is within the default cap: %.500s", o);
  fprintf(stderr, "  1 MiB in and out: %.0f ms\n", now_ms() - t0);
  hl_engine_free(e);
  free(big);
}

static void test_timeout_kills_the_tree(void) {
  hl_engine *e = engine(options("PreToolUse", exec_hook("[\"tree\",\"60000\"]", 1)));
  double t0 = now_ms();
  char *o = run(e, HL_EVENT_PRE_TOOL_USE, PTU);
  double took = now_ms() - t0;
  CHECK(has(o, "\"timed_out\":true") && has(o, "\"exit_code\":null"), "timeout: %s", o);
  CHECK(took >= 1000 && took < 3000, "the run took %.0f ms with a grandchild holding the pipes", took);
  hl_engine_free(e);
}

typedef struct {
  hl_status status;
  HANDLE done;
} async_result;

static void on_done(void *user, hl_status status, const char *outcome, const char *errmsg) {
  (void)outcome;
  (void)errmsg;
  async_result *r = user;
  r->status = status;
  SetEvent(r->done);
}

static void test_cancel(void) {
  hl_engine *e = engine(options("PreToolUse", exec_hook("[\"tree\",\"60000\"]", 60)));
  async_result r = {HL_OK, CreateEventW(NULL, TRUE, FALSE, NULL)};
  uint64_t id = 0;
  char *err = NULL;
  hl_status st = hl_engine_run_async(e, HL_EVENT_PRE_TOOL_USE, PTU, on_done, &r, &id, &err);
  CHECK(st == HL_OK, "hl_engine_run_async: %s: %s", hl_status_name(st), err ? err : "");
  hl_string_free(err);
  Sleep(700);
  double t0 = now_ms();
  err = NULL;
  st = hl_engine_cancel(e, id, &err);
  CHECK(st == HL_OK, "hl_engine_cancel: %s: %s", hl_status_name(st), err ? err : "");
  hl_string_free(err);
  DWORD w = WaitForSingleObject(r.done, 5000);
  CHECK(w == WAIT_OBJECT_0, "done was not called within 5 s of the cancel");
  CHECK(r.status == HL_ERR_CANCELLED, "status %s", hl_status_name(r.status));
  fprintf(stderr, "  cancel to done: %.0f ms\n", now_ms() - t0);
  CloseHandle(r.done);
  hl_engine_free(e);
}

/* Open handles of this process: GetProcessHandleCount, or where it says 0 (Wine 8 does not count)
 * the handle values GetHandleInformation accepts. */
static DWORD open_handles(void) {
  DWORD n = 0, flags;
  if (GetProcessHandleCount(GetCurrentProcess(), &n) && n > 0) return n;
  for (uintptr_t h = 4; h < ((uintptr_t)1 << 18); h += 4)
    if (GetHandleInformation((HANDLE)h, &flags)) n++;
  return n;
}

static void test_twenty_runs_leak_no_handles(void) {
  hl_engine *e = engine(options("PreToolUse", exec_hook("[\"reply\",\"0\",\"{}\"]", 0)));
  for (int i = 0; i < 3; i++) free(run(e, HL_EVENT_PRE_TOOL_USE, PTU));
  DWORD before = open_handles(), after;
  for (int i = 0; i < 20; i++) {
    char *o = run(e, HL_EVENT_PRE_TOOL_USE, PTU);
    CHECK(has(o, "\"exit_code\":0"), "run %d: %s", i, o);
    free(o);
  }
  after = open_handles();
  /* A handle per run would be 20 more. */
  CHECK(after <= before + 2, "handles before 20 runs: %lu, after: %lu", (unsigned long)before, (unsigned long)after);
  fprintf(stderr, "  handles before 20 runs: %lu, after: %lu\n", (unsigned long)before, (unsigned long)after);
  hl_engine_free(e);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s HOOK_EXE\n", argv[0]);
    return 2;
  }
  hook_exe = argv[1];
  char tmp[MAX_PATH];
  GetTempPathA(sizeof tmp, tmp);
  snprintf(workspace, sizeof workspace, "%shookline-ws-%lu", tmp, (unsigned long)GetCurrentProcessId());
  CreateDirectoryA(workspace, NULL);

  struct {
    const char *name;
    void (*fn)(void);
  } tests[] = {
      {"exit_codes_through_cmd", test_exit_codes_through_cmd},
      {"claude_code_shell_is_git_bash_else_powershell", test_claude_code_shell_is_git_bash_else_powershell},
      {"json_output_in_exec_form", test_json_output_in_exec_form},
      {"stdin_payload", test_stdin_payload},
      {"one_mib_payload_and_output", test_one_mib_payload_and_output},
      {"timeout_kills_the_tree", test_timeout_kills_the_tree},
      {"cancel", test_cancel},
      {"twenty_runs_leak_no_handles", test_twenty_runs_leak_no_handles},
  };
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    int before = failures;
    tests[i].fn();
    fprintf(stderr, "%s %s\n", failures == before ? "ok  " : "FAIL", tests[i].name);
  }
  RemoveDirectoryA(workspace);
  fprintf(stderr, "%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
