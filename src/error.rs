//! Error type shared by the core and the C ABI.
//!
//! Every fallible core function returns [`Result`]; the FFI layer maps
//! [`Status`] one-to-one onto the `hl_status` numbers of the contract.

use std::fmt;

/// Status codes. The numbers are fixed by the C ABI (`hl_status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Status {
    Ok = 0,
    NullArgument = 1,
    InvalidUtf8 = 2,
    InvalidJson = 3,
    InvalidArgument = 4,
    InvalidConfig = 5,
    NotFound = 6,
    Cancelled = 7,
    WrongThread = 8,
    Closed = 9,
    Io = 10,
    Panic = 11,
    Forked = 12,
}

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

    /// The C constant name, e.g. `"HL_ERR_INVALID_JSON"`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "HL_OK",
            Status::NullArgument => "HL_ERR_NULL_ARGUMENT",
            Status::InvalidUtf8 => "HL_ERR_INVALID_UTF8",
            Status::InvalidJson => "HL_ERR_INVALID_JSON",
            Status::InvalidArgument => "HL_ERR_INVALID_ARGUMENT",
            Status::InvalidConfig => "HL_ERR_INVALID_CONFIG",
            Status::NotFound => "HL_ERR_NOT_FOUND",
            Status::Cancelled => "HL_ERR_CANCELLED",
            Status::WrongThread => "HL_ERR_WRONG_THREAD",
            Status::Closed => "HL_ERR_CLOSED",
            Status::Io => "HL_ERR_IO",
            Status::Panic => "HL_ERR_PANIC",
            Status::Forked => "HL_ERR_FORKED",
        }
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

    /// Parse JSON text, mapping syntax errors (including nesting deeper than
    /// the parser's recursion limit) to `InvalidJson`.
    pub fn parse_json(text: &str, what: &str) -> Result<serde_json::Value> {
        serde_json::from_str(text)
            .map_err(|e| Error::invalid_json(format!("{what} is not valid JSON: {e}")))
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
