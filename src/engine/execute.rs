//! Executing a plan: the hooks of one run in their order (one after another
//! with an early stop where the rules run the event sequentially,
//! concurrently otherwise), each through the handler layers
//! ([`crate::handler::layer::invoke`]: gate, cancel, timeout, report), its
//! result read and merged by the run's interpreter. The running rules are
//! in `docs/protocol.md`.
//!
//! One configuration snapshot per run: the entry points take the setup
//! once, validate against it and execute with it, so a reload in between
//! cannot validate an input under one config and run it under another.
//!
//! Threading: a synchronous run executes on the calling thread, and so do
//! its callback hooks; process hooks of a concurrent event run on scoped
//! threads.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value};

use super::context::{Environments, RunCtx};
use super::envfile::EnvFiles;
use super::input::{
    check_blocking_allowed, empty_outcome, empty_outcome_json, resolve_named, run_event_named, unknown_event_warning,
    validate, with_warning, RunToken,
};
use super::options::Setup;
use super::plan::Plan;
use super::LifecycleHookEngine;
use crate::dialect::Dialect;
use crate::error::{Error, Result, Status};
use crate::handler::layer::{self, cancel, Stack};
use crate::handler::{host, Executed, Hook, Output, Payload};
use crate::merge::EventInterpreter;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::outcome::{HookOutcome, HookReport};
use crate::model::rules::RunOrder;
use crate::runner::CancelToken;
use crate::trace::{RunContext, RunFacts, RunTrace};

pub(crate) use cancel::cancelled_error;

impl LifecycleHookEngine {
    /// Run one event synchronously on the calling thread (callback hooks run
    /// on this thread too). `input` is the event input (`docs/protocol.md`).
    /// `Err(WrongThread)` on a hookline-owned thread: use
    /// [`run_async`](Self::run_async) there.
    pub fn run_blocking(&self, event: HookEvent, input: &Value) -> Result<HookOutcome> {
        self.run_event_blocking(&RunEvent::Known(event), input, false)
    }

    /// [`run_blocking`](Self::run_blocking) returning the outcome as JSON
    /// text (what `hl_engine_run` hands out). When no hook matches — the
    /// common case on the path of every tool call — the outcome is a
    /// constant per event, served without building it again.
    pub fn run_blocking_json(&self, event: HookEvent, input: &Value) -> Result<String> {
        self.run_event_blocking_json(&RunEvent::Known(event), input, false)
    }

    /// Fire an event by its config key, synchronously (`hl_engine_run_named`):
    /// a known event's name runs it with its rules, and so does its config
    /// key in the dialect of the engine's hooks (Gemini CLI's `BeforeTool`
    /// is PreToolUse); any other name runs that key's configured hooks with
    /// the dialect's rules for that event (Gemini CLI's `BeforeModel`), else
    /// for events without a canonical meaning. The matcher of an event
    /// without a canonical meaning is tested against the input's
    /// `matcher_value`, if any.
    ///
    /// A name no hooks config names (and that is neither canonical nor an
    /// event an agent defines, such as Codex's `PostCompact`) runs no hook
    /// and the outcome's first message is a warning saying so, listing the
    /// configured events and the closest known name (`PreToolUze`: "did you
    /// mean `PreToolUse`?"); [`event_name_warning`](Self::event_name_warning)
    /// gives the same text without running.
    pub fn run_named_blocking(&self, name: &str, input: &Value) -> Result<HookOutcome> {
        self.run_event_blocking(&run_event_named(name)?, input, true)
    }

    /// [`run_named_blocking`](Self::run_named_blocking) returning JSON text.
    pub fn run_named_blocking_json(&self, name: &str, input: &Value) -> Result<String> {
        self.run_event_blocking_json(&run_event_named(name)?, input, true)
    }

    /// The warning a run of `name` by name would carry because no hooks
    /// config names that event (see
    /// [`run_named_blocking`](Self::run_named_blocking)); `None` for a
    /// canonical name, an event an agent defines, or a configured one.
    /// Nothing runs. `InvalidArgument` for a blank name.
    pub fn event_name_warning(&self, name: &str) -> Result<Option<String>> {
        let event = run_event_named(name)?;
        Ok(unknown_event_warning(&self.setup().config, &event))
    }

    fn run_event_blocking(&self, event: &RunEvent, input: &Value, by_name: bool) -> Result<HookOutcome> {
        check_blocking_allowed()?;
        self.check_usable()?;
        let setup = self.setup();
        let event = &resolve_named(&setup, event.clone());
        validate(&setup, event, input)?;
        let outcome = self
            .execute(&setup, event, input, RunToken::Sync)?
            .unwrap_or_else(|| empty_outcome(setup.config.dialect(), event));
        Ok(match by_name {
            true => with_warning(outcome, unknown_event_warning(&setup.config, event)),
            false => outcome,
        })
    }

    fn run_event_blocking_json(&self, event: &RunEvent, input: &Value, by_name: bool) -> Result<String> {
        check_blocking_allowed()?;
        self.check_usable()?;
        let setup = self.setup();
        let event = &resolve_named(&setup, event.clone());
        validate(&setup, event, input)?;
        let outcome = self.execute(&setup, event, input, RunToken::Sync)?;
        if by_name {
            if let Some(w) = unknown_event_warning(&setup.config, event) {
                let outcome = outcome.unwrap_or_else(|| empty_outcome(setup.config.dialect(), event));
                return with_warning(outcome, Some(w)).to_json_string();
            }
        }
        outcome_json(&setup, event, outcome)
    }

    /// The outcome JSON of `event` when no configured or callback hook
    /// matches it (the input validated as for a run), or `None` when some
    /// hook would run. Runs nothing and never blocks: a host whose thread
    /// must stay free while hooks run (an event loop) answers the common
    /// no-match case in place and hands the rest to
    /// [`run_async`](Self::run_async).
    pub fn outcome_if_no_hook_matches(&self, event: HookEvent, input: &Value) -> Result<Option<&'static str>> {
        self.check_usable()?;
        let setup = self.setup();
        let run_event = RunEvent::Known(event);
        validate(&setup, &run_event, input)?;
        // Something from `async` hooks waiting for this outcome, or `async`
        // hooks to start, make it a real run.
        if self.has_deliveries() {
            return Ok(None);
        }
        let callbacks = self.callbacks();
        let plan = Plan::new(&setup, &callbacks, &run_event, input);
        if plan.is_empty() && plan.background.is_empty() {
            Ok(Some(empty_outcome_json(plan.dialect, event)?))
        } else {
            Ok(None)
        }
    }

    /// The core of every run: plan (match once), then execute and interpret,
    /// all with one configuration snapshot (`setup`, the one the input was
    /// validated against). `None` when no hook matched and nothing from
    /// `async` hooks is waiting (the outcome is the event's empty one).
    /// `how` says where the run's cancellation token comes from: an
    /// asynchronous run's own; a synchronous run that spawns processes
    /// registers one, so that closing the engine kills them; a reserved run
    /// makes its reservation's token now (only when a hook is to run, so
    /// that a no-match run costs no system call for it).
    pub(crate) fn execute(
        &self,
        setup: &Arc<Setup>,
        event: &RunEvent,
        input: &Value,
        how: RunToken<'_>,
    ) -> Result<Option<HookOutcome>> {
        let callbacks = self.callbacks();
        let plan = Plan::new(setup, &callbacks, event, input);
        let input = match input {
            Value::Object(m) => m,
            _ => return Err(Error::invalid_argument(format!("{} input must be a JSON object", event.name()))),
        };
        // A run that runs no hook has no span, traced or not.
        let trace = if plan.is_empty() && plan.background.is_empty() {
            None
        } else {
            self.state.trace.begin(RunFacts {
                event: event.name(),
                dialect: plan.dialect.name(),
                session_id: &setup.session_id,
                input,
                hooks: plan.hooks.len(),
                background: plan.background.len(),
            })
        };
        let result = self.execute_planned(setup, event, input, &plan, how, trace.as_ref().map(RunTrace::context));
        if let Some(trace) = trace {
            trace.end(result.as_ref().map(Option::as_ref));
        }
        result
    }

    fn execute_planned(
        &self,
        setup: &Arc<Setup>,
        event: &RunEvent,
        input: &Map<String, Value>,
        plan: &Plan<'_>,
        how: RunToken<'_>,
        trace: Option<&Arc<RunContext>>,
    ) -> Result<Option<HookOutcome>> {
        if !plan.background.is_empty() {
            self.start_background(setup, event, input, &plan.background, trace);
        }
        let rules = plan.dialect.profile().rules_of(event);
        if plan.is_empty() && !self.has_deliveries() {
            if rules.block_cap {
                // A stop no hook kept from ending ends the streak.
                self.state.stop_blocks.ended(&setup.session_id);
            }
            return Ok(None);
        }
        let mut interp = EventInterpreter::for_dialect(event, plan.dialect, setup.config.quiet_success_output())
            .with_run_facts(input, &self.state.follow_ups, &setup.session_id);
        // Rewrites are read back only where a hook's agent names tools
        // otherwise (no copy of the call on a run of Claude Code's hooks).
        if plan.hooks.iter().filter_map(|h| h.dialect()).any(|d| !d.tool_vocabulary().is_empty()) {
            interp = interp.with_tool_names(setup.tool_names, input, &setup.workspace_str);
        }
        self.deliver(&mut interp);
        if plan.is_empty() {
            return Ok(Some(self.capped(setup, rules, interp.finish(Vec::new()))));
        }
        let sync_run;
        let reserved_token;
        let token = match how {
            RunToken::Async(token) => Some(token),
            RunToken::Sync => {
                sync_run = if plan.has_cancellable() { Some(self.track_sync_run()?) } else { None };
                sync_run.as_ref().map(|r| &r.token)
            }
            RunToken::Reserved(run) => {
                reserved_token = run.token()?;
                Some(&reserved_token)
            }
        };
        let reports = self.execute_plan(event, setup, input, plan, &mut interp, RunScope { token, trace })?;
        let outcome = self.capped(setup, rules, interp.finish(reports));
        self.remember_session_env(event, plan.dialect, &outcome);
        Ok(Some(outcome))
    }

    /// SessionStart where the rules take `env` from the hooks' output: the
    /// session's later hooks of the dialect get those variables.
    fn remember_session_env(&self, event: &RunEvent, d: &'static dyn Dialect, outcome: &HookOutcome) {
        if !d.profile().rules_of(event).session_env_from_output {
            return;
        }
        if let HookOutcome::SessionStart(o) = outcome {
            let vars: Vec<(String, String)> = o
                .env
                .iter()
                .flatten()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                .filter(|(k, v)| !k.is_empty() && !k.contains(['=', '\0']) && !v.contains('\0'))
                .collect();
            let mut envs = self.state.session_env.write().unwrap_or_else(|e| e.into_inner());
            envs.retain(|(name, _)| *name != d.name());
            if !vars.is_empty() {
                envs.push((d.name(), vars));
            }
        }
    }

    /// The Stop block cap applied to an outcome whose row asks for it.
    fn capped(&self, setup: &Setup, rules: &crate::model::rules::EventRules, mut outcome: HookOutcome) -> HookOutcome {
        if rules.block_cap {
            self.state.stop_blocks.apply(&setup.session_id, setup.stop_hook_block_cap, &mut outcome);
        }
        outcome
    }

    fn execute_plan(
        &self,
        event: &RunEvent,
        setup: &Setup,
        input: &Map<String, Value>,
        plan: &Plan<'_>,
        interp: &mut EventInterpreter,
        RunScope { token, trace }: RunScope<'_>,
    ) -> Result<Vec<HookReport>> {
        let transcript = self.transcript_path_arc();
        let facts = setup.facts(transcript.as_deref());
        let rules = plan.dialect.profile().rules_of(event);
        // Events whose row gives hooks an env file (SessionStart, Setup in
        // the Claude Code profile): one private file per hook.
        let env_files = if rules.env_file && plan.has_processes() {
            match EnvFiles::create(plan.hooks.len()) {
                Ok(files) => Some(files),
                Err(e) => {
                    crate::hl_warn!("cannot create CLAUDE_ENV_FILE files: {e}");
                    None
                }
            }
        } else {
            None
        };
        let handlers = self.host_handlers();
        let ctx = RunCtx {
            stack: Stack {
                event,
                facts: &facts,
                approval: self.approval(),
                commands: &setup.commands,
                cwd: &setup.workspace,
                max_output_bytes: setup.max_output_bytes,
                token,
                budget: rules.budget.map(|b| layer::timeout::budget(b, plan.hooks.iter().filter_map(|h| h.spec()))),
                handlers: &handlers,
                http: &setup.http,
                http_client: &self.state.http_client,
                env_settings: &setup.env,
                trace,
            },
            plan,
            setup,
            facts: &facts,
            input,
            envs: Environments::with_session_env(setup, event, &facts, input, plan, &self.session_env()),
            env_files: env_files.as_ref(),
        };
        let mut reports = Vec::with_capacity(plan.hooks.len());
        // The event's own hooks (and callback hooks) first; the hooks
        // configured under another event of their dialect that run as part
        // of this one start after them, unless the event is blocked by
        // then; their matchers test, and they read, the rewrite in force.
        let stages = [0..plan.first_stage, plan.first_stage..plan.hooks.len()];
        for (n, stage) in stages.into_iter().enumerate() {
            if stage.is_empty() {
                continue;
            }
            if n > 0 && interp.blocked() {
                break;
            }
            let rewrite = if n > 0 { interp.rewrite_in_force().cloned() } else { None };
            let stage: Vec<usize> = if n > 0 { ctx.later_matching(stage, rewrite.as_ref()) } else { stage.collect() };
            if !stage.is_empty() && self.run_stage(&ctx, &stage, rewrite.as_ref(), interp, token, &mut reports)? {
                break;
            }
        }
        if let Some(files) = &env_files {
            interp.set_env(files.collect());
        }
        Ok(reports)
    }

    /// Run the hooks `stage` of the plan (one after another with an early
    /// stop where the rules run the event sequentially, concurrently
    /// otherwise) and merge them; true when a sequential run stopped.
    /// `rewrite`: the `tool_input` of a later stage (the rewrite in force
    /// after the earlier ones).
    fn run_stage(
        &self,
        ctx: &RunCtx<'_>,
        stage: &[usize],
        rewrite: Option<&Value>,
        interp: &mut EventInterpreter,
        token: Option<&CancelToken>,
        reports: &mut Vec<HookReport>,
    ) -> Result<bool> {
        let hooks = &ctx.plan.hooks;
        let event = ctx.stack.event;
        let run_order = ctx.plan.dialect.profile().rules_of(event).run_order;
        if run_order == RunOrder::Sequential {
            // One after another, in order; stop at the first decision.
            for &i in stage {
                let hook = hooks[i];
                cancel::check(token)?;
                let payload = self.hook_payload(ctx, hook, interp.updated_input().or(rewrite))?;
                let mut done = self.follow_up_identity(ctx, hook, ctx.run_one(i, hook, &payload)?);
                let stop = done.absorb_into(interp);
                reports.push(done.report);
                if stop {
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        if run_order == RunOrder::SequentialWhenAsked && ctx.plan.sequential_asked {
            // A group asked for it: one after another, in order, every hook
            // running, each reading the input as the hooks before it left it.
            let mut current = Cow::Borrowed(ctx.input);
            for &i in stage {
                let hook = hooks[i];
                cancel::check(token)?;
                let payload = ctx.payload_of(hook, &current, rewrite)?;
                let mut done = self.follow_up_identity(ctx, hook, ctx.run_one(i, hook, &payload)?);
                if let (Output::Ran(exec), Some(d)) = (&done.output, hook.dialect()) {
                    // The hook changed the input in its agent's vocabulary:
                    // the next hooks read it back in the canonical one.
                    let native = ctx.setup.native_input(d, &current);
                    if let Some(next) = d.chain_input(event, &native, exec) {
                        let next = ctx.canonical_chain(d, &current, next);
                        current = Cow::Owned(next);
                    }
                }
                done.absorb_into(interp);
                reports.push(done.report);
            }
            return Ok(false);
        }
        // Concurrently; merged in configuration order. Every hook reads
        // the stage's input, one payload per dialect.
        let payloads = stage.iter().map(|&i| self.hook_payload(ctx, hooks[i], rewrite)).collect::<Result<Vec<_>>>()?;
        let processes: Vec<usize> = stage.iter().copied().filter(|&i| hooks[i].runs_apart()).collect();
        let models: Vec<usize> = stage.iter().copied().filter(|&i| hooks[i].asks_the_model()).collect();
        let on_run_thread = |i: usize| !hooks[i].runs_apart() && !hooks[i].asks_the_model();
        // Each result with the moment it was ready (its completion order).
        let mut results: Vec<Option<(Result<Executed>, Instant)>> = stage.iter().map(|_| None).collect();
        // The position of plan index `i` in the stage.
        let at = |i: usize| stage.iter().position(|&j| j == i).unwrap_or_default();
        let timed = |r: Result<Executed>| (r, Instant::now());
        let places = Arc::new(Places::new(host::MODEL_HOOKS_AT_ONCE));
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            // Processes and requests run on scoped threads, except that the
            // first one runs on this thread when no callback hook or host
            // handler needs it meanwhile.
            let on_this_thread = stage.iter().any(|&i| !hooks[i].runs_apart());
            let inline = if on_this_thread { None } else { processes.first().copied() };
            for &i in processes.iter().filter(|&&i| Some(i) != inline) {
                let (payload, hook) = (&payloads[at(i)], hooks[i]);
                handles.push((i, scope.spawn(move || timed(ctx.run_one(i, hook, payload)))));
            }
            // A stage of one prompt or agent hook runs it on this thread:
            // nothing else waits meanwhile, and its handler call is made
            // where the host expects it without a relay (no thread spawned).
            if let ([only], [_]) = (models.as_slice(), stage) {
                results[at(*only)] = Some(timed(ctx.run_one(*only, hooks[*only], &payloads[at(*only)])));
            }
            // Otherwise prompt and agent hooks each wait on a thread of their
            // own, at most MODEL_HOOKS_AT_ONCE at a time (in configuration
            // order), while this thread makes their handler calls until all
            // are done.
            else if !models.is_empty() {
                let (relay, calls) = std::sync::mpsc::channel();
                for (ticket, &i) in models.iter().enumerate() {
                    let (payload, hook, relay, places) = (&payloads[at(i)], hooks[i], relay.clone(), places.clone());
                    handles.push((
                        i,
                        scope.spawn(move || {
                            let _place = Places::take(&places, ticket);
                            let next = Box::new(move || places.advance_past(ticket));
                            host::relayed(relay, next, || timed(ctx.run_one(i, hook, payload)))
                        }),
                    ));
                }
                drop(relay);
                for call in calls {
                    host::Relayed::serve(call);
                }
            }
            if let Some(first) = inline {
                results[at(first)] = Some(timed(ctx.run_one(first, hooks[first], &payloads[at(first)])));
            }
            for &i in stage {
                if on_run_thread(i) {
                    results[at(i)] = Some(timed(ctx.run_one(i, hooks[i], &payloads[at(i)])));
                }
            }
            for (i, h) in handles {
                results[at(i)] =
                    Some(h.join().unwrap_or_else(|_| timed(Err(Error::new(Status::Panic, "hook thread panicked")))));
            }
        });
        // The completion place of each result (ties: configuration order),
        // after every hook of an earlier stage (which finished before).
        let start = stage.first().copied().unwrap_or_default();
        let mut by_completion: Vec<(Instant, usize)> =
            results.iter().enumerate().filter_map(|(k, r)| r.as_ref().map(|(_, t)| (*t, k))).collect();
        by_completion.sort();
        let mut place = vec![0; results.len()];
        for (n, (_, k)) in by_completion.into_iter().enumerate() {
            place[k] = start + n;
        }
        let mut cancelled = false;
        let mut failed = None;
        for (k, (&i, (r, _))) in stage.iter().zip(results).enumerate().filter_map(|(k, (i, r))| r.map(|r| (k, (i, r))))
        {
            match r {
                Ok(done) if !cancelled && failed.is_none() => {
                    let mut done = self.follow_up_identity(ctx, hooks[i], done);
                    interp.set_finished(place[k]);
                    done.absorb_into(interp);
                    reports.push(done.report);
                }
                // The run ends without reading it: its span ends all the same.
                Ok(mut done) => done.abandon(),
                Err(e) if e.status == Status::Cancelled => cancelled = true,
                Err(e) => failed = failed.or(Some(e)),
            }
        }
        if let Some(e) = failed {
            return Err(e);
        }
        if cancelled {
            return Err(cancelled_error());
        }
        cancel::check(token)?;
        Ok(false)
    }

    /// The payload `hook` reads, with `tool_input` the rewrite in force.
    /// Where its rules count follow-ups and the input has no `loop_count`,
    /// the engine's count of the follow-ups the hook has triggered in the
    /// session is the payload's `loop_count`.
    fn hook_payload(&self, ctx: &RunCtx<'_>, hook: Hook<'_>, tool_input: Option<&Value>) -> Result<Payload> {
        let counted = hook.spec().filter(|spec| {
            spec.dialect().profile().rules_of(ctx.stack.event).follow_up_loop_limit
                && !ctx.input.contains_key("loop_count")
        });
        match counted {
            None => ctx.payload(hook, tool_input),
            Some(spec) => {
                let scope = crate::merge::follow_up::scope(ctx.stack.event, ctx.facts.session_id, ctx.input);
                let count = self.state.follow_ups.count(&scope, &spec.identity());
                let mut input = ctx.input.clone();
                input.insert("loop_count".to_owned(), Value::from(count));
                ctx.payload_of(hook, &input, tool_input)
            }
        }
    }

    /// Name the hook among the session's follow-up counts where its rules
    /// count follow-ups.
    fn follow_up_identity(&self, ctx: &RunCtx<'_>, hook: Hook<'_>, mut done: Executed) -> Executed {
        if let Some(spec) = hook.spec() {
            if spec.dialect().profile().rules_of(ctx.stack.event).follow_up_loop_limit {
                done.identity = Some(spec.identity());
            }
        }
        done
    }
}

/// What a run's hooks run under: its cancellation token and its trace.
struct RunScope<'a> {
    token: Option<&'a CancelToken>,
    trace: Option<&'a Arc<RunContext>>,
}

/// The outcome JSON of a run: the outcome's, or the event's empty one.
pub(crate) fn outcome_json(setup: &Setup, event: &RunEvent, outcome: Option<HookOutcome>) -> Result<String> {
    match (outcome, event) {
        (Some(outcome), _) => outcome.to_json_string(),
        (None, RunEvent::Known(e)) => Ok(empty_outcome_json(setup.config.dialect(), *e)?.to_owned()),
        (None, named) => empty_outcome(setup.config.dialect(), named).to_json_string(),
    }
}

/// At most `n` hooks at a time, started in the order of their tickets
/// (0, 1, …): a hook waits until a place is free and the hook of every
/// earlier ticket has gone ahead ([`Places::advance_past`]: its handler call
/// is on its way, or it has ended).
struct Places {
    /// (free places, the next ticket to start)
    state: std::sync::Mutex<(usize, usize)>,
    changed: std::sync::Condvar,
}

/// A place taken; freed (and its ticket gone ahead) when dropped.
struct Place {
    places: Arc<Places>,
    ticket: usize,
}

impl Places {
    fn new(n: usize) -> Places {
        Places { state: std::sync::Mutex::new((n, 0)), changed: std::sync::Condvar::new() }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (usize, usize)> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Wait for `ticket`'s turn and a free place.
    fn take(places: &Arc<Places>, ticket: usize) -> Place {
        let mut s = places.lock();
        while !(s.0 > 0 && s.1 == ticket) {
            s = places.changed.wait(s).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        s.0 -= 1;
        Place { places: places.clone(), ticket }
    }

    /// `ticket`'s hook has gone ahead: the next ticket's turn (once).
    fn advance_past(&self, ticket: usize) {
        let mut s = self.lock();
        if s.1 == ticket {
            s.1 += 1;
            self.changed.notify_all();
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.places.advance_past(self.ticket);
        self.places.lock().0 += 1;
        self.places.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_start_in_ticket_order_and_never_more_than_n_at_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let places = Arc::new(Places::new(3));
        let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let order = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for ticket in (0..10).rev() {
                let (places, now, most, order) = (&places, &now, &most, &order);
                s.spawn(move || {
                    let _place = Places::take(places, ticket);
                    order.lock().unwrap().push(ticket);
                    places.advance_past(ticket);
                    let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(n, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    now.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        assert_eq!(*order.lock().unwrap(), (0..10).collect::<Vec<_>>());
        assert_eq!(most.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn empty_outcomes_exist_for_every_dialect_and_event() {
        for d in crate::dialect::ALL {
            for e in HookEvent::ALL {
                let text = empty_outcome_json(*d, e).unwrap();
                assert!(text.starts_with('{') && text.contains("\"hooks\":[]"), "{} {e}: {text}", d.name());
            }
        }
    }
}
