//! The plan of one run: which hooks run for an event input, in order — the
//! one planner, used by every run and by [`LifecycleHookEngine::explain`]
//! (the `hookline explain` and `run` commands), so what a host gets and
//! what the command shows cannot disagree.
//!
//! Order: the configured hooks of every matching group, in configuration
//! order, then the matching callback hooks, in the order they were added,
//! then the hooks configured under another event of their dialect that run
//! as part of this one (Cursor's `beforeShellExecution` hooks in
//! PreToolUse: [`HookSpec::native_event`]), which the executor starts only
//! once the others finished without blocking. Their matchers are tested
//! when they start, against the input as the first stage left it (its
//! `tool_input` the rewrite in force), which is also what they read: the
//! plan holds every such hook whose event applies when a first stage runs
//! ([`Plan::later_groups`]).
//! A group's matcher is tested against what its dialect says
//! ([`Dialect::match_subject`](crate::dialect::Dialect::match_subject), and
//! the names it also goes by, [`Dialect::match_aliases`](crate::dialect::Dialect::match_aliases));
//! callback hooks always use the Claude Code matcher rule
//! ([`crate::dialect::callback_match_subject`]). Then the planning layers:
//! a hook whose `if` condition does not match the tool call is left out
//! ([`layer::condition`]); a duplicate is left out where its dialect
//! dedupes ([`layer::dedupe`]); `async` hooks go to the background list
//! ([`layer::background`]).

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::options::Setup;
use super::LifecycleHookEngine;
use crate::config::HookSpec;
use crate::dialect::{self, Dialect};
use crate::error::Result;
use crate::handler::layer::{background, condition, dedupe};
use crate::handler::{CallbackHook, Hook};
use crate::model::event::RunEvent;

/// The hooks one run executes, borrowed from the snapshots it holds.
pub(crate) struct Plan<'a> {
    pub(crate) hooks: Vec<Hook<'a>>,
    /// `async` hooks: started in the background, not waited for.
    pub(crate) background: Vec<&'a HookSpec>,
    /// The dialect whose rules merge the run: the one all its configured
    /// hooks share; the engine config's when none runs; Claude Code's (most
    /// restrictive wins) when hooks of several dialects run together.
    pub(crate) dialect: &'static dyn Dialect,
    /// A group of a hook that runs asks for sequential execution
    /// (`sequential: true`, for events whose rules are
    /// [`SequentialWhenAsked`](crate::model::rules::RunOrder)).
    pub(crate) sequential_asked: bool,
    /// How many of `hooks` run in the first stage: the event's own hooks
    /// and the callback hooks; the rest (hooks configured under another
    /// event of their dialect) start once those finished, unless they
    /// blocked the event.
    pub(crate) first_stage: usize,
    /// For each hook of the later stage (`hooks[first_stage..]`): its group
    /// and the event it is configured under. The executor starts it only
    /// when the group's matcher matches the input of the later stage.
    pub(crate) later_groups: Vec<(&'a crate::config::HookGroup, &'static str)>,
}

/// What the planner decided for one configured hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// It runs, and the run waits for it.
    Runs,
    /// It runs in the background (`async`).
    Background,
    /// Its group's matcher does not match.
    NoMatch,
    /// It is configured under another event of its dialect that does not
    /// run for this call (Cursor's `beforeShellExecution` hooks run in
    /// PreToolUse of the shell tool only): its matcher is not tested.
    NotApplicable,
    /// Its `if` condition does not hold for the tool call.
    ConditionFalse,
    /// An identical hook already runs for this event.
    Duplicate,
    /// Its dialect does not run its handler type on this event: it is
    /// reported as skipped (`unsupported_on_event`).
    Unsupported,
}

/// One configured hook of an event, as the planner saw it
/// ([`LifecycleHookEngine::explain`]).
#[derive(Clone, Debug, Serialize)]
pub struct PlannedEntry {
    /// Where the entry is in its config (`hooks.PreToolUse[0].hooks[1]`).
    pub path: String,
    /// The file it comes from, if any.
    pub file: Option<String>,
    /// The dialect that reads it.
    pub dialect: &'static str,
    /// The handler type (`command`, `http`, ...).
    pub kind: crate::model::outcome::HookKind,
    /// The command (or what names the hook: a URL, `server/tool`, a prompt's first words).
    pub label: String,
    /// The matcher as written.
    pub matcher: Option<String>,
    /// The matcher rule, in words.
    pub rule: String,
    /// The field the matcher is tested against, in words (`None`: the
    /// event ignores matchers in this dialect).
    pub subject_field: Option<&'static str>,
    /// What the matcher was tested against (`None`: the event ignores matchers).
    pub subject: Option<String>,
    /// Whether the group's matcher matched (false when it was not tested:
    /// [`Verdict::NotApplicable`]).
    pub matched: bool,
    /// The dialect's own event the hook is configured under when it runs as
    /// part of this one (Cursor's `beforeShellExecution`).
    pub native_event: Option<&'static str>,
    /// The `if` condition as written, if any.
    pub condition: Option<String>,
    /// Whether the `if` condition holds for this input (`None`: none set).
    pub condition_holds: Option<bool>,
    /// The tool name the hook was matched on and its payload carries, in
    /// its agent's vocabulary (`None` on events without a tool call).
    pub tool_name: Option<String>,
    /// The tool input its payload carries, in its agent's shape.
    pub tool_input: Option<Value>,
    /// What the planner decided.
    pub verdict: Verdict,
}

/// The one planning pass over an event's configured groups: `each` sees
/// every configured hook with its verdict, in configuration order.
///
/// With `defer_later_matchers`, a group configured under another event of
/// its dialect counts as matching whenever its event applies: its matcher
/// is tested when its stage starts ([`Plan::later_groups`]).
fn plan_configured<'a>(
    setup: &'a Setup,
    event: &RunEvent,
    input: &Value,
    defer_later_matchers: bool,
    mut each: impl FnMut(&'a HookSpec, &'a crate::config::HookGroup, &Value, Option<&str>, Verdict),
) {
    let groups = match event {
        RunEvent::Known(e) => setup.config.groups(*e),
        RunEvent::Named(name) => setup.config.groups_named(name),
    };
    let trigger = setup.trigger.as_str();
    let mut seen = dedupe::Seen::default();
    for group in groups {
        let d = group.dialect();
        // The call in the group's agent's vocabulary (option `tool_names`).
        let native_input = setup.native_value(d, input);
        let input = &*native_input;
        let mut applies = true;
        let (subject, matched) = match group.hooks.first().and_then(|h| h.native_event) {
            None => {
                let subject = d.match_subject(event, input, trigger);
                // The subject, or one of the names the dialect also matches
                // it by (Codex's `apply_patch` is `Write` and `Edit` too):
                // each hook of the group is planned once either way.
                let matched = group.matches(subject)
                    || subject.is_some_and(|s| d.match_aliases(event, s).iter().any(|a| group.matches(Some(a))));
                (subject, matched)
            }
            Some(native) => {
                let subject = d.match_subject(&RunEvent::Named(native.into()), input, trigger);
                applies = d.native_event_applies(native, event, input);
                (subject, applies && (defer_later_matchers || group.matches(subject)))
            }
        };
        for hook in &group.hooks {
            let verdict = if !applies {
                Verdict::NotApplicable
            } else if !matched {
                Verdict::NoMatch
            } else if !condition::admits(hook, event, input, &setup.workspace) {
                Verdict::ConditionFalse
            } else if !hook.dialect().supports(hook.handler.kind(), event) {
                Verdict::Unsupported
            } else if !seen.first(hook) {
                Verdict::Duplicate
            } else if background::is_background(hook) {
                Verdict::Background
            } else {
                Verdict::Runs
            };
            each(hook, group, input, subject, verdict);
        }
    }
}

impl<'a> Plan<'a> {
    /// Match `event`'s configured groups and callback hooks against `input`.
    pub(crate) fn new(setup: &'a Setup, callbacks: &'a [Arc<CallbackHook>], event: &RunEvent, input: &Value) -> Self {
        let mut hooks = Vec::new();
        // The later stage: each hook, its group and event, and whether its
        // matcher matches the run's own input.
        let mut later = Vec::new();
        let mut background = Vec::new();
        let mut sequential_asked = false;
        let trigger = setup.trigger.as_str();
        plan_configured(setup, event, input, true, |hook, group, native_input, _, verdict| match verdict {
            // An unsupported hook runs through the layers only to be reported as skipped.
            Verdict::Runs | Verdict::Unsupported if hook.native_event.is_some() => {
                let native = hook.native_event.unwrap_or_default();
                let subject = hook.dialect().match_subject(&RunEvent::Named(native.into()), native_input, trigger);
                let matched = group.matches(subject);
                sequential_asked |= matched && group.sequential;
                later.push((Hook::Configured(hook), group, native, matched));
            }
            Verdict::Runs | Verdict::Unsupported => {
                sequential_asked |= group.sequential;
                hooks.push(Hook::Configured(hook))
            }
            Verdict::Background => background.push(hook),
            _ => {}
        });
        let matched_later = later.iter().filter(|l| l.3).map(|l| &l.0);
        let dialect = run_dialect(
            hooks.iter().chain(matched_later).filter_map(Hook::spec).chain(background.iter().copied()),
            setup,
        );
        if let Some(known) = event.known() {
            if callbacks.iter().any(|c| c.event == known) {
                let subject = dialect::callback_match_subject(event, input, setup.trigger.as_str());
                for cb in callbacks.iter().filter(|c| c.event == known && c.matcher.matches_subject(subject)) {
                    hooks.push(Hook::Callback(cb));
                }
            }
        }
        // Callback hooks run with the event's own hooks, in the first stage.
        let first_stage = hooks.len();
        // A later hook whose matcher fails on this input can only come to
        // match by a rewrite of the first stage: without one it is left out.
        if first_stage == 0 {
            later.retain(|l| l.3);
        }
        let later_groups = later.iter().map(|l| (l.1, l.2)).collect();
        hooks.extend(later.into_iter().map(|l| l.0));
        Plan { hooks, background, dialect, sequential_asked, first_stage, later_groups }
    }

    /// The plan of `async` hooks started in the background.
    pub(crate) fn background(setup: &'a Setup, hooks: &'a [HookSpec]) -> Self {
        Plan {
            hooks: hooks.iter().map(Hook::Configured).collect(),
            background: Vec::new(),
            dialect: run_dialect(hooks.iter(), setup),
            sequential_asked: false,
            first_stage: hooks.len(),
            later_groups: Vec::new(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }

    /// Whether a hook runs as a process (it needs the environment and a
    /// cancellation token).
    pub(crate) fn has_processes(&self) -> bool {
        self.hooks.iter().any(Hook::is_process)
    }

    /// Whether a hook must be reachable by a cancel while it runs (every
    /// configured hook): the run then needs a cancellation token.
    pub(crate) fn has_cancellable(&self) -> bool {
        self.hooks.iter().any(Hook::cancellable)
    }
}

/// The dialect whose rules merge a run of `hooks`: the one they share; the
/// config's when there are none; Claude Code's (most restrictive wins)
/// when they come from sources of several dialects.
fn run_dialect<'a>(mut hooks: impl Iterator<Item = &'a HookSpec>, setup: &Setup) -> &'static dyn Dialect {
    let Some(first) = hooks.next() else {
        return setup.config.dialect();
    };
    let d = first.dialect();
    if hooks.all(|h| dialect::same(h.dialect(), d)) {
        d
    } else {
        dialect::CLAUDE
    }
}

impl LifecycleHookEngine {
    /// Every configured hook of `event` with what the planner decides for
    /// this input (matched or not, `if` condition, duplicate, background),
    /// in configuration order: the plan a run of this input executes,
    /// without running anything. `name` is an event name (PascalCase) or a
    /// named event's config key.
    pub fn explain(&self, name: &str, input: &Value) -> Result<Vec<PlannedEntry>> {
        self.check_usable()?;
        let setup = self.setup();
        let event = super::input::resolve_named(&setup, super::input::run_event_named(name)?);
        super::input::validate(&setup, &event, input)?;
        let mut out = Vec::new();
        plan_configured(&setup, &event, input, false, |hook, group, native_input, subject, verdict| {
            let d = hook.dialect();
            let tool_event = d.profile().is_tool_event(&event);
            out.push(PlannedEntry {
                path: hook.path.clone(),
                file: hook.source.info.path.as_ref().map(|p| p.display().to_string()),
                dialect: d.name(),
                kind: hook.handler.kind(),
                label: hook.label(),
                matcher: group.matcher_raw.clone(),
                rule: d.describe_matcher(&group.matcher, group.matcher_raw.as_deref()),
                subject_field: match hook.native_event {
                    Some(native) => d.match_subject_field(&RunEvent::Named(native.into())),
                    None => d.match_subject_field(&event),
                },
                subject: subject.map(str::to_owned),
                matched: !matches!(verdict, Verdict::NoMatch | Verdict::NotApplicable),
                native_event: hook.native_event,
                condition: hook.if_rule.as_ref().map(|r| r.raw().to_owned()),
                condition_holds: hook
                    .if_rule
                    .as_ref()
                    .map(|_| condition::admits(hook, &event, native_input, &setup.workspace)),
                tool_name: native_input
                    .get("tool_name")
                    .and_then(Value::as_str)
                    .filter(|_| tool_event)
                    .map(str::to_owned),
                tool_input: native_input.get("tool_input").filter(|_| tool_event).cloned(),
                verdict,
            });
        });
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::callback::{CallResult, Reply, SharedCallback};
    use crate::config::matcher::Matcher;
    use crate::engine::{EngineOptions, HooksSource};
    use crate::model::event::HookEvent;
    use serde_json::json;

    fn names(plan: &Plan<'_>) -> Vec<String> {
        plan.hooks
            .iter()
            .map(|h| match h {
                Hook::Configured(c) => format!("command:{}", c.label()),
                Hook::Callback(c) => format!("callback:{}", c.name),
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
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        let edit = Plan::new(&setup, &callbacks, &pre, &json!({"tool_name": "Edit"}));
        assert_eq!(names(&edit), ["command:a", "command:b", "callback:edits"]);
        // VT Code matchers are anchored, Claude regexes are not.
        let notebook = Plan::new(&setup, &callbacks, &pre, &json!({"tool_name": "NotebookEdit"}));
        assert_eq!(names(&notebook), ["callback:edits"]);
        let none = Plan::new(&setup, &callbacks, &pre, &json!({"tool_name": "Bash"}));
        assert!(none.is_empty());
    }

    #[test]
    fn a_run_of_hooks_of_several_dialects_merges_with_the_most_restrictive_rules() {
        let dir = tempfile::tempdir().unwrap();
        let mut options = EngineOptions::new(dir.path(), "s");
        options.hooks = HooksSource::Sources(vec![
            crate::engine::HookSourceOption::new(HooksSource::Json(
                json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "a"}]}]}}),
            )),
            crate::engine::HookSourceOption::new(HooksSource::Json(
                json!({"PreToolUse": [{"hooks": [{"command": "b"}]}]}),
            )),
        ]);
        let setup = Setup::build(&options, None).unwrap();
        let plan = Plan::new(&setup, &[], &RunEvent::Known(HookEvent::PreToolUse), &json!({"tool_name": "Bash"}));
        assert_eq!(names(&plan), ["command:a", "command:b"]);
        assert_eq!(plan.dialect.name(), "claude");
    }
}
