//! The plan of one run: which hooks run for an event input, in order.
//! Matching happens here, once per run; the plan feeds both the no-match
//! fast path (an empty plan) and execution.
//!
//! Order: the configured commands of every matching group, in
//! configuration order, then the matching callback hooks, in the order they
//! were added. Configured groups use the configuration's dialect; callback
//! hooks always use the Claude Code matcher rule (see [`crate::matcher`]).

use std::sync::Arc;

use serde_json::Value;

use super::options::Setup;
use crate::callback::SharedCallback;
use crate::config::{CommandHook, Dialect};
use crate::event::HookEvent;
use crate::matcher::{match_subject, Matcher};

/// A callback hook added by the host.
pub(crate) struct CallbackHook {
    pub(crate) event: HookEvent,
    pub(crate) name: String,
    pub(crate) matcher: Matcher,
    pub(crate) callback: SharedCallback,
}

/// A hook selected to run.
pub(crate) enum Planned<'a> {
    Command(&'a CommandHook),
    Callback(&'a CallbackHook),
}

impl Planned<'_> {
    pub(crate) fn is_command(&self) -> bool {
        matches!(self, Planned::Command(_))
    }
}

/// The hooks one run executes, borrowed from the snapshots it holds.
pub(crate) struct Plan<'a> {
    pub(crate) hooks: Vec<Planned<'a>>,
}

impl<'a> Plan<'a> {
    /// Match `event`'s configured groups and callback hooks against `input`.
    pub(crate) fn new(setup: &'a Setup, callbacks: &'a [Arc<CallbackHook>], event: HookEvent, input: &Value) -> Self {
        let trigger = setup.trigger.as_str();
        let mut hooks = Vec::new();
        let groups = setup.config.groups(event);
        if !groups.is_empty() {
            let subject = match_subject(event, setup.config.dialect(), input, trigger);
            for group in groups.iter().filter(|g| g.matches(subject)) {
                hooks.extend(group.hooks.iter().map(Planned::Command));
            }
        }
        if callbacks.iter().any(|c| c.event == event) {
            let subject = match_subject(event, Dialect::Claude, input, trigger);
            for cb in callbacks.iter().filter(|c| c.event == event && c.matcher.matches_subject(subject)) {
                hooks.push(Planned::Callback(cb));
            }
        }
        Plan { hooks }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }

    pub(crate) fn has_commands(&self) -> bool {
        self.hooks.iter().any(Planned::is_command)
    }

    pub(crate) fn has_callbacks(&self) -> bool {
        !self.hooks.iter().all(Planned::is_command)
    }
}
