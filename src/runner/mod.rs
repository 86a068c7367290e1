//! The command runner's public face: what to run ([`CommandSpec`]), what it
//! did ([`CommandOutput`]), cancellation ([`CancelToken`]), and the choice of
//! operating-system backend.
//!
//! A command is `/bin/sh -c <command>` (or another shell, or a program
//! run directly: [`Program`]) in its own process group, with the
//! payload written to its stdin while stdout and stderr are read, each
//! stream capped, the whole group killed at the timeout or on cancel, and
//! every direct child reaped before [`run_command`] returns. The loop that
//! does this is shared by every backend (`run.rs`, its design notes are
//! there); the backends differ only in how descriptors are made, how a
//! cancel wakes the loop and how the loop learns that the shell exited:
//!
//! | | `linux` (default on Linux) | `posix` (every other Unix; selectable on Linux) |
//! |---|---|---|
//! | pipes | `pipe2(O_CLOEXEC)` | `pipe2(O_CLOEXEC)` where it exists, else `pipe` + `FD_CLOEXEC` under the spawn lock |
//! | cancel wake-up | `eventfd` | self-pipe |
//! | shell exit | pidfd (`pidfd_open`), `waitpid` tick if unavailable | kqueue `EVFILT_PROC`/`NOTE_EXIT` on macOS and the BSDs, `waitpid` tick elsewhere |
//! | status after the host reaped the shell | `PIDFD_GET_INFO` (Linux 6.15+) | the `NOTE_EXIT` event's data (kqueue); unknown on the tick |
//!
//! `HOOKLINE_RUNNER=posix` selects the portable backend on Linux (read once
//! per process), so the code path macOS and the BSDs use is tested by
//! behaviour here too.
//!
//! Windows has a backend of its own (`windows.rs`, its system calls in
//! `win32.rs`): the hook is started suspended, put in a job object of its
//! own (the process group of Windows: terminating the job ends every
//! process the hook started), then resumed; its pipes are named pipes read
//! and written with overlapped I/O in one wait loop. `docs/runner.md` has
//! the details.

use std::ffi::OsStr;
use std::fmt;
use std::io;
#[cfg(unix)]
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

mod env;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(unix)]
mod posix;
#[cfg(unix)]
mod run;
/// The runner's only `unsafe` code on Unix: operating-system calls that
/// have no safe wrapper in rustix or libc (`posix_spawn`, the pidfd
/// exit-information ioctl and `kevent`). Each function it exports is safe
/// to call.
#[cfg(unix)]
#[allow(unsafe_code)]
mod sys;
#[cfg(unix)]
mod watch;
/// The runner's only `unsafe` code on Windows: the Win32 calls (job
/// objects, thread resumption, overlapped named pipes, waits). Each
/// function and type it exports is safe to use.
#[cfg(windows)]
#[allow(unsafe_code)]
mod win32;
/// The Windows backend's wait loop (safe code).
#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use win32::no_inherit;
#[cfg(windows)]
pub use win32::open_handle_count;

/// How long, after the shell has exited, we keep reading for EOF from
/// processes it left behind before returning with what we have.
pub const EXIT_GRACE: Duration = Duration::from_millis(30);

/// The environment variable that selects the runner backend.
pub const BACKEND_ENV: &str = "HOOKLINE_RUNNER";

pub use env::Environment;

/// What a command's process is.
#[derive(Debug, Clone, Copy, Default)]
pub enum Program<'a> {
    /// `command` is shell text, run as `/bin/sh -c <command>`; on Windows
    /// as `%ComSpec% /d /s /c "<command>"` (the hook environment's
    /// `ComSpec`, else `%SystemRoot%\System32\cmd.exe`), the command text
    /// passed to cmd.exe verbatim.
    #[default]
    Sh,
    /// `command` is shell text, run by the shell at `path` with `flags`
    /// before it (`bash -c <command>`, `pwsh -NoProfile -Command <command>`).
    /// On Windows, when the shell is `cmd.exe`, the flags and the command
    /// reach it verbatim (cmd does not parse arguments the way other
    /// programs do), the command in one pair of quotes when the flags have
    /// `/s`; other shells get them quoted as Windows programs parse them.
    Shell { path: &'a Path, flags: &'a [&'a str] },
    /// Exec form: the executable at `path` is spawned directly, `command`
    /// as its `argv[0]` and `args` after it; no shell. (Windows has no
    /// separate `argv[0]`: the command line is `path` then `args`.)
    Exec { path: &'a Path, args: &'a [String] },
}

/// What to run and how.
#[derive(Debug, Clone, Copy)]
pub struct CommandSpec<'a> {
    /// Shell text, run as `/bin/sh -c <command>` (or as [`program`](Self::program) says).
    pub command: &'a str,
    /// How `command` is run (default: `/bin/sh -c`).
    pub program: Program<'a>,
    /// Working directory of the shell.
    pub cwd: &'a Path,
    /// The complete environment of the shell (nothing is inherited).
    pub env: &'a Environment,
    /// Bytes written to the hook's stdin (compact JSON + `"\n"`), then EOF.
    pub stdin: &'a [u8],
    /// Wall-clock limit; at the limit the whole process group is killed.
    pub timeout: Duration,
    /// Per-stream cap on kept output; the rest is drained and dropped.
    pub max_output_bytes: usize,
}

/// What a command did.
#[derive(Debug, Clone, Default)]
pub struct CommandOutput {
    /// The shell's exit code; `None` when killed by a signal, timed out,
    /// cancelled, or when the status could not be collected (the host
    /// reaped it, e.g. `SIGCHLD` set to `SIG_IGN`, and the backend has no
    /// way to recover it: see [`Backend`]).
    pub exit_code: Option<i32>,
    /// The signal that ended the shell, if any (not set when hookline
    /// killed it at the timeout or on cancel).
    pub signal: Option<i32>,
    /// The timeout expired and the process group was killed.
    pub timed_out: bool,
    /// The run was cancelled (before spawning, or the group was killed).
    pub cancelled: bool,
    /// Captured stdout, at most `max_output_bytes`.
    pub stdout: Vec<u8>,
    /// Captured stderr, at most `max_output_bytes`.
    pub stderr: Vec<u8>,
    /// stdout had more than `max_output_bytes`.
    pub stdout_truncated: bool,
    /// stderr had more than `max_output_bytes`.
    pub stderr_truncated: bool,
    /// Wall-clock time from the call to its return.
    pub duration: Duration,
}

/// The operating-system backend of the runner.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Linux: pidfd exit detection (exit status recovered with
    /// `PIDFD_GET_INFO` when the host reaped the shell), `eventfd` cancel.
    #[cfg(target_os = "linux")]
    Linux,
    /// Portable POSIX: plain pipes, a self-pipe for cancel, kqueue
    /// `EVFILT_PROC` exit detection on macOS and the BSDs (the exit status
    /// comes with the event, so it survives a host that reaps children),
    /// a bounded `waitpid(WNOHANG)` tick elsewhere (there the status of a
    /// shell the host reaped is unknown: `exit_code` and `signal` are
    /// `None`, and PreToolUse fails closed).
    #[cfg(unix)]
    Posix,
    /// Windows: a job object per hook (started suspended, assigned,
    /// resumed), overlapped named pipes, one wait loop.
    #[cfg(windows)]
    Windows,
}

impl Backend {
    /// Every backend this system has, the default first.
    pub const ALL: &'static [Backend] = &[
        #[cfg(target_os = "linux")]
        Backend::Linux,
        #[cfg(unix)]
        Backend::Posix,
        #[cfg(windows)]
        Backend::Windows,
    ];

    /// The default backend of this system.
    pub const DEFAULT: Backend = Backend::ALL[0];

    /// The name `HOOKLINE_RUNNER` accepts for it.
    pub fn name(self) -> &'static str {
        match self {
            #[cfg(target_os = "linux")]
            Backend::Linux => "linux",
            #[cfg(unix)]
            Backend::Posix => "posix",
            #[cfg(windows)]
            Backend::Windows => "windows",
        }
    }

    /// The backend named by a `HOOKLINE_RUNNER` value: unset or empty is the
    /// default; an unknown value is the default with a warning.
    pub fn from_setting(value: Option<&OsStr>) -> Backend {
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            return Backend::DEFAULT;
        };
        if let Some(found) = Backend::ALL.iter().find(|b| value == OsStr::new(b.name())) {
            return *found;
        }
        let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
        crate::hl_warn!(
            "{BACKEND_ENV}={value:?} is not a runner backend on this system (choices: {}); using {:?}",
            names.join(", "),
            Backend::DEFAULT.name()
        );
        Backend::DEFAULT
    }
}

/// How the hook shell is started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spawner {
    /// `posix_spawn` with a prepared environment block (Linux with glibc or
    /// musl, macOS): the default where the C library has
    /// `posix_spawn_file_actions_addchdir_np`.
    #[cfg(hookline_posix_spawn)]
    PosixSpawn,
    /// `std::process::Command` (other systems; selectable for tests).
    Std,
}

impl Spawner {
    const DEFAULT: Spawner = {
        #[cfg(hookline_posix_spawn)]
        let spawner = Spawner::PosixSpawn;
        #[cfg(not(hookline_posix_spawn))]
        let spawner = Spawner::Std;
        spawner
    };
}

/// The backend of this process: `HOOKLINE_RUNNER`, read on first use.
#[doc(hidden)]
pub fn backend() -> Backend {
    static SELECTED: OnceLock<Backend> = OnceLock::new();
    *SELECTED.get_or_init(|| Backend::from_setting(std::env::var_os(BACKEND_ENV).as_deref()))
}

/// Cancellation shared by every command of one run.
///
/// Cloning shares the token. [`cancel`](Self::cancel) marks it and makes its
/// wake-up descriptor (an `eventfd`, or a self-pipe on the portable backend)
/// readable, which wakes every [`run_command`] polling it, on any thread;
/// each one kills its process group and returns with `cancelled = true`.
/// The descriptor is made by the first command that runs under the token,
/// so a run that spawns nothing (callback hooks only) makes no system call
/// for its token.
#[derive(Clone)]
pub struct CancelToken {
    inner: Arc<CancelInner>,
}

struct CancelInner {
    cancelled: AtomicBool,
    /// Serialises `cancel` against `arm`: whichever comes second sees what
    /// the first did (the flag, or the descriptor to fire).
    lock: Mutex<()>,
    wake: OnceLock<Wake>,
}

/// A descriptor that becomes readable, and stays readable, once fired.
enum Wake {
    /// Fired by adding 1 to the counter; never read.
    #[cfg(target_os = "linux")]
    Eventfd(OwnedFd),
    /// Fired by writing one byte; never read. Both ends are ours, so the
    /// write cannot raise SIGPIPE.
    #[cfg(unix)]
    Pipe { read: OwnedFd, write: OwnedFd },
    /// A manual-reset event object, set once.
    #[cfg(windows)]
    Event(win32::Event),
}

impl Wake {
    fn new() -> io::Result<Wake> {
        Ok(match backend() {
            #[cfg(target_os = "linux")]
            Backend::Linux => Wake::Eventfd(linux::wake_eventfd()?),
            #[cfg(unix)]
            Backend::Posix => {
                let (read, write) = posix::self_pipe()?;
                Wake::Pipe { read, write }
            }
            #[cfg(windows)]
            Backend::Windows => Wake::Event(win32::Event::new()?),
        })
    }

    fn fire(&self) {
        // Written once, so neither can be full; cannot fail short of a closed fd.
        let _ = match self {
            #[cfg(target_os = "linux")]
            Wake::Eventfd(fd) => rustix::io::write(fd, &1u64.to_ne_bytes()),
            #[cfg(unix)]
            Wake::Pipe { write, .. } => rustix::io::write(write, b"!"),
            #[cfg(windows)]
            Wake::Event(event) => {
                event.set();
                Ok::<usize, io::Error>(0)
            }
        };
    }

    #[cfg(unix)]
    fn fd(&self) -> BorrowedFd<'_> {
        match self {
            #[cfg(target_os = "linux")]
            Wake::Eventfd(fd) => fd.as_fd(),
            Wake::Pipe { read, .. } => read.as_fd(),
        }
    }
}

impl CancelToken {
    /// A fresh, not cancelled token. (Its wake-up descriptor is made when a
    /// command first runs under it; this never fails today, the `Result`
    /// is kept for callers written against earlier versions.)
    pub fn new() -> io::Result<CancelToken> {
        Ok(CancelToken {
            inner: Arc::new(CancelInner {
                cancelled: AtomicBool::new(false),
                lock: Mutex::new(()),
                wake: OnceLock::new(),
            }),
        })
    }

    /// Cancel: every command running under this token (now or later) is
    /// killed and returns promptly. Idempotent; callable from any thread.
    pub fn cancel(&self) {
        let _serialised = self.inner.lock.lock().unwrap_or_else(|e| e.into_inner());
        if !self.inner.cancelled.swap(true, Ordering::SeqCst) {
            if let Some(wake) = self.inner.wake.get() {
                wake.fire();
            }
        }
    }

    /// Whether [`cancel`](Self::cancel) has been called.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::SeqCst)
    }

    /// Make sure the wake-up descriptor exists, then say whether the token
    /// is cancelled. After `Ok(false)`, a cancel fires the descriptor.
    fn arm(&self) -> io::Result<bool> {
        if self.inner.wake.get().is_none() {
            let wake = Wake::new()?;
            let _serialised = self.inner.lock.lock().unwrap_or_else(|e| e.into_inner());
            // Another command of the run may have armed it meanwhile: then
            // ours is closed again.
            let _ = self.inner.wake.set(wake);
            return Ok(self.is_cancelled());
        }
        Ok(self.is_cancelled())
    }

    /// The wake-up descriptor, once [`arm`](Self::arm)ed.
    #[cfg(unix)]
    fn fd(&self) -> Option<BorrowedFd<'_>> {
        self.inner.wake.get().map(Wake::fd)
    }

    /// The wake-up event, once [`arm`](Self::arm)ed.
    #[cfg(windows)]
    fn event(&self) -> Option<&win32::Event> {
        match self.inner.wake.get()? {
            Wake::Event(event) => Some(event),
        }
    }
}

impl fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CancelToken").field("cancelled", &self.is_cancelled()).finish()
    }
}

/// Run one command to completion, timeout or cancellation, on this
/// process's backend ([`backend`]).
///
/// Synchronous; safe to call concurrently from many threads. Spawn failures
/// (missing `cwd`, missing `/bin/sh`, out of descriptors) are `Err`; a
/// command that runs always yields `Ok`, whatever it does. Every direct child
/// is reaped before this returns. Never panics.
pub fn run_command(spec: &CommandSpec<'_>, cancel: Option<&CancelToken>) -> io::Result<CommandOutput> {
    run_on(spec, cancel, backend(), Spawner::DEFAULT, true)
}

/// The loop of `backend`: the shared Unix loop, or the Windows one (which
/// has one spawner and no pidfd).
fn run_on(
    spec: &CommandSpec<'_>,
    cancel: Option<&CancelToken>,
    backend: Backend,
    spawner: Spawner,
    use_pidfd: bool,
) -> io::Result<CommandOutput> {
    #[cfg(unix)]
    return run::run(spec, cancel, backend, spawner, use_pidfd);
    #[cfg(windows)]
    {
        let (Backend::Windows, Spawner::Std, _) = (backend, spawner, use_pidfd);
        windows::run(spec, cancel)
    }
}

/// [`run_command`] on a given backend, whatever `HOOKLINE_RUNNER` says.
/// For tests that cover every backend in one process.
#[doc(hidden)]
pub fn run_command_on(
    backend: Backend,
    spec: &CommandSpec<'_>,
    cancel: Option<&CancelToken>,
) -> io::Result<CommandOutput> {
    run_on(spec, cancel, backend, Spawner::DEFAULT, true)
}

/// [`run_command_on`] with the shell started by `std::process::Command`,
/// the spawner of systems without `posix_spawn_file_actions_addchdir_np`.
/// For tests of that path on every system.
#[doc(hidden)]
pub fn run_command_with_std_spawn(
    backend: Backend,
    spec: &CommandSpec<'_>,
    cancel: Option<&CancelToken>,
) -> io::Result<CommandOutput> {
    run_on(spec, cancel, backend, Spawner::Std, true)
}

/// [`run_command`] on the Linux backend with exit detection by the
/// `waitpid` tick it uses where `pidfd_open` is unavailable. For tests of
/// that fallback.
#[cfg(target_os = "linux")]
#[doc(hidden)]
pub fn run_command_without_pidfd(spec: &CommandSpec<'_>, cancel: Option<&CancelToken>) -> io::Result<CommandOutput> {
    run::run(spec, cancel, Backend::Linux, Spawner::DEFAULT, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_token_makes_its_descriptor_when_armed_and_a_later_cancel_fires_it() {
        let token = CancelToken::new().unwrap();
        assert!(token.fd().is_none(), "no descriptor before a command needs one");
        assert!(!token.arm().unwrap());
        let fd = token.fd().expect("armed");
        let ready = |fd| {
            let mut fds = [rustix::event::PollFd::from_borrowed_fd(fd, rustix::event::PollFlags::IN)];
            rustix::event::poll(&mut fds, Some(&rustix::event::Timespec { tv_sec: 0, tv_nsec: 0 })).unwrap() == 1
        };
        assert!(!ready(fd));
        token.clone().cancel();
        assert!(ready(token.fd().unwrap()), "cancel fires the armed descriptor");
        assert!(token.arm().unwrap(), "arming a cancelled token says so");
    }

    #[test]
    fn arming_after_a_cancel_reports_it() {
        let token = CancelToken::new().unwrap();
        token.cancel();
        assert!(token.arm().unwrap());
    }

    #[test]
    fn cancel_token_starts_clear_and_cancel_is_shared_by_clones() {
        let token = CancelToken::new().unwrap();
        let clone = token.clone();
        assert!(!clone.is_cancelled());
        token.cancel();
        token.cancel();
        assert!(clone.is_cancelled());
    }

    #[test]
    fn backend_setting_unset_or_empty_is_the_default() {
        assert_eq!(Backend::from_setting(None), Backend::DEFAULT);
        assert_eq!(Backend::from_setting(Some(OsStr::new(""))), Backend::DEFAULT);
        #[cfg(target_os = "linux")]
        assert_eq!(Backend::DEFAULT, Backend::Linux);
        #[cfg(all(unix, not(target_os = "linux")))]
        assert_eq!(Backend::DEFAULT, Backend::Posix);
        #[cfg(windows)]
        assert_eq!(Backend::DEFAULT, Backend::Windows);
    }

    #[test]
    fn backend_setting_names_select_their_backend() {
        for b in Backend::ALL {
            assert_eq!(Backend::from_setting(Some(OsStr::new(b.name()))), *b);
        }
        #[cfg(unix)]
        assert_eq!(Backend::from_setting(Some(OsStr::new("posix"))), Backend::Posix);
    }

    #[test]
    fn unknown_backend_setting_falls_back_to_the_default() {
        let other_system = if cfg!(unix) { "windows" } else { "posix" };
        for value in ["kqueue", "POSIX", "posix ", other_system] {
            assert_eq!(Backend::from_setting(Some(OsStr::new(value))), Backend::DEFAULT, "{value:?}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            assert_eq!(Backend::from_setting(Some(OsStr::from_bytes(b"posi\xff"))), Backend::DEFAULT);
        }
    }
}
