//! `hookline explain`: for every configured hook of an event, whether it
//! would run and why — without running anything. Also the plan behind
//! `run`'s text summary (matched or not, for every configured hook).

use std::path::{Path, PathBuf};

use clap::Args;
use hookline::config::Dialect;
use hookline::matcher::{match_subject, Matcher};
use hookline::HookEvent;
use serde_json::{json, Value};

use crate::common::{self, dialect_name, event_map, CliResult, ConfigFile, EngineSetup, EventName, Out, EXIT_OK};
use crate::ConfigArgs;

#[derive(Args)]
pub struct ExplainArgs {
    /// The event: PascalCase (`PreToolUse`) or snake_case (`pre_tool_use`);
    /// any other name fires that config key as a named event (`PostCompact`).
    pub event: String,
    #[command(flatten)]
    pub configs: ConfigArgs,
    /// The event input (JSON object): a file, or `-` for stdin.
    #[arg(long, short, value_name = "FILE|-")]
    pub input: Option<PathBuf>,
    /// Explain as a gated (workspace-approval) engine would run.
    #[arg(long)]
    pub gated: bool,
    /// The trust store consulted with --gated (default: the library's).
    #[arg(long, value_name = "FILE")]
    pub store: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ExplainFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplainFormat {
    Text,
    Json,
}

/// One configured hook of the event, and whether its matcher accepts the input.
pub struct PlannedHook {
    pub file: PathBuf,
    /// The entry path, as in config errors: `hooks.PreToolUse[0].hooks[1]`.
    pub path: String,
    pub command: String,
    pub matcher_raw: Option<String>,
    /// The matcher rule of the dialect, in words.
    pub rule: String,
    /// What the matcher was tested against, in words.
    pub subject: String,
    /// The hook's `if` condition (Claude permission-rule syntax), if written.
    pub if_condition: Option<String>,
    /// The `if` condition's verdict for the input (Claude dialect), or why
    /// it cannot be evaluated.
    pub if_result: Option<Result<bool, String>>,
    /// Whether the matcher accepts the input.
    pub matcher_matched: bool,
    /// Whether the hook would run for the input (matcher, then `if`).
    pub matched: bool,
}

/// The config keys an event is written under in a dialect (VT Code `stop`
/// also reads its aliases, in order).
fn keys_of(event: &EventName, dialect: Dialect) -> Vec<String> {
    match (event, dialect) {
        (EventName::Known(e), Dialect::Claude) => vec![e.name().to_owned()],
        (EventName::Known(HookEvent::Stop), Dialect::VtCode) => {
            vec!["stop".into(), "task_completion".into(), "task_completed".into()]
        }
        (EventName::Known(e), Dialect::VtCode) => vec![e.key().to_owned()],
        (EventName::Named(n), _) => vec![n.clone()],
    }
}

pub fn describe_rule(m: &Matcher, dialect: Dialect, raw: Option<&str>) -> String {
    match m {
        Matcher::All => match raw {
            None => "no matcher: matches everything".to_owned(),
            Some(r) => format!("matcher {r:?}: matches everything"),
        },
        Matcher::Names(names) => format!(
            "{} exact tool name{} {}",
            dialect_name(dialect),
            if names.len() == 1 { "" } else { "s" },
            names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(" | ")
        ),
        Matcher::Regex(re) => match dialect {
            Dialect::VtCode => format!("VT Code regex, anchored: {}", re.as_str()),
            Dialect::Claude => format!("Claude Code regex, unanchored: {}", re.as_str()),
        },
    }
}

/// The configured hooks of `event` in the files, in configuration order,
/// with their matcher verdict for `input`.
pub fn plan(files: &[ConfigFile], event: &EventName, input: &Value, workspace: &Path) -> Vec<PlannedHook> {
    let mut out = Vec::new();
    let trigger = input.get("source").and_then(Value::as_str).unwrap_or("startup");
    for f in files {
        let dialect = f.config.dialect();
        let Some(events) = event_map(&f.raw, dialect) else { continue };
        let (subject, subject_words): (Option<String>, String) = match event {
            EventName::Known(e) => {
                let s = match_subject(*e, dialect, input, trigger).map(str::to_owned);
                let field = subject_field(*e, dialect);
                let words = match &s {
                    None => format!("{} ignores matchers in the {} dialect", e.name(), dialect_name(dialect)),
                    Some(v) => format!("{field} = {v:?}"),
                };
                (s, words)
            }
            EventName::Named(n) => match input.get("matcher_value").and_then(Value::as_str) {
                Some(v) => (Some(v.to_owned()), format!("matcher_value = {v:?}")),
                None => (None, format!("{n}: no matcher_value in the input, every group matches")),
            },
        };
        for key in keys_of(event, dialect) {
            let Some(Value::Array(groups)) = events.get(&key) else { continue };
            for (i, g) in groups.iter().enumerate() {
                let matcher_raw = g.get("matcher").and_then(Value::as_str).map(str::to_owned);
                let (matched, rule) = match Matcher::for_dialect(dialect, matcher_raw.as_deref()) {
                    Ok(m) => {
                        (m.matches_subject(subject.as_deref()), describe_rule(&m, dialect, matcher_raw.as_deref()))
                    }
                    Err(e) => (false, format!("invalid matcher: {e}")),
                };
                let Some(Value::Array(hooks)) = g.get("hooks") else { continue };
                for (j, h) in hooks.iter().enumerate() {
                    let if_condition = h.get("if").and_then(Value::as_str).map(str::to_owned);
                    // The `if` condition (Claude dialect): the library's rule, tested against
                    // the tool call as the engine does before spawning.
                    let if_result = match (&if_condition, dialect) {
                        (Some(c), Dialect::Claude) => Some(match hookline::rule::Rule::parse(c) {
                            Ok(rule) => Ok(rule.matches(
                                input.get("tool_name").and_then(Value::as_str),
                                input.get("tool_input"),
                                workspace,
                            )),
                            Err(e) => Err(e),
                        }),
                        _ => None,
                    };
                    let passes_if = !matches!(if_result, Some(Ok(false)) | Some(Err(_)));
                    out.push(PlannedHook {
                        file: f.path.clone(),
                        path: format!("hooks.{key}[{i}].hooks[{j}]"),
                        command: h.get("command").and_then(Value::as_str).unwrap_or("").to_owned(),
                        matcher_raw: matcher_raw.clone(),
                        rule: rule.clone(),
                        subject: subject_words.clone(),
                        if_condition,
                        if_result,
                        matcher_matched: matched,
                        matched: matched && passes_if,
                    });
                }
            }
        }
    }
    out
}

/// The input field (or value) an event's matcher is tested against.
fn subject_field(e: HookEvent, dialect: Dialect) -> &'static str {
    match e {
        HookEvent::SessionStart => "trigger (input `source`, default startup)",
        HookEvent::SessionEnd => "reason",
        HookEvent::SubagentStart | HookEvent::SubagentStop => "agent_name",
        HookEvent::UserPromptSubmit => "prompt",
        HookEvent::PreCompact => "trigger",
        HookEvent::Stop => match dialect {
            Dialect::VtCode => "the literal",
            Dialect::Claude => "",
        },
        HookEvent::Notification => "notification_type",
        _ => "tool_name",
    }
}

/// The gate status of an engine over the configs, in words.
pub fn gate_status(engine: &hookline::LifecycleHookEngine) -> (bool, String) {
    if !engine.workspace_gated() {
        return (true, "ungated: configs given on the command line run without approval".to_owned());
    }
    if engine.workspace_hooks_need_approval() {
        (
            false,
            format!(
                "gated: NOT approved (digest {}); the commands would be skipped (`hookline trust approve`)",
                engine.command_digest()
            ),
        )
    } else {
        (true, format!("gated: approved (digest {})", engine.command_digest()))
    }
}

pub fn main(out: &Out, a: ExplainArgs) -> CliResult {
    let event = EventName::parse(&a.event)?;
    if a.configs.configs.is_empty() {
        return Err("explain needs at least one --config FILE".into());
    }
    let input = common::read_input(a.input.as_deref())?;
    let configs = common::load_configs(&a.configs.configs)?;
    let engine = common::build_engine(EngineSetup {
        workspace: a.configs.workspace.as_deref(),
        source: configs.source.clone(),
        gated: a.gated,
        trust_store: a.store.as_deref(),
        session_id: None,
        input: Some(&input),
    })?;
    let (gate_ok, gate_words) = gate_status(&engine);
    let ws = common::workspace_or_cwd(a.configs.workspace.as_deref())?;
    let ws = std::fs::canonicalize(&ws).unwrap_or(ws);
    let hooks = plan(&configs.files, &event, &input, &ws);
    let event_words = match &event {
        EventName::Known(e) => e.name().to_owned(),
        EventName::Named(n) => n.clone(),
    };
    let named_note = match &event {
        EventName::Known(_) => None,
        EventName::Named(n) => Some(format!(
            "`{n}` is not one of the known events: it runs by name, with observer rules (its hooks \
             never decide; the matcher is tested against the input's `matcher_value`)"
        )),
    };
    if a.format == ExplainFormat::Json {
        let list: Vec<Value> = hooks
            .iter()
            .map(|h| {
                json!({
                    "file": h.file.display().to_string(), "path": h.path, "command": h.command,
                    "matcher": h.matcher_raw, "rule": h.rule, "subject": h.subject,
                    "if": h.if_condition,
                    "if_result": h.if_result.as_ref().map(|r| r.clone().map_or_else(Value::from, Value::from)),
                    "matched": h.matched, "would_run": h.matched && gate_ok,
                })
            })
            .collect();
        let doc = json!({"event": event_words, "gate": gate_words, "approved": gate_ok,
                         "note": named_note, "hooks": list});
        out.line(&serde_json::to_string_pretty(&doc).unwrap_or_default());
        return Ok(EXIT_OK);
    }
    let running = hooks.iter().filter(|h| h.matched && gate_ok).count();
    out.line(&format!(
        "{}: {} configured hook{}, {} would run",
        out.bold(&event_words),
        hooks.len(),
        if hooks.len() == 1 { "" } else { "s" },
        running
    ));
    if !out.quiet {
        out.line(&format!("  {}", gate_words));
        if let Some(n) = &named_note {
            out.line(&format!("  note: {n}"));
        }
    }
    for h in &hooks {
        let verdict = if !h.matched {
            out.dim("skip")
        } else if gate_ok {
            out.green("RUN ")
        } else {
            out.yellow("GATE")
        };
        out.line(&format!("{verdict} {}  {}", h.command, out.dim(&format!("{}:{}", display(&h.file), h.path))));
        if out.quiet {
            continue;
        }
        out.line(&format!("       matcher: {}", h.rule));
        out.line(&format!("       tested:  {} -> {}", h.subject, if h.matcher_matched { "match" } else { "no match" }));
        match (&h.if_condition, &h.if_result) {
            (Some(c), Some(Ok(b))) => {
                out.line(&format!("       if:      {c} -> {}", if *b { "true" } else { "false" }))
            }
            (Some(c), Some(Err(e))) => out.line(&format!("       if:      {c} -> invalid: {e}")),
            (Some(c), None) => out.line(&format!("       if:      {c} (ignored in the VT Code dialect)")),
            _ => {}
        }
    }
    Ok(EXIT_OK)
}

pub fn display(p: &Path) -> String {
    p.display().to_string()
}
