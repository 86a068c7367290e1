//! The JSON a Cursor hook reads on stdin: Cursor's common fields, then the
//! event's own fields (snake_case), then the input's other fields.
//!
//! Common fields (every event but `workspaceOpen`, which has only
//! `hook_event_name`, `cursor_version`, `workspace_roots`, `user_email`):
//!
//! | field | value |
//! |---|---|
//! | `conversation_id`, `session_id` | the engine's session id |
//! | `generation_id` | the input's `generation_id`, else its `turn_id`, else `""` |
//! | `model` | the input's `model`, else `""` |
//! | `hook_event_name` | the camelCase Cursor name (`preToolUse`, `beforeShellExecution`) |
//! | `cursor_version` | the input's `cursor_version`, else `""` |
//! | `workspace_roots` | the input's `workspace_roots`, else `[<workspace>]` |
//! | `user_email` | the input's `user_email`, else null |
//! | `transcript_path` | the engine's transcript path, else null |
//!
//! Event fields from a canonical input (the names Cursor uses):
//!
//! | event | fields |
//! |---|---|
//! | preToolUse | `tool_name`, `tool_input` (the rewrite in force, else the input's, else `{}`), `tool_use_id` ← `tool_call_id`, `cwd` |
//! | postToolUse | the same, `tool_output` (the JSON text of `tool_response`; a string stays as it is), `duration` (ms) |
//! | postToolUseFailure | the same, `error_message` ← `error`, `failure_type` (default `error`), `duration`, `is_interrupt` |
//! | subagentStart | `subagent_id` ← `child_thread_id`, `subagent_type` ← `agent_name`, `task`, `parent_conversation_id` ← `parent_session_id`, `tool_call_id`, `subagent_model`, `is_parallel_worker` ← `background` |
//! | subagentStop | `subagent_type` ← `agent_name`, `status`, `task`, `description` ← `display_label`, `summary`, `duration_ms`, `message_count`, `tool_call_count`, `loop_count`, `modified_files`, `agent_transcript_path` ← `transcript_path` |
//! | stop | `status` (default `completed`), `loop_count` (the input's, else the engine's count) |
//! | sessionStart | `is_background_agent` (default false), `composer_mode` (default `agent`); the input's `source` is dropped (Cursor sends none) |
//! | sessionEnd | `reason` (completed → completed, cancelled → aborted, error → error, exit → window_close, new_session → user_close), `duration_ms`, `is_background_agent`, `final_status` |
//! | beforeSubmitPrompt | `prompt`, `attachments` (default `[]`) |
//! | preCompact | `trigger` (`manual`, else `auto`), `context_usage_percent`, `context_tokens`, `context_window_size`, `message_count` ← `original_message_count`, `messages_to_compact`, `is_first_compaction` |
//!
//! An event fired by its Cursor name reads the input as Cursor's own
//! fields. `beforeShellExecution` and `beforeMCPExecution` hooks running in
//! a PreToolUse get their fields from the tool call: `command` and `cwd`
//! from `tool_input` (`sandbox` false), and the MCP tool's name (without
//! `MCP:`) with `tool_input` as JSON text. Every input field the table does
//! not consume is passed on unchanged (it cannot replace a field above).

use serde_json::{json, Map, Value};

use super::event_name;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::SessionFacts;

/// The payload of `event` for a Cursor hook (see the module documentation).
pub(crate) fn payload(
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
) -> Map<String, Value> {
    let mut out = Map::new();
    let text = |key: &str| input.get(key).and_then(Value::as_str);
    let name = event_name(event);
    let app_event = name == "workspaceOpen";
    if !app_event {
        out.insert("conversation_id".into(), json!(facts.session_id));
        out.insert("generation_id".into(), json!(text("generation_id").or_else(|| text("turn_id")).unwrap_or("")));
        out.insert("model".into(), json!(text("model").unwrap_or("")));
    }
    out.insert("hook_event_name".into(), json!(name));
    out.insert("cursor_version".into(), json!(text("cursor_version").unwrap_or("")));
    let roots = match input.get("workspace_roots") {
        Some(roots @ Value::Array(_)) => roots.clone(),
        _ => json!([facts.cwd]),
    };
    out.insert("workspace_roots".into(), roots);
    out.insert("user_email".into(), input.get("user_email").cloned().unwrap_or(Value::Null));
    if !app_event {
        out.insert("transcript_path".into(), facts.transcript_path.map_or(Value::Null, |t| json!(t)));
        out.insert("session_id".into(), json!(facts.session_id));
    }
    let consumed: &[&str] = match event {
        RunEvent::Known(e) => canonical(*e, facts, input, tool_input, &mut out),
        RunEvent::Named(name) => native(name, facts, input, tool_input, &mut out),
    };
    for (key, value) in input {
        if !out.contains_key(key) && !consumed.contains(&key.as_str()) && !COMMON_INPUTS.contains(&key.as_str()) {
            out.insert(key.clone(), value.clone());
        }
    }
    out
}

/// Input fields the common fields consume.
const COMMON_INPUTS: &[&str] =
    &["turn_id", "generation_id", "model", "cursor_version", "workspace_roots", "user_email"];

/// The tool call's fields (preToolUse, postToolUse, postToolUseFailure).
fn tool_fields(
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
    out: &mut Map<String, Value>,
) {
    out.insert("tool_name".into(), input.get("tool_name").cloned().unwrap_or(json!("")));
    let tool_input = match tool_input.or_else(|| input.get("tool_input")) {
        Some(Value::Null) | None => json!({}),
        Some(v) => v.clone(),
    };
    out.insert("tool_input".into(), tool_input);
    let id = ["tool_call_id", "tool_use_id"].iter().find_map(|k| input.get(*k).and_then(Value::as_str));
    out.insert("tool_use_id".into(), json!(id.unwrap_or("")));
    out.insert("cwd".into(), json!(input.get("cwd").and_then(Value::as_str).unwrap_or(facts.cwd)));
}

/// A field of the input, else a default.
fn or(input: &Map<String, Value>, key: &str, default: Value) -> Value {
    match input.get(key) {
        None | Some(Value::Null) => default,
        Some(v) => v.clone(),
    }
}

/// The fields of a canonical event; returns the input fields it consumed.
fn canonical(
    event: HookEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
    out: &mut Map<String, Value>,
) -> &'static [&'static str] {
    match event {
        HookEvent::PreToolUse | HookEvent::PermissionRequest => {
            tool_fields(facts, input, tool_input, out);
            &["tool_call_id"]
        }
        HookEvent::PostToolUse => {
            tool_fields(facts, input, None, out);
            let output = match input.get("tool_response") {
                Some(Value::String(s)) => json!(s),
                Some(v) => json!(v.to_string()),
                None => json!(""),
            };
            out.insert("tool_output".into(), output);
            out.insert("duration".into(), or(input, "duration", json!(0)));
            &["tool_call_id", "tool_response"]
        }
        HookEvent::PostToolUseFailure => {
            tool_fields(facts, input, None, out);
            out.insert("error_message".into(), or(input, "error", json!("")));
            out.insert("failure_type".into(), or(input, "failure_type", json!("error")));
            out.insert("duration".into(), or(input, "duration", json!(0)));
            out.insert("is_interrupt".into(), or(input, "is_interrupt", json!(false)));
            &["tool_call_id", "error"]
        }
        HookEvent::SubagentStart => {
            out.insert("subagent_id".into(), or(input, "subagent_id", or(input, "child_thread_id", json!(""))));
            out.insert("subagent_type".into(), or(input, "subagent_type", or(input, "agent_name", json!(""))));
            out.insert("task".into(), or(input, "task", json!("")));
            out.insert(
                "parent_conversation_id".into(),
                or(input, "parent_conversation_id", or(input, "parent_session_id", json!(facts.session_id))),
            );
            out.insert("tool_call_id".into(), or(input, "tool_call_id", json!("")));
            out.insert("subagent_model".into(), or(input, "subagent_model", json!("")));
            out.insert(
                "is_parallel_worker".into(),
                or(input, "is_parallel_worker", or(input, "background", json!(false))),
            );
            &[
                "child_thread_id",
                "agent_name",
                "parent_session_id",
                "background",
                "display_label",
                "status",
                "transcript_path",
            ]
        }
        HookEvent::SubagentStop => {
            out.insert("subagent_type".into(), or(input, "subagent_type", or(input, "agent_name", json!(""))));
            out.insert("status".into(), or(input, "status", json!("completed")));
            out.insert("task".into(), or(input, "task", json!("")));
            out.insert("description".into(), or(input, "description", or(input, "display_label", json!(""))));
            out.insert("summary".into(), or(input, "summary", json!("")));
            out.insert("duration_ms".into(), or(input, "duration_ms", json!(0)));
            out.insert("message_count".into(), or(input, "message_count", json!(0)));
            out.insert("tool_call_count".into(), or(input, "tool_call_count", json!(0)));
            out.insert("loop_count".into(), or(input, "loop_count", json!(0)));
            out.insert("modified_files".into(), or(input, "modified_files", json!([])));
            out.insert(
                "agent_transcript_path".into(),
                or(input, "agent_transcript_path", or(input, "transcript_path", Value::Null)),
            );
            &["agent_name", "display_label", "transcript_path", "parent_session_id", "child_thread_id", "background"]
        }
        HookEvent::Stop => {
            out.insert("status".into(), or(input, "status", json!("completed")));
            out.insert("loop_count".into(), or(input, "loop_count", json!(0)));
            &["last_assistant_message", "stop_hook_active"]
        }
        HookEvent::SessionStart => {
            out.insert("is_background_agent".into(), or(input, "is_background_agent", json!(false)));
            out.insert("composer_mode".into(), or(input, "composer_mode", json!("agent")));
            // Cursor sends no `source` (Claude Code's startup/resume/clear):
            // a host's canonical `source` is not passed on.
            &["source"]
        }
        HookEvent::SessionEnd => {
            let reason = match input.get("reason").and_then(Value::as_str) {
                Some("cancelled") => "aborted",
                Some("exit") => "window_close",
                Some("new_session") => "user_close",
                Some(other) => other,
                None => "completed",
            };
            out.insert("reason".into(), json!(reason));
            out.insert("duration_ms".into(), or(input, "duration_ms", json!(0)));
            out.insert("is_background_agent".into(), or(input, "is_background_agent", json!(false)));
            out.insert("final_status".into(), or(input, "final_status", json!(reason)));
            &["reason"]
        }
        HookEvent::UserPromptSubmit => {
            out.insert("prompt".into(), or(input, "prompt", json!("")));
            out.insert("attachments".into(), or(input, "attachments", json!([])));
            &[]
        }
        HookEvent::PreCompact => {
            let trigger = match input.get("trigger").and_then(Value::as_str) {
                Some("manual") => "manual",
                _ => "auto",
            };
            out.insert("trigger".into(), json!(trigger));
            let original = input.get("original_message_count").and_then(Value::as_u64);
            let compacted = input.get("compacted_message_count").and_then(Value::as_u64);
            out.insert("context_usage_percent".into(), or(input, "context_usage_percent", json!(0)));
            out.insert("context_tokens".into(), or(input, "context_tokens", json!(0)));
            out.insert("context_window_size".into(), or(input, "context_window_size", json!(0)));
            out.insert("message_count".into(), or(input, "message_count", json!(original.unwrap_or(0))));
            let to_compact = match (original, compacted) {
                (Some(o), Some(c)) => o.saturating_sub(c),
                _ => 0,
            };
            out.insert("messages_to_compact".into(), or(input, "messages_to_compact", json!(to_compact)));
            out.insert("is_first_compaction".into(), or(input, "is_first_compaction", json!(false)));
            &["original_message_count", "compacted_message_count", "mode", "history_artifact_path"]
        }
        HookEvent::Notification => &[],
    }
}

/// The fields of an event fired by its Cursor name: the input's own; for
/// `beforeShellExecution` and `beforeMCPExecution` hooks running in a
/// PreToolUse, derived from the tool call.
fn native(
    name: &str,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
    out: &mut Map<String, Value>,
) -> &'static [&'static str] {
    let from_tool_call = input.get("tool_name").and_then(Value::as_str).is_some()
        && input.get("tool_input").is_some_and(Value::is_object);
    match name {
        "beforeShellExecution" if from_tool_call && !input.contains_key("command") => {
            let args = tool_input.or_else(|| input.get("tool_input")).cloned().unwrap_or(json!({}));
            out.insert("command".into(), args.get("command").cloned().unwrap_or(json!("")));
            let cwd = args
                .get("cwd")
                .or_else(|| args.get("working_directory"))
                .and_then(Value::as_str)
                .or_else(|| input.get("cwd").and_then(Value::as_str))
                .unwrap_or(facts.cwd);
            out.insert("cwd".into(), json!(cwd));
            out.insert("sandbox".into(), or(input, "sandbox", json!(false)));
            &["tool_name", "tool_input", "tool_call_id"]
        }
        "beforeMCPExecution" if from_tool_call => {
            let tool = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
            out.insert("tool_name".into(), json!(tool.strip_prefix("MCP:").unwrap_or(tool)));
            let args = tool_input.or_else(|| input.get("tool_input")).cloned().unwrap_or(json!({}));
            out.insert("tool_input".into(), json!(args.to_string()));
            &["tool_call_id"]
        }
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> SessionFacts<'static> {
        SessionFacts { session_id: "conv-1", cwd: "/ws", transcript_path: None, trigger: "startup" }
    }

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn pre_tool_use_carries_cursors_common_fields_and_tool_use_id() {
        let p = payload(
            &RunEvent::Known(HookEvent::PreToolUse),
            &facts(),
            &obj(json!({"tool_name": "Shell", "tool_input": {"command": "ls"}, "tool_call_id": "c1", "extra": 1})),
            None,
        );
        assert_eq!(p["hook_event_name"], "preToolUse");
        assert_eq!(p["conversation_id"], "conv-1");
        assert_eq!(p["session_id"], "conv-1");
        assert_eq!(p["workspace_roots"], json!(["/ws"]));
        assert_eq!(p["tool_use_id"], "c1");
        assert_eq!(p["user_email"], Value::Null);
        assert_eq!(p["extra"], 1);
        assert!(!p.contains_key("tool_call_id"));
    }

    #[test]
    fn a_shell_hook_in_pre_tool_use_reads_the_command_of_the_tool_call() {
        let input = obj(json!({"tool_name": "Shell", "tool_input": {"command": "git push"}}));
        let p = payload(&RunEvent::Named("beforeShellExecution".into()), &facts(), &input, None);
        assert_eq!(p["hook_event_name"], "beforeShellExecution");
        assert_eq!(p["command"], "git push");
        assert_eq!(p["cwd"], "/ws");
        assert_eq!(p["sandbox"], false);
        assert!(!p.contains_key("tool_input"));
        let rewritten = json!({"command": "git status"});
        let p = payload(&RunEvent::Named("beforeShellExecution".into()), &facts(), &input, Some(&rewritten));
        assert_eq!(p["command"], "git status");
    }

    #[test]
    fn post_tool_use_output_is_json_text_and_mcp_input_is_a_string() {
        let input = obj(json!({"tool_name": "Shell", "tool_input": {}, "tool_response": {"exitCode": 0}}));
        let p = payload(&RunEvent::Known(HookEvent::PostToolUse), &facts(), &input, None);
        assert_eq!(p["tool_output"], r#"{"exitCode":0}"#);
        let input = obj(json!({"tool_name": "MCP:search", "tool_input": {"q": "x"}}));
        let p = payload(&RunEvent::Named("beforeMCPExecution".into()), &facts(), &input, None);
        assert_eq!(p["tool_name"], "search");
        assert_eq!(p["tool_input"], r#"{"q":"x"}"#);
    }

    /// sessionStart: `session_id`, `is_background_agent`, `composer_mode`;
    /// "no `source` field".
    #[test]
    fn session_start_has_cursors_fields_and_no_source() {
        let input = obj(json!({"source": "startup", "composer_mode": "ask"}));
        let p = payload(&RunEvent::Known(HookEvent::SessionStart), &facts(), &input, None);
        assert!(!p.contains_key("source"), "{p:?}");
        assert_eq!(p["composer_mode"], "ask");
        assert_eq!(p["is_background_agent"], false);
        assert_eq!(p["session_id"], "conv-1");
    }

    #[test]
    fn workspace_open_has_no_session_fields() {
        let p = payload(&RunEvent::Named("workspaceOpen".into()), &facts(), &Map::new(), None);
        assert!(!p.contains_key("conversation_id") && !p.contains_key("session_id"));
        assert_eq!(p["hook_event_name"], "workspaceOpen");
    }
}
