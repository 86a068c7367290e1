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

use serde_json::{Map, Value};

use crate::model::outcome::{
    CommonOutcome, PermissionDecision, PermissionRequestHookOutcome, PostToolHookOutcome, SessionStartHookOutcome,
    StopHookOutcome, UserPromptHookOutcome,
};
use crate::model::reply::{Decision, HookReply};
use crate::model::rules::Column;

/// The merge columns these mergers honour.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const HONOURS: &[Column] = &[Column::Sequential];

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
    pub(crate) fn absorb(&mut self, reply: HookReply) -> bool {
        if let (None, Some(Decision::Permission(d))) = (&self.decision, reply.decision) {
            self.decision = Some(d);
        }
        self.decision.is_some()
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
    pub(crate) fn absorb(&mut self, reply: HookReply) -> bool {
        self.additional_context.extend(reply.context);
        false
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> SessionStartHookOutcome {
        SessionStartHookOutcome { additional_context: self.additional_context, env: self.env, common }
    }
}
