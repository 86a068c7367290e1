//! `hookline run`: fire one event through the configs and print the outcome.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
use hookline::HookEvent;
use serde_json::{json, Map, Value};

use crate::common::{self, CliResult, EngineSetup, EventName, Out, Verdict, EXIT_BLOCKED, EXIT_OK};
use crate::explain::{self, PlannedHook};
use crate::trace;
use crate::{ConfigArgs, Format, OnError};
use hookline::dialect::BlockingAnswer;
use hookline::engine::Verdict as Planned;
use hookline::RunEvent;

#[derive(Args)]
pub struct RunArgs {
    /// The event: PascalCase (`PreToolUse`) or snake_case (`pre_tool_use`);
    /// any other name fires that config key as a named event (`PostCompact`).
    pub event: String,
    #[command(flatten)]
    pub configs: ConfigArgs,
    /// The event input (JSON object): a file, or `-` for stdin (a Claude Code
    /// hook payload works as it is). Default: stdin when it is not a
    /// terminal, else `{}`.
    #[arg(long, short, value_name = "FILE|-")]
    pub input: Option<PathBuf>,
    /// Output: `text` on a terminal, `json` otherwise, unless given.
    #[arg(long, short, value_enum)]
    pub format: Option<Format>,
    /// Gate the configs behind workspace approval, as a host does for a
    /// repository's own hooks (default: ungated, they are your choice).
    #[arg(long)]
    pub gated: bool,
    /// The trust store consulted with --gated (default: the library's).
    #[arg(long, value_name = "FILE")]
    pub store: Option<PathBuf>,
    /// The session id hooks see (default: the input's `session_id`, else
    /// `hookline-cli`).
    #[arg(long, value_name = "ID")]
    pub session_id: Option<String>,
    /// Print a timeline of the run on stderr: one line per hook with its
    /// start offset, duration and result (the outcome stays on stdout).
    #[arg(long)]
    pub trace: bool,
    /// With an agent's --format: what hookline's own errors (a config it
    /// cannot read or that is invalid, input it cannot parse, an internal
    /// error) answer. `block`: the agent's blocking answer on events that
    /// can block (fail closed); `allow`: exit 1, the agent's non-blocking
    /// error.
    #[arg(long, value_enum, value_name = "block|allow", default_value = "block")]
    pub on_error: OnError,
}

/// `run`: with an agent's `--format` and `--on-error block` (the default),
/// hookline's own errors — and a panic — answer with that agent's blocking
/// answer on events that can block, so that a guard never fails open
/// because hookline could not run it.
pub fn main(out: &Out, a: RunArgs) -> CliResult {
    let Some(agent) = a.format.and_then(Format::agent).filter(|_| a.on_error == OnError::Block) else {
        return run(out, &a);
    };
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(out, &a)));
    std::panic::set_hook(previous);
    let message = match result {
        Ok(Ok(code)) => return Ok(code),
        Ok(Err(message)) => message,
        Err(panic) => {
            let text = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned());
            format!("internal error: {text}")
        }
    };
    let event = EventName::parse(&a.event).ok().map(|e| match e {
        EventName::Known(k) => RunEvent::Known(k),
        EventName::Named(n) => RunEvent::Named(n.into()),
    });
    let reason =
        format!("hookline could not run the hooks, so it blocks (--on-error allow lets the action proceed): {message}");
    match event.and_then(|e| agent.blocking_answer(&e, &reason)) {
        Some(answer) => {
            print_answer(out, &answer);
            Ok(answer.exit_code)
        }
        // An event the agent lets no hook block: its non-blocking error.
        None => Err(message),
    }
}

/// A usage error of `hookline run --format <agent>` (a misspelt option in
/// the hook's command line): the guard must not fail open because hookline
/// could not read its own arguments. With an agent's format and `--on-error`
/// not `allow`, the event given answers with the agent's blocking answer
/// (`Some(its exit status)`); when the event cannot be told, exit 2 with the
/// error on stderr (the blocking status of most agents); on an event the
/// agent lets no hook block, `None` (the caller's exit 1). `None` too for any
/// other command line.
pub fn usage_error_answer(args: &[String], error: &str) -> Option<u8> {
    let mut words = args.iter().map(String::as_str).skip_while(|w| w.starts_with('-'));
    if words.next() != Some("run") {
        return None;
    }
    let rest: Vec<&str> = words.collect();
    let value_of = |long: &str, short: Option<&str>| {
        rest.iter().enumerate().find_map(|(i, w)| {
            if let Some(v) = w.strip_prefix(long).and_then(|v| v.strip_prefix('=')) {
                return Some(v);
            }
            (*w == long || Some(*w) == short).then(|| rest.get(i + 1).copied()).flatten()
        })
    };
    let agent = value_of("--format", Some("-f"))
        .and_then(|v| <Format as clap::ValueEnum>::from_str(v, true).ok())
        .and_then(Format::agent)?;
    if value_of("--on-error", None).is_some_and(|v| v.eq_ignore_ascii_case("allow")) {
        return None;
    }
    let error = error.lines().next().unwrap_or(error).trim_start_matches("error: ");
    let reason = format!(
        "hookline could not run the hooks, so it blocks (--on-error allow lets the action proceed): \
         invalid command line: {error}"
    );
    let event = rest.iter().find_map(|w| match EventName::parse(w).ok()? {
        EventName::Known(k) => Some(RunEvent::Known(k)),
        // Only an event the agent names itself (not an option's value).
        EventName::Named(n) => agent.native_event_keys().contains(&n.as_str()).then(|| RunEvent::Named(n.into())),
    });
    let Some(event) = event else {
        eprintln!("{reason}");
        return Some(2);
    };
    let answer = agent.blocking_answer(&event, &reason)?;
    print_answer(&Out::new(false), &answer);
    Some(answer.exit_code)
}

/// Write a command hook's answer.
fn print_answer(out: &Out, answer: &BlockingAnswer) {
    if let Some(text) = &answer.stdout {
        out.line(text);
    }
    if let Some(text) = &answer.stderr {
        eprintln!("{text}");
    }
}

fn run(out: &Out, a: &RunArgs) -> CliResult {
    let event_name = EventName::parse(&a.event)?;
    let input = common::read_input(a.input.as_deref())?;
    let configs = common::load_config_args(&a.configs)?;
    let engine = common::build_engine(EngineSetup {
        workspace: a.configs.workspace.as_deref(),
        source: configs.source.clone(),
        gated: configs.gated(a.gated, a.configs.trust_workspace),
        trust_store: a.store.as_deref(),
        session_id: a.session_id.as_deref(),
        input: Some(&input),
    })?;
    let timeline = if a.trace { Some(trace::Timeline::install(&engine)?) } else { None };
    let text = common::fire(&engine, &event_name, &input)?;
    let outcome: Value = serde_json::from_str(&text).map_err(|e| format!("the engine returned invalid JSON: {e}"))?;
    let v = common::verdict(&outcome);
    let format = a.format.unwrap_or(if std::io::stdout().is_terminal() { Format::Text } else { Format::Json });
    // Entries a host skips are skipped here too, and said so on stderr — in
    // the text format only: in the others stderr carries the block reason.
    if format == Format::Text {
        for w in engine.config_warnings() {
            out.warning(&common::located(&w.path, &w.message));
        }
    }
    // The project's own hooks wait for approval, as in a host: said so (in
    // an agent's format stderr carries the block reason only).
    if matches!(format, Format::Text | Format::Json) {
        if let Some(w) = configs.not_approved_warning(&engine) {
            out.warning(&w);
        }
    }
    let planned = if (format == Format::Text && !out.quiet) || timeline.is_some() {
        Some(explain::plan(&engine, &event_name, &input)?)
    } else {
        None
    };
    if let Some(t) = timeline {
        // A run has a span when a hook ran or an async hook started.
        let ran = outcome.get("hooks").and_then(Value::as_array).is_some_and(|h| !h.is_empty())
            || planned.iter().flatten().any(|h| h.verdict == Planned::Background);
        t.print(out, ran);
    }
    match format {
        Format::Json => {
            if !out.quiet {
                out.line(&text);
            }
        }
        Format::Text => {
            if let (false, Some(planned)) = (out.quiet, &planned) {
                out.line(&configs.describe());
                print_summary(out, event_name.display(), planned, &outcome, &v);
            }
        }
        Format::Codex
        | Format::Gemini
        | Format::Cursor
        | Format::Copilot
        | Format::Vscode
        | Format::Qwen
        | Format::Augment
        | Format::Vtcode => {
            if v.stopped_only {
                let mut reply = Map::new();
                reply.insert("continue".into(), json!(false));
                if let Some(r) = &v.reason {
                    reply.insert("stopReason".into(), json!(r));
                }
                out.line(&Value::Object(reply).to_string());
                return Ok(EXIT_OK);
            }
        }
        Format::Kiro => {
            // Kiro adds a successful hook's plain stdout to the context on
            // SessionStart and UserPromptSubmit; it reads no JSON.
            let context_event =
                matches!(event_name.known(), Some(HookEvent::SessionStart | HookEvent::UserPromptSubmit));
            let ctx = common::contexts(&outcome);
            if !v.blocked && context_event && !ctx.is_empty() {
                out.line(&ctx.join("\n"));
            }
        }
        Format::Crush => {
            // "Exit 49 halts the whole turn. Stderr becomes the halt
            // reason."; a deny is exit 2 (below); otherwise the envelope.
            if outcome.get("continue").and_then(Value::as_bool) == Some(false) {
                let reason = outcome
                    .get("stop_reason")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .or_else(|| v.reason.clone())
                    .unwrap_or_else(|| format!("{} halted by hookline", event_name.display()));
                eprintln!("{reason}");
                return Ok(CRUSH_HALT);
            }
            if !v.blocked {
                let reply = crush_reply(&outcome, &v);
                if !reply.is_empty() {
                    out.line(&Value::Object(reply).to_string());
                }
            }
        }
        Format::Openhands => {
            // OpenHands reads a top-level JSON object on stdout: its
            // `continue: false` blocks the action (it never halts the
            // agent), its `additionalContext` is added to a prompt.
            if v.stopped_only {
                let mut reply = Map::new();
                reply.insert("continue".into(), json!(false));
                if let Some(r) = &v.reason {
                    reply.insert("reason".into(), json!(r));
                }
                out.line(&Value::Object(reply).to_string());
                return Ok(EXIT_OK);
            }
            let ctx = common::contexts(&outcome);
            if !v.blocked && event_name.known() == Some(HookEvent::UserPromptSubmit) && !ctx.is_empty() {
                out.line(&json!({ "additionalContext": ctx.join("\n") }).to_string());
            }
        }
        Format::Goose => {
            // goose reads exit 0 with empty stdout as "no objection", and any
            // other stdout as a hook that gave no decision: nothing to print.
        }
        Format::Windsurf => {
            // Cascade reads the exit code alone (stderr as a block's
            // reason): what it cannot express is said dropped on stderr.
            let (dropped, proceeds) = windsurf_dropped(&event_name, &outcome, &v);
            if !dropped.is_empty() {
                eprintln!("hookline: Cascade cannot express {}; dropped", dropped.join(", "));
            }
            if proceeds {
                return Ok(EXIT_OK);
            }
        }
        Format::Claude => {
            let mut reply = claude_reply(&event_name, &outcome, &v);
            if v.stopped_only {
                // Claude Code's own way to stop: `continue: false` + `stopReason`, exit 0.
                reply.insert("continue".into(), json!(false));
                if let Some(r) = &v.reason {
                    reply.insert("stopReason".into(), json!(r));
                }
                out.line(&Value::Object(reply).to_string());
                return Ok(EXIT_OK);
            }
            if !reply.is_empty() && !v.blocked {
                out.line(&Value::Object(reply).to_string());
            }
        }
    }
    if v.blocked {
        let reason = v.reason.clone().unwrap_or_else(|| format!("{} blocked by hookline", event_name.display()));
        // Another agent's format: that agent's blocking answer.
        let event = match &event_name {
            EventName::Known(k) => RunEvent::Known(*k),
            EventName::Named(n) => RunEvent::Named(n.as_str().into()),
        };
        let agent = format.agent().filter(|_| format != Format::Claude);
        if let Some(answer) = agent.and_then(|d| d.blocking_answer(&event, &reason)) {
            print_answer(out, &answer);
            return Ok(answer.exit_code);
        }
        // Claude Code (and any host of the hooks protocol) reads exit 2 plus
        // stderr as the deny / block reason.
        eprintln!("{reason}");
        return Ok(EXIT_BLOCKED);
    }
    Ok(EXIT_OK)
}

/// Crush's exit code that halts the turn.
const CRUSH_HALT: u8 = 49;

/// Crush's output envelope for an outcome that neither denied nor halted:
/// `decision: "allow"` (Crush has no `ask`: without a decision its own
/// permission prompt asks), the context, and the rewrite as
/// `updated_input` (Crush merges it over the call's input).
fn crush_reply(outcome: &Value, v: &Verdict) -> Map<String, Value> {
    let mut reply = Map::new();
    if v.decision == "allow" {
        reply.insert("decision".into(), json!("allow"));
    }
    let ctx = common::contexts(outcome);
    if !ctx.is_empty() {
        reply.insert("context".into(), json!(ctx));
    }
    if let Some(input) = outcome.get("updated_input").filter(|u| u.is_object()) {
        reply.insert("updated_input".into(), input.clone());
    }
    reply
}

/// What an outcome says that a Cascade hook cannot (it has exit 2 on a
/// `pre_*` event and nothing else): an allow or ask, a rewrite, context, a
/// stop, a block where exit 2 does not block.
/// Also whether the outcome blocks where Cascade cannot block (the action
/// then proceeds: exit 0).
fn windsurf_dropped(event_name: &EventName, outcome: &Value, v: &Verdict) -> (Vec<&'static str>, bool) {
    let mut dropped = Vec::new();
    match v.decision.as_str() {
        "allow" => dropped.push("allow"),
        "ask" => dropped.push("ask"),
        "defer" => dropped.push("defer"),
        _ => {}
    }
    if outcome.get("updated_input").is_some_and(|u| !u.is_null()) {
        dropped.push("updated_input");
    }
    if !common::contexts(outcome).is_empty() {
        dropped.push("additional_context");
    }
    let event = match event_name {
        EventName::Known(k) => RunEvent::Known(*k),
        EventName::Named(n) => RunEvent::Named(n.as_str().into()),
    };
    let can_block = hookline::dialect::WINDSURF.blocking_answer(&event, "").is_some();
    // A stop where Cascade can block blocks the action (fail closed), and
    // says the stop itself was dropped.
    if v.stopped_only {
        dropped.push("continue");
    } else if v.blocked && !can_block {
        dropped.push("block");
    }
    (dropped, v.blocked && !can_block)
}

/// Hook output in the Claude Code protocol for an outcome that did not block
/// (a block is exit 2 + stderr): the decision, updated input, context and
/// messages (joined into `systemMessage`).
pub fn claude_reply(event_name: &EventName, outcome: &Value, v: &Verdict) -> Map<String, Value> {
    let event = event_name.known();
    let mut top = Map::new();
    let mut specific = Map::new();
    specific.insert("hookEventName".into(), json!(event_name.display()));
    let ctx = common::contexts(outcome);
    match event {
        Some(HookEvent::PreToolUse) => {
            if matches!(v.decision.as_str(), "allow" | "ask" | "deny" | "defer") {
                specific.insert("permissionDecision".into(), json!(v.decision));
                if let Some(r) = &v.reason {
                    specific.insert("permissionDecisionReason".into(), json!(r));
                }
            }
            if let Some(u) = outcome.get("updated_input").filter(|u| !u.is_null()) {
                specific.insert("updatedInput".into(), u.clone());
            }
        }
        Some(HookEvent::PermissionRequest) => {
            if let Some(Value::Object(d)) = outcome.get("decision") {
                let mut dec = Map::new();
                if let Some(b) = d.get("behavior") {
                    dec.insert("behavior".into(), b.clone());
                }
                if let Some(u) = d.get("updated_input").filter(|u| !u.is_null()) {
                    dec.insert("updatedInput".into(), u.clone());
                }
                if let Some(Value::Array(p)) = d.get("permission_updates") {
                    if !p.is_empty() {
                        dec.insert("updatedPermissions".into(), Value::Array(p.clone()));
                    }
                }
                if let Some(m) = d.get("message").filter(|m| !m.is_null()) {
                    dec.insert("message".into(), m.clone());
                }
                if d.get("interrupt").and_then(Value::as_bool) == Some(true) {
                    dec.insert("interrupt".into(), json!(true));
                }
                specific.insert("decision".into(), Value::Object(dec));
            }
        }
        _ => {}
    }
    if !ctx.is_empty()
        && matches!(
            event,
            Some(
                HookEvent::PreToolUse
                    | HookEvent::SessionStart
                    | HookEvent::UserPromptSubmit
                    | HookEvent::PostToolUse
                    | HookEvent::PostToolUseFailure
            )
        )
    {
        specific.insert("additionalContext".into(), json!(ctx.join("\n")));
    }
    if specific.len() > 1 {
        top.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    let messages: Vec<String> = outcome
        .get("messages")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|m| m.get("text").and_then(Value::as_str)).map(str::to_owned).collect())
        .unwrap_or_default();
    if !messages.is_empty() {
        top.insert("systemMessage".into(), json!(messages.join("\n")));
    }
    top
}

fn num(v: &Value, k: &str) -> Option<f64> {
    v.get(k).and_then(Value::as_f64)
}

/// The text summary: every configured hook of the event (matched or not),
/// then the decision, reason, context and messages.
fn print_summary(out: &Out, event: &str, planned: &[PlannedHook], outcome: &Value, v: &Verdict) {
    let reports: Vec<&Value> =
        outcome.get("hooks").and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default();
    let mut next = 0usize;
    let head = if v.blocked { out.red(&v.decision.to_uppercase()) } else { out.green(&v.decision) };
    out.line(&format!("{} {}", out.bold(event), head));
    for h in planned {
        let loc = out.dim(&format!("({}:{})", explain::display(&h.file), h.path));
        if !h.matched() {
            let (label, why) = match (h.verdict, &h.if_condition) {
                (Planned::ConditionFalse, Some(c)) => ("no match ", format!("`if` {c} is false for this tool call")),
                (Planned::Duplicate, _) => ("duplicate", "an identical hook already runs for this event".to_owned()),
                (Planned::Unsupported, _) => {
                    // It still has a report (skipped): step over it.
                    if reports
                        .get(next)
                        .is_some_and(|r| r.get("skipped").and_then(Value::as_str) == Some("unsupported_on_event"))
                    {
                        next += 1;
                    }
                    ("skipped  ", format!("{} hooks do not run on {event} in this dialect", h.kind.as_str()))
                }
                (Planned::NotApplicable, _) => ("not run  ", h.tested()),
                _ => (
                    "no match ",
                    format!(
                        "{}; tested {}{}",
                        h.rule,
                        h.subject,
                        h.call().map(|c| format!("; the call: {c}")).unwrap_or_default()
                    ),
                ),
            };
            out.line(&format!("  {} {}  {}", out.dim(label), h.command, loc));
            out.line(&format!("             {}", out.dim(&why)));
            continue;
        }
        if h.verdict == Planned::Background {
            out.line(&format!("  {} {}  {}", out.dim("async    "), h.command, loc));
            out.line(&format!("             {}", out.dim("started in the background; the run does not wait for it")));
            continue;
        }
        // Reports are in configuration order, one per hook that ran or was
        // skipped, up to where an early stop ended the run.
        let kind = serde_json::to_value(h.kind).unwrap_or_default();
        let found = reports.get(next).filter(|r| r.get("kind") == Some(&kind)).map(|_| next);
        let Some(idx) = found else {
            out.line(&format!("  {} {}  {}", out.dim("not run  "), h.command, loc));
            out.line(&format!("             {}", out.dim("matched, but an earlier hook decided (or it was filtered)")));
            continue;
        };
        next = idx + 1;
        let r = reports[idx];
        let mut facts = Vec::new();
        let skipped = r.get("skipped").and_then(Value::as_str);
        if let Some(s) = skipped {
            facts.push(format!("skipped: {s}"));
        } else {
            match (
                r.get("exit_code").and_then(Value::as_i64),
                r.get("signal").and_then(Value::as_i64),
                r.get("status").and_then(Value::as_u64),
            ) {
                (Some(c), _, _) => facts.push(format!("exit {c}")),
                (None, Some(s), _) => facts.push(format!("signal {s}")),
                (None, None, Some(status)) => facts.push(format!("HTTP {status}")),
                (None, None, None) => {}
            }
            if r.get("timed_out").and_then(Value::as_bool) == Some(true) {
                facts.push("timed out".into());
            }
            if let Some(ms) = num(r, "duration_ms") {
                facts.push(format!("{ms:.1} ms"));
            }
        }
        if let Some(f) = r.get("failure").and_then(Value::as_str) {
            facts.push(format!("failure: {f}"));
        }
        for s in ["stdout_truncated", "stderr_truncated"] {
            if r.get(s).and_then(Value::as_bool) == Some(true) {
                facts.push(s.replace('_', " "));
            }
        }
        let ok = skipped.is_none()
            && r.get("exit_code").and_then(Value::as_i64).is_none_or(|c| c == 0)
            && r.get("signal").is_none_or(Value::is_null)
            && r.get("timed_out").and_then(Value::as_bool) != Some(true)
            && r.get("failure").is_none_or(Value::is_null);
        let label = if ok { out.green("ran      ") } else { out.yellow("ran      ") };
        out.line(&format!("  {label} {}  {}", h.command, loc));
        out.line(&format!("             {}", facts.join(", ")));
    }
    if planned.is_empty() {
        out.line(&format!("  {}", out.dim("no hooks configured for this event")));
    }
    out.line(&format!("decision: {}", v.decision));
    if let Some(r) = &v.reason {
        out.line(&format!("reason:   {r}"));
    }
    for c in common::contexts(outcome) {
        out.line(&format!("context:  {c}"));
    }
    if let Some(u) = outcome.get("updated_input").filter(|u| !u.is_null()) {
        out.line(&format!("updated input: {u}"));
    }
    if let Some(Value::Object(env)) = outcome.get("env") {
        for (k, val) in env {
            out.line(&format!("env:      {k}={}", val.as_str().unwrap_or_default()));
        }
    }
    if let Some(msgs) = outcome.get("messages").and_then(Value::as_array) {
        for m in msgs {
            let level = m.get("level").and_then(Value::as_str).unwrap_or("info");
            let text = m.get("text").and_then(Value::as_str).unwrap_or("");
            let label = match level {
                "error" => out.red(level),
                "warning" => out.yellow(level),
                _ => level.to_owned(),
            };
            out.line(&format!("{label}: {text}"));
        }
    }
}
