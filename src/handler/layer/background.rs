//! The background layer: an `async: true` hook (Claude Code) is started in
//! the background instead of being waited for. It runs on hookline
//! threads like an asynchronous run (closing the engine kills and waits for
//! it), with the run's original input, through the same gate, cancel,
//! timeout and report layers; its decision fields are ignored, and its
//! messages and context are delivered in the outcome of the engine's next
//! run. The engine's run table and delivery queue are in `engine/runs.rs`.
//!
//! `asyncRewake: true` implies `async`; when such a hook exits 2, its
//! stderr (its stdout when stderr is empty) is delivered with the next
//! outcome as a `system_reminder` message (Claude Code: "wakes Claude on
//! exit code 2 … shown to Claude as a system reminder").

use crate::config::HookSpec;
use crate::handler::{Executed, Output};

/// Whether `hook` runs in the background.
pub(crate) fn is_background(hook: &HookSpec) -> bool {
    hook.run_async || hook.async_rewake
}

/// The system reminder an `asyncRewake` hook's result gives, if any: its
/// stderr, else its stdout, when it exited 2.
pub(crate) fn rewake_reminder(hook: &HookSpec, done: &Executed) -> Option<String> {
    let Output::Ran(exec) = &done.output else {
        return None;
    };
    if !hook.async_rewake || exec.timed_out || exec.exit_code != Some(2) {
        return None;
    }
    let stderr = exec.stderr.trim();
    let text = if stderr.is_empty() { exec.stdout.trim() } else { stderr };
    (!text.is_empty()).then(|| text.to_owned())
}
