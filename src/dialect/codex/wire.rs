//! The JSON a Codex hook may print on stdout, per event: the exact shapes
//! Codex accepts (openai/codex `codex-rs/hooks/src/schema.rs`). Every
//! struct denies unknown fields, as Codex's do: a key Codex does not know
//! anywhere in the object, a value of the wrong type (`"systemMessage": 1`,
//! `"continue": null`), a decision value it does not list (`"Deny"`,
//! `"approve"` on Stop) or a `hookSpecificOutput` without `hookEventName`
//! make the whole output unreadable, and Codex then fails the hook open.
//!
//! `hookSpecificOutput.hookEventName` must name a Codex event, but not
//! necessarily the one being run (Codex does not compare them).

use serde::Deserialize;
use serde_json::Value;

/// The fields every event accepts.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Universal {
    #[serde(default = "yes", rename = "continue")]
    pub(super) continue_: bool,
    #[serde(default)]
    pub(super) stop_reason: Option<String>,
    #[serde(default)]
    pub(super) suppress_output: bool,
    #[serde(default)]
    pub(super) system_message: Option<String>,
}

fn yes() -> bool {
    true
}

/// The values `hookSpecificOutput.hookEventName` may take.
#[derive(Debug, Deserialize)]
pub(super) enum EventName {
    PreToolUse,
    PermissionRequest,
    PostToolUse,
    PreCompact,
    PostCompact,
    SessionStart,
    SessionEnd,
    UserPromptSubmit,
    SubagentStart,
    SubagentStop,
    Stop,
}

/// `decision` on PostToolUse, UserPromptSubmit, Stop, SubagentStop.
#[derive(Debug, Deserialize, PartialEq, Eq)]
pub(super) enum Block {
    #[serde(rename = "block")]
    Block,
}

/// The legacy top-level `decision` of PreToolUse.
#[derive(Debug, Deserialize, PartialEq, Eq)]
pub(super) enum LegacyDecision {
    #[serde(rename = "approve")]
    Approve,
    #[serde(rename = "block")]
    Block,
}

/// `hookSpecificOutput.permissionDecision` of PreToolUse.
#[derive(Debug, Deserialize, PartialEq, Eq)]
pub(super) enum PermissionDecision {
    #[serde(rename = "allow")]
    Allow,
    #[serde(rename = "deny")]
    Deny,
    #[serde(rename = "ask")]
    Ask,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct PreToolUse {
    #[serde(flatten)]
    pub(super) universal: Universal,
    #[serde(default)]
    pub(super) decision: Option<LegacyDecision>,
    #[serde(default)]
    pub(super) reason: Option<String>,
    #[serde(default)]
    pub(super) hook_specific_output: Option<PreToolUseSpecific>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct PreToolUseSpecific {
    #[allow(dead_code)]
    pub(super) hook_event_name: EventName,
    #[serde(default)]
    pub(super) permission_decision: Option<PermissionDecision>,
    #[serde(default)]
    pub(super) permission_decision_reason: Option<String>,
    #[serde(default)]
    pub(super) updated_input: Option<Value>,
    #[serde(default)]
    pub(super) additional_context: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct PermissionRequest {
    #[serde(flatten)]
    pub(super) universal: Universal,
    #[serde(default)]
    pub(super) hook_specific_output: Option<PermissionRequestSpecific>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct PermissionRequestSpecific {
    #[allow(dead_code)]
    pub(super) hook_event_name: EventName,
    #[serde(default)]
    pub(super) decision: Option<PermissionRequestDecision>,
}

/// `behavior` of a PermissionRequest decision.
#[derive(Debug, Deserialize, PartialEq, Eq)]
pub(super) enum Behavior {
    #[serde(rename = "allow")]
    Allow,
    #[serde(rename = "deny")]
    Deny,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct PermissionRequestDecision {
    pub(super) behavior: Behavior,
    /// Reserved by Codex: present, it makes the output invalid.
    #[serde(default)]
    pub(super) updated_input: Option<Value>,
    /// Reserved by Codex: present, it makes the output invalid.
    #[serde(default)]
    pub(super) updated_permissions: Option<Value>,
    #[serde(default)]
    pub(super) message: Option<String>,
    /// Reserved by Codex: `true` makes the output invalid.
    #[serde(default)]
    pub(super) interrupt: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct PostToolUse {
    #[serde(flatten)]
    pub(super) universal: Universal,
    #[serde(default)]
    pub(super) decision: Option<Block>,
    #[serde(default)]
    pub(super) reason: Option<String>,
    #[serde(default)]
    pub(super) hook_specific_output: Option<PostToolUseSpecific>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct PostToolUseSpecific {
    #[allow(dead_code)]
    pub(super) hook_event_name: EventName,
    #[serde(default)]
    pub(super) additional_context: Option<String>,
    /// Not supported by Codex: present, it makes the output invalid.
    #[serde(default, rename = "updatedMCPToolOutput")]
    pub(super) updated_mcp_tool_output: Option<Value>,
}

/// SessionStart and SubagentStart.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Start {
    #[serde(flatten)]
    pub(super) universal: Universal,
    #[serde(default)]
    pub(super) hook_specific_output: Option<ContextSpecific>,
}

/// The `hookSpecificOutput` of SessionStart, SubagentStart and
/// UserPromptSubmit.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct ContextSpecific {
    #[allow(dead_code)]
    pub(super) hook_event_name: EventName,
    #[serde(default)]
    pub(super) additional_context: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct UserPromptSubmit {
    #[serde(flatten)]
    pub(super) universal: Universal,
    #[serde(default)]
    pub(super) decision: Option<Block>,
    #[serde(default)]
    pub(super) reason: Option<String>,
    #[serde(default)]
    pub(super) hook_specific_output: Option<ContextSpecific>,
}

/// Stop and SubagentStop (no `hookSpecificOutput`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Stop {
    #[serde(flatten)]
    pub(super) universal: Universal,
    #[serde(default)]
    pub(super) decision: Option<Block>,
    #[serde(default)]
    pub(super) reason: Option<String>,
}

/// PreCompact and PostCompact: the universal fields only.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct Compact {
    #[serde(flatten)]
    pub(super) universal: Universal,
}

/// Parse stdout the way Codex does: the trimmed text must be one JSON
/// object that fits `T` exactly; anything else is `None`.
pub(super) fn parse<T: for<'de> Deserialize<'de>>(stdout: &str) -> Option<T> {
    let trimmed = stdout.trim();
    if trimmed.is_empty() {
        return None;
    }
    let value: Value = serde_json::from_str(trimmed).ok()?;
    if !value.is_object() {
        return None;
    }
    serde_json::from_value(value).ok()
}

/// Whether unparsed stdout looks like JSON (its first non-blank character
/// is `{` or `[`): then it is an error, not plain text.
pub(super) fn looks_like_json(stdout: &str) -> bool {
    let t = stdout.trim_start();
    t.starts_with('{') || t.starts_with('[')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codex's `structured_output_rejects_invalid_shapes_and_types`: "any
    /// unknown key anywhere, a wrong type, a missing
    /// `hookSpecificOutput.hookEventName`, or a JSON array → not parsed".
    #[test]
    fn structured_output_rejects_invalid_shapes_and_types() {
        let pre = |s: &str| parse::<PreToolUse>(s).is_some();
        assert!(pre(
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#
        ));
        assert!(pre(r#"{"continue":true,"stopReason":null,"systemMessage":"hi","suppressOutput":false}"#));
        assert!(!pre(r#"{"permissionDecision":"deny"}"#), "a top-level permissionDecision is unknown");
        assert!(!pre(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedPermissions":[]}}"#));
        assert!(!pre(r#"{"systemMessage":123}"#), "wrong type");
        assert!(!pre(r#"{"continue":null}"#), "null is not a boolean");
        assert!(!pre(r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#), "hookEventName is required");
        assert!(!pre(r#"{"hookSpecificOutput":{"hookEventName":"Notification"}}"#), "not a Codex event");
        assert!(!pre(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"Deny"}}"#));
        assert!(!pre(r#"[{"decision":"block"}]"#), "an array");
        assert!(!pre(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":["a"]}}"#));
        assert!(parse::<Stop>(r#"{"decision":"block","reason":"r"}"#).is_some());
        assert!(parse::<Stop>(r#"{"decision":"approve"}"#).is_none(), "Stop accepts only block");
        assert!(parse::<Stop>(r#"{"hookSpecificOutput":{"hookEventName":"Stop"}}"#).is_none());
        assert!(parse::<Compact>(r#"{"decision":"block","reason":"r"}"#).is_none());
        assert!(parse::<Compact>(r#"{"continue":false,"stopReason":"s"}"#).is_some());
        // hookEventName names a Codex event, not necessarily this one.
        assert!(parse::<Start>(r#"{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"c"}}"#).is_some());
    }

    #[test]
    fn json_looking_means_a_leading_brace_or_bracket() {
        assert!(looks_like_json("  {oops"));
        assert!(looks_like_json("[1]"));
        assert!(!looks_like_json("42"));
        assert!(!looks_like_json("plain {text}"));
    }
}
