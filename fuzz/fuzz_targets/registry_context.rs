//! Fuzz registry context validation and run semantics (docs/c-api.md §5) at the JSON
//! level: `Hooks::run_json_str(point, context)` with an arbitrary context
//! and an arbitrary JSON reply from the first callback of the point.
//!
//! Input: `[point % 10] context_text [0x00 reply_json_text]`.
//!
//! Every point has, in this order: a typed callback (`typed`), a JSON-level
//! callback replying with the fuzzed reply (`fuzz`), and a JSON-level
//! callback that records what it saw (`probe`).
//!
//! Oracles: malformed JSON is `InvalidJson`, parsed JSON that is rejected
//! is `InvalidArgument`; a context that validated deserialises into the
//! typed context (`typed` never fails); JSON callbacks see an object with
//! the aliases `name`/`args` replaced at tool points; the result has the
//! four fields; observers and transforms never deny; transforms chain (the
//! probe sees the fuzz reply as `tool_args`, which is also the result);
//! every listed error says `hook '<name>' failed`.
#![no_main]

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use hookline::registry::{HookPoint, Hooks};
use hookline::{CallResult, Reply, SharedCallback, Status};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

thread_local! {
    static REPLY: RefCell<Option<Value>> = const { RefCell::new(None) };
    static PROBE: RefCell<Option<Value>> = const { RefCell::new(None) };
}

fn registry() -> &'static Hooks {
    static HOOKS: OnceLock<Hooks> = OnceLock::new();
    HOOKS.get_or_init(|| {
        let h = Hooks::new();
        h.on_pre_turn("typed", |_c| ()).unwrap();
        h.on_post_turn("typed", |_c| {}).unwrap();
        h.on_pre_tool_call_decide("typed", |_c| ()).unwrap();
        h.on_post_tool_call("typed", |_c| {}).unwrap();
        h.on_compaction("typed", |_c| {}).unwrap();
        h.on_session_start("typed", |_c| {}).unwrap();
        h.on_session_end("typed", |_c| {}).unwrap();
        h.on_tool_error("typed", |_c| {}).unwrap();
        h.on_interaction("typed", |_c| ()).unwrap();
        h.on_transform_tool_input("typed", |_c| None).unwrap();
        for point in HookPoint::ALL {
            let fuzz: SharedCallback = Arc::new(|ctx: &str| {
                let _: Value = serde_json::from_str(ctx).expect("callback context is JSON");
                match REPLY.with(|r| r.borrow().clone()) {
                    Some(v) => CallResult::ok(Reply::Json(v)),
                    None => CallResult::ok(Reply::NoOpinion),
                }
            });
            let probe: SharedCallback = Arc::new(|ctx: &str| {
                let v: Value = serde_json::from_str(ctx).expect("callback context is JSON");
                PROBE.with(|p| *p.borrow_mut() = Some(v));
                CallResult::ok(Reply::NoOpinion)
            });
            h.register_json(point, "fuzz", fuzz).unwrap();
            h.register_json(point, "probe", probe).unwrap();
        }
        h
    })
}

fn is_tool_point(p: HookPoint) -> bool {
    matches!(
        p,
        HookPoint::PreToolCallDecide | HookPoint::TransformToolInput | HookPoint::PostToolCall | HookPoint::OnToolError
    )
}

fuzz_target!(|data: &[u8]| {
    let Some((&p, rest)) = data.split_first() else { return };
    let point = HookPoint::ALL[usize::from(p) % HookPoint::ALL.len()];
    let (ctx_bytes, reply_bytes) = match rest.iter().position(|&b| b == 0) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let Ok(context) = std::str::from_utf8(ctx_bytes) else { return };
    let reply: Option<Value> = reply_bytes.and_then(|b| serde_json::from_slice(b).ok());
    REPLY.with(|r| *r.borrow_mut() = reply.clone());
    PROBE.with(|p| *p.borrow_mut() = None);

    let parsed: Option<Value> = serde_json::from_str(context).ok();
    let outcome = registry().run_json_str(point, context);
    let text = match outcome {
        Err(e) => {
            match &parsed {
                None => assert_eq!(e.status, Status::InvalidJson, "{e}"),
                Some(_) => assert_eq!(e.status, Status::InvalidArgument, "{e}"),
            }
            assert!(PROBE.with(|p| p.borrow().is_none()), "a callback ran although the context was rejected");
            return;
        }
        Ok(text) => text,
    };
    let parsed = parsed.expect("an accepted context is valid JSON");
    assert!(parsed.is_object(), "a non-object context was accepted");
    let result: Value = serde_json::from_str(&text).expect("result is JSON");
    let allow = result["allow"].as_bool().expect("allow is a bool");
    let message = result["message"].as_str().expect("message is a string");
    assert!(result.get("tool_args").is_some(), "tool_args missing");
    let errors = result["errors"].as_array().expect("errors is an array");
    for e in errors {
        let name = e["name"].as_str().expect("error name");
        let msg = e["message"].as_str().expect("error message");
        assert!(msg.contains(&format!("hook '{name}' failed")), "error message {msg:?}");
        assert_ne!(name, "typed", "a validated context did not deserialise into the typed context: {msg}");
    }
    match point {
        HookPoint::PreTurn | HookPoint::PreToolCallDecide | HookPoint::OnInteraction => {}
        _ => {
            assert!(allow, "{} never denies", point.label());
            assert_eq!(message, "");
        }
    }
    if let Some(seen) = PROBE.with(|p| p.borrow_mut().take()) {
        let obj = seen.as_object().expect("callback context is an object");
        if is_tool_point(point) {
            assert!(obj.get("tool_name").is_some_and(Value::is_string), "tool_name missing: {seen}");
            assert!(obj.contains_key("tool_args"), "tool_args missing: {seen}");
            assert!(!obj.contains_key("name") && !obj.contains_key("args"), "alias kept: {seen}");
        }
        if point == HookPoint::TransformToolInput {
            if let Some(r) = &reply {
                assert_eq!(&obj["tool_args"], r, "transforms do not chain");
                assert_eq!(&result["tool_args"], r, "the last transform is not the result");
            }
        }
    } else if allow {
        // Only a deny (or fail-closed failure) stops a run before the probe.
        panic!("the probe did not run although the run allowed: {text}");
    }
});
