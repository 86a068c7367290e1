//! The payload a Codex hook reads on stdin: exactly the fields Codex sends,
//! in Codex's order (openai/codex `codex-rs/hooks/src/schema.rs`, whose
//! input structs deny unknown fields), written as compact JSON without a
//! trailing newline. Nothing else of the host's input is passed on.
//!
//! | event | fields |
//! |---|---|
//! | PreToolUse | `session_id, turn_id, [agent_id, agent_type], transcript_path, cwd, hook_event_name, model, permission_mode, tool_name, tool_input, tool_use_id` |
//! | PermissionRequest | the same without `tool_use_id` |
//! | PostToolUse | PreToolUse's with `tool_response` before `tool_use_id` |
//! | PreCompact, PostCompact | `session_id, turn_id, [agent_id, agent_type], transcript_path, cwd, hook_event_name, model, trigger` |
//! | SessionStart | `session_id, transcript_path, cwd, hook_event_name, model, permission_mode, source` |
//! | SessionEnd | `session_id, transcript_path, cwd, hook_event_name, reason` (always `"other"`) |
//! | SubagentStart | `session_id, turn_id, transcript_path, cwd, hook_event_name, model, permission_mode, agent_id, agent_type` |
//! | UserPromptSubmit | `session_id, turn_id, [agent_id, agent_type], transcript_path, cwd, hook_event_name, model, permission_mode, prompt` |
//! | Stop | `session_id, turn_id, transcript_path, cwd, hook_event_name, model, permission_mode, stop_hook_active, last_assistant_message` |
//! | SubagentStop | `session_id, turn_id, transcript_path, agent_transcript_path, cwd, hook_event_name, model, permission_mode, stop_hook_active, agent_id, agent_type, last_assistant_message` |
//!
//! Where the values come from: `session_id`, `cwd` and `transcript_path`
//! are the engine's (subagent hooks get the parent session's, as in Codex);
//! the rest are the input's fields of the same name, with these defaults
//! and canonical fallbacks: `turn_id`, `model`, `prompt` `""`;
//! `permission_mode` `"default"` (Codex sends `default` or
//! `bypassPermissions`); `tool_use_id` ← `tool_call_id` (`""` when absent);
//! `tool_input`, `tool_response`, `last_assistant_message` null;
//! `stop_hook_active` false; `source` ← the session trigger (`new_session`
//! is Codex's `clear`); `agent_id` ← `child_thread_id`, `agent_type` ←
//! `agent_name` on the subagent events; `agent_transcript_path` ← the
//! input's `transcript_path` (the child's). `agent_id`/`agent_type` appear on
//! the turn events only when the input carries them (a hook running inside
//! a subagent). Events Codex does not have keep the hooks protocol's
//! payload.

use serde_json::{Map, Value};

use crate::dialect::protocol;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::{SessionFacts, SessionStartTrigger};

/// Codex's payload of `event`.
pub(super) fn payload(
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
) -> Map<String, Value> {
    let b = Builder { facts, input, out: Map::with_capacity(14) };
    match event {
        RunEvent::Known(e) => b.known(*e, tool_input),
        RunEvent::Named(name) if &**name == super::POST_COMPACT => b.compact(name),
        RunEvent::Named(_) => protocol::payload::payload(event, facts, input, tool_input),
    }
}

struct Builder<'a> {
    facts: &'a SessionFacts<'a>,
    input: &'a Map<String, Value>,
    out: Map<String, Value>,
}

impl Builder<'_> {
    fn put(&mut self, key: &str, value: Value) {
        self.out.insert(key.to_owned(), value);
    }

    /// An input string, else `default`.
    fn text(&mut self, key: &str, default: &str) {
        let value = self.string_of(key).unwrap_or(default).to_owned();
        self.put(key, Value::String(value));
    }

    fn string_of(&self, key: &str) -> Option<&str> {
        self.input.get(key).and_then(Value::as_str)
    }

    /// An input value as given, else null.
    fn any(&mut self, key: &str) {
        let value = self.input.get(key).cloned().unwrap_or(Value::Null);
        self.put(key, value);
    }

    fn session(&mut self) {
        self.put("session_id", Value::String(self.facts.session_id.to_owned()));
    }

    fn transcript(&mut self) {
        let t = self.facts.transcript_path.map_or(Value::Null, |t| Value::String(t.to_owned()));
        self.put("transcript_path", t);
    }

    fn cwd_and_name(&mut self, name: &str) {
        self.put("cwd", Value::String(self.facts.cwd.to_owned()));
        self.put("hook_event_name", Value::String(name.to_owned()));
    }

    /// `agent_id` / `agent_type` of a hook running inside a subagent.
    fn subagent_fields(&mut self) {
        for key in ["agent_id", "agent_type"] {
            if let Some(v) = self.string_of(key) {
                let v = v.to_owned();
                self.put(key, Value::String(v));
            }
        }
    }

    /// `agent_id` / `agent_type` of the subagent events (always present).
    fn agent(&mut self) {
        let id = self.string_of("agent_id").or_else(|| self.string_of("child_thread_id")).unwrap_or("").to_owned();
        let kind = self.string_of("agent_type").or_else(|| self.string_of("agent_name")).unwrap_or("").to_owned();
        self.put("agent_id", Value::String(id));
        self.put("agent_type", Value::String(kind));
    }

    fn model_and_mode(&mut self) {
        self.text("model", "");
        self.text("permission_mode", "default");
    }

    /// The turn events' head: session, turn, subagent, transcript, cwd, name, model.
    fn turn_head(&mut self, name: &str) {
        self.session();
        self.text("turn_id", "");
        self.subagent_fields();
        self.transcript();
        self.cwd_and_name(name);
        self.text("model", "");
    }

    fn tool(&mut self, tool_input: Option<&Value>) {
        self.text("permission_mode", "default");
        self.text("tool_name", "");
        let ti = tool_input.or_else(|| self.input.get("tool_input")).cloned().unwrap_or(Value::Null);
        self.put("tool_input", ti);
    }

    fn tool_use_id(&mut self) {
        let id = self.string_of("tool_call_id").or_else(|| self.string_of("tool_use_id")).unwrap_or("").to_owned();
        self.put("tool_use_id", Value::String(id));
    }

    fn stop_fields(&mut self) {
        let active = self.input.get("stop_hook_active").and_then(Value::as_bool).unwrap_or(false);
        self.put("stop_hook_active", Value::Bool(active));
    }

    fn last_message(&mut self) {
        let m = self.string_of("last_assistant_message").map_or(Value::Null, |m| Value::String(m.to_owned()));
        self.put("last_assistant_message", m);
    }

    fn compact(mut self, name: &str) -> Map<String, Value> {
        self.turn_head(name);
        self.text("trigger", "");
        self.out
    }

    fn known(mut self, event: HookEvent, tool_input: Option<&Value>) -> Map<String, Value> {
        let name = event.name();
        match event {
            HookEvent::PreToolUse => {
                self.turn_head(name);
                self.tool(tool_input);
                self.tool_use_id();
            }
            HookEvent::PermissionRequest => {
                self.turn_head(name);
                self.tool(tool_input);
            }
            HookEvent::PostToolUse => {
                self.turn_head(name);
                self.tool(tool_input);
                self.any("tool_response");
                self.tool_use_id();
            }
            HookEvent::PreCompact => return self.compact(name),
            HookEvent::SessionStart => {
                self.session();
                self.transcript();
                self.cwd_and_name(name);
                self.model_and_mode();
                self.put("source", Value::String(source(self.facts.trigger).to_owned()));
            }
            HookEvent::SessionEnd => {
                self.session();
                self.transcript();
                self.cwd_and_name(name);
                self.put("reason", Value::String(super::SESSION_END_REASON.to_owned()));
            }
            HookEvent::SubagentStart => {
                self.session();
                self.text("turn_id", "");
                self.transcript();
                self.cwd_and_name(name);
                self.model_and_mode();
                self.agent();
            }
            HookEvent::UserPromptSubmit => {
                self.turn_head(name);
                self.text("permission_mode", "default");
                self.text("prompt", "");
            }
            HookEvent::Stop => {
                self.session();
                self.text("turn_id", "");
                self.transcript();
                self.cwd_and_name(name);
                self.model_and_mode();
                self.stop_fields();
                self.last_message();
            }
            HookEvent::SubagentStop => {
                self.session();
                self.text("turn_id", "");
                self.transcript();
                let child = self
                    .string_of("agent_transcript_path")
                    .or_else(|| self.string_of("transcript_path"))
                    .map_or(Value::Null, |t| Value::String(t.to_owned()));
                self.put("agent_transcript_path", child);
                self.cwd_and_name(name);
                self.model_and_mode();
                self.stop_fields();
                self.agent();
                self.last_message();
            }
            HookEvent::Notification | HookEvent::PostToolUseFailure => {
                return protocol::payload::build_payload(event, self.facts, self.input, tool_input)
            }
        }
        self.out
    }
}

/// SessionStart's `source` (and its matcher subject): the trigger, with
/// `new_session` as Codex's `clear`.
pub(super) fn source(trigger: &str) -> &str {
    if trigger == SessionStartTrigger::NewSession.as_str() {
        "clear"
    } else {
        trigger
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn facts() -> SessionFacts<'static> {
        SessionFacts { session_id: "s-1", cwd: "/ws", transcript_path: Some("/t.jsonl"), trigger: "resume" }
    }

    fn keys(event: RunEvent, input: Value) -> Vec<String> {
        payload(&event, &facts(), input.as_object().unwrap(), None).keys().cloned().collect()
    }

    #[test]
    fn pre_tool_use_payload_is_exactly_codexs_fields_in_codexs_order() {
        let input = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_call_id": "c1",
            "turn_id": "t1", "model": "gpt-5", "permission_mode": "bypassPermissions", "extra": 1});
        assert_eq!(
            keys(RunEvent::Known(HookEvent::PreToolUse), input.clone()),
            [
                "session_id",
                "turn_id",
                "transcript_path",
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "tool_name",
                "tool_input",
                "tool_use_id"
            ]
        );
        let p = payload(&RunEvent::Known(HookEvent::PreToolUse), &facts(), input.as_object().unwrap(), None);
        assert_eq!(p["tool_use_id"], "c1");
        assert_eq!(p["permission_mode"], "bypassPermissions");
        assert!(!p.contains_key("extra"), "nothing else of the input is passed on");
    }

    #[test]
    fn subagent_fields_appear_only_inside_a_subagent() {
        let input = json!({"tool_name": "Bash", "agent_id": "a1", "agent_type": "explorer"});
        assert_eq!(
            keys(RunEvent::Known(HookEvent::PermissionRequest), input),
            [
                "session_id",
                "turn_id",
                "agent_id",
                "agent_type",
                "transcript_path",
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "tool_name",
                "tool_input"
            ]
        );
    }

    /// Codex's `pre_compact_input_includes_lifecycle_metadata`: "PreCompact
    /// / PostCompact: `session_id, turn_id, [agent_id, agent_type],
    /// transcript_path, cwd, hook_event_name, model, trigger` — no
    /// `permission_mode`".
    #[test]
    fn pre_compact_input_includes_lifecycle_metadata() {
        let input = json!({"trigger": "manual", "mode": "local", "turn_id": "t", "model": "m"});
        let expected = ["session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "trigger"];
        assert_eq!(keys(RunEvent::Known(HookEvent::PreCompact), input.clone()), expected);
        assert_eq!(keys(RunEvent::Named("PostCompact".into()), input), expected);
    }

    #[test]
    fn session_end_reason_is_always_other_and_carries_no_model() {
        let p = payload(
            &RunEvent::Known(HookEvent::SessionEnd),
            &facts(),
            json!({"reason": "exit"}).as_object().unwrap(),
            None,
        );
        assert_eq!(
            Value::Object(p),
            json!({"session_id": "s-1", "transcript_path": "/t.jsonl", "cwd": "/ws",
            "hook_event_name": "SessionEnd", "reason": "other"})
        );
    }

    #[test]
    fn subagent_stop_carries_the_parent_and_the_child_transcripts() {
        let input = json!({"agent_name": "explorer", "child_thread_id": "c7", "transcript_path": "/child.jsonl",
            "stop_hook_active": true, "last_assistant_message": "done"});
        let p = payload(&RunEvent::Known(HookEvent::SubagentStop), &facts(), input.as_object().unwrap(), None);
        assert_eq!(
            p.keys().collect::<Vec<_>>(),
            [
                "session_id",
                "turn_id",
                "transcript_path",
                "agent_transcript_path",
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "stop_hook_active",
                "agent_id",
                "agent_type",
                "last_assistant_message"
            ]
        );
        assert_eq!((&p["transcript_path"], &p["agent_transcript_path"]), (&json!("/t.jsonl"), &json!("/child.jsonl")));
        assert_eq!((&p["agent_id"], &p["agent_type"]), (&json!("c7"), &json!("explorer")));
    }

    #[test]
    fn session_start_source_is_the_trigger_and_new_session_is_clear() {
        assert_eq!(source("new_session"), "clear");
        assert_eq!(source("compact"), "compact");
        assert_eq!(
            keys(RunEvent::Known(HookEvent::SessionStart), json!({})),
            ["session_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "source"]
        );
    }
}
