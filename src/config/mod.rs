//! The canonical hooks configuration: per event, groups of hooks with their
//! matchers, in configuration order; each hook a handler and the fields
//! every handler shares (`docs/protocol.md`).
//!
//! Configs are *read* by dialects ([`crate::dialect`]): each dialect's
//! reader turns its files into a [`HooksConfig`]. This module holds what
//! every dialect produces and how the configs of several sources join
//! ([`HooksConfig::merge`]); it knows no file format.
//!
//! - [`HooksConfig::from_json_value`], [`from_json_str`](HooksConfig::from_json_str),
//!   [`from_toml_str`](HooksConfig::from_toml_str), [`from_file`](HooksConfig::from_file)
//!   read one config, choosing the dialect as [`crate::dialect::select`] says
//!   (the shape of the JSON, the path of the file);
//!   [`HooksConfig::read`] reads one with a given dialect.
//! - A hook remembers its [`Source`]: the dialect that reads its replies,
//!   whether the source is trusted (runs without workspace approval), its
//!   plugin root, and `quiet_success_output`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::dialect::matcher::Matcher;
use crate::dialect::{self, Dialect};
use crate::error::{Error, Result};
use crate::model::event::HookEvent;
use crate::model::rules::Profile;
use crate::rule::Rule;

/// Largest timeout actually applied; larger configured values are clamped
/// (the configured value is kept as written for the digest).
pub const MAX_TIMEOUT: Duration = Duration::from_secs(u32::MAX as u64);

/// What a dialect's reader is told about the source it reads.
#[derive(Clone, Debug)]
pub struct SourceInfo {
    /// The dialect reading the source.
    pub dialect: &'static dyn Dialect,
    /// The file it comes from, if any.
    pub path: Option<PathBuf>,
    /// Trusted sources (the user's own settings) run without workspace
    /// approval and are not part of the digest.
    pub trusted: bool,
    /// The plugin root of a plugin's hooks (`CLAUDE_PLUGIN_ROOT`).
    pub plugin_root: Option<Arc<str>>,
}

impl SourceInfo {
    /// An untrusted source of `dialect` without a file or plugin root.
    pub fn new(dialect: &'static dyn Dialect) -> SourceInfo {
        SourceInfo { dialect, path: None, trusted: false, plugin_root: None }
    }
}

/// The source of a hook, shared by every hook it configures.
#[derive(Clone, Debug)]
pub struct Source {
    /// Everything the reader was told.
    pub info: SourceInfo,
    /// `quiet_success_output` (VT Code): plain stdout of successful hooks
    /// gives no message.
    pub quiet_success_output: bool,
    /// The directory the source's hooks run in, where the dialect says it
    /// is not the workspace (Cursor: a user's `~/.cursor/hooks.json` runs
    /// in `~/.cursor`); `None`: the workspace.
    pub cwd: Option<PathBuf>,
}

impl Source {
    /// A source with `info` whose hooks run in the workspace.
    pub fn new(info: SourceInfo, quiet_success_output: bool) -> Source {
        Source { info, quiet_success_output, cwd: None }
    }
}

impl Source {
    /// The dialect whose rules read this source's hooks.
    pub fn dialect(&self) -> &'static dyn Dialect {
        self.info.dialect
    }
}

/// What a hook runs: its handler type and the fields that identify it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandlerSpec {
    /// A shell command (`"type": "command"`).
    Command {
        /// The command, exactly as written (run as `/bin/sh -c <command>`).
        command: String,
    },
}

impl HandlerSpec {
    /// The report's `kind` of this handler.
    pub fn kind(&self) -> crate::model::outcome::HookKind {
        match self {
            HandlerSpec::Command { .. } => crate::model::outcome::HookKind::Command,
        }
    }

    /// How messages and reports name the hook: the command text.
    pub fn label(&self) -> &str {
        match self {
            HandlerSpec::Command { command } => command,
        }
    }
}

/// One configured hook.
#[derive(Clone, Debug)]
pub struct HookSpec {
    /// What it runs.
    pub handler: HandlerSpec,
    /// The timeout exactly as written (`timeout_seconds` in VT Code,
    /// `timeout` in Claude Code), in seconds.
    pub timeout_seconds: Option<u64>,
    /// The dialect's timeout for a hook that sets none.
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
    /// The dialect's own event the hook is configured under, when it runs
    /// as part of a canonical event whose own key that is not (Cursor's
    /// `beforeShellExecution` hooks run in PreToolUse, after its own
    /// hooks, for the shell tool only): its payload, matcher subject and
    /// rules are that event's. `None`: the event's own hook.
    pub native_event: Option<&'static str>,
    /// `loop_limit` (Cursor): the most follow-ups the hook may trigger in
    /// one session where the rules count them
    /// ([`EventRules::follow_up_loop_limit`](crate::model::rules::EventRules::follow_up_loop_limit));
    /// `None`: no limit.
    pub loop_limit: Option<u64>,
    /// Where the entry is in its config (`hooks.PreToolUse[0].hooks[1]`).
    pub path: String,
    /// The source it comes from.
    pub source: Arc<Source>,
}

impl HookSpec {
    /// A command hook of an untrusted VT Code source with every optional
    /// field at its default (a 60 s timeout).
    pub fn command(command: impl Into<String>, timeout_seconds: Option<u64>) -> HookSpec {
        HookSpec {
            handler: HandlerSpec::Command { command: command.into() },
            timeout_seconds,
            default_timeout: dialect::VTCODE.profile().default_timeout,
            if_rule: None,
            run_async: false,
            status_message: None,
            fail_closed: false,
            native_event: None,
            loop_limit: None,
            path: String::new(),
            source: Arc::new(Source::new(SourceInfo::new(dialect::VTCODE), false)),
        }
    }

    /// The command text of a command hook, else `None`.
    pub fn command_text(&self) -> Option<&str> {
        match &self.handler {
            HandlerSpec::Command { command } => Some(command),
        }
    }

    /// How messages and reports name the hook.
    pub fn label(&self) -> &str {
        self.handler.label()
    }

    /// The effective timeout: the configured value (clamped to
    /// [`MAX_TIMEOUT`]), else the dialect's default (60 s VT Code, 600 s
    /// Claude Code).
    pub fn timeout(&self) -> Duration {
        match self.timeout_seconds {
            Some(s) => Duration::from_secs(s).min(MAX_TIMEOUT),
            None => self.default_timeout,
        }
    }

    /// What tells the hook apart from every other configured hook, across
    /// reloads of the same config (its file, its place in it, its
    /// command): the key of its follow-up count.
    pub fn identity(&self) -> String {
        let file = self.source.info.path.as_deref().map(|p| p.display().to_string()).unwrap_or_default();
        format!("{file}\n{}\n{}", self.path, self.label())
    }

    /// Whether the hook's source is trusted (runs without approval).
    pub fn trusted(&self) -> bool {
        self.source.info.trusted
    }

    /// The plugin root of the hook's source.
    pub fn plugin_root(&self) -> Option<&str> {
        self.source.info.plugin_root.as_deref()
    }

    /// The dialect whose rules read this hook.
    pub fn dialect(&self) -> &'static dyn Dialect {
        self.source.dialect()
    }
}

/// An event kept by its config key because no canonical event has that
/// key (Claude Code dialect): fired by name.
#[derive(Clone, Debug)]
pub struct NamedEvent {
    /// The config key, exactly as written (e.g. `PostCompact`).
    pub name: String,
    /// Its groups, in configuration order.
    pub groups: Vec<HookGroup>,
}

/// A matcher and the hooks it guards.
#[derive(Clone, Debug)]
pub struct HookGroup {
    /// The matcher exactly as written (untrimmed), `None` when absent.
    pub matcher_raw: Option<String>,
    /// The compiled matcher (the dialect's rule applied).
    pub matcher: Matcher,
    /// The hooks, in configuration order (never empty).
    pub hooks: Vec<HookSpec>,
}

impl HookGroup {
    /// Whether this group runs for a subject from
    /// [`Dialect::match_subject`] (`None` always matches).
    pub fn matches(&self, subject: Option<&str>) -> bool {
        self.matcher.matches_subject(subject)
    }

    /// The dialect of the group's hooks.
    pub fn dialect(&self) -> &'static dyn Dialect {
        self.hooks.first().map_or(dialect::VTCODE, HookSpec::dialect)
    }
}

/// An entry of a config that was skipped, the way the agent itself skips
/// it, with the reason (`hl_engine_config_warnings`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConfigWarning {
    /// The entry's path (`hooks.PreToolUse[0].hooks[1]`), prefixed with the
    /// file when the config came from one.
    pub path: String,
    /// What is wrong and what was done about it.
    pub message: String,
}

/// A validated hooks configuration: per-event groups in configuration order.
#[derive(Clone, Debug)]
pub struct HooksConfig {
    dialect: &'static dyn Dialect,
    groups: [Vec<HookGroup>; 12],
    named: Vec<NamedEvent>,
    warnings: Vec<ConfigWarning>,
}

impl Default for HooksConfig {
    fn default() -> Self {
        Self::empty()
    }
}

impl HooksConfig {
    /// A configuration without any hook (VT Code dialect).
    pub fn empty() -> Self {
        Self::empty_of(dialect::VTCODE)
    }

    /// A configuration of `dialect` without any hook (what a reader starts from).
    pub fn empty_of(dialect: &'static dyn Dialect) -> Self {
        HooksConfig { dialect, groups: std::array::from_fn(|_| Vec::new()), named: Vec::new(), warnings: Vec::new() }
    }

    /// Add the groups of a known event (after those already there).
    pub fn push_groups(&mut self, event: HookEvent, groups: impl IntoIterator<Item = HookGroup>) {
        self.groups[event.index()].extend(groups);
    }

    /// Add the groups of an event kept by a config key no canonical event
    /// has (after those already there under the same key).
    pub fn push_named(&mut self, name: &str, groups: impl IntoIterator<Item = HookGroup>) {
        match self.named.iter_mut().find(|n| n.name == name) {
            Some(existing) => existing.groups.extend(groups),
            None => self.named.push(NamedEvent { name: name.to_owned(), groups: groups.into_iter().collect() }),
        }
    }

    /// Record a skipped entry.
    pub fn push_warning(&mut self, path: impl Into<String>, message: impl Into<String>) {
        let warning = ConfigWarning { path: path.into(), message: message.into() };
        crate::hl_warn!("{}: {}", warning.path, warning.message);
        self.warnings.push(warning);
    }

    /// Join several sources' configurations, in order (user, project,
    /// local, plugins): per event, the groups of the first source, then the
    /// second's, and so on. Each hook keeps its own source (its dialect,
    /// trust and plugin root). The joined config's dialect is the first
    /// non-empty source's.
    pub fn merge(sources: Vec<HooksConfig>) -> HooksConfig {
        let mut out = Self::empty();
        let mut first = true;
        for mut config in sources {
            out.warnings.append(&mut config.warnings);
            if config.is_empty() {
                continue;
            }
            if first {
                out.dialect = config.dialect;
                first = false;
            }
            for (slot, groups) in out.groups.iter_mut().zip(config.groups) {
                slot.extend(groups);
            }
            for named in config.named {
                out.push_named(&named.name, named.groups);
            }
        }
        out
    }

    /// Read a JSON config with `source`'s dialect.
    pub fn read(value: &Value, source: &SourceInfo) -> Result<Self> {
        source.dialect.read_json(value, source)
    }

    /// Parse a JSON configuration, the dialect detected by shape (see
    /// [`crate::dialect::for_shape`]).
    pub fn from_json_value(v: &Value) -> Result<Self> {
        Self::read(v, &SourceInfo::new(dialect::for_shape(v)))
    }

    /// Parse JSON text, the dialect detected by shape; a syntax error is
    /// [`Status::InvalidConfig`](crate::Status::InvalidConfig).
    pub fn from_json_str(text: &str) -> Result<Self> {
        Self::from_json_value(&parse_json_config(text, "hooks configuration")?)
    }

    /// Parse vtcode.toml text (`[hooks.lifecycle]` or `[lifecycle]` tables).
    pub fn from_toml_str(text: &str) -> Result<Self> {
        dialect::VTCODE.read_toml(text, &SourceInfo::new(dialect::VTCODE))
    }

    /// Read a hooks file: `.toml` or `.json` (extension case-insensitive),
    /// its dialect chosen as [`crate::dialect::select`] says. An unreadable
    /// file is [`Status::Io`](crate::Status::Io); another extension is
    /// [`Status::InvalidArgument`](crate::Status::InvalidArgument); anything
    /// wrong inside is [`Status::InvalidConfig`](crate::Status::InvalidConfig).
    pub fn from_file(path: &Path) -> Result<Self> {
        Self::read_file(path, None, false, None)
    }

    /// [`from_file`](Self::from_file) with the source's facts: an explicit
    /// dialect (else recognised by path, else by shape), trust and plugin root.
    pub fn read_file(
        path: &Path,
        explicit: Option<&'static dyn Dialect>,
        trusted: bool,
        plugin_root: Option<Arc<str>>,
    ) -> Result<Self> {
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
            .map_err(|_| Error::invalid_config(format!("hooks_file {} is not valid UTF-8", path.display())))?;
        let source =
            |dialect| SourceInfo { dialect, path: Some(path.to_owned()), trusted, plugin_root: plugin_root.clone() };
        if is_toml {
            let dialect = dialect::select(explicit, Some(path), None);
            dialect.read_toml(&text, &source(dialect))
        } else {
            let value = parse_json_config(&text, "hooks configuration")?;
            let dialect = dialect::select(explicit, Some(path), Some(&value));
            dialect.read_json(&value, &source(dialect))
        }
    }

    /// The dialect the configuration was written in (for a config joined
    /// from several sources: the first non-empty one's).
    pub fn dialect(&self) -> &'static dyn Dialect {
        self.dialect
    }

    /// The profile of the configuration's dialect.
    pub fn profile(&self) -> &'static Profile {
        self.dialect.profile()
    }

    /// Events kept by a config key no canonical event has, in
    /// configuration order.
    pub fn named_events(&self) -> &[NamedEvent] {
        &self.named
    }

    /// The groups of an event given by its name: a known event's groups (by
    /// its PascalCase name), else a named event's, else none.
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

    /// Whether any source sets `quiet_success_output` (VT Code).
    pub fn quiet_success_output(&self) -> bool {
        self.all_groups().flat_map(|g| &g.hooks).any(|h| h.source.quiet_success_output)
    }

    /// Entries skipped while reading (the agent would skip them too).
    pub fn warnings(&self) -> &[ConfigWarning] {
        &self.warnings
    }

    /// True when no hook is configured at all.
    pub fn is_empty(&self) -> bool {
        self.command_count() == 0
    }

    /// Number of configured hooks over all events (named ones included).
    pub fn command_count(&self) -> usize {
        self.all_groups().map(|g| g.hooks.len()).sum()
    }

    /// Every group: the twelve events in `hl_event` order, then the named
    /// ones. The groups of hooks that also run as part of a canonical event
    /// ([`HookSpec::native_event`]) are listed once, under their own named
    /// event.
    pub fn all_groups(&self) -> impl Iterator<Item = &HookGroup> {
        let own = |g: &&HookGroup| g.hooks.first().is_none_or(|h| h.native_event.is_none());
        self.groups.iter().flatten().filter(own).chain(self.named.iter().flat_map(|n| &n.groups))
    }
}

/// Parse config text as JSON; a syntax error is `InvalidConfig`.
pub fn parse_json_config(text: &str, what: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| Error::invalid_config(format!("{what} is not valid JSON: {e}")))
}

/// How error messages name a JSON type (`an object`, `a string`, ...).
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
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
        let h = HookSpec::command("x", None);
        assert_eq!(h.timeout(), Duration::from_secs(60));
        let h = HookSpec::command("x", Some(u64::MAX));
        assert_eq!(h.timeout(), MAX_TIMEOUT);
        let h = HookSpec::command("x", Some(5));
        assert_eq!(h.timeout(), Duration::from_secs(5));
    }

    #[test]
    fn claude_hook_without_timeout_gets_600_seconds_vt_code_60() {
        let c = HooksConfig::from_json_value(&json!({"Stop": [{"hooks": [{"command": "x"}]}]})).unwrap();
        assert_eq!(c.groups(HookEvent::Stop)[0].hooks[0].timeout(), Duration::from_secs(600));
        let c = HooksConfig::from_json_value(&json!({"lifecycle": {"stop": [{"hooks": [{"command": "x"}]}]}})).unwrap();
        assert_eq!(c.groups(HookEvent::Stop)[0].hooks[0].timeout(), Duration::from_secs(60));
    }

    #[test]
    fn sources_of_different_dialects_join_each_hook_keeps_its_own() {
        let vt =
            HooksConfig::from_json_value(&json!({"lifecycle": {"stop": [{"hooks": [{"command": "a"}]}]}})).unwrap();
        let cl = HooksConfig::from_json_value(&json!({"Stop": [{"hooks": [{"command": "b"}]}]})).unwrap();
        let joined = HooksConfig::merge(vec![vt, cl]);
        let names: Vec<&str> = joined.groups(HookEvent::Stop).iter().map(|g| g.dialect().name()).collect();
        assert_eq!(names, ["vtcode", "claude"]);
        assert_eq!(joined.dialect().name(), "vtcode");
    }
}
