//! The Windows backend: runs one hook command and collects its exit code
//! and output, whatever the hook does. The system calls are in `win32.rs`;
//! this file is safe code.
//!
//! # Design
//!
//! The same contract as the Unix loop (`run.rs`), with Windows' means:
//!
//! - **A job object per hook.** The process is created suspended
//!   (`CREATE_SUSPENDED`), assigned to a fresh job object, then resumed, so
//!   every process it starts is in the job from its first instruction. At
//!   the timeout or on cancel, `TerminateJobObject` ends the whole tree at
//!   once, grandchildren that hold the pipes included (killing the direct
//!   child alone leaves them holding the pipes, and the run waiting for an
//!   end of file that never comes). The job has
//!   `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`, so a host that dies mid-run
//!   takes its hooks with it. When the hook exits on its own, the limit is
//!   cleared before the job is closed: whatever it left running in the
//!   background keeps running, as on Unix.
//! - **No console window** (`CREATE_NO_WINDOW`): a host without a console
//!   (a GUI, a service) does not flash one per hook.
//! - **Overlapped named pipes, one wait loop, no helper threads.** Our
//!   ends of the hook's stdin, stdout and stderr are named pipes opened for
//!   overlapped I/O; one `WaitForMultipleObjects` watches the three
//!   operations in flight, the process handle and the run's cancel event,
//!   bounded by the deadline. The payload is written while the output is
//!   read (a hook that prints before reading cannot deadlock against us),
//!   each output stream is kept up to `max_output_bytes` and the rest read
//!   and dropped.
//! - **Bounded returns.** After the hook exits, what its leftovers write is
//!   read for [`EXIT_GRACE`] at most; after a kill, for [`DRAIN_AFTER_KILL`]
//!   at most. Operations still in flight are then cancelled, so the run
//!   returns within the timeout plus that drain whatever any process holds.
//! - **The payload is on stdin only**, never on a command line (a `.bat` or
//!   `.cmd` file's arguments are parsed by cmd.exe: CVE-2024-24576).
//!
//! The process itself is created by `std::process::Command` with those
//! creation flags (it makes the inheritable copies of the hook's pipe ends
//! and the Unicode environment block); `cmd.exe` gets its command line
//! verbatim (`raw_arg`), since it does not follow the quoting rules other
//! programs parse their arguments with.

use std::ffi::OsStr;
use std::io;
use std::os::windows::io::{AsHandle, BorrowedHandle};
use std::os::windows::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::win32::{self, AsyncPipe, Direction, Job, Progress};
use super::{CancelToken, CommandOutput, CommandSpec, Environment, Program, EXIT_GRACE};

/// `CREATE_SUSPENDED`: the process starts with its main thread suspended.
const CREATE_SUSPENDED: u32 = 0x0000_0004;
/// `CREATE_NO_WINDOW`: a console process without a console window.
const CREATE_NO_WINDOW: u32 = 0x0800_0000;

/// The exit code `TerminateJobObject` gives the hook's processes at the
/// timeout or on cancel. Never reported as the hook's own: a killed run
/// has `exit_code: None` and `timed_out` or `cancelled` set.
const KILLED_EXIT_CODE: u32 = 0x484C_4B4C;

/// How long, after a kill, we keep reading what is buffered.
pub(super) const DRAIN_AFTER_KILL: Duration = Duration::from_millis(200);

/// Largest single read or write (the pipes' buffer size).
const CHUNK: usize = 64 * 1024;

/// Operations completed per stream per pass of the loop (a fast writer
/// cannot keep the loop from looking at the clock). A stream that used
/// them all has no operation in flight, so nothing would wake the wait for
/// it: its `pump` says so and the next wait does not block.
const OPS_PER_WAKE: usize = 16;

/// One output stream being collected.
struct Capture {
    pipe: Option<AsyncPipe>,
    data: Vec<u8>,
    truncated: bool,
}

impl Capture {
    fn new(pipe: AsyncPipe) -> Capture {
        Capture { pipe: Some(pipe), data: Vec::new(), truncated: false }
    }

    /// Take what completed and keep one read in flight. `true`: the pass
    /// ended with more to do at once (no read in flight to wait for).
    fn pump(&mut self, cap: usize) -> bool {
        for _ in 0..OPS_PER_WAKE {
            let Some(pipe) = &mut self.pipe else { return false };
            let progress = if pipe.in_flight() { pipe.check() } else { pipe.start_read(CHUNK) };
            match progress {
                Progress::Pending => return false,
                Progress::Done(n) => {
                    let room = cap.saturating_sub(self.data.len());
                    let chunk = &pipe.data()[..n];
                    if chunk.len() > room {
                        self.truncated = true;
                    }
                    self.data.extend_from_slice(&chunk[..chunk.len().min(room)]);
                }
                Progress::Closed => self.pipe = None,
                Progress::Failed(e) => {
                    crate::hl_debug!("reading hook output failed: {e}");
                    self.pipe = None;
                }
            }
        }
        self.pipe.as_ref().is_some_and(|p| !p.in_flight())
    }

    fn open(&self) -> bool {
        self.pipe.is_some()
    }

    fn event(&self) -> Option<BorrowedHandle<'_>> {
        self.pipe.as_ref().filter(|p| p.in_flight()).map(AsyncPipe::event)
    }
}

/// The payload writer for the hook's stdin.
struct Feeder<'a> {
    pipe: Option<AsyncPipe>,
    payload: &'a [u8],
}

impl Feeder<'_> {
    /// Keep one write in flight until the payload is written, then close
    /// our end (the hook's end of file). `true`: the pass ended with more
    /// to do at once (no write in flight to wait for).
    fn pump(&mut self) -> bool {
        for _ in 0..OPS_PER_WAKE {
            let Some(pipe) = &mut self.pipe else { return false };
            let progress = if pipe.in_flight() {
                pipe.check()
            } else if self.payload.is_empty() {
                self.pipe = None;
                return false;
            } else {
                pipe.start_write(&self.payload[..self.payload.len().min(CHUNK)])
            };
            match progress {
                Progress::Pending => return false,
                Progress::Done(n) => self.payload = &self.payload[n.min(self.payload.len())..],
                // The hook closed its stdin (or exited): the rest is not read.
                Progress::Closed | Progress::Failed(_) => self.pipe = None,
            }
        }
        self.pipe.as_ref().is_some_and(|p| !p.in_flight())
    }

    fn event(&self) -> Option<BorrowedHandle<'_>> {
        self.pipe.as_ref().filter(|p| p.in_flight()).map(AsyncPipe::event)
    }
}

/// Owns the started hook: if dropped before it was collected (an error
/// midway), ends its job and waits (bounded) for the process.
struct HookGuard {
    child: Child,
    job: Option<Job>,
    collected: bool,
}

impl HookGuard {
    /// End every process of the job; the process handle is signalled once
    /// the hook's own process is gone.
    fn kill(&mut self) {
        if let Some(job) = &self.job {
            if let Err(e) = job.terminate(KILLED_EXIT_CODE) {
                crate::hl_debug!("TerminateJobObject failed ({e}); killing the hook process only");
                let _ = self.child.kill();
            }
        } else {
            let _ = self.child.kill();
        }
        // Termination is asynchronous: wait (bounded) until it is done.
        let _ = win32::wait_any(&[self.child.as_handle()], Some(DRAIN_AFTER_KILL));
    }
}

impl Drop for HookGuard {
    fn drop(&mut self) {
        if !self.collected {
            self.kill();
        }
    }
}

/// Why the main loop stopped.
enum Ending {
    Exited,
    TimedOut,
    Cancelled,
}

/// The cmd.exe of the hook's environment: `ComSpec`, else
/// `%SystemRoot%\System32\cmd.exe`, else `cmd.exe` found the usual way.
fn comspec(env: &Environment) -> PathBuf {
    if let Some(c) = env.get(OsStr::new("ComSpec")).filter(|c| !c.is_empty()) {
        return PathBuf::from(c);
    }
    if let Some(root) = env.get(OsStr::new("SystemRoot")).filter(|c| !c.is_empty()) {
        return Path::new(root).join("System32").join("cmd.exe");
    }
    PathBuf::from("cmd.exe")
}

/// Whether `path` names cmd.exe (`cmd`, `cmd.exe`, any case, any directory).
pub(super) fn is_cmd(path: &Path) -> bool {
    path.file_stem().is_some_and(|s| s.eq_ignore_ascii_case("cmd"))
        && path.extension().is_none_or(|e| e.eq_ignore_ascii_case("exe"))
}

/// The command line after the program, as the process will see it, for
/// `program` running `command` (shown in tests; [`build`] passes the same).
pub(super) fn cmd_tail(flags: &[&str], command: &str) -> String {
    let wrap = flags.iter().any(|f| f.eq_ignore_ascii_case("/s"));
    let mut tail = flags.join(" ");
    if !tail.is_empty() {
        tail.push(' ');
    }
    if wrap {
        tail.push('"');
        tail.push_str(command);
        tail.push('"');
    } else {
        tail.push_str(command);
    }
    tail
}

/// The `Command` that starts what `spec` says.
fn build(spec: &CommandSpec<'_>) -> Command {
    let mut command = match spec.program {
        Program::Sh => {
            let mut c = Command::new(comspec(spec.env));
            c.raw_arg(cmd_tail(&["/d", "/s", "/c"], spec.command));
            c
        }
        Program::Shell { path, flags } if is_cmd(path) => {
            let mut c = Command::new(path);
            c.raw_arg(cmd_tail(flags, spec.command));
            c
        }
        Program::Shell { path, flags } => {
            let mut c = Command::new(path);
            c.args(flags).arg(spec.command);
            c
        }
        Program::Exec { path, args } => {
            let mut c = Command::new(path);
            c.args(args);
            c
        }
    };
    command.current_dir(spec.cwd).env_clear().envs(spec.env.iter());
    command.creation_flags(CREATE_SUSPENDED | CREATE_NO_WINDOW);
    command
}

fn cancelled_before_start(start: Instant) -> CommandOutput {
    CommandOutput { cancelled: true, duration: start.elapsed(), ..CommandOutput::default() }
}

/// Start the hook suspended, put it in its job, resume it.
fn start(
    spec: &CommandSpec<'_>,
    stdin: std::os::windows::io::OwnedHandle,
    stdout: std::os::windows::io::OwnedHandle,
    stderr: std::os::windows::io::OwnedHandle,
) -> io::Result<HookGuard> {
    let job =
        Job::new().map_err(|e| io::Error::new(e.kind(), format!("cannot create a job object for the hook: {e}")))?;
    let mut command = build(spec);
    command.stdin(Stdio::from(stdin)).stdout(Stdio::from(stdout)).stderr(Stdio::from(stderr));
    let child = command.spawn()?;
    // The hook's pipe ends (ours, the originals) close with the command.
    drop(command);
    let mut guard = HookGuard { child, job: None, collected: false };
    if let Err(e) = job.assign(guard.child.as_handle()) {
        // Not started yet: the guard kills it (the process alone).
        return Err(io::Error::new(e.kind(), format!("cannot put the hook in its job object: {e}")));
    }
    guard.job = Some(job);
    match win32::resume_threads(guard.child.id()) {
        Ok(0) => Err(io::Error::other("the hook process has no thread to resume")),
        Ok(_) => Ok(guard),
        Err(e) => Err(io::Error::new(e.kind(), format!("cannot resume the hook process: {e}"))),
    }
}

/// Run one command (see the module documentation).
pub(super) fn run(spec: &CommandSpec<'_>, cancel: Option<&CancelToken>) -> io::Result<CommandOutput> {
    let start_time = Instant::now();
    if let Some(token) = cancel {
        if token.arm()? {
            return Ok(cancelled_before_start(start_time));
        }
    }
    let deadline = start_time.checked_add(spec.timeout);
    let buffer = CHUNK as u32;
    let (stdin_ours, stdin_theirs) = win32::pipe(Direction::ToChild, buffer)?;
    let (stdout_ours, stdout_theirs) = win32::pipe(Direction::FromChild, buffer)?;
    let (stderr_ours, stderr_theirs) = win32::pipe(Direction::FromChild, buffer)?;
    let mut guard = start(spec, stdin_theirs, stdout_theirs, stderr_theirs)?;

    let cap = spec.max_output_bytes;
    let mut feeder = Feeder { pipe: Some(stdin_ours), payload: spec.stdin };
    let mut out = Capture::new(stdout_ours);
    let mut err = Capture::new(stderr_ours);
    let cancel_event = cancel.and_then(CancelToken::event);
    // When the hook's process exited (then the grace runs).
    let mut exited_at: Option<Instant> = None;

    let ending = loop {
        let busy = feeder.pump() | out.pump(cap) | err.pump(cap);
        let now = Instant::now();
        if cancel.is_some_and(CancelToken::is_cancelled) {
            break Ending::Cancelled;
        }
        let until = match exited_at {
            Some(at) => {
                if !out.open() && !err.open() || now >= at + EXIT_GRACE {
                    break Ending::Exited;
                }
                Some(at + EXIT_GRACE)
            }
            None => {
                if deadline.is_some_and(|d| now >= d) {
                    break Ending::TimedOut;
                }
                deadline
            }
        };
        let mut handles: Vec<BorrowedHandle<'_>> = Vec::with_capacity(5);
        let process_slot = exited_at.is_none().then(|| {
            handles.push(guard.child.as_handle());
            handles.len() - 1
        });
        handles.extend(cancel_event.map(win32::Event::handle));
        handles.extend(feeder.event());
        handles.extend(out.event());
        handles.extend(err.event());
        let timeout = if busy { Some(Duration::ZERO) } else { until.map(|u| u.saturating_duration_since(now)) };
        let signalled = win32::wait_any(&handles, timeout)?;
        if signalled.is_some() && signalled == process_slot {
            exited_at = Some(Instant::now());
            // Whatever was not written is not read: stop writing.
            feeder.pipe = None;
        }
    };

    let mut output = CommandOutput::default();
    match ending {
        Ending::Exited => {
            output.exit_code = match guard.child.try_wait() {
                Ok(Some(status)) => status.code(),
                Ok(None) => None,
                Err(e) => {
                    crate::hl_debug!("cannot read the hook's exit code: {e}");
                    None
                }
            };
            guard.collected = true;
            if let Some(job) = guard.job.take() {
                job.release();
            }
        }
        Ending::TimedOut | Ending::Cancelled => {
            feeder.pipe = None;
            guard.kill();
            guard.collected = true;
            let _ = guard.child.try_wait();
            if matches!(ending, Ending::TimedOut) {
                output.timed_out = true;
            } else {
                output.cancelled = true;
            }
            // What the tree wrote before it was killed is in the pipes; the
            // kill closed the tree's ends, so EOF follows at once.
            let drain_until = Instant::now() + DRAIN_AFTER_KILL;
            loop {
                let busy = out.pump(cap) | err.pump(cap);
                let now = Instant::now();
                if (!out.open() && !err.open()) || now >= drain_until {
                    break;
                }
                if busy {
                    continue;
                }
                let handles: Vec<BorrowedHandle<'_>> = out.event().into_iter().chain(err.event()).collect();
                if handles.is_empty() {
                    break;
                }
                win32::wait_any(&handles, Some(drain_until - now))?;
            }
        }
    }
    // Dropping the captures cancels any read still in flight.
    output.stdout = std::mem::take(&mut out.data);
    output.stdout_truncated = out.truncated;
    output.stderr = std::mem::take(&mut err.data);
    output.stderr_truncated = err.truncated;
    drop((out, err, feeder, guard));
    output.duration = start_time.elapsed();
    Ok(output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cmd_is_recognised_by_its_name_in_any_case() {
        assert!(is_cmd(Path::new(r"C:\Windows\System32\cmd.exe")));
        assert!(is_cmd(Path::new("CMD.EXE")));
        assert!(is_cmd(Path::new("cmd")));
        assert!(!is_cmd(Path::new("cmd.bat")));
        assert!(!is_cmd(Path::new("powershell.exe")));
    }

    #[test]
    fn cmd_gets_the_command_verbatim_quoted_once_under_s() {
        assert_eq!(cmd_tail(&["/d", "/s", "/c"], r#"echo "a b" & exit 3"#), r#"/d /s /c "echo "a b" & exit 3""#);
        assert_eq!(cmd_tail(&["/C"], "echo hi"), "/C echo hi");
        assert_eq!(cmd_tail(&[], "x"), "x");
    }
}
