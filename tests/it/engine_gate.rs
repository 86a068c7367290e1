//! The workspace approval gate through the Rust API (docs/protocol.md §10):
//! `LifecycleHookEngine::with_options`, `command_digest`,
//! `command_previews`, `approve_workspace_hooks`,
//! `workspace_hooks_need_approval`, `workspace_gated` and `reload`.
//!
//! Every engine here gets an explicit `trust_store` inside a temporary
//! directory, so no test reads or writes a real user's store.

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use hookline::config::HooksConfig;
use hookline::{
    CallResult, EngineOptions, HookEvent, HooksSource, LifecycleHookEngine, Reply, SessionStartTrigger, Status,
};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tempfile::TempDir;

const EXAMPLE_DIGEST: &str = "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89";
const EMPTY_DIGEST: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// Independent reference: SHA-256 of the lines joined by "\n".
fn sha_lines(lines: &[&str]) -> String {
    Sha256::digest(lines.join("\n").as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// A scratch directory with a workspace and a trust store path in it.
struct Scratch {
    dir: TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch { dir: tempfile::tempdir().unwrap() }
    }
    fn ws(&self, name: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::create_dir_all(&p).unwrap();
        std::fs::canonicalize(p).unwrap()
    }
    fn store(&self) -> PathBuf {
        self.dir.path().join("cfg").join("hookline").join("trust.json")
    }
    fn options(&self, ws: &Path, gated: bool, hooks: Option<Value>) -> EngineOptions {
        let mut o = EngineOptions::new(ws, "s-gate");
        o.workspace_gated = gated;
        o.hooks = hooks.map(HooksSource::Json).unwrap_or_default();
        o.trust_store = Some(self.store());
        o
    }
    fn engine(&self, ws: &Path, gated: bool, hooks: Option<Value>) -> LifecycleHookEngine {
        LifecycleHookEngine::with_options(&self.options(ws, gated, hooks)).unwrap()
    }
}

fn notification_hook(command: &str) -> Value {
    json!({"lifecycle": {"notification": [{"hooks": [{"command": command}]}]}})
}

fn notify(e: &LifecycleHookEngine) -> Value {
    e.run_blocking(HookEvent::Notification, &json!({"notification_type": "idle_prompt", "title": "t", "message": "m"}))
        .unwrap()
        .to_json()
}

fn pre_tool(e: &LifecycleHookEngine, tool_input: Value) -> Value {
    e.run_blocking(HookEvent::PreToolUse, &json!({"tool_name": "Bash", "tool_input": tool_input, "tool_call_id": "c1"}))
        .unwrap()
        .to_json()
}

fn skipped_count(outcome: &Value) -> usize {
    outcome["hooks"].as_array().unwrap().iter().filter(|h| h["skipped"] == "not_approved").count()
}

// ----- digest and previews ---------------------------------------------------

#[test]
fn command_digest_reproduces_the_worked_example() {
    let s = Scratch::new();
    let e = s.engine(
        &s.ws("w"),
        true,
        Some(json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout_seconds": 10}]}]}})),
    );
    assert_eq!(e.command_digest(), EXAMPLE_DIGEST);
    assert_eq!(
        sha_lines(&[r#"{"event":"pre_tool_use","matcher":"Bash","command":"./check.sh","timeout_seconds":10}"#]),
        EXAMPLE_DIGEST
    );
}

#[test]
fn command_digest_vectors_match_independent_sha256() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let cases: Vec<(Value, Vec<&str>)> = vec![
        // unicode, quotes, backslash, slash, newline
        (
            json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [
                {"command": "echo \"héllo ✓ 日本\" > /dev/null", "timeout_seconds": 5},
                {"command": "printf '%s\\n' a/b\necho ok"}]}]}}),
            vec![
                r#"{"event":"pre_tool_use","matcher":"Bash","command":"echo \"héllo ✓ 日本\" > /dev/null","timeout_seconds":5}"#,
                r#"{"event":"pre_tool_use","matcher":"Bash","command":"printf '%s\\n' a/b\necho ok","timeout_seconds":null}"#,
            ],
        ),
        // null matcher and timeout
        (
            json!({"lifecycle": {"session_start": [{"hooks": [{"command": "echo hi"}]}]}}),
            vec![r#"{"event":"session_start","matcher":null,"command":"echo hi","timeout_seconds":null}"#],
        ),
        // several events: hl_event order, not configuration order
        (
            json!({"lifecycle": {
                "post_tool_use_failure": [{"hooks": [{"command": "f"}]}],
                "stop": [{"hooks": [{"command": "st"}]}],
                "pre_tool_use": [{"matcher": " Bash ", "hooks": [{"command": "p"}]}],
                "session_start": [{"matcher": "*", "hooks": [{"command": "s"}]}]}}),
            vec![
                r#"{"event":"session_start","matcher":"*","command":"s","timeout_seconds":null}"#,
                r#"{"event":"pre_tool_use","matcher":" Bash ","command":"p","timeout_seconds":null}"#,
                r#"{"event":"stop","matcher":null,"command":"st","timeout_seconds":null}"#,
                r#"{"event":"post_tool_use_failure","matcher":null,"command":"f","timeout_seconds":null}"#,
            ],
        ),
        // task_completion / task_completed digest as stop, after stop
        (
            json!({"lifecycle": {
                "task_completed": [{"hooks": [{"command": "c"}]}],
                "task_completion": [{"hooks": [{"command": "b"}]}],
                "stop": [{"hooks": [{"command": "a", "timeout_seconds": 60}]}]}}),
            vec![
                r#"{"event":"stop","matcher":null,"command":"a","timeout_seconds":60}"#,
                r#"{"event":"stop","matcher":null,"command":"b","timeout_seconds":null}"#,
                r#"{"event":"stop","matcher":null,"command":"c","timeout_seconds":null}"#,
            ],
        ),
        // Claude dialect: `timeout`, PascalCase events
        (
            json!({"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "x", "timeout": 10}]}],
                   "SessionStart": [{"hooks": [{"type": "command", "command": "y"}]}]}),
            vec![
                r#"{"event":"session_start","matcher":null,"command":"y","timeout_seconds":null}"#,
                r#"{"event":"pre_tool_use","matcher":"Bash|Edit","command":"x","timeout_seconds":10}"#,
            ],
        ),
    ];
    for (cfg, lines) in cases {
        let e = s.engine(&ws, true, Some(cfg.clone()));
        assert_eq!(e.command_digest(), sha_lines(&lines), "config {cfg}");
        // Previews are the digest lines tagged with their handler type, then
        // the files they execute (none exist here) and the environment policy.
        let previews: Vec<String> = e.command_previews().iter().map(|p| serde_json::to_string(p).unwrap()).collect();
        let tagged: Vec<String> = lines
            .iter()
            .map(|l| {
                let l = l.replacen('{', r#"{"type":"command","#, 1);
                format!(r#"{},"pins":[],"env":{{"inherit":true,"scrub":[],"set":[]}}}}"#, &l[..l.len() - 1])
            })
            .collect();
        assert_eq!(previews, tagged, "previews of {cfg}");
    }
}

#[test]
fn command_digest_changes_with_order_and_timeout_and_explicit_default() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let d = |cfg: Value| s.engine(&ws, true, Some(cfg)).command_digest();
    let ab = d(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "a"}, {"command": "b"}]}]}}));
    let ba = d(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "b"}, {"command": "a"}]}]}}));
    assert_ne!(ab, ba, "reordering two commands changes the digest");
    let t10 = d(json!({"lifecycle": {"stop": [{"hooks": [{"command": "a", "timeout_seconds": 10}]}]}}));
    let t11 = d(json!({"lifecycle": {"stop": [{"hooks": [{"command": "a", "timeout_seconds": 11}]}]}}));
    let t60 = d(json!({"lifecycle": {"stop": [{"hooks": [{"command": "a", "timeout_seconds": 60}]}]}}));
    let none = d(json!({"lifecycle": {"stop": [{"hooks": [{"command": "a"}]}]}}));
    assert_ne!(t10, t11, "a timeout change changes the digest");
    assert_ne!(t60, none, "explicit 60 and absent timeout digest differently");
}

#[test]
fn command_digest_is_the_same_for_both_dialects_and_toml() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let vt = s.engine(&ws, true, Some(json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [{"command": "./check.sh", "timeout_seconds": 10}]}]}})));
    let claude = s.engine(&ws, true, Some(json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 10}]}]}})));
    let mut o = s.options(&ws, true, None);
    o.hooks = HooksSource::Toml(
        "[[hooks.lifecycle.pre_tool_use]]\nmatcher = \"Bash\"\n[[hooks.lifecycle.pre_tool_use.hooks]]\ncommand = \"./check.sh\"\ntimeout_seconds = 10\n".into(),
    );
    let toml = LifecycleHookEngine::with_options(&o).unwrap();
    assert_eq!(vt.command_digest(), EXAMPLE_DIGEST);
    assert_eq!(claude.command_digest(), EXAMPLE_DIGEST);
    assert_eq!(toml.command_digest(), EXAMPLE_DIGEST);
}

#[test]
fn no_commands_digest_is_sha256_of_empty_string_and_needs_no_approval() {
    let s = Scratch::new();
    let ws = s.ws("w");
    for hooks in [None, Some(json!({"lifecycle": {}})), Some(json!({}))] {
        let e = s.engine(&ws, true, hooks.clone());
        assert_eq!(e.command_digest(), EMPTY_DIGEST, "{hooks:?}");
        assert!(e.command_previews().is_empty());
        assert!(e.workspace_gated());
        assert!(!e.workspace_hooks_need_approval(), "gated engine without commands: {hooks:?}");
    }
}

#[test]
fn callback_hooks_are_not_part_of_the_digest() {
    let s = Scratch::new();
    let e = s.engine(&s.ws("w"), true, Some(notification_hook("true")));
    let before = e.command_digest();
    e.add_callback_hook(HookEvent::Notification, None, "host", Arc::new(|_: &str| CallResult::ok(Reply::NoOpinion)))
        .unwrap();
    assert_eq!(e.command_digest(), before);
    assert_eq!(e.command_previews().len(), 1);
}

// ----- the gate ----------------------------------------------------------------

#[test]
fn gated_engine_spawns_nothing_before_approval() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let e = s.engine(
        &ws,
        true,
        Some(json!({"lifecycle": {
            "pre_tool_use": [{"hooks": [{"command": "touch ran_pre; echo no >&2; exit 2"}, {"command": "touch ran_pre2"}]}],
            "notification": [{"hooks": [{"command": "touch ran_n1"}, {"command": "touch ran_n2"}]}]}})),
    );
    assert!(e.workspace_gated());
    assert!(e.workspace_hooks_need_approval());
    let out = pre_tool(&e, json!({"command": "ls"}));
    assert_eq!(out["decision"], "continue", "a skipped hook makes no decision: {out}");
    assert_eq!(out["reason"], Value::Null);
    assert_eq!(skipped_count(&out), 2, "{out}");
    for h in out["hooks"].as_array().unwrap() {
        assert_eq!(h["kind"], "command");
        assert_eq!(h["skipped"], "not_approved");
        assert_eq!(h["exit_code"], Value::Null);
        assert_eq!(h["timed_out"], false);
        assert_eq!(h["duration_ms"].as_f64(), Some(0.0));
    }
    let errors: Vec<&str> = out["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["level"] == "error")
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(errors.iter().all(|t| t.contains("not approved")), "{errors:?}");
    let out = notify(&e);
    assert_eq!(skipped_count(&out), 2, "concurrent event: {out}");
    std::thread::sleep(Duration::from_millis(100));
    for f in ["ran_pre", "ran_pre2", "ran_n1", "ran_n2"] {
        assert!(!ws.join(f).exists(), "{f} ran before approval");
    }
}

#[test]
fn gated_engine_still_runs_callback_hooks() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let e = s.engine(&ws, true, Some(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "touch ran"}]}]}})));
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    e.add_callback_hook(
        HookEvent::PreToolUse,
        Some("Bash"),
        "host",
        Arc::new(move |_: &str| {
            c.fetch_add(1, Ordering::SeqCst);
            CallResult::ok(Reply::Deny("host says no".into()))
        }),
    )
    .unwrap();
    let out = pre_tool(&e, json!({}));
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "host says no");
    assert_eq!(out["hooks"][0]["skipped"], "not_approved");
    assert_eq!(out["hooks"][1]["kind"], "callback");
    assert_eq!(out["hooks"][1]["skipped"], Value::Null);
    assert!(!ws.join("ran").exists());
}

#[test]
fn approve_without_persist_lets_hooks_run_and_writes_no_store() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let e = s.engine(&ws, true, Some(notification_hook("touch ran")));
    assert!(e.workspace_hooks_need_approval());
    e.approve_workspace_hooks(false).unwrap();
    assert!(!e.workspace_hooks_need_approval());
    let out = notify(&e);
    assert_eq!(skipped_count(&out), 0, "{out}");
    assert_eq!(out["hooks"][0]["exit_code"], 0);
    assert!(ws.join("ran").exists());
    assert!(!s.store().exists(), "approve(false) must not persist");
}

#[test]
fn ungated_engine_never_needs_approval() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let e = s.engine(&ws, false, Some(notification_hook("touch ran")));
    assert!(!e.workspace_gated());
    assert!(!e.workspace_hooks_need_approval());
    notify(&e);
    assert!(ws.join("ran").exists());
}

#[test]
fn seed_constructor_builds_a_gated_engine() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let cfg = HooksConfig::from_json_value(&notification_hook("touch ran")).unwrap();
    let e = LifecycleHookEngine::new_with_session_gated(&ws, &cfg, SessionStartTrigger::Startup, "s", true)
        .unwrap()
        .expect("an engine for a non-empty config");
    assert!(e.workspace_gated());
    assert_eq!(
        e.command_digest(),
        sha_lines(&[r#"{"event":"notification","matcher":null,"command":"touch ran","timeout_seconds":null}"#])
    );
    let out = notify(&e);
    assert_eq!(skipped_count(&out), 1);
    assert!(!ws.join("ran").exists());
    e.approve_workspace_hooks(false).unwrap();
    notify(&e);
    assert!(ws.join("ran").exists());
    let empty = HooksConfig::from_json_value(&json!({})).unwrap();
    assert!(LifecycleHookEngine::new_with_session_gated(&ws, &empty, SessionStartTrigger::Startup, "s", true)
        .unwrap()
        .is_none());
}

#[test]
fn payload_injection_never_executes_on_an_approved_engine() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let e = s.engine(
        &ws,
        true,
        Some(json!({"lifecycle": {"pre_tool_use": [{"hooks": [
            {"command": "cat > payload.json"},
            {"command": "read -r line; printf '%s' \"$line\" > line.txt"}]}]}})),
    );
    e.approve_workspace_hooks(false).unwrap();
    let out = pre_tool(
        &e,
        json!({"a": "$(touch pwned)", "b": "`touch pwned2`", "c": "; touch pwned3", "d": "| touch pwned4",
               "e": "\"; touch pwned5; \"", "f": "' ; touch pwned6 ; '"}),
    );
    assert_eq!(skipped_count(&out), 0);
    std::thread::sleep(Duration::from_millis(100));
    for f in ["pwned", "pwned2", "pwned3", "pwned4", "pwned5", "pwned6"] {
        assert!(!ws.join(f).exists(), "{f}: injected command executed");
    }
    let payload: Value = serde_json::from_slice(&std::fs::read(ws.join("payload.json")).unwrap()).unwrap();
    assert_eq!(payload["tool_input"]["a"], "$(touch pwned)", "payload delivered verbatim on stdin");
    assert_eq!(payload["tool_input"]["d"], "| touch pwned4");
    assert!(ws.join("line.txt").exists());
}

// ----- trust store -----------------------------------------------------------------

#[test]
fn persisted_approval_is_recorded_and_a_new_engine_starts_approved() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let hooks = notification_hook("touch ran");
    let e = s.engine(&ws, true, Some(hooks.clone()));
    e.approve_workspace_hooks(true).unwrap();
    let store = s.store();
    assert_eq!(std::fs::metadata(&store).unwrap().permissions().mode() & 0o777, 0o600);
    for dir in [store.parent().unwrap(), store.parent().unwrap().parent().unwrap()] {
        assert_eq!(std::fs::metadata(dir).unwrap().permissions().mode() & 0o777, 0o700, "{}", dir.display());
    }
    let text = std::fs::read_to_string(&store).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert!(text.contains(&serde_json::to_string(ws.to_str().unwrap()).unwrap()), "{text}");
    assert!(text.contains(&e.command_digest()), "{text}");
    assert!(doc.is_object());

    let again = s.engine(&ws, true, Some(hooks));
    assert!(!again.workspace_hooks_need_approval(), "same digest in the store");
    notify(&again);
    assert!(ws.join("ran").exists());

    let changed = s.engine(&ws, true, Some(notification_hook("touch other")));
    assert!(changed.workspace_hooks_need_approval(), "changed commands are not approved");
    let elsewhere = s.engine(&s.ws("w2"), true, Some(notification_hook("touch ran")));
    assert!(elsewhere.workspace_hooks_need_approval(), "another workspace is not approved");
}

#[test]
fn non_canonical_workspace_is_recorded_canonically() {
    let s = Scratch::new();
    let real = s.ws("real");
    let link = s.dir.path().join("link");
    symlink(&real, &link).unwrap();
    let e = s.engine(&link.join("."), true, Some(notification_hook("true")));
    e.approve_workspace_hooks(true).unwrap();
    let text = std::fs::read_to_string(s.store()).unwrap();
    assert!(text.contains(&serde_json::to_string(real.to_str().unwrap()).unwrap()), "{text}");
    assert!(!text.contains(link.to_str().unwrap()), "the given (non-canonical) path is not the key: {text}");
    let via_real = s.engine(&real, true, Some(notification_hook("true")));
    assert!(!via_real.workspace_hooks_need_approval());
}

#[test]
fn symlinked_store_fails_persist_with_io_and_approves_nothing() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let target = s.dir.path().join("target.json");
    let mut o = s.options(&ws, true, Some(notification_hook("touch ran")));
    o.trust_store = Some(target.clone());
    LifecycleHookEngine::with_options(&o).unwrap().approve_workspace_hooks(true).unwrap();
    std::fs::create_dir_all(s.store().parent().unwrap()).unwrap();
    symlink(&target, s.store()).unwrap();
    let e = s.engine(&ws, true, Some(notification_hook("touch ran")));
    assert!(e.workspace_hooks_need_approval(), "a store behind a symlink approves nothing");
    let err = e.approve_workspace_hooks(true).unwrap_err();
    assert_eq!(err.status, Status::Io, "{err:?}");
    assert!(e.workspace_hooks_need_approval(), "failed persist approves nothing");
    notify(&e);
    assert!(!ws.join("ran").exists());
}

#[test]
fn corrupt_store_reads_as_nothing_approved_and_persist_replaces_it() {
    let s = Scratch::new();
    let ws = s.ws("w");
    std::fs::create_dir_all(s.store().parent().unwrap()).unwrap();
    std::fs::write(s.store(), b"\xff\xfe{not json").unwrap();
    let e = s.engine(&ws, true, Some(notification_hook("touch ran")));
    assert!(e.workspace_hooks_need_approval());
    e.approve_workspace_hooks(true).unwrap();
    let doc: Value = serde_json::from_slice(&std::fs::read(s.store()).unwrap()).unwrap();
    assert!(doc.is_object());
    assert!(!s.engine(&ws, true, Some(notification_hook("touch ran"))).workspace_hooks_need_approval());
}

#[test]
fn directory_at_store_path_approves_nothing() {
    let s = Scratch::new();
    let ws = s.ws("w");
    std::fs::create_dir_all(s.store()).unwrap();
    let e = s.engine(&ws, true, Some(notification_hook("touch ran")));
    assert!(e.workspace_hooks_need_approval());
    assert_eq!(e.approve_workspace_hooks(true).unwrap_err().status, Status::Io);
    assert!(e.workspace_hooks_need_approval());
}

// ----- reload ---------------------------------------------------------------------------

#[test]
fn reload_swaps_config_and_keeps_approval_only_for_the_same_digest() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let a = notification_hook("touch ran_a");
    let a_claude = json!({"Notification": [{"hooks": [{"type": "command", "command": "touch ran_a"}]}]});
    let b = notification_hook("touch ran_b");
    let e = s.engine(&ws, true, Some(a.clone()));
    let da = e.command_digest();
    e.approve_workspace_hooks(false).unwrap();

    // Same digest (other dialect): approval carried over.
    e.reload(&s.options(&ws, true, Some(a_claude))).unwrap();
    assert_eq!(e.command_digest(), da);
    assert!(!e.workspace_hooks_need_approval());

    // New digest: not approved; the new hook is skipped, the old one gone.
    e.reload(&s.options(&ws, true, Some(b.clone()))).unwrap();
    assert_ne!(e.command_digest(), da);
    assert!(e.workspace_hooks_need_approval(), "approval of D does not cover D'");
    let out = notify(&e);
    assert_eq!(skipped_count(&out), 1);
    assert_eq!(out["hooks"][0]["command"], "touch ran_b");
    assert!(!ws.join("ran_a").exists() && !ws.join("ran_b").exists());

    // Back to A: not persisted, so still not approved.
    e.reload(&s.options(&ws, true, Some(a.clone()))).unwrap();
    assert!(e.workspace_hooks_need_approval(), "an in-memory approval is not remembered across digests");

    // Persist A, go to B and back: the store approves A again.
    e.approve_workspace_hooks(true).unwrap();
    e.reload(&s.options(&ws, true, Some(b))).unwrap();
    assert!(e.workspace_hooks_need_approval());
    e.reload(&s.options(&ws, true, Some(a))).unwrap();
    assert!(!e.workspace_hooks_need_approval(), "the trust store is consulted on reload");
    notify(&e);
    assert!(ws.join("ran_a").exists());
}

#[test]
fn failed_reload_changes_nothing() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let e = s.engine(&ws, true, Some(notification_hook("touch ran_a")));
    e.approve_workspace_hooks(false).unwrap();
    let digest = e.command_digest();
    let bad_config =
        s.options(&ws, true, Some(json!({"lifecycle": {"notification": [{"hooks": [{"command": "  "}]}]}})));
    assert_eq!(e.reload(&bad_config).unwrap_err().status, Status::InvalidConfig);
    let missing_ws = s.options(&s.dir.path().join("missing"), true, Some(notification_hook("touch ran_b")));
    assert_eq!(e.reload(&missing_ws).unwrap_err().status, Status::InvalidArgument);
    assert_eq!(e.reload_json("{").unwrap_err().status, Status::InvalidJson);
    assert_eq!(e.command_digest(), digest);
    assert!(e.workspace_gated());
    assert!(!e.workspace_hooks_need_approval(), "approval kept");
    notify(&e);
    assert!(ws.join("ran_a").exists(), "the old hook still runs");
    assert!(!ws.join("ran_b").exists());
}

#[test]
fn in_flight_run_finishes_with_the_config_it_started_with() {
    let s = Scratch::new();
    let ws = s.ws("w");
    let e = s.engine(
        &ws,
        false,
        Some(json!({"lifecycle": {"pre_tool_use": [{"hooks": [
            {"command": "touch started; sleep 1; touch marker_a"}, {"command": "touch marker_a2"}]}]}})),
    );
    let (tx, rx) = mpsc::channel();
    e.run_async(HookEvent::PreToolUse, json!({"tool_name": "Bash"}), move |r| {
        let _ = tx.send(r.map(|o| o.to_json()));
    })
    .unwrap();
    let started = ws.join("started");
    for _ in 0..500 {
        if started.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(started.exists(), "the in-flight hook started");
    e.reload(&s.options(
        &ws,
        false,
        Some(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "touch marker_b"}]}]}})),
    ))
    .unwrap();
    let out = rx.recv_timeout(Duration::from_secs(15)).expect("done within the timeout").unwrap();
    assert!(ws.join("marker_a").exists(), "{out}");
    assert!(ws.join("marker_a2").exists(), "the rest of the old config ran: {out}");
    assert!(!ws.join("marker_b").exists(), "the in-flight run used the new config");
    assert_eq!(out["hooks"].as_array().unwrap().len(), 2);
    // A new run uses the new config.
    pre_tool(&e, json!({}));
    assert!(ws.join("marker_b").exists());
}

/// The Rust flow of docs/trust.md, with temporary paths.
#[test]
fn docs_trust_rust_flow_works_as_documented() -> hookline::Result<()> {
    let s = Scratch::new();
    let ws = s.ws("project");
    std::fs::create_dir_all(ws.join(".claude")).unwrap();
    std::fs::write(
        ws.join(".claude/settings.json"),
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo > ran","timeout":10}]}]}}"#,
    )
    .unwrap();
    let mut options = EngineOptions::new(&ws, "s-1");
    options.workspace_gated = true;
    options.hooks = HooksSource::File(ws.join(".claude/settings.json"));
    options.trust_store = Some(s.store());
    let engine = LifecycleHookEngine::with_options(&options)?;
    assert!(engine.workspace_hooks_need_approval());
    let shown: Vec<String> = engine
        .command_previews()
        .iter()
        .map(|p| format!("{} [{}] {}", p.event, p.matcher.as_deref().unwrap_or("*"), p.command))
        .collect();
    assert_eq!(shown, ["pre_tool_use [Bash] echo > ran"]);
    engine.approve_workspace_hooks(true)?;
    let outcome =
        engine.run_blocking(HookEvent::PreToolUse, &json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}))?;
    assert_eq!(outcome.to_json()["hooks"][0]["exit_code"], 0);
    assert!(ws.join("ran").exists());
    engine.reload(&options)?;
    assert!(!engine.workspace_hooks_need_approval(), "unchanged digest: approval kept");
    Ok(())
}
