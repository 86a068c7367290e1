//! One Crush hook's result → the canonical reply (`hooks.runOne`,
//! `parseStdout`, `parseClaudeCodeOutput`; charmbracelet/crush
//! `internal/hooks/` @37f36e93).
//!
//! | hook result | effect |
//! |---|---|
//! | exit 0 | stdout (trimmed) is the output envelope, below; empty: no opinion |
//! | exit 2 on PreToolUse | **deny**, the reason stderr (trimmed), else "blocked by hook"; stdout is ignored |
//! | exit 49 on PreToolUse | **deny and halt the turn**, the reason stderr, else "turn halted by hook" |
//! | any other exit, a signal, a timeout, a hook that cannot start | a warning naming the hook; no opinion, the call proceeds |
//!
//! The envelope: `{"version", "decision", "halt", "reason", "context",
//! "updated_input"}`. `decision` is `allow` (pre-approves the call: the
//! permission prompt is skipped) or `deny` (any case); anything else is no
//! opinion. `halt: true` ends the turn, and the call is blocked with it.
//! `reason` goes with a deny or a halt. `context` is a string or an array of
//! strings (empty ones dropped). `updated_input` is a patch of the input's
//! top-level keys (an object, or a JSON string holding one). A field of the
//! wrong type makes Go's decoder drop the whole envelope: no opinion
//! (reported). With a `hookSpecificOutput` key the envelope is Claude
//! Code's instead: only `permissionDecision` (`allow`/`deny`),
//! `permissionDecisionReason`, `updatedInput` and `additionalContext` of it
//! are read, and every top-level field is ignored.
//!
//! Output Crush ignores without a word (not JSON, an unknown decision, a
//! Claude Code field of its own such as `continue` or a top-level `block`)
//! is reported as a warning: a guard that Crush would not obey says so.

use serde_json::Value;

use super::config::field;
use crate::dialect::ReadCtx;
use crate::hl_debug;
use crate::model::event::EventFamily;
use crate::model::execution::{Answer, HookExecution};
use crate::model::outcome::{HookFailure, HookMessageLevel, PreToolHookDecision};
use crate::model::reply::{Decision, Failure, HookReply};
use crate::model::rules::{Column, Exit2};

/// The exit code that halts the whole turn (`hooks.HaltExitCode`).
pub(crate) const HALT_EXIT_CODE: i32 = 49;

/// The envelope's fields (`parseStdout`).
const ENVELOPE: &[&str] = &["version", "decision", "halt", "reason", "context", "updated_input", "hookSpecificOutput"];

/// The reader columns this reader honours.
pub(crate) fn honours(family: EventFamily) -> &'static [Column] {
    match family {
        EventFamily::Tool => &[Column::Exit2Block],
        _ => &[],
    }
}

/// What one hook said, before it becomes a reply (`hooks.HookResult`).
#[derive(Debug, Default, PartialEq)]
struct Said {
    decision: Option<PreToolHookDecision>,
    halt: bool,
    reason: String,
    context: String,
    updated_input: Option<Value>,
}

/// Read one hook's result (see the module documentation).
pub(crate) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    let mut reply = HookReply::default();
    let who = format!("{} hook `{}`", cx.event.name(), exec.label);
    let fail = |reply: &mut HookReply, kind: HookFailure, how: String, stderr: &str| {
        let text = match stderr.trim() {
            "" => format!("{who} {how}; Crush proceeds without its opinion"),
            s => format!("{who} {how}; Crush proceeds without its opinion: {s}"),
        };
        reply.push(cx.rules.failure_level, text.clone());
        reply.failure = Some(Failure { kind, text, timeout_or_lost: matches!(kind, HookFailure::Timeout) });
    };
    match &exec.answer {
        Answer::Exited => {}
        Answer::Failed { kind, message } => {
            fail(&mut reply, *kind, format!("failed: {}", message.trim()), "");
            return reply;
        }
        Answer::Http { status, .. } => {
            fail(&mut reply, HookFailure::Http, format!("answered HTTP {status}, which Crush hooks cannot"), "");
            return reply;
        }
        Answer::Verdict { .. } => {
            fail(&mut reply, HookFailure::InvalidOutput, "answered a verdict, which Crush hooks cannot".into(), "");
            return reply;
        }
    }
    if exec.timed_out {
        let after = match exec.timeout_seconds {
            0 => String::new(),
            s => format!(" after {s} s"),
        };
        fail(&mut reply, HookFailure::Timeout, format!("timed out{after}"), &exec.stderr);
        return reply;
    }
    let blocks = matches!(cx.rules.exit2, Exit2::Block { .. });
    let said = match exec.exit_code {
        Some(0) => match parse_stdout(&exec.stdout) {
            Ok(said) => said,
            Err(why) => {
                let text = format!("{who} {why}; Crush reads it as no opinion");
                reply.push(HookMessageLevel::Warning, text.clone());
                reply.failure = Some(Failure { kind: HookFailure::InvalidOutput, text, timeout_or_lost: false });
                return reply;
            }
        },
        Some(2) if blocks => Said {
            decision: Some(PreToolHookDecision::Deny),
            reason: nonempty(exec.stderr.trim(), "blocked by hook"),
            ..Said::default()
        },
        Some(HALT_EXIT_CODE) if blocks => Said {
            decision: Some(PreToolHookDecision::Deny),
            halt: true,
            reason: nonempty(exec.stderr.trim(), "turn halted by hook"),
            ..Said::default()
        },
        Some(code) => {
            fail(&mut reply, HookFailure::Exit, format!("exited with code {code}"), &exec.stderr);
            return reply;
        }
        None => {
            let (kind, how) = match exec.signal {
                Some(signal) => (HookFailure::Signal, format!("was killed by signal {signal}")),
                None => (HookFailure::Exit, crate::dialect::protocol::UNKNOWN_STATUS.to_owned()),
            };
            fail(&mut reply, kind, how, &exec.stderr);
            return reply;
        }
    };
    if exec.exit_code == Some(0) && !exec.stderr.trim().is_empty() {
        hl_debug!("{who} wrote to stderr, which Crush logs only: {}", exec.stderr.trim());
    }
    for warning in unread_fields(&exec.stdout) {
        reply.push(HookMessageLevel::Warning, format!("{who}: {warning}"));
    }
    apply(cx, said, &mut reply);
    reply
}

/// `text`, else `default`.
fn nonempty(text: &str, default: &str) -> String {
    if text.is_empty() {
        default.to_owned()
    } else {
        text.to_owned()
    }
}

/// What a [`Said`] means on the event being read.
fn apply(cx: &ReadCtx<'_>, said: Said, reply: &mut HookReply) {
    let reason = (!said.reason.is_empty()).then_some(said.reason);
    if said.halt {
        // "If any hook halts, the turn ends after the tool call is blocked."
        reply.halt = Some(reason.clone());
    }
    if cx.family == EventFamily::Tool {
        let decision = match (said.halt, said.decision) {
            (true, _) | (_, Some(PreToolHookDecision::Deny)) => Some(PreToolHookDecision::Deny),
            (false, d) => d,
        };
        reply.decision = match decision {
            Some(PreToolHookDecision::Deny) => Some(Decision::Tool(PreToolHookDecision::Deny, reason.clone())),
            Some(d) => Some(Decision::Tool(d, None)),
            None => None,
        };
        reply.updated_input = said.updated_input;
    } else if said.decision.is_some() || said.updated_input.is_some() {
        hl_debug!("a Crush decision or rewrite means nothing on {}", cx.event.name());
    }
    if !said.context.is_empty() {
        reply.context.push(said.context);
    }
    reply.reason = reason;
}

/// `parseStdout`: the envelope of a hook that exited 0; `Err` naming what
/// Crush cannot read (it then has no opinion).
fn parse_stdout(stdout: &str) -> Result<Said, String> {
    let text = stdout.trim();
    if text.is_empty() {
        return Ok(Said::default());
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(_) => return Err("printed output that is not JSON".to_owned()),
    };
    let Value::Object(obj) = value else {
        return Err(format!("printed JSON that is not an object ({})", crate::config::type_name(&value)));
    };
    // "Claude Code compat: if hookSpecificOutput is present, parse that."
    if let Some(hso) = obj.get("hookSpecificOutput") {
        return claude_code_output(hso);
    }
    let wrong =
        |key: &str, want: &str| Err(format!("wrote `{key}` that is not {want}, so Crush cannot decode the output"));
    match field(&obj, "version") {
        None | Some(Value::Null) => {}
        Some(Value::Number(n)) if n.is_i64() => {
            if n.as_i64().is_some_and(|v| v > 1) {
                hl_debug!("a Crush hook's output declares envelope version {n}; read as version 1");
            }
        }
        Some(_) => return wrong("version", "a whole number"),
    }
    let decision = match field(&obj, "decision") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return wrong("decision", "a string"),
    };
    let halt = match field(&obj, "halt") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return wrong("halt", "a boolean"),
    };
    let reason = match field(&obj, "reason") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return wrong("reason", "a string"),
    };
    Ok(Said {
        decision: parse_decision(decision),
        halt,
        reason,
        context: parse_context(field(&obj, "context")),
        updated_input: field(&obj, "updated_input").and_then(patch),
    })
}

/// `parseClaudeCodeOutput`: `hookSpecificOutput`'s four fields.
fn claude_code_output(hso: &Value) -> Result<Said, String> {
    let obj = match hso {
        Value::Object(obj) => obj,
        Value::Null => return Ok(Said::default()),
        other => {
            return Err(format!(
                "wrote a hookSpecificOutput that is not an object ({}), so Crush cannot decode the output",
                crate::config::type_name(other)
            ))
        }
    };
    let string = |key: &str| match field(obj, key) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => {
            Err(format!("wrote hookSpecificOutput.{key} that is not a string, so Crush cannot decode the output"))
        }
    };
    let decision = string("permissionDecision")?;
    let reason = string("permissionDecisionReason")?;
    let context = string("additionalContext")?;
    let updated_input = match field(obj, "updatedInput") {
        None | Some(Value::Null) => None,
        Some(v) => patch(v),
    };
    Ok(Said {
        decision: parse_decision((!decision.is_empty()).then_some(decision.as_str())),
        halt: false,
        reason,
        context,
        updated_input,
    })
}

/// `parseDecision`: `allow` or `deny`, any case; anything else is none.
fn parse_decision(decision: Option<&str>) -> Option<PreToolHookDecision> {
    match decision?.to_ascii_lowercase().as_str() {
        "allow" => Some(PreToolHookDecision::Allow),
        "deny" => Some(PreToolHookDecision::Deny),
        _ => None,
    }
}

/// `parseContext`: a string, or an array of strings joined with `\n`
/// (empty entries dropped); anything else (an array holding a non-string
/// included) is no context.
fn parse_context(raw: Option<&Value>) -> String {
    match raw {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => {
            let texts: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
            texts.map(|t| t.into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join("\n")).unwrap_or_default()
        }
        _ => String::new(),
    }
}

/// `rawToString` then `shallowMerge`'s check: a patch is an object, or a
/// JSON string holding one; anything else is rejected (`None`).
fn patch(raw: &Value) -> Option<Value> {
    let value = match raw {
        Value::Null => return None,
        Value::String(s) => serde_json::from_str::<Value>(s).ok()?,
        other => other.clone(),
    };
    value.is_object().then_some(value)
}

/// What in a hook's stdout Crush does not read, in words: unknown
/// decisions, rejected patches, fields of Claude Code's own protocol.
fn unread_fields(stdout: &str) -> Vec<String> {
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(stdout.trim()) else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(hso) = obj.get("hookSpecificOutput") {
        for key in obj.keys().filter(|k| *k != "hookSpecificOutput") {
            out.push(format!(
                "Crush reads only hookSpecificOutput when it is present: the top-level `{key}` is ignored"
            ));
        }
        if let Some(hso) = hso.as_object() {
            unknown_decision(field(hso, "permissionDecision"), "hookSpecificOutput.permissionDecision", &mut out);
            rejected_patch(field(hso, "updatedInput"), "hookSpecificOutput.updatedInput", &mut out);
        }
        return out;
    }
    unknown_decision(field(&obj, "decision"), "decision", &mut out);
    rejected_patch(field(&obj, "updated_input"), "updated_input", &mut out);
    for key in obj.keys().filter(|k| !ENVELOPE.iter().any(|f| f.eq_ignore_ascii_case(k))) {
        let why = match key.as_str() {
            "block" => "Crush has no `block` field: use `\"decision\": \"deny\"` or exit 2".to_owned(),
            "continue" | "stopReason" => {
                "Crush does not read Claude Code's `continue`: use `\"halt\": true`".to_owned()
            }
            _ => match crate::suggest::closest(key, ENVELOPE.iter().copied()) {
                Some(f) => format!("Crush does not read it; did you mean `{f}`?"),
                None => "Crush does not read it".to_owned(),
            },
        };
        out.push(format!("the output field `{key}` is ignored: {why}"));
    }
    out
}

fn unknown_decision(value: Option<&Value>, path: &str, out: &mut Vec<String>) {
    if let Some(Value::String(s)) = value {
        if !s.is_empty() && parse_decision(Some(s)).is_none() {
            out.push(format!("`{path}: {s:?}` is not a decision Crush knows (allow, deny): no opinion"));
        }
    }
}

fn rejected_patch(value: Option<&Value>, path: &str, out: &mut Vec<String>) {
    if let Some(v) = value.filter(|v| !v.is_null()) {
        if patch(v).is_none() {
            out.push(format!("`{path}` is not a JSON object (nor a string holding one): Crush ignores the patch"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_envelope_reads_as_crush_decodes_it() {
        let said = parse_stdout(
            r#"{"version": 1, "decision": "ALLOW", "reason": "LGTM", "context": ["a", "", "b"],
                "updated_input": {"command": "bun test"}}"#,
        )
        .unwrap();
        assert_eq!(said.decision, Some(PreToolHookDecision::Allow));
        assert_eq!(said.context, "a\nb");
        assert_eq!(said.updated_input, Some(json!({"command": "bun test"})));
        // "It accepts both a JSON object (nested) and a JSON string
        // (stringified, for backward compatibility)."
        let said = parse_stdout(r#"{"updated_input": "{\"command\": \"x\"}"}"#).unwrap();
        assert_eq!(said.updated_input, Some(json!({"command": "x"})));
        assert_eq!(parse_stdout(r#"{"updated_input": [1]}"#).unwrap().updated_input, None);
        assert_eq!(parse_stdout(r#"{"decision": "block"}"#).unwrap().decision, None);
        assert_eq!(parse_stdout(r#"{"decision": "ask"}"#).unwrap().decision, None);
        assert_eq!(parse_stdout(r#"{"context": ["a", 1]}"#).unwrap().context, "");
        assert_eq!(parse_stdout(r#"{"context": 5}"#).unwrap().context, "");
        assert_eq!(parse_stdout("  ").unwrap(), Said::default());
    }

    /// Go's `json.Unmarshal` fails on a field of the wrong type, and
    /// `parseStdout` then returns `DecisionNone`: a deny with `halt: "yes"`
    /// is no opinion in Crush.
    #[test]
    fn a_wrongly_typed_field_drops_the_envelope() {
        for bad in [r#"{"decision": "deny", "halt": "yes"}"#, r#"{"decision": 1}"#, r#"{"version": "1"}"#] {
            assert!(parse_stdout(bad).is_err(), "{bad}");
        }
        assert!(parse_stdout("not json").is_err());
        assert!(parse_stdout("[1]").is_err());
    }

    /// "Claude Code compat: if hookSpecificOutput is present, parse that."
    #[test]
    fn hook_specific_output_wins_over_the_envelope() {
        let said = parse_stdout(
            r#"{"decision": "allow", "halt": true, "hookSpecificOutput": {"permissionDecision": "deny",
                "permissionDecisionReason": "no", "additionalContext": "c", "updatedInput": {"a": 1}}}"#,
        )
        .unwrap();
        assert_eq!(
            said,
            Said {
                decision: Some(PreToolHookDecision::Deny),
                halt: false,
                reason: "no".into(),
                context: "c".into(),
                updated_input: Some(json!({"a": 1})),
            }
        );
        assert_eq!(parse_stdout(r#"{"hookSpecificOutput": {"permissionDecision": "ask"}}"#).unwrap().decision, None);
        let w = unread_fields(r#"{"block": true, "continue": false, "decison": "deny"}"#);
        assert!(w.iter().any(|w| w.contains("`block`")), "{w:?}");
        assert!(w.iter().any(|w| w.contains("`continue`")), "{w:?}");
        assert!(w.iter().any(|w| w.contains("did you mean `decision`")), "{w:?}");
    }
}
