//! Checks on the shape of `options_json` that do not depend on any one
//! field's meaning: every top-level key must be a known option (a
//! misspelled `workspace_gated` must never leave the approval gate off
//! silently), and `session_id` must not be empty (so that every binding,
//! where an unset string field and an empty one look the same, follows one
//! rule: a session id must be given).
//!
//! An unknown key is `InvalidArgument` naming it and, when a known option is
//! close (same letters ignoring case and `_`/`-`, or a small edit distance),
//! the option that was probably meant:
//! ``unknown option `workspacegated`; did you mean `workspace_gated`?``

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// Every top-level key `options_json` may contain.
pub(crate) const KNOWN_OPTION_KEYS: &[&str] = &[
    "workspace",
    "session_id",
    "trigger",
    "workspace_gated",
    "hooks",
    "hooks_toml",
    "hooks_file",
    "hook_sources",
    "dialect",
    "transcript_path",
    "trust_store",
    "env",
    "env_remove",
    "hook_env",
    "untrusted_hook_env",
    "max_output_bytes",
    "stop_hook_block_cap",
    "allowed_http_hook_urls",
    "http_hook_allowed_env_vars",
    "tool_names",
];

/// Every key an entry of the `hook_sources` option may contain.
pub(crate) const HOOK_SOURCE_KEYS: &[&str] =
    &["hooks", "hooks_toml", "hooks_file", "trusted", "policy", "plugin_root", "dialect"];

/// Check the options object before its fields are read: unknown keys and an
/// empty `session_id` are `InvalidArgument`.
pub(crate) fn check_options(obj: &Map<String, Value>) -> Result<()> {
    check_option_keys(obj)?;
    if matches!(obj.get("session_id"), Some(Value::String(s)) if s.is_empty()) {
        return Err(Error::invalid_argument("option `session_id` must be a non-empty string"));
    }
    Ok(())
}

/// `InvalidArgument` naming the first unknown top-level key (and how many
/// more there are), with a suggestion when a known option is close.
pub(crate) fn check_option_keys(obj: &Map<String, Value>) -> Result<()> {
    let unknown: Vec<&str> = obj.keys().map(String::as_str).filter(|k| !KNOWN_OPTION_KEYS.contains(k)).collect();
    let Some(first) = unknown.first() else { return Ok(()) };
    let mut msg = format!("unknown option `{first}`");
    if let Some(s) = suggest_option(first) {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    if unknown.len() > 1 {
        let rest: Vec<String> = unknown[1..].iter().map(|k| format!("`{k}`")).collect();
        msg.push_str(&format!(" (other unknown options: {})", rest.join(", ")));
    }
    Err(Error::invalid_argument(msg))
}

/// The known option closest to `key`, if one is close enough to be a typo
/// ([`crate::suggest::closest`]: equal after lowercasing and dropping `_`
/// and `-` (camelCase, wrong case, missing underscores), else within a
/// small edit distance of that form).
pub(crate) fn suggest_option(key: &str) -> Option<&'static str> {
    crate::suggest::closest(key, KNOWN_OPTION_KEYS.iter().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_cover_case_underscores_and_small_typos() {
        assert_eq!(suggest_option("workspacegated"), Some("workspace_gated"));
        assert_eq!(suggest_option("workspaceGated"), Some("workspace_gated"));
        assert_eq!(suggest_option("workspaceGate"), Some("workspace_gated"));
        assert_eq!(suggest_option("sessionId"), Some("session_id"));
        assert_eq!(suggest_option("Workspace"), Some("workspace"));
        assert_eq!(suggest_option("hook"), Some("hooks"));
        assert_eq!(suggest_option("max_output_byte"), Some("max_output_bytes"));
        assert_eq!(suggest_option("trustStore"), Some("trust_store"));
        assert_eq!(suggest_option("colour"), None);
        assert_eq!(suggest_option("x"), None);
        assert_eq!(suggest_option(""), None);
    }
}
