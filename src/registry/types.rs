//! What the registry's callbacks return and what a run returns: a
//! decision ([`HookResult`]), the callback kinds ([`HookCallback`]), a
//! callback's failure ([`CallbackError`]), a run's result ([`RunResult`])
//! and the contract the registry follows ([`Contract`]).

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::callback::SharedCallback;

use super::{
    CompactionContext, HookPoint, InteractionContext, PostTurnContext, PreTurnContext, SessionContext, StopContext,
    ToolCallContext, ToolErrorContext, ToolResultContext,
};

/// A decision, returned by decide
/// callbacks and by the decide runs.
///
/// `modified_args`, when a `pre_tool_call_decide` callback sets it, must be a
/// JSON object: it is shallow-merged into the tool arguments that later
/// callbacks see (any other non-null value makes the callback count as
/// failed). In the result of [`Hooks::run_pre_tool_call_decide`](super::Hooks::run_pre_tool_call_decide) it holds the
/// merged arguments when any callback modified them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HookResult {
    /// Whether execution should proceed.
    pub allow: bool,
    /// Explanation (the deny reason), may be empty.
    pub message: String,
    /// Arguments to merge into `tool_args` (decide callbacks), or the merged
    /// arguments (run result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified_args: Option<Value>,
}

impl HookResult {
    /// Allow, with an empty message.
    pub const fn allow() -> Self {
        HookResult { allow: true, message: String::new(), modified_args: None }
    }

    /// Allow, with a message.
    pub fn allow_with_message(message: impl Into<String>) -> Self {
        HookResult { allow: true, message: message.into(), modified_args: None }
    }

    /// Deny, with a reason.
    pub fn deny(reason: impl Into<String>) -> Self {
        HookResult { allow: false, message: reason.into(), modified_args: None }
    }

    /// Attach `modified_args` (a JSON object) to this result.
    pub fn with_modified_args(mut self, args: Value) -> Self {
        self.modified_args = Some(args);
        self
    }
}

impl Default for HookResult {
    fn default() -> Self {
        Self::allow()
    }
}

/// A callback returning `()` allows.
impl From<()> for HookResult {
    fn from(_: ()) -> Self {
        Self::allow()
    }
}

type Observer<C> = Arc<dyn Fn(&C) + Send + Sync>;
type Decider<C> = Arc<dyn Fn(&C) -> HookResult + Send + Sync>;
/// Transform closure: `Some(new_args)` replaces the tool arguments, `None` keeps them.
pub type TransformFn = Arc<dyn Fn(&ToolCallContext) -> Option<Value> + Send + Sync>;

/// A registered callback. The typed variants determine their [`HookPoint`];
/// [`HookCallback::Json`] names it.
#[derive(Clone)]
pub enum HookCallback {
    /// Before each turn; deny blocks the prompt.
    PreTurn(Decider<PreTurnContext>),
    /// After each turn.
    PostTurn(Observer<PostTurnContext>),
    /// Before each tool call; deny blocks it, `modified_args` rewrite it.
    PreToolCallDecide(Decider<ToolCallContext>),
    /// After each tool call.
    PostToolCall(Observer<ToolResultContext>),
    /// When a tool call failed.
    OnToolError(Observer<ToolErrorContext>),
    /// When a session starts.
    OnSessionStart(Observer<SessionContext>),
    /// When a session ends.
    OnSessionEnd(Observer<SessionContext>),
    /// When the context is compacted.
    OnCompaction(Observer<CompactionContext>),
    /// On each user interaction; deny blocks it.
    OnInteraction(Decider<InteractionContext>),
    /// Rewrite tool arguments (each transform sees the previous result).
    TransformToolInput(TransformFn),
    /// When the agent is about to stop: [`HookResult::deny`] with a reason
    /// keeps it going ("continue"), an allow lets it stop.
    Stop(Decider<StopContext>),
    /// A JSON-level host callback (C, Go, Node): receives the canonical
    /// context as JSON text and answers with a [`crate::Reply`].
    Json {
        /// The point it runs at.
        point: HookPoint,
        /// The callback.
        callback: SharedCallback,
    },
}

impl HookCallback {
    /// The point this callback runs at.
    pub fn hook_point(&self) -> HookPoint {
        match self {
            HookCallback::PreTurn(_) => HookPoint::PreTurn,
            HookCallback::PostTurn(_) => HookPoint::PostTurn,
            HookCallback::PreToolCallDecide(_) => HookPoint::PreToolCallDecide,
            HookCallback::PostToolCall(_) => HookPoint::PostToolCall,
            HookCallback::OnToolError(_) => HookPoint::OnToolError,
            HookCallback::OnSessionStart(_) => HookPoint::OnSessionStart,
            HookCallback::OnSessionEnd(_) => HookPoint::OnSessionEnd,
            HookCallback::OnCompaction(_) => HookPoint::OnCompaction,
            HookCallback::OnInteraction(_) => HookPoint::OnInteraction,
            HookCallback::TransformToolInput(_) => HookPoint::TransformToolInput,
            HookCallback::Stop(_) => HookPoint::Stop,
            HookCallback::Json { point, .. } => *point,
        }
    }
}

impl fmt::Debug for HookCallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HookCallback::Json { point, .. } => write!(f, "HookCallback::Json({})", point.label()),
            other => write!(f, "HookCallback::{}", other.hook_point().label()),
        }
    }
}

/// One registration as listed by [`Hooks::entries`](super::Hooks::entries)
/// (`{"name","point","callback_id"}`; `callback_id` = name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookEntry {
    /// The callback's name.
    pub name: String,
    /// Its point (serialised as the wire label).
    pub point: HookPoint,
    /// Identifier of the callback (the name).
    pub callback_id: String,
}

/// A callback failure listed in a [`RunResult`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallbackError {
    /// The callback's name.
    pub name: String,
    /// What happened; contains `hook '<name>' failed`.
    pub message: String,
}

/// The result of running a point: `{"allow","message","tool_args","errors"}`,
/// plus `answer` at the points that answer (`stop`; `on_tool_error` and
/// `on_interaction` under [`Contract::AntigravitySdk`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// False when a decide callback denied (or, at `pre_tool_call_decide`, failed).
    pub allow: bool,
    /// The deny reason ("" when allowed).
    pub message: String,
    /// Final args for `transform_tool_input`; for `pre_tool_call_decide` the
    /// merged args when any `modified_args` applied (also after a deny);
    /// else null.
    pub tool_args: Value,
    /// Every callback failure, in order.
    pub errors: Vec<CallbackError>,
    /// What answered, at the points that answer (absent elsewhere): the
    /// recovery text of `on_tool_error` and the answer of `on_interaction`
    /// (the first non-null reply, [`Contract::AntigravitySdk`]), the
    /// `{"decision":"continue","reason"}` of `stop`; `null` when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Value>,
}

impl Default for RunResult {
    fn default() -> Self {
        RunResult { allow: true, message: String::new(), tool_args: Value::Null, errors: Vec::new(), answer: None }
    }
}

impl RunResult {
    /// Whether the result says nothing beyond "allowed": `allow` true, no
    /// message, `tool_args` null, no errors, no answer (absent or null).
    /// `hl_registry_run_brief` gives such a result as NULL instead of JSON.
    pub fn is_plain_allow(&self) -> bool {
        self.allow
            && self.message.is_empty()
            && self.tool_args.is_null()
            && self.errors.is_empty()
            && self.answer.as_ref().is_none_or(Value::is_null)
    }
}

/// The hook contract a registry follows: how a point's replies and failures
/// combine. Chosen when the registry is made ([`Hooks::with_contract`](super::Hooks::with_contract); the C
/// ABI's `hl_registry_contract`); the points, contexts and reply calls are
/// the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(i32)]
pub enum Contract {
    /// agy-bridge's `Hooks` (the table above; the default).
    #[default]
    AgyBridge,
    /// The Antigravity Python SDK's `HookRunner`
    /// (`google.antigravity.hooks.hook_runner`): a failure at any point
    /// stops the run (the SDK lets the exception propagate), denying at the
    /// decide points; `pre_tool_call_decide` keeps the last allowing
    /// callback's message, and a deny's own `modified_args` are not merged;
    /// `on_tool_error` is error recovery (the first non-null reply is the
    /// `answer`, allow; a failure gives `allow:false` with
    /// `Error recovery failed: <reason>`; no answer: `allow:false`);
    /// `on_interaction` answers (the first non-null reply is the `answer`;
    /// none: `allow:false`, `No interaction hook handled the request`); a
    /// `pre_turn` prompt may be any JSON (a list of parts), `null` or absent
    /// is `""`, and the fields the SDK does not have are optional.
    AntigravitySdk,
}

impl Contract {
    /// Both contracts in `hl_registry_contract` order.
    pub const ALL: [Contract; 2] = [Contract::AgyBridge, Contract::AntigravitySdk];

    /// The contract for an `hl_registry_contract` number.
    pub fn from_i32(v: i32) -> Option<Contract> {
        Self::ALL.get(usize::try_from(v).ok()?).copied()
    }
}

impl From<RunResult> for HookResult {
    fn from(r: RunResult) -> Self {
        HookResult {
            allow: r.allow,
            message: r.message,
            modified_args: if r.tool_args.is_null() { None } else { Some(r.tool_args) },
        }
    }
}
