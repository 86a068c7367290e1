//! The Gemini CLI dialect with real hooks: Gemini CLI's own test scenarios
//! (`packages/core/src/hooks/*.test.ts`, `scheduler_hooks.test.ts`,
//! `integration-tests/hooks-*.test.ts` of google-gemini/gemini-cli)
//! re-created, each test quoting the rule it proves; every row of the
//! exit-code table; the hooks as Gemini CLI users write them (bash with
//! jq, Python, Node, in `tests/fixtures/gemini/`); path recognition, the
//! digest, and a config mixing Gemini CLI and Claude Code sources.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hookline::config::HooksConfig;
use hookline::{HookEvent, LifecycleHookEngine, Status};
use serde_json::{json, Value};

use crate::support::{cmd, fixture_command, run, say, texts, warnings, Ws};

/// Engines of Gemini CLI settings.
trait Engines {
    /// An engine over `settings` (a settings.json value) in the Gemini dialect.
    fn engine(&self, settings: Value) -> LifecycleHookEngine;
    /// `settings` written to `<ws>/.gemini/settings.json`, recognised by path.
    fn settings_file(&self, settings: &Value) -> PathBuf;
}

impl Engines for Ws {
    fn engine(&self, settings: Value) -> LifecycleHookEngine {
        self.engine_with(json!({ "dialect": "gemini", "hooks": settings }))
    }
    fn settings_file(&self, settings: &Value) -> PathBuf {
        self.write(".gemini/settings.json", &serde_json::to_string_pretty(settings).unwrap())
    }
}

// ---------------------------------------------------------------- helpers

/// `{"hooks": {event: [one definition]}}`.
fn settings(event: &str, definition: Value) -> Value {
    json!({ "hooks": { event: [definition] } })
}

/// One match-all definition of `hooks`.
fn all(hooks: Vec<Value>) -> Value {
    json!({ "hooks": hooks })
}

/// A command that reads stdin, prints `stdout` and exits with `code`.
fn exits(code: i32, stdout: &str) -> String {
    format!("cat >/dev/null; printf '%s' '{}'; exit {code}", stdout.replace('\'', "'\\''"))
}

fn fixture(name: &str) -> String {
    fixture_command("gemini", name, "bash")
}

fn shell_input(command: &str) -> Value {
    json!({ "tool_name": "run_shell_command", "tool_input": { "command": command } })
}

fn pre(e: &LifecycleHookEngine, input: Value) -> Value {
    e.run_blocking(HookEvent::PreToolUse, &input).unwrap().to_json()
}

fn named(e: &LifecycleHookEngine, name: &str, input: Value) -> Value {
    e.run_named_blocking(name, &input).unwrap().to_json()
}

/// BeforeTool hooks (one match-all definition) on a shell tool call.
fn before_tool(hooks: Vec<Value>) -> Value {
    let ws = Ws::new();
    let e = ws.engine(settings("BeforeTool", all(hooks)));
    pre(&e, shell_input("ls"))
}

fn config(settings: Value) -> HooksConfig {
    let dialect = hookline::dialect::by_name("gemini").unwrap();
    HooksConfig::read(&settings, &hookline::config::SourceInfo::new(dialect)).unwrap().apply_switches()
}

fn commands(c: &HooksConfig, event: HookEvent) -> Vec<String> {
    c.groups(event).iter().flat_map(|g| &g.hooks).map(|h| h.label().to_owned()).collect()
}

fn failures(out: &Value) -> Vec<Value> {
    out["hooks"].as_array().unwrap().iter().map(|h| h["failure"].clone()).collect()
}

// ------------------------------------------------------ configuration

/// `hookRegistry.test.ts` "should load hooks from project configuration":
/// a settings file's `hooks` maps event names to definitions of hooks.
#[test]
fn a_settings_file_configures_hooks_under_gemini_event_names() {
    let c = config(json!({
        "general": {"vimMode": true},
        "hooksConfig": {"enabled": true},
        "hooks": {
            "BeforeTool": [{"matcher": "write_file", "hooks": [cmd("./guard.sh")]}],
            "BeforeAgent": [{"hooks": [cmd("./prompt.sh")]}],
            "AfterAgent": [{"hooks": [cmd("./stop.sh")]}],
            "PreCompress": [{"hooks": [cmd("./compact.sh")]}],
            "BeforeModel": [{"hooks": [cmd("./model.sh")]}]
        }
    }));
    assert_eq!(commands(&c, HookEvent::PreToolUse), ["./guard.sh"]);
    assert_eq!(commands(&c, HookEvent::UserPromptSubmit), ["./prompt.sh"]);
    assert_eq!(commands(&c, HookEvent::Stop), ["./stop.sh"]);
    assert_eq!(commands(&c, HookEvent::PreCompact), ["./compact.sh"]);
    assert_eq!(c.groups_named("BeforeModel")[0].hooks[0].label(), "./model.sh");
    assert!(warnings(&c).is_empty(), "{:?}", warnings(&c));
}

/// Gemini CLI fires AfterTool for every executed tool, failed ones
/// included: AfterTool hooks run on PostToolUse and PostToolUseFailure.
#[test]
fn after_tool_hooks_run_for_post_tool_use_and_its_failure() {
    let c = config(settings("AfterTool", all(vec![cmd("./after.sh")])));
    assert_eq!(commands(&c, HookEvent::PostToolUse), ["./after.sh"]);
    assert_eq!(commands(&c, HookEvent::PostToolUseFailure), ["./after.sh"]);
}

/// The `hooks` object alone (no `hooks` key) is read too, and an
/// extension's `hooks/hooks.json` is `{"hooks": {…}}`.
#[test]
fn the_hooks_object_alone_and_an_extension_hooks_file_are_read() {
    let bare = config(json!({"BeforeTool": [{"hooks": [cmd("a")]}]}));
    assert_eq!(commands(&bare, HookEvent::PreToolUse), ["a"]);
    let extension = config(json!({"hooks": {"SessionStart": [{"hooks": [cmd("b")]}]}}));
    assert_eq!(commands(&extension, HookEvent::SessionStart), ["b"]);
}

/// "extension `hooks/hooks.json` whose `hooks` is not an object | extension
/// hooks ignored": an extension's file must wrap its events in `hooks` (the
/// bare events object, which hookline reads elsewhere, is ignored there, and
/// reported); an extension's `hooksConfig` switches nothing.
#[test]
fn an_extension_hooks_file_without_a_hooks_object_is_ignored() {
    let ws = Ws::new();
    let dir = ws.file(".gemini/extensions/guard/hooks");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hooks.json");
    let dialect = hookline::dialect::by_name("gemini").unwrap();
    let read = |v: Value| {
        std::fs::write(&path, v.to_string()).unwrap();
        HooksConfig::read_file(&path, Some(dialect), false, None).unwrap().apply_switches()
    };
    let bare = read(json!({"BeforeTool": [{"hooks": [cmd("a")]}]}));
    assert!(commands(&bare, HookEvent::PreToolUse).is_empty());
    let w = warnings(&bare).join("\n");
    assert!(w.contains("must have a `hooks` object, got nothing"), "{w}");
    let wrong = read(json!({"hooks": [{"hooks": [cmd("a")]}]}));
    assert!(warnings(&wrong).join("\n").contains("got an array"), "{:?}", warnings(&wrong));
    let switched = read(json!({"hooksConfig": {"enabled": false}, "hooks": {"BeforeTool": [{"hooks": [cmd("b")]}]}}));
    assert_eq!(commands(&switched, HookEvent::PreToolUse), ["b"]);
    // The same events object alone is read from another file.
    let other = ws.file("gemini-hooks.json");
    std::fs::write(&other, json!({"BeforeTool": [{"hooks": [cmd("a")]}]}).to_string()).unwrap();
    let c = HooksConfig::read_file(&other, Some(dialect), false, None).unwrap();
    assert_eq!(commands(&c, HookEvent::PreToolUse), ["a"]);
}

/// "Extension hook strings are hydrated with `${extensionPath}`,
/// `${workspacePath}`, `${/}`, `${pathSeparator}`": in the commands of an
/// extension's `hooks/hooks.json` (a source whose `plugin_root` is the
/// extension's directory) they are replaced as written; another `${…}` is
/// left to bash.
#[test]
fn extension_commands_are_hydrated_with_the_extension_s_paths() {
    let ws = Ws::new();
    let dir = ws.file(".gemini/extensions/guard/hooks");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hooks.json");
    let command = "cat >/dev/null; printf '%s|%s|%s' '${extensionPath}${/}run.sh' '${workspacePath}' '${pathSeparator}${other}' > out.txt";
    std::fs::write(&path, json!({"hooks": {"BeforeTool": [{"hooks": [cmd(command)]}]}}).to_string()).unwrap();
    let root = ws.file(".gemini/extensions/guard");
    let e = ws.engine_with(json!({"hook_sources": [{"hooks_file": path, "plugin_root": root}]}));
    pre(&e, shell_input("ls"));
    let want = format!("{}/run.sh|{}|/${{other}}", root.display(), ws.path().display());
    assert_eq!(ws.read("out.txt"), want);
    // A settings file (no plugin root) is not an extension: nothing is hydrated.
    let e = ws.engine(settings("BeforeTool", all(vec![cmd(command)])));
    pre(&e, shell_input("ls"));
    assert_eq!(ws.read("out.txt"), "${extensionPath}${/}run.sh|${workspacePath}|${pathSeparator}${other}");
}

/// "settings file is not JSON / not an object → that file contributes {}
/// (error shown)": a file that is not a JSON object is an error naming it.
#[test]
fn a_settings_file_that_is_not_an_object_is_an_invalid_config() {
    let dialect = hookline::dialect::by_name("gemini").unwrap();
    let e = HooksConfig::read(&json!([1]), &hookline::config::SourceInfo::new(dialect)).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("Gemini CLI settings file must be a JSON object"), "{}", e.message);
    let ws = Ws::new();
    let path = ws.file(".gemini/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "{ not json").unwrap();
    let e = HooksConfig::from_file(&path).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
}

/// `hookRegistry.test.ts` "should skip known config fields and warn on
/// invalid event names": `Invalid hook event name: "<k>" from <source>
/// config. Skipping.`; `enabled`, `disabled` and `notifications` under
/// `hooks` are skipped silently.
#[test]
fn unknown_event_keys_are_skipped_with_a_warning_and_legacy_switches_silently() {
    let c = config(json!({"hooks": {
        "enabled": true, "disabled": ["x"], "notifications": false,
        "PreToolUse": [{"hooks": [cmd("claude-name")]}],
        "beforetool": [{"hooks": [cmd("wrong-case")]}],
        "BeforeTool": [{"hooks": [cmd("kept")]}]
    }}));
    assert_eq!(commands(&c, HookEvent::PreToolUse), ["kept"]);
    let w = warnings(&c);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w[0].contains("Invalid hook event name: \"PreToolUse\"") && w[0].contains("did you mean `BeforeTool`"),
        "{w:?}"
    );
    assert!(w[1].contains("\"beforetool\"") && w[1].contains("`BeforeTool`"), "{w:?}");
    assert!(c.named_events().is_empty(), "no custom events: unknown keys do not become named events");
}

/// `hookRegistry.test.ts` "should handle non-array definitions gracefully",
/// "should handle object instead of array for definitions", "should handle
/// null definition gracefully", "should handle definition without hooks
/// array", "should handle non-array hooks property", "should handle
/// non-object hookConfig in hooks array": each broken unit is dropped, the
/// rest is kept.
#[test]
fn malformed_definitions_and_hooks_are_skipped_and_reported() {
    let c = config(json!({"hooks": {
        "AfterAgent": "not an array",
        "SessionEnd": {"hooks": []},
        "BeforeTool": [
            null,
            {"matcher": "x"},
            {"hooks": "not an array"},
            {"hooks": ["a string", 5, cmd("ok")]},
            {"hooks": []}
        ]
    }}));
    assert_eq!(commands(&c, HookEvent::PreToolUse), ["ok"]);
    assert!(c.groups(HookEvent::Stop).is_empty());
    let w = warnings(&c).join("\n");
    for path in [
        "hooks.AfterAgent: must be an array",
        "hooks.SessionEnd: must be an array",
        "hooks.BeforeTool[0]: must be an object",
        "hooks.BeforeTool[1]: has no `hooks` array",
        "hooks.BeforeTool[2]: has no `hooks` array",
        "hooks.BeforeTool[3].hooks[0]: must be an object",
        "hooks.BeforeTool[3].hooks[1]: must be an object",
    ] {
        assert!(w.contains(path), "{path} missing in\n{w}");
    }
}

/// `hookRegistry.test.ts` "should handle mixed valid and invalid hook
/// configurations" and "should validate hook configurations": `type` is
/// required (no default), a command hook needs `command`, runtime hooks
/// come from code; `"plugin"` passes validation and runs as a command.
#[test]
fn hook_type_is_required_and_command_hooks_need_a_command() {
    let c = config(settings(
        "BeforeTool",
        all(vec![
            json!({"command": "no-type"}),
            json!({"type": "http", "url": "https://example.com"}),
            json!({"type": "command"}),
            json!({"type": "command", "command": ""}),
            json!({"type": "command", "command": 7}),
            json!({"type": "runtime", "name": "r"}),
            json!({"type": "plugin", "command": "plugin-cmd"}),
            cmd("good"),
        ]),
    ));
    assert_eq!(commands(&c, HookEvent::PreToolUse), ["plugin-cmd", "good"]);
    let w = warnings(&c).join("\n");
    assert!(w.contains("hooks[0]: has no `type`"), "{w}");
    assert!(w.contains("hooks[1]: has an unknown type \"http\""), "{w}");
    assert!(w.contains("hooks[2]: has no `command`"), "{w}");
    assert!(w.contains("hooks[3]: has no `command`"), "{w}");
    assert!(w.contains("hooks[4]: `command` must be a string"), "{w}");
    assert!(w.contains("hooks[5]: is a \"runtime\" hook"), "{w}");
    assert!(w.contains("hooks[6].type: \"plugin\" runs as a command hook"), "{w}");
}

/// "timeout | number, milliseconds | default 60000" (`hookRunner.ts`
/// `DEFAULT_HOOK_TIMEOUT = 60000`).
#[test]
fn timeouts_are_milliseconds_and_default_to_60000() {
    let c = config(settings(
        "BeforeTool",
        all(vec![json!({"type": "command", "command": "a", "timeout": 1500}), cmd("b")]),
    ));
    let hooks = &c.groups(HookEvent::PreToolUse)[0].hooks;
    assert_eq!(hooks[0].timeout(), Duration::from_millis(1500));
    assert_eq!(hooks[1].timeout(), Duration::from_millis(60_000));
}

/// Node's `setTimeout` takes 1 to 2³¹−1 ms; 0, negative and larger values
/// become 1 ms, strings are coerced: hookline applies the same timeout and
/// reports it.
#[test]
fn timeouts_node_would_not_take_as_written_become_1_ms_with_a_warning() {
    let hook = |t: Value| json!({"type": "command", "command": "x", "timeout": t});
    let c = config(settings(
        "BeforeTool",
        all(vec![
            hook(json!(0)),
            hook(json!(-5)),
            hook(json!(3_000_000_000u64)),
            hook(json!("250")),
            hook(json!(12.9)),
        ]),
    ));
    let got: Vec<Duration> = c.groups(HookEvent::PreToolUse)[0].hooks.iter().map(|h| h.timeout()).collect();
    let ms = Duration::from_millis;
    assert_eq!(got, [ms(1), ms(1), ms(1), ms(250), ms(12)]);
    let w = warnings(&c);
    assert_eq!(w.len(), 4, "{w:?}");
    assert!(w[0].contains("hooks[0].timeout") && w[0].contains("1 ms"), "{w:?}");
    assert!(w[3].contains("a string \"250\"") && w[3].contains("250 ms"), "{w:?}");
}

/// A matcher must be a string; Gemini CLI would throw when testing it and
/// run no hook of the event. hookline skips that definition and reports it.
#[test]
fn a_matcher_that_is_not_a_string_skips_its_definition() {
    let c = config(json!({"hooks": {"BeforeTool": [
        {"matcher": 5, "hooks": [cmd("bad")]},
        {"matcher": "run_shell_command", "hooks": [cmd("good")]}
    ]}}));
    assert_eq!(commands(&c, HookEvent::PreToolUse), ["good"]);
    assert!(warnings(&c)[0].contains("hooks.BeforeTool[0].matcher: must be a string"), "{:?}", warnings(&c));
}

/// `hookRegistry.test.ts` "should respect disabled hooks using friendly
/// name", "should prefer hook name over command for identification",
/// "should use command as identifier when name is missing":
/// `hooksConfig.disabled` lists hook names, a hook's name is its `name`,
/// else its command.
#[test]
fn hooks_config_disabled_names_hooks_by_name_else_command() {
    let c = config(json!({
        "hooksConfig": {"disabled": ["friendly", "./by-command.sh"]},
        "hooks": {"BeforeTool": [{"hooks": [
            {"type": "command", "command": "./named.sh", "name": "friendly"},
            {"type": "command", "command": "./by-command.sh"},
            {"type": "command", "command": "./friendly", "name": "other"},
            cmd("./kept.sh")
        ]}]}
    }));
    assert_eq!(commands(&c, HookEvent::PreToolUse), ["./friendly", "./kept.sh"]);
    let w = warnings(&c).join("\n");
    assert!(w.contains("hook `friendly` is disabled by `hooksConfig.disabled`"), "{w}");
    assert!(w.contains("hook `./by-command.sh` is disabled"), "{w}");
}

/// "`disabled` (string[], UNION across scopes)" and "`enabled` … single
/// value, last scope wins": a user-scope list disables a project hook;
/// `enabled: false` in the last scope that sets it turns every Gemini hook
/// off, and a later `true` turns them back on.
#[test]
fn switches_apply_across_the_sources_of_an_engine() {
    let ws = Ws::new();
    let source = |hooks: Value| json!({"dialect": "gemini", "hooks": hooks});
    let user = source(json!({"hooksConfig": {"disabled": ["project-guard"]}, "hooks": {}}));
    let project = source(settings(
        "BeforeTool",
        all(vec![json!({"type": "command", "command": "echo hi", "name": "project-guard"}), cmd("echo kept")]),
    ));
    let e = ws.engine_with(json!({"hook_sources": [user, project.clone()]}));
    let out = pre(&e, shell_input("ls"));
    let ran: Vec<&str> = out["hooks"].as_array().unwrap().iter().map(|h| h["command"].as_str().unwrap()).collect();
    assert_eq!(ran, ["echo kept"]);

    let off = source(json!({"hooksConfig": {"enabled": false}}));
    let on = source(json!({"hooksConfig": {"enabled": true}}));
    let e = ws.engine_with(json!({"hook_sources": [project.clone(), off.clone()]}));
    assert!(pre(&e, shell_input("ls"))["hooks"].as_array().unwrap().is_empty(), "enabled:false last: no hooks");
    let e = ws.engine_with(json!({"hook_sources": [off, project, on]}));
    assert_eq!(pre(&e, shell_input("ls"))["hooks"].as_array().unwrap().len(), 2, "a later enabled:true wins");
}

// ----------------------------------------------------------- matchers

/// `hookPlanner.test.ts` "should filter hooks by tool name matcher" and
/// "should filter hooks by regex matcher": tool matchers are JavaScript
/// regular expressions, unanchored and case-sensitive (`"Edit|Write"`
/// matches `WriteTool`).
#[test]
fn tool_matchers_are_unanchored_case_sensitive_regexes() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"BeforeTool": [
        {"matcher": "write_file|replace", "hooks": [cmd("echo edit")]},
        {"matcher": "create_dlp_rule", "hooks": [cmd("echo dlp")]},
        {"matcher": "Read", "hooks": [cmd("echo upper")]},
        {"matcher": "^read_", "hooks": [cmd("echo anchored")]}
    ]}}));
    let ran = |tool: &str| -> Vec<String> {
        let out = pre(&e, json!({"tool_name": tool, "tool_input": {}}));
        out["hooks"].as_array().unwrap().iter().map(|h| h["command"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(ran("write_file"), ["echo edit"]);
    assert_eq!(ran("mcp_cepbot_create_dlp_rule"), ["echo dlp"]);
    assert_eq!(ran("xreplacey"), ["echo edit"], "unanchored");
    assert_eq!(ran("read_file"), ["echo anchored"], "`Read` does not match read_file: case-sensitive");
    assert!(ran("glob").is_empty());
}

/// `hookPlanner.test.ts` "should handle wildcard matcher", "should handle
/// empty string matcher": no matcher, `""`, `"*"` (after trimming) match
/// every tool.
#[test]
fn absent_empty_blank_and_star_matchers_match_every_tool() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {"BeforeTool": [
        {"hooks": [cmd("echo a")]},
        {"matcher": "", "hooks": [cmd("echo b")]},
        {"matcher": "  * ", "hooks": [cmd("echo c")]},
        {"matcher": "   ", "hooks": [cmd("echo d")]}
    ]}}));
    assert_eq!(pre(&e, shell_input("ls"))["hooks"].as_array().unwrap().len(), 4);
}

/// `hookPlanner.test.ts` "should handle invalid regex matcher gracefully":
/// a matcher that does not compile is compared with the tool name exactly.
#[test]
fn an_invalid_regex_matcher_is_an_exact_tool_name() {
    let ws = Ws::new();
    let settings = json!({"hooks": {"BeforeTool": [{"matcher": "[invalid(regex", "hooks": [cmd("echo hit")]}]}});
    let c = config(settings.clone());
    assert!(warnings(&c)[0].contains("is not a regular expression"), "{:?}", warnings(&c));
    let e = ws.engine(settings);
    assert_eq!(pre(&e, json!({"tool_name": "[invalid(regex"}))["hooks"].as_array().unwrap().len(), 1);
    assert!(pre(&e, json!({"tool_name": "invalid"}))["hooks"].as_array().unwrap().is_empty());
}

/// `hookPlanner.test.ts` "should match trigger for session events": the
/// SessionStart, SessionEnd and PreCompress matchers are compared with the
/// trigger exactly — no regex, no `|` list (`"startup|resume"` matches
/// nothing).
#[test]
fn lifecycle_matchers_are_exact_strings() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "SessionEnd": [
            {"matcher": "exit", "hooks": [cmd("echo exit")]},
            {"matcher": "ex.t", "hooks": [cmd("echo regex")]},
            {"matcher": "exit|clear", "hooks": [cmd("echo list")]}
        ],
        "PreCompress": [{"matcher": " auto ", "hooks": [cmd("echo auto")]}],
        "SessionStart": [{"matcher": "startup|resume", "hooks": [cmd("echo never")]}]
    }}));
    let out = run(&e, HookEvent::SessionEnd, json!({"reason": "exit"}));
    let ran: Vec<&str> = out["hooks"].as_array().unwrap().iter().map(|h| h["command"].as_str().unwrap()).collect();
    assert_eq!(ran, ["echo exit"]);
    let out = run(&e, HookEvent::PreCompact, json!({"trigger": "auto"}));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "trimmed");
    assert!(run(&e, HookEvent::SessionStart, json!({}))["hooks"].as_array().unwrap().is_empty());
}

/// "No `matcher`, or the event passes no match context (BeforeAgent,
/// AfterAgent, Notification, BeforeModel, …) → match (so `"matcher":
/// "ToolPermission"` on Notification is decorative)".
#[test]
fn events_without_a_match_context_run_every_definition() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "Notification": [{"matcher": "nothing-like-it", "hooks": [cmd("echo n")]}],
        "BeforeAgent": [{"matcher": "zzz", "hooks": [cmd("echo p")]}],
        "BeforeModel": [{"matcher": "zzz", "hooks": [cmd("echo m")]}]
    }}));
    let out = run(&e, HookEvent::Notification, json!({"notification_type": "ToolPermission", "message": "m"}));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1);
    assert_eq!(run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "hi"}))["hooks"].as_array().unwrap().len(), 1);
    assert_eq!(named(&e, "BeforeModel", json!({"llm_request": {}}))["hooks"].as_array().unwrap().len(), 1);
}

// ------------------------------------------------------------- dedupe

/// `hookPlanner.test.ts` "should deduplicate identical hooks" and "should
/// deduplicate based on both name and command": hooks are deduplicated by
/// `"<name>:<command>"` — the same command under another name runs again.
#[test]
fn hooks_are_deduplicated_by_name_and_command() {
    let ws = Ws::new();
    let h = |name: Option<&str>| {
        let mut h = cmd("echo same");
        if let Some(n) = name {
            h["name"] = json!(n);
        }
        h
    };
    let e = ws.engine(json!({"hooks": {"BeforeTool": [
        {"hooks": [h(None), h(Some("a"))]},
        {"matcher": "run_shell_command", "hooks": [h(None), h(Some("a")), h(Some("b"))]}
    ]}}));
    assert_eq!(pre(&e, shell_input("ls"))["hooks"].as_array().unwrap().len(), 3);
    let plan = e.explain("PreToolUse", &shell_input("ls")).unwrap();
    let verdicts: Vec<String> = plan.iter().map(|p| format!("{:?}", p.verdict)).collect();
    assert_eq!(verdicts, ["Runs", "Runs", "Duplicate", "Duplicate", "Runs"]);
}

// ---------------------------------------------------------- execution

/// "Unix: `spawn("bash", ["-c", <command>])` … bash, not `sh` — bash-isms
/// work"; "cwd: `input.cwd`".
#[test]
fn hooks_run_in_bash_in_the_workspace() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeTool",
        all(vec![cmd("cat >/dev/null; [[ -n $BASH_VERSION ]] && echo \"$PWD\" > where.txt")]),
    ));
    pre(&e, shell_input("ls"));
    let canonical = std::fs::canonicalize(ws.path()).unwrap();
    assert_eq!(ws.read("where.txt").trim(), canonical.to_str().unwrap());
}

/// "stdin: the payload is written once and `end()`ed" — `JSON.stringify`
/// of the input, compact, without a trailing newline.
#[test]
fn the_payload_is_compact_json_without_a_trailing_newline() {
    let ws = Ws::new();
    let e = ws.engine(settings("BeforeTool", all(vec![cmd("cat > payload.bin")])));
    pre(&e, shell_input("ls"));
    let bytes = std::fs::read(ws.file("payload.bin")).unwrap();
    assert_eq!(bytes.last(), Some(&b'}'));
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(serde_json::to_vec(&v).unwrap(), bytes, "compact");
}

/// `hooks-system.test.ts` "should provide correct input format to hooks":
/// `session_id`, `cwd`, `hook_event_name`, `timestamp`, `tool_name`,
/// `tool_input` are all present; `transcript_path` is `""` when there is no
/// recording (never null); field order is Gemini CLI's.
#[test]
fn before_tool_payload_has_gemini_s_base_and_tool_fields() {
    let ws = Ws::new();
    let e = ws.engine(settings("BeforeTool", all(vec![cmd("cat > payload.json")])));
    pre(
        &e,
        json!({"tool_name": "write_file", "tool_input": {"file_path": "a.txt", "content": "x"},
                   "mcp_context": {"server_name": "s", "tool_name": "t"}, "tool_call_id": "c1"}),
    );
    let p = ws.json("payload.json");
    let keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "session_id",
            "transcript_path",
            "cwd",
            "hook_event_name",
            "timestamp",
            "tool_name",
            "tool_input",
            "mcp_context",
            "tool_call_id"
        ]
    );
    assert_eq!(p["session_id"], "s-1");
    assert_eq!(p["transcript_path"], "");
    assert_eq!(p["hook_event_name"], "BeforeTool");
    assert_eq!(p["tool_input"], json!({"file_path": "a.txt", "content": "x"}));
    let ts = p["timestamp"].as_str().unwrap();
    assert!(ts.len() == 24 && ts.ends_with('Z') && ts.as_bytes()[10] == b'T', "{ts}");
}

/// `hookEventHandler.test.ts` "should fire BeforeTool event with correct
/// input": a null tool input is `{}`; the transcript path when the host has
/// one.
#[test]
fn a_missing_tool_input_is_an_empty_object_and_the_transcript_path_is_passed() {
    let ws = Ws::new();
    let e = ws.engine_with(json!({"dialect": "gemini", "transcript_path": "/t/chat.json",
                                  "hooks": settings("BeforeTool", all(vec![cmd("cat > payload.json")]))}));
    pre(&e, json!({"tool_name": "glob", "tool_input": null}));
    let p = ws.json("payload.json");
    assert_eq!(p["tool_input"], json!({}));
    assert_eq!(p["transcript_path"], "/t/chat.json");
}

/// `hookEventHandler.test.ts` "should fire AfterTool event with tool
/// response": `tool_response` is `{llmContent, returnDisplay, error}`;
/// PostToolUseFailure (which Gemini CLI reports through AfterTool) gives
/// `error: {message}`. A successful tool's `error` is undefined in Gemini
/// CLI, so its JSON has no `error` key (not `"error": null`).
#[test]
fn after_tool_payload_carries_gemini_s_tool_response() {
    let ws = Ws::new();
    let e = ws.engine(settings("AfterTool", all(vec![cmd("cat > payload.json")])));
    let response = json!({"llmContent": "ok", "returnDisplay": "ok", "error": null});
    run(&e, HookEvent::PostToolUse, json!({"tool_name": "read_file", "tool_input": {}, "tool_response": response}));
    assert_eq!(ws.json("payload.json")["tool_response"], response, "an object is passed as the host gave it");
    assert_eq!(ws.json("payload.json")["hook_event_name"], "AfterTool");
    run(&e, HookEvent::PostToolUse, json!({"tool_name": "read_file", "tool_response": "plain"}));
    assert_eq!(ws.json("payload.json")["tool_response"], json!({"llmContent": "plain", "returnDisplay": "plain"}));
    run(&e, HookEvent::PostToolUse, json!({"tool_name": "read_file"}));
    assert_eq!(ws.json("payload.json")["tool_response"], json!({"llmContent": "", "returnDisplay": ""}));
    run(&e, HookEvent::PostToolUseFailure, json!({"tool_name": "read_file", "error": "no such file"}));
    let p = ws.json("payload.json");
    assert_eq!(
        p["tool_response"],
        json!({"llmContent": "", "returnDisplay": "", "error": {"message": "no such file"}})
    );
    assert!(p.get("error").is_none());
}

/// AfterAgent's payload: `prompt`, `prompt_response` (the response text),
/// `stop_hook_active`; SessionStart's `source`; SessionEnd's `reason`;
/// PreCompress's `trigger`; Notification's `notification_type`, `message`,
/// `details` (`hookEventHandler.test.ts` "should fire Notification event",
/// "should fire SessionStart event with source").
#[test]
fn lifecycle_payloads_use_gemini_s_field_names() {
    let ws = Ws::new();
    let capture = |event: &str| json!({"hooks": [cmd(format!("cat > {event}.json"))]});
    let e = ws.engine_with(json!({"dialect": "gemini", "trigger": "resume", "hooks": {"hooks": {
        "AfterAgent": [capture("AfterAgent")], "SessionStart": [capture("SessionStart")],
        "SessionEnd": [capture("SessionEnd")], "PreCompress": [capture("PreCompress")],
        "Notification": [capture("Notification")]
    }}}));
    run(&e, HookEvent::Stop, json!({"prompt": "fix it", "last_assistant_message": "done", "stop_hook_active": true}));
    let p = ws.json("AfterAgent.json");
    assert_eq!(
        (p["prompt"].clone(), p["prompt_response"].clone(), p["stop_hook_active"].clone()),
        (json!("fix it"), json!("done"), json!(true))
    );
    assert!(p.get("last_assistant_message").is_none());
    run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(ws.json("SessionStart.json")["source"], "resume");
    run(&e, HookEvent::SessionEnd, json!({"reason": "logout"}));
    assert_eq!(ws.json("SessionEnd.json")["reason"], "logout");
    run(&e, HookEvent::PreCompact, json!({"trigger": "manual"}));
    assert_eq!(ws.json("PreCompress.json")["trigger"], "manual");
    run(
        &e,
        HookEvent::Notification,
        json!({"notification_type": "ToolPermission", "message": "Allow?", "details": {"type": "exec", "command": "ls"}}),
    );
    let n = ws.json("Notification.json");
    assert_eq!(n["details"]["command"], "ls");
    assert_eq!(n["hook_event_name"], "Notification");
    // "`notification_type` (only `ToolPermission`)": an input without one
    // gets Gemini CLI's only kind; another kind is passed on as given.
    run(&e, HookEvent::Notification, json!({"message": "Allow?"}));
    assert_eq!(ws.json("Notification.json")["notification_type"], "ToolPermission");
    run(&e, HookEvent::Notification, json!({"notification_type": "idle_prompt", "message": "m"}));
    assert_eq!(ws.json("Notification.json")["notification_type"], "idle_prompt");
}

/// `hookRunner.test.ts` "should expand environment variables in commands":
/// hooks get `GEMINI_PROJECT_DIR`, `GEMINI_CWD` and `CLAUDE_PROJECT_DIR`
/// (the working dir) and `GEMINI_SESSION_ID`.
#[test]
fn hooks_get_gemini_s_variables_and_claude_project_dir() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeTool",
        all(vec![cmd("cat >/dev/null; printf '%s|%s|%s|%s|%s' \"$GEMINI_PROJECT_DIR\" \"$GEMINI_CWD\" \"$CLAUDE_PROJECT_DIR\" \"$GEMINI_SESSION_ID\" \"${VT_PROJECT_DIR-unset}\" > env.txt")]),
    ));
    pre(&e, shell_input("ls"));
    let dir = std::fs::canonicalize(ws.path()).unwrap().display().to_string();
    assert_eq!(ws.read("env.txt"), format!("{dir}|{dir}|{dir}|s-1|unset"));
}

/// "`$GEMINI_PROJECT_DIR`, … in the command are replaced by the
/// shell-quoted value" — `hookRunner.test.ts` "should not allow command
/// injection via GEMINI_PROJECT_DIR" and "should expand and escape
/// GEMINI_PLANS_DIR in commands".
#[test]
fn project_dir_in_a_command_is_substituted_shell_quoted() {
    let ws = Ws::new();
    let project = ws.file("my project; touch pwned");
    std::fs::create_dir_all(&project).unwrap();
    let plans = ws.file("plans with spaces");
    let hooks = settings(
        "BeforeTool",
        all(vec![cmd("cat >/dev/null; printf '%s\\n' $GEMINI_PROJECT_DIR > args.txt; printf '%s\\n' $GEMINI_PLANS_DIR >> args.txt")]),
    );
    let e = LifecycleHookEngine::from_options_json(
        &json!({"workspace": project, "session_id": "s", "dialect": "gemini", "hooks": hooks,
                "env": {"GEMINI_PLANS_DIR": plans}})
        .to_string(),
    )
    .unwrap();
    pre(&e, shell_input("ls"));
    let canonical = std::fs::canonicalize(&project).unwrap();
    let args = std::fs::read_to_string(canonical.join("args.txt")).unwrap();
    assert_eq!(args, format!("{}\n{}\n", canonical.display(), plans.display()), "one word each, unsplit");
    assert!(!canonical.join("pwned").exists() && !ws.file("pwned").exists(), "no injection");
}

/// "then the hook's `env`": a hook's own `env` is set last, over
/// everything else (the literal `$GEMINI_SESSION_ID` of the command is
/// still substituted with the session's id before bash runs); the digest
/// covers it.
#[test]
fn a_hook_s_env_is_set_last() {
    let ws = Ws::new();
    let hook = json!({"type": "command",
                      "command": "cat >/dev/null; printf '%s %s %s' \"$MODE\" \"$(printenv GEMINI_SESSION_ID)\" $GEMINI_SESSION_ID > env.txt",
                      "env": {"MODE": "strict", "GEMINI_SESSION_ID": "mine", "N": 3}});
    let e = ws.engine(settings("BeforeTool", all(vec![hook.clone()])));
    pre(&e, shell_input("ls"));
    assert_eq!(ws.read("env.txt"), "strict mine s-1");
    let preview = &e.command_previews()[0];
    assert!(preview.own_env.contains(&("N".to_owned(), "3".to_owned())), "{:?}", preview.own_env);
    assert!(
        ["MODE", "GEMINI_SESSION_ID", "N"].iter().all(|n| preview.env.set.iter().any(|s| s == n)),
        "{:?}",
        preview.env
    );
    let other = json!({"type": "command", "command": hook["command"], "env": {"MODE": "lax", "GEMINI_SESSION_ID": "mine", "N": 3}});
    let changed = ws.engine(settings("BeforeTool", all(vec![other])));
    assert_ne!(changed.command_digest(), e.command_digest(), "the digest covers the hook's env values");
}

/// `hookRunner.test.ts` "should handle command hook timeout": a timed-out
/// hook is `success: false` with no output — it makes no decision (fail
/// open), whatever it printed.
#[test]
fn a_timed_out_hook_makes_no_decision() {
    let out = before_tool(vec![json!({"type": "command", "timeout": 300,
        "command": "cat >/dev/null; echo '{\"decision\":\"deny\",\"reason\":\"late\"}'; sleep 5"})]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(failures(&out), [json!("timeout")]);
    assert_eq!(out["hooks"][0]["timed_out"], true);
    assert!(texts(&out, "warning")[0].contains("timed out after 300 ms"), "{out}");
}

/// A hook that cannot be started (its shell or program missing) makes no
/// decision: `child.on('error')` resolves `success: false` without output.
#[test]
fn a_hook_whose_shell_cannot_start_makes_no_decision() {
    let ws = Ws::new();
    let e = ws.engine_with(json!({"dialect": "gemini", "env": {"PATH": ws.file("empty-bin")},
        "hooks": settings("BeforeTool", all(vec![cmd("echo '{\"decision\":\"deny\"}'")]))}));
    let out = pre(&e, shell_input("ls"));
    assert_eq!(out["decision"], "continue");
    assert_eq!(failures(&out), [json!("spawn")]);
    assert!(texts(&out, "error")[0].contains("the hook's shell is bash, which is not on PATH"), "{out}");
}

/// `hookRunner.test.ts` "should execute multiple hooks in parallel": without
/// `sequential`, all hooks of an event run at once (`Promise.all`) and
/// results are aggregated in configuration order.
#[test]
fn hooks_run_in_parallel_and_merge_in_configuration_order() {
    let started = Instant::now();
    let out = before_tool(vec![
        cmd("cat >/dev/null; sleep 1; echo '{\"systemMessage\":\"first\"}'"),
        cmd("cat >/dev/null; sleep 1; echo '{\"systemMessage\":\"second\"}'"),
        cmd("cat >/dev/null; echo '{\"systemMessage\":\"third\"}'"),
    ]);
    assert!(started.elapsed() < Duration::from_millis(1900), "{:?}", started.elapsed());
    assert_eq!(texts(&out, "info"), ["first", "second", "third"]);
}

/// "If any selected definition has `sequential: true`, all run one after
/// another in order" — `hooks-system.test.ts` "should execute hooks
/// sequentially when configured"; a sequential definition that does not
/// match does not count.
#[test]
fn sequential_on_any_matching_definition_runs_every_hook_in_order() {
    let ws = Ws::new();
    let step = |n: u32| cmd(format!("cat >/dev/null; sleep 0.{n}; echo {n} >> order.txt"));
    let e = ws.engine(json!({"hooks": {"BeforeTool": [
        {"hooks": [step(3), step(1)]},
        {"matcher": "run_shell_command", "sequential": true, "hooks": [step(2)]},
        {"matcher": "glob", "sequential": true, "hooks": [cmd("echo never")]}
    ]}}));
    pre(&e, shell_input("ls"));
    assert_eq!(ws.read("order.txt"), "3\n1\n2\n");
    std::fs::remove_file(ws.file("order.txt")).unwrap();
    // On glob only the third definition asks (and its hook does not write):
    // the first one's hooks run concurrently, the shorter sleep first.
    pre(&e, json!({"tool_name": "read_file"}));
    assert_eq!(ws.read("order.txt"), "1\n3\n");
}

/// "Nothing short-circuits: a deny does not stop later hooks, in either
/// mode" — `hookRunner.test.ts` "should continue execution even if a hook
/// fails".
#[test]
fn a_deny_does_not_stop_later_hooks_even_in_sequence() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeTool",
        json!({"sequential": true, "hooks": [cmd(say(json!({"decision": "deny", "reason": "no"}))), cmd(exits(1, "")), cmd("cat >/dev/null; touch ran")]}),
    ));
    let out = pre(&e, shell_input("ls"));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["hooks"].as_array().unwrap().len(), 3);
    assert!(ws.file("ran").exists());
}

/// `hookRunner.test.ts` "should pass modified input from one hook to the
/// next for BeforeAgent": in a sequential run the next hook's `prompt` is
/// `prompt + "\n\n" + additionalContext` (raw, not escaped).
#[test]
fn sequential_before_agent_hooks_chain_the_prompt() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeAgent",
        json!({"sequential": true, "hooks": [
            cmd(say(json!({"decision": "allow", "hookSpecificOutput": {"additionalContext": "Context <from> hook 1"}}))),
            cmd("cat > second.json")
        ]}),
    ));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "Original prompt"}));
    assert_eq!(ws.json("second.json")["prompt"], "Original prompt\n\nContext <from> hook 1");
    assert_eq!(out["additional_context"], json!(["Context &lt;from&gt; hook 1"]));
    // An input without a prompt gives the hooks `""`; the chain builds on it.
    run(&e, HookEvent::UserPromptSubmit, json!({}));
    assert_eq!(ws.json("second.json")["prompt"], "\n\nContext <from> hook 1");
}

/// `hookRunner.test.ts` "should pass modified LLM request from one hook to
/// the next for BeforeModel": `llm_request = {...llm_request,
/// ...hookSpecificOutput.llm_request}`.
#[test]
fn sequential_before_model_hooks_chain_the_llm_request() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeModel",
        json!({"sequential": true, "hooks": [
            cmd(say(json!({"decision": "allow", "hookSpecificOutput": {"llm_request": {"temperature": 0.7}}}))),
            cmd("cat > second.json")
        ]}),
    ));
    named(
        &e,
        "BeforeModel",
        json!({"llm_request": {"model": "gemini-1.5-pro", "messages": [{"role": "user", "content": "Hello"}]}}),
    );
    let second = ws.json("second.json");
    assert_eq!(second["llm_request"]["model"], "gemini-1.5-pro");
    assert_eq!(second["llm_request"]["temperature"], 0.7);
}

/// Sequential BeforeTool: the next hook's `tool_input` is the previous one
/// with the hook's `tool_input` merged over it, while the outcome's
/// rewrite is the last hook's `tool_input` alone (it replaces the
/// arguments).
#[test]
fn sequential_before_tool_hooks_chain_a_merged_tool_input() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeTool",
        json!({"sequential": true, "hooks": [
            cmd(say(json!({"hookSpecificOutput": {"tool_input": {"command": "ls -la"}}}))),
            cmd("cat > second.json; echo '{\"hookSpecificOutput\":{\"tool_input\":{\"description\":\"listing\"}}}'")
        ]}),
    ));
    let out = pre(&e, json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls", "dir_path": "src"}}));
    assert_eq!(ws.json("second.json")["tool_input"], json!({"command": "ls -la", "dir_path": "src"}));
    assert_eq!(out["updated_input"], json!({"description": "listing"}));
}

/// `hookRunner.test.ts` "should not modify input if hook fails": only a
/// hook that exited 0 with output changes the next hook's input.
#[test]
fn a_failing_hook_does_not_change_the_next_hook_s_input() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeAgent",
        json!({"sequential": true, "hooks": [
            cmd(exits(1, r#"{"hookSpecificOutput":{"additionalContext":"ctx"}}"#)),
            cmd("cat > second.json")
        ]}),
    ));
    run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "p"}));
    assert_eq!(ws.json("second.json")["prompt"], "p");
}

/// Without `sequential`, every hook reads the original input.
#[test]
fn concurrent_hooks_read_the_original_input() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeAgent",
        all(vec![
            cmd(say(json!({"hookSpecificOutput": {"additionalContext": "ctx"}}))),
            cmd("sleep 0.3; cat > second.json"),
        ]),
    ));
    run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "p"}));
    assert_eq!(ws.json("second.json")["prompt"], "p");
}

// ------------------------------------------- one hook's result (§5.1)

/// Exit 0 | JSON: "fields apply".
#[test]
fn exit_0_json_fields_apply() {
    let out = before_tool(vec![cmd(say(json!({"decision": "deny", "reason": "policy"})))]);
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("deny"), json!("policy")));
    assert_eq!(failures(&out), [Value::Null]);
}

/// Exit 0 | plain text: "allow + systemMessage" (never context).
#[test]
fn exit_0_plain_text_is_a_system_message() {
    let ws = Ws::new();
    let e = ws.engine(settings("BeforeAgent", all(vec![cmd(exits(0, "just saying"))])));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "p"}));
    assert_eq!(out["allow_prompt"], true);
    assert_eq!(texts(&out, "info"), ["just saying"]);
    assert_eq!(out["additional_context"], json!([]));
}

/// Exit 0 | nothing: "no effect".
#[test]
fn exit_0_without_output_has_no_effect() {
    let out = before_tool(vec![cmd("cat >/dev/null")]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(out["messages"], json!([]));
    assert_eq!(failures(&out), [Value::Null]);
}

/// Exit 1 | JSON: "fields apply (a deny still denies)".
#[test]
fn exit_1_json_still_denies() {
    let out = before_tool(vec![cmd(exits(1, r#"{"decision":"block","reason":"nope"}"#))]);
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "nope");
    assert_eq!(failures(&out), [json!("exit")]);
}

/// Exit 1 | plain text: "allow + `Warning: <text>`" — `hookRunner.test.ts`
/// "should handle invalid JSON with exit code 1 (non-blocking error)".
#[test]
fn exit_1_plain_text_is_a_warning_message_and_allows() {
    let out = before_tool(vec![cmd("cat >/dev/null; echo '{ broken json' >&2; exit 1")]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(texts(&out, "info"), ["Warning: { broken json"]);
    assert!(texts(&out, "warning")[0].contains("failed: exited with code 1"), "{out}");
}

/// Exit 1 | nothing: "no effect (failure warning)".
#[test]
fn exit_1_without_output_only_warns() {
    let out = before_tool(vec![cmd(exits(1, ""))]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(texts(&out, "warning").len(), 1);
    assert_eq!(failures(&out), [json!("exit")]);
}

/// Exit 2 | JSON: "fields apply (exit 2 + `{"decision":"allow"}` allows)".
#[test]
fn exit_2_with_allow_json_does_not_deny() {
    let out = before_tool(vec![cmd(exits(2, r#"{"decision":"allow"}"#))]);
    assert_eq!(out["decision"], "continue");
}

/// Exit 2 | plain text: "deny, reason = text (stdout if non-empty, else
/// stderr)" — `hookRunner.test.ts` "should handle invalid JSON with exit
/// code 2 (blocking error)".
#[test]
fn exit_2_plain_text_denies_with_stdout_else_stderr() {
    let out = before_tool(vec![cmd("cat >/dev/null; echo '{ \"error\": incomplete' >&2; exit 2")]);
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("deny"), json!("{ \"error\": incomplete")));
    let out = before_tool(vec![cmd("cat >/dev/null; echo 'stdout wins'; echo 'not me' >&2; exit 2")]);
    assert_eq!(out["reason"], "stdout wins");
}

/// `hooks-system.test.ts` "should block tool execution and use stderr as
/// reason when hook exits with code 2": JSON on stderr (stdout empty) is
/// read as the output.
#[test]
fn json_on_stderr_is_read_when_stdout_is_empty() {
    let out = before_tool(vec![cmd(
        "cat >/dev/null; node -e \"process.stderr.write(JSON.stringify({decision: 'deny', reason: 'File writing blocked by security policy'})); process.exit(2)\"",
    )]);
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "File writing blocked by security policy");
}

/// Exit 2 | nothing: "no effect".
#[test]
fn exit_2_without_output_has_no_effect() {
    let out = before_tool(vec![cmd(exits(2, ""))]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(failures(&out), [json!("exit")]);
}

/// Other exit codes (3, 126, 127 …): "plain text → deny, reason = text — a
/// mistyped command (`bash: …: command not found`, exit 127) blocks"; JSON
/// fields apply; nothing → no effect.
#[test]
fn other_exit_codes_deny_with_plain_text_and_a_mistyped_command_blocks() {
    let out = before_tool(vec![cmd("cat >/dev/null; ./no-such-guard.sh")]);
    assert_eq!(out["decision"], "deny");
    assert!(out["reason"].as_str().unwrap().contains("No such file or directory"), "{out}");
    let out = before_tool(vec![cmd("cat >/dev/null; definitely-not-a-command-xyz")]);
    assert!(out["reason"].as_str().unwrap().contains("command not found"), "{out}");
    assert_eq!(out["hooks"][0]["exit_code"], 127);
    let out = before_tool(vec![cmd(exits(3, r#"{"decision":"ask","systemMessage":"sure?"}"#))]);
    assert_eq!(out["decision"], "ask");
    assert_eq!(before_tool(vec![cmd(exits(3, ""))])["decision"], "continue");
}

/// A hook killed by a signal: its exit code is null, read as 0 for plain
/// text (`exitCode || 0`), and it is a failure.
#[test]
fn a_hook_killed_by_a_signal_reads_like_exit_0() {
    let out = before_tool(vec![cmd("cat >/dev/null; echo 'dying words'; kill -9 $$")]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(texts(&out, "info"), ["dying words"]);
    assert_eq!(failures(&out), [json!("signal")]);
}

/// `hookRunner.test.ts` "should handle invalid JSON output gracefully" and
/// `hooks-system.test.ts` "should treat mixed stdout (text + JSON) as
/// system message and allow execution when exit code is 0": broken JSON is
/// never a failure on exit 0 — it is a `systemMessage`.
#[test]
fn broken_or_mixed_json_on_exit_0_is_a_system_message() {
    let out = before_tool(vec![cmd("cat >/dev/null; echo 'debug line'; echo '{\"decision\":\"deny\"}'")]);
    assert_eq!(out["decision"], "continue");
    assert_eq!(texts(&out, "info"), ["debug line\n{\"decision\":\"deny\"}"]);
    assert_eq!(failures(&out), [Value::Null], "no invalid_output failure");
    let out = before_tool(vec![cmd(exits(0, r#"{ "decision": "allow", incomplete"#))]);
    assert_eq!(texts(&out, "info"), [r#"{ "decision": "allow", incomplete"#]);
}

/// `hookRunner.test.ts` "should handle double-encoded JSON string": a JSON
/// string holding JSON is parsed again; JSON that is a number, `true` or
/// `null` is no output.
#[test]
fn double_encoded_json_is_json_and_scalars_are_no_output() {
    let inner = json!({"decision": "deny", "reason": "All bad"}).to_string();
    let out = before_tool(vec![cmd(say(Value::String(inner)))]);
    assert_eq!(out["reason"], "All bad");
    for scalar in ["42", "true", "null"] {
        let out = before_tool(vec![cmd(exits(2, scalar))]);
        assert_eq!(out["decision"], "continue", "{scalar}");
        assert_eq!(out["messages"].as_array().unwrap().len(), 1, "only the failure warning: {out}");
    }
}

// --------------------------------------------------------- JSON fields

/// "Only the top-level field counts — Claude Code's
/// `hookSpecificOutput.permissionDecision` is ignored"; `decision` is
/// compared exactly.
#[test]
fn only_a_top_level_decision_counts() {
    let claude = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "x"}});
    assert_eq!(before_tool(vec![cmd(say(claude))])["decision"], "continue");
    assert_eq!(before_tool(vec![cmd(say(json!({"decision": "Deny"})))])["decision"], "continue", "case-sensitive");
    assert_eq!(before_tool(vec![cmd(say(json!({"decision": "block"})))])["decision"], "deny");
}

/// "allow/none → continue: the policy engine and confirmation run as usual
/// — a hook can never approve a call" — `hooks-system.test.ts` "should
/// allow tool execution when hook returns allow decision".
#[test]
fn allow_and_approve_never_approve_a_tool_call() {
    for d in ["allow", "approve"] {
        let out = before_tool(vec![cmd(say(json!({"decision": d, "reason": "File writing approved"})))]);
        assert_eq!(out["decision"], "continue", "{d}");
        assert_eq!(out["reason"], Value::Null);
    }
}

/// "`continue: false` + `stopReason` … Effective reason = `stopReason ||
/// reason || "No reason provided"`" — `scheduler_hooks.test.ts` "should
/// stop execution if BeforeTool hook requests stop" and `hooks-system.test.ts`
/// "should stop agent execution via BeforeTool hook".
#[test]
fn before_tool_continue_false_denies_and_stops_the_agent() {
    let out = before_tool(vec![cmd(say(json!({"continue": false, "stopReason": "Emergency stop", "reason": "r"})))]);
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["continue"], false);
    assert_eq!(out["stop_reason"], "Emergency stop");
    assert_eq!(out["reason"], "Emergency stop");
    let out = before_tool(vec![cmd(say(json!({"continue": false})))]);
    assert_eq!(out["reason"], "No reason provided");
}

/// `scheduler_hooks.test.ts` "should block tool execution if BeforeTool
/// hook requests block" and `hooks-system.test.ts` "should block tool
/// execution when hook returns block decision".
#[test]
fn before_tool_block_denies_with_its_reason() {
    let out =
        before_tool(vec![cmd(say(json!({"decision": "block", "reason": "File writing blocked by security policy"})))]);
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "File writing blocked by security policy");
    assert_eq!(out["continue"], true);
    assert_eq!(before_tool(vec![cmd(say(json!({"decision": "deny"})))])["reason"], "No reason provided");
}

/// "`ask` → confirmation forced even in YOLO, `systemMessage` shown in the
/// dialog" — `hooks-system.test.ts` "Hooks "ask" Decision Integration".
#[test]
fn before_tool_ask_forces_confirmation_with_the_system_message() {
    let out = before_tool(vec![cmd(say(json!({"decision": "ask", "systemMessage": "Confirm this shell command"})))]);
    assert_eq!(out["decision"], "ask");
    assert_eq!(out["reason"], "Confirm this shell command");
}

/// `scheduler_hooks.test.ts` "should update tool input if BeforeTool hook
/// provides modified input": `{originalParam}` → `{newParam}` only (the
/// arguments are replaced, not merged); `hooks-system.test.ts` "should
/// override tool input parameters via BeforeTool hook".
#[test]
fn before_tool_tool_input_replaces_the_arguments() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeTool",
        all(vec![cmd(say(json!({"hookSpecificOutput": {"tool_input": {"newParam": "modifiedValue"}}})))]),
    ));
    let out = pre(&e, json!({"tool_name": "test_tool", "tool_input": {"originalParam": "originalValue"}}));
    assert_eq!(out["decision"], "continue");
    assert_eq!(out["updated_input"], json!({"newParam": "modifiedValue"}));
}

/// "other `hookSpecificOutput` keys shallow-merged, later wins (so with
/// several rewriting hooks the last `tool_input` wins)"; a later value that
/// is not an object leaves no rewrite.
#[test]
fn the_last_tool_input_wins() {
    let rewrite = |v: Value| cmd(say(json!({"hookSpecificOutput": {"tool_input": v}})));
    let out = before_tool(vec![rewrite(json!({"a": 1})), cmd("cat >/dev/null"), rewrite(json!({"b": 2}))]);
    assert_eq!(out["updated_input"], json!({"b": 2}));
    let out = before_tool(vec![rewrite(json!({"a": 1})), rewrite(json!("not an object"))]);
    assert_eq!(out["updated_input"], Value::Null);
}

/// "`hookSpecificOutput.additionalContext` | string; `<` and `>` are
/// HTML-escaped before use" — `hooks-system.test.ts` "should add additional
/// context from AfterTool hooks".
#[test]
fn after_tool_additional_context_is_escaped_and_collected() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "AfterTool",
        all(vec![
            cmd(say(json!({"hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": "Security scan: <b>File</b> is safe"}}))),
            cmd(say(json!({"hookSpecificOutput": {"additionalContext": ["arrays", "do not count"]}}))),
            cmd(say(json!({"additional_context": "top-level does not count"}))),
        ]),
    ));
    let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "read_file", "tool_response": {}}));
    assert_eq!(out["additional_context"], json!(["Security scan: &lt;b&gt;File&lt;/b&gt; is safe"]));
    assert_eq!(out["block_reason"], Value::Null);
}

/// "AfterTool … block → result **replaced** by `Tool result blocked: <r>`";
/// `continue: false` → "result replaced by `Agent execution stopped by
/// hook`" and the agent stops.
#[test]
fn after_tool_block_replaces_the_tool_result() {
    let ws = Ws::new();
    let e =
        ws.engine(settings("AfterTool", all(vec![cmd(say(json!({"decision": "deny", "reason": "leaks a token"})))])));
    let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "read_file", "tool_response": {}}));
    assert_eq!(out["block_reason"], "leaks a token");
    assert_eq!(out["block_replaces_result"], true);
    let e = ws.engine(settings("AfterTool", all(vec![cmd(say(json!({"continue": false, "stopReason": "halt"})))])));
    let out = run(&e, HookEvent::PostToolUseFailure, json!({"tool_name": "read_file", "error": "x"}));
    assert_eq!((out["continue"].clone(), out["stop_reason"].clone()), (json!(false), json!("halt")));
    assert_eq!(out["block_replaces_result"], true);
}

/// `hooks-system.test.ts` "should execute a tail tool call from AfterTool
/// hooks and replace original response": `tailToolCallRequest` is Gemini's
/// own, under `dialect_fields.gemini`; the tool it names is canonical in
/// the outcome (`read_file` is `Read`), as Gemini CLI's name with
/// `tool_names: "native"`.
#[test]
fn after_tool_tail_tool_call_request_is_a_dialect_field() {
    let ws = Ws::new();
    let tail = json!({"name": "read_file", "args": {"file_path": "b.txt", "start_line": 3}});
    let hooks =
        settings("AfterTool", all(vec![cmd(say(json!({"hookSpecificOutput": {"tailToolCallRequest": tail}})))]));
    let e = ws.engine(hooks.clone());
    let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "read_file", "tool_response": {}}));
    let canonical = json!({"name": "Read", "args": {"file_path": "b.txt", "offset": 3}});
    assert_eq!(out["dialect_fields"], json!({"gemini": {"tailToolCallRequest": canonical}}));
    let native = ws.engine_with(json!({"dialect": "gemini", "hooks": hooks, "tool_names": "native"}));
    let out = run(&native, HookEvent::PostToolUse, json!({"tool_name": "read_file", "tool_response": {}}));
    assert_eq!(out["dialect_fields"], json!({"gemini": {"tailToolCallRequest": tail}}));
    assert!(out.get("block_replaces_result").is_none(), "serialised only when true");
}

/// `suppressOutput` "hides the system message in logs": the message still
/// reaches the user (Gemini CLI emits every hook's `systemMessage`).
#[test]
fn suppress_output_does_not_hide_the_system_message() {
    let out = before_tool(vec![cmd(say(json!({"systemMessage": "visible", "suppressOutput": true})))]);
    assert_eq!(texts(&out, "info"), ["visible"]);
}

// -------------------------------------------------- aggregation (§5.3)

/// `hookAggregator.test.ts` "should handle blocking decisions with OR
/// logic": any block wins; "block beats ask in any order".
#[test]
fn a_block_wins_over_ask_in_any_order() {
    let d = |d: &str, r: &str| cmd(say(json!({"decision": d, "reason": r})));
    for hooks in [vec![d("ask", "a"), d("block", "b")], vec![d("block", "b"), d("ask", "a")]] {
        let out = before_tool(hooks);
        assert_eq!(out["decision"], "deny");
    }
    assert_eq!(before_tool(vec![d("allow", "x"), d("ask", "a")])["decision"], "ask");
}

/// "`reason` = every hook's reason joined with `\n` in order — an allowing
/// hook's reason ends up in the deny text (`"Hook 1 allowed\nHook 2
/// blocked"`)".
#[test]
fn every_reason_is_joined_into_the_deny_reason() {
    let out = before_tool(vec![
        cmd(say(json!({"decision": "allow", "reason": "Hook 1 allowed"}))),
        cmd(say(json!({"decision": "block", "reason": "Hook 2 blocked"}))),
    ]);
    assert_eq!(out["reason"], "Hook 1 allowed\nHook 2 blocked");
}

/// `hookAggregator.test.ts` "should handle continue=false with precedence":
/// `continue` is false if any hook says so; `stopReason` is every stop
/// reason joined, and it comes before the reasons.
#[test]
fn stop_reasons_are_joined_and_come_first() {
    let out = before_tool(vec![
        cmd(say(json!({"decision": "block", "reason": "blocked"}))),
        cmd(say(json!({"continue": false, "stopReason": "stop one"}))),
        cmd(say(json!({"continue": false, "stopReason": "stop two"}))),
    ]);
    assert_eq!(out["continue"], false);
    assert_eq!(out["stop_reason"], "stop one\nstop two");
    assert_eq!(out["reason"], "stop one\nstop two");
}

/// "`continue` = false if any; `stopReason` = all stop reasons joined" —
/// the aggregator collects a hook's `stopReason` only when that hook said
/// `continue: false`; a block's effective reason is then "`stopReason ||
/// reason || "No reason provided"`".
#[test]
fn a_stop_reason_without_continue_false_is_not_a_reason() {
    let out = before_tool(vec![cmd(say(json!({"decision": "deny", "stopReason": "S"})))]);
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("deny"), json!("No reason provided")));
    assert_eq!(out["continue"], true);
    let ws = Ws::new();
    let e = ws.engine(settings("AfterAgent", all(vec![cmd(say(json!({"decision": "block", "stopReason": "S"})))])));
    assert_eq!(run(&e, HookEvent::Stop, json!({"prompt": "p"}))["block_reason"], "No reason provided");
    let e = ws.engine(settings("AfterTool", all(vec![cmd(say(json!({"decision": "block", "stopReason": "S"})))])));
    let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "read_file", "tool_input": {}}));
    assert_eq!(out["block_reason"], "No reason provided");
}

/// `hookAggregator.test.ts` "should use field replacement strategy"
/// (BeforeModel, AfterModel): later fields win, `decision` included — a
/// later allow undoes an earlier block, and a later `continue: true` an
/// earlier `continue: false`.
#[test]
fn before_model_fields_are_replaced_by_later_hooks() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeModel",
        all(vec![
            cmd(say(json!({"decision": "block", "reason": "first", "continue": false, "hookSpecificOutput": {"llm_request": {"model": "a"}}}))),
            cmd(say(json!({"decision": "allow", "continue": true, "hookSpecificOutput": {"llm_request": {"model": "b"}}}))),
        ]),
    ));
    let out = named(&e, "BeforeModel", json!({"llm_request": {"model": "m", "messages": []}}));
    assert_eq!(out["continue"], true);
    assert_eq!(out["decision"], "continue", "the later allow undid the block: {out}");
    assert_eq!(
        out["dialect_fields"]["gemini"],
        json!({"gemini_decision": "allow", "reason": "first", "llm_request": {"model": "b"}})
    );
    // The other way round, the later block stands.
    let e = ws.engine(settings(
        "BeforeModel",
        all(vec![cmd(say(json!({"decision": "allow"}))), cmd(say(json!({"decision": "block", "reason": "second"})))]),
    ));
    let out = named(&e, "BeforeModel", json!({"llm_request": {"model": "m", "messages": []}}));
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("deny"), json!("second")));
}

/// `hookAggregator.test.ts` "should merge tool configurations with NONE
/// mode precedence", "… with ANY mode", "… with AUTO mode when all are
/// AUTO": any NONE → `{NONE, []}`; else ANY if any; else AUTO; function
/// names are the sorted union ("hooks can only add tools").
#[test]
fn before_tool_selection_merges_tool_configs() {
    let tc = |mode: &str, names: &[&str]| {
        cmd(say(
            json!({"hookSpecificOutput": {"hookEventName": "BeforeToolSelection", "toolConfig": {"mode": mode, "allowedFunctionNames": names}}}),
        ))
    };
    let merged = |hooks: Vec<Value>| {
        let ws = Ws::new();
        let e = ws.engine(settings("BeforeToolSelection", all(hooks)));
        named(&e, "BeforeToolSelection", json!({"llm_request": {}}))["dialect_fields"]["gemini"]["toolConfig"].clone()
    };
    assert_eq!(
        merged(vec![tc("ANY", &["b"]), tc("NONE", &["a"])]),
        json!({"mode": "NONE", "allowedFunctionNames": []})
    );
    assert_eq!(
        merged(vec![tc("AUTO", &["read_file", "glob"]), tc("ANY", &["write_file", "glob"])]),
        json!({"mode": "ANY", "allowedFunctionNames": ["glob", "read_file", "write_file"]})
    );
    assert_eq!(
        merged(vec![tc("AUTO", &["z"]), tc("AUTO", &["a"])]),
        json!({"mode": "AUTO", "allowedFunctionNames": ["a", "z"]})
    );
    // Any output counts, one without a toolConfig as AUTO without functions.
    assert_eq!(merged(vec![cmd(exits(0, "hello"))]), json!({"mode": "AUTO", "allowedFunctionNames": []}));
}

/// `hookAggregator.test.ts` "should extract additional context from hook
/// outputs": every hook's context, in order (Gemini CLI joins them with
/// `\n`).
#[test]
fn additional_context_of_every_hook_is_kept_in_order() {
    let ws = Ws::new();
    let ctx = |c: &str| cmd(say(json!({"hookSpecificOutput": {"additionalContext": c}})));
    let e = ws.engine(settings("BeforeAgent", all(vec![ctx("one"), ctx("two")])));
    assert_eq!(
        run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "p"}))["additional_context"],
        json!(["one", "two"])
    );
}

// ----------------------------------------------- event effects (§5.4)

/// "BeforeAgent: `continue:false` → turn stopped, prompt kept in history
/// (prompt blocked + `continue:false`); block → turn blocked, prompt
/// discarded; `ask` ignored".
#[test]
fn before_agent_blocks_the_prompt_and_ignores_ask() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeAgent",
        all(vec![cmd(say(json!({"decision": "deny", "reason": "no secrets in prompts"})))]),
    ));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "my password is hunter2"}));
    assert_eq!(
        (out["allow_prompt"].clone(), out["block_reason"].clone()),
        (json!(false), json!("no secrets in prompts"))
    );
    assert_eq!(out["continue"], true);
    let e = ws.engine(settings("BeforeAgent", all(vec![cmd(say(json!({"continue": false, "stopReason": "quota"})))])));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "p"}));
    assert_eq!(
        (out["allow_prompt"].clone(), out["continue"].clone(), out["stop_reason"].clone()),
        (json!(false), json!(false), json!("quota"))
    );
    let e = ws.engine(settings("BeforeAgent", all(vec![cmd(say(json!({"decision": "ask"})))])));
    assert_eq!(run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "p"}))["allow_prompt"], true);
}

/// "AfterAgent: block → response rejected, **reason sent as the next
/// prompt** with `stop_hook_active:true` (`block_reason`)"; `continue:false`
/// stops the turn instead (no retry) and `clearContext` is honoured in both.
#[test]
fn after_agent_deny_reprompts_and_continue_false_stops() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "AfterAgent",
        all(vec![cmd(say(
            json!({"decision": "deny", "reason": "Please run the tests", "hookSpecificOutput": {"clearContext": true}}),
        ))]),
    ));
    let out = run(&e, HookEvent::Stop, json!({"last_assistant_message": "done", "stop_hook_active": false}));
    assert_eq!(out["block_reason"], "Please run the tests");
    assert_eq!(out["dialect_fields"], json!({"gemini": {"clearContext": true}}));
    let e = ws.engine(settings(
        "AfterAgent",
        all(vec![
            cmd(say(json!({"decision": "block", "reason": "retry"}))),
            cmd(say(json!({"continue": false, "stopReason": "enough", "clearContext": true}))),
        ]),
    ));
    let out = run(&e, HookEvent::Stop, json!({"last_assistant_message": "done"}));
    assert_eq!(out["block_reason"], Value::Null, "continue:false stops instead of retrying");
    assert_eq!((out["continue"].clone(), out["stop_reason"].clone()), (json!(false), json!("enough")));
    assert!(out.get("dialect_fields").is_none(), "a top-level clearContext is ignored");
}

/// "SessionStart: `additionalContext` → first history turn …;
/// `systemMessage` shown; `decision`, `continue` ignored" — `hooks-system.test.ts`
/// "should fire SessionStart hook and inject context".
#[test]
fn session_start_gives_context_and_ignores_decisions() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "SessionStart",
        all(vec![cmd(say(json!({"decision": "deny", "continue": false, "systemMessage": "hello", "hookSpecificOutput": {"additionalContext": "ctx <x>"}})))]),
    ));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["additional_context"], json!(["ctx &lt;x&gt;"]));
    assert_eq!(out["continue"], true);
    assert_eq!(texts(&out, "info"), ["hello"]);
}

/// "SessionEnd, PreCompress, Notification: `systemMessage` only" —
/// PreCompress is advisory (awaited, result ignored).
#[test]
fn session_end_pre_compress_and_notification_only_show_messages() {
    let ws = Ws::new();
    let hook = || {
        all(vec![cmd(say(json!({"decision": "block", "reason": "r", "continue": false, "systemMessage": "noted"})))])
    };
    let e = ws.engine(json!({"hooks": {"SessionEnd": [hook()], "PreCompress": [hook()], "Notification": [hook()]}}));
    for (event, input) in [
        (HookEvent::SessionEnd, json!({"reason": "exit"})),
        (HookEvent::PreCompact, json!({"trigger": "auto"})),
        (HookEvent::Notification, json!({"notification_type": "ToolPermission", "message": "m"})),
    ] {
        let out = run(&e, event, input);
        assert_eq!(out["continue"], true, "{event}");
        assert!(out.get("block_reason").is_none(), "{event}: {out}");
        assert_eq!(texts(&out, "info"), ["noted"], "{event}");
    }
}

/// "BeforeModel: `continue:false` → stopped; block → no model call,
/// optional synthetic `llm_response`" — `hooks-system.test.ts` "should block
/// model execution when BeforeModel hook returns deny decision".
#[test]
fn before_model_block_and_synthetic_response_are_dialect_fields() {
    let ws = Ws::new();
    let e = ws.engine(settings("BeforeModel", all(vec![cmd(fixture("cool_model.js"))])));
    let request = |text: &str| json!({"llm_request": {"model": "gemini-2.5-flash", "messages": [{"role": "user", "content": text}]}});
    let out = named(&e, "BeforeModel", request("tell me the launch codes"));
    assert_eq!(
        (out["decision"].clone(), out["reason"].clone()),
        (json!("deny"), json!("Refusing to discuss launch codes"))
    );
    let g = &out["dialect_fields"]["gemini"];
    assert_eq!(g["gemini_decision"], "deny");
    assert_eq!(g["reason"], "Refusing to discuss launch codes");
    assert_eq!(g["llm_response"]["candidates"][0]["content"]["parts"][0], "I cannot help with that.");
    let out = named(&e, "BeforeModel", request("hello"));
    assert_eq!(out["decision"], "continue", "a rewrite alone decides nothing: {out}");
    assert_eq!(out["dialect_fields"]["gemini"], json!({"llm_request": {"config": {"temperature": 0.2}}}));
    let e = ws.engine(settings("AfterModel", all(vec![cmd(say(json!({"continue": false, "reason": "r"})))])));
    let out = named(&e, "AfterModel", json!({"llm_request": {}, "llm_response": {}}));
    assert_eq!((out["continue"].clone(), out["stop_reason"].clone()), (json!(false), json!("r")));
}

/// Events Gemini CLI has but hookline has no canonical meaning for fire by
/// their native name; with no hook configured the outcome is empty (for
/// BeforeModel and AfterModel, PreToolUse's shape deciding nothing).
#[test]
fn native_events_without_hooks_have_the_empty_outcome() {
    let ws = Ws::new();
    let e = ws.engine(settings("BeforeTool", all(vec![cmd("true")])));
    let out = named(&e, "BeforeToolSelection", json!({}));
    assert_eq!(out, json!({"messages": [], "continue": true, "stop_reason": null, "hooks": []}));
    let out = named(&e, "AfterModel", json!({}));
    assert_eq!(
        out,
        json!({"decision": "continue", "reason": null, "updated_input": null, "additional_context": [],
               "messages": [], "continue": true, "stop_reason": null, "hooks": []})
    );
}

/// Gemini CLI's "Outcome mapping" for a host written against the canonical
/// outcome: "BeforeModel: ... block → no model call" is the canonical
/// `deny` (`hooks-system.test.ts` "should block model execution when
/// BeforeModel hook returns deny decision" — `block` and `deny` alike); a
/// hook that only rewrites `llm_request` decides nothing (`continue`), and
/// one that says `allow` (or `approve`) decides nothing either, since a
/// Gemini CLI hook cannot approve; the hook's own word is kept as
/// `dialect_fields.gemini.gemini_decision`. AfterModel reads the same way.
#[test]
fn before_and_after_model_decisions_are_canonical() {
    let ws = Ws::new();
    for (answer, decision, reason, raw) in [
        (json!({"decision": "block"}), "deny", json!("No reason provided"), json!("block")),
        (json!({"decision": "deny", "reason": "r"}), "deny", json!("r"), json!("deny")),
        (json!({"decision": "allow"}), "continue", Value::Null, json!("allow")),
        (json!({"decision": "approve"}), "continue", Value::Null, json!("approve")),
        (json!({"hookSpecificOutput": {"llm_request": {"model": "x"}}}), "continue", Value::Null, Value::Null),
    ] {
        for event in ["BeforeModel", "AfterModel"] {
            let e = ws.engine(settings(event, all(vec![cmd(say(answer.clone()))])));
            let out = named(&e, event, json!({"llm_request": {"model": "m"}, "llm_response": {}}));
            assert_eq!(
                (out["decision"].clone(), out["reason"].clone()),
                (json!(decision), reason.clone()),
                "{event} {answer}: {out}"
            );
            assert_eq!(out["dialect_fields"]["gemini"]["gemini_decision"], raw, "{event} {answer}: {out}");
        }
    }
}

// --------------------------------------------- hooks as users write them

/// The Gemini CLI hooks guide's BeforeTool guard (bash + jq, JSON on
/// stdout) blocks `rm -rf` and lets everything else through to the
/// agent's own policy.
#[test]
fn a_bash_jq_guard_blocks_destructive_shell_commands() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeTool",
        json!({"matcher": "run_shell_command", "hooks": [cmd(fixture("block_rm.sh"))]}),
    ));
    let out = pre(&e, shell_input("rm -rf /tmp/x"));
    assert_eq!(
        (out["decision"].clone(), out["reason"].clone()),
        (json!("deny"), json!("Destructive command blocked: rm -rf /tmp/x"))
    );
    assert_eq!(pre(&e, shell_input("ls"))["decision"], "continue");
}

/// A guard without jq that explains itself on stderr and exits 2.
#[test]
fn a_grep_guard_exiting_2_denies_with_its_stderr() {
    let ws = Ws::new();
    let e =
        ws.engine(settings("BeforeTool", json!({"matcher": "write_file", "hooks": [cmd(fixture("grep_guard.sh"))]})));
    let out = pre(&e, json!({"tool_name": "write_file", "tool_input": {"file_path": "prod.env", "content": "x"}}));
    assert_eq!(
        (out["decision"].clone(), out["reason"].clone()),
        (json!("deny"), json!("Writing .env files is not allowed"))
    );
    assert_eq!(
        pre(&e, json!({"tool_name": "write_file", "tool_input": {"file_path": "a.txt"}}))["decision"],
        "continue"
    );
}

/// A Python secret scanner on `write_file|replace`.
#[test]
fn a_python_secret_scanner_denies_writes_with_keys() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeTool",
        json!({"matcher": "write_file|replace", "hooks": [cmd(fixture("secret_scan.py"))]}),
    ));
    let out = pre(&e, json!({"tool_name": "replace", "tool_input": {"new_string": "key = AKIAABCDEFGHIJKLMNOP"}}));
    assert_eq!(out["decision"], "deny");
    assert_eq!(out["reason"], "Security policy: the content contains an AWS access key");
    assert_eq!(texts(&out, "info"), ["Secret scanner blocked a write"]);
}

/// A Node BeforeAgent hook adds context to the prompt — `hooks-agent-flow.test.ts`
/// "should inject additional context via BeforeAgent hook".
#[test]
fn a_node_hook_adds_escaped_context_to_the_prompt() {
    let ws = Ws::new();
    let e = ws.engine(settings("BeforeAgent", all(vec![cmd(fixture("git_context.js"))])));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "fix the build"}));
    let name = std::fs::canonicalize(ws.path()).unwrap().file_name().unwrap().to_str().unwrap().to_owned();
    assert_eq!(out["additional_context"], json!([format!("Project {name} &lt;main&gt; for: fix the build")]));
}

/// A Python AfterAgent gate re-prompts once, then lets the agent stop
/// (`stop_hook_active` on the retry).
#[test]
fn a_python_after_agent_gate_reprompts_until_the_retry() {
    let ws = Ws::new();
    let e = ws.engine(settings("AfterAgent", all(vec![cmd(fixture("finish_todos.py"))])));
    let out =
        run(&e, HookEvent::Stop, json!({"last_assistant_message": "Done. TODO: tests", "stop_hook_active": false}));
    assert_eq!(out["block_reason"], "Finish the TODO items before you stop");
    let out =
        run(&e, HookEvent::Stop, json!({"last_assistant_message": "Done. TODO: tests", "stop_hook_active": true}));
    assert_eq!(out["block_reason"], Value::Null);
}

/// A Python BeforeToolSelection hook restricts the model to read-only tools.
#[test]
fn a_python_tool_selection_hook_restricts_tools() {
    let ws = Ws::new();
    let e = ws.engine(settings("BeforeToolSelection", all(vec![cmd(fixture("read_only_tools.py"))])));
    let out = named(&e, "BeforeToolSelection", json!({"llm_request": {"model": "m", "messages": []}}));
    assert_eq!(
        out["dialect_fields"]["gemini"]["toolConfig"],
        json!({"mode": "ANY", "allowedFunctionNames": ["glob", "read_file"]})
    );
}

/// A bash SessionStart hook gives context and a message.
#[test]
fn a_bash_session_start_hook_gives_context() {
    let ws = Ws::new();
    let e = ws.engine_with(json!({"dialect": "gemini", "trigger": "resume",
        "hooks": settings("SessionStart", json!({"matcher": "resume", "hooks": [cmd(fixture("session_context.sh"))]}))}));
    let out = run(&e, HookEvent::SessionStart, json!({}));
    assert_eq!(out["additional_context"], json!(["Notes for &lt;resume&gt; start"]));
    assert_eq!(texts(&out, "info"), ["session resume"]);
}

// ------------------------------------ files, the digest, mixed sources

/// Recognition by path: `…/.gemini/settings.json` (user or workspace), the
/// system files, an extension's `hooks/hooks.json`; a Claude Code plugin's
/// `hooks/hooks.json` elsewhere stays Claude Code's.
#[test]
fn gemini_files_are_recognised_by_path() {
    let name = |p: &str| hookline::dialect::for_path(Path::new(p)).map(|d| d.name());
    assert_eq!(name("/p/.gemini/settings.json"), Some("gemini"));
    assert_eq!(name("/home/u/.gemini/settings.json"), Some("gemini"));
    assert_eq!(name("/etc/gemini-cli/settings.json"), Some("gemini"));
    assert_eq!(name("/etc/gemini-cli/system-defaults.json"), Some("gemini"));
    assert_eq!(name("/Library/Application Support/GeminiCli/settings.json"), Some("gemini"));
    assert_eq!(name("/home/u/.gemini/extensions/guard/hooks/hooks.json"), Some("gemini"));
    assert_eq!(name("/plugins/guard/hooks/hooks.json"), Some("claude"));
    assert_eq!(name("/p/.gemini/system-defaults.json"), None);
    assert_eq!(name("/p/settings.json"), None);
    assert_eq!(hookline::dialect::project_dir_of(Path::new("/p/.gemini/settings.json")), Path::new("/p"));
}

/// A `hooks_file` at `.gemini/settings.json` is read as Gemini CLI's
/// without the `dialect` option.
#[test]
fn a_settings_file_at_its_place_needs_no_dialect_option() {
    let ws = Ws::new();
    let path = ws
        .settings_file(&settings("BeforeTool", all(vec![cmd(say(json!({"decision": "deny", "reason": "by path"})))])));
    let e = ws.engine_with(json!({"hooks_file": path}));
    assert_eq!(pre(&e, shell_input("ls"))["reason"], "by path");
}

/// Digest lines of Gemini hooks name the dialect and their timeout in
/// milliseconds; VT Code's and Claude Code's lines stay as they were.
#[test]
fn digest_lines_name_the_dialect_and_timeouts_in_milliseconds() {
    let ws = Ws::new();
    let e = ws.engine(settings(
        "BeforeTool",
        json!({"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "./guard.sh", "timeout": 5000}
        ]}),
    ));
    let previews = serde_json::to_value(e.command_previews()).unwrap();
    assert_eq!(
        previews,
        json!([{"type": "command", "dialect": "gemini", "event": "pre_tool_use", "matcher": "run_shell_command",
                "command": "./guard.sh", "timeout_seconds": null, "timeout_ms": 5000, "pins": [],
                "env": {"inherit": true, "scrub": [], "set": []}}])
    );
    let claude = ws.engine_with(json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 10}]}]}}));
    assert_eq!(claude.command_digest(), "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89");
}

/// One engine with a Gemini CLI source and a Claude Code source: each hook
/// reads its own payload and is read by its own dialect; the most
/// restrictive decision wins.
#[test]
fn gemini_and_claude_sources_work_in_one_engine() {
    let ws = Ws::new();
    let gemini = json!({"dialect": "gemini", "hooks": settings("BeforeTool", all(vec![
        cmd("cat > gemini.json; echo '{\"decision\":\"ask\",\"systemMessage\":\"gemini asks\"}'")
    ]))});
    let claude = json!({"hooks": {"PreToolUse": [{"hooks": [cmd(
        "cat > claude.json; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'"
    )]}]}});
    let e = ws.engine_with(json!({"hook_sources": [gemini, claude]}));
    let out = pre(&e, shell_input("ls"));
    assert_eq!(out["decision"], "ask", "{out}");
    assert_eq!(ws.json("gemini.json")["hook_event_name"], "BeforeTool");
    assert_eq!(ws.json("claude.json")["hook_event_name"], "PreToolUse");
    assert!(ws.json("gemini.json").get("timestamp").is_some() && ws.json("claude.json").get("timestamp").is_none());
    let e = ws.engine_with(json!({"hook_sources": [
        {"dialect": "gemini", "hooks": settings("BeforeTool", all(vec![cmd(exits(2, "gemini denies"))]))},
        {"hooks": {"PreToolUse": [{"hooks": [cmd(exits(0, ""))]}]}}
    ]}));
    let out = pre(&e, shell_input("ls"));
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("deny"), json!("gemini denies")));
}

/// The `dialect` option names Gemini CLI; an unknown name lists the valid
/// ones.
#[test]
fn the_dialect_option_accepts_gemini() {
    let ws = Ws::new();
    let err = LifecycleHookEngine::from_options_json(&ws.options(json!({"dialect": "gemni", "hooks": {}})).to_string())
        .unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    assert!(err.message.contains("gemini"), "{}", err.message);
    // Without the option, Gemini keys in an inline config are read by shape
    // (as Claude Code named events): the option is how a host says so.
    let e = ws.engine_with(json!({"hooks": settings("BeforeTool", all(vec![cmd("true")]))}));
    assert!(pre(&e, shell_input("ls"))["hooks"].as_array().unwrap().is_empty());
}

/// Canonical events fire from `hl_engine_run`; their Gemini CLI names fired
/// with `hl_engine_run_named` run the same event (`BeforeTool` is
/// PreToolUse, `AfterTool` PostToolUse), with its rules.
#[test]
fn gemini_names_of_canonical_events_fire_them_by_name() {
    let ws = Ws::new();
    let e = ws.engine(json!({"hooks": {
        "BeforeTool": [{"hooks": [cmd(say(json!({"decision": "deny", "reason": "by name"})))]}],
        "AfterTool": [{"hooks": [cmd(say(json!({"decision": "block", "reason": "after"})))]}]
    }}));
    let out = named(&e, "BeforeTool", shell_input("ls"));
    assert_eq!((out["decision"].clone(), out["reason"].clone()), (json!("deny"), json!("by name")));
    let out = named(&e, "AfterTool", json!({"tool_name": "glob", "tool_response": {}}));
    assert_eq!(out["block_reason"], "after");
    let err = e.run_named_blocking("BeforeTool", &json!({})).unwrap_err();
    assert!(err.message.contains("tool_name"), "validated as PreToolUse: {}", err.message);
}

// ------------------------------------------------ review: vendor fixes

/// "BeforeTool | `continue:false` → tool not run …; block → tool not run,
/// model gets `Tool execution blocked: <r>` (**deny**, `reason`); … `tool_input`
/// → rebuilt invocation (`updated_input`)": a denied call is never rebuilt,
/// so a deny (by any hook) or a halt leaves no `updated_input`; an `ask`
/// keeps it.
#[test]
fn a_denied_before_tool_call_keeps_no_rewrite() {
    let rewrite = json!({"hookSpecificOutput": {"tool_input": {"command": "ls -la"}}});
    let out = before_tool(vec![cmd(say(rewrite.clone())), cmd(say(json!({"decision": "deny", "reason": "no"})))]);
    assert_eq!((out["decision"].clone(), out["updated_input"].clone()), (json!("deny"), Value::Null));
    let out = before_tool(vec![cmd(say(json!({"decision": "block", "hookSpecificOutput": {"tool_input": {"a": 1}}})))]);
    assert_eq!((out["decision"].clone(), out["updated_input"].clone()), (json!("deny"), Value::Null));
    let out = before_tool(vec![cmd(say(json!({"continue": false, "hookSpecificOutput": {"tool_input": {"a": 1}}})))]);
    assert_eq!((out["decision"].clone(), out["updated_input"].clone()), (json!("deny"), Value::Null));
    let out = before_tool(vec![cmd(say(rewrite)), cmd(say(json!({"decision": "ask"})))]);
    assert_eq!((out["decision"].clone(), out["updated_input"].clone()), (json!("ask"), json!({"command": "ls -la"})));
}

/// AfterTool: "block → result **replaced** by `Tool result blocked: <r>`" —
/// the context another hook gave is not appended to a result that is
/// replaced; BeforeAgent: "block → turn blocked, prompt discarded" — the
/// context that would be appended to the prompt goes with it.
#[test]
fn a_blocked_after_tool_or_before_agent_run_keeps_no_context() {
    let ws = Ws::new();
    let context = cmd(say(json!({"hookSpecificOutput": {"additionalContext": "note"}})));
    let block = cmd(say(json!({"decision": "block", "reason": "secret"})));
    let halt = cmd(say(json!({"continue": false, "hookSpecificOutput": {"additionalContext": "own"}})));
    let e = ws.engine(settings("AfterTool", all(vec![context.clone(), block.clone()])));
    let out = run(&e, HookEvent::PostToolUse, json!({"tool_name": "read_file", "tool_response": {}}));
    assert_eq!((out["block_reason"].clone(), out["additional_context"].clone()), (json!("secret"), json!([])));
    let e = ws.engine(settings("AfterTool", all(vec![halt.clone(), context.clone()])));
    let out = run(&e, HookEvent::PostToolUseFailure, json!({"tool_name": "read_file", "error": "x"}));
    assert_eq!((out["continue"].clone(), out["additional_context"].clone()), (json!(false), json!([])));
    let e = ws.engine(settings("BeforeAgent", all(vec![context.clone(), block])));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "p"}));
    assert_eq!((out["allow_prompt"].clone(), out["additional_context"].clone()), (json!(false), json!([])));
    let e = ws.engine(settings("BeforeAgent", all(vec![halt])));
    let out = run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "p"}));
    assert_eq!((out["allow_prompt"].clone(), out["additional_context"].clone()), (json!(false), json!([])));
    // Unblocked, the context is kept.
    let e = ws.engine(settings("BeforeAgent", all(vec![context])));
    assert_eq!(run(&e, HookEvent::UserPromptSubmit, json!({"prompt": "p"}))["additional_context"], json!(["note"]));
}

/// "`hookSpecificOutput.tailToolCallRequest` `{name, args}` | AfterTool: run
/// that tool next" is read only after the block check (a blocked result is
/// replaced, no tail call follows); "other `hookSpecificOutput` keys
/// shallow-merged, **later wins**" — the last hook's request counts, any
/// object is one, and a later value that is not an object leaves none.
#[test]
fn tail_tool_call_requests_follow_gemini_s_merge_and_block() {
    let ws = Ws::new();
    let tail = |v: Value| cmd(say(json!({"hookSpecificOutput": {"tailToolCallRequest": v}})));
    let after = |hooks: Vec<Value>| {
        let e = ws.engine(settings("AfterTool", all(hooks)));
        run(&e, HookEvent::PostToolUse, json!({"tool_name": "read_file", "tool_response": {}}))
    };
    let first = json!({"name": "read_file", "args": {"file_path": "a"}});
    let second = json!({"name": "glob", "args": {}});
    let out = after(vec![tail(first.clone()), tail(second.clone()), cmd("cat >/dev/null")]);
    let glob = json!({"name": "Glob", "args": {}});
    assert_eq!(out["dialect_fields"]["gemini"]["tailToolCallRequest"], glob, "the last hook's wins, named canonically");
    let out = after(vec![tail(json!({"args": {"x": 1}}))]);
    assert_eq!(out["dialect_fields"]["gemini"]["tailToolCallRequest"], json!({"args": {"x": 1}}), "any object");
    let out = after(vec![tail(first.clone()), tail(Value::Null)]);
    assert!(out["dialect_fields"].get("gemini").is_none(), "{out}");
    let out = after(vec![tail(first.clone()), cmd(say(json!({"decision": "deny", "reason": "r"})))]);
    assert_eq!(out["block_reason"], "r");
    assert!(out["dialect_fields"].get("gemini").is_none(), "a blocked AfterTool requests no tail call: {out}");
    let out = after(vec![tail(first), cmd(say(json!({"continue": false})))]);
    assert!(out["dialect_fields"].get("gemini").is_none(), "{out}");
}

/// Gemini CLI reads its settings files with their comments stripped
/// (`//` and `/* */`, outside strings); the other dialects keep reading
/// plain JSON.
#[test]
fn gemini_settings_files_may_have_comments() {
    let ws = Ws::new();
    let dir = ws.file(".gemini");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("settings.json");
    let text = r#"{
  // project hooks
  "hooks": { /* tools */ "BeforeTool": [
    {"matcher": "run_shell_command", "hooks": [{"type": "command", "description": "ends in \\", // c
      "command": "cat >/dev/null; echo '{\"decision\":\"deny\",\"reason\":\"see http://x/*y*/ \\\"q\\\" //\"}'"}]}
  ]} /* unclosed
"#;
    std::fs::write(&path, text.replace("/* unclosed", "} /* unclosed")).unwrap();
    let e = ws.engine_with(json!({"hooks_file": path}));
    assert_eq!(pre(&e, shell_input("ls"))["reason"], "see http://x/*y*/ \"q\" //", "strings keep `//` and `/*`");
    let claude = ws.file("claude.json");
    std::fs::write(&claude, "{ // no\n \"hooks\": {} }").unwrap();
    let err = LifecycleHookEngine::from_options_json(
        &json!({"workspace": ws.path(), "dialect": "claude", "hooks_file": claude}).to_string(),
    );
    assert!(err.is_err(), "Claude Code settings stay plain JSON");
}

/// "A matcher that does not compile is compared with `===`": a pattern
/// JavaScript's `new RegExp` rejects — Rust's inline flags `(?i)`, its
/// `(?P<name>…)` groups — is an exact tool name too (with a warning),
/// even though this engine's regular expressions would take it; JavaScript
/// groups (`(?:`, lookbehind-free named groups `(?<n>`) stay regexes.
#[test]
fn matchers_javascript_rejects_are_exact_tool_names() {
    let ws = Ws::new();
    let settings = json!({"hooks": {"BeforeTool": [
        {"matcher": "(?i)write_file", "hooks": [cmd("echo flags")]},
        {"matcher": "(?P<t>glob)", "hooks": [cmd("echo python-group")]},
        {"matcher": "(?<t>read)_(?:file)", "hooks": [cmd("echo js-group")]}
    ]}});
    let c = config(settings.clone());
    let w = warnings(&c);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].contains("(?i") && w[1].contains("(?P"), "{w:?}");
    let e = ws.engine(settings);
    let ran = |tool: &str| -> Vec<String> {
        let out = pre(&e, json!({"tool_name": tool, "tool_input": {}}));
        out["hooks"].as_array().unwrap().iter().map(|h| h["command"].as_str().unwrap().to_owned()).collect()
    };
    assert!(ran("WRITE_FILE").is_empty());
    assert!(ran("write_file").is_empty());
    assert_eq!(ran("(?i)write_file"), ["echo flags"]);
    assert!(ran("glob").is_empty());
    assert_eq!(ran("mcp_read_file"), ["echo js-group"]);
}

/// "`JSON.parse(text)` ok" is JavaScript's: a `\u` escape of a lone
/// surrogate is valid JSON there, so such output is read as JSON (the lone
/// surrogate becomes U+FFFD), not as plain text.
#[test]
fn json_with_lone_surrogate_escapes_is_json() {
    let out = before_tool(vec![cmd(say(json!("PLACEHOLDER"))
        .replace("\"PLACEHOLDER\"", r#"{"decision":"deny","reason":"bad \ud800 x \udc00 \ud83d\ude00 \\ud800"}"#))]);
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "bad \u{fffd} x \u{fffd} \u{1f600} \\ud800");
}

/// "`text = stdout.trim() || stderr.trim()`" trims what JavaScript's `trim`
/// does: its whitespace includes the BOM and U+3000 but not U+0085 (NEL), so
/// JSON followed by a NEL is not JSON and on exit 0 is a system message.
#[test]
fn output_is_trimmed_as_javascript_trims() {
    let out = before_tool(vec![cmd("cat >/dev/null; printf '\\xef\\xbb\\xbf{\"decision\":\"deny\"}\\xe3\\x80\\x80'")]);
    assert_eq!(out["decision"], "deny", "{out}");
    let out = before_tool(vec![cmd("cat >/dev/null; printf '{\"decision\":\"deny\"}\\xc2\\x85'")]);
    assert_eq!(out["decision"], "continue", "{out}");
    assert!(texts(&out, "info")[0].starts_with("{\"decision\""), "{out}");
}

/// AfterAgent's "`prompt_response` (accumulated response text)" is a string,
/// never null: the host's `prompt_response` text, else the canonical
/// `last_assistant_message`; when the turn has no text, Gemini CLI's
/// `cumulativeResponse || turn.getResponseText() || '[no response text]'`
/// sends `[no response text]`.
#[test]
fn after_agent_prompt_response_is_always_the_response_text() {
    let ws = Ws::new();
    let e = ws.engine(settings("AfterAgent", all(vec![cmd("cat > payload.json")])));
    run(&e, HookEvent::Stop, json!({"prompt": "p", "prompt_response": "native", "last_assistant_message": "canon"}));
    assert_eq!(ws.json("payload.json")["prompt_response"], "native");
    run(&e, HookEvent::Stop, json!({"prompt": "p", "prompt_response": null, "last_assistant_message": "canon"}));
    assert_eq!(ws.json("payload.json")["prompt_response"], "canon");
    run(&e, HookEvent::Stop, json!({"prompt": "p", "prompt_response": "", "last_assistant_message": "canon"}));
    assert_eq!(ws.json("payload.json")["prompt_response"], "canon", "an empty text is no text");
    run(&e, HookEvent::Stop, json!({"prompt": "p", "last_assistant_message": ""}));
    assert_eq!(ws.json("payload.json")["prompt_response"], "[no response text]");
    run(&e, HookEvent::Stop, json!({"prompt": "p"}));
    assert_eq!(ws.json("payload.json")["prompt_response"], "[no response text]");
    assert_eq!(ws.json("payload.json")["stop_hook_active"], false);
}

/// "settings file is not JSON / not an object | that file contributes `{}`
/// (error shown)": among several sources the broken file is left out and
/// reported, and the other scopes' hooks still run.
#[test]
fn a_broken_settings_file_among_sources_is_left_out_and_the_others_load() {
    let ws = Ws::new();
    let bad = ws.file("bad.json");
    std::fs::write(&bad, "{ \"hooks\": ").unwrap();
    let array = ws.file("array.json");
    std::fs::write(&array, "[1]").unwrap();
    let good =
        ws.settings_file(&settings("BeforeTool", all(vec![cmd(say(json!({"decision": "deny", "reason": "good"})))])));
    let e = ws.engine_with(json!({"hook_sources": [
        {"hooks_file": bad, "dialect": "gemini", "trusted": true},
        {"hooks_file": array, "dialect": "gemini", "trusted": true},
        {"hooks_file": good}
    ]}));
    assert_eq!(pre(&e, shell_input("ls"))["reason"], "good");
    let err = LifecycleHookEngine::from_options_json(
        &json!({"workspace": ws.path(), "dialect": "gemini", "hooks_file": bad}).to_string(),
    );
    assert!(err.is_err(), "a lone broken file is still an error");
}

/// A `settings.json` holds every setting of Gemini CLI; hooks are only its
/// `hooks` ("`hooksConfig` (not `hooks`) holds the switches"): a settings
/// file without hooks configures nothing and warns about nothing.
#[test]
fn a_settings_file_without_hooks_has_no_event_keys() {
    let ws = Ws::new();
    let path = ws.settings_file(&json!({"theme": "GitHub", "general": {"vimMode": true}}));
    let c = HooksConfig::from_file(&path).unwrap();
    assert!(c.is_empty());
    assert!(warnings(&c).is_empty(), "{:?}", warnings(&c));
}
