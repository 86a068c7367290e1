//! The payload a Gemini CLI hook reads on stdin: compact JSON (no trailing
//! newline), the base fields of every event first — `session_id`,
//! `transcript_path` (`""` when there is none, never null), `cwd`,
//! `hook_event_name` (Gemini's name), `timestamp` (ISO 8601, UTC, in
//! milliseconds) — then the event's fields by Gemini's names, then every
//! other input field, passed through unchanged.
//!
//! | event | fields (from the canonical input) |
//! |---|---|
//! | BeforeTool | `tool_name`, `tool_input` (`{}` when absent or null), `mcp_context` and `original_request_name` when given |
//! | AfterTool (PostToolUse) | the same and `tool_response` (an object as given, anything else as `{"llmContent", "returnDisplay"}` of it, without `error`) |
//! | AfterTool (PostToolUseFailure) | the same, `tool_response` `{"llmContent": "", "returnDisplay": "", "error": {"message": <error>}}` |
//! | BeforeAgent | `prompt` |
//! | AfterAgent | `prompt` (the turn's request, when given), `prompt_response` (else `last_assistant_message`; `[no response text]` when both are empty), `stop_hook_active` |
//! | SessionStart | `source` (the engine's trigger) |
//! | SessionEnd | `reason` |
//! | PreCompress | `trigger` |
//! | Notification | `notification_type` (`ToolPermission`, Gemini CLI's only kind, when absent), `message`, `details` (`{}` when absent) |
//! | BeforeModel, AfterModel, BeforeToolSelection | the input as given (`llm_request`, `llm_response`) |

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::event_name;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::SessionFacts;

/// AfterAgent's `prompt_response` when the turn produced no text.
const NO_RESPONSE_TEXT: &str = "[no response text]";

/// The fields of the engine that no input overrides.
const BASE: &[&str] = &["session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"];

/// The payload of `event`.
pub(super) fn payload(event: &RunEvent, facts: &SessionFacts<'_>, input: &Map<String, Value>) -> Map<String, Value> {
    let mut p = Map::with_capacity(input.len() + 8);
    p.insert("session_id".into(), Value::from(facts.session_id));
    p.insert("transcript_path".into(), Value::from(facts.transcript_path.unwrap_or("")));
    p.insert("cwd".into(), Value::from(facts.cwd));
    p.insert("hook_event_name".into(), Value::from(event_name(event)));
    p.insert("timestamp".into(), Value::from(timestamp(SystemTime::now())));
    let get = |key: &str| input.get(key).filter(|v| !v.is_null());
    let text = |key: &str| Value::from(get(key).and_then(Value::as_str).unwrap_or(""));
    let mut consumed: &[&str] = &[];
    let tool = |p: &mut Map<String, Value>| {
        p.insert("tool_name".into(), text("tool_name"));
        p.insert("tool_input".into(), get("tool_input").cloned().unwrap_or_else(|| Value::Object(Map::new())));
    };
    let tool_context = |p: &mut Map<String, Value>| {
        for key in ["mcp_context", "original_request_name"] {
            if let Some(v) = get(key) {
                p.insert(key.into(), v.clone());
            }
        }
    };
    match event.known() {
        Some(HookEvent::PreToolUse) => {
            tool(&mut p);
            tool_context(&mut p);
        }
        Some(HookEvent::PostToolUse) => {
            tool(&mut p);
            // A successful tool has no `error`: JSON.stringify leaves out
            // Gemini CLI's undefined `error`.
            let response = match get("tool_response") {
                Some(r @ Value::Object(_)) => r.clone(),
                Some(other) => tool_response(other.clone(), other.clone(), None),
                None => tool_response(Value::from(""), Value::from(""), None),
            };
            p.insert("tool_response".into(), response);
            tool_context(&mut p);
        }
        Some(HookEvent::PostToolUseFailure) => {
            tool(&mut p);
            let mut error = Map::new();
            error.insert("message".into(), text("error"));
            p.insert(
                "tool_response".into(),
                tool_response(Value::from(""), Value::from(""), Some(Value::Object(error))),
            );
            tool_context(&mut p);
            consumed = &["error"];
        }
        Some(HookEvent::UserPromptSubmit) => {
            p.insert("prompt".into(), text("prompt"));
        }
        Some(HookEvent::Stop) => {
            p.insert("prompt".into(), text("prompt"));
            // Gemini CLI's accumulated response text: the host's
            // `prompt_response` when it gives that text, else the canonical
            // `last_assistant_message`; an empty or missing text is Gemini
            // CLI's `[no response text]` (never null, never "").
            let response = ["prompt_response", "last_assistant_message"]
                .into_iter()
                .find_map(|key| get(key).and_then(Value::as_str).filter(|s| !s.is_empty()))
                .unwrap_or(NO_RESPONSE_TEXT);
            p.insert("prompt_response".into(), Value::from(response));
            p.insert("stop_hook_active".into(), Value::from(get("stop_hook_active") == Some(&Value::Bool(true))));
            consumed = &["last_assistant_message"];
        }
        Some(HookEvent::SessionStart) => {
            p.insert("source".into(), Value::from(facts.trigger));
            consumed = &["source"];
        }
        Some(HookEvent::SessionEnd) => {
            p.insert("reason".into(), text("reason"));
        }
        Some(HookEvent::PreCompact) => {
            p.insert("trigger".into(), text("trigger"));
        }
        Some(HookEvent::Notification) => {
            // Gemini CLI fires Notification for one kind only.
            let kind = get("notification_type").and_then(Value::as_str).filter(|s| !s.is_empty());
            p.insert("notification_type".into(), Value::from(kind.unwrap_or("ToolPermission")));
            p.insert("message".into(), text("message"));
            p.insert("details".into(), get("details").cloned().unwrap_or_else(|| Value::Object(Map::new())));
        }
        _ => {}
    }
    for (k, v) in input {
        if !BASE.contains(&k.as_str()) && !consumed.contains(&k.as_str()) && !p.contains_key(k) {
            p.insert(k.clone(), v.clone());
        }
    }
    p
}

/// Gemini CLI's `tool_response` shape (`error` only for a failed tool).
fn tool_response(llm_content: Value, return_display: Value, error: Option<Value>) -> Value {
    let mut r = Map::new();
    r.insert("llmContent".into(), llm_content);
    r.insert("returnDisplay".into(), return_display);
    if let Some(error) = error {
        r.insert("error".into(), error);
    }
    Value::Object(r)
}

/// `time` as JavaScript's `Date.prototype.toISOString` writes it:
/// `2026-12-02T06:24:30.123Z`.
pub(crate) fn timestamp(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = i64::try_from(days).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_javascript_iso_strings() {
        assert_eq!(timestamp(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        assert_eq!(timestamp(UNIX_EPOCH + Duration::from_millis(951_782_400_123)), "2000-02-29T00:00:00.123Z");
        assert_eq!(timestamp(UNIX_EPOCH + Duration::from_secs(1_796_193_870)), "2026-12-02T06:44:30.000Z");
    }
}
