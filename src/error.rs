//! Error type shared by the core and the C ABI.
//!
//! Every fallible core function returns [`Result`]; the FFI layer maps
//! [`Status`] one-to-one onto the `hl_status` numbers (`docs/c-api.md`).

use std::fmt;

/// Status codes: the C ABI's `hl_status`. Numbered in declaration order
/// from 0; the C constants (`HL_OK` …) and their numbers are declared once,
/// in the FFI layer, which checks at compile time that they agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Status {
    Ok,
    NullArgument,
    InvalidUtf8,
    InvalidJson,
    InvalidArgument,
    InvalidConfig,
    NotFound,
    Cancelled,
    WrongThread,
    Closed,
    Io,
    Panic,
    Forked,
}

enum_names!(
    /// The C constant's name, e.g. `"HL_ERR_INVALID_JSON"` (`hl_status_name`).
    Status, name, c_name, {
    Ok => "HL_OK",
    NullArgument => "HL_ERR_NULL_ARGUMENT",
    InvalidUtf8 => "HL_ERR_INVALID_UTF8",
    InvalidJson => "HL_ERR_INVALID_JSON",
    InvalidArgument => "HL_ERR_INVALID_ARGUMENT",
    InvalidConfig => "HL_ERR_INVALID_CONFIG",
    NotFound => "HL_ERR_NOT_FOUND",
    Cancelled => "HL_ERR_CANCELLED",
    WrongThread => "HL_ERR_WRONG_THREAD",
    Closed => "HL_ERR_CLOSED",
    Io => "HL_ERR_IO",
    Panic => "HL_ERR_PANIC",
    Forked => "HL_ERR_FORKED",
});

impl Status {
    /// All statuses, in numeric order.
    pub const ALL: [Status; 13] = [
        Status::Ok,
        Status::NullArgument,
        Status::InvalidUtf8,
        Status::InvalidJson,
        Status::InvalidArgument,
        Status::InvalidConfig,
        Status::NotFound,
        Status::Cancelled,
        Status::WrongThread,
        Status::Closed,
        Status::Io,
        Status::Panic,
        Status::Forked,
    ];

    /// The status for a raw ABI number, `None` when out of range.
    pub fn from_i32(v: i32) -> Option<Status> {
        Self::ALL.get(usize::try_from(v).ok()?).copied()
    }
}

/// An error: a [`Status`] plus a human-readable message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub status: Status,
    pub message: String,
}

impl Error {
    pub fn new(status: Status, message: impl Into<String>) -> Self {
        Error { status, message: message.into() }
    }
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(Status::InvalidArgument, message)
    }
    pub fn invalid_json(message: impl Into<String>) -> Self {
        Self::new(Status::InvalidJson, message)
    }
    pub fn invalid_config(message: impl Into<String>) -> Self {
        Self::new(Status::InvalidConfig, message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(Status::NotFound, message)
    }
    pub fn io(message: impl Into<String>) -> Self {
        Self::new(Status::Io, message)
    }

    /// An internal error: something that cannot happen did (reported as
    /// `Panic`, the status of internal errors).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(Status::Panic, format!("internal error: {}", message.into()))
    }

    /// Serialise hookline's own output as JSON text. It cannot fail (the
    /// types hold strings, numbers and JSON values only); if it ever did,
    /// it would be an internal error.
    pub fn to_json_string<T: serde::Serialize + ?Sized>(value: &T, what: &str) -> Result<String> {
        serde_json::to_string(value).map_err(|e| Error::internal(format!("cannot serialise {what}: {e}")))
    }

    /// Parse JSON text, mapping syntax errors (including nesting deeper than
    /// the parser's recursion limit) to `InvalidJson`.
    pub fn parse_json(text: &str, what: &str) -> Result<serde_json::Value> {
        serde_json::from_str(text).map_err(|e| Error::invalid_json(format!("{what} is not valid JSON: {e}")))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status.name(), self.message)
    }
}

impl std::error::Error for Error {}

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
