//! One Qwen Code hook's result → the canonical reply.
//!
//! Qwen Code's runner (Gemini CLI's, kept) turns what a command hook wrote
//! into one output object; its aggregator then reads Claude Code's fields
//! from it. This reader does the first step here, with the Gemini dialect's
//! parser, and hands the object to the hooks protocol's readers for the
//! second (an http response or a prompt hook's verdict reads as in Claude
//! Code).
//!
//! | hook result | output object |
//! |---|---|
//! | exit 0 or any code but 2 (or killed by a signal) | stdout, or stderr when stdout is blank, parsed as JSON; a JSON string is parsed a second time; an object is the output on every such code |
//! | plain text on exit 0 | `{"decision": "allow", "systemMessage": text}` (an info message) |
//! | plain text on another code | `{"decision": "allow", "systemMessage": "Warning: " + text}`; the hook failed (non-blocking) |
//! | exit 2 | stdout ignored; stderr as JSON, else `{"decision": "deny", "reason": stderr}`; the hook **blocks**: the event's deny is enforced whatever the JSON said (PreToolUse `permissionDecision: "deny"`, PermissionRequest `decision.behavior: "deny"`, Stop, SubagentStop and PostToolBatch `continue: false` + `stopReason`, UserPromptSubmit and the Todo events a block); events without a decision ignore the block |
//! | timeout | a failure (no decision; `failClosed` blocks) |
//! | MessageDisplay, StopFailure, SessionDelete | output and exit code ignored |
//!
//! Then, in the output object: top-level `decision` `block`/`deny` blocks
//! the event (PreToolUse: deny) with `reason` (else "No reason provided");
//! `ask` asks on PreToolUse; `allow` decides nothing (plain text would
//! otherwise approve every tool); `hookSpecificOutput.permissionDecision`
//! and the other Claude Code fields read as in Claude Code.
//! `additionalContext` has `<` and `>` escaped, and UserPromptSubmit's is
//! wrapped in `<qwen:user-prompt-submit-context>` … `</qwen:…>` (no prompt
//! replacement).

use serde_json::{Map, Value};

use crate::dialect::gemini::reply::{escape_context, parse, Parsed};
use crate::dialect::matcher::js_trim;
use crate::dialect::protocol;
use crate::dialect::ReadCtx;
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::{Answer, HookExecution};
use crate::model::outcome::{HookFailure, HookMessageLevel};
use crate::model::reply::{Failure, HookReply};

/// Qwen Code's reason when a hook blocks without giving one.
const NO_REASON: &str = "No reason provided";

/// The tags UserPromptSubmit's context is wrapped in.
const OPEN_TAG: &str = "<qwen:user-prompt-submit-context>";
const CLOSE_TAG: &str = "</qwen:user-prompt-submit-context>";

/// Events that run detached: output and exit codes are ignored.
const FIRE_AND_FORGET: &[&str] = &["MessageDisplay", "StopFailure", "SessionDelete"];

/// Whether exit 2 blocks `event` (its decision is enforced).
pub(super) fn blocks_on_exit_2(event: &RunEvent) -> bool {
    match event {
        RunEvent::Known(e) => matches!(
            e,
            HookEvent::PreToolUse
                | HookEvent::PermissionRequest
                | HookEvent::Stop
                | HookEvent::SubagentStop
                | HookEvent::UserPromptSubmit
        ),
        RunEvent::Named(name) => {
            matches!(&**name, "PostToolBatch" | "TodoCreated" | "TodoCompleted" | "UserPromptExpansion")
        }
    }
}

/// Read one hook's result.
pub(super) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    if FIRE_AND_FORGET.contains(&cx.event.name()) {
        return HookReply::default();
    }
    let lost = exec.exit_code.is_none() && exec.signal.is_none();
    if !matches!(exec.answer, Answer::Exited) || exec.timed_out || lost {
        return finish(cx, protocol::read(cx, exec));
    }
    let blocking = exec.exit_code == Some(2);
    let text = if blocking {
        js_trim(&exec.stderr)
    } else {
        match js_trim(&exec.stdout) {
            "" => js_trim(&exec.stderr),
            text => text,
        }
    };
    let success = exec.exit_code == Some(0);
    let (mut output, plain) = match (text.is_empty(), parse(text)) {
        (true, _) | (false, Parsed::Nothing) => (Map::new(), false),
        (false, Parsed::Fields(map)) => (map, false),
        (false, Parsed::Text) => (plain_text(text, blocking, success), true),
    };
    normalize(cx, &mut output, blocking);
    // The reason the hook stated, whatever it decided (the OR merge joins
    // every hook's).
    let stated = text_of(&output, "reason").or_else(|| text_of(&output, "stopReason")).or_else(|| {
        output.get("hookSpecificOutput").and_then(Value::as_object).and_then(|s| text_of(s, "permissionDecisionReason"))
    });
    let answered = HookExecution {
        exit_code: Some(0),
        signal: None,
        stdout: Value::Object(output).to_string(),
        stderr: String::new(),
        ..exec.clone()
    };
    let mut reply = protocol::read(cx, &answered);
    if reply.reason.is_none() {
        reply.reason = stated;
    }
    if !success && !blocking && (plain || text.is_empty()) {
        let who = format!("{} hook `{}`", cx.event.name(), exec.label);
        let (kind, what) = match exec.exit_code {
            Some(code) => (HookFailure::Exit, format!("{who} exited with code {code}")),
            None => (HookFailure::Signal, format!("{who} was killed by signal {}", exec.signal.unwrap_or(0))),
        };
        if text.is_empty() {
            reply.push(HookMessageLevel::Warning, format!("{what} (non-blocking)"));
        }
        reply.failure = Some(Failure { kind, text: what, timeout_or_lost: false });
    }
    finish(cx, reply)
}

/// Plain text as Qwen Code's runner makes it an output.
fn plain_text(text: &str, blocking: bool, success: bool) -> Map<String, Value> {
    let mut out = Map::new();
    if blocking {
        out.insert("decision".into(), Value::from("deny"));
        out.insert("reason".into(), Value::from(text));
    } else {
        out.insert("decision".into(), Value::from("allow"));
        let message = if success { text.to_owned() } else { format!("Warning: {text}") };
        out.insert("systemMessage".into(), Value::from(message));
    }
    out
}

/// A field as a non-empty string.
fn text_of(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key).and_then(Value::as_str).filter(|s| !s.trim().is_empty()).map(str::to_owned)
}

/// The output object in the shape the hooks protocol's readers read:
/// Qwen Code's decision words as Claude Code's, and exit 2's block
/// enforced in the event's own fields.
fn normalize(cx: &ReadCtx<'_>, out: &mut Map<String, Value>, blocking: bool) {
    let event = cx.event.name().to_owned();
    let decision = out.get("decision").and_then(Value::as_str).map(str::to_ascii_lowercase);
    let specific = |out: &mut Map<String, Value>| -> Map<String, Value> {
        match out.remove("hookSpecificOutput") {
            Some(Value::Object(map)) => map,
            _ => Map::new(),
        }
    };
    // The hook's own reason: `stopReason` (with `continue: false`), else
    // `reason`, else Qwen Code's placeholder.
    let halts = out.get("continue") == Some(&Value::Bool(false));
    let reason = halts
        .then(|| text_of(out, "stopReason"))
        .flatten()
        .or_else(|| text_of(out, "reason"))
        .unwrap_or_else(|| NO_REASON.to_owned());
    match decision.as_deref() {
        Some("block" | "deny") => {
            out.insert("decision".into(), Value::from("block"));
            out.insert("reason".into(), Value::from(reason.clone()));
        }
        Some("ask") if cx.family == EventFamily::Tool => {
            out.remove("decision");
            let mut spec = specific(out);
            if !spec.contains_key("permissionDecision") {
                spec.insert("permissionDecision".into(), Value::from("ask"));
                if let Some(r) = text_of(out, "reason") {
                    spec.insert("permissionDecisionReason".into(), Value::from(r));
                }
            }
            spec.insert("hookEventName".into(), Value::from(event.clone()));
            out.insert("hookSpecificOutput".into(), Value::Object(spec));
        }
        Some(_) => {
            out.remove("decision");
        }
        None => {}
    }
    if !blocking || !blocks_on_exit_2(cx.event) {
        return;
    }
    match cx.family {
        EventFamily::Tool => {
            let mut spec = specific(out);
            let why = text_of(&spec, "permissionDecisionReason").unwrap_or_else(|| reason.clone());
            spec.insert("hookEventName".into(), Value::from(event));
            spec.insert("permissionDecision".into(), Value::from("deny"));
            spec.insert("permissionDecisionReason".into(), Value::from(why));
            out.insert("hookSpecificOutput".into(), Value::Object(spec));
        }
        EventFamily::Permission => {
            let mut spec = specific(out);
            let mut inner = match spec.remove("decision") {
                Some(Value::Object(map)) => map,
                _ => Map::new(),
            };
            let message = text_of(&inner, "message").unwrap_or_else(|| reason.clone());
            inner.insert("behavior".into(), Value::from("deny"));
            inner.insert("message".into(), Value::from(message));
            spec.insert("hookEventName".into(), Value::from(event));
            spec.insert("decision".into(), Value::Object(inner));
            out.insert("hookSpecificOutput".into(), Value::Object(spec));
        }
        // Stop, SubagentStop, PostToolBatch: the agent stops.
        EventFamily::Stop | EventFamily::PostTool if !event.starts_with("Todo") => {
            out.insert("continue".into(), Value::Bool(false));
            out.insert("stopReason".into(), Value::from(reason));
            out.remove("decision");
        }
        _ => {
            out.insert("decision".into(), Value::from("block"));
            out.insert("reason".into(), Value::from(reason));
        }
    }
}

/// Context as Qwen Code hands it on: `<` and `>` escaped, and
/// UserPromptSubmit's wrapped in its reserved tag.
fn finish(cx: &ReadCtx<'_>, mut reply: HookReply) -> HookReply {
    let wrap = matches!(cx.event, RunEvent::Known(HookEvent::UserPromptSubmit));
    for context in &mut reply.context {
        let escaped = escape_context(context);
        *context = if wrap { format!("{OPEN_TAG}\n{escaped}\n{CLOSE_TAG}") } else { escaped };
    }
    reply
}
