//! The background layer: an `async: true` hook (Claude Code) is started in
//! the background instead of being waited for. It runs on hookline
//! threads like an asynchronous run (closing the engine kills and waits for
//! it), with the run's original input, through the same gate, cancel,
//! timeout and report layers; its decision fields are ignored, and its
//! messages and context are delivered in the outcome of the engine's next
//! run. The engine's run table and delivery queue are in `engine/runs.rs`.

use crate::config::HookSpec;

/// Whether `hook` runs in the background.
pub(crate) fn is_background(hook: &HookSpec) -> bool {
    hook.run_async
}
