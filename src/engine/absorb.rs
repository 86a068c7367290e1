//! Reading one hook's result into the run's interpreter: the hand-off from
//! the handler layer (what a hook gave, [`Executed`]) to the merge
//! ([`EventInterpreter`]). It lives in the engine, above both, so that
//! neither needs the other.

use crate::handler::layer::trace;
use crate::handler::{Executed, Output};
use crate::merge::{EventInterpreter, HookExtras};

impl Executed {
    /// Feed the result to the run's interpreter; true when a sequential
    /// run must stop here. The hook's span, if any, ends with what was read.
    pub(crate) fn absorb_into(&mut self, interp: &mut EventInterpreter) -> bool {
        let stop = self.absorb(interp);
        if let Some(span) = self.span.take() {
            let (failure, decision) = interp.last_read();
            trace::end(span, &self.report, failure, decision);
        }
        stop
    }

    /// The run was cancelled before this result was read: its span ends so.
    pub(crate) fn abandon(&mut self) {
        if let Some(mut span) = self.span.take() {
            span.set_cancelled();
            trace::end(span, &self.report, None, None);
        }
    }

    fn absorb(&self, interp: &mut EventInterpreter) -> bool {
        let label = self.label.as_str();
        match &self.output {
            Output::NotApproved => {
                interp.absorb_not_approved(label);
                false
            }
            Output::Changed(why) => {
                interp.absorb_changed_since_approval(label, why);
                false
            }
            Output::Skipped { why, .. } => {
                interp.absorb_skipped(label, why);
                false
            }
            Output::SpawnFailed(error) => {
                let fail_closed = self.fail_closed || self.policy;
                interp.absorb_spawn_failure_as(label, error, fail_closed, self.dialect, self.native_event)
            }
            Output::Ran(exec) => match (self.dialect, self.quiet) {
                (Some(dialect), Some(quiet)) => {
                    let extras = HookExtras {
                        native_event: self.native_event,
                        loop_limit: self.loop_limit,
                        identity: self.identity.as_deref(),
                    };
                    // A policy hook fails closed (a timeout where its dialect
                    // does not let policy hooks time out open).
                    let policy = self.policy && !(exec.timed_out && dialect.policy_timeouts_fail_open());
                    interp.absorb_with(dialect, quiet, exec, self.fail_closed || policy, extras)
                }
                _ => interp.absorb_callback(exec),
            },
        }
    }
}
