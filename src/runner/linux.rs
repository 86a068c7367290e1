//! The Linux backend's own calls: close-on-exec pipes with `pipe2`, the
//! cancel wake-up as an `eventfd`, and the shell's pidfd, which becomes
//! readable the moment it exits and still yields its exit status after the
//! host reaped it (`PIDFD_GET_INFO`, Linux 6.15+). Nothing else in the
//! runner is Linux-only.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::time::Duration;

use rustix::event::EventfdFlags;
use rustix::pipe::PipeFlags;
use rustix::process::{Pid, PidfdFlags};

/// A pipe whose two ends are close-on-exec from the start: `(read, write)`.
pub(super) fn cloexec_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::pipe::pipe_with(PipeFlags::CLOEXEC)?)
}

/// A non-blocking, close-on-exec `eventfd` at 0 (the cancel wake-up).
pub(super) fn wake_eventfd() -> io::Result<OwnedFd> {
    Ok(rustix::event::eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK)?)
}

/// The shell's pidfd; `None` (with a debug message) where pidfds are not
/// available (old kernels, seccomp filters): the loop then ticks.
pub(super) fn open_pidfd(pid: Pid) -> Option<OwnedFd> {
    match rustix::process::pidfd_open(pid, PidfdFlags::empty()) {
        Ok(fd) => Some(fd),
        Err(e) => {
            crate::hl_debug!("pidfd_open failed ({e}); polling for hook exit");
            None
        }
    }
}

/// The raw wait status of the shell behind `pidfd` after somebody else
/// reaped it; `None` on kernels before 6.15.
pub(super) fn recover_status(pidfd: &OwnedFd) -> Option<i32> {
    // The exit information is published as the task is released; allow a
    // moment for a concurrent reaper.
    (0..20).find_map(|i| {
        if i > 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        super::sys::pidfd_exit_status(pidfd.as_fd())
    })
}
