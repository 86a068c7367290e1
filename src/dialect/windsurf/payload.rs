//! The JSON a Cascade hook reads on stdin: the common fields, then
//! `tool_info`, then the input's other fields.
//!
//! | field | value |
//! |---|---|
//! | `agent_action_name` | the event's Cascade name (`pre_run_command`, `pre_user_prompt`) |
//! | `trajectory_id` | the input's, else the engine's session id |
//! | `execution_id` | the input's, else a new id per payload |
//! | `timestamp` | the input's, else now (ISO 8601, UTC, `+00:00`) |
//! | `model_name` | the input's `model_name`, else its `model`, else `""` |
//! | `tool_info` | the input's `tool_info` as it is, else built from a canonical input (below) |
//!
//! `tool_info` from a canonical input, by the tool's Claude Code name:
//!
//! | event | `tool_info` |
//! |---|---|
//! | pre_user_prompt (UserPromptSubmit) | `{user_prompt}` ← `prompt` |
//! | `*_run_command` (`Bash`) | `{command_line, cwd}` ← `tool_input.command`, the input's `cwd` (else the workspace) |
//! | `*_read_code` (`Read`) | `{file_path}` |
//! | `*_write_code` (`Write`, `Edit`, `MultiEdit`, `NotebookEdit`) | `{file_path, edits: [{old_string, new_string}]}` (`Write`: `old_string` empty, `new_string` the content) |
//! | `*_mcp_tool_use` (`mcp__<server>__<tool>`) | `{mcp_server_name, mcp_tool_name, mcp_tool_arguments}`; post: `mcp_result` ← `tool_response` as text |
//!
//! The canonical fields the table consumed (`tool_name`, `tool_input`,
//! `tool_response`, `prompt`, …) are not passed on; every other input field
//! is, unless it would replace a field above.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};

use super::{event_name, tool_kind};
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::SessionFacts;

/// The payload of `event` for a Cascade hook (see the module documentation).
pub(crate) fn payload(
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
) -> Map<String, Value> {
    let text = |key: &str| input.get(key).and_then(Value::as_str);
    let name = event_name(event);
    let mut out = Map::new();
    out.insert("agent_action_name".into(), json!(name));
    out.insert("trajectory_id".into(), json!(text("trajectory_id").unwrap_or(facts.session_id)));
    let execution_id = match text("execution_id") {
        Some(id) => id.to_owned(),
        None => new_execution_id(),
    };
    out.insert("execution_id".into(), json!(execution_id));
    let timestamp = match text("timestamp") {
        Some(t) => t.to_owned(),
        None => iso8601_utc(SystemTime::now()),
    };
    out.insert("timestamp".into(), json!(timestamp));
    out.insert("model_name".into(), json!(text("model_name").or_else(|| text("model")).unwrap_or("")));
    let (tool_info, consumed) = match input.get("tool_info") {
        Some(info @ Value::Object(_)) => (info.clone(), &[][..]),
        _ => tool_info(event, name, facts, input, tool_input),
    };
    out.insert("tool_info".into(), tool_info);
    for (key, value) in input {
        if !out.contains_key(key) && !consumed.contains(&key.as_str()) && key != "model" {
            out.insert(key.clone(), value.clone());
        }
    }
    out
}

/// The canonical fields a `tool_info` is built from.
const TOOL_CALL: &[&str] = &["tool_name", "tool_input", "tool_response", "tool_use_id", "tool_call_id", "cwd"];

/// `tool_info` built from a canonical input, and the input fields used.
fn tool_info(
    event: &RunEvent,
    name: &str,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
) -> (Value, &'static [&'static str]) {
    if event.known() == Some(HookEvent::UserPromptSubmit) {
        let prompt = input.get("prompt").cloned().unwrap_or(json!(""));
        return (json!({"user_prompt": prompt}), &["prompt"]);
    }
    let tool_name = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
    let args = match tool_input.or_else(|| input.get("tool_input")) {
        Some(v @ Value::Object(_)) => v.clone(),
        _ => json!({}),
    };
    let arg = |key: &str| args.get(key).cloned().unwrap_or(json!(""));
    let post = name.starts_with("post_");
    // The kind of action the event is for; the tool's, for a canonical event.
    let kind =
        name.split_once('_').map(|(_, k)| k).filter(|k| super::TOOLS.contains(k)).or_else(|| tool_kind(tool_name));
    let info = match kind {
        Some("run_command") => {
            let cwd = args.get("cwd").or_else(|| input.get("cwd")).and_then(Value::as_str).unwrap_or(facts.cwd);
            json!({"command_line": arg("command"), "cwd": cwd})
        }
        Some("read_code") => json!({"file_path": arg("file_path")}),
        Some("write_code") => {
            // By the input's shape, so that a call named `write_code` (mapped
            // by the engine) reads as one named `Write` or `Edit`.
            let edits = match (tool_name, args.get("edits")) {
                (_, Some(Value::Array(edits))) => edits
                    .iter()
                    .map(|e| {
                        json!({
                            "old_string": e.get("old_string").cloned().unwrap_or(json!("")),
                            "new_string": e.get("new_string").cloned().unwrap_or(json!("")),
                        })
                    })
                    .collect(),
                _ if args.get("content").is_some() => vec![json!({"old_string": "", "new_string": arg("content")})],
                _ if args.get("new_source").is_some() => {
                    vec![json!({"old_string": "", "new_string": arg("new_source")})]
                }
                _ => vec![json!({"old_string": arg("old_string"), "new_string": arg("new_string")})],
            };
            let path = args.get("file_path").or_else(|| args.get("notebook_path")).cloned().unwrap_or(json!(""));
            json!({"file_path": path, "edits": edits})
        }
        Some("mcp_tool_use") => {
            let (server, tool) = mcp_parts(tool_name);
            let mut info = json!({"mcp_server_name": server, "mcp_tool_name": tool, "mcp_tool_arguments": args});
            if post {
                let result = match input.get("tool_response") {
                    Some(Value::String(s)) => json!(s),
                    Some(v) => json!(v.to_string()),
                    None => json!(""),
                };
                info["mcp_result"] = result;
            }
            info
        }
        _ => return (json!({}), &[]),
    };
    (info, TOOL_CALL)
}

/// `mcp__<server>__<tool>` → (server, tool); a name without the prefix is
/// the tool of an unnamed server.
fn mcp_parts(tool_name: &str) -> (&str, &str) {
    match tool_name.strip_prefix("mcp__").and_then(|rest| rest.split_once("__")) {
        Some((server, tool)) => (server, tool),
        None => ("", tool_name.strip_prefix("mcp__").unwrap_or(tool_name)),
    }
}

/// A new `execution_id`: unique within the process and across runs.
fn new_execution_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("hl-{nanos:x}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A time as ISO 8601 in UTC with an explicit offset and milliseconds
/// (`2026-12-05T10:00:00.123+00:00`).
fn iso8601_utc(t: SystemTime) -> String {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs() as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, day) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{day:02}T{:02}:{:02}:{:02}.{:03}+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_millis()
    )
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian
/// (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = (if mp < 10 { mp + 3 } else { mp - 9 }) as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> SessionFacts<'static> {
        SessionFacts { session_id: "s1", cwd: "/ws", transcript_path: None, trigger: "startup" }
    }

    fn of(event: RunEvent, input: Value) -> Map<String, Value> {
        payload(&event, &facts(), input.as_object().unwrap(), None)
    }

    #[test]
    fn a_named_event_passes_tool_info_on_and_adds_the_common_fields() {
        let p = of(
            RunEvent::Named("pre_read_code".into()),
            json!({"tool_info": {"file_path": "/ws/a.rs"}, "model_name": "swe-1"}),
        );
        assert_eq!(p["agent_action_name"], "pre_read_code");
        assert_eq!(p["trajectory_id"], "s1");
        assert_eq!(p["model_name"], "swe-1");
        assert_eq!(p["tool_info"], json!({"file_path": "/ws/a.rs"}));
        assert!(p["execution_id"].as_str().is_some_and(|s| !s.is_empty()));
        let ts = p["timestamp"].as_str().unwrap();
        assert!(ts.ends_with("+00:00") && ts.len() == 29, "{ts}");
    }

    #[test]
    fn canonical_inputs_become_cascade_tool_info() {
        let prompt = of(RunEvent::Known(HookEvent::UserPromptSubmit), json!({"prompt": "hi"}));
        assert_eq!(prompt["agent_action_name"], "pre_user_prompt");
        assert_eq!(prompt["tool_info"], json!({"user_prompt": "hi"}));
        assert!(!prompt.contains_key("prompt"));
        let bash = of(
            RunEvent::Named("pre_run_command".into()),
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
        );
        assert_eq!(bash["tool_info"], json!({"command_line": "ls", "cwd": "/ws"}));
        assert!(!bash.contains_key("tool_name"));
        let write = of(
            RunEvent::Named("pre_write_code".into()),
            json!({"tool_name": "Write", "tool_input": {"file_path": "/ws/a", "content": "x"}}),
        );
        assert_eq!(write["tool_info"], json!({"file_path": "/ws/a", "edits": [{"old_string": "", "new_string": "x"}]}));
        let mcp = of(
            RunEvent::Named("post_mcp_tool_use".into()),
            json!({"tool_name": "mcp__github__get_issue", "tool_input": {"n": 1}, "tool_response": {"ok": true}}),
        );
        assert_eq!(
            mcp["tool_info"],
            json!({"mcp_server_name": "github", "mcp_tool_name": "get_issue", "mcp_tool_arguments": {"n": 1},
                   "mcp_result": "{\"ok\":true}"})
        );
    }

    #[test]
    fn the_timestamp_is_iso_8601_with_an_offset() {
        assert_eq!(iso8601_utc(UNIX_EPOCH), "1970-01-01T00:00:00.000+00:00");
        let t = UNIX_EPOCH + std::time::Duration::from_millis(1_796_000_000_123);
        assert_eq!(iso8601_utc(t), "2026-11-30T00:53:20.123+00:00");
    }
}
