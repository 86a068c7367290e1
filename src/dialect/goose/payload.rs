//! The payload a goose hook reads on stdin: goose's `HookContext`, written
//! as compact JSON without a newline, its fields in goose's order:
//!
//! | field | when |
//! |---|---|
//! | `event` | always: the event's name (there is no `hook_event_name`) |
//! | `session_id` | always |
//! | `matcher_context` | always: the text the matchers test (the tool name, the prompt, the shell command, the file path), `null` where the event has none |
//! | `tool_call_id` | PreToolUse, PreToolUseResult, PostToolUse, PostToolUseFailure: the call's id (the input's `tool_use_id`) |
//! | `tool_name`, `tool_input` | the tool events (`tool_input` when the call has arguments) |
//! | `message` | UserPromptSubmit: the prompt |
//! | `last_assistant_message` | Stop, when not empty |
//! | `working_dir` | always: the session's directory |
//! | `decision`, `policy_evaluated`, `blocked_by`, `reason`, `cause` | PreToolUseResult, as the host gives them |
//!
//! Nothing else: goose's payload has no `cwd`, `transcript_path` or
//! `hook_event_name`, and no other field of the event input reaches it.

use serde_json::{json, Map, Value};

use super::{event_name, matcher_context};
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::SessionFacts;

/// The events whose payload carries the tool call's id.
fn carries_call_id(event: &RunEvent) -> bool {
    match event {
        RunEvent::Known(e) => {
            matches!(e, HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PostToolUseFailure)
        }
        RunEvent::Named(name) => &**name == "PreToolUseResult",
    }
}

/// The fields of PreToolUseResult's outcome, in goose's order.
const OUTCOME_FIELDS: &[&str] = &["decision", "policy_evaluated", "blocked_by", "reason", "cause"];

/// goose's payload for `event` (see the module documentation).
pub(crate) fn payload(
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
) -> Map<String, Value> {
    let whole = Value::Object(input.clone());
    let mut out = Map::new();
    out.insert("event".into(), json!(event_name(event)));
    out.insert("session_id".into(), json!(facts.session_id));
    out.insert("matcher_context".into(), matcher_context(event, &whole).map_or(Value::Null, |s| json!(s)));
    if carries_call_id(event) {
        if let Some(id) = input.get("tool_use_id").or_else(|| input.get("tool_call_id")).filter(|v| v.is_string()) {
            out.insert("tool_call_id".into(), id.clone());
        }
    }
    if let Some(tool) = input.get("tool_name").filter(|v| v.is_string()) {
        out.insert("tool_name".into(), tool.clone());
        if let Some(args) = tool_input.or_else(|| input.get("tool_input")).filter(|v| !v.is_null()) {
            out.insert("tool_input".into(), args.clone());
        }
    }
    if event.known() == Some(HookEvent::UserPromptSubmit) {
        if let Some(prompt) = input.get("prompt").filter(|v| v.is_string()) {
            out.insert("message".into(), prompt.clone());
        }
    }
    if event.known() == Some(HookEvent::Stop) {
        if let Some(m) = input.get("last_assistant_message").filter(|v| v.as_str().is_some_and(|s| !s.is_empty())) {
            out.insert("last_assistant_message".into(), m.clone());
        }
    }
    let dir = input.get("cwd").and_then(Value::as_str).unwrap_or(facts.cwd);
    out.insert("working_dir".into(), json!(dir));
    if matches!(event, RunEvent::Named(name) if &**name == "PreToolUseResult") {
        for key in OUTCOME_FIELDS {
            if let Some(v) = input.get(*key).filter(|v| !v.is_null()) {
                out.insert((*key).into(), v.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> SessionFacts<'static> {
        SessionFacts { session_id: "s-1", cwd: "/w", transcript_path: Some("/t.jsonl"), trigger: "startup" }
    }

    fn of(event: RunEvent, input: Value) -> Value {
        Value::Object(payload(&event, &facts(), input.as_object().unwrap(), None))
    }

    /// goose's `HookContext` (`event`, `session_id`, `matcher_context`,
    /// `tool_call_id`, `tool_name`, `tool_input`, ...): `run_pre_tool_hooks`
    /// builds PreToolUse's `.with_tool(..).with_tool_call_id(..)
    /// .with_working_dir(..)`.
    #[test]
    fn pre_tool_use_carries_the_call_in_goose_order() {
        let p = of(
            RunEvent::Known(HookEvent::PreToolUse),
            json!({"tool_name": "developer__shell", "tool_input": {"command": "ls"}, "tool_use_id": "call-1", "extra": 1}),
        );
        let keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            ["event", "session_id", "matcher_context", "tool_call_id", "tool_name", "tool_input", "working_dir"]
        );
        assert_eq!(p["event"], "PreToolUse");
        assert_eq!(p["matcher_context"], "developer__shell");
        assert_eq!(p["tool_call_id"], "call-1");
        assert!(p.get("hook_event_name").is_none() && p.get("cwd").is_none());
    }

    /// `with_message` sets the prompt as `message` and `matcher_context`;
    /// Stop's `with_last_assistant_message` keeps only a non-empty text;
    /// SessionStart has no `matcher_context` (null).
    #[test]
    fn prompt_stop_and_session_start() {
        let p = of(RunEvent::Known(HookEvent::UserPromptSubmit), json!({"prompt": "fix it"}));
        assert_eq!((p["message"].as_str(), p["matcher_context"].as_str()), (Some("fix it"), Some("fix it")));
        let p = of(RunEvent::Known(HookEvent::Stop), json!({"last_assistant_message": ""}));
        assert!(p.get("last_assistant_message").is_none());
        assert_eq!(p["matcher_context"], Value::Null);
        let p = of(RunEvent::Known(HookEvent::SessionStart), json!({"source": "startup"}));
        assert_eq!(
            p,
            json!({"event": "SessionStart", "session_id": "s-1", "matcher_context": null, "working_dir": "/w"})
        );
    }

    /// PreToolUseResult: "`decision` is \"allow\" or \"deny\" ... `blocked_by`
    /// and `reason` appear only on the deny arm".
    #[test]
    fn pre_tool_use_result_passes_the_outcome() {
        let p = of(
            RunEvent::Named("PreToolUseResult".into()),
            json!({"tool_name": "developer__shell", "tool_use_id": "c", "decision": "deny", "policy_evaluated": true,
                   "blocked_by": "guard", "reason": "no", "cause": "policy_denial"}),
        );
        assert_eq!(p["decision"], "deny");
        assert_eq!(p["blocked_by"], "guard");
        assert_eq!(p["tool_call_id"], "c");
        let p = of(
            RunEvent::Named("BeforeShellExecution".into()),
            json!({"tool_name": "developer__shell",
            "tool_use_id": "c", "tool_input": {"command": "ls"}}),
        );
        assert_eq!(p["matcher_context"], "ls");
        assert!(p.get("tool_call_id").is_none(), "the extended events carry no call id");
    }
}
