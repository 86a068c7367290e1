//! Tracing through the Rust API: the span tree of a run, its times, the
//! W3C trace context a run joins and hands on, the life of a trace sink.
//! (The C ABI has its own suite: ctests/test_engine_trace.c.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hookline::callback::{CallResult, Reply};
use hookline::trace::context::hex;
use hookline::trace::{AttrValue, Span, SpanLevel, SpanSink, SpanStatus};
use hookline::{EngineOptions, HookEvent, HooksSource, LifecycleHookEngine, Status};
use serde_json::{json, Value};

const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

fn engine_with(dir: &std::path::Path, hooks: Value) -> LifecycleHookEngine {
    let mut o = EngineOptions::new(dir, "s-trace");
    o.hooks = HooksSource::Json(hooks);
    LifecycleHookEngine::with_options(&o).unwrap()
}

/// Every span delivered to it, with the thread it was delivered on.
#[derive(Clone, Default)]
struct Recorder {
    spans: Arc<Mutex<Vec<(Span, std::thread::ThreadId)>>>,
    dropped: Arc<AtomicUsize>,
}

struct RecorderSink(Recorder);

impl SpanSink for RecorderSink {
    fn span(&self, span: &Span) {
        self.0.spans.lock().unwrap().push((span.clone(), std::thread::current().id()));
    }
}

impl Drop for RecorderSink {
    fn drop(&mut self) {
        self.0.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

impl Recorder {
    fn install(&self, e: &LifecycleHookEngine) {
        e.set_trace_sink(RecorderSink(self.clone())).map_err(|r| r.error).unwrap();
    }
    fn spans(&self) -> Vec<Span> {
        self.spans.lock().unwrap().iter().map(|(s, _)| s.clone()).collect()
    }
    /// Wait until `n` spans arrived (delivery is asynchronous).
    fn wait_for(&self, n: usize) -> Vec<Span> {
        for _ in 0..1000 {
            if self.spans.lock().unwrap().len() >= n {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.spans()
    }
}

fn str_attr<'a>(s: &'a Span, key: &str) -> Option<&'a str> {
    match s.attribute(key) {
        Some(AttrValue::Str(v)) => Some(v),
        _ => None,
    }
}

fn run_span(spans: &[Span]) -> &Span {
    let runs: Vec<&Span> = spans.iter().filter(|s| s.level == SpanLevel::Run).collect();
    assert_eq!(runs.len(), 1, "one run span: {spans:#?}");
    runs[0]
}

fn pre_tool(cmd: &str) -> Value {
    json!({"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":cmd}]}]})
}

#[test]
fn a_run_has_one_span_and_each_hook_a_child_span_inside_it() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(
        dir.path(),
        json!({"PreToolUse":[{"matcher":"Bash","hooks":[
            {"type":"command","command":"sleep 0.05; exit 0"},
            {"type":"command","command":"echo nope >&2; exit 2"}
        ]}]}),
    );
    let rec = Recorder::default();
    rec.install(&e);
    let out = e.run_blocking_json(HookEvent::PreToolUse, &json!({"tool_name":"Bash","tool_input":{}})).unwrap();
    assert!(out.contains("\"deny\""), "{out}");
    e.close();
    let spans = rec.spans();
    assert_eq!(spans.len(), 3, "{spans:#?}");
    let run = run_span(&spans);
    assert_eq!(run.parent_span_id, None, "no traceparent: a new trace");
    assert_eq!(run.name, "hooks PreToolUse");
    assert_eq!(str_attr(run, "hook.decision"), Some("deny"));
    assert_eq!(str_attr(run, "gen_ai.tool.name"), Some("Bash"));
    for hook in spans.iter().filter(|s| s.level == SpanLevel::Hook) {
        assert_eq!(hook.trace_id, run.trace_id);
        assert_eq!(hook.parent_span_id, Some(run.span_id));
        assert_ne!(hook.span_id, run.span_id);
        assert!(run.start_unix_nano <= hook.start_unix_nano && hook.end_unix_nano <= run.end_unix_nano, "{spans:#?}");
        assert!(hook.start_unix_nano <= hook.end_unix_nano);
        assert_eq!(str_attr(hook, "hook.type"), Some("command"));
        assert_eq!(hook.status, SpanStatus::Ok, "a deliberate deny is an answer, not an error");
    }
    let slow = spans.iter().find(|s| str_attr(s, "hook.command") == Some("sleep 0.05; exit 0")).unwrap();
    assert!(slow.end_unix_nano - slow.start_unix_nano >= 50_000_000, "{slow:#?}");
    let deny = spans.iter().find(|s| str_attr(s, "hook.decision") == Some("deny")).unwrap();
    assert_eq!(deny.attribute("hook.exit_code"), Some(&AttrValue::Int(2)));
}

#[test]
fn a_run_that_runs_no_hook_has_no_span() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), pre_tool("true"));
    let rec = Recorder::default();
    rec.install(&e);
    e.run_blocking_json(HookEvent::PreToolUse, &json!({"tool_name":"Write","tool_input":{}})).unwrap();
    e.run_blocking_json(HookEvent::Stop, &json!({})).unwrap();
    e.close();
    assert!(rec.spans().is_empty(), "{:#?}", rec.spans());
}

#[test]
fn a_run_joins_the_inputs_traceparent_and_hooks_get_their_span_as_parent() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("env");
    let e = engine_with(
        dir.path(),
        pre_tool(&format!("printf '%s|%s' \"$TRACEPARENT\" \"$TRACESTATE\" > {}", seen.display())),
    );
    let rec = Recorder::default();
    rec.install(&e);
    let input = json!({"tool_name":"Bash","tool_input":{},"traceparent":PARENT,"tracestate":"rojo=00f067aa0ba902b7"});
    e.run_blocking_json(HookEvent::PreToolUse, &input).unwrap();
    e.close();
    let spans = rec.spans();
    let run = run_span(&spans);
    assert_eq!(hex(&run.trace_id), "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_eq!(run.parent_span_id.map(|p| hex(&p)).as_deref(), Some("00f067aa0ba902b7"));
    let hook = spans.iter().find(|s| s.level == SpanLevel::Hook).unwrap();
    let env = std::fs::read_to_string(&seen).unwrap();
    assert_eq!(
        env,
        format!("00-4bf92f3577b34da6a3ce929d0e0e4736-{}-01|rojo=00f067aa0ba902b7", hex(&hook.span_id)),
        "TRACEPARENT names the hook's own span"
    );
}

#[test]
fn an_invalid_traceparent_starts_a_new_trace_and_says_why_on_the_run_span() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), pre_tool("true"));
    let rec = Recorder::default();
    rec.install(&e);
    let bad = "00-00000000000000000000000000000000-00f067aa0ba902b7-01";
    e.run_blocking_json(HookEvent::PreToolUse, &json!({"tool_name":"Bash","tool_input":{},"traceparent":bad})).unwrap();
    e.close();
    let spans = rec.spans();
    let run = run_span(&spans);
    assert_eq!(run.parent_span_id, None);
    assert_ne!(run.trace_id, [0; 16]);
    let why = str_attr(run, "hook.traceparent.error").unwrap();
    assert!(why.contains("trace-id is all zeros"), "{why}");
}

#[test]
fn without_a_trace_hooks_keep_the_inherited_environment_and_with_one_an_inherited_tracestate_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("env");
    let mut o = EngineOptions::new(dir.path(), "s-trace");
    o.hooks = HooksSource::Json(pre_tool(&format!(
        "printf '%s|%s' \"$TRACEPARENT\" \"${{TRACESTATE-unset}}\" > {}",
        seen.display()
    )));
    o.env = vec![("TRACEPARENT".into(), "configured".into()), ("TRACESTATE".into(), "configured=1".into())];
    let e = LifecycleHookEngine::with_options(&o).unwrap();
    let input = json!({"tool_name":"Bash","tool_input":{}});
    e.run_blocking_json(HookEvent::PreToolUse, &input).unwrap();
    assert_eq!(std::fs::read_to_string(&seen).unwrap(), "configured|configured=1", "no handler: nothing changes");
    let rec = Recorder::default();
    rec.install(&e);
    e.run_blocking_json(HookEvent::PreToolUse, &input).unwrap();
    let env = std::fs::read_to_string(&seen).unwrap();
    let (tp, ts) = env.split_once('|').unwrap();
    assert!(tp.starts_with("00-") && tp.len() == 55, "{env}");
    assert_eq!(ts, "unset", "a run without tracestate hands none on");
}

#[test]
fn every_failure_kind_is_an_error_span_with_its_attributes() {
    let dir = tempfile::tempdir().unwrap();
    // Stop runs its hooks concurrently in the VT Code dialect: one run, five hooks.
    let e = engine_with(
        dir.path(),
        json!({"lifecycle":{"stop":[{"hooks":[
            {"command":"exit 3"},
            {"command":"sleep 5","timeout_seconds":1},
            {"command":"kill -9 $$"},
            {"command":"echo '{not json'"},
            {"command":"true"}
        ]}]}}),
    );
    let rec = Recorder::default();
    rec.install(&e);
    e.run_blocking_json(HookEvent::Stop, &json!({"last_assistant_message":"done","stop_hook_active":false})).unwrap();
    e.close();
    let spans = rec.spans();
    let by = |cmd: &str| spans.iter().find(|s| str_attr(s, "hook.command") == Some(cmd)).unwrap().clone();
    for (cmd, failure) in
        [("exit 3", "exit"), ("sleep 5", "timeout"), ("kill -9 $$", "signal"), ("echo '{not json'", "invalid_output")]
    {
        let s = by(cmd);
        assert_eq!(s.status, SpanStatus::Error, "{s:#?}");
        assert_eq!(str_attr(&s, "hook.failure"), Some(failure), "{s:#?}");
        assert!(s.status_message.as_deref().unwrap().contains(failure));
    }
    assert_eq!(by("sleep 5").attribute("hook.timed_out"), Some(&AttrValue::Bool(true)));
    assert_eq!(by("kill -9 $$").attribute("hook.signal"), Some(&AttrValue::Int(9)));
    assert_eq!(by("exit 3").attribute("hook.exit_code"), Some(&AttrValue::Int(3)));
    assert_eq!(by("true").status, SpanStatus::Ok);
    assert_eq!(run_span(&spans).status, SpanStatus::Ok, "a failing hook does not fail the run");
}

#[test]
fn callback_hooks_and_skipped_hooks_get_spans_too() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = EngineOptions::new(dir.path(), "s-trace");
    o.hooks = HooksSource::Json(pre_tool("true"));
    o.workspace_gated = true;
    o.trust_store = Some(dir.path().join("trust.json"));
    let e = LifecycleHookEngine::with_options(&o).unwrap();
    e.add_callback_hook(HookEvent::PreToolUse, None, "gate", Arc::new(|_: &str| CallResult::ok(Reply::Allow))).unwrap();
    let rec = Recorder::default();
    rec.install(&e);
    e.run_blocking_json(HookEvent::PreToolUse, &json!({"tool_name":"Bash","tool_input":{}})).unwrap();
    e.close();
    let spans = rec.spans();
    let skipped = spans.iter().find(|s| str_attr(s, "hook.command") == Some("true")).unwrap();
    assert_eq!(str_attr(skipped, "hook.skipped"), Some("not_approved"));
    let cb = spans.iter().find(|s| str_attr(s, "hook.name") == Some("gate")).unwrap();
    assert_eq!(str_attr(cb, "hook.type"), Some("callback"));
    assert_eq!(str_attr(cb, "hook.source"), Some("host"));
    assert_eq!(str_attr(cb, "hook.decision"), Some("allow"));
}

#[test]
fn spans_are_delivered_on_a_hookline_thread_not_the_runs() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), pre_tool("true"));
    let rec = Recorder::default();
    rec.install(&e);
    e.run_blocking_json(HookEvent::PreToolUse, &json!({"tool_name":"Bash","tool_input":{}})).unwrap();
    e.close();
    let me = std::thread::current().id();
    let threads: Vec<_> = rec.spans.lock().unwrap().iter().map(|(_, t)| *t).collect();
    assert_eq!(threads.len(), 2);
    assert!(threads.iter().all(|t| *t != me));
}

#[test]
fn a_replaced_sink_is_released_after_its_last_span_and_close_waits_for_delivery() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), pre_tool("true"));
    let (a, b) = (Recorder::default(), Recorder::default());
    a.install(&e);
    e.run_blocking_json(HookEvent::PreToolUse, &json!({"tool_name":"Bash","tool_input":{}})).unwrap();
    b.install(&e);
    assert_eq!(a.wait_for(2).len(), 2, "the run started with a delivers to a");
    for _ in 0..200 {
        if a.dropped.load(Ordering::SeqCst) == 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(a.dropped.load(Ordering::SeqCst), 1, "released once its last span was delivered");
    e.run_blocking_json(HookEvent::PreToolUse, &json!({"tool_name":"Bash","tool_input":{}})).unwrap();
    e.close();
    assert_eq!(b.spans().len(), 2, "close returns after the spans of ended runs are delivered");
    assert_eq!(b.dropped.load(Ordering::SeqCst), 1, "and after the sink is released");
    assert_eq!(a.dropped.load(Ordering::SeqCst), 1, "exactly once");
}

#[test]
fn removing_the_sink_stops_tracing_the_next_runs() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), pre_tool("true"));
    let rec = Recorder::default();
    rec.install(&e);
    e.remove_trace_sink().unwrap();
    e.run_blocking_json(HookEvent::PreToolUse, &json!({"tool_name":"Bash","tool_input":{}})).unwrap();
    e.close();
    assert!(rec.spans().is_empty());
    assert_eq!(rec.dropped.load(Ordering::SeqCst), 1);
}

#[test]
fn a_closed_engine_hands_the_sink_back() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), pre_tool("true"));
    e.close();
    let rec = Recorder::default();
    let rejected = e.set_trace_sink(RecorderSink(rec.clone())).unwrap_err();
    assert_eq!(rejected.error.status, Status::Closed);
    assert_eq!(rec.dropped.load(Ordering::SeqCst), 0, "handed back, not dropped");
    drop(rejected);
    assert_eq!(rec.dropped.load(Ordering::SeqCst), 1);
}

#[test]
fn an_async_hook_span_is_a_child_of_the_run_that_started_it() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(
        dir.path(),
        json!({"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"sleep 0.1","async":true}]}]}}),
    );
    let rec = Recorder::default();
    rec.install(&e);
    e.run_blocking_json(HookEvent::PostToolUse, &json!({"tool_name":"Bash","tool_input":{},"tool_response":{}}))
        .unwrap();
    let spans = rec.wait_for(2);
    e.close();
    let run = run_span(&spans);
    let hook = spans.iter().find(|s| s.level == SpanLevel::Hook).unwrap();
    assert_eq!(hook.parent_span_id, Some(run.span_id));
    assert_eq!(hook.attribute("hook.async"), Some(&AttrValue::Bool(true)));
    assert_eq!(run.attribute("hook.async_count"), Some(&AttrValue::Int(1)));
}

#[test]
fn a_cancelled_run_ends_its_spans_as_errors() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine_with(dir.path(), pre_tool("sleep 10"));
    let rec = Recorder::default();
    rec.install(&e);
    let (tx, rx) = std::sync::mpsc::channel();
    let id = e
        .run_async(HookEvent::PreToolUse, json!({"tool_name":"Bash","tool_input":{}}), move |r| {
            let _ = tx.send(r.map(|_| ()));
        })
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    e.cancel(id).unwrap();
    let r = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(r.unwrap_err().status, Status::Cancelled);
    e.close();
    let spans = rec.spans();
    let run = run_span(&spans);
    assert_eq!(run.status, SpanStatus::Error);
    assert_eq!(run.attribute("hook.cancelled"), Some(&AttrValue::Bool(true)));
    let hook = spans.iter().find(|s| s.level == SpanLevel::Hook).unwrap();
    assert_eq!(hook.status, SpanStatus::Error);
    assert_eq!(hook.attribute("hook.cancelled"), Some(&AttrValue::Bool(true)));
}
