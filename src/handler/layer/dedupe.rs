//! The dedupe layer: in dialects whose table says so
//! ([`Dedupe::IdenticalHandlers`]: Claude Code), a hook identical to one
//! already planned for the event — same handler type and
//! [`dedupe_key`](crate::config::HandlerSpec::dedupe_key): the same command
//! (with its `args` and `shell`), the same URL for http hooks, the same
//! fields for the host-answered types — runs once, across the engine's
//! settings sources: "If you define the same handler in more than one
//! settings file, it runs once. A plugin's or skill's copy of the same
//! handler stays separate." A hook of a source with a plugin root is
//! identical only to hooks of the same plugin root.

use crate::config::HookSpec;
use crate::model::outcome::HookKind;
use crate::model::rules::Dedupe;

/// The hooks planned so far, for deduplication.
#[derive(Default)]
pub(crate) struct Seen<'a> {
    seen: Vec<(HookKind, String, Option<&'a str>)>,
}

impl<'a> Seen<'a> {
    /// Whether `hook` runs (true), or is a duplicate to leave out.
    pub(crate) fn first(&mut self, hook: &'a HookSpec) -> bool {
        if hook.dialect().profile().dedupe == Dedupe::None {
            return true;
        }
        let key = (hook.handler.kind(), hook.handler.dedupe_key(), hook.plugin_root());
        if self.seen.contains(&key) {
            return false;
        }
        self.seen.push(key);
        true
    }
}
