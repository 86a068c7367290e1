//! The Windsurf / Devin Desktop dialect (Cascade hooks): `hooks.json` files
//! of the shape `{"hooks": {"<event>": [{"command", "powershell",
//! "show_output", "working_directory"}]}}`, read the way Cascade reads them
//! according to its hooks documentation and recorded runs of the editor
//! (its runner is closed source). `docs/dialects.md` has the rule table and
//! every deviation.
//!
//! | part | file |
//! |---|---|
//! | files, validation (what rejects the file, what is skipped and reported) | `config.rs` |
//! | the stdin payload (the common fields, `tool_info`) | `payload.rs` |
//! | one hook's result → the canonical reply (exit codes only), and what Cascade cannot express (dropped, reported) | `reply.rs` |
//! | events, rule table, files, environment, tool names | here |
//!
//! Events: twelve, snake_case, none with a matcher. `pre_user_prompt` is
//! the canonical UserPromptSubmit; the other eleven have no canonical
//! meaning and are fired by name ([`NAMED`]): the gates `pre_read_code`,
//! `pre_write_code`, `pre_run_command` and `pre_mcp_tool_use` (exit 2
//! denies) and the observers `post_*`. The gates and their `post_*`
//! twins are a canonical tool call restricted to one kind of tool: their
//! hooks also run in a canonical PreToolUse (PostToolUse) of that kind of
//! tool, named by Claude Code's tool names (`Bash`, `Read`,
//! `Write`/`Edit`/`MultiEdit`/`NotebookEdit`, `mcp__<server>__<tool>`:
//! [`VOCABULARY`]), with the `tool_info` Cascade would send built from the
//! call.
//!
//! Hooks run in `bash -c` (`powershell -Command` on Windows, with the
//! entry's `powershell` script when it has one), in the workspace root or
//! their `working_directory`, the payload on stdin; Cascade reads only the
//! exit code (and stderr as a block's reason): stdout is never read.

mod config;
mod payload;
mod reply;

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

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
    NamedEventRules, Profile, RunOrder, Subject, TimeoutUnit, CANONICAL_FAMILIES,
};

pub use reply::BLOCKED_SUFFIX;

/// The Windsurf / Devin Desktop dialect (see the module documentation).
#[derive(Debug)]
pub struct Windsurf;

/// The Windsurf dialect's value.
pub static WINDSURF: Windsurf = Windsurf;

/// Every event: the hooks of all files run one after another in the order
/// the files merge (system, user, workspace); exit 2 has no effect; any
/// other failure is a warning and the action proceeds.
const OBSERVER: EventRules =
    EventRules { run_order: RunOrder::Sequential, exit2: Exit2::Ignored, ..EventRules::NEUTRAL };

/// The `pre_*` events: exit 2 blocks, its reason stderr (stdout is never
/// read); the first block stops the run.
const GATE: EventRules =
    EventRules { exit2: Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: false }, ..OBSERVER };

/// The Windsurf profile.
pub static PROFILE: Profile = Profile {
    name: "windsurf",
    // Cascade documents no timeout; hookline bounds every hook.
    default_timeout: Duration::from_secs(60),
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Lenient,
    dedupe: Dedupe::None,
    dialect_fields: FieldMerge::FirstOrAppended,
    families: CANONICAL_FAMILIES,
    // Cascade runs command hooks only.
    handler_timeouts: HandlerTimeouts { prompt: Duration::from_secs(60), agent: Duration::from_secs(60), lowered: &[] },
    exec_placeholders: &[],
    events: EventTable {
        session_start: OBSERVER,
        session_end: OBSERVER,
        subagent_start: OBSERVER,
        subagent_stop: OBSERVER,
        // pre_user_prompt: exit 2 blocks the prompt.
        user_prompt_submit: GATE,
        // The pre_* gates' hooks, run in a canonical tool call.
        pre_tool_use: GATE,
        post_tool_use: OBSERVER,
        permission_request: OBSERVER,
        pre_compact: OBSERVER,
        stop: OBSERVER,
        notification: OBSERVER,
        post_tool_use_failure: OBSERVER,
    },
    named: NAMED,
    unknown_event: OBSERVER,
};

/// Cascade's events without a canonical meaning, fired by name.
pub const NAMED: &[NamedEventRules] = &[
    native("pre_read_code", EventFamily::Tool, GATE),
    native("post_read_code", EventFamily::Observe, OBSERVER),
    native("pre_write_code", EventFamily::Tool, GATE),
    native("post_write_code", EventFamily::Observe, OBSERVER),
    native("pre_run_command", EventFamily::Tool, GATE),
    native("post_run_command", EventFamily::Observe, OBSERVER),
    native("pre_mcp_tool_use", EventFamily::Tool, GATE),
    native("post_mcp_tool_use", EventFamily::Observe, OBSERVER),
    native("post_cascade_response", EventFamily::Observe, OBSERVER),
    native("post_cascade_response_with_transcript", EventFamily::Observe, OBSERVER),
    native("post_setup_worktree", EventFamily::Observe, OBSERVER),
];

/// A row of [`NAMED`]: no matcher (Cascade has none).
const fn native(name: &'static str, family: EventFamily, rules: EventRules) -> NamedEventRules {
    NamedEventRules { name, family, rules, subject: Subject::None, matcher: MatcherRule::Standard, tool_event: false }
}

/// The keys of [`NAMED`].
const NATIVE_KEYS: &[&str] = &[
    "pre_read_code",
    "post_read_code",
    "pre_write_code",
    "post_write_code",
    "pre_run_command",
    "post_run_command",
    "pre_mcp_tool_use",
    "post_mcp_tool_use",
    "post_cascade_response",
    "post_cascade_response_with_transcript",
    "post_setup_worktree",
];

/// The key of the canonical UserPromptSubmit.
pub const PRE_USER_PROMPT: &str = "pre_user_prompt";

/// Whether `key` is one of Cascade's twelve events.
pub(crate) fn is_event(key: &str) -> bool {
    key == PRE_USER_PROMPT || NATIVE_KEYS.contains(&key)
}

/// Whether a JSON config has Cascade's shape: a `hooks` object whose keys
/// are all Cascade events, and nothing else at the top level.
pub(crate) fn has_shape(v: &Value) -> bool {
    let Some(top) = v.as_object() else { return false };
    let Some(Value::Object(hooks)) = top.get("hooks") else { return false };
    top.len() == 1 && !hooks.is_empty() && hooks.keys().all(|k| is_event(k))
}

/// The kind of action a tool call is for Cascade (`run_command`,
/// `read_code`, `write_code`, `mcp_tool_use`): by Claude Code's tool name
/// (the canonical vocabulary, [`VOCABULARY`]), or the kind itself (the name
/// a hook sees once the engine has mapped the call).
pub(crate) fn tool_kind(tool_name: &str) -> Option<&'static str> {
    if let Some(kind) = TOOLS.iter().find(|k| **k == tool_name) {
        return Some(kind);
    }
    if tool_name.starts_with("mcp__") {
        return Some("mcp_tool_use");
    }
    VOCABULARY.row_of_canonical(tool_name).map(|row| row.native)
}

/// Claude Code's tool names (the canonical vocabulary) → the Cascade
/// action each is; the `pre_*`/`post_*` hooks of that action run when a
/// host fires a canonical PreToolUse/PostToolUse of the tool. MCP tools
/// keep the canonical spelling (`tool_info` splits server and tool).
/// Reading back is by the first row: `write_code` is `Write`.
pub static VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "run_command"),
        ToolName::new("Read", "read_code"),
        ToolName::new("Write", "write_code"),
        ToolName::new("Edit", "write_code"),
        ToolName::new("MultiEdit", "write_code"),
        ToolName::new("NotebookEdit", "write_code"),
    ],
    mcp: McpNames::CANONICAL,
};

/// The native events whose hooks also run in a canonical tool event.
pub(crate) const IN_TOOL_EVENTS: &[(&str, HookEvent)] = &[
    ("pre_read_code", HookEvent::PreToolUse),
    ("pre_write_code", HookEvent::PreToolUse),
    ("pre_run_command", HookEvent::PreToolUse),
    ("pre_mcp_tool_use", HookEvent::PreToolUse),
    ("post_read_code", HookEvent::PostToolUse),
    ("post_write_code", HookEvent::PostToolUse),
    ("post_run_command", HookEvent::PostToolUse),
    ("post_mcp_tool_use", HookEvent::PostToolUse),
];

/// Cascade's actions (it has no tool names of its own: hooks are per kind
/// of action).
pub const TOOLS: &[&str] = &["read_code", "write_code", "run_command", "mcp_tool_use"];

/// The variable Cascade's hooks get besides the canonical ones.
const ENV_NAMES: &[&str] = &["ROOT_WORKSPACE_PATH"];

/// The system hooks file on `os` (as `std::env::consts::OS` names it):
/// macOS `/Library/Application Support/Windsurf/hooks.json`, Windows
/// `C:\ProgramData\Windsurf\hooks.json`, Linux and others
/// `/etc/windsurf/hooks.json`.
fn system_files_of(os: &str) -> &'static [&'static str] {
    match os {
        "macos" => &["/Library/Application Support/Windsurf/hooks.json"],
        "windows" => &[r"C:\ProgramData\Windsurf\hooks.json"],
        _ => &["/etc/windsurf/hooks.json"],
    }
}

/// Cascade's name of the event of a run (`agent_action_name`).
pub(crate) fn event_name(event: &RunEvent) -> &str {
    match event {
        RunEvent::Known(HookEvent::UserPromptSubmit) => PRE_USER_PROMPT,
        RunEvent::Known(e) => e.name(),
        RunEvent::Named(name) => name,
    }
}

impl Dialect for Windsurf {
    fn name(&self) -> &'static str {
        "windsurf"
    }

    fn title(&self) -> &'static str {
        "Windsurf"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// `.windsurf/hooks.json` and `.devin/hooks.json` (a workspace's),
    /// `~/.codeium/windsurf/hooks.json` and the JetBrains plugin's
    /// `~/.codeium/hooks.json` (the user's), and the system file, a
    /// `hooks.json` in a directory named `windsurf` or `Windsurf`. Devin
    /// CLI's `.devin/hooks.v1.json` is not Cascade's.
    fn recognises_path(&self, path: &Path) -> bool {
        let (name, parent) = crate::dialect::file_and_dir_names(path);
        name == "hooks.json" && matches!(parent, ".windsurf" | ".devin" | ".codeium" | "windsurf" | "Windsurf")
    }

    fn read_json(&self, v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        config::read(v, info)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        match event {
            HookEvent::UserPromptSubmit => &[PRE_USER_PROMPT],
            _ => &[],
        }
    }

    /// Cascade has no matchers: every hook of an event runs.
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

    /// `ROOT_WORKSPACE_PATH`: the workspace root.
    fn environment(&self, _event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        add("ROOT_WORKSPACE_PATH", facts.cwd);
    }

    fn environment_names(&self) -> &'static [&'static str] {
        ENV_NAMES
    }

    /// `ROOT_WORKSPACE_PATH` (the workspace root), and a plugin source's
    /// root.
    fn placeholders(&self) -> &'static [Placeholder] {
        &[
            Placeholder { name: "ROOT_WORKSPACE_PATH", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "CLAUDE_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
        ]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        reply::read(cx, exec)
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        reply::honours(PROFILE.family_of(event))
    }

    fn describe_matcher(&self, _matcher: &Matcher, raw: Option<&str>) -> String {
        match raw {
            Some(r) => format!("matcher {r:?} is ignored: Cascade runs every hook of its event"),
            None => "no matcher: Cascade runs every hook of its event".to_owned(),
        }
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    /// Cascade's action per canonical tool ([`VOCABULARY`]).
    fn tool_vocabulary(&self) -> &'static ToolVocabulary {
        &VOCABULARY
    }

    /// Devin Desktop's current `.devin/hooks.json`, then the legacy
    /// `.windsurf/hooks.json` (both are read).
    fn workspace_files(&self) -> &'static [&'static str] {
        &[".devin/hooks.json", ".windsurf/hooks.json"]
    }

    /// `~/.codeium/windsurf/hooks.json` (the editor), then the JetBrains
    /// plugin's `~/.codeium/hooks.json`.
    fn user_files(&self, home: &Path) -> Vec<std::path::PathBuf> {
        vec![home.join(".codeium").join("windsurf").join("hooks.json"), home.join(".codeium").join("hooks.json")]
    }

    /// The system file, read first ("system → user → workspace").
    fn system_files(&self) -> &'static [&'static str] {
        system_files_of(std::env::consts::OS)
    }

    /// Cascade's entries are flat objects, not matcher groups.
    fn group_field_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        config::FIELDS
    }

    fn native_event_keys(&self) -> &'static [&'static str] {
        NATIVE_KEYS
    }

    /// Cascade reads exit codes only, not the hooks protocol's JSON.
    fn reads_hooks_protocol(&self) -> bool {
        false
    }

    /// Cascade's hooks run in `bash -c` on POSIX systems.
    fn shell(&self) -> Shell {
        Shell::Bash
    }

    /// On Windows Cascade runs an entry's `powershell` (else its
    /// `command`) "via `powershell -Command`": Windows PowerShell, else
    /// PowerShell 7 when it is the only one installed.
    fn windows_shell(&self) -> WindowsShell {
        WindowsShell::PowerShell {
            programs: &["powershell.exe", "pwsh.exe"],
            flags: &["-Command"],
            comspec_first: false,
            propagate_exit: false,
        }
    }

    /// A `pre_*`/`post_*` event's hooks run in a canonical tool call of
    /// that kind of tool (by Claude Code's tool names).
    fn native_event_applies(&self, native_event: &str, event: &RunEvent, input: &Value) -> bool {
        let Some(known) = event.known() else { return false };
        let Some((_, on)) = IN_TOOL_EVENTS.iter().find(|(n, _)| *n == native_event) else { return false };
        let tool = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
        *on == known && tool_kind(tool).is_some_and(|kind| native_event.split_once('_').is_some_and(|(_, k)| k == kind))
    }

    /// Where exit 2 blocks (`pre_*`): exit 2 with the reason on stderr.
    /// Cascade appends `: action blocked by hook` itself, so a reason that
    /// already ends with it (a Cascade hook's, read back) loses it first.
    fn blocking_answer(&self, event: &RunEvent, reason: &str) -> Option<super::BlockingAnswer> {
        let reason = reason.strip_suffix(BLOCKED_SUFFIX).unwrap_or(reason);
        super::exit2_blocking_answer(self.profile().rules_of(event).exit2, reason)
    }

    fn restrict_reply(&self, event: &RunEvent, family: EventFamily, reply: &mut HookReply) -> Map<String, Value> {
        reply::restrict(event, family, reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_workspace_user_and_system_files_are_recognised_by_path() {
        for path in [
            "/p/.windsurf/hooks.json",
            "/p/.devin/hooks.json",
            "/home/u/.codeium/windsurf/hooks.json",
            "/home/u/.codeium/hooks.json",
            "/etc/windsurf/hooks.json",
            "/Library/Application Support/Windsurf/hooks.json",
        ] {
            assert!(WINDSURF.recognises_path(Path::new(path)), "{path}");
        }
        // "`.devin/hooks.v1.json` (CC format) is not read by Desktop".
        for path in ["/p/.devin/hooks.v1.json", "/p/.cursor/hooks.json", "/p/hooks.json", "/p/.windsurf/x.json"] {
            assert!(!WINDSURF.recognises_path(Path::new(path)), "{path}");
        }
    }

    /// "system macOS `/Library/Application Support/Windsurf/hooks.json`,
    /// Linux/WSL `/etc/windsurf/hooks.json`, Windows
    /// `C:\ProgramData\Windsurf\hooks.json`".
    #[test]
    fn the_system_file_is_the_one_of_the_platform() {
        assert_eq!(system_files_of("macos"), ["/Library/Application Support/Windsurf/hooks.json"]);
        assert_eq!(system_files_of("linux"), ["/etc/windsurf/hooks.json"]);
        assert_eq!(system_files_of("windows"), [r"C:\ProgramData\Windsurf\hooks.json"]);
    }

    #[test]
    fn the_twelve_events_are_one_canonical_and_eleven_named() {
        assert_eq!(NAMED.len(), 11);
        assert_eq!(NAMED.iter().map(|n| n.name).collect::<Vec<_>>(), NATIVE_KEYS);
        assert_eq!(WINDSURF.event_keys(HookEvent::UserPromptSubmit), ["pre_user_prompt"]);
        assert!(HookEvent::ALL
            .iter()
            .filter(|e| **e != HookEvent::UserPromptSubmit)
            .all(|e| WINDSURF.event_keys(*e).is_empty()));
        // "blockable = `pre_*`".
        for n in NAMED {
            assert_eq!(n.rules.can_block(), n.name.starts_with("pre_"), "{}", n.name);
        }
        assert!(PROFILE.rules(HookEvent::UserPromptSubmit).can_block());
    }

    #[test]
    fn gate_hooks_run_in_the_canonical_tool_call_of_their_kind() {
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        let post = RunEvent::Known(HookEvent::PostToolUse);
        let bash = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}});
        assert!(WINDSURF.native_event_applies("pre_run_command", &pre, &bash));
        assert!(!WINDSURF.native_event_applies("pre_run_command", &post, &bash));
        assert!(WINDSURF.native_event_applies("post_run_command", &post, &bash));
        assert!(!WINDSURF.native_event_applies("pre_read_code", &pre, &bash));
        assert!(WINDSURF.native_event_applies("pre_write_code", &pre, &json!({"tool_name": "Edit"})));
        assert!(WINDSURF.native_event_applies("pre_mcp_tool_use", &pre, &json!({"tool_name": "mcp__gh__issue"})));
        assert!(!WINDSURF.native_event_applies("pre_read_code", &pre, &json!({"tool_name": "Grep"})));
        for row in VOCABULARY.names {
            assert_eq!(tool_kind(row.canonical), Some(row.native));
            assert_eq!(tool_kind(row.native), Some(row.native), "a mapped call is still of its kind");
        }
        assert!(WINDSURF.native_event_applies("pre_run_command", &pre, &json!({"tool_name": "run_command"})));
    }

    #[test]
    fn the_shape_is_a_hooks_object_of_cascade_events() {
        assert!(has_shape(&json!({"hooks": {"pre_run_command": [{"command": "x"}]}})));
        assert!(!has_shape(&json!({"hooks": {"PreToolUse": []}})));
        assert!(!has_shape(&json!({"version": 1, "hooks": {"pre_run_command": []}})));
    }
}
