//! The C ABI. This module tree is the only place with `unsafe` and
//! `extern "C"`; it converts C values to core types and back, and nothing
//! else: hook semantics live in the core.
//!
//! Conventions (SPEC §2), implemented once here:
//! - `call_status` wraps every fallible exported body: it clears `*errmsg`,
//!   catches panics (`HL_ERR_PANIC`) and writes the error message.
//! - `guard` wraps infallible ones (returns a default on panic).
//! - `str_arg` validates a `const char *` (NULL, UTF-8).
//! - `out_clear` / `out_write` implement "no partial successes".
#![allow(non_camel_case_types)]
#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::{Error, Result, Status};

pub mod callback;
pub mod common;
pub mod engine;
pub mod registry;

/// Status code returned by every fallible function (a 32-bit integer).
pub type hl_status = i32;
/// Success.
pub const HL_OK: hl_status = 0;
/// A required pointer argument was NULL.
pub const HL_ERR_NULL_ARGUMENT: hl_status = 1;
/// A string argument was not valid UTF-8.
pub const HL_ERR_INVALID_UTF8: hl_status = 2;
/// A JSON argument did not parse (or was nested too deeply).
pub const HL_ERR_INVALID_JSON: hl_status = 3;
/// An argument had the wrong shape or value (names the field).
pub const HL_ERR_INVALID_ARGUMENT: hl_status = 4;
/// The hooks configuration is invalid (names the entry path).
pub const HL_ERR_INVALID_CONFIG: hl_status = 5;
/// The named callback or run does not exist.
pub const HL_ERR_NOT_FOUND: hl_status = 6;
/// The run was cancelled.
pub const HL_ERR_CANCELLED: hl_status = 7;
/// A blocking call was made from a hookline-owned thread.
pub const HL_ERR_WRONG_THREAD: hl_status = 8;
/// The handle is being freed.
pub const HL_ERR_CLOSED: hl_status = 9;
/// A file could not be read or written.
pub const HL_ERR_IO: hl_status = 10;
/// An internal panic was caught at the boundary.
pub const HL_ERR_PANIC: hl_status = 11;
/// The handle was created before fork() and used in the child.
pub const HL_ERR_FORKED: hl_status = 12;

/// Callback invoked by the registry and by engine callback hooks.
///
/// `context_json` is NUL-terminated and `context_len` is its length without
/// the NUL. Return 0 on success; any other value means the callback failed.
/// Not touching `reply` means "no opinion"; `reply` is valid only during the
/// call. The callback may call any hookline function.
pub type hl_callback_fn = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        context_json: *const c_char,
        context_len: usize,
        reply: *mut hl_reply,
    ) -> i32,
>;

/// Releases a callback's `user_data`. Called exactly once: when the callback
/// is replaced, unregistered, or its owner freed, never during a call.
pub type hl_free_fn = Option<unsafe extern "C" fn(user_data: *mut c_void)>;

/// The reply slot handed to a callback (opaque; valid during the call only).
pub struct hl_reply {
    pub(crate) reply: crate::callback::Reply,
}

/// Write NULL into a pointer out-parameter (if the pointer itself is not NULL).
pub(crate) unsafe fn out_clear<T>(out: *mut *mut T) {
    if !out.is_null() {
        *out = std::ptr::null_mut();
    }
}

/// Write a value into an out-parameter that was checked non-NULL.
pub(crate) unsafe fn out_write<T>(out: *mut T, value: T) {
    if !out.is_null() {
        out.write(value);
    }
}

/// Check that a required pointer is not NULL.
pub(crate) fn non_null<T>(p: *const T, what: &str) -> Result<()> {
    if p.is_null() {
        Err(Error::new(Status::NullArgument, format!("{what} must not be NULL")))
    } else {
        Ok(())
    }
}

/// Borrow a required NUL-terminated UTF-8 string argument.
pub(crate) unsafe fn str_arg<'a>(p: *const c_char, what: &str) -> Result<&'a str> {
    non_null(p, what)?;
    CStr::from_ptr(p)
        .to_str()
        .map_err(|e| Error::new(Status::InvalidUtf8, format!("{what} is not valid UTF-8: {e}")))
}

/// Borrow an optional string argument (NULL → `None`).
pub(crate) unsafe fn opt_str_arg<'a>(p: *const c_char, what: &str) -> Result<Option<&'a str>> {
    if p.is_null() {
        Ok(None)
    } else {
        str_arg(p, what).map(Some)
    }
}

/// Hand a Rust string to C (freed with `hl_string_free`). Interior NULs,
/// which cannot cross as C strings, are replaced by U+FFFD.
pub(crate) fn to_c_string(s: String) -> *mut c_char {
    let c = match CString::new(s) {
        Ok(c) => c,
        Err(e) => {
            let bytes = e.into_vec();
            let text = String::from_utf8_lossy(&bytes).replace('\0', "\u{FFFD}");
            CString::new(text).unwrap_or_default()
        }
    };
    c.into_raw()
}

/// Temporary C string for passing to a callback (same NUL rule).
pub(crate) fn temp_c_string(s: &str) -> CString {
    CString::new(s).unwrap_or_else(|_| CString::new(s.replace('\0', "\u{FFFD}")).unwrap_or_default())
}


/// Run a fallible exported body: clear `*errmsg`, catch panics, report errors.
pub(crate) fn call_status<F>(errmsg: *mut *mut c_char, body: F) -> hl_status
where
    F: FnOnce() -> Result<()>,
{
    unsafe { out_clear(errmsg) };
    let result = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(r) => r,
        Err(payload) => Err(Error::new(
            Status::Panic,
            format!("internal error (panic caught at the C boundary): {}", crate::callback::panic_message(&*payload)),
        )),
    };
    match result {
        Ok(()) => HL_OK,
        Err(e) => {
            if !errmsg.is_null() {
                unsafe { *errmsg = to_c_string(e.message) };
            }
            e.status as hl_status
        }
    }
}

/// Run an infallible exported body; a panic yields `default`.
pub(crate) fn guard<T, F>(default: T, body: F) -> T
where
    F: FnOnce() -> T,
{
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(default)
}
