//! The lifecycle hook engine: the handle, its shared state, and the
//! operations on it that are not runs (construction, reload, the approval
//! gate's accessors, the transcript path, callback hooks).
//!
//! The engine is split along its seams, one job per file:
//!
//! | file | job |
//! |---|---|
//! | `options.rs` | `options_json` → [`EngineOptions`] → the `Setup` runs read |
//! | `plan.rs` | which hooks run for an event input (matching, once per run) |
//! | `execute.rs` | running a plan, the record and report of each hook, blocking runs |
//! | `runs.rs` | asynchronous runs, cancellation, closing |
//! | `api.rs` | the typed asynchronous Rust API (`run_pre_tool_use`, …) |
//!
//! The rules it delegates live in one place each: everything a dialect
//! decides (config files, matchers, payloads, reading replies) in
//! [`crate::dialect`], the canonical merge in [`crate::merge`], what every
//! hook type shares (gate, timeout, cancel, report, fail closed) in
//! [`crate::handler`], the digest and approvals in [`crate::gate`], process
//! handling in [`crate::runner`].
//!
//! Handles are per process: an engine created before `fork()` refuses every
//! call in the child with `Forked` ([`check_forked`](LifecycleHookEngine::check_forked)).

mod absorb;
mod api;
mod context;
pub(crate) mod envfile;
mod execute;
mod input;
mod options;
mod plan;
mod runs;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};

use crate::callback::{CallbackSlot, HostCallback, Rejected, SharedCallback, Snapshot};
use crate::config::matcher::Matcher;
use crate::config::HooksConfig;
use crate::error::{Error, Result, Status};
use crate::gate::{Approval, LifecycleHookCommandPreview, PinChange};
use crate::handler::host::HandlerType;
use crate::handler::{CallbackHook, HostHandler};
use crate::merge::follow_up::FollowUpCounts;
use crate::model::event::HookEvent;
use crate::model::input::SessionStartTrigger;
use crate::runtime::ForkGuard;
use crate::trace::{SpanSink, TraceSlot};

use options::Setup;
pub use options::{
    EngineOptions, HookSourceOption, HooksSource, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_STOP_HOOK_BLOCK_CAP,
};
pub use plan::{PlannedEntry, Verdict};

/// Everything the clones of one engine share.
struct EngineState {
    fork: ForkGuard,
    /// The configuration; swapped whole on reload, so runs in flight keep
    /// the snapshot they started with.
    setup: RwLock<Arc<Setup>>,
    /// The approval gate's state (which digest is approved).
    approval: Approval,
    transcript_path: RwLock<Option<Arc<str>>>,
    callbacks: CallbackSlot<Arc<CallbackHook>>,
    /// The handlers the host set for prompt, agent and mcp_tool hooks.
    handlers: CallbackSlot<Arc<HostHandler>>,
    /// The HTTP client of http hooks (its keep-alive pool), made on first use.
    http_client: crate::handler::http::Client,
    /// Every run that can be cancelled, by id. Its lock is the
    /// linearization point of cancel versus completion (see `run_async`).
    runs: Mutex<HashMap<u64, runs::RunSlot>>,
    /// Asynchronous runs whose `done` has not returned yet.
    pending: Mutex<usize>,
    pending_cv: Condvar,
    closed: AtomicBool,
    next_run_id: AtomicU64,
    /// `async` hooks running now, per dialect name (where the dialect
    /// bounds how many run at once).
    async_running: Mutex<Vec<(&'static str, usize)>>,
    async_cv: Condvar,
    /// What `async` hooks produced, for the next outcome.
    deliveries: Mutex<runs::Deliveries>,
    /// Consecutive stops Stop hooks kept from ending (the block cap).
    stop_blocks: crate::merge::StopBlocks,
    has_deliveries: AtomicBool,
    /// The follow-ups each hook triggered in each session, where the rules
    /// bound them by a loop limit (Cursor's stop hooks).
    follow_ups: Arc<FollowUpCounts>,
    /// Per dialect, the variables the last SessionStart's hooks returned in
    /// `env`, for the session's later hooks (where the rules say so).
    session_env: RwLock<SessionEnv>,
    /// The trace handler (`hl_engine_set_trace_handler`).
    trace: TraceSlot,
}

/// Per dialect name, the session's variables from SessionStart output.
type SessionEnv = Vec<(&'static str, Vec<(String, String)>)>;

/// The lifecycle hook engine. `Clone` is cheap (shared state).
#[derive(Clone)]
pub struct LifecycleHookEngine {
    state: Arc<EngineState>,
}

impl std::fmt::Debug for LifecycleHookEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let setup = self.setup();
        f.debug_struct("LifecycleHookEngine")
            .field("workspace", &setup.workspace)
            .field("session_id", &setup.session_id)
            .field("digest", &setup.commands.digest)
            .finish()
    }
}

impl LifecycleHookEngine {
    /// An engine for a parsed configuration: `None` when nothing is
    /// configured.
    pub fn new_with_session_gated(
        workspace: &Path,
        config: &HooksConfig,
        trigger: SessionStartTrigger,
        session_id: &str,
        workspace_gated: bool,
    ) -> Result<Option<Self>> {
        if config.is_empty() {
            return Ok(None);
        }
        let mut options = EngineOptions::new(workspace, session_id);
        options.trigger = trigger;
        options.workspace_gated = workspace_gated;
        let setup = Setup::build(&options, Some(config.clone()))?;
        Ok(Some(Self::from_setup(setup, None)))
    }

    /// Build an engine from options (always an engine, even with no hooks:
    /// callback hooks may be added later).
    pub fn with_options(options: &EngineOptions) -> Result<Self> {
        let setup = Setup::build(options, None)?;
        Ok(Self::from_setup(setup, options.transcript_path.clone()))
    }

    /// Build an engine from `options_json` text (the C ABI's input).
    pub fn from_options_json(options_json: &str) -> Result<Self> {
        let v = Error::parse_json(options_json, "options_json")?;
        Self::with_options(&EngineOptions::from_json(&v)?)
    }

    fn from_setup(setup: Setup, transcript_path: Option<String>) -> Self {
        let approval = Approval::new(&setup.commands);
        LifecycleHookEngine {
            state: Arc::new(EngineState {
                fork: ForkGuard::new(),
                setup: RwLock::new(Arc::new(setup)),
                approval,
                transcript_path: RwLock::new(transcript_path.map(Arc::from)),
                callbacks: CallbackSlot::new(),
                handlers: CallbackSlot::new(),
                http_client: Default::default(),
                runs: Mutex::new(HashMap::new()),
                pending: Mutex::new(0),
                pending_cv: Condvar::new(),
                closed: AtomicBool::new(false),
                next_run_id: AtomicU64::new(1),
                async_running: Mutex::new(Vec::new()),
                async_cv: Condvar::new(),
                deliveries: Mutex::new(runs::Deliveries::default()),
                stop_blocks: Default::default(),
                has_deliveries: AtomicBool::new(false),
                follow_ups: FollowUpCounts::new(),
                session_env: RwLock::new(Vec::new()),
                trace: TraceSlot::default(),
            }),
        }
    }

    fn setup(&self) -> Arc<Setup> {
        self.state.setup.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn callbacks(&self) -> Snapshot<'_, Arc<CallbackHook>> {
        self.state.callbacks.snapshot()
    }

    fn host_handlers(&self) -> Snapshot<'_, Arc<HostHandler>> {
        self.state.handlers.snapshot()
    }

    fn approval(&self) -> &Approval {
        &self.state.approval
    }

    /// The variables SessionStart hooks returned for the session's later
    /// hooks, per dialect (a copy: the lock is not held while hooks run).
    fn session_env(&self) -> SessionEnv {
        self.state.session_env.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn transcript_path_arc(&self) -> Option<Arc<str>> {
        self.state.transcript_path.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The fork rule: `Err(Forked)` when used in a process forked after the
    /// engine was created (its runtime threads do not exist there). Every
    /// fallible operation checks it; the C ABI checks it for every call on
    /// a handle.
    pub fn check_forked(&self) -> Result<()> {
        self.state.fork.check()
    }

    /// The fork rule, then `Err(Closed)` once the engine is closed.
    fn check_usable(&self) -> Result<()> {
        self.state.fork.check()?;
        if self.state.closed.load(Ordering::Acquire) {
            return Err(Error::new(Status::Closed, "the engine is closed"));
        }
        Ok(())
    }

    // ----- the approval gate --------------------------------------------------

    /// Lowercase hex SHA-256 of the configured command set.
    pub fn command_digest(&self) -> String {
        self.setup().commands.digest.clone()
    }

    /// The commands an approval covers, in digest order, each with the
    /// files it executes as they are now (`pins`) and its environment
    /// policy.
    pub fn command_previews(&self) -> Vec<LifecycleHookCommandPreview> {
        self.setup().commands.previews_now()
    }

    /// The pinned files that differ from the approval now (changed,
    /// swapped, deleted, new); every watched file when the digest is not
    /// approved. Empty on an ungated engine.
    pub fn pin_changes(&self) -> Vec<PinChange> {
        let setup = self.setup();
        self.approval().changes(&setup.commands)
    }

    /// The pinned files that differ from what `approved` says (an approval
    /// read from the trust store: [`crate::trust::TrustStore::approval`]),
    /// whatever the engine's own approval. Empty on an ungated engine.
    pub fn pin_changes_against(&self, approved: &crate::gate::pins::ApprovedFiles) -> Vec<PinChange> {
        self.setup().commands.pins.changes(approved)
    }

    /// The entries of the configuration that were skipped (a Claude Code
    /// settings file's malformed entries), in the order they were read.
    pub fn config_warnings(&self) -> Vec<crate::config::ConfigWarning> {
        self.setup().config.warnings().to_vec()
    }

    /// Whether this engine gates workspace hooks behind approval.
    pub fn workspace_gated(&self) -> bool {
        self.setup().commands.gated
    }

    /// True when gated, with commands, and the current digest is not
    /// approved or a file a command executes changed since the approval.
    pub fn workspace_hooks_need_approval(&self) -> bool {
        self.approval().needs_approval(&self.setup().commands)
    }

    /// Approve the current digest and the files the commands execute as they
    /// are now; with `persist`, also record both in the trust store (a
    /// failure to persist approves nothing).
    pub fn approve_workspace_hooks(&self, persist: bool) -> Result<()> {
        self.check_forked()?;
        self.approval().approve(&self.setup().commands, persist)
    }

    /// Swap the configuration. The approval carries over only when the
    /// digest is unchanged; otherwise the trust store is consulted as at
    /// construction. A failed reload changes nothing; runs in flight finish
    /// with the configuration they started with.
    pub fn reload(&self, options: &EngineOptions) -> Result<()> {
        self.check_usable()?;
        let new = Setup::build(options, None)?;
        {
            let mut setup_slot = self.state.setup.write().unwrap_or_else(|e| e.into_inner());
            self.approval().reload(&setup_slot.commands, &new.commands);
            *setup_slot = Arc::new(new);
        }
        if options.transcript_path.is_some() {
            self.update_transcript_path(options.transcript_path.clone());
        }
        Ok(())
    }

    /// `reload` from `options_json` text.
    pub fn reload_json(&self, options_json: &str) -> Result<()> {
        let v = Error::parse_json(options_json, "options_json")?;
        self.reload(&EngineOptions::from_json(&v)?)
    }

    // ----- transcript path ----------------------------------------------------

    /// Set (or clear) the session transcript path given to hooks.
    pub fn update_transcript_path(&self, path: Option<impl Into<String>>) {
        let p = path.map(|p| Arc::<str>::from(p.into()));
        *self.state.transcript_path.write().unwrap_or_else(|e| e.into_inner()) = p;
    }

    /// The session transcript path, if set.
    pub fn transcript_path(&self) -> Option<String> {
        self.transcript_path_arc().as_deref().map(str::to_string)
    }

    // ----- host handlers (prompt, agent, mcp_tool) -----------------------------

    /// Set (or, with `None`, remove) the host's handler for `kind`'s hooks.
    /// The handler it replaces is released once no run uses it any more
    /// (never during a call); a run in flight keeps the handler it started
    /// with.
    pub fn set_handler(&self, kind: HandlerType, callback: Option<SharedCallback>) -> Result<()> {
        self.check_usable()?;
        self.replace_handler(kind, callback);
        Ok(())
    }

    /// [`set_handler`](Self::set_handler) handing the callback back on
    /// failure (a forked or closed engine), so that the caller keeps what it owns.
    pub fn try_set_handler<C: HostCallback + 'static>(
        &self,
        kind: HandlerType,
        callback: C,
    ) -> std::result::Result<(), Rejected<C>> {
        match self.check_usable() {
            Ok(()) => {
                self.replace_handler(kind, Some(Arc::new(callback)));
                Ok(())
            }
            Err(error) => Err(Rejected { error, callback }),
        }
    }

    fn replace_handler(&self, kind: HandlerType, callback: Option<SharedCallback>) {
        // The replaced handler is released outside the lock, or later by
        // the last run still holding it.
        let _replaced = self.state.handlers.update(|list| {
            let mut list: Vec<Arc<HostHandler>> = list.to_vec();
            let old = list.iter().position(|h| h.kind == kind).map(|i| list.remove(i));
            if let Some(callback) = callback {
                list.push(Arc::new(HostHandler { kind, callback }));
            }
            (list, old)
        });
    }

    // ----- tracing ----------------------------------------------------------------

    /// Send a span of every run (that runs a hook) and of every hook to
    /// `sink`, replacing the sink set before (`docs/c-api.md` §12). Spans
    /// are delivered on a hookline thread, one at a time, after each ends;
    /// runs already started keep the sink they started with, and a sink
    /// replaced is dropped once its last span has been delivered. On
    /// failure (a forked or closed engine, no delivery thread) the sink is
    /// handed back untouched.
    pub fn set_trace_sink<S: SpanSink + 'static>(&self, sink: S) -> std::result::Result<(), Rejected<S>> {
        if let Err(error) = self.check_usable() {
            return Err(Rejected { error, callback: sink });
        }
        self.state.trace.set(sink)
    }

    /// Remove the trace sink: runs started from now on are not traced (runs
    /// in flight still deliver to it; it is dropped after their last span).
    pub fn remove_trace_sink(&self) -> Result<()> {
        self.check_forked()?;
        self.state.trace.remove();
        Ok(())
    }

    // ----- callback hooks -------------------------------------------------------

    /// Add a callback hook for `event` (Claude matcher rule; `None`, `""`,
    /// `"*"` match all). An existing (event, name) is replaced in place.
    /// On failure the callback is dropped; see
    /// [`try_add_callback_hook`](Self::try_add_callback_hook) to get it back.
    pub fn add_callback_hook(
        &self,
        event: HookEvent,
        matcher: Option<&str>,
        name: &str,
        callback: SharedCallback,
    ) -> Result<()> {
        let (matcher, name) = self.check_callback_hook(matcher, name)?;
        self.insert_callback_hook(CallbackHook { event, name, matcher, callback });
        Ok(())
    }

    /// [`add_callback_hook`](Self::add_callback_hook) handing the callback
    /// back on failure (a blank name, an invalid matcher, a forked or closed
    /// engine), so that the caller keeps what it owns.
    pub fn try_add_callback_hook<C: HostCallback + 'static>(
        &self,
        event: HookEvent,
        matcher: Option<&str>,
        name: &str,
        callback: C,
    ) -> std::result::Result<(), Rejected<C>> {
        match self.check_callback_hook(matcher, name) {
            Ok((matcher, name)) => {
                self.insert_callback_hook(CallbackHook { event, name, matcher, callback: Arc::new(callback) });
                Ok(())
            }
            Err(error) => Err(Rejected { error, callback }),
        }
    }

    fn check_callback_hook(&self, matcher: Option<&str>, name: &str) -> Result<(Matcher, String)> {
        self.check_usable()?;
        Self::validate_callback_hook(matcher, name)
    }

    /// Validate a callback hook's matcher and name without adding it.
    pub fn validate_callback_hook(matcher: Option<&str>, name: &str) -> Result<(Matcher, String)> {
        if name.trim().is_empty() {
            return Err(Error::invalid_argument("name must be non-empty and not only whitespace"));
        }
        let m = Matcher::claude(matcher)
            .map_err(|e| Error::invalid_argument(format!("invalid matcher {:?}: {e}", matcher.unwrap_or(""))))?;
        Ok((m, name.to_string()))
    }

    fn insert_callback_hook(&self, hook: CallbackHook) {
        let hook = Arc::new(hook);
        // The replaced callback (and its finalizer) is released outside the
        // lock, or later by the last run still holding it.
        let replaced = self.state.callbacks.update(|list| {
            let mut list = list.to_vec();
            let old = match list.iter().position(|h| h.event == hook.event && h.name == hook.name) {
                Some(i) => Some(std::mem::replace(&mut list[i], hook.clone())),
                None => {
                    list.push(hook.clone());
                    None
                }
            };
            (list, old)
        });
        if replaced.is_some() {
            crate::hl_warn!("callback hook '{}' for {} replaced", hook.name, hook.event);
        }
    }
}
