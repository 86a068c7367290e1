//! The timeout layer: a configured hook's effective timeout is the one it
//! sets (clamped to [`crate::config::MAX_TIMEOUT`]), else its dialect's
//! default for its handler type and event ([`HandlerTimeouts`]): Claude
//! Code's 600 s for `command`, `http` and `mcp_tool`, 30 s for `prompt`,
//! 60 s for `agent`, with UserPromptSubmit, PreModelSwitch and
//! PostModelSwitch lowering the first three to 30 s (and MessageDisplay to
//! 10 s); VT Code's 60 s; Gemini CLI's 60000 ms (its
//! hooks write milliseconds). At the timeout a process
//! hook is killed with its whole group, a request is abandoned and its
//! connection closed, and a host handler's late answer is dropped. A
//! callback hook has no timeout: host code cannot be killed.
//!
//! Where the event's row has a shared [`Budget`] (Claude Code's
//! SessionEnd: "SessionEnd hooks share a 1.5-second budget; if your
//! settings set a longer per-hook timeout, Claude Code raises the budget to
//! match, up to 60 seconds"), no hook of the run runs longer than the
//! budget: the base, raised to the largest timeout a hook of the run sets,
//! at most the maximum. "Timeouts set on plugin-provided hooks don't raise
//! the budget." The hooks of such an event run concurrently, so a
//! per-hook limit is the shared deadline.
//!
//! [`HandlerTimeouts`]: crate::model::rules::HandlerTimeouts

use std::time::Duration;

use crate::config::{HookSpec, MAX_TIMEOUT};
use crate::handler::Hook;
use crate::model::event::RunEvent;
use crate::model::outcome::HookKind;
use crate::model::rules::{Budget, Column};

/// The columns of the rule table this layer honours.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const HONOURS: &[Column] = &[Column::Budget];

/// The timeout `hook` runs under on `event`, within the run's shared
/// budget if any.
pub(crate) fn of(hook: Hook<'_>, event: &RunEvent, budget: Option<Duration>) -> Duration {
    let own = match hook.spec() {
        Some(spec) => effective(spec, event),
        None => return MAX_TIMEOUT,
    };
    match budget {
        Some(budget) => own.min(budget),
        None => own,
    }
}

/// The shared budget of a run of `hooks`: `budget.base`, raised to the
/// largest timeout a hook of a non-plugin source sets, at most `budget.max`.
pub(crate) fn budget<'a>(budget: Budget, hooks: impl Iterator<Item = &'a HookSpec>) -> Duration {
    hooks
        .filter(|h| h.plugin_root().is_none())
        .filter_map(|h| h.timeout_seconds)
        .map(Duration::from_secs)
        .fold(budget.base, Duration::max)
        .min(budget.max)
}

/// A configured hook's timeout on `event`: its own, else its type's default there.
pub fn effective(spec: &HookSpec, event: &RunEvent) -> Duration {
    match spec.timeout_seconds {
        // In the dialect's unit (milliseconds for Gemini CLI).
        Some(_) => spec.timeout(),
        None => default_of(spec, event),
    }
}

/// The default timeout of `spec`'s handler type on `event` in its dialect.
pub fn default_of(spec: &HookSpec, event: &RunEvent) -> Duration {
    let timeouts = &spec.dialect().profile().handler_timeouts;
    match spec.handler.kind() {
        HookKind::Prompt => timeouts.prompt,
        HookKind::Agent => timeouts.agent,
        _ => timeouts.lowered.iter().find(|(name, _)| *name == event.name()).map_or(spec.default_timeout, |(_, d)| *d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_raised_to_the_largest_configured_timeout_at_most_the_maximum() {
        let b = Budget { base: Duration::from_millis(1500), max: Duration::from_secs(60) };
        let hooks = |t: &[Option<u64>]| t.iter().map(|t| HookSpec::command("x", *t)).collect::<Vec<_>>();
        assert_eq!(budget(b, hooks(&[None, None]).iter()), Duration::from_millis(1500));
        assert_eq!(budget(b, hooks(&[Some(1), Some(5)]).iter()), Duration::from_secs(5));
        assert_eq!(budget(b, hooks(&[Some(600)]).iter()), Duration::from_secs(60));
    }
}
