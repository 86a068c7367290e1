//! The Claude Code dialect: the `hooks` of a Claude Code `settings.json`
//! (or that object alone), with Claude Code's decisions as its hooks
//! reference documents them (`docs/profiles.md`).
//!
//! - Event keys are PascalCase (`PreToolUse`, ...). An unknown key whose
//!   value is an array is kept as a *named event* (fired by name, e.g.
//!   `PostCompact`, `TeammateIdle`), validated like any event and part of
//!   the digest; a non-array value under an unknown key is ignored with a
//!   warning (it is some other setting).
//! - Hooks: `{"type": "command", "command": …, "timeout": N}` in matcher
//!   groups (`protocol/config.rs`), plus `if`,
//!   `async`, `statusMessage` and `failClosed` (a hookline extension).
//! - Matchers: absent, `""` or `"*"` match all; a value made only of
//!   letters, digits, `_`, `-`, space, `,` and `|` is an exact name or a
//!   list of names; anything else is an unanchored regular expression
//!   ([`Matcher::claude`]). UserPromptSubmit and Stop ignore matchers.
//! - Files recognised by path: `.claude/settings*.json` and a plugin's
//!   `hooks/hooks.json`.
//! - Claude-dialect TOML does not exist.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::matcher::Matcher;
use super::protocol::{self, config::GroupShape};
use super::vtcode::{protocol_environment, PROTOCOL_ENV_NAMES};
use super::{Dialect, ReadCtx};
use crate::config::{type_name, HooksConfig, HttpPolicy, Source, SourceInfo};
use crate::error::{Error, Result};
use crate::handler::HookExecution;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::SessionFacts;
use crate::model::outcome::HookMessageLevel::Error as ErrorLevel;
use crate::model::reply::HookReply;
use crate::model::rules::{
    BlockFields, Column, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, HandlerTimeouts, InputRules, Precedence,
    Profile, RunOrder, ToolInputFlow,
};

/// The Claude Code dialect (see the module documentation).
#[derive(Debug)]
pub struct Claude;

/// The Claude Code dialect's value.
pub static CLAUDE: Claude = Claude;

const BLOCK: Exit2 = Exit2::Block { reason: Exit2Reason::StdoutThenStderr, needs_stderr: false };
const FEEDBACK: Exit2 = Exit2::Block { reason: Exit2Reason::StdoutThenStderr, needs_stderr: true };
const BASE: EventRules = EventRules { failure_level: ErrorLevel, ..EventRules::NEUTRAL };
const OBSERVER: EventRules = EventRules { exit2: Exit2::StderrToUser, ..BASE };

/// The Claude Code profile: Claude Code's decisions, as its hooks reference
/// documents them.
pub static PROFILE: Profile = Profile {
    name: "claude",
    default_timeout: Duration::from_secs(600),
    handler_timeouts: HandlerTimeouts {
        prompt: Duration::from_secs(30),
        agent: Duration::from_secs(60),
        lowered: &[("UserPromptSubmit", Duration::from_secs(30)), ("MessageDisplay", Duration::from_secs(10))],
    },
    exec_placeholders: &["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"],
    inputs: InputRules::Lenient,
    dedupe: Dedupe::IdenticalHandlers,
    session_start_env_file: true,
    events: EventTable {
        session_start: EventRules { context_needs_exit_0: true, ..OBSERVER },
        session_end: OBSERVER,
        subagent_start: OBSERVER,
        subagent_stop: EventRules { block_fields: BlockFields::DecisionOrContinueFalse, exit2: BLOCK, ..BASE },
        user_prompt_submit: EventRules {
            context_needs_exit_0: true,
            run_order: RunOrder::Sequential,
            exit2: BLOCK,
            ..BASE
        },
        pre_tool_use: EventRules {
            precedence: Precedence::MostRestrictive,
            tool_input: ToolInputFlow::Original,
            exit2: BLOCK,
            ..BASE
        },
        post_tool_use: EventRules { exit2: FEEDBACK, ..BASE },
        permission_request: EventRules { run_order: RunOrder::Sequential, exit2: Exit2::Ignored, ..BASE },
        pre_compact: EventRules { block_fields: BlockFields::Decision, exit2: BLOCK, ..BASE },
        stop: EventRules {
            block_fields: BlockFields::DecisionOrContinueFalse,
            run_order: RunOrder::Sequential,
            exit2: BLOCK,
            ..BASE
        },
        notification: EventRules { exit2: Exit2::Ignored, ..BASE },
        post_tool_use_failure: EventRules { exit2: FEEDBACK, ..BASE },
    },
    native_events: &[],
    unknown_event: OBSERVER,
};

const SHAPE: GroupShape = GroupShape { timeout_key: "timeout", claude_fields: true, matcher: Matcher::claude };

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
];

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

impl Claude {
    /// The object whose keys are PascalCase event names.
    fn from_events(obj: &Map<String, Value>, info: &SourceInfo) -> Result<HooksConfig> {
        let source = Arc::new(Source::new(info.clone(), false));
        let mut cfg = HooksConfig::empty_of(&CLAUDE);
        let mut any_event = false;
        for event in HookEvent::ALL {
            if let Some(v) = obj.get(event.name()) {
                any_event = true;
                let groups = protocol::config::parse_groups(&SHAPE, &source, event.name(), v, &mut cfg)?;
                warn_unsupported(&mut cfg, event.name(), &groups);
                cfg.push_groups(event, groups);
            }
        }
        for (key, value) in obj.iter().filter(|(k, _)| HookEvent::from_name(k).is_none()) {
            if HTTP_POLICY_KEYS.contains(&key.as_str()) {
                continue;
            }
            if value.is_array() && !key.trim().is_empty() {
                any_event = true;
                let groups = protocol::config::parse_groups(&SHAPE, &source, key, value, &mut cfg)?;
                warn_unsupported(&mut cfg, key, &groups);
                cfg.push_named(key, groups);
            } else {
                crate::hl_warn!("ignoring unknown key `{key}` in the hooks configuration");
            }
        }
        // An object without any event key (`{}`, `{"hooks": {}}`, a settings
        // file without hooks) is the empty configuration, in the VT Code
        // dialect like an empty TOML document.
        if !any_event {
            return Ok(HooksConfig::empty());
        }
        Ok(cfg)
    }
}

impl Dialect for Claude {
    fn name(&self) -> &'static str {
        "claude"
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
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let parent = path.parent().and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or("");
        (parent == ".claude" && name.starts_with("settings") && name.ends_with(".json"))
            || (parent == "hooks" && name == "hooks.json")
    }

    /// A whole settings.json (`{"hooks": {...}, ...}`; other top-level keys
    /// are other settings) or its `hooks` object alone. A trusted source's
    /// `allowedHttpHookUrls` and `httpHookAllowedEnvVars` restrict http
    /// hooks (an untrusted source's are ignored).
    fn read_json(&self, v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        let Value::Object(top) = v else {
            return Err(cfg_err(format!("hooks configuration must be a JSON object, got {}", type_name(v))));
        };
        let policy = http_policy(top, info)?;
        let mut cfg = match top.get("hooks") {
            Some(Value::Object(hooks)) => Self::from_events(hooks, info),
            Some(other) => Err(cfg_err(format!("hooks must be an object, got {}", type_name(other)))),
            None => Self::from_events(top, info),
        }?;
        cfg.join_http_policy(&policy);
        Ok(cfg)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        std::slice::from_ref(KEYS.get(event))
    }

    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, trigger: &'a str) -> Option<&'a str> {
        protocol::match_subject(event, input, trigger, false)
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        protocol::match_subject_field(event, false)
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

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        protocol::read(cx, exec)
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        protocol::honours(event)
    }

    /// Digest lines without a dialect (the format stored approvals use).
    fn named_in_digest(&self) -> bool {
        false
    }

    fn supports(&self, kind: crate::model::outcome::HookKind, event: &RunEvent) -> bool {
        super::handler_support::claude_supports_on(kind, event)
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
/// (including those this build of hookline does not run), and hookline's
/// `failClosed`.
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
        if !super::handler_support::claude_supports(kind, event) {
            cfg.push_warning(
                hook.path.clone(),
                format!("Claude Code does not run {} hooks on {event}; this hook is skipped", kind.as_str()),
            );
        }
    }
}

/// The PascalCase config key of each event (its canonical name).
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
