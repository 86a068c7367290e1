//! The Cursor dialect with real hooks: `.cursor/hooks.json` files in a
//! temporary project, hook scripts written the way Cursor users write them
//! (`tests/fixtures/cursor/`: shell with jq, Python, Node), and the
//! scenarios of Cursor's hooks documentation and of recorded runs of
//! Cursor 3.9 re-created. Each test quotes the rule it proves.

use std::path::PathBuf;

use hookline::config::HooksConfig;
use hookline::{CallResult, HookEvent, LifecycleHookEngine, Reply, Status};
use serde_json::{json, Value};

use crate::support::{run, Ws};

/// A workspace with the fixture scripts in `.cursor/hooks/` (as Cursor
/// users keep them) and the session id `conv-1` (a Cursor conversation).
fn cursor_ws() -> Ws {
    let ws = Ws::with_session("conv-1");
    let hooks = ws.file(".cursor/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    for entry in std::fs::read_dir(FIXTURES).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), hooks.join(entry.file_name())).unwrap();
    }
    ws
}

/// Engines of `.cursor/hooks.json` (recognised by its path).
trait Engines {
    /// Write `.cursor/hooks.json` with `hooks` and return its path.
    fn config(&self, hooks: Value) -> PathBuf;
    /// An engine reading `.cursor/hooks.json`.
    fn engine(&self, hooks: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn config(&self, hooks: Value) -> PathBuf {
        let path = self.file(".cursor/hooks.json");
        std::fs::write(&path, json!({"version": 1, "hooks": hooks}).to_string()).unwrap();
        path
    }
    fn engine(&self, hooks: Value) -> LifecycleHookEngine {
        let path = self.config(hooks);
        self.engine_with(json!({"hooks_file": path}))
    }
}

// ---------------------------------------------------------------- helpers

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cursor");

fn named(e: &LifecycleHookEngine, name: &str, input: Value) -> Value {
    e.run_named_blocking(name, &input).unwrap().to_json()
}

fn shell(command: &str) -> Value {
    json!({"tool_name": "Shell", "tool_input": {"command": command, "cwd": ""}, "tool_call_id": "tc-1"})
}

fn stop_input() -> Value {
    json!({"status": "completed"})
}

fn messages(out: &Value) -> Vec<String> {
    out["messages"].as_array().unwrap().iter().map(|m| m["text"].as_str().unwrap().to_owned()).collect()
}

fn failures(out: &Value) -> Vec<Value> {
    out["hooks"].as_array().unwrap().iter().map(|h| h["failure"].clone()).collect()
}

fn commands(out: &Value) -> Vec<String> {
    out["hooks"].as_array().unwrap().iter().map(|h| h["command"].as_str().unwrap().to_owned()).collect()
}

/// A hook that prints `stdout` and exits with `code`.
fn answer(stdout: &str, code: i32) -> Value {
    json!({"command": format!("cat >/dev/null; printf '%s' '{stdout}'; exit {code}")})
}

// ---------------------------------------------------------------- config files

/// "`<project-root>/.cursor/hooks.json`" is Cursor's project file
/// (Configuration): read by its path, its camelCase events run.
#[test]
fn a_project_cursor_hooks_json_is_recognised_by_its_path() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"preToolUse": [answer(r#"{"permission":"deny","user_message":"no"}"#, 0)]}));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "no");
}

/// The `dialect` option names the dialect of a config given as JSON, and
/// `hook_sources[i].dialect` of one source.
#[test]
fn the_dialect_option_reads_json_as_cursor() {
    let ws = cursor_ws();
    let hooks = json!({"version": 1, "hooks": {"stop": [answer(r#"{"followup_message":"again"}"#, 0)]}});
    let e = ws.engine_with(json!({"hooks": hooks, "dialect": "cursor"}));
    assert_eq!(run(&e, HookEvent::Stop, stop_input())["block_reason"], "again");
    let e = ws.engine_with(json!({"hook_sources": [{"hooks": hooks, "dialect": "cursor"}]}));
    assert_eq!(run(&e, HookEvent::Stop, stop_input())["block_reason"], "again");
    // Without the option, Cursor's shape (a version and camelCase events) is recognised too.
    let e = ws.engine_with(json!({"hooks": hooks}));
    assert_eq!(run(&e, HookEvent::Stop, stop_input())["block_reason"], "again");
}

/// "Unknown event key: the whole file is rejected. Cursor 2.6's parser
/// reports 'Unknown hook type' and 'FAILS THE ENTIRE CONFIG'."
#[test]
fn an_unknown_hook_event_rejects_the_whole_file() {
    let ws = cursor_ws();
    let path = ws.config(json!({"stop": [{"command": "true"}], "agentSessionStart": [{"command": "true"}]}));
    let err = ws.try_engine_with(json!({"hooks_file": path})).unwrap_err();
    assert_eq!(err.status, Status::InvalidConfig);
    assert!(err.message.contains("agentSessionStart"), "{}", err.message);
}

/// "hookline: reject that file with an error naming the key, and keep
/// loading the other sources" (all sources run in Cursor; one invalid file
/// does not take the others down).
#[test]
fn an_invalid_file_among_sources_is_left_out_and_the_others_still_load() {
    let ws = cursor_ws();
    let bad = ws.file("bad/.cursor/hooks.json");
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&bad, r#"{"version":1,"hooks":{"PreToolUse":[{"command":"true"}]}}"#).unwrap();
    let good = ws.config(json!({"preToolUse": [answer(r#"{"permission":"deny","user_message":"good file"}"#, 0)]}));
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": bad, "trusted": true}, {"hooks_file": good}]}));
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("ls"))["reason"], "good file");
}

/// "A Claude-format file placed at `.cursor/hooks.json` (PascalCase keys,
/// matcher groups) is not read as Claude Code."
#[test]
fn a_claude_settings_file_at_dot_cursor_is_rejected_with_a_hint() {
    let ws = cursor_ws();
    let path = ws.file(".cursor/hooks.json");
    std::fs::write(&path, r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"x"}]}]}}"#).unwrap();
    let err = HooksConfig::from_file(&path).unwrap_err();
    assert!(err.message.contains("`preToolUse`") && err.message.contains(".claude/settings.json"), "{}", err.message);
    std::fs::write(&path, r#"{"version":1,"hooks":{"preToolUse":[{"matcher":"Shell","hooks":[{"command":"x"}]}]}}"#)
        .unwrap();
    let err = HooksConfig::from_file(&path).unwrap_err();
    assert!(err.message.contains("matcher groups"), "{}", err.message);
}

/// "A missing `command`, a wrong type, a JSON syntax error: … hookline:
/// treat it like an unknown key (reject the file)."
#[test]
fn a_missing_command_or_a_wrong_type_rejects_the_file() {
    let ws = cursor_ws();
    for (hooks, needle) in [
        (json!({"stop": [{"timeout": 5}]}), "must specify a command"),
        (json!({"stop": [{"command": 3}]}), "command must be a string"),
        (json!({"stop": [{"command": "x", "timeout": "5"}]}), "timeout"),
        (json!({"stop": [{"command": "x", "timeout": 0}]}), "positive"),
        (json!({"stop": [{"command": "x", "failClosed": "yes"}]}), "failClosed"),
        (json!({"stop": [{"command": "x", "loop_limit": -1}]}), "loop_limit"),
        (json!({"stop": [{"command": "x", "matcher": {"tool": "Shell"}}]}), "matcher"),
        (json!({"stop": [{"command": "x", "type": "agent"}]}), "type"),
        (json!({"stop": {"command": "x"}}), "must be an array"),
    ] {
        let path = ws.config(hooks);
        let err = HooksConfig::from_file(&path).unwrap_err();
        assert_eq!(err.status, Status::InvalidConfig);
        assert!(err.message.contains(needle), "{needle}: {}", err.message);
    }
    std::fs::write(ws.file(".cursor/hooks.json"), "{\"version\": 1, \"hooks\": {").unwrap();
    assert_eq!(HooksConfig::from_file(&ws.file(".cursor/hooks.json")).unwrap_err().status, Status::InvalidConfig);
}

/// "`type: "prompt"` hooks need an LLM. hookline cannot run them: it skips
/// them with a warning"; fields Cursor does not read are reported.
#[test]
fn prompt_hooks_are_skipped_and_unread_fields_reported() {
    let ws = cursor_ws();
    let path = ws.config(json!({"beforeShellExecution": [
        {"type": "prompt", "prompt": "Is this command safe?", "timeout": 10},
        {"command": "true", "async": true, "failclosed": true}
    ]}));
    let cfg = HooksConfig::from_file(&path).unwrap();
    assert_eq!(cfg.command_count(), 1);
    let warnings: Vec<String> = cfg.warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect();
    assert!(warnings.iter().any(|w| w.contains("beforeShellExecution[0]") && w.contains("prompt")), "{warnings:?}");
    assert!(warnings.iter().any(|w| w.contains("[1].async")), "{warnings:?}");
    assert!(warnings.iter().any(|w| w.contains("[1].failclosed") && w.contains("`failClosed`")), "{warnings:?}");
}

// ---------------------------------------------------------------- payload and environment

/// "All hooks get, in snake_case: `conversation_id`, `generation_id`,
/// `model`, `hook_event_name` (the camelCase Cursor name), `cursor_version`,
/// `workspace_roots`, `user_email`, `transcript_path`"; preToolUse adds
/// `tool_name`, `tool_input`, `tool_use_id`, `cwd`.
#[test]
fn hooks_read_cursors_common_fields_and_the_camel_case_event_name() {
    let ws = cursor_ws();
    let log = ws.file("audit.log");
    let e = ws.engine_with(json!({
        "hooks_file": ws.config(json!({"preToolUse": [{"command": ".cursor/hooks/audit.sh"}]})),
        "env": {"AUDIT_LOG": log}
    }));
    let mut input = shell("npm test");
    input["turn_id"] = json!("gen-7");
    input["model"] = json!("claude-sonnet");
    run(&e, HookEvent::PreToolUse, input);
    let payload: Value = serde_json::from_str(ws.read("audit.log").trim()).unwrap();
    assert_eq!(payload["hook_event_name"], "preToolUse");
    assert_eq!(payload["conversation_id"], "conv-1");
    assert_eq!(payload["session_id"], "conv-1");
    assert_eq!(payload["generation_id"], "gen-7");
    assert_eq!(payload["model"], "claude-sonnet");
    assert_eq!(payload["cursor_version"], "");
    assert_eq!(payload["user_email"], Value::Null);
    assert_eq!(payload["transcript_path"], Value::Null);
    let root = std::fs::canonicalize(ws.path()).unwrap();
    assert_eq!(payload["workspace_roots"], json!([root]));
    assert_eq!(payload["tool_name"], "Shell");
    assert_eq!(payload["tool_input"]["command"], "npm test");
    assert_eq!(payload["tool_use_id"], "tc-1");
    assert!(payload.get("tool_call_id").is_none() && payload.get("turn_id").is_none());
}

/// "`CURSOR_PROJECT_DIR` workspace root, always; `CLAUDE_PROJECT_DIR`
/// alias of the project dir ('Claude compatibility'), always"; "There is no
/// `CLAUDE_ENV_FILE`."
#[test]
fn hooks_get_cursor_project_dir_and_its_claude_alias() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"sessionStart": [{"command":
        "cat >/dev/null; echo \"$CURSOR_PROJECT_DIR|$CLAUDE_PROJECT_DIR|${CLAUDE_ENV_FILE:-none}\" > env.txt"}]}));
    run(&e, HookEvent::SessionStart, json!({}));
    let root = std::fs::canonicalize(ws.path()).unwrap().display().to_string();
    assert_eq!(ws.read("env.txt").trim(), format!("{root}|{root}|none"));
}

/// "Project hooks run from the project root, so use
/// `.cursor/hooks/format.sh`"; "Enterprise hooks (system-wide config): Run
/// from the enterprise config directory."
#[test]
fn project_hooks_run_from_the_project_root_and_other_files_from_their_directory() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"afterFileEdit": [{"command": "cat >/dev/null; pwd > where.txt"}]}));
    named(&e, "afterFileEdit", json!({"file_path": "/p/a.rs", "edits": []}));
    assert_eq!(PathBuf::from(ws.read("where.txt").trim()), std::fs::canonicalize(ws.path()).unwrap());
    let enterprise = ws.file("etc/cursor/hooks.json");
    std::fs::create_dir_all(enterprise.parent().unwrap()).unwrap();
    std::fs::write(
        &enterprise,
        r#"{"version":1,"hooks":{"afterFileEdit":[{"command":"cat >/dev/null; pwd > where.txt"}]}}"#,
    )
    .unwrap();
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": enterprise, "trusted": true}]}));
    named(&e, "afterFileEdit", json!({"file_path": "/p/a.rs", "edits": []}));
    let dir = std::fs::canonicalize(enterprise.parent().unwrap()).unwrap();
    assert_eq!(PathBuf::from(std::fs::read_to_string(dir.join("where.txt")).unwrap().trim()), dir);
}

// ---------------------------------------------------------------- reading one hook

/// "Exit code `2` - Block the action (equivalent to returning `permission:
/// "deny"`)"; "stdout is not parsed: the raw stdout text (trimmed) is the
/// reason, JSON and all" (recorded runs).
#[test]
fn exit_2_denies_with_the_raw_stdout_as_the_reason() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"beforeShellExecution": [answer(r#"{"permission":"allow","user_message":"fine"}"#, 2)]}));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], r#"{"permission":"allow","user_message":"fine"}"#);
    assert_eq!(failures(&out), [Value::Null], "a deliberate exit 2 is an answer, not a failure");
}

/// "With empty stdout the reason is `Hook "<command>" blocked this action
/// (exit code 2) but provided no reason.`" (stderr is not the reason).
#[test]
fn exit_2_without_stdout_gives_cursors_fixed_reason() {
    let ws = cursor_ws();
    let command = "cat >/dev/null; echo 'not this' >&2; exit 2";
    let e = ws.engine(json!({"preToolUse": [{"command": command}]}));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], format!("Hook \"{command}\" blocked this action (exit code 2) but provided no reason."));
}

/// "any other exit code: a failure: 'Hook failed, action proceeds
/// (fail-open by default)'. stdout is ignored, even a deny JSON."
#[test]
fn other_exit_codes_fail_open_even_with_a_deny_on_stdout() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"preToolUse": [answer(r#"{"permission":"deny","user_message":"x"}"#, 1)]}));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["decision"], "continue");
    assert_eq!(failures(&out), [json!("exit")]);
}

/// "exit 0, stdout not JSON (or not an object): a failure ('invalid
/// JSON'): ignored, or blocking with `failClosed`. Plain text is never
/// context or a message."
#[test]
fn non_json_stdout_on_exit_0_is_a_failure_never_context() {
    let ws = cursor_ws();
    let e = ws.engine(json!({
        "sessionStart": [{"command": "cat >/dev/null; echo 'Remember: run the linter'"}],
        "preToolUse": [{"command": "cat >/dev/null; echo '[1,2]'", "failClosed": true}]
    }));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["additional_context"], json!([]));
    assert_eq!(failures(&out), [json!("invalid_output")]);
    assert!(!messages(&out).iter().any(|m| m == "Remember: run the linter"), "{:?}", messages(&out));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["decision"], "deny");
    assert!(out["reason"].as_str().unwrap().ends_with("returned invalid JSON."), "{}", out["reason"]);
}

/// "Emitting a `hookSpecificOutput` wrapper does NOT work on Cursor."
/// Claude-shaped output is valid JSON with no Cursor field: no decision,
/// no failure.
#[test]
fn claude_shaped_output_decides_nothing() {
    let ws = cursor_ws();
    let claude =
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"},"decision":"block"}"#;
    let e = ws.engine(json!({"preToolUse": [answer(claude, 0)]}));
    let out = run(&e, HookEvent::PreToolUse, shell("rm -rf /"));
    assert_eq!(out["decision"], "continue");
    assert_eq!(failures(&out), [Value::Null]);
    assert!(messages(&out).iter().any(|m| m.contains("hookSpecificOutput")), "{:?}", messages(&out));
}

/// "`docs-1.7` used `userMessage`/`agentMessage` … hookline reads only the
/// current names, so a camelCase message … is ignored": a deny keeps no
/// reason from it, and the hook is told.
#[test]
fn cursor_1_7_camel_case_messages_are_ignored_and_reported() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"beforeShellExecution": [answer(r#"{"permission":"deny","userMessage":"old"}"#, 0)]}));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], Value::Null, "{out}");
    assert!(messages(&out).iter().any(|m| m.contains("`userMessage`") && m.contains("`user_message`")), "{out}");
}

/// "With `failClosed` the action is blocked with reason `Tool blocked
/// because this hook is configured to fail closed (block when it fails).
/// Hook "<command>" failed with exit code <n>: <stderr>`."
#[test]
fn fail_closed_blocks_a_crash_with_cursors_wording() {
    let ws = cursor_ws();
    let command = "cat >/dev/null; echo 'jq: not found' >&2; exit 127";
    let e = ws.engine(json!({"beforeShellExecution": [{"command": command, "failClosed": true}]}));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(
        out["reason"],
        format!(
            "Tool blocked because this hook is configured to fail closed (block when it fails). Hook \"{command}\" \
             failed with exit code 127: jq: not found"
        )
    );
}

/// "exit 0, stdout empty: no answer, no decision. With `failClosed`: a
/// failure, and the action is blocked with reason `… Hook "<command>"
/// returned no output.`" (PC 12); `{}` is an answer.
#[test]
fn fail_closed_blocks_on_empty_output_but_not_on_an_empty_object() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"preToolUse": [
        {"command": "cat >/dev/null", "failClosed": true},
        {"command": "cat >/dev/null"}
    ]}));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["decision"], "deny");
    assert!(out["reason"].as_str().unwrap().ends_with("Hook \"cat >/dev/null\" returned no output."));
    assert_eq!(failures(&out), [json!("no_output"), Value::Null], "empty output fails only under failClosed");
    let e = ws.engine(json!({"preToolUse": [{"command": "cat >/dev/null; echo '{}'", "failClosed": true}]}));
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("ls"))["decision"], "continue");
}

/// "`timeout` … seconds"; "A timeout is a hook failure: the action proceeds
/// unless `failClosed` is set."
#[test]
fn timeouts_are_seconds_and_fail_closed_turns_one_into_a_deny() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"beforeReadFile": [
        {"command": "cat >/dev/null; sleep 5", "timeout": 1},
        {"command": "cat >/dev/null; sleep 5", "timeout": 1, "failClosed": true}
    ]}));
    let started = std::time::Instant::now();
    let out = named(&e, "beforeReadFile", json!({"file_path": "/p/a", "content": "x"}));
    assert!(started.elapsed() < std::time::Duration::from_secs(4), "{:?}", started.elapsed());
    assert_eq!(failures(&out), [json!("timeout"), json!("timeout")]);
    assert_eq!(out["decision"], "deny");
    assert!(out["reason"].as_str().unwrap().ends_with("timed out."), "{}", out["reason"]);
}

/// "`failClosed` matters only on events that can block: the gates, and
/// beforeSubmitPrompt"; stop's only "block" is a follow-up the hook writes.
#[test]
fn fail_closed_does_not_make_stop_block() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"stop": [{"command": "cat >/dev/null; exit 1", "failClosed": true}]}));
    let out = run(&e, HookEvent::Stop, stop_input());
    assert_eq!(out["block_reason"], Value::Null);
    assert_eq!(failures(&out), [json!("exit")]);
}

// ---------------------------------------------------------------- ask, event by event

/// preToolUse: "`"ask"` is accepted by the schema but not enforced for
/// `preToolUse` today": no decision, the `ask` kept among the dialect's fields.
#[test]
fn pre_tool_use_ask_is_accepted_but_not_enforced() {
    let ws = cursor_ws();
    let e = ws.engine(
        json!({"preToolUse": [answer(r#"{"permission":"ask","user_message":"sure?","agent_message":"wait"}"#, 0)]}),
    );
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["decision"], "continue");
    assert_eq!(out["dialect_fields"]["cursor"]["permission"], "ask");
    assert_eq!(out["dialect_fields"]["cursor"]["agent_message"], "wait");
}

/// beforeShellExecution: `permission` "allow / deny / ask" — hookline
/// returns `ask`, the documented meaning (the docs' block-git.sh asks
/// before `gh` commands and denies raw `git`).
#[test]
fn before_shell_execution_ask_is_kept_and_its_deny_blocks() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"beforeShellExecution": [{"command": ".cursor/hooks/block-git.sh"}]}));
    let out = run(&e, HookEvent::PreToolUse, shell("gh pr create"));
    assert_eq!(out["decision"], "ask");
    assert_eq!(out["reason"], "GitHub CLI command requires permission: gh pr create");
    let out = run(&e, HookEvent::PreToolUse, shell("git push origin main"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "Git command blocked. Please use the GitHub CLI (gh) tool instead.");
    assert!(out["dialect_fields"]["cursor"]["agent_message"].as_str().unwrap().contains("git push origin main"));
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("cargo build"))["decision"], "allow");
    // Fired by its own name with Cursor's native input, the same rules.
    let out = named(&e, "beforeShellExecution", json!({"command": "gh auth status", "cwd": "/p", "sandbox": false}));
    assert_eq!(out["decision"], "ask");
}

/// subagentStart: "`"ask"` is not supported for `subagentStart` and is
/// treated as `"deny"`"; the matcher is the subagent type.
#[test]
fn subagent_start_is_a_gate_and_its_ask_denies() {
    let ws = cursor_ws();
    let e = ws.engine(
        json!({"subagentStart": [{"command": "node .cursor/hooks/subagent-gate.js", "matcher": "explore|shell"}]}),
    );
    let input = |kind: &str| {
        json!({"parent_session_id": "conv-1", "child_thread_id": "sa-1", "agent_name": kind,
               "display_label": "Sub", "background": false, "status": "starting", "task": "Explore the auth flow"})
    };
    let out = run(&e, HookEvent::SubagentStart, input("explore"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "Exploring needs approval: Explore the auth flow");
    assert_eq!(run(&e, HookEvent::SubagentStart, input("shell"))["decision"], "deny");
    let out = run(&e, HookEvent::SubagentStart, input("generalPurpose"));
    assert_eq!(out["decision"], "continue", "the matcher leaves generalPurpose subagents alone");
    assert!(out["hooks"].as_array().unwrap().is_empty());
}

// ---------------------------------------------------------------- generic and specific hooks

/// "A Shell call fires `preToolUse` and then `beforeShellExecution`" (in
/// the recorded run preToolUse started at .365 and both
/// beforeShellExecution hooks at .482/.483).
#[test]
fn a_shell_call_fires_pre_tool_use_then_before_shell_execution() {
    let ws = cursor_ws();
    let e = ws.engine(json!({
        "beforeShellExecution": [{"command": "cat >/dev/null; echo shell >> order.log"}],
        "preToolUse": [{"command": "cat >/dev/null; sleep 0.3; echo pre >> order.log"}]
    }));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(ws.read("order.log"), "pre\nshell\n");
    assert_eq!(commands(&out).len(), 2);
    assert!(commands(&out)[0].contains("echo pre"), "preToolUse's report comes first: {:?}", commands(&out));
}

/// "A deny from either layer blocks the call"; a call preToolUse denied
/// never reaches the shell, so beforeShellExecution hooks do not run.
#[test]
fn a_deny_from_either_layer_blocks_and_a_pre_tool_use_deny_stops_there() {
    let ws = cursor_ws();
    let e = ws.engine(json!({
        "preToolUse": [{"command": ".cursor/hooks/validate-tool.sh"}],
        "beforeShellExecution": [{"command": ".cursor/hooks/block-git.sh"}]
    }));
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("git commit -m x"))["decision"], "deny");
    let e = ws.engine(json!({
        "preToolUse": [answer(r#"{"permission":"deny","user_message":"no tools today"}"#, 0)],
        "beforeShellExecution": [{"command": "cat >/dev/null; touch ran.txt"}]
    }));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["reason"], "no tools today");
    assert!(!ws.file("ran.txt").exists());
    assert_eq!(commands(&out).len(), 1);
}

/// beforeShellExecution is PreToolUse restricted to the shell tool: a Read
/// fires preToolUse alone (its beforeReadFile is fired by name).
#[test]
fn other_tools_do_not_fire_shell_hooks() {
    let ws = cursor_ws();
    let e = ws.engine(json!({
        "beforeShellExecution": [{"command": "cat >/dev/null; touch shell.txt"}],
        "beforeReadFile": [{"command": "cat >/dev/null; touch read.txt"}]
    }));
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Read", "tool_input": {"file_path": "/p/a"}}));
    assert!(out["hooks"].as_array().unwrap().is_empty());
    assert!(!ws.file("shell.txt").exists() && !ws.file("read.txt").exists());
}

/// "beforeShellExecution: The matcher runs against the shell command
/// string … runs `approve-network.sh` only when the command contains
/// `curl`, `wget`, or `nc `."
#[test]
fn shell_matchers_search_the_command_string() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"beforeShellExecution": [{
        "command": "cat >/dev/null; echo '{\"permission\":\"deny\",\"user_message\":\"network\"}'",
        "matcher": "curl|wget|nc "
    }]}));
    for (command, decision) in
        [("curl https://x", "deny"), ("echo hi | nc host 80", "deny"), ("sync", "continue"), ("ls -la", "continue")]
    {
        assert_eq!(run(&e, HookEvent::PreToolUse, shell(command))["decision"], decision, "{command}");
    }
}

/// The rewrite preToolUse makes (`updated_input`: "Modified tool input to
/// use instead") is the command the shell hooks judge.
#[test]
fn the_rewrite_of_pre_tool_use_is_what_the_shell_hooks_read() {
    let ws = cursor_ws();
    let e = ws.engine(json!({
        "preToolUse": [{"command": ".cursor/hooks/validate-tool.sh"}],
        "beforeShellExecution": [{"command": "jq -r .command > seen.txt"}]
    }));
    let out = run(&e, HookEvent::PreToolUse, shell("npm install"));
    assert_eq!(out["decision"], "allow");
    assert_eq!(out["updated_input"], json!({"command": "npm ci"}));
    assert_eq!(ws.read("seen.txt").trim(), "npm ci");
}

/// "`updated_input` | preToolUse | replaces the tool input before
/// execution", and "A Shell call fires `preToolUse` and then
/// `beforeShellExecution`": the shell hooks' matcher ("the full command
/// string") is tested against the command that will run, the rewritten one.
#[test]
fn shell_matchers_test_the_command_pre_tool_use_rewrote() {
    let ws = cursor_ws();
    let e = ws.engine(json!({
        "preToolUse": [{"command": ".cursor/hooks/validate-tool.sh"}],
        "beforeShellExecution": [
            {"command": "cat >/dev/null; touch ci.txt; echo '{\"permission\":\"deny\",\"user_message\":\"no ci\"}'",
             "matcher": "npm ci"},
            {"command": "cat >/dev/null; touch install.txt", "matcher": "npm install"}
        ]
    }));
    let out = run(&e, HookEvent::PreToolUse, shell("npm install"));
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "no ci");
    assert!(ws.file("ci.txt").exists());
    assert!(!ws.file("install.txt").exists(), "the original command no longer runs, its matcher does not fire");
    // Without a rewrite the matchers test the call's own command.
    let out = run(&e, HookEvent::PreToolUse, shell("npm ci"));
    assert_eq!(out["decision"], "deny");
    let out = run(&e, HookEvent::PreToolUse, shell("npm test"));
    assert_eq!(out["decision"], "continue");
    assert_eq!(commands(&out).len(), 1, "only preToolUse ran: {out}");
}

// ---------------------------------------------------------------- merging

/// "The reasons of all blocking hooks are kept, in configuration order,
/// joined by `"\n\n---\n\n"`. Observed: an exit-2 hook and a fail-closed
/// empty answer gave `Hook "…" blocked this action (exit code 2) but
/// provided no reason.\n\n---\n\nTool blocked because …`."
#[test]
fn any_deny_blocks_and_every_reason_is_joined_in_configuration_order() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"beforeShellExecution": [
        {"command": "cat >/dev/null; exit 2"},
        {"command": "cat >/dev/null; echo '{\"permission\":\"allow\"}'"},
        {"command": "cat >/dev/null", "failClosed": true}
    ]}));
    let out = run(&e, HookEvent::PreToolUse, shell("rm -rf build"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(
        out["reason"],
        "Hook \"cat >/dev/null; exit 2\" blocked this action (exit code 2) but provided no reason.\n\n---\n\n\
         Tool blocked because this hook is configured to fail closed (block when it fails). Hook \"cat >/dev/null\" \
         returned no output."
    );
}

/// "A deny beat an explicit allow from the failClosed hook"; deny > ask >
/// allow > no decision.
#[test]
fn the_most_restrictive_answer_wins() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"preToolUse": [
        answer(r#"{"permission":"allow"}"#, 0),
        answer(r#"{"permission":"deny","user_message":"second says no"}"#, 0)
    ]}));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("second says no")));
    let e = ws.engine(json!({"beforeMCPExecution": [
        answer(r#"{"permission":"allow"}"#, 0),
        answer(r#"{"permission":"ask","agent_message":"confirm"}"#, 0)
    ]}));
    let out = named(&e, "beforeMCPExecution", json!({"tool_name": "query", "tool_input": "{}", "url": "http://mcp"}));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("ask"), Some("confirm")));
}

/// "`updated_input`: the last one in configuration order wins, and only if
/// the merged decision is not deny."
#[test]
fn the_last_rewrite_wins_and_a_deny_drops_it() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"preToolUse": [
        answer(r#"{"updated_input":{"command":"first"}}"#, 0),
        answer(r#"{"permission":"allow","updated_input":{"command":"second"}}"#, 0)
    ]}));
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("x"))["updated_input"], json!({"command": "second"}));
    let e = ws.engine(json!({"preToolUse": [
        answer(r#"{"permission":"allow","updated_input":{"command":"rewritten"}}"#, 0),
        answer(r#"{"permission":"deny"}"#, 0)
    ]}));
    let out = run(&e, HookEvent::PreToolUse, shell("x"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["updated_input"], Value::Null);
}

// ---------------------------------------------------------------- beforeSubmitPrompt

/// beforeSubmitPrompt: "`continue` … Whether to allow the prompt submission
/// to proceed; `user_message` … shown to the user when the prompt is
/// blocked"; there is no context injection.
#[test]
fn before_submit_prompt_continue_false_blocks_with_the_user_message() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"beforeSubmitPrompt": [
        {"command": "python3 .cursor/hooks/prompt-guard.py"},
        answer(r#"{"continue":true,"additional_context":"not read here"}"#, 0)
    ]}));
    let prompt = |p: &str| json!({"turn_id": "g1", "prompt": p});
    let out = run(&e, HookEvent::UserPromptSubmit, prompt("deploy with password: hunter2"));
    assert_eq!(out["allow_prompt"], false);
    assert_eq!(out["block_reason"], "Your prompt contains a credential; remove it and resend.");
    let out = run(&e, HookEvent::UserPromptSubmit, prompt("deploy please"));
    assert_eq!(out["allow_prompt"], true);
    assert_eq!(out["additional_context"], json!([]));
}

/// "beforeSubmitPrompt: any `continue:false`, exit 2 or fail-closed failure
/// blocks. The reasons (`user_message`) are joined as above."
#[test]
fn every_prompt_block_counts_and_the_reasons_are_joined() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"beforeSubmitPrompt": [
        answer(r#"{"continue":false,"user_message":"first"}"#, 0),
        answer("second", 2),
        {"command": "cat >/dev/null; exit 1", "failClosed": true}
    ]}));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "hi"}));
    let reason = out["block_reason"].as_str().unwrap();
    let parts: Vec<&str> = reason.split("\n\n---\n\n").collect();
    assert_eq!(parts.len(), 3, "{reason}");
    assert_eq!(&parts[..2], ["first", "second"]);
    assert!(parts[2].starts_with("Prompt blocked because this hook is configured to fail closed"), "{reason}");
}

// ---------------------------------------------------------------- stop and subagentStop

/// stop: "When provided and non-empty, Cursor will automatically submit it
/// as the next user message" — the Stop outcome's `block_reason`.
#[test]
fn a_followup_message_keeps_the_agent_working() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"stop": [answer(r#"{"followup_message":"Now run the tests."}"#, 0)]}));
    let out = run(&e, HookEvent::Stop, stop_input());
    assert_eq!(out["block_reason"], "Now run the tests.");
    let e = ws.engine(json!({"stop": [answer(r#"{"followup_message":"  "}"#, 0), answer("x", 2)]}));
    assert_eq!(
        run(&e, HookEvent::Stop, stop_input())["block_reason"],
        Value::Null,
        "blank, or an exit 2, is no follow-up"
    );
}

/// "The default limit is 5 auto follow-ups per script, configurable via the
/// `loop_limit` option"; "`loop_count` … how many times the stop hook has
/// already triggered an automatic follow-up for this conversation (starts
/// at 0)" — counted by the engine when the host does not send it.
#[test]
fn follow_ups_stop_at_the_default_loop_limit_of_five_and_loop_count_counts_them() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"stop": [{"command":
        "jq -r .loop_count >> counts.log; echo '{\"followup_message\":\"again\"}'"}]}));
    let blocks: Vec<bool> =
        (0..7).map(|_| run(&e, HookEvent::Stop, stop_input())["block_reason"] == json!("again")).collect();
    assert_eq!(blocks, [true, true, true, true, true, false, false]);
    assert_eq!(ws.read("counts.log"), "0\n1\n2\n3\n4\n5\n5\n");
    let out = run(&e, HookEvent::Stop, stop_input());
    assert!(messages(&out).iter().any(|m| m.contains("loop_limit of 5")), "{:?}", messages(&out));
    // Another conversation starts again from 0.
    let other = ws.engine_with(json!({"hooks_file": ws.file(".cursor/hooks.json"), "session_id": "conv-2"}));
    assert_eq!(run(&other, HookEvent::Stop, stop_input())["block_reason"], "again");
}

/// A host that sends `loop_count` itself has its count checked against the
/// script's `loop_limit`.
#[test]
fn a_hosts_loop_count_is_checked_against_loop_limit() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"stop": [
        {"command": "cat >/dev/null; echo '{\"followup_message\":\"more\"}'", "loop_limit": 2}
    ]}));
    let with = |n: u64| json!({"status": "completed", "loop_count": n});
    assert_eq!(run(&e, HookEvent::Stop, with(1))["block_reason"], "more");
    assert_eq!(run(&e, HookEvent::Stop, with(2))["block_reason"], Value::Null);
}

/// "Set `loop_limit` to `null` to remove the cap"; the limit is "per
/// script": the first follow-up under its script's limit is used.
#[test]
fn loop_limit_null_removes_the_cap_and_each_script_has_its_own() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"stop": [
        {"command": "cat >/dev/null; echo '{\"followup_message\":\"from A\"}'", "loop_limit": 1},
        {"command": "cat >/dev/null; echo '{\"followup_message\":\"from B\"}'", "loop_limit": null}
    ]}));
    let reasons: Vec<Value> = (0..8).map(|_| run(&e, HookEvent::Stop, stop_input())["block_reason"].clone()).collect();
    assert_eq!(reasons[0], "from A");
    assert!(reasons[1..].iter().all(|r| r == "from B"), "{reasons:?}");
}

/// The per-session follow-up count is shared state: concurrent stop runs
/// (threads of one host, clones of one engine) never take more than
/// `loop_limit` follow-ups between them.
#[test]
fn concurrent_stop_runs_never_exceed_the_loop_limit() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"stop": [
        {"command": "cat >/dev/null; echo '{\"followup_message\":\"again\"}'", "loop_limit": 3}
    ]}));
    let blocked = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..6 {
            let e = e.clone();
            let blocked = &blocked;
            scope.spawn(move || {
                for _ in 0..3 {
                    if run(&e, HookEvent::Stop, stop_input())["block_reason"] == json!("again") {
                        blocked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    }
                }
            });
        }
    });
    assert_eq!(blocked.into_inner(), 3);
}

/// subagentStop: "`followup_message` … Only consumed when `status` is
/// `"completed"`"; its `loop_count` counts the follow-ups of that subagent.
#[test]
fn subagent_stop_follow_ups_only_when_completed() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"subagentStop": [{"command":
        "jq -r .loop_count >> counts.log; echo '{\"followup_message\":\"check the diff\"}'", "loop_limit": 1}]}));
    let input = |id: &str, status: &str| {
        json!({"parent_session_id": "conv-1", "child_thread_id": id, "agent_name": "generalPurpose",
               "display_label": "Sub", "background": false, "status": status})
    };
    assert_eq!(run(&e, HookEvent::SubagentStop, input("sa-1", "error"))["block_reason"], Value::Null);
    assert_eq!(run(&e, HookEvent::SubagentStop, input("sa-1", "completed"))["block_reason"], "check the diff");
    assert_eq!(run(&e, HookEvent::SubagentStop, input("sa-1", "completed"))["block_reason"], Value::Null);
    assert_eq!(run(&e, HookEvent::SubagentStop, input("sa-2", "completed"))["block_reason"], "check the diff");
    assert_eq!(ws.read("counts.log"), "0\n0\n1\n0\n");
    // Without a `status` the payload says `completed`, and the follow-up is
    // consumed as for a completed subagent.
    let mut no_status = input("sa-3", "");
    no_status.as_object_mut().unwrap().remove("status");
    assert_eq!(run(&e, HookEvent::SubagentStop, no_status)["block_reason"], "check the diff");
    assert_eq!(run(&e, HookEvent::SubagentStop, input("sa-4", "aborted"))["block_reason"], Value::Null);
}

/// A Node stop hook in the style of Cursor's TypeScript example, reading
/// `status` and `loop_count` and iterating until its list is done.
#[test]
fn a_node_stop_hook_iterates_until_its_todo_list_is_done() {
    let ws = cursor_ws();
    std::fs::write(ws.file("TODO.md"), "- [x] parse\n- [ ] check\n- [ ] test\n").unwrap();
    let e = ws.engine(json!({"stop": [{"command": "node .cursor/hooks/keep-going.js"}]}));
    let out = run(&e, HookEvent::Stop, stop_input());
    assert_eq!(out["block_reason"], "Round 1: 2 item(s) left in TODO.md, keep going.");
    std::fs::write(ws.file("TODO.md"), "- [x] parse\n- [x] check\n- [x] test\n").unwrap();
    assert_eq!(run(&e, HookEvent::Stop, stop_input())["block_reason"], Value::Null);
}

// ---------------------------------------------------------------- sessionStart, postToolUse, preCompact

/// sessionStart: "`env` … Environment variables to set for this session.
/// Available to all subsequent hook executions"; not the agent's shell
/// (returned in the outcome for the host); `additional_context` is context.
#[test]
fn session_start_env_reaches_later_hooks_and_the_outcome() {
    let ws = cursor_ws();
    let e = ws.engine(json!({
        "sessionStart": [
            {"command": ".cursor/hooks/session-init.sh"},
            answer(r#"{"env":{"DEPLOY_ENV":"prod","EXTRA":"1"},"continue":false,"user_message":"ignored"}"#, 0)
        ],
        "preToolUse": [{"command": "cat >/dev/null; echo \"$DEPLOY_ENV/$TEAM/$EXTRA\" > seen.txt"}]
    }));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["env"], json!({"DEPLOY_ENV": "staging", "TEAM": "payments", "EXTRA": "1"}));
    assert_eq!(out["additional_context"], json!(["This repository deploys to staging."]));
    assert_eq!(out["continue"], true, "sessionStart cannot block");
    run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(ws.read("seen.txt").trim(), "staging/payments/1");
}

/// postToolUse: `additional_context` "injected into the conversation after
/// the tool result"; `updated_mcp_tool_output` "For MCP tools only:
/// replaces the tool output seen by the model"; `tool_output` is
/// "JSON-stringified".
#[test]
fn post_tool_use_context_and_the_mcp_output_rewrite() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"postToolUse": [{"command": ".cursor/hooks/post-tool.sh"}]}));
    let out = run(
        &e,
        HookEvent::PostToolUse,
        json!({"tool_name": "Shell", "tool_input": {"command": "npm test"}, "tool_response": {"exitCode": 0}}),
    );
    assert_eq!(out["additional_context"], json!(["exit code 0"]));
    assert_eq!(out["block_reason"], Value::Null);
    let out =
        run(&e, HookEvent::PostToolUse, json!({"tool_name": "MCP:query", "tool_input": {}, "tool_response": "rows"}));
    assert_eq!(out["dialect_fields"]["cursor"]["updated_mcp_tool_output"], json!({"rows": "[redacted]"}));
}

/// "`updated_mcp_tool_output` | postToolUse | replaces an MCP tool's output
/// as seen by the model (MCP tools only)".
#[test]
fn updated_mcp_tool_output_is_read_for_mcp_tools_only() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"postToolUse": [answer(r#"{"updated_mcp_tool_output":{"rows":[]}}"#, 0)]}));
    let out = run(
        &e,
        HookEvent::PostToolUse,
        json!({"tool_name": "Shell", "tool_input": {"command": "ls"}, "tool_response": "a"}),
    );
    assert_eq!(out["dialect_fields"]["cursor"]["updated_mcp_tool_output"], Value::Null, "{out}");
    let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "Read", "tool_input": {}, "tool_response": "a"}));
    assert_eq!(out["dialect_fields"]["cursor"]["updated_mcp_tool_output"], Value::Null, "{out}");
    let out =
        run(&e, HookEvent::PostToolUse, json!({"tool_name": "MCP:query", "tool_input": {}, "tool_response": "a"}));
    assert_eq!(out["dialect_fields"]["cursor"]["updated_mcp_tool_output"], json!({"rows": []}));
}

/// sessionStart's fields are `session_id`, `is_background_agent`,
/// `composer_mode`: "no `source` field".
#[test]
fn session_start_payload_has_no_source() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"sessionStart": [{"command": "cat > seen.json"}]}));
    run(&e, HookEvent::SessionStart, json!({"source": "startup"}));
    let payload: Value = serde_json::from_str(ws.read("seen.json").trim()).unwrap();
    assert_eq!(payload["hook_event_name"], "sessionStart");
    assert_eq!(payload["composer_mode"], "agent");
    assert_eq!(payload["is_background_agent"], false);
    assert!(payload.get("source").is_none(), "{payload}");
}

/// preCompact: "an observational hook that cannot block or modify the
/// compaction"; `user_message` is "shown to the user".
#[test]
fn pre_compact_shows_its_user_message_and_never_blocks() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"preCompact": [
        answer(r#"{"user_message":"Compacting 30 messages","decision":"block"}"#, 0),
        answer("stop", 2)
    ]}));
    let input =
        json!({"trigger": "auto", "mode": "local", "original_message_count": 45, "compacted_message_count": 15});
    let out = run(&e, HookEvent::PreCompact, input);
    assert!(messages(&out).contains(&"Compacting 30 messages".to_owned()), "{:?}", messages(&out));
    assert!(out.get("block_reason").is_none(), "{out}");
}

/// "There is no Cursor event for Notification or PermissionRequest. When a
/// host fires one of those with a Cursor configuration, no hook runs."
#[test]
fn permission_request_and_notification_run_no_cursor_hook() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"preToolUse": [{"command": "cat >/dev/null; touch ran.txt"}]}));
    let out = run(&e, HookEvent::PermissionRequest, json!({"tool_name": "Shell", "permission_request": {}}));
    assert!(out["hooks"].as_array().unwrap().is_empty());
    run(&e, HookEvent::Notification, json!({"notification_type": "idle", "title": "t", "message": "m"}));
    assert!(!ws.file("ran.txt").exists());
}

// ---------------------------------------------------------------- events fired by name

/// beforeReadFile: "By default, `beforeReadFile` hook failures (crash,
/// timeout, invalid JSON) are logged and the read is allowed through. Set
/// `failClosed: true` … to block the read on failure instead." (An earlier
/// revision of the docs made it fail closed by default: hookline follows
/// the current one.)
#[test]
fn before_read_file_gates_by_name_and_fails_open_unless_fail_closed() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"beforeReadFile": [{"command": ".cursor/hooks/redact-secrets.sh"}]}));
    let out = named(&e, "beforeReadFile", json!({"file_path": "/p/config.env", "content": "A=1", "attachments": []}));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "/p/config.env holds environment secrets.");
    let key = json!({"file_path": "/p/src/aws.ts", "content": "const k = 'AKIAABCDEFGHIJKLMNOP';"});
    assert_eq!(named(&e, "beforeReadFile", key)["reason"], "/p/src/aws.ts contains an AWS access key.");
    assert_eq!(
        named(&e, "beforeReadFile", json!({"file_path": "/p/a.rs", "content": "fn main() {}"}))["decision"],
        "allow"
    );
    // It cannot judge a read without a path: it exits 3, a failure.
    let out = named(&e, "beforeReadFile", json!({"content": "x"}));
    assert_eq!((out["decision"].as_str(), failures(&out)), (Some("continue"), vec![json!("exit")]));
    let e = ws.engine(json!({"beforeReadFile": [{"command": ".cursor/hooks/redact-secrets.sh", "failClosed": true}]}));
    assert_eq!(named(&e, "beforeReadFile", json!({"content": "x"}))["decision"], "deny");
}

/// beforeTabFileRead: "permission allow / deny" for Tab reads, a gate of
/// its own; it never runs for the agent's reads.
#[test]
fn before_tab_file_read_is_a_gate_of_its_own() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"beforeTabFileRead": [{"command": ".cursor/hooks/redact-secrets.sh"}]}));
    let out = named(&e, "beforeTabFileRead", json!({"file_path": "/p/.env.local", "content": "X=1"}));
    assert_eq!(out["decision"], "deny");
    assert!(named(&e, "beforeReadFile", json!({"file_path": "/p/.env.local"}))["hooks"].as_array().unwrap().is_empty());
}

/// beforeMCPExecution: `tool_input` is "<json params>" (a string); its
/// hooks run in a PreToolUse of an `MCP:<tool>` tool too.
#[test]
fn before_mcp_execution_runs_for_mcp_tools_with_the_input_as_a_string() {
    let ws = cursor_ws();
    let e = ws
        .engine(json!({"beforeMCPExecution": [{"command": "python3 .cursor/hooks/mcp-guard.py", "failClosed": true}]}));
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "MCP:delete_rows", "tool_input": {"table": "users"}}));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "MCP tool delete_rows is destructive.");
    assert_eq!(out["dialect_fields"]["cursor"]["agent_message"], "Ask the user to run it themselves.");
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "MCP:query", "tool_input": {"force": true}}));
    assert_eq!(out["decision"], "deny");
    let out = named(
        &e,
        "beforeMCPExecution",
        json!({"tool_name": "query", "tool_input": "{\"sql\":\"select 1\"}", "url": "http://db"}),
    );
    assert_eq!(out["decision"], "allow");
}

/// The after* events are "fire-and-forget": "the response is logged but not
/// used"; exit 2 has no effect there.
#[test]
fn observer_events_fired_by_name_never_decide() {
    let ws = cursor_ws();
    let log = ws.file("audit.log");
    let e = ws.engine_with(json!({
        "hooks_file": ws.config(json!({
            "afterShellExecution": [{"command": ".cursor/hooks/audit.sh"}, answer(r#"{"permission":"deny"}"#, 2)],
            "afterAgentResponse": [{"command": ".cursor/hooks/audit.sh", "matcher": "AgentResponse"}],
            "afterAgentThought": [{"command": ".cursor/hooks/audit.sh", "matcher": "^Nope$"}]
        })),
        "env": {"AUDIT_LOG": log}
    }));
    let out =
        named(&e, "afterShellExecution", json!({"command": "ls", "output": "a\nb", "duration": 12, "sandbox": false}));
    assert!(out.get("decision").is_none(), "{out}");
    assert_eq!(failures(&out), [Value::Null, Value::Null]);
    named(&e, "afterAgentResponse", json!({"text": "Done."}));
    named(&e, "afterAgentThought", json!({"text": "hmm", "duration_ms": 5}));
    let lines: Vec<Value> = ws.read("audit.log").lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let events: Vec<&str> = lines.iter().map(|l| l["hook_event_name"].as_str().unwrap()).collect();
    assert_eq!(events, ["afterShellExecution", "afterAgentResponse"]);
    assert_eq!(lines[0]["output"], "a\nb");
}

/// workspaceOpen: "Can return additional plugin paths to load" (`pluginPaths`),
/// a field with no canonical slot; its request "omits `conversation_id`, …
/// `session_id`, and `transcript_path`".
#[test]
fn workspace_open_plugin_paths_are_dialect_fields() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"workspaceOpen": [{"command":
        "jq -c 'has(\"conversation_id\")' > seen.txt; echo '{\"pluginPaths\":[\"/opt/plugins/a\"]}'"}]}));
    let out = named(&e, "workspaceOpen", json!({}));
    assert_eq!(out["dialect_fields"]["cursor"]["pluginPaths"], json!(["/opt/plugins/a"]));
    assert_eq!(ws.read("seen.txt").trim(), "false");
}

/// Cursor's names of the canonical events fire them by name too
/// (`preToolUse`, `stop`), with their canonical rules.
#[test]
fn cursor_event_names_fire_their_canonical_events_by_name() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"preToolUse": [answer(r#"{"permission":"deny"}"#, 0)], "stop": [answer(r#"{"followup_message":"go"}"#, 0)]}));
    assert_eq!(named(&e, "preToolUse", shell("ls"))["decision"], "deny");
    assert_eq!(named(&e, "stop", stop_input())["block_reason"], "go");
}

// ---------------------------------------------------------------- matchers

/// "Tool names are Cursor's own, so a `Bash` matcher never matches" (PC 6);
/// "MCP tools using the `MCP:<tool_name>` format".
#[test]
fn matchers_test_cursors_tool_names() {
    let ws = cursor_ws();
    let deny = |m: &str| json!({"command": "cat >/dev/null; echo '{\"permission\":\"deny\"}'", "matcher": m});
    let e = ws.engine(json!({"preToolUse": [deny("Bash")]}));
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("ls"))["decision"], "continue");
    let e = ws.engine(json!({"preToolUse": [deny("Shell|Read|Write")]}));
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("ls"))["decision"], "deny");
    let e = ws.engine(json!({"preToolUse": [deny("MCP:")]}));
    assert_eq!(run(&e, HookEvent::PreToolUse, json!({"tool_name": "MCP:search"}))["decision"], "deny");
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("ls"))["decision"], "continue");
}

/// "It is a search, not an anchored match … an invalid regex (hookline:
/// fall back to a literal substring test and warn)."
#[test]
fn matchers_are_unanchored_searches_and_an_invalid_regex_is_literal_text() {
    let ws = cursor_ws();
    let path = ws.config(json!({"beforeReadFile": [
        {"command": "cat >/dev/null; echo '{\"permission\":\"deny\"}'", "matcher": "Read"}
    ], "beforeShellExecution": [
        {"command": "cat >/dev/null; echo '{\"permission\":\"deny\"}'", "matcher": "rm -rf ("}
    ]}));
    let cfg = HooksConfig::from_file(&path).unwrap();
    assert!(cfg.warnings().iter().any(|w| w.path.contains("beforeShellExecution[0].matcher")), "{:?}", cfg.warnings());
    let e = ws.engine_with(json!({"hooks_file": path}));
    assert_eq!(named(&e, "beforeReadFile", json!({"tool_name": "TabRead", "file_path": "/a"}))["decision"], "deny");
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("echo rm -rf ( x"))["decision"], "deny");
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("rm -rf build"))["decision"], "continue");
}

// ---------------------------------------------------------------- digest, mixed sources, Python

/// Digest lines name the dialect for dialects other than VT Code and Claude
/// Code; a beforeShellExecution hook is listed once, under its own name.
#[test]
fn digest_lines_name_the_cursor_dialect_and_list_each_hook_once() {
    let ws = cursor_ws();
    let e = ws.engine(json!({
        "preToolUse": [{"command": "a", "matcher": "Shell", "timeout": 10}],
        "beforeShellExecution": [{"command": "b"}]
    }));
    let previews: Vec<Value> = e.command_previews().iter().map(|p| serde_json::to_value(p).unwrap()).collect();
    // Each preview carries its pins and the environment policy it runs under.
    let env = json!({"inherit": true, "scrub": [], "set": []});
    assert_eq!(
        previews,
        [
            json!({"type": "command", "dialect": "cursor", "event": "pre_tool_use", "matcher": "Shell", "command": "a", "timeout_seconds": 10, "pins": [], "env": env}),
            json!({"type": "command", "dialect": "cursor", "event": "beforeShellExecution", "matcher": null, "command": "b", "timeout_seconds": null, "pins": [], "env": env}),
        ]
    );
    let claude = LifecycleHookEngine::from_options_json(
        &ws.options(json!({"hooks": {"PreToolUse": [{"matcher": "Shell", "hooks": [{"type": "command", "command": "a", "timeout": 10}]}]}}))
            .to_string(),
    )
    .unwrap();
    assert_ne!(e.command_digest(), claude.command_digest());
}

/// Sources of several dialects combine: each hook keeps its dialect's
/// payload and reading; precedence across them is the most restrictive.
#[test]
fn cursor_and_claude_sources_combine_with_the_most_restrictive_rule() {
    let ws = cursor_ws();
    let cursor = ws.config(json!({"preToolUse": [answer(r#"{"permission":"ask"}"#, 0)]}));
    let claude = ws.file(".claude/settings.json");
    std::fs::create_dir_all(claude.parent().unwrap()).unwrap();
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"claude says no"}}"#;
    std::fs::write(
        &claude,
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": format!("cat >/dev/null; echo '{deny}'")}]}]}})
            .to_string(),
    )
    .unwrap();
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": cursor}, {"hooks_file": claude}]}));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("claude says no")));
    assert_eq!(out["dialect_fields"]["cursor"]["permission"], "ask", "the Cursor hook's ask is still not enforced");
}

/// A Python guard after the docs' kube_guard.py: `kubectl apply` into prod
/// asks, with both messages.
#[test]
fn a_python_guard_asks_before_applying_to_prod() {
    let ws = cursor_ws();
    let e = ws.engine(
        json!({"beforeShellExecution": [{"command": "python3 .cursor/hooks/kube_guard.py", "matcher": "kubectl"}]}),
    );
    let out = run(&e, HookEvent::PreToolUse, shell("kubectl apply -f deploy.yaml -n prod"));
    assert_eq!(out["decision"], "ask");
    assert_eq!(out["reason"], "kubectl apply to prod requires manual approval.");
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("kubectl apply -f deploy.yaml -n dev"))["decision"], "allow");
}

/// Callback hooks are host code speaking the hooks protocol (`hl_reply_deny`,
/// `hl_reply_allow`): in a Cursor engine they read Claude Code's payload and
/// their replies are read as such, merged with Cursor's rules.
#[test]
fn callback_hooks_keep_the_hooks_protocol_in_a_cursor_engine() {
    let ws = cursor_ws();
    let e = ws.engine(json!({"preToolUse": [answer(r#"{"permission":"allow"}"#, 0)]}));
    let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let payload = seen.clone();
    e.add_callback_hook(
        HookEvent::PreToolUse,
        Some("Shell"),
        "host-policy",
        std::sync::Arc::new(move |p: &str| {
            *payload.lock().unwrap() = p.to_owned();
            CallResult::ok(Reply::Deny("host says no".into()))
        }),
    )
    .unwrap();
    let out = run(&e, HookEvent::PreToolUse, shell("rm -rf /"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("host says no")));
    let p: Value = serde_json::from_str(&seen.lock().unwrap()).unwrap();
    assert_eq!(p["hook_event_name"], "PreToolUse");
}
