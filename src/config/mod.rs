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

pub mod env_policy;
mod hook;
pub mod matcher;
pub mod rule;
pub mod windows_shell;

pub use hook::*;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::model::event::HookEvent;

/// Largest timeout actually applied; larger configured values are clamped
/// (the configured value is kept as written for the digest).
pub const MAX_TIMEOUT: Duration = Duration::from_secs(u32::MAX as u64);

/// Which dialect reads a source: an id the dialect registry resolves
/// ([`crate::dialect::of`]). The configuration names a dialect without
/// depending on the dialects' code; a dialect value converts into its id
/// (`From<&D: Dialect>`, [`crate::dialect::Dialect::id`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DialectId {
    name: &'static str,
    variant: u8,
}

impl DialectId {
    /// The VT Code dialect: the default of a configuration that names none.
    pub const VTCODE: DialectId = DialectId::new("vtcode");

    /// The id of the dialect named `name` (`Dialect::name`).
    pub const fn new(name: &'static str) -> DialectId {
        DialectId { name, variant: 0 }
    }

    /// The id of a second value of the dialect named `name` (Copilot CLI's
    /// reader of Claude-format entries): the same dialect, read otherwise.
    pub const fn variant(name: &'static str, variant: u8) -> DialectId {
        DialectId { name, variant }
    }

    /// The dialect's name.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// Whether the two ids name the same dialect (a variant included).
    pub fn same_dialect(self, other: DialectId) -> bool {
        self.name == other.name
    }
}

/// What a dialect's reader is told about the source it reads.
#[derive(Clone, Debug)]
pub struct SourceInfo {
    /// The dialect reading the source (resolved by
    /// [`crate::dialect::of`]; `SourceInfo::dialect()` gives the dialect).
    pub dialect: DialectId,
    /// The file it comes from, if any.
    pub path: Option<PathBuf>,
    /// Trusted sources (the user's own settings) run without workspace
    /// approval and are not part of the digest.
    pub trusted: bool,
    /// The plugin root of a plugin's hooks (`CLAUDE_PLUGIN_ROOT`).
    pub plugin_root: Option<Arc<str>>,
    /// A policy source (an administrator's: Copilot CLI's `policy.d`,
    /// Claude Code's managed settings, Cursor's enterprise file): trusted,
    /// its hooks run first, cannot be turned off by another source's
    /// `disableAllHooks` or switches, and fail closed
    /// ([`HooksConfig::mark_policy`]).
    pub policy: bool,
}

impl SourceInfo {
    /// An untrusted source of `dialect` without a file or plugin root.
    pub fn new(dialect: impl Into<DialectId>) -> SourceInfo {
        SourceInfo { dialect: dialect.into(), path: None, trusted: false, plugin_root: None, policy: false }
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

/// Which http hooks may run and which variables their headers may use:
/// the engine options `allowed_http_hook_urls` / `http_hook_allowed_env_vars`
/// joined with Claude Code's `allowedHttpHookUrls` / `httpHookAllowedEnvVars`
/// of *trusted* settings sources (never an untrusted one). `None`: not
/// restricted. Lists of several places join (Claude Code merges the arrays
/// across settings files); an empty list that is set allows nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpPolicy {
    /// URL patterns (`*` matches any text); an http hook whose URL matches
    /// none is skipped (`"skipped": "url_not_allowed"`).
    pub allowed_urls: Option<Vec<String>>,
    /// The variables any http hook's headers may interpolate (on top of
    /// each hook's own `allowedEnvVars`).
    pub allowed_env_vars: Option<Vec<String>>,
}

impl HttpPolicy {
    /// Join another place's lists into these.
    pub fn join(&mut self, other: &HttpPolicy) {
        fn join_list(into: &mut Option<Vec<String>>, from: &Option<Vec<String>>) {
            if let Some(from) = from {
                let into = into.get_or_insert_with(Vec::new);
                for item in from {
                    if !into.contains(item) {
                        into.push(item.clone());
                    }
                }
            }
        }
        join_list(&mut self.allowed_urls, &other.allowed_urls);
        join_list(&mut self.allowed_env_vars, &other.allowed_env_vars);
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
    /// Whether a malformed hooks entry was left out (a Claude Code settings
    /// file's malformed entry or unknown handler type: `hookline check`
    /// reports it as an error), rather than a note (a warning).
    #[serde(skip)]
    pub entry_skipped: bool,
    /// Whether hooks of the entry can never run as written although they
    /// are kept or the agent keeps them: an unknown event key, an invalid
    /// matcher (`hookline check` reports it as an error).
    #[serde(skip)]
    pub never_runs: bool,
}

/// One line for people: `file: entry: what is wrong`, each part once. The
/// message usually names the entry itself (`hooks.PreToolUse[0] must …`):
/// the path is then not repeated.
impl std::fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (file, entry) = match self.path.rsplit_once(": ") {
            Some((file, entry)) => (Some(file), entry),
            None => (None, self.path.as_str()),
        };
        let named = |part: &str| !part.is_empty() && self.message.starts_with(part);
        match file {
            _ if named(&self.path) => f.write_str(&self.message),
            Some(file) if named(entry) => write!(f, "{file}: {}", self.message),
            _ if self.path.is_empty() => f.write_str(&self.message),
            _ => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

/// Switches of a config source that apply to every hook of its dialect in
/// the engine, across sources (Gemini CLI's `hooksConfig`): applied once
/// the sources are joined ([`HooksConfig::apply_switches`]).
#[derive(Clone, Debug)]
pub struct Switches {
    /// The dialect whose hooks they switch.
    pub dialect: DialectId,
    /// `hooksConfig.enabled`, when the source sets it (the last source that
    /// sets it decides).
    pub enabled: Option<bool>,
    /// `hooksConfig.disabled`: names of hooks that do not run (the union of
    /// every source's); a hook's name is its `name`, else its command.
    pub disabled: Vec<String>,
    /// Where the source sets them (`hooksConfig`, prefixed with its file).
    pub path: String,
}

/// A validated hooks configuration: per-event groups in configuration order.
#[derive(Clone, Debug)]
pub struct HooksConfig {
    dialect: DialectId,
    groups: [Vec<HookGroup>; 12],
    named: Vec<NamedEvent>,
    warnings: Vec<ConfigWarning>,
    http_policy: HttpPolicy,
    switches: Vec<Switches>,
    disable_all_hooks: Option<DisableAllHooks>,
    /// Whether a policy source sets `disableAllHooks: true`: then no hook
    /// runs, policy hooks included (other sources' settings turn off every
    /// hook but the policy hooks).
    disabled_by_policy: bool,
}

/// A source's `disableAllHooks` setting (Claude Code settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DisableAllHooks {
    /// The value the source sets.
    pub value: bool,
    /// Whether the source that sets it is trusted: an untrusted source's
    /// `true` turns off only the hooks of untrusted sources.
    pub trusted: bool,
}

impl Default for HooksConfig {
    fn default() -> Self {
        Self::empty()
    }
}

impl HooksConfig {
    /// A configuration without any hook (VT Code dialect).
    pub fn empty() -> Self {
        Self::empty_of(DialectId::VTCODE)
    }

    /// A configuration of `dialect` without any hook (what a reader starts from).
    pub fn empty_of(dialect: impl Into<DialectId>) -> Self {
        HooksConfig {
            dialect: dialect.into(),
            groups: std::array::from_fn(|_| Vec::new()),
            named: Vec::new(),
            warnings: Vec::new(),
            disable_all_hooks: None,
            disabled_by_policy: false,
            http_policy: HttpPolicy::default(),
            switches: Vec::new(),
        }
    }

    /// Record a source's switches (applied by [`apply_switches`](Self::apply_switches)).
    pub fn push_switches(&mut self, switches: Switches) {
        self.switches.push(switches);
    }

    /// Apply the recorded switches, once every source is joined: a hook of
    /// a dialect whose last `enabled` is false, or whose name is in any of
    /// its dialect's `disabled` lists, is removed (and reported as a
    /// warning); a group left without hooks goes with it. The switches are
    /// consumed, so applying twice changes nothing.
    ///
    /// `title` gives a dialect's name for people, for the warnings (the
    /// dialect registry's `apply_switches` passes it).
    pub fn apply_switches_with(mut self, title: impl Fn(DialectId) -> &'static str) -> Self {
        let switches = std::mem::take(&mut self.switches);
        if switches.is_empty() {
            return self;
        }
        let enabled = |d: DialectId| {
            switches.iter().rev().filter(|s| s.dialect.same_dialect(d)).find_map(|s| s.enabled).unwrap_or(true)
        };
        let disabled = |hook: &HookSpec| {
            switches
                .iter()
                .filter(|s| s.dialect.same_dialect(hook.source.info.dialect))
                .any(|s| s.disabled.iter().any(|n| n == hook.display_name()))
        };
        for s in switches.iter().filter(|s| s.enabled == Some(false)) {
            if !enabled(s.dialect) {
                self.warnings.push(ConfigWarning {
                    path: s.path.clone(),
                    message: format!("`enabled` is false: no {} hook runs", title(s.dialect)),
                    entry_skipped: false,
                    never_runs: false,
                });
            }
        }
        let mut dropped = Vec::new();
        let mut keep = |group: &mut HookGroup| {
            group.hooks.retain(|hook| {
                // A policy hook is never switched off.
                let off = !hook.policy() && (!enabled(hook.source.info.dialect) || disabled(hook));
                if off && enabled(hook.source.info.dialect) {
                    let path = match &hook.source.info.path {
                        Some(file) => format!("{}: {}", file.display(), hook.path),
                        None => hook.path.clone(),
                    };
                    let message = format!("hook `{}` is disabled by `hooksConfig.disabled`", hook.display_name());
                    let warning = ConfigWarning { path, message, entry_skipped: false, never_runs: false };
                    if !dropped.contains(&warning) {
                        dropped.push(warning);
                    }
                }
                !off
            });
            !group.hooks.is_empty()
        };
        for groups in &mut self.groups {
            groups.retain_mut(&mut keep);
        }
        for named in &mut self.named {
            named.groups.retain_mut(&mut keep);
        }
        self.named.retain(|n| !n.groups.is_empty());
        for w in dropped {
            crate::hl_warn!("{}: {}", w.path, w.message);
            self.warnings.push(w);
        }
        self
    }

    /// A configuration without any hook is in the VT Code dialect (like an
    /// empty TOML document: its outcomes have the VT Code shape), whatever
    /// dialect read it; its warnings and `disableAllHooks` are kept.
    pub fn vtcode_when_empty(mut self) -> Self {
        if self.is_empty() {
            self.dialect = DialectId::VTCODE;
            self.groups = std::array::from_fn(|_| Vec::new());
            self.named.clear();
        }
        self
    }

    /// This configuration named as `dialect`'s: a dialect that reads its
    /// files with another dialect's reader (Devin CLI and Factory Droid with
    /// Claude Code's). An empty configuration stays VT Code's.
    pub fn relabel(mut self, dialect: impl Into<DialectId>) -> Self {
        if !self.is_empty() {
            self.dialect = dialect.into();
        }
        self
    }

    /// Keep only the warnings `keep` accepts (a dialect reading its files
    /// with another dialect's reader drops that reader's warnings about
    /// what is its own: Devin CLI's PostCompaction is no Claude Code event).
    pub fn retain_warnings(&mut self, keep: impl FnMut(&ConfigWarning) -> bool) {
        self.warnings.retain(keep);
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

    /// Join the http hook settings of a trusted source (the reader calls
    /// this only for trusted sources).
    pub fn join_http_policy(&mut self, policy: &HttpPolicy) {
        self.http_policy.join(policy);
    }

    /// The http hook settings of the config's trusted sources.
    pub fn http_policy(&self) -> &HttpPolicy {
        &self.http_policy
    }

    /// Record a warning about the configuration (an entry the agent skips
    /// or adjusts, a key it ignores); `hookline check` shows it as a warning.
    pub fn push_warning(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.push(ConfigWarning {
            path: path.into(),
            message: message.into(),
            entry_skipped: false,
            never_runs: false,
        });
    }

    /// Record an entry whose hooks can never run as written (an unknown
    /// event key, an invalid matcher): a note for the engine, an error for
    /// `hookline check`.
    pub fn push_never_runs(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.push(ConfigWarning { path: path.into(), message: message.into(), entry_skipped: false, never_runs: true });
    }

    /// Record a malformed hooks entry that was left out (Claude Code's
    /// settings files): `hookline check` reports it as an error, since the
    /// hook never runs.
    pub fn push_skipped(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.push(ConfigWarning { path: path.into(), message: message.into(), entry_skipped: true, never_runs: false });
    }

    fn push(&mut self, warning: ConfigWarning) {
        crate::hl_warn!("{warning}");
        self.warnings.push(warning);
    }

    /// Prefix the path of every warning (the file, or `hook_sources[i]`)
    /// with `prefix` and `": "`.
    pub fn prefix_warnings(&mut self, prefix: &str) {
        for w in &mut self.warnings {
            w.path = format!("{prefix}: {}", w.path);
        }
    }

    /// Record the source's `disableAllHooks` setting.
    pub fn set_disable_all_hooks(&mut self, setting: DisableAllHooks) {
        self.disable_all_hooks = Some(setting);
    }

    /// The `disableAllHooks` setting in force: the last source's that sets
    /// one (settings precedence: local over project over user).
    pub fn disable_all_hooks(&self) -> Option<DisableAllHooks> {
        self.disable_all_hooks
    }

    /// Apply `disableAllHooks: true`, once every source is joined: set by a
    /// trusted source it turns every hook off; set by an untrusted one (a
    /// repository's settings, which the workspace gate has not approved) it
    /// turns off the hooks of untrusted sources only. Policy hooks stay on
    /// unless a policy source itself sets it ([`mark_policy`](Self::mark_policy)).
    /// `false`, or no setting, changes nothing.
    pub fn apply_disable_all_hooks(&mut self) {
        // A policy source's `true` turns every hook off; another source's
        // turns off every hook but the policy hooks.
        let by_policy = self.disabled_by_policy;
        let trusted = match self.disable_all_hooks {
            _ if by_policy => true,
            Some(DisableAllHooks { value: true, trusted }) => trusted,
            _ => return,
        };
        let keep = |h: &HookSpec| !by_policy && (h.policy() || (!trusted && h.trusted()));
        let strip = |groups: &mut Vec<HookGroup>| {
            for g in groups.iter_mut() {
                g.hooks.retain(keep);
            }
            groups.retain(|g| !g.hooks.is_empty());
        };
        self.groups.iter_mut().for_each(strip);
        for named in &mut self.named {
            strip(&mut named.groups);
        }
        self.named.retain(|n| !n.groups.is_empty());
        crate::hl_debug!(
            "disableAllHooks: true ({} source): {} hook(s) left",
            if trusted { "a trusted" } else { "an untrusted" },
            self.command_count()
        );
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
            // A policy source's setting stands apart from the others'.
            out.disabled_by_policy |= config.disabled_by_policy;
            if config.disable_all_hooks.is_some() {
                out.disable_all_hooks = config.disable_all_hooks;
            }
            out.http_policy.join(&config.http_policy);
            out.switches.append(&mut config.switches);
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
        // Policy sources' groups run first, in their order, whatever their
        // place among the sources (a stable sort).
        let policy_last = |g: &HookGroup| !g.hooks.first().is_some_and(HookSpec::policy);
        for groups in &mut out.groups {
            groups.sort_by_key(policy_last);
        }
        for named in &mut out.named {
            named.groups.sort_by_key(policy_last);
        }
        out
    }

    /// Make this config a policy source's: every hook's source is a policy
    /// source (and trusted), and its `disableAllHooks: true` turns off
    /// every hook, policy hooks included, whatever other sources set (as
    /// Claude Code's managed settings do: "If disableAllHooks is set in
    /// non-managed settings, only managed hooks are returned").
    pub fn mark_policy(&mut self) {
        let mut marked: Vec<(*const Source, Arc<Source>)> = Vec::new();
        let mut mark = |hook: &mut HookSpec| {
            let key = Arc::as_ptr(&hook.source);
            let source = match marked.iter().find(|(k, _)| *k == key) {
                Some((_, s)) => s.clone(),
                None => {
                    let mut s = (*hook.source).clone();
                    s.info.policy = true;
                    s.info.trusted = true;
                    let s = Arc::new(s);
                    marked.push((key, s.clone()));
                    s
                }
            };
            hook.source = source;
        };
        for groups in &mut self.groups {
            groups.iter_mut().flat_map(|g| g.hooks.iter_mut()).for_each(&mut mark);
        }
        for named in &mut self.named {
            named.groups.iter_mut().flat_map(|g| g.hooks.iter_mut()).for_each(&mut mark);
        }
        if let Some(d) = self.disable_all_hooks.take() {
            self.disabled_by_policy = d.value;
        }
    }

    /// The id of the dialect the configuration was written in (for a
    /// config joined from several sources: the first non-empty one's).
    pub fn dialect_id(&self) -> DialectId {
        self.dialect
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
    fn a_warning_line_names_file_and_entry_once() {
        let w = |path: &str, message: &str| {
            ConfigWarning { path: path.into(), message: message.into(), entry_skipped: false, never_runs: false }
                .to_string()
        };
        assert_eq!(
            w("/p/settings.json: hooks.Stop[0]", "hooks.Stop[0] must be an object"),
            "/p/settings.json: hooks.Stop[0] must be an object"
        );
        assert_eq!(w("settings.json", "settings.json: not JSON"), "settings.json: not JSON");
        assert_eq!(w("hooks.Stop[0]", "hooks.Stop[0] must be an object"), "hooks.Stop[0] must be an object");
        assert_eq!(w("/p/a.json: hooks.Stop", "`enabled` is false"), "/p/a.json: hooks.Stop: `enabled` is false");
        assert_eq!(w("", "no hooks"), "no hooks");
    }

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
