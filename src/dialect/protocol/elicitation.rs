//! Elicitation and ElicitationResult (Claude Code, fired by name): the
//! exit-code table.
//!
//! A hook answers an MCP server's request for user input instead of the
//! user (Elicitation), or overrides the user's answer (ElicitationResult).
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message; no answer |
//! | exit 2 | *profile* `Block` (Claude Code): **decline** ("exit code 2 denies the elicitation" / "blocks the response, changing the effective action to decline"); stderr is shown nowhere and `hookSpecificOutput` is ignored |
//! | other non-zero exit, signal | message at the profile's failure level (with stderr); stdout still read |
//! | `hookSpecificOutput.action` `accept` / `decline` / `cancel` | the answer; `content` (an object) goes with an `accept` |
//! | another `action` | warning; no answer |
//!
//! `systemMessage` and `continue` are discarded (the row's
//! `common_fields`). The merge: a `decline` or `cancel` (the first in
//! configuration order) wins over an `accept`; otherwise the first
//! `accept`, with its content.

use serde_json::Value;

use super::{text_field, Exit, HookRun, Out};
use crate::model::outcome::{ElicitationAction, HookMessageLevel};
use crate::model::reply::Decision;
use crate::model::rules::Column;

/// The reader columns this reader honours.
pub(crate) const HONOURS: &[Column] = &[
    Column::Exit2Block,
    Column::FailureLevelError,
    Column::CommonFields,
    Column::JsonOverExitCode,
    Column::QuietSuccessStderr,
];

pub(crate) fn read(out: &mut Out<'_>, run: &HookRun<'_>) {
    if run.exit == Exit::TimedOut {
        out.timed_out(run);
        return;
    }
    if run.exit2_blocks(out.rules).is_some() {
        out.reply.decision = Some(Decision::Elicitation(ElicitationAction::Decline, None));
        return;
    }
    out.standard(run);
    let Some(spec) = run.specific() else {
        return;
    };
    let Some(action) = text_field(spec, "action") else {
        return;
    };
    let action = match action.to_ascii_lowercase().as_str() {
        "accept" => ElicitationAction::Accept,
        "decline" => ElicitationAction::Decline,
        "cancel" => ElicitationAction::Cancel,
        _ => {
            out.push(
                HookMessageLevel::Warning,
                format!("{} returned an unknown action \"{action}\"; ignored", run.who()),
            );
            return;
        }
    };
    let content = match (action, spec.get("content")) {
        (ElicitationAction::Accept, Some(content @ Value::Object(_))) => Some(content.clone()),
        _ => None,
    };
    out.reply.decision = Some(Decision::Elicitation(action, content));
}
