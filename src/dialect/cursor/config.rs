//! Cursor's `hooks.json`: `{"version": 1, "hooks": {"<event>": [<hook>,
//! …]}}`, a flat array of hook objects per camelCase event (no matcher
//! groups).
//!
//! A hook: `{"command": …, "type": "command", "timeout": <seconds>,
//! "matcher": <regex>, "failClosed": bool, "loop_limit": n | null}`.
//!
//! What rejects the file (an `InvalidConfig` error naming the entry; the
//! engine's other sources still load when the host gives them as separate
//! `hook_sources`):
//!
//! - a top level that is not an object, `hooks` that is not an object, a
//!   `version` that is not a number;
//! - an event key Cursor does not know (Cursor rejects the whole file for
//!   one unknown hook type; a Claude Code key such as `PreToolUse` gets a
//!   hint);
//! - an event whose value is not an array, an entry that is not an object,
//!   an entry without a `command` string (a Claude Code matcher group gets
//!   a hint);
//! - a field of the wrong type: `type` other than `command`/`prompt`,
//!   `timeout` not a positive number, `matcher` not a string, `failClosed`
//!   not a boolean, `loop_limit` not a non-negative integer or null.
//!
//! What is skipped and reported ([`HooksConfig::push_warning`]): a
//! `type: "prompt"` hook (an LLM judges it in Cursor; hookline runs only
//! commands). What is reported and otherwise ignored: a `version` other
//! than 1, unknown top-level keys, unknown hook fields (Claude Code's
//! `async`, `if`, `statusMessage`, ... mean nothing to Cursor), and a
//! matcher that is not a valid regular expression (it is searched for as
//! literal text).
//!
//! Where the hooks run: a project's `.cursor/hooks.json` in the project
//! root, the user's `~/.cursor/hooks.json` in `~/.cursor`, any other file
//! (the enterprise `hooks.json`) in its own directory; JSON given without a
//! file in the workspace.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{canonical_event, is_native, PRE_TOOL_USE_NATIVE};
use crate::config::matcher::Matcher;
use crate::config::{type_name, HandlerSpec, HookGroup, HookSpec, HooksConfig, Source, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::HookEvent;

/// The hooks of a Cursor hook that follow-ups are limited to by default.
pub(crate) const DEFAULT_LOOP_LIMIT: u64 = 5;

/// The fields of a Cursor hook.
pub(crate) const FIELDS: &[&str] = &["command", "type", "timeout", "matcher", "failClosed", "loop_limit"];

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

/// Read a Cursor `hooks.json` (see the module documentation).
pub(crate) fn read(v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    let Value::Object(top) = v else {
        return Err(cfg_err(format!("a Cursor hooks.json must be a JSON object, got {}", type_name(v))));
    };
    let mut cfg = HooksConfig::empty_of(&super::CURSOR);
    match top.get("version") {
        None => {}
        Some(Value::Number(n)) if n.as_f64() == Some(1.0) => {}
        Some(Value::Number(n)) => cfg.push_warning(
            "version",
            format!("Cursor's hooks.json schema is version 1; version {n} is read as version 1"),
        ),
        Some(other) => return Err(cfg_err(format!("version must be a number, got {}", type_name(other)))),
    }
    for key in top.keys().filter(|k| !matches!(k.as_str(), "version" | "hooks")) {
        cfg.push_warning(
            key.as_str(),
            format!("unknown top-level key `{key}` (Cursor reads `version` and `hooks`); ignored"),
        );
    }
    let hooks = match top.get("hooks") {
        None | Some(Value::Null) => return Ok(cfg),
        Some(Value::Object(hooks)) => hooks,
        Some(other) => return Err(cfg_err(format!("hooks must be an object, got {}", type_name(other)))),
    };
    for key in hooks.keys() {
        if canonical_event(key).is_none() && !is_native(key) {
            return Err(cfg_err(unknown_event(key)));
        }
    }
    let source = Arc::new(Source { cwd: run_dir(info.path.as_deref()), ..Source::new(info.clone(), false) });
    for (key, value) in hooks {
        let groups = parse_entries(&mut cfg, &source, key, value)?;
        match canonical_event(key) {
            Some(event) => cfg.push_groups(event, groups),
            None => {
                if let Some(native) = PRE_TOOL_USE_NATIVE.iter().find(|n| **n == key.as_str()) {
                    let in_pre_tool_use = groups.iter().map(|g| HookGroup {
                        hooks: g.hooks.iter().map(|h| HookSpec { native_event: Some(native), ..h.clone() }).collect(),
                        ..g.clone()
                    });
                    cfg.push_groups(HookEvent::PreToolUse, in_pre_tool_use.collect::<Vec<_>>());
                }
                cfg.push_named(key, groups);
            }
        }
    }
    Ok(cfg)
}

/// The error for an event key Cursor does not know.
fn unknown_event(key: &str) -> String {
    let lower = key.to_ascii_lowercase();
    let all = HookEvent::ALL.iter().map(|e| *super::KEYS.get(*e)).filter(|k| !k.is_empty());
    let known = all.chain(super::NAMED.iter().map(|n| n.name)).find(|k| k.to_ascii_lowercase() == lower);
    let hint = match (HookEvent::from_name(key), known) {
        (Some(_), Some(k)) => format!(
            "; `{key}` is Claude Code's name, Cursor's is `{k}` (Cursor reads Claude Code hooks only from \
             .claude/settings.json)"
        ),
        (_, Some(k)) => format!("; did you mean `{k}`?"),
        (Some(_), None) => format!(
            "; `{key}` is a Claude Code event Cursor does not have (Cursor reads Claude Code hooks only from \
             .claude/settings.json)"
        ),
        (None, None) => String::new(),
    };
    format!(
        "hooks.{key}: unknown Cursor hook event `{key}` (Cursor rejects a hooks.json with an unknown hook type){hint}"
    )
}

/// The directory a source's hooks run in: the project root for a project's
/// `.cursor/hooks.json`, `~/.cursor` for the user's, the file's directory
/// for any other file; the workspace (`None`) for JSON without a file.
fn run_dir(path: Option<&Path>) -> Option<PathBuf> {
    let path = path?;
    let dir = path.parent()?;
    if dir.file_name().is_some_and(|n| n == ".cursor") {
        let root = dir.parent()?;
        let home = crate::paths::home_dir();
        if home.is_some_and(|h| h == root) {
            return Some(dir.to_owned());
        }
        return Some(if root.as_os_str().is_empty() { PathBuf::from(".") } else { root.to_owned() });
    }
    Some(if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir.to_owned() })
}

/// The hooks of one event key, one group per hook (each has its own
/// matcher). Skipped entries are left out and reported.
fn parse_entries(cfg: &mut HooksConfig, source: &Arc<Source>, key: &str, v: &Value) -> Result<Vec<HookGroup>> {
    let Value::Array(items) = v else {
        return Err(cfg_err(format!("hooks.{key} must be an array of hooks, got {}", type_name(v))));
    };
    let mut groups = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = format!("hooks.{key}[{i}]");
        if let Some(group) = parse_entry(cfg, source, &path, item)? {
            groups.push(group);
        }
    }
    Ok(groups)
}

fn parse_entry(cfg: &mut HooksConfig, source: &Arc<Source>, path: &str, v: &Value) -> Result<Option<HookGroup>> {
    let Value::Object(obj) = v else {
        return Err(cfg_err(format!("{path} must be an object, got {}", type_name(v))));
    };
    let prompt = match obj.get("type") {
        None | Some(Value::Null) => false,
        Some(Value::String(t)) if t == "command" => false,
        Some(Value::String(t)) if t == "prompt" => true,
        Some(Value::String(t)) => {
            return Err(cfg_err(format!("{path}.type must be \"command\" or \"prompt\", got \"{t}\"")));
        }
        Some(other) => return Err(cfg_err(format!("{path}.type must be a string, got {}", type_name(other)))),
    };
    if prompt {
        cfg.push_warning(
            path,
            "a `type: \"prompt\"` hook is judged by a language model in Cursor; hookline runs only command hooks, \
             so this one is skipped",
        );
        return Ok(None);
    }
    let command = match obj.get("command") {
        Some(Value::String(c)) if !c.trim().is_empty() => c.clone(),
        Some(Value::String(_)) => return Err(cfg_err(format!("{path}.command must not be empty"))),
        None if obj.contains_key("hooks") => {
            return Err(cfg_err(format!(
                "{path} has no `command`: Cursor's hooks are flat objects (`{{\"command\": …, \"matcher\": …}}`), \
                 not Claude Code matcher groups with `hooks`"
            )))
        }
        None => return Err(cfg_err(format!("{path} must specify a command"))),
        Some(other) => return Err(cfg_err(format!("{path}.command must be a string, got {}", type_name(other)))),
    };
    let timeout_seconds = match obj.get("timeout") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64() {
            // Seconds; a fraction of a second is rounded up.
            Some(s) if s > 0.0 && s.is_finite() => Some(s.ceil().min(u64::MAX as f64) as u64),
            _ => return Err(cfg_err(format!("{path}.timeout must be a positive number of seconds, got {n}"))),
        },
        Some(other) => {
            return Err(cfg_err(format!("{path}.timeout must be a number of seconds, got {}", type_name(other))))
        }
    };
    let matcher_raw = match obj.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => return Err(cfg_err(format!("{path}.matcher must be a string, got {}", type_name(other)))),
    };
    let matcher = match Matcher::search(matcher_raw.as_deref()) {
        Ok(m) => m,
        Err(e) => {
            let raw = matcher_raw.as_deref().unwrap_or_default();
            let literal = Matcher::substring(raw).map_err(|_| cfg_err(format!("Invalid matcher in {path}: {e}")))?;
            cfg.push_never_runs(
                format!("{path}.matcher"),
                format!("{raw:?} is not a valid regular expression ({e}); it matches subjects containing it literally"),
            );
            literal
        }
    };
    let fail_closed = match obj.get("failClosed") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(cfg_err(format!("{path}.failClosed must be a boolean, got {}", type_name(other)))),
    };
    let loop_limit = match obj.get("loop_limit") {
        None => Some(DEFAULT_LOOP_LIMIT),
        Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(n) => Some(n),
            None => return Err(cfg_err(format!("{path}.loop_limit must be a non-negative integer or null, got {n}"))),
        },
        Some(other) => {
            return Err(cfg_err(format!(
                "{path}.loop_limit must be a non-negative integer or null, got {}",
                type_name(other)
            )))
        }
    };
    report_unknown_fields(cfg, path, obj);
    let hook = HookSpec {
        handler: HandlerSpec::Command {
            command,
            args: None,
            shell: crate::config::Shell::Sh,
            launch: crate::config::Launch::default(),
        },
        timeout_seconds,
        default_timeout: super::PROFILE.default_timeout,
        if_rule: None,
        run_async: false,
        async_rewake: false,
        status_message: None,
        fail_closed,
        name: None,
        env: Vec::new(),
        native_event: None,
        loop_limit,
        path: path.to_owned(),
        source: source.clone(),
    };
    Ok(Some(HookGroup { matcher_raw, matcher, sequential: false, hooks: vec![hook] }))
}

/// Fields Cursor does not read: reported, so that a Claude Code field (or a
/// misspelt `failClosed`) is not silently taken for a rule.
fn report_unknown_fields(cfg: &mut HooksConfig, path: &str, obj: &Map<String, Value>) {
    for key in obj.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
        let hint = crate::suggest::closest(key, FIELDS.iter().copied())
            .map(|f| format!("; did you mean `{f}`?"))
            .unwrap_or_default();
        cfg.push_warning(
            format!("{path}.{key}"),
            format!("Cursor does not read the hook field `{key}`; ignored{hint}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_value(v: Value) -> Result<HooksConfig> {
        read(&v, &SourceInfo::new(&super::super::CURSOR))
    }

    #[test]
    fn flat_entries_become_one_group_each_with_the_default_loop_limit() {
        let cfg = read_value(json!({"version": 1, "hooks": {"stop": [
            {"command": "a"}, {"command": "b", "loop_limit": 2}, {"command": "c", "loop_limit": null}
        ]}}))
        .unwrap();
        let limits: Vec<Option<u64>> = cfg.groups(HookEvent::Stop).iter().map(|g| g.hooks[0].loop_limit).collect();
        assert_eq!(limits, [Some(5), Some(2), None]);
    }

    #[test]
    fn an_unknown_event_key_rejects_the_file_and_a_claude_key_gets_a_hint() {
        let e = read_value(json!({"hooks": {"PreToolUse": [{"command": "x"}]}})).unwrap_err();
        assert!(e.message.contains("`PreToolUse`") && e.message.contains("`preToolUse`"), "{}", e.message);
        let e = read_value(json!({"hooks": {"agentSessionStart": [{"command": "x"}]}})).unwrap_err();
        assert!(e.message.contains("unknown Cursor hook event"), "{}", e.message);
    }

    #[test]
    fn shell_and_mcp_hooks_also_run_in_pre_tool_use() {
        let cfg = read_value(json!({"hooks": {
            "beforeShellExecution": [{"command": "s"}], "beforeReadFile": [{"command": "r"}]
        }}))
        .unwrap();
        let pre = cfg.groups(HookEvent::PreToolUse);
        assert_eq!(pre.len(), 1);
        assert_eq!(pre[0].hooks[0].native_event, Some("beforeShellExecution"));
        assert_eq!(cfg.groups_named("beforeShellExecution")[0].hooks[0].native_event, None);
        assert_eq!(cfg.groups_named("beforeReadFile").len(), 1);
    }

    #[test]
    fn user_hooks_run_in_dot_cursor_project_hooks_in_the_project_root() {
        assert_eq!(run_dir(Some(Path::new("/p/.cursor/hooks.json"))), Some(PathBuf::from("/p")));
        assert_eq!(run_dir(Some(Path::new("/etc/cursor/hooks.json"))), Some(PathBuf::from("/etc/cursor")));
        assert_eq!(run_dir(None), None);
        if let Some(home) = std::env::var_os("HOME").map(PathBuf::from) {
            let user = home.join(".cursor/hooks.json");
            assert_eq!(run_dir(Some(&user)), Some(home.join(".cursor")));
        }
    }
}
