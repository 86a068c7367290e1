//! The handler layer: every hook type behind one interface.
//!
//! A hook is a *handler* — a `command`, `http`, `mcp_tool`, `prompt` or
//! `agent` hook from a config, or a `callback` the host added
//! (`hl_engine_add_callback_hook`) — plus what every handler shares. A
//! handler only turns the hook's payload into a raw result
//! ([`HookExecution`]: an exit code, stdout and stderr, or what stands for
//! them: an HTTP response, a model's verdict, a failure); everything around
//! that is a layer, written once for every handler type (tower's `Layer`
//! idea), in [`layer`]:
//!
//! | layer | file | what it does |
//! |---|---|---|
//! | support | `layer/support.rs` | a handler type the dialect does not run on the event is skipped |
//! | gate | `layer/gate.rs` | a hook of an untrusted source runs only while its command set is approved and its pinned files are unchanged |
//! | url policy | `layer/url_policy.rs` | an http hook runs only when its URL is allowed |
//! | condition | `layer/condition.rs` | `if`: the hook runs only for matching tool calls |
//! | dedupe | `layer/dedupe.rs` | identical hooks of one event run once (where the dialect says so) |
//! | background | `layer/background.rs` | `async` hooks: started, not waited for |
//! | cancel | `layer/cancel.rs` | a cancelled run starts nothing more and reports `Cancelled` |
//! | timeout | `layer/timeout.rs` | the hook's effective timeout (its own, else its type's and event's default) |
//! | report | `layer/report.rs` | the hook's entry in the outcome's `hooks` list, timed |
//! | trace | `layer/trace.rs` | the hook's span, when a trace handler is set |
//!
//! The handler types: `command.rs` (the process runner), `http/` (an HTTP
//! client), `host.rs` (prompt, agent and mcp_tool: the host's handlers) and
//! `callback.rs` (host code, on the calling thread).

pub(crate) mod callback;
pub(crate) mod command;
pub mod environment;
pub mod host;
pub(crate) mod http;
pub mod layer;

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::callback::{CallResult, Reply};
use crate::config::Shell;
use crate::config::{HandlerSpec, HookSpec, HttpPolicy};
use crate::dialect::Dialect;
use crate::error::{Error, Result};
use crate::model::event::{HookEvent, RunEvent};
use crate::model::outcome::HookKind;
use crate::runner::{CancelToken, Environment};
use crate::trace::context::HookTraceContext;
use crate::trace::HookSpan;

use crate::model::execution::HookExecution;
pub(crate) use callback::CallbackHook;
pub(crate) use host::HostHandler;

/// The payload of one hook as it is handed over: compact JSON text plus
/// `\n` (a command reads the bytes on stdin, a callback the JSON text).
#[derive(Clone, Debug)]
pub struct Payload {
    text: String,
}

impl Payload {
    /// Serialise a payload. Serialising hookline's own JSON values cannot
    /// fail; if it ever did, the run fails with an internal error (a hook
    /// is never handed a made-up payload).
    pub fn new(payload: &Map<String, Value>) -> Result<Payload> {
        Self::with_newline(payload, true)
    }

    /// [`new`](Self::new), the newline after the JSON only when `newline`
    /// (Codex and Gemini CLI write the compact JSON alone).
    pub fn with_newline(payload: &Map<String, Value>, newline: bool) -> Result<Payload> {
        let mut text = Error::to_json_string(payload, "the hook payload")?;
        if newline {
            text.push('\n');
        }
        Ok(Payload { text })
    }

    /// The bytes a command reads on stdin (JSON, and `\n` unless the
    /// dialect writes none).
    pub fn as_bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// The JSON text (without the newline).
    pub fn text(&self) -> &str {
        self.text.strip_suffix('\n').unwrap_or(&self.text)
    }
}

/// Everything a handler gets for one hook.
pub(crate) struct Call<'a> {
    /// The event being run.
    pub(crate) event: &'a RunEvent,
    /// How messages name the hook ([`HandlerSpec::label`]).
    pub(crate) label: &'a str,
    /// The variables whose `${NAME}` exec-form commands substitute (the
    /// hook's dialect's; none for dialects without exec form).
    pub(crate) placeholders: &'static [&'static str],
    /// The hook's payload.
    pub(crate) payload: &'a Payload,
    /// The complete environment of a hook process.
    pub(crate) env: &'a Environment,
    /// The shell a command hook runs in (its dialect's; on Unix).
    #[cfg_attr(windows, allow(dead_code))]
    pub(crate) shell: Shell,
    /// On Windows: the shell a shell-form hook runs in, and what its
    /// `"shell": "powershell"` runs (its dialect's).
    #[cfg_attr(unix, allow(dead_code))]
    pub(crate) windows_shell: (crate::config::windows_shell::WindowsShell, crate::config::windows_shell::WindowsShell),
    /// The text the shell runs, when the dialect changes the command as
    /// written (Gemini CLI's `$GEMINI_PROJECT_DIR`, ...).
    pub(crate) command_line: Option<&'a str>,
    /// The variables the engine sets itself for this hook (its dialect's,
    /// besides the canonical `HOOKLINE_*`): a config's own variables do not
    /// replace them.
    pub(crate) reserved_env: &'static [&'static str],
    /// The working directory (the workspace).
    pub(crate) cwd: &'a Path,
    /// The hook's effective timeout ([`layer::timeout`]).
    pub(crate) timeout: Duration,
    /// Per-stream output cap.
    pub(crate) max_output_bytes: usize,
    /// The run's cancellation token.
    pub(crate) token: Option<&'a CancelToken>,
    /// The handlers the host set (prompt, agent, mcp_tool), as the run took them.
    pub(crate) handlers: &'a [Arc<HostHandler>],
    /// The engine's http hook settings.
    pub(crate) http: &'a HttpPolicy,
    /// The engine's HTTP client.
    pub(crate) http_client: &'a http::Client,
    /// The engine's `env` and `env_remove` (what http headers interpolate).
    pub(crate) env_settings: &'a crate::config::env_policy::EnvSettings,
    /// The trace context to hand on when the run is traced: a command gets
    /// it as `TRACEPARENT` / `TRACESTATE`
    /// ([`environment::with_trace_context`]), a handler that sends a
    /// request as the `traceparent` / `tracestate` headers. `None` when no
    /// trace handler is set.
    pub(crate) trace: Option<&'a HookTraceContext>,
    /// Whether the hook's source is trusted (which environment policy
    /// applies: `hook_env`, or `untrusted_hook_env` over it).
    pub(crate) trusted: bool,
}

/// What a handler's call gave (returned once per hook and taken apart at
/// once: the size of its one big variant costs nothing worth a box).
#[allow(clippy::large_enum_variant)]
pub(crate) enum Ran {
    /// It ran to an answer, an exit, a signal or its timeout.
    Done { exec: HookExecution, duration: Duration, stdout_truncated: bool, stderr_truncated: bool },
    /// The run was cancelled while it ran.
    Cancelled,
}

/// One handler type: turns a hook's payload into a raw result. Everything
/// around the call (gate, timeout, cancellation, report, fail closed) is a
/// layer ([`layer`]). `Err` means the handler could not be started (a
/// `spawn` failure).
pub(crate) trait Handler {
    fn call(&self, call: &Call<'_>) -> io::Result<Ran>;
}

impl Handler for HandlerSpec {
    fn call(&self, call: &Call<'_>) -> io::Result<Ran> {
        match self {
            HandlerSpec::Command { command, args, shell, launch } => {
                command::run(command, args.as_deref(), *shell, launch, call)
            }
            HandlerSpec::Http { url, headers, allowed_env_vars } => {
                http::run(&http::HttpHook { url, headers, allowed_env_vars }, call)
            }
            HandlerSpec::McpTool { .. } => Ok(host::run(self, host::HandlerType::McpTool, call)),
            HandlerSpec::Prompt { .. } => Ok(host::run(self, host::HandlerType::Prompt, call)),
            HandlerSpec::Agent { .. } => Ok(host::run(self, host::HandlerType::Agent, call)),
        }
    }
}

impl Handler for Arc<CallbackHook> {
    fn call(&self, call: &Call<'_>) -> io::Result<Ran> {
        Ok(callback::run(self, call))
    }
}

/// A hook selected to run: a configured one, or a callback hook.
#[derive(Clone, Copy)]
pub(crate) enum Hook<'a> {
    Configured(&'a HookSpec),
    Callback(&'a Arc<CallbackHook>),
}

impl<'a> Hook<'a> {
    /// The handler that runs it.
    pub(crate) fn handler(&self) -> &'a dyn Handler {
        match self {
            Hook::Configured(spec) => &spec.handler,
            Hook::Callback(cb) => *cb,
        }
    }

    /// The report's `kind`.
    pub(crate) fn kind(&self) -> HookKind {
        match self {
            Hook::Configured(spec) => spec.handler.kind(),
            Hook::Callback(_) => HookKind::Callback,
        }
    }

    /// How messages and reports name it.
    pub(crate) fn label(&self) -> String {
        match self {
            Hook::Configured(spec) => spec.label(),
            Hook::Callback(cb) => cb.name.clone(),
        }
    }

    /// The span attribute that holds its label (`hook.command`, `hook.name`, …).
    pub(crate) fn label_attribute(&self) -> &'static str {
        match self {
            Hook::Configured(spec) => spec.handler.label_attribute(),
            Hook::Callback(_) => "hook.name",
        }
    }

    /// Whether it runs as a process (needs the environment).
    pub(crate) fn is_process(&self) -> bool {
        matches!(self, Hook::Configured(spec) if spec.handler.is_process())
    }

    /// Whether it waits on I/O of its own (a process, a request): in a
    /// concurrent event it runs on its own thread. Callback hooks and the
    /// host's handlers run on the run's thread.
    pub(crate) fn runs_apart(&self) -> bool {
        matches!(self, Hook::Configured(spec) if spec.handler.runs_apart())
    }

    /// Whether it is a prompt or agent hook (the host's model answers it):
    /// in a concurrent event it waits on its own thread, its handler called
    /// by the run's thread, at most
    /// [`host::MODEL_HOOKS_AT_ONCE`](crate::handler::host::MODEL_HOOKS_AT_ONCE)
    /// at a time.
    pub(crate) fn asks_the_model(&self) -> bool {
        matches!(self, Hook::Configured(spec) if matches!(spec.handler.kind(), HookKind::Prompt | HookKind::Agent))
    }

    /// Whether a cancel must reach it while it runs (every configured hook:
    /// a process is killed, a request or a deferred answer abandoned).
    pub(crate) fn cancellable(&self) -> bool {
        matches!(self, Hook::Configured(_))
    }

    /// The configured hook, if it is one.
    pub(crate) fn spec(&self) -> Option<&'a HookSpec> {
        match self {
            Hook::Configured(spec) => Some(spec),
            Hook::Callback(_) => None,
        }
    }

    /// The dialect that reads its result (`None`: the run's, for callback hooks).
    pub(crate) fn dialect(&self) -> Option<&'static dyn Dialect> {
        self.spec().map(HookSpec::dialect)
    }
}

impl HookExecution {
    /// The result of a callback hook, read as a command's:
    /// return 0 → exit 0, otherwise exit 1 (`hl_reply_fail(reason)`: exit 1
    /// with the reason as stderr, whatever it returned); a JSON reply is the stdout (a
    /// JSON string reply is the plain text it holds); `hl_reply_deny(msg)` →
    /// exit 2 with `msg` as stderr whatever the callback returned;
    /// `hl_reply_allow` → `permissionDecision: "allow"` on PreToolUse and
    /// nothing elsewhere.
    pub fn from_callback(event: HookEvent, name: &str, result: &CallResult) -> HookExecution {
        let mut exec = HookExecution {
            label: name.to_owned(),
            exit_code: Some(if result.is_failure() { 1 } else { 0 }),
            ..HookExecution::default()
        };
        match &result.reply {
            Reply::NoOpinion | Reply::Deferred(_) => {}
            Reply::Failed(reason) => exec.stderr = reason.clone(),
            Reply::Allow => {
                if event == HookEvent::PreToolUse {
                    exec.stdout = ALLOW_REPLY_STDOUT.to_owned();
                }
            }
            Reply::Deny(message) => {
                exec.exit_code = Some(2);
                exec.stderr = message.clone();
            }
            Reply::Json(Value::String(text)) => exec.stdout = text.clone(),
            Reply::Json(value) => exec.stdout = value.to_string(),
        }
        exec
    }
}

/// What `hl_reply_allow` reads as on PreToolUse: the stdout of a command
/// hook that allows.
const ALLOW_REPLY_STDOUT: &str =
    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;

/// What one hook gave through the layers, ready to be read and reported.
pub(crate) struct Executed {
    /// How messages name the hook.
    pub(crate) label: String,
    /// Its entry in the outcome's `hooks` report (the failure kind is
    /// filled in when the result is read).
    pub(crate) report: crate::model::outcome::HookReport,
    /// What happened.
    pub(crate) output: Output,
    /// `failClosed`.
    pub(crate) fail_closed: bool,
    /// Whether it comes from a policy source: it fails closed too (a
    /// timeout only where its dialect says so:
    /// [`Dialect::policy_timeouts_fail_open`]).
    pub(crate) policy: bool,
    /// The dialect that reads it (`None`: the run's).
    pub(crate) dialect: Option<&'static dyn Dialect>,
    /// `quiet_success_output` of its source (callback hooks: the run's).
    pub(crate) quiet: Option<bool>,
    /// The dialect's own event it is configured under, when it runs as part
    /// of another event ([`HookSpec::native_event`]).
    pub(crate) native_event: Option<&'static str>,
    /// Its `loop_limit` ([`HookSpec::loop_limit`]).
    pub(crate) loop_limit: Option<u64>,
    /// What identifies it among the session's follow-up counts (set by the
    /// executor where the rules count follow-ups).
    pub(crate) identity: Option<String>,
    /// Its span, when the run is traced: ended once the result is read.
    pub(crate) span: Option<HookSpan>,
}

/// What happened to one hook.
pub(crate) enum Output {
    /// The workspace gate did not let it run.
    NotApproved,
    /// The workspace gate did not let it run: a file it executes changed
    /// since the approval (the text names it).
    Changed(String),
    /// Another layer left it out: the report's `skipped` value and why.
    Skipped { why: String },
    /// It could not be started.
    SpawnFailed(String),
    /// It ran.
    Ran(HookExecution),
}
