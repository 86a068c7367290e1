//! PostToolUse and PostToolUseFailure: the exit-code table.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message |
//! | non-zero exit (any code, signal) | message at the profile's failure level (VT Code: warning) (with stderr); stdout still read |
//! | exit 2 | *profile*: VT Code like any non-zero exit; Claude Code: nothing blocks (the tool already ran) but stderr is `block_reason`, fed back to the model (a `decision:"block"` reason in stdout comes first; without either, an error message) |
//! | exit 0 with stderr | message at the profile's failure level |
//! | plain stdout | info message (none with `quiet_success_output` on exit 0) |
//! | JSON `decision: "block"` + `reason` | `block_reason` (the first in configuration order wins); without a non-empty reason: error message, no block |
//! | `hookSpecificOutput.additionalContext`, top-level `additional_context` (unless `suppressOutput`) | `additional_context` (string or array of strings) |
//!
//! The tool already ran, so nothing stops the run: every hook runs.
//! PostToolUseFailure reads exactly like PostToolUse (including the
//! top-level `additional_context` VT Code hooks print).

use super::{push_context, CommonOutcome, Exit, HookMessageLevel, HookRun, PostToolHookOutcome, Shared};

/// What PostToolUse hooks produced so far.
#[derive(Default)]
pub(crate) struct PostToolRules {
    block_reason: Option<String>,
    additional_context: Vec<String>,
}

impl PostToolRules {
    pub(crate) fn absorb(&mut self, sh: &mut Shared, run: &HookRun) -> bool {
        if run.exit == Exit::TimedOut {
            sh.timed_out(run);
            return false;
        }
        sh.standard(run);
        let mut json_reason = None;
        if let Some(json) = run.json() {
            if run.is("decision", "block") {
                match run.text("reason") {
                    Some(reason) => json_reason = Some(reason),
                    None => sh.push(
                        HookMessageLevel::Error,
                        format!("{} returned decision \"block\" without a reason; ignored", run.who()),
                    ),
                }
            }
            if let Some(spec) = run.specific() {
                push_context(&mut self.additional_context, spec.get("additionalContext"));
            }
            if !run.suppress_output() {
                push_context(&mut self.additional_context, json.get("additional_context"));
            }
        }
        if run.exit2_blocks(sh.rules).is_some() {
            // Exit 2: stderr is fed back to the model (a JSON reason first).
            json_reason = json_reason.or_else(|| run.stderr.map(str::to_owned));
            if json_reason.is_none() {
                sh.exit2_without_stderr(run);
            }
        }
        if self.block_reason.is_none() {
            self.block_reason = json_reason;
        }
        false
    }

    pub(crate) fn context_mut(&mut self) -> &mut Vec<String> {
        &mut self.additional_context
    }

    pub(crate) fn into_context(self) -> Vec<String> {
        self.additional_context
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> PostToolHookOutcome {
        PostToolHookOutcome { block_reason: self.block_reason, additional_context: self.additional_context, common }
    }
}
