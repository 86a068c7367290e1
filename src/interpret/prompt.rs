//! UserPromptSubmit: the exit-code table.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message; run goes on |
//! | exit 2, stderr | **block** (`allow_prompt` false, `block_reason` = stderr); stdout still read |
//! | exit 2, no stderr | error message `... exited with code 2 without stderr feedback`; no block; stdout still read |
//! | other non-zero exit, signal | warning (with stderr); stdout still read |
//! | exit 0 with stderr | warning |
//! | plain stdout | `additional_context` |
//! | JSON `continue: false` | **block**, reason = `stopReason`, else `reason`; without a non-empty reason: error message, no block |
//! | JSON `decision: "block"` | **block**, reason = `reason`; without a non-empty reason: error message, no block |
//! | `hookSpecificOutput.additionalContext`, top-level `additional_context` (unless `suppressOutput`) | `additional_context` (string or array of strings) |
//!
//! The run stops at the first block; the first block's reason is kept.

use super::{push_context, CommonOutcome, Exit, HookMessageLevel, HookRun, Shared, Stdout, UserPromptHookOutcome};

/// What UserPromptSubmit hooks produced so far.
#[derive(Default)]
pub(crate) struct PromptRules {
    block_reason: Option<String>,
    additional_context: Vec<String>,
}

impl PromptRules {
    pub(crate) fn absorb(&mut self, sh: &mut Shared, run: &HookRun) -> bool {
        match run.exit {
            Exit::TimedOut => {
                sh.timed_out(run);
                return false;
            }
            Exit::Code(2) => match run.stderr {
                Some(stderr) => self.block(stderr.to_owned()),
                None => sh
                    .push(HookMessageLevel::Error, format!("{} exited with code 2 without stderr feedback", run.who())),
            },
            _ => sh.exit_status(run, HookMessageLevel::Warning),
        }

        sh.invalid_json(run);
        if let Stdout::Plain(text) = &run.stdout {
            self.additional_context.push(text.clone());
        }
        if run.json().is_some() {
            sh.common_json(run);
            if run.continue_false() {
                match run.text("stopReason").or_else(|| run.text("reason")) {
                    Some(reason) => self.block(reason),
                    None => sh.push(
                        HookMessageLevel::Error,
                        format!("{} returned \"continue\": false without a reason; prompt not blocked", run.who()),
                    ),
                }
            }
            if run.is("decision", "block") {
                match run.text("reason") {
                    Some(reason) => self.block(reason),
                    None => sh.push(
                        HookMessageLevel::Error,
                        format!("{} returned decision \"block\" without a reason; prompt not blocked", run.who()),
                    ),
                }
            }
            if let Some(spec) = run.specific() {
                push_context(&mut self.additional_context, spec.get("additionalContext"));
            }
            if !run.suppress_output() {
                push_context(&mut self.additional_context, run.json().and_then(|j| j.get("additional_context")));
            }
        }
        self.block_reason.is_some()
    }

    /// Block the prompt; the first reason wins.
    fn block(&mut self, reason: String) {
        if self.block_reason.is_none() {
            self.block_reason = Some(reason);
        }
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> UserPromptHookOutcome {
        UserPromptHookOutcome {
            allow_prompt: self.block_reason.is_none(),
            block_reason: self.block_reason,
            additional_context: self.additional_context,
            common,
        }
    }
}
