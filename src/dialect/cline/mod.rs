//! The Cline dialect: a hooks **folder**, not a hooks file. Each hook is an
//! executable file named after the event it runs on (`PreToolUse`,
//! `TaskStart`, ...), found in the folders Cline searches: the user's
//! `~/Documents/Cline/Hooks` and `~/.cline/hooks`, a workspace's
//! `.clinerules/hooks` and `.cline/hooks`. `docs/dialects.md` has the rule
//! table and every deviation.
//!
//! | part | file |
//! |---|---|
//! | a hooks folder read into hooks (names, extensions, the executable bit, `.ps1`; what is skipped and reported) | `folder.rs` |
//! | the stdin payload (camelCase: `clineVersion`, `hookName`, `taskId`, `preToolUse: {toolName, parameters}`, ...) | `payload.rs` |
//! | one hook's result → the canonical reply (`cancel`, `contextModification`, `errorMessage`) | `reply.rs` |
//! | events, rule table, tool names, Windows shell | here |
//!
//! Events: `PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `PreCompact`
//! and `Notification` are the canonical events of those names; `TaskStart`,
//! `TaskResume`, `TaskCancel`, `TaskComplete` (and the CLI's `TaskError`
//! and `SessionShutdown`) have no canonical meaning and are fired by name
//! ([`NAMED`]). Cline has no matcher: every hook of an event runs, and the
//! script filters for itself. All of an event's hooks run concurrently,
//! 30 s each; any `cancel: true` wins.

mod folder;
mod payload;
mod reply;

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use super::tools::{McpNames, ToolName, ToolVocabulary};
use super::{BlockingAnswer, Dialect, Placeholder, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::windows_shell::WindowsShell;
use crate::config::{HooksConfig, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{
    BlockReasons, Column, Dedupe, EventRules, EventTable, FieldMerge, HandlerTimeouts, InputRules, MatcherRule,
    NamedEventRules, Precedence, Profile, Subject, TimeoutUnit, CANONICAL_FAMILIES,
};

pub use folder::hook_file_event;

/// The Cline dialect (see the module documentation).
#[derive(Debug)]
pub struct Cline;

/// The Cline dialect's value.
pub static CLINE: Cline = Cline;

/// Cline's hook timeout: "Hook execution timeout (30 seconds)"
/// (`HOOK_EXECUTION_TIMEOUT_MS = 30000`, hook-factory.ts).
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// How Cline joins the `errorMessage`s of several hooks ("Concatenates all
/// errorMessage strings with single newlines", `CombinedHookRunner`).
pub const REASON_SEPARATOR: &str = "\n";

/// Every event: concurrent (`Promise.all`), exit 2 an exit like any other
/// ("block = `{"cancel": true}`"), a failure never blocks ("Hook script
/// errors (non-zero exit) don't block tools, only explicit JSON response
/// does").
const BASE: EventRules = EventRules::NEUTRAL;

/// The events whose `cancel` blocks something: any `cancel: true` wins
/// ("If ANY hook returns cancel: true, the merged result will have cancel:
/// true"), every reason kept, joined as Cline joins them.
const BLOCKING: EventRules = EventRules { block_reasons: BlockReasons::Joined(REASON_SEPARATOR), ..BASE };

/// PreToolUse: a deny wins over every other hook's answer.
const PRE_TOOL_USE: EventRules = EventRules { precedence: Precedence::MostRestrictive, ..BLOCKING };

/// The Cline profile.
pub static PROFILE: Profile = Profile {
    name: "cline",
    default_timeout: TIMEOUT,
    // No hook has a timeout of its own (there is no config); the unit is moot.
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Lenient,
    // Each file runs; a file found in two folders runs twice, as in Cline.
    dedupe: Dedupe::None,
    dialect_fields: FieldMerge::FirstOrAppended,
    // PreCompact's `contextModification` is context, not a Stop follow-up.
    families: EventTable { pre_compact: EventFamily::Context, ..CANONICAL_FAMILIES },
    handler_timeouts: HandlerTimeouts { prompt: TIMEOUT, agent: TIMEOUT, lowered: &[] },
    exec_placeholders: &[],
    events: EventTable {
        session_start: BASE,
        session_end: BASE,
        subagent_start: BASE,
        subagent_stop: BASE,
        user_prompt_submit: BLOCKING,
        pre_tool_use: PRE_TOOL_USE,
        post_tool_use: BLOCKING,
        permission_request: BASE,
        pre_compact: BASE,
        stop: BASE,
        notification: BASE,
        post_tool_use_failure: BASE,
    },
    named: NAMED,
    unknown_event: BASE,
};

/// Cline's events without a canonical meaning, fired by name
/// (`hl_engine_run_named`). `TaskStart` and `TaskResume` add context ("the
/// README says it is added"); the others only observe (their `cancel` asks
/// to halt, `continue: false`).
pub const NAMED: &[NamedEventRules] = &[
    native("TaskStart", EventFamily::Context),
    native("TaskResume", EventFamily::Context),
    native("TaskCancel", EventFamily::Observe),
    native("TaskComplete", EventFamily::Observe),
    native("TaskError", EventFamily::Observe),
    native("SessionShutdown", EventFamily::Observe),
];

/// A row of [`NAMED`].
const fn native(name: &'static str, family: EventFamily) -> NamedEventRules {
    NamedEventRules {
        name,
        family,
        rules: BASE,
        subject: Subject::None,
        matcher: MatcherRule::Standard,
        tool_event: false,
    }
}

/// The keys of [`NAMED`].
const NATIVE_KEYS: &[&str] = &["TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "TaskError", "SessionShutdown"];

/// The hook name (file name) of each canonical event (`""`: Cline has none).
static KEYS: EventTable<&str> = EventTable {
    session_start: "",
    session_end: "",
    subagent_start: "",
    subagent_stop: "",
    user_prompt_submit: "UserPromptSubmit",
    pre_tool_use: "PreToolUse",
    post_tool_use: "PostToolUse",
    permission_request: "",
    pre_compact: "PreCompact",
    stop: "",
    notification: "Notification",
    post_tool_use_failure: "",
};

/// Every hook name Cline knows: the extension's (utils.ts
/// `VALID_HOOK_TYPES`) and the CLI's `TaskError` and `SessionShutdown`
/// (hook-file-config.ts `HookConfigFileName`).
pub const HOOK_NAMES: &[&str] = &[
    "TaskStart",
    "TaskResume",
    "TaskCancel",
    "TaskComplete",
    "TaskError",
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "PreCompact",
    "Notification",
    "SessionShutdown",
];

/// The canonical event of a Cline hook name, if it has one.
pub(crate) fn canonical_event(name: &str) -> Option<HookEvent> {
    HookEvent::ALL.into_iter().find(|e| !KEYS.get(*e).is_empty() && *KEYS.get(*e) == name)
}

/// The Cline name of the event of a run (`hookName`): the hook name of a
/// canonical event (its canonical name where Cline has none), else the name
/// it was fired by.
pub(crate) fn event_name(event: &RunEvent) -> &str {
    match event {
        RunEvent::Known(e) => match *KEYS.get(*e) {
            "" => e.name(),
            key => key,
        },
        RunEvent::Named(name) => name,
    }
}

/// Cline's own tool names (the extension's `ClineDefaultTool`), for `hookline
/// check`'s matcher warnings and suggestions.
pub const TOOLS: &[&str] = &[
    "execute_command",
    "read_file",
    "write_to_file",
    "replace_in_file",
    "apply_patch",
    "search_files",
    "list_files",
    "list_code_definition_names",
    "browser_action",
    "use_mcp_tool",
    "access_mcp_resource",
    "ask_followup_question",
    "plan_mode_respond",
    "attempt_completion",
    "new_task",
    "web_fetch",
    "web_search",
    "load_mcp_documentation",
    "condense",
    "summarize_task",
    "report_bug",
    "new_rule",
    "focus_chain",
    "use_skill",
];

/// Claude Code's tool names (the canonical vocabulary hosts speak) and the
/// Cline tool each one is, with the `tool_input` fields Cline spells
/// otherwise (`file_path` is `path`). A canonical call reaches a Cline hook
/// in Cline's words; a name without a row passes as it is (a host that
/// already speaks Cline's names). MCP tools (`mcp__<server>__<tool>`) are
/// one Cline tool, `use_mcp_tool`, whose parameters name the server and the
/// tool: the payload writes them (`payload.rs`); the table keeps the
/// canonical MCP spelling.
pub static TOOL_VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "execute_command"),
        ToolName::new("Read", "read_file").fields(&[("file_path", "path")]),
        ToolName::new("Write", "write_to_file").fields(&[("file_path", "path")]),
        ToolName::new("Edit", "replace_in_file").fields(&[("file_path", "path")]),
        ToolName::new("MultiEdit", "replace_in_file").fields(&[("file_path", "path")]),
        ToolName::new("Grep", "search_files").fields(&[("pattern", "regex")]),
        ToolName::new("Glob", "list_files"),
        ToolName::new("LS", "list_files"),
        ToolName::new("WebFetch", "web_fetch"),
        ToolName::new("WebSearch", "web_search"),
        ToolName::new("AskUserQuestion", "ask_followup_question"),
    ],
    mcp: McpNames::CANONICAL,
};

impl Dialect for Cline {
    fn name(&self) -> &'static str {
        "cline"
    }

    fn title(&self) -> &'static str {
        "Cline"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// Cline's hooks folders: `.clinerules/hooks` and `.cline/hooks` (a
    /// workspace's, the user's `~/.cline/hooks`), `Documents/Cline/Hooks`
    /// (the user's global folder).
    fn recognises_path(&self, path: &Path) -> bool {
        folder::is_hooks_folder(path)
    }

    /// Cline has no JSON form: its hooks are files in a folder.
    fn read_json(&self, _value: &Value, _source: &SourceInfo) -> Result<HooksConfig> {
        Err(Error::invalid_config(
            "Cline has no hooks file: its hooks are executable files named after their event in a hooks folder \
             (.clinerules/hooks, .cline/hooks, ~/Documents/Cline/Hooks, ~/.cline/hooks); give the folder as \
             hooks_file",
        ))
    }

    fn read_dir(&self, dir: &Path, source: &SourceInfo) -> Result<HooksConfig> {
        folder::read(dir, source, folder::Platform::current())
    }

    fn reads_hooks_folders(&self) -> bool {
        true
    }

    /// Each hook name with each extension Cline runs on this system
    /// (Unix: none and the CLI's, but `.ps1`; Windows: `.ps1`).
    fn hook_file_places(&self, dir: &Path) -> Vec<std::path::PathBuf> {
        folder::places(dir, folder::Platform::current())
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        match *KEYS.get(event) {
            "" => &[],
            _ => std::slice::from_ref(KEYS.get(event)),
        }
    }

    /// Cline has no matchers: every hook of an event runs.
    fn match_subject<'a>(&self, _event: &RunEvent, _input: &'a Value, _trigger: &'a str) -> Option<&'a str> {
        None
    }

    fn match_subject_field(&self, _event: &RunEvent) -> Option<&'static str> {
        None
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

    /// Cline gives its hooks no variables of its own: they inherit the
    /// host's environment.
    fn environment(&self, _event: &RunEvent, _facts: &SessionFacts<'_>, _add: &mut dyn FnMut(&'static str, &str)) {}

    fn environment_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// None: Cline's hooks are files, named by their absolute path, and
    /// get no directory variable.
    fn placeholders(&self) -> &'static [Placeholder] {
        &[]
    }

    /// Cline has no plugins.
    fn plugin_root_variables(&self) -> &'static [&'static str] {
        &[]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        reply::read(cx, exec)
    }

    /// A Cline hook blocks by writing `{"cancel": true, "errorMessage":
    /// <reason>}` on stdout (exit 0); it can block a tool call, a prompt
    /// and a tool result (it cancels the task), nothing else.
    fn blocking_answer(&self, event: &RunEvent, reason: &str) -> Option<BlockingAnswer> {
        let family = PROFILE.family_of(event);
        matches!(family, EventFamily::Tool | EventFamily::Prompt | EventFamily::PostTool).then(|| BlockingAnswer {
            exit_code: 0,
            stdout: Some(serde_json::json!({"cancel": true, "errorMessage": reason}).to_string()),
            stderr: None,
        })
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        let _ = event;
        reply::HONOURS
    }

    fn describe_matcher(&self, _matcher: &Matcher, _raw: Option<&str>) -> String {
        "every hook runs (Cline has no matchers; the script filters for itself)".to_owned()
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn tool_vocabulary(&self) -> &'static ToolVocabulary {
        &TOOL_VOCABULARY
    }

    /// A workspace's `.clinerules/hooks` (the extension's and the CLI's)
    /// and `.cline/hooks` (the CLI's), folders.
    fn workspace_files(&self) -> &'static [&'static str] {
        &[".clinerules/hooks", ".cline/hooks"]
    }

    /// The user's global `~/Documents/Cline/Hooks` (the extension's and the
    /// CLI's) and `~/.cline/hooks` (the CLI's `CLINE_DIR`), folders.
    fn user_files(&self, home: &Path) -> Vec<std::path::PathBuf> {
        vec![home.join("Documents").join("Cline").join("Hooks"), home.join(".cline").join("hooks")]
    }

    /// There are no groups in a folder.
    fn group_field_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn native_event_keys(&self) -> &'static [&'static str] {
        NATIVE_KEYS
    }

    /// Cline's answers are `{cancel, contextModification, errorMessage}`.
    fn reads_hooks_protocol(&self) -> bool {
        false
    }

    /// The payload is JSON alone, as `JSON.stringify` writes it.
    fn payload_ends_with_newline(&self) -> bool {
        false
    }

    /// On Windows Cline runs `<HookName>.ps1` as `powershell -NoProfile
    /// -NonInteractive -ExecutionPolicy Bypass -File <script>`
    /// (HookProcess.ts `getHookLaunchConfig`); the folder reader starts it
    /// so directly. A shell-form command (a host's own hook in a Cline run)
    /// runs in the same PowerShell with `-Command`.
    fn windows_shell(&self) -> WindowsShell {
        WindowsShell::PowerShell {
            programs: &["powershell.exe", "pwsh.exe"],
            flags: &["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command"],
            comspec_first: false,
            propagate_exit: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_names_map_to_canonical_events_or_named_ones() {
        assert_eq!(canonical_event("PreToolUse"), Some(HookEvent::PreToolUse));
        assert_eq!(canonical_event("UserPromptSubmit"), Some(HookEvent::UserPromptSubmit));
        assert_eq!(canonical_event("TaskStart"), None);
        for name in HOOK_NAMES {
            assert!(canonical_event(name).is_some() ^ NATIVE_KEYS.contains(name), "{name}");
        }
        assert_eq!(NAMED.iter().map(|n| n.name).collect::<Vec<_>>(), NATIVE_KEYS);
        assert!(CLINE.event_keys(HookEvent::Stop).is_empty());
    }

    #[test]
    fn claude_code_tool_names_become_clines() {
        let v = &TOOL_VOCABULARY;
        assert_eq!(v.native_name("Bash"), "execute_command");
        assert_eq!(v.native_name("MultiEdit"), "replace_in_file");
        assert_eq!(v.canonical_name("replace_in_file", None), "Edit", "the first row reads back");
        assert_eq!(v.canonical_name("replace_in_file", Some("MultiEdit")), "MultiEdit");
        assert_eq!(v.native_name("execute_command"), "execute_command");
        let input = serde_json::json!({"file_path": "a", "content": "x"});
        let call = v.to_native("Write", Some(&input), "/w");
        assert_eq!(call.input.unwrap().into_owned(), serde_json::json!({"path": "a", "content": "x"}));
        for row in v.names {
            assert!(TOOLS.contains(&row.native), "{}", row.native);
        }
    }

    #[test]
    fn the_folders_are_recognised_by_path() {
        for path in ["/p/.clinerules/hooks", "/p/.cline/hooks", "/home/u/.cline/hooks", "/home/u/Documents/Cline/Hooks"]
        {
            assert!(CLINE.recognises_path(Path::new(path)), "{path}");
        }
        for path in ["/p/hooks", "/p/.claude/settings.json", "/p/.clinerules", "/p/.github/hooks/a.json"] {
            assert!(!CLINE.recognises_path(Path::new(path)), "{path}");
        }
    }
}
