//! The process-wide runtime, hookline-owned threads, and fork detection.
//!
//! One tokio runtime per process, started on first use. hookline only uses
//! its blocking pool (for asynchronous runs and callbacks) and its timers;
//! host callbacks never run on its async worker threads. Every thread the
//! runtime starts is marked as a hookline thread (so the blocking
//! `hl_engine_run` can refuse to run there) and has SIGPIPE blocked (only
//! for that thread: the host's signal dispositions are never touched).
//!
//! After `fork()` the parent's runtime threads do not exist in the child.
//! Handles remember the pid that created them ([`ForkGuard`]); the runtime
//! is keyed by pid too, so a child that creates new handles gets a fresh
//! runtime and the parent's one is leaked (dropping it would wait on
//! threads that are not there).

use std::cell::Cell;
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result, Status};

thread_local! {
    static HOOKLINE_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Whether the current thread is owned by hookline.
pub fn on_hookline_thread() -> bool {
    HOOKLINE_THREAD.with(|c| c.get())
}

/// Mark the current thread as hookline-owned (used for threads hookline
/// spawns itself outside the runtime).
pub fn mark_hookline_thread() {
    HOOKLINE_THREAD.with(|c| c.set(true));
}

/// The current process id.
pub fn current_pid() -> u32 {
    std::process::id()
}

static RUNTIME: Mutex<Option<(u32, Arc<tokio::runtime::Runtime>)>> = Mutex::new(None);

/// The process-wide runtime, started on first use (and anew in a forked child).
pub fn runtime() -> Result<Arc<tokio::runtime::Runtime>> {
    let pid = current_pid();
    let mut guard = RUNTIME.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((owner, rt)) = guard.as_ref() {
        if *owner == pid {
            return Ok(rt.clone());
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(512)
        .thread_name("hookline")
        .enable_time()
        .on_thread_start(mark_hookline_thread)
        .build()
        .map_err(|e| Error::io(format!("cannot start the hookline runtime: {e}")))?;
    let rt = Arc::new(rt);
    if let Some((_, old)) = guard.replace((pid, rt.clone())) {
        // A runtime inherited through fork(): its threads are gone; never drop it.
        std::mem::forget(old);
    }
    Ok(rt)
}

/// Remembers the process that created a handle.
#[derive(Debug, Clone, Copy)]
pub struct ForkGuard {
    pid: u32,
}

impl Default for ForkGuard {
    fn default() -> Self {
        Self::new()
    }
}

impl ForkGuard {
    pub fn new() -> Self {
        ForkGuard { pid: current_pid() }
    }
    /// `Err(HL_ERR_FORKED)` when called in a process other than the creator.
    pub fn check(&self) -> Result<()> {
        if self.pid == current_pid() {
            Ok(())
        } else {
            Err(Error::new(
                Status::Forked,
                "this handle was created before fork(); create a new one in the child process",
            ))
        }
    }
    /// Whether we are still in the creating process.
    pub fn same_process(&self) -> bool {
        self.pid == current_pid()
    }
}
