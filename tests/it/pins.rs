//! Script pins (docs/trust.md, "What the approval pins"): an approval binds
//! the bytes of the scripts a gated command executes; each is re-verified
//! right before every spawn. Real files, real hooks, real processes.
//!
//! Every engine gets a trust store inside its own temporary directory.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hookline::engine::HookSourceOption;
use hookline::{EngineOptions, HookEvent, HooksSource, LifecycleHookEngine};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tempfile::TempDir;

const EXAMPLE_DIGEST: &str = "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89";

/// The approved script: it leaves `ran-approved` behind.
const APPROVED: &str = "#!/bin/sh\necho approved >> ran-approved\n";
/// The same length, other bytes: it leaves `ran-evil` behind.
const EVIL: &str = "#!/bin/sh\necho evilxxx >> ran-evil.....\n";

struct Ws {
    _dir: TempDir,
    root: PathBuf,
    ws: PathBuf,
}

impl Ws {
    fn new() -> Ws {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let ws = root.join("ws");
        std::fs::create_dir_all(ws.join(".claude/hooks")).unwrap();
        Ws { _dir: dir, root, ws }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.ws.join(rel)
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    fn store(&self) -> PathBuf {
        self.root.join("state/trust.json")
    }

    fn options(&self, hooks: Value) -> EngineOptions {
        let mut o = EngineOptions::new(&self.ws, "s-pins");
        o.workspace_gated = true;
        o.hooks = HooksSource::Json(hooks);
        o.trust_store = Some(self.store());
        o
    }

    fn engine(&self, hooks: Value) -> LifecycleHookEngine {
        LifecycleHookEngine::with_options(&self.options(hooks)).unwrap()
    }

    fn ran(&self, name: &str) -> usize {
        std::fs::read_to_string(self.path(name)).map(|s| s.lines().count()).unwrap_or(0)
    }
}

fn notification(command: &str) -> Value {
    json!({"Notification": [{"hooks": [{"type": "command", "command": command}]}]})
}

fn notify(e: &LifecycleHookEngine) -> Value {
    e.run_blocking(HookEvent::Notification, &json!({"notification_type": "idle_prompt", "title": "t", "message": "m"}))
        .unwrap()
        .to_json()
}

fn sha_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn skipped(outcome: &Value) -> Vec<String> {
    outcome["hooks"].as_array().unwrap().iter().map(|h| h["skipped"].as_str().unwrap_or("ran").to_owned()).collect()
}

fn error_texts(outcome: &Value) -> String {
    outcome["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["level"] == "error")
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Approve → modify → skipped (naming the file) and re-prompt → restore the
/// approved bytes → runs again without a new approval.
#[test]
fn a_script_changed_after_approval_is_skipped_until_its_approved_bytes_are_back() {
    let w = Ws::new();
    let script = w.write(".claude/hooks/guard.sh", APPROVED);
    let e = w.engine(notification("sh .claude/hooks/guard.sh"));
    assert!(e.workspace_hooks_need_approval());
    e.approve_workspace_hooks(false).unwrap();
    assert!(!e.workspace_hooks_need_approval());
    assert_eq!(skipped(&notify(&e)), ["ran"]);
    assert_eq!(w.ran("ran-approved"), 1);

    std::fs::write(&script, EVIL).unwrap();
    assert!(e.workspace_hooks_need_approval(), "a changed pin re-prompts");
    let out = notify(&e);
    assert_eq!(skipped(&out), ["changed_since_approval"]);
    let h = &out["hooks"][0];
    assert_eq!((h["exit_code"].clone(), h["duration_ms"].clone()), (Value::Null, json!(0.0)));
    let errors = error_texts(&out);
    assert!(errors.contains(script.to_str().unwrap()) && errors.contains("changed since"), "{errors}");
    assert_eq!(w.ran("ran-evil....."), 0, "the changed script never ran");

    std::fs::write(&script, APPROVED).unwrap();
    assert!(!e.workspace_hooks_need_approval(), "the approved bytes are approved again");
    assert_eq!(skipped(&notify(&e)), ["ran"]);
    assert_eq!(w.ran("ran-approved"), 2);
}

#[test]
fn approving_again_approves_the_new_bytes() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    let e = w.engine(notification("sh ./guard.sh"));
    e.approve_workspace_hooks(false).unwrap();
    std::fs::write(&script, EVIL).unwrap();
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval"]);
    let pins = &e.command_previews()[0].pins;
    assert_eq!(pins[0].sha256, sha_hex(EVIL.as_bytes()), "previews show the bytes an approval would bind");
    e.approve_workspace_hooks(false).unwrap();
    assert_eq!(skipped(&notify(&e)), ["ran"]);
    assert_eq!(w.ran("ran-evil....."), 1);
}

#[test]
fn a_symlink_swapped_in_for_an_approved_script_is_not_run() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    // The swapped-in target holds the approved bytes: only the path differs.
    let elsewhere = w.root.join("elsewhere.sh");
    std::fs::write(&elsewhere, APPROVED).unwrap();
    let e = w.engine(notification("sh guard.sh"));
    e.approve_workspace_hooks(false).unwrap();
    std::fs::remove_file(&script).unwrap();
    symlink(&elsewhere, &script).unwrap();
    let out = notify(&e);
    assert_eq!(skipped(&out), ["changed_since_approval"]);
    let errors = error_texts(&out);
    assert!(errors.contains("now resolves to") && errors.contains(elsewhere.to_str().unwrap()), "{errors}");
    assert_eq!(w.ran("ran-approved"), 0);
}

#[test]
fn a_symlinked_script_is_pinned_by_its_target_and_retargeting_it_is_a_change() {
    let w = Ws::new();
    let a = w.write("real-a.sh", APPROVED);
    let b = w.write("real-b.sh", APPROVED);
    symlink(&a, w.path("guard.sh")).unwrap();
    let e = w.engine(notification("./guard.sh"));
    let pins = &e.command_previews()[0].pins;
    assert_eq!(pins.len(), 1);
    assert_eq!(pins[0].path, a, "the pin's path is canonical");
    e.approve_workspace_hooks(false).unwrap();
    std::fs::remove_file(w.path("guard.sh")).unwrap();
    symlink(&b, w.path("guard.sh")).unwrap();
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval"]);
}

#[test]
fn a_deleted_script_skips_the_hook_naming_the_file() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    let e = w.engine(notification("sh guard.sh"));
    e.approve_workspace_hooks(false).unwrap();
    std::fs::remove_file(&script).unwrap();
    assert!(e.workspace_hooks_need_approval());
    let out = notify(&e);
    assert_eq!(skipped(&out), ["changed_since_approval"]);
    let errors = error_texts(&out);
    assert!(errors.contains(script.to_str().unwrap()) && errors.contains("gone"), "{errors}");
}

#[test]
fn a_renamed_script_is_gone_and_another_file_renamed_over_it_is_a_change() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    let e = w.engine(notification("sh guard.sh"));
    e.approve_workspace_hooks(false).unwrap();
    std::fs::rename(&script, w.path("guard.sh.bak")).unwrap();
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval"]);
    w.write("other.sh", EVIL);
    std::fs::rename(w.path("other.sh"), &script).unwrap();
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval"]);
    // Renaming the approved file back: another inode, the approved bytes.
    std::fs::rename(w.path("guard.sh.bak"), &script).unwrap();
    assert_eq!(skipped(&notify(&e)), ["ran"]);
    assert_eq!((w.ran("ran-approved"), w.ran("ran-evil.....")), (1, 0));
}

/// Timestamps are coarse: two writes of the same size within one tick, the
/// mtime put back, leave every stat field but ctime (and maybe that too) as
/// it was. No change made before the re-check may go unseen, however fast.
#[test]
fn no_change_made_before_the_recheck_goes_unseen_even_same_size_rewrites_with_mtime_put_back() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    let mtime = std::fs::metadata(&script).unwrap().modified().unwrap();
    let e = w.engine(notification("sh guard.sh"));
    e.approve_workspace_hooks(false).unwrap();
    for round in 0..25 {
        std::fs::write(&script, EVIL).unwrap();
        std::fs::File::options().write(true).open(&script).unwrap().set_modified(mtime).unwrap();
        assert_eq!(skipped(&notify(&e)), ["changed_since_approval"], "round {round}");
        std::fs::write(&script, APPROVED).unwrap();
        std::fs::File::options().write(true).open(&script).unwrap().set_modified(mtime).unwrap();
        assert_eq!(skipped(&notify(&e)), ["ran"], "round {round}");
    }
    assert_eq!((w.ran("ran-approved"), w.ran("ran-evil.....")), (25, 0));
}

/// The documented window: the file is re-verified right before the spawn;
/// what the shell opens later is what is there then. Here the command
/// itself waits after it started (past the re-check) until a second process
/// has rewritten the script: the rewritten bytes run. The next spawn sees
/// the change. Together with the test above (every change made before the
/// re-check is caught), this is the only window.
#[test]
fn a_change_after_the_recheck_runs_the_changed_bytes_the_documented_window() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    std::fs::write(w.root.join("evil.src"), EVIL).unwrap();
    let cmd = "touch started; while [ ! -e go ]; do sleep 0.01; done; sh guard.sh";
    let e = w.engine(notification(cmd));
    e.approve_workspace_hooks(false).unwrap();
    let runner = {
        let e = e.clone();
        std::thread::spawn(move || notify(&e))
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while !w.path("started").exists() {
        assert!(Instant::now() < deadline, "the hook did not start");
        std::thread::sleep(Duration::from_millis(5));
    }
    // A second process changes the script after the re-check and lets the
    // hook go on.
    let status = std::process::Command::new("/bin/sh")
        .arg("-c")
        .arg("cat ../evil.src > guard.sh && touch go")
        .current_dir(&w.ws)
        .status()
        .unwrap();
    assert!(status.success());
    let out = runner.join().unwrap();
    assert_eq!(skipped(&out), ["ran"]);
    assert_eq!(std::fs::read_to_string(&script).unwrap(), EVIL);
    assert_eq!((w.ran("ran-approved"), w.ran("ran-evil.....")), (0, 1), "the changed bytes ran: the window");
    std::fs::remove_file(w.path("go")).unwrap();
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval"], "the next spawn sees the change");
}

#[test]
fn a_script_that_appears_after_the_approval_needs_a_new_one() {
    let w = Ws::new();
    let e = w.engine(notification("./hooks/not-yet.sh"));
    assert!(e.command_previews()[0].pins.is_empty(), "a missing file is not a pin");
    e.approve_workspace_hooks(false).unwrap();
    let out = notify(&e);
    assert_eq!(skipped(&out), ["ran"], "runs (and fails: no such file)");
    let p = w.write("hooks/not-yet.sh", APPROVED);
    std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = notify(&e);
    assert_eq!(skipped(&out), ["changed_since_approval"]);
    assert!(error_texts(&out).contains("did not exist when the workspace hooks were approved"));
    assert_eq!(w.ran("ran-approved"), 0);
}

#[test]
fn previews_pin_each_script_a_command_names_by_canonical_path_and_sha256() {
    let w = Ws::new();
    let x = w.write(".claude/hooks/x.py", "print('x')\n");
    let h = w.write("h.sh", "exit 0\n");
    let g = w.write("guard.sh", APPROVED);
    let hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3 .claude/hooks/x.py"},
        {"type": "command", "command": "bash \"$CLAUDE_PROJECT_DIR\"/h.sh"},
        {"type": "command", "command": "./guard.sh && sh ./guard.sh"},
        {"type": "command", "command": "echo no files here"},
    ]}]});
    let e = w.engine(hooks);
    let previews = e.command_previews();
    let pins: Vec<Vec<(PathBuf, String)>> =
        previews.iter().map(|p| p.pins.iter().map(|p| (p.path.clone(), p.sha256.clone())).collect()).collect();
    assert_eq!(
        pins,
        vec![
            vec![(x, sha_hex(b"print('x')\n"))],
            vec![(h, sha_hex(b"exit 0\n"))],
            vec![(g, sha_hex(APPROVED.as_bytes()))],
            vec![],
        ]
    );
    let text = serde_json::to_value(&previews).unwrap();
    assert_eq!(text[0]["pins"][0].as_object().unwrap().keys().collect::<Vec<_>>(), ["path", "sha256"]);
    let keys: Vec<&String> = text[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["type", "event", "matcher", "command", "timeout_seconds", "pins", "env"]);
}

/// The worked example keeps its digest when `./check.sh` exists (and is
/// pinned): pins are recorded beside the digest, never in it.
#[test]
fn the_digest_of_a_command_only_config_is_unchanged_by_pins() {
    let w = Ws::new();
    w.write("check.sh", APPROVED);
    let vt = json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout_seconds": 10}]}]}});
    let claude = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 10}]}]});
    for hooks in [vt, claude] {
        let e = w.engine(hooks);
        assert_eq!(e.command_digest(), EXAMPLE_DIGEST);
        assert_eq!(e.command_previews()[0].pins.len(), 1);
    }
}

#[test]
fn a_persisted_approval_records_the_pins_and_a_new_engine_checks_them() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    let hooks = notification("sh guard.sh");
    w.engine(hooks.clone()).approve_workspace_hooks(true).unwrap();
    let store: Value = serde_json::from_str(&std::fs::read_to_string(w.store()).unwrap()).unwrap();
    assert_eq!(store["version"], 2);
    let rec = &store["workspaces"][w.ws.to_str().unwrap()];
    assert_eq!(rec["pins"][0]["path"], script.to_str().unwrap());
    assert_eq!(rec["pins"][0]["sha256"], sha_hex(APPROVED.as_bytes()));
    assert_eq!(rec["pins_digest"], rec["digest"]);

    let e = w.engine(hooks.clone());
    assert!(!e.workspace_hooks_need_approval(), "same digest and files: approved from the store");
    assert_eq!(skipped(&notify(&e)), ["ran"]);
    std::fs::write(&script, EVIL).unwrap();
    let e = w.engine(hooks.clone());
    assert!(e.workspace_hooks_need_approval());
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval"]);
    let changes = e.pin_changes();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].approved.as_ref().unwrap().sha256, sha_hex(APPROVED.as_bytes()));
    assert_eq!(changes[0].now.as_ref().unwrap().sha256, sha_hex(EVIL.as_bytes()));
}

/// The approval, not the files present at load time, decides what is
/// checked: a pinned script deleted while no engine ran, then put back with
/// other bytes, is caught by the next engine.
#[test]
fn a_pinned_script_deleted_before_a_restart_and_put_back_changed_is_caught() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    let hooks = notification("sh guard.sh");
    w.engine(hooks.clone()).approve_workspace_hooks(true).unwrap();
    std::fs::remove_file(&script).unwrap();
    let e = w.engine(hooks.clone());
    assert!(e.workspace_hooks_need_approval(), "the approved script is gone");
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval"]);
    std::fs::write(&script, EVIL).unwrap();
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval"]);
    std::fs::write(&script, APPROVED).unwrap();
    assert_eq!(skipped(&notify(&e)), ["ran"]);
    assert_eq!((w.ran("ran-approved"), w.ran("ran-evil.....")), (1, 0));
}

/// A file the hook itself writes, named as an argument, is not a script to
/// approve: it did not exist when the hooks were approved.
#[test]
fn a_file_the_hook_writes_as_an_argument_does_not_need_approval_in_that_engine() {
    let w = Ws::new();
    let e = w.engine(notification("touch out/ran.txt"));
    std::fs::create_dir_all(w.path("out")).unwrap();
    e.approve_workspace_hooks(false).unwrap();
    for _ in 0..3 {
        assert_eq!(skipped(&notify(&e)), ["ran"]);
    }
    assert!(w.path("out/ran.txt").exists());
}

/// A record written before pins existed (version 1) still approves its
/// digest for commands that execute no file, and approves no pinned one.
#[test]
fn an_approval_stored_without_pins_approves_no_command_that_has_pins() {
    let w = Ws::new();
    w.write("guard.sh", APPROVED);
    let pinned = notification("sh guard.sh");
    let plain = notification("echo hello > out.txt");
    for (hooks, approved) in [(pinned, false), (plain, true)] {
        let digest = w.engine(hooks.clone()).command_digest();
        std::fs::create_dir_all(w.store().parent().unwrap()).unwrap();
        let v1 = json!({"version": 1, "workspaces": {w.ws.to_str().unwrap(): {"digest": digest, "approved_at": "2026-01-01T00:00:00Z"}}});
        std::fs::write(w.store(), serde_json::to_string_pretty(&v1).unwrap()).unwrap();
        let e = w.engine(hooks.clone());
        assert_eq!(!e.workspace_hooks_need_approval(), approved, "{hooks}");
        let out = notify(&e);
        assert_eq!(skipped(&out), [if approved { "ran" } else { "not_approved" }], "{hooks}");
        // Approving again writes a record with pins.
        e.approve_workspace_hooks(true).unwrap();
        assert!(!w.engine(hooks).workspace_hooks_need_approval());
    }
}

/// A version-1 library rewriting a record keeps the keys it does not know:
/// pins recorded for another digest approve nothing.
#[test]
fn pins_recorded_for_another_digest_are_not_used() {
    let w = Ws::new();
    w.write("guard.sh", APPROVED);
    let hooks = notification("sh guard.sh");
    let e = w.engine(hooks.clone());
    e.approve_workspace_hooks(true).unwrap();
    let mut store: Value = serde_json::from_str(&std::fs::read_to_string(w.store()).unwrap()).unwrap();
    store["workspaces"][w.ws.to_str().unwrap()]["pins_digest"] = json!("0".repeat(64));
    std::fs::write(w.store(), store.to_string()).unwrap();
    let e = w.engine(hooks);
    assert!(e.workspace_hooks_need_approval());
    assert_eq!(skipped(&notify(&e)), ["not_approved"]);
}

#[test]
fn plugin_root_scripts_are_pinned_through_the_source_plugin_root() {
    let w = Ws::new();
    let plugin = w.root.join("plugin");
    std::fs::create_dir_all(&plugin).unwrap();
    let a = plugin.join("a.sh");
    std::fs::write(&a, APPROVED).unwrap();
    let mut o = w.options(json!({}));
    o.hooks = HooksSource::Sources(vec![HookSourceOption {
        hooks: HooksSource::Json(notification("sh ${CLAUDE_PLUGIN_ROOT}/a.sh")),
        dialect: None,
        trusted: false,
        plugin_root: Some(plugin.to_str().unwrap().to_owned()),
        policy: false,
    }]);
    let e = LifecycleHookEngine::with_options(&o).unwrap();
    let pins = &e.command_previews()[0].pins;
    assert_eq!((pins[0].path.clone(), pins[0].sha256.clone()), (a.clone(), sha_hex(APPROVED.as_bytes())));
    e.approve_workspace_hooks(false).unwrap();
    assert_eq!(skipped(&notify(&e)), ["ran"]);
    std::fs::write(&a, EVIL).unwrap();
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval"]);
}

#[test]
fn trusted_sources_and_ungated_engines_pin_nothing_and_always_run() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    let mut o = w.options(notification("sh guard.sh"));
    o.workspace_gated = false;
    let ungated = LifecycleHookEngine::with_options(&o).unwrap();
    assert!(ungated.command_previews()[0].pins.is_empty());
    let mut o = w.options(json!({}));
    o.hooks = HooksSource::Sources(vec![HookSourceOption {
        hooks: HooksSource::Json(notification("sh guard.sh")),
        dialect: None,
        trusted: true,
        plugin_root: None,
        policy: false,
    }]);
    let trusted = LifecycleHookEngine::with_options(&o).unwrap();
    std::fs::write(&script, EVIL).unwrap();
    assert_eq!(skipped(&notify(&ungated)), ["ran"]);
    assert_eq!(skipped(&notify(&trusted)), ["ran"]);
}

#[test]
fn reload_with_unchanged_commands_and_files_keeps_the_approval() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    let o = w.options(notification("sh guard.sh"));
    let e = LifecycleHookEngine::with_options(&o).unwrap();
    e.approve_workspace_hooks(false).unwrap();
    e.reload(&o).unwrap();
    assert!(!e.workspace_hooks_need_approval());
    std::fs::write(&script, EVIL).unwrap();
    e.reload(&o).unwrap();
    assert!(e.workspace_hooks_need_approval(), "a reload does not approve changed files");
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval"]);
}

/// Many threads spawning the same pinned hook at once all see one answer.
#[test]
fn concurrent_runs_verify_pins_consistently() {
    let w = Ws::new();
    let script = w.write("guard.sh", APPROVED);
    let e = w.engine(notification("sh guard.sh"));
    e.approve_workspace_hooks(false).unwrap();
    let run_all = |want: &'static str| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let e = e.clone();
                std::thread::spawn(move || (0..5).map(|_| skipped(&notify(&e))[0].clone()).collect::<Vec<_>>())
            })
            .collect();
        for h in handles {
            assert!(h.join().unwrap().iter().all(|s| s == want), "every run: {want}");
        }
    };
    run_all("ran");
    std::fs::write(&script, EVIL).unwrap();
    run_all("changed_since_approval");
    assert_eq!((w.ran("ran-approved"), w.ran("ran-evil.....")), (40, 0));
}

#[test]
fn pin_changes_of_an_unapproved_engine_list_every_watched_file() {
    let w = Ws::new();
    w.write("guard.sh", APPROVED);
    let e = w.engine(notification("sh guard.sh"));
    let changes = e.pin_changes();
    assert_eq!(changes.len(), 1, "unapproved: every watched file is listed");
    assert!(!changes[0].covered && changes[0].approved.is_none() && changes[0].now.is_some());
    assert!(Path::new(&changes[0].named).ends_with("guard.sh"));
}

/// Exec form (`command` plus `args`, no shell): `command` when it names a
/// file by path and each argument that resolves to a file in the workspace
/// (placeholders substituted) are pinned and re-verified like shell words.
#[test]
fn exec_form_commands_pin_their_program_and_script_arguments() {
    let w = Ws::new();
    let script = w.write(".claude/hooks/guard.sh", APPROVED);
    let prog = w.write("run.sh", "#!/bin/sh\nexec sh \"$@\"\n");
    std::fs::set_permissions(&prog, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let hooks = json!({"Notification": [{"hooks": [
        {"type": "command", "command": "sh", "args": ["${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh"]},
        {"type": "command", "command": "./run.sh", "args": [".claude/hooks/guard.sh"]},
    ]}]});
    let e = w.engine(hooks);
    let pins: Vec<Vec<PathBuf>> =
        e.command_previews().iter().map(|p| p.pins.iter().map(|p| p.path.clone()).collect()).collect();
    assert_eq!(pins, vec![vec![script.clone()], vec![prog.clone(), script.clone()]]);
    e.approve_workspace_hooks(false).unwrap();
    assert_eq!(skipped(&notify(&e)), ["ran", "ran"]);
    assert_eq!(w.ran("ran-approved"), 2);
    std::fs::write(&script, EVIL).unwrap();
    assert!(e.workspace_hooks_need_approval());
    assert_eq!(skipped(&notify(&e)), ["changed_since_approval", "changed_since_approval"]);
    assert_eq!(w.ran("ran-evil....."), 0);
}

/// Every handler type is in the gate: an http, mcp_tool, prompt or agent
/// hook of an untrusted source gets a preview with its type and the fields
/// that identify it (no pins: it runs no program), and changing any of
/// them, `allowedEnvVars` included, changes the digest.
#[test]
fn previews_and_digest_cover_the_identifying_fields_of_every_handler_type() {
    let w = Ws::new();
    let hooks = |allowed: Value| {
        json!({"Stop": [{"hooks": [
            {"type": "http", "url": "http://127.0.0.1:9/h", "headers": {"Authorization": "Bearer $T"}, "allowedEnvVars": allowed},
            {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"a": 1}},
            {"type": "prompt", "prompt": "Is it done?", "model": "m"},
            {"type": "agent", "prompt": "Check the tests"},
        ]}]})
    };
    let e = w.engine(hooks(json!(["T"])));
    let previews = serde_json::to_value(e.command_previews()).unwrap();
    let env = json!({"inherit": true, "scrub": [], "set": []});
    assert_eq!(
        previews,
        json!([
            {"type": "http", "event": "stop", "matcher": null, "url": "http://127.0.0.1:9/h",
             "headers": ["Authorization"], "allowedEnvVars": ["T"], "timeout_seconds": null, "pins": [], "env": env},
            {"type": "mcp_tool", "event": "stop", "matcher": null, "server": "s", "tool": "t", "input": {"a": 1},
             "timeout_seconds": null, "pins": [], "env": env},
            {"type": "prompt", "event": "stop", "matcher": null, "prompt": "Is it done?", "model": "m",
             "timeout_seconds": null, "pins": [], "env": env},
            {"type": "agent", "event": "stop", "matcher": null, "prompt": "Check the tests", "model": null,
             "timeout_seconds": null, "pins": [], "env": env},
        ])
    );
    let digest = e.command_digest();
    assert_ne!(digest, w.engine(hooks(json!(["T", "GITHUB_TOKEN"]))).command_digest());
    assert_ne!(digest, w.engine(hooks(json!([]))).command_digest());
    assert_eq!(digest, w.engine(hooks(json!(["T"]))).command_digest());
}

/// A SessionStart hook running `command`, in the config shape of `dialect`
/// (a UserPromptSubmit hook where the agent has no SessionStart).
fn session_start_config(dialect: &str, command: &str) -> Value {
    let protocol = json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": command}]}]}});
    match dialect {
        "vtcode" => json!({"lifecycle": {"session_start": [{"hooks": [{"command": command}]}]}}),
        "gemini" | "claude" | "codex" | "qwen" | "devin-cli" | "goose" | "augment" => protocol,
        "factory" => json!({"SessionStart": [{"hooks": [{"type": "command", "command": command}]}]}),
        "openhands" => json!({"hooks": {"session_start": [{"hooks": [{"type": "command", "command": command}]}]}}),
        "cursor" => json!({"version": 1, "hooks": {"sessionStart": [{"command": command}]}}),
        "copilot" => json!({"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": command}]}}),
        "vscode" => json!({"hooks": {"SessionStart": [{"type": "command", "command": command}]}}),
        // Cascade has no session event: its prompt gate, UserPromptSubmit.
        "windsurf" => json!({"hooks": {"pre_user_prompt": [{"command": command}]}}),
        "kiro" => json!({"version": "v1", "hooks": [
            {"name": "h", "trigger": "SessionStart", "action": {"type": "command", "command": command}}
        ]}),
        // Crush fires PreToolUse only.
        "crush" => json!({"hooks": {"PreToolUse": [{"command": command}]}}),
        other => panic!("no config shape for dialect {other}: add one to this table"),
    }
}

/// Every dialect × every variable its hooks get that names a directory
/// (its placeholders, and `HOOKLINE_PROJECT_DIR`) × every way a shell
/// command spells it (`$V`, `${V}`, `"$V"`, `"${V}…"`): the script the
/// command runs is pinned, the approval runs it, and the same script
/// replaced afterwards is skipped `changed_since_approval` — never run.
/// The table comes from the dialects themselves, so a dialect added later
/// is covered (and must give this test its config shape).
#[test]
fn every_dialects_directory_variables_pin_the_script_in_every_spelling() {
    use hookline::dialect::PlaceholderValue;
    let mut cases = 0;
    for d in hookline::dialect::ALL.iter().copied() {
        if d.reads_hooks_folders() {
            // Cline: a hook is a file of the folder, named by its absolute
            // path; no command text names a variable (`tests/it/cline.rs`
            // pins the files themselves).
            continue;
        }
        let mut vars: Vec<(&str, PlaceholderValue)> = vec![("HOOKLINE_PROJECT_DIR", PlaceholderValue::ProjectDir)];
        vars.extend(d.placeholders().iter().map(|p| (p.name, p.value)));
        for (var, value) in vars {
            for form in ["$V/hooks/guard.sh", "${V}/hooks/guard.sh", "\"$V\"/hooks/guard.sh", "\"${V}/hooks/guard.sh\""]
            {
                let command = form.replace('V', var);
                let w = Ws::new();
                let plugin = w.root.join("plugin");
                let base = match value {
                    PlaceholderValue::ProjectDir => w.ws.clone(),
                    PlaceholderValue::PluginRoot => plugin.clone(),
                };
                let script = base.join("hooks/guard.sh");
                std::fs::create_dir_all(script.parent().unwrap()).unwrap();
                std::fs::write(&script, APPROVED).unwrap();
                std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
                let mut o = w.options(json!({}));
                o.hooks = HooksSource::Sources(vec![HookSourceOption {
                    dialect: Some(d),
                    plugin_root: (value == PlaceholderValue::PluginRoot).then(|| plugin.display().to_string()),
                    ..HookSourceOption::new(HooksSource::Json(session_start_config(d.name(), &command)))
                }]);
                let e = LifecycleHookEngine::with_options(&o).unwrap();
                let what = format!("{} `{command}`", d.name());
                let previews = e.command_previews();
                assert_eq!(previews.len(), 1, "{what}");
                let pins: Vec<&Path> = previews[0].pins.iter().map(|p| p.path.as_path()).collect();
                assert_eq!(pins, [script.as_path()], "{what}: the script is pinned");
                assert!(previews[0].unpinned.is_empty(), "{what}: {:?}", previews[0].unpinned);
                e.approve_workspace_hooks(false).unwrap();
                let (event, input) = match d.name() {
                    "windsurf" => (HookEvent::UserPromptSubmit, json!({"prompt": "p"})),
                    "crush" => (HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "ls"}})),
                    _ => (HookEvent::SessionStart, json!({"prompt": "p"})),
                };
                let run = || e.run_blocking(event, &input).unwrap().to_json();
                assert_eq!(skipped(&run()), ["ran"], "{what}");
                assert_eq!(w.ran("ran-approved"), 1, "{what}: the approved script ran");
                std::fs::write(&script, EVIL).unwrap();
                assert!(e.workspace_hooks_need_approval(), "{what}");
                assert_eq!(skipped(&run()), ["changed_since_approval"], "{what}");
                assert_eq!(w.ran("ran-evil....."), 0, "{what}: the replaced script never ran");
                cases += 1;
            }
        }
    }
    assert!(cases >= 7 * 4 * 2, "{cases} cases");
}

/// Gemini CLI's own documented form, `$GEMINI_PROJECT_DIR/.gemini/hooks/…`
/// ("Use `$GEMINI_PROJECT_DIR` … to reference scripts", Gemini CLI hooks
/// docs), and Cursor's `"$CURSOR_PROJECT_DIR"/.cursor/hooks/…` (Cursor
/// docs, Environment Variables: `CURSOR_PROJECT_DIR`, "workspace root"),
/// from their files as a host finds them: replaced after the approval, the
/// script is not run and `trust diff`'s changes name it.
#[test]
fn gemini_and_cursor_documented_script_paths_are_pinned_from_their_files() {
    for (file, config, script) in [
        (
            ".gemini/settings.json",
            json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command",
                "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh"}]}]}}),
            ".gemini/hooks/guard.sh",
        ),
        (
            ".cursor/hooks.json",
            json!({"version": 1, "hooks": {"sessionStart": [{"command": "\"$CURSOR_PROJECT_DIR\"/.cursor/hooks/guard.sh"}]}}),
            ".cursor/hooks/guard.sh",
        ),
    ] {
        let w = Ws::new();
        let path = w.write(file, &config.to_string());
        let script = w.write(script, APPROVED);
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let mut o = w.options(json!({}));
        o.hooks = HooksSource::File(path);
        let e = LifecycleHookEngine::with_options(&o).unwrap();
        e.approve_workspace_hooks(true).unwrap();
        let run = || e.run_blocking(HookEvent::SessionStart, &json!({})).unwrap().to_json();
        assert_eq!(skipped(&run()), ["ran"], "{file}");
        std::fs::write(&script, EVIL).unwrap();
        assert_eq!(skipped(&run()), ["changed_since_approval"], "{file}");
        assert_eq!(w.ran("ran-evil....."), 0, "{file}");
        let changes = e.pin_changes();
        assert_eq!(changes.len(), 1, "{file}");
        assert_eq!(changes[0].named, script, "{file}");
    }
}

/// A command whose script path the gate cannot resolve is listed as
/// `unpinned` in its preview, never left out in silence.
#[test]
fn a_script_path_that_cannot_be_resolved_is_shown_unpinned() {
    let w = Ws::new();
    let e = w.engine(notification("$SCRIPTS_DIR/guard.sh && python3 \"$(git rev-parse --show-toplevel)\"/x.py"));
    let p = &e.command_previews()[0];
    assert_eq!(p.unpinned, ["$SCRIPTS_DIR/guard.sh", "\"$(git rev-parse --show-toplevel)\"/x.py"]);
    let json = serde_json::to_value(e.command_previews()).unwrap();
    assert_eq!(json[0]["unpinned"][0], "$SCRIPTS_DIR/guard.sh");
    let plain = w.engine(notification("./guard.sh"));
    let json = serde_json::to_value(plain.command_previews()).unwrap();
    assert!(json[0].get("unpinned").is_none(), "only when there is one: {json}");
}
