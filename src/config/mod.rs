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
pub mod matcher;
pub mod windows_shell;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::model::event::HookEvent;
use crate::rule::Rule;
use matcher::Matcher;

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

/// The shell a command hook's shell form runs under (`"shell"`; ignored in
/// exec form).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shell {
    /// `/bin/sh -c <command>` (the default).
    #[default]
    Sh,
    /// `bash -c <command>` (`"shell": "bash"`), bash found on `PATH`.
    Bash,
    /// `pwsh -NoProfile -Command <command>` (`"shell": "powershell"`), when
    /// `pwsh` is on `PATH`; else the hook cannot be started.
    PowerShell,
    /// The user's shell: `$SHELL -c <command>` when `$SHELL` is an
    /// executable bash, zsh or sh, else `/bin/sh -c <command>` (a dialect's
    /// default, never a config value: Codex runs hooks in the session's
    /// shell).
    User,
}

impl Shell {
    /// The config value (`None` for the default shell).
    pub fn config_name(self) -> Option<&'static str> {
        match self {
            Shell::Sh => None,
            Shell::Bash => Some("bash"),
            Shell::PowerShell => Some("powershell"),
            Shell::User => None,
        }
    }
}

/// What a hook runs: its handler type and the fields that identify it
/// ([`identifying_fields`](HandlerSpec::identifying_fields)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandlerSpec {
    /// A command (`"type": "command"`): shell form (`/bin/sh -c <command>`,
    /// or the `shell` chosen), or exec form when `args` is set (`command`
    /// resolved on `PATH` and spawned directly with `args`).
    Command {
        /// The command, exactly as written.
        command: String,
        /// `args` (exec form), exactly as written.
        args: Option<Vec<String>>,
        /// `shell` (shell form only).
        shell: Shell,
        /// How its process starts, where the config says more than the
        /// command text (a program of its own, a working directory,
        /// variables). The default: as `args` and `shell` say, in the
        /// workspace.
        launch: Launch,
    },
    /// An HTTP endpoint the hook input is POSTed to (`"type": "http"`).
    Http {
        /// `url`, exactly as written.
        url: String,
        /// `headers`, in configuration order, values as written (before
        /// `$NAME` interpolation).
        headers: Vec<(String, String)>,
        /// `allowedEnvVars`: the variables header values may interpolate.
        allowed_env_vars: Vec<String>,
    },
    /// A tool of an MCP server the host is connected to (`"type": "mcp_tool"`).
    McpTool {
        /// `server`.
        server: String,
        /// `tool`.
        tool: String,
        /// `input` as written (`${path}` strings substituted per call); null when absent.
        input: Value,
    },
    /// A single-turn prompt for a model (`"type": "prompt"`).
    Prompt {
        /// `prompt`, as written (`$ARGUMENTS` substituted per call).
        prompt: String,
        /// `model`, if set.
        model: Option<String>,
        /// `continueOnBlock`.
        continue_on_block: bool,
    },
    /// A prompt for an agent with tools (`"type": "agent"`).
    Agent {
        /// `prompt`, as written (`$ARGUMENTS` substituted per call).
        prompt: String,
        /// `model`, if set.
        model: Option<String>,
    },
}

/// Longest prompt text a label shows (the report and the digest carry all of it).
const PROMPT_LABEL_CHARS: usize = 60;

/// How a command hook's process is started, beyond its command text. Every
/// field is covered by the approval digest when it is set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Launch {
    /// The program and its arguments, started directly instead of
    /// `/bin/sh -c <command>`: `argv[0]` is a path, or a name looked up on
    /// the hook's `PATH`.
    pub argv: Option<Vec<String>>,
    /// The working directory: absolute, or relative to the workspace.
    /// `None`: the workspace.
    pub cwd: Option<String>,
    /// Variables added to the hook's environment, in order (they replace
    /// inherited ones of the same name, not the engine's own).
    pub env: Vec<(String, String)>,
    /// Whether `$NAME` and `${NAME}` in `env` values expand to the hook's
    /// environment (an unset name expands to nothing).
    pub expand_env: bool,
    /// Whether a script named by the command's first word (a path) that
    /// has no execute permission is made executable before it starts.
    pub make_script_executable: bool,
}

impl Launch {
    /// Whether this is the default launch (`/bin/sh -c` in the workspace).
    pub fn is_default(&self) -> bool {
        *self == Launch::default()
    }
}

impl HandlerSpec {
    /// A shell-form command hook.
    pub fn command(command: impl Into<String>) -> HandlerSpec {
        HandlerSpec::Command { command: command.into(), args: None, shell: Shell::Sh, launch: Launch::default() }
    }

    /// The launch of a command hook (`None` for other handler types).
    pub fn launch(&self) -> Option<&Launch> {
        match self {
            HandlerSpec::Command { launch, .. } => Some(launch),
            _ => None,
        }
    }

    /// The report's `kind` of this handler.
    pub fn kind(&self) -> crate::model::outcome::HookKind {
        use crate::model::outcome::HookKind;
        match self {
            HandlerSpec::Command { .. } => HookKind::Command,
            HandlerSpec::Http { .. } => HookKind::Http,
            HandlerSpec::McpTool { .. } => HookKind::McpTool,
            HandlerSpec::Prompt { .. } => HookKind::Prompt,
            HandlerSpec::Agent { .. } => HookKind::Agent,
        }
    }

    /// How messages and reports name the hook: the command text (in exec
    /// form the command and its arguments, shell-quoted where needed); an
    /// http hook's URL; `server/tool`; a prompt's first words.
    pub fn label(&self) -> String {
        match self {
            HandlerSpec::Command { command, args: None, .. } => command.clone(),
            HandlerSpec::Command { command, args: Some(args), .. } => std::iter::once(command.as_str())
                .chain(args.iter().map(String::as_str))
                .map(quote_word)
                .collect::<Vec<_>>()
                .join(" "),
            HandlerSpec::Http { url, .. } => url.clone(),
            HandlerSpec::McpTool { server, tool, .. } => format!("{server}/{tool}"),
            HandlerSpec::Prompt { prompt, .. } | HandlerSpec::Agent { prompt, .. } => {
                let line = prompt.split_whitespace().collect::<Vec<_>>().join(" ");
                match line.char_indices().nth(PROMPT_LABEL_CHARS) {
                    Some((cut, _)) => format!("{}…", &line[..cut]),
                    None => line,
                }
            }
        }
    }

    /// The span attribute that holds the [`label`](Self::label):
    /// `hook.command`, `hook.url`, `hook.tool` (`server/tool`) or
    /// `hook.prompt`.
    pub fn label_attribute(&self) -> &'static str {
        match self {
            HandlerSpec::Command { .. } => "hook.command",
            HandlerSpec::Http { .. } => "hook.url",
            HandlerSpec::McpTool { .. } => "hook.tool",
            HandlerSpec::Prompt { .. } | HandlerSpec::Agent { .. } => "hook.prompt",
        }
    }

    /// What makes two hooks "the same handler" for deduplication: the
    /// handler type and these fields (a command's text, args and shell;
    /// an http hook's URL, as Claude Code dedupes it; everything of the
    /// host-answered types).
    pub fn dedupe_key(&self) -> String {
        match self {
            HandlerSpec::Command { command, args: None, shell: Shell::Sh, .. } => command.clone(),
            HandlerSpec::Http { url, .. } => url.clone(),
            _ => Value::Object(self.identifying_fields()).to_string(),
        }
    }

    /// The fields that identify the hook, in a fixed order, for the digest
    /// and the previews: `command` (and `args`, `shell` when set, then the
    /// launch's `argv`, `cwd` and `configEnv` — the config's `env`, values
    /// as written — when set);
    /// `url`, `headers` (the header *names*, values are not part of
    /// it: they may interpolate secrets) and `allowedEnvVars` (when set);
    /// `server`, `tool` and `input`;
    /// `prompt` and `model` (and `continueOnBlock` when true).
    pub fn identifying_fields(&self) -> serde_json::Map<String, Value> {
        let mut m = serde_json::Map::new();
        match self {
            HandlerSpec::Command { command, args, shell, launch } => {
                m.insert("command".into(), Value::from(command.as_str()));
                if let Some(args) = args {
                    m.insert("args".into(), Value::from(args.clone()));
                }
                if let Some(shell) = shell.config_name() {
                    m.insert("shell".into(), Value::from(shell));
                }
                // How the process starts decides what runs as much as the
                // command text: the program run directly, where, with what.
                if let Some(argv) = &launch.argv {
                    m.insert("argv".into(), Value::from(argv.clone()));
                }
                if let Some(cwd) = &launch.cwd {
                    m.insert("cwd".into(), Value::from(cwd.as_str()));
                }
                if !launch.env.is_empty() {
                    let env = launch.env.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str())));
                    m.insert("configEnv".into(), Value::Object(env.collect()));
                }
            }
            HandlerSpec::Http { url, headers, allowed_env_vars } => {
                m.insert("url".into(), Value::from(url.as_str()));
                m.insert("headers".into(), headers.iter().map(|(k, _)| Value::from(k.as_str())).collect());
                // Which variables the header values may interpolate decides
                // what the request can carry out of the machine.
                if !allowed_env_vars.is_empty() {
                    m.insert("allowedEnvVars".into(), Value::from(allowed_env_vars.clone()));
                }
            }
            HandlerSpec::McpTool { server, tool, input } => {
                m.insert("server".into(), Value::from(server.as_str()));
                m.insert("tool".into(), Value::from(tool.as_str()));
                m.insert("input".into(), input.clone());
            }
            HandlerSpec::Prompt { prompt, model, continue_on_block } => {
                m.insert("prompt".into(), Value::from(prompt.as_str()));
                m.insert("model".into(), model.as_deref().map_or(Value::Null, Value::from));
                if *continue_on_block {
                    m.insert("continueOnBlock".into(), Value::Bool(true));
                }
            }
            HandlerSpec::Agent { prompt, model } => {
                m.insert("prompt".into(), Value::from(prompt.as_str()));
                m.insert("model".into(), model.as_deref().map_or(Value::Null, Value::from));
            }
        }
        m
    }

    /// What the digest line of a hook of this type carries as its
    /// `command`: the command text for a shell-form command (the format
    /// every stored approval was made with), else the compact JSON of
    /// [`identifying_fields`](Self::identifying_fields) with `"type"` first.
    pub fn digest_text(&self) -> String {
        match self {
            HandlerSpec::Command { command, args: None, shell: Shell::Sh, .. } => command.clone(),
            _ => {
                let mut m = serde_json::Map::new();
                m.insert("type".into(), Value::from(self.kind().as_str()));
                m.extend(self.identifying_fields());
                Value::Object(m).to_string()
            }
        }
    }

    /// Whether the handler runs as a process (it needs the hook
    /// environment and a cancellation token).
    pub fn is_process(&self) -> bool {
        matches!(self, HandlerSpec::Command { .. })
    }

    /// What the handler executes as words, for the gate's script pins
    /// (`crate::gate::pins`): the shell text of a shell-form command (under
    /// any `shell`), the program and arguments of an exec-form one; `None`
    /// for handler types that run no program.
    pub fn script_form(&self) -> Option<ScriptForm<'_>> {
        match self {
            // A program started directly (Copilot CLI `exec`): its argv.
            HandlerSpec::Command { launch: Launch { argv: Some(argv), make_script_executable: false, .. }, .. } => {
                argv.split_first().map(|(program, rest)| ScriptForm::Exec(program, rest))
            }
            // A script a shell of the launch runs (`bash -c <command>`,
            // Copilot CLI `bash`/`powershell`) reads like shell text.
            HandlerSpec::Command { command, args: None, .. } => Some(ScriptForm::Shell(command)),
            HandlerSpec::Command { command, args: Some(args), .. } => Some(ScriptForm::Exec(command, args)),
            _ => None,
        }
    }

    /// Whether the handler blocks on I/O the run does not control (a
    /// process, a request): such hooks of a concurrent event run on their
    /// own threads. Host-answered types run on the run's thread, like
    /// callback hooks.
    pub fn runs_apart(&self) -> bool {
        matches!(self, HandlerSpec::Command { .. } | HandlerSpec::Http { .. })
    }
}

/// A word of an exec-form label, quoted for a POSIX shell when it needs it.
fn quote_word(word: &str) -> String {
    let plain = !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// What a handler executes, as the script resolver reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScriptForm<'a> {
    /// Shell text run as `/bin/sh -c <text>` (or the hook's `shell`).
    Shell(&'a str),
    /// A program (looked up on `PATH` unless it contains `/`) and its
    /// argument vector, no shell.
    Exec(&'a str, &'a [String]),
}

/// One configured hook.
#[derive(Clone, Debug)]
pub struct HookSpec {
    /// What it runs.
    pub handler: HandlerSpec,
    /// The timeout exactly as written (`timeout_seconds` in VT Code,
    /// `timeout` in Claude Code), in the dialect's unit
    /// ([`Profile::timeout_unit`](crate::model::rules::Profile::timeout_unit)): seconds, milliseconds for Gemini CLI.
    pub timeout_seconds: Option<u64>,
    /// The dialect's timeout for a hook that sets none.
    pub default_timeout: Duration,
    /// `if` (Claude Code): the hook runs only for tool calls matching it.
    pub if_rule: Option<Rule>,
    /// `async: true` (Claude Code): the run does not wait for the hook.
    /// Also set by `asyncRewake`.
    pub run_async: bool,
    /// `asyncRewake: true` (Claude Code): a background hook whose exit 2
    /// wakes the model with its stderr (else stdout) as a system reminder.
    pub async_rewake: bool,
    /// `statusMessage` (Claude Code), copied into the hook's report.
    pub status_message: Option<String>,
    /// `failClosed: true` (hookline extension): a failure takes the event's
    /// blocking decision instead of failing open.
    pub fail_closed: bool,
    /// The hook's `name`, where the dialect has one (Gemini CLI: the key of
    /// `hooksConfig.disabled` and, with the command, of deduplication).
    pub name: Option<String>,
    /// Variables set last in the hook's environment, over everything else
    /// (Gemini CLI's per-hook `env`), in configuration order.
    pub env: Vec<(String, String)>,
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
    /// The command text of a command hook, else `None`.
    pub fn command_text(&self) -> Option<&str> {
        match &self.handler {
            HandlerSpec::Command { command, .. } => Some(command),
            _ => None,
        }
    }

    /// How messages and reports name the hook ([`HandlerSpec::label`]).
    pub fn label(&self) -> String {
        self.handler.label()
    }

    /// The name that identifies the hook for people and for
    /// `hooksConfig.disabled`: its `name`, else its label (the command).
    pub fn display_name(&self) -> &str {
        self.name.as_deref().filter(|n| !n.is_empty()).or_else(|| self.command_text()).unwrap_or_default()
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

    /// Whether the hook's source is a policy source
    /// ([`SourceInfo::policy`]).
    pub fn policy(&self) -> bool {
        self.source.info.policy
    }

    /// The plugin root of the hook's source.
    pub fn plugin_root(&self) -> Option<&str> {
        self.source.info.plugin_root.as_deref()
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
    /// `sequential: true` (Gemini CLI): a run of the event in which this
    /// group matches runs its hooks one after another (where the event's
    /// rules say [`SequentialWhenAsked`](crate::model::rules::RunOrder)).
    pub sequential: bool,
}

impl HookGroup {
    /// Whether this group runs for a subject from
    /// [`Dialect::match_subject`](crate::dialect::Dialect::match_subject) (`None` always matches).
    pub fn matches(&self, subject: Option<&str>) -> bool {
        self.matcher.matches_subject(subject)
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
