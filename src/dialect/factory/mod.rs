//! The Factory Droid dialect (`factory`): Droid's hooks, a profile of Claude
//! Code's (docs.factory.ai `harness/hooks`, `reference/hooks-reference`).
//!
//! What differs from Claude Code, all here:
//!
//! - files: `.factory/hooks.json` and `~/.factory/hooks.json` are the bare
//!   event map (no `hooks` wrapper); the legacy `.factory/hooks/hooks.json`
//!   is read only when `.factory/hooks.json` is absent; `settings.json` and
//!   `settings.local.json` in `.factory/` (and `~/.factory/settings.json`)
//!   wrap the map in `hooks`;
//! - `hooksDisabled: true` turns every hook off (Claude Code's
//!   `disableAllHooks`);
//! - only `command` hooks run: another handler type is skipped and
//!   reported;
//! - `FACTORY_PROJECT_DIR` (the project directory) and, for a plugin's
//!   hooks, `DROID_PLUGIN_ROOT`;
//! - Droid's tool names (`Execute`, `Create`, `Edit`, `Read`, `ApplyPatch`,
//!   `Glob`, `Grep`, `Task`, `FetchUrl`, `WebSearch`).
//!
//! Everything else is Claude Code's: events, matchers, the payload, exit
//! codes, the reader (the deprecated `approve`/`block` included).

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::claude::CLAUDE;
use super::tools::{McpNames, ToolName, ToolVocabulary};
use super::{Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::{type_name, DisableAllHooks, HooksConfig, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::outcome::HookKind;
use crate::model::reply::HookReply;
use crate::model::rules::{Column, Profile};

/// The Factory Droid dialect (see the module documentation).
#[derive(Debug)]
pub struct Factory;

/// The Factory Droid dialect's value.
pub static FACTORY: Factory = Factory;

/// Claude Code's rules under Droid's name.
pub static PROFILE: Profile = Profile { name: "factory", ..super::claude::RULES };

/// Droid's tools.
const TOOLS: &[&str] =
    &["Execute", "Create", "Edit", "Read", "ApplyPatch", "Glob", "Grep", "Task", "FetchUrl", "WebSearch", "LS"];

/// Claude Code's names of Droid's tools.
static TOOL_VOCABULARY: ToolVocabulary = ToolVocabulary {
    names: &[
        ToolName::new("Bash", "Execute"),
        ToolName::new("Write", "Create"),
        ToolName::new("Edit", "Edit"),
        ToolName::new("MultiEdit", "Edit"),
        ToolName::new("Read", "Read"),
        ToolName::new("Glob", "Glob"),
        ToolName::new("Grep", "Grep"),
        ToolName::new("LS", "LS"),
        ToolName::new("Task", "Task"),
        ToolName::new("WebFetch", "FetchUrl"),
        ToolName::new("WebSearch", "WebSearch"),
    ],
    mcp: McpNames::CANONICAL,
};

/// The variables Droid's hooks get from the engine.
const ENV_NAMES: &[&str] = &["FACTORY_PROJECT_DIR", "DROID_PLUGIN_ROOT"];

/// Whether `path` is a bare event map: `hooks.json` in `.factory/` (or
/// the legacy `.factory/hooks/hooks.json`).
fn is_bare_file(path: Option<&Path>) -> bool {
    path.is_some_and(|p| p.file_name().is_some_and(|n| n == "hooks.json"))
}

/// The root `.factory/hooks.json` next to a legacy `.factory/hooks/hooks.json`.
fn root_of_legacy(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    let factory = dir.parent()?;
    (dir.file_name()? == "hooks" && factory.file_name()? == ".factory").then(|| factory.join("hooks.json"))
}

impl Dialect for Factory {
    fn name(&self) -> &'static str {
        "factory"
    }

    fn title(&self) -> &'static str {
        "Factory Droid"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// No source says how Droid starts a hook on Windows: hookline uses
    /// PowerShell (`-NoProfile -Command`), which every Windows has.
    fn windows_shell(&self) -> crate::config::windows_shell::WindowsShell {
        crate::config::windows_shell::WindowsShell::POWERSHELL
    }

    /// `hooks.json`, `settings.json` and `settings.local.json` in a
    /// `.factory` directory, and the legacy `.factory/hooks/hooks.json`.
    fn recognises_path(&self, path: &Path) -> bool {
        let (name, parent) = crate::dialect::file_and_dir_names(path);
        (parent == ".factory" && matches!(name, "hooks.json" | "settings.json" | "settings.local.json"))
            || root_of_legacy(path).is_some() && name == "hooks.json"
    }

    /// A `hooks.json` is the event map itself; a settings file has it under
    /// `hooks` (and may say `hooksDisabled`). The hooks are read by Claude
    /// Code's reader; hooks of another type than `command` are skipped.
    fn read_json(&self, value: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        let Value::Object(top) = value else {
            return Err(Error::invalid_config(format!(
                "a Factory Droid hooks file must be a JSON object, got {}",
                type_name(value)
            )));
        };
        let mut cfg = HooksConfig::empty_of(&FACTORY);
        if let Some(root) = info.path.as_deref().and_then(root_of_legacy).filter(|r| r.is_file()) {
            cfg.push_warning(
                "hooks",
                format!("not read: {} exists, and Droid reads the legacy file only without it", root.display()),
            );
            return Ok(cfg);
        }
        let hooks = if is_bare_file(info.path.as_deref()) || !top.contains_key("hooks") && info.path.is_none() {
            value.clone()
        } else {
            match top.get("hooks") {
                Some(hooks) => hooks.clone(),
                None => Value::Object(Map::new()),
            }
        };
        let mut read = CLAUDE.read_json(&json!({ "hooks": hooks }), info)?.relabel(&FACTORY);
        let other_types: Vec<(String, &'static str)> = read
            .all_groups()
            .flat_map(|g| &g.hooks)
            .filter(|h| h.handler.kind() != HookKind::Command)
            .map(|h| (h.path.clone(), h.handler.kind().as_str()))
            .collect();
        for (path, kind) in other_types {
            read.push_never_runs(path, format!("Droid runs only command hooks; this {kind} hook is skipped"));
        }
        match top.get("hooksDisabled") {
            None | Some(Value::Null) => {}
            Some(Value::Bool(value)) => {
                read.set_disable_all_hooks(DisableAllHooks { value: *value, trusted: info.trusted })
            }
            Some(other) => read.push_skipped(
                "hooksDisabled",
                format!("hooksDisabled must be a boolean, got {}; it is ignored", type_name(other)),
            ),
        }
        Ok(read)
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        CLAUDE.event_keys(event)
    }

    fn match_subject<'a>(&self, event: &RunEvent, input: &'a Value, trigger: &'a str) -> Option<&'a str> {
        CLAUDE.match_subject(event, input, trigger)
    }

    fn match_subject_field(&self, event: &RunEvent) -> Option<&'static str> {
        CLAUDE.match_subject_field(event)
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

    /// `FACTORY_PROJECT_DIR`: the project directory.
    fn environment(&self, _event: &RunEvent, facts: &SessionFacts<'_>, add: &mut dyn FnMut(&'static str, &str)) {
        add("FACTORY_PROJECT_DIR", facts.cwd);
    }

    fn environment_names(&self) -> &'static [&'static str] {
        ENV_NAMES
    }

    fn placeholders(&self) -> &'static [Placeholder] {
        &[
            Placeholder { name: "FACTORY_PROJECT_DIR", value: PlaceholderValue::ProjectDir },
            Placeholder { name: "DROID_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot },
        ]
    }

    fn plugin_root_variables(&self) -> &'static [&'static str] {
        &["DROID_PLUGIN_ROOT"]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        CLAUDE.read_reply(cx, exec)
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        super::protocol::honours(PROFILE.family_of(event))
    }

    /// "Only `command` is supported" (callback hooks are the host's).
    fn supports(&self, kind: HookKind, event: &RunEvent) -> bool {
        matches!(kind, HookKind::Command | HookKind::Callback) && CLAUDE.supports(kind, event)
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
        &[".factory/hooks.json", ".factory/hooks/hooks.json", ".factory/settings.json", ".factory/settings.local.json"]
    }

    /// `~/.factory/hooks.json`, then `~/.factory/settings.json`.
    fn user_files(&self, home: &Path) -> Vec<PathBuf> {
        vec![home.join(".factory").join("hooks.json"), home.join(".factory").join("settings.json")]
    }

    /// A plugin's `hooks/hooks.json` other than Droid's legacy project file.
    fn plugin_root_of(&self, path: &Path) -> Option<PathBuf> {
        match root_of_legacy(path) {
            Some(_) => None,
            None => super::plugin_hooks_json_root(path),
        }
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        CLAUDE.group_field_names()
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        CLAUDE.hook_field_names()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factory_files_are_recognised_by_path() {
        assert!(FACTORY.recognises_path(Path::new("/p/.factory/hooks.json")));
        assert!(FACTORY.recognises_path(Path::new("/p/.factory/hooks/hooks.json")));
        assert!(FACTORY.recognises_path(Path::new("/p/.factory/settings.local.json")));
        assert!(!FACTORY.recognises_path(Path::new("/plugins/x/hooks/hooks.json")));
        assert_eq!(
            root_of_legacy(Path::new("/p/.factory/hooks/hooks.json")),
            Some(PathBuf::from("/p/.factory/hooks.json"))
        );
    }
}
