//! The Kiro dialect (v1 hook files) with real hooks: `.kiro/hooks/*.json`
//! files in a temporary workspace, bash hook scripts, and the rules of
//! Kiro's CLI 3 hooks documentation (kiro.dev/docs/cli/v3/hooks, "KV3")
//! re-created. Each test quotes the rule it proves.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use hookline::{dialect, CallResult, HandlerType, HookEvent, LifecycleHookEngine, Reply};
use serde_json::{json, Value};

use crate::support::{run, texts, Ws};

/// Engines of one `.kiro/hooks/<file>` (recognised by its path).
trait Engines {
    fn hook_file(&self, name: &str, hooks: Value) -> PathBuf;
    fn engine(&self, hooks: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn hook_file(&self, name: &str, hooks: Value) -> PathBuf {
        self.write_json(&format!(".kiro/hooks/{name}"), &json!({"version": "v1", "hooks": hooks}))
    }
    fn engine(&self, hooks: Value) -> LifecycleHookEngine {
        let path = self.hook_file("hooks.json", hooks);
        self.engine_with(json!({ "hooks_file": path }))
    }
}

/// A command hook `name` on `trigger` running `command`.
fn hook(name: &str, trigger: &str, command: &str) -> Value {
    json!({"name": name, "trigger": trigger, "action": {"type": "command", "command": command}})
}

/// A hook that reads its payload, writes `stdout` and `stderr`, exits `code`.
fn answer(name: &str, trigger: &str, stdout: &str, stderr: &str, code: i32) -> Value {
    hook(name, trigger, &format!("cat >/dev/null; printf '%s' '{stdout}'; printf '%s' '{stderr}' >&2; exit {code}"))
}

const BASH_RM: &str = r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;

fn bash(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}})
}

/// "0 | Success. STDOUT added to context (SessionStart, UserPromptSubmit)
/// or ignored (others)"; "2 | Block execution (PreToolUse,
/// UserPromptSubmit only). STDERR returned to LLM"; "Other | Warning shown
/// to user. Tool execution proceeds" (KV3, Exit code behavior).
#[test]
fn the_exit_code_table() {
    let ws = Ws::new();
    let e = ws.engine(json!([
        answer("ctx", "SessionStart", "repo uses pnpm", "", 0),
        answer("prompt", "UserPromptSubmit", "the user is on call", "", 0),
        answer("guard", "PreToolUse", "ignored stdout", "no rm -rf", 2),
        answer("post", "PostToolUse", "ignored", "lint failed", 2),
    ]));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["additional_context"], json!(["repo uses pnpm"]), "{out}");
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "deploy"}));
    assert_eq!(out["additional_context"], json!(["the user is on call"]), "{out}");
    let out = run(&e, HookEvent::PreToolUse, serde_json::from_str::<Value>(BASH_RM).unwrap());
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("no rm -rf")), "{out}");
    // Exit 2 where the trigger cannot block: a warning; the tool's result stands.
    let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "Bash", "tool_input": {}, "tool_response": "x"}));
    assert_ne!(out["decision"], "block", "{out}");
    assert!(texts(&out, "warning").iter().any(|m| m.contains("lint failed")), "{out}");
    // Exit 1 on PreToolUse: a warning, and the call proceeds (CLI 3; the IDE
    // docs say any non-zero exit blocks — see docs/dialects.md).
    let e = ws.engine(json!([answer("crash", "PreToolUse", "", "boom", 1)]));
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_ne!(out["decision"], "deny", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "exit", "{out}");
    assert!(texts(&out, "warning").iter().any(|m| m.contains("boom")), "{out}");
    // stdout on PreToolUse is not context.
    assert!(out["additional_context"].as_array().is_none_or(|a| a.is_empty()), "{out}");
}

/// "2 on UserPromptSubmit: Block execution … STDERR returned"; the
/// matcher of UserPromptSubmit "evaluates against Prompt text".
#[test]
fn user_prompt_submit_blocks_and_matches_the_prompt_text() {
    let ws = Ws::new();
    let mut secret = answer("secrets", "UserPromptSubmit", "", "the prompt holds a key", 2);
    secret["matcher"] = json!("sk-[a-z0-9]+");
    let e = ws.engine(json!([secret]));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "use sk-abc123"}));
    assert_eq!(out["allow_prompt"], false, "{out}");
    assert_eq!(out["block_reason"], "the prompt holds a key");
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "hello"}));
    assert_eq!(out["allow_prompt"], true, "{out}");
    assert_eq!(out["hooks"].as_array().unwrap().len(), 0, "the matcher did not match: {out}");
}

/// "PreToolUse | Tool name (regex)"; categories "read, write, shell, web,
/// spec, *, @mcp, @powers, @builtin"; MCP tools `@<server>/<tool>`: a
/// canonical call is matched on Kiro's tool name, and the payload names the
/// tool as Kiro does.
#[test]
fn tool_matchers_see_kiros_names_and_categories() {
    let ws = Ws::new();
    let log = |tag: &str| format!("cat > {tag}.json; echo {tag} >> order.txt");
    let mut shell = hook("shell", "PreToolUse", &log("shell"));
    shell["matcher"] = json!("shell");
    let mut regex = hook("regex", "PreToolUse", &log("regex"));
    regex["matcher"] = json!("fs_write|str_replace");
    let mut mcp = hook("mcp", "PreToolUse", &log("mcp"));
    mcp["matcher"] = json!("@github");
    let e = ws.engine(json!([shell, regex, mcp]));
    run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(ws.read("order.txt"), "shell\n");
    let p = ws.json("shell.json");
    assert_eq!((p["hook_event_name"].as_str(), p["tool_name"].as_str()), (Some("PreToolUse"), Some("execute_bash")));
    assert_eq!(p["tool_input"], json!({"command": "ls"}));
    assert_eq!(p["session_id"], "s-1");
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "Edit", "tool_input": {"file_path": "a"}}));
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "mcp__github__get_issue", "tool_input": {}}));
    assert_eq!(ws.read("order.txt"), "shell\nregex\nmcp\n");
    assert_eq!(ws.json("mcp.json")["tool_name"], "@github/get_issue");
}

/// "PostFileSave … File path (regex)" (`"matcher": "\\.ts$"`), fired by
/// name; "PreTaskExec | Before a spec task starts | Can block? Yes".
#[test]
fn file_and_task_triggers_fire_by_name() {
    let ws = Ws::new();
    let mut lint = hook("lint-on-save", "PostFileSave", "cat > saved.json");
    lint["matcher"] = json!("\\.ts$");
    let e = ws.engine(json!([lint, answer("task-gate", "PreTaskExec", "", "tests are red", 2)]));
    e.run_named_blocking("PostFileSave", &json!({"file_path": "src/a.rs"})).unwrap();
    assert!(!ws.exists("saved.json"));
    e.run_named_blocking("PostFileSave", &json!({"file_path": "src/a.ts"})).unwrap();
    assert_eq!(ws.json("saved.json")["hook_event_name"], "PostFileSave");
    assert_eq!(ws.json("saved.json")["file_path"], "src/a.ts");
    let out = e.run_named_blocking("PreTaskExec", &json!({"task": "1.2"})).unwrap().to_json();
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("tests are red")), "{out}");
}

/// "`timeout` | integer (seconds) | 60 | 0 disables timeout": a hook past
/// its timeout is stopped and warned about; the action proceeds.
#[test]
fn timeouts_are_seconds() {
    let ws = Ws::new();
    let mut slow = hook("slow", "PreToolUse", "cat >/dev/null; sleep 5; exit 2");
    slow["timeout"] = json!(1);
    let e = ws.engine(json!([slow]));
    let started = std::time::Instant::now();
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert!(started.elapsed() < std::time::Duration::from_secs(4), "{:?}", started.elapsed());
    assert_eq!(out["hooks"][0]["failure"], "timeout", "{out}");
    assert_ne!(out["decision"], "deny", "{out}");
}

/// "`enabled` … Set false to skip without deleting"; a bad `version`
/// leaves that file out and the others load ("one source per file").
#[test]
fn disabled_hooks_and_files_with_a_bad_version_do_not_run() {
    let ws = Ws::new();
    let mut off = answer("off", "PreToolUse", "", "disabled guard", 2);
    off["enabled"] = json!(false);
    let good = ws.hook_file("a.json", json!([off, hook("on", "PreToolUse", "cat >/dev/null; echo on >> ran.txt")]));
    let bad = ws.write_json(
        ".kiro/hooks/b.json",
        &json!({"version": "v2", "hooks": [answer("bad", "PreToolUse", "", "from v2", 2)]}),
    );
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": good}, {"hooks_file": bad}]}));
    let warnings: Vec<String> = e.config_warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect();
    assert!(warnings.iter().any(|w| w.contains("disabled")), "{warnings:?}");
    assert!(warnings.iter().any(|w| w.contains("b.json") && w.contains("version")), "{warnings:?}");
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_ne!(out["decision"], "deny", "{out}");
    assert_eq!(ws.read("ran.txt"), "on\n");
}

/// "Each hooks file is a standalone `.kiro/hooks/<name>.json`", several
/// hooks per file, "apply across all agents in the workspace": a host finds
/// every file of the folder, each its own source, the user's
/// `~/.kiro/hooks/` first.
#[test]
fn every_file_of_the_folder_is_a_source() {
    let dir = tempfile::tempdir().unwrap();
    let (home, ws) = (dir.path().join("home"), dir.path().join("ws"));
    for p in [ws.join(".kiro/hooks/a.json"), ws.join(".kiro/hooks/b.json"), home.join(".kiro/hooks/u.json")] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, r#"{"version": "v1", "hooks": []}"#).unwrap();
    }
    std::fs::write(ws.join(".kiro/hooks/old.kiro.hook"), "{}").unwrap();
    let found: Vec<(String, bool)> = dialect::settings_files_under(&ws, Some(&home), &dir.path().join("root"))
        .into_iter()
        .filter(|f| f.dialect.name() == "kiro")
        .map(|f| (f.path.strip_prefix(dir.path()).unwrap().display().to_string(), f.trusted))
        .collect();
    let s = |p: &str, t| (p.to_owned(), t);
    assert_eq!(
        found,
        [s("home/.kiro/hooks/u.json", true), s("ws/.kiro/hooks/a.json", false), s("ws/.kiro/hooks/b.json", false)]
    );
    assert_eq!(dialect::project_dir_of(&ws.join(".kiro/hooks/a.json")), ws);
}

/// "Agent -- appends a prompt string to the model context. No subprocess
/// spawned": hookline sends it to the host's `agent` handler (as a prompt
/// hook's); an `{"ok": false, "reason"}` answer blocks where the trigger can.
#[test]
fn agent_actions_go_to_the_hosts_agent_handler() {
    let ws = Ws::new();
    let e = ws.engine(json!([
        {"name": "remind-tests", "trigger": "PreToolUse", "matcher": "fs_write|str_replace",
         "action": {"type": "agent", "prompt": "Ensure tests are updated for this change"}}
    ]));
    // No handler: a warning, the call proceeds.
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Write", "tool_input": {"file_path": "a"}}));
    assert_ne!(out["decision"], "deny", "{out}");
    assert!(!texts(&out, "warning").is_empty(), "{out}");
    let seen = Arc::new(Mutex::new(Vec::<Value>::new()));
    let s = seen.clone();
    e.set_handler(
        HandlerType::Agent,
        Some(Arc::new(move |req: &str| {
            s.lock().unwrap().push(serde_json::from_str(req).unwrap());
            CallResult::ok(Reply::Json(json!({"ok": false, "reason": "add a test first"})))
        })),
    )
    .unwrap();
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Write", "tool_input": {"file_path": "a"}}));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("add a test first")), "{out}");
    let req = seen.lock().unwrap()[0].clone();
    assert!(req.to_string().contains("Ensure tests are updated for this change"), "{req}");
    assert_eq!(out["hooks"][0]["kind"], "agent", "{out}");
    // A tool the matcher does not name: no call.
    run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(seen.lock().unwrap().len(), 1);
}

/// `hookline check` reads what Kiro would skip: a hook without `name`
/// ("Required: Yes"), an unknown trigger, a matcher on a trigger that does
/// not evaluate one.
#[test]
fn check_reports_what_kiro_skips() {
    let ws = Ws::new();
    let mut stop = hook("s", "Stop", "true");
    stop["matcher"] = json!("x");
    let path = ws.hook_file(
        "h.json",
        json!([{"trigger": "Stop", "action": {"type": "command", "command": "x"}}, hook("t", "OnSave", "x"), stop]),
    );
    let cfg = hookline::config::HooksConfig::read_file(&path, None, false, None).unwrap();
    assert_eq!(cfg.dialect_id().name(), "kiro");
    let w = crate::support::warnings(&cfg);
    assert!(w.iter().any(|w| w.contains("no `name`")), "{w:?}");
    assert!(w.iter().any(|w| w.contains("unknown trigger `OnSave`")), "{w:?}");
    assert!(w.iter().any(|w| w.contains("does not evaluate a matcher")), "{w:?}");
}

/// "Existing embedded hooks in agent configs still work during the
/// transition" (KV3): an agent file's CLI 2.x hooks (`agentSpawn`,
/// `preToolUse` with `timeout_ms`), named as the config, run with Kiro's
/// exit-code rules, in the workspace above `.kiro/agents/`.
#[test]
fn an_agent_files_embedded_2x_hooks_run_when_the_file_is_named() {
    let ws = Ws::new();
    let agent = ws.write_json(
        ".kiro/agents/dev.json",
        &json!({"name": "dev", "description": "…", "tools": ["*"], "hooks": {
            "agentSpawn": [{"command": "cat >/dev/null; pwd > where.txt; echo 'agent context'"}],
            "preToolUse": [{"command": "cat >/dev/null; echo 'no shell' >&2; exit 2", "matcher": "execute_bash", "timeout_ms": 5000}]
        }}),
    );
    let e = ws.engine_with(json!({ "hooks_file": agent }));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["additional_context"], json!(["agent context"]), "{out}");
    let real = |p: &std::path::Path| std::fs::canonicalize(p).unwrap();
    assert_eq!(real(std::path::Path::new(ws.read("where.txt").trim())), real(ws.path()));
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("no shell")), "{out}");
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Read", "tool_input": {"file_path": "a"}}));
    assert_ne!(out["decision"], "deny", "{out}");
}
