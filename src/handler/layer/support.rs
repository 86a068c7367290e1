//! The support layer: a hook whose handler type its dialect does not run on
//! the event (Claude Code: no `prompt`, `agent` or `http` hooks on
//! SessionStart, no `prompt` or `agent` hooks on Notification, …; the table
//! is `src/dialect/claude/handler_support.rs`) is skipped, before the gate, with
//! `"skipped": "unsupported_on_event"` and a warning. Reading the config
//! already warned about it (`hl_engine_config_warnings`).

use crate::handler::Hook;
use crate::model::event::RunEvent;

/// Why `hook` does not run on `event`, `None` when it does.
pub(crate) fn refuses(event: &RunEvent, hook: Hook<'_>) -> Option<String> {
    let spec = hook.spec()?;
    let kind = spec.handler.kind();
    if spec.dialect().supports(kind, event) {
        None
    } else {
        Some(format!("{} does not run {} hooks on {}", spec.dialect().title(), kind.as_str(), event.name()))
    }
}
