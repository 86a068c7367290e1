//! VS Code's names and argument shapes of the canonical tools
//! ([`Dialect::tool_vocabulary`](crate::dialect::Dialect::tool_vocabulary)).
//!
//! VS Code's hooks reference gives `tool_name` as VS Code's own tool names
//! with camelCase `tool_input` properties. Sources: microsoft/vscode-copilot-chat
//! `src/extension/tools/common/toolNames.ts` (the `ToolName` enum:
//! `run_in_terminal`, `read_file`, `create_file`, `replace_string_in_file`,
//! `file_search`, `grep_search`, `list_dir`, `fetch_webpage`,
//! `manage_todo_list`) and the tools' input schemas there
//! (`run_in_terminal {command, explanation, isBackground}`, `read_file
//! {filePath, startLine, endLine}`, `create_file {filePath, content}`,
//! `replace_string_in_file {filePath, oldString, newString}`, `file_search
//! {query}`, `grep_search {query, includePattern}`, `list_dir {path}`,
//! `fetch_webpage {urls, query}`). VS Code ignores matchers: the table
//! shapes what its hooks read.

use serde_json::{Map, Value};

use crate::dialect::tools::{self, McpNames, ShapeCx, ToolName, ToolShape, ToolVocabulary};

/// The table.
pub(crate) static VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "run_in_terminal")
            .fields(&[("description", "explanation"), ("run_in_background", "isBackground")]),
        ToolName::new("Read", "read_file").fields(&[("file_path", "filePath")]).shape(READ_LINES),
        ToolName::new("Write", "create_file").fields(&[("file_path", "filePath")]),
        ToolName::new("Edit", "replace_string_in_file").fields(&[
            ("file_path", "filePath"),
            ("old_string", "oldString"),
            ("new_string", "newString"),
        ]),
        ToolName::new("Glob", "file_search").fields(&[("pattern", "query")]),
        ToolName::new("Grep", "grep_search").fields(&[("pattern", "query"), ("glob", "includePattern")]),
        ToolName::new("LS", "list_dir"),
        ToolName::new("WebFetch", "fetch_webpage").shape(FETCH),
        ToolName::new("TodoWrite", "manage_todo_list"),
    ],
    mcp: McpNames::CANONICAL,
};

const READ_LINES: ToolShape = ToolShape {
    to_native: |_, input| tools::lines_from_offset_limit(input, "startLine", "endLine"),
    to_canonical: |_, input| tools::offset_limit_from_lines(input, "startLine", "endLine"),
};

/// `fetch_webpage` takes a list of `urls` and a `query`: Claude Code's
/// `url` is the list's one entry, its `prompt` the query.
const FETCH: ToolShape = ToolShape { to_native: fetch_native, to_canonical: fetch_canonical };

fn fetch_native(_: &ShapeCx<'_>, input: &Map<String, Value>) -> Map<String, Value> {
    let mut out = input.clone();
    if let Some(url) = out.remove("url") {
        out.insert("urls".into(), Value::Array(vec![url]));
    }
    if let Some(prompt) = out.remove("prompt") {
        out.insert("query".into(), prompt);
    }
    out
}

fn fetch_canonical(_: &ShapeCx<'_>, input: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut out = input.clone();
    if let Some(urls) = out.remove("urls") {
        match urls.as_array().map(Vec::as_slice) {
            Some([url]) => out.insert("url".into(), url.clone()),
            _ => return None,
        };
    }
    if let Some(query) = out.remove("query") {
        out.insert("prompt".into(), query);
    }
    Some(out)
}
