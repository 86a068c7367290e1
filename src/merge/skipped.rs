//! Hooks that gave no reply of their own: skipped by the workspace gate
//! (not approved, changed since approval, …) or that could not be started.
//! Each is absorbed as a report, and a fail-closed hook's failure as the
//! event's blocking decision.

use crate::dialect::Dialect;
use crate::model::event::RunEvent;
use crate::model::outcome::{HookFailure, HookMessageLevel};
use crate::model::reply::HookReply;

use super::{fail_closed, EventInterpreter};

impl EventInterpreter {
    /// A hook the workspace gate skipped: an error message containing
    /// "not approved" that names the hook. It makes no decision.
    pub fn absorb_not_approved(&mut self, label: &str) {
        if self.stopped {
            self.failures.push(None);
            self.last_decision = None;
            return;
        }
        let mut reply = HookReply::default();
        reply.push(
            HookMessageLevel::Error,
            format!("{} hook `{label}` was not run: workspace hooks are not approved", self.event_name),
        );
        self.merge_reply(label, reply);
    }

    /// A hook the workspace gate skipped because a file it executes changed
    /// since the approval: an error message naming the hook and the file
    /// (`why`). It makes no decision.
    pub fn absorb_changed_since_approval(&mut self, label: &str, why: &str) {
        if self.stopped {
            self.failures.push(None);
            return;
        }
        let mut reply = HookReply::default();
        reply.push(
            HookMessageLevel::Error,
            format!("{} hook `{label}` was not run: {why}; the workspace hooks need approval again", self.event_name),
        );
        self.merge_reply(label, reply);
    }

    /// A hook a layer left out for a reason other than the gate (a handler
    /// type the event does not run, an http URL not allowed): a warning
    /// naming the hook and why. It makes no decision.
    pub fn absorb_skipped(&mut self, label: &str, why: &str) {
        if self.stopped {
            self.failures.push(None);
            self.last_decision = None;
            return;
        }
        let mut reply = HookReply::default();
        reply.push(HookMessageLevel::Warning, format!("{} hook `{label}` was not run: {why}", self.event_name));
        self.merge_reply(label, reply);
    }

    /// A hook that could not be started (e.g. spawn failure): an error
    /// message. It makes no decision on any event (for PreToolUse this is
    /// the same as a failing hook, not a timeout, so the tool is not denied
    /// because of it) unless the rules let a `failClosed` hook decide.
    pub fn absorb_spawn_error(&mut self, label: &str, error: &str) {
        self.absorb_spawn_failure(label, error, false, None);
    }

    /// [`absorb_spawn_error`](Self::absorb_spawn_error) for a hook that may
    /// be `failClosed`, of `dialect` (`None`: the run's), whose rules for the
    /// event say what a hook that cannot start decides. Returns true when
    /// the run must stop here.
    pub fn absorb_spawn_failure(
        &mut self,
        label: &str,
        error: &str,
        fail_closed: bool,
        dialect: Option<&'static dyn Dialect>,
    ) -> bool {
        if self.stopped {
            self.failures.push(Some(HookFailure::Spawn));
            self.last_decision = None;
            return true;
        }
        let text = format!("{} hook `{label}` could not be started: {}", self.event_name, error.trim());
        let mut reply = HookReply::default();
        reply.push(HookMessageLevel::Error, text.clone());
        reply.failure = Some(crate::model::reply::Failure { kind: HookFailure::Spawn, text, timeout_or_lost: false });
        let rules = dialect.map_or(self.rules, |d| d.profile().rules_of(&self.event));
        fail_closed::apply(&mut reply, fail_closed, rules, self.family);
        self.merge_reply(label, reply)
    }

    /// [`absorb_spawn_failure`](Self::absorb_spawn_failure) for a hook
    /// configured under another event of the run's dialect: its fail-closed
    /// reason is that event's.
    pub(crate) fn absorb_spawn_failure_as(
        &mut self,
        label: &str,
        error: &str,
        fail_closed: bool,
        dialect: Option<&'static dyn Dialect>,
        native_event: Option<&'static str>,
    ) -> bool {
        let Some(native) = native_event else {
            return self.absorb_spawn_failure(label, error, fail_closed, dialect);
        };
        if self.stopped {
            self.failures.push(Some(HookFailure::Spawn));
            self.last_decision = None;
            return true;
        }
        let event = RunEvent::Named(native.into());
        let d = dialect.unwrap_or(self.dialect);
        let rules = d.profile().rules_of(&event);
        let family = d.profile().family_of(&event);
        let text = format!("{native} hook `{label}` could not be started: {}", error.trim());
        let mut reply = HookReply::default();
        reply.push(HookMessageLevel::Error, text.clone());
        reply.failure = Some(crate::model::reply::Failure { kind: HookFailure::Spawn, text, timeout_or_lost: false });
        fail_closed::apply(&mut reply, fail_closed, rules, family);
        self.merge_reply(label, reply)
    }
}
