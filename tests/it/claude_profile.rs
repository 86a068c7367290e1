//! The Claude Code profile against the VT Code profile, with real shell
//! hooks: the same hooks written in both dialects, each profile's answer
//! asserted. Claude Code's exit-code table is checked row by row, and a few
//! hooks are Python and Node scripts written the way Claude Code users
//! write them (`tests/fixtures/claude/`).

use std::path::Path;

use hookline::{HookEvent, LifecycleHookEngine};
use serde_json::{json, Value};

use crate::support::{cmd, fixture_command, run, say, texts, Ws};

/// An engine of a Claude Code (or VT Code) config given inline.
trait Engines {
    fn engine(&self, hooks: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn engine(&self, hooks: Value) -> LifecycleHookEngine {
        self.engine_with(json!({ "hooks": hooks }))
    }
}

// ---------------------------------------------------------------- helpers

#[derive(Clone, Copy, Debug, PartialEq)]
enum D {
    Vt,
    Claude,
}

/// One group with `hooks` for `event`, in dialect `d`. Hook objects are
/// written in the Claude form; for VT Code `timeout` becomes
/// `timeout_seconds`.
fn config(d: D, event: HookEvent, groups: &[(Option<&str>, Vec<Value>)]) -> Value {
    let groups: Vec<Value> = groups
        .iter()
        .map(|(matcher, hooks)| {
            let hooks: Vec<Value> = hooks
                .iter()
                .map(|h| {
                    let mut h = h.clone();
                    if d == D::Vt {
                        if let Some(t) = h.as_object_mut().and_then(|o| o.remove("timeout")) {
                            h["timeout_seconds"] = t;
                        }
                    }
                    h
                })
                .collect();
            let mut g = json!({ "hooks": hooks });
            if let Some(m) = matcher {
                g["matcher"] = json!(m);
            }
            g
        })
        .collect();
    match d {
        D::Vt => json!({ "lifecycle": { event.key(): groups } }),
        D::Claude => json!({ event.name(): groups }),
    }
}

/// A complete input for `event` (valid in both profiles).
fn input(event: HookEvent) -> Value {
    match event {
        HookEvent::SessionStart => json!({}),
        HookEvent::SessionEnd => json!({"turn_id": "t1", "reason": "exit"}),
        HookEvent::SubagentStart | HookEvent::SubagentStop => json!({
            "parent_session_id": "s-1", "child_thread_id": "c1", "agent_name": "explorer",
            "display_label": "Explorer", "background": false, "status": "done"
        }),
        HookEvent::UserPromptSubmit => json!({"turn_id": "t1", "prompt": "hello"}),
        HookEvent::PreToolUse => json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_call_id": "c1"}),
        HookEvent::PostToolUse => {
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {"ok": true}})
        }
        HookEvent::PermissionRequest => {
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "permission_request": {"reason": "x"}})
        }
        HookEvent::PreCompact => json!({
            "trigger": "auto", "mode": "local", "original_message_count": 10, "compacted_message_count": 2
        }),
        HookEvent::Stop => json!({"last_assistant_message": "done", "stop_hook_active": false}),
        HookEvent::Notification => json!({"notification_type": "idle_prompt", "title": "t", "message": "m"}),
        HookEvent::PostToolUseFailure => json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "error": "boom"}),
    }
}

/// Run `hooks` (one group, match-all) for `event` in dialect `d`.
fn run_hooks(d: D, event: HookEvent, hooks: Vec<Value>) -> Value {
    let ws = Ws::new();
    let e = ws.engine(config(d, event, &[(None, hooks)]));
    run(&e, event, input(event))
}

fn any_message(out: &Value, needle: &str) -> bool {
    out["messages"].as_array().unwrap().iter().any(|m| m["text"].as_str().unwrap().contains(needle))
}

fn decision(d: &str, reason: &str) -> String {
    say(
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": d, "permissionDecisionReason": reason}}),
    )
}

fn fixture(name: &str) -> String {
    fixture_command("claude", name, "node")
}

// ------------------------------------------------- PreToolUse precedence

#[test]
fn pre_tool_use_later_deny_wins_over_an_earlier_allow_in_claude_profile_only() {
    let hooks = || vec![cmd(decision("allow", "fine")), cmd(decision("deny", "guard says no"))];
    let claude = run_hooks(D::Claude, HookEvent::PreToolUse, hooks());
    assert_eq!(claude["decision"], "deny");
    assert_eq!(claude["reason"], "guard says no");
    assert_eq!(claude["hooks"].as_array().unwrap().len(), 2, "every hook runs");
    let vt = run_hooks(D::Vt, HookEvent::PreToolUse, hooks());
    assert_eq!(vt["decision"], "allow");
    assert_eq!(vt["hooks"].as_array().unwrap().len(), 1, "VT Code stops at the first allow");
}

#[test]
fn pre_tool_use_ask_is_not_replaced_by_a_later_allow_in_claude_profile() {
    let hooks = || vec![cmd(decision("ask", "confirm")), cmd(decision("allow", "ok"))];
    let claude = run_hooks(D::Claude, HookEvent::PreToolUse, hooks());
    assert_eq!(claude["decision"], "ask");
    assert_eq!(claude["reason"], "confirm");
    let vt = run_hooks(D::Vt, HookEvent::PreToolUse, hooks());
    assert_eq!(vt["decision"], "allow");
}

#[test]
fn pre_tool_use_precedence_is_deny_over_ask_over_allow_over_continue() {
    for (hooks, want) in [
        (vec!["continue", "allow"], "allow"),
        (vec!["allow", "ask", "allow"], "ask"),
        (vec!["ask", "deny", "allow"], "deny"),
        (vec!["continue", "continue"], "continue"),
    ] {
        let cmds =
            hooks.iter().map(|d| if *d == "continue" { cmd("cat >/dev/null") } else { cmd(decision(d, d)) }).collect();
        let out = run_hooks(D::Claude, HookEvent::PreToolUse, cmds);
        assert_eq!(out["decision"], want, "{hooks:?}");
    }
}

#[test]
fn pre_tool_use_reason_is_that_of_the_first_hook_with_the_winning_decision() {
    let out = run_hooks(
        D::Claude,
        HookEvent::PreToolUse,
        vec![
            cmd(decision("ask", "ask one")),
            cmd(decision("deny", "first deny")),
            cmd(decision("deny", "second deny")),
        ],
    );
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "first deny");
}

#[test]
fn pre_tool_use_every_hook_receives_the_original_tool_input_in_claude_profile() {
    for d in [D::Claude, D::Vt] {
        let ws = Ws::new();
        let seen = ws.file("seen.json");
        let hooks = vec![
            cmd(say(json!({"hookSpecificOutput": {"updatedInput": {"command": "ls -la"}}}))),
            cmd(format!("cat > '{}'", seen.display())),
        ];
        let e = ws.engine(config(d, HookEvent::PreToolUse, &[(None, hooks)]));
        let out = run(&e, HookEvent::PreToolUse, input(HookEvent::PreToolUse));
        assert_eq!(out["updated_input"], json!({"command": "ls -la"}), "{d:?}");
        let payload: Value = serde_json::from_str(&ws.read("seen.json")).unwrap();
        let want = if d == D::Claude { json!({"command": "ls"}) } else { json!({"command": "ls -la"}) };
        assert_eq!(payload["tool_input"], want, "{d:?}");
    }
}

#[test]
fn pre_tool_use_last_updated_input_wins_with_a_warning_naming_the_conflict() {
    let out = run_hooks(
        D::Claude,
        HookEvent::PreToolUse,
        vec![
            cmd(say(json!({"hookSpecificOutput": {"updatedInput": {"command": "one"}}}))),
            cmd(say(json!({"hookSpecificOutput": {"updatedInput": {"command": "two"}}}))),
        ],
    );
    assert_eq!(out["updated_input"], json!({"command": "two"}));
    let warnings = texts(&out, "warning");
    assert!(warnings.iter().any(|w| w.contains("updatedInput") && w.contains("one")), "{warnings:?}");
}

#[test]
fn pre_tool_use_hooks_run_concurrently_in_claude_profile() {
    // Each hook waits until all three have started: only a concurrent run
    // lets every one of them finish before its 20 s deadline.
    let ws = Ws::new();
    let dir = ws.path().display().to_string();
    let hook = |i: u32| {
        cmd(format!(
            "cat >/dev/null; touch '{dir}/started{i}'; n=0; while [ $n -lt 400 ]; do \
             [ -e '{dir}/started1' ] && [ -e '{dir}/started2' ] && [ -e '{dir}/started3' ] && exit 0; \
             sleep 0.05; n=$((n+1)); done; echo 'not concurrent' >&2; exit 1"
        ))
    };
    let e = ws.engine(config(D::Claude, HookEvent::PreToolUse, &[(None, vec![hook(1), hook(2), hook(3)])]));
    let out = run(&e, HookEvent::PreToolUse, input(HookEvent::PreToolUse));
    for i in 0..3 {
        assert_eq!(out["hooks"][i]["exit_code"], 0, "{out}");
    }
}

// ---------------------------------------- Claude Code's exit-code table

/// `echo <reason> >&2; exit 2` for `event` in dialect `d`.
fn exit2(d: D, event: HookEvent) -> Value {
    run_hooks(d, event, vec![cmd("cat >/dev/null; echo 'stderr says' >&2; exit 2")])
}

#[test]
fn exit_2_pre_tool_use_denies_with_stderr_in_both_profiles() {
    for d in [D::Claude, D::Vt] {
        let out = exit2(d, HookEvent::PreToolUse);
        assert_eq!(out["decision"], "deny", "{d:?}");
        assert_eq!(out["reason"], "stderr says", "{d:?}");
        assert_eq!(out["hooks"][0]["failure"], Value::Null, "a deliberate exit 2 is not a failure");
    }
}

#[test]
fn exit_2_user_prompt_submit_blocks_with_stderr_in_both_profiles() {
    for d in [D::Claude, D::Vt] {
        let out = exit2(d, HookEvent::UserPromptSubmit);
        assert_eq!(out["allow_prompt"], false, "{d:?}");
        assert_eq!(out["block_reason"], "stderr says", "{d:?}");
    }
}

#[test]
fn exit_2_stop_blocks_in_claude_profile_and_warns_in_vt_code() {
    let claude = exit2(D::Claude, HookEvent::Stop);
    assert_eq!(claude["block_reason"], "stderr says");
    let vt = exit2(D::Vt, HookEvent::Stop);
    assert_eq!(vt["block_reason"], Value::Null);
    assert!(texts(&vt, "warning").iter().any(|t| t.contains("stderr says")));
}

#[test]
fn exit_2_subagent_stop_blocks_in_claude_profile_only() {
    let claude = exit2(D::Claude, HookEvent::SubagentStop);
    assert_eq!(claude["block_reason"], "stderr says");
    let vt = exit2(D::Vt, HookEvent::SubagentStop);
    assert!(vt.get("block_reason").is_none(), "VT Code's SubagentStop is an observer: {vt}");
    assert!(texts(&vt, "error").iter().any(|t| t.contains("stderr says")));
}

#[test]
fn exit_2_pre_compact_blocks_in_claude_profile_only() {
    let claude = exit2(D::Claude, HookEvent::PreCompact);
    assert_eq!(claude["block_reason"], "stderr says");
    let vt = exit2(D::Vt, HookEvent::PreCompact);
    assert!(vt.get("block_reason").is_none());
}

#[test]
fn exit_2_post_tool_use_feeds_stderr_back_as_block_reason_in_claude_profile() {
    for event in [HookEvent::PostToolUse, HookEvent::PostToolUseFailure] {
        let claude = exit2(D::Claude, event);
        assert_eq!(claude["block_reason"], "stderr says", "{event}");
        let vt = exit2(D::Vt, event);
        assert_eq!(vt["block_reason"], Value::Null, "{event}");
        assert!(texts(&vt, "warning").iter().any(|t| t.contains("stderr says")), "{event}");
    }
}

#[test]
fn exit_2_session_start_session_end_subagent_start_show_stderr_to_the_user() {
    for event in [HookEvent::SessionStart, HookEvent::SessionEnd, HookEvent::SubagentStart] {
        for d in [D::Claude, D::Vt] {
            let out = exit2(d, event);
            assert!(texts(&out, "error").iter().any(|t| t.contains("stderr says")), "{event} {d:?}: {out}");
            assert_eq!(out["continue"], true);
        }
    }
}

#[test]
fn exit_2_notification_is_ignored_in_claude_profile() {
    let claude = exit2(D::Claude, HookEvent::Notification);
    assert_eq!(claude["messages"], json!([]));
    let vt = exit2(D::Vt, HookEvent::Notification);
    assert!(texts(&vt, "error").iter().any(|t| t.contains("stderr says")));
}

#[test]
fn exit_2_permission_request_is_not_a_decision_in_claude_profile() {
    let claude = exit2(D::Claude, HookEvent::PermissionRequest);
    assert_eq!(claude["decision"], Value::Null);
    assert_eq!(claude["messages"], json!([]), "stderr is discarded");
    // Only hookSpecificOutput.decision decides, even with exit 2.
    let out = run_hooks(
        D::Claude,
        HookEvent::PermissionRequest,
        vec![cmd(format!(
            "{}; echo no >&2; exit 2",
            say(
                json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}})
            )
        ))],
    );
    assert_eq!(out["decision"]["behavior"], "allow");
}

#[test]
fn exit_2_with_allow_json_still_denies_and_other_fields_are_read_in_claude_profile() {
    let out = run_hooks(
        D::Claude,
        HookEvent::PreToolUse,
        vec![cmd(format!(
            "{}; echo 'stderr reason' >&2; exit 2",
            say(
                json!({"systemMessage": "from json", "hookSpecificOutput": {"permissionDecision": "allow", "additionalContext": "ctx"}})
            )
        ))],
    );
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "stderr reason");
    assert_eq!(out["additional_context"], json!(["ctx"]));
    assert!(texts(&out, "info").contains(&"from json".to_owned()));
}

#[test]
fn exit_2_blocking_reason_in_stdout_json_is_used_over_stderr_in_claude_profile() {
    let out = run_hooks(
        D::Claude,
        HookEvent::Stop,
        vec![cmd(format!(
            "{}; echo 'stderr reason' >&2; exit 2",
            say(json!({"decision": "block", "reason": "json reason"}))
        ))],
    );
    assert_eq!(out["block_reason"], "json reason");
}

#[test]
fn exit_2_without_stderr_still_blocks_in_claude_profile() {
    let claude = run_hooks(D::Claude, HookEvent::PreToolUse, vec![cmd("cat >/dev/null; exit 2")]);
    assert_eq!(claude["decision"], "deny");
    assert!(claude["reason"].as_str().unwrap().contains("exited with code 2"));
    let vt = run_hooks(D::Vt, HookEvent::PreToolUse, vec![cmd("cat >/dev/null; exit 2")]);
    assert_eq!(vt["decision"], "continue");
    assert!(any_message(&vt, "without stderr feedback"));
}

#[test]
fn other_non_zero_exit_is_a_non_blocking_error_and_json_is_still_honoured() {
    for d in [D::Claude, D::Vt] {
        let plain = run_hooks(d, HookEvent::PreToolUse, vec![cmd("cat >/dev/null; echo oops >&2; exit 1")]);
        assert_eq!(plain["decision"], "continue", "{d:?}");
        assert!(any_message(&plain, "exited with code 1: oops"), "{d:?}");
        assert_eq!(plain["hooks"][0]["failure"], "exit");
        let json = run_hooks(d, HookEvent::PreToolUse, vec![cmd(format!("{}; exit 1", decision("deny", "json deny")))]);
        assert_eq!(json["decision"], "deny", "{d:?}");
    }
}

// ----------------------------------------------- context only on exit 0

/// "Exit 0 means success ... The exceptions are `UserPromptSubmit`,
/// `UserPromptExpansion`, and `SessionStart`, where Claude Code adds
/// plain-text stdout as context"; any other non-zero exit with plain stdout
/// "is a non-blocking error", whose stdout is no context.
#[test]
fn session_start_stdout_is_context_only_on_exit_0_in_claude_profile() {
    let hooks = || vec![cmd("echo 'ctx from a failing hook'; exit 1"), cmd("echo 'ctx ok'")];
    let claude = run_hooks(D::Claude, HookEvent::SessionStart, hooks());
    assert_eq!(claude["additional_context"], json!(["ctx ok"]));
    let vt = run_hooks(D::Vt, HookEvent::SessionStart, hooks());
    assert_eq!(vt["additional_context"], json!(["ctx from a failing hook", "ctx ok"]));
}

#[test]
fn user_prompt_submit_plain_stdout_is_context_only_on_exit_0_and_json_on_any_exit_in_claude_profile() {
    // "Claude Code reads JSON output fields from stdout on every exit code,
    // not just 0"; with another code, "Claude Code ignores the exit code and
    // the JSON alone decides the outcome ... the hook isn't reported as an
    // error". Plain stdout on exit 1 is "a non-blocking error".
    let failing_json = format!(
        "{}; exit 1",
        say(json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "json ctx"}}))
    );
    let hooks = || {
        vec![
            cmd(failing_json.clone()),
            cmd("cat >/dev/null; echo 'plain on exit 1'; exit 1"),
            cmd("cat >/dev/null; echo 'plain ctx'"),
        ]
    };
    let claude = run_hooks(D::Claude, HookEvent::UserPromptSubmit, hooks());
    assert_eq!(claude["additional_context"], json!(["json ctx", "plain ctx"]));
    let failures: Vec<Value> = claude["hooks"].as_array().unwrap().iter().map(|h| h["failure"].clone()).collect();
    assert_eq!(failures, vec![Value::Null, json!("exit"), Value::Null]);
    let vt = run_hooks(D::Vt, HookEvent::UserPromptSubmit, hooks());
    assert_eq!(vt["additional_context"], json!(["json ctx", "plain on exit 1", "plain ctx"]));
}

// ------------------------------------------------------ SubagentStop block

#[test]
fn subagent_stop_decision_block_sets_block_reason_in_claude_profile() {
    let hooks = || vec![cmd(say(json!({"decision": "block", "reason": "finish the report"})))];
    let claude = run_hooks(D::Claude, HookEvent::SubagentStop, hooks());
    assert_eq!(claude["block_reason"], "finish the report");
    let vt = run_hooks(D::Vt, HookEvent::SubagentStop, hooks());
    assert!(vt.get("block_reason").is_none());
}

// --------------------------------------------------- failure kinds

#[test]
fn every_hook_report_has_a_failure_kind_in_both_profiles() {
    for d in [D::Claude, D::Vt] {
        let out = run_hooks(
            d,
            HookEvent::PostToolUse,
            vec![
                cmd("cat >/dev/null; exit 0"),
                json!({"command": "sleep 5", "timeout": 1}),
                cmd("kill -9 $$"),
                cmd("cat >/dev/null; echo '{not json'"),
                cmd("cat >/dev/null; exit 3"),
            ],
        );
        let kinds: Vec<Value> = out["hooks"].as_array().unwrap().iter().map(|h| h["failure"].clone()).collect();
        assert_eq!(
            kinds,
            [json!(null), json!("timeout"), json!("signal"), json!("invalid_output"), json!("exit")],
            "{d:?}"
        );
    }
}

#[test]
fn a_hook_that_cannot_start_reports_failure_spawn() {
    for d in [D::Claude, D::Vt] {
        let ws = Ws::new();
        let sub = ws.file("gone");
        std::fs::create_dir(&sub).unwrap();
        let e = LifecycleHookEngine::from_options_json(
            &json!({"workspace": sub, "session_id": "s", "hooks": config(d, HookEvent::Stop, &[(None, vec![cmd("true")])])})
                .to_string(),
        )
        .unwrap();
        std::fs::remove_dir(&sub).unwrap();
        let out = run(&e, HookEvent::Stop, input(HookEvent::Stop));
        assert_eq!(out["hooks"][0]["failure"], "spawn", "{d:?}: {out}");
        assert!(any_message(&out, "could not be started"));
    }
}

#[test]
fn pre_tool_use_timeout_denies_in_vt_code_and_fails_open_in_claude_profile() {
    let hooks = || vec![json!({"command": "sleep 5", "timeout": 1})];
    let vt = run_hooks(D::Vt, HookEvent::PreToolUse, hooks());
    assert_eq!(vt["decision"], "deny");
    let claude = run_hooks(D::Claude, HookEvent::PreToolUse, hooks());
    assert_eq!(claude["decision"], "continue");
    assert!(any_message(&claude, "timed out after 1 s"));
    assert_eq!(claude["hooks"][0]["failure"], "timeout");
}

#[test]
fn fail_closed_hooks_deny_or_block_when_they_fail() {
    let failing = |how: &str| {
        let command = match how {
            "timeout" => "sleep 5",
            _ => "cat >/dev/null; echo crashed >&2; exit 1",
        };
        vec![json!({"command": command, "timeout": 1, "failClosed": true})]
    };
    for how in ["timeout", "exit"] {
        let out = run_hooks(D::Claude, HookEvent::PreToolUse, failing(how));
        assert_eq!(out["decision"], "deny", "{how}");
        let out = run_hooks(D::Claude, HookEvent::UserPromptSubmit, failing(how));
        assert_eq!(out["allow_prompt"], false, "{how}");
        let out = run_hooks(D::Claude, HookEvent::Stop, failing(how));
        assert!(out["block_reason"].is_string(), "{how}");
        let out = run_hooks(D::Claude, HookEvent::PermissionRequest, failing(how));
        assert_eq!(out["decision"]["behavior"], "deny", "{how}");
    }
    // Without failClosed the same hooks fail open.
    let out = run_hooks(D::Claude, HookEvent::UserPromptSubmit, vec![cmd("cat >/dev/null; exit 1")]);
    assert_eq!(out["allow_prompt"], true);
}

// ------------------------------------------------------ config fields

#[test]
fn identical_commands_run_once_in_claude_profile_and_twice_in_vt_code() {
    for (d, want) in [(D::Claude, "x\n"), (D::Vt, "x\nx\n")] {
        let ws = Ws::new();
        let log = ws.file("log");
        let hook = cmd(format!("cat >/dev/null; echo x >> '{}'", log.display()));
        let e = ws.engine(config(d, HookEvent::PostToolUse, &[(Some("Bash"), vec![hook.clone()]), (None, vec![hook])]));
        let out = run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
        assert_eq!(ws.read("log"), want, "{d:?}");
        assert_eq!(out["hooks"].as_array().unwrap().len(), want.lines().count());
    }
}

#[test]
fn if_condition_filters_a_hook_before_it_spawns_in_claude_profile() {
    for d in [D::Claude, D::Vt] {
        let ws = Ws::new();
        let log = ws.file("log");
        let hook = json!({"command": format!("cat >/dev/null; echo ran >> '{}'", log.display()), "if": "Bash(git *)"});
        let e = ws.engine(config(d, HookEvent::PreToolUse, &[(None, vec![hook])]));
        run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "ls -la"}}));
        let after_ls = ws.read("log");
        run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "git status"}}));
        let after_git = ws.read("log");
        if d == D::Claude {
            assert_eq!((after_ls.as_str(), after_git.as_str()), ("", "ran\n"));
        } else {
            assert_eq!((after_ls.as_str(), after_git.as_str()), ("ran\n", "ran\nran\n"), "VT Code has no `if`");
        }
    }
}

#[test]
fn status_message_is_copied_into_the_report() {
    let out =
        run_hooks(D::Claude, HookEvent::Stop, vec![json!({"command": "true", "statusMessage": "Checking tests"})]);
    assert_eq!(out["hooks"][0]["status_message"], "Checking tests");
}

// ------------------------------------------------------------ inputs

#[test]
fn claude_profile_accepts_claude_values_and_minimal_inputs() {
    let ws = Ws::new();
    let claude = ws.engine(config(D::Claude, HookEvent::SessionEnd, &[(None, vec![cmd("true")])]));
    for reason in ["clear", "logout", "prompt_input_exit", "other"] {
        assert!(claude.run_blocking(HookEvent::SessionEnd, &json!({ "reason": reason })).is_ok(), "{reason}");
    }
    assert!(claude.run_blocking(HookEvent::Stop, &json!({})).is_ok());
    assert!(claude.run_blocking(HookEvent::PreCompact, &json!({"trigger": "manual"})).is_ok());
    assert!(claude.run_blocking(HookEvent::PermissionRequest, &json!({"tool_name": "Bash"})).is_ok());
    assert!(claude.run_blocking(HookEvent::PreToolUse, &json!({})).is_err(), "tool_name stays required");
    let vt = ws.engine(config(D::Vt, HookEvent::SessionEnd, &[(None, vec![cmd("true")])]));
    let e = vt.run_blocking(HookEvent::SessionEnd, &json!({"turn_id": "t", "reason": "logout"})).unwrap_err();
    assert_eq!(e.status, hookline::Status::InvalidArgument);
}

#[test]
fn an_engine_without_hooks_validates_like_the_claude_profile() {
    let ws = Ws::new();
    let e = ws.engine_with(json!({}));
    assert!(e.run_blocking(HookEvent::SessionEnd, &json!({"reason": "logout"})).is_ok());
    assert!(e.run_blocking(HookEvent::PreToolUse, &json!({})).is_err());
}

#[test]
fn trigger_option_accepts_claude_clear() {
    let ws = Ws::new();
    let seen = ws.file("p.json");
    let e = ws.engine_with(json!({"trigger": "clear", "hooks": config(D::Claude, HookEvent::SessionStart,
        &[(None, vec![cmd(format!("cat > '{}'", seen.display()))])])}));
    run(&e, HookEvent::SessionStart, json!({}));
    let payload: Value = serde_json::from_str(&ws.read("p.json")).unwrap();
    assert_eq!(payload["source"], "clear");
}

// ------------------------------------------- hooks as Claude users write them

#[test]
fn python_guard_denies_even_when_a_node_auto_approver_allows_first() {
    let ws = Ws::new();
    let hooks = vec![cmd(fixture("auto_approve.js")), cmd(fixture("bash_guard.py"))];
    let e = ws.engine(config(D::Claude, HookEvent::PreToolUse, &[(Some("Bash"), hooks)]));
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}));
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "Refusing to run: rm -rf /");
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "git status"}}));
    assert_eq!(out["decision"], "allow");
    assert_eq!(out["reason"], "read-only git command");
}

#[test]
fn python_exit_2_guard_and_ask_hook_combine_most_restrictive_first() {
    let ws = Ws::new();
    let hooks = vec![cmd(fixture("ask_on_push.py")), cmd(fixture("exit2_guard.py"))];
    let e = ws.engine(config(D::Claude, HookEvent::PreToolUse, &[(Some("Bash"), hooks)]));
    let out =
        run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "git push origin"}}));
    assert_eq!(out["decision"], "ask");
    assert_eq!(out["reason"], "Pushing needs your confirmation");
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "sudo git push"}}));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "sudo is not allowed in this project");
}

#[test]
fn node_prompt_guard_blocks_secrets_and_adds_context_otherwise() {
    let ws = Ws::new();
    let e = ws.engine(config(D::Claude, HookEvent::UserPromptSubmit, &[(None, vec![cmd(fixture("prompt_guard.js"))])]));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "use key sk-abcdefgh1234"}));
    assert_eq!(out["allow_prompt"], false);
    assert_eq!(out["block_reason"], "The prompt contains an API key");
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "hello"}));
    assert_eq!(out["additional_context"], json!(["Current branch: main"]));
}

#[test]
fn python_stop_gate_blocks_stop_and_subagent_stop_once() {
    let ws = Ws::new();
    let mut hooks = config(D::Claude, HookEvent::Stop, &[(None, vec![cmd(fixture("stop_gate.py"))])]);
    hooks["SubagentStop"] = hooks["Stop"].clone();
    let e = ws.engine(hooks);
    for event in [HookEvent::Stop, HookEvent::SubagentStop] {
        let out = run(&e, event, json!({"stop_hook_active": false}));
        assert_eq!(out["block_reason"], "Run the test suite before stopping", "{event}");
        let out = run(&e, event, json!({"stop_hook_active": true}));
        assert_eq!(out["block_reason"], Value::Null, "{event}");
    }
}

#[test]
fn python_session_start_hook_adds_context() {
    let ws = Ws::new();
    let e = ws.engine(config(D::Claude, HookEvent::SessionStart, &[(None, vec![cmd(fixture("session_context.py"))])]));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["additional_context"], json!(["Session started from startup"]));
}

// ------------------------------------------------------- events by name

#[test]
fn run_named_fires_an_unknown_event_key_with_observer_rules() {
    let ws = Ws::new();
    let seen = ws.file("p.json");
    let hooks = json!({"FutureEvent": [
        {"matcher": "auto", "hooks": [cmd(format!("cat > '{}'; echo compacted", seen.display()))]},
        {"matcher": "manual", "hooks": [cmd("cat >/dev/null; echo manual; exit 2")]}
    ]});
    let e = ws.engine(hooks);
    let out = e.run_named_blocking("FutureEvent", &json!({"matcher_value": "auto", "extra": 1})).unwrap().to_json();
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "{out}");
    assert_eq!(texts(&out, "info"), ["compacted"]);
    assert!(out.get("block_reason").is_none() && out.get("decision").is_none(), "observer outcome: {out}");
    let payload: Value = serde_json::from_str(&ws.read("p.json")).unwrap();
    assert_eq!(payload["hook_event_name"], "FutureEvent");
    assert_eq!(payload["extra"], 1);
    assert_eq!(payload["session_id"], "s-1");
    // Without matcher_value every group matches; exit 2 never blocks an unknown event.
    let out = e.run_named_blocking("FutureEvent", &json!({})).unwrap().to_json();
    assert_eq!(out["hooks"].as_array().unwrap().len(), 2);
    assert!(texts(&out, "error").iter().any(|t| t.contains("manual")), "{out}");
    // A name without hooks is an empty outcome, not an error.
    let out = e.run_named_blocking("NoSuchEvent", &json!({})).unwrap().to_json();
    assert_eq!(out["hooks"], json!([]));
    for bad in ["", "  ", "a\0b"] {
        assert_eq!(e.run_named_blocking(bad, &json!({})).unwrap_err().status, hookline::Status::InvalidArgument);
    }
    assert_eq!(e.run_named_blocking("FutureEvent", &json!([])).unwrap_err().status, hookline::Status::InvalidArgument);
}

#[test]
fn run_named_with_a_known_event_name_keeps_its_rules() {
    let ws = Ws::new();
    let e = ws.engine(config(D::Claude, HookEvent::Stop, &[(None, vec![cmd(EXIT2_HOOK)])]));
    let out = e.run_named_blocking("Stop", &json!({})).unwrap().to_json();
    assert_eq!(out["block_reason"], "stderr says");
    let vt = ws.engine(config(D::Vt, HookEvent::SessionEnd, &[(None, vec![cmd("true")])]));
    let err = vt.run_named_blocking("SessionEnd", &json!({"reason": "logout"})).unwrap_err();
    assert_eq!(err.status, hookline::Status::InvalidArgument, "known events keep their input validation");
}

#[test]
fn run_named_async_calls_done_with_the_outcome() {
    let ws = Ws::new();
    let e = ws.engine(json!({"TeammateIdle": [{"hooks": [cmd("cat >/dev/null; echo idle")]}]}));
    let (tx, rx) = std::sync::mpsc::channel();
    e.run_named_async("TeammateIdle", json!({}), move |r| tx.send(r.map(|o| o.to_json())).unwrap()).unwrap();
    let out = rx.recv_timeout(std::time::Duration::from_secs(30)).expect("done within 30 s").unwrap();
    assert_eq!(texts(&out, "info"), ["idle"]);
}

/// "A misspelt event (`PreToolUze`) runs nothing": a run by a name no config
/// names warns, listing the configured events and the closest known name,
/// in every named entry point (blocking, JSON, async) and in
/// `event_name_warning`; configured, canonical and agent-defined names never
/// warn, and neither does a run of a known event.
#[test]
fn run_named_warns_when_no_config_names_the_event_and_suggests_the_closest_name() {
    let ws = Ws::new();
    let ran = ws.file("ran");
    let touch = cmd(format!("cat >/dev/null; touch '{}'", ran.display()));
    let e = ws.engine(json!({
        "PreToolUse": [{"matcher": "Bash", "hooks": [touch.clone()]}],
        "TeammateIdle": [{"hooks": [cmd("cat >/dev/null; echo idle")]}]
    }));
    let expected = "no hooks config names the event `PreToolUze`, so no hook ran (the configured events are \
                    PreToolUse, TeammateIdle); did you mean `PreToolUse`?";
    let out = e.run_named_blocking("PreToolUze", &json!({"tool_name": "Bash"})).unwrap().to_json();
    assert_eq!(out["messages"], json!([{"level": "warning", "text": expected}]), "{out}");
    assert_eq!(out["hooks"], json!([]));
    assert!(!ran.exists(), "nothing runs for an unknown name");
    let text = e.run_named_blocking_json("PreToolUze", &json!({})).unwrap();
    let out: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(texts(&out, "warning"), [expected]);
    assert_eq!(e.event_name_warning("PreToolUze").unwrap().as_deref(), Some(expected));
    let (tx, rx) = std::sync::mpsc::channel();
    e.run_named_async("PreToolUze", json!({}), move |r| tx.send(r.map(|o| o.to_json())).unwrap()).unwrap();
    let out = rx.recv_timeout(std::time::Duration::from_secs(30)).expect("done within 30 s").unwrap();
    assert_eq!(texts(&out, "warning"), [expected]);
    // A name far from every known one gets the list without a suggestion.
    let w = e.event_name_warning("Deploy").unwrap().unwrap();
    assert!(w.contains("`Deploy`") && w.contains("PreToolUse, TeammateIdle") && !w.contains("did you mean"), "{w}");
    // Known names: canonical, configured, an agent's own event (Codex's PostCompact).
    for name in ["PreToolUse", "TeammateIdle", "PostCompact", "SessionEnd"] {
        assert_eq!(e.event_name_warning(name).unwrap(), None, "{name}");
        let input = json!({"tool_name": "Read"});
        let out: Value = serde_json::from_str(&e.run_named_blocking_json(name, &input).unwrap()).unwrap();
        assert!(texts(&out, "warning").is_empty(), "{name}: {out}");
    }
    let out = e.run_named_blocking("TeammateIdle", &json!({})).unwrap().to_json();
    assert_eq!(texts(&out, "info"), ["idle"]);
    assert!(texts(&out, "warning").is_empty());
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash"}));
    assert!(out["messages"].as_array().unwrap().is_empty(), "{out}");
    assert!(ran.exists());
    // Without any hooks config the warning says so.
    let empty = ws.engine(json!({}));
    let w = empty.event_name_warning("Stpo").unwrap().unwrap();
    assert!(w.contains("no event has hooks configured") && w.ends_with("did you mean `Stop`?"), "{w}");
    assert_eq!(empty.event_name_warning(" ").unwrap_err().status, hookline::Status::InvalidArgument);
}

const EXIT2_HOOK: &str = "cat >/dev/null; echo 'stderr says' >&2; exit 2";

// ------------------------------------------------------- CLAUDE_ENV_FILE

#[test]
fn session_start_env_file_lines_are_returned_as_env_in_configuration_order() {
    let ws = Ws::new();
    let hooks = vec![
        cmd("echo 'export A=first' >> \"$CLAUDE_ENV_FILE\"; echo 'B=\"two words\"' >> \"$CLAUDE_ENV_FILE\""),
        cmd("sleep 0.2; echo 'A=second' >> \"$CLAUDE_ENV_FILE\"; echo 'not a line' >> \"$CLAUDE_ENV_FILE\""),
        cmd(fixture("session_context.py")),
    ];
    let e = ws.engine(config(D::Claude, HookEvent::SessionStart, &[(None, hooks)]));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["env"], json!({"A": "second", "B": "two words", "PROJECT_MODE": "strict"}));
    assert_eq!(out["additional_context"], json!(["Session started from startup"]));
    // The files are gone after the run.
    let vt = ws.engine(config(
        D::Vt,
        HookEvent::SessionStart,
        &[(None, vec![cmd("printf %s \"${CLAUDE_ENV_FILE:-unset}\"")])],
    ));
    let out = run(&vt, HookEvent::SessionStart, json!({}));
    assert!(out.get("env").is_none(), "VT Code profile has no env: {out}");
    assert_eq!(out["additional_context"], json!(["unset"]));
}

#[test]
fn session_start_env_file_is_private_and_removed_after_the_run() {
    let ws = Ws::new();
    let record = ws.file("path");
    let hook = cmd(format!(
        "printf '%s' \"$CLAUDE_ENV_FILE\" > '{}'; stat -c %a \"$CLAUDE_ENV_FILE\" >> '{}.mode'",
        record.display(),
        record.display()
    ));
    let e = ws.engine(config(D::Claude, HookEvent::SessionStart, &[(None, vec![hook])]));
    run(&e, HookEvent::SessionStart, json!({}));
    let path = ws.read("path");
    assert!(!path.is_empty());
    assert_eq!(ws.read("path.mode").trim(), "600");
    assert!(!Path::new(&path).exists(), "the env file is removed after the run");
}

// ---------------------------------------------------------- hook_sources

#[test]
fn hook_sources_gate_only_untrusted_sources_and_set_plugin_root() {
    let ws = Ws::new();
    let user = config(
        D::Claude,
        HookEvent::Stop,
        &[(None, vec![cmd(format!("cat >/dev/null; touch '{}'", ws.file("user").display()))])],
    );
    let plugin = config(
        D::Claude,
        HookEvent::Stop,
        &[(
            None,
            vec![cmd(format!("cat >/dev/null; printf %s \"$CLAUDE_PLUGIN_ROOT\" > '{}'", ws.file("root").display()))],
        )],
    );
    let e = ws.engine_with(json!({
        "workspace_gated": true, "trust_store": ws.file("trust.json"),
        "hook_sources": [{"hooks": user, "trusted": true}, {"hooks": plugin, "plugin_root": "/plugins/fmt"}]
    }));
    assert!(e.workspace_hooks_need_approval());
    let previews = e.command_previews();
    assert_eq!(previews.len(), 1, "only the untrusted command is in the digest");
    assert!(previews[0].command.contains("CLAUDE_PLUGIN_ROOT"));
    let out = run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert!(ws.file("user").exists(), "a trusted source runs without approval");
    assert_eq!(out["hooks"][1]["skipped"], "not_approved");
    e.approve_workspace_hooks(false).unwrap();
    run(&e, HookEvent::Stop, input(HookEvent::Stop));
    assert_eq!(ws.read("root"), "/plugins/fmt");
}

#[test]
fn hook_sources_deduplicate_identical_commands_across_sources() {
    let ws = Ws::new();
    let log = ws.file("log");
    let same = config(
        D::Claude,
        HookEvent::PostToolUse,
        &[(None, vec![cmd(format!("cat >/dev/null; echo x >> '{}'", log.display()))])],
    );
    let e = ws.engine_with(json!({"hook_sources": [{"hooks": same.clone(), "trusted": true}, {"hooks": same}]}));
    run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
    assert_eq!(ws.read("log"), "x\n");
}

#[test]
fn hook_sources_options_are_validated() {
    let ws = Ws::new();
    let one = config(D::Claude, HookEvent::Stop, &[(None, vec![cmd("true")])]);
    for (extra, needle) in [
        (json!({"hook_sources": {}}), "hook_sources"),
        (json!({"hook_sources": [5]}), "hook_sources[0]"),
        (json!({"hook_sources": [{"trusted": true}]}), "hook_sources[0]"),
        (json!({"hook_sources": [{"hooks": one, "trusted": "yes"}]}), "hook_sources[0].trusted"),
        (json!({"hook_sources": [{"hooks": one, "plugin_root": 3}]}), "hook_sources[0].plugin_root"),
        (json!({"hook_sources": [{"hooks": one, "hooks_file": "x.json"}]}), "hook_sources[0]"),
        (json!({"hook_sources": [{"hooks": one, "colour": 1}]}), "hook_sources[0].colour"),
        (json!({"hook_sources": [{"hooks": one}], "hooks": one}), "hook_sources"),
        (json!({"hook_sources": [{"hooks": one, "dialect": "cursr"}]}), "hook_sources[0].dialect"),
        (json!({"hook_sources": [{"hooks": one, "dialect": 7}]}), "hook_sources[0].dialect"),
        (json!({"hook_sources": [{"hooks": one}], "dialect": "claude"}), "dialect"),
    ] {
        let e = LifecycleHookEngine::from_options_json(&ws.options(extra.clone()).to_string()).unwrap_err();
        assert_eq!(e.status, hookline::Status::InvalidArgument, "{extra}");
        assert!(e.message.contains(needle), "{extra}: {}", e.message);
    }
    // Sources of different dialects combine in one engine: each hook keeps
    // its dialect's payload and reading rules.
    let vt = config(D::Vt, HookEvent::Stop, &[(None, vec![cmd("true")])]);
    let e = LifecycleHookEngine::from_options_json(
        &ws.options(json!({"hook_sources": [{"hooks": one}, {"hooks": vt}]})).to_string(),
    )
    .expect("sources of two dialects");
    assert_eq!(e.command_previews().len(), 2);
}

// ------------------------------------------------------------ async hooks

#[test]
fn async_hooks_do_not_hold_the_run_and_their_output_arrives_with_the_next_outcome() {
    let ws = Ws::new();
    let gate = ws.file("go");
    let async_hook = vec![json!({"command": format!(
            "cat >/dev/null; n=0; while [ ! -e '{}' ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n+1)); done; \
             printf '%s\\n' '{{\"systemMessage\":\"async done\",\"hookSpecificOutput\":{{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"late ctx\"}},\"decision\":\"block\",\"reason\":\"ignored\"}}'",
            gate.display()
        ), "async": true})];
    let sync_hook = vec![cmd("cat >/dev/null; echo sync")];
    // The async hook runs for Bash only; later runs use another tool so
    // that they start no new async hook.
    let e = ws.engine(config(D::Claude, HookEvent::PostToolUse, &[(Some("Bash"), async_hook), (None, sync_hook)]));
    // The run returns while the async hook still waits for `go`.
    let first = run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
    assert_eq!(first["hooks"].as_array().unwrap().len(), 1, "only the synchronous hook is reported: {first}");
    assert!(!any_message(&first, "async done"));
    std::fs::write(&gate, "").unwrap();
    // Its output arrives with a later outcome (any event); wait for it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let later = loop {
        let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "Read", "tool_response": 1}));
        if any_message(&out, "async done") {
            break out;
        }
        assert!(std::time::Instant::now() < deadline, "the async hook's output never arrived");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(later["additional_context"].as_array().unwrap().contains(&json!("late ctx")), "{later}");
    assert_eq!(later["block_reason"], Value::Null, "decision fields of async hooks are ignored");
    // Delivered once.
    let again = run(&e, HookEvent::Stop, json!({}));
    assert!(!any_message(&again, "async done"));
}

#[test]
fn async_hooks_start_from_reserved_runs_and_the_no_hook_answer_defers_to_them() {
    let ws = Ws::new();
    let async_hook = vec![json!({"command": say(json!({"systemMessage": "async done"})), "async": true})];
    let e = ws.engine(config(D::Claude, HookEvent::PostToolUse, &[(Some("Bash"), async_hook)]));
    let bash = input(HookEvent::PostToolUse);
    // Only an async hook matches: still not a no-hook run (it must start).
    assert_eq!(e.outcome_if_no_hook_matches(HookEvent::PostToolUse, &bash).unwrap(), None);
    let read = json!({"tool_name": "Read", "tool_response": 1});
    assert!(e.outcome_if_no_hook_matches(HookEvent::PostToolUse, &read).unwrap().is_some());
    let id = e.reserve_run().unwrap();
    let first: Value = serde_json::from_str(&e.run_reserved_json(id, HookEvent::PostToolUse, &bash).unwrap()).unwrap();
    assert!(!any_message(&first, "async done"), "{first}");
    // Once its output waits, the no-hook answer defers to a real run, which
    // (reserved as well) delivers it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while e.outcome_if_no_hook_matches(HookEvent::PostToolUse, &read).unwrap().is_some() {
        assert!(std::time::Instant::now() < deadline, "the async hook's output never arrived");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let id = e.reserve_run().unwrap();
    let later: Value = serde_json::from_str(&e.run_reserved_json(id, HookEvent::PostToolUse, &read).unwrap()).unwrap();
    assert!(any_message(&later, "async done"), "{later}");
    assert!(e.outcome_if_no_hook_matches(HookEvent::PostToolUse, &read).unwrap().is_some(), "delivered once");
}

#[test]
fn close_kills_async_hooks_and_waits_for_them() {
    let ws = Ws::new();
    let started = ws.file("started");
    let finished = ws.file("finished");
    let async_hook = vec![json!({"command": format!(
        "cat >/dev/null; echo $$ > '{}.tmp' && mv '{}.tmp' '{}'; sleep 30; touch '{}'",
        started.display(), started.display(), started.display(), finished.display()
    ), "async": true})];
    let e = ws.engine(config(D::Claude, HookEvent::PostToolUse, &[(None, async_hook)]));
    run(&e, HookEvent::PostToolUse, input(HookEvent::PostToolUse));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !started.exists() {
        assert!(std::time::Instant::now() < deadline, "the async hook never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let t = std::time::Instant::now();
    e.close();
    assert!(t.elapsed() < std::time::Duration::from_secs(20), "close waited for the hook instead of killing it");
    assert!(!finished.exists(), "the async hook ran to its end");
    // close returned after the hook's process was killed and reaped.
    let pid = std::fs::read_to_string(&started).unwrap().trim().to_string();
    let alive =
        std::process::Command::new("kill").args(["-0", &pid]).stderr(std::process::Stdio::null()).status().unwrap();
    assert!(!alive.success(), "the async hook's shell {pid} outlived close");
}

// ------------------------------------------ the reference's exit-code output

#[test]
fn pre_tool_use_json_on_exit_1_decides_and_is_not_an_error_in_claude_profile() {
    // "With a parsed object that passes schema validation ... Claude Code
    // ignores the exit code and the JSON alone decides the outcome: Each
    // field the event supports is honored, including permissionDecision,
    // additionalContext ... and the hook isn't reported as an error."
    let deny = format!(
        "{}; echo oops >&2; exit 1",
        say(json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "json says no", "additionalContext": "ctx from exit 1"
        }}))
    );
    let out = run_hooks(D::Claude, HookEvent::PreToolUse, vec![cmd(deny)]);
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "json says no");
    assert_eq!(out["additional_context"], json!(["ctx from exit 1"]));
    assert_eq!(out["hooks"][0]["failure"], Value::Null);
    assert!(texts(&out, "error").is_empty(), "{out}");
    // "With stdout that Claude Code treats as plain text, or with empty
    // stdout, it's a non-blocking error."
    let out = run_hooks(D::Claude, HookEvent::PreToolUse, vec![cmd("cat >/dev/null; echo oops >&2; exit 1")]);
    assert_eq!(out["hooks"][0]["failure"], "exit");
    assert_eq!(texts(&out, "error").len(), 1, "{out}");
}

#[test]
fn stderr_of_a_hook_that_exits_0_is_no_message_in_claude_profile() {
    // "Stderr from a hook that exits 0 goes to the debug log only, never the
    // transcript, and Claude never sees it."
    for event in [HookEvent::PreToolUse, HookEvent::SessionStart, HookEvent::Stop, HookEvent::PostToolUse] {
        let out = run_hooks(D::Claude, event, vec![cmd("cat >/dev/null; echo 'just a warning' >&2; exit 0")]);
        assert_eq!(out["messages"], json!([]), "{event:?}: {out}");
        assert_eq!(out["hooks"][0]["failure"], Value::Null);
    }
    // VT Code shows it.
    let out = run_hooks(D::Vt, HookEvent::PreToolUse, vec![cmd("cat >/dev/null; echo 'just a warning' >&2; exit 0")]);
    assert_eq!(out["messages"].as_array().unwrap().len(), 1, "{out}");
}

#[test]
fn stop_continue_false_stops_claude_and_overrides_every_block_in_claude_profile() {
    // continue: "If false, Claude stops processing entirely after the hook
    // runs. Takes precedence over any event-specific decision fields."
    for event in [HookEvent::Stop, HookEvent::SubagentStop] {
        let out = run_hooks(
            D::Claude,
            event,
            vec![
                cmd(say(json!({"decision": "block", "reason": "keep going"}))),
                cmd(say(json!({"continue": false, "stopReason": "out of budget"}))),
            ],
        );
        assert_eq!(out["block_reason"], Value::Null, "{event:?}: {out}");
        assert_eq!(out["continue"], false);
        assert_eq!(out["stop_reason"], "out of budget");
        // Alone, decision "block" still blocks.
        let out = run_hooks(D::Claude, event, vec![cmd(say(json!({"decision": "block", "reason": "keep going"})))]);
        assert_eq!(out["block_reason"], "keep going");
        assert_eq!(out["continue"], true);
    }
}

#[test]
fn events_that_discard_system_message_and_continue_ignore_them_in_claude_profile() {
    // PreCompact: "Claude Code discards a PreCompact hook's systemMessage and
    // continue fields." Notification: "Claude Code discards their
    // systemMessage and continue fields." SessionEnd: "Claude Code discards
    // their JSON output fields, such as systemMessage."
    let common = say(json!({"continue": false, "stopReason": "halt", "systemMessage": "hello user"}));
    for event in [HookEvent::PreCompact, HookEvent::Notification, HookEvent::SessionEnd] {
        let out = run_hooks(D::Claude, event, vec![cmd(common.clone())]);
        assert_eq!(out["continue"], true, "{event:?}: {out}");
        assert_eq!(out["stop_reason"], Value::Null, "{event:?}: {out}");
        assert_eq!(out["messages"], json!([]), "{event:?}: {out}");
    }
    // Events that keep them: PostToolUse reads both.
    let out = run_hooks(D::Claude, HookEvent::PostToolUse, vec![cmd(common)]);
    assert_eq!((out["continue"].clone(), out["stop_reason"].clone()), (json!(false), json!("halt")));
    assert_eq!(texts(&out, "info"), vec!["hello user".to_owned()]);
}

#[test]
fn reply_fields_without_a_canonical_slot_reach_dialect_fields_in_claude_profile() {
    // PostToolUse `updatedToolOutput`: "Replaces the tool's output with the
    // provided value before it is sent to Claude."
    let replaced = json!({"stdout": "[redacted]", "stderr": "", "interrupted": false, "isImage": false});
    let out = run_hooks(
        D::Claude,
        HookEvent::PostToolUse,
        vec![cmd(say(json!({"hookSpecificOutput": {
            "hookEventName": "PostToolUse", "updatedToolOutput": replaced, "classifierContext": "staging db"
        }})))],
    );
    assert_eq!(out["dialect_fields"]["claude"]["updatedToolOutput"], replaced, "{out}");
    assert_eq!(out["dialect_fields"]["claude"]["classifierContext"], "staging db");
    // SessionStart `sessionTitle`, `watchPaths`, `reloadSkills`, next to
    // its context.
    let out = run_hooks(
        D::Claude,
        HookEvent::SessionStart,
        vec![cmd(say(json!({"hookSpecificOutput": {
            "hookEventName": "SessionStart", "additionalContext": "branch main",
            "sessionTitle": "auth-refactor", "watchPaths": ["/p/.env"], "reloadSkills": true
        }})))],
    );
    assert_eq!(out["additional_context"], json!(["branch main"]));
    assert_eq!(
        out["dialect_fields"]["claude"],
        json!({"sessionTitle": "auth-refactor", "watchPaths": ["/p/.env"], "reloadSkills": true})
    );
    // `terminalSequence` "works on events that discard systemMessage and
    // continue, such as Notification".
    let out = run_hooks(
        D::Claude,
        HookEvent::Notification,
        vec![cmd(say(json!({"terminalSequence": "\u{1b}]9;done\u{7}", "systemMessage": "discarded"})))],
    );
    assert_eq!(out["dialect_fields"]["claude"]["terminalSequence"], "\u{1b}]9;done\u{7}", "{out}");
    assert_eq!(out["messages"], json!([]));
    // A field of another event's table stays out; VT Code keeps none.
    let out = run_hooks(D::Claude, HookEvent::PostToolUse, vec![cmd(say(json!({"sessionTitle": "x"})))]);
    assert!(out.get("dialect_fields").is_none(), "{out}");
    let out = run_hooks(
        D::Vt,
        HookEvent::PostToolUse,
        vec![cmd(say(json!({"hookSpecificOutput": {"updatedToolOutput": replaced}})))],
    );
    assert!(out.get("dialect_fields").is_none(), "{out}");
}
