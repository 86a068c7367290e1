//! The report layer: each hook's entry in the outcome's `hooks` list —
//! `{"kind","command","name","exit_code","timed_out","duration_ms",
//! "stdout_truncated","stderr_truncated","skipped","failure"}` (plus
//! `signal` when killed by one and `status_message` when configured) — the
//! one place a report is built. The failure kind is filled in when the
//! dialect has read the result.

use std::time::Duration;

use super::super::{Executed, Hook, HookExecution, Output};
use crate::model::outcome::{HookKind, HookReport};

fn base(hook: Hook<'_>) -> HookReport {
    let mut report = match hook.kind() {
        HookKind::Callback => HookReport::callback(hook.label(), 0, 0.0),
        _ => HookReport::command(hook.label()),
    };
    report.kind = hook.kind();
    report.status_message = hook.spec().and_then(|s| s.status_message.clone());
    report
}

fn executed(hook: Hook<'_>, report: HookReport, output: Output) -> Executed {
    let spec = hook.spec();
    Executed {
        report,
        output,
        fail_closed: spec.is_some_and(|s| s.fail_closed),
        dialect: hook.dialect(),
        quiet: spec.map(|s| s.source.quiet_success_output),
        native_event: spec.and_then(|s| s.native_event),
        loop_limit: spec.and_then(|s| s.loop_limit),
        identity: None,
    }
}

/// A hook the gate skipped: `"skipped": "not_approved"`, no exit code, 0 ms.
pub(crate) fn not_approved(hook: Hook<'_>) -> Executed {
    let report = HookReport { skipped: Some(HookReport::NOT_APPROVED.to_owned()), ..base(hook) };
    executed(hook, report, Output::NotApproved)
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
