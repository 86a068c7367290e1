//! Unit tests of the engine's lifetime rules: what closing waits for, the
//! callback handed back by a refused registration, the blocking-run rule.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::json;

use super::*;
use crate::callback::{CallResult, Reply};

const DEADLINE: Duration = Duration::from_secs(20);

/// A host callback that records when it is released (as a C callback's
/// `free_user_data` would run).
struct Tracked<F: Fn() + Send + Sync> {
    on_call: F,
    released: Arc<AtomicBool>,
}

impl<F: Fn() + Send + Sync> HostCallback for Tracked<F> {
    fn call(&self, _context_json: &str) -> CallResult {
        (self.on_call)();
        CallResult::ok(Reply::NoOpinion)
    }
}

impl<F: Fn() + Send + Sync> Drop for Tracked<F> {
    fn drop(&mut self) {
        self.released.store(true, Ordering::SeqCst);
    }
}

fn engine(dir: &tempfile::TempDir) -> LifecycleHookEngine {
    LifecycleHookEngine::with_options(&EngineOptions::new(dir.path(), "s-1")).expect("engine")
}

fn wait_until(what: &str, cond: impl Fn() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < DEADLINE, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn close_returns_after_a_run_on_another_thread_released_its_callback_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine(&dir);
    let released = Arc::new(AtomicBool::new(false));
    let (entered_tx, entered_rx) = mpsc::channel::<()>();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let go_rx = std::sync::Mutex::new(go_rx);
    let cb = Tracked {
        on_call: move || {
            let _ = entered_tx.send(());
            let _ = go_rx.lock().unwrap().recv_timeout(DEADLINE);
        },
        released: released.clone(),
    };
    assert!(e.try_add_callback_hook(HookEvent::PreToolUse, None, "slow", cb).is_ok());
    let runner = {
        let e = e.clone();
        std::thread::spawn(move || e.run_blocking(HookEvent::PreToolUse, &json!({"tool_name": "Bash"})))
    };
    entered_rx.recv_timeout(DEADLINE).expect("the callback hook started");
    let closer = {
        let e = e.clone();
        let released = released.clone();
        std::thread::spawn(move || {
            e.close();
            released.load(Ordering::SeqCst)
        })
    };
    wait_until("close is waiting", || e.state.callbacks.is_closing());
    assert!(!released.load(Ordering::SeqCst), "released while its call was in flight");
    go_tx.send(()).unwrap();
    assert!(closer.join().unwrap(), "close returned before the callback hook was released");
    runner.join().unwrap().expect("the run in flight completes");
}

#[test]
fn close_from_inside_a_callback_hook_does_not_wait_for_its_own_run() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine(&dir);
    let released = Arc::new(AtomicBool::new(false));
    let slot: Arc<OnceLock<LifecycleHookEngine>> = Arc::new(OnceLock::new());
    let inner = slot.clone();
    let cb = Tracked { on_call: move || inner.get().expect("engine set").close(), released: released.clone() };
    assert!(e.try_add_callback_hook(HookEvent::PreToolUse, None, "closer", cb).is_ok());
    slot.set(e.clone()).ok().unwrap();
    e.run_blocking(HookEvent::PreToolUse, &json!({"tool_name": "Bash"})).expect("the run completes");
    assert!(released.load(Ordering::SeqCst), "released when its run ended");
    let err = e.run_blocking(HookEvent::PreToolUse, &json!({"tool_name": "Bash"})).unwrap_err();
    assert_eq!(err.status, Status::Closed);
}

#[test]
fn refused_callback_hook_registration_hands_the_callback_back() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine(&dir);
    for (matcher, name, what) in [(None, "  ", "blank name"), (Some("("), "ok", "invalid matcher")] {
        let released = Arc::new(AtomicBool::new(false));
        let cb = Tracked { on_call: || {}, released: released.clone() };
        let rejected = e.try_add_callback_hook(HookEvent::PreToolUse, matcher, name, cb).expect_err(what);
        assert_eq!(rejected.error.status, Status::InvalidArgument, "{what}");
        assert!(!released.load(Ordering::SeqCst), "{what}: the callback was dropped by the engine");
        drop(rejected);
        assert!(released.load(Ordering::SeqCst));
    }
    e.close();
    let rejected = e
        .try_add_callback_hook(
            HookEvent::PreToolUse,
            None,
            "late",
            Tracked { on_call: || {}, released: Arc::default() },
        )
        .expect_err("closed");
    assert_eq!(rejected.error.status, Status::Closed);
}

#[test]
fn blocking_run_on_a_hookline_thread_is_wrong_thread() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine(&dir);
    let slot: Arc<OnceLock<LifecycleHookEngine>> = Arc::new(OnceLock::new());
    let inner = slot.clone();
    let (tx, rx) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    let cb = Tracked {
        on_call: move || {
            let r = inner.get().expect("engine set").run_blocking(
                HookEvent::Notification,
                &json!({
                    "notification_type": "n", "title": "t", "message": "m"
                }),
            );
            let _ = tx.lock().unwrap().send(r.map(|_| ()).map_err(|e| e.status));
        },
        released: Arc::default(),
    };
    assert!(e.try_add_callback_hook(HookEvent::PreToolUse, None, "nested", cb).is_ok());
    slot.set(e.clone()).ok().unwrap();
    let (done_tx, done_rx) = mpsc::channel();
    e.run_async(HookEvent::PreToolUse, json!({"tool_name": "Bash"}), move |r| {
        let _ = done_tx.send(r.is_ok());
    })
    .unwrap();
    assert!(done_rx.recv_timeout(DEADLINE).unwrap(), "the async run completes");
    assert_eq!(rx.recv_timeout(DEADLINE).unwrap(), Err(Status::WrongThread));
    e.close(); // breaks the engine ↔ callback cycle
}

/// One config snapshot per run: a run executes the configuration its input
/// was validated against, even when a reload swaps the engine's
/// configuration in between (before the fix the executor took a second
/// snapshot and ran the reloaded config).
#[test]
fn a_run_executes_the_snapshot_it_validated_against_not_a_later_reload() {
    let dir = tempfile::tempdir().unwrap();
    let options = |marker: &str| {
        let mut o = EngineOptions::new(dir.path(), "s-1");
        o.hooks =
            HooksSource::Json(json!({"Stop": [{"hooks": [{"command": format!("cat >/dev/null; echo {marker}")}]}]}));
        o
    };
    let engine = LifecycleHookEngine::with_options(&options("first")).unwrap();
    let snapshot = engine.setup();
    engine.reload(&options("second")).unwrap();
    let event = crate::model::event::RunEvent::Known(HookEvent::Stop);
    let outcome = engine.execute(&snapshot, &event, &json!({}), input::RunToken::Sync).unwrap().unwrap();
    let messages: Vec<&str> = outcome.common().messages.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(messages, ["first"], "the run used the snapshot it was given");
    let outcome = engine.run_blocking(HookEvent::Stop, &json!({})).unwrap();
    assert_eq!(outcome.common().messages[0].text, "second", "a new run takes the new snapshot");
}
