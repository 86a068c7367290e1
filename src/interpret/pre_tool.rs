//! PreToolUse: the exit-code table and decision merging.
//!
//! The rows marked *profile* follow the event's row of the profile table
//! ([`crate::profile`]); the VT Code profile's answer comes first, the
//! Claude Code profile's second.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout, exit status unknown (reaped by the host) | error message. *profile*: VT Code **denies** (fail closed, reason = the message) unless an earlier hook said `ask`; Claude Code makes no decision unless the hook is `failClosed` (then **deny**) |
//! | exit 2 | *profile*. VT Code: with stderr **deny**, reason = stderr, stdout (JSON or text) ignored; without stderr an error message `... exited with code 2 without stderr feedback` and no decision. Claude Code: **deny** whatever stdout says; reason = the JSON's deny reason, else stderr, else `... exited with code 2`; stdout's other fields are still read |
//! | other non-zero exit, signal | message at the profile's failure level (with stderr); stdout still read; Claude Code `failClosed`: **deny** |
//! | exit 0 with stderr | message at the profile's failure level |
//! | plain stdout | info message (none with `quiet_success_output` on exit 0) |
//! | JSON `continue: false` | **deny**; reason: a `deny` decision's own reason, else `stopReason`, else `reason` |
//! | `hookSpecificOutput.permissionDecision` | `allow` / `deny` / `ask`, reason = `permissionDecisionReason` |
//! | legacy top-level `decision` | `approve` → allow, `block` → deny, reason = top-level `reason` (used only without `permissionDecision`) |
//! | `hookSpecificOutput.updatedInput` | an object is returned as `updated_input` (also when a hook denies); `null` is no rewrite; anything else is ignored with a warning. *profile*: VT Code feeds it to every later hook as `tool_input`; Claude Code gives every hook the original input, the last rewrite in configuration order wins and a warning names the conflict when rewrites differ |
//! | `hookSpecificOutput.additionalContext` | string or array of strings, collected |
//!
//! Merging, *profile*. VT Code: the run stops at the first `allow` or
//! `deny`; `ask` does not stop, a later `allow` or `deny` replaces it, a
//! later timeout keeps it; the first `ask`'s reason is kept while the
//! decision stays `ask`. Claude Code: every hook counts and the most
//! restrictive decision wins, deny > ask > allow > continue; the reason is
//! the first one given (in configuration order) by a hook with the winning
//! decision. A hook that could not be started makes no decision (unless
//! `failClosed` in the Claude Code profile).

use serde_json::{Map, Value};

use super::{
    push_context, text_field, CommonOutcome, Exit, HookMessageLevel, HookRun, PreToolHookDecision, PreToolHookOutcome,
    Shared,
};
use crate::profile::{Exit2Reason, OnFailure, Precedence, ToolInputFlow};

/// What PreToolUse hooks decided so far.
#[derive(Default)]
pub(crate) struct PreToolRules {
    decision: PreToolHookDecision,
    reason: Option<String>,
    precedence: Option<Precedence>,
    updated_input: Option<Value>,
    /// Who gave `updated_input` (Claude Code profile: for the conflict warning).
    updated_by: Option<String>,
    additional_context: Vec<String>,
}

/// How restrictive a decision is (Claude Code precedence).
fn rank(decision: PreToolHookDecision) -> u8 {
    match decision {
        PreToolHookDecision::Continue => 0,
        PreToolHookDecision::Allow => 1,
        PreToolHookDecision::Ask => 2,
        PreToolHookDecision::Deny => 3,
    }
}

impl PreToolRules {
    pub(crate) fn absorb(&mut self, sh: &mut Shared, run: &HookRun) -> bool {
        let rules = sh.rules;
        self.precedence = Some(rules.precedence);
        match run.exit {
            Exit::TimedOut => {
                let message = sh.timed_out(run);
                return self.failed(rules.on_failure, message);
            }
            Exit::Signal(None) => {
                let message = sh.status_lost(run);
                return self.failed(rules.on_failure, message);
            }
            _ => {}
        }
        let exit2 = run.exit2_blocks(rules);
        if exit2 == Some(Exit2Reason::StderrIgnoringStdout) {
            return match run.stderr {
                Some(stderr) => self.decide(PreToolHookDecision::Deny, Some(stderr.to_owned())),
                None if needs_stderr(rules) => {
                    sh.exit2_without_stderr(run);
                    false
                }
                None => self.decide(PreToolHookDecision::Deny, Some(run.exit2_default_reason())),
            };
        }

        sh.standard(run);
        let verdict = match run.json() {
            Some(json) => self.read_json(sh, run, json, rules.tool_input),
            None => None,
        };
        if let Some(source) = exit2 {
            // Exit 2 denies whatever stdout said; stdout's other fields were
            // read above. The reason: stderr and a deny reason in stdout, in
            // the profile's order.
            let json_reason = match verdict {
                Some((PreToolHookDecision::Deny, reason)) => reason,
                _ => None,
            };
            let stderr = run.stderr.map(str::to_owned);
            let reason = match source {
                Exit2Reason::StdoutThenStderr => json_reason.or(stderr),
                _ => stderr.or(json_reason),
            };
            let reason = match reason {
                Some(reason) => reason,
                None if needs_stderr(rules) => {
                    sh.exit2_without_stderr(run);
                    return false;
                }
                None => run.exit2_default_reason(),
            };
            return self.decide(PreToolHookDecision::Deny, Some(reason));
        }
        match verdict {
            Some((decision, reason)) => self.decide(decision, reason),
            None => false,
        }
    }

    /// The JSON fields: `updatedInput` and `additionalContext` are kept;
    /// returns the hook's decision, if any.
    fn read_json(
        &mut self,
        sh: &mut Shared,
        run: &HookRun,
        json: &Map<String, Value>,
        flow: ToolInputFlow,
    ) -> Option<(PreToolHookDecision, Option<String>)> {
        let spec = run.specific();
        if let Some(spec) = spec {
            match spec.get("updatedInput") {
                None | Some(Value::Null) => {}
                Some(input @ Value::Object(_)) => {
                    if flow == ToolInputFlow::Original {
                        if let (Some(previous), Some(by)) = (&self.updated_input, &self.updated_by) {
                            if previous != input {
                                sh.push(
                                    HookMessageLevel::Warning,
                                    format!(
                                        "{} returned an updatedInput that replaces the different one of PreToolUse \
                                         hook `{by}` (the last in configuration order wins)",
                                        run.who()
                                    ),
                                );
                            }
                        }
                        self.updated_by = Some(run.label.to_owned());
                    }
                    self.updated_input = Some(input.clone());
                }
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
        verdict
    }

    /// A timeout or lost exit status.
    fn failed(&mut self, policy: OnFailure, message: String) -> bool {
        match policy {
            OnFailure::DenyTimeoutsUnlessAsk if self.decision == PreToolHookDecision::Ask => false,
            OnFailure::DenyTimeoutsUnlessAsk => self.decide(PreToolHookDecision::Deny, Some(message)),
            // A failClosed hook is denied by the interpreter afterwards.
            OnFailure::OpenUnlessFailClosed => false,
        }
    }

    /// A failing `failClosed` hook denies.
    pub(crate) fn fail_closed(&mut self, reason: String) -> bool {
        self.decide(PreToolHookDecision::Deny, Some(reason))
    }

    /// Apply one hook's decision; true when the run stops (VT Code: allow or deny).
    fn decide(&mut self, decision: PreToolHookDecision, reason: Option<String>) -> bool {
        if self.precedence == Some(Precedence::MostRestrictive) {
            if rank(decision) > rank(self.decision) {
                self.decision = decision;
                self.reason = reason;
            } else if decision == self.decision && self.reason.is_none() {
                self.reason = reason;
            }
            return false;
        }
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

    pub(crate) fn context_mut(&mut self) -> &mut Vec<String> {
        &mut self.additional_context
    }

    pub(crate) fn into_context(self) -> Vec<String> {
        self.additional_context
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

fn needs_stderr(rules: &crate::profile::EventRules) -> bool {
    matches!(rules.exit2, crate::profile::Exit2::Block { needs_stderr: true, .. })
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
