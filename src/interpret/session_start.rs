//! SessionStart: the exit-code table.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message |
//! | non-zero exit (any code, signal) | error message (with stderr); stdout still read (Claude Code: not as context) |
//! | exit 0 with stderr | error message |
//! | plain stdout | `additional_context` (also with `quiet_success_output`: it is context, not a message). Claude Code profile: only when the hook exited 0 |
//! | `hookSpecificOutput.additionalContext`, top-level `additional_context` (unless `suppressOutput`) | `additional_context` (string or array of strings); Claude Code profile: only on exit 0 |
//! | `systemMessage` | info message |
//!
//! Never blocks.

use super::{push_context, CommonOutcome, Exit, HookRun, SessionStartHookOutcome, Shared, Stdout};

/// What SessionStart hooks produced so far.
#[derive(Default)]
pub(crate) struct SessionStartRules {
    pub(crate) additional_context: Vec<String>,
    pub(crate) env: Option<serde_json::Map<String, serde_json::Value>>,
}

impl SessionStartRules {
    pub(crate) fn absorb(&mut self, sh: &mut Shared, run: &HookRun) -> bool {
        if run.exit == Exit::TimedOut {
            sh.timed_out(run);
            return false;
        }
        sh.exit_status(run);
        sh.invalid_json(run);
        let context = run.context_allowed(sh.rules);
        if let Stdout::Plain(text) = &run.stdout {
            if context {
                self.additional_context.push(text.clone());
            }
        }
        if let Some(json) = run.json() {
            sh.common_json(run);
            if !context {
                return false;
            }
            if let Some(spec) = run.specific() {
                push_context(&mut self.additional_context, spec.get("additionalContext"));
            }
            if !run.suppress_output() {
                push_context(&mut self.additional_context, json.get("additional_context"));
            }
        }
        false
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> SessionStartHookOutcome {
        SessionStartHookOutcome { additional_context: self.additional_context, env: self.env, common }
    }
}
