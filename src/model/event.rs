//! The twelve lifecycle events: numbers (`hl_event`), wire names
//! (`hook_event_name`, Claude keys) and config keys (VT Code snake_case).

use serde::{Deserialize, Serialize};

/// A lifecycle event: the C ABI's `hl_event`. Numbered in declaration
/// order from 0; the C constants (`HL_EVENT_*`) and their numbers are
/// declared once, in the FFI layer, which checks at compile time that they
/// agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(i32)]
pub enum HookEvent {
    SessionStart,
    SessionEnd,
    SubagentStart,
    SubagentStop,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    PermissionRequest,
    PreCompact,
    Stop,
    Notification,
    PostToolUseFailure,
}

enum_names!(
    /// PascalCase name: `hook_event_name`, Claude settings key, `hl_event_name`.
    HookEvent, name, c_name, {
    SessionStart => "SessionStart",
    SessionEnd => "SessionEnd",
    SubagentStart => "SubagentStart",
    SubagentStop => "SubagentStop",
    UserPromptSubmit => "UserPromptSubmit",
    PreToolUse => "PreToolUse",
    PostToolUse => "PostToolUse",
    PermissionRequest => "PermissionRequest",
    PreCompact => "PreCompact",
    Stop => "Stop",
    Notification => "Notification",
    PostToolUseFailure => "PostToolUseFailure",
});

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
    /// all other events run their hooks concurrently.
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

/// The event of one run: one of the twelve, or a config key fired by name
/// (`hl_engine_run_named`) that no dialect maps to one of them (e.g.
/// `PostCompact`, Gemini's `BeforeModel`, Cursor's `beforeReadFile`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RunEvent {
    /// One of the twelve canonical events.
    Known(HookEvent),
    /// Any other event, by its name exactly as the host fired it.
    Named(std::sync::Arc<str>),
}

impl RunEvent {
    /// The event of a name: one of the twelve by its PascalCase name, else a
    /// named event. `None` for a blank name or one with a NUL character.
    pub fn from_name(name: &str) -> Option<RunEvent> {
        if name.trim().is_empty() || name.contains('\0') {
            return None;
        }
        Some(match HookEvent::from_name(name) {
            Some(e) => RunEvent::Known(e),
            None => RunEvent::Named(std::sync::Arc::from(name)),
        })
    }

    /// The event's canonical name (`hook_event_name` in Claude-style payloads).
    pub fn name(&self) -> &str {
        match self {
            RunEvent::Known(e) => e.name(),
            RunEvent::Named(n) => n,
        }
    }

    /// The canonical event, when it is one of the twelve.
    pub fn known(&self) -> Option<HookEvent> {
        match self {
            RunEvent::Known(e) => Some(*e),
            RunEvent::Named(_) => None,
        }
    }

    /// Whether the event carries a tool call (`tool_name`, `tool_input`).
    pub fn is_tool_event(&self) -> bool {
        self.known().is_some_and(HookEvent::is_tool_event)
    }
}

impl std::fmt::Display for RunEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl From<HookEvent> for RunEvent {
    fn from(e: HookEvent) -> RunEvent {
        RunEvent::Known(e)
    }
}

/// Events that share an outcome shape and the reading and merging rules
/// that go with it. A profile gives every event its family
/// ([`Profile::family_of`](crate::model::rules::Profile::family_of)); the
/// canonical events start from [`HookEvent::family`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventFamily {
    /// SessionStart (and, where a profile says so, SubagentStart and
    /// Setup): context for the model, the env file.
    Context,
    /// UserPromptSubmit (and UserPromptExpansion): block the prompt, context.
    Prompt,
    /// PreToolUse: allow, deny, ask, defer; rewrite the input; context.
    Tool,
    /// PostToolUse, PostToolUseFailure (and PostToolBatch): feedback for
    /// the model, context.
    PostTool,
    /// PermissionRequest: grant or refuse.
    Permission,
    /// Stop, SubagentStop, PreCompact (and TaskCreated, TaskCompleted,
    /// TeammateIdle, ConfigChange): block.
    Stop,
    /// PermissionDenied: tell the model it may retry.
    Retry,
    /// WorktreeCreate: the path of the created worktree.
    Worktree,
    /// Elicitation, ElicitationResult: accept, decline or cancel.
    Elicitation,
    /// SessionEnd, SubagentStart, Notification, events fired by name the
    /// profile does not know: messages only.
    Observe,
}

impl HookEvent {
    /// The event's family in the canonical model (a profile may give
    /// SubagentStart the context family).
    pub const fn family(self) -> EventFamily {
        match self {
            HookEvent::SessionStart => EventFamily::Context,
            HookEvent::UserPromptSubmit => EventFamily::Prompt,
            HookEvent::PreToolUse => EventFamily::Tool,
            HookEvent::PostToolUse | HookEvent::PostToolUseFailure => EventFamily::PostTool,
            HookEvent::PermissionRequest => EventFamily::Permission,
            HookEvent::Stop | HookEvent::SubagentStop | HookEvent::PreCompact => EventFamily::Stop,
            HookEvent::SessionEnd | HookEvent::SubagentStart | HookEvent::Notification => EventFamily::Observe,
        }
    }
}
