//! A Kiro v1 hook file: `{"version": "v1", "hooks": [<hook>, …]}`, one
//! source per file; a hook: `{name, description?, trigger, matcher?,
//! action: {type: "command", command} | {type: "agent", prompt}, timeout?,
//! enabled?}`.
//!
//! A file without `version` whose `hooks` is an object is an agent file
//! with CLI 2.x hooks: the legacy reader reads it (`legacy.rs`).
//!
//! What rejects the file (`InvalidConfig`; among several sources only that
//! file is left out, and said so): a top level that is not an object, a
//! `version` other than `"v1"` (or none), `hooks` that is not an array.
//!
//! What skips one hook, reported (`hookline check` lists it): an entry that
//! is not an object, no `name`, an unknown `trigger`, a missing or invalid
//! `action`, a `timeout` that is not a non-negative integer, a matcher that
//! is not a valid regular expression. `enabled: false` skips the hook too
//! ("set false to skip without deleting"), reported as a note. A matcher
//! on a trigger that does not evaluate one, a `timeout` on an agent action
//! and unknown fields are reported and ignored.
//!
//! Matchers: a regular expression searched for in the subject (the tool
//! name, the prompt text, the file path); on the tool triggers a matcher
//! made only of Kiro's categories (`read`, `write`, `shell`, `web`, `spec`,
//! `@builtin`, `@mcp`, `@powers`, `*`) and MCP names (`@server`,
//! `@server/tool`), joined by `|`, matches the tools of those categories.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::canonical_trigger;
use crate::config::matcher::{compile, Matcher};
use crate::config::{type_name, HandlerSpec, HookGroup, HookSpec, HooksConfig, Launch, Shell, Source, SourceInfo};
use crate::error::{Error, Result};

/// The fields of a Kiro hook.
pub(crate) const FIELDS: &[&str] = &["name", "description", "trigger", "matcher", "action", "timeout", "enabled"];

/// The triggers whose matcher is evaluated, and against what.
fn matcher_subject(trigger: &str) -> Option<&'static str> {
    match trigger {
        "PreToolUse" | "PostToolUse" => Some("tool name"),
        "UserPromptSubmit" => Some("prompt text"),
        "PostFileCreate" | "PostFileSave" | "PostFileDelete" => Some("file path"),
        _ => None,
    }
}

/// Every trigger Kiro has (CLI 3, with the 2.x `AgentSpawn` and CLI
/// 2.25's `SessionEnd`).
const TRIGGERS: &[&str] = &[
    "SessionStart",
    "AgentSpawn",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "PreTaskExec",
    "PostTaskExec",
    "PostFileCreate",
    "PostFileSave",
    "PostFileDelete",
    "Manual",
];

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

/// Read a Kiro hook file (see the module documentation).
pub(crate) fn read(v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    let Value::Object(top) = v else {
        return Err(cfg_err(format!("a Kiro hook file must be a JSON object, got {}", type_name(v))));
    };
    // An agent file's embedded CLI 2.x hooks (no `version`, a `hooks` object).
    if super::legacy::is_agent_file(top) {
        return super::legacy::read(top, info);
    }
    match top.get("version") {
        Some(Value::String(s)) if s == "v1" => {}
        Some(other) => {
            return Err(cfg_err(format!(
                "version: Kiro hook files are version \"v1\", got {other}; the file is not loaded"
            )))
        }
        None => {
            return Err(cfg_err(
                "version is missing: a Kiro hook file starts {\"version\": \"v1\", \"hooks\": [...]}; the file is not \
                 loaded",
            ))
        }
    }
    let mut cfg = HooksConfig::empty_of(&super::KIRO);
    for key in top.keys().filter(|k| !matches!(k.as_str(), "version" | "hooks")) {
        cfg.push_warning(
            key.as_str(),
            format!("unknown top-level key `{key}` (Kiro reads `version` and `hooks`); ignored"),
        );
    }
    let hooks = match top.get("hooks") {
        None | Some(Value::Null) => return Ok(cfg),
        Some(Value::Array(hooks)) => hooks,
        Some(other) => return Err(cfg_err(format!("hooks must be an array of hooks, got {}", type_name(other)))),
    };
    let source = Arc::new(Source::new(info.clone(), false));
    for (i, item) in hooks.iter().enumerate() {
        let path = format!("hooks[{i}]");
        match parse_hook(&mut cfg, &source, &path, item) {
            Ok(Some((trigger, group))) => match canonical_trigger(&trigger) {
                Some(event) => cfg.push_groups(event, [group]),
                None => cfg.push_named(&trigger, [group]),
            },
            Ok(None) => {}
            Err(why) => cfg.push_skipped(path, format!("{why}; Kiro skips this hook")),
        }
    }
    Ok(cfg)
}

/// One hook: its trigger and group, `None` when it is disabled, `Err`
/// (why) when it is skipped.
fn parse_hook(
    cfg: &mut HooksConfig,
    source: &Arc<Source>,
    path: &str,
    v: &Value,
) -> std::result::Result<Option<(String, HookGroup)>, String> {
    let Value::Object(obj) = v else { return Err(format!("the hook must be an object, got {}", type_name(v))) };
    let name = match obj.get("name") {
        Some(Value::String(n)) if !n.trim().is_empty() => n.clone(),
        Some(Value::String(_)) | None => return Err("the hook has no `name` (required)".to_owned()),
        Some(other) => return Err(format!("name must be a string, got {}", type_name(other))),
    };
    let trigger = match obj.get("trigger") {
        Some(Value::String(t)) if TRIGGERS.contains(&t.as_str()) => t.clone(),
        Some(Value::String(t)) => {
            let hint = crate::suggest::closest(t, TRIGGERS.iter().copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            return Err(format!("unknown trigger `{t}`{hint}"));
        }
        None => return Err("the hook has no `trigger` (required)".to_owned()),
        Some(other) => return Err(format!("trigger must be a string, got {}", type_name(other))),
    };
    let handler = action(obj.get("action"))?;
    let agent = matches!(handler, HandlerSpec::Agent { .. });
    let timeout_seconds = match obj.get("timeout") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_u64() {
            // "0 disables timeout": the longest timeout hookline has.
            Some(0) => Some(u64::from(u32::MAX)),
            Some(s) => Some(s),
            None => return Err(format!("timeout must be a non-negative integer of seconds, got {n}")),
        },
        Some(other) => return Err(format!("timeout must be an integer of seconds, got {}", type_name(other))),
    };
    if agent && timeout_seconds.is_some() {
        cfg.push_warning(format!("{path}.timeout"), "the timeout is ignored for agent actions (Kiro)");
    }
    let enabled = match obj.get("enabled") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("enabled must be a boolean, got {}", type_name(other))),
    };
    for key in ["description"] {
        if let Some(other) = obj.get(key).filter(|v| !v.is_string() && !v.is_null()) {
            return Err(format!("{key} must be a string, got {}", type_name(other)));
        }
    }
    for key in obj.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
        let hint = crate::suggest::closest(key, FIELDS.iter().copied())
            .map(|f| format!("; did you mean `{f}`?"))
            .unwrap_or_default();
        cfg.push_warning(format!("{path}.{key}"), format!("Kiro does not read the hook field `{key}`; ignored{hint}"));
    }
    let matcher_raw = match obj.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) => Some(m.clone()),
        Some(other) => return Err(format!("matcher must be a string, got {}", type_name(other))),
    };
    let matcher = match (&matcher_raw, matcher_subject(&trigger)) {
        (None, _) => Matcher::All,
        (Some(raw), None) => {
            cfg.push_warning(
                format!("{path}.matcher"),
                format!("{trigger} does not evaluate a matcher (the hook always fires); {raw:?} is ignored"),
            );
            Matcher::All
        }
        (Some(raw), Some(_)) => {
            let tools = matches!(trigger.as_str(), "PreToolUse" | "PostToolUse");
            if tools && raw.split('|').any(|p| p.trim() == "@powers" || p.trim() == "spec") {
                cfg.push_warning(
                    format!("{path}.matcher"),
                    "hookline does not know which tools Kiro's `@powers` and `spec` categories hold: they match no tool",
                );
            }
            kiro_matcher(raw, tools).map_err(|e| format!("matcher {raw:?} is not a valid regular expression ({e})"))?
        }
    };
    if !enabled {
        cfg.push_warning(path, format!("hook `{name}` is disabled (`enabled: false`): it does not run"));
        return Ok(None);
    }
    let hook = HookSpec {
        handler,
        timeout_seconds: if agent { None } else { timeout_seconds },
        default_timeout: super::PROFILE.default_timeout,
        if_rule: None,
        run_async: false,
        async_rewake: false,
        status_message: None,
        fail_closed: false,
        name: Some(name),
        env: Vec::new(),
        native_event: None,
        loop_limit: None,
        path: path.to_owned(),
        source: source.clone(),
    };
    Ok(Some((trigger, HookGroup { matcher_raw, matcher, sequential: false, hooks: vec![hook] })))
}

/// `action`: `{type: "command", command}` or `{type: "agent", prompt}`.
fn action(v: Option<&Value>) -> std::result::Result<HandlerSpec, String> {
    let Some(Value::Object(a)) = v else {
        return Err(match v {
            None => "the hook has no `action` (required)".to_owned(),
            Some(other) => format!("action must be an object, got {}", type_name(other)),
        });
    };
    let text = |a: &Map<String, Value>, key: &str| match a.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
        _ => Err(format!("action.{key} must be a non-empty string")),
    };
    match a.get("type").and_then(Value::as_str) {
        Some("command") => Ok(HandlerSpec::Command {
            command: text(a, "command")?,
            args: None,
            shell: Shell::Sh,
            launch: Launch::default(),
        }),
        Some("agent") => Ok(HandlerSpec::Agent { prompt: text(a, "prompt")?, model: None }),
        Some(other) => Err(format!("action.type must be \"command\" or \"agent\", got {other:?}")),
        None => Err("action.type must be \"command\" or \"agent\"".to_owned()),
    }
}

/// The regular expression of one Kiro category or MCP name on the tool
/// triggers, tested against Kiro's tool name or the canonical one; `None`
/// when `part` is neither.
pub(crate) fn category(part: &str) -> Option<String> {
    let exact = |names: &[&str]| format!("^(?:{})$", names.join("|"));
    // A built-in tool: any name but an MCP tool's (`@…`, `mcp__…`).
    const BUILTIN: &str = r"^(?:[^@m].*|m(?:[^c].*)?|mc(?:[^p].*)?|mcp(?:[^_].*)?|mcp_(?:[^_].*)?)$";
    Some(match part {
        "*" => "^".to_owned(),
        "read" => exact(&["fs_read", "glob", "grep", "Read", "Glob", "Grep", "LS"]),
        "write" => exact(&["fs_write", "str_replace", "Write", "Edit", "MultiEdit", "NotebookEdit"]),
        "shell" => exact(&["execute_bash", "execute_cmd", "Bash"]),
        "web" => exact(&["web_fetch", "web_search", "WebFetch", "WebSearch"]),
        // Unknown members: nothing matches.
        "spec" | "@powers" => r"[^\s\S]".to_owned(),
        "@builtin" => BUILTIN.to_owned(),
        "@mcp" => "^(?:@|mcp__)".to_owned(),
        p if p.starts_with('@') && p.len() > 1 => {
            let rest = &p[1..];
            match rest.split_once('/') {
                Some((server, tool)) if !server.is_empty() && !tool.is_empty() => {
                    format!("^(?:@{s}/{t}|mcp__{s}__{t})$", s = regex::escape(server), t = regex::escape(tool))
                }
                None if !rest.contains(['*', '(', '[', '\\', '.']) => {
                    format!("^(?:@{s}/|mcp__{s}__)", s = regex::escape(rest))
                }
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// A Kiro matcher: categories and MCP names on the tool triggers, else a
/// regular expression searched for in the subject; `""` and `"*"` match all.
pub(crate) fn kiro_matcher(raw: &str, tools: bool) -> std::result::Result<Matcher, regex::Error> {
    if raw.is_empty() || raw == "*" {
        return Ok(Matcher::All);
    }
    if tools {
        let parts: Option<Vec<String>> = raw.split('|').map(|p| category(p.trim())).collect();
        if let Some(parts) = parts {
            let joined = parts.iter().map(|p| format!("(?:{p})")).collect::<Vec<_>>().join("|");
            return Ok(Matcher::Regex(compile(&joined)?));
        }
    }
    Ok(Matcher::Regex(compile(raw)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::event::HookEvent;
    use serde_json::json;

    fn read_value(v: Value) -> Result<HooksConfig> {
        read(&v, &SourceInfo::new(&super::super::KIRO))
    }

    fn hook(trigger: &str, extra: Value) -> Value {
        let mut h = json!({"name": "h", "trigger": trigger, "action": {"type": "command", "command": "true"}});
        for (k, v) in extra.as_object().unwrap() {
            h[k] = v.clone();
        }
        h
    }

    /// "`version`: v1"; an unknown version or none is not loaded.
    #[test]
    fn a_bad_version_rejects_the_file() {
        for bad in [json!({"version": "v2", "hooks": []}), json!({"hooks": []}), json!({"version": 1, "hooks": []})] {
            let e = read_value(bad.clone()).unwrap_err();
            assert!(e.message.contains("version"), "{bad}: {}", e.message);
        }
        assert!(read_value(json!({"version": "v1", "hooks": []})).unwrap().is_empty());
    }

    /// "`enabled` | boolean | true | Set false to skip without deleting";
    /// a hook without a `name` ("Required: Yes") or with an unknown trigger is skipped and reported.
    #[test]
    fn disabled_nameless_and_unknown_trigger_hooks_are_skipped_and_reported() {
        let cfg = read_value(json!({"version": "v1", "hooks": [
            hook("PreToolUse", json!({"enabled": false})),
            {"trigger": "Stop", "action": {"type": "command", "command": "x"}},
            hook("fileEdited", json!({})),
            hook("Stop", json!({}))
        ]}))
        .unwrap();
        let w: Vec<String> = cfg.warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect();
        assert!(w.iter().any(|w| w.starts_with("hooks[0]") && w.contains("disabled")), "{w:?}");
        assert!(w.iter().any(|w| w.starts_with("hooks[1]") && w.contains("no `name`")), "{w:?}");
        assert!(w.iter().any(|w| w.starts_with("hooks[2]") && w.contains("unknown trigger `fileEdited`")), "{w:?}");
        assert!(cfg.groups(HookEvent::PreToolUse).is_empty());
        assert_eq!(cfg.groups(HookEvent::Stop).len(), 1);
    }

    /// "`timeout` | integer (seconds) | 60 | 0 disables timeout. Ignored for agent actions".
    #[test]
    fn timeouts_are_seconds_and_zero_disables_them() {
        let cfg = read_value(json!({"version": "v1", "hooks": [
            hook("Stop", json!({"timeout": 30})),
            hook("Stop", json!({"timeout": 0})),
            {"name": "a", "trigger": "Stop", "action": {"type": "agent", "prompt": "p"}, "timeout": 5}
        ]}))
        .unwrap();
        let t: Vec<Option<u64>> = cfg.groups(HookEvent::Stop).iter().map(|g| g.hooks[0].timeout_seconds).collect();
        assert_eq!(t, [Some(30), Some(u64::from(u32::MAX)), None]);
        assert!(matches!(cfg.groups(HookEvent::Stop)[2].hooks[0].handler, HandlerSpec::Agent { .. }));
    }

    /// Categories "read, write, shell, web, spec, *, @mcp, @powers,
    /// @builtin"; MCP tools `@<server>/<tool>`; otherwise a regex.
    #[test]
    fn tool_matchers_understand_categories_and_mcp_names() {
        let m = |raw: &str| kiro_matcher(raw, true).unwrap();
        assert!(m("shell").matches("execute_bash") && m("shell").matches("Bash") && !m("shell").matches("fs_read"));
        assert!(m("read|write").matches("fs_write") && m("read|write").matches("fs_read"));
        assert!(m("@builtin").matches("execute_bash") && !m("@builtin").matches("@github/get_issue"));
        assert!(!m("@builtin").matches("mcp__github__get_issue") && m("@builtin").matches("md_tool"));
        assert!(m("@mcp").matches("@github/get_issue") && m("@mcp").matches("mcp__github__x"));
        assert!(m("@github").matches("@github/get_issue") && !m("@github").matches("@gitlab/x"));
        assert!(m("@github/get_issue").matches("mcp__github__get_issue"));
        assert!(!m("@powers").matches("anything"));
        assert!(m("*").matches("x"));
        // A regex, searched for: "fs_write|str_replace".
        assert!(m("fs_write|str_replace").matches("str_replace"));
        let file = kiro_matcher(r"\.ts$", false).unwrap();
        assert!(file.matches("src/a.ts") && !file.matches("src/a.rs"));
        assert!(kiro_matcher("(", true).is_err());
    }
}
