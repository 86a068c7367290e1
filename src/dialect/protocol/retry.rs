//! PermissionDenied (Claude Code, fired by name): the exit-code table.
//!
//! The denial already happened; a hook can only tell the model that it may
//! retry the denied tool call.
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message |
//! | exit 2 | *profile* `Ignored` (Claude Code): no message, no effect ("exit code and stderr are ignored") |
//! | other non-zero exit, signal | message at the profile's failure level (with stderr); stdout still read |
//! | plain stdout | info message |
//! | `hookSpecificOutput.retry: true` | `retry` |
//!
//! The merge: `retry` is true when any hook said so.

use serde_json::Value;

use super::{Exit, HookRun, Out};
use crate::model::reply::Decision;
use crate::model::rules::Column;

/// The reader columns this reader honours.
pub(crate) const HONOURS: &[Column] = &[
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
    if run.specific().and_then(|spec| spec.get("retry")).and_then(Value::as_bool) == Some(true) {
        out.reply.decision = Some(Decision::Retry);
    }
}
