//! Reading a Gemini CLI settings file: a whole `settings.json` (`hooks`,
//! `hooksConfig`, other settings ignored), an extension's `hooks/hooks.json`
//! (`{"hooks": {…}}`), or the `hooks` object alone.
//!
//! Gemini CLI rejects nothing in a settings file that is a JSON object: it
//! drops the smallest broken unit, logs it, and runs the rest
//! (`hookRegistry.ts`, and its test "should handle mixed valid and invalid
//! hook configurations"). So does this reader: each dropped unit is a
//! config warning naming the entry (`hooks.BeforeTool[0].hooks[1]`), which
//! `hookline check` prints.
//!
//! | entry | what happens |
//! |---|---|
//! | the file is not a JSON object | error (Gemini CLI reads it as `{}` and shows the error) |
//! | `hooks` is not an object | warning, no hooks |
//! | an extension's `hooks/hooks.json` without a `hooks` object (the bare hooks object, say) | warning, no hooks; its `hooksConfig` is not read |
//! | `enabled`, `disabled`, `notifications` under `hooks` (legacy switches) | skipped silently |
//! | an unknown event key (Claude Code's `PreToolUse`, …) | warning `Invalid hook event name`, key skipped |
//! | an event whose value is not an array | warning, event skipped |
//! | a definition that is not an object, or whose `hooks` is not an array | warning, definition skipped |
//! | a definition whose `matcher` is not a string | warning, definition skipped (deviation: Gemini CLI fails every hook of the event when it tests it) |
//! | a tool matcher that does not compile as a regular expression | warning; compared with the tool name exactly, as Gemini CLI does |
//! | a hook that is not an object, has no or an unknown `type`, a command hook without a `command`, a `runtime` hook | warning, hook skipped |
//! | `type: "plugin"` with a `command` | runs as a command hook (as in Gemini CLI), with a warning |
//! | `timeout` that Node's timers would not take as written (0, negative, not a number, above 2³¹−1 ms) | warning; 1 ms, as Node's `setTimeout` makes it |
//! | `env` values that are not strings, numbers or booleans, names with `=` or NUL | warning, that variable skipped |
//! | `hooksConfig.enabled` / `hooksConfig.disabled` | recorded as the source's switches (see [`Switches`]) |

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value;

use super::{canonical_events, GEMINI, NATIVE_EVENTS};
use crate::config::matcher::Matcher;
use crate::config::{type_name, HandlerSpec, HookGroup, HookSpec, HooksConfig, Source, SourceInfo, Switches};
use crate::dialect::matcher::js_trim;
use crate::error::{Error, Result};
use crate::model::event::HookEvent;

/// The keys of `hooks` that are switches of older Gemini CLI versions,
/// skipped silently (`HOOKS_CONFIG_FIELDS`).
const LEGACY_SWITCHES: &[&str] = &["enabled", "disabled", "notifications"];

/// Largest timeout Node's timers take (`TIMEOUT_MAX`, 2³¹−1 ms).
pub(crate) const TIMEOUT_MAX_MS: f64 = 2_147_483_647.0;

/// Where a source's entries are named in warnings.
pub(crate) fn at(source: &SourceInfo, path: &str) -> String {
    match &source.path {
        Some(file) => format!("{}: {path}", file.display()),
        None => path.to_owned(),
    }
}

/// Read one Gemini CLI settings or hooks file.
pub(super) fn read(value: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    let Value::Object(top) = value else {
        return Err(Error::invalid_config(format!(
            "a Gemini CLI settings file must be a JSON object, got {}",
            type_name(value)
        )));
    };
    let mut cfg = HooksConfig::empty_of(&GEMINI);
    // A file named as Gemini CLI's settings files is one even without
    // hooks (its other settings are not event keys).
    let settings_file = info
        .path
        .as_deref()
        .and_then(|p| p.file_name())
        .is_some_and(|n| n == "settings.json" || n == "system-defaults.json");
    // An extension's `hooks/hooks.json`: Gemini CLI reads its `hooks`
    // object only (no switches), and ignores the file when that is not an
    // object.
    let extension_file = info.path.as_deref().is_some_and(|p| crate::dialect::plugin_hooks_json_root(p).is_some());
    if extension_file && !top.get("hooks").is_some_and(Value::is_object) {
        let got = top.get("hooks").map_or("nothing", type_name);
        cfg.push_warning(
            at(info, "hooks"),
            format!(
                "an extension's hooks file must have a `hooks` object, got {got}; Gemini CLI ignores the file's hooks"
            ),
        );
        return Ok(cfg);
    }
    let settings_shape =
        extension_file || settings_file || top.contains_key("hooks") || top.contains_key("hooksConfig");
    if let (false, Some(switches)) = (extension_file, top.get("hooksConfig")) {
        read_switches(&mut cfg, info, switches);
    }
    let hooks = match (settings_shape, top.get("hooks")) {
        (false, _) => top,
        (true, None | Some(Value::Null)) => return Ok(cfg),
        (true, Some(Value::Object(hooks))) => hooks,
        (true, Some(other)) => {
            cfg.push_warning(
                at(info, "hooks"),
                format!("must be an object, got {}; no hooks are read", type_name(other)),
            );
            return Ok(cfg);
        }
    };
    let source = Arc::new(Source::new(info.clone(), false));
    for (key, definitions) in hooks {
        if LEGACY_SWITCHES.contains(&key.as_str()) {
            continue;
        }
        let events = canonical_events(key);
        let native = NATIVE_EVENTS.contains(&key.as_str());
        if events.is_empty() && !native {
            let hint = suggestion(key).map(|k| format!("; did you mean `{k}`?")).unwrap_or_default();
            cfg.push_never_runs(
                at(info, &format!("hooks.{key}")),
                format!("Invalid hook event name: \"{key}\" (Gemini CLI skips it){hint}"),
            );
            continue;
        }
        let Value::Array(items) = definitions else {
            cfg.push_warning(
                at(info, &format!("hooks.{key}")),
                format!("must be an array of hook definitions, got {}; skipped", type_name(definitions)),
            );
            continue;
        };
        let groups = definition_groups(&mut cfg, info, &source, key, events, items);
        if native {
            cfg.push_named(key, groups);
        } else {
            for event in events {
                cfg.push_groups(*event, groups.iter().cloned());
            }
        }
    }
    Ok(cfg)
}

/// The Gemini CLI event key that `key` probably means: Claude Code's name
/// of the same event, or the same letters in another case.
fn suggestion(key: &str) -> Option<&'static str> {
    let by_claude_name = match HookEvent::from_name(key) {
        Some(HookEvent::PreToolUse) => Some("BeforeTool"),
        Some(HookEvent::PostToolUse | HookEvent::PostToolUseFailure) => Some("AfterTool"),
        Some(HookEvent::UserPromptSubmit) => Some("BeforeAgent"),
        Some(HookEvent::Stop | HookEvent::SubagentStop) => Some("AfterAgent"),
        Some(HookEvent::PreCompact) => Some("PreCompress"),
        _ => None,
    };
    let all = ["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "PreCompress", "SessionStart", "SessionEnd"]
        .into_iter()
        .chain(["Notification"])
        .chain(NATIVE_EVENTS.iter().copied());
    by_claude_name.or_else(|| {
        let wanted: String = key.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect();
        all.into_iter().find(|k| k.to_lowercase() == wanted)
    })
}

/// `hooksConfig`: `enabled` (boolean) and `disabled` (hook names).
fn read_switches(cfg: &mut HooksConfig, info: &SourceInfo, value: &Value) {
    let Value::Object(obj) = value else {
        cfg.push_warning(at(info, "hooksConfig"), format!("must be an object, got {}; ignored", type_name(value)));
        return;
    };
    let enabled = match obj.get("enabled") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(other) => {
            cfg.push_warning(
                at(info, "hooksConfig.enabled"),
                format!("must be a boolean, got {}; ignored", type_name(other)),
            );
            None
        }
    };
    let mut disabled = Vec::new();
    match obj.get("disabled") {
        None | Some(Value::Null) => {}
        Some(Value::Array(names)) => {
            for (i, name) in names.iter().enumerate() {
                match name {
                    Value::String(name) => disabled.push(name.clone()),
                    other => cfg.push_warning(
                        at(info, &format!("hooksConfig.disabled[{i}]")),
                        format!("must be a hook name (a string), got {}; ignored", type_name(other)),
                    ),
                }
            }
        }
        Some(other) => cfg.push_warning(
            at(info, "hooksConfig.disabled"),
            format!("must be an array of hook names, got {}; ignored", type_name(other)),
        ),
    }
    if enabled.is_some() || !disabled.is_empty() {
        cfg.push_switches(Switches { dialect: (&GEMINI).into(), enabled, disabled, path: at(info, "hooksConfig") });
    }
}

/// The definitions of one event key, each a group (definitions without a
/// valid hook are left out).
fn definition_groups(
    cfg: &mut HooksConfig,
    info: &SourceInfo,
    source: &Arc<Source>,
    key: &str,
    events: &[HookEvent],
    items: &[Value],
) -> Vec<HookGroup> {
    let mut groups = Vec::new();
    for (i, definition) in items.iter().enumerate() {
        let path = format!("hooks.{key}[{i}]");
        let hooks = match definition {
            Value::Object(d) => d.get("hooks"),
            _ => None,
        };
        let (Value::Object(definition), Some(Value::Array(hooks))) = (definition, hooks) else {
            let what = match definition {
                Value::Object(_) => "has no `hooks` array".to_owned(),
                other => format!("must be an object, got {}", type_name(other)),
            };
            cfg.push_warning(at(info, &path), format!("{what}; definition skipped"));
            continue;
        };
        let matcher_raw = match definition.get("matcher") {
            None | Some(Value::Null) => None,
            Some(Value::String(m)) => Some(m.clone()),
            Some(other) => {
                cfg.push_warning(
                    at(info, &format!("{path}.matcher")),
                    format!("must be a string, got {}; definition skipped", type_name(other)),
                );
                continue;
            }
        };
        let tool_event = events.iter().any(|e| e.is_tool_event());
        let matcher = if tool_event {
            let (matcher, error) = Matcher::gemini_tool(matcher_raw.as_deref());
            if let Some(e) = error {
                cfg.push_warning(
                    at(info, &format!("{path}.matcher")),
                    format!(
                        "{:?} is not a regular expression this engine compiles ({}); it is compared with the tool \
                         name exactly, as Gemini CLI does with an invalid one (Gemini CLI's JavaScript regular \
                         expressions also accept lookaround and backreferences)",
                        matcher_raw.as_deref().unwrap_or(""),
                        e.to_string().lines().last().unwrap_or("").trim()
                    ),
                );
            }
            matcher
        } else {
            Matcher::gemini_exact(matcher_raw.as_deref())
        };
        let sequential = definition.get("sequential") == Some(&Value::Bool(true));
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

/// One hook entry, `None` (with a warning) when Gemini CLI would skip it.
fn hook(cfg: &mut HooksConfig, info: &SourceInfo, source: &Arc<Source>, path: &str, v: &Value) -> Option<HookSpec> {
    let skip = |cfg: &mut HooksConfig, why: String| {
        cfg.push_warning(at(info, path), format!("{why}; hook skipped"));
        None
    };
    let Value::Object(obj) = v else {
        return skip(cfg, format!("must be an object, got {}", type_name(v)));
    };
    match obj.get("type") {
        None | Some(Value::Null) => return skip(cfg, "has no `type` (Gemini CLI requires \"command\")".into()),
        Some(Value::String(t)) if t == "command" => {}
        Some(Value::String(t)) if t == "plugin" => {
            cfg.push_warning(at(info, &format!("{path}.type")), "\"plugin\" runs as a command hook in Gemini CLI");
        }
        Some(Value::String(t)) if t == "runtime" => {
            return skip(
                cfg,
                "is a \"runtime\" hook: runtime hooks are registered from code and never run from a file".into(),
            )
        }
        Some(other) => return skip(cfg, format!("has an unknown type {other} (Gemini CLI runs \"command\" hooks)")),
    }
    let command = match obj.get("command") {
        Some(Value::String(c)) if !c.is_empty() => c.clone(),
        None | Some(Value::Null) | Some(Value::String(_)) => return skip(cfg, "has no `command`".into()),
        Some(other) => return skip(cfg, format!("`command` must be a string, got {}", type_name(other))),
    };
    let name = match obj.get("name") {
        None | Some(Value::Null) => None,
        Some(Value::String(n)) => Some(n.clone()),
        Some(other) => {
            cfg.push_warning(
                at(info, &format!("{path}.name")),
                format!("must be a string, got {}; ignored", type_name(other)),
            );
            None
        }
    };
    let timeout_ms = match obj.get("timeout") {
        None | Some(Value::Null) => None,
        Some(t) => Some(timeout_ms(cfg, info, path, t)),
    };
    let env = environment(cfg, info, path, obj.get("env"));
    Some(HookSpec {
        handler: HandlerSpec::Command {
            command,
            args: None,
            shell: crate::config::Shell::Sh,
            launch: crate::config::Launch::default(),
        },
        timeout_seconds: timeout_ms,
        default_timeout: GEMINI_DEFAULT_TIMEOUT,
        if_rule: None,
        run_async: false,
        async_rewake: false,
        status_message: None,
        fail_closed: false,
        name,
        native_event: None,
        loop_limit: None,
        env,
        path: path.to_owned(),
        source: source.clone(),
    })
}

const GEMINI_DEFAULT_TIMEOUT: std::time::Duration = super::PROFILE.default_timeout;

/// A hook's timeout as Node's `setTimeout` takes it: a number of
/// milliseconds (fractions dropped) from 1 to 2³¹−1; anything else
/// (0, negative, too large, not a number) is 1 ms. Non-numbers are coerced
/// as JavaScript does (`"5000"` is 5000).
fn timeout_ms(cfg: &mut HooksConfig, info: &SourceInfo, path: &str, t: &Value) -> u64 {
    let (n, coerced) = match t {
        Value::Number(n) => (n.as_f64().unwrap_or(f64::NAN), false),
        Value::String(s) if js_trim(s).is_empty() => (0.0, true),
        Value::String(s) => (js_trim(s).parse::<f64>().unwrap_or(f64::NAN), true),
        Value::Bool(b) => (f64::from(u8::from(*b)), true),
        _ => (f64::NAN, true),
    };
    let ok = (1.0..=TIMEOUT_MAX_MS).contains(&n);
    if coerced || !ok {
        let what = if coerced { format!("{} {t}", type_name(t)) } else { t.to_string() };
        let effect = if ok { format!("{} ms", n.floor()) } else { "1 ms, as Node's timers make it".to_owned() };
        cfg.push_warning(
            at(info, &format!("{path}.timeout")),
            format!("is {what}; a timeout is a number of milliseconds from 1 to {TIMEOUT_MAX_MS}: it is {effect}"),
        );
    }
    if ok {
        n.floor() as u64
    } else {
        1
    }
}

/// A hook's `env`: variables set last in its environment.
pub(crate) fn environment(
    cfg: &mut HooksConfig,
    info: &SourceInfo,
    path: &str,
    v: Option<&Value>,
) -> Vec<(String, String)> {
    let obj = match v {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Object(obj)) => obj,
        Some(other) => {
            cfg.push_warning(
                at(info, &format!("{path}.env")),
                format!("must be an object of strings, got {}; ignored", type_name(other)),
            );
            return Vec::new();
        }
    };
    let mut out = Vec::with_capacity(obj.len());
    for (name, value) in obj {
        let text = match value {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        };
        match text {
            Some(text) if !name.is_empty() && !name.contains(['=', '\0']) && !text.contains('\0') => {
                out.push((name.clone(), text))
            }
            _ => cfg.push_warning(
                at(info, &format!("{path}.env.{name}")),
                format!("cannot be set ({}); skipped", describe_bad_env(name, value)),
            ),
        }
    }
    out
}

fn describe_bad_env(name: &str, value: &Value) -> String {
    if name.is_empty() || name.contains(['=', '\0']) {
        "a variable name must be non-empty, without `=` or NUL".to_owned()
    } else if matches!(value, Value::String(_)) {
        "the value contains NUL".to_owned()
    } else {
        format!("the value is {}, not a string", type_name(value))
    }
}

/// `text` with its comments blanked, as the `strip-json-comments` module
/// Gemini CLI reads settings files with does: a `//` comment up to the end
/// of its line and a `/* */` comment (an unclosed one up to the end of the
/// text), outside JSON strings, become spaces (line breaks are kept, so
/// JSON errors keep their line numbers). A string ends at a `"` not
/// escaped by an odd number of backslashes.
pub(crate) fn strip_comments(text: &str) -> Cow<'_, str> {
    if !text.contains("//") && !text.contains("/*") {
        return Cow::Borrowed(text);
    }
    let blank =
        |out: &mut String, part: &str| out.extend(part.chars().map(|c| if c.is_whitespace() { c } else { ' ' }));
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut copied, mut in_string) = (0, 0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'"' if !in_string => in_string = true,
            b'"' => {
                let backslashes = bytes[..i].iter().rev().take_while(|b| **b == b'\\').count();
                if backslashes % 2 == 0 {
                    in_string = false;
                }
            }
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find(['\n', '\r']).map_or(text.len(), |n| i + n);
                out.push_str(&text[copied..i]);
                blank(&mut out, &text[i..end]);
                (i, copied) = (end, end);
                continue;
            }
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(text.len(), |n| i + 2 + n + 2);
                out.push_str(&text[copied..i]);
                blank(&mut out, &text[i..end]);
                (i, copied) = (end, end);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::strip_comments;

    #[test]
    fn comments_are_blanked_outside_strings() {
        assert_eq!(strip_comments("{\"a\": 1} // x\n"), "{\"a\": 1}     \n");
        assert_eq!(strip_comments("{/* a\nb */}"), "{    \n    }");
        assert_eq!(strip_comments(r#"{"u": "http://x/*"}"#), r#"{"u": "http://x/*"}"#);
        assert_eq!(strip_comments(r#"{"u": "a\\"}//c"#), r#"{"u": "a\\"}   "#);
        assert_eq!(strip_comments(r#"{"u": "a\"//"}"#), r#"{"u": "a\"//"}"#);
        assert_eq!(strip_comments("{} /* open"), "{}        ");
    }
}
