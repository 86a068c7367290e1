//! C ABI for the engine (`hl_engine_*`; documented in `docs/c-api.md`).
//! Conversions only: every rule lives in the core ([`crate::engine`]),
//! including the fork rule and the rule that a blocking run is refused on
//! hookline threads. Every fallible core method applies the fork rule
//! itself; the calls onto the core's infallible accessors (digest,
//! previews, transcript path) take the handle through `engine_checked`,
//! which applies it first. (The check costs a `getpid`, so it is made once
//! per call.)

use std::ffi::{c_char, c_void};

use super::callback::CCallback;
use super::*;
use crate::engine::LifecycleHookEngine;
use crate::handler::host::HandlerType;
use crate::model::event::HookEvent;

pub use super::abi::{
    hl_event, HL_EVENT_NOTIFICATION, HL_EVENT_PERMISSION_REQUEST, HL_EVENT_POST_TOOL_USE,
    HL_EVENT_POST_TOOL_USE_FAILURE, HL_EVENT_PRE_COMPACT, HL_EVENT_PRE_TOOL_USE, HL_EVENT_SESSION_END,
    HL_EVENT_SESSION_START, HL_EVENT_STOP, HL_EVENT_SUBAGENT_START, HL_EVENT_SUBAGENT_STOP,
    HL_EVENT_USER_PROMPT_SUBMIT,
};

/// Called exactly once per successful `hl_engine_run_async`, from a
/// hookline thread: `HL_OK` with the outcome JSON, or an error status
/// (`HL_ERR_CANCELLED` after a cancel or free) with a message. Both strings
/// are borrowed for the duration of the call; `outcome_json` is NULL on
/// error and `errmsg` NULL on success.
pub type hl_done_fn = Option<
    unsafe extern "C" fn(user_data: *mut c_void, status: hl_status, outcome_json: *const c_char, errmsg: *const c_char),
>;

/// An engine handle (opaque). Create with `hl_engine_new`, release with
/// `hl_engine_free`. Every function may be called from any thread.
pub struct hl_engine {
    engine: LifecycleHookEngine,
}

/// The engine behind a handle, for core methods that apply the fork rule.
pub(super) unsafe fn engine_arg<'a>(e: *const hl_engine) -> Result<&'a LifecycleHookEngine> {
    non_null(e, "engine")?;
    Ok(&(*e).engine)
}

/// The engine behind a handle, after the core's fork rule (for the core's
/// infallible accessors).
unsafe fn engine_checked<'a>(e: *const hl_engine) -> Result<&'a LifecycleHookEngine> {
    let engine = engine_arg(e)?;
    engine.check_forked()?;
    Ok(engine)
}

unsafe fn input_arg(input_json: *const c_char) -> Result<serde_json::Value> {
    let text = str_arg(input_json, "input_json")?;
    Error::parse_json(text, "input_json")
}

/// Create an engine from options JSON (options in `docs/protocol.md`):
/// `{"workspace": "/abs/dir", "session_id": "s-1", "trigger": "startup",
/// "workspace_gated": false, "hooks": {...} | "hooks_toml": "..." |
/// "hooks_file": "path", "transcript_path": null, "trust_store": null,
/// "env": {}, "env_remove": [], "max_output_bytes": 1048576}`.
/// On success `*out` receives the engine; on failure `*out` is NULL.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_new(
    options_json: *const c_char,
    out: *mut *mut hl_engine,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[out], {
        non_null(out, "out")?;
        let text = unsafe { str_arg(options_json, "options_json")? };
        let engine = LifecycleHookEngine::from_options_json(text)?;
        unsafe { *out = Box::into_raw(Box::new(hl_engine { engine })) };
        Ok(())
    })
}

/// Free an engine (NULL is a no-op). Pending asynchronous runs are
/// cancelled (their `done` receives `HL_ERR_CANCELLED`). This returns after
/// every pending `done` has been called and every callback hook's
/// `free_user_data` has run, except when called from a hookline thread
/// (e.g. inside a `done`) or from inside a callback, where it does not
/// wait: there each callback is released when the last run using it ends.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_free(engine: *mut hl_engine) {
    ffi_value!((), {
        if engine.is_null() {
            return;
        }
        let boxed = unsafe { Box::from_raw(engine) };
        boxed.engine.close();
        drop(boxed);
    })
}

/// Run one event synchronously: blocks the calling thread, runs callback
/// hooks on it, and returns the outcome JSON (`docs/protocol.md`) in
/// `*outcome_json` (free with `hl_string_free`). `input_json` is the event
/// input (`"{}"` for SessionStart). Returns `HL_ERR_WRONG_THREAD` on a
/// hookline-owned thread (use `hl_engine_run_async` there).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_run(
    engine: *mut hl_engine,
    event: hl_event,
    input_json: *const c_char,
    outcome_json: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[outcome_json], {
        let engine = unsafe { engine_arg(engine)? }.clone();
        let out = string_out(outcome_json, "outcome_json")?;
        let event = event_arg(event)?;
        let input = unsafe { input_arg(input_json)? };
        out.set(engine.run_blocking_json(event, &input)?);
        Ok(())
    })
}

struct DoneTarget {
    f: unsafe extern "C" fn(*mut c_void, hl_status, *const c_char, *const c_char),
    user_data: *mut c_void,
}
// SAFETY: `done` is documented to be called from a hookline thread; the
// host's user_data must tolerate that.
unsafe impl Send for DoneTarget {}

impl DoneTarget {
    fn call(self, result: Result<crate::model::outcome::HookOutcome>) {
        match result.and_then(|outcome| outcome.to_json_string()) {
            Ok(json) => {
                let text = temp_c_string(&json);
                unsafe { (self.f)(self.user_data, HL_OK, text.as_ptr(), std::ptr::null()) }
            }
            Err(e) => {
                let msg = temp_c_string(&e.message);
                unsafe { (self.f)(self.user_data, status_of(&e), std::ptr::null(), msg.as_ptr()) }
            }
        }
    }
}

/// Run one event asynchronously. Validates synchronously (a failure
/// returns an error and `done` is never called); otherwise returns at once
/// with `*run_id` (may be NULL) and calls `done` exactly once from a
/// hookline thread. Callback hooks of async runs run on hookline threads.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_run_async(
    engine: *mut hl_engine,
    event: hl_event,
    input_json: *const c_char,
    done: hl_done_fn,
    user_data: *mut c_void,
    run_id: *mut u64,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[run_id], {
        let engine = unsafe { engine_arg(engine)? }.clone();
        let event = event_arg(event)?;
        let f = done.ok_or_else(|| Error::new(Status::NullArgument, "done must not be NULL"))?;
        let input = unsafe { input_arg(input_json)? };
        let target = DoneTarget { f, user_data };
        let id = engine.run_async(event, input, move |r| target.call(r))?;
        if !run_id.is_null() {
            unsafe { *run_id = id };
        }
        Ok(())
    })
}

/// Fire an event by its config key (`event_name`, e.g. `"PostCompact"`),
/// blocking like `hl_engine_run`. The twelve known event names keep their
/// rules; any other key runs its configured hooks with observer rules
/// (concurrent, messages and context, never a block); the matcher is
/// tested against the input's `matcher_value` field, if any
/// (`docs/profiles.md`). A name no hooks config names (and that is neither
/// one of the twelve nor an event an agent defines, such as Codex's
/// `PostCompact`) runs nothing, and the outcome's first message is a
/// warning listing the configured events, with the closest known name
/// ("did you mean `PreToolUse`?").
#[no_mangle]
pub unsafe extern "C" fn hl_engine_run_named(
    engine: *mut hl_engine,
    event_name: *const c_char,
    input_json: *const c_char,
    outcome_json: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[outcome_json], {
        let engine = unsafe { engine_arg(engine)? }.clone();
        let out = string_out(outcome_json, "outcome_json")?;
        let name = unsafe { str_arg(event_name, "event_name")? };
        let input = unsafe { input_arg(input_json)? };
        out.set(engine.run_named_blocking_json(name, &input)?);
        Ok(())
    })
}

/// `hl_engine_run_named` asynchronously, with the contract of
/// `hl_engine_run_async` (validated synchronously; `done` called exactly
/// once from a hookline thread; cancel with `hl_engine_cancel`).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_run_named_async(
    engine: *mut hl_engine,
    event_name: *const c_char,
    input_json: *const c_char,
    done: hl_done_fn,
    user_data: *mut c_void,
    run_id: *mut u64,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[run_id], {
        let engine = unsafe { engine_arg(engine)? }.clone();
        let name = unsafe { str_arg(event_name, "event_name")? };
        let f = done.ok_or_else(|| Error::new(Status::NullArgument, "done must not be NULL"))?;
        let input = unsafe { input_arg(input_json)? };
        let target = DoneTarget { f, user_data };
        let id = engine.run_named_async(name, input, move |r| target.call(r))?;
        if !run_id.is_null() {
            unsafe { *run_id = id };
        }
        Ok(())
    })
}

/// Cancel an asynchronous run or a reserved run (`hl_engine_reserve_run`):
/// kills its processes; an asynchronous run's `done` receives
/// `HL_ERR_CANCELLED`, a reserved run returns it. `HL_ERR_NOT_FOUND` if
/// unknown or already finished. Linearizable: `HL_OK` means the run reports
/// `HL_ERR_CANCELLED`, `HL_ERR_NOT_FOUND` that it keeps its real result.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_cancel(engine: *mut hl_engine, run_id: u64, errmsg: *mut *mut c_char) -> hl_status {
    ffi_status!(errmsg, clear [], { unsafe { engine_arg(engine)? }.cancel(run_id) })
}

/// Reserve a run id for `hl_engine_run_reserved`: a blocking run that can
/// be cancelled. From now on `hl_engine_cancel(engine, *run_id)` works on
/// it from any thread: a cancel before the run starts makes
/// `hl_engine_run_reserved` return `HL_ERR_CANCELLED` at once; during the
/// run it kills the run's processes and the run returns
/// `HL_ERR_CANCELLED`. Pass every reserved id to `hl_engine_run_reserved`
/// exactly once (an id never run stays reserved until `hl_engine_free`).
/// Returns `HL_ERR_WRONG_THREAD` on a hookline-owned thread (nothing is
/// reserved; use `hl_engine_run_async` there). On failure `*run_id` is 0.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_reserve_run(
    engine: *mut hl_engine,
    run_id: *mut u64,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[run_id], {
        let engine = unsafe { engine_arg(engine)? };
        non_null(run_id, "run_id")?;
        let id = engine.reserve_run()?;
        unsafe { *run_id = id };
        Ok(())
    })
}

/// Run one event on the calling thread under `run_id` from
/// `hl_engine_reserve_run`; otherwise exactly like `hl_engine_run`
/// (callback hooks run on this thread; free `*outcome_json` with
/// `hl_string_free`; `HL_ERR_WRONG_THREAD` on a hookline thread). The call
/// consumes the reservation whatever it returns; `HL_ERR_NOT_FOUND` for an
/// id that is not an unused reservation of this engine. Cancel is
/// linearizable: the run returns `HL_ERR_CANCELLED` exactly when an
/// `hl_engine_cancel(run_id)` returned `HL_OK` (or `hl_engine_free` began)
/// before the run finished, and a cancel that returns `HL_ERR_NOT_FOUND`
/// leaves the run its real result. `hl_engine_free` while the run blocks
/// cancels it: the run returns `HL_ERR_CANCELLED` promptly, and
/// `hl_engine_free` does not wait for it (as for `hl_engine_run`); the
/// handle must not be used after `hl_engine_free`.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_run_reserved(
    engine: *mut hl_engine,
    run_id: u64,
    event: hl_event,
    input_json: *const c_char,
    outcome_json: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[outcome_json], {
        let engine = unsafe { engine_arg(engine)? }.clone();
        let text = engine.run_reserved_with(run_id, |engine, run| {
            let out = string_out(outcome_json, "outcome_json")?;
            let event = event_arg(event)?;
            let input = unsafe { input_arg(input_json)? };
            Ok((out, engine.run_reserved_body(event, &input, run)?))
        })?;
        text.0.set(text.1);
        Ok(())
    })
}

/// Answer `event` in place when no hook (configured or callback) matches
/// it, without blocking: then `*ran` is true and `*outcome_json` receives
/// the outcome (free with `hl_string_free`), the same text `hl_engine_run`
/// would return. When some hook matches (an `async` one included), or
/// output of `async` hooks waits for the next outcome, nothing runs: `*ran` is false,
/// `*outcome_json` is NULL and the status is `HL_OK`; run the event with
/// `hl_engine_run_async` (or `hl_engine_run`). Inputs are validated as by
/// `hl_engine_run`. For hosts whose calling thread must stay free while
/// hooks run (an event loop): the common no-match case costs no hand-off
/// to a hookline thread.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_try_run_inline(
    engine: *mut hl_engine,
    event: hl_event,
    input_json: *const c_char,
    ran: *mut bool,
    outcome_json: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear [outcome_json, ran], {
        let engine = unsafe { engine_arg(engine)? };
        non_null(ran, "ran")?;
        let out = string_out(outcome_json, "outcome_json")?;
        let event = event_arg(event)?;
        let input = unsafe { input_arg(input_json)? };
        if let Some(text) = engine.outcome_if_no_hook_matches(event, &input)? {
            out.set(text.to_string());
            unsafe { *ran = true };
        }
        Ok(())
    })
}

/// Add a callback hook for `event`. `matcher` follows the Claude Code rule
/// (NULL, `""`, `"*"` match all; an invalid regex is
/// `HL_ERR_INVALID_ARGUMENT`); `name` is required and not blank; an
/// existing (event, name) is replaced in place (the old `free_user_data`
/// runs). The callback receives the hook payload JSON and replies like a
/// command hook: `hl_reply_set_json` = stdout JSON, `hl_reply_deny(msg)` =
/// exit 2 with `msg` on stderr, `hl_reply_allow` = `permissionDecision:
/// "allow"` for PreToolUse; a non-zero return = exit 1. On failure
/// `free_user_data` is not called (the caller keeps `user_data`).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_add_callback_hook(
    engine: *mut hl_engine,
    event: hl_event,
    matcher: *const c_char,
    name: *const c_char,
    cb: hl_callback_fn,
    user_data: *mut c_void,
    free_user_data: hl_free_fn,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear [], {
        let engine = unsafe { engine_arg(engine)? };
        let event = event_arg(event)?;
        let matcher = unsafe { opt_str_arg(matcher, "matcher")? };
        let name = unsafe { str_arg(name, "name")? };
        let callback = CCallback::new(cb, user_data, free_user_data)?;
        engine.try_add_callback_hook(event, matcher, name, callback).map_err(CCallback::hand_back)
    })
}

/// Set the host's handler for one hook type: `handler_type` is
/// `"prompt"`, `"agent"` or `"mcp_tool"` (anything else is
/// `HL_ERR_INVALID_ARGUMENT`). `cb` NULL removes the handler (then
/// `user_data` and `free_user_data` are not used). The callback receives a
/// request JSON (`docs/protocol.md`, "Prompt, agent and mcp_tool hooks") and
/// answers with `hl_reply_set_json`, or later with `hl_reply_defer`; a
/// non-zero return is a failure. The handler it replaces has its
/// `free_user_data` called exactly once, when no run uses it any more
/// (never during a call; a run in flight finishes with the handler it
/// started with). On failure `free_user_data` is not called.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_set_handler(
    engine: *mut hl_engine,
    handler_type: *const c_char,
    cb: hl_callback_fn,
    user_data: *mut c_void,
    free_user_data: hl_free_fn,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear [], {
        let engine = unsafe { engine_arg(engine)? };
        let name = unsafe { str_arg(handler_type, "handler_type")? };
        let kind = HandlerType::from_name(name).ok_or_else(|| {
            Error::invalid_argument(format!("unknown handler type {name:?}: the types are prompt, agent, mcp_tool"))
        })?;
        if cb.is_none() {
            return engine.set_handler(kind, None);
        }
        let callback = CCallback::new(cb, user_data, free_user_data)?;
        engine.try_set_handler(kind, callback).map_err(CCallback::hand_back)
    })
}

/// Swap the configuration (full options JSON as for `hl_engine_new`). The
/// approval carries over only when the digest is unchanged. A failed
/// reload changes nothing; runs in flight finish with their old config.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_reload(
    engine: *mut hl_engine,
    options_json: *const c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear [], {
        let engine = unsafe { engine_arg(engine)? };
        let text = unsafe { str_arg(options_json, "options_json")? };
        engine.reload_json(text)
    })
}

/// Set the transcript path given to hooks (NULL clears it).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_set_transcript_path(
    engine: *mut hl_engine,
    path_or_null: *const c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear [], {
        let engine = unsafe { engine_checked(engine)? };
        let path = unsafe { opt_str_arg(path_or_null, "path")? };
        engine.update_transcript_path(path);
        Ok(())
    })
}

/// Get the transcript path: `*path_or_null` receives a string to free with
/// `hl_string_free`, or NULL when none is set.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_transcript_path(
    engine: *mut hl_engine,
    path_or_null: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[path_or_null], {
        let engine = unsafe { engine_checked(engine)? };
        string_out(path_or_null, "path_or_null")?.set_opt(engine.transcript_path());
        Ok(())
    })
}

/// The lowercase hex SHA-256 digest of the configured command set (the
/// approval gate, `docs/protocol.md`). Free `*hex` with `hl_string_free`.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_command_digest(
    engine: *mut hl_engine,
    hex: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[hex], {
        let engine = unsafe { engine_checked(engine)? };
        string_out(hex, "hex")?.set(engine.command_digest());
        Ok(())
    })
}

/// The commands an approval covers, as a JSON array of
/// `{"event","matcher","command","timeout_seconds"}` in digest order.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_command_previews(
    engine: *mut hl_engine,
    previews_json: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[previews_json], {
        let engine = unsafe { engine_checked(engine)? };
        let out = string_out(previews_json, "previews_json")?;
        out.set(Error::to_json_string(&engine.command_previews(), "the previews")?);
        Ok(())
    })
}

/// The entries of the engine's hooks configuration that were skipped the
/// way the agent itself skips them (a malformed entry or an unknown `type`
/// in a Claude Code settings file), as a JSON array of
/// `{"path","message"}` in the order they were read (`[]` when none).
/// `path` names the entry (`hooks.PreToolUse[0].hooks[1]`, prefixed with
/// the file or `hook_sources[i]` it is in). Free `*warnings_json` with
/// `hl_string_free`.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_config_warnings(
    engine: *mut hl_engine,
    warnings_json: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear[warnings_json], {
        let engine = unsafe { engine_checked(engine)? };
        let out = string_out(warnings_json, "warnings_json")?;
        out.set(Error::to_json_string(&engine.config_warnings(), "the configuration warnings")?);
        Ok(())
    })
}

/// Approve the current command digest; with `persist` also record it in the
/// trust store (`HL_ERR_IO` and nothing approved if that fails).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_approve_workspace_hooks(
    engine: *mut hl_engine,
    persist: bool,
    errmsg: *mut *mut c_char,
) -> hl_status {
    ffi_status!(errmsg, clear [], { unsafe { engine_arg(engine)? }.approve_workspace_hooks(persist) })
}

/// Whether the engine gates workspace hooks (false for NULL).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_workspace_gated(engine: *mut hl_engine) -> bool {
    ffi_value!(false, { !engine.is_null() && unsafe { &(*engine).engine }.workspace_gated() })
}

/// Whether gated hooks still need approval (false for NULL, for an ungated
/// engine, and for a gated engine with no commands).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_workspace_hooks_need_approval(engine: *mut hl_engine) -> bool {
    ffi_value!(false, { !engine.is_null() && unsafe { &(*engine).engine }.workspace_hooks_need_approval() })
}

/// The event's name, e.g. `"PreToolUse"` (static; NULL if unknown).
#[no_mangle]
pub extern "C" fn hl_event_name(event: hl_event) -> *const c_char {
    ffi_value!(std::ptr::null(), { HookEvent::from_i32(event).map_or(std::ptr::null(), |e| e.c_name().as_ptr()) })
}
