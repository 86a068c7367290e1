//! Policy sources (`hook_sources[i].policy`): an administrator's hooks —
//! Copilot CLI's `policy.d/*.json`, Claude Code's managed settings,
//! Cursor's enterprise `hooks.json` — that run first, that no other
//! source's `disableAllHooks` or switch turns off, and that fail closed.
//! Real hook processes; each test quotes the vendor's rule it proves.

use std::path::{Path, PathBuf};

use hookline::{HookEvent, LifecycleHookEngine, Status};
use serde_json::{json, Value};

struct Ws {
    dir: tempfile::TempDir,
}

impl Ws {
    fn new() -> Ws {
        Ws { dir: tempfile::tempdir().unwrap() }
    }
    fn path(&self) -> &Path {
        self.dir.path()
    }
    fn write(&self, rel: &str, value: &Value) -> PathBuf {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, value.to_string()).unwrap();
        path
    }
    fn exists(&self, rel: &str) -> bool {
        self.dir.path().join(rel).exists()
    }
    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(rel)).unwrap_or_default()
    }
    fn try_engine(&self, sources: Value) -> hookline::Result<LifecycleHookEngine> {
        let o = json!({"workspace": self.path(), "session_id": "s-1", "hook_sources": sources});
        LifecycleHookEngine::from_options_json(&o.to_string())
    }
    fn engine(&self, sources: Value) -> LifecycleHookEngine {
        self.try_engine(sources).unwrap()
    }
}

fn run(e: &LifecycleHookEngine, event: HookEvent, input: Value) -> Value {
    e.run_blocking(event, &input).unwrap().to_json()
}

fn stop(e: &LifecycleHookEngine) -> Value {
    run(e, HookEvent::Stop, json!({"stop_hook_active": false, "last_assistant_message": "done"}))
}

/// Claude Code settings whose Stop runs `command`.
fn claude_stop(command: &str) -> Value {
    json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}})
}

/// A Copilot CLI hooks file whose preToolUse runs `bash`.
fn copilot_pre_tool(bash: &str) -> Value {
    json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": bash}]}})
}

fn pre_tool(e: &LifecycleHookEngine) -> Value {
    run(e, HookEvent::PreToolUse, json!({"tool_name": "bash", "tool_input": {"command": "ls"}}))
}

// ------------------------------------------------------- disableAllHooks

/// Claude Code: "If disableAllHooks is set in non-managed settings, only
/// managed hooks are returned (non-managed settings cannot disable managed
/// hooks)"; "If disableAllHooks is set in policySettings, no hooks are
/// returned" (`hooksConfigSnapshot.ts`, `getHooksFromAllowedSources`).
#[test]
fn a_users_disable_all_hooks_leaves_managed_hooks_on_and_the_managed_one_turns_all_off() {
    let ws = Ws::new();
    let managed = ws.write("etc/claude-code/managed-settings.json", &claude_stop("cat >/dev/null; touch managed"));
    let mut user = claude_stop("cat >/dev/null; touch user");
    user["disableAllHooks"] = json!(true);
    let user = ws.write("home/.claude/settings.json", &user);
    let e = ws.engine(json!([
        {"hooks_file": managed, "policy": true},
        {"hooks_file": user, "trusted": true},
    ]));
    let out = stop(&e);
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "{out}");
    assert_eq!(out["hooks"][0]["policy"], true, "the report names a policy hook");
    assert!(ws.exists("managed") && !ws.exists("user"));

    // The managed settings' own `true` turns every hook off, and a user's
    // `false` after it does not turn them back on.
    let mut managed_off = claude_stop("cat >/dev/null; touch managed2");
    managed_off["disableAllHooks"] = json!(true);
    let managed_off = ws.write("etc2/claude-code/managed-settings.json", &managed_off);
    let mut user_on = claude_stop("cat >/dev/null; touch user2");
    user_on["disableAllHooks"] = json!(false);
    let user_on = ws.write("home2/.claude/settings.json", &user_on);
    let e = ws.engine(json!([
        {"hooks_file": managed_off, "policy": true},
        {"hooks_file": user_on, "trusted": true},
    ]));
    assert_eq!(stop(&e)["hooks"], json!([]));
    assert!(!ws.exists("managed2") && !ws.exists("user2"));
}

/// Copilot CLI: policy hooks are "Not disabled by `disableAllHooks`"
/// ("Disable all hooks": a repository's settings.json "skips every
/// non-policy hook for that repo").
#[test]
fn a_repositorys_disable_all_hooks_does_not_turn_off_copilot_policy_hooks() {
    let ws = Ws::new();
    let policy = ws.write("etc/github-copilot/policy.d/00-org.json", &copilot_pre_tool("cat >/dev/null; touch policy"));
    let repo = ws.write(".github/hooks/repo.json", &copilot_pre_tool("cat >/dev/null; touch repo"));
    let settings = ws.write(".github/copilot/settings.json", &json!({"disableAllHooks": true}));
    let e = ws.engine(json!([
        {"hooks_file": policy, "policy": true, "dialect": "copilot"},
        {"hooks_file": repo, "trusted": true},
        {"hooks_file": settings, "trusted": true},
    ]));
    let out = pre_tool(&e);
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "{out}");
    assert!(ws.exists("policy") && !ws.exists("repo"));
}

/// Gemini CLI's `hooksConfig.enabled: false` ("no Gemini CLI hook runs")
/// is a user's switch: like `disableAllHooks`, it leaves an
/// administrator's policy hooks on.
#[test]
fn switches_do_not_turn_off_policy_hooks() {
    let ws = Ws::new();
    let hook = |name: &str| json!({"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": format!("cat >/dev/null; touch {name}")}]}]}});
    let policy = ws.write("etc/gemini-cli/system-defaults.json", &hook("policy"));
    let mut user = hook("user");
    user["hooksConfig"] = json!({"enabled": false, "disabled": ["cat >/dev/null; touch policy"]});
    let user = ws.write("home/.gemini/settings.json", &user);
    let e = ws.engine(json!([
        {"hooks_file": policy, "policy": true, "dialect": "gemini"},
        {"hooks_file": user, "trusted": true},
    ]));
    let out = run(&e, HookEvent::Stop, json!({"prompt": "p", "prompt_response": "r", "stop_hook_active": false}));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "{out}");
    assert!(ws.exists("policy") && !ws.exists("user"));
}

// ------------------------------------------------------------ run order

/// Copilot CLI: "Policy hooks — `/etc/github-copilot/policy.d/*.json` …
/// Within an event, policy entries are **moved first**", and hooks run
/// "in order": a policy source runs before the others wherever the host
/// lists it.
#[test]
fn policy_hooks_run_first_wherever_their_source_is_listed() {
    let ws = Ws::new();
    let repo = ws.write(".github/hooks/repo.json", &copilot_pre_tool("cat >/dev/null; echo repo >> order.txt"));
    let policy = ws.write(
        "etc/github-copilot/policy.d/00-org.json",
        &copilot_pre_tool("cat >/dev/null; echo policy >> order.txt"),
    );
    let e = ws.engine(json!([
        {"hooks_file": repo, "trusted": true},
        {"hooks_file": policy, "policy": true, "dialect": "copilot"},
    ]));
    let out = pre_tool(&e);
    assert_eq!(ws.read("order.txt"), "policy\nrepo\n");
    let policy_flags: Vec<Value> = out["hooks"].as_array().unwrap().iter().map(|h| h["policy"].clone()).collect();
    assert_eq!(policy_flags, [json!(true), Value::Null], "only a policy hook's report says so");
}

// --------------------------------------------------------- failing closed

/// Copilot CLI: "Policy hooks fail-closed on errors (`Policy hook
/// failed`)"; hookline applies this to every dialect's policy hooks: a
/// policy hook that cannot run blocks where its event can block (a Stop
/// blocks, a PreToolUse denies), where a user's same hook fails open.
#[test]
fn a_failing_policy_hook_takes_its_events_blocking_decision() {
    let ws = Ws::new();
    let broken = ws.write("managed-settings.json", &claude_stop("cat >/dev/null; exit 1"));
    let e = ws.engine(json!([{"hooks_file": broken, "policy": true}]));
    let out = stop(&e);
    assert!(out["block_reason"].as_str().is_some_and(|r| r.contains("exited with code 1")), "{out}");
    assert_eq!(out["hooks"][0]["failure"], "exit");
    // The same file as a user's: a non-blocking error.
    let e = ws.engine(json!([{"hooks_file": broken, "trusted": true}]));
    assert_eq!(stop(&e)["block_reason"], Value::Null);

    // A policy PreToolUse hook whose program does not exist denies.
    let missing =
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "/no/such/policy-hook"}]}]}});
    let missing = ws.write("etc2/claude-code/managed-settings.json", &missing);
    let e = ws.engine(json!([{"hooks_file": missing, "policy": true}]));
    let out = pre_tool(&e);
    assert_eq!(out["decision"], "deny", "{out}");

    // Where no hook can block (SessionEnd), nothing changes.
    let end = json!({"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "exit 1"}]}]}});
    let end = ws.write("etc3/claude-code/managed-settings.json", &end);
    let e = ws.engine(json!([{"hooks_file": end, "policy": true}]));
    let out = run(&e, HookEvent::SessionEnd, json!({"reason": "exit"}));
    assert_eq!(out["hooks"][0]["failure"], "exit", "{out}");
}

/// A policy hook that times out fails closed too, unless its agent says
/// timeouts fail open: Copilot CLI's "Timeout: fail-open for every event,
/// including preToolUse and policy hooks".
#[test]
fn a_policy_hooks_timeout_fails_closed_except_where_the_agent_fails_it_open() {
    let ws = Ws::new();
    let slow = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "cat >/dev/null; sleep 5", "timeout": 1}]}]}});
    let slow = ws.write("managed-settings.json", &slow);
    let e = ws.engine(json!([{"hooks_file": slow, "policy": true}]));
    let out = stop(&e);
    assert!(out["block_reason"].is_string(), "{out}");
    assert_eq!(out["hooks"][0]["failure"], "timeout");

    let mut copilot = copilot_pre_tool("cat >/dev/null; sleep 5");
    copilot["hooks"]["preToolUse"][0]["timeoutSec"] = json!(1);
    let copilot = ws.write("etc/github-copilot/policy.d/00-org.json", &copilot);
    let e = ws.engine(json!([{"hooks_file": copilot, "policy": true, "dialect": "copilot"}]));
    let out = pre_tool(&e);
    assert_eq!((out["decision"].clone(), out["hooks"][0]["failure"].clone()), (json!("continue"), json!("timeout")));
    // Another failure of a Copilot CLI policy hook still denies.
    let crash = ws.write("etc/github-copilot/policy.d/01-org.json", &copilot_pre_tool("cat >/dev/null; exit 3"));
    let e = ws.engine(json!([{"hooks_file": crash, "policy": true, "dialect": "copilot"}]));
    assert_eq!(pre_tool(&e)["decision"], "deny");
}

// ------------------------------------------------------------- the option

/// `policy` is a boolean, and a policy source is trusted (it is never
/// gated), whatever `trusted` says.
#[test]
fn the_policy_option_is_a_boolean_and_implies_trusted() {
    let ws = Ws::new();
    let file = ws.write("managed-settings.json", &claude_stop("true"));
    let err = ws.try_engine(json!([{"hooks_file": file, "policy": "yes"}])).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    assert!(err.message.contains("`hook_sources[0].policy` must be a boolean"), "{}", err.message);
    // Policy hooks are not part of the workspace digest (they never wait
    // for an approval).
    let e = ws.engine(json!([{"hooks_file": file, "policy": true, "trusted": false}]));
    assert!(e.command_previews().is_empty(), "{:?}", e.command_previews());
}

// --------------------------------------------------- the files a host reads

/// The machine-wide files of Copilot CLI (`policy.d`, "must be
/// root-owned"), Claude Code (managed settings) and Cursor (the
/// enterprise file) are policy files; Gemini CLI's system settings and
/// Codex's `/etc/codex` files are system files, not policy.
#[test]
fn a_hosts_policy_files_are_found_as_policy() {
    let ws = Ws::new();
    let root = ws.path().join("root");
    let home = ws.path().join("home");
    let project = ws.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let put = |p: &str| {
        let path = root.join(p.trim_start_matches('/'));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{}").unwrap();
    };
    let claude = hookline::dialect::by_name("claude").unwrap();
    let cursor = hookline::dialect::by_name("cursor").unwrap();
    let gemini = hookline::dialect::by_name("gemini").unwrap();
    put(claude.system_files()[0]);
    put(cursor.system_files()[0]);
    put(gemini.system_files()[0]);
    put("/etc/github-copilot/policy.d/00-org.json");
    let found: Vec<(String, bool)> = hookline::dialect::settings_files_under(&project, Some(&home), &root)
        .into_iter()
        .map(|f| (f.dialect.name().to_owned(), f.policy))
        .collect();
    let policy_of = |d: &str| found.iter().find(|f| f.0 == d).map(|f| f.1);
    assert_eq!(policy_of("claude"), Some(true), "{found:?}");
    assert_eq!(policy_of("cursor"), Some(true), "{found:?}");
    assert_eq!(policy_of("gemini"), Some(false), "{found:?}");
    // Copilot CLI reads a policy file only when root owns it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let root_owned = std::fs::metadata(ws.path()).unwrap().uid() == 0;
        assert_eq!(policy_of("copilot"), root_owned.then_some(true), "{found:?}");
    }
}
