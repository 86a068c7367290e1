//! The JSON a Cline hook reads on stdin: the extension's `HookInput` as its
//! protobuf JSON (camelCase), written with `JSON.stringify` (no newline).
//!
//! | field | value |
//! |---|---|
//! | `clineVersion` | the input's `cline_version`, else `""` |
//! | `hookName` | the Cline hook name (`PreToolUse`, `TaskStart`) |
//! | `timestamp` | milliseconds since the epoch, as text (`Date.now().toString()`) |
//! | `taskId` | the engine's session id |
//! | `workspaceRoots` | the input's `workspace_roots`, else `[<workspace>]` |
//! | `userId` | the input's `user_id`, else `""` |
//! | `model` | `{provider, slug}` from the input's `model` (an object, or a string: the slug), each `"unknown"` when missing |
//! | `<hookName in camelCase>` | the event's own object (below) |
//!
//! | hook | its object |
//! |---|---|
//! | `preToolUse` | `toolName` (Cline's name: `Bash` is `execute_command`, `mcp__s__t` is `use_mcp_tool`), `parameters` (every value a string: non-strings JSON-encoded, as the SDK's `mapParams`; `file_path` is `path` and Grep's `pattern` is `regex`, as the tool table says; an MCP call's are `server_name`, `tool_name`, `arguments`) from `tool_input` (the rewrite in force) |
//! | `postToolUse` | the same, `result` (the text of `tool_response`; JSON text when it is not a string), `success` (the input's `success`, else false when `tool_response.is_error` or `.success` is false, else true), `executionTimeMs` (the input's `execution_time_ms` or `duration_ms`, else 0) |
//! | `userPromptSubmit` | `prompt` (`""` when missing: "Ensure empty prompt strings are preserved"), `attachments` (the input's, else `[]`) |
//! | the others (`preCompact`, `notification`, `taskStart`, ...) | the input's object of that name when it has one (`{"taskStart": {...}}`), else the input's own fields with camelCase names (`task_metadata` is `taskMetadata`) |

use serde_json::{json, Map, Value};

use super::event_name;
use crate::dialect::tools::split_mcp;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::SessionFacts;

/// The input fields that fill the common fields, not the event's object.
const COMMON_INPUTS: &[&str] =
    &["cline_version", "workspace_roots", "user_id", "model", "session_id", "cwd", "transcript_path"];

/// The payload of `event` for a Cline hook (see the module documentation).
pub(crate) fn payload(
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
) -> Map<String, Value> {
    let text = |key: &str| input.get(key).and_then(Value::as_str);
    let name = event_name(event);
    let mut out = Map::new();
    out.insert("clineVersion".into(), json!(text("cline_version").unwrap_or("")));
    out.insert("hookName".into(), json!(name));
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
    out.insert("timestamp".into(), json!(now.to_string()));
    out.insert("taskId".into(), json!(facts.session_id));
    let roots = match input.get("workspace_roots") {
        Some(roots @ Value::Array(_)) => roots.clone(),
        _ => json!([facts.cwd]),
    };
    out.insert("workspaceRoots".into(), roots);
    out.insert("userId".into(), json!(text("user_id").unwrap_or("")));
    out.insert("model".into(), model(input.get("model")));
    let key = camel(name);
    let data = match event.known() {
        Some(HookEvent::PreToolUse) => tool_call(input, tool_input),
        Some(HookEvent::PostToolUse) => {
            let mut call = tool_call(input, tool_input);
            post_tool(input, &mut call);
            call
        }
        Some(HookEvent::UserPromptSubmit) => {
            let mut m = Map::new();
            m.insert("prompt".into(), json!(text("prompt").unwrap_or("")));
            let attachments = input.get("attachments").filter(|a| a.is_array()).cloned().unwrap_or_else(|| json!([]));
            m.insert("attachments".into(), attachments);
            m
        }
        _ => match input.get(&key) {
            Some(Value::Object(own)) => own.clone(),
            _ => input
                .iter()
                .filter(|(k, _)| !COMMON_INPUTS.contains(&k.as_str()))
                .map(|(k, v)| (camel(k), v.clone()))
                .collect(),
        },
    };
    out.insert(key, Value::Object(data));
    out
}

/// `model`: `{provider, slug}`, each `"unknown"` when missing or blank
/// (hook-factory.ts: `params.model?.provider?.trim() || "unknown"`).
fn model(value: Option<&Value>) -> Value {
    let field = |v: Option<&Value>| {
        v.and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).unwrap_or("unknown").to_owned()
    };
    match value {
        Some(Value::Object(m)) => json!({"provider": field(m.get("provider")), "slug": field(m.get("slug"))}),
        Some(slug @ Value::String(_)) => json!({"provider": "unknown", "slug": field(Some(slug))}),
        _ => json!({"provider": "unknown", "slug": "unknown"}),
    }
}

/// `toolName` and `parameters` of a tool call, in Cline's words
/// ([`TOOL_VOCABULARY`](super::TOOL_VOCABULARY); an MCP call is
/// `use_mcp_tool`).
fn tool_call(input: &Map<String, Value>, tool_input: Option<&Value>) -> Map<String, Value> {
    let given = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
    let args = tool_input.or_else(|| input.get("tool_input"));
    let mut parameters = Map::new();
    let name = match split_mcp(given) {
        Some((server, tool)) => {
            // `mcp__<server>__<tool>`: Cline's use_mcp_tool parameters.
            parameters.insert("server_name".into(), json!(server));
            parameters.insert("tool_name".into(), json!(tool));
            let arguments = args.filter(|a| a.is_object()).map_or_else(|| "{}".to_owned(), Value::to_string);
            parameters.insert("arguments".into(), json!(arguments));
            "use_mcp_tool".to_owned()
        }
        None => {
            let call = super::TOOL_VOCABULARY.to_native(given, args, "");
            if let Some(Value::Object(obj)) = call.input.as_deref() {
                for (key, value) in obj {
                    parameters.insert(key.clone(), json!(as_text(value)));
                }
            }
            call.name.into_owned()
        }
    };
    let mut m = Map::new();
    m.insert("toolName".into(), json!(name));
    m.insert("parameters".into(), Value::Object(parameters));
    m
}

/// PostToolUse's `result`, `success` and `executionTimeMs`.
fn post_tool(input: &Map<String, Value>, m: &mut Map<String, Value>) {
    let response = input.get("tool_response").unwrap_or(&Value::Null);
    let result = match response {
        Value::Null => String::new(),
        other => as_text(other),
    };
    let failed = response.get("is_error").and_then(Value::as_bool) == Some(true)
        || response.get("success").and_then(Value::as_bool) == Some(false);
    let success = input.get("success").and_then(Value::as_bool).unwrap_or(!failed);
    let ms =
        ["execution_time_ms", "duration_ms"].iter().find_map(|k| input.get(*k).and_then(Value::as_u64)).unwrap_or(0);
    m.insert("result".into(), json!(result));
    m.insert("success".into(), json!(success));
    m.insert("executionTimeMs".into(), json!(ms));
}

/// A value as a parameter string: a string as it is, anything else as JSON
/// ("Parameters are stringified (non-strings JSON-encoded)").
fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `snake_case` and `PascalCase` names in camelCase (`task_metadata` →
/// `taskMetadata`, `PreToolUse` → `preToolUse`).
fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for (i, c) in name.chars().enumerate() {
        if c == '_' {
            upper = !out.is_empty();
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else if i == 0 {
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> SessionFacts<'static> {
        SessionFacts { session_id: "task-1", cwd: "/w", transcript_path: None, trigger: "startup" }
    }

    #[test]
    fn names_are_camel_case() {
        assert_eq!(camel("PreToolUse"), "preToolUse");
        assert_eq!(camel("task_metadata"), "taskMetadata");
        assert_eq!(camel("TaskStart"), "taskStart");
        assert_eq!(camel("_x"), "x");
    }

    /// proto `HookInput`: "clineVersion, hookName, timestamp, taskId,
    /// workspaceRoots[], userId + one of preToolUse {toolName, parameters:
    /// map<string,string>}"; "Parameters are stringified (non-strings
    /// JSON-encoded)".
    #[test]
    fn a_tool_call_is_in_clines_words() {
        let input = json!({"tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": "x", "n": 3}});
        let p = payload(&RunEvent::Known(HookEvent::PreToolUse), &facts(), input.as_object().unwrap(), None);
        assert_eq!(p["hookName"], "PreToolUse");
        assert_eq!(p["taskId"], "task-1");
        assert_eq!(p["workspaceRoots"], json!(["/w"]));
        assert_eq!(p["clineVersion"], "");
        assert_eq!(p["model"], json!({"provider": "unknown", "slug": "unknown"}));
        assert!(p["timestamp"].as_str().unwrap().parse::<u64>().is_ok());
        assert_eq!(
            p["preToolUse"],
            json!({"toolName": "write_to_file", "parameters": {"path": "a.txt", "content": "x", "n": "3"}})
        );
    }

    #[test]
    fn an_mcp_call_is_use_mcp_tool() {
        let input = json!({"tool_name": "mcp__github__create_issue", "tool_input": {"title": "t"}});
        let p = payload(&RunEvent::Known(HookEvent::PreToolUse), &facts(), input.as_object().unwrap(), None);
        assert_eq!(
            p["preToolUse"]["parameters"],
            json!({"server_name": "github", "tool_name": "create_issue", "arguments": "{\"title\":\"t\"}"})
        );
    }

    #[test]
    fn a_tool_result_has_result_success_and_time() {
        let input = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {"stdout": "a"},
                           "duration_ms": 12});
        let p = payload(&RunEvent::Known(HookEvent::PostToolUse), &facts(), input.as_object().unwrap(), None);
        assert_eq!(
            p["postToolUse"],
            json!({"toolName": "execute_command", "parameters": {"command": "ls"}, "result": "{\"stdout\":\"a\"}",
                   "success": true, "executionTimeMs": 12})
        );
    }

    #[test]
    fn named_events_carry_their_own_object() {
        let input = json!({"task_metadata": {"taskId": "t", "ulid": "u", "initialTask": "do"}, "user_id": "me"});
        let p = payload(&RunEvent::Named("TaskStart".into()), &facts(), input.as_object().unwrap(), None);
        assert_eq!(p["taskStart"], json!({"taskMetadata": {"taskId": "t", "ulid": "u", "initialTask": "do"}}));
        assert_eq!(p["userId"], "me");
        let own = json!({"taskResume": {"previousState": {"a": 1}}});
        let p = payload(&RunEvent::Named("TaskResume".into()), &facts(), own.as_object().unwrap(), None);
        assert_eq!(p["taskResume"], json!({"previousState": {"a": 1}}));
    }

    /// "Ensure empty prompt strings are preserved in UserPromptSubmit data".
    #[test]
    fn an_empty_prompt_is_kept() {
        let input = json!({"turn_id": "t"});
        let p = payload(&RunEvent::Known(HookEvent::UserPromptSubmit), &facts(), input.as_object().unwrap(), None);
        assert_eq!(p["userPromptSubmit"], json!({"prompt": "", "attachments": []}));
    }
}
