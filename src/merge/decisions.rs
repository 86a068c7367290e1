//! The events whose replies combine by "the first decision in
//! configuration order counts": UserPromptSubmit, PermissionRequest, Stop
//! (with SubagentStop and PreCompact), PostToolUse (and
//! PostToolUseFailure), and the context-only SessionStart.
//!
//! | event | rule |
//! |---|---|
//! | UserPromptSubmit | the first block's reason is `block_reason` (`allow_prompt` false; `block_reasons: Joined`: every block's reason, in order, joined); a sequential run stops there; context from every hook (`block_drops_context`: none when the prompt is blocked) |
//! | PermissionRequest | the first decision is the outcome's; a sequential run stops there. `precedence: MostRestrictive`: any deny wins (the first deny's message), else an allow; only a deny stops a sequential run |
//! | Stop, SubagentStop, PreCompact (and the named events of the family) | the first block's reason is `block_reason`; a sequential run stops there (a table where nothing blocks an event gives it the observer outcome). `block_reasons: Joined`: every block's reason, in order, joined (Claude Code's Stop and SubagentStop, run concurrently, with `"\n"`); `halt_clears_block`: a hook's `continue: false` leaves no block (the agent stops); `block_context`: context from every hook |
//! | Stop with `block_cap` | after `stop_hook_block_cap` consecutive continued stops of a session, the next one is allowed with a warning ([`StopBlocks`]) |
//! | PostToolUse, PostToolUseFailure | the first feedback is `block_reason` (`block_reasons: Joined`: every feedback, in order, joined); the tool already ran, nothing stops. `block_replaces_result`: the outcome says the reason replaces the tool's result; `block_drops_context`: a blocked run keeps no context |
//! | SessionStart (and the context family) | context from every hook, in order; `env_file`: the env file's variables (`session_env_from_output`: the `env` of every hook's output, by name, the first hook that sets a name winning) |
//!
//! Stop and SubagentStop blocks bounded by a loop limit, and those that
//! need a `completed` status, are filtered before they get here
//! (`follow_up.rs`, [`super::EventInterpreter`]).
//!
//! With `later_overrides` (Copilot CLI) a later hook's answer replaces an
//! earlier one's, the way objects spread over each other in configuration
//! order: PermissionRequest's last decision is the outcome's, Stop's and
//! SubagentStop's last `block` or `allow` decides (an `allow` clears an
//! earlier block), SessionStart's last context is the only one kept. A hook
//! that answers nothing changes nothing, and such runs never stop early.
//! PostToolUse's sequential runs stop at the first feedback (`block`).
//!
//! With `reasons: EveryReasonJoined`, a block's reason is the run's one
//! joined reason (see [`super`]) instead of the first blocking hook's.

use std::sync::Mutex;

use serde_json::{Map, Value};

use crate::model::outcome::{
    CommonOutcome, HookMessage, HookOutcome, PermissionBehavior, PermissionDecision, PermissionRequestHookOutcome,
    PostToolHookOutcome, SessionStartHookOutcome, StopHookOutcome, UserPromptHookOutcome,
};
use crate::model::reply::{Decision, HookReply};
use crate::model::rules::{BlockReasons, Column, EventRules, Precedence};

// The merge columns each merger honours (with the shared fields' column,
// `FirstGivenHaltReason`, which every event's outcome honours, and the
// fail-closed layer's `NeverFailsClosed`, applied to every reply before it
// is merged).

/// UserPromptSubmit.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const PROMPT_HONOURS: &[Column] = &[
    Column::Sequential,
    Column::JoinedBlockReasons,
    Column::FirstGivenHaltReason,
    Column::NeverFailsClosed,
    Column::EveryReasonJoined,
    Column::SequentialWhenAsked,
    Column::HaltLastWord,
    Column::BlockDropsContext,
];

/// PermissionRequest.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const PERMISSION_HONOURS: &[Column] = &[
    Column::Sequential,
    Column::MostRestrictive,
    Column::LaterOverrides,
    Column::FirstGivenHaltReason,
    Column::NeverFailsClosed,
    Column::SequentialWhenAsked,
    Column::HaltLastWord,
];

/// Stop, SubagentStop, PreCompact.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const STOP_HONOURS: &[Column] = &[
    Column::Sequential,
    Column::JoinedBlockReasons,
    Column::HaltClearsBlock,
    Column::LaterOverrides,
    Column::FirstGivenHaltReason,
    Column::FollowUpLoopLimit,
    Column::BlockNeedsCompletedStatus,
    Column::NeverFailsClosed,
    Column::BlockContext,
    Column::BlockCap,
    Column::EveryReasonJoined,
    Column::SequentialWhenAsked,
    Column::HaltLastWord,
];

/// SessionStart and the context family.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const CONTEXT_HONOURS: &[Column] = &[
    Column::Sequential,
    Column::LaterOverrides,
    Column::EnvFile,
    Column::FirstGivenHaltReason,
    Column::SessionEnvFromOutput,
    Column::NeverFailsClosed,
    Column::SequentialWhenAsked,
    Column::HaltLastWord,
];

/// PostToolUse, PostToolUseFailure (a sequential run stops at the first
/// feedback when only the first reason counts).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const POST_TOOL_HONOURS: &[Column] = &[
    Column::Sequential,
    Column::JoinedBlockReasons,
    Column::FirstGivenHaltReason,
    Column::NeverFailsClosed,
    Column::EveryReasonJoined,
    Column::BlockReplacesResult,
    Column::BlockDropsContext,
    Column::SequentialWhenAsked,
    Column::HaltLastWord,
];

/// A blocked run's reason: the run's joined reason where the table joins
/// every reason, else the blocking hooks' own.
fn joined_or(own: Option<String>, joined: Option<String>) -> Option<String> {
    own.map(|own| joined.unwrap_or(own))
}

/// A block reason under `block_reasons`: the first counts, or every one is
/// kept (in order) to be joined.
fn add_block(slot: &mut Vec<String>, how: BlockReasons, decision: Option<Decision>) {
    if let Some(Decision::Block(reason)) = decision {
        if slot.is_empty() || how != BlockReasons::First {
            slot.push(reason);
        }
    }
}

/// The outcome's `block_reason` of the reasons kept by [`add_block`].
fn block_reason(reasons: Vec<String>, how: BlockReasons) -> Option<String> {
    match how {
        _ if reasons.is_empty() => None,
        BlockReasons::First => reasons.into_iter().next(),
        BlockReasons::Joined(separator) => Some(reasons.join(separator)),
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
        add_block(&mut self.reasons, rules.block_reasons, reply.decision);
        self.blocked()
    }

    /// Whether a hook blocked the prompt.
    pub(crate) fn blocked(&self) -> bool {
        !self.reasons.is_empty()
    }

    pub(crate) fn finish(
        self,
        rules: &EventRules,
        joined: Option<String>,
        common: CommonOutcome,
    ) -> UserPromptHookOutcome {
        let block_reason = joined_or(block_reason(self.reasons, rules.block_reasons), joined);
        let mut additional_context = self.additional_context;
        if rules.block_drops_context && block_reason.is_some() {
            additional_context.clear();
        }
        UserPromptHookOutcome { allow_prompt: block_reason.is_none(), block_reason, additional_context, common }
    }
}

/// PermissionRequest so far.
#[derive(Default)]
pub(crate) struct PermissionMerge {
    decision: Option<PermissionDecision>,
}

impl PermissionMerge {
    pub(crate) fn absorb(&mut self, rules: &EventRules, reply: HookReply) -> bool {
        if rules.later_overrides {
            // A later decision replaces an earlier one; the run never stops.
            if let Some(Decision::Permission(d)) = reply.decision {
                self.decision = Some(d);
            }
            return false;
        }
        let Some(Decision::Permission(d)) = reply.decision else {
            return self.decision.is_some()
                && !matches!(rules.precedence, Precedence::MostRestrictive | Precedence::LastWord);
        };
        let denied =
            |d: &Option<PermissionDecision>| d.as_ref().is_some_and(|d| d.behavior == PermissionBehavior::Deny);
        match rules.precedence {
            Precedence::MostRestrictive => {
                // Any deny wins (the first one's message); else an allow.
                if self.decision.is_none() || (!denied(&self.decision) && d.behavior == PermissionBehavior::Deny) {
                    self.decision = Some(d);
                }
                denied(&self.decision)
            }
            Precedence::FirstAllowOrDeny | Precedence::FirstDenyStops => {
                if self.decision.is_none() {
                    self.decision = Some(d);
                }
                true
            }
            Precedence::LastWord => {
                self.decision = Some(d);
                false
            }
        }
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
pub(crate) struct StopMerge {
    reasons: Vec<String>,
    /// `Some` where the row reads context (`block_context`).
    context: Option<Vec<String>>,
}

impl StopMerge {
    pub(crate) fn new(rules: &EventRules) -> StopMerge {
        StopMerge { reasons: Vec::new(), context: rules.block_context.then(Vec::new) }
    }

    pub(crate) fn absorb(&mut self, rules: &EventRules, reply: HookReply) -> bool {
        if let Some(context) = &mut self.context {
            context.extend(reply.context);
        }
        if rules.later_overrides {
            // The last `block` or `allow` decides; the run never stops.
            match reply.decision {
                Some(Decision::Block(reason)) => self.reasons = vec![reason],
                Some(Decision::Allow) => self.reasons.clear(),
                _ => {}
            }
            return false;
        }
        add_block(&mut self.reasons, rules.block_reasons, reply.decision);
        !self.reasons.is_empty()
    }

    /// Whether a hook blocked (the agent goes on).
    pub(crate) fn blocked(&self) -> bool {
        !self.reasons.is_empty()
    }

    /// Where delivered context goes (`None` where the row reads none).
    pub(crate) fn context_slot(&mut self) -> Option<&mut Vec<String>> {
        self.context.as_mut()
    }

    /// With `halt_clears_block`, a hook that asked the agent to stop
    /// (`continue: false`) leaves no block.
    pub(crate) fn finish(self, rules: &EventRules, joined: Option<String>, common: CommonOutcome) -> StopHookOutcome {
        let halted = !common.continue_;
        let block_reason = match rules.halt_clears_block && halted {
            true => None,
            false => joined_or(block_reason(self.reasons, rules.block_reasons), joined),
        };
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
    reasons: Vec<String>,
    pub(crate) additional_context: Vec<String>,
}

impl PostToolMerge {
    pub(crate) fn absorb(&mut self, rules: &EventRules, reply: HookReply) -> bool {
        self.additional_context.extend(reply.context);
        add_block(&mut self.reasons, rules.block_reasons, reply.decision);
        !self.reasons.is_empty() && rules.block_reasons == BlockReasons::First
    }

    /// Whether a hook blocked (its reason replaces or joins the result).
    pub(crate) fn blocked(&self) -> bool {
        !self.reasons.is_empty()
    }

    pub(crate) fn finish(
        self,
        rules: &EventRules,
        joined: Option<String>,
        common: CommonOutcome,
    ) -> PostToolHookOutcome {
        let block_reason = joined_or(block_reason(self.reasons, rules.block_reasons), joined);
        let mut additional_context = self.additional_context;
        if rules.block_drops_context && block_reason.is_some() {
            additional_context.clear();
        }
        PostToolHookOutcome {
            block_replaces_result: rules.block_replaces_result && block_reason.is_some(),
            block_reason,
            additional_context,
            common,
        }
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
