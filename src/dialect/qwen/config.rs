//! Reading a Qwen Code settings file: a whole `settings.json` (`hooks`,
//! `disableAllHooks`, other settings ignored) or the `hooks` object alone.
//!
//! Qwen Code (a Gemini CLI fork) rejects nothing in a settings file that is
//! a JSON object: its hook registry drops the smallest broken unit, logs it
//! and runs the rest. So does this reader: each dropped unit is a config
//! warning naming the entry (`hooks.PreToolUse[0].hooks[1]`).
//!
//! | entry | what happens |
//! |---|---|
//! | the file is not a JSON object | error (among several sources: that file is left out, reported) |
//! | `hooks` is not an object | warning, no hooks |
//! | `disableAllHooks` (a boolean) | recorded; applied once every source is joined |
//! | an unknown event key | warning, key skipped (with the closest event name) |
//! | an event whose value is not an array | warning, event skipped |
//! | a definition that is not an object, or whose `hooks` is not an array | warning, definition skipped |
//! | a `matcher` that is not a string | warning, definition skipped |
//! | a matcher whose regular expression does not compile | warning; it still matches exactly (Qwen Code: "an invalid expression matches nothing further") |
//! | `sequential: true` | the definition's hooks run one after another, each reading what the one before wrote |
//! | a hook that is not an object, has no or an unknown `type` (`agent`, `mcp_tool`, `function` included), or lacks its type's required field | warning, hook skipped |
//! | `timeout` | `command`: seconds, a value of 1000 or more milliseconds (Qwen Code's legacy unit); `http`, `prompt`: seconds; not a positive number: warning, the default |
//! | `env` values that are not strings, numbers or booleans | warning, that variable skipped |
//! | `once`, `description` | read, no effect here (`once` is per session in Qwen Code; hookline's sessions are the host's) |

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::{aliases_of, no_aliases, NAMED_EVENTS, PROFILE, QWEN};
use crate::config::matcher::Matcher;
use crate::config::{type_name, DisableAllHooks, HookGroup, HookSpec, HooksConfig, Source, SourceInfo};
use crate::dialect::gemini::config::{at, environment, TIMEOUT_MAX_MS};
use crate::dialect::protocol::handlers::parse_handler;
use crate::dialect::warn_unknown_fields;
use crate::error::{Error, Result};
use crate::model::event::HookEvent;
use crate::model::outcome::HookKind;

/// An http hook's timeout when it sets none (Qwen Code: 600 s).
pub(super) const HTTP_DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// Command timeouts at or above this are milliseconds (Qwen Code's
/// `LEGACY_MILLISECOND_TIMEOUT_THRESHOLD`).
const LEGACY_MILLISECONDS: f64 = 1000.0;

/// Read one Qwen Code settings file.
pub(super) fn read(value: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    let Value::Object(top) = value else {
        return Err(Error::invalid_config(format!(
            "a Qwen Code settings file must be a JSON object, got {}",
            type_name(value)
        )));
    };
    let mut cfg = HooksConfig::empty_of(&QWEN);
    match top.get("disableAllHooks") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(value)) => cfg.set_disable_all_hooks(DisableAllHooks { value: *value, trusted: info.trusted }),
        Some(other) => cfg.push_skipped(
            at(info, "disableAllHooks"),
            format!("disableAllHooks must be a boolean, got {}; it is ignored", type_name(other)),
        ),
    }
    let settings_file = info
        .path
        .as_deref()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".json") && (n.starts_with("settings") || n == "system-defaults.json"));
    let settings_shape = settings_file || top.contains_key("hooks") || top.contains_key("disableAllHooks");
    let hooks = match (settings_shape, top.get("hooks")) {
        (false, _) => top,
        (true, None | Some(Value::Null)) => return Ok(cfg),
        (true, Some(Value::Object(hooks))) => hooks,
        (true, Some(other)) => {
            cfg.push_skipped(
                at(info, "hooks"),
                format!("hooks must be an object, got {}; the file contributes no hooks", type_name(other)),
            );
            return Ok(cfg);
        }
    };
    let source = Arc::new(Source::new(info.clone(), false));
    for (key, definitions) in hooks {
        let event = HookEvent::from_name(key);
        let named = NAMED_EVENTS.contains(&key.as_str());
        if event.is_none() && !named {
            let hint = gemini_name(key)
                .or_else(|| crate::dialect::suggest_event_key(&QWEN, key))
                .map(|k| format!("; did you mean `{k}`?"))
                .unwrap_or_default();
            cfg.push_never_runs(
                at(info, &format!("hooks.{key}")),
                format!("unknown hook event `{key}`: Qwen Code skips it{hint}"),
            );
            continue;
        }
        let Value::Array(items) = definitions else {
            cfg.push_skipped(
                at(info, &format!("hooks.{key}")),
                format!("must be an array of hook definitions, got {}; skipped", type_name(definitions)),
            );
            continue;
        };
        let groups = definition_groups(&mut cfg, info, &source, key, items);
        match event {
            Some(event) => cfg.push_groups(event, groups),
            None => cfg.push_named(key, groups),
        }
    }
    Ok(cfg)
}

/// Qwen Code's name of an event Gemini CLI names `key` (settings carried
/// over from Gemini CLI).
fn gemini_name(key: &str) -> Option<&'static str> {
    Some(match key {
        "BeforeTool" => "PreToolUse",
        "AfterTool" => "PostToolUse",
        "BeforeAgent" => "UserPromptSubmit",
        "AfterAgent" => "Stop",
        "PreCompress" => "PreCompact",
        _ => return None,
    })
}

/// The matcher rule of an event key: exact for Notification and
/// PreCompact ("exact match" in Qwen Code's matcher table), Qwen Code's
/// rule elsewhere, with tool display names as aliases on tool events.
fn matcher(cfg: &mut HooksConfig, info: &SourceInfo, path: &str, key: &str, raw: Option<&str>) -> Matcher {
    if matches!(key, "Notification" | "PreCompact") {
        return Matcher::gemini_exact(raw);
    }
    let aliases = if super::is_tool_key(key) { aliases_of } else { no_aliases };
    let (matcher, error) = Matcher::qwen(raw, aliases);
    if let Some(e) = error {
        cfg.push_warning(
            at(info, &format!("{path}.matcher")),
            format!(
                "{:?} is not a regular expression this engine compiles ({}); it matches only exactly, as Qwen Code \
                 does with an invalid one",
                raw.unwrap_or(""),
                e.to_string().lines().last().unwrap_or("").trim()
            ),
        );
    }
    matcher
}

/// The definitions of one event key, each a group (definitions without a
/// hook that loads are left out).
fn definition_groups(
    cfg: &mut HooksConfig,
    info: &SourceInfo,
    source: &Arc<Source>,
    key: &str,
    items: &[Value],
) -> Vec<HookGroup> {
    let mut groups = Vec::new();
    for (i, definition) in items.iter().enumerate() {
        let path = format!("hooks.{key}[{i}]");
        let hooks = definition.as_object().and_then(|d| d.get("hooks"));
        let (Value::Object(obj), Some(Value::Array(hooks))) = (definition, hooks) else {
            let what = match definition {
                Value::Object(_) => "has no `hooks` array".to_owned(),
                other => format!("must be an object, got {}", type_name(other)),
            };
            cfg.push_skipped(at(info, &path), format!("{what}; definition skipped"));
            continue;
        };
        let matcher_raw = match obj.get("matcher") {
            None | Some(Value::Null) => None,
            Some(Value::String(m)) => Some(m.clone()),
            Some(other) => {
                cfg.push_skipped(
                    at(info, &format!("{path}.matcher")),
                    format!("must be a string, got {}; definition skipped", type_name(other)),
                );
                continue;
            }
        };
        warn_unknown_fields(cfg, &at(info, &path), definition, &["matcher", "sequential", "hooks"]);
        let matcher = matcher(cfg, info, &path, key, matcher_raw.as_deref());
        let sequential = obj.get("sequential") == Some(&Value::Bool(true));
        let specs: Vec<HookSpec> = hooks
            .iter()
            .enumerate()
            .filter_map(|(j, h)| hook(cfg, info, source, &format!("{path}.hooks[{j}]"), h))
            .collect();
        if !specs.is_empty() {
            groups.push(HookGroup { matcher_raw, matcher, hooks: specs, sequential });
        }
    }
    groups
}

/// The hook fields Qwen Code reads, every handler type's, and hookline's
/// `failClosed`.
pub(super) const HOOK_FIELDS: &[&str] = &[
    "type",
    "command",
    "args",
    "shell",
    "name",
    "description",
    "timeout",
    "async",
    "env",
    "statusMessage",
    "url",
    "headers",
    "allowedEnvVars",
    "once",
    "prompt",
    "model",
    "failClosed",
];

/// One hook entry, `None` (with a warning) when Qwen Code would skip it.
fn hook(cfg: &mut HooksConfig, info: &SourceInfo, source: &Arc<Source>, path: &str, v: &Value) -> Option<HookSpec> {
    let skip = |cfg: &mut HooksConfig, why: String| {
        cfg.push_skipped(at(info, path), format!("{why}; hook skipped"));
        None
    };
    let Value::Object(obj) = v else {
        return skip(cfg, format!("must be an object, got {}", type_name(v)));
    };
    match obj.get("type") {
        Some(Value::String(t)) if matches!(t.as_str(), "command" | "http" | "prompt") => {}
        None | Some(Value::Null) => {
            return skip(cfg, "has no `type` (Qwen Code's types are \"command\", \"http\" and \"prompt\")".into())
        }
        Some(other) => {
            return skip(
                cfg,
                format!(
                    "has type {other}, which Qwen Code does not run from settings (\"command\", \"http\", \"prompt\")"
                ),
            )
        }
    }
    let handler = match parse_handler(obj, path, true) {
        Ok(h) => h,
        Err(e) => return skip(cfg, e.message),
    };
    warn_unknown_fields(cfg, &at(info, path), v, HOOK_FIELDS);
    let kind = handler.kind();
    let text = |cfg: &mut HooksConfig, key: &str| match obj.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            cfg.push_warning(
                at(info, &format!("{path}.{key}")),
                format!("must be a string, got {}; ignored", type_name(other)),
            );
            None
        }
    };
    let name = text(cfg, "name");
    let status_message = text(cfg, "statusMessage");
    let flag = |key: &str| obj.get(key) == Some(&Value::Bool(true));
    let timeout_ms = obj.get("timeout").filter(|t| !t.is_null()).and_then(|t| timeout_ms(cfg, info, path, kind, t));
    let env = if kind == HookKind::Command { environment(cfg, info, path, obj.get("env")) } else { Vec::new() };
    let default_timeout = match kind {
        HookKind::Http => HTTP_DEFAULT_TIMEOUT,
        _ => PROFILE.default_timeout,
    };
    Some(HookSpec {
        handler,
        timeout_seconds: timeout_ms,
        default_timeout,
        if_rule: None,
        // Qwen Code: "async: command only".
        run_async: kind == HookKind::Command && flag("async"),
        async_rewake: false,
        status_message,
        fail_closed: flag("failClosed"),
        name,
        native_event: None,
        loop_limit: None,
        env,
        path: path.to_owned(),
        source: source.clone(),
    })
}

/// A hook's timeout in milliseconds (the profile's unit): a command's
/// `timeout` is seconds, or milliseconds from 1000 on (Qwen Code's
/// `resolveCommandHookTimeoutMs`); an http or prompt hook's is seconds.
/// A value that is not a positive number is warned about and the default
/// applies (`None`).
fn timeout_ms(cfg: &mut HooksConfig, info: &SourceInfo, path: &str, kind: HookKind, t: &Value) -> Option<u64> {
    let n = t.as_f64().filter(|n| n.is_finite() && *n > 0.0);
    let Some(n) = n else {
        cfg.push_warning(
            at(info, &format!("{path}.timeout")),
            format!("must be a positive number, got {t}; the default timeout applies"),
        );
        return None;
    };
    let ms = if kind == HookKind::Command && n >= LEGACY_MILLISECONDS { n } else { n * 1000.0 };
    Some(ms.min(TIMEOUT_MAX_MS).floor().max(1.0) as u64)
}
