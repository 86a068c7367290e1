//! Dialects: the hooks formats of the agents hookline speaks, each one value
//! behind one interface ([`Dialect`]).
//!
//! A dialect is to hookline what a format is to serde: the engine works on
//! the canonical model ([`crate::model`]) and never asks which dialect it is
//! serving; each dialect knows how *its* users write hooks and how *its*
//! agent reads them:
//!
//! - its config files and their shapes, and what it rejects or skips
//!   ([`Dialect::read_json`], [`Dialect::read_toml`], [`Dialect::recognises_path`]);
//! - its event names ([`Dialect::event_keys`]);
//! - what each event's matcher is tested against ([`Dialect::match_subject`]);
//! - its agent's names and input shapes of the canonical tools
//!   ([`Dialect::tool_vocabulary`], [`tools`]);
//! - the payload a hook reads and the variables of its environment
//!   ([`Dialect::payload`], [`Dialect::environment`]);
//! - how one hook's result reads ([`Dialect::read_reply`]), and its rule
//!   table ([`Dialect::profile`]) for the canonical merge.
//!
//! | dialect | module | files |
//! |---|---|---|
//! | `vtcode` | [`vtcode`] | `vtcode.toml` `[hooks.lifecycle]`, `{"lifecycle": …}` JSON |
//! | `claude` | [`claude`] | `.claude/settings*.json`, a plugin's `hooks/hooks.json` |
//! | `codex` | [`codex`] | `.codex/hooks.json`, the `[hooks]` of `.codex/config.toml` |
//! | `gemini` | [`gemini`] | `.gemini/settings.json` (user, workspace, system), an extension's `hooks/hooks.json` |
//! | `cursor` | [`cursor`] | `.cursor/hooks.json` (project and user), the enterprise `hooks.json` |
//! | `copilot` | [`copilot`] | `.github/hooks/*.json`, Copilot's `settings*.json` (and `.claude/settings.json` by the option) |
//! | `vscode` | [`vscode`] | by the `dialect` option only (VS Code reads the files of the others) |
//! | `windsurf` | [`windsurf`] | `.devin/hooks.json`, `.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`, `~/.codeium/hooks.json`, the system `hooks.json` |
//! | `qwen` | [`qwen`] | `.qwen/settings*.json` (user, project, local), the system files |
//! | `kiro` | [`kiro`] | `.kiro/hooks/*.json` (one source per file; also `~/.kiro/hooks/*.json`) |
//! | `devin-cli` | [`devin`] | `.devin/hooks.v1.json` (no wrapper), `.devin/config*.json`, `~/.config/devin/config.json` |
//! | `factory` | [`factory`] | `.factory/hooks.json` (no wrapper), `.factory/settings*.json`, `~/.factory/…` |
//! | `crush` | [`crush`] | `crush.json`, `.crush.json`, `.crush/crush.json`, `~/.config/crush/crush.json`, `~/.local/share/crush/crush.json`, `/etc/crush/crush.json` |
//! | `openhands` | [`openhands`] | `.openhands/hooks.json`, else `~/.openhands/hooks.json` (the first found only) |
//! | `goose` | [`goose`] | a plugin's `hooks/hooks.json` in `.agents/plugins/<plugin>/` (project, then `~/.agents/plugins`) |
//! | `augment` | [`augment`] | `.augment/settings*.json`, `~/.augment/settings.json`, `/etc/augment/settings.json` (policy) |
//!
//! Selection ([`select`]): the `dialect` option (or `hook_sources[i].dialect`)
//! names one; without it a `hooks_file` is recognised by its path, and
//! anything else by its shape (a `lifecycle` key is VT Code, anything else
//! Claude Code).
//!
//! The VT Code and Claude Code dialects share the Claude Code hooks protocol
//! (JSON on stdin, exit codes and JSON on stdout); its reader is
//! [`protocol`], parameterised by each dialect's table. Codex speaks a
//! stricter variant of it and has its own reader ([`codex`]); Gemini CLI's
//! hooks read differently (JSON honoured on any exit code, plain text that
//! denies, milliseconds) and have their own reader ([`gemini`]); Cursor's
//! hooks answer in flat snake_case JSON and have their own reader
//! ([`cursor`]).

pub mod augment;
pub mod claude;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod crush;
pub mod cursor;
pub mod devin;
pub mod factory;
pub mod gemini;
pub mod goose;
pub mod handler_support;
pub mod kiro;
mod load;
pub mod matcher;
pub mod openhands;
pub mod protocol;
pub mod qwen;
mod resolve;
pub mod tools;
pub mod vscode;
pub mod vtcode;
pub mod windsurf;

use std::borrow::Cow;
use std::path::Path;

use serde_json::{Map, Value};

use crate::config::windows_shell::WindowsShell;
use crate::config::{DialectId, Shell};
use crate::config::{HookSpec, HooksConfig, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{Column, EventRules, Profile};
use crate::runner::Environment;

pub use resolve::of;

/// What a reader needs to know about the hook whose result it reads.
#[derive(Clone, Copy, Debug)]
pub struct ReadCtx<'a> {
    /// The event being run.
    pub event: &'a RunEvent,
    /// The event's family in the hook's dialect (which reader reads it).
    pub family: EventFamily,
    /// The event's rules in the hook's dialect.
    pub rules: &'a EventRules,
    /// `quiet_success_output` of the hook's source (VT Code).
    pub quiet_success_output: bool,
    /// The hook ran in the background (`async`): its decisions are dropped
    /// whatever the reader says, and a dialect may read it more leniently
    /// (Codex does not report invalid control fields of async hooks).
    pub background: bool,
    /// The hook sets `failClosed` (readers whose rules make some answers
    /// failures only then: [`EventRules::empty_output_fails_closed`]).
    pub fail_closed: bool,
    /// The run input's `tool_name`, if it has one (readers whose fields
    /// apply to some tools only: Cursor's `updated_mcp_tool_output`).
    pub tool_name: Option<&'a str>,
    /// The run input's `tool_input` on PermissionRequest, if it is an
    /// object (Copilot CLI: a request to leave the sandbox is never
    /// pre-approved).
    pub tool_input: Option<&'a Value>,
}

/// One dialect: everything hookline knows about one agent's hooks format.
///
/// Implementations are unit structs with one `static` value each, listed in
/// [`ALL`].
pub trait Dialect: std::fmt::Debug + Send + Sync + 'static {
    /// The dialect's name, as the `dialect` option spells it (`"vtcode"`,
    /// `"claude"`, ...).
    fn name(&self) -> &'static str;

    /// The id a configuration names this dialect value by ([`of`] resolves
    /// it back): its name, unless it is a second value of its dialect.
    fn id(&self) -> DialectId {
        DialectId::new(self.name())
    }

    /// The agent's name for people (`"VT Code"`, `"Claude Code"`).
    fn title(&self) -> &'static str;

    /// The dialect's rule table.
    fn profile(&self) -> &'static Profile;

    /// Whether a hooks file at `path` is recognised as this dialect's (the
    /// dialect's own file names: `.claude/settings.json`, ...). Used when
    /// no `dialect` option names one.
    fn recognises_path(&self, path: &Path) -> bool;

    /// Read a parsed JSON config of this dialect. Errors are
    /// `InvalidConfig` naming the entry; entries the agent itself would
    /// skip are skipped and listed in the config's warnings.
    fn read_json(&self, value: &Value, source: &SourceInfo) -> Result<HooksConfig>;

    /// Read a hooks **folder** of this dialect (Cline: one executable file
    /// per event). `InvalidArgument` for a dialect whose hooks are in files.
    fn read_dir(&self, dir: &Path, source: &SourceInfo) -> Result<HooksConfig> {
        let _ = source;
        Err(Error::invalid_argument(format!(
            "hooks_file {} is a folder; the {} dialect reads hooks files (only Cline's hooks are a folder)",
            dir.display(),
            self.title()
        )))
    }

    /// Whether this dialect's [user files](Self::user_files) and
    /// [workspace files](Self::workspace_files) are hooks folders
    /// ([`read_dir`](Self::read_dir)) rather than files.
    fn reads_hooks_folders(&self) -> bool {
        false
    }

    /// Every path of the hooks folder `dir` where a file would be a hook
    /// on this system (Cline: each hook name with each extension it runs
    /// there). The approval gate watches the ones where nothing is, so that
    /// a hook file appearing in an approved folder needs a new approval
    /// ([`crate::gate::pins`]). Empty for a dialect without folders.
    fn hook_file_places(&self, dir: &Path) -> Vec<std::path::PathBuf> {
        let _ = dir;
        Vec::new()
    }

    /// Whether `path` is a hooks file of this dialect that is neither JSON
    /// nor TOML (Crush's `crushrc` scripts): it is read by
    /// [`read_text`](Self::read_text) whatever its extension.
    fn is_text_file(&self, path: &Path) -> bool {
        let _ = path;
        false
    }

    /// Read the text of a file [`is_text_file`](Self::is_text_file) says
    /// is this dialect's.
    fn read_text(&self, text: &str, source: &SourceInfo) -> Result<HooksConfig> {
        let _ = text;
        Err(Error::invalid_argument(format!(
            "{} has no hooks files other than JSON or TOML: {}",
            self.title(),
            source.path.as_deref().map(|p| p.display().to_string()).unwrap_or_default()
        )))
    }

    /// The JSON text of a config file of this dialect as its agent hands it
    /// to its JSON parser (Gemini CLI strips comments first). The default:
    /// the text as it is (plain JSON).
    fn json_text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(text)
    }

    /// Read TOML text of this dialect (`InvalidConfig` when the dialect has
    /// no TOML form).
    fn read_toml(&self, text: &str, source: &SourceInfo) -> Result<HooksConfig> {
        let _ = (text, source);
        Err(Error::invalid_config(format!("the {} dialect has no TOML form", self.title())))
    }

    /// The config keys under which this dialect configures `event`, the
    /// main one first (VT Code's `stop` has the aliases `task_completion`
    /// and `task_completed`); empty when the dialect has no such event.
    fn event_keys(&self, event: HookEvent) -> &'static [&'static str];

    /// What `event`'s matchers are tested against in this dialect; `None`
    /// when the event ignores matchers (every group matches).
    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, trigger: &'a str) -> Option<&'a str>;

    /// The field [`match_subject`](Self::match_subject) reads, for people
    /// (`"tool_name"`, `"the session trigger"`), `None` when the event
    /// ignores matchers.
    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str>;

    /// The payload a hook of this dialect receives for `event`:
    /// `tool_input` is the rewrite in force for chained PreToolUse hooks.
    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Map<String, Value>;

    /// The variables this dialect's hooks get from the engine besides the
    /// canonical `HOOKLINE_*` ones, each passed to `add` in order (they
    /// replace inherited ones of the same name and cannot be overridden by
    /// the engine's `env` option).
    fn environment(&self, event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str));

    /// Variables a hook of this dialect gets from the run's input, set
    /// after [`environment`](Self::environment): `input` is the event's
    /// input as the hook's agent names it (`tool_name` and `tool_input` in
    /// its vocabulary). Crush: `CRUSH_TOOL_NAME` and the tool input's
    /// `command` and `file_path`. None by default; every name set here is
    /// one of [`environment_names`](Self::environment_names).
    fn input_environment(&self, event: &RunEvent, input: &Map<String, Value>, add: &mut dyn FnMut(&'static str, &str)) {
        let _ = (event, input, add);
    }

    /// Every name [`environment`](Self::environment) can set (whether or not
    /// it sets it on a given run): inherited variables of these names are
    /// never passed on.
    fn environment_names(&self) -> &'static [&'static str];

    /// Every variable this dialect's hooks get that names a directory a
    /// command may name its scripts by: each one [`environment`](Self::environment)
    /// sets to the project directory or the working directory
    /// (`$CLAUDE_PROJECT_DIR/h.sh`, `$GEMINI_CWD`), and each
    /// [plugin root variable](Self::plugin_root_variables)
    /// (`${CLAUDE_PLUGIN_ROOT}/a.js`). The script resolver of the approval
    /// gate expands them ([`crate::gate::resolve`]) in `$NAME`, `${NAME}`
    /// and quoted forms. Required of every dialect, so that none leaves a
    /// variable of its agent unpinned; a test holds it to the dialect's
    /// environment.
    fn placeholders(&self) -> &'static [Placeholder];

    /// Read one hook's result into the canonical reply.
    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply;

    /// What a command hook of this agent answers to block `event` (deny the
    /// tool call, block the prompt or the stop) with `reason`: its exit
    /// status and what it writes where the agent reads the reason. `None`
    /// when this agent lets no command hook block the event. `hookline run
    /// --format <dialect>` answers so when it cannot run the hooks (it
    /// fails closed). The default reads the event's `exit2` rule: where exit
    /// 2 blocks, exit 2 with the reason on stderr, or on stdout where the
    /// agent reads its reason there ([`exit2_blocking_answer`]).
    fn blocking_answer(&self, event: &RunEvent, reason: &str) -> Option<BlockingAnswer> {
        exit2_blocking_answer(self.profile().rules_of(event).exit2, reason)
    }

    /// The matcher rule applied to `matcher` (compiled from `raw`), in
    /// words, for people (`hookline explain`).
    fn describe_matcher(&self, matcher: &crate::config::matcher::Matcher, raw: Option<&str>) -> String;

    /// The agent's tool names (for `hookline check`'s "can never match a
    /// known tool" warning and its suggestions).
    fn tool_names(&self) -> &'static [&'static str];

    /// The agent's names and input shapes of the canonical tools (Claude
    /// Code's `Bash`, `Write`, ..., MCP tools `mcp__<server>__<tool>`), as
    /// static data: one [`ToolName`](tools::ToolName) row per canonical
    /// tool the agent has (its name, renamed `tool_input` fields, a
    /// [`ToolShape`](tools::ToolShape) where renaming is not enough), and
    /// the agent's MCP spelling. The engine gives each hook the call in its
    /// agent's name and shape, matches it on them, and reads a rewrite the
    /// hook returns back into the canonical shape. A name without a row
    /// passes through unchanged both ways. The default: the empty table
    /// (every name and input passes through; right for an agent that uses
    /// Claude Code's names).
    fn tool_vocabulary(&self) -> &'static tools::ToolVocabulary {
        &tools::ToolVocabulary::NONE
    }

    /// The tool calls among the fields with no canonical slot of one hook's
    /// reply (`fields`, in this agent's vocabulary: Gemini CLI's
    /// `tailToolCallRequest`) rewritten with `to_canonical`, which reads a
    /// call (the agent's tool name, its input) back into the canonical name
    /// and input. Called only when the engine maps tool names
    /// (`tool_names: canonical`). The default: the fields carry no call.
    fn tool_calls_to_canonical(
        &self,
        event: &RunEvent,
        fields: &mut Map<String, Value>,
        to_canonical: &dyn Fn(&str, &Value) -> (String, Value),
    ) {
        let _ = (event, fields, to_canonical);
    }

    /// The hooks files a host of this agent reads in a workspace, relative
    /// to it, in the order it reads them (`.claude/settings.json`, ...).
    fn workspace_files(&self) -> &'static [&'static str];

    /// Another agent's workspace hooks files this agent reads too, after
    /// its own, relative to the workspace (Copilot CLI reads a repository's
    /// `.claude/settings.json`). They stay the other agent's file when every
    /// dialect's files are gathered; a host of this agent alone reads them
    /// in this dialect ([`borrowed_settings_files`]).
    fn borrowed_workspace_files(&self) -> &'static [&'static str] {
        &[]
    }

    /// The user's own hooks files a host of this agent reads, in the order
    /// it reads them, for the home directory `home` (Claude Code:
    /// `~/.claude/settings.json`, or under `$CLAUDE_CONFIG_DIR`). They come
    /// before the [workspace files](Self::workspace_files) and are trusted
    /// sources: the user wrote them, so they run without workspace approval.
    fn user_files(&self, home: &Path) -> Vec<std::path::PathBuf>;

    /// The machine-wide hooks files an administrator manages (enterprise,
    /// system or managed settings), absolute, for this operating system. A
    /// host reads them first, and they are trusted sources.
    fn system_files(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether the [system files](Self::system_files) are policy: an
    /// administrator's hooks a user cannot turn off (Copilot CLI's
    /// `policy.d`, Claude Code's managed settings, Cursor's enterprise
    /// file). A host loads them first as policy sources
    /// ([`SettingsFile::policy`]).
    fn system_files_are_policy(&self) -> bool {
        false
    }

    /// Whether a policy hook of this dialect that times out fails open
    /// (Copilot CLI: "fail-open for every event, including ... policy
    /// hooks"); by default a policy hook fails closed on a timeout too.
    fn policy_timeouts_fail_open(&self) -> bool {
        false
    }

    /// Whether a host reads the [system file](Self::system_files) at
    /// `path` (Copilot CLI reads a policy file only when root owns it and
    /// neither its group nor others may write it). Every one by default.
    fn admits_system_file(&self, path: &Path) -> bool {
        let _ = path;
        true
    }

    /// Machine-wide hooks files a host reads after every other file
    /// (Gemini CLI's system settings), absolute; trusted sources.
    fn late_system_files(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether the agent reads its [user files](Self::user_files) only when
    /// none of its [workspace files](Self::workspace_files) exists (VT Code
    /// loads the first `vtcode.toml` it finds), instead of both, user first.
    fn user_files_are_a_fallback(&self) -> bool {
        false
    }

    /// Whether the agent reads its [user files](Self::user_files) after its
    /// [workspace files](Self::workspace_files) instead of before them
    /// (Cursor: project hooks take precedence over the user's).
    fn user_files_come_last(&self) -> bool {
        false
    }

    /// Whether the agent reads its [workspace files](Self::workspace_files)
    /// when the workspace is the home directory (Gemini CLI does not: there
    /// its workspace settings are the user's own file).
    fn reads_workspace_at_home(&self) -> bool {
        true
    }

    /// The plugin root of a hooks file at `path` when the path is where this
    /// agent's plugins keep their hooks (a plugin's `hooks/hooks.json`: the
    /// directory above `hooks/`); its hooks get it in the
    /// [plugin root variables](Self::plugin_root_variables).
    fn plugin_root_of(&self, path: &Path) -> Option<std::path::PathBuf> {
        let _ = path;
        None
    }

    /// The keys of a matcher group this dialect's agent reads (`matcher`,
    /// `hooks`). A group's other keys are ignored by the agent; the reader
    /// lists each in the config's warnings, with the closest of these names.
    fn group_field_names(&self) -> &'static [&'static str];

    /// The keys of a hook entry this dialect's agent reads, for every
    /// handler type it has (`type`, `command`, `timeout`, ...), hookline's
    /// own extensions included. A hook's other keys are ignored by the
    /// agent; the reader lists each in the config's warnings, with the
    /// closest of these names (`"timout"`: did you mean `timeout`?).
    fn hook_field_names(&self) -> &'static [&'static str];

    /// Whether this dialect runs hooks of handler type `kind` on `event`
    /// (the table: `handler_support.rs`); a hook of a type it does not run
    /// there is skipped (`"skipped": "unsupported_on_event"`).
    fn supports(&self, kind: crate::model::outcome::HookKind, event: &RunEvent) -> bool {
        let _ = (kind, event);
        true
    }

    /// The reader columns of the rule table ([`Column`]) this dialect's
    /// reader honours for `event`. A table that sets a column its reader
    /// (or the canonical merge) does not honour fails the column-coverage
    /// test.
    fn honours(&self, event: &RunEvent) -> &'static [Column];

    /// Further names a group's matcher is tested against besides
    /// `subject` ([`match_subject`](Self::match_subject)): the group runs
    /// when its matcher accepts the subject or any of these (Codex: tool
    /// `apply_patch` is also `Write` and `Edit`). Each hook still runs once.
    fn match_aliases(&self, event: &RunEvent, subject: &str) -> &'static [&'static str] {
        let _ = (event, subject);
        &[]
    }

    /// Whether the payload text ends with a newline (the hooks protocol's
    /// compact JSON + `\n`; Codex writes the JSON alone).
    fn payload_ends_with_newline(&self) -> bool {
        true
    }

    /// The variables a hook of a plugin source gets its plugin root in
    /// (`hook_sources[i].plugin_root`).
    fn plugin_root_variables(&self) -> &'static [&'static str] {
        &["CLAUDE_PLUGIN_ROOT"]
    }

    /// Whether the digest lines and previews of this dialect's hooks name
    /// the dialect (`"dialect": "<name>"`): every dialect's do, except VT
    /// Code's and Claude Code's, whose lines stay as stored approvals
    /// recorded them.
    fn named_in_digest(&self) -> bool {
        true
    }

    /// Whether this dialect's reader reads the hooks protocol of Claude Code
    /// (exit codes, `hookSpecificOutput`): a callback hook's reply is in
    /// that protocol (`hl_reply_deny` is exit 2 with its message on stderr,
    /// `hl_reply_allow` a `permissionDecision`), so in a run of a dialect
    /// whose answers read otherwise (Cursor's flat fields) callback hooks
    /// are read by the Claude Code reader, with the run's rules merging.
    fn reads_hooks_protocol(&self) -> bool {
        true
    }

    /// Whether an invalid config of this dialect among several sources
    /// (`hook_sources`) is left out and reported (a warning naming it and
    /// what is wrong) instead of failing the engine: the agent rejects that
    /// one file and keeps loading its other sources (Cursor).
    fn skips_invalid_source(&self) -> bool {
        false
    }

    /// Whether an invalid config of this dialect given alone (`hooks`,
    /// `hooks_file`) loads as no hooks with a warning naming what is wrong
    /// instead of failing the engine: the agent never stops for a hooks
    /// problem (Codex). Reading the file itself (`hookline check`) still
    /// reports the error.
    fn skips_an_invalid_config_alone(&self) -> bool {
        false
    }

    /// How many `async` hooks of this dialect may run at once in one
    /// engine (a session); the others wait for a slot (`None`: no bound).
    fn max_async_hooks(&self) -> Option<usize> {
        None
    }

    /// Whether a file of this dialect listed again among several sources
    /// (`hook_sources`, the same path) is loaded only once: the agent reads
    /// a file shared by two of its layers once (Codex).
    fn loads_a_file_once(&self) -> bool {
        false
    }

    /// Event keys the agent defines that have no canonical meaning: they
    /// are kept as named events (fired with `hl_engine_run_named`) and are
    /// not unknown keys (Codex: `PostCompact`; Cursor: `beforeReadFile`,
    /// `afterFileEdit`, ...).
    fn native_event_keys(&self) -> &'static [&'static str] {
        &[]
    }

    /// Combine the fields with no canonical slot that a hook of this
    /// dialect wrote (`fields`) with those of the hooks before it (`into`,
    /// the outcome's `dialect_fields.<name>`). The default: as the
    /// profile's [`FieldMerge`](crate::model::rules::FieldMerge) says.
    fn merge_fields(&self, event: &RunEvent, into: &mut Map<String, Value>, fields: Map<String, Value>) {
        let _ = event;
        merge_fields_by(self.profile().dialect_fields, into, fields);
    }

    /// The merged fields with no canonical slot (`fields`, the outcome's
    /// `dialect_fields.<name>`) once every hook of the run is merged;
    /// `blocked` says whether the run's outcome blocks (a PreToolUse deny,
    /// a blocked prompt, a Stop or PostToolUse block). The dialect drops
    /// what its agent does not use then. The default keeps every field.
    fn finish_fields(&self, event: &RunEvent, blocked: bool, fields: &mut Map<String, Value>) {
        let _ = (event, blocked, fields);
    }

    /// The event input the next hook of a run made one after another reads
    /// after this hook (`exec`) ran on `input`, `None` when it is unchanged
    /// (used where the rule table runs an event
    /// [`SequentialWhenAsked`](crate::model::rules::RunOrder)).
    fn chain_input(
        &self,
        event: &RunEvent,
        input: &Map<String, Value>,
        exec: &HookExecution,
    ) -> Option<Map<String, Value>> {
        let _ = (event, input, exec);
        None
    }

    /// Drop from `reply` (one hook's, read by any reader) what this
    /// dialect's agent cannot express on `event` (of `family` in this
    /// dialect's table), when this dialect merges the run; the returned
    /// fields (what was dropped) go to the outcome's
    /// `dialect_fields.<name>`. The default keeps everything (Windsurf's
    /// Cascade has no allow, context or rewrite: each is reported dropped).
    fn restrict_reply(&self, event: &RunEvent, family: EventFamily, reply: &mut HookReply) -> Map<String, Value> {
        let _ = (event, family, reply);
        Map::new()
    }

    /// How the agent runs a shell-form command hook on Windows (its own
    /// module says which shell and why): cmd.exe unless it says otherwise.
    fn windows_shell(&self) -> WindowsShell {
        WindowsShell::CMD
    }

    /// What a hook's `"shell": "powershell"` runs on Windows.
    fn windows_powershell(&self) -> WindowsShell {
        WindowsShell::POWERSHELL
    }

    /// The shell this dialect's command hooks run in.
    fn shell(&self) -> Shell {
        Shell::Sh
    }

    /// The text the shell runs for `hook`'s command (as written), with the
    /// session facts and the hook's environment at hand: the command itself,
    /// unless the agent rewrites commands before running them (Gemini CLI
    /// substitutes `$GEMINI_PROJECT_DIR`, ...).
    fn command_line<'a>(&self, hook: &'a HookSpec, facts: &SessionFacts<'_>, env: &Environment) -> Cow<'a, str> {
        let _ = (facts, env);
        Cow::Borrowed(hook.command_text().unwrap_or_default())
    }

    /// Hooks configured under one of the dialect's own events that also run
    /// as part of a canonical event ([`HookSpec::native_event`](crate::config::HookSpec::native_event): Cursor's
    /// `beforeShellExecution` hooks run in PreToolUse): whether those of
    /// `native_event` run for this input of `event` (Cursor: only for the
    /// shell tool). Their matcher is then tested against what
    /// [`match_subject`](Self::match_subject) says for the native event,
    /// and they read its payload and rules.
    fn native_event_applies(&self, native_event: &str, event: &RunEvent, input: &Value) -> bool {
        let _ = (native_event, event, input);
        true
    }
}

/// [`Dialect::merge_fields`]'s default: the fields combine as `how` says
/// (`FirstOrAppended`: a field keeps the first hook's value, except that
/// arrays collect every hook's values in configuration order; `Last`: the
/// last hook that gave a field wins).
pub fn merge_fields_by(
    how: crate::model::rules::FieldMerge,
    into: &mut Map<String, Value>,
    fields: Map<String, Value>,
) {
    use crate::model::rules::FieldMerge;
    for (key, value) in fields {
        match (into.get_mut(&key), value, how) {
            (None, value, _) => {
                into.insert(key, value);
            }
            (Some(old), value, FieldMerge::Last) => *old = value,
            (Some(Value::Array(items)), Value::Array(more), FieldMerge::FirstOrAppended) => items.extend(more),
            (Some(_), _, FieldMerge::FirstOrAppended) => {}
        }
    }
}

/// [`merge_fields_by`] with `FirstOrAppended`: a field keeps the first
/// hook's value, except that arrays collect every hook's values in
/// configuration order.
pub fn merge_fields_first_wins(into: &mut Map<String, Value>, fields: Map<String, Value>) {
    merge_fields_by(crate::model::rules::FieldMerge::FirstOrAppended, into, fields);
}

/// A command hook's answer: its exit status and its output
/// ([`Dialect::blocking_answer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockingAnswer {
    /// The exit status.
    pub exit_code: u8,
    /// What it writes on stdout (nothing when `None`).
    pub stdout: Option<String>,
    /// What it writes on stderr (nothing when `None`).
    pub stderr: Option<String>,
}

/// The blocking answer of an event whose exit-2 rule is `exit2`: exit 2 with
/// `reason` where the reader takes it (stderr; the raw stdout text where
/// the agent reads only that, Cursor), or `None` when exit 2 does not block.
/// A rule whose reason is stdout JSON alone has no generic answer: its
/// dialect gives its own.
pub fn exit2_blocking_answer(exit2: crate::model::rules::Exit2, reason: &str) -> Option<BlockingAnswer> {
    use crate::model::rules::{Exit2, Exit2Reason};
    let Exit2::Block { reason: source, .. } = exit2 else { return None };
    let on_stderr = BlockingAnswer { exit_code: 2, stdout: None, stderr: Some(reason.to_owned()) };
    match source {
        Exit2Reason::StderrIgnoringStdout | Exit2Reason::StderrThenStdout | Exit2Reason::StdoutThenStderr => {
            Some(on_stderr)
        }
        Exit2Reason::RawStdout => Some(BlockingAnswer { exit_code: 2, stdout: Some(reason.to_owned()), stderr: None }),
        Exit2Reason::StdoutIgnoringStderr => Some(BlockingAnswer {
            stdout: Some(serde_json::json!({"decision": "block", "reason": reason}).to_string()),
            ..on_stderr
        }),
    }
}

/// What a [`Placeholder`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceholderValue {
    /// The canonical workspace.
    ProjectDir,
    /// The plugin root of the hook's source (when it has one).
    PluginRoot,
}

/// A variable a dialect gives its hooks that holds a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placeholder {
    /// The variable's name (`CLAUDE_PROJECT_DIR`).
    pub name: &'static str,
    /// What it holds.
    pub value: PlaceholderValue,
}

/// Every dialect hookline implements, in the order names are listed.
/// Recognition by path ([`for_path`]) asks them in the reverse order: a
/// later dialect's file names are more specific (VT Code's `*.toml` is the
/// fallback for `.toml` files no other dialect claims; Copilot CLI's
/// `.github/hooks/hooks.json` is not a Claude Code plugin's `hooks/hooks.json`,
/// and a Gemini CLI extension's `hooks/hooks.json` is a Claude Code plugin's
/// file name too).
pub static ALL: &[&dyn Dialect] = &[
    &vtcode::VTCODE,
    &claude::CLAUDE,
    &codex::CODEX,
    &gemini::GEMINI,
    &cursor::CURSOR,
    &copilot::COPILOT,
    &vscode::VSCODE,
    &cline::CLINE,
    &windsurf::WINDSURF,
    &qwen::QWEN,
    &kiro::KIRO,
    &devin::DEVIN_CLI,
    &factory::FACTORY,
    &crush::CRUSH,
    &openhands::OPENHANDS,
    &goose::GOOSE,
    &augment::AUGMENT,
];

/// A path's file name and the name of the folder it is in (`""` where
/// there is none or it is not UTF-8): what most dialects recognise their
/// files by (`.devin/hooks.v1.json`).
pub(crate) fn file_and_dir_names(path: &Path) -> (&str, &str) {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let dir = path.parent().and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or("");
    (name, dir)
}

/// The VT Code dialect.
pub static VTCODE: &dyn Dialect = &vtcode::VTCODE;

/// The Claude Code dialect.
pub static CLAUDE: &dyn Dialect = &claude::CLAUDE;

/// The OpenAI Codex dialect.
pub static CODEX: &dyn Dialect = &codex::CODEX;

/// The Cursor dialect.
pub static CURSOR: &dyn Dialect = &cursor::CURSOR;

/// The GitHub Copilot CLI dialect.
pub static COPILOT: &dyn Dialect = &copilot::COPILOT;

/// The VS Code agent hooks dialect.
pub static VSCODE: &dyn Dialect = &vscode::VSCODE;

/// The Gemini CLI dialect.
pub static GEMINI: &dyn Dialect = &gemini::GEMINI;

/// The Cline dialect.
pub static CLINE: &dyn Dialect = &cline::CLINE;
/// The Qwen Code dialect.
pub static QWEN: &dyn Dialect = &qwen::QWEN;

/// The Devin CLI dialect.
pub static DEVIN_CLI: &dyn Dialect = &devin::DEVIN_CLI;

/// The Factory Droid dialect.
pub static FACTORY: &dyn Dialect = &factory::FACTORY;

/// The goose (Open Plugins) dialect.
pub static GOOSE: &dyn Dialect = &goose::GOOSE;
/// The Augment (Auggie CLI) dialect.
pub static AUGMENT: &dyn Dialect = &augment::AUGMENT;

/// The Windsurf / Devin Desktop (Cascade) dialect.
pub static WINDSURF: &dyn Dialect = &windsurf::WINDSURF;

/// The Kiro dialect (v1 hook files).
pub static KIRO: &dyn Dialect = &kiro::KIRO;

/// The Crush dialect.
pub static CRUSH: &dyn Dialect = &crush::CRUSH;

/// Two dialect values are the same dialect.
pub fn same(a: &dyn Dialect, b: &dyn Dialect) -> bool {
    a.name() == b.name()
}

/// A dialect's position in [`ALL`] (for per-dialect caches).
pub fn index_of(d: &dyn Dialect) -> usize {
    ALL.iter().position(|x| same(*x, d)).unwrap_or(0)
}

/// The dialect of a name; `InvalidArgument` listing the valid names otherwise.
pub fn by_name(name: &str) -> Result<&'static dyn Dialect> {
    ALL.iter().copied().find(|d| d.name() == name).ok_or_else(|| {
        Error::invalid_argument(format!("unknown dialect {name:?}: the dialects are {}", names().join(", ")))
    })
}

/// The names of every dialect.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|d| d.name()).collect()
}

/// Every dialect's workspace hooks files, in the order of [`ALL`].
pub fn workspace_files() -> Vec<&'static str> {
    ALL.iter().flat_map(|d| d.workspace_files()).copied().collect()
}

/// One hooks file a host reads ([`settings_files`]).
#[derive(Clone, Debug)]
pub struct SettingsFile {
    /// Where it is.
    pub path: std::path::PathBuf,
    /// The dialect whose file it is.
    pub dialect: &'static dyn Dialect,
    /// A system or user file (trusted: runs without workspace approval),
    /// not one of the workspace's.
    pub trusted: bool,
    /// A [system file](Dialect::system_files).
    pub system: bool,
    /// A policy file ([`Dialect::system_files_are_policy`]): load it as a
    /// policy source (`hook_sources[i].policy`).
    pub policy: bool,
}

/// The hooks files that exist which hosts of the dialects read for
/// `workspace` and the home directory `home` (`None`: no user files), the
/// settings a host would load: per dialect, in the order of [`ALL`], its
/// [user files](Dialect::user_files) (trusted) and then its
/// [workspace files](Dialect::workspace_files) (Claude Code: user, project,
/// local; Cursor: project, then user), or only the first of them that exists for a dialect whose user
/// files are a fallback (VT Code).
pub fn settings_files(workspace: &Path, home: Option<&Path>) -> Vec<SettingsFile> {
    settings_files_under(workspace, home, Path::new("/"))
}

/// [`settings_files`] with the [system files](Dialect::system_files) looked
/// up under `root` instead of `/`.
pub fn settings_files_under(workspace: &Path, home: Option<&Path>, root: &Path) -> Vec<SettingsFile> {
    let mut out = Vec::new();
    for d in ALL.iter().copied() {
        let file = |path: std::path::PathBuf, trusted| SettingsFile {
            path,
            dialect: d,
            trusted,
            system: false,
            policy: false,
        };
        let system = |files: &'static [&'static str], policy: bool| {
            files
                .iter()
                .flat_map(|p| existing_files(&root.join(p.trim_start_matches('/'))))
                .filter(|p| d.admits_system_file(p))
                .map(|path| SettingsFile { path, dialect: d, trusted: true, system: true, policy })
                .collect::<Vec<_>>()
        };
        out.extend(system(d.system_files(), d.system_files_are_policy()));
        let user = home.map(|h| d.user_files(h)).unwrap_or_default().into_iter().filter(|p| {
            if d.reads_hooks_folders() {
                p.is_dir()
            } else {
                p.is_file()
            }
        });
        let at_home = home.is_some_and(|h| same_dir(h, workspace));
        let project: Vec<SettingsFile> = d
            .workspace_files()
            .iter()
            .filter(|_| d.reads_workspace_at_home() || !at_home)
            .flat_map(|f| existing_sources(d, &workspace.join(f)))
            .map(|p| file(p, false))
            .collect();
        if d.user_files_are_a_fallback() {
            match project.into_iter().next() {
                Some(first) => out.push(first),
                None => out.extend(user.take(1).map(|p| file(p, true))),
            }
        } else if d.user_files_come_last() {
            out.extend(project);
            out.extend(user.map(|p| file(p, true)));
        } else {
            out.extend(user.map(|p| file(p, true)));
            out.extend(project);
        }
        out.extend(system(d.late_system_files(), false));
    }
    out
}

/// The dialect whose policy file `path` is: one of the
/// [system files](Dialect::system_files) of a dialect whose system files
/// are policy ([`Dialect::system_files_are_policy`]), that the dialect's
/// host reads ([`Dialect::admits_system_file`]). A file given by path (the
/// command line's `--config`) is then a policy source as when a host finds
/// it.
pub fn policy_file_dialect(path: &Path) -> Option<&'static dyn Dialect> {
    let path = std::path::absolute(path).ok()?;
    ALL.iter().copied().filter(|d| d.system_files_are_policy()).find(|d| {
        d.system_files().iter().any(|pattern| {
            let pattern = Path::new(pattern);
            let by_pattern = match pattern.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_prefix('*')) {
                Some(suffix) => {
                    path.parent() == pattern.parent()
                        && path
                            .file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.len() > suffix.len() && n.ends_with(suffix))
                }
                None => path == pattern,
            };
            by_pattern && path.is_file() && d.admits_system_file(&path)
        })
    })
}

/// Whether `a` and `b` name the same directory (compared canonically when
/// both exist).
fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The sources a path of `dialect`'s names that exist: the folder itself
/// for a dialect whose hooks are folders (Cline), else its
/// [existing files](existing_files).
fn existing_sources(dialect: &dyn Dialect, path: &Path) -> Vec<std::path::PathBuf> {
    match dialect.reads_hooks_folders() {
        true if path.is_dir() => vec![path.to_owned()],
        true => Vec::new(),
        false => existing_files(path),
    }
}

/// The files a settings-file path names that exist: the path itself, or,
/// for a `*.ext` file name (`.github/hooks/*.json`), every file of that
/// directory with that extension, in name order.
fn existing_files(path: &Path) -> Vec<std::path::PathBuf> {
    if let Some(expanded) = expand_star_dir(path) {
        return expanded;
    }
    let pattern = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_prefix('*'));
    match (pattern, path.parent()) {
        (Some(suffix), Some(dir)) => {
            let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
            let mut files: Vec<_> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.len() > suffix.len() && n.ends_with(suffix))
                })
                .collect();
            files.sort();
            files
        }
        _ if path.is_file() => vec![path.to_owned()],
        _ => Vec::new(),
    }
}

/// The files of a path with a `*` folder (`.agents/plugins/*/hooks/hooks.json`:
/// every folder there, in name order), `None` when no folder of the path is
/// `*`.
fn expand_star_dir(path: &Path) -> Option<Vec<std::path::PathBuf>> {
    let parts: Vec<_> = path.components().collect();
    let at = parts[..parts.len().saturating_sub(1)].iter().position(|c| c.as_os_str() == "*")?;
    let dir: std::path::PathBuf = parts[..at].iter().collect();
    let rest: std::path::PathBuf = parts[at + 1..].iter().collect();
    let Ok(entries) = std::fs::read_dir(&dir) else { return Some(Vec::new()) };
    let mut dirs: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
    dirs.sort();
    Some(dirs.into_iter().flat_map(|d| existing_files(&d.join(&rest))).collect())
}

/// The [borrowed workspace files](Dialect::borrowed_workspace_files) of
/// `dialect` that exist under `workspace`, in its order: what a host of
/// that agent alone reads after the files [`settings_files`] gives it.
pub fn borrowed_settings_files(workspace: &Path, dialect: &'static dyn Dialect) -> Vec<SettingsFile> {
    dialect
        .borrowed_workspace_files()
        .iter()
        .flat_map(|f| existing_files(&workspace.join(f)))
        .map(|path| SettingsFile { path, dialect, trusted: false, system: false, policy: false })
        .collect()
}

/// The plugin root of a hooks file at `path` (see
/// [`Dialect::plugin_root_of`]), asking `explicit` when given, else the
/// dialect that recognises the path.
pub fn plugin_root_of(path: &Path, explicit: Option<&'static dyn Dialect>) -> Option<std::path::PathBuf> {
    explicit.or_else(|| for_path(path))?.plugin_root_of(path)
}

/// The plugin root of a plugin's `…/hooks/hooks.json`: the directory above
/// `hooks/` (`.` for a relative `hooks/hooks.json`).
pub(crate) fn plugin_hooks_json_root(path: &Path) -> Option<std::path::PathBuf> {
    let dir = path.parent()?;
    if path.file_name()? != "hooks.json" || dir.file_name()? != "hooks" {
        return None;
    }
    Some(match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => Path::new(".").to_owned(),
    })
}

/// Each key of `entry` (a group or hook object at `path`) that is not one
/// of `known`, as a config warning with the closest known name: the agent
/// ignores such a key, so a misspelt `matcher` makes a group match every
/// tool and a misspelt `timeout` leaves the default in force.
pub(crate) fn warn_unknown_fields(cfg: &mut HooksConfig, path: &str, entry: &Value, known: &[&str]) {
    let Some(obj) = entry.as_object() else {
        return;
    };
    for key in obj.keys().filter(|k| !known.contains(&k.as_str())) {
        let hint = match crate::suggest::closest(key, known.iter().copied()) {
            Some(s) => format!("; did you mean `{s}`?"),
            None => String::new(),
        };
        cfg.push_warning(path, format!("unknown field `{key}` is ignored{hint}"));
    }
}

/// The workspace a hooks file belongs to: the directory above the file's
/// place among its dialect's workspace files (`/p` for
/// `/p/.claude/settings.json`), else the file's own directory.
pub fn project_dir_of(config: &Path) -> std::path::PathBuf {
    for rel in workspace_files() {
        let mut dir = Some(config);
        let mut matched = true;
        for part in Path::new(rel).components().rev() {
            match dir {
                Some(d) if d.file_name().is_some_and(|name| name_matches(part.as_os_str(), name)) => dir = d.parent(),
                _ => {
                    matched = false;
                    break;
                }
            }
        }
        if let (true, Some(d)) = (matched, dir) {
            return if d.as_os_str().is_empty() { Path::new(".").to_owned() } else { d.to_owned() };
        }
    }
    match config.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => Path::new(".").to_owned(),
    }
}

/// A file name against a workspace-file pattern: exact, or `*.ext` (any
/// name with that extension).
fn name_matches(pattern: &std::ffi::OsStr, name: &std::ffi::OsStr) -> bool {
    match (pattern.to_str().and_then(|p| p.strip_prefix('*')), name.to_str()) {
        (Some(suffix), Some(name)) => name.len() > suffix.len() && name.ends_with(suffix),
        _ => pattern == name,
    }
}

/// The hooks files of a workspace, in the dialects' order: every
/// [`Dialect::workspace_files`] entry that exists under `workspace`, a
/// `*.json` pattern giving the directory's JSON files in name order (a
/// Cline hooks folder is one source).
pub fn workspace_configs(workspace: &Path) -> Vec<std::path::PathBuf> {
    ALL.iter()
        .flat_map(|d| d.workspace_files().iter().flat_map(move |rel| existing_sources(*d, &workspace.join(rel))))
        .collect()
}

/// The dialect that recognises a hooks file by its path, if one does (the
/// most specific: the last in [`ALL`] that recognises it).
pub fn for_path(path: &Path) -> Option<&'static dyn Dialect> {
    ALL.iter().rev().copied().find(|d| d.recognises_path(path))
}

/// The dialect of a JSON config by its shape, when neither an option nor
/// the file's path names one: a `lifecycle` key (at the top level or under
/// `hooks`) is VT Code; `version` with a `hooks` object of Cursor's
/// camelCase events only is Cursor; a `hooks` object alone, of Cascade's
/// snake_case events only, is Windsurf; anything else Claude Code.
pub fn for_shape(value: &Value) -> &'static dyn Dialect {
    let has_lifecycle = |v: &Value| v.as_object().is_some_and(|o| o.contains_key("lifecycle"));
    if has_lifecycle(value) || value.get("hooks").is_some_and(has_lifecycle) {
        VTCODE
    } else if cursor::has_shape(value) {
        CURSOR
    } else if windsurf::has_shape(value) {
        WINDSURF
    } else {
        CLAUDE
    }
}

/// The event key of `dialect` that `key` is probably a misspelling of (the
/// same letters once case, `_` and `-` are ignored, or a few letters off:
/// [`crate::suggest::closest`]), among its keys of the canonical events and
/// its [native event keys](Dialect::native_event_keys), if any.
pub fn suggest_event_key(dialect: &dyn Dialect, key: &str) -> Option<&'static str> {
    let keys = HookEvent::ALL.iter().flat_map(|e| dialect.event_keys(*e)).chain(dialect.native_event_keys());
    crate::suggest::closest(key, keys.copied())
}

/// What a callback hook's matcher (`hl_engine_add_callback_hook`) is tested
/// against: callback hooks are host code, and their matchers follow the
/// Claude Code rule whatever the config's dialect — except that on
/// SubagentStart and SubagentStop an input without Claude Code's
/// `agent_type` is matched on VT Code's `agent_name`, so that a VT Code
/// host's callback matchers keep working.
pub fn callback_match_subject<'a>(event: &RunEvent, input: &'a Value, trigger: &'a str) -> Option<&'a str> {
    if matches!(event, RunEvent::Known(HookEvent::SubagentStart | HookEvent::SubagentStop))
        && !input.get("agent_type").is_some_and(Value::is_string)
    {
        return VTCODE.match_subject(event, input, trigger);
    }
    CLAUDE.match_subject(event, input, trigger)
}

/// How a config source's dialect is chosen: `explicit` (the option), else
/// the file's path, else the shape of its JSON (TOML text is VT Code's).
pub fn select(
    explicit: Option<&'static dyn Dialect>,
    path: Option<&Path>,
    json: Option<&Value>,
) -> &'static dyn Dialect {
    if let Some(d) = explicit {
        return d;
    }
    if let Some(d) = path.and_then(for_path) {
        return d;
    }
    match json {
        Some(v) => for_shape(v),
        None => VTCODE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every agent lets a command hook deny a tool call: each dialect has a
    /// blocking answer on PreToolUse (exit 2; Cline's is `{"cancel": true}`
    /// on exit 0: "no special meaning for 2"), and none on SessionEnd.
    #[test]
    fn every_dialect_has_a_blocking_answer_where_its_hooks_can_block() {
        for d in ALL {
            let a = d.blocking_answer(&RunEvent::Known(HookEvent::PreToolUse), "why").unwrap_or_else(|| {
                panic!("{}: no blocking answer on PreToolUse", d.name());
            });
            assert_eq!(a.exit_code, if d.name() == "cline" { 0 } else { 2 }, "{}", d.name());
            let said = a.stdout.iter().chain(&a.stderr).any(|t| t.contains("why"));
            assert!(said, "{}: the reason is written: {a:?}", d.name());
            assert!(d.blocking_answer(&RunEvent::Known(HookEvent::SessionEnd), "why").is_none(), "{}", d.name());
        }
    }

    /// Every dialect declares, as pin placeholders, each variable its hooks
    /// get that names the project directory (every one its environment sets
    /// to the session's directory) and each plugin root variable, and
    /// declares nothing its hooks do not get: a dialect cannot leave a
    /// directory variable of its agent unpinned.
    #[test]
    fn every_directory_variable_a_dialect_sets_is_a_pin_placeholder() {
        let dir = "/sentinel/project dir";
        let facts = SessionFacts { session_id: "s", cwd: dir, transcript_path: Some("/t.jsonl"), trigger: "startup" };
        let values: Vec<&dyn Dialect> = ALL.iter().copied().chain([&copilot::COPILOT_COMPAT as &dyn Dialect]).collect();
        for d in values {
            let mut set: Vec<(&'static str, String)> = Vec::new();
            for e in HookEvent::ALL {
                d.environment(&RunEvent::Known(e), &facts, &mut |k, v| set.push((k, v.to_owned())));
            }
            let declared = |name: &str, value: PlaceholderValue| {
                d.placeholders().iter().any(|p| p.name == name && p.value == value)
            };
            for (name, value) in &set {
                if value == dir {
                    assert!(declared(name, PlaceholderValue::ProjectDir), "{}: ${name} is not a placeholder", d.name());
                }
            }
            for name in d.plugin_root_variables() {
                assert!(declared(name, PlaceholderValue::PluginRoot), "{}: ${name} is not a placeholder", d.name());
            }
            for p in d.placeholders() {
                let given = match p.value {
                    PlaceholderValue::ProjectDir => set.iter().any(|(n, v)| *n == p.name && v == dir),
                    PlaceholderValue::PluginRoot => d.plugin_root_variables().contains(&p.name),
                };
                assert!(given, "{}: placeholder ${} is not what its hooks get", d.name(), p.name);
            }
        }
    }

    #[test]
    fn unknown_dialect_names_list_the_valid_ones() {
        let e = by_name("cursr").unwrap_err();
        assert_eq!(e.status, crate::Status::InvalidArgument);
        for d in ALL {
            assert!(e.message.contains(d.name()), "{}", e.message);
        }
        assert_eq!(by_name("claude").unwrap().name(), "claude");
    }

    #[test]
    fn shape_detection_is_the_fallback_lifecycle_means_vtcode() {
        assert_eq!(for_shape(&json!({"lifecycle": {}})).name(), "vtcode");
        assert_eq!(for_shape(&json!({"hooks": {"lifecycle": {}}})).name(), "vtcode");
        assert_eq!(for_shape(&json!({"PreToolUse": []})).name(), "claude");
        assert_eq!(for_shape(&json!({"hooks": {"Stop": []}})).name(), "claude");
        assert_eq!(for_shape(&json!({"version": 1, "hooks": {"stop": [], "beforeReadFile": []}})).name(), "cursor");
        assert_eq!(for_shape(&json!({"hooks": {"stop": []}})).name(), "claude", "Cursor's shape has a version");
        assert_eq!(for_shape(&json!({"version": 1, "hooks": {"Stop": []}})).name(), "claude");
    }

    #[test]
    fn cursor_files_are_recognised_by_path_and_belong_to_the_project_above() {
        assert_eq!(for_path(Path::new("/p/.cursor/hooks.json")).map(|d| d.name()), Some("cursor"));
        assert_eq!(for_path(Path::new("/etc/cursor/hooks.json")).map(|d| d.name()), Some("cursor"));
        assert_eq!(for_path(Path::new("/p/hooks/hooks.json")).map(|d| d.name()), Some("claude"));
        assert_eq!(project_dir_of(Path::new("/p/.cursor/hooks.json")), Path::new("/p"));
        assert_eq!(select(Some(CURSOR), Some(Path::new("/p/hooks.json")), None).name(), "cursor");
    }

    #[test]
    fn an_explicit_dialect_beats_the_path_and_the_path_beats_the_shape() {
        let settings = Path::new("/p/.claude/settings.json");
        let shape = json!({"lifecycle": {}});
        assert_eq!(select(None, Some(settings), Some(&shape)).name(), "claude");
        assert_eq!(select(Some(VTCODE), Some(settings), None).name(), "vtcode");
        assert_eq!(select(None, Some(Path::new("/p/hooks.json")), Some(&shape)).name(), "vtcode");
        assert_eq!(select(None, Some(Path::new("/p/vtcode.toml")), None).name(), "vtcode");
    }

    #[test]
    fn codex_files_are_recognised_before_the_vt_code_toml_fallback() {
        assert_eq!(for_path(Path::new("/p/.codex/hooks.json")).map(|d| d.name()), Some("codex"));
        assert_eq!(for_path(Path::new("/p/.codex/config.toml")).map(|d| d.name()), Some("codex"));
        assert_eq!(for_path(Path::new("/home/u/.codex/config.toml")).map(|d| d.name()), Some("codex"));
        assert_eq!(for_path(Path::new("/p/config.toml")).map(|d| d.name()), Some("vtcode"));
        assert_eq!(for_path(Path::new("/p/.claude/settings.json")).map(|d| d.name()), Some("claude"));
        assert_eq!(for_path(Path::new("/p/hooks.json")).map(|d| d.name()), None);
        assert_eq!(select(Some(CODEX), Some(Path::new("/p/hooks.json")), None).name(), "codex");
    }

    /// "Readers declare the rule columns they honour": every column a table
    /// sets (a value other than the neutral row's) must be honoured by the
    /// event's reader in that dialect or by the canonical merge.
    #[test]
    fn every_column_a_table_sets_is_honoured_by_its_reader_or_the_merge() {
        let named = ALL.iter().flat_map(|d| d.profile().named).map(|n| RunEvent::Named(n.name.into()));
        let events: Vec<RunEvent> = HookEvent::ALL
            .iter()
            .map(|e| RunEvent::Known(*e))
            .chain(named)
            .chain([RunEvent::Named("Custom".into())])
            .collect();
        for event in &events {
            let event = event.clone();
            for d in ALL {
                for column in d.profile().rules_of(&event).set_columns() {
                    assert!(
                        honoured(*d, &event, column),
                        "the {} table sets {column:?} for {event}, which neither its reader nor the merge honours",
                        d.name()
                    );
                }
            }
        }
    }

    fn honoured(d: &dyn Dialect, event: &RunEvent, column: Column) -> bool {
        let family = d.profile().family_of(event);
        d.honours(event).contains(&column)
            || crate::merge::honours(family).contains(&column)
            || crate::handler::layer::timeout::HONOURS.contains(&column)
    }

    #[test]
    fn the_coverage_check_rejects_a_column_nothing_honours() {
        // Exit 2 has no blocking meaning on SessionStart, and SessionStart
        // has no decisions to stop at: a table setting either would fail.
        let session_start = RunEvent::Known(HookEvent::SessionStart);
        assert!(!honoured(CLAUDE, &session_start, Column::Exit2Block));
        assert!(!honoured(CLAUDE, &session_start, Column::FirstDenyStops));
        assert!(!honoured(COPILOT, &session_start, Column::Exit2Context));
        assert!(!honoured(CLAUDE, &RunEvent::Known(HookEvent::Stop), Column::MostRestrictive));
        assert!(honoured(CLAUDE, &RunEvent::Known(HookEvent::PreToolUse), Column::MostRestrictive));
    }

    #[test]
    fn match_subject_follows_the_event_table() {
        use HookEvent::*;
        let input = json!({
            "reason": "exit", "agent_name": "explorer", "agent_type": "Explore", "prompt": "hi",
            "tool_name": "Bash", "trigger": "auto", "notification_type": "idle_prompt"
        });
        let subject = |d: &dyn Dialect, e: HookEvent, trigger: &'static str| {
            d.match_subject(&RunEvent::Known(e), &input, trigger).map(str::to_owned)
        };
        for d in [VTCODE, CLAUDE] {
            assert_eq!(subject(d, SessionStart, "resume").as_deref(), Some("resume"));
            assert_eq!(subject(d, SessionEnd, "startup").as_deref(), Some("exit"));
            for e in [PreToolUse, PostToolUse, PermissionRequest, PostToolUseFailure] {
                assert_eq!(subject(d, e, "startup").as_deref(), Some("Bash"));
            }
            assert_eq!(subject(d, PreCompact, "startup").as_deref(), Some("auto"));
            assert_eq!(subject(d, Notification, "startup").as_deref(), Some("idle_prompt"));
        }
        // VT Code matches `agent_name`; Claude Code "receive[s] agent_type with
        // the agent name that the matcher filters on".
        for e in [SubagentStart, SubagentStop] {
            assert_eq!(subject(VTCODE, e, "startup").as_deref(), Some("explorer"));
            assert_eq!(subject(CLAUDE, e, "startup").as_deref(), Some("Explore"));
        }
        assert_eq!(subject(VTCODE, UserPromptSubmit, "startup").as_deref(), Some("hi"));
        assert_eq!(subject(CLAUDE, UserPromptSubmit, "startup"), None);
        assert_eq!(subject(VTCODE, Stop, "startup").as_deref(), Some("stop"));
        assert_eq!(subject(CLAUDE, Stop, "startup"), None);
        // A missing subject field is the empty string.
        assert_eq!(VTCODE.match_subject(&RunEvent::Known(PreToolUse), &json!({}), "startup"), Some(""));
    }

    #[test]
    fn a_config_belongs_to_the_workspace_above_its_place() {
        assert_eq!(project_dir_of(Path::new("/p/.claude/settings.json")), Path::new("/p"));
        assert_eq!(project_dir_of(Path::new("/p/.claude/settings.local.json")), Path::new("/p"));
        assert_eq!(project_dir_of(Path::new("/p/vtcode.toml")), Path::new("/p"));
        assert_eq!(project_dir_of(Path::new("/p/.codex/hooks.json")), Path::new("/p"));
        assert_eq!(project_dir_of(Path::new("/p/.codex/config.toml")), Path::new("/p"));
        assert_eq!(project_dir_of(Path::new("/p/conf/hooks.json")), Path::new("/p/conf"));
        assert_eq!(project_dir_of(Path::new(".claude/settings.json")), Path::new("."));
        assert_eq!(project_dir_of(Path::new("hooks.json")), Path::new("."));
        assert_eq!(project_dir_of(Path::new("/p/.github/hooks/guard.json")), Path::new("/p"));
        assert_eq!(project_dir_of(Path::new("/p/.github/copilot/settings.json")), Path::new("/p"));
    }

    #[test]
    fn copilot_hooks_files_are_copilot_by_path_claude_settings_stay_claude() {
        assert_eq!(select(None, Some(Path::new("/p/.github/hooks/hooks.json")), None).name(), "copilot");
        assert_eq!(select(None, Some(Path::new("/p/.github/hooks/guard.json")), None).name(), "copilot");
        assert_eq!(select(None, Some(Path::new("/p/.claude/settings.json")), None).name(), "claude");
        assert_eq!(select(Some(COPILOT), Some(Path::new("/p/.claude/settings.json")), None).name(), "copilot");
        assert_eq!(select(None, Some(Path::new("/plugins/x/hooks/hooks.json")), None).name(), "claude");
        assert_eq!(select(Some(VSCODE), Some(Path::new("/p/.github/hooks/guard.json")), None).name(), "vscode");
    }

    #[test]
    fn a_plugins_hooks_json_has_the_directory_above_hooks_as_its_root() {
        let root = |p: &str, d| plugin_root_of(Path::new(p), d);
        assert_eq!(root("/plugins/guard/hooks/hooks.json", None), Some("/plugins/guard".into()));
        assert_eq!(root("hooks/hooks.json", None), Some(".".into()));
        assert_eq!(root("/plugins/guard/hooks/hooks.json", Some(CODEX)), Some("/plugins/guard".into()));
        assert_eq!(root("/plugins/guard/hooks/hooks.json", Some(VTCODE)), None, "VT Code has no plugins");
        assert_eq!(root("/p/.claude/settings.json", None), None);
        assert_eq!(root("/p/.codex/hooks.json", None), None);
        assert_eq!(root("/p/hooks.json", None), None);
        assert_eq!(root("/p/hooks/other.json", None), None);
    }

    /// "Load the settings a host would": per dialect, the user's files
    /// (trusted) then the workspace's, only those that exist; VT Code's
    /// user file only when the workspace has no vtcode.toml.
    #[test]
    fn settings_files_are_the_users_then_the_workspaces_per_dialect() {
        if ["CLAUDE_CONFIG_DIR", "CODEX_HOME"].iter().any(|v| std::env::var_os(v).is_some()) {
            return; // the user files are elsewhere; the test is about the defaults
        }
        let dir = tempfile::tempdir().unwrap();
        let (home, ws) = (dir.path().join("home"), dir.path().join("ws"));
        let touch = |p: &std::path::PathBuf| {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "{}").unwrap();
        };
        let files = [
            home.join(".claude/settings.json"),
            home.join(".codex/config.toml"),
            home.join(".vtcode/vtcode.toml"),
            ws.join(".claude/settings.json"),
            ws.join(".claude/settings.local.json"),
            ws.join(".codex/hooks.json"),
        ];
        files.iter().for_each(touch);
        let found = |home: Option<&Path>| -> Vec<(String, &'static str, bool)> {
            settings_files(&ws, home)
                .into_iter()
                .map(|f| (f.path.strip_prefix(dir.path()).unwrap().display().to_string(), f.dialect.name(), f.trusted))
                .collect()
        };
        let s = |p: &str, d, t| (p.to_owned(), d, t);
        assert_eq!(
            found(Some(&home)),
            [
                s("home/.vtcode/vtcode.toml", "vtcode", true),
                s("home/.claude/settings.json", "claude", true),
                s("ws/.claude/settings.json", "claude", false),
                s("ws/.claude/settings.local.json", "claude", false),
                s("home/.codex/config.toml", "codex", true),
                s("ws/.codex/hooks.json", "codex", false),
            ]
        );
        touch(&ws.join("vtcode.toml"));
        assert_eq!(found(Some(&home))[0], s("ws/vtcode.toml", "vtcode", false), "the workspace's vtcode.toml wins");
        assert_eq!(found(Some(&home)).len(), 6);
        assert!(found(None).iter().all(|f| !f.2), "without a home directory, only the workspace's files");
        // The machine-wide files come first in each dialect, trusted.
        let root = dir.path().join("root");
        let system = |p: &str| root.join(p.trim_start_matches('/'));
        touch(&system(CLAUDE.system_files()[0]));
        touch(&system(crate::dialect::cursor::CURSOR.system_files()[0]));
        touch(&system("/etc/codex/config.toml"));
        touch(&ws.join(".cursor/hooks.json"));
        let under: Vec<(String, &'static str, bool)> = settings_files_under(&ws, Some(&home), &root)
            .into_iter()
            .map(|f| (f.path.strip_prefix(dir.path()).unwrap().display().to_string(), f.dialect.name(), f.trusted))
            .collect();
        let names: Vec<&str> = under.iter().map(|f| f.0.as_str()).collect();
        let at = |p: &str| names.iter().position(|n| n.ends_with(p)).unwrap_or_else(|| panic!("{p} in {names:?}"));
        assert!(at("managed-settings.json") < at("home/.claude/settings.json"), "{names:?}");
        assert!(at("root/etc/codex/config.toml") < at("home/.codex/config.toml"), "{names:?}");
        let cursor_system = crate::dialect::cursor::CURSOR.system_files()[0].trim_start_matches('/');
        assert!(at(cursor_system) < at("ws/.cursor/hooks.json"), "{names:?}");
        assert!(under.iter().filter(|f| f.0.starts_with("root/")).all(|f| f.2), "system files are trusted");
        // Gemini CLI concatenates "system-defaults, user, project, system".
        let gemini = &crate::dialect::gemini::GEMINI;
        touch(&system(gemini.system_files()[0]));
        touch(&system(gemini.late_system_files()[0]));
        touch(&home.join(".gemini/settings.json"));
        touch(&ws.join(".gemini/settings.json"));
        let order: Vec<String> = settings_files_under(&ws, Some(&home), &root)
            .into_iter()
            .filter(|f| f.dialect.name() == "gemini")
            .map(|f| f.path.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        let defaults = gemini.system_files()[0].trim_start_matches('/');
        let settings = gemini.late_system_files()[0].trim_start_matches('/');
        assert_eq!(
            order,
            [
                format!("root/{defaults}"),
                "home/.gemini/settings.json".to_owned(),
                "ws/.gemini/settings.json".to_owned(),
                format!("root/{settings}"),
            ]
        );
    }

    /// Gemini CLI: "project ("workspace") `<project>/.gemini/settings.json`
    /// | only if the folder is trusted, and not when the project dir is
    /// `$HOME`": in the home directory the user's settings are read once,
    /// as the user's; the other dialects still read their workspace files.
    #[test]
    fn gemini_reads_no_workspace_settings_in_the_home_directory() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let touch = |p: &Path| {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "{}").unwrap();
        };
        touch(&home.join(".gemini/settings.json"));
        touch(&home.join(".codex/hooks.json"));
        let root = dir.path().join("root");
        let found = |ws: &Path| -> Vec<(String, &'static str, bool)> {
            settings_files_under(ws, Some(&home), &root)
                .into_iter()
                .map(|f| (f.path.strip_prefix(dir.path()).unwrap().display().to_string(), f.dialect.name(), f.trusted))
                .collect()
        };
        let gemini = |files: &[(String, &'static str, bool)]| {
            files.iter().filter(|f| f.1 == "gemini").cloned().collect::<Vec<_>>()
        };
        assert_eq!(gemini(&found(&home)), [("home/.gemini/settings.json".to_owned(), "gemini", true)]);
        // Another spelling of the home directory is the home directory too.
        assert_eq!(gemini(&found(&home.join("."))).len(), 1);
        assert!(
            found(&home).iter().any(|f| f.0 == "home/.codex/hooks.json" && !f.2),
            "Codex reads it as the workspace's"
        );
        // Elsewhere the workspace's file is read after the user's.
        let ws = dir.path().join("ws");
        touch(&ws.join(".gemini/settings.json"));
        assert_eq!(gemini(&found(&ws)).len(), 2);
    }

    #[test]
    fn dialect_indexes_follow_all() {
        for (i, d) in ALL.iter().enumerate() {
            assert_eq!(index_of(*d), i);
        }
    }
}
