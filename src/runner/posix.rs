//! The portable POSIX backend's own calls: close-on-exec pipes on systems
//! with and without `pipe2`, the self-pipe that wakes the loop on cancel,
//! the spawn lock that keeps descriptors from leaking into concurrent
//! spawns where close-on-exec cannot be set atomically, and the kqueue exit
//! watch of macOS and the BSDs.

use std::io;
use std::os::fd::OwnedFd;
use std::sync::{Mutex, MutexGuard};

use rustix::io::{fcntl_setfd, FdFlags};

/// Held while this backend creates a pipe and while it spawns. Where a pipe
/// is made with `pipe` then `fcntl(FD_CLOEXEC)`, a concurrent spawn between
/// the two would hand the new descriptors to another hook (a hook holding a
/// copy of our stdin write end would keep us from ever seeing EOF).
/// Serialising the two makes that impossible within hookline (where spawns go through `std::process::Command`, its `Stdio::piped`
/// pipes are made inside `spawn`, under the lock too). The
/// lock is taken on every system so the code path is the one that is tested.
///
/// Keyed by pid like the runtime: after `fork()` a lock held by a thread of
/// the parent (which does not exist in the child) is left behind and the
/// child gets a fresh one.
fn spawn_lock() -> MutexGuard<'static, ()> {
    static LOCKS: Mutex<Option<(u32, &'static Mutex<()>)>> = Mutex::new(None);
    let pid = std::process::id();
    let lock = {
        let mut current = LOCKS.lock().unwrap_or_else(|e| e.into_inner());
        match *current {
            Some((owner, lock)) if owner == pid => lock,
            _ => {
                // One small allocation per process (the parent's copy is
                // leaked in a forked child, where it may be held forever).
                let lock: &'static Mutex<()> = Box::leak(Box::new(Mutex::new(())));
                *current = Some((pid, lock));
                lock
            }
        }
    };
    lock.lock().unwrap_or_else(|e| e.into_inner())
}

/// `pipe` then `FD_CLOEXEC` on both ends (callers hold the spawn lock).
/// Used where `pipe2` does not exist (Apple systems; rustix offers
/// `pipe_with` exactly where it does); compiled and tested everywhere.
#[cfg_attr(
    not(any(target_vendor = "apple", target_os = "aix", target_os = "haiku", target_os = "nto")),
    allow(dead_code)
)]
fn pipe_then_cloexec() -> io::Result<(OwnedFd, OwnedFd)> {
    let (read, write) = rustix::pipe::pipe()?;
    fcntl_setfd(&read, FdFlags::CLOEXEC)?;
    fcntl_setfd(&write, FdFlags::CLOEXEC)?;
    Ok((read, write))
}

/// A pipe whose ends are close-on-exec before any hookline spawn can see
/// them: `(read, write)`. Atomic (`pipe2(O_CLOEXEC)`) where the system
/// allows, else `pipe` + `fcntl` under the spawn lock.
pub(super) fn cloexec_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let _serialised = spawn_lock();
    #[cfg(not(any(target_vendor = "apple", target_os = "aix", target_os = "haiku", target_os = "nto")))]
    return Ok(rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?);
    #[cfg(any(target_vendor = "apple", target_os = "aix", target_os = "haiku", target_os = "nto"))]
    return pipe_then_cloexec();
}

/// The cancel wake-up: a non-blocking, close-on-exec pipe `(read, write)`.
pub(super) fn self_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let (read, write) = cloexec_pipe()?;
    rustix::io::ioctl_fionbio(&read, true)?;
    rustix::io::ioctl_fionbio(&write, true)?;
    Ok((read, write))
}

/// `f` (a spawn) under the spawn lock.
pub(super) fn serialised<T>(f: impl FnOnce() -> T) -> T {
    let _serialised = spawn_lock();
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cloexec(fd: &OwnedFd) -> bool {
        rustix::io::fcntl_getfd(fd).unwrap().contains(FdFlags::CLOEXEC)
    }

    #[test]
    fn pipes_are_close_on_exec_on_both_paths() {
        let _serialised = spawn_lock();
        let (r, w) = pipe_then_cloexec().unwrap();
        assert!(cloexec(&r) && cloexec(&w), "pipe + fcntl path");
        drop(_serialised);
        let (r, w) = cloexec_pipe().unwrap();
        assert!(cloexec(&r) && cloexec(&w));
    }

    #[test]
    fn self_pipe_is_non_blocking_and_close_on_exec() {
        let (r, w) = self_pipe().unwrap();
        assert!(cloexec(&r) && cloexec(&w));
        let mut buf = [0u8; 1];
        assert_eq!(rustix::io::read(&r, &mut buf), Err(rustix::io::Errno::AGAIN));
        rustix::io::write(&w, b"!").unwrap();
        assert_eq!(rustix::io::read(&r, &mut buf), Ok(1));
    }
}
