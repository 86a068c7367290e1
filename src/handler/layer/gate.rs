//! The gate layer: a hook of an untrusted source runs only while the
//! approved digest equals the digest of the command set the run is
//! executing (checked right before every start, so an approval revoked by a
//! reload mid-run stops the hooks not yet started). Hooks of trusted
//! sources and callback hooks (host code) always run. What the digest
//! covers and how approvals persist is [`crate::gate`]'s.

use super::Stack;
use crate::handler::Hook;

/// Whether the gate lets `hook` start now.
pub(crate) fn admits(stack: &Stack<'_>, hook: Hook<'_>) -> bool {
    match hook.spec() {
        None => true,
        Some(spec) => spec.trusted() || stack.approval.allows(stack.commands),
    }
}
