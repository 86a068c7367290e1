//! The layers every handler type runs through, written once (tower's
//! `Layer` idea: what every service needs is decoupled from the service).
//!
//! Planning (which hooks of an event run) applies, in order, the
//! [`condition`] (`if`), [`dedupe`] and [`background`] (`async`) layers;
//! `invoke` then runs one planned hook through [`gate`] → [`cancel`] →
//! [`timeout`] → the handler → [`report`]; reading its result applies
//! [`fail_closed`]. A handler type only implements
//! `Handler`: input in, raw result out.

pub mod background;
pub mod cancel;
pub mod condition;
pub mod dedupe;
pub mod fail_closed;
pub mod gate;
pub mod report;
pub mod timeout;

use std::path::Path;
use std::time::Instant;

use super::{Call, Executed, Hook, Payload, Ran};
use crate::error::Result;
use crate::gate::{Approval, CommandSet};
use crate::model::event::RunEvent;
use crate::runner::{CancelToken, Environment};

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
}

/// Run one planned hook through the layers: the gate (a hook of an
/// untrusted source runs only while the command set is approved; checked
/// right before every start), the cancel check, its timeout, the handler,
/// and its report. `Err(Cancelled)` when the run was cancelled.
pub(crate) fn invoke(stack: &Stack<'_>, hook: Hook<'_>, env: &Environment, payload: &Payload) -> Result<Executed> {
    if !gate::admits(stack, hook) {
        return Ok(report::not_approved(hook));
    }
    cancel::check(stack.token)?;
    let call = Call {
        event: stack.event,
        payload,
        env,
        cwd: hook.spec().and_then(|s| s.source.cwd.as_deref()).unwrap_or(stack.cwd),
        timeout: timeout::of(hook),
        max_output_bytes: stack.max_output_bytes,
        token: stack.token,
    };
    let started = Instant::now();
    match hook.handler().call(&call) {
        Err(e) => Ok(report::spawn_failed(hook, e.to_string(), started.elapsed())),
        Ok(Ran::Cancelled) => Err(cancel::cancelled_error()),
        Ok(Ran::Done { exec, duration, stdout_truncated, stderr_truncated }) => {
            // Host code cannot be interrupted: a cancel that came while it
            // ran is seen now.
            cancel::check(stack.token)?;
            Ok(report::ran(hook, exec, duration, stdout_truncated, stderr_truncated))
        }
    }
}
