//! Fuzz the C entry points with arbitrary bytes, through the crate's
//! `hookline::ffi` module (the functions C hosts call).
//!
//! Input: `[selector] [enum byte] [mode byte] s1 [0x00 s2 [0x00 s3]]`: the
//! strings are raw bytes (invalid UTF-8 included), NUL-terminated as a C
//! host would pass them. Selector (modulo 8):
//!
//! 0. `hl_engine_new(s1)`, then the digest, previews and flag getters.
//! 1. `hl_engine_run` on an engine with no hooks (event from the enum byte,
//!    out-of-range values included), input `s1`.
//! 2. `hl_engine_run` on an engine with a callback hook at every event; the
//!    callback replies according to the mode byte with `s2`.
//! 3. `hl_registry_run(point, s1)` on a registry with a C callback at every
//!    point replying according to the mode byte with `s2`.
//! 4. `hl_reply_set_json` / `hl_reply_deny` with `s1` inside a registry
//!    callback, on a valid context for the point.
//! 5. `hl_engine_reload(s1)` on an engine that is never run.
//! 6. `hl_engine_add_callback_hook(event, matcher s1 or NULL, name s2)` on a
//!    fresh engine, a PreToolUse run with tool name `s3`, then free.
//! 7. `hl_engine_set_transcript_path(s1 or NULL)` and read it back.
//!
//! No input ever reaches a shell: engines that run have no configured
//! commands, and engines built from fuzzed options are never run.
//!
//! Oracles (docs/c-api.md §1): a status is a known value and never `HL_ERR_PANIC`;
//! `*errmsg` is NULL exactly on success; pointer outputs are NULL on
//! failure and valid JSON on success; the status class follows the input
//! (unknown enum → INVALID_ARGUMENT, non-UTF-8 → INVALID_UTF8, malformed
//! JSON → INVALID_JSON); callbacks get a NUL-terminated context of the
//! given length that is a JSON object; `free_user_data` runs exactly once
//! per successful registration and never for a failed one.
#![no_main]

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use hookline::ffi::common::{hl_reply_allow, hl_reply_deny, hl_reply_set_json, hl_string_free};
use hookline::ffi::engine::*;
use hookline::ffi::registry::*;
use hookline::ffi::*;
use hookline::HookEvent;
use hookline_fuzz::{check_outcome, enum_arg};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// What callbacks do in the current iteration: mode byte and text.
static REPLY: Mutex<Option<(u8, CString)>> = Mutex::new(None);
static FREED: AtomicUsize = AtomicUsize::new(0);

struct Handle<T>(*mut T);
// SAFETY: hookline handles may be used from any thread (docs/c-api.md §1).
unsafe impl<T> Send for Handle<T> {}
unsafe impl<T> Sync for Handle<T> {}

fn workspace() -> &'static str {
    static DIR: OnceLock<String> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("hookline-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create the fuzz workspace");
        dir.to_str().expect("UTF-8 temp dir").to_owned()
    })
}

fn options() -> CString {
    let ws = workspace();
    let v = serde_json::json!({"workspace": ws, "session_id": "fuzz", "trust_store": format!("{ws}/trust.json")});
    CString::new(v.to_string()).unwrap()
}

fn new_engine() -> *mut hl_engine {
    let mut e = ptr::null_mut();
    let mut err = ptr::null_mut();
    let st = unsafe { hl_engine_new(options().as_ptr(), &mut e, &mut err) };
    assert_eq!(st, HL_OK, "engine: {}", unsafe { msg(err) });
    e
}

unsafe fn msg(p: *mut c_char) -> String {
    if p.is_null() {
        "(null)".into()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

fn empty_engine() -> *mut hl_engine {
    static E: OnceLock<Handle<hl_engine>> = OnceLock::new();
    E.get_or_init(|| Handle(new_engine())).0
}

fn reload_engine() -> *mut hl_engine {
    static E: OnceLock<Handle<hl_engine>> = OnceLock::new();
    E.get_or_init(|| Handle(new_engine())).0
}

fn callback_engine() -> *mut hl_engine {
    static E: OnceLock<Handle<hl_engine>> = OnceLock::new();
    E.get_or_init(|| {
        let e = new_engine();
        for ev in 0..EVENTS {
            let mut err = ptr::null_mut();
            let st = unsafe {
                hl_engine_add_callback_hook(
                    e,
                    ev,
                    ptr::null(),
                    c"cb".as_ptr(),
                    Some(reply_cb),
                    ptr::null_mut(),
                    None,
                    &mut err,
                )
            };
            assert_eq!(st, HL_OK);
        }
        Handle(e)
    })
    .0
}

fn registry() -> *mut hl_registry {
    static R: OnceLock<Handle<hl_registry>> = OnceLock::new();
    R.get_or_init(|| {
        let r = hl_registry_new();
        for p in 0..POINTS as i32 {
            let mut err = ptr::null_mut();
            let st =
                unsafe { hl_registry_register(r, p, c"cb".as_ptr(), Some(reply_cb), ptr::null_mut(), None, &mut err) };
            assert_eq!(st, HL_OK);
        }
        Handle(r)
    })
    .0
}

/// The status `hl_reply_set_json` must give for `text` (docs/c-api.md §4).
fn json_class(text: &CStr) -> hl_status {
    match text.to_str() {
        Err(_) => HL_ERR_INVALID_UTF8,
        Ok(s) => match serde_json::from_str::<Value>(s) {
            Ok(_) => HL_OK,
            Err(_) => HL_ERR_INVALID_JSON,
        },
    }
}

unsafe extern "C" fn reply_cb(_ud: *mut c_void, ctx: *const c_char, len: usize, reply: *mut hl_reply) -> i32 {
    assert!(!ctx.is_null(), "context_json is NULL");
    let c = CStr::from_ptr(ctx);
    assert_eq!(c.to_bytes().len(), len, "context_len is not the length of context_json");
    let v: Value = serde_json::from_slice(c.to_bytes()).expect("context_json is JSON");
    assert!(v.is_object(), "context_json is not an object: {v}");
    let guard = REPLY.lock().unwrap();
    let Some((mode, text)) = guard.as_ref() else { return 0 };
    let mut err = ptr::null_mut();
    match mode % 6 {
        0 => {
            let st = hl_reply_set_json(reply, text.as_ptr(), &mut err);
            assert_eq!(st, json_class(text), "hl_reply_set_json: {}", msg(err));
            assert_eq!(st == HL_OK, err.is_null());
            hl_string_free(err);
        }
        1 => assert_eq!(hl_reply_allow(reply), HL_OK),
        2 => {
            let want = if text.to_str().is_ok() { HL_OK } else { HL_ERR_INVALID_UTF8 };
            assert_eq!(hl_reply_deny(reply, text.as_ptr()), want);
        }
        3 => return 1,
        4 => {}
        _ => {
            let st = hl_reply_set_json(reply, text.as_ptr(), &mut err);
            hl_string_free(err);
            assert_eq!(st, json_class(text));
            assert_eq!(hl_reply_deny(reply, ptr::null()), HL_OK);
        }
    }
    0
}

unsafe extern "C" fn count_free(_ud: *mut c_void) {
    FREED.fetch_add(1, Ordering::SeqCst);
}

/// Check the common status rules and return (status, owned output text).
unsafe fn finish(st: hl_status, out: *mut c_char, err: *mut c_char, what: &str) -> Option<String> {
    assert!((0..=12).contains(&st), "{what}: unknown status {st}");
    assert_ne!(st, HL_ERR_PANIC, "{what}: panic reached the boundary: {}", msg(err));
    let text =
        if out.is_null() { None } else { Some(CStr::from_ptr(out).to_str().expect("output is UTF-8").to_owned()) };
    if st == HL_OK {
        assert!(err.is_null(), "{what}: errmsg set on success");
    } else {
        assert!(!err.is_null(), "{what}: no errmsg on failure ({st})");
        assert!(out.is_null(), "{what}: output set on failure");
        assert!(!msg(err).is_empty(), "{what}: empty errmsg");
    }
    hl_string_free(out);
    hl_string_free(err);
    text
}

/// The status an input string must give before any semantic check.
fn text_class(s: &CStr) -> Option<hl_status> {
    match s.to_str() {
        Err(_) => Some(HL_ERR_INVALID_UTF8),
        Ok(t) if serde_json::from_str::<Value>(t).is_err() => Some(HL_ERR_INVALID_JSON),
        Ok(_) => None,
    }
}

unsafe fn run(engine: *mut hl_engine, event: i32, input: &CStr, max_hooks: usize) {
    let mut out = ptr::null_mut();
    let mut err = ptr::null_mut();
    let st = hl_engine_run(engine, event, input.as_ptr(), &mut out, &mut err);
    let text = finish(st, out, err, "hl_engine_run");
    let Some(ev) = HookEvent::from_i32(event) else {
        assert_eq!(st, HL_ERR_INVALID_ARGUMENT, "unknown event {event}");
        return;
    };
    match text_class(input) {
        Some(want) => assert_eq!(st, want),
        None => assert!(st == HL_OK || st == HL_ERR_INVALID_ARGUMENT, "hl_engine_run status {st}"),
    }
    if let Some(t) = text {
        let v: Value = serde_json::from_str(&t).expect("outcome is JSON");
        check_outcome(ev, &v, None);
        assert!(v["hooks"].as_array().unwrap().len() <= max_hooks);
    }
}

unsafe fn registry_run(point: i32, ctx: &CStr) {
    let mut out = ptr::null_mut();
    let mut err = ptr::null_mut();
    let st = hl_registry_run(registry(), point, ctx.as_ptr(), &mut out, &mut err);
    let text = finish(st, out, err, "hl_registry_run");
    if !(0..POINTS as i32).contains(&point) {
        assert_eq!(st, HL_ERR_INVALID_ARGUMENT, "unknown point {point}");
        return;
    }
    match text_class(ctx) {
        Some(want) => assert_eq!(st, want),
        None => assert!(st == HL_OK || st == HL_ERR_INVALID_ARGUMENT, "hl_registry_run status {st}"),
    }
    if let Some(t) = text {
        let v: Value = serde_json::from_str(&t).expect("result is JSON");
        assert!(v["allow"].is_boolean() && v["message"].is_string() && v["errors"].is_array(), "{v}");
        assert!(v.get("tool_args").is_some());
    }
}

/// How many `hl_event` values there are.
const EVENTS: i32 = HookEvent::ALL.len() as i32;
/// How many `hl_hook_point` values there are.
const POINTS: usize = hookline::HookPoint::ALL.len();

const VALID_CONTEXTS: [&CStr; POINTS] = [
    cr#"{"prompt":"p","turn_number":1}"#,
    cr#"{"response_text":"r","turn_number":1}"#,
    cr#"{"tool_name":"Bash","tool_args":{"command":"ls"}}"#,
    cr#"{"tool_name":"Bash","tool_args":{},"result":"ok"}"#,
    c"{}",
    cr#"{"session":{"session_id":"s","agent_id":1}}"#,
    cr#"{"session":{"session_id":"s","agent_id":1}}"#,
    cr#"{"tool_name":"Bash","error":"boom"}"#,
    cr#"{"message":"hi"}"#,
    cr#"{"name":"Bash","args":[1]}"#,
    cr#"{"response_text":"done"}"#,
];

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (sel, eb, mode) = (data[0], data[1], data[2]);
    // A C host's string ends at its first NUL: the third part stops there too.
    let mut parts = data[3..]
        .splitn(3, |&b| b == 0)
        .map(|p| CString::new(p.split(|&b| b == 0).next().unwrap_or_default()).unwrap());
    let s1 = parts.next().unwrap_or_default();
    let s2 = parts.next();
    let s3 = parts.next();
    *REPLY.lock().unwrap() = None;
    unsafe {
        match sel % 8 {
            0 => {
                let mut e = ptr::null_mut();
                let mut err = ptr::null_mut();
                let st = hl_engine_new(s1.as_ptr(), &mut e, &mut err);
                assert_eq!(st == HL_OK, !e.is_null(), "engine out vs status {st}");
                finish(st, ptr::null_mut(), err, "hl_engine_new");
                if let Some(want) = text_class(&s1) {
                    assert_eq!(st, want);
                }
                assert!(
                    matches!(
                        st,
                        HL_OK
                            | HL_ERR_INVALID_UTF8
                            | HL_ERR_INVALID_JSON
                            | HL_ERR_INVALID_ARGUMENT
                            | HL_ERR_INVALID_CONFIG
                            | HL_ERR_IO
                    ),
                    "hl_engine_new status {st}"
                );
                if !e.is_null() {
                    inspect(e);
                    hl_engine_free(e);
                }
            }
            1 => run(empty_engine(), enum_arg(eb, EVENTS), &s1, 0),
            2 => {
                *REPLY.lock().unwrap() = Some((mode, s2.unwrap_or_default()));
                run(callback_engine(), enum_arg(eb, EVENTS), &s1, 1);
            }
            3 => {
                *REPLY.lock().unwrap() = Some((mode, s2.unwrap_or_default()));
                registry_run(enum_arg(eb, POINTS as i32), &s1);
            }
            4 => {
                let point = usize::from(eb) % POINTS;
                *REPLY.lock().unwrap() = Some((if mode % 2 == 0 { 0 } else { 5 }, s1));
                registry_run(point as i32, VALID_CONTEXTS[point]);
            }
            5 => {
                let mut err = ptr::null_mut();
                let st = hl_engine_reload(reload_engine(), s1.as_ptr(), &mut err);
                finish(st, ptr::null_mut(), err, "hl_engine_reload");
                if let Some(want) = text_class(&s1) {
                    assert_eq!(st, want);
                }
                inspect(reload_engine());
            }
            6 => {
                let e = new_engine();
                let before = FREED.load(Ordering::SeqCst);
                let matcher = if mode & 1 == 1 { ptr::null() } else { s1.as_ptr() };
                let name = s2.unwrap_or_default();
                let mut err = ptr::null_mut();
                let event = enum_arg(eb, EVENTS);
                let st = hl_engine_add_callback_hook(
                    e,
                    event,
                    matcher,
                    name.as_ptr(),
                    Some(reply_cb),
                    ptr::null_mut(),
                    Some(count_free),
                    &mut err,
                );
                finish(st, ptr::null_mut(), err, "hl_engine_add_callback_hook");
                assert_eq!(FREED.load(Ordering::SeqCst), before, "free_user_data ran before the engine was freed");
                if HookEvent::from_i32(event).is_none() {
                    assert_eq!(st, HL_ERR_INVALID_ARGUMENT);
                } else if (!matcher.is_null() && s1.to_str().is_err()) || name.to_str().is_err() {
                    assert_eq!(st, HL_ERR_INVALID_UTF8);
                } else if name.to_str().unwrap().trim().is_empty() {
                    assert_eq!(st, HL_ERR_INVALID_ARGUMENT, "blank name accepted");
                }
                let tool = String::from_utf8_lossy(s3.as_deref().map(CStr::to_bytes).unwrap_or(b"Bash")).into_owned();
                let input = CString::new(serde_json::json!({"tool_name": tool}).to_string()).unwrap();
                run(e, HL_EVENT_PRE_TOOL_USE, &input, 1);
                hl_engine_free(e);
                let want = before + usize::from(st == HL_OK);
                assert_eq!(
                    FREED.load(Ordering::SeqCst),
                    want,
                    "free_user_data must run once per successful registration"
                );
            }
            _ => {
                let e = empty_engine();
                let path = if mode & 1 == 1 { None } else { Some(&s1) };
                let mut err = ptr::null_mut();
                let st = hl_engine_set_transcript_path(e, path.map_or(ptr::null(), |p| p.as_ptr()), &mut err);
                finish(st, ptr::null_mut(), err, "hl_engine_set_transcript_path");
                let valid = path.is_none_or(|p| p.to_str().is_ok());
                assert_eq!(st == HL_OK, valid, "set_transcript_path status {st}");
                let mut out = ptr::null_mut();
                let st2 = hl_engine_transcript_path(e, &mut out, &mut err);
                let got = finish(st2, out, err, "hl_engine_transcript_path");
                assert_eq!(st2, HL_OK);
                if st == HL_OK {
                    assert_eq!(got.as_deref(), path.map(|p| p.to_str().unwrap()), "transcript path round trip");
                }
                // Leave the shared engine without a transcript path.
                hl_engine_set_transcript_path(e, ptr::null(), ptr::null_mut());
            }
        }
    }
});

/// Call the read-only getters of an engine and check their answers.
unsafe fn inspect(e: *mut hl_engine) {
    let mut out = ptr::null_mut();
    let mut err = ptr::null_mut();
    let st = hl_engine_command_digest(e, &mut out, &mut err);
    let hex = finish(st, out, err, "hl_engine_command_digest").expect("digest");
    assert!(hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')), "digest {hex}");
    let st = hl_engine_command_previews(e, &mut out, &mut err);
    let previews = finish(st, out, err, "hl_engine_command_previews").expect("previews");
    let v: Value = serde_json::from_str(&previews).expect("previews are JSON");
    assert!(v.is_array());
    let gated = hl_engine_workspace_gated(e);
    let need = hl_engine_workspace_hooks_need_approval(e);
    assert!(gated || !need, "an ungated engine never needs approval");
    if v.as_array().unwrap().is_empty() {
        assert!(!need, "no commands never need approval");
    }
}
