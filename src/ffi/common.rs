//! Shared C functions: version, status names, strings, logging, replies.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use super::*;
use crate::callback::Reply;

/// The library version, e.g. `"0.1.0"` (static string; do not free).
#[no_mangle]
pub extern "C" fn hl_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// The constant's name for a status, e.g. `"HL_ERR_INVALID_JSON"` (static;
/// do not free). NULL for an unknown value.
#[no_mangle]
pub extern "C" fn hl_status_name(status: hl_status) -> *const c_char {
    guard(std::ptr::null(), || match Status::from_i32(status) {
        Some(s) => status_name_c(s),
        None => std::ptr::null(),
    })
}

fn status_name_c(s: Status) -> *const c_char {
    macro_rules! lit {
        ($($v:ident => $n:literal),*) => { match s { $(Status::$v => concat!($n, "\0").as_ptr() as *const c_char),* } };
    }
    lit!(Ok => "HL_OK", NullArgument => "HL_ERR_NULL_ARGUMENT", InvalidUtf8 => "HL_ERR_INVALID_UTF8",
         InvalidJson => "HL_ERR_INVALID_JSON", InvalidArgument => "HL_ERR_INVALID_ARGUMENT",
         InvalidConfig => "HL_ERR_INVALID_CONFIG", NotFound => "HL_ERR_NOT_FOUND",
         Cancelled => "HL_ERR_CANCELLED", WrongThread => "HL_ERR_WRONG_THREAD", Closed => "HL_ERR_CLOSED",
         Io => "HL_ERR_IO", Panic => "HL_ERR_PANIC", Forked => "HL_ERR_FORKED")
}

/// Free a string returned by hookline (outcomes, results, error messages).
/// NULL is a no-op. Never pass a string hookline did not return.
#[no_mangle]
pub unsafe extern "C" fn hl_string_free(s: *mut c_char) {
    guard((), || {
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
    guard((), || match r#fn {
        None => crate::log::set_handler(None, 0),
        Some(f) => {
            let target = LogTarget { f, user_data };
            crate::log::set_handler(
                Some(Arc::new(move |level: i32, msg: &str| target.log(level, msg))),
                max_level,
            );
        }
    })
}

/// Reply with JSON text (validated now; `HL_ERR_INVALID_JSON` if it does
/// not parse). Replaces any earlier reply of this call.
#[no_mangle]
pub unsafe extern "C" fn hl_reply_set_json(reply: *mut hl_reply, json: *const c_char, errmsg: *mut *mut c_char) -> hl_status {
    call_status(errmsg, || {
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
    call_status(std::ptr::null_mut(), || {
        non_null(reply, "reply")?;
        unsafe { (*reply).reply = Reply::Allow };
        Ok(())
    })
}

/// Reply "deny" with a message (NULL means an empty message). Replaces any
/// earlier reply of this call.
#[no_mangle]
pub unsafe extern "C" fn hl_reply_deny(reply: *mut hl_reply, message: *const c_char) -> hl_status {
    call_status(std::ptr::null_mut(), || {
        non_null(reply, "reply")?;
        let msg = unsafe { opt_str_arg(message, "message")? }.unwrap_or("").to_string();
        unsafe { (*reply).reply = Reply::Deny(msg) };
        Ok(())
    })
}
