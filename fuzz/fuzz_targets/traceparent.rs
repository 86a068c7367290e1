//! Fuzz the W3C trace context parser (docs/c-api.md §12): `traceparent` and
//! `tracestate` values from arbitrary bytes (UTF-8 or not, any length).
//!
//! Input: `traceparent_bytes [0x00 tracestate_bytes]`.
//!
//! Oracles: never a panic; an accepted `traceparent` has the structure the
//! rules ask for (at least 55 characters, `-` at 2, 35 and 52, lowercase
//! hex fields, version not `ff`, ids not all zeros, exactly 55 for version
//! `00`) and formats back to its first 55 characters with version `00`; an
//! accepted `tracestate` is printable ASCII (or tabs) of bounded length.
#![no_main]

use hookline::trace::context::{check_tracestate, format_traceparent, TraceParent, MAX_TRACESTATE_LEN};
use libfuzzer_sys::fuzz_target;

fn lower_hex(b: &[u8]) -> bool {
    b.iter().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
}

fuzz_target!(|data: &[u8]| {
    let (tp, ts) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let text = String::from_utf8_lossy(tp);
    if let Ok(parsed) = TraceParent::parse(&text) {
        let b = text.as_bytes();
        assert!(b.len() >= 55, "accepted {text:?}");
        assert!(b[2] == b'-' && b[35] == b'-' && b[52] == b'-', "accepted {text:?}");
        assert!(lower_hex(&b[0..2]) && lower_hex(&b[3..35]) && lower_hex(&b[36..52]) && lower_hex(&b[53..55]));
        assert_ne!(&b[0..2], b"ff");
        assert!(&b[0..2] != b"00" || b.len() == 55, "a long version-00 value was accepted: {text:?}");
        assert!(b.len() == 55 || b[55] == b'-');
        assert_ne!(parsed.trace_id, [0; 16]);
        assert_ne!(parsed.parent_id, [0; 8]);
        let again = format_traceparent(&parsed.trace_id, &parsed.parent_id, parsed.flags);
        assert_eq!(&again[3..], &text[3..55], "round trip");
        assert_eq!(TraceParent::parse(&again), Ok(parsed));
    }
    if let Some(ts) = ts {
        let state = String::from_utf8_lossy(ts);
        if check_tracestate(&state).is_ok() {
            assert!(state.len() <= MAX_TRACESTATE_LEN);
            assert!(state.bytes().all(|c| c == b'\t' || (0x20..=0x7e).contains(&c)), "accepted {state:?}");
        }
    }
});
