//! The Codex dialect with real hooks: Codex's own unit-test scenarios
//! (openai/codex `codex-rs/hooks`, `codex-rs/config`) re-created through the
//! engine, every exit-code row, every merge rule, every config rule, path
//! recognition, and hooks written the way Codex users write them (plain sh
//! without jq, Python, Node: `tests/fixtures/codex/`). A test named after a
//! Codex test quotes the rule it proves.

use std::path::Path;
use std::time::{Duration, Instant};

use hookline::config::HooksConfig;
use hookline::dialect::CODEX;
use hookline::{HookEvent, LifecycleHookEngine, Status};
use serde_json::{json, Value};

use crate::support::{cmd, fixture_command, run, say, texts, warnings, Ws};

/// An engine over a Codex `hooks.json` object given inline.
trait Engines {
    fn engine(&self, hooks_json: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn engine(&self, hooks_json: Value) -> LifecycleHookEngine {
        self.engine_with(json!({ "hooks": hooks_json, "dialect": "codex" }))
    }
}

// ---------------------------------------------------------------- helpers

/// `{"hooks": {<event key>: [groups]}}`, each group `(matcher, hooks)`.
fn codex(key: &str, groups: &[(Option<&str>, Vec<Value>)]) -> Value {
    let groups: Vec<Value> = groups
        .iter()
        .map(|(m, hooks)| {
            let mut g = json!({ "hooks": hooks });
            if let Some(m) = m {
                g["matcher"] = json!(m);
            }
            g
        })
        .collect();
    json!({ "hooks": { key: groups } })
}

/// A hook that prints `text` as it is.
fn print(text: &str) -> String {
    format!("cat >/dev/null; printf '%s\\n' '{}'", text.replace('\'', "'\\''"))
}

/// A hook that exits `code` with `stderr`, printing `stdout`.
fn exits(code: i32, stdout: &str, stderr: &str) -> String {
    format!(
        "cat >/dev/null; printf '%s' '{}'; printf '%s' '{}' >&2; exit {code}",
        stdout.replace('\'', "'\\''"),
        stderr.replace('\'', "'\\''")
    )
}

fn pre(decision: &str, reason: Option<&str>, extra: Value) -> Value {
    let mut spec = json!({"hookEventName": "PreToolUse", "permissionDecision": decision});
    if let Some(r) = reason {
        spec["permissionDecisionReason"] = json!(r);
    }
    for (k, v) in extra.as_object().unwrap() {
        spec[k] = v.clone();
    }
    json!({ "hookSpecificOutput": spec })
}

/// A complete input for `event`, as a Codex host fills it.
fn input(event: HookEvent) -> Value {
    match event {
        HookEvent::SessionStart => json!({"model": "gpt-5"}),
        HookEvent::SessionEnd => json!({"turn_id": "t1", "reason": "exit"}),
        HookEvent::SubagentStart | HookEvent::SubagentStop => json!({
            "parent_session_id": "s-1", "child_thread_id": "c1", "agent_name": "explorer",
            "display_label": "Explorer", "background": false, "status": "done", "turn_id": "t1",
            "last_assistant_message": "child done", "stop_hook_active": false
        }),
        HookEvent::UserPromptSubmit => json!({"turn_id": "t1", "prompt": "hello", "model": "gpt-5"}),
        HookEvent::PreToolUse => json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_call_id": "call-1",
            "turn_id": "t1", "model": "gpt-5"}),
        HookEvent::PostToolUse => json!({"tool_name": "Bash", "tool_input": {"command": "ls"},
            "tool_response": {"exit_code": 0, "stdout": "a\n"}, "tool_call_id": "call-1", "turn_id": "t1"}),
        HookEvent::PermissionRequest => json!({"tool_name": "Bash", "tool_input": {"command": "ls"},
            "permission_request": {"reason": "x"}, "turn_id": "t1"}),
        HookEvent::PreCompact => json!({"trigger": "auto", "mode": "local", "original_message_count": 10,
            "compacted_message_count": 2, "turn_id": "t1"}),
        HookEvent::Stop => json!({"last_assistant_message": "done", "stop_hook_active": false, "turn_id": "t1"}),
        HookEvent::Notification => json!({"notification_type": "idle_prompt", "title": "t", "message": "m"}),
        HookEvent::PostToolUseFailure => json!({"tool_name": "Bash", "error": "boom"}),
    }
}

/// Run `hooks` (one match-all group) for `event`.
fn run_hooks(event: HookEvent, hooks: Vec<Value>) -> Value {
    let ws = Ws::new();
    let e = ws.engine(codex(event.name(), &[(None, hooks)]));
    run(&e, event, input(event))
}

/// Run one hook command for `event`.
fn run_one(event: HookEvent, command: String) -> Value {
    run_hooks(event, vec![cmd(command)])
}

/// The one error message of `out`, asserting there is exactly one.
fn the_error(out: &Value) -> String {
    let errors = texts(out, "error");
    assert_eq!(errors.len(), 1, "expected one error: {out}");
    errors[0].clone()
}

fn no_errors(out: &Value) {
    assert!(texts(out, "error").is_empty(), "unexpected errors: {out}");
}

fn failure(out: &Value, i: usize) -> Value {
    out["hooks"][i]["failure"].clone()
}

fn fixture(name: &str) -> String {
    fixture_command("codex", name, "sh")
}

/// Read a Codex `hooks.json` object (its warnings, or the error).
fn read(hooks_json: Value) -> hookline::Result<HooksConfig> {
    HooksConfig::read(&hooks_json, &hookline::config::SourceInfo::new(CODEX))
}

fn commands(cfg: &HooksConfig, event: HookEvent) -> Vec<String> {
    cfg.groups(event).iter().flat_map(|g| &g.hooks).map(|h| h.label().to_owned()).collect()
}

// ------------------------------------------------------------ config files

/// Codex `hooks_file_rejects_events_outside_hooks_object`: "an unknown
/// top-level key (e.g. events at the root instead of under `hooks`) → whole
/// file skipped; `unknown field `SessionStart`, expected `description` or
/// `hooks``".
#[test]
fn hooks_file_rejects_events_outside_hooks_object() {
    let e = read(json!({"SessionStart": [{"hooks": [cmd("echo hi")]}]})).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("unknown field `SessionStart`, expected `description` or `hooks`"), "{}", e.message);
    assert!(e.message.contains("failed to parse hooks config"), "{}", e.message);
    // `description` and `hooks` are the whole root.
    let ok = read(json!({"description": "team hooks", "hooks": {"Stop": [{"hooks": [cmd("true")]}]}})).unwrap();
    assert_eq!(commands(&ok, HookEvent::Stop), ["true"]);
    assert!(read(json!({})).unwrap().is_empty(), "a file without `hooks` configures nothing");
}

/// "`hooks.json` not valid JSON, wrong types, a missing `type`, an unknown
/// top-level key → whole file skipped; warning `failed to parse hooks config
/// <path>: <serde error>`". Reading the file is `InvalidConfig` naming the
/// entry (`hookline check`); an engine loads no hooks from it and warns.
#[test]
fn a_file_codex_cannot_parse_is_rejected_naming_the_entry() {
    let h = |extra: Value| {
        let mut hook = cmd("true");
        for (k, v) in extra.as_object().unwrap() {
            hook[k] = v.clone();
        }
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}})
    };
    for (bad, needle) in [
        (json!([1]), "must be a JSON object"),
        (json!({"description": 5}), "description must be a string"),
        (json!({"hooks": null}), "hooks must be an object"),
        (json!({"hooks": {"Stop": null}}), "hooks.Stop must be an array"),
        (json!({"hooks": {"Stop": [3]}}), "hooks.Stop[0] must be an object"),
        (json!({"hooks": {"Stop": [{"matcher": 5, "hooks": []}]}}), "hooks.Stop[0].matcher must be a string"),
        (json!({"hooks": {"Stop": [{"hooks": null}]}}), "hooks.Stop[0].hooks must be an array"),
        (json!({"hooks": {"Stop": [{"hooks": [{"command": "x"}]}]}}), "hooks.Stop[0].hooks[0]: missing field `type`"),
        (json!({"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "u"}]}]}}), "unknown variant `http`"),
        (json!({"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}), "missing field `command`"),
        (h(json!({"timeout": -1})), "hooks.PreToolUse[0].hooks[0].timeout must be a non-negative integer"),
        (h(json!({"timeout": 1.5})), ".timeout must be a non-negative integer"),
        (h(json!({"timeout": "5"})), ".timeout must be a non-negative integer"),
        (h(json!({"async": "yes"})), ".async must be a boolean"),
        (h(json!({"async": null})), ".async must be a boolean"),
        (h(json!({"statusMessage": 1})), ".statusMessage must be a string"),
        (h(json!({"additionalContextLimit": -3})), ".additionalContextLimit must be a non-negative integer"),
        (h(json!({"command": ["ls"]})), ".command must be a string"),
    ] {
        let e = read(bad.clone()).unwrap_err();
        assert_eq!(e.status, Status::InvalidConfig, "{bad}");
        assert!(e.message.contains(needle), "{bad}: {}", e.message);
        assert!(e.message.contains("Codex skips the whole file"), "{}", e.message);
    }
    // "Codex never aborts the session for a hooks problem; problems become
    // startup warnings": an engine over a broken hooks_file alone starts
    // with no hooks and the same message as a warning.
    let ws = Ws::new();
    let path =
        ws.write(".codex/hooks.json", r#"{"PreToolUse": [{"hooks": [{"type": "command", "command": "exit 2"}]}]}"#);
    for options in [json!({"hooks_file": path}), json!({"hooks": {"PreToolUse": 1}, "dialect": "codex"})] {
        let e = ws.engine_with(options.clone());
        let w: Vec<String> = e.config_warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect();
        assert!(w.len() == 1 && w[0].contains("not loaded: failed to parse hooks config"), "{options}: {w:?}");
        let out = run(&e, HookEvent::PreToolUse, input(HookEvent::PreToolUse));
        assert!(out["hooks"].as_array().unwrap().is_empty(), "{out}");
    }
    let e = ws.engine_with(json!({"hooks_file": path}));
    assert!(e.config_warnings().iter().any(|w| w.message.contains("unknown field `PreToolUse`")));
}

/// Codex `malformed_hooks_json_is_reported_as_startup_warning`: "`hooks.json`
/// not valid JSON, wrong types, a missing `type`, an unknown top-level key …
/// → whole file skipped; warning `failed to parse hooks config <path>: <serde
/// error>`" — and the other layers still load ("Codex never aborts the
/// session for a hooks problem; problems become startup warnings").
#[test]
fn malformed_hooks_json_is_reported_as_startup_warning() {
    let ws = Ws::new();
    let deny = say(pre("deny", Some("project guard"), json!({})));
    let good = ws.write(
        "proj/.codex/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [cmd(deny)]}]}}).to_string(),
    );
    for (name, text) in [
        ("syntax", "{ not json"),
        ("root", r#"{"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}"#),
        ("type", r#"{"hooks": {"Stop": [{"hooks": [{"command": "true"}]}]}}"#),
    ] {
        let bad = ws.write(&format!("{name}/.codex/hooks.json"), text);
        let toml = ws.write(&format!("{name}/.codex/config.toml"), "[hooks]\nStop = 3\n");
        let e = ws.engine_with(json!({"hook_sources": [
            {"hooks_file": bad, "trusted": true}, {"hooks_file": toml, "trusted": true},
            {"hooks_file": good, "trusted": true}
        ]}));
        let out = run(&e, HookEvent::PreToolUse, input(HookEvent::PreToolUse));
        assert_eq!(out["decision"], "deny", "{name}: the other layer still loads: {out}");
        assert_eq!(out["reason"], "project guard");
        let w: Vec<String> = e.config_warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect();
        assert_eq!(w.len(), 2, "{name}: {w:?}");
        assert!(w[0].contains(&bad.display().to_string()), "{w:?}");
        assert!(w[0].contains("failed to parse hooks config") || w[0].contains("not valid JSON"), "{w:?}");
        assert!(w[1].contains("failed to parse TOML hooks in"), "{w:?}");
    }
}

/// "Unknown handler fields (e.g. `if`, `once`, `failClosed`, `shell`,
/// `args`) are ignored"; "Unknown group keys are ignored". hookline also
/// lists each in the config's warnings, with the closest field Codex reads.
#[test]
fn unknown_group_and_handler_fields_are_ignored_and_listed() {
    let cfg = read(json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "note": "x", "hooks": [
        {"type": "command", "command": "guard", "if": "Bash(rm *)", "failClosed": true, "shell": "bash", "once": true}
    ]}]}}))
    .unwrap();
    let hook = &cfg.groups(HookEvent::PreToolUse)[0].hooks[0];
    assert_eq!(hook.label(), "guard");
    assert!(hook.if_rule.is_none() && !hook.fail_closed, "Codex reads neither `if` nor `failClosed`");
    let w = |path: &str, field: &str| format!("{path}: unknown field `{field}` is ignored");
    let (group, handler) = ("hooks.PreToolUse[0]", "hooks.PreToolUse[0].hooks[0]");
    assert_eq!(
        warnings(&cfg),
        [w(group, "note"), w(handler, "if"), w(handler, "failClosed"), w(handler, "shell"), w(handler, "once")]
    );
    let cfg = read(
        json!({"hooks": {"Stop": [{"matchr": "x", "hooks": [{"type": "command", "command": "c", "timout": 5}]}]}}),
    )
    .unwrap();
    assert_eq!(
        warnings(&cfg),
        [
            "hooks.Stop[0]: unknown field `matchr` is ignored; did you mean `matcher`?",
            "hooks.Stop[0].hooks[0]: unknown field `timout` is ignored; did you mean `timeout`?"
        ]
    );
    assert_eq!(cfg.groups(HookEvent::Stop)[0].hooks[0].timeout_seconds, None, "the misspelt timeout is not applied");
}

/// "Unknown event key inside `hooks` (e.g. `Notification`,
/// `PostToolUseFailure`) → silently ignored". hookline also lists it in the
/// config's warnings (nothing runs for it either way).
#[test]
fn unknown_event_keys_are_ignored_and_listed() {
    let cfg = read(json!({"hooks": {
        "Notification": [{"hooks": [cmd("notify")]}],
        "PostToolUseFailure": 42,
        "preToolUse": [{"hooks": [cmd("x")]}],
        "Stop": [{"hooks": [cmd("stop")]}],
    }}))
    .unwrap();
    assert_eq!(cfg.command_count(), 1);
    assert!(cfg.named_events().is_empty());
    let w = warnings(&cfg);
    assert!(w.iter().any(|w| w.contains("Codex has no event `Notification`")), "{w:?}");
    assert!(w.iter().any(|w| w.contains("`preToolUse`") && w.contains("did you mean `PreToolUse`?")), "{w:?}");
}

/// Codex discovery: "invalid regex matcher on an event that uses matchers →
/// that group skipped, warning `invalid matcher "<m>" in <path>: <regex
/// error>`".
#[test]
fn an_invalid_matcher_skips_its_group_with_a_warning() {
    let ws = Ws::new();
    let log = ws.file("log");
    let hooks = json!({"hooks": {"PreToolUse": [
        {"matcher": "[", "hooks": [cmd(format!("echo bad >> '{}'", log.display()))]},
        {"matcher": "Bash", "hooks": [cmd(format!("cat >/dev/null; echo good >> '{}'", log.display()))]}
    ]}});
    let cfg = read(hooks.clone()).unwrap();
    let w = warnings(&cfg);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("hooks.PreToolUse[0]: invalid matcher \"[\" in"), "{w:?}");
    let e = ws.engine(hooks);
    let out = run(&e, HookEvent::PreToolUse, input(HookEvent::PreToolUse));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1);
    assert_eq!(ws.read("log"), "good\n");
}

/// Codex `user_prompt_submit_ignores_invalid_matcher_during_discovery`:
/// "invalid matcher on UserPromptSubmit/Stop → ignored (matcher dropped),
/// group runs".
#[test]
fn user_prompt_submit_ignores_invalid_matcher_during_discovery() {
    let hooks = json!({"hooks": {
        "UserPromptSubmit": [{"matcher": "[", "hooks": [cmd(print("prompt context"))]}],
        "Stop": [{"matcher": "^never$", "hooks": [cmd(say(json!({"decision": "block", "reason": "again"})))]}],
    }});
    assert!(warnings(&read(hooks.clone()).unwrap()).is_empty());
    let ws = Ws::new();
    let e = ws.engine(hooks);
    let out = run(&e, HookEvent::UserPromptSubmit, input(HookEvent::UserPromptSubmit));
    assert_eq!(out["additional_context"], json!(["prompt context"]));
    let out = run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert_eq!(out["block_reason"], "again", "Stop ignores its matcher");
}

/// Codex discovery: "blank after trim → entry skipped, warning `skipping
/// empty hook command in <path>`"; "`prompt`/`agent`/`mcp_tool` handler →
/// that handler skipped (warning)"; "a group without `hooks` runs nothing".
#[test]
fn empty_commands_and_prompt_agent_mcp_handlers_are_skipped_with_warnings() {
    let cfg = read(json!({"hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "   "}, cmd("kept")]},
        {"hooks": [{"type": "prompt", "prompt": "is it done?"}, {"type": "agent", "prompt": "check"},
                   {"type": "mcp_tool", "server": "s", "tool": "t", "input": {}}]},
        {"matcher": "x"}
    ]}}))
    .unwrap();
    assert_eq!(commands(&cfg, HookEvent::Stop), ["kept"]);
    assert_eq!(cfg.groups(HookEvent::Stop).len(), 1, "groups left without hooks run nothing");
    let w = warnings(&cfg);
    assert_eq!(w.len(), 4, "{w:?}");
    assert!(w[0].starts_with("hooks.Stop[0].hooks[0]: skipping empty hook command in"), "{w:?}");
    assert!(w[1].contains("skipping prompt hook in") && w[1].ends_with("prompt hooks are not supported yet"));
    assert!(w[2].contains("skipping agent hook in"), "{w:?}");
    assert!(w[3].contains("skipping MCP tool hook in") && w[3].ends_with("MCP tool hooks are not supported yet"));
}

/// Codex `session_end_normalizes_timeout`: "SessionEnd: default 1 s,
/// clamped to 1..=3 s, warning `clamping SessionEnd hook timeout to 3s`";
/// every other timeout: "default 600, `max(1)` so `0` → 1 s".
#[test]
fn session_end_normalizes_timeout() {
    let t = |key: &str, timeout: Value| {
        let mut hook = cmd("x");
        if !timeout.is_null() {
            hook["timeout"] = timeout;
        }
        read(json!({"hooks": {key: [{"hooks": [hook]}]}})).unwrap()
    };
    let end = |timeout: Value| {
        let cfg = t("SessionEnd", timeout);
        let h = &cfg.groups(HookEvent::SessionEnd)[0].hooks[0];
        (h.timeout(), h.timeout_seconds, warnings(&cfg))
    };
    assert_eq!(end(Value::Null), (Duration::from_secs(1), None, vec![]));
    assert_eq!(end(json!(0)).0, Duration::from_secs(1));
    assert_eq!(end(json!(2)).0, Duration::from_secs(2));
    let (timeout, written, w) = end(json!(30));
    assert_eq!((timeout, written), (Duration::from_secs(3), Some(3)));
    assert_eq!(w, ["hooks.SessionEnd[0].hooks[0]: clamping SessionEnd hook timeout to 3s"]);
    let stop = |timeout: Value| t("Stop", timeout).groups(HookEvent::Stop)[0].hooks[0].timeout();
    assert_eq!(stop(Value::Null), Duration::from_secs(600));
    assert_eq!(stop(json!(0)), Duration::from_secs(1));
    assert_eq!(stop(json!(45)), Duration::from_secs(45));
}

/// The SessionEnd default of 1 s is what a hook gets: one that sleeps
/// longer is killed at 1 s, `hook timed out after 1s`.
#[test]
fn a_session_end_hook_without_a_timeout_is_killed_after_one_second() {
    let started = Instant::now();
    let out = run_one(HookEvent::SessionEnd, "sleep 5".into());
    assert!(started.elapsed() < Duration::from_secs(4), "took {:?}", started.elapsed());
    assert_eq!(out["hooks"][0]["timed_out"], true);
    assert!(the_error(&out).ends_with("hook timed out after 1s"), "{out}");
}

/// "`async` true → background, except SessionEnd (runs sync, warning
/// `running async SessionEnd hook synchronously`)".
#[test]
fn an_async_session_end_hook_runs_synchronously() {
    let hooks =
        json!({"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "echo done", "async": true}]}]}});
    let cfg = read(hooks.clone()).unwrap();
    assert!(!cfg.groups(HookEvent::SessionEnd)[0].hooks[0].run_async);
    assert_eq!(warnings(&cfg), ["hooks.SessionEnd[0].hooks[0]: running async SessionEnd hook synchronously"]);
    let ws = Ws::new();
    let out = run(&ws.engine(hooks), HookEvent::SessionEnd, input(HookEvent::SessionEnd));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "reported: it ran in the run");
}

/// Codex `unsupported_event_warns_and_ignores_additionalContextLimit`:
/// "`additionalContextLimit` only on PreToolUse, PostToolUse, SessionStart,
/// UserPromptSubmit, SubagentStart, elsewhere warning `ignoring
/// additionalContextLimit for <Event> hook`".
#[test]
fn unsupported_event_warns_and_ignores_additional_context_limit() {
    let hook = json!({"type": "command", "command": "x", "additionalContextLimit": 100});
    let cfg =
        read(json!({"hooks": {"Stop": [{"hooks": [hook.clone()]}], "SessionStart": [{"hooks": [hook]}]}})).unwrap();
    assert_eq!(warnings(&cfg), ["hooks.Stop[0].hooks[0]: ignoring additionalContextLimit for Stop hook"]);
    assert_eq!(cfg.command_count(), 2, "the hook itself is kept");
}

/// Codex `hook_events_deserialize_from_toml_arrays_of_tables`: "Inline TOML
/// in `config.toml` is the same tree under `[hooks]` (`[[hooks.PreToolUse]]`,
/// `[[hooks.PreToolUse.hooks]]`)", with `command_windows` accepted in TOML.
#[test]
fn hook_events_deserialize_from_toml_arrays_of_tables() {
    let ws = Ws::new();
    let path = ws.write(
        ".codex/config.toml",
        r#"model = "gpt-5"
approval_policy = "on-request"

[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "python3 .codex/hooks/guard.py"
command_windows = "py .codex\\hooks\\guard.py"
timeout = 30
statusMessage = "checking"

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "echo stop"
"#,
    );
    let cfg = HooksConfig::from_file(&path).unwrap();
    assert_eq!(cfg.dialect().name(), "codex", "recognised by its path");
    let group = &cfg.groups(HookEvent::PreToolUse)[0];
    assert_eq!(group.matcher_raw.as_deref(), Some("Bash"));
    assert_eq!(group.hooks[0].label(), "python3 .codex/hooks/guard.py");
    assert_eq!(group.hooks[0].timeout_seconds, Some(30));
    assert_eq!(group.hooks[0].status_message.as_deref(), Some("checking"));
    assert_eq!(commands(&cfg, HookEvent::Stop), ["echo stop"]);
    // The same tree with a type error rejects the inline table.
    let bad = ws.write(
        "bad/.codex/config.toml",
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"x\"\ntimeout = -1\n",
    );
    let e = HooksConfig::from_file(&bad).unwrap_err();
    assert!(e.message.contains("failed to parse TOML hooks in"), "{}", e.message);
    assert!(e.message.contains("hooks.Stop[0].hooks[0].timeout"), "{}", e.message);
    // A config.toml without [hooks] configures nothing; broken TOML is an error.
    assert!(HooksConfig::from_file(&ws.write("none/.codex/config.toml", "model = \"o3\"\n")).unwrap().is_empty());
    let e = HooksConfig::from_file(&ws.write("broken/.codex/config.toml", "model = \n")).unwrap_err();
    assert!(e.message.contains("is not valid TOML"), "{}", e.message);
}

/// Codex `toml_hook_discovery_ignores_malformed_state_entries`: "malformed
/// `[hooks.state]` entries → that state entry ignored silently" (hookline
/// does not import `[hooks.state]` at all: its own gate applies).
#[test]
fn toml_hook_discovery_ignores_malformed_state_entries() {
    let ws = Ws::new();
    let path = ws.write(
        ".codex/config.toml",
        "[hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:0\"]\nenabled = \"nope\"\ntrusted_hash = 5\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"echo s\"\n",
    );
    let cfg = HooksConfig::from_file(&path).unwrap();
    assert_eq!(commands(&cfg, HookEvent::Stop), ["echo s"]);
    assert!(warnings(&cfg).is_empty(), "{:?}", warnings(&cfg));
}

/// Codex `discovers_hooks_from_json_and_toml_in_the_same_layer`: "If one
/// layer has both `hooks.json` and inline `[hooks]`, both load and a warning
/// `loading hooks from both A and B; prefer a single representation for
/// this layer` is emitted"; `hooks.json` first.
#[test]
fn discovers_hooks_from_json_and_toml_in_the_same_layer() {
    let ws = Ws::new();
    let log = ws.file("log");
    let json_hook = format!("cat >/dev/null; echo json >> '{}'", log.display());
    let toml_hook = format!("cat >/dev/null; echo toml >> '{}'", log.display());
    let json_path =
        ws.write(".codex/hooks.json", &json!({"hooks": {"Stop": [{"hooks": [cmd(json_hook.clone())]}]}}).to_string());
    let toml_path = ws.write(
        ".codex/config.toml",
        &format!("[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = {:?}\n", toml_hook),
    );
    let toml_cfg = HooksConfig::from_file(&toml_path).unwrap();
    let w = warnings(&toml_cfg);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("loading hooks from both") && w[0].contains("prefer a single representation for this layer"));
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": json_path}, {"hooks_file": toml_path}]}));
    let out = run(&e, HookEvent::Stop, input(HookEvent::Stop));
    // Both run (concurrently), reported in layer order.
    let reported: Vec<&str> = out["hooks"].as_array().unwrap().iter().map(|h| h["command"].as_str().unwrap()).collect();
    assert_eq!(reported, [json_hook.as_str(), toml_hook.as_str()]);
    let mut ran: Vec<&str> = ws.read("log").lines().map(|l| if l == "json" { "json" } else { "toml" }).collect();
    ran.sort_unstable();
    assert_eq!(ran, ["json", "toml"]);
}

/// Codex `profile_user_layers_load_shared_hooks_json_once`: "A folder's
/// `hooks.json` is loaded once even if two layers share it (profiles)". A
/// host that lists the user layer and a profile layer gives the same
/// `hooks.json` twice; its hooks run once.
#[test]
fn profile_user_layers_load_shared_hooks_json_once() {
    let ws = Ws::new();
    let log = ws.file("log");
    let hook = cmd(format!("cat >/dev/null; echo x >> '{}'", log.display()));
    let shared = ws.write("home/.codex/hooks.json", &codex("Stop", &[(None, vec![hook.clone()])]).to_string());
    let profile = ws.write("home/.codex/work.config.toml", "model = \"o3\"\n");
    let user_toml = ws.write("home/.codex/config.toml", "model = \"o3\"\n");
    // The same file by another spelling of its path is the same file.
    let again = ws.path().join("home/.codex/../.codex/hooks.json");
    let e = ws.engine_with(json!({"hook_sources": [
        {"hooks_file": shared, "trusted": true}, {"hooks_file": user_toml, "trusted": true},
        {"hooks_file": again, "trusted": true}, {"hooks_file": profile, "trusted": true, "dialect": "codex"},
    ]}));
    let out = run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "{out}");
    assert_eq!(ws.read("log"), "x\n");
    let w: Vec<String> = e.config_warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect();
    assert!(w.iter().any(|w| w.starts_with("hook_sources[2]") && w.contains("already loaded")), "{w:?}");
    // Identical hooks in two different files are not one file: both run.
    let other = ws.write("proj/.codex/hooks.json", &codex("Stop", &[(None, vec![hook])]).to_string());
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": shared, "trusted": true},
        {"hooks_file": other, "trusted": true}]}));
    assert_eq!(run(&e, HookEvent::Stop, input(HookEvent::Stop))["hooks"].as_array().unwrap().len(), 2);
}

/// In hookline the host lists the files; a workspace's Codex layer is
/// `.codex/hooks.json` then `.codex/config.toml`.
#[test]
fn a_workspace_codex_layer_is_hooks_json_then_config_toml() {
    let files = hookline::dialect::workspace_files();
    let json_at = files.iter().position(|f| *f == ".codex/hooks.json").unwrap();
    let toml_at = files.iter().position(|f| *f == ".codex/config.toml").unwrap();
    assert!(json_at < toml_at);
}

/// Codex `plugin_hook_sources_expand_plugin_placeholders`: "Plugin handlers
/// get env `PLUGIN_ROOT`, `CLAUDE_PLUGIN_ROOT` … and the literal text
/// `${KEY}` for each of those keys is substituted into the command".
#[test]
fn plugin_hook_sources_expand_plugin_placeholders() {
    let ws = Ws::new();
    let root = ws.file("plugin");
    std::fs::create_dir_all(&root).unwrap();
    let out_file = ws.file("seen");
    let hook = format!(
        "cat >/dev/null; echo \"${{PLUGIN_ROOT}}|$PLUGIN_ROOT|$CLAUDE_PLUGIN_ROOT|${{CLAUDE_PLUGIN_ROOT}}\" > '{}'",
        out_file.display()
    );
    let hooks = codex("Stop", &[(None, vec![cmd(hook)])]);
    let e = ws.engine_with(json!({"hook_sources": [{"hooks": hooks, "dialect": "codex", "plugin_root": root}]}));
    let previews = e.command_previews();
    assert!(
        previews[0].command.starts_with(&format!("cat >/dev/null; echo \"{}|", root.display())),
        "substituted at reading: {}",
        previews[0].command
    );
    run(&e, HookEvent::Stop, input(HookEvent::Stop));
    let r = root.display().to_string();
    assert_eq!(ws.read("seen").trim(), format!("{r}|{r}|{r}|{r}"));
}

// ------------------------------------------------------- recognition, option

#[test]
fn codex_files_are_recognised_by_their_path() {
    let ws = Ws::new();
    // A Claude-style root with events would be a Claude config anywhere else.
    let path = ws.write(".codex/hooks.json", &codex("Stop", &[(None, vec![cmd("true")])]).to_string());
    assert_eq!(HooksConfig::from_file(&path).unwrap().dialect().name(), "codex");
    let elsewhere = ws.write("conf/hooks.json", &codex("Stop", &[(None, vec![cmd("true")])]).to_string());
    assert_eq!(HooksConfig::from_file(&elsewhere).unwrap().dialect().name(), "claude");
    // The explicit option names it anywhere.
    let e = ws.engine_with(json!({"hooks_file": elsewhere, "dialect": "codex"}));
    assert_eq!(e.command_previews()[0].dialect, Some("codex"));
    // And `.codex/config.toml` is Codex's, not a vtcode.toml.
    let toml = ws
        .write(".codex/config.toml", "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"true\"\n");
    assert_eq!(HooksConfig::from_file(&toml).unwrap().dialect().name(), "codex");
    // hooks_toml with the option: a config.toml's text.
    let e = ws.engine_with(json!({"hooks_toml": "[[hooks.Stop]]\nhooks = [{type = \"command\", command = \"true\"}]\n", "dialect": "codex"}));
    assert_eq!(e.command_previews().len(), 1);
}

#[test]
fn the_dialect_option_accepts_codex_and_lists_it_when_unknown() {
    let ws = Ws::new();
    let e = ws.try_engine_with(json!({"hooks": {}, "dialect": "openai"})).unwrap_err();
    assert_eq!(e.status, Status::InvalidArgument);
    assert!(e.message.contains("codex"), "{}", e.message);
    assert!(ws.try_engine_with(json!({"hook_sources": [{"hooks": {"hooks": {}}, "dialect": "codex"}]})).is_ok());
}

// ---------------------------------------------------------------- payload

/// "Payload is `serde_json::to_string` — compact JSON, no trailing newline —
/// written to stdin", with exactly Codex's fields in Codex's order.
#[test]
fn the_payload_is_codexs_exact_json_without_a_trailing_newline() {
    let ws = Ws::new();
    let seen = ws.file("payload");
    let e = ws
        .engine_with(json!({"hooks": codex("PreToolUse", &[(None, vec![cmd(format!("cat > '{}'", seen.display()))])]),
        "dialect": "codex", "transcript_path": "/t/rollout.jsonl"}));
    let mut i = input(HookEvent::PreToolUse);
    i["permission_mode"] = json!("bypassPermissions");
    i["host_extra"] = json!(1);
    run(&e, HookEvent::PreToolUse, &i);
    let ws_dir = std::fs::canonicalize(ws.path()).unwrap();
    let expected = json!({"session_id": "s-1", "turn_id": "t1", "transcript_path": "/t/rollout.jsonl",
        "cwd": ws_dir, "hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": "bypassPermissions",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "call-1"});
    assert_eq!(ws.read("payload"), serde_json::to_string(&expected).unwrap());
}

/// Codex `command_input_uses_request_tool_name` and
/// `pre_tool_use_aliases_match_once_per_handler`: "The handler is selected if
/// the matcher accepts any of `[tool_name, …aliases]`; each handler runs at
/// most once per call even if several aliases match … stdin still says
/// `tool_name: "apply_patch"`".
#[test]
fn pre_tool_use_aliases_match_once_per_handler() {
    let ws = Ws::new();
    // Each hook appends its payload and a newline to its own log.
    let hook = |log: &str| cmd(format!("p=$(cat); printf '%s\\n' \"$p\" >> '{}'", ws.file(log).display()));
    let e = ws.engine(codex(
        "PreToolUse",
        &[(Some("Write|Edit|apply_patch"), vec![hook("a")]), (Some("Write"), vec![hook("b")])],
    ));
    let out = run(
        &e,
        HookEvent::PreToolUse,
        json!({"tool_name": "apply_patch", "tool_input": {"command": "*** Begin Patch"}}),
    );
    assert_eq!(out["hooks"].as_array().unwrap().len(), 2, "two groups, each hook once: {out}");
    for log in ["a", "b"] {
        let lines: Vec<Value> = ws.read(log).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 1, "{log}: once");
        assert_eq!(lines[0]["tool_name"], "apply_patch", "stdin keeps the real name");
    }
    // Not an alias of anything else.
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash"}));
    assert!(out["hooks"].as_array().unwrap().is_empty());
    let e = ws.engine(codex("PreToolUse", &[(Some("Agent"), vec![cmd("cat >/dev/null")])]));
    assert_eq!(
        run(&e, HookEvent::PreToolUse, json!({"tool_name": "spawn_agent"}))["hooks"].as_array().unwrap().len(),
        1
    );
}

/// "Non-plugin handlers get no extra env vars … There is no
/// `CLAUDE_PROJECT_DIR`/`CODEX_PROJECT_DIR`": only hookline's own
/// `HOOKLINE_*` variables are added.
#[test]
fn codex_hooks_get_no_claude_variables() {
    let ws = Ws::new();
    let seen = ws.file("env");
    let hook = format!(
        "cat >/dev/null; echo \"${{CLAUDE_PROJECT_DIR-unset}}|${{HOOKLINE_PROJECT_DIR-unset}}\" > '{}'",
        seen.display()
    );
    run(&ws.engine(codex("Stop", &[(None, vec![cmd(hook)])])), HookEvent::Stop, input(HookEvent::Stop));
    let ws_dir = std::fs::canonicalize(ws.path()).unwrap();
    assert_eq!(ws.read("env").trim(), format!("unset|{}", ws_dir.display()));
}

/// Codex `fast_exiting_hook_preserves_stdout_when_stdin_is_not_consumed`: "a
/// hook may exit without reading stdin … with a 1 MiB payload".
#[test]
fn fast_exiting_hook_preserves_stdout_when_stdin_is_not_consumed() {
    let ws = Ws::new();
    let deny = pre("deny", Some("no"), json!({}));
    let e = ws.engine(codex("PreToolUse", &[(None, vec![cmd(format!("printf '%s' '{deny}'"))])]));
    let big = "x".repeat(1 << 20);
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": big}}));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("no")));
}

// ---------------------------------------------------------------- matchers

/// Codex's matcher tests (`common.rs`): exact names are compared with `==`
/// (`"Bash"` does not match `BashOutput`, `"mcp__memory"` does not match
/// `mcp__memory__create_entities`), `|` lists them, anything else is an
/// unanchored regex (`"^Bash"` matches `BashOutput`), nothing is trimmed
/// (`" Bash"` needs the space), and `-`, space and `,` are not name
/// characters (`"Edit, Write"` is a regex).
#[test]
fn codex_matchers_are_exact_names_or_unanchored_regexes() {
    let ws = Ws::new();
    let cases: &[(&str, &str, bool)] = &[
        ("Bash", "Bash", true),
        ("Bash", "BashOutput", false),
        ("Edit|Write", "Write", true),
        ("Edit|Write", "Bash", false),
        ("mcp__memory", "mcp__memory__create_entities", false),
        ("mcp__memory__.*", "mcp__memory__create_entities", true),
        ("mcp__.*__write.*", "mcp__filesystem__read_file", false),
        ("^Bash", "BashOutput", true),
        ("^Bash$", "BashOutput", false),
        (" Bash", "Bash", false),
        ("Edit, Write", "Edit", false),
        ("my-tool", "xmy-toolx", true),
        ("*", "anything", true),
        ("", "anything", true),
        ("bash", "Bash", false),
    ];
    for (matcher, tool, runs) in cases {
        let e = ws.engine(codex("PreToolUse", &[(Some(matcher), vec![cmd("cat >/dev/null")])]));
        let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": tool}));
        assert_eq!(!out["hooks"].as_array().unwrap().is_empty(), *runs, "matcher {matcher:?} on {tool:?}");
    }
}

/// "SessionStart: `source` … SessionEnd: reason, always the literal
/// `"other"` … SubagentStart/SubagentStop: `agent_type` … PreCompact:
/// `trigger`".
#[test]
fn lifecycle_matchers_test_source_other_agent_type_and_trigger() {
    let ws = Ws::new();
    let ran = |key: &str, matcher: &str, event: HookEvent, i: Value, extra: Value| {
        let mut o = json!({"hooks": codex(key, &[(Some(matcher), vec![cmd("cat >/dev/null")])]), "dialect": "codex"});
        for (k, v) in extra.as_object().unwrap() {
            o[k] = v.clone();
        }
        let e = ws.engine_with(o);
        !run(&e, event, &i)["hooks"].as_array().unwrap().is_empty()
    };
    assert!(ran("SessionStart", "resume", HookEvent::SessionStart, json!({}), json!({"trigger": "resume"})));
    assert!(!ran("SessionStart", "startup", HookEvent::SessionStart, json!({}), json!({"trigger": "resume"})));
    assert!(ran("SessionStart", "clear", HookEvent::SessionStart, json!({}), json!({"trigger": "new_session"})));
    assert!(ran("SessionEnd", "other", HookEvent::SessionEnd, input(HookEvent::SessionEnd), json!({})));
    assert!(!ran("SessionEnd", "exit", HookEvent::SessionEnd, input(HookEvent::SessionEnd), json!({})));
    let mut sub = input(HookEvent::SubagentStart);
    sub["agent_type"] = json!("reviewer");
    assert!(ran("SubagentStart", "reviewer", HookEvent::SubagentStart, sub.clone(), json!({})));
    assert!(!ran("SubagentStart", "explorer", HookEvent::SubagentStart, sub, json!({})));
    assert!(ran("SubagentStop", "explorer", HookEvent::SubagentStop, input(HookEvent::SubagentStop), json!({})));
    assert!(ran("PreCompact", "auto", HookEvent::PreCompact, input(HookEvent::PreCompact), json!({})));
    assert!(!ran("PreCompact", "manual", HookEvent::PreCompact, input(HookEvent::PreCompact), json!({})));
}

// ----------------------------------------------------- running, order, dedupe

/// Codex `select_handlers_keeps_duplicate_stop_handlers` and
/// `select_handlers_keeps_overlapping_session_start_matchers`: "Identical
/// handlers (same command, even in one group) all run".
#[test]
fn select_handlers_keeps_duplicate_stop_handlers() {
    let ws = Ws::new();
    let log = ws.file("log");
    let hook = cmd(format!("cat >/dev/null; echo x >> '{}'", log.display()));
    let e = ws.engine(codex("Stop", &[(None, vec![hook.clone(), hook.clone()]), (None, vec![hook.clone()])]));
    run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert_eq!(ws.read("log"), "x\nx\nx\n");
    let e = ws
        .engine(codex("SessionStart", &[(Some("startup"), vec![hook.clone()]), (Some("startup|resume"), vec![hook])]));
    run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(ws.read("log").lines().count(), 5);
}

/// "All matching sync handlers of one event start concurrently … so one hook
/// cannot prevent another matching hook from starting. This holds for every
/// event, including PreToolUse, UserPromptSubmit, Stop, PermissionRequest.
/// There is no short-circuit." The first hook waits for a file only the
/// second creates.
#[test]
fn every_matching_hook_runs_at_once_to_completion() {
    for event in [HookEvent::PreToolUse, HookEvent::UserPromptSubmit, HookEvent::Stop, HookEvent::PermissionRequest] {
        let ws = Ws::new();
        let flag = ws.file("flag");
        let waits = format!(
            "cat >/dev/null; n=0; while [ ! -e '{}' ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n+1)); done; [ -e '{}' ] && echo saw >> '{}'",
            flag.display(), flag.display(), ws.file("log").display()
        );
        let creates = format!("cat >/dev/null; touch '{}'; echo 'blocked' >&2; exit 2", flag.display());
        let e = ws.engine(codex(event.name(), &[(None, vec![cmd(waits), cmd(creates)])]));
        let out = run(&e, event, input(event));
        assert_eq!(out["hooks"].as_array().unwrap().len(), 2, "{event}: no short-circuit");
        assert_eq!(ws.read("log"), "saw\n", "{event}: the second hook started while the first was running");
    }
}

// ------------------------------------------------------ PreToolUse rows

/// Codex `permission_decision_deny_blocks_processing`.
#[test]
fn permission_decision_deny_blocks_processing() {
    let out = run_one(HookEvent::PreToolUse, say(pre("deny", Some("do not run that"), json!({}))));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("do not run that")));
    no_errors(&out);
    assert_eq!(failure(&out, 0), Value::Null, "a deny is an answer, not a failure");
}

/// "`permissionDecision:"deny"` with empty/missing reason → invalid: Error
/// `PreToolUse hook returned permissionDecision:deny without a non-empty
/// permissionDecisionReason`, **tool runs**".
#[test]
fn a_deny_without_a_reason_fails_open() {
    for reason in [None, Some("  ")] {
        let out = run_one(HookEvent::PreToolUse, say(pre("deny", reason, json!({}))));
        assert_eq!(out["decision"], "continue");
        assert!(the_error(&out).ends_with(
            "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason"
        ));
        assert_eq!(failure(&out, 0), "invalid_output");
    }
}

/// Codex `permission_decision_allow_can_update_input`: "`permissionDecision:
/// "allow"` + `updatedInput` → **rewrite** only (not an approval …; normal
/// approval still applies)".
#[test]
fn permission_decision_allow_can_update_input() {
    let out =
        run_one(HookEvent::PreToolUse, say(pre("allow", None, json!({"updatedInput": {"command": "echo rewritten"}}))));
    assert_eq!(out["decision"], "continue", "allow is not an approval in Codex");
    assert_eq!(out["updated_input"], json!({"command": "echo rewritten"}));
    no_errors(&out);
}

/// Codex `permission_decision_allow_without_updated_input_fails_open`:
/// "invalid: `… unsupported permissionDecision:allow`, tool runs, context
/// dropped".
#[test]
fn permission_decision_allow_without_updated_input_fails_open() {
    let out = run_one(HookEvent::PreToolUse, say(pre("allow", Some("fine"), json!({"additionalContext": "ctx"}))));
    assert_eq!(out["decision"], "continue");
    assert_eq!(out["additional_context"], json!([]));
    assert!(the_error(&out).ends_with("PreToolUse hook returned unsupported permissionDecision:allow"));
}

/// Codex `unsupported_permission_decision_fails_open`: "`permissionDecision:
/// "ask"` → invalid: `… unsupported permissionDecision:ask`, tool runs".
#[test]
fn unsupported_permission_decision_fails_open() {
    let out = run_one(HookEvent::PreToolUse, say(pre("ask", Some("check with the user"), json!({}))));
    assert_eq!(out["decision"], "continue");
    assert!(the_error(&out).ends_with("PreToolUse hook returned unsupported permissionDecision:ask"));
}

/// "`updatedInput` with any decision but `allow` (incl. `deny`) → invalid: `…
/// updatedInput without permissionDecision:allow` — a deny that carries
/// updatedInput does not block"; "`permissionDecisionReason` without
/// `permissionDecision` → invalid".
#[test]
fn a_deny_that_carries_updated_input_does_not_block() {
    let out = run_one(HookEvent::PreToolUse, say(pre("deny", Some("no"), json!({"updatedInput": {"command": "x"}}))));
    assert_eq!(out["decision"], "continue");
    assert_eq!(out["updated_input"], Value::Null);
    assert!(the_error(&out).ends_with("PreToolUse hook returned updatedInput without permissionDecision:allow"));
    let reason_only = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecisionReason": "why"}});
    let out = run_one(HookEvent::PreToolUse, say(reason_only));
    assert!(the_error(&out).ends_with("PreToolUse hook returned permissionDecisionReason without permissionDecision"));
}

/// Codex `deprecated_block_decision_blocks_processing`: "legacy
/// `decision:"block"` + non-empty `reason` (used only when hookSpecificOutput
/// has none of decision/reason/updatedInput) → block"; without reason,
/// `approve`, or a reason alone are invalid.
#[test]
fn deprecated_block_decision_blocks_processing() {
    let out = run_one(
        HookEvent::PreToolUse,
        say(json!({"decision": "block", "reason": "legacy no",
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "kept"}})),
    );
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("legacy no")));
    assert_eq!(out["additional_context"], json!(["kept"]), "context is kept when the hook blocks");
    for (output, error) in [
        (json!({"decision": "block"}), "PreToolUse hook returned decision:block without a non-empty reason"),
        (json!({"decision": "approve"}), "PreToolUse hook returned unsupported decision:approve"),
        (json!({"reason": "why"}), "PreToolUse hook returned reason without decision"),
    ] {
        let out = run_one(HookEvent::PreToolUse, say(output.clone()));
        assert_eq!(out["decision"], "continue", "{output}");
        assert!(the_error(&out).ends_with(error), "{output}: {out}");
    }
    // hookSpecificOutput's decision wins over the legacy one.
    let both = json!({"decision": "block", "reason": "legacy", "hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "specific"}});
    assert_eq!(run_one(HookEvent::PreToolUse, say(both))["reason"], "specific");
}

/// "`continue:false`, `stopReason`, `suppressOutput` → invalid (`…
/// unsupported continue:false` / `stopReason` / `suppressOutput`), tool
/// runs".
#[test]
fn pre_tool_use_rejects_continue_false_stop_reason_and_suppress_output() {
    for (output, error) in [
        (json!({"continue": false, "stopReason": "halt"}), "PreToolUse hook returned unsupported continue:false"),
        (json!({"stopReason": "halt"}), "PreToolUse hook returned unsupported stopReason"),
        (json!({"suppressOutput": true}), "PreToolUse hook returned unsupported suppressOutput"),
    ] {
        let out = run_one(HookEvent::PreToolUse, say(output.clone()));
        assert_eq!((out["decision"].as_str(), out["continue"].as_bool()), (Some("continue"), Some(true)), "{output}");
        assert!(the_error(&out).ends_with(error), "{output}");
    }
}

/// Codex `plain_stdout_is_ignored` (PreToolUse), and "`systemMessage` (any
/// event that parses) → Warning entry".
#[test]
fn plain_stdout_is_ignored() {
    let out = run_one(HookEvent::PreToolUse, print("just some logging"));
    assert_eq!(out["decision"], "continue");
    assert!(out["messages"].as_array().unwrap().is_empty(), "{out}");
    let out = run_one(HookEvent::PreToolUse, say(json!({"systemMessage": "heads up"})));
    assert_eq!(texts(&out, "warning"), ["heads up"]);
}

/// "any unknown key anywhere … → not parsed … stdout *looks like JSON* →
/// Error `hook returned invalid <event> JSON output`, status Failed, no
/// effect". A Claude Code hook's output with a field Codex does not know
/// fails open.
#[test]
fn output_with_an_unknown_field_is_invalid_and_fails_open() {
    let claude_style = pre("deny", Some("no"), json!({"updatedPermissions": []}));
    let out = run_one(HookEvent::PreToolUse, say(claude_style));
    assert_eq!(out["decision"], "continue");
    assert!(the_error(&out).ends_with("hook returned invalid pre-tool-use JSON output"), "{out}");
    assert_eq!(failure(&out, 0), "invalid_output");
    let out = run_one(HookEvent::PreToolUse, print("{not json"));
    assert!(the_error(&out).ends_with("hook returned invalid pre-tool-use JSON output"));
    let out = run_one(HookEvent::PreToolUse, print("[1, 2]"));
    assert!(the_error(&out).ends_with("hook returned invalid pre-tool-use JSON output"), "a JSON array: {out}");
}

/// "Exit 2 + stderr → block with stderr (stdout, including any
/// `updatedInput`, ignored)"; blank stderr: "Error `<Event> hook exited with
/// code 2 but did not write a blocking reason … to stderr` and no effect".
#[test]
fn pre_tool_use_exit_2_denies_with_stderr_and_ignores_stdout() {
    let rewrite = pre("allow", None, json!({"updatedInput": {"command": "x"}, "additionalContext": "ctx"}));
    let out = run_one(HookEvent::PreToolUse, exits(2, &rewrite.to_string(), "  not allowed \n"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("not allowed")));
    assert_eq!((&out["updated_input"], &out["additional_context"]), (&Value::Null, &json!([])));
    no_errors(&out);
    let out = run_one(HookEvent::PreToolUse, exits(2, &pre("deny", Some("json says no"), json!({})).to_string(), ""));
    assert_eq!(out["decision"], "continue", "exit 2 without stderr does not block, whatever stdout says");
    assert!(
        the_error(&out).ends_with("PreToolUse hook exited with code 2 but did not write a blocking reason to stderr")
    );
    assert_eq!(failure(&out, 0), "exit");
}

/// "Other non-zero exit: Error `hook exited with code N` …; stdout ignored;
/// no effect (fail-open)"; a timeout: "`hook timed out after Ns` and no
/// decision (fail-open for every event, including PreToolUse)"; a signal:
/// "`hook exited without a status code`".
#[test]
fn failing_hooks_fail_open_on_pre_tool_use() {
    let deny = pre("deny", Some("no"), json!({})).to_string();
    let out = run_one(HookEvent::PreToolUse, exits(1, &deny, "boom"));
    assert_eq!(out["decision"], "continue");
    assert!(the_error(&out).ends_with("hook exited with code 1"), "{out}");
    let ws = Ws::new();
    let e =
        ws.engine(codex("PreToolUse", &[(None, vec![json!({"type": "command", "command": "sleep 5", "timeout": 1})])]));
    let out = run(&e, HookEvent::PreToolUse, input(HookEvent::PreToolUse));
    assert_eq!(out["decision"], "continue", "Codex fails open on a timeout");
    assert!(the_error(&out).ends_with("hook timed out after 1s"));
    assert_eq!(failure(&out, 0), "timeout");
    let out = run_one(HookEvent::PreToolUse, "cat >/dev/null; kill -9 $$".into());
    assert_eq!(out["decision"], "continue");
    assert!(the_error(&out).ends_with("hook exited without a status code"), "{out}");
    assert_eq!(failure(&out, 0), "signal");
}

/// "Combination over hooks: blocked if **any** hook blocked; the reason is
/// the **first in configuration order** that has one; contexts from all
/// hooks in configuration order; `updatedInput` = … and none at all if any
/// hook blocked."
#[test]
fn pre_tool_use_any_deny_blocks_with_the_first_reason_and_drops_every_rewrite() {
    let ctx = |c: &str| say(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": c}}));
    let rewrite = say(pre("allow", None, json!({"updatedInput": {"command": "safe"}, "additionalContext": "r"})));
    let out = run_hooks(
        HookEvent::PreToolUse,
        vec![
            cmd(rewrite.clone()),
            cmd(ctx("a")),
            cmd(say(pre("deny", Some("first"), json!({})))),
            cmd(exits(2, "", "second")),
        ],
    );
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("first")));
    assert_eq!(out["updated_input"], Value::Null, "a blocked call has no rewrite");
    assert_eq!(out["additional_context"], json!(["r", "a"]));
    let out = run_hooks(HookEvent::PreToolUse, vec![cmd(rewrite), cmd(ctx("b"))]);
    assert_eq!((out["decision"].as_str(), &out["updated_input"]), (Some("continue"), &json!({"command": "safe"})));
}

/// Codex `last_completed_updated_input_wins`: "`updatedInput` = the one
/// from the hook that **finished last** (completion order, not
/// configuration order …)"; "every hook receives the **original** input".
#[test]
fn last_completed_updated_input_wins() {
    let ws = Ws::new();
    let seen = ws.file("seen");
    let slow_first = format!(
        "cat > '{}'; sleep 0.5; printf '%s' '{}'",
        seen.display(),
        pre("allow", None, json!({"updatedInput": {"command": "configured first, finishes last"}}))
    );
    let fast_second = say(pre("allow", None, json!({"updatedInput": {"command": "configured last"}})));
    let e = ws.engine(codex("PreToolUse", &[(None, vec![cmd(slow_first.clone()), cmd(fast_second.clone())])]));
    let out = run(&e, HookEvent::PreToolUse, input(HookEvent::PreToolUse));
    assert_eq!(out["updated_input"], json!({"command": "configured first, finishes last"}), "{out}");
    let payload: Value = serde_json::from_str(&ws.read("seen")).unwrap();
    assert_eq!(payload["tool_input"], json!({"command": "ls"}), "every hook reads the original input");
    let w = texts(&out, "warning");
    assert!(w.len() == 1 && w[0].contains("the last to finish wins"), "{w:?}");
    // The other way round, the slow hook configured last still wins.
    let e = ws.engine(codex("PreToolUse", &[(None, vec![cmd(fast_second), cmd(slow_first)])]));
    let out = run(&e, HookEvent::PreToolUse, input(HookEvent::PreToolUse));
    assert_eq!(out["updated_input"], json!({"command": "configured first, finishes last"}), "{out}");
}

/// Codex `pre_tool_use_blocks_shell_command_before_execution` and
/// `pre_tool_use_blocks_apply_patch_with_write_alias`: "`tool_name` is the
/// **canonical Codex name**: `Bash` for shell tools …, `apply_patch` for file
/// edits"; "`tool_input` for Bash and apply_patch is `{"command": <string>}`";
/// "Aliases: `apply_patch` → `Write`, `Edit`. stdin still says `tool_name:
/// "apply_patch"`".
#[test]
fn pre_tool_use_blocks_shell_commands_and_apply_patch_by_its_write_alias() {
    let ws = Ws::new();
    let seen = ws.file("seen");
    let guard =
        |reason: &str| format!("cat > '{}'; printf '%s' '{}'", seen.display(), pre("deny", Some(reason), json!({})));
    let e = ws.engine(codex("PreToolUse", &[(Some("Bash"), vec![cmd(guard("no shell"))])]));
    let bash = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /tmp/x"}, "tool_call_id": "c1"});
    let out = run(&e, HookEvent::PreToolUse, &bash);
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("no shell")));
    let payload: Value = serde_json::from_str(&ws.read("seen")).unwrap();
    assert_eq!((&payload["tool_name"], &payload["tool_input"]), (&json!("Bash"), &json!({"command": "rm -rf /tmp/x"})));
    let e = ws.engine(codex("PreToolUse", &[(Some("Write"), vec![cmd(guard("no edits"))])]));
    let patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch";
    let edit = json!({"tool_name": "apply_patch", "tool_input": {"command": patch}, "tool_call_id": "c2"});
    let out = run(&e, HookEvent::PreToolUse, &edit);
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("no edits")));
    let payload: Value = serde_json::from_str(&ws.read("seen")).unwrap();
    assert_eq!(payload["tool_name"], "apply_patch");
    assert_eq!(payload["tool_input"]["command"], patch);
}

/// Codex `deprecated_block_decision_with_additional_context_blocks_processing`:
/// "legacy `decision:"block"` + non-empty `reason` (used only when
/// hookSpecificOutput has none of decision/reason/updatedInput) → block";
/// "`hookSpecificOutput.additionalContext` … kept also when the hook blocks".
#[test]
fn deprecated_block_decision_with_additional_context_blocks_processing() {
    let out = run_one(
        HookEvent::PreToolUse,
        say(json!({"decision": "block", "reason": "do not run that",
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "remember this"}})),
    );
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("do not run that")));
    assert_eq!(out["additional_context"], json!(["remember this"]));
    no_errors(&out);
}

// ------------------------------------------------------ PermissionRequest

/// "`hookSpecificOutput.decision.behavior:"allow"` → approve without prompt;
/// `"deny"` → deny with `message` (trimmed) or default `PermissionRequest hook
/// denied approval`".
#[test]
fn permission_request_allows_and_denies() {
    let decide = |d: Value| say(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": d}}));
    let out = run_one(HookEvent::PermissionRequest, decide(json!({"behavior": "allow"})));
    assert_eq!(out["decision"]["behavior"], "allow");
    let out = run_one(HookEvent::PermissionRequest, decide(json!({"behavior": "deny", "message": " not on main "})));
    assert_eq!(
        (out["decision"]["behavior"].as_str(), out["decision"]["message"].as_str()),
        (Some("deny"), Some("not on main"))
    );
    let out = run_one(HookEvent::PermissionRequest, decide(json!({"behavior": "deny"})));
    assert_eq!(out["decision"]["message"], "PermissionRequest hook denied approval");
    let out = run_one(
        HookEvent::PermissionRequest,
        say(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest"}})),
    );
    assert_eq!(out["decision"], Value::Null);
    no_errors(&out);
}

/// Codex `permission_request_rejects_reserved_updated_input_field` (and
/// `…_updated_permissions_field`, `…_interrupt_field`): "invalid (`…
/// unsupported updatedInput` / `updatedPermissions` / `interrupt:true`) → no
/// decision"; `continue:false`/`stopReason`/`suppressOutput` invalid too.
#[test]
fn permission_request_rejects_reserved_fields() {
    let decide = |d: Value| json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": d}});
    for (output, error) in [
        (
            decide(json!({"behavior": "allow", "updatedInput": {}})),
            "PermissionRequest hook returned unsupported updatedInput",
        ),
        (
            decide(json!({"behavior": "allow", "updatedPermissions": {}})),
            "PermissionRequest hook returned unsupported updatedPermissions",
        ),
        (
            decide(json!({"behavior": "deny", "interrupt": true})),
            "PermissionRequest hook returned unsupported interrupt:true",
        ),
        (json!({"continue": false}), "PermissionRequest hook returned unsupported continue:false"),
        (json!({"suppressOutput": true}), "PermissionRequest hook returned unsupported suppressOutput"),
    ] {
        let out = run_one(HookEvent::PermissionRequest, say(output.clone()));
        assert_eq!(out["decision"], Value::Null, "{output}");
        assert!(the_error(&out).ends_with(error), "{output}: {out}");
    }
}

/// "Exit 2 + stderr → **deny** with stderr as message (unlike Claude Code,
/// where exit 2 is no decision)".
#[test]
fn permission_request_exit_2_denies_with_stderr() {
    let out = run_one(HookEvent::PermissionRequest, exits(2, "", "needs review\n"));
    assert_eq!(
        (out["decision"]["behavior"].as_str(), out["decision"]["message"].as_str()),
        (Some("deny"), Some("needs review"))
    );
    let out = run_one(HookEvent::PermissionRequest, exits(2, "", ""));
    assert_eq!(out["decision"], Value::Null);
    assert!(the_error(&out)
        .ends_with("PermissionRequest hook exited with code 2 but did not write a denial reason to stderr"));
}

/// Codex `permission_request_deny_overrides_earlier_allow` and
/// `permission_request_returns_allow_when_no_handler_denies`: "**any deny
/// wins** (first deny in configuration order supplies the message);
/// otherwise any allow → allow".
#[test]
fn permission_request_deny_overrides_earlier_allow() {
    let decide =
        |d: Value| cmd(say(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": d}})));
    let out = run_hooks(
        HookEvent::PermissionRequest,
        vec![
            decide(json!({"behavior": "allow"})),
            decide(json!({"behavior": "deny", "message": "repo deny"})),
            decide(json!({"behavior": "deny", "message": "later deny"})),
        ],
    );
    assert_eq!(
        (out["decision"]["behavior"].as_str(), out["decision"]["message"].as_str()),
        (Some("deny"), Some("repo deny"))
    );
    assert_eq!(out["hooks"].as_array().unwrap().len(), 3, "every hook ran");
    let out =
        run_hooks(HookEvent::PermissionRequest, vec![decide(json!({"behavior": "allow"})), cmd("cat >/dev/null")]);
    assert_eq!(out["decision"]["behavior"], "allow");
}

// ------------------------------------------------------------ PostToolUse

/// Codex `post_tool_use_block_decision_replaces_shell_command_output_with_reason`:
/// "Bash `tool_response` is the output string (… `tool_response ==
/// "blocked-output"`)"; "`decision:"block"` + non-empty `reason` → feedback:
/// the tool result the model sees is **replaced by the reason**".
#[test]
fn post_tool_use_block_decision_replaces_shell_command_output_with_reason() {
    let ws = Ws::new();
    let seen = ws.file("seen");
    let hook = format!(
        "cat > '{}'; printf '%s' '{}'",
        seen.display(),
        json!({"decision": "block", "reason": "blocked by post hook"})
    );
    let e = ws.engine(codex("PostToolUse", &[(Some("Bash"), vec![cmd(hook)])]));
    let out = run(
        &e,
        HookEvent::PostToolUse,
        json!({"tool_name": "Bash", "tool_input": {"command": "echo blocked-output"},
            "tool_response": "blocked-output", "tool_call_id": "c1", "turn_id": "t1"}),
    );
    assert_eq!(out["block_reason"], "blocked by post hook");
    let payload: Value = serde_json::from_str(&ws.read("seen")).unwrap();
    assert_eq!(payload["tool_response"], "blocked-output", "the output string, as given");
    assert_eq!(payload["tool_use_id"], "c1");
}

/// Codex `block_decision_stops_normal_processing`: "`decision:"block"` +
/// non-empty `reason` → feedback: the tool result the model sees is
/// **replaced by the reason**"; `additional_context_is_recorded`.
#[test]
fn block_decision_stops_normal_processing() {
    let out =
        run_one(HookEvent::PostToolUse, say(json!({"decision": "block", "reason": "bash output looked sketchy"})));
    assert_eq!(out["block_reason"], "bash output looked sketchy");
    assert_eq!(out["continue"], true);
    let out = run_one(
        HookEvent::PostToolUse,
        say(json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
        "additionalContext": "Remember the bash cleanup note."}})),
    );
    assert_eq!(out["additional_context"], json!(["Remember the bash cleanup note."]));
}

/// "`decision:"block"` without non-empty reason → invalid …; `reason` without
/// `decision` (and `continue` true) → invalid"; Codex
/// `unsupported_updated_mcp_tool_output_fails_open`; `suppressOutput`
/// invalid. The context of an invalid output is dropped.
#[test]
fn post_tool_use_invalid_outputs_fail_open_and_drop_their_context() {
    let ctx = json!({"hookEventName": "PostToolUse", "additionalContext": "dropped"});
    for (output, error) in [
        (
            json!({"decision": "block", "hookSpecificOutput": ctx}),
            "PostToolUse hook returned decision:block without a non-empty reason",
        ),
        (json!({"reason": "why", "hookSpecificOutput": ctx}), "PostToolUse hook returned reason without decision"),
        (
            json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedMCPToolOutput": {"ok": true}, "additionalContext": "dropped"}}),
            "PostToolUse hook returned unsupported updatedMCPToolOutput",
        ),
        (
            json!({"suppressOutput": true, "hookSpecificOutput": ctx}),
            "PostToolUse hook returned unsupported suppressOutput",
        ),
    ] {
        let out = run_one(HookEvent::PostToolUse, say(output.clone()));
        assert_eq!((&out["block_reason"], &out["additional_context"]), (&Value::Null, &json!([])), "{output}");
        assert!(the_error(&out).ends_with(error), "{output}: {out}");
    }
}

/// "`continue:false` → status Stopped, Stop entry = `stopReason` or
/// `PostToolUse hook stopped execution`; model feedback = trimmed `reason` if
/// any, else the stop text; **`continue:false` is checked before the other
/// validity checks**".
#[test]
fn post_tool_use_continue_false_stops_and_feeds_back_the_reason() {
    let out = run_one(
        HookEvent::PostToolUse,
        say(json!({"continue": false, "stopReason": "halt now", "reason": " tell the model "})),
    );
    assert_eq!((out["continue"].as_bool(), out["stop_reason"].as_str()), (Some(false), Some("halt now")));
    assert_eq!(out["block_reason"], "tell the model");
    let out = run_one(HookEvent::PostToolUse, say(json!({"continue": false})));
    assert_eq!(
        (&out["stop_reason"], out["block_reason"].as_str()),
        (&Value::Null, Some("PostToolUse hook stopped execution"))
    );
    // Checked first: a reason without decision is no error here.
    no_errors(&out);
}

/// "Exit 2 + stderr → feedback (tool result replaced by stderr)"; "feedback
/// messages of all hooks joined with `\n\n` in configuration order".
#[test]
fn post_tool_use_feedback_of_every_hook_is_joined_in_order() {
    let out = run_hooks(
        HookEvent::PostToolUse,
        vec![
            cmd(say(json!({"decision": "block", "reason": "first"}))),
            cmd(exits(2, "{\"ignored\":true}", "second\n")),
            cmd(say(json!({"decision": "block", "reason": "third"}))),
        ],
    );
    assert_eq!(out["block_reason"], "first\n\nsecond\n\nthird");
    let out = run_one(HookEvent::PostToolUse, exits(2, "", ""));
    assert!(the_error(&out).ends_with("PostToolUse hook exited with code 2 but did not write feedback to stderr"));
}

// ------------------------------------------------------- UserPromptSubmit

/// Codex `claude_block_decision_blocks_processing`: "`decision:"block"` +
/// non-empty `reason` → prompt rejected … **context is recorded even when the
/// prompt is blocked**".
#[test]
fn claude_block_decision_blocks_processing() {
    let out = run_one(
        HookEvent::UserPromptSubmit,
        say(json!({"decision": "block", "reason": "slow down",
        "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "do not inject"}})),
    );
    assert_eq!((out["allow_prompt"].as_bool(), out["block_reason"].as_str()), (Some(false), Some("slow down")));
    assert_eq!(out["additional_context"], json!(["do not inject"]));
    assert_eq!(out["continue"], true);
}

/// Codex `claude_block_decision_requires_reason`: "`decision:"block"` without
/// reason → invalid, context dropped".
#[test]
fn claude_block_decision_requires_reason() {
    let out = run_one(
        HookEvent::UserPromptSubmit,
        say(json!({"decision": "block",
        "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "do not inject"}})),
    );
    assert_eq!((out["allow_prompt"].as_bool(), &out["additional_context"]), (Some(true), &json!([])));
    assert!(the_error(&out).ends_with("UserPromptSubmit hook returned decision:block without a non-empty reason"));
}

/// Codex `continue_false_preserves_context_for_later_turns`: "`continue:false`
/// → prompt rejected, stop reason = `stopReason` (checked first)", the
/// context still recorded.
#[test]
fn continue_false_preserves_context_for_later_turns() {
    let out = run_one(
        HookEvent::UserPromptSubmit,
        say(json!({"continue": false, "stopReason": "pause",
        "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "do not inject"}})),
    );
    assert_eq!((out["continue"].as_bool(), out["stop_reason"].as_str()), (Some(false), Some("pause")));
    assert_eq!((out["allow_prompt"].as_bool(), out["block_reason"].as_str()), (Some(false), Some("pause")));
    assert_eq!(out["additional_context"], json!(["do not inject"]));
}

/// "`hookSpecificOutput.additionalContext` or plain text → developer
/// context"; Codex `exit_code_two_blocks_processing`: "Exit 2 + stderr →
/// block, reason = stderr"; "blocked if any; reason = first in configuration
/// order".
#[test]
fn user_prompt_submit_plain_text_is_context_and_exit_2_blocks() {
    let out = run_hooks(
        HookEvent::UserPromptSubmit,
        vec![
            cmd(print("branch: main")),
            cmd(exits(2, "", "blocked by policy\n")),
            cmd(say(json!({"decision": "block", "reason": "second reason"}))),
        ],
    );
    assert_eq!(out["additional_context"], json!(["branch: main"]));
    assert_eq!((out["allow_prompt"].as_bool(), out["block_reason"].as_str()), (Some(false), Some("blocked by policy")));
    let out = run_one(HookEvent::UserPromptSubmit, exits(2, "", " "));
    assert_eq!(out["allow_prompt"], true);
    assert!(the_error(&out)
        .ends_with("UserPromptSubmit hook exited with code 2 but did not write a blocking reason to stderr"));
    let out = run_one(HookEvent::UserPromptSubmit, print("{\"broken\":"));
    assert!(the_error(&out).ends_with("hook returned invalid user prompt submit JSON output"));
}

// ------------------------------------------------- SessionStart, SubagentStart

/// Codex `plain_stdout_becomes_model_context` (SessionStart) and
/// `continue_false_preserves_context_for_later_turns` (SessionStart): "plain
/// text / `additionalContext` → developer context"; "`continue:false` →
/// SessionStart only: stop (`should_stop`), context still recorded".
#[test]
fn plain_stdout_becomes_model_context() {
    let out = run_one(HookEvent::SessionStart, print("hello from hook"));
    assert_eq!(out["additional_context"], json!(["hello from hook"]));
    let out = run_one(
        HookEvent::SessionStart,
        say(json!({"continue": false, "stopReason": "pause",
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "do not inject"}})),
    );
    assert_eq!((out["continue"].as_bool(), out["stop_reason"].as_str()), (Some(false), Some("pause")));
    assert_eq!(out["additional_context"], json!(["do not inject"]));
}

/// "plain text / `additionalContext` → developer context": plain text is
/// the trimmed stdout, while `additionalContext` reaches the model as the
/// hook wrote it (Codex appends the string unchanged) — a script that
/// passes on a command's output keeps its newlines. SubagentStart's too.
#[test]
fn additional_context_is_kept_as_written_and_plain_text_is_trimmed() {
    let out = run_one(HookEvent::SessionStart, print("  hello from hook\n"));
    assert_eq!(out["additional_context"], json!(["hello from hook"]));
    let written = "  M src/lib.rs\n?? notes.txt\n";
    for (event, key) in [
        (HookEvent::SessionStart, "SessionStart"),
        (HookEvent::UserPromptSubmit, "UserPromptSubmit"),
        (HookEvent::PreToolUse, "PreToolUse"),
        (HookEvent::PostToolUse, "PostToolUse"),
    ] {
        let out =
            run_one(event, say(json!({"hookSpecificOutput": {"hookEventName": key, "additionalContext": written}})));
        assert_eq!(out["additional_context"], json!([written]), "{key}: {out}");
    }
    let out = run_one(
        HookEvent::SubagentStart,
        say(json!({"hookSpecificOutput": {"hookEventName": "SubagentStart", "additionalContext": written}})),
    );
    assert_eq!(out["dialect_fields"]["codex"]["additionalContext"], json!([written]));
    // An empty context says nothing.
    let out = run_one(
        HookEvent::SessionStart,
        say(json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": ""}})),
    );
    assert_eq!(out["additional_context"], json!([]));
}

/// Codex `invalid_json_like_stdout_fails_instead_of_becoming_model_context`;
/// "Exit 2 → ordinary failure (`hook exited with code 2`)" on SessionStart.
#[test]
fn invalid_json_like_stdout_fails_instead_of_becoming_model_context() {
    let out = run_one(HookEvent::SessionStart, print(r#"{"hookSpecificOutput":{"hookEventName":"SessionStart""#));
    assert_eq!(out["additional_context"], json!([]));
    assert!(the_error(&out).ends_with("hook returned invalid session start JSON output"));
    let out = run_one(HookEvent::SessionStart, exits(2, "context?", "stderr"));
    assert_eq!(out["additional_context"], json!([]));
    assert!(the_error(&out).ends_with("hook exited with code 2"), "{out}");
}

/// Codex `subagent_start_plain_stdout_becomes_model_context` and
/// `subagent_start_continue_false_is_ignored`: the child's context (under
/// `dialect_fields.codex.additionalContext`: the canonical SubagentStart
/// outcome has no context slot); `continue:false` ignored.
#[test]
fn subagent_start_context_is_for_the_child_and_continue_false_is_ignored() {
    let out = run_hooks(
        HookEvent::SubagentStart,
        vec![
            cmd(print("hello from subagent hook")),
            cmd(say(json!({"continue": false, "stopReason": "skip child",
            "hookSpecificOutput": {"hookEventName": "SubagentStart", "additionalContext": "child context"}}))),
        ],
    );
    assert_eq!(
        out["dialect_fields"],
        json!({"codex": {"additionalContext": ["hello from subagent hook", "child context"]}})
    );
    assert_eq!((out["continue"].as_bool(), &out["stop_reason"]), (Some(true), &Value::Null));
    // Outcomes without such fields carry no `dialect_fields` at all.
    assert!(run_one(HookEvent::SubagentStart, "cat >/dev/null".into()).get("dialect_fields").is_none());
}

// ------------------------------------------------------ Stop, SubagentStop

/// Codex `invalid_stdout_fails_instead_of_silently_nooping`: "JSON required on
/// exit 0 (plain text = error)": "hook returned invalid stop hook JSON
/// output"; "`decision` accepts only `"block"`; `"approve"` … makes the whole
/// output invalid".
#[test]
fn invalid_stdout_fails_instead_of_silently_nooping() {
    for stdout in ["all good", r#"{"decision":"approve"}"#, r#"{"decision":"block","reason":"x","extra":1}"#] {
        let out = run_one(HookEvent::Stop, print(stdout));
        assert_eq!(out["block_reason"], Value::Null, "{stdout}");
        assert!(the_error(&out).ends_with("hook returned invalid stop hook JSON output"), "{stdout}: {out}");
    }
    let out = run_one(HookEvent::SubagentStop, print("fine"));
    assert!(the_error(&out).ends_with("hook returned invalid subagent stop hook JSON output"));
    let out = run_one(HookEvent::Stop, say(json!({"decision": "block"})));
    assert!(the_error(&out).ends_with("Stop hook returned decision:block without a non-empty reason"));
}

/// A block's `reason` reaches the model as the hook wrote it on PostToolUse
/// ("`decision:"block"` + non-empty `reason` → feedback: the tool result the
/// model sees is **replaced by the reason**") and UserPromptSubmit
/// ("`decision:"block"` + non-empty `reason` → prompt rejected"): Codex only
/// checks that it is not blank. Stop trims it (next test), exit 2 trims
/// stderr ("the reason is **trimmed stderr**").
#[test]
fn post_tool_use_and_prompt_block_reasons_are_kept_as_written() {
    let written = "Lint failed:\n  src/lib.rs:3 unused import\n";
    let out = run_one(HookEvent::PostToolUse, say(json!({"decision": "block", "reason": written})));
    assert_eq!(out["block_reason"], written);
    let out = run_one(HookEvent::UserPromptSubmit, say(json!({"decision": "block", "reason": written})));
    assert_eq!((out["allow_prompt"].as_bool(), out["block_reason"].as_str()), (Some(false), Some(written)));
    let out = run_one(HookEvent::PostToolUse, exits(2, "", written));
    assert_eq!(out["block_reason"], written.trim());
}

/// "`decision:"block"` + non-empty `reason` → continue the turn; the reason
/// becomes a new user-role continuation prompt"; SubagentStop alike.
#[test]
fn a_stop_block_continues_the_turn_with_its_reason() {
    let out = run_one(HookEvent::Stop, say(json!({"decision": "block", "reason": " run the tests "})));
    assert_eq!(out["block_reason"], "run the tests");
    let out = run_one(HookEvent::SubagentStop, say(json!({"decision": "block", "reason": "check again"})));
    assert_eq!(out["block_reason"], "check again");
}

/// Codex `continue_false_overrides_block_decision`: "`continue:false` → stop,
/// overrides any block from any hook".
#[test]
fn continue_false_overrides_block_decision() {
    let out = run_hooks(
        HookEvent::Stop,
        vec![
            cmd(say(json!({"decision": "block", "reason": "keep going"}))),
            cmd(say(json!({"continue": false, "stopReason": "user asked to stop"}))),
        ],
    );
    assert_eq!((out["continue"].as_bool(), out["stop_reason"].as_str()), (Some(false), Some("user asked to stop")));
    assert_eq!(out["block_reason"], Value::Null);
}

/// Codex `exit_code_two_uses_stderr_feedback_only`: "Exit 2 + stderr → block
/// with stderr; stdout ignored"; blank stderr: "… did not write a
/// continuation prompt to stderr".
#[test]
fn exit_code_two_uses_stderr_feedback_only() {
    let out = run_one(HookEvent::Stop, exits(2, r#"{"decision":"block","reason":"from stdout"}"#, "from stderr"));
    assert_eq!(out["block_reason"], "from stderr");
    let out = run_one(HookEvent::Stop, exits(2, r#"{"decision":"block","reason":"from stdout"}"#, ""));
    assert_eq!(out["block_reason"], Value::Null);
    assert!(the_error(&out).ends_with("Stop hook exited with code 2 but did not write a continuation prompt to stderr"));
}

/// Codex `aggregate_results_concatenates_blocking_reasons_in_declaration_order`:
/// "`block_reason` = all reasons joined with `\n\n` in configuration order".
#[test]
fn aggregate_results_concatenates_blocking_reasons_in_declaration_order() {
    let ws = Ws::new();
    // The first configured hook finishes last.
    let slow = format!("cat >/dev/null; sleep 0.3; printf '%s' '{}'", json!({"decision": "block", "reason": "first"}));
    let e = ws.engine(codex("Stop", &[(None, vec![cmd(slow), cmd(exits(2, "", "second")), cmd("cat >/dev/null")])]));
    let out = run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert_eq!(out["block_reason"], "first\n\nsecond");
}

// ------------------------------------------------- PreCompact, PostCompact

/// Codex `block_decision_is_not_supported_for_pre_compact`: "`decision:"block"`
/// → **invalid JSON**"; "`continue:false` → stop (PreCompact: compaction
/// aborted)"; "Plain text ignored. Exit 2 = failure."
#[test]
fn block_decision_is_not_supported_for_pre_compact() {
    let out = run_one(HookEvent::PreCompact, say(json!({"decision": "block", "reason": "not now"})));
    assert!(the_error(&out).ends_with("hook returned invalid PreCompact hook JSON output"), "{out}");
    assert_eq!(out["continue"], true);
    assert!(out.get("block_reason").is_none(), "nothing blocks a Codex compaction: observer outcome {out}");
    let out = run_one(HookEvent::PreCompact, say(json!({"continue": false, "stopReason": "keep history"})));
    assert_eq!((out["continue"].as_bool(), out["stop_reason"].as_str()), (Some(false), Some("keep history")));
    let out = run_one(HookEvent::PreCompact, print("compacting soon"));
    assert!(out["messages"].as_array().unwrap().is_empty(), "{out}");
    let out = run_one(HookEvent::PreCompact, exits(2, "", "disk full"));
    assert!(the_error(&out).ends_with(": disk full"), "non-zero exits report their stderr: {out}");
    let out = run_one(HookEvent::PreCompact, exits(3, "", ""));
    assert!(the_error(&out).ends_with("hook exited with code 3"));
}

/// PostCompact has no canonical event: it fires by name with Codex's rules
/// (its matcher tests `trigger`).
#[test]
fn post_compact_fires_by_name_with_codexs_rules() {
    let ws = Ws::new();
    let seen = ws.file("payload");
    let e = ws.engine(json!({"hooks": {"PostCompact": [
        {"matcher": "manual", "hooks": [cmd(format!("cat > '{}'; printf '%s' '{{\"continue\":false,\"stopReason\":\"done compacting\"}}'", seen.display()))]},
        {"matcher": "auto", "hooks": [cmd("echo never")]},
    ]}}));
    let out = e.run_named_blocking("PostCompact", &json!({"trigger": "manual", "turn_id": "t9"})).unwrap().to_json();
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1);
    assert_eq!((out["continue"].as_bool(), out["stop_reason"].as_str()), (Some(false), Some("done compacting")));
    let payload: Value = serde_json::from_str(&ws.read("payload")).unwrap();
    assert_eq!(
        (payload["hook_event_name"].as_str(), payload["trigger"].as_str()),
        (Some("PostCompact"), Some("manual"))
    );
    let out = e.run_named_blocking("PostCompact", &json!({"trigger": "manual"})).unwrap().to_json();
    assert!(out["continue"] == false);
    let bad = ws.engine(
        json!({"hooks": {"PostCompact": [{"hooks": [cmd(say(json!({"decision": "block", "reason": "r"})))]}]}}),
    );
    let out = bad.run_named_blocking("PostCompact", &json!({"trigger": "auto"})).unwrap().to_json();
    assert!(the_error(&out).ends_with("hook returned invalid PostCompact hook JSON output"), "{out}");
}

// ----------------------------------------------------------------- SessionEnd

/// Codex `session_end_ignores_successful_output`: "output ignored entirely;
/// non-zero exit → Error with trimmed stderr or `hook exited with code N`".
#[test]
fn session_end_ignores_successful_output() {
    let out = run_one(HookEvent::SessionEnd, say(json!({"continue": false, "systemMessage": "bye", "bogus": 1})));
    assert_eq!((out["continue"].as_bool(), out["messages"].as_array().unwrap().len()), (Some(true), 0), "{out}");
    let out = run_one(HookEvent::SessionEnd, exits(1, "", "could not flush\n"));
    assert!(the_error(&out).ends_with(": could not flush"));
    let out = run_one(HookEvent::SessionEnd, exits(2, "", ""));
    assert!(the_error(&out).ends_with("hook exited with code 2"));
}

// ---------------------------------------------------------------- async hooks

/// "`async: true` → … their results can **never** block, deny, stop or
/// rewrite; only Context entries, Warnings and Errors are delivered"; Codex
/// `block_decision_without_reason_is_invalid` (async): "an async
/// `{"decision":"block"}` Stop hook is `Completed` with no entries".
#[test]
fn async_hooks_never_decide_and_their_invalid_control_fields_are_not_errors() {
    let ws = Ws::new();
    let async_hook = |command: String| json!({"type": "command", "command": command, "async": true});
    let e = ws.engine(json!({"hooks": {
        "Stop": [{"hooks": [async_hook(say(json!({"decision": "block"})))]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [async_hook(say(json!({"decision": "block", "reason": "late",
            "systemMessage": "async says hi", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "late ctx"}})))]}],
    }}));
    let first = run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert!(first["hooks"].as_array().unwrap().is_empty(), "async hooks are not waited for: {first}");
    run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut messages = Vec::new();
    let mut contexts = Vec::new();
    let arrived = |messages: &[Value], contexts: &[Value]| {
        messages.iter().any(|m| m["text"] == "async says hi") && !contexts.is_empty()
    };
    while Instant::now() < deadline && !arrived(&messages, &contexts) {
        std::thread::sleep(Duration::from_millis(50));
        let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "Read", "tool_response": 1}));
        assert_eq!(out["block_reason"], Value::Null, "async hooks never block");
        messages.extend(out["messages"].as_array().unwrap().iter().cloned());
        contexts.extend(out["additional_context"].as_array().unwrap().iter().cloned());
    }
    assert!(messages.iter().any(|m| m["text"] == "async says hi" && m["level"] == "warning"), "{messages:?}");
    assert_eq!(contexts, [json!("late ctx")]);
    assert!(
        !messages.iter().any(|m| m["level"] == "error"),
        "the async Stop block without reason is no error: {messages:?}"
    );
}

/// "On main (#37533): scheduled in the background, at most **8 running at
/// once per session**": ten async hooks all run, never more than eight at
/// a time.
#[test]
fn at_most_eight_async_hooks_run_at_once() {
    let ws = Ws::new();
    let (running, log) = (ws.file("running"), ws.file("log"));
    std::fs::create_dir_all(&running).unwrap();
    let hooks: Vec<Value> = (0..10)
        .map(|i| {
            let dir = running.display();
            let command = format!(
                "cat >/dev/null; : > '{dir}/{i}'; ls '{dir}' | wc -l >> '{}'; sleep 0.4; rm '{dir}/{i}'",
                log.display()
            );
            json!({"type": "command", "command": command, "async": true})
        })
        .collect();
    let e = ws.engine(codex("Stop", &[(None, hooks)]));
    run(&e, HookEvent::Stop, input(HookEvent::Stop));
    let deadline = Instant::now() + Duration::from_secs(20);
    while ws.read("log").lines().count() < 10 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let counts: Vec<usize> = ws.read("log").lines().map(|l| l.trim().parse().unwrap()).collect();
    assert_eq!(counts.len(), 10, "every async hook ran: {counts:?}");
    let most = counts.iter().copied().max().unwrap();
    assert!(most <= 8, "at most eight at once: {counts:?}");
    assert!(most > 1, "they run concurrently: {counts:?}");
}

/// "**Shell**: the session's user shell, non-login: `<shell> -c <command>`
/// for zsh/bash/sh": with `SHELL=/bin/bash` a bash-only command works; a
/// shell that is not bash, zsh or sh (or no such file) falls back to
/// `/bin/sh -c`.
#[test]
fn hooks_run_in_the_users_shell() {
    let bash = ["/bin/bash", "/usr/bin/bash"].into_iter().find(|p| Path::new(p).is_file()).expect("bash is installed");
    let ws = Ws::new();
    let hook = format!(
        "cat >/dev/null; if [[ -n \"$BASH_VERSION\" ]]; then printf '%s' '{}'; fi",
        pre("deny", Some("ran in bash"), json!({}))
    );
    let with_shell = |shell: &str| {
        let e = ws.engine_with(json!({"hooks": codex("PreToolUse", &[(None, vec![cmd(hook.clone())])]),
            "dialect": "codex", "env": {"SHELL": shell}}));
        run(&e, HookEvent::PreToolUse, input(HookEvent::PreToolUse))
    };
    let out = with_shell(bash);
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("ran in bash")), "{out}");
    for other in ["/usr/bin/fish", "/nonexistent/bash", "bash"] {
        let out = with_shell(other);
        let ran_in_bash = out["decision"] == "deny";
        let sh_is_bash = std::fs::read_link("/bin/sh").is_ok_and(|t| t.ends_with("bash"));
        assert_eq!(ran_in_bash, sh_is_bash, "SHELL={other}: /bin/sh -c: {out}");
    }
}

/// Codex `shutdown_aborts_in_flight_async_hooks_without_delivering_context`:
/// "shutdown aborts them without delivering".
#[test]
fn shutdown_aborts_in_flight_async_hooks_without_delivering_context() {
    let ws = Ws::new();
    let (started, done) = (ws.file("started"), ws.file("done"));
    let slow = format!(
        "cat >/dev/null; : > '{}'; sleep 1; echo late > '{}'; printf '%s' '{}'",
        started.display(),
        done.display(),
        json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "late"}})
    );
    let e =
        ws.engine(codex("SessionStart", &[(None, vec![json!({"type": "command", "command": slow, "async": true})])]));
    let out = run(&e, HookEvent::SessionStart, input(HookEvent::SessionStart));
    assert!(out["hooks"].as_array().unwrap().is_empty(), "not waited for: {out}");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !started.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(started.exists(), "the async hook is running");
    e.close();
    drop(e);
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!done.exists(), "the in-flight async hook was killed at shutdown");
}

// ---------------------------------------------------------------- the gate

/// Digest lines name the dialect, so approving a Codex config cannot approve
/// a Claude Code config with the same commands (or the other way round).
#[test]
fn codex_digest_lines_name_the_dialect() {
    let ws = Ws::new();
    let group = json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 10}]}]);
    let codex_engine = ws.engine(json!({"hooks": {"PreToolUse": group}}));
    let claude_engine = ws.engine_with(json!({"hooks": {"PreToolUse": group}, "dialect": "claude"}));
    let previews = serde_json::to_value(codex_engine.command_previews()).unwrap();
    assert_eq!(
        previews,
        json!([{"type": "command", "dialect": "codex", "event": "pre_tool_use", "matcher": "Bash",
        "command": "./check.sh", "timeout_seconds": 10, "pins": [],
        "env": {"inherit": true, "scrub": [], "set": []}}])
    );
    assert_eq!(claude_engine.command_digest(), "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89");
    assert_ne!(codex_engine.command_digest(), claude_engine.command_digest());
    // A gated Codex engine runs nothing before approval.
    let gated = ws
        .engine_with(json!({"hooks": {"hooks": {"PreToolUse": group}}, "dialect": "codex", "workspace_gated": true,
        "trust_store": ws.file("trust.json")}));
    assert!(gated.workspace_hooks_need_approval());
    let out = run(&gated, HookEvent::PreToolUse, input(HookEvent::PreToolUse));
    assert_eq!(out["hooks"][0]["skipped"], "not_approved");
}

// --------------------------------------------------- several dialects at once

/// Sources of several dialects in one engine: each hook gets its own
/// dialect's payload and reading rules (a Codex `allow` + `updatedInput` is a
/// rewrite, a Claude Code `allow` an approval); the run merges with the most
/// restrictive precedence.
#[test]
fn a_codex_source_and_a_claude_source_share_one_engine() {
    let ws = Ws::new();
    let codex_seen = ws.file("codex");
    let claude_seen = ws.file("claude");
    let rewrite = pre("allow", None, json!({"updatedInput": {"command": "ls -la"}}));
    let codex_hooks = codex(
        "PreToolUse",
        &[(Some("Bash"), vec![cmd(format!("cat > '{}'; printf '%s' '{rewrite}'", codex_seen.display()))])],
    );
    let claude_allow = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}});
    let claude_hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [cmd(format!("cat > '{}'; printf '%s' '{claude_allow}'", claude_seen.display()))]}]});
    let e =
        ws.engine_with(json!({"hook_sources": [{"hooks": codex_hooks, "dialect": "codex"}, {"hooks": claude_hooks}]}));
    let mut i = input(HookEvent::PreToolUse);
    i["permission_mode"] = json!("default");
    i["host_extra"] = json!("x");
    let out = run(&e, HookEvent::PreToolUse, &i);
    assert_eq!(out["decision"], "allow", "the Claude Code hook approves: {out}");
    assert_eq!(out["updated_input"], json!({"command": "ls -la"}), "the Codex hook rewrites");
    let codex_payload = ws.read("codex");
    let claude_payload = ws.read("claude");
    assert!(!codex_payload.ends_with('\n') && claude_payload.ends_with('\n'));
    let (cx, cl): (Value, Value) =
        (serde_json::from_str(&codex_payload).unwrap(), serde_json::from_str(&claude_payload).unwrap());
    assert!(
        cx.get("host_extra").is_none() && cl["host_extra"] == "x",
        "Codex's payload is exact, Claude's passes extras"
    );
    assert_eq!(cx["tool_use_id"], "call-1");
    let kinds: Vec<Value> = e.command_previews().iter().map(|p| json!(p.dialect)).collect();
    assert_eq!(kinds, [json!("codex"), Value::Null]);
}

// ------------------------------------------------------------ real hooks

/// A plain-sh guard that parses its stdin without jq.
#[test]
fn a_sh_guard_without_jq_denies_destructive_commands() {
    let ws = Ws::new();
    let e = ws.engine(codex(
        "PreToolUse",
        &[(Some("Bash"), vec![cmd(fixture("bash_guard.sh")), cmd(fixture("exit2_guard.sh"))])],
    ));
    let bash =
        |c: &str| json!({"tool_name": "Bash", "tool_input": {"command": c}, "tool_call_id": "c", "turn_id": "t"});
    let out = run(&e, HookEvent::PreToolUse, bash("rm -rf build"));
    assert_eq!(
        (out["decision"].as_str(), out["reason"].as_str()),
        (Some("deny"), Some("Destructive command blocked by repository policy"))
    );
    let out = run(&e, HookEvent::PreToolUse, bash("curl https://example.com"));
    assert_eq!(
        (out["decision"].as_str(), out["reason"].as_str()),
        (Some("deny"), Some("network access from the shell is not allowed here"))
    );
    let out = run(&e, HookEvent::PreToolUse, bash("cargo test"));
    assert_eq!(out["decision"], "continue");
    no_errors(&out);
}

/// A Python Stop hook that keeps the agent working once (`stop_hook_active`).
#[test]
fn a_python_stop_hook_keeps_the_agent_going_once() {
    let ws = Ws::new();
    let e = ws.engine(codex("Stop", &[(None, vec![cmd(fixture("keep_going.py"))])]));
    let out = run(&e, HookEvent::Stop, json!({"last_assistant_message": "implemented", "stop_hook_active": false}));
    assert_eq!(out["block_reason"], "Run the test suite and report the result before stopping.");
    let out = run(&e, HookEvent::Stop, json!({"last_assistant_message": "implemented", "stop_hook_active": true}));
    assert_eq!(out["block_reason"], Value::Null);
    no_errors(&out);
}

/// A Node UserPromptSubmit hook: block on a pasted key, else plain context.
#[test]
fn a_node_prompt_hook_blocks_secrets_and_adds_context() {
    let ws = Ws::new();
    let e = ws.engine(codex("UserPromptSubmit", &[(None, vec![cmd(fixture("prompt_policy.js"))])]));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "use sk-abcdefgh12345678", "turn_id": "t7"}));
    assert_eq!(
        (out["allow_prompt"].as_bool(), out["block_reason"].as_str()),
        (Some(false), Some("The prompt contains what looks like an API key."))
    );
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "fix the bug", "turn_id": "t7", "model": "gpt-5"}));
    assert_eq!(out["additional_context"], json!(["Current turn: t7 (model gpt-5)"]));
}

/// A Python PostToolUse hook that replaces a failed command's output.
#[test]
fn a_python_post_tool_hook_reviews_failed_commands() {
    let ws = Ws::new();
    let e = ws.engine(codex("PostToolUse", &[(Some("Bash"), vec![cmd(fixture("post_tool_review.py"))])]));
    let out = run(
        &e,
        HookEvent::PostToolUse,
        json!({"tool_name": "Bash", "tool_input": {"command": "make"},
        "tool_response": {"exit_code": 2, "stderr": "error"}}),
    );
    assert_eq!(out["block_reason"], "The command failed; read its stderr before retrying.");
    assert_eq!(out["additional_context"], json!(["failing command: make"]));
    let out = run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
    assert_eq!(out["block_reason"], Value::Null);
    no_errors(&out);
}
