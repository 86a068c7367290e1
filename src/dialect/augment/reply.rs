//! Reading an Augment hook's result: Claude Code's reader (the hooks
//! protocol, `super::super::protocol`) under Augment's rule table, after
//! what Augment does not implement is taken out of the stdout JSON.
//!
//! | answer | Augment | hookline |
//! |---|---|---|
//! | exit 0 with JSON on stdout | read | read |
//! | exit 2 on PreToolUse | blocks the tool, stderr is the reason | the same (stdout is not read) |
//! | exit 2 elsewhere, any other non-zero exit | a non-blocking error; stdout JSON is not read | the same |
//! | PreToolUse `permissionDecision: "deny"` | blocks the tool with `permissionDecisionReason` | the same |
//! | PreToolUse `permissionDecision: "allow"` or `"ask"`, `updatedInput`, `additionalContext`, a top-level `decision` | not implemented: decides nothing | dropped, with a warning naming what was dropped |
//! | Stop `decision: "block"` | keeps the agent working, `reason` fed back | the same |
//! | `decision` on PostToolUse ("PostToolUse cannot block anything") and PromptSubmit | decides nothing | dropped, with a warning |
//! | `hookSpecificOutput.hookEventName: "PromptSubmit"` | Augment's name of the prompt event | read as UserPromptSubmit |

use serde_json::{Map, Value};

use crate::dialect::ReadCtx;
use crate::model::event::HookEvent;
use crate::model::execution::{Answer, HookExecution};
use crate::model::outcome::HookMessageLevel;
use crate::model::reply::HookReply;

/// Read one hook's result.
pub(super) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    let exited_0 = matches!(exec.answer, Answer::Exited) && !exec.timed_out && exec.exit_code == Some(0);
    if exited_0 {
        if let Ok(Value::Object(mut out)) = serde_json::from_str::<Value>(exec.stdout.trim()) {
            let dropped = normalize(cx.event.known(), &mut out);
            let said = HookExecution { stdout: Value::Object(out).to_string(), ..exec.clone() };
            let mut reply = crate::dialect::protocol::read(cx, &said);
            if !dropped.is_empty() {
                reply.push(
                    HookMessageLevel::Warning,
                    format!(
                        "Augment does not implement {} on {}: ignored (only permissionDecision \"deny\" decides a \
                         tool call, and only Stop's decision \"block\" blocks)",
                        dropped.join(", "),
                        super::event_name(cx.event)
                    ),
                );
            }
            return reply;
        }
    }
    if matches!(exec.answer, Answer::Exited) && !exited_0 && !exec.stdout.is_empty() {
        // Stdout is read on exit 0 only: another exit's JSON decides
        // nothing (the protocol's reader would still read it).
        let unread = HookExecution { stdout: String::new(), ..exec.clone() };
        return crate::dialect::protocol::read(cx, &unread);
    }
    crate::dialect::protocol::read(cx, exec)
}

/// Take out of `out` what Augment does not implement on `event`, and put
/// Augment's event name in Claude Code's; returns what was dropped, as the
/// hook wrote it.
fn normalize(event: Option<HookEvent>, out: &mut Map<String, Value>) -> Vec<String> {
    let mut dropped = Vec::new();
    if let Some(Value::Object(spec)) = out.get_mut("hookSpecificOutput") {
        if spec
            .get("hookEventName")
            .and_then(Value::as_str)
            .is_some_and(|n| n.trim().eq_ignore_ascii_case("PromptSubmit"))
        {
            spec.insert("hookEventName".into(), Value::from("UserPromptSubmit"));
        }
        if event == Some(HookEvent::PreToolUse) {
            let decision = spec.get("permissionDecision").and_then(Value::as_str).map(str::to_owned);
            if let Some(d) = decision.filter(|d| !d.trim().eq_ignore_ascii_case("deny")) {
                spec.remove("permissionDecision");
                spec.remove("permissionDecisionReason");
                dropped.push(format!("permissionDecision {d:?}"));
            }
            for key in ["updatedInput", "additionalContext"] {
                if spec.remove(key).is_some() {
                    dropped.push(key.to_owned());
                }
            }
        }
    }
    let decision_decides_nothing =
        matches!(event, Some(HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::UserPromptSubmit));
    if decision_decides_nothing {
        if let Some(d) = out.remove("decision") {
            dropped.push(format!("decision {d}"));
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn norm(event: HookEvent, v: Value) -> (Value, Vec<String>) {
        let Value::Object(mut m) = v else { unreachable!() };
        let d = normalize(Some(event), &mut m);
        (Value::Object(m), d)
    }

    #[test]
    fn only_deny_is_kept_on_pre_tool_use() {
        let (v, d) = norm(
            HookEvent::PreToolUse,
            json!({"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"command": "ls"}}}),
        );
        assert_eq!(v, json!({"hookSpecificOutput": {}}));
        assert_eq!(d, vec!["permissionDecision \"allow\"".to_owned(), "updatedInput".to_owned()]);
        let deny = json!({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}});
        assert_eq!(norm(HookEvent::PreToolUse, deny.clone()), (deny, vec![]));
    }

    #[test]
    fn decision_blocks_only_stop() {
        let stop = json!({"decision": "block", "reason": "tests fail"});
        assert_eq!(norm(HookEvent::Stop, stop.clone()).1, Vec::<String>::new());
        assert_eq!(norm(HookEvent::PostToolUse, stop).1, vec!["decision \"block\"".to_owned()]);
    }

    #[test]
    fn prompt_submit_is_user_prompt_submit() {
        let (v, _) = norm(
            HookEvent::UserPromptSubmit,
            json!({"hookSpecificOutput": {"hookEventName": "PromptSubmit", "additionalContext": "x"}}),
        );
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "UserPromptSubmit");
    }
}
