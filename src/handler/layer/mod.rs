//! The layers every handler type runs through, written once (tower's
//! `Layer` idea: what every service needs is decoupled from the service).
//!
//! Planning (which hooks of an event run) applies, in order, the
//! [`condition`] (`if`), [`dedupe`] and [`background`] (`async`) layers;
//! `invoke` then runs one planned hook through [`support`] → [`gate`] →
//! [`url_policy`] → [`cancel`] → [`timeout`] → the handler → [`report`],
//! timed by its [`trace`] span when the run is traced; reading its result
//! applies the merge's fail-closed rule ([`crate::merge::fail_closed`]) and
//! ends the span. A handler type only
//! implements `Handler`: input in, raw result out.

pub mod background;
pub mod cancel;
pub mod condition;
pub mod dedupe;
pub mod gate;
pub mod report;
pub mod support;
pub mod timeout;
pub mod trace;
pub mod url_policy;

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use super::{Call, Executed, Hook, HostHandler, Payload, Ran};
use crate::config::env_policy::EnvSettings;
use crate::config::windows_shell::WindowsShell;
use crate::config::HttpPolicy;
use crate::config::Shell;
use crate::error::Result;
use crate::gate::pins::Verdict;
use crate::gate::{Approval, CommandSet};
use crate::model::event::RunEvent;
use crate::model::input::SessionFacts;
use crate::model::outcome::HookReport;
use crate::runner::{CancelToken, Environment};
use crate::trace::RunContext;

/// What the layers need from the run a hook belongs to.
pub(crate) struct Stack<'a> {
    pub(crate) event: &'a RunEvent,
    /// The session facts (a dialect's command line may name them).
    pub(crate) facts: &'a SessionFacts<'a>,
    /// The gate's state and the command set the run is executing.
    pub(crate) approval: &'a Approval,
    pub(crate) commands: &'a CommandSet,
    /// The working directory (the workspace).
    pub(crate) cwd: &'a Path,
    pub(crate) max_output_bytes: usize,
    /// The run's cancellation token.
    pub(crate) token: Option<&'a CancelToken>,
    /// The time budget the run's hooks share, if its row has one.
    pub(crate) budget: Option<std::time::Duration>,
    /// The handlers the host set, as the run took them.
    pub(crate) handlers: &'a [Arc<HostHandler>],
    /// The engine's http hook settings.
    pub(crate) http: &'a HttpPolicy,
    /// The engine's HTTP client.
    pub(crate) http_client: &'a crate::handler::http::Client,
    /// The engine's `env` and `env_remove`.
    pub(crate) env_settings: &'a EnvSettings,
    /// The run's trace, when a trace handler is set.
    pub(crate) trace: Option<&'a Arc<RunContext>>,
}

/// Run one planned hook through the layers: its span starts (when the run
/// is traced), support (a handler type its dialect does not run on the
/// event is skipped), the gate (a hook of an untrusted source runs only
/// while the command set is approved and its files are as approved;
/// checked right before every start), the URL policy (http hooks), the
/// cancel check, its timeout, the handler, and its report. `Err(Cancelled)`
/// when the run was cancelled (a hook cancelled while it ran ends its span
/// so).
pub(crate) fn invoke(stack: &Stack<'_>, hook: Hook<'_>, env: &Environment, payload: &Payload) -> Result<Executed> {
    let mut span = stack.trace.map(|run| trace::start(run, hook, stack.event, stack.budget));
    if let Some(why) = support::refuses(stack.event, hook) {
        return Ok(trace::attach(report::skipped(hook, HookReport::UNSUPPORTED_ON_EVENT, why), span));
    }
    match gate::admits(stack, hook) {
        Verdict::Run => {}
        Verdict::NotApproved => return Ok(trace::attach(report::not_approved(hook), span)),
        Verdict::Changed(why) => return Ok(trace::attach(report::changed_since_approval(hook, why), span)),
    }
    if let Some(why) = url_policy::refuses(stack.http, hook) {
        return Ok(trace::attach(report::skipped(hook, HookReport::URL_NOT_ALLOWED, why), span));
    }
    cancel::check(stack.token)?;
    // A configured hook runs in its dialect's shell, with the command line
    // its dialect makes of the command as written.
    let (shell, windows_shell, command_line) = match hook.spec() {
        Some(spec) => {
            let d = spec.dialect();
            let line = d.command_line(spec, stack.facts, env);
            let windows = (d.windows_shell(), d.windows_powershell());
            (d.shell(), windows, Some(line).filter(|l| matches!(l, std::borrow::Cow::Owned(_))))
        }
        None => (Shell::Sh, (WindowsShell::CMD, WindowsShell::POWERSHELL), None),
    };
    let label = hook.label();
    let call = Call {
        event: stack.event,
        label: &label,
        placeholders: hook.dialect().map_or(&[], |d| d.profile().exec_placeholders),
        payload,
        env,
        shell,
        windows_shell,
        command_line: command_line.as_deref(),
        reserved_env: hook.dialect().map_or(&[], |d| d.environment_names()),
        cwd: hook.spec().and_then(|s| s.source.cwd.as_deref()).unwrap_or(stack.cwd),
        timeout: timeout::of(hook, stack.event, stack.budget),
        max_output_bytes: stack.max_output_bytes,
        token: stack.token,
        handlers: stack.handlers,
        http: stack.http,
        http_client: stack.http_client,
        env_settings: stack.env_settings,
        trace: span.as_ref().map(|s| s.trace_context()),
        trusted: hook.spec().is_none_or(|s| s.trusted()),
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
    let mut span = stack.trace.map(|run| trace::start(run, hook, stack.event, stack.budget));
    if let Some(s) = &mut span {
        s.stop();
    }
    trace::attach(report::spawn_failed(hook, error, std::time::Duration::ZERO), span)
}
