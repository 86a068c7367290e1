//! The canonical tool vocabulary (`docs/protocol.md`, "Tool names"): a host
//! names tools as Claude Code does, and every hook reads the call in its own
//! agent's name and input shape, is matched on them, and has its rewrites read
//! back into the canonical shape. One workspace holds a Claude Code, a Codex,
//! a Gemini CLI, a Cursor and a Copilot CLI config, each guarding the shell
//! and the write tool by its own agent's names; each guard records the
//! payload it read.
//!
//! The vendors' rules these tests rest on:
//! - Claude Code: tool names `Bash`, `Write`, ...; MCP tools
//!   `mcp__<server>__<tool>` (Claude Code hooks reference, "Matchers").
//! - Codex: "`tool_name` is the canonical Codex name: `Bash` for shell
//!   tools, `apply_patch` for file edits, `spawn_agent`, MCP tools
//!   `mcp__<server>__<tool>`"; "`tool_input` for Bash and apply_patch is
//!   `{"command": <string>}` (apply_patch: the patch text)" (openai/codex
//!   `core/src/tools/hook_names.rs`; Codex hooks docs, PreToolUse).
//! - Gemini CLI: "Tool names are Gemini's: `run_shell_command`,
//!   `write_file`, `replace`, `read_file`, ..." and "MCP tools are
//!   `mcp_<server>_<tool>`" (`base-declarations.ts`, `mcp-tool.ts`);
//!   `hookSpecificOutput.tool_input` "replaces the tool's arguments".
//! - Cursor: the matcher is tested against "the tool type: `Shell`, `Read`,
//!   `Write`, `Grep`, `Delete`, `Task`, `MCP:<tool_name>`" (Cursor hooks
//!   docs, Matcher Configuration); observed Shell input `{command, cwd,
//!   timeout}`; preToolUse may return `updated_input`.
//! - Copilot CLI: "`toolName` (runtime name, e.g. `bash`, `edit`, `create`,
//!   `view`, `mcp-server/tool`), `toolArgs`: the raw tool-call argument
//!   string (a JSON-encoded string, not an object)" (GitHub hooks reference;
//!   Copilot CLI 1.0.63); `create {path, file_text}` (VS Code's Copilot CLI
//!   tool interfaces).

use std::path::PathBuf;

use hookline::{HookEvent, LifecycleHookEngine};
use serde_json::{json, Value};

use crate::support::{run, Ws};

const AGENTS: [&str; 5] = ["claude", "codex", "gemini", "cursor", "copilot"];

/// A guard: it appends the payload it read to `seen/<agent>.jsonl`, denies
/// (exit 2, the reason on stdout and stderr, which every one of these agents
/// reads as a deny) when `deny-<agent>` exists in the workspace, and else
/// prints `answer`.
fn guard(ws: &Ws, agent: &str, answer: &str) -> String {
    let seen = ws.file("seen");
    std::fs::create_dir_all(&seen).unwrap();
    let body = format!(
        "in=$(cat)\nprintf '%s\\n' \"$in\" >> '{seen}/{agent}.jsonl'\nif [ -e '{deny}' ]; then echo '{agent} says no'; \
         echo '{agent} says no' >&2; exit 2; fi\nprintf '%s\\n' '{answer}'\n",
        seen = seen.display(),
        deny = ws.file(&format!("deny-{agent}")).display(),
    );
    ws.script(&format!("{agent}.sh"), &body)
}

/// The five agents' own hooks files, each guarding its shell and write
/// tools (or the tools `matchers` names) by its own names; the paths, in
/// the order they load.
fn workspace(ws: &Ws, matchers: [&str; 5], answers: [&str; 5]) -> Vec<PathBuf> {
    let [claude, codex, gemini, cursor, copilot] = matchers;
    let g = |i: usize| guard(ws, AGENTS[i], answers[i]);
    let hook = |i: usize| json!({"type": "command", "command": g(i)});
    vec![
        ws.write_json(
            ".claude/settings.json",
            &json!({"hooks": {"PreToolUse": [{"matcher": claude, "hooks": [hook(0)]}]}}),
        ),
        ws.write_json(".codex/hooks.json", &json!({"hooks": {"PreToolUse": [{"matcher": codex, "hooks": [hook(1)]}]}})),
        ws.write_json(
            ".gemini/settings.json",
            &json!({"hooks": {"BeforeTool": [{"matcher": gemini, "hooks": [hook(2)]}]}}),
        ),
        ws.write_json(
            ".cursor/hooks.json",
            &json!({"version": 1, "hooks": {"preToolUse": [{"matcher": cursor, "command": g(3)}]}}),
        ),
        ws.write_json(
            ".github/hooks/guard.json",
            &json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": g(4), "matcher": copilot}]}}),
        ),
    ]
}

const SHELL_AND_WRITE: [&str; 5] =
    ["Bash|Write", "Bash|apply_patch", "run_shell_command|write_file", "Shell|Write", "bash|create"];
const SILENT: [&str; 5] = ["", "", "", "{}", ""];

fn engine(ws: &Ws, files: &[PathBuf], extra: Value) -> LifecycleHookEngine {
    let sources: Vec<Value> = files.iter().map(|f| json!({"hooks_file": f, "trusted": true})).collect();
    let mut options = json!({"hook_sources": sources});
    for (k, v) in extra.as_object().unwrap() {
        options[k] = v.clone();
    }
    ws.engine_with(options)
}

/// The payloads `agent`'s guard read, in order.
fn seen(ws: &Ws, agent: &str) -> Vec<Value> {
    ws.read(&format!("seen/{agent}.jsonl")).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn clear_seen(ws: &Ws) {
    let _ = std::fs::remove_dir_all(ws.file("seen"));
    std::fs::create_dir_all(ws.file("seen")).unwrap();
}

/// The tool name and input a payload carries (Copilot CLI's camelCase
/// payload: `toolName`, `toolArgs` parsed from its JSON text).
fn call(payload: &Value) -> (String, Value) {
    match payload.get("toolName") {
        Some(name) => {
            let args = payload["toolArgs"].as_str().expect("toolArgs is a JSON string");
            (name.as_str().unwrap().to_owned(), serde_json::from_str(args).unwrap())
        }
        None => (payload["tool_name"].as_str().unwrap().to_owned(), payload["tool_input"].clone()),
    }
}

/// A canonical Bash call runs every agent's shell guard once; each reads its
/// agent's name and shape.
#[test]
fn a_canonical_bash_call_runs_every_agents_shell_guard_once_in_its_own_vocabulary() {
    let ws = Ws::new();
    let files = workspace(&ws, SHELL_AND_WRITE, SILENT);
    let e = engine(&ws, &files, json!({}));
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "git status"}}));
    assert_eq!(out["decision"], "continue", "{out}");
    assert_eq!(out["hooks"].as_array().unwrap().len(), 5, "{out}");
    let cwd = std::fs::canonicalize(ws.path()).unwrap().display().to_string();
    let expected = [
        ("claude", "Bash", json!({"command": "git status"})),
        ("codex", "Bash", json!({"command": "git status"})),
        ("gemini", "run_shell_command", json!({"command": "git status"})),
        ("cursor", "Shell", json!({"command": "git status", "cwd": cwd})),
        ("copilot", "bash", json!({"command": "git status"})),
    ];
    for (agent, name, input) in expected {
        let payloads = seen(&ws, agent);
        assert_eq!(payloads.len(), 1, "{agent} ran once: {payloads:?}");
        assert_eq!(call(&payloads[0]), (name.to_owned(), input), "{agent}");
    }
}

/// A canonical Write call reaches each write guard as its agent's write
/// tool: Codex's `apply_patch` with the patch, Copilot CLI's `create`.
#[test]
fn a_canonical_write_call_runs_every_agents_write_guard_once_in_its_own_shape() {
    let ws = Ws::new();
    let files = workspace(&ws, SHELL_AND_WRITE, SILENT);
    let e = engine(&ws, &files, json!({}));
    let write = json!({"file_path": "/w/notes.txt", "content": "one\ntwo\n"});
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Write", "tool_input": write}));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 5, "{out}");
    let patch = "*** Begin Patch\n*** Add File: /w/notes.txt\n+one\n+two\n*** End Patch";
    let expected = [
        ("claude", "Write", write.clone()),
        ("codex", "apply_patch", json!({"command": patch})),
        ("gemini", "write_file", write.clone()),
        ("cursor", "Write", write.clone()),
        ("copilot", "create", json!({"path": "/w/notes.txt", "file_text": "one\ntwo\n"})),
    ];
    for (agent, name, input) in expected {
        let payloads = seen(&ws, agent);
        assert_eq!(payloads.len(), 1, "{agent} ran once: {payloads:?}");
        assert_eq!(call(&payloads[0]), (name.to_owned(), input), "{agent}");
    }
}

/// Whichever agent's guard denies, the call is denied with its reason.
#[test]
fn a_deny_from_any_agents_guard_holds() {
    let ws = Ws::new();
    let files = workspace(&ws, SHELL_AND_WRITE, SILENT);
    let e = engine(&ws, &files, json!({}));
    for agent in AGENTS {
        for tool in [
            json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}),
            json!({"tool_name": "Write", "tool_input": {"file_path": "/etc/passwd", "content": "x"}}),
        ] {
            std::fs::write(ws.file(&format!("deny-{agent}")), "").unwrap();
            let out = run(&e, HookEvent::PreToolUse, &tool);
            std::fs::remove_file(ws.file(&format!("deny-{agent}"))).unwrap();
            assert_eq!(out["decision"], "deny", "{agent} denied {tool}: {out}");
            assert!(out["reason"].as_str().unwrap().contains(&format!("{agent} says no")), "{agent}: {out}");
        }
    }
}

/// Rewrites come back in Claude Code's shape: Gemini CLI's `dir_path` is
/// the canonical `cwd`; Cursor's `cwd` (the session's) is dropped; Copilot
/// CLI's `modifiedArgs` `{path, file_text}` is `{file_path, content}`;
/// Codex's patch is a Write again.
#[test]
fn rewrites_come_back_in_the_canonical_shape() {
    let ws = Ws::new();
    let cwd = std::fs::canonicalize(ws.path()).unwrap().display().to_string();
    let gemini = json!({"hookSpecificOutput": {"tool_input": {"command": "ls -la", "dir_path": "/tmp"}}}).to_string();
    let cursor = json!({"permission": "allow", "updated_input": {"command": "ls -la", "cwd": cwd}}).to_string();
    let cases: [(usize, &str, Value, Value); 4] = [
        (
            2,
            "gemini",
            json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}),
            json!({"command": "ls -la", "cwd": "/tmp"}),
        ),
        (3, "cursor", json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}), json!({"command": "ls -la"})),
        (
            4,
            "copilot",
            json!({"tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": "x"}}),
            json!({"file_path": "b.txt", "content": "y"}),
        ),
        (
            1,
            "codex",
            json!({"tool_name": "Write", "tool_input": {"file_path": "a.txt", "content": "x\n"}}),
            json!({"file_path": "c.txt", "content": "z\n"}),
        ),
    ];
    let copilot =
        json!({"permissionDecision": "allow", "modifiedArgs": {"path": "b.txt", "file_text": "y"}}).to_string();
    let codex = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
        "updatedInput": {"command": "*** Begin Patch\n*** Add File: c.txt\n+z\n*** End Patch"}}})
    .to_string();
    for (i, agent, input, want) in cases {
        let mut matchers = ["^$"; 5];
        matchers[i] = SHELL_AND_WRITE[i];
        let mut answers = SILENT;
        let answer = [&codex, &codex, &gemini, &cursor, &copilot][i];
        answers[i] = answer;
        let files = workspace(&ws, matchers, answers);
        let e = engine(&ws, &files[i..=i], json!({}));
        let out = run(&e, HookEvent::PreToolUse, &input);
        assert_eq!(out["updated_input"], want, "{agent}: {out}");
    }
}

/// MCP tools reach each agent in its spelling, and its matcher sees it so.
#[test]
fn mcp_tools_are_spelled_as_each_agent_spells_them() {
    let ws = Ws::new();
    clear_seen(&ws);
    let files = workspace(
        &ws,
        [
            "mcp__github__create_issue",
            "mcp__github__create_issue",
            "^mcp_github_create_issue$",
            "^MCP:create_issue$",
            "github/create_issue",
        ],
        SILENT,
    );
    let e = engine(&ws, &files, json!({}));
    let out =
        run(&e, HookEvent::PreToolUse, json!({"tool_name": "mcp__github__create_issue", "tool_input": {"title": "t"}}));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 5, "{out}");
    let names: Vec<String> = AGENTS.iter().map(|a| call(&seen(&ws, a)[0]).0).collect();
    assert_eq!(
        names,
        [
            "mcp__github__create_issue",
            "mcp__github__create_issue",
            "mcp_github_create_issue",
            "MCP:create_issue",
            "github/create_issue"
        ]
    );
}

/// `tool_names: "native"` keeps the behaviour from before the vocabulary:
/// the host's names reach every hook unchanged (Copilot CLI's dialect has
/// always read Claude Code's names as its runtime names).
#[test]
fn native_tool_names_reach_every_hook_unchanged() {
    let ws = Ws::new();
    let files = workspace(&ws, SHELL_AND_WRITE, SILENT);
    let e = engine(&ws, &files, json!({"tool_names": "native"}));
    let out = run(&e, HookEvent::PreToolUse, json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 3, "Claude Code's, Codex's and Copilot CLI's: {out}");
    assert!(seen(&ws, "gemini").is_empty() && seen(&ws, "cursor").is_empty());
    assert_eq!(call(&seen(&ws, "copilot")[0]).0, "bash");
    // A host that passes one agent's own names reaches that agent's guard.
    let out =
        run(&e, HookEvent::PreToolUse, json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}));
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "{out}");
    assert_eq!(call(&seen(&ws, "gemini")[0]), ("run_shell_command".to_owned(), json!({"command": "ls"})));
    // And canonically too: an unmapped name passes through both ways.
    let canonical = engine(&ws, &files, json!({}));
    let out = run(
        &canonical,
        HookEvent::PreToolUse,
        json!({"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}),
    );
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "{out}");
}

/// `explain` shows what each hook was matched on, in its agent's
/// vocabulary.
#[test]
fn explain_shows_the_call_each_hook_was_matched_on() {
    let ws = Ws::new();
    let files = workspace(&ws, SHELL_AND_WRITE, SILENT);
    let e = engine(&ws, &files, json!({}));
    let plan = e
        .explain("PreToolUse", &json!({"tool_name": "Write", "tool_input": {"file_path": "a", "content": "b"}}))
        .unwrap();
    let names: Vec<(&str, Option<&str>, bool)> =
        plan.iter().map(|p| (p.dialect, p.tool_name.as_deref(), p.matched)).collect();
    assert_eq!(
        names,
        [
            ("claude", Some("Write"), true),
            ("codex", Some("apply_patch"), true),
            ("gemini", Some("write_file"), true),
            ("cursor", Some("Write"), true),
            ("copilot", Some("create"), true),
        ]
    );
    assert_eq!(plan[4].tool_input, Some(json!({"path": "a", "file_text": "b"})));
}

/// The option is checked: anything but its two values is an invalid
/// argument naming it.
#[test]
fn the_tool_names_option_takes_canonical_or_native() {
    let ws = Ws::new();
    let Err(err) = ws.try_engine_with(json!({"tool_names": "claude"})) else { panic!("accepted") };
    assert!(err.message.contains("tool_names"), "{}", err.message);
    assert!(ws.try_engine_with(json!({"tool_names": "canonical"})).is_ok());
}

// ------------------------------------------------ the generated docs table

const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/dialects.md");
const START: &str = "<!-- tool-names: generated by tests/it/tool_vocabulary.rs -->\n";
const END: &str = "<!-- end of tool-names -->\n";

/// The canonical tools, in the order of docs/protocol.md.
const CANONICAL: [&str; 14] = [
    "Bash",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "Task",
    "Agent",
    "NotebookEdit",
    "TodoWrite",
];

fn tool_names_table() -> String {
    use hookline::dialect::{self, Dialect};
    let mut cols: Vec<&'static dyn Dialect> = Vec::new();
    for d in dialect::ALL.iter().copied() {
        if !cols.iter().any(|c| c.name() == d.name()) {
            cols.push(d);
        }
    }
    let mut t = String::from(START);
    t.push_str("\n| canonical |");
    for d in &cols {
        t.push_str(&format!(" {} (`{}`) |", d.title(), d.name()));
    }
    t.push_str("\n|---|");
    t.push_str(&"---|".repeat(cols.len()));
    t.push('\n');
    for name in CANONICAL {
        t.push_str(&format!("| `{name}` |"));
        for d in &cols {
            let v = d.tool_vocabulary();
            let cell = match v.row_of_canonical(name) {
                Some(row) if !row.fields.is_empty() || row.shape.is_some() => {
                    format!("`{}` (input reshaped)", row.native)
                }
                Some(row) => format!("`{}`", row.native),
                None if v.names.is_empty() => format!("`{name}`"),
                None => "—".to_owned(),
            };
            t.push_str(&format!(" {cell} |"));
        }
        t.push('\n');
    }
    t.push_str("| MCP tool |");
    for d in &cols {
        let mcp = d.tool_vocabulary().mcp;
        let spelled = match mcp.separator {
            Some(sep) => format!("`{}<server>{sep}<tool>`", mcp.prefix),
            None => format!("`{}<tool>`", mcp.prefix),
        };
        t.push_str(&format!(" {spelled} |"));
    }
    t.push_str("\n\n");
    t.push_str(END);
    t
}

/// The dialects whose tables this module's tests hold the docs to; the
/// other columns are regenerated with the table but a dialect that changes
/// its table does not fail this test (its own section and tests hold it).
const OWNED: [&str; 7] = ["vtcode", "claude", "codex", "gemini", "cursor", "copilot", "vscode"];

/// The cells of a generated table, by column header.
fn columns_of(table: &str) -> Vec<(String, Vec<String>)> {
    let rows: Vec<Vec<String>> = table
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .map(|l| l.trim_matches('|').split(" | ").map(|c| c.trim().to_owned()).collect())
        .collect();
    let Some(header) = rows.first() else { return Vec::new() };
    (0..header.len())
        .map(|i| (header[i].clone(), rows.iter().skip(1).map(|r| r.get(i).cloned().unwrap_or_default()).collect()))
        .collect()
}

/// Whether `have` has `want`'s rows and, for every dialect of [`OWNED`],
/// its column.
fn owned_columns_agree(have: &str, want: &str) -> bool {
    let (have, want) = (columns_of(have), columns_of(want));
    let column =
        |cols: &[(String, Vec<String>)], key: &str| cols.iter().find(|(h, _)| h.contains(key)).map(|(_, c)| c.clone());
    column(&have, "canonical") == column(&want, "canonical")
        && OWNED.iter().all(|d| {
            let key = format!("(`{d}`)");
            column(&have, &key).is_some() && column(&have, &key) == column(&want, &key)
        })
}

/// docs/dialects.md's table of tool names is the dialects' tables
/// (`HOOKLINE_BLESS=1` rewrites it).
#[test]
fn the_tool_names_table_is_the_code_s() {
    let doc = std::fs::read_to_string(DOC).expect("docs/dialects.md");
    let (Some(a), Some(b)) = (doc.find(START), doc.find(END)) else {
        panic!("docs/dialects.md has no generated tool-names table (markers {START:?} … {END:?})");
    };
    let want = tool_names_table();
    let have = &doc[a..b + END.len()];
    if have == want || owned_columns_agree(have, &want) {
        return;
    }
    if std::env::var_os("HOOKLINE_BLESS").is_some() {
        std::fs::write(DOC, format!("{}{}{}", &doc[..a], want, &doc[b + END.len()..])).expect("write docs/dialects.md");
        return;
    }
    panic!("docs/dialects.md's tool-names table differs from the dialects' tables; rerun with HOOKLINE_BLESS=1. Expected:\n{want}");
}
