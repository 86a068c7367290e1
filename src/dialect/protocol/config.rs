//! The matcher-group shape the Claude Code hooks protocol's configs share:
//! an event key holds an array of groups `{"matcher": …, "hooks": [{"type":
//! "command", "command": …, <timeout key>: N, …}]}`. VT Code's `lifecycle`
//! and Claude Code's settings differ in the timeout key, the matcher rule,
//! the hook fields Claude Code adds and what a malformed entry does; each
//! dialect passes its [`GroupShape`].
//!
//! The structure, one function per level:
//!
//! | level | function | reads |
//! |---|---|---|
//! | an event key's value | [`parse_groups`] | an array of groups |
//! | a group | `parse_group` | `matcher`, `hooks` |
//! | a hook: the fields every handler type shares | `parse_hook` | `type`, the timeout key, `if`, `async`, `asyncRewake`, `statusMessage`, `failClosed`, `onFailure` (command and http hooks) |
//! | a hook: its handler type's own fields | `handlers::parse_handler` | `command` (and `args`, `shell`) for `"command"`; `url`, `headers`, … for the other types |
//!
//! What is malformed (every message names the entry with the dialect's
//! event key, e.g. `hooks.pre_tool_use[0].hooks[1] must specify a command`):
//! an event value that is not an array; a group that is not an object,
//! without `hooks` or with an empty `hooks` array, or whose matcher does not
//! compile; a hook that is not an object, a handler without its required
//! fields (a missing, empty or blank `command`, an http hook's `url`, …)
//! or of an unknown `type` (a missing `type` means `command`); a timeout
//! that is not a positive integer; an `if` condition that does not parse;
//! JSON values of the wrong type. A `null` matcher is the same as an
//! absent one; unknown keys are ignored, each listed in the config's
//! warnings (with the closest field name the dialect reads, if one is
//! close: `"matchr"`, did you mean `matcher`?).
//!
//! What happens to a malformed entry is the shape's
//! [`Malformed`] rule: VT Code rejects the whole configuration
//! (`InvalidConfig`); Claude Code (since 2.1.101) skips that entry — the
//! event, the group or the one hook — records a warning
//! ([`HooksConfig::push_skipped`], `hl_engine_config_warnings`) and loads
//! everything else. This holds for a hook of every handler type.

use std::sync::Arc;

use serde_json::Value;

use crate::config::matcher::Matcher;
use crate::config::rule::Rule;
use crate::config::{type_name, HookGroup, HookSpec, HooksConfig, Source};
use crate::dialect::warn_unknown_fields;
use crate::error::{Error, Result};
use crate::model::outcome::HookKind;

/// What a malformed entry does to the configuration it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Malformed {
    /// The whole configuration is rejected (`InvalidConfig`).
    Rejects,
    /// The entry is left out with a warning; the rest loads.
    Skipped,
}

/// What a dialect's groups look like.
pub(crate) struct GroupShape {
    /// The key of a hook's timeout in seconds (`timeout_seconds`, `timeout`).
    pub(crate) timeout_key: &'static str,
    /// Whether the Claude Code hook fields `if`, `async`, `asyncRewake`,
    /// `statusMessage` and `failClosed` are read, and the handler types
    /// besides `command` (`handlers.rs`).
    pub(crate) claude_fields: bool,
    /// The dialect's matcher rule for the groups of an event key.
    pub(crate) matcher: fn(&str, Option<&str>) -> std::result::Result<Matcher, regex::Error>,
    /// What a malformed entry does.
    pub(crate) malformed: Malformed,
}

/// A malformed entry: the entry's path and the sentence saying what is
/// wrong (which names the path too, as the error a rejecting dialect returns).
struct Bad {
    path: String,
    message: String,
}

impl Bad {
    fn new(path: &str, message: String) -> Bad {
        Bad { path: path.to_owned(), message }
    }
}

type Entry<T> = std::result::Result<T, Bad>;

/// Apply the shape's rule to a malformed entry: `Err` when it rejects the
/// configuration, else a warning (`what` names what is left out).
fn malformed(shape: &GroupShape, cfg: &mut HooksConfig, bad: Bad, what: &str) -> Result<()> {
    match shape.malformed {
        Malformed::Rejects => Err(Error::invalid_config(bad.message)),
        Malformed::Skipped => {
            cfg.push_skipped(bad.path, format!("{}; {what} is skipped", bad.message));
            Ok(())
        }
    }
}

/// The groups under one event key (`key` names it in paths). Malformed
/// entries follow `shape.malformed`; their warnings go to `cfg`, and so do
/// keys of groups and hooks the dialect does not read
/// ([`Dialect::group_field_names`](crate::dialect::Dialect::group_field_names),
/// [`hook_field_names`](crate::dialect::Dialect::hook_field_names)).
pub(crate) fn parse_groups(
    shape: &GroupShape,
    source: &Arc<Source>,
    key: &str,
    v: &Value,
    cfg: &mut HooksConfig,
) -> Result<Vec<HookGroup>> {
    let path = format!("hooks.{key}");
    let Value::Array(items) = v else {
        let bad = Bad::new(&path, format!("{path} must be an array, got {}", type_name(v)));
        malformed(shape, cfg, bad, "this event")?;
        return Ok(Vec::new());
    };
    let mut groups = Vec::with_capacity(items.len());
    for (i, g) in items.iter().enumerate() {
        let path = format!("{path}[{i}]");
        match parse_group(shape, source, key, &path, g, cfg)? {
            Ok(Some(group)) => groups.push(group),
            Ok(None) => {}
            Err(bad) => malformed(shape, cfg, bad, "this group")?,
        }
    }
    Ok(groups)
}

/// A group with `command` in itself and no `hooks` list is another agent's
/// flat entry (a Cursor or Copilot CLI hooks file read without its
/// dialect): say which agents' files look so, and how to name the dialect.
fn flat_entry_hint(dialect: &'static dyn crate::dialect::Dialect, key: &str) -> String {
    let mut agents: Vec<&str> = Vec::new();
    for d in crate::dialect::ALL.iter().filter(|d| !crate::dialect::same(**d, dialect)) {
        let names_key = d.native_event_keys().contains(&key)
            || crate::HookEvent::ALL.iter().any(|e| d.event_keys(*e).contains(&key));
        if names_key && !agents.contains(&d.title()) {
            agents.push(d.title());
        }
    }
    let like = if agents.is_empty() { "another agent's".to_owned() } else { format!("a {}", agents.join(" or ")) };
    format!(
        "; this entry has `command` itself, as in {like} hooks file: if it is one, name its dialect \
         (the `dialect` option, `--dialect` of the command; a Cursor file says `\"version\": 1`)"
    )
}

/// One group: `Ok(None)` when every hook of it was skipped.
fn parse_group(
    shape: &GroupShape,
    source: &Arc<Source>,
    key: &str,
    path: &str,
    v: &Value,
    cfg: &mut HooksConfig,
) -> Result<Entry<Option<HookGroup>>> {
    let Value::Object(obj) = v else {
        return Ok(Err(Bad::new(path, format!("{path} must be an object, got {}", type_name(v)))));
    };
    let dialect = source.dialect();
    let matcher_raw = match obj.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            return Ok(Err(Bad::new(path, format!("{path}.matcher must be a string, got {}", type_name(other)))))
        }
    };
    let matcher = match (shape.matcher)(key, matcher_raw.as_deref()) {
        Ok(m) => m,
        Err(e) => return Ok(Err(Bad::new(path, format!("Invalid matcher in {path}: {e}")))),
    };
    let hooks = match obj.get("hooks") {
        Some(Value::Array(a)) if !a.is_empty() => a,
        None | Some(Value::Null) | Some(Value::Array(_)) => {
            let hint = if obj.contains_key("command") { flat_entry_hint(dialect, key) } else { String::new() };
            return Ok(Err(Bad::new(path, format!("{path} must define at least one hook command in `hooks`{hint}"))));
        }
        Some(other) => {
            return Ok(Err(Bad::new(path, format!("{path}.hooks must be an array, got {}", type_name(other)))))
        }
    };
    warn_unknown_fields(cfg, path, v, dialect.group_field_names());
    let mut specs = Vec::with_capacity(hooks.len());
    for (j, h) in hooks.iter().enumerate() {
        let path = format!("{path}.hooks[{j}]");
        match parse_hook(shape, source, &path, h) {
            Ok(spec) => {
                if shape.claude_fields {
                    warn_on_failure(cfg, &path, h, &spec);
                }
                specs.push(spec);
                warn_unknown_fields(cfg, &path, h, dialect.hook_field_names());
            }
            Err(bad) => malformed(shape, cfg, bad, "this hook")?,
        }
    }
    if specs.is_empty() {
        return Ok(Ok(None));
    }
    Ok(Ok(Some(HookGroup { matcher_raw, matcher, hooks: specs, sequential: false })))
}

/// One hook: the fields every handler type shares, then its handler.
fn parse_hook(shape: &GroupShape, source: &Arc<Source>, path: &str, v: &Value) -> Entry<HookSpec> {
    let Value::Object(obj) = v else {
        return Err(Bad::new(path, format!("{path} must be an object, got {}", type_name(v))));
    };
    let handler =
        super::handlers::parse_handler(obj, path, shape.claude_fields).map_err(|e| Bad::new(path, e.message))?;
    let timeout_key = shape.timeout_key;
    let timeout_seconds = match obj.get(timeout_key) {
        None => None,
        Some(t) => match t.as_u64() {
            Some(n) if n > 0 => Some(n),
            _ => return Err(Bad::new(path, format!("{path}.{timeout_key} must be a positive integer, got {t}"))),
        },
    };
    let mut hook = HookSpec {
        handler,
        timeout_seconds,
        default_timeout: source.dialect().profile().default_timeout,
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
    if shape.claude_fields {
        let flag = |key: &str| -> Entry<bool> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(other) => Err(Bad::new(path, format!("{path}.{key} must be a boolean, got {}", type_name(other)))),
            }
        };
        // `async` and `asyncRewake` exist on command hooks only (others ignore them).
        if hook.handler.is_process() {
            hook.async_rewake = flag("asyncRewake")?;
            hook.run_async = flag("async")? || hook.async_rewake;
        }
        hook.fail_closed = flag("failClosed")? || on_failure(obj, path, &hook)? == Some(OnFailure::Block);
        hook.status_message = match obj.get("statusMessage") {
            None | Some(Value::Null) => None,
            Some(Value::String(m)) => Some(m.clone()),
            Some(other) => {
                return Err(Bad::new(path, format!("{path}.statusMessage must be a string, got {}", type_name(other))))
            }
        };
        hook.if_rule = match obj.get("if") {
            None | Some(Value::Null) => None,
            Some(Value::String(rule)) => match Rule::parse(rule) {
                Ok(rule) => Some(rule),
                Err(e) => return Err(Bad::new(path, format!("Invalid if condition in {path}: {e}"))),
            },
            Some(other) => return Err(Bad::new(path, format!("{path}.if must be a string, got {}", type_name(other)))),
        };
    }
    Ok(hook)
}

/// Claude Code's `onFailure` on a command or http hook (2.1.295): with
/// `"block"`, "a hook that can't start, times out, or exits with an
/// unexpected code blocks the action instead of letting it through";
/// `"continue"` (the default) lets it through. hookline's `failClosed:
/// true` means the same as `"block"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnFailure {
    /// A failure takes the event's blocking decision.
    Block,
    /// A failure is a non-blocking error (the default).
    Continue,
}

/// Whether Claude Code reads `onFailure` on `spec`'s handler type: command
/// and http hooks only.
fn reads_on_failure(spec: &HookSpec) -> bool {
    matches!(spec.handler.kind(), HookKind::Command | HookKind::Http)
}

/// A command or http hook's `onFailure`: absent (or null), `"block"` or
/// `"continue"`; any other value makes the hook malformed. Other handler
/// types do not read it ([`warn_on_failure`] says so).
fn on_failure(obj: &serde_json::Map<String, Value>, path: &str, spec: &HookSpec) -> Entry<Option<OnFailure>> {
    if !reads_on_failure(spec) {
        return Ok(None);
    }
    match obj.get("onFailure") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s == "block" => Ok(Some(OnFailure::Block)),
        Some(Value::String(s)) if s == "continue" => Ok(Some(OnFailure::Continue)),
        Some(other) => Err(Bad::new(path, format!("{path}.onFailure must be \"block\" or \"continue\", got {other}"))),
    }
}

/// Configuration warnings about a loaded hook's `onFailure`: set on a
/// handler type that does not read it, or contradicting `failClosed` (the
/// hook then blocks on failure: a guard does not fail open because two of
/// its fields disagree).
fn warn_on_failure(cfg: &mut HooksConfig, path: &str, v: &Value, spec: &HookSpec) {
    let Some(raw) = v.get("onFailure").filter(|v| !v.is_null()) else {
        return;
    };
    if !reads_on_failure(spec) {
        cfg.push_warning(
            format!("{path}.onFailure"),
            format!(
                "Claude Code reads onFailure on command and http hooks only; it has no effect on this {} hook \
                 (hookline's failClosed works on every handler type)",
                spec.handler.kind().as_str()
            ),
        );
        return;
    }
    let fail_closed = v.get("failClosed").and_then(Value::as_bool);
    let blocks = raw.as_str() == Some("block");
    if fail_closed.is_some_and(|f| f != blocks) {
        cfg.push_warning(
            format!("{path}.onFailure"),
            format!("onFailure {raw} and failClosed {} disagree; the hook blocks when it fails", !blocks),
        );
    }
}
