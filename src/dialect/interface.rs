//! The interface every dialect implements ([`Dialect`]), what its readers
//! are given ([`ReadCtx`]), and the small shared types and defaults its
//! methods return.

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

use super::tools;

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
/// [`ALL`](super::ALL).
pub trait Dialect: std::fmt::Debug + Send + Sync + 'static {
    /// The dialect's name, as the `dialect` option spells it (`"vtcode"`,
    /// `"claude"`, ...).
    fn name(&self) -> &'static str;

    /// The id a configuration names this dialect value by ([`of`](super::of) resolves
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
    /// in this dialect ([`borrowed_settings_files`](super::borrowed_settings_files)).
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
    /// ([`SettingsFile::policy`](super::SettingsFile::policy)).
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

    /// Whether a host of this agent reads the user or workspace hooks file
    /// `path` it found for `workspace` and the home directory `home` (goose
    /// leaves out a plugin its settings disable, and a user's plugin a
    /// project plugin of the same name replaces). Every one by default.
    fn admits_found_file(&self, workspace: &Path, home: Option<&Path>, path: &Path) -> bool {
        let _ = (workspace, home, path);
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
    /// (the table: `claude/handler_support.rs`); a hook of a type it does not run
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
