//! The VS Code agent hooks dialect: the hooks VS Code's agent runs, read
//! from the files VS Code reads (`.github/hooks/*.json`,
//! `.claude/settings*.json`, `~/.copilot/hooks`, `~/.claude/settings.json`)
//! and given VS Code's decisions, as its agent hooks documentation
//! describes them (`docs/dialects.md` has the table of rules). Those files
//! belong to other dialects by path, so this one is chosen by the `dialect`
//! option only.
//!
//! - Eight events, PascalCase: `SessionStart`, `UserPromptSubmit`,
//!   `PreToolUse`, `PostToolUse`, `PreCompact`, `SubagentStart`,
//!   `SubagentStop`, `Stop`. A Copilot CLI lowerCamelCase key is converted
//!   the way VS Code converts it (its first letter upper-cased:
//!   `preToolUse` → `PreToolUse`), so `agentStop` becomes `AgentStop` and,
//!   like any other key that is not one of the eight, is skipped and
//!   reported.
//! - Entries: flat (`{"type": "command", "command": …}`) or in Claude Code
//!   matcher groups (flattened). `type: "command"` is required; the command
//!   is the OS override (`linux`, `osx`; `bash` stands for both, as VS Code
//!   converts Copilot CLI files), else `command`; `cwd` (relative to the
//!   workspace), `env`, `timeout` (seconds, default 30; `timeoutSec` is
//!   read too). A malformed entry is skipped and reported.
//! - **Matchers are parsed but ignored**: every hook runs on every
//!   occurrence of its event.
//! - Replies are the hooks protocol's (`hookSpecificOutput`, `continue`,
//!   `systemMessage`), read with the table below: PreToolUse's most
//!   restrictive decision wins; exit 2 is a blocking error (its stderr the
//!   reason); other non-zero exits are warnings and their stdout is not
//!   read; `continue: false` halts the agent (and wins over `allow`).
//!   SubagentStart's `hookSpecificOutput.additionalContext` has no
//!   canonical slot: it is the outcome's `dialect_fields.vscode.additionalContext`.

pub(crate) mod tools;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::copilot::config::{cwd_of, env_of, timeout_of};
use super::copilot::payload::{epoch_millis, iso8601};
use super::{protocol, warn_unknown_fields, Dialect, Placeholder, PlaceholderValue, ReadCtx};
use crate::config::matcher::Matcher;
use crate::config::{type_name, HandlerSpec, HookGroup, HookSpec, HooksConfig, Launch, Shell, Source, SourceInfo};
use crate::error::{Error, Result};
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::input::SessionFacts;
use crate::model::reply::HookReply;
use crate::model::rules::{
    BlockFields, Column, Dedupe, EventRules, EventTable, Exit2, Exit2Reason, FieldMerge, HandlerTimeouts, InputRules,
    Precedence, Profile, RunOrder, TimeoutUnit, ToolInputFlow, CANONICAL_FAMILIES,
};

/// The VS Code dialect (see the module documentation).
#[derive(Debug)]
pub struct VsCode;

/// The VS Code dialect's value.
pub static VSCODE: VsCode = VsCode;

const BLOCK: Exit2 = Exit2::Block { reason: Exit2Reason::StdoutThenStderr, needs_stderr: false };
const FEEDBACK: Exit2 = Exit2::Block { reason: Exit2Reason::StdoutThenStderr, needs_stderr: true };
/// Non-zero exits other than 2 are warnings (the neutral level).
const OBSERVER: EventRules = EventRules { exit2: Exit2::StderrToUser, ..EventRules::NEUTRAL };

/// The VS Code profile.
pub static PROFILE: Profile = Profile {
    name: "vscode",
    default_timeout: Duration::from_secs(30),
    timeout_unit: TimeoutUnit::Seconds,
    inputs: InputRules::Lenient,
    dedupe: Dedupe::None,
    families: CANONICAL_FAMILIES,
    named: &[],
    dialect_fields: FieldMerge::FirstOrAppended,
    // Its configs have command hooks only (no prompt or agent type, no exec
    // form with placeholders).
    handler_timeouts: HandlerTimeouts { prompt: Duration::from_secs(30), agent: Duration::from_secs(30), lowered: &[] },
    exec_placeholders: &[],
    events: EventTable {
        session_start: EventRules { context_needs_exit_0: true, ..OBSERVER },
        session_end: OBSERVER,
        subagent_start: OBSERVER,
        subagent_stop: EventRules {
            block_fields: BlockFields::DecisionOrSpecific,
            exit2: BLOCK,
            ..EventRules::NEUTRAL
        },
        user_prompt_submit: EventRules {
            context_needs_exit_0: true,
            run_order: RunOrder::Sequential,
            exit2: BLOCK,
            ..EventRules::NEUTRAL
        },
        pre_tool_use: EventRules {
            precedence: Precedence::MostRestrictive,
            tool_input: ToolInputFlow::Original,
            exit2: BLOCK,
            ..EventRules::NEUTRAL
        },
        post_tool_use: EventRules { exit2: FEEDBACK, ..EventRules::NEUTRAL },
        permission_request: OBSERVER,
        pre_compact: OBSERVER,
        stop: EventRules {
            block_fields: BlockFields::DecisionOrSpecific,
            run_order: RunOrder::Sequential,
            exit2: BLOCK,
            ..EventRules::NEUTRAL
        },
        notification: OBSERVER,
        post_tool_use_failure: OBSERVER,
    },
    unknown_event: OBSERVER,
};

/// The eight events VS Code runs hooks for.
const EVENTS: &[HookEvent] = &[
    HookEvent::SessionStart,
    HookEvent::UserPromptSubmit,
    HookEvent::PreToolUse,
    HookEvent::PostToolUse,
    HookEvent::PreCompact,
    HookEvent::SubagentStart,
    HookEvent::SubagentStop,
    HookEvent::Stop,
];

/// VS Code's built-in agent tool names (as its docs name them).
pub const TOOLS: &[&str] = &[
    "editFiles",
    "createFile",
    "runTerminalCommand",
    "deleteFile",
    "readFile",
    "create_file",
    "replace_string_in_file",
    "read_file",
    "run_in_terminal",
    "fetch",
    "codebase",
    "search",
];

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

/// The event of a config key, as VS Code converts it: the key with its
/// first letter upper-cased must be one of the eight.
fn event_of(key: &str) -> Option<HookEvent> {
    let mut pascal = key.to_owned();
    if let Some(first) = pascal.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    EVENTS.iter().copied().find(|e| e.name() == pascal)
}

/// The command an entry runs on this system: its OS override (`bash`
/// standing for `linux` and `osx`, `powershell` for `windows`), else
/// `command`.
fn command_of(obj: &Map<String, Value>) -> std::result::Result<Option<String>, String> {
    let os = this_os();
    let shell = if cfg!(windows) { "powershell" } else { "bash" };
    for key in [os, shell, "command"] {
        match obj.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if !s.trim().is_empty() => return Ok(Some(s.clone())),
            Some(Value::String(_)) => return Err(format!("{key} must not be empty")),
            Some(other) => return Err(format!("{key} must be a string, got {}", type_name(other))),
        }
    }
    Ok(None)
}

/// This system's key among an entry's OS overrides.
fn this_os() -> &'static str {
    if cfg!(windows) {
        "windows"
    } else if cfg!(target_os = "macos") {
        "osx"
    } else {
        "linux"
    }
}

fn entry_of(
    source: &Arc<Source>,
    v: &Value,
    matcher_raw: Option<&str>,
    path: &str,
) -> std::result::Result<HookGroup, String> {
    let Value::Object(obj) = v else {
        return Err(format!("the entry must be an object, got {}", type_name(v)));
    };
    match obj.get("type") {
        Some(Value::String(t)) if t == "command" => {}
        Some(Value::String(t)) => return Err(format!("unsupported hook type \"{t}\" (VS Code runs command hooks)")),
        None => return Err("the entry must have \"type\": \"command\"".to_owned()),
        Some(other) => return Err(format!("type must be a string, got {}", type_name(other))),
    }
    let command = command_of(obj)?.ok_or_else(|| {
        let os = this_os();
        format!("the entry has no command for this system (command or {os})")
    })?;
    let launch =
        Launch { argv: None, cwd: cwd_of(obj)?, env: env_of(obj)?, expand_env: false, make_script_executable: false };
    let spec = HookSpec {
        handler: HandlerSpec::Command { command, args: None, shell: Shell::Sh, launch },
        timeout_seconds: timeout_of(obj, &["timeout", "timeoutSec"])?,
        default_timeout: PROFILE.default_timeout,
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
    // Matchers are parsed but not applied.
    Ok(HookGroup {
        matcher_raw: matcher_raw.map(str::to_owned),
        matcher: Matcher::All,
        hooks: vec![spec],
        sequential: false,
    })
}

impl VsCode {
    fn read_events(hooks: &Map<String, Value>, info: &SourceInfo) -> HooksConfig {
        let source = Arc::new(Source::new(info.clone(), false));
        let mut cfg = HooksConfig::empty_of(&VSCODE);
        for (key, value) in hooks {
            let Some(event) = event_of(key) else {
                let hint = match key.as_str() {
                    "agentStop" | "AgentStop" => "; VS Code's is `Stop`",
                    "userPromptSubmitted" | "UserPromptSubmitted" => "; VS Code's is `UserPromptSubmit`",
                    _ => "",
                };
                cfg.push_never_runs(
                    format!("hooks.{key}"),
                    format!("`{key}` is not a VS Code hook event; it is skipped{hint}"),
                );
                continue;
            };
            let Value::Array(items) = value else {
                cfg.push_warning(
                    format!("hooks.{key}"),
                    format!("hooks.{key} must be an array, got {}; skipped", type_name(value)),
                );
                continue;
            };
            let mut groups = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let path = format!("hooks.{key}[{i}]");
                let group = item.as_object().filter(|o| o.contains_key("hooks") && !o.contains_key("command"));
                let (entries, matcher, base): (Vec<(&Value, String)>, Option<&str>, &str) = match group {
                    Some(g) => {
                        warn_unknown_fields(&mut cfg, &path, item, VSCODE.group_field_names());
                        let matcher = g.get("matcher").and_then(Value::as_str);
                        match g.get("hooks") {
                            Some(Value::Array(inner)) => (
                                inner.iter().enumerate().map(|(j, e)| (e, format!("{path}.hooks[{j}]"))).collect(),
                                matcher,
                                &path,
                            ),
                            other => {
                                let got = other.map_or("nothing", type_name);
                                cfg.push_warning(
                                    &path,
                                    format!("hooks must be an array, got {got}; the group is skipped"),
                                );
                                continue;
                            }
                        }
                    }
                    None => (vec![(item, path.clone())], item.get("matcher").and_then(Value::as_str), &path),
                };
                let _ = base;
                for (entry, entry_path) in entries {
                    let own = entry.get("matcher").and_then(Value::as_str);
                    match entry_of(&source, entry, own.or(matcher), &entry_path) {
                        Ok(g) => {
                            // VS Code ignores the keys it does not read;
                            // hookline loads the entry and names each one.
                            warn_unknown_fields(&mut cfg, &entry_path, entry, VSCODE.hook_field_names());
                            groups.push(g)
                        }
                        Err(message) => cfg.push_warning(&entry_path, format!("{message}; the entry is skipped")),
                    }
                }
            }
            cfg.push_groups(event, groups);
        }
        cfg
    }
}

impl Dialect for VsCode {
    fn name(&self) -> &'static str {
        "vscode"
    }

    /// VS Code on Windows: an entry's `windows` command, else its
    /// `powershell` one, else `command` (`command_of`), run in PowerShell.
    fn windows_shell(&self) -> crate::config::windows_shell::WindowsShell {
        crate::config::windows_shell::WindowsShell::POWERSHELL
    }

    fn title(&self) -> &'static str {
        "VS Code"
    }

    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// None: VS Code reads the files of Copilot CLI and Claude Code, which
    /// are theirs by path; the `dialect` option chooses this one.
    fn recognises_path(&self, _path: &Path) -> bool {
        false
    }

    /// A hooks file or a settings file (`{"hooks": {…}}`), or the `hooks`
    /// object alone. Not an object, or `hooks` not an object: rejected.
    /// `disableAllHooks: true` skips the file's hooks.
    fn read_json(&self, v: &Value, info: &SourceInfo) -> Result<HooksConfig> {
        let Value::Object(top) = v else {
            return Err(cfg_err(format!("hooks configuration must be a JSON object, got {}", type_name(v))));
        };
        if top.get("disableAllHooks") == Some(&Value::Bool(true)) {
            let mut cfg = HooksConfig::empty_of(&VSCODE);
            cfg.push_warning("disableAllHooks", "disableAllHooks is true: every hook of this file is skipped");
            return Ok(cfg);
        }
        match top.get("hooks") {
            Some(Value::Object(hooks)) => Ok(Self::read_events(hooks, info)),
            Some(other) => Err(cfg_err(format!("hooks must be an object, got {}", type_name(other)))),
            None => {
                // The `hooks` object alone (any key that converts to an event).
                if top.keys().any(|k| event_of(k).is_some()) {
                    Ok(Self::read_events(top, info))
                } else {
                    Ok(HooksConfig::empty_of(&VSCODE))
                }
            }
        }
    }

    fn event_keys(&self, event: HookEvent) -> &'static [&'static str] {
        if EVENTS.contains(&event) {
            std::slice::from_ref(KEYS.get(event))
        } else {
            &[]
        }
    }

    /// Matchers are ignored on every event.
    fn match_subject<'a>(&self, _event: &RunEvent, _input: &'a Value, _trigger: &'a str) -> Option<&'a str> {
        None
    }

    fn match_subject_field(&self, _event: &RunEvent) -> Option<&'static str> {
        None
    }

    fn payload(
        &self,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Map<String, Value> {
        payload(event, facts, input, tool_input)
    }

    fn environment(&self, _event: &RunEvent, _facts: &SessionFacts<'_>, _add: &mut dyn FnMut(&'static str, &str)) {}

    fn environment_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// VS Code gives its hooks no directory variable; a plugin source's
    /// root is `CLAUDE_PLUGIN_ROOT`.
    fn placeholders(&self) -> &'static [Placeholder] {
        &[Placeholder { name: "CLAUDE_PLUGIN_ROOT", value: PlaceholderValue::PluginRoot }]
    }

    fn read_reply(&self, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
        let mut reply = protocol::read(cx, exec);
        // Only exit 0 (and exit 2's blocking error) has its stdout read.
        if !matches!(exec.exit_code, Some(0) | Some(2)) || exec.timed_out {
            reply.decision = None;
            reply.updated_input = None;
            reply.context.clear();
            reply.halt = None;
        }
        let stdout_json = || match serde_json::from_str::<Value>(exec.stdout.trim()) {
            Ok(Value::Object(o)) => Some(o),
            _ => None,
        };
        match cx.event.known() {
            // Plain text is not context: VS Code parses stdout as JSON.
            Some(HookEvent::SessionStart | HookEvent::UserPromptSubmit) if stdout_json().is_none() => {
                reply.context.clear();
            }
            Some(HookEvent::SubagentStart) if exec.exit_code == Some(0) => {
                let context = stdout_json()
                    .and_then(|o| o.get("hookSpecificOutput").cloned())
                    .and_then(|s| s.get("additionalContext").and_then(Value::as_str).map(str::to_owned));
                if let Some(context) = context.filter(|c| !c.trim().is_empty()) {
                    reply.dialect_fields.insert("additionalContext".into(), Value::String(context.trim().to_owned()));
                }
            }
            _ => {}
        }
        reply
    }

    fn describe_matcher(&self, _matcher: &Matcher, raw: Option<&str>) -> String {
        match raw {
            Some(r) => format!("matcher {r:?} is ignored: VS Code runs every hook on every occurrence of its event"),
            None => "no matcher: matches everything".to_owned(),
        }
    }

    fn tool_names(&self) -> &'static [&'static str] {
        TOOLS
    }

    fn tool_vocabulary(&self) -> &'static super::tools::ToolVocabulary {
        &tools::VOCABULARY
    }

    fn workspace_files(&self) -> &'static [&'static str] {
        &[]
    }

    /// The workspace files VS Code reads, Copilot CLI's and Claude Code's.
    fn borrowed_workspace_files(&self) -> &'static [&'static str] {
        &[".github/hooks/*.json", ".claude/settings.json", ".claude/settings.local.json"]
    }

    /// None of its own: the user files VS Code reads are Copilot CLI's and
    /// Claude Code's, read in those dialects.
    fn user_files(&self, _home: &Path) -> Vec<std::path::PathBuf> {
        Vec::new()
    }

    fn group_field_names(&self) -> &'static [&'static str] {
        &["matcher", "hooks"]
    }

    fn hook_field_names(&self) -> &'static [&'static str] {
        &[
            "type",
            "command",
            "linux",
            "osx",
            "windows",
            "bash",
            "powershell",
            "cwd",
            "env",
            "timeout",
            "timeoutSec",
            "matcher",
        ]
    }

    fn honours(&self, event: &RunEvent) -> &'static [Column] {
        protocol::honours(PROFILE.family_of(event))
    }
}

/// The PascalCase key of each event.
static KEYS: EventTable<&str> = EventTable {
    session_start: "SessionStart",
    session_end: "SessionEnd",
    subagent_start: "SubagentStart",
    subagent_stop: "SubagentStop",
    user_prompt_submit: "UserPromptSubmit",
    pre_tool_use: "PreToolUse",
    post_tool_use: "PostToolUse",
    permission_request: "PermissionRequest",
    pre_compact: "PreCompact",
    stop: "Stop",
    notification: "Notification",
    post_tool_use_failure: "PostToolUseFailure",
};

/// VS Code's payload: `timestamp` (ISO 8601), `cwd`, `sessionId`,
/// `hookEventName`, `transcript_path`, then the hooks protocol's
/// snake_case fields (`tool_name`, `tool_input`, `tool_use_id`,
/// `tool_response`, `prompt`, `stop_hook_active`, `trigger`, …);
/// SessionStart's `source` is `"new"`; Subagent events add `agent_id` and
/// `agent_type`.
fn payload(
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    input: &Map<String, Value>,
    tool_input: Option<&Value>,
) -> Map<String, Value> {
    let base = protocol::payload::payload(event, facts, input, tool_input);
    let mut p = Map::with_capacity(base.len() + 3);
    p.insert("timestamp".into(), Value::String(iso8601(epoch_millis())));
    p.insert("cwd".into(), Value::String(facts.cwd.to_owned()));
    p.insert("sessionId".into(), Value::String(facts.session_id.to_owned()));
    p.insert("hookEventName".into(), Value::String(event.name().to_owned()));
    p.insert("transcript_path".into(), base.get("transcript_path").cloned().unwrap_or(Value::Null));
    for (k, v) in base {
        match k.as_str() {
            "session_id" | "hook_event_name" | "cwd" | "transcript_path" => {}
            "source" if event.known() == Some(HookEvent::SessionStart) => {
                p.insert(k, Value::String("new".into()));
            }
            _ => {
                p.insert(k, v);
            }
        }
    }
    if matches!(event.known(), Some(HookEvent::SubagentStart | HookEvent::SubagentStop)) {
        let field = |a: &str, b: &str| input.get(a).or_else(|| input.get(b)).cloned().unwrap_or(Value::Null);
        let id = field("agent_id", "child_thread_id");
        let kind = field("agent_type", "agent_name");
        p.entry("agent_id").or_insert(id);
        p.entry("agent_type").or_insert(kind);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copilot_cli_keys_convert_by_their_first_letter() {
        assert_eq!(event_of("preToolUse"), Some(HookEvent::PreToolUse));
        assert_eq!(event_of("PreToolUse"), Some(HookEvent::PreToolUse));
        assert_eq!(event_of("subagentStop"), Some(HookEvent::SubagentStop));
        assert_eq!(event_of("agentStop"), None, "AgentStop is not a VS Code event");
        assert_eq!(event_of("userPromptSubmitted"), None);
        assert_eq!(event_of("SessionEnd"), None, "not one of the eight");
    }

    #[test]
    fn vscode_defaults_to_30_seconds_and_recognises_no_path() {
        assert_eq!(PROFILE.default_timeout, Duration::from_secs(30));
        assert!(!VSCODE.recognises_path(Path::new("/r/.github/hooks/a.json")));
    }
}
