//! The ABI schema, `include/hookline.schema.json`: everything that crosses
//! the C ABI, written out from the Rust model so that the bindings can be
//! checked against one file (or generated from it) instead of against each
//! other.
//!
//! It holds the enums with their numbers or wire names (statuses, events,
//! hook points, the input enums, decisions, handler kinds, failure reasons,
//! dialect names), each event's input fields (the input table of
//! [`crate::model::input`]), the outcome shapes, the option keys and their
//! types, each dialect's `dialect_fields` merge and event families, and the
//! C functions of the header.
//!
//! `make schema` writes it (the integration test `schema::` with
//! `HOOKLINE_WRITE_SCHEMA=1`); the same test fails in `make test` when the
//! committed file differs from what the code says.

use serde_json::{json, Map, Value};

use crate::error::Status;
use crate::handler::host::HandlerType;
use crate::model::event::{EventFamily, HookEvent};
use crate::model::input::{input_fields, CompactionMode, CompactionTrigger, SessionEndReason, SessionStartTrigger};
use crate::model::outcome::{
    ElicitationAction, HookFailure, HookKind, HookMessageLevel, HookReport, PermissionBehavior, PermissionScope,
    PreToolHookDecision,
};
use crate::model::rules::FieldMerge;
use crate::registry::{Contract, HookPoint};

/// The schema of the C ABI, with the functions `header` (the text of
/// `include/hookline.h`) declares.
pub fn schema(header: &str) -> Value {
    json!({
        "$comment": "Generated from the Rust model by `make schema`; do not edit. `make test` fails when it drifts.",
        "statuses": Status::ALL.iter().map(|s| json!({"number": *s as i32, "name": s.name()})).collect::<Vec<_>>(),
        "events": HookEvent::ALL.iter().map(|e| json!({
            "number": e.index(),
            "name": e.name(),
            "key": e.key(),
            "constant": format!("HL_EVENT_{}", screaming(e.name())),
            "family": family_name(e.family()),
            "decision_event": e.is_decision_event(),
            "tool_event": e.is_tool_event(),
        })).collect::<Vec<_>>(),
        "hook_points": HookPoint::ALL.iter().map(|p| json!({
            "number": *p as i32,
            "name": p.label(),
            "constant": format!("HL_POINT_{}", p.label().to_ascii_uppercase()),
        })).collect::<Vec<_>>(),
        "registry_contracts": Contract::ALL.iter().map(|c| json!({
            "number": *c as i32,
            "name": contract_name(*c),
            "constant": format!("HL_CONTRACT_{}", contract_name(*c).to_ascii_uppercase()),
        })).collect::<Vec<_>>(),
        "enums": enums(),
        "inputs": inputs(),
        "outcomes": outcomes(),
        "options": options(),
        "hook_source": hook_source(),
        "dialects": dialects(),
        "functions": functions(header),
    })
}

/// `PreToolUse` → `PRE_TOOL_USE`.
fn screaming(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// A registry contract's name (`hl_registry_contract`, `HL_CONTRACT_<NAME>`).
fn contract_name(c: Contract) -> &'static str {
    match c {
        Contract::AgyBridge => "agy_bridge",
        Contract::AntigravitySdk => "antigravity_sdk",
    }
}

/// The wire name serde gives `v`.
fn wire<T: serde::Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn wires<T: serde::Serialize + Copy>(all: &[T]) -> Value {
    Value::Array(all.iter().map(|v| wire(*v)).collect())
}

/// Every variant of the enums that have no `ALL` list. A new variant is a
/// compile error here until it is listed.
fn every_hook_kind() -> [HookKind; 6] {
    const ALL: [HookKind; 6] =
        [HookKind::Command, HookKind::Callback, HookKind::Http, HookKind::McpTool, HookKind::Prompt, HookKind::Agent];
    match ALL[0] {
        HookKind::Command
        | HookKind::Callback
        | HookKind::Http
        | HookKind::McpTool
        | HookKind::Prompt
        | HookKind::Agent => ALL,
    }
}

fn every_failure() -> [HookFailure; 10] {
    use HookFailure::*;
    const ALL: [HookFailure; 10] =
        [Timeout, Signal, Spawn, InvalidOutput, Exit, Http, NoHandler, Handler, ToolError, NoOutput];
    match ALL[0] {
        Timeout | Signal | Spawn | InvalidOutput | Exit | Http | NoHandler | Handler | ToolError | NoOutput => ALL,
    }
}

fn every_message_level() -> [HookMessageLevel; 4] {
    use HookMessageLevel::*;
    match Info {
        Info | Warning | Error | SystemReminder => [Info, Warning, Error, SystemReminder],
    }
}

fn every_permission_behavior() -> [PermissionBehavior; 2] {
    match PermissionBehavior::Allow {
        PermissionBehavior::Allow | PermissionBehavior::Deny => [PermissionBehavior::Allow, PermissionBehavior::Deny],
    }
}

fn every_permission_scope() -> [PermissionScope; 3] {
    use PermissionScope::*;
    match Once {
        Once | Session | Permanent => [Once, Session, Permanent],
    }
}

fn every_elicitation_action() -> [ElicitationAction; 3] {
    use ElicitationAction::*;
    match Accept {
        Accept | Decline | Cancel => [Accept, Decline, Cancel],
    }
}

fn family_name(f: EventFamily) -> &'static str {
    match f {
        EventFamily::Context => "context",
        EventFamily::Prompt => "prompt",
        EventFamily::Tool => "tool",
        EventFamily::PostTool => "post_tool",
        EventFamily::Permission => "permission",
        EventFamily::Stop => "stop",
        EventFamily::Retry => "retry",
        EventFamily::Worktree => "worktree",
        EventFamily::Elicitation => "elicitation",
        EventFamily::Observe => "observe",
    }
}

/// The outcome shape of each family (keys of [`outcomes`]' `shapes`).
fn family_shape(f: EventFamily) -> &'static str {
    match f {
        EventFamily::Context => "context",
        EventFamily::Prompt => "user_prompt",
        EventFamily::Tool => "pre_tool",
        EventFamily::PostTool => "post_tool",
        EventFamily::Permission => "permission_request",
        EventFamily::Stop => "stop",
        EventFamily::Retry => "retry",
        EventFamily::Worktree => "worktree",
        EventFamily::Elicitation => "elicitation",
        EventFamily::Observe => "common",
    }
}

const FAMILIES: [EventFamily; 10] = [
    EventFamily::Context,
    EventFamily::Prompt,
    EventFamily::Tool,
    EventFamily::PostTool,
    EventFamily::Permission,
    EventFamily::Stop,
    EventFamily::Retry,
    EventFamily::Worktree,
    EventFamily::Elicitation,
    EventFamily::Observe,
];

fn enums() -> Value {
    let strs = |v: Vec<&'static str>| Value::Array(v.into_iter().map(Value::from).collect());
    json!({
        "session_start_trigger": strs(SessionStartTrigger::ALL.iter().map(|v| v.as_str()).collect()),
        "session_end_reason": strs(SessionEndReason::ALL.iter().map(|v| v.as_str()).collect()),
        "compaction_trigger": strs(CompactionTrigger::ALL.iter().map(|v| v.as_str()).collect()),
        "compaction_mode": strs(CompactionMode::ALL.iter().map(|v| v.as_str()).collect()),
        "pre_tool_use_decision": wires(&PreToolHookDecision::ALL),
        "permission_behavior": wires(&every_permission_behavior()),
        "permission_scope": wires(&every_permission_scope()),
        "elicitation_action": wires(&every_elicitation_action()),
        "hook_kind": wires(&every_hook_kind()),
        "configured_hook_kind": wires(&HookKind::CONFIGURED),
        "handler_type": strs(HandlerType::ALL.iter().map(|t| t.name()).collect()),
        "hook_failure": wires(&every_failure()),
        "message_level": wires(&every_message_level()),
        "skipped": strs(vec![
            HookReport::NOT_APPROVED,
            HookReport::CHANGED_SINCE_APPROVAL,
            HookReport::UNSUPPORTED_ON_EVENT,
            HookReport::URL_NOT_ALLOWED,
        ]),
        "event_family": strs(FAMILIES.iter().map(|f| family_name(*f)).collect()),
        "dialect": strs(crate::dialect::names()),
        "tool_names": strs(crate::dialect::tools::ToolNames::ALL.iter().map(|v| v.as_str()).collect()),
    })
}

/// Which enum of [`enums`] an enumerated input field takes its values from.
fn enum_of_values(values: &[&str]) -> Option<&'static str> {
    let same = |all: Vec<&str>| all == values;
    if same(SessionEndReason::ALL.iter().map(|v| v.as_str()).collect()) {
        Some("session_end_reason")
    } else if same(CompactionTrigger::ALL.iter().map(|v| v.as_str()).collect()) {
        Some("compaction_trigger")
    } else if same(CompactionMode::ALL.iter().map(|v| v.as_str()).collect()) {
        Some("compaction_mode")
    } else {
        None
    }
}

fn inputs() -> Value {
    let mut out = Map::new();
    for e in HookEvent::ALL {
        let fields: Vec<Value> = input_fields(e)
            .into_iter()
            .map(|f| {
                let mut v = json!({"name": f.name, "type": f.json_type, "required": f.required});
                if let Some(values) = f.values {
                    v["enum"] = enum_of_values(values).map_or(Value::Null, Value::from);
                    v["values"] = Value::from(values.to_vec());
                }
                v
            })
            .collect();
        out.insert(e.name().to_owned(), Value::Array(fields));
    }
    Value::Object(out)
}

/// `(name, type, present)`: `present` is `always`, or `when_set` for a field
/// serialised only when it has a value.
type Field = (&'static str, &'static str, &'static str);

const ALWAYS: &str = "always";
const WHEN_SET: &str = "when_set";

/// The outcome shapes (`docs/protocol.md`): the fields of each, the common
/// fields every one carries, and the report and message objects.
pub(crate) const SHAPES: &[(&str, &[Field])] = &[
    (
        "common",
        &[
            ("messages", "array<message>", ALWAYS),
            ("continue", "boolean", ALWAYS),
            ("stop_reason", "string|null", ALWAYS),
            ("hooks", "array<hook_report>", ALWAYS),
            ("dialect_fields", "object<dialect, object>", WHEN_SET),
        ],
    ),
    ("context", &[("additional_context", "array<string>", ALWAYS), ("env", "object<string, string>", WHEN_SET)]),
    (
        "user_prompt",
        &[
            ("allow_prompt", "boolean", ALWAYS),
            ("block_reason", "string|null", ALWAYS),
            ("additional_context", "array<string>", ALWAYS),
        ],
    ),
    (
        "pre_tool",
        &[
            ("decision", "pre_tool_use_decision", ALWAYS),
            ("reason", "string|null", ALWAYS),
            ("updated_input", "object|null", ALWAYS),
            ("additional_context", "array<string>", ALWAYS),
        ],
    ),
    (
        "post_tool",
        &[
            ("block_reason", "string|null", ALWAYS),
            ("block_replaces_result", "boolean", WHEN_SET),
            ("additional_context", "array<string>", ALWAYS),
        ],
    ),
    ("permission_request", &[("decision", "permission_decision|null", ALWAYS)]),
    (
        "permission_decision",
        &[
            ("behavior", "permission_behavior", ALWAYS),
            ("scope", "permission_scope", ALWAYS),
            ("updated_input", "object|null", ALWAYS),
            ("permission_updates", "array<object>", ALWAYS),
            ("interrupt", "boolean", ALWAYS),
            ("message", "string|null", ALWAYS),
        ],
    ),
    ("stop", &[("block_reason", "string|null", ALWAYS), ("additional_context", "array<string>", WHEN_SET)]),
    ("retry", &[("retry", "boolean", ALWAYS)]),
    ("worktree", &[("worktree_path", "string|null", ALWAYS)]),
    ("elicitation", &[("action", "elicitation_action|null", ALWAYS), ("content", "object|null", ALWAYS)]),
    (
        "hook_report",
        &[
            ("kind", "hook_kind", ALWAYS),
            ("command", "string|null", ALWAYS),
            ("name", "string|null", ALWAYS),
            ("url", "string", WHEN_SET),
            ("status", "uint", WHEN_SET),
            ("server", "string", WHEN_SET),
            ("tool", "string", WHEN_SET),
            ("prompt", "string", WHEN_SET),
            ("model", "string", WHEN_SET),
            ("exit_code", "int|null", ALWAYS),
            ("signal", "int", WHEN_SET),
            ("timed_out", "boolean", ALWAYS),
            ("duration_ms", "number", ALWAYS),
            ("stdout_truncated", "boolean", ALWAYS),
            ("stderr_truncated", "boolean", ALWAYS),
            ("skipped", "skipped|null", ALWAYS),
            ("failure", "hook_failure|null", ALWAYS),
            ("status_message", "string", WHEN_SET),
            ("policy", "boolean", WHEN_SET),
        ],
    ),
    ("message", &[("level", "message_level", ALWAYS), ("text", "string", ALWAYS)]),
];

fn outcomes() -> Value {
    let shapes: Map<String, Value> = SHAPES
        .iter()
        .map(|(name, fields)| {
            let fields: Vec<Value> =
                fields.iter().map(|(f, t, p)| json!({"name": f, "type": t, "present": p})).collect();
            ((*name).to_owned(), Value::Array(fields))
        })
        .collect();
    let families: Map<String, Value> =
        FAMILIES.iter().map(|f| (family_name(*f).to_owned(), Value::from(family_shape(*f)))).collect();
    json!({
        "$comment": "Every outcome is the shape of its event's family plus the `common` fields (except `common` itself). A dialect may give an event another family (`dialects[].families`).",
        "families": families,
        "shapes": shapes,
    })
}

/// The type of each option (`options_json` of `hl_engine_new`);
/// `None` for a key this table does not know yet (the schema test fails
/// naming it).
fn option_type(key: &str) -> Option<&'static str> {
    Some(match key {
        "workspace" | "session_id" => "string",
        "trigger" => "session_start_trigger|string",
        "workspace_gated" => "boolean",
        "hooks" => "object",
        "hooks_toml" | "hooks_file" => "string",
        "hook_sources" => "array<hook_source>",
        "dialect" => "dialect|null",
        "transcript_path" | "trust_store" => "string|null",
        "env" => "object<string, string>",
        "env_remove" => "array<string>",
        "hook_env" | "untrusted_hook_env" => "env_policy|null",
        "max_output_bytes" => "uint",
        "stop_hook_block_cap" => "uint",
        "allowed_http_hook_urls" | "http_hook_allowed_env_vars" => "array<string>|null",
        "tool_names" => "tool_names",
        _ => return None,
    })
}

/// The type of each key of a `hook_sources` entry; `None` for a key this
/// table does not know yet (the schema test fails naming it).
fn hook_source_type(key: &str) -> Option<&'static str> {
    Some(match key {
        "hooks" => "object",
        "hooks_toml" | "hooks_file" => "string",
        "trusted" | "policy" => "boolean",
        "plugin_root" => "string|null",
        "dialect" => "dialect|null",
        _ => return None,
    })
}

fn hook_source() -> Value {
    Value::Array(
        crate::options_check::HOOK_SOURCE_KEYS
            .iter()
            .map(|k| json!({"name": k, "type": hook_source_type(k), "required": false}))
            .collect(),
    )
}

fn options() -> Value {
    Value::Array(
        crate::options_check::KNOWN_OPTION_KEYS
            .iter()
            .map(|k| {
                json!({
                    "name": k,
                    "type": option_type(k),
                    "required": matches!(*k, "workspace" | "session_id"),
                })
            })
            .collect(),
    )
}

fn dialects() -> Value {
    Value::Array(
        crate::dialect::ALL
            .iter()
            .map(|d| {
                let profile = d.profile();
                let families: Map<String, Value> = HookEvent::ALL
                    .iter()
                    .map(|e| (e.name().to_owned(), Value::from(family_name(*profile.families.get(*e)))))
                    .collect();
                json!({
                    "name": d.name(),
                    "title": d.title(),
                    "dialect_fields": {
                        "key": d.name(),
                        "merge": match profile.dialect_fields {
                            FieldMerge::FirstOrAppended => "first_or_appended",
                            FieldMerge::Last => "last",
                        },
                    },
                    "families": families,
                })
            })
            .collect(),
    )
}

/// The functions a C header declares: `{"name", "returns", "params"}`.
pub fn functions(header: &str) -> Value {
    // Drop comments and preprocessor lines, then split into statements.
    let mut code = String::new();
    let mut rest = header;
    while let Some(i) = rest.find("/*") {
        code.push_str(&rest[..i]);
        rest = rest[i + 2..].split_once("*/").map_or("", |(_, after)| after);
    }
    code.push_str(rest);
    let code: String = code.lines().filter(|l| !l.trim_start().starts_with('#')).collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    for statement in code.split(';') {
        let s = statement.split_whitespace().collect::<Vec<_>>().join(" ");
        let s = s.trim_start_matches("extern \"C\" {").trim_start_matches('}').trim();
        if s.starts_with("typedef") || !s.ends_with(')') {
            continue;
        }
        let Some(open) = s.find('(') else { continue };
        let head = s[..open].trim_end();
        let name_start = head.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
        let name = &head[name_start..];
        if !name.starts_with("hl_") {
            continue;
        }
        let returns = head[..name_start].trim();
        let params: Vec<&str> = s[open + 1..s.len() - 1].split(',').map(str::trim).filter(|p| *p != "void").collect();
        out.push(json!({"name": name, "returns": returns, "params": params}));
    }
    Value::Array(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::outcome::*;

    fn shape(name: &str) -> Vec<&'static str> {
        SHAPES.iter().find(|(n, _)| *n == name).unwrap().1.iter().map(|f| f.0).collect()
    }

    fn keys(v: &Value) -> Vec<String> {
        v.as_object().unwrap().keys().cloned().collect()
    }

    /// Serialised with every optional field set, each outcome type has
    /// exactly the fields its shape lists, in order: the table cannot drift
    /// from the types.
    #[test]
    fn the_shapes_are_the_serialised_fields() {
        let mut common = CommonOutcome::default();
        common.dialect_fields.insert("claude".into(), json!({}));
        let common_keys = shape("common");
        let with_common = |own: &str| -> Vec<String> {
            shape(own).into_iter().chain(common_keys.iter().copied()).map(str::to_owned).collect()
        };
        let check = |name: &str, v: Value| {
            let mut want = with_common(name);
            let mut got = keys(&v);
            want.sort();
            got.sort();
            assert_eq!(got, want, "outcome shape {name}");
        };
        check(
            "context",
            wire(SessionStartHookOutcome { env: Some(Map::new()), common: common.clone(), ..Default::default() }),
        );
        check("user_prompt", wire(UserPromptHookOutcome { common: common.clone(), ..Default::default() }));
        check("pre_tool", wire(PreToolHookOutcome { common: common.clone(), ..Default::default() }));
        check(
            "post_tool",
            wire(PostToolHookOutcome { block_replaces_result: true, common: common.clone(), ..Default::default() }),
        );
        check(
            "permission_request",
            wire(PermissionRequestHookOutcome { common: common.clone(), ..Default::default() }),
        );
        check(
            "stop",
            wire(StopHookOutcome { additional_context: Some(vec![]), common: common.clone(), ..Default::default() }),
        );
        check("retry", wire(RetryHookOutcome { common: common.clone(), ..Default::default() }));
        check("worktree", wire(WorktreeHookOutcome { common: common.clone(), ..Default::default() }));
        check("elicitation", wire(ElicitationHookOutcome { common: common.clone(), ..Default::default() }));
        let mut got = keys(&wire(&common));
        let mut want: Vec<String> = common_keys.iter().map(|k| (*k).to_owned()).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "common");

        let decision = PermissionDecision {
            behavior: PermissionBehavior::Allow,
            scope: PermissionScope::Once,
            updated_input: None,
            permission_updates: vec![],
            interrupt: false,
            message: None,
        };
        assert_eq!(keys(&wire(&decision)), shape("permission_decision"));
        let report = HookReport {
            url: Some("u".into()),
            status: Some(200),
            server: Some("s".into()),
            tool: Some("t".into()),
            prompt: Some("p".into()),
            model: Some("m".into()),
            signal: Some(9),
            status_message: Some("x".into()),
            policy: true,
            ..HookReport::command("c")
        };
        let mut got = keys(&wire(&report));
        let mut want: Vec<String> = shape("hook_report").into_iter().map(str::to_owned).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "hook_report");
        assert_eq!(keys(&wire(HookMessage::info("x"))), shape("message"));
    }

    /// The field names serde gives a struct without flattened fields: a
    /// deserializer that only records what `deserialize_struct` is asked for.
    fn serde_fields<T: serde::de::DeserializeOwned>() -> Vec<&'static str> {
        use serde::de::{Error as _, Visitor};
        #[derive(Debug)]
        struct Fields(Vec<&'static str>);
        impl std::fmt::Display for Fields {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{:?}", self.0)
            }
        }
        impl std::error::Error for Fields {}
        impl serde::de::Error for Fields {
            fn custom<M: std::fmt::Display>(_: M) -> Self {
                Fields(Vec::new())
            }
        }
        struct Recorder;
        impl<'de> serde::Deserializer<'de> for Recorder {
            type Error = Fields;
            fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Fields> {
                Err(Fields::custom("not a struct"))
            }
            fn deserialize_struct<V: Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: V,
            ) -> Result<V::Value, Fields> {
                Err(Fields(fields.to_vec()))
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
                unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
            }
        }
        match T::deserialize(Recorder) {
            Err(Fields(fields)) => fields,
            Ok(_) => Vec::new(),
        }
    }

    /// Every field of the report, the permission decision and the message
    /// types is in their shape, including one serialised only when set.
    #[test]
    fn the_shapes_list_every_field_of_the_types() {
        let sorted = |mut v: Vec<&'static str>| {
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(serde_fields::<HookReport>()), sorted(shape("hook_report")));
        assert_eq!(sorted(serde_fields::<PermissionDecision>()), sorted(shape("permission_decision")));
        assert_eq!(sorted(serde_fields::<HookMessage>()), sorted(shape("message")));
        assert_eq!(sorted(serde_fields::<CommonOutcome>()), sorted(shape("common")));
    }

    #[test]
    fn every_option_has_a_type() {
        for k in crate::options_check::KNOWN_OPTION_KEYS {
            assert!(option_type(k).is_some(), "option `{k}` has no type in src/schema.rs (option_type)");
        }
        for k in crate::options_check::HOOK_SOURCE_KEYS {
            assert!(
                hook_source_type(k).is_some(),
                "`hook_sources[].{k}` has no type in src/schema.rs (hook_source_type)"
            );
        }
    }

    #[test]
    fn functions_are_read_from_a_header() {
        let f = functions("/* x(); */\n#define A 1\nextern \"C\" {\nconst char *hl_version(void);\nhl_status hl_a(hl_engine *e,\n  char **errmsg);\ntypedef void (*hl_f)(void *u);\n}\n");
        assert_eq!(
            f,
            json!([
                {"name": "hl_version", "returns": "const char *", "params": []},
                {"name": "hl_a", "returns": "hl_status", "params": ["hl_engine *e", "char **errmsg"]}
            ])
        );
    }
}
