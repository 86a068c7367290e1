//! PreToolUse: the exit-code table of one hook.
//!
//! The rows marked *profile* follow the event's row of the hook's rule
//! table; the VT Code profile's answer comes first, the Claude Code
//! profile's second.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout, exit status unknown (reaped by the host) | error message; a failure (VT Code's merge **denies**, fail closed, unless an earlier hook said `ask`; Claude Code's makes no decision unless the hook is `failClosed`) |
//! | exit 2 | *profile*. VT Code: with stderr **deny**, reason = stderr, stdout (JSON or text) ignored; without stderr an error message `... exited with code 2 without stderr feedback` and no decision. Claude Code: **deny** whatever stdout says; reason = the JSON's deny reason, else stderr, else `... exited with code 2`; stdout's other fields are still read |
//! | other non-zero exit, signal | message at the profile's failure level (with stderr); stdout still read |
//! | exit 0 with stderr | message at the profile's failure level |
//! | plain stdout | info message (none with `quiet_success_output` on exit 0) |
//! | JSON `continue: false` | **deny**; reason: a `deny` decision's own reason, else `stopReason`, else `reason` |
//! | `hookSpecificOutput.permissionDecision` | `allow` / `deny` / `ask`, reason = `permissionDecisionReason`; *profile* `defer` (Claude Code): also `defer`, whose reason, `updatedInput` and `additionalContext` are ignored |
//! | legacy top-level `decision` | `approve` → allow, `block` → deny, reason = top-level `reason` (used only without `permissionDecision`) |
//! | `hookSpecificOutput.updatedInput` | an object is the hook's rewrite of the tool input; `null` is no rewrite; anything else is ignored with a warning |
//! | `hookSpecificOutput.additionalContext` | string or array of strings, collected (*profile*: with `context_needs_exit_0`, only when the hook exited 0) |

use serde_json::{Map, Value};

use super::{push_context, text_field, Exit, HookRun, Out};
use crate::model::outcome::{HookMessageLevel, PreToolHookDecision};
use crate::model::reply::Decision;
use crate::model::rules::{Column, Exit2, Exit2Reason};

/// The reader columns this reader honours.
pub(crate) const HONOURS: &[Column] = &[
    Column::Exit2Block,
    Column::FailureLevelError,
    Column::ContextNeedsExit0,
    Column::Exit2StderrToUser,
    Column::Exit2Ignored,
    Column::Defer,
    Column::CommonFields,
    Column::JsonOverExitCode,
    Column::QuietSuccessStderr,
];

pub(crate) fn read(out: &mut Out<'_>, run: &HookRun<'_>) {
    match run.exit {
        Exit::TimedOut => {
            out.timed_out(run);
            return;
        }
        Exit::Signal(None) => {
            out.status_lost(run);
            return;
        }
        _ => {}
    }
    let rules = out.rules;
    let exit2 = run.exit2_blocks(rules);
    if exit2 == Some(Exit2Reason::StderrIgnoringStdout) {
        let reason = match run.stderr {
            Some(stderr) => stderr.to_owned(),
            None if needs_stderr(rules.exit2) => {
                out.exit2_without_stderr(run);
                return;
            }
            None => run.exit2_default_reason(),
        };
        out.reply.decision = Some(Decision::Tool(PreToolHookDecision::Deny, Some(reason)));
        return;
    }

    out.standard(run);
    let verdict = match run.json() {
        Some(json) => read_json(out, run, json),
        None => None,
    };
    if let Some(source) = exit2 {
        // Exit 2 denies whatever stdout said; stdout's other fields were
        // read above. The reason: stderr and a deny reason in stdout, in
        // the profile's order.
        let json_reason = match verdict {
            Some((PreToolHookDecision::Deny, reason)) => reason,
            _ => None,
        };
        let stderr = run.stderr.map(str::to_owned);
        let reason = match source {
            Exit2Reason::StdoutThenStderr => json_reason.or(stderr),
            _ => stderr.or(json_reason),
        };
        let reason = match reason {
            Some(reason) => reason,
            None if needs_stderr(rules.exit2) => {
                out.exit2_without_stderr(run);
                return;
            }
            None => run.exit2_default_reason(),
        };
        out.reply.decision = Some(Decision::Tool(PreToolHookDecision::Deny, Some(reason)));
        return;
    }
    out.reply.decision = verdict.map(|(decision, reason)| Decision::Tool(decision, reason));
}

/// The JSON fields: `updatedInput` and `additionalContext` are kept;
/// returns the hook's decision, if any.
fn read_json(
    out: &mut Out<'_>,
    run: &HookRun<'_>,
    json: &Map<String, Value>,
) -> Option<(PreToolHookDecision, Option<String>)> {
    let spec = run.specific();
    if let Some(spec) = spec {
        match spec.get("updatedInput") {
            None | Some(Value::Null) => {}
            Some(input @ Value::Object(_)) => out.reply.updated_input = Some(input.clone()),
            Some(_) => out.push(
                HookMessageLevel::Warning,
                format!("{} returned an updatedInput that is not a JSON object; ignored", run.who()),
            ),
        }
        if run.context_allowed(out.rules) {
            push_context(&mut out.reply.context, spec.get("additionalContext"));
        }
    }

    let mut verdict = None;
    if let Some(spec) = spec {
        if let Some(value) = spec.get("permissionDecision").and_then(Value::as_str) {
            let reason = text_field(spec, "permissionDecisionReason");
            match parse_decision(value, out.rules.defer) {
                Some(decision) => verdict = Some((decision, reason)),
                None => out.push(
                    HookMessageLevel::Warning,
                    format!("{} returned an unknown permissionDecision \"{}\"; ignored", run.who(), value.trim()),
                ),
            }
        }
    }
    if verdict.is_none() {
        if let Some(value) = json.get("decision").and_then(Value::as_str) {
            let reason = run.text("reason");
            match value.trim().to_ascii_lowercase().as_str() {
                "approve" => verdict = Some((PreToolHookDecision::Allow, reason)),
                "block" => verdict = Some((PreToolHookDecision::Deny, reason)),
                _ => out.push(
                    HookMessageLevel::Warning,
                    format!("{} returned an unknown decision \"{}\"; ignored", run.who(), value.trim()),
                ),
            }
        }
    }
    if run.continue_false() {
        verdict = match verdict {
            Some((PreToolHookDecision::Deny, Some(reason))) => Some((PreToolHookDecision::Deny, Some(reason))),
            other => {
                let reason =
                    run.text("stopReason").or_else(|| run.text("reason")).or_else(|| other.and_then(|(_, r)| r));
                Some((PreToolHookDecision::Deny, reason))
            }
        };
    }
    if let Some((PreToolHookDecision::Defer, reason)) = &mut verdict {
        // "For `defer`, ignored": the reason, the rewrite and the context.
        *reason = None;
        out.reply.updated_input = None;
        out.reply.context.clear();
    }
    verdict
}

fn needs_stderr(exit2: Exit2) -> bool {
    matches!(exit2, Exit2::Block { needs_stderr: true, .. })
}

/// `permissionDecision` values (case-insensitive, trimmed); `defer` only
/// where the row reads it.
fn parse_decision(value: &str, defer: bool) -> Option<PreToolHookDecision> {
    match value.trim().to_ascii_lowercase().as_str() {
        "allow" => Some(PreToolHookDecision::Allow),
        "deny" => Some(PreToolHookDecision::Deny),
        "ask" => Some(PreToolHookDecision::Ask),
        "defer" if defer => Some(PreToolHookDecision::Defer),
        _ => None,
    }
}
