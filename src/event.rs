//! The twelve lifecycle events: numbers (`hl_event`), wire names
//! (`hook_event_name`, Claude keys) and config keys (VT Code snake_case).

use serde::{Deserialize, Serialize};

/// A lifecycle event. The discriminants are the `hl_event` numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(i32)]
pub enum HookEvent {
    SessionStart = 0,
    SessionEnd = 1,
    SubagentStart = 2,
    SubagentStop = 3,
    UserPromptSubmit = 4,
    PreToolUse = 5,
    PostToolUse = 6,
    PermissionRequest = 7,
    PreCompact = 8,
    Stop = 9,
    Notification = 10,
    PostToolUseFailure = 11,
}

impl HookEvent {
    /// All events in `hl_event` order (the digest order).
    pub const ALL: [HookEvent; 12] = [
        HookEvent::SessionStart,
        HookEvent::SessionEnd,
        HookEvent::SubagentStart,
        HookEvent::SubagentStop,
        HookEvent::UserPromptSubmit,
        HookEvent::PreToolUse,
        HookEvent::PostToolUse,
        HookEvent::PermissionRequest,
        HookEvent::PreCompact,
        HookEvent::Stop,
        HookEvent::Notification,
        HookEvent::PostToolUseFailure,
    ];

    /// The event for an `hl_event` number, `None` when out of range.
    pub fn from_i32(v: i32) -> Option<HookEvent> {
        Self::ALL.get(usize::try_from(v).ok()?).copied()
    }

    /// Index into per-event tables (0..12).
    pub fn index(self) -> usize {
        self as usize
    }

    /// PascalCase name: `hook_event_name`, Claude settings key, `hl_event_name`.
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::SessionStart => "SessionStart",
            HookEvent::SessionEnd => "SessionEnd",
            HookEvent::SubagentStart => "SubagentStart",
            HookEvent::SubagentStop => "SubagentStop",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::PermissionRequest => "PermissionRequest",
            HookEvent::PreCompact => "PreCompact",
            HookEvent::Stop => "Stop",
            HookEvent::Notification => "Notification",
            HookEvent::PostToolUseFailure => "PostToolUseFailure",
        }
    }

    /// snake_case key: VT Code config key and the digest's `event` field.
    pub fn key(self) -> &'static str {
        match self {
            HookEvent::SessionStart => "session_start",
            HookEvent::SessionEnd => "session_end",
            HookEvent::SubagentStart => "subagent_start",
            HookEvent::SubagentStop => "subagent_stop",
            HookEvent::UserPromptSubmit => "user_prompt_submit",
            HookEvent::PreToolUse => "pre_tool_use",
            HookEvent::PostToolUse => "post_tool_use",
            HookEvent::PermissionRequest => "permission_request",
            HookEvent::PreCompact => "pre_compact",
            HookEvent::Stop => "stop",
            HookEvent::Notification => "notification",
            HookEvent::PostToolUseFailure => "post_tool_use_failure",
        }
    }

    /// Look up a PascalCase name (exact, case-sensitive).
    pub fn from_name(name: &str) -> Option<HookEvent> {
        Self::ALL.iter().copied().find(|e| e.name() == name)
    }

    /// Look up a snake_case config key (exact).
    pub fn from_key(key: &str) -> Option<HookEvent> {
        Self::ALL.iter().copied().find(|e| e.key() == key)
    }

    /// Decision events run their hooks one after another and stop early;
    /// all other events run their hooks concurrently (SPEC §5.5).
    pub fn is_decision_event(self) -> bool {
        matches!(
            self,
            HookEvent::UserPromptSubmit | HookEvent::PreToolUse | HookEvent::PermissionRequest | HookEvent::Stop
        )
    }

    /// Tool events carry `tool_name`/`tool_input` and get `tool_use_id`.
    pub fn is_tool_event(self) -> bool {
        matches!(
            self,
            HookEvent::PreToolUse
                | HookEvent::PostToolUse
                | HookEvent::PermissionRequest
                | HookEvent::PostToolUseFailure
        )
    }
}

impl std::fmt::Display for HookEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
