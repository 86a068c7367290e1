//! C ABI for the registry (`hl_registry_*`; documented in
//! `docs/c-api.md`): conversions onto [`crate::registry::Hooks`]; the
//! semantics live in the core.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use super::callback::CCallback;
use super::*;
use crate::registry::{HookPoint, Hooks};

pub use super::abi::{
    hl_hook_point, hl_registry_contract, HL_CONTRACT_AGY_BRIDGE, HL_CONTRACT_ANTIGRAVITY_SDK, HL_POINT_ON_COMPACTION,
    HL_POINT_ON_INTERACTION, HL_POINT_ON_SESSION_END, HL_POINT_ON_SESSION_START, HL_POINT_ON_TOOL_ERROR,
    HL_POINT_POST_TOOL_CALL, HL_POINT_POST_TURN, HL_POINT_PRE_TOOL_CALL_DECIDE, HL_POINT_PRE_TURN, HL_POINT_STOP,
    HL_POINT_TRANSFORM_TOOL_INPUT,
};

/// An in-process hook registry (opaque). Create with `hl_registry_new`,
/// release with `hl_registry_free`. Every function may be called on it from
/// any thread, concurrently, and from inside its own callbacks.
pub struct hl_registry {
    /// Shared with runs in flight, so freeing the handle from inside a
    /// callback never pulls the registry out from under its run.
    hooks: Arc<Hooks>,
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
    ffi_value!(std::ptr::null_mut(), { Box::into_raw(Box::new(hl_registry { hooks: Arc::new(Hooks::new()) })) })
}

/// Create an empty registry following `contract` (`HL_CONTRACT_*`): how
/// each point's replies and failures combine (`docs/c-api.md`).
/// `hl_registry_new()` is `HL_CONTRACT_AGY_BRIDGE`. Errors:
/// `HL_ERR_NULL_ARGUMENT` (out), `HL_ERR_INVALID_ARGUMENT` (unknown
/// contract). Release it with `hl_registry_free`.
#[no_mangle]
pub unsafe extern "C" fn hl_registry_new_with_contract(
    contract: hl_registry_contract,
    out: *mut *mut hl_registry,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[out], {
        non_null(out, "out")?;
        let contract = contract_arg(contract)?;
        let registry = hl_registry { hooks: Arc::new(Hooks::with_contract(contract)) };
        unsafe { *out = Box::into_raw(Box::new(registry)) };
        Ok(())
    })
}

/// Release a registry (NULL is a no-op). Every registered callback's
/// `free_user_data` runs exactly once, and has run when this returns; when
/// called from inside a callback (or on a hookline thread), a callback whose
/// run is in flight is released when that run finishes instead. Do not use
/// the handle afterwards.
#[no_mangle]
pub unsafe extern "C" fn hl_registry_free(registry: *mut hl_registry) {
    ffi_value!((), {
        if !registry.is_null() {
            let boxed = unsafe { Box::from_raw(registry) };
            boxed.hooks.release_all();
            drop(boxed);
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
    ffi_status!(errmsg, clear [], {
        let hooks = unsafe { hooks_arg(registry)? };
        let point = point_arg(point)?;
        let name = unsafe { str_arg(name, "name")? };
        let callback = CCallback::new(cb, user_data, free_user_data)?;
        hooks.try_register_json(point, name, callback).map_err(CCallback::hand_back)
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
    ffi_status!(errmsg, clear [], {
        let hooks = unsafe { hooks_arg(registry)? };
        let point = point_arg(point)?;
        let name = unsafe { str_arg(name, "name")? };
        hooks.unregister(point, name)
    })
}

/// Run the callbacks at `point` on `context_json` (a JSON object with the
/// point's fields, `docs/c-api.md`) and write the result
/// `{"allow":bool,"message":str,"tool_args":any,"errors":[{"name","message"}]}`
/// (plus `"answer"` at the points that answer) to `*result_json` (free
/// with `hl_string_free`).
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
    ffi_status!(errmsg, clear[result_json], {
        let hooks = unsafe { hooks_arg(registry)? };
        let out = string_out(result_json, "result_json")?;
        let point = point_arg(point)?;
        let context = unsafe { str_arg(context_json, "context_json")? };
        out.set(hooks.run_json_str(point, context)?);
        Ok(())
    })
}

/// `hl_registry_run` for a host's hot path: the same run, statuses and
/// result, except that a result saying nothing beyond "allowed"
/// (`{"allow":true,"message":"","tool_args":null,"errors":[]}`, with no
/// `"answer"` or a null one) is not written: `*result_json` stays NULL and
/// the status is `HL_OK`. Any other result is written as by
/// `hl_registry_run` (free with `hl_string_free`).
#[no_mangle]
pub unsafe extern "C" fn hl_registry_run_brief(
    registry: *mut hl_registry,
    point: hl_hook_point,
    context_json: *const c_char,
    result_json: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[result_json], {
        let hooks = unsafe { hooks_arg(registry)? };
        let out = string_out(result_json, "result_json")?;
        let point = point_arg(point)?;
        let context = unsafe { str_arg(context_json, "context_json")? };
        out.set_opt(hooks.run_json_str_brief(point, context)?);
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
    ffi_status!(errmsg, clear[entries_json], {
        let hooks = unsafe { hooks_arg(registry)? };
        string_out(entries_json, "entries_json")?.set(hooks.entries_json());
        Ok(())
    })
}

/// The wire label of a hook point (`"pre_turn"`, …, `"transform_tool_input"`, `"stop"`;
/// static, do not free). NULL for an unknown value.
#[no_mangle]
pub extern "C" fn hl_point_name(point: hl_hook_point) -> *const c_char {
    ffi_value!(std::ptr::null(), { HookPoint::from_i32(point).map_or(std::ptr::null(), |p| p.c_label().as_ptr()) })
}
