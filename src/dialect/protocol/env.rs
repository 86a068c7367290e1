//! The environment of a hooks-protocol hook: the variables VT Code and
//! Claude Code give their hooks (each agent's names, set for both so that
//! scripts written for either read them), and the variables that hold a
//! path (the approval pins what they name). VT Code, Claude Code and the
//! hosts that copy Claude Code's rules (Devin CLI) set them.

use crate::dialect::{Placeholder, PlaceholderValue};
use crate::model::event::RunEvent;
use crate::model::input::SessionFacts;

/// The variables VT Code hooks get besides the canonical ones (VT Code's
/// own names, and Claude Code's, which scripts written for either read).
const ENV_NAMES: &[&str] = &[
    "VT_PROJECT_DIR",
    "VT_SESSION_ID",
    "VT_HOOK_EVENT",
    "VT_TRANSCRIPT_PATH",
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_SESSION_ID",
    "CLAUDE_TRANSCRIPT_PATH",
];

/// The variables of the hooks-protocol dialects (VT Code's and Claude
/// Code's names), in the order the engine has always set them.
pub(crate) fn protocol_environment(
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    add: &mut dyn FnMut(&'static str, &str),
) {
    add("VT_PROJECT_DIR", facts.cwd);
    add("VT_SESSION_ID", facts.session_id);
    add("VT_HOOK_EVENT", event.name());
    add("CLAUDE_PROJECT_DIR", facts.cwd);
    add("CLAUDE_SESSION_ID", facts.session_id);
    if let Some(t) = facts.transcript_path {
        add("VT_TRANSCRIPT_PATH", t);
        add("CLAUDE_TRANSCRIPT_PATH", t);
    }
}

/// The names [`protocol_environment`] sets.
pub(crate) const PROTOCOL_ENV_NAMES: &[&str] = ENV_NAMES;

/// The path variables of the hooks-protocol dialects: the project
/// directory under VT Code's and Claude Code's names, and Claude Code's
/// plugin root (given to the hooks of a source with a plugin root).
pub(crate) const PROTOCOL_PLACEHOLDERS: &[Placeholder] = &[
    Placeholder { name: "CLAUDE_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
    Placeholder { name: "VT_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
    Placeholder { name: "CLAUDE_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
];
