//! The typed asynchronous Rust API: one method per event
//! ([`run_session_start`](LifecycleHookEngine::run_session_start) …
//! [`run_stop`](LifecycleHookEngine::run_stop)), each building the event
//! input from typed arguments, running it asynchronously and returning the
//! event's typed outcome.

use serde_json::{Map, Value};

use super::execute::cancelled_error;
use super::LifecycleHookEngine;
use crate::error::{Error, Result, Status};
use crate::model::event::HookEvent;
use crate::model::input::{CompactionMode, CompactionTrigger, SessionEndReason};
use crate::model::outcome::{
    CommonOutcome, HookOutcome, PermissionRequestHookOutcome, PostToolHookOutcome, PreToolHookOutcome,
    SessionStartHookOutcome, StopHookOutcome, UserPromptHookOutcome,
};

/// Cancels an asynchronous run when its future is dropped before completion.
struct CancelOnDrop {
    engine: LifecycleHookEngine,
    run_id: u64,
    armed: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if self.armed {
            let _ = self.engine.cancel(self.run_id);
        }
    }
}

macro_rules! expect_outcome {
    ($outcome:expr, $variant:ident) => {
        match $outcome {
            HookOutcome::$variant(o) => Ok(o),
            other => Err(Error::new(Status::Panic, format!("unexpected outcome kind: {:?}", other.to_json()))),
        }
    };
}

/// The common fields of SubagentStart's, SubagentStop's and PreCompact's
/// outcome: an observer's in the VT Code profile; in the Claude Code
/// profile SubagentStop and PreCompact may block and SubagentStart returns
/// context, and those fields are in
/// [`run_event`](LifecycleHookEngine::run_event)'s outcome.
fn common_outcome(outcome: HookOutcome) -> Result<CommonOutcome> {
    match outcome {
        HookOutcome::Other(o) => Ok(o),
        HookOutcome::SubagentStop(o) | HookOutcome::PreCompact(o) => Ok(o.common),
        HookOutcome::Context(o) => Ok(o.common),
        other => Err(Error::new(Status::Panic, format!("unexpected outcome kind: {:?}", other.to_json()))),
    }
}

/// One asynchronous method per event. Each runs on the engine's runtime
/// (callback hooks on hookline threads) and can be awaited from any
/// executor; dropping the future cancels the run.
impl LifecycleHookEngine {
    /// Run an event asynchronously and await its outcome.
    pub async fn run_event(&self, event: HookEvent, input: Value) -> Result<HookOutcome> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let run_id = self.run_async(event, input, move |r| {
            let _ = tx.send(r);
        })?;
        let mut guard = CancelOnDrop { engine: self.clone(), run_id, armed: true };
        let r = rx.await.unwrap_or_else(|_| Err(cancelled_error()));
        guard.armed = false;
        r
    }

    /// SessionStart (uses the engine's trigger as `source`).
    pub async fn run_session_start(&self) -> Result<SessionStartHookOutcome> {
        expect_outcome!(self.run_event(HookEvent::SessionStart, Value::Object(Map::new())).await?, SessionStart)
    }

    /// SessionEnd.
    pub async fn run_session_end(&self, turn_id: &str, reason: SessionEndReason) -> Result<CommonOutcome> {
        let input = serde_json::json!({"turn_id": turn_id, "reason": reason.as_str()});
        expect_outcome!(self.run_event(HookEvent::SessionEnd, input).await?, Other)
    }

    #[allow(clippy::too_many_arguments)]
    fn subagent_input(
        parent_session_id: &str,
        child_thread_id: &str,
        agent_name: &str,
        display_label: &str,
        background: bool,
        status: &str,
        transcript_path: Option<&str>,
    ) -> Value {
        let mut v = serde_json::json!({
            "parent_session_id": parent_session_id, "child_thread_id": child_thread_id,
            "agent_name": agent_name, "display_label": display_label,
            "background": background, "status": status,
        });
        if let Some(t) = transcript_path {
            v["transcript_path"] = Value::String(t.to_string());
        }
        v
    }

    /// SubagentStart.
    #[allow(clippy::too_many_arguments)]
    pub async fn run_subagent_start(
        &self,
        parent_session_id: &str,
        child_thread_id: &str,
        agent_name: &str,
        display_label: &str,
        background: bool,
        status: &str,
        transcript_path: Option<&str>,
    ) -> Result<CommonOutcome> {
        let input = Self::subagent_input(
            parent_session_id,
            child_thread_id,
            agent_name,
            display_label,
            background,
            status,
            transcript_path,
        );
        common_outcome(self.run_event(HookEvent::SubagentStart, input).await?)
    }

    /// SubagentStop.
    #[allow(clippy::too_many_arguments)]
    pub async fn run_subagent_stop(
        &self,
        parent_session_id: &str,
        child_thread_id: &str,
        agent_name: &str,
        display_label: &str,
        background: bool,
        status: &str,
        transcript_path: Option<&str>,
    ) -> Result<CommonOutcome> {
        let input = Self::subagent_input(
            parent_session_id,
            child_thread_id,
            agent_name,
            display_label,
            background,
            status,
            transcript_path,
        );
        common_outcome(self.run_event(HookEvent::SubagentStop, input).await?)
    }

    /// UserPromptSubmit.
    pub async fn run_user_prompt_submit(&self, turn_id: &str, prompt: &str) -> Result<UserPromptHookOutcome> {
        let input = serde_json::json!({"turn_id": turn_id, "prompt": prompt});
        expect_outcome!(self.run_event(HookEvent::UserPromptSubmit, input).await?, UserPromptSubmit)
    }

    /// PermissionRequest.
    pub async fn run_permission_request(
        &self,
        tool_name: &str,
        tool_input: Option<&Value>,
        permission_request: &Value,
        permission_suggestions: Option<&Value>,
    ) -> Result<PermissionRequestHookOutcome> {
        let mut input = serde_json::json!({"tool_name": tool_name, "tool_input": tool_input, "permission_request": permission_request});
        if let Some(s) = permission_suggestions {
            input["permission_suggestions"] = s.clone();
        }
        expect_outcome!(self.run_event(HookEvent::PermissionRequest, input).await?, PermissionRequest)
    }

    /// PreToolUse.
    pub async fn run_pre_tool_use(
        &self,
        tool_name: &str,
        tool_input: Option<&Value>,
        tool_call_id: Option<&str>,
    ) -> Result<PreToolHookOutcome> {
        let input = serde_json::json!({"tool_name": tool_name, "tool_input": tool_input, "tool_call_id": tool_call_id});
        expect_outcome!(self.run_event(HookEvent::PreToolUse, input).await?, PreToolUse)
    }

    /// PostToolUse.
    pub async fn run_post_tool_use(
        &self,
        tool_name: &str,
        tool_input: Option<&Value>,
        tool_response: &Value,
        tool_call_id: Option<&str>,
    ) -> Result<PostToolHookOutcome> {
        let input = serde_json::json!({"tool_name": tool_name, "tool_input": tool_input, "tool_response": tool_response, "tool_call_id": tool_call_id});
        expect_outcome!(self.run_event(HookEvent::PostToolUse, input).await?, PostToolUse)
    }

    /// PostToolUseFailure.
    pub async fn run_post_tool_use_failure(
        &self,
        tool_name: &str,
        tool_input: Option<&Value>,
        tool_call_id: Option<&str>,
        error: &str,
    ) -> Result<PostToolHookOutcome> {
        let input = serde_json::json!({"tool_name": tool_name, "tool_input": tool_input, "tool_call_id": tool_call_id, "error": error});
        expect_outcome!(self.run_event(HookEvent::PostToolUseFailure, input).await?, PostToolUse)
    }

    /// PreCompact.
    pub async fn run_pre_compact(
        &self,
        trigger: CompactionTrigger,
        mode: CompactionMode,
        original_message_count: u64,
        compacted_message_count: u64,
        history_artifact_path: Option<&str>,
    ) -> Result<CommonOutcome> {
        let input = serde_json::json!({
            "trigger": trigger.as_str(), "mode": mode.as_str(),
            "original_message_count": original_message_count, "compacted_message_count": compacted_message_count,
            "history_artifact_path": history_artifact_path,
        });
        common_outcome(self.run_event(HookEvent::PreCompact, input).await?)
    }

    /// Notification.
    pub async fn run_notification(&self, notification_type: &str, title: &str, message: &str) -> Result<CommonOutcome> {
        let input = serde_json::json!({"notification_type": notification_type, "title": title, "message": message});
        expect_outcome!(self.run_event(HookEvent::Notification, input).await?, Other)
    }

    /// Stop.
    pub async fn run_stop(&self, last_assistant_message: &str, stop_hook_active: bool) -> Result<StopHookOutcome> {
        let input =
            serde_json::json!({"last_assistant_message": last_assistant_message, "stop_hook_active": stop_hook_active});
        expect_outcome!(self.run_event(HookEvent::Stop, input).await?, Stop)
    }
}
