//! The Cursor dialect: `.cursor/hooks.json` (a project's, the user's
//! `~/.cursor/hooks.json`, the enterprise `hooks.json`), read the way
//! Cursor reads it according to its hooks documentation and to recorded
//! runs of Cursor itself (its runner is closed source). `docs/dialects.md`
//! has the rule table and every deviation.
//!
//! | part | file |
//! |---|---|
//! | files, validation (what rejects the file, what is skipped and reported) | `config.rs` |
//! | the stdin payload (Cursor's common fields, each event's fields) | `payload.rs` |
//! | one hook's result → the canonical reply (flat snake_case JSON, exit 2, failures) | `reply.rs` |
//! | its names and argument shapes of the canonical tools | `tools.rs` |
//! | events, rule table, matchers, environment, tool names | here |
//!
//! Events: `preToolUse` is PreToolUse, `postToolUse` PostToolUse,
//! `postToolUseFailure` PostToolUseFailure, `beforeSubmitPrompt`
//! UserPromptSubmit, `stop` Stop, `subagentStart` SubagentStart (a gate in
//! Cursor), `subagentStop` SubagentStop, `preCompact` PreCompact,
//! `sessionStart` and `sessionEnd` SessionStart and SessionEnd. The other
//! eleven have no canonical meaning and are fired by name with their own
//! rules ([`NAMED`]): the gates `beforeShellExecution` and
//! `beforeMCPExecution` (allow, deny, ask) and `beforeReadFile` and
//! `beforeTabFileRead` (allow, deny), and the observers `after*` and
//! `workspaceOpen`. `beforeShellExecution` is PreToolUse restricted to the
//! shell tool, and `beforeMCPExecution` PreToolUse restricted to MCP
//! tools: their hooks also run in a PreToolUse of the `Shell` tool (an
//! `MCP:<tool>` tool), after the `preToolUse` hooks and only when those did
//! not deny, as Cursor runs both; their matchers test, and their payload
//! carries, the command as the `preToolUse` hooks rewrote it.
//!
//! Hooks run in `sh -c`, project hooks in the project root, a user's in
//! `~/.cursor`, the enterprise ones in their directory; the payload on
//! stdin; timeouts are seconds (default 60).

mod config;
mod payload;
mod reply;
pub(crate) mod tools;

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use super::{Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::{HooksConfig, SourceInfo};
use crate::error::Result;
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{
    AskRule, BlockFields, BlockReasons, Column, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, FieldMerge,
    HandlerTimeouts, InputRules, MatcherRule, NamedEventRules, OnFailure, Precedence, Profile, RewriteOnDeny, Subject,
    TimeoutUnit, ToolInputFlow, CANONICAL_FAMILIES,
};

/// The Cursor dialect (see the module documentation).
#[derive(Debug)]
pub struct Cursor;

/// The Cursor dialect's value.
pub static CURSOR: Cursor = Cursor;

/// How Cursor joins the reasons of several blocking hooks.
pub const REASON_SEPARATOR: &str = "\n\n---\n\n";

/// Every event: concurrent, fail open, failures as warnings; exit 2 has no
/// effect where the event cannot block.
const BASE: EventRules = EventRules { exit2: Exit2::Ignored, ..EventRules::NEUTRAL };

/// Exit 2 denies (blocks), its reason the raw stdout.
const EXIT2_DENIES: Exit2 = Exit2::Block { reason: Exit2Reason::RawStdout, needs_stderr: false };

/// The gates: any deny blocks (deny > ask > allow), every hook reads the
/// original input, every deny's reason is kept, exit 2 denies, a
/// `failClosed` hook's empty answer fails.
const GATE: EventRules = EventRules {
    precedence: Precedence::MostRestrictive,
    tool_input: ToolInputFlow::Original,
    exit2: EXIT2_DENIES,
    block_reasons: BlockReasons::Joined(REASON_SEPARATOR),
    empty_output_fails_closed: true,
    ..BASE
};

/// `beforeShellExecution`, `beforeMCPExecution`: allow, deny and ask.
const GATE3: EventRules = EventRules { tool_gate: true, ..GATE };

/// `beforeReadFile`, `beforeTabFileRead`: allow and deny (an `ask` is
/// passed on as the documented answers leave it).
const GATE2: EventRules = EventRules { tool_gate: true, ..GATE };

/// The events that only observe: their output is logged, nothing decides.
const OBSERVER: EventRules = BASE;

/// stop: a `followup_message` keeps the agent working, at most `loop_limit`
/// times per hook; a failure never blocks.
const STOP: EventRules = EventRules {
    block_fields: BlockFields::FollowupMessage,
    follow_up_loop_limit: true,
    on_failure: OnFailure::Open,
    ..BASE
};

/// The Cursor profile.
pub static PROFILE: Profile = Profile {
    name: "cursor",
    default_timeout: Duration::from_secs(60),
    // `timeout` is in seconds.
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Lenient,
    dedupe: Dedupe::None,
    // The first hook that gave a field wins (arrays collect every hook's).
    dialect_fields: FieldMerge::FirstOrAppended,
    // subagentStart is a gate: allowed or denied as a tool call is.
    families: EventTable { subagent_start: EventFamily::Tool, ..CANONICAL_FAMILIES },
    // Cursor runs command hooks only (its `prompt` hooks are skipped when
    // the file is read).
    handler_timeouts: HandlerTimeouts { prompt: Duration::from_secs(60), agent: Duration::from_secs(60), lowered: &[] },
    exec_placeholders: &[],
    events: EventTable {
        // Fire-and-forget: context and `env` for the session's later hooks;
        // `continue: false` is not enforced.
        session_start: EventRules { session_env_from_output: true, context_needs_exit_0: true, ..OBSERVER },
        session_end: OBSERVER,
        // A gate in Cursor: allow or deny; `ask` is treated as deny.
        subagent_start: EventRules { tool_gate: true, ask: AskRule::Denies, ..GATE },
        // A follow-up only when the subagent completed.
        subagent_stop: EventRules { block_needs_completed_status: true, ..STOP },
        // `continue: false` (or exit 2) blocks the prompt; every reason kept.
        user_prompt_submit: EventRules {
            exit2: EXIT2_DENIES,
            block_reasons: BlockReasons::Joined(REASON_SEPARATOR),
            empty_output_fails_closed: true,
            ..BASE
        },
        // `ask` is accepted and not enforced; a deny drops the rewrite.
        pre_tool_use: EventRules { ask: AskRule::Ignored, rewrite_on_deny: RewriteOnDeny::Dropped, ..GATE },
        post_tool_use: EventRules { context_needs_exit_0: true, ..OBSERVER },
        // Cursor has no PermissionRequest or Notification event: no hook
        // is ever configured for them.
        permission_request: OBSERVER,
        // Observational: `user_message` is shown, nothing blocks.
        pre_compact: OBSERVER,
        stop: STOP,
        notification: OBSERVER,
        post_tool_use_failure: OBSERVER,
    },
    named: NAMED,
    unknown_event: OBSERVER,
};

/// Cursor's events that have no canonical meaning, fired by name: the
/// gates merge as PreToolUse does (tool family), the others observe.
/// Cursor's own matching reads their subject ([`Dialect::match_subject`]).
pub const NAMED: &[NamedEventRules] = &[
    native("beforeShellExecution", EventFamily::Tool, GATE3),
    native("beforeMCPExecution", EventFamily::Tool, GATE3),
    native("beforeReadFile", EventFamily::Tool, GATE2),
    native("beforeTabFileRead", EventFamily::Tool, GATE2),
    native("afterShellExecution", EventFamily::Observe, OBSERVER),
    native("afterMCPExecution", EventFamily::Observe, OBSERVER),
    native("afterFileEdit", EventFamily::Observe, OBSERVER),
    native("afterAgentResponse", EventFamily::Observe, OBSERVER),
    native("afterAgentThought", EventFamily::Observe, OBSERVER),
    native("afterTabFileEdit", EventFamily::Observe, OBSERVER),
    native("workspaceOpen", EventFamily::Observe, OBSERVER),
];

/// A row of [`NAMED`].
const fn native(name: &'static str, family: EventFamily, rules: EventRules) -> NamedEventRules {
    NamedEventRules { name, family, rules, subject: Subject::None, matcher: MatcherRule::Standard, tool_event: false }
}

/// The keys of [`NAMED`].
const NATIVE_KEYS: &[&str] = &[
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "beforeTabFileRead",
    "afterShellExecution",
    "afterMCPExecution",
    "afterFileEdit",
    "afterAgentResponse",
    "afterAgentThought",
    "afterTabFileEdit",
    "workspaceOpen",
];

/// The config key of each canonical event (`""`: Cursor has none).
static KEYS: EventTable<&str> = EventTable {
    session_start: "sessionStart",
    session_end: "sessionEnd",
    subagent_start: "subagentStart",
    subagent_stop: "subagentStop",
    user_prompt_submit: "beforeSubmitPrompt",
    pre_tool_use: "preToolUse",
    post_tool_use: "postToolUse",
    permission_request: "",
    pre_compact: "preCompact",
    stop: "stop",
    notification: "",
    post_tool_use_failure: "postToolUseFailure",
};

/// The canonical event of a Cursor event key, if it has one.
pub(crate) fn canonical_event(key: &str) -> Option<HookEvent> {
    HookEvent::ALL.into_iter().find(|e| !KEYS.get(*e).is_empty() && *KEYS.get(*e) == key)
}

/// Whether a JSON config has Cursor's shape: `version` and a `hooks`
/// object whose keys are all Cursor events (camelCase).
pub(crate) fn has_shape(v: &Value) -> bool {
    let Some(top) = v.as_object() else { return false };
    let Some(Value::Object(hooks)) = top.get("hooks") else { return false };
    top.contains_key("version")
        && !hooks.is_empty()
        && hooks.keys().all(|k| canonical_event(k).is_some() || is_native(k))
}

/// Whether `key` is one of Cursor's events without a canonical meaning.
pub(crate) fn is_native(key: &str) -> bool {
    NAMED.iter().any(|n| n.name == key)
}

/// The native events whose hooks also run in PreToolUse, and for which
/// tools.
fn runs_in_pre_tool_use(native: &str, tool_name: &str) -> bool {
    match native {
        "beforeShellExecution" => tool_name == "Shell",
        "beforeMCPExecution" => tool_name.starts_with("MCP:"),
        _ => false,
    }
}

/// The native events whose hooks run in PreToolUse too.
pub(crate) const PRE_TOOL_USE_NATIVE: &[&str] = &["beforeShellExecution", "beforeMCPExecution"];

/// The Cursor name of the event of a run (`hook_event_name`): the key of a
/// canonical event (its canonical name where Cursor has none), else the
/// name it was fired by.
pub(crate) fn event_name(event: &RunEvent) -> &str {
    match event {
        RunEvent::Known(e) => match *KEYS.get(*e) {
            "" => e.name(),
            key => key,
        },
        RunEvent::Named(name) => name,
    }
}

/// Cursor's tool names (`MCP:<tool>` names MCP tools).
pub const TOOLS: &[&str] = &["Shell", "Read", "Write", "StrReplace", "Grep", "Delete", "Task"];

/// The variables Cursor's hooks get besides the canonical ones.
const ENV_NAMES: &[&str] = &["CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "CURSOR_TRANSCRIPT_PATH"];

/// The enterprise hooks file on `os` (as `std::env::consts::OS` names it):
/// macOS `/Library/Application Support/Cursor/hooks.json`, Windows
/// `C:\ProgramData\Cursor\hooks.json`, Linux and others
/// `/etc/cursor/hooks.json`.
fn enterprise_files(os: &str) -> &'static [&'static str] {
    match os {
        "macos" => &["/Library/Application Support/Cursor/hooks.json"],
        "windows" => &[r"C:\ProgramData\Cursor\hooks.json"],
        _ => &["/etc/cursor/hooks.json"],
    }
}

/// A string field of the input.
fn field<'a>(input: &'a Value, key: &str) -> Option<&'a str> {
    input.get(key).and_then(Value::as_str)
}

impl Dialect for Cursor {
    fn name(&self) -> &'static str {
        "cursor"
    }

    /// Cursor on Windows launches a hook's command through PowerShell
    /// (Arize-ai/coding-harness-tracing#58, speakeasy-api/gram#3736); its
    /// flags are not documented: hookline starts Windows PowerShell (always
    /// installed), else PowerShell 7, with `-NoProfile -Command`.
    fn windows_shell(&self) -> crate::config::windows_shell::WindowsShell {
        crate::config::windows_shell::WindowsShell::PowerShell {
            programs: &["powershell.exe", "pwsh.exe"],
            flags: &["-NoProfile", "-Command"],
            comspec_first: false,
            propagate_exit: false,
        }
    }

    fn title(&self) -> &'static str {
        "Cursor"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// `.cursor/hooks.json` (a project's, or the user's in the home
    /// directory) and the enterprise file, a `hooks.json` in a directory
    /// named `cursor` or `Cursor` (`/etc/cursor/hooks.json`, macOS
    /// `/Library/Application Support/Cursor/hooks.json`, Windows
    /// `C:\ProgramData\Cursor\hooks.json`).
    fn recognises_path(&self, path: &Path) -> bool {
        let (name, parent) = crate::dialect::file_and_dir_names(path);
        name == "hooks.json" && matches!(parent, ".cursor" | "cursor" | "Cursor")
    }

    fn read_json(&self, v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        config::read(v, info)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        match *KEYS.get(event) {
            "" => &[],
            _ => std::slice::from_ref(KEYS.get(event)),
        }
    }

    /// What Cursor's matchers are tested against: the tool name for the
    /// tool events, the subagent type for the subagent events, the command
    /// for the shell events, the MCP tool for the MCP events, the tool type
    /// for file reads and edits, the constants `UserPromptSubmit`, `Stop`,
    /// `AgentResponse` and `AgentThought`; nothing (every hook runs) for
    /// the session events, preCompact, the Tab events and workspaceOpen.
    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, _trigger: &'a str) -> Option<&'a str> {
        let tool_input = |key: &str| input.get("tool_input").and_then(|t| t.get(key)).and_then(Value::as_str);
        match event {
            RunEvent::Known(e) => match e {
                HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PostToolUseFailure => {
                    Some(field(input, "tool_name").unwrap_or(""))
                }
                HookEvent::SubagentStart | HookEvent::SubagentStop => {
                    Some(field(input, "subagent_type").or_else(|| field(input, "agent_name")).unwrap_or(""))
                }
                HookEvent::UserPromptSubmit => Some("UserPromptSubmit"),
                HookEvent::Stop => Some("Stop"),
                HookEvent::SessionStart
                | HookEvent::SessionEnd
                | HookEvent::PreCompact
                | HookEvent::PermissionRequest
                | HookEvent::Notification => None,
            },
            RunEvent::Named(name) => match &**name {
                "beforeShellExecution" | "afterShellExecution" => {
                    Some(field(input, "command").or_else(|| tool_input("command")).unwrap_or(""))
                }
                "beforeMCPExecution" | "afterMCPExecution" => {
                    let tool = field(input, "tool_name").unwrap_or("");
                    Some(tool.strip_prefix("MCP:").unwrap_or(tool))
                }
                "beforeReadFile" => Some(field(input, "tool_name").unwrap_or("Read")),
                "afterFileEdit" => Some(field(input, "tool_name").unwrap_or("Write")),
                "afterAgentResponse" => Some("AgentResponse"),
                "afterAgentThought" => Some("AgentThought"),
                "beforeTabFileRead" | "afterTabFileEdit" | "workspaceOpen" => None,
                _ => field(input, "matcher_value"),
            },
        }
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        match event {
            RunEvent::Known(e) => match e {
                HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PostToolUseFailure => Some("tool_name"),
                HookEvent::SubagentStart | HookEvent::SubagentStop => Some("the subagent type (agent_name)"),
                HookEvent::UserPromptSubmit => Some("the literal \"UserPromptSubmit\""),
                HookEvent::Stop => Some("the literal \"Stop\""),
                _ => None,
            },
            RunEvent::Named(name) => match &**name {
                "beforeShellExecution" | "afterShellExecution" => Some("the shell command"),
                "beforeMCPExecution" | "afterMCPExecution" => Some("the MCP tool name"),
                "beforeReadFile" | "afterFileEdit" => Some("the tool type (tool_name)"),
                "afterAgentResponse" => Some("the literal \"AgentResponse\""),
                "afterAgentThought" => Some("the literal \"AgentThought\""),
                "beforeTabFileRead" | "afterTabFileEdit" | "workspaceOpen" => None,
                _ => Some("matcher_value"),
            },
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

    /// `CURSOR_PROJECT_DIR` and its Claude Code alias `CLAUDE_PROJECT_DIR`
    /// (the workspace), `CURSOR_TRANSCRIPT_PATH` when a transcript is set.
    /// `CURSOR_VERSION`, `CURSOR_USER_EMAIL` and `CURSOR_CODE_REMOTE` are
    /// the host's to set in its own environment (hooks inherit it).
    fn environment(&self, _event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        add("CURSOR_PROJECT_DIR", facts.cwd);
        add("CLAUDE_PROJECT_DIR", facts.cwd);
        if let Some(t) = facts.transcript_path {
            add("CURSOR_TRANSCRIPT_PATH", t);
        }
    }

    fn environment_names(&self) -> &'static [&'static str] {
        ENV_NAMES
    }

    /// `CURSOR_PROJECT_DIR` and its Claude Code alias `CLAUDE_PROJECT_DIR`
    /// (the workspace root), and a plugin source's root.
    fn placeholders(&self) -> &'static [Placeholder] {
        &[
            Placeholder { name: "CURSOR_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "CLAUDE_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "CLAUDE_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
        ]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        reply::read(cx, exec)
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        reply::honours_event(event)
    }

    fn describe_matcher(&self, matcher: &Matcher, raw: Option<&str>) -> String {
        matcher.describe(self.title(), false, raw)
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn tool_vocabulary(&self) -> &'static super::tools::ToolVocabulary {
        &tools::VOCABULARY
    }

    fn workspace_files(&self) -> &'static [&'static str] {
        &[".cursor/hooks.json"]
    }

    /// The enterprise file is an organisation's policy: "Enterprise hooks
    /// (system-wide config)", managed by administrators.
    fn system_files_are_policy(&self) -> bool {
        true
    }

    /// The enterprise hooks file, "priority 1 (highest)".
    fn system_files(&self) -> &'static [&'static str] {
        enterprise_files(std::env::consts::OS)
    }

    /// The user's `~/.cursor/hooks.json`.
    fn user_files(&self, home: &Path) -> Vec<std::path::PathBuf> {
        vec![home.join(".cursor").join("hooks.json")]
    }

    /// Cursor's priority order puts the project's hooks before the user's.
    fn user_files_come_last(&self) -> bool {
        true
    }

    /// Cursor's hooks are flat entries, not matcher groups: there are no
    /// group keys (the reader reports unknown hook fields itself).
    fn group_field_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        config::FIELDS
    }

    fn native_event_keys(&self) -> &'static [&'static str] {
        NATIVE_KEYS
    }

    /// Cursor's answers are flat snake_case fields, not the hooks protocol.
    fn reads_hooks_protocol(&self) -> bool {
        false
    }

    /// Cursor rejects an invalid hooks.json and keeps its other sources.
    fn skips_invalid_source(&self) -> bool {
        true
    }

    /// `beforeShellExecution` hooks run in PreToolUse for the `Shell` tool,
    /// `beforeMCPExecution` hooks for `MCP:<tool>` tools.
    fn native_event_applies(&self, native_event: &str, event: &RunEvent, input: &Value) -> bool {
        event.known() == Some(HookEvent::PreToolUse)
            && runs_in_pre_tool_use(native_event, field(input, "tool_name").unwrap_or(""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_project_user_and_enterprise_files_are_recognised_by_path() {
        for path in [
            "/p/.cursor/hooks.json",
            "/home/u/.cursor/hooks.json",
            "/etc/cursor/hooks.json",
            "/Library/Application Support/Cursor/hooks.json",
        ] {
            assert!(CURSOR.recognises_path(Path::new(path)), "{path}");
        }
        for path in ["/p/.cursor/settings.json", "/p/hooks.json", "/p/.claude/settings.json", "/p/hooks/hooks.json"] {
            assert!(!CURSOR.recognises_path(Path::new(path)), "{path}");
        }
    }

    /// "macOS `/Library/Application Support/Cursor/hooks.json`; Linux/WSL
    /// `/etc/cursor/hooks.json`; Windows `C:\ProgramData\Cursor\hooks.json`".
    #[test]
    fn the_enterprise_file_is_the_one_of_the_platform() {
        assert_eq!(enterprise_files("macos"), ["/Library/Application Support/Cursor/hooks.json"]);
        assert_eq!(enterprise_files("linux"), ["/etc/cursor/hooks.json"]);
        assert_eq!(enterprise_files("windows"), [r"C:\ProgramData\Cursor\hooks.json"]);
    }

    #[test]
    fn camel_case_keys_map_to_canonical_events_and_cursor_has_no_permission_request() {
        assert_eq!(canonical_event("beforeSubmitPrompt"), Some(HookEvent::UserPromptSubmit));
        assert_eq!(canonical_event("preToolUse"), Some(HookEvent::PreToolUse));
        assert_eq!(canonical_event("PreToolUse"), None);
        assert!(CURSOR.event_keys(HookEvent::PermissionRequest).is_empty());
        assert!(CURSOR.event_keys(HookEvent::Notification).is_empty());
        assert!(is_native("beforeReadFile") && !is_native("preToolUse"));
        assert_eq!(NAMED.len(), 11);
        assert_eq!(NAMED.iter().map(|n| n.name).collect::<Vec<_>>(), NATIVE_KEYS);
    }

    #[test]
    fn shell_hooks_run_in_pre_tool_use_only_for_the_shell_tool() {
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        let shell = json!({"tool_name": "Shell", "tool_input": {"command": "git push"}});
        assert!(CURSOR.native_event_applies("beforeShellExecution", &pre, &shell));
        assert!(!CURSOR.native_event_applies("beforeShellExecution", &pre, &json!({"tool_name": "Read"})));
        assert!(CURSOR.native_event_applies("beforeMCPExecution", &pre, &json!({"tool_name": "MCP:search"})));
        assert!(!CURSOR.native_event_applies("beforeReadFile", &pre, &json!({"tool_name": "Read"})));
        let named = RunEvent::Named("beforeShellExecution".into());
        assert_eq!(CURSOR.match_subject(&named, &shell, ""), Some("git push"));
        assert_eq!(CURSOR.match_subject(&named, &json!({"command": "ls"}), ""), Some("ls"));
    }
}
