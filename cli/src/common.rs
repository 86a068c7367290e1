//! What every subcommand shares: output (colour, `--quiet`), event names,
//! inputs, loading and merging configs, building an engine, and reading an
//! outcome's verdict.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use hookline::config::HooksConfig;
use hookline::dialect::Dialect;
use hookline::engine::HookSourceOption;
use hookline::{EngineOptions, HookEvent, HooksSource, LifecycleHookEngine, SessionStartTrigger};
use serde_json::{Map, Value};

use crate::ConfigArgs;

/// Exit status: proceed / success.
pub const EXIT_OK: u8 = 0;
/// Exit status: an error (bad config, bad input, a failed check or case).
pub const EXIT_ERROR: u8 = 1;
/// Exit status: the run was denied or blocked.
pub const EXIT_BLOCKED: u8 = 2;

/// Session id of engines the command builds when neither `--session-id`
/// nor the input's `session_id` gives one.
pub const DEFAULT_SESSION_ID: &str = "hookline-cli";

/// A subcommand's result: an exit status, or an error message (exit 1).
pub type CliResult = Result<u8, String>;

/// Output helpers: colour only on a terminal and without `NO_COLOR`.
pub struct Out {
    pub quiet: bool,
    color_out: bool,
    color_err: bool,
}

fn env_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

/// Colour when the stream is a terminal (or `CLICOLOR_FORCE` is set), never
/// when `NO_COLOR` is set (<https://no-color.org>).
fn color_for(is_terminal: bool) -> bool {
    !env_set("NO_COLOR") && (is_terminal || env_set("CLICOLOR_FORCE"))
}

impl Out {
    pub fn new(quiet: bool) -> Out {
        Out {
            quiet,
            color_out: color_for(std::io::stdout().is_terminal()),
            color_err: color_for(std::io::stderr().is_terminal()),
        }
    }

    /// Paint `s` with an SGR code when stdout gets colour.
    pub fn paint(&self, code: &str, s: &str) -> String {
        if self.color_out {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
    pub fn green(&self, s: &str) -> String {
        self.paint("32", s)
    }
    pub fn red(&self, s: &str) -> String {
        self.paint("31", s)
    }
    pub fn yellow(&self, s: &str) -> String {
        self.paint("33", s)
    }
    pub fn dim(&self, s: &str) -> String {
        self.paint("2", s)
    }
    pub fn bold(&self, s: &str) -> String {
        self.paint("1", s)
    }

    /// Print a line on stdout (always; callers decide about `--quiet`).
    pub fn line(&self, s: &str) {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{s}");
    }

    /// Paint `s` with an SGR code when stderr gets colour.
    pub fn paint_err(&self, code: &str, s: &str) -> String {
        if self.color_err {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }

    /// Print a line on stderr.
    pub fn err_line(&self, s: &str) {
        let mut o = std::io::stderr().lock();
        let _ = writeln!(o, "{s}");
    }

    /// `hookline: warning: msg` on stderr (silenced by `--quiet`).
    pub fn warning(&self, msg: &str) {
        if self.quiet {
            return;
        }
        let label = if self.color_err { "\x1b[33mwarning\x1b[0m" } else { "warning" };
        eprintln!("hookline: {label}: {msg}");
    }

    /// `hookline: error: msg` on stderr (never silenced).
    pub fn error(&self, msg: &str) {
        let label = if self.color_err { "\x1b[31merror\x1b[0m" } else { "error" };
        eprintln!("hookline: {label}: {msg}");
    }
}

/// An event given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventName {
    /// One of the twelve known events.
    Known(HookEvent),
    /// Any other name (a named event: its config key).
    Named(String),
}

impl EventName {
    /// A known event by PascalCase name (`PreToolUse`), snake_case key
    /// (`pre_tool_use`, and the VT Code aliases `task_completion` /
    /// `task_completed` of `stop`) or another dialect's key of it (Gemini
    /// CLI's `BeforeTool`, `AfterTool` as PostToolUse); any other non-blank
    /// name is a named event.
    pub fn parse(s: &str) -> Result<EventName, String> {
        let s = s.trim();
        if s.is_empty() {
            return Err("the event name is empty".into());
        }
        if let Some(e) = HookEvent::from_name(s).or_else(|| HookEvent::from_key(s)) {
            return Ok(EventName::Known(e));
        }
        // A dialect's own key of a known event (`preToolUse`, `agentStop`).
        let by_key = HookEvent::ALL
            .iter()
            .copied()
            .find(|e| hookline::dialect::ALL.iter().any(|d| d.event_keys(*e).contains(&s)));
        if let Some(e) = by_key {
            return Ok(EventName::Known(e));
        }
        if s == "task_completion" || s == "task_completed" {
            return Ok(EventName::Known(HookEvent::Stop));
        }
        Ok(EventName::Named(s.to_owned()))
    }

    /// The known event, if it is one.
    pub fn known(&self) -> Option<HookEvent> {
        match self {
            EventName::Known(e) => Some(*e),
            EventName::Named(_) => None,
        }
    }

    /// The name to show: PascalCase for a known event, else as given.
    pub fn display(&self) -> &str {
        match self {
            EventName::Known(e) => e.name(),
            EventName::Named(n) => n,
        }
    }
}

/// Fire an event: a known one with its rules, any other name as a named
/// event (its config key's hooks, observer rules; the matcher is tested
/// against the input's `matcher_value`). Returns the outcome JSON text.
pub fn fire(engine: &LifecycleHookEngine, event: &EventName, input: &Value) -> Result<String, String> {
    match event {
        EventName::Known(e) => engine.run_blocking_json(*e, input),
        EventName::Named(n) => engine.run_named_blocking_json(n, input),
    }
    .map_err(|e| e.message)
}

/// Read an event input: a file, `-` for stdin, or (not given) stdin when it
/// is not a terminal (a host pipes the payload), else `{}`. Empty input is
/// `{}`; anything else must be a JSON object.
pub fn read_input(input: Option<&Path>) -> Result<Value, String> {
    let from_stdin = match input {
        Some(p) => p == Path::new("-"),
        None => !std::io::stdin().is_terminal(),
    };
    let text = if from_stdin {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| format!("cannot read the input from stdin: {e}"))?;
        s
    } else if let Some(p) = input {
        std::fs::read_to_string(p).map_err(|e| format!("cannot read the input {}: {e}", p.display()))?
    } else {
        String::new()
    };
    let what = match input {
        Some(p) if !from_stdin => p.display().to_string(),
        _ => "stdin".to_owned(),
    };
    if text.trim().is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("the input ({what}) is not valid JSON: {e}"))?;
    if !v.is_object() {
        return Err(format!("the input ({what}) must be a JSON object"));
    }
    Ok(v)
}

/// One config file, validated by the library.
pub struct ConfigFile {
    pub path: PathBuf,
    pub config: HooksConfig,
}

/// A dialect given on the command line (`--dialect NAME`).
pub type DialectArg = &'static dyn Dialect;

/// Parse `--dialect NAME` (the error lists the dialects).
pub fn parse_dialect(name: &str) -> Result<DialectArg, String> {
    hookline::dialect::by_name(name.trim()).map_err(|e| e.message)
}

/// Read and validate one config file: its dialect `dialect` when given,
/// else recognised by its path, else by its shape; the error names the
/// file and the library's message names the entry.
pub fn load_file(path: &Path, dialect: Option<DialectArg>) -> Result<ConfigFile, String> {
    let config =
        HooksConfig::read_file(path, dialect, false, None).map_err(|e| format!("{}: {}", path.display(), e.message))?;
    Ok(ConfigFile { path: path.to_owned(), config })
}

/// Where a loaded config came from (the first line of `text` output).
pub struct Loaded {
    pub path: PathBuf,
    /// `policy` (an administrator's file no other source turns off: Copilot
    /// CLI's `policy.d`, Claude Code's managed settings, Cursor's
    /// enterprise file), `system`, `user`, `project` or `local` (found as a
    /// host finds it) or `config` (given with --config; `policy` when the
    /// file given is a policy file).
    pub origin: &'static str,
    /// Its plugin root (`CLAUDE_PLUGIN_ROOT`), when it has one.
    pub plugin_root: Option<PathBuf>,
}

/// Several configs loaded (and validated) as one engine source.
pub struct Configs {
    pub source: HooksSource,
    pub loaded: Vec<Loaded>,
    /// Found as a host finds them (no `--config`): the project's files are
    /// gated unless `--trust-workspace`.
    pub discovered: bool,
}

impl Configs {
    /// One line naming the configs the engine loaded, in order.
    pub fn describe(&self) -> String {
        if self.loaded.is_empty() {
            return "configs: none (no --config given and no settings file found for this workspace)".to_owned();
        }
        let list: Vec<String> = self
            .loaded
            .iter()
            .map(|l| {
                let root = l.plugin_root.as_ref().map(|r| format!(", plugin root {}", r.display())).unwrap_or_default();
                format!("{} ({}{root})", l.path.display(), l.origin)
            })
            .collect();
        format!("configs: {}", list.join(", "))
    }
}

/// The configs of `a`: the `--config` files, or, when none is given, the
/// settings files a host would load for the workspace (user, project,
/// local; see [`host_settings`]).
pub fn load_config_args(a: &ConfigArgs) -> Result<Configs, String> {
    if a.configs.is_empty() {
        let ws = workspace_or_cwd(a.workspace.as_deref())?;
        return host_settings(&ws, a.dialect);
    }
    load_configs_with(&a.configs, a.dialect, a.plugin_root.as_deref())
}

/// The settings files that exist which a host of each dialect (or of
/// `dialect` only) reads for `workspace`: the machine's managed files and
/// the user's (from `$HOME`; both trusted: they run without workspace
/// approval) and the workspace's (project, then local), each in its own
/// dialect.
pub fn host_settings(workspace: &Path, dialect: Option<DialectArg>) -> Result<Configs, String> {
    let home = hookline::paths::home_dir();
    host_settings_under(workspace, dialect, home.as_deref(), Path::new("/"))
}

/// [`host_settings`] with the home directory `home` and the system files
/// looked up under `root` instead of `/`.
pub fn host_settings_under(
    workspace: &Path,
    dialect: Option<DialectArg>,
    home: Option<&Path>,
    root: &Path,
) -> Result<Configs, String> {
    let mut files: Vec<_> = hookline::dialect::settings_files_under(workspace, home, root)
        .into_iter()
        .filter(|f| dialect.is_none_or(|d| d.name() == f.dialect.name()))
        .collect();
    // A host of one agent also reads the other agents' files it borrows.
    if let Some(d) = dialect {
        files.extend(hookline::dialect::borrowed_settings_files(workspace, d));
    }
    let mut loaded = Vec::new();
    let mut sources = Vec::new();
    for f in files {
        load_file(&f.path, Some(f.dialect))?;
        let name = f.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let origin = if f.policy {
            "policy"
        } else if f.system {
            "system"
        } else if f.trusted {
            "user"
        } else if name.contains(".local.") {
            "local"
        } else {
            "project"
        };
        // A plugin's hooks file (goose's `.agents/plugins/<plugin>/hooks/hooks.json`)
        // has its plugin's root, as the agent gives it.
        let plugin_root =
            hookline::dialect::plugin_root_of(&f.path, Some(f.dialect)).map(|r| std::path::absolute(&r).unwrap_or(r));
        sources.push(HookSourceOption {
            dialect: Some(f.dialect),
            trusted: f.trusted,
            policy: f.policy,
            plugin_root: plugin_root.as_ref().map(|r| r.display().to_string()),
            ..HookSourceOption::new(HooksSource::File(f.path.clone()))
        });
        loaded.push(Loaded { path: f.path, origin, plugin_root });
    }
    let source = if sources.is_empty() { HooksSource::None } else { HooksSource::Sources(sources) };
    Ok(Configs { source, loaded, discovered: true })
}

/// Load the `--config` files. One file is handed to the engine as it is;
/// several become the engine's sources, in order (each event's groups of
/// the first file, then the second's, ...), each file read in its own
/// dialect, as a host loading several settings files does. `dialect`
/// (`--dialect`) forces one dialect on every file.
pub fn load_configs(paths: &[PathBuf], dialect: Option<DialectArg>) -> Result<Configs, String> {
    load_configs_with(paths, dialect, None)
}

/// [`load_configs`] with a plugin root for every file (`--plugin-root`);
/// without one, a plugin's `…/hooks/hooks.json` gets the directory above
/// `hooks/`, as the agent gives it.
pub fn load_configs_with(
    paths: &[PathBuf],
    dialect: Option<DialectArg>,
    plugin_root: Option<&Path>,
) -> Result<Configs, String> {
    let files = paths.iter().map(|p| load_file(p, dialect)).collect::<Result<Vec<_>, _>>()?;
    let loaded: Vec<Loaded> = files
        .iter()
        .map(|f| Loaded {
            path: f.path.clone(),
            origin: if is_policy_file(&f.path, dialect) { "policy" } else { "config" },
            plugin_root: plugin_root
                .map(Path::to_owned)
                .or_else(|| hookline::dialect::plugin_root_of(&f.path, dialect))
                .map(|r| std::path::absolute(&r).unwrap_or(r)),
        })
        .collect();
    let rooted = loaded.iter().any(|l| l.plugin_root.is_some() || l.origin == "policy");
    let source = match (files.len(), dialect, rooted) {
        (0, _, _) => HooksSource::None,
        (1, None, false) => HooksSource::File(files[0].path.clone()),
        _ => HooksSource::Sources(
            loaded
                .iter()
                .map(|l| HookSourceOption {
                    dialect,
                    policy: l.origin == "policy",
                    plugin_root: l.plugin_root.as_ref().map(|r| r.display().to_string()),
                    ..HookSourceOption::new(HooksSource::File(l.path.clone()))
                })
                .collect(),
        ),
    };
    Ok(Configs { source, loaded, discovered: false })
}

impl Configs {
    /// Whether the engine gates the untrusted sources: `--gated`, or the
    /// project's files found as a host finds them (unless
    /// `--trust-workspace`). User and system files are trusted and run.
    pub fn gated(&self, gated_flag: bool, trust_workspace: bool) -> bool {
        gated_flag || (self.discovered && !trust_workspace)
    }

    /// The warning for the project's hooks (found as a host finds them)
    /// while they wait for approval.
    pub fn not_approved_warning(&self, engine: &LifecycleHookEngine) -> Option<String> {
        let files: Vec<String> = self
            .loaded
            .iter()
            .filter(|l| self.discovered && matches!(l.origin, "project" | "local"))
            .map(|l| l.path.display().to_string())
            .collect();
        (!files.is_empty() && engine.workspace_hooks_need_approval()).then(|| {
            format!(
                "the project's hooks ({}) are not approved, so they are skipped (not approved: `hookline trust \
                 approve` runs them once you have read them with `hookline digest`; or pass --trust-workspace)",
                files.join(", ")
            )
        })
    }
}

/// Whether `path` is a policy file a host loads as such (Copilot CLI's
/// `policy.d/*.json`, Claude Code's managed settings, Cursor's enterprise
/// `hooks.json`), read in its own dialect or in `dialect` when it is that
/// file's.
pub fn is_policy_file(path: &Path, dialect: Option<DialectArg>) -> bool {
    hookline::dialect::policy_file_dialect(path).is_some_and(|d| dialect.is_none_or(|a| a.name() == d.name()))
}

/// Options shared by the subcommands that build an engine.
pub struct EngineSetup<'a> {
    pub workspace: Option<&'a Path>,
    pub source: HooksSource,
    pub gated: bool,
    pub trust_store: Option<&'a Path>,
    pub session_id: Option<&'a str>,
    /// The event input: its `session_id`, `transcript_path` and (for
    /// SessionStart) `source` configure the engine the way the host that
    /// sent it was configured.
    pub input: Option<&'a Value>,
}

/// The workspace: the given directory or the current one.
pub fn workspace_or_cwd(ws: Option<&Path>) -> Result<PathBuf, String> {
    match ws {
        Some(p) => Ok(p.to_owned()),
        None => std::env::current_dir().map_err(|e| format!("cannot determine the current directory: {e}")),
    }
}

pub fn build_engine(s: EngineSetup<'_>) -> Result<LifecycleHookEngine, String> {
    let workspace = workspace_or_cwd(s.workspace)?;
    let input_str = |k: &str| s.input.and_then(|i| i.get(k)).and_then(Value::as_str);
    let session_id = s.session_id.or_else(|| input_str("session_id")).unwrap_or(DEFAULT_SESSION_ID);
    let mut o = EngineOptions::new(workspace, session_id);
    o.workspace_gated = s.gated;
    o.hooks = s.source;
    o.trust_store = s.trust_store.map(Path::to_owned);
    o.transcript_path = input_str("transcript_path").map(str::to_owned);
    if let Some(source) = input_str("source") {
        match SessionStartTrigger::parse(source) {
            Some(t) => o.trigger = t,
            None => o.trigger_name = Some(source.to_owned()),
        }
    }
    LifecycleHookEngine::with_options(&o).map_err(|e| e.message)
}

/// What an outcome means for the caller: blocked or not, the decision, the
/// reason.
pub struct Verdict {
    /// Denied or blocked: PreToolUse `deny`, PermissionRequest `deny`, a
    /// blocked prompt, any `block_reason`, or `continue: false`.
    pub blocked: bool,
    /// Blocked only because a hook returned `continue: false` (no deny or
    /// block decision).
    pub stopped_only: bool,
    /// PreToolUse `decision`, PermissionRequest `decision.behavior`
    /// (`none` when no hook decided), else `block` / `proceed`.
    pub decision: String,
    pub reason: Option<String>,
}

pub fn verdict(outcome: &Value) -> Verdict {
    let s = |k: &str| outcome.get(k).and_then(Value::as_str).map(str::to_owned);
    let decision_field = outcome.get("decision");
    let pre_tool = decision_field.and_then(Value::as_str).map(str::to_owned);
    let permission = decision_field.and_then(Value::as_object);
    let denied = pre_tool.as_deref() == Some("deny")
        || permission.and_then(|d| d.get("behavior")).and_then(Value::as_str) == Some("deny");
    let stopped = outcome.get("continue").and_then(Value::as_bool) == Some(false);
    let decided =
        denied || outcome.get("allow_prompt").and_then(Value::as_bool) == Some(false) || s("block_reason").is_some();
    let blocked = decided || stopped;
    let decision = if let Some(d) = pre_tool {
        d
    } else if let Some(Value::Null) = decision_field {
        "none".to_owned()
    } else if let Some(p) = permission {
        p.get("behavior").and_then(Value::as_str).unwrap_or("none").to_owned()
    } else if blocked {
        "block".to_owned()
    } else {
        "proceed".to_owned()
    };
    let reason = s("reason")
        .or_else(|| s("block_reason"))
        .or_else(|| permission.and_then(|p| p.get("message")).and_then(Value::as_str).map(str::to_owned))
        .or_else(|| s("stop_reason"));
    Verdict { blocked, stopped_only: stopped && !decided, decision, reason }
}

/// The outcome's `additional_context` strings.
pub fn contexts(outcome: &Value) -> Vec<String> {
    outcome
        .get("additional_context")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

/// The workspace a config file belongs to, for resolving relative paths
/// (the directory above its place among the dialects' workspace files,
/// e.g. `/p` for `/p/.claude/settings.json`, else the file's directory).
pub fn project_dir_of(config: &Path) -> PathBuf {
    hookline::dialect::project_dir_of(config)
}

/// A config message with its entry path in front, unless the message
/// already starts with it (`hooks.Stop[0].hooks[0].command must be ...`).
pub fn located(path: &str, message: &str) -> String {
    if path.is_empty() || message.starts_with(path) {
        message.to_owned()
    } else {
        format!("{path}: {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files a host reads, found without `--config`: Cursor's
    /// enterprise `hooks.json` ("Enterprise hooks (system-wide config)")
    /// and Claude Code's managed settings are loaded first, as policy
    /// sources, and named `(policy)` on the line `run` and `explain` print.
    #[test]
    fn a_hosts_policy_files_load_first_as_policy_sources() {
        let dir = tempfile::tempdir().unwrap();
        let (root, home, ws) = (dir.path().join("root"), dir.path().join("home"), dir.path().join("ws"));
        let put = |p: &Path| {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, r#"{"version":1,"hooks":{"stop":[{"command":"true"}]}}"#).unwrap();
        };
        let cursor = hookline::dialect::by_name("cursor").unwrap();
        let enterprise = root.join(cursor.system_files()[0].trim_start_matches('/'));
        put(&enterprise);
        put(&ws.join(".cursor/hooks.json"));
        std::fs::create_dir_all(&home).unwrap();
        let configs = host_settings_under(&ws, Some(cursor), Some(&home), &root).unwrap();
        let origins: Vec<&str> = configs.loaded.iter().map(|l| l.origin).collect();
        assert_eq!(origins, ["policy", "project"]);
        assert!(configs.describe().contains(&format!("{} (policy)", enterprise.display())), "{}", configs.describe());
        let HooksSource::Sources(sources) = &configs.source else { panic!("two sources") };
        assert!(sources[0].policy && sources[0].trusted && !sources[1].policy);
        // Gemini CLI's system settings are system files, not policy.
        let gemini = hookline::dialect::by_name("gemini").unwrap();
        let defaults = root.join(gemini.system_files()[0].trim_start_matches('/'));
        std::fs::create_dir_all(defaults.parent().unwrap()).unwrap();
        std::fs::write(&defaults, "{}").unwrap();
        let configs = host_settings_under(&ws, Some(gemini), Some(&home), &root).unwrap();
        assert_eq!(configs.loaded.iter().map(|l| l.origin).collect::<Vec<_>>(), ["system"]);
    }
}
