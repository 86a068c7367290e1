//! One Cascade hook's result → the canonical reply, and what Cascade
//! cannot express of a reply (dropped, and reported).
//!
//! | hook result | effect |
//! |---|---|
//! | exit 0 | proceed; stdout is never read (JSON included), stderr goes to the log |
//! | exit 2 on a `pre_*` event | **deny** (pre_read_code, pre_write_code, pre_run_command, pre_mcp_tool_use; a canonical PreToolUse) or **block** the prompt (pre_user_prompt): the reason is stderr with Cascade's suffix, `<stderr>: action blocked by hook` |
//! | exit 2 on any other event | no effect, not a failure |
//! | other exit codes, a signal, a lost exit status, a timeout | a non-blocking failure (a warning naming the hook, with its stderr): the action proceeds |
//!
//! Cascade has no allow, no ask, no context, no input rewrite and no way
//! to stop the agent. When the Windsurf dialect merges a run (every hook
//! of the run is Cascade's, or a callback hook speaks the hooks protocol
//! in a Windsurf run), any of those in a reply ([`restrict`]) is dropped:
//! a warning names it, and the outcome's `dialect_fields.windsurf.dropped`
//! lists what was dropped (`allow`, `ask`, `defer`, `updated_input`,
//! `additional_context`, `continue`, a decision on an event Cascade cannot
//! block).

use serde_json::{json, Map, Value};

use super::event_name;
use crate::dialect::ReadCtx;
use crate::hl_debug;
use crate::model::event::{EventFamily, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::outcome::{HookFailure, HookMessageLevel, PreToolHookDecision};
use crate::model::reply::{Decision, Failure, HookReply};
use crate::model::rules::{Column, Exit2};

/// What Cascade appends to the stderr of a hook that blocked an action.
pub const BLOCKED_SUFFIX: &str = ": action blocked by hook";

/// The reader columns this reader honours.
pub(crate) fn honours(family: EventFamily) -> &'static [Column] {
    match family {
        EventFamily::Tool | EventFamily::Prompt => &[Column::Exit2Block, Column::Exit2Ignored],
        _ => &[Column::Exit2Ignored],
    }
}

/// Read one hook's result (see the module documentation).
pub(crate) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    let mut reply = HookReply::default();
    let who = format!("{} hook `{}`", event_name(cx.event), exec.label);
    let stderr = exec.stderr.trim();
    let fail = |reply: &mut HookReply, kind: HookFailure, level: HookMessageLevel, how: String| {
        let text = match stderr {
            "" => format!("{who} {how}"),
            s => format!("{who} {how}: {s}"),
        };
        reply.push(level, text.clone());
        reply.failure = Some(Failure { kind, text, timeout_or_lost: matches!(kind, HookFailure::Timeout) });
    };
    if exec.timed_out {
        let after = match exec.timeout_seconds {
            0 => String::new(),
            s => format!(" after {s} s"),
        };
        fail(&mut reply, HookFailure::Timeout, HookMessageLevel::Error, format!("timed out{after}"));
        return reply;
    }
    if !exec.stdout.trim().is_empty() {
        hl_debug!("{who} wrote to stdout, which Cascade never reads");
    }
    match exec.exit_code {
        Some(0) => {
            if !stderr.is_empty() {
                hl_debug!("{who} wrote to stderr: {stderr}");
            }
        }
        Some(2) if matches!(cx.rules.exit2, Exit2::Block { .. }) => {
            let reason = match stderr {
                "" => format!("hook `{}`{BLOCKED_SUFFIX}", exec.label),
                s => format!("{s}{BLOCKED_SUFFIX}"),
            };
            reply.decision = Some(match cx.family {
                EventFamily::Tool => Decision::Tool(PreToolHookDecision::Deny, Some(reason)),
                _ => Decision::Block(reason),
            });
        }
        Some(2) => hl_debug!("{who} exited with code 2, which has no effect on {}", event_name(cx.event)),
        Some(code) => fail(&mut reply, HookFailure::Exit, cx.rules.failure_level, format!("exited with code {code}")),
        None => {
            let (kind, how) = match exec.signal {
                Some(signal) => (HookFailure::Signal, format!("was killed by signal {signal}")),
                None => (HookFailure::Exit, crate::dialect::protocol::UNKNOWN_STATUS.to_owned()),
            };
            fail(&mut reply, kind, cx.rules.failure_level, how);
        }
    }
    reply
}

/// Drop from `reply` what Cascade cannot express on `event` (of `family`
/// in the Windsurf table), with a warning naming each; the dropped names
/// for the outcome's `dialect_fields.windsurf.dropped`.
pub(crate) fn restrict(event: &RunEvent, family: EventFamily, reply: &mut HookReply) -> Map<String, Value> {
    let can_block = super::PROFILE.rules_of(event).can_block();
    let mut dropped: Vec<&'static str> = Vec::new();
    let keep = match &reply.decision {
        None => true,
        Some(Decision::Tool(PreToolHookDecision::Deny, _)) => can_block && family == EventFamily::Tool,
        Some(Decision::Block(_)) => can_block && family == EventFamily::Prompt,
        Some(Decision::Tool(PreToolHookDecision::Continue, _)) => true,
        Some(_) => false,
    };
    if !keep {
        if let Some(d) = reply.decision.take() {
            dropped.push(d.name());
        }
    }
    if reply.updated_input.take().is_some() {
        dropped.push("updated_input");
    }
    if !reply.context.is_empty() {
        reply.context.clear();
        dropped.push("additional_context");
    }
    if reply.halt.take().is_some() {
        dropped.push("continue");
    }
    if !reply.env.is_empty() {
        reply.env.clear();
        dropped.push("env");
    }
    let mut fields = Map::new();
    if dropped.is_empty() {
        return fields;
    }
    reply.push(
        HookMessageLevel::Warning,
        format!(
            "{}: Cascade cannot express {}; dropped",
            event_name(event),
            dropped.iter().map(|d| format!("`{d}`")).collect::<Vec<_>>().join(", ")
        ),
    );
    fields.insert("dropped".into(), json!(dropped));
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::event::HookEvent;

    #[test]
    fn allow_context_and_rewrites_are_dropped_a_deny_on_a_gate_is_kept() {
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        let mut reply = HookReply {
            decision: Some(Decision::Tool(PreToolHookDecision::Allow, None)),
            updated_input: Some(json!({"command": "ls"})),
            context: vec!["c".into()],
            ..HookReply::default()
        };
        let fields = restrict(&pre, EventFamily::Tool, &mut reply);
        assert_eq!(fields["dropped"], json!(["allow", "updated_input", "additional_context"]));
        assert!(reply.decision.is_none() && reply.updated_input.is_none() && reply.context.is_empty());
        assert!(reply.messages[0].text.contains("Cascade cannot express `allow`"), "{:?}", reply.messages);
        let mut deny = HookReply {
            decision: Some(Decision::Tool(PreToolHookDecision::Deny, Some("no".into()))),
            ..HookReply::default()
        };
        assert!(restrict(&pre, EventFamily::Tool, &mut deny).is_empty());
        assert!(deny.decision.is_some());
        // A block on an event Cascade cannot block (Stop) is dropped.
        let mut stop = HookReply { decision: Some(Decision::Block("again".into())), ..HookReply::default() };
        let fields = restrict(&RunEvent::Known(HookEvent::Stop), EventFamily::Stop, &mut stop);
        assert_eq!(fields["dropped"], json!(["block"]));
    }
}
