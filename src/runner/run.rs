//! The run loop shared by every backend: spawns one hook command
//! (`/bin/sh -c <command>`) and collects its exit status and output,
//! whatever the hook does.
//!
//! # Design
//!
//! One synchronous call, one `poll(2)` loop on non-blocking descriptors, no
//! helper threads. The loop watches, at once:
//!
//! - the hook's **stdin**, written concurrently with reading its output, so
//!   a hook that prints a lot before reading (or never reads a 10 MiB
//!   payload) cannot deadlock against us;
//! - its **stdout** and **stderr** (std pipes, close-on-exec), each kept up
//!   to `max_output_bytes` and then drained and dropped, so memory stays
//!   bounded even when a hook prints a gigabyte;
//! - the shell's **exit** ([`ExitWatch`]: a pidfd or a kqueue readable the
//!   moment the shell exits, or a short bounded `waitpid(WNOHANG)` tick);
//! - the run's [`CancelToken`] (an `eventfd` or a self-pipe), so a cancel
//!   from another thread wakes every runner of that run immediately.
//!
//! **Why stdin cannot raise SIGPIPE.** Writing to a pipe whose reader is
//! gone raises `SIGPIPE`, and a C host with the default disposition dies of
//! it. The library must not change signal dispositions or masks, so we keep
//! a second (close-on-exec) copy of the stdin pipe's *read* end open in our
//! process while we write: the pipe always has a reader, so a write can
//! never raise `SIGPIPE` (a hook that closed its stdin just leaves the rest
//! of the payload unread, and we stop writing when the shell exits). After
//! the payload both our ends are closed, so the hook sees EOF. Hooks get a
//! real FIFO on stdin: `cat`, `read`, `jq`, `open("/dev/stdin")` and
//! `fs.readFileSync("/dev/stdin")` all work.
//!
//! **Why a new process group.** The shell is its own group leader, so at the
//! timeout (or on cancel) one `kill(-pgid, SIGKILL)` takes down the shell and
//! every grandchild it started — including one like `sleep 1000 &` that
//! inherited our pipes and would otherwise keep them open forever. The group
//! is only ever signalled before the shell is reaped, while its pid (and so
//! the group id) cannot have been reused.
//!
//! **Why a grace after exit.** When the shell exits on its own, whatever it
//! wrote is already in the pipes; a background process it left behind may
//! still hold them open. We drain what is there and wait at most
//! [`EXIT_GRACE`] for EOF, then return without killing anything, so
//! fire-and-forget hooks (`(slow_thing &) ; echo done`) stay possible.
//!
//! **Spawning.** `posix_spawn` (vfork-like, cheap) of `/bin/sh -c
//! <command>` with a working directory, a new process group, an empty
//! signal mask, `SIGPIPE` at its default action, and the environment as one
//! prepared block ([`Environment`](super::Environment), built once per run)
//! — `std::process::Command` would copy the
//! whole environment into a map and a `CString` per variable at every spawn,
//! which was most of hookline's own CPU time per command hook. Systems whose
//! C library lacks `posix_spawn_file_actions_addchdir_np` use
//! `std::process::Command` with the same settings (`Spawner::Std`, also
//! selectable for tests; it forks, so that the child can clear the signal
//! mask std would otherwise pass on). Every descriptor we create is close-on-exec before
//! any other hookline spawn can see it, so concurrent spawns on other
//! threads never inherit another hook's pipes (which would delay its EOF).
//! Every direct child is reaped (`waitpid` on its pid) before
//! [`run_command`](super::run_command) returns, on every path (a guard kills
//! and reaps the group if anything fails midway).

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::time::Instant;

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::io::Errno;
use rustix::process::{Pid, Signal, WaitOptions};

use super::watch::ExitWatch;
use super::{Backend, CancelToken, CommandOutput, CommandSpec, Program, Spawner, EXIT_GRACE};

/// Largest single read from an output stream (a Linux pipe holds 64 KiB).
const READ_CHUNK: usize = 64 * 1024;

/// First allocation for a stream's output (most hooks print little).
const FIRST_CHUNK: usize = 4 * 1024;

/// Reads per stream after a kill, to pick up what is buffered without
/// chasing a writer that escaped the process group.
const DRAIN_READS_AFTER_KILL: usize = 4;

/// Owns the spawned shell: if dropped before it was reaped (an error or a
/// panic midway), kills its process group and reaps it.
struct ShellGuard {
    /// The shell's pid, which is also its process group id.
    pid: Pid,
    reaped: bool,
}

impl ShellGuard {
    /// Kill the whole process group (and the shell itself, should it have
    /// left the group), then reap the shell. Only valid before reaping.
    fn kill_and_reap(&mut self) {
        debug_assert!(!self.reaped);
        let _ = rustix::process::kill_process_group(self.pid, Signal::KILL);
        let _ = rustix::process::kill_process(self.pid, Signal::KILL);
        // ECHILD (the host reaped it) is fine: it is gone either way.
        while let Err(Errno::INTR) = rustix::process::waitpid(Some(self.pid), WaitOptions::empty()) {}
        self.reaped = true;
    }

    /// Non-blocking reap. `Some(None)`: gone, status unknown.
    ///
    /// When somebody else reaped the shell (ECHILD: the host ignores
    /// SIGCHLD, so the kernel reaps its children, or a host handler calls
    /// `waitpid(-1)`), the status comes from the exit watch where it keeps
    /// one (a pidfd on Linux 6.15+, the kqueue exit event on macOS and the
    /// BSDs), so an `exit 2` deny is not lost to the host's signal set-up.
    /// Otherwise it stays unknown (PreToolUse then fails closed).
    fn try_reap(&mut self, watch: &mut ExitWatch) -> Option<Option<ExitStatus>> {
        match rustix::process::waitpid(Some(self.pid), WaitOptions::NOHANG) {
            Ok(Some((_, status))) => {
                self.reaped = true;
                Some(Some(ExitStatus::from_raw(status.as_raw())))
            }
            Ok(None) | Err(Errno::INTR) => None,
            Err(e) => {
                self.reaped = true;
                let raw = watch.recover_status();
                if raw.is_none() {
                    crate::hl_debug!("cannot collect the exit status of hook shell {}: {e}", self.pid.as_raw_nonzero());
                }
                Some(raw.map(ExitStatus::from_raw))
            }
        }
    }
}

impl Drop for ShellGuard {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill_and_reap();
        }
    }
}

/// One output stream being collected.
struct Capture {
    fd: Option<OwnedFd>,
    data: Vec<u8>,
    truncated: bool,
}

impl Capture {
    fn new(fd: Option<OwnedFd>) -> io::Result<Capture> {
        if let Some(fd) = &fd {
            rustix::io::ioctl_fionbio(fd, true)?;
        }
        Ok(Capture { fd, data: Vec::new(), truncated: false })
    }

    fn open(&self) -> bool {
        self.fd.is_some()
    }

    /// One read. Returns whether data (or EOF) was consumed, i.e. whether
    /// another read might make progress.
    fn read_once(&mut self, cap: usize, scratch: &mut Vec<u8>) -> bool {
        let Some(fd) = &self.fd else { return false };
        let result = if self.data.len() < cap {
            let room = cap - self.data.len();
            let want = room.min(self.data.len().clamp(FIRST_CHUNK, READ_CHUNK));
            self.data.reserve(want);
            rustix::io::read(fd, rustix::buffer::spare_capacity(&mut self.data))
        } else {
            if scratch.is_empty() {
                scratch.resize(READ_CHUNK, 0);
            }
            rustix::io::read(fd, &mut scratch[..]).inspect(|&n| {
                if n > 0 {
                    self.truncated = true;
                }
            })
        };
        match result {
            Ok(0) => {
                self.fd = None;
                false
            }
            Ok(_) => {
                if self.data.len() > cap {
                    // The read ran into spare capacity beyond the cap.
                    self.data.truncate(cap);
                    self.truncated = true;
                }
                true
            }
            Err(Errno::AGAIN) | Err(Errno::INTR) => false,
            Err(e) => {
                crate::hl_debug!("reading hook output failed: {e}");
                self.fd = None;
                false
            }
        }
    }

    /// Read what is buffered now, without waiting.
    fn drain_now(&mut self, cap: usize, scratch: &mut Vec<u8>, max_reads: usize) {
        for _ in 0..max_reads {
            if !self.read_once(cap, scratch) {
                break;
            }
        }
    }
}

/// The payload writer for the hook's stdin pipe.
struct Feeder<'a> {
    /// Our non-blocking write end; `None` once the payload is written.
    fd: Option<OwnedFd>,
    /// A close-on-exec copy of the read end, held while we write so the
    /// pipe always has a reader: a write never raises SIGPIPE.
    keepalive: Option<OwnedFd>,
    payload: &'a [u8],
}

impl Feeder<'_> {
    /// Write as much as the pipe takes now; close both our ends when done.
    fn pump(&mut self) {
        while let Some(fd) = &self.fd {
            if self.payload.is_empty() {
                // Closing our write end is the hook's EOF.
                self.close();
                return;
            }
            match rustix::io::write(fd, self.payload) {
                Ok(n) => self.payload = &self.payload[n..],
                Err(Errno::INTR) => {}
                Err(Errno::AGAIN) => return,
                Err(_) => {
                    self.close();
                    return;
                }
            }
        }
    }

    fn close(&mut self) {
        self.fd = None;
        self.keepalive = None;
    }
}

/// Why the main loop stopped before a normal exit.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    Exited(Option<ExitStatus>),
    TimedOut,
    Cancelled,
}

fn cancelled_before_start(start: Instant) -> CommandOutput {
    CommandOutput { cancelled: true, duration: start.elapsed(), ..CommandOutput::default() }
}

/// A poll timeout from now until `until` (`None`: wait indefinitely).
fn timeout_until(until: Option<Instant>, now: Instant) -> Option<Timespec> {
    let until = until?;
    Timespec::try_from(until.saturating_duration_since(now)).ok()
}

/// `poll` on the present slots; returns each slot's `revents` (empty for
/// absent slots, and for all of them on `EINTR`).
fn poll_slots<const N: usize>(
    slots: [Option<(BorrowedFd<'_>, PollFlags)>; N],
    timeout: Option<&Timespec>,
) -> io::Result<[PollFlags; N]> {
    // Filler for the unused tail of the array; never passed to poll.
    let filler = PollFd::from_borrowed_fd(rustix::stdio::stdin(), PollFlags::empty());
    let mut fds: [PollFd<'_>; N] = std::array::from_fn(|_| filler.clone());
    let mut which = [0usize; N];
    let mut n = 0;
    for (slot, entry) in slots.iter().enumerate() {
        if let Some((fd, events)) = entry {
            fds[n] = PollFd::from_borrowed_fd(*fd, *events);
            which[n] = slot;
            n += 1;
        }
    }
    let mut revents = [PollFlags::empty(); N];
    match poll(&mut fds[..n], timeout) {
        Ok(_) => {
            for i in 0..n {
                revents[which[i]] = fds[i].revents();
            }
        }
        Err(Errno::INTR) => {}
        Err(e) => return Err(e.into()),
    }
    Ok(revents)
}

/// A close-on-exec pipe `(read, write)` made the way `backend` makes them.
fn cloexec_pipe(backend: Backend) -> io::Result<(OwnedFd, OwnedFd)> {
    match backend {
        #[cfg(target_os = "linux")]
        Backend::Linux => super::linux::cloexec_pipe(),
        Backend::Posix => super::posix::cloexec_pipe(),
    }
}

/// The started shell: its pid and our ends of its stdout and stderr.
struct Started {
    pid: Pid,
    stdout: OwnedFd,
    stderr: OwnedFd,
}

/// `fd` itself when it is above the standard descriptors, else a
/// close-on-exec copy that is (a host that closed its stdin could be handed
/// a pipe end as descriptor 0; as a `dup2` source it would be overwritten).
#[cfg_attr(not(hookline_posix_spawn), allow(dead_code))]
fn above_stdio(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Ok(fd);
    }
    Ok(rustix::io::fcntl_dupfd_cloexec(&fd, 3)?)
}

/// Start `/bin/sh -c <command>` (or `argv`) with `stdin` (the read end of the payload
/// pipe) as its stdin and fresh pipes for its stdout and stderr.
fn start_shell(spec: &CommandSpec<'_>, backend: Backend, spawner: Spawner, stdin: OwnedFd) -> io::Result<Started> {
    match spawner {
        #[cfg(hookline_posix_spawn)]
        Spawner::PosixSpawn => start_with_posix_spawn(spec, backend, stdin),
        Spawner::Std => start_with_std(spec, backend, stdin),
    }
}

/// The program a spec starts and its argument vector (`argv[0]` first).
fn program_and_argv<'a>(spec: &CommandSpec<'a>) -> (&'a std::ffi::OsStr, Vec<&'a std::ffi::OsStr>) {
    use std::ffi::OsStr;
    match spec.program {
        Program::Sh => (OsStr::new("/bin/sh"), vec![OsStr::new("/bin/sh"), OsStr::new("-c"), OsStr::new(spec.command)]),
        Program::Shell { path, flags } => {
            let mut argv = vec![path.as_os_str()];
            argv.extend(flags.iter().map(OsStr::new));
            argv.push(OsStr::new(spec.command));
            (path.as_os_str(), argv)
        }
        Program::Exec { path, args } => {
            let mut argv = vec![OsStr::new(spec.command)];
            argv.extend(args.iter().map(OsStr::new));
            (path.as_os_str(), argv)
        }
    }
}

#[cfg(hookline_posix_spawn)]
fn start_with_posix_spawn(spec: &CommandSpec<'_>, backend: Backend, stdin: OwnedFd) -> io::Result<Started> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;

    let nul =
        |what: &str| io::Error::new(io::ErrorKind::InvalidInput, format!("the hook's {what} contains a NUL byte"));
    let (program, argv) = program_and_argv(spec);
    let program = CString::new(program.as_bytes()).map_err(|_| nul("command"))?;
    let argv = argv
        .into_iter()
        .map(|a| CString::new(a.as_bytes()).map_err(|_| nul("command or arguments")))
        .collect::<io::Result<Vec<CString>>>()?;
    let argv: Vec<&std::ffi::CStr> = argv.iter().map(CString::as_c_str).collect();
    let cwd = CString::new(spec.cwd.as_os_str().as_bytes()).map_err(|_| nul("working directory"))?;
    let (stdout, stdout_child) = cloexec_pipe(backend)?;
    let (stderr, stderr_child) = cloexec_pipe(backend)?;
    let stdio = [above_stdio(stdin)?, above_stdio(stdout_child)?, above_stdio(stderr_child)?];
    let pid = serialised(backend, || {
        super::sys::posix_spawn_shell(
            &program,
            &argv,
            &cwd,
            spec.env,
            [stdio[0].as_fd(), stdio[1].as_fd(), stdio[2].as_fd()],
        )
    })?;
    // `stdio` (the child's ends) is closed here; `keepalive` keeps stdin's
    // pipe readable for our writes.
    Ok(Started { pid, stdout, stderr })
}

fn start_with_std(spec: &CommandSpec<'_>, backend: Backend, stdin: OwnedFd) -> io::Result<Started> {
    let (program, argv) = program_and_argv(spec);
    let mut command = Command::new(program);
    if let Some(arg0) = argv.first() {
        std::os::unix::process::CommandExt::arg0(&mut command, arg0);
    }
    command
        .args(&argv[1..])
        .current_dir(spec.cwd)
        .env_clear()
        .envs(spec.env.iter())
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    super::sys::clear_signal_mask_at_exec(&mut command);
    let spawned = serialised(backend, || command.spawn());
    // Dropping the Command closes our copy of the child's end of the stdin
    // pipe; `keepalive` (a separate description) stays open while we write.
    drop(command);
    let mut child = spawned?;
    let pid = Pid::from_child(&child);
    let stdout = child.stdout.take().map(OwnedFd::from);
    let stderr = child.stderr.take().map(OwnedFd::from);
    // From here the shell is reaped by pid (dropping a `Child` neither
    // waits nor kills).
    drop(child);
    match (stdout, stderr) {
        (Some(stdout), Some(stderr)) => Ok(Started { pid, stdout, stderr }),
        _ => {
            ShellGuard { pid, reaped: false }.kill_and_reap();
            Err(io::Error::other("std::process::Command gave no output pipes"))
        }
    }
}

/// `f` under the portable backend's spawn lock (see `posix.rs`); directly
/// on the Linux backend.
fn serialised<T>(backend: Backend, f: impl FnOnce() -> T) -> T {
    match backend {
        #[cfg(target_os = "linux")]
        Backend::Linux => f(),
        Backend::Posix => super::posix::serialised(f),
    }
}

/// Run one command on `backend`, started by `spawner` (`use_pidfd`
/// false: the Linux backend ticks instead, for tests of that fallback).
pub(super) fn run(
    spec: &CommandSpec<'_>,
    cancel: Option<&CancelToken>,
    backend: Backend,
    spawner: Spawner,
    use_pidfd: bool,
) -> io::Result<CommandOutput> {
    let start = Instant::now();
    if let Some(token) = cancel {
        // From here on a cancel wakes the loop (or was seen just now).
        if token.arm()? {
            return Ok(cancelled_before_start(start));
        }
    }

    let (theirs, ours) = cloexec_pipe(backend)?;
    let keepalive = rustix::io::fcntl_dupfd_cloexec(&theirs, 0)?;
    rustix::io::ioctl_fionbio(&ours, true)?;
    let started = start_shell(spec, backend, spawner, theirs).map_err(|e| {
        let program = program_and_argv(spec).0;
        io::Error::new(e.kind(), format!("cannot run {} in {}: {e}", program.to_string_lossy(), spec.cwd.display()))
    })?;
    let pgid = started.pid;
    let mut shell = ShellGuard { pid: started.pid, reaped: false };
    let (stdout_fd, stderr_fd) = (Some(started.stdout), Some(started.stderr));

    let mut stdout = Capture::new(stdout_fd)?;
    let mut stderr = Capture::new(stderr_fd)?;
    let mut feeder = Feeder { fd: Some(ours), keepalive: Some(keepalive), payload: spec.stdin };
    feeder.pump();

    let mut watch = ExitWatch::new(backend, pgid, use_pidfd, Instant::now());

    let cap = spec.max_output_bytes;
    let deadline = start.checked_add(spec.timeout);
    let mut scratch = Vec::new();

    let ending = loop {
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            // It may have exited just now, before its exit was seen.
            if let Some(status) = shell.try_reap(&mut watch) {
                break Ending::Exited(status);
            }
            break Ending::TimedOut;
        }
        if watch.due(now) {
            if let Some(status) = shell.try_reap(&mut watch) {
                break Ending::Exited(status);
            }
            watch.still_running(now);
        }

        let wake = match (deadline, watch.next_check()) {
            (Some(d), Some(t)) => Some(d.min(t)),
            (d, t) => d.or(t),
        };
        let timeout = timeout_until(wake, now);

        // Slots: stdout, stderr, stdin, exit watch, cancel.
        let revents = poll_slots(
            [
                stdout.fd.as_ref().map(|fd| (fd.as_fd(), PollFlags::IN)),
                stderr.fd.as_ref().map(|fd| (fd.as_fd(), PollFlags::IN)),
                feeder.fd.as_ref().map(|fd| (fd.as_fd(), PollFlags::OUT)),
                watch.fd().map(|fd| (fd, PollFlags::IN)),
                cancel.and_then(CancelToken::fd).map(|fd| (fd, PollFlags::IN)),
            ],
            timeout.as_ref(),
        )?; // on error the guard kills and reaps
        let open = (stdout.open(), stderr.open());
        if !revents[0].is_empty() {
            stdout.read_once(cap, &mut scratch);
        }
        if !revents[1].is_empty() {
            stderr.read_once(cap, &mut scratch);
        }
        if open != (stdout.open(), stderr.open()) {
            // A stream reached EOF: the shell is probably exiting.
            watch.hurry(Instant::now());
        }
        if !revents[2].is_empty() {
            feeder.pump();
        }
        if !revents[3].is_empty() {
            watch.fired(Instant::now());
            if let Some(status) = shell.try_reap(&mut watch) {
                break Ending::Exited(status);
            }
        }
        if !revents[4].is_empty() {
            break Ending::Cancelled;
        }
    };

    // Our ends of stdin are closed on every path from here on.
    feeder.close();
    let mut output = CommandOutput::default();
    match ending {
        Ending::Exited(status) => {
            if let Some(status) = status {
                output.exit_code = status.code();
                output.signal = status.signal();
            }
            collect_after_exit(&mut stdout, &mut stderr, cap, &mut scratch, cancel);
        }
        Ending::TimedOut | Ending::Cancelled => {
            shell.kill_and_reap();
            stdout.drain_now(cap, &mut scratch, DRAIN_READS_AFTER_KILL);
            stderr.drain_now(cap, &mut scratch, DRAIN_READS_AFTER_KILL);
            output.timed_out = ending == Ending::TimedOut;
            output.cancelled = ending == Ending::Cancelled;
        }
    }

    output.stdout = stdout.data;
    output.stderr = stderr.data;
    output.stdout_truncated = stdout.truncated;
    output.stderr_truncated = stderr.truncated;
    output.duration = start.elapsed();
    Ok(output)
}

/// After the shell exited: read until both streams reach EOF, but no longer
/// than [`EXIT_GRACE`] (background processes may hold them open; they are
/// left alone). A cancel ends the grace at once.
fn collect_after_exit(
    stdout: &mut Capture,
    stderr: &mut Capture,
    cap: usize,
    scratch: &mut Vec<u8>,
    cancel: Option<&CancelToken>,
) {
    let grace_end = Instant::now() + EXIT_GRACE;
    while stdout.open() || stderr.open() {
        let now = Instant::now();
        if now >= grace_end {
            break;
        }
        let timeout = timeout_until(Some(grace_end), now);
        let polled = poll_slots(
            [
                stdout.fd.as_ref().map(|fd| (fd.as_fd(), PollFlags::IN)),
                stderr.fd.as_ref().map(|fd| (fd.as_fd(), PollFlags::IN)),
                cancel.and_then(CancelToken::fd).map(|fd| (fd, PollFlags::IN)),
            ],
            timeout.as_ref(),
        );
        let Ok(revents) = polled else { break };
        if !revents[0].is_empty() {
            stdout.read_once(cap, scratch);
        }
        if !revents[1].is_empty() {
            stderr.read_once(cap, scratch);
        }
        if !revents[2].is_empty() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timeout_until_past_instant_is_zero() {
        let now = Instant::now();
        let t = timeout_until(Some(now), now + Duration::from_secs(1)).unwrap();
        assert_eq!((t.tv_sec, t.tv_nsec), (0, 0));
        assert!(timeout_until(None, now).is_none());
    }
}
