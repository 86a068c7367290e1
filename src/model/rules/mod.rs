//! The vocabulary of rule tables: what can differ between hooks protocols,
//! per event, as named columns.
//!
//! Every dialect ([`crate::dialect`]) has one [`Profile`]: per event an
//! [`EventRules`] row (how its hooks run, how their decisions combine, what
//! exit 2 means, which fields block, what a failing hook does), plus the
//! profile-wide columns (default timeout, input validation, deduplication,
//! the SessionStart env file). The tables themselves live with their
//! dialects (`src/dialect/<name>/`); this module only defines the columns.
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

mod profile;
mod values;

pub use profile::*;
pub use values::*;

use crate::model::outcome::HookMessageLevel;

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
