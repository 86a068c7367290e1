//! Reading one Copilot CLI hook's result into the canonical reply.
//!
//! **stdout.** Every line that is, on its own, a JSON object with `"type":
//! "progress"` is a progress message (an info message, unless it is
//! `"temporary": true`) and is removed; what remains is trimmed and parsed
//! as one JSON document. Empty output, output that does not parse, or JSON
//! that is not an object is *no output*, silently (no message, not a
//! failure). Plain text is never context. Fields are read at the top level
//! (PascalCase PreToolUse entries read `hookSpecificOutput` first); unknown
//! fields are ignored.
//!
//! **Exit codes** (the row's `exit2` column decides exit 2):
//!
//! | hook result | effect |
//! |---|---|
//! | exit 0 | stdout read |
//! | exit 2, `Warning` (most events) | a warning with stderr; stdout still read; not a failure |
//! | exit 2, `Block` (PreToolUse) | **deny**, whatever stdout said; its other fields (rewrite, context) and its reason are still read, else stderr is the reason |
//! | exit 2, `Block` (PermissionRequest) | **deny**; stdout's `message`/`interrupt` are merged in; stderr is ignored |
//! | exit 2, `Context` (PostToolUseFailure) | the hook's output is context for the model: stdout's `additionalContext`, else stdout's text, else stderr |
//! | other non-zero exit, signal, lost status | a warning; a failure (PreToolUse: **deny**, fail closed — `on_failure` — with Copilot CLI's reason `Denied by preToolUse hook (hook errored)`); stdout is not read |
//! | timeout | a warning; a failure that decides nothing (fail open, PreToolUse too) |
//!
//! **Fields** per event: PreToolUse `permissionDecision` (`allow`, `deny`,
//! `ask`), `permissionDecisionReason` (a deny without one, exit 2's
//! included: `No reason provided`), `modifiedArgs` (an object, or a
//! string holding one: the rewrite), `additionalContext`; PostToolUse
//! `additionalContext`, `modifiedResult` (dialect field), `decision:
//! "block"` + `reason` (feedback; the sequential run stops there);
//! PostToolUseFailure `additionalContext`; PermissionRequest `behavior`
//! (`allow`, `deny`; an `allow` of a request whose tool input has
//! `requestSandboxBypass: true` decides nothing), `message`, `interrupt`; agentStop / subagentStop
//! `decision` (`block` + `reason`, or `allow`; a hook that ran and did not
//! block is an `allow`, clearing an earlier block), subagentStop
//! `modifiedResponse` (dialect field; dropped when the same hook blocks);
//! SessionStart `additionalContext` (a non-string is its JSON text);
//! SubagentStart and Notification `additionalContext` (dialect field: their
//! canonical outcome has no context); userPromptTransformed
//! `modifiedTransformedPrompt` and preMcpToolCall `metaToUse` (dialect
//! fields). userPromptSubmitted, sessionEnd, preCompact and errorOccurred
//! output is ignored (config-file hooks' output is dropped there).
//! Decision values are exact (`"deny"`, not `"Deny"`); anything else is
//! ignored with a warning.

use serde_json::{Map, Value};

use crate::dialect::protocol::{trimmed, Exit, UNKNOWN_STATUS};
use crate::dialect::ReadCtx;
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::outcome::{
    HookFailure, HookMessageLevel, PermissionBehavior, PermissionDecision, PermissionScope, PreToolHookDecision,
};
use crate::model::reply::{Decision, Failure, HookReply};
use crate::model::rules::{Column, Exit2, Exit2Reason};

/// The reason of a preToolUse deny that gives none: Copilot CLI tells the
/// model `Denied by preToolUse hook: No reason provided`.
pub(crate) const NO_REASON: &str = "No reason provided";

/// The reader columns this reader honours for `event`.
pub(crate) fn honours(event: &RunEvent) -> &'static [Column] {
    match super::PROFILE.family_of(event) {
        EventFamily::Tool | EventFamily::Permission => &[Column::Exit2Block, Column::Exit2Warning],
        EventFamily::PostTool => &[Column::Exit2Warning, Column::Exit2Context],
        EventFamily::Stop => &[Column::Exit2Warning, Column::BlockFields],
        EventFamily::Context
        | EventFamily::Prompt
        | EventFamily::Retry
        | EventFamily::Worktree
        | EventFamily::Elicitation
        | EventFamily::Observe => &[Column::Exit2Warning],
    }
}

/// One hook's result.
struct Run<'a> {
    who: String,
    exit: Exit,
    stderr: Option<&'a str>,
    /// The stdout JSON object, if it was one (after progress lines).
    json: Option<Map<String, Value>>,
    /// stdout without its progress lines, trimmed.
    text: String,
}

/// Whether a line is a progress message: alone a JSON object with `"type":
/// "progress"`. Returns it.
fn progress(line: &str) -> Option<Map<String, Value>> {
    let line = line.trim();
    if !line.starts_with('{') {
        return None;
    }
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(o)) if o.get("type").and_then(Value::as_str) == Some("progress") => Some(o),
        _ => None,
    }
}

/// Read one hook's result. `compat`: the entry was configured under a
/// PascalCase key.
pub(crate) fn read(compat: bool, cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    let mut reply = HookReply::default();
    let exit = if exec.timed_out {
        Exit::TimedOut
    } else {
        match exec.exit_code {
            Some(0) => Exit::Success,
            Some(code) => Exit::Code(code),
            None => Exit::Signal(exec.signal),
        }
    };
    let who = format!("{} hook `{}`", cx.event.name(), exec.label);
    let stderr = trimmed(&exec.stderr);
    let rules = cx.rules;
    let exit2 = exit == Exit::Code(2) && rules.exit2 != Exit2::Ordinary;
    let reads_stdout = exit == Exit::Success || exit2;

    let mut kept = Vec::new();
    if reads_stdout {
        for line in exec.stdout.lines() {
            match progress(line) {
                Some(p) => {
                    let temporary = p.get("temporary").and_then(Value::as_bool) == Some(true);
                    if let (false, Some(message)) = (temporary, p.get("message").and_then(Value::as_str)) {
                        reply.push(HookMessageLevel::Info, message);
                    }
                }
                None => kept.push(line),
            }
        }
    }
    let text = kept.join("\n").trim().to_owned();
    let json = match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(o)) => Some(o),
        _ => {
            if !text.is_empty() {
                crate::hl_debug!("{who} printed no JSON object; its output is ignored");
            }
            None
        }
    };
    let run = Run { who, exit, stderr, json, text };

    // Failures and the exit-2 warning.
    let failure = match run.exit {
        Exit::Success => None,
        Exit::TimedOut => {
            // Copilot CLI's words, with the command (80 characters at most).
            let command: String = exec.label.chars().take(80).collect();
            let text = if exec.timeout_seconds > 0 {
                format!("{}: Hook command timed out after {} seconds: {command}", run.who, exec.timeout_seconds)
            } else {
                format!("{}: Hook command timed out: {command}", run.who)
            };
            Some((HookFailure::Timeout, text, true))
        }
        Exit::Signal(Some(signal)) => {
            Some((HookFailure::Signal, format!("{} was killed by signal {signal}", run.who), false))
        }
        Exit::Signal(None) => Some((HookFailure::Exit, format!("{} {UNKNOWN_STATUS}", run.who), true)),
        Exit::Code(2) if exit2 => None,
        Exit::Code(code) => {
            let text = match run.stderr {
                Some(stderr) => format!("{} exited with code {code}: {stderr}", run.who),
                None => format!("{} exited with code {code}", run.who),
            };
            Some((HookFailure::Exit, text, false))
        }
    };
    if let Some((kind, text, timeout_or_lost)) = failure {
        reply.push(HookMessageLevel::Warning, text.clone());
        reply.failure = Some(Failure { kind, text, timeout_or_lost });
        return reply;
    }
    if exit2 && rules.exit2 == Exit2::Warning {
        match run.stderr {
            Some(stderr) => reply.push(HookMessageLevel::Warning, format!("{} exited with code 2: {stderr}", run.who)),
            None => reply.push(HookMessageLevel::Warning, format!("{} exited with code 2", run.who)),
        }
    }

    let sandbox_bypass =
        cx.tool_input.and_then(|i| i.get("requestSandboxBypass")).and_then(Value::as_bool) == Some(true);
    let mut out = Out { reply, run: &run, compat, sandbox_bypass };
    match cx.event {
        RunEvent::Known(event) => out.event(*event, exit2.then_some(rules.exit2)),
        RunEvent::Named(name) => out.named(name),
    }
    out.reply
}

struct Out<'a> {
    reply: HookReply,
    run: &'a Run<'a>,
    compat: bool,
    /// PermissionRequest: the tool input asks to leave the sandbox
    /// (`requestSandboxBypass: true`).
    sandbox_bypass: bool,
}

/// A context value: a string (trimmed; blank is none), `null` (none), or
/// anything else as its JSON text.
fn context_text(v: Option<&Value>) -> Option<String> {
    match v {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => trimmed(s).map(str::to_owned),
        Some(other) => Some(other.to_string()),
    }
}

impl Out<'_> {
    fn field(&self, key: &str) -> Option<&Value> {
        self.run.json.as_ref()?.get(key).filter(|v| !v.is_null())
    }

    fn text(&self, key: &str) -> Option<String> {
        self.field(key).and_then(Value::as_str).and_then(trimmed).map(str::to_owned)
    }

    fn warn(&mut self, text: String) {
        self.reply.push(HookMessageLevel::Warning, text);
    }

    /// A field kept under `dialect_fields` by its own name.
    fn keep(&mut self, key: &str, value: Value) {
        self.reply.dialect_fields.insert(key.to_owned(), value);
    }

    fn event(&mut self, event: HookEvent, exit2: Option<Exit2>) {
        match event {
            HookEvent::PreToolUse => self.pre_tool(exit2),
            HookEvent::PostToolUse => {
                self.push_context("additionalContext");
                match self.field("modifiedResult") {
                    None => {}
                    Some(v @ Value::Object(_)) => {
                        let v = v.clone();
                        self.keep("modifiedResult", v);
                    }
                    Some(_) => {
                        self.warn(format!("{} returned a modifiedResult that is not an object; ignored", self.run.who))
                    }
                }
                if self.field("decision").and_then(Value::as_str) == Some("block") {
                    match self.text("reason") {
                        Some(reason) => self.reply.decision = Some(Decision::Block(reason)),
                        None => {
                            self.warn(format!("{} returned decision \"block\" without a reason; ignored", self.run.who))
                        }
                    }
                }
            }
            HookEvent::PostToolUseFailure => {
                if exit2 == Some(Exit2::Context) {
                    let context = self
                        .field("additionalContext")
                        .and_then(|v| context_text(Some(v)))
                        .or_else(|| {
                            (self.run.json.is_none()).then(|| trimmed(&self.run.text).map(str::to_owned)).flatten()
                        })
                        .or_else(|| self.run.stderr.map(str::to_owned));
                    self.reply.context.extend(context);
                } else {
                    self.push_context("additionalContext");
                }
            }
            HookEvent::PermissionRequest => {
                let bypass = self.sandbox_bypass;
                self.permission(matches!(exit2, Some(Exit2::Block { .. })), bypass)
            }
            HookEvent::Stop | HookEvent::SubagentStop => self.stop(event),
            HookEvent::SessionStart => self.push_context("additionalContext"),
            HookEvent::SubagentStart | HookEvent::Notification => {
                if let Some(context) = context_text(self.field("additionalContext")) {
                    self.keep("additionalContext", Value::String(context));
                }
            }
            HookEvent::UserPromptSubmit | HookEvent::SessionEnd | HookEvent::PreCompact => {}
        }
    }

    fn push_context(&mut self, key: &str) {
        let context = context_text(self.field(key));
        self.reply.context.extend(context);
    }

    fn pre_tool(&mut self, exit2: Option<Exit2>) {
        let json = self.run.json.as_ref();
        let spec =
            if self.compat { json.and_then(|j| j.get("hookSpecificOutput")).and_then(Value::as_object) } else { None };
        // PascalCase entries: `hookSpecificOutput` first, then the top level.
        let get = |key: &str, top: &str| -> Option<&Value> {
            spec.and_then(|s| s.get(key)).filter(|v| !v.is_null()).or_else(|| json?.get(top).filter(|v| !v.is_null()))
        };
        let decision = get("permissionDecision", "permissionDecision").cloned();
        let reason = get("permissionDecisionReason", "permissionDecisionReason")
            .and_then(Value::as_str)
            .and_then(trimmed)
            .map(str::to_owned);
        let rewrite = get("updatedInput", "modifiedArgs")
            .or_else(|| if self.compat { get("modifiedArgs", "updatedInput") } else { None })
            .cloned();
        let context = context_text(get("additionalContext", "additionalContext"));
        self.reply.context.extend(context);
        match rewrite {
            None => {}
            Some(v @ Value::Object(_)) => self.reply.updated_input = Some(v),
            Some(Value::String(raw)) => match serde_json::from_str::<Value>(&raw) {
                Ok(v @ Value::Object(_)) => self.reply.updated_input = Some(v),
                _ => self.warn(format!(
                    "{} returned modifiedArgs that are not the JSON text of an object; ignored",
                    self.run.who
                )),
            },
            Some(_) => self.warn(format!("{} returned modifiedArgs that are not an object; ignored", self.run.who)),
        }
        let verdict = match decision {
            None => None,
            Some(Value::String(d)) => match d.as_str() {
                "allow" => Some(PreToolHookDecision::Allow),
                "deny" => Some(PreToolHookDecision::Deny),
                "ask" => Some(PreToolHookDecision::Ask),
                other => {
                    self.warn(format!("{} returned an unknown permissionDecision \"{other}\"; ignored", self.run.who));
                    None
                }
            },
            Some(other) => {
                self.warn(format!(
                    "{} returned a permissionDecision that is not a string ({other}); ignored",
                    self.run.who
                ));
                None
            }
        };
        if let Some(Exit2::Block { reason: source, .. }) = exit2 {
            // Exit 2 denies whatever stdout said; its reason comes first.
            let reason = match source {
                // Copilot CLI rows never take the raw text: stdout JSON alone.
                Exit2Reason::StdoutIgnoringStderr | Exit2Reason::RawStdout => reason,
                Exit2Reason::StdoutThenStderr => reason.or_else(|| self.run.stderr.map(str::to_owned)),
                Exit2Reason::StderrThenStdout | Exit2Reason::StderrIgnoringStdout => {
                    self.run.stderr.map(str::to_owned).or(reason)
                }
            };
            let reason = reason.unwrap_or_else(|| NO_REASON.to_owned());
            self.reply.decision = Some(Decision::Tool(PreToolHookDecision::Deny, Some(reason)));
            return;
        }
        self.reply.decision = verdict.map(|d| match d {
            PreToolHookDecision::Deny => Decision::Tool(d, Some(reason.unwrap_or_else(|| NO_REASON.to_owned()))),
            _ => Decision::Tool(d, reason),
        });
    }

    /// `bypass`: the request asks to leave the sandbox, which an `allow`
    /// never pre-approves (only a deny counts).
    fn permission(&mut self, exit2: bool, bypass: bool) {
        let behavior = match self.field("behavior") {
            None => None,
            Some(Value::String(b)) if b == "allow" => Some(PermissionBehavior::Allow),
            Some(Value::String(b)) if b == "deny" => Some(PermissionBehavior::Deny),
            Some(other) => {
                self.warn(format!("{} returned an unknown behavior {other}; ignored", self.run.who));
                None
            }
        };
        let behavior = if exit2 { Some(PermissionBehavior::Deny) } else { behavior };
        let Some(behavior) = behavior else {
            return;
        };
        if bypass && behavior == PermissionBehavior::Allow {
            crate::hl_debug!("{}: an allow does not pre-approve a request to leave the sandbox", self.run.who);
            return;
        }
        self.reply.decision = Some(Decision::Permission(PermissionDecision {
            behavior,
            scope: PermissionScope::Once,
            updated_input: None,
            permission_updates: Vec::new(),
            interrupt: self.field("interrupt").and_then(Value::as_bool).unwrap_or(false),
            message: self.text("message"),
        }));
    }

    fn stop(&mut self, event: HookEvent) {
        let blocks = match self.field("decision").and_then(Value::as_str) {
            Some("block") => match self.text("reason") {
                Some(reason) => {
                    self.reply.decision = Some(Decision::Block(reason));
                    true
                }
                None => {
                    self.warn(format!("{} returned decision \"block\" without a reason; ignored", self.run.who));
                    false
                }
            },
            Some("allow") => {
                self.reply.decision = Some(Decision::Allow);
                false
            }
            Some(other) => {
                self.warn(format!("{} returned an unknown decision \"{other}\"; ignored", self.run.who));
                false
            }
            None => false,
        };
        // Copilot CLI spreads every hook's `{decision, reason}` over the
        // earlier ones, even a hook that printed nothing: a hook that ran
        // and did not block leaves no block behind it.
        if !blocks {
            self.reply.decision = Some(Decision::Allow);
        }
        if event == HookEvent::SubagentStop && !blocks {
            match self.field("modifiedResponse") {
                None => {}
                Some(Value::String(r)) => {
                    let r = r.clone();
                    self.keep("modifiedResponse", Value::String(r));
                }
                Some(_) => {
                    self.warn(format!("{} returned a modifiedResponse that is not a string; ignored", self.run.who))
                }
            }
        }
    }

    fn named(&mut self, name: &str) {
        match name {
            "userPromptTransformed" => match self.field("modifiedTransformedPrompt") {
                None => {}
                Some(Value::String(p)) if p.is_empty() => self.warn(format!(
                    "{} returned an empty modifiedTransformedPrompt; rejected (the content stays as it was)",
                    self.run.who
                )),
                Some(Value::String(p)) => {
                    let p = p.clone();
                    self.keep("modifiedTransformedPrompt", Value::String(p));
                }
                Some(_) => self.warn(format!(
                    "{} returned a modifiedTransformedPrompt that is not a string; ignored",
                    self.run.who
                )),
            },
            "preMcpToolCall" => match self.field("metaToUse") {
                None => {}
                Some(v @ Value::Object(_)) => {
                    let v = v.clone();
                    self.keep("metaToUse", v);
                }
                Some(_) => self.warn(format!("{} returned a metaToUse that is not an object; ignored", self.run.who)),
            },
            _ => {}
        }
    }
}
