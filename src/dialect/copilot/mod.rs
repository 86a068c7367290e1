//! The GitHub Copilot CLI dialect: `.github/hooks/*.json` hooks files
//! (`{"version": 1, "hooks": {…}}`), the inline `hooks` of Copilot's
//! `settings.json` files, and Claude Code settings read the way Copilot CLI
//! reads them — with Copilot CLI's decisions, as GitHub's hooks reference
//! documents them (`docs/dialects.md` has the table of rules).
//!
//! - Event keys are camelCase (`preToolUse`, `agentStop`, …). PascalCase
//!   keys (`PreToolUse`, `Stop`, …, the names VS Code and Claude Code use)
//!   are accepted too: their entries run after the camelCase entries of the
//!   same event, receive the snake_case ("VS Code compatible") payload, and
//!   PreToolUse / PostToolUse / PermissionRequest entries under them match
//!   with Claude Code's matcher semantics against Claude tool names. Those
//!   entries are read by [`COPILOT_COMPAT`], a second value of this dialect
//!   (same name, same rule table). Events without a canonical meaning
//!   (`userPromptTransformed`, `preMcpToolCall`, `errorOccurred`) are kept
//!   as named events, fired with `hl_engine_run_named` by their camelCase
//!   name.
//! - Entries are flat (`{"type": "command", "bash": …, "matcher": …}`);
//!   Claude-style groups (`{"matcher": …, "hooks": [...]}`) are flattened
//!   (`copilot/config.rs`).
//! - Every event's hooks run one after another in configuration order.
//! - The payload is camelCase with `toolArgs` a JSON-encoded *string*
//!   (`copilot/payload.rs`); replies are flat JSON objects (`copilot/reply.rs`).
//! - Files recognised by path: `.github/hooks/*.json`, `.copilot/hooks/*.json`,
//!   `github-copilot/policy.d/*.json`, `.github/copilot/settings*.json`
//!   and `.copilot/settings.json`. A `.claude/settings.json` stays Claude
//!   Code's unless the `dialect` option says `copilot`.

pub(crate) mod config;
pub(crate) mod payload;
pub(crate) mod reply;

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use super::tools::{McpNames, ShapeCx, ToolName, ToolShape, ToolVocabulary};
use super::{Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::{HooksConfig, SourceInfo};
use crate::error::Result;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{
    BlockFields, Column, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, FieldMerge, HandlerTimeouts, InputRules,
    OnFailure, Precedence, Profile, RunOrder, TimeoutUnit, CANONICAL_FAMILIES,
};

/// The Copilot CLI dialect (see the module documentation). `compat`: the
/// value that reads entries configured under PascalCase event keys.
#[derive(Debug)]
pub struct Copilot {
    pub(crate) compat: bool,
}

/// The Copilot CLI dialect's value (entries under camelCase keys).
pub static COPILOT: Copilot = Copilot { compat: false };

/// The value that reads entries configured under PascalCase keys (the
/// "VS Code compatible" payload, Claude-format matchers on tool events,
/// `hookSpecificOutput` read first on PreToolUse). Same name and rule
/// table as [`COPILOT`].
pub static COPILOT_COMPAT: Copilot = Copilot { compat: true };

/// Every hook runs in order; exit 2 is a warning (stderr for the user,
/// stdout still read).
const BASE: EventRules = EventRules { run_order: RunOrder::Sequential, exit2: Exit2::Warning, ..EventRules::NEUTRAL };

/// The Copilot CLI profile: Copilot CLI's decisions, as GitHub's hooks
/// reference documents them.
pub static PROFILE: Profile = Profile {
    name: "copilot",
    default_timeout: Duration::from_secs(30),
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Lenient,
    dedupe: Dedupe::None,
    families: CANONICAL_FAMILIES,
    named: &[],
    dialect_fields: FieldMerge::Last,
    // Its configs have command hooks only (no prompt or agent type, no exec
    // form with placeholders).
    handler_timeouts: HandlerTimeouts { prompt: Duration::from_secs(30), agent: Duration::from_secs(30), lowered: &[] },
    exec_placeholders: &[],
    events: EventTable {
        session_start: EventRules { later_overrides: true, ..BASE },
        session_end: BASE,
        subagent_start: BASE,
        subagent_stop: EventRules { block_fields: BlockFields::Decision, later_overrides: true, ..BASE },
        user_prompt_submit: BASE,
        pre_tool_use: EventRules {
            precedence: Precedence::FirstDenyStops,
            on_failure: OnFailure::DenyFailuresExceptTimeouts { reason: "Denied by preToolUse hook (hook errored)" },
            exit2: Exit2::Block { reason: Exit2Reason::StdoutThenStderr, needs_stderr: false },
            ..BASE
        },
        // A `decision: "block"` replaces the tool's result with its reason;
        // the hooks' contexts are discarded.
        post_tool_use: EventRules { block_replaces_result: true, block_drops_context: true, ..BASE },
        permission_request: EventRules {
            exit2: Exit2::Block { reason: Exit2Reason::StdoutIgnoringStderr, needs_stderr: false },
            later_overrides: true,
            ..BASE
        },
        pre_compact: BASE,
        // "After 8 consecutive `block` continuations, the CLI overrides the
        // hook and ends the turn anyway."
        stop: EventRules { block_fields: BlockFields::Decision, later_overrides: true, block_cap: true, ..BASE },
        notification: BASE,
        post_tool_use_failure: EventRules { exit2: Exit2::Context, ..BASE },
    },
    unknown_event: BASE,
};

/// Copilot CLI's runtime tool names (what `toolName` and native matchers see).
pub const TOOLS: &[&str] = &[
    "bash",
    "powershell",
    "view",
    "create",
    "edit",
    "str_replace_editor",
    "apply_patch",
    "grep",
    "rg",
    "glob",
    "web_fetch",
    "web_search",
    "ask_user",
    "update_todo",
    "task",
    "store_memory",
];

/// Copilot CLI's names and argument shapes of the canonical tools, and its
/// MCP spelling `<server>/<tool>` — the one table of Claude Code names this
/// dialect has: [`runtime_name`] and [`claude_names`] read it too.
/// Sources: GitHub's hooks reference ("Tool names for hook matching") and
/// the Copilot CLI 1.0.63 package for the names; VS Code's Copilot CLI tool
/// interfaces (`copilotToolDisplay.ts`) for the arguments (`bash {command,
/// timeout}`, `view {path, view_range}`, `create {path, file_text}`,
/// `edit {path, old_str, new_str}`, `grep`/`glob {pattern, path, …}`,
/// `web_fetch {url}`).
pub static VOCABULARY: ToolVocabulary = ToolVocabulary { names: ROWS, mcp: MCP };

/// [`VOCABULARY`]'s rows.
static ROWS: &[ToolName] = &[
    ToolName::new("Bash", "bash"),
    ToolName::new("Bash", "powershell").only_to_canonical(),
    ToolName::new("PowerShell", "powershell"),
    ToolName::new("Read", "view").fields(&[("file_path", "path")]).shape(VIEW_RANGE),
    ToolName::new("Write", "create").fields(&[("file_path", "path"), ("content", "file_text")]),
    ToolName::new("Edit", "edit").fields(EDIT_FIELDS),
    ToolName::new("Edit", "str_replace_editor").only_to_canonical(),
    ToolName::new("Edit", "apply_patch").only_to_canonical(),
    ToolName::new("Grep", "grep"),
    ToolName::new("Grep", "rg").only_to_canonical(),
    ToolName::new("Glob", "glob"),
    ToolName::new("WebFetch", "web_fetch"),
    ToolName::new("WebSearch", "web_search"),
    ToolName::new("AskUserQuestion", "ask_user"),
    ToolName::new("TodoWrite", "update_todo"),
    ToolName::new("Agent", "task"),
    ToolName::new("Task", "task"),
];

/// `edit`'s renamed arguments.
const EDIT_FIELDS: &[(&str, &str)] = &[("file_path", "path"), ("old_string", "old_str"), ("new_string", "new_str")];

/// MCP tools are `<server>/<tool>` (`toolName` "`mcp-server/tool`").
const MCP: McpNames = McpNames { prefix: "", separator: Some("/") };

/// The table of the PascalCase entries' value ([`COPILOT_COMPAT`]): their
/// payload names the tool by its Claude name and passes the arguments as
/// Copilot CLI's tool received them.
pub static COMPAT_VOCABULARY: ToolVocabulary = ToolVocabulary { names: COMPAT_ROWS, mcp: MCP };

static COMPAT_ROWS: &[ToolName] = &[
    ToolName::new("Read", "Read").fields(&[("file_path", "path")]).shape(VIEW_RANGE),
    ToolName::new("Write", "Write").fields(&[("file_path", "path"), ("content", "file_text")]),
    ToolName::new("Edit", "Edit").fields(EDIT_FIELDS),
];

/// `view`'s `view_range: [start, end]` (1-based, inclusive, `-1`: to the
/// end) for Claude Code's `offset` and `limit`.
const VIEW_RANGE: ToolShape = ToolShape { to_native: view_range, to_canonical: offset_limit };

fn view_range(_: &ShapeCx<'_>, input: &Map<String, Value>) -> Map<String, Value> {
    let mut out = input.clone();
    let offset = out.remove("offset");
    let limit = out.remove("limit");
    let start = offset.as_ref().and_then(Value::as_i64);
    match (start, limit.as_ref().and_then(Value::as_i64)) {
        (start, Some(limit)) if limit > 0 => {
            let start = start.unwrap_or(1).max(1);
            out.insert("view_range".into(), serde_json::json!([start, start + limit - 1]));
        }
        (Some(start), _) => {
            out.insert("view_range".into(), serde_json::json!([start.max(1), -1]));
        }
        _ => {
            // Values that are not line numbers stay under their own names.
            out.extend(offset.map(|v| ("offset".to_owned(), v)));
            out.extend(limit.map(|v| ("limit".to_owned(), v)));
        }
    }
    out
}

fn offset_limit(_: &ShapeCx<'_>, input: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut out = input.clone();
    if let Some(range) = out.remove("view_range") {
        let pair = range.as_array().filter(|a| a.len() == 2).map(|a| (a[0].as_i64(), a[1].as_i64()));
        let Some((Some(start), Some(end))) = pair else { return None };
        out.insert("offset".into(), Value::from(start));
        if end >= start {
            out.insert("limit".into(), Value::from(end - start + 1));
        }
    }
    Some(out)
}

/// The Claude tool names of a runtime tool ([`VOCABULARY`] read back), the
/// first one what PascalCase payloads report and Claude-format regexes are
/// tested against; empty for tools without one.
pub fn claude_names(runtime: &str) -> &'static [&'static str] {
    static BY_RUNTIME: std::sync::OnceLock<Vec<(&'static str, &'static [&'static str])>> = std::sync::OnceLock::new();
    let table = BY_RUNTIME.get_or_init(|| {
        let mut grouped: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
        for row in ROWS {
            match grouped.iter_mut().find(|(native, _)| *native == row.native) {
                Some((_, names)) if !names.contains(&row.canonical) => names.push(row.canonical),
                Some(_) => {}
                None => grouped.push((row.native, vec![row.canonical])),
            }
        }
        // Built once: the slices live as long as the process.
        grouped.into_iter().map(|(native, names)| (native, &*Vec::leak(names))).collect()
    });
    table.iter().find(|(native, _)| *native == runtime).map_or(&[], |(_, names)| names)
}

/// The runtime name of a tool the host names: a Claude Code tool name
/// (`Bash`, `Read`, …) becomes Copilot CLI's (`bash`, `view`, …) by
/// [`VOCABULARY`]; any other name is already a runtime name.
pub fn runtime_name(tool: &str) -> &str {
    VOCABULARY.row_of_canonical(tool).map_or(tool, |row| row.native)
}

/// The tool name a PascalCase payload reports: the runtime tool's first
/// Claude name, else the runtime name.
pub fn claude_name(runtime: &str) -> &str {
    claude_names(runtime).first().copied().unwrap_or(runtime)
}

/// The camelCase config key of each event.
pub(crate) static KEYS: EventTable<&str> = EventTable {
    session_start: "sessionStart",
    session_end: "sessionEnd",
    subagent_start: "subagentStart",
    subagent_stop: "subagentStop",
    user_prompt_submit: "userPromptSubmitted",
    pre_tool_use: "preToolUse",
    post_tool_use: "postToolUse",
    permission_request: "permissionRequest",
    pre_compact: "preCompact",
    stop: "agentStop",
    notification: "notification",
    post_tool_use_failure: "postToolUseFailure",
};

/// The PascalCase alias of each event (`Stop` for `agentStop`,
/// `UserPromptSubmit` for `userPromptSubmitted`).
pub(crate) static PASCAL_KEYS: EventTable<&str> = EventTable {
    session_start: "SessionStart",
    session_end: "SessionEnd",
    subagent_start: "SubagentStart",
    subagent_stop: "SubagentStop",
    user_prompt_submit: "UserPromptSubmit",
    pre_tool_use: "PreToolUse",
    post_tool_use: "PostToolUse",
    permission_request: "PermissionRequest",
    pre_compact: "PreCompact",
    stop: "Stop",
    notification: "Notification",
    post_tool_use_failure: "PostToolUseFailure",
};

/// The events without a canonical meaning, by camelCase key and
/// PascalCase alias (fired by the camelCase name).
pub(crate) const NATIVE_EVENTS: &[(&str, Option<&str>)] = &[
    ("userPromptTransformed", None),
    ("preMcpToolCall", Some("PreMcpToolCall")),
    ("errorOccurred", Some("ErrorOccurred")),
];

/// Both key spellings of every canonical event, for [`Dialect::event_keys`].
static BOTH_KEYS: EventTable<[&str; 2]> = EventTable {
    session_start: ["sessionStart", "SessionStart"],
    session_end: ["sessionEnd", "SessionEnd"],
    subagent_start: ["subagentStart", "SubagentStart"],
    subagent_stop: ["subagentStop", "SubagentStop"],
    user_prompt_submit: ["userPromptSubmitted", "UserPromptSubmit"],
    pre_tool_use: ["preToolUse", "PreToolUse"],
    post_tool_use: ["postToolUse", "PostToolUse"],
    permission_request: ["permissionRequest", "PermissionRequest"],
    pre_compact: ["preCompact", "PreCompact"],
    stop: ["agentStop", "Stop"],
    notification: ["notification", "Notification"],
    post_tool_use_failure: ["postToolUseFailure", "PostToolUseFailure"],
};

impl Copilot {
    /// Whether entries of `event` have a matcher in Copilot CLI (a matcher
    /// on any other event is ignored).
    pub(crate) fn has_matcher(event: &RunEvent) -> bool {
        match event {
            RunEvent::Known(e) => matches!(
                e,
                HookEvent::PreToolUse
                    | HookEvent::PostToolUse
                    | HookEvent::PermissionRequest
                    | HookEvent::SubagentStart
                    | HookEvent::PreCompact
                    | HookEvent::Notification
            ),
            RunEvent::Named(name) => &**name == "preMcpToolCall",
        }
    }
}

impl Dialect for Copilot {
    fn name(&self) -> &'static str {
        "copilot"
    }

    fn id(&self) -> crate::config::DialectId {
        match self.compat {
            false => crate::config::DialectId::new("copilot"),
            true => crate::config::DialectId::variant("copilot", 1),
        }
    }

    fn title(&self) -> &'static str {
        "Copilot CLI"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// `.github/hooks/*.json`, `.copilot/hooks/*.json` (`~/.copilot`),
    /// `github-copilot/policy.d/*.json`, `.github/copilot/settings*.json`
    /// and `.copilot/settings.json`.
    fn recognises_path(&self, path: &Path) -> bool {
        fn part(p: Option<&Path>) -> &str {
            p.and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or("")
        }
        let name = part(Some(path));
        let parent = part(path.parent());
        let grandparent = part(path.parent().and_then(Path::parent));
        if !name.ends_with(".json") {
            return false;
        }
        matches!((grandparent, parent), (".github" | ".copilot", "hooks") | ("github-copilot", "policy.d"))
            || ((grandparent, parent) == (".github", "copilot") && name.starts_with("settings"))
            || (parent == ".copilot" && name == "settings.json")
    }

    fn read_json(&self, value: &Value, source: &SourceInfo) -> Result<HooksConfig> {
        config::read(value, source)
    }

    /// The CLI loads every hooks file of its directories and settings
    /// files: one it rejects whole (invalid JSON, a bad `version`, an
    /// event value that is not an array, a strict settings entry) is left
    /// out, logged, and the others still load.
    fn skips_invalid_source(&self) -> bool {
        true
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        BOTH_KEYS.get(event)
    }

    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, _trigger: &'a str) -> Option<&'a str> {
        let field = |name: &str| input.get(name).and_then(Value::as_str).unwrap_or("");
        if !Self::has_matcher(event) {
            return None;
        }
        match event.known() {
            Some(HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PermissionRequest) => {
                Some(runtime_name(field("tool_name")))
            }
            Some(HookEvent::SubagentStart) => Some(field("agent_name")),
            Some(HookEvent::PreCompact) => Some(field("trigger")),
            Some(HookEvent::Notification) => Some(field("notification_type")),
            _ => Some(input.get("matcher_value").and_then(Value::as_str).unwrap_or("")),
        }
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        if !Self::has_matcher(event) {
            return None;
        }
        Some(match event.known() {
            Some(HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PermissionRequest) => {
                if self.compat {
                    "the tool's Claude name (tool_name, runtime names accepted in name lists)"
                } else {
                    "the runtime tool name (tool_name: bash, edit, …)"
                }
            }
            Some(HookEvent::SubagentStart) => "agent_name",
            Some(HookEvent::PreCompact) => "trigger",
            Some(HookEvent::Notification) => "notification_type",
            _ => "matcher_value (\"<server>/<tool>\")",
        })
    }

    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Map<String, Value> {
        payload::payload(self.compat, event, facts, input, tool_input)
    }

    fn environment(&self, _event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        add("COPILOT_CLI", "1");
        add("CLAUDE_PROJECT_DIR", facts.cwd);
        add("COPILOT_PROJECT_DIR", facts.cwd);
    }

    fn environment_names(&self) -> &'static [&'static str] {
        &["COPILOT_CLI", "CLAUDE_PROJECT_DIR", "COPILOT_PROJECT_DIR"]
    }

    /// The project directory under both names, and a plugin's root under
    /// its three.
    fn placeholders(&self) -> &'static [Placeholder] {
        &[
            Placeholder { name: "CLAUDE_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "COPILOT_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
            Placeholder { name: "COPILOT_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
            Placeholder { name: "CLAUDE_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
        ]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        reply::read(self.compat, cx, exec)
    }

    /// Exit 2: preToolUse denies with stderr as the reason; a
    /// permissionRequest denies with stdout's `message` (its stderr is
    /// ignored); on the other events exit 2 is a warning, which blocks
    /// nothing.
    fn blocking_answer(&self, event: &RunEvent, reason: &str) -> Option<super::BlockingAnswer> {
        match event.known() {
            Some(HookEvent::PermissionRequest) => Some(super::BlockingAnswer {
                exit_code: 2,
                stdout: Some(serde_json::json!({"behavior": "deny", "message": reason}).to_string()),
                stderr: Some(reason.to_owned()),
            }),
            _ => super::exit2_blocking_answer(self.profile().rules_of(event).exit2, reason),
        }
    }

    fn describe_matcher(&self, matcher: &Matcher, raw: Option<&str>) -> String {
        matcher.describe(self.title(), true, raw)
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn tool_vocabulary(&self) -> &'static ToolVocabulary {
        if self.compat {
            &COMPAT_VOCABULARY
        } else {
            &VOCABULARY
        }
    }

    fn native_event_keys(&self) -> &'static [&'static str] {
        &["userPromptTransformed", "preMcpToolCall", "errorOccurred"]
    }

    /// Copilot CLI writes the payload with `JSON.stringify`, no newline.
    fn payload_ends_with_newline(&self) -> bool {
        false
    }

    /// A plugin's hooks get its root in Copilot CLI's names and Claude
    /// Code's.
    fn plugin_root_variables(&self) -> &'static [&'static str] {
        &["PLUGIN_ROOT", "COPILOT_PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT"]
    }

    /// The policy hooks files (`/etc/github-copilot/policy.d/*.json`, by
    /// name), read before every other source.
    fn system_files(&self) -> &'static [&'static str] {
        if cfg!(windows) {
            &["C:/ProgramData/GitHub/Copilot/policy.d/*.json"]
        } else {
            &["/etc/github-copilot/policy.d/*.json"]
        }
    }

    /// Policy hooks: "Not disabled by `disableAllHooks`"; "Within an event,
    /// policy entries are moved first".
    fn system_files_are_policy(&self) -> bool {
        true
    }

    /// "Timeout: fail-open for every event, including preToolUse and
    /// policy hooks"; other failures of a policy hook fail closed ("Policy
    /// hook failed").
    fn policy_timeouts_fail_open(&self) -> bool {
        true
    }

    /// On Unix a policy file counts only when root owns it and neither its
    /// group nor others may write it.
    fn admits_system_file(&self, path: &Path) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            std::fs::metadata(path).is_ok_and(|m| m.uid() == 0 && m.mode() & 0o022 == 0)
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            true
        }
    }

    /// A plugin's `hooks/hooks.json`: the directory above `hooks/` (not a
    /// repository's or the user's own `.github/hooks/hooks.json`,
    /// `.copilot/hooks/hooks.json`).
    fn plugin_root_of(&self, path: &Path) -> Option<std::path::PathBuf> {
        if self.recognises_path(path) {
            return None;
        }
        super::plugin_hooks_json_root(path)
    }

    fn workspace_files(&self) -> &'static [&'static str] {
        &[".github/hooks/*.json", ".github/copilot/settings.json", ".github/copilot/settings.local.json"]
    }

    /// The repository's cross-tool `.claude/settings.json` and
    /// `.claude/settings.local.json`, read after Copilot's own files.
    fn borrowed_workspace_files(&self) -> &'static [&'static str] {
        &[".claude/settings.json", ".claude/settings.local.json"]
    }

    /// `$COPILOT_HOME/hooks/*.json` (default `~/.copilot/hooks/`), by
    /// name, then the inline hooks of `~/.copilot/settings.json`.
    fn user_files(&self, home: &Path) -> Vec<std::path::PathBuf> {
        let dir = match std::env::var_os("COPILOT_HOME").filter(|d| !d.is_empty()) {
            Some(d) => std::path::PathBuf::from(d),
            None => home.join(".copilot"),
        };
        let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir.join("hooks"))
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "json"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files.push(dir.join("settings.json"));
        files
    }

    /// A Claude-style group's keys (flat entries have no group).
    fn group_field_names(&self) -> &'static [&'static str] {
        &["matcher", "hooks"]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        &["type", "bash", "powershell", "command", "exec", "args", "cwd", "env", "timeoutSec", "timeout", "matcher"]
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        reply::honours(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copilot_runs_every_event_in_order_with_a_30_second_default_timeout() {
        for event in HookEvent::ALL {
            assert_eq!(PROFILE.rules(event).run_order, RunOrder::Sequential, "{event}");
        }
        assert_eq!(PROFILE.unknown_event.run_order, RunOrder::Sequential);
        assert_eq!(PROFILE.default_timeout, Duration::from_secs(30));
    }

    #[test]
    fn hooks_files_and_copilot_settings_are_recognised_by_path() {
        for p in [
            "/r/.github/hooks/guard.json",
            "/r/.github/hooks/hooks.json",
            "/home/u/.copilot/hooks/audit.json",
            "/etc/github-copilot/policy.d/00-org.json",
            "/r/.github/copilot/settings.json",
            "/r/.github/copilot/settings.local.json",
            "/home/u/.copilot/settings.json",
        ] {
            assert!(COPILOT.recognises_path(Path::new(p)), "{p}");
        }
        for p in ["/r/.claude/settings.json", "/r/hooks/hooks.json", "/r/.github/hooks/x.toml", "/r/.github/x.json"] {
            assert!(!COPILOT.recognises_path(Path::new(p)), "{p}");
        }
    }

    /// "Plugins: each installed, enabled plugin's `hooks.json` or
    /// `hooks/hooks.json`" — its hooks get the plugin's root.
    #[test]
    fn a_plugins_hooks_json_names_its_root_but_a_repositorys_does_not() {
        let root = |p: &str| COPILOT.plugin_root_of(Path::new(p));
        assert_eq!(
            root("/home/u/.copilot/installed-plugins/guard/hooks/hooks.json"),
            Some("/home/u/.copilot/installed-plugins/guard".into())
        );
        assert_eq!(root("/r/.github/hooks/hooks.json"), None);
        assert_eq!(root("/home/u/.copilot/hooks/hooks.json"), None);
        assert_eq!(root("/r/.github/hooks/guard.json"), None);
    }

    #[test]
    fn claude_names_map_both_ways() {
        assert_eq!(runtime_name("Bash"), "bash");
        assert_eq!(runtime_name("bash"), "bash");
        assert_eq!(runtime_name("Read"), "view");
        assert_eq!(runtime_name("my_tool"), "my_tool");
        assert_eq!(claude_name("powershell"), "Bash");
        assert_eq!(claude_name("task"), "Agent");
        assert_eq!(claude_name("github/create_issue"), "github/create_issue");
        for tool in TOOLS {
            if let Some(claude) = claude_names(tool).first() {
                assert_eq!(claude_name(runtime_name(claude)), *claude, "{tool}");
            }
        }
    }
}
