//! C ABI for tracing (`hl_engine_set_trace_handler`, `docs/c-api.md` §12):
//! a C function pointer as the engine's span sink. Conversions only: what
//! a span holds and when it is delivered is [`crate::trace`]'s.

use std::ffi::{c_char, c_void};

use super::engine::hl_engine;
use super::*;
use crate::callback::Rejected;
use crate::trace::{Span, SpanSink};

/// Receives one finished span as JSON (`docs/c-api.md` §12):
/// `{"trace_id","span_id","parent_span_id","trace_flags","level","name",
/// "start_unix_nano","end_unix_nano","status","attributes":{…}}`. Called on a hookline thread,
/// one span at a time; `span_json` is NUL-terminated and borrowed for the
/// call only.
pub type hl_trace_fn = Option<unsafe extern "C" fn(user_data: *mut c_void, span_json: *const c_char)>;

/// A C trace handler with its `user_data` and finalizer: the finalizer
/// runs exactly once, when the last span for it has been delivered (never
/// during a call: every call holds the sink).
struct CTraceSink {
    f: unsafe extern "C" fn(*mut c_void, *const c_char),
    user_data: *mut c_void,
    free: hl_free_fn,
}

// SAFETY: the handler is documented to be called from a hookline thread,
// and `user_data` is owned by hookline until `free` runs.
unsafe impl Send for CTraceSink {}
unsafe impl Sync for CTraceSink {}

impl SpanSink for CTraceSink {
    fn span(&self, span: &Span) {
        let json = temp_c_string(&span.to_json());
        unsafe { (self.f)(self.user_data, json.as_ptr()) }
    }
}

impl Drop for CTraceSink {
    fn drop(&mut self) {
        if let Some(f) = self.free.take() {
            let _ = std::panic::catch_unwind(|| unsafe { f(self.user_data) });
        }
    }
}

/// Set the engine's trace handler (`fn` NULL removes it; `user_data` and
/// `free` are then ignored). From the next run on, every run that runs a
/// hook sends one span for itself and one for each hook to `fn`, on a
/// hookline thread, after each ends (`docs/c-api.md` §12). Replacing or
/// removing the handler never waits: runs already started deliver to the
/// handler they started with, and `free(user_data)` (may be NULL) runs
/// exactly once, after the last span for it, never during a call (also
/// when the engine is freed: `hl_engine_free` returns after it). On
/// failure `free` is not called (the caller keeps `user_data`). Statuses:
/// `HL_ERR_NULL_ARGUMENT` (engine), `HL_ERR_CLOSED`, `HL_ERR_FORKED`,
/// `HL_ERR_IO` (the delivery thread cannot start).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_set_trace_handler(
    engine: *mut hl_engine,
    r#fn: hl_trace_fn,
    user_data: *mut c_void,
    free: hl_free_fn,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear [], {
        let engine = unsafe { super::engine::engine_arg(engine)? };
        match r#fn {
            None => engine.remove_trace_sink(),
            Some(f) => engine.set_trace_sink(CTraceSink { f, user_data, free }).map_err(|rejected| {
                let Rejected { error, mut callback } = rejected;
                callback.free = None; // the caller keeps user_data
                error
            }),
        }
    })
}
