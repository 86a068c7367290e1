//! The environment policy of hook processes: an engine option, and an
//! input of the workspace digest (which is why it sits below both the
//! handlers that apply it and the gate that previews it).
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
//! names are compared as the system's environment compares them:
//! case-sensitively on Unix, without regard to ASCII case on Windows
//! (`Path` is `PATH` there, and `*_key` scrubs `GITHUB_API_KEY`).
//!
//! On Windows the variables a process needs to start and to find programs
//! and its folders ([`WINDOWS_SYSTEM_VARIABLES`]: `SystemRoot`, `windir`,
//! `ComSpec`, `PATHEXT`, `PATH`, `TEMP`, `TMP`, `USERPROFILE`, `APPDATA`,
//! `LOCALAPPDATA`) are always inherited, whatever `inherit` says, and only
//! a `scrub` entry naming one exactly (no wildcard) removes it: the
//! `"secrets"` preset and patterns such as `"*"` keep them. Without
//! `SystemRoot` many Windows programs fail to start (sockets, cryptography),
//! and without `ComSpec`, `PATH` and `PATHEXT` the hook's shell is not
//! found. Codex keeps the same folders when it filters the environment of
//! its hooks on Windows.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::paths::System;

/// The variables a hook on Windows always keeps (see the module
/// documentation).
pub const WINDOWS_SYSTEM_VARIABLES: &[&str] =
    &["SystemRoot", "windir", "ComSpec", "PATHEXT", "PATH", "TEMP", "TMP", "USERPROFILE", "APPDATA", "LOCALAPPDATA"];

/// Whether two variable names are the same variable on `system`.
pub fn same_name_on(system: System, a: &[u8], b: &[u8]) -> bool {
    match system {
        System::Unix => a == b,
        System::Windows => a.eq_ignore_ascii_case(b),
    }
}

/// Whether two variable names are the same variable on this system.
pub fn same_name(a: &[u8], b: &[u8]) -> bool {
    same_name_on(System::HOST, a, b)
}

/// Whether `name` is one of the [`WINDOWS_SYSTEM_VARIABLES`] on `system`
/// (never on Unix).
pub fn is_kept_system_variable(system: System, name: &[u8]) -> bool {
    system == System::Windows && WINDOWS_SYSTEM_VARIABLES.iter().any(|v| same_name_on(system, v.as_bytes(), name))
}

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
    /// The shape of the pattern in upper case (names on Windows).
    folded: Shape,
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
        Glob {
            pattern: pattern.to_owned(),
            shape: Glob::shape(pattern),
            folded: Glob::shape(&pattern.to_ascii_uppercase()),
        }
    }

    fn shape(pattern: &str) -> Shape {
        let wild = |s: &str| s.contains(['*', '?']);
        if !wild(pattern) {
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
        }
    }

    /// The pattern as written.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// Whether the pattern has no wildcard (names one variable).
    pub fn is_exact(&self) -> bool {
        self.shape == Shape::Exact
    }

    /// Whether `name` matches (names compared as this system does).
    pub fn matches(&self, name: &[u8]) -> bool {
        self.matches_on(System::HOST, name)
    }

    /// Whether `name` matches, names compared as `system` does (without
    /// regard to ASCII case on Windows).
    pub fn matches_on(&self, system: System, name: &[u8]) -> bool {
        match system {
            System::Unix => Glob::shape_matches(&self.shape, self.pattern.as_bytes(), name),
            System::Windows => Glob::shape_matches(
                &self.folded,
                self.pattern.to_ascii_uppercase().as_bytes(),
                &name.to_ascii_uppercase(),
            ),
        }
    }

    fn shape_matches(shape: &Shape, pattern: &[u8], name: &[u8]) -> bool {
        match shape {
            Shape::Exact => pattern == name,
            Shape::Prefix(p) => name.starts_with(p.as_bytes()),
            Shape::Suffix(s) => name.ends_with(s.as_bytes()),
            Shape::Contains(c) => name.windows(c.len()).any(|w| w == c.as_bytes()),
            Shape::General => glob_match(pattern, name),
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
    pub(crate) fn admits(&self, name: &[u8]) -> bool {
        self.admits_on(System::HOST, name)
    }

    /// Whether an inherited `name` is kept on `system` (a Windows system
    /// variable always is).
    pub fn admits_on(&self, system: System, name: &[u8]) -> bool {
        match self {
            Inherit::All => true,
            Inherit::Nothing => is_kept_system_variable(system, name),
            Inherit::Only(globs) => {
                is_kept_system_variable(system, name) || globs.iter().any(|g| g.matches_on(system, name))
            }
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
                p.set.retain(|(n, _)| !same_name(n.as_bytes(), k.as_bytes()));
                p.set.push((k.clone(), v.clone()));
            }
        }
        p
    }

    /// Whether it is the default (inherit everything, nothing scrubbed or set).
    pub fn is_default(&self) -> bool {
        *self == EffectivePolicy::default()
    }

    pub(crate) fn scrubs(&self, name: &[u8]) -> bool {
        self.scrubs_on(System::HOST, name)
    }

    /// Whether the policy removes `name` on `system` (a Windows system
    /// variable only by a pattern naming it exactly).
    pub fn scrubs_on(&self, system: System, name: &[u8]) -> bool {
        let kept = is_kept_system_variable(system, name);
        self.scrub.iter().any(|g| (!kept || g.is_exact()) && g.matches_on(system, name))
    }

    pub(crate) fn sets(&self, name: &[u8]) -> bool {
        self.set.iter().any(|(k, _)| same_name(k.as_bytes(), name))
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

    /// The home directory as a hook of a trusted or untrusted source sees
    /// it (where `~` and `$HOME` in its command lead): `$HOME` on Unix,
    /// `%USERPROFILE%` on Windows ([`crate::paths`]).
    pub fn home(&self, trusted: bool) -> Option<std::path::PathBuf> {
        let var = crate::paths::home_variable(System::HOST);
        let policy = self.policy(trusted);
        let is_var = |k: &str| same_name(k.as_bytes(), var.as_bytes());
        let from = |pairs: &[(String, String)]| pairs.iter().rev().find(|(k, _)| is_var(k)).map(|(_, v)| v.clone());
        if let Some(h) = from(&policy.set) {
            return Some(h.into());
        }
        if let Some(h) = from(&self.set).filter(|_| !policy.scrubs(var.as_bytes())) {
            return Some(h.into());
        }
        let inherited = policy.inherit.admits(var.as_bytes())
            && !policy.scrubs(var.as_bytes())
            && !self.remove.iter().any(|r| is_var(r));
        inherited.then(|| std::env::var_os(var)).flatten().filter(|h| !h.is_empty()).map(Into::into)
    }
}

impl EnvSettings {
    /// The value the hook environment gives `name` before the engine's own
    /// variables: the `env` option's, else the inherited one unless
    /// `env_remove` names it (what an http hook's headers interpolate).
    pub fn lookup(&self, name: &str) -> Option<String> {
        if let Some((_, v)) = self.set.iter().find(|(k, _)| same_name(k.as_bytes(), name.as_bytes())) {
            return Some(v.clone());
        }
        if self.remove.iter().any(|r| same_name(r.as_bytes(), name.as_bytes())) {
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
        let same = |k: &str| same_name(k.as_bytes(), name.as_bytes());
        if let Some((_, v)) = policy.set.iter().find(|(k, _)| same(k)) {
            return Some(v.clone());
        }
        if policy.scrubs(name.as_bytes()) {
            return None;
        }
        if let Some((_, v)) = self.set.iter().find(|(k, _)| same(k)) {
            return Some(v.clone());
        }
        if self.remove.iter().any(|r| same(r)) || !policy.inherit.admits(name.as_bytes()) {
            return None;
        }
        std::env::var(name).ok()
    }
}
