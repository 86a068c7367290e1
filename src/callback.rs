//! Host callbacks shared by the registry and the engine.
//!
//! A host callback receives a context as JSON text and may leave a [`Reply`].
//! It either succeeds or fails (a C callback returning non-zero, a Go panic,
//! a thrown JS exception, a Rust panic). The registry and the engine decide
//! what a failure means at each point; this module only calls.
//!
//! Callbacks are shared as `Arc<dyn HostCallback>`: a run clones the `Arc`
//! (snapshot) before calling, so replacing or unregistering a callback never
//! waits for, nor frees under, a call in flight. The owner's resources (a C
//! `free_user_data`) are released when the last `Arc` drops.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

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
    pub fn failed() -> Self {
        CallResult { ok: false, reply: Reply::NoOpinion }
    }
}

/// A host callback at JSON level. Implemented by the FFI layer for C
/// function pointers and by closures for Rust hosts.
pub trait HostCallback: Send + Sync {
    fn call(&self, context_json: &str) -> CallResult;
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

/// Call a host callback; a Rust panic inside it becomes a failure.
pub fn invoke(cb: &dyn HostCallback, context_json: &str) -> CallResult {
    match catch_unwind(AssertUnwindSafe(|| cb.call(context_json))) {
        Ok(r) => r,
        Err(_) => CallResult::failed(),
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
