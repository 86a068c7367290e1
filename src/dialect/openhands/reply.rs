//! One OpenHands hook's result → the canonical reply, as
//! `HookExecutor.execute` and `HookManager` read it.
//!
//! A hook **blocks** when it exits 2, or its stdout is a JSON object with
//! `decision: "deny"` (any case), or with a falsy `continue` (`false`,
//! `0`, `""`, `null`, …). stdout is parsed as JSON **on every exit code**
//! (OpenHands' code does; its docs say exit 0). What a block does:
//!
//! | event | a block | `additionalContext` |
//! |---|---|---|
//! | PreToolUse | **deny** the call | ignored |
//! | UserPromptSubmit | **block** the prompt | **context** for the prompt (every hook's, blocked or not) |
//! | Stop | **block** the stop: the agent goes on, told the hook's `additionalContext`, else its reason | (the feedback) |
//! | PostToolUse, SessionStart, SessionEnd | nothing (an info message says it was ignored) | ignored |
//!
//! The reason of a block is the JSON `reason` (any value, as Python's
//! `str()` writes it), else stderr (trimmed), else `Blocked by hook`.
//! `continue: false` blocks the action only: it never halts the agent.
//! `decision: "allow"` has no effect (it is not a pre-approval), and so
//! has any other `decision` value (`"block"` included: a warning says so);
//! a `decision` that is not a string makes OpenHands fail the hook
//! ("Hook execution failed"): no block, whatever the exit code, a warning.
//! `hookSpecificOutput` is not read (a warning names it).
//!
//! A non-zero exit other than 2, a signal or a lost status is a
//! non-blocking failure (a warning) unless stdout held a JSON object, whose
//! fields then decide; a timeout is a non-blocking failure.
//!
//! A prompt or agent hook's answer (the host's handler): OpenHands'
//! `{"decision": "allow" | "deny", "reason"}`, or hookline's `{"ok":
//! bool, "reason"}`; anything else, or no handler, is OpenHands' "fall
//! open" (a warning; the action proceeds).

use serde_json::{Map, Value};

use super::event_type;
use crate::dialect::ReadCtx;
use crate::hl_debug;
use crate::model::event::EventFamily;
use crate::model::execution::{Answer, HookExecution};
use crate::model::outcome::{HookFailure, HookMessageLevel, PreToolHookDecision};
use crate::model::reply::{Decision, Failure, HookReply};
use crate::model::rules::Column;

/// The reason of a block that gives none (`get_blocking_reason`).
pub(crate) const DEFAULT_REASON: &str = "Blocked by hook";

/// The reader columns this reader honours.
pub(crate) fn honours(family: EventFamily) -> &'static [Column] {
    match family {
        EventFamily::Tool | EventFamily::Prompt | EventFamily::Stop => &[Column::Exit2Block, Column::JsonOverExitCode],
        _ => &[],
    }
}

/// Python's `str()` of a JSON value: a string as it is, `None`, `True`,
/// `False`, a number's text, anything else as JSON text.
pub(crate) fn py_str(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        other => other.to_string(),
    }
}

/// Python's truth value of a JSON value.
pub(crate) fn py_truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// What a hook's stdout JSON says.
#[derive(Default)]
struct Said {
    deny: bool,
    halt_as_block: bool,
    reason: Option<String>,
    context: Option<String>,
}

/// Read one hook's result (see the module documentation).
pub(crate) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    let mut reply = HookReply::default();
    let who = format!("{} hook `{}`", event_type(cx.event), exec.label);
    let level = cx.rules.failure_level;
    let fail = |reply: &mut HookReply, kind: HookFailure, how: String| {
        let text = format!("{who} {how}");
        reply.push(level, text.clone());
        reply.failure = Some(Failure { kind, text, timeout_or_lost: matches!(kind, HookFailure::Timeout) });
    };
    match &exec.answer {
        Answer::Exited => {}
        Answer::Verdict { reply: answer, .. } => {
            verdict(cx, &mut reply, &who, answer);
            return reply;
        }
        Answer::Failed { kind, message } => {
            fail(&mut reply, *kind, format!("failed ({}); OpenHands lets the action proceed", message.trim()));
            return reply;
        }
        Answer::Http { status, .. } => {
            fail(&mut reply, HookFailure::Http, format!("answered HTTP {status}, which OpenHands hooks cannot"));
            return reply;
        }
    }
    let stderr = exec.stderr.trim();
    if exec.timed_out {
        let after = match exec.timeout_seconds {
            0 => String::new(),
            s => format!(" after {s} seconds"),
        };
        let tail = if stderr.is_empty() { String::new() } else { format!(": {stderr}") };
        fail(&mut reply, HookFailure::Timeout, format!("timed out{after}{tail}"));
        return reply;
    }
    // "Try to parse JSON from stdout", whatever the exit code.
    let mut said = Said::default();
    let mut json_object = false;
    if !exec.stdout.trim().is_empty() {
        if let Ok(Value::Object(out)) = serde_json::from_str::<Value>(&exec.stdout) {
            json_object = true;
            match read_json(&mut reply, &who, &out) {
                Ok(s) => said = s,
                Err(why) => {
                    fail(
                        &mut reply,
                        HookFailure::InvalidOutput,
                        format!(
                            "failed: {why}; OpenHands fails such a hook (\"Hook execution failed\") and does not block"
                        ),
                    );
                    return reply;
                }
            }
        }
    }
    let code = exec.exit_code;
    let blocked = code == Some(2) || said.deny || said.halt_as_block;
    match code {
        Some(0 | 2) => {}
        _ if json_object => {
            let how = match (code, exec.signal) {
                (Some(c), _) => format!("exited with code {c}"),
                (None, Some(s)) => format!("was killed by signal {s}"),
                (None, None) => crate::dialect::protocol::UNKNOWN_STATUS.to_owned(),
            };
            reply.push(level, format!("{who} {how}; its stdout JSON is read all the same (as OpenHands does)"));
        }
        Some(c) => {
            let tail = if stderr.is_empty() { String::new() } else { format!(": {stderr}") };
            fail(&mut reply, HookFailure::Exit, format!("exited with code {c}{tail}"));
        }
        None => {
            let tail = if stderr.is_empty() { String::new() } else { format!(": {stderr}") };
            let (kind, how) = match exec.signal {
                Some(s) => (HookFailure::Signal, format!("was killed by signal {s}{tail}")),
                None => (HookFailure::Exit, format!("{}{tail}", crate::dialect::protocol::UNKNOWN_STATUS)),
            };
            fail(&mut reply, kind, how);
        }
    }
    let reason = || match (&said.reason, stderr) {
        (Some(r), _) if !r.is_empty() => r.clone(),
        (_, "") => DEFAULT_REASON.to_owned(),
        (_, s) => s.to_owned(),
    };
    match cx.family {
        EventFamily::Tool => {
            if blocked {
                reply.decision = Some(Decision::Tool(PreToolHookDecision::Deny, Some(reason())));
            }
        }
        EventFamily::Prompt => {
            if let Some(c) = said.context.take() {
                reply.context.push(c);
            }
            if blocked {
                reply.decision = Some(Decision::Block(reason()));
            }
        }
        EventFamily::Stop => {
            if blocked {
                let feedback = said.context.take().filter(|c| !c.is_empty()).unwrap_or_else(reason);
                reply.decision = Some(Decision::Block(feedback));
            }
        }
        _ => {
            if blocked {
                reply.push(
                    HookMessageLevel::Info,
                    format!("{who} blocked, which OpenHands ignores on {}: {}", event_type(cx.event), reason()),
                );
            }
            if said.context.is_some() {
                hl_debug!("{who} gave additionalContext, which OpenHands ignores on {}", event_type(cx.event));
            }
        }
    }
    reply
}

/// The fields OpenHands reads of a stdout JSON object; `Err` when
/// OpenHands' reading raises (a `decision` that is not a string).
fn read_json(reply: &mut HookReply, who: &str, out: &Map<String, Value>) -> Result<Said, String> {
    let mut said = Said::default();
    if let Some(d) = out.get("decision") {
        let Value::String(d) = d else {
            return Err(format!("`decision` is {d}, not a string"));
        };
        match d.to_lowercase().as_str() {
            "deny" => said.deny = true,
            "allow" => {}
            other => reply.push(
                HookMessageLevel::Warning,
                format!(
                    "{who} answered decision {other:?}, which OpenHands ignores (it reads \"allow\" and \"deny\"): \
                     nothing is blocked; write \"deny\" to block"
                ),
            ),
        }
    }
    said.reason = out.get("reason").map(py_str);
    said.context = out.get("additionalContext").map(py_str);
    if out.get("continue").is_some_and(|c| !py_truthy(c)) {
        said.halt_as_block = true;
    }
    if out.contains_key("hookSpecificOutput") {
        reply.push(
            HookMessageLevel::Warning,
            format!(
                "{who} answered hookSpecificOutput, which OpenHands does not read (a Claude Code answer): its \
                 decision and context have no effect; OpenHands reads a top-level `decision`, `reason`, \
                 `additionalContext` and `continue`"
            ),
        );
    }
    Ok(said)
}

/// A prompt or agent hook's answer (`_parse_decision`, or hookline's
/// `{"ok": …}`).
fn verdict(cx: &ReadCtx<'_>, reply: &mut HookReply, who: &str, answer: &Value) {
    let reason = answer.get("reason").map(py_str).unwrap_or_default();
    let decision = match (answer.get("decision"), answer.get("ok").and_then(Value::as_bool)) {
        (Some(d), _) => py_str(d).to_lowercase(),
        (None, Some(true)) => "allow".to_owned(),
        (None, Some(false)) => "deny".to_owned(),
        (None, None) => String::new(),
    };
    match decision.as_str() {
        "allow" => {}
        "deny" => {
            let reason = if reason.is_empty() { DEFAULT_REASON.to_owned() } else { reason };
            reply.decision = match cx.family {
                EventFamily::Tool => Some(Decision::Tool(PreToolHookDecision::Deny, Some(reason))),
                EventFamily::Prompt | EventFamily::Stop => Some(Decision::Block(reason)),
                _ => None,
            };
        }
        _ => {
            let text =
                format!("{who} returned an invalid decision ({answer}); OpenHands defaults to allow (\"fall open\")");
            reply.push(cx.rules.failure_level, text.clone());
            reply.failure = Some(Failure { kind: HookFailure::InvalidOutput, text, timeout_or_lost: false });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_str_and_truth() {
        assert_eq!(py_str(&json!(null)), "None");
        assert_eq!(py_str(&json!(true)), "True");
        assert_eq!(py_str(&json!(5)), "5");
        assert_eq!(py_str(&json!("x")), "x");
        for falsy in [json!(false), json!(0), json!(""), json!(null), json!([]), json!({})] {
            assert!(!py_truthy(&falsy), "{falsy}");
        }
        assert!(py_truthy(&json!("false")), "a non-empty string is true in Python");
    }
}
