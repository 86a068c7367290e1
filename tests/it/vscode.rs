//! The VS Code agent hooks dialect, with real hook scripts: the scenarios of
//! VS Code's agent hooks documentation re-created as hookline tests, each
//! quoting the rule it proves. VS Code reads the files of Copilot CLI and
//! Claude Code, so these engines name the dialect with the `dialect` option.

use hookline::{HookEvent, LifecycleHookEngine};
use serde_json::{json, Value};

use crate::support::{cmd, run, say, Ws};

/// A VS Code engine of one hooks file, `.github/hooks/hooks.json`.
trait Engines {
    fn engine(&self, config: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn engine(&self, config: Value) -> LifecycleHookEngine {
        let path = self.write(".github/hooks/hooks.json", &config.to_string());
        self.engine_with(json!({"hooks_file": path, "dialect": "vscode"}))
    }
}

fn decide(d: &str) -> Value {
    cmd(say(
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": d, "permissionDecisionReason": d}}),
    ))
}

fn terminal(command: &str) -> Value {
    json!({"tool_name": "runTerminalCommand", "tool_input": {"command": command}, "tool_call_id": "tool-123"})
}

fn stop_input() -> Value {
    json!({"last_assistant_message": "done", "stop_hook_active": false})
}

/// The docs' `scripts/block-dangerous.sh`, as written there.
const BLOCK_DANGEROUS: &str = r#"#!/bin/bash
INPUT=$(cat)
TOOL_NAME=$(echo "$INPUT" | jq -r '.tool_name')
TOOL_INPUT=$(echo "$INPUT" | jq -r '.tool_input')

if [ "$TOOL_NAME" = "runTerminalCommand" ]; then
  COMMAND=$(echo "$TOOL_INPUT" | jq -r '.command // empty')

  if echo "$COMMAND" | grep -qE '(rm\s+-rf|DROP\s+TABLE|DELETE\s+FROM)'; then
    echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"Destructive command blocked by security policy"}}'
    exit 0
  fi
fi

echo '{"continue":true}'
"#;

/// The docs' `scripts/require-approval.sh`.
const REQUIRE_APPROVAL: &str = r#"#!/bin/bash
INPUT=$(cat)
TOOL_NAME=$(echo "$INPUT" | jq -r '.tool_name')

# Tools that should always require approval
SENSITIVE_TOOLS="runTerminalCommand|deleteFile|pushToGitHub"

if echo "$TOOL_NAME" | grep -qE "^($SENSITIVE_TOOLS)$"; then
  echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"This operation requires manual approval"}}'
else
  echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'
fi
"#;

/// "Block dangerous terminal commands": the docs' security hook, its
/// `.github/hooks/security.json` entry (with Copilot CLI's `timeoutSec`).
#[test]
fn the_docs_block_dangerous_hook_denies_destructive_commands() {
    let ws = Ws::new();
    let script = ws.script("block-dangerous.sh", BLOCK_DANGEROUS);
    let e = ws.engine(json!({"hooks": {"PreToolUse": [{"type": "command", "command": script, "timeoutSec": 5}]}}));
    let out = run(&e, HookEvent::PreToolUse, terminal("rm -rf /tmp/build"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "Destructive command blocked by security policy");
    assert_eq!(run(&e, HookEvent::PreToolUse, terminal("npm test"))["decision"], "continue");
}

/// "Permission decision priority: When multiple hooks run for the same
/// tool invocation, the most restrictive decision wins: 1. `deny` ... 2.
/// `ask` ... 3. `allow`."
#[test]
fn the_most_restrictive_decision_wins() {
    for (hooks, want) in [
        (vec!["allow", "ask"], "ask"),
        (vec!["deny", "allow"], "deny"),
        (vec!["allow", "ask", "deny", "allow"], "deny"),
    ] {
        let ws = Ws::new();
        let e = ws.engine(json!({"hooks": {"PreToolUse": hooks.iter().map(|d| decide(d)).collect::<Vec<_>>()}}));
        let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
        assert_eq!(out["decision"], want, "{hooks:?}");
        assert_eq!(out["hooks"].as_array().unwrap().len(), hooks.len(), "every hook runs");
    }
    // The docs' approval hook: `ask` for terminal commands, `allow` for the rest.
    let ws = Ws::new();
    let script = ws.script("require-approval.sh", REQUIRE_APPROVAL);
    let e = ws.engine(json!({"hooks": {"PreToolUse": [cmd(script)]}}));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_eq!(
        (out["decision"].clone(), out["reason"].clone()),
        (json!("ask"), json!("This operation requires manual approval"))
    );
    let read = run(&e, HookEvent::PreToolUse, json!({"tool_name": "readFile", "tool_input": {"filePath": "a"}}));
    assert_eq!(read["decision"], "allow");
}

/// "Matchers are ignored: Hook matchers like "Edit|Write" are parsed but
/// not applied. All hooks run on every matching event, regardless of the
/// tool name in the matcher."
#[test]
fn matchers_are_parsed_but_not_applied() {
    let ws = Ws::new();
    let settings = json!({"hooks": {"PreToolUse": [
        {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "cat >/dev/null; echo ran >> ran"}]},
        {"type": "command", "command": "cat >/dev/null; echo flat >> ran", "matcher": "(unclosed"},
    ]}});
    let path = ws.write(".claude/settings.json", &settings.to_string());
    let e = ws.try_engine_with(json!({"hooks_file": path, "dialect": "vscode"})).unwrap();
    assert!(e.config_warnings().is_empty(), "an invalid matcher is not even compiled");
    run(&e, HookEvent::PreToolUse, terminal("ls"));
    // PreToolUse hooks run concurrently: both ran, in either order.
    let mut ran: Vec<String> = ws.read("ran").lines().map(str::to_owned).collect();
    ran.sort();
    assert_eq!(ran, ["flat", "ran"]);
    assert_eq!(e.command_previews()[0].matcher.as_deref(), Some("Edit|Write"), "the digest keeps it as written");
}

/// "`2` | Blocking error: stop processing and show error to model" — "The
/// hook's stderr is shown to the model as context."
#[test]
fn exit_2_is_a_blocking_error_with_stderr_as_the_reason() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "PreToolUse": [cmd("cat >/dev/null; echo 'not on main' >&2; exit 2")],
        "Stop": [cmd("cat >/dev/null; echo 'tests are failing' >&2; exit 2")],
        "PostToolUse": [cmd("cat >/dev/null; echo 'lint errors' >&2; exit 2")],
    }}));
    let out = run(&e, HookEvent::PreToolUse, terminal("git push"));
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("deny"), json!("not on main")));
    assert_eq!(run(&e, HookEvent::Stop, stop_input())["block_reason"], "tests are failing");
    let post =
        run(&e, HookEvent::PostToolUse, json!({"tool_name": "editFiles", "tool_input": {}, "tool_response": "ok"}));
    assert_eq!(post["block_reason"], "lint errors");
}

/// "Other | Non-blocking warning: show warning to user, continue
/// processing" — and only exit 0 has its stdout parsed as JSON.
#[test]
fn other_exit_codes_are_warnings_and_their_stdout_is_not_read() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"PreToolUse": [cmd(format!(
        "{}; echo flaky >&2; exit 1",
        say(json!({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}))
    ))]}}));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_eq!(out["decision"], "continue");
    let levels: Vec<&str> = out["messages"].as_array().unwrap().iter().map(|m| m["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["warning"], "{out}");
    assert_eq!(out["hooks"][0]["failure"], "exit");
}

/// "`continue: false` in the JSON output stops the entire agent session
/// ... When multiple control mechanisms are used together, the most
/// restrictive wins. For example, if a hook returns `continue: false` and
/// `permissionDecision: "allow"`, the session still stops."
#[test]
fn continue_false_stops_the_session_and_wins_over_allow() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"PreToolUse": [cmd(say(json!({
        "continue": false, "stopReason": "Security policy violation",
        "hookSpecificOutput": {"permissionDecision": "allow"}
    })))]}}));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_eq!(out["continue"], false);
    assert_eq!(out["stop_reason"], "Security policy violation");
    assert_ne!(out["decision"], "allow");
}

/// Stop: "`hookSpecificOutput` ... `"decision": "block"`, `"reason"`"; and
/// SubagentStop's top-level `decision`. `continue: false` halts the agent
/// rather than blocking the stop.
#[test]
fn stop_blocks_with_hook_specific_output_and_subagent_stop_with_decision() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "Stop": [cmd(say(json!({"hookSpecificOutput": {"hookEventName": "Stop", "decision": "block", "reason": "Run the test suite before finishing"}})))],
        "SubagentStop": [cmd(say(json!({"decision": "block", "reason": "Verify subagent results before completing"})))],
    }}));
    assert_eq!(run(&e, HookEvent::Stop, stop_input())["block_reason"], "Run the test suite before finishing");
    let sub = run(&e, HookEvent::SubagentStop, json!({"child_thread_id": "subagent-456", "agent_name": "Plan"}));
    assert_eq!(sub["block_reason"], "Verify subagent results before completing");
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"Stop": [cmd(say(json!({"continue": false, "stopReason": "quota"})))]}}));
    let out = run(&e, HookEvent::Stop, stop_input());
    assert_eq!((out["block_reason"].clone(), out["continue"].clone()), (Value::Null, json!(false)));
}

/// "Inject project context at session start": `hookSpecificOutput.
/// additionalContext`; plain text is not context (stdout is parsed as JSON).
#[test]
fn session_start_context_comes_from_hook_specific_output_only() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"SessionStart": [
        cmd(say(json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "Project: my-app v2.1.0 | Branch: main"}}))),
        cmd("cat >/dev/null; echo 'plain text'"),
    ]}}));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["additional_context"], json!(["Project: my-app v2.1.0 | Branch: main"]));
}

/// "The `SubagentStart` hook can inject additional context into the
/// subagent's conversation" — no canonical slot: a dialect field.
#[test]
fn subagent_start_context_is_a_dialect_field() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"SubagentStart": [cmd(say(json!({"hookSpecificOutput": {
        "hookEventName": "SubagentStart", "additionalContext": "This subagent should follow the project coding guidelines"
    }})))]}}));
    let out = run(&e, HookEvent::SubagentStart, json!({"child_thread_id": "subagent-456", "agent_name": "Plan"}));
    assert_eq!(
        out["dialect_fields"],
        json!({"vscode": {"additionalContext": "This subagent should follow the project coding guidelines"}})
    );
}

/// "The `PreCompact` hook uses the common output format only": nothing in
/// its output blocks.
#[test]
fn pre_compact_cannot_block() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"PreCompact": [cmd(say(json!({"decision": "block", "reason": "no"})))]}}));
    let out = run(&e, HookEvent::PreCompact, json!({"trigger": "auto"}));
    assert!(out.get("block_reason").is_none(), "{out}");
}

/// "Every hook receives a JSON object via stdin with these common fields:
/// `timestamp`, `cwd`, `sessionId`, `hookEventName`, `transcript_path`",
/// then the event's: PreToolUse `tool_name`, `tool_input`, `tool_use_id`;
/// SessionStart `source: "new"`; SubagentStart `agent_id`, `agent_type`.
#[test]
fn the_payload_has_the_common_fields_and_the_events() {
    let ws = Ws::new();
    let record = |name: &str| cmd(format!("cat > '{}'", ws.file(name).display()));
    let e = ws.engine(json!({"hooks": {"PreToolUse": [record("pre")], "SessionStart": [record("start")],
        "SubagentStart": [record("sub")]}}));
    run(
        &e,
        HookEvent::PreToolUse,
        json!({"tool_name": "editFiles", "tool_input": {"files": ["src/main.ts"]}, "tool_call_id": "tool-123"}),
    );
    run(&e, HookEvent::SessionStart, json!({}));
    run(&e, HookEvent::SubagentStart, json!({"child_thread_id": "subagent-456", "agent_name": "Plan"}));
    let pre: Value = serde_json::from_str(&ws.read("pre")).unwrap();
    let keys: Vec<&str> = pre.as_object().unwrap().keys().map(String::as_str).take(5).collect();
    assert_eq!(keys, ["timestamp", "cwd", "sessionId", "hookEventName", "transcript_path"]);
    assert!(pre["timestamp"].as_str().unwrap().ends_with('Z'));
    assert_eq!((pre["sessionId"].clone(), pre["hookEventName"].clone()), (json!("s-1"), json!("PreToolUse")));
    assert_eq!(pre["tool_name"], "editFiles");
    assert_eq!(pre["tool_input"], json!({"files": ["src/main.ts"]}));
    assert_eq!(pre["tool_use_id"], "tool-123");
    let start: Value = serde_json::from_str(&ws.read("start")).unwrap();
    assert_eq!(start["source"], "new");
    let sub: Value = serde_json::from_str(&ws.read("sub")).unwrap();
    assert_eq!((sub["agent_id"].clone(), sub["agent_type"].clone()), (json!("subagent-456"), json!("Plan")));
}

/// "VS Code parses Copilot CLI hook configurations and converts the
/// lowerCamelCase hook event names (like `preToolUse`) to the PascalCase
/// format ... `powershell` maps to `windows`, and `bash` maps to `osx` and
/// `linux`" — `agentStop` becomes `AgentStop`, which is not a VS Code
/// event.
#[test]
fn copilot_cli_files_are_converted_and_agent_stop_is_not_an_event() {
    let ws = Ws::new();
    let e = ws.engine(json!({"version": 1, "hooks": {
        "preToolUse": [{"type": "command", "bash": "cat >/dev/null; echo bash >> ran", "powershell": "Write-Output ps"}],
        "agentStop": [{"type": "command", "bash": "echo stop >> ran"}],
        "sessionEnd": [{"type": "command", "bash": "echo end >> ran"}],
    }}));
    run(&e, HookEvent::PreToolUse, terminal("ls"));
    run(&e, HookEvent::Stop, stop_input());
    assert_eq!(ws.read("ran"), "bash\n");
    let warnings = e.config_warnings();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings
        .iter()
        .any(|w| w.message.contains("`agentStop` is not a VS Code hook event") && w.message.contains("`Stop`")));
    assert!(warnings.iter().any(|w| w.path.ends_with("hooks.sessionEnd")), "{warnings:?}");
}

/// "The execution service selects the appropriate command based on your
/// OS. If no OS-specific command is defined, it falls back to the
/// `command` property."
#[test]
fn the_os_specific_command_wins_over_command() {
    let ws = Ws::new();
    let os = if cfg!(target_os = "macos") { "osx" } else { "linux" };
    // Stop hooks run one after another, so the order is the config's.
    let e = ws.engine(json!({"hooks": {"Stop": [
        {"type": "command", "command": "echo default >> ran", os: "cat >/dev/null; echo os >> ran", "windows": "echo win"},
        {"type": "command", "command": "cat >/dev/null; echo default >> ran", "windows": "echo win"},
    ]}}));
    run(&e, HookEvent::Stop, stop_input());
    assert_eq!(ws.read("ran"), "os\ndefault\n");
}

/// "Each hook entry must have `type: "command"` and at least one command
/// property": other entries are skipped and reported.
#[test]
fn entries_without_type_command_or_a_command_are_skipped_and_reported() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"PreToolUse": [
        {"command": "echo no type"},
        {"type": "http", "url": "https://example.com"},
        {"type": "command", "windows": "only windows"},
        {"type": "command", "command": "true", "env": {"A": 1}},
        decide("deny"),
    ]}}));
    let w = e.config_warnings();
    assert_eq!(w.len(), 4, "{w:?}");
    assert!(w[0].message.contains("\"type\": \"command\""), "{w:?}");
    assert_eq!(run(&e, HookEvent::PreToolUse, terminal("ls"))["decision"], "deny");
}

/// "`timeout` | number | Timeout in seconds (default: 30)"; "`cwd` |
/// Working directory (relative to repository root)"; "`env` | Additional
/// environment variables".
#[test]
fn timeout_cwd_and_env_are_the_entrys() {
    let ws = Ws::new();
    std::fs::create_dir_all(ws.file("web")).unwrap();
    let e = ws.engine(json!({"hooks": {
        "SessionStart": [{"type": "command", "command": "cat >/dev/null; echo \"$AUDIT_LOG $PWD\" > ../env.txt", "cwd": "web", "env": {"AUDIT_LOG": ".github/hooks/audit.log"}}],
        "PreToolUse": [{"type": "command", "command": "cat >/dev/null; sleep 5", "timeout": 1}],
    }}));
    run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(ws.read("env.txt"), format!(".github/hooks/audit.log {}\n", ws.file("web").display()));
    let out = run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_eq!((out["decision"].clone(), out["hooks"][0]["failure"].clone()), (json!("continue"), json!("timeout")));
    let path = ws.write(".github/hooks/t.json", &json!({"hooks": {"Stop": [cmd("true")]}}).to_string());
    let config = hookline::config::HooksConfig::read_file(&path, Some(hookline::dialect::VSCODE), false, None).unwrap();
    assert_eq!(config.groups(HookEvent::Stop)[0].hooks[0].timeout().as_secs(), 30);
}

/// "VS Code supports eight hook events": the others are skipped and
/// reported.
#[test]
fn events_vscode_does_not_have_are_skipped_and_reported() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "PermissionRequest": [cmd("true")], "Notification": [cmd("true")], "PostToolUseFailure": [cmd("true")],
        "Stop": [cmd("true")],
    }}));
    assert_eq!(e.config_warnings().len(), 3);
    assert_eq!(e.command_previews().len(), 1);
}

/// VS Code reads `.github/hooks/*.json`, which is Copilot CLI's by path:
/// the `dialect` option chooses VS Code's rules; the digest names it.
#[test]
fn vscode_is_chosen_by_the_option_and_named_in_the_digest() {
    let ws = Ws::new();
    let path = ws
        .write(".github/hooks/a.json", &json!({"hooks": {"PreToolUse": [decide("ask"), decide("allow")]}}).to_string());
    let copilot = ws.try_engine_with(json!({"hooks_file": path})).unwrap();
    let vscode = ws.try_engine_with(json!({"hooks_file": path, "dialect": "vscode"})).unwrap();
    assert_eq!(copilot.command_previews()[0].dialect, Some("copilot"));
    assert_eq!(vscode.command_previews()[0].dialect, Some("vscode"));
    assert_ne!(copilot.command_digest(), vscode.command_digest());
    assert_eq!(run(&vscode, HookEvent::PreToolUse, terminal("ls"))["decision"], "ask");
}

/// VS Code reads only the fields it knows and ignores the rest; hookline
/// loads the entry and names each other key, with a did-you-mean.
#[test]
fn unknown_entry_fields_are_ignored_and_reported() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "PreToolUse": [{"type": "command", "command": "cat >/dev/null; echo ran >> ran", "timout": 5}],
        "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "true"}], "hookz": []}],
    }}));
    let w = e.config_warnings();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w.iter().any(|w| w.path.ends_with("hooks.PreToolUse[0]")
            && w.message.contains("unknown field `timout` is ignored; did you mean `timeout`?")),
        "{w:?}"
    );
    assert!(
        w.iter().any(|w| w.path.ends_with("hooks.Stop[0]") && w.message.contains("unknown field `hookz`")),
        "{w:?}"
    );
    run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_eq!(ws.read("ran"), "ran\n", "the entry still loads");
}

/// PostToolUse: "`decision:"block"`+`reason`,
/// `hookSpecificOutput.additionalContext`" — the block is feedback for the
/// model next to the tool's result, and the context is kept.
#[test]
fn post_tool_use_blocks_with_its_reason_and_keeps_context() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"PostToolUse": [cmd(say(json!({
        "decision": "block", "reason": "lint failed",
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "run the formatter"},
    })))]}}));
    let input = json!({"tool_name": "editFiles", "tool_input": {"files": ["a.ts"]}, "tool_response": "ok"});
    let out = run(&e, HookEvent::PostToolUse, &input);
    assert_eq!(out["block_reason"], "lint failed", "{out}");
    assert_eq!(out["additional_context"], json!(["run the formatter"]), "{out}");
    assert!(out.get("block_replaces_result").is_none(), "{out}");
}

/// "Copilot CLI files are converted: ... `bash`→`osx`+`linux`", and
/// "`timeout` seconds **default 30**" with the Copilot CLI file's
/// `timeoutSec` read too: a converted Copilot CLI entry runs its `bash`.
#[test]
fn a_copilot_cli_entry_runs_its_bash_script_under_vscode() {
    let ws = Ws::new();
    let e = ws.engine(json!({"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": "cat >/dev/null; echo bash >> ran", "powershell": "echo ps", "timeoutSec": 5},
    ]}}));
    assert!(e.config_warnings().is_empty(), "{:?}", e.config_warnings());
    run(&e, HookEvent::PreToolUse, terminal("ls"));
    assert_eq!(ws.read("ran"), "bash\n");
}

/// "Locations: `.github/hooks/*.json`, `.claude/settings.json`,
/// `.claude/settings.local.json`, …": a host of VS Code alone reads the
/// workspace's files of both formats in the VS Code dialect.
#[test]
fn a_host_of_vscode_reads_the_workspaces_copilot_and_claude_files() {
    let ws = Ws::new();
    ws.write(".github/hooks/b.json", "{}");
    ws.write(".github/hooks/a.json", "{}");
    ws.write(".claude/settings.json", "{}");
    let vscode = hookline::dialect::by_name("vscode").unwrap();
    let found: Vec<(String, &str)> = hookline::dialect::borrowed_settings_files(ws.path(), vscode)
        .into_iter()
        .map(|f| (f.path.strip_prefix(ws.path()).unwrap().display().to_string(), f.dialect.name()))
        .collect();
    let want = [".github/hooks/a.json", ".github/hooks/b.json", ".claude/settings.json"];
    assert_eq!(found, want.map(|p| (p.to_owned(), "vscode")));
}
