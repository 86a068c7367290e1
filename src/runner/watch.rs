//! How the run loop learns that the hook's shell exited, and where the
//! exit status comes from when somebody else (the host) reaped the shell
//! first: the shell's pidfd (Linux backend), a kqueue process filter
//! (portable backend on macOS and the BSDs), or a bounded `waitpid(WNOHANG)`
//! tick (portable backend elsewhere, and the Linux backend without pidfds).

use std::os::fd::BorrowedFd;
#[cfg(target_os = "linux")]
use std::os::fd::{AsFd, OwnedFd};
use std::time::{Duration, Instant};

use rustix::process::Pid;

use super::Backend;

/// First (and, once a stream reached EOF, renewed) `waitpid` interval.
const TICK_MIN: Duration = Duration::from_millis(1);

/// Longest `waitpid` interval: bounds how late an exit is noticed while a
/// background process still holds the output pipes.
const TICK_MAX: Duration = Duration::from_millis(16);

/// `waitpid` interval kept as a safety net beside a kqueue, should the
/// system not report its readiness through `poll`.
#[cfg_attr(not(hookline_kqueue), allow(dead_code))]
const KQUEUE_SAFETY_TICK: Duration = Duration::from_millis(50);

enum Source {
    #[cfg(target_os = "linux")]
    Pidfd(OwnedFd),
    #[cfg(hookline_kqueue)]
    Kqueue {
        queue: super::sys::ProcExit,
        /// The queue is polled (until its event is taken, or it polled
        /// readable without one: then the tick takes over).
        polled: bool,
        /// The exit event was taken.
        taken: bool,
        /// The raw wait status the event carried.
        status: Option<i32>,
    },
    Tick,
}

/// The exit watch of one shell.
pub(super) struct ExitWatch {
    source: Source,
    /// When to call `waitpid(WNOHANG)` next; `None`: the descriptor alone
    /// says when.
    next: Option<Instant>,
    interval: Duration,
    max: Duration,
}

impl ExitWatch {
    /// The watch `backend` uses for the (unreaped) shell `pid`; with
    /// `use_pidfd` false the Linux backend ticks (tests of that fallback).
    pub(super) fn new(backend: Backend, pid: Pid, use_pidfd: bool, now: Instant) -> ExitWatch {
        let tick = || ExitWatch { source: Source::Tick, next: Some(now + TICK_MIN), interval: TICK_MIN, max: TICK_MAX };
        let _ = (pid, use_pidfd);
        match backend {
            #[cfg(target_os = "linux")]
            Backend::Linux => match use_pidfd.then(|| super::linux::open_pidfd(pid)).flatten() {
                Some(fd) => ExitWatch { source: Source::Pidfd(fd), next: None, interval: TICK_MAX, max: TICK_MAX },
                None => tick(),
            },
            Backend::Posix => {
                #[cfg(hookline_kqueue)]
                match super::sys::ProcExit::watch(pid) {
                    Ok(queue) => {
                        return ExitWatch {
                            source: Source::Kqueue { queue, polled: true, taken: false, status: None },
                            next: Some(now + KQUEUE_SAFETY_TICK),
                            interval: KQUEUE_SAFETY_TICK,
                            max: KQUEUE_SAFETY_TICK,
                        }
                    }
                    // ESRCH: it already exited; the tick reaps it at once.
                    Err(e) => crate::hl_debug!("kqueue watch of hook shell {pid:?} failed ({e}); polling for its exit"),
                }
                tick()
            }
        }
    }

    /// The descriptor to poll for readability, if any.
    pub(super) fn fd(&self) -> Option<BorrowedFd<'_>> {
        match &self.source {
            #[cfg(target_os = "linux")]
            Source::Pidfd(fd) => Some(fd.as_fd()),
            #[cfg(hookline_kqueue)]
            Source::Kqueue { queue, polled: true, .. } => Some(queue.fd()),
            _ => None,
        }
    }

    /// When the loop must wake up for the next `waitpid`, if ever.
    pub(super) fn next_check(&self) -> Option<Instant> {
        self.next
    }

    /// Whether a `waitpid` is due.
    pub(super) fn due(&self, now: Instant) -> bool {
        self.next.is_some_and(|next| now >= next)
    }

    /// A `waitpid` found the shell still running: back off (bounded).
    pub(super) fn still_running(&mut self, now: Instant) {
        if self.next.is_some() {
            self.interval = (self.interval * 2).min(self.max);
            self.next = Some(now + self.interval);
        }
    }

    /// An output stream reached EOF, so the exit is probably imminent:
    /// check again at once, then at short intervals.
    pub(super) fn hurry(&mut self, now: Instant) {
        if self.next.is_some() && self.fd().is_none() {
            self.interval = TICK_MIN;
            self.next = Some(now);
        }
    }

    /// The descriptor polled readable: the shell exited. A pidfd stays
    /// readable until the shell is reaped. The kqueue event is taken, with
    /// its status, and the shell is then reaped on a short tick; a kqueue
    /// that polls readable without an event (a system whose `poll` does not
    /// support kqueues) is not polled again and the tick takes over.
    pub(super) fn fired(&mut self, now: Instant) {
        #[cfg(hookline_kqueue)]
        if let Source::Kqueue { queue, polled, taken, status } = &mut self.source {
            match queue.take(Duration::ZERO) {
                Ok(Some(raw)) => {
                    *status = Some(raw);
                    *taken = true;
                }
                Ok(None) => crate::hl_debug!("kqueue polled readable without an event; polling for hook exit"),
                Err(e) => {
                    crate::hl_debug!("reading the kqueue exit event failed ({e}); polling for hook exit");
                    *taken = true;
                }
            }
            *polled = false;
            self.interval = TICK_MIN;
            self.max = TICK_MAX;
            self.next = Some(now);
        }
        let _ = now;
    }

    /// The raw wait status of a shell that somebody else reaped (`waitpid`
    /// said `ECHILD`), where the source keeps it.
    pub(super) fn recover_status(&mut self) -> Option<i32> {
        match &mut self.source {
            #[cfg(target_os = "linux")]
            Source::Pidfd(fd) => super::linux::recover_status(fd),
            #[cfg(hookline_kqueue)]
            Source::Kqueue { queue, taken, status, .. } => {
                if !*taken {
                    // The event is posted at exit, before anyone can reap.
                    *status = queue.take(Duration::from_millis(20)).ok().flatten();
                    *taken = true;
                }
                *status
            }
            Source::Tick => None,
        }
    }
}
