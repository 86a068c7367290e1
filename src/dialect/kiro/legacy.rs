//! The CLI 2.x hooks embedded in a Kiro agent file (`.kiro/agents/<agent>.json`,
//! still read by CLI 3 "during the transition"): `{"hooks": {"<trigger>":
//! [{command, matcher?, timeout_ms?, max_output_size?, cache_ttl_seconds?}]},
//! …the agent's other fields}`.
//!
//! Triggers (camelCase): `agentSpawn` → SessionStart, `userPromptSubmit`,
//! `preToolUse`, `postToolUse`, `stop`. An agent file is read only when
//! named (`hooks_file`, `--config`): its hooks are that agent's, so a host
//! does not gather every agent's file. The rules of the result are Kiro's
//! (exit 2 blocks PreToolUse and UserPromptSubmit, stdout is context on
//! SessionStart and UserPromptSubmit).
//!
//! Fields (CLI 2.x, `crates/chat-cli/src/cli/agent/hook.rs`): `timeout_ms`
//! (default 30 000); a matcher on the tool triggers is `*`, `@builtin`,
//! `@server` (or `@server/tool`), else the tool's exact name, or a glob
//! when it has `*` or `?`; matchers of other triggers are ignored and
//! reported. `cache_ttl_seconds` (results cached) and `max_output_size`
//! (output cut at 10 KiB) are not implemented: reported when set.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::config::category;
use crate::config::matcher::{compile, Matcher};
use crate::config::{type_name, HandlerSpec, HookGroup, HookSpec, HooksConfig, Launch, Shell, Source, SourceInfo};
use crate::error::Result;
use crate::model::event::HookEvent;

/// The 2.x triggers and their events.
const TRIGGERS: &[(&str, HookEvent)] = &[
    ("agentSpawn", HookEvent::SessionStart),
    ("userPromptSubmit", HookEvent::UserPromptSubmit),
    ("preToolUse", HookEvent::PreToolUse),
    ("postToolUse", HookEvent::PostToolUse),
    ("stop", HookEvent::Stop),
];

/// The fields of a 2.x hook.
const FIELDS: &[&str] = &["command", "matcher", "timeout_ms", "max_output_size", "cache_ttl_seconds"];

/// CLI 2.x's default timeout.
const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// Whether `v` is an agent file with embedded 2.x hooks (no `version`, a
/// `hooks` object).
pub(crate) fn is_agent_file(v: &Map<String, Value>) -> bool {
    !v.contains_key("version") && v.get("hooks").is_some_and(Value::is_object)
}

/// Read the embedded hooks of an agent file (see the module documentation).
pub(crate) fn read(top: &Map<String, Value>, info: &SourceInfo) -> Result<HooksConfig> {
    let mut cfg = HooksConfig::empty_of(&super::KIRO);
    let Some(Value::Object(hooks)) = top.get("hooks") else { return Ok(cfg) };
    // Hooks run in the workspace above `.kiro/agents/` (CLI 2.x: the
    // session's directory), not in the agents folder.
    let root =
        info.path.as_deref().and_then(|p| p.parent()?.parent()?.parent()).map(|r| match r.as_os_str().is_empty() {
            true => std::path::PathBuf::from("."),
            false => r.to_owned(),
        });
    let in_agents = info.path.as_deref().is_some_and(|p| {
        p.parent().and_then(|d| d.file_name()).is_some_and(|n| n == "agents")
            && p.parent().and_then(|d| d.parent()).and_then(|d| d.file_name()).is_some_and(|n| n == ".kiro")
    });
    let source = Arc::new(Source { cwd: root.filter(|_| in_agents), ..Source::new(info.clone(), false) });
    for (key, value) in hooks {
        let Some((_, event)) = TRIGGERS.iter().find(|(t, _)| t == key) else {
            let hint = crate::suggest::closest(key, TRIGGERS.iter().map(|(t, _)| *t))
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            cfg.push_never_runs(format!("hooks.{key}"), format!("unknown Kiro CLI 2.x hook trigger `{key}`{hint}"));
            continue;
        };
        let Value::Array(items) = value else {
            cfg.push_skipped(format!("hooks.{key}"), format!("must be an array of hooks, got {}", type_name(value)));
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let path = format!("hooks.{key}[{i}]");
            match parse(&mut cfg, &source, &path, *event, item) {
                Ok(group) => cfg.push_groups(*event, [group]),
                Err(why) => cfg.push_skipped(path, format!("{why}; the hook is skipped")),
            }
        }
    }
    Ok(cfg)
}

fn parse(
    cfg: &mut HooksConfig,
    source: &Arc<Source>,
    path: &str,
    event: HookEvent,
    v: &Value,
) -> std::result::Result<HookGroup, String> {
    let Value::Object(obj) = v else { return Err(format!("the hook must be an object, got {}", type_name(v))) };
    let command = match obj.get("command") {
        Some(Value::String(c)) if !c.trim().is_empty() => c.clone(),
        _ => return Err("the hook needs a non-empty `command`".to_owned()),
    };
    let timeout_ms = match obj.get("timeout_ms") {
        None | Some(Value::Null) => DEFAULT_TIMEOUT_MS,
        Some(Value::Number(n)) => {
            n.as_u64().ok_or_else(|| format!("timeout_ms must be a non-negative integer, got {n}"))?
        }
        Some(other) => return Err(format!("timeout_ms must be an integer, got {}", type_name(other))),
    };
    for key in ["cache_ttl_seconds", "max_output_size"] {
        if obj.get(key).is_some_and(|v| !v.is_null() && v.as_u64() != Some(0)) {
            cfg.push_warning(
                format!("{path}.{key}"),
                format!("`{key}` is not implemented by hookline: the hook runs every time, its output uncut"),
            );
        }
    }
    for key in obj.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
        cfg.push_warning(format!("{path}.{key}"), format!("Kiro does not read the hook field `{key}`; ignored"));
    }
    let matcher_raw = obj.get("matcher").and_then(Value::as_str).map(str::to_owned);
    let tools = matches!(event, HookEvent::PreToolUse | HookEvent::PostToolUse);
    let matcher = match (&matcher_raw, tools) {
        (None, _) => Matcher::All,
        (Some(raw), false) => {
            cfg.push_warning(format!("{path}.matcher"), format!("{raw:?} is ignored: only tool hooks have matchers"));
            Matcher::All
        }
        (Some(raw), true) => tool_matcher(raw).map_err(|e| format!("matcher {raw:?} is invalid ({e})"))?,
    };
    let hook = HookSpec {
        handler: HandlerSpec::Command { command, args: None, shell: Shell::Sh, launch: Launch::default() },
        // Seconds (the Kiro table's unit), rounded up; 0 is no timeout.
        timeout_seconds: Some(match timeout_ms {
            0 => u64::from(u32::MAX),
            ms => ms.div_ceil(1000),
        }),
        default_timeout: super::PROFILE.default_timeout,
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
    Ok(HookGroup { matcher_raw, matcher, sequential: false, hooks: vec![hook] })
}

/// CLI 2.x's tool matcher: `*`, `@builtin`, `@server`, `@server/tool`,
/// else the exact name, or a glob (`*`, `?`) over the whole name.
fn tool_matcher(raw: &str) -> std::result::Result<Matcher, regex::Error> {
    if raw == "*" {
        return Ok(Matcher::All);
    }
    if raw.starts_with('@') {
        if let Some(re) = category(raw) {
            return Ok(Matcher::Regex(compile(&re)?));
        }
    }
    if raw.contains(['*', '?']) {
        let mut re = String::from("^");
        for c in raw.chars() {
            match c {
                '*' => re.push_str(".*"),
                '?' => re.push('.'),
                c => re.push_str(&regex::escape(&c.to_string())),
            }
        }
        re.push('$');
        return Ok(Matcher::Regex(compile(&re)?));
    }
    Ok(Matcher::Names(vec![raw.to_owned()]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cfg(v: Value) -> HooksConfig {
        read(v.as_object().unwrap(), &SourceInfo::new(&super::super::KIRO)).unwrap()
    }

    /// "2.x→3.0 map: agentSpawn→SessionStart, userPromptSubmit→…"; hooks
    /// embedded in an agent file, `timeout_ms` default 30000.
    #[test]
    fn embedded_hooks_map_to_the_canonical_events() {
        let c = cfg(json!({"name": "dev", "prompt": "…", "hooks": {
            "agentSpawn": [{"command": "git status"}],
            "preToolUse": [{"command": "./guard.sh", "matcher": "execute_bash", "timeout_ms": 1500}],
            "fileEdited": [{"command": "x"}]
        }}));
        assert_eq!(c.groups(HookEvent::SessionStart)[0].hooks[0].timeout_seconds, Some(30));
        let pre = &c.groups(HookEvent::PreToolUse)[0];
        assert_eq!(pre.hooks[0].timeout_seconds, Some(2));
        assert!(pre.matcher.matches("execute_bash") && !pre.matcher.matches("fs_read"));
        assert!(c.warnings().iter().any(|w| w.path == "hooks.fileEdited" && w.never_runs));
    }

    /// "matcher: `*`, `@builtin`, `@server`, else exact or — if the pattern
    /// contains `*`/`?` — a `globset` glob" (CLI 2.x `hook_matches_tool`).
    #[test]
    fn matchers_are_names_categories_or_globs() {
        let m = |raw: &str| tool_matcher(raw).unwrap();
        assert!(m("fs_*").matches("fs_write") && !m("fs_*").matches("execute_bash"));
        assert!(m("@git").matches("@git/status") && !m("@git").matches("@github/x"));
        assert!(m("@builtin").matches("fs_read") && !m("@builtin").matches("@git/status"));
        assert!(m("fs_read").matches("fs_read") && !m("fs_read").matches("fs_read2"));
        assert!(m("*").matches("anything"));
    }
}
