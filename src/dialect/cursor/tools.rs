//! Cursor's names and argument shapes of the canonical tools
//! ([`Dialect::tool_vocabulary`](crate::dialect::Dialect::tool_vocabulary)).
//!
//! Cursor's runner is closed source. Sources: Cursor's hooks reference
//! ("Matcher Configuration": the tool types `Shell`, `Read`, `Write`,
//! `Grep`, `Delete`, `Task`, `MCP:<tool_name>`) and recorded runs of
//! Cursor 3.9.16 (cos-gd/rosetta `docs/hooks/cursor.md`: the observed
//! inputs Shell `{command, cwd, timeout}`, Read `{file_path}`, Grep
//! `{pattern, file_path}`, Write `{file_path, content}`, Task
//! `{description, prompt, subagent_type, readonly}`). `StrReplace` for
//! Claude Code's `Edit` rests on hook scripts written for Cursor (its
//! `old_string`/`new_string` arguments), not on Cursor's documentation.

use serde_json::{Map, Value};

use crate::dialect::tools::{McpNames, ShapeCx, ToolName, ToolShape, ToolVocabulary};

/// The table.
pub(crate) static VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "Shell").shape(SHELL),
        ToolName::new("Read", "Read"),
        ToolName::new("Write", "Write"),
        ToolName::new("Edit", "StrReplace"),
        ToolName::new("Grep", "Grep").fields(&[("path", "file_path")]),
        ToolName::new("Task", "Task"),
        ToolName::new("Agent", "Task"),
    ],
    // `MCP:<tool>`: the name has no server; the canonical call's server is
    // kept when a hook's answer names the same tool.
    mcp: McpNames { prefix: "MCP:", separator: None },
};

/// Cursor's `Shell` input carries the directory the command runs in
/// (`cwd`): the canonical call's `cwd`, else the session's. Read back, a
/// `cwd` that is the session's and that the call did not give is dropped.
const SHELL: ToolShape = ToolShape { to_native: shell_native, to_canonical: shell_canonical };

fn shell_native(cx: &ShapeCx<'_>, input: &Map<String, Value>) -> Map<String, Value> {
    let mut out = input.clone();
    out.entry("cwd").or_insert_with(|| Value::String(cx.cwd.to_owned()));
    out
}

fn shell_canonical(cx: &ShapeCx<'_>, input: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut out = input.clone();
    let given = cx.original.is_some_and(|o| o.contains_key("cwd"));
    if !given && out.get("cwd").and_then(Value::as_str) == Some(cx.cwd) {
        out.remove("cwd");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// "the tool type: `Shell`, `Read`, `Write`, `Grep`, `Delete`, `Task`,
    /// `MCP:<tool_name>`" (Cursor's hooks reference, Matcher Configuration).
    #[test]
    fn the_shell_carries_its_directory_and_mcp_tools_lose_their_server() {
        let ls = json!({"command": "ls"});
        let call = VOCABULARY.to_native("Bash", Some(&ls), "/w");
        assert_eq!(call.name, "Shell");
        assert_eq!(call.input.as_deref(), Some(&json!({"command": "ls", "cwd": "/w"})));
        let back = VOCABULARY.input_to_canonical(
            "Bash",
            "Shell",
            &json!({"command": "ls -a", "cwd": "/w"}),
            Some(&json!({"command": "ls"})),
            "/w",
        );
        assert_eq!(back, Some(json!({"command": "ls -a"})));
        let elsewhere =
            VOCABULARY.input_to_canonical("Bash", "Shell", &json!({"command": "ls", "cwd": "/tmp"}), None, "/w");
        assert_eq!(elsewhere, Some(json!({"command": "ls", "cwd": "/tmp"})));
        assert_eq!(VOCABULARY.native_name("mcp__github__create_issue"), "MCP:create_issue");
        assert_eq!(
            VOCABULARY.canonical_name("MCP:create_issue", Some("mcp__github__create_issue")),
            "mcp__github__create_issue"
        );
    }
}
