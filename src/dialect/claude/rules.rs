//! Claude Code's rule table: per event how its hooks run and how their
//! answers combine ([`PROFILE`]), the events it has besides the canonical
//! ones ([`NAMED`]), and its event keys. Each row quotes the hooks
//! reference.

use std::time::Duration;

use crate::model::event::EventFamily;
use crate::model::outcome::HookMessageLevel::Error as ErrorLevel;
use crate::model::rules::{
    BlockFields, BlockReasons, Budget, CommonFields, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, FieldMerge,
    HandlerTimeouts, InputRules, MatcherRule, NamedEventRules, OnFailure, Precedence, Profile, RunOrder, Subject,
    TimeoutUnit, ToolInputFlow, CANONICAL_FAMILIES,
};

pub(super) const BLOCK: Exit2 = Exit2::Block { reason: Exit2Reason::StdoutThenStderr, needs_stderr: false };
pub(super) const FEEDBACK: Exit2 = Exit2::Block { reason: Exit2Reason::StdoutThenStderr, needs_stderr: true };
/// Every event: "Claude Code reads JSON output fields from stdout on every
/// exit code, not just 0" (on another code than 0 and 2, "Claude Code
/// ignores the exit code and the JSON alone decides the outcome ... the hook
/// isn't reported as an error"), and "Stderr from a hook that exits 0 goes
/// to the debug log only, never the transcript".
pub(super) const BASE: EventRules = EventRules {
    failure_level: ErrorLevel,
    json_over_exit_code: true,
    quiet_success_stderr: true,
    ..EventRules::NEUTRAL
};
pub(super) const OBSERVER: EventRules = EventRules { exit2: Exit2::StderrToUser, ..BASE };
pub(super) const IGNORED: EventRules = EventRules { exit2: Exit2::Ignored, ..BASE };
/// Stop and SubagentStop: "all matching hooks run in parallel"; every
/// block's reason is fed back; `additionalContext` is non-error feedback.
/// `decision: "block"` blocks; `continue: false` "takes precedence over any
/// event-specific decision fields": Claude stops, and no hook's block
/// counts.
pub(super) const STOP: EventRules = EventRules {
    block_fields: BlockFields::Decision,
    halt_clears_block: true,
    exit2: BLOCK,
    block_reasons: BlockReasons::Joined("\n"),
    block_context: true,
    ..BASE
};

/// The Claude Code profile: Claude Code's decisions, as its hooks reference
/// documents them.
pub static PROFILE: Profile = RULES;

/// [`PROFILE`] as a constant, for the hosts that copy Claude Code's rules
/// (`Profile { name, named, ..RULES }`: Devin CLI, Factory Droid).
pub const RULES: Profile = Profile {
    name: "claude",
    default_timeout: Duration::from_secs(600),
    handler_timeouts: HandlerTimeouts {
        prompt: Duration::from_secs(30),
        agent: Duration::from_secs(60),
        // "UserPromptSubmit lowers the command, http, and mcp_tool default
        // to 30, and MessageDisplay lowers it to 10"; PreModelSwitch and
        // PostModelSwitch (2.1.251) lower it to 30 as well.
        lowered: &[
            ("UserPromptSubmit", Duration::from_secs(30)),
            ("PreModelSwitch", Duration::from_secs(30)),
            ("PostModelSwitch", Duration::from_secs(30)),
            ("MessageDisplay", Duration::from_secs(10)),
        ],
    },
    exec_placeholders: &["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"],
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Lenient,
    dedupe: Dedupe::IdenticalHandlers,
    dialect_fields: FieldMerge::FirstOrAppended,
    // SubagentStart "can't block subagent creation, but can inject context":
    // the context family, whose outcome has `additional_context`.
    families: EventTable { subagent_start: EventFamily::Context, ..CANONICAL_FAMILIES },
    events: EventTable {
        session_start: EventRules { context_needs_exit_0: true, env_file: true, ..OBSERVER },
        // "SessionEnd hooks share a 1.5-second budget; if your settings set
        // a longer per-hook timeout, Claude Code raises the budget to
        // match, up to 60 seconds."
        // "Claude Code discards their JSON output fields, such as
        // systemMessage."
        session_end: EventRules {
            budget: Some(Budget { base: Duration::from_millis(1500), max: Duration::from_secs(60) }),
            common_fields: DISCARD,
            ..OBSERVER
        },
        subagent_start: EventRules { json_context_only: true, ..OBSERVER },
        subagent_stop: STOP,
        user_prompt_submit: EventRules {
            context_needs_exit_0: true,
            run_order: RunOrder::Sequential,
            exit2: BLOCK,
            ..BASE
        },
        pre_tool_use: EventRules {
            precedence: Precedence::MostRestrictive,
            tool_input: ToolInputFlow::Original,
            exit2: BLOCK,
            defer: true,
            ..BASE
        },
        post_tool_use: EventRules { exit2: FEEDBACK, ..BASE },
        permission_request: EventRules { run_order: RunOrder::Sequential, exit2: Exit2::Ignored, ..BASE },
        // "Claude Code discards a PreCompact hook's systemMessage and
        // continue fields."
        pre_compact: EventRules { block_fields: BlockFields::Decision, exit2: BLOCK, common_fields: DISCARD, ..BASE },
        // "Claude Code overrides the hook and ends the turn after 8
        // consecutive blocks."
        stop: EventRules { block_cap: true, ..STOP },
        // "Claude Code discards their systemMessage and continue fields."
        notification: EventRules { common_fields: DISCARD, ..IGNORED },
        post_tool_use_failure: EventRules { exit2: FEEDBACK, ..BASE },
    },
    named: NAMED,
    unknown_event: OBSERVER,
};

pub(super) const fn named(
    name: &'static str,
    family: EventFamily,
    rules: EventRules,
    subject: Subject,
) -> NamedEventRules {
    NamedEventRules { name, family, rules, subject, matcher: MatcherRule::Standard, tool_event: false }
}

pub(super) const DISCARD: CommonFields = CommonFields::Discard;

/// The events Claude Code has besides the twelve canonical ones, each with
/// the exit-2 and decision rules of the reference's tables ("Exit code 2
/// behavior per event", "Decision control") and the field its matcher is
/// tested against.
pub static NAMED: &[NamedEventRules] = &[
    // "Setup hooks can't block"; exit 2 "shows stderr to user only";
    // context only from JSON ("plain stdout is written to the debug log
    // only"); hooks have CLAUDE_ENV_FILE.
    named(
        "Setup",
        EventFamily::Context,
        EventRules { json_context_only: true, env_file: true, ..OBSERVER },
        Subject::Field("trigger"),
    ),
    // "Exit code is ignored"; "Claude Code discards their JSON output
    // fields, such as systemMessage and continue."
    named(
        "InstructionsLoaded",
        EventFamily::Observe,
        EventRules { common_fields: DISCARD, ..IGNORED },
        Subject::Field("load_reason"),
    ),
    // "Blocks the expansion"; plain stdout is context as for
    // UserPromptSubmit.
    named(
        "UserPromptExpansion",
        EventFamily::Prompt,
        EventRules { context_needs_exit_0: true, exit2: BLOCK, ..BASE },
        Subject::Field("command_name"),
    ),
    // Display only: "the original text is displayed"; systemMessage and
    // continue are discarded.
    named("MessageDisplay", EventFamily::Observe, EventRules { common_fields: DISCARD, ..IGNORED }, Subject::None),
    // PreModelSwitch (2.1.251): before a model switch the user asked for;
    // the matcher tests the model switched to. It decides like PreToolUse
    // (`permissionDecision` allow, deny or ask with its reason, the older
    // `decision: "block"`; exit 2 blocks with stderr; most restrictive
    // wins), and "a PreModelSwitch hook cancelled at its timeout blocks the
    // switch".
    named(
        "PreModelSwitch",
        EventFamily::Tool,
        EventRules {
            precedence: Precedence::MostRestrictive,
            tool_input: ToolInputFlow::Original,
            exit2: BLOCK,
            on_failure: OnFailure::DenyTimeoutsUnlessAsk,
            ..BASE
        },
        Subject::Field("to_model"),
    ),
    // PostModelSwitch (2.1.251): after any model switch, automatic ones
    // too; cannot block; `additionalContext`, and plain stdout on exit 0 is
    // context ("Claude Code adds plain-text stdout as context" on it as on
    // SessionStart).
    named(
        "PostModelSwitch",
        EventFamily::Context,
        EventRules { context_needs_exit_0: true, ..OBSERVER },
        Subject::Field("to_model"),
    ),
    // "Exit code and stderr are ignored because the denial already
    // occurred"; `hookSpecificOutput.retry: true`.
    NamedEventRules {
        tool_event: true,
        ..named("PermissionDenied", EventFamily::Retry, IGNORED, Subject::Field("tool_name"))
    },
    // "Returning decision: "block" or continue: false stops the agentic
    // loop before the next model call"; exit 2 blocks with stderr.
    named(
        "PostToolBatch",
        EventFamily::PostTool,
        EventRules { block_fields: BlockFields::DecisionOrContinueFalse, exit2: BLOCK, ..BASE },
        Subject::None,
    ),
    // "Exit code 2 or decision: "block" cancels the task ... continue:
    // false is ignored".
    named(
        "TaskCreated",
        EventFamily::Stop,
        EventRules {
            block_fields: BlockFields::Decision,
            exit2: BLOCK,
            common_fields: CommonFields::IgnoreContinue,
            ..BASE
        },
        Subject::None,
    ),
    // "Exit code 2: the task is not marked as completed"; continue: false
    // stops the teammate (the common `continue`).
    // "JSON {"continue": false, "stopReason": "..."} also stops the
    // teammate entirely, matching Stop hook behavior": a halt, over blocks.
    named(
        "TaskCompleted",
        EventFamily::Stop,
        EventRules { exit2: BLOCK, halt_clears_block: true, ..BASE },
        Subject::None,
    ),
    // "Output and exit code are ignored".
    NamedEventRules {
        matcher: MatcherRule::Narrow,
        ..named(
            "StopFailure",
            EventFamily::Observe,
            // Events "that discard hook output entirely, like StopFailure,
            // ignore your JSON on every exit code".
            EventRules { common_fields: DISCARD, json_over_exit_code: false, ..IGNORED },
            Subject::Field("error"),
        )
    },
    // "Exit code 2: the teammate receives the stderr message as feedback
    // and continues working"; continue: false stops the teammate.
    named(
        "TeammateIdle",
        EventFamily::Stop,
        EventRules { exit2: BLOCK, halt_clears_block: true, ..BASE },
        Subject::None,
    ),
    // "Use exit code 2 or a JSON decision to prevent the change"; Claude
    // Code "discards systemMessage and continue".
    named(
        "ConfigChange",
        EventFamily::Stop,
        EventRules { block_fields: BlockFields::Decision, exit2: BLOCK, common_fields: DISCARD, ..BASE },
        Subject::Field("source"),
    ),
    // No decision control; Claude Code "discards continue".
    named(
        "CwdChanged",
        EventFamily::Observe,
        EventRules { common_fields: CommonFields::IgnoreContinue, ..OBSERVER },
        Subject::None,
    ),
    // "Stderr goes to the debug log"; Claude Code "discards the continue field".
    named(
        "DirectoryAdded",
        EventFamily::Observe,
        EventRules { common_fields: CommonFields::IgnoreContinue, ..IGNORED },
        Subject::Field("source"),
    ),
    // The matcher filters on the changed file's basename, with the narrow
    // exact-match set; Claude Code "discards continue".
    NamedEventRules {
        matcher: MatcherRule::Narrow,
        ..named(
            "FileChanged",
            EventFamily::Observe,
            EventRules { common_fields: CommonFields::IgnoreContinue, ..OBSERVER },
            Subject::FileName("file_path"),
        )
    },
    // "Any non-zero exit code causes worktree creation to fail"; the path
    // on stdout; systemMessage and continue discarded.
    // "WorktreeCreate fails creation on any nonzero exit no matter what
    // your JSON says."
    named(
        "WorktreeCreate",
        EventFamily::Worktree,
        EventRules { common_fields: DISCARD, json_over_exit_code: false, ..BASE },
        Subject::None,
    ),
    // "Failures are logged in debug mode only"; JSON output discarded.
    named("WorktreeRemove", EventFamily::Observe, EventRules { common_fields: DISCARD, ..IGNORED }, Subject::None),
    // No decision control; systemMessage and continue discarded.
    named(
        "PostCompact",
        EventFamily::Observe,
        EventRules { common_fields: DISCARD, ..OBSERVER },
        Subject::Field("trigger"),
    ),
    // "Exit code 2 denies the elicitation"; hookSpecificOutput.action.
    named(
        "Elicitation",
        EventFamily::Elicitation,
        EventRules {
            exit2: Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: false },
            common_fields: DISCARD,
            ..BASE
        },
        Subject::Field("mcp_server_name"),
    ),
    // "Exit code 2 blocks the response, changing the effective action to decline".
    named(
        "ElicitationResult",
        EventFamily::Elicitation,
        EventRules {
            exit2: Exit2::Block { reason: Exit2Reason::StderrIgnoringStdout, needs_stderr: false },
            common_fields: DISCARD,
            ..BASE
        },
        Subject::Field("mcp_server_name"),
    ),
];

/// The PascalCase config key of each event (its canonical name).
pub(super) static KEYS: EventTable<&str> = EventTable {
    session_start: "SessionStart",
    session_end: "SessionEnd",
    subagent_start: "SubagentStart",
    subagent_stop: "SubagentStop",
    user_prompt_submit: "UserPromptSubmit",
    pre_tool_use: "PreToolUse",
    post_tool_use: "PostToolUse",
    permission_request: "PermissionRequest",
    pre_compact: "PreCompact",
    stop: "Stop",
    notification: "Notification",
    post_tool_use_failure: "PostToolUseFailure",
};
