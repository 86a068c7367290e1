//! Conformance tests for the in-process registry (docs/c-api.md §5), Rust core:
//! typed closures and the JSON level used by the C ABI.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use hookline::registry::{
    CompactionContext, HookCallback, HookEntry, HookPoint, HookResult, Hooks, InteractionContext, PostTurnContext,
    PreTurnContext, SessionContext, ToolCallContext, ToolErrorContext, ToolResultContext,
};
use hookline::{CallResult, Reply, SharedCallback, Status};
use serde_json::{json, Value};

/// A JSON-level callback that records the contexts it saw and answers `reply`.
fn json_cb(seen: &Arc<Mutex<Vec<Value>>>, ok: bool, reply: Reply) -> SharedCallback {
    let seen = seen.clone();
    Arc::new(move |ctx: &str| {
        seen.lock().unwrap().push(serde_json::from_str(ctx).unwrap());
        CallResult { ok, reply: reply.clone() }
    })
}

fn log_of() -> Arc<Mutex<Vec<String>>> {
    Arc::new(Mutex::new(Vec::new()))
}

fn tool(name: &str, args: Value) -> ToolCallContext {
    ToolCallContext::new(name, args)
}

// ── Ordering, replacement, entries ──────────────────────────────────────

#[test]
fn callbacks_run_in_registration_order() {
    let log = log_of();
    let hooks = Hooks::new();
    for i in 0..4 {
        let l = log.clone();
        hooks.on_post_turn(format!("h{i}"), move |_| l.lock().unwrap().push(format!("h{i}"))).unwrap();
    }
    hooks.run_post_turn(&PostTurnContext::new("r", 1));
    assert_eq!(*log.lock().unwrap(), vec!["h0", "h1", "h2", "h3"]);
}

#[test]
fn replace_in_place_keeps_position_and_logs_warning() {
    let warnings = Arc::new(Mutex::new(Vec::<String>::new()));
    let w = warnings.clone();
    hookline::log::set_handler(
        Some(Arc::new(move |level: i32, msg: &str| {
            if level == 2 && msg.contains("replace-me") {
                w.lock().unwrap().push(msg.to_string());
            }
        })),
        5,
    );
    let log = log_of();
    let hooks = Hooks::new();
    for name in ["a", "replace-me", "c"] {
        let l = log.clone();
        hooks.on_pre_turn(name, move |_| l.lock().unwrap().push(format!("{name}:v1"))).unwrap();
    }
    let l = log.clone();
    hooks.on_pre_turn("replace-me", move |_| l.lock().unwrap().push("replace-me:v2".to_string())).unwrap();
    hookline::log::set_handler(None, 0);

    hooks.run_pre_turn(&PreTurnContext::new("p", 1));
    assert_eq!(*log.lock().unwrap(), vec!["a:v1", "replace-me:v2", "c:v1"]);
    assert_eq!(hooks.len(), 3);
    assert_eq!(warnings.lock().unwrap().len(), 1, "one warning for the replacement");
}

#[test]
fn replaced_callback_is_dropped_exactly_once() {
    struct DropCounter(Arc<AtomicUsize>);
    impl Drop for DropCounter {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let drops = Arc::new(AtomicUsize::new(0));
    let hooks = Hooks::new();
    let guard = DropCounter(drops.clone());
    hooks
        .on_post_turn("x", move |_| {
            let _ = &guard;
        })
        .unwrap();
    hooks.on_post_turn("x", |_| {}).unwrap();
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    let guard2 = DropCounter(drops.clone());
    hooks
        .on_post_turn("y", move |_| {
            let _ = &guard2;
        })
        .unwrap();
    hooks.unregister(HookPoint::PostTurn, "y").unwrap();
    assert_eq!(drops.load(Ordering::SeqCst), 2);
    let guard3 = DropCounter(drops.clone());
    hooks
        .on_post_turn("z", move |_| {
            let _ = &guard3;
        })
        .unwrap();
    drop(hooks);
    assert_eq!(drops.load(Ordering::SeqCst), 3);
}

#[test]
fn transform_and_decide_may_share_a_name() {
    let hooks = Hooks::new()
        .with_pre_tool_call_decide("same", |_: &ToolCallContext| HookResult::allow())
        .with_transform_tool_input("same", |_: &ToolCallContext| None);
    assert_eq!(hooks.len(), 2);
}

#[test]
fn entries_list_all_points_in_global_registration_order() {
    let hooks = Hooks::new()
        .with_session_start("s", |_: &SessionContext| {})
        .with_pre_tool_call_decide("gate", |_: &ToolCallContext| HookResult::allow())
        .with_pre_turn("p", |_: &PreTurnContext| {});
    hooks.on_session_start("s", |_| {}).unwrap(); // replacement keeps position
    let entries = hooks.entries();
    let want = vec![
        HookEntry { name: "s".into(), point: HookPoint::OnSessionStart, callback_id: "s".into() },
        HookEntry { name: "gate".into(), point: HookPoint::PreToolCallDecide, callback_id: "gate".into() },
        HookEntry { name: "p".into(), point: HookPoint::PreTurn, callback_id: "p".into() },
    ];
    assert_eq!(entries, want);
    let v: Value = serde_json::from_str(&hooks.entries_json()).unwrap();
    assert_eq!(v[1], json!({"name": "gate", "point": "pre_tool_call_decide", "callback_id": "gate"}));
}

#[test]
fn unregister_removes_and_unknown_is_not_found() {
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let hooks = Hooks::new().with_post_turn("obs", move |_: &PostTurnContext| {
        c.fetch_add(1, Ordering::SeqCst);
    });
    assert_eq!(hooks.unregister(HookPoint::PreTurn, "obs").unwrap_err().status, Status::NotFound);
    hooks.unregister(HookPoint::PostTurn, "obs").unwrap();
    assert_eq!(hooks.unregister(HookPoint::PostTurn, "obs").unwrap_err().status, Status::NotFound);
    hooks.run_post_turn(&PostTurnContext::new("r", 1));
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    assert!(hooks.entries().is_empty());
}

#[test]
fn blank_names_are_invalid_argument() {
    let hooks = Hooks::new();
    for name in ["", " ", "\t\n"] {
        let err = hooks.on_pre_turn(name, |_| {}).unwrap_err();
        assert_eq!(err.status, Status::InvalidArgument);
    }
    assert!(hooks.is_empty());
}

#[test]
#[should_panic(expected = "name must be non-empty")]
fn builder_with_blank_name_panics() {
    let _ = Hooks::new().with_pre_turn("  ", |_: &PreTurnContext| {});
}

// ── pre_tool_call_decide ─────────────────────────────────────────────────

#[test]
fn pre_tool_call_decide_first_deny_short_circuits() {
    let third = Arc::new(AtomicUsize::new(0));
    let t = third.clone();
    let hooks = Hooks::new()
        .with_pre_tool_call_decide("allow", |_: &ToolCallContext| HookResult::allow())
        .with_pre_tool_call_decide("deny", |_: &ToolCallContext| HookResult::deny("blocked"))
        .with_pre_tool_call_decide("never", move |_: &ToolCallContext| {
            t.fetch_add(1, Ordering::SeqCst);
            HookResult::allow()
        });
    let r = hooks.run_pre_tool_call_decide(&tool("Bash", Value::Null));
    assert!(!r.allow);
    assert_eq!(r.message, "blocked");
    assert_eq!(third.load(Ordering::SeqCst), 0);
}

#[test]
fn pre_tool_call_decide_empty_registry_allows() {
    let r = Hooks::new().run_pre_tool_call_decide(&tool("Bash", Value::Null));
    assert_eq!(r, HookResult::allow());
    let rr = Hooks::new().run_json(HookPoint::PreToolCallDecide, &json!({"tool_name": "x"})).unwrap();
    assert_eq!(
        serde_json::to_value(&rr).unwrap(),
        json!({"allow": true, "message": "", "tool_args": null, "errors": []})
    );
}

#[test]
fn pre_tool_call_decide_panic_denies_with_hook_name() {
    let after = Arc::new(AtomicUsize::new(0));
    let a = after.clone();
    let hooks = Hooks::new()
        .with_pre_tool_call_decide("boom", |_: &ToolCallContext| -> HookResult { panic!("kaboom") })
        .with_pre_tool_call_decide("after", move |_: &ToolCallContext| {
            a.fetch_add(1, Ordering::SeqCst);
            HookResult::allow()
        });
    let r = hooks.run_json(HookPoint::PreToolCallDecide, &json!({"tool_name": "x"})).unwrap();
    assert!(!r.allow);
    assert!(r.message.contains("hook 'boom' failed"), "{}", r.message);
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].name, "boom");
    assert!(r.errors[0].message.contains("hook 'boom' failed"));
    assert_eq!(after.load(Ordering::SeqCst), 0, "fail closed: the run stops");
    let typed = hooks.run_pre_tool_call_decide(&tool("x", Value::Null));
    assert!(!typed.allow && typed.message.contains("hook 'boom' failed"));
}

#[test]
fn pre_tool_call_decide_json_callback_failure_denies() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let hooks = Hooks::new();
    hooks.register_json(HookPoint::PreToolCallDecide, "c-gate", json_cb(&seen, false, Reply::Allow)).unwrap();
    let r = hooks.run_json(HookPoint::PreToolCallDecide, &json!({"tool_name": "x"})).unwrap();
    assert!(!r.allow);
    assert_eq!(r.message, "hook 'c-gate' failed");
    assert_eq!(r.errors.len(), 1);
}

#[test]
fn pre_tool_call_decide_invalid_json_reply_fails_closed() {
    for bad in [json!("yes"), json!({"allow": "no"}), json!({"allow": true, "modified_args": [1]})] {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let hooks = Hooks::new();
        hooks
            .register_json(HookPoint::PreToolCallDecide, "odd", json_cb(&seen, true, Reply::Json(bad.clone())))
            .unwrap();
        let r = hooks.run_json(HookPoint::PreToolCallDecide, &json!({"tool_name": "x"})).unwrap();
        assert!(!r.allow, "reply {bad} must deny");
        assert!(r.message.contains("hook 'odd' failed"), "{}", r.message);
    }
}

#[test]
fn modified_args_merge_is_seen_by_later_callbacks_and_reported() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let hooks = Hooks::new().with_pre_tool_call_decide("add-flag", |_: &ToolCallContext| {
        HookResult::allow().with_modified_args(json!({"flag": true, "command": "ls -l"}))
    });
    hooks.register_json(HookPoint::PreToolCallDecide, "observer", json_cb(&seen, true, Reply::NoOpinion)).unwrap();
    let r = hooks
        .run_json(
            HookPoint::PreToolCallDecide,
            &json!({"tool_name": "Bash", "tool_args": {"command": "ls", "cwd": "/"}}),
        )
        .unwrap();
    assert!(r.allow);
    assert_eq!(r.tool_args, json!({"command": "ls -l", "cwd": "/", "flag": true}));
    assert_eq!(seen.lock().unwrap()[0]["tool_args"], r.tool_args);

    let typed = hooks.run_pre_tool_call_decide(&tool("Bash", json!({"command": "ls"})));
    assert_eq!(typed.modified_args, Some(json!({"command": "ls -l", "flag": true})));
}

#[test]
fn modified_args_replace_non_object_args() {
    let hooks = Hooks::new()
        .with_pre_tool_call_decide("m", |_: &ToolCallContext| HookResult::allow().with_modified_args(json!({"a": 1})));
    for args in [json!("text"), json!([1, 2]), Value::Null, json!(7)] {
        let r = hooks.run_json(HookPoint::PreToolCallDecide, &json!({"tool_name": "t", "tool_args": args})).unwrap();
        assert_eq!(r.tool_args, json!({"a": 1}));
    }
}

#[test]
fn modified_args_are_reported_after_a_deny() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let hooks = Hooks::new();
    hooks
        .register_json(
            HookPoint::PreToolCallDecide,
            "rewrite",
            json_cb(&seen, true, Reply::Json(json!({"allow": true, "message": "", "modified_args": {"x": 2}}))),
        )
        .unwrap();
    hooks.on_pre_tool_call_decide("deny", |c| HookResult::deny(format!("saw x={}", c.tool_args["x"]))).unwrap();
    let r = hooks
        .run_json(HookPoint::PreToolCallDecide, &json!({"tool_name": "t", "tool_args": {"x": 1, "y": 0}}))
        .unwrap();
    assert!(!r.allow);
    assert_eq!(r.message, "saw x=2", "the typed callback saw the merged args");
    assert_eq!(r.tool_args, json!({"x": 2, "y": 0}));
}

#[test]
fn tool_args_is_null_when_no_modified_args_applied() {
    let hooks = Hooks::new().with_pre_tool_call_decide("a", |_: &ToolCallContext| HookResult::allow());
    let r = hooks.run_json(HookPoint::PreToolCallDecide, &json!({"tool_name": "t", "tool_args": {"x": 1}})).unwrap();
    assert_eq!(r.tool_args, Value::Null);
}

// ── pre_turn, on_interaction ─────────────────────────────────────────────

#[test]
fn pre_turn_deny_stops_and_failure_is_listed_and_skipped() {
    let log = log_of();
    let (l1, l2, l3) = (log.clone(), log.clone(), log.clone());
    let hooks = Hooks::new()
        .with_pre_turn("boom", move |_: &PreTurnContext| -> HookResult {
            l1.lock().unwrap().push("boom".into());
            panic!("x")
        })
        .with_pre_turn("deny", move |c: &PreTurnContext| {
            l2.lock().unwrap().push("deny".into());
            HookResult::deny(format!("turn {}", c.turn_number))
        })
        .with_pre_turn("never", move |_: &PreTurnContext| l3.lock().unwrap().push("never".into()));
    let r = hooks.run_json(HookPoint::PreTurn, &json!({"prompt": "p", "turn_number": 3})).unwrap();
    assert!(!r.allow);
    assert_eq!(r.message, "turn 3");
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].name, "boom");
    assert!(r.errors[0].message.contains("hook 'boom' failed"));
    assert_eq!(*log.lock().unwrap(), vec!["boom", "deny"]);
}

#[test]
fn pre_turn_unit_closures_allow() {
    let hooks = Hooks::new().with_pre_turn("logger", |_: &PreTurnContext| {});
    assert_eq!(hooks.run_pre_turn(&PreTurnContext::new("hi", 1)), HookResult::allow());
}

#[test]
fn on_interaction_failure_does_not_block_and_deny_stops() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let hooks = Hooks::new();
    hooks
        .register_json(HookPoint::OnInteraction, "broken", json_cb(&seen, false, Reply::Deny("ignored".into())))
        .unwrap();
    hooks.on_interaction("ok", |_| HookResult::allow()).unwrap();
    let r = hooks.run_json(HookPoint::OnInteraction, &json!({"message": "hello"})).unwrap();
    assert!(r.allow, "a failing on_interaction callback never blocks");
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].message, "hook 'broken' failed");

    hooks.on_interaction("deny", |c| HookResult::deny(format!("no: {}", c.message))).unwrap();
    let after = Arc::new(AtomicUsize::new(0));
    let a = after.clone();
    hooks
        .on_interaction("after", move |_| {
            a.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
    let r = hooks.run_on_interaction(&InteractionContext::new("hello"));
    assert!(!r.allow);
    assert_eq!(r.message, "no: hello");
    assert_eq!(after.load(Ordering::SeqCst), 0);
}

// ── transform_tool_input ─────────────────────────────────────────────────

#[test]
fn transform_chain_each_sees_previous_result() {
    let hooks = Hooks::new()
        .with_transform_tool_input("add-a", |c: &ToolCallContext| {
            let mut args = c.tool_args.clone();
            args["a"] = json!(1);
            Some(args)
        })
        .with_transform_tool_input("none", |_: &ToolCallContext| None)
        .with_transform_tool_input("copy-a", |c: &ToolCallContext| {
            let mut args = c.tool_args.clone();
            args["b"] = json!(c.tool_args["a"].as_i64().unwrap() + 1);
            Some(args)
        });
    let out = hooks.run_transform_tool_input(&tool("t", json!({"z": 0})));
    assert_eq!(out, json!({"z": 0, "a": 1, "b": 2}));
}

#[test]
fn transform_failure_keeps_args_and_is_listed() {
    let hooks = Hooks::new()
        .with_transform_tool_input("first", |_: &ToolCallContext| Some(json!({"v": 1})))
        .with_transform_tool_input("boom", |_: &ToolCallContext| -> Option<Value> { panic!("no") });
    let seen = Arc::new(Mutex::new(Vec::new()));
    hooks
        .register_json(HookPoint::TransformToolInput, "c-fail", json_cb(&seen, false, Reply::Json(json!({"v": 9}))))
        .unwrap();
    let r = hooks.run_json(HookPoint::TransformToolInput, &json!({"name": "t", "args": {"v": 0}})).unwrap();
    assert!(r.allow);
    assert_eq!(r.tool_args, json!({"v": 1}));
    let names: Vec<_> = r.errors.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, vec!["boom", "c-fail"]);
    assert_eq!(seen.lock().unwrap()[0]["tool_args"], json!({"v": 1}), "the C callback saw the chained args");
}

#[test]
fn transform_null_reply_sets_null_and_allow_deny_mean_no_opinion() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let hooks = Hooks::new();
    hooks.register_json(HookPoint::TransformToolInput, "allow", json_cb(&seen, true, Reply::Allow)).unwrap();
    hooks.register_json(HookPoint::TransformToolInput, "deny", json_cb(&seen, true, Reply::Deny("x".into()))).unwrap();
    let r = hooks.run_json(HookPoint::TransformToolInput, &json!({"tool_name": "t", "tool_args": [1]})).unwrap();
    assert!(r.allow);
    assert_eq!(r.tool_args, json!([1]));
    hooks
        .register_json(HookPoint::TransformToolInput, "nuller", json_cb(&seen, true, Reply::Json(Value::Null)))
        .unwrap();
    let r = hooks.run_json(HookPoint::TransformToolInput, &json!({"tool_name": "t", "tool_args": [1]})).unwrap();
    assert_eq!(r.tool_args, Value::Null);
}

#[test]
fn transform_without_callbacks_returns_input_args() {
    let r = Hooks::new()
        .run_json(HookPoint::TransformToolInput, &json!({"tool_name": "t", "tool_args": {"k": 1}}))
        .unwrap();
    assert_eq!(r.tool_args, json!({"k": 1}));
}

// ── observers ────────────────────────────────────────────────────────────

#[test]
fn observers_all_run_and_failures_are_listed() {
    let calls = Arc::new(AtomicUsize::new(0));
    let hooks = Hooks::new();
    let seen = Arc::new(Mutex::new(Vec::new()));
    for (i, point) in [
        HookPoint::PostTurn,
        HookPoint::PostToolCall,
        HookPoint::OnToolError,
        HookPoint::OnCompaction,
        HookPoint::OnSessionStart,
        HookPoint::OnSessionEnd,
    ]
    .into_iter()
    .enumerate()
    {
        hooks.register_json(point, format!("fail{i}"), json_cb(&seen, false, Reply::Deny("ignored".into()))).unwrap();
        let c = calls.clone();
        hooks
            .register_json(
                point,
                format!("ok{i}"),
                Arc::new(move |_: &str| {
                    c.fetch_add(1, Ordering::SeqCst);
                    CallResult::ok(Reply::Deny("ignored".into()))
                }),
            )
            .unwrap();
    }
    let session = json!({"session": {"session_id": "s", "agent_id": 1}});
    let cases = [
        (HookPoint::PostTurn, json!({"response_text": "r", "turn_number": 1})),
        (HookPoint::PostToolCall, json!({"tool_name": "t", "result": "ok"})),
        (HookPoint::OnToolError, json!({"tool_name": "t", "error": "bad"})),
        (HookPoint::OnCompaction, json!({})),
        (HookPoint::OnSessionStart, session.clone()),
        (HookPoint::OnSessionEnd, session),
    ];
    for (i, (point, ctx)) in cases.iter().enumerate() {
        let r = hooks.run_json(*point, ctx).unwrap();
        assert!(r.allow, "observers never deny");
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.errors[0].name, format!("fail{i}"));
        assert_eq!(calls.load(Ordering::SeqCst), i + 1, "the callback after the failure ran");
    }
}

#[test]
fn typed_observers_receive_their_contexts() {
    let log = log_of();
    let (a, b, c, d, e) = (log.clone(), log.clone(), log.clone(), log.clone(), log.clone());
    let hooks = Hooks::new()
        .with_post_tool_call("r", move |x: &ToolResultContext| {
            a.lock().unwrap().push(format!("{}={}", x.tool_name, x.result))
        })
        .with_tool_error("e", move |x: &ToolErrorContext| {
            b.lock().unwrap().push(format!("{}!{}", x.tool_name, x.error))
        })
        .with_session_start("s", move |x: &SessionContext| {
            c.lock().unwrap().push(format!("start {}", x.session.agent_id))
        })
        .with_session_end("s", move |x: &SessionContext| {
            d.lock().unwrap().push(format!("end {}", x.session.session_id))
        })
        .with_compaction("c", move |x: &CompactionContext| {
            e.lock().unwrap().push(format!("compact {}", x.extra.len()))
        });
    hooks.run_post_tool_call(&ToolResultContext::new("Read", Value::Null, "data"));
    hooks.run_on_tool_error(&ToolErrorContext::new("Write", Value::Null, "denied"));
    hooks.run_on_session_start(&SessionContext::new("sess", 42));
    hooks.run_json(HookPoint::OnSessionEnd, &json!({"session": {"session_id": "sess2", "agent_id": 1}})).unwrap();
    hooks.run_json(HookPoint::OnCompaction, &json!({"tokens_before": 10})).unwrap();
    hooks.run_on_compaction(&CompactionContext::default());
    assert_eq!(
        *log.lock().unwrap(),
        vec!["Read=data", "Write!denied", "start 42", "end sess2", "compact 1", "compact 0"]
    );
}

// ── contexts ─────────────────────────────────────────────────────────────

fn run_err(point: HookPoint, ctx: Value) -> hookline::Error {
    Hooks::new().run_json(point, &ctx).unwrap_err()
}

#[test]
fn context_missing_required_field_names_it() {
    let cases = [
        (HookPoint::PreTurn, json!({"turn_number": 1}), "prompt"),
        (HookPoint::PreTurn, json!({"prompt": "p"}), "turn_number"),
        (HookPoint::PostTurn, json!({"turn_number": 1}), "response_text"),
        (HookPoint::PreToolCallDecide, json!({"tool_args": {}}), "tool_name"),
        (HookPoint::TransformToolInput, json!({}), "tool_name"),
        (HookPoint::PostToolCall, json!({"tool_name": "t"}), "result"),
        (HookPoint::OnToolError, json!({"tool_name": "t"}), "error"),
        (HookPoint::OnSessionStart, json!({}), "session"),
        (HookPoint::OnSessionEnd, json!({"session": {"agent_id": 1}}), "session.session_id"),
        (HookPoint::OnSessionEnd, json!({"session": {"session_id": "s"}}), "session.agent_id"),
        (HookPoint::OnInteraction, json!({}), "message"),
    ];
    for (point, ctx, field) in cases {
        let e = run_err(point, ctx);
        assert_eq!(e.status, Status::InvalidArgument);
        assert!(e.message.contains(&format!("'{field}'")), "{point}: {}", e.message);
    }
}

#[test]
fn context_mistyped_field_names_it() {
    let cases = [
        (HookPoint::PreTurn, json!({"prompt": 1, "turn_number": 1}), "prompt"),
        (HookPoint::PreTurn, json!({"prompt": "p", "turn_number": -1}), "turn_number"),
        (HookPoint::PreTurn, json!({"prompt": "p", "turn_number": 4294967296u64}), "turn_number"),
        (HookPoint::PreTurn, json!({"prompt": "p", "turn_number": 1.5}), "turn_number"),
        (HookPoint::PostTurn, json!({"response_text": "r", "turn_number": "1"}), "turn_number"),
        (HookPoint::PreToolCallDecide, json!({"tool_name": ["x"]}), "tool_name"),
        (HookPoint::PreToolCallDecide, json!({"name": 5}), "tool_name"),
        (HookPoint::PostToolCall, json!({"tool_name": "t", "result": {}}), "result"),
        (HookPoint::OnSessionStart, json!({"session": "s"}), "session"),
        (HookPoint::OnSessionStart, json!({"session": {"session_id": "s", "agent_id": "1"}}), "session.agent_id"),
        (HookPoint::OnInteraction, json!({"message": null}), "message"),
    ];
    for (point, ctx, field) in cases {
        let e = run_err(point, ctx);
        assert_eq!(e.status, Status::InvalidArgument);
        assert!(e.message.contains(&format!("'{field}'")), "{point}: {}", e.message);
    }
}

#[test]
fn context_that_is_not_an_object_is_invalid_argument() {
    for ctx in [json!([]), json!("x"), json!(1), Value::Null] {
        for point in HookPoint::ALL {
            assert_eq!(run_err(point, ctx.clone()).status, Status::InvalidArgument);
        }
    }
}

#[test]
fn malformed_or_too_deep_json_is_invalid_json() {
    let hooks = Hooks::new();
    assert_eq!(hooks.run_json_str(HookPoint::OnCompaction, "{").unwrap_err().status, Status::InvalidJson);
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    let e = hooks.run_json_str(HookPoint::OnCompaction, &deep).unwrap_err();
    assert_eq!(e.status, Status::InvalidJson);
    assert!(!e.message.is_empty());
}

#[test]
fn aliases_are_replaced_and_canonical_wins() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let hooks = Hooks::new();
    for point in
        [HookPoint::PreToolCallDecide, HookPoint::TransformToolInput, HookPoint::PostToolCall, HookPoint::OnToolError]
    {
        hooks.register_json(point, "rec", json_cb(&seen, true, Reply::NoOpinion)).unwrap();
    }
    hooks.run_json(HookPoint::PreToolCallDecide, &json!({"name": "Bash", "args": {"c": 1}, "x": true})).unwrap();
    hooks
        .run_json(
            HookPoint::TransformToolInput,
            &json!({"name": "alias", "tool_name": "canon", "args": 1, "tool_args": 2}),
        )
        .unwrap();
    hooks.run_json(HookPoint::PostToolCall, &json!({"name": "R", "result": "ok"})).unwrap();
    hooks.run_json(HookPoint::OnToolError, &json!({"name": "E", "args": [1], "error": "bad"})).unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen[0], json!({"tool_name": "Bash", "tool_args": {"c": 1}, "x": true}));
    assert_eq!(seen[1], json!({"tool_name": "canon", "tool_args": 2}));
    assert_eq!(seen[2], json!({"tool_name": "R", "result": "ok", "tool_args": null}));
    assert_eq!(seen[3], json!({"tool_name": "E", "tool_args": [1], "error": "bad"}));
    // Key order: an alias is renamed in place.
    let keys: Vec<_> = seen[0].as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, vec!["tool_name", "tool_args", "x"]);
}

#[test]
fn extra_fields_are_kept_for_json_and_typed_callbacks() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let typed_extra = Arc::new(Mutex::new(Value::Null));
    let t = typed_extra.clone();
    let hooks = Hooks::new().with_pre_turn("typed", move |c: &PreTurnContext| {
        *t.lock().unwrap() = Value::Object(c.extra.clone());
    });
    hooks.register_json(HookPoint::PreTurn, "json", json_cb(&seen, true, Reply::NoOpinion)).unwrap();
    hooks
        .run_json(
            HookPoint::PreTurn,
            &json!({"prompt": "p", "turn_number": 2, "session_id": "s-1", "meta": {"k": [1]}}),
        )
        .unwrap();
    assert_eq!(*typed_extra.lock().unwrap(), json!({"session_id": "s-1", "meta": {"k": [1]}}));
    assert_eq!(
        seen.lock().unwrap()[0],
        json!({"prompt": "p", "turn_number": 2, "session_id": "s-1", "meta": {"k": [1]}})
    );

    // Typed run: a JSON callback receives the serialised typed context, extras included.
    let mut ctx = PreTurnContext::new("q", 9);
    ctx.extra.insert("cwd".into(), json!("/w"));
    hooks.run_pre_turn(&ctx);
    assert_eq!(seen.lock().unwrap()[1], json!({"prompt": "q", "turn_number": 9, "cwd": "/w"}));
}

#[test]
fn session_context_round_trips_started_at_and_extras() {
    let got = Arc::new(Mutex::new(None));
    let g = got.clone();
    let hooks = Hooks::new().with_session_start("s", move |c: &SessionContext| {
        *g.lock().unwrap() = Some(c.clone());
    });
    hooks
        .run_json(
            HookPoint::OnSessionStart,
            &json!({"session": {"session_id": "abc", "agent_id": 18446744073709551615u64, "started_at": "2026-01-01T00:00:00Z", "host": "h"}}),
        )
        .unwrap();
    let c = got.lock().unwrap().clone().unwrap();
    assert_eq!(c.session.session_id, "abc");
    assert_eq!(c.session.agent_id, u64::MAX);
    assert_eq!(c.session.started_at, Some(json!("2026-01-01T00:00:00Z")));
    assert_eq!(c.session.extra.get("host"), Some(&json!("h")));
}

#[test]
fn result_json_has_exactly_the_contract_fields() {
    let hooks = Hooks::new().with_pre_turn("d", |_: &PreTurnContext| HookResult::deny("nope"));
    let text = hooks.run_json_str(HookPoint::PreTurn, r#"{"prompt":"p","turn_number":1}"#).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v, json!({"allow": false, "message": "nope", "tool_args": null, "errors": []}));
}

// ── re-entrancy and threads ──────────────────────────────────────────────

#[test]
fn callbacks_may_register_unregister_and_run_the_same_registry() {
    let hooks = Arc::new(Hooks::new());
    let weak = Arc::downgrade(&hooks);
    let inner_runs = Arc::new(AtomicUsize::new(0));
    let ir = inner_runs.clone();
    hooks
        .on_pre_turn("reentrant", move |c| {
            let h = weak.upgrade().unwrap();
            if c.turn_number == 1 {
                h.on_post_turn("added", |_| {}).unwrap();
                h.unregister(HookPoint::PostTurn, "added").unwrap();
                h.on_post_turn("added-late", |_| {}).unwrap();
                // Removing itself mid-run: this run goes on with its snapshot.
                h.unregister(HookPoint::PreTurn, "reentrant").unwrap();
                let r = h.run_pre_turn(&PreTurnContext::new("inner", 2));
                assert!(r.allow);
                ir.fetch_add(1, Ordering::SeqCst);
            }
            HookResult::deny("outer")
        })
        .unwrap();
    let r = hooks.run_pre_turn(&PreTurnContext::new("outer", 1));
    assert_eq!(r.message, "outer");
    assert_eq!(inner_runs.load(Ordering::SeqCst), 1);
    let names: Vec<_> = hooks.entries().into_iter().map(|e| e.name).collect();
    assert_eq!(names, vec!["added-late"]);
}

#[test]
fn callback_added_during_a_run_is_not_called_by_that_run() {
    let hooks = Arc::new(Hooks::new());
    let weak = Arc::downgrade(&hooks);
    let late_calls = Arc::new(AtomicUsize::new(0));
    let lc = late_calls.clone();
    hooks
        .on_post_turn("adder", move |_| {
            let lc = lc.clone();
            weak.upgrade()
                .unwrap()
                .on_post_turn("late", move |_| {
                    lc.fetch_add(1, Ordering::SeqCst);
                })
                .unwrap();
        })
        .unwrap();
    hooks.run_post_turn(&PostTurnContext::new("r", 1));
    assert_eq!(late_calls.load(Ordering::SeqCst), 0);
    hooks.run_post_turn(&PostTurnContext::new("r", 2));
    assert_eq!(late_calls.load(Ordering::SeqCst), 1);
}

#[test]
fn unregistered_callback_is_not_dropped_during_its_call() {
    // The callback unregisters itself and then checks that its captured
    // state is still alive (it would be a use-after-free for a C callback).
    struct Alive(Arc<AtomicUsize>);
    impl Drop for Alive {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let drops = Arc::new(AtomicUsize::new(0));
    let hooks = Arc::new(Hooks::new());
    let weak = Arc::downgrade(&hooks);
    let alive = Alive(drops.clone());
    let d = drops.clone();
    hooks
        .on_post_turn("self-remover", move |_| {
            let _keep = &alive;
            weak.upgrade().unwrap().unregister(HookPoint::PostTurn, "self-remover").unwrap();
            assert_eq!(d.load(Ordering::SeqCst), 0, "dropped during its own call");
        })
        .unwrap();
    hooks.run_post_turn(&PostTurnContext::new("r", 1));
    assert_eq!(drops.load(Ordering::SeqCst), 1, "dropped once the run finished");
}

#[test]
fn eight_runners_and_two_registrars_stay_consistent() {
    let hooks = Arc::new(Hooks::new());
    let stable_calls = Arc::new(AtomicUsize::new(0));
    let sc = stable_calls.clone();
    hooks
        .on_pre_tool_call_decide("stable", move |_| {
            sc.fetch_add(1, Ordering::SeqCst);
            HookResult::allow()
        })
        .unwrap();
    let mut threads = Vec::new();
    for t in 0..8 {
        let h = hooks.clone();
        threads.push(std::thread::spawn(move || {
            for i in 0..500 {
                let r = h
                    .run_json(HookPoint::PreToolCallDecide, &json!({"tool_name": "t", "tool_args": {"i": i, "t": t}}))
                    .unwrap();
                assert!(r.allow);
                assert!(r.errors.is_empty());
            }
        }));
    }
    for t in 0..2 {
        let h = hooks.clone();
        threads.push(std::thread::spawn(move || {
            for i in 0..500 {
                let name = format!("churn-{t}-{}", i % 7);
                h.on_pre_tool_call_decide(name.clone(), |_| HookResult::allow()).unwrap();
                if i % 2 == 1 {
                    let _ = h.unregister(HookPoint::PreToolCallDecide, &name);
                }
            }
        }));
    }
    for th in threads {
        th.join().unwrap();
    }
    assert_eq!(stable_calls.load(Ordering::SeqCst), 8 * 500, "the stable callback ran once per run");
    let entries = hooks.entries();
    assert_eq!(entries[0].name, "stable");
    let mut names: Vec<_> = entries.iter().map(|e| e.name.clone()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), entries.len(), "no duplicate (point, name)");
}

#[test]
fn hook_callback_reports_its_point() {
    let cb = HookCallback::TransformToolInput(Arc::new(|_| None));
    assert_eq!(cb.hook_point(), HookPoint::TransformToolInput);
    assert_eq!(format!("{cb:?}"), "HookCallback::transform_tool_input");
    let j = HookCallback::Json { point: HookPoint::OnInteraction, callback: Arc::new(|_: &str| CallResult::failed()) };
    assert_eq!(j.hook_point(), HookPoint::OnInteraction);
}

#[test]
fn typed_modified_args_that_is_not_an_object_fails_closed() {
    let hooks = Hooks::new().with_pre_tool_call_decide("bad-args", |_: &ToolCallContext| {
        HookResult::allow().with_modified_args(json!([1]))
    });
    let r = hooks.run_pre_tool_call_decide(&tool("t", Value::Null));
    assert!(!r.allow);
    assert!(r.message.contains("hook 'bad-args' failed"), "{}", r.message);
    // Outside the tool decide point modified_args means nothing and is ignored.
    let hooks = Hooks::new().with_pre_turn("p", |_: &PreTurnContext| HookResult::allow().with_modified_args(json!(1)));
    let r = hooks.run_json(HookPoint::PreTurn, &json!({"prompt": "p", "turn_number": 1})).unwrap();
    assert!(r.allow && r.errors.is_empty() && r.tool_args.is_null());
}
