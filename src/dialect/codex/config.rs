//! Codex's hook configs: `hooks.json` and the `[hooks]` table of a
//! `config.toml` (openai/codex `codex-rs/config/src/hook_config.rs` and
//! `codex-rs/hooks/src/engine/discovery.rs`), validated as Codex validates
//! them.
//!
//! ```json
//! { "description": "optional", "hooks": { "PreToolUse": [ { "matcher": "Bash",
//!   "hooks": [ { "type": "command", "command": "…", "timeout": 30 } ] } ] } }
//! ```
//!
//! What Codex rejects rejects the whole file (`InvalidConfig`, with Codex's
//! `failed to parse hooks config <file>` and the entry at fault; Codex skips
//! that file with a startup warning): JSON that is not an object, a
//! top-level key other than `description` and `hooks` (events at the root),
//! a value of the wrong type anywhere (`"timeout": -1`, `"async": "yes"`,
//! `"hooks": null`), a handler without `type` or with a type Codex does not
//! know, a command handler without `command`. In a `config.toml` the same
//! problems in `[hooks]` reject it (`failed to parse TOML hooks in <file>`;
//! Codex skips the inline table), and TOML that does not parse is an error.
//!
//! What Codex skips is skipped and listed in the config's warnings:
//!
//! | entry | warning |
//! |---|---|
//! | a matcher that is not a valid regex, on an event that uses matchers | `invalid matcher "<m>" in <file>: <error>` (the group) |
//! | a command that is blank after trimming | `skipping empty hook command in <file>` |
//! | `prompt`, `agent`, `mcp_tool` handlers | `skipping <kind> hook in <file>: <kind> hooks are not supported yet` |
//! | an event key Codex does not have (`Notification`, `PostToolUseFailure`, …) | ignored (Codex says nothing; hookline lists it) |
//! | `async: true` on SessionEnd | runs synchronously: `running async SessionEnd hook synchronously` |
//! | a SessionEnd `timeout` above 3 | clamped: `clamping SessionEnd hook timeout to 3s` |
//! | `additionalContextLimit` on an event without model context | `ignoring additionalContextLimit for <Event> hook` |
//!
//! Codex's own normalisations: `timeout` is seconds, default 600, `0` means
//! 1; SessionEnd hooks default to 1 s and are clamped to 1..=3 s (the
//! digest line carries the timeout Codex applies, as Codex's own trust hash
//! does); `commandWindows` (TOML also `command_windows`) replaces `command`
//! on Windows only; a matcher on UserPromptSubmit or Stop is ignored (even
//! an invalid one); a group without `hooks` runs nothing; unknown group and
//! handler fields (`if`, `failClosed`, `shell`, …) are ignored (and listed
//! in the warnings, with the closest field Codex reads); plugin
//! sources get `${PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_ROOT}` replaced by the
//! plugin root in their commands. `[hooks.state]` (Codex's per-hook
//! enablement and trusted hashes) is not imported: hookline's own approval
//! gate applies.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{EVENT_KEYS, POST_COMPACT};
use crate::config::matcher::Matcher;
use crate::config::{type_name, HandlerSpec, HookGroup, HookSpec, HooksConfig, Source, SourceInfo};
use crate::dialect::{warn_unknown_fields, Dialect};
use crate::error::{Error, Result};
use crate::model::event::HookEvent;

/// Events whose handlers may set `additionalContextLimit`.
const CONTEXT_EVENTS: &[&str] = &["PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "SubagentStart"];

/// Events whose matcher Codex ignores.
const MATCHERLESS: &[&str] = &["UserPromptSubmit", "Stop"];

/// The longest SessionEnd timeout Codex allows, in seconds.
const SESSION_END_MAX_TIMEOUT: u64 = 3;

/// Where a config comes from, for messages.
struct Origin<'a> {
    /// `failed to parse hooks config <file>` / `failed to parse TOML hooks in <file>`.
    rejected: String,
    /// The file as Codex's warnings name it.
    file: String,
    info: &'a SourceInfo,
    toml: bool,
}

impl Origin<'_> {
    fn reject(&self, msg: impl std::fmt::Display) -> Error {
        Error::invalid_config(format!("{}: {msg} (Codex skips the whole file)", self.rejected))
    }
}

fn file_of(info: &SourceInfo, default: &str) -> String {
    info.path.as_deref().map_or_else(|| default.to_owned(), |p| p.display().to_string())
}

/// A `hooks.json`: `{"description": …, "hooks": {<Event>: [groups]}}`.
pub(super) fn read_hooks_json(value: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    let file = file_of(info, "hooks.json");
    let origin = Origin { rejected: format!("failed to parse hooks config {file}"), file, info, toml: false };
    let Value::Object(top) = value else {
        return Err(origin.reject(format!("the file must be a JSON object, got {}", type_name(value))));
    };
    if let Some(key) = top.keys().find(|k| !matches!(k.as_str(), "description" | "hooks")) {
        let hint = match HookEvent::from_name(key).is_some() || key == POST_COMPACT {
            true => "; events go under `hooks`",
            false => "",
        };
        return Err(origin.reject(format!("unknown field `{key}`, expected `description` or `hooks`{hint}")));
    }
    match top.get("description") {
        None | Some(Value::Null | Value::String(_)) => {}
        Some(other) => return Err(origin.reject(format!("description must be a string, got {}", type_name(other)))),
    }
    match top.get("hooks") {
        None => Ok(HooksConfig::empty_of(&super::CODEX)),
        Some(Value::Object(events)) => read_events(&origin, events),
        Some(other) => Err(origin.reject(format!("hooks must be an object, got {}", type_name(other)))),
    }
}

/// A `config.toml`: its `[hooks]` table (the rest of the file is other
/// settings). The TOML must parse.
pub(super) fn read_config_toml(text: &str, info: &SourceInfo) -> Result<HooksConfig> {
    let file = file_of(info, "config.toml");
    let doc: toml::Table = toml::from_str(text)
        .map_err(|e| Error::invalid_config(format!("{file} is not valid TOML: {}", e.message())))?;
    let origin = Origin { rejected: format!("failed to parse TOML hooks in {file}"), file, info, toml: true };
    let Some(hooks) = doc.get("hooks") else {
        return Ok(HooksConfig::empty_of(&super::CODEX));
    };
    let hooks = serde_json::to_value(hooks).map_err(|e| origin.reject(format!("[hooks] cannot be read: {e}")))?;
    let Value::Object(events) = &hooks else {
        return Err(origin.reject(format!("hooks must be a table, got {}", type_name(&hooks))));
    };
    let mut cfg = read_events(&origin, events)?;
    if let Some(json) = sibling_hooks_json(info.path.as_deref()) {
        if !cfg.is_empty() {
            cfg.push_warning(
                "hooks",
                format!(
                    "loading hooks from both {} and {}; prefer a single representation for this layer",
                    json.display(),
                    origin.file
                ),
            );
        }
    }
    Ok(cfg)
}

/// The `hooks.json` next to a `config.toml` when it configures hooks
/// (Codex loads both for one layer and warns).
fn sibling_hooks_json(config_toml: Option<&Path>) -> Option<std::path::PathBuf> {
    let json = config_toml?.parent()?.join("hooks.json");
    let text = std::fs::read_to_string(&json).ok()?;
    let value: Value = serde_json::from_str(&text).ok()?;
    let has_hooks = value.get("hooks").and_then(Value::as_object).is_some_and(|events| {
        EVENT_KEYS.iter().any(|k| events.get(*k).and_then(Value::as_array).is_some_and(|g| !g.is_empty()))
    });
    has_hooks.then_some(json)
}

/// One handler as Codex's config types read it.
enum Handler {
    Command {
        command: String,
        command_windows: Option<String>,
        timeout: Option<u64>,
        run_async: bool,
        status_message: Option<String>,
        context_limit: bool,
    },
    /// `prompt`, `agent` or `mcp_tool`: parsed, then skipped.
    Unsupported(&'static str),
}

struct Group {
    matcher: Option<String>,
    handlers: Vec<(String, Handler)>,
}

/// The events object: first every value is type-checked as Codex's types
/// deserialize it (one mistake anywhere rejects the file), then entries
/// Codex skips are skipped.
fn read_events(origin: &Origin<'_>, events: &Map<String, Value>) -> Result<HooksConfig> {
    let mut cfg = HooksConfig::empty_of(&super::CODEX);
    let mut parsed: Vec<(&'static str, Vec<Group>)> = Vec::new();
    for key in EVENT_KEYS {
        if let Some(v) = events.get(*key) {
            parsed.push((key, parse_groups(origin, key, v, &mut cfg)?));
        }
    }
    for key in events.keys().filter(|k| !EVENT_KEYS.contains(&k.as_str())) {
        if origin.toml && key == "state" {
            continue;
        }
        let hint = match crate::dialect::suggest_event_key(&super::CODEX, key) {
            Some(k) => format!("; did you mean `{k}`?"),
            None => String::new(),
        };
        cfg.push_never_runs(format!("hooks.{key}"), format!("Codex has no event `{key}`: ignored{hint}"));
    }
    let source = Arc::new(Source::new(origin.info.clone(), false));
    for (key, groups) in parsed {
        let built = build_groups(origin, &source, &mut cfg, key, groups);
        match HookEvent::from_name(key) {
            Some(event) => cfg.push_groups(event, built),
            None => cfg.push_named(key, built),
        }
    }
    Ok(cfg)
}

/// The groups of one event; the keys Codex ignores (of a group, of a
/// command handler) go to `cfg`'s warnings.
fn parse_groups(origin: &Origin<'_>, key: &str, v: &Value, cfg: &mut HooksConfig) -> Result<Vec<Group>> {
    let Value::Array(items) = v else {
        return Err(origin.reject(format!("hooks.{key} must be an array, got {}", type_name(v))));
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, g) in items.iter().enumerate() {
        let path = format!("hooks.{key}[{i}]");
        let Value::Object(obj) = g else {
            return Err(origin.reject(format!("{path} must be an object, got {}", type_name(g))));
        };
        let matcher = match obj.get("matcher") {
            None | Some(Value::Null) => None,
            Some(Value::String(m)) => Some(m.clone()),
            Some(other) => {
                return Err(origin.reject(format!("{path}.matcher must be a string, got {}", type_name(other))))
            }
        };
        warn_unknown_fields(cfg, &path, g, super::CODEX.group_field_names());
        let handlers = match obj.get("hooks") {
            None => Vec::new(),
            Some(Value::Array(hs)) => {
                let mut handlers = Vec::with_capacity(hs.len());
                for (j, h) in hs.iter().enumerate() {
                    let hp = format!("{path}.hooks[{j}]");
                    let handler = parse_handler(origin, &hp, h)?;
                    if matches!(handler, Handler::Command { .. }) {
                        warn_unknown_fields(cfg, &hp, h, super::CODEX.hook_field_names());
                    }
                    handlers.push((hp, handler));
                }
                handlers
            }
            Some(other) => {
                return Err(origin.reject(format!("{path}.hooks must be an array, got {}", type_name(other))))
            }
        };
        out.push(Group { matcher, handlers });
    }
    Ok(out)
}

fn parse_handler(origin: &Origin<'_>, path: &str, v: &Value) -> Result<Handler> {
    let Value::Object(obj) = v else {
        return Err(origin.reject(format!("{path} must be an object, got {}", type_name(v))));
    };
    let kind = match obj.get("type") {
        None => return Err(origin.reject(format!("{path}: missing field `type`"))),
        Some(Value::String(t)) => t.as_str(),
        Some(other) => return Err(origin.reject(format!("{path}.type must be a string, got {}", type_name(other)))),
    };
    let unsupported = match kind {
        "command" => None,
        "prompt" => Some("prompt"),
        "agent" => Some("agent"),
        "mcp_tool" => Some("MCP tool"),
        other => {
            return Err(origin.reject(format!(
                "{path}: unknown variant `{other}`, expected one of `command`, `prompt`, `agent`, `mcp_tool`"
            )))
        }
    };
    if let Some(kind) = unsupported {
        return Ok(Handler::Unsupported(kind));
    }
    let string = |key: &str| -> Result<Option<String>> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(origin.reject(format!("{path}.{key} must be a string, got {}", type_name(other)))),
        }
    };
    let uint = |key: &str| -> Result<Option<u64>> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(n) => n.as_u64().map(Some).ok_or_else(|| {
                origin.reject(format!("{path}.{key} must be a non-negative integer (seconds), got {n}"))
            }),
        }
    };
    let command = match obj.get("command") {
        None => return Err(origin.reject(format!("{path}: missing field `command`"))),
        Some(Value::String(c)) => c.clone(),
        Some(other) => return Err(origin.reject(format!("{path}.command must be a string, got {}", type_name(other)))),
    };
    let mut command_windows = string("commandWindows")?;
    if origin.toml && command_windows.is_none() {
        command_windows = string("command_windows")?;
    }
    let run_async = match obj.get("async") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(origin.reject(format!("{path}.async must be a boolean, got {}", type_name(other)))),
    };
    Ok(Handler::Command {
        command,
        command_windows,
        timeout: uint("timeout")?,
        run_async,
        status_message: string("statusMessage")?,
        context_limit: uint("additionalContextLimit")?.is_some(),
    })
}

/// The groups Codex keeps, with the hooks it keeps, each normalised.
fn build_groups(
    origin: &Origin<'_>,
    source: &Arc<Source>,
    cfg: &mut HooksConfig,
    key: &'static str,
    groups: Vec<Group>,
) -> Vec<HookGroup> {
    let mut out = Vec::with_capacity(groups.len());
    for (i, group) in groups.into_iter().enumerate() {
        let path = format!("hooks.{key}[{i}]");
        let matcher =
            if MATCHERLESS.contains(&key) { Ok(Matcher::All) } else { Matcher::codex(group.matcher.as_deref()) };
        let matcher = match matcher {
            Ok(m) => m,
            Err(e) => {
                let m = group.matcher.as_deref().unwrap_or_default();
                cfg.push_never_runs(path, format!("invalid matcher {m:?} in {}: {e}", origin.file));
                continue;
            }
        };
        let mut hooks = Vec::with_capacity(group.handlers.len());
        for (hpath, handler) in group.handlers {
            if let Some(hook) = build_hook(origin, source, cfg, key, &hpath, handler) {
                hooks.push(hook);
            }
        }
        if !hooks.is_empty() {
            out.push(HookGroup { matcher_raw: group.matcher, matcher, hooks, sequential: false });
        }
    }
    out
}

fn build_hook(
    origin: &Origin<'_>,
    source: &Arc<Source>,
    cfg: &mut HooksConfig,
    key: &str,
    path: &str,
    handler: Handler,
) -> Option<HookSpec> {
    let (command, command_windows, timeout, run_async, status_message, context_limit) = match handler {
        Handler::Unsupported(kind) => {
            cfg.push_warning(
                path,
                format!("skipping {kind} hook in {}: {kind} hooks are not supported yet", origin.file),
            );
            return None;
        }
        Handler::Command { command, command_windows, timeout, run_async, status_message, context_limit } => {
            (command, command_windows, timeout, run_async, status_message, context_limit)
        }
    };
    let command = match command_windows {
        Some(w) if cfg!(windows) => w,
        _ => command,
    };
    if command.trim().is_empty() {
        cfg.push_warning(path, format!("skipping empty hook command in {}", origin.file));
        return None;
    }
    let command = match origin.info.plugin_root.as_deref() {
        Some(root) => command.replace("${PLUGIN_ROOT}", root).replace("${CLAUDE_PLUGIN_ROOT}", root),
        None => command,
    };
    let session_end = key == "SessionEnd";
    let mut default_timeout = super::PROFILE.default_timeout;
    let timeout_seconds = match (timeout, session_end) {
        (None, true) => {
            default_timeout = super::SESSION_END_DEFAULT_TIMEOUT;
            None
        }
        (Some(t), true) if t > SESSION_END_MAX_TIMEOUT => {
            cfg.push_warning(path, format!("clamping SessionEnd hook timeout to {SESSION_END_MAX_TIMEOUT}s"));
            Some(SESSION_END_MAX_TIMEOUT)
        }
        (Some(t), _) => Some(t.max(1)),
        (None, false) => None,
    };
    if run_async && session_end {
        cfg.push_warning(path, "running async SessionEnd hook synchronously");
    }
    if context_limit && !CONTEXT_EVENTS.contains(&key) {
        cfg.push_warning(path, format!("ignoring additionalContextLimit for {key} hook"));
    }
    Some(HookSpec {
        handler: HandlerSpec::command(command),
        timeout_seconds,
        default_timeout,
        if_rule: None,
        run_async: run_async && !session_end,
        async_rewake: false,
        status_message,
        fail_closed: false,
        name: None,
        env: Vec::new(),
        native_event: None,
        loop_limit: None,
        path: path.to_owned(),
        source: source.clone(),
    })
}
