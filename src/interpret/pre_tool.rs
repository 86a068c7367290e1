//! PreToolUse: the exit-code table and decision merging.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message; **deny** (fail closed, reason = the message) unless an earlier hook said `ask` (then it stays `ask`) |
//! | exit 2, stderr | **deny**, reason = stderr; stdout (JSON or text) ignored |
//! | exit 2, no stderr | error message `... exited with code 2 without stderr feedback`; no decision; stdout ignored |
//! | other non-zero exit, signal | warning (with stderr); stdout still read |
//! | exit status unknown (reaped by the host) | error message; **deny** (fail closed: an `exit 2` deny must not be lost) unless an earlier hook said `ask` |
//! | exit 0 with stderr | warning |
//! | plain stdout | info message (none with `quiet_success_output` on exit 0) |
//! | JSON `continue: false` | **deny**; reason: a `deny` decision's own reason, else `stopReason`, else `reason` |
//! | `hookSpecificOutput.permissionDecision` | `allow` / `deny` / `ask`, reason = `permissionDecisionReason` |
//! | legacy top-level `decision` | `approve` → allow, `block` → deny, reason = top-level `reason` (used only without `permissionDecision`) |
//! | `hookSpecificOutput.updatedInput` | an object replaces `tool_input` for later hooks and the outcome (also when a later hook denies); `null` is no rewrite; anything else is ignored with a warning |
//! | `hookSpecificOutput.additionalContext` | string or array of strings, collected |
//!
//! Merging: the run stops at the first `allow` or `deny`. `ask` does not
//! stop; a later `allow` or `deny` replaces it (as in VT Code), a later
//! timeout keeps it. The first `ask`'s reason is kept while the decision
//! stays `ask`. A hook that could not be started makes no decision.

use serde_json::Value;

use super::{
    push_context, text_field, CommonOutcome, Exit, HookMessageLevel, HookRun, PreToolHookDecision, PreToolHookOutcome,
    Shared,
};

/// What PreToolUse hooks decided so far.
#[derive(Default)]
pub(crate) struct PreToolRules {
    decision: PreToolHookDecision,
    reason: Option<String>,
    updated_input: Option<Value>,
    additional_context: Vec<String>,
}

impl PreToolRules {
    pub(crate) fn absorb(&mut self, sh: &mut Shared, run: &HookRun) -> bool {
        match run.exit {
            Exit::TimedOut => {
                let message = sh.timed_out(run);
                if self.decision == PreToolHookDecision::Ask {
                    return false;
                }
                return self.decide(PreToolHookDecision::Deny, Some(message));
            }
            Exit::Signal(None) => {
                let message = sh.status_lost(run);
                if self.decision == PreToolHookDecision::Ask {
                    return false;
                }
                return self.decide(PreToolHookDecision::Deny, Some(message));
            }
            Exit::Code(2) => {
                return match run.stderr {
                    Some(stderr) => self.decide(PreToolHookDecision::Deny, Some(stderr.to_owned())),
                    None => {
                        sh.push(
                            HookMessageLevel::Error,
                            format!("{} exited with code 2 without stderr feedback", run.who()),
                        );
                        false
                    }
                };
            }
            _ => {}
        }

        sh.standard(run, HookMessageLevel::Warning);
        let Some(json) = run.json() else {
            return false;
        };
        let spec = run.specific();

        if let Some(spec) = spec {
            match spec.get("updatedInput") {
                None | Some(Value::Null) => {}
                Some(input @ Value::Object(_)) => self.updated_input = Some(input.clone()),
                Some(_) => sh.push(
                    HookMessageLevel::Warning,
                    format!("{} returned an updatedInput that is not a JSON object; ignored", run.who()),
                ),
            }
            push_context(&mut self.additional_context, spec.get("additionalContext"));
        }

        let mut verdict = None;
        if let Some(spec) = spec {
            if let Some(value) = spec.get("permissionDecision").and_then(Value::as_str) {
                let reason = text_field(spec, "permissionDecisionReason");
                match parse_decision(value) {
                    Some(decision) => verdict = Some((decision, reason)),
                    None => sh.push(
                        HookMessageLevel::Warning,
                        format!("{} returned an unknown permissionDecision \"{}\"; ignored", run.who(), value.trim()),
                    ),
                }
            }
        }
        if verdict.is_none() {
            if let Some(value) = json.get("decision").and_then(Value::as_str) {
                let reason = run.text("reason");
                match value.trim().to_ascii_lowercase().as_str() {
                    "approve" => verdict = Some((PreToolHookDecision::Allow, reason)),
                    "block" => verdict = Some((PreToolHookDecision::Deny, reason)),
                    _ => sh.push(
                        HookMessageLevel::Warning,
                        format!("{} returned an unknown decision \"{}\"; ignored", run.who(), value.trim()),
                    ),
                }
            }
        }
        if run.continue_false() {
            verdict = match verdict {
                Some((PreToolHookDecision::Deny, Some(reason))) => Some((PreToolHookDecision::Deny, Some(reason))),
                other => {
                    let reason =
                        run.text("stopReason").or_else(|| run.text("reason")).or_else(|| other.and_then(|(_, r)| r));
                    Some((PreToolHookDecision::Deny, reason))
                }
            };
        }

        match verdict {
            Some((decision, reason)) => self.decide(decision, reason),
            None => false,
        }
    }

    /// Apply one hook's decision; true when the run stops (allow or deny).
    fn decide(&mut self, decision: PreToolHookDecision, reason: Option<String>) -> bool {
        match decision {
            PreToolHookDecision::Continue => false,
            PreToolHookDecision::Ask => {
                if self.decision != PreToolHookDecision::Ask || self.reason.is_none() {
                    self.reason = reason;
                }
                self.decision = PreToolHookDecision::Ask;
                false
            }
            PreToolHookDecision::Allow | PreToolHookDecision::Deny => {
                self.decision = decision;
                self.reason = reason;
                true
            }
        }
    }

    pub(crate) fn updated_input(&self) -> Option<&Value> {
        self.updated_input.as_ref()
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> PreToolHookOutcome {
        PreToolHookOutcome {
            decision: self.decision,
            reason: self.reason,
            updated_input: self.updated_input,
            additional_context: self.additional_context,
            common,
        }
    }
}

/// `permissionDecision` values (case-insensitive, trimmed).
fn parse_decision(value: &str) -> Option<PreToolHookDecision> {
    match value.trim().to_ascii_lowercase().as_str() {
        "allow" => Some(PreToolHookDecision::Allow),
        "deny" => Some(PreToolHookDecision::Deny),
        "ask" => Some(PreToolHookDecision::Ask),
        _ => None,
    }
}
