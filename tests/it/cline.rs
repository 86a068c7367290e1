//! The Cline dialect with real hooks: hooks folders (`.clinerules/hooks`,
//! `~/Documents/Cline/Hooks`) holding executable files named after their
//! event, written the way Cline's own test fixtures write them
//! (apps/vscode/src/core/hooks/__tests__: Node scripts that read stdin and
//! print `{cancel, contextModification, errorMessage}`). Each test quotes
//! the rule it proves (hook-factory.ts, hook-file-config.ts and the tests
//! of the cline/cline repository).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hookline::{HookEvent, LifecycleHookEngine};
use serde_json::{json, Value};

use crate::support::{run, texts, write_executable, Ws};

/// Write a hook file `name` into `dir` with `mode`.
fn hook_file(dir: &Path, name: &str, text: &str, mode: u32) -> PathBuf {
    let path = dir.join(name);
    write_executable(&path, text, mode);
    path
}

/// The workspace's `.clinerules/hooks`.
fn rules_dir(ws: &Ws) -> PathBuf {
    ws.file(".clinerules/hooks")
}

/// An executable Node hook in the workspace's `.clinerules/hooks`, as
/// Cline's tests write them (`#!/usr/bin/env node`).
fn node_hook(ws: &Ws, name: &str, body: &str) -> PathBuf {
    hook_file(&rules_dir(ws), name, &format!("#!/usr/bin/env node\n{body}\n"), 0o755)
}

/// An executable shell hook in the workspace's `.clinerules/hooks`.
fn sh_hook(ws: &Ws, name: &str, body: &str) -> PathBuf {
    hook_file(&rules_dir(ws), name, &format!("#!/bin/sh\n{body}\n"), 0o755)
}

/// An engine reading the workspace's `.clinerules/hooks` (recognised by
/// its path).
fn engine(ws: &Ws) -> LifecycleHookEngine {
    ws.engine_with(json!({"hooks_file": rules_dir(ws)}))
}

fn bash(command: &str) -> Value {
    json!({"tool_name": "Bash", "tool_input": {"command": command}, "tool_call_id": "tc-1"})
}

fn named(e: &LifecycleHookEngine, name: &str, input: Value) -> Value {
    e.run_named_blocking(name, &input).unwrap().to_json()
}

// ---------------------------------------------------------- the folder

/// "a hook is an executable file named after the event"; "Unix: file
/// `<HookName>` with no extension, must be a regular file **and `X_OK`**";
/// "`.ps1` hook files are intentionally ignored on Unix platforms"; the
/// CLI's extensions `"" .sh .bash .zsh .js .mjs .cjs .ts .mts .cts .py
/// .ps1`. A folder with a mix: executable hooks run, a non-executable one
/// and a `.ps1` are skipped and reported, a README is ignored.
#[test]
fn a_folder_with_executable_non_executable_and_ps1_files() {
    let ws = Ws::new();
    let dir = rules_dir(&ws);
    hook_file(&dir, "PreToolUse", "#!/bin/sh\necho '{\"contextModification\": \"pre ran\"}'\n", 0o755);
    hook_file(&dir, "PostToolUse", "#!/bin/sh\necho '{\"cancel\": true}'\n", 0o644);
    hook_file(&dir, "UserPromptSubmit.ps1", "Write-Output '{\"cancel\":true}'\n", 0o755);
    // No shebang, `.sh`: the CLI runs it with bash.
    hook_file(&dir, "TaskStart.sh", "cat >/dev/null\necho '{\"contextModification\": \"start ran\"}'\n", 0o755);
    hook_file(&dir, "PreToolUse.rb", "puts 1\n", 0o755);
    hook_file(&dir, "README.md", "# hooks\n", 0o644);
    hook_file(&dir, "PreToolUze", "#!/bin/sh\n", 0o755);
    std::fs::create_dir_all(dir.join("PreCompact")).unwrap();
    let e = engine(&ws);
    let warnings: Vec<String> = e.config_warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect();
    let has = |file: &str, text: &str| {
        assert!(warnings.iter().any(|w| w.contains(file) && w.contains(text)), "{file} / {text}: {warnings:#?}");
    };
    has("PostToolUse", "is not executable");
    has("PostToolUse", "chmod +x");
    has("UserPromptSubmit.ps1", "only on Windows");
    has("PreToolUse.rb", "`.rb` is not one");
    has("PreToolUze", "did you mean `PreToolUse`?");
    has("PreCompact", "is not a file");
    assert!(!warnings.iter().any(|w| w.contains("README")), "{warnings:#?}");
    assert_eq!(warnings.len(), 5, "{warnings:#?}");

    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["additional_context"], json!(["pre ran"]));
    // The non-executable PostToolUse that would cancel never runs.
    let out = run(
        &e,
        HookEvent::PostToolUse,
        json!({"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": "ok"}),
    );
    assert_eq!(out["continue"], true, "{out}");
    assert!(out["hooks"].as_array().unwrap().is_empty(), "{out}");
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"turn_id": "t", "prompt": "hi"}));
    assert!(out["hooks"].as_array().unwrap().is_empty(), "{out}");
    let out = named(&e, "TaskStart", json!({"task_metadata": {"taskId": "t"}}));
    assert_eq!(out["additional_context"], json!(["start ran"]), "{out}");
}

/// toggleHook.ts: "Per-hook disable = `chmod 0644` vs `0755`": turning the
/// bit on turns the hook on.
#[test]
fn the_executable_bit_turns_a_hook_on() {
    let ws = Ws::new();
    let path = hook_file(&rules_dir(&ws), "PreToolUse", "#!/bin/sh\necho '{\"cancel\": true}'\n", 0o644);
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "continue", "{out}");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "deny", "{out}");
}

/// hook-file-config.ts: "file name = event name, case-insensitive"
/// (`basename(fileName, extension).trim().toLowerCase()`).
#[test]
fn hook_names_are_matched_without_regard_to_case() {
    let ws = Ws::new();
    hook_file(&rules_dir(&ws), "pretooluse.sh", "echo '{\"cancel\": true, \"errorMessage\": \"lower\"}'\n", 0o755);
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "lower");
}

/// A folder given in the `cline` dialect need not be at one of Cline's
/// places; a folder in another dialect is an error naming what is wrong.
#[test]
fn a_folder_elsewhere_is_read_when_the_dialect_is_named() {
    let ws = Ws::new();
    let dir = ws.file("team-hooks");
    hook_file(&dir, "PreToolUse", "#!/bin/sh\necho '{\"cancel\": true}'\n", 0o755);
    let e = ws.engine_with(json!({"hooks_file": dir, "dialect": "cline"}));
    assert_eq!(run(&e, HookEvent::PreToolUse, bash("ls"))["decision"], "deny");
    let err = ws.try_engine_with(json!({"hooks_file": dir, "dialect": "claude"})).unwrap_err();
    assert_eq!(err.status, hookline::Status::InvalidArgument);
    assert!(err.message.contains("is a folder"), "{}", err.message);
    let err = ws.try_engine_with(json!({"hooks_file": ws.file("missing/.clinerules/hooks")})).unwrap_err();
    assert!(err.message.contains("missing"), "{}", err.message);
}

// ---------------------------------------------------------- the payload

/// "should handle hook input with all parameters": `clineVersion`,
/// `hookName`, `timestamp`, `taskId`, `workspaceRoots`, `model`; "should
/// pass hook input via stdin": `input.preToolUse.toolName`.
#[test]
fn the_payload_is_clines_camel_case_input() {
    let ws = Ws::with_session("task-7");
    let seen = ws.file("seen.json");
    node_hook(
        &ws,
        "PreToolUse",
        &format!(
            "const input = require('fs').readFileSync(0, 'utf-8');\nrequire('fs').writeFileSync({:?}, input);\n\
             console.log(JSON.stringify({{ cancel: false, contextModification: 'Received tool: ' + \
             JSON.parse(input).preToolUse.toolName }}))",
            seen.display().to_string()
        ),
    );
    let input = json!({"tool_name": "Bash", "tool_input": {"command": "ls -la", "timeout": 5},
                       "model": {"provider": "openai", "slug": "gpt-5"}, "cline_version": "3.40.0"});
    let out = run(&engine(&ws), HookEvent::PreToolUse, input);
    assert_eq!(out["additional_context"], json!(["Received tool: execute_command"]), "{out}");
    let text = std::fs::read_to_string(&seen).unwrap();
    assert!(!text.ends_with('\n'), "JSON.stringify writes no newline");
    let p: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(p["hookName"], "PreToolUse");
    assert_eq!(p["taskId"], "task-7");
    assert_eq!(p["clineVersion"], "3.40.0");
    assert_eq!(p["workspaceRoots"], json!([ws.path()]));
    assert_eq!(p["userId"], "");
    assert_eq!(p["model"], json!({"provider": "openai", "slug": "gpt-5"}));
    assert!(p["timestamp"].as_str().unwrap().parse::<u128>().unwrap() > 1_700_000_000_000);
    assert_eq!(
        p["preToolUse"],
        json!({"toolName": "execute_command", "parameters": {"command": "ls -la", "timeout": "5"}})
    );
}

/// "PostToolUse Hook should receive execution results": `input.postToolUse.success`.
#[test]
fn post_tool_use_gets_the_result() {
    let ws = Ws::new();
    node_hook(
        &ws,
        "PostToolUse",
        "const input = JSON.parse(require('fs').readFileSync(0, 'utf-8'));\nconsole.log(JSON.stringify({\n  \
         cancel: false,\n  contextModification: 'Tool succeeded: ' + input.postToolUse.success + ' ' + \
         input.postToolUse.result\n}))",
    );
    let input = json!({"tool_name": "Read", "tool_input": {"file_path": "a"}, "tool_response": "contents"});
    let out = run(&engine(&ws), HookEvent::PostToolUse, input);
    assert_eq!(out["additional_context"], json!(["Tool succeeded: true contents"]), "{out}");
}

// ---------------------------------------------------------- the answer

/// "should handle script that blocks execution": `{cancel: true,
/// errorMessage: "Hook blocked execution"}` → cancel with that message;
/// Cline cancels the task (`continue: false`).
#[test]
fn cancel_denies_and_halts_with_the_error_message() {
    let ws = Ws::new();
    node_hook(
        &ws,
        "PreToolUse",
        "console.log(JSON.stringify({\n  cancel: true,\n  errorMessage: \"Hook blocked execution\"\n}))",
    );
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("rm -rf /"));
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "Hook blocked execution");
    assert_eq!(out["continue"], false);
    assert_eq!(out["stop_reason"], "Hook blocked execution");
}

/// hooks-adapter.ts `mapStopControl`: a cancelling hook's
/// `contextModification` is its reason, never context.
#[test]
fn a_cancelling_hooks_context_is_its_reason() {
    let ws = Ws::new();
    sh_hook(&ws, "UserPromptSubmit", "echo '{\"cancel\": true, \"contextModification\": \"prompt has a secret\"}'");
    let out = run(&engine(&ws), HookEvent::UserPromptSubmit, json!({"turn_id": "t", "prompt": "key=abc"}));
    assert_eq!(out["allow_prompt"], false, "{out}");
    assert_eq!(out["block_reason"], "prompt has a secret");
    assert_eq!(out["additional_context"], json!([]), "{out}");
    assert_eq!(out["continue"], false);
}

/// "If we have valid JSON, honor it regardless of exit code".
#[test]
fn json_is_honoured_whatever_the_exit_code() {
    let ws = Ws::new();
    sh_hook(&ws, "PreToolUse", "echo '{\"cancel\": true, \"errorMessage\": \"no\"}'; exit 1");
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "deny", "{out}");
    assert!(texts(&out, "warning").iter().any(|t| t.contains("exited with code 1 but answered with JSON")), "{out}");
}

/// "Try to extract JSON from stdout (it might have debug output
/// before/after) … Scan from the end to find the last complete JSON object".
#[test]
fn debug_lines_before_the_json_are_skipped() {
    let ws = Ws::new();
    sh_hook(&ws, "PreToolUse", "echo 'checking {the} command'\necho '{'\necho '  \"cancel\": true,'\necho '  \"errorMessage\": \"debugged\"'\necho '}'");
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "debugged");
}

/// "should handle malformed JSON output": "When hook exits 0 but has
/// malformed JSON, it returns success without context".
#[test]
fn no_json_on_exit_0_is_an_allow_without_context() {
    let ws = Ws::new();
    node_hook(&ws, "PreToolUse", "console.log(\"not valid json\")");
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "continue", "{out}");
    assert_eq!(out["additional_context"], json!([]));
    assert_eq!(out["hooks"][0]["failure"], Value::Null, "{out}");
}

/// "should handle script errors": `process.exit(1)` → "exited with code
/// 1"; "Hook script errors (non-zero exit) don't block tools, only
/// explicit JSON response does".
#[test]
fn a_failing_hook_does_not_block() {
    let ws = Ws::new();
    node_hook(&ws, "PreToolUse", "process.stderr.write('boom'); process.exit(1)");
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "continue", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "exit", "{out}");
    assert!(texts(&out, "warning").iter().any(|t| t.contains("exited with code 1: boom")), "{out}");
}

/// validateHookOutput: "The 'shouldContinue' field has been removed. Use
/// 'cancel: true' instead"; "'cancel' must be a boolean".
#[test]
fn legacy_should_continue_is_rejected_with_an_error() {
    let ws = Ws::new();
    sh_hook(&ws, "PreToolUse", "echo '{\"shouldContinue\": false, \"errorMessage\": \"old\"}'");
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "continue", "{out}");
    assert_eq!(out["hooks"][0]["failure"], "invalid_output", "{out}");
    assert!(texts(&out, "error").iter().any(|t| t.contains("'shouldContinue' field has been removed")), "{out}");
    sh_hook(&ws, "PreToolUse", "echo '{\"cancel\": \"true\"}'");
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("ls"));
    assert!(texts(&out, "error").iter().any(|t| t.contains("'cancel' must be a boolean")), "{out}");
}

/// "should truncate large context modifications": 60,000 characters →
/// shorter, with "truncated due to size limit".
#[test]
fn large_context_is_truncated() {
    let ws = Ws::new();
    node_hook(
        &ws,
        "PreToolUse",
        "console.log(JSON.stringify({ cancel: false, contextModification: 'x'.repeat(60000) }))",
    );
    let out = run(&engine(&ws), HookEvent::PreToolUse, bash("ls"));
    let context = out["additional_context"][0].as_str().unwrap();
    assert!(context.len() < 60_000);
    assert!(context.starts_with(&"x".repeat(50_000)));
    assert!(context.ends_with("[... context truncated due to size limit ...]"), "{}", &context[49_990..]);
}

// ---------------------------------------------------------- several folders

/// "Global Hooks: should execute both global and workspace hooks" (both
/// contexts present); "should block execution if global hook blocks";
/// "Executes all hooks concurrently using Promise.all".
#[test]
fn global_and_workspace_hooks_run_concurrently_and_any_cancel_wins() {
    let ws = Ws::new();
    let global = ws.file("home/Documents/Cline/Hooks");
    hook_file(
        &global,
        "PreToolUse",
        "#!/bin/sh\nsleep 1\necho '{\"contextModification\": \"GLOBAL: Context added\"}'\n",
        0o755,
    );
    sh_hook(&ws, "PreToolUse", "sleep 1\necho '{\"contextModification\": \"WORKSPACE: Context added\"}'");
    let sources = json!({"hook_sources": [
        {"hooks_file": global, "trusted": true},
        {"hooks_file": rules_dir(&ws)},
    ]});
    let e = ws.engine_with(sources.clone());
    let started = Instant::now();
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert!(started.elapsed() < Duration::from_millis(1900), "ran one after another: {:?}", started.elapsed());
    assert_eq!(out["additional_context"], json!(["GLOBAL: Context added", "WORKSPACE: Context added"]), "{out}");
    hook_file(
        &global,
        "PreToolUse",
        "#!/bin/sh\necho '{\"cancel\": true, \"errorMessage\": \"Global policy violation\"}'\n",
        0o755,
    );
    sh_hook(&ws, "PreToolUse", "echo '{\"cancel\": false}'");
    let out = run(&ws.engine_with(sources), HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "Global policy violation");
}

/// "Concatenates all errorMessage strings with single newlines".
#[test]
fn the_reasons_of_several_cancels_are_joined() {
    let ws = Ws::new();
    let other = ws.file(".cline/hooks");
    hook_file(&other, "PreToolUse", "#!/bin/sh\necho '{\"cancel\": true, \"errorMessage\": \"second\"}'\n", 0o755);
    sh_hook(&ws, "PreToolUse", "echo '{\"cancel\": true, \"errorMessage\": \"first\"}'");
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": rules_dir(&ws)}, {"hooks_file": other}]}));
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["reason"], "first\nsecond", "{out}");
}

// ---------------------------------------------------------- events by name

/// The Task* hooks are fired by name: TaskStart and TaskResume add
/// context, TaskCancel and TaskComplete observe; `cancel` on any asks to
/// halt.
#[test]
fn task_events_are_fired_by_name() {
    let ws = Ws::new();
    let seen = ws.file("task.json");
    sh_hook(&ws, "TaskResume", &format!("cat > '{}'\necho '{{\"contextModification\": \"resumed\"}}'", seen.display()));
    sh_hook(&ws, "TaskComplete", "echo '{\"cancel\": true, \"errorMessage\": \"late\"}'");
    let e = engine(&ws);
    let out = named(&e, "TaskResume", json!({"taskResume": {"taskMetadata": {"taskId": "t1"}, "previousState": {}}}));
    assert_eq!(out["additional_context"], json!(["resumed"]), "{out}");
    let p: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(p["hookName"], "TaskResume");
    assert_eq!(p["taskResume"], json!({"taskMetadata": {"taskId": "t1"}, "previousState": {}}));
    let out = named(&e, "TaskComplete", json!({}));
    assert_eq!(out["continue"], false, "{out}");
    assert_eq!(out["stop_reason"], "late");
}

// ---------------------------------------------------------- discovery

/// The CLI's search paths: "`~/Documents/Cline/Hooks`, `~/.cline/hooks`
/// (`CLINE_DIR`), `<ws>/.clinerules/hooks`, `<ws>/.cline/hooks`": the
/// user's folders are trusted, the workspace's are not.
#[test]
fn a_host_finds_the_four_folders() {
    let ws = Ws::new();
    let home = ws.file("home");
    for dir in [home.join("Documents/Cline/Hooks"), home.join(".cline/hooks"), rules_dir(&ws), ws.file(".cline/hooks")]
    {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(ws.file(".clinerules/hooks/../not-a-folder"), "").unwrap();
    let found: Vec<(String, bool)> = hookline::dialect::settings_files_under(ws.path(), Some(&home), &ws.file("root"))
        .into_iter()
        .filter(|f| f.dialect.name() == "cline")
        .map(|f| (f.path.strip_prefix(ws.path()).unwrap().display().to_string(), f.trusted))
        .collect();
    assert_eq!(
        found,
        [
            ("home/Documents/Cline/Hooks".to_owned(), true),
            ("home/.cline/hooks".to_owned(), true),
            (".clinerules/hooks".to_owned(), false),
            (".cline/hooks".to_owned(), false),
        ]
    );
}

/// "Hook execution timeout (30 seconds)".
#[test]
fn hooks_time_out_after_30_seconds() {
    let ws = Ws::new();
    sh_hook(&ws, "PreToolUse", "exit 0");
    let cfg = hookline::config::HooksConfig::from_file(&rules_dir(&ws)).unwrap();
    let hooks: Vec<_> = cfg.all_groups().flat_map(|g| &g.hooks).collect();
    assert_eq!(hooks.len(), 1);
    assert_eq!(hooks[0].timeout(), Duration::from_secs(30));
    assert_eq!(hooks[0].dialect().name(), "cline");
}

// ---------------------------------------------------------- approval

/// A gated engine over the workspace's `.clinerules/hooks`, with a trust
/// store of its own.
fn gated(ws: &Ws) -> LifecycleHookEngine {
    ws.engine_with(json!({
        "hooks_file": rules_dir(ws),
        "workspace_gated": true,
        "trust_store": ws.file("store/trust.json"),
    }))
}

fn skipped(out: &Value) -> Vec<String> {
    out["hooks"].as_array().unwrap().iter().map(|h| h["skipped"].as_str().unwrap_or("ran").to_owned()).collect()
}

/// "Trust: none — no workspace-trust check in either runner": hookline's
/// approval gates a workspace's hooks folder like any project config; the
/// approval pins every file of the folder, so a hook file (or a helper it
/// runs) changed afterwards is skipped, never run.
#[test]
fn an_approved_folder_pins_every_file_in_it() {
    let ws = Ws::new();
    let dir = rules_dir(&ws);
    hook_file(&dir, "helper.sh", "echo '{\"contextModification\": \"helped\"}'\n", 0o644);
    // An interpreter-run hook file names its script as an argument.
    hook_file(&dir, "PreToolUse.sh", "cat >/dev/null\n. \"$(dirname \"$0\")/helper.sh\"\n", 0o644);
    std::fs::set_permissions(dir.join("PreToolUse.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let e = gated(&ws);
    assert!(e.workspace_hooks_need_approval());
    assert_eq!(skipped(&run(&e, HookEvent::PreToolUse, bash("ls"))), ["not_approved"]);
    e.approve_workspace_hooks(true).unwrap();
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(out["additional_context"], json!(["helped"]), "{out}");
    let pinned: Vec<String> = e.command_previews()[0]
        .pins
        .iter()
        .map(|p| p.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(pinned.contains(&"helper.sh".to_owned()) && pinned.contains(&"PreToolUse.sh".to_owned()), "{pinned:?}");
    // The helper changes: the hook is skipped, in this engine and the next.
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(dir.join("helper.sh"), "echo '{\"cancel\": true}'\n").unwrap();
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(skipped(&out), ["changed_since_approval"], "{out}");
    assert_eq!(skipped(&run(&gated(&ws), HookEvent::PreToolUse, bash("ls"))), ["changed_since_approval"]);
}

/// Adding an executable hook file to an approved folder needs a new
/// approval: the running engine stops running the folder's hooks at once
/// (the new file's place was approved empty), and an engine loaded
/// afterwards has a new hook, so a new digest.
#[test]
fn a_hook_file_added_to_an_approved_folder_needs_a_new_approval() {
    let ws = Ws::new();
    sh_hook(&ws, "PreToolUse", "echo '{\"contextModification\": \"approved\"}'");
    let e = gated(&ws);
    e.approve_workspace_hooks(true).unwrap();
    assert_eq!(run(&e, HookEvent::PreToolUse, bash("ls"))["additional_context"], json!(["approved"]));
    let digest = e.command_digest();
    sh_hook(&ws, "UserPromptSubmit", "echo '{\"cancel\": true}'");
    let out = run(&e, HookEvent::PreToolUse, bash("ls"));
    assert_eq!(skipped(&out), ["changed_since_approval"], "{out}");
    assert!(
        texts(&out, "warning").iter().chain(&texts(&out, "error")).any(|t| t.contains("UserPromptSubmit")),
        "{out}"
    );
    let again = gated(&ws);
    assert_ne!(again.command_digest(), digest);
    assert!(again.workspace_hooks_need_approval());
    let out = run(&again, HookEvent::UserPromptSubmit, json!({"turn_id": "t", "prompt": "p"}));
    assert_eq!(skipped(&out), ["not_approved"], "{out}");
    again.approve_workspace_hooks(true).unwrap();
    let out = run(&again, HookEvent::UserPromptSubmit, json!({"turn_id": "t", "prompt": "p"}));
    assert_eq!(out["allow_prompt"], false, "{out}");
}

/// The user's global folder is the user's own: trusted, it runs without
/// an approval.
#[test]
fn the_users_folder_runs_without_approval() {
    let ws = Ws::new();
    let global = ws.file("home/Documents/Cline/Hooks");
    hook_file(&global, "PreToolUse", "#!/bin/sh\necho '{\"cancel\": true}'\n", 0o755);
    let e = ws.engine_with(json!({
        "hook_sources": [{"hooks_file": global, "trusted": true}],
        "workspace_gated": true,
        "trust_store": ws.file("store/trust.json"),
    }));
    assert!(!e.workspace_hooks_need_approval());
    assert_eq!(run(&e, HookEvent::PreToolUse, bash("ls"))["decision"], "deny");
}
