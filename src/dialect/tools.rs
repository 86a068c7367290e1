//! The canonical tool vocabulary and each dialect's table of it.
//!
//! A host names tools as Claude Code does (`Bash`, `Read`, `Write`, `Edit`,
//! `MultiEdit`, `Glob`, `Grep`, `LS`, `WebFetch`, `WebSearch`, `Task` /
//! `Agent`, `NotebookEdit`, `TodoWrite`, MCP tools `mcp__<server>__<tool>`)
//! with Claude Code's `tool_input` shapes. Each dialect says, as static data
//! ([`Dialect::tool_vocabulary`](super::Dialect::tool_vocabulary)), what its
//! agent calls each of those tools and, where the input differs, how the
//! input reads in its agent's shape. A hook then sees its agent's name and
//! input in its payload and is matched on them; a rewrite it returns is read
//! back into the canonical shape.
//!
//! A name with no row passes through unchanged in both directions (a host
//! that passes one agent's own names keeps working). An empty table
//! ([`ToolVocabulary::NONE`], the default) maps nothing.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// How a tool's input is reshaped beyond renaming fields (Codex's
/// `apply_patch` takes a patch where Claude Code's `Write` takes a path and
/// a text). Both functions get the input after/before the row's
/// [field renames](ToolName::fields): `to_native` runs after renaming
/// canonical fields to native ones, `to_canonical` before renaming them
/// back.
#[derive(Clone, Copy)]
pub struct ToolShape {
    /// The canonical input (renamed) → the agent's input.
    pub to_native: ToNative,
    /// The agent's input (a hook's rewrite) → the canonical input (before
    /// the renames are undone). `None`: the rewrite cannot be read back
    /// (the caller keeps it as the agent wrote it and says so).
    pub to_canonical: ToCanonical,
}

/// [`ToolShape::to_native`]: the canonical input (renamed) → the agent's.
pub type ToNative = fn(&ShapeCx<'_>, &Map<String, Value>) -> Map<String, Value>;

/// [`ToolShape::to_canonical`]: the agent's input → the canonical one, or
/// `None` when it cannot be read back.
pub type ToCanonical = fn(&ShapeCx<'_>, &Map<String, Value>) -> Option<Map<String, Value>>;

impl std::fmt::Debug for ToolShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ToolShape")
    }
}

/// What a [`ToolShape`] knows about the call it reshapes.
#[derive(Clone, Copy, Debug)]
pub struct ShapeCx<'a> {
    /// The canonical tool name.
    pub canonical: &'a str,
    /// The agent's tool name.
    pub native: &'a str,
    /// The session's working directory (the run input's `cwd`).
    pub cwd: &'a str,
    /// The canonical input the call started from (for reading a rewrite
    /// back: fields the agent's shape has no place for).
    pub original: Option<&'a Map<String, Value>>,
}

/// One row of a dialect's tool table: a canonical tool and the agent's name
/// for it.
///
/// Canonical → native takes the first row whose `canonical` is the name;
/// native → canonical the first row whose `native` is. Several rows may
/// share a canonical name (Claude Code's `Task` and `Agent`) or a native
/// one (Copilot CLI's `powershell` is `Bash` too): the first row wins in
/// each direction.
#[derive(Clone, Copy, Debug)]
pub struct ToolName {
    /// The canonical (Claude Code) name: `Bash`, `Write`, ...
    pub canonical: &'static str,
    /// The agent's name: `run_shell_command`, `Shell`, ...
    pub native: &'static str,
    /// `tool_input` fields renamed, canonical field → the agent's field
    /// (`("file_path", "absolute_path")`). Other fields pass through.
    pub fields: &'static [(&'static str, &'static str)],
    /// A reshaping no renaming expresses, if the row needs one.
    pub shape: Option<ToolShape>,
    /// The row maps native → canonical only (a second native name of a
    /// canonical tool whose first row is another: Copilot CLI's
    /// `powershell`).
    pub only_to_canonical: bool,
}

impl ToolName {
    /// A row that renames the tool and nothing else.
    pub const fn new(canonical: &'static str, native: &'static str) -> Self {
        ToolName { canonical, native, fields: &[], shape: None, only_to_canonical: false }
    }

    /// This row with `tool_input` fields renamed (canonical → native).
    pub const fn fields(self, fields: &'static [(&'static str, &'static str)]) -> Self {
        ToolName { fields, ..self }
    }

    /// This row with a [`ToolShape`].
    pub const fn shape(self, shape: ToolShape) -> Self {
        ToolName { shape: Some(shape), ..self }
    }

    /// This row used only to read the agent's name back.
    pub const fn only_to_canonical(self) -> Self {
        ToolName { only_to_canonical: true, ..self }
    }
}

/// How an agent spells an MCP tool whose canonical name is
/// `mcp__<server>__<tool>`: `<prefix><server><separator><tool>`, or
/// `<prefix><tool>` when the agent names no server (`separator: None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct McpNames {
    /// Before the server (`mcp__`, `mcp_`, `MCP:`, or nothing).
    pub prefix: &'static str,
    /// Between the server and the tool; `None` when the name has no server.
    pub separator: Option<&'static str>,
}

impl McpNames {
    /// Claude Code's `mcp__<server>__<tool>` (the canonical spelling).
    pub const CANONICAL: McpNames = McpNames { prefix: "mcp__", separator: Some("__") };

    /// The agent's name of canonical MCP tool `server`/`tool`.
    pub fn native(&self, server: &str, tool: &str) -> String {
        match self.separator {
            Some(sep) => format!("{}{server}{sep}{tool}", self.prefix),
            None => format!("{}{tool}", self.prefix),
        }
    }
}

/// The server and tool of a canonical MCP tool name `mcp__<server>__<tool>`
/// (the server ends at the first `__` after the prefix), `None` for any
/// other name.
pub fn split_mcp(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

/// A dialect's tool table ([`Dialect::tool_vocabulary`](super::Dialect::tool_vocabulary)).
#[derive(Clone, Copy, Debug)]
pub struct ToolVocabulary {
    /// The rows, canonical → the agent's name and input.
    pub names: &'static [ToolName],
    /// How the agent spells MCP tools.
    pub mcp: McpNames,
}

/// A tool call in one vocabulary: its name and its input.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall<'n, 'i> {
    /// The tool's name.
    pub name: Cow<'n, str>,
    /// Its input (`tool_input`), when the call has one.
    pub input: Option<Cow<'i, Value>>,
}

impl ToolVocabulary {
    /// No table: every name and input passes through unchanged.
    pub const NONE: ToolVocabulary = ToolVocabulary { names: &[], mcp: McpNames::CANONICAL };

    /// Whether the table maps nothing.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty() && self.mcp == McpNames::CANONICAL
    }

    /// The row of canonical tool `canonical`, if any.
    pub fn row_of_canonical(&self, canonical: &str) -> Option<&'static ToolName> {
        self.names.iter().find(|r| !r.only_to_canonical && r.canonical == canonical)
    }

    /// The row of the agent's tool `native`, if any.
    pub fn row_of_native(&self, native: &str) -> Option<&'static ToolName> {
        self.names.iter().find(|r| r.native == native)
    }

    /// The agent's name of canonical tool `canonical` (unchanged without a
    /// row; an MCP tool in the agent's spelling).
    pub fn native_name<'a>(&self, canonical: &'a str) -> Cow<'a, str> {
        if let Some(row) = self.row_of_canonical(canonical) {
            return Cow::Borrowed(row.native);
        }
        match split_mcp(canonical) {
            Some((server, tool)) if self.mcp != McpNames::CANONICAL => Cow::Owned(self.mcp.native(server, tool)),
            _ => Cow::Borrowed(canonical),
        }
    }

    /// The canonical name of the agent's tool `native` (unchanged without a
    /// row). An MCP name in the agent's spelling is read back when it names
    /// its server (the server then ends at the first separator); `hint`, the
    /// canonical name the call started from, is kept when it maps to
    /// `native` (Cursor's `MCP:<tool>` names no server).
    pub fn canonical_name<'a>(&self, native: &'a str, hint: Option<&str>) -> Cow<'a, str> {
        if let Some(hint) = hint {
            if self.native_name(hint) == native {
                return Cow::Owned(hint.to_owned());
            }
        }
        if let Some(row) = self.row_of_native(native) {
            return Cow::Borrowed(row.canonical);
        }
        if self.mcp != McpNames::CANONICAL {
            if let (Some(rest), Some(sep)) = (native.strip_prefix(self.mcp.prefix), self.mcp.separator) {
                if let Some((server, tool)) = rest.split_once(sep) {
                    if !server.is_empty() && !tool.is_empty() {
                        return Cow::Owned(format!("mcp__{server}__{tool}"));
                    }
                }
            }
        }
        Cow::Borrowed(native)
    }

    /// Canonical call `name` with `input` as the agent sees it.
    pub fn to_native<'n, 'i>(&self, name: &'n str, input: Option<&'i Value>, cwd: &str) -> ToolCall<'n, 'i> {
        let native = self.native_name(name);
        let input = match (self.row_of_canonical(name), input) {
            (Some(row), Some(Value::Object(obj))) if !row.fields.is_empty() || row.shape.is_some() => {
                let mut map = rename(obj, row.fields.iter().map(|(c, n)| (*c, *n)));
                if let Some(shape) = row.shape {
                    let cx = ShapeCx { canonical: name, native: row.native, cwd, original: Some(obj) };
                    map = (shape.to_native)(&cx, &map);
                }
                Some(Cow::Owned(Value::Object(map)))
            }
            (_, input) => input.map(Cow::Borrowed),
        };
        ToolCall { name: native, input }
    }

    /// An input the agent's hook wrote for its tool `native` (a rewrite)
    /// in the canonical shape of tool `canonical`; `original` is the
    /// canonical input the call started from. `None` when the shape cannot
    /// be read back.
    pub fn input_to_canonical(
        &self,
        canonical: &str,
        native: &str,
        input: &Value,
        original: Option<&Value>,
        cwd: &str,
    ) -> Option<Value> {
        let Some(row) = self.row_of_canonical(canonical).filter(|r| r.native == native) else {
            return Some(input.clone());
        };
        let Value::Object(obj) = input else { return Some(input.clone()) };
        // A rewrite that is the call as it was given, in the agent's shape:
        // the canonical input itself (shapes may lose what the agent's
        // has no place for).
        if let Some(original) = original {
            if self.to_native(canonical, Some(original), cwd).input.as_deref() == Some(input) {
                return Some(original.clone());
            }
        }
        let reshaped;
        let obj = match row.shape {
            Some(shape) => {
                let cx = ShapeCx { canonical, native, cwd, original: original.and_then(Value::as_object) };
                reshaped = (shape.to_canonical)(&cx, obj)?;
                &reshaped
            }
            None => obj,
        };
        Some(Value::Object(rename(obj, row.fields.iter().map(|(c, n)| (*n, *c)))))
    }
}

/// Option `tool_names`: whether the host names tools canonically (the
/// default: each hook gets them in its agent's vocabulary) or passes the
/// names of the agent whose hooks it runs (`native`: names and inputs reach
/// every hook as the host gave them, as before the canonical vocabulary).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToolNames {
    /// Claude Code's names, mapped to each hook's agent.
    #[default]
    Canonical,
    /// The host's names, passed through unchanged.
    Native,
}

impl ToolNames {
    /// Every value, in the option's spelling order.
    pub const ALL: [ToolNames; 2] = [ToolNames::Canonical, ToolNames::Native];

    /// The option's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolNames::Canonical => "canonical",
            ToolNames::Native => "native",
        }
    }

    /// The value of a spelling.
    pub fn parse(s: &str) -> Option<ToolNames> {
        ToolNames::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// The working directory a [`ToolShape`] reads: the input's `cwd`, else
/// `default` (the workspace).
pub fn input_cwd<'a>(input: &'a Map<String, Value>, default: &'a str) -> &'a str {
    input.get("cwd").and_then(Value::as_str).unwrap_or(default)
}

/// The run input `input` as the hooks of a dialect with table `vocab` read
/// it: its `tool_name` and `tool_input` in the agent's name and shape
/// (borrowed when the table changes neither).
pub fn native_input<'a>(
    vocab: &ToolVocabulary,
    input: &'a Map<String, Value>,
    cwd: &str,
) -> Cow<'a, Map<String, Value>> {
    if vocab.is_empty() {
        return Cow::Borrowed(input);
    }
    let Some(name) = input.get("tool_name").and_then(Value::as_str) else { return Cow::Borrowed(input) };
    let call = vocab.to_native(name, input.get("tool_input"), input_cwd(input, cwd));
    if call.name == name && !matches!(call.input, Some(Cow::Owned(_))) {
        return Cow::Borrowed(input);
    }
    let mut out = input.clone();
    out.insert("tool_name".to_owned(), Value::String(call.name.into_owned()));
    if let Some(Cow::Owned(v)) = call.input {
        out.insert("tool_input".to_owned(), v);
    }
    Cow::Owned(out)
}

/// [`native_input`] of an input given as a JSON value (an object; any
/// other value is returned as it is).
pub fn native_value<'a>(vocab: &ToolVocabulary, input: &'a Value, cwd: &str) -> Cow<'a, Value> {
    match input {
        Value::Object(map) => match native_input(vocab, map, cwd) {
            Cow::Borrowed(_) => Cow::Borrowed(input),
            Cow::Owned(map) => Cow::Owned(Value::Object(map)),
        },
        _ => Cow::Borrowed(input),
    }
}

/// A canonical `tool_input` (a rewrite in force) of canonical tool `name`
/// in the shape of the agent with table `vocab`.
pub fn native_tool_input<'a>(vocab: &ToolVocabulary, name: &str, tool_input: &'a Value, cwd: &str) -> Cow<'a, Value> {
    vocab.to_native(name, Some(tool_input), cwd).input.unwrap_or(Cow::Borrowed(tool_input))
}

/// Claude Code's `Read` range (`offset`: the first line, 1-based;
/// `limit`: how many lines) as a first and a last line under `start` and
/// `end` (Gemini CLI's `start_line`/`end_line`, VS Code's
/// `startLine`/`endLine`), for a [`ToolShape`]. Values that are not line
/// numbers stay as they are.
pub fn lines_from_offset_limit(input: &Map<String, Value>, start: &str, end: &str) -> Map<String, Value> {
    let mut out = input.clone();
    let first = input.get("offset").and_then(Value::as_i64);
    let count = input.get("limit").and_then(Value::as_i64);
    if first.is_none() && count.is_none() {
        return out;
    }
    if (input.contains_key("offset") && first.is_none()) || (input.contains_key("limit") && count.is_none()) {
        return out;
    }
    out.remove("offset");
    out.remove("limit");
    let first = first.unwrap_or(1).max(1);
    out.insert(start.to_owned(), Value::from(first));
    if let Some(count) = count.filter(|n| *n > 0) {
        out.insert(end.to_owned(), Value::from(first + count - 1));
    }
    out
}

/// [`lines_from_offset_limit`] read back: `start`/`end` as `offset` and
/// `limit`; `None` when they are not line numbers.
pub fn offset_limit_from_lines(input: &Map<String, Value>, start: &str, end: &str) -> Option<Map<String, Value>> {
    let mut out = input.clone();
    let first = match out.remove(start) {
        None => None,
        Some(v) => Some(v.as_i64()?),
    };
    let last = match out.remove(end) {
        None => None,
        Some(v) => Some(v.as_i64()?),
    };
    if let Some(first) = first {
        out.insert("offset".to_owned(), Value::from(first));
    }
    if let Some(last) = last {
        let first = first.unwrap_or(1);
        if last < first {
            return None;
        }
        out.insert("limit".to_owned(), Value::from(last - first + 1));
    }
    Some(out)
}

/// `obj` with each field `from` renamed `to` (a field already named `to`
/// is replaced by the renamed one); the order of the others is kept.
fn rename<'r>(obj: &Map<String, Value>, pairs: impl Iterator<Item = (&'r str, &'r str)> + Clone) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, v) in obj {
        match pairs.clone().find(|(from, _)| from == k) {
            Some((_, to)) => {
                out.insert(to.to_owned(), v.clone());
            }
            None if pairs.clone().any(|(from, to)| to == k && obj.contains_key(from)) => {}
            None => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn upper(_: &ShapeCx<'_>, m: &Map<String, Value>) -> Map<String, Value> {
        let mut m = m.clone();
        if let Some(Value::String(s)) = m.get_mut("command") {
            *s = s.to_uppercase();
        }
        m
    }
    fn lower(_: &ShapeCx<'_>, m: &Map<String, Value>) -> Option<Map<String, Value>> {
        let mut m = m.clone();
        match m.get_mut("command") {
            Some(Value::String(s)) => *s = s.to_lowercase(),
            _ => return None,
        }
        Some(m)
    }

    static ROWS: &[ToolName] = &[
        ToolName::new("Bash", "shell").shape(ToolShape { to_native: upper, to_canonical: lower }),
        ToolName::new("Bash", "pwsh").only_to_canonical(),
        ToolName::new("Read", "read_file").fields(&[("file_path", "absolute_path")]),
        ToolName::new("Task", "task"),
        ToolName::new("Agent", "task"),
    ];
    static TABLE: ToolVocabulary =
        ToolVocabulary { names: ROWS, mcp: McpNames { prefix: "mcp_", separator: Some("_") } };
    static NO_SERVER: ToolVocabulary = ToolVocabulary { names: &[], mcp: McpNames { prefix: "MCP:", separator: None } };

    #[test]
    fn names_map_both_ways_and_unmapped_names_pass_through() {
        assert_eq!(TABLE.native_name("Bash"), "shell");
        assert_eq!(TABLE.native_name("Agent"), "task");
        assert_eq!(TABLE.native_name("Task"), "task");
        assert_eq!(TABLE.native_name("my_tool"), "my_tool");
        assert_eq!(TABLE.native_name("pwsh"), "pwsh", "a read-back-only row does not map forward");
        assert_eq!(TABLE.canonical_name("shell", None), "Bash");
        assert_eq!(TABLE.canonical_name("pwsh", None), "Bash");
        assert_eq!(TABLE.canonical_name("task", None), "Task");
        assert_eq!(TABLE.canonical_name("task", Some("Agent")), "Agent", "the call's own name is kept");
        assert_eq!(TABLE.canonical_name("my_tool", None), "my_tool");
        assert!(ToolVocabulary::NONE.is_empty());
        assert_eq!(ToolVocabulary::NONE.native_name("mcp__gh__issue"), "mcp__gh__issue");
    }

    #[test]
    fn mcp_names_follow_the_agents_spelling() {
        assert_eq!(split_mcp("mcp__github__create_issue"), Some(("github", "create_issue")));
        assert_eq!(split_mcp("mcp__github"), None);
        assert_eq!(split_mcp("mcp____x"), None);
        assert_eq!(TABLE.native_name("mcp__github__create_issue"), "mcp_github_create_issue");
        assert_eq!(TABLE.canonical_name("mcp_github_create_issue", None), "mcp__github__create_issue");
        assert_eq!(NO_SERVER.native_name("mcp__github__create_issue"), "MCP:create_issue");
        assert_eq!(
            NO_SERVER.canonical_name("MCP:create_issue", Some("mcp__github__create_issue")),
            "mcp__github__create_issue"
        );
        assert_eq!(NO_SERVER.canonical_name("MCP:create_issue", None), "MCP:create_issue");
    }

    #[test]
    fn inputs_are_renamed_and_reshaped_both_ways() {
        let read = json!({"file_path": "/a", "limit": 3});
        let call = TABLE.to_native("Read", Some(&read), "/w");
        assert_eq!(call.name, "read_file");
        assert_eq!(call.input.as_deref(), Some(&json!({"absolute_path": "/a", "limit": 3})));
        let back = TABLE.input_to_canonical("Read", "read_file", &json!({"absolute_path": "/b"}), Some(&read), "/w");
        assert_eq!(back, Some(json!({"file_path": "/b"})));
        let bash = json!({"command": "ls"});
        assert_eq!(TABLE.to_native("Bash", Some(&bash), "/w").input.as_deref(), Some(&json!({"command": "LS"})));
        assert_eq!(
            TABLE.input_to_canonical("Bash", "shell", &json!({"command": "PWD"}), None, "/w"),
            Some(json!({"command": "pwd"}))
        );
        assert_eq!(TABLE.input_to_canonical("Bash", "shell", &json!({}), None, "/w"), None);
        // Unmapped tools keep their input as it is.
        let other = json!({"x": 1});
        let call = TABLE.to_native("Other", Some(&other), "/w");
        assert!(matches!(call.input, Some(Cow::Borrowed(_))));
        assert_eq!(TABLE.input_to_canonical("Other", "Other", &other, None, "/w"), Some(other));
    }
}
