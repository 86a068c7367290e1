//! The in-process hook registry: named host callbacks per hook point, run
//! in registration order and combined into one result (the points and
//! their semantics are in `docs/c-api.md`).
//!
//! A [`Hooks`] registry holds named callbacks per [`HookPoint`], in one
//! global registration order. Running a point calls its callbacks in that
//! order and combines their replies into a [`RunResult`]:
//!
//! | point | reply | semantics | callback failure |
//! |---|---|---|---|
//! | `pre_tool_call_decide` | [`HookResult`] | first deny stops; `modified_args` merge into `tool_args` | stop, deny `hook '<name>' failed` |
//! | `pre_turn`, `on_interaction` | [`HookResult`] | first deny stops | listed in `errors`, next runs |
//! | `transform_tool_input` | new `tool_args` | chained | listed, args kept |
//! | all others | ignored | all run | listed, all others run |
//!
//! Callbacks are typed Rust closures ([`HookCallback::PreTurn`], …) or
//! JSON-level host callbacks ([`HookCallback::Json`], used by the C ABI and
//! the bindings). A panic in a Rust callback is a callback failure.
//!
//! Thread safety: every method takes `&self` and may be called from any
//! thread, concurrently, including from inside a callback of the same
//! registry. A run works on a snapshot of the entries taken when it starts
//! (see [`Hooks::run_json`]); no lock is held while a callback runs.
//!
//! ```
//! use hookline::registry::{HookResult, Hooks, ToolCallContext};
//!
//! let hooks = Hooks::new().with_pre_tool_call_decide("no-rm", |ctx: &ToolCallContext| {
//!     let cmd = ctx.tool_args["command"].as_str().unwrap_or("");
//!     if ctx.tool_name == "Bash" && cmd.contains("rm -rf") {
//!         HookResult::deny("rm -rf is not allowed")
//!     } else {
//!         HookResult::allow()
//!     }
//! });
//! let r = hooks.run_pre_tool_call_decide(&ToolCallContext::new(
//!     "Bash",
//!     serde_json::json!({"command": "rm -rf /"}),
//! ));
//! assert!(!r.allow);
//! ```

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::callback::{CallbackSlot, HostCallback, Rejected, SharedCallback, Snapshot};
use crate::error::{Error, Result};
use crate::hl_warn;

mod context;
mod point;
mod run;
mod types;

use context::canonicalize;
pub use context::{
    CompactionContext, InteractionContext, OnCompactionContext, OnInteractionContext, OnSessionEndContext,
    OnSessionStartContext, OnToolErrorContext, PostToolCallContext, PostTurnContext, PreToolCallDecideContext,
    PreTurnContext, SessionContext, SessionInfo, StopContext, ToolCallContext, ToolErrorContext, ToolResultContext,
};
pub use point::HookPoint;
use run::Ctx;
pub use types::{CallbackError, Contract, HookCallback, HookEntry, HookResult, RunResult, TransformFn};

struct Entry {
    point: HookPoint,
    name: String,
    callback: HookCallback,
}

/// The registry: named callbacks per [`HookPoint`].
///
/// Entries live in a copy-on-write list: a run clones an `Arc` of the
/// current list (its snapshot) and calls callbacks without any lock held.
pub struct Hooks {
    entries: CallbackSlot<Entry>,
    contract: Contract,
}

impl Default for Hooks {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks").field("entries", &self.entries()).finish()
    }
}

/// `Err(InvalidArgument)` when `name` is empty or only whitespace.
pub fn validate_name(name: &str) -> Result<()> {
    if name.trim().is_empty() {
        Err(Error::invalid_argument("name must be non-empty and not only whitespace"))
    } else {
        Ok(())
    }
}

macro_rules! typed_registration {
    ($(#[$doc:meta])* $on:ident, $with:ident, $variant:ident, $ctx:ty) => {
        $(#[$doc])*
        ///
        /// Returns `&self` for chaining; `Err(InvalidArgument)` for a blank name.
        pub fn $on(&self, name: impl Into<String>, f: impl Fn(&$ctx) + Send + Sync + 'static) -> Result<&Self> {
            self.register(name, HookCallback::$variant(Arc::new(f)))
        }

        /// Owned-self builder variant of
        #[doc = concat!("[`", stringify!($on), "`](Self::", stringify!($on), ").")]
        ///
        /// # Panics
        /// When `name` is empty or only whitespace (a programming error: a
        /// silently dropped hook would fail open).
        #[must_use]
        pub fn $with(self, name: impl Into<String>, f: impl Fn(&$ctx) + Send + Sync + 'static) -> Self {
            self.register_or_panic(name, HookCallback::$variant(Arc::new(f)))
        }
    };
}

macro_rules! decide_registration {
    ($(#[$doc:meta])* $on:ident, $with:ident, $variant:ident, $ctx:ty) => {
        $(#[$doc])*
        ///
        /// The closure may return a [`HookResult`] or `()` (allow).
        /// Returns `&self` for chaining; `Err(InvalidArgument)` for a blank name.
        pub fn $on<R: Into<HookResult>>(
            &self,
            name: impl Into<String>,
            f: impl Fn(&$ctx) -> R + Send + Sync + 'static,
        ) -> Result<&Self> {
            self.register(name, HookCallback::$variant(Arc::new(move |c: &$ctx| f(c).into())))
        }

        /// Owned-self builder variant of
        #[doc = concat!("[`", stringify!($on), "`](Self::", stringify!($on), ").")]
        ///
        /// # Panics
        /// When `name` is empty or only whitespace.
        #[must_use]
        pub fn $with<R: Into<HookResult>>(
            self,
            name: impl Into<String>,
            f: impl Fn(&$ctx) -> R + Send + Sync + 'static,
        ) -> Self {
            self.register_or_panic(name, HookCallback::$variant(Arc::new(move |c: &$ctx| f(c).into())))
        }
    };
}

impl Hooks {
    /// An empty registry.
    pub fn new() -> Self {
        Self::with_contract(Contract::AgyBridge)
    }

    /// An empty registry following `contract`.
    pub fn with_contract(contract: Contract) -> Self {
        Hooks { entries: CallbackSlot::new(), contract }
    }

    /// The contract this registry follows.
    pub fn contract(&self) -> Contract {
        self.contract
    }

    fn snapshot(&self) -> Snapshot<'_, Entry> {
        self.entries.snapshot()
    }

    /// Apply `edit` to a copy of the entry list and publish it. The old
    /// list is dropped after the lock is released, so callback finalizers
    /// (host code) never run under the lock.
    fn update<R>(&self, edit: impl FnOnce(&mut Vec<Entry>) -> R) -> R {
        self.entries.update(|current| {
            let mut list: Vec<Entry> = current
                .iter()
                .map(|e| Entry { point: e.point, name: e.name.clone(), callback: e.callback.clone() })
                .collect();
            let out = edit(&mut list);
            (list, out)
        })
    }

    /// Unregister every callback and return once each has been released
    /// (for C callbacks: their `free_user_data` has run), except when called
    /// from inside a host callback or on a hookline thread, where waiting
    /// could wait for the caller itself: there each callback is released
    /// when the last run using it ends.
    pub fn release_all(&self) {
        self.entries.close();
    }

    /// Register a named callback at its point. An existing callback with the
    /// same (point, name) is replaced in place (same position) and a warning
    /// is logged; the replaced callback is dropped once no run uses it.
    ///
    /// `Err(InvalidArgument)` when `name` is empty or only whitespace (the
    /// callback is dropped).
    pub fn register(&self, name: impl Into<String>, callback: HookCallback) -> Result<&Self> {
        let name = name.into();
        validate_name(&name)?;
        self.insert(name, callback);
        Ok(self)
    }

    fn insert(&self, name: String, callback: HookCallback) {
        let point = callback.hook_point();
        let replaced = self.update(|list| {
            let mut entry = Entry { point, name, callback };
            match list.iter_mut().find(|e| e.point == point && e.name == entry.name) {
                Some(slot) => {
                    std::mem::swap(slot, &mut entry);
                    Some(entry)
                }
                None => {
                    list.push(entry);
                    None
                }
            }
        });
        if let Some(old) = replaced {
            hl_warn!(
                "registry: a hook named '{}' was already registered at {}: replaced in place",
                old.name,
                point.label()
            );
            drop(old);
        }
    }

    fn register_or_panic(self, name: impl Into<String>, callback: HookCallback) -> Self {
        if let Err(e) = self.register(name, callback) {
            panic!("Hooks builder: {}", e.message);
        }
        self
    }

    /// Register a JSON-level host callback at `point` (see [`Hooks::register`]).
    pub fn register_json(&self, point: HookPoint, name: impl Into<String>, callback: SharedCallback) -> Result<&Self> {
        self.register(name, HookCallback::Json { point, callback })
    }

    /// [`register_json`](Self::register_json) handing the callback back when
    /// the registration is refused (a blank name), so that the caller keeps
    /// what it owns.
    pub fn try_register_json<C: HostCallback + 'static>(
        &self,
        point: HookPoint,
        name: &str,
        callback: C,
    ) -> std::result::Result<(), Rejected<C>> {
        match validate_name(name) {
            Ok(()) => {
                self.insert(name.to_owned(), HookCallback::Json { point, callback: Arc::new(callback) });
                Ok(())
            }
            Err(error) => Err(Rejected { error, callback }),
        }
    }

    /// Remove the callback registered as (point, name). `Err(NotFound)`
    /// when there is none. A run in flight keeps using its snapshot; the
    /// callback is dropped when the last such run finishes.
    pub fn unregister(&self, point: HookPoint, name: &str) -> Result<()> {
        let removed = self.update(|list| {
            let pos = list.iter().position(|e| e.point == point && e.name == name)?;
            Some(list.remove(pos))
        });
        match removed {
            Some(entry) => {
                drop(entry);
                Ok(())
            }
            None => Err(Error::not_found(format!("no hook named '{name}' is registered at {}", point.label()))),
        }
    }

    /// All registrations, every point, in global registration order.
    pub fn entries(&self) -> Vec<HookEntry> {
        self.snapshot()
            .iter()
            .map(|e| HookEntry { name: e.name.clone(), point: e.point, callback_id: e.name.clone() })
            .collect()
    }

    /// Number of registered callbacks.
    pub fn len(&self) -> usize {
        self.snapshot().len()
    }

    /// Whether no callback is registered.
    pub fn is_empty(&self) -> bool {
        self.snapshot().is_empty()
    }

    // ── Typed registration ──────────────────────────────────────────────

    decide_registration!(
        /// Register a [`HookPoint::PreTurn`] callback (deny blocks the prompt).
        on_pre_turn, with_pre_turn, PreTurn, PreTurnContext
    );
    typed_registration!(
        /// Register a [`HookPoint::PostTurn`] observer.
        on_post_turn, with_post_turn, PostTurn, PostTurnContext
    );
    decide_registration!(
        /// Register a [`HookPoint::PreToolCallDecide`] callback.
        on_pre_tool_call_decide, with_pre_tool_call_decide, PreToolCallDecide, ToolCallContext
    );
    typed_registration!(
        /// Register a [`HookPoint::PostToolCall`] observer.
        on_post_tool_call, with_post_tool_call, PostToolCall, ToolResultContext
    );
    typed_registration!(
        /// Register a [`HookPoint::OnToolError`] observer.
        on_tool_error, with_tool_error, OnToolError, ToolErrorContext
    );
    typed_registration!(
        /// Register a [`HookPoint::OnCompaction`] observer.
        on_compaction, with_compaction, OnCompaction, CompactionContext
    );
    decide_registration!(
        /// Register a [`HookPoint::OnInteraction`] callback (deny blocks; a
        /// failure never does).
        on_interaction, with_interaction, OnInteraction, InteractionContext
    );
    typed_registration!(
        /// Register a [`HookPoint::OnSessionStart`] observer.
        on_session_start, with_session_start, OnSessionStart, SessionContext
    );
    typed_registration!(
        /// Register a [`HookPoint::OnSessionEnd`] observer.
        on_session_end, with_session_end, OnSessionEnd, SessionContext
    );
    decide_registration!(
        /// Register a [`HookPoint::Stop`] callback: [`HookResult::deny`]
        /// with a reason keeps the agent going ("continue").
        on_stop, with_stop, Stop, StopContext
    );

    /// Register a [`HookPoint::TransformToolInput`] callback: `Some(args)`
    /// replaces the tool arguments (later transforms see them), `None` keeps
    /// them. Returns `&self`; `Err(InvalidArgument)` for a blank name.
    pub fn on_transform_tool_input(
        &self,
        name: impl Into<String>,
        f: impl Fn(&ToolCallContext) -> Option<Value> + Send + Sync + 'static,
    ) -> Result<&Self> {
        self.register(name, HookCallback::TransformToolInput(Arc::new(f)))
    }

    /// Owned-self builder variant of
    /// [`on_transform_tool_input`](Self::on_transform_tool_input).
    ///
    /// # Panics
    /// When `name` is empty or only whitespace.
    #[must_use]
    pub fn with_transform_tool_input(
        self,
        name: impl Into<String>,
        f: impl Fn(&ToolCallContext) -> Option<Value> + Send + Sync + 'static,
    ) -> Self {
        self.register_or_panic(name, HookCallback::TransformToolInput(Arc::new(f)))
    }

    // ── Typed runs ──────────────────────────────────────────────────────
    //
    // Failures are logged; use `run_json` to get them listed in `errors`.

    /// Run the `pre_turn` callbacks: the first deny stops the run and is the
    /// result; a failing callback is logged and skipped.
    pub fn run_pre_turn(&self, ctx: &PreTurnContext) -> HookResult {
        self.run_ctx(HookPoint::PreTurn, Ctx::from_typed(ctx)).into()
    }

    /// Run the `post_turn` observers (all run).
    pub fn run_post_turn(&self, ctx: &PostTurnContext) {
        self.run_ctx(HookPoint::PostTurn, Ctx::from_typed(ctx));
    }

    /// Run the `pre_tool_call_decide` callbacks: the first deny stops the
    /// run and is the result; a failing (panicking) callback denies with
    /// `hook '<name>' failed`. When any callback returned `modified_args`,
    /// the merged arguments are in the result's `modified_args`.
    pub fn run_pre_tool_call_decide(&self, ctx: &ToolCallContext) -> HookResult {
        self.run_ctx(HookPoint::PreToolCallDecide, Ctx::from_typed(ctx)).into()
    }

    /// Run the `post_tool_call` observers (all run).
    pub fn run_post_tool_call(&self, ctx: &ToolResultContext) {
        self.run_ctx(HookPoint::PostToolCall, Ctx::from_typed(ctx));
    }

    /// Run the `on_tool_error` observers (all run).
    pub fn run_on_tool_error(&self, ctx: &ToolErrorContext) {
        self.run_ctx(HookPoint::OnToolError, Ctx::from_typed(ctx));
    }

    /// Run the `on_session_start` observers (all run).
    pub fn run_on_session_start(&self, ctx: &SessionContext) {
        self.run_ctx(HookPoint::OnSessionStart, Ctx::from_typed(ctx));
    }

    /// Run the `on_session_end` observers (all run).
    pub fn run_on_session_end(&self, ctx: &SessionContext) {
        self.run_ctx(HookPoint::OnSessionEnd, Ctx::from_typed(ctx));
    }

    /// Run the `on_compaction` observers (all run).
    pub fn run_on_compaction(&self, ctx: &CompactionContext) {
        self.run_ctx(HookPoint::OnCompaction, Ctx::from_typed(ctx));
    }

    /// Run the `on_interaction` callbacks: the first deny stops the run; a
    /// failing callback is skipped (never blocks).
    pub fn run_on_interaction(&self, ctx: &InteractionContext) -> HookResult {
        self.run_ctx(HookPoint::OnInteraction, Ctx::from_typed(ctx)).into()
    }

    /// Run the `stop` callbacks: the first that says "continue" stops the
    /// run; the result denies (the agent must not stop) with its reason.
    pub fn run_stop(&self, ctx: &StopContext) -> HookResult {
        self.run_ctx(HookPoint::Stop, Ctx::from_typed(ctx)).into()
    }

    /// Run the `transform_tool_input` chain and return the final arguments
    /// (the input arguments when no transform changed them).
    pub fn run_transform_tool_input(&self, ctx: &ToolCallContext) -> Value {
        self.run_ctx(HookPoint::TransformToolInput, Ctx::from_typed(ctx)).tool_args
    }

    // ── JSON level (the C ABI and bindings) ─────────────────────────────

    /// Validate a JSON context for `point` and run it. Errors (nothing runs):
    /// `InvalidArgument` naming the field for a non-object context or a
    /// missing/mistyped required field.
    ///
    /// Callbacks receive the canonical context (aliases replaced by the
    /// canonical names, the canonical one winning when both are given;
    /// unknown fields kept). The run uses the entries registered when it
    /// starts: callbacks added or removed meanwhile (for instance by a
    /// callback of this run) take effect from the next run.
    pub fn run_json(&self, point: HookPoint, context: &Value) -> Result<RunResult> {
        self.run_value(point, context.clone())
    }

    /// [`run_json`](Self::run_json) taking the context by value (no copy).
    pub fn run_value(&self, point: HookPoint, context: Value) -> Result<RunResult> {
        let canonical = canonicalize(point, context, self.contract)?;
        Ok(match point {
            HookPoint::PreTurn => self.run_ctx::<PreTurnContext>(point, Ctx::from_json(canonical)),
            HookPoint::PostTurn => self.run_ctx::<PostTurnContext>(point, Ctx::from_json(canonical)),
            HookPoint::PreToolCallDecide | HookPoint::TransformToolInput => {
                self.run_ctx::<ToolCallContext>(point, Ctx::from_json(canonical))
            }
            HookPoint::PostToolCall => self.run_ctx::<ToolResultContext>(point, Ctx::from_json(canonical)),
            HookPoint::OnToolError => self.run_ctx::<ToolErrorContext>(point, Ctx::from_json(canonical)),
            HookPoint::OnSessionStart | HookPoint::OnSessionEnd => {
                self.run_ctx::<SessionContext>(point, Ctx::from_json(canonical))
            }
            HookPoint::OnCompaction => self.run_ctx::<CompactionContext>(point, Ctx::from_json(canonical)),
            HookPoint::OnInteraction => self.run_ctx::<InteractionContext>(point, Ctx::from_json(canonical)),
            HookPoint::Stop => self.run_ctx::<StopContext>(point, Ctx::from_json(canonical)),
        })
    }

    /// [`run_json`](Self::run_json) on JSON text, returning the result as
    /// JSON text. Malformed (or too deeply nested) JSON is `InvalidJson`.
    pub fn run_json_str(&self, point: HookPoint, context_json: &str) -> Result<String> {
        let context = Error::parse_json(context_json, "context_json")?;
        let result = self.run_value(point, context)?;
        Error::to_json_string(&result, "the result")
    }

    /// [`run_json_str`](Self::run_json_str), but `None` for a result that
    /// [says nothing beyond "allowed"](RunResult::is_plain_allow): the
    /// common answer costs no serialisation (`hl_registry_run_brief`).
    pub fn run_json_str_brief(&self, point: HookPoint, context_json: &str) -> Result<Option<String>> {
        let context = Error::parse_json(context_json, "context_json")?;
        let result = self.run_value(point, context)?;
        if result.is_plain_allow() {
            return Ok(None);
        }
        Error::to_json_string(&result, "the result").map(Some)
    }

    /// The entries as JSON text: `[{"name","point","callback_id"}, …]`.
    pub fn entries_json(&self) -> String {
        serde_json::to_string(&self.entries()).unwrap_or_else(|_| "[]".to_string())
    }
}

#[cfg(test)]
mod tests;
