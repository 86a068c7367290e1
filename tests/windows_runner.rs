//! The Windows runner backend, run for real (`make test-windows`: under
//! Wine here, on Windows as is): cmd.exe, exec form, exit codes, stdin,
//! output caps, the job object's tree kill at the timeout and on cancel,
//! and no handle left open after a run.
//!
//! The hook program is `ctests/windows/hook.c` (built by
//! `make test-windows`, named by `HOOKLINE_TEST_HOOK_EXE`): Wine has no
//! PowerShell, Git Bash or other shell than cmd.exe to write hooks in.
#![cfg(windows)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hookline::runner::{open_handle_count, run_command, CancelToken, CommandOutput, CommandSpec, Environment, Program};

fn hook_exe() -> PathBuf {
    let path = std::env::var_os("HOOKLINE_TEST_HOOK_EXE")
        .expect("HOOKLINE_TEST_HOOK_EXE must name ctests/windows/hook.c built for Windows (make test-windows does)");
    let path = PathBuf::from(path);
    assert!(path.is_file(), "{} does not exist", path.display());
    path
}

fn env() -> Environment {
    Environment::from_pairs(std::env::vars_os()).unwrap()
}

fn cwd() -> PathBuf {
    std::env::temp_dir()
}

struct Run<'a> {
    program: Program<'a>,
    command: &'a str,
    stdin: &'a [u8],
    timeout: Duration,
    cap: usize,
    env: Option<&'a Environment>,
}

impl<'a> Run<'a> {
    fn new(program: Program<'a>, command: &'a str) -> Run<'a> {
        Run { program, command, stdin: b"", timeout: Duration::from_secs(30), cap: 1 << 21, env: None }
    }

    fn go(&self, cancel: Option<&CancelToken>) -> std::io::Result<CommandOutput> {
        let own = env();
        let cwd = cwd();
        let spec = CommandSpec {
            command: self.command,
            program: self.program,
            cwd: &cwd,
            env: self.env.unwrap_or(&own),
            stdin: self.stdin,
            timeout: self.timeout,
            max_output_bytes: self.cap,
        };
        run_command(&spec, cancel)
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn cmd_runs_the_command_and_its_exit_code_and_streams_come_back() {
    let out = Run::new(Program::Sh, "echo out& echo err 1>&2& exit /b 3").go(None).unwrap();
    assert_eq!(out.exit_code, Some(3), "{out:?}");
    assert_eq!(text(&out.stdout).trim_end(), "out");
    assert_eq!(text(&out.stderr).trim_end(), "err");
    assert!(!out.timed_out && !out.cancelled && out.signal.is_none());
}

#[test]
fn cmd_gets_quotes_and_ampersands_verbatim() {
    let out = Run::new(Program::Sh, r#"echo "a & b"& echo c"#).go(None).unwrap();
    assert_eq!(out.exit_code, Some(0), "{out:?}");
    assert_eq!(text(&out.stdout).replace("\r\n", "\n"), "\"a & b\"\nc\n");
}

#[test]
fn a_quoted_program_path_runs_under_cmd_with_the_payload_on_stdin() {
    let exe = hook_exe();
    let command = format!("\"{}\" cat", exe.display());
    let payload = br#"{"hook_event_name":"PreToolUse","tool_input":{"command":"echo \"%PATH%\" & del x"}}"#;
    let mut run = Run::new(Program::Sh, &command);
    run.stdin = payload;
    let out = run.go(None).unwrap();
    assert_eq!(out.exit_code, Some(0), "{out:?}");
    assert_eq!(out.stdout, payload, "the payload reaches the hook unchanged (never expanded by cmd.exe)");
}

#[test]
fn exec_form_passes_arguments_exactly_and_reports_the_exit_code() {
    let exe = hook_exe();
    let args = ["reply".to_string(), "2".to_string(), r#"a "b" c\ %X%"#.to_string()];
    let mut run = Run::new(Program::Exec { path: &exe, args: &args }, "hook");
    run.stdin = b"{}\n";
    let out = run.go(None).unwrap();
    assert_eq!(out.exit_code, Some(2), "{out:?}");
    assert_eq!(text(&out.stdout), r#"a "b" c\ %X%"#);
    assert_eq!(text(&out.stderr), "stderr:2");
}

#[test]
fn cmd_as_a_named_shell_gets_its_flags_and_command_verbatim() {
    let comspec = std::env::var_os("ComSpec").map(PathBuf::from).unwrap_or_else(|| "cmd.exe".into());
    let flags = ["/d", "/s", "/c"];
    let out = Run::new(Program::Shell { path: &comspec, flags: &flags }, r#"echo "x y"& exit /b 4"#).go(None).unwrap();
    assert_eq!(out.exit_code, Some(4), "{out:?}");
    assert_eq!(text(&out.stdout).trim_end(), "\"x y\"");
}

#[test]
fn a_one_mib_payload_comes_back_whole_while_the_hook_writes_as_much() {
    let exe = hook_exe();
    let payload: Vec<u8> = (0..1 << 20).map(|i| b"0123456789abcdef"[i % 16]).collect();
    let args = ["cat".to_string()];
    let mut run = Run::new(Program::Exec { path: &exe, args: &args }, "hook");
    run.stdin = &payload;
    let out = run.go(None).unwrap();
    assert_eq!(out.exit_code, Some(0), "{:?}", out.stderr);
    assert_eq!(out.stdout.len(), payload.len());
    assert!(out.stdout == payload, "stdout is the payload");
    assert!(!out.stdout_truncated);

    let args = ["write".to_string(), (1u32 << 20).to_string()];
    let mut run = Run::new(Program::Exec { path: &exe, args: &args }, "hook");
    run.stdin = &payload;
    let out = run.go(None).unwrap();
    assert_eq!(out.exit_code, Some(0));
    assert_eq!(out.stdout.len(), 1 << 20);
    assert_eq!(text(&out.stderr), (1u32 << 20).to_string(), "the hook read the whole payload");
}

#[test]
fn a_hook_writing_faster_than_it_is_read_never_stalls() {
    // Many reads in a row complete at once when the hook writes fast; the
    // loop must go on reading rather than wait for an event no read will set.
    let exe = hook_exe();
    let args = ["write".to_string(), (16u32 << 20).to_string()];
    for _ in 0..3 {
        let mut run = Run::new(Program::Exec { path: &exe, args: &args }, "hook");
        run.cap = 1 << 20;
        run.timeout = Duration::from_secs(20);
        let out = run.go(None).unwrap();
        assert!(!out.timed_out, "stalled: {out:?}");
        assert_eq!(out.exit_code, Some(0));
        assert_eq!(out.stdout.len(), 1 << 20);
        assert!(out.stdout_truncated);
    }
}

#[test]
fn output_beyond_the_cap_is_read_and_dropped() {
    let exe = hook_exe();
    let args = ["write".to_string(), "300000".to_string()];
    let mut run = Run::new(Program::Exec { path: &exe, args: &args }, "hook");
    run.cap = 65536;
    let out = run.go(None).unwrap();
    assert_eq!(out.exit_code, Some(0), "the hook was not blocked by a full pipe");
    assert_eq!(out.stdout.len(), 65536);
    assert!(out.stdout_truncated && !out.stderr_truncated);
}

/// Whether the grandchild writing to `ticks` is still alive: the file
/// grows while it is (it appends every 20 ms).
fn still_ticking(ticks: &Path) -> bool {
    let size = || std::fs::metadata(ticks).map(|m| m.len()).unwrap_or(0);
    std::thread::sleep(Duration::from_millis(300));
    let first = size();
    std::thread::sleep(Duration::from_millis(500));
    size() > first
}

fn ticks_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("hookline-ticks-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn the_timeout_kills_the_whole_tree_even_when_a_grandchild_holds_the_pipes() {
    let exe = hook_exe();
    let ticks = ticks_file("timeout");
    let args = ["tree".to_string(), "60000".to_string(), ticks.display().to_string()];
    let mut run = Run::new(Program::Exec { path: &exe, args: &args }, "hook");
    run.timeout = Duration::from_millis(1500);
    let started = Instant::now();
    let out = run.go(None).unwrap();
    let took = started.elapsed();
    assert!(out.timed_out, "{out:?}");
    assert_eq!(out.exit_code, None, "a killed hook has no exit code of its own");
    assert_eq!(text(&out.stdout), "started", "what the tree wrote before the kill is kept");
    assert!(took >= Duration::from_millis(1500), "{took:?}");
    assert!(took < Duration::from_millis(1500 + 1500), "returned {took:?} after the start");
    assert!(std::fs::metadata(&ticks).is_ok(), "the grandchild ran");
    assert!(!still_ticking(&ticks), "the grandchild outlived the timeout");
    let _ = std::fs::remove_file(&ticks);
}

#[test]
fn a_timeout_through_cmd_kills_the_grandchildren_too() {
    let exe = hook_exe();
    let ticks = ticks_file("cmd");
    let command = format!("\"{}\" tree 60000 \"{}\"", exe.display(), ticks.display());
    let mut run = Run::new(Program::Sh, &command);
    run.timeout = Duration::from_millis(1500);
    let started = Instant::now();
    let out = run.go(None).unwrap();
    assert!(out.timed_out, "{out:?}");
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    assert!(std::fs::metadata(&ticks).is_ok(), "the grandchild ran");
    assert!(!still_ticking(&ticks), "cmd.exe's grandchild outlived the timeout");
    let _ = std::fs::remove_file(&ticks);
}

#[test]
fn cancel_from_another_thread_ends_the_tree_promptly() {
    let exe = hook_exe();
    let ticks = ticks_file("cancel");
    let args = ["tree".to_string(), "60000".to_string(), ticks.display().to_string()];
    let token = CancelToken::new().unwrap();
    let canceller = {
        let token = token.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(700));
            token.cancel();
        })
    };
    let run = Run::new(Program::Exec { path: &exe, args: &args }, "hook");
    let started = Instant::now();
    let out = run.go(Some(&token)).unwrap();
    canceller.join().unwrap();
    assert!(out.cancelled && !out.timed_out, "{out:?}");
    assert_eq!(out.exit_code, None);
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    assert!(!still_ticking(&ticks), "the grandchild outlived the cancel");
    let _ = std::fs::remove_file(&ticks);
}

#[test]
fn a_cancelled_token_starts_nothing() {
    let token = CancelToken::new().unwrap();
    token.cancel();
    let out = Run::new(Program::Sh, "exit /b 0").go(Some(&token)).unwrap();
    assert!(out.cancelled);
    assert_eq!(out.exit_code, None);
    assert!(out.duration < Duration::from_millis(50), "{:?}", out.duration);
}

#[test]
fn a_hook_that_exits_leaving_a_process_behind_returns_at_once() {
    let exe = hook_exe();
    let ticks = ticks_file("leave");
    // A grandchild ticking for 3 s; the hook itself exits at once.
    let args = ["leave".to_string(), "3000".to_string(), ticks.display().to_string()];
    let run = Run::new(Program::Exec { path: &exe, args: &args }, "hook");
    let started = Instant::now();
    let out = run.go(None).unwrap();
    assert_eq!(out.exit_code, Some(0), "{out:?}");
    assert_eq!(text(&out.stdout), "left");
    assert!(!out.timed_out);
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    // As on Unix, what a hook leaves running in the background keeps running.
    assert!(still_ticking(&ticks), "the background process was killed when the hook exited");
}

#[test]
fn a_missing_program_is_an_error_not_a_run() {
    let missing = Path::new(r"C:\no\such\hook.exe");
    let args: [String; 0] = [];
    let err = Run::new(Program::Exec { path: missing, args: &args }, "hook").go(None).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound, "{err}");
}

#[test]
fn variable_names_are_one_whatever_their_case() {
    let mut env = env();
    env.set(OsStr::new("Hookline_Probe"), OsStr::new("first")).unwrap();
    env.set(OsStr::new("HOOKLINE_PROBE"), OsStr::new("second")).unwrap();
    assert_eq!(env.get(OsStr::new("hookline_probe")), Some(OsStr::new("second")));
    assert_eq!(env.iter().filter(|(n, _)| n.eq_ignore_ascii_case("hookline_probe")).count(), 1);
    let mut run = Run::new(Program::Sh, "echo %HOOKLINE_PROBE%");
    run.env = Some(&env);
    let out = run.go(None).unwrap();
    assert_eq!(text(&out.stdout).trim_end(), "second");
}

#[test]
fn twenty_runs_leave_no_handle_open() {
    let exe = hook_exe();
    let reply = ["reply".to_string(), "1".to_string(), "x".to_string()];
    let tree = ["tree".to_string(), "60000".to_string()];
    let once = |i: usize| {
        let token = CancelToken::new().unwrap();
        let mut run = if i % 4 == 3 {
            Run::new(Program::Exec { path: &exe, args: &tree }, "hook")
        } else {
            Run::new(Program::Exec { path: &exe, args: &reply }, "hook")
        };
        run.stdin = b"{\"n\":1}\n";
        run.timeout = Duration::from_millis(800);
        let out = run.go(Some(&token)).unwrap();
        assert!(out.exit_code == Some(1) || out.timed_out, "{out:?}");
    };
    // Warm up: whatever the standard library opens once (and keeps) is open.
    for i in 0..4 {
        once(i);
    }
    let before = open_handle_count().expect("GetProcessHandleCount");
    for i in 0..20 {
        once(i);
    }
    let after = open_handle_count().expect("GetProcessHandleCount");
    // One handle leaked per run would be 20; a spawn leaks at least three
    // (process, thread, job), a pipe two.
    assert!(after <= before + 2, "handles open before 20 runs: {before}, after: {after}");
}
