//! The Qwen Code dialect with real hooks: Qwen Code's rules
//! (QwenLM/qwen-code `docs/users/features/hooks.md` and
//! `packages/core/src/hooks`: `hookRunner.ts`, `hookAggregator.ts`,
//! `hook-matcher.ts`, `hook-timeout.ts`, `user-prompt-submit-context.ts`
//! and their tests) re-created, each test quoting the rule it proves.

use std::path::Path;
use std::time::{Duration, Instant};

use hookline::config::matcher::Matcher;
use hookline::config::{HooksConfig, SourceInfo};
use hookline::{HookEvent, LifecycleHookEngine};
use serde_json::{json, Value};

use crate::support::{cmd, run, say, texts, warnings, Ws};

fn engine(ws: &Ws, settings: Value) -> LifecycleHookEngine {
    ws.engine_with(json!({ "dialect": "qwen", "hooks": settings }))
}

fn settings(event: &str, definition: Value) -> Value {
    json!({ "hooks": { event: [definition] } })
}

fn all(hooks: Vec<Value>) -> Value {
    json!({ "hooks": hooks })
}

/// A command that reads stdin, prints `stdout` and `stderr` and exits `code`.
fn exits(code: i32, stdout: &str, stderr: &str) -> String {
    let q = |s: &str| s.replace('\'', "'\\''");
    format!("cat >/dev/null; printf '%s' '{}'; printf '%s' '{}' >&2; exit {code}", q(stdout), q(stderr))
}

fn shell(command: &str) -> Value {
    json!({ "tool_name": "run_shell_command", "tool_input": { "command": command } })
}

/// PreToolUse hooks (one match-all definition) on a shell call.
fn pre_tool(hooks: Vec<Value>) -> Value {
    let ws = Ws::new();
    let e = engine(&ws, settings("PreToolUse", all(hooks)));
    run(&e, HookEvent::PreToolUse, shell("rm -rf build"))
}

fn config(settings: Value) -> HooksConfig {
    let dialect = hookline::dialect::by_name("qwen").unwrap();
    HooksConfig::read(&settings, &SourceInfo::new(dialect)).unwrap()
}

fn aliases(tool: &str) -> &'static [&'static str] {
    match tool {
        "write_file" => &["WriteFile"],
        "run_shell_command" => &["Shell"],
        _ => &[],
    }
}

fn qwen_matches(matcher: &str, subject: &str) -> bool {
    Matcher::qwen(Some(matcher), aliases).0.matches(subject)
}

// ------------------------------------------------------ configuration

/// "Hook Configuration": `{"hooks": {"<Event>": [{"matcher"?,
/// "sequential"?, "hooks": [handler…]}]}}` under Claude Code's event
/// names; Qwen Code's own events besides them; an unknown event is skipped.
#[test]
fn settings_configure_hooks_under_claude_code_event_names() {
    let c = config(json!({
        "model": {"name": "qwen3-coder"},
        "hooks": {
            "PreToolUse": [{"matcher": "run_shell_command", "sequential": true, "hooks": [cmd("./guard.sh")]}],
            "UserPromptSubmit": [{"hooks": [cmd("./prompt.sh")]}],
            "TodoCreated": [{"hooks": [cmd("./todo.sh")]}],
            "BeforeTool": [{"hooks": [cmd("./gemini.sh")]}]
        }
    }));
    let groups = c.groups(HookEvent::PreToolUse);
    assert_eq!(groups[0].hooks[0].label(), "./guard.sh");
    assert!(groups[0].sequential, "sequential: true is read");
    assert_eq!(c.groups(HookEvent::UserPromptSubmit)[0].hooks[0].label(), "./prompt.sh");
    assert_eq!(c.groups_named("TodoCreated")[0].hooks[0].label(), "./todo.sh");
    let w = warnings(&c);
    assert!(w.iter().any(|w| w.contains("BeforeTool") && w.contains("PreToolUse")), "{w:?}");
}

/// Handler types "command" (ms, 60000), "http" (s, 600), "prompt" (s, 30);
/// `hook-timeout.ts`: command timeouts "are in seconds, and values of 1000
/// or more keep their old millisecond meaning".
#[test]
fn the_three_handler_types_have_their_own_timeout_units() {
    let c = config(settings(
        "PreToolUse",
        all(vec![
            json!({"type": "command", "command": "a", "timeout": 10}),
            json!({"type": "command", "command": "b", "timeout": 5000}),
            json!({"type": "command", "command": "c"}),
            json!({"type": "http", "url": "http://127.0.0.1:9/h", "timeout": 5}),
            json!({"type": "http", "url": "http://127.0.0.1:9/h"}),
            json!({"type": "prompt", "prompt": "Is $ARGUMENTS safe?", "timeout": 7}),
        ]),
    ));
    let hooks = &c.groups(HookEvent::PreToolUse)[0].hooks;
    let timeouts: Vec<Duration> = hooks.iter().map(|h| h.timeout()).collect();
    assert_eq!(timeouts[0], Duration::from_secs(10));
    assert_eq!(timeouts[1], Duration::from_millis(5000));
    assert_eq!(timeouts[2], Duration::from_secs(60), "command default 60000 ms");
    assert_eq!(timeouts[3], Duration::from_secs(5));
    assert_eq!(timeouts[4], Duration::from_secs(600), "http default 600 s");
    assert_eq!(timeouts[5], Duration::from_secs(7));
    let prompt_default = hookline::dialect::by_name("qwen").unwrap().profile().handler_timeouts.prompt;
    assert_eq!(prompt_default, Duration::from_secs(30), "prompt default 30 s");
}

/// A hook of a type Qwen Code does not run from settings, or without its
/// required field, is skipped and reported; the others load.
#[test]
fn a_hook_qwen_code_would_skip_is_skipped_and_reported() {
    let c = config(settings(
        "PreToolUse",
        all(vec![
            json!({"type": "agent", "prompt": "x"}),
            json!({"command": "no-type"}),
            json!({"type": "command"}),
            cmd("./ok.sh"),
        ]),
    ));
    let hooks = &c.groups(HookEvent::PreToolUse)[0].hooks;
    assert_eq!(hooks.len(), 1);
    assert_eq!(hooks[0].label(), "./ok.sh");
    assert_eq!(warnings(&c).len(), 3, "{:?}", warnings(&c));
}

/// A command timeout in seconds is seconds when it runs: `timeout: 1`
/// gives a quick hook its second (1 ms would kill it), and a hook that
/// outlives `timeout: 1500` (milliseconds) is stopped within it.
#[test]
fn command_timeouts_run_in_their_units() {
    let ws = Ws::new();
    let deny = say(json!({"decision": "deny", "reason": "no"}));
    let e = engine(&ws, settings("PreToolUse", all(vec![json!({"type": "command", "command": deny, "timeout": 1})])));
    assert_eq!(run(&e, HookEvent::PreToolUse, shell("ls"))["decision"], "deny");
    let e = engine(
        &ws,
        settings("PreToolUse", all(vec![json!({"type": "command", "command": "sleep 10", "timeout": 1500})])),
    );
    let start = Instant::now();
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert!(start.elapsed() < Duration::from_secs(6), "{:?}", start.elapsed());
    assert_eq!(out["hooks"][0]["timed_out"], true, "{out}");
}

// ------------------------------------------------------------ matchers

/// `hook-matcher.ts`: "An empty matcher, `*` or `.*` matches everything";
/// "The matcher matches the subject or an alias exactly"; aliases "only
/// match exactly, never through a regex"; an unescaped `|` list matches
/// when "any entry, with surrounding spaces removed, is `*`, `.*`, or
/// exactly the subject or an alias"; otherwise "an unanchored regular
/// expression tested against the subject only"; "a matcher made only of
/// `|` matches nothing"; "An invalid expression matches nothing further".
#[test]
fn matchers_follow_qwen_code_s_hook_matcher() {
    for m in ["", "  ", "*", ".*", " .* "] {
        assert!(qwen_matches(m, "anything"), "{m:?}");
    }
    assert!(qwen_matches("WriteFile", "write_file"), "a display name is an alias");
    assert!(qwen_matches(" write_file ", "write_file"), "trimmed");
    assert!(!qwen_matches("WriteF.*", "write_file"), "aliases never match through a regex");
    assert!(qwen_matches("write_.*", "write_file"), "unanchored regex");
    assert!(qwen_matches("file", "write_file"), "unanchored: found anywhere");
    assert!(qwen_matches("Shell | edit", "run_shell_command"), "a list entry is an alias");
    assert!(qwen_matches("read_.* | edit", "read_file"), "entries rebuilt as read_.*|edit");
    assert!(qwen_matches("foo | *", "x"), "an entry `*` matches all");
    assert!(!qwen_matches("|", "x"), "only `|` matches nothing");
    assert!(qwen_matches("(", "("), "an invalid regex still matches exactly");
    assert!(!qwen_matches("(", "x("), "an invalid regex matches nothing further");
    assert!(qwen_matches("^(write|edit)", "write_file"), "a `^` matcher compiles as written");
    assert!(!qwen_matches("notes\\|todo", "notes"), "an escaped pipe does not separate");
    assert!(!qwen_matches("Write_File", "write_file"), "case-sensitive");
}

/// Matchers select hooks by Qwen Code's tool ids and display names, and
/// PreCompact's trigger is matched exactly ("exact match" in the table).
#[test]
fn matchers_select_hooks_by_tool_id_display_name_and_exact_trigger() {
    let ws = Ws::new();
    let e = engine(
        &ws,
        json!({"hooks": {
            "PreToolUse": [
                {"matcher": "WriteFile", "hooks": [cmd(say(json!({"decision": "deny", "reason": "by alias"})))]},
                {"matcher": "Edit", "hooks": [cmd(say(json!({"decision": "deny", "reason": "edit"})))]}
            ],
            "PreCompact": [{"matcher": "auto|manual", "hooks": [cmd("touch compact_ran")]}]
        }}),
    );
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "write_file", "tool_input": {"file_path": "a"}}));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("by alias")), "{out}");
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["decision"], "continue", "{out}");
    run(&e, HookEvent::PreCompact, json!({"trigger": "auto"}));
    assert!(!ws.exists("compact_ran"), "PreCompact's matcher is exact: no list");
}

// ---------------------------------------------------------- exit codes

/// "2 → ignore stdout, parse stderr as JSON if possible, else
/// `{decision:"deny", reason:stderr}`", enforced as PreToolUse's
/// `permissionDecision: "deny"` whatever stdout said.
#[test]
fn exit_2_denies_with_stderr_and_ignores_stdout() {
    let out = pre_tool(vec![cmd(exits(2, r#"{"decision":"allow"}"#, "rm -rf is not allowed"))]);
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("rm -rf is not allowed")));
    let out = pre_tool(vec![cmd(exits(2, "", r#"{"reason":"from stderr JSON"}"#))]);
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("from stderr JSON")));
    assert_eq!(out["hooks"][0]["failure"], Value::Null, "a deliberate block is no failure");
}

/// "JSON on stdout is honoured for any exit code other than 2 (unlike
/// CC's exit-0-only)"; "a JSON string is parsed a second time".
#[test]
fn json_is_honoured_on_any_exit_code_but_2_and_a_json_string_twice() {
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "blocked on exit 1"}});
    let out = pre_tool(vec![cmd(exits(1, &deny.to_string(), ""))]);
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("blocked on exit 1")));
    let twice = Value::from(json!({"decision": "block", "reason": "double"}).to_string()).to_string();
    let out = pre_tool(vec![cmd(exits(0, &twice, ""))]);
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("double")));
    // stdout empty: stderr is read as the output.
    let out = pre_tool(vec![cmd(exits(0, "", r#"{"decision":"deny","reason":"on stderr"}"#))]);
    assert_eq!(out["reason"], "on stderr");
}

/// "non-JSON text → `{decision:"allow", systemMessage:text}`"; "Other codes
/// → non-blocking; text becomes `{decision:"allow", systemMessage:"Warning:
/// …"}`" — and an allow from plain text approves nothing.
#[test]
fn plain_text_is_a_message_and_other_codes_are_non_blocking_warnings() {
    let out = pre_tool(vec![cmd(exits(0, "checked", ""))]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(texts(&out, "info"), ["checked"]);
    let out = pre_tool(vec![cmd(exits(1, "", "lint failed"))]);
    assert_eq!(out["decision"], "continue", "{out}");
    assert!(texts(&out, "info").iter().any(|t| t == "Warning: lint failed"), "{out}");
    assert_eq!(out["hooks"][0]["failure"], "exit", "{out}");
}

/// PreToolUse `permissionDecision` (`allow|deny|ask`), and the OR merge:
/// "any `block|deny` ⇒ `block`; else any `allow` ⇒ `allow`; reasons joined
/// `\n`".
#[test]
fn pre_tool_use_decisions_or_merge() {
    let allow = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}});
    let out = pre_tool(vec![cmd(say(allow.clone()))]);
    assert_eq!(out["decision"], "allow");
    let out = pre_tool(vec![
        cmd(say(allow)),
        cmd(say(json!({"decision": "deny", "reason": "first"}))),
        cmd(say(json!({"decision": "block", "reason": "second"}))),
    ]);
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "first\nsecond", "{out}");
}

/// `sequential: true` "runs in order and feeds outputs forward (PreToolUse:
/// `hookSpecificOutput.tool_input` shallow-merged into `tool_input`)".
#[test]
fn sequential_hooks_see_the_tool_input_the_hook_before_wrote() {
    let ws = Ws::new();
    let rewrite =
        say(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "tool_input": {"command": "ls -la"}}}));
    let e = engine(
        &ws,
        settings("PreToolUse", json!({"sequential": true, "hooks": [cmd(rewrite), cmd("cat > second.json")]})),
    );
    run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(ws.json("second.json")["tool_input"]["command"], "ls -la");
}

// -------------------------------------------------------------- events

/// UserPromptSubmit `additionalContext` is "sent as a separate part wrapped
/// in `<qwen:user-prompt-submit-context>…</qwen:user-prompt-submit-context>`
/// with `<`/`>` escaped" (`wrapUserPromptSubmitContext`: open tag, `\n`,
/// context, `\n`, close tag); a deny blocks the prompt.
#[test]
fn prompt_context_is_wrapped_and_escaped_and_a_deny_blocks() {
    let ws = Ws::new();
    let context = say(json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
        "additionalContext": "branch <main>"}}));
    let e = engine(&ws, settings("UserPromptSubmit", all(vec![cmd(context)])));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "fix it"}));
    assert_eq!(
        out["additional_context"],
        json!(["<qwen:user-prompt-submit-context>\nbranch &lt;main&gt;\n</qwen:user-prompt-submit-context>"])
    );
    let e = engine(&ws, settings("UserPromptSubmit", all(vec![cmd(exits(2, "", "no secrets in prompts"))])));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "my key is sk-1"}));
    assert_eq!(out["allow_prompt"], false, "{out}");
}

/// Stop: "`decision:"block"`+`reason` continues the turn"; exit 2 is
/// enforced as "Stop/SubagentStop … `continue:false`+`stopReason`".
#[test]
fn stop_blocks_with_a_decision_and_halts_on_exit_2() {
    let ws = Ws::new();
    let e = engine(&ws, settings("Stop", all(vec![cmd(say(json!({"decision": "block", "reason": "run the tests"})))])));
    let out = run(&e, HookEvent::Stop, json!({"stop_hook_active": false, "last_assistant_message": "done"}));
    assert_eq!(out["block_reason"], "run the tests", "{out}");
    let e = engine(&ws, settings("Stop", all(vec![cmd(exits(2, "", "budget exhausted"))])));
    let out = run(&e, HookEvent::Stop, json!({"stop_hook_active": false, "last_assistant_message": "done"}));
    assert_eq!((out["continue"].clone(), out["stop_reason"].clone()), (json!(false), json!("budget exhausted")));
}

/// PermissionRequest: exit 2 is enforced as `decision.behavior: "deny"`.
#[test]
fn permission_request_exit_2_denies() {
    let ws = Ws::new();
    let e = engine(&ws, settings("PermissionRequest", all(vec![cmd(exits(2, "", "not in CI"))])));
    let out = run(&e, HookEvent::PermissionRequest, shell("git push"));
    assert_eq!(out["decision"]["behavior"], "deny", "{out}");
}

/// "Fire-and-forget events (MessageDisplay, StopFailure, SessionDelete)
/// ignore output and exit codes."
#[test]
fn fire_and_forget_events_ignore_output_and_exit_codes() {
    let ws = Ws::new();
    let e = engine(&ws, settings("MessageDisplay", all(vec![cmd(exits(2, "{\"continue\":false}", "nope"))])));
    let out = e.run_named_blocking("MessageDisplay", &json!({"message_id": "m", "displayed_text": "hi"})).unwrap();
    let out = out.to_json();
    assert_eq!(out["continue"], true, "{out}");
    assert!(out["messages"].as_array().unwrap().is_empty(), "{out}");
}

/// The payload: Claude Code's fields with Qwen Code's tool ids, plus
/// `timestamp`; the environment has `QWEN_PROJECT_DIR`,
/// `GEMINI_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`; `$GEMINI_PROJECT_DIR` in
/// the command text is replaced by the shell-escaped cwd.
#[test]
fn the_payload_and_environment_are_qwen_code_s() {
    let ws = Ws::new();
    let record = "cat > payload.json; echo \"$QWEN_PROJECT_DIR|$GEMINI_PROJECT_DIR|$CLAUDE_PROJECT_DIR\" > env.txt; \
                  echo $GEMINI_PROJECT_DIR > substituted.txt";
    let e = engine(&ws, settings("PreToolUse", all(vec![cmd(record)])));
    run(&e, HookEvent::PreToolUse, shell("ls"));
    let p = ws.json("payload.json");
    assert_eq!(p["hook_event_name"], "PreToolUse");
    assert_eq!(p["tool_name"], "run_shell_command");
    assert_eq!(p["session_id"], "s-1");
    assert!(p["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')), "{p}");
    let dir = ws.path().display().to_string();
    assert_eq!(ws.read("env.txt").trim(), format!("{dir}|{dir}|{dir}"));
    assert_eq!(ws.read("substituted.txt").trim(), dir);
}

// -------------------------------------------------- files and switches

/// "`disableAllHooks: true` disables all".
#[test]
fn disable_all_hooks_turns_every_hook_off() {
    let ws = Ws::new();
    let e = engine(&ws, json!({"disableAllHooks": true, "hooks": {"PreToolUse": [all(vec![cmd("touch ran")])]}}));
    run(&e, HookEvent::PreToolUse, shell("ls"));
    assert!(!ws.exists("ran"));
}

/// `.qwen/settings.json` and `.qwen/settings.local.json` are Qwen Code's
/// by their path, whatever their shape.
#[test]
fn qwen_settings_files_are_recognised_by_path() {
    let ws = Ws::new();
    let file = ws.write_json(
        ".qwen/settings.local.json",
        &settings("PreToolUse", all(vec![cmd(say(json!({"decision": "deny", "reason": "local"})))])),
    );
    let e = ws.engine_with(json!({ "hooks_file": file }));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert_eq!(out["reason"], "local", "{out}");
    assert_eq!(hookline::dialect::for_path(Path::new("/p/.qwen/settings.json")).map(|d| d.name()), Some("qwen"));
}

/// "project hooks need a trusted folder": a project's `.qwen/settings.json`
/// in a gated workspace runs nothing until approved, while the user's own
/// file runs.
#[test]
fn an_untrusted_project_s_hooks_do_not_run() {
    let ws = Ws::new();
    let project = ws.write_json(".qwen/settings.json", &settings("PreToolUse", all(vec![cmd("touch project_ran")])));
    let user = ws.write_json("home/.qwen/settings.json", &settings("PreToolUse", all(vec![cmd("touch user_ran")])));
    let e = ws.engine_with(json!({
        "workspace_gated": true,
        "trust_store": ws.file("trust.json"),
        "hook_sources": [
            {"hooks_file": user, "trusted": true},
            {"hooks_file": project}
        ]
    }));
    let out = run(&e, HookEvent::PreToolUse, shell("ls"));
    assert!(ws.exists("user_ran"), "{out}");
    assert!(!ws.exists("project_ran"), "{out}");
    assert!(out["hooks"].as_array().unwrap().iter().any(|h| h["skipped"] == "not_approved"), "{out}");
}

/// The files a host reads: "user `~/.qwen/settings.json` < project
/// `.qwen/settings.json`" then `.qwen/settings.local.json`.
#[test]
fn a_host_reads_the_user_s_then_the_project_s_files() {
    let ws = Ws::new();
    let home = ws.path().join("home");
    let project = ws.path().join("project");
    for p in [
        home.join(".qwen/settings.json"),
        project.join(".qwen/settings.json"),
        project.join(".qwen/settings.local.json"),
    ] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "{}").unwrap();
    }
    let files: Vec<(String, bool)> = hookline::dialect::settings_files(&project, Some(&home))
        .into_iter()
        .filter(|f| f.dialect.name() == "qwen")
        .map(|f| (f.path.strip_prefix(ws.path()).unwrap().display().to_string(), f.trusted))
        .collect();
    assert_eq!(
        files,
        [
            ("home/.qwen/settings.json".to_owned(), true),
            ("project/.qwen/settings.json".to_owned(), false),
            ("project/.qwen/settings.local.json".to_owned(), false),
        ]
    );
}

/// PermissionRequest: "deny beats allow, messages joined".
#[test]
fn permission_request_deny_beats_allow() {
    let ws = Ws::new();
    let decide = |behavior: &str| {
        cmd(say(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
            "decision": {"behavior": behavior, "message": behavior}}})))
    };
    let e = engine(&ws, settings("PermissionRequest", all(vec![decide("allow"), decide("deny")])));
    let out = run(&e, HookEvent::PermissionRequest, shell("git push"));
    assert_eq!(out["decision"]["behavior"], "deny", "{out}");
}
