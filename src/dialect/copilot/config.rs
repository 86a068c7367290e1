//! Reading Copilot CLI configs: hooks files (`.github/hooks/*.json`,
//! `{"version": 1, "disableAllHooks": false, "hooks": {…}}`) and the inline
//! `hooks` of a `settings.json` (Copilot's, or a Claude Code settings file
//! read as Copilot CLI reads it).
//!
//! What Copilot CLI rejects, hookline rejects (`InvalidConfig`); what it
//! skips, hookline skips and reports ([`HooksConfig::push_warning`]):
//!
//! | config | effect |
//! |---|---|
//! | not a JSON object; `hooks` not an object; an event's value not an array | the whole file is rejected |
//! | an unknown key's value, whatever it is | not validated: the key is skipped and reported |
//! | `version` present and not `1` | rejected: `Unsupported hooks config version: <v>` |
//! | `disableAllHooks: true` | every hook of the file is skipped (reported); in a repository's settings (`.github/copilot/settings*.json`, `.claude/settings*.json`) every source's hooks are skipped once the sources are joined (an untrusted file's: the untrusted sources' hooks) |
//! | an unknown event key | skipped and reported (Copilot CLI keeps it but never runs it) |
//! | a malformed entry in a hooks file | that entry is skipped and reported; its siblings load |
//! | a malformed entry inline in a `settings*.json` | the whole `hooks` field is rejected |
//! | an invalid matcher regex | that entry is skipped: `Invalid matcher regex in <event> hook: '<m>' — hook will be skipped` (in settings files too) |
//! | an `http` or `prompt` entry | skipped and reported: hookline runs command hooks only |
//! | an unknown key of a loaded entry or group | ignored, as Copilot CLI ignores it, and reported (`unknown field ... is ignored; did you mean ...?`) |
//!
//! An entry is malformed when: it is not an object; its `type` is not
//! `"command"` (absent means `command`); it gives none of `bash`,
//! `powershell`, `command` and `exec`, or gives `exec` with any of the
//! others; a script or `exec` is not a non-empty string; `args` is not an
//! array of strings; `cwd` is not a string; `env` is not an object of
//! strings; `timeoutSec` (or its alias `timeout`, used only without
//! `timeoutSec`) is not a positive number; on an event with a matcher,
//! `matcher` is not a string, or is empty where the matcher is a native
//! regex. A matcher on an event that has none is ignored, whatever it is. Claude-style
//! groups (`{"matcher": …, "hooks": [entries]}`) are flattened, the group's
//! matcher applying to its entries.
//!
//! How an entry runs on Unix: `bash` (else `command`) as
//! `bash --norc --noprofile -c <script>`; only `powershell` as `pwsh -nop
//! -nol -c <script>` (with `POWERSHELL_UPDATECHECK=Off`); `exec` + `args`
//! directly, without a shell. On Windows an entry's `powershell` script
//! runs as `powershell -nop -nol -c <script>` when it has one. `cwd` is
//! relative to the workspace; `env` values expand `$NAME`/`${NAME}`; a
//! script named by the command's first word is made executable when it is
//! not. A fractional `timeoutSec` is rounded up to whole seconds.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{claude_names, Copilot, COPILOT, COPILOT_COMPAT, KEYS, NATIVE_EVENTS, PASCAL_KEYS};
use crate::config::matcher::Matcher;
use crate::config::{
    type_name, DisableAllHooks, HandlerSpec, HookGroup, HookSpec, HooksConfig, Launch, Source, SourceInfo,
};
use crate::dialect::{warn_unknown_fields, Dialect as _};
use crate::error::{Error, Result};
use crate::model::event::{HookEvent, RunEvent};

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

/// Whether a config file holds inline `hooks` of a settings file (strict:
/// one malformed entry rejects them all) rather than a hooks file loaded
/// from a directory (`hooks/`, `policy.d/`).
pub(crate) fn is_settings_file(path: Option<&Path>) -> bool {
    let Some(path) = path else { return false };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let dir = path.parent().and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with("settings") && !matches!(dir, "hooks" | "policy.d")
}

/// Whether a config file is a repository's settings file
/// (`.github/copilot/settings*.json`, or a `.claude/settings*.json` read as
/// Copilot CLI reads it), whose `disableAllHooks: true` turns off every
/// source's hooks, not only its own.
fn is_repository_settings(path: Option<&Path>) -> bool {
    let Some(path) = path else { return false };
    let part = |p: Option<&Path>| p.and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or("").to_owned();
    let parent = part(path.parent());
    let grandparent = part(path.parent().and_then(Path::parent));
    is_settings_file(Some(path)) && ((grandparent == ".github" && parent == "copilot") || parent == ".claude")
}

/// Where an event key leads.
#[derive(Clone, Copy)]
enum Key {
    /// A canonical event; `compat`: configured under its PascalCase alias.
    Event(HookEvent, bool),
    /// An event without a canonical meaning, by its camelCase name.
    Native(&'static str, bool),
}

fn key_of(key: &str) -> Option<Key> {
    for event in HookEvent::ALL {
        if *KEYS.get(event) == key {
            return Some(Key::Event(event, false));
        }
        if *PASCAL_KEYS.get(event) == key {
            return Some(Key::Event(event, true));
        }
    }
    NATIVE_EVENTS.iter().find_map(|(camel, pascal)| match (*camel == key, *pascal == Some(key)) {
        (true, _) => Some(Key::Native(camel, false)),
        (_, true) => Some(Key::Native(camel, true)),
        _ => None,
    })
}

/// A Copilot CLI key that `key` is probably a misspelling of.
fn suggest(key: &str) -> Option<&'static str> {
    let normalize =
        |s: &str| -> String { s.chars().filter(|c| c.is_ascii_alphanumeric()).flat_map(char::to_lowercase).collect() };
    let wanted = normalize(key);
    let all = HookEvent::ALL.iter().map(|e| *KEYS.get(*e)).chain(NATIVE_EVENTS.iter().map(|(k, _)| *k));
    let all: Vec<&'static str> = all.collect();
    all.iter().copied().find(|k| normalize(k) == wanted).or(match wanted.as_str() {
        "stop" => Some("agentStop"),
        "userpromptsubmit" => Some("userPromptSubmitted"),
        _ => None,
    })
}

/// Read a Copilot CLI config (see the module documentation).
pub(crate) fn read(value: &Value, info: &SourceInfo) -> Result<HooksConfig> {
    let Value::Object(top) = value else {
        return Err(cfg_err(format!("hooks configuration must be a JSON object, got {}", type_name(value))));
    };
    let strict = is_settings_file(info.path.as_deref());
    if !strict {
        match top.get("version") {
            None => {}
            Some(v) if v.as_f64() == Some(1.0) => {}
            Some(v) => return Err(cfg_err(format!("Unsupported hooks config version: {v}"))),
        }
    }
    let mut cfg = HooksConfig::empty_of(&COPILOT);
    match top.get("disableAllHooks") {
        None | Some(Value::Bool(false)) => {}
        Some(Value::Bool(true)) if is_repository_settings(info.path.as_deref()) => {
            // A repository's settings turn off the hooks of every source,
            // applied once every source is joined (an unapproved file turns
            // off the unapproved sources' hooks only).
            cfg.set_disable_all_hooks(DisableAllHooks { value: true, trusted: info.trusted });
            cfg.push_warning(
                "disableAllHooks",
                "disableAllHooks is true in the repository's settings: the hooks of every source are skipped",
            );
            return Ok(cfg);
        }
        Some(Value::Bool(true)) => {
            cfg.push_warning("disableAllHooks", "disableAllHooks is true: every hook of this file is skipped");
            return Ok(cfg);
        }
        Some(other) => return Err(cfg_err(format!("disableAllHooks must be a boolean, got {}", type_name(other)))),
    }
    let hooks = match top.get("hooks") {
        None | Some(Value::Null) => return Ok(cfg),
        Some(Value::Object(hooks)) => hooks,
        Some(other) => return Err(cfg_err(format!("hooks must be an object, got {}", type_name(other)))),
    };
    read_events(hooks, info, strict, cfg)
}

fn read_events(
    hooks: &Map<String, Value>,
    info: &SourceInfo,
    strict: bool,
    mut cfg: HooksConfig,
) -> Result<HooksConfig> {
    let camel = Arc::new(Source {
        info: SourceInfo { dialect: (&COPILOT).into(), ..info.clone() },
        quiet_success_output: false,
        cwd: None,
    });
    let pascal = Arc::new(Source {
        info: SourceInfo { dialect: (&COPILOT_COMPAT).into(), ..info.clone() },
        quiet_success_output: false,
        cwd: None,
    });
    // Every event's value must be an array (else the whole file is
    // rejected). An unknown key is not validated at all (Copilot CLI's
    // schema passes it through), whatever its value: reported, never run.
    for (key, value) in hooks {
        if key_of(key).is_none() {
            let hint = match suggest(key) {
                Some(k) => format!("; did you mean `{k}`?"),
                None => String::new(),
            };
            cfg.push_never_runs(
                format!("hooks.{key}"),
                format!("unknown event key `{key}`: Copilot CLI never runs its hooks{hint}"),
            );
            continue;
        }
        if !value.is_array() {
            return Err(cfg_err(format!("hooks.{key} must be an array, got {}", type_name(value))));
        }
    }
    // Per event: the camelCase entries, then the PascalCase ones.
    for compat in [false, true] {
        let source = if compat { &pascal } else { &camel };
        for (key, value) in hooks {
            let Some(k) = key_of(key) else { continue };
            let (event, is_compat) = match k {
                Key::Event(e, c) => (RunEvent::Known(e), c),
                Key::Native(name, c) => (RunEvent::Named(Arc::from(name)), c),
            };
            if is_compat != compat {
                continue;
            }
            let groups = read_entries(&mut cfg, source, compat, &event, key, value, strict)?;
            match &event {
                RunEvent::Known(e) => cfg.push_groups(*e, groups),
                RunEvent::Named(name) => cfg.push_named(name, groups),
            }
        }
    }
    Ok(cfg)
}

/// A skipped entry: reported (hooks files), or the whole `hooks` rejected
/// (inline settings) when `rejects`.
fn skip(cfg: &mut HooksConfig, strict: bool, rejects: bool, path: &str, message: String) -> Result<()> {
    if strict && rejects {
        return Err(cfg_err(format!("{path}: {message} (inline hooks of a settings file are rejected as a whole)")));
    }
    cfg.push_warning(path, format!("{message}; the entry is skipped"));
    Ok(())
}

/// Why an entry is not read: the vendor rejects it (`Invalid`), or the
/// vendor runs it but hookline cannot (`Unsupported`: always skipped and
/// reported, never a rejection), or its matcher does not compile (skipped
/// in every file, as Copilot CLI skips it).
enum Bad {
    Invalid(String),
    Unsupported(String),
    Matcher(String),
}

#[allow(clippy::too_many_arguments)]
fn read_entries(
    cfg: &mut HooksConfig,
    source: &Arc<Source>,
    compat: bool,
    event: &RunEvent,
    key: &str,
    value: &Value,
    strict: bool,
) -> Result<Vec<HookGroup>> {
    let items = value.as_array().map(Vec::as_slice).unwrap_or_default();
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let path = format!("hooks.{key}[{i}]");
        // A Claude-style group: its entries, with its matcher.
        if let Some(inner) = item.as_object().filter(|o| is_group(o)) {
            warn_unknown_fields(cfg, &path, item, COPILOT.group_field_names());
            let group_matcher = match inner.get("matcher") {
                None | Some(Value::Null) => None,
                Some(Value::String(m)) => Some(m.as_str()),
                Some(_) if !Copilot::has_matcher(event) => None,
                Some(other) => {
                    skip(cfg, strict, true, &path, format!("matcher must be a string, got {}", type_name(other)))?;
                    continue;
                }
            };
            let entries = match inner.get("hooks") {
                Some(Value::Array(entries)) => entries,
                Some(other) => {
                    skip(cfg, strict, true, &path, format!("hooks must be an array, got {}", type_name(other)))?;
                    continue;
                }
                None => continue,
            };
            for (j, entry) in entries.iter().enumerate() {
                let path = format!("{path}.hooks[{j}]");
                entry_or_skip(cfg, (source, compat), event, key, entry, group_matcher, &path, strict, &mut out)?;
            }
            continue;
        }
        entry_or_skip(cfg, (source, compat), event, key, item, None, &path, strict, &mut out)?;
    }
    Ok(out)
}

/// A Claude-style group: an object with `hooks` and none of an entry's
/// command fields.
fn is_group(obj: &Map<String, Value>) -> bool {
    obj.contains_key("hooks") && !["bash", "powershell", "command", "exec"].iter().any(|k| obj.contains_key(*k))
}

#[allow(clippy::too_many_arguments)]
fn entry_or_skip(
    cfg: &mut HooksConfig,
    source: (&Arc<Source>, bool),
    event: &RunEvent,
    key: &str,
    entry: &Value,
    group_matcher: Option<&str>,
    path: &str,
    strict: bool,
    out: &mut Vec<HookGroup>,
) -> Result<()> {
    match entry_of(source, event, key, entry, group_matcher, path) {
        Ok(group) => {
            // Copilot CLI ignores the keys it does not read; hookline loads
            // the entry and names each such key.
            warn_unknown_fields(cfg, path, entry, COPILOT.hook_field_names());
            out.push(group)
        }
        Err(Bad::Invalid(m)) => skip(cfg, strict, true, path, m)?,
        Err(Bad::Unsupported(m)) => skip(cfg, strict, false, path, m)?,
        // Copilot CLI's message says the hook is skipped.
        Err(Bad::Matcher(m)) => cfg.push_never_runs(path, m),
    }
    Ok(())
}

/// A non-empty string field (`None` when absent or null).
fn script(obj: &Map<String, Value>, key: &str) -> std::result::Result<Option<String>, Bad> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
        Some(Value::String(_)) => Err(Bad::Invalid(format!("{key} must not be empty"))),
        Some(other) => Err(Bad::Invalid(format!("{key} must be a string, got {}", type_name(other)))),
    }
}

/// `timeoutSec`, else its alias `timeout`: a positive number of seconds
/// (rounded up to whole seconds).
pub(crate) fn timeout_of(obj: &Map<String, Value>, keys: &[&str]) -> std::result::Result<Option<u64>, String> {
    let Some((key, v)) = keys.iter().find_map(|k| obj.get(*k).filter(|v| !v.is_null()).map(|v| (*k, v))) else {
        return Ok(None);
    };
    match v.as_f64() {
        Some(n) if n > 0.0 && n.is_finite() => Ok(Some(n.ceil().min(u64::MAX as f64) as u64)),
        _ => Err(format!("{key} must be a positive number of seconds, got {v}")),
    }
}

/// `env`: an object of strings, in order.
pub(crate) fn env_of(obj: &Map<String, Value>) -> std::result::Result<Vec<(String, String)>, String> {
    match obj.get("env") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(vars)) => vars
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                other => Err(format!("env.{k} must be a string, got {}", type_name(other))),
            })
            .collect(),
        Some(other) => Err(format!("env must be an object of strings, got {}", type_name(other))),
    }
}

/// `cwd`: a string (relative to the workspace, or absolute).
pub(crate) fn cwd_of(obj: &Map<String, Value>) -> std::result::Result<Option<String>, String> {
    match obj.get("cwd") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() || s == "." => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("cwd must be a string, got {}", type_name(other))),
    }
}

/// How an exec hook is named: `program arg1 arg2` (how Copilot CLI names it
/// in its messages).
fn exec_label(argv: &[String]) -> String {
    argv.join(" ")
}

fn entry_of(
    (source, compat): (&Arc<Source>, bool),
    event: &RunEvent,
    key: &str,
    v: &Value,
    group_matcher: Option<&str>,
    path: &str,
) -> std::result::Result<HookGroup, Bad> {
    let Value::Object(obj) = v else {
        return Err(Bad::Invalid(format!("the entry must be an object, got {}", type_name(v))));
    };
    match obj.get("type") {
        None | Some(Value::Null) => {}
        Some(Value::String(t)) if t == "command" => {}
        Some(Value::String(t)) if t == "http" || t == "prompt" => {
            return Err(Bad::Unsupported(format!("{t} hooks are not supported by hookline (only command hooks run)")))
        }
        Some(Value::String(t)) => return Err(Bad::Invalid(format!("unsupported hook type \"{t}\""))),
        Some(other) => return Err(Bad::Invalid(format!("type must be a string, got {}", type_name(other)))),
    }
    let bash = script(obj, "bash")?;
    let powershell = script(obj, "powershell")?;
    let command = script(obj, "command")?;
    let exec = script(obj, "exec")?;
    let args: Vec<String> = match obj.get("args") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| x.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or_else(|| Bad::Invalid("args must be an array of strings".to_owned()))?,
        Some(other) => return Err(Bad::Invalid(format!("args must be an array of strings, got {}", type_name(other)))),
    };
    // On Windows an entry's `powershell` script is the one that runs (Copilot
    // CLI runs it as `powershell -nop -nol -c`); elsewhere `bash`, else
    // `command`, and `powershell` (with pwsh) only when it is the only one.
    let (bash, powershell) =
        if cfg!(windows) && powershell.is_some() { (None, powershell) } else { (bash.or(command), powershell) };
    let (label, argv, make_script_executable) = match (exec, bash, powershell) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            return Err(Bad::Invalid(
                "Specify either 'exec' (native executable) or 'bash'/'powershell'/'command' (shell), but not both"
                    .to_owned(),
            ))
        }
        (Some(program), None, None) => {
            let argv: Vec<String> = std::iter::once(program).chain(args).collect();
            (exec_label(&argv), argv, false)
        }
        (None, Some(script), _) => {
            let argv = ["bash", "--norc", "--noprofile", "-c"].iter().map(|s| (*s).to_owned()).chain([script.clone()]);
            (script, argv.collect(), true)
        }
        (None, None, Some(script)) => {
            let program = if cfg!(windows) { "powershell" } else { "pwsh" };
            let argv =
                [program, "-nop", "-nol", "-c"].iter().map(|s| (*s).to_owned()).chain([script.clone()]).collect();
            (script, argv, true)
        }
        (None, None, None) => {
            return Err(Bad::Invalid("the entry must specify bash, powershell, command or exec".to_owned()))
        }
    };
    let cwd = cwd_of(obj).map_err(Bad::Invalid)?;
    let mut env = env_of(obj).map_err(Bad::Invalid)?;
    // PowerShell runs without its update check.
    if argv.first().is_some_and(|p| p == "pwsh" || p == "powershell")
        && !env.iter().any(|(k, _)| k == "POWERSHELL_UPDATECHECK")
    {
        env.push(("POWERSHELL_UPDATECHECK".to_owned(), "Off".to_owned()));
    }
    let timeout_seconds = timeout_of(obj, &["timeoutSec", "timeout"]).map_err(Bad::Invalid)?;
    // Only the events with a matcher validate it; elsewhere it is ignored,
    // whatever it holds.
    let own_matcher = match obj.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(m)) => Some(m.as_str()),
        Some(_) if !Copilot::has_matcher(event) => None,
        Some(other) => return Err(Bad::Invalid(format!("matcher must be a string, got {}", type_name(other)))),
    };
    let matcher_raw = own_matcher.or(group_matcher);
    let claude_format = compat && event.is_tool_event() && event.known() != Some(HookEvent::PostToolUseFailure);
    if Copilot::has_matcher(event) && !claude_format && matcher_raw == Some("") {
        return Err(Bad::Invalid("matcher must be a non-empty string".to_owned()));
    }
    let matcher = if Copilot::has_matcher(event) {
        compile_matcher(event, compat, matcher_raw).map_err(|e| {
            // Copilot CLI's words, exactly; the regex error goes to the log.
            let m = matcher_raw.unwrap_or("");
            crate::hl_debug!("matcher '{m}' of a {key} hook: {e}");
            Bad::Matcher(format!("Invalid matcher regex in {key} hook: '{m}' — hook will be skipped"))
        })?
    } else {
        Matcher::All
    };
    let spec = HookSpec {
        handler: HandlerSpec::Command {
            command: label,
            args: None,
            shell: crate::config::Shell::Sh,
            launch: Launch { argv: Some(argv), cwd, env, expand_env: true, make_script_executable },
        },
        timeout_seconds,
        default_timeout: super::PROFILE.default_timeout,
        if_rule: None,
        async_rewake: false,
        run_async: false,
        status_message: None,
        fail_closed: false,
        name: None,
        env: Vec::new(),
        native_event: None,
        loop_limit: None,
        path: path.to_owned(),
        source: source.clone(),
    };
    Ok(HookGroup { matcher_raw: matcher_raw.map(str::to_owned), matcher, hooks: vec![spec], sequential: false })
}

/// The matcher of an entry: Claude-format on PascalCase tool events, else
/// the native anchored regex. An empty matcher matches nothing natively
/// (it is `^(?:)$`), so Copilot CLI's schema rejects it; here it is an
/// invalid matcher too.
fn compile_matcher(event: &RunEvent, compat: bool, raw: Option<&str>) -> std::result::Result<Matcher, String> {
    let tool_event = event.is_tool_event() && event.known() != Some(HookEvent::PostToolUseFailure);
    if compat && tool_event {
        return Matcher::claude_format(raw, claude_names).map_err(|e| e.to_string());
    }
    if raw == Some("") {
        return Err("a matcher must be a non-empty string".to_owned());
    }
    Matcher::anchored(raw).map_err(|e| e.to_string())
}
