//! The Qwen Code dialect: the `hooks` of a Qwen Code `settings.json`
//! (system defaults `/etc/qwen-code/system-defaults.json`, user
//! `~/.qwen/settings.json`, project `.qwen/settings.json` and
//! `.qwen/settings.local.json`, system `/etc/qwen-code/settings.json`), or
//! the `hooks` object alone, read the way Qwen Code reads them (its
//! `packages/core/src/hooks`: registry, matcher, runner, aggregator).
//! `docs/dialects.md` has the rule table and every deviation.
//!
//! Qwen Code is a Gemini CLI fork that took Claude Code's event names and
//! reply fields. So this dialect is Gemini CLI's mechanics, by calling the
//! Gemini dialect's code (settings layers and their variables, comments in
//! settings files, JSON parsed twice, `sequential` chaining, PowerShell on
//! Windows, the command-text substitution), with Claude Code's events,
//! payload and reply fields (the hooks protocol's readers).
//!
//! | part | file |
//! |---|---|
//! | settings files, what is skipped and reported, the three timeout units | `config.rs` |
//! | one hook's result → the canonical reply (JSON on any exit code but 2, exit 2's stderr, plain text, the context wrapping) | `reply.rs` |
//! | events, rule table, matchers and tool aliases, files, environment, command line | here |
//!
//! Hooks run in `bash -c` in the workspace with the payload on stdin;
//! command timeouts are seconds, or milliseconds from 1000 on (default
//! 60 s); http hooks' and prompt hooks' are seconds (600 s, 30 s).

mod config;
mod reply;

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

use super::gemini::GEMINI;
use super::tools::{McpNames, ToolName, ToolVocabulary};
use super::{Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::{HookSpec, HooksConfig, Shell, SourceInfo};
use crate::error::Result;
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{
    BlockFields, Column, Dedupe, EventRules, EventTable, FieldMerge, HandlerTimeouts, InputRules, MatcherRule,
    NamedEventRules, Precedence, Profile, Reasons, RewriteOnDeny, RunOrder, Subject, TimeoutUnit, CANONICAL_FAMILIES,
};
use crate::runner::Environment;

/// The Qwen Code dialect (see the module documentation).
#[derive(Debug)]
pub struct Qwen;

/// The Qwen Code dialect's value.
pub static QWEN: Qwen = Qwen;

/// Every event: hooks run in parallel unless a matching definition says
/// `sequential: true`; nothing stops early; failures are warnings.
const BASE: EventRules = EventRules { run_order: RunOrder::SequentialWhenAsked, ..EventRules::NEUTRAL };

/// The events Qwen Code aggregates with its OR strategy: any block or deny
/// wins, and the reasons of the run are joined with `\n`.
const OR: EventRules = EventRules { reasons: Reasons::EveryReasonJoined("\n"), ..BASE };

/// Stop and SubagentStop (and the Todo events): `decision: "block"` keeps
/// the turn going with its reason; `continue: false` stops the agent.
const STOP: EventRules = EventRules { block_fields: BlockFields::Decision, halt_clears_block: true, ..OR };

/// A Qwen Code event besides the twelve canonical ones.
const fn named(name: &'static str, family: EventFamily, rules: EventRules, subject: Subject) -> NamedEventRules {
    NamedEventRules { name, family, rules, subject, matcher: MatcherRule::Standard, tool_event: false }
}

/// The Qwen Code profile.
pub static PROFILE: Profile = Profile {
    name: "qwen",
    // Command hooks: 60 s (Qwen Code's documented `60000`).
    default_timeout: Duration::from_millis(60_000),
    // Every configured timeout is stored in milliseconds: the reader turns
    // each handler type's own unit into them (`config.rs`).
    timeout_unit: TimeoutUnit::Milliseconds,
    handler_timeouts: HandlerTimeouts { prompt: Duration::from_secs(30), agent: Duration::from_secs(60), lowered: &[] },
    exec_placeholders: &[],
    inputs: InputRules::Lenient,
    // Qwen Code's planner runs a hook once per `name:command` key.
    dedupe: Dedupe::NameAndCommand,
    dialect_fields: FieldMerge::FirstOrAppended,
    families: EventTable { subagent_start: EventFamily::Context, ..CANONICAL_FAMILIES },
    events: EventTable {
        session_start: BASE,
        session_end: BASE,
        subagent_start: BASE,
        subagent_stop: STOP,
        // A deny blocks the prompt; its context goes with it.
        user_prompt_submit: EventRules { block_drops_context: true, ..OR },
        // Any deny wins over ask, ask over allow, whatever the order; a
        // denied call is not rebuilt with a hook's input.
        pre_tool_use: EventRules {
            precedence: Precedence::MostRestrictive,
            rewrite_on_deny: RewriteOnDeny::Dropped,
            ..OR
        },
        post_tool_use: OR,
        // Deny beats allow, whatever the order.
        permission_request: EventRules { precedence: Precedence::MostRestrictive, ..BASE },
        pre_compact: BASE,
        stop: STOP,
        notification: BASE,
        post_tool_use_failure: OR,
    },
    named: NAMED,
    unknown_event: BASE,
};

/// The events Qwen Code has besides the twelve canonical ones.
pub static NAMED: &[NamedEventRules] = &[
    // Fire-and-forget: output and exit codes are ignored.
    named("SessionDelete", EventFamily::Observe, BASE, Subject::None),
    named("MessageDisplay", EventFamily::Observe, BASE, Subject::None),
    named("StopFailure", EventFamily::Observe, BASE, Subject::Field("error")),
    // Logging only.
    named("PostCompact", EventFamily::Observe, BASE, Subject::Field("trigger")),
    NamedEventRules {
        tool_event: true,
        ..named("PermissionDenied", EventFamily::Observe, BASE, Subject::Field("tool_name"))
    },
    // `decision: "block"` blocks the todo change.
    named("TodoCreated", EventFamily::Stop, STOP, Subject::None),
    named("TodoCompleted", EventFamily::Stop, STOP, Subject::None),
    // OR-merged like PreToolUse's family: a block (or `continue: false`)
    // stops the loop.
    named(
        "PostToolBatch",
        EventFamily::PostTool,
        EventRules { block_fields: BlockFields::DecisionOrContinueFalse, ..OR },
        Subject::None,
    ),
    named("UserPromptExpansion", EventFamily::Prompt, EventRules { block_drops_context: true, ..OR }, Subject::None),
    // The 1.x schema's other events: observers here.
    named("QueryEnd", EventFamily::Observe, BASE, Subject::None),
    named("ConfigChange", EventFamily::Observe, BASE, Subject::Field("source")),
    named("TeammateIdle", EventFamily::Observe, BASE, Subject::None),
    named("InstructionsLoaded", EventFamily::Observe, BASE, Subject::Field("load_reason")),
    named("CwdChanged", EventFamily::Observe, BASE, Subject::None),
    named("FileChanged", EventFamily::Observe, BASE, Subject::FileName("file_path")),
    named("WorktreeCreate", EventFamily::Observe, BASE, Subject::None),
    named("WorktreeRemove", EventFamily::Observe, BASE, Subject::None),
    named("Elicitation", EventFamily::Observe, BASE, Subject::Field("mcp_server_name")),
    named("ElicitationResult", EventFamily::Observe, BASE, Subject::Field("mcp_server_name")),
    named("TaskCreated", EventFamily::Observe, BASE, Subject::None),
    named("TaskCompleted", EventFamily::Observe, BASE, Subject::None),
];

/// The names of [`NAMED`], the event keys Qwen Code has without a
/// canonical meaning.
pub const NAMED_EVENTS: &[&str] = &[
    "SessionDelete",
    "MessageDisplay",
    "StopFailure",
    "PostCompact",
    "PermissionDenied",
    "TodoCreated",
    "TodoCompleted",
    "PostToolBatch",
    "UserPromptExpansion",
    "QueryEnd",
    "ConfigChange",
    "TeammateIdle",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
    "TaskCreated",
    "TaskCompleted",
];

/// Whether the groups of event key `key` are matched on a tool id.
pub(crate) fn is_tool_key(key: &str) -> bool {
    matches!(key, "PreToolUse" | "PostToolUse" | "PostToolUseFailure" | "PermissionRequest" | "PermissionDenied")
}

/// Qwen Code's tools: the runtime id a hook's `tool_name` carries, and the
/// display names (current, then legacy) a matcher may name it by exactly
/// (`packages/core/src/tools/tool-names.ts`: `ToolNames`,
/// `ToolDisplayNames`, `ToolDisplayNamesMigration`).
pub static TOOL_TABLE: &[(&str, &[&str])] = &[
    ("run_shell_command", &["Shell"]),
    ("write_file", &["WriteFile"]),
    ("edit", &["Edit"]),
    ("read_file", &["ReadFile"]),
    ("read_many_files", &["ReadManyFiles"]),
    ("grep_search", &["Grep", "SearchFiles"]),
    ("glob", &["Glob", "FindFiles"]),
    ("list_directory", &["ListFiles", "ReadFolder"]),
    ("web_fetch", &["WebFetch"]),
    ("web_search", &["WebSearch"]),
    ("save_memory", &["SaveMemory"]),
    ("todo_write", &["TodoList", "TodoWrite"]),
    ("agent", &["Agent", "Task"]),
    ("task", &["Task"]),
    ("skill", &["Skill"]),
    ("exit_plan_mode", &["ExitPlanMode"]),
    ("enter_plan_mode", &["EnterPlanMode"]),
    ("ask_user_question", &["AskUserQuestion"]),
    ("lsp", &["Lsp"]),
    ("notebook_edit", &["NotebookEdit"]),
    ("zoom_image", &["ZoomImage"]),
    ("image_gen", &["ImageGen"]),
    ("tool_search", &["ToolSearch"]),
    ("read_mcp_resource", &["ReadMcpResource"]),
    ("cron_create", &["CronCreate"]),
    ("cron_list", &["CronList"]),
    ("cron_delete", &["CronDelete"]),
    ("enter_worktree", &["EnterWorktree"]),
    ("exit_worktree", &["ExitWorktree"]),
    ("send_message", &["SendMessage"]),
    ("monitor", &["Monitor"]),
];

/// Qwen Code's tool ids (the first column of [`TOOL_TABLE`]).
pub const TOOLS: &[&str] = &[
    "run_shell_command",
    "write_file",
    "edit",
    "read_file",
    "read_many_files",
    "grep_search",
    "glob",
    "list_directory",
    "web_fetch",
    "web_search",
    "save_memory",
    "todo_write",
    "agent",
    "task",
    "skill",
    "exit_plan_mode",
    "enter_plan_mode",
    "ask_user_question",
    "lsp",
    "notebook_edit",
    "zoom_image",
    "image_gen",
    "tool_search",
    "read_mcp_resource",
    "cron_create",
    "cron_list",
    "cron_delete",
    "enter_worktree",
    "exit_worktree",
    "send_message",
    "monitor",
];

/// Claude Code's tool names → Qwen Code's tool ids (Qwen Code's own
/// `hooks/tool-name-mapping.json`, and its tool table since). The inputs
/// keep Claude Code's field names (`command`, `file_path`, `content`,
/// `old_string`, `new_string`, `pattern`, `url`, `query`, `todos`); MCP
/// tools keep `mcp__<server>__<tool>`.
pub static TOOL_VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "run_shell_command"),
        ToolName::new("Write", "write_file"),
        ToolName::new("Edit", "edit"),
        ToolName::new("MultiEdit", "edit"),
        ToolName::new("Read", "read_file"),
        ToolName::new("Grep", "grep_search"),
        ToolName::new("Glob", "glob"),
        ToolName::new("LS", "list_directory"),
        ToolName::new("WebFetch", "web_fetch"),
        ToolName::new("WebSearch", "web_search"),
        ToolName::new("TodoWrite", "todo_write"),
        ToolName::new("Task", "agent"),
        ToolName::new("Agent", "agent"),
        ToolName::new("Skill", "skill"),
        ToolName::new("ExitPlanMode", "exit_plan_mode"),
        ToolName::new("AskUserQuestion", "ask_user_question"),
        ToolName::new("NotebookEdit", "notebook_edit"),
    ],
    mcp: McpNames::CANONICAL,
};

/// The exact-only aliases of a tool id (its display names).
pub(crate) fn aliases_of(tool: &str) -> &'static [&'static str] {
    TOOL_TABLE.iter().find(|(id, _)| *id == tool).map_or(&[], |(_, aliases)| aliases)
}

/// No aliases (matchers of events that do not test a tool).
pub(crate) fn no_aliases(_: &str) -> &'static [&'static str] {
    &[]
}

/// The variables Qwen Code's hooks get from the engine: the project
/// directory under Qwen Code's, Gemini CLI's and Claude Code's names.
const ENV_NAMES: &[&str] = &["QWEN_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"];

/// Qwen Code's system settings file on this platform.
const SYSTEM_SETTINGS: &str = if cfg!(target_os = "macos") {
    "/Library/Application Support/QwenCode/settings.json"
} else if cfg!(windows) {
    "C:\\ProgramData\\qwen-code\\settings.json"
} else {
    "/etc/qwen-code/settings.json"
};

/// The system defaults and system settings files:
/// `QWEN_CODE_SYSTEM_SETTINGS_PATH` / `QWEN_CODE_SYSTEM_DEFAULTS_PATH` when
/// set and not empty, else the platform's files (Gemini CLI's layout,
/// computed by its code).
fn system_paths_from(settings: Option<&str>, defaults: Option<&str>) -> (String, String) {
    super::gemini::system_paths_with(SYSTEM_SETTINGS, settings, defaults)
}

/// [`system_paths_from`] this process's environment, read once.
fn system_paths() -> &'static (&'static str, &'static str) {
    static PATHS: std::sync::OnceLock<(&'static str, &'static str)> = std::sync::OnceLock::new();
    PATHS.get_or_init(|| {
        let var = |name: &str| std::env::var(name).ok();
        let (defaults, settings) = system_paths_from(
            var("QWEN_CODE_SYSTEM_SETTINGS_PATH").as_deref(),
            var("QWEN_CODE_SYSTEM_DEFAULTS_PATH").as_deref(),
        );
        (Box::leak(defaults.into_boxed_str()), Box::leak(settings.into_boxed_str()))
    })
}

impl Dialect for Qwen {
    fn name(&self) -> &'static str {
        "qwen"
    }

    fn title(&self) -> &'static str {
        "Qwen Code"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// Qwen Code on Windows runs hooks as Gemini CLI does (its
    /// `getShellConfiguration`): PowerShell, `-NoProfile -NonInteractive
    /// -Command`, the exit code of a native program kept.
    fn windows_shell(&self) -> crate::config::windows_shell::WindowsShell {
        GEMINI.windows_shell()
    }

    /// A hook's `"shell": "powershell"`: `powershell -Command` (Qwen Code's
    /// runner), Windows PowerShell.
    fn windows_powershell(&self) -> crate::config::windows_shell::WindowsShell {
        crate::config::windows_shell::WindowsShell::PowerShell {
            programs: &["powershell.exe"],
            flags: &["-Command"],
            comspec_first: false,
            propagate_exit: false,
        }
    }

    /// `.qwen/settings*.json` (user, project, local) and the system files
    /// (`settings.json` and `system-defaults.json` in `/etc/qwen-code`,
    /// `C:\ProgramData\qwen-code`, `/Library/Application Support/QwenCode`).
    fn recognises_path(&self, path: &Path) -> bool {
        let (name, parent) = crate::dialect::file_and_dir_names(path);
        match parent {
            ".qwen" => name.starts_with("settings") && name.ends_with(".json"),
            "qwen-code" | "QwenCode" => name == "settings.json" || name == "system-defaults.json",
            _ => false,
        }
    }

    fn read_json(&self, value: &Value, source: &SourceInfo) -> Result<HooksConfig> {
        config::read(value, source)
    }

    /// A settings file that is not JSON or not an object contributes
    /// nothing in Qwen Code: among several sources it is left out,
    /// reported, and the others load.
    fn skips_invalid_source(&self) -> bool {
        true
    }

    /// Settings files may have comments, as Gemini CLI's.
    fn json_text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        GEMINI.json_text(text)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        std::slice::from_ref(KEYS.get(event))
    }

    /// Tool events and PermissionRequest: `tool_name`; SubagentStart and
    /// SubagentStop: `agent_type`; SessionStart: `source` (the trigger);
    /// SessionEnd: `reason`; Notification: `notification_type`;
    /// PreCompact: `trigger`; UserPromptSubmit and Stop: no matcher.
    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, trigger: &'a str) -> Option<&'a str> {
        super::protocol::match_subject(event, input, trigger, SUBJECTS, &PROFILE)
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        super::protocol::match_subject_field(event, SUBJECTS, &PROFILE)
    }

    /// Claude Code's payload (Qwen Code's field names are Claude Code's),
    /// with Qwen Code's `timestamp` (ISO 8601, UTC, milliseconds).
    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Map<String, Value> {
        let mut p = super::protocol::payload::payload(event, facts, input, tool_input);
        if !p.contains_key("timestamp") {
            let now = super::gemini::payload::timestamp(std::time::SystemTime::now());
            p.insert("timestamp".into(), Value::from(now));
        }
        p
    }

    /// `QWEN_PROJECT_DIR`, `GEMINI_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`:
    /// the session's working directory.
    fn environment(&self, _event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        for name in ENV_NAMES {
            add(name, facts.cwd);
        }
    }

    fn environment_names(&self) -> &'static [&'static str] {
        ENV_NAMES
    }

    fn placeholders(&self) -> &'static [Placeholder] {
        &[
            Placeholder { name: "QWEN_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "GEMINI_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "CLAUDE_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
        ]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        reply::read(cx, exec)
    }

    /// Exit 2 with the reason on stderr: Qwen Code reads a blocking hook's
    /// stderr (as JSON, else as the deny reason), on the events whose
    /// hooks decide.
    fn blocking_answer(&self, event: &RunEvent, reason: &str) -> Option<super::BlockingAnswer> {
        reply::blocks_on_exit_2(event).then(|| super::BlockingAnswer {
            exit_code: 2,
            stdout: None,
            stderr: Some(reason.to_owned()),
        })
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        super::protocol::honours(PROFILE.family_of(event))
    }

    fn describe_matcher(&self, matcher: &Matcher, raw: Option<&str>) -> String {
        match matcher {
            Matcher::Names(names) => format!(
                "Qwen Code exact value {} (no regex, no list)",
                names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(" | ")
            ),
            _ => matcher.describe(self.title(), false, raw),
        }
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn tool_vocabulary(&self) -> &'static ToolVocabulary {
        &TOOL_VOCABULARY
    }

    fn workspace_files(&self) -> &'static [&'static str] {
        &[".qwen/settings.json", ".qwen/settings.local.json"]
    }

    /// The system defaults (`system-defaults.json` next to the system
    /// settings, or `QWEN_CODE_SYSTEM_DEFAULTS_PATH`), read first.
    fn system_files(&self) -> &'static [&'static str] {
        std::slice::from_ref(&system_paths().0)
    }

    /// The system settings (`QWEN_CODE_SYSTEM_SETTINGS_PATH` when set),
    /// read after the user's and the project's.
    fn late_system_files(&self) -> &'static [&'static str] {
        std::slice::from_ref(&system_paths().1)
    }

    /// In the home directory `.qwen/settings.json` is the user's own file:
    /// read once, as the user's.
    fn reads_workspace_at_home(&self) -> bool {
        false
    }

    /// `~/.qwen/settings.json`.
    fn user_files(&self, home: &Path) -> Vec<PathBuf> {
        vec![home.join(".qwen").join("settings.json")]
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        &["matcher", "sequential", "hooks"]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        config::HOOK_FIELDS
    }

    fn supports(&self, kind: crate::model::outcome::HookKind, event: &RunEvent) -> bool {
        use crate::model::outcome::HookKind;
        let _ = event;
        matches!(kind, HookKind::Command | HookKind::Http | HookKind::Prompt | HookKind::Callback)
    }

    fn native_event_keys(&self) -> &'static [&'static str] {
        NAMED_EVENTS
    }

    /// `sequential: true`: after a hook that exited 0, UserPromptSubmit's
    /// `prompt` gets its `additionalContext` appended, and PreToolUse's
    /// `tool_input` gets its `hookSpecificOutput.tool_input` merged over
    /// it (Gemini CLI's chaining, which Qwen Code kept).
    fn chain_input(
        &self,
        event: &RunEvent,
        input: &Map<String, Value>,
        exec: &HookExecution,
    ) -> Option<Map<String, Value>> {
        GEMINI.chain_input(event, input, exec)
    }

    fn shell(&self) -> Shell {
        Shell::Bash
    }

    /// `$GEMINI_PROJECT_DIR` and `$CLAUDE_PROJECT_DIR` in the command text
    /// replaced by the shell-quoted working directory (Qwen Code's runner).
    fn command_line<'a>(&self, hook: &'a HookSpec, facts: &SessionFacts<'_>, _env: &Environment) -> Cow<'a, str> {
        let mut line = Cow::Borrowed(hook.command_text().unwrap_or_default());
        for name in ["$GEMINI_PROJECT_DIR", "$CLAUDE_PROJECT_DIR"] {
            if line.contains(name) {
                line = Cow::Owned(line.replace(name, &super::gemini::quote(facts.cwd)));
            }
        }
        line
    }

    fn plugin_root_variables(&self) -> &'static [&'static str] {
        &[]
    }
}

/// Qwen Code's matcher subjects: UserPromptSubmit and Stop have none;
/// Subagent events test `agent_type`.
const SUBJECTS: super::protocol::Subjects =
    super::protocol::Subjects { prompt_and_stop: false, subagent: "agent_type" };

/// The config key of each canonical event (Claude Code's names).
static KEYS: EventTable<&str> = EventTable {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// "system-defaults `/etc/qwen-code/system-defaults.json` … env
    /// `QWEN_CODE_SYSTEM_DEFAULTS_PATH`"; "system
    /// `/etc/qwen-code/settings.json` (override,
    /// `QWEN_CODE_SYSTEM_SETTINGS_PATH`)" (Qwen Code settings docs).
    #[test]
    fn system_files_follow_qwen_s_variables() {
        let (defaults, settings) = system_paths_from(None, None);
        assert_eq!(settings, SYSTEM_SETTINGS);
        assert_eq!(Path::new(&defaults), Path::new(SYSTEM_SETTINGS).with_file_name("system-defaults.json"));
        let (defaults, settings) = system_paths_from(Some("/opt/q/sys.json"), Some("/d/defaults.json"));
        assert_eq!((defaults.as_str(), settings.as_str()), ("/d/defaults.json", "/opt/q/sys.json"));
    }

    #[test]
    fn the_tool_table_and_the_tool_list_agree() {
        let ids: Vec<&str> = TOOL_TABLE.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, TOOLS);
        for row in TOOL_VOCABULARY.names {
            assert!(TOOLS.contains(&row.native), "{}", row.native);
        }
        assert_eq!(TOOL_VOCABULARY.native_name("Bash"), "run_shell_command");
        assert_eq!(TOOL_VOCABULARY.canonical_name("edit", None), "Edit");
        assert_eq!(NAMED.iter().map(|n| n.name).collect::<Vec<_>>(), NAMED_EVENTS);
    }

    #[test]
    fn qwen_files_are_recognised_by_path() {
        assert!(QWEN.recognises_path(Path::new("/p/.qwen/settings.json")));
        assert!(QWEN.recognises_path(Path::new("/p/.qwen/settings.local.json")));
        assert!(QWEN.recognises_path(Path::new("/etc/qwen-code/system-defaults.json")));
        assert!(!QWEN.recognises_path(Path::new("/p/.gemini/settings.json")));
        assert!(!QWEN.recognises_path(Path::new("/p/.qwen/trusted_hooks.json")));
    }
}
