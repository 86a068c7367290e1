//! Host callbacks shared by the registry and the engine.
//!
//! A host callback receives a context as JSON text and may leave a [`Reply`].
//! It either succeeds or fails (a C callback returning non-zero or replying
//! `hl_reply_fail`, a Go error or panic, a thrown JS exception, a Python
//! exception, a Rust panic); a failure may carry its reason
//! ([`Reply::Failed`]: the text of the error, exception or panic). The registry and the engine decide
//! what a failure means at each point; this module only calls.
//!
//! Callbacks are shared as `Arc<dyn HostCallback>`: a run clones the `Arc`
//! (snapshot) before calling, so replacing or unregistering a callback never
//! waits for, nor frees under, a call in flight. The owner's resources (a C
//! `free_user_data`) are released when the last `Arc` drops.
//!
//! Closing an owner (engine or registry) releases every callback before it
//! returns: runs take their snapshot through a `CallbackSlot`, and the close waits
//! until no run holds one — except on a thread that is itself inside a host
//! callback or on a hookline thread, where waiting could wait for itself;
//! there the last run to finish releases the callbacks.

use std::cell::Cell;
use std::ops::Deref;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};

use serde_json::Value;

/// What a callback answered. Each `hl_reply_*` call replaces the previous one.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Reply {
    /// The callback did not touch its reply: "no opinion".
    #[default]
    NoOpinion,
    /// `hl_reply_allow`.
    Allow,
    /// `hl_reply_deny(message)`.
    Deny(String),
    /// `hl_reply_set_json(json)`, already parsed.
    Json(Value),
    /// `hl_reply_defer`: a handler (prompt, agent, mcp_tool) answers later,
    /// from any thread, through this slot. Other callers read it as "no
    /// opinion".
    Deferred(Arc<Deferred>),
    /// `hl_reply_fail(message)`: the callback failed, and says why. A call
    /// whose reply is this counts as failed whatever it returned
    /// ([`CallResult::failure`]).
    Failed(String),
}

/// The result of one callback invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct CallResult {
    /// `false` when the callback failed (non-zero return, panic, exception).
    pub ok: bool,
    /// The reply it left (kept also on failure, but callers ignore it then).
    pub reply: Reply,
}

impl CallResult {
    pub fn ok(reply: Reply) -> Self {
        CallResult { ok: true, reply }
    }
    /// A failure without a reason.
    pub fn failed() -> Self {
        CallResult { ok: false, reply: Reply::NoOpinion }
    }
    /// A failure with a reason (`hl_reply_fail`, a panic's message, an
    /// exception's text). An empty reason is no reason.
    pub fn failed_with(reason: impl Into<String>) -> Self {
        let reason = reason.into();
        if reason.is_empty() {
            return Self::failed();
        }
        CallResult { ok: false, reply: Reply::Failed(reason) }
    }
    /// Whether the call failed: a non-zero return, a panic, or a
    /// [`Reply::Failed`] reply.
    pub fn is_failure(&self) -> bool {
        !self.ok || matches!(self.reply, Reply::Failed(_))
    }
    /// `Some(reason)` when the call failed (`""` when it gave no reason),
    /// `None` when it succeeded.
    pub fn failure(&self) -> Option<&str> {
        match &self.reply {
            Reply::Failed(reason) => Some(reason),
            _ if !self.ok => Some(""),
            _ => None,
        }
    }
    /// The same result with `ok` false when the reply is [`Reply::Failed`]
    /// (what every caller of a host callback sees).
    fn normalized(mut self) -> Self {
        if matches!(self.reply, Reply::Failed(_)) {
            self.ok = false;
        }
        self
    }
    /// The result of a handler that answers later through `deferred`.
    pub fn deferred(deferred: Arc<Deferred>) -> Self {
        CallResult { ok: true, reply: Reply::Deferred(deferred) }
    }
}

/// A host callback at JSON level. Implemented by the FFI layer for C
/// function pointers and by closures for Rust hosts.
pub trait HostCallback: Send + Sync {
    fn call(&self, context_json: &str) -> CallResult;

    /// A call whose answer may be deferred ([`Deferred`]): what handlers
    /// (prompt, agent, mcp_tool) are called with. The C callback's reply
    /// then accepts `hl_reply_defer`; a Rust closure returns
    /// [`CallResult::deferred`] from [`call`](Self::call) instead.
    fn call_deferrable(&self, context_json: &str) -> CallResult {
        self.call(context_json)
    }
}

/// The answer of a handler that replied later (`hl_reply_defer`, then
/// `hl_deferred_finish` from any thread). The run waits for it up to the
/// hook's timeout; an answer that comes later is dropped.
#[derive(Debug, Default)]
pub struct Deferred {
    answer: Mutex<Option<CallResult>>,
    ready: Condvar,
}

impl PartialEq for Deferred {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

/// What waiting for a deferred answer gave.
#[derive(Debug)]
pub enum Waited {
    /// The handler answered in time.
    Answered(CallResult),
    /// The deadline passed first.
    TimedOut,
    /// The run was cancelled first.
    Cancelled,
}

/// How often a wait for a deferred answer looks at the run's cancellation.
const DEFERRED_CANCEL_CHECK: std::time::Duration = std::time::Duration::from_millis(5);

impl Deferred {
    /// A slot nobody answered yet.
    pub fn new() -> Arc<Deferred> {
        Arc::new(Deferred::default())
    }

    /// Answer (the first answer counts; later ones are dropped).
    pub fn finish(&self, result: CallResult) {
        let mut answer = self.answer.lock().unwrap_or_else(|e| e.into_inner());
        if answer.is_none() {
            let reply = match result.reply {
                Reply::Deferred(_) => Reply::NoOpinion,
                reply => reply,
            };
            *answer = Some(CallResult { reply, ..result }.normalized());
            self.ready.notify_all();
        }
    }

    /// Wait for the answer until `deadline`, or until `cancelled()` says
    /// the run was cancelled (looked at every few milliseconds).
    pub fn wait(&self, deadline: std::time::Instant, cancelled: &dyn Fn() -> bool) -> Waited {
        let mut answer = self.answer.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(result) = answer.take() {
                return Waited::Answered(result);
            }
            if cancelled() {
                return Waited::Cancelled;
            }
            let now = std::time::Instant::now();
            if now >= deadline {
                return Waited::TimedOut;
            }
            let slice = (deadline - now).min(DEFERRED_CANCEL_CHECK);
            answer = self.ready.wait_timeout(answer, slice).unwrap_or_else(|e| e.into_inner()).0;
        }
    }
}

impl<F> HostCallback for F
where
    F: Fn(&str) -> CallResult + Send + Sync,
{
    fn call(&self, context_json: &str) -> CallResult {
        self(context_json)
    }
}

/// A shared host callback.
pub type SharedCallback = Arc<dyn HostCallback>;

thread_local! {
    static CALLBACK_DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// Whether the current thread is inside a host callback called by hookline.
pub fn in_host_callback() -> bool {
    CALLBACK_DEPTH.with(|d| d.get() > 0)
}

struct DepthGuard;

impl DepthGuard {
    fn enter() -> DepthGuard {
        CALLBACK_DEPTH.with(|d| d.set(d.get() + 1));
        DepthGuard
    }
}

impl Drop for DepthGuard {
    fn drop(&mut self) {
        CALLBACK_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Call a host callback; a Rust panic inside it becomes a failure.
pub fn invoke(cb: &dyn HostCallback, context_json: &str) -> CallResult {
    let _depth = DepthGuard::enter();
    match catch_unwind(AssertUnwindSafe(|| cb.call(context_json))) {
        Ok(r) => r.normalized(),
        Err(payload) => CallResult::failed_with(format!("panicked: {}", panic_message(&*payload))),
    }
}

/// [`invoke`] for a handler, whose answer may be deferred.
pub fn invoke_deferrable(cb: &dyn HostCallback, context_json: &str) -> CallResult {
    let _depth = DepthGuard::enter();
    match catch_unwind(AssertUnwindSafe(|| cb.call_deferrable(context_json))) {
        Ok(r) => r.normalized(),
        Err(payload) => CallResult::failed_with(format!("panicked: {}", panic_message(&*payload))),
    }
}

/// A registration the core refused, with the callback handed back: the
/// caller still owns it (a C caller's `user_data` is not freed).
pub struct Rejected<C> {
    /// Why the registration failed.
    pub error: crate::Error,
    /// The callback, untouched.
    pub callback: C,
}

impl<C> std::fmt::Debug for Rejected<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rejected").field("error", &self.error).finish_non_exhaustive()
    }
}

/// The callback list of an owner, and the count of runs holding a snapshot
/// of it, so that [`close`](Self::close) can wait until they let go.
pub(crate) struct CallbackSlot<E> {
    list: RwLock<Arc<Vec<E>>>,
    holders: AtomicUsize,
    closing: AtomicBool,
    lock: Mutex<()>,
    released: Condvar,
}

impl<E> CallbackSlot<E> {
    pub(crate) fn new() -> Self {
        CallbackSlot {
            list: RwLock::new(Arc::new(Vec::new())),
            holders: AtomicUsize::new(0),
            closing: AtomicBool::new(false),
            lock: Mutex::new(()),
            released: Condvar::new(),
        }
    }

    /// The current list, held until the snapshot drops. An empty list holds
    /// nothing to release, so it is not counted (the common case costs one
    /// read lock).
    pub(crate) fn snapshot(&self) -> Snapshot<'_, E> {
        let guard = self.list.read().unwrap_or_else(|e| e.into_inner());
        if guard.is_empty() {
            return Snapshot { list: None, slot: self };
        }
        // Counted under the read lock: `close` takes the list under the
        // write lock, so it sees every holder that got the old list.
        self.holders.fetch_add(1, Ordering::SeqCst);
        Snapshot { list: Some(guard.clone()), slot: self }
    }

    /// Replace the list with `edit(current)`; the old list is dropped after
    /// the lock is released, so callback finalizers never run under it.
    pub(crate) fn update<R>(&self, edit: impl FnOnce(&[E]) -> (Vec<E>, R)) -> R {
        let old;
        let out;
        {
            let mut guard = self.list.write().unwrap_or_else(|e| e.into_inner());
            let (new, r) = edit(&guard);
            out = r;
            old = std::mem::replace(&mut *guard, Arc::new(new));
        }
        drop(old);
        out
    }

    /// Whether [`close`](Self::close) has begun (for tests that must know
    /// a close is waiting).
    #[cfg(test)]
    pub(crate) fn is_closing(&self) -> bool {
        self.closing.load(Ordering::SeqCst)
    }

    /// Empty the list and, unless the current thread is inside a host
    /// callback or is a hookline thread, wait until no run holds a
    /// snapshot: every callback has then been released.
    pub(crate) fn close(&self) {
        let old = std::mem::replace(&mut *self.list.write().unwrap_or_else(|e| e.into_inner()), Arc::new(Vec::new()));
        self.closing.store(true, Ordering::SeqCst);
        if !in_host_callback() && !crate::runtime::on_hookline_thread() {
            let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            while self.holders.load(Ordering::SeqCst) > 0 {
                guard = self.released.wait(guard).unwrap_or_else(|e| e.into_inner());
            }
        }
        drop(old);
    }
}

/// A run's hold on a callback list; released (list first, then the count) on drop.
pub(crate) struct Snapshot<'a, E> {
    list: Option<Arc<Vec<E>>>,
    slot: &'a CallbackSlot<E>,
}

impl<E> Deref for Snapshot<'_, E> {
    type Target = [E];
    fn deref(&self) -> &[E] {
        self.list.as_deref().map_or(&[], Vec::as_slice)
    }
}

impl<E> Drop for Snapshot<'_, E> {
    fn drop(&mut self) {
        if let Some(list) = self.list.take() {
            drop(list);
            if self.slot.holders.fetch_sub(1, Ordering::SeqCst) == 1 && self.slot.closing.load(Ordering::SeqCst) {
                let _guard = self.slot.lock.lock().unwrap_or_else(|e| e.into_inner());
                self.slot.released.notify_all();
            }
        }
    }
}

/// The text of a caught panic payload (for error messages).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}
