//! The lifecycle hook engine (VT Code `LifecycleHookEngine` parity, SPEC §5).
//!
//! This module owns *orchestration*: options, which hooks match an event,
//! the order they run in (sequential with early stop for decision events,
//! concurrent otherwise), the workspace gate check before every spawn,
//! callback hooks, asynchronous runs, cancellation and shutdown. The rules
//! it delegates live in one place each: payloads and environment in
//! [`crate::payload`], matchers in [`crate::matcher`], config parsing in
//! [`crate::config`], the digest in [`crate::gate`], the trust store in
//! [`crate::trust`], process handling in [`crate::runner`], and the reading
//! of hook results in [`crate::interpret`].
//!
//! Threading: a synchronous run ([`LifecycleHookEngine::run_blocking`])
//! executes on the calling thread, and so do its callback hooks. An
//! asynchronous run ([`LifecycleHookEngine::run_async`]) executes on the
//! runtime's blocking pool (hookline threads, never async workers), where
//! its callback hooks run and its `done` is called. No lock is held while a
//! host callback runs: callback lists and configuration are `Arc` snapshots.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::Instant;

use serde_json::{Map, Value};

use crate::callback::{invoke, SharedCallback};
use crate::config::{CommandHook, Dialect, HooksConfig};
use crate::error::{Error, Result, Status};
use crate::event::HookEvent;
use crate::gate::{self, LifecycleHookCommandPreview};
use crate::interpret::{
    CommonOutcome, EventInterpreter, HookExecution, HookOutcome, HookReport,
    PermissionRequestHookOutcome, PostToolHookOutcome, PreToolHookOutcome, SessionStartHookOutcome,
    StopHookOutcome, UserPromptHookOutcome,
};
use crate::matcher::{self, Matcher};
use crate::payload::{
    self, CompactionMode, CompactionTrigger, EnvSettings, SessionEndReason, SessionFacts, SessionStartTrigger,
};
use crate::runner::{self, CancelToken, CommandSpec};
use crate::runtime::{self, ForkGuard};
use crate::trust::TrustStore;

/// Default per-stream output cap (1 MiB).
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 1024 * 1024;

/// Where the hooks configuration comes from (at most one source).
#[derive(Debug, Clone, Default)]
pub enum HooksSource {
    /// No configured hooks: runs are cheap no-ops (callback hooks still run).
    #[default]
    None,
    /// A JSON config of either dialect.
    Json(Value),
    /// vtcode.toml text.
    Toml(String),
    /// A `.toml` or `.json` file.
    File(PathBuf),
}

/// Engine options (SPEC §5.1), the Rust form of `options_json`.
#[derive(Debug, Clone)]
pub struct EngineOptions {
    pub workspace: PathBuf,
    pub session_id: String,
    pub trigger: SessionStartTrigger,
    pub workspace_gated: bool,
    pub hooks: HooksSource,
    pub transcript_path: Option<String>,
    pub trust_store: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub env_remove: Vec<String>,
    pub max_output_bytes: usize,
}

impl EngineOptions {
    /// Options for a workspace and session with everything else defaulted.
    pub fn new(workspace: impl Into<PathBuf>, session_id: impl Into<String>) -> Self {
        EngineOptions {
            workspace: workspace.into(),
            session_id: session_id.into(),
            trigger: SessionStartTrigger::Startup,
            workspace_gated: false,
            hooks: HooksSource::None,
            transcript_path: None,
            trust_store: None,
            env: Vec::new(),
            env_remove: Vec::new(),
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
        }
    }

    /// Parse `options_json` (already parsed to a value). A missing or
    /// mistyped field is `InvalidArgument` naming it; so is an unknown key.
    pub fn from_json(v: &Value) -> Result<Self> {
        let obj = v.as_object().ok_or_else(|| Error::invalid_argument("options must be a JSON object"))?;
        crate::options_check::check_options(obj)?;
        let bad = |field: &str, what: &str| Error::invalid_argument(format!("option `{field}` must be {what}"));
        let opt = |k: &str| obj.get(k).filter(|v| !v.is_null());
        let workspace = match obj.get("workspace") {
            Some(Value::String(s)) if !s.is_empty() => PathBuf::from(s),
            None | Some(Value::Null) => return Err(Error::invalid_argument("option `workspace` is required")),
            _ => return Err(bad("workspace", "a non-empty string (a directory path)")),
        };
        let session_id = match obj.get("session_id") {
            Some(Value::String(s)) => s.clone(),
            None | Some(Value::Null) => return Err(Error::invalid_argument("option `session_id` is required")),
            _ => return Err(bad("session_id", "a string")),
        };
        let mut o = EngineOptions::new(workspace, session_id);
        if let Some(t) = opt("trigger") {
            let s = t.as_str().ok_or_else(|| bad("trigger", "a string"))?;
            o.trigger = SessionStartTrigger::parse(s)
                .ok_or_else(|| bad("trigger", "one of startup, resume, new_session, compact"))?;
        }
        if let Some(g) = opt("workspace_gated") {
            o.workspace_gated = g.as_bool().ok_or_else(|| bad("workspace_gated", "a boolean"))?;
        }
        let sources: Vec<&str> =
            ["hooks", "hooks_toml", "hooks_file"].into_iter().filter(|k| opt(k).is_some()).collect();
        if sources.len() > 1 {
            return Err(Error::invalid_argument(format!(
                "at most one hooks source may be given, got {}",
                sources.join(" and ")
            )));
        }
        if let Some(h) = opt("hooks") {
            if !h.is_object() {
                return Err(bad("hooks", "a JSON object"));
            }
            o.hooks = HooksSource::Json(h.clone());
        } else if let Some(h) = opt("hooks_toml") {
            o.hooks = HooksSource::Toml(h.as_str().ok_or_else(|| bad("hooks_toml", "a string"))?.to_string());
        } else if let Some(h) = opt("hooks_file") {
            o.hooks = HooksSource::File(PathBuf::from(h.as_str().ok_or_else(|| bad("hooks_file", "a string"))?));
        }
        if let Some(t) = opt("transcript_path") {
            o.transcript_path = Some(t.as_str().ok_or_else(|| bad("transcript_path", "a string or null"))?.to_string());
        }
        if let Some(t) = opt("trust_store") {
            o.trust_store = Some(PathBuf::from(t.as_str().ok_or_else(|| bad("trust_store", "a string or null"))?));
        }
        if let Some(e) = opt("env") {
            let m = e.as_object().ok_or_else(|| bad("env", "an object of strings"))?;
            for (k, v) in m {
                let v = v.as_str().ok_or_else(|| bad(&format!("env.{k}"), "a string"))?;
                o.env.push((k.clone(), v.to_string()));
            }
        }
        if let Some(e) = opt("env_remove") {
            let a = e.as_array().ok_or_else(|| bad("env_remove", "an array of strings"))?;
            for (i, v) in a.iter().enumerate() {
                o.env_remove.push(v.as_str().ok_or_else(|| bad(&format!("env_remove[{i}]"), "a string"))?.to_string());
            }
        }
        if let Some(m) = opt("max_output_bytes") {
            let n = m.as_u64().filter(|n| *n > 0).ok_or_else(|| bad("max_output_bytes", "a positive integer"))?;
            o.max_output_bytes = usize::try_from(n).unwrap_or(usize::MAX);
        }
        Ok(o)
    }
}

fn no_nul(what: &str, s: &str) -> Result<()> {
    if s.contains('\0') {
        Err(Error::invalid_argument(format!("{what} must not contain NUL characters")))
    } else {
        Ok(())
    }
}

/// Everything a run needs from the configuration; swapped whole on reload,
/// so runs in flight keep the snapshot they started with.
struct Setup {
    workspace: PathBuf,
    workspace_str: String,
    session_id: String,
    trigger: SessionStartTrigger,
    gated: bool,
    config: HooksConfig,
    digest: String,
    previews: Vec<LifecycleHookCommandPreview>,
    env: EnvSettings,
    max_output_bytes: usize,
    trust_store: Option<TrustStore>,
}

impl Setup {
    fn build(options: &EngineOptions, config: Option<HooksConfig>) -> Result<Setup> {
        let meta = std::fs::metadata(&options.workspace).map_err(|e| {
            Error::invalid_argument(format!("option `workspace` ({}) is not an existing directory: {e}", options.workspace.display()))
        })?;
        if !meta.is_dir() {
            return Err(Error::invalid_argument(format!(
                "option `workspace` ({}) is not a directory",
                options.workspace.display()
            )));
        }
        let workspace = std::fs::canonicalize(&options.workspace)
            .map_err(|e| Error::invalid_argument(format!("option `workspace` cannot be resolved: {e}")))?;
        let workspace_str = workspace
            .to_str()
            .ok_or_else(|| Error::invalid_argument("option `workspace` must be a UTF-8 path"))?
            .to_string();
        no_nul("option `session_id`", &options.session_id)?;
        for (k, v) in &options.env {
            if k.is_empty() || k.contains('=') || k.contains('\0') || v.contains('\0') {
                return Err(Error::invalid_argument(format!(
                    "option `env.{k}`: names must be non-empty without '=' or NUL, values without NUL"
                )));
            }
        }
        if let Some(t) = &options.transcript_path {
            no_nul("option `transcript_path`", t)?;
        }
        let config = match config {
            Some(c) => c,
            None => match &options.hooks {
                HooksSource::None => HooksConfig::empty(),
                HooksSource::Json(v) => HooksConfig::from_json_value(v)?,
                HooksSource::Toml(t) => HooksConfig::from_toml_str(t)?,
                HooksSource::File(p) => HooksConfig::from_file(p)?,
            },
        };
        let previews = gate::command_previews(&config);
        let digest = gate::digest_of_previews(&previews);
        Ok(Setup {
            workspace,
            workspace_str,
            session_id: options.session_id.clone(),
            trigger: options.trigger,
            gated: options.workspace_gated,
            config,
            digest,
            previews,
            env: EnvSettings { set: options.env.clone(), remove: options.env_remove.clone() },
            max_output_bytes: options.max_output_bytes,
            trust_store: TrustStore::resolve(options.trust_store.as_deref()),
        })
    }

    /// Whether the trust store already approves this workspace's digest.
    fn trusted(&self) -> bool {
        self.gated
            && self.config.command_count() > 0
            && self.trust_store.as_ref().is_some_and(|t| t.is_approved(&self.workspace, &self.digest))
    }
}

/// A callback hook added by the host (SPEC §5.1 "Callback hooks").
struct CallbackHook {
    event: HookEvent,
    name: String,
    matcher: Matcher,
    callback: SharedCallback,
}

struct Shared {
    fork: ForkGuard,
    setup: RwLock<Arc<Setup>>,
    approved_digest: Mutex<Option<String>>,
    transcript_path: RwLock<Option<Arc<str>>>,
    callbacks: RwLock<Arc<Vec<Arc<CallbackHook>>>>,
    runs: Mutex<HashMap<u64, CancelToken>>,
    pending: Mutex<usize>,
    pending_cv: Condvar,
    closed: AtomicBool,
    next_run_id: AtomicU64,
}

/// The lifecycle hook engine. `Clone` is cheap (shared state).
#[derive(Clone)]
pub struct LifecycleHookEngine {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for LifecycleHookEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let setup = self.setup();
        f.debug_struct("LifecycleHookEngine")
            .field("workspace", &setup.workspace)
            .field("session_id", &setup.session_id)
            .field("digest", &setup.digest)
            .finish()
    }
}

/// A hook selected to run for one event.
enum Planned<'a> {
    Command(&'a CommandHook),
    Callback(&'a CallbackHook),
}

/// The result of executing one planned hook.
struct Executed {
    report: HookReport,
    exec: Option<HookExecution>,
    skipped_label: Option<String>,
    spawn_error: Option<(String, String)>,
}

impl LifecycleHookEngine {
    /// The seed constructor: `None` when nothing is configured.
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
        let approved = if setup.trusted() { Some(setup.digest.clone()) } else { None };
        LifecycleHookEngine {
            shared: Arc::new(Shared {
                fork: ForkGuard::new(),
                setup: RwLock::new(Arc::new(setup)),
                approved_digest: Mutex::new(approved),
                transcript_path: RwLock::new(transcript_path.map(Arc::from)),
                callbacks: RwLock::new(Arc::new(Vec::new())),
                runs: Mutex::new(HashMap::new()),
                pending: Mutex::new(0),
                pending_cv: Condvar::new(),
                closed: AtomicBool::new(false),
                next_run_id: AtomicU64::new(1),
            }),
        }
    }

    fn setup(&self) -> Arc<Setup> {
        self.shared.setup.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// `Err(Forked)` when used in a process forked after the engine was created.
    pub fn check_forked(&self) -> Result<()> {
        self.shared.fork.check()
    }

    fn check_usable(&self) -> Result<()> {
        self.shared.fork.check()?;
        if self.shared.closed.load(Ordering::Acquire) {
            return Err(Error::new(Status::Closed, "the engine is closed"));
        }
        Ok(())
    }

    // ----- gate -------------------------------------------------------------

    /// Lowercase hex SHA-256 of the configured command set (SPEC §5.6).
    pub fn command_digest(&self) -> String {
        self.setup().digest.clone()
    }

    /// The commands an approval covers, in digest order.
    pub fn command_previews(&self) -> Vec<LifecycleHookCommandPreview> {
        self.setup().previews.clone()
    }

    /// Whether this engine gates workspace hooks behind approval.
    pub fn workspace_gated(&self) -> bool {
        self.setup().gated
    }

    /// True when gated, with commands, and the current digest is not approved.
    pub fn workspace_hooks_need_approval(&self) -> bool {
        let setup = self.setup();
        setup.gated && setup.config.command_count() > 0 && !self.digest_approved(&setup)
    }

    fn digest_approved(&self, setup: &Setup) -> bool {
        if !setup.gated {
            return true;
        }
        self.shared.approved_digest.lock().unwrap_or_else(|e| e.into_inner()).as_deref() == Some(setup.digest.as_str())
    }

    /// Approve the current digest; with `persist`, also record it in the
    /// trust store (a failure to persist approves nothing).
    pub fn approve_workspace_hooks(&self, persist: bool) -> Result<()> {
        self.shared.fork.check()?;
        let setup = self.setup();
        if persist {
            let store = setup.trust_store.as_ref().ok_or_else(|| {
                Error::io("no trust store path: set option `trust_store`, $HOOKLINE_TRUST_STORE, $XDG_CONFIG_HOME or $HOME")
            })?;
            store.record(&setup.workspace, &setup.digest)?;
        }
        *self.shared.approved_digest.lock().unwrap_or_else(|e| e.into_inner()) = Some(setup.digest.clone());
        Ok(())
    }

    /// Swap the configuration (SPEC §5.6 "reload"). The approval carries
    /// over only when the digest is unchanged; otherwise the trust store is
    /// consulted as at construction. A failed reload changes nothing; runs
    /// in flight finish with the configuration they started with.
    pub fn reload(&self, options: &EngineOptions) -> Result<()> {
        self.check_usable()?;
        let new = Setup::build(options, None)?;
        let mut setup_slot = self.shared.setup.write().unwrap_or_else(|e| e.into_inner());
        let mut approved = self.shared.approved_digest.lock().unwrap_or_else(|e| e.into_inner());
        let carried = setup_slot.workspace == new.workspace && approved.as_deref() == Some(new.digest.as_str());
        if !carried {
            *approved = if new.trusted() { Some(new.digest.clone()) } else { None };
        }
        *setup_slot = Arc::new(new);
        drop(approved);
        drop(setup_slot);
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
        *self.shared.transcript_path.write().unwrap_or_else(|e| e.into_inner()) = p;
    }

    /// The session transcript path, if set.
    pub fn transcript_path(&self) -> Option<String> {
        self.shared.transcript_path.read().unwrap_or_else(|e| e.into_inner()).as_deref().map(str::to_string)
    }

    // ----- callback hooks -------------------------------------------------------

    /// Add a callback hook for `event` (Claude matcher rule; `None`, `""`,
    /// `"*"` match all). An existing (event, name) is replaced in place.
    pub fn add_callback_hook(&self, event: HookEvent, matcher: Option<&str>, name: &str, callback: SharedCallback) -> Result<()> {
        let (matcher, name) = Self::validate_callback_hook(matcher, name)?;
        self.insert_callback_hook(CallbackHook { event, name, matcher, callback });
        Ok(())
    }

    /// Validate a callback hook's matcher and name without adding it (the C
    /// ABI validates before it takes ownership of `user_data`).
    pub fn validate_callback_hook(matcher: Option<&str>, name: &str) -> Result<(Matcher, String)> {
        if name.trim().is_empty() {
            return Err(Error::invalid_argument("name must be non-empty and not only whitespace"));
        }
        let m = Matcher::claude(matcher)
            .map_err(|e| Error::invalid_argument(format!("invalid matcher {:?}: {e}", matcher.unwrap_or(""))))?;
        Ok((m, name.to_string()))
    }

    fn insert_callback_hook(&self, hook: CallbackHook) {
        let old;
        {
            let mut slot = self.shared.callbacks.write().unwrap_or_else(|e| e.into_inner());
            let mut list: Vec<Arc<CallbackHook>> = slot.as_ref().clone();
            let hook = Arc::new(hook);
            old = match list.iter().position(|h| h.event == hook.event && h.name == hook.name) {
                Some(i) => {
                    crate::hl_warn!("callback hook '{}' for {} replaced", hook.name, hook.event);
                    Some(std::mem::replace(&mut list[i], hook))
                }
                None => {
                    list.push(hook);
                    None
                }
            };
            *slot = Arc::new(list);
        }
        // The replaced callback (and its user_data finalizer) is released
        // outside the lock, or later by the last run still holding it.
        drop(old);
    }

    // ----- running ----------------------------------------------------------------

    /// Run one event synchronously on the calling thread (callback hooks run
    /// on this thread too). `input` is the event input of SPEC §5.2.
    pub fn run_blocking(&self, event: HookEvent, input: &Value) -> Result<HookOutcome> {
        self.check_usable()?;
        payload::validate_input(event, input)?;
        self.execute(event, input, None)
    }

    /// [`run_blocking`](Self::run_blocking) returning the outcome as JSON
    /// text (what `hl_engine_run` hands out). When no hook matches — the
    /// common case on the path of every tool call — the outcome is a
    /// constant per event, served without building it again.
    pub fn run_blocking_json(&self, event: HookEvent, input: &Value) -> Result<String> {
        self.check_usable()?;
        payload::validate_input(event, input)?;
        if !self.any_hook_matches(event, input) {
            return Ok(empty_outcome_json(event).to_string());
        }
        Ok(self.execute(event, input, None)?.to_json_string())
    }

    /// Whether any configured or callback hook matches this event input.
    fn any_hook_matches(&self, event: HookEvent, input: &Value) -> bool {
        let setup = self.setup();
        let subject = matcher::match_subject(event, setup.config.dialect(), input, setup.trigger.as_str());
        if setup.config.groups(event).iter().any(|g| subject.is_none_or(|s| g.matcher.matches(s))) {
            return true;
        }
        let callbacks = self.shared.callbacks.read().unwrap_or_else(|e| e.into_inner());
        if callbacks.is_empty() {
            return false;
        }
        let cb_subject = matcher::match_subject(event, Dialect::Claude, input, setup.trigger.as_str());
        callbacks.iter().any(|c| c.event == event && cb_subject.is_none_or(|s| c.matcher.matches(s)))
    }

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
        let id = self.shared.next_run_id.fetch_add(1, Ordering::Relaxed);
        {
            let mut pending = self.shared.pending.lock().unwrap_or_else(|e| e.into_inner());
            // Checked under the pending lock so close() cannot miss this run.
            if self.shared.closed.load(Ordering::Acquire) {
                return Err(Error::new(Status::Closed, "the engine is closed"));
            }
            *pending += 1;
            self.shared.runs.lock().unwrap_or_else(|e| e.into_inner()).insert(id, token.clone());
        }
        let engine = self.clone();
        rt.spawn_blocking(move || {
            let result = if token.is_cancelled() {
                Err(cancelled_error())
            } else {
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.execute(event, &input, Some(&token)))) {
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
                let mut runs = engine.shared.runs.lock().unwrap_or_else(|e| e.into_inner());
                runs.remove(&id);
                token.is_cancelled()
            };
            let result = if cancelled { Err(cancelled_error()) } else { result };
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| done(result)));
            let mut pending = engine.shared.pending.lock().unwrap_or_else(|e| e.into_inner());
            *pending -= 1;
            engine.shared.pending_cv.notify_all();
        });
        Ok(id)
    }

    /// Cancel an asynchronous run: its processes are killed and its `done`
    /// receives `Cancelled`. `NotFound` when unknown or already finished.
    pub fn cancel(&self, run_id: u64) -> Result<()> {
        self.shared.fork.check()?;
        let runs = self.shared.runs.lock().unwrap_or_else(|e| e.into_inner());
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
    /// after every pending `done` has been called.
    pub fn close(&self) {
        if !self.shared.fork.same_process() {
            return; // the runs belong to the parent's threads
        }
        {
            let _pending = self.shared.pending.lock().unwrap_or_else(|e| e.into_inner());
            self.shared.closed.store(true, Ordering::Release);
        }
        for token in self.shared.runs.lock().unwrap_or_else(|e| e.into_inner()).values() {
            token.cancel();
        }
        if !runtime::on_hookline_thread() {
            let mut pending = self.shared.pending.lock().unwrap_or_else(|e| e.into_inner());
            while *pending > 0 {
                pending = self.shared.pending_cv.wait(pending).unwrap_or_else(|e| e.into_inner());
            }
        }
        // Release the callback hooks now (their `free_user_data` runs here),
        // not whenever the last finishing run drops its engine reference;
        // a run still holding a snapshot releases its copy when it returns.
        let callbacks = std::mem::take(&mut *self.shared.callbacks.write().unwrap_or_else(|e| e.into_inner()));
        drop(callbacks);
    }

    /// Register a cancellation token for a synchronous run so that `close`
    /// can kill its processes too; unregistered when the guard drops.
    fn track_sync_run(&self) -> Result<SyncRun<'_>> {
        let token = CancelToken::new().map_err(|e| Error::io(format!("cannot create a cancellation token: {e}")))?;
        let id = self.shared.next_run_id.fetch_add(1, Ordering::Relaxed) | SYNC_RUN_BIT;
        self.shared.runs.lock().unwrap_or_else(|e| e.into_inner()).insert(id, token.clone());
        if self.shared.closed.load(Ordering::Acquire) {
            token.cancel();
        }
        Ok(SyncRun { shared: &self.shared, id, token })
    }

    /// The core of every run: select hooks, run them in order, interpret.
    fn execute(&self, event: HookEvent, input: &Value, token: Option<&CancelToken>) -> Result<HookOutcome> {
        let setup = self.setup();
        let callbacks = self.shared.callbacks.read().unwrap_or_else(|e| e.into_inner()).clone();
        let subject = matcher::match_subject(event, setup.config.dialect(), input, setup.trigger.as_str());
        let mut plan: Vec<Planned<'_>> = Vec::new();
        for group in setup.config.groups(event) {
            if subject.is_none_or(|s| group.matcher.matches(s)) {
                plan.extend(group.hooks.iter().map(Planned::Command));
            }
        }
        // Callback hooks follow the Claude matcher rule (SPEC §5.1).
        let cb_subject = matcher::match_subject(event, Dialect::Claude, input, setup.trigger.as_str());
        for cb in callbacks.iter().filter(|c| c.event == event) {
            if cb_subject.is_none_or(|s| cb.matcher.matches(s)) {
                plan.push(Planned::Callback(cb));
            }
        }
        let mut interp = EventInterpreter::new(event, setup.config.quiet_success_output());
        if plan.is_empty() {
            return Ok(interp.finish(Vec::new()));
        }
        let has_commands = plan.iter().any(|p| matches!(p, Planned::Command(_)));
        let sync_run = if token.is_none() && has_commands { Some(self.track_sync_run()?) } else { None };
        let token = token.or(sync_run.as_ref().map(|r| &r.token));
        let input_map = match input {
            Value::Object(m) => m,
            _ => return Err(Error::invalid_argument(format!("{} input must be a JSON object", event.name()))),
        };
        let reports = self.execute_plan(event, &setup, input_map, &plan, &mut interp, token)?;
        Ok(interp.finish(reports))
    }

    fn execute_plan(
        &self,
        event: HookEvent,
        setup: &Setup,
        input: &Map<String, Value>,
        plan: &[Planned<'_>],
        interp: &mut EventInterpreter,
        token: Option<&CancelToken>,
    ) -> Result<Vec<HookReport>> {
        let transcript = self.shared.transcript_path.read().unwrap_or_else(|e| e.into_inner()).clone();
        let facts = SessionFacts {
            session_id: &setup.session_id,
            cwd: &setup.workspace_str,
            transcript_path: transcript.as_deref(),
            trigger: setup.trigger,
        };
        let env = if plan.iter().any(|p| matches!(p, Planned::Command(_))) {
            payload::hook_environment(&setup.env, event, &facts)
        } else {
            Vec::new()
        };
        let ctx = RunCtx { engine: self, event, setup, env: &env, token };
        let mut reports = Vec::with_capacity(plan.len());
        if event.is_decision_event() {
            // One after another, in order; stop at the first decision.
            for hook in plan {
                ctx.check_cancelled()?;
                let payload = payload::build_payload(event, &facts, input, interp.updated_input());
                let done = ctx.run_one(hook, &payload)?;
                reports.push(done.report.clone());
                if absorb(interp, &done) {
                    break;
                }
            }
        } else {
            // Concurrently; merged in configuration order.
            let payload = payload::build_payload(event, &facts, input, None);
            let payload_text = payload::payload_bytes(&payload);
            let commands: Vec<usize> =
                plan.iter().enumerate().filter(|(_, p)| matches!(p, Planned::Command(_))).map(|(i, _)| i).collect();
            let mut results: Vec<Option<Result<Executed>>> = (0..plan.len()).map(|_| None).collect();
            std::thread::scope(|scope| {
                let mut handles = Vec::new();
                // Commands run on scoped threads, except that the first one runs
                // on this thread when no callback hook needs it meanwhile.
                let has_callbacks = plan.iter().any(|p| matches!(p, Planned::Callback(_)));
                let inline = if has_callbacks { None } else { commands.first().copied() };
                for &i in commands.iter().filter(|&&i| Some(i) != inline) {
                    let ctx = &ctx;
                    let payload_text = &payload_text;
                    let hook = &plan[i];
                    handles.push((i, scope.spawn(move || ctx.run_one_bytes(hook, payload_text))));
                }
                if let Some(first) = inline {
                    results[first] = Some(ctx.run_one_bytes(&plan[first], &payload_text));
                }
                for (i, hook) in plan.iter().enumerate() {
                    if matches!(hook, Planned::Callback(_)) {
                        results[i] = Some(ctx.run_one(hook, &payload));
                    }
                }
                for (i, h) in handles {
                    results[i] = Some(h.join().unwrap_or_else(|_| Err(Error::new(Status::Panic, "hook thread panicked"))));
                }
            });
            let mut cancelled = false;
            for r in results.into_iter().flatten() {
                match r {
                    Ok(done) => {
                        reports.push(done.report.clone());
                        absorb(interp, &done);
                    }
                    Err(e) if e.status == Status::Cancelled => cancelled = true,
                    Err(e) => return Err(e),
                }
            }
            if cancelled {
                return Err(cancelled_error());
            }
            ctx.check_cancelled()?;
        }
        Ok(reports)
    }
}

const SYNC_RUN_BIT: u64 = 1 << 63;

/// A synchronous run's registration in the run table.
struct SyncRun<'a> {
    shared: &'a Shared,
    id: u64,
    token: CancelToken,
}

impl Drop for SyncRun<'_> {
    fn drop(&mut self) {
        self.shared.runs.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.id);
    }
}

fn absorb(interp: &mut EventInterpreter, done: &Executed) -> bool {
    if let Some(label) = &done.skipped_label {
        interp.absorb_not_approved(label);
        false
    } else if let Some((label, err)) = &done.spawn_error {
        interp.absorb_spawn_error(label, err);
        false
    } else if let Some(exec) = &done.exec {
        interp.absorb(exec)
    } else {
        false
    }
}

/// What one run shares between the hooks it executes.
struct RunCtx<'a> {
    engine: &'a LifecycleHookEngine,
    event: HookEvent,
    setup: &'a Setup,
    env: &'a [(std::ffi::OsString, std::ffi::OsString)],
    token: Option<&'a CancelToken>,
}

impl RunCtx<'_> {
    fn check_cancelled(&self) -> Result<()> {
        if self.token.is_some_and(|t| t.is_cancelled()) {
            Err(cancelled_error())
        } else {
            Ok(())
        }
    }

    fn run_one(&self, hook: &Planned<'_>, payload: &Map<String, Value>) -> Result<Executed> {
        match hook {
            Planned::Command(_) => self.run_one_bytes(hook, &payload::payload_bytes(payload)),
            Planned::Callback(cb) => {
                let text = serde_json::to_string(payload).unwrap_or_else(|_| "{}".into());
                self.run_callback(cb, &text)
            }
        }
    }

    fn run_one_bytes(&self, hook: &Planned<'_>, payload: &[u8]) -> Result<Executed> {
        match hook {
            Planned::Command(cmd) => self.run_command(cmd, payload),
            Planned::Callback(cb) => {
                let text = std::str::from_utf8(payload).unwrap_or("{}").trim_end();
                self.run_callback(cb, text)
            }
        }
    }

    fn run_command(&self, hook: &CommandHook, payload: &[u8]) -> Result<Executed> {
        // The gate: checked before every spawn, against the digest of the
        // command set this run is executing.
        if !self.engine.digest_approved(self.setup) {
            let report = HookReport::not_approved(&hook.command);
            return Ok(Executed { report, exec: None, skipped_label: Some(hook.command.clone()), spawn_error: None });
        }
        let mut report = HookReport::command(&hook.command);
        self.check_cancelled()?;
        let spec = CommandSpec {
            command: &hook.command,
            cwd: &self.setup.workspace,
            env: self.env,
            stdin: payload,
            timeout: hook.timeout(),
            max_output_bytes: self.setup.max_output_bytes,
        };
        let started = Instant::now();
        match runner::run_command(&spec, self.token) {
            Err(e) => {
                report.duration_ms = started.elapsed().as_secs_f64() * 1000.0;
                Ok(Executed {
                    report,
                    exec: None,
                    skipped_label: None,
                    spawn_error: Some((hook.command.clone(), e.to_string())),
                })
            }
            Ok(out) => {
                if out.cancelled {
                    return Err(cancelled_error());
                }
                report.exit_code = out.exit_code;
                report.signal = out.signal;
                report.timed_out = out.timed_out;
                report.duration_ms = out.duration.as_secs_f64() * 1000.0;
                report.stdout_truncated = out.stdout_truncated;
                report.stderr_truncated = out.stderr_truncated;
                let exec = HookExecution {
                    label: hook.command.clone(),
                    exit_code: out.exit_code,
                    signal: out.signal,
                    timed_out: out.timed_out,
                    timeout_seconds: hook.timeout().as_secs(),
                    stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                    stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                };
                Ok(Executed { report, exec: Some(exec), skipped_label: None, spawn_error: None })
            }
        }
    }

    /// A callback hook's result reads like a command's (SPEC §5.4; the
    /// mapping is [`HookExecution::from_callback`]).
    fn run_callback(&self, cb: &CallbackHook, payload: &str) -> Result<Executed> {
        let started = Instant::now();
        let result = invoke(cb.callback.as_ref(), payload);
        let elapsed = started.elapsed();
        let exec = HookExecution::from_callback(self.event, &cb.name, &result);
        let report = HookReport::callback(&cb.name, exec.exit_code.unwrap_or(1), elapsed.as_secs_f64() * 1000.0);
        let done = Executed { report, exec: Some(exec), skipped_label: None, spawn_error: None };
        self.check_cancelled()?;
        Ok(done)
    }
}

/// The outcome JSON of an event when no hook ran (constant per event).
fn empty_outcome_json(event: HookEvent) -> &'static str {
    static EMPTY: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let all = EMPTY.get_or_init(|| {
        HookEvent::ALL.iter().map(|e| EventInterpreter::new(*e, false).finish(Vec::new()).to_json().to_string()).collect()
    });
    &all[event.index()]
}

fn cancelled_error() -> Error {
    Error::new(Status::Cancelled, "the run was cancelled")
}
/// Cancels an asynchronous run when its future is dropped before completion.
struct CancelOnDrop {
    engine: LifecycleHookEngine,
    run_id: u64,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if self.armed {
            let _ = self.engine.cancel(self.run_id);
        }
    }
}

macro_rules! expect_outcome {
    ($outcome:expr, $variant:ident) => {
        match $outcome {
            HookOutcome::$variant(o) => Ok(o),
            other => Err(Error::new(Status::Panic, format!("unexpected outcome kind: {:?}", other.to_json()))),
        }
    };
}

/// The seed's asynchronous API: one method per event. Each runs on the
/// engine's runtime (callback hooks on hookline threads) and can be awaited
/// from any executor; dropping the future cancels the run.
impl LifecycleHookEngine {
    /// Run an event asynchronously and await its outcome.
    pub async fn run_event(&self, event: HookEvent, input: Value) -> Result<HookOutcome> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let run_id = self.run_async(event, input, move |r| {
            let _ = tx.send(r);
        })?;
        let mut guard = CancelOnDrop { engine: self.clone(), run_id, armed: true };
        let r = rx.await.unwrap_or_else(|_| Err(cancelled_error()));
        guard.armed = false;
        r
    }

    /// SessionStart (uses the engine's trigger as `source`).
    pub async fn run_session_start(&self) -> Result<SessionStartHookOutcome> {
        expect_outcome!(self.run_event(HookEvent::SessionStart, Value::Object(Map::new())).await?, SessionStart)
    }

    /// SessionEnd.
    pub async fn run_session_end(&self, turn_id: &str, reason: SessionEndReason) -> Result<CommonOutcome> {
        let input = serde_json::json!({"turn_id": turn_id, "reason": reason.as_str()});
        expect_outcome!(self.run_event(HookEvent::SessionEnd, input).await?, Other)
    }

    #[allow(clippy::too_many_arguments)]
    fn subagent_input(
        parent_session_id: &str,
        child_thread_id: &str,
        agent_name: &str,
        display_label: &str,
        background: bool,
        status: &str,
        transcript_path: Option<&str>,
    ) -> Value {
        let mut v = serde_json::json!({
            "parent_session_id": parent_session_id, "child_thread_id": child_thread_id,
            "agent_name": agent_name, "display_label": display_label,
            "background": background, "status": status,
        });
        if let Some(t) = transcript_path {
            v["transcript_path"] = Value::String(t.to_string());
        }
        v
    }

    /// SubagentStart.
    #[allow(clippy::too_many_arguments)]
    pub async fn run_subagent_start(
        &self,
        parent_session_id: &str,
        child_thread_id: &str,
        agent_name: &str,
        display_label: &str,
        background: bool,
        status: &str,
        transcript_path: Option<&str>,
    ) -> Result<CommonOutcome> {
        let input = Self::subagent_input(parent_session_id, child_thread_id, agent_name, display_label, background, status, transcript_path);
        expect_outcome!(self.run_event(HookEvent::SubagentStart, input).await?, Other)
    }

    /// SubagentStop.
    #[allow(clippy::too_many_arguments)]
    pub async fn run_subagent_stop(
        &self,
        parent_session_id: &str,
        child_thread_id: &str,
        agent_name: &str,
        display_label: &str,
        background: bool,
        status: &str,
        transcript_path: Option<&str>,
    ) -> Result<CommonOutcome> {
        let input = Self::subagent_input(parent_session_id, child_thread_id, agent_name, display_label, background, status, transcript_path);
        expect_outcome!(self.run_event(HookEvent::SubagentStop, input).await?, Other)
    }

    /// UserPromptSubmit.
    pub async fn run_user_prompt_submit(&self, turn_id: &str, prompt: &str) -> Result<UserPromptHookOutcome> {
        let input = serde_json::json!({"turn_id": turn_id, "prompt": prompt});
        expect_outcome!(self.run_event(HookEvent::UserPromptSubmit, input).await?, UserPromptSubmit)
    }

    /// PermissionRequest.
    pub async fn run_permission_request(
        &self,
        tool_name: &str,
        tool_input: Option<&Value>,
        permission_request: &Value,
        permission_suggestions: Option<&Value>,
    ) -> Result<PermissionRequestHookOutcome> {
        let mut input = serde_json::json!({"tool_name": tool_name, "tool_input": tool_input, "permission_request": permission_request});
        if let Some(s) = permission_suggestions {
            input["permission_suggestions"] = s.clone();
        }
        expect_outcome!(self.run_event(HookEvent::PermissionRequest, input).await?, PermissionRequest)
    }

    /// PreToolUse.
    pub async fn run_pre_tool_use(
        &self,
        tool_name: &str,
        tool_input: Option<&Value>,
        tool_call_id: Option<&str>,
    ) -> Result<PreToolHookOutcome> {
        let input = serde_json::json!({"tool_name": tool_name, "tool_input": tool_input, "tool_call_id": tool_call_id});
        expect_outcome!(self.run_event(HookEvent::PreToolUse, input).await?, PreToolUse)
    }

    /// PostToolUse.
    pub async fn run_post_tool_use(
        &self,
        tool_name: &str,
        tool_input: Option<&Value>,
        tool_response: &Value,
        tool_call_id: Option<&str>,
    ) -> Result<PostToolHookOutcome> {
        let input = serde_json::json!({"tool_name": tool_name, "tool_input": tool_input, "tool_response": tool_response, "tool_call_id": tool_call_id});
        expect_outcome!(self.run_event(HookEvent::PostToolUse, input).await?, PostToolUse)
    }

    /// PostToolUseFailure.
    pub async fn run_post_tool_use_failure(
        &self,
        tool_name: &str,
        tool_input: Option<&Value>,
        tool_call_id: Option<&str>,
        error: &str,
    ) -> Result<PostToolHookOutcome> {
        let input = serde_json::json!({"tool_name": tool_name, "tool_input": tool_input, "tool_call_id": tool_call_id, "error": error});
        expect_outcome!(self.run_event(HookEvent::PostToolUseFailure, input).await?, PostToolUse)
    }

    /// PreCompact.
    pub async fn run_pre_compact(
        &self,
        trigger: CompactionTrigger,
        mode: CompactionMode,
        original_message_count: u64,
        compacted_message_count: u64,
        history_artifact_path: Option<&str>,
    ) -> Result<CommonOutcome> {
        let input = serde_json::json!({
            "trigger": trigger.as_str(), "mode": mode.as_str(),
            "original_message_count": original_message_count, "compacted_message_count": compacted_message_count,
            "history_artifact_path": history_artifact_path,
        });
        expect_outcome!(self.run_event(HookEvent::PreCompact, input).await?, Other)
    }

    /// Notification.
    pub async fn run_notification(&self, notification_type: &str, title: &str, message: &str) -> Result<CommonOutcome> {
        let input = serde_json::json!({"notification_type": notification_type, "title": title, "message": message});
        expect_outcome!(self.run_event(HookEvent::Notification, input).await?, Other)
    }

    /// Stop.
    pub async fn run_stop(&self, last_assistant_message: &str, stop_hook_active: bool) -> Result<StopHookOutcome> {
        let input = serde_json::json!({"last_assistant_message": last_assistant_message, "stop_hook_active": stop_hook_active});
        expect_outcome!(self.run_event(HookEvent::Stop, input).await?, Stop)
    }
}
