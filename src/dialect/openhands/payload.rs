//! The JSON an OpenHands hook reads on stdin: OpenHands' `HookEvent`
//! model as `model_dump_json()` writes it, every field present (`null`
//! when unset), in its order.
//!
//! | field | value |
//! |---|---|
//! | `event_type` | the event's PascalCase name (`PreToolUse`, `UserPromptSubmit`, …) |
//! | `tool_name` | PreToolUse, PostToolUse: the tool's OpenHands name (`terminal`, `file_editor`, …); else `null` |
//! | `tool_input` | PreToolUse, PostToolUse: the tool's input (the rewrite in force); else `null` |
//! | `tool_response` | PostToolUse: the input's `tool_response`; else `null` |
//! | `message` | UserPromptSubmit: the prompt (the input's `prompt`, else its `message`); else `null` |
//! | `session_id` | the session id |
//! | `working_dir` | the working directory (the workspace) |
//! | `metadata` | the input's `metadata` object (else `{}`); on Stop, `reason` from the input's `reason` when it has one |
//!
//! OpenHands sends no `hook_event_name`, `cwd` or `prompt`, and no other
//! field: the input's other fields are not passed on.

use serde_json::{json, Map, Value};

use super::event_type;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::SessionFacts;

/// The payload of `event` for an OpenHands hook (see the module
/// documentation).
pub(crate) fn payload(
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
) -> Map<String, Value> {
    let known = event.known();
    let tool_event = known.is_some_and(super::has_tool_subject);
    let field = |key: &str| input.get(key).cloned().unwrap_or(Value::Null);
    let mut out = Map::new();
    out.insert("event_type".into(), json!(event_type(event)));
    out.insert("tool_name".into(), if tool_event { field("tool_name") } else { Value::Null });
    let input_of_tool = match (tool_event, tool_input) {
        (false, _) => Value::Null,
        (true, Some(t)) => t.clone(),
        (true, None) => field("tool_input"),
    };
    out.insert("tool_input".into(), input_of_tool);
    let response = match known {
        Some(HookEvent::PostToolUse) => field("tool_response"),
        _ => Value::Null,
    };
    out.insert("tool_response".into(), response);
    let message = match known {
        Some(HookEvent::UserPromptSubmit) => input.get("prompt").or_else(|| input.get("message")).cloned(),
        _ => None,
    };
    out.insert("message".into(), message.unwrap_or(Value::Null));
    out.insert("session_id".into(), json!(facts.session_id));
    out.insert("working_dir".into(), json!(facts.cwd));
    let mut metadata = match input.get("metadata") {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    if known == Some(HookEvent::Stop) {
        if let Some(reason @ Value::String(_)) = input.get("reason") {
            metadata.insert("reason".into(), reason.clone());
        }
    }
    out.insert("metadata".into(), Value::Object(metadata));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> SessionFacts<'static> {
        SessionFacts { session_id: "s-1", cwd: "/w", transcript_path: None, trigger: "startup" }
    }

    /// `HookEvent`: `event_type`, `tool_name`, `tool_input`,
    /// `tool_response`, `message`, `session_id`, `working_dir`, `metadata`
    /// (`types.py`), serialised with every field.
    #[test]
    fn every_field_of_the_model_in_its_order() {
        let input = json!({"tool_name": "terminal", "tool_input": {"command": "ls"}, "cwd": "/elsewhere", "x": 1});
        let p = payload(&RunEvent::Known(HookEvent::PreToolUse), &facts(), input.as_object().unwrap(), None);
        let keys: Vec<&str> = p.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "event_type",
                "tool_name",
                "tool_input",
                "tool_response",
                "message",
                "session_id",
                "working_dir",
                "metadata"
            ]
        );
        assert_eq!(
            Value::Object(p),
            json!({"event_type": "PreToolUse", "tool_name": "terminal", "tool_input": {"command": "ls"},
                   "tool_response": null, "message": null, "session_id": "s-1", "working_dir": "/w", "metadata": {}})
        );
    }

    /// `run_user_prompt_submit(message=...)`; `run_stop(reason)`:
    /// `metadata={"reason": reason} if reason else {}`.
    #[test]
    fn the_prompt_is_the_message_and_a_stop_reason_is_metadata() {
        let p = payload(
            &RunEvent::Known(HookEvent::UserPromptSubmit),
            &facts(),
            json!({"prompt": "deploy"}).as_object().unwrap(),
            None,
        );
        assert_eq!((p["event_type"].as_str(), p["message"].as_str()), (Some("UserPromptSubmit"), Some("deploy")));
        assert!(!p.contains_key("prompt") && !p.contains_key("hook_event_name"));
        let p =
            payload(&RunEvent::Known(HookEvent::Stop), &facts(), json!({"reason": "done"}).as_object().unwrap(), None);
        assert_eq!(p["metadata"], json!({"reason": "done"}));
        assert_eq!(p["tool_name"], Value::Null);
    }
}
