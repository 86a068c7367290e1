//! One Kiro hook's result → the canonical reply.
//!
//! | hook result | effect |
//! |---|---|
//! | exit 0 | success; stdout (trimmed, plain text) is **context** on SessionStart and UserPromptSubmit, ignored elsewhere |
//! | exit 2 where the trigger can block (PreToolUse, UserPromptSubmit, PreTaskExec) | **deny** (PreToolUse, PreTaskExec) or **block** the prompt; the reason is stderr ("STDERR returned to the LLM"), else a text naming the hook |
//! | any other exit (exit 2 elsewhere included), a signal, a timeout | a warning naming the hook with its stderr ("Warning shown to user"); the action proceeds |
//!
//! An `agent` action's answer (the host's `agent` handler, as for a prompt
//! hook): `{"ok": true}` is a success, `{"ok": false, "reason": …}` reads
//! as exit 2 with the reason on stderr; no handler, or an answer of another
//! shape, is a warning.

use crate::dialect::ReadCtx;
use crate::hl_debug;
use crate::model::event::{EventFamily, HookEvent};
use crate::model::execution::{Answer, HookExecution};
use crate::model::outcome::{HookFailure, HookMessageLevel, PreToolHookDecision};
use crate::model::reply::{Decision, Failure, HookReply};
use crate::model::rules::{Column, Exit2};

/// The reader columns this reader honours.
pub(crate) fn honours(family: EventFamily) -> &'static [Column] {
    match family {
        EventFamily::Tool | EventFamily::Prompt => &[Column::Exit2Block],
        _ => &[],
    }
}

/// Read one hook's result (see the module documentation).
pub(crate) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    let mut reply = HookReply::default();
    let who = format!("{} hook `{}`", cx.event.name(), exec.label);
    let fail = |reply: &mut HookReply, kind: HookFailure, level: HookMessageLevel, how: String, stderr: &str| {
        let text = match stderr.trim() {
            "" => format!("{who} {how}"),
            s => format!("{who} {how}: {s}"),
        };
        reply.push(level, text.clone());
        reply.failure = Some(Failure { kind, text, timeout_or_lost: matches!(kind, HookFailure::Timeout) });
    };
    // What the result stands for as a command's: exit code and stderr.
    let (code, stdout, stderr) = match &exec.answer {
        Answer::Exited => (exec.exit_code, exec.stdout.as_str(), exec.stderr.clone()),
        Answer::Verdict { reply: answer, .. } => match answer.get("ok").and_then(serde_json::Value::as_bool) {
            Some(true) => (Some(0), "", String::new()),
            Some(false) => {
                let reason = answer.get("reason").and_then(serde_json::Value::as_str).unwrap_or("").trim().to_owned();
                (Some(2), "", reason)
            }
            None => {
                let how = format!("answered {answer} instead of {{\"ok\": true|false, \"reason\": …}}");
                fail(&mut reply, HookFailure::InvalidOutput, cx.rules.failure_level, how, "");
                return reply;
            }
        },
        Answer::Failed { kind, message } => {
            fail(&mut reply, *kind, cx.rules.failure_level, format!("failed: {}", message.trim()), "");
            return reply;
        }
        Answer::Http { status, .. } => {
            let how = format!("answered HTTP {status}, which Kiro hooks cannot");
            fail(&mut reply, HookFailure::Http, cx.rules.failure_level, how, "");
            return reply;
        }
    };
    if exec.timed_out {
        let after = match exec.timeout_seconds {
            0 => String::new(),
            s => format!(" after {s} s"),
        };
        fail(&mut reply, HookFailure::Timeout, HookMessageLevel::Warning, format!("timed out{after}"), &stderr);
        return reply;
    }
    match code {
        Some(0) => {
            let context = matches!(cx.event.known(), Some(HookEvent::SessionStart | HookEvent::UserPromptSubmit));
            let out = stdout.trim();
            if context && !out.is_empty() {
                reply.context.push(out.to_owned());
            } else if !out.is_empty() {
                hl_debug!("{who} wrote to stdout, which Kiro ignores on {}", cx.event.name());
            }
        }
        Some(2) if matches!(cx.rules.exit2, Exit2::Block { .. }) => {
            let reason = match stderr.trim() {
                "" => format!("{} hook `{}` blocked (exit code 2)", cx.event.name(), exec.label),
                s => s.to_owned(),
            };
            reply.decision = Some(match cx.family {
                EventFamily::Tool => Decision::Tool(PreToolHookDecision::Deny, Some(reason)),
                _ => Decision::Block(reason),
            });
        }
        Some(code) => {
            fail(&mut reply, HookFailure::Exit, cx.rules.failure_level, format!("exited with code {code}"), &stderr)
        }
        None => {
            let (kind, how) = match exec.signal {
                Some(signal) => (HookFailure::Signal, format!("was killed by signal {signal}")),
                None => (HookFailure::Exit, crate::dialect::protocol::UNKNOWN_STATUS.to_owned()),
            };
            fail(&mut reply, kind, cx.rules.failure_level, how, &stderr);
        }
    }
    reply
}
