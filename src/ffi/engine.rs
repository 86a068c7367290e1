//! C ABI for the engine (`hl_engine_*`, SPEC §5). Conversions only: every
//! rule lives in the core ([`crate::engine`]).

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use super::callback::CCallback;
use super::*;
use crate::engine::LifecycleHookEngine;
use crate::event::HookEvent;
use crate::runtime;

/// A lifecycle event number (a 32-bit integer; see the `HL_EVENT_*` constants).
pub type hl_event = i32;
/// SessionStart.
pub const HL_EVENT_SESSION_START: hl_event = 0;
/// SessionEnd.
pub const HL_EVENT_SESSION_END: hl_event = 1;
/// SubagentStart.
pub const HL_EVENT_SUBAGENT_START: hl_event = 2;
/// SubagentStop.
pub const HL_EVENT_SUBAGENT_STOP: hl_event = 3;
/// UserPromptSubmit.
pub const HL_EVENT_USER_PROMPT_SUBMIT: hl_event = 4;
/// PreToolUse.
pub const HL_EVENT_PRE_TOOL_USE: hl_event = 5;
/// PostToolUse.
pub const HL_EVENT_POST_TOOL_USE: hl_event = 6;
/// PermissionRequest.
pub const HL_EVENT_PERMISSION_REQUEST: hl_event = 7;
/// PreCompact.
pub const HL_EVENT_PRE_COMPACT: hl_event = 8;
/// Stop.
pub const HL_EVENT_STOP: hl_event = 9;
/// Notification.
pub const HL_EVENT_NOTIFICATION: hl_event = 10;
/// PostToolUseFailure.
pub const HL_EVENT_POST_TOOL_USE_FAILURE: hl_event = 11;

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

fn event_arg(event: hl_event) -> Result<HookEvent> {
    HookEvent::from_i32(event).ok_or_else(|| Error::invalid_argument(format!("unknown event value {event}")))
}

unsafe fn engine_arg<'a>(e: *const hl_engine) -> Result<&'a LifecycleHookEngine> {
    non_null(e, "engine")?;
    Ok(&(*e).engine)
}

unsafe fn input_arg(input_json: *const c_char) -> Result<serde_json::Value> {
    let text = str_arg(input_json, "input_json")?;
    Error::parse_json(text, "input_json")
}

/// Create an engine from options JSON (SPEC §5.1):
/// `{"workspace": "/abs/dir", "session_id": "s-1", "trigger": "startup",
/// "workspace_gated": false, "hooks": {...} | "hooks_toml": "..." |
/// "hooks_file": "path", "transcript_path": null, "trust_store": null,
/// "env": {}, "env_remove": [], "max_output_bytes": 1048576}`.
/// On success `*out` receives the engine; on failure `*out` is NULL.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_new(options_json: *const c_char, out: *mut *mut hl_engine, errmsg: *mut *mut c_char) -> hl_status {
    out_clear(out);
    call_status(errmsg, || {
        non_null(out, "out")?;
        let text = unsafe { str_arg(options_json, "options_json")? };
        let engine = LifecycleHookEngine::from_options_json(text)?;
        unsafe { out_write(out, Box::into_raw(Box::new(hl_engine { engine }))) };
        Ok(())
    })
}

/// Free an engine (NULL is a no-op). Pending asynchronous runs are
/// cancelled (their `done` receives `HL_ERR_CANCELLED`); this returns after
/// every pending `done` has been called, except when called from a hookline
/// thread (e.g. inside a `done`), where it does not wait.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_free(engine: *mut hl_engine) {
    guard((), || {
        if engine.is_null() {
            return;
        }
        let boxed = unsafe { Box::from_raw(engine) };
        boxed.engine.close();
        drop(boxed);
    })
}

/// Run one event synchronously: blocks the calling thread, runs callback
/// hooks on it, and returns the outcome JSON (SPEC §5.3) in
/// `*outcome_json` (free with `hl_string_free`). `input_json` is the event
/// input (SPEC §5.2; `"{}"` for SessionStart). Returns
/// `HL_ERR_WRONG_THREAD` on a hookline-owned thread (use
/// `hl_engine_run_async` there).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_run(
    engine: *mut hl_engine,
    event: hl_event,
    input_json: *const c_char,
    outcome_json: *mut *mut c_char,
    errmsg: *mut *mut c_char,
) -> hl_status {
    out_clear(outcome_json);
    call_status(errmsg, || {
        let engine = unsafe { engine_arg(engine)? }.clone();
        non_null(outcome_json, "outcome_json")?;
        let event = event_arg(event)?;
        let input = unsafe { input_arg(input_json)? };
        if runtime::on_hookline_thread() {
            return Err(Error::new(
                Status::WrongThread,
                "hl_engine_run blocks and cannot be called from a hookline thread; use hl_engine_run_async",
            ));
        }
        let text = engine.run_blocking_json(event, &input)?;
        unsafe { out_write(outcome_json, to_c_string(text)) };
        Ok(())
    })
}

struct DoneTarget {
    f: unsafe extern "C" fn(*mut c_void, hl_status, *const c_char, *const c_char),
    user_data: *mut c_void,
}
// SAFETY: the contract says `done` is called from a hookline thread; the
// host's user_data must tolerate that.
unsafe impl Send for DoneTarget {}

impl DoneTarget {
    fn call(self, result: Result<crate::interpret::HookOutcome>) {
        match result {
            Ok(outcome) => {
                let text = temp_c_string(&outcome.to_json_string());
                unsafe { (self.f)(self.user_data, HL_OK, text.as_ptr(), std::ptr::null()) }
            }
            Err(e) => {
                let msg = temp_c_string(&e.message);
                unsafe { (self.f)(self.user_data, e.status as hl_status, std::ptr::null(), msg.as_ptr()) }
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
    if !run_id.is_null() {
        unsafe { *run_id = 0 };
    }
    call_status(errmsg, || {
        let engine = unsafe { engine_arg(engine)? }.clone();
        let event = event_arg(event)?;
        let f = done.ok_or_else(|| Error::new(Status::NullArgument, "done must not be NULL"))?;
        let input = unsafe { input_arg(input_json)? };
        let target = DoneTarget { f, user_data };
        let id = engine.run_async(event, input, move |r| target.call(r))?;
        unsafe { out_write(run_id, id) };
        Ok(())
    })
}

/// Cancel an asynchronous run: kills its processes; its `done` receives
/// `HL_ERR_CANCELLED`. `HL_ERR_NOT_FOUND` if unknown or already finished.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_cancel(engine: *mut hl_engine, run_id: u64, errmsg: *mut *mut c_char) -> hl_status {
    call_status(errmsg, || unsafe { engine_arg(engine)? }.cancel(run_id))
}

/// Add a callback hook for `event` (SPEC §5.1). `matcher` follows the
/// Claude rule (NULL, `""`, `"*"` match all; an invalid regex is
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
    call_status(errmsg, || {
        let engine = unsafe { engine_arg(engine)? };
        engine.check_forked()?;
        let event = event_arg(event)?;
        let matcher = unsafe { opt_str_arg(matcher, "matcher")? };
        let name = unsafe { str_arg(name, "name")? };
        LifecycleHookEngine::validate_callback_hook(matcher, name)?;
        let callback = CCallback::new(cb, user_data, free_user_data)?;
        engine.add_callback_hook(event, matcher, name, Arc::new(callback))
    })
}

/// Swap the configuration (full options JSON as for `hl_engine_new`). The
/// approval carries over only when the digest is unchanged. A failed
/// reload changes nothing; runs in flight finish with their old config.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_reload(engine: *mut hl_engine, options_json: *const c_char, errmsg: *mut *mut c_char) -> hl_status {
    call_status(errmsg, || {
        let engine = unsafe { engine_arg(engine)? };
        let text = unsafe { str_arg(options_json, "options_json")? };
        engine.reload_json(text)
    })
}

/// Set the transcript path given to hooks (NULL clears it).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_set_transcript_path(engine: *mut hl_engine, path_or_null: *const c_char, errmsg: *mut *mut c_char) -> hl_status {
    call_status(errmsg, || {
        let engine = unsafe { engine_arg(engine)? };
        engine.check_forked()?;
        let path = unsafe { opt_str_arg(path_or_null, "path")? };
        engine.update_transcript_path(path);
        Ok(())
    })
}

/// Get the transcript path: `*path_or_null` receives a string to free with
/// `hl_string_free`, or NULL when none is set.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_transcript_path(engine: *mut hl_engine, path_or_null: *mut *mut c_char, errmsg: *mut *mut c_char) -> hl_status {
    out_clear(path_or_null);
    call_status(errmsg, || {
        let engine = unsafe { engine_arg(engine)? };
        non_null(path_or_null, "path_or_null")?;
        engine.check_forked()?;
        if let Some(p) = engine.transcript_path() {
            unsafe { out_write(path_or_null, to_c_string(p)) };
        }
        Ok(())
    })
}

/// The lowercase hex SHA-256 digest of the configured command set
/// (SPEC §5.6). Free `*hex` with `hl_string_free`.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_command_digest(engine: *mut hl_engine, hex: *mut *mut c_char, errmsg: *mut *mut c_char) -> hl_status {
    out_clear(hex);
    call_status(errmsg, || {
        let engine = unsafe { engine_arg(engine)? };
        non_null(hex, "hex")?;
        engine.check_forked()?;
        unsafe { out_write(hex, to_c_string(engine.command_digest())) };
        Ok(())
    })
}

/// The commands an approval covers, as a JSON array of
/// `{"event","matcher","command","timeout_seconds"}` in digest order.
#[no_mangle]
pub unsafe extern "C" fn hl_engine_command_previews(engine: *mut hl_engine, previews_json: *mut *mut c_char, errmsg: *mut *mut c_char) -> hl_status {
    out_clear(previews_json);
    call_status(errmsg, || {
        let engine = unsafe { engine_arg(engine)? };
        non_null(previews_json, "previews_json")?;
        engine.check_forked()?;
        let text = serde_json::to_string(&engine.command_previews())
            .map_err(|e| Error::new(Status::Panic, format!("cannot serialise previews: {e}")))?;
        unsafe { out_write(previews_json, to_c_string(text)) };
        Ok(())
    })
}

/// Approve the current command digest; with `persist` also record it in the
/// trust store (`HL_ERR_IO` and nothing approved if that fails).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_approve_workspace_hooks(engine: *mut hl_engine, persist: bool, errmsg: *mut *mut c_char) -> hl_status {
    call_status(errmsg, || unsafe { engine_arg(engine)? }.approve_workspace_hooks(persist))
}

/// Whether the engine gates workspace hooks (false for NULL).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_workspace_gated(engine: *mut hl_engine) -> bool {
    guard(false, || !engine.is_null() && unsafe { &(*engine).engine }.workspace_gated())
}

/// Whether gated hooks still need approval (false for NULL, for an ungated
/// engine, and for a gated engine with no commands).
#[no_mangle]
pub unsafe extern "C" fn hl_engine_workspace_hooks_need_approval(engine: *mut hl_engine) -> bool {
    guard(false, || !engine.is_null() && unsafe { &(*engine).engine }.workspace_hooks_need_approval())
}

/// The event's name, e.g. `"PreToolUse"` (static; NULL if unknown).
#[no_mangle]
pub extern "C" fn hl_event_name(event: hl_event) -> *const c_char {
    guard(std::ptr::null(), || match HookEvent::from_i32(event) {
        Some(e) => event_name_c(e),
        None => std::ptr::null(),
    })
}

fn event_name_c(e: HookEvent) -> *const c_char {
    macro_rules! lit {
        ($($v:ident),*) => { match e { $(HookEvent::$v => concat!(stringify!($v), "\0").as_ptr() as *const c_char),* } };
    }
    lit!(SessionStart, SessionEnd, SubagentStart, SubagentStop, UserPromptSubmit, PreToolUse, PostToolUse,
         PermissionRequest, PreCompact, Stop, Notification, PostToolUseFailure)
}
