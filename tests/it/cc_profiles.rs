//! The hosts that copy Claude Code's hooks format, each a profile of the
//! Claude Code dialect: Devin CLI (`devin-cli`; docs.devin.ai
//! `cli/extensibility/hooks/overview`, `lifecycle-hooks`) and Factory Droid
//! (`factory`; docs.factory.ai `harness/hooks`, `reference/hooks-reference`).
//! Each test quotes the vendor's rule.

use hookline::HookEvent;
use serde_json::{json, Value};

use crate::support::{cmd, run, say, Ws};

fn shell(tool: &str, command: &str) -> Value {
    json!({ "tool_name": tool, "tool_input": { "command": command } })
}

fn deny_hook(reason: &str) -> Value {
    cmd(say(json!({"decision": "block", "reason": reason})))
}

// ------------------------------------------------------------ Devin CLI

/// "`.devin/hooks.v1.json` has NO top-level `"hooks"` wrapper … Wrap
/// `hooks.v1.json` and it won't load"; matchers are "regex on `tool_name`"
/// (Devin's shell tool is `exec`).
#[test]
fn devin_hooks_v1_is_the_bare_event_map() {
    let ws = Ws::new();
    let bare = ws.write_json(
        ".devin/hooks.v1.json",
        &json!({"PreToolUse": [{"matcher": "exec", "hooks": [deny_hook("no exec")]}]}),
    );
    let e = ws.engine_with(json!({ "hooks_file": bare }));
    let out = run(&e, HookEvent::PreToolUse, shell("exec", "rm -rf /"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("no exec")), "{out}");
    let out = run(&e, HookEvent::PreToolUse, shell("edit", "x"));
    assert_eq!(out["decision"], "continue", "the matcher tests tool_name: {out}");

    let ws = Ws::new();
    let wrapped =
        ws.write_json(".devin/hooks.v1.json", &json!({"hooks": {"PreToolUse": [{"hooks": [cmd("touch ran")]}]}}));
    let e = ws.engine_with(json!({ "hooks_file": wrapped }));
    run(&e, HookEvent::PreToolUse, shell("exec", "ls"));
    assert!(!ws.exists("ran"), "a wrapped hooks.v1.json loads nothing");
    let warnings = e.config_warnings();
    assert!(warnings.iter().any(|w| w.message.contains("no `hooks` wrapper")), "{warnings:?}");
}

/// "EVERY other location (`.devin/config.json`, …) nests the same object
/// under a `"hooks"` key"; `decision` = `"approve" | "block"` and (Devin's
/// docs) `deny`; exit "`2` = block, other = error (logged, does NOT block)".
#[test]
fn devin_config_json_wraps_hooks_and_deny_blocks() {
    let ws = Ws::new();
    let file = ws.write_json(
        ".devin/config.json",
        &json!({"model": "x", "hooks": {
            "PreToolUse": [{"hooks": [cmd(say(json!({"decision": "deny", "reason": "denied by devin"})))]}],
            "PermissionRequest": [{"hooks": [cmd(say(json!({"decision": "approve"})))]}],
            "Stop": [{"hooks": [cmd("cat >/dev/null; echo oops >&2; exit 1")]}]
        }}),
    );
    let e = ws.engine_with(json!({ "hooks_file": file }));
    let out = run(&e, HookEvent::PreToolUse, shell("exec", "ls"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("denied by devin")));
    let out = run(&e, HookEvent::PermissionRequest, shell("exec", "ls"));
    assert_eq!(out["decision"]["behavior"], "allow", "{out}");
    let out = run(&e, HookEvent::Stop, json!({"stop_hook_active": false, "last_assistant_message": "done"}));
    assert_eq!(out["block_reason"], Value::Null, "exit 1 does not block: {out}");
}

/// Devin CLI has eight events: PostCompaction fires by name and its
/// `additionalContext` "re-inject[s] post-compaction"; a Claude Code event
/// Devin CLI lacks is reported.
#[test]
fn devin_post_compaction_fires_by_name_and_missing_events_are_reported() {
    let ws = Ws::new();
    let context = say(
        json!({"hookSpecificOutput": {"hookEventName": "PostCompaction", "additionalContext": "re-read AGENTS.md"}}),
    );
    let e = ws.engine_with(json!({"dialect": "devin-cli", "hooks": {"hooks": {
        "PostCompaction": [{"hooks": [cmd(context)]}],
        "SubagentStop": [{"hooks": [cmd("true")]}]
    }}}));
    let out = e.run_named_blocking("PostCompaction", &json!({"summary": "s"})).unwrap().to_json();
    assert_eq!(out["additional_context"], json!(["re-read AGENTS.md"]), "{out}");
    let warnings: Vec<String> = e.config_warnings().iter().map(|w| w.message.clone()).collect();
    assert!(warnings.iter().any(|w| w.contains("Devin CLI has no SubagentStop event")), "{warnings:?}");
    assert!(!warnings.iter().any(|w| w.contains("PostCompaction")), "{warnings:?}");
}

// -------------------------------------------------------- Factory Droid

/// "`.factory/hooks.json` … is a bare event map without a `hooks` wrapper";
/// Droid's shell tool is `Execute`; `FACTORY_PROJECT_DIR` is the project.
#[test]
fn factory_hooks_json_is_the_bare_event_map_with_droid_tool_names() {
    let ws = Ws::new();
    let file = ws.write_json(
        ".factory/hooks.json",
        &json!({"PreToolUse": [{"matcher": "Execute", "hooks": [
            cmd("cat >/dev/null; echo \"$FACTORY_PROJECT_DIR\" > dir.txt; echo 'no rm' >&2; exit 2")
        ]}]}),
    );
    let e = ws.engine_with(json!({ "hooks_file": file }));
    let out = run(&e, HookEvent::PreToolUse, shell("Execute", "rm -rf /"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("no rm")), "{out}");
    assert_eq!(ws.read("dir.txt").trim(), ws.path().display().to_string());
}

/// "`settings.json` wraps it in `hooks`"; `hooksDisabled` turns hooks off.
#[test]
fn factory_settings_wrap_hooks_and_hooks_disabled_turns_them_off() {
    let ws = Ws::new();
    let hooks = json!({"PreToolUse": [{"hooks": [cmd("cat >/dev/null; touch ran")]}]});
    let file = ws.write_json(".factory/settings.json", &json!({"hooks": hooks}));
    let e = ws.engine_with(json!({ "hooks_file": file }));
    run(&e, HookEvent::PreToolUse, shell("Execute", "ls"));
    assert!(ws.exists("ran"));
    let ws = Ws::new();
    let file = ws.write_json(".factory/settings.json", &json!({"hooksDisabled": true, "hooks": hooks}));
    let e = ws.engine_with(json!({ "hooks_file": file }));
    run(&e, HookEvent::PreToolUse, shell("Execute", "ls"));
    assert!(!ws.exists("ran"), "hooksDisabled");
}

/// "The legacy `.factory/hooks/hooks.json` is read only when the root file
/// is absent"; "only `command` supported".
#[test]
fn factory_legacy_file_only_without_the_root_one_and_only_command_hooks() {
    let ws = Ws::new();
    let legacy = ws.write_json(
        ".factory/hooks/hooks.json",
        &json!({"PreToolUse": [{"hooks": [deny_hook("legacy"), {"type": "prompt", "prompt": "ok?"}]}]}),
    );
    let e = ws.engine_with(json!({ "hooks_file": &legacy }));
    let out = run(&e, HookEvent::PreToolUse, shell("Execute", "ls"));
    assert_eq!(out["reason"], "legacy", "{out}");
    let warnings: Vec<String> = e.config_warnings().iter().map(|w| w.message.clone()).collect();
    assert!(warnings.iter().any(|w| w.contains("only command hooks")), "{warnings:?}");
    ws.write_json(".factory/hooks.json", &json!({}));
    let e = ws.engine_with(json!({ "hooks_file": &legacy }));
    let out = run(&e, HookEvent::PreToolUse, shell("Execute", "ls"));
    assert_eq!(out["decision"], "continue", "the root file exists: {out}");
}

/// Both are found as a host finds them, by their paths.
#[test]
fn devin_and_factory_files_are_found_in_a_workspace() {
    let ws = Ws::new();
    let home = ws.path().join("home");
    let project = ws.path().join("project");
    for p in
        [project.join(".devin/hooks.v1.json"), project.join(".factory/hooks.json"), home.join(".factory/hooks.json")]
    {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "{}").unwrap();
    }
    let found: Vec<(String, &str, bool)> = hookline::dialect::settings_files(&project, Some(&home))
        .into_iter()
        .filter(|f| matches!(f.dialect.name(), "devin-cli" | "factory"))
        .map(|f| (f.path.strip_prefix(ws.path()).unwrap().display().to_string(), f.dialect.name(), f.trusted))
        .collect();
    assert_eq!(
        found,
        [
            ("project/.devin/hooks.v1.json".to_owned(), "devin-cli", false),
            ("home/.factory/hooks.json".to_owned(), "factory", true),
            ("project/.factory/hooks.json".to_owned(), "factory", false),
        ]
    );
}
