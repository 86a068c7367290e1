//! The canonical reply: what one hook said, in words every dialect shares.
//!
//! A dialect's reader ([`crate::dialect::Dialect::read_reply`]) turns one
//! hook's raw result (exit code, stdout, stderr; an HTTP response; a model's
//! verdict) into a [`HookReply`]; the canonical merge ([`crate::merge`]) folds the
//! replies of one event into its outcome with the event's merge columns.
//! The reader knows the vendor's output format and exit-code table; the merge
//! knows nothing about formats, only the canonical decisions.

use serde_json::{Map, Value};

use crate::model::outcome::{
    ElicitationAction, HookFailure, HookMessage, HookMessageLevel, PermissionBehavior, PermissionDecision,
    PermissionScope, PreToolHookDecision,
};

/// How a hook failed, for the report and for the failure policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The report's `failure` kind.
    pub kind: HookFailure,
    /// The failure as one sentence naming the hook (the reason of a
    /// fail-closed decision).
    pub text: String,
    /// The hook timed out or its exit status was lost: the failures VT
    /// Code's PreToolUse turns into a deny
    /// ([`OnFailure::DenyTimeoutsUnlessAsk`](crate::model::rules::OnFailure)).
    pub timeout_or_lost: bool,
}

/// An event's decision, as one hook made it.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// PreToolUse: allow, deny or ask, with the hook's reason.
    Tool(PreToolHookDecision, Option<String>),
    /// UserPromptSubmit, Stop, SubagentStop, PreCompact: block, with the
    /// reason (for Stop: what the agent works on next). PostToolUse and
    /// PostToolUseFailure: feedback for the model next to the tool result.
    Block(String),
    /// PermissionRequest: grant or refuse.
    Permission(PermissionDecision),
    /// Stop, SubagentStop: the hook let the agent stop (`decision:
    /// "allow"`). Where a later hook's answer overrides an earlier one's
    /// ([`EventRules::later_overrides`](crate::model::rules::EventRules)), it
    /// clears an earlier block; otherwise it decides nothing.
    Allow,
    /// PermissionDenied: the model may retry the denied call.
    Retry,
    /// WorktreeCreate: the path of the worktree the hook created.
    Path(String),
    /// Elicitation, ElicitationResult: the hook's answer.
    Elicitation(ElicitationAction, Option<Value>),
}

impl Decision {
    /// The decision in one word (a hook span's `hook.decision`): `allow`,
    /// `deny`, `ask` (PreToolUse), `allow` or `deny` (PermissionRequest),
    /// `block` (a block, or PostToolUse feedback), `allow` (a Stop hook that
    /// let the agent stop), `retry`
    /// (PermissionDenied), `path` (WorktreeCreate), the action (Elicitation).
    pub fn name(&self) -> &'static str {
        match self {
            Decision::Tool(d, _) => d.as_str(),
            Decision::Block(_) => "block",
            Decision::Allow => "allow",
            Decision::Permission(p) => p.behavior.as_str(),
            Decision::Retry => "retry",
            Decision::Path(_) => "path",
            Decision::Elicitation(a, _) => a.as_str(),
        }
    }

    /// The decision a failing `failClosed` hook takes on `family`'s event,
    /// `None` where the event has no blocking decision (observers, and
    /// PostToolUse, whose tool already ran).
    pub fn fail_closed(family: DecisionFamily, reason: String) -> Option<Decision> {
        match family {
            DecisionFamily::Tool => Some(Decision::Tool(PreToolHookDecision::Deny, Some(reason))),
            DecisionFamily::Permission => Some(Decision::Permission(PermissionDecision {
                behavior: PermissionBehavior::Deny,
                scope: PermissionScope::Once,
                updated_input: None,
                permission_updates: Vec::new(),
                interrupt: false,
                message: Some(reason),
            })),
            DecisionFamily::Block => Some(Decision::Block(reason)),
            DecisionFamily::Elicitation => Some(Decision::Elicitation(ElicitationAction::Decline, None)),
            DecisionFamily::None => None,
        }
    }
}

/// Which kind of blocking decision an event has (for `failClosed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionFamily {
    /// PreToolUse: deny.
    Tool,
    /// PermissionRequest: deny.
    Permission,
    /// UserPromptSubmit, Stop (and, where the profile lets them block,
    /// SubagentStop, PreCompact and the blocking events fired by name): block.
    Block,
    /// Elicitation, ElicitationResult: decline.
    Elicitation,
    /// Everything else: nothing blocks.
    None,
}

/// What one hook said.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HookReply {
    /// Messages for the host, in the order the hook gave them.
    pub messages: Vec<HookMessage>,
    /// How the hook failed; `None` when it answered (a deliberate exit 2 is
    /// an answer).
    pub failure: Option<Failure>,
    /// `continue: false`: the hook asks to halt the agent, with its
    /// `stopReason` (the inner `None`: without one).
    pub halt: Option<Option<String>>,
    /// The event's decision, if the hook made one.
    pub decision: Option<Decision>,
    /// PreToolUse: a replacement `tool_input` (a JSON object).
    pub updated_input: Option<Value>,
    /// Context for the model, in order.
    pub context: Vec<String>,
    /// Fields the hook wrote that have no canonical slot, by the vendor's
    /// name (the outcome's `dialect_fields`).
    pub dialect_fields: Map<String, Value>,
    /// The reason the hook stated, whatever it decided (read by tables
    /// whose reasons are every reason joined,
    /// [`Reasons::EveryReasonJoined`](crate::model::rules::Reasons)).
    pub reason: Option<String>,
    /// The hook said `continue: true` explicitly (where the halt rule is
    /// the last word, [`HaltRule::LastWord`](crate::model::rules::HaltRule),
    /// it undoes an earlier hook's `continue: false`).
    pub resumes: bool,
    /// SessionStart: variables for the session's later hooks, from the
    /// hook's output (read where the rules say `session_env_from_output`).
    pub env: Map<String, Value>,
}

impl HookReply {
    /// Add a message (trimmed; a blank one is dropped).
    pub fn push(&mut self, level: HookMessageLevel, text: impl Into<String>) {
        let text = text.into();
        let text = text.trim();
        if !text.is_empty() {
            self.messages.push(HookMessage { level, text: text.to_owned() });
        }
    }
}
