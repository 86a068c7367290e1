//! The events whose replies combine by "the first decision in
//! configuration order counts": UserPromptSubmit, PermissionRequest, Stop
//! (with SubagentStop and PreCompact), PostToolUse (and
//! PostToolUseFailure), and the context-only SessionStart.
//!
//! | event | rule |
//! |---|---|
//! | UserPromptSubmit | the first block's reason is `block_reason` (`allow_prompt` false; `block_reasons: Joined`: every block's reason, in order, joined); a sequential run stops there; context from every hook |
//! | PermissionRequest | the first decision is the outcome's; a sequential run stops there |
//! | Stop, SubagentStop, PreCompact | the first block's reason is `block_reason`; a sequential run stops there (a table where nothing blocks SubagentStop or PreCompact gives them the observer outcome) |
//! | PostToolUse, PostToolUseFailure | the first feedback is `block_reason`; the tool already ran, nothing stops |
//! | SessionStart | context from every hook, in order; the env file's variables (`session_env_from_output`: the `env` of every hook's output, by name, the first hook that sets a name winning) |
//!
//! Stop and SubagentStop blocks bounded by a loop limit, and those that
//! need a `completed` status, are filtered before they get here
//! (`follow_up.rs`, [`super::EventInterpreter`]).

use serde_json::{Map, Value};

use crate::model::outcome::{
    CommonOutcome, PermissionBehavior, PermissionDecision, PermissionRequestHookOutcome, PostToolHookOutcome,
    SessionStartHookOutcome, StopHookOutcome, UserPromptHookOutcome,
};
use crate::model::reply::{Decision, HookReply};
use crate::model::rules::{BlockReasons, Column, EventRules};

// The merge columns each merger honours (with the fail-closed layer's
// `NeverFailsClosed`, applied to every reply before it is merged).

/// UserPromptSubmit.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const PROMPT_HONOURS: &[Column] =
    &[Column::Sequential, Column::JoinedBlockReasons, Column::NeverFailsClosed];

/// PermissionRequest.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const PERMISSION_HONOURS: &[Column] = &[Column::Sequential, Column::NeverFailsClosed];

/// Stop, SubagentStop, PreCompact.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const STOP_HONOURS: &[Column] =
    &[Column::Sequential, Column::FollowUpLoopLimit, Column::BlockNeedsCompletedStatus, Column::NeverFailsClosed];

/// SessionStart.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const SESSION_START_HONOURS: &[Column] = &[Column::SessionEnvFromOutput, Column::NeverFailsClosed];

/// A block reason: the first counts.
fn first_block(slot: &mut Option<String>, decision: Option<Decision>) {
    if let (None, Some(Decision::Block(reason))) = (&slot, decision) {
        *slot = Some(reason);
    }
}

/// UserPromptSubmit so far.
#[derive(Default)]
pub(crate) struct PromptMerge {
    /// The first block's reason, and (`block_reasons: Joined`) every later one.
    reasons: Vec<String>,
    pub(crate) additional_context: Vec<String>,
}

impl PromptMerge {
    pub(crate) fn absorb(&mut self, rules: &EventRules, reply: HookReply) -> bool {
        self.additional_context.extend(reply.context);
        if let Some(Decision::Block(reason)) = reply.decision {
            if self.reasons.is_empty() || rules.block_reasons != BlockReasons::First {
                self.reasons.push(reason);
            }
        }
        self.blocked()
    }

    /// Whether a hook blocked the prompt.
    pub(crate) fn blocked(&self) -> bool {
        !self.reasons.is_empty()
    }

    pub(crate) fn finish(self, rules: &EventRules, common: CommonOutcome) -> UserPromptHookOutcome {
        let block_reason = join(self.reasons, rules.block_reasons);
        UserPromptHookOutcome {
            allow_prompt: block_reason.is_none(),
            block_reason,
            additional_context: self.additional_context,
            common,
        }
    }
}

/// The outcome's reason of the reasons kept: the first, or all joined.
pub(crate) fn join(reasons: Vec<String>, how: BlockReasons) -> Option<String> {
    match how {
        _ if reasons.is_empty() => None,
        BlockReasons::First => reasons.into_iter().next(),
        BlockReasons::Joined(separator) => Some(reasons.join(separator)),
    }
}

/// PermissionRequest so far.
#[derive(Default)]
pub(crate) struct PermissionMerge {
    decision: Option<PermissionDecision>,
}

impl PermissionMerge {
    pub(crate) fn absorb(&mut self, reply: HookReply) -> bool {
        if let (None, Some(Decision::Permission(d))) = (&self.decision, reply.decision) {
            self.decision = Some(d);
        }
        self.decision.is_some()
    }

    /// Whether the decision is a deny.
    pub(crate) fn denied(&self) -> bool {
        self.decision.as_ref().is_some_and(|d| d.behavior == PermissionBehavior::Deny)
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> PermissionRequestHookOutcome {
        PermissionRequestHookOutcome { decision: self.decision, common }
    }
}

/// Stop, SubagentStop, PreCompact so far.
#[derive(Default)]
pub(crate) struct StopMerge {
    block_reason: Option<String>,
}

impl StopMerge {
    pub(crate) fn absorb(&mut self, reply: HookReply) -> bool {
        first_block(&mut self.block_reason, reply.decision);
        self.block_reason.is_some()
    }

    /// Whether a hook blocked (the agent goes on).
    pub(crate) fn blocked(&self) -> bool {
        self.block_reason.is_some()
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> StopHookOutcome {
        StopHookOutcome { block_reason: self.block_reason, common }
    }
}

/// PostToolUse, PostToolUseFailure so far.
#[derive(Default)]
pub(crate) struct PostToolMerge {
    block_reason: Option<String>,
    pub(crate) additional_context: Vec<String>,
}

impl PostToolMerge {
    pub(crate) fn absorb(&mut self, reply: HookReply) -> bool {
        self.additional_context.extend(reply.context);
        first_block(&mut self.block_reason, reply.decision);
        false
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> PostToolHookOutcome {
        PostToolHookOutcome { block_reason: self.block_reason, additional_context: self.additional_context, common }
    }
}

/// SessionStart so far.
#[derive(Default)]
pub(crate) struct SessionStartMerge {
    pub(crate) additional_context: Vec<String>,
    /// What the hooks wrote to their env files (`None`: the dialect gives
    /// SessionStart hooks no env file).
    pub(crate) env: Option<Map<String, Value>>,
}

impl SessionStartMerge {
    pub(crate) fn absorb(&mut self, rules: &EventRules, reply: HookReply) -> bool {
        self.additional_context.extend(reply.context);
        if rules.session_env_from_output {
            if let Some(env) = &mut self.env {
                for (name, value) in reply.env {
                    env.entry(name).or_insert(value);
                }
            }
        }
        false
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> SessionStartHookOutcome {
        SessionStartHookOutcome { additional_context: self.additional_context, env: self.env, common }
    }
}
