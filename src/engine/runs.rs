//! Asynchronous runs, cancellation and closing: the run table (every run
//! that can be cancelled, by id), the count of pending asynchronous runs,
//! and what closing the engine waits for.
//!
//! Threading: an asynchronous run executes on the runtime's blocking pool
//! (hookline threads, never async workers), where its callback hooks run
//! and its `done` is called. No lock is held while a host callback runs.

use std::sync::atomic::Ordering;

use serde_json::Value;

use std::sync::Arc;

use serde_json::Map;

use super::execute::{cancelled_error, empty_outcome, interpreter, run_event_named, validate, RunCtx};
use super::options::Setup;
use super::plan::RunEvent;
use super::{EngineState, LifecycleHookEngine};
use crate::config::CommandHook;
use crate::error::{Error, Result, Status};
use crate::event::HookEvent;
use crate::interpret::{EventInterpreter, HookMessage, HookOutcome};
use crate::payload::{self, SessionFacts};
use crate::runner::CancelToken;
use crate::runtime;

/// What `async` hooks produced, waiting for the engine's next outcome.
#[derive(Debug, Default)]
pub(crate) struct Deliveries {
    messages: Vec<HookMessage>,
    context: Vec<String>,
}

/// Run ids of synchronous runs have this bit set (never returned to hosts).
const SYNC_RUN_BIT: u64 = 1 << 63;

/// Run ids of background (`async`) hooks have this bit set (never returned to hosts).
const BACKGROUND_RUN_BIT: u64 = 1 << 62;

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
        self.run_event_async(RunEvent::Known(event), input, done)
    }

    /// Fire an event by its config key asynchronously
    /// (`hl_engine_run_named_async`); see
    /// [`run_named_blocking`](Self::run_named_blocking) for the rules.
    pub fn run_named_async<F>(&self, name: &str, input: Value, done: F) -> Result<u64>
    where
        F: FnOnce(Result<HookOutcome>) + Send + 'static,
    {
        self.run_event_async(run_event_named(name)?, input, done)
    }

    fn run_event_async<F>(&self, event: RunEvent, input: Value, done: F) -> Result<u64>
    where
        F: FnOnce(Result<HookOutcome>) + Send + 'static,
    {
        self.check_usable()?;
        validate(&self.setup(), &event, &input)?;
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
                let run = || {
                    let profile = engine.setup().config.profile();
                    engine.execute(&event, &input, Some(&token)).map(|o| o.unwrap_or_else(|| empty_outcome(profile, &event)))
                };
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
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

    // ----- async hooks ------------------------------------------------------------

    /// Whether `async` hooks left messages or context for the next outcome.
    pub(crate) fn has_deliveries(&self) -> bool {
        self.state.has_deliveries.load(Ordering::Acquire)
    }

    /// Hand what `async` hooks left to this run's interpreter (context it
    /// cannot place stays for a later run).
    pub(crate) fn deliver(&self, interp: &mut EventInterpreter) {
        if !self.has_deliveries() {
            return;
        }
        let taken = {
            let mut d = self.state.deliveries.lock().unwrap_or_else(|e| e.into_inner());
            self.state.has_deliveries.store(false, Ordering::Release);
            std::mem::take(&mut *d)
        };
        let left = interp.deliver(taken.messages, taken.context);
        if !left.is_empty() {
            let mut d = self.state.deliveries.lock().unwrap_or_else(|e| e.into_inner());
            d.context.splice(0..0, left);
            self.state.has_deliveries.store(true, Ordering::Release);
        }
    }

    fn push_delivery(&self, messages: Vec<HookMessage>, context: Vec<String>) {
        if messages.is_empty() && context.is_empty() {
            return;
        }
        let mut d = self.state.deliveries.lock().unwrap_or_else(|e| e.into_inner());
        d.messages.extend(messages);
        d.context.extend(context);
        self.state.has_deliveries.store(true, Ordering::Release);
    }

    /// Start `async` hooks in the background: they run on hookline threads
    /// like an asynchronous run (closing the engine kills and waits for
    /// them), with the run's original input; what they produce waits for
    /// the engine's next outcome. Their decisions are ignored.
    pub(crate) fn start_background(&self, setup: &Arc<Setup>, event: &RunEvent, input: &Map<String, serde_json::Value>, hooks: &[&CommandHook]) {
        let rt = match runtime::runtime() {
            Ok(rt) => rt,
            Err(e) => {
                crate::hl_warn!("async hooks of {} not started: {}", event.name(), e.message);
                return;
            }
        };
        let token = match CancelToken::new() {
            Ok(t) => t,
            Err(e) => {
                crate::hl_warn!("async hooks of {} not started: {e}", event.name());
                return;
            }
        };
        let id = self.state.next_run_id.fetch_add(1, Ordering::Relaxed) | BACKGROUND_RUN_BIT;
        {
            let mut pending = self.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            if self.state.closed.load(Ordering::Acquire) {
                return;
            }
            *pending += 1;
            self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).insert(id, token.clone());
        }
        let engine = self.clone();
        let setup = setup.clone();
        let event = event.clone();
        let input = input.clone();
        let hooks: Vec<CommandHook> = hooks.iter().map(|h| (*h).clone()).collect();
        rt.spawn_blocking(move || {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                engine.run_background(&setup, &event, &input, &hooks, &token)
            }));
            engine.state.runs.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
            let mut pending = engine.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            *pending -= 1;
            engine.state.pending_cv.notify_all();
        });
    }

    fn run_background(&self, setup: &Setup, event: &RunEvent, input: &Map<String, serde_json::Value>, hooks: &[CommandHook], token: &CancelToken) {
        let transcript = self.transcript_path_arc();
        let facts = SessionFacts {
            session_id: &setup.session_id,
            cwd: &setup.workspace_str,
            transcript_path: transcript.as_deref(),
            trigger: setup.trigger,
        };
        let env = payload::hook_environment_named(&setup.env, event.name(), &facts);
        let payload = match event {
            RunEvent::Known(e) => payload::build_payload(*e, &facts, input, None),
            RunEvent::Named(name) => payload::build_named_payload(name, &facts, input),
        };
        let bytes = payload::payload_bytes(&payload);
        let ctx = RunCtx { engine: self, event: event.clone(), setup, env: &env, env_files: None, token: Some(token) };
        let results: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> =
                hooks.iter().map(|hook| scope.spawn(|| ctx.run_command(usize::MAX, hook, &bytes))).collect();
            handles.into_iter().map(|h| h.join().ok()).collect()
        });
        if token.is_cancelled() {
            return;
        }
        let mut interp = interpreter(setup.config.profile(), event, setup.config.quiet_success_output());
        for done in results.into_iter().flatten().flatten() {
            done.absorb_into(&mut interp);
        }
        let (messages, context) = interp.into_delivery();
        self.push_delivery(messages, context);
    }
}
