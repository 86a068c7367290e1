//! The C ABI. This module tree is the only place with `unsafe` and
//! `extern "C"`; it converts C values to core types and back, and nothing
//! else: hook semantics live in the core.
//!
//! The conventions of `docs/c-api.md`, implemented once here:
//! - every exported function's body is one `ffi_status!` (functions
//!   returning `hl_status`: clears `*errmsg` and the out-parameters, catches
//!   panics as `HL_ERR_PANIC`, writes the error message) or one
//!   `ffi_value!` (the rest: a default on panic); a test checks it;
//! - `str_arg` / `opt_str_arg` validate a `const char *` (NULL, UTF-8);
//! - `string_out` is the one way a string is returned through `char **`;
//! - the enums' numbers are in `abi.rs`, their names in the core.
#![allow(non_camel_case_types)]
#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::{Error, Result, Status};

pub mod abi;
pub mod callback;
pub mod common;
pub mod engine;
pub mod registry;
pub mod trace;

pub use abi::*;

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
    /// Whether `hl_reply_defer` may be called (handlers only).
    pub(crate) deferrable: bool,
}

/// Out-parameters the boundary clears before a body runs ("no partial
/// successes": on failure every out-parameter is NULL, or 0).
pub(crate) trait OutParam {
    /// Write the empty value (if the pointer itself is not NULL).
    unsafe fn clear(self);
}

impl<T> OutParam for *mut *mut T {
    unsafe fn clear(self) {
        if !self.is_null() {
            *self = std::ptr::null_mut();
        }
    }
}

impl OutParam for *mut bool {
    unsafe fn clear(self) {
        if !self.is_null() {
            *self = false;
        }
    }
}

impl OutParam for *mut u64 {
    unsafe fn clear(self) {
        if !self.is_null() {
            *self = 0;
        }
    }
}

/// The body of every exported function returning `hl_status`:
/// `ffi_status!(errmsg, clear [out, ...], { body })`. It writes NULL (or 0)
/// into `*errmsg` and every listed out-parameter, runs the body under
/// `catch_unwind` (a panic becomes `HL_ERR_PANIC`), and returns the status,
/// with the error's message in `*errmsg` on failure.
macro_rules! ffi_status {
    ($errmsg:expr, clear [$($out:expr),* $(,)?], $body:block) => {{
        $( unsafe { $crate::ffi::OutParam::clear($out) }; )*
        $crate::ffi::status_boundary($errmsg, move || -> $crate::error::Result<()> { $body })
    }};
}

/// The body of every exported function returning a value:
/// `ffi_value!(default, { body })`; a panic returns `default`.
macro_rules! ffi_value {
    ($default:expr, $body:block) => {
        $crate::ffi::value_boundary($default, move || $body)
    };
}

pub(crate) use {ffi_status, ffi_value};

/// See [`ffi_status!`].
pub(crate) fn status_boundary<F>(errmsg: *mut *mut c_char, body: F) -> hl_status
where
    F: FnOnce() -> Result<()>,
{
    unsafe { errmsg.clear() };
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
                unsafe { *errmsg = to_c_string(e.message.clone()) };
            }
            status_of(&e)
        }
    }
}

/// See [`ffi_value!`].
pub(crate) fn value_boundary<T, F>(default: T, body: F) -> T
where
    F: FnOnce() -> T,
{
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(default)
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
    CStr::from_ptr(p).to_str().map_err(|e| Error::new(Status::InvalidUtf8, format!("{what} is not valid UTF-8: {e}")))
}

/// Borrow an optional string argument (NULL → `None`).
pub(crate) unsafe fn opt_str_arg<'a>(p: *const c_char, what: &str) -> Result<Option<&'a str>> {
    if p.is_null() {
        Ok(None)
    } else {
        str_arg(p, what).map(Some)
    }
}

/// A `char **` out-parameter that receives a string the caller frees with
/// `hl_string_free`: the one way strings are returned. Made by
/// [`string_out`] (NULL is `HL_ERR_NULL_ARGUMENT`), written by
/// [`set`](Self::set) once the call has succeeded.
pub(crate) struct StringOut(*mut *mut c_char);

/// Check a required `char **` out-parameter.
pub(crate) fn string_out(p: *mut *mut c_char, what: &str) -> Result<StringOut> {
    non_null(p, what)?;
    Ok(StringOut(p))
}

impl StringOut {
    /// Hand `s` to the caller.
    pub(crate) fn set(self, s: String) {
        unsafe { *self.0 = to_c_string(s) };
    }

    /// Hand `s` to the caller, or leave NULL for `None`.
    pub(crate) fn set_opt(self, s: Option<String>) {
        if let Some(s) = s {
            self.set(s);
        }
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

#[cfg(test)]
mod tests {
    /// The boundary is structural: every exported function's body is one
    /// `ffi_status!` or `ffi_value!`, so none can miss the panic boundary or
    /// the clearing of its out-parameters.
    #[test]
    fn every_exported_function_goes_through_the_boundary() {
        let files = [
            ("common.rs", include_str!("common.rs")),
            ("engine.rs", include_str!("engine.rs")),
            ("registry.rs", include_str!("registry.rs")),
            ("trace.rs", include_str!("trace.rs")),
        ];
        let mut count = 0;
        for (file, text) in files {
            let exported = text.matches("#[no_mangle]").count();
            assert_eq!(exported, text.matches("extern \"C\" fn hl_").count(), "{file}: an export not named hl_*");
            for (at, _) in text.match_indices("extern \"C\" fn hl_") {
                let rest = &text[at..];
                let name: String = rest["extern \"C\" fn ".len()..].chars().take_while(|c| *c != '(').collect();
                let body = rest[rest.find('{').expect("a body") + 1..].trim_start();
                assert!(
                    body.starts_with("ffi_status!(") || body.starts_with("ffi_value!("),
                    "{file}: {name} does not go through ffi_status!/ffi_value!"
                );
                count += 1;
            }
        }
        assert!(count >= 30, "expected every exported function, found {count}");
    }
}
