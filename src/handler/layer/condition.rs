//! The condition layer: a hook with an `if` condition (Claude Code's
//! permission-rule syntax, [`crate::config::rule`]) is left out of the run, before
//! it starts, unless the event's tool call matches it. On events without a
//! tool call a hook with `if` never runs ("Only evaluated on tool events:
//! PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, and
//! PermissionDenied. On other events, a hook with if set never runs"; the
//! hook's profile says which events carry a tool call).

use std::path::Path;

use serde_json::Value;

use crate::config::HookSpec;
use crate::model::event::RunEvent;

/// Whether `hook`'s condition (if any) holds for this event input.
pub(crate) fn admits(hook: &HookSpec, event: &RunEvent, input: &Value, workspace: &Path) -> bool {
    let Some(rule) = &hook.if_rule else {
        return true;
    };
    let tool_event = hook.dialect().profile().is_tool_event(event);
    let tool = if tool_event { input.get("tool_name").and_then(Value::as_str) } else { None };
    rule.matches(tool, input.get("tool_input"), workspace)
}
