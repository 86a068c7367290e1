//! Logging: silent by default, `HOOKLINE_LOG=debug|info|warn|error` prints to
//! stderr, and a host may install its own handler (`hl_set_log_handler`).
//!
//! The handler is snapshotted (an `Arc`) before it is called, so no lock is
//! held while host code runs.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

/// Log levels, numbered as in the C ABI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(i32)]
pub enum Level {
    Error = 1,
    Warn = 2,
    Info = 3,
    Debug = 4,
    Trace = 5,
}

impl Level {
    fn label(self) -> &'static str {
        match self {
            Level::Error => "ERROR",
            Level::Warn => "WARN",
            Level::Info => "INFO",
            Level::Debug => "DEBUG",
            Level::Trace => "TRACE",
        }
    }
}

/// A log sink: receives the level number and the message.
pub type LogHandler = Arc<dyn Fn(i32, &str) + Send + Sync>;

struct Installed {
    handler: LogHandler,
    max_level: i32,
}

static HANDLER: RwLock<Option<Arc<Installed>>> = RwLock::new(None);

fn env_max_level() -> i32 {
    static LEVEL: OnceLock<i32> = OnceLock::new();
    *LEVEL.get_or_init(|| match std::env::var("HOOKLINE_LOG").unwrap_or_default().to_ascii_lowercase().as_str() {
        "error" => 1,
        "warn" | "warning" => 2,
        "info" => 3,
        "debug" => 4,
        "trace" => 5,
        _ => 0,
    })
}

/// Install a handler receiving every message at or below `max_level`;
/// `None` restores the default (stderr, gated by `HOOKLINE_LOG`).
pub fn set_handler(handler: Option<LogHandler>, max_level: i32) {
    let mut slot = HANDLER.write().unwrap_or_else(|e| e.into_inner());
    MAX_LEVEL.store(if handler.is_some() { max_level } else { env_max_level() }, Ordering::SeqCst);
    *slot = handler.map(|handler| Arc::new(Installed { handler, max_level }));
}

/// The most verbose level delivered anywhere (`UNKNOWN` until first asked): read on every log
/// call, so that a message nobody receives costs one atomic load (no lock, no formatting).
static MAX_LEVEL: AtomicI32 = AtomicI32::new(UNKNOWN);
const UNKNOWN: i32 = i32::MIN;

/// Whether a message at `level` would be delivered anywhere.
pub fn enabled(level: Level) -> bool {
    let mut max = MAX_LEVEL.load(Ordering::Relaxed);
    if max == UNKNOWN {
        // First use: the environment's level, unless a handler was set meanwhile (set_handler
        // stores under the write lock; this reads under the read lock).
        let slot = HANDLER.read().unwrap_or_else(|e| e.into_inner());
        max = match &*slot {
            Some(inst) => inst.max_level,
            None => env_max_level(),
        };
        let _ = MAX_LEVEL.compare_exchange(UNKNOWN, max, Ordering::SeqCst, Ordering::SeqCst);
        max = MAX_LEVEL.load(Ordering::SeqCst);
    }
    (level as i32) <= max
}

/// Emit one message.
pub fn emit(level: Level, message: &str) {
    let snapshot = HANDLER.read().unwrap_or_else(|e| e.into_inner()).clone();
    match snapshot {
        Some(inst) => {
            if (level as i32) <= inst.max_level {
                // The handler is host code: never let its panic escape.
                let _ =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (inst.handler)(level as i32, message)));
            }
        }
        None => {
            if (level as i32) <= env_max_level() {
                eprintln!("[hookline {}] {}", level.label(), message);
            }
        }
    }
}

/// `hl_warn!("...", args)`: log at WARN.
#[macro_export]
macro_rules! hl_warn {
    ($($arg:tt)*) => { if $crate::log::enabled($crate::log::Level::Warn) { $crate::log::emit($crate::log::Level::Warn, &format!($($arg)*)) } };
}
/// `hl_info!`: log at INFO.
#[macro_export]
macro_rules! hl_info {
    ($($arg:tt)*) => { if $crate::log::enabled($crate::log::Level::Info) { $crate::log::emit($crate::log::Level::Info, &format!($($arg)*)) } };
}
/// `hl_debug!`: log at DEBUG.
#[macro_export]
macro_rules! hl_debug {
    ($($arg:tt)*) => { if $crate::log::enabled($crate::log::Level::Debug) { $crate::log::emit($crate::log::Level::Debug, &format!($($arg)*)) } };
}
/// `hl_error!`: log at ERROR.
#[macro_export]
macro_rules! hl_error {
    ($($arg:tt)*) => { if $crate::log::enabled($crate::log::Level::Error) { $crate::log::emit($crate::log::Level::Error, &format!($($arg)*)) } };
}
