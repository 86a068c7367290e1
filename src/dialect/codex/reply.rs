//! Reading one Codex hook's result into the canonical reply: Codex's
//! `parse_completed` of each event (openai/codex `codex-rs/hooks/src/events/`
//! and `engine/output_parser.rs`), row by row.
//!
//! Shared by every event:
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error `hook timed out after Ns`, no effect (every event fails open) |
//! | killed by a signal, status lost | error `hook exited without a status code` (SessionEnd, PreCompact, PostCompact: `hook process terminated without an exit code`) |
//! | exit 2 where the row's `exit2` is a block (PreToolUse, PermissionRequest, PostToolUse, UserPromptSubmit, Stop, SubagentStop; synchronous hooks only) | the event's blocking answer with the **trimmed stderr** as its reason; **stdout is ignored entirely**; blank stderr: error `<Event> hook exited with code 2 but did not write …`, no effect |
//! | any other non-zero exit | error `hook exited with code N` (SessionEnd, PreCompact, PostCompact: the trimmed stderr when there is one), stdout ignored |
//! | exit 0, blank stdout | nothing |
//! | exit 0, stdout one JSON object of the event's exact shape ([`super::wire`]) | read per event (below); `systemMessage` is a warning |
//! | exit 0, other stdout starting with `{` or `[` | error `hook returned invalid <event> JSON output`, no effect |
//! | exit 0, plain text | SessionStart, SubagentStart, UserPromptSubmit: context; Stop, SubagentStop: error `hook returned invalid stop hook JSON output`; elsewhere ignored |
//!
//! Per event (exit 0, JSON):
//!
//! | event | reading |
//! |---|---|
//! | PreToolUse | `permissionDecision: "deny"` + non-blank `permissionDecisionReason` denies; `"allow"` only carries `updatedInput` (a rewrite, never an approval); `"ask"`, `"allow"` without `updatedInput`, `updatedInput` without `"allow"`, a deny without a reason, a reason without a decision, `continue: false`, `stopReason`, `suppressOutput` are invalid (error, no effect, context dropped); legacy `decision: "block"` + `reason` denies when `hookSpecificOutput` has no decision, reason or rewrite (`"approve"`, a block without reason, a reason without decision: invalid); `additionalContext` is context, also when the hook denies |
//! | PermissionRequest | `decision.behavior` `allow` grants, `deny` refuses with `message` (default `PermissionRequest hook denied approval`); `updatedInput`, `updatedPermissions`, `interrupt: true`, `continue: false`, `stopReason`, `suppressOutput` are invalid |
//! | PostToolUse | `continue: false` (read first) halts with `stopReason` and feeds back `reason`, else the stop text; `decision: "block"` + `reason` feeds the reason back in place of the tool output; a block without reason, a reason without a decision, `suppressOutput`, `updatedMCPToolOutput` are invalid; `additionalContext` is context unless the output is invalid |
//! | UserPromptSubmit | `continue: false` halts and blocks the prompt (`stopReason`); `decision: "block"` + `reason` blocks it; a block without reason is invalid; context is kept even when the prompt is blocked, dropped when the output is invalid |
//! | SessionStart | `additionalContext` is context; `continue: false` halts (context kept) |
//! | SubagentStart | `additionalContext` is the child's context (`dialect_fields.codex.additionalContext`: the canonical SubagentStart outcome has no context slot); `continue: false` is ignored |
//! | Stop, SubagentStop | `continue: false` halts (and, by the merge, cancels every block); `decision: "block"` + `reason` blocks (the reason is the continuation prompt); a block without reason is invalid |
//! | PreCompact, PostCompact | the universal fields only: `continue: false` halts; `decision` makes the output invalid JSON |
//! | SessionEnd | output ignored entirely |
//!
//! Hooks that ran in the background (`async`) can never block, deny, halt
//! or rewrite (the engine drops their decisions); their invalid control
//! fields are not reported either, as in Codex.
//!
//! Messages name the hook (`PreToolUse hook `cmd`: …`) and then give
//! Codex's own text. A blank reason is no reason; the `reason` of a
//! PostToolUse or UserPromptSubmit block is kept as written (Codex passes
//! it on unchanged), other reasons and stderr are trimmed;
//! `additionalContext` is kept as written (as Codex keeps it; plain-text
//! context is the trimmed stdout), an empty one dropped.

use serde_json::Value;

use super::wire::{self, Behavior, Block, LegacyDecision, PermissionDecision as Wanted, Universal};
use crate::dialect::ReadCtx;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::outcome::{
    HookFailure, HookMessageLevel, PermissionBehavior, PermissionDecision, PreToolHookDecision,
};
use crate::model::reply::{Decision, Failure, HookReply};
use crate::model::rules::{BlockFields, Column, Exit2};

/// The reader columns this reader honours, for every event.
pub(super) const HONOURS: &[Column] = &[Column::Exit2Block, Column::FailureLevelError, Column::BlockFields];

/// The events a Codex reply can be read for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    PreToolUse,
    PermissionRequest,
    PostToolUse,
    UserPromptSubmit,
    SessionStart,
    SubagentStart,
    Stop,
    SubagentStop,
    PreCompact,
    PostCompact,
    SessionEnd,
    /// An event Codex does not have (Notification, PostToolUseFailure,
    /// other names): read as an observer's, like Codex's compaction hooks.
    Other,
}

impl Event {
    fn of(event: &RunEvent) -> Event {
        match event {
            RunEvent::Known(e) => match e {
                HookEvent::PreToolUse => Event::PreToolUse,
                HookEvent::PermissionRequest => Event::PermissionRequest,
                HookEvent::PostToolUse => Event::PostToolUse,
                HookEvent::UserPromptSubmit => Event::UserPromptSubmit,
                HookEvent::SessionStart => Event::SessionStart,
                HookEvent::SubagentStart => Event::SubagentStart,
                HookEvent::Stop => Event::Stop,
                HookEvent::SubagentStop => Event::SubagentStop,
                HookEvent::PreCompact => Event::PreCompact,
                HookEvent::SessionEnd => Event::SessionEnd,
                HookEvent::Notification | HookEvent::PostToolUseFailure => Event::Other,
            },
            RunEvent::Named(name) if &**name == super::POST_COMPACT => Event::PostCompact,
            RunEvent::Named(_) => Event::Other,
        }
    }

    /// How Codex names the event in "invalid JSON" errors.
    fn json_label(self) -> &'static str {
        match self {
            Event::PreToolUse => "pre-tool-use",
            Event::PermissionRequest => "permission-request",
            Event::PostToolUse => "post-tool-use",
            Event::UserPromptSubmit => "user prompt submit",
            Event::SessionStart => "session start",
            Event::SubagentStart => "subagent start",
            Event::Stop => "stop hook",
            Event::SubagentStop => "subagent stop hook",
            Event::PreCompact => "PreCompact hook",
            Event::PostCompact => "PostCompact hook",
            Event::SessionEnd | Event::Other => "hook",
        }
    }

    /// What the stderr of an exit 2 is, in the error when it is blank.
    fn exit2_stderr(self) -> &'static str {
        match self {
            Event::PermissionRequest => "a denial reason",
            Event::PostToolUse => "feedback",
            Event::Stop | Event::SubagentStop => "a continuation prompt",
            _ => "a blocking reason",
        }
    }

    /// SessionEnd and the compaction events report a failing hook by its
    /// stderr and a lost status in their own words.
    fn lifecycle(self) -> bool {
        matches!(self, Event::SessionEnd | Event::PreCompact | Event::PostCompact | Event::Other)
    }
}

/// One reply being read.
struct Reader<'a> {
    reply: HookReply,
    cx: &'a ReadCtx<'a>,
    event: Event,
    event_name: &'a str,
    label: &'a str,
}

impl Reader<'_> {
    /// `<Event> hook `<label>``.
    fn who(&self) -> String {
        format!("{} hook `{}`", self.event_name, self.label)
    }

    /// An error entry (Codex's text after the hook's name) at the row's
    /// failure level, and the hook's failure.
    fn fail(&mut self, kind: HookFailure, codex_text: &str) {
        self.fail_as(kind, codex_text, kind == HookFailure::Timeout);
    }

    /// [`fail`](Self::fail); `timeout_or_lost`: it timed out or its exit
    /// status was lost.
    fn fail_as(&mut self, kind: HookFailure, codex_text: &str, timeout_or_lost: bool) {
        let text = format!("{}: {codex_text}", self.who());
        self.reply.push(self.cx.rules.failure_level, text.clone());
        self.reply.failure = Some(Failure { kind, text, timeout_or_lost });
    }

    /// Output that parsed but breaks a rule of the event: an error and no
    /// effect. Hooks in the background are not held to the control rules.
    fn invalid(&mut self, codex_text: &str) {
        if !self.cx.background {
            self.fail(HookFailure::InvalidOutput, codex_text);
        }
    }

    fn warning(&mut self, text: Option<&String>) {
        if let Some(text) = text {
            self.reply.push(HookMessageLevel::Warning, text.clone());
        }
    }

    /// Model context as the hook wrote it (Codex does not trim
    /// `additionalContext`; plain text arrives trimmed); an empty one says
    /// nothing and is dropped.
    fn context(&mut self, text: Option<&str>) {
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            self.reply.context.push(text.to_owned());
        }
    }

    fn halt(&mut self, universal: &Universal) {
        if self.reply.halt.is_none() {
            self.reply.halt = Some(universal.stop_reason.as_deref().and_then(trimmed).map(str::to_owned));
        }
    }

    fn block(&mut self, reason: String) {
        self.reply.decision = Some(match self.event {
            Event::PreToolUse => Decision::Tool(PreToolHookDecision::Deny, Some(reason)),
            Event::PermissionRequest => Decision::Permission(deny(reason)),
            _ => Decision::Block(reason),
        });
    }
}

/// Read one Codex hook's result.
pub(super) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    let event = Event::of(cx.event);
    let mut r = Reader { reply: HookReply::default(), cx, event, event_name: cx.event.name(), label: &exec.label };
    if exec.timed_out {
        r.fail(HookFailure::Timeout, &format!("hook timed out after {}s", exec.timeout_seconds));
        return r.reply;
    }
    let stderr = trimmed(&exec.stderr);
    match exec.exit_code {
        None => {
            let kind = if exec.signal.is_some() { HookFailure::Signal } else { HookFailure::Exit };
            let text = match event.lifecycle() {
                true => "hook process terminated without an exit code",
                false => "hook exited without a status code",
            };
            r.fail_as(kind, text, exec.signal.is_none());
        }
        Some(0) => read_stdout(&mut r, &exec.stdout),
        Some(2) if matches!(cx.rules.exit2, Exit2::Block { .. }) && !cx.background => match stderr {
            Some(reason) => r.block(reason.to_owned()),
            None => {
                let text = format!(
                    "{} hook exited with code 2 but did not write {} to stderr",
                    r.event_name,
                    event.exit2_stderr()
                );
                r.fail(HookFailure::Exit, &text);
            }
        },
        Some(code) => match (event.lifecycle(), stderr) {
            (true, Some(stderr)) => r.fail(HookFailure::Exit, stderr),
            _ => r.fail(HookFailure::Exit, &format!("hook exited with code {code}")),
        },
    }
    r.reply
}

/// Exit 0: blank, one JSON object of the event's shape, JSON-looking
/// garbage, or plain text.
fn read_stdout(r: &mut Reader<'_>, stdout: &str) {
    let text = stdout.trim();
    if text.is_empty() || r.event == Event::SessionEnd {
        return;
    }
    let parsed = match r.event {
        Event::PreToolUse => wire::parse(text).map(|o| pre_tool_use(r, o)),
        Event::PermissionRequest => wire::parse(text).map(|o| permission_request(r, o)),
        Event::PostToolUse => wire::parse(text).map(|o| post_tool_use(r, o)),
        Event::UserPromptSubmit => wire::parse(text).map(|o| user_prompt_submit(r, o)),
        Event::SessionStart | Event::SubagentStart => wire::parse(text).map(|o| start(r, o)),
        Event::Stop | Event::SubagentStop => wire::parse(text).map(|o| stop(r, o)),
        Event::PreCompact | Event::PostCompact | Event::Other => wire::parse(text).map(|o| compact(r, o)),
        Event::SessionEnd => return,
    };
    if parsed.is_some() {
        return;
    }
    let invalid = format!("hook returned invalid {} JSON output", r.event.json_label());
    match r.event {
        // Stop hooks must answer in JSON: plain text fails too.
        Event::Stop | Event::SubagentStop => r.fail(HookFailure::InvalidOutput, &invalid),
        _ if wire::looks_like_json(text) => r.fail(HookFailure::InvalidOutput, &invalid),
        Event::SessionStart | Event::UserPromptSubmit => r.context(Some(text)),
        Event::SubagentStart => subagent_context(r, text),
        _ => {}
    }
}

fn pre_tool_use(r: &mut Reader<'_>, o: wire::PreToolUse) {
    r.warning(o.universal.system_message.as_ref());
    let spec = o.hook_specific_output.as_ref();
    let use_specific = spec.is_some_and(|s| {
        s.permission_decision.is_some() || s.permission_decision_reason.is_some() || s.updated_input.is_some()
    });
    let invalid = unsupported_universal("PreToolUse", &o.universal, true).or_else(|| match (use_specific, spec) {
        (true, Some(spec)) => unsupported_pre_tool_use_specific(spec),
        _ => unsupported_legacy_decision(o.decision.as_ref(), o.reason.as_deref()),
    });
    if let Some(invalid) = invalid {
        return r.invalid(&invalid);
    }
    r.context(spec.and_then(|s| s.additional_context.as_deref()));
    let block_reason = match (use_specific, spec) {
        (true, Some(spec)) => match spec.permission_decision {
            Some(Wanted::Deny) => spec.permission_decision_reason.as_deref().and_then(trimmed),
            _ => None,
        },
        _ => match o.decision {
            Some(LegacyDecision::Block) => o.reason.as_deref().and_then(trimmed),
            _ => None,
        },
    };
    match block_reason {
        Some(reason) => r.block(reason.to_owned()),
        None => {
            if let Some(spec) = spec.filter(|s| s.permission_decision == Some(Wanted::Allow)) {
                r.reply.updated_input = spec.updated_input.clone();
            }
        }
    }
}

fn permission_request(r: &mut Reader<'_>, o: wire::PermissionRequest) {
    r.warning(o.universal.system_message.as_ref());
    let decision = o.hook_specific_output.and_then(|s| s.decision);
    let invalid = unsupported_universal("PermissionRequest", &o.universal, true).or_else(|| {
        let d = decision.as_ref()?;
        if d.updated_input.is_some() {
            Some("PermissionRequest hook returned unsupported updatedInput".to_owned())
        } else if d.updated_permissions.is_some() {
            Some("PermissionRequest hook returned unsupported updatedPermissions".to_owned())
        } else if d.interrupt {
            Some("PermissionRequest hook returned unsupported interrupt:true".to_owned())
        } else {
            None
        }
    });
    if let Some(invalid) = invalid {
        return r.invalid(&invalid);
    }
    match decision {
        Some(d) if d.behavior == Behavior::Allow => {
            r.reply.decision = Some(Decision::Permission(PermissionDecision {
                behavior: PermissionBehavior::Allow,
                ..deny(String::new())
            }))
        }
        Some(d) => {
            let message = d.message.as_deref().and_then(trimmed).unwrap_or("PermissionRequest hook denied approval");
            r.block(message.to_owned());
        }
        None => {}
    }
}

fn post_tool_use(r: &mut Reader<'_>, o: wire::PostToolUse) {
    r.warning(o.universal.system_message.as_ref());
    let spec = o.hook_specific_output.as_ref();
    let invalid = unsupported_universal("PostToolUse", &o.universal, false).or_else(|| {
        spec.and_then(|s| s.updated_mcp_tool_output.as_ref())
            .map(|_| "PostToolUse hook returned unsupported updatedMCPToolOutput".to_owned())
    });
    let blocks = o.decision == Some(Block::Block);
    let reason = o.reason.as_deref().and_then(trimmed);
    let invalid_block = if blocks && reason.is_none() {
        Some(block_without_reason("PostToolUse"))
    } else if !blocks && o.universal.continue_ && o.reason.is_some() {
        Some("PostToolUse hook returned reason without decision".to_owned())
    } else {
        None
    };
    if invalid.is_none() && invalid_block.is_none() {
        r.context(spec.and_then(|s| s.additional_context.as_deref()));
    }
    if !o.universal.continue_ {
        // Read before the validity rules: the hook stops the agent, and
        // the model is told why in place of the tool output.
        r.halt(&o.universal);
        let stop_text =
            o.universal.stop_reason.as_deref().and_then(trimmed).unwrap_or("PostToolUse hook stopped execution");
        r.block(reason.unwrap_or(stop_text).to_owned());
    } else if let Some(invalid) = invalid.or(invalid_block) {
        r.invalid(&invalid);
    } else if let (true, Some(reason)) = (blocks, given(o.reason.as_deref())) {
        r.block(reason.to_owned());
    }
}

fn user_prompt_submit(r: &mut Reader<'_>, o: wire::UserPromptSubmit) {
    r.warning(o.universal.system_message.as_ref());
    let blocks = o.decision == Some(Block::Block);
    let reason = o.reason.as_deref().and_then(trimmed);
    let invalid_block = (blocks && reason.is_none()).then(|| block_without_reason("UserPromptSubmit"));
    if invalid_block.is_none() {
        // Kept even when the prompt is blocked ("preserves context for later turns").
        r.context(o.hook_specific_output.as_ref().and_then(|s| s.additional_context.as_deref()));
    }
    if !o.universal.continue_ {
        r.halt(&o.universal);
        let reason =
            o.universal.stop_reason.as_deref().and_then(trimmed).unwrap_or("UserPromptSubmit hook stopped execution");
        r.block(reason.to_owned());
    } else if let Some(invalid) = invalid_block {
        r.invalid(&invalid);
    } else if let (true, Some(reason)) = (blocks, given(o.reason.as_deref())) {
        r.block(reason.to_owned());
    }
}

fn start(r: &mut Reader<'_>, o: wire::Start) {
    r.warning(o.universal.system_message.as_ref());
    let context = o.hook_specific_output.as_ref().and_then(|s| s.additional_context.as_deref());
    if r.event == Event::SubagentStart {
        // `continue: false` means nothing to a subagent's start.
        if let Some(text) = context {
            subagent_context(r, text);
        }
        return;
    }
    r.context(context);
    if !o.universal.continue_ {
        r.halt(&o.universal);
    }
}

/// SubagentStart context: for the child, under `dialect_fields` (the
/// canonical SubagentStart outcome has no context slot).
fn subagent_context(r: &mut Reader<'_>, text: &str) {
    if !text.is_empty() {
        let slot = r.reply.dialect_fields.entry("additionalContext").or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(items) = slot {
            items.push(Value::String(text.to_owned()));
        }
    }
}

fn stop(r: &mut Reader<'_>, o: wire::Stop) {
    r.warning(o.universal.system_message.as_ref());
    let blocks = o.decision == Some(Block::Block) && r.cx.rules.block_fields != BlockFields::None;
    if !o.universal.continue_ {
        r.halt(&o.universal);
    } else if blocks {
        match o.reason.as_deref().and_then(trimmed) {
            Some(reason) => r.block(reason.to_owned()),
            None => r.invalid(&block_without_reason(r.event_name)),
        }
    }
}

fn compact(r: &mut Reader<'_>, o: wire::Compact) {
    r.warning(o.universal.system_message.as_ref());
    if !o.universal.continue_ {
        r.halt(&o.universal);
    }
}

/// `continue: false`, `stopReason` and `suppressOutput` on the tool
/// events: not supported (`suppressOutput` only on PostToolUse, whose
/// `continue: false` has a meaning).
fn unsupported_universal(event: &str, u: &Universal, control: bool) -> Option<String> {
    if control && !u.continue_ {
        Some(format!("{event} hook returned unsupported continue:false"))
    } else if control && u.stop_reason.is_some() {
        Some(format!("{event} hook returned unsupported stopReason"))
    } else if u.suppress_output {
        Some(format!("{event} hook returned unsupported suppressOutput"))
    } else {
        None
    }
}

fn unsupported_pre_tool_use_specific(spec: &wire::PreToolUseSpecific) -> Option<String> {
    if spec.updated_input.is_some() && spec.permission_decision != Some(Wanted::Allow) {
        return Some("PreToolUse hook returned updatedInput without permissionDecision:allow".to_owned());
    }
    match spec.permission_decision {
        Some(Wanted::Allow) if spec.updated_input.is_none() => {
            Some("PreToolUse hook returned unsupported permissionDecision:allow".to_owned())
        }
        Some(Wanted::Allow) => None,
        Some(Wanted::Ask) => Some("PreToolUse hook returned unsupported permissionDecision:ask".to_owned()),
        Some(Wanted::Deny) if spec.permission_decision_reason.as_deref().and_then(trimmed).is_none() => Some(
            "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason".to_owned(),
        ),
        Some(Wanted::Deny) => None,
        None if spec.permission_decision_reason.is_some() => {
            Some("PreToolUse hook returned permissionDecisionReason without permissionDecision".to_owned())
        }
        None => None,
    }
}

fn unsupported_legacy_decision(decision: Option<&LegacyDecision>, reason: Option<&str>) -> Option<String> {
    match decision {
        Some(LegacyDecision::Approve) => Some("PreToolUse hook returned unsupported decision:approve".to_owned()),
        Some(LegacyDecision::Block) if reason.and_then(trimmed).is_none() => Some(block_without_reason("PreToolUse")),
        Some(LegacyDecision::Block) => None,
        None if reason.is_some() => Some("PreToolUse hook returned reason without decision".to_owned()),
        None => None,
    }
}

fn block_without_reason(event: &str) -> String {
    format!("{event} hook returned decision:block without a non-empty reason")
}

/// A refusal with `message`.
fn deny(message: String) -> PermissionDecision {
    PermissionDecision {
        behavior: PermissionBehavior::Deny,
        scope: crate::model::outcome::PermissionScope::Once,
        updated_input: None,
        permission_updates: Vec::new(),
        interrupt: false,
        message: (!message.is_empty()).then_some(message),
    }
}

/// A `reason` as the hook wrote it, when it is not blank (Codex checks a
/// block's reason trimmed and passes it on unchanged).
fn given(text: Option<&str>) -> Option<&str> {
    text.filter(|t| !t.trim().is_empty())
}

fn trimmed(text: &str) -> Option<&str> {
    let t = text.trim();
    (!t.is_empty()).then_some(t)
}
