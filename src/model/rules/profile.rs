//! A dialect's whole rule table: one [`EventRules`] row per event
//! ([`EventTable`]), the rules of events fired by name, and the
//! profile-wide columns ([`Profile`]).

use std::time::Duration;

use super::{Dedupe, EventRules, FieldMerge, InputRules, TimeoutUnit};
use crate::model::event::{EventFamily, HookEvent, RunEvent};

/// One value per canonical event, by name (never by position, so two rows
/// cannot be swapped unnoticed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventTable<T> {
    pub session_start: T,
    pub session_end: T,
    pub subagent_start: T,
    pub subagent_stop: T,
    pub user_prompt_submit: T,
    pub pre_tool_use: T,
    pub post_tool_use: T,
    pub permission_request: T,
    pub pre_compact: T,
    pub stop: T,
    pub notification: T,
    pub post_tool_use_failure: T,
}

impl<T> EventTable<T> {
    /// The row of `event`.
    pub const fn get(&self, event: HookEvent) -> &T {
        match event {
            HookEvent::SessionStart => &self.session_start,
            HookEvent::SessionEnd => &self.session_end,
            HookEvent::SubagentStart => &self.subagent_start,
            HookEvent::SubagentStop => &self.subagent_stop,
            HookEvent::UserPromptSubmit => &self.user_prompt_submit,
            HookEvent::PreToolUse => &self.pre_tool_use,
            HookEvent::PostToolUse => &self.post_tool_use,
            HookEvent::PermissionRequest => &self.permission_request,
            HookEvent::PreCompact => &self.pre_compact,
            HookEvent::Stop => &self.stop,
            HookEvent::Notification => &self.notification,
            HookEvent::PostToolUseFailure => &self.post_tool_use_failure,
        }
    }
}

/// Every canonical event's family ([`HookEvent::family`]), where a
/// profile's [`Profile::families`] starts.
pub const CANONICAL_FAMILIES: EventTable<EventFamily> = EventTable {
    session_start: HookEvent::SessionStart.family(),
    session_end: HookEvent::SessionEnd.family(),
    subagent_start: HookEvent::SubagentStart.family(),
    subagent_stop: HookEvent::SubagentStop.family(),
    user_prompt_submit: HookEvent::UserPromptSubmit.family(),
    pre_tool_use: HookEvent::PreToolUse.family(),
    post_tool_use: HookEvent::PostToolUse.family(),
    permission_request: HookEvent::PermissionRequest.family(),
    pre_compact: HookEvent::PreCompact.family(),
    stop: HookEvent::Stop.family(),
    notification: HookEvent::Notification.family(),
    post_tool_use_failure: HookEvent::PostToolUseFailure.family(),
};

/// What the matcher of an event fired by name is tested against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// Nothing: the event has no matcher support and every group matches.
    None,
    /// A string field of the input (`tool_name`, `source`, ...).
    Field(&'static str),
    /// The file name (last path component) of a string field of the input
    /// (FileChanged: the changed file's basename).
    FileName(&'static str),
}

/// Which matcher rule an event's groups compile with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatcherRule {
    /// The dialect's rule.
    Standard,
    /// Claude Code's narrower exact-match set (letters, digits, `_` and
    /// `|` only; FileChanged, StopFailure): a hyphen, space or comma keeps
    /// the matcher on the regular-expression path.
    Narrow,
}

/// One event a dialect knows by name that is none of the twelve canonical
/// ones: its family (outcome shape, reader, merger), its rules, and what
/// its matcher is tested against.
#[derive(Clone, Copy, Debug)]
pub struct NamedEventRules {
    /// The config key, exactly (`TaskCreated`).
    pub name: &'static str,
    /// Which reader and merger read it, and the shape of its outcome.
    pub family: EventFamily,
    /// Its row.
    pub rules: EventRules,
    /// What its matcher is tested against (the input's `matcher_value`,
    /// when the host gives one, comes first).
    pub subject: Subject,
    /// Its matcher rule.
    pub matcher: MatcherRule,
    /// Whether it carries a tool call (`tool_name`, `tool_input`): `if`
    /// conditions are evaluated on it.
    pub tool_event: bool,
}

/// The default timeouts of the handler types other than `command` (whose
/// default is [`Profile::default_timeout`]), and the events that lower it.
#[derive(Debug)]
pub struct HandlerTimeouts {
    /// A `prompt` hook that sets none.
    pub prompt: Duration,
    /// An `agent` hook that sets none.
    pub agent: Duration,
    /// Events (by name) whose `command`, `http` and `mcp_tool` hooks that
    /// set no timeout get this one instead of the default.
    pub lowered: &'static [(&'static str, Duration)],
}

/// One dialect's rules.
#[derive(Debug)]
pub struct Profile {
    /// The dialect's name (`"vtcode"`, `"claude"`, ...).
    pub name: &'static str,
    /// The timeout of a `command`, `http` or `mcp_tool` hook that sets none.
    pub default_timeout: Duration,
    /// The unit of the timeouts its hooks write.
    pub timeout_unit: TimeoutUnit,
    /// The default timeouts of the other handler types.
    pub handler_timeouts: HandlerTimeouts,
    /// The variables whose `${NAME}` placeholders exec-form commands
    /// (`args`) substitute literally (none in dialects without exec form).
    pub exec_placeholders: &'static [&'static str],
    /// Input validation.
    pub inputs: InputRules,
    /// Which duplicate hooks of one event run.
    pub dedupe: Dedupe,
    /// How one dialect field given by several hooks combines.
    pub dialect_fields: FieldMerge,
    /// The family of each canonical event (usually
    /// [`CANONICAL_FAMILIES`]).
    pub families: EventTable<EventFamily>,
    /// The rules per event.
    pub events: EventTable<EventRules>,
    /// The events the dialect knows by name besides the twelve (fired with
    /// `hl_engine_run_named`), each with its own rules.
    pub named: &'static [NamedEventRules],
    /// The rules of events fired by a name the dialect does not know (an
    /// observer's, in the observer family).
    pub unknown_event: EventRules,
}

impl Profile {
    /// The rules of `event`.
    pub fn rules(&self, event: HookEvent) -> &EventRules {
        self.events.get(event)
    }

    /// The rules of an event of a run (known or fired by name).
    pub fn rules_of(&self, event: &RunEvent) -> &EventRules {
        match event {
            RunEvent::Known(e) => self.rules(*e),
            RunEvent::Named(name) => self.named(name).map_or(&self.unknown_event, |n| &n.rules),
        }
    }

    /// The family of an event of a run: the profile's for a canonical
    /// event, its named row's, else the observer family.
    pub fn family_of(&self, event: &RunEvent) -> EventFamily {
        match event {
            RunEvent::Known(e) => *self.families.get(*e),
            RunEvent::Named(name) => self.named(name).map_or(EventFamily::Observe, |n| n.family),
        }
    }

    /// The row of an event the profile knows by `name` (none of the twelve).
    pub fn named(&self, name: &str) -> Option<&NamedEventRules> {
        self.named.iter().find(|n| n.name == name)
    }

    /// Whether an event of a run carries a tool call (`if` conditions are
    /// evaluated on it).
    pub fn is_tool_event(&self, event: &RunEvent) -> bool {
        match event {
            RunEvent::Known(e) => e.is_tool_event(),
            RunEvent::Named(name) => self.named(name).is_some_and(|n| n.tool_event),
        }
    }
}
