//! The Gemini CLI dialect: the `hooks` of a Gemini CLI `settings.json`
//! (user `~/.gemini/settings.json`, workspace `.gemini/settings.json`,
//! system `/etc/gemini-cli/settings.json` and `system-defaults.json`), an
//! extension's `hooks/hooks.json`, or the `hooks` object alone, read the way
//! Gemini CLI reads them (its `packages/core/src/hooks`: the registry,
//! planner, runner and aggregator, and their tests). `docs/dialects.md` has
//! the rule table and every deviation.
//!
//! | part | file |
//! |---|---|
//! | files, validation (what is skipped and reported), `hooksConfig` | `config.rs` |
//! | the stdin payload (Gemini's field names, `timestamp`, no trailing newline) | `payload.rs` |
//! | one hook's result → the canonical reply (JSON on any exit code, plain text) | `reply.rs` |
//! | its names and argument shapes of the canonical tools | `tools.rs` |
//! | events, rule table, matchers, environment, command line, field merging, input chaining | here |
//!
//! Events: `BeforeTool` is PreToolUse, `AfterTool` PostToolUse and
//! PostToolUseFailure (Gemini CLI fires it for every executed tool,
//! failed ones included), `BeforeAgent` UserPromptSubmit, `AfterAgent`
//! Stop, `PreCompress` PreCompact; `SessionStart`, `SessionEnd` and
//! `Notification` are themselves. `BeforeModel`, `AfterModel` and
//! `BeforeToolSelection` have no canonical meaning: they are named events,
//! fired with `hl_engine_run_named` under their own names, with Gemini's
//! rules (their overrides are the outcome's `dialect_fields.gemini`).
//! BeforeModel and AfterModel have PreToolUse's outcome shape: a `block`
//! (or `deny`) is the canonical `deny`, anything else `continue` (a hook
//! that only rewrites the request decides nothing); the hook's own value
//! is `dialect_fields.gemini.gemini_decision`.
//!
//! Hooks run in `bash -c` in the workspace, the payload on stdin; timeouts
//! are milliseconds (default 60000).

pub(crate) mod config;
pub(crate) mod payload;
pub(crate) mod reply;
mod rules;
pub(crate) mod tools;

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Map, Value};

use super::{Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::Shell;
use crate::config::{HookSpec, HooksConfig, SourceInfo};
use crate::error::Result;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{Column, Profile};
use crate::runner::Environment;

use rules::KEYS;
pub use rules::PROFILE;

/// The Gemini CLI dialect (see the module documentation).
#[derive(Debug)]
pub struct Gemini;

/// The Gemini CLI dialect's value.
pub static GEMINI: Gemini = Gemini;

/// The events Gemini CLI defines without a canonical meaning.
pub const NATIVE_EVENTS: &[&str] = &["BeforeModel", "AfterModel", "BeforeToolSelection"];

/// The canonical events a Gemini CLI event key configures (AfterTool: both
/// PostToolUse and PostToolUseFailure).
pub(crate) fn canonical_events(key: &str) -> &'static [HookEvent] {
    match key {
        "BeforeTool" => &[HookEvent::PreToolUse],
        "AfterTool" => &[HookEvent::PostToolUse, HookEvent::PostToolUseFailure],
        "BeforeAgent" => &[HookEvent::UserPromptSubmit],
        "AfterAgent" => &[HookEvent::Stop],
        "PreCompress" => &[HookEvent::PreCompact],
        "SessionStart" => &[HookEvent::SessionStart],
        "SessionEnd" => &[HookEvent::SessionEnd],
        "Notification" => &[HookEvent::Notification],
        _ => &[],
    }
}

/// The Gemini CLI name of the event of a run (`hook_event_name`): the
/// native name of a named event, else the key of the canonical one (its
/// canonical name when Gemini CLI has no such event).
pub(crate) fn event_name(event: &RunEvent) -> &str {
    match event {
        RunEvent::Known(e) => match *KEYS.get(*e) {
            "" => e.name(),
            key => key,
        },
        RunEvent::Named(name) => name,
    }
}

/// Gemini CLI's built-in tool names (`packages/core/src/tools`).
pub const TOOLS: &[&str] = &[
    "run_shell_command",
    "write_file",
    "replace",
    "read_file",
    "read_many_files",
    "glob",
    "grep_search",
    "search_file_content",
    "list_directory",
    "web_fetch",
    "google_web_search",
    "save_memory",
    "write_todos",
    "ask_user",
    "activate_skill",
    "codebase_investigator",
    "delegate_to_agent",
    "enter_plan_mode",
    "exit_plan_mode",
    "get_internal_docs",
];

/// The variables Gemini CLI hooks get from the engine.
const ENV_NAMES: &[&str] = &["GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR"];

/// The variables Gemini CLI substitutes (shell-quoted) into a command
/// before running it, in its order. `GEMINI_PLANS_DIR` is the host's: it is
/// substituted when the hook's environment has it.
const SUBSTITUTED: &[&str] =
    &["GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PLANS_DIR", "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR"];

/// shell-quote's `quote([arg])` (the module Gemini CLI quotes with), as
/// `escapeShellArg` uses it for bash: an empty value stays empty.
pub(crate) fn quote(arg: &str) -> String {
    if arg.is_empty() {
        return String::new();
    }
    let space = |c: char| c.is_whitespace();
    if arg.chars().any(|c| c == '"' || space(c)) && !arg.contains('\'') {
        let mut out = String::with_capacity(arg.len() + 2);
        out.push('\'');
        for c in arg.chars() {
            if c == '\'' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('\'');
        return out;
    }
    if arg.chars().any(|c| c == '"' || c == '\'' || space(c)) {
        let mut out = String::with_capacity(arg.len() + 2);
        out.push('"');
        for c in arg.chars() {
            if matches!(c, '"' | '\\' | '$' | '`' | '!') {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('"');
        return out;
    }
    // Escape the shell's special characters; a letter and a colon right
    // before one keep the colon as it is (shell-quote's `([A-Za-z]:)?`).
    const SHELL_METACHARACTERS: &str = "#!\"$&'()*,:;<=>?@[\\]^`{|}";
    let chars: Vec<char> = arg.chars().collect();
    let mut out = String::with_capacity(arg.len() * 2);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphabetic()
            && chars.get(i + 1) == Some(&':')
            && chars.get(i + 2).is_some_and(|n| SHELL_METACHARACTERS.contains(*n))
        {
            out.extend([c, ':', '\\', chars[i + 2]]);
            i += 3;
            continue;
        }
        if SHELL_METACHARACTERS.contains(c) {
            out.push('\\');
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Gemini CLI's system settings file on `os` (as `std::env::consts::OS`
/// names it; `getSystemSettingsPath`): macOS
/// `/Library/Application Support/GeminiCli/settings.json`, Windows
/// `C:\ProgramData\gemini-cli\settings.json`, else
/// `/etc/gemini-cli/settings.json`.
pub fn system_settings_on(os: &str) -> &'static str {
    match os {
        "macos" => "/Library/Application Support/GeminiCli/settings.json",
        "windows" => r"C:\ProgramData\gemini-cli\settings.json",
        _ => "/etc/gemini-cli/settings.json",
    }
}

/// The system defaults and system settings files, as Gemini CLI finds
/// them: `GEMINI_CLI_SYSTEM_SETTINGS_PATH` (when set and not empty), else
/// the platform's file; `GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, else
/// `system-defaults.json` in the system settings' directory.
fn system_paths_from(settings: Option<&str>, defaults: Option<&str>) -> (String, String) {
    system_paths_with(system_settings_on(std::env::consts::OS), settings, defaults)
}

/// [`system_paths_from`] for an agent whose platform's system settings
/// file is `fallback` (Qwen Code, which kept Gemini CLI's layout).
pub(crate) fn system_paths_with(fallback: &str, settings: Option<&str>, defaults: Option<&str>) -> (String, String) {
    let settings = settings.filter(|s| !s.is_empty()).unwrap_or(fallback).to_owned();
    let defaults = match defaults.filter(|s| !s.is_empty()) {
        Some(d) => d.to_owned(),
        None => Path::new(&settings)
            .parent()
            .unwrap_or(Path::new(""))
            .join("system-defaults.json")
            .to_string_lossy()
            .into_owned(),
    };
    (defaults, settings)
}

/// [`system_paths_from`] this process's environment, read once.
fn system_paths() -> &'static (&'static str, &'static str) {
    static PATHS: std::sync::OnceLock<(&'static str, &'static str)> = std::sync::OnceLock::new();
    PATHS.get_or_init(|| {
        let var = |name: &str| std::env::var(name).ok();
        let (defaults, settings) = system_paths_from(
            var("GEMINI_CLI_SYSTEM_SETTINGS_PATH").as_deref(),
            var("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").as_deref(),
        );
        (Box::leak(defaults.into_boxed_str()), Box::leak(settings.into_boxed_str()))
    })
}

/// What the tool-selection strategy keeps of a `toolConfig`: its mode and
/// its function names.
fn tool_config_parts(v: Option<&Value>) -> (Option<&str>, Vec<String>) {
    let Some(Value::Object(config)) = v else {
        return (None, Vec::new());
    };
    let mode = config.get("mode").and_then(Value::as_str);
    let names = match config.get("allowedFunctionNames") {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => Vec::new(),
    };
    (mode, names)
}

impl Dialect for Gemini {
    fn name(&self) -> &'static str {
        "gemini"
    }

    /// Gemini CLI on Windows runs hooks in PowerShell: `ComSpec` when it
    /// names PowerShell, else `pwsh.exe`, else `powershell.exe`, as
    /// `-NoProfile -NonInteractive -Command <command>; if ($LASTEXITCODE
    /// -ne 0) { exit $LASTEXITCODE }` (gemini-cli `hookRunner.ts`,
    /// `shell-utils.ts`), so a native program's exit code is the hook's.
    fn windows_shell(&self) -> crate::config::windows_shell::WindowsShell {
        use crate::config::windows_shell::{WindowsShell, PWSH_THEN_WINDOWS_POWERSHELL};
        WindowsShell::PowerShell {
            programs: PWSH_THEN_WINDOWS_POWERSHELL,
            flags: &["-NoProfile", "-NonInteractive", "-Command"],
            comspec_first: true,
            propagate_exit: true,
        }
    }

    fn title(&self) -> &'static str {
        "Gemini CLI"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// `.gemini/settings.json` (user and workspace), the system files
    /// (`/etc/gemini-cli/settings.json`, `system-defaults.json` next to it,
    /// macOS `/Library/Application Support/GeminiCli/settings.json`) and an
    /// extension's `hooks/hooks.json` under `.gemini/extensions/`.
    fn recognises_path(&self, path: &Path) -> bool {
        let (name, parent) = crate::dialect::file_and_dir_names(path);
        let settings = name == "settings.json" || name == "system-defaults.json";
        if settings && matches!(parent, ".gemini" | "gemini-cli" | "GeminiCli") {
            return name == "settings.json" || parent != ".gemini";
        }
        // <…>/.gemini/extensions/<extension>/hooks/hooks.json
        let mut up = path.ancestors().skip(1).filter_map(|p| p.file_name()).filter_map(|n| n.to_str());
        name == "hooks.json"
            && up.next() == Some("hooks")
            && up.next().is_some()
            && up.next() == Some("extensions")
            && up.next() == Some(".gemini")
    }

    fn read_json(&self, value: &Value, source: &SourceInfo) -> Result<HooksConfig> {
        config::read(value, source)
    }

    /// A settings file that is not JSON or not an object contributes
    /// nothing in Gemini CLI (the error is shown): among several sources it
    /// is left out, reported, and the others load.
    fn skips_invalid_source(&self) -> bool {
        true
    }

    /// Gemini CLI settings files may have comments (`//` and `/* */`
    /// outside strings): they are blanked before the JSON is parsed.
    fn json_text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        config::strip_comments(text)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        match *KEYS.get(event) {
            "" => &[],
            _ => std::slice::from_ref(KEYS.get(event)),
        }
    }

    /// Tool events: `tool_name`; SessionStart: the session's trigger;
    /// SessionEnd: `reason`; PreCompress: `trigger`. Every other event
    /// matches whatever its matcher says, and so does an empty subject (as
    /// in Gemini CLI, where an empty tool name or trigger is no context).
    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, trigger: &'a str) -> Option<&'a str> {
        let field = |name: &str| input.get(name).and_then(Value::as_str);
        let subject = match event.known()? {
            HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PostToolUseFailure => field("tool_name"),
            HookEvent::SessionStart => Some(trigger),
            HookEvent::SessionEnd => field("reason"),
            HookEvent::PreCompact => field("trigger"),
            _ => None,
        };
        subject.filter(|s| !s.is_empty())
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        match event.known()? {
            HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PostToolUseFailure => Some("tool_name"),
            HookEvent::SessionStart => Some("the session trigger (source)"),
            HookEvent::SessionEnd => Some("reason"),
            HookEvent::PreCompact => Some("trigger"),
            _ => None,
        }
    }

    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        _tool_input: Option<&Value>,
    ) -> Map<String, Value> {
        payload::payload(event, facts, input)
    }

    /// `GEMINI_PROJECT_DIR`, `GEMINI_CWD` and `CLAUDE_PROJECT_DIR` (the
    /// workspace), `GEMINI_SESSION_ID`. `GEMINI_PLANS_DIR` is the host's to
    /// give (option `env`): the plans directory is the agent's own.
    fn environment(&self, _event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        add("GEMINI_PROJECT_DIR", facts.cwd);
        add("GEMINI_CWD", facts.cwd);
        add("GEMINI_SESSION_ID", facts.session_id);
        add("CLAUDE_PROJECT_DIR", facts.cwd);
    }

    fn environment_names(&self) -> &'static [&'static str] {
        ENV_NAMES
    }

    /// `GEMINI_PROJECT_DIR`, `GEMINI_CWD` and `CLAUDE_PROJECT_DIR` (all the
    /// session's working directory). An extension's `${extensionPath}` is
    /// no variable: [`command_line`](Dialect::command_line) writes its value
    /// into the command before the shell reads it.
    fn placeholders(&self) -> &'static [Placeholder] {
        &[
            Placeholder { name: "GEMINI_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "GEMINI_CWD", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "CLAUDE_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
        ]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        reply::read(cx.event, exec)
    }

    /// `{"decision": "deny", "reason": …}` with exit 2 (Gemini CLI applies
    /// the JSON fields on any exit code; its plain text on exit 2 denies
    /// too), on the events whose hooks decide: BeforeTool, BeforeAgent,
    /// AfterAgent, AfterTool and the named events with a decision.
    fn blocking_answer(&self, event: &RunEvent, reason: &str) -> Option<super::BlockingAnswer> {
        use crate::model::event::EventFamily;
        match PROFILE.family_of(event) {
            EventFamily::Tool | EventFamily::Prompt | EventFamily::Stop | EventFamily::PostTool => {
                Some(super::BlockingAnswer {
                    exit_code: 2,
                    stdout: Some(serde_json::json!({"decision": "deny", "reason": reason}).to_string()),
                    stderr: Some(reason.to_owned()),
                })
            }
            _ => None,
        }
    }

    /// The reader decides AfterAgent's blocks itself (`block_fields` only
    /// gives Stop its outcome shape).
    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        match event.known() {
            Some(HookEvent::Stop) => &[Column::BlockFields],
            _ => &[],
        }
    }

    fn describe_matcher(&self, matcher: &Matcher, raw: Option<&str>) -> String {
        match matcher {
            Matcher::Names(names) => format!(
                "Gemini CLI exact value {} (no regex, no list)",
                names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(" | ")
            ),
            _ => matcher.describe(self.title(), false, raw),
        }
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn tool_vocabulary(&self) -> &'static super::tools::ToolVocabulary {
        &tools::VOCABULARY
    }

    /// AfterTool's `tailToolCallRequest` names the tool in Gemini CLI's
    /// vocabulary: the outcome names it canonically.
    fn tool_calls_to_canonical(
        &self,
        _event: &RunEvent,
        fields: &mut Map<String, Value>,
        to_canonical: &dyn Fn(&str, &Value) -> (String, Value),
    ) {
        tools::tail_call_to_canonical(fields, to_canonical);
    }

    fn workspace_files(&self) -> &'static [&'static str] {
        &[".gemini/settings.json"]
    }

    /// The system defaults (`system-defaults.json` next to the system
    /// settings, or `GEMINI_CLI_SYSTEM_DEFAULTS_PATH`), merged first.
    fn system_files(&self) -> &'static [&'static str] {
        std::slice::from_ref(&system_paths().0)
    }

    /// The system settings (`GEMINI_CLI_SYSTEM_SETTINGS_PATH` when set):
    /// their hooks are concatenated after the user's and the project's
    /// ("system-defaults, user, project, system").
    fn late_system_files(&self) -> &'static [&'static str] {
        std::slice::from_ref(&system_paths().1)
    }

    /// In the home directory the workspace's `.gemini/settings.json` is the
    /// user's own file: Gemini CLI reads it once, as the user's.
    fn reads_workspace_at_home(&self) -> bool {
        false
    }

    /// `~/.gemini/settings.json` (Gemini CLI's user settings).
    fn user_files(&self, home: &Path) -> Vec<std::path::PathBuf> {
        vec![home.join(".gemini").join("settings.json")]
    }

    /// An extension's `hooks/hooks.json`: the extension's directory (its
    /// `${extensionPath}`) is the directory above `hooks/`.
    fn plugin_root_of(&self, path: &Path) -> Option<std::path::PathBuf> {
        super::plugin_hooks_json_root(path)
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        &["matcher", "sequential", "hooks"]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        &["type", "command", "name", "description", "timeout", "env"]
    }

    /// Gemini CLI's aggregation of what has no canonical slot:
    /// BeforeToolSelection's `toolConfig` by its tool-selection strategy
    /// (any `NONE` → `NONE` without functions; else `ANY` if any hook says
    /// so, else `AUTO`; the function names the sorted union), every other
    /// field by replacement, the later hook's value winning.
    fn merge_fields(&self, event: &RunEvent, into: &mut Map<String, Value>, mut fields: Map<String, Value>) {
        if event.name() == "BeforeToolSelection" {
            if let Some(config) = fields.remove("toolConfig") {
                let (old_mode, old_names) = tool_config_parts(into.get("toolConfig"));
                let (new_mode, new_names) = tool_config_parts(Some(&config));
                let either = |m: &str| old_mode == Some(m) || new_mode == Some(m);
                let mode = if either("NONE") {
                    "NONE"
                } else if either("ANY") {
                    "ANY"
                } else {
                    "AUTO"
                };
                let names: Vec<Value> = match mode {
                    "NONE" => Vec::new(),
                    _ => old_names
                        .into_iter()
                        .chain(new_names)
                        .collect::<BTreeSet<_>>()
                        .into_iter()
                        .map(Value::from)
                        .collect(),
                };
                let mut merged = Map::new();
                merged.insert("mode".into(), Value::from(mode));
                merged.insert("allowedFunctionNames".into(), Value::Array(names));
                into.insert("toolConfig".into(), Value::Object(merged));
            }
        }
        into.extend(fields);
    }

    /// AfterTool's `tailToolCallRequest` (the last hook's value, as
    /// Gemini CLI's shallow merge keeps it) is an object, and a blocked
    /// AfterTool requests no tail call: its result is replaced.
    fn finish_fields(&self, event: &RunEvent, blocked: bool, fields: &mut Map<String, Value>) {
        if matches!(event.known(), Some(HookEvent::PostToolUse | HookEvent::PostToolUseFailure))
            && (blocked || !fields.get("tailToolCallRequest").is_some_and(Value::is_object))
        {
            fields.remove("tailToolCallRequest");
        }
    }

    fn payload_ends_with_newline(&self) -> bool {
        false
    }

    fn native_event_keys(&self) -> &'static [&'static str] {
        NATIVE_EVENTS
    }

    /// After a hook that exited 0 with output: BeforeAgent's `prompt` gets
    /// `"\n\n" + additionalContext`, BeforeModel's `llm_request` and
    /// BeforeTool's `tool_input` get the hook's fields merged over theirs.
    fn chain_input(
        &self,
        event: &RunEvent,
        input: &Map<String, Value>,
        exec: &HookExecution,
    ) -> Option<Map<String, Value>> {
        if exec.timed_out || exec.exit_code != Some(0) {
            return None;
        }
        let output = reply::output(exec)?;
        let specific = output.get("hookSpecificOutput")?.as_object()?;
        let merged = |key: &str, patch: &Value| -> Option<Map<String, Value>> {
            let Value::Object(patch) = patch else { return None };
            let mut value = input.get(key).and_then(Value::as_object).cloned().unwrap_or_default();
            value.extend(patch.iter().map(|(k, v)| (k.clone(), v.clone())));
            let mut next = input.clone();
            next.insert(key.to_owned(), Value::Object(value));
            Some(next)
        };
        match event {
            RunEvent::Known(HookEvent::UserPromptSubmit) => {
                let context = specific.get("additionalContext")?.as_str()?;
                // The prompt the hooks were given: `""` when the input has
                // none (Gemini CLI's BeforeAgent input always has one).
                let prompt = input.get("prompt").and_then(Value::as_str).unwrap_or("");
                let mut next = input.clone();
                next.insert("prompt".into(), Value::String(format!("{prompt}\n\n{context}")));
                Some(next)
            }
            RunEvent::Known(HookEvent::PreToolUse) => merged("tool_input", specific.get("tool_input")?),
            RunEvent::Named(name) if &**name == "BeforeModel" => {
                input.get("llm_request")?;
                merged("llm_request", specific.get("llm_request")?)
            }
            _ => None,
        }
    }

    fn shell(&self) -> Shell {
        Shell::Bash
    }

    /// An extension's `${extensionPath}` (the source's plugin root),
    /// `${workspacePath}`, `${/}` and `${pathSeparator}`; then the literal
    /// `$GEMINI_PROJECT_DIR`, `$GEMINI_CWD`, `$GEMINI_PLANS_DIR`,
    /// `$GEMINI_SESSION_ID` and `$CLAUDE_PROJECT_DIR` replaced by their
    /// shell-quoted values, in that order (`${…}` braces are left to bash).
    fn command_line<'a>(&self, hook: &'a HookSpec, facts: &SessionFacts<'_>, env: &Environment) -> Cow<'a, str> {
        let mut line = Cow::Borrowed(hook.command_text().unwrap_or_default());
        if let Some(root) = hook.plugin_root() {
            for (var, value) in
                [("${extensionPath}", root), ("${workspacePath}", facts.cwd), ("${/}", "/"), ("${pathSeparator}", "/")]
            {
                if line.contains(var) {
                    line = Cow::Owned(line.replace(var, value));
                }
            }
        }
        if !line.contains('$') {
            return line;
        }
        for name in SUBSTITUTED {
            let value = match *name {
                "GEMINI_SESSION_ID" => Some(facts.session_id),
                "GEMINI_PLANS_DIR" => env.get(std::ffi::OsStr::new(name)).and_then(|v| v.to_str()),
                _ => Some(facts.cwd),
            };
            let pattern = format!("${name}");
            if let (Some(value), true) = (value, line.contains(&pattern)) {
                line = Cow::Owned(line.replace(&pattern, &quote(value)));
            }
        }
        line
    }

    fn plugin_root_variables(&self) -> &'static [&'static str] {
        &[]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_shell_quote() {
        assert_eq!(quote("/home/u/proj"), "/home/u/proj");
        assert_eq!(quote("/home/u/my proj"), "'/home/u/my proj'");
        assert_eq!(quote("it's here"), "\"it's here\"");
        assert_eq!(quote("a$b"), "a\\$b");
        assert_eq!(quote("C:/x"), "C\\:/x");
        assert_eq!(quote("C:;"), "C:\\;");
        assert_eq!(quote(""), "");
        assert_eq!(quote("a;rm -rf /"), "'a;rm -rf /'");
        assert_eq!(quote("a;b"), "a\\;b");
    }

    /// "system defaults | `<dir of system settings>/system-defaults.json`
    /// (`GEMINI_CLI_SYSTEM_DEFAULTS_PATH`)"; "system |
    /// `/etc/gemini-cli/settings.json` … (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`)".
    #[test]
    fn system_files_follow_gemini_s_variables() {
        let here = system_settings_on(std::env::consts::OS);
        let (defaults, settings) = system_paths_from(None, None);
        assert_eq!(settings, here);
        assert_eq!(Path::new(&defaults), Path::new(here).with_file_name("system-defaults.json"));
        let (defaults, settings) = system_paths_from(Some("/opt/g/sys.json"), None);
        assert_eq!((defaults.as_str(), settings.as_str()), ("/opt/g/system-defaults.json", "/opt/g/sys.json"));
        let (defaults, _) = system_paths_from(Some("/opt/g/sys.json"), Some("/d/defaults.json"));
        assert_eq!(defaults, "/d/defaults.json");
        assert_eq!(system_paths_from(Some(""), Some("")).1, here, "an empty variable is unset");
    }

    /// `getSystemSettingsPath`: "win32" → `C:\\ProgramData\\gemini-cli\\settings.json`,
    /// "darwin" → `/Library/Application Support/GeminiCli/settings.json`, else
    /// `/etc/gemini-cli/settings.json` (gemini.md, settings layers).
    #[test]
    fn the_system_settings_are_per_system() {
        assert_eq!(system_settings_on("windows"), r"C:\ProgramData\gemini-cli\settings.json");
        assert_eq!(system_settings_on("macos"), "/Library/Application Support/GeminiCli/settings.json");
        assert_eq!(system_settings_on("linux"), "/etc/gemini-cli/settings.json");
        assert_eq!(system_settings_on("freebsd"), "/etc/gemini-cli/settings.json");
    }

    #[test]
    fn event_names_are_gemini_s() {
        assert_eq!(event_name(&RunEvent::Known(HookEvent::PreToolUse)), "BeforeTool");
        assert_eq!(event_name(&RunEvent::Known(HookEvent::PostToolUseFailure)), "AfterTool");
        assert_eq!(event_name(&RunEvent::Named("BeforeModel".into())), "BeforeModel");
        assert_eq!(GEMINI.event_keys(HookEvent::SubagentStart), &[] as &[&str]);
    }
}
