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
//! | SessionEnd, SubagentStart, SubagentStop, PreCompact, Notification | `observe.rs` |
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

use serde_json::{Map, Value};

use crate::callback::{CallResult, Reply};
use crate::event::HookEvent;
use crate::hl_debug;

pub use outcome::{
    CommonOutcome, HookKind, HookMessage, HookMessageLevel, HookOutcome, HookReport, PermissionBehavior,
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
                    exec.stdout = serde_json::json!({
                        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}
                    })
                    .to_string();
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
    event: HookEvent,
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
    fn new(event: HookEvent, exec: &'a HookExecution) -> HookRun<'a> {
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
            event,
            label: &exec.label,
            timeout_seconds: exec.timeout_seconds,
            exit,
            stderr: trimmed(&exec.stderr),
            stdout: if exit == Exit::TimedOut { Stdout::Empty } else { Stdout::classify(&exec.stdout) },
        }
    }

    /// `<Event> hook `<label>``: how hookline's own messages name the hook.
    pub(crate) fn who(&self) -> String {
        who(self.event, self.label)
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
            Some(name) if !name.trim().eq_ignore_ascii_case(self.event.name()) => {
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
}

/// `<Event> hook `<label>``.
fn who(event: HookEvent, label: &str) -> String {
    format!("{} hook `{}`", event.name(), label)
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
}

impl Shared {
    fn new(quiet_success_output: bool) -> Shared {
        Shared { messages: Vec::new(), continue_: true, stop_reason: None, quiet_success_output }
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

    /// The timeout message (an error on every event); returns its text.
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
    /// written by a successful hook, at `level`. Nothing for a clean exit 0.
    pub(crate) fn exit_status(&mut self, run: &HookRun, level: HookMessageLevel) {
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
    /// plain-text meaning: exit/stderr message at `level`, invalid JSON,
    /// plain stdout as info, common JSON fields.
    pub(crate) fn standard(&mut self, run: &HookRun, level: HookMessageLevel) {
        self.exit_status(run, level);
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

/// Accumulates one event's hook results in configuration order.
///
/// Decision events (PreToolUse, UserPromptSubmit, PermissionRequest, Stop)
/// stop at the first decision: [`absorb`](Self::absorb) returns true and
/// further results are ignored. Other events never stop; the engine runs
/// their hooks concurrently and absorbs the results in configuration order.
pub struct EventInterpreter {
    event: HookEvent,
    shared: Shared,
    rules: Rules,
    stopped: bool,
}

impl EventInterpreter {
    /// A fresh interpreter for `event`. `quiet_success_output` drops the
    /// info messages plain stdout of successful hooks would give.
    pub fn new(event: HookEvent, quiet_success_output: bool) -> Self {
        let rules = match event {
            HookEvent::SessionStart => Rules::SessionStart(Default::default()),
            HookEvent::UserPromptSubmit => Rules::UserPromptSubmit(Default::default()),
            HookEvent::PreToolUse => Rules::PreToolUse(Default::default()),
            HookEvent::PostToolUse | HookEvent::PostToolUseFailure => Rules::PostToolUse(Default::default()),
            HookEvent::PermissionRequest => Rules::PermissionRequest(Default::default()),
            HookEvent::Stop => Rules::Stop(Default::default()),
            HookEvent::SessionEnd
            | HookEvent::SubagentStart
            | HookEvent::SubagentStop
            | HookEvent::PreCompact
            | HookEvent::Notification => Rules::Other(Default::default()),
        };
        EventInterpreter { event, shared: Shared::new(quiet_success_output), rules, stopped: false }
    }

    /// The event being interpreted.
    pub fn event(&self) -> HookEvent {
        self.event
    }

    /// Whether a decision already stopped the run.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Absorb one executed hook. Returns true when the run must stop here
    /// (PreToolUse: first allow or deny; UserPromptSubmit: first block;
    /// PermissionRequest: first decision; Stop: first block). Always false
    /// for other events. Once it returned true, later results are ignored.
    pub fn absorb(&mut self, exec: &HookExecution) -> bool {
        if self.stopped {
            hl_debug!("{} ignored: the run already stopped", who(self.event, &exec.label));
            return true;
        }
        let run = HookRun::new(self.event, exec);
        let sh = &mut self.shared;
        let stop = match &mut self.rules {
            Rules::SessionStart(r) => r.absorb(sh, &run),
            Rules::UserPromptSubmit(r) => r.absorb(sh, &run),
            Rules::PreToolUse(r) => r.absorb(sh, &run),
            Rules::PostToolUse(r) => r.absorb(sh, &run),
            Rules::PermissionRequest(r) => r.absorb(sh, &run),
            Rules::Stop(r) => r.absorb(sh, &run),
            Rules::Other(r) => r.absorb(sh, &run),
        };
        self.stopped = stop && self.event.is_decision_event();
        self.stopped
    }

    /// A hook the workspace gate skipped: an error message containing
    /// "not approved" that names the command. It makes no decision.
    pub fn absorb_not_approved(&mut self, label: &str) {
        if self.stopped {
            return;
        }
        self.shared.push(
            HookMessageLevel::Error,
            format!("{} was not run: workspace hooks are not approved", who(self.event, label)),
        );
    }

    /// A hook that could not be started (e.g. spawn failure): an error
    /// message. It makes no decision on any event; for PreToolUse this is
    /// the same as a failing hook (exit other than 2), not a timeout, so the
    /// tool is not denied because of it.
    pub fn absorb_spawn_error(&mut self, label: &str, error: &str) {
        if self.stopped {
            return;
        }
        self.shared.push(
            HookMessageLevel::Error,
            format!("{} could not be started: {}", who(self.event, label), error.trim()),
        );
    }

    /// PreToolUse: the `tool_input` currently in force after `updatedInput`
    /// rewrites (`None` if no hook rewrote it). The engine feeds it into
    /// later hooks' payloads. Always `None` for other events.
    pub fn updated_input(&self) -> Option<&Value> {
        match &self.rules {
            Rules::PreToolUse(r) => r.updated_input(),
            _ => None,
        }
    }

    /// Build the outcome. `hooks` is the execution report in configuration order.
    pub fn finish(self, hooks: Vec<HookReport>) -> HookOutcome {
        let common = self.shared.into_common(hooks);
        match self.rules {
            Rules::SessionStart(r) => HookOutcome::SessionStart(r.finish(common)),
            Rules::UserPromptSubmit(r) => HookOutcome::UserPromptSubmit(r.finish(common)),
            Rules::PreToolUse(r) => HookOutcome::PreToolUse(r.finish(common)),
            Rules::PostToolUse(r) => HookOutcome::PostToolUse(r.finish(common)),
            Rules::PermissionRequest(r) => HookOutcome::PermissionRequest(r.finish(common)),
            Rules::Stop(r) => HookOutcome::Stop(r.finish(common)),
            Rules::Other(_) => HookOutcome::Other(common),
        }
    }
}
