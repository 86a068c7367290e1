//! Codex's names and argument shapes of the canonical tools
//! ([`Dialect::tool_vocabulary`](crate::dialect::Dialect::tool_vocabulary)).
//!
//! Sources: openai/codex `codex-rs/core/src/tools/hook_names.rs` (the
//! `tool_name` hooks see: `Bash` for every shell tool, `apply_patch` for
//! file edits, `spawn_agent`, MCP tools `mcp__<server>__<tool>`) and the
//! Codex hooks documentation (PreToolUse: `tool_input` of Bash and
//! apply_patch is `{"command": <string>}`, apply_patch's the patch text).
//! Claude Code's `Write`, `Edit` and `MultiEdit` are one `apply_patch`
//! patch (`*** Add File:` / `*** Update File:` with one `@@` hunk per
//! edit), read back when the patch touches one file.

use serde_json::{json, Map, Value};

use crate::dialect::tools::{ShapeCx, ToolName, ToolShape, ToolVocabulary};

/// The table (Codex spells MCP tools canonically).
pub(crate) static VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "Bash"),
        ToolName::new("Write", "apply_patch").shape(PATCH),
        ToolName::new("Edit", "apply_patch").shape(PATCH),
        ToolName::new("MultiEdit", "apply_patch").shape(PATCH),
        ToolName::new("Agent", "spawn_agent"),
        ToolName::new("Task", "spawn_agent"),
    ],
    mcp: crate::dialect::tools::McpNames::CANONICAL,
};

const PATCH: ToolShape = ToolShape { to_native: to_patch, to_canonical: from_patch };

/// Lines of `text`, each with `prefix`.
fn prefixed(out: &mut String, prefix: char, text: &str) {
    for line in text.lines() {
        out.push(prefix);
        out.push_str(line);
        out.push('\n');
    }
}

fn to_patch(cx: &ShapeCx<'_>, input: &Map<String, Value>) -> Map<String, Value> {
    let text = |k: &str| input.get(k).and_then(Value::as_str);
    let Some(path) = text("file_path") else { return input.clone() };
    let mut patch = String::from("*** Begin Patch\n");
    match cx.canonical {
        "Write" => {
            patch.push_str(&format!("*** Add File: {path}\n"));
            prefixed(&mut patch, '+', text("content").unwrap_or(""));
        }
        _ => {
            let edits: Vec<(&str, &str)> = match input.get("edits").and_then(Value::as_array) {
                Some(edits) => edits
                    .iter()
                    .map(|e| {
                        let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
                        (s("old_string"), s("new_string"))
                    })
                    .collect(),
                None => vec![(text("old_string").unwrap_or(""), text("new_string").unwrap_or(""))],
            };
            patch.push_str(&format!("*** Update File: {path}\n"));
            for (old, new) in edits {
                patch.push_str("@@\n");
                prefixed(&mut patch, '-', old);
                prefixed(&mut patch, '+', new);
            }
        }
    }
    patch.push_str("*** End Patch");
    let mut out = Map::new();
    out.insert("command".into(), Value::String(patch));
    out
}

/// One file's section of a patch: its path, whether it adds the file, and
/// its hunks (old and new lines).
type Section<'a> = (&'a str, bool, Vec<(Vec<&'a str>, Vec<&'a str>)>);

fn parse(patch: &str) -> Option<Section<'_>> {
    let mut lines = patch.lines().map(|l| l.trim_end_matches('\r'));
    if lines.next()?.trim() != "*** Begin Patch" {
        return None;
    }
    let mut section: Option<Section<'_>> = None;
    for line in lines {
        if line.trim() == "*** End Patch" {
            return section;
        }
        if let Some(path) = line.strip_prefix("*** Add File: ") {
            section.is_none().then_some(())?;
            section = Some((path.trim(), true, vec![(Vec::new(), Vec::new())]));
            continue;
        }
        if let Some(path) = line.strip_prefix("*** Update File: ") {
            section.is_none().then_some(())?;
            section = Some((path.trim(), false, Vec::new()));
            continue;
        }
        let (_, add, hunks) = section.as_mut()?;
        if line.starts_with("*** ") {
            return None; // another file, a move or a deletion
        }
        if !*add && line.starts_with("@@") {
            hunks.push((Vec::new(), Vec::new()));
            continue;
        }
        let hunk = hunks.last_mut()?;
        match line.chars().next() {
            Some('+') => hunk.1.push(&line[1..]),
            Some('-') if !*add => hunk.0.push(&line[1..]),
            Some(' ') if !*add => {
                hunk.0.push(&line[1..]);
                hunk.1.push(&line[1..]);
            }
            None if !*add => {
                hunk.0.push("");
                hunk.1.push("");
            }
            _ => return None,
        }
    }
    None
}

fn from_patch(cx: &ShapeCx<'_>, input: &Map<String, Value>) -> Option<Map<String, Value>> {
    let (path, add, hunks) = parse(input.get("command")?.as_str()?)?;
    let original = |k: &str| cx.original.and_then(|o| o.get(k));
    let mut out = Map::new();
    out.insert("file_path".into(), Value::String(path.to_owned()));
    match (cx.canonical, add, hunks.as_slice()) {
        ("Write", true, [(_, new)]) => {
            let mut content = new.join("\n");
            let ends = original("content").and_then(Value::as_str).is_none_or(|c| c.ends_with('\n'));
            if ends && !new.is_empty() {
                content.push('\n');
            }
            out.insert("content".into(), Value::String(content));
        }
        ("Edit", false, [(old, new)]) => {
            out.insert("old_string".into(), Value::String(old.join("\n")));
            out.insert("new_string".into(), Value::String(new.join("\n")));
            if let Some(all) = original("replace_all") {
                out.insert("replace_all".into(), all.clone());
            }
        }
        ("MultiEdit", false, hunks) if !hunks.is_empty() => {
            let edits = hunks.iter().map(|(o, n)| json!({"old_string": o.join("\n"), "new_string": n.join("\n")}));
            out.insert("edits".into(), Value::Array(edits.collect()));
        }
        _ => return None,
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "`tool_input` for Bash and apply_patch is `{"command": <string>}`
    /// (apply_patch: the patch text)" (Codex hooks documentation).
    #[test]
    fn writes_and_edits_are_patches_and_read_back() {
        let write = json!({"file_path": "/w/a.txt", "content": "one\ntwo\n"});
        let call = VOCABULARY.to_native("Write", Some(&write), "/w");
        assert_eq!(call.name, "apply_patch");
        let patch = "*** Begin Patch\n*** Add File: /w/a.txt\n+one\n+two\n*** End Patch";
        assert_eq!(call.input.as_deref(), Some(&json!({"command": patch})));
        let changed = json!({"command": "*** Begin Patch\n*** Add File: /w/b.txt\n+three\n*** End Patch\n"});
        assert_eq!(
            VOCABULARY.input_to_canonical("Write", "apply_patch", &changed, Some(&write), "/w"),
            Some(json!({"file_path": "/w/b.txt", "content": "three\n"}))
        );
        let edit = json!({"file_path": "/w/a.txt", "old_string": "one", "new_string": "uno"});
        let call = VOCABULARY.to_native("Edit", Some(&edit), "/w");
        let patch = "*** Begin Patch\n*** Update File: /w/a.txt\n@@\n-one\n+uno\n*** End Patch";
        assert_eq!(call.input.as_deref(), Some(&json!({"command": patch})));
        let rewritten =
            json!({"command": "*** Begin Patch\n*** Update File: /w/a.txt\n@@\n-one\n+eins\n*** End Patch"});
        assert_eq!(
            VOCABULARY.input_to_canonical("Edit", "apply_patch", &rewritten, Some(&edit), "/w"),
            Some(json!({"file_path": "/w/a.txt", "old_string": "one", "new_string": "eins"}))
        );
        // A patch of two files has no Edit input.
        let two = json!({"command": "*** Begin Patch\n*** Add File: a\n+x\n*** Add File: b\n+y\n*** End Patch"});
        assert_eq!(VOCABULARY.input_to_canonical("Write", "apply_patch", &two, None, "/w"), None);
    }
}
