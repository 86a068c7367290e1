//! One goose hook's result → the canonical reply.
//!
//! On the events goose emits blocking (PreToolUse, Stop), its decision
//! table (`classify_output`), "explicit denial ahead of execution failure":
//!
//! | hook result | effect |
//! |---|---|
//! | exit 2 | **deny** (PreToolUse) or **block** the stop; the reason is stderr, trimmed, else `denied by plugin hook`; stdout is not read |
//! | stdout `{"decision": "block", "reason"?}`, whatever the exit status | the same, the reason `reason` (else `denied by plugin hook`) |
//! | exit 0 with nothing on stdout (whitespace only), or with `{"decision": "allow"}` | no objection: no decision (never a canonical allow, which would override the other hooks or the host's own checks) |
//! | anything else: other stdout on exit 0 (a log line, truncated JSON, `{}`, an unknown decision), another exit code, a signal, a timeout, stdout that is not UTF-8 | **no decision**: a failure, reported with goose's fixed reason; the call goes on, unless the action sets `on_failure: "block"` on PreToolUse (then it is denied with that reason) |
//!
//! stdout is read strictly: a JSON object only when the trimmed text starts
//! with `{` and parses with `decision` and `reason` strings (or absent); a
//! U+FFFD in stdout (what invalid UTF-8 decodes to) is "the hook wrote
//! invalid UTF-8 to stdout".
//!
//! On every other event goose only checks the exit status (`emit`): exit
//! 0 is a success, anything else a failure that is logged and ignored.
//! SessionStart's stdout may carry `{"banner": "<text>"}` (goose shows the
//! banners before the first prompt): the outcome's
//! `dialect_fields.goose.banners`. No event's output is context.

use serde_json::{json, Map, Value};

use super::event_name;
use crate::dialect::ReadCtx;
use crate::hl_debug;
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::{Answer, HookExecution};
use crate::model::outcome::{HookFailure, HookMessageLevel, PreToolHookDecision};
use crate::model::reply::{Decision, Failure, HookReply};
use crate::model::rules::{Column, Exit2};

/// goose's reason for a denial that gives none.
pub(crate) const DEFAULT_DENY: &str = "denied by plugin hook";

/// goose's reason when the hook could not be run or timed out ("The
/// internal error embeds the configured command ... That detail belongs in
/// our logs, never in a reason handed to the model").
pub(crate) const COMMAND_FAILED: &str = "the hook command failed to run";

/// The reader columns this reader honours.
pub(crate) fn honours(family: EventFamily) -> &'static [Column] {
    match family {
        EventFamily::Tool | EventFamily::Stop => &[Column::Exit2Block],
        _ => &[],
    }
}

/// What goose's `classify_output` made of a hook's output.
enum Verdict {
    /// No objection.
    Allow,
    /// A denial, with its reason.
    Deny(String),
    /// No decision: goose's reason, and the failure's kind.
    Failure(&'static str, String, HookFailure),
}

/// Read one hook's result (see the module documentation).
pub(crate) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    let mut reply = HookReply::default();
    let who = format!("{} hook `{}`", event_name(cx.event), exec.label);
    let blocking = matches!(cx.rules.exit2, Exit2::Block { .. });
    let verdict = match &exec.answer {
        Answer::Exited if exec.timed_out => {
            let after = match exec.timeout_seconds {
                0 => "at once (timeout 0)".to_owned(),
                s => format!("after {s} s"),
            };
            Verdict::Failure("timed out", after, HookFailure::Timeout)
        }
        Answer::Exited if blocking => classify(exec),
        Answer::Exited => match exec.exit_code {
            Some(0) => Verdict::Allow,
            Some(code) => Verdict::Failure("exited", format!("with status {code}"), HookFailure::Exit),
            None => Verdict::Failure("was terminated", "by a signal".to_owned(), HookFailure::Signal),
        },
        Answer::Failed { kind, message } => Verdict::Failure("failed", message.trim().to_owned(), *kind),
        Answer::Http { status, .. } => {
            Verdict::Failure("answered", format!("HTTP {status}, which goose hooks cannot"), HookFailure::Http)
        }
        Answer::Verdict { .. } => Verdict::Failure(
            "answered",
            "a model's verdict, which goose hooks cannot".to_owned(),
            HookFailure::InvalidOutput,
        ),
    };
    match verdict {
        Verdict::Allow => {
            if cx.event.known() == Some(HookEvent::SessionStart) {
                if let Some(banner) = banner(&exec.stdout) {
                    reply.dialect_fields.insert("banners".into(), json!([banner]));
                }
            } else if !exec.stdout.trim().is_empty() && !blocking {
                hl_debug!("{who} wrote to stdout, which goose does not read on {}", event_name(cx.event));
            }
        }
        Verdict::Deny(reason) => {
            reply.decision = Some(match cx.family {
                EventFamily::Tool => Decision::Tool(PreToolHookDecision::Deny, Some(reason)),
                _ => Decision::Block(reason),
            });
        }
        Verdict::Failure(what, detail, kind) => {
            // goose's own reasons, fixed texts that never name the command.
            let reason = match kind {
                HookFailure::Timeout | HookFailure::Spawn => COMMAND_FAILED.to_owned(),
                _ if blocking => goose_reason(exec),
                _ => COMMAND_FAILED.to_owned(),
            };
            let stderr = exec.stderr.trim();
            let mut text = format!("{who} {what} {detail}");
            if blocking {
                text.push_str(" and gave no decision; goose ignores it");
                if cx.fail_closed {
                    text = format!("{who} {what} {detail} and gave no decision (on_failure: block)");
                }
            }
            if !stderr.is_empty() {
                text.push_str(&format!(": {stderr}"));
            }
            reply.push(HookMessageLevel::Warning, text);
            reply.failure = Some(Failure { kind, text: reason, timeout_or_lost: kind == HookFailure::Timeout });
        }
    }
    reply
}

/// Drop from `reply` (a callback hook's, read as Claude Code's, in a run
/// goose's rules merge) what goose cannot express on `event` (of `family`
/// in the goose table): its hooks only deny a tool call or block a stop,
/// so an allow (which would override the other hooks), an ask, a defer, a
/// rewrite, context, a halt or an env are dropped, each named in a warning;
/// the dropped names for the outcome's `dialect_fields.goose.dropped`.
pub(crate) fn restrict(event: &RunEvent, family: EventFamily, reply: &mut HookReply) -> Map<String, Value> {
    let can_block = super::PROFILE.rules_of(event).can_block();
    let mut dropped: Vec<&'static str> = Vec::new();
    let keep = match &reply.decision {
        None | Some(Decision::Tool(PreToolHookDecision::Continue, _)) => true,
        Some(Decision::Tool(PreToolHookDecision::Deny, _)) => can_block && family == EventFamily::Tool,
        Some(Decision::Block(_)) => can_block && family == EventFamily::Stop,
        Some(_) => false,
    };
    if !keep {
        if let Some(d) = reply.decision.take() {
            dropped.push(d.name());
        }
    }
    if reply.updated_input.take().is_some() {
        dropped.push("updated_input");
    }
    if !reply.context.is_empty() {
        reply.context.clear();
        dropped.push("additional_context");
    }
    if reply.halt.take().is_some() {
        dropped.push("continue");
    }
    if !reply.env.is_empty() {
        reply.env.clear();
        dropped.push("env");
    }
    let mut fields = Map::new();
    if dropped.is_empty() {
        return fields;
    }
    let names: Vec<String> = dropped.iter().map(|d| format!("`{d}`")).collect();
    reply.push(
        HookMessageLevel::Warning,
        format!("{}: goose hooks cannot express {}; dropped", event_name(event), names.join(", ")),
    );
    fields.insert("dropped".into(), json!(dropped));
    fields
}

/// goose's reason for a hook that gave no decision on a blocking event.
fn goose_reason(exec: &HookExecution) -> String {
    if exec.stdout.contains('\u{FFFD}') && exec.exit_code != Some(2) {
        return "the hook wrote invalid UTF-8 to stdout".to_owned();
    }
    match exec.exit_code {
        Some(0) => "the hook exited 0 without an allow or block decision on stdout".to_owned(),
        Some(code) => format!("the hook exited with status {code} and no usable decision"),
        None => "the hook was terminated by a signal".to_owned(),
    }
}

/// A reply's `decision` and `reason` when stdout is goose's JSON object:
/// the trimmed text starts with `{`, parses, and both fields are strings
/// or absent (`Option<String>` in goose's serde shape).
fn decision_json(trimmed: &str) -> Option<(Option<String>, Option<String>)> {
    if !trimmed.starts_with('{') {
        return None;
    }
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(trimmed) else { return None };
    let field = |obj: &Map<String, Value>, key: &str| -> Option<Option<String>> {
        match obj.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(Value::String(s)) => Some(Some(s.clone())),
            Some(_) => None,
        }
    };
    Some((field(&obj, "decision")?, field(&obj, "reason")?))
}

/// goose's `classify_output` (see the module documentation).
fn classify(exec: &HookExecution) -> Verdict {
    let non_empty = |s: String| if s.is_empty() { DEFAULT_DENY.to_owned() } else { s };
    if exec.exit_code == Some(2) {
        return Verdict::Deny(non_empty(exec.stderr.trim().to_owned()));
    }
    let no_decision = |exec: &HookExecution| match exec.exit_code {
        Some(0) => Verdict::Failure("exited 0", "without a decision on stdout".to_owned(), HookFailure::InvalidOutput),
        Some(code) => Verdict::Failure("exited", format!("with status {code}"), HookFailure::Exit),
        None => Verdict::Failure("was terminated", "by a signal".to_owned(), HookFailure::Signal),
    };
    // Strict, not lossy: what invalid bytes decode to is no decision.
    if exec.stdout.contains('\u{FFFD}') {
        return Verdict::Failure("wrote", "invalid UTF-8 to stdout".to_owned(), HookFailure::InvalidOutput);
    }
    let trimmed = exec.stdout.trim();
    let (decision, reason) = decision_json(trimmed).unwrap_or((None, None));
    if decision.as_deref() == Some("block") {
        return Verdict::Deny(non_empty(reason.unwrap_or_default()));
    }
    if exec.exit_code == Some(0) && (trimmed.is_empty() || decision.as_deref() == Some("allow")) {
        return Verdict::Allow;
    }
    no_decision(exec)
}

/// SessionStart's banner: goose's `extract_banner` (stdout trimmed, a JSON
/// object whose `banner` is a non-empty string).
fn banner(stdout: &str) -> Option<String> {
    let trimmed = stdout.trim();
    if !trimmed.starts_with('{') {
        return None;
    }
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(trimmed) else { return None };
    match obj.get("banner") {
        Some(Value::String(b)) if !b.is_empty() => Some(b.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exec(code: Option<i32>, stdout: &str, stderr: &str) -> HookExecution {
        HookExecution {
            label: "h".into(),
            exit_code: code,
            signal: if code.is_none() { Some(9) } else { None },
            stdout: stdout.into(),
            stderr: stderr.into(),
            ..HookExecution::default()
        }
    }

    fn verdict(code: Option<i32>, stdout: &str, stderr: &str) -> String {
        match classify(&exec(code, stdout, stderr)) {
            Verdict::Allow => "allow".into(),
            Verdict::Deny(r) => format!("deny:{r}"),
            Verdict::Failure(..) => "failure".into(),
        }
    }

    /// goose's `classify_output_pins_every_boundary`, case by case.
    #[test]
    fn the_decision_table_pins_every_boundary() {
        // "Rule 1: exit 2 always denies, with stderr or the default reason,
        // and it outranks whatever stdout says."
        assert_eq!(verdict(Some(2), "", "  path is protected  "), "deny:path is protected");
        assert_eq!(verdict(Some(2), "", ""), "deny:denied by plugin hook");
        assert_eq!(verdict(Some(2), r#"{"decision":"allow"}"#, ""), "deny:denied by plugin hook");
        assert_eq!(verdict(Some(2), "\u{FFFD}", "path is protected"), "deny:path is protected");
        // "Rule 2: a block decision denies whatever the exit status."
        for code in [0, 1, 3, 127] {
            assert_eq!(verdict(Some(code), r#"{"decision":"block","reason":"nope"}"#, ""), "deny:nope");
        }
        assert_eq!(verdict(Some(0), r#"{"decision":"block"}"#, ""), "deny:denied by plugin hook");
        // "Rules 3 and 4: the only two shapes that allow."
        for stdout in ["", "   \n\t  ", r#"{"decision":"allow"}"#] {
            assert_eq!(verdict(Some(0), stdout, ""), "allow", "{stdout:?}");
        }
        // "Rule 5: everything else produced no decision at all."
        for (code, stdout) in [
            (Some(1), r#"{"decision":"allow"}"#),
            (Some(0), "{}"),
            (Some(0), r#"{"decision":"maybe"}"#),
            (Some(0), r#"[{"decision":"allow"}]"#),
            (Some(0), "null"),
            (Some(0), r#"{"decision" "allow"}"#),
            (Some(0), r#"{"decision":"allo"#),
            (Some(0), "checking policy"),
            (Some(0), "{\"decision\":\"allow\",\"reason\":\"\u{FFFD}\"}"),
            (Some(0), "\u{FFFD}\u{FFFD}"),
            (Some(1), ""),
            (Some(127), ""),
            (None, ""),
        ] {
            assert_eq!(verdict(code, stdout, ""), "failure", "{code:?} {stdout:?}");
        }
    }

    #[test]
    fn goose_reasons_are_its_fixed_texts() {
        assert_eq!(goose_reason(&exec(Some(3), "", "")), "the hook exited with status 3 and no usable decision");
        assert_eq!(
            goose_reason(&exec(Some(0), "x", "")),
            "the hook exited 0 without an allow or block decision on stdout"
        );
        assert_eq!(goose_reason(&exec(None, "", "")), "the hook was terminated by a signal");
        assert_eq!(goose_reason(&exec(Some(0), "\u{FFFD}", "")), "the hook wrote invalid UTF-8 to stdout");
    }

    /// goose's "allow" is no objection: a callback's allow (or ask,
    /// rewrite, context) in a goose run is dropped and said; a deny stays.
    #[test]
    fn what_goose_cannot_express_is_dropped() {
        let pre = RunEvent::Known(HookEvent::PreToolUse);
        let mut reply = HookReply {
            decision: Some(Decision::Tool(PreToolHookDecision::Allow, None)),
            updated_input: Some(json!({"command": "ls"})),
            context: vec!["c".into()],
            ..HookReply::default()
        };
        let fields = restrict(&pre, EventFamily::Tool, &mut reply);
        assert_eq!(fields["dropped"], json!(["allow", "updated_input", "additional_context"]));
        assert!(reply.decision.is_none() && reply.updated_input.is_none() && reply.context.is_empty());
        let mut deny = HookReply {
            decision: Some(Decision::Tool(PreToolHookDecision::Deny, Some("no".into()))),
            ..HookReply::default()
        };
        assert!(restrict(&pre, EventFamily::Tool, &mut deny).is_empty());
        let stop = RunEvent::Known(HookEvent::Stop);
        let mut block = HookReply { decision: Some(Decision::Block("again".into())), ..HookReply::default() };
        assert!(restrict(&stop, EventFamily::Stop, &mut block).is_empty());
        let prompt = RunEvent::Known(HookEvent::UserPromptSubmit);
        let mut block = HookReply { decision: Some(Decision::Block("no".into())), ..HookReply::default() };
        assert_eq!(restrict(&prompt, EventFamily::Prompt, &mut block)["dropped"], json!(["block"]));
    }

    /// goose's `extract_banner` tests: JSON with a non-empty `banner` only.
    #[test]
    fn banners() {
        assert_eq!(banner(r#"{"banner":"  🌱 hello"}"#).as_deref(), Some("  🌱 hello"));
        assert_eq!(banner("just some text"), None);
        assert_eq!(banner(r#"{"decision":"allow"}"#), None);
        assert_eq!(banner(r#"{"banner":""}"#), None);
    }
}
