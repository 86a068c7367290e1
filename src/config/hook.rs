//! One hook as every dialect's reader produces it: its handler
//! ([`HandlerSpec`]: a command, an http request, a prompt, an agent, an MCP
//! tool, a host callback), the fields every handler shares ([`HookSpec`]),
//! and the groups they are listed in under an event ([`HookGroup`]).

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::matcher::Matcher;
use crate::config::rule::Rule;

use super::Source;

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
    /// ([`SourceInfo::policy`](super::SourceInfo::policy)).
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
