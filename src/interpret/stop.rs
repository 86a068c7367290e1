//! Stop: the exit-code table.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message; run goes on |
//! | non-zero exit (any code, signal) | warning (with stderr); stdout still read |
//! | exit 0 with stderr | warning |
//! | plain stdout | info message (none with `quiet_success_output` on exit 0) |
//! | JSON `decision: "block"` + `reason` | **block**, `block_reason` = reason |
//! | JSON `decision: "block"` without a reason | error message; then `continue: false` is looked at |
//! | JSON `continue: false` + `stopReason` | **block**, `block_reason` = stopReason |
//! | `hookSpecificOutput.decision: "block"` + `reason` | **block** (VT Code places it there too) |
//!
//! The run stops at the first block.

use super::{text_field, CommonOutcome, Exit, HookMessageLevel, HookRun, Shared, StopHookOutcome};

/// What Stop hooks produced so far.
#[derive(Default)]
pub(crate) struct StopRules {
    block_reason: Option<String>,
}

impl StopRules {
    pub(crate) fn absorb(&mut self, sh: &mut Shared, run: &HookRun) -> bool {
        if run.exit == Exit::TimedOut {
            sh.timed_out(run);
            return false;
        }
        sh.standard(run, HookMessageLevel::Warning);
        if run.json().is_none() {
            return false;
        }
        let mut reason = None;
        if run.is("decision", "block") {
            reason = run.text("reason");
            if reason.is_none() {
                sh.push(
                    HookMessageLevel::Error,
                    format!("{} returned decision \"block\" without a reason; ignored", run.who()),
                );
            }
        }
        if reason.is_none() && run.continue_false() {
            reason = run.text("stopReason");
        }
        if reason.is_none() {
            if let Some(spec) = run.specific() {
                if text_field(spec, "decision").is_some_and(|d| d.eq_ignore_ascii_case("block")) {
                    reason = text_field(spec, "reason");
                }
            }
        }
        if self.block_reason.is_none() {
            self.block_reason = reason;
        }
        self.block_reason.is_some()
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> StopHookOutcome {
        StopHookOutcome { block_reason: self.block_reason, common }
    }
}
