//! The VT Code dialect: `[hooks.lifecycle]` of a `vtcode.toml`, or the same
//! as JSON (`{"lifecycle": {...}}`, or a whole vtcode.toml as JSON,
//! `{"hooks": {"lifecycle": {...}}}`), with the seed engine's rules.
//!
//! - Event keys are snake_case (`pre_tool_use`, ...); `task_completion` and
//!   `task_completed` are aliases of `stop`, their groups appended after
//!   those of `stop`, in that order. An unknown key is ignored with a
//!   warning in the log (so a typo like `pre_tool_used` is not silently
//!   lost); `quiet_success_output` (boolean) drops the info messages of
//!   successful hooks' plain stdout.
//! - Hooks: `{"type": "command", "command": …, "timeout_seconds": N}` in
//!   matcher groups (`protocol/config.rs`).
//! - Matchers are trimmed; absent, `""` or `"*"` match all; anything else is
//!   a regular expression anchored as `^(?:P)$` ([`Matcher::vtcode`]).
//!   UserPromptSubmit's matcher is tested against the prompt, Stop's
//!   against the literal `stop`.
//! - Mixing `lifecycle` with Claude Code's PascalCase event keys is an
//!   error; an object with both `lifecycle` and `hooks` at the top level is
//!   ambiguous and rejected.
//! - The payload and reading of replies are the hooks protocol's
//!   ([`super::protocol`]); the table below is the seed's rules.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::protocol::env::{protocol_environment, PROTOCOL_ENV_NAMES, PROTOCOL_PLACEHOLDERS};
use super::protocol::{self, config::GroupShape, config::Malformed, Subjects};
use super::{Dialect, Placeholder, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::{type_name, HooksConfig, Source, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::outcome::HookMessageLevel::{Error as ErrorLevel, Warning};
use crate::model::reply::HookReply;
use crate::model::rules::{
    BlockFields, Column, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, FieldMerge, HandlerTimeouts, InputRules,
    OnFailure, Profile, RunOrder, TimeoutUnit, CANONICAL_FAMILIES,
};

/// The VT Code dialect (see the module documentation).
#[derive(Debug)]
pub struct VtCode;

/// The VT Code dialect's value.
pub static VTCODE: VtCode = VtCode;

const OBSERVER: EventRules = EventRules { failure_level: ErrorLevel, ..EventRules::NEUTRAL };
const SEQUENTIAL: EventRules = EventRules { run_order: RunOrder::Sequential, ..EventRules::NEUTRAL };

/// The VT Code profile: the seed's rules.
pub static PROFILE: Profile = Profile {
    name: "vtcode",
    default_timeout: Duration::from_secs(60),
    handler_timeouts: HandlerTimeouts { prompt: Duration::from_secs(60), agent: Duration::from_secs(60), lowered: &[] },
    exec_placeholders: &[],
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Strict,
    dedupe: Dedupe::None,
    dialect_fields: FieldMerge::FirstOrAppended,
    families: CANONICAL_FAMILIES,
    events: EventTable {
        session_start: OBSERVER,
        session_end: OBSERVER,
        subagent_start: OBSERVER,
        subagent_stop: OBSERVER,
        user_prompt_submit: EventRules {
            exit2: Exit2::Block { reason: Exit2Reason::StderrThenStdout, needs_stderr: true },
            failure_level: Warning,
            ..SEQUENTIAL
        },
        pre_tool_use: EventRules {
            on_failure: OnFailure::DenyTimeoutsUnlessAsk,
            exit2: Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: true },
            failure_level: Warning,
            ..SEQUENTIAL
        },
        post_tool_use: EventRules { failure_level: Warning, ..EventRules::NEUTRAL },
        permission_request: EventRules { failure_level: Warning, ..SEQUENTIAL },
        pre_compact: OBSERVER,
        stop: EventRules { block_fields: BlockFields::DecisionOrContinueFalse, failure_level: Warning, ..SEQUENTIAL },
        notification: OBSERVER,
        post_tool_use_failure: EventRules { failure_level: Warning, ..EventRules::NEUTRAL },
    },
    named: &[],
    unknown_event: OBSERVER,
};

/// VT Code's matcher subjects: the prompt, the literal `stop`, `agent_name`.
const SUBJECTS: Subjects = Subjects { prompt_and_stop: true, subagent: "agent_name" };

/// `task_completion` / `task_completed`: aliases of `stop`, appended after
/// `stop` in this order.
const STOP_KEYS: &[&str] = &["stop", "task_completion", "task_completed"];

const SHAPE: GroupShape = GroupShape {
    timeout_key: "timeout_seconds",
    claude_fields: false,
    matcher: |_, raw| Matcher::vtcode(raw),
    malformed: Malformed::Rejects,
};

/// VT Code's tool names (current and legacy).
pub const TOOLS: &[&str] = &[
    "unified_exec",
    "unified_file",
    "unified_search",
    "read_file",
    "write_file",
    "edit_file",
    "create_file",
    "delete_file",
    "move_file",
    "copy_file",
    "search_replace",
    "apply_patch",
    "list_files",
    "grep_file",
    "run_pty_cmd",
    "run_terminal_cmd",
    "exec_pty_cmd",
    "create_pty_session",
    "list_pty_sessions",
    "close_pty_session",
    "send_pty_input",
    "read_pty_session",
    "resize_pty_session",
    "execute_code",
    "shell",
    "web_fetch",
    "fetch",
    "update_plan",
    "search_tools",
    "spawn_subagent",
    "get_errors",
    "list_skills",
    "load_skill",
    "load_skill_resource",
    "ast_grep_search",
    "curl",
    "git_diff",
];

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

/// A `lifecycle` object must not sit next to PascalCase event keys.
fn reject_pascal_keys(obj: &Map<String, Value>) -> Result<()> {
    match obj.keys().find(|k| HookEvent::from_name(k).is_some()) {
        Some(k) => Err(cfg_err(format!(
            "hooks configuration mixes `lifecycle` (VT Code) with the Claude Code event key `{k}`"
        ))),
        None => Ok(()),
    }
}

/// Claude-dialect tables in TOML are rejected.
fn reject_claude_toml(obj: &Map<String, Value>) -> Result<()> {
    match obj.keys().find(|k| HookEvent::from_name(k).is_some()) {
        Some(k) => Err(cfg_err(format!(
            "Claude Code event key `{k}` is not accepted in TOML; use [hooks.lifecycle] with `{}` (a Codex \
             config.toml is read with the dialect option \"codex\", or as .codex/config.toml)",
            HookEvent::from_name(k).map(HookEvent::key).unwrap_or_default()
        ))),
        None => Ok(()),
    }
}

impl VtCode {
    /// The value of `lifecycle` (found at `where_`).
    fn from_lifecycle(lifecycle: &Value, where_: &str, info: &SourceInfo) -> Result<HooksConfig> {
        let Value::Object(obj) = lifecycle else {
            return Err(cfg_err(format!("{where_} must be an object, got {}", type_name(lifecycle))));
        };
        if let Some(k) = obj.keys().find(|k| HookEvent::from_name(k).is_some()) {
            return Err(cfg_err(format!(
                "{where_} mixes VT Code and Claude Code dialects: PascalCase event key `{k}` (use `{}`)",
                HookEvent::from_name(k).map(HookEvent::key).unwrap_or_default()
            )));
        }
        let mut quiet = false;
        let mut cfg = HooksConfig::empty_of(&VTCODE);
        for (key, value) in obj {
            if key == "quiet_success_output" {
                quiet = value.as_bool().ok_or_else(|| {
                    cfg_err(format!("hooks.quiet_success_output must be a boolean, got {}", type_name(value)))
                })?;
            } else if HookEvent::from_key(key).is_none() && !STOP_KEYS.contains(&key.as_str()) {
                let hint = match super::suggest_event_key(&VTCODE, key) {
                    Some(k) => format!("; did you mean `{k}`?"),
                    None => "; it is ignored".to_owned(),
                };
                cfg.push_never_runs(format!("hooks.{key}"), format!("unknown event key `{key}`{hint}"));
            }
        }
        let source = Arc::new(Source::new(info.clone(), quiet));
        for event in HookEvent::ALL {
            for key in VTCODE.event_keys(event) {
                if let Some(v) = obj.get(*key) {
                    let groups = protocol::config::parse_groups(&SHAPE, &source, key, v, &mut cfg)?;
                    cfg.push_groups(event, groups);
                }
            }
        }
        Ok(cfg)
    }
}

impl Dialect for VtCode {
    fn name(&self) -> &'static str {
        "vtcode"
    }

    fn title(&self) -> &'static str {
        "VT Code"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// A `.toml` hooks file is a vtcode.toml.
    fn recognises_path(&self, path: &Path) -> bool {
        path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("toml"))
    }

    fn read_json(&self, v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        let Value::Object(top) = v else {
            return Err(cfg_err(format!("hooks configuration must be a JSON object, got {}", type_name(v))));
        };
        if let Some(lifecycle) = top.get("lifecycle") {
            if top.contains_key("hooks") {
                return Err(cfg_err("hooks configuration has both `lifecycle` and `hooks` at the top level; use one"));
            }
            reject_pascal_keys(top)?;
            return Self::from_lifecycle(lifecycle, "lifecycle", info);
        }
        match top.get("hooks") {
            Some(Value::Object(hooks)) => match hooks.get("lifecycle") {
                Some(lifecycle) => {
                    reject_pascal_keys(hooks)?;
                    reject_pascal_keys(top)?;
                    Self::from_lifecycle(lifecycle, "hooks.lifecycle", info)
                }
                None if hooks.is_empty() => Ok(HooksConfig::empty()),
                None => Err(cfg_err("a VT Code configuration needs `lifecycle` (or `hooks.lifecycle`)")),
            },
            Some(other) => Err(cfg_err(format!("hooks must be an object, got {}", type_name(other)))),
            None if top.is_empty() => Ok(HooksConfig::empty()),
            None => Err(cfg_err("a VT Code configuration needs `lifecycle` (or `hooks.lifecycle`)")),
        }
    }

    /// `[hooks.lifecycle]` tables (a vtcode.toml) or `[lifecycle]` tables
    /// directly. A document without either is an empty configuration;
    /// Claude-dialect (PascalCase) tables are rejected.
    fn read_toml(&self, text: &str, info: &SourceInfo) -> Result<HooksConfig> {
        let doc: toml::Table =
            toml::from_str(text).map_err(|e| cfg_err(format!("hooks TOML is not valid: {}", e.message())))?;
        let v = serde_json::to_value(&doc).map_err(|e| cfg_err(format!("hooks TOML cannot be converted: {e}")))?;
        let Value::Object(top) = &v else {
            return Err(cfg_err("hooks TOML must be a table"));
        };
        reject_claude_toml(top)?;
        let nested = match top.get("hooks") {
            Some(Value::Object(h)) => {
                reject_claude_toml(h)?;
                h.get("lifecycle")
            }
            Some(other) => return Err(cfg_err(format!("hooks must be a table, got {}", type_name(other)))),
            None => None,
        };
        match (nested, top.get("lifecycle")) {
            (Some(_), Some(_)) => Err(cfg_err("hooks TOML has both [hooks.lifecycle] and [lifecycle]; use one")),
            (Some(l), None) => Self::from_lifecycle(l, "hooks.lifecycle", info),
            (None, Some(l)) => Self::from_lifecycle(l, "lifecycle", info),
            (None, None) => Ok(HooksConfig::empty()),
        }
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        match event {
            HookEvent::Stop => STOP_KEYS,
            _ => std::slice::from_ref(KEYS.get(event)),
        }
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
        protocol::read(cx, exec)
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        protocol::honours(PROFILE.family_of(event))
    }

    /// Digest lines without a dialect (the format stored approvals use).
    fn named_in_digest(&self) -> bool {
        false
    }

    fn describe_matcher(&self, matcher: &Matcher, raw: Option<&str>) -> String {
        matcher.describe(self.title(), true, raw)
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn workspace_files(&self) -> &'static [&'static str] {
        &["vtcode.toml"]
    }

    /// `~/.vtcode/vtcode.toml`, read only when the workspace has no
    /// `vtcode.toml` (VT Code loads the first configuration it finds).
    fn user_files(&self, home: &Path) -> Vec<std::path::PathBuf> {
        vec![home.join(".vtcode").join("vtcode.toml")]
    }

    fn user_files_are_a_fallback(&self) -> bool {
        true
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        &["matcher", "hooks"]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        &["type", "command", "timeout_seconds"]
    }
}

/// The snake_case config key of each event.
static KEYS: EventTable<&str> = EventTable {
    session_start: "session_start",
    session_end: "session_end",
    subagent_start: "subagent_start",
    subagent_stop: "subagent_stop",
    user_prompt_submit: "user_prompt_submit",
    pre_tool_use: "pre_tool_use",
    post_tool_use: "post_tool_use",
    permission_request: "permission_request",
    pre_compact: "pre_compact",
    stop: "stop",
    notification: "notification",
    post_tool_use_failure: "post_tool_use_failure",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vt_code_decision_events_are_exactly_the_sequential_ones() {
        for event in HookEvent::ALL {
            assert_eq!(PROFILE.rules(event).run_order == RunOrder::Sequential, event.is_decision_event(), "{event}");
        }
    }

    #[test]
    fn vt_code_keys_are_the_canonical_snake_case_keys() {
        for event in HookEvent::ALL {
            assert_eq!(VTCODE.event_keys(event)[0], event.key());
        }
    }

    #[test]
    fn default_timeout_is_60_seconds() {
        assert_eq!(PROFILE.default_timeout, Duration::from_secs(60));
    }
}
