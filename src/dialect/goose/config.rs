//! A goose plugin's `hooks/hooks.json`: `{"hooks": {"<Event>": [{"matcher"?,
//! "hooks": [{"type"?, "command", "timeout"?, "on_failure"?}]}]}}`, read as
//! goose's `load_hooks_file` reads it.
//!
//! What rejects the file (`InvalidConfig`; goose logs "Failed to load
//! plugin hooks; skipping" and loads its other plugins, so among several
//! sources only this one is left out): JSON that does not fit goose's
//! shape — a top level that is not an object, `hooks` that is not an
//! object (`null` included), an event whose value is not an array (an
//! unknown event's too: the whole file is parsed first), a rule that is
//! not an object, a `matcher` that is not a string, a rule's `hooks` that
//! is not an array, an action that is not an object, a `type` or
//! `command` that is not a string, a `timeout` that is not a non-negative
//! integer — and an `on_failure` other than `"allow"` or `"block"` on an
//! action goose runs ("An unrecognised value is a config error rather than
//! a silent choice of either policy, so the file is rejected").
//!
//! What is skipped and reported: an unknown event ("Unknown event names
//! ... are ignored per the spec"), a rule whose matcher is not a valid
//! regular expression ("Invalid hook matcher regex; skipping rule"), an
//! action of another `type` than `command` (goose "currently supports
//! `type: \"command\"` actions"), an action without a `command`; a rule
//! left without actions is dropped. An `on_failure` on such an ignored
//! action is never looked at. Unknown keys are ignored, each reported.
//!
//! `matcher`: absent, `null` or `""` matches everything; anything else is
//! a regular expression searched for in the subject. `type` defaults to
//! `command`. `timeout` is in seconds, 30 by default; `0` elapses at once
//! (goose's own tests rely on it: the hook fails as timed out).
//! `on_failure: "block"` makes the action fail closed on PreToolUse
//! (`failClosed`); on every other event goose ignores it (said so).

use std::sync::Arc;

use serde_json::Value;

use super::canonical_event;
use crate::config::matcher::{compile, Matcher};
use crate::config::{type_name, HandlerSpec, HookGroup, HookSpec, HooksConfig, Source, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::HookEvent;

/// The keys of a rule goose reads.
pub(crate) const GROUP_FIELDS: &[&str] = &["matcher", "hooks"];

/// The keys of an action goose reads.
pub(crate) const HOOK_FIELDS: &[&str] = &["type", "command", "timeout", "on_failure"];

fn reject(msg: String) -> Error {
    Error::invalid_config(format!("{msg}; goose does not load this plugin's hooks"))
}

/// One action that goose runs: its command, timeout and `on_failure`.
struct Action {
    path: String,
    command: String,
    timeout: Option<u64>,
    on_failure: Option<Value>,
}

/// One rule as goose parses it, before the event is looked at.
struct Rule {
    path: String,
    matcher: Option<String>,
    actions: Vec<std::result::Result<Action, (String, String)>>,
}

/// Read a plugin's `hooks.json` (see the module documentation).
pub(crate) fn read(v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    let Value::Object(top) = v else {
        return Err(reject(format!("a goose hooks.json must be a JSON object, got {}", type_name(v))));
    };
    let mut cfg = HooksConfig::empty_of(&super::GOOSE);
    for key in top.keys().filter(|k| !matches!(k.as_str(), "hooks" | "description")) {
        cfg.push_warning(key.as_str(), format!("unknown top-level key `{key}` (goose reads `hooks`); ignored"));
    }
    let events = match top.get("hooks") {
        None => return Ok(cfg),
        Some(Value::Object(events)) => events,
        Some(other) => {
            return Err(reject(format!("hooks must be an object of events, got {}", type_name(other))));
        }
    };
    // goose deserialises the whole file before it looks at an event's name.
    let mut parsed: Vec<(&str, Vec<Rule>)> = Vec::with_capacity(events.len());
    for (key, rules) in events {
        parsed.push((key, parse_rules(key, rules)?));
    }
    // Every goose hook is a plugin's: a file at `<root>/hooks/hooks.json`
    // given without a plugin root has the folder above `hooks/` as its root.
    let mut info = info.clone();
    if info.plugin_root.is_none() {
        let root = info.path.as_deref().and_then(crate::dialect::plugin_hooks_json_root);
        info.plugin_root = root.map(|r| Arc::from(std::path::absolute(&r).unwrap_or(r).to_string_lossy().as_ref()));
    }
    let source = Arc::new(Source::new(info, false));
    for (key, rules) in parsed {
        let event = canonical_event(key);
        if event.is_none() && !super::NATIVE_KEYS.contains(&key) {
            let hint = crate::suggest::closest(key, super::EVENTS.iter().copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            cfg.push_never_runs(
                format!("hooks.{key}"),
                format!("goose has no event `{key}` and ignores its hooks (Open Plugins: \"Tools MUST ignore event names they do not recognize\"){hint}"),
            );
            continue;
        }
        let mut groups = Vec::new();
        for rule in rules {
            if let Some(group) = load_rule(&mut cfg, &source, event, rule)? {
                groups.push(group);
            }
        }
        match event {
            Some(event) => cfg.push_groups(event, groups),
            None => {
                // The extended events also run in the tool call goose fires
                // them after: a second stage of PreToolUse or PostToolUse.
                if let Some((native, on)) = super::IN_TOOL_EVENTS.iter().find(|(n, _)| *n == key) {
                    let in_tool_event: Vec<HookGroup> = groups
                        .iter()
                        .map(|g| HookGroup {
                            hooks: g
                                .hooks
                                .iter()
                                .map(|h| HookSpec { native_event: Some(native), ..h.clone() })
                                .collect(),
                            ..g.clone()
                        })
                        .collect();
                    cfg.push_groups(*on, in_tool_event);
                }
                cfg.push_named(key, groups);
            }
        }
    }
    Ok(cfg)
}

/// The rules of one event key, as goose's serde shape reads them: any
/// value of the wrong type rejects the file.
fn parse_rules(key: &str, v: &Value) -> Result<Vec<Rule>> {
    let path = format!("hooks.{key}");
    let Value::Array(items) = v else {
        return Err(reject(format!("{path} must be an array of rules, got {}", type_name(v))));
    };
    let mut rules = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = format!("{path}[{i}]");
        let Value::Object(obj) = item else {
            return Err(reject(format!("{path} must be an object, got {}", type_name(item))));
        };
        let matcher = match obj.get("matcher") {
            None | Some(Value::Null) => None,
            Some(Value::String(m)) => Some(m.clone()),
            Some(other) => return Err(reject(format!("{path}.matcher must be a string, got {}", type_name(other)))),
        };
        let actions = match obj.get("hooks") {
            None => Vec::new(),
            Some(Value::Array(actions)) => actions
                .iter()
                .enumerate()
                .map(|(j, a)| parse_action(&format!("{path}.hooks[{j}]"), a))
                .collect::<Result<Vec<_>>>()?,
            Some(other) => return Err(reject(format!("{path}.hooks must be an array, got {}", type_name(other)))),
        };
        rules.push(Rule { path, matcher, actions });
    }
    Ok(rules)
}

/// One action: `Ok(Err((path, why)))` when goose ignores it.
fn parse_action(path: &str, v: &Value) -> Result<std::result::Result<Action, (String, String)>> {
    let Value::Object(obj) = v else {
        return Err(reject(format!("{path} must be an object, got {}", type_name(v))));
    };
    let text = |key: &str| -> Result<Option<String>> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(reject(format!("{path}.{key} must be a string, got {}", type_name(other)))),
        }
    };
    let kind = text("type")?;
    let command = text("command")?;
    let timeout = match obj.get("timeout") {
        None | Some(Value::Null) => None,
        Some(t) => match t.as_u64() {
            Some(n) => Some(n),
            None => return Err(reject(format!("{path}.timeout must be a non-negative integer of seconds, got {t}"))),
        },
    };
    match kind.as_deref().unwrap_or("command") {
        "command" => {}
        other => {
            let why = format!("goose runs `command` actions only; this `{other}` action is ignored");
            return Ok(Err((path.to_owned(), why)));
        }
    }
    let Some(command) = command else {
        return Ok(Err((path.to_owned(), "the action has no `command`; goose ignores it".to_owned())));
    };
    Ok(Ok(Action { path: path.to_owned(), command, timeout, on_failure: obj.get("on_failure").cloned() }))
}

/// `on_failure` of an action goose runs: `true` for `"block"`; absent or
/// `null` is `"allow"`; any other value rejects the file.
fn blocks_on_failure(action: &Action) -> Result<bool> {
    match &action.on_failure {
        None | Some(Value::Null) => Ok(false),
        Some(Value::String(s)) if s == "allow" => Ok(false),
        Some(Value::String(s)) if s == "block" => Ok(true),
        Some(other) => Err(reject(format!("{}.on_failure must be \"allow\" or \"block\", got {other}", action.path))),
    }
}

/// One rule of an event goose knows: its group, `None` when nothing of it
/// runs.
fn load_rule(
    cfg: &mut HooksConfig,
    source: &Arc<Source>,
    event: Option<HookEvent>,
    rule: Rule,
) -> Result<Option<HookGroup>> {
    let matcher_raw = rule.matcher.filter(|m| !m.is_empty());
    let matcher = match &matcher_raw {
        None => Matcher::All,
        Some(raw) => match compile(raw) {
            Ok(re) => Matcher::Regex(re),
            Err(e) => {
                cfg.push_never_runs(
                    format!("{}.matcher", rule.path),
                    format!("matcher {raw:?} is not a valid regular expression ({e}); goose skips this rule"),
                );
                return Ok(None);
            }
        },
    };
    let mut hooks = Vec::new();
    for action in rule.actions {
        let action = match action {
            Ok(a) => a,
            Err((path, why)) => {
                cfg.push_skipped(path, why);
                continue;
            }
        };
        let block = blocks_on_failure(&action)?;
        if block && event != Some(HookEvent::PreToolUse) {
            cfg.push_warning(
                format!("{}.on_failure", action.path),
                "goose honours on_failure: \"block\" on PreToolUse only; here a failing hook is ignored",
            );
        }
        hooks.push(HookSpec {
            handler: HandlerSpec::command(action.command),
            timeout_seconds: action.timeout,
            default_timeout: super::DEFAULT_TIMEOUT,
            if_rule: None,
            run_async: false,
            async_rewake: false,
            status_message: None,
            fail_closed: block && event == Some(HookEvent::PreToolUse),
            name: None,
            env: Vec::new(),
            native_event: None,
            loop_limit: None,
            path: action.path,
            source: source.clone(),
        });
    }
    if hooks.is_empty() {
        cfg.push_skipped(rule.path, "the rule has no command action goose runs; skipped");
        return Ok(None);
    }
    Ok(Some(HookGroup { matcher_raw, matcher, hooks, sequential: false }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn load(v: Value) -> Result<HooksConfig> {
        read(&v, &SourceInfo::new(&super::super::GOOSE))
    }

    /// goose's `on_failure_defaults_to_allow_and_reads_both_values` and
    /// `an_invalid_on_failure_value_rejects_the_file` ("unknown variant
    /// `deny`").
    #[test]
    fn on_failure_reads_allow_and_block_and_rejects_anything_else() {
        let rule = |extra: Value| {
            let mut action = json!({"type": "command", "command": "echo"});
            if !extra.is_null() {
                action["on_failure"] = extra;
            }
            json!({"hooks": {"PreToolUse": [{"hooks": [action]}]}})
        };
        let fail_closed = |v: Value| load(v).unwrap().groups(HookEvent::PreToolUse)[0].hooks[0].fail_closed;
        assert!(!fail_closed(rule(Value::Null)));
        assert!(!fail_closed(rule(json!("allow"))));
        assert!(fail_closed(rule(json!("block"))));
        let e = load(rule(json!("deny"))).expect_err("rejected");
        assert!(e.message.contains("on_failure"), "{}", e.message);
    }

    /// "An unrecognized `on_failure` on an entry under an event this loader
    /// ignores must not fail the whole-file parse", nor on an ignored
    /// action ("an unsupported action type and a command action with no
    /// command").
    #[test]
    fn an_ignored_entry_never_rejects_the_file_for_its_on_failure() {
        let cfg = load(json!({"hooks": {
            "SomeFutureEvent": [{"hooks": [{"type": "command", "command": "echo", "on_failure": "retry"}]}],
            "PreToolUse": [{"hooks": [
                {"type": "webhook", "url": "https://example.invalid", "on_failure": true},
                {"type": "command", "on_failure": {"mode": "retry"}},
                {"type": "command", "command": "echo", "on_failure": "block"}
            ]}]
        }}))
        .unwrap();
        let hooks = &cfg.groups(HookEvent::PreToolUse)[0].hooks;
        assert_eq!(hooks.len(), 1, "only the supported command action loads");
        assert!(hooks[0].fail_closed);
        assert_eq!(cfg.warnings().iter().filter(|w| w.entry_skipped).count(), 2);
        assert!(cfg.warnings().iter().any(|w| w.path == "hooks.SomeFutureEvent"));
    }

    /// `invalid_matcher_skipped_without_panic`: "Invalid hook matcher
    /// regex; skipping rule"; an empty matcher matches everything.
    #[test]
    fn an_invalid_matcher_skips_its_rule_an_empty_one_matches_all() {
        let cfg = load(json!({"hooks": {"PostToolUse": [
            {"matcher": "[invalid", "hooks": [{"type": "command", "command": "echo"}]},
            {"matcher": "", "hooks": [{"command": "echo"}]}
        ]}}))
        .unwrap();
        let groups = cfg.groups(HookEvent::PostToolUse);
        assert_eq!(groups.len(), 1);
        assert!(groups[0].matcher.is_all());
        assert!(cfg.warnings().iter().any(|w| w.path.ends_with("[0].matcher")));
    }

    /// Values of the wrong type fail goose's serde parse of the whole file.
    #[test]
    fn the_wrong_types_reject_the_file() {
        for bad in [
            json!([]),
            json!({"hooks": null}),
            json!({"hooks": {"NotAnEvent": 3}}),
            json!({"hooks": {"Stop": [3]}}),
            json!({"hooks": {"Stop": [{"matcher": 1, "hooks": []}]}}),
            json!({"hooks": {"Stop": [{"hooks": null}]}}),
            json!({"hooks": {"Stop": [{"hooks": [{"command": "x", "timeout": -1}]}]}}),
            json!({"hooks": {"Stop": [{"hooks": [{"command": "x", "timeout": 1.5}]}]}}),
            json!({"hooks": {"Stop": [{"hooks": [{"command": ["x"]}]}]}}),
        ] {
            assert!(load(bad.clone()).is_err(), "{bad}");
        }
        assert!(load(json!({})).unwrap().is_empty());
    }

    #[test]
    fn timeouts_are_seconds_zero_included() {
        let cfg =
            load(json!({"hooks": {"Stop": [{"hooks": [{"command": "x", "timeout": 0}, {"command": "y"}]}]}})).unwrap();
        let hooks = &cfg.groups(HookEvent::Stop)[0].hooks;
        assert_eq!(hooks[0].timeout_seconds, Some(0));
        assert_eq!(hooks[1].timeout(), std::time::Duration::from_secs(30));
    }
}
