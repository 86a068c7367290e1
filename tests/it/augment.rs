//! The Augment dialect (`augment`): Auggie CLI's hooks in
//! `.augment/settings.json` (docs.augmentcode.com `cli/hooks`, "Hooks";
//! `cli/settings`, "Settings files"). Each test quotes the vendor's rule.

use hookline::HookEvent;
use serde_json::{json, Value};

use crate::support::{run, texts, write_executable, Ws};

/// A PreToolUse call of Augment's shell tool.
fn launch(command: &str) -> Value {
    json!({"tool_name": "launch-process", "tool_input": {"command": command}})
}

/// An executable script in the workspace (`./scripts/<name>`), a shell
/// script whose first line reads the payload into `payload.json`.
fn script(ws: &Ws, name: &str, body: &str) -> String {
    ws.script(name, &format!("#!/bin/sh\ncat > \"$(dirname \"$0\")/../{name}.payload.json\"\n{body}\n"))
}

/// `.augment/settings.json` with `hooks`; the engine reading it.
fn engine(ws: &Ws, hooks: Value) -> hookline::LifecycleHookEngine {
    let file = ws.write_json(".augment/settings.json", &json!({ "hooks": hooks }));
    ws.engine_with(json!({ "hooks_file": file }))
}

fn warnings(e: &hookline::LifecycleHookEngine) -> Vec<String> {
    e.config_warnings().iter().map(|w| w.message.clone()).collect()
}

/// "Hooks are configured in settings.json files"; "matcher | Pattern to
/// match tool names (case-sensitive). Supports regex patterns"; "command |
/// Path to the shell script to execute"; exit code 2 blocks PreToolUse with
/// stderr as the reason. The payload has `conversation_id`,
/// `workspace_roots` and `is_mcp_tool`, not `session_id`; the script gets
/// `AUGMENT_PROJECT_DIR`, `AUGMENT_CONVERSATION_ID`, `AUGMENT_HOOK_EVENT`,
/// `AUGMENT_TOOL_NAME`.
#[test]
fn a_pre_tool_use_script_that_exits_2_blocks_launch_process() {
    let ws = Ws::new();
    let guard = script(
        &ws,
        "guard.sh",
        "echo \"$AUGMENT_PROJECT_DIR|$AUGMENT_CONVERSATION_ID|$AUGMENT_HOOK_EVENT|$AUGMENT_TOOL_NAME\" > env.txt\n\
         echo 'rm -rf is blocked' >&2\nexit 2",
    );
    let e = engine(
        &ws,
        json!({"PreToolUse": [{"matcher": "launch-process", "hooks": [
            {"type": "command", "command": guard, "timeout": 5000}
        ]}]}),
    );
    let out = run(&e, HookEvent::PreToolUse, launch("rm -rf build"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("rm -rf is blocked")), "{out}");
    let payload = ws.json("guard.sh.payload.json");
    assert_eq!(payload["hook_event_name"], "PreToolUse");
    assert_eq!(payload["conversation_id"], "s-1");
    assert_eq!(payload["workspace_roots"], json!([ws.path()]));
    assert_eq!(payload["is_mcp_tool"], false);
    assert_eq!(payload["tool_name"], "launch-process");
    assert!(payload.get("session_id").is_none() && payload.get("transcript_path").is_none(), "{payload}");
    let cwd = ws.path().display().to_string();
    assert_eq!(ws.read("env.txt").trim(), format!("{cwd}|s-1|PreToolUse|launch-process"));

    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "view", "tool_input": {"path": "a"}}));
    assert_eq!(out["decision"], "continue", "the matcher is tested against the tool name: {out}");
}

/// Only `permissionDecision: "deny"` is implemented: a deny blocks with its
/// reason; an allow or an ask decides nothing (and hookline says so).
#[test]
fn only_permission_decision_deny_decides_a_tool_call() {
    let ws = Ws::new();
    let say = |name: &str, decision: &str| {
        let reply = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": decision, "permissionDecisionReason": format!("{decision} by hook")}});
        script(&ws, name, &format!("printf '%s' '{reply}'"))
    };
    let deny = say("deny.sh", "deny");
    let allow = say("allow.sh", "allow");
    let ask = say("ask.sh", "ask");
    let e = engine(&ws, json!({"PreToolUse": [{"hooks": [{"type": "command", "command": deny}]}]}));
    let out = run(&e, HookEvent::PreToolUse, launch("ls"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("deny by hook")), "{out}");
    for command in [allow, ask] {
        let e = engine(&ws, json!({"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}));
        let out = run(&e, HookEvent::PreToolUse, launch("ls"));
        assert_eq!(out["decision"], "continue", "{command}: {out}");
        let said = texts(&out, "warning").join("\n");
        assert!(said.contains("Augment does not implement permissionDecision"), "{command}: {out}");
    }
}

/// "stdout JSON read on exit 0 only"; "only PreToolUse can block tool
/// execution; Stop can block the agent from finishing (via decision:
/// "block"), but PostToolUse cannot block anything": exit 2 blocks only
/// PreToolUse.
#[test]
fn exit_2_blocks_only_pre_tool_use_and_stop_blocks_by_decision() {
    let ws = Ws::new();
    let json_on_exit_1 = script(
        &ws,
        "exit1.sh",
        "printf '%s' '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"x\"}}'\nexit 1",
    );
    let exit2 = script(&ws, "exit2.sh", "echo no >&2\nexit 2");
    let block = script(&ws, "block.sh", "printf '%s' '{\"decision\":\"block\",\"reason\":\"tests fail\"}'");
    let e = engine(
        &ws,
        json!({
            "PreToolUse": [{"hooks": [{"type": "command", "command": json_on_exit_1}]}],
            "PostToolUse": [{"hooks": [{"type": "command", "command": exit2}, {"type": "command", "command": block}]}],
            "Stop": [{"hooks": [{"type": "command", "command": exit2}]}],
        }),
    );
    let out = run(&e, HookEvent::PreToolUse, launch("ls"));
    assert_eq!(out["decision"], "continue", "JSON on exit 1 is not read: {out}");
    let post = json!({"tool_name": "launch-process", "tool_input": {"command": "ls"}, "tool_response": "ok"});
    let out = run(&e, HookEvent::PostToolUse, post);
    assert_eq!(out["block_reason"], Value::Null, "PostToolUse cannot block: {out}");
    let out = run(&e, HookEvent::Stop, json!({"stop_hook_active": false}));
    assert_eq!(out["block_reason"], Value::Null, "exit 2 does not block Stop: {out}");

    let e = engine(&ws, json!({"Stop": [{"hooks": [{"type": "command", "command": block}]}]}));
    let out = run(&e, HookEvent::Stop, json!({"stop_hook_active": false}));
    assert_eq!(out["block_reason"], "tests fail", "{out}");
}

/// "timeout | (Optional) Timeout in milliseconds (default: 60000ms)".
#[test]
fn timeouts_are_milliseconds() {
    let ws = Ws::new();
    let slow = script(&ws, "slow.sh", "sleep 5");
    let e = engine(&ws, json!({"PreToolUse": [{"hooks": [{"type": "command", "command": slow, "timeout": 300}]}]}));
    let started = std::time::Instant::now();
    let out = run(&e, HookEvent::PreToolUse, launch("ls"));
    assert!(started.elapsed() < std::time::Duration::from_secs(4), "300 is 300 ms: {out}");
    assert_eq!(out["hooks"][0]["timed_out"], true, "{out}");
    assert_eq!(hookline::dialect::AUGMENT.profile().default_timeout, std::time::Duration::from_secs(60));
}

/// `command` is a script path run directly, not through a shell: a command
/// with arguments names no script and is skipped (reported); `args` gives
/// a script its arguments; "currently only "command" is supported".
#[test]
fn a_command_is_a_script_path_and_arguments_go_in_args() {
    let ws = Ws::new();
    let echo = script(&ws, "echo.sh", "echo \"$@\" > argv.txt");
    let e = engine(
        &ws,
        json!({"PreToolUse": [{"hooks": [
            {"type": "command", "command": format!("{echo} --inline")},
            {"type": "command", "command": "echo hello"},
            {"type": "command", "command": echo, "args": ["--strict", "two words"]},
            {"type": "http", "url": "http://127.0.0.1:9/h"},
        ]}]}),
    );
    let said = warnings(&e);
    assert!(said.iter().any(|w| w.contains("has arguments") && w.contains("\"args\"")), "{said:?}");
    assert!(said.iter().any(|w| w.contains("not a script path ending in .sh")), "{said:?}");
    assert!(said.iter().any(|w| w.contains("unsupported type \"http\"")), "{said:?}");
    let out = run(&e, HookEvent::PreToolUse, launch("ls"));
    assert_eq!(out["hooks"].as_array().map(Vec::len), Some(1), "{out}");
    assert_eq!(ws.read("argv.txt").trim(), "--strict two words");
}

/// Augment's own plugins name their scripts by `${AUGMENT_PLUGIN_ROOT}`:
/// a command with a `$` runs in `bash -c`, and in `args` form the braced
/// placeholder is replaced.
#[test]
fn plugin_scripts_are_named_by_augment_plugin_root() {
    let ws = Ws::new();
    let plugin = ws.path().join("plugin");
    let hook = ws.file("plugin/hooks/format.sh");
    write_executable(&hook, "#!/bin/sh\ncat >/dev/null\necho \"$0 $*\" >> \"$AUGMENT_PROJECT_DIR/ran.txt\"\n", 0o755);
    let hooks = json!({"hooks": {"PostToolUse": [{"matcher": "save-file", "hooks": [
        {"type": "command", "command": "\"$AUGMENT_PLUGIN_ROOT\"/hooks/format.sh --all"},
        {"type": "command", "command": "${AUGMENT_PLUGIN_ROOT}/hooks/format.sh", "args": ["--exec"]},
    ]}]}});
    let e = ws.engine_with(json!({"hook_sources": [
        {"hooks": hooks, "dialect": "augment", "plugin_root": plugin, "trusted": true}
    ]}));
    let post =
        json!({"tool_name": "save-file", "tool_input": {"path": "a.rs", "file_content": "x"}, "tool_response": "ok"});
    run(&e, HookEvent::PostToolUse, post);
    let root = plugin.display();
    let mut ran: Vec<String> = ws.read("ran.txt").lines().map(str::to_owned).collect();
    ran.sort();
    assert_eq!(ran, [format!("{root}/hooks/format.sh --all"), format!("{root}/hooks/format.sh --exec")]);
}

/// Augment's prompt event is `PromptSubmit` (its plugins and CLI use the
/// name); Claude Code's `UserPromptSubmit` key is not Augment's and is
/// reported. Matchers are "Not used for session events".
#[test]
fn prompt_submit_is_augments_prompt_event() {
    let ws = Ws::new();
    let context = script(
        &ws,
        "context.sh",
        "echo \"$AUGMENT_HOOK_EVENT\" > event.txt\n\
         printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PromptSubmit\",\"additionalContext\":\"use tabs\"}}'",
    );
    let e = engine(
        &ws,
        json!({
            "PromptSubmit": [{"matcher": "nothing-matches-this", "hooks": [{"type": "command", "command": context}]}],
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": context}]}],
        }),
    );
    let said = warnings(&e);
    assert!(
        said.iter().any(|w| w.contains("fires no event `UserPromptSubmit`") && w.contains("PromptSubmit")),
        "{said:?}"
    );
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "hi"}));
    assert_eq!(out["additional_context"], json!(["use tabs"]), "{out}");
    assert_eq!(ws.read("event.txt").trim(), "PromptSubmit");
    assert_eq!(ws.json("context.sh.payload.json")["hook_event_name"], "PromptSubmit");
}

/// "Settings are listed below from highest to lowest precedence":
/// `/etc/augment/settings.json` ("immutable", "cannot be overridden by any
/// other configuration source": a policy file), `.augment/settings.local.json`,
/// `.augment/settings.json`, `~/.augment/settings.json`.
#[test]
fn augment_files_are_found_in_precedence_order_and_the_system_file_is_policy() {
    let ws = Ws::new();
    let home = ws.path().join("home");
    let project = ws.path().join("project");
    let root = ws.path().join("root");
    for p in [
        project.join(".augment/settings.json"),
        project.join(".augment/settings.local.json"),
        home.join(".augment/settings.json"),
        root.join("etc/augment/settings.json"),
    ] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "{}").unwrap();
    }
    let found: Vec<(String, bool, bool)> = hookline::dialect::settings_files_under(&project, Some(&home), &root)
        .into_iter()
        .filter(|f| f.dialect.name() == "augment")
        .map(|f| (f.path.strip_prefix(ws.path()).unwrap().display().to_string(), f.trusted, f.policy))
        .collect();
    assert_eq!(
        found,
        [
            ("root/etc/augment/settings.json".to_owned(), true, true),
            ("project/.augment/settings.local.json".to_owned(), false, false),
            ("project/.augment/settings.json".to_owned(), false, false),
            ("home/.augment/settings.json".to_owned(), true, false),
        ]
    );
}

/// A policy hook from the system file runs first and blocks whatever the
/// project's hooks say.
#[test]
fn the_system_files_hooks_run_as_policy() {
    let ws = Ws::new();
    let deny = script(&ws, "policy.sh", "echo 'blocked by policy' >&2\nexit 2");
    let system = ws.write_json(
        "etc/augment/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": deny}]}]}}),
    );
    let e = ws.engine_with(json!({"hook_sources": [
        {"hooks_file": system, "policy": true, "dialect": "augment"}
    ]}));
    let out = run(&e, HookEvent::PreToolUse, launch("ls"));
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["hooks"][0]["policy"], true, "{out}");
}

/// Augment's tools: a host passing Claude Code's names (`tool_names:
/// canonical`) reaches an Augment hook with `launch-process`, `save-file`
/// (`path`, `file_content`).
#[test]
fn canonical_tool_calls_reach_augment_hooks_in_augments_names() {
    let ws = Ws::new();
    let seen = script(&ws, "seen.sh", "true");
    let file = ws.write_json(
        ".augment/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "save-file|launch-process", "hooks": [
            {"type": "command", "command": seen}
        ]}]}}),
    );
    let e = ws.engine_with(json!({"hooks_file": file, "tool_names": "canonical"}));
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": "x"}}));
    let p = ws.json("seen.sh.payload.json");
    assert_eq!(p["tool_name"], "save-file", "{p}");
    assert_eq!(p["tool_input"], json!({"path": "a.txt", "file_content": "x"}), "{p}");
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "mcp__github__create_issue", "tool_input": {}}));
    assert_eq!(ws.json("seen.sh.payload.json")["tool_name"], "save-file", "the matcher left the MCP tool out");
}

/// "mcp:*" matches every MCP tool, and the payload says `is_mcp_tool`.
#[test]
fn mcp_matchers_match_mcp_tools() {
    let ws = Ws::new();
    let seen = script(&ws, "mcp.sh", "true");
    let e = engine(&ws, json!({"PreToolUse": [{"matcher": "mcp:*", "hooks": [{"type": "command", "command": seen}]}]}));
    run(&e, HookEvent::PreToolUse, launch("ls"));
    assert!(!ws.exists("mcp.sh.payload.json"), "launch-process is no MCP tool");
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "mcp__github__create_issue", "tool_input": {}}));
    assert_eq!(ws.json("mcp.sh.payload.json")["is_mcp_tool"], true);
}

/// The approval gate pins the script a project's Augment hook runs, in each
/// way Augment starts one: the path itself, the path with `args`, and a
/// command through `bash -c`; a script replaced after the approval is not run.
#[test]
fn the_scripts_of_augment_hooks_are_pinned() {
    let ws = Ws::new();
    let guard = script(&ws, "guard.sh", "echo ran >> ran.txt");
    let path = ws.file("scripts/guard.sh");
    let file = ws.write_json(
        ".augment/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": guard},
            {"type": "command", "command": "${AUGMENT_PROJECT_DIR}/scripts/guard.sh", "args": ["--x"]},
            {"type": "command", "command": "\"$AUGMENT_PROJECT_DIR\"/scripts/guard.sh --y"},
        ]}]}}),
    );
    let store = ws.file("state/trust.json");
    let e = ws.engine_with(json!({"hooks_file": file, "workspace_gated": true, "trust_store": store}));
    let previews = e.command_previews();
    assert_eq!(previews.len(), 3);
    for p in &previews {
        let pins: Vec<&std::path::Path> = p.pins.iter().map(|p| p.path.as_path()).collect();
        let want = std::fs::canonicalize(&path).unwrap();
        assert!(pins.iter().any(|p| *p == path || *p == want), "{pins:?} {:?}", p.unpinned);
    }
    e.approve_workspace_hooks(false).unwrap();
    run(&e, HookEvent::PreToolUse, launch("ls"));
    assert_eq!(ws.read("ran.txt").lines().count(), 3, "the approved script ran three times");
    ws.script("guard.sh", "#!/bin/sh\ncat >/dev/null\necho evil >> ran.txt\n");
    let out = run(&e, HookEvent::PreToolUse, launch("ls"));
    let skipped: Vec<&str> = out["hooks"].as_array().unwrap().iter().filter_map(|h| h["skipped"].as_str()).collect();
    assert_eq!(skipped, ["changed_since_approval"; 3], "{out}");
    assert!(!ws.read("ran.txt").contains("evil"));
}
