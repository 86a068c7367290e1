//! Running the callbacks of one hook point: how each point's replies and
//! failures combine (the table in the registry module, [`super`]).
//!
//! A run works on a snapshot of the registry (an `Arc` of the entry list
//! taken under a short read lock), so no lock is held while a callback runs:
//! callbacks may register, unregister, or run the same registry. Entries
//! added or removed during a run do not affect it; a removed callback stays
//! alive until the run drops its snapshot (so a C `free_user_data` never
//! runs during a call).
//!
//! The context is kept in whichever form it arrived (canonical JSON for the
//! C ABI, a typed struct for Rust hosts); the other form is built lazily,
//! only when a callback needs it, and the JSON text is serialised once per
//! run (again only after `modified_args` or a transform changed the args).

use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde_json::{Map, Value};

use super::context::{type_name, Outcome, PointContext};
use super::{CallbackError, Contract, HookCallback, HookPoint, Hooks, RunResult};
use crate::callback::{self, CallResult, Reply};
use crate::{hl_debug, hl_info, hl_warn};

/// How a point's results combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Combine {
    /// pre_tool_call_decide: deny short-circuits, failure denies, modified_args merge.
    ToolDecide,
    /// pre_turn, on_interaction: deny short-circuits, failure is listed and skipped.
    SoftDecide,
    /// transform_tool_input: chained args, failure keeps args.
    Transform,
    /// Everything else: all run, replies ignored, failures listed.
    Observer,
    /// stop: the first "continue" stops the run (denies, with its reason).
    Stop,
    /// on_interaction (SDK contract): the first non-null reply answers.
    Answer,
    /// on_tool_error (SDK contract): the first non-null reply is the
    /// recovery; a failure denies `Error recovery failed: <reason>`.
    Recovery,
}

fn combine(point: HookPoint, contract: Contract) -> Combine {
    let sdk = contract == Contract::AntigravitySdk;
    match point {
        HookPoint::PreToolCallDecide => Combine::ToolDecide,
        HookPoint::OnInteraction if sdk => Combine::Answer,
        HookPoint::OnToolError if sdk => Combine::Recovery,
        HookPoint::PreTurn | HookPoint::OnInteraction => Combine::SoftDecide,
        HookPoint::TransformToolInput => Combine::Transform,
        HookPoint::Stop => Combine::Stop,
        _ => Combine::Observer,
    }
}

/// What the SDK contract answers when no `on_interaction` callback did.
const NO_INTERACTION_ANSWER: &str = "No interaction hook handled the request";

/// Read a stop reply: `{"decision":"continue"|"allow_stop","reason":str}`
/// (the SDK's `StopHookResult`; the decision in any case), `null` = no
/// opinion. "continue" is a deny carrying the reason.
fn stop_from_json(v: Value) -> Outcome {
    let map = match v {
        Value::Null => return Outcome::Nothing,
        Value::Object(map) => map,
        other => {
            return Outcome::Failed(format!(
                "invalid reply: expected an object {{\"decision\",\"reason\"}}, got {}",
                type_name(&other)
            ))
        }
    };
    let reason = match map.get("reason") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Outcome::Failed(format!("invalid reply: reason must be a string, got {}", type_name(other)))
        }
    };
    match map.get("decision") {
        None | Some(Value::Null) => Outcome::Decision { allow: true, message: reason, modified_args: None },
        Some(Value::String(d)) if d.eq_ignore_ascii_case("continue") => {
            Outcome::Decision { allow: false, message: reason, modified_args: None }
        }
        Some(Value::String(d)) if d.eq_ignore_ascii_case("allow_stop") => {
            Outcome::Decision { allow: true, message: reason, modified_args: None }
        }
        Some(other) => Outcome::Failed(format!(
            "invalid reply: decision must be \"continue\" or \"allow_stop\", got {}",
            match other {
                Value::String(s) => format!("\"{s}\""),
                other => type_name(other).to_string(),
            }
        )),
    }
}

/// The context of one run, in its typed and/or JSON form.
pub(crate) struct Ctx<'a, T: Clone> {
    /// Canonical `Value::Object` (authoritative when set).
    json: Option<Value>,
    /// Typed form (authoritative when `json` is None).
    typed: Option<Cow<'a, T>>,
    /// Cached serialisation of the current context.
    text: Option<String>,
}

impl<'a, T: PointContext> Ctx<'a, T> {
    pub(crate) fn from_json(canonical: Value) -> Self {
        Ctx { json: Some(canonical), typed: None, text: None }
    }

    pub(crate) fn from_typed(ctx: &'a T) -> Self {
        Ctx { json: None, typed: Some(Cow::Borrowed(ctx)), text: None }
    }

    fn text(&mut self) -> Result<&str, String> {
        if self.text.is_none() {
            let text = match (&self.json, &self.typed) {
                (Some(v), _) => serde_json::to_string(v),
                (None, Some(t)) => serde_json::to_string(t.as_ref()),
                (None, None) => return Err("no context".to_string()),
            }
            .map_err(|e| format!("cannot serialise the context: {e}"))?;
            self.text = Some(text);
        }
        Ok(self.text.as_deref().unwrap_or_default())
    }

    fn typed(&mut self) -> Result<&T, String> {
        if self.typed.is_none() {
            let v = self.json.as_ref().ok_or_else(|| "no context".to_string())?;
            let t = T::deserialize(v).map_err(|e| format!("cannot convert the context: {e}"))?;
            self.typed = Some(Cow::Owned(t));
        }
        match &self.typed {
            Some(t) => Ok(t.as_ref()),
            None => Err("no context".to_string()),
        }
    }

    /// Take the current tool arguments out (null when absent).
    fn take_tool_args(&mut self) -> Value {
        if let Some(Value::Object(m)) = &mut self.json {
            return m.get_mut("tool_args").map(Value::take).unwrap_or(Value::Null);
        }
        match &mut self.typed {
            Some(t) => t.to_mut().tool_args_mut().map(Value::take).unwrap_or(Value::Null),
            None => Value::Null,
        }
    }

    /// Replace the tool arguments in every form held.
    fn set_tool_args(&mut self, args: Value) {
        self.text = None;
        match (&mut self.json, &mut self.typed) {
            (Some(Value::Object(m)), Some(t)) => {
                if let Some(slot) = t.to_mut().tool_args_mut() {
                    *slot = args.clone();
                }
                m.insert("tool_args".to_string(), args);
            }
            (Some(Value::Object(m)), None) => {
                m.insert("tool_args".to_string(), args);
            }
            (_, Some(t)) => {
                if let Some(slot) = t.to_mut().tool_args_mut() {
                    *slot = args;
                }
            }
            _ => {}
        }
    }
}

/// Read a decide reply `{"allow":bool,"message":str,"modified_args":obj?}`.
/// `null` is no opinion; `allow` defaults to true and `message` to "".
fn decision_from_json(v: Value, with_args: bool) -> Outcome {
    let mut map = match v {
        Value::Null => return Outcome::Nothing,
        Value::Object(map) => map,
        other => {
            return Outcome::Failed(format!(
                "invalid reply: expected an object {{\"allow\",\"message\"}}, got {}",
                type_name(&other)
            ))
        }
    };
    let allow = match map.get("allow") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Outcome::Failed(format!("invalid reply: allow must be a boolean, got {}", type_name(other)))
        }
    };
    let message = match map.get_mut("message") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => std::mem::take(s),
        Some(other) => {
            return Outcome::Failed(format!("invalid reply: message must be a string, got {}", type_name(other)))
        }
    };
    let modified_args = if with_args {
        match map.get_mut("modified_args").map(Value::take) {
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => Some(m),
            Some(other) => {
                return Outcome::Failed(format!(
                    "invalid reply: modified_args must be an object, got {}",
                    type_name(&other)
                ))
            }
        }
    } else {
        None
    };
    Outcome::Decision { allow, message, modified_args }
}

/// Interpret a JSON-level callback's reply at a point that combines as `combine`.
fn outcome_from_call(combine: Combine, r: CallResult) -> Outcome {
    if let Some(reason) = r.failure() {
        return Outcome::Failed(reason.to_string());
    }
    match combine {
        Combine::Observer => Outcome::Nothing,
        Combine::Answer | Combine::Recovery => match r.reply {
            Reply::Json(Value::Null) => Outcome::Nothing,
            Reply::Json(v) => Outcome::Answer(v),
            // allow/deny are no answer here.
            _ => Outcome::Nothing,
        },
        Combine::Stop => match r.reply {
            Reply::Json(v) => stop_from_json(v),
            Reply::Allow => Outcome::Decision { allow: true, message: String::new(), modified_args: None },
            Reply::Deny(message) => Outcome::Decision { allow: false, message, modified_args: None },
            Reply::NoOpinion | Reply::Deferred(_) | Reply::Failed(_) => Outcome::Nothing,
        },
        Combine::Transform => match r.reply {
            Reply::Json(v) => Outcome::Args(v),
            // allow/deny mean "no opinion" for a transform.
            _ => Outcome::Nothing,
        },
        Combine::ToolDecide | Combine::SoftDecide => match r.reply {
            Reply::NoOpinion | Reply::Deferred(_) | Reply::Failed(_) => Outcome::Nothing,
            Reply::Allow => Outcome::Decision { allow: true, message: String::new(), modified_args: None },
            Reply::Deny(message) => Outcome::Decision { allow: false, message, modified_args: None },
            Reply::Json(v) => decision_from_json(v, combine == Combine::ToolDecide),
        },
    }
}

/// Shallow merge: key by key into an object; replaces non-object args.
fn merge_args(args: &mut Value, modified: Map<String, Value>) {
    match args {
        Value::Object(cur) => {
            for (k, v) in modified {
                cur.insert(k, v);
            }
        }
        other => *other = Value::Object(modified),
    }
}

fn failure_message(name: &str, detail: &str) -> String {
    if detail.is_empty() {
        format!("hook '{name}' failed")
    } else {
        format!("hook '{name}' failed: {detail}")
    }
}

impl Hooks {
    /// Run every callback at `point` on `ctx`.
    pub(crate) fn run_ctx<T: PointContext>(&self, point: HookPoint, mut ctx: Ctx<'_, T>) -> RunResult {
        let snapshot = self.snapshot();
        let sdk = self.contract == Contract::AntigravitySdk;
        let combine = combine(point, self.contract);
        let mut result = RunResult::default();
        if matches!(combine, Combine::Stop | Combine::Answer | Combine::Recovery) {
            result.answer = Some(Value::Null);
        }
        let mut args_modified = false;
        let mut answered = false;
        for entry in snapshot.iter().filter(|e| e.point == point) {
            let name = entry.name.as_str();
            hl_debug!("registry: running {} hook '{name}'", point.label());
            let outcome = match &entry.callback {
                HookCallback::Json { callback, .. } => match ctx.text() {
                    Ok(text) => outcome_from_call(combine, callback::invoke(&**callback, text)),
                    Err(e) => Outcome::Failed(e),
                },
                typed => match ctx.typed() {
                    Ok(t) => match catch_unwind(AssertUnwindSafe(|| t.call(typed))) {
                        Ok(o) => o,
                        Err(payload) => {
                            Outcome::Failed(format!("panicked: {}", crate::callback::panic_message(&*payload)))
                        }
                    },
                    Err(e) => Outcome::Failed(e),
                },
            };
            match outcome {
                Outcome::Nothing => {}
                Outcome::Failed(detail) => {
                    let message = failure_message(name, &detail);
                    result.errors.push(CallbackError { name: name.to_string(), message: message.clone() });
                    match combine {
                        Combine::ToolDecide => {
                            hl_warn!("registry: {message} at {}: tool call denied (fail closed)", point.label());
                            result.allow = false;
                            result.message = message;
                            break;
                        }
                        Combine::Recovery => {
                            hl_warn!("registry: {message} at {}: error recovery failed", point.label());
                            result.allow = false;
                            result.message = format!(
                                "Error recovery failed: {}",
                                if detail.is_empty() { &message } else { &detail }
                            );
                            answered = true;
                            break;
                        }
                        _ if sdk => {
                            hl_warn!("registry: {message} at {}: the run stops", point.label());
                            if matches!(combine, Combine::SoftDecide | Combine::Answer) {
                                result.allow = false;
                                result.message = message;
                            }
                            answered = true;
                            break;
                        }
                        _ => hl_warn!("registry: {message} at {}: skipped", point.label()),
                    }
                }
                Outcome::Args(args) if combine == Combine::Transform => {
                    hl_debug!("registry: transform '{name}' replaced the tool arguments");
                    ctx.set_tool_args(args);
                    args_modified = true;
                }
                Outcome::Args(_) => {}
                Outcome::Answer(value) => {
                    hl_debug!("registry: hook '{name}' answered at {}", point.label());
                    result.answer = Some(value);
                    answered = true;
                    break;
                }
                Outcome::Decision { allow, message, modified_args } => {
                    if combine == Combine::Observer || combine == Combine::Transform {
                        continue;
                    }
                    if combine == Combine::Stop {
                        if !allow {
                            hl_info!("registry: hook '{name}' asked to continue at {}: {message}", point.label());
                            result.allow = false;
                            result.answer = Some(serde_json::json!({"decision": "continue", "reason": message}));
                            result.message = message;
                            break;
                        }
                        continue;
                    }
                    if let Some(modified) = modified_args {
                        // The SDK's runner returns a deny as it is, without merging its args.
                        if allow || !sdk {
                            let mut args = ctx.take_tool_args();
                            merge_args(&mut args, modified);
                            ctx.set_tool_args(args);
                            args_modified = true;
                        }
                    }
                    if !allow {
                        hl_info!("registry: hook '{name}' denied at {}: {message}", point.label());
                        result.allow = false;
                        result.message = message;
                        break;
                    }
                    if sdk && combine == Combine::ToolDecide {
                        // The SDK's runner returns the last allowing result: its message.
                        result.message = message;
                    }
                }
            }
        }
        match combine {
            Combine::Transform => result.tool_args = ctx.take_tool_args(),
            Combine::ToolDecide if args_modified => result.tool_args = ctx.take_tool_args(),
            Combine::Answer if !answered => {
                result.allow = false;
                result.message = NO_INTERACTION_ANSWER.to_string();
            }
            Combine::Recovery if !answered => result.allow = false,
            _ => {}
        }
        result
    }
}
