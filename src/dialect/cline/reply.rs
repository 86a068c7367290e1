//! One Cline hook's result → the canonical reply.
//!
//! Cline reads `{cancel?: bool, contextModification?: string, errorMessage?:
//! string}` from stdout (hook-factory.ts):
//!
//! | hook result | effect |
//! |---|---|
//! | stdout, whole, is JSON | the answer, whatever the exit code ("If we have valid JSON, honor it regardless of exit code"); a non-zero exit with it is a warning |
//! | else the last balanced `{…}` of stdout is JSON (debug lines before it) | the answer, likewise ("Scan from the end to find the last complete JSON object") |
//! | the answer has `shouldContinue` | an error naming Cline's migration (`cancel: true`); nothing decided ("The 'shouldContinue' field has been removed") |
//! | the answer's `cancel`, `contextModification` or `errorMessage` has the wrong type | an error naming the field; nothing decided |
//! | no JSON, exit 0 | no effect ("Hook succeeded but didn't provide JSON - allow execution") |
//! | no JSON, another exit code, a signal | a failure (`exit`, `signal`) that does not block ("Hook script errors (non-zero exit) don't block tools, only explicit JSON response does") |
//! | timeout (30 s) | a failure (`timeout`) |
//!
//! An answer's fields:
//!
//! - `cancel: true`: PreToolUse **deny**, UserPromptSubmit and PostToolUse
//!   **block**, and on every event `continue: false` (Cline cancels the
//!   task), the reason `errorMessage`, else `contextModification` (a
//!   cancelling hook's `contextModification` is its reason, never context:
//!   hooks-adapter.ts `mapStopControl`).
//! - `contextModification` (without `cancel`): context for the model,
//!   truncated at 50,000 characters with Cline's marker (`[... context
//!   truncated due to size limit ...]`).
//! - `errorMessage` (without `cancel`): a warning message.

use serde_json::{Map, Value};

use super::event_name;
use crate::dialect::ReadCtx;
use crate::hl_debug;
use crate::model::event::EventFamily;
use crate::model::execution::HookExecution;
use crate::model::outcome::{HookFailure, HookMessageLevel, PreToolHookDecision};
use crate::model::reply::{Decision, Failure, HookReply};
use crate::model::rules::Column;

/// The reader columns this reader honours: none (Cline's rules are the
/// same on every event).
pub(crate) const HONOURS: &[Column] = &[];

/// "Maximum size for context modification (to prevent prompt overflow)"
/// (`MAX_CONTEXT_MODIFICATION_SIZE = 50000`), in JavaScript string units
/// (UTF-16).
pub(super) const MAX_CONTEXT: usize = 50_000;

/// What Cline appends to a truncated `contextModification`.
pub(super) const TRUNCATED: &str = "\n\n[... context truncated due to size limit ...]";

/// Cline's error for the removed `shouldContinue` field.
pub(super) const SHOULD_CONTINUE: &str =
    "Invalid hook output: The 'shouldContinue' field has been removed. Use 'cancel: \
                                   true' instead to trigger task cancellation (before: { shouldContinue: false, \
                                   errorMessage: '...' }; after: { cancel: true, errorMessage: '...' })";

/// A hook's answer, validated.
#[derive(Debug, Default, PartialEq)]
struct Answer {
    cancel: bool,
    context: Option<String>,
    error_message: Option<String>,
}

/// Read one hook's result (see the module documentation).
pub(crate) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    let mut reply = HookReply::default();
    let who = format!("{} hook `{}`", event_name(cx.event), exec.label);
    let level = cx.rules.failure_level;
    if exec.timed_out {
        let text = format!("{who} timed out after {} s", exec.timeout_seconds);
        reply.push(HookMessageLevel::Error, text.clone());
        reply.failure = Some(Failure { kind: HookFailure::Timeout, text, timeout_or_lost: true });
        return reply;
    }
    let stderr = exec.stderr.trim();
    let Some(code) = exec.exit_code else {
        let text = match exec.signal {
            Some(signal) => format!("{who} was killed by signal {signal}"),
            None => format!("{who} {}", crate::dialect::protocol::UNKNOWN_STATUS),
        };
        reply.push(level, text.clone());
        let kind = if exec.signal.is_some() { HookFailure::Signal } else { HookFailure::Exit };
        reply.failure = Some(Failure { kind, text, timeout_or_lost: exec.signal.is_none() });
        return reply;
    };
    match parse(&exec.stdout) {
        Some(Ok(answer)) => {
            if code != 0 {
                let with = if stderr.is_empty() { String::new() } else { format!(" (stderr: {stderr})") };
                reply.push(
                    HookMessageLevel::Warning,
                    format!("{who} exited with code {code} but answered with JSON, which Cline honours{with}"),
                );
            }
            apply(cx, &who, &exec.label, answer, &mut reply);
        }
        Some(Err(why)) => {
            let text = format!("{who}: {why}");
            reply.push(HookMessageLevel::Error, text.clone());
            reply.failure = Some(Failure { kind: HookFailure::InvalidOutput, text, timeout_or_lost: false });
        }
        None if code == 0 => {
            if !exec.stdout.trim().is_empty() {
                hl_debug!("{who} completed successfully but no JSON response found");
            }
        }
        None => {
            let text = match stderr {
                "" => format!("{who} exited with code {code}"),
                s => format!("{who} exited with code {code}: {s}"),
            };
            reply.push(level, text.clone());
            reply.failure = Some(Failure { kind: HookFailure::Exit, text, timeout_or_lost: false });
        }
    }
    reply
}

/// The answer's effect on the reply.
fn apply(cx: &ReadCtx<'_>, who: &str, label: &str, answer: Answer, reply: &mut HookReply) {
    if answer.cancel {
        let reason = answer
            .error_message
            .or(answer.context)
            .unwrap_or_else(|| format!("Cline hook \"{label}\" cancelled the task (cancel: true)."));
        reply.decision = match cx.family {
            EventFamily::Tool => Some(Decision::Tool(PreToolHookDecision::Deny, Some(reason.clone()))),
            EventFamily::Prompt | EventFamily::PostTool => Some(Decision::Block(reason.clone())),
            _ => None,
        };
        reply.reason = Some(reason.clone());
        reply.halt = Some(Some(reason));
        return;
    }
    if let Some(context) = answer.context {
        reply.context.push(truncate(&context));
    }
    if let Some(message) = answer.error_message {
        reply.push(HookMessageLevel::Warning, format!("{who}: {message}"));
    }
}

/// `contextModification` cut at [`MAX_CONTEXT`] UTF-16 units (at a
/// character boundary), with Cline's marker.
pub(super) fn truncate(text: &str) -> String {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        units += c.len_utf16();
        if units > MAX_CONTEXT {
            return format!("{}{TRUNCATED}", &text[..i]);
        }
    }
    text.to_owned()
}

/// The answer in stdout: the whole of it, else the last balanced `{…}`
/// block (`None`: no JSON; `Some(Err)`: JSON Cline rejects, and why).
fn parse(stdout: &str) -> Option<Result<Answer, String>> {
    match serde_json::from_str::<Value>(stdout) {
        // `JSON.parse` of `null` succeeds, and validating it throws: Cline
        // then looks for a `{…}` block, as for text that is not JSON.
        Ok(Value::Null) | Err(_) => {}
        Ok(value) => return Some(validate(&value)),
    }
    let candidate = last_object(stdout)?;
    match serde_json::from_str::<Value>(&candidate) {
        Ok(Value::Null) | Err(_) => None,
        Ok(value) => Some(validate(&value)),
    }
}

/// Cline's scan for "the last complete JSON object": lines from the end,
/// braces counted from each line's end (`}` +1, `{` −1), lines collected
/// from the first `}` until the count is back to 0; the text from its first
/// `{`.
fn last_object(stdout: &str) -> Option<String> {
    let mut lines: Vec<&str> = Vec::new();
    let mut count: i64 = 0;
    let mut collecting = false;
    for line in stdout.split('\n').rev() {
        let line = line.trim_end();
        for c in line.chars().rev() {
            match c {
                '}' => {
                    count += 1;
                    collecting = true;
                }
                '{' => count -= 1,
                _ => {}
            }
        }
        if collecting {
            lines.push(line);
        }
        if collecting && count == 0 {
            break;
        }
    }
    lines.reverse();
    let candidate = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    let candidate = candidate.trim();
    if candidate.is_empty() {
        return None;
    }
    Some(candidate.find('{').map_or(candidate, |i| &candidate[i..]).to_owned())
}

/// `validateHookOutput`, then the fields (a JSON value that is not an
/// object has none: Cline reads it as an empty answer).
fn validate(value: &Value) -> Result<Answer, String> {
    let Value::Object(m) = value else { return Ok(Answer::default()) };
    if m.contains_key("shouldContinue") {
        return Err(SHOULD_CONTINUE.to_owned());
    }
    let cancel = match m.get("cancel") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("Invalid hook output: 'cancel' must be a boolean (got {})", kind(other))),
    };
    Ok(Answer { cancel, context: string(m, "contextModification")?, error_message: string(m, "errorMessage")? })
}

/// An optional string field, trimmed (`None` when absent or blank).
fn string(m: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match m.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim()).filter(|s| !s.is_empty()).map(str::to_owned)),
        Some(other) => Err(format!("Invalid hook output: '{key}' must be a string (got {})", kind(other))),
    }
}

/// JavaScript's `typeof` of a JSON value (`null` is `object`).
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null | Value::Array(_) | Value::Object(_) => "object",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_balanced_object_after_debug_lines_is_the_answer() {
        let out = "debug: starting\n{\n  \"cancel\": true,\n  \"errorMessage\": \"no\"\n}\n";
        assert_eq!(last_object(out).as_deref(), Some("{\n  \"cancel\": true,\n  \"errorMessage\": \"no\"\n}"));
        let two = "{\"cancel\": false}\nlog {x}\n{\"cancel\": true}";
        assert_eq!(last_object(two).as_deref(), Some("{\"cancel\": true}"));
        assert_eq!(last_object("no braces here"), None);
        assert_eq!(
            parse("log line\n{\"contextModification\": \"c\"}"),
            Some(Ok(Answer { context: Some("c".into()), ..Answer::default() }))
        );
    }

    #[test]
    fn should_continue_and_wrong_types_are_rejected() {
        assert_eq!(parse("{\"shouldContinue\": false}"), Some(Err(SHOULD_CONTINUE.to_owned())));
        assert!(parse("{\"cancel\": \"yes\"}").unwrap().unwrap_err().contains("'cancel' must be a boolean"));
        assert!(parse("{\"errorMessage\": 3}").unwrap().unwrap_err().contains("'errorMessage' must be a string"));
        assert_eq!(parse("5"), Some(Ok(Answer::default())));
        assert_eq!(parse("null"), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn context_is_cut_at_fifty_thousand_units() {
        let long = "x".repeat(60_000);
        let cut = truncate(&long);
        assert_eq!(cut.len(), MAX_CONTEXT + TRUNCATED.len());
        assert!(cut.ends_with(TRUNCATED));
        assert_eq!(truncate("short"), "short");
        // A character of two UTF-16 units is not split.
        let emoji = format!("{}😀", "x".repeat(MAX_CONTEXT - 1));
        assert_eq!(truncate(&emoji), format!("{}{TRUNCATED}", "x".repeat(MAX_CONTEXT - 1)));
    }
}
