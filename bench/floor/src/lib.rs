//! The floor of benchmark scenario 2: what parsing and serialising a
//! `pre_tool_call_decide` context costs with serde_json alone (no hookline).
//! The C driver (`bench/c/hlbench.c`) loads this library and times
//! [`hlbench_floor_roundtrip`] in the same process and rounds as
//! `hl_registry_run`.

use std::hint::black_box;

/// Parse `len` bytes at `text` (UTF-8 JSON) into a `serde_json::Value` and
/// serialise it back to a `String`, like hookline does with a C string
/// (UTF-8 check, parse, serialise). Returns the length of the serialised
/// text, or 0 when the input is not valid UTF-8 JSON.
///
/// # Safety
/// `text` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn hlbench_floor_roundtrip(text: *const u8, len: usize) -> usize {
    // SAFETY: the caller passes `len` readable bytes.
    let bytes = unsafe { std::slice::from_raw_parts(text, len) };
    let Ok(s) = std::str::from_utf8(bytes) else { return 0 };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(black_box(s)) else { return 0 };
    match serde_json::to_string(black_box(&v)) {
        Ok(out) => black_box(out).len(),
        Err(_) => 0,
    }
}
