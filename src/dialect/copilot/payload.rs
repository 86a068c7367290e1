//! Copilot CLI's payloads: what a hook reads on stdin.
//!
//! Entries configured under camelCase keys get the camelCase payload:
//! `sessionId`, `timestamp` (epoch milliseconds, a number), `cwd`, then the
//! event's fields — for tool events `toolName` (the runtime name: a Claude
//! Code name the host gives, `Bash`, is Copilot CLI's `bash`) and
//! `toolArgs`, the tool's arguments as a JSON-encoded **string**. Entries
//! configured under PascalCase keys get the "VS Code compatible" payload:
//! `hook_event_name`, `session_id`, `timestamp` (ISO 8601), `cwd`, then
//! snake_case fields, with `tool_name` the Claude tool name and
//! `tool_input` an object; SubagentStart, PermissionRequest and
//! Notification keep the camelCase shape there too, as in Copilot CLI.
//!
//! Canonical input fields map to Copilot CLI's (the table in
//! `docs/dialects.md`); input fields with no Copilot CLI counterpart that
//! are not canonical ones pass through unchanged, so a host can send the
//! vendor's own extra fields (`agentDescription`, `errorContext`, …).

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};

use super::{claude_name, runtime_name};
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::SessionFacts;

/// Milliseconds since the Unix epoch, now.
pub(crate) fn epoch_millis() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// An epoch-milliseconds time as ISO 8601 UTC with milliseconds
/// (`2026-02-09T10:30:00.000Z`, what JavaScript's `toISOString` gives).
pub(crate) fn iso8601(millis: u64) -> String {
    let secs = millis / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        millis % 1000
    )
}

/// The `source` of a SessionStart: `resume` when resuming, else `new`.
fn session_source(trigger: &str) -> &'static str {
    match trigger {
        "resume" => "resume",
        _ => "new",
    }
}

/// A SessionEnd `reason` in Copilot CLI's words.
fn end_reason(reason: &str) -> &str {
    match reason {
        "completed" => "complete",
        "cancelled" => "abort",
        "exit" | "new_session" => "user_exit",
        other => other,
    }
}

/// The tool's arguments as Copilot CLI hands them: the JSON text of the
/// arguments object (`{}` when there are none).
fn tool_args(tool_input: Option<&Value>) -> Value {
    match tool_input {
        None | Some(Value::Null) => Value::String("{}".to_owned()),
        Some(v) => Value::String(v.to_string()),
    }
}

/// A tool result as text for the model: a string as it is, anything else
/// as its JSON text.
fn result_text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// The canonical input fields each event's payload maps (or drops); every
/// other input field passes through.
fn consumed(event: HookEvent) -> &'static [&'static str] {
    match event {
        HookEvent::SessionStart => &["source", "initial_prompt"],
        HookEvent::SessionEnd => &["turn_id", "reason"],
        HookEvent::UserPromptSubmit => &["turn_id", "prompt"],
        HookEvent::PreToolUse => &["tool_name", "tool_input", "tool_call_id"],
        HookEvent::PostToolUse => &["tool_name", "tool_input", "tool_call_id", "tool_response"],
        HookEvent::PostToolUseFailure => &["tool_name", "tool_input", "tool_call_id", "error"],
        HookEvent::PermissionRequest => &["tool_name", "tool_input", "permission_request", "permission_suggestions"],
        HookEvent::Stop => &["last_assistant_message", "stop_hook_active", "stop_reason"],
        HookEvent::SubagentStart | HookEvent::SubagentStop => &[
            "parent_session_id",
            "child_thread_id",
            "agent_name",
            "display_label",
            "background",
            "status",
            "transcript_path",
            "agent_description",
            "agent_id",
            "agent_type",
            "response",
            "last_assistant_message",
            "stop_reason",
        ],
        HookEvent::PreCompact => &[
            "trigger",
            "mode",
            "original_message_count",
            "compacted_message_count",
            "history_artifact_path",
            "custom_instructions",
        ],
        HookEvent::Notification => &["notification_type", "title", "message"],
    }
}

/// The engine's own keys, never taken from the input.
const OWN: &[&str] = &["sessionId", "session_id", "timestamp", "cwd", "hook_event_name", "hookName", "matcher_value"];

/// The payload of `event` for an entry configured under a camelCase key
/// (`compat` false) or a PascalCase one.
pub(crate) fn payload(
    compat: bool,
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
) -> Map<String, Value> {
    let now = epoch_millis();
    let Some(known) = event.known() else {
        return named(compat, event.name(), facts, input, now);
    };
    let camel_only = matches!(known, HookEvent::SubagentStart | HookEvent::PermissionRequest | HookEvent::Notification);
    let mut p = if compat && !camel_only {
        snake(known, facts, input, tool_input, now)
    } else {
        camel(known, facts, input, tool_input, now)
    };
    let skip = consumed(known);
    for (k, v) in input {
        if !skip.contains(&k.as_str()) && !OWN.contains(&k.as_str()) && !p.contains_key(k) {
            p.insert(k.clone(), v.clone());
        }
    }
    p
}

fn str_field<'a>(input: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    input.get(key).and_then(Value::as_str)
}

fn text(input: &Map<String, Value>, key: &str) -> Value {
    Value::String(str_field(input, key).unwrap_or("").to_owned())
}

fn transcript(facts: &SessionFacts<'_>, input: &Map<String, Value>) -> Value {
    match input.get("transcript_path") {
        Some(Value::String(t)) => Value::String(t.clone()),
        _ => Value::String(facts.transcript_path.unwrap_or("").to_owned()),
    }
}

fn compaction_trigger(input: &Map<String, Value>) -> Value {
    Value::String(if str_field(input, "trigger") == Some("manual") { "manual" } else { "auto" }.to_owned())
}

fn camel(
    event: HookEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
    now: u64,
) -> Map<String, Value> {
    let mut p = Map::with_capacity(input.len() + 6);
    p.insert("sessionId".into(), Value::String(facts.session_id.to_owned()));
    p.insert("timestamp".into(), Value::from(now));
    p.insert("cwd".into(), Value::String(facts.cwd.to_owned()));
    let tool = || Value::String(runtime_name(str_field(input, "tool_name").unwrap_or("")).to_owned());
    let args = || tool_args(tool_input.or_else(|| input.get("tool_input")));
    match event {
        HookEvent::SessionStart => {
            p.insert("source".into(), Value::String(session_source(facts.trigger).to_owned()));
            if let Some(prompt) = input.get("initial_prompt").or_else(|| input.get("initialPrompt")) {
                p.insert("initialPrompt".into(), prompt.clone());
            }
        }
        HookEvent::SessionEnd => {
            p.insert("reason".into(), Value::String(end_reason(str_field(input, "reason").unwrap_or("")).to_owned()));
        }
        HookEvent::UserPromptSubmit => {
            p.insert("prompt".into(), text(input, "prompt"));
        }
        HookEvent::PreToolUse => {
            p.insert("toolName".into(), tool());
            p.insert("toolArgs".into(), args());
        }
        HookEvent::PostToolUse => {
            p.insert("toolName".into(), tool());
            p.insert("toolArgs".into(), args());
            p.insert(
                "toolResult".into(),
                json!({"resultType": "success", "textResultForLlm": result_text(input.get("tool_response"))}),
            );
        }
        HookEvent::PostToolUseFailure => {
            p.insert("toolName".into(), tool());
            p.insert("toolArgs".into(), args());
            p.insert("error".into(), text(input, "error"));
        }
        HookEvent::Stop => {
            p.insert("transcriptPath".into(), transcript(facts, input));
            p.insert(
                "stopReason".into(),
                Value::String(str_field(input, "stop_reason").unwrap_or("end_turn").to_owned()),
            );
            p.insert(
                "stop_hook_active".into(),
                Value::Bool(input.get("stop_hook_active").and_then(Value::as_bool).unwrap_or(false)),
            );
        }
        HookEvent::SubagentStart => {
            p.insert("transcriptPath".into(), transcript(facts, input));
            p.insert("agentName".into(), text(input, "agent_name"));
            if let Some(label) = input.get("display_label").filter(|v| v.is_string()) {
                p.insert("agentDisplayName".into(), label.clone());
            }
            if let Some(description) = input.get("agent_description").filter(|v| v.is_string()) {
                p.insert("agentDescription".into(), description.clone());
            }
        }
        HookEvent::SubagentStop => {
            p.insert("transcriptPath".into(), transcript(facts, input));
            p.insert("agentId".into(), Value::String(agent_id(input).to_owned()));
            p.insert("agentType".into(), Value::String(agent_type(input).to_owned()));
            p.insert("agentName".into(), text(input, "agent_name"));
            if let Some(label) = input.get("display_label").filter(|v| v.is_string()) {
                p.insert("agentDisplayName".into(), label.clone());
            }
            p.insert("response".into(), Value::String(response(input).to_owned()));
            p.insert(
                "stopReason".into(),
                Value::String(str_field(input, "stop_reason").unwrap_or("end_turn").to_owned()),
            );
        }
        HookEvent::PreCompact => {
            p.insert("transcriptPath".into(), transcript(facts, input));
            p.insert("trigger".into(), compaction_trigger(input));
            p.insert("customInstructions".into(), text(input, "custom_instructions"));
        }
        HookEvent::PermissionRequest => {
            p.insert("hookName".into(), Value::String("permissionRequest".into()));
            p.insert("toolName".into(), tool());
            let input_obj = match tool_input.or_else(|| input.get("tool_input")) {
                Some(v @ Value::Object(_)) => v.clone(),
                _ => Value::Object(Map::new()),
            };
            p.insert("toolInput".into(), input_obj);
            let suggestions = match input.get("permission_suggestions") {
                Some(v @ Value::Array(_)) => v.clone(),
                _ => Value::Array(Vec::new()),
            };
            p.insert("permissionSuggestions".into(), suggestions);
        }
        HookEvent::Notification => {
            p.insert("hook_event_name".into(), Value::String("Notification".into()));
            p.insert("message".into(), text(input, "message"));
            if let Some(title) = input.get("title").filter(|v| v.is_string()) {
                p.insert("title".into(), title.clone());
            }
            p.insert("notification_type".into(), text(input, "notification_type"));
        }
    }
    p
}

fn agent_id(input: &Map<String, Value>) -> &str {
    str_field(input, "agent_id").or_else(|| str_field(input, "child_thread_id")).unwrap_or("")
}

fn agent_type(input: &Map<String, Value>) -> &str {
    str_field(input, "agent_type").or_else(|| str_field(input, "agent_name")).unwrap_or("")
}

fn response(input: &Map<String, Value>) -> &str {
    str_field(input, "response").or_else(|| str_field(input, "last_assistant_message")).unwrap_or("")
}

/// The "VS Code compatible" payload of an entry under a PascalCase key.
fn snake(
    event: HookEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
    now: u64,
) -> Map<String, Value> {
    let mut p = Map::with_capacity(input.len() + 6);
    p.insert("hook_event_name".into(), Value::String(event.name().to_owned()));
    p.insert("session_id".into(), Value::String(facts.session_id.to_owned()));
    p.insert("timestamp".into(), Value::String(iso8601(now)));
    p.insert("cwd".into(), Value::String(facts.cwd.to_owned()));
    let tool = || Value::String(claude_name(runtime_name(str_field(input, "tool_name").unwrap_or(""))).to_owned());
    let args = || match tool_input.or_else(|| input.get("tool_input")) {
        Some(v @ Value::Object(_)) => v.clone(),
        _ => Value::Object(Map::new()),
    };
    match event {
        HookEvent::SessionStart => {
            p.insert("source".into(), Value::String(session_source(facts.trigger).to_owned()));
            if let Some(prompt) = input.get("initial_prompt") {
                p.insert("initial_prompt".into(), prompt.clone());
            }
        }
        HookEvent::SessionEnd => {
            p.insert("reason".into(), Value::String(end_reason(str_field(input, "reason").unwrap_or("")).to_owned()));
        }
        HookEvent::UserPromptSubmit => {
            p.insert("prompt".into(), text(input, "prompt"));
        }
        HookEvent::PreToolUse => {
            p.insert("tool_name".into(), tool());
            p.insert("tool_input".into(), args());
        }
        HookEvent::PostToolUse => {
            p.insert("tool_name".into(), tool());
            p.insert("tool_input".into(), args());
            p.insert(
                "tool_result".into(),
                json!({"result_type": "success", "text_result_for_llm": result_text(input.get("tool_response"))}),
            );
        }
        HookEvent::PostToolUseFailure => {
            p.insert("tool_name".into(), tool());
            p.insert("tool_input".into(), args());
            p.insert("error".into(), text(input, "error"));
        }
        HookEvent::Stop => {
            p.insert("transcript_path".into(), transcript(facts, input));
            p.insert(
                "stop_reason".into(),
                Value::String(str_field(input, "stop_reason").unwrap_or("end_turn").to_owned()),
            );
            p.insert(
                "stop_hook_active".into(),
                Value::Bool(input.get("stop_hook_active").and_then(Value::as_bool).unwrap_or(false)),
            );
        }
        HookEvent::SubagentStop => {
            p.insert("transcript_path".into(), transcript(facts, input));
            p.insert("agent_id".into(), Value::String(agent_id(input).to_owned()));
            p.insert("agent_type".into(), Value::String(agent_type(input).to_owned()));
            p.insert("agent_name".into(), text(input, "agent_name"));
            if let Some(label) = input.get("display_label").filter(|v| v.is_string()) {
                p.insert("agent_display_name".into(), label.clone());
            }
            p.insert("last_assistant_message".into(), Value::String(response(input).to_owned()));
            p.insert(
                "stop_reason".into(),
                Value::String(str_field(input, "stop_reason").unwrap_or("end_turn").to_owned()),
            );
        }
        HookEvent::PreCompact => {
            p.insert("transcript_path".into(), transcript(facts, input));
            p.insert("trigger".into(), compaction_trigger(input));
            p.insert("custom_instructions".into(), text(input, "custom_instructions"));
        }
        // The camelCase shape (see `payload`).
        HookEvent::SubagentStart | HookEvent::PermissionRequest | HookEvent::Notification => {}
    }
    p
}

/// The payload of an event fired by name (`errorOccurred`,
/// `userPromptTransformed`, `preMcpToolCall`): the common fields, then the
/// input's fields as the host gave them.
fn named(
    compat: bool,
    name: &str,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    now: u64,
) -> Map<String, Value> {
    let mut p = Map::with_capacity(input.len() + 4);
    if compat {
        let mut pascal = name.to_owned();
        if let Some(first) = pascal.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        p.insert("hook_event_name".into(), Value::String(pascal));
        p.insert("session_id".into(), Value::String(facts.session_id.to_owned()));
        p.insert("timestamp".into(), Value::String(iso8601(now)));
    } else {
        p.insert("sessionId".into(), Value::String(facts.session_id.to_owned()));
        p.insert("timestamp".into(), Value::from(now));
    }
    p.insert("cwd".into(), Value::String(facts.cwd.to_owned()));
    for (k, v) in input {
        if !OWN.contains(&k.as_str()) {
            // The "VS Code compatible" ErrorOccurred payload names the
            // error's context in snake_case.
            let key = match (compat, name, k.as_str()) {
                (true, "errorOccurred", "errorContext") => "error_context".to_owned(),
                _ => k.clone(),
            };
            p.insert(key, v.clone());
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> SessionFacts<'static> {
        SessionFacts { session_id: "s-1", cwd: "/repo", transcript_path: Some("/t.jsonl"), trigger: "startup" }
    }

    #[test]
    fn iso_timestamps_are_what_javascript_prints() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(1_770_633_000_123), "2026-02-09T10:30:00.123Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn camel_pre_tool_use_has_runtime_names_and_tool_args_as_a_string() {
        let input = json!({"tool_name": "Bash", "tool_input": {"command": "ls -la"}, "tool_call_id": "c1"});
        let p = payload(false, &RunEvent::Known(HookEvent::PreToolUse), &facts(), input.as_object().unwrap(), None);
        assert_eq!(p["sessionId"], "s-1");
        assert!(p["timestamp"].is_u64());
        assert_eq!(p["toolName"], "bash");
        assert_eq!(p["toolArgs"], r#"{"command":"ls -la"}"#);
        assert!(!p.contains_key("tool_input") && !p.contains_key("tool_call_id"));
    }

    #[test]
    fn pascal_pre_tool_use_has_claude_names_and_an_object() {
        let input = json!({"tool_name": "bash", "tool_input": {"command": "ls"}});
        let p = payload(true, &RunEvent::Known(HookEvent::PreToolUse), &facts(), input.as_object().unwrap(), None);
        assert_eq!(p["hook_event_name"], "PreToolUse");
        assert_eq!(p["session_id"], "s-1");
        assert!(p["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')));
        assert_eq!(p["tool_name"], "Bash");
        assert_eq!(p["tool_input"], json!({"command": "ls"}));
    }

    /// "ErrorOccurred `error`, `error_context`, `recoverable`" in the VS Code
    /// compatible payload; the camelCase one keeps `errorContext`.
    #[test]
    fn pascal_error_occurred_names_its_context_in_snake_case() {
        let input =
            json!({"error": {"message": "m", "name": "Error"}, "errorContext": "model_call", "recoverable": true});
        let event = RunEvent::Named("errorOccurred".into());
        let p = payload(true, &event, &facts(), input.as_object().unwrap(), None);
        assert_eq!(p["hook_event_name"], "ErrorOccurred");
        assert_eq!(p["error_context"], "model_call");
        assert!(!p.contains_key("errorContext"));
        assert_eq!(p["recoverable"], true);
        let p = payload(false, &event, &facts(), input.as_object().unwrap(), None);
        assert_eq!(p["errorContext"], "model_call");
        assert!(!p.contains_key("error_context"));
    }

    #[test]
    fn permission_request_keeps_its_camel_shape_under_pascal_keys() {
        let input = json!({"tool_name": "bash", "tool_input": {"command": "ls"}, "permission_request": {}});
        let p =
            payload(true, &RunEvent::Known(HookEvent::PermissionRequest), &facts(), input.as_object().unwrap(), None);
        assert_eq!(p["hookName"], "permissionRequest");
        assert_eq!(p["toolInput"], json!({"command": "ls"}));
        assert_eq!(p["permissionSuggestions"], json!([]));
    }
}
