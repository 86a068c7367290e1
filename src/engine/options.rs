//! Engine options and setup: `options_json` parsed into [`EngineOptions`],
//! and options plus a parsed configuration turned into the [`Setup`] every
//! run reads (the option rules are in `docs/protocol.md`).

use std::borrow::Cow;
use std::path::PathBuf;

use serde_json::Value;

use std::sync::Arc;

use crate::config::env_policy::{EnvPolicy, EnvSettings};
use crate::config::{HooksConfig, HttpPolicy, SourceInfo};
use crate::dialect::{self, Dialect};
use crate::error::{Error, Result};
use crate::gate::trust::TrustStore;
use crate::gate::CommandSet;
use crate::model::input::{SessionFacts, SessionStartTrigger};
use crate::model::rules::InputRules;

/// Default per-stream output cap (1 MiB).
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 1024 * 1024;

/// Where the hooks configuration comes from (at most one source).
#[derive(Debug, Clone, Default)]
pub enum HooksSource {
    /// No configured hooks: runs are cheap no-ops (callback hooks still run).
    #[default]
    None,
    /// A JSON config (its dialect from the `dialect` option, else by shape).
    Json(Value),
    /// vtcode.toml text.
    Toml(String),
    /// A `.toml` or `.json` file.
    File(PathBuf),
    /// Option `hook_sources`: several configs in one engine, in order.
    Sources(Vec<HookSourceOption>),
}

/// One entry of option `hook_sources`.
#[derive(Debug, Clone)]
pub struct HookSourceOption {
    /// Its config (`hooks`, `hooks_toml` or `hooks_file`; never `None` or `Sources`).
    pub hooks: HooksSource,
    /// Its dialect; `None`: recognised by the file's path, else by shape.
    pub dialect: Option<&'static dyn Dialect>,
    /// Trusted sources run without approval and are not part of the digest.
    pub trusted: bool,
    /// Becomes `CLAUDE_PLUGIN_ROOT` for the source's hooks.
    pub plugin_root: Option<String>,
    /// A policy source (an administrator's file: Copilot CLI's `policy.d`,
    /// Claude Code's managed settings, Cursor's enterprise file): trusted,
    /// its hooks run first, no other source's `disableAllHooks` or switch
    /// turns them off, and a failing one takes its event's blocking
    /// decision ([`SourceInfo::policy`](crate::config::SourceInfo::policy)).
    pub policy: bool,
}

impl HookSourceOption {
    /// An untrusted source without a plugin root, its dialect recognised.
    pub fn new(hooks: HooksSource) -> HookSourceOption {
        HookSourceOption { hooks, dialect: None, trusted: false, plugin_root: None, policy: false }
    }

    /// Whether an invalid config of this source is left out (and reported)
    /// instead of failing the engine: its dialect's rule
    /// ([`Dialect::skips_invalid_source`]), the dialect named or recognised
    /// by the file's path or the JSON's shape.
    fn skips_invalid(&self) -> bool {
        self.known_dialect().is_some_and(|d| d.skips_invalid_source())
    }

    /// The dialect named, or recognised by the file's path or the JSON's
    /// shape.
    fn known_dialect(&self) -> Option<&'static dyn Dialect> {
        self.dialect.or_else(|| match &self.hooks {
            HooksSource::File(p) => dialect::for_path(p),
            HooksSource::Json(v) => Some(dialect::for_shape(v)),
            _ => None,
        })
    }

    /// The file of this source when its dialect loads a file listed twice
    /// only once ([`Dialect::loads_a_file_once`]): its canonical path (else
    /// the path as given).
    fn file_loaded_once(&self) -> Option<PathBuf> {
        let HooksSource::File(p) = &self.hooks else {
            return None;
        };
        self.known_dialect().filter(|d| d.loads_a_file_once())?;
        Some(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
    }
}

impl HooksSource {
    /// Read the configured hooks. `explicit` is the `dialect` option (for
    /// `Sources`, each entry's own `dialect` instead).
    /// `disableAllHooks` is applied once every source is joined.
    fn load(&self, explicit: Option<&'static dyn Dialect>) -> Result<HooksConfig> {
        let config = match self.load_source(explicit, false, None) {
            Err(e) if e.status == crate::Status::InvalidConfig => {
                let dialect = explicit.or_else(|| match self {
                    HooksSource::File(p) => dialect::for_path(p),
                    HooksSource::Json(v) => Some(dialect::for_shape(v)),
                    _ => None,
                });
                // The agent never stops for it: no hooks, and a warning.
                let Some(d) = dialect.filter(|d| d.skips_an_invalid_config_alone()) else {
                    return Err(e);
                };
                let what = match self {
                    HooksSource::File(p) => p.display().to_string(),
                    HooksSource::Toml(_) => "hooks_toml".to_owned(),
                    _ => "hooks".to_owned(),
                };
                let mut skipped = HooksConfig::empty_of(d);
                skipped.push_warning(what, format!("not loaded: {}", e.message));
                skipped
            }
            other => other?,
        };
        let mut config = config.apply_switches();
        config.apply_disable_all_hooks();
        Ok(config.vtcode_when_empty())
    }

    fn load_source(
        &self,
        explicit: Option<&'static dyn Dialect>,
        trusted: bool,
        plugin_root: Option<Arc<str>>,
    ) -> Result<HooksConfig> {
        let info = |dialect: &'static dyn Dialect| SourceInfo {
            dialect: dialect.id(),
            path: None,
            trusted,
            plugin_root: plugin_root.clone(),
            policy: false,
        };
        match self {
            HooksSource::None => Ok(HooksConfig::empty()),
            HooksSource::Json(v) => {
                let d = dialect::select(explicit, None, Some(v));
                d.read_json(v, &info(d))
            }
            HooksSource::Toml(t) => {
                let d = explicit.unwrap_or(dialect::VTCODE);
                d.read_toml(t, &info(d))
            }
            HooksSource::File(p) => {
                let mut config = HooksConfig::read_file(p, explicit, trusted, plugin_root.clone())?;
                config.prefix_warnings(&p.display().to_string());
                Ok(config)
            }
            HooksSource::Sources(sources) => {
                let mut configs = Vec::with_capacity(sources.len());
                let mut loaded: Vec<PathBuf> = Vec::new();
                for (i, source) in sources.iter().enumerate() {
                    if let Some(file) = source.file_loaded_once() {
                        if loaded.contains(&file) {
                            let mut again = HooksConfig::empty();
                            again.push_warning(
                                format!("hook_sources[{i}]"),
                                format!("{} is already loaded by an earlier source: not loaded again", file.display()),
                            );
                            configs.push(again);
                            continue;
                        }
                        loaded.push(file);
                    }
                    let root = source.plugin_root.as_deref().map(Arc::from);
                    match source.hooks.load_source(source.dialect, source.trusted || source.policy, root) {
                        Ok(mut config) => {
                            if source.policy {
                                config.mark_policy();
                            }
                            if !matches!(source.hooks, HooksSource::File(_)) {
                                config.prefix_warnings(&format!("hook_sources[{i}]"));
                            }
                            configs.push(config);
                        }
                        // The agent rejects this one file and loads the others.
                        Err(e) if e.status == crate::Status::InvalidConfig && source.skips_invalid() => {
                            let what = match &source.hooks {
                                HooksSource::File(p) => p.display().to_string(),
                                _ => format!("hook_sources[{i}]"),
                            };
                            let mut skipped = HooksConfig::empty();
                            skipped.push_warning(what, format!("not loaded: {}", e.message));
                            configs.push(skipped);
                        }
                        Err(e) => return Err(Error::new(e.status, format!("hook_sources[{i}]: {}", e.message))),
                    }
                }
                Ok(HooksConfig::merge(configs))
            }
        }
    }
}

/// Option `dialect` (or `hook_sources[i].dialect`): a dialect name, or null.
fn parse_dialect(obj: &serde_json::Map<String, Value>, prefix: &str) -> Result<Option<&'static dyn Dialect>> {
    match obj.get("dialect") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(name)) => dialect::by_name(name)
            .map(Some)
            .map_err(|e| Error::invalid_argument(format!("option `{prefix}dialect`: {}", e.message))),
        Some(_) => Err(Error::invalid_argument(format!(
            "option `{prefix}dialect` must be a string (one of {})",
            dialect::names().join(", ")
        ))),
    }
}

/// The one config of `obj` (`hooks`, `hooks_toml` or `hooks_file`), named
/// with `prefix` in errors; `None` when it has none.
fn one_source(obj: &serde_json::Map<String, Value>, prefix: &str) -> Result<Option<HooksSource>> {
    let opt = |k: &str| obj.get(k).filter(|v| !v.is_null());
    let bad = |field: &str, what: &str| Error::invalid_argument(format!("option `{prefix}{field}` must be {what}"));
    let sources: Vec<&str> = ["hooks", "hooks_toml", "hooks_file"].into_iter().filter(|k| opt(k).is_some()).collect();
    if sources.len() > 1 {
        return Err(Error::invalid_argument(format!(
            "at most one hooks source may be given{}, got {}",
            if prefix.is_empty() { String::new() } else { format!(" in `{}`", prefix.trim_end_matches('.')) },
            sources.join(" and ")
        )));
    }
    if let Some(h) = opt("hooks") {
        if !h.is_object() {
            return Err(bad("hooks", "a JSON object"));
        }
        return Ok(Some(HooksSource::Json(h.clone())));
    }
    if let Some(h) = opt("hooks_toml") {
        return Ok(Some(HooksSource::Toml(h.as_str().ok_or_else(|| bad("hooks_toml", "a string"))?.to_string())));
    }
    if let Some(h) = opt("hooks_file") {
        return Ok(Some(HooksSource::File(PathBuf::from(h.as_str().ok_or_else(|| bad("hooks_file", "a string"))?))));
    }
    Ok(None)
}

/// Option `hook_sources`: an array of `{"hooks"|"hooks_toml"|"hooks_file": …,
/// "trusted": bool, "policy": bool, "plugin_root": str|null, "dialect": str|null}`.
fn parse_sources(v: &Value) -> Result<Vec<HookSourceOption>> {
    let items =
        v.as_array().ok_or_else(|| Error::invalid_argument("option `hook_sources` must be an array of objects"))?;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let prefix = format!("hook_sources[{i}].");
        let obj = item
            .as_object()
            .ok_or_else(|| Error::invalid_argument(format!("option `hook_sources[{i}]` must be an object")))?;
        if let Some(k) = obj.keys().find(|k| !crate::options_check::HOOK_SOURCE_KEYS.contains(&k.as_str())) {
            return Err(Error::invalid_argument(format!("unknown option `{prefix}{k}`")));
        }
        let hooks = one_source(obj, &prefix)?.ok_or_else(|| {
            Error::invalid_argument(format!("option `hook_sources[{i}]` needs one of hooks, hooks_toml, hooks_file"))
        })?;
        let flag = |key: &str| match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(Error::invalid_argument(format!("option `{prefix}{key}` must be a boolean"))),
        };
        // A policy source is trusted, whatever `trusted` says (bindings
        // write `trusted: false` by default).
        let policy = flag("policy")?.unwrap_or(false);
        let trusted = flag("trusted")?.unwrap_or(false) || policy;
        let plugin_root = match obj.get("plugin_root") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if !s.contains('\0') => Some(s.clone()),
            Some(_) => {
                return Err(Error::invalid_argument(format!(
                    "option `{prefix}plugin_root` must be a string without NUL characters, or null"
                )))
            }
        };
        let dialect = parse_dialect(obj, &prefix)?;
        out.push(HookSourceOption { hooks, dialect, trusted, plugin_root, policy });
    }
    Ok(out)
}

/// Engine options, the Rust form of `options_json`.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    pub workspace: PathBuf,
    pub session_id: String,
    pub trigger: SessionStartTrigger,
    /// The `trigger` option as the host wrote it, when it is none of
    /// [`SessionStartTrigger`]'s values: the Claude Code profile accepts
    /// any SessionStart source (`fork`, and those Claude Code adds later);
    /// the VT Code profile rejects it. It replaces `trigger` when set.
    pub trigger_name: Option<String>,
    pub workspace_gated: bool,
    pub hooks: HooksSource,
    /// Option `dialect`: the dialect of `hooks`/`hooks_toml`/`hooks_file`
    /// (`None`: recognised by the file's path, else by shape).
    pub dialect: Option<&'static dyn Dialect>,
    pub transcript_path: Option<String>,
    pub trust_store: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub env_remove: Vec<String>,
    /// Option `hook_env`: the environment policy of every hook.
    pub hook_env: Option<EnvPolicy>,
    /// Option `untrusted_hook_env`: the policy applied over `hook_env` for
    /// hooks of untrusted sources.
    pub untrusted_hook_env: Option<EnvPolicy>,
    pub max_output_bytes: usize,
    /// Option `stop_hook_block_cap`: after this many consecutive stops of a
    /// session that Stop hooks kept from ending, the next stop is allowed
    /// with a warning (Claude Code profile; 0: no cap).
    pub stop_hook_block_cap: u32,
    /// Option `allowed_http_hook_urls`: URL patterns (`*` any text) an
    /// http hook's URL must match (`None`: any URL).
    pub allowed_http_hook_urls: Option<Vec<String>>,
    /// Option `http_hook_allowed_env_vars`: the variables any http hook's
    /// headers may interpolate (`None`: each hook's `allowedEnvVars`).
    pub http_hook_allowed_env_vars: Option<Vec<String>>,
    /// Option `tool_names`: `canonical` (the default) maps the host's
    /// canonical tool names and inputs to each hook's agent; `native`
    /// passes them through unchanged.
    pub tool_names: crate::dialect::tools::ToolNames,
}

/// The default `stop_hook_block_cap` (Claude Code "ends the turn after 8
/// consecutive blocks").
pub const DEFAULT_STOP_HOOK_BLOCK_CAP: u32 = 8;

impl EngineOptions {
    /// Options for a workspace and session with everything else defaulted.
    pub fn new(workspace: impl Into<PathBuf>, session_id: impl Into<String>) -> Self {
        EngineOptions {
            workspace: workspace.into(),
            session_id: session_id.into(),
            trigger: SessionStartTrigger::Startup,
            trigger_name: None,
            workspace_gated: false,
            hooks: HooksSource::None,
            dialect: None,
            transcript_path: None,
            trust_store: None,
            env: Vec::new(),
            env_remove: Vec::new(),
            hook_env: None,
            untrusted_hook_env: None,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            stop_hook_block_cap: DEFAULT_STOP_HOOK_BLOCK_CAP,
            allowed_http_hook_urls: None,
            http_hook_allowed_env_vars: None,
            tool_names: crate::dialect::tools::ToolNames::Canonical,
        }
    }

    /// The SessionStart source the engine reports: `trigger_name` when
    /// set, else `trigger`.
    pub fn trigger_text(&self) -> &str {
        self.trigger_name.as_deref().unwrap_or(self.trigger.as_str())
    }

    /// Parse `options_json` (already parsed to a value). A missing or
    /// mistyped field is `InvalidArgument` naming it; so is an unknown key
    /// (see `options_check.rs`).
    pub fn from_json(v: &Value) -> Result<Self> {
        let obj = v.as_object().ok_or_else(|| Error::invalid_argument("options must be a JSON object"))?;
        crate::options_check::check_options(obj)?;
        let bad = |field: &str, what: &str| Error::invalid_argument(format!("option `{field}` must be {what}"));
        let opt = |k: &str| obj.get(k).filter(|v| !v.is_null());
        let workspace = match obj.get("workspace") {
            Some(Value::String(s)) if !s.is_empty() => PathBuf::from(s),
            None | Some(Value::Null) => return Err(Error::invalid_argument("option `workspace` is required")),
            _ => return Err(bad("workspace", "a non-empty string (a directory path)")),
        };
        let session_id = match obj.get("session_id") {
            Some(Value::String(s)) => s.clone(),
            None | Some(Value::Null) => return Err(Error::invalid_argument("option `session_id` is required")),
            _ => return Err(bad("session_id", "a string")),
        };
        let mut o = EngineOptions::new(workspace, session_id);
        if let Some(t) = opt("trigger") {
            let s = t.as_str().ok_or_else(|| bad("trigger", "a string"))?;
            match SessionStartTrigger::parse(s) {
                Some(trigger) => o.trigger = trigger,
                // Whether another source is accepted depends on the
                // profile of the configuration (`Setup::build`).
                None if !s.trim().is_empty() && !s.contains('\0') => o.trigger_name = Some(s.to_owned()),
                None => return Err(bad("trigger", "a non-empty string without NUL characters")),
            }
        }
        if let Some(g) = opt("workspace_gated") {
            o.workspace_gated = g.as_bool().ok_or_else(|| bad("workspace_gated", "a boolean"))?;
        }
        let single = one_source(obj, "")?;
        o.dialect = parse_dialect(obj, "")?;
        if let Some(sources) = opt("hook_sources") {
            if single.is_some() {
                return Err(Error::invalid_argument(
                    "option `hook_sources` replaces hooks, hooks_toml and hooks_file; give one or the other",
                ));
            }
            if o.dialect.is_some() {
                return Err(Error::invalid_argument(
                    "option `dialect` applies to hooks, hooks_toml and hooks_file; with `hook_sources` give each \
                     source its own `dialect`",
                ));
            }
            o.hooks = HooksSource::Sources(parse_sources(sources)?);
        } else if let Some(single) = single {
            o.hooks = single;
        }
        if let Some(t) = opt("transcript_path") {
            o.transcript_path = Some(t.as_str().ok_or_else(|| bad("transcript_path", "a string or null"))?.to_string());
        }
        if let Some(t) = opt("trust_store") {
            o.trust_store = Some(PathBuf::from(t.as_str().ok_or_else(|| bad("trust_store", "a string or null"))?));
        }
        if let Some(e) = opt("env") {
            let m = e.as_object().ok_or_else(|| bad("env", "an object of strings"))?;
            for (k, v) in m {
                let v = v.as_str().ok_or_else(|| bad(&format!("env.{k}"), "a string"))?;
                o.env.push((k.clone(), v.to_string()));
            }
        }
        if let Some(e) = opt("env_remove") {
            let a = e.as_array().ok_or_else(|| bad("env_remove", "an array of strings"))?;
            for (i, v) in a.iter().enumerate() {
                o.env_remove.push(v.as_str().ok_or_else(|| bad(&format!("env_remove[{i}]"), "a string"))?.to_string());
            }
        }
        if let Some(p) = opt("hook_env") {
            o.hook_env = Some(EnvPolicy::from_json(p, "hook_env")?);
        }
        if let Some(p) = opt("untrusted_hook_env") {
            o.untrusted_hook_env = Some(EnvPolicy::from_json(p, "untrusted_hook_env")?);
        }
        if let Some(m) = opt("max_output_bytes") {
            let n = m.as_u64().filter(|n| *n > 0).ok_or_else(|| bad("max_output_bytes", "a positive integer"))?;
            o.max_output_bytes = usize::try_from(n).unwrap_or(usize::MAX);
        }
        if let Some(c) = opt("stop_hook_block_cap") {
            let n = c
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| bad("stop_hook_block_cap", "a non-negative integer (0: no cap)"))?;
            o.stop_hook_block_cap = n;
        }
        let strings = |field: &str, v: &Value| -> Result<Vec<String>> {
            let items = v.as_array().ok_or_else(|| bad(field, "an array of strings"))?;
            items
                .iter()
                .enumerate()
                .map(|(i, v)| v.as_str().map(str::to_owned).ok_or_else(|| bad(&format!("{field}[{i}]"), "a string")))
                .collect()
        };
        if let Some(v) = opt("allowed_http_hook_urls") {
            o.allowed_http_hook_urls = Some(strings("allowed_http_hook_urls", v)?);
        }
        if let Some(v) = opt("http_hook_allowed_env_vars") {
            o.http_hook_allowed_env_vars = Some(strings("http_hook_allowed_env_vars", v)?);
        }
        if let Some(v) = opt("tool_names") {
            o.tool_names = v
                .as_str()
                .and_then(crate::dialect::tools::ToolNames::parse)
                .ok_or_else(|| bad("tool_names", "\"canonical\" or \"native\""))?;
        }
        Ok(o)
    }
}

fn no_nul(what: &str, s: &str) -> Result<()> {
    if s.contains('\0') {
        Err(Error::invalid_argument(format!("{what} must not contain NUL characters")))
    } else {
        Ok(())
    }
}

/// Everything a run needs from the configuration; swapped whole on reload,
/// so runs in flight keep the snapshot they started with.
pub(crate) struct Setup {
    /// The canonical workspace: the commands' working directory.
    pub(crate) workspace: PathBuf,
    /// The same as UTF-8 text (payload `cwd`, environment).
    pub(crate) workspace_str: String,
    pub(crate) session_id: String,
    /// The SessionStart source (`startup`, ..., or any string where the
    /// Claude Code profile applies).
    pub(crate) trigger: String,
    pub(crate) config: HooksConfig,
    /// The command set the approval gate guards.
    pub(crate) commands: CommandSet,
    pub(crate) env: EnvSettings,
    pub(crate) max_output_bytes: usize,
    pub(crate) stop_hook_block_cap: u32,
    /// The http hook settings: the engine's options joined with those of
    /// the trusted sources.
    pub(crate) http: HttpPolicy,
    /// Option `tool_names`.
    pub(crate) tool_names: crate::dialect::tools::ToolNames,
}

impl Setup {
    /// The run input `input` as the hooks of dialect `d` read it: with the
    /// option `tool_names` canonical, its `tool_name` and `tool_input` in
    /// the agent's name and shape ([`crate::dialect::tools`]); unchanged
    /// with `native`.
    pub(crate) fn native_value<'a>(&self, d: &dyn Dialect, input: &'a Value) -> Cow<'a, Value> {
        match self.tool_names {
            crate::dialect::tools::ToolNames::Native => Cow::Borrowed(input),
            crate::dialect::tools::ToolNames::Canonical => {
                crate::dialect::tools::native_value(d.tool_vocabulary(), input, &self.workspace_str)
            }
        }
    }

    /// [`native_value`](Self::native_value) of an input map.
    pub(crate) fn native_input<'a>(
        &self,
        d: &dyn Dialect,
        input: &'a serde_json::Map<String, Value>,
    ) -> Cow<'a, serde_json::Map<String, Value>> {
        match self.tool_names {
            crate::dialect::tools::ToolNames::Native => Cow::Borrowed(input),
            crate::dialect::tools::ToolNames::Canonical => {
                crate::dialect::tools::native_input(d.tool_vocabulary(), input, &self.workspace_str)
            }
        }
    }

    /// A canonical `tool_input` of tool `name` (a rewrite in force) in the
    /// shape of dialect `d`'s agent (unchanged with `tool_names: native`).
    pub(crate) fn native_tool_input<'a>(&self, d: &dyn Dialect, name: &str, tool_input: &'a Value) -> Cow<'a, Value> {
        match self.tool_names {
            crate::dialect::tools::ToolNames::Native => Cow::Borrowed(tool_input),
            crate::dialect::tools::ToolNames::Canonical => {
                crate::dialect::tools::native_tool_input(d.tool_vocabulary(), name, tool_input, &self.workspace_str)
            }
        }
    }

    /// The session facts every payload carries.
    pub(crate) fn facts<'a>(&'a self, transcript_path: Option<&'a str>) -> SessionFacts<'a> {
        SessionFacts { session_id: &self.session_id, cwd: &self.workspace_str, transcript_path, trigger: &self.trigger }
    }

    pub(crate) fn build(options: &EngineOptions, config: Option<HooksConfig>) -> Result<Setup> {
        let meta = std::fs::metadata(&options.workspace).map_err(|e| {
            Error::invalid_argument(format!(
                "option `workspace` ({}) is not an existing directory: {e}",
                options.workspace.display()
            ))
        })?;
        if !meta.is_dir() {
            return Err(Error::invalid_argument(format!(
                "option `workspace` ({}) is not a directory",
                options.workspace.display()
            )));
        }
        let workspace = std::fs::canonicalize(&options.workspace)
            .map_err(|e| Error::invalid_argument(format!("option `workspace` cannot be resolved: {e}")))?;
        let workspace_str = workspace
            .to_str()
            .ok_or_else(|| Error::invalid_argument("option `workspace` must be a UTF-8 path"))?
            .to_string();
        no_nul("option `session_id`", &options.session_id)?;
        for (k, v) in &options.env {
            if k.is_empty() || k.contains('=') || k.contains('\0') || v.contains('\0') {
                return Err(Error::invalid_argument(format!(
                    "option `env.{k}`: names must be non-empty without '=' or NUL, values without NUL"
                )));
            }
        }
        if let Some(t) = &options.transcript_path {
            no_nul("option `transcript_path`", t)?;
        }
        let config = match config {
            Some(c) => c,
            None => options.hooks.load(options.dialect)?,
        };
        if let Some(name) = &options.trigger_name {
            if !config.is_empty() && config.profile().inputs == InputRules::Strict {
                return Err(Error::invalid_argument(format!(
                    "option `trigger` must be one of {} under the {} profile, got {name:?} (the Claude Code profile \
                     accepts any SessionStart source)",
                    SessionStartTrigger::ALL.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", "),
                    config.dialect().title()
                )));
            }
        }
        let mut http = HttpPolicy {
            allowed_urls: options.allowed_http_hook_urls.clone(),
            allowed_env_vars: options.http_hook_allowed_env_vars.clone(),
        };
        http.join(config.http_policy());
        let trust_store = TrustStore::resolve(options.trust_store.as_deref());
        let env = EnvSettings::new(
            options.env.clone(),
            options.env_remove.clone(),
            options.hook_env.as_ref(),
            options.untrusted_hook_env.as_ref(),
        );
        let commands = CommandSet::with_env(workspace.clone(), options.workspace_gated, &config, trust_store, &env);
        Ok(Setup {
            workspace,
            workspace_str,
            session_id: options.session_id.clone(),
            trigger: options.trigger_text().to_owned(),
            config,
            commands,
            env,
            max_output_bytes: options.max_output_bytes,
            stop_hook_block_cap: options.stop_hook_block_cap,
            http,
            tool_names: options.tool_names,
        })
    }
}
