//! Conformance tests for reading hook results (docs/protocol.md §6) and the outcome
//! JSON (docs/protocol.md §5). Each test feeds `HookExecution` values to an
//! `EventInterpreter` and checks the outcome JSON.

use hookline::callback::{CallResult, Reply};
use hookline::interpret::{EventInterpreter, HookExecution, HookKind, HookReport};
use hookline::HookEvent;
use serde_json::{json, Value};

// ---------------------------------------------------------------- helpers

/// A hook that exited with `code`.
fn exited(code: i32, stdout: &str, stderr: &str) -> HookExecution {
    HookExecution {
        label: "./hook.sh".into(),
        exit_code: Some(code),
        timeout_seconds: 60,
        stdout: stdout.into(),
        stderr: stderr.into(),
        ..Default::default()
    }
}

/// A hook that exited 0 with `stdout`.
fn ok(stdout: &str) -> HookExecution {
    exited(0, stdout, "")
}

/// A hook that exited 0 and printed `value` as JSON.
fn ok_json(value: Value) -> HookExecution {
    ok(&value.to_string())
}

/// A hook killed at its 7 s timeout.
fn timed_out() -> HookExecution {
    HookExecution {
        label: "./slow.sh".into(),
        exit_code: None,
        timed_out: true,
        timeout_seconds: 7,
        stdout: r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#.into(),
        ..Default::default()
    }
}

/// A hook killed by `signal`.
fn killed(signal: i32) -> HookExecution {
    HookExecution { label: "./hook.sh".into(), exit_code: None, signal: Some(signal), ..Default::default() }
}

fn labelled(mut exec: HookExecution, label: &str) -> HookExecution {
    exec.label = label.into();
    exec
}

/// Absorb `execs` in order (stopping like the engine does) and return the
/// outcome JSON and how many hooks were absorbed before the stop.
fn run_with(event: HookEvent, quiet: bool, execs: &[HookExecution]) -> (Value, usize) {
    let mut interp = EventInterpreter::new(event, quiet);
    let mut absorbed = 0;
    for exec in execs {
        absorbed += 1;
        if interp.absorb(exec) {
            break;
        }
    }
    (interp.finish(Vec::new()).to_json(), absorbed)
}

fn outcome(event: HookEvent, execs: &[HookExecution]) -> Value {
    run_with(event, false, execs).0
}

fn messages(out: &Value, level: &str) -> Vec<String> {
    out["messages"]
        .as_array()
        .expect("messages array")
        .iter()
        .filter(|m| m["level"] == level)
        .map(|m| m["text"].as_str().expect("text").to_owned())
        .collect()
}

fn all_messages(out: &Value) -> usize {
    out["messages"].as_array().expect("messages array").len()
}

fn keys(out: &Value) -> Vec<String> {
    let mut k: Vec<String> = out.as_object().expect("object").keys().cloned().collect();
    k.sort();
    k
}

fn sorted(mut k: Vec<&str>) -> Vec<String> {
    k.sort();
    k.into_iter().map(str::to_owned).collect()
}

fn pre_tool_specific(spec: Value) -> HookExecution {
    ok_json(json!({ "hookSpecificOutput": spec }))
}

const OBSERVERS: [HookEvent; 5] = [
    HookEvent::SessionEnd,
    HookEvent::SubagentStart,
    HookEvent::SubagentStop,
    HookEvent::PreCompact,
    HookEvent::Notification,
];

// ------------------------------------------------------ outcome JSON shape

#[test]
fn every_outcome_has_messages_continue_stop_reason_hooks() {
    for event in HookEvent::ALL {
        let out = outcome(event, &[]);
        assert_eq!(out["messages"], json!([]), "{event}");
        assert_eq!(out["continue"], json!(true), "{event}");
        assert_eq!(out["stop_reason"], Value::Null, "{event}");
        assert!(out.as_object().unwrap().contains_key("stop_reason"), "{event}");
        assert_eq!(out["hooks"], json!([]), "{event}");
    }
}

#[test]
fn session_start_outcome_adds_additional_context() {
    let out = outcome(HookEvent::SessionStart, &[]);
    assert_eq!(keys(&out), sorted(vec!["messages", "continue", "stop_reason", "hooks", "additional_context"]));
    assert_eq!(out["additional_context"], json!([]));
}

#[test]
fn user_prompt_submit_outcome_defaults_to_allowed_prompt() {
    let out = outcome(HookEvent::UserPromptSubmit, &[]);
    assert_eq!(
        keys(&out),
        sorted(vec![
            "messages",
            "continue",
            "stop_reason",
            "hooks",
            "allow_prompt",
            "block_reason",
            "additional_context"
        ])
    );
    assert_eq!(out["allow_prompt"], json!(true));
    assert_eq!(out["block_reason"], Value::Null);
}

#[test]
fn pre_tool_use_outcome_defaults_to_continue_with_null_fields() {
    let out = outcome(HookEvent::PreToolUse, &[ok("")]);
    assert_eq!(
        keys(&out),
        sorted(vec![
            "messages",
            "continue",
            "stop_reason",
            "hooks",
            "decision",
            "reason",
            "updated_input",
            "additional_context"
        ])
    );
    assert_eq!(out["decision"], "continue");
    assert_eq!(out["reason"], Value::Null);
    assert_eq!(out["updated_input"], Value::Null);
    assert_eq!(out["additional_context"], json!([]));
}

#[test]
fn post_tool_use_and_failure_outcomes_have_block_reason_and_context() {
    for event in [HookEvent::PostToolUse, HookEvent::PostToolUseFailure] {
        let out = outcome(event, &[]);
        assert_eq!(
            keys(&out),
            sorted(vec!["messages", "continue", "stop_reason", "hooks", "block_reason", "additional_context"])
        );
        assert_eq!(out["block_reason"], Value::Null);
    }
}

#[test]
fn permission_request_outcome_decision_is_null_without_decision() {
    let out = outcome(HookEvent::PermissionRequest, &[ok("")]);
    assert_eq!(keys(&out), sorted(vec!["messages", "continue", "stop_reason", "hooks", "decision"]));
    assert_eq!(out["decision"], Value::Null);
}

#[test]
fn stop_outcome_has_block_reason() {
    let out = outcome(HookEvent::Stop, &[]);
    assert_eq!(keys(&out), sorted(vec!["messages", "continue", "stop_reason", "hooks", "block_reason"]));
    assert_eq!(out["block_reason"], Value::Null);
}

#[test]
fn observer_outcomes_have_only_common_fields() {
    for event in OBSERVERS {
        let out = outcome(event, &[ok("hi")]);
        assert_eq!(keys(&out), sorted(vec!["messages", "continue", "stop_reason", "hooks"]), "{event}");
    }
}

#[test]
fn hook_report_serialises_exact_keys_without_signal() {
    let report = HookReport {
        kind: HookKind::Callback,
        command: None,
        name: Some("audit".into()),
        exit_code: Some(0),
        signal: None,
        timed_out: false,
        duration_ms: 1.5,
        stdout_truncated: false,
        stderr_truncated: true,
        skipped: None,
        failure: None,
        status_message: None,
        url: None,
        status: None,
        server: None,
        tool: None,
        prompt: None,
        model: None,
        policy: false,
    };
    let v = serde_json::to_value(&report).unwrap();
    assert_eq!(
        v,
        json!({"kind":"callback","command":null,"name":"audit","exit_code":0,"timed_out":false,
               "duration_ms":1.5,"stdout_truncated":false,"stderr_truncated":true,"skipped":null,
               "failure":null})
    );
}

#[test]
fn hook_report_has_signal_field_only_when_killed_by_signal() {
    let report = HookReport {
        kind: HookKind::Command,
        command: Some("./x".into()),
        name: None,
        exit_code: None,
        signal: Some(9),
        timed_out: false,
        duration_ms: 3.0,
        stdout_truncated: false,
        stderr_truncated: false,
        skipped: None,
        failure: None,
        status_message: None,
        url: None,
        status: None,
        server: None,
        tool: None,
        prompt: None,
        model: None,
        policy: false,
    };
    let v = serde_json::to_value(&report).unwrap();
    assert_eq!(v["signal"], json!(9));
    assert_eq!(v["exit_code"], Value::Null);
    assert_eq!(v["kind"], "command");
}

#[test]
fn not_approved_report_is_skipped_with_null_exit_and_zero_duration() {
    let v = serde_json::to_value(HookReport::not_approved("./check.sh")).unwrap();
    assert_eq!(
        v,
        json!({"kind":"command","command":"./check.sh","name":null,"exit_code":null,"timed_out":false,
               "duration_ms":0.0,"stdout_truncated":false,"stderr_truncated":false,"skipped":"not_approved",
               "failure":null})
    );
}

#[test]
fn finish_attaches_hooks_report_in_given_order() {
    let mut interp = EventInterpreter::new(HookEvent::Notification, false);
    interp.absorb(&ok(""));
    let out = interp.finish(vec![HookReport::not_approved("a"), HookReport::not_approved("b")]);
    assert_eq!(out.common().hooks.len(), 2);
    let v = out.to_json();
    assert_eq!(v["hooks"][0]["command"], "a");
    assert_eq!(v["hooks"][1]["command"], "b");
}

// ------------------------------------------------- stdout classification

#[test]
fn stdout_starting_with_brace_that_does_not_parse_is_invalid_json_error() {
    let out = outcome(HookEvent::PostToolUse, &[ok("{not json")]);
    let errors = messages(&out, "error");
    assert_eq!(errors, vec!["PostToolUse hook `./hook.sh` returned invalid JSON output"]);
    assert!(messages(&out, "info").is_empty());
}

#[test]
fn stdout_starting_with_bracket_that_does_not_parse_is_invalid_json_error() {
    let out = outcome(HookEvent::SessionStart, &[ok("[1, 2")]);
    assert!(messages(&out, "error")[0].contains("returned invalid JSON output"));
    assert_eq!(out["additional_context"], json!([]));
}

#[test]
fn stdout_json_surrounded_by_whitespace_is_json() {
    let out = outcome(HookEvent::Notification, &[ok("\n  {\"systemMessage\": \"hello\"}  \n")]);
    assert_eq!(messages(&out, "info"), vec!["hello"]);
}

#[test]
fn stdout_json_scalar_is_read_as_plain_text() {
    let out = outcome(HookEvent::SessionStart, &[ok("42\n")]);
    assert_eq!(out["additional_context"], json!(["42"]));
}

#[test]
fn stderr_blank_after_trimming_counts_as_empty() {
    let out = outcome(HookEvent::Notification, &[exited(0, "", "  \n\t")]);
    assert_eq!(all_messages(&out), 0);
    let out = outcome(HookEvent::PreToolUse, &[exited(2, "", " \n ")]);
    assert_eq!(out["decision"], "continue");
    assert!(messages(&out, "error")[0].contains("without stderr feedback"));
}

// ------------------------------------------------------ common JSON fields

#[test]
fn system_message_becomes_trimmed_info_message() {
    for event in HookEvent::ALL {
        let out = outcome(event, &[ok_json(json!({"systemMessage": "  watch out \n"}))]);
        assert_eq!(messages(&out, "info"), vec!["watch out"], "{event}");
    }
}

#[test]
fn continue_false_sets_continue_false_and_stop_reason() {
    let out = outcome(HookEvent::PreCompact, &[ok_json(json!({"continue": false, "stopReason": " halt "}))]);
    assert_eq!(out["continue"], json!(false));
    assert_eq!(out["stop_reason"], "halt");
}

#[test]
fn stop_reason_comes_from_first_hook_with_continue_false() {
    let out = outcome(
        HookEvent::SessionEnd,
        &[
            ok_json(json!({"continue": true, "stopReason": "not me"})),
            ok_json(json!({"continue": false, "stopReason": "first"})),
            ok_json(json!({"continue": false, "stopReason": "second"})),
        ],
    );
    assert_eq!(out["continue"], json!(false));
    assert_eq!(out["stop_reason"], "first");
}

#[test]
fn continue_false_is_reported_on_every_event() {
    for event in HookEvent::ALL {
        let out = outcome(event, &[ok_json(json!({"continue": false, "stopReason": "x"}))]);
        assert_eq!(out["continue"], json!(false), "{event}");
    }
}

#[test]
fn hook_specific_output_for_another_event_is_ignored() {
    let out = outcome(
        HookEvent::PreToolUse,
        &[pre_tool_specific(json!({"hookEventName": "PostToolUse", "permissionDecision": "deny"}))],
    );
    assert_eq!(out["decision"], "continue");
}

#[test]
fn hook_specific_output_event_name_matches_case_insensitively() {
    let out = outcome(
        HookEvent::PreToolUse,
        &[pre_tool_specific(json!({"hookEventName": "pretooluse", "permissionDecision": "deny"}))],
    );
    assert_eq!(out["decision"], "deny");
}

#[test]
fn hook_specific_output_without_event_name_applies() {
    let out = outcome(HookEvent::SessionStart, &[ok_json(json!({"hookSpecificOutput": {"additionalContext": "ctx"}}))]);
    assert_eq!(out["additional_context"], json!(["ctx"]));
}

#[test]
fn top_level_additional_context_is_read_for_context_events() {
    for event in
        [HookEvent::SessionStart, HookEvent::UserPromptSubmit, HookEvent::PostToolUse, HookEvent::PostToolUseFailure]
    {
        let out = outcome(
            event,
            &[ok_json(json!({"additional_context": ["a ", " b"]})), ok_json(json!({"additional_context": "c"}))],
        );
        assert_eq!(out["additional_context"], json!(["a", "b", "c"]), "{event}");
    }
}

#[test]
fn suppress_output_ignores_top_level_additional_context() {
    for event in [HookEvent::SessionStart, HookEvent::UserPromptSubmit, HookEvent::PostToolUse] {
        let out = outcome(
            event,
            &[ok_json(json!({"suppressOutput": true, "additional_context": "hidden",
                             "hookSpecificOutput": {"additionalContext": "kept"}}))],
        );
        assert_eq!(out["additional_context"], json!(["kept"]), "{event}");
    }
}

#[test]
fn top_level_additional_context_is_not_read_for_pre_tool_use() {
    let out = outcome(HookEvent::PreToolUse, &[ok_json(json!({"additional_context": "nope"}))]);
    assert_eq!(out["additional_context"], json!([]));
}

#[test]
fn non_zero_exit_still_honours_stdout_json() {
    let out = outcome(HookEvent::PostToolUse, &[exited(1, r#"{"decision":"block","reason":"lint failed"}"#, "oops")]);
    assert_eq!(out["block_reason"], "lint failed");
    assert_eq!(messages(&out, "warning"), vec!["PostToolUse hook `./hook.sh` exited with code 1: oops"]);
}

#[test]
fn timeout_on_any_event_is_error_and_run_goes_on() {
    for event in HookEvent::ALL {
        if event == HookEvent::PreToolUse {
            continue;
        }
        let mut interp = EventInterpreter::new(event, false);
        assert!(!interp.absorb(&timed_out()), "{event}");
        assert!(!interp.absorb(&ok_json(json!({"systemMessage": "next ran"}))), "{event}");
        let out = interp.finish(Vec::new()).to_json();
        let errors = messages(&out, "error");
        assert_eq!(errors.len(), 1, "{event}");
        assert!(errors[0].contains("timed out"), "{event}");
        assert_eq!(messages(&out, "info"), vec!["next ran"], "{event}");
    }
}

#[test]
fn timeout_message_names_event_hook_and_timeout() {
    let out = outcome(HookEvent::Stop, &[timed_out()]);
    assert_eq!(messages(&out, "error"), vec!["Stop hook `./slow.sh` timed out after 7 s"]);
}

#[test]
fn timed_out_hook_output_is_not_read() {
    let out = outcome(
        HookEvent::PermissionRequest,
        &[HookExecution {
            stdout: r#"{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}"#.into(),
            ..timed_out()
        }],
    );
    assert_eq!(out["decision"], Value::Null);
}

#[test]
fn killed_by_signal_counts_as_non_zero_exit() {
    let out = outcome(HookEvent::PostToolUse, &[killed(9)]);
    assert_eq!(messages(&out, "warning"), vec!["PostToolUse hook `./hook.sh` was killed by signal 9"]);
    let out = outcome(HookEvent::SessionEnd, &[killed(15)]);
    assert!(messages(&out, "error")[0].contains("signal 15"));
}

// -------------------------------------------------------------- PreToolUse

#[test]
fn pre_tool_use_exit_2_with_stderr_denies() {
    let (out, absorbed) = run_with(HookEvent::PreToolUse, false, &[exited(2, "", " rm is forbidden \n"), ok("")]);
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "rm is forbidden");
    assert_eq!(absorbed, 1, "deny stops the run");
}

#[test]
fn pre_tool_use_exit_2_without_stderr_is_error_without_decision() {
    let (out, absorbed) = run_with(HookEvent::PreToolUse, false, &[exited(2, "", ""), ok("")]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(messages(&out, "error"), vec!["PreToolUse hook `./hook.sh` exited with code 2 without stderr feedback"]);
    assert_eq!(absorbed, 2);
}

#[test]
fn pre_tool_use_exit_2_ignores_stdout_json() {
    let stdout = json!({"continue": false, "stopReason": "s", "systemMessage": "m",
        "hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"x": 1}}})
    .to_string();
    let out = outcome(HookEvent::PreToolUse, &[exited(2, &stdout, "blocked")]);
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "blocked");
    assert_eq!(out["updated_input"], Value::Null);
    assert_eq!(out["continue"], json!(true));
    assert!(messages(&out, "info").is_empty());
}

#[test]
fn pre_tool_use_other_non_zero_exit_warns_without_decision() {
    let (out, absorbed) = run_with(HookEvent::PreToolUse, false, &[exited(1, "", "boom"), ok("")]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(messages(&out, "warning"), vec!["PreToolUse hook `./hook.sh` exited with code 1: boom"]);
    assert_eq!(absorbed, 2);
}

#[test]
fn pre_tool_use_non_zero_exit_json_decision_is_honoured() {
    let out =
        outcome(HookEvent::PreToolUse, &[exited(3, r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#, "")]);
    assert_eq!(out["decision"], "deny");
    assert_eq!(messages(&out, "warning").len(), 1);
}

#[test]
fn pre_tool_use_signal_kill_warns_without_decision() {
    let out = outcome(HookEvent::PreToolUse, &[killed(9)]);
    assert_eq!(out["decision"], "continue");
    assert!(messages(&out, "warning")[0].contains("signal 9"));
}

#[test]
fn pre_tool_use_continue_false_denies() {
    let (out, absorbed) =
        run_with(HookEvent::PreToolUse, false, &[ok_json(json!({"continue": false, "stopReason": "halt"})), ok("")]);
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "halt");
    assert_eq!(out["continue"], json!(false));
    assert_eq!(out["stop_reason"], "halt");
    assert_eq!(absorbed, 1);
}

#[test]
fn pre_tool_use_continue_false_overrides_allow() {
    let out = outcome(
        HookEvent::PreToolUse,
        &[ok_json(json!({"continue": false, "hookSpecificOutput": {"permissionDecision": "allow"}}))],
    );
    assert_eq!(out["decision"], "deny");
}

#[test]
fn pre_tool_use_permission_decision_allow_stops_run() {
    let (out, absorbed) = run_with(
        HookEvent::PreToolUse,
        false,
        &[
            pre_tool_specific(json!({"hookEventName": "PreToolUse", "permissionDecision": "allow"})),
            exited(2, "", "never"),
        ],
    );
    assert_eq!(out["decision"], "allow");
    assert_eq!(out["reason"], Value::Null);
    assert_eq!(absorbed, 1);
}

#[test]
fn pre_tool_use_permission_decision_deny_stops_run() {
    let (out, absorbed) = run_with(
        HookEvent::PreToolUse,
        false,
        &[
            pre_tool_specific(json!({"permissionDecision": "deny"})),
            pre_tool_specific(json!({"permissionDecision": "allow"})),
        ],
    );
    assert_eq!(out["decision"], "deny");
    assert_eq!(absorbed, 1);
}

#[test]
fn pre_tool_use_permission_decision_ask_does_not_stop() {
    let (out, absorbed) =
        run_with(HookEvent::PreToolUse, false, &[pre_tool_specific(json!({"permissionDecision": "ask"})), ok("")]);
    assert_eq!(out["decision"], "ask");
    assert_eq!(absorbed, 2);
}

#[test]
fn pre_tool_use_permission_decision_reason_applies_to_every_decision() {
    for decision in ["allow", "deny", "ask"] {
        let out = outcome(
            HookEvent::PreToolUse,
            &[pre_tool_specific(json!({"permissionDecision": decision, "permissionDecisionReason": "  because \n"}))],
        );
        assert_eq!(out["decision"], decision);
        assert_eq!(out["reason"], "because", "{decision}");
    }
}

#[test]
fn pre_tool_use_later_allow_replaces_ask() {
    let out = outcome(
        HookEvent::PreToolUse,
        &[
            pre_tool_specific(json!({"permissionDecision": "ask", "permissionDecisionReason": "unsure"})),
            pre_tool_specific(json!({"permissionDecision": "allow", "permissionDecisionReason": "fine"})),
        ],
    );
    assert_eq!(out["decision"], "allow");
    assert_eq!(out["reason"], "fine");
}

#[test]
fn pre_tool_use_legacy_approve_allows() {
    let (out, absorbed) =
        run_with(HookEvent::PreToolUse, false, &[ok_json(json!({"decision": "approve", "reason": "ok"})), ok("")]);
    assert_eq!(out["decision"], "allow");
    assert_eq!(out["reason"], "ok");
    assert_eq!(absorbed, 1);
}

#[test]
fn pre_tool_use_legacy_block_denies_with_top_level_reason() {
    let out = outcome(HookEvent::PreToolUse, &[ok_json(json!({"decision": "block", "reason": " no secrets "}))]);
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "no secrets");
}

#[test]
fn pre_tool_use_permission_decision_wins_over_legacy_decision() {
    let out = outcome(
        HookEvent::PreToolUse,
        &[ok_json(json!({"decision": "approve", "hookSpecificOutput": {"permissionDecision": "deny"}}))],
    );
    assert_eq!(out["decision"], "deny");
}

#[test]
fn pre_tool_use_plain_stdout_is_info_message() {
    let out = outcome(HookEvent::PreToolUse, &[ok("  checked ok \n")]);
    assert_eq!(messages(&out, "info"), vec!["checked ok"]);
    assert_eq!(out["decision"], "continue");
}

#[test]
fn pre_tool_use_stderr_with_exit_0_warns() {
    let out = outcome(HookEvent::PreToolUse, &[exited(0, "", "deprecated flag")]);
    assert_eq!(messages(&out, "warning"), vec!["PreToolUse hook `./hook.sh` wrote to stderr: deprecated flag"]);
    assert_eq!(out["decision"], "continue");
}

#[test]
fn pre_tool_use_updated_input_replaces_tool_input_for_later_hooks() {
    let mut interp = EventInterpreter::new(HookEvent::PreToolUse, false);
    assert_eq!(interp.updated_input(), None);
    interp.absorb(&pre_tool_specific(json!({"updatedInput": {"command": "ls -la"}})));
    assert_eq!(interp.updated_input(), Some(&json!({"command": "ls -la"})));
    interp.absorb(&pre_tool_specific(json!({"updatedInput": {"command": "ls"}})));
    assert_eq!(interp.updated_input(), Some(&json!({"command": "ls"})));
    interp.absorb(&ok(""));
    assert_eq!(interp.updated_input(), Some(&json!({"command": "ls"})));
    let out = interp.finish(Vec::new()).to_json();
    assert_eq!(out["updated_input"], json!({"command": "ls"}));
    assert_eq!(out["decision"], "continue");
}

#[test]
fn pre_tool_use_updated_input_is_kept_when_later_hook_denies() {
    let out = outcome(
        HookEvent::PreToolUse,
        &[pre_tool_specific(json!({"updatedInput": {"path": "/tmp/x"}})), exited(2, "", "denied")],
    );
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["updated_input"], json!({"path": "/tmp/x"}));
}

#[test]
fn pre_tool_use_updated_input_that_is_not_an_object_is_ignored_with_warning() {
    let mut interp = EventInterpreter::new(HookEvent::PreToolUse, false);
    interp.absorb(&pre_tool_specific(json!({"updatedInput": {"a": 1}})));
    interp.absorb(&pre_tool_specific(json!({"updatedInput": "rm -rf /"})));
    interp.absorb(&pre_tool_specific(json!({"updatedInput": [1, 2]})));
    assert_eq!(interp.updated_input(), Some(&json!({"a": 1})));
    let out = interp.finish(Vec::new()).to_json();
    let warnings = messages(&out, "warning");
    assert_eq!(warnings.len(), 2);
    assert!(warnings[0].contains("updatedInput") && warnings[0].contains("not a JSON object"));
}

#[test]
fn pre_tool_use_additional_context_is_collected() {
    let out = outcome(
        HookEvent::PreToolUse,
        &[
            pre_tool_specific(json!({"additionalContext": " one "})),
            pre_tool_specific(json!({"additionalContext": ["two", "three"], "permissionDecision": "ask"})),
        ],
    );
    assert_eq!(out["additional_context"], json!(["one", "two", "three"]));
}

#[test]
fn pre_tool_use_timeout_denies_fail_closed() {
    let (out, absorbed) = run_with(HookEvent::PreToolUse, false, &[timed_out(), ok("")]);
    assert_eq!(out["decision"], "deny");
    assert!(out["reason"].as_str().unwrap().contains("timed out"));
    assert!(messages(&out, "error")[0].contains("timed out"));
    assert_eq!(absorbed, 1);
}

#[test]
fn pre_tool_use_timeout_after_ask_keeps_ask() {
    let (out, absorbed) = run_with(
        HookEvent::PreToolUse,
        false,
        &[
            pre_tool_specific(json!({"permissionDecision": "ask", "permissionDecisionReason": "confirm"})),
            timed_out(),
            ok(""),
        ],
    );
    assert_eq!(out["decision"], "ask");
    assert_eq!(out["reason"], "confirm");
    assert!(messages(&out, "error")[0].contains("timed out"));
    assert_eq!(absorbed, 3);
}

#[test]
fn pre_tool_use_decision_defaults_to_continue() {
    let out = outcome(HookEvent::PreToolUse, &[ok(""), ok_json(json!({"systemMessage": "hi"}))]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(out["reason"], Value::Null);
}

#[test]
fn pre_tool_use_spawn_error_makes_no_decision() {
    let mut interp = EventInterpreter::new(HookEvent::PreToolUse, false);
    interp.absorb_spawn_error("./missing.sh", "No such file or directory");
    assert!(!interp.stopped());
    let out = interp.finish(Vec::new()).to_json();
    assert_eq!(out["decision"], "continue");
    let errors = messages(&out, "error");
    assert!(errors[0].contains("./missing.sh") && errors[0].contains("No such file or directory"));
}

#[test]
fn pre_tool_use_not_approved_hook_makes_no_decision() {
    let mut interp = EventInterpreter::new(HookEvent::PreToolUse, false);
    interp.absorb_not_approved("./check.sh");
    let out = interp.finish(vec![HookReport::not_approved("./check.sh")]).to_json();
    assert_eq!(out["decision"], "continue");
    let errors = messages(&out, "error");
    assert!(errors[0].contains("not approved") && errors[0].contains("./check.sh"));
    assert_eq!(out["hooks"][0]["skipped"], "not_approved");
}

#[test]
fn pre_tool_use_results_after_the_stop_are_ignored() {
    let mut interp = EventInterpreter::new(HookEvent::PreToolUse, false);
    assert!(interp.absorb(&pre_tool_specific(json!({"permissionDecision": "allow"}))));
    assert!(interp.absorb(&exited(2, "", "late deny")));
    let out = interp.finish(Vec::new()).to_json();
    assert_eq!(out["decision"], "allow");
}

#[test]
fn pre_tool_use_unknown_permission_decision_is_ignored_with_warning() {
    let out = outcome(HookEvent::PreToolUse, &[pre_tool_specific(json!({"permissionDecision": "maybe"}))]);
    assert_eq!(out["decision"], "continue");
    assert!(messages(&out, "warning")[0].contains("maybe"));
}

// -------------------------------------------------------- UserPromptSubmit

#[test]
fn user_prompt_submit_exit_2_with_stderr_blocks() {
    let (out, absorbed) = run_with(HookEvent::UserPromptSubmit, false, &[exited(2, "", " secret in prompt "), ok("")]);
    assert_eq!(out["allow_prompt"], json!(false));
    assert_eq!(out["block_reason"], "secret in prompt");
    assert_eq!(absorbed, 1);
}

#[test]
fn user_prompt_submit_exit_2_still_reads_stdout() {
    let out = outcome(
        HookEvent::UserPromptSubmit,
        &[exited(2, r#"{"hookSpecificOutput":{"additionalContext":"ctx"}}"#, "blocked")],
    );
    assert_eq!(out["allow_prompt"], json!(false));
    assert_eq!(out["additional_context"], json!(["ctx"]));
}

#[test]
fn user_prompt_submit_exit_2_without_stderr_is_error_without_block() {
    let (out, absorbed) = run_with(HookEvent::UserPromptSubmit, false, &[exited(2, "", ""), ok("")]);
    assert_eq!(out["allow_prompt"], json!(true));
    assert_eq!(out["block_reason"], Value::Null);
    assert!(messages(&out, "error")[0].contains("without stderr feedback"));
    assert_eq!(absorbed, 2);
}

#[test]
fn user_prompt_submit_other_non_zero_exit_warns() {
    let out = outcome(HookEvent::UserPromptSubmit, &[exited(1, "", "bad")]);
    assert_eq!(out["allow_prompt"], json!(true));
    assert_eq!(messages(&out, "warning"), vec!["UserPromptSubmit hook `./hook.sh` exited with code 1: bad"]);
}

#[test]
fn user_prompt_submit_continue_false_blocks_with_stop_reason() {
    let out = outcome(
        HookEvent::UserPromptSubmit,
        &[ok_json(json!({"continue": false, "stopReason": "stop it", "reason": "other"}))],
    );
    assert_eq!(out["allow_prompt"], json!(false));
    assert_eq!(out["block_reason"], "stop it");
}

#[test]
fn user_prompt_submit_continue_false_falls_back_to_reason() {
    let out = outcome(HookEvent::UserPromptSubmit, &[ok_json(json!({"continue": false, "reason": "why"}))]);
    assert_eq!(out["block_reason"], "why");
}

#[test]
fn user_prompt_submit_continue_false_without_reason_is_error_without_block() {
    let (out, absorbed) = run_with(
        HookEvent::UserPromptSubmit,
        false,
        &[ok_json(json!({"continue": false, "stopReason": "  "})), ok("")],
    );
    assert_eq!(out["allow_prompt"], json!(true));
    assert_eq!(out["continue"], json!(false));
    assert_eq!(messages(&out, "error").len(), 1);
    assert_eq!(absorbed, 2);
}

#[test]
fn user_prompt_submit_decision_block_with_reason_blocks() {
    let out = outcome(HookEvent::UserPromptSubmit, &[ok_json(json!({"decision": "block", "reason": " policy "}))]);
    assert_eq!(out["allow_prompt"], json!(false));
    assert_eq!(out["block_reason"], "policy");
}

#[test]
fn user_prompt_submit_decision_block_without_reason_is_error_without_block() {
    let out = outcome(HookEvent::UserPromptSubmit, &[ok_json(json!({"decision": "block"}))]);
    assert_eq!(out["allow_prompt"], json!(true));
    assert!(messages(&out, "error")[0].contains("without a reason"));
}

#[test]
fn user_prompt_submit_plain_stdout_is_additional_context() {
    let out = outcome(HookEvent::UserPromptSubmit, &[ok(" branch: main \n")]);
    assert_eq!(out["additional_context"], json!(["branch: main"]));
    assert_eq!(all_messages(&out), 0);
}

#[test]
fn user_prompt_submit_hook_specific_additional_context_is_collected() {
    let out = outcome(
        HookEvent::UserPromptSubmit,
        &[ok_json(json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "x"}}))],
    );
    assert_eq!(out["additional_context"], json!(["x"]));
}

#[test]
fn user_prompt_submit_stops_at_first_block_and_keeps_its_reason() {
    let (out, absorbed) = run_with(
        HookEvent::UserPromptSubmit,
        false,
        &[
            ok("ctx"),
            ok_json(json!({"decision": "block", "reason": "first"})),
            ok_json(json!({"decision": "block", "reason": "second"})),
        ],
    );
    assert_eq!(out["block_reason"], "first");
    assert_eq!(out["additional_context"], json!(["ctx"]));
    assert_eq!(absorbed, 2);
}

// ------------------------------------------------------------ SessionStart

#[test]
fn session_start_plain_stdout_is_additional_context() {
    let out = outcome(HookEvent::SessionStart, &[ok("  Today is Monday \n"), ok("second")]);
    assert_eq!(out["additional_context"], json!(["Today is Monday", "second"]));
    assert_eq!(all_messages(&out), 0);
}

#[test]
fn session_start_additional_context_may_be_string_or_array() {
    let out = outcome(
        HookEvent::SessionStart,
        &[
            ok_json(json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "one"}})),
            ok_json(json!({"hookSpecificOutput": {"additionalContext": ["two", " ", "three"]}})),
        ],
    );
    assert_eq!(out["additional_context"], json!(["one", "two", "three"]));
}

#[test]
fn session_start_non_zero_exit_is_error() {
    let out = outcome(HookEvent::SessionStart, &[exited(1, "", "no git")]);
    assert_eq!(messages(&out, "error"), vec!["SessionStart hook `./hook.sh` exited with code 1: no git"]);
}

#[test]
fn session_start_stderr_with_exit_0_is_error() {
    let out = outcome(HookEvent::SessionStart, &[exited(0, "ctx", "careful")]);
    assert_eq!(messages(&out, "error"), vec!["SessionStart hook `./hook.sh` wrote to stderr: careful"]);
    assert_eq!(out["additional_context"], json!(["ctx"]));
}

#[test]
fn session_start_quiet_success_output_keeps_plain_stdout_as_context() {
    let (out, _) = run_with(HookEvent::SessionStart, true, &[ok("ctx")]);
    assert_eq!(out["additional_context"], json!(["ctx"]));
}

// ------------------------------------------ PostToolUse / PostToolUseFailure

#[test]
fn post_tool_use_decision_block_with_reason_sets_block_reason() {
    let out = outcome(HookEvent::PostToolUse, &[ok_json(json!({"decision": "block", "reason": " fix lint "}))]);
    assert_eq!(out["block_reason"], "fix lint");
}

#[test]
fn post_tool_use_first_block_wins_and_all_hooks_run() {
    let (out, absorbed) = run_with(
        HookEvent::PostToolUse,
        false,
        &[
            ok_json(json!({"decision": "block", "reason": "first"})),
            ok_json(json!({"decision": "block", "reason": "second"})),
            ok_json(json!({"systemMessage": "third ran"})),
        ],
    );
    assert_eq!(out["block_reason"], "first");
    assert_eq!(messages(&out, "info"), vec!["third ran"]);
    assert_eq!(absorbed, 3);
}

#[test]
fn post_tool_use_block_without_reason_is_error_without_block() {
    let out = outcome(HookEvent::PostToolUse, &[ok_json(json!({"decision": "block", "reason": ""}))]);
    assert_eq!(out["block_reason"], Value::Null);
    assert!(messages(&out, "error")[0].contains("without a reason"));
}

#[test]
fn post_tool_use_additional_context_is_collected() {
    let out = outcome(
        HookEvent::PostToolUse,
        &[ok_json(json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "tests pass"}}))],
    );
    assert_eq!(out["additional_context"], json!(["tests pass"]));
}

#[test]
fn post_tool_use_non_zero_exit_warns() {
    let out = outcome(HookEvent::PostToolUse, &[exited(4, "", "")]);
    assert_eq!(messages(&out, "warning"), vec!["PostToolUse hook `./hook.sh` exited with code 4"]);
    assert!(messages(&out, "error").is_empty());
}

#[test]
fn post_tool_use_plain_stdout_is_info_message() {
    let out = outcome(HookEvent::PostToolUse, &[ok("formatted 3 files")]);
    assert_eq!(messages(&out, "info"), vec!["formatted 3 files"]);
    assert_eq!(out["additional_context"], json!([]));
}

#[test]
fn post_tool_use_failure_reads_like_post_tool_use() {
    let out = outcome(
        HookEvent::PostToolUseFailure,
        &[
            ok_json(
                json!({"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "retry"}}),
            ),
            ok_json(json!({"decision": "block", "reason": "give up"})),
            exited(1, "", ""),
        ],
    );
    assert_eq!(out["additional_context"], json!(["retry"]));
    assert_eq!(out["block_reason"], "give up");
    assert_eq!(messages(&out, "warning").len(), 1);
}

// ------------------------------------------------------- PermissionRequest

fn permission(spec: Value) -> HookExecution {
    ok_json(json!({ "hookSpecificOutput": spec }))
}

#[test]
fn permission_request_allow_decision_defaults_to_once() {
    let out = outcome(
        HookEvent::PermissionRequest,
        &[permission(json!({"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}))],
    );
    assert_eq!(
        out["decision"],
        json!({"behavior":"allow","scope":"once","updated_input":null,"permission_updates":[],
               "interrupt":false,"message":null})
    );
}

#[test]
fn permission_request_deny_carries_message_and_interrupt() {
    let out = outcome(
        HookEvent::PermissionRequest,
        &[permission(json!({"decision": {"behavior": "deny", "message": " not on main ", "interrupt": true}}))],
    );
    assert_eq!(out["decision"]["behavior"], "deny");
    assert_eq!(out["decision"]["message"], "not on main");
    assert_eq!(out["decision"]["interrupt"], json!(true));
}

#[test]
fn permission_request_updated_input_is_returned() {
    let out = outcome(
        HookEvent::PermissionRequest,
        &[permission(json!({"decision": {"behavior": "allow", "updatedInput": {"command": "ls"}}}))],
    );
    assert_eq!(out["decision"]["updated_input"], json!({"command": "ls"}));
}

#[test]
fn permission_request_claude_update_targeting_session_gives_session_scope() {
    let update = json!({"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "ls:*"}],
                        "behavior": "allow", "destination": "session"});
    let out = outcome(
        HookEvent::PermissionRequest,
        &[permission(json!({"decision": {"behavior": "allow", "updatedPermissions": [update.clone()]}}))],
    );
    assert_eq!(out["decision"]["scope"], "session");
    assert_eq!(out["decision"]["permission_updates"], json!([update]));
}

#[test]
fn permission_request_update_targeting_project_settings_is_permanent() {
    let updates = json!([
        {"type": "addRules", "rules": [{"toolName": "Read"}], "behavior": "allow", "destination": "session"},
        {"type": "addRules", "rules": [{"toolName": "Bash"}], "behavior": "allow", "destination": "projectSettings"}
    ]);
    let out = outcome(
        HookEvent::PermissionRequest,
        &[permission(json!({"decision": {"behavior": "allow", "updatedPermissions": updates.clone()}}))],
    );
    assert_eq!(out["decision"]["scope"], "permanent");
    assert_eq!(out["decision"]["permission_updates"], updates);
}

#[test]
fn permission_request_other_destinations_keep_once_scope() {
    let out = outcome(
        HookEvent::PermissionRequest,
        &[permission(json!({"decision": {"behavior": "allow",
            "updatedPermissions": [{"type": "setMode", "mode": "acceptEdits", "destination": "userSettings"}]}}))],
    );
    assert_eq!(out["decision"]["scope"], "once");
    assert_eq!(out["decision"]["permission_updates"].as_array().unwrap().len(), 1);
}

#[test]
fn permission_request_vtcode_update_shape_is_read() {
    let out = outcome(
        HookEvent::PermissionRequest,
        &[permission(json!({"decision": {"behavior": "allow",
            "updatedPermissions": [{"addRules": ["Bash(cargo test:*)"], "destination": "projectSettings"}]}}))],
    );
    assert_eq!(out["decision"]["scope"], "permanent");
    assert_eq!(
        out["decision"]["permission_updates"],
        json!([{"addRules": ["Bash(cargo test:*)"], "destination": "projectSettings"}])
    );
    // A VT Code update without a destination targets the session.
    let out = outcome(
        HookEvent::PermissionRequest,
        &[permission(json!({"decision": {"behavior": "allow", "updatedPermissions": {"addRules": ["Read"]}}}))],
    );
    assert_eq!(out["decision"]["scope"], "session");
    assert_eq!(out["decision"]["permission_updates"], json!([{"addRules": ["Read"]}]));
}

#[test]
fn permission_request_vtcode_placement_in_hook_specific_output_is_read() {
    let out = outcome(
        HookEvent::PermissionRequest,
        &[permission(json!({
            "decision": {"behavior": "allow"},
            "updatedInput": {"file": "a.txt"},
            "updatedPermissions": [{"addRules": ["Edit"], "destination": "session"}],
            "message": "approved by policy"
        }))],
    );
    let d = &out["decision"];
    assert_eq!(d["updated_input"], json!({"file": "a.txt"}));
    assert_eq!(d["scope"], "session");
    assert_eq!(d["message"], "approved by policy");
}

#[test]
fn permission_request_fields_inside_decision_win() {
    let out = outcome(
        HookEvent::PermissionRequest,
        &[permission(json!({
            "decision": {"behavior": "deny", "message": "inner", "updatedInput": {"v": "inner"}},
            "updatedInput": {"v": "outer"},
            "message": "outer"
        }))],
    );
    assert_eq!(out["decision"]["message"], "inner");
    assert_eq!(out["decision"]["updated_input"], json!({"v": "inner"}));
}

#[test]
fn permission_request_stops_at_first_decision() {
    let (out, absorbed) = run_with(
        HookEvent::PermissionRequest,
        false,
        &[
            ok(""),
            permission(json!({"decision": {"behavior": "deny"}})),
            permission(json!({"decision": {"behavior": "allow"}})),
        ],
    );
    assert_eq!(out["decision"]["behavior"], "deny");
    assert_eq!(absorbed, 2);
}

#[test]
fn permission_request_without_valid_behavior_makes_no_decision() {
    let (out, absorbed) = run_with(
        HookEvent::PermissionRequest,
        false,
        &[permission(json!({"decision": {"behavior": "maybe"}})), permission(json!({"message": "just a note"}))],
    );
    assert_eq!(out["decision"], Value::Null);
    assert_eq!(absorbed, 2);
    assert_eq!(messages(&out, "warning").len(), 1);
}

#[test]
fn permission_request_timeout_makes_no_decision_and_run_goes_on() {
    let (out, absorbed) = run_with(
        HookEvent::PermissionRequest,
        false,
        &[timed_out(), permission(json!({"decision": {"behavior": "allow"}}))],
    );
    assert_eq!(out["decision"]["behavior"], "allow");
    assert!(messages(&out, "error")[0].contains("timed out"));
    assert_eq!(absorbed, 2);
}

#[test]
fn permission_request_non_zero_exit_warns() {
    let out = outcome(HookEvent::PermissionRequest, &[exited(1, "", "")]);
    assert_eq!(messages(&out, "warning"), vec!["PermissionRequest hook `./hook.sh` exited with code 1"]);
    assert_eq!(out["decision"], Value::Null);
}

// -------------------------------------------------------------------- Stop

#[test]
fn stop_decision_block_with_reason_blocks() {
    let (out, absorbed) =
        run_with(HookEvent::Stop, false, &[ok_json(json!({"decision": "block", "reason": " tests fail "})), ok("")]);
    assert_eq!(out["block_reason"], "tests fail");
    assert_eq!(absorbed, 1);
}

#[test]
fn stop_continue_false_uses_stop_reason_as_block_reason() {
    let out = outcome(HookEvent::Stop, &[ok_json(json!({"continue": false, "stopReason": "keep going"}))]);
    assert_eq!(out["block_reason"], "keep going");
    assert_eq!(out["stop_reason"], "keep going");
    assert_eq!(out["continue"], json!(false));
}

#[test]
fn stop_decision_block_reason_wins_over_stop_reason() {
    let out = outcome(
        HookEvent::Stop,
        &[ok_json(json!({"decision": "block", "reason": "r", "continue": false, "stopReason": "s"}))],
    );
    assert_eq!(out["block_reason"], "r");
}

#[test]
fn stop_block_without_reason_is_error_without_block() {
    let (out, absorbed) = run_with(HookEvent::Stop, false, &[ok_json(json!({"decision": "block"})), ok("")]);
    assert_eq!(out["block_reason"], Value::Null);
    assert!(messages(&out, "error")[0].contains("without a reason"));
    assert_eq!(absorbed, 2);
}

#[test]
fn stop_stops_at_first_block() {
    let (out, absorbed) = run_with(
        HookEvent::Stop,
        false,
        &[
            ok(""),
            ok_json(json!({"decision": "block", "reason": "one"})),
            ok_json(json!({"decision": "block", "reason": "two"})),
        ],
    );
    assert_eq!(out["block_reason"], "one");
    assert_eq!(absorbed, 2);
}

#[test]
fn stop_without_block_lets_the_agent_stop() {
    let out = outcome(HookEvent::Stop, &[ok("done"), exited(1, "", "")]);
    assert_eq!(out["block_reason"], Value::Null);
    assert_eq!(messages(&out, "warning").len(), 1);
}

// ------------------------------------------------------- observer events

#[test]
fn observer_events_never_block() {
    for event in OBSERVERS {
        let mut interp = EventInterpreter::new(event, false);
        assert!(!interp.absorb(&ok_json(json!({"decision": "block", "reason": "x"}))), "{event}");
        assert!(!interp.absorb(&exited(2, "", "stderr")), "{event}");
        assert!(!interp.absorb(&ok_json(json!({"continue": false}))), "{event}");
        assert!(!interp.stopped());
    }
}

#[test]
fn observer_non_zero_exit_is_error_message() {
    for event in OBSERVERS {
        let out = outcome(event, &[exited(2, "", "disk full")]);
        assert_eq!(
            messages(&out, "error"),
            vec![format!("{} hook `./hook.sh` exited with code 2: disk full", event.name())]
        );
    }
}

#[test]
fn observer_stderr_is_error_message() {
    let out = outcome(HookEvent::Notification, &[exited(0, "", "noisy")]);
    assert_eq!(messages(&out, "error"), vec!["Notification hook `./hook.sh` wrote to stderr: noisy"]);
}

#[test]
fn observer_plain_stdout_and_system_message_are_info_messages() {
    let out = outcome(HookEvent::SubagentStop, &[ok("plain"), ok_json(json!({"systemMessage": "sys"}))]);
    assert_eq!(messages(&out, "info"), vec!["plain", "sys"]);
}

// ------------------------------------------------- quiet_success_output

#[test]
fn quiet_success_output_drops_plain_stdout_of_successful_hooks() {
    for event in [
        HookEvent::PreToolUse,
        HookEvent::PostToolUse,
        HookEvent::Stop,
        HookEvent::Notification,
        HookEvent::PermissionRequest,
    ] {
        let (out, _) = run_with(event, true, &[ok("chatty")]);
        assert_eq!(all_messages(&out), 0, "{event}");
    }
}

#[test]
fn quiet_success_output_keeps_plain_stdout_of_failed_hooks() {
    let (out, _) = run_with(HookEvent::PostToolUse, true, &[exited(1, "why it failed", "")]);
    assert_eq!(messages(&out, "info"), vec!["why it failed"]);
}

#[test]
fn quiet_success_output_keeps_system_message() {
    let (out, _) = run_with(HookEvent::Notification, true, &[ok_json(json!({"systemMessage": "shown"}))]);
    assert_eq!(messages(&out, "info"), vec!["shown"]);
}

// ------------------------------------------------------ messages and order

#[test]
fn messages_name_the_event_and_hook_in_configuration_order() {
    let out = outcome(
        HookEvent::PostToolUse,
        &[labelled(exited(1, "", "a"), "./first.sh"), labelled(exited(0, "", "b"), "audit-callback")],
    );
    assert_eq!(
        messages(&out, "warning"),
        vec![
            "PostToolUse hook `./first.sh` exited with code 1: a",
            "PostToolUse hook `audit-callback` wrote to stderr: b"
        ]
    );
}

#[test]
fn not_approved_message_names_the_command_on_every_event() {
    for event in HookEvent::ALL {
        let mut interp = EventInterpreter::new(event, false);
        interp.absorb_not_approved("./guard.sh --strict");
        assert!(!interp.stopped());
        let out = interp.finish(Vec::new()).to_json();
        let errors = messages(&out, "error");
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("not approved") && errors[0].contains("./guard.sh --strict"), "{event}");
        assert!(errors[0].contains(event.name()));
    }
}

// ----------------------------------------------------- callback hooks

#[test]
fn callback_returning_non_zero_is_exit_1() {
    let exec = HookExecution::from_callback(HookEvent::PostToolUse, "cb", &CallResult::failed());
    assert_eq!(exec.exit_code, Some(1));
    assert_eq!(exec.label, "cb");
    let out = outcome(HookEvent::PostToolUse, &[exec]);
    assert_eq!(messages(&out, "warning"), vec!["PostToolUse hook `cb` exited with code 1"]);
}

#[test]
fn callback_deny_is_exit_2_with_message_on_stderr_and_denies_pre_tool_use() {
    for ok in [true, false] {
        let result = CallResult { ok, reply: Reply::Deny("not allowed".into()) };
        let exec = HookExecution::from_callback(HookEvent::PreToolUse, "guard", &result);
        assert_eq!(exec.exit_code, Some(2));
        assert_eq!(exec.stderr, "not allowed");
        let out = outcome(HookEvent::PreToolUse, &[exec]);
        assert_eq!(out["decision"], "deny");
        assert_eq!(out["reason"], "not allowed");
    }
}

#[test]
fn callback_allow_is_permission_decision_allow_on_pre_tool_use() {
    let exec = HookExecution::from_callback(HookEvent::PreToolUse, "guard", &CallResult::ok(Reply::Allow));
    assert_eq!(exec.exit_code, Some(0));
    // Exactly what a command hook that allows prints.
    let stdout: serde_json::Value = serde_json::from_str(&exec.stdout).unwrap();
    assert_eq!(stdout, json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}));
    let out = outcome(HookEvent::PreToolUse, &[exec]);
    assert_eq!(out["decision"], "allow");
}

#[test]
fn callback_allow_means_nothing_on_other_events() {
    for event in HookEvent::ALL {
        if event == HookEvent::PreToolUse {
            continue;
        }
        let exec = HookExecution::from_callback(event, "cb", &CallResult::ok(Reply::Allow));
        assert_eq!(exec.stdout, "", "{event}");
        let out = outcome(event, &[exec]);
        assert_eq!(all_messages(&out), 0, "{event}");
    }
}

#[test]
fn callback_json_reply_is_read_as_stdout() {
    let reply =
        Reply::Json(json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "from cb"}}));
    let exec = HookExecution::from_callback(HookEvent::SessionStart, "cb", &CallResult::ok(reply));
    let out = outcome(HookEvent::SessionStart, &[exec]);
    assert_eq!(out["additional_context"], json!(["from cb"]));
}

#[test]
fn callback_json_string_reply_is_plain_text() {
    let exec =
        HookExecution::from_callback(HookEvent::UserPromptSubmit, "cb", &CallResult::ok(Reply::Json(json!("hint"))));
    let out = outcome(HookEvent::UserPromptSubmit, &[exec]);
    assert_eq!(out["additional_context"], json!(["hint"]));
}

#[test]
fn failed_callback_json_reply_is_still_honoured() {
    let reply = Reply::Json(json!({"decision": "block", "reason": "from failed cb"}));
    let exec = HookExecution::from_callback(HookEvent::Stop, "cb", &CallResult { ok: false, reply });
    assert_eq!(exec.exit_code, Some(1));
    let out = outcome(HookEvent::Stop, &[exec]);
    assert_eq!(out["block_reason"], "from failed cb");
}

fn status_lost() -> HookExecution {
    HookExecution { label: "./check.sh".into(), exit_code: None, signal: None, ..HookExecution::default() }
}

#[test]
fn pre_tool_use_unknown_exit_status_denies_fail_closed() {
    let (out, absorbed) = run_with(HookEvent::PreToolUse, false, &[status_lost(), ok("")]);
    assert_eq!(out["decision"], "deny");
    assert!(out["reason"].as_str().unwrap().contains("unknown exit status"));
    assert!(messages(&out, "error")[0].contains("unknown exit status"));
    assert_eq!(absorbed, 1);
}

#[test]
fn unknown_exit_status_on_an_observer_event_is_an_error_message_only() {
    let out = outcome(HookEvent::PostToolUse, &[status_lost()]);
    assert_eq!(out["block_reason"], Value::Null);
    assert!(messages(&out, "warning")
        .iter()
        .chain(messages(&out, "error").iter())
        .any(|m| m.contains("unknown exit status")));
}
