//! The fail-closed layer: a failing hook that sets `failClosed: true` (a
//! hookline extension) takes its event's blocking decision instead of
//! failing open — PreToolUse and PermissionRequest deny, UserPromptSubmit
//! and Stop (and SubagentStop, PreCompact) block — with its failure as the
//! reason. Only where the rules fail open (`on_failure:
//! OpenUnlessFailClosed`); events without a blocking decision are not
//! affected. A decision of the same kind the hook made itself stands (its
//! own reason first).
//!
//! Where the rules deny every failure but a timeout (`on_failure:
//! DenyFailuresExceptTimeouts`, Copilot CLI's PreToolUse), a failing hook
//! denies whatever it printed — `failClosed` or not, and even when its
//! stdout allowed — so that the deny holds under any merge, including a
//! run that joins hooks of several dialects.

use crate::model::event::{EventFamily, RunEvent};
use crate::model::outcome::{HookFailure, PermissionBehavior, PreToolHookDecision};
use crate::model::reply::{Decision, DecisionFamily, HookReply};
use crate::model::rules::{EventRules, OnFailure};

/// The kind of blocking decision `event` has.
pub fn decision_family(event: &RunEvent) -> DecisionFamily {
    match event.family() {
        EventFamily::Tool => DecisionFamily::Tool,
        EventFamily::Permission => DecisionFamily::Permission,
        EventFamily::Prompt | EventFamily::Stop => DecisionFamily::Block,
        EventFamily::SessionStart | EventFamily::PostTool | EventFamily::Observe => DecisionFamily::None,
    }
}

/// Turn a failing `failClosed` hook's reply into the event's blocking decision.
pub fn apply(reply: &mut HookReply, fail_closed: bool, rules: &EventRules, event: &RunEvent) {
    if rules.on_failure == OnFailure::DenyFailuresExceptTimeouts {
        deny_failures_except_timeouts(reply, event);
        return;
    }
    if !fail_closed || rules.on_failure != OnFailure::OpenUnlessFailClosed {
        return;
    }
    let Some(failure) = &reply.failure else {
        return;
    };
    let family = decision_family(event);
    if family == DecisionFamily::None {
        return;
    }
    let text = failure.text.clone();
    match &mut reply.decision {
        Some(Decision::Tool(PreToolHookDecision::Deny, Some(_))) => {}
        Some(Decision::Tool(PreToolHookDecision::Deny, reason @ None)) => *reason = Some(text),
        Some(Decision::Permission(d)) if d.behavior == PermissionBehavior::Deny => {}
        Some(Decision::Block(_)) => {}
        decision => *decision = Decision::fail_closed(family, text),
    }
}

/// `on_failure: DenyFailuresExceptTimeouts`: a PreToolUse hook that failed
/// other than by timing out denies, its failure the reason (a deny reason
/// it gave itself stands).
fn deny_failures_except_timeouts(reply: &mut HookReply, event: &RunEvent) {
    let Some(failure) = reply.failure.as_ref().filter(|f| f.kind != HookFailure::Timeout) else {
        return;
    };
    if decision_family(event) != DecisionFamily::Tool {
        return;
    }
    if !matches!(reply.decision, Some(Decision::Tool(PreToolHookDecision::Deny, Some(_)))) {
        reply.decision = Some(Decision::Tool(PreToolHookDecision::Deny, Some(failure.text.clone())));
    }
}
