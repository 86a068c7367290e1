//! Hook-point contexts (`docs/c-api.md`): the typed structs Rust callbacks receive,
//! and the validation that turns a JSON context into its canonical form.
//!
//! Canonical form: a JSON object with every alias replaced by its canonical
//! name (`name` → `tool_name`, `args` → `tool_args`; when both are given the
//! canonical field wins and the alias is dropped), `tool_args` present (null
//! by default) at the tool points, and every unknown field kept as given.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Contract, HookCallback, HookPoint, HookResult};
use crate::error::{Error, Result};

/// Context of [`HookPoint::PreTurn`]: the user prompt about to be sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreTurnContext {
    /// The user prompt for this turn.
    pub prompt: String,
    /// The 1-based turn number.
    pub turn_number: u32,
    /// Unknown fields of the JSON context, passed on unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl PreTurnContext {
    /// A context without extra fields.
    pub fn new(prompt: impl Into<String>, turn_number: u32) -> Self {
        PreTurnContext { prompt: prompt.into(), turn_number, extra: Map::new() }
    }
}

/// Context of [`HookPoint::PostTurn`]: the model's response for a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PostTurnContext {
    /// The model's response text for this turn.
    pub response_text: String,
    /// The 1-based turn number.
    pub turn_number: u32,
    /// Unknown fields of the JSON context, passed on unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl PostTurnContext {
    /// A context without extra fields.
    pub fn new(response_text: impl Into<String>, turn_number: u32) -> Self {
        PostTurnContext { response_text: response_text.into(), turn_number, extra: Map::new() }
    }
}

/// Context of [`HookPoint::PreToolCallDecide`] and
/// [`HookPoint::TransformToolInput`]: a tool call about to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCallContext {
    /// Name of the tool (JSON alias `name`).
    #[serde(alias = "name")]
    pub tool_name: String,
    /// Arguments the tool will receive (JSON alias `args`; null by default).
    #[serde(alias = "args", default)]
    pub tool_args: Value,
    /// Unknown fields of the JSON context, passed on unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ToolCallContext {
    /// A context without extra fields.
    pub fn new(tool_name: impl Into<String>, tool_args: Value) -> Self {
        ToolCallContext { tool_name: tool_name.into(), tool_args, extra: Map::new() }
    }
}

/// Context of [`HookPoint::PostToolCall`]: a tool call that returned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResultContext {
    /// Name of the tool (JSON alias `name`).
    #[serde(alias = "name")]
    pub tool_name: String,
    /// Arguments the tool received (JSON alias `args`; null by default).
    #[serde(alias = "args", default)]
    pub tool_args: Value,
    /// The tool's result (serialised).
    pub result: String,
    /// Structured metadata of the tool response (null when absent).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub metadata: Value,
    /// Unknown fields of the JSON context, passed on unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ToolResultContext {
    /// A context without metadata or extra fields.
    pub fn new(tool_name: impl Into<String>, tool_args: Value, result: impl Into<String>) -> Self {
        ToolResultContext {
            tool_name: tool_name.into(),
            tool_args,
            result: result.into(),
            metadata: Value::Null,
            extra: Map::new(),
        }
    }
}

/// Context of [`HookPoint::OnToolError`]: a tool call that failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolErrorContext {
    /// Name of the tool (JSON alias `name`).
    #[serde(alias = "name")]
    pub tool_name: String,
    /// Arguments the tool received (JSON alias `args`; null by default).
    #[serde(alias = "args", default)]
    pub tool_args: Value,
    /// The error message.
    pub error: String,
    /// Structured metadata of the failure (null when absent).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub metadata: Value,
    /// Unknown fields of the JSON context, passed on unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ToolErrorContext {
    /// A context without metadata or extra fields.
    pub fn new(tool_name: impl Into<String>, tool_args: Value, error: impl Into<String>) -> Self {
        ToolErrorContext {
            tool_name: tool_name.into(),
            tool_args,
            error: error.into(),
            metadata: Value::Null,
            extra: Map::new(),
        }
    }
}

/// Session metadata carried by the session contexts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionInfo {
    /// Unique identifier of the session.
    pub session_id: String,
    /// Numeric identifier of the agent instance.
    pub agent_id: u64,
    /// When the session started, in whatever form the host uses (optional).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<Value>,
    /// Unknown fields, passed on unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Context of [`HookPoint::OnSessionStart`] and [`HookPoint::OnSessionEnd`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionContext {
    /// The session that starts or ends.
    pub session: SessionInfo,
    /// Unknown fields of the JSON context, passed on unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl SessionContext {
    /// A context for `session_id` / `agent_id`, without `started_at` or extra fields.
    pub fn new(session_id: impl Into<String>, agent_id: u64) -> Self {
        SessionContext {
            session: SessionInfo { session_id: session_id.into(), agent_id, started_at: None, extra: Map::new() },
            extra: Map::new(),
        }
    }
}

/// Context of [`HookPoint::OnCompaction`]: no required field.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompactionContext {
    /// Every field of the JSON context, passed on unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Context of [`HookPoint::OnInteraction`]: a message from the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InteractionContext {
    /// The interaction message content.
    pub message: String,
    /// Unknown fields of the JSON context, passed on unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl InteractionContext {
    /// A context without extra fields.
    pub fn new(message: impl Into<String>) -> Self {
        InteractionContext { message: message.into(), extra: Map::new() }
    }
}

/// Context of [`HookPoint::Stop`]: the agent is about to stop (the
/// Antigravity SDK's `StopArgs`). Every field is optional.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StopContext {
    /// The most recent assistant response text of the turn.
    #[serde(default)]
    pub response_text: String,
    /// The trajectory that is stopping.
    #[serde(default)]
    pub trajectory_id: String,
    /// How many times stop callbacks kept this turn going so far (0-based).
    #[serde(default)]
    pub continuation_count: u64,
    /// Why the trajectory stopped (the SDK's `StopReason` value; null when not given).
    #[serde(default)]
    pub stop_reason: Value,
    /// The error message when it stopped on a fatal error.
    #[serde(default)]
    pub error_message: String,
    /// Unknown fields of the JSON context, passed on unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl StopContext {
    /// A context with the response text and nothing else.
    pub fn new(response_text: impl Into<String>) -> Self {
        StopContext { response_text: response_text.into(), ..StopContext::default() }
    }
}

/// Another name of [`ToolCallContext`], after its hook point.
pub type PreToolCallDecideContext = ToolCallContext;
/// Another name of [`ToolResultContext`], after its hook point.
pub type PostToolCallContext = ToolResultContext;
/// Another name of [`ToolErrorContext`], after its hook point.
pub type OnToolErrorContext = ToolErrorContext;
/// Another name of [`SessionContext`] at session start, after its hook point.
pub type OnSessionStartContext = SessionContext;
/// Another name of [`SessionContext`] at session end, after its hook point.
pub type OnSessionEndContext = SessionContext;
/// Another name of [`CompactionContext`], after its hook point.
pub type OnCompactionContext = CompactionContext;
/// Another name of [`InteractionContext`], after its hook point.
pub type OnInteractionContext = InteractionContext;

/// What one callback call produced, before the run semantics apply it.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// No opinion (observers, untouched replies, `null` decide replies).
    Nothing,
    /// A decision (decide points); `modified_args` already checked to be an object.
    Decision { allow: bool, message: String, modified_args: Option<Map<String, Value>> },
    /// New tool arguments (transform point).
    Args(Value),
    /// An answer (a non-null reply at an answering point).
    Answer(Value),
    /// The callback failed; the text is a detail (may be empty).
    Failed(String),
}

impl Outcome {
    /// A typed [`HookResult`] as an outcome. With `with_args` (the tool
    /// decide point) `modified_args` must be an object or null; elsewhere it
    /// is ignored.
    pub(crate) fn from_hook_result(r: HookResult, with_args: bool) -> Outcome {
        let modified_args = match r.modified_args {
            _ if !with_args => None,
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => Some(m),
            Some(other) => {
                return Outcome::Failed(format!(
                    "invalid reply: modified_args must be an object, got {}",
                    type_name(&other)
                ))
            }
        };
        Outcome::Decision { allow: r.allow, message: r.message, modified_args }
    }
}

/// A typed context: how a typed callback at its point(s) is called, and how
/// the tool arguments are read and replaced.
pub(crate) trait PointContext: Serialize + DeserializeOwned + Clone {
    /// Call `cb` if it is a typed callback for this context type.
    fn call(&self, cb: &HookCallback) -> Outcome;
    /// The tool arguments (tool contexts only).
    fn tool_args_mut(&mut self) -> Option<&mut Value> {
        None
    }
}

impl PointContext for PreTurnContext {
    fn call(&self, cb: &HookCallback) -> Outcome {
        match cb {
            HookCallback::PreTurn(f) => Outcome::from_hook_result(f(self), false),
            _ => Outcome::Nothing,
        }
    }
}

impl PointContext for PostTurnContext {
    fn call(&self, cb: &HookCallback) -> Outcome {
        if let HookCallback::PostTurn(f) = cb {
            f(self);
        }
        Outcome::Nothing
    }
}

impl PointContext for ToolCallContext {
    fn call(&self, cb: &HookCallback) -> Outcome {
        match cb {
            HookCallback::PreToolCallDecide(f) => Outcome::from_hook_result(f(self), true),
            HookCallback::TransformToolInput(f) => match f(self) {
                Some(args) => Outcome::Args(args),
                None => Outcome::Nothing,
            },
            _ => Outcome::Nothing,
        }
    }
    fn tool_args_mut(&mut self) -> Option<&mut Value> {
        Some(&mut self.tool_args)
    }
}

impl PointContext for ToolResultContext {
    fn call(&self, cb: &HookCallback) -> Outcome {
        if let HookCallback::PostToolCall(f) = cb {
            f(self);
        }
        Outcome::Nothing
    }
    fn tool_args_mut(&mut self) -> Option<&mut Value> {
        Some(&mut self.tool_args)
    }
}

impl PointContext for ToolErrorContext {
    fn call(&self, cb: &HookCallback) -> Outcome {
        if let HookCallback::OnToolError(f) = cb {
            f(self);
        }
        Outcome::Nothing
    }
    fn tool_args_mut(&mut self) -> Option<&mut Value> {
        Some(&mut self.tool_args)
    }
}

impl PointContext for SessionContext {
    fn call(&self, cb: &HookCallback) -> Outcome {
        match cb {
            HookCallback::OnSessionStart(f) | HookCallback::OnSessionEnd(f) => f(self),
            _ => {}
        }
        Outcome::Nothing
    }
}

impl PointContext for CompactionContext {
    fn call(&self, cb: &HookCallback) -> Outcome {
        if let HookCallback::OnCompaction(f) = cb {
            f(self);
        }
        Outcome::Nothing
    }
}

impl PointContext for StopContext {
    fn call(&self, cb: &HookCallback) -> Outcome {
        match cb {
            HookCallback::Stop(f) => Outcome::from_hook_result(f(self), false),
            _ => Outcome::Nothing,
        }
    }
}

impl PointContext for InteractionContext {
    fn call(&self, cb: &HookCallback) -> Outcome {
        match cb {
            HookCallback::OnInteraction(f) => Outcome::from_hook_result(f(self), false),
            _ => Outcome::Nothing,
        }
    }
}

// ── Validation ───────────────────────────────────────────────────────────

/// JSON type name for error messages.
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn missing(point: HookPoint, field: &str) -> Error {
    Error::invalid_argument(format!("context for {} is missing the required field '{field}'", point.label()))
}

fn require_str(map: &Map<String, Value>, point: HookPoint, field: &str) -> Result<()> {
    match map.get(field) {
        None => Err(missing(point, field)),
        Some(Value::String(_)) => Ok(()),
        Some(other) => {
            Err(Error::invalid_argument(format!("context field '{field}' must be a string, got {}", type_name(other))))
        }
    }
}

fn require_uint(map: &Map<String, Value>, point: HookPoint, field: &str, path: &str, max: u64) -> Result<()> {
    match map.get(field) {
        None => Err(missing(point, path)),
        Some(Value::Number(n)) if n.as_u64().is_some_and(|v| v <= max) => Ok(()),
        Some(other) => {
            let bits = if max == u64::from(u32::MAX) { 32 } else { 64 };
            Err(Error::invalid_argument(format!(
                "context field '{path}' must be an unsigned {bits}-bit integer, got {}",
                match other {
                    Value::Number(n) => format!("{n}"),
                    other => type_name(other).to_string(),
                }
            )))
        }
    }
}

/// Replace `alias` by `canonical`. The canonical field wins when both are
/// present (the alias is dropped); a lone alias is renamed in place.
fn resolve_alias(map: &mut Map<String, Value>, alias: &str, canonical: &str) {
    if !map.contains_key(alias) {
        return;
    }
    if map.contains_key(canonical) {
        map.shift_remove(alias);
        return;
    }
    let old = std::mem::take(map);
    for (k, v) in old {
        if k == alias {
            map.insert(canonical.to_string(), v);
        } else {
            map.insert(k, v);
        }
    }
}

fn tool_fields(map: &mut Map<String, Value>, point: HookPoint) -> Result<()> {
    resolve_alias(map, "name", "tool_name");
    resolve_alias(map, "args", "tool_args");
    require_str(map, point, "tool_name")?;
    if !map.contains_key("tool_args") {
        map.insert("tool_args".to_string(), Value::Null);
    }
    Ok(())
}

/// A field the Antigravity SDK contract makes optional: `default` when it
/// is absent or null.
fn default_field(map: &mut Map<String, Value>, field: &str, default: Value) {
    match map.get(field) {
        None | Some(Value::Null) => {
            map.insert(field.to_string(), default);
        }
        Some(_) => {}
    }
}

/// The SDK contract's contexts: the fields its `HookRunner` does not have
/// are optional (given their empty value), a `pre_turn` prompt may be any
/// JSON (`null` is `""`), a tool result or error any JSON.
fn sdk_defaults(map: &mut Map<String, Value>, point: HookPoint) {
    let text = || Value::String(String::new());
    match point {
        HookPoint::PreTurn => {
            default_field(map, "prompt", text());
            default_field(map, "turn_number", Value::from(0));
        }
        HookPoint::PostTurn => {
            default_field(map, "response_text", text());
            default_field(map, "turn_number", Value::from(0));
        }
        HookPoint::PreToolCallDecide | HookPoint::TransformToolInput => {
            if !map.contains_key("name") {
                default_field(map, "tool_name", text());
            }
        }
        HookPoint::PostToolCall => {
            if !map.contains_key("name") {
                default_field(map, "tool_name", text());
            }
            default_field(map, "result", text());
        }
        HookPoint::OnToolError => {
            if !map.contains_key("name") {
                default_field(map, "tool_name", text());
            }
            default_field(map, "error", text());
        }
        HookPoint::OnSessionStart | HookPoint::OnSessionEnd => {
            default_field(map, "session", serde_json::json!({"session_id": "", "agent_id": 0}));
        }
        HookPoint::OnInteraction => default_field(map, "message", text()),
        HookPoint::OnCompaction | HookPoint::Stop => {}
    }
}

/// Validate a JSON context for `point` and return its canonical form.
/// Errors are `InvalidArgument` naming the field.
pub(crate) fn canonicalize(point: HookPoint, context: Value, contract: Contract) -> Result<Value> {
    let mut map = match context {
        Value::Object(map) => map,
        other => {
            return Err(Error::invalid_argument(format!(
                "context for {} must be a JSON object, got {}",
                point.label(),
                type_name(&other)
            )))
        }
    };
    let u32_max = u64::from(u32::MAX);
    let sdk = contract == Contract::AntigravitySdk;
    if sdk {
        sdk_defaults(&mut map, point);
    }
    match point {
        HookPoint::PreTurn => {
            if !sdk {
                require_str(&map, point, "prompt")?;
            }
            require_uint(&map, point, "turn_number", "turn_number", u32_max)?;
        }
        HookPoint::PostTurn => {
            require_str(&map, point, "response_text")?;
            require_uint(&map, point, "turn_number", "turn_number", u32_max)?;
        }
        HookPoint::PreToolCallDecide | HookPoint::TransformToolInput => tool_fields(&mut map, point)?,
        HookPoint::PostToolCall => {
            tool_fields(&mut map, point)?;
            if !sdk {
                require_str(&map, point, "result")?;
            }
        }
        HookPoint::OnToolError => {
            tool_fields(&mut map, point)?;
            if !sdk {
                require_str(&map, point, "error")?;
            }
        }
        HookPoint::OnSessionStart | HookPoint::OnSessionEnd => match map.get("session") {
            None => return Err(missing(point, "session")),
            Some(Value::Object(session)) => {
                match session.get("session_id") {
                    None => return Err(missing(point, "session.session_id")),
                    Some(Value::String(_)) => {}
                    Some(other) => {
                        return Err(Error::invalid_argument(format!(
                            "context field 'session.session_id' must be a string, got {}",
                            type_name(other)
                        )))
                    }
                }
                require_uint(session, point, "agent_id", "session.agent_id", u64::MAX)?;
            }
            Some(other) => {
                return Err(Error::invalid_argument(format!(
                    "context field 'session' must be an object, got {}",
                    type_name(other)
                )))
            }
        },
        HookPoint::OnCompaction => {}
        HookPoint::OnInteraction if sdk => {}
        HookPoint::OnInteraction => require_str(&map, point, "message")?,
        HookPoint::Stop => {
            for field in ["response_text", "trajectory_id", "error_message"] {
                default_field(&mut map, field, Value::String(String::new()));
                require_str(&map, point, field)?;
            }
            default_field(&mut map, "continuation_count", Value::from(0));
            require_uint(&map, point, "continuation_count", "continuation_count", u64::MAX)?;
        }
    }
    Ok(Value::Object(map))
}
