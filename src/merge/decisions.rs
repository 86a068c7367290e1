//! The events whose replies combine by "the first decision in
//! configuration order counts": UserPromptSubmit, PermissionRequest, Stop
//! (with SubagentStop and PreCompact), PostToolUse (and
//! PostToolUseFailure), and the context-only SessionStart.
//!
//! | event | rule |
//! |---|---|
//! | UserPromptSubmit | the first block's reason is `block_reason` (`allow_prompt` false); a sequential run stops there; context from every hook |
//! | PermissionRequest | the first decision is the outcome's; a sequential run stops there |
//! | Stop, SubagentStop, PreCompact | the first block's reason is `block_reason`; a sequential run stops there (a table where nothing blocks SubagentStop or PreCompact gives them the observer outcome) |
//! | PostToolUse, PostToolUseFailure | the first feedback is `block_reason`; the tool already ran, nothing stops |
//! | SessionStart | context from every hook, in order; the env file's variables |
//!
//! With `later_overrides` (Copilot CLI) a later hook's answer replaces an
//! earlier one's, the way objects spread over each other in configuration
//! order: PermissionRequest's last decision is the outcome's, Stop's and
//! SubagentStop's last `block` or `allow` decides (an `allow` clears an
//! earlier block), SessionStart's last context is the only one kept. A hook
//! that answers nothing changes nothing, and such runs never stop early.
//! PostToolUse's sequential runs stop at the first feedback (`block`).

use serde_json::{Map, Value};

use crate::model::outcome::{
    CommonOutcome, PermissionDecision, PermissionRequestHookOutcome, PostToolHookOutcome, SessionStartHookOutcome,
    StopHookOutcome, UserPromptHookOutcome,
};
use crate::model::reply::{Decision, HookReply};
use crate::model::rules::{Column, EventRules};

/// The merge columns these mergers honour.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const HONOURS: &[Column] = &[Column::Sequential, Column::LaterOverrides];

/// The merge columns of the PostToolUse merger (its sequential runs stop at
/// the first feedback).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const POST_TOOL_HONOURS: &[Column] = &[Column::Sequential];

/// The merge columns of the SessionStart merger (its runs never stop).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const SESSION_START_HONOURS: &[Column] = &[Column::Sequential, Column::LaterOverrides];

/// A block reason: the first counts.
fn first_block(slot: &mut Option<String>, decision: Option<Decision>) {
    if let (None, Some(Decision::Block(reason))) = (&slot, decision) {
        *slot = Some(reason);
    }
}

/// UserPromptSubmit so far.
#[derive(Default)]
pub(crate) struct PromptMerge {
    block_reason: Option<String>,
    pub(crate) additional_context: Vec<String>,
}

impl PromptMerge {
    pub(crate) fn absorb(&mut self, reply: HookReply) -> bool {
        self.additional_context.extend(reply.context);
        first_block(&mut self.block_reason, reply.decision);
        self.block_reason.is_some()
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

/// PermissionRequest so far.
#[derive(Default)]
pub(crate) struct PermissionMerge {
    decision: Option<PermissionDecision>,
}

impl PermissionMerge {
    pub(crate) fn absorb(&mut self, rules: &EventRules, reply: HookReply) -> bool {
        if let Some(Decision::Permission(d)) = reply.decision {
            if self.decision.is_none() || rules.later_overrides {
                self.decision = Some(d);
            }
        }
        self.decision.is_some() && !rules.later_overrides
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
    pub(crate) fn absorb(&mut self, rules: &EventRules, reply: HookReply) -> bool {
        if !rules.later_overrides {
            first_block(&mut self.block_reason, reply.decision);
            return self.block_reason.is_some();
        }
        match reply.decision {
            Some(Decision::Block(reason)) => self.block_reason = Some(reason),
            Some(Decision::Allow) => self.block_reason = None,
            _ => {}
        }
        false
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
        self.block_reason.is_some()
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
        if rules.later_overrides && !reply.context.is_empty() {
            self.additional_context = reply.context;
        } else {
            self.additional_context.extend(reply.context);
        }
        false
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> SessionStartHookOutcome {
        SessionStartHookOutcome { additional_context: self.additional_context, env: self.env, common }
    }
}
