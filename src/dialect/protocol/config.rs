//! The matcher-group shape the Claude Code hooks protocol's configs share:
//! an event key holds an array of groups `{"matcher": …, "hooks": [{"type":
//! "command", "command": …, <timeout key>: N, …}]}`. VT Code's `lifecycle`
//! and Claude Code's settings differ only in the timeout key, the matcher
//! rule and the hook fields Claude Code adds; each dialect passes its
//! [`GroupShape`].
//!
//! Validation (every error is `InvalidConfig` naming the entry with the
//! dialect's event key, e.g. `hooks.pre_tool_use[0].hooks[1] must specify a
//! command`): a group without `hooks` or with an empty `hooks` array; a
//! handler without its required fields or of an unknown `type`
//! (`handlers.rs`; a missing `type` means `command`); a timeout that is not a positive
//! integer; a matcher that does not compile; JSON values of the wrong type.
//! A `null` matcher is the same as an absent one; unknown keys are ignored,
//! each listed in the config's warnings (with the closest field name the
//! dialect reads, if one is close: `"matchr"`, did you mean `matcher`?).

use std::sync::Arc;

use serde_json::Value;

use crate::config::{type_name, HookGroup, HookSpec, HooksConfig, Source};
use crate::dialect::matcher::Matcher;
use crate::dialect::warn_unknown_fields;
use crate::error::{Error, Result};
use crate::rule::Rule;

/// What a dialect's groups look like.
pub(crate) struct GroupShape {
    /// The key of a hook's timeout in seconds (`timeout_seconds`, `timeout`).
    pub(crate) timeout_key: &'static str,
    /// Whether the Claude Code hook fields `if`, `async`, `asyncRewake`,
    /// `statusMessage` and `failClosed` are read, and the handler types
    /// besides `command` (`handlers.rs`).
    pub(crate) claude_fields: bool,
    /// The dialect's matcher rule.
    pub(crate) matcher: fn(Option<&str>) -> std::result::Result<Matcher, regex::Error>,
}

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

/// The groups under one event key (`key` names it in error paths). Keys
/// of groups and hooks the dialect does not read go to `cfg`'s warnings
/// ([`Dialect::group_field_names`](crate::dialect::Dialect::group_field_names),
/// [`hook_field_names`](crate::dialect::Dialect::hook_field_names)).
pub(crate) fn parse_groups(
    shape: &GroupShape,
    source: &Arc<Source>,
    key: &str,
    v: &Value,
    cfg: &mut HooksConfig,
) -> Result<Vec<HookGroup>> {
    let Value::Array(items) = v else {
        return Err(cfg_err(format!("hooks.{key} must be an array, got {}", type_name(v))));
    };
    items.iter().enumerate().map(|(i, g)| parse_group(shape, source, &format!("hooks.{key}[{i}]"), g, cfg)).collect()
}

fn parse_group(
    shape: &GroupShape,
    source: &Arc<Source>,
    path: &str,
    v: &Value,
    cfg: &mut HooksConfig,
) -> Result<HookGroup> {
    let Value::Object(obj) = v else {
        return Err(cfg_err(format!("{path} must be an object, got {}", type_name(v))));
    };
    let dialect = source.dialect();
    warn_unknown_fields(cfg, path, v, dialect.group_field_names());
    let matcher_raw = match obj.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => return Err(cfg_err(format!("{path}.matcher must be a string, got {}", type_name(other)))),
    };
    let matcher =
        (shape.matcher)(matcher_raw.as_deref()).map_err(|e| cfg_err(format!("Invalid matcher in {path}: {e}")))?;
    let hooks = match obj.get("hooks") {
        None | Some(Value::Null) => {
            return Err(cfg_err(format!("{path} must define at least one hook command in `hooks`")))
        }
        Some(Value::Array(a)) if a.is_empty() => {
            return Err(cfg_err(format!("{path} must define at least one hook command in `hooks`")))
        }
        Some(Value::Array(a)) => a,
        Some(other) => return Err(cfg_err(format!("{path}.hooks must be an array, got {}", type_name(other)))),
    };
    let mut specs = Vec::with_capacity(hooks.len());
    for (j, h) in hooks.iter().enumerate() {
        let path = format!("{path}.hooks[{j}]");
        specs.push(parse_hook(shape, source, &path, h)?);
        warn_unknown_fields(cfg, &path, h, dialect.hook_field_names());
    }
    let hooks = specs;
    Ok(HookGroup { matcher_raw, matcher, hooks })
}

fn parse_hook(shape: &GroupShape, source: &Arc<Source>, path: &str, v: &Value) -> Result<HookSpec> {
    let Value::Object(obj) = v else {
        return Err(cfg_err(format!("{path} must be an object, got {}", type_name(v))));
    };
    let handler = super::handlers::parse_handler(obj, path, shape.claude_fields)?;
    let timeout_key = shape.timeout_key;
    let timeout_seconds = match obj.get(timeout_key) {
        None => None,
        Some(t) => match t.as_u64() {
            Some(n) if n > 0 => Some(n),
            _ => return Err(cfg_err(format!("{path}.{timeout_key} must be a positive integer, got {t}"))),
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
        native_event: None,
        loop_limit: None,
        path: path.to_owned(),
        source: source.clone(),
    };
    if shape.claude_fields {
        let flag = |key: &str| -> Result<bool> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(other) => Err(cfg_err(format!("{path}.{key} must be a boolean, got {}", type_name(other)))),
            }
        };
        // `async` and `asyncRewake` exist on command hooks only (others ignore them).
        if hook.handler.is_process() {
            hook.async_rewake = flag("asyncRewake")?;
            hook.run_async = flag("async")? || hook.async_rewake;
        }
        hook.fail_closed = flag("failClosed")?;
        hook.status_message = match obj.get("statusMessage") {
            None | Some(Value::Null) => None,
            Some(Value::String(m)) => Some(m.clone()),
            Some(other) => {
                return Err(cfg_err(format!("{path}.statusMessage must be a string, got {}", type_name(other))))
            }
        };
        hook.if_rule = match obj.get("if") {
            None | Some(Value::Null) => None,
            Some(Value::String(rule)) => {
                Some(Rule::parse(rule).map_err(|e| cfg_err(format!("Invalid if condition in {path}: {e}")))?)
            }
            Some(other) => return Err(cfg_err(format!("{path}.if must be a string, got {}", type_name(other)))),
        };
    }
    Ok(hook)
}
