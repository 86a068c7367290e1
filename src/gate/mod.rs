//! The workspace approval gate: a gated engine spawns no configured command
//! until the exact command set is approved (rules in `docs/protocol.md`).
//!
//! The gate lives in this module tree and nowhere else:
//!
//! - here: the command set's previews and digest;
//! - [`approval`]: the approval state of one engine (which digest is
//!   approved, what a reload carries over, the check before every spawn);
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
//! first: `{"type":"command","event":"pre_tool_use",...}`. The digest of a
//! command-only VT Code or Claude Code config is therefore exactly the one
//! earlier versions computed, and stored approvals stay valid.
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
//! first (`{"dialect":"codex","event":…}`), so that the approval of a
//! Codex config cannot stand for a Claude Code config with the same
//! commands; the lines of VT Code and Claude Code hooks stay exactly as
//! stored approvals recorded them.
//!
//! A hook configured under an event of its dialect that also runs as part
//! of a canonical one (Cursor's `beforeShellExecution`) is listed once,
//! under its own event's name.
//!
//! The digest is the lowercase hex SHA-256 of those lines joined by `\n` (no
//! trailing newline); no commands digest as SHA-256 of the empty string.
//! Callback hooks are host code and not part of the digest.

pub mod approval;
pub mod trust;

pub use approval::{Approval, CommandSet};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::config::HooksConfig;
use crate::model::event::HookEvent;
use crate::model::outcome::HookKind;

/// One configured hook as the approval gate sees it. Serialises with its
/// keys in exactly the declared order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LifecycleHookCommandPreview {
    /// The handler type (`"type"`: `command`, ...).
    #[serde(rename = "type")]
    pub kind: HookKind,
    /// The hook's dialect, for dialects other than VT Code and Claude Code
    /// (serialised only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialect: Option<&'static str>,
    /// snake_case event key (`pre_tool_use`, ...).
    pub event: String,
    /// The matcher as written, `None` when absent.
    pub matcher: Option<String>,
    /// The command as written.
    pub command: String,
    /// The timeout as written, `None` when absent.
    pub timeout_seconds: Option<u64>,
}

impl LifecycleHookCommandPreview {
    /// The preview of a command hook.
    pub fn command(
        event: impl Into<String>,
        matcher: Option<String>,
        command: impl Into<String>,
        timeout_seconds: Option<u64>,
    ) -> Self {
        LifecycleHookCommandPreview {
            kind: HookKind::Command,
            dialect: None,
            event: event.into(),
            matcher,
            command: command.into(),
            timeout_seconds,
        }
    }
}

/// A command's digest line: the preview without its type tag, keys in
/// exactly this order (the format every stored approval was made with).
#[derive(Serialize)]
struct CommandLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    dialect: Option<&'a str>,
    event: &'a str,
    matcher: &'a Option<String>,
    command: &'a str,
    timeout_seconds: Option<u64>,
}

/// The digest line of one preview.
fn digest_line(p: &LifecycleHookCommandPreview) -> Vec<u8> {
    // Serialising strings and integers cannot fail.
    let line = CommandLine {
        dialect: p.dialect,
        event: &p.event,
        matcher: &p.matcher,
        command: &p.command,
        timeout_seconds: p.timeout_seconds,
    };
    serde_json::to_vec(&line).unwrap_or_default()
}

/// The previews of every configured command, in digest order.
///
/// Events kept by a config key the dialect does not know (Claude Code
/// dialect) follow the twelve, in configuration order, with that key as
/// `event`. Commands of trusted sources (`hook_sources`) run without
/// approval and are left out.
pub fn command_previews(config: &HooksConfig) -> Vec<LifecycleHookCommandPreview> {
    let mut out = Vec::with_capacity(config.command_count());
    let known = HookEvent::ALL.iter().map(|e| (e.key(), config.groups(*e)));
    let named = config.named_events().iter().map(|n| (n.name.as_str(), n.groups.as_slice()));
    for (event, groups) in known.chain(named) {
        for group in groups {
            for hook in group.hooks.iter().filter(|h| !h.trusted() && h.native_event.is_none()) {
                let d = hook.dialect();
                out.push(LifecycleHookCommandPreview {
                    kind: hook.handler.kind(),
                    dialect: d.named_in_digest().then(|| d.name()),
                    event: event.to_owned(),
                    matcher: group.matcher_raw.clone(),
                    // Until every handler type has its own digest line, a
                    // hook of another type is digested by all the fields
                    // that identify it (its `command` is their JSON).
                    command: hook.handler.digest_text(),
                    timeout_seconds: hook.timeout_seconds,
                });
            }
        }
    }
    out
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

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 0x0f)] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_digest() {
        let p = LifecycleHookCommandPreview::command("pre_tool_use", Some("Bash".into()), "./check.sh", Some(10));
        assert_eq!(digest_of_previews(&[p]), "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89");
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
