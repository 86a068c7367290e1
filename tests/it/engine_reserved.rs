//! Reserved (cancellable blocking) runs and the no-match answer through the
//! Rust API; the C ABI's suite is ctests/test_engine_blocking_cancel.c.

use std::time::{Duration, Instant};

use hookline::{EngineOptions, HookEvent, HooksSource, LifecycleHookEngine, Status};
use serde_json::json;

fn engine_with(dir: &std::path::Path, hooks: serde_json::Value) -> LifecycleHookEngine {
    let mut o = EngineOptions::new(dir, "s-rust");
    o.hooks = HooksSource::Json(hooks);
    LifecycleHookEngine::with_options(&o).unwrap()
}

#[test]
fn a_reserved_run_returns_its_outcome_and_then_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(
        dir.path(),
        json!({"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
        "command":"echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no\"}}'"}]}]}),
    );
    let id = e.reserve_run().unwrap();
    let out = e.run_reserved_json(id, HookEvent::PreToolUse, &json!({"tool_name":"Bash"})).unwrap();
    assert!(out.contains("\"decision\":\"deny\""), "{out}");
    assert_eq!(e.cancel(id).unwrap_err().status, Status::NotFound);
    let again = e.run_reserved_json(id, HookEvent::PreToolUse, &json!({"tool_name":"Bash"}));
    assert_eq!(again.unwrap_err().status, Status::NotFound);
}

#[test]
fn cancel_before_a_reserved_run_starts_makes_it_cancelled_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let e = engine_with(
        dir.path(),
        json!({"Stop":[{"hooks":[{"type":"command","command":format!("touch '{}'", marker.display())}]}]}),
    );
    let id = e.reserve_run().unwrap();
    e.cancel(id).unwrap();
    let r = e.run_reserved_json(id, HookEvent::Stop, &json!({"last_assistant_message":"x","stop_hook_active":false}));
    assert_eq!(r.unwrap_err().status, Status::Cancelled);
    assert!(!marker.exists(), "a cancelled reservation ran its hook");
}

#[test]
fn cancel_during_a_reserved_run_kills_its_hook_promptly() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(
        dir.path(),
        json!({"Notification":[{"hooks":[{"type":"command","command":"echo started > started; exec sleep 60"}]}]}),
    );
    let id = e.reserve_run().unwrap();
    let runner = {
        let e = e.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            let r = e.run_reserved_json(
                id,
                HookEvent::Notification,
                &json!({"notification_type":"n","title":"t","message":"m"}),
            );
            (r, started.elapsed())
        })
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while !dir.path().join("started").exists() {
        assert!(Instant::now() < deadline, "the hook did not start");
        std::thread::sleep(Duration::from_millis(5));
    }
    e.cancel(id).unwrap();
    let (r, took) = runner.join().unwrap();
    assert_eq!(r.unwrap_err().status, Status::Cancelled);
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn closing_the_engine_cancels_reservations() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), json!({}));
    let id = e.reserve_run().unwrap();
    e.close();
    let r = e.run_reserved_json(id, HookEvent::SessionEnd, &json!({"turn_id":"t","reason":"completed"}));
    assert_eq!(r.unwrap_err().status, Status::Cancelled);
    assert_eq!(e.reserve_run().unwrap_err().status, Status::Closed);
}

#[test]
fn outcome_if_no_hook_matches_answers_only_when_nothing_would_run() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(
        dir.path(),
        json!({"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"exit 2"}]}]}),
    );
    let none = e.outcome_if_no_hook_matches(HookEvent::PreToolUse, &json!({"tool_name":"Write"})).unwrap();
    assert!(none.is_none(), "a matching hook must be run by the caller");
    let text = e.outcome_if_no_hook_matches(HookEvent::PreToolUse, &json!({"tool_name":"Bash"})).unwrap().unwrap();
    assert_eq!(text, e.run_blocking_json(HookEvent::PreToolUse, &json!({"tool_name":"Bash"})).unwrap());
    let bad = e.outcome_if_no_hook_matches(HookEvent::PreToolUse, &json!({}));
    assert_eq!(bad.unwrap_err().status, Status::InvalidArgument);
}
