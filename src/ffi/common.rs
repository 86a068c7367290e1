//! Shared C functions: version, status names, strings, logging, replies.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use super::*;
use crate::callback::Reply;

/// The library version, e.g. `"0.1.0"` (static string; do not free).
#[no_mangle]
pub extern "C" fn hl_version() -> *const c_char {
    ffi_value!(std::ptr::null(), { concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char })
}

/// The constant's name for a status, e.g. `"HL_ERR_INVALID_JSON"` (static;
/// do not free). NULL for an unknown value.
#[no_mangle]
pub extern "C" fn hl_status_name(status: hl_status) -> *const c_char {
    ffi_value!(std::ptr::null(), { Status::from_i32(status).map_or(std::ptr::null(), |s| s.c_name().as_ptr()) })
}

/// Free a string returned by hookline (outcomes, results, error messages).
/// NULL is a no-op. Never pass a string hookline did not return.
#[no_mangle]
pub unsafe extern "C" fn hl_string_free(s: *mut c_char) {
    ffi_value!((), {
        if !s.is_null() {
            drop(unsafe { std::ffi::CString::from_raw(s) });
        }
    })
}

/// Log handler: receives the level (ERROR=1, WARN=2, INFO=3, DEBUG=4,
/// TRACE=5) and a NUL-terminated message valid during the call.
pub type hl_log_fn = Option<unsafe extern "C" fn(user_data: *mut c_void, level: i32, message: *const c_char)>;

struct LogTarget {
    f: unsafe extern "C" fn(*mut c_void, i32, *const c_char),
    user_data: *mut c_void,
}
// SAFETY: the host promises its handler may be called from any thread.
unsafe impl Send for LogTarget {}
unsafe impl Sync for LogTarget {}

impl LogTarget {
    fn log(&self, level: i32, msg: &str) {
        let c = temp_c_string(msg);
        unsafe { (self.f)(self.user_data, level, c.as_ptr()) }
    }
}

/// Install a log handler receiving messages at or below `max_level`.
/// `fn` NULL restores the default: silent unless `HOOKLINE_LOG` is set
/// (`debug|info|warn|error`), then printed to stderr. The handler may be
/// called from any thread, concurrently.
#[no_mangle]
pub unsafe extern "C" fn hl_set_log_handler(r#fn: hl_log_fn, user_data: *mut c_void, max_level: i32) {
    ffi_value!((), {
        match r#fn {
            None => crate::log::set_handler(None, 0),
            Some(f) => {
                let target = LogTarget { f, user_data };
                let handler = Arc::new(move |level: i32, msg: &str| target.log(level, msg));
                crate::log::set_handler(Some(handler), max_level);
            }
        }
    })
}

/// Reply with JSON text (validated now; `HL_ERR_INVALID_JSON` if it does
/// not parse). Replaces any earlier reply of this call.
#[no_mangle]
pub unsafe extern "C" fn hl_reply_set_json(
    reply: *mut hl_reply,
    json: *const c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear [], {
        non_null(reply, "reply")?;
        let text = unsafe { str_arg(json, "json")? };
        let value = Error::parse_json(text, "reply json")?;
        unsafe { (*reply).reply = Reply::Json(value) };
        Ok(())
    })
}

/// Reply "allow". Replaces any earlier reply of this call.
#[no_mangle]
pub unsafe extern "C" fn hl_reply_allow(reply: *mut hl_reply) -> hl_status {
    ffi_status!(std::ptr::null_mut(), clear [], {
        non_null(reply, "reply")?;
        unsafe { (*reply).reply = Reply::Allow };
        Ok(())
    })
}

/// Reply "deny" with a message (NULL means an empty message). Replaces any
/// earlier reply of this call.
#[no_mangle]
pub unsafe extern "C" fn hl_reply_deny(reply: *mut hl_reply, message: *const c_char) -> hl_status {
    ffi_status!(std::ptr::null_mut(), clear [], {
        non_null(reply, "reply")?;
        let msg = unsafe { opt_str_arg(message, "message")? }.unwrap_or("").to_string();
        unsafe { (*reply).reply = Reply::Deny(msg) };
        Ok(())
    })
}

/// Reply "failed", with the reason (NULL or `""`: no reason). The call
/// counts as failed whatever the callback returns, and the reason is kept
/// where the failure is reported: a registry run's `errors` and its deny
/// message (`hook '<name>' failed: <reason>`), an engine callback hook's
/// stderr (exit code 1), a handler's failure message. Replaces any earlier
/// reply of this call. A callback that returns non-zero without calling
/// it fails without a reason.
#[no_mangle]
pub unsafe extern "C" fn hl_reply_fail(reply: *mut hl_reply, message: *const c_char) -> hl_status {
    ffi_status!(std::ptr::null_mut(), clear [], {
        non_null(reply, "reply")?;
        let msg = unsafe { opt_str_arg(message, "message")? }.unwrap_or("").to_string();
        unsafe { (*reply).reply = Reply::Failed(msg) };
        Ok(())
    })
}

/// A handler's reply that comes later (opaque): made by `hl_reply_defer`,
/// consumed by `hl_deferred_finish`.
pub struct hl_deferred {
    inner: Arc<crate::callback::Deferred>,
}

/// Defer a handler's reply (handlers set with `hl_engine_set_handler`
/// only; `HL_ERR_INVALID_ARGUMENT` in any other callback): the callback
/// returns 0 at once, and the reply is given later, from any thread, with
/// `hl_deferred_finish(*deferred, ...)`. The run waits for it until the
/// hook's timeout (a cancel ends the wait); a reply given later is dropped.
/// Call `hl_deferred_finish` exactly once for every `*deferred`, also
/// after the timeout: it releases the handle.
#[no_mangle]
pub unsafe extern "C" fn hl_reply_defer(
    reply: *mut hl_reply,
    deferred: *mut *mut hl_deferred,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[deferred], {
        non_null(reply, "reply")?;
        non_null(deferred, "deferred")?;
        let reply = unsafe { &mut *reply };
        if !reply.deferrable {
            return Err(Error::invalid_argument(
                "only a handler (hl_engine_set_handler) may defer its reply; callbacks reply during the call",
            ));
        }
        if matches!(reply.reply, Reply::Deferred(_)) {
            return Err(Error::invalid_argument("this reply is already deferred"));
        }
        let slot = crate::callback::Deferred::new();
        reply.reply = Reply::Deferred(slot.clone());
        unsafe { *deferred = Box::into_raw(Box::new(hl_deferred { inner: slot })) };
        Ok(())
    })
}

/// Give a deferred reply and release `deferred` (always, whatever this
/// returns). `rc` 0: the reply is `reply_json` (NULL: no reply, as if the
/// callback had not touched its reply); any other `rc`: the handler failed.
/// JSON that does not parse is `HL_ERR_INVALID_JSON`, and the hook counts
/// as failed. Any thread; at most once per handle.
#[no_mangle]
pub unsafe extern "C" fn hl_deferred_finish(
    deferred: *mut hl_deferred,
    rc: i32,
    reply_json: *const c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear [], {
        non_null(deferred, "deferred")?;
        let deferred = unsafe { Box::from_raw(deferred) };
        if rc != 0 {
            return match unsafe { opt_str_arg(reply_json, "reply_json") } {
                Ok(reason) => {
                    deferred.inner.finish(crate::callback::CallResult::failed_with(reason.unwrap_or("")));
                    Ok(())
                }
                Err(e) => {
                    deferred.inner.finish(crate::callback::CallResult::failed());
                    Err(e)
                }
            };
        }
        let reply = unsafe { opt_str_arg(reply_json, "reply_json") }.and_then(|text| match text {
            None => Ok(Reply::NoOpinion),
            Some(text) => Error::parse_json(text, "reply_json").map(Reply::Json),
        });
        match reply {
            Ok(reply) => {
                deferred.inner.finish(crate::callback::CallResult::ok(reply));
                Ok(())
            }
            Err(e) => {
                deferred.inner.finish(crate::callback::CallResult::failed());
                Err(e)
            }
        }
    })
}
