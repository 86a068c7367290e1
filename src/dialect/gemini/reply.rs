//! One Gemini CLI hook's result → the canonical reply, as Gemini CLI's
//! runner (`hookRunner.ts`) and aggregator (`hookAggregator.ts`) read it.
//!
//! The output is stdout trimmed, or stderr trimmed when stdout is empty.
//! JSON that is an object (or an array, which has no fields) is the hook's
//! output whatever the exit code; a JSON string is parsed once more
//! (double-encoded output); any other JSON value (a number, `true`, `null`)
//! is no output. Text that is not JSON becomes output by the exit code:
//!
//! | exit | JSON object | plain text | nothing |
//! |---|---|---|---|
//! | 0 | its fields apply | `systemMessage` = the text | no effect |
//! | 1 | its fields apply (a deny still denies) | `systemMessage` = `Warning: ` + the text | no effect |
//! | 2, 3, 127, … | its fields apply (`{"decision":"allow"}` allows) | **deny**, reason = the text | no effect |
//! | killed by a signal | its fields apply | like exit 0 | no effect |
//! | timed out | — (nothing is read) | — | — |
//!
//! A hook that did not exit 0 (or timed out) is a failure for its report
//! (`exit`, `signal`, `timeout`) and gives a warning; it never decides by
//! failing. Only top-level fields decide (Claude Code's
//! `hookSpecificOutput.permissionDecision` means nothing here); `decision`
//! is compared exactly (`"block"` or `"deny"` block, `"ask"` asks, anything
//! else — `"allow"`, `"approve"` — is no decision, since a Gemini CLI hook
//! cannot approve a tool call); strings count when non-empty.
//!
//! | field | effect |
//! |---|---|
//! | `continue: false` (+ `stopReason`) | the agent halts (BeforeTool, AfterTool, BeforeAgent, AfterAgent, BeforeModel, AfterModel); BeforeTool denies, BeforeAgent blocks the prompt, AfterTool replaces the result |
//! | `decision` + `reason` | BeforeTool deny or ask, BeforeAgent block, AfterAgent block (its reason is the next prompt), AfterTool block (replaces the result) |
//! | `systemMessage` | an info message, on every event |
//! | `hookSpecificOutput.tool_input` | BeforeTool: replaces the tool's arguments (a value that is not an object cancels earlier rewrites) |
//! | `hookSpecificOutput.additionalContext` (a string) | context, `<` and `>` HTML-escaped (BeforeAgent, AfterTool, SessionStart) |
//! | `hookSpecificOutput.clearContext: true` | AfterAgent: `dialect_fields.gemini.clearContext` |
//! | `hookSpecificOutput.tailToolCallRequest` (an object; the last hook's value counts) | AfterTool: `dialect_fields.gemini.tailToolCallRequest`, none when the AfterTool run blocks |
//! | `decision` + `reason` | BeforeModel, AfterModel: `block`/`deny` is the canonical `deny` (reason: `stopReason`, else `reason`, else `No reason provided`), any other value `continue`; the last hook that gave one decides |
//! | `decision` as given (a string, else `null`) as `gemini_decision`, `reason`, `hookSpecificOutput.llm_request` / `llm_response` | BeforeModel, AfterModel: `dialect_fields.gemini` |
//! | `hookSpecificOutput.toolConfig` | BeforeToolSelection: `dialect_fields.gemini.toolConfig` |
//!
//! SessionStart reads only context and `systemMessage` (its `decision` and
//! `continue` mean nothing); SessionEnd, PreCompress and Notification only
//! `systemMessage`.

use serde_json::{Map, Value};

use super::event_name;
use crate::dialect::matcher::js_trim;
use crate::dialect::protocol::UNKNOWN_STATUS;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::outcome::{HookFailure, HookMessageLevel, PreToolHookDecision};
use crate::model::reply::{Decision, Failure, HookReply};

/// Gemini CLI's reason when a hook blocks without giving one.
const NO_REASON: &str = "No reason provided";

/// `JSON.parse`: JSON text, where a `\u` escape of a lone UTF-16 surrogate
/// (`"\ud800"`), which JavaScript keeps in its string, is read as U+FFFD
/// (a Rust string cannot hold a lone surrogate).
fn json_parse(text: &str) -> Option<Value> {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => Some(v),
        Err(_) => serde_json::from_str::<Value>(&replace_lone_surrogates(text)?).ok(),
    }
}

/// `text` with every `\u` escape of a lone surrogate inside a JSON string
/// replaced by `\ufffd` (`None`: there is none, the text stays invalid).
fn replace_lone_surrogates(text: &str) -> Option<String> {
    let hex = |at: usize| -> Option<u16> {
        let digits = text.get(at..at + 4)?;
        if digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            u16::from_str_radix(digits, 16).ok()
        } else {
            None
        }
    };
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut copied, mut in_string, mut changed) = (0, 0, false, false);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                if bytes.get(i + 1) == Some(&b'u') {
                    if let Some(unit) = hex(i + 2) {
                        let high = (0xD800..0xDC00).contains(&unit);
                        let low_follows = bytes.get(i + 6) == Some(&b'\\')
                            && bytes.get(i + 7) == Some(&b'u')
                            && hex(i + 8).is_some_and(|u| (0xDC00..0xE000).contains(&u));
                        if high && low_follows {
                            i += 12;
                            continue;
                        }
                        if (0xD800..0xE000).contains(&unit) {
                            out.push_str(&text[copied..i]);
                            out.push_str("\\ufffd");
                            copied = i + 6;
                            changed = true;
                        }
                        i += 6;
                        continue;
                    }
                }
                // Any other escape: skip the escaped character.
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(text.get(copied..).unwrap_or(""));
    changed.then_some(out)
}

/// The hook's output as Gemini CLI reads it, `None` when it gave none.
pub(super) fn output(exec: &HookExecution) -> Option<Map<String, Value>> {
    if exec.timed_out {
        return None;
    }
    let text = match js_trim(&exec.stdout) {
        "" => js_trim(&exec.stderr),
        text => text,
    };
    if text.is_empty() {
        return None;
    }
    match parse(text) {
        Parsed::Fields(map) => Some(map),
        Parsed::Nothing => None,
        // Not JSON (or a string that is not JSON inside): plain text, read
        // by the exit code (a signal counts as 0).
        Parsed::Text => Some(plain_text(text, exec.exit_code.unwrap_or(0))),
    }
}

/// What a hook's output text is to Gemini CLI's runner (and Qwen Code's,
/// which kept it).
pub(crate) enum Parsed {
    /// A JSON object (an array: no fields).
    Fields(Map<String, Value>),
    /// JSON that is neither an object nor an array: no output.
    Nothing,
    /// Not JSON: plain text.
    Text,
}

/// `JSON.parse(text)`, and a JSON string parsed a second time.
pub(crate) fn parse(text: &str) -> Parsed {
    let parsed = match json_parse(text) {
        Some(Value::String(inner)) => json_parse(&inner),
        other => other,
    };
    match parsed {
        Some(Value::Object(map)) => Parsed::Fields(map),
        Some(Value::Array(_)) => Parsed::Fields(Map::new()),
        Some(_) => Parsed::Nothing,
        None => Parsed::Text,
    }
}

/// Plain text as Gemini CLI turns it into output.
fn plain_text(text: &str, code: i32) -> Map<String, Value> {
    let mut out = Map::new();
    match code {
        0 => {
            out.insert("decision".into(), Value::from("allow"));
            out.insert("systemMessage".into(), Value::from(text));
        }
        1 => {
            out.insert("decision".into(), Value::from("allow"));
            out.insert("systemMessage".into(), Value::from(format!("Warning: {text}")));
        }
        _ => {
            out.insert("decision".into(), Value::from("deny"));
            out.insert("reason".into(), Value::from(text));
        }
    }
    out
}

/// A field as the aggregator uses it in text: a non-empty string, or a
/// number or `true` in JavaScript's string form; `None` when falsy.
pub(crate) fn truthy_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) if n.as_f64() != Some(0.0) => Some(n.to_string()),
        Value::Bool(true) => Some("true".into()),
        _ => None,
    }
}

/// How the hook failed, for its report (Gemini CLI: `success` is exit 0),
/// and the same in words without the hook's name (`timed out after 5 ms`).
fn failure(exec: &HookExecution, who: &str) -> Option<(Failure, String)> {
    let (kind, what, timeout_or_lost) = if exec.timed_out {
        (HookFailure::Timeout, format!("timed out after {} ms", exec.timeout_ms), true)
    } else {
        match (exec.exit_code, exec.signal) {
            (Some(0), _) => return None,
            (Some(code), _) => (HookFailure::Exit, format!("exited with code {code}"), false),
            (None, Some(signal)) => (HookFailure::Signal, format!("was killed by signal {signal}"), false),
            (None, None) => (HookFailure::Exit, UNKNOWN_STATUS.to_owned(), true),
        }
    };
    Some((Failure { kind, text: format!("{who} {what}"), timeout_or_lost }, what))
}

/// `<` and `>` escaped, as Gemini CLI does with `additionalContext`.
pub(crate) fn escape_context(context: &str) -> String {
    context.replace('<', "&lt;").replace('>', "&gt;")
}

/// Read one hook's result for `event`.
pub(super) fn read(event: &RunEvent, exec: &HookExecution) -> HookReply {
    let mut reply = HookReply::default();
    let who = format!("{} hook `{}`", event_name(event), exec.label);
    if let Some((f, what)) = failure(exec, &who) {
        reply.failure = Some(f);
        reply.push(HookMessageLevel::Warning, format!("{who} failed: {what}"));
    }
    let Some(out) = output(exec) else {
        return reply;
    };
    if let Some(message) = truthy_text(out.get("systemMessage")) {
        reply.push(HookMessageLevel::Info, message);
    }
    let specific = out.get("hookSpecificOutput").and_then(Value::as_object);
    let decision = out.get("decision").and_then(Value::as_str);
    let blocks = matches!(decision, Some("block" | "deny"));
    let halts = out.get("continue") == Some(&Value::Bool(false));
    // Gemini CLI's aggregator keeps a `stopReason` only from a hook that
    // says `continue: false`.
    let stop_reason = truthy_text(out.get("stopReason")).filter(|_| halts);
    let reason = truthy_text(out.get("reason"));
    // The hook's own reason for a block: Gemini CLI's effective reason.
    let own = || stop_reason.clone().or_else(|| reason.clone()).unwrap_or_else(|| NO_REASON.to_owned());
    let context = |reply: &mut HookReply| {
        if let Some(Value::String(c)) = specific.and_then(|s| s.get("additionalContext")) {
            if !c.is_empty() {
                reply.context.push(escape_context(c));
            }
        }
    };
    let decides = |reply: &mut HookReply| {
        reply.reason = reason.clone();
        if halts {
            reply.halt = Some(stop_reason.clone());
        }
    };
    match event {
        RunEvent::Known(HookEvent::PreToolUse) => {
            decides(&mut reply);
            reply.decision = if halts || blocks {
                Some(Decision::Tool(PreToolHookDecision::Deny, Some(own())))
            } else if decision == Some("ask") {
                let shown = truthy_text(out.get("systemMessage")).or_else(|| reason.clone());
                Some(Decision::Tool(PreToolHookDecision::Ask, shown))
            } else {
                None
            };
            if let Some(input) = specific.and_then(|s| s.get("tool_input")) {
                reply.updated_input = Some(if input.is_object() { input.clone() } else { Value::Null });
            }
        }
        RunEvent::Known(HookEvent::UserPromptSubmit) => {
            decides(&mut reply);
            if halts || blocks {
                reply.decision = Some(Decision::Block(own()));
            }
            context(&mut reply);
        }
        RunEvent::Known(HookEvent::Stop) => {
            decides(&mut reply);
            if blocks {
                reply.decision = Some(Decision::Block(own()));
            }
            if specific.and_then(|s| s.get("clearContext")) == Some(&Value::Bool(true)) {
                reply.dialect_fields.insert("clearContext".into(), Value::Bool(true));
            }
        }
        RunEvent::Known(HookEvent::PostToolUse | HookEvent::PostToolUseFailure) => {
            decides(&mut reply);
            if halts || blocks {
                reply.decision = Some(Decision::Block(own()));
            }
            context(&mut reply);
            // Kept as given: a later hook's value replaces it, and only an
            // object is a request (`Gemini::finish_fields`).
            if let Some(tail) = specific.and_then(|s| s.get("tailToolCallRequest")) {
                reply.dialect_fields.insert("tailToolCallRequest".into(), tail.clone());
            }
        }
        RunEvent::Known(HookEvent::SessionStart) => context(&mut reply),
        RunEvent::Named(name) if matches!(&**name, "BeforeModel" | "AfterModel") => {
            // Field replacement: the keys a hook gives replace the earlier
            // hooks' (`decision` included: a later allow undoes a block).
            match out.get("continue") {
                Some(Value::Bool(false)) => reply.halt = Some(stop_reason.clone().or_else(|| reason.clone())),
                Some(Value::Bool(true)) => reply.resumes = true,
                _ => {}
            }
            // The canonical decision: a block stops the call; any other
            // value decides nothing, and replaces an earlier hook's block.
            if out.contains_key("decision") {
                reply.decision = Some(if blocks {
                    Decision::Tool(PreToolHookDecision::Deny, Some(own()))
                } else {
                    Decision::Tool(PreToolHookDecision::Continue, None)
                });
            }
            // As strings (a `decision` that is not one blocks nothing; a
            // `reason` is used as text), `null` when the hook gave another value.
            if let Some(v) = out.get("decision") {
                reply.dialect_fields.insert("gemini_decision".into(), Value::from(v.as_str()));
            }
            if out.contains_key("reason") {
                reply.dialect_fields.insert("reason".into(), Value::from(reason.clone()));
            }
            for key in ["llm_request", "llm_response"] {
                if let Some(v) = specific.and_then(|s| s.get(key)) {
                    reply.dialect_fields.insert(key.into(), v.clone());
                }
            }
        }
        RunEvent::Named(name) if &**name == "BeforeToolSelection" => {
            // Every output counts for the tool-selection strategy, one
            // without a `toolConfig` as `AUTO` without functions.
            let config = specific.and_then(|s| s.get("toolConfig")).cloned().unwrap_or(Value::Null);
            reply.dialect_fields.insert("toolConfig".into(), config);
        }
        // SessionEnd, PreCompress, Notification (and events Gemini CLI
        // does not have): `systemMessage` only.
        _ => {}
    }
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exec(code: i32, stdout: &str, stderr: &str) -> HookExecution {
        HookExecution {
            label: "h".into(),
            exit_code: Some(code),
            stdout: stdout.into(),
            stderr: stderr.into(),
            ..Default::default()
        }
    }

    #[test]
    fn stderr_is_read_when_stdout_is_empty_and_double_encoded_json_is_json() {
        let out = output(&exec(0, "  ", r#"{"decision":"deny"}"#)).unwrap();
        assert_eq!(out["decision"], "deny");
        let out = output(&exec(0, r#""{\"decision\":\"ask\"}""#, "")).unwrap();
        assert_eq!(out["decision"], "ask");
        // A JSON string that is not JSON inside is plain text, as written.
        let out = output(&exec(2, r#""nope""#, "")).unwrap();
        assert_eq!(out["reason"], "\"nope\"");
        assert!(output(&exec(2, "42", "")).is_none(), "a JSON number is no output");
        assert!(output(&exec(0, "[1]", "")).unwrap().is_empty(), "an array has no fields");
    }

    #[test]
    fn lone_surrogate_escapes_are_replaced_only_inside_strings() {
        assert_eq!(replace_lone_surrogates(r#"{"a":"\ud800"}"#).as_deref(), Some(r#"{"a":"\ufffd"}"#));
        assert_eq!(replace_lone_surrogates(r#"{"a":"\ud83d\ude00"}"#), None, "a pair is valid");
        assert_eq!(replace_lone_surrogates(r#"{"a":"\\ud800"}"#), None, "an escaped backslash");
        assert_eq!(
            replace_lone_surrogates(r#"{"a":"\ud83d\ud83d\ude00"}"#).as_deref(),
            Some(r#"{"a":"\ufffd\ud83d\ude00"}"#)
        );
        assert_eq!(json_parse(r#""\udfff""#), Some(Value::from("\u{fffd}")));
        assert_eq!(json_parse("{\"a\":\"\\ud800"), None, "still invalid JSON");
    }

    #[test]
    fn plain_text_is_read_by_the_exit_code() {
        assert_eq!(output(&exec(0, "hi", "")).unwrap()["systemMessage"], "hi");
        assert_eq!(output(&exec(1, "hi", "")).unwrap()["systemMessage"], "Warning: hi");
        assert_eq!(output(&exec(127, "", "bash: x: command not found")).unwrap()["decision"], "deny");
    }
}
