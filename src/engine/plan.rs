//! The plan of one run: which hooks run for an event input, in order.
//! Matching happens here, once per run; the plan feeds both the no-match
//! fast path (an empty plan) and execution.
//!
//! Order: the configured commands of every matching group, in
//! configuration order, then the matching callback hooks, in the order they
//! were added. Configured groups use the configuration's dialect; callback
//! hooks always use the Claude Code matcher rule (see [`crate::matcher`]).
//!
//! What the profile says (see [`crate::profile`]): a command whose `if`
//! condition does not match the tool call is left out before it spawns; in
//! profiles that deduplicate, a command identical to one already planned
//! for this event (same type and command) is left out; `async` commands go
//! to the background list instead of the run.

use std::sync::Arc;

use serde_json::Value;

use super::options::Setup;
use crate::callback::SharedCallback;
use crate::config::{CommandHook, Dialect};
use crate::event::HookEvent;
use crate::matcher::{match_subject, named_match_subject, Matcher};

/// The event of a run: one of the twelve, or a config key fired by name
/// that the profile does not know.
#[derive(Clone, Debug)]
pub(crate) enum RunEvent {
    Known(HookEvent),
    Named(Arc<str>),
}

impl RunEvent {
    /// The event's name (`hook_event_name`).
    pub(crate) fn name(&self) -> &str {
        match self {
            RunEvent::Known(e) => e.name(),
            RunEvent::Named(n) => n,
        }
    }

    pub(crate) fn known(&self) -> Option<HookEvent> {
        match self {
            RunEvent::Known(e) => Some(*e),
            RunEvent::Named(_) => None,
        }
    }
}

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
    /// `async` commands: started in the background, not waited for.
    pub(crate) background: Vec<&'a CommandHook>,
}

impl<'a> Plan<'a> {
    /// Match `event`'s configured groups and callback hooks against `input`.
    pub(crate) fn new(setup: &'a Setup, callbacks: &'a [Arc<CallbackHook>], event: &RunEvent, input: &Value) -> Self {
        let trigger = setup.trigger.as_str();
        let mut hooks = Vec::new();
        let mut background = Vec::new();
        let (groups, subject) = match event {
            RunEvent::Known(e) => (setup.config.groups(*e), None),
            RunEvent::Named(name) => (setup.config.groups_named(name), named_match_subject(input)),
        };
        if !groups.is_empty() {
            let subject = match event {
                RunEvent::Known(e) => match_subject(*e, setup.config.dialect(), input, trigger),
                RunEvent::Named(_) => subject,
            };
            let dedupe = setup.config.profile().dedupe_identical_commands;
            let tool = event.known().filter(|e| e.is_tool_event()).and_then(|_| input.get("tool_name")?.as_str());
            let tool_input = input.get("tool_input");
            let mut seen: Vec<&str> = Vec::new();
            for group in groups.iter().filter(|g| g.matches(subject)) {
                for hook in &group.hooks {
                    if hook.if_rule.as_ref().is_some_and(|rule| !rule.matches(tool, tool_input, &setup.workspace)) {
                        continue;
                    }
                    if dedupe {
                        if seen.contains(&hook.command.as_str()) {
                            continue;
                        }
                        seen.push(&hook.command);
                    }
                    if hook.run_async {
                        background.push(hook);
                    } else {
                        hooks.push(Planned::Command(hook));
                    }
                }
            }
        }
        let Some(event) = event.known() else {
            return Plan { hooks, background };
        };
        if callbacks.iter().any(|c| c.event == event) {
            let subject = match_subject(event, Dialect::Claude, input, trigger);
            for cb in callbacks.iter().filter(|c| c.event == event && c.matcher.matches_subject(subject)) {
                hooks.push(Planned::Callback(cb));
            }
        }
        Plan { hooks, background }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::callback::{CallResult, Reply};
    use crate::engine::{EngineOptions, HooksSource};
    use serde_json::json;

    fn names(plan: &Plan<'_>) -> Vec<String> {
        plan.hooks
            .iter()
            .map(|h| match h {
                Planned::Command(c) => format!("command:{}", c.command),
                Planned::Callback(c) => format!("callback:{}", c.name),
            })
            .collect()
    }

    #[test]
    fn commands_use_the_config_dialect_callbacks_the_claude_rule_commands_first() {
        let dir = tempfile::tempdir().unwrap();
        let mut options = EngineOptions::new(dir.path(), "s");
        options.hooks = HooksSource::Json(json!({"lifecycle": {"pre_tool_use": [
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "a"}, {"type": "command", "command": "b"}]}
        ]}}));
        let setup = Setup::build(&options, None).unwrap();
        let callback: SharedCallback = Arc::new(|_: &str| CallResult::ok(Reply::NoOpinion));
        let callbacks = vec![
            Arc::new(CallbackHook {
                event: HookEvent::PreToolUse,
                name: "edits".into(),
                matcher: Matcher::claude(Some(".*Edit")).unwrap(),
                callback: callback.clone(),
            }),
            Arc::new(CallbackHook {
                event: HookEvent::Stop,
                name: "other-event".into(),
                matcher: Matcher::All,
                callback,
            }),
        ];
        let edit =
            Plan::new(&setup, &callbacks, &RunEvent::Known(HookEvent::PreToolUse), &json!({"tool_name": "Edit"}));
        assert_eq!(names(&edit), ["command:a", "command:b", "callback:edits"]);
        // VT Code matchers are anchored, Claude regexes are not.
        let notebook = Plan::new(
            &setup,
            &callbacks,
            &RunEvent::Known(HookEvent::PreToolUse),
            &json!({"tool_name": "NotebookEdit"}),
        );
        assert_eq!(names(&notebook), ["callback:edits"]);
        let none =
            Plan::new(&setup, &callbacks, &RunEvent::Known(HookEvent::PreToolUse), &json!({"tool_name": "Bash"}));
        assert!(none.is_empty());
    }
}
