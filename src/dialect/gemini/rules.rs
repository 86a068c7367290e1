//! Gemini CLI's rule table: per event how its hooks run and how their
//! answers combine ([`PROFILE`]), its own events with no canonical meaning,
//! and the config key of each canonical event.

use std::time::Duration;

use crate::model::event::EventFamily;
use crate::model::rules::{
    BlockFields, Dedupe, EventRules, EventTable, FieldMerge, HaltRule, HandlerTimeouts, InputRules, MatcherRule,
    NamedEventRules, Precedence, Profile, Reasons, RewriteOnDeny, RunOrder, Subject, TimeoutUnit, CANONICAL_FAMILIES,
};

/// Every event: concurrent unless a matching definition says
/// `sequential: true`; nothing stops early; failures are warnings.
pub(super) const BASE: EventRules = EventRules { run_order: RunOrder::SequentialWhenAsked, ..EventRules::NEUTRAL };

/// The events Gemini CLI aggregates with its "OR" strategy: a block wins,
/// and the reason of the run is every reason joined with `\n`.
pub(super) const OR: EventRules = EventRules { reasons: Reasons::EveryReasonJoined("\n"), ..BASE };

/// AfterTool: a block (or `continue: false`) replaces the tool's result
/// with its reason, and the context is not appended.
pub(super) const AFTER_TOOL: EventRules = EventRules { block_replaces_result: true, block_drops_context: true, ..OR };

/// BeforeModel and AfterModel: field replacement, so the last hook that
/// said `continue` decides, and the last that gave a `decision` (a later
/// allow undoes an earlier block).
pub(super) const FIELD_REPLACEMENT: EventRules =
    EventRules { halt: HaltRule::LastWord, precedence: Precedence::LastWord, ..BASE };

/// A Gemini CLI event with no canonical meaning: an observer (its fields
/// are the dialect's own, under `dialect_fields`), whose matcher is not
/// used (every group matches), carrying no tool call.
pub(super) const fn native(name: &'static str, rules: EventRules) -> NamedEventRules {
    native_of(name, EventFamily::Observe, rules)
}

/// A Gemini CLI event with no canonical meaning, of `family`.
pub(super) const fn native_of(name: &'static str, family: EventFamily, rules: EventRules) -> NamedEventRules {
    NamedEventRules { name, family, rules, subject: Subject::None, matcher: MatcherRule::Standard, tool_event: false }
}

/// The Gemini CLI profile.
pub static PROFILE: Profile = Profile {
    name: "gemini",
    default_timeout: Duration::from_millis(60_000),
    timeout_unit: TimeoutUnit::Milliseconds,
    // Gemini CLI configures command hooks only.
    handler_timeouts: HandlerTimeouts {
        prompt: Duration::from_millis(60_000),
        agent: Duration::from_millis(60_000),
        lowered: &[],
    },
    exec_placeholders: &[],
    inputs: InputRules::Lenient,
    dedupe: Dedupe::NameAndCommand,
    dialect_fields: FieldMerge::FirstOrAppended,
    families: CANONICAL_FAMILIES,
    events: EventTable {
        session_start: BASE,
        session_end: BASE,
        subagent_start: BASE,
        subagent_stop: BASE,
        // BeforeAgent: a block (or `continue: false`) blocks the prompt,
        // and the context that would have been added to it goes with it.
        user_prompt_submit: EventRules { block_drops_context: true, ..OR },
        // BeforeTool: deny > ask > no decision, whatever the order; a
        // denied call is not rebuilt with a hook's `tool_input`.
        pre_tool_use: EventRules {
            precedence: Precedence::MostRestrictive,
            rewrite_on_deny: RewriteOnDeny::Dropped,
            ..OR
        },
        // AfterTool: a block replaces the tool's result (no context is
        // appended to it, no tail call follows).
        post_tool_use: AFTER_TOOL,
        permission_request: BASE,
        // PreCompress is advisory: nothing blocks it.
        pre_compact: BASE,
        // AfterAgent: a block sends its reason back as the next prompt;
        // `continue: false` stops the agent instead.
        stop: EventRules { block_fields: BlockFields::Decision, halt_clears_block: true, ..OR },
        notification: BASE,
        post_tool_use_failure: AFTER_TOOL,
    },
    named: &[
        // A block stops the model call (or the response chunk): the
        // canonical deny, with PreToolUse's outcome shape.
        native_of("BeforeModel", EventFamily::Tool, FIELD_REPLACEMENT),
        native_of("AfterModel", EventFamily::Tool, FIELD_REPLACEMENT),
        native("BeforeToolSelection", BASE),
    ],
    unknown_event: BASE,
};

/// The config key of each canonical event (`""`: Gemini CLI has none).
pub(super) static KEYS: EventTable<&str> = EventTable {
    session_start: "SessionStart",
    session_end: "SessionEnd",
    subagent_start: "",
    subagent_stop: "",
    user_prompt_submit: "BeforeAgent",
    pre_tool_use: "BeforeTool",
    post_tool_use: "AfterTool",
    permission_request: "",
    pre_compact: "PreCompress",
    stop: "AfterAgent",
    notification: "Notification",
    post_tool_use_failure: "AfterTool",
};
