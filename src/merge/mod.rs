//! The canonical merge: the replies of one event's hooks, in configuration
//! order, folded into the event's outcome (`docs/protocol.md`).
//!
//! [`EventInterpreter`] drives one run's reading and merging: each hook's
//! raw result is read by the hook's dialect into a
//! [`HookReply`]
//! ([`Dialect::read_reply`]), a failing `failClosed` hook takes the event's
//! blocking decision ([`fail_closed`]), and the
//! reply is merged with the merge columns of the event's rules: run order,
//! precedence, input flow, failure policy. The merge knows no format and
//! no dialect, only canonical decisions.
//!
//! | event family | merger |
//! |---|---|
//! | PreToolUse | `pre_tool.rs` |
//! | UserPromptSubmit, PermissionRequest, Stop, SubagentStop, PreCompact, PostToolUse(Failure), SessionStart (and the named events of those families) | `decisions.rs` |
//! | PermissionDenied, WorktreeCreate, Elicitation(Result) | `named.rs` |
//! | SessionEnd, Notification, other events fired by name | only the shared fields (`common.rs`) |
//!
//! Hooks that give no reply of their own (skipped by the workspace gate, or
//! not started) are absorbed by `skipped.rs`.
//!
//! Which merger merges an event is its family in the run's profile
//! ([`Profile::family_of`]).
//!
//! An event whose rules make it a gate (`tool_gate`: Cursor's
//! subagentStart, beforeReadFile, ...) merges as PreToolUse does and has
//! its outcome shape. Stop follow-ups bounded by a loop limit are
//! `follow_up.rs`'s.
//!
//! Shared by every event (`common.rs`): messages in configuration order of the
//! hooks that gave them; `continue` false when any hook asked to halt, with
//! the first such hook's `stopReason` (`halt_reason: FirstGiven`: the first
//! `stopReason` given; `halt: LastWord`: the last hook that said `continue`
//! decides, and its `stopReason` counts); with `reasons:
//! EveryReasonJoined`, one reason for the whole run (every halting hook's
//! `stopReason` joined, else every stated `reason` joined) is the outcome's
//! `stop_reason` and the reason of its deny or block; the failure kind of
//! every report; and the fields with no canonical slot, under the outcome's
//! `dialect_fields`, by the dialect of the hook that wrote them, combined
//! as that dialect says
//! ([`Dialect::merge_fields`]; by
//! default an array field collects every hook's values in configuration
//! order, any other field keeps the first hook's value).
//!
//! The run order (`run_order`, including `SequentialWhenAsked`) is the
//! executor's (`src/engine/execute.rs`); the mergers declare it because
//! they stop a `Sequential` run early.

mod common;
mod decisions;
pub mod fail_closed;
pub mod follow_up;
mod named;
mod pre_tool;
mod skipped;

pub(crate) use decisions::StopBlocks;

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::dialect::{self, Dialect, ReadCtx};
use crate::hl_debug;
use crate::model::event::{EventFamily, HookEvent, RunEvent};
use crate::model::execution::HookExecution;
use crate::model::outcome::{HookFailure, HookMessage, HookMessageLevel, HookOutcome, HookReport};
use crate::model::reply::{Decision, HookReply};
use crate::model::rules::{Column, EventRules, Profile, RunOrder, ToolInputFlow};

pub(crate) use common::Common;
use follow_up::FollowUpRun;

/// The merge columns the merger of an event of `family` honours (the
/// reader columns are the reader's: [`crate::dialect::protocol`]). Every
/// list includes the fail-closed layer's [`Column::NeverFailsClosed`].
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn honours(family: EventFamily) -> &'static [Column] {
    match family {
        EventFamily::Tool => pre_tool::HONOURS_ALL,
        EventFamily::Prompt => decisions::PROMPT_HONOURS,
        EventFamily::Permission => decisions::PERMISSION_HONOURS,
        EventFamily::Stop => decisions::STOP_HONOURS,
        EventFamily::PostTool => decisions::POST_TOOL_HONOURS,
        EventFamily::Context => decisions::CONTEXT_HONOURS,
        EventFamily::Retry | EventFamily::Worktree | EventFamily::Elicitation => COMMON_HONOURS,
        // Observers never stop a run: a sequential one runs every hook in order.
        EventFamily::Observe => OBSERVE_HONOURS,
    }
}

/// The merge columns of the retry, worktree and elicitation families: the
/// shared fields' (and the executor's run order).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const COMMON_HONOURS: &[Column] =
    &[Column::FirstGivenHaltReason, Column::NeverFailsClosed, Column::SequentialWhenAsked, Column::HaltLastWord];

/// The merge columns of observer events (SessionEnd, Notification, events
/// fired by name): the shared fields', and a sequential run (every hook in
/// order; nothing stops it).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const OBSERVE_HONOURS: &[Column] =
    &[Column::Sequential, Column::FirstGivenHaltReason, Column::SequentialWhenAsked, Column::HaltLastWord];

/// The per-event merge state.
enum Merge {
    Context(decisions::SessionStartMerge),
    Prompt(decisions::PromptMerge),
    Tool(pre_tool::PreToolMerge),
    PostTool(decisions::PostToolMerge),
    Permission(decisions::PermissionMerge),
    Stop(decisions::StopMerge),
    Retry(named::RetryMerge),
    Worktree(named::WorktreeMerge),
    Elicitation(named::ElicitationMerge),
    Observe,
}

/// Reads and merges one event's hook results in configuration order.
///
/// Events the rules run sequentially stop at their first decision:
/// [`absorb`](Self::absorb) returns true and further results are ignored.
/// Other events never stop; the engine runs their hooks concurrently and
/// absorbs the results in configuration order.
pub struct EventInterpreter {
    event: RunEvent,
    event_name: Cow<'static, str>,
    /// The dialect whose rules merge (the run's).
    dialect: &'static dyn Dialect,
    rules: &'static EventRules,
    family: EventFamily,
    quiet_success_output: bool,
    common: Common,
    merge: Merge,
    stopped: bool,
    /// The failure kind of every absorbed hook, in absorption order (one per
    /// report the engine passes to `finish`).
    failures: Vec<Option<HookFailure>>,
    /// The hooks ran in the background (`async`).
    background: bool,
    /// Follow-ups bounded by a loop limit (`follow_up_loop_limit`).
    follow_ups: Option<FollowUpRun>,
    /// The input's `status` is `completed`, or it has none
    /// (`block_needs_completed_status`).
    status_completed: bool,
    /// The input's `tool_name`, for the readers ([`ReadCtx::tool_name`]).
    tool_name: Option<String>,
    /// The input's `tool_input` on PermissionRequest, for the readers
    /// ([`ReadCtx::tool_input`]).
    tool_input: Option<Value>,
    /// The run's tool call when the engine maps tool names to each hook's
    /// agent (`tool_names: canonical`): rewrites and tool calls a hook
    /// returns are read back into the canonical vocabulary.
    tool_call: Option<ToolCallFacts>,
    /// The decision of the hook absorbed last (for its span).
    last_decision: Option<&'static str>,
    /// The completion place of the hook absorbed next, in a concurrent run
    /// (`rewrite_winner: LastFinished`); taken by that hook.
    finished: Option<usize>,
}

/// The run's canonical tool call, for reading hooks' rewrites back.
#[derive(Clone, Debug)]
struct ToolCallFacts {
    /// The working directory (the input's `cwd`, else the workspace).
    cwd: String,
    /// The canonical `tool_input` the call started from.
    tool_input: Option<Value>,
}

/// What the engine knows about one hook besides its raw result.
#[derive(Clone, Copy, Debug, Default)]
pub struct HookExtras<'a> {
    /// The dialect's own event the hook is configured under, when it runs
    /// as part of another event
    /// ([`HookSpec::native_event`](crate::config::HookSpec::native_event)):
    /// it is read with that event's rules.
    pub native_event: Option<&'static str>,
    /// Its `loop_limit` (`None`: no limit).
    pub loop_limit: Option<u64>,
    /// What identifies it among the session's follow-up counts.
    pub identity: Option<&'a str>,
}

impl EventInterpreter {
    /// A fresh interpreter for `event` with the VT Code dialect's rules.
    /// `quiet_success_output` drops the info messages plain stdout of
    /// successful hooks would give.
    pub fn new(event: HookEvent, quiet_success_output: bool) -> Self {
        Self::for_dialect(&RunEvent::Known(event), dialect::VTCODE, quiet_success_output)
    }

    /// A fresh interpreter for `event` (known or fired by name) with
    /// `dialect`'s rules: hooks absorbed with [`absorb`](Self::absorb) are
    /// read by it, and its table's merge columns combine them.
    pub fn for_dialect(event: &RunEvent, dialect: &'static dyn Dialect, quiet_success_output: bool) -> Self {
        let profile = dialect.profile();
        let rules = profile.rules_of(event);
        let family = profile.family_of(event);
        let merge = match family {
            EventFamily::Context => Merge::Context(decisions::SessionStartMerge {
                env: (rules.env_file || rules.session_env_from_output).then(serde_json::Map::new),
                ..Default::default()
            }),
            EventFamily::Prompt => Merge::Prompt(Default::default()),
            EventFamily::Tool => Merge::Tool(Default::default()),
            EventFamily::PostTool => Merge::PostTool(Default::default()),
            EventFamily::Permission => Merge::Permission(Default::default()),
            EventFamily::Stop => Merge::Stop(decisions::StopMerge::new(rules)),
            EventFamily::Retry => Merge::Retry(Default::default()),
            EventFamily::Worktree => Merge::Worktree(Default::default()),
            EventFamily::Elicitation => Merge::Elicitation(Default::default()),
            EventFamily::Observe => Merge::Observe,
        };
        let event_name = match event {
            RunEvent::Known(e) => Cow::Borrowed(e.name()),
            RunEvent::Named(n) => Cow::Owned(n.to_string()),
        };
        EventInterpreter {
            event: event.clone(),
            event_name,
            dialect,
            rules,
            family,
            quiet_success_output,
            common: Common::new(),
            merge,
            stopped: false,
            failures: Vec::new(),
            follow_ups: None,
            status_completed: false,
            tool_name: None,
            tool_input: None,
            tool_call: None,
            background: false,
            last_decision: None,
            finished: None,
        }
    }

    /// The interpreter of `async` hooks that ran in the background: their
    /// readers know it (see [`ReadCtx::background`]).
    pub(crate) fn in_background(mut self) -> Self {
        self.background = true;
        self
    }

    /// What the merge columns that depend on the run's input need from it
    /// (`status` for `block_needs_completed_status`, `loop_count` for
    /// `follow_up_loop_limit`), and the engine's follow-up counts of
    /// `session`: kept for Stop-like events, whose hooks' rules may use
    /// them. The input's `tool_name` is kept for every event (the readers
    /// get it as [`ReadCtx::tool_name`]), its `tool_input` on
    /// PermissionRequest ([`ReadCtx::tool_input`]).
    pub(crate) fn with_run_facts(
        mut self,
        input: &Map<String, Value>,
        counts: &std::sync::Arc<follow_up::FollowUpCounts>,
        session: &str,
    ) -> Self {
        self.tool_name = input.get("tool_name").and_then(Value::as_str).map(str::to_owned);
        if self.family == EventFamily::Permission {
            self.tool_input = input.get("tool_input").filter(|v| v.is_object()).cloned();
        }
        if let Merge::Tool(m) = &mut self.merge {
            m.original_input = input.get("tool_input").filter(|v| v.is_object()).cloned();
        }
        if self.family == EventFamily::Stop {
            // No `status` counts as completed (the status a payload then
            // reports); any other status does not.
            self.status_completed = match input.get("status") {
                None | Some(Value::Null) => true,
                Some(status) => status.as_str() == Some("completed"),
            };
            self.follow_ups = Some(FollowUpRun {
                counts: counts.clone(),
                session: follow_up::scope(&self.event, session, input),
                host_count: input.get("loop_count").and_then(Value::as_u64),
            });
        }
        self
    }

    /// With `tool_names` canonical, hooks read the run's tool call in
    /// their agent's vocabulary: the readers get its name and input so
    /// ([`ReadCtx::tool_name`]), and a rewrite or a tool call a hook returns
    /// is read back into the canonical vocabulary
    /// ([`crate::dialect::tools`]). `workspace`: the working directory when
    /// the input has no `cwd`.
    pub(crate) fn with_tool_names(
        mut self,
        tool_names: crate::dialect::tools::ToolNames,
        input: &Map<String, Value>,
        workspace: &str,
    ) -> Self {
        if tool_names == crate::dialect::tools::ToolNames::Canonical && self.tool_name.is_some() {
            self.tool_call = Some(ToolCallFacts {
                cwd: crate::dialect::tools::input_cwd(input, workspace).to_owned(),
                tool_input: input.get("tool_input").cloned(),
            });
        }
        self
    }

    /// The event being interpreted (`None` for an event fired by a name no
    /// canonical event has).
    pub fn event(&self) -> Option<HookEvent> {
        self.event.known()
    }

    /// The event's name (`hook_event_name`).
    pub fn event_name(&self) -> &str {
        &self.event_name
    }

    /// The profile whose rules merge.
    pub fn profile(&self) -> &'static Profile {
        self.dialect.profile()
    }

    /// Whether a decision already stopped the run.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// How the hook absorbed last failed, and the decision it made (what
    /// its span reports as `hook.failure` and `hook.decision`).
    pub(crate) fn last_read(&self) -> (Option<HookFailure>, Option<&'static str>) {
        (self.failures.last().copied().flatten(), self.last_decision)
    }

    /// The hook absorbed next finished `place`-th (0: first) among the
    /// hooks of a concurrent run.
    pub(crate) fn set_finished(&mut self, place: usize) {
        self.finished = Some(place);
    }

    /// Absorb one executed hook, read with the interpreter's dialect.
    /// Returns true when the run must stop here (events the rules run
    /// sequentially: VT Code PreToolUse at the first allow or deny,
    /// UserPromptSubmit at the first block, PermissionRequest at the first
    /// decision, Stop at the first block). Always false for events run
    /// concurrently. Once it returned true, later results are ignored.
    pub fn absorb(&mut self, exec: &HookExecution) -> bool {
        self.absorb_hook(exec, false)
    }

    /// [`absorb`](Self::absorb) for a hook that may be `failClosed`: when it
    /// failed, the event's blocking decision.
    pub fn absorb_hook(&mut self, exec: &HookExecution, fail_closed: bool) -> bool {
        self.absorb_from(self.dialect, self.quiet_success_output, exec, fail_closed)
    }

    /// A callback hook's result: read by the run's dialect when it reads
    /// the hooks protocol the callback's reply is in, else by Claude Code's
    /// ([`Dialect::reads_hooks_protocol`]).
    pub(crate) fn absorb_callback(&mut self, exec: &HookExecution) -> bool {
        let reader = if self.dialect.reads_hooks_protocol() { self.dialect } else { dialect::CLAUDE };
        self.absorb_from(reader, self.quiet_success_output, exec, false)
    }

    /// [`absorb_hook`](Self::absorb_hook) for a hook of another dialect than
    /// the interpreter's (a run joining sources of several dialects): the
    /// hook's own dialect reads it, with its own rules for the event.
    pub fn absorb_from(
        &mut self,
        dialect: &'static dyn Dialect,
        quiet_success_output: bool,
        exec: &HookExecution,
        fail_closed: bool,
    ) -> bool {
        self.absorb_with(dialect, quiet_success_output, exec, fail_closed, HookExtras::default())
    }

    /// [`absorb_from`](Self::absorb_from) with what the engine knows about
    /// the hook besides its result: a hook configured under another event
    /// of its dialect is read with that event's rules, and a follow-up is
    /// bounded by its loop limit.
    pub fn absorb_with(
        &mut self,
        dialect: &'static dyn Dialect,
        quiet_success_output: bool,
        exec: &HookExecution,
        fail_closed: bool,
        extras: HookExtras<'_>,
    ) -> bool {
        if self.stopped {
            hl_debug!("{} hook `{}` ignored: the run already stopped", self.event_name, exec.label);
            self.failures.push(None);
            self.last_decision = None;
            return true;
        }
        let profile = dialect.profile();
        let native = extras.native_event.map(|n| RunEvent::Named(n.into()));
        let event = native.as_ref().unwrap_or(&self.event);
        let rules = profile.rules_of(event);
        let family = profile.family_of(event);
        // The tool call as the hook's agent names it (option `tool_names`).
        let vocab = dialect.tool_vocabulary();
        let mapped = self.tool_call.is_some() && !vocab.is_empty();
        let native_name = match (&self.tool_name, mapped) {
            (Some(name), true) => Some(vocab.native_name(name).into_owned()),
            (name, _) => name.clone(),
        };
        let native_input = match (&self.tool_input, &self.tool_name, &self.tool_call) {
            (Some(input), Some(name), Some(call)) if mapped => {
                vocab.to_native(name, Some(input), &call.cwd).input.map(std::borrow::Cow::into_owned)
            }
            (input, ..) => input.clone(),
        };
        let cx = ReadCtx {
            event,
            family,
            rules,
            quiet_success_output,
            fail_closed,
            background: self.background,
            tool_name: native_name.as_deref(),
            tool_input: native_input.as_ref(),
        };
        let mut reply = dialect.read_reply(&cx, exec);
        if mapped {
            self.canonical_reply(dialect, event, &exec.label, native_name.as_deref(), &mut reply);
        }
        fail_closed::apply(&mut reply, fail_closed, rules, family);
        self.common.absorb_dialect_fields(dialect, event, std::mem::take(&mut reply.dialect_fields));
        // What the merging dialect's agent cannot express is dropped and said.
        let dropped = self.dialect.restrict_reply(&self.event, self.family, &mut reply);
        if !dropped.is_empty() {
            self.common.absorb_dialect_fields(self.dialect, &self.event, dropped);
        }
        self.bound_follow_up(rules, &mut reply, &exec.label, &extras);
        self.merge_reply(&exec.label, reply)
    }

    /// A reply of a hook of `dialect` in the canonical vocabulary: its
    /// rewrite (`updated_input`, in the shape of the agent's tool `native`)
    /// and the tool calls among its fields. A rewrite the table cannot read
    /// back is passed on as the hook wrote it, with a warning naming it.
    fn canonical_reply(
        &self,
        dialect: &'static dyn Dialect,
        event: &RunEvent,
        label: &str,
        native: Option<&str>,
        reply: &mut HookReply,
    ) {
        let (Some(call), Some(name), Some(native)) = (&self.tool_call, self.tool_name.as_deref(), native) else {
            return;
        };
        let vocab = dialect.tool_vocabulary();
        if let Some(rewrite) = reply.updated_input.as_ref().filter(|v| v.is_object()) {
            match vocab.input_to_canonical(name, native, rewrite, call.tool_input.as_ref(), &call.cwd) {
                Some(canonical) => reply.updated_input = Some(canonical),
                None => reply.push(
                    HookMessageLevel::Warning,
                    format!(
                        "hook `{label}` rewrote the input of {native} in a form that has no {name} input; it is \
                         passed on as the hook wrote it"
                    ),
                ),
            }
        }
        if !reply.dialect_fields.is_empty() {
            let to_canonical = |tool: &str, input: &Value| -> (String, Value) {
                let canonical = vocab.canonical_name(tool, None).into_owned();
                let input = vocab.input_to_canonical(&canonical, tool, input, None, &call.cwd).unwrap_or(input.clone());
                (canonical, input)
            };
            dialect.tool_calls_to_canonical(event, &mut reply.dialect_fields, &to_canonical);
        }
    }

    /// Stop and SubagentStop where the rules make blocks follow-ups: a block
    /// of a run whose `status` is not `completed` (where the rules say so),
    /// or of a hook at its loop limit, is dropped with an info message; the
    /// first one kept counts against its hook.
    fn bound_follow_up(&mut self, rules: &EventRules, reply: &mut HookReply, label: &str, extras: &HookExtras<'_>) {
        if self.family != EventFamily::Stop || !matches!(reply.decision, Some(crate::model::reply::Decision::Block(_)))
        {
            return;
        }
        if rules.block_needs_completed_status && !self.status_completed {
            reply.decision = None;
            reply.push(
                HookMessageLevel::Info,
                format!("{} hook `{label}`: follow-up ignored (the status is not \"completed\")", self.event_name),
            );
            return;
        }
        let Some(run) = self.follow_ups.as_ref().filter(|_| rules.follow_up_loop_limit) else { return };
        if matches!(&self.merge, Merge::Stop(m) if m.blocked()) {
            // Only the first follow-up is used; later ones are not counted.
            return;
        }
        let identity = extras.identity.unwrap_or(label);
        if !run.counts.take(&run.session, identity, extras.loop_limit, run.host_count) {
            reply.decision = None;
            let limit = extras.loop_limit.unwrap_or_default();
            reply.push(
                HookMessageLevel::Info,
                format!(
                    "{} hook `{label}`: follow-up ignored: it has reached its loop_limit of {limit} follow-up{}",
                    self.event_name,
                    if limit == 1 { "" } else { "s" }
                ),
            );
        }
    }

    /// Merge a reply made without a dialect reader (the gate's, a spawn
    /// failure's); true when the run must stop here.
    fn merge_reply(&mut self, label: &str, mut reply: HookReply) -> bool {
        self.failures.push(reply.failure.as_ref().map(|f| f.kind));
        self.last_decision = reply.decision.as_ref().map(Decision::name);
        let rules = self.rules;
        let finished = self.finished.take();
        self.common.absorb(rules, &mut reply);
        let stop = match &mut self.merge {
            Merge::Context(m) => m.absorb(rules, reply),
            Merge::Prompt(m) => m.absorb(rules, reply),
            Merge::Tool(m) => m.absorb(&mut self.common, rules, label, reply, finished),
            Merge::PostTool(m) => m.absorb(rules, reply),
            Merge::Permission(m) => m.absorb(rules, reply),
            Merge::Stop(m) => m.absorb(rules, reply),
            Merge::Retry(m) => m.absorb(reply),
            Merge::Worktree(m) => m.absorb(reply),
            Merge::Elicitation(m) => m.absorb(reply),
            Merge::Observe => false,
        };
        self.stopped = stop && rules.run_order == RunOrder::Sequential;
        self.stopped
    }

    /// SessionStart (dialects with an env file): the variables the hooks
    /// wrote, returned as the outcome's `env`. Ignored elsewhere.
    pub fn set_env(&mut self, env: serde_json::Map<String, Value>) {
        if let Merge::Context(m) = &mut self.merge {
            if m.env.is_some() {
                m.env = Some(env);
            }
        }
    }

    /// Whether the hooks absorbed so far blocked the event: a PreToolUse
    /// (or gate) deny, a blocked prompt, a Stop block. A run in stages
    /// starts no later stage then.
    pub(crate) fn blocked(&self) -> bool {
        match &self.merge {
            Merge::Tool(m) => m.denied(),
            Merge::Prompt(m) => m.blocked(),
            Merge::Stop(m) => m.blocked(),
            Merge::Permission(m) => m.denied(),
            _ => false,
        }
    }

    /// The `tool_input` hooks of a later stage receive: the rewrite in
    /// force whatever the input flow (`None`: the original).
    pub(crate) fn rewrite_in_force(&self) -> Option<&Value> {
        match &self.merge {
            Merge::Tool(m) => m.updated_input(),
            _ => None,
        }
    }

    /// Deliver what `async` hooks of an earlier run produced: their
    /// messages, and their context where this event's outcome has one.
    /// Returns the context it could not place (kept for a later run).
    pub fn deliver(&mut self, messages: Vec<HookMessage>, context: Vec<String>) -> Vec<String> {
        self.common.messages.extend(messages);
        match self.context_slot() {
            Some(slot) => {
                slot.extend(context);
                Vec::new()
            }
            None => context,
        }
    }

    fn context_slot(&mut self) -> Option<&mut Vec<String>> {
        match &mut self.merge {
            Merge::Context(m) => Some(&mut m.additional_context),
            Merge::Prompt(m) => Some(&mut m.additional_context),
            Merge::Tool(m) => Some(&mut m.additional_context),
            Merge::PostTool(m) => Some(&mut m.additional_context),
            Merge::Stop(m) => m.context_slot(),
            _ => None,
        }
    }

    /// What an `async` hook's result gives a later run: the messages and
    /// context this interpreter collected (its decisions are dropped).
    pub fn into_delivery(mut self) -> (Vec<HookMessage>, Vec<String>) {
        let context = self.context_slot().map(std::mem::take).unwrap_or_default();
        (self.common.messages, context)
    }

    /// PreToolUse: the `tool_input` later hooks must receive after
    /// `updatedInput` rewrites (`None`: the original). Always `None` for
    /// other events, and for rules where every hook receives the original
    /// input.
    pub fn updated_input(&self) -> Option<&Value> {
        match &self.merge {
            Merge::Tool(m) if self.rules.tool_input == ToolInputFlow::Chained => m.updated_input(),
            _ => None,
        }
    }

    /// Build the outcome. `hooks` is the execution report in configuration
    /// order, one per absorbed hook; each report gets its `failure` kind.
    pub fn finish(mut self, mut hooks: Vec<HookReport>) -> HookOutcome {
        if hooks.len() == self.failures.len() {
            for (report, failure) in hooks.iter_mut().zip(&self.failures) {
                if report.failure.is_none() {
                    report.failure = *failure;
                }
            }
        }
        let rules = self.rules;
        let joined = self.common.joined_reason(rules);
        let blocked = match &self.merge {
            Merge::PostTool(m) => m.blocked(),
            _ => self.blocked(),
        };
        // What the dialects' agents use of their fields, now that the
        // outcome is known (a slot left empty is dropped).
        let mut emptied = Vec::new();
        for (name, fields) in self.common.dialect_fields.iter_mut() {
            if let (Ok(d), Value::Object(fields)) = (dialect::by_name(name), fields) {
                let had = !fields.is_empty();
                d.finish_fields(&self.event, blocked, fields);
                if had && fields.is_empty() {
                    emptied.push(name.clone());
                }
            }
        }
        for name in emptied {
            self.common.dialect_fields.remove(&name);
        }
        let common = self.common.into_outcome(joined.as_ref(), hooks);
        match self.merge {
            Merge::Context(m) => match self.event.known() {
                Some(HookEvent::SessionStart) => HookOutcome::SessionStart(m.finish(common)),
                _ => HookOutcome::Context(m.finish(common)),
            },
            Merge::Prompt(m) => HookOutcome::UserPromptSubmit(m.finish(rules, joined, common)),
            Merge::Tool(m) => HookOutcome::PreToolUse(m.finish(rules, joined, common)),
            Merge::PostTool(m) => HookOutcome::PostToolUse(m.finish(rules, joined, common)),
            Merge::Permission(m) => HookOutcome::PermissionRequest(m.finish(common)),
            Merge::Retry(m) => HookOutcome::Retry(m.finish(common)),
            Merge::Worktree(m) => HookOutcome::Worktree(m.finish(common)),
            Merge::Elicitation(m) => HookOutcome::Elicitation(m.finish(common)),
            // Where nothing blocks them, SubagentStop and PreCompact are
            // observers and their outcome has only the common fields.
            Merge::Stop(_) if !rules.can_block() => HookOutcome::Other(common),
            Merge::Stop(m) => match self.event.known() {
                Some(HookEvent::SubagentStop) => HookOutcome::SubagentStop(m.finish(rules, joined, common)),
                Some(HookEvent::PreCompact) => HookOutcome::PreCompact(m.finish(rules, joined, common)),
                _ => HookOutcome::Stop(m.finish(rules, joined, common)),
            },
            Merge::Observe => HookOutcome::Other(common),
        }
    }
}

#[cfg(test)]
mod tests;
