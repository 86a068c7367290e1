//! Crush's `crush.json`: `{"hooks": {"<event>": [<entry>, …]}, …}`, a flat
//! array of entries per event beside the rest of Crush's configuration
//! (`models`, `providers`, `mcp`, `lsp`, `options`, ...: not hooks, and not
//! reported).
//!
//! An entry: `{"matcher": <regex>, "command": <shell>, "name": <text>,
//! "timeout": <seconds>}`; only `command` is required. Crush decodes the
//! file with Go's `encoding/json` into its config structs and then runs
//! `ValidateHooks` over every event (charmbracelet/crush
//! `internal/config/load.go` @37f36e93), so:
//!
//! - an event key is PreToolUse when, lower-cased and without `_`, it is
//!   `pretooluse` (`PreToolUse`, `pre_tool_use`, `PRE_TOOL_USE`); Crush
//!   fires no other event: another key's hooks never run (reported), but
//!   they are still validated;
//! - an entry without a `command` (`""`, absent, or a Claude Code matcher
//!   group `{matcher, hooks: [...]}`) rejects the file: "hook
//!   PreToolUse[0]: command is required" (Crush does not start);
//! - a `matcher` that is not a valid regular expression rejects the file
//!   ("invalid matcher regex"); `""` or no matcher matches every tool;
//! - a field of the wrong JSON type rejects the file (Go's decoder: a
//!   string `timeout`, a fractional `timeout`, a number `command`, an entry
//!   that is not an object); `null` is the field's zero value;
//! - field names match case-insensitively (`"Command"` is `command`),
//!   as Go's decoder matches them; unknown fields are ignored (reported);
//! - `timeout` is whole seconds, 30 when absent, zero or negative.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{is_pre_tool_use, CRUSH, PROFILE};
use crate::config::matcher::{compile, Matcher};
use crate::config::{type_name, HandlerSpec, HookGroup, HookSpec, HooksConfig, Launch, Shell, Source, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::HookEvent;

/// The fields of a Crush hook entry (`config.HookConfig`).
pub(crate) const FIELDS: &[&str] = &["name", "matcher", "command", "timeout"];

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

/// The value of `key` in `obj` as Go's `encoding/json` finds a struct
/// field: every key equal to it ignoring case counts, the last one in the
/// document wins (each one decoded overwrites the field).
pub(crate) fn field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    obj.iter().filter(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v).next_back()
}

/// Read a Crush config file (see the module documentation).
pub(crate) fn read(v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    let Value::Object(top) = v else {
        return Err(cfg_err(format!("a Crush config must be a JSON object, got {}", type_name(v))));
    };
    let mut cfg = HooksConfig::empty_of(&CRUSH);
    let hooks = match field(top, "hooks") {
        None | Some(Value::Null) => return Ok(cfg),
        Some(Value::Object(hooks)) => hooks,
        Some(other) => return Err(cfg_err(format!("hooks must be an object, got {}", type_name(other)))),
    };
    let source = Arc::new(Source::new(info.clone(), false));
    let mut pre_tool_use = Vec::new();
    for (key, value) in hooks {
        let items = match value {
            Value::Null => continue,
            Value::Array(items) => items,
            other => {
                return Err(cfg_err(format!("hooks.{key} must be an array of hooks, got {}", type_name(other))));
            }
        };
        let fires = is_pre_tool_use(key);
        let mut groups = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let path = format!("hooks.{key}[{i}]");
            groups.push(parse_entry(&mut cfg, &source, key, &path, i, item)?);
        }
        if fires {
            pre_tool_use.extend(groups);
        } else if !groups.is_empty() {
            cfg.push_never_runs(format!("hooks.{key}"), unknown_event(key));
        }
    }
    cfg.push_groups(HookEvent::PreToolUse, pre_tool_use);
    Ok(cfg)
}

/// The warning for an event key Crush never fires.
fn unknown_event(key: &str) -> String {
    let hint = match HookEvent::from_name(key) {
        Some(_) => format!("; `{key}` is a Claude Code event Crush does not have yet"),
        None => match crate::suggest::closest(key, ["PreToolUse"]) {
            Some(k) => format!("; did you mean `{k}`?"),
            None => String::new(),
        },
    };
    format!("Crush fires only PreToolUse: the hooks of `{key}` never run{hint}")
}

/// A string field: `""` when absent or null (Go's zero value).
fn string(obj: &Map<String, Value>, path: &str, key: &str) -> Result<String> {
    match field(obj, key) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(cfg_err(format!("{path}.{key} must be a string, got {}", type_name(other)))),
    }
}

/// `timeout`: a whole number of seconds (Go's `int`); `None` when absent,
/// null, zero or negative (Crush's default, 30 s, then applies).
fn timeout(obj: &Map<String, Value>, path: &str) -> Result<Option<u64>> {
    match field(obj, "timeout") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match (n.as_u64(), n.as_i64()) {
            (Some(0), _) => Ok(None),
            (Some(s), _) => Ok(Some(s)),
            (None, Some(_)) => Ok(None),
            (None, None) => Err(cfg_err(format!(
                "{path}.timeout must be a whole number of seconds, got {n} (Crush cannot read the file)"
            ))),
        },
        Some(other) => Err(cfg_err(format!("{path}.timeout must be a number of seconds, got {}", type_name(other)))),
    }
}

fn parse_entry(
    cfg: &mut HooksConfig,
    source: &Arc<Source>,
    event: &str,
    path: &str,
    index: usize,
    v: &Value,
) -> Result<HookGroup> {
    let empty = Map::new();
    let obj = match v {
        Value::Object(obj) => obj,
        // Go decodes null into the zero entry: no command.
        Value::Null => &empty,
        other => return Err(cfg_err(format!("{path} must be an object, got {}", type_name(other)))),
    };
    let command = string(obj, path, "command")?;
    let matcher_raw = string(obj, path, "matcher")?;
    let name = string(obj, path, "name")?;
    let timeout_seconds = timeout(obj, path)?;
    if command.is_empty() {
        let nested = if field(obj, "hooks").is_some() {
            " (Crush's hooks are flat entries `{\"matcher\", \"command\"}`, not Claude Code matcher groups with \
             `hooks`)"
        } else {
            ""
        };
        return Err(cfg_err(format!("hook {event}[{index}]: command is required{nested}")));
    }
    let matcher = match matcher_raw.as_str() {
        "" => Matcher::All,
        raw => Matcher::Regex(
            compile(raw).map_err(|e| cfg_err(format!("hook {event}[{index}]: invalid matcher regex {raw:?}: {e}")))?,
        ),
    };
    for key in obj.keys().filter(|k| !FIELDS.iter().any(|f| f.eq_ignore_ascii_case(k))) {
        let hint = crate::suggest::closest(key, FIELDS.iter().copied())
            .map(|f| format!("; did you mean `{f}`?"))
            .unwrap_or_default();
        let why = match key.as_str() {
            "hooks" | "type" => "Crush's entries are flat: `command` runs in its shell",
            "async" | "if" | "statusMessage" => "a Claude Code field Crush does not have",
            _ => "ignored",
        };
        cfg.push_warning(format!("{path}.{key}"), format!("Crush does not read the field `{key}`: {why}{hint}"));
    }
    let hook = HookSpec {
        handler: HandlerSpec::Command { command, args: None, shell: Shell::Sh, launch: Launch::default() },
        timeout_seconds,
        default_timeout: PROFILE.default_timeout,
        if_rule: None,
        run_async: false,
        async_rewake: false,
        status_message: None,
        fail_closed: false,
        name: (!name.is_empty()).then_some(name),
        env: Vec::new(),
        native_event: None,
        loop_limit: None,
        path: path.to_owned(),
        source: source.clone(),
    };
    Ok(HookGroup {
        matcher_raw: (!matcher_raw.is_empty()).then_some(matcher_raw),
        matcher,
        sequential: false,
        hooks: vec![hook],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_value(v: Value) -> Result<HooksConfig> {
        read(&v, &SourceInfo::new(&CRUSH))
    }

    /// "Event names are case insensitive and snake-caseable, so
    /// `PreToolUse`, `pretooluse`, `PRETOOLUSE`, `pre_tool_use`, and
    /// `PRE_TOOL_USE` all work." (crush docs/hooks/README.md @37f36e93)
    #[test]
    fn event_names_are_case_and_underscore_insensitive() {
        let cfg = read_value(json!({"hooks": {
            "PreToolUse": [{"command": "a"}],
            "pretooluse": [{"command": "b"}],
            "PRETOOLUSE": [{"command": "c"}],
            "pre_tool_use": [{"command": "d"}],
            "PRE_TOOL_USE": [{"command": "e"}]
        }}))
        .unwrap();
        let commands: Vec<_> =
            cfg.groups(HookEvent::PreToolUse).iter().map(|g| g.hooks[0].command_text().unwrap()).collect();
        assert_eq!(commands, ["a", "b", "c", "d", "e"]);
    }

    /// `ValidateHooks`: "hook %s[%d]: command is required" — a Claude Code
    /// matcher group has no `command` and stops Crush from loading.
    #[test]
    fn a_nested_group_or_a_missing_command_rejects_the_file() {
        for bad in [
            json!({"hooks": {"PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "x"}]}]}}),
            json!({"hooks": {"PreToolUse": [{"matcher": "bash"}]}}),
            json!({"hooks": {"PreToolUse": [{"command": ""}]}}),
            json!({"hooks": {"PreToolUse": [null]}}),
            json!({"hooks": {"PostToolUse": [{"name": "x"}]}}),
        ] {
            let e = read_value(bad.clone()).unwrap_err();
            assert!(e.message.contains("command is required"), "{bad}: {}", e.message);
        }
        let e = read_value(json!({"hooks": {"PreToolUse": [{"matcher": "x", "hooks": []}]}})).unwrap_err();
        assert!(e.message.contains("not Claude Code matcher groups"), "{}", e.message);
    }

    /// `ValidateHooks`: "hook %s[%d]: invalid matcher regex %q" — a load
    /// error, not a hook that matches everything or nothing.
    #[test]
    fn an_invalid_matcher_rejects_the_file() {
        for bad in ["*", "(", "[a-"] {
            let e = read_value(json!({"hooks": {"PreToolUse": [{"matcher": bad, "command": "x"}]}})).unwrap_err();
            assert!(e.message.contains("invalid matcher regex"), "{bad}: {}", e.message);
        }
    }

    /// "Regex tested against the tool name. Omit to match all." — searched,
    /// not anchored (Go's `MatchString`).
    #[test]
    fn matchers_are_searched_regexes() {
        let cfg = read_value(json!({"hooks": {"PreToolUse": [
            {"matcher": "^bash$", "command": "a"},
            {"matcher": "edit", "command": "b"},
            {"command": "c"},
            {"matcher": "", "command": "d"}
        ]}}))
        .unwrap();
        let g = cfg.groups(HookEvent::PreToolUse);
        assert!(g[0].matcher.matches("bash") && !g[0].matcher.matches("bash2"));
        assert!(g[1].matcher.matches("multiedit") && g[1].matcher.matches("edit"));
        assert!(g[2].matcher.is_all() && g[3].matcher.is_all());
    }

    #[test]
    fn fields_match_case_insensitively_and_types_are_checked() {
        let cfg =
            read_value(json!({"Hooks": {"PreToolUse": [{"Command": "x", "MATCHER": "bash", "Timeout": 5}]}})).unwrap();
        let h = &cfg.groups(HookEvent::PreToolUse)[0];
        assert_eq!(h.hooks[0].command_text(), Some("x"));
        assert_eq!(h.matcher_raw.as_deref(), Some("bash"));
        assert_eq!(h.hooks[0].timeout_seconds, Some(5));
        for bad in [
            json!({"hooks": {"PreToolUse": [{"command": "x", "timeout": "5"}]}}),
            json!({"hooks": {"PreToolUse": [{"command": "x", "timeout": 1.5}]}}),
            json!({"hooks": {"PreToolUse": [{"command": 1}]}}),
            json!({"hooks": {"PreToolUse": ["x"]}}),
            json!({"hooks": {"PreToolUse": {"command": "x"}}}),
            json!({"hooks": []}),
            json!([]),
        ] {
            assert!(read_value(bad.clone()).is_err(), "{bad}");
        }
    }

    /// "timeout: Seconds before the hook is killed. Defaults to 30." —
    /// `TimeoutDuration`: `Timeout <= 0` is 30 s.
    #[test]
    fn zero_or_negative_timeouts_are_the_default() {
        let cfg = read_value(json!({"hooks": {"PreToolUse": [
            {"command": "a", "timeout": 0}, {"command": "b", "timeout": -3}, {"command": "c"}
        ]}}))
        .unwrap();
        for g in cfg.groups(HookEvent::PreToolUse) {
            assert_eq!(g.hooks[0].timeout_seconds, None);
            assert_eq!(g.hooks[0].default_timeout, std::time::Duration::from_secs(30));
        }
    }

    #[test]
    fn other_events_never_run_and_other_config_is_not_reported() {
        let cfg = read_value(json!({
            "models": {"large": {"model": "m", "provider": "p"}},
            "hooks": {"PostToolUse": [{"command": "x"}], "PreToolUse": [{"command": "y", "async": true}]}
        }))
        .unwrap();
        let w = cfg.warnings();
        assert!(w.iter().any(|w| w.path == "hooks.PostToolUse" && w.never_runs), "{w:?}");
        assert!(w.iter().any(|w| w.path == "hooks.PreToolUse[0].async"), "{w:?}");
        assert!(!w.iter().any(|w| w.path.contains("models")), "{w:?}");
        assert_eq!(cfg.groups(HookEvent::PreToolUse).len(), 1);
        assert_eq!(cfg.groups(HookEvent::PostToolUse).len(), 0);
    }
}
