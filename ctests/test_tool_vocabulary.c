/* The canonical tool vocabulary through the C ABI (docs/protocol.md, "Tool
 * names"): one workspace with a Claude Code, Codex, Gemini CLI, Cursor and
 * Copilot CLI hooks file, each guarding the shell and write tools by its own
 * agent's names. A host passes Claude Code's names; every guard runs once,
 * reads its agent's name and input, and a deny from any holds; Gemini CLI and
 * Cursor rewrites come back canonical; MCP tools are spelled each agent's
 * way; the option tool_names "native" passes names through unchanged.
 *
 * The vendors' words: Codex "tool_name is the canonical Codex name: Bash for
 * shell tools, apply_patch for file edits ... MCP tools mcp__<server>__<tool>";
 * Gemini CLI "run_shell_command, write_file, replace, read_file, ..." and
 * "MCP tools are mcp_<server>_<tool>"; Cursor's matcher is tested against "the
 * tool type: Shell, Read, Write, Grep, Delete, Task, MCP:<tool_name>"; Copilot
 * CLI's toolName is "the runtime name (bash, edit, create, view,
 * mcp-server/tool)" and toolArgs "a JSON-encoded string, not an object". */
#include "engine_util.h"

static const char *AGENTS[5] = {"claude", "codex", "gemini", "cursor", "copilot"};

/* A guard of `agent`: appends its payload to seen-<agent>, denies (exit 2,
 * the reason on stdout and stderr) when deny-<agent> exists, else prints
 * `answer` (may be empty). The command that runs it. */
static char *guard(const char *agent, const char *answer) {
  return script(fmt("%s.sh", agent),
                fmt("in=$(cat)\nprintf '%%s\\n' \"$in\" >> '%s'\n"
                    "if [ -e '%s' ]; then echo '%s says no'; echo '%s says no' >&2; exit 2; fi\n%s",
                    wpath(fmt("seen-%s", agent)), wpath(fmt("deny-%s", agent)), agent, agent,
                    answer && *answer ? say(answer) : ""));
}

/* The five hooks files with the given matchers and answers (NULL: none); the
 * options' hook_sources over them, in that order, with `extra`. */
static char *five(const char *const m[5], const char *const a[5], const char *extra) {
  char *g[5];
  for (int i = 0; i < 5; i++) g[i] = guard(AGENTS[i], a ? a[i] : NULL);
  const char *files[5] = {".claude/settings.json", ".codex/hooks.json", ".gemini/settings.json", ".cursor/hooks.json",
                          ".github/hooks/guard.json"};
  const char *texts[5] = {
      fmt("{\"hooks\":{\"PreToolUse\":[%s]}}", group(m[0], cc_hook(g[0], 0))),
      fmt("{\"hooks\":{\"PreToolUse\":[%s]}}", group(m[1], cc_hook(g[1], 0))),
      fmt("{\"hooks\":{\"BeforeTool\":[%s]}}", group(m[2], cc_hook(g[2], 0))),
      fmt("{\"version\":1,\"hooks\":{\"preToolUse\":[{\"matcher\":%s,\"command\":%s}]}}", jstr(m[3]), jstr(g[3])),
      fmt("{\"version\":1,\"hooks\":{\"preToolUse\":[{\"type\":\"command\",\"matcher\":%s,\"bash\":%s}]}}", jstr(m[4]),
          jstr(g[4])),
  };
  char *sources = fmt("%s", "");
  for (int i = 0; i < 5; i++) {
    char *path = wpath(files[i]);
    char *dir = fmt("%s", path);
    for (char *p = dir + strlen(eu_ws) + 1; *p; p++)
      if (*p == '/') { *p = 0; mkdir(dir, 0755); *p = '/'; }
    write_file(path, texts[i]);
    sources = fmt("%s%s{\"hooks_file\":%s,\"trusted\":true}", sources, i ? "," : "", jstr(path));
  }
  return opts(NULL, fmt("\"hook_sources\":[%s]%s%s", sources, extra ? "," : "", extra ? extra : ""));
}

static const char *const SHELL_AND_WRITE[5] = {"Bash|Write", "Bash|apply_patch", "run_shell_command|write_file",
                                               "Shell|Write", "bash|create"};
static const char *const CURSOR_SILENT[5] = {NULL, NULL, NULL, "{}", NULL};

/* Whether seen-<agent> holds exactly one payload containing every `needle`. */
static void saw_once(const char *agent, const char *const *needles) {
  char *seen = read_file(wpath(fmt("seen-%s", agent)));
  CHECK(seen != NULL, "%s's guard did not run", agent);
  if (!seen) return;
  int lines = 0;
  for (char *p = seen; *p; p++) lines += *p == '\n';
  CHECK(lines == 1, "%s's guard ran %d times: %s", agent, lines, seen);
  for (; *needles; needles++) CHECK(strstr(seen, *needles) != NULL, "%s read no %s in %s", agent, *needles, seen);
  unlink(wpath(fmt("seen-%s", agent)));
}

TEST(a_canonical_bash_call_runs_every_shell_guard_once_in_its_agents_vocabulary) {
  ws_begin();
  hl_engine *e = eng_new(five(SHELL_AND_WRITE, CURSOR_SILENT, NULL));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git status\"}}");
  CHECK_STR(o, "decision", "continue");
  CHECK_LEN(o, "hooks", 5);
  saw_once("claude", (const char *[]){"\"tool_name\":\"Bash\"", NULL});
  saw_once("codex", (const char *[]){"\"tool_name\":\"Bash\"", "\"command\":\"git status\"", NULL});
  saw_once("gemini", (const char *[]){"\"tool_name\":\"run_shell_command\"", NULL});
  saw_once("cursor", (const char *[]){"\"tool_name\":\"Shell\"", fmt("\"cwd\":%s", jstr(eu_ws)), NULL});
  saw_once("copilot", (const char *[]){"\"toolName\":\"bash\"", "\"toolArgs\":\"{\\\"command\\\":\\\"git status\\\"}\"", NULL});
  hl_engine_free(e);
  test_end();
}

TEST(a_canonical_write_call_runs_every_write_guard_once_in_its_agents_shape) {
  ws_begin();
  hl_engine *e = eng_new(five(SHELL_AND_WRITE, CURSOR_SILENT, NULL));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE,
                 "{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"a.txt\",\"content\":\"hi\\n\"}}");
  CHECK_LEN(o, "hooks", 5);
  saw_once("claude", (const char *[]){"\"tool_name\":\"Write\"", NULL});
  saw_once("codex", (const char *[]){"\"tool_name\":\"apply_patch\"",
                                     "\"command\":\"*** Begin Patch\\n*** Add File: a.txt\\n+hi\\n*** End Patch\"", NULL});
  saw_once("gemini", (const char *[]){"\"tool_name\":\"write_file\"", "\"file_path\":\"a.txt\"", NULL});
  saw_once("cursor", (const char *[]){"\"tool_name\":\"Write\"", NULL});
  saw_once("copilot", (const char *[]){"\"toolName\":\"create\"", "\\\"path\\\":\\\"a.txt\\\"", "\\\"file_text\\\"", NULL});
  hl_engine_free(e);
  test_end();
}

TEST(a_deny_from_any_agents_guard_holds) {
  ws_begin();
  hl_engine *e = eng_new(five(SHELL_AND_WRITE, CURSOR_SILENT, NULL));
  for (int i = 0; i < 5; i++) {
    char *marker = wpath(fmt("deny-%s", AGENTS[i]));
    write_file(marker, "");
    jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf /\"}}");
    unlink(marker);
    CHECK_STR(o, "decision", "deny");
    const char *reason = js(o, "reason");
    CHECK(reason && strstr(reason, fmt("%s says no", AGENTS[i])), "%s: %s", AGENTS[i], jraw(o));
  }
  hl_engine_free(e);
  test_end();
}

TEST(gemini_and_cursor_rewrites_come_back_canonical) {
  ws_begin();
  const char *never[5] = {"^$", "^$", "run_shell_command", "Grep", "^$"};
  const char *answers[5] = {NULL, NULL,
                            "{\"hookSpecificOutput\":{\"tool_input\":{\"command\":\"ls -la\",\"dir_path\":\"/tmp\"}}}",
                            "{\"permission\":\"allow\",\"updated_input\":{\"pattern\":\"TODO\",\"file_path\":\"src\"}}", NULL};
  hl_engine *e = eng_new(five(never, answers, NULL));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}");
  CHECK_STR(o, "updated_input.command", "ls -la");
  CHECK_STR(o, "updated_input.cwd", "/tmp"); /* Gemini CLI's dir_path */
  o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Grep\",\"tool_input\":{\"pattern\":\"x\",\"path\":\".\"}}");
  CHECK_STR(o, "updated_input.pattern", "TODO");
  CHECK_STR(o, "updated_input.path", "src"); /* Cursor's file_path */
  hl_engine_free(e);
  test_end();
}

TEST(mcp_tools_in_each_agents_spelling_and_native_names) {
  ws_begin();
  const char *mcp[5] = {"mcp__github__create_issue", "mcp__github__create_issue", "^mcp_github_create_issue$",
                        "^MCP:create_issue$", "github/create_issue"};
  hl_engine *e = eng_new(five(mcp, CURSOR_SILENT, NULL));
  jv *o = run_ev(e, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"mcp__github__create_issue\",\"tool_input\":{\"title\":\"t\"}}");
  CHECK_LEN(o, "hooks", 5);
  saw_once("gemini", (const char *[]){"\"tool_name\":\"mcp_github_create_issue\"", NULL});
  saw_once("cursor", (const char *[]){"\"tool_name\":\"MCP:create_issue\"", NULL});
  saw_once("copilot", (const char *[]){"\"toolName\":\"github/create_issue\"", NULL});
  hl_engine_free(e);
  /* tool_names "native": the host's names reach every hook unchanged. */
  hl_engine *n = eng_new(five(SHELL_AND_WRITE, CURSOR_SILENT, "\"tool_names\":\"native\""));
  o = run_ev(n, HL_EVENT_PRE_TOOL_USE, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}");
  CHECK_LEN(o, "hooks", 3); /* Claude Code's, Codex's, Copilot CLI's */
  CHECK(!file_exists(wpath("seen-gemini")) && !file_exists(wpath("seen-cursor")), "Gemini CLI's and Cursor's guards ran");
  hl_engine_free(n);
  test_end();
}

int main(void) {
  RUN(a_canonical_bash_call_runs_every_shell_guard_once_in_its_agents_vocabulary);
  RUN(a_canonical_write_call_runs_every_write_guard_once_in_its_agents_shape);
  RUN(a_deny_from_any_agents_guard_holds);
  RUN(gemini_and_cursor_rewrites_come_back_canonical);
  RUN(mcp_tools_in_each_agents_spelling_and_native_names);
  return DONE();
}
