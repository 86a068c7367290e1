//! The Crush dialect with real hooks: `crush.json` files in a temporary
//! workspace, shell hooks, and the rules of Crush's hooks (charmbracelet/crush
//! @37f36e93: `docs/hooks/README.md` "CH", `internal/hooks/` and
//! `internal/config/load.go`) re-created. Each test quotes the rule it
//! proves.

use std::path::PathBuf;

use hookline::{HookEvent, LifecycleHookEngine, Status};
use serde_json::{json, Value};

use crate::support::{run, say, texts, Ws};

/// Engines of one `crush.json` (recognised by its name).
trait Engines {
    fn crush_json(&self, hooks: Value) -> PathBuf;
    fn engine(&self, hooks: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn crush_json(&self, hooks: Value) -> PathBuf {
        self.write_json("crush.json", &json!({"hooks": {"PreToolUse": hooks}}))
    }
    fn engine(&self, hooks: Value) -> LifecycleHookEngine {
        let path = self.crush_json(hooks);
        self.engine_with(json!({ "hooks_file": path }))
    }
}

/// A hook entry running `command` for tools matching `matcher`.
fn hook(matcher: &str, command: &str) -> Value {
    json!({"matcher": matcher, "command": command})
}

/// A hook that reads its payload, writes `stdout` and `stderr`, exits `code`.
fn answer(stdout: &str, stderr: &str, code: i32) -> String {
    format!("cat >/dev/null; printf '%s' '{stdout}'; printf '%s' '{stderr}' >&2; exit {code}")
}

fn bash(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}})
}

fn decision(out: &Value) -> (&str, &str) {
    (out["decision"].as_str().unwrap_or(""), out["reason"].as_str().unwrap_or(""))
}

/// "0 | Success. Stdout is parsed as the output envelope."; "2 | Block
/// this tool call. Stderr becomes the deny reason. Stdout is ignored.";
/// "49 | Halt the whole turn. Stderr becomes the halt reason."; "other |
/// Non-blocking error. Logged and ignored; the tool call proceeds." (CH,
/// Exit codes). With no stderr: "blocked by hook", "turn halted by hook"
/// (`runOne`).
#[test]
fn the_exit_code_table() {
    let ws = Ws::new();
    let e = ws.engine(json!([hook("^bash$", &answer(r#"{"decision":"allow"}"#, "No Haskell allowed, kiddo.", 2))]));
    assert_eq!(decision(&run(&e, HookEvent::PreToolUse, bash("ghc x"))), ("deny", "No Haskell allowed, kiddo."));
    let e = ws.engine(json!([hook("", &answer("", "", 2))]));
    assert_eq!(decision(&run(&e, HookEvent::PreToolUse, bash("x"))), ("deny", "blocked by hook"));
    let e = ws.engine(json!([hook("", &answer(r#"{"decision":"allow"}"#, "stop now", 49))]));
    let out = run(&e, HookEvent::PreToolUse, bash("x"));
    assert_eq!(decision(&out), ("deny", "stop now"), "{out}");
    assert_eq!((&out["continue"], &out["stop_reason"]), (&json!(false), &json!("stop now")), "{out}");
    let e = ws.engine(json!([hook("", &answer("", "", 49))]));
    assert_eq!(run(&e, HookEvent::PreToolUse, bash("x"))["reason"], "turn halted by hook");
    let e = ws.engine(json!([hook("", &answer(r#"{"decision":"deny"}"#, "boom", 1))]));
    let out = run(&e, HookEvent::PreToolUse, bash("x"));
    assert_ne!(out["decision"], "deny", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "exit", "{out}");
    assert!(texts(&out, "warning").iter().any(|m| m.contains("boom")), "{out}");
}

/// "Standard input provides the full context as JSON: event, session_id,
/// cwd, tool_name, tool_input" (CH, Input) — `event`, not Claude Code's
/// `hook_event_name`; the tool named as Crush names it.
#[test]
fn the_payload_is_crushs() {
    let ws = Ws::new();
    let e = ws.engine(json!([hook("", "cat > payload.json")]));
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "Write", "tool_input": {"file_path": "a.go", "content": "x"}}));
    let p = ws.json("payload.json");
    assert_eq!(
        p,
        json!({"event": "PreToolUse", "session_id": "s-1", "cwd": ws.path().canonicalize().unwrap(),
               "tool_name": "write", "tool_input": {"file_path": "a.go", "content": "x"}})
    );
}

/// "every hook sees `CRUSH=1`, `AGENT=crush`, and `AI_AGENT=crush` on top
/// of the `CRUSH_*` hook-specific variables"; `CRUSH_EVENT`,
/// `CRUSH_TOOL_NAME`, `CRUSH_SESSION_ID`, `CRUSH_CWD`,
/// `CRUSH_PROJECT_DIR`, `CRUSH_TOOL_INPUT_COMMAND` ("For `bash` calls"),
/// `CRUSH_TOOL_INPUT_FILE_PATH` ("For file tools") (CH, Environment
/// Variables).
#[test]
fn the_environment_has_crushs_variables() {
    let ws = Ws::new();
    let e = ws.engine(json!([hook(
        "",
        "cat >/dev/null; env | grep -E '^(CRUSH|AGENT|AI_AGENT)' | sort > \"env-$CRUSH_TOOL_NAME\""
    )]));
    run(&e, HookEvent::PreToolUse, bash("rm -rf /"));
    run(
        &e,
        HookEvent::PreToolUse,
        json!({"tool_name": "Edit", "tool_input": {"file_path": "m.go", "old_string": "a", "new_string": "b"}}),
    );
    let dir = ws.path().canonicalize().unwrap().display().to_string();
    let bash_env = ws.read("env-bash");
    for line in [
        "CRUSH=1".to_owned(),
        "AGENT=crush".to_owned(),
        "AI_AGENT=crush".to_owned(),
        "CRUSH_EVENT=PreToolUse".to_owned(),
        "CRUSH_TOOL_NAME=bash".to_owned(),
        "CRUSH_SESSION_ID=s-1".to_owned(),
        format!("CRUSH_CWD={dir}"),
        format!("CRUSH_PROJECT_DIR={dir}"),
        "CRUSH_TOOL_INPUT_COMMAND=rm -rf /".to_owned(),
    ] {
        assert!(bash_env.lines().any(|l| l == line), "{line} in {bash_env}");
    }
    assert!(!bash_env.contains("CRUSH_TOOL_INPUT_FILE_PATH"), "{bash_env}");
    let edit_env = ws.read("env-edit");
    assert!(edit_env.lines().any(|l| l == "CRUSH_TOOL_INPUT_FILE_PATH=m.go"), "{edit_env}");
    assert!(!edit_env.contains("CRUSH_TOOL_INPUT_COMMAND"), "{edit_env}");
}

/// "If any hook denies, the tool call is blocked. `reason` values are
/// concatenated in config order (newline-separated)."; "If no hook denies
/// or halts but at least one allows, the tool call proceeds and the
/// permission prompt is skipped."; "`context` values are concatenated in
/// config order" (CH, Multiple Hooks); a denied call gets no context
/// (`hookedTool.Run` returns before it appends the context).
#[test]
fn deny_wins_reasons_join_and_allow_pre_approves() {
    let ws = Ws::new();
    let e = ws.engine(json!([
        hook("", &say(json!({"decision": "allow", "context": "first"}))),
        hook("", &say(json!({"decision": "deny", "reason": "one"}))),
        hook("", &say(json!({"decision": "DENY", "reason": "two", "context": ["x"]}))),
    ]));
    let out = run(&e, HookEvent::PreToolUse, bash("x"));
    assert_eq!(decision(&out), ("deny", "one\ntwo"), "{out}");
    assert!(out["additional_context"].as_array().is_none_or(|a| a.is_empty()), "{out}");
    let e = ws.engine(json!([
        hook("", &say(json!({"context": "a"}))),
        hook("", &say(json!({"decision": "allow", "context": ["b", "", "c"]}))),
        hook("", "cat >/dev/null"),
    ]));
    let out = run(&e, HookEvent::PreToolUse, bash("x"));
    assert_eq!(out["decision"], "allow", "{out}");
    assert_eq!(out["additional_context"], json!(["a", "b\nc"]), "{out}");
    // Silence is no opinion: "the tool still goes through the normal permission flow".
    let e = ws.engine(json!([hook("", &say(json!({"context": "only"})))]));
    assert_eq!(run(&e, HookEvent::PreToolUse, bash("x"))["decision"], "continue");
}

/// "`halt: true` stops the turn entirely"; "If any hook halts, the turn
/// ends after the tool call is blocked."; "Halt-only hooks without a deny
/// still contribute their reason." (CH).
#[test]
fn halt_blocks_the_call_and_ends_the_turn() {
    let ws = Ws::new();
    let e = ws.engine(json!([
        hook("", &say(json!({"decision": "allow", "halt": true, "reason": "enough"}))),
        hook("", &say(json!({"decision": "deny", "reason": "no"}))),
    ]));
    let out = run(&e, HookEvent::PreToolUse, bash("x"));
    assert_eq!(decision(&out), ("deny", "enough\nno"), "{out}");
    assert_eq!(out["continue"], false, "{out}");
}

/// "`updated_input` patches shallow-merge in config order against the
/// original tool input. Later hooks override earlier ones on colliding
/// keys. If denied or halted, `updated_input` patches are ignored."; a
/// JSON string holding the patch is accepted (`rawToString`: "for
/// backward compatibility") (CH, `internal/hooks/input.go`).
#[test]
fn updated_input_patches_merge_and_a_deny_drops_them() {
    let ws = Ws::new();
    let e = ws.engine(json!([
        hook("", &say(json!({"updated_input": {"command": "bun test", "description": "a"}}))),
        hook("", &say(json!({"updated_input": "{\"description\": \"b\"}"}))),
    ]));
    let out = run(
        &e,
        HookEvent::PreToolUse,
        json!({"tool_name": "Bash", "tool_input": {"command": "npm test", "timeout": 60000}}),
    );
    assert_eq!(out["updated_input"], json!({"command": "bun test", "timeout": 60000, "description": "b"}), "{out}");
    let e = ws.engine(json!([
        hook("", &say(json!({"updated_input": {"command": "bun test"}}))),
        hook("", &say(json!({"halt": true}))),
    ]));
    let out = run(&e, HookEvent::PreToolUse, bash("npm test"));
    assert!(out["updated_input"].is_null(), "{out}");
    // A patch that is not an object: "Hook updated_input patch rejected; ignoring".
    let e = ws.engine(json!([hook("", &say(json!({"updated_input": [1, 2]})))]));
    let out = run(&e, HookEvent::PreToolUse, bash("npm test"));
    assert!(out["updated_input"].is_null(), "{out}");
    assert!(texts(&out, "warning").iter().any(|m| m.contains("updated_input")), "{out}");
}

/// The rewrite of a file tool comes back in Claude Code's shape: view's
/// 0-based `offset` is Read's 1-based one.
#[test]
fn a_view_patch_reads_back_as_read() {
    let ws = Ws::new();
    let e = ws.engine(json!([hook("^view$", &say(json!({"updated_input": {"offset": 0}})))]));
    let out =
        run(&e, HookEvent::PreToolUse, json!({"tool_name": "Read", "tool_input": {"file_path": "/a", "offset": 7}}));
    assert_eq!(out["updated_input"], json!({"file_path": "/a", "offset": 1}), "{out}");
}

/// "Claude Code compat: if hookSpecificOutput is present, parse that"
/// (`parseStdout`); a top-level `"block"` means nothing to Crush: hookline
/// does not deny either, and says so.
#[test]
fn claude_codes_permission_decision_is_read_a_top_level_block_is_not() {
    let ws = Ws::new();
    let e = ws.engine(json!([hook(
        "",
        &say(json!({"decision": "allow", "hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "from claude"}}))
    )]));
    assert_eq!(decision(&run(&e, HookEvent::PreToolUse, bash("x"))), ("deny", "from claude"));
    let e = ws.engine(json!([hook("", &say(json!({"block": true, "reason": "nope"})))]));
    let out = run(&e, HookEvent::PreToolUse, bash("x"));
    assert_ne!(out["decision"], "deny", "{out}");
    assert!(texts(&out, "warning").iter().any(|m| m.contains("`block`")), "{out}");
    // Output Crush cannot decode is no opinion, said as a warning.
    for bad in ["not json", r#"{"decision": "deny", "halt": "yes"}"#] {
        let e = ws.engine(json!([hook("", &format!("cat >/dev/null; printf '%s' '{bad}'"))]));
        let out = run(&e, HookEvent::PreToolUse, bash("x"));
        assert_ne!(out["decision"], "deny", "{bad}: {out}");
        assert_eq!(out["hooks"][0]["failure"], "invalid_output", "{bad}: {out}");
    }
}

/// "Filters hooks whose `matcher` regex matches the tool name (no matcher
/// = match all)"; "Block all MCP tools: `{ "matcher": "^mcp_", … }`" (CH):
/// a searched regex on Crush's names, MCP tools `mcp_<server>_<tool>`.
#[test]
fn matchers_search_crushs_tool_names() {
    let ws = Ws::new();
    let e = ws.engine(json!([
        hook("^mcp_", &answer("", "MCP tools are disabled", 2)),
        hook("^(edit|write|multiedit)$", &answer("", "no writes", 2)),
    ]));
    let out =
        run(&e, HookEvent::PreToolUse, json!({"tool_name": "mcp__github__create_pull_request", "tool_input": {}}));
    assert_eq!(decision(&out), ("deny", "MCP tools are disabled"));
    assert_eq!(
        decision(&run(&e, HookEvent::PreToolUse, json!({"tool_name": "MultiEdit", "tool_input": {}}))).0,
        "deny"
    );
    assert_ne!(run(&e, HookEvent::PreToolUse, json!({"tool_name": "Read", "tool_input": {}}))["decision"], "deny");
}

/// "Deduplicates by `command` (identical commands run once)." (CH).
#[test]
fn identical_commands_run_once() {
    let ws = Ws::new();
    let e =
        ws.engine(json!([hook("", "cat >/dev/null; echo x >> ran"), hook("bash", "cat >/dev/null; echo x >> ran")]));
    run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(ws.read("ran").lines().count(), 1);
}

/// "If a hook exceeds its timeout, Crush cancels its context and treats
/// the result as a non-blocking error so the tool call proceeds." (CH,
/// Timeouts) — hookline says so in a warning.
#[test]
fn a_timeout_is_no_opinion_with_a_warning() {
    let ws = Ws::new();
    let e = ws.engine(json!([{"command": "cat >/dev/null; sleep 5; exit 2", "timeout": 1}]));
    let out = run(&e, HookEvent::PreToolUse, bash("x"));
    assert_ne!(out["decision"], "deny", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "timeout", "{out}");
    assert!(texts(&out, "warning").iter().any(|m| m.contains("timed out")), "{out}");
}

/// `ValidateHooks`: "hook %s[%d]: command is required" and "invalid
/// matcher regex" stop Crush from loading its configuration ("invalid hook
/// configuration"): hookline refuses the file too, so a guard written as a
/// Claude Code matcher group never silently stops guarding.
#[test]
fn a_nested_group_or_a_bad_matcher_is_a_load_error() {
    let ws = Ws::new();
    let nested = json!([{"matcher": "bash", "hooks": [{"type": "command", "command": "exit 2"}]}]);
    let path = ws.crush_json(nested);
    let e = ws.try_engine_with(json!({ "hooks_file": path })).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("command is required"), "{}", e.message);
    let path = ws.crush_json(json!([hook("*", "exit 2")]));
    let e = ws.try_engine_with(json!({ "hooks_file": path })).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("invalid matcher regex"), "{}", e.message);
}

/// "Event names are case insensitive and snake-caseable" (CH, Events).
#[test]
fn snake_case_event_keys_run() {
    let ws = Ws::new();
    let path = ws.write_json("crush.json", &json!({"hooks": {"PRE_TOOL_USE": [hook("", &answer("", "snake", 2))]}}));
    let e = ws.engine_with(json!({ "hooks_file": path }));
    assert_eq!(decision(&run(&e, HookEvent::PreToolUse, bash("x"))), ("deny", "snake"));
}

/// The files a host of Crush reads (`lookupConfigs`): the user's
/// `~/.config/crush/crush.json`, the `crushrc` beside it and
/// `~/.local/share/crush/crush.json` first, then the project's
/// `crush.json`, `.crush.json`, `crushrc`, `.crushrc` ("`.crushrc` beats
/// `crushrc`, both beat the JSON configs, and `.crush.json` beats
/// `crush.json`") and the workspace `.crush/crush.json` (loaded last).
#[test]
fn discovery_finds_crushs_files_in_crushs_order() {
    if ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "CRUSH_GLOBAL_CONFIG", "CRUSH_GLOBAL_DATA"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
    {
        return; // the user files are elsewhere (`tests::user_files_follow_crushs_variables`).
    }
    let ws = Ws::new();
    let home = ws.file("home");
    let project = ws.file("project");
    for rel in [
        "home/.config/crush/crush.json",
        "home/.config/crush/crushrc",
        "home/.local/share/crush/crush.json",
        "project/crush.json",
        "project/.crush.json",
        "project/crushrc",
        "project/.crushrc",
        "project/.crush/crush.json",
    ] {
        ws.write(rel, if rel.ends_with("rc") { "model large openai gpt-5" } else { r#"{"hooks": {}}"# });
    }
    let found: Vec<(String, bool)> = hookline::dialect::settings_files(&project, Some(&home))
        .into_iter()
        .filter(|f| f.dialect.name() == "crush")
        .map(|f| (f.path.strip_prefix(ws.path()).unwrap().display().to_string(), f.trusted))
        .collect();
    assert_eq!(
        found,
        [
            ("home/.config/crush/crush.json".to_owned(), true),
            ("home/.config/crush/crushrc".to_owned(), true),
            ("home/.local/share/crush/crush.json".to_owned(), true),
            ("project/crush.json".to_owned(), false),
            ("project/.crush.json".to_owned(), false),
            ("project/crushrc".to_owned(), false),
            ("project/.crushrc".to_owned(), false),
            ("project/.crush/crush.json".to_owned(), false),
        ]
    );
}

/// A `crushrc` is a script of config builtins: `hook add PreToolUse
/// --command CMD --matcher REGEX` adds a hook (internal/shellconfig/hook.go);
/// hookline reads those lines without running the script, and says which
/// `hook` lines it cannot read so.
#[test]
fn a_crushrcs_hook_lines_are_read_without_running_it() {
    let ws = Ws::new();
    let path = ws.write(
        "crushrc",
        "provider add local --type openai --base-url http://127.0.0.1:1\n\
         hook add PreToolUse --matcher '^bash$' --name guard --command \"cat >/dev/null; echo 'from crushrc' >&2; exit 2\"\n\
         [ -n \"$CI\" ] && hook add PreToolUse --command 'exit 2'\n",
    );
    let cfg = hookline::config::HooksConfig::from_file(&path).unwrap();
    assert_eq!(cfg.dialect().name(), "crush");
    assert!(cfg.warnings().iter().any(|w| w.path == "line 3" && w.never_runs), "{:?}", cfg.warnings());
    let e = ws.engine_with(json!({ "hooks_file": path }));
    assert_eq!(decision(&run(&e, HookEvent::PreToolUse, bash("ls"))), ("deny", "from crushrc"));
    assert_ne!(run(&e, HookEvent::PreToolUse, json!({"tool_name": "Read", "tool_input": {}}))["decision"], "deny");
    // `hook add` without --command: "--command is required", Crush does not start.
    let bad = ws.write(".crushrc", "hook add PreToolUse --name x\n");
    let e = ws.try_engine_with(json!({ "hooks_file": bad })).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("--command is required"), "{}", e.message);
}
