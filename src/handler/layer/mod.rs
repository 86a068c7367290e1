//! The layers every handler type runs through, written once (tower's
//! `Layer` idea: what every service needs is decoupled from the service).
//!
//! Planning (which hooks of an event run) applies, in order, the
//! [`condition`] (`if`), [`dedupe`] and [`background`] (`async`) layers;
//! `invoke` then runs one planned hook through [`gate`] → [`cancel`] →
//! [`timeout`] → the handler → [`report`], timed by its [`trace`] span when
//! the run is traced; reading its result applies [`fail_closed`] and ends
//! the span. A handler type only implements `Handler`: input in, raw result
//! out.

pub mod background;
pub mod cancel;
pub mod condition;
pub mod dedupe;
pub mod fail_closed;
pub mod gate;
pub mod report;
pub mod timeout;
pub mod trace;

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use super::{Call, Executed, Hook, Payload, Ran};
use crate::error::Result;
use crate::gate::{Approval, CommandSet};
use crate::model::event::RunEvent;
use crate::runner::{CancelToken, Environment};
use crate::trace::RunContext;

/// What the layers need from the run a hook belongs to.
pub(crate) struct Stack<'a> {
    pub(crate) event: &'a RunEvent,
    /// The gate's state and the command set the run is executing.
    pub(crate) approval: &'a Approval,
    pub(crate) commands: &'a CommandSet,
    /// The working directory (the workspace).
    pub(crate) cwd: &'a Path,
    pub(crate) max_output_bytes: usize,
    /// The run's cancellation token.
    pub(crate) token: Option<&'a CancelToken>,
    /// The run's trace, when a trace handler is set.
    pub(crate) trace: Option<&'a Arc<RunContext>>,
}

/// Run one planned hook through the layers: its span starts (when the run
/// is traced), the gate (a hook of an untrusted source runs only while the
/// command set is approved; checked right before every start), the cancel
/// check, its timeout, the handler, and its report. `Err(Cancelled)` when
/// the run was cancelled (a hook cancelled while it ran ends its span so).
pub(crate) fn invoke(stack: &Stack<'_>, hook: Hook<'_>, env: &Environment, payload: &Payload) -> Result<Executed> {
    let mut span = stack.trace.map(|run| trace::start(run, hook));
    if !gate::admits(stack, hook) {
        return Ok(trace::attach(report::not_approved(hook), span));
    }
    cancel::check(stack.token)?;
    let call = Call {
        event: stack.event,
        payload,
        env,
        cwd: stack.cwd,
        timeout: timeout::of(hook),
        max_output_bytes: stack.max_output_bytes,
        token: stack.token,
        trace: span.as_ref().map(|s| s.trace_context()),
    };
    let started = Instant::now();
    let ran = hook.handler().call(&call);
    if let Some(s) = &mut span {
        s.stop();
    }
    match ran {
        Err(e) => Ok(trace::attach(report::spawn_failed(hook, e.to_string(), started.elapsed()), span)),
        Ok(Ran::Cancelled) => {
            trace::cancelled(span);
            Err(cancel::cancelled_error())
        }
        Ok(Ran::Done { exec, duration, stdout_truncated, stderr_truncated }) => {
            // Host code cannot be interrupted: a cancel that came while it
            // ran is seen now.
            if let Err(e) = cancel::check(stack.token) {
                trace::cancelled(span);
                return Err(e);
            }
            Ok(trace::attach(report::ran(hook, exec, duration, stdout_truncated, stderr_truncated), span))
        }
    }
}

/// A hook that could not be given what it needs to start (its process
/// environment): reported as a spawn failure, with its span.
pub(crate) fn not_started(stack: &Stack<'_>, hook: Hook<'_>, error: String) -> Executed {
    let mut span = stack.trace.map(|run| trace::start(run, hook));
    if let Some(s) = &mut span {
        s.stop();
    }
    trace::attach(report::spawn_failed(hook, error, std::time::Duration::ZERO), span)
}
