//! PreToolUse: how the replies of several hooks combine.
//!
//! | column | rule |
//! |---|---|
//! | `precedence: FirstAllowOrDeny` (VT Code) | the run stops at the first `allow` or `deny`; `ask` does not stop, a later `allow` or `deny` replaces it; the first `ask`'s reason is kept while the decision stays `ask` |
//! | `precedence: MostRestrictive` (Claude Code) | every hook counts and the most restrictive decision wins, deny > defer > ask > allow > continue ("When multiple PreToolUse hooks return different decisions, precedence is deny > defer > ask > allow"); the reason is the first one given (in configuration order) by a hook with the winning decision |
//! | `tool_input: Chained` | a hook's `updatedInput` replaces `tool_input` for every later hook |
//! | `tool_input: Original` | every hook receives the original input; the last rewrite in configuration order wins, and a warning names the conflict when rewrites differ |
//! | `precedence: FirstDenyStops` (Copilot CLI) | hooks run in order; the first `deny` is the outcome and the run stops there; until then the most restrictive decision so far stands (ask > allow > continue), the reason of the first hook that gave it |
//! | `on_failure: DenyTimeoutsUnlessAsk` | a hook that timed out or whose exit status was lost **denies** (reason = its failure message), unless the decision so far is `ask` |
//! | `block_reasons: Joined(sep)` (with `MostRestrictive` or `FirstDenyStops`) | the reason is every reason given with the winning decision, in configuration order, joined with `sep` |
//! | `on_failure: DenyFailuresExceptTimeouts` | a hook that failed in any way but a timeout (non-zero exit, signal, lost status, could not start) **denies** whatever its stdout said (reason = the agent's words for it, Copilot CLI's `Denied by preToolUse hook (hook errored)`); a timeout decides nothing |
//! | `rewrite_on_deny: Kept` | `updated_input` is the last rewrite in force, returned also when a later hook denies |
//! | `rewrite_on_deny: Dropped` | a denied call has no rewrite: `updated_input` is null when the decision is `deny` |
//! | `rewrite_winner: LastFinished` | of several concurrent rewrites, the one of the hook that finished last wins (completion order), not the last configured |
//! | `tool_gate` | another event (Cursor's subagentStart, beforeReadFile, ...) merged as PreToolUse |
//! | `rewrite_winner: MergedPatches` | each `updatedInput` is a patch of top-level keys: merged in configuration order over the rewrite in force, else over the original input (Crush) |
//! | `block_drops_context` | a denied call keeps none of the hooks' context: there is no tool result to add it to (Crush) |
//!
//! `updated_input` is the last rewrite in force, returned also when a later
//! hook denies unless `rewrite_on_deny: Dropped`. `additional_context`
//! collects every hook's, in order. With `reasons: EveryReasonJoined`, a
//! deny's reason is the run's one joined reason (see [`super`]) instead of
//! the deciding hook's.

use serde_json::Value;

use crate::model::outcome::{CommonOutcome, HookFailure, HookMessageLevel, PreToolHookDecision, PreToolHookOutcome};
use crate::model::reply::{Decision, HookReply};
use crate::model::rules::{
    BlockReasons, Column, EventRules, OnFailure, Precedence, RewriteOnDeny, RewriteWinner, ToolInputFlow,
};

use super::Common;

/// The merge columns this merger honours (and the shared fields' and the
/// fail-closed layer's).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const HONOURS_ALL: &[Column] = &[
    Column::Sequential,
    Column::MostRestrictive,
    Column::OriginalToolInput,
    Column::DenyTimeoutsUnlessAsk,
    Column::JoinedBlockReasons,
    Column::FirstDenyStops,
    Column::DenyFailuresExceptTimeouts,
    Column::RewriteDroppedOnDeny,
    Column::LastFinishedRewrite,
    Column::ToolGate,
    Column::NeverFailsClosed,
    Column::FirstGivenHaltReason,
    Column::EveryReasonJoined,
    Column::SequentialWhenAsked,
    Column::HaltLastWord,
    Column::LastWordDecides,
    Column::MergedPatches,
    Column::BlockDropsContext,
];

/// What PreToolUse hooks decided so far.
#[derive(Default)]
pub(crate) struct PreToolMerge {
    decision: PreToolHookDecision,
    reason: Option<String>,
    /// `block_reasons: Joined`: the later reasons given with the winning
    /// decision (the first is `reason`).
    more_reasons: Vec<String>,
    updated_input: Option<Value>,
    /// Who gave `updated_input` (for the conflict warning).
    updated_by: Option<String>,
    /// When the hook that gave `updated_input` finished, among the run's
    /// concurrent hooks (`rewrite_winner: LastFinished`).
    updated_finish: Option<usize>,
    pub(crate) additional_context: Vec<String>,
    /// The input the call started from (`rewrite_winner: MergedPatches`:
    /// the first patch applies to it).
    pub(crate) original_input: Option<Value>,
}

/// How restrictive a decision is (most-restrictive precedence).
fn rank(decision: PreToolHookDecision) -> u8 {
    match decision {
        PreToolHookDecision::Continue => 0,
        PreToolHookDecision::Allow => 1,
        PreToolHookDecision::Ask => 2,
        PreToolHookDecision::Defer => 3,
        PreToolHookDecision::Deny => 4,
    }
}

impl PreToolMerge {
    /// Fold in one hook's reply; true when the run stops here. `finished`:
    /// the hook's place in the completion order of a concurrent run.
    pub(crate) fn absorb(
        &mut self,
        common: &mut Common,
        rules: &EventRules,
        label: &str,
        reply: HookReply,
        finished: Option<usize>,
    ) -> bool {
        if let (Some(patch), RewriteWinner::MergedPatches) = (&reply.updated_input, rules.rewrite_winner) {
            let base = self.updated_input.as_ref().or(self.original_input.as_ref());
            if let (Some(Value::Object(base)), Value::Object(patch)) = (base, patch) {
                let mut merged = base.clone();
                merged.extend(patch.iter().map(|(k, v)| (k.clone(), v.clone())));
                self.updated_input = Some(Value::Object(merged));
                self.updated_by = Some(label.to_owned());
                self.updated_finish = finished;
            } else if patch.is_object() {
                self.updated_input = Some(patch.clone());
                self.updated_by = Some(label.to_owned());
                self.updated_finish = finished;
            }
        } else if let Some(input) = reply.updated_input {
            let by_completion = rules.rewrite_winner == RewriteWinner::LastFinished;
            let wins = match (by_completion, finished, self.updated_finish) {
                (true, Some(now), Some(then)) => now > then,
                _ => true,
            };
            if rules.tool_input == ToolInputFlow::Original {
                if let (Some(previous), Some(by)) = (&self.updated_input, &self.updated_by) {
                    if previous != &input {
                        let text = match (by_completion, wins) {
                            (false, _) => format!(
                                "PreToolUse hook `{label}` returned an updatedInput that replaces the different one \
                                 of PreToolUse hook `{by}` (the last in configuration order wins)"
                            ),
                            (true, true) => format!(
                                "PreToolUse hook `{label}` returned an updatedInput that replaces the different one \
                                 of PreToolUse hook `{by}` (the last to finish wins)"
                            ),
                            (true, false) => format!(
                                "PreToolUse hook `{label}` returned an updatedInput that is replaced by the different \
                                 one of PreToolUse hook `{by}` (the last to finish wins)"
                            ),
                        };
                        common.push(HookMessageLevel::Warning, text);
                    }
                }
            }
            if wins {
                self.updated_by = Some(label.to_owned());
                self.updated_input = Some(input);
                self.updated_finish = finished;
            }
        }
        self.additional_context.extend(reply.context);
        if let Some(failure) = &reply.failure {
            let denies = match rules.on_failure {
                OnFailure::DenyTimeoutsUnlessAsk => {
                    failure.timeout_or_lost && self.decision != PreToolHookDecision::Ask
                }
                OnFailure::DenyFailuresExceptTimeouts { .. } => failure.kind != HookFailure::Timeout,
                OnFailure::OpenUnlessFailClosed | OnFailure::Open => false,
            };
            if denies {
                let reason = match rules.on_failure {
                    OnFailure::DenyFailuresExceptTimeouts { reason } => reason.to_owned(),
                    _ => failure.text.clone(),
                };
                return self.decide(rules, PreToolHookDecision::Deny, Some(reason));
            }
        }
        match reply.decision {
            Some(Decision::Tool(decision, reason)) => self.decide(rules, decision, reason),
            _ => false,
        }
    }

    /// Apply one hook's decision; true when the run stops (first allow or deny).
    fn decide(&mut self, rules: &EventRules, decision: PreToolHookDecision, reason: Option<String>) -> bool {
        let precedence = rules.precedence;
        if matches!(precedence, Precedence::MostRestrictive | Precedence::FirstDenyStops) {
            let joined = rules.block_reasons != BlockReasons::First;
            if rank(decision) > rank(self.decision) {
                self.decision = decision;
                self.reason = reason;
                self.more_reasons.clear();
            } else if decision == self.decision && self.reason.is_none() {
                self.reason = reason;
            } else if let (true, true, Some(reason)) = (joined, decision == self.decision, reason) {
                self.more_reasons.push(reason);
            }
            return precedence == Precedence::FirstDenyStops && self.decision == PreToolHookDecision::Deny;
        }
        if precedence == Precedence::LastWord {
            // Field replacement: this hook's decision replaces the earlier one.
            self.decision = decision;
            self.reason = reason;
            self.more_reasons.clear();
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
            PreToolHookDecision::Allow | PreToolHookDecision::Deny | PreToolHookDecision::Defer => {
                self.decision = decision;
                self.reason = reason;
                true
            }
        }
    }

    /// The rewrite in force.
    pub(crate) fn updated_input(&self) -> Option<&Value> {
        self.updated_input.as_ref()
    }

    /// Whether the decision so far is a deny.
    pub(crate) fn denied(&self) -> bool {
        self.decision == PreToolHookDecision::Deny
    }

    pub(crate) fn finish(
        self,
        rules: &EventRules,
        joined: Option<String>,
        common: CommonOutcome,
    ) -> PreToolHookOutcome {
        let denied = self.decision == PreToolHookDecision::Deny;
        let reason = match (rules.block_reasons, self.reason) {
            (BlockReasons::Joined(separator), Some(first)) if !self.more_reasons.is_empty() => {
                Some(std::iter::once(first).chain(self.more_reasons).collect::<Vec<_>>().join(separator))
            }
            (_, reason) => reason,
        };
        let updated_input = match rules.rewrite_on_deny {
            RewriteOnDeny::Dropped if denied => None,
            _ => self.updated_input,
        };
        let reason = match (denied, joined) {
            (true, Some(joined)) => Some(joined),
            _ => reason,
        };
        let additional_context = match denied && rules.block_drops_context {
            true => Vec::new(),
            false => self.additional_context,
        };
        PreToolHookOutcome { decision: self.decision, reason, updated_input, additional_context, common }
    }
}
