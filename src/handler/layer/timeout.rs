//! The timeout layer: a configured hook's effective timeout is the one it
//! sets (clamped to [`crate::config::MAX_TIMEOUT`]), else its dialect's
//! default for its handler type and event ([`HandlerTimeouts`]): Claude
//! Code's 600 s for `command`, `http` and `mcp_tool`, 30 s for `prompt`,
//! 60 s for `agent`, with UserPromptSubmit lowering the first three to 30 s
//! (and MessageDisplay to 10 s); VT Code's 60 s. At the timeout a process
//! hook is killed with its whole group, a request is abandoned and its
//! connection closed, and a host handler's late answer is dropped. A
//! callback hook has no timeout: host code cannot be killed.
//!
//! [`HandlerTimeouts`]: crate::model::rules::HandlerTimeouts

use std::time::Duration;

use crate::config::{HookSpec, MAX_TIMEOUT};
use crate::handler::Hook;
use crate::model::event::RunEvent;
use crate::model::outcome::HookKind;

/// The timeout `hook` runs under on `event`.
pub(crate) fn of(hook: Hook<'_>, event: &RunEvent) -> Duration {
    match hook.spec() {
        Some(spec) => effective(spec, event),
        None => MAX_TIMEOUT,
    }
}

/// A configured hook's timeout on `event`: its own, else its type's default there.
pub fn effective(spec: &HookSpec, event: &RunEvent) -> Duration {
    match spec.timeout_seconds {
        Some(s) => Duration::from_secs(s).min(MAX_TIMEOUT),
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
