//! The gate layer: a hook of an untrusted source runs only while the
//! approved digest equals the digest of the command set the run is
//! executing and every file the hook executes is as approved — both
//! checked right before every start, the files re-verified then (a hash is
//! recomputed only when a file's stat fields changed). So an approval
//! revoked by a reload mid-run stops the hooks not yet started, and a
//! script changed, swapped or deleted after the approval is not run. Hooks
//! of trusted sources and callback hooks (host code) always run. What the
//! digest and the pins cover and how approvals persist is
//! [`crate::gate`]'s.
//!
//! What this check cannot cover is the time between it and the moment the
//! hook's program opens the file (the shell's `exec`, an interpreter
//! reading its script): a file changed in that window runs as changed.
//! `docs/trust.md` states the window.

use super::Stack;
use crate::gate::pins::Verdict;
use crate::handler::Hook;

/// Whether the gate lets `hook` start now.
pub(crate) fn admits(stack: &Stack<'_>, hook: Hook<'_>) -> Verdict {
    match hook.spec() {
        None => Verdict::Run,
        Some(spec) if spec.trusted() => Verdict::Run,
        Some(spec) => stack.approval.admits(stack.commands, spec),
    }
}
