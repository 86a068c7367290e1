//! The OpenHands dialect: the hooks of the OpenHands agent SDK (CLI,
//! local GUI and Cloud run the same engine), `.openhands/hooks.json`
//! files of the shape `{"hooks": {"pre_tool_use": [{"matcher": …,
//! "hooks": [{"type": "command", "command": …, "timeout": 60, "async":
//! false}]}]}}`, read the way OpenHands' hooks config, executor and manager
//! read them (OpenHands/software-agent-sdk, `openhands-sdk/openhands/sdk/hooks/`).
//! `docs/dialects.md` has the rule table and every deviation.
//!
//! | part | file |
//! |---|---|
//! | files, validation (what rejects the file, what never runs), matchers | `config.rs` |
//! | the stdin payload (`event_type`, `tool_name`, …, `working_dir`, `metadata`) | `payload.rs` |
//! | one hook's result → the canonical reply (exit codes, stdout JSON on any exit) | `reply.rs` |
//! | events, rule table, files, environment, tool names | here |
//!
//! Events: six, snake_case in the file (PascalCase accepted), each a
//! canonical one: `pre_tool_use`, `post_tool_use`, `user_prompt_submit`,
//! `session_start`, `session_end`, `stop`. Hooks run one after another in
//! configuration order; on PreToolUse, UserPromptSubmit and Stop the first
//! hook that blocks ends the run. Only the tool events test matchers.
//!
//! Only the first file found is read: the workspace's
//! `.openhands/hooks.json`, else the user's `~/.openhands/hooks.json`.
//!
//! Commands run in `/bin/sh -c` (Python's `shell=True`; `cmd.exe /c` on
//! Windows) in the working directory, the payload on stdin.

mod config;
mod payload;
mod reply;

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use super::tools::{McpNames, ShapeCx, ToolName, ToolShape, ToolVocabulary};
use super::{Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::windows_shell::WindowsShell;
use crate::config::{HooksConfig, SourceInfo};
use crate::error::Result;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{
    Column, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, FieldMerge, HandlerTimeouts, InputRules, Profile,
    RunOrder, TimeoutUnit, CANONICAL_FAMILIES,
};

/// The OpenHands dialect (see the module documentation).
#[derive(Debug)]
pub struct OpenHands;

/// The OpenHands dialect's value.
pub static OPENHANDS: OpenHands = OpenHands;

/// The events that cannot block (PostToolUse, SessionStart, SessionEnd):
/// every hook runs, in order (`execute_all(..., stop_on_block=False)`);
/// what a hook answers changes nothing.
const OBSERVER: EventRules = EventRules { run_order: RunOrder::Sequential, ..EventRules::NEUTRAL };

/// The events that can block (PreToolUse, UserPromptSubmit, Stop): hooks
/// run in order and the first one that blocks ends the run
/// (`stop_on_block=True`); exit 2 blocks, its reason the JSON `reason`,
/// else stderr.
const GATE: EventRules = EventRules {
    exit2: Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: false },
    json_over_exit_code: true,
    ..OBSERVER
};

/// The OpenHands profile.
pub static PROFILE: Profile = Profile {
    name: "openhands",
    // `timeout: int = 60` (HookDefinition), in seconds.
    default_timeout: Duration::from_secs(60),
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Lenient,
    dedupe: Dedupe::None,
    dialect_fields: FieldMerge::FirstOrAppended,
    families: CANONICAL_FAMILIES,
    // Prompt and agent hooks share `timeout` (default 60 s).
    handler_timeouts: HandlerTimeouts { prompt: Duration::from_secs(60), agent: Duration::from_secs(60), lowered: &[] },
    exec_placeholders: &[],
    events: EventTable {
        session_start: OBSERVER,
        session_end: OBSERVER,
        subagent_start: OBSERVER,
        subagent_stop: OBSERVER,
        user_prompt_submit: GATE,
        pre_tool_use: GATE,
        post_tool_use: OBSERVER,
        permission_request: OBSERVER,
        pre_compact: OBSERVER,
        stop: GATE,
        notification: OBSERVER,
        post_tool_use_failure: OBSERVER,
    },
    named: &[],
    unknown_event: OBSERVER,
};

/// The six events: the config key (`HOOK_EVENT_FIELDS`) and the canonical
/// event, whose PascalCase name is OpenHands' `event_type` too.
pub(crate) const EVENTS: &[(&str, HookEvent)] = &[
    ("pre_tool_use", HookEvent::PreToolUse),
    ("post_tool_use", HookEvent::PostToolUse),
    ("user_prompt_submit", HookEvent::UserPromptSubmit),
    ("session_start", HookEvent::SessionStart),
    ("session_end", HookEvent::SessionEnd),
    ("stop", HookEvent::Stop),
];

/// Whether OpenHands tests matchers on `event` (it passes a tool name on
/// the tool events only; elsewhere only `*` and `""` match).
pub(crate) fn has_tool_subject(event: HookEvent) -> bool {
    matches!(event, HookEvent::PreToolUse | HookEvent::PostToolUse)
}

/// OpenHands' tool names: the SDK's tools (a tool class's snake_case name
/// without `_tool`: `TerminalTool` is `terminal`), the LLM aliases it
/// normalises (`execute_bash`, `bash`, `str_replace_editor`), and MCP tools
/// by their bare MCP name.
pub const TOOLS: &[&str] = &[
    "terminal",
    "file_editor",
    "planning_file_editor",
    "apply_patch",
    "glob",
    "grep",
    "task_tracker",
    "task",
    "task_tool_set",
    "browser_tool_set",
    "read_file",
    "write_file",
    "edit",
    "list_directory",
    "think",
    "finish",
    "invoke_skill",
    "inspect_image_with_vision",
    "execute_bash",
    "bash",
    "str_replace_editor",
];

/// Claude Code's tool names (the canonical vocabulary) → OpenHands'.
/// `Bash` is `terminal` (same `command` field); `Read`, `Write` and `Edit`
/// are `file_editor` with its `command` (`view`, `create`, `str_replace`)
/// and its fields (`path`, `file_text`, `old_str`, `new_str`); the names an
/// LLM may use (`execute_bash`, `bash`, `str_replace_editor`) read back.
/// MCP tools are named by their MCP tool name alone.
pub static VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "terminal"),
        ToolName::new("Bash", "execute_bash").only_to_canonical(),
        ToolName::new("Bash", "bash").only_to_canonical(),
        ToolName::new("Read", "file_editor").fields(&[("file_path", "path")]).shape(FILE_EDITOR),
        ToolName::new("Write", "file_editor")
            .fields(&[("file_path", "path"), ("content", "file_text")])
            .shape(FILE_EDITOR),
        ToolName::new("Edit", "file_editor")
            .fields(&[("file_path", "path"), ("old_string", "old_str"), ("new_string", "new_str")])
            .shape(FILE_EDITOR),
        ToolName::new("Edit", "str_replace_editor")
            .fields(&[("file_path", "path"), ("old_string", "old_str"), ("new_string", "new_str")])
            .shape(FILE_EDITOR)
            .only_to_canonical(),
        ToolName::new("Glob", "glob"),
        ToolName::new("Grep", "grep"),
        ToolName::new("TodoWrite", "task_tracker"),
        ToolName::new("Task", "task"),
        ToolName::new("Agent", "task"),
    ],
    mcp: McpNames { prefix: "", separator: None },
};

/// `file_editor`'s `command` per canonical tool.
const FILE_EDITOR: ToolShape = ToolShape { to_native: editor_native, to_canonical: editor_canonical };

/// The canonical input (renamed) → `file_editor`'s: the `command` the
/// canonical tool is.
fn editor_native(cx: &ShapeCx<'_>, input: &Map<String, Value>) -> Map<String, Value> {
    let command = match cx.canonical {
        "Read" => "view",
        "Write" => "create",
        _ => "str_replace",
    };
    let mut out = Map::new();
    out.insert("command".into(), Value::from(command));
    out.extend(input.iter().filter(|(k, _)| k.as_str() != "command").map(|(k, v)| (k.clone(), v.clone())));
    out
}

/// `file_editor`'s input → the canonical one (before the renames are
/// undone): without `command`; `None` when its `command` is not the
/// canonical tool's (an `insert` or `undo_edit` has no canonical shape).
fn editor_canonical(cx: &ShapeCx<'_>, input: &Map<String, Value>) -> Option<Map<String, Value>> {
    let expected = match cx.canonical {
        "Read" => "view",
        "Write" => "create",
        _ => "str_replace",
    };
    match input.get("command").and_then(Value::as_str) {
        Some(c) if c != expected => None,
        _ => Some(input.iter().filter(|(k, _)| k.as_str() != "command").map(|(k, v)| (k.clone(), v.clone())).collect()),
    }
}

/// The variables OpenHands' command hooks get (`HookExecutor.execute`,
/// `sanitized_env`): its own four, `AI_AGENT`, and `SESSION_API_KEY`, which
/// `sanitized_env` strips ("Sensitive environment variables … are
/// stripped"): named here, an inherited one is never passed on, and
/// [`environment`](Dialect::environment) never sets it.
const ENV_NAMES: &[&str] = &[
    "OPENHANDS_PROJECT_DIR",
    "OPENHANDS_SESSION_ID",
    "OPENHANDS_EVENT_TYPE",
    "OPENHANDS_TOOL_NAME",
    "AI_AGENT",
    "SESSION_API_KEY",
];

/// `AI_AGENT` as `sanitized_env` leaves it: the engine's own value when it
/// is not blank, else `openhands` ("AI_AGENT defaults to openhands").
fn ai_agent(inherited: Option<String>) -> String {
    inherited.filter(|v| !v.trim().is_empty()).unwrap_or_else(|| "openhands".to_owned())
}

/// OpenHands' `event_type` of a run: the canonical event's PascalCase name.
pub(crate) fn event_type(event: &RunEvent) -> &str {
    event.name()
}

impl Dialect for OpenHands {
    fn name(&self) -> &'static str {
        "openhands"
    }

    fn title(&self) -> &'static str {
        "OpenHands"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// `hooks.json` in a directory named `.openhands` (the workspace's
    /// `.openhands/hooks.json`, the user's `~/.openhands/hooks.json`).
    fn recognises_path(&self, path: &Path) -> bool {
        let (name, dir) = crate::dialect::file_and_dir_names(path);
        name == "hooks.json" && dir == ".openhands"
    }

    fn read_json(&self, v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        config::read(v, info)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        match EVENTS.iter().position(|(_, e)| *e == event) {
            Some(i) => std::slice::from_ref(&EVENTS[i].0),
            None => &[],
        }
    }

    /// The tool name (OpenHands' name) on PreToolUse and PostToolUse;
    /// the other events pass no subject, and the reader keeps only their
    /// groups whose matcher is `*` or `""` (the others never run).
    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, _trigger: &'a str) -> Option<&'a str> {
        match event.known() {
            Some(e) if has_tool_subject(e) => Some(input.get("tool_name").and_then(Value::as_str).unwrap_or("")),
            _ => None,
        }
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        match event.known() {
            Some(e) if has_tool_subject(e) => Some("the OpenHands tool name (tool_name)"),
            _ => None,
        }
    }

    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Map<String, Value> {
        payload::payload(event, facts, input, tool_input)
    }

    /// `OPENHANDS_PROJECT_DIR` (the working directory),
    /// `OPENHANDS_SESSION_ID`, `OPENHANDS_EVENT_TYPE`, and `AI_AGENT`
    /// (`openhands` unless the engine's environment has one).
    fn environment(&self, event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        add("OPENHANDS_PROJECT_DIR", facts.cwd);
        add("OPENHANDS_SESSION_ID", facts.session_id);
        add("OPENHANDS_EVENT_TYPE", event_type(event));
        add("AI_AGENT", &ai_agent(std::env::var("AI_AGENT").ok()));
    }

    /// `OPENHANDS_TOOL_NAME` on the tool events ("if event.tool_name:"):
    /// OpenHands' name of the tool.
    fn input_environment(&self, event: &RunEvent, input: &Map<String, Value>, add: &mut dyn FnMut(&'static str, &str)) {
        if !event.known().is_some_and(has_tool_subject) {
            return;
        }
        if let Some(tool) = input.get("tool_name").and_then(Value::as_str).filter(|t| !t.is_empty()) {
            add("OPENHANDS_TOOL_NAME", tool);
        }
    }

    fn environment_names(&self) -> &'static [&'static str] {
        ENV_NAMES
    }

    /// `OPENHANDS_PROJECT_DIR` (the working directory). OpenHands gives its
    /// hooks no plugin root variable.
    /// `input=event_json`: `model_dump_json()` without a newline.
    fn payload_ends_with_newline(&self) -> bool {
        false
    }

    fn placeholders(&self) -> &'static [Placeholder] {
        &[Placeholder { name: "OPENHANDS_PROJECT_DIR", value: PlaceholderValue::ProjectDir }]
    }

    fn plugin_root_variables(&self) -> &'static [&'static str] {
        &[]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        reply::read(cx, exec)
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        reply::honours(PROFILE.family_of(event))
    }

    fn describe_matcher(&self, matcher: &Matcher, raw: Option<&str>) -> String {
        match (matcher, raw) {
            (Matcher::Names(names), _) => format!(
                "OpenHands exact tool name {} (no regex characters)",
                names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(" | ")
            ),
            (Matcher::Regex(re), Some(raw)) => {
                format!("OpenHands regular expression {raw:?}, matched against the whole tool name ({})", re.as_str())
            }
            _ => matcher.describe(self.title(), false, raw),
        }
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn tool_vocabulary(&self) -> &'static ToolVocabulary {
        &VOCABULARY
    }

    /// The workspace's `.openhands/hooks.json`.
    fn workspace_files(&self) -> &'static [&'static str] {
        &[".openhands/hooks.json"]
    }

    /// The user's `~/.openhands/hooks.json`.
    fn user_files(&self, home: &Path) -> Vec<std::path::PathBuf> {
        vec![home.join(".openhands").join("hooks.json")]
    }

    /// "for search_path in search_paths: if search_path.exists(): path =
    /// search_path; break": the workspace's file, else the user's.
    fn user_files_are_a_fallback(&self) -> bool {
        true
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        config::GROUP_FIELDS
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        config::HOOK_FIELDS
    }

    /// OpenHands reads its own JSON (a top-level `decision`), not Claude
    /// Code's `hookSpecificOutput`: callback hooks are read by the Claude
    /// Code reader.
    fn reads_hooks_protocol(&self) -> bool {
        false
    }

    /// Python's `subprocess.run(command, shell=True)` on Windows:
    /// `%ComSpec% /c "<command>"`. hookline passes `/s /c "<command>"`,
    /// which hands cmd.exe the same text in every case (with `/s` the outer
    /// quotes are always the ones removed).
    fn windows_shell(&self) -> WindowsShell {
        WindowsShell::Cmd { flags: &["/s", "/c"] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_workspace_and_user_files_are_recognised_by_path() {
        for path in ["/p/.openhands/hooks.json", "/home/u/.openhands/hooks.json", ".openhands/hooks.json"] {
            assert!(OPENHANDS.recognises_path(Path::new(path)), "{path}");
        }
        for path in ["/p/.openhands/hooks/on_stop.sh", "/p/hooks/hooks.json", "/p/.openhands/config.json"] {
            assert!(!OPENHANDS.recognises_path(Path::new(path)), "{path}");
        }
        assert_eq!(
            crate::dialect::for_path(Path::new("/p/.openhands/hooks.json")).map(|d| d.name()),
            Some("openhands")
        );
        assert_eq!(crate::dialect::project_dir_of(Path::new("/p/.openhands/hooks.json")), Path::new("/p"));
    }

    /// `HOOK_EVENT_FIELDS`: six events; "Can Block?": PreToolUse,
    /// UserPromptSubmit and Stop.
    #[test]
    fn six_events_three_of_them_gates() {
        assert_eq!(EVENTS.len(), 6);
        for (key, event) in EVENTS {
            assert_eq!(OPENHANDS.event_keys(*event), [*key]);
            let gate = matches!(event, HookEvent::PreToolUse | HookEvent::UserPromptSubmit | HookEvent::Stop);
            assert_eq!(PROFILE.rules(*event).can_block(), gate, "{key}");
        }
        assert!(OPENHANDS.event_keys(HookEvent::PermissionRequest).is_empty());
    }

    #[test]
    fn only_the_tool_events_have_a_subject() {
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        assert_eq!(OPENHANDS.match_subject(&pre, &json!({"tool_name": "terminal"}), ""), Some("terminal"));
        let stop = RunEvent::Known(HookEvent::Stop);
        assert_eq!(OPENHANDS.match_subject(&stop, &json!({"tool_name": "terminal"}), ""), None);
    }

    #[test]
    fn ai_agent_defaults_to_openhands() {
        assert_eq!(ai_agent(None), "openhands");
        assert_eq!(ai_agent(Some("  ".into())), "openhands");
        assert_eq!(ai_agent(Some("ci-bot".into())), "ci-bot");
    }

    #[test]
    fn the_file_editor_takes_its_command_and_reads_back() {
        let cx = |canonical| ShapeCx { canonical, native: "file_editor", cwd: "/w", original: None };
        let input = json!({"path": "/w/a.txt", "file_text": "x"});
        let native = editor_native(&cx("Write"), input.as_object().unwrap());
        assert_eq!(Value::Object(native.clone()), json!({"command": "create", "path": "/w/a.txt", "file_text": "x"}));
        assert_eq!(editor_canonical(&cx("Write"), &native), Some(input.as_object().unwrap().clone()));
        assert_eq!(editor_canonical(&cx("Read"), &native), None, "a create is not a view");
    }
}
