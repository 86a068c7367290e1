//! Executing a plan: the hooks of one run in their order (one after another
//! with an early stop for decision events, concurrently otherwise), the
//! approval check before every spawn, the record of each executed hook, and
//! its report (the running rules are in `docs/protocol.md`).
//!
//! Threading: a synchronous run executes on the calling thread, and so do
//! its callback hooks; commands of a concurrent event run on scoped threads.

use std::ffi::OsString;
use std::time::Instant;

use serde_json::{Map, Value};

use super::options::Setup;
use super::plan::{CallbackHook, Plan, Planned};
use super::LifecycleHookEngine;
use crate::callback::invoke;
use crate::config::CommandHook;
use crate::error::{Error, Result, Status};
use crate::event::HookEvent;
use crate::interpret::{EventInterpreter, HookExecution, HookOutcome, HookReport};
use crate::payload::{self, SessionFacts};
use crate::runner::{self, CancelToken, CommandSpec};
use crate::runtime;

/// What executing one planned hook gave.
pub(crate) enum Executed {
    /// The approval gate did not let the command run.
    NotApproved { command: String },
    /// The command could not be started.
    SpawnFailed { command: String, error: String, duration_ms: f64 },
    /// The command ran to an exit, a signal or its timeout.
    Command { exec: HookExecution, duration_ms: f64, stdout_truncated: bool, stderr_truncated: bool },
    /// A callback hook returned (its result read as a command's).
    Callback { exec: HookExecution, duration_ms: f64 },
}

impl Executed {
    /// The hook's entry in the outcome's `hooks` report (the one place a
    /// report is built from an execution).
    pub(crate) fn report(&self) -> HookReport {
        match self {
            Executed::NotApproved { command } => HookReport::not_approved(command),
            Executed::SpawnFailed { command, duration_ms, .. } => {
                HookReport { duration_ms: *duration_ms, ..HookReport::command(command) }
            }
            Executed::Command { exec, duration_ms, stdout_truncated, stderr_truncated } => HookReport {
                exit_code: exec.exit_code,
                signal: exec.signal,
                timed_out: exec.timed_out,
                duration_ms: *duration_ms,
                stdout_truncated: *stdout_truncated,
                stderr_truncated: *stderr_truncated,
                ..HookReport::command(&exec.label)
            },
            Executed::Callback { exec, duration_ms } => {
                HookReport::callback(&exec.label, exec.exit_code.unwrap_or(1), *duration_ms)
            }
        }
    }

    /// Feed the result to the interpreter; true when a decision event must stop.
    fn absorb_into(&self, interp: &mut EventInterpreter) -> bool {
        match self {
            Executed::NotApproved { command } => {
                interp.absorb_not_approved(command);
                false
            }
            Executed::SpawnFailed { command, error, .. } => {
                interp.absorb_spawn_error(command, error);
                false
            }
            Executed::Command { exec, .. } | Executed::Callback { exec, .. } => interp.absorb(exec),
        }
    }
}

pub(crate) fn cancelled_error() -> Error {
    Error::new(Status::Cancelled, "the run was cancelled")
}

/// The outcome of an event when no hook ran.
pub(crate) fn empty_outcome(event: HookEvent) -> HookOutcome {
    EventInterpreter::new(event, false).finish(Vec::new())
}

/// The outcome JSON of an event when no hook ran (constant per event).
fn empty_outcome_json(event: HookEvent) -> &'static str {
    static EMPTY: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let all = EMPTY.get_or_init(|| {
        HookEvent::ALL.iter().map(|e| empty_outcome(*e).to_json().to_string()).collect()
    });
    &all[event.index()]
}

/// The blocking rule: a blocking run on a hookline-owned thread (inside an
/// asynchronous run's callback hook or `done`) could wait on the very
/// threads it occupies, so it is refused there.
fn check_blocking_allowed() -> Result<()> {
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
        check_blocking_allowed()?;
        self.check_usable()?;
        payload::validate_input(event, input)?;
        Ok(self.execute(event, input, None)?.unwrap_or_else(|| empty_outcome(event)))
    }

    /// [`run_blocking`](Self::run_blocking) returning the outcome as JSON
    /// text (what `hl_engine_run` hands out). When no hook matches — the
    /// common case on the path of every tool call — the outcome is a
    /// constant per event, served without building it again.
    pub fn run_blocking_json(&self, event: HookEvent, input: &Value) -> Result<String> {
        check_blocking_allowed()?;
        self.check_usable()?;
        payload::validate_input(event, input)?;
        Ok(match self.execute(event, input, None)? {
            Some(outcome) => outcome.to_json_string(),
            None => empty_outcome_json(event).to_string(),
        })
    }

    /// The core of every run: plan (match once), then execute and interpret.
    /// `None` when no hook matched (the outcome is the event's empty one).
    /// `token` is an asynchronous run's; a synchronous run that spawns
    /// commands registers its own, so that closing the engine kills them.
    pub(crate) fn execute(&self, event: HookEvent, input: &Value, token: Option<&CancelToken>) -> Result<Option<HookOutcome>> {
        let setup = self.setup();
        let callbacks = self.callbacks();
        let plan = Plan::new(&setup, &callbacks, event, input);
        if plan.is_empty() {
            return Ok(None);
        }
        let input = match input {
            Value::Object(m) => m,
            _ => return Err(Error::invalid_argument(format!("{} input must be a JSON object", event.name()))),
        };
        let sync_run = if token.is_none() && plan.has_commands() { Some(self.track_sync_run()?) } else { None };
        let token = token.or(sync_run.as_ref().map(|r| &r.token));
        let mut interp = EventInterpreter::new(event, setup.config.quiet_success_output());
        let reports = self.execute_plan(event, &setup, input, &plan, &mut interp, token)?;
        Ok(Some(interp.finish(reports)))
    }

    fn execute_plan(
        &self,
        event: HookEvent,
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
        let env = if plan.has_commands() { payload::hook_environment(&setup.env, event, &facts) } else { Vec::new() };
        let ctx = RunCtx { engine: self, event, setup, env: &env, token };
        let hooks = &plan.hooks;
        let mut reports = Vec::with_capacity(hooks.len());
        if event.is_decision_event() {
            // One after another, in order; stop at the first decision.
            for hook in hooks {
                ctx.check_cancelled()?;
                let payload = payload::build_payload(event, &facts, input, interp.updated_input());
                let done = ctx.run_one(hook, &payload)?;
                reports.push(done.report());
                if done.absorb_into(interp) {
                    break;
                }
            }
            return Ok(reports);
        }
        // Concurrently; merged in configuration order.
        let payload = payload::build_payload(event, &facts, input, None);
        let payload_text = payload::payload_bytes(&payload);
        let commands: Vec<usize> = hooks.iter().enumerate().filter(|(_, p)| p.is_command()).map(|(i, _)| i).collect();
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
                handles.push((i, scope.spawn(move || ctx.run_one_bytes(hook, payload_text))));
            }
            if let Some(first) = inline {
                results[first] = Some(ctx.run_one_bytes(&hooks[first], &payload_text));
            }
            for (i, hook) in hooks.iter().enumerate() {
                if !hook.is_command() {
                    results[i] = Some(ctx.run_one(hook, &payload));
                }
            }
            for (i, h) in handles {
                results[i] = Some(h.join().unwrap_or_else(|_| Err(Error::new(Status::Panic, "hook thread panicked"))));
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
        Ok(reports)
    }
}

/// What one run shares between the hooks it executes.
struct RunCtx<'a> {
    engine: &'a LifecycleHookEngine,
    event: HookEvent,
    setup: &'a Setup,
    env: &'a [(OsString, OsString)],
    token: Option<&'a CancelToken>,
}

impl RunCtx<'_> {
    fn check_cancelled(&self) -> Result<()> {
        if self.token.is_some_and(|t| t.is_cancelled()) {
            Err(cancelled_error())
        } else {
            Ok(())
        }
    }

    fn run_one(&self, hook: &Planned<'_>, payload: &Map<String, Value>) -> Result<Executed> {
        match hook {
            Planned::Command(cmd) => self.run_command(cmd, &payload::payload_bytes(payload)),
            Planned::Callback(cb) => {
                let text = serde_json::to_string(payload).unwrap_or_else(|_| "{}".into());
                self.run_callback(cb, &text)
            }
        }
    }

    fn run_one_bytes(&self, hook: &Planned<'_>, payload: &[u8]) -> Result<Executed> {
        match hook {
            Planned::Command(cmd) => self.run_command(cmd, payload),
            Planned::Callback(cb) => {
                let text = std::str::from_utf8(payload).unwrap_or("{}").trim_end();
                self.run_callback(cb, text)
            }
        }
    }

    fn run_command(&self, hook: &CommandHook, payload: &[u8]) -> Result<Executed> {
        // The gate: checked before every spawn, against the digest of the
        // command set this run is executing.
        if !self.engine.approval().allows(&self.setup.commands) {
            return Ok(Executed::NotApproved { command: hook.command.clone() });
        }
        self.check_cancelled()?;
        let spec = CommandSpec {
            command: &hook.command,
            cwd: &self.setup.workspace,
            env: self.env,
            stdin: payload,
            timeout: hook.timeout(),
            max_output_bytes: self.setup.max_output_bytes,
        };
        let started = Instant::now();
        match runner::run_command(&spec, self.token) {
            Err(e) => Ok(Executed::SpawnFailed {
                command: hook.command.clone(),
                error: e.to_string(),
                duration_ms: started.elapsed().as_secs_f64() * 1000.0,
            }),
            Ok(out) if out.cancelled => Err(cancelled_error()),
            Ok(out) => Ok(Executed::Command {
                duration_ms: out.duration.as_secs_f64() * 1000.0,
                stdout_truncated: out.stdout_truncated,
                stderr_truncated: out.stderr_truncated,
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
        let exec = HookExecution::from_callback(self.event, &cb.name, &result);
        self.check_cancelled()?;
        Ok(Executed::Callback { exec, duration_ms })
    }
}
