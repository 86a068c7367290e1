//! An OpenHands hooks file: `{"hooks": {"<event>": [{"matcher": "…",
//! "hooks": [<hook>, …]}]}}`, or the event map itself without the `hooks`
//! wrapper; event keys snake_case (`pre_tool_use`) or PascalCase
//! (`PreToolUse`), as `HookConfig._normalize_hooks_input` accepts them; a
//! hook `{type?, command, name?, prompt?, system_prompt?, tools?, timeout?,
//! max_iterations?, async?}` (`HookDefinition`).
//!
//! OpenHands validates the file as one pydantic model: anything it rejects
//! fails the whole file (`InvalidConfig`, naming the entry): a top level
//! that is not an object, `hooks` that is not an object, an unknown event
//! key (the model forbids extra fields), a key given both in PascalCase and
//! snake_case, an event value that is not an array, a group that is not an
//! object, a `matcher` that is not a string (`null` included), `hooks` that
//! is not an array, a hook that is not an object, a `type` other than
//! `command`, `prompt` or `agent`, a command hook without `command`, a
//! prompt hook without `prompt`, a `command` on a prompt or agent hook,
//! `async` on a prompt or agent hook, fields of the wrong type.
//!
//! What is reported and loaded: keys besides `hooks` next to the wrapper
//! (ignored, as OpenHands does with a warning), unknown keys of groups and
//! hooks (ignored by OpenHands), an `async` hook on an event that can block
//! (it never blocks: OpenHands logs "Async hooks in PreToolUse cannot block
//! tool execution"). What never runs (reported as such, left
//! out): a group with a matcher other than `*` or `""` on an event without a
//! tool (OpenHands tests it against no tool name: "if tool_name is None:
//! return self.matcher in ('*', '')"), a group whose `/re/` matcher does not
//! compile, a hook whose `timeout` is 0 or negative (Python's `subprocess`
//! times it out at once).
//!
//! Matchers (`HookMatcher.matches`): `*` and `""` match every tool; a
//! matcher written `/re/` (more than two characters) is the regular
//! expression `re`, matched against the whole tool name (`re.fullmatch`),
//! and matches nothing when it does not compile; a matcher holding one of
//! `|.*+?[]()^$\` is a regular expression matched against the whole name,
//! compared exactly when it does not compile; anything else is compared
//! exactly. Nothing is trimmed; case matters.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{has_tool_subject, EVENTS};
use crate::config::matcher::{compile, Matcher};
use crate::config::{type_name, HandlerSpec, HookGroup, HookSpec, HooksConfig, Launch, Shell, Source, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::HookEvent;

/// The fields of a group (`HookMatcher`).
pub(crate) const GROUP_FIELDS: &[&str] = &["matcher", "hooks"];

/// The fields of a hook (`HookDefinition`; `async_` is its Python name,
/// accepted too).
pub(crate) const HOOK_FIELDS: &[&str] =
    &["type", "name", "command", "prompt", "system_prompt", "tools", "timeout", "max_iterations", "async", "async_"];

/// The characters that make a matcher a regular expression
/// (`HookMatcher._REGEX_METACHARACTERS`).
const REGEX_CHARACTERS: &[char] = &['|', '.', '*', '+', '?', '[', ']', '(', ')', '^', '$', '\\'];

fn bad(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg.into())
}

/// Python's `_pascal_to_snake`: `_` before every ASCII capital but the
/// first character, then lowercase (`PreToolUse` → `pre_tool_use`).
pub(crate) fn pascal_to_snake(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for (i, c) in key.chars().enumerate() {
        if i > 0 && c.is_ascii_uppercase() {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// Read an OpenHands hooks file (see the module documentation).
pub(crate) fn read(v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    let Value::Object(top) = v else {
        return Err(bad(format!("an OpenHands hooks file must be a JSON object, got {}", type_name(v))));
    };
    let mut cfg = HooksConfig::empty_of(&super::OPENHANDS);
    let (events, prefix) = match top.get("hooks") {
        Some(hooks) => {
            for key in top.keys().filter(|k| k.as_str() != "hooks") {
                cfg.push_warning(
                    key.as_str(),
                    format!(
                        "`{key}` next to the `hooks` wrapper is ignored (OpenHands: \"Extra top-level keys will be \
                         ignored\")"
                    ),
                );
            }
            let Value::Object(events) = hooks else {
                return Err(bad(format!("hooks must be an object of events, got {}", type_name(hooks))));
            };
            (events, "hooks.")
        }
        None => (top, ""),
    };
    let source = Arc::new(Source::new(info.clone(), false));
    let mut seen: Vec<String> = Vec::new();
    for (key, value) in events {
        let snake = pascal_to_snake(key);
        let path = format!("{prefix}{key}");
        let Some((_, event)) = EVENTS.iter().find(|(k, _)| *k == snake) else {
            let valid: Vec<&str> = EVENTS.iter().map(|(k, _)| *k).collect();
            let hint = crate::suggest::closest(key, valid.iter().copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            return Err(bad(format!(
                "{path}: unknown event type `{key}`{hint} (OpenHands rejects the whole file; its events are {})",
                valid.join(", ")
            )));
        };
        if seen.contains(&snake) {
            return Err(bad(format!(
                "{path}: duplicate hook event: both `{key}` and its other spelling `{snake}` are given (OpenHands \
                 rejects the whole file)"
            )));
        }
        seen.push(snake);
        let Value::Array(groups) = value else {
            return Err(bad(format!("{path} must be an array of matcher groups, got {}", type_name(value))));
        };
        let mut loaded = Vec::with_capacity(groups.len());
        for (i, g) in groups.iter().enumerate() {
            let path = format!("{path}[{i}]");
            if let Some(group) = parse_group(&mut cfg, &source, *event, &path, g)? {
                loaded.push(group);
            }
        }
        cfg.push_groups(*event, loaded);
    }
    note_the_file_not_read(&mut cfg, info.path.as_deref(), crate::paths::home_dir().as_deref());
    Ok(cfg)
}

/// OpenHands reads the first of `.openhands/hooks.json` and
/// `~/.openhands/hooks.json` that exists: reading the workspace's file,
/// the user's, when it exists too, is not read; say so.
fn note_the_file_not_read(cfg: &mut HooksConfig, path: Option<&Path>, home: Option<&Path>) {
    let (Some(path), Some(home)) = (path, home) else { return };
    let user = home.join(".openhands").join("hooks.json");
    if !crate::dialect::Dialect::recognises_path(&super::OPENHANDS, path) || !user.is_file() {
        return;
    }
    let same = match (path.canonicalize(), user.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => path == user,
    };
    if !same {
        cfg.push_warning(
            user.display().to_string(),
            format!(
                "not read: OpenHands reads only the first hooks file it finds ({} comes first), so the user's hooks \
                 in {} do not run in this workspace",
                path.display(),
                user.display()
            ),
        );
    }
}

/// One group: `None` when it can never run (reported).
fn parse_group(
    cfg: &mut HooksConfig,
    source: &Arc<Source>,
    event: HookEvent,
    path: &str,
    v: &Value,
) -> Result<Option<HookGroup>> {
    let Value::Object(obj) = v else {
        return Err(bad(format!("{path} must be an object, got {}", type_name(v))));
    };
    let raw = match obj.get("matcher") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => return Err(bad(format!("{path}.matcher must be a string, got {}", type_name(other)))),
    };
    let hooks = match obj.get("hooks") {
        None => &Vec::new(),
        Some(Value::Array(a)) => a,
        Some(other) => return Err(bad(format!("{path}.hooks must be an array, got {}", type_name(other)))),
    };
    for key in obj.keys().filter(|k| !GROUP_FIELDS.contains(&k.as_str())) {
        let hint = crate::suggest::closest(key, GROUP_FIELDS.iter().copied())
            .map(|f| format!("; did you mean `{f}`?"))
            .unwrap_or_default();
        cfg.push_warning(
            format!("{path}.{key}"),
            format!("OpenHands does not read the group field `{key}`; ignored{hint}"),
        );
    }
    let mut specs = Vec::with_capacity(hooks.len());
    for (j, h) in hooks.iter().enumerate() {
        let path = format!("{path}.hooks[{j}]");
        if let Some(spec) = parse_hook(cfg, source, &path, h)? {
            if spec.run_async && super::PROFILE.rules(event).can_block() {
                cfg.push_warning(
                    format!("{path}.async"),
                    format!(
                        "an async hook runs in the background and can never block {} (OpenHands: \"Async hooks in \
                         PreToolUse cannot block tool execution\")",
                        event.name()
                    ),
                );
            }
            specs.push(spec);
        }
    }
    let matcher = match raw.as_deref() {
        None | Some("*" | "") => Matcher::All,
        Some(m) if !has_tool_subject(event) => {
            if !specs.is_empty() {
                cfg.push_never_runs(
                    format!("{path}.matcher"),
                    format!(
                        "{} has no tool name, so OpenHands runs only groups whose matcher is \"*\" or \"\"; the \
                         hooks of matcher {m:?} never run",
                        event.name()
                    ),
                );
            }
            return Ok(None);
        }
        Some(m) => match tool_matcher(m) {
            Compiled::Matcher(matcher) => matcher,
            Compiled::Exact(matcher, why) => {
                cfg.push_warning(
                    format!("{path}.matcher"),
                    format!(
                        "{m:?} holds regex characters but is not a regular expression hookline can compile ({why}); \
                         OpenHands then compares it with the tool name exactly, and so does hookline (if Python's \
                         `re` accepts it, OpenHands matches it as a regex: rewrite it)"
                    ),
                );
                matcher
            }
            Compiled::Never(why) => {
                if !specs.is_empty() {
                    cfg.push_never_runs(
                        format!("{path}.matcher"),
                        format!(
                            "{m:?} is not a regular expression hookline can compile ({why}); OpenHands matches no \
                             tool with an invalid /re/ matcher, so its hooks never run"
                        ),
                    );
                }
                return Ok(None);
            }
        },
    };
    if specs.is_empty() {
        return Ok(None);
    }
    Ok(Some(HookGroup { matcher_raw: raw, matcher, hooks: specs, sequential: false }))
}

/// A tool matcher compiled by OpenHands' rule.
pub(crate) enum Compiled {
    /// It matches as OpenHands matches it.
    Matcher(Matcher),
    /// It has regex characters but does not compile: compared exactly
    /// (why it did not compile).
    Exact(Matcher, String),
    /// A `/re/` that does not compile: it matches nothing (why).
    Never(String),
}

/// A regular expression matched against the whole subject
/// (`re.fullmatch`).
fn full_match(pattern: &str) -> std::result::Result<Matcher, String> {
    compile(&format!(r"\A(?:{pattern})\z")).map(Matcher::Regex).map_err(|e| e.to_string())
}

/// A matcher of a tool event other than `*` or `""` (see the module
/// documentation).
pub(crate) fn tool_matcher(raw: &str) -> Compiled {
    if raw.len() > 1 && raw.starts_with('/') && raw.ends_with('/') && raw.chars().count() > 2 {
        return match full_match(&raw[1..raw.len() - 1]) {
            Ok(m) => Compiled::Matcher(m),
            Err(why) => Compiled::Never(why),
        };
    }
    if raw.contains(REGEX_CHARACTERS) {
        return match full_match(raw) {
            Ok(m) => Compiled::Matcher(m),
            Err(why) => Compiled::Exact(Matcher::Names(vec![raw.to_owned()]), why),
        };
    }
    Compiled::Matcher(Matcher::Names(vec![raw.to_owned()]))
}

/// A string field (absent: `None`; `null` where the model allows it).
fn text(obj: &Map<String, Value>, path: &str, key: &str, nullable: bool) -> Result<Option<String>> {
    match obj.get(key) {
        None => Ok(None),
        Some(Value::Null) if nullable => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(bad(format!("{path}.{key} must be a string, got {}", type_name(other)))),
    }
}

/// An `int` field as pydantic reads one: an integer, a float without a
/// fraction, a string of an integer, a boolean (0 or 1).
fn int(obj: &Map<String, Value>, path: &str, key: &str) -> Result<Option<i64>> {
    let v = match obj.get(key) {
        None => return Ok(None),
        Some(v) => v,
    };
    let n = match v {
        Value::Number(n) => {
            n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9e15).map(|f| f as i64))
        }
        Value::String(s) => s.trim().parse::<i64>().ok(),
        Value::Bool(b) => Some(i64::from(*b)),
        _ => None,
    };
    n.map(Some).ok_or_else(|| bad(format!("{path}.{key} must be an integer, got {v}")))
}

/// A `bool` field as pydantic reads one: a boolean, 0 or 1, or one of its
/// words (`true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`, …).
fn boolean(obj: &Map<String, Value>, path: &str, key: &str) -> Result<Option<bool>> {
    let v = match obj.get(key) {
        None => return Ok(None),
        Some(v) => v,
    };
    let b = match v {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => match n.as_f64() {
            Some(0.0) => Some(false),
            Some(1.0) => Some(true),
            _ => None,
        },
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "1" | "on" | "t" | "true" | "y" | "yes" => Some(true),
            "0" | "off" | "f" | "false" | "n" | "no" => Some(false),
            _ => None,
        },
        _ => None,
    };
    b.map(Some).ok_or_else(|| bad(format!("{path}.{key} must be a boolean, got {v}")))
}

/// One hook: `None` when it never runs (reported).
fn parse_hook(cfg: &mut HooksConfig, source: &Arc<Source>, path: &str, v: &Value) -> Result<Option<HookSpec>> {
    let Value::Object(obj) = v else {
        return Err(bad(format!("{path} must be an object, got {}", type_name(v))));
    };
    let kind = text(obj, path, "type", false)?.unwrap_or_else(|| "command".to_owned());
    let name = text(obj, path, "name", true)?;
    let command = text(obj, path, "command", false)?.unwrap_or_default();
    let prompt = text(obj, path, "prompt", true)?;
    let system_prompt = text(obj, path, "system_prompt", true)?;
    match obj.get("tools") {
        None => {}
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => {}
        Some(other) => return Err(bad(format!("{path}.tools must be an array of strings, got {other}"))),
    }
    let timeout = int(obj, path, "timeout")?;
    int(obj, path, "max_iterations")?;
    let run_async = match (boolean(obj, path, "async")?, boolean(obj, path, "async_")?) {
        (Some(a), _) => a,
        (None, b) => b.unwrap_or(false),
    };
    for key in obj.keys().filter(|k| !HOOK_FIELDS.contains(&k.as_str())) {
        let hint = crate::suggest::closest(key, HOOK_FIELDS.iter().copied())
            .map(|f| format!("; did you mean `{f}`?"))
            .unwrap_or_default();
        cfg.push_warning(
            format!("{path}.{key}"),
            format!("OpenHands does not read the hook field `{key}`; ignored{hint}"),
        );
    }
    let handler = match kind.as_str() {
        "command" => {
            if command.is_empty() {
                return Err(bad(format!("{path}: 'command' is required when type is 'command'")));
            }
            HandlerSpec::Command { command, args: None, shell: Shell::Sh, launch: Launch::default() }
        }
        "prompt" => {
            let Some(prompt) = prompt.filter(|p| !p.is_empty()) else {
                return Err(bad(format!("{path}: 'prompt' is required when type is 'prompt'")));
            };
            if !command.is_empty() {
                return Err(bad(format!("{path}: 'command' must not be set when type is 'prompt'")));
            }
            if run_async {
                return Err(bad(format!("{path}: 'async' is not supported for prompt hooks")));
            }
            HandlerSpec::Prompt { prompt, model: None, continue_on_block: false }
        }
        "agent" => {
            if !command.is_empty() {
                return Err(bad(format!(
                    "{path}: 'command' must not be set when type is 'agent'; use 'system_prompt' instead"
                )));
            }
            if run_async {
                return Err(bad(format!("{path}: 'async' is not supported for agent hooks")));
            }
            for key in ["tools", "max_iterations", "prompt"] {
                if obj.get(key).is_some_and(|v| !v.is_null()) {
                    cfg.push_warning(
                        format!("{path}.{key}"),
                        format!(
                            "hookline hands the host's agent handler the system_prompt only; `{key}` is not passed"
                        ),
                    );
                }
            }
            HandlerSpec::Agent { prompt: system_prompt.unwrap_or_default(), model: None }
        }
        other => {
            return Err(bad(format!("{path}.type must be \"command\", \"prompt\" or \"agent\", got {other:?}")));
        }
    };
    let timeout_seconds = match timeout {
        None => None,
        Some(t) if t > 0 => Some(t as u64),
        Some(t) => {
            cfg.push_never_runs(
                format!("{path}.timeout"),
                format!(
                    "timeout {t}: OpenHands times the hook out at once, so it never answers; hookline leaves it out"
                ),
            );
            return Ok(None);
        }
    };
    Ok(Some(HookSpec {
        handler,
        timeout_seconds,
        default_timeout: super::PROFILE.default_timeout,
        if_rule: None,
        run_async,
        async_rewake: false,
        status_message: None,
        fail_closed: false,
        name,
        env: Vec::new(),
        native_event: None,
        loop_limit: None,
        path: path.to_owned(),
        source: source.clone(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn info() -> SourceInfo {
        SourceInfo::new(&super::super::OPENHANDS)
    }

    fn matches(raw: &str, tool: &str) -> Option<bool> {
        match tool_matcher(raw) {
            Compiled::Matcher(m) | Compiled::Exact(m, _) => Some(m.matches(tool)),
            Compiled::Never(_) => None,
        }
    }

    /// `_pascal_to_snake`: `re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()`.
    #[test]
    fn pascal_case_keys_become_snake_case() {
        assert_eq!(pascal_to_snake("PreToolUse"), "pre_tool_use");
        assert_eq!(pascal_to_snake("Stop"), "stop");
        assert_eq!(pascal_to_snake("pre_tool_use"), "pre_tool_use");
        assert_eq!(pascal_to_snake("userPromptSubmit"), "user_prompt_submit");
    }

    /// `HookMatcher.matches` (config.py) and its tests: exact names, `*`,
    /// auto-detected regexes and `/re/`, all matched in full.
    #[test]
    fn matchers_are_exact_unless_regex_characters_or_slashes() {
        assert_eq!(matches("terminal", "terminal"), Some(true));
        assert_eq!(matches("terminal", "terminal2"), Some(false));
        assert_eq!(matches("term", "terminal"), Some(false), "exact, not a substring");
        assert_eq!(matches("terminal|file_editor", "file_editor"), Some(true));
        assert_eq!(matches("file.*", "file_editor"), Some(true));
        assert_eq!(matches("editor.*", "file_editor"), Some(false), "re.fullmatch is anchored");
        assert_eq!(matches("/term.*/", "terminal"), Some(true));
        assert_eq!(matches("/term/", "terminal"), Some(false));
        assert_eq!(matches("/[/", "["), None, "an invalid /re/ matches nothing");
        assert_eq!(matches("a[b", "a[b"), Some(true), "an invalid auto-detected regex is compared exactly");
        assert_eq!(matches("//", "//"), Some(true), "`//` is not a /re/ (two characters)");
        assert_eq!(matches("Terminal", "terminal"), Some(false));
    }

    #[test]
    fn wrapped_bare_snake_and_pascal_case_files_load() {
        let group = json!([{"matcher": "terminal", "hooks": [{"command": "x"}]}]);
        for v in [
            json!({"hooks": {"pre_tool_use": group}}),
            json!({"pre_tool_use": group}),
            json!({"hooks": {"PreToolUse": group}}),
        ] {
            let cfg = read(&v, &info()).unwrap();
            assert_eq!(cfg.groups(HookEvent::PreToolUse).len(), 1, "{v}");
        }
    }

    #[test]
    fn what_openhands_rejects_fails_the_file() {
        for (v, says) in [
            (json!({"hooks": {"subagent_stop": []}}), "unknown event type `subagent_stop`"),
            (json!({"hooks": {"PreToolUse": [], "pre_tool_use": []}}), "duplicate hook event"),
            (json!({"hooks": {"Notification": []}}), "unknown event type"),
            (json!({"hooks": {"stop": {}}}), "must be an array"),
            (json!({"hooks": {"stop": [{"matcher": null, "hooks": []}]}}), "matcher must be a string"),
            (json!({"hooks": {"stop": [{"hooks": [{"type": "command"}]}]}}), "'command' is required"),
            (json!({"hooks": {"stop": [{"hooks": [{"type": "prompt"}]}]}}), "'prompt' is required"),
            (json!({"hooks": {"stop": [{"hooks": [{"type": "http", "command": "x"}]}]}}), "type must be"),
            (json!({"hooks": {"stop": [{"hooks": [{"type": "prompt", "prompt": "p", "async": true}]}]}}), "'async'"),
            (json!({"hooks": {"stop": [{"hooks": [{"command": "x", "timeout": "soon"}]}]}}), "must be an integer"),
            (json!({"hooks": []}), "hooks must be an object"),
        ] {
            let e = read(&v, &info()).unwrap_err();
            assert_eq!(e.status, crate::Status::InvalidConfig, "{v}");
            assert!(e.message.contains(says), "{v}: {}", e.message);
        }
    }

    #[test]
    fn a_matcher_on_an_event_without_a_tool_never_runs_and_is_reported() {
        let v = json!({"hooks": {"stop": [{"matcher": "terminal", "hooks": [{"command": "x"}]},
                                          {"matcher": "*", "hooks": [{"command": "y"}]}]}});
        let cfg = read(&v, &info()).unwrap();
        assert_eq!(cfg.groups(HookEvent::Stop).len(), 1);
        assert!(
            cfg.warnings().iter().any(|w| w.never_runs && w.path == "hooks.stop[0].matcher"),
            "{:?}",
            cfg.warnings()
        );
    }

    #[test]
    fn fields_are_read_and_unknown_ones_reported() {
        let v = json!({"hooks": {"post_tool_use": [{"matcher": "*", "hooks": [
            {"command": "log.sh", "timeout": "5", "async": true, "name": "log", "timout": 3}
        ]}]}, "version": 1});
        let cfg = read(&v, &info()).unwrap();
        let hook = &cfg.groups(HookEvent::PostToolUse)[0].hooks[0];
        assert_eq!((hook.timeout_seconds, hook.run_async, hook.name.as_deref()), (Some(5), true, Some("log")));
        let paths: Vec<&str> = cfg.warnings().iter().map(|w| w.path.as_str()).collect();
        assert!(paths.contains(&"version") && paths.contains(&"hooks.post_tool_use[0].hooks[0].timout"), "{paths:?}");
    }

    #[test]
    fn the_users_file_is_reported_not_read_when_the_workspace_has_one() {
        let dir = tempfile::tempdir().unwrap();
        let (home, ws) = (dir.path().join("home"), dir.path().join("ws"));
        for p in [home.join(".openhands/hooks.json"), ws.join(".openhands/hooks.json")] {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "{}").unwrap();
        }
        let mut cfg = HooksConfig::empty_of(&super::super::OPENHANDS);
        note_the_file_not_read(&mut cfg, Some(&ws.join(".openhands/hooks.json")), Some(&home));
        assert_eq!(cfg.warnings().len(), 1);
        assert!(cfg.warnings()[0].message.contains("not read"));
        let mut cfg = HooksConfig::empty_of(&super::super::OPENHANDS);
        note_the_file_not_read(&mut cfg, Some(&home.join(".openhands/hooks.json")), Some(&home));
        assert!(cfg.warnings().is_empty(), "the user's own file");
    }
}
