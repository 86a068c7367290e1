//! Unit tests of the registry.
use super::*;

#[test]
fn point_numbers_and_labels_round_trip() {
    for (i, p) in HookPoint::ALL.iter().enumerate() {
        assert_eq!(*p as usize, i);
        assert_eq!(HookPoint::from_i32(i as i32), Some(*p));
        assert_eq!(HookPoint::from_label(p.label()), Some(*p));
        assert_eq!(serde_json::to_value(p).unwrap(), Value::String(p.label().to_string()));
    }
    assert_eq!(HookPoint::from_i32(-1), None);
    assert_eq!(HookPoint::from_i32(11), None);
}

struct Tracked {
    on_call: Box<dyn Fn() + Send + Sync>,
    released: Arc<std::sync::atomic::AtomicBool>,
}

impl HostCallback for Tracked {
    fn call(&self, _context_json: &str) -> crate::CallResult {
        (self.on_call)();
        crate::CallResult::ok(crate::Reply::NoOpinion)
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.released.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn release_all_returns_after_a_run_on_another_thread_released_its_callbacks() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};
    const DEADLINE: Duration = Duration::from_secs(20);
    let hooks = Arc::new(Hooks::new());
    let released = Arc::new(AtomicBool::new(false));
    let (entered_tx, entered_rx) = mpsc::channel::<()>();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let go_rx = std::sync::Mutex::new(go_rx);
    let entered_tx = std::sync::Mutex::new(entered_tx);
    let cb = Tracked {
        on_call: Box::new(move || {
            let _ = entered_tx.lock().unwrap().send(());
            let _ = go_rx.lock().unwrap().recv_timeout(DEADLINE);
        }),
        released: released.clone(),
    };
    assert!(hooks.try_register_json(HookPoint::PostTurn, "slow", cb).is_ok());
    let runner = {
        let hooks = hooks.clone();
        std::thread::spawn(move || {
            hooks.run_json(HookPoint::PostTurn, &serde_json::json!({"response_text": "r", "turn_number": 1}))
        })
    };
    entered_rx.recv_timeout(DEADLINE).expect("the callback started");
    let closer = {
        let hooks = hooks.clone();
        let released = released.clone();
        std::thread::spawn(move || {
            hooks.release_all();
            released.load(Ordering::SeqCst)
        })
    };
    let start = Instant::now();
    while !hooks.entries.is_closing() {
        assert!(start.elapsed() < DEADLINE, "release_all did not start");
        std::thread::sleep(Duration::from_millis(1));
    }
    assert!(!released.load(Ordering::SeqCst), "released while its call was in flight");
    go_tx.send(()).unwrap();
    assert!(closer.join().unwrap(), "release_all returned before the callback was released");
    runner.join().unwrap().expect("the run in flight completes");
    assert!(hooks.is_empty());
}

#[test]
fn refused_registration_hands_the_callback_back() {
    let hooks = Hooks::new();
    let released = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let cb = Tracked { on_call: Box::new(|| {}), released: released.clone() };
    let rejected = hooks.try_register_json(HookPoint::PreTurn, " \t", cb).unwrap_err();
    assert_eq!(rejected.error.status, crate::Status::InvalidArgument);
    assert!(!released.load(std::sync::atomic::Ordering::SeqCst));
    assert!(hooks.is_empty());
}

#[test]
fn blank_name_is_invalid_argument() {
    let hooks = Hooks::new();
    let err = hooks.on_post_turn("  \t", |_| {}).unwrap_err();
    assert_eq!(err.status, crate::Status::InvalidArgument);
    assert!(hooks.is_empty());
}

#[test]
fn a_json_callbacks_failure_reason_and_panic_message_are_in_the_result() {
    let hooks = Hooks::new();
    let fails: SharedCallback = Arc::new(|_: &str| crate::CallResult::failed_with("policy file unreadable"));
    let panics: SharedCallback = Arc::new(|_: &str| -> crate::CallResult { panic!("kaboom") });
    // `ok: true` with a Failed reply is a failure all the same.
    let says_ok: SharedCallback =
        Arc::new(|_: &str| crate::CallResult { ok: true, reply: crate::Reply::Failed("not really".into()) });
    hooks.register_json(HookPoint::PostTurn, "boom", fails.clone()).unwrap();
    hooks.register_json(HookPoint::PostTurn, "panics", panics.clone()).unwrap();
    hooks.register_json(HookPoint::PostTurn, "says-ok", says_ok).unwrap();
    let r = hooks.run_json(HookPoint::PostTurn, &serde_json::json!({"response_text": "", "turn_number": 1})).unwrap();
    let messages: Vec<&str> = r.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "hook 'boom' failed: policy file unreadable",
            "hook 'panics' failed: panicked: kaboom",
            "hook 'says-ok' failed: not really"
        ]
    );
    // The deny of a panicking decide callback names the panic.
    hooks.register_json(HookPoint::PreToolCallDecide, "panics", panics).unwrap();
    let r = hooks.run_json(HookPoint::PreToolCallDecide, &serde_json::json!({"tool_name": "Bash"})).unwrap();
    assert!(!r.allow);
    assert_eq!(r.message, "hook 'panics' failed: panicked: kaboom");
}

#[test]
fn an_empty_failure_reason_is_no_reason() {
    let r = crate::CallResult::failed_with("");
    assert_eq!(r.failure(), Some(""));
    assert!(r.is_failure());
    assert_eq!(crate::CallResult::ok(crate::Reply::Allow).failure(), None);
}

#[test]
fn stop_typed_callbacks_continue_with_a_reason() {
    let hooks = Hooks::new().with_stop("lets-stop", |_: &StopContext| HookResult::allow()).with_stop(
        "more",
        |c: &StopContext| {
            if c.continuation_count < 2 {
                HookResult::deny(format!("continue after {}", c.response_text))
            } else {
                HookResult::allow()
            }
        },
    );
    let r = hooks.run_stop(&StopContext::new("done"));
    assert!(!r.allow);
    assert_eq!(r.message, "continue after done");
    let r = hooks.run_stop(&StopContext { continuation_count: 2, ..StopContext::new("done") });
    assert!(r.allow);
}

#[test]
fn the_sdk_contract_answers_recovers_and_keeps_allow_messages() {
    use serde_json::json;
    let hooks = Hooks::with_contract(Contract::AntigravitySdk);
    assert_eq!(hooks.contract(), Contract::AntigravitySdk);
    let answer =
        |v: Value| -> SharedCallback { Arc::new(move |_: &str| crate::CallResult::ok(crate::Reply::Json(v.clone()))) };
    hooks.register_json(HookPoint::OnToolError, "none", answer(Value::Null)).unwrap();
    hooks.register_json(HookPoint::OnToolError, "fix", answer(json!("recovered"))).unwrap();
    let r = hooks.run_json(HookPoint::OnToolError, &json!({})).unwrap();
    assert!(r.allow);
    assert_eq!(r.answer, Some(json!("recovered")));
    hooks.register_json(HookPoint::PreToolCallDecide, "audit", answer(json!({"message": "Audited"}))).unwrap();
    hooks.register_json(HookPoint::PreToolCallDecide, "quiet", answer(Value::Null)).unwrap();
    let r = hooks.run_json(HookPoint::PreToolCallDecide, &json!({"tool_name": "t"})).unwrap();
    assert_eq!((r.allow, r.message.as_str(), r.answer), (true, "Audited", None));
    let r = hooks.run_json(HookPoint::PreTurn, &json!({"prompt": ["image", "text"]})).unwrap();
    assert!(r.allow);
    let failing: SharedCallback = Arc::new(|_: &str| crate::CallResult::failed_with("no file"));
    let sdk = Hooks::with_contract(Contract::AntigravitySdk);
    sdk.register_json(HookPoint::OnToolError, "boom", failing).unwrap();
    let r = sdk.run_json(HookPoint::OnToolError, &json!({"error": "x"})).unwrap();
    assert_eq!((r.allow, r.message.as_str()), (false, "Error recovery failed: no file"));
    assert_eq!(serde_json::to_value(&r).unwrap()["answer"], Value::Null);
    // agy-bridge's contract has no answer field at on_tool_error.
    let agy = Hooks::new();
    agy.register_json(HookPoint::OnToolError, "fix", answer(json!("recovered"))).unwrap();
    let r = agy.run_json(HookPoint::OnToolError, &json!({"tool_name": "t", "error": "e"})).unwrap();
    assert!(serde_json::to_value(&r).unwrap().get("answer").is_none());
}

#[test]
fn a_brief_run_gives_none_exactly_for_the_plain_allow() {
    use serde_json::json;
    let plain = RunResult::default();
    assert!(plain.is_plain_allow());
    assert!(RunResult { answer: Some(Value::Null), ..RunResult::default() }.is_plain_allow());
    assert!(!RunResult { allow: false, ..RunResult::default() }.is_plain_allow());
    assert!(!RunResult { message: "audited".into(), ..RunResult::default() }.is_plain_allow());
    assert!(!RunResult { tool_args: json!({}), ..RunResult::default() }.is_plain_allow());
    assert!(!RunResult { answer: Some(json!("fixed")), ..RunResult::default() }.is_plain_allow());
    let failed = CallbackError { name: "x".into(), message: "hook 'x' failed".into() };
    assert!(!RunResult { errors: vec![failed], ..RunResult::default() }.is_plain_allow());

    let hooks = Hooks::with_contract(Contract::AntigravitySdk);
    let reply =
        |v: Value| -> SharedCallback { Arc::new(move |_: &str| crate::CallResult::ok(crate::Reply::Json(v.clone()))) };
    hooks.register_json(HookPoint::PreToolCallDecide, "quiet", reply(Value::Null)).unwrap();
    hooks.register_json(HookPoint::Stop, "lets-stop", reply(json!({"decision": "allow_stop"}))).unwrap();
    hooks.register_json(HookPoint::PreTurn, "audit", reply(json!({"message": "Audited"}))).unwrap();
    hooks.register_json(HookPoint::PreTurn, "no", reply(json!({"allow": false, "message": "not now"}))).unwrap();
    let ctx = r#"{"tool_name":"t"}"#;
    assert_eq!(hooks.run_json_str_brief(HookPoint::PreToolCallDecide, ctx).unwrap(), None);
    assert_eq!(hooks.run_json_str_brief(HookPoint::Stop, "{}").unwrap(), None);
    let denied = hooks.run_json_str_brief(HookPoint::PreTurn, "{}").unwrap();
    assert_eq!(denied, Some(hooks.run_json_str(HookPoint::PreTurn, "{}").unwrap()));
    assert!(denied.unwrap().contains("not now"));
    assert!(hooks.run_json_str_brief(HookPoint::PreTurn, "[]").is_err());
}
