//! The events whose replies combine by "the first decision in
//! configuration order counts": UserPromptSubmit, PermissionRequest, Stop
//! (with SubagentStop and PreCompact), PostToolUse (and
//! PostToolUseFailure), and the context-only SessionStart.
//!
//! | event | rule |
//! |---|---|
//! | UserPromptSubmit | the first block's reason is `block_reason` (`allow_prompt` false); a sequential run stops there; context from every hook |
//! | PermissionRequest | the first decision is the outcome's; a sequential run stops there |
//! | Stop, SubagentStop, PreCompact (and the named events of the family) | `reasons: First`: the first block's reason is `block_reason`, and a sequential run stops there; `reasons: All` (Claude Code's Stop and SubagentStop, run concurrently): every block's reason, in configuration order, one per line; `block_context`: context from every hook; a table where nothing blocks an event gives it the observer outcome |
//! | Stop with `block_cap` | after `stop_hook_block_cap` consecutive continued stops of a session, the next one is allowed with a warning ([`StopBlocks`]) |
//! | PostToolUse, PostToolUseFailure | the first feedback is `block_reason`; the tool already ran, nothing stops |
//! | SessionStart (and the context family) | context from every hook, in order; `env_file`: the env file's variables |

use std::sync::Mutex;

use serde_json::{Map, Value};

use crate::model::outcome::{
    CommonOutcome, HookMessage, HookOutcome, PermissionDecision, PermissionRequestHookOutcome, PostToolHookOutcome,
    SessionStartHookOutcome, StopHookOutcome, UserPromptHookOutcome,
};
use crate::model::reply::{Decision, HookReply};
use crate::model::rules::{Column, EventRules, Reasons};

/// The merge columns these mergers honour.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const HONOURS: &[Column] = &[Column::Sequential];

/// The merge columns the Stop family's merger honours.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const STOP_HONOURS: &[Column] =
    &[Column::Sequential, Column::AllReasons, Column::BlockContext, Column::BlockCap];

/// The merge columns the context family's merger honours.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const CONTEXT_HONOURS: &[Column] = &[Column::EnvFile];

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
pub(crate) struct StopMerge {
    reasons: Vec<String>,
    all: bool,
    /// `Some` where the row reads context (`block_context`).
    context: Option<Vec<String>>,
}

impl StopMerge {
    pub(crate) fn new(rules: &EventRules) -> StopMerge {
        StopMerge {
            reasons: Vec::new(),
            all: rules.reasons == Reasons::All,
            context: rules.block_context.then(Vec::new),
        }
    }

    pub(crate) fn absorb(&mut self, reply: HookReply) -> bool {
        if let Some(context) = &mut self.context {
            context.extend(reply.context);
        }
        if let Some(Decision::Block(reason)) = reply.decision {
            if self.all || self.reasons.is_empty() {
                self.reasons.push(reason);
            }
        }
        !self.reasons.is_empty()
    }

    /// Where delivered context goes (`None` where the row reads none).
    pub(crate) fn context_slot(&mut self) -> Option<&mut Vec<String>> {
        self.context.as_mut()
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> StopHookOutcome {
        let block_reason = (!self.reasons.is_empty()).then(|| self.reasons.join("\n"));
        StopHookOutcome { block_reason, additional_context: self.context, common }
    }
}

/// The Stop block cap: consecutive stops of one session that hooks kept
/// from ending (a block, or `additionalContext`, which "keeps the
/// conversation going through the same loop protections"). After `cap`
/// of them the next is allowed: its `block_reason` and context are
/// dropped, with a warning. A stop that ends resets the count, and so does
/// a new session id.
#[derive(Debug, Default)]
pub(crate) struct StopBlocks {
    state: Mutex<Option<(String, u32)>>,
}

impl StopBlocks {
    /// A stop of `session` that no hook kept from ending: the streak is over.
    pub(crate) fn ended(&self, session: &str) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((s, n)) = &mut *state {
            if s == session {
                *n = 0;
            }
        }
    }

    /// Apply the cap (`cap` 0: off) to a Stop outcome of `session`.
    pub(crate) fn apply(&self, session: &str, cap: u32, outcome: &mut HookOutcome) {
        let HookOutcome::Stop(o) = outcome else {
            return;
        };
        let continues = o.block_reason.is_some() || o.additional_context.as_ref().is_some_and(|c| !c.is_empty());
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let count = match &mut *state {
            Some((s, n)) if s == session => n,
            slot => &mut slot.insert((session.to_owned(), 0)).1,
        };
        if !continues || cap == 0 {
            *count = 0;
            return;
        }
        *count += 1;
        if *count <= cap {
            return;
        }
        *count = 0;
        drop(state);
        o.block_reason = None;
        if let Some(context) = &mut o.additional_context {
            context.clear();
        }
        o.common.messages.push(HookMessage::warning(format!(
            "Stop hooks kept {cap} consecutive stops of this session from ending; this stop is allowed \
             (stop_hook_block_cap)"
        )));
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
