//! The OpenAI Codex dialect: `.codex/hooks.json` and the `[hooks]` table of
//! `.codex/config.toml`, with Codex's decisions (openai/codex
//! `codex-rs/hooks`; the rules and every deliberate deviation are in
//! `docs/dialects.md`).
//!
//! | part | module |
//! |---|---|
//! | config files, what Codex rejects and skips | `config.rs` |
//! | the payload (Codex's exact fields, no trailing newline) | `payload.rs` |
//! | one hook's result → the canonical reply | `reply.rs` (the accepted output shapes: `wire.rs`) |
//! | the rule table, events, matchers, aliases | here |
//!
//! - Event keys are PascalCase: `PreToolUse PermissionRequest PostToolUse
//!   PreCompact PostCompact SessionStart SessionEnd UserPromptSubmit
//!   SubagentStart SubagentStop Stop`. `PostCompact` has no canonical
//!   meaning: it is a named event (`hl_engine_run_named`), read with
//!   Codex's rules. Codex has no Notification or PostToolUseFailure.
//! - Matchers ([`Matcher::codex`]): absent, `""`, `"*"` match all; only
//!   `[A-Za-z0-9_|]` is an exact name list; anything else an unanchored
//!   regex. Tool events test `tool_name` and its aliases (`apply_patch` is
//!   also `Write` and `Edit`, `spawn_agent` also `Agent`); SessionStart the
//!   source; SessionEnd the literal `other`; the subagent events
//!   `agent_type`; the compaction events `trigger`. UserPromptSubmit and
//!   Stop ignore matchers.
//! - Every matching hook runs, all at once, to completion; results merge in
//!   configuration order. Identical hooks all run (no dedupe).
//! - No variables beyond hookline's own `HOOKLINE_*` (Codex sets none; no
//!   `CLAUDE_PROJECT_DIR`); a plugin source's hooks get `PLUGIN_ROOT` and
//!   `CLAUDE_PLUGIN_ROOT`.

mod config;
mod payload;
mod reply;
pub(crate) mod tools;
mod wire;

use std::path::Path;
use std::time::Duration;

use serde_json::{Map, Value};

use super::protocol::Subjects;
use super::{protocol, Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::{HooksConfig, SourceInfo};
use crate::error::Result;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::outcome::HookMessageLevel::Error as ErrorLevel;
use crate::model::reply::HookReply;
use crate::model::rules::{
    BlockFields, BlockReasons, Column, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, FieldMerge, HaltReason,
    HandlerTimeouts, InputRules, Precedence, Profile, RewriteOnDeny, RewriteWinner, TimeoutUnit, ToolInputFlow,
    CANONICAL_FAMILIES,
};

/// The Codex dialect (see the module documentation).
#[derive(Debug)]
pub struct Codex;

/// The Codex dialect's value.
pub static CODEX: Codex = Codex;

/// The Codex event without a canonical meaning (fired by name).
pub(crate) const POST_COMPACT: &str = "PostCompact";

/// Codex's event keys, as its config types list them.
pub(crate) const EVENT_KEYS: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    POST_COMPACT,
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "SubagentStart",
    "SubagentStop",
    "Stop",
];

/// How many `async` hooks Codex runs at once in a session.
pub(crate) const MAX_ASYNC_HOOKS: usize = 8;

/// What Codex's SessionEnd payload and matcher say the reason is.
pub(crate) const SESSION_END_REASON: &str = "other";

/// The timeout of a SessionEnd hook that sets none.
pub(crate) const SESSION_END_DEFAULT_TIMEOUT: Duration = Duration::from_secs(1);

/// Exit 2 with stderr is the event's blocking answer; stdout is ignored;
/// blank stderr is an error and no answer.
const BLOCK: Exit2 = Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: true };

/// Every reason of several blocking hooks, joined.
const JOINED: BlockReasons = BlockReasons::Joined("\n\n");

/// Every Codex event: failures are errors, the first `stopReason` given is
/// the outcome's, exit 2 is an ordinary failure.
const BASE: EventRules =
    EventRules { failure_level: ErrorLevel, halt_reason: HaltReason::FirstGiven, ..EventRules::NEUTRAL };

/// Stop and SubagentStop: exit 2 and `decision: "block"` continue the turn
/// with every reason; `continue: false` stops it and cancels every block.
const STOP: EventRules = EventRules {
    exit2: BLOCK,
    block_fields: BlockFields::Decision,
    block_reasons: JOINED,
    halt_clears_block: true,
    ..BASE
};

/// The Codex profile. Every event runs its hooks concurrently and fails
/// open (a timeout decides nothing).
pub static PROFILE: Profile = Profile {
    name: "codex",
    default_timeout: Duration::from_secs(600),
    inputs: InputRules::Lenient,
    dedupe: Dedupe::None,
    // Codex configures command hooks only.
    handler_timeouts: HandlerTimeouts {
        prompt: Duration::from_secs(600),
        agent: Duration::from_secs(600),
        lowered: &[],
    },
    exec_placeholders: &[],
    timeout_unit: TimeoutUnit::Seconds,
    dialect_fields: FieldMerge::FirstOrAppended,
    families: CANONICAL_FAMILIES,
    events: EventTable {
        session_start: BASE,
        session_end: BASE,
        subagent_start: BASE,
        subagent_stop: STOP,
        user_prompt_submit: EventRules { exit2: BLOCK, ..BASE },
        // Any deny blocks (the first reason in configuration order); every
        // hook reads the original input; the rewrite of the hook that
        // finished last wins; a deny drops every rewrite.
        pre_tool_use: EventRules {
            exit2: BLOCK,
            precedence: Precedence::MostRestrictive,
            tool_input: ToolInputFlow::Original,
            rewrite_on_deny: RewriteOnDeny::Dropped,
            rewrite_winner: RewriteWinner::LastFinished,
            ..BASE
        },
        post_tool_use: EventRules { exit2: BLOCK, block_reasons: JOINED, ..BASE },
        // Any deny wins, else any allow.
        permission_request: EventRules { exit2: BLOCK, precedence: Precedence::MostRestrictive, ..BASE },
        // `continue: false` aborts the compaction; nothing else decides.
        pre_compact: BASE,
        stop: STOP,
        // Codex has no such events (nothing is configured for them).
        notification: BASE,
        post_tool_use_failure: BASE,
    },
    // PostCompact is fired by name with the rules of unknown events.
    named: &[],
    unknown_event: BASE,
};

/// The subjects of the events Codex's matchers share with the hooks
/// protocol (Notification, PostToolUseFailure).
const SUBJECTS: Subjects = Subjects { prompt_and_stop: false, subagent: "agent_type" };

/// The tool names Codex's hooks see (and the aliases a matcher may use).
pub const TOOLS: &[&str] = &[
    "Bash",
    "apply_patch",
    "Write",
    "Edit",
    "spawn_agent",
    "Agent",
    "update_plan",
    "view_image",
    "web_search",
    "request_user_input",
];

const APPLY_PATCH_ALIASES: &[&str] = &["Write", "Edit"];
const SPAWN_AGENT_ALIASES: &[&str] = &["Agent"];

/// The PascalCase key of each event (none for the two Codex lacks).
static KEYS: EventTable<&[&str]> = EventTable {
    session_start: &["SessionStart"],
    session_end: &["SessionEnd"],
    subagent_start: &["SubagentStart"],
    subagent_stop: &["SubagentStop"],
    user_prompt_submit: &["UserPromptSubmit"],
    pre_tool_use: &["PreToolUse"],
    post_tool_use: &["PostToolUse"],
    permission_request: &["PermissionRequest"],
    pre_compact: &["PreCompact"],
    stop: &["Stop"],
    notification: &[],
    post_tool_use_failure: &[],
};

/// Codex's system layer folder on `os` (as `std::env::consts::OS` names
/// it): `/etc/codex`, on Windows `C:\ProgramData\OpenAI\Codex` (where
/// Codex reads its system `requirements.toml` and `config.toml` there).
pub fn system_dir(os: &str) -> &'static str {
    match os {
        "windows" => r"C:\ProgramData\OpenAI\Codex",
        _ => "/etc/codex",
    }
}

/// The system layer's files on `os`: `hooks.json`, then `config.toml`, in
/// [`system_dir`].
pub fn system_layer_files(os: &str) -> &'static [&'static str] {
    match os {
        "windows" => &[r"C:\ProgramData\OpenAI\Codex\hooks.json", r"C:\ProgramData\OpenAI\Codex\config.toml"],
        _ => &["/etc/codex/hooks.json", "/etc/codex/config.toml"],
    }
}

/// Whether `path` is a `hooks.json` or `config.toml` of a Codex layer
/// folder: a `.codex` directory, `codex_home` (`$CODEX_HOME`), or the
/// system folder ([`system_dir`]; on Windows compared without regard to
/// case, as its file system does).
fn is_layer_file(path: &Path, codex_home: Option<&std::ffi::OsStr>) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name != "hooks.json" && name != "config.toml" {
        return false;
    }
    let Some(dir) = path.parent() else {
        return false;
    };
    dir.file_name().is_some_and(|n| n == ".codex")
        || dir == Path::new("/etc/codex")
        || dir.to_string_lossy().eq_ignore_ascii_case(system_dir("windows"))
        || codex_home.filter(|h| !h.is_empty()).is_some_and(|h| dir == Path::new(h))
}

fn field<'a>(input: &'a Value, name: &str) -> Option<&'a str> {
    input.get(name).and_then(Value::as_str)
}

impl Dialect for Codex {
    fn name(&self) -> &'static str {
        "codex"
    }

    /// Codex on Windows runs a hook as `%ComSpec% /C <command>`
    /// (`command_runner.rs`, `default_shell_command`; a hook's
    /// `commandWindows`/`command_windows` replaces its command there, read
    /// in `config.rs`). Codex hands the command to cmd.exe as a quoted
    /// argument, which cmd.exe does not unquote the way programs do;
    /// hookline passes it verbatim, so a command with `"` runs as written.
    fn windows_shell(&self) -> crate::config::windows_shell::WindowsShell {
        crate::config::windows_shell::WindowsShell::Cmd { flags: &["/C"] }
    }

    fn title(&self) -> &'static str {
        "Codex"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// `hooks.json` and `config.toml` in a Codex layer's folder: a `.codex`
    /// directory (a project's, or `~/.codex`), `$CODEX_HOME`, or the system
    /// layer's `/etc/codex`.
    fn recognises_path(&self, path: &Path) -> bool {
        is_layer_file(path, std::env::var_os("CODEX_HOME").as_deref())
    }

    fn read_json(&self, value: &Value, source: &SourceInfo) -> Result<HooksConfig> {
        config::read_hooks_json(value, source)
    }

    fn read_toml(&self, text: &str, source: &SourceInfo) -> Result<HooksConfig> {
        config::read_config_toml(text, source)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        KEYS.get(event)
    }

    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, trigger: &'a str) -> Option<&'a str> {
        let Some(event) = event.known() else {
            return match event.name() {
                POST_COMPACT => Some(field(input, "trigger").unwrap_or("")),
                _ => field(input, "matcher_value"),
            };
        };
        match event {
            HookEvent::SessionStart => Some(if trigger == "new_session" { "clear" } else { trigger }),
            HookEvent::SessionEnd => Some(SESSION_END_REASON),
            HookEvent::SubagentStart | HookEvent::SubagentStop => {
                Some(field(input, "agent_type").or_else(|| field(input, "agent_name")).unwrap_or(""))
            }
            HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PermissionRequest => {
                Some(field(input, "tool_name").unwrap_or(""))
            }
            HookEvent::PreCompact => Some(field(input, "trigger").unwrap_or("")),
            HookEvent::UserPromptSubmit | HookEvent::Stop => None,
            HookEvent::Notification | HookEvent::PostToolUseFailure => {
                protocol::match_subject(&RunEvent::Known(event), input, trigger, SUBJECTS, &PROFILE)
            }
        }
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        let Some(event) = event.known() else {
            return Some(if event.name() == POST_COMPACT { "trigger" } else { "matcher_value" });
        };
        match event {
            HookEvent::SessionStart => Some("the session trigger (source; new_session is clear)"),
            HookEvent::SessionEnd => Some("the literal \"other\" (Codex's only SessionEnd reason)"),
            HookEvent::SubagentStart | HookEvent::SubagentStop => Some("agent_type (else agent_name)"),
            HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PermissionRequest => {
                Some("tool_name and its aliases")
            }
            HookEvent::PreCompact => Some("trigger"),
            HookEvent::UserPromptSubmit | HookEvent::Stop => None,
            HookEvent::Notification | HookEvent::PostToolUseFailure => {
                protocol::match_subject_field(&RunEvent::Known(event), SUBJECTS, &PROFILE)
            }
        }
    }

    /// `apply_patch` is also `Write` and `Edit`; `spawn_agent` also
    /// `Agent` (the payload keeps the real name).
    fn match_aliases(&self, event: &RunEvent, subject: &str) -> &'static [&'static str] {
        if !event.is_tool_event() {
            return &[];
        }
        match subject {
            "apply_patch" => APPLY_PATCH_ALIASES,
            "spawn_agent" => SPAWN_AGENT_ALIASES,
            _ => &[],
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

    /// Codex gives its hooks no variables of its own.
    fn environment(&self, _event: &RunEvent, _facts: &SessionFacts<'_>, _add: &mut dyn FnMut(&'static str, &str)) {}

    fn environment_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        reply::read(cx, exec)
    }

    fn honours(&self, _event: &RunEvent) -> &'static [Column] {
        reply::HONOURS
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

    /// A project's Codex layer: its `hooks.json`, then its `config.toml`
    /// (Codex reads both, in that order).
    fn workspace_files(&self) -> &'static [&'static str] {
        &[".codex/hooks.json", ".codex/config.toml"]
    }

    /// The system layer, the lowest: `/etc/codex/hooks.json`, then
    /// `/etc/codex/config.toml` (on Windows in
    /// `C:\ProgramData\OpenAI\Codex`: [`system_layer_files`]).
    fn system_files(&self) -> &'static [&'static str] {
        system_layer_files(std::env::consts::OS)
    }

    /// The user layer: `hooks.json`, then `config.toml`, in `$CODEX_HOME`
    /// (default `~/.codex`).
    fn user_files(&self, home: &Path) -> Vec<std::path::PathBuf> {
        let dir = match std::env::var_os("CODEX_HOME").filter(|d| !d.is_empty()) {
            Some(d) => std::path::PathBuf::from(d),
            None => home.join(".codex"),
        };
        vec![dir.join("hooks.json"), dir.join("config.toml")]
    }

    /// A plugin's default `hooks/hooks.json`: its root is the directory
    /// above `hooks/`.
    fn plugin_root_of(&self, path: &Path) -> Option<std::path::PathBuf> {
        super::plugin_hooks_json_root(path)
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        &["matcher", "hooks"]
    }

    /// A command handler's fields (the other handler types are skipped
    /// whole).
    fn hook_field_names(&self) -> &'static [&'static str] {
        &[
            "type",
            "command",
            "commandWindows",
            "command_windows",
            "timeout",
            "async",
            "statusMessage",
            "additionalContextLimit",
        ]
    }

    fn payload_ends_with_newline(&self) -> bool {
        false
    }

    fn plugin_root_variables(&self) -> &'static [&'static str] {
        &["PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT"]
    }

    fn placeholders(&self) -> &'static [Placeholder] {
        &[
            Placeholder { name: "PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
            Placeholder { name: "CLAUDE_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
        ]
    }

    fn native_event_keys(&self) -> &'static [&'static str] {
        &[POST_COMPACT]
    }

    /// Codex skips a `hooks.json` (or a layer's `[hooks]`) it cannot parse,
    /// warns, and keeps loading its other layers.
    fn skips_invalid_source(&self) -> bool {
        true
    }

    /// The user's shell (`$SHELL -c` for bash, zsh or sh), as Codex runs
    /// hooks in the session's shell; else `/bin/sh -c`.
    fn shell(&self) -> crate::config::Shell {
        crate::config::Shell::User
    }

    /// At most 8 `async` hooks run at once per session.
    fn max_async_hooks(&self) -> Option<usize> {
        Some(MAX_ASYNC_HOOKS)
    }

    /// Codex never stops for a hooks problem: a file it cannot parse is a
    /// startup warning, even when it is the only one.
    fn skips_an_invalid_config_alone(&self) -> bool {
        true
    }

    /// Codex reads a folder's `hooks.json` once even when two layers share
    /// the folder (the user layer and a profile's).
    fn loads_a_file_once(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_keys_are_pascal_case_and_codex_has_no_notification() {
        assert_eq!(CODEX.event_keys(HookEvent::PreToolUse), ["PreToolUse"]);
        assert!(CODEX.event_keys(HookEvent::Notification).is_empty());
        assert!(CODEX.event_keys(HookEvent::PostToolUseFailure).is_empty());
        let mapped = HookEvent::ALL.iter().flat_map(|e| CODEX.event_keys(*e)).count();
        assert_eq!(mapped + CODEX.native_event_keys().len(), EVENT_KEYS.len());
    }

    #[test]
    fn codex_runs_every_event_concurrently_without_dedupe() {
        for event in HookEvent::ALL {
            assert_eq!(PROFILE.rules(event).run_order, crate::model::rules::RunOrder::Concurrent, "{event}");
        }
        assert_eq!(PROFILE.dedupe, Dedupe::None);
        assert_eq!(PROFILE.default_timeout, Duration::from_secs(600));
    }

    #[test]
    fn codex_files_are_recognised_by_path() {
        assert!(CODEX.recognises_path(Path::new("/w/.codex/hooks.json")));
        assert!(CODEX.recognises_path(Path::new("/home/u/.codex/config.toml")));
        assert!(!CODEX.recognises_path(Path::new("/w/.claude/settings.json")));
        assert!(!CODEX.recognises_path(Path::new("/w/hooks.json")));
        assert!(!CODEX.recognises_path(Path::new("/w/.codex/other.json")));
    }

    /// "system `/etc/codex/config.toml` → … → user `$CODEX_HOME/config.toml`"
    /// and "For **each layer**: first `hooks.json` in the layer's folder":
    /// the system layer's folder and `$CODEX_HOME` are Codex layers too.
    #[test]
    fn the_system_folder_and_codex_home_are_codex_layers() {
        let home = std::ffi::OsStr::new("/home/u/codex-home");
        assert!(is_layer_file(Path::new("/etc/codex/hooks.json"), None));
        assert!(is_layer_file(Path::new("/etc/codex/config.toml"), None));
        assert!(!is_layer_file(Path::new("/etc/codex/other.toml"), None));
        assert!(is_layer_file(Path::new("/home/u/codex-home/hooks.json"), Some(home)));
        assert!(is_layer_file(Path::new("/home/u/codex-home/config.toml"), Some(home)));
        assert!(!is_layer_file(Path::new("/home/u/codex-home/hooks.json"), None));
        assert!(!is_layer_file(Path::new("/home/u/other/hooks.json"), Some(home)));
        assert!(!is_layer_file(Path::new("/w/hooks.json"), Some(std::ffi::OsStr::new(""))));
    }

    /// Codex's system folder on Windows is `%ProgramData%\OpenAI\Codex`
    /// ("Windows: `C:\ProgramData\OpenAI\Codex\requirements.toml`", codex-rs
    /// config loader); the system layer's `hooks.json` and `config.toml` are there.
    #[test]
    fn the_system_layer_is_under_programdata_on_windows() {
        assert_eq!(
            system_layer_files("windows"),
            [r"C:\ProgramData\OpenAI\Codex\hooks.json", r"C:\ProgramData\OpenAI\Codex\config.toml"]
        );
        assert_eq!(system_layer_files("linux"), ["/etc/codex/hooks.json", "/etc/codex/config.toml"]);
        assert_eq!(system_layer_files("macos"), system_layer_files("linux"));
        if cfg!(windows) {
            assert!(is_layer_file(Path::new(r"C:\ProgramData\OpenAI\Codex\hooks.json"), None));
            assert!(is_layer_file(Path::new(r"c:\programdata\openai\codex\config.toml"), None));
            assert!(!is_layer_file(Path::new(r"C:\ProgramData\OpenAI\Codex\other.toml"), None));
        }
    }

    /// Codex `hook_names.rs`: "`Write` and `Edit` are accepted as matcher
    /// aliases" of `apply_patch`, `Agent` of `spawn_agent`.
    #[test]
    fn apply_patch_is_also_write_and_edit() {
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        assert_eq!(CODEX.match_aliases(&pre, "apply_patch"), ["Write", "Edit"]);
        assert_eq!(CODEX.match_aliases(&pre, "spawn_agent"), ["Agent"]);
        assert!(CODEX.match_aliases(&pre, "Bash").is_empty());
        assert!(CODEX.match_aliases(&RunEvent::Known(HookEvent::Stop), "apply_patch").is_empty());
    }
}
