//! `hookline explain`: for every configured hook of an event, whether it
//! would run and why — without running anything. Also the plan behind
//! `run`'s text summary (matched or not, for every configured hook).

use std::path::{Path, PathBuf};

use clap::Args;
use hookline::engine::{PlannedEntry, Verdict};
use hookline::LifecycleHookEngine;
use serde_json::{json, Value};

use crate::common::{self, CliResult, EngineSetup, EventName, Out, EXIT_OK};
use crate::ConfigArgs;

#[derive(Args)]
pub struct ExplainArgs {
    /// The event: PascalCase (`PreToolUse`) or snake_case (`pre_tool_use`);
    /// any other name fires that config key as a named event (`PostCompact`).
    pub event: String,
    #[command(flatten)]
    pub configs: ConfigArgs,
    /// The event input (JSON object): a file, or `-` for stdin. Default:
    /// stdin when it is not a terminal, else `{}`.
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

/// One configured hook of the event, as the library's planner sees it.
pub struct PlannedHook {
    pub file: PathBuf,
    /// The entry path, as in config errors: `hooks.PreToolUse[0].hooks[1]`.
    pub path: String,
    /// The handler type (`command`, `http`, `mcp_tool`, `prompt`, `agent`).
    pub kind: hookline::interpret::HookKind,
    /// What names the hook: the command, a URL, `server/tool`, a prompt's
    /// first words (with a `[type]` prefix for types other than `command`).
    pub command: String,
    pub matcher_raw: Option<String>,
    /// The matcher rule of the dialect, in words.
    pub rule: String,
    /// What the matcher was tested against, in words.
    pub subject: String,
    /// The hook's `if` condition (Claude permission-rule syntax), if written.
    pub if_condition: Option<String>,
    /// The `if` condition's verdict for the input.
    pub if_result: Option<bool>,
    /// Whether the matcher accepts the input.
    pub matcher_matched: bool,
    /// The tool call the hook was matched on and reads, in its agent's
    /// name and input (`None` on events without one).
    pub tool_name: Option<String>,
    pub tool_input: Option<Value>,
    /// The hook's dialect, for people (`Cursor`).
    pub dialect_title: &'static str,
    /// The dialect's own event the hook is configured under, when it runs
    /// as part of this one (`beforeShellExecution`).
    pub native_event: Option<&'static str>,
    /// What the planner decided.
    pub verdict: Verdict,
}

impl PlannedHook {
    /// Whether the hook runs for the input (waited for or in the background).
    pub fn matched(&self) -> bool {
        matches!(self.verdict, Verdict::Runs | Verdict::Background)
    }

    /// The tool call the hook was matched on and reads, in its agent's
    /// vocabulary: `Shell {"command":"ls","cwd":"/w"} (Cursor)`.
    pub fn call(&self) -> Option<String> {
        let name = self.tool_name.as_deref()?;
        let input = self.tool_input.as_ref().map(|i| format!(" {i}")).unwrap_or_default();
        Some(format!("{name}{input} ({}'s name and input)", self.dialect_title))
    }

    /// What the matcher was tested against and what it said; for a hook of
    /// another event of its dialect that does not run for this call, why
    /// it was not tested.
    pub fn tested(&self) -> String {
        match (self.verdict, self.native_event) {
            (Verdict::NotApplicable, Some(native)) => {
                format!("not tested: {} runs `{native}` hooks for other tool calls than this one", self.dialect_title)
            }
            _ => format!("{} -> {}", self.subject, if self.matcher_matched { "match" } else { "no match" }),
        }
    }
}

/// The configured hooks of `event`, in configuration order, as the engine
/// plans them for `input` (the library's own planner: matchers, `if`,
/// duplicates, `async`).
pub fn plan(engine: &LifecycleHookEngine, event: &EventName, input: &Value) -> Result<Vec<PlannedHook>, String> {
    let entries = engine.explain(event.display(), input).map_err(|e| e.message)?;
    Ok(entries
        .into_iter()
        .map(|e: PlannedEntry| {
            let subject = match (&e.subject, e.subject_field, event) {
                (Some(v), Some(field), _) => format!("{field} = {v:?}"),
                (Some(v), None, _) => format!("{v:?}"),
                (None, _, EventName::Named(n)) => format!("{n}: no matcher_value in the input, every group matches"),
                (None, _, EventName::Known(k)) => format!("{} ignores matchers in the {} dialect", k.name(), e.dialect),
            };
            PlannedHook {
                file: e.file.map(PathBuf::from).unwrap_or_default(),
                path: e.path,
                kind: e.kind,
                command: match e.kind {
                    hookline::interpret::HookKind::Command => e.label,
                    kind => format!("[{}] {}", kind.as_str(), e.label),
                },
                matcher_raw: e.matcher,
                rule: e.rule,
                subject,
                if_condition: e.condition,
                if_result: e.condition_holds,
                matcher_matched: e.matched,
                tool_name: e.tool_name,
                tool_input: e.tool_input,
                dialect_title: hookline::dialect::by_name(e.dialect).map_or(e.dialect, |d| d.title()),
                native_event: e.native_event,
                verdict: e.verdict,
            }
        })
        .collect())
}

/// The gate status of an engine over the configs, in words.
pub fn gate_status(engine: &hookline::LifecycleHookEngine, configs: &common::Configs) -> (bool, String) {
    if !engine.workspace_gated() {
        let why = if configs.discovered {
            "ungated: --trust-workspace runs the project's hooks without approval"
        } else {
            "ungated: configs given on the command line run without approval"
        };
        return (true, why.to_owned());
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
    let input = common::read_input(a.input.as_deref())?;
    let configs = common::load_config_args(&a.configs)?;
    let engine = common::build_engine(EngineSetup {
        workspace: a.configs.workspace.as_deref(),
        source: configs.source.clone(),
        gated: configs.gated(a.gated, a.configs.trust_workspace),
        trust_store: a.store.as_deref(),
        session_id: None,
        input: Some(&input),
    })?;
    let (gate_ok, gate_words) = gate_status(&engine, &configs);
    let hooks = plan(&engine, &event, &input)?;
    let event_words = match &event {
        EventName::Known(e) => e.name().to_owned(),
        EventName::Named(n) => n.clone(),
    };
    let native = |n: &str| hookline::dialect::ALL.iter().find(|d| d.native_event_keys().contains(&n));
    let named_note = match &event {
        EventName::Known(_) => None,
        EventName::Named(n) => Some(match native(n) {
            Some(d) => format!(
                "`{n}` is a {} event without a canonical meaning: it runs by name, with {}'s rules for it",
                d.title(),
                d.title()
            ),
            None => format!(
                "`{n}` is not one of the known events: it runs by name, with observer rules (its hooks \
                 never decide; the matcher is tested against the input's `matcher_value`)"
            ),
        }),
    };
    if a.format == ExplainFormat::Json {
        let list: Vec<Value> = hooks
            .iter()
            .map(|h| {
                json!({
                    "file": h.file.display().to_string(), "path": h.path, "type": h.kind, "command": h.command,
                    "matcher": h.matcher_raw, "rule": h.rule, "subject": h.subject,
                    "if": h.if_condition,
                    "if_result": h.if_result,
                    "tool_name": h.tool_name, "tool_input": h.tool_input,
                    "verdict": h.verdict,
                    "matched": h.matched(), "would_run": h.matched() && gate_ok,
                })
            })
            .collect();
        let loaded: Vec<Value> = configs
            .loaded
            .iter()
            .map(|l| {
                json!({"path": l.path.display().to_string(), "origin": l.origin,
                       "plugin_root": l.plugin_root.as_ref().map(|r| r.display().to_string())})
            })
            .collect();
        let doc = json!({"event": event_words, "configs": loaded, "gate": gate_words, "approved": gate_ok,
                         "note": named_note, "hooks": list});
        out.line(&serde_json::to_string_pretty(&doc).unwrap_or_default());
        return Ok(EXIT_OK);
    }
    let running = hooks.iter().filter(|h| h.matched() && gate_ok).count();
    if !out.quiet {
        out.line(&configs.describe());
    }
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
        let verdict = if !h.matched() {
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
        if let Some(call) = h.call() {
            out.line(&format!("       call:    {call}"));
        }
        out.line(&format!("       tested:  {}", h.tested()));
        if let (Some(c), Some(b)) = (&h.if_condition, h.if_result) {
            out.line(&format!("       if:      {c} -> {}", if b { "true" } else { "false" }));
        }
        match h.verdict {
            Verdict::Duplicate => out.line("       skipped: an identical hook already runs for this event"),
            Verdict::Background => out.line("       async: runs in the background, the run does not wait for it"),
            Verdict::Unsupported => out
                .line(&format!("       skipped: this dialect does not run {} hooks on {event_words}", h.kind.as_str())),
            _ => {}
        }
    }
    Ok(EXIT_OK)
}

pub fn display(p: &Path) -> String {
    p.display().to_string()
}
