//! PermissionRequest: the exit-code table and the decision shape.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message; run goes on (no decision; Claude Code `failClosed`: **deny**) |
//! | non-zero exit (any code, signal) | message at the profile's failure level (with stderr); stdout still read (Claude Code `failClosed`: **deny**) |
//! | exit 2 | *profile*: VT Code like any non-zero exit; Claude Code: not a decision, stderr discarded (no message), stdout still read |
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
//! The run stops at the first decision.

use serde_json::{Map, Value};

use super::{
    text_field, CommonOutcome, Exit, HookMessageLevel, HookRun, PermissionBehavior, PermissionDecision,
    PermissionRequestHookOutcome, PermissionScope, Shared,
};

/// What PermissionRequest hooks decided so far.
#[derive(Default)]
pub(crate) struct PermissionRules {
    decision: Option<PermissionDecision>,
}

impl PermissionRules {
    pub(crate) fn absorb(&mut self, sh: &mut Shared, run: &HookRun) -> bool {
        if run.exit == Exit::TimedOut {
            sh.timed_out(run);
            return false;
        }
        sh.standard(run);
        let Some(spec) = run.specific() else {
            return false;
        };
        let inner = spec.get("decision").and_then(Value::as_object);
        let field = |key: &str| -> Option<&Value> {
            inner.and_then(|d| d.get(key)).filter(|v| !v.is_null()).or_else(|| spec.get(key).filter(|v| !v.is_null()))
        };

        let behavior = match inner.and_then(|d| d.get("behavior")) {
            None => {
                if spec.get("decision").is_some_and(|d| !d.is_null()) {
                    sh.push(
                        HookMessageLevel::Warning,
                        format!("{} returned a decision without a behavior; ignored", run.who()),
                    );
                }
                return false;
            }
            Some(value) => match value.as_str().map(|s| s.trim().to_ascii_lowercase()).as_deref() {
                Some("allow") => PermissionBehavior::Allow,
                Some("deny") => PermissionBehavior::Deny,
                _ => {
                    sh.push(
                        HookMessageLevel::Warning,
                        format!("{} returned an unknown decision behavior {value}; ignored", run.who()),
                    );
                    return false;
                }
            },
        };

        let mut permission_updates = Vec::new();
        match field("updatedPermissions") {
            None => {}
            Some(Value::Array(items)) => {
                for item in items {
                    push_update(sh, run, &mut permission_updates, item);
                }
            }
            Some(item) => push_update(sh, run, &mut permission_updates, item),
        }

        self.decision = Some(PermissionDecision {
            behavior,
            scope: scope_of(&permission_updates),
            updated_input: field("updatedInput").cloned(),
            permission_updates,
            interrupt: field("interrupt").and_then(Value::as_bool).unwrap_or(false),
            message: inner.and_then(|d| text_field(d, "message")).or_else(|| text_field(spec, "message")),
        });
        true
    }

    /// A failing `failClosed` hook denies (once), its failure as the message.
    pub(crate) fn fail_closed(&mut self, reason: String) -> bool {
        if self.decision.is_none() || self.decision.as_ref().is_some_and(|d| d.behavior == PermissionBehavior::Allow) {
            self.decision = Some(PermissionDecision {
                behavior: PermissionBehavior::Deny,
                scope: PermissionScope::Once,
                updated_input: None,
                permission_updates: Vec::new(),
                interrupt: false,
                message: Some(reason),
            });
        }
        true
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> PermissionRequestHookOutcome {
        PermissionRequestHookOutcome { decision: self.decision, common }
    }
}

/// Keep an update object as given; anything else is dropped with a warning.
fn push_update(sh: &mut Shared, run: &HookRun, out: &mut Vec<Value>, item: &Value) {
    if item.is_object() {
        out.push(item.clone());
    } else {
        sh.push(
            HookMessageLevel::Warning,
            format!("{} returned a permission update that is not a JSON object; ignored", run.who()),
        );
    }
}

/// `permanent` if an update targets `projectSettings`, else `session` if one
/// targets the session (or names no destination), else `once`.
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

/// An update's `destination`, trimmed.
fn destination(update: &Map<String, Value>) -> Option<&str> {
    update.get("destination").and_then(Value::as_str).map(str::trim)
}
