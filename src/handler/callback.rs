//! The `callback` handler: host code added with
//! `hl_engine_add_callback_hook`, called on the run's thread with the same
//! payload JSON a command reads; its reply reads like a command's output
//! ([`HookExecution::from_callback`]). A callback hook has no timeout (host
//! code cannot be killed).

use std::sync::Arc;
use std::time::Instant;

use super::{Call, Ran};
use crate::callback::{invoke, SharedCallback};
use crate::config::matcher::Matcher;
use crate::model::event::HookEvent;
use crate::model::execution::HookExecution;

/// A callback hook added by the host.
pub(crate) struct CallbackHook {
    pub(crate) event: HookEvent,
    pub(crate) name: String,
    pub(crate) matcher: Matcher,
    pub(crate) callback: SharedCallback,
}

/// Call the host's callback for one hook.
pub(crate) fn run(hook: &Arc<CallbackHook>, call: &Call<'_>) -> Ran {
    let started = Instant::now();
    let result = invoke(hook.callback.as_ref(), call.payload.text());
    let duration = started.elapsed();
    let event = call.event.known().unwrap_or(hook.event);
    Ran::Done {
        duration,
        stdout_truncated: false,
        stderr_truncated: false,
        exec: HookExecution::from_callback(event, &hook.name, &result),
    }
}
