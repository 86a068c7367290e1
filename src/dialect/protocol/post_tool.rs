//! PostToolUse and PostToolUseFailure (and, in the Claude Code profile,
//! PostToolBatch, fired by name): the exit-code table.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message |
//! | non-zero exit (any code, signal) | message at the profile's failure level (VT Code: warning) (with stderr); stdout still read |
//! | exit 2 | *profile*: VT Code like any non-zero exit; Claude Code: nothing blocks (the tool already ran) but stderr is `block_reason`, fed back to the model (a `decision:"block"` reason in stdout comes first; without either, an error message) |
//! | exit 0 with stderr | message at the profile's failure level |
//! | plain stdout | info message (none with `quiet_success_output` on exit 0) |
//! | JSON `decision: "block"` + `reason` | `block_reason`; without a non-empty reason: error message, no block |
//! | JSON `continue: false` + `stopReason` | *profile* `block_fields: DecisionOrContinueFalse` (PostToolBatch): `block_reason` = stopReason |
//! | `hookSpecificOutput.additionalContext`, top-level `additional_context` (unless `suppressOutput`) | `additional_context` (string or array of strings; *profile* `context_needs_exit_0`: only on exit 0) |
//!
//! The tool already ran, so nothing stops the run: every hook runs (the
//! merge keeps the first `block_reason` in configuration order).
//! PostToolUseFailure reads exactly like PostToolUse (including the
//! top-level `additional_context` VT Code hooks print).

use super::{push_context, Exit, HookRun, Out};
use crate::model::outcome::HookMessageLevel;
use crate::model::reply::Decision;
use crate::model::rules::{BlockFields, Column, Exit2};

/// The reader columns this reader honours.
pub(crate) const HONOURS: &[Column] = &[
    Column::Exit2Block,
    Column::Exit2StderrToUser,
    Column::Exit2Ignored,
    Column::FailureLevelError,
    Column::ContextNeedsExit0,
    Column::BlockFields,
    Column::CommonFields,
    Column::JsonOverExitCode,
    Column::QuietSuccessStderr,
];

pub(crate) fn read(out: &mut Out<'_>, run: &HookRun<'_>) {
    if run.exit == Exit::TimedOut {
        out.timed_out(run);
        return;
    }
    out.standard(run);
    let mut json_reason = None;
    if let Some(json) = run.json() {
        if run.is("decision", "block") {
            match run.text("reason") {
                Some(reason) => json_reason = Some(reason),
                None => out.push(
                    HookMessageLevel::Error,
                    format!("{} returned decision \"block\" without a reason; ignored", run.who()),
                ),
            }
        }
        if json_reason.is_none()
            && out.rules.block_fields == BlockFields::DecisionOrContinueFalse
            && run.continue_false()
        {
            json_reason = run.text("stopReason");
        }
        if run.context_allowed(out.rules) {
            if let Some(spec) = run.specific() {
                push_context(&mut out.reply.context, spec.get("additionalContext"));
            }
            if !run.suppress_output() {
                push_context(&mut out.reply.context, json.get("additional_context"));
            }
        }
    }
    if run.exit2_blocks(out.rules).is_some() {
        // Exit 2: stderr is fed back to the model (a JSON reason first).
        json_reason = json_reason.or_else(|| run.stderr.map(str::to_owned));
        if json_reason.is_none() {
            match out.rules.exit2 {
                Exit2::Block { needs_stderr: false, .. } => json_reason = Some(run.exit2_default_reason()),
                _ => out.exit2_without_stderr(run),
            }
        }
    }
    out.reply.decision = json_reason.map(Decision::Block);
}
