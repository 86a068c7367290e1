//! Hooks configuration: both dialects, parsed and validated (`docs/protocol.md`, `docs/profiles.md`).
//!
//! # Accepted shapes
//!
//! **VT Code** (snake_case event keys, `timeout_seconds`, anchored regex
//! matchers):
//!
//! - JSON `{"lifecycle": {"pre_tool_use": [...], "quiet_success_output": false}}`;
//! - JSON of a whole vtcode.toml, `{"hooks": {"lifecycle": {...}}, ...}`
//!   (other top-level keys and other keys of `hooks` are ignored);
//! - TOML text with `[hooks.lifecycle]` tables (a vtcode.toml) or
//!   `[lifecycle]` tables directly ([`HooksConfig::from_toml_str`]).
//!
//! `task_completion` and `task_completed` are aliases of `stop`: their groups
//! are appended after those of `stop`, in that order.
//!
//! **Claude Code** (PascalCase event keys, `timeout`, exact-name/regex
//! matchers):
//!
//! - JSON `{"PreToolUse": [...], ...}`;
//! - JSON of a whole settings.json, `{"hooks": {"PreToolUse": [...]}, ...}`
//!   (other top-level keys are ignored).
//!
//! Claude-dialect TOML is rejected. The dialect is detected by shape: a
//! `lifecycle` key (top level or under `hooks`) means VT Code, anything else
//! Claude Code. `{}`, `{"hooks": {}}` and an empty TOML document are an empty
//! configuration (VT Code dialect, no commands).
//!
//! # Validation
//!
//! Every error is [`Status::InvalidConfig`](crate::Status::InvalidConfig) and names the offending entry with
//! a path that uses the dialect's event key, e.g.
//! `hooks.pre_tool_use[0].hooks[1] must specify a command` or
//! `Invalid matcher in hooks.PreToolUse[0]: <regex error>`. Errors: a group
//! without `hooks` or with an empty `hooks` array; a missing, empty or blank
//! `command`; a hook `type` other than `"command"` (a missing `type` means
//! `command`); a `timeout_seconds` / `timeout` that is not a positive
//! integer; a matcher that does not compile; JSON values of the wrong type
//! (event value not an array, group or hook not an object, matcher or command
//! not a string, `quiet_success_output` not a boolean); mixing `lifecycle`
//! with PascalCase event keys.
//!
//! # Claude Code hook fields
//!
//! In the Claude Code dialect (whose profile reads them, see
//! [`crate::profile`]) a hook may also set `if` (a permission rule, see
//! [`crate::rule`]; a malformed one is an error), `async` (boolean),
//! `statusMessage` (string) and `failClosed` (boolean, a hookline
//! extension); other types are errors. An event key the dialect does not
//! know whose value is an array is kept as a *named event*
//! ([`HooksConfig::named_events`]), validated like any event, fired by name
//! and part of the digest; a non-array value under an unknown key is
//! ignored with a warning (it is some other setting).
//!
//! # Several sources
//!
//! [`HooksConfig::merge`] joins the configurations of several sources (user,
//! project, local, plugin settings) into one, in order: each command
//! remembers whether its source is trusted and its source's plugin root.
//!
//! Choices where the contract is silent (documented on purpose):
//!
//! - Unknown keys are ignored everywhere, as VT Code's and Claude Code's own
//!   parsers do. An unknown *event* key is ignored with a warning in the log
//!   (so a typo like `pre_tool_used` does not silently pass unnoticed) in
//!   the VT Code dialect; the Claude Code dialect keeps it (see above).
//! - A `null` matcher is the same as an absent one; `null` elsewhere is a
//!   type error.
//! - A top-level object with both `lifecycle` and `hooks` is ambiguous and
//!   rejected.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::event::HookEvent;
use crate::matcher::Matcher;
use crate::profile::Profile;
use crate::rule::Rule;

/// Default timeout of a command hook in the VT Code profile (the Claude
/// Code profile's is 600 s; see [`Profile::default_timeout`]).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Largest timeout actually applied; larger configured values are clamped
/// (the configured value is kept as written for the digest).
pub const MAX_TIMEOUT: Duration = Duration::from_secs(u32::MAX as u64);

/// The configuration dialect, which decides the matcher rule and the
/// matcher subject of some events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// VT Code `[hooks.lifecycle]` configuration.
    VtCode,
    /// Claude Code settings `hooks`.
    Claude,
}

/// One configured shell command.
#[derive(Clone, Debug)]
pub struct CommandHook {
    /// The command, exactly as written (run as `/bin/sh -c <command>`).
    pub command: String,
    /// `timeout_seconds` (VT Code) or `timeout` (Claude), exactly as written.
    pub timeout_seconds: Option<u64>,
    /// The profile's timeout for a hook that sets none.
    pub default_timeout: Duration,
    /// `if` (Claude Code): the hook runs only for tool calls matching it.
    pub if_rule: Option<Rule>,
    /// `async: true` (Claude Code): the run does not wait for the hook.
    pub run_async: bool,
    /// `statusMessage` (Claude Code), copied into the hook's report.
    pub status_message: Option<String>,
    /// `failClosed: true` (hookline extension): a failure takes the event's
    /// blocking decision instead of failing open.
    pub fail_closed: bool,
    /// Whether the hook's source is trusted (runs without workspace
    /// approval and is not part of the digest). False unless the engine
    /// was given `hook_sources`.
    pub trusted: bool,
    /// The plugin root of the hook's source (`CLAUDE_PLUGIN_ROOT`).
    pub plugin_root: Option<Arc<str>>,
}

impl CommandHook {
    /// A command with every optional field at its default (the VT Code
    /// profile's 60 s timeout).
    pub fn new(command: impl Into<String>, timeout_seconds: Option<u64>) -> CommandHook {
        CommandHook {
            command: command.into(),
            timeout_seconds,
            default_timeout: DEFAULT_TIMEOUT,
            if_rule: None,
            run_async: false,
            status_message: None,
            fail_closed: false,
            trusted: false,
            plugin_root: None,
        }
    }

    /// The effective timeout: the configured value (clamped to
    /// [`MAX_TIMEOUT`]), else the profile's default (60 s VT Code, 600 s
    /// Claude Code).
    pub fn timeout(&self) -> Duration {
        match self.timeout_seconds {
            Some(s) => Duration::from_secs(s).min(MAX_TIMEOUT),
            None => self.default_timeout,
        }
    }
}

/// An event kept by its config key because the dialect does not know it
/// (Claude Code dialect): fired by name.
#[derive(Clone, Debug)]
pub struct NamedEvent {
    /// The config key, exactly as written (e.g. `PostCompact`).
    pub name: String,
    /// Its groups, in configuration order.
    pub groups: Vec<HookGroup>,
}

/// A matcher and the commands it guards.
#[derive(Clone, Debug)]
pub struct HookGroup {
    /// The matcher exactly as written (untrimmed), `None` when absent.
    pub matcher_raw: Option<String>,
    /// The compiled matcher (dialect rule applied).
    pub matcher: Matcher,
    /// The commands, in configuration order (never empty).
    pub hooks: Vec<CommandHook>,
}

impl HookGroup {
    /// Whether this group runs for a subject from
    /// [`crate::matcher::match_subject`] (`None` always matches).
    pub fn matches(&self, subject: Option<&str>) -> bool {
        self.matcher.matches_subject(subject)
    }
}

/// A validated hooks configuration: per-event groups in configuration order.
#[derive(Clone, Debug)]
pub struct HooksConfig {
    dialect: Dialect,
    groups: [Vec<HookGroup>; 12],
    named: Vec<NamedEvent>,
    quiet_success_output: bool,
}

impl Default for HooksConfig {
    fn default() -> Self {
        Self::empty()
    }
}

/// `task_completion` / `task_completed`: VT Code aliases of `stop`, appended
/// after `stop` in this order.
const STOP_ALIASES: [&str; 2] = ["task_completion", "task_completed"];

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl HooksConfig {
    /// A configuration without any hook (VT Code dialect).
    pub fn empty() -> Self {
        HooksConfig {
            dialect: Dialect::VtCode,
            groups: std::array::from_fn(|_| Vec::new()),
            named: Vec::new(),
            quiet_success_output: false,
        }
    }

    /// Join several sources' configurations, in order (user, project,
    /// local, plugins): per event, the groups of the first source, then the
    /// second's, and so on. Each source's commands take its `trusted` flag
    /// and `plugin_root`. Sources must share one dialect (empty ones do not
    /// count); otherwise `InvalidConfig`. `quiet_success_output` holds when
    /// any source sets it.
    pub fn merge(sources: Vec<(HooksConfig, bool, Option<String>)>) -> Result<HooksConfig> {
        let mut out = Self::empty();
        let mut dialect = None;
        for (i, (config, trusted, plugin_root)) in sources.into_iter().enumerate() {
            if config.is_empty() {
                continue;
            }
            match dialect {
                None => dialect = Some(config.dialect),
                Some(d) if d != config.dialect => {
                    return Err(cfg_err(format!(
                        "hook_sources[{i}] is in a different configuration dialect than the sources before it"
                    )))
                }
                Some(_) => {}
            }
            let root: Option<Arc<str>> = plugin_root.map(Arc::from);
            let mark = |mut group: HookGroup| {
                for hook in &mut group.hooks {
                    hook.trusted = trusted;
                    hook.plugin_root = root.clone();
                }
                group
            };
            out.quiet_success_output |= config.quiet_success_output;
            for (slot, groups) in out.groups.iter_mut().zip(config.groups) {
                slot.extend(groups.into_iter().map(mark));
            }
            for named in config.named {
                let groups = named.groups.into_iter().map(mark);
                match out.named.iter_mut().find(|n| n.name == named.name) {
                    Some(existing) => existing.groups.extend(groups),
                    None => out.named.push(NamedEvent { name: named.name, groups: groups.collect() }),
                }
            }
        }
        out.dialect = dialect.unwrap_or(Dialect::VtCode);
        Ok(out)
    }

    /// Parse a JSON configuration of either dialect, detected by shape (see
    /// the module documentation).
    pub fn from_json_value(v: &Value) -> Result<Self> {
        let Value::Object(top) = v else {
            return Err(cfg_err(format!("hooks configuration must be a JSON object, got {}", type_name(v))));
        };
        if let Some(lifecycle) = top.get("lifecycle") {
            if top.contains_key("hooks") {
                return Err(cfg_err("hooks configuration has both `lifecycle` and `hooks` at the top level; use one"));
            }
            reject_pascal_keys(top)?;
            return Self::from_lifecycle(lifecycle, "lifecycle");
        }
        if let Some(hooks) = top.get("hooks") {
            let Value::Object(hooks_obj) = hooks else {
                return Err(cfg_err(format!("hooks must be an object, got {}", type_name(hooks))));
            };
            if let Some(lifecycle) = hooks_obj.get("lifecycle") {
                reject_pascal_keys(hooks_obj)?;
                reject_pascal_keys(top)?;
                return Self::from_lifecycle(lifecycle, "hooks.lifecycle");
            }
            return Self::from_claude(hooks_obj);
        }
        Self::from_claude(top)
    }

    /// Parse JSON text of either dialect; a syntax error is
    /// [`Status::InvalidConfig`](crate::Status::InvalidConfig).
    pub fn from_json_str(text: &str) -> Result<Self> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| cfg_err(format!("hooks configuration is not valid JSON: {e}")))?;
        Self::from_json_value(&v)
    }

    /// Parse vtcode.toml text: `[hooks.lifecycle]` tables or `[lifecycle]`
    /// tables directly. A document without either is an empty configuration;
    /// Claude-dialect (PascalCase) tables are rejected.
    pub fn from_toml_str(text: &str) -> Result<Self> {
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
            (Some(l), None) => Self::from_lifecycle(l, "hooks.lifecycle"),
            (None, Some(l)) => Self::from_lifecycle(l, "lifecycle"),
            (None, None) => Ok(Self::empty()),
        }
    }

    /// Read a hooks file: `.toml` is a vtcode.toml, `.json` is JSON of either
    /// dialect (extension case-insensitive). An unreadable file is
    /// [`Status::Io`](crate::Status::Io); another extension is [`Status::InvalidArgument`](crate::Status::InvalidArgument);
    /// anything wrong inside is [`Status::InvalidConfig`](crate::Status::InvalidConfig).
    pub fn from_file(path: &Path) -> Result<Self> {
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        let is_toml = match ext.as_deref() {
            Some("toml") => true,
            Some("json") => false,
            _ => {
                return Err(Error::invalid_argument(format!(
                    "hooks_file must end in .toml or .json: {}",
                    path.display()
                )))
            }
        };
        let bytes =
            std::fs::read(path).map_err(|e| Error::io(format!("cannot read hooks_file {}: {e}", path.display())))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| cfg_err(format!("hooks_file {} is not valid UTF-8", path.display())))?;
        if is_toml {
            Self::from_toml_str(&text)
        } else {
            Self::from_json_str(&text)
        }
    }

    /// The dialect the configuration was written in.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The profile of the configuration's dialect.
    pub fn profile(&self) -> &'static Profile {
        Profile::of(self.dialect)
    }

    /// Events kept by a config key the dialect does not know (Claude Code
    /// dialect), in configuration order.
    pub fn named_events(&self) -> &[NamedEvent] {
        &self.named
    }

    /// The groups of an event given by its config key: a known event's
    /// groups (by its PascalCase name), else a named event's, else none.
    pub fn groups_named(&self, name: &str) -> &[HookGroup] {
        match HookEvent::from_name(name) {
            Some(event) => self.groups(event),
            None => self.named.iter().find(|n| n.name == name).map_or(&[], |n| &n.groups),
        }
    }

    /// The groups of `event`, in configuration order (for `stop` in the VT
    /// Code dialect: `stop`, then `task_completion`, then `task_completed`).
    pub fn groups(&self, event: HookEvent) -> &[HookGroup] {
        &self.groups[event.index()]
    }

    /// `quiet_success_output` (VT Code dialect; always false for Claude).
    pub fn quiet_success_output(&self) -> bool {
        self.quiet_success_output
    }

    /// True when no command is configured at all.
    pub fn is_empty(&self) -> bool {
        self.command_count() == 0
    }

    /// Number of configured commands over all events (named ones included).
    pub fn command_count(&self) -> usize {
        self.groups.iter().flatten().chain(self.named.iter().flat_map(|n| &n.groups)).map(|g| g.hooks.len()).sum()
    }

    /// VT Code dialect: the value of `lifecycle` (found at `where_`).
    fn from_lifecycle(lifecycle: &Value, where_: &str) -> Result<Self> {
        let Value::Object(obj) = lifecycle else {
            return Err(cfg_err(format!("{where_} must be an object, got {}", type_name(lifecycle))));
        };
        if let Some(k) = obj.keys().find(|k| HookEvent::from_name(k).is_some()) {
            return Err(cfg_err(format!(
                "{where_} mixes VT Code and Claude Code dialects: PascalCase event key `{k}` \
                 (use `{}`)",
                HookEvent::from_name(k).map(HookEvent::key).unwrap_or_default()
            )));
        }
        let mut cfg = Self::empty();
        for (key, value) in obj {
            if key == "quiet_success_output" {
                cfg.quiet_success_output = value.as_bool().ok_or_else(|| {
                    cfg_err(format!("hooks.quiet_success_output must be a boolean, got {}", type_name(value)))
                })?;
            } else if HookEvent::from_key(key).is_none() && !STOP_ALIASES.contains(&key.as_str()) {
                crate::hl_warn!("ignoring unknown key `{key}` in the hooks configuration");
            }
        }
        for event in HookEvent::ALL {
            let mut keys = vec![event.key()];
            if event == HookEvent::Stop {
                keys.extend(STOP_ALIASES);
            }
            for key in keys {
                if let Some(v) = obj.get(key) {
                    let groups = parse_groups(Dialect::VtCode, key, v)?;
                    cfg.groups[event.index()].extend(groups);
                }
            }
        }
        Ok(cfg)
    }

    /// Claude dialect: the object whose keys are PascalCase event names.
    fn from_claude(obj: &Map<String, Value>) -> Result<Self> {
        let mut cfg = Self::empty();
        cfg.dialect = Dialect::Claude;
        for event in HookEvent::ALL {
            if let Some(v) = obj.get(event.name()) {
                cfg.groups[event.index()] = parse_groups(Dialect::Claude, event.name(), v)?;
            }
        }
        let keeps = Profile::of(Dialect::Claude).keeps_unknown_events;
        for (key, value) in obj.iter().filter(|(k, _)| HookEvent::from_name(k).is_none()) {
            if keeps && value.is_array() && !key.trim().is_empty() {
                let groups = parse_groups(Dialect::Claude, key, value)?;
                cfg.named.push(NamedEvent { name: key.clone(), groups });
            } else {
                crate::hl_warn!("ignoring unknown key `{key}` in the hooks configuration");
            }
        }
        // An object without any event key (`{}`, `{"hooks": {}}`) is the
        // empty configuration, in the VT Code dialect like an empty TOML document.
        if cfg.named.is_empty() && !obj.keys().any(|k| HookEvent::from_name(k).is_some()) {
            return Ok(Self::empty());
        }
        Ok(cfg)
    }
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
            "Claude Code event key `{k}` is not accepted in TOML; use [hooks.lifecycle] with `{}`",
            HookEvent::from_name(k).map(HookEvent::key).unwrap_or_default()
        ))),
        None => Ok(()),
    }
}

fn parse_groups(dialect: Dialect, key: &str, v: &Value) -> Result<Vec<HookGroup>> {
    let Value::Array(items) = v else {
        return Err(cfg_err(format!("hooks.{key} must be an array, got {}", type_name(v))));
    };
    items.iter().enumerate().map(|(i, g)| parse_group(dialect, &format!("hooks.{key}[{i}]"), g)).collect()
}

fn parse_group(dialect: Dialect, path: &str, v: &Value) -> Result<HookGroup> {
    let Value::Object(obj) = v else {
        return Err(cfg_err(format!("{path} must be an object, got {}", type_name(v))));
    };
    let matcher_raw = match obj.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => return Err(cfg_err(format!("{path}.matcher must be a string, got {}", type_name(other)))),
    };
    let matcher = Matcher::for_dialect(dialect, matcher_raw.as_deref())
        .map_err(|e| cfg_err(format!("Invalid matcher in {path}: {e}")))?;
    let hooks = match obj.get("hooks") {
        None | Some(Value::Null) => {
            return Err(cfg_err(format!("{path} must define at least one hook command in `hooks`")))
        }
        Some(Value::Array(a)) if a.is_empty() => {
            return Err(cfg_err(format!("{path} must define at least one hook command in `hooks`")))
        }
        Some(Value::Array(a)) => a,
        Some(other) => return Err(cfg_err(format!("{path}.hooks must be an array, got {}", type_name(other)))),
    };
    let hooks = hooks
        .iter()
        .enumerate()
        .map(|(j, h)| parse_hook(dialect, &format!("{path}.hooks[{j}]"), h))
        .collect::<Result<Vec<_>>>()?;
    Ok(HookGroup { matcher_raw, matcher, hooks })
}

fn parse_hook(dialect: Dialect, path: &str, v: &Value) -> Result<CommandHook> {
    let Value::Object(obj) = v else {
        return Err(cfg_err(format!("{path} must be an object, got {}", type_name(v))));
    };
    match obj.get("type") {
        None => {}
        Some(Value::String(t)) if t == "command" => {}
        Some(Value::String(t)) => {
            return Err(cfg_err(format!("{path} has unsupported type \"{t}\" (only \"command\" is supported)")))
        }
        Some(other) => return Err(cfg_err(format!("{path}.type must be a string, got {}", type_name(other)))),
    }
    let command = match obj.get("command") {
        Some(Value::String(c)) if !c.trim().is_empty() => c.clone(),
        None | Some(Value::String(_)) => return Err(cfg_err(format!("{path} must specify a command"))),
        Some(other) => return Err(cfg_err(format!("{path}.command must be a string, got {}", type_name(other)))),
    };
    let timeout_key = match dialect {
        Dialect::VtCode => "timeout_seconds",
        Dialect::Claude => "timeout",
    };
    let timeout_seconds = match obj.get(timeout_key) {
        None => None,
        Some(t) => match t.as_u64() {
            Some(n) if n > 0 => Some(n),
            _ => return Err(cfg_err(format!("{path}.{timeout_key} must be a positive integer, got {t}"))),
        },
    };
    let profile = Profile::of(dialect);
    let mut hook = CommandHook::new(command, timeout_seconds);
    hook.default_timeout = profile.default_timeout;
    if profile.reads_claude_hook_fields {
        let flag = |key: &str| -> Result<bool> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(other) => Err(cfg_err(format!("{path}.{key} must be a boolean, got {}", type_name(other)))),
            }
        };
        hook.run_async = flag("async")?;
        hook.fail_closed = flag("failClosed")?;
        hook.status_message = match obj.get("statusMessage") {
            None | Some(Value::Null) => None,
            Some(Value::String(m)) => Some(m.clone()),
            Some(other) => {
                return Err(cfg_err(format!("{path}.statusMessage must be a string, got {}", type_name(other))))
            }
        };
        hook.if_rule = match obj.get("if") {
            None | Some(Value::Null) => None,
            Some(Value::String(rule)) => {
                Some(Rule::parse(rule).map_err(|e| cfg_err(format!("Invalid if condition in {path}: {e}")))?)
            }
            Some(other) => return Err(cfg_err(format!("{path}.if must be a string, got {}", type_name(other)))),
        };
    }
    Ok(hook)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Status;
    use serde_json::json;

    #[test]
    fn status_of_validation_errors_is_invalid_config() {
        let e = HooksConfig::from_json_value(&json!({"lifecycle": {"stop": 3}})).unwrap_err();
        assert_eq!(e.status, Status::InvalidConfig);
    }

    #[test]
    fn timeout_defaults_to_60_and_is_clamped() {
        let h = CommandHook::new("x", None);
        assert_eq!(h.timeout(), Duration::from_secs(60));
        let h = CommandHook::new("x", Some(u64::MAX));
        assert_eq!(h.timeout(), MAX_TIMEOUT);
        let h = CommandHook::new("x", Some(5));
        assert_eq!(h.timeout(), Duration::from_secs(5));
    }

    #[test]
    fn claude_hook_without_timeout_gets_600_seconds_vt_code_60() {
        let c = HooksConfig::from_json_value(&json!({"Stop": [{"hooks": [{"command": "x"}]}]})).unwrap();
        assert_eq!(c.groups(HookEvent::Stop)[0].hooks[0].timeout(), Duration::from_secs(600));
        let c = HooksConfig::from_json_value(&json!({"lifecycle": {"stop": [{"hooks": [{"command": "x"}]}]}})).unwrap();
        assert_eq!(c.groups(HookEvent::Stop)[0].hooks[0].timeout(), Duration::from_secs(60));
    }
}
