//! SessionStart (and, in the Claude Code profile, SubagentStart and Setup:
//! every event of the context family): the exit-code table.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message |
//! | non-zero exit (any code, signal) | error message (with stderr); stdout still read (*profile* `context_needs_exit_0`: not as context) |
//! | exit 0 with stderr | error message |
//! | plain stdout | `additional_context` (also with `quiet_success_output`: it is context, not a message); *profile*: only when the hook exited 0; *profile* `json_context_only` (SubagentStart, Setup): an info message instead |
//! | `hookSpecificOutput.additionalContext`, top-level `additional_context` (unless `suppressOutput`) | `additional_context` (string or array of strings); *profile*: only on exit 0 |
//! | `systemMessage` | info message |
//!
//! Never blocks: exit 2 has no blocking meaning here (a table that gave it
//! one would fail the column-coverage test).

use super::{push_context, Exit, HookRun, Out, Stdout};
use crate::model::rules::Column;

/// The reader columns this reader honours.
pub(crate) const HONOURS: &[Column] = &[
    Column::Exit2StderrToUser,
    Column::Exit2Ignored,
    Column::FailureLevelError,
    Column::ContextNeedsExit0,
    Column::JsonContextOnly,
    Column::CommonFields,
    Column::JsonOverExitCode,
    Column::QuietSuccessStderr,
];

pub(crate) fn read(out: &mut Out<'_>, run: &HookRun<'_>) {
    if run.exit == Exit::TimedOut {
        out.timed_out(run);
        return;
    }
    out.exit_status(run);
    out.invalid_json(run);
    let context = run.context_allowed(out.rules);
    if out.rules.json_context_only {
        out.plain_stdout_info(run);
    } else if let Stdout::Plain(text) = &run.stdout {
        if context {
            out.reply.context.push(text.clone());
        }
    }
    if let Some(json) = run.json() {
        out.common_json(run);
        if !context {
            return;
        }
        if let Some(spec) = run.specific() {
            push_context(&mut out.reply.context, spec.get("additionalContext"));
        }
        if !run.suppress_output() {
            push_context(&mut out.reply.context, json.get("additional_context"));
        }
    }
}
