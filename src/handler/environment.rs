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
//! # Environment policy
//!
//! Options `hook_env` (every hook) and `untrusted_hook_env` (hooks of
//! untrusted sources only), each
//! `{"inherit": true | false | [names or globs], "scrub": [globs] | "secrets", "set": {..}}`:
//!
//! - `inherit` says which variables of the host's environment a hook
//!   inherits: all (`true`, the default, as Claude Code does), none
//!   (`false`), or those matching one of the names or globs.
//! - `scrub` removes matching names from what the hook would get (the
//!   inherited variables and those of option `env`); `"secrets"` is the
//!   preset [`SECRETS`].
//! - `set` adds variables after scrubbing.
//!
//! A hook of an untrusted source runs under both: `untrusted_hook_env`'s
//! `inherit` replaces `hook_env`'s when given, the two `scrub` lists both
//! apply, and `set` is `hook_env`'s then `untrusted_hook_env`'s. A glob is
//! a name where `*` matches any run of characters and `?` one character;
//! names are compared case-sensitively, as the environment does.

use std::ffi::OsStr;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::dialect::Dialect;
use crate::error::{Error, Result};
use crate::model::event::RunEvent;
use crate::model::input::SessionFacts;
use crate::runner::Environment;
use crate::trace::context::HookTraceContext;

/// The `"secrets"` scrub preset: names that commonly hold credentials.
pub const SECRETS: &[&str] = &[
    "*_TOKEN",
    "*_SECRET*",
    "*_KEY",
    "*PASSWORD*",
    "*_CREDENTIALS*",
    "AWS_*",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "NPM_TOKEN",
    "SSH_AUTH_SOCK",
];

/// A name or glob of variable names (`*` any run, `?` one character).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    pattern: String,
    shape: Shape,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Shape {
    Exact,
    Prefix(String),
    Suffix(String),
    Contains(String),
    General,
}

impl Glob {
    /// A glob of `pattern`.
    pub fn new(pattern: &str) -> Glob {
        let wild = |s: &str| s.contains(['*', '?']);
        let shape = if !wild(pattern) {
            Shape::Exact
        } else if let Some(p) = pattern.strip_suffix('*').filter(|p| !wild(p)) {
            Shape::Prefix(p.to_owned())
        } else if let Some(s) = pattern.strip_prefix('*').filter(|s| !wild(s)) {
            Shape::Suffix(s.to_owned())
        } else if let Some(c) =
            pattern.strip_prefix('*').and_then(|s| s.strip_suffix('*')).filter(|c| !c.is_empty() && !wild(c))
        {
            Shape::Contains(c.to_owned())
        } else {
            Shape::General
        };
        Glob { pattern: pattern.to_owned(), shape }
    }

    /// The pattern as written.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// Whether `name` matches.
    pub fn matches(&self, name: &[u8]) -> bool {
        match &self.shape {
            Shape::Exact => self.pattern.as_bytes() == name,
            Shape::Prefix(p) => name.starts_with(p.as_bytes()),
            Shape::Suffix(s) => name.ends_with(s.as_bytes()),
            Shape::Contains(c) => name.windows(c.len()).any(|w| w == c.as_bytes()),
            Shape::General => glob_match(self.pattern.as_bytes(), name),
        }
    }
}

/// `*` and `?` matching without backtracking blow-up (the classic two-index
/// algorithm: linear in practice, quadratic at worst).
fn glob_match(p: &[u8], s: &[u8]) -> bool {
    let (mut pi, mut si) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        match p.get(pi) {
            Some(b'*') => {
                star = Some((pi, si));
                pi += 1;
            }
            Some(&c) if c == b'?' || c == s[si] => {
                pi += 1;
                si += 1;
            }
            _ => match star {
                Some((sp, ss)) => {
                    pi = sp + 1;
                    si = ss + 1;
                    star = Some((sp, ss + 1));
                }
                None => return false,
            },
        }
    }
    p[pi.min(p.len())..].iter().all(|&c| c == b'*')
}

/// Which inherited variables a hook gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inherit {
    /// Every one (the default).
    All,
    /// None.
    Nothing,
    /// Those matching one of the globs.
    Only(Vec<Glob>),
}

impl Inherit {
    fn admits(&self, name: &[u8]) -> bool {
        match self {
            Inherit::All => true,
            Inherit::Nothing => false,
            Inherit::Only(globs) => globs.iter().any(|g| g.matches(name)),
        }
    }
}

/// One environment policy option (`hook_env` or `untrusted_hook_env`) as
/// written; absent fields are `None` / empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnvPolicy {
    /// `inherit`, if given.
    pub inherit: Option<Inherit>,
    /// `scrub`, the preset expanded.
    pub scrub: Vec<Glob>,
    /// `set`, in the order written.
    pub set: Vec<(String, String)>,
}

impl EnvPolicy {
    /// Parse option `option` (`hook_env` or `untrusted_hook_env`); errors
    /// are `InvalidArgument` naming the field.
    pub fn from_json(v: &Value, option: &str) -> Result<EnvPolicy> {
        let bad = |field: &str, what: &str| Error::invalid_argument(format!("option `{option}{field}` must be {what}"));
        let obj = v.as_object().ok_or_else(|| bad("", "an object with inherit, scrub and set"))?;
        if let Some(k) = obj.keys().find(|k| !matches!(k.as_str(), "inherit" | "scrub" | "set")) {
            return Err(Error::invalid_argument(format!(
                "unknown option `{option}.{k}` (the fields are inherit, scrub and set)"
            )));
        }
        let globs = |field: &str, items: &[Value]| -> Result<Vec<Glob>> {
            items
                .iter()
                .enumerate()
                .map(|(i, x)| match x.as_str() {
                    Some(s) if !s.is_empty() && !s.contains(['=', '\0']) => Ok(Glob::new(s)),
                    _ => Err(bad(&format!(".{field}[{i}]"), "a non-empty name or glob without '=' or NUL")),
                })
                .collect()
        };
        let mut p = EnvPolicy::default();
        match obj.get("inherit") {
            None | Some(Value::Null) => {}
            Some(Value::Bool(true)) => p.inherit = Some(Inherit::All),
            Some(Value::Bool(false)) => p.inherit = Some(Inherit::Nothing),
            Some(Value::Array(items)) => p.inherit = Some(Inherit::Only(globs("inherit", items)?)),
            Some(_) => return Err(bad(".inherit", "true, false or an array of names or globs")),
        }
        match obj.get("scrub") {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s == "secrets" => p.scrub = SECRETS.iter().map(|s| Glob::new(s)).collect(),
            Some(Value::Array(items)) => p.scrub = globs("scrub", items)?,
            Some(_) => return Err(bad(".scrub", "an array of names or globs, or \"secrets\"")),
        }
        match obj.get("set") {
            None | Some(Value::Null) => {}
            Some(Value::Object(m)) => {
                for (k, v) in m {
                    let v = v.as_str().ok_or_else(|| bad(&format!(".set.{k}"), "a string"))?;
                    if k.is_empty() || k.contains(['=', '\0']) || v.contains('\0') {
                        return Err(bad(
                            &format!(".set.{k}"),
                            "a variable: names non-empty without '=' or NUL, values without NUL",
                        ));
                    }
                    p.set.push((k.clone(), v.to_owned()));
                }
            }
            Some(_) => return Err(bad(".set", "an object of strings")),
        }
        Ok(p)
    }
}

/// The policy a hook runs under: `hook_env`, with `untrusted_hook_env`
/// over it for hooks of untrusted sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EffectivePolicy {
    /// Which inherited variables are kept.
    pub inherit: Inherit,
    /// Names removed (inherited and `env` option variables).
    pub scrub: Vec<Glob>,
    /// Variables added after scrubbing.
    pub set: Vec<(String, String)>,
}

impl Default for EffectivePolicy {
    fn default() -> Self {
        EffectivePolicy { inherit: Inherit::All, scrub: Vec::new(), set: Vec::new() }
    }
}

impl EffectivePolicy {
    /// `base` with `over` applied on top (see the module documentation).
    pub fn layered(base: Option<&EnvPolicy>, over: Option<&EnvPolicy>) -> EffectivePolicy {
        let mut p = EffectivePolicy::default();
        for layer in [base, over].into_iter().flatten() {
            if let Some(i) = &layer.inherit {
                p.inherit = i.clone();
            }
            p.scrub.extend(layer.scrub.iter().cloned());
            for (k, v) in &layer.set {
                p.set.retain(|(n, _)| n != k);
                p.set.push((k.clone(), v.clone()));
            }
        }
        p
    }

    /// Whether it is the default (inherit everything, nothing scrubbed or set).
    pub fn is_default(&self) -> bool {
        *self == EffectivePolicy::default()
    }

    fn scrubs(&self, name: &[u8]) -> bool {
        self.scrub.iter().any(|g| g.matches(name))
    }

    fn sets(&self, name: &[u8]) -> bool {
        self.set.iter().any(|(k, _)| k.as_bytes() == name)
    }

    /// How previews show it: `{"inherit": true|false|[globs], "scrub":
    /// [globs], "set": [names]}` (the values of `set` are the host's and
    /// may be credentials passed on purpose: only their names are shown).
    pub fn preview(&self) -> EnvPreview {
        EnvPreview {
            inherit: match &self.inherit {
                Inherit::All => Value::Bool(true),
                Inherit::Nothing => Value::Bool(false),
                Inherit::Only(g) => Value::from(g.iter().map(|g| g.pattern().to_owned()).collect::<Vec<_>>()),
            },
            scrub: self.scrub.iter().map(|g| g.pattern().to_owned()).collect(),
            set: self.set.iter().map(|(k, _)| k.clone()).collect(),
        }
    }
}

/// The environment policy of a hook as previews show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EnvPreview {
    /// `true`, `false` or the names and globs inherited.
    pub inherit: Value,
    /// The globs scrubbed.
    pub scrub: Vec<String>,
    /// The names the policy sets.
    pub set: Vec<String>,
}

/// Environment settings of an engine (options `env`, `env_remove`,
/// `hook_env`, `untrusted_hook_env`).
#[derive(Debug, Clone, Default)]
pub struct EnvSettings {
    /// Option `env`: set after `env_remove` is applied.
    pub set: Vec<(String, String)>,
    /// Option `env_remove`: names removed from the inherited environment.
    pub remove: Vec<String>,
    /// The policy of hooks of trusted sources (`hook_env`).
    pub trusted: Arc<EffectivePolicy>,
    /// The policy of hooks of untrusted sources (`hook_env` with
    /// `untrusted_hook_env` over it).
    pub untrusted: Arc<EffectivePolicy>,
}

impl EnvSettings {
    /// The settings of the options.
    pub fn new(
        set: Vec<(String, String)>,
        remove: Vec<String>,
        hook_env: Option<&EnvPolicy>,
        untrusted_hook_env: Option<&EnvPolicy>,
    ) -> EnvSettings {
        let trusted = Arc::new(EffectivePolicy::layered(hook_env, None));
        let untrusted = match untrusted_hook_env {
            None => trusted.clone(),
            Some(u) => Arc::new(EffectivePolicy::layered(hook_env, Some(u))),
        };
        EnvSettings { set, remove, trusted, untrusted }
    }

    /// The policy of a hook of a trusted or untrusted source.
    pub fn policy(&self, trusted: bool) -> &Arc<EffectivePolicy> {
        if trusted {
            &self.trusted
        } else {
            &self.untrusted
        }
    }

    /// `$HOME` as a hook of an untrusted source sees it (where `~` and
    /// `$HOME` in its command lead).
    pub fn home(&self, trusted: bool) -> Option<std::path::PathBuf> {
        let policy = self.policy(trusted);
        let from = |pairs: &[(String, String)]| pairs.iter().rev().find(|(k, _)| k == "HOME").map(|(_, v)| v.clone());
        if let Some(h) = from(&policy.set) {
            return Some(h.into());
        }
        if let Some(h) = from(&self.set).filter(|_| !policy.scrubs(b"HOME")) {
            return Some(h.into());
        }
        let inherited =
            policy.inherit.admits(b"HOME") && !policy.scrubs(b"HOME") && !self.remove.iter().any(|r| r == "HOME");
        inherited.then(|| std::env::var_os("HOME")).flatten().filter(|h| !h.is_empty()).map(Into::into)
    }
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

    /// [`lookup`](Self::lookup) under the environment policy of a hook of
    /// a trusted or untrusted source: what a process hook of that source
    /// would see under `name` (a scrubbed name is absent, a name the policy
    /// sets has its value, an inherited one must be admitted).
    pub fn lookup_as(&self, name: &str, trusted: bool) -> Option<String> {
        let policy = self.policy(trusted);
        if policy.is_default() {
            return self.lookup(name);
        }
        if let Some((_, v)) = policy.set.iter().find(|(k, _)| k == name) {
            return Some(v.clone());
        }
        if policy.scrubs(name.as_bytes()) {
            return None;
        }
        if let Some((_, v)) = self.set.iter().find(|(k, _)| k == name) {
            return Some(v.clone());
        }
        if self.remove.iter().any(|r| r == name) || !policy.inherit.admits(name.as_bytes()) {
            return None;
        }
        std::env::var(name).ok()
    }
}

/// The canonical variables every hook gets, whatever its dialect.
pub const HOOKLINE_NAMES: &[&str] =
    &["HOOKLINE_PROJECT_DIR", "HOOKLINE_SESSION_ID", "HOOKLINE_HOOK_EVENT", "HOOKLINE_TRANSCRIPT_PATH"];

/// The complete environment of the hooks of `dialect` running under
/// `policy` for one run of `event`.
pub fn hook_environment(
    settings: &EnvSettings,
    policy: &EffectivePolicy,
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
    let filtered = !policy.is_default();
    if !matches!(policy.inherit, Inherit::Nothing) {
        for (k, v) in inherited {
            let name = k.as_encoded_bytes();
            if !is_own(name)
                && !settings.remove.iter().any(|r| r.as_bytes() == name)
                && !settings.set.iter().any(|(s, _)| s.as_bytes() == name)
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
    use serde_json::json;

    #[test]
    fn globs_match_exact_prefix_suffix_contains_and_general_shapes() {
        let m = |p: &str, n: &str| Glob::new(p).matches(n.as_bytes());
        assert!(m("PATH", "PATH") && !m("PATH", "PATHX"));
        assert!(m("AWS_*", "AWS_SECRET_ACCESS_KEY") && !m("AWS_*", "XAWS_"));
        assert!(m("*_TOKEN", "GITLAB_TOKEN") && !m("*_TOKEN", "TOKEN"));
        assert!(m("*PASSWORD*", "DB_PASSWORD_FILE") && m("*PASSWORD*", "PASSWORD"));
        assert!(m("A?C*Z", "ABCxyzZ") && !m("A?C*Z", "ACZ") && m("*", "") && m("**a**", "xax"));
        assert!(!m("*_KEY", "github_api_key"), "names compare case-sensitively");
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
