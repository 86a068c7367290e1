//! C function pointers as core [`HostCallback`]s.

use std::ffi::c_void;

use super::*;
use crate::callback::{CallResult, HostCallback, Rejected, Reply};

/// A C callback with its `user_data` and finalizer. The finalizer runs
/// exactly once, when the last reference drops (never during a call, since
/// every call holds a reference).
pub(crate) struct CCallback {
    cb: unsafe extern "C" fn(*mut c_void, *const c_char, usize, *mut hl_reply) -> i32,
    user_data: *mut c_void,
    free_user_data: hl_free_fn,
}

// SAFETY: callbacks are documented to be called from any thread, and
// `user_data` is owned by hookline until `free_user_data` runs.
unsafe impl Send for CCallback {}
unsafe impl Sync for CCallback {}

impl CCallback {
    /// `Err(NULL_ARGUMENT)` when `cb` is NULL. Once built, dropping the
    /// value runs `free_user_data`; a registration the core refuses hands
    /// it back ([`hand_back`](Self::hand_back)), so that it does not.
    pub(crate) fn new(cb: hl_callback_fn, user_data: *mut c_void, free_user_data: hl_free_fn) -> Result<Self> {
        match cb {
            Some(cb) => Ok(CCallback { cb, user_data, free_user_data }),
            None => Err(Error::new(Status::NullArgument, "cb must not be NULL")),
        }
    }

    /// A refused registration: the caller keeps `user_data`
    /// (`free_user_data` is not called); returns the error.
    pub(crate) fn hand_back(rejected: Rejected<CCallback>) -> Error {
        let Rejected { error, mut callback } = rejected;
        callback.free_user_data = None;
        error
    }
}

impl CCallback {
    fn call_with(&self, context_json: &str, deferrable: bool) -> CallResult {
        let ctx = temp_c_string(context_json);
        let len = ctx.as_bytes().len();
        let mut reply = hl_reply { reply: Reply::NoOpinion, deferrable };
        let rc = unsafe { (self.cb)(self.user_data, ctx.as_ptr(), len, &mut reply) };
        CallResult { ok: rc == 0, reply: reply.reply }
    }
}

impl HostCallback for CCallback {
    fn call(&self, context_json: &str) -> CallResult {
        self.call_with(context_json, false)
    }

    fn call_deferrable(&self, context_json: &str) -> CallResult {
        self.call_with(context_json, true)
    }
}

impl Drop for CCallback {
    fn drop(&mut self) {
        if let Some(f) = self.free_user_data.take() {
            let _ = std::panic::catch_unwind(|| unsafe { f(self.user_data) });
        }
    }
}
