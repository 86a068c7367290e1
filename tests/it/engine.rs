//! Engine core tests through the Rust API (the seed's async methods,
//! Rust callback hooks, cancellation, close). The C ABI has its own
//! conformance suite under ctests/.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hookline::callback::{CallResult, Reply};
use hookline::config::HooksConfig;
use hookline::interpret::PreToolHookDecision;
use hookline::{EngineOptions, HookEvent, HooksSource, LifecycleHookEngine, SessionStartTrigger, Status};
use serde_json::json;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn engine_with(dir: &std::path::Path, hooks: serde_json::Value) -> LifecycleHookEngine {
    let mut o = EngineOptions::new(dir, "s-rust");
    o.hooks = HooksSource::Json(hooks);
    LifecycleHookEngine::with_options(&o).unwrap()
}

#[test]
fn new_with_session_gated_returns_none_when_nothing_is_configured() {
    let dir = tempfile::tempdir().unwrap();
    let none = LifecycleHookEngine::new_with_session_gated(
        dir.path(),
        &HooksConfig::empty(),
        SessionStartTrigger::Startup,
        "s",
        false,
    )
    .unwrap();
    assert!(none.is_none());
    let cfg = HooksConfig::from_json_value(&json!({"lifecycle":{"stop":[{"hooks":[{"command":"true"}]}]}})).unwrap();
    let some =
        LifecycleHookEngine::new_with_session_gated(dir.path(), &cfg, SessionStartTrigger::Resume, "s", true).unwrap();
    let e = some.expect("an engine when hooks are configured");
    assert!(e.workspace_gated());
    assert!(e.workspace_hooks_need_approval());
}

#[test]
fn run_pre_tool_use_exit_2_with_stderr_denies() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(
        dir.path(),
        json!({"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"echo nope >&2; exit 2"}]}]}),
    );
    let o = rt().block_on(e.run_pre_tool_use("Bash", Some(&json!({"command":"rm -rf /"})), Some("c1"))).unwrap();
    assert_eq!(o.decision, PreToolHookDecision::Deny);
    assert_eq!(o.reason.as_deref(), Some("nope"));
}

#[test]
fn updated_input_chains_into_the_next_hook_payload() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("seen.json");
    let e = engine_with(
        dir.path(),
        // VT Code profile: an updatedInput chains into later hooks (the
        // Claude Code profile gives every hook the original input).
        json!({"lifecycle":{"pre_tool_use":[{"hooks":[
            {"command":"cat >/dev/null; echo '{\"hookSpecificOutput\":{\"updatedInput\":{\"command\":\"ls -la\"}}}'"},
            {"command": format!("cat > {}", seen.display())}
        ]}]}}),
    );
    let o = rt().block_on(e.run_pre_tool_use("Bash", Some(&json!({"command":"ls"})), None)).unwrap();
    assert_eq!(o.updated_input, Some(json!({"command":"ls -la"})));
    let payload: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(payload["tool_input"], json!({"command":"ls -la"}));
}

#[test]
fn rust_callback_hook_runs_after_configured_hooks_and_can_deny() {
    let dir = tempfile::tempdir().unwrap();
    let order = dir.path().join("order");
    let e = engine_with(
        dir.path(),
        json!({"PreToolUse":[{"hooks":[{"command": format!("echo cmd >> {}", order.display())}]}]}),
    );
    let order2 = order.clone();
    e.add_callback_hook(
        HookEvent::PreToolUse,
        Some("Write"),
        "policy",
        Arc::new(move |payload: &str| {
            std::fs::OpenOptions::new().append(true).create(true).open(&order2).unwrap();
            let v: serde_json::Value = serde_json::from_str(payload).unwrap();
            assert_eq!(v["hook_event_name"], "PreToolUse");
            CallResult::ok(Reply::Deny("host says no".into()))
        }),
    )
    .unwrap();
    let o = e.run_blocking(HookEvent::PreToolUse, &json!({"tool_name":"Write"})).unwrap().to_json();
    assert_eq!(o["decision"], "deny");
    assert_eq!(o["reason"], "host says no");
    assert_eq!(o["hooks"][0]["kind"], "command");
    assert_eq!(o["hooks"][1]["kind"], "callback");
    assert_eq!(o["hooks"][1]["name"], "policy");
    assert_eq!(o["hooks"][1]["exit_code"], 2);
    // The callback's matcher is the Claude rule: Read does not match "Write".
    let o = e.run_blocking(HookEvent::PreToolUse, &json!({"tool_name":"Read"})).unwrap().to_json();
    assert_eq!(o["decision"], "continue");
}

#[test]
fn panicking_rust_callback_hook_counts_as_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), json!({}));
    e.add_callback_hook(HookEvent::PostToolUse, None, "boom", Arc::new(|_: &str| -> CallResult { panic!("boom") }))
        .unwrap();
    let o =
        e.run_blocking(HookEvent::PostToolUse, &json!({"tool_name":"Bash","tool_response":"ok"})).unwrap().to_json();
    assert_eq!(o["hooks"][0]["exit_code"], 1);
    assert_eq!(o["messages"][0]["level"], "warning");
}

#[test]
fn invalid_input_is_rejected_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let e =
        engine_with(dir.path(), json!({"PreToolUse":[{"hooks":[{"command": format!("touch {}", marker.display())}]}]}));
    let err = e.run_blocking(HookEvent::PreToolUse, &json!({"tool_input":{}})).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    assert!(err.message.contains("tool_name"));
    assert!(!marker.exists());
}

#[test]
fn dropping_the_future_cancels_the_run_and_kills_the_hook() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let e = engine_with(
        dir.path(),
        json!({"Notification":[{"hooks":[{"command": format!("echo $$ > {}; exec sleep 1000", pidfile.display())}]}]}),
    );
    let rt = rt();
    let pid_written = || std::fs::read_to_string(&pidfile).is_ok_and(|s| s.ends_with('\n'));
    let finished_early = rt.block_on(async {
        let mut run = std::pin::pin!(e.run_notification("idle_prompt", "t", "m"));
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            // Poll the run: it must stay pending (its hook sleeps 1000 s)
            // until the hook has started and written its pid.
            let polled = std::future::poll_fn(|cx| std::task::Poll::Ready(run.as_mut().poll(cx))).await;
            if let std::task::Poll::Ready(r) = polled {
                break Some(r);
            }
            if pid_written() {
                break None;
            }
            assert!(Instant::now() < deadline, "the hook did not start within 30 s");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // The future is dropped here, with its run in flight.
    });
    assert!(finished_early.is_none(), "the hook sleeps; the run cannot finish: {finished_early:?}");
    let started = Instant::now();
    // The run was cancelled on drop: its process must disappear.
    let pid: i32 = std::fs::read_to_string(&pidfile).unwrap().trim().parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(3);
    while std::path::Path::new(&format!("/proc/{pid}")).exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    assert!(stat.is_empty() || stat.contains(") Z "), "hook process {pid} still running: {stat}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn close_cancels_runs_in_flight_and_calls_every_done_once() {
    let dir = tempfile::tempdir().unwrap();
    let started_file = dir.path().join("started");
    let e = engine_with(
        dir.path(),
        json!({"Notification":[{"hooks":[{"command": format!("echo $$ >> {}; exec sleep 1000", started_file.display())}]}]}),
    );
    let done = Arc::new(AtomicUsize::new(0));
    let cancelled = Arc::new(AtomicUsize::new(0));
    for _ in 0..8 {
        let (d, c) = (done.clone(), cancelled.clone());
        e.run_async(HookEvent::Notification, json!({"notification_type":"x","title":"t","message":"m"}), move |r| {
            if matches!(&r, Err(err) if err.status == Status::Cancelled) {
                c.fetch_add(1, Ordering::SeqCst);
            }
            d.fetch_add(1, Ordering::SeqCst);
        })
        .unwrap();
    }
    // Wait until all eight hooks run, so close really has runs to cancel.
    let running = || std::fs::read_to_string(&started_file).map(|s| s.lines().count()).unwrap_or(0);
    let deadline = Instant::now() + Duration::from_secs(30);
    while running() < 8 {
        assert!(Instant::now() < deadline, "only {} of 8 hooks started within 30 s", running());
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(done.load(Ordering::SeqCst), 0, "no run can finish while its hook sleeps");
    let started = Instant::now();
    e.close();
    assert_eq!(done.load(Ordering::SeqCst), 8, "close returns after every done");
    assert_eq!(cancelled.load(Ordering::SeqCst), 8);
    assert!(started.elapsed() < Duration::from_secs(5));
    let err = e.run_blocking(HookEvent::SessionStart, &json!({})).unwrap_err();
    assert_eq!(err.status, Status::Closed);
}

#[test]
fn cancel_unknown_run_is_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), json!({}));
    assert_eq!(e.cancel(424242).unwrap_err().status, Status::NotFound);
}

#[test]
fn engine_without_hooks_returns_the_empty_outcome_of_each_event() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), json!({}));
    let rt = rt();
    let s = rt.block_on(e.run_session_start()).unwrap();
    assert!(s.additional_context.is_empty());
    let p = rt.block_on(e.run_user_prompt_submit("t1", "hi")).unwrap();
    assert!(p.allow_prompt);
    let st = rt.block_on(e.run_stop("done", false)).unwrap();
    assert!(st.block_reason.is_none());
    let o = e.run_blocking(HookEvent::PreToolUse, &json!({"tool_name":"Bash"})).unwrap().to_json();
    assert_eq!(o["decision"], "continue");
    assert_eq!(o["continue"], true);
    assert_eq!(o["hooks"], json!([]));
}

#[test]
fn no_match_fast_path_returns_the_same_outcome_as_a_full_run() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), json!({"PreToolUse":[{"matcher":"Write","hooks":[{"command":"exit 2"}]}]}));
    for event in HookEvent::ALL {
        let input = match event {
            HookEvent::SessionStart => json!({}),
            HookEvent::SessionEnd => json!({"turn_id":"t","reason":"exit"}),
            HookEvent::SubagentStart | HookEvent::SubagentStop => {
                json!({"parent_session_id":"p","child_thread_id":"c","agent_name":"a","display_label":"d","background":false,"status":"s"})
            }
            HookEvent::UserPromptSubmit => json!({"turn_id":"t","prompt":"p"}),
            HookEvent::PreToolUse => json!({"tool_name":"Bash"}),
            HookEvent::PostToolUse => json!({"tool_name":"Bash","tool_response":null}),
            HookEvent::PermissionRequest => json!({"tool_name":"Bash","permission_request":{}}),
            HookEvent::PreCompact => {
                json!({"trigger":"auto","mode":"local","original_message_count":1,"compacted_message_count":1})
            }
            HookEvent::Stop => json!({"last_assistant_message":"m","stop_hook_active":false}),
            HookEvent::Notification => json!({"notification_type":"n","title":"t","message":"m"}),
            HookEvent::PostToolUseFailure => json!({"tool_name":"Bash","error":"e"}),
        };
        let fast: serde_json::Value = serde_json::from_str(&e.run_blocking_json(event, &input).unwrap()).unwrap();
        let full = e.run_blocking(event, &input).unwrap().to_json();
        assert_eq!(fast, full, "{event}");
    }
    // A matching hook still runs through the fast entry point.
    let o: serde_json::Value =
        serde_json::from_str(&e.run_blocking_json(HookEvent::PreToolUse, &json!({"tool_name":"Write"})).unwrap())
            .unwrap();
    assert_eq!(o["hooks"].as_array().unwrap().len(), 1);
}

#[test]
fn outcome_text_equals_the_text_of_its_json_value() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(
        dir.path(),
        json!({"PreToolUse":[{"hooks":[{"command":"echo '{\"systemMessage\":\"hi é\",\"hookSpecificOutput\":{\"additionalContext\":\"ctx\",\"updatedInput\":{\"b\":1,\"a\":[2]}}}'"}]}]}),
    );
    let o = e.run_blocking(HookEvent::PreToolUse, &json!({"tool_name":"Bash"})).unwrap();
    assert_eq!(o.to_json_string().unwrap(), o.to_json().to_string());
}

#[test]
fn callback_hooks_of_concurrent_events_run_while_the_commands_run() {
    // A PostToolUse command that waits for a file the callback hook creates:
    // if the callback only ran after the command, the command would time out.
    let dir = tempfile::tempdir().unwrap();
    let flag = dir.path().join("flag");
    let e = engine_with(
        dir.path(),
        json!({"PostToolUse":[{"hooks":[{"command": format!("i=0; while [ ! -e {} ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; [ -e {} ]", flag.display(), flag.display()), "timeout": 10}]}]}),
    );
    let flag2 = flag.clone();
    e.add_callback_hook(
        HookEvent::PostToolUse,
        None,
        "creates-flag",
        Arc::new(move |_: &str| {
            std::fs::write(&flag2, b"x").unwrap();
            CallResult::ok(Reply::NoOpinion)
        }),
    )
    .unwrap();
    let o =
        e.run_blocking(HookEvent::PostToolUse, &json!({"tool_name":"Bash","tool_response":"ok"})).unwrap().to_json();
    assert_eq!(o["hooks"][0]["exit_code"], 0, "{o}");
    assert!(o["hooks"][0]["duration_ms"].as_f64().unwrap() < 4000.0, "{o}");
}
