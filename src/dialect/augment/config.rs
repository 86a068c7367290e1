//! Augment's settings files: the hooks are under `hooks`, an object of
//! event keys holding Claude Code's matcher groups.
//!
//! | entry | what Augment does | hookline |
//! |---|---|---|
//! | a file that is not a JSON object | not a settings file | `InvalidConfig` |
//! | no `hooks` key | no hooks | no hooks (a bare event map given inline is read as the `hooks` object) |
//! | `hooks` not an object | no hooks | no hooks, a warning |
//! | an event key Augment does not fire (`UserPromptSubmit`: Augment's is `PromptSubmit`) | never runs | skipped, reported with the closest key |
//! | a malformed group or hook (no `command`, a `timeout` that is not a positive integer, an invalid matcher) | left out | skipped, reported; the rest loads |
//! | `type` other than `"command"` ("currently only "command" is supported") | left out | skipped, reported |
//! | `timeout` | milliseconds, default 60000 | the same (`hookline check` flags a value under 100) |
//! | `command` | the path of a `.sh` (`.ps1`, `.cmd`, `.bat`) script, run directly | run directly, no shell |
//! | `command` with arguments (`check.sh --strict`) | no such script: the hook cannot start | skipped, reported (put arguments in `args`) |
//! | `command` with a `$` (`"$AUGMENT_PLUGIN_ROOT"/hooks/x.sh`) | `bash -c` (the shipped CLI) | `bash -c` |
//! | `args` (the CLI's exec form) | `command` started with these arguments, `${AUGMENT_PLUGIN_ROOT}` replaced | the same (and `${AUGMENT_PROJECT_DIR}`) |
//! | `metadata` | extra context fields for the payload | accepted, not applied |
//!
//! On Windows a `.ps1` script starts in PowerShell (`powershell.exe
//! -NoProfile -NonInteractive -ExecutionPolicy Bypass -File`), a `.sh`
//! script in `bash` from `PATH` (Git Bash), a `.cmd` or `.bat` directly
//! (cmd.exe); elsewhere a `.ps1` starts in `pwsh -NoProfile -File`, and a
//! `.cmd` or `.bat` cannot start (reported).

use std::sync::Arc;

use serde_json::Value;

use super::AUGMENT;
use crate::config::{type_name, HandlerSpec, HookGroup, HooksConfig, Launch, Shell, Source, SourceInfo};
use crate::dialect::protocol::config::{parse_groups, GroupShape, Malformed};
use crate::dialect::Dialect;
use crate::error::{Error, Result};
use crate::model::event::HookEvent;

const SHAPE: GroupShape = GroupShape {
    timeout_key: "timeout",
    claude_fields: false,
    matcher: super::matcher_of,
    malformed: Malformed::Skipped,
};

/// The extensions of the scripts Augment runs.
const EXTENSIONS: &[&str] = &[".sh", ".ps1", ".cmd", ".bat"];

/// What PowerShell runs a `.ps1` hook with on Windows.
const POWERSHELL: &[&str] = &["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File"];

/// Read one Augment settings file (or an inline `hooks` object).
pub(super) fn read(value: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    let Value::Object(top) = value else {
        return Err(Error::invalid_config(format!(
            "an Augment settings file must be a JSON object, got {}",
            type_name(value)
        )));
    };
    let mut cfg = HooksConfig::empty_of(&AUGMENT);
    let hooks = match top.get("hooks") {
        Some(Value::Object(hooks)) => hooks,
        Some(other) => {
            cfg.push_skipped(
                "hooks",
                format!("hooks must be an object of events, got {}; Augment loads no hooks from it", type_name(other)),
            );
            return Ok(cfg);
        }
        // A bare event map given inline (no file) is the `hooks` object.
        None if info.path.is_none() => top,
        None => return Ok(cfg),
    };
    let source = Arc::new(Source::new(info.clone(), false));
    for (key, raw) in hooks {
        let Some(event) = HookEvent::ALL.into_iter().find(|e| AUGMENT.event_keys(*e).contains(&key.as_str())) else {
            let hint = match crate::dialect::suggest_event_key(&AUGMENT, key) {
                Some(k) => format!(" (did you mean `{k}`?)"),
                None => String::new(),
            };
            let also = if key == "UserPromptSubmit" { "; Augment's prompt event is `PromptSubmit`" } else { "" };
            cfg.push_skipped(
                format!("hooks.{key}"),
                format!(
                    "Augment fires no event `{key}`{hint}{also}: its hooks are skipped (Augment's events: \
                     PreToolUse, PostToolUse, Stop, SessionStart, SessionEnd, Notification, PromptSubmit)"
                ),
            );
            continue;
        };
        let mut groups = parse_groups(&SHAPE, &source, key, raw, &mut cfg)?;
        for group in &mut groups {
            let mut kept = Vec::with_capacity(group.hooks.len());
            for mut hook in std::mem::take(&mut group.hooks) {
                let raw_hook = raw_entry(raw, &hook.path);
                match script(&mut hook.handler, raw_hook) {
                    Ok(None) => kept.push(hook),
                    Ok(Some(note)) => {
                        cfg.push_never_runs(hook.path.clone(), note);
                        kept.push(hook);
                    }
                    Err(why) => {
                        cfg.push_skipped(hook.path.clone(), format!("{}: {why}; the hook is skipped", hook.path))
                    }
                }
            }
            group.hooks = kept;
        }
        groups.retain(|g: &HookGroup| !g.hooks.is_empty());
        cfg.push_groups(event, groups);
    }
    Ok(cfg)
}

/// The hook object at `path` (`hooks.<key>[i].hooks[j]`) in the event's raw
/// value.
fn raw_entry<'a>(event_value: &'a Value, path: &str) -> Option<&'a Value> {
    let mut indices = path.rsplit('[').filter_map(|part| part.split(']').next()?.parse::<usize>().ok());
    let hook = indices.next()?;
    let group = indices.next()?;
    event_value.get(group)?.get("hooks")?.get(hook)
}

/// Make a command hook Augment's. `Err`: Augment could not run it at all
/// (the hook is skipped); `Ok(Some(note))`: it is kept but cannot start on
/// this system.
///
/// - With `args` (the shipped CLI's exec form): `command` is the program,
///   started directly with `args`; `${AUGMENT_PROJECT_DIR}` and
///   `${AUGMENT_PLUGIN_ROOT}` are replaced in both.
/// - A `command` with a `$` in it runs through `bash -c` (the shipped CLI
///   does so, to expand its variables: `"$AUGMENT_PLUGIN_ROOT"/hooks/x.sh`).
/// - Any other `command` is the path of a `.sh`, `.ps1`, `.cmd` or `.bat`
///   script, started directly: a command with arguments names no script.
fn script(handler: &mut HandlerSpec, raw: Option<&Value>) -> std::result::Result<Option<String>, String> {
    let HandlerSpec::Command { command, args, shell, launch } = handler else {
        return Err("Augment runs only command hooks".into());
    };
    *launch = Launch::default();
    let path = command.trim().to_owned();
    let extra: Option<Vec<String>> = match raw.and_then(|h| h.get("args")) {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => Some(
            items
                .iter()
                .map(|a| a.as_str().map(str::to_owned).ok_or_else(|| format!("args must be strings, got {a}")))
                .collect::<std::result::Result<_, _>>()?,
        ),
        Some(other) => return Err(format!("args must be an array of strings, got {}", type_name(other))),
    };
    let lower = path.to_ascii_lowercase();
    let ext = EXTENSIONS.iter().copied().find(|e| lower.ends_with(e));
    if extra.is_none() && path.contains('$') {
        *shell = Shell::Bash;
        *args = None;
        return Ok(None);
    }
    *shell = Shell::Sh;
    if extra.is_none() && ext.is_none() {
        let first = path.split_whitespace().next().unwrap_or("");
        let with_args = EXTENSIONS.iter().any(|e| first.to_ascii_lowercase().ends_with(e)) && first != path;
        return Err(if with_args {
            format!(
                "command `{path}` has arguments, but Augment runs `command` as one script path without a shell, \
                 so no such script exists (fix: \"command\": {first:?} with the arguments in \"args\")"
            )
        } else {
            format!(
                "command `{path}` is not a script path ending in .sh, .ps1, .cmd or .bat: Augment runs `command` \
                 as a script, directly, without a shell (fix: put the command line in a .sh script and name it)"
            )
        });
    }
    let extra = extra.unwrap_or_default();
    let windows = cfg!(windows);
    let (program, mut words): (Option<&str>, Vec<String>) = match ext {
        Some(".ps1") if windows => (Some("powershell.exe"), POWERSHELL.iter().map(|s| (*s).to_owned()).collect()),
        Some(".ps1") => (Some("pwsh"), vec!["-NoProfile".into(), "-File".into()]),
        Some(".sh") if windows => (Some("bash"), Vec::new()),
        _ => (None, Vec::new()),
    };
    match program {
        Some(program) => {
            words.push(path.clone());
            words.extend(extra);
            *command = program.to_owned();
            *args = Some(words);
        }
        None => {
            *command = path.clone();
            *args = Some(extra);
        }
    }
    Ok((!windows && matches!(ext, Some(".cmd" | ".bat"))).then(|| {
        format!("command `{path}` is a Windows batch script: it cannot start on this system (it runs on Windows only)")
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cmd(text: &str) -> HandlerSpec {
        HandlerSpec::command(text)
    }

    #[test]
    fn a_script_path_runs_directly_with_its_args() {
        let mut h = cmd("./hooks/check.sh");
        let raw = json!({"command": "./hooks/check.sh", "args": ["--strict"]});
        assert_eq!(script(&mut h, Some(&raw)), Ok(None));
        let HandlerSpec::Command { command, args, .. } = h else { unreachable!() };
        if cfg!(windows) {
            assert_eq!(command, "bash");
        } else {
            assert_eq!(command, "./hooks/check.sh");
            assert_eq!(args, Some(vec!["--strict".to_owned()]));
        }
    }

    #[test]
    fn a_command_with_arguments_or_without_a_script_is_refused() {
        let e = script(&mut cmd("./check.sh --strict"), None).unwrap_err();
        assert!(e.contains("has arguments") && e.contains("\"args\""), "{e}");
        let e = script(&mut cmd("echo hi"), None).unwrap_err();
        assert!(e.contains("not a script path"), "{e}");
    }

    #[test]
    fn a_command_with_a_variable_runs_in_bash() {
        let mut h = cmd("\"$AUGMENT_PLUGIN_ROOT\"/hooks/format.sh --all");
        assert_eq!(script(&mut h, None), Ok(None));
        assert!(matches!(h, HandlerSpec::Command { shell: Shell::Bash, args: None, .. }));
    }

    /// On Windows a `.cmd` script named by `command` starts directly (in
    /// cmd.exe), and its exit 2 blocks PreToolUse with its stderr.
    #[cfg(windows)]
    #[test]
    fn a_cmd_script_runs_directly_on_windows() {
        let dir = tempfile::tempdir().unwrap();
        let hooks = dir.path().join(".augment").join("hooks");
        std::fs::create_dir_all(&hooks).unwrap();
        let script = hooks.join("guard.cmd");
        std::fs::write(&script, "@echo off\r\n>&2 echo no rm\r\nexit /b 2\r\n").unwrap();
        let settings = dir.path().join(".augment").join("settings.json");
        let config = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": script}]}]}});
        std::fs::write(&settings, config.to_string()).unwrap();
        let options = json!({"workspace": dir.path(), "session_id": "s", "hooks_file": settings});
        let engine = crate::LifecycleHookEngine::from_options_json(&options.to_string()).unwrap();
        let input = json!({"tool_name": "launch-process", "tool_input": {"command": "rm -rf /"}});
        let out = engine.run_blocking(crate::HookEvent::PreToolUse, &input).unwrap().to_json();
        assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("no rm")), "{out}");
    }

    #[test]
    fn raw_entries_are_found_by_path() {
        let v = json!([{"hooks": [{"command": "a.sh"}]}, {"hooks": [{"command": "b.sh"}, {"command": "c.sh"}]}]);
        assert_eq!(raw_entry(&v, "hooks.PreToolUse[1].hooks[1]"), Some(&json!({"command": "c.sh"})));
    }
}
