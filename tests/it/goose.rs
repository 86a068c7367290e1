//! The goose dialect (Open Plugins hooks) with real hooks: a plugin's
//! `.agents/plugins/<plugin>/hooks/hooks.json` in a temporary workspace,
//! `sh -c` commands, and the rules of goose's plugin hook engine (block/goose
//! `crates/goose/src/hooks/mod.rs` @0825b570, "goose"; its tests re-created)
//! and of the Open Plugins hooks specification (open-plugins.com v1.0.0,
//! "OP"). Each test quotes the rule it proves.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use hookline::{dialect, CallResult, HookEvent, LifecycleHookEngine, Reply};
use serde_json::{json, Value};

use crate::support::{run, texts, Ws};

/// Engines of one plugin's `hooks/hooks.json` (recognised by its path).
trait Engines {
    fn plugin(&self, name: &str, hooks: Value) -> PathBuf;
    fn engine(&self, hooks: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn plugin(&self, name: &str, hooks: Value) -> PathBuf {
        self.write_json(&format!(".agents/plugins/{name}/hooks/hooks.json"), &json!({ "hooks": hooks }))
    }
    fn engine(&self, hooks: Value) -> LifecycleHookEngine {
        let path = self.plugin("p", hooks);
        self.engine_with(json!({ "hooks_file": path }))
    }
}

/// `event` with one rule (`matcher` when given) of `actions`.
fn rule(event: &str, matcher: Option<&str>, actions: Vec<Value>) -> Value {
    let mut r = json!({ "hooks": actions });
    if let Some(m) = matcher {
        r["matcher"] = json!(m);
    }
    json!({ event: [r] })
}

/// goose's test helper `action`: `{"type": "command", "command": …}`.
fn action(command: &str) -> Value {
    json!({"type": "command", "command": command})
}

/// goose's `blocking_action`: the same with `"on_failure": "block"`.
fn blocking_action(command: &str) -> Value {
    json!({"type": "command", "command": command, "on_failure": "block"})
}

fn shell(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "call-1"})
}

fn denied(out: &Value) -> Option<&str> {
    (out["decision"] == "deny").then(|| out["reason"].as_str().unwrap_or(""))
}

/// goose `classify_output`: "1. exit 2 denies, reason from stderr 2.
/// `{\"decision\":\"block\"}` denies whatever the exit status 3. exit 0
/// with no output allows 4. exit 0 with `{\"decision\":\"allow\"}` allows 5.
/// anything else produced no decision", through real processes
/// (`decisions_survive_the_on_failure_change`, `stop_hook_emit_blocking_returns_denial`).
#[test]
fn the_strict_decision_table_through_real_hooks() {
    let ws = Ws::new();
    let case = |command: &str| {
        run(&ws.engine(rule("PreToolUse", None, vec![action(command)])), HookEvent::PreToolUse, shell("ls"))
    };
    let out = case("echo refused by policy >&2; exit 2");
    assert_eq!(denied(&out), Some("refused by policy"), "{out}");
    assert_eq!(denied(&case("exit 2")), Some("denied by plugin hook"));
    let out = case(r#"printf '%s' '{"decision":"block","reason":"nope"}'; exit 1"#);
    assert_eq!(denied(&out), Some("nope"), "{out}");
    for allow in ["exit 0", r#"printf '%s' '{"decision":"allow"}'"#] {
        let out = case(allow);
        assert_eq!(denied(&out), None, "{out}");
        assert!(out["hooks"][0]["failure"].is_null(), "{allow}: {out}");
    }
    // "Only those two allow shapes count, so a hook that logs to stdout
    // reads as a failure rather than an allow."
    for (command, reason) in [
        ("echo checking policy", "the hook exited 0 without an allow or block decision on stdout"),
        (r#"printf '%s' '{"decision":"allow"}'; exit 1"#, "the hook exited with status 1 and no usable decision"),
        ("exit 3", "the hook exited with status 3 and no usable decision"),
        ("kill -9 $$", "the hook was terminated by a signal"),
        (r#"printf '{"decision":"allow","reason":"\377"}'"#, "the hook wrote invalid UTF-8 to stdout"),
    ] {
        let out = case(command);
        assert_eq!(denied(&out), None, "{command}: fails open by default: {out}");
        assert!(!out["hooks"][0]["failure"].is_null(), "{command}: {out}");
        assert!(texts(&out, "warning").iter().any(|t| t.contains("no decision")), "{command}: {out}");
        // "`on_failure: block` turns a failure into a denial for `PreToolUse`".
        let blocked = run(
            &ws.engine(rule("PreToolUse", None, vec![blocking_action(command)])),
            HookEvent::PreToolUse,
            shell("ls"),
        );
        assert_eq!(denied(&blocked), Some(reason), "{command}: {blocked}");
    }
}

/// goose's "allow" is "no objection": "A hook reports a decision by exiting
/// 0 with no output, exiting 0 with `{\"decision\":\"allow\"}`, ...", and the
/// chain goes on to the next hook, which may still deny
/// (`a_policy_denial_after_a_fail_open_failure_reports_the_denial`). An
/// allow never becomes a canonical allow (which would skip the host's own
/// permission checks).
#[test]
fn an_allow_is_no_objection_and_the_chain_goes_on() {
    let ws = Ws::new();
    let e = ws.engine(rule(
        "PreToolUse",
        None,
        vec![
            action(r#"printf '%s' '{"decision":"allow"}'"#),
            action("exit 3"),
            action(r#"printf '%s' '{"decision":"block","reason":"nope"}'"#),
        ],
    ));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(denied(&out), Some("nope"), "{out}");
    let e = ws.engine(rule("PreToolUse", None, vec![action(r#"printf '%s' '{"decision":"allow"}'"#)]));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_ne!(out["decision"], "allow", "no canonical allow: {out}");
    assert_ne!(out["decision"], "deny", "{out}");
}

/// `a_block_mode_failure_stops_the_chain`: "the chain must stop at the
/// denial"; `a_block_mode_failure_denies_without_losing_an_earlier_decision`.
#[test]
fn a_denial_stops_the_chain() {
    let ws = Ws::new();
    let e = ws.engine(rule("PreToolUse", None, vec![blocking_action("exit 3"), action("touch later-ran.txt")]));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(denied(&out), Some("the hook exited with status 3 and no usable decision"), "{out}");
    assert!(!ws.exists("later-ran.txt"), "the chain must stop at the denial");
    let e = ws.engine(rule("PreToolUse", None, vec![action("exit 0"), blocking_action("exit 3")]));
    assert!(denied(&run(&e, HookEvent::PreToolUse, shell("ls"))).is_some());
}

/// "`on_failure: block` is honoured for `PreToolUse` only. The same chain
/// serves the `Stop` hook, where a broken hook must never block a finished
/// turn"; a Stop hook's explicit block does block
/// (`stop_hook_emit_blocking_returns_denial`: "say something first").
#[test]
fn stop_blocks_on_a_decision_and_never_on_a_failure() {
    let ws = Ws::new();
    let e = ws.engine(rule("Stop", None, vec![blocking_action("exit 3")]));
    assert!(e.config_warnings().iter().any(|w| w.message.contains("PreToolUse only")));
    let out = run(&e, HookEvent::Stop, json!({}));
    assert!(out["block_reason"].is_null(), "Stop must stay fail-open: {out}");
    assert!(!out["hooks"][0]["failure"].is_null(), "{out}");
    let e = ws.engine(rule(
        "Stop",
        None,
        vec![action(r#"printf '%s' '{"decision":"block","reason":"say something first"}'"#)],
    ));
    let out = run(&e, HookEvent::Stop, json!({"last_assistant_message": "done"}));
    assert_eq!(out["block_reason"], "say something first", "{out}");
}

/// "the zero timeout elapses before the child can report" (goose's
/// `subprocess_failures_fail_open_by_default_and_block_when_configured`,
/// `"command":"sleep 30","timeout":0`): a timed-out hook gave no decision;
/// under `on_failure: block` the call is denied with goose's fixed reason
/// ("the external reason must be the fixed string"), which never names the
/// command (`a_blocked_execution_failure_never_leaks_the_command_or_path`).
#[test]
fn timeout_zero_elapses_at_once() {
    let ws = Ws::new();
    let mut slow = blocking_action("sleep 30 # s3cr3t-token");
    slow["timeout"] = json!(0);
    let e = ws.engine(rule("PreToolUse", None, vec![slow.clone()]));
    let started = Instant::now();
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(out["hooks"][0]["failure"], "timeout", "{out}");
    let reason = denied(&out).expect("denied under on_failure block");
    assert_eq!(reason, "the hook command failed to run");
    for leaked in ["s3cr3t-token", "sleep 30", "timed out"] {
        assert!(!reason.contains(leaked), "denial reason leaked {leaked:?}: {reason}");
    }
    slow["on_failure"] = json!("allow");
    let out = run(&ws.engine(rule("PreToolUse", None, vec![slow])), HookEvent::PreToolUse, shell("ls"));
    assert_eq!(denied(&out), None, "a timeout fails open by default: {out}");
}

/// goose's default: "Default per-hook timeout when the plugin does not
/// specify one" is 30 s; `timeout` is seconds.
#[test]
fn timeouts_are_seconds_and_default_to_30() {
    let ws = Ws::new();
    let mut slow = action("sleep 5; exit 2");
    slow["timeout"] = json!(1);
    let e = ws.engine(rule("PreToolUse", None, vec![slow, action("exit 0")]));
    let started = Instant::now();
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
    assert_eq!(out["hooks"][0]["failure"], "timeout", "{out}");
    let cfg =
        hookline::config::HooksConfig::read_file(&ws.file(".agents/plugins/p/hooks/hooks.json"), None, false, None)
            .unwrap();
    assert_eq!(cfg.groups(HookEvent::PreToolUse)[0].hooks[1].timeout(), Duration::from_secs(30));
}

/// goose's `HookContext` on stdin: `event`, `session_id`, `matcher_context`
/// ("the string the rule's `matcher` regex is tested against"),
/// `tool_call_id` ("the same value goose records as `gen_ai.tool.call.id`"),
/// `tool_name`, `tool_input`, `working_dir` — no `hook_event_name`; goose's
/// tool names (`developer__shell`) for Claude Code's.
#[test]
fn the_payload_is_goose_context() {
    let ws = Ws::new();
    let e = ws.engine(rule("PreToolUse", Some("developer__shell"), vec![action("cat > payload.json")]));
    run(&e, HookEvent::PreToolUse, shell("ls -la"));
    let p = ws.json("payload.json");
    assert_eq!(p["event"], "PreToolUse");
    assert_eq!(p["session_id"], "s-1");
    assert_eq!(p["matcher_context"], "developer__shell");
    assert_eq!(p["tool_call_id"], "call-1");
    assert_eq!(p["tool_name"], "developer__shell");
    assert_eq!(p["tool_input"], json!({"command": "ls -la"}));
    assert!(p.get("hook_event_name").is_none() && p.get("cwd").is_none(), "{p}");
    assert!(ws.read("payload.json").ends_with('}'), "compact JSON, no newline");
    // `developer__write {path, content}` for Claude Code's Write.
    let e = ws.engine(rule("PreToolUse", Some("write"), vec![action("cat > write.json")]));
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": "x"}}));
    let p = ws.json("write.json");
    assert_eq!(p["tool_name"], "developer__write");
    assert_eq!(p["tool_input"], json!({"path": "a.txt", "content": "x"}));
    // `with_message`: the prompt is `message` and `matcher_context`.
    let e = ws.engine(rule("UserPromptSubmit", None, vec![action("cat > prompt.json")]));
    run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "fix the tests"}));
    let p = ws.json("prompt.json");
    assert_eq!((p["message"].as_str(), p["matcher_context"].as_str()), (Some("fix the tests"), Some("fix the tests")));
}

/// `matcher_filters_by_tool_name` ("Non-matching tool: marker not
/// created"), `pre_tool_use_result_matcher_targets_the_tool_name`
/// (`^developer__shell$`); OP: "Regex pattern to filter events. Matches
/// all if omitted"; an MCP tool is `<extension>__<tool>`.
#[test]
fn matchers_are_regexes_searched_in_goose_names() {
    let ws = Ws::new();
    let mut hooks = rule("PreToolUse", Some("developer__shell"), vec![action("echo shell >> order.txt")]);
    hooks["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(json!({"matcher": "^github__", "hooks": [action("echo mcp >> order.txt")]}));
    hooks["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(json!({"matcher": "edit$", "hooks": [action("echo edit >> order.txt")]}));
    let e = ws.engine(hooks);
    run(&e, HookEvent::PreToolUse, shell("ls"));
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "other__tool", "tool_input": {}}));
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "mcp__github__get_issue", "tool_input": {}}));
    run(
        &e,
        HookEvent::PreToolUse,
        json!({"tool_name": "Edit", "tool_input": {"file_path": "a", "old_string": "x", "new_string": "y"}}),
    );
    assert_eq!(ws.read("order.txt"), "shell\nmcp\nedit\n");
    // A matcher on an event without a matcher_context is tested against "".
    let e = ws.engine(rule("SessionStart", Some("startup"), vec![action("touch started.txt")]));
    run(&e, HookEvent::SessionStart, json!({"source": "startup"}));
    assert!(!ws.exists("started.txt"), "goose tests the matcher against \"\"");
}

/// `emit_runs_command_with_plugin_root_substitution`: `${PLUGIN_ROOT}` is
/// replaced in the command and `PLUGIN_ROOT` is set (OP: "`${PLUGIN_ROOT}`
/// ... the plugin root").
#[test]
fn plugin_root_is_substituted_and_set() {
    let ws = Ws::new();
    ws.write(".agents/plugins/p/scripts/log.sh", "#!/bin/sh\necho \"$PLUGIN_ROOT\" > \"$1\"\n");
    let e = ws.engine(rule("SessionStart", None, vec![action("sh ${PLUGIN_ROOT}/scripts/log.sh root.txt")]));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert!(out["hooks"][0]["failure"].is_null(), "{out}");
    let root = std::fs::canonicalize(ws.file(".agents/plugins/p")).unwrap();
    let written = std::fs::canonicalize(ws.read("root.txt").trim()).unwrap();
    assert_eq!(written, root);
}

/// goose emits every other event (`emit`): nothing blocks and no output is
/// context; SessionStart banners (`emit_collecting_banners`: "If a hook
/// exits successfully and its stdout contains valid JSON with a `banner`
/// field, that string is collected").
#[test]
fn other_events_only_run_and_session_start_collects_banners() {
    let ws = Ws::new();
    let e = ws.engine(rule(
        "UserPromptSubmit",
        None,
        vec![action(r#"printf '%s' '{"decision":"block","reason":"no"}'; echo ctx >&2; exit 2"#)],
    ));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "hi"}));
    assert_eq!(out["allow_prompt"], true, "{out}");
    assert!(out["additional_context"].as_array().is_none_or(|a| a.is_empty()), "{out}");
    let e = ws.engine(rule(
        "SessionStart",
        None,
        vec![action(r#"printf '%s' '{"banner":"  🌱 test banner"}'"#), action("echo hello")],
    ));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["dialect_fields"]["goose"]["banners"], json!(["  🌱 test banner"]), "{out}");
    assert!(out["additional_context"].as_array().is_none_or(|a| a.is_empty()), "{out}");
}

/// The extended events fire by name; OP: "BeforeShellExecution | Before
/// executing a shell command | Command string", "BeforeReadFile | ... |
/// File path" (goose: `string_argument(input, &["path", "file", "file_path"])`).
#[test]
fn extended_events_fire_by_name_on_their_matcher_context() {
    let ws = Ws::new();
    let mut hooks = rule("BeforeShellExecution", Some("^rm "), vec![action("cat > shell.json")]);
    hooks["BeforeReadFile"] = json!([{"matcher": "\\.env$", "hooks": [action("cat > read.json")]}]);
    let e = ws.engine(hooks);
    let call = |cmd: &str| json!({"tool_name": "developer__shell", "tool_input": {"command": cmd}});
    e.run_named_blocking("BeforeShellExecution", &call("ls")).unwrap();
    assert!(!ws.exists("shell.json"));
    e.run_named_blocking("BeforeShellExecution", &call("rm -rf build")).unwrap();
    assert_eq!(ws.json("shell.json")["matcher_context"], "rm -rf build");
    assert_eq!(ws.json("shell.json")["event"], "BeforeShellExecution");
    e.run_named_blocking("BeforeReadFile", &json!({"tool_name": "developer__shell", "tool_input": {"path": ".env"}}))
        .unwrap();
    assert_eq!(ws.json("read.json")["matcher_context"], ".env");
}

/// goose's tool execution: "run_pre_tool_hooks(...).await?;
/// emit_extended_pre_hooks(...)" — BeforeShellExecution runs after an
/// allowed PreToolUse of a shell tool (`categorize_tool`), never after a
/// denied one; AfterFileEdit after a PostToolUse of a write tool ("if event
/// == HookEvent::PostToolUse"), not after PostToolUseFailure.
#[test]
fn extended_events_run_inside_the_tool_events_they_follow() {
    let ws = Ws::new();
    let mut hooks = rule("BeforeShellExecution", Some("^rm "), vec![action("cat > shell.json")]);
    hooks["AfterFileEdit"] = json!([{"hooks": [action("cat > edit.json")]}]);
    let e = ws.engine(hooks.clone());
    let out = run(&e, HookEvent::PreToolUse, shell("rm -rf build"));
    assert_eq!(denied(&out), None, "an observer decides nothing: {out}");
    let p = ws.json("shell.json");
    assert_eq!(
        (p["event"].as_str(), p["matcher_context"].as_str()),
        (Some("BeforeShellExecution"), Some("rm -rf build"))
    );
    assert_eq!(p["tool_name"], "developer__shell");
    std::fs::remove_file(ws.file("shell.json")).unwrap();
    run(&e, HookEvent::PreToolUse, shell("ls"));
    assert!(!ws.exists("shell.json"), "the matcher tests the command");
    let write =
        json!({"tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": "x"}, "tool_response": {}});
    run(
        &e,
        HookEvent::PostToolUseFailure,
        json!({"tool_name": "Write", "tool_input": {"file_path": "a.txt"}, "error": "x"}),
    );
    assert!(!ws.exists("edit.json"));
    run(&e, HookEvent::PostToolUse, write);
    assert_eq!(ws.json("edit.json")["matcher_context"], "a.txt");
    // A denied call: goose returns before the extended events.
    hooks["PreToolUse"] = json!([{"hooks": [action("exit 2")]}]);
    let e = ws.engine(hooks);
    let out = run(&e, HookEvent::PreToolUse, shell("rm -rf build"));
    assert!(denied(&out).is_some(), "{out}");
    assert!(!ws.exists("shell.json"), "nothing after a denial");
}

/// goose loads "`<plugin-root>/hooks/hooks.json` of any plugin discovered":
/// a project's `.agents/plugins/<plugin>` first, then the user's
/// `~/.agents/plugins/<plugin>` (`plugin_scope_rank`: Project 0, User 1),
/// each in name order; the plugin root is the folder above `hooks/`.
#[test]
fn plugins_are_found_in_the_project_then_the_users_folder() {
    if std::env::var_os("GOOSE_PATH_ROOT").is_some() {
        return; // the user's plugins are elsewhere; the test is about the defaults
    }
    let dir = tempfile::tempdir().unwrap();
    let (home, ws) = (dir.path().join("home"), dir.path().join("ws"));
    for p in [
        ws.join(".agents/plugins/b/hooks/hooks.json"),
        ws.join(".agents/plugins/a/hooks/hooks.json"),
        home.join(".agents/plugins/u/hooks/hooks.json"),
    ] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, r#"{"hooks": {}}"#).unwrap();
    }
    std::fs::create_dir_all(ws.join(".agents/plugins/no-hooks")).unwrap();
    let found: Vec<(String, bool)> = dialect::settings_files_under(&ws, Some(&home), &dir.path().join("root"))
        .into_iter()
        .filter(|f| f.dialect.name() == "goose")
        .map(|f| (f.path.strip_prefix(dir.path()).unwrap().display().to_string(), f.trusted))
        .collect();
    let s = |p: &str, t| (p.to_owned(), t);
    assert_eq!(
        found,
        [
            s("ws/.agents/plugins/a/hooks/hooks.json", false),
            s("ws/.agents/plugins/b/hooks/hooks.json", false),
            s("home/.agents/plugins/u/hooks/hooks.json", true),
        ]
    );
    // "disabledPlugins" in the project's settings drops a plugin; a user's
    // plugin with a project plugin's name is the project's
    // (`plugin_scope_rank`, then the first of each name).
    std::fs::write(ws.join(".agents/plugins/no-hooks/.keep"), "").unwrap();
    std::fs::create_dir_all(ws.join(".config/goose")).unwrap();
    std::fs::write(ws.join(".config/goose/settings.json"), r#"{"disabledPlugins": ["b"]}"#).unwrap();
    for p in [home.join(".agents/plugins/a/hooks/hooks.json"), home.join(".agents/plugins/no-hooks/hooks/hooks.json")] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, r#"{"hooks": {}}"#).unwrap();
    }
    let found: Vec<String> = dialect::settings_files_under(&ws, Some(&home), &dir.path().join("root"))
        .into_iter()
        .filter(|f| f.dialect.name() == "goose")
        .map(|f| f.path.strip_prefix(dir.path()).unwrap().display().to_string())
        .collect();
    assert_eq!(found, ["ws/.agents/plugins/a/hooks/hooks.json", "home/.agents/plugins/u/hooks/hooks.json"]);
    let file = ws.join(".agents/plugins/a/hooks/hooks.json");
    assert_eq!(dialect::for_path(&file).map(|d| d.name()), Some("goose"));
    assert_eq!(dialect::plugin_root_of(&file, None), Some(ws.join(".agents/plugins/a")));
    assert_eq!(dialect::project_dir_of(&file), ws);
}

/// "Failed to load plugin hooks; skipping": one plugin whose file goose
/// rejects (`an_invalid_on_failure_value_rejects_the_file`) is left out,
/// said so, and the other plugins' hooks run.
#[test]
fn a_rejected_plugin_file_is_left_out_and_the_others_run() {
    let ws = Ws::new();
    let bad = ws.plugin("bad", rule("PreToolUse", None, vec![json!({"command": "exit 2", "on_failure": "deny"})]));
    let good = ws.plugin("good", rule("PreToolUse", None, vec![action("echo refused by policy >&2; exit 2")]));
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": bad}, {"hooks_file": good}]}));
    let warnings: Vec<String> = e.config_warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect();
    assert!(warnings.iter().any(|w| w.contains("on_failure")), "{warnings:?}");
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(denied(&out), Some("refused by policy"), "{out}");
}

/// goose's "allow" is "no objection" and its hooks can only deny or block:
/// a host callback's allow in a goose run would be a canonical allow goose
/// cannot express (it would override the other hooks), so it is dropped
/// and said; a callback's deny stands.
#[test]
fn a_callback_allow_in_a_goose_run_is_dropped_and_reported() {
    let ws = Ws::new();
    let e = ws.engine(rule("PreToolUse", None, vec![action("exit 0")]));
    e.add_callback_hook(
        HookEvent::PreToolUse,
        None,
        "host-allow",
        std::sync::Arc::new(|_: &str| CallResult::ok(Reply::Allow)),
    )
    .unwrap();
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_ne!(out["decision"], "allow", "{out}");
    assert_eq!(out["dialect_fields"]["goose"]["dropped"], json!(["allow"]), "{out}");
    assert!(texts(&out, "warning").iter().any(|m| m.contains("goose hooks cannot express `allow`")), "{out}");
    let e = ws.engine(rule("PreToolUse", None, vec![action("exit 0")]));
    e.add_callback_hook(
        HookEvent::PreToolUse,
        None,
        "host-deny",
        std::sync::Arc::new(|_: &str| CallResult::ok(Reply::Deny("host says no".into()))),
    )
    .unwrap();
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(denied(&out), Some("host says no"), "{out}");
}
