//! The Devin CLI dialect (`devin-cli`): Devin CLI's hooks, a profile of
//! Claude Code's (its docs: "Claude-Code-style format"; docs.devin.ai
//! `cli/extensibility/hooks/overview` and `lifecycle-hooks`). Not Devin
//! Desktop, whose Cascade hooks are the `windsurf` dialect.
//!
//! What differs from Claude Code, all here:
//!
//! - files: `.devin/hooks.v1.json` is the bare event map (**no `hooks`
//!   wrapper**; a wrapped one loads nothing, as in Devin CLI), `.devin/config.json`
//!   and `.devin/config.local.json` wrap it in `hooks`; the user's
//!   `~/.config/devin/config.json` (Windows `%APPDATA%\devin\config.json`);
//!   Devin CLI also reads Claude Code's settings files, which stay Claude
//!   Code's when hookline gathers every dialect's files;
//! - eight events: PreToolUse, PostToolUse, PermissionRequest,
//!   UserPromptSubmit, Stop, SessionStart, SessionEnd and PostCompaction
//!   (fired by name: its `additionalContext` is context);
//! - matchers (a regex on `tool_name`) only on PreToolUse, PostToolUse and
//!   PermissionRequest; the others match every group;
//! - `decision`: `approve`, `block` and `deny` (PermissionRequest's too);
//! - tools `exec`, `edit` and MCP tools `mcp__…`.
//!
//! Everything else is Claude Code's: the reader, exit codes (0 success, 2
//! blocks, others are logged), timeouts in seconds, the payload.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::claude::CLAUDE;
use super::protocol::env::{protocol_environment, PROTOCOL_ENV_NAMES, PROTOCOL_PLACEHOLDERS};
use super::tools::{McpNames, ToolName, ToolVocabulary};
use super::{Dialect, Placeholder, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::{type_name, HooksConfig, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::{Answer, HookExecution};
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{Column, EventRules, MatcherRule, NamedEventRules, Profile, Subject};

/// The Devin CLI dialect (see the module documentation).
#[derive(Debug)]
pub struct DevinCli;

/// The Devin CLI dialect's value.
pub static DEVIN_CLI: DevinCli = DevinCli;

/// Devin CLI's event besides the canonical ones: PostCompaction, whose
/// `hookSpecificOutput.additionalContext` "re-inject[s] post-compaction".
static NAMED: &[NamedEventRules] = &[NamedEventRules {
    name: "PostCompaction",
    family: EventFamily::Context,
    rules: EventRules { json_context_only: true, ..EventRules::NEUTRAL },
    subject: Subject::None,
    matcher: MatcherRule::Standard,
    tool_event: false,
}];

/// Claude Code's rules, with Devin CLI's one event of its own.
pub static PROFILE: Profile = Profile { name: "devin-cli", named: NAMED, ..super::claude::RULES };

/// Devin CLI's tools (the two its docs name).
const TOOLS: &[&str] = &["exec", "edit"];

/// Claude Code's names of Devin CLI's tools.
static TOOL_VOCABULARY: ToolVocabulary =
    ToolVocabulary { names: &[ToolName::new("Bash", "exec"), ToolName::new("Edit", "edit")], mcp: McpNames::CANONICAL };

/// The events Devin CLI has (its keys are Claude Code's names).
fn has(event: HookEvent) -> bool {
    matches!(
        event,
        HookEvent::PreToolUse
            | HookEvent::PostToolUse
            | HookEvent::PermissionRequest
            | HookEvent::UserPromptSubmit
            | HookEvent::Stop
            | HookEvent::SessionStart
            | HookEvent::SessionEnd
    )
}

/// Whether `path` is `.devin/hooks.v1.json` (the bare event map).
fn is_bare_file(path: Option<&Path>) -> bool {
    path.and_then(Path::file_name).is_some_and(|n| n == "hooks.v1.json")
}

/// A reply in Devin CLI's words as Claude Code's: `decision: "deny"` is
/// `block`; PermissionRequest's top-level `decision` (`approve`, `block`,
/// `deny`) is its `hookSpecificOutput.decision.behavior`.
fn normalize(event: &RunEvent, out: &mut Map<String, Value>) -> bool {
    let decision = out.get("decision").and_then(Value::as_str).map(str::to_ascii_lowercase);
    let reason = out.get("reason").and_then(Value::as_str).map(str::to_owned);
    match (event.known(), decision.as_deref()) {
        (Some(HookEvent::PermissionRequest), Some(d @ ("approve" | "allow" | "block" | "deny"))) => {
            let behavior = if matches!(d, "approve" | "allow") { "allow" } else { "deny" };
            let mut inner = json!({ "behavior": behavior });
            if let Some(r) = reason {
                inner["message"] = Value::from(r);
            }
            out.remove("decision");
            out.insert("hookSpecificOutput".into(), json!({ "hookEventName": "PermissionRequest", "decision": inner }));
            true
        }
        (_, Some("deny")) => {
            out.insert("decision".into(), Value::from("block"));
            true
        }
        _ => false,
    }
}

impl Dialect for DevinCli {
    fn name(&self) -> &'static str {
        "devin-cli"
    }

    fn title(&self) -> &'static str {
        "Devin CLI"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// No source says how Devin CLI starts a hook on Windows: hookline uses
    /// PowerShell (`-NoProfile -Command`), which every Windows has.
    fn windows_shell(&self) -> crate::config::windows_shell::WindowsShell {
        crate::config::windows_shell::WindowsShell::POWERSHELL
    }

    /// `.devin/hooks.v1.json`, `.devin/config.json`,
    /// `.devin/config.local.json`, and the user's `devin/config.json`.
    fn recognises_path(&self, path: &Path) -> bool {
        let (name, parent) = crate::dialect::file_and_dir_names(path);
        (parent == ".devin" && matches!(name, "hooks.v1.json" | "config.json" | "config.local.json"))
            || (parent == "devin" && name == "config.json")
    }

    /// `.devin/hooks.v1.json` is the event map itself: a file with a
    /// `hooks` key there loads nothing (with a warning); every other file
    /// has its hooks under `hooks` (none without it). The hooks are read by
    /// Claude Code's reader; an event Devin CLI does not have is reported.
    fn read_json(&self, value: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        let Value::Object(top) = value else {
            return Err(Error::invalid_config(format!(
                "a Devin CLI hooks file must be a JSON object, got {}",
                type_name(value)
            )));
        };
        let hooks = if is_bare_file(info.path.as_deref()) {
            if top.contains_key("hooks") {
                let mut cfg = HooksConfig::empty_of(&DEVIN_CLI);
                cfg.push_skipped(
                    "hooks",
                    ".devin/hooks.v1.json has no `hooks` wrapper: its top level is the event map; Devin CLI \
                     loads nothing from a wrapped file (move the events to the top level)",
                );
                return Ok(cfg);
            }
            value.clone()
        } else {
            match top.get("hooks") {
                Some(hooks) => hooks.clone(),
                None => return Ok(HooksConfig::empty_of(&DEVIN_CLI)),
            }
        };
        let wrapped = json!({ "hooks": hooks });
        let mut cfg = CLAUDE.read_json(&wrapped, info)?.relabel(&DEVIN_CLI);
        cfg.retain_warnings(|w| !(w.never_runs && w.path == "hooks.PostCompaction"));
        for event in HookEvent::ALL.into_iter().filter(|e| !has(*e)) {
            if !cfg.groups(event).is_empty() {
                cfg.push_never_runs(
                    format!("hooks.{}", event.name()),
                    format!("Devin CLI has no {} event: its hooks never run in Devin CLI", event.name()),
                );
            }
        }
        Ok(cfg)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        if has(event) {
            CLAUDE.event_keys(event)
        } else {
            &[]
        }
    }

    /// "Matcher = regex on `tool_name`, only for PreToolUse, PostToolUse,
    /// PermissionRequest": the other events match every group.
    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, trigger: &'a str) -> Option<&'a str> {
        match event.known() {
            Some(HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PermissionRequest) => {
                CLAUDE.match_subject(event, input, trigger)
            }
            _ => None,
        }
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        match event.known() {
            Some(HookEvent::PreToolUse | HookEvent::PostToolUse | HookEvent::PermissionRequest) => Some("tool_name"),
            _ => None,
        }
    }

    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Map<String, Value> {
        CLAUDE.payload(event, facts, input, tool_input)
    }

    /// Claude Code's variables (`CLAUDE_PROJECT_DIR`, …): Devin CLI runs
    /// the hooks of Claude Code's settings files too, and names no
    /// variables of its own.
    fn environment(&self, event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        protocol_environment(event, facts, add)
    }

    fn environment_names(&self) -> &'static [&'static str] {
        PROTOCOL_ENV_NAMES
    }

    fn placeholders(&self) -> &'static [Placeholder] {
        PROTOCOL_PLACEHOLDERS
    }

    /// Claude Code's reader, after Devin CLI's decision words are put in
    /// Claude Code's (`normalize`).
    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        if matches!(exec.answer, Answer::Exited) && !exec.timed_out {
            if let Ok(Value::Object(mut out)) = serde_json::from_str::<Value>(exec.stdout.trim()) {
                if normalize(cx.event, &mut out) {
                    let said = HookExecution { stdout: Value::Object(out).to_string(), ..exec.clone() };
                    return CLAUDE.read_reply(cx, &said);
                }
            }
        }
        CLAUDE.read_reply(cx, exec)
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        super::protocol::honours(PROFILE.family_of(event))
    }

    fn supports(&self, kind: crate::model::outcome::HookKind, event: &RunEvent) -> bool {
        CLAUDE.supports(kind, event)
    }

    fn describe_matcher(&self, matcher: &Matcher, raw: Option<&str>) -> String {
        matcher.describe(self.title(), false, raw)
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn tool_vocabulary(&self) -> &'static ToolVocabulary {
        &TOOL_VOCABULARY
    }

    fn workspace_files(&self) -> &'static [&'static str] {
        &[".devin/hooks.v1.json", ".devin/config.json", ".devin/config.local.json"]
    }

    /// `~/.config/devin/config.json` (Windows: `%APPDATA%\devin\config.json`).
    fn user_files(&self, home: &Path) -> Vec<PathBuf> {
        match std::env::var_os("APPDATA").filter(|_| cfg!(windows)) {
            Some(appdata) => vec![PathBuf::from(appdata).join("devin").join("config.json")],
            None => vec![home.join(".config").join("devin").join("config.json")],
        }
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        CLAUDE.group_field_names()
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        CLAUDE.hook_field_names()
    }

    fn native_event_keys(&self) -> &'static [&'static str] {
        &["PostCompaction"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devin_files_are_recognised_by_path() {
        assert!(DEVIN_CLI.recognises_path(Path::new("/p/.devin/hooks.v1.json")));
        assert!(DEVIN_CLI.recognises_path(Path::new("/p/.devin/config.local.json")));
        assert!(DEVIN_CLI.recognises_path(Path::new("/home/u/.config/devin/config.json")));
        assert!(!DEVIN_CLI.recognises_path(Path::new("/p/.devin/hooks.json")), "Devin Desktop's (Cascade)");
    }
}
