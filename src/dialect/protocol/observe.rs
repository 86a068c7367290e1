//! SessionEnd, SubagentStart, Notification, and events fired by a name no
//! canonical event has: observer events. (SubagentStop and PreCompact
//! share Stop's reader in `stop.rs`; where a table lets nothing block them,
//! they read like these.) The exit-code table:
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message |
//! | non-zero exit (any code, signal) | error message (with stderr); stdout still read |
//! | exit 2 | *profile*: like any non-zero exit; `StderrToUser`: stderr is an error message; `Ignored`: no message |
//! | exit 0 with stderr | error message |
//! | plain stdout | info message (none with `quiet_success_output` on exit 0) |
//! | `systemMessage` | info message (*profile* `common_fields: Discard`: ignored) |
//! | `continue: false` | outcome `continue` false, `stop_reason` (*profile* `common_fields`: ignored) |
//!
//! Never blocks; no other JSON field has a meaning here.

use super::{Exit, HookRun, Out};
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
}
