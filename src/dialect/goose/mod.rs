//! The goose dialect: the plugin hooks of goose (Block's agent), which
//! follow the Open Plugins hooks specification (open-plugins.com, v1.0.0):
//! a plugin's `hooks/hooks.json` of the shape `{"hooks": {"<Event>":
//! [{"matcher"?, "hooks": [{"type": "command", "command", "timeout"?,
//! "on_failure"?}]}]}}`, read and run the way goose's plugin hook engine
//! does (its `hooks` module). `docs/dialects.md` has the rule table and
//! every deviation.
//!
//! | part | file |
//! |---|---|
//! | a plugin's `hooks.json`: what rejects the file, what is skipped and reported, `on_failure`, `timeout` | `config.rs` |
//! | which plugins goose runs: its plugin settings (`enabledPlugins`, `disabledPlugins`), a project plugin replacing a user's | `plugins.rs` |
//! | goose's own payload (`event`, `matcher_context`, `tool_call_id`, `message`, ...) | `payload.rs` |
//! | one hook's result → the canonical reply: goose's strict decision table, banners | `reply.rs` |
//! | events, rule table, files, environment, `${PLUGIN_ROOT}`, tool names | here |
//!
//! Events: PreToolUse, PostToolUse, PostToolUseFailure, SessionStart,
//! SessionEnd, UserPromptSubmit and Stop are the canonical ones;
//! PreToolUseResult, BeforeReadFile, AfterFileEdit, BeforeShellExecution
//! and AfterShellExecution are fired by name ([`NAMED`]). Only PreToolUse
//! and Stop read a decision (goose's `emit_blocking`); every other event
//! only runs its hooks (`emit`). No event takes context from a hook.
//!
//! A matcher is a regular expression searched for in the event's
//! `matcher_context` (the tool name, the prompt, a file path, a shell
//! command; the empty string where the event has none). Hooks run one
//! after another in `sh -c`, in the order of the plugins and of their
//! rules; the first deny stops the rest.

mod config;
mod payload;
mod plugins;
mod reply;

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

use super::tools::{McpNames, ToolName, ToolVocabulary};
use super::{Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::windows_shell::WindowsShell;
use crate::config::{HookSpec, HooksConfig, SourceInfo};
use crate::error::Result;
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{
    Column, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, FieldMerge, HandlerTimeouts, InputRules, MatcherRule,
    NamedEventRules, Precedence, Profile, RunOrder, Subject, TimeoutUnit, CANONICAL_FAMILIES,
};
use crate::runner::Environment;

/// The goose dialect (see the module documentation).
#[derive(Debug)]
pub struct Goose;

/// The goose dialect's value.
pub static GOOSE: Goose = Goose;

/// goose's default per-hook timeout: "Default per-hook timeout when the
/// plugin does not specify one. `DEFAULT_HOOK_TIMEOUT_SECS: u64 = 30`".
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// An event goose only emits (`HookManager::emit`): every matching hook
/// runs, one after another; a failing one is logged and ignored.
const EMIT: EventRules = EventRules { run_order: RunOrder::Sequential, ..EventRules::NEUTRAL };

/// An event goose emits blocking (`emit_blocking`: PreToolUse, Stop): the
/// hooks run one after another and the first deny stops the chain; exit 2
/// denies with stderr as the reason.
const BLOCKING: EventRules = EventRules {
    precedence: Precedence::FirstDenyStops,
    exit2: Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: false },
    ..EMIT
};

/// Stop: blocking, and a block asks the agent to go on (goose's
/// `StopHookOperation`, bounded by its block cap: the engine's
/// `stop_hook_block_cap`).
const STOP: EventRules = EventRules { precedence: Precedence::FirstAllowOrDeny, block_cap: true, ..BLOCKING };

/// The goose profile.
pub static PROFILE: Profile = Profile {
    name: "goose",
    default_timeout: DEFAULT_TIMEOUT,
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Lenient,
    dedupe: Dedupe::None,
    dialect_fields: FieldMerge::FirstOrAppended,
    families: CANONICAL_FAMILIES,
    // goose runs `command` actions only.
    handler_timeouts: HandlerTimeouts { prompt: DEFAULT_TIMEOUT, agent: DEFAULT_TIMEOUT, lowered: &[] },
    exec_placeholders: &[],
    events: EventTable {
        session_start: EMIT,
        session_end: EMIT,
        subagent_start: EMIT,
        subagent_stop: EMIT,
        user_prompt_submit: EMIT,
        pre_tool_use: BLOCKING,
        post_tool_use: EMIT,
        permission_request: EMIT,
        pre_compact: EMIT,
        stop: STOP,
        notification: EMIT,
        post_tool_use_failure: EMIT,
    },
    named: NAMED,
    unknown_event: EMIT,
};

/// goose's events without a canonical meaning, fired by name; each only
/// emitted. PreToolUseResult reports the PreToolUse chain's outcome
/// (`decision`, `policy_evaluated`, `blocked_by`, `reason`, `cause`); the
/// extended events follow a tool call of their kind (goose's
/// `categorize_tool`: a shell, read or write tool).
pub const NAMED: &[NamedEventRules] = &[
    native("PreToolUseResult", Subject::Field("tool_name"), true),
    native("BeforeReadFile", Subject::None, true),
    native("AfterFileEdit", Subject::None, true),
    native("BeforeShellExecution", Subject::None, true),
    native("AfterShellExecution", Subject::None, true),
];

/// A row of [`NAMED`]: an observer. (The extended events' subject, a
/// string argument of the tool input, is computed by
/// [`Goose::match_subject`].)
const fn native(name: &'static str, subject: Subject, tool_event: bool) -> NamedEventRules {
    NamedEventRules {
        name,
        family: EventFamily::Observe,
        rules: EMIT,
        subject,
        matcher: MatcherRule::Standard,
        tool_event,
    }
}

/// The keys of [`NAMED`].
const NATIVE_KEYS: &[&str] =
    &["PreToolUseResult", "BeforeReadFile", "AfterFileEdit", "BeforeShellExecution", "AfterShellExecution"];

/// Every event goose knows (its `HookEvent::from_name`).
pub(crate) const EVENTS: &[&str] = &[
    "PreToolUse",
    "PreToolUseResult",
    "PostToolUse",
    "PostToolUseFailure",
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "BeforeReadFile",
    "AfterFileEdit",
    "BeforeShellExecution",
    "AfterShellExecution",
    "Stop",
];

/// The canonical event of a goose event key, if it has one.
pub(crate) fn canonical_event(key: &str) -> Option<HookEvent> {
    Some(match key {
        "PreToolUse" => HookEvent::PreToolUse,
        "PostToolUse" => HookEvent::PostToolUse,
        "PostToolUseFailure" => HookEvent::PostToolUseFailure,
        "SessionStart" => HookEvent::SessionStart,
        "SessionEnd" => HookEvent::SessionEnd,
        "UserPromptSubmit" => HookEvent::UserPromptSubmit,
        "Stop" => HookEvent::Stop,
        _ => return None,
    })
}

/// goose's name of the event of a run (the payload's `event`).
pub(crate) fn event_name(event: &RunEvent) -> &str {
    match event {
        RunEvent::Known(e) => e.name(),
        RunEvent::Named(name) => name,
    }
}

/// The extended events whose hooks also run in a canonical tool event:
/// goose emits `BeforeShellExecution` and `BeforeReadFile` once PreToolUse
/// allowed a call of a shell or read tool, `AfterShellExecution` and
/// `AfterFileEdit` after a PostToolUse of a shell or write tool (not after
/// PostToolUseFailure).
pub(crate) const IN_TOOL_EVENTS: &[(&str, HookEvent)] = &[
    ("BeforeShellExecution", HookEvent::PreToolUse),
    ("BeforeReadFile", HookEvent::PreToolUse),
    ("AfterShellExecution", HookEvent::PostToolUse),
    ("AfterFileEdit", HookEvent::PostToolUse),
];

/// goose's `categorize_tool`: the kind of a tool by the last `__` part of
/// its (goose) name: `shell`, `read` or `write`, `None` for the others.
fn tool_category(tool_name: &str) -> Option<&'static str> {
    match tool_name.rsplit("__").next().unwrap_or(tool_name) {
        "shell" | "bash" | "exec" | "run" => Some("shell"),
        "read" | "view" | "cat" | "read_file" => Some("read"),
        "write" | "edit" | "patch" | "write_file" | "edit_file" => Some("write"),
        _ => None,
    }
}

/// The tool category an extended event follows.
fn category_of(event: &str) -> Option<&'static str> {
    match event {
        "BeforeShellExecution" | "AfterShellExecution" => Some("shell"),
        "BeforeReadFile" => Some("read"),
        "AfterFileEdit" => Some("write"),
        _ => None,
    }
}

/// The tool-input keys goose reads an extended event's `matcher_context`
/// from: the command of a shell tool, the path of a file tool
/// (`string_argument(input, &["command"])`, `&["path", "file",
/// "file_path"]`).
fn extended_keys(event: &str) -> Option<&'static [&'static str]> {
    match event {
        "BeforeShellExecution" | "AfterShellExecution" => Some(&["command"]),
        "BeforeReadFile" | "AfterFileEdit" => Some(&["path", "file", "file_path"]),
        _ => None,
    }
}

/// The first of `keys` whose value in `tool_input` is a non-empty string
/// (goose's `string_argument`).
pub(crate) fn string_argument<'a>(tool_input: Option<&'a Value>, keys: &[&str]) -> Option<&'a str> {
    let args = tool_input?.as_object()?;
    keys.iter().find_map(|k| args.get(*k).and_then(Value::as_str).filter(|s| !s.is_empty()))
}

/// What `event`'s matchers are tested against for `input`: goose's
/// `matcher_context`, `None` where it has none (the payload's `null`; a
/// matcher is then tested against `""`).
pub(crate) fn matcher_context<'a>(event: &RunEvent, input: &'a Value) -> Option<&'a str> {
    let text = |key: &str| input.get(key).and_then(Value::as_str);
    match event {
        RunEvent::Known(HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PostToolUseFailure) => {
            text("tool_name")
        }
        RunEvent::Known(HookEvent::UserPromptSubmit) => text("prompt"),
        RunEvent::Known(_) => None,
        RunEvent::Named(name) => match extended_keys(name) {
            Some(keys) => text("matcher_value").or_else(|| string_argument(input.get("tool_input"), keys)),
            None if &**name == "PreToolUseResult" => text("tool_name"),
            None => text("matcher_value"),
        },
    }
}

/// goose's developer tools (`developer__<tool>`: an extension's tools are
/// named `<extension>__<tool>`), and the names its `categorize_tool`
/// sorts into shell, read and write tools by their last part.
pub const TOOLS: &[&str] = &["developer__shell", "developer__write", "developer__edit", "developer__tree"];

/// Claude Code's tool names (the canonical vocabulary) → goose's developer
/// extension (`shell {command}`, `write {path, content}`, `edit {path,
/// before, after}`, `tree {path}`); MCP tools `mcp__<server>__<tool>` →
/// `<server>__<tool>` (goose names an extension's tools so).
pub static VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "developer__shell"),
        ToolName::new("Write", "developer__write").fields(&[("file_path", "path")]),
        ToolName::new("Edit", "developer__edit").fields(&[
            ("file_path", "path"),
            ("old_string", "before"),
            ("new_string", "after"),
        ]),
        ToolName::new("LS", "developer__tree"),
    ],
    mcp: McpNames { prefix: "", separator: Some("__") },
};

/// The variable goose gives a hook its plugin's root in (and substitutes
/// for `${PLUGIN_ROOT}` in the command).
pub const PLUGIN_ROOT: &str = "PLUGIN_ROOT";

/// The text `${PLUGIN_ROOT}` goose replaces in a command.
const PLUGIN_ROOT_TEXT: &str = "${PLUGIN_ROOT}";

/// The user's plugins folder: `$GOOSE_PATH_ROOT/.agents/plugins` when
/// `GOOSE_PATH_ROOT` is an absolute path, else `~/.agents/plugins`.
fn user_plugins_dir(home: &Path, path_root: Option<std::ffi::OsString>) -> PathBuf {
    let base = path_root.map(PathBuf::from).filter(|p| p.is_absolute()).unwrap_or_else(|| home.to_owned());
    base.join(".agents").join("plugins")
}

/// The `hooks/hooks.json` of each plugin folder in `dir`, in name order.
fn plugin_hooks_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut plugins: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
    plugins.sort();
    plugins.into_iter().map(|p| p.join("hooks").join("hooks.json")).filter(|p| p.is_file()).collect()
}

impl Dialect for Goose {
    fn name(&self) -> &'static str {
        "goose"
    }

    fn title(&self) -> &'static str {
        "goose"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// A plugin's `hooks/hooks.json` in a `.agents/plugins/<plugin>/`
    /// folder (a project's or the user's).
    fn recognises_path(&self, path: &Path) -> bool {
        let names: Vec<&str> = path.components().rev().take(5).map(|c| c.as_os_str().to_str().unwrap_or("")).collect();
        matches!(names.as_slice(), ["hooks.json", "hooks", plugin, "plugins", ".agents"] if !plugin.is_empty())
    }

    fn read_json(&self, v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        config::read(v, info)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        match event {
            HookEvent::PreToolUse => &["PreToolUse"],
            HookEvent::PostToolUse => &["PostToolUse"],
            HookEvent::PostToolUseFailure => &["PostToolUseFailure"],
            HookEvent::SessionStart => &["SessionStart"],
            HookEvent::SessionEnd => &["SessionEnd"],
            HookEvent::UserPromptSubmit => &["UserPromptSubmit"],
            HookEvent::Stop => &["Stop"],
            _ => &[],
        }
    }

    /// goose's `matcher_context`, or `""` where the event has none: "let
    /// target = ctx.matcher_context.as_deref().unwrap_or(\"\")" — a
    /// matcher is never ignored.
    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, _trigger: &'a str) -> Option<&'a str> {
        Some(matcher_context(event, input).unwrap_or(""))
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        Some(match event {
            RunEvent::Known(HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PostToolUseFailure) => {
                "the goose tool name (tool_name)"
            }
            RunEvent::Known(HookEvent::UserPromptSubmit) => "the prompt text (prompt)",
            RunEvent::Known(_) => "the empty string (goose has no matcher_context here)",
            RunEvent::Named(name) if &**name == "PreToolUseResult" => "the goose tool name (tool_name)",
            RunEvent::Named(name) if name.ends_with("ShellExecution") => "the shell command (tool_input.command)",
            RunEvent::Named(name) if extended_keys(name).is_some() => "the file path (tool_input.path)",
            RunEvent::Named(_) => "the input's matcher_value",
        })
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

    /// goose gives a hook `PLUGIN_ROOT` (set by the engine from the
    /// source's plugin root) and nothing else.
    fn environment(&self, _event: &RunEvent, _facts: &SessionFacts<'_>, _add: &mut dyn FnMut(&'static str, &str)) {}

    fn environment_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// `PLUGIN_ROOT` (`${PLUGIN_ROOT}` in a command is the plugin's root).
    fn placeholders(&self) -> &'static [Placeholder] {
        &[Placeholder { name: PLUGIN_ROOT, value: PlaceholderValue::PluginRoot }]
    }

    fn plugin_root_variables(&self) -> &'static [&'static str] {
        &[PLUGIN_ROOT]
    }

    /// The folder above `hooks/` of a plugin's `hooks/hooks.json`.
    fn plugin_root_of(&self, path: &Path) -> Option<PathBuf> {
        super::plugin_hooks_json_root(path)
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

    /// Every project plugin's `.agents/plugins/<plugin>/hooks/hooks.json`,
    /// in plugin name order.
    fn workspace_files(&self) -> &'static [&'static str] {
        &[".agents/plugins/*/hooks/hooks.json"]
    }

    /// Every user plugin's `hooks/hooks.json` under `~/.agents/plugins`
    /// (or `$GOOSE_PATH_ROOT/.agents/plugins`), in plugin name order.
    fn user_files(&self, home: &Path) -> Vec<PathBuf> {
        plugin_hooks_files(&user_plugins_dir(home, std::env::var_os("GOOSE_PATH_ROOT")))
    }

    /// A plugin goose's settings disable is not read, nor a user's plugin
    /// that a project plugin of the same name replaces.
    fn admits_found_file(&self, workspace: &Path, home: Option<&Path>, path: &Path) -> bool {
        plugins::admits(workspace, home, path)
    }

    /// goose ranks project plugins before the user's.
    fn user_files_come_last(&self) -> bool {
        true
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        config::GROUP_FIELDS
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        config::HOOK_FIELDS
    }

    fn native_event_keys(&self) -> &'static [&'static str] {
        NATIVE_KEYS
    }

    /// goose writes the payload as compact JSON without a newline.
    fn payload_ends_with_newline(&self) -> bool {
        false
    }

    /// goose reads its own decision table, not the hooks protocol's.
    fn reads_hooks_protocol(&self) -> bool {
        false
    }

    /// A plugin whose `hooks.json` goose cannot load is skipped ("Failed
    /// to load plugin hooks; skipping"); the other plugins load.
    fn skips_invalid_source(&self) -> bool {
        true
    }

    /// goose runs `sh -c` on Windows too (the `sh` of Git for Windows):
    /// hookline looks for Git Bash, and passes `PLUGIN_ROOT` with `/` for
    /// `\` (the shell would eat the backslashes).
    fn windows_shell(&self) -> WindowsShell {
        WindowsShell::GitBash { path_variable: None, flags: &["-c"], slash_variables: &[PLUGIN_ROOT], fallback: None }
    }

    /// goose's hooks only deny a tool call or block a stop: what else a
    /// callback hook answers in a goose run is dropped and said.
    fn restrict_reply(&self, event: &RunEvent, family: EventFamily, reply: &mut HookReply) -> Map<String, Value> {
        reply::restrict(event, family, reply)
    }

    /// An extended event's hooks run in a tool call of its category (goose's
    /// `categorize_tool` of goose's tool name) that has the argument its
    /// `matcher_context` is read from ("if let Some(matcher) = matcher").
    fn native_event_applies(&self, native_event: &str, event: &RunEvent, input: &Value) -> bool {
        let Some((_, on)) = IN_TOOL_EVENTS.iter().find(|(n, _)| *n == native_event) else { return false };
        if event.known() != Some(*on) {
            return false;
        }
        let tool = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
        let native = VOCABULARY.native_name(tool);
        let keys = extended_keys(native_event).unwrap_or(&[]);
        tool_category(&native) == category_of(native_event) && string_argument(input.get("tool_input"), keys).is_some()
    }

    /// goose replaces `${PLUGIN_ROOT}` in the command with the plugin's
    /// root before `sh -c` reads it (`command.replace("${PLUGIN_ROOT}",
    /// …)`), verbatim, not quoted (with `/` for `\` on Windows).
    fn command_line<'a>(&self, hook: &'a HookSpec, _facts: &SessionFacts<'_>, _env: &Environment) -> Cow<'a, str> {
        let line = hook.command_text().unwrap_or_default();
        match hook.plugin_root() {
            Some(root) if line.contains(PLUGIN_ROOT_TEXT) => {
                let root = if cfg!(windows) { root.replace('\\', "/") } else { root.to_owned() };
                Cow::Owned(line.replace(PLUGIN_ROOT_TEXT, &root))
            }
            _ => Cow::Borrowed(line),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_plugins_hooks_json_under_agents_plugins_is_recognised() {
        for path in ["/p/.agents/plugins/guard/hooks/hooks.json", "/home/u/.agents/plugins/fmt/hooks/hooks.json"] {
            assert!(GOOSE.recognises_path(Path::new(path)), "{path}");
        }
        for path in [
            "/p/hooks/hooks.json",
            "/p/.agents/plugins/hooks/hooks.json",
            "/p/.agents/hooks/hooks.json",
            "/p/.agents/plugins/guard/hooks/other.json",
            "/p/.claude/settings.json",
        ] {
            assert!(!GOOSE.recognises_path(Path::new(path)), "{path}");
        }
        assert_eq!(
            GOOSE.plugin_root_of(Path::new("/p/.agents/plugins/guard/hooks/hooks.json")),
            Some(PathBuf::from("/p/.agents/plugins/guard"))
        );
    }

    /// goose's `Paths`: "DirType::Plugins => base.join(\".agents\").join(\"plugins\")"
    /// under `GOOSE_PATH_ROOT` (an absolute path only), else the home
    /// directory.
    #[test]
    fn the_users_plugins_are_under_goose_path_root_or_home() {
        // Absolute paths of this system (`C:\…` on Windows).
        let home = std::env::current_dir().unwrap().join("home");
        let root = std::env::current_dir().unwrap().join("r");
        assert_eq!(user_plugins_dir(&home, None), home.join(".agents").join("plugins"));
        assert_eq!(user_plugins_dir(&home, Some(root.clone().into())), root.join(".agents").join("plugins"));
        assert_eq!(user_plugins_dir(&home, Some("relative".into())), home.join(".agents").join("plugins"));
    }

    #[test]
    fn events_are_canonical_or_named_and_only_two_decide() {
        for key in EVENTS {
            let canonical = canonical_event(key).is_some();
            assert_ne!(canonical, NATIVE_KEYS.contains(key), "{key}");
        }
        assert!(PROFILE.rules(HookEvent::PreToolUse).can_block());
        assert!(PROFILE.rules(HookEvent::Stop).can_block());
        for e in [HookEvent::UserPromptSubmit, HookEvent::PostToolUse, HookEvent::SessionStart] {
            assert!(!PROFILE.rules(e).can_block(), "{e:?}");
        }
        assert!(NAMED.iter().all(|n| !n.rules.can_block()));
    }

    /// "The matcher tests against event-specific context: tool name for
    /// tool events, file path for file events, command string for shell
    /// events" (Open Plugins); goose's `with_message` makes the prompt the
    /// context of UserPromptSubmit, and events without one test `""`.
    #[test]
    fn the_subject_is_goose_matcher_context() {
        let subject = |e: RunEvent, input: Value| GOOSE.match_subject(&e, &input, "").map(str::to_owned);
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        assert_eq!(subject(pre, json!({"tool_name": "developer__shell"})).as_deref(), Some("developer__shell"));
        let prompt = RunEvent::Known(HookEvent::UserPromptSubmit);
        assert_eq!(subject(prompt, json!({"prompt": "hi"})).as_deref(), Some("hi"));
        assert_eq!(subject(RunEvent::Known(HookEvent::Stop), json!({})).as_deref(), Some(""));
        let shell = RunEvent::Named("BeforeShellExecution".into());
        let input = json!({"tool_name": "developer__shell", "tool_input": {"command": "rm -rf /"}});
        assert_eq!(subject(shell, input).as_deref(), Some("rm -rf /"));
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        let post = RunEvent::Known(HookEvent::PostToolUse);
        let bash = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}});
        assert!(GOOSE.native_event_applies("BeforeShellExecution", &pre, &bash));
        assert!(GOOSE.native_event_applies(
            "BeforeShellExecution",
            &pre,
            &json!({"tool_name": "developer__shell",
            "tool_input": {"command": "ls"}})
        ));
        assert!(!GOOSE.native_event_applies("BeforeShellExecution", &post, &bash));
        assert!(GOOSE.native_event_applies("AfterShellExecution", &post, &bash));
        assert!(!GOOSE.native_event_applies(
            "BeforeShellExecution",
            &pre,
            &json!({"tool_name": "Bash", "tool_input": {}})
        ));
        let write = json!({"tool_name": "Write", "tool_input": {"file_path": "a", "content": ""}});
        assert!(GOOSE.native_event_applies("AfterFileEdit", &post, &write));
        assert!(!GOOSE.native_event_applies("BeforeReadFile", &pre, &write), "goose has no read tool of its own");
        assert!(GOOSE.native_event_applies(
            "BeforeReadFile",
            &pre,
            &json!({"tool_name": "files__read_file",
            "tool_input": {"path": "a"}})
        ));
        let read = RunEvent::Named("BeforeReadFile".into());
        assert_eq!(subject(read, json!({"tool_input": {"path": "", "file_path": "a.rs"}})).as_deref(), Some("a.rs"));
    }

    /// goose's `expand_plugin_root`: "command.replace(\"${PLUGIN_ROOT}\",
    /// &plugin_root.to_string_lossy())", before `sh -c` reads it; a file at
    /// `<root>/hooks/hooks.json` has its root even when none is given.
    #[test]
    fn plugin_root_text_is_replaced_before_the_shell_reads_the_command() {
        let root = std::env::current_dir().unwrap().join(".agents").join("plugins").join("p");
        let info = SourceInfo { path: Some(root.join("hooks").join("hooks.json")), ..SourceInfo::new(&GOOSE) };
        let v = json!({"hooks": {"Stop": [{"hooks": [{"command": "${PLUGIN_ROOT}/a.sh $PLUGIN_ROOT"}]}]}});
        let cfg = GOOSE.read_json(&v, &info).unwrap();
        let hook = &cfg.groups(HookEvent::Stop)[0].hooks[0];
        assert_eq!(hook.plugin_root(), Some(root.to_str().unwrap()));
        let facts = SessionFacts { session_id: "s", cwd: "/w", transcript_path: None, trigger: "startup" };
        let line = GOOSE.command_line(hook, &facts, &Environment::new());
        let root =
            if cfg!(windows) { root.display().to_string().replace('\\', "/") } else { root.display().to_string() };
        assert_eq!(line, format!("{root}/a.sh $PLUGIN_ROOT"), "only the braced text; the variable is the shell's");
        assert!(matches!(GOOSE.windows_shell(), WindowsShell::GitBash { slash_variables: &[PLUGIN_ROOT], .. }));
    }
}
