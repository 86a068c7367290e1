//! The workspace approval gate: a gated engine spawns no configured command
//! until the exact command set is approved (rules in `docs/protocol.md`).
//!
//! The gate lives in this module tree and nowhere else:
//!
//! - here: the command set's previews and digest;
//! - [`approval`]: the approval state of one engine (which digest and which
//!   files are approved, what a reload carries over, the check before every
//!   spawn);
//! - [`resolve`]: which files a command names (the script resolver);
//! - [`pins`]: those files hashed, watched and re-verified before a spawn;
//! - [`trust`]: the trust store that persists approvals across processes.
//!
//! A configuration's *command set* is listed as one
//! [`LifecycleHookCommandPreview`] per configured hook: events in
//! `hl_event` order ([`HookEvent::ALL`]), within an event in configuration
//! order (never sorted: order changes behaviour, so it changes the digest).
//! Each preview is tagged with its handler type; a command's *digest line*
//! is compact JSON with keys in exactly this order:
//!
//! ```text
//! {"event":"pre_tool_use","matcher":"Bash","command":"./check.sh","timeout_seconds":10}
//! ```
//!
//! and its preview (`hl_engine_command_previews`) the same with `"type"`
//! first and the files it executes and its environment policy last:
//! `{"type":"command","event":"pre_tool_use",...,"pins":[{"path":…,"sha256":…}],"env":{…}}`.
//! The digest of a command-only VT Code or Claude Code config is therefore
//! exactly the one earlier versions computed, and stored approvals stay
//! valid. A hook of another handler type digests as a line tagged with its
//! type first, then `event`, `matcher`, the fields that identify it
//! ([`crate::config::HandlerSpec::identifying_fields`]) and `timeout_seconds`
//! ([`digest_line`]); pins are not part of the digest (the approval records
//! them beside it).
//!
//! - `event` is the snake_case key in both dialects (`stop` for VT Code's
//!   `task_completion` / `task_completed` aliases);
//! - `matcher` is the string exactly as written (untrimmed; `""` and `"*"`
//!   kept), `null` when absent;
//! - `command` is exactly as written;
//! - `timeout_seconds` is the value written (`timeout` in the Claude
//!   dialect), `null` when absent — an explicit 60 and an absent timeout
//!   digest differently (Codex: the timeout Codex applies, `0` as 1 and
//!   SessionEnd's clamped to 3).
//!
//! Hooks of dialects other than VT Code and Claude Code name their dialect
//! first (`{"dialect":"codex","event":…}`, `{"dialect":"gemini",…}`), so
//! that the approval of a Codex or Gemini CLI config cannot stand for a
//! Claude Code config with the same commands; the lines of VT Code and
//! Claude Code hooks stay exactly as stored approvals recorded them. A
//! dialect whose timeouts are in milliseconds (Gemini CLI) writes
//! `"timeout_seconds":null` and the value as `"timeout_ms"` after it, in
//! the digest line and the preview; a hook that sets variables of its own
//! environment (Gemini CLI's `env`) adds them with their values as `"env"`
//! last in its digest line, since they change what its command runs (a
//! `PATH`, say), and its preview lists their names in the `set` of its
//! environment policy (`"env"`).
//!
//! A hook configured under an event of its dialect that also runs as part
//! of a canonical one (Cursor's `beforeShellExecution`) is listed once,
//! under its own event's name.
//! A command whose config says more about how it starts (Copilot CLI, VS
//! Code: a program run directly, a working directory, variables) is no
//! shell-form command of earlier versions: its line is tagged, and those
//! settings are identifying fields after `command`, each only when set
//! (`argv`, `cwd`, and `configEnv`, the config's `env` with its values as
//! written):
//!
//! ```text
//! {"type":"command","dialect":"copilot","event":"pre_tool_use","matcher":"bash","command":"./guard.sh","argv":["bash","--norc","--noprofile","-c","./guard.sh"],"cwd":"scripts","configEnv":{"LEVEL":"strict"},"timeout_seconds":null}
//! ```
//!
//! The digest is the lowercase hex SHA-256 of those lines joined by `\n` (no
//! trailing newline); no commands digest as SHA-256 of the empty string.
//! Callback hooks are host code and not part of the digest.

pub mod approval;
pub mod pins;
pub mod resolve;
pub mod resolve_windows;
pub mod trust;

pub use approval::{Approval, CommandSet};
pub use pins::{Pin, PinChange};

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::config::env_policy::{EffectivePolicy, EnvPreview};
use crate::config::{HookSpec, HooksConfig};
use crate::model::event::HookEvent;
use crate::model::outcome::HookKind;
use crate::model::rules::TimeoutUnit;

/// One configured hook as the approval gate sees it.
///
/// Serialises (`hl_engine_command_previews`) with its keys in exactly this
/// order: `type`, `dialect` (only for dialects named in the digest),
/// `event`, `matcher`, the handler's identifying fields (`command` for a
/// shell-form command), `timeout_seconds`, `pins`, `env`.
#[derive(Clone, Debug, PartialEq)]
pub struct LifecycleHookCommandPreview {
    /// The handler type (`"type"`: `command`, ...).
    pub kind: HookKind,
    /// The hook's dialect, for dialects other than VT Code and Claude Code
    /// (serialised only then).
    pub dialect: Option<&'static str>,
    /// snake_case event key (`pre_tool_use`, ...).
    pub event: String,
    /// The matcher as written, `None` when absent.
    pub matcher: Option<String>,
    /// The command as written (another handler type: how reports name it).
    pub command: String,
    /// The timeout as written, `None` when absent.
    pub timeout_seconds: Option<u64>,
    /// The timeout as written, for dialects whose timeouts are in
    /// milliseconds (`timeout_seconds` is then `None`); serialised only
    /// when set.
    pub timeout_ms: Option<u64>,
    /// The fields that identify the hook, in digest order
    /// ([`crate::config::HandlerSpec::identifying_fields`]):
    /// `[("command", …)]` for a shell-form command.
    pub fields: Vec<(String, Value)>,
    /// The files the command executes, as they are now (only a gated
    /// engine pins files; see [`pins`]).
    pub pins: Vec<Pin>,
    /// The words of the command that name a script the gate cannot
    /// resolve, as written (`$SCRIPTS/guard.sh`): nothing is pinned for
    /// them ([`resolve::Resolution::unpinned`]); serialised as `"unpinned"`
    /// after `pins`, only when there is one.
    pub unpinned: Vec<String>,
    /// The environment policy the hook runs under.
    pub env: EnvPreview,
    /// The variables the hook sets in its own environment (Gemini CLI's
    /// `env`), in configuration order: their names are listed in
    /// `env.set`, their values are in the digest line.
    pub own_env: Vec<(String, String)>,
}

impl LifecycleHookCommandPreview {
    /// The preview of a command hook.
    pub fn command(
        event: impl Into<String>,
        matcher: Option<String>,
        command: impl Into<String>,
        timeout_seconds: Option<u64>,
    ) -> Self {
        let command = command.into();
        LifecycleHookCommandPreview {
            kind: HookKind::Command,
            dialect: None,
            event: event.into(),
            matcher,
            fields: vec![("command".to_owned(), Value::from(command.as_str()))],
            command,
            timeout_seconds,
            timeout_ms: None,
            pins: Vec::new(),
            unpinned: Vec::new(),
            env: EffectivePolicy::default().preview(),
            own_env: Vec::new(),
        }
    }

    /// The preview of one configured hook (no pins yet).
    fn of(event: &str, matcher: &Option<String>, hook: &HookSpec, env: &EnvPreview) -> Self {
        let d = hook.dialect();
        let in_ms = d.profile().timeout_unit == TimeoutUnit::Milliseconds;
        let mut env = env.clone();
        for (k, _) in &hook.env {
            if !env.set.contains(k) {
                env.set.push(k.clone());
            }
        }
        LifecycleHookCommandPreview {
            kind: hook.handler.kind(),
            dialect: d.named_in_digest().then(|| d.name()),
            event: event.to_owned(),
            matcher: matcher.clone(),
            command: hook.label().to_owned(),
            timeout_seconds: hook.timeout_seconds.filter(|_| !in_ms),
            timeout_ms: hook.timeout_seconds.filter(|_| in_ms),
            fields: Self::fields_of(hook),
            pins: Vec::new(),
            unpinned: Vec::new(),
            env,
            own_env: hook.env.clone(),
        }
    }

    /// The handler's identifying fields, then `"failClosed": true` for a
    /// hook whose failure blocks (Claude Code's `onFailure: "block"`,
    /// `failClosed`): an approval binds what a failing guard does, so that
    /// turning a fail-closed guard into a fail-open one needs a new
    /// approval. Absent otherwise, so the lines of other hooks are unchanged.
    fn fields_of(hook: &HookSpec) -> Vec<(String, Value)> {
        let mut fields: Vec<(String, Value)> = hook.handler.identifying_fields().into_iter().collect();
        if hook.fail_closed {
            fields.push(("failClosed".to_owned(), Value::Bool(true)));
        }
        fields
    }

    /// The `"type"` tag of its handler type.
    pub fn type_tag(&self) -> String {
        match serde_json::to_value(self.kind) {
            Ok(Value::String(s)) => s,
            _ => String::new(),
        }
    }
}

impl Serialize for LifecycleHookCommandPreview {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut m = serializer.serialize_map(Some(9 + self.fields.len()))?;
        m.serialize_entry("type", &self.kind)?;
        if let Some(d) = self.dialect {
            m.serialize_entry("dialect", d)?;
        }
        m.serialize_entry("event", &self.event)?;
        m.serialize_entry("matcher", &self.matcher)?;
        for (k, v) in &self.fields {
            m.serialize_entry(k, v)?;
        }
        m.serialize_entry("timeout_seconds", &self.timeout_seconds)?;
        if let Some(ms) = self.timeout_ms {
            m.serialize_entry("timeout_ms", &ms)?;
        }
        m.serialize_entry("pins", &self.pins)?;
        if !self.unpinned.is_empty() {
            m.serialize_entry("unpinned", &self.unpinned)?;
        }
        m.serialize_entry("env", &self.env)?;
        m.end()
    }
}

/// A command's digest line: the format every stored approval was made
/// with, keys in exactly this order.
#[derive(Serialize)]
struct CommandLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    dialect: Option<&'a str>,
    event: &'a str,
    matcher: &'a Option<String>,
    command: &'a str,
    timeout_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timeout_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    env: Option<&'a serde_json::Map<String, serde_json::Value>>,
}

/// The digest line of a hook: a shell-form command's is the line of
/// earlier versions (no type tag), any other hook's (another handler type,
/// or a command with `args` or `shell`) is tagged with its type first:
/// `{"type":"http","event":…,"matcher":…,"url":…,"headers":[…],"timeout_seconds":…}`.
/// `dialect` (Codex, …) comes before `event` in both shapes; a dialect with
/// millisecond timeouts adds `timeout_ms` after `timeout_seconds`, and a
/// hook that sets variables of its own environment adds them as `env`
/// last (both only when present, Gemini CLI).
pub fn digest_line(p: &LifecycleHookCommandPreview) -> Vec<u8> {
    let own_env = (!p.own_env.is_empty()).then(|| {
        p.own_env.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str()))).collect::<serde_json::Map<_, _>>()
    });
    // Serialising strings, integers and JSON values cannot fail.
    let type_tag = p.type_tag();
    if let ("command", [(key, Value::String(command))]) = (type_tag.as_str(), p.fields.as_slice()) {
        if key == "command" {
            let line = CommandLine {
                dialect: p.dialect,
                event: &p.event,
                matcher: &p.matcher,
                command,
                timeout_seconds: p.timeout_seconds,
                timeout_ms: p.timeout_ms,
                env: own_env.as_ref(),
            };
            return serde_json::to_vec(&line).unwrap_or_default();
        }
    }
    let mut m = serde_json::Map::new();
    m.insert("type".into(), Value::from(type_tag));
    if let Some(d) = p.dialect {
        m.insert("dialect".into(), Value::from(d));
    }
    m.insert("event".into(), Value::from(p.event.as_str()));
    m.insert("matcher".into(), p.matcher.clone().map_or(Value::Null, Value::from));
    for (k, v) in &p.fields {
        m.insert(k.clone(), v.clone());
    }
    m.insert("timeout_seconds".into(), p.timeout_seconds.map_or(Value::Null, Value::from));
    if let Some(ms) = p.timeout_ms {
        m.insert("timeout_ms".into(), Value::from(ms));
    }
    if let Some(env) = own_env {
        m.insert("env".into(), Value::Object(env));
    }
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}

/// The hooks the gate covers, in digest order, each with its event key and
/// group matcher: events in `hl_event` order, then events kept by a config
/// key the dialect does not know, in configuration order; within an
/// event, configuration order. Hooks of trusted sources are left out.
pub fn gated_hooks(config: &HooksConfig) -> impl Iterator<Item = (&str, &Option<String>, &HookSpec)> {
    let known = HookEvent::ALL.iter().map(|e| (e.key(), config.groups(*e)));
    let named = config.named_events().iter().map(|n| (n.name.as_str(), n.groups.as_slice()));
    known.chain(named).flat_map(|(event, groups)| {
        groups.iter().flat_map(move |group| {
            group
                .hooks
                .iter()
                .filter(|h| !h.trusted() && h.native_event.is_none())
                .map(move |hook| (event, &group.matcher_raw, hook))
        })
    })
}

/// The previews of every gated hook, in digest order (no pins, the default
/// environment policy).
pub fn command_previews(config: &HooksConfig) -> Vec<LifecycleHookCommandPreview> {
    command_previews_with(config, &EffectivePolicy::default().preview())
}

/// [`command_previews`] with the environment policy of untrusted hooks.
pub fn command_previews_with(config: &HooksConfig, env: &EnvPreview) -> Vec<LifecycleHookCommandPreview> {
    gated_hooks(config)
        .map(|(event, matcher, hook)| LifecycleHookCommandPreview::of(event, matcher, hook, env))
        .collect()
}

/// The digest of a configuration's command set (lowercase hex SHA-256).
pub fn command_digest(config: &HooksConfig) -> String {
    digest_of_previews(&command_previews(config))
}

/// The digest of a list of previews: SHA-256 of their compact JSON lines
/// joined by `\n`, as lowercase hex.
pub fn digest_of_previews(previews: &[LifecycleHookCommandPreview]) -> String {
    let mut hasher = Sha256::new();
    for (i, p) in previews.iter().enumerate() {
        if i > 0 {
            hasher.update(b"\n");
        }
        hasher.update(digest_line(p));
    }
    hex(&hasher.finalize())
}

/// The previews as a JSON array (the `hl_engine_command_previews` text).
pub fn previews_json(previews: &[LifecycleHookCommandPreview]) -> crate::error::Result<String> {
    crate::error::Error::to_json_string(previews, "the previews")
}

/// Lowercase hex of bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 0x0f)] as char);
    }
    s
}

/// The bytes of lowercase or uppercase hex of exactly 32 bytes.
pub(crate) fn unhex32(s: &str) -> Option<[u8; 32]> {
    let b = s.as_bytes();
    if b.len() != 64 {
        return None;
    }
    let nib = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = nib(b[2 * i])? << 4 | nib(b[2 * i + 1])?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_digest() {
        let p = LifecycleHookCommandPreview::command("pre_tool_use", Some("Bash".into()), "./check.sh", Some(10));
        assert_eq!(digest_of_previews(&[p]), "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89");
    }

    /// A preview of handler type `kind` with these identifying fields.
    fn preview(kind: HookKind, matcher: Option<&str>, fields: Vec<(String, Value)>, timeout: Option<u64>) -> Vec<u8> {
        let p = LifecycleHookCommandPreview {
            kind,
            fields,
            ..LifecycleHookCommandPreview::command("pre_tool_use", matcher.map(str::to_owned), "", timeout)
        };
        digest_line(&p)
    }

    #[test]
    fn a_command_line_keeps_the_format_of_earlier_versions() {
        let fields = vec![("command".to_owned(), Value::from("./check.sh"))];
        let line = preview(HookKind::Command, Some("Bash"), fields, Some(10));
        assert_eq!(
            String::from_utf8(line).unwrap(),
            r#"{"event":"pre_tool_use","matcher":"Bash","command":"./check.sh","timeout_seconds":10}"#
        );
    }

    /// A handler type other than `command`: its line is tagged with its
    /// type first and lists its identifying fields in order.
    #[test]
    fn another_handler_type_digests_as_a_type_tagged_line_of_its_identifying_fields() {
        let fields = vec![
            ("url".to_owned(), Value::from("https://hooks.example/check")),
            ("headers".to_owned(), serde_json::json!(["Authorization", "X-Team"])),
        ];
        let line = String::from_utf8(preview(HookKind::Http, None, fields, None)).unwrap();
        assert_eq!(
            line,
            r#"{"type":"http","event":"pre_tool_use","matcher":null,"url":"https://hooks.example/check","headers":["Authorization","X-Team"],"timeout_seconds":null}"#
        );
        // Fields in another order, or a command-shaped field list under
        // another type, make another line: nothing collides with a command.
        let fields = vec![("command".to_owned(), Value::from("./check.sh"))];
        let other = String::from_utf8(preview(HookKind::Prompt, None, fields, None)).unwrap();
        assert!(other.starts_with(r#"{"type":"prompt","#), "{other}");
    }

    /// Gemini CLI: a millisecond timeout follows `timeout_seconds`, the
    /// hook's own env comes last with its values.
    #[test]
    fn a_gemini_line_has_its_millisecond_timeout_and_own_env() {
        let claude = LifecycleHookCommandPreview::command("pre_tool_use", None, "./g.sh", None);
        let gemini = LifecycleHookCommandPreview {
            dialect: Some("gemini"),
            timeout_ms: Some(5000),
            own_env: vec![("MODE".to_owned(), "strict".to_owned())],
            ..claude.clone()
        };
        assert_eq!(
            String::from_utf8(digest_line(&gemini)).unwrap(),
            r#"{"dialect":"gemini","event":"pre_tool_use","matcher":null,"command":"./g.sh","timeout_seconds":null,"timeout_ms":5000,"env":{"MODE":"strict"}}"#
        );
    }

    #[test]
    fn unhex32_reads_what_hex_writes() {
        let bytes: [u8; 32] = std::array::from_fn(|i| (i * 7) as u8);
        assert_eq!(unhex32(&hex(&bytes)), Some(bytes));
        assert_eq!(unhex32(&hex(&bytes).to_uppercase()), Some(bytes));
        assert_eq!(unhex32("zz"), None);
        assert_eq!(unhex32(&"g".repeat(64)), None);
        assert_eq!(unhex32("é".repeat(32).as_str()), None);
    }

    #[test]
    fn a_codex_line_names_its_dialect_and_so_digests_differently() {
        let claude = LifecycleHookCommandPreview::command("pre_tool_use", Some("Bash".into()), "./check.sh", Some(10));
        let codex = LifecycleHookCommandPreview { dialect: Some("codex"), ..claude.clone() };
        assert_eq!(
            String::from_utf8(digest_line(&codex)).unwrap(),
            r#"{"dialect":"codex","event":"pre_tool_use","matcher":"Bash","command":"./check.sh","timeout_seconds":10}"#
        );
        assert_ne!(digest_of_previews(&[codex]), digest_of_previews(&[claude]));
    }

    #[test]
    fn a_cursor_line_names_its_dialect_and_so_digests_differently() {
        let claude = LifecycleHookCommandPreview::command("pre_tool_use", Some("Shell".into()), "./check.sh", Some(10));
        let cursor = LifecycleHookCommandPreview { dialect: Some("cursor"), ..claude.clone() };
        assert_eq!(
            String::from_utf8(digest_line(&cursor)).unwrap(),
            r#"{"dialect":"cursor","event":"pre_tool_use","matcher":"Shell","command":"./check.sh","timeout_seconds":10}"#
        );
        assert_ne!(digest_of_previews(&[cursor]), digest_of_previews(&[claude]));
    }

    #[test]
    fn no_commands_digest_is_sha256_of_empty_string() {
        assert_eq!(digest_of_previews(&[]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
