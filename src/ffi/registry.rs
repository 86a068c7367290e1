//! C ABI for the registry (`hl_registry_*`): conversions onto
//! [`crate::registry::Hooks`]; the semantics live in the core.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use super::callback::CCallback;
use super::*;
use crate::registry::{validate_name, HookPoint, Hooks};

/// A registry hook point (a 32-bit integer in the ABI): `HL_POINT_*`.
/// Any other value is rejected with `HL_ERR_INVALID_ARGUMENT`.
pub type hl_hook_point = i32;
/// `pre_turn`: before a turn; deny blocks the prompt.
pub const HL_POINT_PRE_TURN: hl_hook_point = 0;
/// `post_turn`: after a turn (observer).
pub const HL_POINT_POST_TURN: hl_hook_point = 1;
/// `pre_tool_call_decide`: before a tool call; deny blocks it, `modified_args` rewrite it.
pub const HL_POINT_PRE_TOOL_CALL_DECIDE: hl_hook_point = 2;
/// `post_tool_call`: after a tool call (observer).
pub const HL_POINT_POST_TOOL_CALL: hl_hook_point = 3;
/// `on_compaction`: context compaction (observer).
pub const HL_POINT_ON_COMPACTION: hl_hook_point = 4;
/// `on_session_start`: a session starts (observer).
pub const HL_POINT_ON_SESSION_START: hl_hook_point = 5;
/// `on_session_end`: a session ends (observer).
pub const HL_POINT_ON_SESSION_END: hl_hook_point = 6;
/// `on_tool_error`: a tool call failed (observer).
pub const HL_POINT_ON_TOOL_ERROR: hl_hook_point = 7;
/// `on_interaction`: a user interaction; deny blocks, a failing callback never does.
pub const HL_POINT_ON_INTERACTION: hl_hook_point = 8;
/// `transform_tool_input`: chained rewrites of a tool call's arguments.
pub const HL_POINT_TRANSFORM_TOOL_INPUT: hl_hook_point = 9;

/// An in-process hook registry (opaque). Create with `hl_registry_new`,
/// release with `hl_registry_free`. Every function may be called on it from
/// any thread, concurrently, and from inside its own callbacks.
pub struct hl_registry {
    /// Shared with runs in flight, so freeing the handle from inside a
    /// callback never pulls the registry out from under its run.
    hooks: Arc<Hooks>,
}

fn point_arg(point: hl_hook_point) -> Result<HookPoint> {
    HookPoint::from_i32(point).ok_or_else(|| {
        Error::invalid_argument(format!("unknown hook point {point} (valid: 0..=9, HL_POINT_*)"))
    })
}

/// Clone the registry's `Arc` (the handle itself is not used afterwards, so
/// a callback may free it while the caller's run goes on).
unsafe fn hooks_arg(registry: *const hl_registry) -> Result<Arc<Hooks>> {
    non_null(registry, "registry")?;
    Ok(unsafe { (*registry).hooks.clone() })
}

/// Create an empty registry. Returns NULL only if allocation failed.
/// Release it with `hl_registry_free`.
#[no_mangle]
pub extern "C" fn hl_registry_new() -> *mut hl_registry {
    guard(std::ptr::null_mut(), || Box::into_raw(Box::new(hl_registry { hooks: Arc::new(Hooks::new()) })))
}

/// Release a registry (NULL is a no-op). Every registered callback's
/// `free_user_data` runs exactly once: now, or, for a callback whose run is
/// in flight (e.g. when called from inside a callback), when that run
/// finishes. Do not use the handle afterwards.
#[no_mangle]
pub unsafe extern "C" fn hl_registry_free(registry: *mut hl_registry) {
    guard((), || {
        if !registry.is_null() {
            drop(unsafe { Box::from_raw(registry) });
        }
    })
}

/// Register `cb` as `name` at `point`. Callbacks at a point run in
/// registration order; registering an existing (point, name) replaces that
/// callback in place (same position; a warning is logged) and the replaced
/// callback's `free_user_data` runs once no run uses it any more.
///
/// On success the registry owns `user_data`: `free_user_data` (may be NULL)
/// is called exactly once, when the callback is replaced, unregistered, or
/// the registry is freed, never while a call to it is in flight. On failure
/// nothing changed and `free_user_data` is not called.
///
/// Errors: `HL_ERR_NULL_ARGUMENT` (registry, name or cb NULL),
/// `HL_ERR_INVALID_UTF8`, `HL_ERR_INVALID_ARGUMENT` (unknown point, name
/// empty or only whitespace).
#[no_mangle]
pub unsafe extern "C" fn hl_registry_register(
    registry: *mut hl_registry,
    point: hl_hook_point,
    name: *const c_char,
    cb: hl_callback_fn,
    user_data: *mut c_void,
    free_user_data: hl_free_fn,
    errmsg: *mut *mut c_char,
) -> hl_status {
    call_status(errmsg, || {
        let hooks = unsafe { hooks_arg(registry)? };
        let point = point_arg(point)?;
        let name = unsafe { str_arg(name, "name")? };
        validate_name(name)?;
        // Everything is validated: from here on the registry owns user_data.
        let callback = CCallback::new(cb, user_data, free_user_data)?;
        hooks.register_json(point, name, Arc::new(callback))?;
        Ok(())
    })
}

/// Remove the callback registered as `name` at `point`; its
/// `free_user_data` runs now, or when the runs using it finish.
/// `HL_ERR_NOT_FOUND` when there is none.
#[no_mangle]
pub unsafe extern "C" fn hl_registry_unregister(
    registry: *mut hl_registry,
    point: hl_hook_point,
    name: *const c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    call_status(errmsg, || {
        let hooks = unsafe { hooks_arg(registry)? };
        let point = point_arg(point)?;
        let name = unsafe { str_arg(name, "name")? };
        hooks.unregister(point, name)
    })
}

/// Run the callbacks at `point` on `context_json` (a JSON object with the
/// point's fields, SPEC §4) and write the result
/// `{"allow":bool,"message":str,"tool_args":any,"errors":[{"name","message"}]}`
/// to `*result_json` (free with `hl_string_free`).
///
/// Callbacks run on the calling thread, in registration order, on the
/// entries registered when the run starts; they may call any hookline
/// function, including on this registry (even `hl_registry_free`).
///
/// Errors (no callback ran, `*result_json` is NULL): `HL_ERR_NULL_ARGUMENT`,
/// `HL_ERR_INVALID_UTF8`, `HL_ERR_INVALID_JSON` (malformed or too deeply
/// nested), `HL_ERR_INVALID_ARGUMENT` (unknown point, context not an object,
/// a missing or mistyped required field: the message names it). Callback
/// failures are not errors: they are reported in the result.
#[no_mangle]
pub unsafe extern "C" fn hl_registry_run(
    registry: *mut hl_registry,
    point: hl_hook_point,
    context_json: *const c_char,
    result_json: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    unsafe { out_clear(result_json) };
    call_status(errmsg, || {
        let hooks = unsafe { hooks_arg(registry)? };
        non_null(result_json, "result_json")?;
        let point = point_arg(point)?;
        let context = unsafe { str_arg(context_json, "context_json")? };
        let out = hooks.run_json_str(point, context)?;
        unsafe { out_write(result_json, to_c_string(out)) };
        Ok(())
    })
}

/// Write every registration, all points in one global registration order,
/// to `*entries_json` as `[{"name":..,"point":"<label>","callback_id":..}]`
/// (`callback_id` = name; free with `hl_string_free`).
#[no_mangle]
pub unsafe extern "C" fn hl_registry_entries(
    registry: *mut hl_registry,
    entries_json: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    unsafe { out_clear(entries_json) };
    call_status(errmsg, || {
        let hooks = unsafe { hooks_arg(registry)? };
        non_null(entries_json, "entries_json")?;
        let out = hooks.entries_json();
        unsafe { out_write(entries_json, to_c_string(out)) };
        Ok(())
    })
}

/// The wire label of a hook point (`"pre_turn"`, …, `"transform_tool_input"`;
/// static, do not free). NULL for an unknown value.
#[no_mangle]
pub extern "C" fn hl_point_name(point: hl_hook_point) -> *const c_char {
    guard(std::ptr::null(), || {
        macro_rules! lit {
            ($($v:ident => $n:literal),*) => {
                match HookPoint::from_i32(point) {
                    $(Some(HookPoint::$v) => concat!($n, "\0").as_ptr() as *const c_char,)*
                    None => std::ptr::null(),
                }
            };
        }
        lit!(PreTurn => "pre_turn", PostTurn => "post_turn", PreToolCallDecide => "pre_tool_call_decide",
             PostToolCall => "post_tool_call", OnCompaction => "on_compaction",
             OnSessionStart => "on_session_start", OnSessionEnd => "on_session_end",
             OnToolError => "on_tool_error", OnInteraction => "on_interaction",
             TransformToolInput => "transform_tool_input")
    })
}
