//! What the hooks of one run share: their process environments
//! ([`Environments`]), the run's context ([`RunCtx`]: payloads, env files,
//! places), built once per run.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::envfile::EnvFiles;
use super::options::Setup;
use super::plan::Plan;
use crate::dialect::{self, Dialect};
use crate::error::Result;
use crate::handler::environment::hook_environment;
use crate::handler::layer::{self, Stack};
use crate::handler::{Executed, Hook, Payload};
use crate::model::event::RunEvent;
use crate::model::input::SessionFacts;
use crate::runner::Environment;

/// The process environments of one run: one per dialect and environment
/// policy among its hooks, built once (only when a process hook runs).
pub(crate) struct Environments {
    envs: Vec<(&'static dyn Dialect, bool, Environment)>,
    /// Whether hooks of untrusted sources run under another policy than
    /// those of trusted ones (`untrusted_hook_env`).
    split: bool,
}

impl Environments {
    pub(crate) fn new(
        setup: &Setup,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        plan: &Plan<'_>,
    ) -> Environments {
        Self::with_session_env(setup, event, facts, input, plan, &[])
    }

    /// [`new`](Self::new), the hooks of each dialect in `session` also
    /// getting its variables (what SessionStart hooks returned in `env`),
    /// as if they were the engine's `env` option.
    pub(crate) fn with_session_env(
        setup: &Setup,
        event: &RunEvent,
        facts: &SessionFacts<'_>,
        input: &Map<String, Value>,
        plan: &Plan<'_>,
        session: &[(&'static str, Vec<(String, String)>)],
    ) -> Environments {
        let split = !Arc::ptr_eq(&setup.env.trusted, &setup.env.untrusted);
        let mut out = Environments { envs: Vec::new(), split };
        for hook in plan.hooks.iter().filter(|h| h.is_process()) {
            let d = hook.dialect().unwrap_or(plan.dialect);
            let trusted = out.class(*hook);
            if !out.envs.iter().any(|(x, t, _)| dialect::same(*x, d) && *t == trusted) {
                let input = setup.native_input(d, input);
                let env = match session.iter().find(|(name, _)| *name == d.name()) {
                    None => hook_environment(&setup.env, setup.env.policy(trusted), d, event, facts, &input),
                    Some((_, vars)) => {
                        let mut settings = setup.env.clone();
                        for (k, v) in vars {
                            if !settings.set.iter().any(|(s, _)| s == k) {
                                settings.set.push((k.clone(), v.clone()));
                            }
                        }
                        hook_environment(&settings, settings.policy(trusted), d, event, facts, &input)
                    }
                };
                out.envs.push((d, trusted, env));
            }
        }
        out
    }

    /// Which policy `hook` runs under: `true` for `hook_env` alone.
    fn class(&self, hook: Hook<'_>) -> bool {
        !self.split || hook.spec().is_none_or(|s| s.trusted())
    }

    /// The environment of process hook `hook` of dialect `d` (empty for
    /// callback hooks).
    pub(crate) fn of(&self, d: &dyn Dialect, hook: Hook<'_>) -> Option<&Environment> {
        let trusted = self.class(hook);
        self.envs.iter().find(|(x, t, _)| dialect::same(*x, d) && *t == trusted).map(|(_, _, e)| e)
    }
}

/// What one run shares between the hooks it executes.
pub(crate) struct RunCtx<'a> {
    pub(crate) stack: Stack<'a>,
    pub(crate) plan: &'a Plan<'a>,
    pub(crate) setup: &'a Setup,
    pub(crate) facts: &'a SessionFacts<'a>,
    pub(crate) input: &'a Map<String, Value>,
    pub(crate) envs: Environments,
    /// SessionStart's `CLAUDE_ENV_FILE` files, by plan index.
    pub(crate) env_files: Option<&'a EnvFiles>,
}

impl RunCtx<'_> {
    /// The hooks of the later stage `stage` whose matcher matches the input
    /// as the first stage left it: its `tool_input` the rewrite in force
    /// (`rewrite`), else the run's own ([`Plan::later_groups`]).
    pub(super) fn later_matching(&self, stage: std::ops::Range<usize>, rewrite: Option<&Value>) -> Vec<usize> {
        let input = match rewrite {
            Some(tool_input) => {
                let mut input = self.input.clone();
                input.insert("tool_input".to_owned(), tool_input.clone());
                Value::Object(input)
            }
            None => Value::Object(self.input.clone()),
        };
        let first = self.plan.first_stage;
        stage
            .filter(|&i| {
                let Some(&(group, native)) = self.plan.later_groups.get(i - first) else { return true };
                let d = group.dialect();
                let input = self.setup.native_value(d, &input);
                group.matches(d.match_subject(&RunEvent::Named(native.into()), &input, self.facts.trigger))
            })
            .collect()
    }

    /// An input a hook of dialect `d` chained (`next`, in its agent's
    /// vocabulary) back in the canonical one: the tool name and input of
    /// `current` (the canonical input it was given) where the table maps
    /// them; unchanged with `tool_names: native`.
    pub(super) fn canonical_chain(
        &self,
        d: &dyn Dialect,
        current: &Map<String, Value>,
        mut next: Map<String, Value>,
    ) -> Map<String, Value> {
        if self.setup.tool_names == crate::dialect::tools::ToolNames::Native {
            return next;
        }
        let vocab = d.tool_vocabulary();
        let Some(name) = current.get("tool_name").and_then(Value::as_str) else { return next };
        let native = vocab.native_name(name).into_owned();
        if next.get("tool_name").and_then(Value::as_str) == Some(native.as_str()) {
            next.insert("tool_name".to_owned(), Value::String(name.to_owned()));
        }
        if let Some(input) = next.get("tool_input").filter(|v| v.is_object()) {
            let cwd = crate::dialect::tools::input_cwd(current, &self.setup.workspace_str);
            if let Some(back) = vocab.input_to_canonical(name, &native, input, current.get("tool_input"), cwd) {
                next.insert("tool_input".to_owned(), back);
            }
        }
        next
    }

    /// The payload `hook` reads: its dialect's, with the rewrite in force
    /// (chained PreToolUse).
    pub(crate) fn payload(&self, hook: Hook<'_>, tool_input: Option<&Value>) -> Result<Payload> {
        self.payload_of(hook, self.input, tool_input)
    }

    /// [`payload`](Self::payload) of another input than the run's (a run
    /// whose hooks chain their input, a follow-up count). A hook configured
    /// under another event of its dialect reads that event's payload; a
    /// callback hook the payload of the run's dialect, or Claude Code's
    /// when that dialect does not speak the hooks protocol.
    pub(crate) fn payload_of(
        &self,
        hook: Hook<'_>,
        input: &Map<String, Value>,
        tool_input: Option<&Value>,
    ) -> Result<Payload> {
        // A callback hook (host code) speaks the hooks protocol: in a run of
        // a dialect that does not, it reads Claude Code's payload.
        let d = hook.dialect().unwrap_or(match self.plan.dialect.reads_hooks_protocol() {
            true => self.plan.dialect,
            false => dialect::CLAUDE,
        });
        // A configured hook reads the call in its agent's vocabulary; a
        // callback hook (host code) the canonical one.
        let (input, tool_input) = match hook.dialect() {
            Some(own) => {
                let name = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
                (self.setup.native_input(own, input), tool_input.map(|t| self.setup.native_tool_input(own, name, t)))
            }
            None => (Cow::Borrowed(input), tool_input.map(Cow::Borrowed)),
        };
        let (input, tool_input) = (&*input, tool_input.as_deref());
        let payload = match hook.spec().and_then(|s| s.native_event) {
            Some(native) => d.payload(&RunEvent::Named(native.into()), self.facts, input, tool_input),
            None => d.payload(self.stack.event, self.facts, input, tool_input),
        };
        Payload::with_newline(&payload, d.payload_ends_with_newline())
    }

    /// The environment of one process hook: its dialect's under its
    /// policy, plus its source's plugin root (`CLAUDE_PLUGIN_ROOT`, and what
    /// else its dialect names it), its SessionStart `CLAUDE_ENV_FILE` and its
    /// own `env` (Gemini CLI), set last.
    fn env_of(&self, i: usize, hook: Hook<'_>) -> std::io::Result<Cow<'_, Environment>> {
        static NONE: std::sync::OnceLock<Environment> = std::sync::OnceLock::new();
        let d = hook.dialect().unwrap_or(self.plan.dialect);
        let mut env = match self.envs.of(d, hook) {
            Some(env) => Cow::Borrowed(env),
            None => Cow::Borrowed(NONE.get_or_init(Environment::new)),
        };
        if let Some(root) = hook.spec().and_then(|s| s.plugin_root()) {
            for name in d.plugin_root_variables() {
                env = Cow::Owned(env.with_var(OsStr::new(name), OsStr::new(root))?);
            }
        }
        if let Some(path) = self.env_files.and_then(|f| f.path(i)) {
            env = Cow::Owned(env.with_var(OsStr::new("CLAUDE_ENV_FILE"), path.as_os_str())?);
        }
        if let Some(spec) = hook.spec().filter(|s| !s.env.is_empty()) {
            let mut own = env.into_owned();
            for (name, value) in &spec.env {
                own.set(OsStr::new(name), OsStr::new(value))?;
            }
            env = Cow::Owned(own);
        }
        Ok(env)
    }

    /// Run one planned hook through the handler layers.
    pub(crate) fn run_one(&self, i: usize, hook: Hook<'_>, payload: &Payload) -> Result<Executed> {
        if !hook.is_process() {
            return layer::invoke(&self.stack, hook, &Environment::new(), payload);
        }
        match self.env_of(i, hook) {
            Ok(env) => layer::invoke(&self.stack, hook, &env, payload),
            Err(e) => Ok(layer::not_started(&self.stack, hook, e.to_string())),
        }
    }
}
