//! The hooks protocol's payload: what a hook of the VT Code and Claude Code
//! dialects reads on stdin (`docs/protocol.md`).

use serde_json::{Map, Value};

use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::SessionFacts;

/// The payload of `event` (a known event or one fired by name).
pub(crate) fn payload(
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
) -> Map<String, Value> {
    match event {
        RunEvent::Known(e) => build_payload(*e, facts, input, tool_input),
        RunEvent::Named(name) => build_named_payload(name, facts, input),
    }
}

/// Build the payload a hook receives: the engine's fields
/// (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `source` for
/// SessionStart, `tool_use_id` for tool events) followed by every input
/// field, passed through unchanged. The engine's `session_id`, `cwd` and
/// `hook_event_name` cannot be overridden by the input; a Subagent input's
/// `transcript_path` replaces the session's. `tool_input_override` is the
/// PreToolUse `updatedInput` in force.
pub(crate) fn build_payload(
    event: HookEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input_override: Option<&Value>,
) -> Map<String, Value> {
    let mut p = Map::with_capacity(input.len() + 6);
    p.insert("session_id".into(), Value::String(facts.session_id.to_string()));
    let transcript = match (event, input.get("transcript_path")) {
        (HookEvent::SubagentStart | HookEvent::SubagentStop, Some(v)) => v.clone(),
        _ => facts.transcript_path.map_or(Value::Null, |s| Value::String(s.to_string())),
    };
    p.insert("transcript_path".into(), transcript);
    p.insert("cwd".into(), Value::String(facts.cwd.to_string()));
    p.insert("hook_event_name".into(), Value::String(event.name().to_string()));
    if event == HookEvent::SessionStart {
        p.insert("source".into(), Value::String(facts.trigger.to_owned()));
    }
    if event.is_tool_event() {
        p.insert("tool_use_id".into(), input.get("tool_call_id").cloned().unwrap_or(Value::Null));
    }
    for (k, v) in input {
        match k.as_str() {
            "session_id" | "cwd" | "hook_event_name" | "transcript_path" => {}
            "source" if event == HookEvent::SessionStart => {}
            "tool_input" if tool_input_override.is_some() => {}
            _ => {
                p.insert(k.clone(), v.clone());
            }
        }
    }
    if let Some(ti) = tool_input_override {
        p.insert("tool_input".into(), ti.clone());
    } else if event.is_tool_event() && !p.contains_key("tool_input") {
        p.insert("tool_input".into(), Value::Null);
    }
    p
}

/// The payload of an event fired by a name the profile does not know:
/// `session_id`, `transcript_path`, `cwd`, `hook_event_name` (the name),
/// then every input field except those four, passed through unchanged.
pub(crate) fn build_named_payload(
    name: &str,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
) -> Map<String, Value> {
    let mut p = Map::with_capacity(input.len() + 4);
    p.insert("session_id".into(), Value::String(facts.session_id.to_string()));
    p.insert("transcript_path".into(), facts.transcript_path.map_or(Value::Null, |s| Value::String(s.to_string())));
    p.insert("cwd".into(), Value::String(facts.cwd.to_string()));
    p.insert("hook_event_name".into(), Value::String(name.to_string()));
    for (k, v) in input {
        if !matches!(k.as_str(), "session_id" | "cwd" | "hook_event_name" | "transcript_path") {
            p.insert(k.clone(), v.clone());
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn payload_carries_engine_fields_and_passes_extras_through() {
        let facts = SessionFacts { session_id: "s-1", cwd: "/ws", transcript_path: None, trigger: "resume" };
        let input = json!({"tool_name":"Bash","tool_input":{"command":"ls"},"tool_call_id":"c1","permission_mode":"default","session_id":"evil"});
        let p = build_payload(HookEvent::PreToolUse, &facts, input.as_object().unwrap(), None);
        assert_eq!(p["session_id"], "s-1");
        assert_eq!(p["cwd"], "/ws");
        assert_eq!(p["hook_event_name"], "PreToolUse");
        assert_eq!(p["tool_use_id"], "c1");
        assert_eq!(p["permission_mode"], "default");
        assert_eq!(p["transcript_path"], Value::Null);
        let p = build_payload(HookEvent::SessionStart, &facts, &Map::new(), None);
        assert_eq!(p["source"], "resume");
    }
}
