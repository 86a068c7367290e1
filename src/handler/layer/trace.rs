//! The trace layer: when a trace handler is set, every hook — whatever its
//! handler type — gets a span, started before the gate and stopped when its
//! handler returns, and ended (handed to the delivery thread) once its
//! result has been read, with what the read found: its failure kind and
//! decision. The span's id is the parent the hook's own process or request
//! continues the trace from (the handler's `Call::trace`).
//!
//! Attributes, in this order, each only when it applies:
//! `hook.event`, `hook.type` (`command`, `callback`, …), the label under
//! its type's key (`hook.command`, `hook.name` for a callback; each handler
//! type names its own, [`crate::config::HandlerSpec::label_attribute`]),
//! `hook.source` (the config file, `inline` for a config given in the
//! options, `host` for a callback hook), `hook.config_path`,
//! `hook.dialect`, `hook.async`, `hook.fail_closed`, `hook.policy` (a
//! policy source's hook), `hook.timeout_ms`;
//! then from the report: `hook.exit_code`, `hook.signal`,
//! `hook.timed_out`, `hook.skipped`, `hook.failure`, `hook.decision`,
//! `hook.stdout_truncated`, `hook.stderr_truncated`, `hook.cancelled`.

use std::sync::Arc;
use std::time::Duration;

use super::{background, timeout};
use crate::handler::{Executed, Hook};
use crate::model::event::RunEvent;
use crate::model::outcome::{HookFailure, HookReport};
use crate::trace::{AttrValue, HookSpan, RunContext};

/// Start `hook`'s span in `run` (`budget`: the run's shared timeout budget,
/// if its event has one; `hook.timeout_ms` is the timeout the hook runs under).
pub(crate) fn start(run: &Arc<RunContext>, hook: Hook<'_>, event: &RunEvent, budget: Option<Duration>) -> HookSpan {
    let mut attrs: Vec<(&'static str, AttrValue)> = Vec::with_capacity(16);
    attrs.push(("hook.event", run.event().into()));
    attrs.push(("hook.type", hook.kind().as_str().into()));
    attrs.push((hook.label_attribute(), hook.label().into()));
    match hook.spec() {
        Some(spec) => {
            let source = match &spec.source.info.path {
                Some(p) => p.display().to_string(),
                None => "inline".to_owned(),
            };
            attrs.push(("hook.source", source.into()));
            if !spec.path.is_empty() {
                attrs.push(("hook.config_path", spec.path.as_str().into()));
            }
            attrs.push(("hook.dialect", spec.dialect().name().into()));
            if background::is_background(spec) {
                attrs.push(("hook.async", true.into()));
            }
            if spec.fail_closed {
                attrs.push(("hook.fail_closed", true.into()));
            }
            if spec.policy() {
                attrs.push(("hook.policy", true.into()));
            }
            let ms = i64::try_from(timeout::of(hook, event, budget).as_millis()).unwrap_or(i64::MAX);
            attrs.push(("hook.timeout_ms", ms.into()));
        }
        None => attrs.push(("hook.source", "host".into())),
    }
    HookSpan::start(run, attrs)
}

/// Give `executed` its span (if the run is traced).
pub(crate) fn attach(mut executed: Executed, span: Option<HookSpan>) -> Executed {
    executed.span = span;
    executed
}

/// The run was cancelled while the hook ran: its span ends as cancelled.
pub(crate) fn cancelled(span: Option<HookSpan>) {
    if let Some(mut span) = span {
        span.set_cancelled();
        span.finish(None);
    }
}

/// End a hook's span with its report and what reading its result found.
pub(crate) fn end(mut span: HookSpan, report: &HookReport, failure: Option<HookFailure>, decision: Option<&str>) {
    if let Some(code) = report.exit_code {
        span.push("hook.exit_code", code);
    }
    if let Some(signal) = report.signal {
        span.push("hook.signal", signal);
    }
    span.push("hook.timed_out", report.timed_out);
    if let Some(skipped) = &report.skipped {
        span.push("hook.skipped", skipped.as_str());
    }
    let failure = failure.or(report.failure);
    if let Some(f) = failure {
        span.push("hook.failure", f.as_str());
    }
    if let Some(d) = decision {
        span.push("hook.decision", d);
    }
    if report.stdout_truncated {
        span.push("hook.stdout_truncated", true);
    }
    if report.stderr_truncated {
        span.push("hook.stderr_truncated", true);
    }
    span.finish(failure.map(HookFailure::as_str));
}
