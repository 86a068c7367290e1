//! The C ABI's enums: every `hl_status`, `hl_event` and `hl_hook_point`
//! constant with its number. This is the only place the numbers are written
//! (the header is generated from it); the core enums ([`Status`],
//! [`HookEvent`], [`HookPoint`]) are numbered by declaration order and hold
//! the names, and `abi_numbers!` checks at compile time that each constant
//! equals its variant. The conversions of raw values live here too.

use crate::error::{Error, Result, Status};
use crate::model::event::HookEvent;
use crate::registry::{Contract, HookPoint};

/// Status code returned by every fallible function (a 32-bit integer).
pub type hl_status = i32;
/// Success.
pub const HL_OK: hl_status = 0;
/// A required pointer argument was NULL.
pub const HL_ERR_NULL_ARGUMENT: hl_status = 1;
/// A string argument was not valid UTF-8.
pub const HL_ERR_INVALID_UTF8: hl_status = 2;
/// A JSON argument did not parse (or was nested too deeply).
pub const HL_ERR_INVALID_JSON: hl_status = 3;
/// An argument had the wrong shape or value (names the field).
pub const HL_ERR_INVALID_ARGUMENT: hl_status = 4;
/// The hooks configuration is invalid (names the entry path).
pub const HL_ERR_INVALID_CONFIG: hl_status = 5;
/// The named callback or run does not exist.
pub const HL_ERR_NOT_FOUND: hl_status = 6;
/// The run was cancelled.
pub const HL_ERR_CANCELLED: hl_status = 7;
/// A blocking call was made from a hookline-owned thread.
pub const HL_ERR_WRONG_THREAD: hl_status = 8;
/// The handle is being freed.
pub const HL_ERR_CLOSED: hl_status = 9;
/// A file could not be read or written.
pub const HL_ERR_IO: hl_status = 10;
/// An internal panic was caught at the boundary.
pub const HL_ERR_PANIC: hl_status = 11;
/// The handle was created before fork() and used in the child.
pub const HL_ERR_FORKED: hl_status = 12;

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

/// A registry hook point (a 32-bit integer in the ABI): `HL_POINT_*`.
/// Any other value is rejected with `HL_ERR_INVALID_ARGUMENT`.
pub type hl_hook_point = i32;
/// `pre_turn`: before a turn; deny blocks the prompt.
pub const HL_POINT_PRE_TURN: hl_hook_point = 0;
/// `post_turn`: after a turn (observer).
pub const HL_POINT_POST_TURN: hl_hook_point = 1;
/// `pre_tool_call_decide`: before a tool call; deny blocks it, `modified_args` rewrite it.
pub const HL_POINT_PRE_TOOL_CALL_DECIDE: hl_hook_point = 2;
/// `post_tool_call`: after a tool call (observer).
pub const HL_POINT_POST_TOOL_CALL: hl_hook_point = 3;
/// `on_compaction`: context compaction (observer).
pub const HL_POINT_ON_COMPACTION: hl_hook_point = 4;
/// `on_session_start`: a session starts (observer).
pub const HL_POINT_ON_SESSION_START: hl_hook_point = 5;
/// `on_session_end`: a session ends (observer).
pub const HL_POINT_ON_SESSION_END: hl_hook_point = 6;
/// `on_tool_error`: a tool call failed (observer).
pub const HL_POINT_ON_TOOL_ERROR: hl_hook_point = 7;
/// `on_interaction`: a user interaction; deny blocks, a failing callback never does.
pub const HL_POINT_ON_INTERACTION: hl_hook_point = 8;
/// `transform_tool_input`: chained rewrites of a tool call's arguments.
pub const HL_POINT_TRANSFORM_TOOL_INPUT: hl_hook_point = 9;
/// `stop`: the agent is about to stop; the first "continue" (with a reason) keeps it going.
pub const HL_POINT_STOP: hl_hook_point = 10;

/// Which hook contract a registry follows (a 32-bit integer in the ABI):
/// `HL_CONTRACT_*`, chosen when it is created (`hl_registry_new_with_contract`).
pub type hl_registry_contract = i32;
/// agy-bridge's `Hooks` (what `hl_registry_new` creates): failures at
/// `pre_turn`, `on_interaction` and observers are listed and the run goes on;
/// `on_tool_error` is an observer; `on_interaction` is allow/deny.
pub const HL_CONTRACT_AGY_BRIDGE: hl_registry_contract = 0;
/// The Antigravity Python SDK's `HookRunner`: a failure stops the run;
/// `on_tool_error` and `on_interaction` answer (the first non-null reply);
/// an allowed tool call keeps the last allowing message; `pre_turn`
/// prompts may be any JSON (null is `""`).
pub const HL_CONTRACT_ANTIGRAVITY_SDK: hl_registry_contract = 1;

/// `abi_numbers!(Enum { Variant => CONSTANT, ... })`: a compile-time check
/// that each constant is its variant's number and that `Enum::ALL` lists the
/// variants in number order (so `from_i32` agrees with the header).
macro_rules! abi_numbers {
    ($ty:ident { $($variant:ident => $c:ident),+ $(,)? }) => {
        const _: () = {
            $(
                assert!($ty::$variant as i32 == $c, concat!(stringify!($c), " differs from ", stringify!($ty), "::", stringify!($variant)));
                assert!($ty::ALL[$c as usize] as i32 == $c, concat!(stringify!($ty), "::ALL is out of order at ", stringify!($c)));
            )+
            assert!($ty::ALL.len() == [$($c),+].len(), concat!(stringify!($ty), "::ALL and the constants differ in length"));
        };
    };
}

abi_numbers!(Status {
    Ok => HL_OK,
    NullArgument => HL_ERR_NULL_ARGUMENT,
    InvalidUtf8 => HL_ERR_INVALID_UTF8,
    InvalidJson => HL_ERR_INVALID_JSON,
    InvalidArgument => HL_ERR_INVALID_ARGUMENT,
    InvalidConfig => HL_ERR_INVALID_CONFIG,
    NotFound => HL_ERR_NOT_FOUND,
    Cancelled => HL_ERR_CANCELLED,
    WrongThread => HL_ERR_WRONG_THREAD,
    Closed => HL_ERR_CLOSED,
    Io => HL_ERR_IO,
    Panic => HL_ERR_PANIC,
    Forked => HL_ERR_FORKED
});

abi_numbers!(HookEvent {
    SessionStart => HL_EVENT_SESSION_START,
    SessionEnd => HL_EVENT_SESSION_END,
    SubagentStart => HL_EVENT_SUBAGENT_START,
    SubagentStop => HL_EVENT_SUBAGENT_STOP,
    UserPromptSubmit => HL_EVENT_USER_PROMPT_SUBMIT,
    PreToolUse => HL_EVENT_PRE_TOOL_USE,
    PostToolUse => HL_EVENT_POST_TOOL_USE,
    PermissionRequest => HL_EVENT_PERMISSION_REQUEST,
    PreCompact => HL_EVENT_PRE_COMPACT,
    Stop => HL_EVENT_STOP,
    Notification => HL_EVENT_NOTIFICATION,
    PostToolUseFailure => HL_EVENT_POST_TOOL_USE_FAILURE
});

abi_numbers!(HookPoint {
    PreTurn => HL_POINT_PRE_TURN,
    PostTurn => HL_POINT_POST_TURN,
    PreToolCallDecide => HL_POINT_PRE_TOOL_CALL_DECIDE,
    PostToolCall => HL_POINT_POST_TOOL_CALL,
    OnCompaction => HL_POINT_ON_COMPACTION,
    OnSessionStart => HL_POINT_ON_SESSION_START,
    OnSessionEnd => HL_POINT_ON_SESSION_END,
    OnToolError => HL_POINT_ON_TOOL_ERROR,
    OnInteraction => HL_POINT_ON_INTERACTION,
    TransformToolInput => HL_POINT_TRANSFORM_TOOL_INPUT,
    Stop => HL_POINT_STOP
});

abi_numbers!(Contract {
    AgyBridge => HL_CONTRACT_AGY_BRIDGE,
    AntigravitySdk => HL_CONTRACT_ANTIGRAVITY_SDK
});

/// The `hl_status` of an error.
pub(crate) fn status_of(e: &Error) -> hl_status {
    e.status as hl_status
}

/// An `hl_event` argument (`HL_ERR_INVALID_ARGUMENT` when out of range).
pub(crate) fn event_arg(event: hl_event) -> Result<HookEvent> {
    HookEvent::from_i32(event).ok_or_else(|| Error::invalid_argument(format!("unknown event value {event}")))
}

/// An `hl_hook_point` argument (`HL_ERR_INVALID_ARGUMENT` when out of range).
pub(crate) fn point_arg(point: hl_hook_point) -> Result<HookPoint> {
    HookPoint::from_i32(point)
        .ok_or_else(|| Error::invalid_argument(format!("unknown hook point {point} (valid: 0..=10, HL_POINT_*)")))
}

/// An `hl_registry_contract` argument (`HL_ERR_INVALID_ARGUMENT` when out of range).
pub(crate) fn contract_arg(contract: hl_registry_contract) -> Result<Contract> {
    Contract::from_i32(contract).ok_or_else(|| {
        Error::invalid_argument(format!("unknown registry contract {contract} (valid: 0..=1, HL_CONTRACT_*)"))
    })
}
