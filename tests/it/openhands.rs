//! The OpenHands dialect with real hooks: `.openhands/hooks.json` files in a
//! temporary workspace, `sh` hook commands, and the rules of OpenHands'
//! hooks code re-created (OpenHands/software-agent-sdk @611629e6,
//! `openhands-sdk/openhands/sdk/hooks/{config,executor,manager}.py` and
//! `conversation_hooks.py`; their tests `tests/sdk/hooks/`; the hooks page
//! docs.openhands.dev/openhands/usage/customization/hooks). Each test quotes
//! the rule it proves.

use std::path::PathBuf;

use std::sync::{Arc, Mutex};

use hookline::{CallResult, HandlerType, HookEvent, LifecycleHookEngine, Reply};
use serde_json::{json, Value};

use crate::support::{run, say, texts, Ws};

/// Engines of the workspace's `.openhands/hooks.json` (recognised by its path).
trait Engines {
    fn hooks_file(&self, hooks: Value) -> PathBuf;
    fn engine(&self, hooks: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn hooks_file(&self, hooks: Value) -> PathBuf {
        self.write_json(".openhands/hooks.json", &json!({ "hooks": hooks }))
    }
    fn engine(&self, hooks: Value) -> LifecycleHookEngine {
        let path = self.hooks_file(hooks);
        self.engine_with(json!({ "hooks_file": path }))
    }
}

/// One group of `matcher` running `commands`.
fn group(matcher: &str, commands: &[&str]) -> Value {
    json!([{"matcher": matcher, "hooks": commands.iter().map(|c| json!({"type": "command", "command": c})).collect::<Vec<_>>()}])
}

/// A hook that reads its payload, writes `stdout` and `stderr`, exits `code`.
fn answer(stdout: &str, stderr: &str, code: i32) -> String {
    format!("cat >/dev/null; printf '%s' '{stdout}'; printf '%s' '{stderr}' >&2; exit {code}")
}

fn terminal(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}})
}

/// "Exit 2: blocking error. The operation is denied"; "Any other non-zero
/// exit code: non-blocking error … In particular, exit code 1 does **not**
/// block — only 2 does" (`HookResult`); the reason: "if result.reason:
/// return result.reason; if result.stderr: return result.stderr.strip();
/// return 'Blocked by hook'" (`get_blocking_reason`).
#[test]
fn exit_2_blocks_exit_1_does_not() {
    let ws = Ws::new();
    let e = ws.engine(json!({"pre_tool_use": group("*", &[&answer("", "no rm -rf\n", 2)])}));
    let out = run(&e, HookEvent::PreToolUse, terminal("rm -rf /"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("no rm -rf")), "{out}");
    let e = ws.engine(json!({"pre_tool_use": group("*", &[&answer("", "", 2)])}));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_eq!(out["reason"], "Blocked by hook", "{out}");
    let e = ws.engine(json!({"pre_tool_use": group("*", &[&answer("", "crashed", 1)])}));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_ne!(out["decision"], "deny", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "exit", "{out}");
    assert!(texts(&out, "warning").iter().any(|m| m.contains("crashed")), "{out}");
}

/// "Try to parse JSON from stdout" runs whatever the return code: a
/// `{"decision": "deny"}` blocks on exit 0 and on exit 1 (the docs say JSON
/// is read on exit 0; the code reads it on any exit). `decision_str =
/// output_data["decision"].lower()`: `DENY` denies too. `reason` wins over
/// stderr.
#[test]
fn stdout_json_decides_on_any_exit_code() {
    let ws = Ws::new();
    for code in [0, 1, 3] {
        let deny = answer(r#"{"decision": "DENY", "reason": "Not allowed"}"#, "stderr text", code);
        let e = ws.engine(json!({"pre_tool_use": group("terminal", &[&deny])}));
        let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
        assert_eq!(
            (out["decision"].as_str(), out["reason"].as_str()),
            (Some("deny"), Some("Not allowed")),
            "{code}: {out}"
        );
    }
}

/// Only a top-level `decision: "allow" | "deny"` is read: `"block"` and
/// Claude Code's `hookSpecificOutput.permissionDecision` block nothing in
/// OpenHands (hookline warns), and `"allow"` is no pre-approval: a later
/// hook still denies.
#[test]
fn only_allow_and_deny_are_decisions() {
    let ws = Ws::new();
    let block = say(json!({"decision": "block", "reason": "r"}));
    let specific = say(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}));
    let e = ws.engine(json!({"pre_tool_use": group("*", &[&block, &specific])}));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_ne!(out["decision"], "deny", "{out}");
    let warned = texts(&out, "warning");
    assert!(warned.iter().any(|m| m.contains("\"block\"")), "{out}");
    assert!(warned.iter().any(|m| m.contains("hookSpecificOutput")), "{out}");
    let allow = say(json!({"decision": "allow"}));
    let deny = say(json!({"decision": "deny", "reason": "second says no"}));
    let e = ws.engine(json!({"pre_tool_use": group("*", &[&allow, &deny])}));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("second says no")), "{out}");
}

/// `if "continue" in output_data: if not output_data["continue"]:
/// hook_result.blocked = True`: the action is blocked, the agent is not
/// halted.
#[test]
fn continue_false_blocks_the_action_only() {
    let ws = Ws::new();
    let e = ws.engine(json!({"pre_tool_use": group("*", &[&say(json!({"continue": false, "reason": "held"}))])}));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("held")), "{out}");
    assert_eq!(out["continue"], true, "the agent goes on: {out}");
}

/// `execute_all(hooks, event, stop_on_block=True)`: "if stop_on_block and
/// result.blocked: break" (`test_execute_all_stops_on_block`); PostToolUse
/// runs every hook ("PostToolUse hooks don't block - they just run").
#[test]
fn the_first_block_ends_a_gate_and_observers_run_every_hook() {
    let ws = Ws::new();
    let mark = |tag: &str| format!("cat >/dev/null; echo {tag} >> order.txt");
    let e = ws.engine(json!({
        "pre_tool_use": group("*", &[&mark("a"), &answer("", "stop", 2), &mark("c")]),
        "post_tool_use": group("*", &[&format!("{}; exit 2", mark("p1")), &mark("p2")]),
    }));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(ws.read("order.txt"), "a\n");
    let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "Bash", "tool_input": {}, "tool_response": {}}));
    assert_eq!(ws.read("order.txt"), "a\np1\np2\n");
    assert_ne!(out["decision"], "block", "PostToolUse cannot block: {out}");
}

/// `HookMatcher.matches`: "Wildcard matches everything"; exact names;
/// "Auto-detect regex: if matcher contains metacharacters" and "explicit
/// regex pattern (enclosed in /)", both `re.fullmatch`; the payload and the
/// matcher see OpenHands' tool name (`terminal`, `file_editor`).
#[test]
fn matchers_see_openhands_tool_names() {
    let ws = Ws::new();
    let log = |tag: &str| format!("cat > {tag}.json; echo {tag} >> order.txt");
    let e = ws.engine(json!({"pre_tool_use": [
        {"matcher": "terminal", "hooks": [{"command": log("exact")}]},
        {"matcher": "file_.*", "hooks": [{"command": log("regex")}]},
        {"matcher": "/term/", "hooks": [{"command": log("never")}]},
        {"matcher": "editor", "hooks": [{"command": log("substring")}]},
    ]}));
    run(&e, HookEvent::PreToolUse, terminal("ls"));
    run(
        &e,
        HookEvent::PreToolUse,
        json!({"tool_name": "Write", "tool_input": {"file_path": "/w/a.txt", "content": "x"}}),
    );
    assert_eq!(ws.read("order.txt"), "exact\nregex\n");
    let p = ws.json("exact.json");
    assert_eq!((p["event_type"].as_str(), p["tool_name"].as_str()), (Some("PreToolUse"), Some("terminal")));
    assert_eq!(p["tool_input"], json!({"command": "ls"}));
    assert!(p.get("hook_event_name").is_none(), "{p}");
    let w = ws.json("regex.json");
    assert_eq!(w["tool_name"], "file_editor");
    assert_eq!(w["tool_input"], json!({"command": "create", "path": "/w/a.txt", "file_text": "x"}));
}

/// UserPromptSubmit: `message=message`; "Collect additional context from
/// hooks" joined; a block "skip[s] processing the message". Stop: a block
/// means the agent does not stop, "feedback" = the hooks'
/// `additionalContext`, else the blocking reason.
#[test]
fn prompt_context_and_stop_feedback() {
    let ws = Ws::new();
    let e = ws.engine(json!({
        "user_prompt_submit": group("*", &["cat > prompt.json; printf '%s' '{\"additionalContext\": \"on branch main\"}'"]),
        "stop": group("*", &[&answer(r#"{"decision": "deny", "reason": "lint", "additionalContext": "fix the lint first"}"#, "", 2)]),
    }));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "deploy"}));
    assert_eq!(out["additional_context"], json!(["on branch main"]), "{out}");
    let p = ws.json("prompt.json");
    assert_eq!((p["event_type"].as_str(), p["message"].as_str()), (Some("UserPromptSubmit"), Some("deploy")));
    assert!(p.get("prompt").is_none(), "{p}");
    let out = run(&e, HookEvent::Stop, json!({}));
    assert_eq!(out["block_reason"], "fix the lint first", "the agent goes on, told this: {out}");
}

/// `hook_env["OPENHANDS_PROJECT_DIR"] = self.working_dir`,
/// `OPENHANDS_SESSION_ID`, `OPENHANDS_EVENT_TYPE`, and "if
/// event.tool_name: hook_env["OPENHANDS_TOOL_NAME"] = event.tool_name";
/// the payload's `working_dir` and `session_id`; `cwd=self.working_dir`.
#[test]
fn the_environment_and_working_directory() {
    let ws = Ws::new();
    let e = ws.engine(json!({"session_start": group("*", &[
        "cat > start.json; printf '%s|%s|%s|%s' \"$OPENHANDS_PROJECT_DIR\" \"$OPENHANDS_SESSION_ID\" \"$OPENHANDS_EVENT_TYPE\" \"$(pwd)\" > env.txt"
    ])}));
    run(&e, HookEvent::SessionStart, json!({"source": "startup"}));
    let dir = ws.path().display().to_string();
    assert_eq!(ws.read("env.txt"), format!("{dir}|s-1|SessionStart|{dir}"));
    let p = ws.json("start.json");
    assert_eq!((p["working_dir"].as_str(), p["session_id"].as_str()), (Some(dir.as_str()), Some("s-1")));
    let path = ws.hooks_file(json!({
        "pre_tool_use": group("*", &["cat >/dev/null; printf '%s|%s' \"$OPENHANDS_EVENT_TYPE\" \"$OPENHANDS_TOOL_NAME\" > tool.txt"]),
        "stop": group("*", &["cat >/dev/null; printf '%s' \"${OPENHANDS_TOOL_NAME-unset}\" > stop.txt"]),
    }));
    let e = ws.engine_with(json!({"hooks_file": path, "env": {"OPENHANDS_TOOL_NAME": "from-the-env-option"}}));
    run(&e, HookEvent::PreToolUse, terminal("ls"));
    run(&e, HookEvent::Stop, json!({}));
    assert_eq!(ws.read("tool.txt"), "PreToolUse|terminal");
    // `sanitized_env`: "AI_AGENT defaults to openhands"; SESSION_API_KEY is stripped.
    let path = ws.hooks_file(json!({"session_start": group("*", &[
        "cat > raw.txt; printf '%s|%s' \"$AI_AGENT\" \"${SESSION_API_KEY-stripped}\" > agent.txt"
    ])}));
    let e = ws.engine_with(json!({"hooks_file": path, "env": {"SESSION_API_KEY": "secret"}}));
    run(&e, HookEvent::SessionStart, json!({"source": "startup"}));
    let agent = std::env::var("AI_AGENT").ok().filter(|v| !v.trim().is_empty()).unwrap_or("openhands".into());
    assert_eq!(ws.read("agent.txt"), format!("{agent}|stripped"));
    // `input=event_json`: the model's JSON, no newline after it.
    assert!(ws.read("raw.txt").ends_with('}'), "{:?}", ws.read("raw.txt"));
    assert_eq!(ws.read("stop.txt"), "unset", "no tool, no variable (nor another value of it)");
}

/// "hooks with `\"async\": true` run in the background and can never
/// block, regardless of event type" (docs); the executor starts them with
/// stdout to `DEVNULL`.
#[test]
fn async_hooks_never_block() {
    let ws = Ws::new();
    let e = ws.engine(json!({"pre_tool_use": [{"matcher": "*", "hooks": [
        {"command": answer("", "would block", 2), "async": true}
    ]}]}));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_ne!(out["decision"], "deny", "{out}");
}

/// An unknown event is an error: "Unknown event type '{key}'. Valid types:
/// …" (PascalCase) and `extra: "forbid"` (snake_case): the file does not
/// load, and the error names the key.
#[test]
fn an_unknown_event_fails_the_file() {
    let ws = Ws::new();
    for key in ["Notification", "subagent_stop", "pre_tool"] {
        let path = ws.hooks_file(json!({ key: group("*", &["true"]) }));
        let e = ws.try_engine_with(json!({ "hooks_file": path })).unwrap_err();
        assert!(e.message.contains(key), "{key}: {}", e.message);
    }
}

/// "HookConfig.load … search_paths = [base_dir/.openhands/hooks.json,
/// Path.home()/.openhands/hooks.json] … break": the workspace's file, else
/// the user's, never both.
#[test]
fn only_the_first_file_found_is_read() {
    let root = tempfile::tempdir().unwrap();
    let (home, ws) = (root.path().join("home"), root.path().join("ws"));
    let write = |p: &PathBuf| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "{}").unwrap();
    };
    write(&home.join(".openhands/hooks.json"));
    let found = || -> Vec<(PathBuf, bool)> {
        hookline::dialect::settings_files_under(&ws, Some(&home), &root.path().join("sys"))
            .into_iter()
            .filter(|f| f.dialect.name() == "openhands")
            .map(|f| (f.path, f.trusted))
            .collect()
    };
    assert_eq!(found(), [(home.join(".openhands/hooks.json"), true)]);
    write(&ws.join(".openhands/hooks.json"));
    assert_eq!(found(), [(ws.join(".openhands/hooks.json"), false)]);
}

/// `output_data["decision"].lower()` on a value that is not a string raises,
/// and `execute` returns "Hook execution failed" (`success=False`, not
/// blocked): even with exit 2 nothing is blocked.
#[test]
fn a_decision_that_is_not_a_string_fails_the_hook_and_blocks_nothing() {
    let ws = Ws::new();
    let e = ws.engine(json!({"pre_tool_use": group("*", &[&answer(r#"{"decision": true}"#, "x", 2)])}));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_ne!(out["decision"], "deny", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "invalid_output", "{out}");
    assert!(texts(&out, "warning").iter().any(|m| m.contains("not a string")), "{out}");
}

/// Prompt hooks: "Return exactly one JSON object with this shape:
/// {"decision":"allow"|"deny","reason":"..."}"; "No LLM configured for
/// prompt hook" and an invalid decision "fall open" (`_parse_decision`). The
/// host's prompt handler is the LLM.
#[test]
fn prompt_hooks_go_to_the_hosts_handler_and_fall_open() {
    let ws = Ws::new();
    let e = ws.engine(json!({"pre_tool_use": [{"matcher": "terminal", "hooks": [
        {"type": "prompt", "prompt": "Deny anything that deletes files"}
    ]}]}));
    let out = run(&e, HookEvent::PreToolUse, terminal("rm -rf /"));
    assert_ne!(out["decision"], "deny", "no handler: falls open: {out}");
    assert!(!texts(&out, "warning").is_empty(), "{out}");
    let answer = Arc::new(Mutex::new(json!({"decision": "deny", "reason": "deletes files"})));
    let a = answer.clone();
    e.set_handler(
        HandlerType::Prompt,
        Some(Arc::new(move |_req: &str| CallResult::ok(Reply::Json(a.lock().unwrap().clone())))),
    )
    .unwrap();
    let out = run(&e, HookEvent::PreToolUse, terminal("rm -rf /"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("deletes files")), "{out}");
    *answer.lock().unwrap() = json!({"decision": "maybe"});
    let out = run(&e, HookEvent::PreToolUse, terminal("rm -rf /"));
    assert_ne!(out["decision"], "deny", "an invalid decision falls open: {out}");
    assert_eq!(out["hooks"][0]["failure"], "invalid_output", "{out}");
}

/// OpenHands reads a Claude Code-format plugin's `hooks/hooks.json` with its
/// own rules (`plugin/format/claude_code.py`: `HookConfig.load(path=hooks_json)`):
/// the SDK's example plugin (`examples/05_skills_and_plugins/…/code-quality/
/// hooks/hooks.json`, PascalCase, an async PostToolUse hook logging
/// `$OPENHANDS_TOOL_NAME`), read with the `openhands` dialect named.
#[test]
fn the_sdk_example_plugin_file_reads_with_the_dialect_named() {
    let ws = Ws::new();
    let command =
        "echo \"PostToolUse hook executed for tool: $OPENHANDS_TOOL_NAME\" >> \"$OPENHANDS_PROJECT_DIR/.hook_log\"";
    let path = ws.write_json(
        "plugins/code-quality/hooks/hooks.json",
        &json!({"hooks": {"PostToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": command, "timeout": 5, "async": true}
        ]}]}}),
    );
    let e = ws.engine_with(json!({"hooks_file": path, "dialect": "openhands"}));
    run(&e, HookEvent::PostToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {}}));
    // The hook runs in the background: wait for its line (bounded).
    for _ in 0..100 {
        if ws.read(".hook_log").contains('\n') {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(ws.read(".hook_log"), "PostToolUse hook executed for tool: terminal\n");
}
