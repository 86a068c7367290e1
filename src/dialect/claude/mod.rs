//! The Claude Code dialect: the `hooks` of a Claude Code `settings.json`
//! (or that object alone), with Claude Code's decisions as its hooks
//! reference documents them (`docs/profiles.md`).
//!
//! - A settings file is read the way Claude Code reads it: text that is not
//!   JSON, or JSON that is not an object, rejects the file
//!   (`InvalidConfig`, Claude Code's "Settings Error"); a malformed hooks
//!   entry (an event, a group, one hook: an unknown `type`, a missing
//!   command, a bad matcher or timeout) is skipped with a warning and every
//!   other hook loads (Claude Code's "Settings Warning", since 2.1.101).
//!   A `hooks` value that is not an object contributes no hooks, with a
//!   warning. A settings file (`.claude/settings*.json`, a plugin's
//!   `hooks/hooks.json`) without a `hooks` key contributes no hooks.
//! - `disableAllHooks` (a boolean) is recorded for the engine to apply once
//!   every source is joined ([`HooksConfig::apply_disable_all_hooks`]).
//! - Event keys are PascalCase (`PreToolUse`, ...). The events Claude Code
//!   has besides the twelve canonical ones (`TaskCreated`, `PostCompact`,
//!   ...) are in the profile's table of named events ([`NAMED`]), each
//!   with its own rules; any other key whose value is an array is kept as
//!   a named event too (fired by name, with observer rules). Named events
//!   are validated like any event and part of the digest.
//! - Hooks: every handler type of the reference (`command`, `http`,
//!   `prompt`, `agent`, `mcp_tool`) in matcher groups
//!   (`protocol/config.rs`), plus `if`, `async`, `statusMessage`,
//!   `onFailure` (`"block"` or `"continue"`, on command and http hooks) and
//!   `failClosed` (hookline's earlier spelling of `onFailure: "block"`, on
//!   every handler type). A hook of a type its event does
//!   not run stays, with a warning, and is skipped when the event runs.
//!   Unknown hook fields are ignored with a warning.
//! - `allowedHttpHookUrls` and `httpHookAllowedEnvVars` of a trusted source
//!   restrict http hooks.
//! - Matchers: absent, `""` or `"*"` match all; a value made only of
//!   letters, digits, `_`, `-`, space, `,` and `|` is an exact name or a
//!   list of names; anything else is an unanchored regular expression
//!   ([`Matcher::claude`]; FileChanged and StopFailure use the narrower
//!   [`Matcher::claude_narrow`]). UserPromptSubmit and Stop ignore
//!   matchers; SubagentStart and SubagentStop test `agent_type`.
//! - Files recognised by path: `.claude/settings*.json` and a plugin's
//!   `hooks/hooks.json`.
//! - Claude-dialect TOML does not exist.

mod handler_support;
mod rules;

use rules::KEYS;
pub use rules::{NAMED, PROFILE, RULES};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::protocol::env::{protocol_environment, PROTOCOL_ENV_NAMES, PROTOCOL_PLACEHOLDERS};
use super::protocol::{self, config::GroupShape, config::Malformed, Subjects};
use super::{Dialect, Placeholder, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::{type_name, DisableAllHooks, HooksConfig, HttpPolicy, Source, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{Column, MatcherRule, Profile};

/// The Claude Code dialect (see the module documentation).
#[derive(Debug)]
pub struct Claude;

/// The Claude Code dialect's value.
pub static CLAUDE: Claude = Claude;

/// The fields of Claude Code's replies that have no canonical slot, for the
/// host under `dialect_fields.claude`: `terminalSequence` on every event
/// ("the field works on events that discard systemMessage and continue");
/// SessionStart's `initialUserMessage`, `sessionTitle`, `watchPaths`,
/// `reloadSkills`; PostToolUse's `updatedToolOutput` ("Replaces the tool's
/// output with the provided value before it is sent to Claude"),
/// `updatedMCPToolOutput`, `classifierContext`; CwdChanged's and
/// FileChanged's `watchPaths`; MessageDisplay's `displayContent`.
const OWN_FIELDS: protocol::OwnFields = protocol::OwnFields {
    every_event: &["terminalSequence"],
    per_event: &[
        ("SessionStart", &["initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"]),
        ("PostToolUse", &["updatedToolOutput", "updatedMCPToolOutput", "classifierContext"]),
        ("CwdChanged", &["watchPaths"]),
        ("FileChanged", &["watchPaths"]),
        ("MessageDisplay", &["displayContent"]),
    ],
};

/// Claude Code's matcher subjects: UserPromptSubmit and Stop ignore
/// matchers; SubagentStart and SubagentStop "receive agent_type with the
/// agent name that the matcher filters on".
const SUBJECTS: Subjects = Subjects { prompt_and_stop: false, subagent: "agent_type" };

/// The matcher rule of an event key's groups.
fn matcher_of(key: &str, raw: Option<&str>) -> std::result::Result<Matcher, regex::Error> {
    match PROFILE.named(key).map(|n| n.matcher) {
        Some(MatcherRule::Narrow) => Matcher::claude_narrow(raw),
        _ => Matcher::claude(raw),
    }
}

const SHAPE: GroupShape =
    GroupShape { timeout_key: "timeout", claude_fields: true, matcher: matcher_of, malformed: Malformed::Skipped };

/// Claude Code's built-in tool names.
pub const TOOLS: &[&str] = &[
    "Bash",
    "Edit",
    "Write",
    "Read",
    "Glob",
    "Grep",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "WebFetch",
    "WebSearch",
    "Task",
    "Agent",
    "TodoWrite",
    "LS",
    "ExitPlanMode",
    "BashOutput",
    "KillShell",
    "SlashCommand",
    "Skill",
    "PowerShell",
    "AskUserQuestion",
];

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

/// Whether `v` has the shape of an event's matcher groups (an array of
/// objects): how keys next to other settings are told apart when a
/// settings object has no `hooks` key.
fn looks_like_groups(v: &Value) -> bool {
    v.as_array().is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_object))
}

impl Claude {
    /// The object whose keys are PascalCase event names. `under_hooks`:
    /// the object is a settings file's `hooks` (every key is an event key);
    /// otherwise it is a settings object without `hooks`, whose keys that
    /// are no event (by name, or by the shape of their value) are other
    /// settings.
    fn from_events(
        obj: &Map<String, Value>,
        info: &SourceInfo,
        cfg: &mut HooksConfig,
        under_hooks: bool,
    ) -> Result<()> {
        let source = Arc::new(Source::new(info.clone(), false));
        for event in HookEvent::ALL {
            if let Some(v) = obj.get(event.name()) {
                let groups = protocol::config::parse_groups(&SHAPE, &source, event.name(), v, cfg)?;
                warn_unsupported(cfg, event.name(), &groups);
                cfg.push_groups(event, groups);
            }
        }
        for (key, value) in obj.iter().filter(|(k, _)| HookEvent::from_name(k).is_none()) {
            let known = PROFILE.named(key).is_some();
            if !under_hooks && !known && !looks_like_groups(value) {
                crate::hl_debug!("`{key}` is not a hooks event; ignored as another setting");
                continue;
            }
            if key.trim().is_empty() || (!known && !value.is_array()) {
                cfg.push_skipped(
                    format!("hooks.{key}"),
                    format!("hooks.{key} is not an event's array of matcher groups; it is skipped"),
                );
                continue;
            }
            let groups = protocol::config::parse_groups(&SHAPE, &source, key, value, cfg)?;
            warn_unsupported(cfg, key, &groups);
            if !known {
                let hint = match super::suggest_event_key(&CLAUDE, key) {
                    Some(k) => format!("; did you mean `{k}`?"),
                    None => String::new(),
                };
                cfg.push_never_runs(
                    format!("hooks.{key}"),
                    format!(
                        "unknown event key `{key}`: Claude Code fires no event of that name, so its hooks run only \
                         when a host fires `{key}` by name{hint}"
                    ),
                );
            }
            cfg.push_named(key, groups);
        }
        Ok(())
    }
}

/// Claude Code's managed settings file on `os` (as `std::env::consts::OS`
/// names it): "macOS: `/Library/Application Support/ClaudeCode/managed-settings.json`;
/// Linux and WSL: `/etc/claude-code/managed-settings.json`; Windows:
/// `C:\Program Files\ClaudeCode\managed-settings.json`" (the legacy
/// `C:\ProgramData\ClaudeCode` path "is no longer supported as of
/// v2.1.75"; Claude Code settings docs, Settings files).
pub fn managed_files(os: &str) -> &'static [&'static str] {
    match os {
        "macos" => &["/Library/Application Support/ClaudeCode/managed-settings.json"],
        "windows" => &[r"C:\Program Files\ClaudeCode\managed-settings.json"],
        _ => &["/etc/claude-code/managed-settings.json"],
    }
}

impl Dialect for Claude {
    fn name(&self) -> &'static str {
        "claude"
    }

    /// Claude Code on Windows runs hooks in Git Bash (since 2.1.47; the
    /// `bash.exe` `CLAUDE_CODE_GIT_BASH_PATH` names, else Git for Windows'),
    /// and in PowerShell when there is no Git Bash. Its path variables reach
    /// bash with `/` for `\`: Git Bash eats the backslashes of an unquoted
    /// `${CLAUDE_PLUGIN_ROOT}` (anthropics/claude-code#21878). Claude Code
    /// starts bash as `bash --login -i -c`, which sources the user's
    /// profile and opens a console per hook (vercel/vercel-plugin#79);
    /// hookline runs `bash -c`, as on other systems.
    fn windows_shell(&self) -> crate::config::windows_shell::WindowsShell {
        use crate::config::windows_shell::WindowsShell;
        WindowsShell::GitBash {
            path_variable: Some("CLAUDE_CODE_GIT_BASH_PATH"),
            flags: &["-c"],
            slash_variables: &["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"],
            fallback: Some(&WindowsShell::POWERSHELL),
        }
    }

    fn title(&self) -> &'static str {
        "Claude Code"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// `.claude/settings.json`, `.claude/settings.local.json` (any
    /// `settings*.json` in a `.claude` directory) and a plugin's
    /// `hooks/hooks.json`.
    fn recognises_path(&self, path: &Path) -> bool {
        let (name, parent) = crate::dialect::file_and_dir_names(path);
        (parent == ".claude" && name.starts_with("settings") && name.ends_with(".json"))
            || (parent == "hooks" && name == "hooks.json")
            || name == "managed-settings.json"
    }

    /// Managed settings are policy: "`disableAllHooks` set in user,
    /// project, or local settings cannot disable hooks configured by
    /// managed policy settings".
    fn system_files_are_policy(&self) -> bool {
        true
    }

    /// The managed settings file (`managed-settings.json`) of this system
    /// ([`managed_files`]).
    fn system_files(&self) -> &'static [&'static str] {
        managed_files(std::env::consts::OS)
    }

    /// A whole settings.json (`{"hooks": {...}, "disableAllHooks": …, ...}`;
    /// other top-level keys are other settings) or its `hooks` object
    /// alone (see the module documentation for what is skipped). A trusted
    /// source's `allowedHttpHookUrls` and `httpHookAllowedEnvVars` restrict
    /// http hooks (an untrusted source's are ignored).
    fn read_json(&self, v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        let Value::Object(top) = v else {
            return Err(cfg_err(format!("hooks configuration must be a JSON object, got {}", type_name(v))));
        };
        let policy = http_policy(top, info)?;
        let mut cfg = HooksConfig::empty_of(&CLAUDE);
        cfg.join_http_policy(&policy);
        match top.get("disableAllHooks") {
            None | Some(Value::Null) => {}
            Some(Value::Bool(value)) => {
                cfg.set_disable_all_hooks(DisableAllHooks { value: *value, trusted: info.trusted })
            }
            Some(other) => cfg.push_skipped(
                "disableAllHooks",
                format!("disableAllHooks must be a boolean, got {}; it is ignored", type_name(other)),
            ),
        }
        let settings_file = info.path.as_deref().is_some_and(|p| self.recognises_path(p));
        match top.get("hooks") {
            Some(Value::Object(hooks)) => Self::from_events(hooks, info, &mut cfg, true)?,
            // "A source file without a `hooks` key contributes no hooks."
            None | Some(Value::Null) if settings_file => {}
            None | Some(Value::Null) => {
                let events: Map<String, Value> = top
                    .iter()
                    .filter(|(k, _)| *k != "disableAllHooks" && !HTTP_POLICY_KEYS.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                Self::from_events(&events, info, &mut cfg, false)?
            }
            Some(other) => cfg.push_skipped(
                "hooks",
                format!("hooks must be an object, got {}; the file contributes no hooks", type_name(other)),
            ),
        }
        Ok(cfg.vtcode_when_empty())
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        std::slice::from_ref(KEYS.get(event))
    }

    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, trigger: &'a str) -> Option<&'a str> {
        protocol::match_subject(event, input, trigger, SUBJECTS, &PROFILE)
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        protocol::match_subject_field(event, SUBJECTS, &PROFILE)
    }

    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Map<String, Value> {
        protocol::payload::payload(event, facts, input, tool_input)
    }

    fn environment(&self, event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        protocol_environment(event, facts, add)
    }

    fn environment_names(&self) -> &'static [&'static str] {
        PROTOCOL_ENV_NAMES
    }

    fn placeholders(&self) -> &'static [Placeholder] {
        PROTOCOL_PLACEHOLDERS
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        protocol::read_keeping(cx, exec, &OWN_FIELDS)
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        protocol::honours(PROFILE.family_of(event))
    }

    /// Digest lines without a dialect (the format stored approvals use).
    fn named_in_digest(&self) -> bool {
        false
    }

    fn supports(&self, kind: crate::model::outcome::HookKind, event: &RunEvent) -> bool {
        handler_support::claude_supports_on(kind, event)
    }

    fn describe_matcher(&self, matcher: &Matcher, raw: Option<&str>) -> String {
        matcher.describe(self.title(), false, raw)
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn workspace_files(&self) -> &'static [&'static str] {
        &[".claude/settings.json", ".claude/settings.local.json"]
    }

    /// `~/.claude/settings.json`, or `settings.json` in `$CLAUDE_CONFIG_DIR`
    /// when that is set (Claude Code's configuration directory).
    fn user_files(&self, home: &Path) -> Vec<PathBuf> {
        let dir = match std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
            Some(d) => PathBuf::from(d),
            None => home.join(".claude"),
        };
        vec![dir.join("settings.json")]
    }

    /// A plugin's `hooks/hooks.json`: its root is the directory above `hooks/`.
    fn plugin_root_of(&self, path: &Path) -> Option<PathBuf> {
        super::plugin_hooks_json_root(path)
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        &["matcher", "hooks"]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        HOOK_FIELDS
    }
}

/// The hook fields of Claude Code's hooks reference, every handler type's
/// (including those this build of hookline does not run), `onFailure`
/// (Claude Code 2.1.295), and hookline's `failClosed`.
const HOOK_FIELDS: &[&str] = &[
    "type",
    "if",
    "timeout",
    "statusMessage",
    "once",
    "command",
    "args",
    "async",
    "asyncRewake",
    "shell",
    "url",
    "headers",
    "allowedEnvVars",
    "server",
    "tool",
    "input",
    "prompt",
    "model",
    "continueOnBlock",
    "onFailure",
    "failClosed",
];

/// Settings keys that restrict http hooks (not events).
const HTTP_POLICY_KEYS: &[&str] = &["allowedHttpHookUrls", "httpHookAllowedEnvVars"];

/// The http hook settings of a settings object: `allowedHttpHookUrls` and
/// `httpHookAllowedEnvVars` (arrays of strings), honoured from trusted
/// sources only.
fn http_policy(top: &Map<String, Value>, info: &SourceInfo) -> Result<HttpPolicy> {
    let list = |key: &str| -> Result<Option<Vec<String>>> {
        match top.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| {
                    v.as_str().map(str::to_owned).ok_or_else(|| cfg_err(format!("{key} must be an array of strings")))
                })
                .collect::<Result<Vec<_>>>()
                .map(Some),
            Some(other) => Err(cfg_err(format!("{key} must be an array of strings, got {}", type_name(other)))),
        }
    };
    let policy = HttpPolicy { allowed_urls: list(HTTP_POLICY_KEYS[0])?, allowed_env_vars: list(HTTP_POLICY_KEYS[1])? };
    if info.trusted || policy == HttpPolicy::default() {
        return Ok(policy);
    }
    crate::hl_warn!(
        "ignoring {} of an untrusted hooks source: only trusted sources restrict http hooks",
        HTTP_POLICY_KEYS.join(" and ")
    );
    Ok(HttpPolicy::default())
}

/// A configuration warning for each hook of a type Claude Code does not
/// run on `event` (the hook stays, and is skipped when the event runs).
fn warn_unsupported(cfg: &mut HooksConfig, event: &str, groups: &[crate::config::HookGroup]) {
    for hook in groups.iter().flat_map(|g| &g.hooks) {
        let kind = hook.handler.kind();
        if !handler_support::claude_supports(kind, event) {
            cfg.push_never_runs(
                hook.path.clone(),
                format!(
                    "Claude Code does not run {} hooks on {event}; this hook is skipped (fix: make it a `command` \
                     hook, or move it to an event that runs {} hooks)",
                    kind.as_str(),
                    kind.as_str()
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rules::{Precedence, RunOrder, ToolInputFlow};
    use std::time::Duration;

    /// "Windows: `C:\Program Files\ClaudeCode\managed-settings.json`"; "The legacy
    /// Windows path `C:\ProgramData\ClaudeCode\managed-settings.json` is no longer
    /// supported as of v2.1.75" (Claude Code settings docs, Settings files).
    #[test]
    fn managed_settings_are_per_system() {
        assert_eq!(managed_files("windows"), [r"C:\Program Files\ClaudeCode\managed-settings.json"]);
        assert_eq!(managed_files("macos"), ["/Library/Application Support/ClaudeCode/managed-settings.json"]);
        assert_eq!(managed_files("linux"), ["/etc/claude-code/managed-settings.json"]);
        assert_eq!(CLAUDE.system_files(), managed_files(std::env::consts::OS));
    }

    #[test]
    fn claude_pre_tool_use_runs_concurrently_and_most_restrictive_wins() {
        let r = PROFILE.rules(HookEvent::PreToolUse);
        assert_eq!(r.run_order, RunOrder::Concurrent);
        assert_eq!(r.precedence, Precedence::MostRestrictive);
        assert_eq!(r.tool_input, ToolInputFlow::Original);
    }

    #[test]
    fn default_timeout_is_600_seconds() {
        assert_eq!(PROFILE.default_timeout, Duration::from_secs(600));
    }

    #[test]
    fn claude_keys_are_the_canonical_names() {
        for event in HookEvent::ALL {
            assert_eq!(CLAUDE.event_keys(event), [event.name()]);
        }
    }

    #[test]
    fn settings_files_and_plugin_hooks_are_recognised_by_path() {
        assert!(CLAUDE.recognises_path(Path::new("/w/.claude/settings.json")));
        assert!(CLAUDE.recognises_path(Path::new("/w/.claude/settings.local.json")));
        assert!(CLAUDE.recognises_path(Path::new("/plugins/guard/hooks/hooks.json")));
        assert!(!CLAUDE.recognises_path(Path::new("/w/.codex/hooks.json")));
        assert!(!CLAUDE.recognises_path(Path::new("/w/hooks.json")));
    }
}
