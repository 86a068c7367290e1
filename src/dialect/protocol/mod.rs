//! The Claude Code hooks protocol's reader: one hook's exit code, stdout
//! and stderr → the canonical [`HookReply`] (the exit-code and JSON tables
//! of `docs/protocol.md`). The VT Code and Claude Code dialects both read
//! replies with it, each with its own rule table.
//!
//! Pure, synchronous code. This module holds what every event shares: how
//! stdout is classified (empty, plain text, a JSON object, invalid JSON),
//! the common JSON fields (`continue`, `stopReason`, `suppressOutput`,
//! `systemMessage`, `hookSpecificOutput`), how a failure is named, and the
//! texts of hookline's own messages. The exit-code table of each event is
//! in its own file, next to this one:
//!
//! | event | module |
//! |---|---|
//! | PreToolUse | `pre_tool.rs` |
//! | UserPromptSubmit | `prompt.rs` |
//! | SessionStart (and Claude Code's SubagentStart, Setup) | `session_start.rs` |
//! | PostToolUse, PostToolUseFailure (and PostToolBatch) | `post_tool.rs` |
//! | PermissionRequest | `permission.rs` |
//! | Stop, SubagentStop, PreCompact (and TaskCreated, TaskCompleted, TeammateIdle, ConfigChange) | `stop.rs` |
//! | PermissionDenied | `retry.rs` |
//! | WorktreeCreate | `worktree.rs` |
//! | Elicitation, ElicitationResult | `elicitation.rs` |
//! | SessionEnd, SubagentStart, Notification, other events fired by name | `observe.rs` |
//!
//! Which reader reads an event is its family in the hook's profile
//! ([`Profile::family_of`]): the canonical events' families, and for events
//! fired by name the profile's table of named events.
//!
//! Each reader declares the columns of the rule table it honours
//! (`honours`); what differs between dialects (what exit 2 means, context
//! on failed hooks, which fields block) is read from the hook's row, never
//! from the dialect's name. How replies combine (precedence, early stops)
//! is the canonical merge's (`src/merge/`).
//!
//! Choices the hooks protocols leave open (shared by all events):
//! - A timed-out hook's partial output is not read (only the timeout counts).
//! - stdout that parses as a JSON value other than an object (`42`, `"x"`,
//!   `[1]`) carries no fields and is read as plain text.
//! - A non-zero exit's message carries the stderr; a zero exit with stderr
//!   gives its own message (*profile* `quiet_success_stderr`: none, the
//!   stderr goes to the debug log). Plain stdout is read whatever the exit
//!   code; only `quiet_success_output` looks at the exit code (exit 0).
//! - *profile* `json_over_exit_code` (every table row below that says
//!   "other non-zero exit"): a JSON object on stdout replaces the meaning of
//!   an exit code other than 0 (and 2 where exit 2 has no meaning of its
//!   own): no message, no failure, the fields read as on exit 0.
//! - `systemMessage` and plain stdout become messages verbatim (trimmed);
//!   messages hookline writes itself name the event and the hook.

pub(crate) mod config;
pub(crate) mod env;
pub(crate) mod handlers;
pub(crate) mod payload;

mod elicitation;
mod http;
mod observe;
mod permission;
mod post_tool;
mod pre_tool;
mod prompt;
mod retry;
mod session_start;
mod stop;
mod verdict;
mod worktree;

use serde_json::{Map, Value};

use crate::dialect::ReadCtx;
use crate::hl_debug;
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::{Answer, HookExecution};
use crate::model::outcome::{HookFailure, HookMessage, HookMessageLevel};
use crate::model::reply::{Failure, HookReply};
use crate::model::rules::{Column, CommonFields, EventRules, Exit2, Exit2Reason, Profile, Subject};

/// Read one hook's result (the hooks protocol's tables). An http hook's
/// response and a prompt or agent hook's verdict read as the command
/// result they stand for on the event (`http.rs`, `verdict.rs`); a handler
/// that failed before it had an answer is a non-blocking error.
pub(crate) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    read_keeping(cx, exec, &OwnFields::NONE)
}

/// The fields of a dialect's replies that have no canonical slot: copied,
/// as the hook gave them, into the reply's `dialect_fields` (the outcome's
/// `dialect_fields.<dialect>`).
pub(crate) struct OwnFields {
    /// Top-level fields read on every event, whatever else the event
    /// discards (Claude Code's `terminalSequence`).
    pub(crate) every_event: &'static [&'static str],
    /// Per event name: fields of `hookSpecificOutput` (else of the top
    /// level), read when the hook answered (no failure).
    pub(crate) per_event: &'static [(&'static str, &'static [&'static str])],
}

impl OwnFields {
    /// No fields of its own.
    pub(crate) const NONE: OwnFields = OwnFields { every_event: &[], per_event: &[] };
}

/// [`read`], keeping the dialect's `own` fields.
pub(crate) fn read_keeping(cx: &ReadCtx<'_>, exec: &HookExecution, own: &OwnFields) -> HookReply {
    let stands_for = match &exec.answer {
        Answer::Exited => return read_command_result(cx, exec, own),
        Answer::Failed { kind, message } => Err((*kind, message.clone())),
        Answer::Http { status, body, truncated } => {
            http::as_command_result(exec, *status, body, *truncated).map_err(|m| (HookFailure::Http, m))
        }
        Answer::Verdict { reply, agent, continue_on_block } => {
            verdict::as_command_result(exec, cx.event.name(), reply, *agent, *continue_on_block)
                .map_err(|m| (HookFailure::InvalidOutput, m))
        }
    };
    match stands_for {
        Ok(result) => read_command_result(cx, &result, own),
        Err((kind, message)) => failed(cx, exec, kind, &message),
    }
}

/// A handler that had no usable answer: a non-blocking error naming the
/// hook and what went wrong, at the event's failure level.
fn failed(cx: &ReadCtx<'_>, exec: &HookExecution, kind: HookFailure, message: &str) -> HookReply {
    let text = format!("{} failed: {}", who(cx.event.name(), &exec.label), message.trim());
    let mut reply = HookReply::default();
    reply.push(cx.rules.failure_level, text.clone());
    reply.failure = Some(Failure { kind, text, timeout_or_lost: false });
    reply
}

/// Read an exit code, stdout and stderr.
fn read_command_result(cx: &ReadCtx<'_>, exec: &HookExecution, own: &OwnFields) -> HookReply {
    let run = HookRun::new(cx.event.name(), exec);
    let mut out = Out { reply: HookReply::default(), rules: cx.rules, quiet: cx.quiet_success_output };
    match cx.family {
        EventFamily::Context => session_start::read(&mut out, &run),
        EventFamily::Prompt => prompt::read(&mut out, &run),
        EventFamily::Tool => pre_tool::read(&mut out, &run),
        EventFamily::PostTool => post_tool::read(&mut out, &run),
        EventFamily::Permission => permission::read(&mut out, &run),
        EventFamily::Stop => stop::read(&mut out, &run),
        EventFamily::Retry => retry::read(&mut out, &run),
        EventFamily::Worktree => worktree::read(&mut out, &run),
        EventFamily::Elicitation => elicitation::read(&mut out, &run),
        EventFamily::Observe => observe::read(&mut out, &run),
    }
    out.reply.failure = run.failure(cx.rules).map(|kind| Failure {
        kind,
        text: run.failure_text(kind),
        timeout_or_lost: matches!(run.exit, Exit::TimedOut | Exit::Signal(None)),
    });
    keep_own_fields(&mut out.reply, &run, own);
    out.reply
}

/// Copy the dialect's own fields of a reply into its `dialect_fields`
/// (null values are absent).
fn keep_own_fields(reply: &mut HookReply, run: &HookRun<'_>, own: &OwnFields) {
    let Some(json) = run.json() else { return };
    for key in own.every_event {
        if let Some(value) = json.get(*key).filter(|v| !v.is_null()) {
            reply.dialect_fields.insert((*key).to_owned(), value.clone());
        }
    }
    if reply.failure.is_some() {
        return;
    }
    let Some((_, names)) = own.per_event.iter().find(|(event, _)| *event == run.event_name) else { return };
    let spec = run.specific();
    for key in *names {
        let value = spec.and_then(|s| s.get(*key)).or_else(|| json.get(*key));
        if let Some(value) = value.filter(|v| !v.is_null()) {
            reply.dialect_fields.insert((*key).to_owned(), value.clone());
        }
    }
}

/// The reader columns the reader of an event of `family` honours (the
/// merge columns are the merge's, `src/merge/`).
pub(crate) fn honours(family: EventFamily) -> &'static [Column] {
    match family {
        EventFamily::Context => session_start::HONOURS,
        EventFamily::Prompt => prompt::HONOURS,
        EventFamily::Tool => pre_tool::HONOURS,
        EventFamily::PostTool => post_tool::HONOURS,
        EventFamily::Permission => permission::HONOURS,
        EventFamily::Stop => stop::HONOURS,
        EventFamily::Retry => retry::HONOURS,
        EventFamily::Worktree => worktree::HONOURS,
        EventFamily::Elicitation => elicitation::HONOURS,
        EventFamily::Observe => observe::HONOURS,
    }
}

/// How a dialect of the hooks protocol picks matcher subjects.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Subjects {
    /// UserPromptSubmit's matcher is tested against the prompt and Stop's
    /// against the literal `stop` (VT Code); otherwise both ignore matchers
    /// (Claude Code).
    pub(crate) prompt_and_stop: bool,
    /// The input field SubagentStart's and SubagentStop's matchers are
    /// tested against (`agent_name` in VT Code, `agent_type` in Claude Code).
    pub(crate) subagent: &'static str,
}

/// What the hooks protocol's events test their matchers against.
/// SessionStart → the session trigger; SessionEnd → `reason`; Subagent* →
/// `subjects.subagent`; tool events → `tool_name`; PreCompact → `trigger`;
/// Notification → `notification_type`; UserPromptSubmit and Stop as
/// `subjects.prompt_and_stop` says; an event fired by name → the input's
/// `matcher_value`, else what the profile's row of that event names, else
/// nothing (every group matches).
pub(crate) fn match_subject<'a>(
    event: &RunEvent,
    input: &'a Value,
    trigger: &'a str,
    subjects: Subjects,
    profile: &Profile,
) -> Option<&'a str> {
    let field = |name: &str| input.get(name).and_then(Value::as_str).unwrap_or("");
    let event = match event {
        RunEvent::Known(e) => *e,
        RunEvent::Named(name) => {
            if let Some(value) = input.get("matcher_value").and_then(Value::as_str) {
                return Some(value);
            }
            return match profile.named(name).map(|n| n.subject) {
                None | Some(Subject::None) => None,
                Some(Subject::Field(f)) => Some(field(f)),
                Some(Subject::FileName(f)) => Some(field(f).rsplit('/').next().unwrap_or("")),
            };
        }
    };
    match event {
        HookEvent::SessionStart => Some(trigger),
        HookEvent::SessionEnd => Some(field("reason")),
        HookEvent::SubagentStart | HookEvent::SubagentStop => Some(field(subjects.subagent)),
        HookEvent::UserPromptSubmit => subjects.prompt_and_stop.then(|| field("prompt")),
        HookEvent::PreToolUse
        | HookEvent::PostToolUse
        | HookEvent::PermissionRequest
        | HookEvent::PostToolUseFailure => Some(field("tool_name")),
        HookEvent::PreCompact => Some(field("trigger")),
        HookEvent::Stop => subjects.prompt_and_stop.then_some("stop"),
        HookEvent::Notification => Some(field("notification_type")),
    }
}

/// The field [`match_subject`] reads, for people.
pub(crate) fn match_subject_field(event: &RunEvent, subjects: Subjects, profile: &Profile) -> Option<&'static str> {
    let event = match event {
        RunEvent::Known(e) => *e,
        RunEvent::Named(name) => {
            return match profile.named(name).map(|n| n.subject) {
                None => Some("matcher_value"),
                Some(Subject::None) => None,
                Some(Subject::Field(f)) => Some(f),
                Some(Subject::FileName(f)) => Some(f),
            };
        }
    };
    match event {
        HookEvent::SessionStart => Some("the session trigger (source)"),
        HookEvent::SessionEnd => Some("reason"),
        HookEvent::SubagentStart | HookEvent::SubagentStop => Some(subjects.subagent),
        HookEvent::UserPromptSubmit => subjects.prompt_and_stop.then_some("prompt"),
        HookEvent::PreToolUse
        | HookEvent::PostToolUse
        | HookEvent::PermissionRequest
        | HookEvent::PostToolUseFailure => Some("tool_name"),
        HookEvent::PreCompact => Some("trigger"),
        HookEvent::Stop => subjects.prompt_and_stop.then_some("the literal \"stop\""),
        HookEvent::Notification => Some("notification_type"),
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
    pub(crate) fn new(event_name: &'a str, exec: &'a HookExecution) -> HookRun<'a> {
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
    pub(crate) fn failure(&self, rules: &EventRules) -> Option<HookFailure> {
        match self.exit {
            Exit::TimedOut => Some(HookFailure::Timeout),
            Exit::Signal(Some(_)) => Some(HookFailure::Signal),
            Exit::Signal(None) => Some(HookFailure::Exit),
            Exit::Code(2) if rules.exit2 != Exit2::Ordinary => None,
            Exit::Code(_) if self.json_decides(rules) => None,
            Exit::Code(_) => Some(HookFailure::Exit),
            Exit::Success if self.stdout == Stdout::Invalid => Some(HookFailure::InvalidOutput),
            Exit::Success => None,
        }
    }

    /// The message text of a failure, for a fail-closed decision's reason.
    pub(crate) fn failure_text(&self, failure: HookFailure) -> String {
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
    /// Claude Code profile: plain stdout only when it exited 0, a JSON
    /// object's context on any exit code where `json_over_exit_code`).
    pub(crate) fn context_allowed(&self, rules: &EventRules) -> bool {
        !rules.context_needs_exit_0
            || self.exit == Exit::Success
            || (rules.json_over_exit_code && matches!(self.exit, Exit::Code(_)) && self.json().is_some())
    }

    /// Whether this hook exited with a code whose meaning its stdout JSON
    /// replaces (`json_over_exit_code`: any code but 0, and 2 where exit 2
    /// has a meaning of its own).
    pub(crate) fn json_decides(&self, rules: &EventRules) -> bool {
        let code_has_no_meaning = match self.exit {
            Exit::Code(2) => rules.exit2 == Exit2::Ordinary,
            Exit::Code(_) => true,
            _ => false,
        };
        rules.json_over_exit_code && code_has_no_meaning && self.json().is_some()
    }

    /// Exit 2 under a profile where it is the event's blocking answer:
    /// `Some(needs_stderr)`.
    pub(crate) fn exit2_blocks(&self, rules: &EventRules) -> Option<Exit2Reason> {
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

/// A reply being read: the reply, the hook's rules, `quiet_success_output`.
pub(crate) struct Out<'a> {
    pub(crate) reply: HookReply,
    /// The event's row of the hook's rule table.
    pub(crate) rules: &'a EventRules,
    quiet: bool,
}

impl Out<'_> {
    /// Add a message.
    pub(crate) fn push(&mut self, level: HookMessageLevel, text: impl Into<String>) {
        let text = text.into();
        let text = text.trim();
        if !text.is_empty() {
            self.reply.messages.push(HookMessage { level, text: text.to_owned() });
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
    /// written by a successful hook, at the event's failure level (none
    /// where `quiet_success_stderr`; none for an exit whose meaning the
    /// stdout JSON replaces, `json_over_exit_code`). Exit 2
    /// follows the profile: a blocking exit 2 gives no message here (the
    /// event rule reads it), an ignored one none at all, one whose stderr is
    /// for the user an error. Nothing for a clean exit 0.
    pub(crate) fn exit_status(&mut self, run: &HookRun) {
        if run.json_decides(self.rules) || (run.exit == Exit::Success && self.rules.quiet_success_stderr) {
            if let Some(stderr) = run.stderr {
                hl_debug!("{} wrote to stderr: {stderr}", run.who());
            }
            return;
        }
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
            if !(self.quiet && run.exit == Exit::Success) {
                self.push(HookMessageLevel::Info, text.clone());
            }
        }
    }

    /// The common JSON fields: `systemMessage` → info; `continue: false` →
    /// `continue` false and, for the first such hook, its `stopReason`
    /// (as the row's `common_fields` says: an event may ignore `continue`,
    /// or both).
    pub(crate) fn common_json(&mut self, run: &HookRun) {
        let fields = self.rules.common_fields;
        if fields == CommonFields::Discard {
            return;
        }
        if let Some(message) = run.text("systemMessage") {
            self.push(HookMessageLevel::Info, message);
        }
        if fields == CommonFields::Read && run.continue_false() && self.reply.halt.is_none() {
            self.reply.halt = Some(run.text("stopReason"));
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::outcome::{PermissionBehavior, PreToolHookDecision};
    use crate::model::reply::Decision;
    use crate::model::rules::Exit2Reason;

    fn exec(code: i32, stdout: &str, stderr: &str) -> HookExecution {
        HookExecution {
            label: "h".into(),
            exit_code: Some(code),
            stdout: stdout.into(),
            stderr: stderr.into(),
            ..Default::default()
        }
    }

    fn read_with(event: HookEvent, rules: EventRules, e: &HookExecution) -> HookReply {
        let family = event.family();
        let event = RunEvent::Known(event);
        read(
            &ReadCtx {
                event: &event,
                family,
                rules: &rules,
                quiet_success_output: false,
                fail_closed: false,
                background: false,
                tool_name: None,
                tool_input: None,
            },
            e,
        )
    }

    #[test]
    fn permission_request_exit_2_denies_where_the_table_makes_exit_2_blocking() {
        let rules = EventRules {
            exit2: Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: false },
            ..EventRules::NEUTRAL
        };
        let reply = read_with(HookEvent::PermissionRequest, rules, &exec(2, "", "not here"));
        match reply.decision {
            Some(Decision::Permission(d)) => {
                assert_eq!((d.behavior, d.message.as_deref()), (PermissionBehavior::Deny, Some("not here")))
            }
            other => panic!("expected a deny, got {other:?}"),
        }
        // The neutral table: exit 2 is an ordinary failure, no decision.
        assert!(read_with(HookEvent::PermissionRequest, EventRules::NEUTRAL, &exec(2, "", "x")).decision.is_none());
    }

    #[test]
    fn context_of_failed_hooks_is_dropped_where_the_table_says_context_needs_exit_0() {
        let out = r#"{"hookSpecificOutput":{"additionalContext":"ctx"}}"#;
        let strict = EventRules { context_needs_exit_0: true, ..EventRules::NEUTRAL };
        for event in
            [HookEvent::PreToolUse, HookEvent::PostToolUse, HookEvent::SessionStart, HookEvent::UserPromptSubmit]
        {
            assert_eq!(read_with(event, strict, &exec(0, out, "")).context, ["ctx"], "{event}");
            assert!(read_with(event, strict, &exec(1, out, "")).context.is_empty(), "{event}");
            assert_eq!(read_with(event, EventRules::NEUTRAL, &exec(1, out, "")).context, ["ctx"], "{event}");
        }
        let allow = r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#;
        assert!(matches!(
            read_with(HookEvent::PreToolUse, strict, &exec(1, allow, "")).decision,
            Some(Decision::Tool(PreToolHookDecision::Allow, _))
        ));
    }
}
