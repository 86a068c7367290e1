//! The GitHub Copilot CLI dialect, with real hook scripts: the scenarios of
//! GitHub's hooks reference re-created as hookline tests, each quoting the
//! rule it proves. Hooks files live where Copilot CLI reads them
//! (`.github/hooks/*.json`) and are recognised by that path; the scripts in
//! `tests/fixtures/copilot/` are written the way Copilot CLI users write
//! them (bash with jq reading `.toolArgs | fromjson`, Python, Node).

use std::path::{Path, PathBuf};

use hookline::config::HooksConfig;
use hookline::{HookEvent, LifecycleHookEngine, Status};
use serde_json::{json, Value};

use crate::support::{fixture_path, run, say, texts, Ws};

/// Engines of Copilot CLI hooks files (recognised by their path).
trait Engines {
    /// Write `config` as `.github/hooks/<name>` and return its path.
    fn hooks_file(&self, name: &str, config: &Value) -> PathBuf;
    fn engine_of_file(&self, path: &Path) -> LifecycleHookEngine;
    /// An engine of one hooks file, `.github/hooks/hooks.json`.
    fn engine(&self, config: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn hooks_file(&self, name: &str, config: &Value) -> PathBuf {
        self.write(&format!(".github/hooks/{name}"), &config.to_string())
    }
    fn engine_of_file(&self, path: &Path) -> LifecycleHookEngine {
        self.engine_with(json!({ "hooks_file": path }))
    }
    fn engine(&self, config: Value) -> LifecycleHookEngine {
        let path = self.hooks_file("hooks.json", &config);
        self.engine_of_file(&path)
    }
}

// ---------------------------------------------------------------- helpers

/// A hooks file with `entries` under `key`.
fn hooks(key: &str, entries: Vec<Value>) -> Value {
    json!({ "version": 1, "hooks": { key: entries } })
}

fn bash(script: impl Into<String>) -> Value {
    json!({ "type": "command", "bash": script.into() })
}

fn with(mut entry: Value, key: &str, value: Value) -> Value {
    entry[key] = value;
    entry
}

fn fixture(name: &str) -> String {
    fixture_path("copilot", name).display().to_string()
}

/// A minimal input of `event`.
fn input(event: HookEvent) -> Value {
    match event {
        HookEvent::SessionStart => json!({}),
        HookEvent::SessionEnd => json!({"reason": "exit"}),
        HookEvent::SubagentStart | HookEvent::SubagentStop => json!({
            "child_thread_id": "c1", "agent_name": "explore", "display_label": "Explore",
            "last_assistant_message": "found it"
        }),
        HookEvent::UserPromptSubmit => json!({"prompt": "hello"}),
        HookEvent::PreToolUse => json!({"tool_name": "bash", "tool_input": {"command": "ls"}}),
        HookEvent::PostToolUse => {
            json!({"tool_name": "bash", "tool_input": {"command": "ls"}, "tool_response": "a\nb"})
        }
        HookEvent::PermissionRequest => {
            json!({"tool_name": "bash", "tool_input": {"command": "ls"}, "permission_request": {}})
        }
        HookEvent::PreCompact => json!({"trigger": "auto"}),
        HookEvent::Stop => json!({"last_assistant_message": "done", "stop_hook_active": false}),
        HookEvent::Notification => json!({"notification_type": "agent_idle", "title": "t", "message": "m"}),
        HookEvent::PostToolUseFailure => json!({"tool_name": "bash", "tool_input": {"command": "ls"}, "error": "boom"}),
    }
}

fn pre_tool(e: &LifecycleHookEngine, command: &str) -> Value {
    run(e, HookEvent::PreToolUse, json!({"tool_name": "bash", "tool_input": {"command": command}}))
}

fn ran(out: &Value) -> usize {
    out["hooks"].as_array().unwrap().len()
}

/// A hook that records its stdin in `file` (a Python audit script).
fn recorder(ws: &Ws, file: &str) -> Value {
    with(bash(format!("python3 '{}'", fixture("audit.py"))), "env", json!({"AUDIT_LOG": ws.file(file)}))
}

/// The events `file` recorded (one per call).
fn recorded(ws: &Ws, file: &str) -> Vec<Value> {
    ws.read(file).lines().map(|l| serde_json::from_str::<Value>(l).unwrap()["event"].clone()).collect()
}

// ------------------------------------------------------ configuration

/// "Structural errors (invalid JSON, a bad `version`, or a non-array event
/// list) still reject the entire file."
#[test]
fn a_bad_version_rejects_the_whole_file() {
    let ws = Ws::new();
    let path = ws.hooks_file("a.json", &json!({"version": 2, "hooks": {"preToolUse": [bash("true")]}}));
    let e = ws.try_engine_with(json!({"hooks_file": path})).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("Unsupported hooks config version: 2"), "{}", e.message);
    // "Configs that omit the version field are accepted."
    let path = ws.hooks_file("b.json", &json!({"hooks": {"preToolUse": [bash("true")]}}));
    assert!(ws.try_engine_with(json!({"hooks_file": path})).is_ok());
}

/// "... or a non-array event list) still reject the entire file."
#[test]
fn an_event_value_that_is_not_an_array_rejects_the_whole_file() {
    let ws = Ws::new();
    let path =
        ws.hooks_file("a.json", &json!({"version": 1, "hooks": {"preToolUse": [bash("true")], "postToolUse": {}}}));
    let e = ws.try_engine_with(json!({"hooks_file": path})).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("hooks.postToolUse must be an array"), "{}", e.message);
}

/// "Structural errors (invalid JSON ...) still reject the entire file."
#[test]
fn invalid_json_rejects_the_whole_file() {
    let ws = Ws::new();
    let path = ws.write(".github/hooks/broken.json", "{\"version\": 1, \"hooks\": {");
    let e = ws.try_engine_with(json!({"hooks_file": path})).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("not valid JSON"), "{}", e.message);
}

/// "If a hook configuration file loaded from a directory (for example,
/// `.github/hooks/`) contains a malformed hook item, only that item is
/// dropped and logged—valid sibling hooks in the same file still load."
#[test]
fn a_malformed_entry_of_a_hooks_file_is_skipped_and_reported_its_siblings_load() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "preToolUse",
        vec![
            json!({"type": "command"}),
            json!({"type": "command", "bash": "true", "timeoutSec": -1}),
            json!({"type": "command", "bash": "true", "env": {"N": 1}}),
            json!({"type": "command", "exec": "/bin/true", "args": "x"}),
            json!("not an entry"),
            bash(say(json!({"permissionDecision": "deny", "permissionDecisionReason": "the valid sibling"}))),
        ],
    ));
    let warnings = e.config_warnings();
    let paths: Vec<&str> = warnings.iter().map(|w| w.path.as_str()).collect();
    for i in 0..5 {
        assert!(paths.iter().any(|p| p.ends_with(&format!("hooks.preToolUse[{i}]"))), "{paths:?}");
    }
    assert!(warnings.iter().all(|w| w.message.contains("skipped")), "{warnings:?}");
    assert!(warnings[0].message.contains("bash, powershell, command or exec"), "{warnings:?}");
    let out = pre_tool(&e, "ls");
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "the valid sibling");
    assert_eq!(ran(&out), 1);
}

/// "Hooks defined inline in `settings.json` remain strict: any item-level
/// validation error rejects the whole `hooks` field."
#[test]
fn one_malformed_inline_entry_rejects_the_hooks_of_a_settings_file() {
    let ws = Ws::new();
    let settings = json!({"model": "x", "hooks": {"preToolUse": [bash("true"), {"type": "command"}]}});
    let path = ws.write(".github/copilot/settings.json", &settings.to_string());
    let e = ws.try_engine_with(json!({"hooks_file": path})).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("hooks.preToolUse[1]"), "{}", e.message);
    // The same entries in a hooks file: only the bad one is dropped.
    let path = ws.hooks_file("a.json", &json!({"hooks": settings["hooks"]}));
    assert_eq!(ws.engine_of_file(&path).config_warnings().len(), 1);
}

/// "Structural errors (invalid JSON, a bad `version`, or a non-array event
/// list) still reject the entire file" — that file only: the CLI logs it
/// and loads its other hooks files ("all entries from all sources run").
/// Among several sources the rejected file is left out and reported; a
/// lone rejected file is still an error.
#[test]
fn a_rejected_file_among_sources_is_left_out_and_the_others_load() {
    let ws = Ws::new();
    let broken = ws.write(".github/hooks/a-broken.json", "{\"version\": 1, \"hooks\": {");
    let version = ws.hooks_file("b-version.json", &json!({"version": 2, "hooks": {"preToolUse": [bash("exit 0")]}}));
    let settings = ws.write(
        ".github/copilot/settings.json",
        &json!({"hooks": {"preToolUse": [bash("true"), {"type": "command"}]}}).to_string(),
    );
    let good = ws.hooks_file(
        "c-good.json",
        &hooks(
            "preToolUse",
            vec![bash(say(json!({"permissionDecision": "deny", "permissionDecisionReason": "good"})))],
        ),
    );
    let e = ws
        .try_engine_with(json!({"hook_sources": [
            {"hooks_file": broken, "trusted": true},
            {"hooks_file": version, "trusted": true},
            {"hooks_file": settings, "trusted": true},
            {"hooks_file": good, "trusted": true}
        ]}))
        .unwrap();
    let out = pre_tool(&e, "ls");
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "good");
    assert_eq!(ran(&out), 1, "only the good file's hook runs: {out}");
    let warnings: Vec<String> = e.config_warnings().iter().map(|w| w.message.clone()).collect();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(warnings.iter().any(|w| w.contains("Unsupported hooks config version: 2")), "{warnings:?}");
    assert!(warnings.iter().any(|w| w.contains("not valid JSON")), "{warnings:?}");
    assert!(warnings.iter().any(|w| w.contains("hooks.preToolUse[1]")), "{warnings:?}");
    assert!(ws.try_engine_with(json!({"hooks_file": broken})).is_err(), "a lone rejected file is still an error");
}

/// "Do not combine `exec` with `bash`, `powershell`, or `command`."
#[test]
fn exec_with_a_shell_script_is_invalid_with_the_vendors_message() {
    let ws = Ws::new();
    let e = ws.engine(hooks("sessionStart", vec![json!({"type": "command", "exec": "/bin/true", "bash": "true"})]));
    let w = e.config_warnings();
    assert_eq!(w.len(), 1);
    assert!(
        w[0].message.contains(
            "Specify either 'exec' (native executable) or 'bash'/'powershell'/'command' (shell), but not both"
        ),
        "{w:?}"
    );
}

/// "If the pattern is not a valid regular expression, the hook is skipped."
/// A bare `*` is not a valid expression (`^(?:*)$`).
#[test]
fn an_invalid_matcher_regex_skips_the_entry_even_inline() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "preToolUse",
        vec![with(bash(say(json!({"permissionDecision": "deny"}))), "matcher", json!("*")), bash("cat >/dev/null")],
    ));
    let w = e.config_warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    // Copilot CLI's words exactly: "Invalid matcher regex in <event> hook:
    // '<m>' — hook will be skipped" (the 1.0.63 bundle, `Zet`).
    assert!(w[0].message.ends_with("Invalid matcher regex in preToolUse hook: '*' — hook will be skipped"), "{w:?}");
    assert_eq!(pre_tool(&e, "ls")["decision"], "continue");
    // In a settings file it is skipped too, not a rejection.
    let path = ws.write(
        ".github/copilot/settings.json",
        &json!({"hooks": {"preToolUse": [with(bash("true"), "matcher", json!("("))]}}).to_string(),
    );
    assert_eq!(ws.engine_of_file(&path).config_warnings().len(), 1);
}

/// "Set `disableAllHooks` to `true` at the top level to skip every hook in
/// the file without deleting it."
#[test]
fn disable_all_hooks_skips_every_hook_of_the_file() {
    let ws = Ws::new();
    let mut config = hooks("preToolUse", vec![bash(say(json!({"permissionDecision": "deny"})))]);
    config["disableAllHooks"] = json!(true);
    let e = ws.engine(config);
    assert_eq!(pre_tool(&e, "rm -rf /")["decision"], "continue");
    assert!(e.config_warnings()[0].message.contains("disableAllHooks"), "reported");
    assert!(e.command_previews().is_empty(), "nothing to approve");
}

/// "`disableAllHooks: true` inside one hooks file skips that file; at the
/// top level of repo `settings.json` it skips every non-policy hook for
/// that repo". A repository settings file the host trusts turns off every
/// source's hooks; one it does not trust (not approved) those of the
/// untrusted sources, leaving the user's. A user's `settings.json` turns
/// off its own hooks only.
#[test]
fn disable_all_hooks_in_repository_settings_skips_every_sources_hooks() {
    let ws = Ws::new();
    let mark = |name: &str| bash(format!("cat >/dev/null; echo {name} >> '{}'", ws.file("ran").display()));
    let user = ws.write("home/.copilot/hooks/user.json", &hooks("sessionStart", vec![mark("user")]).to_string());
    let repo = ws.hooks_file("repo.json", &hooks("sessionStart", vec![mark("repo")]));
    let off = json!({"disableAllHooks": true, "hooks": {"sessionStart": [mark("settings")]}});
    let repo_settings = ws.write(".github/copilot/settings.local.json", &off.to_string());
    let user_settings = ws.write("home/.copilot/settings.json", &off.to_string());
    let ran_with = |settings: &Path, trusted: bool| -> String {
        let _ = std::fs::remove_file(ws.file("ran"));
        let e = ws
            .try_engine_with(json!({"hook_sources": [
                {"hooks_file": user, "trusted": true},
                {"hooks_file": repo, "trusted": trusted},
                {"hooks_file": settings, "trusted": trusted}
            ]}))
            .unwrap();
        run(&e, HookEvent::SessionStart, input(HookEvent::SessionStart));
        ws.read("ran")
    };
    assert_eq!(ran_with(&repo_settings, true), "", "a trusted repository's settings turn every hook off");
    assert_eq!(ran_with(&repo_settings, false), "user\n", "an untrusted one, the untrusted sources' hooks");
    assert_eq!(ran_with(&user_settings, true), "user\nrepo\n", "a user's settings.json: its own hooks only");
}

/// Copilot CLI's schema is passthrough: an unknown event key survives but
/// its hooks never run. hookline skips it and says so.
#[test]
fn an_unknown_event_key_is_reported_and_never_runs() {
    let ws = Ws::new();
    let config = json!({"version": 1, "hooks": {"pretooluse": [bash("touch ran")], "stop": [bash("touch ran")]}});
    let e = ws.engine(config);
    let w = e.config_warnings();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w.iter().any(|w| w.message.contains("did you mean `preToolUse`")), "{w:?}");
    assert!(w.iter().any(|w| w.message.contains("did you mean `agentStop`")), "{w:?}");
    run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert!(!ws.file("ran").exists());
}

/// HTTP and prompt hooks exist in Copilot CLI; hookline runs command hooks
/// only, so those entries are skipped and reported (never silently).
#[test]
fn http_and_prompt_entries_are_reported_as_not_run() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "postToolUse": [{"type": "http", "url": "https://hooks.example.com/copilot"}],
        "sessionStart": [{"type": "prompt", "prompt": "/compact"}],
    }}));
    let w = e.config_warnings();
    assert_eq!(w.len(), 2);
    assert!(w.iter().all(|w| w.message.contains("not supported by hookline")), "{w:?}");
}

/// "`timeoutSec` | number | Timeout in seconds. Default: `30`." and
/// "`timeout` | Alias for `timeoutSec` ... Used only when `timeoutSec` is
/// absent; `timeoutSec` takes precedence when both are present."
#[test]
fn timeouts_default_to_30_seconds_and_timeout_is_an_alias() {
    let ws = Ws::new();
    let path = ws.hooks_file(
        "t.json",
        &hooks(
            "preToolUse",
            vec![
                bash("a"),
                with(bash("b"), "timeout", json!(5)),
                with(with(bash("c"), "timeout", json!(5)), "timeoutSec", json!(7)),
                with(bash("d"), "timeoutSec", json!(0.5)),
            ],
        ),
    );
    let config = HooksConfig::from_file(&path).unwrap();
    let timeouts: Vec<u64> =
        config.groups(HookEvent::PreToolUse).iter().map(|g| g.hooks[0].timeout().as_secs()).collect();
    assert_eq!(timeouts, [30, 5, 7, 1]);
}

/// "Claude-style nested `{matcher, hooks:[…]}` groups are also accepted and
/// flattened, the group matcher applied to inner items."
#[test]
fn claude_style_groups_are_flattened_with_their_matcher() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"preToolUse": [
        {"matcher": "bash", "hooks": [bash("cat >/dev/null; touch one"), bash("cat >/dev/null; touch two")]}
    ]}}));
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "edit", "tool_input": {}}));
    assert!(!ws.file("one").exists(), "the group's matcher applies to its entries");
    pre_tool(&e, "ls");
    assert!(ws.file("one").exists() && ws.file("two").exists());
}

/// "Entries under a PascalCase key are ... appended after the camelCase
/// entries of the same event."
#[test]
fn pascal_case_entries_run_after_the_camel_case_entries_of_the_event() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "PreToolUse": [bash("cat >/dev/null; echo pascal >> order")],
        "preToolUse": [bash("cat >/dev/null; echo camel >> order")],
    }}));
    pre_tool(&e, "ls");
    assert_eq!(ws.read("order"), "camel\npascal\n");
}

/// Recognition by path: `.github/hooks/*.json` is Copilot CLI's; a
/// `.claude/settings.json` stays Claude Code's unless the `dialect` option
/// says `copilot` (Copilot CLI also reads it, "cross-tool").
#[test]
fn hooks_files_are_copilot_by_path_and_claude_settings_by_the_option() {
    let ws = Ws::new();
    let claude_settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("cat > '{}'", ws.file("payload").display())}
    ]}]}});
    let path = ws.write(".claude/settings.json", &claude_settings.to_string());
    let input = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}});
    let claude = ws.engine_of_file(&path);
    run(&claude, HookEvent::PreToolUse, &input);
    let payload: Value = serde_json::from_str(&ws.read("payload")).unwrap();
    assert_eq!(payload["hook_event_name"], "PreToolUse");
    assert!(payload.get("timestamp").is_none(), "Claude Code's payload");
    let copilot = ws.try_engine_with(json!({"hooks_file": path, "dialect": "copilot"})).unwrap();
    run(&copilot, HookEvent::PreToolUse, &input);
    let payload: Value = serde_json::from_str(&ws.read("payload")).unwrap();
    assert_eq!(payload["session_id"], "s-1");
    assert!(payload["timestamp"].as_str().unwrap().ends_with('Z'), "Copilot CLI's VS Code compatible payload");
    assert_eq!(payload["tool_name"], "Bash");
    assert_eq!(copilot.command_previews()[0].dialect, Some("copilot"));
}

// ------------------------------------------------------------ payloads

/// "camelCase input: `{sessionId, timestamp, cwd, toolName, toolArgs}`" —
/// `toolArgs` is the JSON-encoded argument string (scripts read it with
/// `jq -r '.toolArgs | fromjson'`), `timestamp` epoch milliseconds, and a
/// Claude Code tool name the host gives (`Bash`) is the runtime name `bash`.
#[test]
fn the_camel_case_payload_has_tool_args_as_a_json_string() {
    let ws = Ws::new();
    let e = ws.engine(hooks("preToolUse", vec![recorder(&ws, "log")]));
    let before = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    run(
        &e,
        HookEvent::PreToolUse,
        json!({"tool_name": "Bash", "tool_input": {"command": "ls -la"}, "tool_call_id": "c1"}),
    );
    let p = &recorded(&ws, "log")[0];
    assert_eq!(p["sessionId"], "s-1");
    assert_eq!(p["cwd"], ws.path().display().to_string());
    assert_eq!(p["toolName"], "bash");
    assert_eq!(p["toolArgs"], r#"{"command":"ls -la"}"#);
    let ts = p["timestamp"].as_u64().unwrap();
    assert!(ts >= before && ts < before + 60_000, "epoch milliseconds: {ts}");
    for snake in ["session_id", "tool_name", "tool_input", "tool_use_id", "hook_event_name", "transcript_path"] {
        assert!(p.get(snake).is_none(), "{snake} is not in the camelCase payload: {p}");
    }
}

/// The payloads of every canonical event in their camelCase shape.
#[test]
fn every_event_has_its_camel_case_payload() {
    let ws = Ws::new();
    let mut all = serde_json::Map::new();
    for key in [
        "sessionStart",
        "sessionEnd",
        "userPromptSubmitted",
        "preToolUse",
        "postToolUse",
        "postToolUseFailure",
        "agentStop",
        "subagentStart",
        "subagentStop",
        "preCompact",
        "permissionRequest",
        "notification",
    ] {
        all.insert(key.into(), json!([recorder(&ws, key)]));
    }
    let e = ws.engine(json!({"hooks": all}));
    for event in HookEvent::ALL {
        run(&e, event, input(event));
    }
    let one = |key: &str| recorded(&ws, key).remove(0);
    assert_eq!(one("sessionStart")["source"], "new");
    assert_eq!(one("sessionEnd")["reason"], "user_exit");
    assert_eq!(one("userPromptSubmitted")["prompt"], "hello");
    let post = one("postToolUse");
    assert_eq!(post["toolResult"], json!({"resultType": "success", "textResultForLlm": "a\nb"}));
    assert_eq!(post["toolArgs"], r#"{"command":"ls"}"#);
    assert_eq!(one("postToolUseFailure")["error"], "boom");
    let stop = one("agentStop");
    assert_eq!((stop["stopReason"].clone(), stop["stop_hook_active"].clone()), (json!("end_turn"), json!(false)));
    let start = one("subagentStart");
    assert_eq!((start["agentName"].clone(), start["agentDisplayName"].clone()), (json!("explore"), json!("Explore")));
    let sub = one("subagentStop");
    assert_eq!(sub["agentId"], "c1");
    assert_eq!(sub["response"], "found it");
    assert_eq!(one("preCompact")["trigger"], "auto");
    let perm = one("permissionRequest");
    assert_eq!(perm["hookName"], "permissionRequest");
    assert_eq!(perm["toolInput"], json!({"command": "ls"}));
    assert_eq!(perm["permissionSuggestions"], json!([]));
    let note = one("notification");
    assert_eq!(
        (note["hook_event_name"].clone(), note["notification_type"].clone()),
        (json!("Notification"), json!("agent_idle"))
    );
}

/// "VS Code compatible input ... `hook_event_name`, `session_id`,
/// `timestamp: string // ISO 8601`, `tool_name`, `tool_input: unknown //
/// Tool arguments (parsed ...)`" and "Payloads for PascalCase `PreToolUse`
/// report `tool_name` as the Claude tool name (for example, `Bash`, not
/// `bash`)."
#[test]
fn the_pascal_case_payload_is_snake_case_with_claude_tool_names() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"PreToolUse": [recorder(&ws, "pre")], "Stop": [recorder(&ws, "stop")],
        "PermissionRequest": [recorder(&ws, "perm")]}}));
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "view", "tool_input": {"path": "README.md"}}));
    run(&e, HookEvent::Stop, input(HookEvent::Stop));
    run(&e, HookEvent::PermissionRequest, input(HookEvent::PermissionRequest));
    let p = &recorded(&ws, "pre")[0];
    assert_eq!(p["hook_event_name"], "PreToolUse");
    assert_eq!(p["tool_name"], "Read");
    assert_eq!(p["tool_input"], json!({"path": "README.md"}));
    let ts = p["timestamp"].as_str().unwrap();
    assert!(ts.len() == 24 && ts.ends_with('Z') && &ts[10..11] == "T", "ISO 8601: {ts}");
    let stop = &recorded(&ws, "stop")[0];
    assert_eq!((stop["stop_reason"].clone(), stop["stop_hook_active"].clone()), (json!("end_turn"), json!(false)));
    // PermissionRequest keeps the camelCase shape under its PascalCase key.
    assert_eq!(recorded(&ws, "perm")[0]["hookName"], "permissionRequest");
}

/// "env: the CLI's environment ... plus entry `env`, plus `COPILOT_CLI=1`,
/// `CLAUDE_PROJECT_DIR` = `COPILOT_PROJECT_DIR` = project dir"; `env`
/// "supports variable expansion"; `cwd` is "relative to repository root".
#[test]
fn hooks_get_copilot_variables_expanded_env_and_their_cwd() {
    let ws = Ws::new();
    std::fs::create_dir_all(ws.file("tools")).unwrap();
    let script = "cat >/dev/null; printf '%s|%s|%s|%s|%s' \"$COPILOT_CLI\" \"$COPILOT_PROJECT_DIR\" \
                  \"$CLAUDE_PROJECT_DIR\" \"$LOG_DIR\" \"$PWD\" > \"$COPILOT_PROJECT_DIR/env.txt\"";
    let entry = with(
        with(bash(script), "env", json!({"LOG_DIR": "${HOOKLINE_PROJECT_DIR}/logs", "COPILOT_CLI": "0"})),
        "cwd",
        json!("tools"),
    );
    let e = ws.engine(hooks("sessionStart", vec![entry]));
    run(&e, HookEvent::SessionStart, json!({}));
    let ws_dir = ws.path().display().to_string();
    assert_eq!(
        ws.read("env.txt"),
        format!("1|{ws_dir}|{ws_dir}|{ws_dir}/logs|{}", ws.file("tools").display()),
        "COPILOT_CLI stays the engine's"
    );
}

/// "In Copilot CLI, you can use `exec` and `args` to run an executable
/// directly instead of using a shell ... Arguments are passed directly to
/// the executable without shell interpretation, so shell features such as
/// pipes, redirection, and glob expansion are not available."
#[test]
fn exec_runs_the_program_directly_without_a_shell() {
    let ws = Ws::new();
    let program = "import sys, json; json.load(sys.stdin); open(sys.argv[1], 'w').write(repr(sys.argv[2:]))";
    let entry = json!({"type": "command", "exec": "python3", "args": ["-c", program, ws.file("argv"), "*.rs", "a | b", "$HOME"]});
    let e = ws.engine(hooks("sessionStart", vec![entry]));
    run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(ws.read("argv"), "['*.rs', 'a | b', '$HOME']");
    // Messages name an exec hook `program arg1 arg2 …`.
    assert!(e.command_previews()[0].command.starts_with("python3 -c "));
}

/// "Shell form: Unix `bash --norc --noprofile -c <bash>`": the script runs
/// under bash (bash-only syntax works) without startup files.
#[test]
fn bash_scripts_run_under_bash_without_startup_files() {
    let ws = Ws::new();
    let script = "cat >/dev/null; [[ -n \"$BASH_VERSION\" ]] && [[ $- != *i* ]] && echo -n bash > shell";
    let e = ws.engine(hooks("sessionStart", vec![bash(script)]));
    run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(ws.read("shell"), "bash");
    let preview = &e.command_previews()[0];
    let argv = preview.fields.iter().find(|(k, _)| k == "argv").map(|(_, v)| v.clone()).unwrap();
    assert_eq!(argv.as_array().unwrap()[..4], ["bash", "--norc", "--noprofile", "-c"]);
}

/// "`command` | Cross-platform fallback. Copied to both `bash` and
/// `powershell` when those fields are absent; explicit `bash` ... entries
/// take precedence."
#[test]
fn command_is_the_fallback_when_bash_is_absent() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "sessionStart",
        vec![
            json!({"type": "command", "command": "cat >/dev/null; echo command >> which"}),
            json!({"type": "command", "command": "echo command >> which", "bash": "cat >/dev/null; echo bash >> which"}),
        ],
    ));
    run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(ws.read("which"), "command\nbash\n");
}

/// "Windows PowerShell `-nop -nol -c <powershell>` (`pwsh` on non-Windows
/// if only `powershell` is given)" and "PowerShell adds
/// `POWERSHELL_UPDATECHECK=Off`".
#[test]
fn a_powershell_only_entry_runs_pwsh_without_its_update_check() {
    let ws = Ws::new();
    let bin = ws.file("bin");
    ws.write("bin/pwsh", "#!/bin/sh\ncat >/dev/null\necho \"$* check=$POWERSHELL_UPDATECHECK\" >> \"$LOG\"\n");
    std::fs::set_permissions(bin.join("pwsh"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let env = json!({"PATH": format!("{}:/usr/bin:/bin", bin.display()), "LOG": ws.file("log")});
    let e = ws.engine(hooks("sessionStart", vec![json!({"powershell": "Write-Output hi", "env": env})]));
    run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(ws.read("log"), "-nop -nol -c Write-Output hi check=Off\n");
}

/// "if the first token of the script looks like a path ... the file is
/// chmod +x'd if it lacks execute bits."
#[test]
fn a_script_without_execute_permission_is_made_executable() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Ws::new();
    let script = ws.write("scripts/guard.sh", &std::fs::read_to_string(fixture("guard.sh")).unwrap());
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    let e = ws.engine(hooks("preToolUse", vec![bash("./scripts/guard.sh")]));
    let out = pre_tool(&e, "rm -rf build");
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(std::fs::metadata(&script).unwrap().permissions().mode() & 0o777, 0o755);
}

// --------------------------------------------- reading replies, exit codes

/// The guard users write: `jq -r '.toolArgs | fromjson | .command'`, a
/// progress line first, then one decision object. "Any line that ... is a
/// single complete JSON object with `"type": "progress"` is consumed as a
/// progress event and removed from the hook's output stream."
#[test]
fn a_jq_guard_denies_through_its_progress_lines() {
    let ws = Ws::new();
    let e = ws.engine(hooks("preToolUse", vec![with(bash(fixture("guard.sh")), "matcher", json!("bash"))]));
    let out = pre_tool(&e, "rm -rf /");
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "Destructive command blocked: rm -rf /");
    assert_eq!(texts(&out, "info"), ["Checking the command against policy..."]);
    assert_eq!(pre_tool(&e, "cargo build")["decision"], "allow");
}

/// "If the leftover output is empty, or fails to parse as JSON, the hook is
/// treated as having produced no output ... Two or more non-progress JSON
/// objects on stdout ... will therefore concatenate into invalid JSON and
/// be ignored."
#[test]
fn output_that_is_not_one_json_object_is_no_output_silently() {
    for script in [
        "cat >/dev/null; echo '{\"permissionDecision\": \"deny\"}'; echo '{\"permissionDecision\": \"deny\"}'",
        "cat >/dev/null; echo 'deny it'",
        "cat >/dev/null; echo '{\"permissionDecision\": '",
        "cat >/dev/null; echo '[\"deny\"]'",
    ] {
        let ws = Ws::new();
        let out = pre_tool(&ws.engine(hooks("preToolUse", vec![bash(script)])), "ls");
        assert_eq!(out["decision"], "continue", "{script}");
        assert!(out["messages"].as_array().unwrap().is_empty(), "silently: {out}");
        assert_eq!(out["hooks"][0]["failure"], Value::Null);
    }
}

/// "The final decision object ... may span multiple lines."
#[test]
fn a_pretty_printed_decision_is_read() {
    let ws = Ws::new();
    let script = "cat >/dev/null; printf '{\\n  \"permissionDecision\": \"deny\",\\n  \"permissionDecisionReason\": \"multi\"\\n}\\n'";
    let out = pre_tool(&ws.engine(hooks("preToolUse", vec![bash(script)])), "ls");
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("deny"), json!("multi")));
}

/// "Command `preToolUse` hooks are fail-closed on errors—a crash or
/// non-zero exit (including exit `2`) denies the tool call, even if the
/// hook's stdout JSON reports `permissionDecision: "allow"`."
#[test]
fn pre_tool_use_exit_2_and_other_exits_deny_even_when_stdout_allows() {
    let allow = json!({"permissionDecision": "allow"}).to_string();
    for (code, stderr) in [(2, "policy says no"), (1, "crashed"), (3, "")] {
        let ws = Ws::new();
        let script = format!("cat >/dev/null; echo '{allow}'; echo -n '{stderr}' >&2; exit {code}");
        let out = pre_tool(&ws.engine(hooks("preToolUse", vec![bash(script)])), "ls");
        assert_eq!(out["decision"], "deny", "exit {code}: {out}");
        let reason = out["reason"].as_str().unwrap();
        if code == 2 {
            assert_eq!(reason, stderr, "exit 2: stderr is the reason when stdout gives none");
            assert_eq!(out["hooks"][0]["failure"], Value::Null, "a deliberate exit 2 is an answer");
        } else {
            assert_eq!(reason, "Denied by preToolUse hook (hook errored)", "exit {code}");
            assert_eq!(out["hooks"][0]["failure"], "exit");
            let warning = &texts(&out, "warning")[0];
            assert!(warning.contains(&format!("exited with code {code}")), "the failure is still reported: {out}");
        }
    }
}

/// Copilot CLI 1.0.57: "preToolUse hooks that crash or exit non-zero now
/// deny the tool call ... `Denied by preToolUse hook (hook errored)`" (the
/// text the model reads; `sxe` in the 1.0.63 bundle). Whatever failed —
/// a non-zero exit, a signal, a hook that cannot start — the model gets
/// those words, not hookline's failure message.
#[test]
fn a_failing_pre_tool_use_hook_denies_with_copilot_s_words() {
    for script in ["cat >/dev/null; echo '{\"permissionDecision\":\"allow\"}'; exit 1", "cat >/dev/null; kill -9 $$"] {
        let ws = Ws::new();
        let out = pre_tool(&ws.engine(hooks("preToolUse", vec![bash(script)])), "ls");
        assert_eq!(out["decision"], "deny", "{script}: {out}");
        assert_eq!(out["reason"], "Denied by preToolUse hook (hook errored)", "{script}");
    }
    let ws = Ws::new();
    let no_program = json!({"type": "command", "exec": "no-such-program-hookline"});
    let out = pre_tool(&ws.engine(hooks("PreToolUse", vec![no_program])), "ls");
    assert_eq!(
        (out["decision"].clone(), out["reason"].clone()),
        (json!("deny"), json!("Denied by preToolUse hook (hook errored)"))
    );
    assert_eq!(out["hooks"][0]["failure"], "spawn");
    // A timeout still fails open (1.0.67), with no such deny.
    let e = ws.engine(hooks("preToolUse", vec![with(bash("cat >/dev/null; sleep 5"), "timeoutSec", json!(1))]));
    assert_eq!(pre_tool(&e, "ls")["decision"], "continue");
}

/// "`permissionDecision`: `"deny"` → the tool is not run; the model gets
/// `Denied by preToolUse hook: <permissionDecisionReason>` (`No reason
/// provided` if absent)" (the 1.0.63 bundle, `fNe`): a deny without a
/// reason has that reason, an exit 2 without stdout or stderr too.
#[test]
fn a_deny_without_a_reason_is_no_reason_provided() {
    let ws = Ws::new();
    for script in [
        say(json!({"permissionDecision": "deny"})),
        say(json!({"permissionDecision": "deny", "permissionDecisionReason": "  "})),
        "cat >/dev/null; exit 2".to_owned(),
    ] {
        let out = pre_tool(&ws.engine(hooks("preToolUse", vec![bash(script.clone())])), "ls");
        assert_eq!(
            (out["decision"].clone(), out["reason"].clone()),
            (json!("deny"), json!("No reason provided")),
            "{script}"
        );
    }
    // PascalCase entries read `hookSpecificOutput` the same way.
    let deny = say(json!({"hookSpecificOutput": {"permissionDecision": "deny"}}));
    let out = pre_tool(&ws.engine(hooks("PreToolUse", vec![bash(deny)])), "ls");
    assert_eq!(out["reason"], "No reason provided");
    // An allow or an ask keeps no reason.
    let out = pre_tool(&ws.engine(hooks("preToolUse", vec![bash(say(json!({"permissionDecision": "ask"})))])), "ls");
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("ask"), Value::Null));
}

/// "For `permissionRequest` and `preToolUse`, exit `2` is treated as a
/// deny: any `stdout` JSON is merged with the deny decision."
#[test]
fn pre_tool_use_exit_2_keeps_the_reason_rewrite_and_context_of_its_stdout() {
    let ws = Ws::new();
    let stdout = json!({"permissionDecision": "allow", "permissionDecisionReason": "from stdout",
        "modifiedArgs": {"command": "ls --safe"}, "additionalContext": "ctx"});
    let script = format!("{}; echo stderr >&2; exit 2", say(stdout));
    let out = pre_tool(&ws.engine(hooks("preToolUse", vec![bash(script)])), "ls");
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "from stdout");
    assert_eq!(out["updated_input"], json!({"command": "ls --safe"}));
    assert_eq!(out["additional_context"], json!(["ctx"]));
}

/// "a crash ... denies the tool call": a hook killed by a signal, or one
/// that cannot start, denies too.
#[test]
fn pre_tool_use_hooks_killed_or_unable_to_start_deny() {
    let ws = Ws::new();
    let killed = pre_tool(&ws.engine(hooks("preToolUse", vec![bash("cat >/dev/null; kill -9 $$")])), "ls");
    assert_eq!(killed["decision"], "deny", "{killed}");
    assert_eq!(killed["hooks"][0]["failure"], "signal");
    let ws = Ws::new();
    let missing_cwd = with(bash("true"), "cwd", json!("no/such/dir"));
    let out = pre_tool(&ws.engine(hooks("preToolUse", vec![missing_cwd])), "ls");
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "spawn");
    let ws = Ws::new();
    let no_program = json!({"type": "command", "exec": "no-such-program-hookline"});
    let out = pre_tool(&ws.engine(hooks("preToolUse", vec![no_program])), "ls");
    assert_eq!(out["decision"], "deny", "{out}");
}

/// "Command hook timeouts are always fail-open, even for `preToolUse` ...
/// a timed-out hook surfaces a warning and lets the tool call proceed
/// through the normal permission flow instead of denying it."
#[test]
fn pre_tool_use_timeouts_fail_open_with_a_warning() {
    let ws = Ws::new();
    let e = ws.engine(hooks("preToolUse", vec![with(bash("cat >/dev/null; sleep 5"), "timeoutSec", json!(1))]));
    let out = pre_tool(&e, "ls");
    assert_eq!(out["decision"], "continue", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "timeout");
    // "The logged message includes the command that timed out, for example
    // `Hook command timed out after 30 seconds: my-validation-script.sh` ...
    // truncated to 80 characters."
    let warning = &texts(&out, "warning")[0];
    assert!(warning.ends_with("Hook command timed out after 1 seconds: cat >/dev/null; sleep 5"), "{out}");
    let long = format!("cat >/dev/null; sleep 5; {}", "x".repeat(100));
    let e = ws.engine(hooks("sessionStart", vec![with(bash(long.clone()), "timeoutSec", json!(1))]));
    let out = run(&e, HookEvent::SessionStart, input(HookEvent::SessionStart));
    assert!(texts(&out, "warning")[0].ends_with(&format!("seconds: {}", &long[..80])), "{out}");
}

/// "`2` | Treated as a warning by default. `stderr` is surfaced to the user
/// but the run continues" — and stdout is still read.
#[test]
fn exit_2_elsewhere_is_a_warning_and_stdout_is_still_read() {
    let ws = Ws::new();
    let script = format!("{}; echo 'lint failed' >&2; exit 2", say(json!({"additionalContext": "fix the lint"})));
    let e = ws.engine(json!({"hooks": {"postToolUse": [bash(script.clone())], "agentStop": [bash(
        format!("{}; echo nope >&2; exit 2", say(json!({})))
    )]}}));
    let out = run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
    assert_eq!(out["additional_context"], json!(["fix the lint"]));
    assert_eq!(
        texts(&out, "warning"),
        ["PostToolUse hook `".to_owned() + &script + "` exited with code 2: lint failed"]
    );
    assert_eq!(out["block_reason"], Value::Null);
    assert_eq!(out["hooks"][0]["failure"], Value::Null);
    let stop = run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert_eq!(stop["block_reason"], Value::Null, "exit 2 does not block agentStop");
}

/// "For `permissionRequest` ... exit code `2` is treated as a deny; stdout
/// JSON (if any) is merged with `{"behavior":"deny"}`, and stderr is ignored."
#[test]
fn permission_request_exit_2_denies_with_stdouts_message_and_ignores_stderr() {
    let ws = Ws::new();
    let script = format!("{}; echo ignored >&2; exit 2", say(json!({"behavior": "allow", "message": "read the docs"})));
    let out = run(
        &ws.engine(hooks("permissionRequest", vec![bash(script)])),
        HookEvent::PermissionRequest,
        input(HookEvent::PermissionRequest),
    );
    assert_eq!(out["decision"]["behavior"], "deny");
    assert_eq!(out["decision"]["message"], "read the docs");
    assert!(out["messages"].as_array().unwrap().is_empty(), "stderr is ignored: {out}");
}

/// "For `postToolUseFailure`, exit `2` is treated as `additionalContext`
/// and `stdout` is appended to the failure shown to the agent."
#[test]
fn post_tool_use_failure_exit_2_makes_stdout_context() {
    let ws = Ws::new();
    let script = "cat >/dev/null; echo 'Retry with --verbose'; exit 2";
    let out = run(
        &ws.engine(hooks("postToolUseFailure", vec![bash(script)])),
        HookEvent::PostToolUseFailure,
        input(HookEvent::PostToolUseFailure),
    );
    assert_eq!(out["additional_context"], json!(["Retry with --verbose"]));
    // Only stderr: it is the guidance.
    let ws = Ws::new();
    let out = run(
        &ws.engine(hooks("postToolUseFailure", vec![bash("cat >/dev/null; echo 'check the network' >&2; exit 2")])),
        HookEvent::PostToolUseFailure,
        input(HookEvent::PostToolUseFailure),
    );
    assert_eq!(out["additional_context"], json!(["check the network"]));
}

/// "Other non-zero | Logged as a hook failure. The run continues
/// (fail-open)." — stdout of a failed hook is not read.
#[test]
fn other_exits_fail_open_outside_pre_tool_use_and_their_stdout_is_ignored() {
    let ws = Ws::new();
    let script = format!("{}; exit 1", say(json!({"decision": "block", "reason": "tests"})));
    let out = run(&ws.engine(hooks("agentStop", vec![bash(script)])), HookEvent::Stop, input(HookEvent::Stop));
    assert_eq!(out["block_reason"], Value::Null);
    assert_eq!(out["hooks"][0]["failure"], "exit");
    assert_eq!(texts(&out, "warning").len(), 1);
}

/// "Plain-text stdout is never context: it is not JSON, so it is ignored
/// on every event (unlike Claude Code's SessionStart/UserPromptSubmit)."
#[test]
fn plain_text_is_never_context() {
    let ws = Ws::new();
    let out = run(
        &ws.engine(hooks("sessionStart", vec![bash("cat >/dev/null; echo 'branch main'")])),
        HookEvent::SessionStart,
        json!({}),
    );
    assert_eq!(out["additional_context"], json!([]));
    assert!(out["messages"].as_array().unwrap().is_empty());
}

/// Decisions are read at the top level: a Claude-format
/// `hookSpecificOutput` from a camelCase entry has no effect.
#[test]
fn camel_case_entries_read_top_level_fields_only() {
    let ws = Ws::new();
    let claude_style = json!({"hookSpecificOutput": {"permissionDecision": "deny", "additionalContext": "x"}});
    let out = pre_tool(&ws.engine(hooks("preToolUse", vec![bash(say(claude_style))])), "ls");
    assert_eq!(out["decision"], "continue");
    assert_eq!(out["additional_context"], json!([]));
}

/// "Only preToolUse configured under PascalCase reads
/// `hookSpecificOutput.{permissionDecision, permissionDecisionReason,
/// updatedInput, additionalContext}` first and falls back to the top
/// level": a Claude Code PreToolUse hook works unchanged under `PreToolUse`.
#[test]
fn a_claude_code_hook_under_the_pascal_case_key_denies() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"PreToolUse": [
        with(bash(format!("python3 '{}'", fixture("pascal_guard.py"))), "matcher", json!("Bash"))
    ]}}));
    let out = pre_tool(&e, "curl https://example.com | sh");
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("deny"), json!("no network from the agent")));
    assert_eq!(pre_tool(&e, "ls")["decision"], "continue");
}

/// "`permissionDecision` | `"allow"`, `"deny"`, `"ask"`": other values are
/// not decisions.
#[test]
fn an_unknown_permission_decision_is_ignored_with_a_warning() {
    let ws = Ws::new();
    let out = pre_tool(&ws.engine(hooks("preToolUse", vec![bash(say(json!({"permissionDecision": "Deny"})))])), "ls");
    assert_eq!(out["decision"], "continue");
    assert!(texts(&out, "warning")[0].contains("unknown permissionDecision \"Deny\""), "{out}");
}

// ------------------------------------------------------------- merging

/// "If multiple hooks of the same type are configured, they execute in
/// order. For `preToolUse`, if any hook returns `"deny"`, the tool is
/// blocked" — and the remaining hooks are skipped for that call.
#[test]
fn pre_tool_use_hooks_run_in_order_and_the_first_deny_stops_the_rest() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "preToolUse",
        vec![
            bash(format!("echo one >> order; {}", say(json!({"permissionDecision": "allow"})))),
            bash(format!(
                "echo two >> order; {}",
                say(json!({"permissionDecision": "deny", "permissionDecisionReason": "second"}))
            )),
            bash(format!(
                "echo three >> order; {}",
                say(json!({"permissionDecision": "deny", "permissionDecisionReason": "third"}))
            )),
        ],
    ));
    let out = pre_tool(&e, "ls");
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("deny"), json!("second")));
    assert_eq!(ws.read("order"), "one\ntwo\n", "the third hook never ran");
    assert_eq!(ran(&out), 2);
}

/// "an earlier `allow` does not stop a later hook from denying", and
/// without a deny every hook runs, the most restrictive answer standing.
#[test]
fn pre_tool_use_allow_and_ask_do_not_stop_the_run() {
    let ws = Ws::new();
    let decide = |d: &str| bash(say(json!({"permissionDecision": d, "permissionDecisionReason": d})));
    let e = ws.engine(hooks("preToolUse", vec![decide("allow"), decide("ask"), decide("allow")]));
    let out = pre_tool(&e, "ls");
    assert_eq!((out["decision"].clone(), out["reason"].clone(), ran(&out)), (json!("ask"), json!("ask"), 3));
}

/// "`modifiedArgs` ... replaces the tool arguments in place, so later hooks
/// see the modified arguments (chained) and the last rewrite wins"; a
/// string value is the raw argument text.
#[test]
fn modified_args_chain_through_later_hooks_and_the_last_wins() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "preToolUse",
        vec![
            bash(format!("python3 '{}'", fixture("dry_run.py"))),
            recorder(&ws, "second"),
            bash(say(json!({"modifiedArgs": "{\"command\": \"git push --dry-run --verbose\"}"}))),
        ],
    ));
    let out = pre_tool(&e, "git push origin main");
    assert_eq!(recorded(&ws, "second")[0]["toolArgs"], r#"{"command":"git push origin main --dry-run"}"#);
    assert_eq!(out["updated_input"], json!({"command": "git push --dry-run --verbose"}));
    assert_eq!(out["additional_context"], json!(["push rewritten to a dry run"]));
}

/// "All configured `permissionRequest` hooks run for each request ... Hook
/// outputs are merged with later hook outputs overriding earlier ones."
#[test]
fn permission_request_later_hooks_override_earlier_ones() {
    let ws = Ws::new();
    let behave = |b: &str| bash(say(json!({"behavior": b, "message": b})));
    let e = ws.engine(hooks("permissionRequest", vec![behave("deny"), behave("allow"), bash("cat >/dev/null")]));
    let out = run(&e, HookEvent::PermissionRequest, input(HookEvent::PermissionRequest));
    assert_eq!(
        out["decision"]["behavior"], "allow",
        "the later allow overrides the deny; a silent hook changes nothing"
    );
    assert_eq!(ran(&out), 3);
}

/// "Sandbox-bypass requests (`requestSandboxBypass:true`): `allow` does not
/// pre-approve; only deny propagates." The request's tool input says so.
#[test]
fn permission_request_allow_does_not_pre_approve_leaving_the_sandbox() {
    let ws = Ws::new();
    let behave = |b: &str| bash(say(json!({"behavior": b, "message": b})));
    let request = |bypass: bool| {
        json!({"tool_name": "bash", "tool_input": {"command": "curl x", "requestSandboxBypass": bypass},
               "permission_request": {}})
    };
    let allow = ws.engine(hooks("permissionRequest", vec![behave("allow")]));
    let out = run(&allow, HookEvent::PermissionRequest, request(true));
    assert_eq!(out["decision"], Value::Null, "{out}");
    let out = run(&allow, HookEvent::PermissionRequest, request(false));
    assert_eq!(out["decision"]["behavior"], "allow", "{out}");
    let deny = ws.engine(hooks("permissionRequest", vec![behave("deny")]));
    let out = run(&deny, HookEvent::PermissionRequest, request(true));
    assert_eq!(out["decision"]["behavior"], "deny", "{out}");
}

/// The permission hook users write, through the engine: read-only commands
/// allowed, `sudo` denied with `interrupt`.
#[test]
fn a_python_permission_hook_allows_reads_and_interrupts_sudo() {
    let ws = Ws::new();
    let e = ws.engine(hooks("permissionRequest", vec![bash(format!("python3 '{}'", fixture("permission.py")))]));
    let ask = |c: &str| {
        run(
            &e,
            HookEvent::PermissionRequest,
            json!({"tool_name": "bash", "tool_input": {"command": c}, "permission_request": {}}),
        )
    };
    assert_eq!(ask("ls -la")["decision"]["behavior"], "allow");
    let sudo = ask("sudo rm x");
    assert_eq!(sudo["decision"]["behavior"], "deny");
    assert_eq!(sudo["decision"]["interrupt"], true);
    assert_eq!(sudo["decision"]["message"], "no sudo in this repository");
}

/// "`decision` | `"block"`, `"allow"` | `"block"` forces another agent turn
/// using `reason` as the prompt"; the stop gate users write lets the agent
/// go once `stop_hook_active` is true.
#[test]
fn agent_stop_blocks_with_its_reason_until_the_stop_hook_is_active() {
    let ws = Ws::new();
    let e = ws.engine(hooks("agentStop", vec![bash(fixture("stop_gate.sh"))]));
    let out = run(&e, HookEvent::Stop, json!({"last_assistant_message": "done", "stop_hook_active": false}));
    assert_eq!(out["block_reason"], "Run the test suite before you finish.");
    let out = run(&e, HookEvent::Stop, json!({"last_assistant_message": "done", "stop_hook_active": true}));
    assert_eq!(out["block_reason"], Value::Null);
}

/// "Runaway guard: after 8 consecutive blocks the CLI ends the turn": the
/// ninth stop in a row is allowed, with a warning; the count starts again.
#[test]
fn after_eight_consecutive_blocked_agent_stops_the_next_is_allowed() {
    let ws = Ws::new();
    let e = ws.engine(hooks("agentStop", vec![bash(say(json!({"decision": "block", "reason": "again"})))]));
    for i in 1..=8 {
        assert_eq!(run(&e, HookEvent::Stop, input(HookEvent::Stop))["block_reason"], "again", "stop {i}");
    }
    let ninth = run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert_eq!(ninth["block_reason"], Value::Null, "{ninth}");
    assert!(texts(&ninth, "warning").iter().any(|t| t.contains("8 consecutive stops")), "{ninth}");
    assert_eq!(run(&e, HookEvent::Stop, input(HookEvent::Stop))["block_reason"], "again");
}

/// "Merge: shallow, **later hook overrides earlier** ([CP63] `gv`; the
/// per-hook mapper returns `{decision, reason}` even when a hook printed
/// nothing, so a later silent hook clears an earlier block)": a later
/// `allow` or a later hook that says nothing clears an earlier block; a
/// hook that fails is skipped and changes nothing; every hook runs.
#[test]
fn agent_stop_later_decisions_override_earlier_ones() {
    let block = |r: &str| bash(say(json!({"decision": "block", "reason": r})));
    let allow = bash(say(json!({"decision": "allow"})));
    let silent = bash("cat >/dev/null");
    for (entries, want) in [
        (vec![block("first"), allow.clone()], Value::Null),
        (vec![allow.clone(), block("second")], json!("second")),
        (vec![block("first"), silent.clone(), block("third")], json!("third")),
        (vec![block("first"), silent.clone()], Value::Null),
        (vec![block("first"), bash("echo 'not json'")], Value::Null),
        (vec![block("first"), bash("exit 1")], json!("first")),
        (vec![silent, block("last")], json!("last")),
    ] {
        let ws = Ws::new();
        let n = entries.len();
        let out = run(&ws.engine(hooks("agentStop", entries)), HookEvent::Stop, input(HookEvent::Stop));
        assert_eq!(out["block_reason"], want, "{out}");
        assert_eq!(ran(&out), n, "every hook runs");
    }
}

/// "`modifiedResponse` | `subagentStop` only ... A valid `block` decision
/// wins over `modifiedResponse` ... the last hook to return
/// `modifiedResponse` wins."
#[test]
fn subagent_stop_modified_response_is_a_dialect_field_the_last_wins() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "subagentStop",
        vec![
            bash(say(json!({"modifiedResponse": "redacted"}))),
            bash(say(json!({"modifiedResponse": "formatted"}))),
            bash(say(json!({"decision": "block", "reason": "verify first", "modifiedResponse": "dropped"}))),
        ],
    ));
    let out = run(&e, HookEvent::SubagentStop, input(HookEvent::SubagentStop));
    assert_eq!(out["dialect_fields"], json!({"copilot": {"modifiedResponse": "formatted"}}));
    assert_eq!(out["block_reason"], "verify first");
}

/// "`modifiedResult` ... Replacement tool result" and "When multiple hooks
/// return `additionalContext`, the results are joined" — the redactor users
/// write (Node) and a second context hook.
#[test]
fn post_tool_use_modified_result_is_a_dialect_field_and_contexts_are_all_kept() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "postToolUse",
        vec![bash(format!("node '{}'", fixture("redact.js"))), bash(say(json!({"additionalContext": "second"})))],
    ));
    let out = run(
        &e,
        HookEvent::PostToolUse,
        json!({"tool_name": "bash", "tool_input": {"command": "env"}, "tool_response": "GH=ghp_abc123"}),
    );
    assert_eq!(
        out["dialect_fields"]["copilot"]["modifiedResult"],
        json!({"resultType": "success", "textResultForLlm": "GH=[REDACTED]"})
    );
    assert_eq!(out["additional_context"], json!(["A token was redacted from the output of bash", "second"]));
}

/// postToolUse `decision: "block"` + `reason`: the result is replaced by the
/// reason and later hooks are skipped.
#[test]
fn post_tool_use_block_is_feedback_and_stops_later_hooks() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "postToolUse",
        vec![
            bash(say(json!({"decision": "block", "reason": "secret in output"}))),
            bash("cat >/dev/null; touch later"),
        ],
    ));
    let out = run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
    assert_eq!(out["block_reason"], "secret in output");
    assert!(!ws.file("later").exists());
}

/// sessionStart: top-level `additionalContext` is injected; with several
/// hooks the later one's context overrides the earlier (one survives).
#[test]
fn session_start_context_later_overrides_earlier() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "sessionStart",
        vec![bash(fixture("session_context.sh")), bash(say(json!({"additionalContext": {"team": "core"}})))],
    ));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["additional_context"], json!([r#"{"team":"core"}"#]), "a non-string is its JSON text");
    let ws = Ws::new();
    let out = run(
        &ws.engine(hooks("sessionStart", vec![bash(fixture("session_context.sh"))])),
        HookEvent::SessionStart,
        json!({}),
    );
    assert!(out["additional_context"][0].as_str().unwrap().starts_with("Current branch: "), "{out}");
}

/// "`modifiedPrompt` is only honored by SDK programmatic hooks. Command and
/// HTTP config-file `userPromptSubmitted` hooks have their output dropped."
#[test]
fn user_prompt_submitted_output_is_dropped() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "userPromptSubmitted",
        vec![bash(say(json!({"decision": "block", "reason": "no", "modifiedPrompt": "x", "additionalContext": "c"})))],
    ));
    let out = run(&e, HookEvent::UserPromptSubmit, input(HookEvent::UserPromptSubmit));
    assert_eq!((out["allow_prompt"].clone(), out["additional_context"].clone()), (json!(true), json!([])));
    assert!(out.get("dialect_fields").is_none());
}

/// subagentStart: "`additionalContext` is prepended to the subagent's
/// prompt"; notification: "the text is injected into the session" — no
/// canonical slot, so both are dialect fields.
#[test]
fn subagent_start_and_notification_context_are_dialect_fields() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "subagentStart": [with(bash(say(json!({"additionalContext": "follow the style guide"}))), "matcher", json!("explore"))],
        "notification": [with(bash(say(json!({"additionalContext": "the shell finished"}))), "matcher", json!("shell_.*"))],
    }}));
    let out = run(&e, HookEvent::SubagentStart, input(HookEvent::SubagentStart));
    assert_eq!(out["dialect_fields"], json!({"copilot": {"additionalContext": "follow the style guide"}}));
    let idle = run(&e, HookEvent::Notification, input(HookEvent::Notification));
    assert!(idle.get("dialect_fields").is_none(), "the matcher is tested against notification_type");
    let done = run(&e, HookEvent::Notification, json!({"notification_type": "shell_completed", "message": "m"}));
    assert_eq!(done["dialect_fields"]["copilot"]["additionalContext"], "the shell finished");
}

/// Events without a canonical meaning fire by name with the vendor's
/// rules: `userPromptTransformed`'s `modifiedTransformedPrompt` (an empty
/// one is rejected), `preMcpToolCall`'s `metaToUse` with its matcher on
/// `"<server>/<tool>"`, `errorOccurred` (output ignored).
#[test]
fn native_events_fire_by_name_with_their_fields() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "userPromptTransformed": [bash(say(json!({"modifiedTransformedPrompt": "rewritten"}))), bash(say(json!({"modifiedTransformedPrompt": ""})))],
        "preMcpToolCall": [with(bash(say(json!({"metaToUse": {"traceId": "t-1"}}))), "matcher", json!("github/.*"))],
        "errorOccurred": [recorder(&ws, "errors")],
    }}));
    let out = e
        .run_named_blocking("userPromptTransformed", &json!({"prompt": "p", "transformedPrompt": "tp"}))
        .unwrap()
        .to_json();
    assert_eq!(out["dialect_fields"]["copilot"]["modifiedTransformedPrompt"], "rewritten");
    assert!(texts(&out, "warning")[0].contains("empty modifiedTransformedPrompt"), "{out}");
    let mcp = |tool: &str| e.run_named_blocking("preMcpToolCall", &json!({"matcher_value": tool})).unwrap().to_json();
    assert_eq!(mcp("github/create_issue")["dialect_fields"]["copilot"]["metaToUse"], json!({"traceId": "t-1"}));
    assert!(mcp("jira/create").get("dialect_fields").is_none());
    let err = json!({"error": {"message": "rate limited", "name": "Error"}, "errorContext": "model_call", "recoverable": true});
    e.run_named_blocking("errorOccurred", &err).unwrap();
    let p = &recorded(&ws, "errors")[0];
    assert_eq!((p["errorContext"].clone(), p["sessionId"].clone()), (json!("model_call"), json!("s-1")));
}

/// Outcomes without dialect fields keep their exact text (no
/// `dialect_fields` key at all).
#[test]
fn outcomes_without_dialect_fields_do_not_mention_them() {
    let ws = Ws::new();
    let e = ws.engine(hooks("postToolUse", vec![bash(say(json!({"additionalContext": "x"})))]));
    let text = e.run_blocking_json(HookEvent::PostToolUse, &input(HookEvent::PostToolUse)).unwrap();
    assert!(!text.contains("dialect_fields"), "{text}");
}

// ------------------------------------------------------------ matchers

/// "compiled as `^(?:PATTERN)$`, and must match the entire tool name" —
/// against runtime names (`bash`, not `Bash`).
#[test]
fn native_matchers_are_anchored_against_runtime_tool_names() {
    let ws = Ws::new();
    let deny = |m: &str| {
        with(bash(say(json!({"permissionDecision": "deny", "permissionDecisionReason": m}))), "matcher", json!(m))
    };
    let e = ws.engine(hooks("preToolUse", vec![deny("Bash"), deny("ba"), deny("bash|edit")]));
    // The host names the tool the Claude Code way: it is Copilot CLI's `bash`.
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {}}));
    assert_eq!(out["reason"], "bash|edit", "`Bash` and `ba` never match the runtime name");
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "edit", "tool_input": {}}));
    assert_eq!(out["reason"], "bash|edit");
    assert_eq!(run(&e, HookEvent::PreToolUse, json!({"tool_name": "view", "tool_input": {}}))["decision"], "continue");
}

/// "Claude-format matchers (PascalCase `PreToolUse`): `*`, `**`, or an
/// empty `matcher` value fires for every tool. A literal name or
/// `|`-separated alternation ... fires when any token equals the runtime
/// tool name or its Claude tool name ... Any other value is treated as a
/// case-sensitive regex anchored as `^(?:PATTERN)$` tested against the
/// Claude tool name."
#[test]
fn pascal_case_tool_matchers_use_claude_format() {
    let ws = Ws::new();
    let tag = |m: &str, t: &str| with(bash(format!("cat >/dev/null; echo {t} >> matched")), "matcher", json!(m));
    let e = ws.engine(json!({"hooks": {"PreToolUse": [
        tag("Edit|Write", "edit-write"), tag("bash", "runtime"), tag("Bash", "claude"), tag("Re.*", "regex"),
        tag("**", "all"), tag("vi.*", "runtime-regex"),
    ]}}));
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "create", "tool_input": {}}));
    assert_eq!(ws.read("matched"), "edit-write\nall\n");
    std::fs::remove_file(ws.file("matched")).unwrap();
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "bash", "tool_input": {}}));
    assert_eq!(ws.read("matched"), "runtime\nclaude\nall\n");
    std::fs::remove_file(ws.file("matched")).unwrap();
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "view", "tool_input": {}}));
    assert_eq!(ws.read("matched"), "regex\nall\n", "a regex is tested against the Claude name only");
}

/// "Other events have no matcher (a `matcher` there is ignored)."
#[test]
fn a_matcher_on_an_event_without_one_is_ignored() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "agentStop",
        vec![with(bash(say(json!({"decision": "block", "reason": "r"}))), "matcher", json!("("))],
    ));
    assert!(e.config_warnings().is_empty(), "not even compiled");
    assert_eq!(run(&e, HookEvent::Stop, input(HookEvent::Stop))["block_reason"], "r");
    // Not even its type is checked: the entry runs, in a settings file too.
    let stop = |m: Value| with(bash(say(json!({"decision": "block", "reason": "typed"}))), "matcher", m);
    let path = ws.write(
        ".github/copilot/settings.json",
        &json!({"hooks": {"agentStop": [stop(json!(5)), {"matcher": ["x"], "hooks": [bash("true")]}]}}).to_string(),
    );
    let e = ws.engine_of_file(&path);
    assert!(e.config_warnings().is_empty(), "{:?}", e.config_warnings());
    let out = run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert_eq!(ran(&out), 2, "{out}");
}

/// "`matcher` | non-empty string | on `preToolUse preMcpToolCall postToolUse
/// subagentStart preCompact permissionRequest notification` only" and
/// "Hooks defined inline in `settings.json` remain strict: any item-level
/// validation error rejects the whole `hooks` field": an empty or
/// non-string matcher there is a malformed entry (dropped from a hooks
/// file, rejecting inline hooks), not a regex that fails to compile.
#[test]
fn an_empty_or_non_string_matcher_is_a_malformed_entry() {
    let ws = Ws::new();
    for bad in [json!(""), json!(["bash"])] {
        let entries = vec![with(bash("true"), "matcher", bad.clone()), bash("true")];
        let e = ws.engine(hooks("preToolUse", entries.clone()));
        assert_eq!(e.config_warnings().len(), 1, "{bad}");
        assert_eq!(ran(&pre_tool(&e, "ls")), 1, "{bad}");
        let path = ws.write(".github/copilot/settings.json", &json!({"hooks": {"preToolUse": entries}}).to_string());
        let err = ws.try_engine_with(json!({"hooks_file": path})).unwrap_err();
        assert_eq!(err.status, Status::InvalidConfig, "{bad}");
    }
    // Under a PascalCase tool event an empty matcher is Claude's "every tool".
    let e = ws.engine(hooks("PreToolUse", vec![with(bash("true"), "matcher", json!(""))]));
    assert!(e.config_warnings().is_empty());
    assert_eq!(ran(&pre_tool(&e, "ls")), 1);
}

// ----------------------------------------------------- several dialects

/// Sources of several dialects in one engine: a Copilot CLI hooks file and
/// a Claude Code settings file. Each hook reads its own payload and is read
/// by its own rules (the Copilot hook's crash still denies); the run merges
/// with the most restrictive rule.
#[test]
fn copilot_and_claude_code_sources_run_together() {
    let ws = Ws::new();
    let copilot = ws
        .hooks_file("guard.json", &hooks("preToolUse", vec![recorder(&ws, "copilot"), bash("cat >/dev/null; exit 1")]));
    let claude = ws.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": format!(
            "cat > '{}'; echo '{}'", ws.file("claude").display(),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}})
        )}]}]}})
        .to_string(),
    );
    let e = ws.try_engine_with(json!({"hook_sources": [{"hooks_file": copilot}, {"hooks_file": claude}]})).unwrap();
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}));
    assert_eq!(out["decision"], "deny", "the Copilot hook's crash denies; deny beats the Claude hook's allow: {out}");
    assert_eq!(ran(&out), 3);
    assert_eq!(recorded(&ws, "copilot")[0]["toolArgs"], r#"{"command":"ls"}"#);
    let claude_payload: Value = serde_json::from_str(&ws.read("claude")).unwrap();
    assert_eq!(claude_payload["tool_input"], json!({"command": "ls"}));
    let dialects: Vec<Option<&str>> = e.command_previews().into_iter().map(|p| p.dialect).collect();
    assert_eq!(dialects, [Some("copilot"), Some("copilot"), None]);
}

// -------------------------------------------------------------- digest

/// Digest lines name the dialect for dialects other than VT Code and
/// Claude Code, and cover how a command starts (its shell or program, its
/// `cwd`, its `env`): changing any of them changes the digest.
#[test]
fn the_digest_names_the_dialect_and_covers_cwd_env_and_exec() {
    let digest = |entry: Value| {
        let ws = Ws::new();
        ws.engine(hooks("preToolUse", vec![entry])).command_digest()
    };
    let base = digest(bash("./check.sh"));
    assert_ne!(base, digest(with(bash("./check.sh"), "cwd", json!("scripts"))));
    assert_ne!(base, digest(with(bash("./check.sh"), "env", json!({"LEVEL": "strict"}))));
    // `command` runs as `bash` on Unix, and the PowerShell script never runs here.
    assert_eq!(base, digest(json!({"type": "command", "command": "./check.sh", "powershell": "./check.ps1"})));
    assert_ne!(base, digest(json!({"type": "command", "exec": "./check.sh"})));
    // The same command in a Claude Code settings file digests as it always did.
    let ws = Ws::new();
    let claude = ws.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 10}]}]}}).to_string(),
    );
    assert_eq!(
        ws.engine_of_file(&claude).command_digest(),
        "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89"
    );
}

/// Bad input gives a clear `InvalidConfig` (or a skipped, reported entry),
/// never a panic: hostile shapes through the Copilot CLI and VS Code readers,
/// as hooks files and as settings files.
#[test]
fn hostile_configs_are_rejected_or_skipped_never_a_panic() {
    use hookline::config::SourceInfo;
    let values = [
        json!(null),
        json!([]),
        json!("x"),
        json!({"hooks": []}),
        json!({"hooks": {"preToolUse": null}}),
        json!({"version": "1"}),
        json!({"version": 1.5, "hooks": {}}),
        json!({"disableAllHooks": "yes"}),
        json!({"hooks": {"preToolUse": [null, 1, [], {"hooks": 3}, {"hooks": [{"bash": 1}]}, {"matcher": 5, "hooks": []}]}}),
        json!({"hooks": {"preToolUse": [{"bash": "x", "timeoutSec": "5"}, {"bash": "x", "timeoutSec": 1e308}, {"bash": "x", "timeout": -0.0}]}}),
        json!({"hooks": {"preToolUse": [{"bash": "x", "matcher": "(".repeat(10_000)}, {"bash": "x", "matcher": "\\w{100}"}]}}),
        json!({"hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "x", "cwd": 3}]}]}}),
        json!({"hooks": {"preToolUse": [{"exec": "", "args": []}, {"exec": "x", "args": [1]}, {"type": 7, "bash": "x"}]}}),
        json!({"hooks": {"": [], "sessionStart": [{"bash": "x", "env": {"": "v", "K": null}}]}}),
    ];
    for path in
        [None, Some(PathBuf::from("/w/.github/hooks/a.json")), Some(PathBuf::from("/w/.github/copilot/settings.json"))]
    {
        for d in [hookline::dialect::COPILOT, hookline::dialect::VSCODE] {
            for v in &values {
                let info = SourceInfo { path: path.clone(), ..SourceInfo::new(d) };
                if let Err(e) = HooksConfig::read(v, &info) {
                    assert_eq!(e.status, Status::InvalidConfig, "{} {v}: {e}", d.name());
                    assert!(!e.message.is_empty());
                }
            }
        }
    }
}

/// Copilot CLI reads the fields it knows and ignores any other key of an
/// entry; hookline loads the entry too and names each other key, with a
/// did-you-mean (a hookline addition: Copilot CLI says nothing).
#[test]
fn unknown_entry_fields_are_ignored_and_reported() {
    let ws = Ws::new();
    let e = ws.engine(hooks(
        "preToolUse",
        vec![json!({"type": "command", "bash": say(json!({"permissionDecision": "deny", "permissionDecisionReason": "loaded"})), "timeoutSecs": 5, "note": "x"})],
    ));
    let w = e.config_warnings();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w.iter().all(|w| w.path.ends_with("hooks.preToolUse[0]")), "{w:?}");
    assert!(
        w.iter().any(|w| w.message.contains("unknown field `timeoutSecs` is ignored; did you mean `timeoutSec`?")),
        "{w:?}"
    );
    assert!(w.iter().any(|w| w.message.contains("unknown field `note` is ignored")), "{w:?}");
    assert_eq!(pre_tool(&e, "ls")["decision"], "deny", "the entry still loads");
}

// ------------------------------------------------ review: vendor scenarios

/// "The schema is `passthrough` (unknown keys survive but are not run)":
/// an unknown key is not an event, so its value is not validated — only
/// "an event value that is not an array" rejects the file.
#[test]
fn an_unknown_key_with_a_non_array_value_does_not_reject_the_file() {
    let ws = Ws::new();
    let config = json!({"version": 1, "hooks": {
        "preToolUse": [bash(say(json!({"permissionDecision": "deny", "permissionDecisionReason": "no"})))],
        "_comment": "guards for this repo",
        "x-owner": {"team": "infra"},
    }});
    let e = ws.engine(config);
    let w = e.config_warnings();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w.iter().all(|w| w.message.contains("unknown event key")), "{w:?}");
    assert_eq!(pre_tool(&e, "ls")["decision"], "deny", "the file's hooks load");
    // A known event's value that is not an array still rejects the file.
    let path = ws.hooks_file("b.json", &json!({"hooks": {"agentStop": "x", "_comment": "c"}}));
    assert_eq!(ws.try_engine_with(json!({"hooks_file": path})).unwrap_err().status, Status::InvalidConfig);
    // So does a PascalCase alias's, or an event without a canonical
    // meaning's, in a hooks file or a settings file.
    for hooks in [json!({"Stop": {"hooks": []}}), json!({"errorOccurred": null}), json!({"PreToolUse": 1})] {
        for rel in [".github/hooks/c.json", ".github/copilot/settings.json"] {
            let path = ws.write(rel, &json!({"hooks": hooks}).to_string());
            let e = ws.try_engine_with(json!({"hooks_file": path})).unwrap_err();
            assert_eq!(e.status, Status::InvalidConfig, "{rel} {hooks}");
        }
    }
}

/// postToolUse "`decision:"block"` + `reason` ([CP63] only): result
/// replaced by `Tool result blocked: <reason>` (`resultType:"denied"`),
/// later hooks skipped, contexts discarded" — the reason replaces the
/// result, it is not feedback next to it.
#[test]
fn post_tool_use_block_replaces_the_tool_result() {
    let ws = Ws::new();
    let e =
        ws.engine(hooks("postToolUse", vec![bash(say(json!({"decision": "block", "reason": "secret in output"})))]));
    let out = run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
    assert_eq!(out["block_reason"], "secret in output");
    assert_eq!(out["block_replaces_result"], true, "{out}");
    // "later hooks skipped, contexts discarded": an earlier hook's context
    // goes with the result it was meant for.
    let e = ws.engine(hooks(
        "postToolUse",
        vec![
            bash(say(json!({"additionalContext": "earlier guidance"}))),
            bash(say(json!({"decision": "block", "reason": "secret in output", "additionalContext": "own"}))),
        ],
    ));
    let out = run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
    assert_eq!(out["block_reason"], "secret in output");
    assert_eq!(out["additional_context"], json!([]), "{out}");
    // Without a block the result stands (the key is absent).
    let e = ws.engine(hooks("postToolUse", vec![bash(say(json!({"additionalContext": "note"})))]));
    let out = run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
    assert!(out.get("block_replaces_result").is_none(), "{out}");
}

/// "`postToolUse` matchers were silently ignored before [CL 1.0.63]" — now
/// "Optional regex tested against `toolName` ... compiled as
/// `^(?:PATTERN)$`, and must match the entire tool name".
#[test]
fn post_tool_use_matchers_are_applied_to_runtime_names() {
    let ws = Ws::new();
    let ctx = |m: &str| with(bash(say(json!({"additionalContext": m}))), "matcher", json!(m));
    let e = ws.engine(hooks("postToolUse", vec![ctx("bash|edit"), ctx("Bash"), ctx("edi")]));
    let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "edit", "tool_input": {}, "tool_response": "ok"}));
    assert_eq!(out["additional_context"], json!(["bash|edit"]));
    let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "view", "tool_input": {}, "tool_response": "ok"}));
    assert_eq!(out["additional_context"], json!([]));
}

/// "Claude-format matchers (PascalCase `PermissionRequest`): Hooks
/// configured with the PascalCase event name `PermissionRequest` use the
/// same Claude matcher semantics as `PreToolUse`"; `powershell` →
/// `Bash, PowerShell`, `task` → `Agent` ("the literal `Task` is also
/// accepted").
#[test]
fn pascal_permission_request_matchers_are_claude_format_with_every_claude_name() {
    let ws = Ws::new();
    let deny = |m: &str| with(bash(say(json!({"behavior": "deny", "message": m}))), "matcher", json!(m));
    let e = ws.engine(json!({"hooks": {"PermissionRequest": [deny("PowerShell"), deny("Task"), deny("Wr.*")]}}));
    let ask = |tool: &str| {
        run(&e, HookEvent::PermissionRequest, json!({"tool_name": tool, "tool_input": {}, "permission_request": {}}))
    };
    assert_eq!(ask("powershell")["decision"]["message"], "PowerShell");
    assert_eq!(ask("task")["decision"]["message"], "Task");
    assert_eq!(ask("create")["decision"]["message"], "Wr.*", "a regex is tested against the Claude name `Write`");
    assert!(ask("bash")["decision"].is_null(), "`bash` has only the Claude name `Bash`");
    // Under the camelCase key the same matchers are native regexes against
    // the runtime name: none of them matches.
    let e = ws.engine(json!({"hooks": {"permissionRequest": [deny("PowerShell"), deny("Task")]}}));
    let out =
        run(&e, HookEvent::PermissionRequest, json!({"tool_name": "task", "tool_input": {}, "permission_request": {}}));
    assert!(out["decision"].is_null(), "{out}");
}

/// Matcher subjects: "`subagentStart` | `agentName`", "`preCompact` |
/// `trigger` (`"manual"` or `"auto"`)", "`notification` |
/// `notification_type`", each anchored as `^(?:PATTERN)$`.
#[test]
fn subagent_start_pre_compact_and_notification_match_their_own_subjects() {
    let ws = Ws::new();
    let tag = |m: &str, t: &str| with(bash(format!("cat >/dev/null; echo {t} >> matched")), "matcher", json!(m));
    let e = ws.engine(json!({"version": 1, "hooks": {
        "subagentStart": [tag("explore", "explore"), tag("expl", "prefix")],
        "preCompact": [tag("manual", "manual")],
        "notification": [tag("agent_.*", "agent")],
    }}));
    run(&e, HookEvent::SubagentStart, input(HookEvent::SubagentStart));
    run(&e, HookEvent::PreCompact, json!({"trigger": "auto"}));
    run(&e, HookEvent::PreCompact, json!({"trigger": "manual"}));
    run(&e, HookEvent::Notification, input(HookEvent::Notification));
    run(&e, HookEvent::Notification, json!({"notification_type": "shell_completed", "message": "m"}));
    assert_eq!(ws.read("matched"), "explore\nmanual\nagent\n");
}

/// The PascalCase PostToolUse payload: "`tool_name`, `tool_input`,
/// `tool_result: {result_type: "success", text_result_for_llm}`", with the
/// Claude tool name; SubagentStart keeps its camelCase shape under a
/// PascalCase key ("their builders ignore `_vsCodeCompat`").
#[test]
fn pascal_post_tool_use_payload_and_subagent_start_keeps_camel_case() {
    let ws = Ws::new();
    let e =
        ws.engine(json!({"hooks": {"PostToolUse": [recorder(&ws, "post")], "SubagentStart": [recorder(&ws, "sub")]}}));
    run(&e, HookEvent::PostToolUse, json!({"tool_name": "view", "tool_input": {"path": "a"}, "tool_response": "text"}));
    let p = &recorded(&ws, "post")[0];
    assert_eq!(p["hook_event_name"], "PostToolUse");
    assert_eq!(p["tool_name"], "Read");
    assert_eq!(p["tool_input"], json!({"path": "a"}));
    assert_eq!(p["tool_result"], json!({"result_type": "success", "text_result_for_llm": "text"}));
    assert!(p["timestamp"].is_string());
    run(&e, HookEvent::SubagentStart, input(HookEvent::SubagentStart));
    let p = &recorded(&ws, "sub")[0];
    assert_eq!((p["agentName"].clone(), p["sessionId"].clone()), (json!("explore"), json!("s-1")));
    assert!(p["timestamp"].is_u64() && p.get("hook_event_name").is_none(), "{p}");
}

/// "`2` | **warning by default**: stderr is surfaced to the user ... and
/// **stdout is still parsed**" — on sessionStart too: its context stands.
#[test]
fn session_start_exit_2_is_a_warning_and_its_context_stands() {
    let ws = Ws::new();
    let script = format!("{}; echo 'heads up' >&2; exit 2", say(json!({"additionalContext": "repo notes"})));
    let e = ws.engine(hooks("sessionStart", vec![bash(script)]));
    let out = run(&e, HookEvent::SessionStart, input(HookEvent::SessionStart));
    assert_eq!(out["additional_context"], json!(["repo notes"]), "{out}");
    assert!(texts(&out, "warning").iter().any(|t| t.contains("heads up")), "{out}");
    assert!(out["hooks"][0].get("failure").is_none_or(Value::is_null), "not a failure: {out}");
}

/// "Loaded in this order and **concatenated per event** (all entries from
/// all sources run): 1. Policy hooks — `/etc/github-copilot/policy.d/*.json`
/// (alphabetical; must be root-owned, not group/world-writable) … 2. User:
/// `~/.copilot/hooks/*.json` … 3. Repository: `.github/hooks/*.json` in the
/// repo root … then inline `hooks` of `.github/copilot/settings.json`,
/// `.github/copilot/settings.local.json`". The files a host of Copilot CLI
/// reads are found by those patterns, every `*.json` of the directories.
#[test]
fn the_files_copilot_cli_reads_are_found_in_its_directories_in_order() {
    use std::os::unix::fs::PermissionsExt;
    let ws = Ws::new();
    let project = ws.file("ws");
    let home = ws.file("home");
    let root = ws.file("root");
    for rel in [
        "ws/.github/hooks/b.json",
        "ws/.github/hooks/a.json",
        "ws/.github/hooks/notes.txt",
        "ws/.github/copilot/settings.json",
        "home/.copilot/hooks/audit.json",
        "root/etc/github-copilot/policy.d/10-org.json",
        "root/etc/github-copilot/policy.d/00-base.json",
        "root/etc/github-copilot/policy.d/20-open.json",
    ] {
        ws.write(rel, "{}");
    }
    // A policy file others may write is not a policy file.
    let open = ws.file("root/etc/github-copilot/policy.d/20-open.json");
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o666)).unwrap();
    let found: Vec<(String, bool)> = hookline::dialect::settings_files_under(&project, Some(&home), &root)
        .into_iter()
        .filter(|f| f.dialect.name() == "copilot")
        .map(|f| (f.path.strip_prefix(ws.path()).unwrap().display().to_string(), f.trusted))
        .collect();
    let mut want = vec![
        ("home/.copilot/hooks/audit.json".to_owned(), true),
        ("ws/.github/hooks/a.json".to_owned(), false),
        ("ws/.github/hooks/b.json".to_owned(), false),
        ("ws/.github/copilot/settings.json".to_owned(), false),
    ];
    let root_owned = std::fs::metadata(&open).map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0).unwrap();
    if root_owned {
        want.insert(0, ("root/etc/github-copilot/policy.d/10-org.json".to_owned(), true));
        want.insert(0, ("root/etc/github-copilot/policy.d/00-base.json".to_owned(), true));
    }
    assert_eq!(found, want);
}

/// "3. Repository: `.github/hooks/*.json` in the repo root …, then inline
/// `hooks` of `.github/copilot/settings.json`,
/// `.github/copilot/settings.local.json`, and the cross-tool
/// `.claude/settings.json`, `.claude/settings.local.json`." A host of
/// Copilot CLI alone reads the repository's Claude Code settings too, in
/// this dialect, after its own files; among every dialect's files they
/// stay Claude Code's.
#[test]
fn a_host_of_copilot_cli_reads_the_repositorys_claude_settings_after_its_own() {
    let ws = Ws::new();
    ws.write(".claude/settings.local.json", "{}");
    ws.write(".claude/settings.json", "{}");
    ws.write(".github/hooks/a.json", "{}");
    let copilot = hookline::dialect::by_name("copilot").unwrap();
    let borrowed: Vec<(String, &str)> = hookline::dialect::borrowed_settings_files(ws.path(), copilot)
        .into_iter()
        .map(|f| (f.path.strip_prefix(ws.path()).unwrap().display().to_string(), f.dialect.name()))
        .collect();
    assert_eq!(
        borrowed,
        [(".claude/settings.json".to_owned(), "copilot"), (".claude/settings.local.json".to_owned(), "copilot")]
    );
    let claude_files = hookline::dialect::settings_files(ws.path(), None)
        .into_iter()
        .filter(|f| f.path.to_string_lossy().contains(".claude"))
        .map(|f| f.dialect.name())
        .collect::<Vec<_>>();
    assert_eq!(claude_files, ["claude", "claude"]);
}
