//! The environment of a hook process: inherited (filtered by the
//! environment policy), minus the engine's `env_remove` names, plus its
//! `env` option, scrubbed, plus the policy's `set`, then the engine's own
//! variables — the canonical `HOOKLINE_*` ones and those of the hook's
//! dialect ([`Dialect::environment`]) — which nothing overrides. Transcript
//! variables only when a path is set. Built once per run, dialect and
//! policy, as one block ([`Environment`]); the copies of the inherited
//! variables are freed before any hook starts.
//!
//! When the run is traced, each hook process also gets `TRACEPARENT` (its
//! own span as the parent) and `TRACESTATE` (the run's, when it joined a
//! trace that has one): OpenTelemetry's propagation through environment
//! variables ([`with_trace_context`]). They replace any inherited or
//! configured value; an inherited `TRACESTATE` is removed when the run has
//! none, so the two never describe different traces.
//!
//! The environment policy (options `hook_env` and `untrusted_hook_env`) is
//! an engine option: [`crate::config::env_policy`].

use std::ffi::OsStr;

use crate::dialect::Dialect;
use crate::model::event::RunEvent;
use crate::model::input::SessionFacts;
use crate::runner::Environment;
use crate::trace::context::HookTraceContext;

use crate::config::env_policy::{same_name, EffectivePolicy, EnvSettings, Inherit};

/// The canonical variables every hook gets, whatever its dialect.
pub const HOOKLINE_NAMES: &[&str] =
    &["HOOKLINE_PROJECT_DIR", "HOOKLINE_SESSION_ID", "HOOKLINE_HOOK_EVENT", "HOOKLINE_TRANSCRIPT_PATH"];

/// The complete environment of the hooks of `dialect` running under
/// `policy` for one run of `event` with `input` (in the dialect's
/// vocabulary: [`Dialect::input_environment`]).
pub fn hook_environment(
    settings: &EnvSettings,
    policy: &EffectivePolicy,
    dialect: &dyn Dialect,
    event: &RunEvent,
    facts: &SessionFacts<'_>,
    input: &serde_json::Map<String, serde_json::Value>,
) -> Environment {
    let dialect_names = dialect.environment_names();
    let is_own = |name: &[u8]| HOOKLINE_NAMES.iter().chain(dialect_names).any(|own| same_name(own.as_bytes(), name));
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
    let filtered = !policy.is_default();
    // On Windows `inherit: false` still keeps the system variables.
    if !matches!(policy.inherit, Inherit::Nothing) || cfg!(windows) {
        for (k, v) in inherited {
            let name = k.as_encoded_bytes();
            if !is_own(name)
                && !settings.remove.iter().any(|r| same_name(r.as_bytes(), name))
                && !settings.set.iter().any(|(s, _)| same_name(s.as_bytes(), name))
                && (!filtered || (policy.inherit.admits(name) && !policy.scrubs(name) && !policy.sets(name)))
            {
                add(&k, &v);
            }
        }
    }
    for (k, v) in &settings.set {
        let name = k.as_bytes();
        if !is_own(name) && (!filtered || (!policy.scrubs(name) && !policy.sets(name))) {
            add(OsStr::new(k), OsStr::new(v));
        }
    }
    for (k, v) in &policy.set {
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
    dialect.input_environment(event, input, &mut |name, value| add(OsStr::new(name), OsStr::new(value)));
    env
}

/// The names of the trace context variables ([`with_trace_context`]).
pub const TRACE_NAMES: &[&str] = &["TRACEPARENT", "TRACESTATE"];

/// `env` with one hook's trace context: `TRACEPARENT` set, `TRACESTATE` set
/// or removed. A copy per traced hook (the run's block is shared by its
/// hooks, each of which has a span of its own).
pub fn with_trace_context(env: &Environment, trace: &HookTraceContext) -> std::io::Result<Environment> {
    let mut env = env.clone();
    env.set(OsStr::new("TRACEPARENT"), OsStr::new(trace.traceparent()))?;
    match trace.tracestate() {
        Some(state) => env.set(OsStr::new("TRACESTATE"), OsStr::new(state))?,
        None => env.remove(OsStr::new("TRACESTATE")),
    }
    Ok(env)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::env_policy::{same_name_on, EnvPolicy, Glob, SECRETS};
    use crate::paths::System;
    use serde_json::json;

    #[test]
    fn globs_match_exact_prefix_suffix_contains_and_general_shapes() {
        let m = |p: &str, n: &str| Glob::new(p).matches(n.as_bytes());
        assert!(m("PATH", "PATH") && !m("PATH", "PATHX"));
        assert!(m("AWS_*", "AWS_SECRET_ACCESS_KEY") && !m("AWS_*", "XAWS_"));
        assert!(m("*_TOKEN", "GITLAB_TOKEN") && !m("*_TOKEN", "TOKEN"));
        assert!(m("*PASSWORD*", "DB_PASSWORD_FILE") && m("*PASSWORD*", "PASSWORD"));
        assert!(m("A?C*Z", "ABCxyzZ") && !m("A?C*Z", "ACZ") && m("*", "") && m("**a**", "xax"));
        let on = |s, p: &str, n: &str| Glob::new(p).matches_on(s, n.as_bytes());
        assert!(!on(System::Unix, "*_KEY", "github_api_key"), "names compare case-sensitively on Unix");
        // Windows: "environment variable names are not case sensitive" (Win32 docs,
        // GetEnvironmentVariable); `Path` is `PATH`.
        assert!(on(System::Windows, "*_KEY", "github_api_key") && on(System::Windows, "path", "Path"));
        assert!(on(System::Windows, "aws_*", "Aws_Region") && on(System::Windows, "*Pass*", "DB_PASSWORD"));
        assert!(on(System::Windows, "a?c*Z", "ABCxyzz") && !on(System::Windows, "PATH", "PATHEXT"));
        assert!(same_name_on(System::Windows, b"Path", b"PATH") && !same_name_on(System::Unix, b"Path", b"PATH"));
    }

    #[test]
    fn windows_system_variables_survive_the_secrets_preset_and_inherit_false() {
        let secrets = EnvPolicy::from_json(&json!({"scrub": ["*"], "inherit": false}), "hook_env").unwrap();
        let e = EffectivePolicy::layered(Some(&secrets), None);
        for n in ["SystemRoot", "SYSTEMROOT", "ComSpec", "PATHEXT", "Path", "TEMP", "TMP", "windir", "USERPROFILE"] {
            assert!(!e.scrubs_on(System::Windows, n.as_bytes()), "{n}");
            assert!(e.inherit.admits_on(System::Windows, n.as_bytes()), "{n}");
            // On Unix they are ordinary names.
            assert!(e.scrubs_on(System::Unix, n.as_bytes()) && !e.inherit.admits_on(System::Unix, n.as_bytes()));
        }
        assert!(e.scrubs_on(System::Windows, b"GITHUB_TOKEN") && !e.inherit.admits_on(System::Windows, b"HOMEPATH"));
        let p = EnvPolicy::from_json(&json!({"scrub": "secrets"}), "hook_env").unwrap();
        let e = EffectivePolicy::layered(Some(&p), None);
        for n in crate::config::env_policy::WINDOWS_SYSTEM_VARIABLES {
            assert!(!e.scrubs_on(System::Windows, n.as_bytes()), "{n}");
        }
        assert!(e.scrubs_on(System::Windows, b"github_token"), "the preset folds case on Windows");
        // Naming one exactly still removes it: the user asked for that.
        let exact = EnvPolicy::from_json(&json!({"scrub": ["temp"], "inherit": ["X_*"]}), "hook_env").unwrap();
        let e = EffectivePolicy::layered(Some(&exact), None);
        assert!(e.scrubs_on(System::Windows, b"TEMP") && !e.scrubs_on(System::Windows, b"TMP"));
        assert!(e.inherit.admits_on(System::Windows, b"x_y") && !e.inherit.admits_on(System::Unix, b"x_y"));
    }

    #[test]
    fn the_secrets_preset_is_exactly_the_documented_list() {
        let p = EnvPolicy::from_json(&json!({"scrub": "secrets"}), "hook_env").unwrap();
        let pats: Vec<&str> = p.scrub.iter().map(Glob::pattern).collect();
        assert_eq!(pats, SECRETS);
        let e = EffectivePolicy::layered(Some(&p), None);
        for n in ["GITHUB_TOKEN", "MY_SECRET_X", "OPENAI_API_KEY", "PGPASSWORD", "AWS_REGION", "SSH_AUTH_SOCK"] {
            assert!(e.scrubs(n.as_bytes()), "{n}");
        }
        for n in ["PATH", "HOME", "TOKENIZER", "KEYBOARD", "LANG"] {
            assert!(!e.scrubs(n.as_bytes()), "{n}");
        }
    }

    #[test]
    fn policy_errors_name_the_field() {
        for (v, field) in [
            (json!(3), "hook_env"),
            (json!({"inherit": "yes"}), "hook_env.inherit"),
            (json!({"inherit": [""]}), "hook_env.inherit[0]"),
            (json!({"scrub": "all"}), "hook_env.scrub"),
            (json!({"set": {"A": 1}}), "hook_env.set.A"),
            (json!({"set": {"A=B": "x"}}), "hook_env.set.A=B"),
            (json!({"sett": {}}), "hook_env.sett"),
        ] {
            let e = EnvPolicy::from_json(&v, "hook_env").unwrap_err();
            assert!(e.message.contains(&format!("`{field}`")), "{v}: {}", e.message);
        }
    }

    #[test]
    fn untrusted_policy_layers_over_hook_env() {
        let base = EnvPolicy::from_json(
            &json!({"inherit": ["PATH", "HOME"], "scrub": ["X_*"], "set": {"A": "1", "B": "1"}}),
            "hook_env",
        )
        .unwrap();
        let over = EnvPolicy::from_json(&json!({"scrub": "secrets", "set": {"B": "2"}}), "untrusted_hook_env").unwrap();
        let p = EffectivePolicy::layered(Some(&base), Some(&over));
        assert_eq!(p.inherit, base.inherit.clone().unwrap(), "inherit is kept when the layer does not give one");
        assert_eq!(p.scrub.len(), 1 + SECRETS.len());
        assert_eq!(p.set, [("A".to_owned(), "1".to_owned()), ("B".to_owned(), "2".to_owned())]);
        let over = EnvPolicy::from_json(&json!({"inherit": false}), "untrusted_hook_env").unwrap();
        assert_eq!(EffectivePolicy::layered(Some(&base), Some(&over)).inherit, Inherit::Nothing);
        let shown = serde_json::to_value(p.preview()).unwrap();
        assert_eq!(shown["inherit"], json!(["PATH", "HOME"]));
        assert_eq!(shown["set"], json!(["A", "B"]), "previews show the names set, not the values");
    }
}
