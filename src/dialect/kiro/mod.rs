//! The Kiro dialect: Kiro's v1 hook files (CLI 3, IDE 1.x),
//! `.kiro/hooks/<name>.json` of the shape `{"version": "v1", "hooks":
//! [{name, description?, trigger, matcher?, action, timeout?, enabled?}]}`,
//! read the way Kiro reads them according to its hooks documentation (the
//! CLI 3 hooks page) and, where that is silent, to the open-source CLI 2.x
//! it grew from. `docs/dialects.md` has the rule table and every deviation.
//!
//! | part | file |
//! |---|---|
//! | files, validation (what rejects the file, what is skipped and reported), matchers and categories | `config.rs` |
//! | one hook's result → the canonical reply (exit codes, stdout as context, an agent action's verdict) | `reply.rs` |
//! | triggers, rule table, payload, environment, tool names | here |
//!
//! Triggers: `SessionStart` (and the 2.x `AgentSpawn`), `UserPromptSubmit`,
//! `PreToolUse`, `PostToolUse`, `Stop` and `SessionEnd` are the canonical
//! events; `PreTaskExec`, `PostTaskExec`, `PostFileCreate`,
//! `PostFileSave`, `PostFileDelete` and `Manual` are fired by name
//! ([`NAMED`]). Exit 2 blocks on PreToolUse, UserPromptSubmit and
//! PreTaskExec, its reason stderr; stdout of a successful hook is context on
//! SessionStart and UserPromptSubmit. A `command` action runs in `bash -c`
//! (`cmd /C` on Windows); an `agent` action spawns nothing: its prompt goes
//! to the host's `agent` handler, as a prompt hook's does. An agent file's
//! embedded CLI 2.x hooks (`.kiro/agents/<agent>.json`) are read by
//! `legacy.rs` when the file is named.

mod config;
mod legacy;
mod reply;

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Map, Value};

use super::tools::{McpNames, ToolName, ToolVocabulary};
use super::{Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::windows_shell::WindowsShell;
use crate::config::{HooksConfig, Shell, SourceInfo};
use crate::error::Result;
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{
    Column, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, FieldMerge, HandlerTimeouts, InputRules, MatcherRule,
    NamedEventRules, Profile, Subject, TimeoutUnit, CANONICAL_FAMILIES,
};

/// The Kiro dialect (see the module documentation).
#[derive(Debug)]
pub struct Kiro;

/// The Kiro dialect's value.
pub static KIRO: Kiro = Kiro;

/// Every trigger: hooks start together (CLI 2.x runs them concurrently) and
/// merge in configuration order; exit 2 is like any other non-zero exit (a
/// warning, the action proceeds).
const BASE: EventRules = EventRules::NEUTRAL;

/// The triggers that "can block": exit 2 blocks, its reason stderr.
const BLOCKS: EventRules =
    EventRules { exit2: Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: false }, ..BASE };

/// The Kiro profile.
pub static PROFILE: Profile = Profile {
    name: "kiro",
    // "timeout | integer (seconds) | 60 | 0 disables timeout".
    default_timeout: Duration::from_secs(60),
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Lenient,
    dedupe: Dedupe::None,
    dialect_fields: FieldMerge::FirstOrAppended,
    families: CANONICAL_FAMILIES,
    // "Ignored for agent actions": the host's handler is bounded by the
    // engine's default for agent hooks.
    handler_timeouts: HandlerTimeouts { prompt: Duration::from_secs(60), agent: Duration::from_secs(60), lowered: &[] },
    exec_placeholders: &[],
    events: EventTable {
        session_start: BASE,
        session_end: BASE,
        subagent_start: BASE,
        subagent_stop: BASE,
        user_prompt_submit: BLOCKS,
        pre_tool_use: BLOCKS,
        post_tool_use: BASE,
        permission_request: BASE,
        pre_compact: BASE,
        stop: BASE,
        notification: BASE,
        post_tool_use_failure: BASE,
    },
    named: NAMED,
    unknown_event: BASE,
};

/// Kiro's triggers without a canonical meaning, fired by name. PreTaskExec
/// is a gate (Kiro's trigger table: "Can block? Yes"); the file triggers'
/// matchers test the input's `file_path`.
pub const NAMED: &[NamedEventRules] = &[
    native("PreTaskExec", EventFamily::Tool, BLOCKS, Subject::None),
    native("PostTaskExec", EventFamily::Observe, BASE, Subject::None),
    native("PostFileCreate", EventFamily::Observe, BASE, Subject::Field("file_path")),
    native("PostFileSave", EventFamily::Observe, BASE, Subject::Field("file_path")),
    native("PostFileDelete", EventFamily::Observe, BASE, Subject::Field("file_path")),
    native("Manual", EventFamily::Observe, BASE, Subject::None),
];

/// A row of [`NAMED`].
const fn native(name: &'static str, family: EventFamily, rules: EventRules, subject: Subject) -> NamedEventRules {
    NamedEventRules { name, family, rules, subject, matcher: MatcherRule::Standard, tool_event: false }
}

/// The keys of [`NAMED`].
const NATIVE_KEYS: &[&str] =
    &["PreTaskExec", "PostTaskExec", "PostFileCreate", "PostFileSave", "PostFileDelete", "Manual"];

/// The canonical event of a trigger, if it has one (`AgentSpawn` is the
/// 2.x name of SessionStart).
pub(crate) fn canonical_trigger(trigger: &str) -> Option<HookEvent> {
    match trigger {
        "SessionStart" | "AgentSpawn" => Some(HookEvent::SessionStart),
        "SessionEnd" => Some(HookEvent::SessionEnd),
        "UserPromptSubmit" => Some(HookEvent::UserPromptSubmit),
        "PreToolUse" => Some(HookEvent::PreToolUse),
        "PostToolUse" => Some(HookEvent::PostToolUse),
        "Stop" => Some(HookEvent::Stop),
        _ => None,
    }
}

/// Kiro's built-in tool names (CLI: `execute_bash`, `fs_read`, `fs_write`,
/// ...); MCP tools are `@<server>/<tool>`.
pub const TOOLS: &[&str] = &[
    "execute_bash",
    "fs_read",
    "fs_write",
    "str_replace",
    "glob",
    "grep",
    "web_fetch",
    "web_search",
    "todo_list",
    "use_subagent",
    "knowledge",
];

/// Claude Code's tool names (the canonical vocabulary) → Kiro's; MCP tools
/// `mcp__<server>__<tool>` → `@<server>/<tool>`. Inputs pass through in
/// Claude Code's shape.
pub static VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "execute_bash"),
        ToolName::new("Read", "fs_read"),
        ToolName::new("Write", "fs_write"),
        ToolName::new("Edit", "str_replace"),
        ToolName::new("MultiEdit", "str_replace"),
        ToolName::new("Glob", "glob"),
        ToolName::new("Grep", "grep"),
        ToolName::new("WebFetch", "web_fetch"),
        ToolName::new("WebSearch", "web_search"),
        ToolName::new("TodoWrite", "todo_list"),
        ToolName::new("Task", "use_subagent"),
    ],
    mcp: McpNames { prefix: "@", separator: Some("/") },
};

/// Kiro's name of the event of a run (`hook_event_name`): its trigger.
pub(crate) fn event_name(event: &RunEvent) -> &str {
    match event {
        RunEvent::Known(e) => e.name(),
        RunEvent::Named(name) => name,
    }
}

/// A string field of the input.
fn field<'a>(input: &'a Value, key: &str) -> Option<&'a str> {
    input.get(key).and_then(Value::as_str)
}

impl Dialect for Kiro {
    fn name(&self) -> &'static str {
        "kiro"
    }

    fn title(&self) -> &'static str {
        "Kiro"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// A `.json` file in the `hooks` directory of `.kiro` (a workspace's or
    /// the user's `~/.kiro/hooks/`), or an agent file of `.kiro/agents/`
    /// (its embedded CLI 2.x hooks). The IDE 0.x `.kiro.hook` files are not
    /// read.
    fn recognises_path(&self, path: &Path) -> bool {
        let json = path.extension().is_some_and(|e| e == "json");
        let dir = path.parent();
        let folder = dir.and_then(Path::file_name).is_some_and(|n| n == "hooks" || n == "agents");
        let kiro = dir.and_then(Path::parent).and_then(Path::file_name).is_some_and(|n| n == ".kiro");
        json && folder && kiro
    }

    fn read_json(&self, v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        config::read(v, info)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        match event {
            HookEvent::SessionStart => &["SessionStart", "AgentSpawn"],
            HookEvent::SessionEnd => &["SessionEnd"],
            HookEvent::UserPromptSubmit => &["UserPromptSubmit"],
            HookEvent::PreToolUse => &["PreToolUse"],
            HookEvent::PostToolUse => &["PostToolUse"],
            HookEvent::Stop => &["Stop"],
            _ => &[],
        }
    }

    /// "What it matches depends on the trigger": the tool name (Kiro's:
    /// a canonical name is tested as Kiro names the tool) on
    /// PreToolUse/PostToolUse, the prompt text on UserPromptSubmit, the
    /// file path on the file triggers; nothing (the hook always fires) on
    /// the others.
    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, _trigger: &'a str) -> Option<&'a str> {
        match event {
            RunEvent::Known(HookEvent::PreToolUse | HookEvent::PostToolUse) => {
                let tool = field(input, "tool_name").unwrap_or("");
                Some(VOCABULARY.row_of_canonical(tool).map_or(tool, |row| row.native))
            }
            RunEvent::Known(HookEvent::UserPromptSubmit) => Some(field(input, "prompt").unwrap_or("")),
            RunEvent::Known(_) => None,
            RunEvent::Named(name) => match PROFILE.named(name).map(|n| n.subject) {
                Some(Subject::Field(key)) => Some(field(input, key).unwrap_or("")),
                _ => None,
            },
        }
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        match event {
            RunEvent::Known(HookEvent::PreToolUse | HookEvent::PostToolUse) => Some("the Kiro tool name (tool_name)"),
            RunEvent::Known(HookEvent::UserPromptSubmit) => Some("the prompt text (prompt)"),
            RunEvent::Known(_) => None,
            RunEvent::Named(name) => match PROFILE.named(name).map(|n| n.subject) {
                Some(Subject::Field(_)) => Some("the file path (file_path)"),
                _ => None,
            },
        }
    }

    /// `{hook_event_name, cwd, session_id}`, then per trigger `tool_name`
    /// (Kiro's name) and `tool_input` (the rewrite in force), `tool_response`
    /// (PostToolUse), `prompt` (UserPromptSubmit), `assistant_response`
    /// (Stop, from `last_assistant_message`), and the input's other fields.
    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("hook_event_name".into(), json!(event_name(event)));
        out.insert("cwd".into(), input.get("cwd").cloned().unwrap_or_else(|| json!(facts.cwd)));
        out.insert("session_id".into(), json!(facts.session_id));
        if let Some(tool) = input.get("tool_name").and_then(Value::as_str) {
            out.insert("tool_name".into(), json!(VOCABULARY.native_name(tool)));
        }
        if let Some(t) = tool_input.or_else(|| input.get("tool_input")) {
            out.insert("tool_input".into(), t.clone());
        }
        if event.known() == Some(HookEvent::Stop) {
            if let Some(m) = input.get("last_assistant_message") {
                out.insert("assistant_response".into(), m.clone());
            }
        }
        for (key, value) in input {
            if !out.contains_key(key) && key != "last_assistant_message" {
                out.insert(key.clone(), value.clone());
            }
        }
        out
    }

    /// Kiro documents no variable for CLI 3 hooks.
    fn environment(&self, _event: &RunEvent, _facts: &SessionFacts<'_>, _add: &mut dyn FnMut(&'static str, &str)) {}

    fn environment_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// A plugin source's root (Kiro's hooks name no directory variable).
    fn placeholders(&self) -> &'static [Placeholder] {
        &[Placeholder { name: "CLAUDE_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot }]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        reply::read(cx, exec)
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        reply::honours(PROFILE.family_of(event))
    }

    fn describe_matcher(&self, matcher: &Matcher, raw: Option<&str>) -> String {
        matcher.describe(self.title(), false, raw)
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn tool_vocabulary(&self) -> &'static ToolVocabulary {
        &VOCABULARY
    }

    /// Every `.kiro/hooks/*.json`, one source per file, in name order.
    fn workspace_files(&self) -> &'static [&'static str] {
        &[".kiro/hooks/*.json"]
    }

    /// The user's `~/.kiro/hooks/*.json` (not documented for CLI 3; hooks
    /// installers write there, and Kiro keeps its user scope in `~/.kiro`).
    fn user_files(&self, home: &Path) -> Vec<std::path::PathBuf> {
        let dir = home.join(".kiro").join("hooks");
        let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
        let mut files: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        files
    }

    /// Kiro's hooks are flat entries, not matcher groups.
    fn group_field_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        config::FIELDS
    }

    fn native_event_keys(&self) -> &'static [&'static str] {
        NATIVE_KEYS
    }

    /// Kiro reads exit codes and plain stdout, not the hooks protocol's JSON.
    fn reads_hooks_protocol(&self) -> bool {
        false
    }

    /// One file with a bad `version` is left out; the others load.
    fn skips_invalid_source(&self) -> bool {
        true
    }

    /// CLI 2.x runs a hook in `bash -c`.
    fn shell(&self) -> Shell {
        Shell::Bash
    }

    /// CLI 2.x runs a hook in `cmd /C` on Windows.
    fn windows_shell(&self) -> WindowsShell {
        WindowsShell::Cmd { flags: &["/C"] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_files_are_recognised_by_their_folder() {
        for path in ["/p/.kiro/hooks/lint.json", "/home/u/.kiro/hooks/guard.json"] {
            assert!(KIRO.recognises_path(Path::new(path)), "{path}");
        }
        assert!(KIRO.recognises_path(Path::new("/p/.kiro/agents/dev.json")), "an agent file's embedded hooks");
        for path in
            ["/p/.kiro/hooks/old.kiro.hook", "/p/.kiro/steering/a.json", "/p/hooks/hooks.json", "/p/.kiro/x.json"]
        {
            assert!(!KIRO.recognises_path(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn triggers_are_canonical_or_named() {
        assert_eq!(canonical_trigger("AgentSpawn"), Some(HookEvent::SessionStart));
        assert_eq!(canonical_trigger("PreTaskExec"), None);
        assert_eq!(NAMED.iter().map(|n| n.name).collect::<Vec<_>>(), NATIVE_KEYS);
        // "Can block?": PreToolUse, PreTaskExec, UserPromptSubmit.
        assert!(PROFILE.rules(HookEvent::PreToolUse).can_block());
        assert!(PROFILE.rules(HookEvent::UserPromptSubmit).can_block());
        assert!(!PROFILE.rules(HookEvent::PostToolUse).can_block());
        assert!(PROFILE.named("PreTaskExec").unwrap().rules.can_block());
        assert!(!PROFILE.named("PostFileSave").unwrap().rules.can_block());
    }

    #[test]
    fn the_subject_is_kiros_tool_name_the_prompt_or_the_file() {
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        assert_eq!(KIRO.match_subject(&pre, &json!({"tool_name": "Bash"}), ""), Some("execute_bash"));
        assert_eq!(KIRO.match_subject(&pre, &json!({"tool_name": "fs_write"}), ""), Some("fs_write"));
        let prompt = RunEvent::Known(HookEvent::UserPromptSubmit);
        assert_eq!(KIRO.match_subject(&prompt, &json!({"prompt": "hi"}), ""), Some("hi"));
        let save = RunEvent::Named("PostFileSave".into());
        assert_eq!(KIRO.match_subject(&save, &json!({"file_path": "src/a.ts"}), ""), Some("src/a.ts"));
        assert_eq!(KIRO.match_subject(&RunEvent::Named("Manual".into()), &json!({}), ""), None);
        assert_eq!(KIRO.match_subject(&RunEvent::Known(HookEvent::Stop), &json!({}), ""), None);
    }

    #[test]
    fn the_payload_names_the_tool_as_kiro_does() {
        let facts = SessionFacts { session_id: "s", cwd: "/w", transcript_path: None, trigger: "startup" };
        let input = json!({"tool_name": "mcp__github__get_issue", "tool_input": {"n": 1}});
        let p = KIRO.payload(&RunEvent::Known(HookEvent::PreToolUse), &facts, input.as_object().unwrap(), None);
        assert_eq!(p["hook_event_name"], "PreToolUse");
        assert_eq!(p["tool_name"], "@github/get_issue");
        assert_eq!(p["cwd"], "/w");
        let stop = json!({"last_assistant_message": "done"});
        let p = KIRO.payload(&RunEvent::Known(HookEvent::Stop), &facts, stop.as_object().unwrap(), None);
        assert_eq!(p["assistant_response"], "done");
    }
}
