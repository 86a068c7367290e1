//! UserPromptSubmit: the exit-code table.
//!
//! Rows marked *profile* follow the event's row of the hook's rule table.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message; run goes on (Claude Code `failClosed`: **block**, reason = the message) |
//! | exit 2, stderr | **block** (`allow_prompt` false); stdout still read. *profile*: VT Code `block_reason` = stderr; Claude Code a blocking reason in stdout JSON first, else stderr |
//! | exit 2, no stderr | *profile*: VT Code: error message `... exited with code 2 without stderr feedback`, no block; Claude Code: **block** (reason from stdout JSON, else `... exited with code 2`) |
//! | other non-zero exit, signal | message at the profile's failure level (with stderr); stdout still read (Claude Code `failClosed`: **block**) |
//! | exit 0 with stderr | message at the profile's failure level |
//! | plain stdout | `additional_context` (*profile*: Claude Code only when the hook exited 0) |
//! | JSON `continue: false` | **block**, reason = `stopReason`, else `reason`; without a non-empty reason: error message, no block |
//! | JSON `decision: "block"` | **block**, reason = `reason`; without a non-empty reason: error message, no block |
//! | `hookSpecificOutput.additionalContext`, top-level `additional_context` (unless `suppressOutput`) | `additional_context` (string or array of strings; *profile*: Claude Code only on exit 0) |
//!
//! A hook's first block reason is its decision; the merge keeps the first
//! hook's (the run stops there).

use super::{push_context, Exit, HookRun, Out, Stdout};
use crate::model::outcome::HookMessageLevel;
use crate::model::reply::Decision;
use crate::model::rules::{Column, Exit2, Exit2Reason};

/// The reader columns this reader honours.
pub(crate) const HONOURS: &[Column] = &[
    Column::Exit2Block,
    Column::Exit2StderrToUser,
    Column::Exit2Ignored,
    Column::FailureLevelError,
    Column::ContextNeedsExit0,
    Column::CommonFields,
    Column::JsonOverExitCode,
    Column::QuietSuccessStderr,
];

pub(crate) fn read(out: &mut Out<'_>, run: &HookRun<'_>) {
    let rules = out.rules;
    let exit2 = run.exit2_blocks(rules);
    let mut block: Option<String> = None;
    match run.exit {
        Exit::TimedOut => {
            out.timed_out(run);
            return;
        }
        Exit::Code(2) if exit2.is_some() && exit2 != Some(Exit2Reason::StdoutThenStderr) => match run.stderr {
            Some(stderr) => keep_first(stderr.to_owned(), &mut block),
            None => out.exit2_without_stderr(run),
        },
        _ => out.exit_status(run),
    }

    out.invalid_json(run);
    let context = run.context_allowed(rules);
    if let Stdout::Plain(text) = &run.stdout {
        if context {
            out.reply.context.push(text.clone());
        }
    }
    if run.json().is_some() {
        out.common_json(run);
        if run.continue_false() {
            match run.text("stopReason").or_else(|| run.text("reason")) {
                Some(reason) => keep_first(reason, &mut block),
                None => out.push(
                    HookMessageLevel::Error,
                    format!("{} returned \"continue\": false without a reason; prompt not blocked", run.who()),
                ),
            }
        }
        if run.is("decision", "block") {
            match run.text("reason") {
                Some(reason) => keep_first(reason, &mut block),
                None => out.push(
                    HookMessageLevel::Error,
                    format!("{} returned decision \"block\" without a reason; prompt not blocked", run.who()),
                ),
            }
        }
        if context {
            if let Some(spec) = run.specific() {
                push_context(&mut out.reply.context, spec.get("additionalContext"));
            }
            if !run.suppress_output() {
                push_context(&mut out.reply.context, run.json().and_then(|j| j.get("additional_context")));
            }
        }
    }
    if exit2 == Some(Exit2Reason::StdoutThenStderr) {
        match run.stderr {
            Some(stderr) => keep_first(stderr.to_owned(), &mut block),
            None if matches!(rules.exit2, Exit2::Block { needs_stderr: true, .. }) => {
                if block.is_none() {
                    out.exit2_without_stderr(run)
                }
            }
            None => keep_first(run.exit2_default_reason(), &mut block),
        }
    }
    out.reply.decision = block.map(Decision::Block);
}

/// A hook's first block reason is the one it blocks with.
fn keep_first(reason: String, block: &mut Option<String>) {
    if block.is_none() {
        *block = Some(reason);
    }
}
