//! W3C Trace Context: the `traceparent` and `tracestate` values a run
//! joins (its input's fields of those names) and hands on (to hook
//! processes as `TRACEPARENT` / `TRACESTATE`, to HTTP hooks as headers).
//!
//! Parsing is strict, as the W3C Trace Context recommendation asks of a
//! receiver: `version "-" trace-id "-" parent-id "-" trace-flags`, every
//! field lowercase hex of its exact length; version `ff` is invalid; an
//! all-zero trace id or parent id is invalid; version `00` has nothing after
//! the flags; a later version may have more, after a `-`, which is ignored
//! (its first four fields are read as version `00`'s). Nothing here panics,
//! whatever the input (a fuzz target holds it to that).

use std::fmt;

/// The length of a version-00 `traceparent`.
pub const TRACEPARENT_LEN: usize = 55;

/// The longest `tracestate` passed on: the W3C recommendation's 32
/// list-members of at most 256 characters each, with their commas.
pub const MAX_TRACESTATE_LEN: usize = 32 * 257;

/// A parsed `traceparent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TraceParent {
    /// The trace the span belongs to (never all zeros).
    pub trace_id: [u8; 16],
    /// The span that is the parent (never all zeros).
    pub parent_id: [u8; 8],
    /// `trace-flags` (bit 0: sampled).
    pub flags: u8,
}

/// Why a `traceparent` or `tracestate` was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextError(String);

impl ContextError {
    fn new(text: impl Into<String>) -> ContextError {
        ContextError(text.into())
    }

    /// The reason, as one phrase (`"trace-id is all zeros"`).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ContextError {}

/// The value of one lowercase hex digit.
fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// Decode exactly `N` bytes of lowercase hex from `text` (which must be
/// `2 * N` characters).
fn hex_field<const N: usize>(text: &[u8], name: &str) -> Result<[u8; N], ContextError> {
    if text.len() != 2 * N {
        return Err(ContextError::new(format!("{name} must be {} lowercase hex digits", 2 * N)));
    }
    let mut out = [0u8; N];
    for (i, pair) in text.chunks_exact(2).enumerate() {
        match (hex_digit(pair[0]), hex_digit(pair[1])) {
            (Some(hi), Some(lo)) => out[i] = hi << 4 | lo,
            _ => return Err(ContextError::new(format!("{name} must be {} lowercase hex digits", 2 * N))),
        }
    }
    Ok(out)
}

impl TraceParent {
    /// Parse a `traceparent` value strictly (see the module documentation).
    pub fn parse(text: &str) -> Result<TraceParent, ContextError> {
        let b = text.as_bytes();
        if b.len() < TRACEPARENT_LEN {
            return Err(ContextError::new(format!(
                "traceparent must be {TRACEPARENT_LEN} characters (version-traceid-parentid-flags), got {}",
                b.len()
            )));
        }
        if b[2] != b'-' || b[35] != b'-' || b[52] != b'-' {
            return Err(ContextError::new(
                "traceparent fields must be separated by '-' (version-traceid-parentid-flags)",
            ));
        }
        let [version] = hex_field::<1>(&b[0..2], "version")?;
        if version == 0xff {
            return Err(ContextError::new("version ff is invalid"));
        }
        if version == 0 && b.len() != TRACEPARENT_LEN {
            return Err(ContextError::new(format!(
                "a version-00 traceparent has exactly {TRACEPARENT_LEN} characters"
            )));
        }
        if b.len() > TRACEPARENT_LEN && b[TRACEPARENT_LEN] != b'-' {
            return Err(ContextError::new("what follows the flags of a later version must start with '-'"));
        }
        let trace_id = hex_field::<16>(&b[3..35], "trace-id")?;
        if trace_id == [0; 16] {
            return Err(ContextError::new("trace-id is all zeros"));
        }
        let parent_id = hex_field::<8>(&b[36..52], "parent-id")?;
        if parent_id == [0; 8] {
            return Err(ContextError::new("parent-id is all zeros"));
        }
        let [flags] = hex_field::<1>(&b[53..55], "trace-flags")?;
        Ok(TraceParent { trace_id, parent_id, flags })
    }

    /// Whether the sampled flag is set.
    pub fn sampled(&self) -> bool {
        self.flags & 1 == 1
    }
}

/// Check a `tracestate` value before it is passed on: printable ASCII
/// (the characters its grammar allows, plus spaces and tabs around
/// list-members), at most [`MAX_TRACESTATE_LEN`] characters. hookline does
/// not take part in `tracestate` (it adds no member of its own): a valid
/// value is passed on unchanged, an empty one is the same as none.
pub fn check_tracestate(text: &str) -> Result<(), ContextError> {
    if text.len() > MAX_TRACESTATE_LEN {
        return Err(ContextError::new(format!("tracestate is longer than {MAX_TRACESTATE_LEN} characters")));
    }
    if let Some(c) = text.bytes().find(|&c| !(c == b'\t' || (0x20..=0x7e).contains(&c))) {
        return Err(ContextError::new(format!("tracestate holds a character it cannot hold (byte 0x{c:02x})")));
    }
    Ok(())
}

/// Lowercase hex of `bytes`, appended to `out`.
pub(crate) fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    push_hex(&mut s, bytes);
    s
}

/// The version-00 `traceparent` of a span: `00-<trace-id>-<span-id>-<flags>`.
pub fn format_traceparent(trace_id: &[u8; 16], span_id: &[u8; 8], flags: u8) -> String {
    let mut s = String::with_capacity(TRACEPARENT_LEN);
    s.push_str("00-");
    push_hex(&mut s, trace_id);
    s.push('-');
    push_hex(&mut s, span_id);
    s.push('-');
    push_hex(&mut s, &[flags]);
    s
}

/// What a hook gets to continue the trace: the `traceparent` naming its own
/// span as the parent, and the run's `tracestate`, if any. A command hook
/// gets them as `TRACEPARENT` and `TRACESTATE` in its environment
/// ([`crate::handler::environment::with_trace_context`]); a handler that
/// speaks HTTP sends them as the `traceparent` and `tracestate` headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookTraceContext {
    traceparent: String,
    tracestate: Option<std::sync::Arc<str>>,
}

impl HookTraceContext {
    pub(crate) fn new(traceparent: String, tracestate: Option<std::sync::Arc<str>>) -> HookTraceContext {
        HookTraceContext { traceparent, tracestate }
    }

    /// The `traceparent` value (version 00, the hook's span as the parent).
    pub fn traceparent(&self) -> &str {
        &self.traceparent
    }

    /// The `tracestate` value, when the run joined a trace that has one.
    pub fn tracestate(&self) -> Option<&str> {
        self.tracestate.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn a_version_00_traceparent_is_read_field_by_field() {
        let tp = TraceParent::parse(VALID).unwrap();
        assert_eq!(hex(&tp.trace_id), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(hex(&tp.parent_id), "00f067aa0ba902b7");
        assert_eq!(tp.flags, 1);
        assert!(tp.sampled());
        assert_eq!(format_traceparent(&tp.trace_id, &tp.parent_id, tp.flags), VALID);
    }

    #[test]
    fn traceparent_parsing_is_strict() {
        let bad = [
            ("", "55 characters"),
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0", "55 characters"),
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-", "exactly 55"),
            ("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "version ff"),
            ("0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "version must be"),
            ("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "trace-id must be"),
            ("00-00000000000000000000000000000000-00f067aa0ba902b7-01", "trace-id is all zeros"),
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "parent-id is all zeros"),
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0x", "trace-flags"),
            ("00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "separated"),
            (" 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "separated"),
            ("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x", "must start with '-'"),
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-G1", "trace-flags"),
            ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-é1", "exactly 55"),
        ];
        for (text, why) in bad {
            let err = TraceParent::parse(text).expect_err(text);
            assert!(err.as_str().contains(why), "{text:?}: {err} (want {why:?})");
        }
    }

    #[test]
    fn a_later_version_is_read_as_version_00_and_its_extra_fields_ignored() {
        let tp =
            TraceParent::parse("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes-later").unwrap();
        assert_eq!(hex(&tp.parent_id), "00f067aa0ba902b7");
        assert!(TraceParent::parse("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").is_ok());
    }

    #[test]
    fn multibyte_text_at_field_boundaries_never_panics() {
        // Byte offsets that fall inside a multi-byte character must not be sliced as str.
        for text in ["€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€", "00-€4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01"]
        {
            assert!(TraceParent::parse(text).is_err());
        }
    }

    #[test]
    fn tracestate_must_be_printable_ascii_of_bounded_length() {
        assert!(check_tracestate("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE").is_ok());
        assert!(check_tracestate("").is_ok());
        assert!(check_tracestate("a=b\nc=d").is_err());
        assert!(check_tracestate("a=é").is_err());
        assert!(check_tracestate(&"a".repeat(MAX_TRACESTATE_LEN + 1)).is_err());
    }
}
