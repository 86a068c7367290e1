//! The Crush dialect: Charm's Crush and its `PreToolUse` hooks, read the
//! way Crush reads them (charmbracelet/crush @37f36e93:
//! `internal/config/load.go`, `internal/hooks/`, `docs/hooks/README.md`).
//! `docs/dialects.md` has the rule table and every deviation.
//!
//! | part | file |
//! |---|---|
//! | `crush.json` files, validation (what rejects the file, what is reported) | `config.rs` |
//! | one hook's result → the canonical reply (exit codes 0, 2, 49; the output envelope and Claude Code's `hookSpecificOutput`) | `reply.rs` |
//! | events, rule table, files, payload, environment, tool names | here |
//!
//! One event, PreToolUse; its hooks run together and their results
//! compose in configuration order: any deny wins (its reasons joined with
//! `\n`), else any allow pre-approves the call; `updated_input` patches
//! merge shallowly, in order, over the original input, and are dropped
//! when the call is denied or the turn halted, as is the hooks' context.
//! A hook's matcher is a regular expression searched in Crush's tool name
//! (`bash`, `edit`, `mcp_<server>_<tool>`, ...; [`VOCABULARY`]). Hooks run
//! in `bash -c` (Crush's embedded shell parses bash syntax), in Git Bash
//! on Windows, the payload `{event, session_id, cwd, tool_name,
//! tool_input}` on stdin and `CRUSH_*` variables in the environment.

mod config;
mod rc;
mod reply;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Map, Value};

use super::tools::{McpNames, ShapeCx, ToolName, ToolShape, ToolVocabulary};
use super::{Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::windows_shell::WindowsShell;
use crate::config::{HooksConfig, Shell, SourceInfo};
use crate::error::Result;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{
    BlockReasons, Column, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, FieldMerge, HandlerTimeouts, InputRules,
    Precedence, Profile, RewriteOnDeny, RewriteWinner, TimeoutUnit, ToolInputFlow, CANONICAL_FAMILIES,
};

/// The Crush dialect (see the module documentation).
#[derive(Debug)]
pub struct Crush;

/// The Crush dialect's value.
pub static CRUSH: Crush = Crush;

/// The events Crush does not fire: nothing blocks, failures are warnings.
const OTHER: EventRules = EventRules::NEUTRAL;

/// PreToolUse (`hooks.aggregate`): every hook runs and reads the original
/// input; "deny wins over allow, allow wins over none"; the reasons of
/// every deny (and halt) joined with `\n`; exit 2 denies with stderr as
/// the reason ("Stdout is ignored"); `updated_input` patches merge in
/// configuration order and "are ignored if the final decision is deny or
/// halt"; a denied call gets no context (`hookedTool.Run` returns before
/// the tool runs).
const PRE_TOOL_USE: EventRules = EventRules {
    precedence: Precedence::MostRestrictive,
    tool_input: ToolInputFlow::Original,
    exit2: Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: false },
    block_reasons: BlockReasons::Joined("\n"),
    rewrite_on_deny: RewriteOnDeny::Dropped,
    rewrite_winner: RewriteWinner::MergedPatches,
    block_drops_context: true,
    ..EventRules::NEUTRAL
};

/// The Crush profile.
pub static PROFILE: Profile = Profile {
    name: "crush",
    // "timeout: Seconds before the hook is killed. Defaults to 30."
    default_timeout: Duration::from_secs(30),
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Lenient,
    // "Deduplicates by `command` (identical commands run once)."
    dedupe: Dedupe::IdenticalHandlers,
    dialect_fields: FieldMerge::FirstOrAppended,
    families: CANONICAL_FAMILIES,
    // Crush runs command hooks only.
    handler_timeouts: HandlerTimeouts { prompt: Duration::from_secs(30), agent: Duration::from_secs(30), lowered: &[] },
    exec_placeholders: &[],
    events: EventTable {
        session_start: OTHER,
        session_end: OTHER,
        subagent_start: OTHER,
        subagent_stop: OTHER,
        user_prompt_submit: OTHER,
        pre_tool_use: PRE_TOOL_USE,
        post_tool_use: OTHER,
        permission_request: OTHER,
        pre_compact: OTHER,
        stop: OTHER,
        notification: OTHER,
        post_tool_use_failure: OTHER,
    },
    named: &[],
    unknown_event: OTHER,
};

/// The event Crush fires (`hooks.EventPreToolUse`).
pub const PRE_TOOL_USE_KEY: &str = "PreToolUse";

/// Whether an event key is PreToolUse for Crush (`normalizeHookEvent`:
/// lower-cased, without `_`, it is `pretooluse`).
pub(crate) fn is_pre_tool_use(key: &str) -> bool {
    key.replace('_', "").eq_ignore_ascii_case("pretooluse")
}

/// Crush's tools (`internal/agent/tools`: each tool's `…ToolName`); MCP
/// tools are `mcp_<server>_<tool>`.
pub const TOOLS: &[&str] = &[
    "bash",
    "edit",
    "multiedit",
    "write",
    "view",
    "ls",
    "glob",
    "grep",
    "fetch",
    "download",
    "agentic_fetch",
    "web_fetch",
    "web_search",
    "sourcegraph",
    "agent",
    "todos",
    "job_output",
    "job_kill",
    "lsp_diagnostics",
    "lsp_references",
    "lsp_definition",
    "lsp_symbols",
    "lsp_rename",
    "lsp_restart",
    "list_mcp_resources",
    "read_mcp_resource",
];

/// Claude Code's tool names (the canonical vocabulary) → Crush's; MCP
/// tools `mcp__<server>__<tool>` → `mcp_<server>_<tool>`
/// (`McpTool.Name`). Inputs are Claude Code's shapes but for Grep's file
/// filter (`glob` is Crush's `include`).
pub static VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "bash"),
        ToolName::new("Read", "view").shape(VIEW),
        ToolName::new("Write", "write"),
        ToolName::new("Edit", "edit"),
        ToolName::new("MultiEdit", "multiedit"),
        ToolName::new("Glob", "glob"),
        ToolName::new("Grep", "grep").fields(&[("glob", "include")]),
        ToolName::new("LS", "ls"),
        ToolName::new("WebFetch", "fetch"),
        ToolName::new("WebSearch", "web_search"),
        ToolName::new("Task", "agent"),
        ToolName::new("Agent", "agent"),
        ToolName::new("TodoWrite", "todos"),
    ],
    mcp: McpNames { prefix: "mcp_", separator: Some("_") },
};

/// Claude Code's `Read` counts lines from 1 (`offset`: "the line number
/// to start reading from"), Crush's `view` from 0 ("The line number to
/// start reading from (0-based)", `internal/agent/tools/view.go`).
const VIEW: ToolShape = ToolShape { to_native: view_to_native, to_canonical: view_to_canonical };

/// A canonical `Read` input as `view` reads it: `offset` one less.
fn view_to_native(_: &ShapeCx<'_>, input: &Map<String, Value>) -> Map<String, Value> {
    let mut out = input.clone();
    if let Some(n) = input.get("offset").and_then(Value::as_u64).filter(|n| *n > 0) {
        out.insert("offset".into(), Value::from(n - 1));
    }
    out
}

/// A `view` input (a hook's rewrite) as Claude Code's `Read`: `offset`
/// one more; `None` when `offset` is not a line number.
fn view_to_canonical(_: &ShapeCx<'_>, input: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut out = input.clone();
    match input.get("offset") {
        None | Some(Value::Null) => {}
        Some(v) => {
            out.insert("offset".into(), Value::from(v.as_u64()? + 1));
        }
    }
    Some(out)
}

/// The variables Crush's hooks get (`hooks.BuildEnv`,
/// `shell.CrushEnvMarkers`).
const ENV_NAMES: &[&str] = &[
    "CRUSH",
    "AGENT",
    "AI_AGENT",
    "CRUSH_EVENT",
    "CRUSH_TOOL_NAME",
    "CRUSH_SESSION_ID",
    "CRUSH_CWD",
    "CRUSH_PROJECT_DIR",
    "CRUSH_TOOL_INPUT_COMMAND",
    "CRUSH_TOOL_INPUT_FILE_PATH",
];

/// Crush's name of the event of a run.
pub(crate) fn event_name(event: &RunEvent) -> &str {
    match event {
        RunEvent::Known(e) => e.name(),
        RunEvent::Named(name) => name,
    }
}

/// Whether `path` is a `crushrc` or `.crushrc` script.
pub(crate) fn is_rc(path: &Path) -> bool {
    matches!(crate::dialect::file_and_dir_names(path).0, "crushrc" | ".crushrc")
}

/// A non-empty variable of the process environment.
fn var(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// The user's files for home directory `home`, given the process
/// environment `get`, in the order Crush merges them (`lookupConfigs`):
/// `GlobalConfig()` (`$CRUSH_GLOBAL_CONFIG/crush.json`, else
/// `$XDG_CONFIG_HOME/crush/crush.json`, else `~/.config/crush/crush.json`,
/// on every system) and the `crushrc` beside it, then `GlobalConfigData()` (`$CRUSH_GLOBAL_DATA/crush.json`,
/// else `$XDG_DATA_HOME/crush/crush.json`, else
/// `%LOCALAPPDATA%\crush\crush.json` on Windows and
/// `~/.local/share/crush/crush.json` elsewhere).
pub(crate) fn user_files_with(home: &Path, windows: bool, get: &dyn Fn(&str) -> Option<PathBuf>) -> Vec<PathBuf> {
    let config = match get("CRUSH_GLOBAL_CONFIG") {
        Some(dir) => dir.join("crush.json"),
        None => get("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config")).join("crush").join("crush.json"),
    };
    let data = match (get("CRUSH_GLOBAL_DATA"), get("XDG_DATA_HOME")) {
        (Some(dir), _) => dir.join("crush.json"),
        (None, Some(dir)) => dir.join("crush").join("crush.json"),
        (None, None) if windows => {
            get("LOCALAPPDATA").unwrap_or_else(|| home.join("AppData").join("Local")).join("crush").join("crush.json")
        }
        (None, None) => home.join(".local").join("share").join("crush").join("crush.json"),
    };
    let rc = config.with_file_name("crushrc");
    vec![config, rc, data]
}

/// A field of a tool input as Crush's `gjson` reads it for the
/// environment (`String()`): a string as it is, null as `""`, any other
/// value as its JSON text; `None` when the field is absent.
pub(crate) fn input_text(tool_input: &Value, key: &str) -> Option<String> {
    match tool_input.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Null => Some(String::new()),
        other => Some(other.to_string()),
    }
}

impl Dialect for Crush {
    fn name(&self) -> &'static str {
        "crush"
    }

    fn title(&self) -> &'static str {
        "Crush"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// `crush.json` and `.crush.json` wherever they are: a project's (and
    /// its `.crush/crush.json`), the user's `~/.config/crush/crush.json`
    /// and `~/.local/share/crush/crush.json`, the system's
    /// `/etc/crush/crush.json`; and the `crushrc` and `.crushrc` scripts.
    fn recognises_path(&self, path: &Path) -> bool {
        let (name, _) = crate::dialect::file_and_dir_names(path);
        matches!(name, "crush.json" | ".crush.json") || is_rc(path)
    }

    fn read_json(&self, v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        config::read(v, info)
    }

    /// `crushrc` and `.crushrc` are scripts, read by `read_text`.
    fn is_text_file(&self, path: &Path) -> bool {
        is_rc(path)
    }

    /// A `crushrc` or `.crushrc` script: its `hook` lines (`rc.rs`).
    fn read_text(&self, text: &str, source: &SourceInfo) -> Result<HooksConfig> {
        rc::read(text, source)
    }

    /// `PreToolUse` (any case, with or without `_`: the file's key is
    /// normalised when it is read).
    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        match event {
            HookEvent::PreToolUse => &[PRE_TOOL_USE_KEY],
            _ => &[],
        }
    }

    /// "Matched against: the tool name (e.g. `bash`, `edit`, `write`,
    /// `mcp_github_create_pull_request`)": Crush's name of the tool.
    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, _trigger: &'a str) -> Option<&'a str> {
        match event {
            RunEvent::Known(HookEvent::PreToolUse) => {
                Some(input.get("tool_name").and_then(Value::as_str).unwrap_or(""))
            }
            _ => None,
        }
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        match event {
            RunEvent::Known(HookEvent::PreToolUse) => Some("the Crush tool name (tool_name)"),
            _ => None,
        }
    }

    /// `hooks.Payload`: `{event, session_id, cwd, tool_name, tool_input}`,
    /// nothing else; `tool_input` is the call's input (`{}` when it has
    /// none).
    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Map<String, Value> {
        let mut out = Map::new();
        out.insert("event".into(), json!(event_name(event)));
        out.insert("session_id".into(), json!(facts.session_id));
        out.insert("cwd".into(), input.get("cwd").filter(|v| v.is_string()).cloned().unwrap_or(json!(facts.cwd)));
        out.insert("tool_name".into(), input.get("tool_name").cloned().unwrap_or(json!("")));
        let tool_input = tool_input.or_else(|| input.get("tool_input")).filter(|v| !v.is_null());
        out.insert("tool_input".into(), tool_input.cloned().unwrap_or_else(|| json!({})));
        out
    }

    /// `CRUSH=1`, `AGENT=crush`, `AI_AGENT=crush`, `CRUSH_EVENT`,
    /// `CRUSH_SESSION_ID`, and the working and project directory
    /// (`CRUSH_CWD`, `CRUSH_PROJECT_DIR`: the workspace).
    fn environment(&self, event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        add("CRUSH", "1");
        add("AGENT", "crush");
        add("AI_AGENT", "crush");
        add("CRUSH_EVENT", event_name(event));
        add("CRUSH_SESSION_ID", facts.session_id);
        add("CRUSH_CWD", facts.cwd);
        add("CRUSH_PROJECT_DIR", facts.cwd);
    }

    /// `CRUSH_TOOL_NAME` (Crush's name of the tool; empty outside a tool
    /// call), `CRUSH_TOOL_INPUT_COMMAND` and `CRUSH_TOOL_INPUT_FILE_PATH`
    /// when the tool input has a `command` or a `file_path` (`BuildEnv`).
    fn input_environment(
        &self,
        _event: &RunEvent,
        input: &Map<String, Value>,
        add: &mut dyn FnMut(&'static str, &str),
    ) {
        add("CRUSH_TOOL_NAME", input.get("tool_name").and_then(Value::as_str).unwrap_or(""));
        if let Some(tool_input) = input.get("tool_input") {
            if let Some(command) = input_text(tool_input, "command") {
                add("CRUSH_TOOL_INPUT_COMMAND", &command);
            }
            if let Some(path) = input_text(tool_input, "file_path") {
                add("CRUSH_TOOL_INPUT_FILE_PATH", &path);
            }
        }
    }

    fn environment_names(&self) -> &'static [&'static str] {
        ENV_NAMES
    }

    /// `CRUSH_CWD` and `CRUSH_PROJECT_DIR` (the workspace), and a plugin
    /// source's root.
    fn placeholders(&self) -> &'static [Placeholder] {
        &[
            Placeholder { name: "CRUSH_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "CRUSH_CWD", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "CLAUDE_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
        ]
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

    /// A project's `crush.json`, `.crush.json`, `crushrc`, `.crushrc`
    /// (each winning over the ones before it), then the workspace's
    /// `.crush/crush.json` (read last, with the highest priority).
    fn workspace_files(&self) -> &'static [&'static str] {
        &["crush.json", ".crush.json", "crushrc", ".crushrc", ".crush/crush.json"]
    }

    /// The user's configuration file, then the data directory's
    /// (`user_files_with`).
    fn user_files(&self, home: &Path) -> Vec<PathBuf> {
        user_files_with(home, cfg!(windows), &var)
    }

    /// `/etc/crush/crush.json` (none on Windows), merged first.
    fn system_files(&self) -> &'static [&'static str] {
        if cfg!(windows) {
            &[]
        } else {
            &["/etc/crush/crush.json"]
        }
    }

    /// Crush's entries are flat objects, not matcher groups.
    fn group_field_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        config::FIELDS
    }

    /// Crush reads its own output envelope (and Claude Code's
    /// `hookSpecificOutput`), exit 2 and exit 49.
    fn reads_hooks_protocol(&self) -> bool {
        false
    }

    /// Crush runs a hook's command in its embedded shell (mvdan.cc/sh,
    /// whose parser reads bash syntax: `[[ ]]` works inline); a script with
    /// a shebang runs under its interpreter, as it does from bash.
    fn shell(&self) -> Shell {
        Shell::Bash
    }

    /// The same shell on Windows ("This contract is identical on macOS,
    /// Linux, and Windows"): Git for Windows' bash, the closest real
    /// shell to Crush's embedded one; PowerShell when there is none.
    fn windows_shell(&self) -> WindowsShell {
        WindowsShell::GitBash {
            path_variable: None,
            flags: &["-c"],
            slash_variables: &["CRUSH_CWD", "CRUSH_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT"],
            fallback: Some(&WindowsShell::POWERSHELL),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crush_files_are_recognised_by_name() {
        for path in [
            "/p/crush.json",
            "/p/.crush.json",
            "/p/.crush/crush.json",
            "/home/u/.config/crush/crush.json",
            "/home/u/.local/share/crush/crush.json",
            "/etc/crush/crush.json",
        ] {
            assert!(CRUSH.recognises_path(Path::new(path)), "{path}");
        }
        assert!(CRUSH.recognises_path(Path::new("/p/crushrc")) && CRUSH.recognises_path(Path::new("/p/.crushrc")));
        for path in ["/p/crush.toml", "/p/.crush/config.json", "/home/u/.crush/config.json", "/p/crushrc.json"] {
            assert!(!CRUSH.recognises_path(Path::new(path)), "{path}");
        }
    }

    /// `GlobalConfig()` and `GlobalConfigData()` (internal/config/load.go).
    #[test]
    fn user_files_follow_crushs_variables() {
        let home = Path::new("/home/u");
        let none = |_: &str| None;
        assert_eq!(
            user_files_with(home, false, &none),
            [
                PathBuf::from("/home/u/.config/crush/crush.json"),
                PathBuf::from("/home/u/.config/crush/crushrc"),
                PathBuf::from("/home/u/.local/share/crush/crush.json")
            ]
        );
        let xdg = |n: &str| match n {
            "XDG_CONFIG_HOME" => Some(PathBuf::from("/x/config")),
            "XDG_DATA_HOME" => Some(PathBuf::from("/x/data")),
            _ => None,
        };
        assert_eq!(
            user_files_with(home, false, &xdg),
            [
                PathBuf::from("/x/config/crush/crush.json"),
                PathBuf::from("/x/config/crush/crushrc"),
                PathBuf::from("/x/data/crush/crush.json")
            ]
        );
        let crush = |n: &str| match n {
            "CRUSH_GLOBAL_CONFIG" => Some(PathBuf::from("/c")),
            "CRUSH_GLOBAL_DATA" => Some(PathBuf::from("/d")),
            "XDG_DATA_HOME" => Some(PathBuf::from("/x/data")),
            _ => None,
        };
        assert_eq!(
            user_files_with(home, false, &crush),
            [PathBuf::from("/c/crush.json"), PathBuf::from("/c/crushrc"), PathBuf::from("/d/crush.json")]
        );
        let win = |n: &str| (n == "LOCALAPPDATA").then(|| PathBuf::from("/appdata/local"));
        assert_eq!(user_files_with(home, true, &win)[2], PathBuf::from("/appdata/local/crush/crush.json"));
        assert_eq!(user_files_with(home, true, &none)[0], PathBuf::from("/home/u/.config/crush/crush.json"));
    }

    #[test]
    fn pre_tool_use_keys_are_normalised() {
        for key in ["PreToolUse", "pretooluse", "PRETOOLUSE", "pre_tool_use", "PRE_TOOL_USE", "Pre_Tool_Use"] {
            assert!(is_pre_tool_use(key), "{key}");
        }
        for key in ["PostToolUse", "pre-tool-use", "PreTool"] {
            assert!(!is_pre_tool_use(key), "{key}");
        }
    }

    /// `hooks.Payload`: `event` (not `hook_event_name`), `session_id`,
    /// `cwd`, `tool_name`, `tool_input` — and nothing else.
    #[test]
    fn the_payload_has_crushs_five_fields() {
        let facts = SessionFacts { session_id: "s1", cwd: "/w", transcript_path: Some("/t"), trigger: "startup" };
        let input = json!({"tool_name": "bash", "tool_input": {"command": "ls"}, "extra": 1});
        let p = CRUSH.payload(&RunEvent::Known(HookEvent::PreToolUse), &facts, input.as_object().unwrap(), None);
        assert_eq!(
            Value::Object(p),
            json!({"event": "PreToolUse", "session_id": "s1", "cwd": "/w", "tool_name": "bash",
                   "tool_input": {"command": "ls"}})
        );
        let p = CRUSH.payload(
            &RunEvent::Known(HookEvent::PreToolUse),
            &facts,
            json!({"tool_name": "x"}).as_object().unwrap(),
            None,
        );
        assert_eq!(p["tool_input"], json!({}));
    }

    /// `hooks.BuildEnv`: the markers, `CRUSH_EVENT`, `CRUSH_TOOL_NAME`,
    /// `CRUSH_SESSION_ID`, `CRUSH_CWD`, `CRUSH_PROJECT_DIR`, and
    /// `CRUSH_TOOL_INPUT_COMMAND` / `CRUSH_TOOL_INPUT_FILE_PATH` when the
    /// input has them (`gjson`'s `String()` of the field).
    #[test]
    fn the_environment_is_build_envs() {
        let facts = SessionFacts { session_id: "s1", cwd: "/w", transcript_path: None, trigger: "startup" };
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        let mut set = Vec::new();
        CRUSH.environment(&pre, &facts, &mut |k, v| set.push((k, v.to_owned())));
        let input = json!({"tool_name": "edit", "tool_input": {"file_path": "a.go", "command": 5}});
        CRUSH.input_environment(&pre, input.as_object().unwrap(), &mut |k, v| set.push((k, v.to_owned())));
        let get = |name: &str| set.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str());
        assert_eq!(get("CRUSH"), Some("1"));
        assert_eq!(get("AGENT"), Some("crush"));
        assert_eq!(get("AI_AGENT"), Some("crush"));
        assert_eq!(get("CRUSH_EVENT"), Some("PreToolUse"));
        assert_eq!(get("CRUSH_SESSION_ID"), Some("s1"));
        assert_eq!(get("CRUSH_CWD"), Some("/w"));
        assert_eq!(get("CRUSH_PROJECT_DIR"), Some("/w"));
        assert_eq!(get("CRUSH_TOOL_NAME"), Some("edit"));
        assert_eq!(get("CRUSH_TOOL_INPUT_FILE_PATH"), Some("a.go"));
        assert_eq!(get("CRUSH_TOOL_INPUT_COMMAND"), Some("5"));
        for (name, _) in &set {
            assert!(ENV_NAMES.contains(name), "{name}");
        }
    }

    #[test]
    fn the_subject_is_crushs_tool_name() {
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        assert_eq!(CRUSH.match_subject(&pre, &json!({"tool_name": "bash"}), ""), Some("bash"));
        assert_eq!(CRUSH.match_subject(&RunEvent::Known(HookEvent::Stop), &json!({}), ""), None);
        assert_eq!(VOCABULARY.native_name("mcp__github__create_pull_request"), "mcp_github_create_pull_request");
        assert_eq!(VOCABULARY.native_name("Read"), "view");
    }

    /// Read's `offset` is 1-based, view's 0-based.
    #[test]
    fn read_offsets_are_one_less_in_view() {
        let read = json!({"file_path": "/a", "offset": 10, "limit": 5});
        let native = VOCABULARY.to_native("Read", Some(&read), "/w");
        assert_eq!(native.name, "view");
        assert_eq!(native.input.as_deref(), Some(&json!({"file_path": "/a", "offset": 9, "limit": 5})));
        let back = VOCABULARY.input_to_canonical("Read", "view", &json!({"file_path": "/b", "offset": 0}), None, "/w");
        assert_eq!(back, Some(json!({"file_path": "/b", "offset": 1})));
        let input = json!({"pattern": "x", "glob": "*.rs"});
        let grep = VOCABULARY.to_native("Grep", Some(&input), "/w");
        assert_eq!(grep.input.as_deref(), Some(&json!({"pattern": "x", "include": "*.rs"})));
    }
}
