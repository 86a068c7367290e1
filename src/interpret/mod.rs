//! Reading hook results and merging them into outcomes (the exit-code and
//! JSON tables of `docs/protocol.md`).
//!
//! Pure, synchronous code: the engine runs the hooks and feeds each result,
//! in configuration order, to an [`EventInterpreter`]; `absorb` says when a
//! decision event must stop; `finish` builds the [`HookOutcome`].
//!
//! This module holds what every event shares: how stdout is classified
//! (empty, plain text, a JSON object, invalid JSON), the common JSON fields
//! (`continue`, `stopReason`, `suppressOutput`, `systemMessage`,
//! `hookSpecificOutput`), and the texts of hookline's own messages. The
//! exit-code table of each event is in its own file, next to this one:
//!
//! | event | module |
//! |---|---|
//! | PreToolUse | `pre_tool.rs` |
//! | UserPromptSubmit | `prompt.rs` |
//! | SessionStart | `session_start.rs` |
//! | PostToolUse, PostToolUseFailure | `post_tool.rs` |
//! | PermissionRequest | `permission.rs` |
//! | Stop | `stop.rs` |
//! | Stop, SubagentStop, PreCompact | `stop.rs` |
//! | SessionEnd, SubagentStart, Notification, events fired by name | `observe.rs` |
//!
//! What differs between dialects (run order, what exit 2 means, precedence,
//! context on failed hooks, failure policy) is not decided here: each rule
//! reads its event's row of the profile table ([`crate::profile`]).
//!
//! Choices the hooks protocols leave open (shared by all events):
//! - A timed-out hook's partial output is not read (only the timeout counts).
//! - stdout that parses as a JSON value other than an object (`42`, `"x"`,
//!   `[1]`) carries no fields and is read as plain text.
//! - A non-zero exit's message carries the stderr; a zero exit with stderr
//!   gives its own message. Plain stdout is read whatever the exit code;
//!   only `quiet_success_output` looks at the exit code (exit 0).
//! - `systemMessage` and plain stdout become messages verbatim (trimmed);
//!   messages hookline writes itself name the event and the hook.

pub mod outcome;

mod observe;
mod permission;
mod post_tool;
mod pre_tool;
mod prompt;
mod session_start;
mod stop;

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::callback::{CallResult, Reply};
use crate::event::HookEvent;
use crate::hl_debug;
use crate::profile::{EventRules, Exit2, OnFailure, Profile, RunOrder, ToolInputFlow, VT_CODE};

pub use outcome::{
    CommonOutcome, HookFailure, HookKind, HookMessage, HookMessageLevel, HookOutcome, HookReport, PermissionBehavior,
    PermissionDecision, PermissionRequestHookOutcome, PermissionScope, PostToolHookOutcome, PreToolHookDecision,
    PreToolHookOutcome, SessionStartHookOutcome, StopHookOutcome, UserPromptHookOutcome,
};

/// What one hook produced, as interpretation sees it.
///
/// The engine fills it from a command (exit code, stdout, stderr) or from a
/// callback hook ([`HookExecution::from_callback`]).
#[derive(Clone, Debug, Default)]
pub struct HookExecution {
    /// How messages name the hook: the command text, or the callback name.
    pub label: String,
    /// The exit code; `None` when killed by a signal (a non-zero exit) or timed out.
    pub exit_code: Option<i32>,
    /// The signal that killed the hook, if any.
    pub signal: Option<i32>,
    /// Whether the hook was killed at its timeout.
    pub timed_out: bool,
    /// The configured timeout, for the "timed out after N s" message.
    pub timeout_seconds: u64,
    /// stdout, already decoded from UTF-8 lossily.
    pub stdout: String,
    /// stderr, already decoded from UTF-8 lossily.
    pub stderr: String,
}

impl HookExecution {
    /// The result of a callback hook, read as a command's:
    /// return 0 → exit 0, otherwise exit 1; a JSON reply is the stdout (a
    /// JSON string reply is the plain text it holds); `hl_reply_deny(msg)` →
    /// exit 2 with `msg` as stderr whatever the callback returned;
    /// `hl_reply_allow` → `permissionDecision: "allow"` on PreToolUse and
    /// nothing elsewhere.
    pub fn from_callback(event: HookEvent, name: &str, result: &CallResult) -> HookExecution {
        let mut exec = HookExecution {
            label: name.to_owned(),
            exit_code: Some(if result.ok { 0 } else { 1 }),
            ..HookExecution::default()
        };
        match &result.reply {
            Reply::NoOpinion => {}
            Reply::Allow => {
                if event == HookEvent::PreToolUse {
                    exec.stdout = ALLOW_REPLY_STDOUT.to_owned();
                }
            }
            Reply::Deny(message) => {
                exec.exit_code = Some(2);
                exec.stderr = message.clone();
            }
            Reply::Json(Value::String(text)) => exec.stdout = text.clone(),
            Reply::Json(value) => exec.stdout = value.to_string(),
        }
        exec
    }
}

/// What `hl_reply_allow` reads as on PreToolUse: the stdout of a command
/// hook that allows.
const ALLOW_REPLY_STDOUT: &str =
    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;

/// Why a hook's exit status can be unknown: the process was reaped by
/// someone else (the host ignores SIGCHLD, so the kernel reaps children, or
/// a host handler calls `waitpid(-1)`).
pub(crate) const UNKNOWN_STATUS: &str =
    "ended with an unknown exit status (the host process reaped it: SIGCHLD ignored or a waitpid(-1) handler)";

/// How a hook ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// Exit code 0.
    Success,
    /// A non-zero exit code.
    Code(i32),
    /// Killed by a signal (counts as a non-zero exit).
    Signal(Option<i32>),
    /// Killed at its timeout.
    TimedOut,
}

/// How stdout reads.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Stdout {
    /// Nothing but whitespace.
    Empty,
    /// Plain text (trimmed).
    Plain(String),
    /// A JSON object.
    Json(Map<String, Value>),
    /// Starts with `{` or `[` but does not parse.
    Invalid,
}

impl Stdout {
    fn classify(stdout: &str) -> Stdout {
        let text = stdout.trim();
        if text.is_empty() {
            return Stdout::Empty;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => Stdout::Json(map),
            Ok(_) => Stdout::Plain(text.to_owned()),
            Err(_) if text.starts_with('{') || text.starts_with('[') => Stdout::Invalid,
            Err(_) => Stdout::Plain(text.to_owned()),
        }
    }
}

/// One hook's result, classified once for the event rules.
pub(crate) struct HookRun<'a> {
    event_name: &'a str,
    label: &'a str,
    timeout_seconds: u64,
    /// How it ended.
    pub(crate) exit: Exit,
    /// stderr trimmed; `None` when empty after trimming.
    pub(crate) stderr: Option<&'a str>,
    /// stdout classified.
    pub(crate) stdout: Stdout,
}

impl<'a> HookRun<'a> {
    fn new(event_name: &'a str, exec: &'a HookExecution) -> HookRun<'a> {
        let exit = if exec.timed_out {
            Exit::TimedOut
        } else {
            match exec.exit_code {
                Some(0) => Exit::Success,
                Some(code) => Exit::Code(code),
                None => Exit::Signal(exec.signal),
            }
        };
        HookRun {
            event_name,
            label: &exec.label,
            timeout_seconds: exec.timeout_seconds,
            exit,
            stderr: trimmed(&exec.stderr),
            stdout: if exit == Exit::TimedOut { Stdout::Empty } else { Stdout::classify(&exec.stdout) },
        }
    }

    /// `<Event> hook `<label>``: how hookline's own messages name the hook.
    pub(crate) fn who(&self) -> String {
        who(self.event_name, self.label)
    }

    /// How this hook failed under `rules`, `None` when it answered.
    fn failure(&self, rules: &EventRules) -> Option<HookFailure> {
        match self.exit {
            Exit::TimedOut => Some(HookFailure::Timeout),
            Exit::Signal(Some(_)) => Some(HookFailure::Signal),
            Exit::Signal(None) => Some(HookFailure::Exit),
            Exit::Code(2) if rules.exit2 != Exit2::Ordinary => None,
            Exit::Code(_) => Some(HookFailure::Exit),
            Exit::Success if self.stdout == Stdout::Invalid => Some(HookFailure::InvalidOutput),
            Exit::Success => None,
        }
    }

    /// The message text of a failure, for a fail-closed decision's reason.
    fn failure_text(&self, failure: HookFailure) -> String {
        match (failure, self.exit) {
            (HookFailure::Timeout, _) if self.timeout_seconds > 0 => {
                format!("{} timed out after {} s", self.who(), self.timeout_seconds)
            }
            (HookFailure::Timeout, _) => format!("{} timed out", self.who()),
            (HookFailure::InvalidOutput, _) => format!("{} returned invalid JSON output", self.who()),
            (_, Exit::Signal(Some(signal))) => format!("{} was killed by signal {signal}", self.who()),
            (_, Exit::Code(code)) => match self.stderr {
                Some(stderr) => format!("{} exited with code {code}: {stderr}", self.who()),
                None => format!("{} exited with code {code}", self.who()),
            },
            _ => format!("{} {UNKNOWN_STATUS}", self.who()),
        }
    }

    /// The stdout JSON object, if stdout was one.
    pub(crate) fn json(&self) -> Option<&Map<String, Value>> {
        match &self.stdout {
            Stdout::Json(map) => Some(map),
            _ => None,
        }
    }

    /// `hookSpecificOutput` when it is an object whose `hookEventName` is
    /// absent or names this event (case-insensitively).
    pub(crate) fn specific(&self) -> Option<&Map<String, Value>> {
        let spec = self.json()?.get("hookSpecificOutput")?.as_object()?;
        match spec.get("hookEventName").and_then(Value::as_str) {
            Some(name) if !name.trim().eq_ignore_ascii_case(self.event_name) => {
                hl_debug!("{} hookSpecificOutput for {name} ignored", self.who());
                None
            }
            _ => Some(spec),
        }
    }

    /// A top-level string field, trimmed; `None` when absent, not a string or blank.
    pub(crate) fn text(&self, key: &str) -> Option<String> {
        self.json().and_then(|json| text_field(json, key))
    }

    /// A top-level string field compared case-insensitively.
    pub(crate) fn is(&self, key: &str, value: &str) -> bool {
        self.text(key).is_some_and(|v| v.eq_ignore_ascii_case(value))
    }

    /// Whether the JSON said `"continue": false`.
    pub(crate) fn continue_false(&self) -> bool {
        self.json().and_then(|json| json.get("continue")).and_then(Value::as_bool) == Some(false)
    }

    /// Whether the JSON said `"suppressOutput": true`.
    pub(crate) fn suppress_output(&self) -> bool {
        self.json().and_then(|json| json.get("suppressOutput")).and_then(Value::as_bool) == Some(true)
    }

    /// Whether this hook's stdout may become context under `rules` (the
    /// Claude Code profile: only when it exited 0).
    pub(crate) fn context_allowed(&self, rules: &EventRules) -> bool {
        !rules.context_needs_exit_0 || self.exit == Exit::Success
    }

    /// Exit 2 under a profile where it is the event's blocking answer:
    /// `Some(needs_stderr)`.
    pub(crate) fn exit2_blocks(&self, rules: &EventRules) -> Option<crate::profile::Exit2Reason> {
        match (self.exit, rules.exit2) {
            (Exit::Code(2), Exit2::Block { reason, .. }) => Some(reason),
            _ => None,
        }
    }

    /// The reason an exit-2 block carries when neither stdout JSON nor
    /// stderr gives one (profiles whose exit 2 blocks without stderr).
    pub(crate) fn exit2_default_reason(&self) -> String {
        format!("{} exited with code 2", self.who())
    }
}

/// `<Event> hook `<label>``.
fn who(event_name: &str, label: &str) -> String {
    format!("{event_name} hook `{label}`")
}

/// Trimmed text, `None` when blank.
pub(crate) fn trimmed(text: &str) -> Option<&str> {
    let t = text.trim();
    (!t.is_empty()).then_some(t)
}

/// A string field of an object, trimmed; `None` when absent, not a string or blank.
pub(crate) fn text_field(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key).and_then(Value::as_str).and_then(trimmed).map(str::to_owned)
}

/// Append context values: a string, or an array of strings (each trimmed,
/// blanks and non-strings skipped).
pub(crate) fn push_context(out: &mut Vec<String>, value: Option<&Value>) {
    match value {
        Some(Value::String(text)) => out.extend(trimmed(text).map(str::to_owned)),
        Some(Value::Array(items)) => {
            out.extend(items.iter().filter_map(Value::as_str).filter_map(trimmed).map(str::to_owned))
        }
        _ => {}
    }
}

/// The state every event shares: messages and the `continue` / `stop_reason` pair.
pub(crate) struct Shared {
    messages: Vec<HookMessage>,
    continue_: bool,
    stop_reason: Option<String>,
    quiet_success_output: bool,
    /// The event's row of the profile table.
    pub(crate) rules: &'static EventRules,
}

impl Shared {
    fn new(quiet_success_output: bool, rules: &'static EventRules) -> Shared {
        Shared { messages: Vec::new(), continue_: true, stop_reason: None, quiet_success_output, rules }
    }

    /// Add a message.
    pub(crate) fn push(&mut self, level: HookMessageLevel, text: impl Into<String>) {
        let text = text.into();
        let text = text.trim();
        if !text.is_empty() {
            self.messages.push(HookMessage { level, text: text.to_owned() });
        }
    }

    /// The error for a hook whose exit status was lost; returns its text.
    pub(crate) fn status_lost(&mut self, run: &HookRun) -> String {
        let text = format!("{} {UNKNOWN_STATUS}", run.who());
        self.push(HookMessageLevel::Error, text.clone());
        text
    }

    /// The timeout message (an error on every event). Returns its text.
    pub(crate) fn timed_out(&mut self, run: &HookRun) -> String {
        let text = if run.timeout_seconds > 0 {
            format!("{} timed out after {} s", run.who(), run.timeout_seconds)
        } else {
            format!("{} timed out", run.who())
        };
        self.push(HookMessageLevel::Error, text.clone());
        text
    }

    /// The message for a non-zero exit (with its stderr), or for stderr
    /// written by a successful hook, at the event's failure level. Exit 2
    /// follows the profile: a blocking exit 2 gives no message here (the
    /// event rule reads it), an ignored one none at all, one whose stderr is
    /// for the user an error. Nothing for a clean exit 0.
    pub(crate) fn exit_status(&mut self, run: &HookRun) {
        let level = match (run.exit, self.rules.exit2) {
            (Exit::Code(2), Exit2::Block { .. } | Exit2::Ignored) => return,
            (Exit::Code(2), Exit2::StderrToUser) => HookMessageLevel::Error,
            _ => self.rules.failure_level,
        };
        let how = match run.exit {
            Exit::Success | Exit::TimedOut => {
                if let Some(stderr) = run.stderr {
                    self.push(level, format!("{} wrote to stderr: {stderr}", run.who()));
                }
                return;
            }
            Exit::Code(code) => format!("exited with code {code}"),
            Exit::Signal(Some(signal)) => format!("was killed by signal {signal}"),
            Exit::Signal(None) => UNKNOWN_STATUS.to_owned(),
        };
        match run.stderr {
            Some(stderr) => self.push(level, format!("{} {how}: {stderr}", run.who())),
            None => self.push(level, format!("{} {how}", run.who())),
        }
    }

    /// The error for an exit 2 that needs stderr and has none.
    pub(crate) fn exit2_without_stderr(&mut self, run: &HookRun) {
        self.push(HookMessageLevel::Error, format!("{} exited with code 2 without stderr feedback", run.who()));
    }

    /// The message for stdout that looks like JSON but does not parse.
    pub(crate) fn invalid_json(&mut self, run: &HookRun) {
        if run.stdout == Stdout::Invalid {
            self.push(HookMessageLevel::Error, format!("{} returned invalid JSON output", run.who()));
        }
    }

    /// Plain stdout as an info message, unless `quiet_success_output` and the hook exited 0.
    pub(crate) fn plain_stdout_info(&mut self, run: &HookRun) {
        if let Stdout::Plain(text) = &run.stdout {
            if !(self.quiet_success_output && run.exit == Exit::Success) {
                self.push(HookMessageLevel::Info, text.clone());
            }
        }
    }

    /// The common JSON fields: `systemMessage` → info; `continue: false` →
    /// `continue` false and, for the first such hook, its `stopReason`.
    pub(crate) fn common_json(&mut self, run: &HookRun) {
        if let Some(message) = run.text("systemMessage") {
            self.push(HookMessageLevel::Info, message);
        }
        if run.continue_false() {
            if self.continue_ {
                self.stop_reason = run.text("stopReason");
            }
            self.continue_ = false;
        }
    }

    /// The usual reading for events whose stdout has no event-specific
    /// plain-text meaning: exit/stderr message, invalid JSON, plain stdout
    /// as info, common JSON fields.
    pub(crate) fn standard(&mut self, run: &HookRun) {
        self.exit_status(run);
        self.invalid_json(run);
        self.plain_stdout_info(run);
        self.common_json(run);
    }

    fn into_common(self, hooks: Vec<HookReport>) -> CommonOutcome {
        CommonOutcome { messages: self.messages, continue_: self.continue_, stop_reason: self.stop_reason, hooks }
    }
}

/// The per-event rules and what they accumulated.
enum Rules {
    SessionStart(session_start::SessionStartRules),
    UserPromptSubmit(prompt::PromptRules),
    PreToolUse(pre_tool::PreToolRules),
    PostToolUse(post_tool::PostToolRules),
    PermissionRequest(permission::PermissionRules),
    Stop(stop::StopRules),
    Other(observe::ObserveRules),
}

impl Rules {
    /// A failing `failClosed` hook: the event's blocking decision, with
    /// `reason`. Returns true when the decision stops the run.
    fn fail_closed(&mut self, reason: String) -> bool {
        match self {
            Rules::PreToolUse(r) => r.fail_closed(reason),
            Rules::UserPromptSubmit(r) => r.fail_closed(reason),
            Rules::PermissionRequest(r) => r.fail_closed(reason),
            Rules::Stop(r) => r.fail_closed(reason),
            Rules::SessionStart(_) | Rules::PostToolUse(_) | Rules::Other(_) => false,
        }
    }
}

/// Accumulates one event's hook results in configuration order.
///
/// Events the profile runs sequentially stop at their first decision:
/// [`absorb`](Self::absorb) returns true and further results are ignored.
/// Other events never stop; the engine runs their hooks concurrently and
/// absorbs the results in configuration order.
pub struct EventInterpreter {
    event: Option<HookEvent>,
    event_name: Cow<'static, str>,
    profile: &'static Profile,
    shared: Shared,
    rules: Rules,
    stopped: bool,
    /// The failure kind of every absorbed hook, in absorption order (one per
    /// report the engine passes to `finish`).
    failures: Vec<Option<HookFailure>>,
}

impl EventInterpreter {
    /// A fresh interpreter for `event` with the VT Code profile's rules.
    /// `quiet_success_output` drops the info messages plain stdout of
    /// successful hooks would give.
    pub fn new(event: HookEvent, quiet_success_output: bool) -> Self {
        Self::with_profile(event, &VT_CODE, quiet_success_output)
    }

    /// A fresh interpreter for `event` with `profile`'s rules.
    pub fn with_profile(event: HookEvent, profile: &'static Profile, quiet_success_output: bool) -> Self {
        let rules = match event {
            HookEvent::SessionStart => Rules::SessionStart(session_start::SessionStartRules {
                env: profile.session_start_env_file.then(serde_json::Map::new),
                ..Default::default()
            }),
            HookEvent::UserPromptSubmit => Rules::UserPromptSubmit(Default::default()),
            HookEvent::PreToolUse => Rules::PreToolUse(Default::default()),
            HookEvent::PostToolUse | HookEvent::PostToolUseFailure => Rules::PostToolUse(Default::default()),
            HookEvent::PermissionRequest => Rules::PermissionRequest(Default::default()),
            HookEvent::Stop | HookEvent::SubagentStop | HookEvent::PreCompact => Rules::Stop(Default::default()),
            HookEvent::SessionEnd | HookEvent::SubagentStart | HookEvent::Notification => {
                Rules::Other(Default::default())
            }
        };
        EventInterpreter {
            event: Some(event),
            event_name: Cow::Borrowed(event.name()),
            profile,
            shared: Shared::new(quiet_success_output, profile.rules(event)),
            rules,
            stopped: false,
            failures: Vec::new(),
        }
    }

    /// A fresh interpreter for an event fired by name. A known event name
    /// gets that event's rules; any other name the profile's rules for
    /// unknown events (observer rules: messages and context, never block).
    pub fn named(name: &str, profile: &'static Profile, quiet_success_output: bool) -> Self {
        if let Some(event) = HookEvent::from_name(name) {
            return Self::with_profile(event, profile, quiet_success_output);
        }
        EventInterpreter {
            event: None,
            event_name: Cow::Owned(name.to_owned()),
            profile,
            shared: Shared::new(quiet_success_output, &profile.unknown_event),
            rules: Rules::Other(Default::default()),
            stopped: false,
            failures: Vec::new(),
        }
    }

    /// The event being interpreted (`None` for an event fired by a name the
    /// profile does not know).
    pub fn event(&self) -> Option<HookEvent> {
        self.event
    }

    /// The event's name (`hook_event_name`).
    pub fn event_name(&self) -> &str {
        &self.event_name
    }

    /// The profile whose rules apply.
    pub fn profile(&self) -> &'static Profile {
        self.profile
    }

    /// Whether a decision already stopped the run.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Absorb one executed hook. Returns true when the run must stop here
    /// (events the profile runs sequentially: VT Code PreToolUse at the
    /// first allow or deny, UserPromptSubmit at the first block,
    /// PermissionRequest at the first decision, Stop at the first block).
    /// Always false for events run concurrently. Once it returned true,
    /// later results are ignored.
    pub fn absorb(&mut self, exec: &HookExecution) -> bool {
        self.absorb_hook(exec, false)
    }

    /// [`absorb`](Self::absorb) for a hook that may be `failClosed` (the
    /// Claude Code profile): when it failed, the event's blocking decision.
    pub fn absorb_hook(&mut self, exec: &HookExecution, fail_closed: bool) -> bool {
        if self.stopped {
            hl_debug!("{} ignored: the run already stopped", who(&self.event_name, &exec.label));
            self.failures.push(None);
            return true;
        }
        let run = HookRun::new(&self.event_name, exec);
        let failure = run.failure(self.shared.rules);
        self.failures.push(failure);
        let sh = &mut self.shared;
        let mut stop = match &mut self.rules {
            Rules::SessionStart(r) => r.absorb(sh, &run),
            Rules::UserPromptSubmit(r) => r.absorb(sh, &run),
            Rules::PreToolUse(r) => r.absorb(sh, &run),
            Rules::PostToolUse(r) => r.absorb(sh, &run),
            Rules::PermissionRequest(r) => r.absorb(sh, &run),
            Rules::Stop(r) => r.absorb(sh, &run),
            Rules::Other(r) => r.absorb(sh, &run),
        };
        if let Some(failure) = failure {
            if fail_closed && self.shared.rules.on_failure == OnFailure::OpenUnlessFailClosed {
                stop |= self.rules.fail_closed(run.failure_text(failure));
            }
        }
        self.stopped = stop && self.shared.rules.run_order == RunOrder::Sequential;
        self.stopped
    }

    /// A hook the workspace gate skipped: an error message containing
    /// "not approved" that names the command. It makes no decision.
    pub fn absorb_not_approved(&mut self, label: &str) {
        self.failures.push(None);
        if self.stopped {
            return;
        }
        self.shared.push(
            HookMessageLevel::Error,
            format!("{} was not run: workspace hooks are not approved", who(&self.event_name, label)),
        );
    }

    /// A hook that could not be started (e.g. spawn failure): an error
    /// message. It makes no decision on any event (for PreToolUse this is
    /// the same as a failing hook, not a timeout, so the tool is not denied
    /// because of it) unless the profile lets a `failClosed` hook decide.
    pub fn absorb_spawn_error(&mut self, label: &str, error: &str) {
        self.absorb_spawn_failure(label, error, false);
    }

    /// [`absorb_spawn_error`](Self::absorb_spawn_error) for a hook that may
    /// be `failClosed`. Returns true when the run must stop here.
    pub fn absorb_spawn_failure(&mut self, label: &str, error: &str, fail_closed: bool) -> bool {
        self.failures.push(Some(HookFailure::Spawn));
        if self.stopped {
            return true;
        }
        let text = format!("{} could not be started: {}", who(&self.event_name, label), error.trim());
        self.shared.push(HookMessageLevel::Error, text.clone());
        if fail_closed && self.shared.rules.on_failure == OnFailure::OpenUnlessFailClosed {
            let stop = self.rules.fail_closed(text);
            self.stopped = stop && self.shared.rules.run_order == RunOrder::Sequential;
        }
        self.stopped
    }

    /// SessionStart (profiles with `CLAUDE_ENV_FILE`): the variables the
    /// hooks wrote, returned as the outcome's `env`. Ignored elsewhere.
    pub fn set_env(&mut self, env: serde_json::Map<String, Value>) {
        if let Rules::SessionStart(r) = &mut self.rules {
            if r.env.is_some() {
                r.env = Some(env);
            }
        }
    }

    /// Deliver what `async` hooks of an earlier run produced: their
    /// messages, and their context where this event's outcome has one.
    /// Returns the context it could not place (kept for a later run).
    pub fn deliver(&mut self, messages: Vec<HookMessage>, context: Vec<String>) -> Vec<String> {
        self.shared.messages.extend(messages);
        let slot = match &mut self.rules {
            Rules::SessionStart(r) => Some(&mut r.additional_context),
            Rules::UserPromptSubmit(r) => Some(r.context_mut()),
            Rules::PreToolUse(r) => Some(r.context_mut()),
            Rules::PostToolUse(r) => Some(r.context_mut()),
            _ => None,
        };
        match slot {
            Some(slot) => {
                slot.extend(context);
                Vec::new()
            }
            None => context,
        }
    }

    /// What an `async` hook's result gives a later run: the messages and
    /// context this interpreter collected (its decisions are dropped).
    pub fn into_delivery(self) -> (Vec<HookMessage>, Vec<String>) {
        let context = match self.rules {
            Rules::SessionStart(r) => r.additional_context,
            Rules::UserPromptSubmit(r) => r.into_context(),
            Rules::PreToolUse(r) => r.into_context(),
            Rules::PostToolUse(r) => r.into_context(),
            _ => Vec::new(),
        };
        (self.shared.messages, context)
    }

    /// PreToolUse: the `tool_input` later hooks must receive after
    /// `updatedInput` rewrites (`None`: the original). Always `None` for
    /// other events, and for profiles where every hook receives the
    /// original input.
    pub fn updated_input(&self) -> Option<&Value> {
        match &self.rules {
            Rules::PreToolUse(r) if self.shared.rules.tool_input == ToolInputFlow::Chained => r.updated_input(),
            _ => None,
        }
    }

    /// Build the outcome. `hooks` is the execution report in configuration
    /// order, one per absorbed hook; each report gets its `failure` kind.
    pub fn finish(self, mut hooks: Vec<HookReport>) -> HookOutcome {
        if hooks.len() == self.failures.len() {
            for (report, failure) in hooks.iter_mut().zip(&self.failures) {
                if report.failure.is_none() {
                    report.failure = *failure;
                }
            }
        }
        let rules = self.shared.rules;
        let common = self.shared.into_common(hooks);
        match self.rules {
            Rules::SessionStart(r) => HookOutcome::SessionStart(r.finish(common)),
            Rules::UserPromptSubmit(r) => HookOutcome::UserPromptSubmit(r.finish(common)),
            Rules::PreToolUse(r) => HookOutcome::PreToolUse(r.finish(common)),
            Rules::PostToolUse(r) => HookOutcome::PostToolUse(r.finish(common)),
            Rules::PermissionRequest(r) => HookOutcome::PermissionRequest(r.finish(common)),
            // In a profile where nothing blocks them, SubagentStop and
            // PreCompact are observers and their outcome has only the common fields.
            Rules::Stop(_) if rules.block_fields == crate::profile::BlockFields::None => HookOutcome::Other(common),
            Rules::Stop(r) => match self.event {
                Some(HookEvent::SubagentStop) => HookOutcome::SubagentStop(r.finish(common)),
                Some(HookEvent::PreCompact) => HookOutcome::PreCompact(r.finish(common)),
                _ => HookOutcome::Stop(r.finish(common)),
            },
            Rules::Other(_) => HookOutcome::Other(common),
        }
    }
}
