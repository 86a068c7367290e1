//! UserPromptSubmit: the exit-code table.
//!
//! Rows marked *profile* follow the event's row of the profile table
//! ([`crate::profile`]).
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
//! The run stops at the first block; the first block's reason is kept.

use super::{push_context, CommonOutcome, Exit, HookMessageLevel, HookRun, Shared, Stdout, UserPromptHookOutcome};
use crate::profile::{Exit2, Exit2Reason};

/// What UserPromptSubmit hooks produced so far.
#[derive(Default)]
pub(crate) struct PromptRules {
    block_reason: Option<String>,
    additional_context: Vec<String>,
}

impl PromptRules {
    pub(crate) fn absorb(&mut self, sh: &mut Shared, run: &HookRun) -> bool {
        let rules = sh.rules;
        let exit2 = run.exit2_blocks(rules);
        match run.exit {
            Exit::TimedOut => {
                sh.timed_out(run);
                return false;
            }
            Exit::Code(2) if exit2.is_some() && exit2 != Some(Exit2Reason::StdoutThenStderr) => match run.stderr {
                Some(stderr) => self.block(stderr.to_owned()),
                None => sh.exit2_without_stderr(run),
            },
            _ => sh.exit_status(run),
        }

        sh.invalid_json(run);
        let context = run.context_allowed(rules);
        if let Stdout::Plain(text) = &run.stdout {
            if context {
                self.additional_context.push(text.clone());
            }
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
            if context {
                if let Some(spec) = run.specific() {
                    push_context(&mut self.additional_context, spec.get("additionalContext"));
                }
                if !run.suppress_output() {
                    push_context(&mut self.additional_context, run.json().and_then(|j| j.get("additional_context")));
                }
            }
        }
        if exit2 == Some(Exit2Reason::StdoutThenStderr) {
            // Exit 2 blocks whatever stdout said; a reason from stdout JSON
            // (read above) comes first, then stderr.
            match run.stderr {
                Some(stderr) => self.block(stderr.to_owned()),
                None if matches!(rules.exit2, Exit2::Block { needs_stderr: true, .. }) => {
                    if self.block_reason.is_none() {
                        sh.exit2_without_stderr(run)
                    }
                }
                None => self.block(run.exit2_default_reason()),
            }
        }
        self.block_reason.is_some()
    }

    /// A failing `failClosed` hook blocks the prompt.
    pub(crate) fn fail_closed(&mut self, reason: String) -> bool {
        self.block(reason);
        true
    }

    /// Block the prompt; the first reason wins.
    fn block(&mut self, reason: String) {
        if self.block_reason.is_none() {
            self.block_reason = Some(reason);
        }
    }

    pub(crate) fn context_mut(&mut self) -> &mut Vec<String> {
        &mut self.additional_context
    }

    pub(crate) fn into_context(self) -> Vec<String> {
        self.additional_context
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
