//! Command digest and previews of the workspace approval gate (docs/protocol.md §10).

use hookline::config::HooksConfig;
use hookline::gate::{
    command_digest, command_previews, digest_of_previews, previews_json, LifecycleHookCommandPreview,
};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

fn cfg(v: Value) -> HooksConfig {
    HooksConfig::from_json_value(&v).unwrap_or_else(|e| panic!("config {v} rejected: {e}"))
}

/// Independent reference: SHA-256 of the given lines joined by "\n".
fn sha_of_lines(lines: &[&str]) -> String {
    let joined = lines.join("\n");
    Sha256::digest(joined.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The digest lines of a config: its previews without the `type` tag, the
/// pins and the environment policy (a command's digest line is the preview
/// of earlier versions, unchanged).
fn lines(c: &HooksConfig) -> Vec<String> {
    command_previews(c).iter().map(digest_line).collect()
}

fn digest_line(p: &LifecycleHookCommandPreview) -> String {
    let mut v = serde_json::to_value(p).unwrap();
    let o = v.as_object_mut().unwrap();
    assert_eq!(o.shift_remove("type"), Some(Value::from("command")), "{o:?}");
    assert!(o.shift_remove("pins").is_some() && o.shift_remove("env").is_some(), "{o:?}");
    v.to_string()
}

const EXAMPLE_DIGEST: &str = "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89";

#[test]
fn worked_example_digest_vtcode() {
    let c = cfg(
        json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout_seconds": 10}]}]}}),
    );
    assert_eq!(command_digest(&c), EXAMPLE_DIGEST);
}

#[test]
fn worked_example_digest_claude_and_toml_forms_are_identical() {
    let claude = cfg(
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 10}]}]}}),
    );
    assert_eq!(command_digest(&claude), EXAMPLE_DIGEST);
    let toml = HooksConfig::from_toml_str(
        "[[hooks.lifecycle.pre_tool_use]]\nmatcher = \"Bash\"\n[[hooks.lifecycle.pre_tool_use.hooks]]\ncommand = \"./check.sh\"\ntimeout_seconds = 10\n",
    )
    .unwrap();
    assert_eq!(command_digest(&toml), EXAMPLE_DIGEST);
}

#[test]
fn preview_line_has_keys_in_contract_order_and_compact_form() {
    let c = cfg(
        json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [{"command": "./check.sh", "timeout_seconds": 10}]}]}}),
    );
    assert_eq!(lines(&c), [r#"{"event":"pre_tool_use","matcher":"Bash","command":"./check.sh","timeout_seconds":10}"#]);
}

#[test]
fn no_commands_digest_is_sha256_of_empty_string() {
    let expected = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    assert_eq!(command_digest(&HooksConfig::empty()), expected);
    assert_eq!(command_digest(&cfg(json!({}))), expected);
    assert_eq!(command_previews(&HooksConfig::empty()), vec![]);
    assert_eq!(previews_json(&[]).unwrap(), "[]");
}

#[test]
fn absent_matcher_and_timeout_are_null() {
    let c = cfg(json!({"lifecycle": {"session_start": [{"hooks": [{"command": "echo hi"}]}]}}));
    let l = lines(&c);
    assert_eq!(l, [r#"{"event":"session_start","matcher":null,"command":"echo hi","timeout_seconds":null}"#]);
    assert_eq!(command_digest(&c), sha_of_lines(&[&l[0]]));
}

#[test]
fn unicode_commands_are_raw_utf8_and_slash_is_not_escaped() {
    let c = cfg(
        json!({"lifecycle": {"post_tool_use": [{"matcher": "Write", "hooks": [{"command": "echo 'héllo ✓ 日本' > /tmp/x \"q\"\\", "timeout_seconds": 5}]}]}}),
    );
    let expected = "{\"event\":\"post_tool_use\",\"matcher\":\"Write\",\"command\":\"echo 'héllo ✓ 日本' > /tmp/x \\\"q\\\"\\\\\",\"timeout_seconds\":5}";
    assert_eq!(lines(&c), [expected]);
    assert_eq!(command_digest(&c), sha_of_lines(&[expected]));
}

#[test]
fn matcher_is_kept_exactly_as_written() {
    let c = cfg(json!({"lifecycle": {"pre_tool_use": [
        {"matcher": " Bash ", "hooks": [{"command": "a"}]},
        {"matcher": "", "hooks": [{"command": "b"}]},
        {"matcher": "*", "hooks": [{"command": "c"}]},
        {"hooks": [{"command": "d"}]}
    ]}}));
    let matchers: Vec<_> = command_previews(&c).into_iter().map(|p| p.matcher).collect();
    assert_eq!(matchers, [Some(" Bash ".into()), Some("".into()), Some("*".into()), None]);
    // Trimming the matcher or dropping "" / "*" would change the digest.
    let trimmed = cfg(json!({"lifecycle": {"pre_tool_use": [
        {"matcher": "Bash", "hooks": [{"command": "a"}]},
        {"matcher": "", "hooks": [{"command": "b"}]},
        {"matcher": "*", "hooks": [{"command": "c"}]},
        {"hooks": [{"command": "d"}]}
    ]}}));
    assert_ne!(command_digest(&c), command_digest(&trimmed));
    let no_star = cfg(json!({"lifecycle": {"pre_tool_use": [{"matcher": "*", "hooks": [{"command": "x"}]}]}}));
    let absent = cfg(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "x"}]}]}}));
    assert_ne!(command_digest(&no_star), command_digest(&absent));
}

#[test]
fn events_are_in_hl_event_order_and_commands_in_configuration_order() {
    // Written in reverse order in the object; the digest lists events in hl_event order.
    let c = cfg(json!({"lifecycle": {
        "post_tool_use_failure": [{"hooks": [{"command": "f"}]}],
        "notification": [{"hooks": [{"command": "n"}]}],
        "pre_tool_use": [{"matcher": "B", "hooks": [{"command": "p2"}]}, {"matcher": "A", "hooks": [{"command": "p1"}]}],
        "session_start": [{"hooks": [{"command": "s"}]}]
    }}));
    let got: Vec<_> = command_previews(&c).into_iter().map(|p| (p.event, p.command)).collect();
    let want = [
        ("session_start", "s"),
        ("pre_tool_use", "p2"),
        ("pre_tool_use", "p1"),
        ("notification", "n"),
        ("post_tool_use_failure", "f"),
    ];
    assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
    let l = lines(&c);
    let refs: Vec<&str> = l.iter().map(String::as_str).collect();
    assert_eq!(command_digest(&c), sha_of_lines(&refs));
}

#[test]
fn several_events_digest_vector() {
    let c = cfg(json!({"lifecycle": {
        "session_start": [{"matcher": "startup", "hooks": [{"command": "./init.sh"}]}],
        "pre_tool_use": [{"matcher": "Bash", "hooks": [{"command": "./check.sh", "timeout_seconds": 10}]}],
        "stop": [{"hooks": [{"command": "./done.sh", "timeout_seconds": 5}]}]
    }}));
    let expected = sha_of_lines(&[
        r#"{"event":"session_start","matcher":"startup","command":"./init.sh","timeout_seconds":null}"#,
        r#"{"event":"pre_tool_use","matcher":"Bash","command":"./check.sh","timeout_seconds":10}"#,
        r#"{"event":"stop","matcher":null,"command":"./done.sh","timeout_seconds":5}"#,
    ]);
    assert_eq!(command_digest(&c), expected);
}

#[test]
fn both_dialects_producing_identical_lines_give_identical_digest() {
    let vt = cfg(json!({"lifecycle": {
        "session_end": [{"matcher": "exit", "hooks": [{"command": "a", "timeout_seconds": 3}]}],
        "permission_request": [{"matcher": "Bash|Edit", "hooks": [{"command": "b"}]}],
        "pre_compact": [{"hooks": [{"command": "c"}]}]
    }}));
    let claude = cfg(json!({"hooks": {
        "PreCompact": [{"hooks": [{"command": "c"}]}],
        "PermissionRequest": [{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "b"}]}],
        "SessionEnd": [{"matcher": "exit", "hooks": [{"command": "a", "timeout": 3}]}]
    }}));
    assert_eq!(command_previews(&vt), command_previews(&claude));
    assert_eq!(command_digest(&vt), command_digest(&claude));
}

#[test]
fn stop_aliases_digest_as_stop() {
    let aliased = cfg(json!({"lifecycle": {"task_completion": [{"hooks": [{"command": "x"}]}]}}));
    let direct = cfg(json!({"lifecycle": {"stop": [{"hooks": [{"command": "x"}]}]}}));
    assert_eq!(command_digest(&aliased), command_digest(&direct));
}

#[test]
fn reordering_two_commands_changes_the_digest() {
    let a = cfg(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "one"}, {"command": "two"}]}]}}));
    let b = cfg(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "two"}, {"command": "one"}]}]}}));
    assert_ne!(command_digest(&a), command_digest(&b));
}

#[test]
fn changing_a_timeout_changes_the_digest() {
    let a = cfg(json!({"PreToolUse": [{"hooks": [{"command": "x", "timeout": 10}]}]}));
    let b = cfg(json!({"PreToolUse": [{"hooks": [{"command": "x", "timeout": 11}]}]}));
    assert_ne!(command_digest(&a), command_digest(&b));
}

#[test]
fn claude_unknown_event_commands_are_in_the_digest_after_the_known_ones() {
    let c = cfg(
        json!({"PostCompact": [{"matcher": "auto", "hooks": [{"command": "p"}]}], "Stop": [{"hooks": [{"command": "s"}]}]}),
    );
    let previews = command_previews(&c);
    let events: Vec<_> = previews.iter().map(|p| p.event.as_str()).collect();
    assert_eq!(events, ["stop", "PostCompact"]);
    let without = cfg(json!({"Stop": [{"hooks": [{"command": "s"}]}]}));
    assert_ne!(command_digest(&c), command_digest(&without));
}

#[test]
fn explicit_60_and_absent_timeout_digest_differently() {
    // (VT Code dialect, whose default timeout is 60 s.)
    let explicit = cfg(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "x", "timeout_seconds": 60}]}]}}));
    let absent = cfg(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "x"}]}]}}));
    // Same behaviour...
    assert_eq!(
        explicit.groups(hookline::HookEvent::PreToolUse)[0].hooks[0].timeout(),
        absent.groups(hookline::HookEvent::PreToolUse)[0].hooks[0].timeout()
    );
    // ...different digest.
    assert_ne!(command_digest(&explicit), command_digest(&absent));
}

#[test]
fn changing_a_command_or_its_event_changes_the_digest() {
    let a = cfg(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "x"}]}]}}));
    let b = cfg(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "x "}]}]}}));
    let c = cfg(json!({"lifecycle": {"post_tool_use": [{"hooks": [{"command": "x"}]}]}}));
    assert_ne!(command_digest(&a), command_digest(&b));
    assert_ne!(command_digest(&a), command_digest(&c));
}

#[test]
fn previews_json_is_the_array_of_preview_objects() {
    let c = cfg(
        json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [{"command": "./check.sh", "timeout_seconds": 10}]}], "stop": [{"hooks": [{"command": "s"}]}]}}),
    );
    let text = previews_json(&command_previews(&c)).unwrap();
    assert_eq!(
        text,
        r#"[{"type":"command","event":"pre_tool_use","matcher":"Bash","command":"./check.sh","timeout_seconds":10,"pins":[],"env":{"inherit":true,"scrub":[],"set":[]}},{"type":"command","event":"stop","matcher":null,"command":"s","timeout_seconds":null,"pins":[],"env":{"inherit":true,"scrub":[],"set":[]}}]"#
    );
    assert_eq!(digest_of_previews(&command_previews(&c)), command_digest(&c));
}

#[test]
fn digest_of_previews_is_lowercase_hex_of_64_chars() {
    let p = LifecycleHookCommandPreview::command("stop", None, "x", None);
    let d = digest_of_previews(&[p]);
    assert_eq!(d.len(), 64);
    assert!(d.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c)));
}

/// An approval binds what a failing guard does. Claude Code's hooks
/// reference: `onFailure` — "block" makes a hook failure (a crash, a
/// timeout, no valid answer) block the action, "continue" (the default)
/// lets it proceed. Turning a fail-closed guard into a fail-open one must
/// need a new approval, so `"failClosed": true` is part of the hook's
/// digest line and preview; a hook that fails open keeps the line of
/// earlier versions (stored approvals stay valid). Cursor's `failClosed`
/// is bound the same way.
#[test]
fn a_fail_closed_guard_is_bound_by_the_digest() {
    let claude = |extra: Value| {
        let mut hook = json!({"type": "command", "command": "./guard.sh"});
        hook.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        cfg(json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}))
    };
    let open = command_digest(&claude(json!({})));
    assert_eq!(open, command_digest(&claude(json!({"onFailure": "continue"}))), "the default line is unchanged");
    let block = claude(json!({"onFailure": "block"}));
    assert_ne!(open, command_digest(&block), "onFailure: block needs its own approval");
    assert_eq!(command_digest(&block), command_digest(&claude(json!({"failClosed": true}))));
    let preview = serde_json::to_value(&command_previews(&block)[0]).unwrap();
    assert_eq!(preview["failClosed"], true, "{preview}");
    assert!(previews_json(&command_previews(&claude(json!({})))).unwrap().find("failClosed").is_none());

    let cursor = |fail_closed: bool| {
        cfg(
            json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": "./guard.sh", "failClosed": fail_closed}]}}),
        )
    };
    assert_ne!(command_digest(&cursor(true)), command_digest(&cursor(false)));
}
