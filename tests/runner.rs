//! Tests of the command runner (docs/protocol.md §8, docs/hardening.md).
//!
//! Every test holds one process-wide lock: several of them look at
//! process-wide state (zombie children, open descriptors, peak memory),
//! which concurrent runs in other tests would disturb.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

#[cfg(target_os = "linux")]
use hookline::runner::run_command_without_pidfd;
use hookline::runner::{
    backend, run_command, run_command_on, run_command_with_std_spawn, Backend, CancelToken, CommandOutput, CommandSpec,
    Environment, Program, BACKEND_ENV, EXIT_GRACE,
};

static LOCK: Mutex<()> = Mutex::new(());

fn lock() -> MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

const MIB: usize = 1024 * 1024;

/// An owned [`CommandSpec`].
struct Job {
    command: String,
    cwd: PathBuf,
    env: Environment,
    stdin: Vec<u8>,
    timeout: Duration,
    cap: usize,
}

impl Job {
    fn new(command: &str) -> Job {
        Job {
            command: command.to_string(),
            cwd: std::env::temp_dir(),
            env: Environment::from_pairs([("PATH", "/usr/bin:/bin")]).unwrap(),
            stdin: b"{}\n".to_vec(),
            timeout: Duration::from_secs(20),
            cap: MIB,
        }
    }
    fn stdin(mut self, payload: Vec<u8>) -> Job {
        self.stdin = payload;
        self
    }
    fn timeout(mut self, t: Duration) -> Job {
        self.timeout = t;
        self
    }
    fn cap(mut self, cap: usize) -> Job {
        self.cap = cap;
        self
    }
    fn cwd(mut self, cwd: &Path) -> Job {
        self.cwd = cwd.to_path_buf();
        self
    }
    fn env(mut self, k: &str, v: &str) -> Job {
        self.env.set(OsStr::new(k), OsStr::new(v)).expect("a variable without NUL");
        self
    }
    fn spec(&self) -> CommandSpec<'_> {
        CommandSpec {
            command: &self.command,
            program: Program::Sh,
            cwd: &self.cwd,
            env: &self.env,
            stdin: &self.stdin,
            timeout: self.timeout,
            max_output_bytes: self.cap,
        }
    }
    fn run(&self) -> CommandOutput {
        run_command(&self.spec(), None).expect("spawn")
    }
    fn run_with(&self, token: &CancelToken) -> CommandOutput {
        run_command(&self.spec(), Some(token)).expect("spawn")
    }
    fn run_on(&self, backend: Backend, token: Option<&CancelToken>) -> CommandOutput {
        run_command_on(backend, &self.spec(), token).expect("spawn")
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `(pid, state, ppid)` from `/proc/<pid>/stat`.
fn proc_stat(pid: u32) -> Option<(char, u32, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may contain spaces and parentheses: split after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split(' ');
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((state, ppid, pgrp))
}

/// Zombie processes whose parent is this test process.
fn zombie_children() -> Vec<u32> {
    let me = std::process::id();
    let mut zombies = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        if let Some(('Z', ppid, _)) = proc_stat(pid) {
            if ppid == me {
                zombies.push(pid);
            }
        }
    }
    zombies
}

fn assert_no_zombie() {
    let zombies = zombie_children();
    assert!(zombies.is_empty(), "zombie children left: {zombies:?}");
}

/// A process exists and has not exited (not a zombie).
fn alive(pid: u32) -> bool {
    matches!(proc_stat(pid), Some((state, _, _)) if state != 'Z' && state != 'X')
}

/// Wait (generously) for a process to die.
fn dies_within(pid: u32, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if !alive(pid) {
            return true;
        }
        thread::sleep(Duration::from_millis(10));
    }
    !alive(pid)
}

fn fd_count() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

fn status_kib(field: &str) -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn pseudo_random(len: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn parse_pids(bytes: &[u8]) -> Vec<u32> {
    text(bytes).split_whitespace().filter_map(|w| w.parse().ok()).collect()
}

// ---------------------------------------------------------------- basics

#[test]
fn exit_codes_pass_through() {
    let _g = lock();
    for code in [0, 1, 2, 42, 255] {
        let out = Job::new(&format!("exit {code}")).run();
        assert_eq!(out.exit_code, Some(code));
        assert_eq!(out.signal, None);
        assert!(!out.timed_out && !out.cancelled);
    }
    assert_no_zombie();
}

#[test]
fn stdout_and_stderr_are_captured_separately() {
    let _g = lock();
    let out = Job::new("echo to-out; echo to-err >&2; echo more-out").run();
    assert_eq!(text(&out.stdout), "to-out\nmore-out\n");
    assert_eq!(text(&out.stderr), "to-err\n");
    assert!(!out.stdout_truncated && !out.stderr_truncated);
}

#[test]
fn command_runs_through_sh_in_the_given_cwd() {
    let _g = lock();
    let dir = tempfile::tempdir().unwrap();
    let out = Job::new("pwd -P; echo $0").cwd(dir.path()).run();
    let canonical = dir.path().canonicalize().unwrap();
    assert_eq!(text(&out.stdout), format!("{}\n/bin/sh\n", canonical.display()));
}

#[test]
fn environment_is_exactly_the_given_one() {
    let _g = lock();
    let out = Job::new("env").env("HOOK_VAR", "hook value").run();
    let stdout = text(&out.stdout);
    assert!(stdout.lines().any(|l| l == "HOOK_VAR=hook value"), "{stdout}");
    assert!(stdout.lines().any(|l| l == "PATH=/usr/bin:/bin"), "{stdout}");
    // Nothing of ours leaks through; only what the shell itself sets may appear.
    for line in stdout.lines() {
        let key = line.split('=').next().unwrap();
        assert!(["HOOK_VAR", "PATH", "PWD", "OLDPWD", "SHLVL", "_"].contains(&key), "inherited {line:?}");
    }
}

#[test]
fn shell_runs_in_a_new_process_group() {
    let _g = lock();
    let out = Job::new("echo $$; cut -d' ' -f5 /proc/self/stat").run();
    let pids = parse_pids(&out.stdout);
    assert_eq!(pids.len(), 2, "{}", text(&out.stdout));
    assert_eq!(pids[0], pids[1], "the shell must lead its own process group");
    let (_, _, our_group) = proc_stat(std::process::id()).unwrap();
    assert_ne!(pids[1], our_group);
}

#[test]
fn payload_never_becomes_part_of_a_command_line() {
    let _g = lock();
    let marker = "PAYLOAD-MARKER-7f3a";
    let out = Job::new("tr '\\0' ' ' < /proc/$$/cmdline; echo; cat")
        .stdin(format!("{{\"secret\":\"{marker}\"}}\n").into_bytes())
        .run();
    let stdout = text(&out.stdout);
    let mut lines = stdout.splitn(2, '\n');
    let cmdline = lines.next().unwrap();
    assert!(cmdline.starts_with("/bin/sh -c "), "{cmdline}");
    assert!(!cmdline.contains(marker));
    assert!(lines.next().unwrap().contains(marker), "payload arrives on stdin");
}

#[test]
fn invalid_utf8_output_is_returned_as_raw_bytes() {
    let _g = lock();
    let out = Job::new("printf '\\377\\376ok\\200'; printf '\\377' >&2").run();
    assert_eq!(out.stdout, b"\xff\xfeok\x80");
    assert_eq!(out.stderr, b"\xff");
    assert_eq!(out.exit_code, Some(0));
}

#[test]
fn spawn_failure_is_an_error_not_a_panic() {
    let _g = lock();
    let fds = fd_count();
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("does-not-exist");
    let job = Job::new("true").cwd(&missing);
    let err = run_command(&job.spec(), None).unwrap_err();
    assert!(err.to_string().contains("does-not-exist"), "{err}");
    drop(dir);
    assert_eq!(fd_count(), fds);
    assert_no_zombie();
}

#[test]
fn quick_hook_returns_without_waiting_out_the_grace() {
    let _g = lock();
    // If every run waited EXIT_GRACE, even the fastest would take that long.
    let fastest = (0..20).map(|_| Job::new("cat").run().duration).min().unwrap();
    assert!(fastest < EXIT_GRACE, "fastest `cat` run took {fastest:?}");
}

// ---------------------------------------------------------------- stdin

#[test]
fn stdin_payload_arrives_intact_5_mib() {
    let _g = lock();
    let payload = pseudo_random(5 * MIB);
    let out = Job::new("cat").stdin(payload.clone()).cap(8 * MIB).run();
    assert_eq!(out.exit_code, Some(0));
    assert!(!out.stdout_truncated);
    assert_eq!(out.stdout.len(), payload.len());
    assert!(out.stdout == payload, "payload corrupted");
}

#[test]
fn hook_sees_eof_after_the_payload() {
    let _g = lock();
    let out = Job::new("wc -c").stdin(b"{\"a\":1}\n".to_vec()).run();
    assert_eq!(text(&out.stdout).trim(), "8");
    let out = Job::new("wc -c").stdin(Vec::new()).run();
    assert_eq!(text(&out.stdout).trim(), "0", "empty payload: immediate EOF");
}

#[test]
fn hook_stdin_is_a_fifo_that_dev_stdin_idioms_can_open() {
    // Hooks written as `cat /dev/stdin`, `json.load(open('/dev/stdin'))` or
    // `fs.readFileSync('/dev/stdin')` must work: stdin is a real pipe.
    let _g = lock();
    let out = Job::new("[ -p /dev/stdin ] && cat /dev/stdin").stdin(b"{\"a\":1}\n".to_vec()).run();
    assert_eq!(out.exit_code, Some(0), "stderr: {}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "{\"a\":1}\n");
}

#[test]
fn hook_that_never_reads_a_10_mib_payload_exits_normally() {
    let _g = lock();
    let job = Job::new("echo ignored").stdin(vec![b'x'; 10 * MIB]).timeout(Duration::from_secs(10));
    let out = job.run();
    assert_eq!(out.exit_code, Some(0));
    assert!(!out.timed_out);
    assert_eq!(text(&out.stdout), "ignored\n");
    assert!(out.duration < Duration::from_secs(5), "{:?}", out.duration);
    assert_no_zombie();
}

#[test]
fn hook_that_closes_stdin_midway_is_not_an_error() {
    let _g = lock();
    let job = Job::new("head -c 1000 >/dev/null; exec 0<&-; sleep 0.2; echo after")
        .stdin(vec![b'x'; 10 * MIB])
        .timeout(Duration::from_secs(10));
    let out = job.run();
    assert_eq!(out.exit_code, Some(0));
    assert_eq!(text(&out.stdout), "after\n");
    assert_no_zombie();
}

#[test]
fn hook_writing_lots_before_reading_stdin_does_not_deadlock() {
    let _g = lock();
    // Both sides write more than a pipe/socket buffer before reading: a
    // runner that writes the payload first and reads afterwards hangs here.
    let job = Job::new("head -c 3000000 /dev/zero; wc -c")
        .stdin(vec![b'x'; 10 * MIB])
        .cap(4 * MIB)
        .timeout(Duration::from_secs(15));
    let out = job.run();
    assert!(!out.timed_out, "deadlocked");
    assert_eq!(out.exit_code, Some(0));
    assert_eq!(out.stdout.len(), 3_000_000 + "10485760\n".len());
    assert!(out.stdout.ends_with(b"10485760\n"));
}

/// Env var telling a re-executed copy of this test binary what to do.
const CHILD_MODE: &str = "HOOKLINE_RUNNER_TEST_CHILD";

/// Runs this test binary again, only `test_name`, with `CHILD_MODE=mode`.
fn reexec(test_name: &str, mode: &str) -> std::process::ExitStatus {
    std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test_name, "--test-threads=1", "--nocapture"])
        .env(CHILD_MODE, mode)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
}

#[test]
fn writing_to_a_hook_that_closed_stdin_never_raises_sigpipe() {
    use std::os::unix::process::ExitStatusExt;
    match std::env::var(CHILD_MODE).as_deref() {
        Ok(mode) => {
            // In the child: a host with the default SIGPIPE action (what a C
            // program has), unlike the Rust test harness which ignores it.
            // SAFETY: setting a signal disposition to SIG_DFL; no handler involved.
            unsafe {
                libc::signal(libc::SIGPIPE, libc::SIG_DFL);
            }
            if mode == "control" {
                // Proves the detection works: a plain write to a broken pipe kills us.
                let (reader, writer) = rustix::pipe::pipe().unwrap();
                drop(reader);
                let _ = rustix::io::write(&writer, b"x");
                std::process::exit(0);
            }
            let job = Job::new("exec 0<&-; sleep 0.3; echo survived")
                .stdin(vec![b'x'; 10 * MIB])
                .timeout(Duration::from_secs(10));
            let out = job.run();
            assert_eq!(text(&out.stdout), "survived\n");
            // A second hook that exits at once without reading anything.
            let out = Job::new("exit 0").stdin(vec![b'y'; 10 * MIB]).run();
            assert_eq!(out.exit_code, Some(0));
            std::process::exit(0);
        }
        Err(_) => {
            let _g = lock();
            let name = "writing_to_a_hook_that_closed_stdin_never_raises_sigpipe";
            let control = reexec(name, "control");
            assert_eq!(control.signal(), Some(libc::SIGPIPE), "control must die of SIGPIPE: {control:?}");
            let status = reexec(name, "runner");
            assert!(status.success(), "host process died or failed: {status:?}");
        }
    }
}

#[test]
fn host_ignoring_sigchld_still_gets_prompt_results() {
    // With SIGCHLD set to SIG_IGN (common in daemons) the kernel reaps
    // children itself and waitpid reports ECHILD. Runs must neither hang nor
    // fail, on every backend; the exit status survives where the backend
    // keeps it (Linux: the pidfd, on kernels with PIDFD_GET_INFO; macOS and
    // the BSDs: the kqueue exit event) and is otherwise reported unknown
    // (the portable backend's waitpid tick on Linux: always unknown here).
    match std::env::var(CHILD_MODE).as_deref() {
        Ok(_) => {
            // SAFETY: setting a signal disposition to SIG_IGN; no handler involved.
            unsafe {
                libc::signal(libc::SIGCHLD, libc::SIG_IGN);
            }
            for &backend in Backend::ALL {
                let out = Job::new("echo out; exit 3").run_on(backend, None);
                assert_eq!(text(&out.stdout), "out\n", "{backend:?}");
                assert!(!out.timed_out && !out.cancelled, "{backend:?}");
                assert_eq!(out.signal, None, "{backend:?}");
                match backend {
                    #[cfg(target_os = "linux")]
                    Backend::Linux => {
                        assert!(out.exit_code.is_none() || out.exit_code == Some(3), "{backend:?}: {:?}", out.exit_code)
                    }
                    #[cfg(target_os = "linux")]
                    Backend::Posix => assert_eq!(
                        out.exit_code, None,
                        "the portable backend cannot know the status of a shell the kernel reaped on Linux"
                    ),
                    #[cfg(not(target_os = "linux"))]
                    Backend::Posix => assert_eq!(out.exit_code, Some(3), "the kqueue exit event carries the status"),
                }
                let out = Job::new("sleep 1000").timeout(Duration::from_millis(200)).run_on(backend, None);
                assert!(out.timed_out, "{backend:?}");
                assert!(out.duration < Duration::from_secs(2), "{backend:?}: {:?}", out.duration);
            }
            std::process::exit(0);
        }
        Err(_) => {
            let _g = lock();
            let status = reexec("host_ignoring_sigchld_still_gets_prompt_results", "sigchld");
            assert!(status.success(), "{status:?}");
        }
    }
}

// ---------------------------------------------------------------- output caps

#[test]
fn output_beyond_max_output_bytes_is_drained_and_dropped() {
    let _g = lock();
    let out = Job::new("head -c 100000 /dev/zero; echo done >&2").cap(1000).run();
    assert_eq!(out.exit_code, Some(0), "the hook was not blocked on a full pipe");
    assert_eq!(out.stdout.len(), 1000);
    assert!(out.stdout_truncated);
    assert_eq!(text(&out.stderr), "done\n");
    assert!(!out.stderr_truncated);
}

#[test]
fn output_exactly_at_the_cap_is_not_truncated() {
    let _g = lock();
    let out = Job::new("printf 0123456789").cap(10).run();
    assert_eq!(out.stdout, b"0123456789");
    assert!(!out.stdout_truncated);
    let out = Job::new("printf 0123456789A").cap(10).run();
    assert_eq!(out.stdout, b"0123456789");
    assert!(out.stdout_truncated);
}

#[test]
fn zero_cap_keeps_nothing_and_flags_truncation() {
    let _g = lock();
    let out = Job::new("echo x; echo y >&2").cap(0).run();
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    assert!(out.stdout_truncated && out.stderr_truncated);
    let out = Job::new("true").cap(0).run();
    assert!(!out.stdout_truncated && !out.stderr_truncated);
}

#[test]
fn gigabyte_of_output_keeps_memory_bounded() {
    let _g = lock();
    // Reset the peak-RSS counter where the kernel allows it.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = status_kib("VmRSS:").unwrap();
    let timeout = Duration::from_secs(120);
    let out = Job::new("head -c 1073741824 /dev/zero; echo end >&2").cap(MIB).timeout(timeout).run();
    let peak = status_kib("VmHWM:").unwrap().max(status_kib("VmRSS:").unwrap());
    assert!(!out.timed_out, "1 GiB took {:?}", out.duration);
    assert_eq!(out.exit_code, Some(0));
    assert_eq!(out.stdout.len(), MIB);
    assert!(out.stdout_truncated);
    assert_eq!(text(&out.stderr), "end\n");
    // The runner keeps at most `cap` bytes per stream (a Vec grown by
    // doubling, so under 2 x cap of capacity) plus a fixed read buffer, and
    // drains the rest: memory stays within a small multiple of the cap
    // however much the hook writes (8 x cap allows for the test harness).
    eprintln!("1 GiB of output through a {MIB}-byte cap: RSS {before} KiB -> peak {peak} KiB");
    assert!(
        peak < before + 8 * MIB / 1024,
        "RSS grew from {before} KiB to {peak} KiB, more than 8 x the {MIB}-byte cap"
    );
    assert_no_zombie();
}

// ---------------------------------------------------------------- faults

#[test]
fn timeout_kills_a_hook_that_sleeps_forever() {
    let _g = lock();
    let timeout = Duration::from_millis(500);
    let out = Job::new("echo started; sleep 1000").timeout(timeout).run();
    assert!(out.timed_out);
    assert!(!out.cancelled);
    assert_eq!(out.exit_code, None);
    assert_eq!(out.signal, None, "our own kill is not reported as a signal");
    assert_eq!(text(&out.stdout), "started\n", "output read before the kill is kept");
    assert!(out.duration >= timeout);
    assert!(out.duration < timeout + Duration::from_secs(1), "{:?}", out.duration);
    assert_no_zombie();
}

#[test]
fn timeout_kills_grandchild_that_holds_the_pipes() {
    let _g = lock();
    let timeout = Duration::from_millis(500);
    let start = Instant::now();
    // The grandchild inherits stdout/stderr and would keep them open for 1000 s.
    let out = Job::new("sleep 1000 & echo $! >&2; sleep 1000").timeout(timeout).run();
    assert!(start.elapsed() < timeout + Duration::from_secs(1), "{:?}", start.elapsed());
    assert!(out.timed_out);
    let pids = parse_pids(&out.stderr);
    assert_eq!(pids.len(), 1, "{}", text(&out.stderr));
    assert!(dies_within(pids[0], Duration::from_secs(5)), "grandchild {} survived", pids[0]);
    assert_no_zombie();
}

#[test]
fn timeout_kills_every_level_of_the_process_group() {
    let _g = lock();
    // The shell's own child runs in the foreground past the timeout while a
    // second-level process holds stderr: all of the group dies.
    let out = Job::new("sh -c 'sleep 1000 & echo $! >&2; exec sleep 1000'").timeout(Duration::from_millis(300)).run();
    assert!(out.timed_out);
    let pids = parse_pids(&out.stderr);
    assert_eq!(pids.len(), 1);
    assert!(dies_within(pids[0], Duration::from_secs(5)));
    assert_no_zombie();
}

#[test]
fn background_process_left_behind_neither_delays_return_nor_is_killed() {
    let _g = lock();
    let out = Job::new("(sleep 3; echo late) & echo $$ $!; echo now").run();
    let pids = parse_pids(&out.stdout);
    assert_eq!(pids.len(), 2, "{}", text(&out.stdout));
    let (shell, background) = (pids[0], pids[1]);
    let background_alive = alive(background);
    // Clean up the fire-and-forget process before asserting.
    let _ = rustix::process::kill_process_group(
        rustix::process::Pid::from_raw(shell as i32).unwrap(),
        rustix::process::Signal::KILL,
    );
    assert_eq!(out.exit_code, Some(0));
    assert!(text(&out.stdout).ends_with("now\n"));
    assert!(!text(&out.stdout).contains("late"));
    assert!(out.duration < Duration::from_secs(2), "waited for the background process: {:?}", out.duration);
    assert!(background_alive, "fire-and-forget process was killed");
    assert_no_zombie();
}

#[test]
fn killed_by_signal_reports_the_signal_and_no_exit_code() {
    let _g = lock();
    let out = Job::new("echo before; kill -9 $$").run();
    assert_eq!(out.exit_code, None);
    assert_eq!(out.signal, Some(9));
    assert!(!out.timed_out && !out.cancelled);
    assert_eq!(text(&out.stdout), "before\n");
    let out = Job::new("kill -TERM $$").run();
    assert_eq!(out.signal, Some(15));
    assert_no_zombie();
}

// ---------------------------------------------------------------- cancel

#[test]
fn cancel_from_another_thread_kills_and_returns_promptly() {
    let _g = lock();
    let token = CancelToken::new().unwrap();
    let canceller = {
        let token = token.clone();
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(200));
            token.cancel();
        })
    };
    let out = Job::new("sleep 1000 & echo $! >&2; sleep 1000").timeout(Duration::from_secs(60)).run_with(&token);
    canceller.join().unwrap();
    assert!(out.cancelled);
    assert!(!out.timed_out);
    assert_eq!(out.exit_code, None);
    assert!(out.duration < Duration::from_secs(1), "{:?}", out.duration);
    let pids = parse_pids(&out.stderr);
    assert_eq!(pids.len(), 1);
    assert!(dies_within(pids[0], Duration::from_secs(5)), "grandchild survived the cancel");
    assert_no_zombie();
}

#[test]
fn cancel_wakes_every_command_under_the_token() {
    let _g = lock();
    let token = CancelToken::new().unwrap();
    let start = Instant::now();
    let runners: Vec<_> = (0..4)
        .map(|_| {
            let token = token.clone();
            thread::spawn(move || Job::new("sleep 1000").timeout(Duration::from_secs(60)).run_with(&token))
        })
        .collect();
    thread::sleep(Duration::from_millis(300));
    token.cancel();
    for runner in runners {
        let out = runner.join().unwrap();
        assert!(out.cancelled);
    }
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
    assert_no_zombie();
}

#[test]
fn cancel_racing_with_the_first_spawn_under_a_token_is_never_lost() {
    // A token makes its wake-up descriptor when the first command runs under
    // it; a cancel landing just before, during or after that must still end
    // the run promptly (as cancelled), never leave it running to its timeout.
    let _g = lock();
    let job = Job::new("sleep 1000").timeout(Duration::from_secs(30));
    for i in 0..300u64 {
        let token = CancelToken::new().unwrap();
        let start = std::sync::Arc::new(std::sync::Barrier::new(2));
        let canceller = {
            let token = token.clone();
            let start = start.clone();
            thread::spawn(move || {
                start.wait();
                // 0 to 30 us after the run starts: before, while and after
                // the token makes its descriptor and the shell is spawned.
                let until = Instant::now() + Duration::from_nanos(i % 60 * 500);
                while Instant::now() < until {
                    std::hint::spin_loop();
                }
                token.cancel();
            })
        };
        start.wait();
        let out = job.run_with(&token);
        canceller.join().unwrap();
        assert!(out.cancelled && !out.timed_out, "round {i}: {out:?}");
        assert!(out.duration < Duration::from_secs(2), "round {i}: cancel noticed late: {:?}", out.duration);
    }
    assert_no_zombie();
}

#[test]
fn already_cancelled_token_spawns_nothing() {
    let _g = lock();
    let dir = tempfile::tempdir().unwrap();
    let token = CancelToken::new().unwrap();
    token.cancel();
    let out = Job::new("touch spawned").cwd(dir.path()).run_with(&token);
    assert!(out.cancelled);
    assert_eq!(out.exit_code, None);
    assert!(!dir.path().join("spawned").exists(), "the command ran");
}

#[test]
fn uncancelled_token_does_not_disturb_a_run() {
    let _g = lock();
    let token = CancelToken::new().unwrap();
    let out = Job::new("echo fine").run_with(&token);
    assert_eq!(text(&out.stdout), "fine\n");
    assert!(!out.cancelled);
}

// ---------------------------------------------------------------- concurrency, leaks

#[test]
fn concurrent_hooks_in_eight_threads_run_in_parallel() {
    let _g = lock();
    let start = Instant::now();
    let runners: Vec<_> =
        (0..8).map(|i| thread::spawn(move || Job::new(&format!("sleep 1; echo {i}")).run())).collect();
    for (i, runner) in runners.into_iter().enumerate() {
        let out = runner.join().unwrap();
        assert_eq!(out.exit_code, Some(0));
        assert_eq!(text(&out.stdout), format!("{i}\n"), "outputs must not cross between hooks");
    }
    assert!(start.elapsed() < Duration::from_secs(5), "8 x 1 s took {:?}", start.elapsed());
    assert_no_zombie();
}

#[test]
fn concurrent_spawns_never_inherit_each_others_descriptors() {
    let _g = lock();
    let probe = Job::new("ls /proc/$$/fd");
    let fd_list = |out: CommandOutput| text(&out.stdout).split_whitespace().map(str::to_string).collect::<Vec<_>>();
    // Alone, the shell holds 0, 1, 2 plus whatever this test process itself
    // inherited without close-on-exec from whoever started it.
    let baseline = fd_list(probe.run());
    assert!(baseline.starts_with(&["0".to_string(), "1".to_string()]), "{baseline:?}");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // Background traffic: runs whose sockets, pipes and pidfds are open
    // while the probes below are spawned.
    let busy: Vec<_> = (0..3)
        .map(|_| {
            let stop = stop.clone();
            thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    Job::new("cat").stdin(vec![b'x'; 200_000]).run();
                }
            })
        })
        .collect();
    let token = CancelToken::new().unwrap();
    for _ in 0..30 {
        let fds = fd_list(probe.run_with(&token));
        assert_eq!(fds, baseline, "the hook's shell inherited descriptors of concurrent runs");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for b in busy {
        b.join().unwrap();
    }
    assert_no_zombie();
}

#[test]
fn no_descriptor_leak_across_200_runs_including_timeouts() {
    let _g = lock();
    Job::new("true").run(); // warm-up: anything opened lazily once
    let token = CancelToken::new().unwrap();
    token.cancel();
    // The token makes its eventfd (or self-pipe) when a command first runs
    // under it, and keeps it: make it before counting.
    Job::new("true").run_with(&token);
    let before = fd_count();
    for i in 0..200 {
        let out = match i % 10 {
            0 => Job::new("sleep 1000 & sleep 1000").timeout(Duration::from_millis(20)).run(),
            1 => Job::new("kill -9 $$").run(),
            2 => Job::new("sleep 5 &").run(),
            3 => Job::new("exit 0").stdin(vec![b'x'; 300_000]).run(),
            4 => Job::new("true").run_with(&token),
            5 => {
                let job = Job::new("true").cwd(Path::new("/nonexistent-hookline-dir"));
                assert!(run_command(&job.spec(), None).is_err());
                continue;
            }
            _ => Job::new("cat").run(),
        };
        assert!(out.exit_code.is_some() || out.timed_out || out.signal.is_some() || out.cancelled);
    }
    assert_eq!(fd_count(), before, "descriptors leaked");
    assert_no_zombie();
    // Reap nothing else: the `sleep 5 &` processes were reparented, not ours.
}

// ---------------------------------------------------------------- pidfd fallback

#[cfg(target_os = "linux")]
#[test]
fn exit_detection_without_pidfd_still_works() {
    let _g = lock();
    let job = Job::new("echo hi; exit 3");
    let out = run_command_without_pidfd(&job.spec(), None).unwrap();
    assert_eq!(out.exit_code, Some(3));
    assert_eq!(text(&out.stdout), "hi\n");

    let job = Job::new("sleep 1000 & sleep 1000").timeout(Duration::from_millis(300));
    let out = run_command_without_pidfd(&job.spec(), None).unwrap();
    assert!(out.timed_out);
    assert!(out.duration < Duration::from_millis(300) + Duration::from_secs(1));

    let job = Job::new("(sleep 3; echo late) & echo now");
    let out = run_command_without_pidfd(&job.spec(), None).unwrap();
    assert_eq!(text(&out.stdout), "now\n");
    assert!(out.duration < Duration::from_secs(2));

    let token = CancelToken::new().unwrap();
    let canceller = {
        let token = token.clone();
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(200));
            token.cancel();
        })
    };
    let job = Job::new("sleep 1000").timeout(Duration::from_secs(60));
    let out = run_command_without_pidfd(&job.spec(), Some(&token)).unwrap();
    canceller.join().unwrap();
    assert!(out.cancelled);
    assert!(out.duration < Duration::from_secs(1));
    assert_no_zombie();
}

// ---------------------------------------------------------------- backends

/// One way of running a command.
type Runner = Box<dyn Fn(&CommandSpec<'_>, Option<&CancelToken>) -> std::io::Result<CommandOutput>>;

/// Every way of running a command this system has: each backend with the
/// default spawner (`posix_spawn` where available), then each backend with
/// `std::process::Command` (the spawner of systems without
/// `posix_spawn_file_actions_addchdir_np`).
fn every_runner() -> Vec<(String, Runner)> {
    let mut all: Vec<(String, Runner)> = Vec::new();
    for &backend in Backend::ALL {
        all.push((format!("{backend:?}"), Box::new(move |spec, token| run_command_on(backend, spec, token))));
        all.push((
            format!("{backend:?} + std spawn"),
            Box::new(move |spec, token| run_command_with_std_spawn(backend, spec, token)),
        ));
    }
    all
}

#[test]
fn every_backend_and_spawner_keeps_the_runner_guarantees() {
    // The suite above runs on the backend HOOKLINE_RUNNER selects; this runs
    // the core rules on every backend and spawner of this system in one process.
    let _g = lock();
    for (label, run) in every_runner() {
        let run_on = |job: &Job, token: Option<&CancelToken>| run(&job.spec(), token).expect("spawn");
        let out = run_on(&Job::new("echo hi; echo err >&2; exit 3"), None);
        assert_eq!(
            (out.exit_code, text(&out.stdout), text(&out.stderr)),
            (Some(3), "hi\n".into(), "err\n".into()),
            "{label}"
        );

        let payload = pseudo_random(3 * MIB);
        let out = run_on(&Job::new("head -c 2000000 /dev/zero; cat").stdin(payload.clone()).cap(8 * MIB), None);
        assert_eq!(out.stdout.len(), 2_000_000 + payload.len(), "{label}");
        assert!(out.stdout[2_000_000..] == payload[..], "{label}: payload corrupted");

        let out = run_on(&Job::new("head -c 100000 /dev/zero").cap(1000), None);
        assert!(out.stdout.len() == 1000 && out.stdout_truncated && out.exit_code == Some(0), "{label}");

        let out = run_on(&Job::new("sleep 1000 & echo $! >&2; sleep 1000").timeout(Duration::from_millis(300)), None);
        assert!(out.timed_out, "{label}");
        assert!(out.duration < Duration::from_millis(300) + Duration::from_secs(1), "{label}: {:?}", out.duration);
        let pids = parse_pids(&out.stderr);
        assert_eq!(pids.len(), 1, "{label}");
        assert!(dies_within(pids[0], Duration::from_secs(5)), "{label}: grandchild survived the timeout");

        let out = run_on(&Job::new("(sleep 3; echo late) & echo $$; echo now"), None);
        let shell = parse_pids(&out.stdout)[0];
        let _ = rustix::process::kill_process_group(
            rustix::process::Pid::from_raw(shell as i32).unwrap(),
            rustix::process::Signal::KILL,
        );
        assert!(text(&out.stdout).ends_with("now\n"), "{label}");
        assert!(
            out.duration < Duration::from_secs(2),
            "{label}: waited for the background process: {:?}",
            out.duration
        );

        let out = run_on(&Job::new("kill -9 $$"), None);
        assert_eq!((out.exit_code, out.signal), (None, Some(9)), "{label}");

        let token = CancelToken::new().unwrap();
        let canceller = {
            let token = token.clone();
            thread::spawn(move || {
                thread::sleep(Duration::from_millis(200));
                token.cancel();
            })
        };
        let out = run_on(&Job::new("sleep 1000").timeout(Duration::from_secs(60)), Some(&token));
        canceller.join().unwrap();
        assert!(out.cancelled && !out.timed_out, "{label}");
        assert!(out.duration < Duration::from_secs(1), "{label}: {:?}", out.duration);

        let fastest = (0..10).map(|_| run_on(&Job::new("cat"), None).duration).min().unwrap();
        assert!(fastest < EXIT_GRACE, "{label}: fastest `cat` run took {fastest:?}");
        assert_no_zombie();
    }
}

#[test]
fn every_spawner_gives_the_shell_exactly_its_environment_cwd_and_own_group() {
    let _g = lock();
    let dir = tempfile::tempdir().unwrap();
    let canonical = dir.path().canonicalize().unwrap();
    let (_, _, our_group) = proc_stat(std::process::id()).unwrap();
    for (label, run) in every_runner() {
        let job =
            Job::new("env; echo \"cwd=$(pwd -P) zero=$0\"; echo \"pid=$$ pgrp=$(cut -d' ' -f5 /proc/self/stat)\"")
                .cwd(dir.path())
                .env("HOOK_VAR", "hook value")
                .env("WITH_EQUALS", "a=b=c")
                .env("REPEATED", "first")
                .env("REPEATED", "last");
        let out = run(&job.spec(), None).expect("spawn");
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        for want in ["HOOK_VAR=hook value", "WITH_EQUALS=a=b=c", "REPEATED=last", "PATH=/usr/bin:/bin"] {
            assert!(lines.contains(&want), "{label}: no {want:?} in {stdout}");
        }
        assert!(!lines.contains(&"REPEATED=first"), "{label}: a repeated name keeps its last value: {stdout}");
        for line in lines.iter().filter(|l| l.contains('=') && !l.starts_with("cwd=") && !l.starts_with("pid=")) {
            let key = line.split('=').next().unwrap();
            assert!(
                ["HOOK_VAR", "WITH_EQUALS", "REPEATED", "PATH", "PWD", "OLDPWD", "SHLVL", "_"].contains(&key),
                "{label}: inherited {line:?}"
            );
        }
        assert!(lines.contains(&format!("cwd={} zero=/bin/sh", canonical.display()).as_str()), "{label}: {stdout}");
        let ids = lines.iter().find(|l| l.starts_with("pid=")).unwrap();
        let ids: Vec<u32> = ids.split(' ').map(|kv| kv.split('=').nth(1).unwrap().parse().unwrap()).collect();
        assert_eq!(ids[0], ids[1], "{label}: the shell must lead its own process group");
        assert_ne!(ids[1], our_group, "{label}");
    }
    assert_no_zombie();
}

#[test]
fn nul_bytes_in_the_command_are_spawn_errors_and_in_the_environment_are_refused() {
    let _g = lock();
    let fds = fd_count();
    for (label, run) in every_runner() {
        let err = run(&Job::new("echo a\0b").spec(), None).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{label}: {err}");
        assert!(err.to_string().contains("cannot run /bin/sh"), "{label}: {err}");
    }
    // An environment never holds one: the variable is refused when it is set.
    let err = Environment::new().set(OsStr::new("BAD"), OsStr::new("x\0y")).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{err}");
    assert!(err.to_string().contains("BAD"), "{err}");
    assert_eq!(fd_count(), fds, "descriptors leaked on a refused spawn");
    assert_no_zombie();
}

#[test]
fn missing_working_directory_is_an_error_on_every_spawner() {
    let _g = lock();
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("does-not-exist");
    let fds = fd_count();
    for (label, run) in every_runner() {
        let err = run(&Job::new("true").cwd(&missing).spec(), None).unwrap_err();
        assert!(err.to_string().contains("does-not-exist"), "{label}: {err}");
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound, "{label}: {err}");
    }
    assert_eq!(fd_count(), fds);
    assert_no_zombie();
}

#[test]
fn the_shell_starts_with_an_empty_signal_mask_and_default_sigpipe() {
    // A host that blocks signals in its threads (common: a dedicated signal
    // thread) and ignores SIGPIPE (every Rust program, many servers) must not
    // hand either to its hooks: `yes | head` relies on SIGPIPE killing `yes`.
    match std::env::var(CHILD_MODE).as_deref() {
        Ok(_) => {
            // SAFETY: blocking signals in this thread's mask and setting a
            // disposition to SIG_IGN; no handler involved.
            unsafe {
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, libc::SIGUSR1);
                libc::sigaddset(&mut set, libc::SIGTERM);
                libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
                libc::signal(libc::SIGPIPE, libc::SIG_IGN);
            }
            for (label, run) in every_runner() {
                // `exec`: grep replaces the shell and reads its own status, with the
                // mask and dispositions the shell started with. (Reading the
                // shell's status from a child would race with the shell, which
                // blocks signals for itself while it waits for that child.)
                let out =
                    run(&Job::new("exec grep -E '^Sig(Blk|Ign):' /proc/self/status").spec(), None).expect("spawn");
                let stdout = text(&out.stdout);
                let field = |name: &str| {
                    let line =
                        stdout.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{label}: {stdout}"));
                    u64::from_str_radix(line.split_whitespace().nth(1).unwrap(), 16).unwrap()
                };
                assert_eq!(field("SigBlk:"), 0, "{label}: the hook inherited blocked signals: {stdout}");
                assert_eq!(
                    field("SigIgn:") & (1 << (libc::SIGPIPE - 1)),
                    0,
                    "{label}: SIGPIPE ignored in the hook: {stdout}"
                );
                assert_eq!(out.exit_code, Some(0), "{label}");
                // With SIGPIPE at its default action, `yes` ends when `head` is done.
                let out =
                    run(&Job::new("yes | head -n 2").timeout(Duration::from_secs(20)).spec(), None).expect("spawn");
                assert_eq!((text(&out.stdout).as_str(), out.exit_code), ("y\ny\n", Some(0)), "{label}");
            }
            std::process::exit(0);
        }
        Err(_) => {
            let _g = lock();
            let status = reexec("the_shell_starts_with_an_empty_signal_mask_and_default_sigpipe", "signals");
            assert!(status.success(), "{status:?}");
        }
    }
}

#[test]
fn a_host_with_its_standard_descriptors_closed_still_runs_hooks() {
    // With 0, 1 and 2 closed, the runner's own pipes get those numbers; they
    // must still end up as the hook's stdin, stdout and stderr, not over one
    // another.
    match std::env::var(CHILD_MODE).as_deref() {
        Ok(_) => {
            for fd in 0..3 {
                // SAFETY: closing the standard descriptors of this re-executed
                // test process, which prints nothing afterwards.
                unsafe { libc::close(fd) };
            }
            for (label, run) in every_runner() {
                let _ = label;
                let out = run(&Job::new("cat; echo to-err >&2").stdin(b"payload\n".to_vec()).spec(), None)
                    .unwrap_or_else(|_| std::process::exit(10));
                if out.stdout != b"payload\n" || out.stderr != b"to-err\n" || out.exit_code != Some(0) {
                    std::process::exit(11);
                }
            }
            std::process::exit(0);
        }
        Err(_) => {
            let _g = lock();
            let status = reexec("a_host_with_its_standard_descriptors_closed_still_runs_hooks", "closed-stdio");
            assert!(status.success(), "{status:?}");
        }
    }
}

#[test]
fn hookline_runner_variable_selects_the_backend_for_the_process() {
    match std::env::var(CHILD_MODE).as_deref() {
        Ok(mode) => {
            let want = match mode {
                "posix" => Backend::Posix,
                _ => Backend::DEFAULT, // unset, unknown: the default (with a warning)
            };
            assert_eq!(backend(), want, "{BACKEND_ENV}={:?}", std::env::var(BACKEND_ENV));
            // Read once: changing the variable later changes nothing.
            std::env::set_var(BACKEND_ENV, if want == Backend::Posix { "" } else { "posix" });
            assert_eq!(backend(), want);
            let out = Job::new("exit 4").run();
            assert_eq!(out.exit_code, Some(4));
            std::process::exit(0);
        }
        Err(_) => {
            let _g = lock();
            let name = "hookline_runner_variable_selects_the_backend_for_the_process";
            for value in [Some("posix"), Some("no-such-backend"), Some(""), None] {
                let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
                cmd.args(["--exact", name, "--test-threads=1", "--nocapture"])
                    .env(CHILD_MODE, value.unwrap_or("unset"))
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null());
                match value {
                    Some(v) => cmd.env(BACKEND_ENV, v),
                    None => cmd.env_remove(BACKEND_ENV),
                };
                let status = cmd.status().unwrap();
                assert!(status.success(), "{BACKEND_ENV}={value:?}: {status:?}");
            }
        }
    }
}

/// A program run directly (exec form), without a shell: arguments arrive
/// as given (no word splitting, globbing or expansion), on every backend
/// and with both spawners; a program that does not exist cannot be started.
#[test]
fn exec_runs_the_program_directly_on_every_backend_and_spawner() {
    let _g = lock();
    let job = Job::new("printf");
    let args: Vec<String> = ["%s|", "a b", "*", "$HOME"].iter().map(|s| s.to_string()).collect();
    let spec = CommandSpec { program: Program::Exec { path: Path::new("/usr/bin/printf"), args: &args }, ..job.spec() };
    for &b in Backend::ALL {
        for out in [run_command_on(b, &spec, None).unwrap(), run_command_with_std_spawn(b, &spec, None).unwrap()] {
            assert_eq!(out.exit_code, Some(0), "{b:?}");
            assert_eq!(String::from_utf8_lossy(&out.stdout), "a b|*|$HOME|", "{b:?}");
        }
        let missing = Program::Exec { path: Path::new("/no/such/program"), args: &[] };
        let e = run_command_on(b, &CommandSpec { program: missing, ..job.spec() }, None).unwrap_err();
        assert!(e.to_string().contains("/no/such/program"), "{e}");
    }
}
