//! The report layer: each hook's entry in the outcome's `hooks` list —
//! `{"kind","command","name","exit_code","timed_out","duration_ms",
//! "stdout_truncated","stderr_truncated","skipped","failure"}` (plus
//! `signal` when killed by one, `status_message` when configured, and the
//! fields naming a hook of another type: `url` and the response's
//! `status`; `server` and `tool`; `prompt` and `model`) — the one place a
//! report is built. The failure
//! kind is filled in when the dialect has read the result.

use std::time::Duration;

use super::super::{Executed, Hook, Output};
use crate::config::{HandlerSpec, HookSpec};
use crate::model::execution::HookExecution;
use crate::model::outcome::{HookKind, HookReport};

fn base(hook: Hook<'_>) -> HookReport {
    let mut report = match hook.spec().map(|s| &s.handler) {
        None => HookReport::callback(&hook.label(), 0, 0.0),
        Some(HandlerSpec::Command { .. }) => HookReport::command(&hook.label()),
        Some(handler) => {
            let mut r = HookReport { command: None, ..HookReport::command("") };
            match handler {
                HandlerSpec::Http { url, .. } => r.url = Some(url.clone()),
                HandlerSpec::McpTool { server, tool, .. } => {
                    r.server = Some(server.clone());
                    r.tool = Some(tool.clone());
                }
                HandlerSpec::Prompt { prompt, model, .. } | HandlerSpec::Agent { prompt, model } => {
                    r.prompt = Some(prompt.clone());
                    r.model = model.clone();
                }
                HandlerSpec::Command { .. } => {}
            }
            r
        }
    };
    report.kind = hook.kind();
    report.status_message = hook.spec().and_then(|s| s.status_message.clone());
    report.policy = hook.spec().is_some_and(HookSpec::policy);
    report
}

fn executed(hook: Hook<'_>, report: HookReport, output: Output) -> Executed {
    let spec = hook.spec();
    Executed {
        label: hook.label(),
        report,
        output,
        fail_closed: spec.is_some_and(|s| s.fail_closed),
        policy: spec.is_some_and(HookSpec::policy),
        dialect: hook.dialect(),
        quiet: spec.map(|s| s.source.quiet_success_output),
        native_event: spec.and_then(|s| s.native_event),
        loop_limit: spec.and_then(|s| s.loop_limit),
        identity: None,
        span: None,
    }
}

/// A hook the gate skipped: `"skipped": "not_approved"`, no exit code, 0 ms.
pub(crate) fn not_approved(hook: Hook<'_>) -> Executed {
    let report = HookReport { skipped: Some(HookReport::NOT_APPROVED.to_owned()), ..base(hook) };
    executed(hook, report, Output::NotApproved)
}

/// A hook the gate skipped because a file it executes changed since the
/// approval: `"skipped": "changed_since_approval"`, no exit code, 0 ms;
/// `why` names the file.
pub(crate) fn changed_since_approval(hook: Hook<'_>, why: String) -> Executed {
    let report = HookReport { skipped: Some(HookReport::CHANGED_SINCE_APPROVAL.to_owned()), ..base(hook) };
    executed(hook, report, Output::Changed(why))
}

/// A hook another layer left out: `"skipped": reason`, no exit code, 0 ms.
pub(crate) fn skipped(hook: Hook<'_>, reason: &'static str, why: String) -> Executed {
    let report = HookReport { skipped: Some(reason.to_owned()), ..base(hook) };
    executed(hook, report, Output::Skipped { why })
}

/// A hook that could not be started.
pub(crate) fn spawn_failed(hook: Hook<'_>, error: String, duration: Duration) -> Executed {
    let report = HookReport { duration_ms: ms(duration), ..base(hook) };
    executed(hook, report, Output::SpawnFailed(error))
}

/// A hook that ran.
pub(crate) fn ran(
    hook: Hook<'_>,
    exec: HookExecution,
    duration: Duration,
    stdout_truncated: bool,
    stderr_truncated: bool,
) -> Executed {
    let report = match hook.kind() {
        HookKind::Callback => {
            HookReport { exit_code: Some(exec.exit_code.unwrap_or(1)), duration_ms: ms(duration), ..base(hook) }
        }
        _ => HookReport {
            status: match &exec.answer {
                crate::model::execution::Answer::Http { status, .. } => Some(*status),
                _ => None,
            },
            exit_code: exec.exit_code,
            signal: exec.signal,
            timed_out: exec.timed_out,
            duration_ms: ms(duration),
            stdout_truncated,
            stderr_truncated,
            ..base(hook)
        },
    };
    executed(hook, report, Output::Ran(exec))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
