//! The values of the rule columns: one enum per column that is more than
//! a flag (how hooks run, what exit 2 means, which fields block, …).

use std::time::Duration;

/// How the matching hooks of one event run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunOrder {
    /// One after another in configuration order; the run stops at the
    /// event's first decision.
    Sequential,
    /// All at once; results are merged in configuration order.
    Concurrent,
    /// All at once, unless a group of the run asks for sequential
    /// execution (Gemini CLI's `sequential: true` on any matching
    /// definition): then one after another in configuration order, every
    /// hook running (no early stop), each reading the input as the hooks
    /// before it changed it
    /// ([`Dialect::chain_input`](crate::dialect::Dialect::chain_input)).
    SequentialWhenAsked,
}

/// Which text the reasons of an outcome are: a deny's `reason`, a
/// `block_reason`, `stop_reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reasons {
    /// The deciding hook's own (the precedence and the other reason
    /// columns say which hook decides).
    Deciding,
    /// Every reason joined: one text for the whole run, the `stopReason` of
    /// every hook that asked to halt joined with the separator, else the
    /// `reason` every hook stated, whatever it decided, joined with it,
    /// else the deciding hook's own (Gemini CLI: `"\n"`).
    EveryReasonJoined(&'static str),
}

/// Which hooks' `continue` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HaltRule {
    /// Any hook's `continue: false` halts the agent.
    AnyHook,
    /// The last hook (in configuration order) that said `continue` decides:
    /// a later `continue: true` undoes an earlier `continue: false` (Gemini
    /// CLI's field replacement on BeforeModel and AfterModel).
    LastWord,
}

/// The unit of the timeouts a dialect's hooks write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeoutUnit {
    /// Seconds (VT Code, Claude Code).
    Seconds,
    /// Milliseconds (Gemini CLI).
    Milliseconds,
}

/// How the decisions of several hooks combine (PreToolUse,
/// PermissionRequest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// PreToolUse: the first `allow` or `deny` ends the run; a later one
    /// replaces an earlier `ask` (VT Code). PermissionRequest: the first
    /// decision counts.
    FirstAllowOrDeny,
    /// Every hook counts; the most restrictive wins: PreToolUse deny >
    /// defer > ask > allow > continue (Claude Code), PermissionRequest any
    /// deny wins, else any allow (Codex). The reason or message is the
    /// first one (in configuration order) of the winning decision.
    MostRestrictive,
    /// Hooks run in order and the first `deny` stops the rest: it is the
    /// outcome, with its reason, and later hooks do not run. Until then the
    /// most restrictive decision so far stands (ask > allow > continue);
    /// an earlier `allow` does not keep a later hook from denying.
    FirstDenyStops,
    /// Field replacement: the last hook (in configuration order) that gave
    /// a decision decides, a later non-blocking decision undoing an earlier
    /// deny; nothing stops the run (Gemini CLI's BeforeModel and AfterModel).
    LastWord,
}

/// PreToolUse: what becomes of `updatedInput` rewrites when the tool call
/// is denied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RewriteOnDeny {
    /// The rewrite in force is still returned as `updated_input`.
    Kept,
    /// A deny drops every rewrite: `updated_input` is null (Codex, Cursor).
    Dropped,
}

/// PreToolUse with concurrent hooks that each read the original input:
/// whose `updatedInput` wins when several hooks rewrite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RewriteWinner {
    /// The last rewrite in configuration order.
    LastConfigured,
    /// The rewrite of the hook that finished last (completion order, not
    /// configuration order; Codex).
    LastFinished,
    /// Every rewrite is a patch of the input's top-level keys: the patches
    /// merge in configuration order over the original input, a later
    /// patch's keys replacing an earlier one's, nested values replaced
    /// whole (Crush's shallow-merged `updated_input`).
    MergedPatches,
}

/// How the blocking reasons of several hooks combine (PostToolUse
/// feedback, Stop and SubagentStop continuation reasons; the reasons given
/// with the winning PreToolUse decision, a blocked prompt's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockReasons {
    /// The first reason in configuration order is the outcome's.
    First,
    /// Every blocking hook's reason, in configuration order, joined with
    /// the separator (Codex: `"\n\n"`, Cursor: `"\n\n---\n\n"`).
    Joined(&'static str),
}

/// Which `stopReason` the outcome's `stop_reason` is when hooks ask to halt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HaltReason {
    /// The first halting hook's `stopReason` (null when it gave none).
    FirstHalt,
    /// The first `stopReason` any halting hook gave, in configuration order
    /// (Codex).
    FirstGiven,
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
    /// The raw stdout text, trimmed and not parsed (a JSON answer is the
    /// reason as it stands), else a fixed text naming the hook; stderr is
    /// not a reason (Cursor).
    RawStdout,
    /// Only stdout JSON gives the reason; stderr is ignored. Every other
    /// stdout field is still read.
    StdoutIgnoringStderr,
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
    /// A warning: stderr becomes a warning message for the user, stdout is
    /// still read as on exit 0, nothing blocks, and the hook counts as
    /// having answered (not a failure).
    Warning,
    /// The hook's output becomes context for the model (the event's
    /// failure guidance): stdout's `additionalContext` when it is JSON,
    /// else stdout's text, else stderr. Not a failure.
    Context,
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
    /// A non-empty `followup_message`: the message the agent is given to
    /// work on next instead of stopping (Cursor's stop and subagentStop).
    FollowupMessage,
    /// `decision: "block"` + `reason`, else `hookSpecificOutput.decision:
    /// "block"` + `reason`; `continue: false` halts the agent instead of
    /// blocking the stop.
    DecisionOrSpecific,
}

/// Which of the JSON fields every event shares (`systemMessage`,
/// `continue`) an event reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommonFields {
    /// Both.
    Read,
    /// `systemMessage`, but `continue: false` is ignored (TaskCreated,
    /// CwdChanged, FileChanged, DirectoryAdded).
    IgnoreContinue,
    /// Neither: the agent discards them (ConfigChange, WorktreeCreate,
    /// Elicitation, ...).
    Discard,
}

/// A time budget the hooks of one run share (Claude Code's SessionEnd):
/// every hook's timeout is at most the budget, which is `base` raised to
/// the largest timeout configured by a non-plugin hook of the event, at
/// most `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The budget when no hook sets a longer timeout.
    pub base: Duration,
    /// The largest budget.
    pub max: Duration,
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
    /// A non-blocking error even when the hook sets `failClosed`: a
    /// failure never decides the event (Cursor's stop, whose only
    /// "block" is a follow-up message the hook writes).
    Open,
    /// A hook that fails in any way but a timeout (exits non-zero where
    /// that exit has no meaning, is killed, cannot start, loses its exit
    /// status) **denies** whatever its stdout said, with `reason` (the
    /// agent's words for it; the failure itself stays in the report and
    /// the warning); a timeout fails open (PreToolUse).
    DenyFailuresExceptTimeouts {
        /// The deny reason the agent gives the model.
        reason: &'static str,
    },
}

/// What a hook's `ask` means on a gate event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskRule {
    /// `ask`: the user is asked.
    Kept,
    /// `ask` is accepted and not enforced: no decision (the agent's normal
    /// permission flow applies); the hook's `ask` is reported among the
    /// outcome's `dialect_fields` (Cursor's preToolUse).
    Ignored,
    /// `ask` is treated as `deny` (Cursor's subagentStart).
    Denies,
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

/// Which of the hooks matching one event run when several are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dedupe {
    /// Every configured hook runs, duplicates included.
    None,
    /// A hook identical to one already planned for the event (same handler
    /// type and the same command) runs once (Claude Code).
    IdenticalHandlers,
    /// A hook with the same name and command (`"<name>:<command>"`, an
    /// absent name counting as empty) as one already planned for the event
    /// runs once: the same command under another name runs again (Gemini
    /// CLI).
    NameAndCommand,
}

/// How the same dialect field given by several hooks combines
/// (`dialect_fields` of the outcome).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldMerge {
    /// An array collects every hook's values in configuration order; any
    /// other value is the first hook's (Codex).
    FirstOrAppended,
    /// The last hook (in configuration order) that gave the field wins, as
    /// objects spread over each other (Copilot CLI's rewrites:
    /// `modifiedResult`, `modifiedResponse`, …).
    Last,
}
