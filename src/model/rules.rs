//! The vocabulary of rule tables: what can differ between hooks protocols,
//! per event, as named columns.
//!
//! Every dialect ([`crate::dialect`]) has one [`Profile`]: per event an
//! [`EventRules`] row (how its hooks run, how their decisions combine, what
//! exit 2 means, which fields block, what a failing hook does), plus the
//! profile-wide columns (default timeout, input validation, deduplication,
//! the SessionStart env file). The tables themselves live with their
//! dialects (`src/dialect/<name>.rs`); this module only defines the columns.
//!
//! Two kinds of code read a row:
//!
//! - the dialect's **reader** of one hook's result (exit code, stdout,
//!   stderr → the canonical [`HookReply`](crate::model::reply::HookReply)) reads the
//!   *reader columns* ([`Exit2`], `failure_level`, `context_needs_exit_0`,
//!   [`BlockFields`]);
//! - the canonical **merge** ([`crate::merge`]) reads the *merge columns*
//!   ([`RunOrder`], [`Precedence`], [`ToolInputFlow`], [`OnFailure`],
//!   [`RewriteOnDeny`], [`RewriteWinner`], [`BlockReasons`], `halt_clears_block`,
//!   [`HaltReason`], [`Reasons`], [`HaltRule`], `block_replaces_result`,
//!   `block_drops_context`,
//!   `tool_gate`, `follow_up_loop_limit`, `block_needs_completed_status`,
//!   `session_env_from_output`).
//!
//! Each reader and each merger declares the columns it honours
//! ([`Column`]); a test fails when a table sets a column (gives it a value
//! other than the neutral one of [`EventRules::NEUTRAL`]) for an event whose
//! reader or merger does not honour it, so a table cannot promise a rule
//! nothing implements.

use std::time::Duration;

use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::outcome::HookMessageLevel;

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

/// The rules of one event in one profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventRules {
    /// How the matching hooks run (merge column).
    pub run_order: RunOrder,
    /// PreToolUse: how decisions combine (merge column).
    pub precedence: Precedence,
    /// PreToolUse: what later hooks receive as `tool_input` (merge column).
    pub tool_input: ToolInputFlow,
    /// What a failing hook does (merge column).
    pub on_failure: OnFailure,
    /// What exit 2 means (reader column).
    pub exit2: Exit2,
    /// The level of the message for other non-zero exits, and for stderr
    /// written by a hook that exited 0 (reader column).
    pub failure_level: HookMessageLevel,
    /// Whether stdout (plain text and JSON context) becomes context only
    /// when the hook exited 0 (reader column).
    pub context_needs_exit_0: bool,
    /// Stop, SubagentStop, PreCompact: which fields block (reader column).
    pub block_fields: BlockFields,
    /// Whether a later hook's answer replaces an earlier one's, as objects
    /// spread one over the other in configuration order: a later decision
    /// (PermissionRequest allow or deny; Stop and SubagentStop block or
    /// allow) replaces an earlier one, and a later hook's SessionStart
    /// context replaces the earlier context; a hook that answers nothing
    /// leaves what was there. Such events never stop early. Otherwise the
    /// first decision counts and every context is kept (merge column).
    pub later_overrides: bool,
    /// Stop family: `hookSpecificOutput.additionalContext` is context for
    /// the model, returned as the outcome's `additional_context` (reader
    /// and merge column).
    pub block_context: bool,
    /// Context family: only JSON `additionalContext` is context; plain
    /// stdout is an info message (reader column).
    pub json_context_only: bool,
    /// PreToolUse: `permissionDecision: "defer"` is a decision (reader column).
    pub defer: bool,
    /// Which common JSON fields are read (reader column).
    pub common_fields: CommonFields,
    /// Context family: each hook gets `CLAUDE_ENV_FILE`, and what the hooks
    /// write there is the outcome's `env` (merge column).
    pub env_file: bool,
    /// Stop: the engine's `stop_hook_block_cap` applies (merge column).
    pub block_cap: bool,
    /// A time budget the run's hooks share (timeout layer column).
    pub budget: Option<Budget>,
    /// PreToolUse: whether a deny drops the rewrites (merge column).
    pub rewrite_on_deny: RewriteOnDeny,
    /// PreToolUse: which of several rewrites wins (merge column).
    pub rewrite_winner: RewriteWinner,
    /// PostToolUse, Stop, SubagentStop: how several blocking reasons
    /// combine (merge column).
    pub block_reasons: BlockReasons,
    /// Stop, SubagentStop: whether a hook's `continue: false` cancels every
    /// block of the run (the agent stops instead of going on; merge column).
    pub halt_clears_block: bool,
    /// Which `stopReason` becomes the outcome's (merge column).
    pub halt_reason: HaltReason,
    /// Which text the outcome's reasons are (merge column).
    pub reasons: Reasons,
    /// Which hooks' `continue` counts (merge column).
    pub halt: HaltRule,
    /// PostToolUse, PostToolUseFailure: whether a block replaces the tool's
    /// result with its reason instead of adding feedback next to it (merge
    /// column; the outcome's `block_replaces_result`).
    pub block_replaces_result: bool,
    /// UserPromptSubmit, PostToolUse, PostToolUseFailure: a blocked run
    /// (a block, or `continue: false` read as one) keeps none of its
    /// hooks' context: the prompt or the tool result the context would be
    /// added to is discarded or replaced (merge column).
    pub block_drops_context: bool,
    /// What `ask` means (reader column).
    pub ask: AskRule,
    /// A hook that sets `failClosed` and exits 0 without any output fails
    /// (a failure of kind `no_output`); without `failClosed` empty output
    /// is no answer (reader column).
    pub empty_output_fails_closed: bool,
    /// The event is a gate whatever its canonical family: its hooks allow,
    /// deny or ask as PreToolUse's do, and its outcome has PreToolUse's
    /// shape (Cursor's subagentStart, beforeReadFile, ...; reader and
    /// merge column).
    pub tool_gate: bool,
    /// Stop, SubagentStop: a block is a follow-up message counted against
    /// the hook's `loop_limit`: a hook that has already triggered that
    /// many follow-ups in the session (the input's `loop_count`, else the
    /// engine's count per hook and session) no longer blocks (merge
    /// column).
    pub follow_up_loop_limit: bool,
    /// Stop, SubagentStop: a block counts only when the input's `status` is
    /// `completed`, or absent (merge column).
    pub block_needs_completed_status: bool,
    /// SessionStart: the `env` object hooks write in their output is the
    /// outcome's `env`, and the engine gives it to the session's later
    /// hooks of the same dialect (merge column).
    pub session_env_from_output: bool,
    /// A JSON object on the stdout of a hook that exited with a code other
    /// than 0 and 2 is read as on exit 0: its fields decide, its context is
    /// kept, and the hook is neither a failure nor given an exit message.
    /// On exit 2 the JSON's context is kept where exit 2 does not block.
    /// Plain or empty stdout on such an exit stays a non-blocking error
    /// (reader column).
    pub json_over_exit_code: bool,
    /// Stderr written by a hook that exited 0 goes to the debug log only,
    /// never into the outcome's messages (reader column).
    pub quiet_success_stderr: bool,
}

/// One column of an [`EventRules`] row with a non-neutral value, as readers
/// and mergers declare what they honour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// `run_order: Sequential`.
    Sequential,
    /// `precedence: MostRestrictive`.
    MostRestrictive,
    /// `precedence: LastWord`.
    LastWordDecides,
    /// `tool_input: Original`.
    OriginalToolInput,
    /// `on_failure: DenyTimeoutsUnlessAsk`.
    DenyTimeoutsUnlessAsk,
    /// `precedence: FirstDenyStops`.
    FirstDenyStops,
    /// `on_failure: DenyFailuresExceptTimeouts`.
    DenyFailuresExceptTimeouts,
    /// `exit2: Warning`.
    Exit2Warning,
    /// `exit2: Context`.
    Exit2Context,
    /// `later_overrides: true`.
    LaterOverrides,
    /// `exit2: Block { .. }`.
    Exit2Block,
    /// `exit2: StderrToUser`.
    Exit2StderrToUser,
    /// `exit2: Ignored`.
    Exit2Ignored,
    /// `failure_level: Error` (the neutral level is a warning).
    FailureLevelError,
    /// `context_needs_exit_0: true`.
    ContextNeedsExit0,
    /// `block_fields` other than `None`.
    BlockFields,
    /// `block_context: true`.
    BlockContext,
    /// `json_context_only: true`.
    JsonContextOnly,
    /// `defer: true`.
    Defer,
    /// `common_fields: IgnoreContinue` or `Discard`.
    CommonFields,
    /// `env_file: true`.
    EnvFile,
    /// `block_cap: true`.
    BlockCap,
    /// `budget: Some(..)`.
    Budget,
    /// `rewrite_on_deny: Dropped`.
    RewriteDroppedOnDeny,
    /// `rewrite_winner: LastFinished`.
    LastFinishedRewrite,
    /// `rewrite_winner: MergedPatches`.
    MergedPatches,
    /// `block_reasons: Joined(..)`.
    JoinedBlockReasons,
    /// `halt_clears_block: true`.
    HaltClearsBlock,
    /// `halt_reason: FirstGiven`.
    FirstGivenHaltReason,
    /// `run_order: SequentialWhenAsked`.
    SequentialWhenAsked,
    /// `reasons: EveryReasonJoined(..)`.
    EveryReasonJoined,
    /// `halt: LastWord`.
    HaltLastWord,
    /// `block_replaces_result: true`.
    BlockReplacesResult,
    /// `block_drops_context: true`.
    BlockDropsContext,
    /// `block_fields: FollowupMessage`.
    FollowupMessage,
    /// `exit2: Block { reason: RawStdout, .. }` (with [`Column::Exit2Block`]).
    Exit2RawStdout,
    /// `on_failure: Open`.
    NeverFailsClosed,
    /// `ask: Ignored`.
    AskIgnored,
    /// `ask: Denies`.
    AskDenies,
    /// `empty_output_fails_closed: true`.
    EmptyOutputFailsClosed,
    /// `tool_gate: true`.
    ToolGate,
    /// `follow_up_loop_limit: true`.
    FollowUpLoopLimit,
    /// `block_needs_completed_status: true`.
    BlockNeedsCompletedStatus,
    /// `session_env_from_output: true`.
    SessionEnvFromOutput,
    /// `json_over_exit_code: true`.
    JsonOverExitCode,
    /// `quiet_success_stderr: true`.
    QuietSuccessStderr,
}

impl EventRules {
    /// The neutral row: concurrent, every decision counts in order (VT
    /// Code's first allow/deny), chained input, fail open, exit 2 like any
    /// failure, failures as warnings, context whatever the exit code,
    /// nothing blocks, rewrites kept on a deny, the first block reason and
    /// the first halting hook's `stopReason` count, a halt leaves blocks
    /// alone, the deciding hook's reasons, any hook halts, a PostToolUse
    /// block is feedback next to the result, `ask` asks, empty output is no
    /// answer, the event's own family, no follow-up limit, blocks whatever
    /// the status, no env from output. A column differs from it only
    /// where a table asks for a rule,
    /// and every such column must be honoured by its reader or merger.
    pub const NEUTRAL: EventRules = EventRules {
        run_order: RunOrder::Concurrent,
        precedence: Precedence::FirstAllowOrDeny,
        tool_input: ToolInputFlow::Chained,
        on_failure: OnFailure::OpenUnlessFailClosed,
        exit2: Exit2::Ordinary,
        failure_level: HookMessageLevel::Warning,
        context_needs_exit_0: false,
        block_fields: BlockFields::None,
        later_overrides: false,
        block_context: false,
        json_context_only: false,
        defer: false,
        common_fields: CommonFields::Read,
        env_file: false,
        block_cap: false,
        budget: None,
        rewrite_on_deny: RewriteOnDeny::Kept,
        rewrite_winner: RewriteWinner::LastConfigured,
        block_reasons: BlockReasons::First,
        halt_clears_block: false,
        halt_reason: HaltReason::FirstHalt,
        reasons: Reasons::Deciding,
        halt: HaltRule::AnyHook,
        block_replaces_result: false,
        block_drops_context: false,
        ask: AskRule::Kept,
        empty_output_fails_closed: false,
        tool_gate: false,
        follow_up_loop_limit: false,
        block_needs_completed_status: false,
        session_env_from_output: false,
        json_over_exit_code: false,
        quiet_success_stderr: false,
    };

    /// The columns of this row that differ from [`EventRules::NEUTRAL`].
    pub fn set_columns(&self) -> Vec<Column> {
        let n = EventRules::NEUTRAL;
        let mut out = Vec::new();
        match self.run_order {
            RunOrder::Concurrent => {}
            RunOrder::Sequential => out.push(Column::Sequential),
            RunOrder::SequentialWhenAsked => out.push(Column::SequentialWhenAsked),
        }
        match self.precedence {
            Precedence::FirstAllowOrDeny => {}
            Precedence::MostRestrictive => out.push(Column::MostRestrictive),
            Precedence::FirstDenyStops => out.push(Column::FirstDenyStops),
            Precedence::LastWord => out.push(Column::LastWordDecides),
        }
        if self.tool_input != n.tool_input {
            out.push(Column::OriginalToolInput);
        }
        match self.on_failure {
            OnFailure::OpenUnlessFailClosed => {}
            OnFailure::DenyTimeoutsUnlessAsk => out.push(Column::DenyTimeoutsUnlessAsk),
            OnFailure::Open => out.push(Column::NeverFailsClosed),
            OnFailure::DenyFailuresExceptTimeouts { .. } => out.push(Column::DenyFailuresExceptTimeouts),
        }
        match self.exit2 {
            Exit2::Ordinary => {}
            Exit2::Block { reason: Exit2Reason::RawStdout, .. } => {
                out.push(Column::Exit2Block);
                out.push(Column::Exit2RawStdout);
            }
            Exit2::Block { .. } => out.push(Column::Exit2Block),
            Exit2::StderrToUser => out.push(Column::Exit2StderrToUser),
            Exit2::Ignored => out.push(Column::Exit2Ignored),
            Exit2::Warning => out.push(Column::Exit2Warning),
            Exit2::Context => out.push(Column::Exit2Context),
        }
        if self.failure_level == HookMessageLevel::Error {
            out.push(Column::FailureLevelError);
        }
        if self.context_needs_exit_0 {
            out.push(Column::ContextNeedsExit0);
        }
        match self.block_fields {
            BlockFields::None => {}
            BlockFields::FollowupMessage => out.push(Column::FollowupMessage),
            BlockFields::Decision | BlockFields::DecisionOrContinueFalse | BlockFields::DecisionOrSpecific => {
                out.push(Column::BlockFields)
            }
        }
        match self.ask {
            AskRule::Kept => {}
            AskRule::Ignored => out.push(Column::AskIgnored),
            AskRule::Denies => out.push(Column::AskDenies),
        }
        if self.empty_output_fails_closed {
            out.push(Column::EmptyOutputFailsClosed);
        }
        if self.tool_gate {
            out.push(Column::ToolGate);
        }
        if self.follow_up_loop_limit {
            out.push(Column::FollowUpLoopLimit);
        }
        if self.block_needs_completed_status {
            out.push(Column::BlockNeedsCompletedStatus);
        }
        if self.session_env_from_output {
            out.push(Column::SessionEnvFromOutput);
        }
        if self.later_overrides {
            out.push(Column::LaterOverrides);
        }
        let flags = [
            (self.block_context, Column::BlockContext),
            (self.json_context_only, Column::JsonContextOnly),
            (self.defer, Column::Defer),
            (self.common_fields != n.common_fields, Column::CommonFields),
            (self.env_file, Column::EnvFile),
            (self.block_cap, Column::BlockCap),
            (self.budget.is_some(), Column::Budget),
            (self.json_over_exit_code, Column::JsonOverExitCode),
            (self.quiet_success_stderr, Column::QuietSuccessStderr),
        ];
        out.extend(flags.into_iter().filter(|(set, _)| *set).map(|(_, c)| c));
        if self.rewrite_on_deny != n.rewrite_on_deny {
            out.push(Column::RewriteDroppedOnDeny);
        }
        match self.rewrite_winner {
            RewriteWinner::LastConfigured => {}
            RewriteWinner::LastFinished => out.push(Column::LastFinishedRewrite),
            RewriteWinner::MergedPatches => out.push(Column::MergedPatches),
        }
        if self.block_reasons != n.block_reasons {
            out.push(Column::JoinedBlockReasons);
        }
        if self.reasons != n.reasons {
            out.push(Column::EveryReasonJoined);
        }
        if self.halt != n.halt {
            out.push(Column::HaltLastWord);
        }
        if self.halt_clears_block {
            out.push(Column::HaltClearsBlock);
        }
        if self.block_replaces_result {
            out.push(Column::BlockReplacesResult);
        }
        if self.block_drops_context {
            out.push(Column::BlockDropsContext);
        }
        if self.halt_reason != n.halt_reason {
            out.push(Column::FirstGivenHaltReason);
        }
        out
    }

    /// Whether a hook of this row can block (exit 2 or a JSON field).
    pub fn can_block(&self) -> bool {
        self.block_fields != BlockFields::None || matches!(self.exit2, Exit2::Block { .. })
    }
}

/// One value per canonical event, by name (never by position, so two rows
/// cannot be swapped unnoticed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventTable<T> {
    pub session_start: T,
    pub session_end: T,
    pub subagent_start: T,
    pub subagent_stop: T,
    pub user_prompt_submit: T,
    pub pre_tool_use: T,
    pub post_tool_use: T,
    pub permission_request: T,
    pub pre_compact: T,
    pub stop: T,
    pub notification: T,
    pub post_tool_use_failure: T,
}

impl<T> EventTable<T> {
    /// The row of `event`.
    pub const fn get(&self, event: HookEvent) -> &T {
        match event {
            HookEvent::SessionStart => &self.session_start,
            HookEvent::SessionEnd => &self.session_end,
            HookEvent::SubagentStart => &self.subagent_start,
            HookEvent::SubagentStop => &self.subagent_stop,
            HookEvent::UserPromptSubmit => &self.user_prompt_submit,
            HookEvent::PreToolUse => &self.pre_tool_use,
            HookEvent::PostToolUse => &self.post_tool_use,
            HookEvent::PermissionRequest => &self.permission_request,
            HookEvent::PreCompact => &self.pre_compact,
            HookEvent::Stop => &self.stop,
            HookEvent::Notification => &self.notification,
            HookEvent::PostToolUseFailure => &self.post_tool_use_failure,
        }
    }
}

/// Every canonical event's family ([`HookEvent::family`]), where a
/// profile's [`Profile::families`] starts.
pub const CANONICAL_FAMILIES: EventTable<EventFamily> = EventTable {
    session_start: HookEvent::SessionStart.family(),
    session_end: HookEvent::SessionEnd.family(),
    subagent_start: HookEvent::SubagentStart.family(),
    subagent_stop: HookEvent::SubagentStop.family(),
    user_prompt_submit: HookEvent::UserPromptSubmit.family(),
    pre_tool_use: HookEvent::PreToolUse.family(),
    post_tool_use: HookEvent::PostToolUse.family(),
    permission_request: HookEvent::PermissionRequest.family(),
    pre_compact: HookEvent::PreCompact.family(),
    stop: HookEvent::Stop.family(),
    notification: HookEvent::Notification.family(),
    post_tool_use_failure: HookEvent::PostToolUseFailure.family(),
};

/// What the matcher of an event fired by name is tested against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// Nothing: the event has no matcher support and every group matches.
    None,
    /// A string field of the input (`tool_name`, `source`, ...).
    Field(&'static str),
    /// The file name (last path component) of a string field of the input
    /// (FileChanged: the changed file's basename).
    FileName(&'static str),
}

/// Which matcher rule an event's groups compile with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatcherRule {
    /// The dialect's rule.
    Standard,
    /// Claude Code's narrower exact-match set (letters, digits, `_` and
    /// `|` only; FileChanged, StopFailure): a hyphen, space or comma keeps
    /// the matcher on the regular-expression path.
    Narrow,
}

/// One event a dialect knows by name that is none of the twelve canonical
/// ones: its family (outcome shape, reader, merger), its rules, and what
/// its matcher is tested against.
#[derive(Clone, Copy, Debug)]
pub struct NamedEventRules {
    /// The config key, exactly (`TaskCreated`).
    pub name: &'static str,
    /// Which reader and merger read it, and the shape of its outcome.
    pub family: EventFamily,
    /// Its row.
    pub rules: EventRules,
    /// What its matcher is tested against (the input's `matcher_value`,
    /// when the host gives one, comes first).
    pub subject: Subject,
    /// Its matcher rule.
    pub matcher: MatcherRule,
    /// Whether it carries a tool call (`tool_name`, `tool_input`): `if`
    /// conditions are evaluated on it.
    pub tool_event: bool,
}

/// The default timeouts of the handler types other than `command` (whose
/// default is [`Profile::default_timeout`]), and the events that lower it.
#[derive(Debug)]
pub struct HandlerTimeouts {
    /// A `prompt` hook that sets none.
    pub prompt: Duration,
    /// An `agent` hook that sets none.
    pub agent: Duration,
    /// Events (by name) whose `command`, `http` and `mcp_tool` hooks that
    /// set no timeout get this one instead of the default.
    pub lowered: &'static [(&'static str, Duration)],
}

/// One dialect's rules.
#[derive(Debug)]
pub struct Profile {
    /// The dialect's name (`"vtcode"`, `"claude"`, ...).
    pub name: &'static str,
    /// The timeout of a `command`, `http` or `mcp_tool` hook that sets none.
    pub default_timeout: Duration,
    /// The unit of the timeouts its hooks write.
    pub timeout_unit: TimeoutUnit,
    /// The default timeouts of the other handler types.
    pub handler_timeouts: HandlerTimeouts,
    /// The variables whose `${NAME}` placeholders exec-form commands
    /// (`args`) substitute literally (none in dialects without exec form).
    pub exec_placeholders: &'static [&'static str],
    /// Input validation.
    pub inputs: InputRules,
    /// Which duplicate hooks of one event run.
    pub dedupe: Dedupe,
    /// How one dialect field given by several hooks combines.
    pub dialect_fields: FieldMerge,
    /// The family of each canonical event (usually
    /// [`CANONICAL_FAMILIES`]).
    pub families: EventTable<EventFamily>,
    /// The rules per event.
    pub events: EventTable<EventRules>,
    /// The events the dialect knows by name besides the twelve (fired with
    /// `hl_engine_run_named`), each with its own rules.
    pub named: &'static [NamedEventRules],
    /// The rules of events fired by a name the dialect does not know (an
    /// observer's, in the observer family).
    pub unknown_event: EventRules,
}

impl Profile {
    /// The rules of `event`.
    pub fn rules(&self, event: HookEvent) -> &EventRules {
        self.events.get(event)
    }

    /// The rules of an event of a run (known or fired by name).
    pub fn rules_of(&self, event: &RunEvent) -> &EventRules {
        match event {
            RunEvent::Known(e) => self.rules(*e),
            RunEvent::Named(name) => self.named(name).map_or(&self.unknown_event, |n| &n.rules),
        }
    }

    /// The family of an event of a run: the profile's for a canonical
    /// event, its named row's, else the observer family.
    pub fn family_of(&self, event: &RunEvent) -> EventFamily {
        match event {
            RunEvent::Known(e) => *self.families.get(*e),
            RunEvent::Named(name) => self.named(name).map_or(EventFamily::Observe, |n| n.family),
        }
    }

    /// The row of an event the profile knows by `name` (none of the twelve).
    pub fn named(&self, name: &str) -> Option<&NamedEventRules> {
        self.named.iter().find(|n| n.name == name)
    }

    /// Whether an event of a run carries a tool call (`if` conditions are
    /// evaluated on it).
    pub fn is_tool_event(&self, event: &RunEvent) -> bool {
        match event {
            RunEvent::Known(e) => e.is_tool_event(),
            RunEvent::Named(name) => self.named(name).is_some_and(|n| n.tool_event),
        }
    }
}
