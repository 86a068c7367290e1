//! # hookline
//!
//! A lifecycle-hook engine for AI coding agents. Agent hosts call it at
//! every lifecycle event (session start/end, prompt submit, before/after
//! each tool call, permission prompts, compaction, stop); it runs the
//! user's configured shell hooks (the Claude Code / VT Code hooks protocol:
//! JSON on stdin, exit codes and JSON on stdout) and the host's in-process
//! callbacks, and returns one merged decision.
//!
//! Two entry points, usable from Rust directly or through the C ABI
//! (`include/hookline.h`):
//!
//! - [`LifecycleHookEngine`]: configured shell hooks plus callback hooks,
//!   behind a workspace approval gate bound to a digest of the command set.
//! - [`Hooks`]: an in-process registry of named callbacks per hook point.
//!
//! The core is safe Rust (`unsafe` is confined to the `ffi` module and to
//! the runner's platform modules: the operating-system calls without a
//! safe wrapper).
#![deny(unsafe_code)]
#![warn(unreachable_pub)]

#[macro_use]
mod enum_names;

pub mod bash;
pub mod callback;
pub mod config;
pub mod dialect;
pub mod engine;
pub mod error;
pub mod gate;
pub mod handler;
pub mod log;
pub mod merge;
pub mod model;
pub(crate) mod options_check;
pub mod paths;
pub(crate) mod platform;
pub mod registry;
pub mod runner;
pub(crate) mod runtime;
pub mod suggest;
pub mod trace;

/// Reading the results of hooks a host ran itself: the interpreter every
/// run uses (read by the hook's dialect, merged canonically), and the
/// outcome types.
pub mod interpret {
    pub use crate::merge::EventInterpreter;
    pub use crate::model::execution::HookExecution;
    pub use crate::model::outcome::*;
}

/// The trust store (persisted approvals); part of the approval gate.
pub use gate::trust;

/// The ABI schema (`include/hookline.schema.json`), for `make schema` and
/// the bindings' drift tests.
#[doc(hidden)]
pub mod schema;

/// The C ABI (`include/hookline.h`). Exposed for hosts that link the rlib
/// and want the constants; Rust code should use the safe API.
#[allow(unsafe_code)]
#[doc(hidden)]
pub mod ffi;

pub use callback::{CallResult, Deferred, HostCallback, Rejected, Reply, SharedCallback};
pub use engine::{EngineOptions, HooksSource, LifecycleHookEngine};
pub use error::{Error, Result, Status};
pub use handler::host::HandlerType;
pub use model::event::{HookEvent, RunEvent};
pub use model::input::{CompactionMode, CompactionTrigger, SessionEndReason, SessionStartTrigger};
pub use registry::{HookCallback, HookEntry, HookPoint, HookResult, Hooks};

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
