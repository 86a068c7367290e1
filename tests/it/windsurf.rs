//! The Windsurf / Devin Desktop dialect (Cascade hooks) with real hooks:
//! `hooks.json` files in a temporary workspace, bash hook scripts, and the
//! rules of Cascade's hooks documentation (docs.devin.ai/desktop/cascade/hooks)
//! and of recorded runs of Devin Desktop (heywood8/rosetta
//! `docs/hooks/windsurf.md`, "RWS") re-created. Each test quotes the rule
//! it proves.

use std::path::{Path, PathBuf};

use hookline::dialect;
use hookline::{CallResult, HookEvent, LifecycleHookEngine, Reply};
use serde_json::{json, Value};

use crate::support::{run, Ws};

/// Engines of `.windsurf/hooks.json` (recognised by its path).
trait Engines {
    fn config(&self, rel: &str, hooks: Value) -> PathBuf;
    fn engine(&self, hooks: Value) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn config(&self, rel: &str, hooks: Value) -> PathBuf {
        self.write_json(rel, &json!({ "hooks": hooks }))
    }
    fn engine(&self, hooks: Value) -> LifecycleHookEngine {
        let path = self.config(".windsurf/hooks.json", hooks);
        self.engine_with(json!({ "hooks_file": path }))
    }
}

/// A hook that reads its payload, writes `stdout` and `stderr`, and exits
/// with `code`.
fn answer(stdout: &str, stderr: &str, code: i32) -> Value {
    json!({"command": format!("cat >/dev/null; printf '%s' '{stdout}'; printf '%s' '{stderr}' >&2; exit {code}")})
}

fn named(e: &LifecycleHookEngine, name: &str, input: Value) -> Value {
    e.run_named_blocking(name, &input).unwrap().to_json()
}

fn messages(out: &Value, level: &str) -> Vec<String> {
    crate::support::texts(out, level)
}

/// Every one of Cascade's twelve events, fired as a host fires it: the
/// canonical UserPromptSubmit for `pre_user_prompt`, the others by name.
fn fire(e: &LifecycleHookEngine, event: &str) -> Value {
    match event {
        "pre_user_prompt" => run(e, HookEvent::UserPromptSubmit, json!({"prompt": "hello"})),
        name => named(e, name, json!({"tool_info": {"file_path": "/w/a.rs"}})),
    }
}

const EVENTS: [&str; 12] = [
    "pre_read_code",
    "post_read_code",
    "pre_write_code",
    "post_write_code",
    "pre_run_command",
    "post_run_command",
    "pre_mcp_tool_use",
    "post_mcp_tool_use",
    "pre_user_prompt",
    "post_cascade_response",
    "post_cascade_response_with_transcript",
    "post_setup_worktree",
];

/// "0 → proceed; **2 on `pre_*`** → action blocked, stderr delivered to the
/// agent with the suffix `: action blocked by hook` (observed), on
/// `pre_user_prompt` the user sees it in the UI; 2 on `post_*` → no
/// effect; other non-zero → non-blocking, proceeds" (RWS, live runs) — on
/// every event.
#[test]
fn the_exit_code_table_on_every_event() {
    for event in EVENTS {
        let pre = event.starts_with("pre_");
        for code in [0, 1, 2, 3] {
            let ws = Ws::new();
            let e = ws.engine(json!({ event: [answer("", "no secrets here", code)] }));
            let out = fire(&e, event);
            let what = format!("{event} exit {code}: {out}");
            let blocked = pre && code == 2;
            let reason = "no secrets here: action blocked by hook";
            match (blocked, event) {
                (true, "pre_user_prompt") => {
                    assert_eq!(out["allow_prompt"], false, "{what}");
                    assert_eq!(out["block_reason"], reason, "{what}");
                }
                (true, _) => {
                    assert_eq!(out["decision"], "deny", "{what}");
                    assert_eq!(out["reason"], reason, "{what}");
                }
                (false, _) => {
                    assert_ne!(out["decision"], "deny", "{what}");
                    assert_ne!(out["allow_prompt"], false, "{what}");
                    assert_ne!(out["decision"], "allow", "{what}: Cascade has no allow");
                }
            }
            let failed = out["hooks"][0]["failure"].clone();
            match code {
                0 | 2 => assert!(failed.is_null(), "{what}: exit {code} is an answer, not a failure"),
                _ => {
                    assert_eq!(failed, "exit", "{what}");
                    assert!(
                        messages(&out, "warning").iter().any(|m| m.contains("no secrets here")),
                        "{what}: the failure is reported with its stderr"
                    );
                }
            }
        }
    }
}

/// "**stdout is never parsed** (verified: JSON ignored)"; "hookshot's
/// `decision: allow|deny|ask` JSON output type is contradicted by the live
/// run — do not implement it" (RWS).
#[test]
fn stdout_is_never_read_not_even_a_deny() {
    let ws = Ws::new();
    let deny_json = r#"{"decision":"deny","hookSpecificOutput":{"permissionDecision":"deny"},"continue":false}"#;
    let e = ws.engine(json!({
        "pre_run_command": [answer(deny_json, "", 0)],
        "pre_user_prompt": [answer(r#"{"decision":"block","reason":"x"}"#, "", 0)]
    }));
    let out = named(&e, "pre_run_command", json!({"tool_info": {"command_line": "rm -rf /", "cwd": "/"}}));
    assert!(out["decision"].is_null() || out["decision"] == "continue", "{out}");
    assert_eq!(out["continue"], true, "{out}");
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "p"}));
    assert_eq!(out["allow_prompt"], true, "{out}");
    // Exit 2: the reason is stderr, never the stdout JSON.
    let e = ws.engine(json!({"pre_write_code": [answer(r#"{"reason":"from stdout"}"#, "from stderr", 2)]}));
    let out = named(&e, "pre_write_code", json!({"tool_info": {"file_path": "/w/a", "edits": []}}));
    assert_eq!(out["reason"], "from stderr: action blocked by hook", "{out}");
}

/// "common `agent_action_name` (= event), `trajectory_id`, `execution_id`,
/// `timestamp` (ISO 8601 with TZ offset, observed), `model_name`,
/// `tool_info`"; "Env: `ROOT_WORKSPACE_PATH` (doc)".
#[test]
fn the_payload_has_the_common_fields_and_the_tool_info_as_given() {
    let ws = Ws::with_session("traj-1");
    let cmd = "cat > payload.json; printf '%s' \"$ROOT_WORKSPACE_PATH\" > root.txt";
    let e = ws.engine(json!({"post_setup_worktree": [{"command": cmd}]}));
    let info = json!({"worktree_path": "/w/wt", "root_workspace_path": "/w"});
    named(&e, "post_setup_worktree", json!({"tool_info": info, "model_name": "SWE-1.5"}));
    let p = ws.json("payload.json");
    assert_eq!(p["agent_action_name"], "post_setup_worktree");
    assert_eq!(p["trajectory_id"], "traj-1");
    assert_eq!(p["model_name"], "SWE-1.5");
    assert_eq!(p["tool_info"], info);
    assert!(p["execution_id"].as_str().is_some_and(|s| !s.is_empty()), "{p}");
    let ts = p["timestamp"].as_str().unwrap();
    assert!(ts.contains('T') && ts.ends_with("+00:00"), "{ts}");
    assert_eq!(ws.read("root.txt"), ws.path().display().to_string());
    // pre_user_prompt: `{user_prompt}` from the canonical prompt.
    let e = ws.engine(json!({"pre_user_prompt": [{"command": "cat > prompt.json"}]}));
    run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "fix the bug"}));
    let p = ws.json("prompt.json");
    assert_eq!(p["agent_action_name"], "pre_user_prompt");
    assert_eq!(p["tool_info"], json!({"user_prompt": "fix the bug"}));
    // Fired by its Cascade name, with Cascade's own input: the same event.
    named(&e, "pre_user_prompt", json!({"tool_info": {"user_prompt": "as Cascade sends it"}}));
    let p = ws.json("prompt.json");
    assert_eq!(p["agent_action_name"], "pre_user_prompt");
    assert_eq!(p["tool_info"], json!({"user_prompt": "as Cascade sends it"}));
}

/// "POSIX runs `command` via `bash -c`" (RWS): bash syntax works.
#[test]
fn hooks_run_in_bash() {
    let ws = Ws::new();
    let e = ws.engine(json!({"post_cascade_response": [{"command": "cat >/dev/null; [[ -n $BASH_VERSION ]] && echo bash > shell.txt"}]}));
    named(&e, "post_cascade_response", json!({"tool_info": {"response": "done"}}));
    assert_eq!(ws.read("shell.txt").trim(), "bash");
}

/// "`working_directory` defaults to the workspace root" (RWS); a relative
/// one is read from the workspace root (undocumented: the natural reading).
#[test]
fn hooks_run_in_the_workspace_root_or_their_working_directory() {
    let ws = Ws::new();
    std::fs::create_dir_all(ws.file("tools")).unwrap();
    let e = ws.engine(json!({"post_read_code": [
        {"command": "cat >/dev/null; pwd > where.txt"},
        {"command": "cat >/dev/null; pwd > where.txt", "working_directory": "tools", "show_output": true}
    ]}));
    named(&e, "post_read_code", json!({"tool_info": {"file_path": "/w/a"}}));
    let real = |p: PathBuf| std::fs::canonicalize(p).unwrap();
    let at = |rel: &str| real(PathBuf::from(ws.read(rel).trim()));
    assert_eq!(at("where.txt"), real(ws.path().to_path_buf()));
    assert_eq!(at("tools/where.txt"), real(ws.file("tools")));
}

/// "POSIX with only `powershell` → **silently skipped**" (RWS): skipped,
/// and hookline says so.
#[test]
fn a_powershell_only_entry_is_skipped_and_reported_on_posix() {
    let ws = Ws::new();
    let path = ws.config(
        ".windsurf/hooks.json",
        json!({"pre_run_command": [{"powershell": "exit 2"}, {"command": "cat >/dev/null; exit 0"}]}),
    );
    let e = ws.engine_with(json!({ "hooks_file": path }));
    let warnings: Vec<String> = e.config_warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect();
    assert!(warnings.iter().any(|w| w.contains("pre_run_command[0]") && w.contains("Windows only")), "{warnings:?}");
    let out = named(&e, "pre_run_command", json!({"tool_info": {"command_line": "ls", "cwd": "/"}}));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "{out}");
}

/// "all locations merged and run in order system → user → workspace"
/// (doc zh page; RWS): the files a host reads, in that order, the JetBrains
/// `~/.codeium/hooks.json` and both workspace files included.
#[test]
fn the_files_are_read_system_then_user_then_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let (root, home, ws) = (dir.path().join("root"), dir.path().join("home"), dir.path().join("ws"));
    let touch = |p: &Path| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, r#"{"hooks": {}}"#).unwrap();
    };
    let system = root.join(dialect::WINDSURF.system_files()[0].trim_start_matches('/'));
    let files = [
        system.clone(),
        home.join(".codeium/windsurf/hooks.json"),
        home.join(".codeium/hooks.json"),
        ws.join(".devin/hooks.json"),
        ws.join(".windsurf/hooks.json"),
    ];
    files.iter().for_each(|f| touch(f));
    touch(&ws.join(".devin/hooks.v1.json"));
    let found: Vec<(PathBuf, bool)> = dialect::settings_files_under(&ws, Some(&home), &root)
        .into_iter()
        .filter(|f| f.dialect.name() == "windsurf")
        .map(|f| (f.path, f.trusted))
        .collect();
    let expected: Vec<(PathBuf, bool)> = files.iter().enumerate().map(|(i, f)| (f.clone(), i < 3)).collect();
    assert_eq!(found, expected);
    for f in &files {
        assert_eq!(dialect::for_path(f).map(|d| d.name()), Some("windsurf"), "{}", f.display());
    }
    assert_eq!(dialect::project_dir_of(&ws.join(".windsurf/hooks.json")), ws);
    assert_eq!(dialect::project_dir_of(&ws.join(".devin/hooks.json")), ws);
}

/// "merged and run in order system → user → workspace": hooks of several
/// files run one after another in that order; whether a block
/// short-circuits later hooks is not documented — hookline stops at the
/// first block (the action is blocked whatever the later hooks say).
#[test]
fn hooks_run_in_file_order_and_the_first_block_stops_the_run() {
    let ws = Ws::new();
    let log = |tag: &str, code: i32| json!({"command": format!("cat >/dev/null; echo {tag} >> order.txt; echo {tag} >&2; exit {code}")});
    let user = ws.config("home/.codeium/windsurf/hooks.json", json!({"pre_read_code": [log("user", 0)]}));
    let work = ws.config(".windsurf/hooks.json", json!({"pre_read_code": [log("ws1", 2), log("ws2", 0)]}));
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": user, "trusted": true}, {"hooks_file": work}]}));
    let out = named(&e, "pre_read_code", json!({"tool_info": {"file_path": "/etc/passwd"}}));
    assert_eq!(ws.read("order.txt"), "user\nws1\n", "{out}");
    assert_eq!(out["reason"], "ws1: action blocked by hook");
}

/// The `pre_*`/`post_*` hooks are Cascade's tool events: a host firing a
/// canonical PreToolUse/PostToolUse (Claude Code's tool names, the
/// canonical vocabulary) runs the hooks of the matching kind, with the
/// `tool_info` Cascade would send: "run_command `{command_line, cwd}`",
/// "write `{file_path, edits:[{old_string,new_string}]}`".
#[test]
fn canonical_tool_calls_run_the_hooks_of_their_kind() {
    let ws = Ws::new();
    let e = ws.engine(json!({
        "pre_run_command": [{"command": "cat > run.json; grep -q 'rm -rf' run.json && { echo 'no rm' >&2; exit 2; }; exit 0"}],
        "pre_write_code": [{"command": "cat > write.json"}],
        "post_run_command": [{"command": "cat > post.json"}]
    }));
    let bash = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf build"}, "cwd": "/w"});
    let out = run(&e, HookEvent::PreToolUse, &bash);
    assert_eq!(
        (out["decision"].as_str(), out["reason"].as_str()),
        (Some("deny"), Some("no rm: action blocked by hook"))
    );
    let p = ws.json("run.json");
    assert_eq!(p["agent_action_name"], "pre_run_command");
    assert_eq!(p["tool_info"], json!({"command_line": "rm -rf build", "cwd": "/w"}));
    assert!(!ws.exists("write.json"), "a shell call does not run pre_write_code");
    let edit =
        json!({"tool_name": "Edit", "tool_input": {"file_path": "/w/a.rs", "old_string": "a", "new_string": "b"}});
    let out = run(&e, HookEvent::PreToolUse, &edit);
    assert_ne!(out["decision"], "deny", "{out}");
    assert_eq!(
        ws.json("write.json")["tool_info"],
        json!({"file_path": "/w/a.rs", "edits": [{"old_string": "a", "new_string": "b"}]})
    );
    run(
        &e,
        HookEvent::PostToolUse,
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": "a"}),
    );
    assert_eq!(ws.json("post.json")["agent_action_name"], "post_run_command");
    // A tool of no kind Cascade has runs none of them.
    std::fs::remove_file(ws.file("run.json")).unwrap();
    run(&e, HookEvent::PreToolUse, json!({"tool_name": "Grep", "tool_input": {"pattern": "x"}}));
    assert!(!ws.exists("run.json"));
}

/// "No context injection, no input rewrite, no ask (Stroq: "Windsurf hooks
/// cannot prompt")"; Cascade has no allow: a canonical decision Cascade
/// cannot express (a callback hook's allow) is dropped and reported, never
/// silently lost.
#[test]
fn decisions_cascade_cannot_express_are_dropped_and_reported() {
    let ws = Ws::new();
    let e = ws.engine(json!({"pre_run_command": [answer("", "", 0)]}));
    e.add_callback_hook(
        HookEvent::PreToolUse,
        None,
        "host-allow",
        std::sync::Arc::new(|_: &str| CallResult::ok(Reply::Allow)),
    )
    .unwrap();
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}));
    assert_ne!(out["decision"], "allow", "{out}");
    assert_eq!(out["dialect_fields"]["windsurf"]["dropped"], json!(["allow"]), "{out}");
    assert!(messages(&out, "warning").iter().any(|m| m.contains("Cascade cannot express `allow`")), "{out}");
    // A deny is Cascade's exit 2: kept.
    let e = ws.engine(json!({"pre_run_command": [answer("", "", 0)]}));
    e.add_callback_hook(
        HookEvent::PreToolUse,
        None,
        "host-deny",
        std::sync::Arc::new(|_: &str| CallResult::ok(Reply::Deny("host says no".into()))),
    )
    .unwrap();
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}));
    assert_eq!(out["decision"], "deny", "{out}");
    assert!(out["dialect_fields"].get("windsurf").is_none(), "{out}");
}

/// A hook that times out (Cascade documents no timeout; hookline's default
/// is 60 s) is a non-blocking failure: the action proceeds, and it says so.
#[test]
fn a_hook_that_fails_never_blocks_silently_it_is_reported() {
    let ws = Ws::new();
    let e = ws.engine(json!({"pre_run_command": [{"command": "cat >/dev/null; kill -9 $$"}]}));
    let out = named(&e, "pre_run_command", json!({"tool_info": {"command_line": "ls", "cwd": "/"}}));
    assert_ne!(out["decision"], "deny", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "signal", "{out}");
    assert!(!messages(&out, "warning").is_empty(), "{out}");
}

/// Config entries Cascade does not have are reported: "No `matcher`, no
/// `timeout`, no `type`"; an event key it does not know never runs.
#[test]
fn unknown_keys_are_reported() {
    let ws = Ws::new();
    let path = ws.config(
        ".devin/hooks.json",
        json!({"PreToolUse": [{"command": "x"}], "pre_run_command": [{"command": "y", "matcher": "Bash"}]}),
    );
    let cfg = hookline::config::HooksConfig::read_file(&path, None, false, None).unwrap();
    assert_eq!(cfg.dialect_id().name(), "windsurf");
    let w = crate::support::warnings(&cfg);
    assert!(w.iter().any(|w| w.contains("PreToolUse") && w.contains("never run")), "{w:?}");
    assert!(w.iter().any(|w| w.contains("matcher") && w.contains("no matchers")), "{w:?}");
}

/// The blocking answer of `hookline run --format windsurf` when it cannot
/// run the hooks: exit 2 with the reason on stderr where Cascade lets exit
/// 2 block (`pre_*`), none on `post_*`.
#[test]
fn the_blocking_answer_is_exit_2_on_pre_events_only() {
    use hookline::RunEvent;
    let d = dialect::WINDSURF;
    for event in EVENTS {
        let e = match event {
            "pre_user_prompt" => RunEvent::Known(HookEvent::UserPromptSubmit),
            n => RunEvent::Named(n.into()),
        };
        let answer = d.blocking_answer(&e, "why");
        assert_eq!(answer.is_some(), event.starts_with("pre_"), "{event}");
        if let Some(a) = answer {
            assert_eq!((a.exit_code, a.stderr.as_deref(), a.stdout.as_deref()), (2, Some("why"), None), "{event}");
        }
    }
}
