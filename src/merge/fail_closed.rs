//! The fail-closed rule of the merge: a failing hook that sets Claude Code's
//! `onFailure: "block"` (command and http hooks) or `failClosed: true`
//! (hookline's earlier spelling, any handler type) takes its event's
//! blocking decision instead of
//! failing open — PreToolUse and PermissionRequest deny, UserPromptSubmit
//! and Stop (and SubagentStop, PreCompact, the blocking events fired by
//! name) block, Elicitation declines — with its failure as the
//! reason. Only where the rules fail open (`on_failure:
//! OpenUnlessFailClosed`; never where they say `Open`); events without a
//! blocking decision are not affected. A decision of the same kind the hook
//! made itself stands (its own reason first). An event the rules make a
//! gate (`tool_gate`) denies as PreToolUse does.
//!
//! Where the rules deny every failure but a timeout (`on_failure:
//! DenyFailuresExceptTimeouts`, Copilot CLI's PreToolUse), a failing hook
//! denies whatever it printed, with the agent's words for it as the reason
//! (Copilot CLI's `Denied by preToolUse hook (hook errored)`) — `failClosed`
//! or not, and even when its stdout allowed — so that the deny holds under any merge, including a
//! run that joins hooks of several dialects.

use crate::model::event::EventFamily;
use crate::model::outcome::{ElicitationAction, HookFailure, PermissionBehavior, PreToolHookDecision};
use crate::model::reply::{Decision, DecisionFamily, HookReply};
use crate::model::rules::{EventRules, OnFailure};

/// The kind of blocking decision an event of `family` has.
pub fn decision_family(family: EventFamily) -> DecisionFamily {
    match family {
        EventFamily::Tool => DecisionFamily::Tool,
        EventFamily::Permission => DecisionFamily::Permission,
        EventFamily::Prompt | EventFamily::Stop => DecisionFamily::Block,
        EventFamily::Elicitation => DecisionFamily::Elicitation,
        EventFamily::Context
        | EventFamily::PostTool
        | EventFamily::Retry
        | EventFamily::Worktree
        | EventFamily::Observe => DecisionFamily::None,
    }
}

/// Turn a failing `failClosed` hook's reply into the blocking decision of
/// its event (of `family`).
pub fn apply(reply: &mut HookReply, fail_closed: bool, rules: &EventRules, family: EventFamily) {
    if let OnFailure::DenyFailuresExceptTimeouts { reason } = rules.on_failure {
        deny_failures_except_timeouts(reply, family, reason);
        return;
    }
    // Where timeouts already deny (Claude Code's PreModelSwitch), the
    // hook's other failures still follow `onFailure`.
    if !fail_closed || !matches!(rules.on_failure, OnFailure::OpenUnlessFailClosed | OnFailure::DenyTimeoutsUnlessAsk) {
        return;
    }
    let Some(failure) = &reply.failure else {
        return;
    };
    let family = decision_family(family);
    if family == DecisionFamily::None {
        return;
    }
    let text = failure.text.clone();
    match &mut reply.decision {
        Some(Decision::Tool(PreToolHookDecision::Deny, Some(_))) => {}
        Some(Decision::Tool(PreToolHookDecision::Deny, reason @ None)) => *reason = Some(text),
        Some(Decision::Permission(d)) if d.behavior == PermissionBehavior::Deny => {}
        Some(Decision::Block(_)) => {}
        Some(Decision::Elicitation(ElicitationAction::Decline | ElicitationAction::Cancel, _)) => {}
        decision => *decision = Decision::fail_closed(family, text),
    }
}

/// `on_failure: DenyFailuresExceptTimeouts`: a PreToolUse hook that failed
/// other than by timing out denies with `reason`, the agent's words for it
/// (its failure stays in the report and the warning).
fn deny_failures_except_timeouts(reply: &mut HookReply, family: EventFamily, reason: &str) {
    if reply.failure.as_ref().is_none_or(|f| f.kind == HookFailure::Timeout) {
        return;
    }
    if decision_family(family) != DecisionFamily::Tool {
        return;
    }
    reply.decision = Some(Decision::Tool(PreToolHookDecision::Deny, Some(reason.to_owned())));
}
