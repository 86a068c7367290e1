//! The registry's hook points: the C ABI's `hl_hook_point` values and
//! their wire labels.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A point of the agent lifecycle where registry callbacks run: the C ABI's
/// `hl_hook_point`. Numbered in declaration order from 0 (the C constants
/// `HL_POINT_*` and their numbers are declared once, in the FFI layer, which
/// checks at compile time that they agree); the serde form is the wire
/// label (`"pre_turn"`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(i32)]
pub enum HookPoint {
    /// Before the model processes a turn (decide: may block the prompt).
    PreTurn,
    /// After the model completed a turn (observer).
    PostTurn,
    /// Before a tool call runs (decide: allow/deny, may modify the args).
    PreToolCallDecide,
    /// After a tool call returned (observer).
    PostToolCall,
    /// When the context window is compacted (observer).
    OnCompaction,
    /// When a session starts (observer).
    OnSessionStart,
    /// When a session ends (observer).
    OnSessionEnd,
    /// When a tool call failed (observer).
    OnToolError,
    /// On each user interaction (decide; a failing callback never blocks).
    OnInteraction,
    /// Rewrite a tool call's arguments (chained transforms).
    TransformToolInput,
    /// The agent is about to stop (the end of a turn): the first callback
    /// that says "continue" (with a reason) keeps it going.
    Stop,
}

enum_names!(
    /// The wire label, e.g. `"pre_tool_call_decide"` (`hl_point_name`).
    HookPoint, label, c_label, {
    PreTurn => "pre_turn",
    PostTurn => "post_turn",
    PreToolCallDecide => "pre_tool_call_decide",
    PostToolCall => "post_tool_call",
    OnCompaction => "on_compaction",
    OnSessionStart => "on_session_start",
    OnSessionEnd => "on_session_end",
    OnToolError => "on_tool_error",
    OnInteraction => "on_interaction",
    TransformToolInput => "transform_tool_input",
    Stop => "stop",
});

impl HookPoint {
    /// All points in `hl_hook_point` order.
    pub const ALL: [HookPoint; 11] = [
        HookPoint::PreTurn,
        HookPoint::PostTurn,
        HookPoint::PreToolCallDecide,
        HookPoint::PostToolCall,
        HookPoint::OnCompaction,
        HookPoint::OnSessionStart,
        HookPoint::OnSessionEnd,
        HookPoint::OnToolError,
        HookPoint::OnInteraction,
        HookPoint::TransformToolInput,
        HookPoint::Stop,
    ];

    /// The point for an `hl_hook_point` number, `None` when out of range.
    pub fn from_i32(v: i32) -> Option<HookPoint> {
        Self::ALL.get(usize::try_from(v).ok()?).copied()
    }

    /// Look up a wire label (exact).
    pub fn from_label(label: &str) -> Option<HookPoint> {
        Self::ALL.iter().copied().find(|p| p.label() == label)
    }
}

impl fmt::Display for HookPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}
