//! PermissionRequest: the exit-code table and the decision shape.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message; run goes on (no decision; Claude Code `failClosed`: **deny**) |
//! | non-zero exit (any code, signal) | message at the profile's failure level (with stderr); stdout still read (Claude Code `failClosed`: **deny**) |
//! | exit 2 | *profile*: VT Code like any non-zero exit; Claude Code: not a decision, stderr discarded (no message), stdout still read; `Exit2::Block` (a table that gives exit 2 a blocking meaning): **deny**, message = stderr, else `... exited with code 2` |
//! | exit 0 with stderr | message at the profile's failure level |
//! | plain stdout | info message (none with `quiet_success_output` on exit 0) |
//! | `hookSpecificOutput.decision.behavior` `allow` / `deny` | **decision** |
//!
//! The decision's other fields are read from `hookSpecificOutput.decision`
//! (Claude Code) or, when absent there, directly from `hookSpecificOutput`
//! (VT Code's placement): `updatedInput` (any JSON, `null` = none),
//! `updatedPermissions` (an array of update objects, or one object),
//! `interrupt` (bool), `message` (string, trimmed). A decision without a
//! valid `behavior` is no decision (with a warning).
//!
//! `permission_updates` carries the update objects as given, in either
//! shape: Claude Code's `{"type":"addRules","rules":[..],"behavior":..,
//! "destination":"session"}` or VT Code's `{"addRules":[..],
//! "destination":..}`. The scope is `permanent` when an update's
//! `destination` is `projectSettings`, else `session` when one targets
//! `session` (an update without `destination` targets the session, as in VT
//! Code), else `once` (other destinations such as `userSettings` or
//! `localSettings` do not change the scope).
//!
//! The merge keeps the first decision (the run stops there).

use serde_json::{Map, Value};

use super::{text_field, Exit, HookRun, Out};
use crate::model::outcome::{HookMessageLevel, PermissionBehavior, PermissionDecision, PermissionScope};
use crate::model::reply::Decision;
use crate::model::rules::Column;

/// The reader columns this reader honours.
pub(crate) const HONOURS: &[Column] =
    // `common_fields` through `Out::standard`.
    &[
        Column::Exit2Block,
        Column::Exit2StderrToUser,
        Column::Exit2Ignored,
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
    out.standard(run);
    if run.exit2_blocks(out.rules).is_some() {
        let message = run.stderr.map_or_else(|| run.exit2_default_reason(), str::to_owned);
        out.reply.decision = Some(Decision::Permission(deny(message)));
        return;
    }
    let Some(spec) = run.specific() else {
        return;
    };
    let inner = spec.get("decision").and_then(Value::as_object);
    let field = |key: &str| -> Option<&Value> {
        inner.and_then(|d| d.get(key)).filter(|v| !v.is_null()).or_else(|| spec.get(key).filter(|v| !v.is_null()))
    };

    let behavior = match inner.and_then(|d| d.get("behavior")) {
        None => {
            if spec.get("decision").is_some_and(|d| !d.is_null()) {
                out.push(
                    HookMessageLevel::Warning,
                    format!("{} returned a decision without a behavior; ignored", run.who()),
                );
            }
            return;
        }
        Some(value) => match value.as_str().map(|s| s.trim().to_ascii_lowercase()).as_deref() {
            Some("allow") => PermissionBehavior::Allow,
            Some("deny") => PermissionBehavior::Deny,
            _ => {
                out.push(
                    HookMessageLevel::Warning,
                    format!("{} returned an unknown decision behavior {value}; ignored", run.who()),
                );
                return;
            }
        },
    };

    let mut permission_updates = Vec::new();
    match field("updatedPermissions") {
        None => {}
        Some(Value::Array(items)) => {
            for item in items {
                push_update(out, run, &mut permission_updates, item);
            }
        }
        Some(item) => push_update(out, run, &mut permission_updates, item),
    }

    out.reply.decision = Some(Decision::Permission(PermissionDecision {
        behavior,
        scope: scope_of(&permission_updates),
        updated_input: field("updatedInput").cloned(),
        permission_updates,
        interrupt: field("interrupt").and_then(Value::as_bool).unwrap_or(false),
        message: inner.and_then(|d| text_field(d, "message")).or_else(|| text_field(spec, "message")),
    }));
}

/// A refusal with `message`.
pub(crate) fn deny(message: String) -> PermissionDecision {
    PermissionDecision {
        behavior: PermissionBehavior::Deny,
        scope: PermissionScope::Once,
        updated_input: None,
        permission_updates: Vec::new(),
        interrupt: false,
        message: Some(message),
    }
}

fn push_update(out: &mut Out<'_>, run: &HookRun<'_>, updates: &mut Vec<Value>, item: &Value) {
    if item.is_object() {
        updates.push(item.clone());
    } else {
        out.push(
            HookMessageLevel::Warning,
            format!("{} returned a permission update that is not a JSON object; ignored", run.who()),
        );
    }
}

fn scope_of(updates: &[Value]) -> PermissionScope {
    let mut scope = PermissionScope::Once;
    for update in updates.iter().filter_map(Value::as_object) {
        match destination(update) {
            Some("projectSettings") => return PermissionScope::Permanent,
            Some("session") | None => scope = PermissionScope::Session,
            Some(_) => {}
        }
    }
    scope
}

fn destination(update: &Map<String, Value>) -> Option<&str> {
    update.get("destination").and_then(Value::as_str).map(str::trim)
}
