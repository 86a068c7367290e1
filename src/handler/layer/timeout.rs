//! The timeout layer: a configured hook's effective timeout is the one it
//! sets (clamped to [`crate::config::MAX_TIMEOUT`]), else its
//! dialect's default (VT Code 60 s, Claude Code 600 s). At the timeout a
//! process hook is killed with its whole group. A callback hook has no
//! timeout: host code cannot be killed.

use std::time::Duration;

use crate::config::MAX_TIMEOUT;
use crate::handler::Hook;

/// The timeout `hook` runs under.
pub(crate) fn of(hook: Hook<'_>) -> Duration {
    match hook.spec() {
        Some(spec) => spec.timeout(),
        None => MAX_TIMEOUT,
    }
}
