//! Stop, SubagentStop and PreCompact (and, in the Claude Code profile, the
//! events fired by name that block: TaskCreated, TaskCompleted,
//! TeammateIdle, ConfigChange): the exit-code table.
//!
//! They share an outcome shape (`block_reason`); which fields block each
//! of them is the `block_fields` column of the hook's rule table, and what
//! exit 2 does its `exit2` column. In the VT Code profile only Stop blocks
//! (SubagentStop and PreCompact are observers: their rows below never
//! block and non-zero exits are errors); in the Claude Code profile all
//! three do, and TaskCompleted and TeammateIdle block by exit 2 only.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message; run goes on (Claude Code `failClosed` Stop: **block**, reason = the message) |
//! | exit 2 | *profile*: VT Code like any non-zero exit; Claude Code **block**: reason = a blocking reason from stdout JSON, else stderr, else `... exited with code 2` |
//! | other non-zero exit, signal | message at the profile's failure level (with stderr); stdout still read |
//! | exit 0 with stderr | message at the profile's failure level |
//! | plain stdout | info message (none with `quiet_success_output` on exit 0) |
//! | JSON `decision: "block"` + `reason` | **block**, `block_reason` = reason |
//! | JSON `decision: "block"` without a reason | error message; then `continue: false` is looked at |
//! | JSON `continue: false` + `stopReason` | **block**, `block_reason` = stopReason (Stop, SubagentStop) |
//! | `hookSpecificOutput.decision: "block"` + `reason` | **block** (VT Code places it there too) (Stop, SubagentStop) |
//! | (`block_fields: DecisionOrSpecific`, VS Code) | `decision` or `hookSpecificOutput.decision` block; `continue: false` halts the agent and blocks nothing |
//! | `hookSpecificOutput.additionalContext` | *profile* `block_context` (Claude Code Stop, SubagentStop): `additional_context`, feedback that keeps the conversation going without an error |
//!
//! The merge keeps the first block in configuration order (VT Code's
//! sequential Stop stops there), or every block's reason (`reasons: All`,
//! Claude Code's Stop and SubagentStop, whose hooks all run).

use super::{text_field, Exit, HookRun, Out};
use crate::model::outcome::HookMessageLevel;
use crate::model::reply::Decision;
use crate::model::rules::{BlockFields, Column};

/// The reader columns this reader honours.
pub(crate) const HONOURS: &[Column] = &[
    Column::Exit2Block,
    Column::Exit2StderrToUser,
    Column::Exit2Ignored,
    Column::FailureLevelError,
    Column::BlockFields,
    Column::BlockContext,
    Column::CommonFields,
    Column::JsonOverExitCode,
    Column::QuietSuccessStderr,
];

pub(crate) fn read(out: &mut Out<'_>, run: &HookRun<'_>) {
    if run.exit == Exit::TimedOut {
        out.timed_out(run);
        return;
    }
    let rules = out.rules;
    out.standard(run);
    if rules.block_context {
        if let Some(spec) = run.specific() {
            super::push_context(&mut out.reply.context, spec.get("additionalContext"));
        }
    }
    let mut reason = None;
    if run.json().is_some() && rules.block_fields != BlockFields::None {
        if run.is("decision", "block") {
            reason = run.text("reason");
            if reason.is_none() {
                out.push(
                    HookMessageLevel::Error,
                    format!("{} returned decision \"block\" without a reason; ignored", run.who()),
                );
            }
        }
        if matches!(rules.block_fields, BlockFields::DecisionOrContinueFalse | BlockFields::DecisionOrSpecific) {
            if reason.is_none() && run.continue_false() && rules.block_fields == BlockFields::DecisionOrContinueFalse {
                reason = run.text("stopReason");
            }
            if reason.is_none() {
                if let Some(spec) = run.specific() {
                    if text_field(spec, "decision").is_some_and(|d| d.eq_ignore_ascii_case("block")) {
                        reason = text_field(spec, "reason");
                    }
                }
            }
        }
    }
    if run.exit2_blocks(rules).is_some() && reason.is_none() {
        reason = Some(run.stderr.map(str::to_owned).unwrap_or_else(|| run.exit2_default_reason()));
    }
    out.reply.decision = reason.map(Decision::Block);
}
