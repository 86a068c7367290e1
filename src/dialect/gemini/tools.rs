//! Gemini CLI's names and argument shapes of the canonical tools
//! ([`Dialect::tool_vocabulary`](crate::dialect::Dialect::tool_vocabulary)).
//!
//! Sources: google-gemini/gemini-cli
//! `packages/core/src/tools/definitions/base-declarations.ts` (tool and
//! parameter names: `run_shell_command {command, description, dir_path,
//! is_background}`, `read_file {file_path, start_line, end_line}`,
//! `write_file {file_path, content}`, `replace {file_path, old_string,
//! new_string, allow_multiple}`, `glob {pattern, dir_path}`, `grep_search
//! {pattern, dir_path, include_pattern}`, `list_directory {dir_path,
//! ignore}`, `web_fetch {prompt}`, `google_web_search {query}`,
//! `write_todos {todos: [{description, status}]}`); MCP tools
//! `mcp_<server>_<tool>` (`packages/core/src/tools/mcp-tool.ts`).

use serde_json::{Map, Value};

use crate::dialect::tools::{self, McpNames, ShapeCx, ToolName, ToolShape, ToolVocabulary};

/// The table.
pub(crate) static VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        // Claude Code's Bash has no directory: a canonical `cwd` (the
        // host's choice) is Gemini CLI's `dir_path`.
        ToolName::new("Bash", "run_shell_command")
            .fields(&[("run_in_background", "is_background"), ("cwd", "dir_path")]),
        ToolName::new("Read", "read_file").shape(READ_LINES),
        ToolName::new("Read", "read_many_files").only_to_canonical(),
        ToolName::new("Write", "write_file"),
        ToolName::new("Edit", "replace").fields(&[("replace_all", "allow_multiple")]),
        ToolName::new("Glob", "glob").fields(&[("path", "dir_path")]),
        ToolName::new("Grep", "grep_search").fields(&[("path", "dir_path"), ("glob", "include_pattern")]),
        // The name before Gemini CLI 0.6 (the issue's `search_file_content`).
        ToolName::new("Grep", "search_file_content").only_to_canonical(),
        ToolName::new("LS", "list_directory").fields(&[("path", "dir_path")]),
        ToolName::new("WebFetch", "web_fetch").shape(WEB_FETCH),
        ToolName::new("WebSearch", "google_web_search"),
        ToolName::new("TodoWrite", "write_todos").shape(TODOS),
    ],
    mcp: McpNames { prefix: "mcp_", separator: Some("_") },
};

const READ_LINES: ToolShape = ToolShape {
    to_native: |_, input| tools::lines_from_offset_limit(input, "start_line", "end_line"),
    to_canonical: |_, input| tools::offset_limit_from_lines(input, "start_line", "end_line"),
};

/// `web_fetch` takes one `prompt` that names the URLs: Claude Code's `url`
/// and `prompt` join in it (the URL first); read back, the first URL of the
/// prompt is the `url`.
const WEB_FETCH: ToolShape = ToolShape { to_native: fetch_prompt, to_canonical: fetch_url };

fn fetch_prompt(_: &ShapeCx<'_>, input: &Map<String, Value>) -> Map<String, Value> {
    let mut out = input.clone();
    let url = out.remove("url");
    let prompt = out.remove("prompt");
    let text = match (url.as_ref().and_then(Value::as_str), prompt.as_ref().and_then(Value::as_str)) {
        (Some(url), Some(prompt)) if prompt.contains(url) => prompt.to_owned(),
        (Some(url), Some(prompt)) => format!("{url}\n\n{prompt}"),
        (Some(url), None) => url.to_owned(),
        (None, Some(prompt)) => prompt.to_owned(),
        (None, None) => return input.clone(),
    };
    out.insert("prompt".into(), Value::String(text));
    out
}

fn fetch_url(cx: &ShapeCx<'_>, input: &Map<String, Value>) -> Option<Map<String, Value>> {
    let text = input.get("prompt")?.as_str()?;
    let mut out = input.clone();
    // Unchanged from what the call gave: the call as it was.
    if let Some(original) = cx.original {
        if fetch_prompt(cx, original).get("prompt").and_then(Value::as_str) == Some(text) {
            out.remove("prompt");
            out.extend(
                original.iter().filter(|(k, _)| *k == "url" || *k == "prompt").map(|(k, v)| (k.clone(), v.clone())),
            );
            return Some(out);
        }
    }
    let url = text
        .split_whitespace()
        .find(|w| w.starts_with("http://") || w.starts_with("https://"))?
        .trim_end_matches(['.', ',', ')', ';', '"', '\'']);
    out.insert("url".into(), Value::String(url.to_owned()));
    Some(out)
}

/// `write_todos` items are `{description, status}`; TodoWrite's
/// `{content, status, activeForm}` (the active form is the content when
/// read back).
const TODOS: ToolShape = ToolShape { to_native: todos_native, to_canonical: todos_canonical };

fn map_todos(
    input: &Map<String, Value>,
    item: impl Fn(&Map<String, Value>) -> Option<Map<String, Value>>,
) -> Option<Map<String, Value>> {
    let mut out = input.clone();
    if let Some(Value::Array(items)) = input.get("todos") {
        let items: Option<Vec<Value>> =
            items.iter().map(|i| i.as_object().and_then(&item).map(Value::Object)).collect();
        out.insert("todos".into(), Value::Array(items?));
    }
    Some(out)
}

fn todos_native(_: &ShapeCx<'_>, input: &Map<String, Value>) -> Map<String, Value> {
    map_todos(input, |i| {
        let mut o = i.clone();
        o.remove("activeForm");
        if let Some(c) = o.remove("content") {
            o.insert("description".into(), c);
        }
        Some(o)
    })
    .unwrap_or_else(|| input.clone())
}

fn todos_canonical(_: &ShapeCx<'_>, input: &Map<String, Value>) -> Option<Map<String, Value>> {
    map_todos(input, |i| {
        let mut o = i.clone();
        let d = o.remove("description")?;
        o.insert("activeForm".into(), d.clone());
        o.insert("content".into(), d);
        Some(o)
    })
}

/// AfterTool's `tailToolCallRequest` `{name, args}` names a Gemini CLI tool:
/// read back as a canonical name and input.
pub(crate) fn tail_call_to_canonical(
    fields: &mut Map<String, Value>,
    to_canonical: &dyn Fn(&str, &Value) -> (String, Value),
) {
    let Some(Value::Object(tail)) = fields.get_mut("tailToolCallRequest") else { return };
    let Some(name) = tail.get("name").and_then(Value::as_str).map(str::to_owned) else { return };
    let args = tail.get("args").cloned().unwrap_or(Value::Object(Map::new()));
    let (name, args) = to_canonical(&name, &args);
    tail.insert("name".into(), Value::String(name));
    if tail.contains_key("args") {
        tail.insert("args".into(), args);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn reads_become_line_ranges_and_back() {
        let read = json!({"file_path": "/a", "offset": 10, "limit": 5});
        let call = VOCABULARY.to_native("Read", Some(&read), "/w");
        assert_eq!(call.name, "read_file");
        assert_eq!(call.input.as_deref(), Some(&json!({"file_path": "/a", "start_line": 10, "end_line": 14})));
        let back = VOCABULARY.input_to_canonical(
            "Read",
            "read_file",
            &json!({"file_path": "/b", "start_line": 2}),
            None,
            "/w",
        );
        assert_eq!(back, Some(json!({"file_path": "/b", "offset": 2})));
    }

    #[test]
    fn a_fetch_joins_its_url_and_prompt() {
        let cx = ShapeCx { canonical: "WebFetch", native: "web_fetch", cwd: "/w", original: None };
        let native = fetch_prompt(&cx, &obj(json!({"url": "https://a.example/x", "prompt": "summarise"})));
        assert_eq!(native, obj(json!({"prompt": "https://a.example/x\n\nsummarise"})));
        let back = fetch_url(&cx, &obj(json!({"prompt": "read https://b.example/y."}))).unwrap();
        assert_eq!(back, obj(json!({"prompt": "read https://b.example/y.", "url": "https://b.example/y"})));
    }

    #[test]
    fn todos_rename_their_content() {
        let cx = ShapeCx { canonical: "TodoWrite", native: "write_todos", cwd: "/w", original: None };
        let native =
            todos_native(&cx, &obj(json!({"todos": [{"content": "x", "status": "pending", "activeForm": "X"}]})));
        assert_eq!(native, obj(json!({"todos": [{"description": "x", "status": "pending"}]})));
        let back = todos_canonical(&cx, &native).unwrap();
        assert_eq!(back, obj(json!({"todos": [{"content": "x", "status": "pending", "activeForm": "x"}]})));
    }
}
