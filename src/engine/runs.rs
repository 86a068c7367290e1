//! Asynchronous runs, cancellation and closing: the run table (every run
//! that can be cancelled, by id), the count of pending asynchronous runs,
//! and what closing the engine waits for.
//!
//! Threading: an asynchronous run executes on the runtime's blocking pool
//! (hookline threads, never async workers), where its callback hooks run
//! and its `done` is called. No lock is held while a host callback runs.

use std::sync::atomic::Ordering;

use serde_json::Value;

use super::execute::{cancelled_error, empty_outcome};
use super::{EngineState, LifecycleHookEngine};
use crate::error::{Error, Result, Status};
use crate::event::HookEvent;
use crate::interpret::HookOutcome;
use crate::payload;
use crate::runner::CancelToken;
use crate::runtime;

/// Run ids of synchronous runs have this bit set (never returned to hosts).
const SYNC_RUN_BIT: u64 = 1 << 63;

/// A synchronous run's registration in the run table (so that `close` can
/// kill its processes); unregistered on drop.
pub(crate) struct SyncRun<'a> {
    state: &'a EngineState,
    id: u64,
    pub(crate) token: CancelToken,
}

impl Drop for SyncRun<'_> {
    fn drop(&mut self) {
        self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.id);
    }
}

impl LifecycleHookEngine {
    /// Run one event asynchronously: validates now (an error is returned and
    /// `done` is never called), then runs on a hookline thread and calls
    /// `done` exactly once, with the outcome or `Cancelled`.
    pub fn run_async<F>(&self, event: HookEvent, input: Value, done: F) -> Result<u64>
    where
        F: FnOnce(Result<HookOutcome>) + Send + 'static,
    {
        self.check_usable()?;
        payload::validate_input(event, &input)?;
        let rt = runtime::runtime()?;
        let token = CancelToken::new().map_err(|e| Error::io(format!("cannot create a cancellation token: {e}")))?;
        let id = self.state.next_run_id.fetch_add(1, Ordering::Relaxed);
        {
            let mut pending = self.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            // Checked under the pending lock so close() cannot miss this run.
            if self.state.closed.load(Ordering::Acquire) {
                return Err(Error::new(Status::Closed, "the engine is closed"));
            }
            *pending += 1;
            self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).insert(id, token.clone());
        }
        let engine = self.clone();
        rt.spawn_blocking(move || {
            let result = if token.is_cancelled() {
                Err(cancelled_error())
            } else {
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.execute(event, &input, Some(&token)).map(|o| o.unwrap_or_else(|| empty_outcome(event))))) {
                    Ok(r) => r,
                    Err(_) => Err(Error::new(Status::Panic, "internal error while running hooks")),
                }
            };
            // The linearization point of cancel-versus-completion: the run
            // leaves the run table and reads its token under the table lock,
            // and `cancel` (and `close`) set the token under the same lock. So
            // either cancel found the run first (it returns Ok and this run
            // reports Cancelled, whatever it computed), or the run left the
            // table first (cancel returns NotFound and `done` gets the real
            // result). Never both, never neither.
            let cancelled = {
                let mut runs = engine.state.runs.lock().unwrap_or_else(|e| e.into_inner());
                runs.remove(&id);
                token.is_cancelled()
            };
            let result = if cancelled { Err(cancelled_error()) } else { result };
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| done(result)));
            let mut pending = engine.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            *pending -= 1;
            engine.state.pending_cv.notify_all();
        });
        Ok(id)
    }

    /// Cancel an asynchronous run: its processes are killed and its `done`
    /// receives `Cancelled`. `NotFound` when unknown or already finished.
    pub fn cancel(&self, run_id: u64) -> Result<()> {
        self.state.fork.check()?;
        let runs = self.state.runs.lock().unwrap_or_else(|e| e.into_inner());
        match runs.get(&run_id) {
            Some(token) => {
                token.cancel();
                Ok(())
            }
            None => Err(Error::not_found(format!("no run {run_id} in flight"))),
        }
    }

    /// Close the engine: new runs fail with `Closed`, runs in flight are
    /// cancelled, and (unless called from a hookline thread) this returns
    /// after every pending `done` has been called. Every callback hook has
    /// been released (its `free_user_data` has run) when this returns,
    /// unless it is called from inside a callback or on a hookline thread:
    /// there the last run using a callback releases it.
    pub fn close(&self) {
        if !self.state.fork.same_process() {
            return; // the runs belong to the parent's threads
        }
        {
            let _pending = self.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            self.state.closed.store(true, Ordering::Release);
        }
        for token in self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).values() {
            token.cancel();
        }
        if !runtime::on_hookline_thread() {
            let mut pending = self.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            while *pending > 0 {
                pending = self.state.pending_cv.wait(pending).unwrap_or_else(|e| e.into_inner());
            }
        }
        // Release the callback hooks now, not whenever the last finishing run
        // drops its engine reference (see `CallbackSlot::close`).
        self.state.callbacks.close();
    }

    /// Register a cancellation token for a synchronous run so that `close`
    /// can kill its processes too; unregistered when the guard drops.
    pub(crate) fn track_sync_run(&self) -> Result<SyncRun<'_>> {
        let token = CancelToken::new().map_err(|e| Error::io(format!("cannot create a cancellation token: {e}")))?;
        let id = self.state.next_run_id.fetch_add(1, Ordering::Relaxed) | SYNC_RUN_BIT;
        self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).insert(id, token.clone());
        if self.state.closed.load(Ordering::Acquire) {
            token.cancel();
        }
        Ok(SyncRun { state: &self.state, id, token })
    }
}
