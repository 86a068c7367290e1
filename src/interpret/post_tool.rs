//! PostToolUse and PostToolUseFailure: the exit-code table.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message |
//! | non-zero exit (any code, signal) | warning (with stderr); stdout still read |
//! | exit 0 with stderr | warning |
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
        sh.standard(run, HookMessageLevel::Warning);
        let Some(json) = run.json() else {
            return false;
        };
        if run.is("decision", "block") {
            match run.text("reason") {
                Some(reason) => {
                    if self.block_reason.is_none() {
                        self.block_reason = Some(reason);
                    }
                }
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
        false
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> PostToolHookOutcome {
        PostToolHookOutcome { block_reason: self.block_reason, additional_context: self.additional_context, common }
    }
}
