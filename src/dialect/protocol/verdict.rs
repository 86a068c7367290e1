//! The hooks protocol's response schema of prompt and agent hooks: what a
//! model's `{"ok": bool, "reason": str, "impossible"?: bool}` means on each
//! event (Claude Code's hooks reference, "Response schema"). Each verdict
//! reads as the command result that means the same on that event, which
//! the event's own reader then reads:
//!
//! | event | `ok: false` reads as |
//! |---|---|
//! | Stop, SubagentStop | `decision: "block"` with the reason (the agent keeps working on it); with `impossible: true` (prompt hooks only) nothing: the stop is allowed |
//! | PreToolUse | `permissionDecision: "deny"` with the reason, and `continue: false` with the reason as `stopReason` (the turn ends); with `continueOnBlock` only the deny |
//! | PostToolUse | `continue: false` with the reason as `stopReason`; with `continueOnBlock` `decision: "block"` (the reason goes back to the model) |
//! | UserPromptSubmit, UserPromptExpansion, PostToolBatch | `decision: "block"` with the reason |
//! | PostToolUseFailure, TaskCreated | `decision: "block"` with the reason (back to the model as a tool error) |
//! | TaskCompleted | exit 2 with the reason on stderr (the task is not completed, the reason goes back) |
//! | TeammateIdle | `continue: false` with the reason as `stopReason` (the teammate stops); with `continueOnBlock` exit 2 with the reason on stderr (it keeps working) |
//! | PermissionRequest, PermissionDenied, any other event | nothing (`ok: false` has no effect there) |
//!
//! Agent hooks read like prompt hooks with `continueOnBlock: true` and
//! ignore `impossible`. `ok: true` is an exit 0 without output. A reply
//! that is not such an object (no boolean `ok`, or `ok: false` without a
//! reason) is a non-blocking error, `failure: "invalid_output"`.

use serde_json::{json, Value};

use crate::model::execution::HookExecution;

/// What a verdict stands for on `event`, or why the reply is not one.
pub(crate) fn as_command_result(
    exec: &HookExecution,
    event: &str,
    reply: &Value,
    agent: bool,
    continue_on_block: bool,
) -> Result<HookExecution, String> {
    let Some(ok) = reply.get("ok").and_then(Value::as_bool) else {
        return Err(format!("replied {} instead of {{\"ok\": true|false, \"reason\": …}}", describe(reply)));
    };
    let base = HookExecution {
        label: exec.label.clone(),
        timeout_seconds: exec.timeout_seconds,
        exit_code: Some(0),
        ..HookExecution::default()
    };
    if ok {
        return Ok(base);
    }
    let Some(reason) = reply.get("reason").and_then(Value::as_str).map(str::trim).filter(|r| !r.is_empty()) else {
        return Err("replied ok: false without a reason".to_owned());
    };
    let impossible = !agent && reply.get("impossible").and_then(Value::as_bool) == Some(true);
    let stdout = |v: Value| HookExecution { stdout: v.to_string(), ..base.clone() };
    let block = || stdout(json!({"decision": "block", "reason": reason}));
    let halt = || stdout(json!({"continue": false, "stopReason": reason}));
    let exit2 = || HookExecution { exit_code: Some(2), stderr: reason.to_owned(), ..base.clone() };
    Ok(match event {
        "Stop" | "SubagentStop" if impossible => base.clone(),
        "Stop" | "SubagentStop" => block(),
        "PreToolUse" => {
            let mut deny = json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }});
            if !continue_on_block {
                deny["continue"] = Value::Bool(false);
                deny["stopReason"] = Value::from(reason);
            }
            stdout(deny)
        }
        "PostToolUse" if continue_on_block => block(),
        "PostToolUse" => halt(),
        "UserPromptSubmit" | "UserPromptExpansion" | "PostToolBatch" | "PostToolUseFailure" | "TaskCreated" => block(),
        "TaskCompleted" => exit2(),
        "TeammateIdle" if continue_on_block => exit2(),
        "TeammateIdle" => halt(),
        _ => base.clone(),
    })
}

fn describe(reply: &Value) -> String {
    match reply {
        Value::Null => "nothing".to_owned(),
        Value::Object(_) => "an object without a boolean `ok`".to_owned(),
        other => {
            let text = other.to_string();
            match text.char_indices().nth(80) {
                Some((cut, _)) => format!("{}…", &text[..cut]),
                None => text,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(event: &str, reply: Value, agent: bool, continue_on_block: bool) -> Result<HookExecution, String> {
        as_command_result(&HookExecution::default(), event, &reply, agent, continue_on_block)
    }

    fn json_out(e: &HookExecution) -> Value {
        serde_json::from_str(&e.stdout).unwrap_or(Value::Null)
    }

    /// "`Stop` and `SubagentStop`: the reason is fed back to Claude as its
    /// next instruction and the turn continues, unless the response also
    /// sets `impossible: true`, in which case Claude Code allows the stop".
    #[test]
    fn stop_ok_false_blocks_unless_impossible() {
        let blocked = read("Stop", json!({"ok": false, "reason": "tests fail"}), false, false).unwrap();
        assert_eq!(json_out(&blocked), json!({"decision": "block", "reason": "tests fail"}));
        let allowed =
            read("SubagentStop", json!({"ok": false, "reason": "r", "impossible": true}), false, false).unwrap();
        assert_eq!((allowed.exit_code, allowed.stdout.as_str()), (Some(0), ""));
    }

    /// Agent hooks "don't support the prompt-hook `impossible` field".
    #[test]
    fn agent_hooks_ignore_impossible() {
        let e = read("Stop", json!({"ok": false, "reason": "r", "impossible": true}), true, true).unwrap();
        assert_eq!(json_out(&e)["decision"], "block");
    }

    /// "`PreToolUse`: the tool call is denied; by default the turn ends …
    /// Set `continueOnBlock: true` to instead return the reason to Claude as
    /// the tool error so it can adjust and continue".
    #[test]
    fn pre_tool_use_ok_false_denies_and_ends_the_turn_unless_continue_on_block() {
        let ends = json_out(&read("PreToolUse", json!({"ok": false, "reason": "no"}), false, false).unwrap());
        assert_eq!(ends["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!((ends["continue"].clone(), ends["stopReason"].clone()), (json!(false), json!("no")));
        let goes_on = json_out(&read("PreToolUse", json!({"ok": false, "reason": "no"}), false, true).unwrap());
        assert_eq!(goes_on["hookSpecificOutput"]["permissionDecisionReason"], "no");
        assert!(goes_on.get("continue").is_none());
    }

    /// "`PostToolUse`: by default the turn ends … Set `continueOnBlock:
    /// true` to feed the reason back to Claude and continue the turn".
    #[test]
    fn post_tool_use_ok_false_ends_the_turn_or_feeds_back() {
        assert_eq!(
            json_out(&read("PostToolUse", json!({"ok": false, "reason": "r"}), false, false).unwrap()),
            json!({"continue": false, "stopReason": "r"})
        );
        assert_eq!(
            json_out(&read("PostToolUse", json!({"ok": false, "reason": "r"}), true, true).unwrap()),
            json!({"decision": "block", "reason": "r"})
        );
    }

    /// "`PermissionRequest`: `ok: false` has no effect".
    #[test]
    fn permission_request_ok_false_has_no_effect() {
        let e = read("PermissionRequest", json!({"ok": false, "reason": "r"}), false, false).unwrap();
        assert_eq!((e.exit_code, e.stdout.as_str(), e.stderr.as_str()), (Some(0), "", ""));
    }

    /// "`TeammateIdle`: by default the teammate stops … Set
    /// `continueOnBlock: true` to feed the reason back to the teammate and
    /// keep it working instead".
    #[test]
    fn teammate_idle_stops_or_keeps_working() {
        let stops = read("TeammateIdle", json!({"ok": false, "reason": "r"}), false, false).unwrap();
        assert_eq!(json_out(&stops)["continue"], false);
        let works = read("TeammateIdle", json!({"ok": false, "reason": "r"}), false, true).unwrap();
        assert_eq!((works.exit_code, works.stderr.as_str()), (Some(2), "r"));
    }

    /// "`reason`: Required when `ok` is `false`".
    #[test]
    fn a_reply_without_ok_or_without_a_reason_is_not_a_verdict() {
        assert!(read("Stop", json!({"ok": false}), false, false).unwrap_err().contains("without a reason"));
        assert!(read("Stop", json!({"decision": "block"}), false, false).unwrap_err().contains("boolean `ok`"));
        assert!(read("Stop", Value::Null, false, false).unwrap_err().contains("nothing"));
        assert!(read("Stop", json!("yes"), false, false).is_err());
        assert_eq!(read("Stop", json!({"ok": true}), false, false).unwrap().exit_code, Some(0));
    }
}
