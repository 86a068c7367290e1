//! Cascade's `hooks.json`: `{"hooks": {"<event>": [<entry>, …]}}`, a flat
//! array of entries per snake_case event (no matcher groups, no matcher, no
//! timeout, no type).
//!
//! An entry: `{"command": <bash>, "powershell": <script>, "show_output":
//! bool, "working_directory": <dir>}`. Which script runs: on POSIX
//! systems `command` in `bash -c`, and an entry with only `powershell` is
//! skipped (Cascade skips it silently; hookline reports it); on Windows
//! `powershell` when set, else `command`, in `powershell -Command`; an
//! entry with neither rejects the file (Cascade's validation error).
//! `working_directory` is where the hook runs, relative to the workspace
//! root, which is the default.
//!
//! What rejects the file (`InvalidConfig` naming the entry): a top level or
//! `hooks` that is not an object, an event value that is not an array, an
//! entry that is not an object or has neither script, a field of the wrong
//! type. What is reported and otherwise ignored: an event key Cascade does
//! not have (a Claude Code key gets a hint), unknown top-level keys and
//! unknown entry fields (`matcher`, `timeout`, `type` mean nothing to
//! Cascade: it runs every hook of its event).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{is_event, IN_TOOL_EVENTS, NATIVE_KEYS, PRE_USER_PROMPT};
use crate::config::matcher::Matcher;
use crate::config::{type_name, HandlerSpec, HookGroup, HookSpec, HooksConfig, Launch, Shell, Source, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::HookEvent;

/// The fields of a Cascade hook entry.
pub(crate) const FIELDS: &[&str] = &["command", "powershell", "show_output", "working_directory"];

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

/// Read a Cascade `hooks.json` (see the module documentation).
pub(crate) fn read(v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    read_for(v, info, cfg!(windows))
}

/// [`read`] as on Windows (`windows`) or a POSIX system.
pub(crate) fn read_for(v: &Value, info: &SourceInfo, windows: bool) -> Result<HooksConfig> {
    let Value::Object(top) = v else {
        return Err(cfg_err(format!("a Cascade hooks.json must be a JSON object, got {}", type_name(v))));
    };
    let mut cfg = HooksConfig::empty_of(&super::WINDSURF);
    for key in top.keys().filter(|k| k.as_str() != "hooks") {
        cfg.push_warning(key.as_str(), format!("unknown top-level key `{key}` (Cascade reads `hooks`); ignored"));
    }
    let hooks = match top.get("hooks") {
        None | Some(Value::Null) => return Ok(cfg),
        Some(Value::Object(hooks)) => hooks,
        Some(other) => return Err(cfg_err(format!("hooks must be an object, got {}", type_name(other)))),
    };
    let source = Arc::new(Source { cwd: run_dir(info.path.as_deref()), ..Source::new(info.clone(), false) });
    for (key, value) in hooks {
        if !is_event(key) {
            cfg.push_never_runs(format!("hooks.{key}"), unknown_event(key));
            continue;
        }
        let Value::Array(items) = value else {
            return Err(cfg_err(format!("hooks.{key} must be an array of hooks, got {}", type_name(value))));
        };
        let mut groups = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let path = format!("hooks.{key}[{i}]");
            if let Some(hook) = parse_entry(&mut cfg, &source, &path, item, windows)? {
                groups.push(HookGroup {
                    matcher_raw: None,
                    matcher: Matcher::All,
                    sequential: false,
                    hooks: vec![hook],
                });
            }
        }
        if key == PRE_USER_PROMPT {
            cfg.push_groups(HookEvent::UserPromptSubmit, groups);
            continue;
        }
        if let Some((native, event)) = IN_TOOL_EVENTS.iter().find(|(n, _)| *n == key.as_str()) {
            let in_tool_event = groups.iter().map(|g| HookGroup {
                hooks: g.hooks.iter().map(|h| HookSpec { native_event: Some(native), ..h.clone() }).collect(),
                ..g.clone()
            });
            cfg.push_groups(*event, in_tool_event.collect::<Vec<_>>());
        }
        cfg.push_named(key, groups);
    }
    Ok(cfg)
}

/// The warning for an event key Cascade does not have.
fn unknown_event(key: &str) -> String {
    let hint = match (HookEvent::from_name(key), crate::suggest::closest(key, NATIVE_KEYS.iter().copied())) {
        (Some(HookEvent::UserPromptSubmit), _) => format!("; Cascade's name for `{key}` is `{PRE_USER_PROMPT}`"),
        (Some(HookEvent::PreToolUse), _) => "; Cascade has no generic tool event: use pre_run_command, \
                                             pre_read_code, pre_write_code or pre_mcp_tool_use"
            .to_owned(),
        (Some(HookEvent::PostToolUse), _) => "; Cascade has no generic tool event: use post_run_command, \
                                              post_read_code, post_write_code or post_mcp_tool_use"
            .to_owned(),
        (Some(_), _) => format!("; `{key}` is a Claude Code event Cascade does not have"),
        (None, Some(k)) => format!("; did you mean `{k}`?"),
        (None, None) => String::new(),
    };
    format!("unknown Cascade hook event `{key}`: its hooks never run{hint}")
}

/// The directory a source's hooks run in: the workspace root above a
/// workspace's `.windsurf/` or `.devin/`; the workspace (`None`) for every
/// other file.
fn run_dir(path: Option<&Path>) -> Option<PathBuf> {
    let dir = path?.parent()?;
    if dir.file_name().is_some_and(|n| n == ".windsurf" || n == ".devin") {
        let root = dir.parent()?;
        return Some(if root.as_os_str().is_empty() { PathBuf::from(".") } else { root.to_owned() });
    }
    None
}

/// A string field: `None` when absent or null.
fn string(obj: &Map<String, Value>, path: &str, key: &str) -> Result<Option<String>> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(cfg_err(format!("{path}.{key} must be a string, got {}", type_name(other)))),
    }
}

fn parse_entry(
    cfg: &mut HooksConfig,
    source: &Arc<Source>,
    path: &str,
    v: &Value,
    windows: bool,
) -> Result<Option<HookSpec>> {
    let Value::Object(obj) = v else {
        return Err(cfg_err(format!("{path} must be an object, got {}", type_name(v))));
    };
    let nonblank = |s: Option<String>| s.filter(|s| !s.trim().is_empty());
    let command = nonblank(string(obj, path, "command")?);
    let powershell = nonblank(string(obj, path, "powershell")?);
    let working_directory = string(obj, path, "working_directory")?.filter(|d| !d.is_empty());
    match obj.get("show_output") {
        None | Some(Value::Null) | Some(Value::Bool(_)) => {}
        Some(other) => {
            return Err(cfg_err(format!("{path}.show_output must be a boolean, got {}", type_name(other))));
        }
    }
    for key in obj.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
        let hint = crate::suggest::closest(key, FIELDS.iter().copied())
            .map(|f| format!("; did you mean `{f}`?"))
            .unwrap_or_default();
        let why = match key.as_str() {
            "matcher" => "Cascade has no matchers: the hook runs on every occurrence of its event",
            "timeout" => "Cascade has no per-hook timeout",
            _ => "ignored",
        };
        cfg.push_warning(format!("{path}.{key}"), format!("Cascade does not read the field `{key}`: {why}{hint}"));
    }
    let script = match (windows, command, powershell) {
        (_, None, None) => {
            if obj.contains_key("hooks") {
                return Err(cfg_err(format!(
                    "{path} has no `command`: Cascade's hooks are flat objects (`{{\"command\": …}}`), not Claude \
                     Code matcher groups with `hooks`"
                )));
            }
            return Err(cfg_err(format!("{path} must specify a command or a powershell script")));
        }
        (true, _, Some(ps)) => ps,
        (_, Some(command), _) => command,
        (false, None, Some(_)) => {
            cfg.push_skipped(
                path,
                "the entry has only a `powershell` script, which Cascade runs on Windows only: on this system it \
                 is skipped (add a `command`)",
            );
            return Ok(None);
        }
    };
    let hook = HookSpec {
        handler: HandlerSpec::Command {
            command: script,
            args: None,
            shell: Shell::Sh,
            launch: Launch { cwd: working_directory, ..Launch::default() },
        },
        timeout_seconds: None,
        default_timeout: super::PROFILE.default_timeout,
        if_rule: None,
        run_async: false,
        async_rewake: false,
        status_message: None,
        fail_closed: false,
        name: None,
        env: Vec::new(),
        native_event: None,
        loop_limit: None,
        path: path.to_owned(),
        source: source.clone(),
    };
    Ok(Some(hook))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_value(v: Value, windows: bool) -> Result<HooksConfig> {
        read_for(&v, &SourceInfo::new(&super::super::WINDSURF), windows)
    }

    /// "POSIX runs `command` via `bash -c`; POSIX with only `powershell`
    /// → silently skipped; Windows runs `powershell` if set, else
    /// `command`, via `powershell -Command`; neither → validation error"
    /// (heywood8/rosetta docs/hooks/windsurf.md).
    #[test]
    fn the_script_is_chosen_per_system() {
        let cfg = json!({"hooks": {"pre_run_command": [
            {"command": "./guard.sh", "powershell": "./guard.ps1"},
            {"powershell": "./only.ps1"},
            {"command": "./posix.sh"}
        ]}});
        let posix = read_value(cfg.clone(), false).unwrap();
        let commands = |c: &HooksConfig| -> Vec<String> {
            c.groups_named("pre_run_command").iter().map(|g| g.hooks[0].command_text().unwrap().to_owned()).collect()
        };
        assert_eq!(commands(&posix), ["./guard.sh", "./posix.sh"]);
        assert!(posix.warnings().iter().any(|w| w.path == "hooks.pre_run_command[1]" && w.entry_skipped));
        let windows = read_value(cfg, true).unwrap();
        assert_eq!(commands(&windows), ["./guard.ps1", "./only.ps1", "./posix.sh"]);
        let e = read_value(json!({"hooks": {"pre_read_code": [{"show_output": true}]}}), false).unwrap_err();
        assert!(e.message.contains("hooks.pre_read_code[0] must specify a command"), "{}", e.message);
    }

    #[test]
    fn pre_user_prompt_is_user_prompt_submit_and_tool_gates_also_run_in_tool_calls() {
        let cfg = read_value(
            json!({"hooks": {
                "pre_user_prompt": [{"command": "p"}],
                "pre_run_command": [{"command": "r"}],
                "post_write_code": [{"command": "w"}],
                "post_cascade_response": [{"command": "c"}]
            }}),
            false,
        )
        .unwrap();
        assert_eq!(cfg.groups(HookEvent::UserPromptSubmit).len(), 1);
        assert_eq!(cfg.groups(HookEvent::PreToolUse)[0].hooks[0].native_event, Some("pre_run_command"));
        assert_eq!(cfg.groups(HookEvent::PostToolUse)[0].hooks[0].native_event, Some("post_write_code"));
        assert_eq!(cfg.groups_named("pre_run_command")[0].hooks[0].native_event, None);
        assert_eq!(cfg.groups_named("post_cascade_response").len(), 1);
        assert_eq!(cfg.groups(HookEvent::Stop).len(), 0);
    }

    #[test]
    fn unknown_events_and_fields_are_reported_not_fatal() {
        let cfg = read_value(
            json!({"hooks": {
                "PreToolUse": [{"command": "x"}],
                "pre_run_comand": [{"command": "y"}],
                "pre_read_code": [{"command": "z", "matcher": "Read", "timeout": 5}]
            }}),
            false,
        )
        .unwrap();
        let w = cfg.warnings();
        assert!(w
            .iter()
            .any(|w| w.path == "hooks.PreToolUse" && w.never_runs && w.message.contains("pre_run_command")));
        assert!(w
            .iter()
            .any(|w| w.path == "hooks.pre_run_comand" && w.message.contains("did you mean `pre_run_command`")));
        assert!(w.iter().any(|w| w.path == "hooks.pre_read_code[0].matcher" && w.message.contains("no matchers")));
        assert!(w.iter().any(|w| w.path == "hooks.pre_read_code[0].timeout"));
        assert_eq!(cfg.groups_named("pre_read_code").len(), 1);
    }

    #[test]
    fn working_directory_is_the_hooks_cwd_workspace_hooks_run_in_the_workspace_root() {
        let cfg =
            read_value(json!({"hooks": {"post_read_code": [{"command": "x", "working_directory": "tools"}]}}), false)
                .unwrap();
        match &cfg.groups_named("post_read_code")[0].hooks[0].handler {
            HandlerSpec::Command { launch, .. } => assert_eq!(launch.cwd.as_deref(), Some("tools")),
            other => panic!("{other:?}"),
        }
        assert_eq!(run_dir(Some(Path::new("/p/.windsurf/hooks.json"))), Some(PathBuf::from("/p")));
        assert_eq!(run_dir(Some(Path::new("/p/.devin/hooks.json"))), Some(PathBuf::from("/p")));
        assert_eq!(run_dir(Some(Path::new("/home/u/.codeium/windsurf/hooks.json"))), None);
    }

    #[test]
    fn bad_shapes_reject_the_file() {
        for bad in [
            json!([]),
            json!({"hooks": []}),
            json!({"hooks": {"pre_run_command": {"command": "x"}}}),
            json!({"hooks": {"pre_run_command": ["x"]}}),
            json!({"hooks": {"pre_run_command": [{"command": 1}]}}),
            json!({"hooks": {"pre_run_command": [{"command": "x", "show_output": "yes"}]}}),
            json!({"hooks": {"pre_run_command": [{"hooks": [{"type": "command", "command": "x"}]}]}}),
        ] {
            assert!(read_value(bad.clone(), false).is_err(), "{bad}");
        }
    }
}
