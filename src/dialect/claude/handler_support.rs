//! Which handler types each event runs, per dialect: the one table of it.
//!
//! Claude Code (its hooks reference, "Prompt-based hooks"): "Not all events
//! support every hook type."
//!
//! | events | command | http | mcp_tool | prompt | agent |
//! |---|---|---|---|---|---|
//! | PermissionDenied, PermissionRequest, PostToolBatch, PostToolUse, PostToolUseFailure, PreToolUse, Stop, SubagentStop, TaskCompleted, TaskCreated, TeammateIdle, UserPromptExpansion, UserPromptSubmit | yes | yes | yes | yes | yes |
//! | SessionStart, Setup | yes | no | yes | no | no |
//! | every other event (ConfigChange, CwdChanged, …, MessageDisplay, Notification, PostModelSwitch, PreCompact, PreModelSwitch, SessionEnd, SubagentStart, and events it adds later) | yes | yes | yes | no | no |
//!
//! A hook of a type its event does not run is kept in the configuration,
//! warned about when the config is read (`hl_engine_config_warnings`) and
//! skipped at run time with `"skipped": "unsupported_on_event"`
//! (`src/handler/layer/support.rs`). Dialects whose configs only have
//! commands (VT Code) run every type they can read everywhere.

use crate::model::event::RunEvent;
use crate::model::outcome::HookKind;

/// The events on which Claude Code runs all five handler types.
const ALL_FIVE: &[&str] = &[
    "PermissionDenied",
    "PermissionRequest",
    "PostToolBatch",
    "PostToolUse",
    "PostToolUseFailure",
    "PreToolUse",
    "Stop",
    "SubagentStop",
    "TaskCompleted",
    "TaskCreated",
    "TeammateIdle",
    "UserPromptExpansion",
    "UserPromptSubmit",
];

/// The events on which Claude Code runs only `command` and `mcp_tool` hooks.
const COMMAND_AND_MCP_ONLY: &[&str] = &["SessionStart", "Setup"];

/// Whether Claude Code runs hooks of `kind` on the event named `event`.
pub(crate) fn claude_supports(kind: HookKind, event: &str) -> bool {
    match kind {
        HookKind::Command | HookKind::McpTool | HookKind::Callback => true,
        HookKind::Http => !COMMAND_AND_MCP_ONLY.contains(&event),
        HookKind::Prompt | HookKind::Agent => ALL_FIVE.contains(&event),
    }
}

/// [`claude_supports`] for an event of a run.
pub(crate) fn claude_supports_on(kind: HookKind, event: &RunEvent) -> bool {
    claude_supports(kind, event.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "`SessionStart` and `Setup` support `command` and `mcp_tool` hooks.
    /// They don't support `http`, `prompt`, or `agent` hooks."
    #[test]
    fn session_start_runs_only_command_and_mcp_tool_hooks() {
        for kind in [HookKind::Command, HookKind::McpTool] {
            assert!(claude_supports(kind, "SessionStart"));
            assert!(claude_supports(kind, "Setup"));
        }
        for kind in [HookKind::Http, HookKind::Prompt, HookKind::Agent] {
            assert!(!claude_supports(kind, "SessionStart"), "{kind:?}");
            assert!(!claude_supports(kind, "Setup"), "{kind:?}");
        }
    }

    /// "Events that support `command`, `http`, and `mcp_tool` hooks but not
    /// `prompt` or `agent`: … `Notification`, `PostCompact`, `PreCompact`,
    /// `SessionEnd`, … `SubagentStart`".
    #[test]
    fn observer_events_run_no_prompt_or_agent_hooks() {
        for event in ["Notification", "PreCompact", "SessionEnd", "SubagentStart", "PostCompact", "CwdChanged"] {
            assert!(claude_supports(HookKind::Http, event));
            assert!(!claude_supports(HookKind::Prompt, event), "{event}");
            assert!(!claude_supports(HookKind::Agent, event), "{event}");
        }
        for event in ["PreToolUse", "Stop", "SubagentStop", "UserPromptSubmit", "TaskCreated"] {
            for kind in HookKind::CONFIGURED {
                assert!(claude_supports(kind, event), "{kind:?} {event}");
            }
        }
    }
}
