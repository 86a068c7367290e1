//! Regression tests for what fuzzing found, and the bad-input cells of the
//! hardening index (docs/hardening.md) that no other suite covered.
//!
//! The C entry points are called through the crate's `hookline::ffi`
//! module, exactly as a C host calls them: NUL-terminated byte strings,
//! out-pointers, `errmsg`. Each test is named after the rule it proves.

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use hookline::ffi::common::{hl_reply_deny, hl_reply_set_json, hl_string_free};
use hookline::ffi::engine::*;
use hookline::ffi::registry::*;
use hookline::ffi::*;

const SIXTY_FOUR_MIB: usize = 64 << 20;

/// Take an output string (freeing it with `hl_string_free`).
fn take(p: *mut c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    unsafe { hl_string_free(p) };
    Some(s)
}

fn cstr(s: &str) -> CString {
    CString::new(s).unwrap()
}

fn engine(dir: &std::path::Path) -> *mut hl_engine {
    let opts = serde_json::json!({
        "workspace": dir.to_str().unwrap(),
        "session_id": "s-fuzz",
        "trust_store": dir.join("trust.json").to_str().unwrap(),
    });
    let opts = cstr(&opts.to_string());
    let mut e = ptr::null_mut();
    let mut err = ptr::null_mut();
    let st = unsafe { hl_engine_new(opts.as_ptr(), &mut e, &mut err) };
    assert_eq!(st, HL_OK, "{:?}", take(err));
    e
}

fn deep(depth: usize) -> CString {
    let mut s = "[".repeat(depth);
    s.push_str(&"]".repeat(depth));
    CString::new(s).unwrap()
}

// ── hl_engine_run_async: validation is synchronous, done is never called ──

static DONE_CALLS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn count_done(_ud: *mut c_void, _st: hl_status, _o: *const c_char, _m: *const c_char) {
    DONE_CALLS.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn run_async_bad_input_fails_synchronously_and_never_calls_done() {
    let dir = tempfile::tempdir().unwrap();
    let e = engine(dir.path());
    let pre = cstr(r#"{"tool_name":"Bash"}"#);
    let cases: Vec<(&str, i32, Option<CString>, bool, hl_status)> = vec![
        ("NULL input", HL_EVENT_PRE_TOOL_USE, None, true, HL_ERR_NULL_ARGUMENT),
        ("NULL done", HL_EVENT_PRE_TOOL_USE, Some(pre.clone()), false, HL_ERR_NULL_ARGUMENT),
        (
            "invalid UTF-8",
            HL_EVENT_PRE_TOOL_USE,
            Some(CString::new(&b"{\"tool_name\":\"\xff\"}"[..]).unwrap()),
            true,
            HL_ERR_INVALID_UTF8,
        ),
        ("malformed JSON", HL_EVENT_PRE_TOOL_USE, Some(cstr(r#"{"tool_name":"#)), true, HL_ERR_INVALID_JSON),
        ("100 000 deep", HL_EVENT_SESSION_START, Some(deep(100_000)), true, HL_ERR_INVALID_JSON),
        ("not an object", HL_EVENT_SESSION_START, Some(cstr("[]")), true, HL_ERR_INVALID_ARGUMENT),
        ("missing field", HL_EVENT_PRE_TOOL_USE, Some(cstr("{}")), true, HL_ERR_INVALID_ARGUMENT),
        (
            "wrong type",
            HL_EVENT_STOP,
            Some(cstr(r#"{"last_assistant_message":1,"stop_hook_active":false}"#)),
            true,
            HL_ERR_INVALID_ARGUMENT,
        ),
        ("unknown event", 12, Some(pre.clone()), true, HL_ERR_INVALID_ARGUMENT),
        ("negative event", -1, Some(pre.clone()), true, HL_ERR_INVALID_ARGUMENT),
    ];
    for (what, event, input, with_done, want) in cases {
        let done: hl_done_fn = if with_done { Some(count_done) } else { None };
        let mut id: u64 = 77;
        let mut err = ptr::null_mut();
        let st = unsafe {
            hl_engine_run_async(
                e,
                event,
                input.as_ref().map_or(ptr::null(), |c| c.as_ptr()),
                done,
                ptr::null_mut(),
                &mut id,
                &mut err,
            )
        };
        assert_eq!(st, want, "{what}: {:?}", take(err));
        assert!(take(err).is_some_and(|m| !m.is_empty()), "{what}: no error message");
        assert_eq!(id, 0, "{what}: run_id not cleared on failure");
    }
    unsafe { hl_engine_free(e) };
    assert_eq!(DONE_CALLS.load(Ordering::SeqCst), 0, "done called for a run that failed validation");
}

// ── 64 MiB strings on the entry points the C suites do not feed them to ──

#[test]
fn sixty_four_mib_strings_work_or_fail_with_a_status_on_engine_string_arguments() {
    let _memory = crate::support::memory_lock();
    let dir = tempfile::tempdir().unwrap();
    let e = engine(dir.path());
    let big = CString::new(vec![b'a'; SIXTY_FOUR_MIB]).unwrap();

    // Transcript path: accepted and returned intact.
    let mut err = ptr::null_mut();
    assert_eq!(unsafe { hl_engine_set_transcript_path(e, big.as_ptr(), &mut err) }, HL_OK, "{:?}", take(err));
    let mut out = ptr::null_mut();
    assert_eq!(unsafe { hl_engine_transcript_path(e, &mut out, ptr::null_mut()) }, HL_OK);
    assert_eq!(take(out).map(|s| s.len()), Some(SIXTY_FOUR_MIB));

    // Callback hook name and matcher (a 64 MiB literal name list).
    let st = unsafe {
        hl_engine_add_callback_hook(
            e,
            HL_EVENT_STOP,
            big.as_ptr(),
            big.as_ptr(),
            Some(noop_cb),
            ptr::null_mut(),
            None,
            &mut err,
        )
    };
    assert!(st == HL_OK || (st != HL_ERR_PANIC && take(err).is_some()), "add_callback_hook: {st}");

    // Reload with 64 MiB options: a status, and a failed reload changes nothing.
    let mut digest_before = ptr::null_mut();
    assert_eq!(unsafe { hl_engine_command_digest(e, &mut digest_before, ptr::null_mut()) }, HL_OK);
    let digest_before = take(digest_before);
    let st = unsafe { hl_engine_reload(e, big.as_ptr(), &mut err) };
    assert_eq!(st, HL_ERR_INVALID_JSON, "{:?}", take(err));
    let mut digest_after = ptr::null_mut();
    assert_eq!(unsafe { hl_engine_command_digest(e, &mut digest_after, ptr::null_mut()) }, HL_OK);
    assert_eq!(take(digest_after), digest_before);
    unsafe { hl_engine_free(e) };
}

unsafe extern "C" fn noop_cb(_ud: *mut c_void, _c: *const c_char, _l: usize, _r: *mut hl_reply) -> i32 {
    0
}

static BIG_REPLY_STATUS: AtomicUsize = AtomicUsize::new(usize::MAX);

unsafe extern "C" fn big_reply_cb(_ud: *mut c_void, _c: *const c_char, _l: usize, reply: *mut hl_reply) -> i32 {
    // A 64 MiB JSON string as the reply, then a 64 MiB deny message.
    let mut json = Vec::with_capacity(SIXTY_FOUR_MIB + 2);
    json.push(b'"');
    json.extend(std::iter::repeat_n(b'r', SIXTY_FOUR_MIB));
    json.push(b'"');
    let json = CString::new(json).unwrap();
    let mut err = ptr::null_mut();
    let st = hl_reply_set_json(reply, json.as_ptr(), &mut err);
    take(err);
    BIG_REPLY_STATUS.store(st as usize, Ordering::SeqCst);
    let msg = CString::new(vec![b'm'; SIXTY_FOUR_MIB]).unwrap();
    hl_reply_deny(reply, msg.as_ptr());
    0
}

#[test]
fn sixty_four_mib_reply_and_deny_message_work_or_fail_with_a_status() {
    let _memory = crate::support::memory_lock();
    let r = hl_registry_new();
    let name = c"big";
    assert_eq!(
        unsafe {
            hl_registry_register(
                r,
                HL_POINT_PRE_TURN,
                name.as_ptr(),
                Some(big_reply_cb),
                ptr::null_mut(),
                None,
                ptr::null_mut(),
            )
        },
        HL_OK
    );
    let ctx = cr#"{"prompt":"p","turn_number":1}"#;
    let mut out = ptr::null_mut();
    let mut err = ptr::null_mut();
    let st = unsafe { hl_registry_run(r, HL_POINT_PRE_TURN, ctx.as_ptr(), &mut out, &mut err) };
    assert_eq!(st, HL_OK, "{:?}", take(err));
    assert_eq!(BIG_REPLY_STATUS.load(Ordering::SeqCst), HL_OK as usize);
    let result: serde_json::Value = serde_json::from_str(&take(out).unwrap()).unwrap();
    assert_eq!(result["allow"], false);
    assert_eq!(result["message"].as_str().map(str::len), Some(SIXTY_FOUR_MIB), "the last reply (deny) wins");
    // A 64 MiB name to unregister: not found, with a message.
    let big = CString::new(vec![b'n'; SIXTY_FOUR_MIB]).unwrap();
    let st = unsafe { hl_registry_unregister(r, HL_POINT_PRE_TURN, big.as_ptr(), &mut err) };
    assert_eq!(st, HL_ERR_NOT_FOUND);
    assert!(take(err).is_some());
    unsafe { hl_registry_free(r) };
}

// ── Huge regex matchers must fail with a status, not exhaust memory ──
//
// Finding (fuzzing, 64 MiB bad-input sweep): compiling a regex matcher
// costs ~370 bytes of memory per byte of pattern before the regex size
// limit rejects it, so a 64 MiB matcher (`(.....)`) needs ~24 GiB and the
// host is OOM-killed instead of getting HL_ERR_INVALID_ARGUMENT /
// HL_ERR_INVALID_CONFIG. These tests run the call in a child process whose
// address space is capped, so the bug fails the test instead of taking the
// machine's memory.

const CHILD_ENV: &str = "HOOKLINE_FUZZ_REGRESSION_CHILD";
const CHILD_ADDRESS_SPACE: u64 = 3 << 30;

/// Run `body` in a re-executed copy of this test binary limited to
/// `CHILD_ADDRESS_SPACE` bytes of address space; pass when it returns.
fn in_memory_capped_child(test_name: &str, body: impl FnOnce()) {
    if std::env::var_os(CHILD_ENV).is_some() {
        let lim = libc::rlimit { rlim_cur: CHILD_ADDRESS_SPACE, rlim_max: CHILD_ADDRESS_SPACE };
        assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &lim) }, 0);
        body();
        return;
    }
    let test_name = &crate::support::test_name(module_path!(), test_name);
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test_name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, "1")
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{test_name} failed or ran out of its {} GiB address space ({:?}):\n{}",
        CHILD_ADDRESS_SPACE >> 30,
        out.status,
        &log[log.len().saturating_sub(2000)..]
    );
    // The child must really have run the test (not filtered it out).
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"), "child did not run {test_name}");
}

/// `(` + 64 MiB of `.` + `)`: a regex in both matcher dialects.
fn huge_regex() -> String {
    let mut p = String::with_capacity(SIXTY_FOUR_MIB + 2);
    p.push('(');
    p.extend(std::iter::repeat_n('.', SIXTY_FOUR_MIB));
    p.push(')');
    p
}

#[test]
fn sixty_four_mib_regex_matcher_of_a_callback_hook_is_invalid_argument_not_out_of_memory() {
    in_memory_capped_child(
        "sixty_four_mib_regex_matcher_of_a_callback_hook_is_invalid_argument_not_out_of_memory",
        || {
            let dir = tempfile::tempdir().unwrap();
            let e = engine(dir.path());
            let regex = cstr(&huge_regex());
            let mut err = ptr::null_mut();
            let st = unsafe {
                hl_engine_add_callback_hook(
                    e,
                    HL_EVENT_STOP,
                    regex.as_ptr(),
                    c"re".as_ptr(),
                    Some(noop_cb),
                    ptr::null_mut(),
                    None,
                    &mut err,
                )
            };
            let msg = take(err);
            assert_eq!(st, HL_ERR_INVALID_ARGUMENT, "regex matcher: {msg:?}");
            let msg = msg.expect("an error message");
            assert!(msg.contains("matcher"), "the message names the matcher: {msg}");
            unsafe { hl_engine_free(e) };
        },
    );
}

#[test]
fn sixty_four_mib_regex_matcher_in_a_hooks_config_is_invalid_config_not_out_of_memory() {
    in_memory_capped_child(
        "sixty_four_mib_regex_matcher_in_a_hooks_config_is_invalid_config_not_out_of_memory",
        || {
            let dir = tempfile::tempdir().unwrap();
            let matcher = huge_regex();
            // VT Code rejects the configuration; Claude Code skips the group
            // with a configuration warning naming the matcher.
            for (hooks, rejects) in [
                (serde_json::json!({"PreToolUse": [{"matcher": matcher, "hooks": [{"command": "true"}]}]}), false),
                (
                    serde_json::json!({"lifecycle": {"pre_tool_use": [{"matcher": matcher, "hooks": [{"command": "true"}]}]}}),
                    true,
                ),
            ] {
                let opts =
                    serde_json::json!({"workspace": dir.path().to_str().unwrap(), "session_id": "s", "hooks": hooks});
                let opts = cstr(&opts.to_string());
                let mut e = ptr::null_mut();
                let mut err = ptr::null_mut();
                let st = unsafe { hl_engine_new(opts.as_ptr(), &mut e, &mut err) };
                let msg = take(err);
                let msg = if rejects {
                    assert_eq!(st, HL_ERR_INVALID_CONFIG, "hooks config: {msg:?}");
                    assert!(e.is_null(), "no engine on failure");
                    msg.expect("an error message")
                } else {
                    assert_eq!(st, HL_OK, "hooks config: {msg:?}");
                    let mut warnings = ptr::null_mut();
                    let st = unsafe { hl_engine_config_warnings(e, &mut warnings, ptr::null_mut()) };
                    assert_eq!(st, HL_OK);
                    take(warnings).expect("warnings")
                };
                assert!(msg.contains("matcher"), "the message names the matcher: {msg}");
                unsafe { hl_engine_free(e) };
            }
        },
    );
}
