//! Asynchronous runs, cancellation and closing: the run table (every run
//! that can be cancelled, by id), the count of pending asynchronous runs,
//! and what closing the engine waits for.
//!
//! Threading: an asynchronous run executes on the run pool
//! ([`runtime::spawn_run`]: hookline threads, never async workers), where
//! its callback hooks run and its `done` is called. A reserved run is a
//! blocking run on the caller's thread whose id was handed out first, so
//! that another thread can cancel it. No lock is held while a host callback
//! runs.

use std::sync::atomic::Ordering;

use serde_json::Value;

use std::sync::Arc;

use serde_json::Map;

use super::context::{Environments, RunCtx};
use super::execute::{cancelled_error, outcome_json};
use super::input::{
    check_blocking_allowed, empty_outcome, resolve_named, run_event_named, unknown_event_warning, validate,
    with_warning, RunToken,
};
use super::options::Setup;
use super::plan::Plan;
use super::{EngineState, LifecycleHookEngine};
use crate::config::HookSpec;
use crate::error::{Error, Result, Status};
use crate::handler::layer::{background, Stack};
use crate::merge::EventInterpreter;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::outcome::{HookMessage, HookMessageLevel, HookOutcome};
use crate::runner::CancelToken;
use crate::runtime;
use crate::trace::RunContext;

/// What `async` hooks produced, waiting for the engine's next outcome.
#[derive(Debug, Default)]
pub(crate) struct Deliveries {
    messages: Vec<HookMessage>,
    context: Vec<String>,
}

/// Run ids of synchronous runs have this bit set (never returned to hosts).
const SYNC_RUN_BIT: u64 = 1 << 63;
/// Run ids handed out by [`LifecycleHookEngine::reserve_run`] have this bit set.
const RESERVED_RUN_BIT: u64 = 1 << 62;
/// Run ids of background (`async`) hooks have this bit set (never returned
/// to hosts). Each kind of run has its own bit (asynchronous runs none), and
/// the counter below them never reaches bit 61, so no two kinds share an id.
const BACKGROUND_RUN_BIT: u64 = 1 << 61;

/// One entry of the run table. `cancel` and `close` set `cancelled` and
/// fire the token under the table lock; a run reads `cancelled` under the
/// same lock when it leaves the table (the linearization point).
pub(crate) struct RunSlot {
    /// `None` only for a reservation whose run has not needed one yet.
    token: Option<CancelToken>,
    cancelled: bool,
    /// A reservation not yet claimed by a run.
    unclaimed: bool,
}

impl RunSlot {
    fn with_token(token: CancelToken) -> Self {
        RunSlot { token: Some(token), cancelled: false, unclaimed: false }
    }

    fn cancel(&mut self) {
        self.cancelled = true;
        if let Some(token) = &self.token {
            token.cancel();
        }
    }
}

/// A claimed reservation, while its run executes on the caller's thread.
pub(crate) struct ReservedRun<'a> {
    state: &'a EngineState,
    id: u64,
}

impl ReservedRun<'_> {
    /// The run's cancellation token, made on first use (already fired when
    /// the run was cancelled before).
    pub(crate) fn token(&self) -> Result<CancelToken> {
        let fresh = CancelToken::new().map_err(|e| Error::io(format!("cannot create a cancellation token: {e}")))?;
        let mut runs = self.state.runs.lock().unwrap_or_else(|e| e.into_inner());
        let slot = runs.get_mut(&self.id).ok_or_else(cancelled_error)?;
        if slot.token.is_none() {
            if slot.cancelled {
                fresh.cancel();
            }
            slot.token = Some(fresh);
        }
        slot.token.clone().ok_or_else(cancelled_error)
    }

    /// Leave the run table; whether the run was cancelled by then.
    fn leave(&self) -> bool {
        let mut runs = self.state.runs.lock().unwrap_or_else(|e| e.into_inner());
        runs.remove(&self.id).is_none_or(|slot| slot.cancelled)
    }
}

impl Drop for ReservedRun<'_> {
    fn drop(&mut self) {
        // A panic in the run: leave the table anyway (idempotent).
        self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.id);
    }
}

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
        self.run_event_async(RunEvent::Known(event), input, false, done)
    }

    /// Fire an event by its config key asynchronously
    /// (`hl_engine_run_named_async`); see
    /// [`run_named_blocking`](Self::run_named_blocking) for the rules.
    pub fn run_named_async<F>(&self, name: &str, input: Value, done: F) -> Result<u64>
    where
        F: FnOnce(Result<HookOutcome>) + Send + 'static,
    {
        self.run_event_async(run_event_named(name)?, input, true, done)
    }

    fn run_event_async<F>(&self, event: RunEvent, input: Value, by_name: bool, done: F) -> Result<u64>
    where
        F: FnOnce(Result<HookOutcome>) + Send + 'static,
    {
        self.check_usable()?;
        // The snapshot the input is validated against is the one it runs with.
        let setup = self.setup();
        let event = resolve_named(&setup, event);
        validate(&setup, &event, &input)?;
        let warning = if by_name { unknown_event_warning(&setup.config, &event) } else { None };
        let token = CancelToken::new().map_err(|e| Error::io(format!("cannot create a cancellation token: {e}")))?;
        let id = self.state.next_run_id.fetch_add(1, Ordering::Relaxed);
        {
            let mut pending = self.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            // Checked under the pending lock so close() cannot miss this run.
            if self.state.closed.load(Ordering::Acquire) {
                return Err(Error::new(Status::Closed, "the engine is closed"));
            }
            *pending += 1;
            self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).insert(id, RunSlot::with_token(token.clone()));
        }
        let engine = self.clone();
        // check_usable() above checked the fork rule: no second getpid.
        let spawned = runtime::spawn_run_checked(&self.state.fork, move || {
            let result = if token.is_cancelled() {
                Err(cancelled_error())
            } else {
                let run = || {
                    engine
                        .execute(&setup, &event, &input, RunToken::Async(&token))
                        .map(|o| o.unwrap_or_else(|| empty_outcome(setup.config.dialect(), &event)))
                        .map(|o| with_warning(o, warning))
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
                runs.remove(&id).is_none_or(|slot| slot.cancelled) || token.is_cancelled()
            };
            let result = if cancelled { Err(cancelled_error()) } else { result };
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| done(result)));
            let mut pending = engine.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            *pending -= 1;
            engine.state.pending_cv.notify_all();
        });
        if let Err(e) = spawned {
            // The run never started: undo its registration (`done` is not called).
            self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
            let mut pending = self.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            *pending -= 1;
            self.state.pending_cv.notify_all();
            return Err(e);
        }
        Ok(id)
    }

    /// Reserve a run id for a blocking run on the calling thread
    /// ([`run_reserved_json`](Self::run_reserved_json)). From now on the id
    /// can be cancelled with [`cancel`](Self::cancel) from any thread; a
    /// cancel that comes before the run starts makes it return `Cancelled`
    /// at once. The reservation is consumed by the first run with it,
    /// whatever that run returns; one never run stays in the run table until
    /// the engine is closed. `Err(WrongThread)` on a hookline thread (a
    /// reserved run blocks; use [`run_async`](Self::run_async) there).
    pub fn reserve_run(&self) -> Result<u64> {
        check_blocking_allowed()?;
        self.check_usable()?;
        let id = self.state.next_run_id.fetch_add(1, Ordering::Relaxed) | RESERVED_RUN_BIT;
        let mut runs = self.state.runs.lock().unwrap_or_else(|e| e.into_inner());
        let mut slot = RunSlot { token: None, cancelled: false, unclaimed: true };
        // close() either finds the entry or has set `closed` before we look.
        if self.state.closed.load(Ordering::Acquire) {
            slot.cancel();
        }
        runs.insert(id, slot);
        Ok(id)
    }

    /// Run one event on the calling thread under a reserved id (see
    /// [`reserve_run`](Self::reserve_run)), otherwise like
    /// [`run_blocking_json`](Self::run_blocking_json). It returns
    /// `Cancelled` exactly when a [`cancel`](Self::cancel) of the id
    /// returned `Ok` (or the engine was closed) before the run left the run
    /// table; a cancel after that returns `NotFound` and the run keeps its
    /// result. `NotFound` for an id that is not an unused reservation.
    pub fn run_reserved_json(&self, run_id: u64, event: HookEvent, input: &Value) -> Result<String> {
        self.run_reserved_with(run_id, |engine, run| engine.run_reserved_body(event, input, run))
    }

    /// Claim the reservation `run_id`, run `body`, and leave the run table,
    /// deciding cancel-versus-completion under the table lock as
    /// [`run_async`](Self::run_async) does. Every path (an error in `body`
    /// included) consumes the reservation.
    pub(crate) fn run_reserved_with<T>(
        &self,
        run_id: u64,
        body: impl FnOnce(&Self, &ReservedRun<'_>) -> Result<T>,
    ) -> Result<T> {
        let cancelled_before = {
            let mut runs = self.state.runs.lock().unwrap_or_else(|e| e.into_inner());
            match runs.get_mut(&run_id) {
                Some(slot) if slot.unclaimed => {
                    slot.unclaimed = false;
                    slot.cancelled
                }
                Some(_) if run_id & RESERVED_RUN_BIT != 0 => {
                    return Err(Error::invalid_argument(format!("run {run_id} is already running")))
                }
                Some(_) => return Err(Error::invalid_argument(format!("run {run_id} is not a reserved run"))),
                None => {
                    return Err(Error::not_found(format!("no reserved run {run_id} (never reserved, or already run)")))
                }
            }
        };
        let run = ReservedRun { state: &self.state, id: run_id };
        let result = if cancelled_before { Err(cancelled_error()) } else { body(self, &run) };
        if run.leave() {
            Err(cancelled_error())
        } else {
            result
        }
    }

    /// A reserved run's body: the blocking run, with the reservation's token.
    pub(crate) fn run_reserved_body(&self, event: HookEvent, input: &Value, run: &ReservedRun<'_>) -> Result<String> {
        check_blocking_allowed()?;
        self.check_usable()?;
        let setup = self.setup();
        validate(&setup, &RunEvent::Known(event), input)?;
        let event = RunEvent::Known(event);
        let outcome = self.execute(&setup, &event, input, RunToken::Reserved(run))?;
        outcome_json(&setup, &event, outcome)
    }

    /// Cancel an asynchronous run (its processes are killed and its `done`
    /// receives `Cancelled`) or a reserved run (before or while it runs: it
    /// returns `Cancelled`). `NotFound` when unknown or already finished.
    pub fn cancel(&self, run_id: u64) -> Result<()> {
        self.state.fork.check()?;
        // Ids of plain blocking runs and background hooks are internal (never
        // handed to a host): a guessed one must not cancel another thread's run.
        if run_id & (SYNC_RUN_BIT | BACKGROUND_RUN_BIT) != 0 {
            return Err(Error::not_found(format!("no run {run_id} in flight")));
        }
        let mut runs = self.state.runs.lock().unwrap_or_else(|e| e.into_inner());
        match runs.get_mut(&run_id) {
            Some(slot) => {
                slot.cancel();
                Ok(())
            }
            None => Err(Error::not_found(format!("no run {run_id} in flight"))),
        }
    }

    /// Close the engine: new runs fail with `Closed`, runs in flight are
    /// cancelled, and (unless called from a hookline thread) this returns
    /// after every pending `done` has been called. Every callback hook and
    /// trace sink has been released (its `free_user_data` has run; every
    /// span of a run that ended has been delivered) when this returns,
    /// unless it is called from inside a callback or on a hookline thread:
    /// there the last run using a callback (or the last span) releases it.
    pub fn close(&self) {
        if !self.state.fork.same_process() {
            return; // the runs belong to the parent's threads
        }
        {
            let _pending = self.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            self.state.closed.store(true, Ordering::Release);
        }
        for slot in self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).values_mut() {
            slot.cancel();
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
        self.state.handlers.close();
        // The same for the trace handler, once the spans of the runs that
        // ended have been delivered.
        self.state.trace.close();
    }

    /// Register a cancellation token for a synchronous run so that `close`
    /// can kill its processes too; unregistered when the guard drops.
    pub(crate) fn track_sync_run(&self) -> Result<SyncRun<'_>> {
        let token = CancelToken::new().map_err(|e| Error::io(format!("cannot create a cancellation token: {e}")))?;
        let id = self.state.next_run_id.fetch_add(1, Ordering::Relaxed) | SYNC_RUN_BIT;
        self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).insert(id, RunSlot::with_token(token.clone()));
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
    pub(crate) fn start_background(
        &self,
        setup: &Arc<Setup>,
        event: &RunEvent,
        input: &Map<String, serde_json::Value>,
        hooks: &[&HookSpec],
        trace: Option<&Arc<RunContext>>,
    ) {
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
            self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).insert(id, RunSlot::with_token(token.clone()));
        }
        let engine = self.clone();
        let setup = setup.clone();
        let event = event.clone();
        let input = input.clone();
        let hooks: Vec<HookSpec> = hooks.iter().map(|h| (*h).clone()).collect();
        let trace = trace.cloned();
        let spawned = runtime::spawn_run(move || {
            let produced = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                engine.run_background(&setup, &event, &input, &hooks, &token, trace.as_ref())
            }))
            .ok()
            .flatten();
            // As for an asynchronous run, leaving the run table under its
            // lock decides cancel-versus-completion: a run cancelled (by
            // `close`) before it left delivers nothing.
            let cancelled = {
                let mut runs = engine.state.runs.lock().unwrap_or_else(|e| e.into_inner());
                runs.remove(&id).is_none_or(|slot| slot.cancelled) || token.is_cancelled()
            };
            if let (false, Some((messages, context))) = (cancelled, produced) {
                engine.push_delivery(messages, context);
            }
            let mut pending = engine.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            *pending -= 1;
            engine.state.pending_cv.notify_all();
        });
        if let Err(e) = spawned {
            crate::hl_warn!("async hooks not started: {}", e.message);
            self.state.runs.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
            let mut pending = self.state.pending.lock().unwrap_or_else(|e| e.into_inner());
            *pending -= 1;
            self.state.pending_cv.notify_all();
        }
    }

    /// One of the `max` slots of `dialect`'s async hooks, waiting until
    /// one is free; `None` when `token` is cancelled meanwhile.
    fn async_slot(&self, dialect: &'static str, max: usize, token: &CancelToken) -> Option<AsyncSlot<'_>> {
        let state = &self.state;
        let mut running = state.async_running.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if token.is_cancelled() {
                return None;
            }
            let count = match running.iter_mut().find(|(d, _)| *d == dialect) {
                Some((_, n)) => n,
                None => {
                    running.push((dialect, 0));
                    &mut running.last_mut().expect("just pushed").1
                }
            };
            if *count < max.max(1) {
                *count += 1;
                return Some(AsyncSlot { engine: self, dialect });
            }
            running = state
                .async_cv
                .wait_timeout(running, std::time::Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn run_background(
        &self,
        setup: &Setup,
        event: &RunEvent,
        input: &Map<String, serde_json::Value>,
        hooks: &[HookSpec],
        token: &CancelToken,
        trace: Option<&Arc<RunContext>>,
    ) -> Option<(Vec<HookMessage>, Vec<String>)> {
        let transcript = self.transcript_path_arc();
        let facts = setup.facts(transcript.as_deref());
        let plan = Plan::background(setup, hooks);
        let handlers = self.host_handlers();
        let ctx = RunCtx {
            stack: Stack {
                event,
                facts: &facts,
                approval: self.approval(),
                commands: &setup.commands,
                cwd: &setup.workspace,
                max_output_bytes: setup.max_output_bytes,
                token: Some(token),
                // Background hooks are not waited for: no shared budget.
                budget: None,
                handlers: &handlers,
                http: &setup.http,
                http_client: &self.state.http_client,
                env_settings: &setup.env,
                trace,
            },
            plan: &plan,
            setup,
            facts: &facts,
            input,
            envs: Environments::new(setup, event, &facts, input, &plan),
            env_files: None,
        };
        let payloads = match plan.hooks.iter().map(|h| ctx.payload(*h, None)).collect::<Result<Vec<_>>>() {
            Ok(p) => p,
            Err(e) => {
                crate::hl_warn!("async hooks of {} not run: {}", event.name(), e.message);
                return None;
            }
        };
        let results: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = plan
                .hooks
                .iter()
                .zip(&payloads)
                .map(|(hook, payload)| {
                    scope.spawn(|| {
                        // Where the dialect bounds the async hooks running
                        // at once, wait for a slot (none once cancelled).
                        let limit = hook.dialect().unwrap_or(plan.dialect);
                        let _slot = match limit.max_async_hooks() {
                            Some(max) => Some(self.async_slot(limit.name(), max, token)?),
                            None => None,
                        };
                        Some(ctx.run_one(usize::MAX, *hook, payload))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().ok().flatten()).collect()
        });
        if token.is_cancelled() {
            results.into_iter().flatten().flatten().for_each(|mut done| done.abandon());
            return None;
        }
        let mut interp =
            EventInterpreter::for_dialect(event, plan.dialect, setup.config.quiet_success_output()).in_background();
        let mut reminders = Vec::new();
        for (hook, done) in hooks.iter().zip(results) {
            let Some(Ok(mut done)) = done else { continue };
            done.absorb_into(&mut interp);
            if let Some(text) = background::rewake_reminder(hook, &done) {
                reminders.push(HookMessage { level: HookMessageLevel::SystemReminder, text });
            }
        }
        let (mut messages, context) = interp.into_delivery();
        messages.extend(reminders);
        Some((messages, context))
    }
}

/// A running `async` hook's slot ([`LifecycleHookEngine::async_slot`]),
/// given back when dropped.
struct AsyncSlot<'a> {
    engine: &'a LifecycleHookEngine,
    dialect: &'static str,
}

impl Drop for AsyncSlot<'_> {
    fn drop(&mut self) {
        let state = &self.engine.state;
        let mut running = state.async_running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, n)) = running.iter_mut().find(|(d, _)| *d == self.dialect) {
            *n = n.saturating_sub(1);
        }
        state.async_cv.notify_all();
    }
}
