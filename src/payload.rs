//! Event inputs and hook payloads (SPEC §5.2): which fields each event
//! requires, the seed's enums, what a hook receives on stdin, and the
//! environment it runs with.

use std::ffi::OsString;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::event::HookEvent;

macro_rules! wire_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident => $wire:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name { $(#[serde(rename = $wire)] $variant),* }
        impl $name {
            /// All values, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
            /// The wire string.
            pub fn as_str(self) -> &'static str { match self { $($name::$variant => $wire),* } }
            /// Parse the wire string (exact).
            pub fn parse(s: &str) -> Option<Self> { match s { $($wire => Some($name::$variant),)* _ => None } }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.as_str()) }
        }
    };
}

wire_enum!(
    /// Why the session started: the engine's `trigger` option, SessionStart's `source`.
    SessionStartTrigger { Startup => "startup", Resume => "resume", NewSession => "new_session", Compact => "compact" }
);
wire_enum!(
    /// SessionEnd `reason`.
    SessionEndReason { Completed => "completed", Exit => "exit", Cancelled => "cancelled", Error => "error", NewSession => "new_session" }
);
wire_enum!(
    /// PreCompact `trigger`.
    CompactionTrigger { Manual => "manual", Auto => "auto", Recovery => "recovery", ModelSwitch => "model_switch", Unknown => "unknown" }
);
wire_enum!(
    /// PreCompact `mode`.
    CompactionMode { Provider => "provider", Local => "local", Unknown => "unknown" }
);

impl Default for SessionStartTrigger {
    fn default() -> Self {
        SessionStartTrigger::Startup
    }
}

/// The shape a field must have.
#[derive(Clone, Copy)]
enum Kind {
    Str,
    Bool,
    Uint,
    Object,
    ObjectOrNull,
    StrOrNull,
    Array,
    Any,
    OneOf(&'static [&'static str]),
}

#[cfg(test)]
fn enum_values<T: Copy>(all: &'static [T], f: fn(T) -> &'static str) -> Vec<&'static str> {
    all.iter().map(|v| f(*v)).collect()
}

const SESSION_END_REASONS: &[&str] = &["completed", "exit", "cancelled", "error", "new_session"];
const COMPACT_TRIGGERS: &[&str] = &["manual", "auto", "recovery", "model_switch", "unknown"];
const COMPACT_MODES: &[&str] = &["provider", "local", "unknown"];

/// (field, kind, required) per event: the input table of SPEC §5.2.
fn fields(event: HookEvent) -> &'static [(&'static str, Kind, bool)] {
    use Kind::*;
    match event {
        HookEvent::SessionStart => &[],
        HookEvent::SessionEnd => &[("turn_id", Str, true), ("reason", OneOf(SESSION_END_REASONS), true)],
        HookEvent::SubagentStart | HookEvent::SubagentStop => &[
            ("parent_session_id", Str, true),
            ("child_thread_id", Str, true),
            ("agent_name", Str, true),
            ("display_label", Str, true),
            ("background", Bool, true),
            ("status", Str, true),
            ("transcript_path", StrOrNull, false),
        ],
        HookEvent::UserPromptSubmit => &[("turn_id", Str, true), ("prompt", Str, true)],
        HookEvent::PreToolUse => &[
            ("tool_name", Str, true),
            ("tool_input", ObjectOrNull, false),
            ("tool_call_id", StrOrNull, false),
        ],
        HookEvent::PostToolUse => &[
            ("tool_name", Str, true),
            ("tool_input", ObjectOrNull, false),
            ("tool_response", Any, true),
            ("tool_call_id", StrOrNull, false),
        ],
        HookEvent::PermissionRequest => &[
            ("tool_name", Str, true),
            ("tool_input", ObjectOrNull, false),
            ("permission_request", Object, true),
            ("permission_suggestions", Array, false),
        ],
        HookEvent::PreCompact => &[
            ("trigger", OneOf(COMPACT_TRIGGERS), true),
            ("mode", OneOf(COMPACT_MODES), true),
            ("original_message_count", Uint, true),
            ("compacted_message_count", Uint, true),
            ("history_artifact_path", StrOrNull, false),
        ],
        HookEvent::Stop => &[("last_assistant_message", Str, true), ("stop_hook_active", Bool, true)],
        HookEvent::Notification => &[("notification_type", Str, true), ("title", Str, true), ("message", Str, true)],
        HookEvent::PostToolUseFailure => &[
            ("tool_name", Str, true),
            ("tool_input", ObjectOrNull, false),
            ("tool_call_id", StrOrNull, false),
            ("error", Str, true),
        ],
    }
}

fn kind_ok(kind: Kind, v: &Value) -> bool {
    match kind {
        Kind::Str => v.is_string(),
        Kind::Bool => v.is_boolean(),
        Kind::Uint => v.is_u64(),
        Kind::Object => v.is_object(),
        Kind::ObjectOrNull => v.is_object() || v.is_null(),
        Kind::StrOrNull => v.is_string() || v.is_null(),
        Kind::Array => v.is_array(),
        Kind::Any => true,
        Kind::OneOf(values) => v.as_str().is_some_and(|s| values.contains(&s)),
    }
}

fn kind_text(kind: Kind) -> String {
    match kind {
        Kind::Str => "a string".into(),
        Kind::Bool => "a boolean".into(),
        Kind::Uint => "a non-negative integer".into(),
        Kind::Object => "an object".into(),
        Kind::ObjectOrNull => "an object or null".into(),
        Kind::StrOrNull => "a string or null".into(),
        Kind::Array => "an array".into(),
        Kind::Any => "any JSON value".into(),
        Kind::OneOf(values) => format!("one of {}", values.join(", ")),
    }
}

/// Validate an event input (SPEC §5.2): an object with the event's required
/// fields of the right types. Errors are `InvalidArgument` naming the field.
pub fn validate_input(event: HookEvent, input: &Value) -> Result<()> {
    let obj = input
        .as_object()
        .ok_or_else(|| Error::invalid_argument(format!("{} input must be a JSON object", event.name())))?;
    for (field, kind, required) in fields(event) {
        match obj.get(*field) {
            None if *required => {
                return Err(Error::invalid_argument(format!(
                    "{} input is missing required field `{field}` ({})",
                    event.name(),
                    kind_text(*kind)
                )))
            }
            None => {}
            Some(v) => {
                if !kind_ok(*kind, v) {
                    return Err(Error::invalid_argument(format!(
                        "{} input field `{field}` must be {}",
                        event.name(),
                        kind_text(*kind)
                    )));
                }
            }
        }
    }
    Ok(())
}

/// The session facts every payload carries.
#[derive(Debug, Clone)]
pub struct SessionFacts<'a> {
    pub session_id: &'a str,
    pub cwd: &'a str,
    pub transcript_path: Option<&'a str>,
    pub trigger: SessionStartTrigger,
}

/// Build the payload a hook receives (SPEC §5.2): the engine's fields
/// (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `source` for
/// SessionStart, `tool_use_id` for tool events) followed by every input
/// field, passed through unchanged. The engine's `session_id`, `cwd` and
/// `hook_event_name` cannot be overridden by the input; a Subagent input's
/// `transcript_path` replaces the session's. `tool_input_override` is the
/// PreToolUse `updatedInput` in force.
pub fn build_payload(
    event: HookEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input_override: Option<&Value>,
) -> Map<String, Value> {
    let mut p = Map::with_capacity(input.len() + 6);
    p.insert("session_id".into(), Value::String(facts.session_id.to_string()));
    let transcript = match (event, input.get("transcript_path")) {
        (HookEvent::SubagentStart | HookEvent::SubagentStop, Some(v)) => v.clone(),
        _ => facts.transcript_path.map_or(Value::Null, |s| Value::String(s.to_string())),
    };
    p.insert("transcript_path".into(), transcript);
    p.insert("cwd".into(), Value::String(facts.cwd.to_string()));
    p.insert("hook_event_name".into(), Value::String(event.name().to_string()));
    if event == HookEvent::SessionStart {
        p.insert("source".into(), Value::String(facts.trigger.as_str().to_string()));
    }
    if event.is_tool_event() {
        p.insert("tool_use_id".into(), input.get("tool_call_id").cloned().unwrap_or(Value::Null));
    }
    for (k, v) in input {
        match k.as_str() {
            "session_id" | "cwd" | "hook_event_name" | "transcript_path" => {}
            "source" if event == HookEvent::SessionStart => {}
            "tool_input" if tool_input_override.is_some() => {}
            _ => {
                p.insert(k.clone(), v.clone());
            }
        }
    }
    if let Some(ti) = tool_input_override {
        p.insert("tool_input".into(), ti.clone());
    } else if event.is_tool_event() && !p.contains_key("tool_input") {
        p.insert("tool_input".into(), Value::Null);
    }
    p
}

/// Serialise a payload as a hook reads it: compact JSON plus `\n`.
pub fn payload_bytes(payload: &Map<String, Value>) -> Vec<u8> {
    let mut out = serde_json::to_vec(payload).unwrap_or_else(|_| b"{}".to_vec());
    out.push(b'\n');
    out
}

/// Environment settings of an engine (SPEC §5.2 "Environment").
#[derive(Debug, Clone, Default)]
pub struct EnvSettings {
    /// Option `env`: set after `env_remove` is applied.
    pub set: Vec<(String, String)>,
    /// Option `env_remove`: names removed from the inherited environment.
    pub remove: Vec<String>,
}

/// The complete environment of one hook: inherited, minus `env_remove`,
/// plus option `env`, then the engine's own variables (which nothing
/// overrides). Transcript variables only when a path is set.
pub fn hook_environment(
    settings: &EnvSettings,
    event: HookEvent,
    facts: &SessionFacts<'_>,
) -> Vec<(OsString, OsString)> {
    let own: Vec<(&str, &str)> = {
        let mut v = vec![
            ("HOOKLINE_PROJECT_DIR", facts.cwd),
            ("HOOKLINE_SESSION_ID", facts.session_id),
            ("HOOKLINE_HOOK_EVENT", event.name()),
            ("VT_PROJECT_DIR", facts.cwd),
            ("VT_SESSION_ID", facts.session_id),
            ("VT_HOOK_EVENT", event.name()),
            ("CLAUDE_PROJECT_DIR", facts.cwd),
            ("CLAUDE_SESSION_ID", facts.session_id),
        ];
        if let Some(t) = facts.transcript_path {
            v.push(("HOOKLINE_TRANSCRIPT_PATH", t));
            v.push(("VT_TRANSCRIPT_PATH", t));
            v.push(("CLAUDE_TRANSCRIPT_PATH", t));
        }
        v
    };
    const OWN_NAMES: &[&str] = &[
        "HOOKLINE_PROJECT_DIR",
        "HOOKLINE_SESSION_ID",
        "HOOKLINE_HOOK_EVENT",
        "HOOKLINE_TRANSCRIPT_PATH",
        "VT_PROJECT_DIR",
        "VT_SESSION_ID",
        "VT_HOOK_EVENT",
        "VT_TRANSCRIPT_PATH",
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_SESSION_ID",
        "CLAUDE_TRANSCRIPT_PATH",
    ];
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, _)| {
            let k = k.to_string_lossy();
            !settings.remove.iter().any(|r| *r == k)
                && !settings.set.iter().any(|(s, _)| *s == k)
                && !OWN_NAMES.contains(&k.as_ref())
        })
        .collect();
    for (k, v) in &settings.set {
        if !OWN_NAMES.contains(&k.as_str()) {
            env.push((k.into(), v.into()));
        }
    }
    for (k, v) in own {
        env.push((k.into(), v.into()));
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn enums_round_trip_wire_strings() {
        for t in SessionStartTrigger::ALL {
            assert_eq!(SessionStartTrigger::parse(t.as_str()), Some(*t));
        }
        assert_eq!(enum_values(SessionEndReason::ALL, SessionEndReason::as_str), SESSION_END_REASONS);
        assert_eq!(enum_values(CompactionTrigger::ALL, CompactionTrigger::as_str), COMPACT_TRIGGERS);
        assert_eq!(enum_values(CompactionMode::ALL, CompactionMode::as_str), COMPACT_MODES);
    }

    #[test]
    fn missing_required_field_is_named() {
        let e = validate_input(HookEvent::PreToolUse, &json!({})).unwrap_err();
        assert_eq!(e.status, crate::Status::InvalidArgument);
        assert!(e.message.contains("tool_name"), "{}", e.message);
        let e = validate_input(HookEvent::SessionEnd, &json!({"turn_id":"t","reason":"bogus"})).unwrap_err();
        assert!(e.message.contains("reason"), "{}", e.message);
        assert!(validate_input(HookEvent::SessionStart, &json!([])).is_err());
        assert!(validate_input(HookEvent::PreToolUse, &json!({"tool_name":"Bash","tool_input":[1]})).is_err());
        assert!(validate_input(HookEvent::PreToolUse, &json!({"tool_name":"Bash","tool_input":null})).is_ok());
    }

    #[test]
    fn payload_carries_engine_fields_and_passes_extras_through() {
        let facts = SessionFacts { session_id: "s-1", cwd: "/ws", transcript_path: None, trigger: SessionStartTrigger::Resume };
        let input = json!({"tool_name":"Bash","tool_input":{"command":"ls"},"tool_call_id":"c1","permission_mode":"default","session_id":"evil"});
        let p = build_payload(HookEvent::PreToolUse, &facts, input.as_object().unwrap(), None);
        assert_eq!(p["session_id"], "s-1");
        assert_eq!(p["cwd"], "/ws");
        assert_eq!(p["hook_event_name"], "PreToolUse");
        assert_eq!(p["tool_use_id"], "c1");
        assert_eq!(p["permission_mode"], "default");
        assert_eq!(p["transcript_path"], Value::Null);
        let p = build_payload(HookEvent::SessionStart, &facts, &Map::new(), None);
        assert_eq!(p["source"], "resume");
    }
}
