//! SessionEnd, SubagentStart, Notification, and events fired by a name the
//! profile does not know: observer events. (SubagentStop and PreCompact
//! share Stop's rules in `stop.rs`; in the VT Code profile nothing blocks
//! them, so they read like these.) The exit-code table:
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message |
//! | non-zero exit (any code, signal) | error message (with stderr); stdout still read |
//! | exit 2 | *profile*: VT Code like any non-zero exit; Claude Code: stderr is an error message, except Notification (ignored: no message) |
//! | exit 0 with stderr | error message |
//! | plain stdout | info message (none with `quiet_success_output` on exit 0) |
//! | `systemMessage` | info message |
//! | `continue: false` | outcome `continue` false, `stop_reason` |
//!
//! Never blocks; no other JSON field has a meaning here.

use super::{Exit, HookRun, Shared};

/// Observer events keep nothing beyond the common fields.
#[derive(Default)]
pub(crate) struct ObserveRules;

impl ObserveRules {
    pub(crate) fn absorb(&mut self, sh: &mut Shared, run: &HookRun) -> bool {
        if run.exit == Exit::TimedOut {
            sh.timed_out(run);
            return false;
        }
        sh.standard(run);
        false
    }
}
