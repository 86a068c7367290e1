//! Tracing: one span per run and one per hook, for a host's trace handler
//! (`hl_engine_set_trace_handler`, `docs/c-api.md` §12).
//!
//! | part | file |
//! |---|---|
//! | the span, its JSON | here ([`Span`]) |
//! | the engine's handler slot, a run's span | here (`TraceSlot`, `RunTrace`) |
//! | a hook's span (started and ended by the handler layer) | here (`HookSpan`); its attributes: `handler/layer/trace.rs` |
//! | W3C `traceparent` / `tracestate` | `context.rs` |
//! | trace and span ids | `ids.rs` |
//! | the delivery thread | `delivery.rs` |
//!
//! Cost: with no handler set a run reads one atomic flag
//! (`TraceSlot::begin`); a run in which no hook runs (nothing matched)
//! never gets that far and has no span, handler or not.
//!
//! Times: a run takes the wall clock once, when its span starts; every
//! other time of its spans (its end, its hooks' start and end) is that
//! plus a monotonic clock's offset, so a hook's span lies inside its run's
//! even when the wall clock is set meanwhile.

pub mod context;
mod delivery;
mod ids;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use crate::callback::Rejected;
use crate::error::{Error, Status};
use context::{check_tracestate, format_traceparent, push_hex, HookTraceContext, TraceParent};
pub use delivery::MAX_QUEUED;

/// Whether a span is a run's or a hook's (the JSON's `"level"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanLevel {
    /// One run of an event (`hl_engine_run`, …): the parent of its hooks.
    Run,
    /// One hook of a run.
    Hook,
}

/// How a span ended (the JSON's `"status"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpanStatus {
    /// A run that returned an outcome; a hook that ran and answered, a
    /// deliberate deny or block included, or that the gate skipped.
    Ok,
    /// A run that returned an error (cancelled, …); a hook that failed
    /// (its report's `failure`) or was cancelled while it ran.
    Error,
}

/// An attribute value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttrValue {
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl From<&str> for AttrValue {
    fn from(s: &str) -> AttrValue {
        AttrValue::Str(s.to_owned())
    }
}

impl From<String> for AttrValue {
    fn from(s: String) -> AttrValue {
        AttrValue::Str(s)
    }
}

impl From<i64> for AttrValue {
    fn from(n: i64) -> AttrValue {
        AttrValue::Int(n)
    }
}

impl From<i32> for AttrValue {
    fn from(n: i32) -> AttrValue {
        AttrValue::Int(n.into())
    }
}

impl From<bool> for AttrValue {
    fn from(b: bool) -> AttrValue {
        AttrValue::Bool(b)
    }
}

/// One finished span, as a trace handler receives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The trace: the host's (from the input's `traceparent`), else a new one.
    pub trace_id: [u8; 16],
    /// This span.
    pub span_id: [u8; 8],
    /// A hook's run span; a run's: the host's span (from `traceparent`),
    /// `None` for a run that started a new trace.
    pub parent_span_id: Option<[u8; 8]>,
    /// The W3C `trace-flags` of the trace (bit 0: sampled): the host's, or
    /// `01` for a new trace.
    pub trace_flags: u8,
    /// Run or hook.
    pub level: SpanLevel,
    /// `hooks <Event>` for a run, `hook <type>` for a hook.
    pub name: Cow<'static, str>,
    /// Start, in nanoseconds since the Unix epoch.
    pub start_unix_nano: u64,
    /// End, in nanoseconds since the Unix epoch (never before the start).
    pub end_unix_nano: u64,
    /// How it ended.
    pub status: SpanStatus,
    /// Why it is an error (`None` when it is not).
    pub status_message: Option<String>,
    /// OpenTelemetry-style attributes (`hook.event`, `hook.exit_code`, …), in a fixed order.
    pub attributes: Vec<(&'static str, AttrValue)>,
}

impl Span {
    /// The attribute `key`, if set.
    pub fn attribute(&self, key: &str) -> Option<&AttrValue> {
        self.attributes.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The span as JSON: `{"trace_id","span_id","parent_span_id",
    /// "trace_flags","level","name","start_unix_nano","end_unix_nano",
    /// "status","status_message","attributes":{…}}`; ids and flags are
    /// lowercase hex (`parent_span_id` null for a root span), times decimal
    /// strings (they exceed what a JSON number holds exactly in many
    /// parsers; OTLP/JSON writes them so too), `status_message` only on an
    /// error.
    pub fn to_json(&self) -> String {
        let mut s = String::with_capacity(256 + 48 * self.attributes.len());
        s.push_str("{\"trace_id\":\"");
        push_hex(&mut s, &self.trace_id);
        s.push_str("\",\"span_id\":\"");
        push_hex(&mut s, &self.span_id);
        s.push_str("\",\"parent_span_id\":");
        match &self.parent_span_id {
            Some(p) => {
                s.push('"');
                push_hex(&mut s, p);
                s.push('"');
            }
            None => s.push_str("null"),
        }
        s.push_str(",\"trace_flags\":\"");
        push_hex(&mut s, &[self.trace_flags]);
        s.push('"');
        s.push_str(match self.level {
            SpanLevel::Run => ",\"level\":\"run\"",
            SpanLevel::Hook => ",\"level\":\"hook\"",
        });
        s.push_str(",\"name\":");
        push_json_str(&mut s, &self.name);
        let _ =
            write!(s, ",\"start_unix_nano\":\"{}\",\"end_unix_nano\":\"{}\"", self.start_unix_nano, self.end_unix_nano);
        match (&self.status, &self.status_message) {
            (SpanStatus::Ok, _) => s.push_str(",\"status\":\"ok\""),
            (SpanStatus::Error, msg) => {
                s.push_str(",\"status\":\"error\",\"status_message\":");
                push_json_str(&mut s, msg.as_deref().unwrap_or(""));
            }
        }
        s.push_str(",\"attributes\":{");
        for (i, (k, v)) in self.attributes.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            push_json_str(&mut s, k);
            s.push(':');
            match v {
                AttrValue::Str(text) => push_json_str(&mut s, text),
                AttrValue::Int(n) => {
                    let _ = write!(s, "{n}");
                }
                AttrValue::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
            }
        }
        s.push_str("}}");
        s
    }
}

fn push_json_str(out: &mut String, text: &str) {
    // Serialising a str cannot fail.
    out.push_str(&serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned()));
}

/// Where an engine's spans go: called on hookline's delivery thread, one
/// span at a time (never on a run's thread, never under a lock). Dropping
/// the sink is its release (the C handler's `free`): that happens once no
/// span for it waits any more.
pub trait SpanSink: Send + Sync {
    /// Receive one finished span.
    fn span(&self, span: &Span);
}

impl<F> SpanSink for F
where
    F: Fn(&Span) + Send + Sync,
{
    fn span(&self, span: &Span) {
        self(span)
    }
}

/// How many tracers of one engine are alive (installed, or held by a run or
/// a queued span), so that closing the engine can wait until every one has
/// been released.
#[derive(Default)]
struct Live {
    n: Mutex<usize>,
    released: Condvar,
}

/// One installed handler with what its spans need. Fields drop in order:
/// the sink (the host's `free`) before the count that `close` waits on.
pub(crate) struct Tracer {
    sink: Box<dyn SpanSink>,
    delivery: Arc<delivery::Delivery>,
    _live: LiveGuard,
}

/// A tracer's place in its engine's [`Live`] count.
struct LiveGuard(Arc<Live>);

impl LiveGuard {
    fn new(live: &Arc<Live>) -> LiveGuard {
        *live.n.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        LiveGuard(live.clone())
    }
}

impl Drop for LiveGuard {
    fn drop(&mut self) {
        let mut n = self.0.n.lock().unwrap_or_else(|e| e.into_inner());
        *n -= 1;
        if *n == 0 {
            self.0.released.notify_all();
        }
    }
}

/// An engine's trace handler.
pub(crate) struct TraceSlot {
    /// Whether a handler is installed: the one thing a run reads when none is.
    on: AtomicBool,
    current: RwLock<Slot>,
    live: Arc<Live>,
}

#[derive(Default)]
struct Slot {
    tracer: Option<Arc<Tracer>>,
    closed: bool,
}

impl Default for TraceSlot {
    fn default() -> Self {
        TraceSlot { on: AtomicBool::new(false), current: RwLock::new(Slot::default()), live: Arc::default() }
    }
}

impl TraceSlot {
    /// Install `sink`. Runs already started keep delivering to the handler
    /// they started with; the handler replaced is released once its last
    /// span is delivered. `Err` (with the sink handed back, untouched) once
    /// the engine is closed, or when the delivery thread cannot start.
    pub(crate) fn set<S: SpanSink + 'static>(&self, sink: S) -> std::result::Result<(), Rejected<S>> {
        let old = {
            let mut slot = self.current.write().unwrap_or_else(|e| e.into_inner());
            if slot.closed {
                return Err(Rejected { error: Error::new(Status::Closed, "the engine is closed"), callback: sink });
            }
            let delivery = match delivery::delivery() {
                Ok(d) => d,
                Err(error) => return Err(Rejected { error, callback: sink }),
            };
            let tracer = Arc::new(Tracer { sink: Box::new(sink), delivery, _live: LiveGuard::new(&self.live) });
            self.on.store(true, Ordering::Release);
            slot.tracer.replace(tracer)
        };
        // Released outside the lock (its `free` may run now).
        drop(old);
        Ok(())
    }

    /// Remove the handler: runs already started keep delivering to it, and
    /// it is released once its last span is delivered.
    pub(crate) fn remove(&self) {
        let old = {
            let mut slot = self.current.write().unwrap_or_else(|e| e.into_inner());
            self.on.store(false, Ordering::Release);
            slot.tracer.take()
        };
        drop(old);
    }

    /// Remove the handler for good (closing the engine) and, unless called
    /// on a hookline thread or inside a host callback (where waiting could
    /// wait for the caller itself), wait until every handler the engine
    /// had is released: the spans of runs that ended have been delivered.
    pub(crate) fn close(&self) {
        let old = {
            let mut slot = self.current.write().unwrap_or_else(|e| e.into_inner());
            slot.closed = true;
            self.on.store(false, Ordering::Release);
            slot.tracer.take()
        };
        drop(old);
        if crate::runtime::on_hookline_thread() || crate::callback::in_host_callback() {
            return;
        }
        let mut n = self.live.n.lock().unwrap_or_else(|e| e.into_inner());
        while *n > 0 {
            n = self.live.released.wait(n).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The span of a run that is about to execute hooks, or `None` when no
    /// handler is set (one atomic load: the whole cost of tracing then).
    #[inline]
    pub(crate) fn begin(&self, run: RunFacts<'_>) -> Option<RunTrace> {
        if !self.on.load(Ordering::Acquire) {
            return None;
        }
        self.begin_traced(run)
    }

    #[inline(never)]
    fn begin_traced(&self, run: RunFacts<'_>) -> Option<RunTrace> {
        let tracer = self.current.read().unwrap_or_else(|e| e.into_inner()).tracer.clone()?;
        Some(RunTrace::new(tracer, run))
    }
}

/// What the run span is made from.
pub(crate) struct RunFacts<'a> {
    /// The event's name.
    pub(crate) event: &'a str,
    /// The dialect whose rules merge the run.
    pub(crate) dialect: &'static str,
    pub(crate) session_id: &'a str,
    /// The run's input (`traceparent`, `tracestate`, `tool_name`).
    pub(crate) input: &'a Map<String, Value>,
    /// Hooks the run waits for.
    pub(crate) hooks: usize,
    /// `async` hooks it starts.
    pub(crate) background: usize,
}

/// What the spans of one run share (held by its hook spans, background
/// hooks included).
pub(crate) struct RunContext {
    tracer: Arc<Tracer>,
    trace_id: [u8; 16],
    run_span_id: [u8; 8],
    flags: u8,
    tracestate: Option<Arc<str>>,
    event: Arc<str>,
    /// The run span's start: the one wall-clock reading of the run.
    base: Instant,
    base_unix_nano: u64,
}

impl RunContext {
    fn unix_nano(&self, t: Instant) -> u64 {
        let offset = u64::try_from(t.saturating_duration_since(self.base).as_nanos()).unwrap_or(u64::MAX);
        self.base_unix_nano.saturating_add(offset)
    }

    /// The event's name.
    pub(crate) fn event(&self) -> &str {
        &self.event
    }

    fn deliver(&self, span: Span) {
        self.tracer.delivery.push(self.tracer.clone(), span);
    }
}

/// A run's span while the run executes.
pub(crate) struct RunTrace {
    ctx: Arc<RunContext>,
    parent: Option<[u8; 8]>,
    attributes: Vec<(&'static str, AttrValue)>,
}

impl RunTrace {
    fn new(tracer: Arc<Tracer>, run: RunFacts<'_>) -> RunTrace {
        let base = Instant::now();
        let base_unix_nano =
            SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        let mut attributes: Vec<(&'static str, AttrValue)> = Vec::with_capacity(10);
        attributes.push(("hook.event", run.event.into()));
        attributes.push(("hook.dialect", run.dialect.into()));
        attributes.push(("session.id", run.session_id.into()));
        if let Some(tool) = run.input.get("tool_name").and_then(Value::as_str) {
            attributes.push(("gen_ai.tool.name", tool.into()));
        }
        attributes.push(("hook.count", i64::try_from(run.hooks).unwrap_or(i64::MAX).into()));
        if run.background > 0 {
            attributes.push(("hook.async_count", i64::try_from(run.background).unwrap_or(i64::MAX).into()));
        }
        let joined = joined_trace(run.input).unwrap_or_else(|e| {
            crate::hl_warn!("{} run starts a new trace: its {e}", run.event);
            attributes.push(("hook.traceparent.error", e.into()));
            None
        });
        let (trace_id, parent_id, flags, tracestate) = match joined {
            Some(j) => (j.parent.trace_id, Some(j.parent.parent_id), j.parent.flags, j.tracestate),
            None => (ids::trace_id(), None, 1, None),
        };
        RunTrace {
            ctx: Arc::new(RunContext {
                tracer,
                trace_id,
                run_span_id: ids::span_id(),
                flags,
                tracestate,
                event: Arc::from(run.event),
                base,
                base_unix_nano,
            }),
            parent: parent_id,
            attributes,
        }
    }

    /// What the run's hooks (and its background hooks) attach their spans to.
    pub(crate) fn context(&self) -> &Arc<RunContext> {
        &self.ctx
    }

    /// End the run's span with the run's result and hand it over.
    pub(crate) fn end(mut self, result: std::result::Result<Option<&crate::model::outcome::HookOutcome>, &Error>) {
        let end = Instant::now();
        let (status, status_message) = match result {
            Ok(outcome) => {
                if let Some(o) = outcome {
                    if let Some(d) = o.decision_name() {
                        self.attributes.push(("hook.decision", d.into()));
                    }
                    if !o.common().continue_ {
                        self.attributes.push(("hook.continue", false.into()));
                    }
                }
                (SpanStatus::Ok, None)
            }
            Err(e) => {
                if e.status == Status::Cancelled {
                    self.attributes.push(("hook.cancelled", true.into()));
                }
                (SpanStatus::Error, Some(e.message.clone()))
            }
        };
        let ctx = &self.ctx;
        let span = Span {
            trace_id: ctx.trace_id,
            span_id: ctx.run_span_id,
            parent_span_id: self.parent,
            trace_flags: ctx.flags,
            level: SpanLevel::Run,
            name: Cow::Owned(format!("hooks {}", ctx.event)),
            start_unix_nano: ctx.base_unix_nano,
            end_unix_nano: ctx.unix_nano(end),
            status,
            status_message,
            attributes: std::mem::take(&mut self.attributes),
        };
        ctx.deliver(span);
    }
}

/// The host's trace a run joins.
struct Joined {
    parent: TraceParent,
    tracestate: Option<Arc<str>>,
}

/// The trace a run joins: the input's `traceparent` (with its
/// `tracestate`), `Ok(None)` when it has none, `Err` with the reason when
/// it has one that is not valid (the run then starts a new trace).
fn joined_trace(input: &Map<String, Value>) -> std::result::Result<Option<Joined>, String> {
    let text = match input.get("traceparent") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(text)) => text,
        Some(_) => return Err("traceparent is not a string".to_owned()),
    };
    let parent = TraceParent::parse(text).map_err(|e| format!("traceparent {text:?} is invalid: {e}"))?;
    // An invalid tracestate is dropped; the traceparent still holds.
    let tracestate = match input.get("tracestate") {
        Some(Value::String(s)) if !s.is_empty() => match check_tracestate(s) {
            Ok(()) => Some(Arc::from(s.as_str())),
            Err(e) => {
                crate::hl_warn!("the input's tracestate is not passed on: {e}");
                None
            }
        },
        _ => None,
    };
    Ok(Some(Joined { parent, tracestate }))
}

/// A hook's span while the hook runs (made by the handler layer).
pub(crate) struct HookSpan {
    ctx: Arc<RunContext>,
    span_id: [u8; 8],
    start: Instant,
    end: Option<Instant>,
    context: HookTraceContext,
    attributes: Vec<(&'static str, AttrValue)>,
    cancelled: bool,
}

impl HookSpan {
    /// Start a hook's span in `ctx`'s run.
    pub(crate) fn start(ctx: &Arc<RunContext>, attributes: Vec<(&'static str, AttrValue)>) -> HookSpan {
        let span_id = ids::span_id();
        let context =
            HookTraceContext::new(format_traceparent(&ctx.trace_id, &span_id, ctx.flags), ctx.tracestate.clone());
        HookSpan { ctx: ctx.clone(), span_id, start: Instant::now(), end: None, context, attributes, cancelled: false }
    }

    /// What the hook's process (or request) gets to continue the trace.
    pub(crate) fn trace_context(&self) -> &HookTraceContext {
        &self.context
    }

    /// The hook's handler returned (or never started): the span's end.
    pub(crate) fn stop(&mut self) {
        self.end.get_or_insert_with(Instant::now);
    }

    /// The run was cancelled while the hook ran.
    pub(crate) fn set_cancelled(&mut self) {
        self.cancelled = true;
    }

    /// Add an attribute.
    pub(crate) fn push(&mut self, key: &'static str, value: impl Into<AttrValue>) {
        self.attributes.push((key, value.into()));
    }

    /// End the span: an error with `failure` as the reason when the hook
    /// failed (or `cancelled`), and hand it over.
    pub(crate) fn finish(mut self, failure: Option<&str>) {
        self.stop();
        let end = self.end.unwrap_or(self.start);
        let ctx = &self.ctx;
        let (status, status_message) = if self.cancelled {
            self.attributes.push(("hook.cancelled", true.into()));
            (SpanStatus::Error, Some("the run was cancelled".to_owned()))
        } else {
            match failure {
                Some(f) => (SpanStatus::Error, Some(format!("hook failed: {f}"))),
                None => (SpanStatus::Ok, None),
            }
        };
        let kind = self.attributes.iter().find(|(k, _)| *k == "hook.type").and_then(|(_, v)| match v {
            AttrValue::Str(s) => Some(s.clone()),
            _ => None,
        });
        let span = Span {
            trace_id: ctx.trace_id,
            span_id: self.span_id,
            parent_span_id: Some(ctx.run_span_id),
            trace_flags: ctx.flags,
            level: SpanLevel::Hook,
            name: Cow::Owned(format!("hook {}", kind.as_deref().unwrap_or("hook"))),
            start_unix_nano: ctx.unix_nano(self.start),
            end_unix_nano: ctx.unix_nano(end),
            status,
            status_message,
            attributes: std::mem::take(&mut self.attributes),
        };
        ctx.deliver(span);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_json_has_every_documented_key() {
        let span = Span {
            trace_id: [0xab; 16],
            span_id: [1; 8],
            parent_span_id: None,
            trace_flags: 1,
            level: SpanLevel::Hook,
            name: "hook command".into(),
            start_unix_nano: 1_700_000_000_000_000_001,
            end_unix_nano: 1_700_000_000_000_000_002,
            status: SpanStatus::Error,
            status_message: Some("hook failed: \"exit\"".into()),
            attributes: vec![("hook.exit_code", 3.into()), ("hook.command", "echo \"hi\"".into()), ("x", true.into())],
        };
        let v: Value = serde_json::from_str(&span.to_json()).unwrap();
        assert_eq!(v["trace_id"], "abababababababababababababababab");
        assert_eq!(v["span_id"], "0101010101010101");
        assert_eq!(v["parent_span_id"], Value::Null);
        assert_eq!(v["trace_flags"], "01");
        assert_eq!(v["level"], "hook");
        assert_eq!(v["start_unix_nano"], "1700000000000000001");
        assert_eq!(v["status"], "error");
        assert_eq!(v["status_message"], "hook failed: \"exit\"");
        assert_eq!(v["attributes"]["hook.exit_code"], 3);
        assert_eq!(v["attributes"]["hook.command"], "echo \"hi\"");
        assert_eq!(v["attributes"]["x"], true);
    }

    #[test]
    fn an_invalid_traceparent_starts_a_new_trace_with_the_reason() {
        let input = |tp: Value| serde_json::json!({ "traceparent": tp, "tracestate": "a=b" });
        let err = joined_trace(input(Value::from(3)).as_object().unwrap()).err().unwrap();
        assert!(err.contains("not a string"), "{err}");
        let err = joined_trace(input("00-xyz".into()).as_object().unwrap()).err().unwrap();
        assert!(err.contains("is invalid"), "{err}");
        let ok =
            joined_trace(input("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".into()).as_object().unwrap());
        assert_eq!(ok.unwrap().unwrap().tracestate.as_deref(), Some("a=b"));
        assert!(joined_trace(serde_json::json!({"traceparent": null}).as_object().unwrap()).unwrap().is_none());
    }
}
