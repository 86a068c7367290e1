//! The environment of a hook process: inherited, minus the engine's
//! `env_remove` names, plus its `env` option, then the engine's own
//! variables — the canonical `HOOKLINE_*` ones and those of the hook's
//! dialect ([`Dialect::environment`]) — which nothing overrides. Transcript
//! variables only when a path is set. Built once per run and dialect, as
//! one block ([`Environment`]); the copies of the inherited variables are
//! freed before any hook starts.

use std::ffi::OsStr;

use crate::dialect::Dialect;
use crate::model::event::RunEvent;
use crate::model::input::SessionFacts;
use crate::runner::Environment;

/// Environment settings of an engine (options `env` and `env_remove`).
#[derive(Debug, Clone, Default)]
pub struct EnvSettings {
    /// Option `env`: set after `env_remove` is applied.
    pub set: Vec<(String, String)>,
    /// Option `env_remove`: names removed from the inherited environment.
    pub remove: Vec<String>,
}

impl EnvSettings {
    /// The value the hook environment gives `name` before the engine's own
    /// variables: the `env` option's, else the inherited one unless
    /// `env_remove` names it (what an http hook's headers interpolate).
    pub fn lookup(&self, name: &str) -> Option<String> {
        if let Some((_, v)) = self.set.iter().find(|(k, _)| k == name) {
            return Some(v.clone());
        }
        if self.remove.iter().any(|r| r == name) {
            return None;
        }
        std::env::var(name).ok()
    }
}

/// The canonical variables every hook gets, whatever its dialect.
pub const HOOKLINE_NAMES: &[&str] =
    &["HOOKLINE_PROJECT_DIR", "HOOKLINE_SESSION_ID", "HOOKLINE_HOOK_EVENT", "HOOKLINE_TRANSCRIPT_PATH"];

/// The complete environment of the hooks of `dialect` for one run of `event`.
pub fn hook_environment(
    settings: &EnvSettings,
    dialect: &dyn Dialect,
    event: &RunEvent,
    facts: &SessionFacts<'_>,
) -> Environment {
    let dialect_names = dialect.environment_names();
    let is_own = |name: &[u8]| HOOKLINE_NAMES.iter().chain(dialect_names).any(|own| own.as_bytes() == name);
    let inherited = std::env::vars_os();
    let mut env = Environment::with_capacity(inherited.size_hint().0 + settings.set.len() + 16, 4096);
    // None of these can hold a NUL (the process environment is C strings;
    // options and the session facts are validated when the engine is made),
    // so `push` cannot fail; should it, the variable is left out, loudly.
    let mut add = |name: &OsStr, value: &OsStr| {
        if let Err(e) = env.push(name, value) {
            crate::hl_warn!("{e}");
        }
    };
    for (k, v) in inherited {
        let name = k.as_encoded_bytes();
        if !is_own(name)
            && !settings.remove.iter().any(|r| r.as_bytes() == name)
            && !settings.set.iter().any(|(s, _)| s.as_bytes() == name)
        {
            add(&k, &v);
        }
    }
    for (k, v) in &settings.set {
        if !is_own(k.as_bytes()) {
            add(OsStr::new(k), OsStr::new(v));
        }
    }
    let event_name = event.name();
    add(OsStr::new("HOOKLINE_PROJECT_DIR"), OsStr::new(facts.cwd));
    add(OsStr::new("HOOKLINE_SESSION_ID"), OsStr::new(facts.session_id));
    add(OsStr::new("HOOKLINE_HOOK_EVENT"), OsStr::new(event_name));
    if let Some(t) = facts.transcript_path {
        add(OsStr::new("HOOKLINE_TRANSCRIPT_PATH"), OsStr::new(t));
    }
    dialect.environment(event, facts, &mut |name, value| add(OsStr::new(name), OsStr::new(value)));
    env
}
