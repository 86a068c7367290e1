//! The Claude Code rules of the hooks reference that the Claude Code
//! profile implements beyond the exit-code table: how a settings file is
//! read, `if` on Bash, Subagent matchers and context, Stop, dedupe, the
//! SessionStart source, the Stop block cap, the SessionEnd budget, the
//! events fired by name with rules of their own, and `defer`. Every test
//! quotes the sentence of Claude Code's hooks reference (or its settings
//! page or changelog) it proves, and runs real shell hooks.

use hookline::{HookEvent, LifecycleHookEngine, Status};
use serde_json::{json, Value};

use crate::support::{cmd, run, say, texts, Ws};

/// An engine of a Claude Code config given inline.
trait Engines {
    fn engine(&self, hooks: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn engine(&self, hooks: Value) -> LifecycleHookEngine {
        self.engine_with(json!({ "hooks": hooks }))
    }
}

// ---------------------------------------------------------------- helpers

/// A hook that exits 2 with `msg` on stderr.
fn exit2(msg: &str) -> String {
    format!("cat >/dev/null; echo '{msg}' >&2; exit 2")
}

fn run_named(e: &LifecycleHookEngine, name: &str, input: Value) -> Value {
    e.run_named_blocking(name, &input).unwrap().to_json()
}

fn hooks_ran(out: &Value) -> usize {
    out["hooks"].as_array().unwrap().len()
}

fn bash(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}})
}

fn warnings(e: &LifecycleHookEngine) -> Vec<String> {
    e.config_warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect()
}

// ------------------------------------------------ reading a settings file

/// "Fixed a malformed hooks entry in `settings.json` no longer invalidating
/// the entire file" (Claude Code 2.1.101); "Settings Warning: only
/// individual entries fail ... Claude Code skips those values and keeps the
/// rest of the file in effect."
#[test]
fn a_malformed_hooks_entry_is_skipped_and_every_other_hook_loads() {
    let ws = Ws::new();
    let file = ws.write_json(
        ".claude/settings.json",
        &json!({"hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [
                    {"type": "command"},
                    {"type": "command", "command": "cat >/dev/null; touch guard_ran; echo 'no rm' >&2; exit 2"}
                ]},
                {"matcher": "(", "hooks": [{"type": "command", "command": "touch bad_matcher_ran"}]},
                "not a group"
            ],
            "PostToolUse": {"matcher": "Bash"},
            "Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": -1}]}]
        }}),
    );
    let e = ws.engine_with(json!({"hooks_file": file}));
    let out = run(&e, HookEvent::PreToolUse, bash("rm -rf x"));
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "no rm");
    assert!(ws.exists("guard_ran") && !ws.exists("bad_matcher_ran"));
    let w = warnings(&e);
    assert_eq!(w.len(), 5, "{w:#?}");
    let file = file.display().to_string();
    for (i, entry) in [
        "hooks.PreToolUse[0].hooks[0]",
        "hooks.PreToolUse[1]",
        "hooks.PreToolUse[2]",
        "hooks.PostToolUse",
        "hooks.Stop[0].hooks[0]",
    ]
    .iter()
    .enumerate()
    {
        assert!(w[i].starts_with(&format!("{file}: {entry}: ")), "{entry}: {w:#?}");
    }
    assert_eq!(e.command_previews().len(), 1, "only the hook that loads is in the digest");
}

/// "Each object in the inner hooks array is a hook handler ... There are
/// five types" — a settings file with a `prompt` hook (or a type Claude Code
/// does not know) next to command hooks keeps its command hooks.
#[test]
fn a_hook_of_another_type_does_not_keep_the_command_hooks_next_to_it_from_running() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "prompt", "prompt": "Is this safe? $ARGUMENTS"},
        {"type": "webhook", "url": "http://localhost"},
        {"type": "command", "command": exit2("blocked by the guard")}
    ]}]}}));
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "blocked by the guard");
    let w = warnings(&e);
    assert!(w.iter().any(|w| w.starts_with("hooks.PreToolUse[0].hooks[1]: ") && w.contains("\"webhook\"")), "{w:#?}");
}

/// "Settings Error: a user, project, or local file has invalid JSON or a
/// value the schema rejects" — the file as a whole is broken.
#[test]
fn a_settings_file_that_is_not_json_is_still_rejected() {
    let ws = Ws::new();
    let file = ws.file(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "{\"hooks\": {\"Stop\": [],}}").unwrap();
    let e = ws.try_engine_with(json!({"hooks_file": file})).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("not valid JSON"), "{}", e.message);
    let e = ws.try_engine_with(json!({"hooks": {"hooks": {"Stop": [{"hooks": [{"command": "x"}]}]}, "x": 1}}));
    assert!(e.is_ok(), "other settings next to hooks are fine");
}

/// "A source file without a `hooks` key contributes no hooks": a
/// `settings.local.json` holding only other settings (some of them arrays)
/// next to the project's settings.
#[test]
fn a_settings_file_without_a_hooks_key_contributes_no_hooks() {
    let ws = Ws::new();
    let project = ws.write_json(
        ".claude/settings.json",
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": exit2("keep going")}]}]}}),
    );
    let local = ws.write_json(
        ".claude/settings.local.json",
        &json!({"permissions": {"allow": ["Bash(npm test)"]}, "allowedHttpHookUrls": ["https://x/*"],
                "enabledPlugins": {"fmt@market": true}, "model": "opus"}),
    );
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": project}, {"hooks_file": local}]}));
    let out = run(&e, HookEvent::Stop, json!({}));
    assert_eq!(out["block_reason"], "keep going");
    assert!(warnings(&e).is_empty(), "{:?}", warnings(&e));
    // The local file alone: an engine without hooks, not an error.
    let e = ws.engine_with(json!({"hooks_file": local}));
    assert_eq!(hooks_ran(&run(&e, HookEvent::Stop, json!({}))), 0);
}

/// "Claude Code reads the value left after settings precedence applies, so
/// a "disableAllHooks": false in a project's .claude/settings.json
/// overrides a true in your user settings."
#[test]
fn disable_all_hooks_follows_settings_precedence() {
    let ws = Ws::new();
    let hook = |name: &str| json!({"Stop": [{"hooks": [{"type": "command", "command": format!("touch {name}")}]}]});
    let user_off = json!({"hooks": {"hooks": hook("user")}, "trusted": true});
    let mut user = user_off.clone();
    user["hooks"]["disableAllHooks"] = json!(true);
    let project_on = json!({"hooks": {"hooks": hook("project"), "disableAllHooks": false}});
    // true in the user's settings: nothing runs.
    let e = ws.engine_with(json!({"hook_sources": [user.clone(), {"hooks": {"hooks": hook("project")}}]}));
    assert_eq!(hooks_ran(&run(&e, HookEvent::Stop, json!({}))), 0);
    // A later source's false re-enables every hook.
    let e = ws.engine_with(json!({"hook_sources": [user, project_on]}));
    run(&e, HookEvent::Stop, json!({}));
    assert!(ws.exists("user") && ws.exists("project"));
    // One file alone.
    let e = ws.engine(json!({"disableAllHooks": true, "hooks": hook("alone")}));
    assert_eq!(hooks_ran(&run(&e, HookEvent::Stop, json!({}))), 0);
    assert!(!ws.exists("alone"));
    let _ = user_off;
}

/// hookline's rule for an untrusted source (a repository's settings that
/// the workspace gate has not approved): its `disableAllHooks: true` turns
/// off untrusted hooks only; the user's trusted hooks keep running.
#[test]
fn an_untrusted_sources_disable_all_hooks_does_not_turn_off_trusted_hooks() {
    let ws = Ws::new();
    let hook = |name: &str| json!({"Stop": [{"hooks": [{"type": "command", "command": format!("touch {name}")}]}]});
    let e = ws.engine_with(json!({"hook_sources": [
        {"hooks": {"hooks": hook("guard")}, "trusted": true},
        {"hooks": {"hooks": hook("repo"), "disableAllHooks": true}}
    ]}));
    let out = run(&e, HookEvent::Stop, json!({}));
    assert_eq!(hooks_ran(&out), 1);
    assert!(ws.exists("guard") && !ws.exists("repo"));
}

/// "Unknown hook fields are ignored" (Claude Code's parser keeps the hook):
/// nothing is skipped; each unknown field is noted as a warning.
#[test]
fn unknown_hook_fields_are_ignored() {
    let ws = Ws::new();
    let e = ws.engine(json!({"Stop": [{"matcher": "", "comment": "x", "hooks": [
        {"type": "command", "command": exit2("stop not yet"), "once": true, "owner": {"team": "a"}}
    ]}]}));
    assert_eq!(run(&e, HookEvent::Stop, json!({}))["block_reason"], "stop not yet");
    assert!(e.config_warnings().iter().all(|w| !w.entry_skipped), "{:?}", warnings(&e));
    let w = warnings(&e).join("\n");
    assert!(w.contains("`comment`") && w.contains("`owner`") && !w.contains("`once`"), "{w}");
}

// ------------------------------------------------------------ if on Bash

/// The reference's "Bash matching table": leading assignments are
/// stripped, each subcommand is checked, commands inside `$()` and
/// backticks are checked, and the filter fails open when the command
/// cannot be parsed.
#[test]
fn if_on_bash_checks_every_subcommand_as_the_bash_matching_table_says() {
    let ws = Ws::new();
    let e = ws.engine(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "if": "Bash(rm *)", "command": exit2("rm blocked")},
    ]}, {"matcher": "Bash", "hooks": [
        {"type": "command", "if": "Bash(git push *)", "command": "cat >/dev/null; echo pushed"}
    ]}]}));
    let decision = |c: &str| run(&e, HookEvent::PreToolUse, bash(c))["decision"].as_str().unwrap().to_owned();
    // "Bash(git *) | FOO=bar git push | yes | leading assignments are stripped"
    assert_eq!(decision("FOO=1 rm -rf x"), "deny");
    // "Bash(git *) | npm test && git push | yes | each subcommand is checked"
    assert_eq!(decision("npm test && rm -rf x"), "deny");
    assert_eq!(decision("ls | rm -rf x"), "deny");
    // "Bash(rm *) | echo $(rm -rf /) | yes | commands inside $() and backticks are checked"
    assert_eq!(decision("echo $(rm -rf x)"), "deny");
    assert_eq!(decision("echo `rm -rf x`"), "deny");
    // "Bash(rm *) | echo $(date) | no | no subcommand matches rm *"
    assert_eq!(decision("echo $(date)"), "continue");
    assert_eq!(decision("npm test"), "continue");
    // "The filter also fails open ... when the Bash command can't be parsed."
    assert_eq!(decision("echo 'unterminated"), "deny");
    // "Bash(git push *) | echo $(date) | yes | patterns that specify more than
    // the command name run the hook anyway on $(), backticks, or $VAR"
    let out = run(&e, HookEvent::PreToolUse, bash("echo $HOME"));
    assert_eq!(texts(&out, "info"), ["pushed"]);
    let out = run(&e, HookEvent::PreToolUse, bash("echo home"));
    assert!(texts(&out, "info").is_empty(), "{out}");
}

// ---------------------------------------------- SubagentStart, SubagentStop

/// "SubagentStart hooks receive agent_id ... and agent_type with the agent
/// name that the matcher filters on"; SubagentStop "Matches on agent type,
/// same values as SubagentStart". VT Code keeps matching `agent_name`.
#[test]
fn subagent_matchers_test_agent_type_in_claude_code_and_agent_name_in_vt_code() {
    let ws = Ws::new();
    for (event, key) in [(HookEvent::SubagentStart, "subagent_start"), (HookEvent::SubagentStop, "subagent_stop")] {
        let hook = json!([{"matcher": "Explore", "hooks": [cmd("cat >/dev/null; echo matched")]}]);
        let claude = ws.engine(json!({ event.name(): hook }));
        let out = run(&claude, event, json!({"agent_id": "a1", "agent_type": "Explore"}));
        assert_eq!(hooks_ran(&out), 1, "{event}: {out}");
        let out = run(&claude, event, json!({"agent_id": "a1", "agent_type": "Plan", "agent_name": "Explore"}));
        assert_eq!(hooks_ran(&out), 0, "{event}: agent_name is not the subject");
        let vt = ws.engine(json!({"lifecycle": { key: hook }}));
        let input = json!({"parent_session_id": "s", "child_thread_id": "c", "agent_name": "Explore",
                           "display_label": "E", "background": false, "status": "ok", "agent_type": "Plan"});
        assert_eq!(hooks_ran(&run(&vt, event, input)), 1, "{event}: VT Code matches agent_name");
    }
}

/// SubagentStart: "you can return: additionalContext | String added to the
/// subagent's context"; SubagentStop "use[s] the same decision control
/// format as Stop hooks, including hookSpecificOutput.additionalContext".
#[test]
fn subagent_start_and_stop_return_additional_context() {
    let ws = Ws::new();
    let ctx = |event: &str, text: &str| {
        say(json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}))
    };
    let e = ws.engine(json!({
        "SubagentStart": [{"hooks": [cmd(ctx("SubagentStart", "Follow security guidelines")), cmd("cat >/dev/null; echo plain")]}],
        "SubagentStop": [{"hooks": [cmd(ctx("SubagentStop", "Run the tests first"))]}]
    }));
    let out = run(&e, HookEvent::SubagentStart, json!({"agent_type": "Explore"}));
    assert_eq!(out["additional_context"], json!(["Follow security guidelines"]), "{out}");
    assert_eq!(texts(&out, "info"), ["plain"], "plain stdout is not context on SubagentStart");
    let out = run(&e, HookEvent::SubagentStop, json!({"agent_type": "Explore"}));
    assert_eq!(out["additional_context"], json!(["Run the tests first"]), "{out}");
    assert_eq!(out["block_reason"], Value::Null);
}

// ------------------------------------------------------------------- Stop

/// "All matching hooks run in parallel": every Stop hook runs, concurrently,
/// to completion; the most blocking result wins and every reason is kept,
/// in configuration order.
#[test]
fn stop_hooks_all_run_concurrently_to_completion_and_keep_every_reason_in_order() {
    let ws = Ws::new();
    // The first hook waits (at most 10 s) for the second one's file: run one
    // after another, it would never see it.
    let first = "cat >/dev/null; for i in $(seq 200); do [ -f second ] && break; sleep 0.05; done; \
                 [ -f second ] && touch first_saw_second; echo 'first reason' >&2; exit 2";
    let e = ws.engine(json!({"Stop": [{"hooks": [
        cmd(first),
        cmd("cat >/dev/null; touch second; echo '{\"decision\":\"block\",\"reason\":\"second reason\"}'"),
        cmd("cat >/dev/null; touch third; exit 0")
    ]}]}));
    let out = run(&e, HookEvent::Stop, json!({"stop_hook_active": false}));
    assert!(ws.exists("first_saw_second"), "the Stop hooks ran concurrently");
    assert!(ws.exists("third"), "a hook after a block still runs");
    assert_eq!(hooks_ran(&out), 3);
    assert_eq!(out["block_reason"], "first reason\nsecond reason");
}

/// "Claude Code overrides the hook and ends the turn after 8 consecutive
/// blocks" (also for Stop `additionalContext`: "the 8-consecutive-continuation
/// cap"). Option `stop_hook_block_cap`: 0 turns the cap off.
#[test]
fn after_eight_consecutive_blocked_stops_the_next_stop_is_allowed_with_a_warning() {
    let ws = Ws::new();
    let hooks = json!({"Stop": [{"hooks": [cmd(exit2("not done"))]}]});
    let e = ws.engine(hooks.clone());
    for i in 1..=8 {
        assert_eq!(run(&e, HookEvent::Stop, json!({}))["block_reason"], "not done", "stop {i}");
    }
    let ninth = run(&e, HookEvent::Stop, json!({}));
    assert_eq!(ninth["block_reason"], Value::Null);
    assert!(texts(&ninth, "warning").iter().any(|t| t.contains("8 consecutive stops")), "{ninth}");
    assert_eq!(run(&e, HookEvent::Stop, json!({}))["block_reason"], "not done", "the count starts again");
    // 0: no cap.
    let uncapped = ws.engine_with(json!({"hooks": hooks, "stop_hook_block_cap": 0}));
    for _ in 0..10 {
        assert_eq!(run(&uncapped, HookEvent::Stop, json!({}))["block_reason"], "not done");
    }
    // A stop that ends breaks the streak.
    let flag = ws.file("allow");
    let capped = ws.engine_with(json!({"stop_hook_block_cap": 2, "hooks": {"Stop": [{"hooks": [cmd(format!(
        "cat >/dev/null; [ -f '{}' ] && exit 0; echo 'not done' >&2; exit 2",
        flag.display()
    ))]}]}}));
    run(&capped, HookEvent::Stop, json!({}));
    run(&capped, HookEvent::Stop, json!({}));
    std::fs::write(&flag, "").unwrap();
    assert_eq!(run(&capped, HookEvent::Stop, json!({}))["block_reason"], Value::Null);
    std::fs::remove_file(&flag).unwrap();
    assert_eq!(run(&capped, HookEvent::Stop, json!({}))["block_reason"], "not done", "the streak was reset");
    assert!(ws.try_engine_with(json!({"stop_hook_block_cap": -1})).is_err());
}

// -------------------------------------------------------------- SessionEnd

/// "SessionEnd hooks share a 1.5-second budget; if your settings set a
/// longer per-hook timeout, Claude Code raises the budget to match, up to
/// 60 seconds" — "Timeouts set on plugin-provided hooks don't raise the
/// budget."
#[test]
fn session_end_hooks_share_a_budget_raised_to_the_largest_configured_timeout() {
    let ws = Ws::new();
    let slow = |secs: &str, file: &str| format!("cat >/dev/null; sleep {secs}; touch {file}");
    // No timeout configured: the 1.5 s budget.
    let e = ws.engine(json!({"SessionEnd": [{"hooks": [cmd(slow("4", "a"))]}]}));
    let out = run(&e, HookEvent::SessionEnd, json!({"reason": "other"}));
    assert_eq!(out["hooks"][0]["timed_out"], true, "{out}");
    // A hook that sets 3 s raises the budget for every hook of the run.
    let e = ws.engine(json!({"SessionEnd": [{"hooks": [
        cmd(slow("2", "b")),
        {"type": "command", "command": "cat >/dev/null; sleep 6", "timeout": 3}
    ]}]}));
    let out = run(&e, HookEvent::SessionEnd, json!({"reason": "other"}));
    assert_eq!(out["hooks"][0]["timed_out"], false, "{out}");
    assert!(ws.exists("b"));
    assert_eq!(out["hooks"][1]["timed_out"], true);
    // A plugin's timeout does not raise it.
    let e = ws.engine_with(json!({"hook_sources": [
        {"hooks": {"SessionEnd": [{"hooks": [cmd(slow("3", "c"))]}]}},
        {"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "true", "timeout": 30}]}]},
         "plugin_root": ws.path()}
    ]}));
    let out = run(&e, HookEvent::SessionEnd, json!({"reason": "other"}));
    assert_eq!(out["hooks"][0]["timed_out"], true, "{out}");
}

// ------------------------------------------------------------------ dedupe

/// "If you define the same handler in more than one settings file, it runs
/// once. A plugin's or skill's copy of the same handler stays separate."
#[test]
fn the_same_handler_in_two_settings_files_runs_once_and_a_plugins_copy_stays_separate() {
    let ws = Ws::new();
    let same = json!({"Stop": [{"hooks": [cmd("cat >/dev/null; echo x >> ran")]}]});
    let e = ws.engine_with(json!({"hook_sources": [
        {"hooks": same.clone(), "trusted": true}, {"hooks": same.clone()}, {"hooks": same.clone(), "plugin_root": ws.path()}
    ]}));
    let out = run(&e, HookEvent::Stop, json!({}));
    assert_eq!(hooks_ran(&out), 2, "{out}");
    assert_eq!(std::fs::read_to_string(ws.file("ran")).unwrap().lines().count(), 2);
}

// ---------------------------------------------------- SessionStart source

/// "`fork` | A new session forked from an existing one" — any source string
/// is accepted where the Claude Code profile applies; the VT Code profile
/// keeps its own values.
#[test]
fn any_session_start_source_is_accepted_in_the_claude_code_profile() {
    let ws = Ws::new();
    let hooks = json!({"SessionStart": [{"matcher": "fork", "hooks": [cmd("jq -r .source 2>/dev/null || cat")]}]});
    let e = ws.engine_with(json!({"trigger": "fork", "hooks": hooks}));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(hooks_ran(&out), 1, "the matcher tests the source: {out}");
    assert!(out["additional_context"][0].as_str().unwrap().contains("fork"), "{out}");
    assert!(ws.try_engine_with(json!({"trigger": "some_later_source"})).is_ok(), "an engine without hooks");
    let vt = json!({"lifecycle": {"session_start": [{"hooks": [cmd("true")]}]}});
    let e = ws.try_engine_with(json!({"trigger": "fork", "hooks": vt})).unwrap_err();
    assert_eq!(e.status, Status::InvalidArgument);
    assert!(e.message.contains("option `trigger`"), "{}", e.message);
    assert!(ws.try_engine_with(json!({"trigger": ""})).is_err());
}

// --------------------------------------------------------------- defer

fn pre_tool_decision(d: &str, reason: &str) -> Value {
    cmd(say(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": d,
        "permissionDecisionReason": reason, "updatedInput": {"command": "changed"}, "additionalContext": "ctx"}})))
}

/// "`"defer"` exits gracefully so the tool can be resumed later";
/// "When multiple PreToolUse hooks return different decisions, precedence
/// is deny > defer > ask > allow"; "For "defer", ignored" (the reason,
/// `updatedInput`, `additionalContext`).
#[test]
fn pre_tool_use_defer_is_a_decision_between_deny_and_ask() {
    let ws = Ws::new();
    for (decisions, want) in [
        (vec!["defer"], "defer"),
        (vec!["allow", "defer", "ask"], "defer"),
        (vec!["defer", "deny"], "deny"),
        (vec!["ask", "allow"], "ask"),
    ] {
        let hooks: Vec<Value> = decisions.iter().map(|d| pre_tool_decision(d, d)).collect();
        let e = ws.engine(json!({"PreToolUse": [{"hooks": hooks}]}));
        let out = run(&e, HookEvent::PreToolUse, bash("ls"));
        assert_eq!(out["decision"], want, "{decisions:?}: {out}");
        if decisions == ["defer"] {
            assert_eq!(out["reason"], Value::Null);
            assert_eq!(out["updated_input"], Value::Null);
            assert_eq!(out["additional_context"], json!([]));
        }
    }
    // VT Code has no `defer`: an unknown decision, ignored with a warning.
    let vt = ws.engine(json!({"lifecycle": {"pre_tool_use": [{"hooks": [pre_tool_decision("defer", "x")]}]}}));
    let out = run(&vt, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "continue");
    assert!(texts(&out, "warning").iter().any(|t| t.contains("defer")), "{out}");
}

// ------------------------------------------------------ events by name

/// TaskCreated: "Exit code 2 or decision: "block" cancels the task and
/// returns the message to Claude. continue: false is ignored."
#[test]
fn task_created_blocks_on_exit_2_or_decision_block_and_ignores_continue_false() {
    let ws = Ws::new();
    let e = ws.engine(json!({"TaskCreated": [{"hooks": [cmd(exit2("needs a ticket number"))]}]}));
    let out = run_named(&e, "TaskCreated", json!({"task_id": "t1", "task_subject": "x"}));
    assert_eq!(out["block_reason"], "needs a ticket number");
    let e = ws.engine(json!({"TaskCreated": [{"hooks": [
        cmd(say(json!({"decision": "block", "reason": "no subject", "continue": false, "stopReason": "halt"})))
    ]}]}));
    let out = run_named(&e, "TaskCreated", json!({}));
    assert_eq!(out["block_reason"], "no subject");
    assert_eq!(out["continue"], true, "continue: false is ignored: {out}");
}

/// TaskCompleted and TeammateIdle: "Exit code 2: the task is not marked as
/// completed" / "the teammate receives the stderr message as feedback and
/// continues working"; "JSON {"continue": false, "stopReason": "..."}:
/// stops the teammate entirely".
#[test]
fn task_completed_and_teammate_idle_block_on_exit_2_and_stop_on_continue_false() {
    let ws = Ws::new();
    for name in ["TaskCompleted", "TeammateIdle"] {
        let e = ws.engine(json!({ name: [{"hooks": [cmd(exit2("tests are failing"))]}] }));
        let out = run_named(&e, name, json!({"teammate_name": "t"}));
        assert_eq!(out["block_reason"], "tests are failing", "{name}: {out}");
        let e = ws.engine(
            json!({ name: [{"hooks": [cmd(say(json!({"continue": false, "stopReason": "done for today"})))]}] }),
        );
        let out = run_named(&e, name, json!({}));
        assert_eq!((out["continue"].clone(), out["stop_reason"].clone()), (json!(false), json!("done for today")));
        assert_eq!(out["block_reason"], Value::Null, "{name}: decision fields do not block it: {out}");
    }
}

/// PostToolBatch: "Returning decision: "block" or continue: false stops
/// the agentic loop before the next model call. The blocking message comes
/// from the JSON reason or stopReason, or from stderr on exit 2."
#[test]
fn post_tool_batch_blocks_on_decision_continue_false_or_exit_2() {
    let ws = Ws::new();
    for (hook, reason) in [
        (say(json!({"decision": "block", "reason": "fix the lint errors"})), "fix the lint errors"),
        (say(json!({"continue": false, "stopReason": "batch rejected"})), "batch rejected"),
        (exit2("from stderr"), "from stderr"),
    ] {
        let e = ws.engine(json!({"PostToolBatch": [{"hooks": [cmd(hook)]}]}));
        let out = run_named(&e, "PostToolBatch", json!({"tool_calls": []}));
        assert_eq!(out["block_reason"], reason, "{out}");
    }
    let e = ws.engine(json!({"PostToolBatch": [{"hooks": [cmd(say(
        json!({"hookSpecificOutput": {"hookEventName": "PostToolBatch", "additionalContext": "batch note"}})
    ))]}]}));
    assert_eq!(run_named(&e, "PostToolBatch", json!({}))["additional_context"], json!(["batch note"]));
}

/// UserPromptExpansion: "decision: "block" prevents the command from
/// expanding"; "A hook that blocks by exiting 2 routes the same way as
/// reason"; plain stdout is context ("The exceptions are UserPromptSubmit,
/// UserPromptExpansion, and SessionStart"); "Matches on command_name".
#[test]
fn user_prompt_expansion_blocks_like_user_prompt_submit_and_matches_command_name() {
    let ws = Ws::new();
    let e = ws.engine(json!({"UserPromptExpansion": [
        {"matcher": "deploy", "hooks": [cmd(exit2("deploys need approval"))]},
        {"matcher": "review", "hooks": [cmd("cat >/dev/null; echo 'Use the team checklist'")]}
    ]}));
    let out = run_named(&e, "UserPromptExpansion", json!({"command_name": "deploy", "prompt": "/deploy"}));
    assert_eq!(
        (out["allow_prompt"].clone(), out["block_reason"].clone()),
        (json!(false), json!("deploys need approval"))
    );
    let out = run_named(&e, "UserPromptExpansion", json!({"command_name": "review"}));
    assert_eq!(out["allow_prompt"], true);
    assert_eq!(out["additional_context"], json!(["Use the team checklist"]));
}

/// PermissionDenied: "Exit code and stderr are ignored because the denial
/// already occurred. Use JSON hookSpecificOutput.retry: true to tell the
/// model it may retry"; `if` is "Only evaluated on tool events: ...,
/// PermissionRequest, and PermissionDenied".
#[test]
fn permission_denied_reads_retry_ignores_exit_2_and_evaluates_if() {
    let ws = Ws::new();
    let e = ws.engine(json!({"PermissionDenied": [{"matcher": "Bash", "hooks": [
        {"type": "command", "if": "Bash(npm *)", "command": say(json!({"hookSpecificOutput":
            {"hookEventName": "PermissionDenied", "retry": true}}))},
        cmd(exit2("ignored"))
    ]}]}));
    let input = |c: &str| json!({"tool_name": "Bash", "tool_input": {"command": c}, "reason": "Blocked by classifier"});
    let out = run_named(&e, "PermissionDenied", input("npm test"));
    assert_eq!(out["retry"], true, "{out}");
    assert!(out["messages"].as_array().unwrap().is_empty(), "exit 2 gives no message: {out}");
    let out = run_named(&e, "PermissionDenied", input("ls"));
    assert_eq!(out["retry"], false);
    assert_eq!(hooks_ran(&out), 1, "the `if` hook is left out");
}

/// ConfigChange: "Use exit code 2 or a JSON decision to prevent the change";
/// "Claude Code acts on the blocking decision ... and discards systemMessage
/// and continue"; "The matcher filters on the configuration source".
#[test]
fn config_change_blocks_and_discards_system_message_and_continue() {
    let ws = Ws::new();
    let e = ws.engine(json!({"ConfigChange": [{"matcher": "project_settings", "hooks": [cmd(say(
        json!({"decision": "block", "reason": "needs admin approval", "systemMessage": "hidden", "continue": false})
    ))]}]}));
    let out =
        run_named(&e, "ConfigChange", json!({"source": "project_settings", "file_path": "/p/.claude/settings.json"}));
    assert_eq!(out["block_reason"], "needs admin approval");
    assert_eq!(out["continue"], true);
    assert!(texts(&out, "info").is_empty(), "{out}");
    assert_eq!(hooks_ran(&run_named(&e, "ConfigChange", json!({"source": "user_settings"}))), 0);
}

/// WorktreeCreate: "Command hooks: print the path as the last non-empty
/// line of stdout. Claude Code strips ANSI escape codes"; "HTTP hooks:
/// return { "hookSpecificOutput": { ..., "worktreePath": "/absolute/path" } }";
/// "If the hook fails or produces no path, worktree creation fails".
#[test]
fn worktree_create_returns_the_path_and_fails_on_any_non_zero_exit() {
    let ws = Ws::new();
    let path = ws.file("wt");
    let e = ws.engine(json!({"WorktreeCreate": [{"hooks": [cmd(format!(
        "cat >/dev/null; echo 'banner'; mkdir -p '{0}'; printf '\\033[1m%s\\033[0m\\n\\n' '{0}'",
        path.display()
    ))]}]}));
    let out = run_named(&e, "WorktreeCreate", json!({"name": "feature-auth"}));
    assert_eq!(out["worktree_path"], path.display().to_string(), "{out}");
    let e = ws.engine(json!({"WorktreeCreate": [{"hooks": [cmd(say(
        json!({"hookSpecificOutput": {"hookEventName": "WorktreeCreate", "worktreePath": "/srv/wt"}})
    ))]}]}));
    assert_eq!(run_named(&e, "WorktreeCreate", json!({}))["worktree_path"], "/srv/wt");
    for hook in ["cat >/dev/null; echo /tmp/x; exit 1", "cat >/dev/null; echo /tmp/x; exit 2", "cat >/dev/null"] {
        let e = ws.engine(json!({"WorktreeCreate": [{"hooks": [cmd(hook)]}]}));
        let out = run_named(&e, "WorktreeCreate", json!({}));
        assert_eq!(out["worktree_path"], Value::Null, "{hook}: {out}");
        assert!(!texts(&out, "error").is_empty(), "{hook}: {out}");
    }
}

/// Elicitation: "action (accept/decline/cancel), content (form field values
/// for accept)"; "Exit code 2 denies the elicitation"; ElicitationResult
/// "Exit code 2 blocks the response, changing the effective action to
/// decline"; "The matcher field matches against the MCP server name".
#[test]
fn elicitation_answers_with_an_action_and_exit_2_declines() {
    let ws = Ws::new();
    let accept = say(json!({"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "accept",
        "content": {"username": "alice"}}}));
    let e = ws.engine(json!({"Elicitation": [{"matcher": "my-mcp-server", "hooks": [cmd(accept)]}],
        "ElicitationResult": [{"hooks": [cmd(exit2("nobody sees this"))]}]}));
    let out = run_named(&e, "Elicitation", json!({"mcp_server_name": "my-mcp-server", "message": "creds?"}));
    assert_eq!((out["action"].clone(), out["content"].clone()), (json!("accept"), json!({"username": "alice"})));
    assert_eq!(hooks_ran(&run_named(&e, "Elicitation", json!({"mcp_server_name": "other"}))), 0);
    let out = run_named(&e, "ElicitationResult", json!({"mcp_server_name": "x", "action": "accept"}));
    assert_eq!(out["action"], "decline");
    assert!(out["messages"].as_array().unwrap().is_empty(), "stderr is shown nowhere: {out}");
}

/// Setup: "To pass information into Claude's context, return
/// additionalContext in JSON output; plain stdout is written to the debug
/// log only"; "Setup hooks have access to CLAUDE_ENV_FILE"; "Setup hooks
/// can't block".
#[test]
fn setup_takes_context_from_json_only_has_an_env_file_and_never_blocks() {
    let ws = Ws::new();
    let e = ws.engine(json!({"Setup": [{"matcher": "init", "hooks": [
        cmd(say(json!({"hookSpecificOutput": {"hookEventName": "Setup", "additionalContext": "deps installed"}}))),
        cmd("cat >/dev/null; echo plain; echo 'export NODE_ENV=ci' >> \"$CLAUDE_ENV_FILE\""),
        cmd(exit2("setup stderr"))
    ]}]}));
    let out = run_named(&e, "Setup", json!({"trigger": "init"}));
    assert_eq!(out["additional_context"], json!(["deps installed"]), "{out}");
    assert_eq!(out["env"], json!({"NODE_ENV": "ci"}));
    assert!(texts(&out, "error").iter().any(|t| t.contains("setup stderr")));
    assert!(out.get("block_reason").is_none());
}

/// FileChanged: the matcher filters "against the changed file's basename",
/// with "a narrower exact-match set of letters, digits, _, and | only" (so
/// `.envrc|.env` is a regular expression, which matches `.envrc`).
#[test]
fn file_changed_matches_the_basename_and_stop_failure_ignores_output_and_exit_code() {
    let ws = Ws::new();
    let e = ws.engine(json!({
        "FileChanged": [{"matcher": "envrc|dotenv", "hooks": [cmd("cat >/dev/null; echo changed")]}],
        "StopFailure": [{"matcher": "rate_limit", "hooks": [cmd(say(json!({"systemMessage": "ignored", "continue": false})))]}]
    }));
    let out = run_named(&e, "FileChanged", json!({"file_path": "/p/envrc", "event": "change"}));
    assert_eq!(texts(&out, "info"), ["changed"]);
    assert_eq!(hooks_ran(&run_named(&e, "FileChanged", json!({"file_path": "/p/envrc.bak"}))), 0);
    // StopFailure: "Claude Code ignores the hook's output and exit code".
    let out = run_named(&e, "StopFailure", json!({"error": "rate_limit"}));
    assert_eq!(hooks_ran(&out), 1);
    assert_eq!(out["continue"], true);
    assert!(texts(&out, "info").is_empty(), "{out}");
}

/// `hookline` keeps any other array under `hooks` as an event fired by name,
/// with observer rules ("events Claude Code adds later").
#[test]
fn an_unknown_event_key_keeps_observer_rules() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"BeforeSomethingNew": [{"hooks": [cmd(exit2("only a message"))]}]}}));
    let out = run_named(&e, "BeforeSomethingNew", json!({}));
    assert!(out.get("block_reason").is_none(), "{out}");
    assert!(texts(&out, "error").iter().any(|t| t.contains("only a message")));
}

// ------------------------------------------------------------ onFailure

/// A hook input for `event` that every profile accepts.
fn on_failure_input(event: HookEvent) -> Value {
    match event {
        HookEvent::UserPromptSubmit => json!({"prompt": "hello"}),
        HookEvent::PermissionRequest => json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
        _ => bash("rm -rf build"),
    }
}

/// Whether `out` (of `event`) holds the event's blocking decision.
fn blocked(event: HookEvent, out: &Value) -> bool {
    match event {
        HookEvent::PreToolUse => out["decision"] == "deny",
        HookEvent::UserPromptSubmit => out["allow_prompt"] == false,
        HookEvent::PermissionRequest => out["decision"]["behavior"] == "deny",
        _ => unreachable!(),
    }
}

/// Claude Code 2.1.295 added `onFailure` on command and http hooks: with
/// `"block"`, "a hook that can't start, times out, or exits with an
/// unexpected code blocks the action instead of letting it through"; the
/// default, `"continue"`, lets it through (a "non-blocking error").
#[test]
fn on_failure_block_blocks_when_a_command_hook_cannot_start_times_out_or_exits_unexpectedly() {
    let failing = [
        ("spawn", json!({"type": "command", "command": "/nonexistent/guard.sh", "args": []})),
        // In shell form the shell starts and exits 127: an unexpected code.
        ("exit", json!({"type": "command", "command": "/nonexistent/guard.sh"})),
        ("timeout", json!({"type": "command", "command": "sleep 5", "timeout": 1})),
        ("exit", json!({"type": "command", "command": "cat >/dev/null; echo 'guard crashed' >&2; exit 1"})),
    ];
    for event in [HookEvent::PreToolUse, HookEvent::UserPromptSubmit, HookEvent::PermissionRequest] {
        for (kind, hook) in &failing {
            let ws = Ws::new();
            let mut block = hook.clone();
            block["onFailure"] = json!("block");
            let e = ws.engine(json!({ event.name(): [{"hooks": [block]}] }));
            assert!(warnings(&e).is_empty(), "{:?}", warnings(&e));
            let out = run(&e, event, on_failure_input(event));
            assert!(blocked(event, &out), "{event:?} {kind}: {out}");
            assert_eq!(out["hooks"][0]["failure"], *kind, "{event:?}: {out}");

            // "continue", and no onFailure at all: the action goes ahead.
            let mut cont = hook.clone();
            cont["onFailure"] = json!("continue");
            for hook in [cont, hook.clone()] {
                let e = ws.engine(json!({ event.name(): [{"hooks": [hook]}] }));
                let out = run(&e, event, on_failure_input(event));
                assert!(!blocked(event, &out), "{event:?} {kind}: {out}");
                assert_eq!(out["hooks"][0]["failure"], *kind);
            }
        }
    }
    // The block's reason is the failure, so the model and the user see why.
    let ws = Ws::new();
    let e = ws.engine(json!({"PreToolUse": [{"hooks": [
        {"type": "command", "command": "cat >/dev/null; echo 'policy file unreadable' >&2; exit 1", "onFailure": "block"}
    ]}]}));
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert!(out["reason"].as_str().unwrap().contains("policy file unreadable"), "{out}");
}

/// A hook that answers is not a failure, whatever `onFailure` says: exit 0
/// allows, and JSON on another exit code decides ("Claude Code ignores the
/// exit code and the JSON alone decides the outcome").
#[test]
fn on_failure_block_leaves_a_hook_that_answered_alone() {
    let ws = Ws::new();
    let allow = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}});
    let e = ws.engine(json!({"PreToolUse": [{"hooks": [
        {"type": "command", "command": "cat >/dev/null; exit 0", "onFailure": "block"},
        {"type": "command", "command": format!("{}; exit 1", say(allow)), "onFailure": "block"}
    ]}]}));
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "allow", "{out}");
}

/// `onFailure` on an http hook: a request that fails (here: nothing listens
/// on the port, a connection error, which the reference calls a
/// "non-blocking error") blocks with `"block"`.
#[test]
fn on_failure_block_on_an_http_hook_denies_when_the_request_fails() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}/guard");
    let ws = Ws::new();
    for (on_failure, want) in [("block", "deny"), ("continue", "continue")] {
        let e = ws.engine(json!({"PreToolUse": [{"hooks": [
            {"type": "http", "url": url, "timeout": 5, "onFailure": on_failure}
        ]}]}));
        let out = run(&e, HookEvent::PreToolUse, bash("ls"));
        assert_eq!(out["decision"], want, "{on_failure}: {out}");
        assert_eq!(out["hooks"][0]["failure"], "http", "{out}");
    }
}

/// hookline's `failClosed: true` stays as the earlier spelling of
/// `onFailure: "block"`; when the two disagree the hook blocks, with a
/// warning naming both.
#[test]
fn fail_closed_is_an_alias_of_on_failure_block_and_a_disagreement_blocks() {
    let ws = Ws::new();
    let crash = "cat >/dev/null; exit 1";
    for (fields, warned) in [
        (json!({"failClosed": true}), false),
        (json!({"onFailure": "block", "failClosed": true}), false),
        (json!({"onFailure": "continue", "failClosed": true}), true),
        (json!({"onFailure": "block", "failClosed": false}), true),
    ] {
        let mut hook = cmd(crash);
        for (k, v) in fields.as_object().unwrap() {
            hook[k] = v.clone();
        }
        let e = ws.engine(json!({"PreToolUse": [{"hooks": [hook]}]}));
        let w = warnings(&e);
        assert_eq!(w.iter().any(|w| w.contains("disagree")), warned, "{fields}: {w:?}");
        assert_eq!(run(&e, HookEvent::PreToolUse, bash("ls"))["decision"], "deny", "{fields}");
    }
}

/// `onFailure` is a field of command and http hooks. Any value but
/// `"block"` and `"continue"` makes the entry malformed: like every
/// malformed entry ("Claude Code skips those values and keeps the rest of
/// the file in effect") it is skipped, and the warning names it. On a
/// prompt, agent or mcp_tool hook the field does nothing, and the warning
/// says so.
#[test]
fn an_invalid_on_failure_skips_the_hook_and_on_failure_on_other_types_is_only_warned_about() {
    let ws = Ws::new();
    for bad in [json!("deny"), json!(true), json!("Block")] {
        let e = ws.engine(json!({"PreToolUse": [{"hooks": [
            {"type": "command", "command": "touch skipped", "onFailure": bad},
            {"type": "command", "command": "touch ran"}
        ]}]}));
        let w = warnings(&e);
        assert!(
            w.iter().any(|w| w.contains("hooks.PreToolUse[0].hooks[0]") && w.contains("onFailure must be")),
            "{bad}: {w:?}"
        );
        let out = run(&e, HookEvent::PreToolUse, bash("ls"));
        assert_eq!(hooks_ran(&out), 1, "{out}");
        assert!(ws.exists("ran") && !ws.exists("skipped"));
        std::fs::remove_file(ws.file("ran")).unwrap();
    }
    let e = ws.engine(json!({"PreToolUse": [{"hooks": [
        {"type": "prompt", "prompt": "is this safe? $ARGUMENTS", "onFailure": "block"}
    ]}]}));
    let w = warnings(&e);
    assert!(w.iter().any(|w| w.contains("onFailure") && w.contains("no effect on this prompt hook")), "{w:?}");
    // No handler set: a non-blocking error, as without the field.
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "continue", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "no_handler");
}

// ------------------------------------------- PreModelSwitch, PostModelSwitch

/// PreModelSwitch (Claude Code 2.1.251) fires before a model switch the
/// user asked for, its matcher testing the model switched to; a hook
/// decides like a PreToolUse hook: "`permissionDecision` allow/deny/ask,
/// `permissionDecisionReason` or `decision: "block"`", exit 2 blocks, and "a
/// PreModelSwitch hook cancelled at its timeout blocks the switch".
#[test]
fn pre_model_switch_decides_like_pre_tool_use_and_a_timeout_blocks_the_switch() {
    let ws = Ws::new();
    let switch = json!({"from_model": "claude-sonnet-4-5", "to_model": "claude-haiku-4-5"});
    let decide = |d: &str, reason: &str| {
        cmd(say(json!({"hookSpecificOutput": {
            "hookEventName": "PreModelSwitch", "permissionDecision": d, "permissionDecisionReason": reason
        }})))
    };
    let e = ws.engine(json!({"PreModelSwitch": [
        {"matcher": "claude-haiku.*", "hooks": [decide("deny", "security reviews need a stronger model")]},
        {"matcher": "claude-opus.*", "hooks": [decide("ask", "opus costs more")]},
        {"hooks": [decide("allow", "fine")]}
    ]}));
    let out = run_named(&e, "PreModelSwitch", switch.clone());
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "security reviews need a stronger model");
    let out = run_named(&e, "PreModelSwitch", json!({"from_model": "a", "to_model": "claude-opus-4-8"}));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("ask"), Some("opus costs more")), "{out}");
    let out = run_named(&e, "PreModelSwitch", json!({"from_model": "a", "to_model": "claude-sonnet-4-5"}));
    assert_eq!(out["decision"], "allow", "{out}");
    // exit 2 and the older decision "block".
    for hook in [cmd(exit2("stay on sonnet")), cmd(say(json!({"decision": "block", "reason": "stay on sonnet"})))] {
        let e = ws.engine(json!({"PreModelSwitch": [{"hooks": [hook]}]}));
        let out = run_named(&e, "PreModelSwitch", switch.clone());
        assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("stay on sonnet")), "{out}");
    }
    // A timeout blocks; another failure lets the switch through, unless
    // the hook says onFailure "block".
    let e =
        ws.engine(json!({"PreModelSwitch": [{"hooks": [{"type": "command", "command": "sleep 5", "timeout": 1}]}]}));
    let out = run_named(&e, "PreModelSwitch", switch.clone());
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "timeout");
    let crash = |on_failure: Option<&str>| {
        let mut h = cmd("cat >/dev/null; exit 1");
        if let Some(v) = on_failure {
            h["onFailure"] = json!(v);
        }
        ws.engine(json!({"PreModelSwitch": [{"hooks": [h]}]}))
    };
    assert_eq!(run_named(&crash(None), "PreModelSwitch", switch.clone())["decision"], "continue");
    assert_eq!(run_named(&crash(Some("block")), "PreModelSwitch", switch)["decision"], "deny");
}

/// PostModelSwitch (2.1.251) fires after any model switch, automatic ones
/// too, and cannot block; `additionalContext`, and plain stdout on exit 0,
/// become context ("Claude Code adds plain-text stdout as context" on
/// `UserPromptSubmit`, `UserPromptExpansion`, `SessionStart` and
/// `PostModelSwitch`).
#[test]
fn post_model_switch_adds_context_and_never_blocks() {
    let ws = Ws::new();
    let e = ws.engine(json!({"PostModelSwitch": [{"matcher": "claude-haiku.*", "hooks": [
        cmd("cat >/dev/null; echo 'now on haiku: keep answers short'"),
        cmd(say(json!({"hookSpecificOutput": {"hookEventName": "PostModelSwitch", "additionalContext": "json ctx"}}))),
        cmd("cat >/dev/null; echo 'from a failing hook'; exit 1"),
        cmd(exit2("no block here"))
    ]}]}));
    let out =
        run_named(&e, "PostModelSwitch", json!({"from_model": "claude-sonnet-4-5", "to_model": "claude-haiku-4-5"}));
    assert_eq!(out["additional_context"], json!(["now on haiku: keep answers short", "json ctx"]), "{out}");
    assert!(out.get("block_reason").is_none() && out.get("decision").is_none(), "{out}");
    assert!(texts(&out, "error").iter().any(|t| t.contains("no block here")), "{out}");
    // Another target model: the matcher does not match.
    let out = run_named(&e, "PostModelSwitch", json!({"from_model": "a", "to_model": "claude-opus-4-8"}));
    assert_eq!(hooks_ran(&out), 0, "{out}");
}

/// The handler types PreModelSwitch, PostModelSwitch and MessageDisplay run:
/// "Events that support `command`, `http`, and `mcp_tool` hooks but not
/// `prompt` or `agent`: … `MessageDisplay` … `PostModelSwitch`, `PreCompact`,
/// `PreModelSwitch` …".
#[test]
fn model_switch_and_message_display_hooks_run_no_prompt_or_agent_hooks() {
    let ws = Ws::new();
    for event in ["PreModelSwitch", "PostModelSwitch", "MessageDisplay"] {
        let e = ws.engine(json!({ event: [{"hooks": [
            {"type": "prompt", "prompt": "p"}, {"type": "agent", "prompt": "p"}, cmd("cat >/dev/null; exit 0")
        ]}]}));
        let w = warnings(&e);
        assert_eq!(w.len(), 2, "{event}: {w:?}");
        assert!(w.iter().all(|w| w.contains("does not run") && w.contains(event)), "{w:?}");
        let out = run_named(&e, event, json!({"from_model": "a", "to_model": "b"}));
        let skipped: Vec<&Value> = out["hooks"].as_array().unwrap().iter().map(|h| &h["skipped"]).collect();
        assert_eq!(skipped, [&json!("unsupported_on_event"), &json!("unsupported_on_event"), &Value::Null], "{out}");
    }
}

/// "`updatedToolOutput` | Replaces the tool's output with the provided value
/// before it is sent to Claude"; "`updatedMCPToolOutput` | Replaces the output
/// for MCP tools only. Prefer `updatedToolOutput`, which works for all tools"
/// (every tool since 2.1.121). MessageDisplay: "`displayContent` replaces the
/// displayed text on screen" and Claude Code "discards `systemMessage` and
/// `continue`". Both are the host's to apply: `dialect_fields.claude`.
#[test]
fn updated_tool_output_for_any_tool_and_display_content_reach_the_host() {
    let ws = Ws::new();
    let replaced = json!({"type": "text", "file": {"filePath": "/w/.env", "content": "[redacted]"}});
    let e = ws.engine(json!({"PostToolUse": [{"matcher": "Read", "hooks": [cmd(say(json!({"hookSpecificOutput": {
        "hookEventName": "PostToolUse", "updatedToolOutput": replaced
    }})))]}]}));
    let out = run(
        &e,
        HookEvent::PostToolUse,
        json!({"tool_name": "Read", "tool_input": {"file_path": "/w/.env"}, "tool_response": {"content": "SECRET=1"}}),
    );
    assert_eq!(out["dialect_fields"]["claude"]["updatedToolOutput"], replaced, "{out}");
    let e = ws.engine(json!({"MessageDisplay": [{"hooks": [cmd(say(json!({
        "hookSpecificOutput": {"hookEventName": "MessageDisplay", "displayContent": "plain text"},
        "systemMessage": "discarded", "continue": false
    })))]}]}));
    let out = run_named(
        &e,
        "MessageDisplay",
        json!({"turn_id": "t", "message_id": "m", "index": 0, "final": true, "delta": "**plain** `text`"}),
    );
    assert_eq!(out["dialect_fields"]["claude"]["displayContent"], "plain text", "{out}");
    assert_eq!((out["continue"].clone(), out["messages"].clone()), (json!(true), json!([])), "{out}");
}
