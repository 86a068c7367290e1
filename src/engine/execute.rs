//! Executing a plan: the hooks of one run in their order (one after another
//! with an early stop for decision events, concurrently otherwise), the
//! approval check before every spawn, the record of each executed hook, and
//! its report (the running rules are in `docs/protocol.md`).
//!
//! Threading: a synchronous run executes on the calling thread, and so do
//! its callback hooks; commands of a concurrent event run on scoped threads.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value};

use super::options::Setup;
use super::plan::{CallbackHook, Plan, Planned, RunEvent};
use super::runs::ReservedRun;
use super::LifecycleHookEngine;
use crate::callback::invoke;
use crate::config::CommandHook;
use crate::envfile::EnvFiles;
use crate::error::{Error, Result, Status};
use crate::event::HookEvent;
use crate::interpret::{EventInterpreter, HookExecution, HookOutcome, HookReport};
use crate::payload::{self, InputRules, SessionFacts};
use crate::profile::{EventRules, Profile, RunOrder, CLAUDE, VT_CODE};
use crate::runner::{self, CancelToken, CommandSpec, Environment};
use crate::runtime;

/// What executing one planned hook gave.
pub(crate) enum Executed {
    /// The approval gate did not let the command run.
    NotApproved { command: String, status_message: Option<String> },
    /// The command could not be started.
    SpawnFailed { command: String, error: String, duration_ms: f64, fail_closed: bool, status_message: Option<String> },
    /// The command ran to an exit, a signal or its timeout.
    Command {
        exec: HookExecution,
        duration_ms: f64,
        stdout_truncated: bool,
        stderr_truncated: bool,
        fail_closed: bool,
        status_message: Option<String>,
    },
    /// A callback hook returned (its result read as a command's).
    Callback { exec: HookExecution, duration_ms: f64 },
}

impl Executed {
    /// The hook's entry in the outcome's `hooks` report (the one place a
    /// report is built from an execution).
    pub(crate) fn report(&self) -> HookReport {
        match self {
            Executed::NotApproved { command, status_message } => {
                HookReport { status_message: status_message.clone(), ..HookReport::not_approved(command) }
            }
            Executed::SpawnFailed { command, duration_ms, status_message, .. } => HookReport {
                duration_ms: *duration_ms,
                status_message: status_message.clone(),
                ..HookReport::command(command)
            },
            Executed::Command { exec, duration_ms, stdout_truncated, stderr_truncated, status_message, .. } => {
                HookReport {
                    exit_code: exec.exit_code,
                    signal: exec.signal,
                    timed_out: exec.timed_out,
                    duration_ms: *duration_ms,
                    stdout_truncated: *stdout_truncated,
                    stderr_truncated: *stderr_truncated,
                    status_message: status_message.clone(),
                    ..HookReport::command(&exec.label)
                }
            }
            Executed::Callback { exec, duration_ms } => {
                HookReport::callback(&exec.label, exec.exit_code.unwrap_or(1), *duration_ms)
            }
        }
    }

    /// Feed the result to the interpreter; true when a decision event must stop.
    pub(crate) fn absorb_into(&self, interp: &mut EventInterpreter) -> bool {
        match self {
            Executed::NotApproved { command, .. } => {
                interp.absorb_not_approved(command);
                false
            }
            Executed::SpawnFailed { command, error, fail_closed, .. } => {
                interp.absorb_spawn_failure(command, error, *fail_closed)
            }
            Executed::Command { exec, fail_closed, .. } => interp.absorb_hook(exec, *fail_closed),
            Executed::Callback { exec, .. } => interp.absorb(exec),
        }
    }
}

pub(crate) fn cancelled_error() -> Error {
    Error::new(Status::Cancelled, "the run was cancelled")
}

/// The outcome of an event when no hook ran, in `profile`'s shape.
pub(crate) fn empty_outcome(profile: &'static Profile, event: &RunEvent) -> HookOutcome {
    interpreter(profile, event, false).finish(Vec::new())
}

/// A fresh interpreter of `event` with `profile`'s rules.
pub(crate) fn interpreter(profile: &'static Profile, event: &RunEvent, quiet: bool) -> EventInterpreter {
    match event {
        RunEvent::Known(e) => EventInterpreter::with_profile(*e, profile, quiet),
        RunEvent::Named(name) => EventInterpreter::named(name, profile, quiet),
    }
}

/// The rules of `event` in `profile`.
pub(crate) fn rules_of(profile: &'static Profile, event: &RunEvent) -> &'static EventRules {
    match event {
        RunEvent::Known(e) => profile.rules(*e),
        RunEvent::Named(_) => &profile.unknown_event,
    }
}

/// The outcome JSON of a known event when no hook ran (constant per event
/// and profile).
pub(super) fn empty_outcome_json(profile: &'static Profile, event: HookEvent) -> &'static str {
    static EMPTY: std::sync::OnceLock<[Vec<String>; 2]> = std::sync::OnceLock::new();
    let all = EMPTY.get_or_init(|| {
        [&VT_CODE, &CLAUDE]
            .map(|p| HookEvent::ALL.iter().map(|e| empty_outcome(p, &RunEvent::Known(*e)).to_json_string()).collect())
    });
    let which = if std::ptr::eq(profile, &CLAUDE) { 1 } else { 0 };
    &all[which][event.index()]
}

/// The input rules of a setup: its profile's, except that an engine
/// without configured hooks validates leniently (like the Claude Code
/// profile).
pub(crate) fn input_rules(setup: &Setup) -> InputRules {
    if setup.config.is_empty() {
        InputRules::Lenient
    } else {
        setup.config.profile().inputs
    }
}

/// Validate an input for `event` under the setup's rules.
pub(crate) fn validate(setup: &Setup, event: &RunEvent, input: &Value) -> Result<()> {
    match event {
        RunEvent::Known(e) => payload::validate_input_with(input_rules(setup), *e, input),
        RunEvent::Named(name) => {
            if input.is_object() {
                Ok(())
            } else {
                Err(Error::invalid_argument(format!("{name} input must be a JSON object")))
            }
        }
    }
}

/// The event of an event name: one of the twelve by its PascalCase name,
/// else a named event. A blank name or one with NUL is refused.
pub(crate) fn run_event_named(name: &str) -> Result<RunEvent> {
    if name.trim().is_empty() || name.contains('\0') {
        return Err(Error::invalid_argument("event name must be non-empty, without NUL characters"));
    }
    Ok(match HookEvent::from_name(name) {
        Some(e) => RunEvent::Known(e),
        None => RunEvent::Named(Arc::from(name)),
    })
}

/// Where a run's cancellation token comes from (see
/// [`LifecycleHookEngine::execute`]).
pub(crate) enum RunToken<'a> {
    /// A synchronous run: registers a token when it spawns commands.
    Sync,
    /// An asynchronous run's token.
    Async(&'a CancelToken),
    /// A reserved run: its reservation makes the token on first need.
    Reserved(&'a ReservedRun<'a>),
}

/// The blocking rule: a blocking run on a hookline-owned thread (inside an
/// asynchronous run's callback hook or `done`) could wait on the very
/// threads it occupies, so it is refused there.
pub(super) fn check_blocking_allowed() -> Result<()> {
    if runtime::on_hookline_thread() {
        return Err(Error::new(
            Status::WrongThread,
            "a blocking run (hl_engine_run) cannot be made on a hookline thread; use the asynchronous run (hl_engine_run_async)",
        ));
    }
    Ok(())
}

impl LifecycleHookEngine {
    /// Run one event synchronously on the calling thread (callback hooks run
    /// on this thread too). `input` is the event input (`docs/protocol.md`).
    /// `Err(WrongThread)` on a hookline-owned thread: use
    /// [`run_async`](Self::run_async) there.
    pub fn run_blocking(&self, event: HookEvent, input: &Value) -> Result<HookOutcome> {
        self.run_event_blocking(&RunEvent::Known(event), input)
    }

    /// [`run_blocking`](Self::run_blocking) returning the outcome as JSON
    /// text (what `hl_engine_run` hands out). When no hook matches — the
    /// common case on the path of every tool call — the outcome is a
    /// constant per event, served without building it again.
    pub fn run_blocking_json(&self, event: HookEvent, input: &Value) -> Result<String> {
        self.run_event_blocking_json(&RunEvent::Known(event), input)
    }

    /// Fire an event by its config key, synchronously (`hl_engine_run_named`):
    /// a known event's name runs it with its rules; any other name runs that
    /// key's configured hooks with the profile's rules for unknown events
    /// (observer rules). The matcher of a named event is tested against the
    /// input's `matcher_value`, if any.
    pub fn run_named_blocking(&self, name: &str, input: &Value) -> Result<HookOutcome> {
        self.run_event_blocking(&run_event_named(name)?, input)
    }

    /// [`run_named_blocking`](Self::run_named_blocking) returning JSON text.
    pub fn run_named_blocking_json(&self, name: &str, input: &Value) -> Result<String> {
        self.run_event_blocking_json(&run_event_named(name)?, input)
    }

    fn run_event_blocking(&self, event: &RunEvent, input: &Value) -> Result<HookOutcome> {
        check_blocking_allowed()?;
        self.check_usable()?;
        let setup = self.setup();
        validate(&setup, event, input)?;
        Ok(self.execute(event, input, RunToken::Sync)?.unwrap_or_else(|| empty_outcome(setup.config.profile(), event)))
    }

    fn run_event_blocking_json(&self, event: &RunEvent, input: &Value) -> Result<String> {
        check_blocking_allowed()?;
        self.check_usable()?;
        let setup = self.setup();
        validate(&setup, event, input)?;
        Ok(match (self.execute(event, input, RunToken::Sync)?, event) {
            (Some(outcome), _) => outcome.to_json_string(),
            (None, RunEvent::Known(e)) => empty_outcome_json(setup.config.profile(), *e).to_string(),
            (None, named) => empty_outcome(setup.config.profile(), named).to_json_string(),
        })
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
        let event = RunEvent::Known(event);
        validate(&setup, &event, input)?;
        // Something from `async` hooks waiting for this outcome, or `async`
        // hooks to start, make it a real run.
        if self.has_deliveries() {
            return Ok(None);
        }
        let callbacks = self.callbacks();
        let plan = Plan::new(&setup, &callbacks, &event, input);
        match event {
            RunEvent::Known(e) if plan.is_empty() && plan.background.is_empty() => {
                Ok(Some(empty_outcome_json(setup.config.profile(), e)))
            }
            _ => Ok(None),
        }
    }

    /// The core of every run: plan (match once), then execute and interpret.
    /// `None` when no hook matched and nothing from `async` hooks is waiting
    /// (the outcome is the event's empty one).
    /// `how` says where the run's cancellation token comes from: an
    /// asynchronous run's own; a synchronous run that spawns commands
    /// registers one, so that closing the engine kills them; a reserved run
    /// makes its reservation's token now (only when a hook is to run, so
    /// that a no-match run costs no system call for it).
    pub(crate) fn execute(&self, event: &RunEvent, input: &Value, how: RunToken<'_>) -> Result<Option<HookOutcome>> {
        let setup = self.setup();
        let callbacks = self.callbacks();
        let plan = Plan::new(&setup, &callbacks, event, input);
        let input = match input {
            Value::Object(m) => m,
            _ => return Err(Error::invalid_argument(format!("{} input must be a JSON object", event.name()))),
        };
        if !plan.background.is_empty() {
            self.start_background(&setup, event, input, &plan.background);
        }
        if plan.is_empty() && !self.has_deliveries() {
            return Ok(None);
        }
        let profile = setup.config.profile();
        let mut interp = interpreter(profile, event, setup.config.quiet_success_output());
        self.deliver(&mut interp);
        if plan.is_empty() {
            return Ok(Some(interp.finish(Vec::new())));
        }
        let sync_run;
        let reserved_token;
        let token = match how {
            RunToken::Async(token) => Some(token),
            RunToken::Sync => {
                sync_run = if plan.has_commands() { Some(self.track_sync_run()?) } else { None };
                sync_run.as_ref().map(|r| &r.token)
            }
            RunToken::Reserved(run) => {
                reserved_token = run.token()?;
                Some(&reserved_token)
            }
        };
        let reports = self.execute_plan(event, &setup, input, &plan, &mut interp, token)?;
        Ok(Some(interp.finish(reports)))
    }

    fn execute_plan(
        &self,
        event: &RunEvent,
        setup: &Setup,
        input: &Map<String, Value>,
        plan: &Plan<'_>,
        interp: &mut EventInterpreter,
        token: Option<&CancelToken>,
    ) -> Result<Vec<HookReport>> {
        let transcript = self.transcript_path_arc();
        let facts = SessionFacts {
            session_id: &setup.session_id,
            cwd: &setup.workspace_str,
            transcript_path: transcript.as_deref(),
            trigger: setup.trigger,
        };
        let env = if plan.has_commands() {
            payload::hook_environment_named(&setup.env, event.name(), &facts)
        } else {
            Environment::new()
        };
        let profile = setup.config.profile();
        // SessionStart in profiles with CLAUDE_ENV_FILE: one private file per hook.
        let env_files = match event {
            RunEvent::Known(HookEvent::SessionStart) if profile.session_start_env_file && plan.has_commands() => {
                match EnvFiles::create(plan.hooks.len()) {
                    Ok(files) => Some(files),
                    Err(e) => {
                        crate::hl_warn!("cannot create CLAUDE_ENV_FILE files: {e}");
                        None
                    }
                }
            }
            _ => None,
        };
        let ctx = RunCtx { engine: self, event: event.clone(), setup, env: &env, env_files: env_files.as_ref(), token };
        let payload_of = |tool_input: Option<&Value>| match event {
            RunEvent::Known(e) => payload::build_payload(*e, &facts, input, tool_input),
            RunEvent::Named(name) => payload::build_named_payload(name, &facts, input),
        };
        let hooks = &plan.hooks;
        let mut reports = Vec::with_capacity(hooks.len());
        if rules_of(profile, event).run_order == RunOrder::Sequential {
            // One after another, in order; stop at the first decision.
            for (i, hook) in hooks.iter().enumerate() {
                ctx.check_cancelled()?;
                let payload = payload_of(interp.updated_input());
                let done = ctx.run_one(i, hook, &payload)?;
                reports.push(done.report());
                if done.absorb_into(interp) {
                    break;
                }
            }
        } else {
            // Concurrently; merged in configuration order.
            let payload = payload_of(None);
            let payload_text = payload::payload_bytes(&payload);
            let commands: Vec<usize> =
                hooks.iter().enumerate().filter(|(_, p)| p.is_command()).map(|(i, _)| i).collect();
            let mut results: Vec<Option<Result<Executed>>> = (0..hooks.len()).map(|_| None).collect();
            std::thread::scope(|scope| {
                let mut handles = Vec::new();
                // Commands run on scoped threads, except that the first one runs
                // on this thread when no callback hook needs it meanwhile.
                let inline = if plan.has_callbacks() { None } else { commands.first().copied() };
                for &i in commands.iter().filter(|&&i| Some(i) != inline) {
                    let ctx = &ctx;
                    let payload_text = &payload_text;
                    let hook = &hooks[i];
                    handles.push((i, scope.spawn(move || ctx.run_one_bytes(i, hook, payload_text))));
                }
                if let Some(first) = inline {
                    results[first] = Some(ctx.run_one_bytes(first, &hooks[first], &payload_text));
                }
                for (i, hook) in hooks.iter().enumerate() {
                    if !hook.is_command() {
                        results[i] = Some(ctx.run_one(i, hook, &payload));
                    }
                }
                for (i, h) in handles {
                    results[i] =
                        Some(h.join().unwrap_or_else(|_| Err(Error::new(Status::Panic, "hook thread panicked"))));
                }
            });
            let mut cancelled = false;
            for r in results.into_iter().flatten() {
                match r {
                    Ok(done) => {
                        reports.push(done.report());
                        done.absorb_into(interp);
                    }
                    Err(e) if e.status == Status::Cancelled => cancelled = true,
                    Err(e) => return Err(e),
                }
            }
            if cancelled {
                return Err(cancelled_error());
            }
            ctx.check_cancelled()?;
        }
        if let Some(files) = &env_files {
            interp.set_env(files.collect());
        }
        Ok(reports)
    }
}

/// What one run shares between the hooks it executes.
pub(crate) struct RunCtx<'a> {
    pub(crate) engine: &'a LifecycleHookEngine,
    pub(crate) event: RunEvent,
    pub(crate) setup: &'a Setup,
    pub(crate) env: &'a Environment,
    /// SessionStart's `CLAUDE_ENV_FILE` files, by plan index.
    pub(crate) env_files: Option<&'a EnvFiles>,
    pub(crate) token: Option<&'a CancelToken>,
}

impl RunCtx<'_> {
    fn check_cancelled(&self) -> Result<()> {
        if self.token.is_some_and(|t| t.is_cancelled()) {
            Err(cancelled_error())
        } else {
            Ok(())
        }
    }

    fn run_one(&self, i: usize, hook: &Planned<'_>, payload: &Map<String, Value>) -> Result<Executed> {
        match hook {
            Planned::Command(cmd) => self.run_command(i, cmd, &payload::payload_bytes(payload)),
            Planned::Callback(cb) => {
                let text = serde_json::to_string(payload).unwrap_or_else(|_| "{}".into());
                self.run_callback(cb, &text)
            }
        }
    }

    fn run_one_bytes(&self, i: usize, hook: &Planned<'_>, payload: &[u8]) -> Result<Executed> {
        match hook {
            Planned::Command(cmd) => self.run_command(i, cmd, payload),
            Planned::Callback(cb) => {
                let text = std::str::from_utf8(payload).unwrap_or("{}").trim_end();
                self.run_callback(cb, text)
            }
        }
    }

    /// The environment of one command: the run's, plus its source's
    /// `CLAUDE_PLUGIN_ROOT` and its SessionStart `CLAUDE_ENV_FILE`.
    fn env_of(&self, i: usize, hook: &CommandHook) -> std::io::Result<Cow<'_, Environment>> {
        let mut env = Cow::Borrowed(self.env);
        if let Some(root) = &hook.plugin_root {
            env = Cow::Owned(env.with_var(OsStr::new("CLAUDE_PLUGIN_ROOT"), OsStr::new(&**root))?);
        }
        if let Some(path) = self.env_files.and_then(|f| f.path(i)) {
            env = Cow::Owned(env.with_var(OsStr::new("CLAUDE_ENV_FILE"), path.as_os_str())?);
        }
        Ok(env)
    }

    pub(crate) fn run_command(&self, i: usize, hook: &CommandHook, payload: &[u8]) -> Result<Executed> {
        // The gate: checked before every spawn, against the digest of the
        // command set this run is executing. Commands of trusted sources are
        // not part of it and always run.
        if !hook.trusted && !self.engine.approval().allows(&self.setup.commands) {
            return Ok(Executed::NotApproved {
                command: hook.command.clone(),
                status_message: hook.status_message.clone(),
            });
        }
        self.check_cancelled()?;
        let started = Instant::now();
        let ran = self.env_of(i, hook).and_then(|env| {
            let spec = CommandSpec {
                command: &hook.command,
                cwd: &self.setup.workspace,
                env: &env,
                stdin: payload,
                timeout: hook.timeout(),
                max_output_bytes: self.setup.max_output_bytes,
            };
            runner::run_command(&spec, self.token)
        });
        match ran {
            Err(e) => Ok(Executed::SpawnFailed {
                command: hook.command.clone(),
                error: e.to_string(),
                duration_ms: started.elapsed().as_secs_f64() * 1000.0,
                fail_closed: hook.fail_closed,
                status_message: hook.status_message.clone(),
            }),
            Ok(out) if out.cancelled => Err(cancelled_error()),
            Ok(out) => Ok(Executed::Command {
                duration_ms: out.duration.as_secs_f64() * 1000.0,
                stdout_truncated: out.stdout_truncated,
                stderr_truncated: out.stderr_truncated,
                fail_closed: hook.fail_closed,
                status_message: hook.status_message.clone(),
                exec: HookExecution {
                    label: hook.command.clone(),
                    exit_code: out.exit_code,
                    signal: out.signal,
                    timed_out: out.timed_out,
                    timeout_seconds: hook.timeout().as_secs(),
                    stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                    stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                },
            }),
        }
    }

    /// A callback hook's result reads like a command's (the mapping is
    /// [`HookExecution::from_callback`]).
    fn run_callback(&self, cb: &CallbackHook, payload: &str) -> Result<Executed> {
        let started = Instant::now();
        let result = invoke(cb.callback.as_ref(), payload);
        let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
        let event = self.event.known().unwrap_or(cb.event);
        let exec = HookExecution::from_callback(event, &cb.name, &result);
        self.check_cancelled()?;
        Ok(Executed::Callback { exec, duration_ms })
    }
}
