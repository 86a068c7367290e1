//! The Augment dialect (`augment`): the hooks of Augment's Auggie CLI (and
//! of the Augment extensions, which read the same system and user files),
//! close to Claude Code's wire (docs.augmentcode.com `cli/hooks`).
//!
//! What differs from Claude Code, all here:
//!
//! - files, highest precedence first: `/etc/augment/settings.json`
//!   (Windows `C:\ProgramData\Augment\settings.json`: "system-wide
//!   settings for enterprise/admin policies (immutable)", read as a policy
//!   source), `<workspace>/.augment/settings.local.json`,
//!   `<workspace>/.augment/settings.json`, `~/.augment/settings.json`; the
//!   hooks are under `hooks` (`config.rs`);
//! - events `PreToolUse`, `PostToolUse`, `Stop`, `SessionStart`,
//!   `SessionEnd`, `Notification` and `PromptSubmit` (Augment's name of
//!   UserPromptSubmit); matchers (regular expressions on the tool name,
//!   `mcp:` for MCP tools) only on the two tool events;
//! - `timeout` in milliseconds, default 60000;
//! - only `command` hooks, whose `command` is the path of a `.sh`, `.ps1`,
//!   `.cmd` or `.bat` script run directly, without a shell (`config.rs`);
//! - the payload has `conversation_id`, `workspace_roots` and `is_mcp_tool`
//!   instead of `session_id`; the hooks get `AUGMENT_PROJECT_DIR`,
//!   `AUGMENT_CONVERSATION_ID`, `AUGMENT_HOOK_EVENT`, on the tool events
//!   `AUGMENT_TOOL_NAME` and, for a plugin's hooks, `AUGMENT_PLUGIN_ROOT`;
//! - stdout JSON is read on exit 0 only; exit 2 blocks only PreToolUse;
//!   only `permissionDecision: "deny"` decides a tool call, only Stop's
//!   `decision: "block"` blocks anything else (`reply.rs`);
//! - Augment's tool names (`launch-process`, `save-file`,
//!   `str-replace-editor`, `view`, ...).

mod config;
mod reply;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

use super::tools::{McpNames, ToolName, ToolVocabulary};
use super::{Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::{HooksConfig, SourceInfo};
use crate::error::Result;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::outcome::HookKind;
use crate::model::outcome::HookMessageLevel::Error as ErrorLevel;
use crate::model::reply::HookReply;
use crate::model::rules::{
    BlockFields, BlockReasons, Column, EventRules, EventTable, Exit2, Exit2Reason, HandlerTimeouts, Precedence,
    Profile, TimeoutUnit, ToolInputFlow,
};

/// The Augment dialect (see the module documentation).
#[derive(Debug)]
pub struct Augment;

/// The Augment dialect's value.
pub static AUGMENT: Augment = Augment;

/// Every event: stdout JSON is read "on exit 0 only" (no JSON over other
/// exit codes); another non-zero exit is a non-blocking error.
const BASE: EventRules = EventRules { failure_level: ErrorLevel, quiet_success_stderr: true, ..EventRules::NEUTRAL };

/// PreToolUse: exit 2 blocks with stderr as the reason (stdout is not read
/// on exit 2); a deny wins over everything else.
const PRE_TOOL_USE: EventRules = EventRules {
    precedence: Precedence::MostRestrictive,
    tool_input: ToolInputFlow::Original,
    exit2: Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: false },
    ..BASE
};

/// Stop: "Stop can block the agent from finishing (via decision:
/// "block")"; exit 2 does not block it.
const STOP: EventRules =
    EventRules { block_fields: BlockFields::Decision, block_reasons: BlockReasons::Joined("\n"), ..BASE };

/// Augment's rules: Claude Code's table with Augment's units, defaults,
/// exit codes and decisions.
pub static PROFILE: Profile = Profile {
    name: "augment",
    // "timeout | (Optional) Timeout in milliseconds (default: 60000ms)."
    default_timeout: Duration::from_secs(60),
    timeout_unit: TimeoutUnit::Milliseconds,
    handler_timeouts: HandlerTimeouts { lowered: &[], ..super::claude::RULES.handler_timeouts },
    exec_placeholders: &["AUGMENT_PROJECT_DIR", "AUGMENT_PLUGIN_ROOT"],
    events: EventTable {
        session_start: EventRules { context_needs_exit_0: true, ..BASE },
        session_end: BASE,
        subagent_start: BASE,
        subagent_stop: BASE,
        user_prompt_submit: EventRules { context_needs_exit_0: true, ..BASE },
        pre_tool_use: PRE_TOOL_USE,
        post_tool_use: BASE,
        permission_request: BASE,
        pre_compact: BASE,
        stop: STOP,
        notification: BASE,
        post_tool_use_failure: BASE,
    },
    named: &[],
    unknown_event: BASE,
    ..super::claude::RULES
};

/// Augment's tools (its `toolPermissions` and hooks name them so).
const TOOLS: &[&str] = &[
    "launch-process",
    "read-process",
    "write-process",
    "kill-process",
    "list-processes",
    "save-file",
    "str-replace-editor",
    "view",
    "remove-files",
    "codebase-retrieval",
    "web-search",
    "web-fetch",
    "diagnostics",
];

/// Claude Code's names of Augment's tools: a file is `path`, a new file's
/// text `file_content`.
static TOOL_VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "launch-process"),
        ToolName::new("Write", "save-file").fields(&[("file_path", "path"), ("content", "file_content")]),
        ToolName::new("Edit", "str-replace-editor").fields(&[("file_path", "path")]),
        ToolName::new("MultiEdit", "str-replace-editor").fields(&[("file_path", "path")]),
        ToolName::new("Read", "view").fields(&[("file_path", "path")]),
        ToolName::new("WebFetch", "web-fetch"),
        ToolName::new("WebSearch", "web-search"),
    ],
    mcp: McpNames::CANONICAL,
};

/// The variables Augment's hooks get from the engine.
const ENV_NAMES: &[&str] = &[
    "AUGMENT_PROJECT_DIR",
    "AUGMENT_CONVERSATION_ID",
    "AUGMENT_HOOK_EVENT",
    "AUGMENT_TOOL_NAME",
    "AUGMENT_PLUGIN_ROOT",
];

/// Augment's name of `event` (`PromptSubmit` for UserPromptSubmit).
fn event_name(event: &RunEvent) -> &str {
    match event.known() {
        Some(HookEvent::UserPromptSubmit) => "PromptSubmit",
        _ => event.name(),
    }
}

/// Augment's matcher rule: absent, `""`, `".*"` (and `"*"`) match every
/// tool; `mcp:*` every MCP tool; `mcp:<regex>` an MCP tool whose name the
/// regular expression finds after `mcp__`; anything else a case-sensitive
/// regular expression searched in the tool name.
fn matcher_of(_key: &str, raw: Option<&str>) -> std::result::Result<Matcher, regex::Error> {
    let Some(p) = raw.map(str::trim) else {
        return Ok(Matcher::All);
    };
    if p.is_empty() || p == "*" || p == ".*" {
        return Ok(Matcher::All);
    }
    match p.strip_prefix("mcp:") {
        Some("*") => Ok(Matcher::Regex(crate::config::matcher::compile("^mcp__")?)),
        Some(re) => Ok(Matcher::Regex(crate::config::matcher::compile(&format!("^mcp__.*?(?:{re})"))?)),
        None => Ok(Matcher::Regex(crate::config::matcher::compile(p)?)),
    }
}

impl Dialect for Augment {
    fn name(&self) -> &'static str {
        "augment"
    }

    fn title(&self) -> &'static str {
        "Augment"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// `settings.json` and `settings.local.json` in a `.augment` directory
    /// (the user's `~/.augment/settings.json` among them), and the system
    /// file in `/etc/augment` (Windows `C:\ProgramData\Augment`).
    fn recognises_path(&self, path: &Path) -> bool {
        let (name, parent) = crate::dialect::file_and_dir_names(path);
        (parent == ".augment" && matches!(name, "settings.json" | "settings.local.json"))
            || (name == "settings.json" && parent.eq_ignore_ascii_case("augment"))
    }

    fn read_json(&self, value: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        config::read(value, info)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        match event {
            HookEvent::PreToolUse => &["PreToolUse"],
            HookEvent::PostToolUse => &["PostToolUse"],
            HookEvent::Stop => &["Stop"],
            HookEvent::SessionStart => &["SessionStart"],
            HookEvent::SessionEnd => &["SessionEnd"],
            HookEvent::Notification => &["Notification"],
            HookEvent::UserPromptSubmit => &["PromptSubmit"],
            _ => &[],
        }
    }

    /// "matcher ... Optional for PreToolUse and PostToolUse ... Not used
    /// for session events": the other events match every group.
    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, _trigger: &'a str) -> Option<&'a str> {
        match event.known() {
            Some(HookEvent::PreToolUse | HookEvent::PostToolUse) => {
                Some(input.get("tool_name").and_then(Value::as_str).unwrap_or(""))
            }
            _ => None,
        }
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        match event.known() {
            Some(HookEvent::PreToolUse | HookEvent::PostToolUse) => Some("tool_name"),
            _ => None,
        }
    }

    /// Claude Code's payload with Augment's fields: `conversation_id` (the
    /// session) in place of `session_id`, `workspace_roots` (the workspace,
    /// unless the input gives them), `is_mcp_tool` on the tool events, and
    /// Augment's event name; no `transcript_path`.
    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Map<String, Value> {
        let base = super::protocol::payload::payload(event, facts, input, tool_input);
        let mut p = Map::with_capacity(base.len() + 3);
        p.insert("hook_event_name".into(), Value::from(event_name(event)));
        p.insert("conversation_id".into(), Value::from(facts.session_id));
        let roots = input.get("workspace_roots").cloned().unwrap_or_else(|| Value::Array(vec![facts.cwd.into()]));
        p.insert("workspace_roots".into(), roots);
        for (k, v) in base {
            if !matches!(k.as_str(), "session_id" | "transcript_path" | "hook_event_name" | "workspace_roots") {
                p.insert(k, v);
            }
        }
        if matches!(event.known(), Some(HookEvent::PreToolUse | HookEvent::PostToolUse))
            && !p.contains_key("is_mcp_tool")
        {
            let mcp = p.get("tool_name").and_then(Value::as_str).is_some_and(|n| n.starts_with("mcp__"));
            p.insert("is_mcp_tool".into(), Value::Bool(mcp));
        }
        p
    }

    /// `AUGMENT_PROJECT_DIR` (the workspace), `AUGMENT_CONVERSATION_ID`
    /// (the session) and `AUGMENT_HOOK_EVENT` (Augment's event name).
    fn environment(&self, event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        add("AUGMENT_PROJECT_DIR", facts.cwd);
        add("AUGMENT_CONVERSATION_ID", facts.session_id);
        add("AUGMENT_HOOK_EVENT", event_name(event));
    }

    /// `AUGMENT_TOOL_NAME` on the tool events: Augment's name of the tool.
    fn input_environment(&self, event: &RunEvent, input: &Map<String, Value>, add: &mut dyn FnMut(&'static str, &str)) {
        if !matches!(event.known(), Some(HookEvent::PreToolUse | HookEvent::PostToolUse)) {
            return;
        }
        if let Some(tool) = input.get("tool_name").and_then(Value::as_str).filter(|t| !t.is_empty()) {
            add("AUGMENT_TOOL_NAME", tool);
        }
    }

    fn environment_names(&self) -> &'static [&'static str] {
        ENV_NAMES
    }

    fn placeholders(&self) -> &'static [Placeholder] {
        &[
            Placeholder { name: "AUGMENT_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "AUGMENT_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
        ]
    }

    fn plugin_root_variables(&self) -> &'static [&'static str] {
        &["AUGMENT_PLUGIN_ROOT"]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        reply::read(cx, exec)
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        super::protocol::honours(PROFILE.family_of(event))
    }

    /// "type | Hook execution type - currently only "command" is
    /// supported" (callback hooks are the host's).
    fn supports(&self, kind: HookKind, _event: &RunEvent) -> bool {
        matches!(kind, HookKind::Command | HookKind::Callback)
    }

    /// PreToolUse: exit 2 with the reason on stderr; Stop: exit 0 with
    /// `{"decision": "block", "reason": …}` (exit 2 does not block it); no
    /// other event can be blocked.
    fn blocking_answer(&self, event: &RunEvent, reason: &str) -> Option<super::BlockingAnswer> {
        match event.known() {
            Some(HookEvent::PreToolUse) => {
                Some(super::BlockingAnswer { exit_code: 2, stdout: None, stderr: Some(reason.to_owned()) })
            }
            Some(HookEvent::Stop) => Some(super::BlockingAnswer {
                exit_code: 0,
                stdout: Some(serde_json::json!({"decision": "block", "reason": reason}).to_string()),
                stderr: None,
            }),
            _ => None,
        }
    }

    fn describe_matcher(&self, matcher: &Matcher, raw: Option<&str>) -> String {
        matcher.describe(self.title(), false, raw)
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn tool_vocabulary(&self) -> &'static ToolVocabulary {
        &TOOL_VOCABULARY
    }

    /// The local overrides first: "from highest to lowest precedence".
    fn workspace_files(&self) -> &'static [&'static str] {
        &[".augment/settings.local.json", ".augment/settings.json"]
    }

    /// `~/.augment/settings.json`.
    fn user_files(&self, home: &Path) -> Vec<PathBuf> {
        vec![home.join(".augment").join("settings.json")]
    }

    /// The project's files take precedence over the user's.
    fn user_files_come_last(&self) -> bool {
        true
    }

    fn system_files(&self) -> &'static [&'static str] {
        system_files(std::env::consts::OS)
    }

    /// "System-level settings ... take the highest precedence and cannot be
    /// overridden by any other configuration source".
    fn system_files_are_policy(&self) -> bool {
        true
    }

    /// A plugin's `hooks/hooks.json`: its hooks get `AUGMENT_PLUGIN_ROOT`.
    fn plugin_root_of(&self, path: &Path) -> Option<PathBuf> {
        super::plugin_hooks_json_root(path)
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        &["matcher", "hooks", "metadata"]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        &["type", "command", "args", "timeout", "metadata"]
    }

    /// Augment starts a hook's script itself, not through a shell: on
    /// Windows a `.ps1` in PowerShell, a `.cmd` or `.bat` in cmd.exe
    /// (`config.rs` makes each command its program and arguments). A
    /// shell-form command never reaches the runner; cmd.exe stands for the
    /// default.
    fn windows_shell(&self) -> crate::config::windows_shell::WindowsShell {
        crate::config::windows_shell::WindowsShell::CMD
    }
}

/// Augment's system settings file on `os` (as `std::env::consts::OS`
/// names it): "`/etc/augment/settings.json` | Linux/macOS",
/// "`C:\ProgramData\Augment\settings.json` | Windows".
pub fn system_files(os: &str) -> &'static [&'static str] {
    match os {
        "windows" => &[r"C:\ProgramData\Augment\settings.json"],
        _ => &["/etc/augment/settings.json"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn augment_files_are_recognised_by_path() {
        assert!(AUGMENT.recognises_path(Path::new("/p/.augment/settings.json")));
        assert!(AUGMENT.recognises_path(Path::new("/p/.augment/settings.local.json")));
        assert!(AUGMENT.recognises_path(Path::new("/etc/augment/settings.json")));
        assert!(AUGMENT.recognises_path(Path::new(r"C:\ProgramData\Augment\settings.json")) || !cfg!(windows));
        assert!(!AUGMENT.recognises_path(Path::new("/p/.augment/hooks.json")));
        assert!(!AUGMENT.recognises_path(Path::new("/p/.claude/settings.json")));
    }

    #[test]
    fn matchers_are_searched_regular_expressions_with_mcp_prefixes() {
        let m = |raw: &str| matcher_of("PreToolUse", Some(raw)).unwrap();
        assert!(m("launch-process").matches("launch-process"));
        assert!(m("str-replace-editor|save-file").matches("save-file"));
        assert!(!m("str-replace-editor|save-file").matches("view"));
        assert!(m(".*").matches("anything"));
        assert!(m("mcp:*").matches("mcp__github__create_issue"));
        assert!(!m("mcp:*").matches("launch-process"));
        assert!(m("mcp:github__").matches("mcp__github__create_issue"));
        assert!(!m("mcp:gitlab__").matches("mcp__github__create_issue"));
        assert!(!m("Launch-Process").matches("launch-process"), "case-sensitive");
    }
}
