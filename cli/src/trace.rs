//! `hookline run --trace`: the run's spans as a timeline on stderr, one line
//! per hook — start offset from the run's start, duration, result, label —
//! the quickest way to see which hook is slow.

use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use hookline::trace::context::hex;
use hookline::trace::{AttrValue, Span, SpanLevel, SpanStatus};
use hookline::LifecycleHookEngine;

use crate::common::Out;

/// How long to wait for the run's span once the run returned (the run
/// hands it to the delivery thread as it ends).
const WAIT: Duration = Duration::from_secs(10);

/// The spans of the command's run, as they arrive.
pub struct Timeline {
    spans: Receiver<Span>,
}

impl Timeline {
    /// Trace `engine`'s runs from now on.
    pub fn install(engine: &LifecycleHookEngine) -> Result<Timeline, String> {
        let (tx, rx) = channel::<Span>();
        let tx = std::sync::Mutex::new(tx);
        engine
            .set_trace_sink(move |span: &Span| {
                if let Ok(t) = tx.lock() {
                    let _ = t.send(span.clone());
                }
            })
            .map_err(|r| format!("cannot trace the run: {}", r.error.message))?;
        Ok(Timeline { spans: rx })
    }

    /// Print the timeline of the run that just ended; `ran`: whether a hook
    /// ran (else the run has no span: one line saying so). Hooks it started
    /// in the background (`async`) show when they ended before the run did.
    pub fn print(self, out: &Out, ran: bool) {
        let mut hooks = Vec::new();
        let mut run = None;
        let until = Instant::now() + WAIT;
        while ran && run.is_none() {
            match self.spans.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok(s) if s.level == SpanLevel::Run => run = Some(s),
                Ok(s) => hooks.push(s),
                Err(_) => break,
            }
        }
        hooks.extend(self.spans.try_iter().filter(|s| s.level == SpanLevel::Hook));
        let Some(run) = run else {
            out.err_line(&out.paint_err("2", "trace: no hook ran"));
            return;
        };
        hooks.retain(|h| h.parent_span_id == Some(run.span_id));
        hooks.sort_by_key(|h| h.start_unix_nano);
        let head = format!(
            "trace {}  {}  {}  {} hook(s)",
            hex(&run.trace_id),
            text(&run, "hook.event").unwrap_or("?"),
            ms(run.end_unix_nano.saturating_sub(run.start_unix_nano)),
            hooks.len()
        );
        out.err_line(&out.paint_err("1", &head));
        out.err_line(&out.paint_err("2", &format!("  {:>11}  {:>10}  {:<14}  hook", "start", "took", "result")));
        for h in &hooks {
            let start = format!("+{}", ms(h.start_unix_nano.saturating_sub(run.start_unix_nano)));
            let took = ms(h.end_unix_nano.saturating_sub(h.start_unix_nano));
            let (result, ok) = result(h);
            let result = format!("{result:<14}");
            let result = if ok { out.paint_err("32", &result) } else { out.paint_err("33", &result) };
            let label = h
                .attributes
                .iter()
                .find(|(k, _)| matches!(*k, "hook.command" | "hook.name" | "hook.url") || k.starts_with("hook.label"))
                .and_then(|(_, v)| if let AttrValue::Str(s) = v { Some(s.as_str()) } else { None })
                .unwrap_or("?");
            let asynchronous = if h.attribute("hook.async").is_some() { " (async)" } else { "" };
            out.err_line(&format!("  {start:>11}  {took:>10}  {result}  {label}{asynchronous}"));
        }
        if let Some(d) = text(&run, "hook.decision") {
            out.err_line(&format!("  decision: {d}"));
        }
    }
}

fn text<'a>(span: &'a Span, key: &str) -> Option<&'a str> {
    match span.attribute(key) {
        Some(AttrValue::Str(s)) => Some(s),
        _ => None,
    }
}

/// A hook's result in a few words, and whether it is a plain success.
fn result(h: &Span) -> (String, bool) {
    if let Some(s) = text(h, "hook.skipped") {
        return (format!("skipped: {s}"), false);
    }
    if h.attribute("hook.cancelled").is_some() {
        return ("cancelled".into(), false);
    }
    if let Some(f) = text(h, "hook.failure") {
        return (format!("failed: {f}"), false);
    }
    let code = match h.attribute("hook.exit_code") {
        Some(AttrValue::Int(c)) => format!("exit {c}"),
        _ => "ok".into(),
    };
    match text(h, "hook.decision") {
        Some(d) => (format!("{code}, {d}"), h.status == SpanStatus::Ok && d == "allow"),
        None => (code, h.status == SpanStatus::Ok),
    }
}

/// Nanoseconds as milliseconds, `12.3 ms`.
fn ms(ns: u64) -> String {
    format!("{:.1} ms", ns as f64 / 1e6)
}
