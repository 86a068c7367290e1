//! The fail-closed layer: a failing hook that sets `failClosed: true` (a
//! hookline extension) takes its event's blocking decision instead of
//! failing open — PreToolUse and PermissionRequest deny, UserPromptSubmit
//! and Stop (and SubagentStop, PreCompact) block — with its failure as the
//! reason. Only where the rules fail open (`on_failure:
//! OpenUnlessFailClosed`; never where they say `Open`); events without a
//! blocking decision are not affected. A decision of the same kind the hook
//! made itself stands (its own reason first). An event the rules make a
//! gate (`tool_gate`) denies as PreToolUse does.

use crate::model::event::{EventFamily, RunEvent};
use crate::model::outcome::{PermissionBehavior, PreToolHookDecision};
use crate::model::reply::{Decision, DecisionFamily, HookReply};
use crate::model::rules::{EventRules, OnFailure};

/// The kind of blocking decision `event` has under `rules`.
pub fn decision_family(event: &RunEvent, rules: &EventRules) -> DecisionFamily {
    match rules.family_of(event) {
        EventFamily::Tool => DecisionFamily::Tool,
        EventFamily::Permission => DecisionFamily::Permission,
        EventFamily::Prompt | EventFamily::Stop => DecisionFamily::Block,
        EventFamily::SessionStart | EventFamily::PostTool | EventFamily::Observe => DecisionFamily::None,
    }
}

/// Turn a failing `failClosed` hook's reply into the event's blocking decision.
pub fn apply(reply: &mut HookReply, fail_closed: bool, rules: &EventRules, event: &RunEvent) {
    if !fail_closed || rules.on_failure != OnFailure::OpenUnlessFailClosed {
        return;
    }
    let Some(failure) = &reply.failure else {
        return;
    };
    let family = decision_family(event, rules);
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
