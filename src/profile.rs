//! Dialect profiles: the rules that differ between hooks protocols, as data.
//!
//! A configuration's dialect picks its profile: the VT Code dialect
//! (`lifecycle`, snake_case keys) gets [`VT_CODE`], the Claude Code
//! settings dialect (PascalCase keys) gets [`CLAUDE`]. Each profile is one
//! table: per event, how hooks run, what exit 2 means, which JSON fields
//! decide, whether stdout becomes context on a failed hook, and what a
//! failing hook does; plus the profile-wide defaults (timeout, input
//! validation, deduplication, unknown event keys). The interpreter
//! ([`crate::interpret`]), the configuration reader ([`crate::config`]),
//! input validation ([`crate::payload`]) and the engine read these tables;
//! none of them asks which dialect it is serving. Adding a dialect is a new
//! table here plus a configuration reader.
//!
//! The two tables side by side (see also `docs/profiles.md`):
//!
//! | event | VT Code | Claude Code |
//! |---|---|---|
//! | PreToolUse | sequential, stops at the first allow/deny; `updatedInput` chains; exit 2 + stderr denies (stdout ignored); timeout denies | concurrent, every hook runs on the original input; deny > ask > allow > continue; last `updatedInput` wins; exit 2 denies (a JSON reason beats stderr); failures fail open unless `failClosed` |
//! | UserPromptSubmit | sequential, first block stops; exit 2 + stderr blocks | same order; exit 2 blocks; stdout is context only on exit 0 |
//! | SessionStart | concurrent; non-zero exit is an error, stdout still context | stdout is context only on exit 0 |
//! | PostToolUse(Failure) | exit 2 is a warning | exit 2: stderr is `block_reason` (feedback, nothing blocks) |
//! | PermissionRequest | exit 2 is a warning | exit 2 is no decision, stderr discarded |
//! | Stop | exit 2 is a warning | exit 2 blocks |
//! | SubagentStop | observer | reads `decision:"block"` like Stop; exit 2 blocks |
//! | PreCompact | observer | exit 2 or `decision:"block"` blocks |
//! | SessionEnd, SubagentStart | observer | exit 2: stderr is an error message |
//! | Notification | observer | exit 2 ignored |

use std::time::Duration;

use crate::config::Dialect;
use crate::event::HookEvent;
use crate::interpret::HookMessageLevel;

/// How the matching hooks of one event run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunOrder {
    /// One after another in configuration order; the run stops at the
    /// event's first decision.
    Sequential,
    /// All at once; results are merged in configuration order.
    Concurrent,
}

/// How PreToolUse decisions of several hooks combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// The first `allow` or `deny` ends the run; a later one replaces an
    /// earlier `ask` (VT Code).
    FirstAllowOrDeny,
    /// Every hook counts; the most restrictive wins: deny > ask > allow >
    /// continue (Claude Code).
    MostRestrictive,
}

/// What PreToolUse hooks receive as `tool_input`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolInputFlow {
    /// An `updatedInput` replaces `tool_input` for every later hook.
    Chained,
    /// Every hook receives the host's original `tool_input`.
    Original,
}

/// Where the reason of an exit-2 block comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit2Reason {
    /// stderr; stdout is ignored entirely.
    StderrIgnoringStdout,
    /// stderr; stdout is still read (its context, messages and fields), but
    /// its blocking reason comes second.
    StderrThenStdout,
    /// A blocking reason in stdout JSON first, else stderr; every other
    /// stdout field is still read.
    StdoutThenStderr,
}

/// What exit 2 means for one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit2 {
    /// Like any other non-zero exit (a message at the event's level); a
    /// failure of kind `exit`.
    Ordinary,
    /// The event's blocking decision (deny, block, or feedback for the
    /// model). `needs_stderr`: without stderr (and without a JSON reason)
    /// it is an error message and no decision; otherwise it blocks with a
    /// reason naming the hook.
    Block { reason: Exit2Reason, needs_stderr: bool },
    /// stderr becomes an error message for the user; nothing blocks.
    StderrToUser,
    /// stderr is discarded and no message is given; stdout is still read.
    Ignored,
}

/// The JSON fields that block the events sharing Stop's outcome shape
/// (Stop, SubagentStop, PreCompact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockFields {
    /// Nothing blocks (an observer).
    None,
    /// `decision: "block"` + `reason`.
    Decision,
    /// `decision: "block"` + `reason`, else `continue: false` +
    /// `stopReason`, else `hookSpecificOutput.decision: "block"` + `reason`.
    DecisionOrContinueFalse,
}

/// What a hook that fails (times out, cannot start, is killed, exits
/// non-zero other than a meaningful exit 2, prints invalid JSON) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFailure {
    /// A timeout or a lost exit status denies (fail closed) unless an
    /// earlier hook asked; other failures make no decision (VT Code
    /// PreToolUse).
    DenyTimeoutsUnlessAsk,
    /// A non-blocking error, unless the hook sets `failClosed`: then the
    /// event's blocking decision (PreToolUse and PermissionRequest deny,
    /// UserPromptSubmit and Stop block; other events have none).
    OpenUnlessFailClosed,
}

/// The rules of one event in one profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventRules {
    /// How the matching hooks run.
    pub run_order: RunOrder,
    /// PreToolUse: how decisions combine (ignored elsewhere).
    pub precedence: Precedence,
    /// PreToolUse: what later hooks receive as `tool_input`.
    pub tool_input: ToolInputFlow,
    /// What exit 2 means.
    pub exit2: Exit2,
    /// The level of the message for other non-zero exits (and for stderr
    /// written by a hook that exited 0).
    pub failure_level: HookMessageLevel,
    /// Whether stdout (plain text and JSON context) becomes context only
    /// when the hook exited 0.
    pub context_needs_exit_0: bool,
    /// Stop, SubagentStop, PreCompact: which fields block.
    pub block_fields: BlockFields,
    /// What a failing hook does.
    pub on_failure: OnFailure,
}

/// How strictly event inputs are validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputRules {
    /// Every field of the input table is required and enumerated fields
    /// accept only the listed values (VT Code's typed inputs).
    Strict,
    /// Only `tool_name` (tool events) is required; optional fields keep
    /// their types when present; enumerated fields accept any string
    /// (Claude Code sends values of its own, and new ones over time).
    Lenient,
}

/// One dialect's rules.
#[derive(Debug)]
pub struct Profile {
    /// The profile's name (`"vtcode"`, `"claude"`).
    pub name: &'static str,
    /// The configuration dialect it serves.
    pub dialect: Dialect,
    /// The timeout of a command hook that sets none.
    pub default_timeout: Duration,
    /// Input validation.
    pub inputs: InputRules,
    /// Whether identical commands (same type and command) matching one
    /// event run once.
    pub dedupe_identical_commands: bool,
    /// Whether event keys the profile does not know are kept (fired by
    /// name) instead of ignored with a warning.
    pub keeps_unknown_events: bool,
    /// Whether the hook fields `if`, `async`, `statusMessage` and
    /// `failClosed` are read.
    pub reads_claude_hook_fields: bool,
    /// Whether SessionStart hooks get `CLAUDE_ENV_FILE` and the outcome
    /// returns what they wrote there as `env`.
    pub session_start_env_file: bool,
    /// The rules per event, indexed by [`HookEvent::index`].
    pub events: [EventRules; 12],
    /// The rules of events fired by name that the profile does not know.
    pub unknown_event: EventRules,
}

impl Profile {
    /// The profile of a dialect.
    pub fn of(dialect: Dialect) -> &'static Profile {
        match dialect {
            Dialect::VtCode => &VT_CODE,
            Dialect::Claude => &CLAUDE,
        }
    }

    /// The rules of `event`.
    pub fn rules(&self, event: HookEvent) -> &EventRules {
        &self.events[event.index()]
    }
}

use BlockFields as BF;
use Exit2Reason as R;
use HookMessageLevel::{Error, Warning};

const fn rules(run_order: RunOrder, exit2: Exit2, failure_level: HookMessageLevel) -> EventRules {
    EventRules {
        run_order,
        precedence: Precedence::FirstAllowOrDeny,
        tool_input: ToolInputFlow::Chained,
        exit2,
        failure_level,
        context_needs_exit_0: false,
        block_fields: BF::None,
        on_failure: OnFailure::OpenUnlessFailClosed,
    }
}

const SEQ: RunOrder = RunOrder::Sequential;
const CONC: RunOrder = RunOrder::Concurrent;

const VT_OBSERVER: EventRules = rules(CONC, Exit2::Ordinary, Error);

/// The VT Code profile: the seed's rules.
pub static VT_CODE: Profile = Profile {
    name: "vtcode",
    dialect: Dialect::VtCode,
    default_timeout: Duration::from_secs(60),
    inputs: InputRules::Strict,
    dedupe_identical_commands: false,
    keeps_unknown_events: false,
    reads_claude_hook_fields: false,
    session_start_env_file: false,
    events: [
        // SessionStart
        VT_OBSERVER,
        // SessionEnd
        VT_OBSERVER,
        // SubagentStart
        VT_OBSERVER,
        // SubagentStop
        VT_OBSERVER,
        // UserPromptSubmit
        rules(SEQ, Exit2::Block { reason: R::StderrThenStdout, needs_stderr: true }, Warning),
        // PreToolUse
        EventRules {
            on_failure: OnFailure::DenyTimeoutsUnlessAsk,
            ..rules(SEQ, Exit2::Block { reason: R::StderrIgnoringStdout, needs_stderr: true }, Warning)
        },
        // PostToolUse
        rules(CONC, Exit2::Ordinary, Warning),
        // PermissionRequest
        rules(SEQ, Exit2::Ordinary, Warning),
        // PreCompact
        VT_OBSERVER,
        // Stop
        EventRules { block_fields: BF::DecisionOrContinueFalse, ..rules(SEQ, Exit2::Ordinary, Warning) },
        // Notification
        VT_OBSERVER,
        // PostToolUseFailure
        rules(CONC, Exit2::Ordinary, Warning),
    ],
    unknown_event: VT_OBSERVER,
};

const CLAUDE_BLOCK: Exit2 = Exit2::Block { reason: R::StdoutThenStderr, needs_stderr: false };
const CLAUDE_OBSERVER: EventRules = rules(CONC, Exit2::StderrToUser, Error);

/// The Claude Code profile: Claude Code's decisions, as its hooks reference
/// documents them.
pub static CLAUDE: Profile = Profile {
    name: "claude",
    dialect: Dialect::Claude,
    default_timeout: Duration::from_secs(600),
    inputs: InputRules::Lenient,
    dedupe_identical_commands: true,
    keeps_unknown_events: true,
    reads_claude_hook_fields: true,
    session_start_env_file: true,
    events: [
        // SessionStart
        EventRules { context_needs_exit_0: true, ..CLAUDE_OBSERVER },
        // SessionEnd
        CLAUDE_OBSERVER,
        // SubagentStart
        CLAUDE_OBSERVER,
        // SubagentStop
        EventRules { block_fields: BF::DecisionOrContinueFalse, ..rules(CONC, CLAUDE_BLOCK, Error) },
        // UserPromptSubmit
        EventRules { context_needs_exit_0: true, ..rules(SEQ, CLAUDE_BLOCK, Error) },
        // PreToolUse
        EventRules {
            precedence: Precedence::MostRestrictive,
            tool_input: ToolInputFlow::Original,
            ..rules(CONC, CLAUDE_BLOCK, Error)
        },
        // PostToolUse
        rules(CONC, Exit2::Block { reason: R::StdoutThenStderr, needs_stderr: true }, Error),
        // PermissionRequest
        rules(SEQ, Exit2::Ignored, Error),
        // PreCompact
        EventRules { block_fields: BF::Decision, ..rules(CONC, CLAUDE_BLOCK, Error) },
        // Stop
        EventRules { block_fields: BF::DecisionOrContinueFalse, ..rules(SEQ, CLAUDE_BLOCK, Error) },
        // Notification
        rules(CONC, Exit2::Ignored, Error),
        // PostToolUseFailure
        rules(CONC, Exit2::Block { reason: R::StdoutThenStderr, needs_stderr: true }, Error),
    ],
    unknown_event: CLAUDE_OBSERVER,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vt_code_decision_events_are_exactly_the_sequential_ones() {
        for event in HookEvent::ALL {
            assert_eq!(VT_CODE.rules(event).run_order == RunOrder::Sequential, event.is_decision_event(), "{event}");
        }
    }

    #[test]
    fn claude_pre_tool_use_runs_concurrently_and_most_restrictive_wins() {
        let r = CLAUDE.rules(HookEvent::PreToolUse);
        assert_eq!(r.run_order, RunOrder::Concurrent);
        assert_eq!(r.precedence, Precedence::MostRestrictive);
        assert_eq!(r.tool_input, ToolInputFlow::Original);
    }

    #[test]
    fn default_timeouts_are_60_and_600_seconds() {
        assert_eq!(Profile::of(Dialect::VtCode).default_timeout, Duration::from_secs(60));
        assert_eq!(Profile::of(Dialect::Claude).default_timeout, Duration::from_secs(600));
    }
}
