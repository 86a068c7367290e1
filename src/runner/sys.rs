//! The runner's only `unsafe` code: thin, safe wrappers around two
//! operating-system calls that have no safe wrapper in rustix or libc.
//!
//! - Linux: `ioctl(PIDFD_GET_INFO)`, the exit status of a process from its
//!   pidfd, even after somebody else reaped it.
//! - macOS and the BSDs: `kevent` with `EVFILT_PROC`/`NOTE_EXIT`, a
//!   pollable descriptor that becomes readable when a process exits and
//!   carries its exit status. (rustix's `kevent` is `unsafe` only because a
//!   kqueue can hold descriptors that must outlive it; a process filter
//!   holds none.)
//!
//! `unsafe` is allowed in this module and nowhere else in the core (the
//! attribute is on its declaration in `mod.rs`). Each function is safe to
//! call.

#[cfg(target_os = "linux")]
pub(super) use pidfd::pidfd_exit_status;

#[cfg(target_os = "linux")]
mod pidfd {
    use std::os::fd::{AsRawFd, BorrowedFd};

    /// `struct pidfd_info` of `<linux/pidfd.h>`, version 0 (64 bytes).
    #[repr(C)]
    #[derive(Default)]
    struct PidfdInfo {
        mask: u64,
        cgroupid: u64,
        pid: u32,
        tgid: u32,
        ppid: u32,
        ruid: u32,
        rgid: u32,
        euid: u32,
        egid: u32,
        suid: u32,
        sgid: u32,
        fsuid: u32,
        fsgid: u32,
        exit_code: i32,
    }

    const PIDFD_INFO_EXIT: u64 = 1 << 3;
    /// `_IOWR(PIDFS_IOCTL_MAGIC = 0xFF, 11, struct pidfd_info)` with the
    /// 64-byte version-0 struct.
    const PIDFD_GET_INFO: u64 =
        (3 << 30) | ((std::mem::size_of::<PidfdInfo>() as u64) << 16) | (0xFF << 8) | 11;

    /// The raw wait status of an exited process from its pidfd (Linux 6.15+,
    /// `PIDFD_GET_INFO` with `PIDFD_INFO_EXIT`). This works after somebody
    /// else reaped the process (a host that ignores SIGCHLD, so the kernel
    /// reaps its children, or a host handler calling `waitpid(-1)`), as long
    /// as the pidfd was opened before. `None` on older kernels or when the
    /// exit information is not (yet) available.
    pub(in crate::runner) fn pidfd_exit_status(pidfd: BorrowedFd<'_>) -> Option<i32> {
        const _: () = assert!(std::mem::size_of::<PidfdInfo>() == 64);
        let mut info = PidfdInfo { mask: PIDFD_INFO_EXIT, ..PidfdInfo::default() };
        // SAFETY: `info` is a properly sized, writable `pidfd_info` (version
        // 0); the kernel writes at most `_IOC_SIZE(PIDFD_GET_INFO)` bytes.
        let rc = unsafe { libc::ioctl(pidfd.as_raw_fd(), PIDFD_GET_INFO as _, &mut info as *mut PidfdInfo) };
        if rc == 0 && info.mask & PIDFD_INFO_EXIT != 0 {
            Some(info.exit_code)
        } else {
            None
        }
    }
}

#[cfg(any(
    target_vendor = "apple",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly"
))]
pub(super) use kqueue::ProcExit;

#[cfg(any(
    target_vendor = "apple",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly"
))]
mod kqueue {
    use std::io;
    use std::mem::MaybeUninit;
    use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
    use std::time::Duration;

    use rustix::event::kqueue::{kevent, kqueue, Event, EventFilter, EventFlags, ProcessEvents};
    use rustix::io::{fcntl_setfd, FdFlags};
    use rustix::process::Pid;

    /// A kqueue watching one process for its exit.
    pub(in crate::runner) struct ProcExit {
        queue: OwnedFd,
    }

    /// `NOTE_EXIT`, plus `NOTE_EXITSTATUS` on Apple systems (the BSDs always
    /// put the wait status in the event's data).
    fn exit_events() -> ProcessEvents {
        #[cfg(target_vendor = "apple")]
        let events = ProcessEvents::EXIT | ProcessEvents::from_bits_retain(libc::NOTE_EXITSTATUS);
        #[cfg(not(target_vendor = "apple"))]
        let events = ProcessEvents::EXIT;
        events
    }

    impl ProcExit {
        /// Start watching `pid` (our unreaped child). May fail (`ESRCH`)
        /// where the system refuses a process that already exited.
        pub(in crate::runner) fn watch(pid: Pid) -> io::Result<ProcExit> {
            let queue = kqueue()?;
            // kqueues are not inherited across fork; close-on-exec anyway.
            fcntl_setfd(&queue, FdFlags::CLOEXEC)?;
            let change = Event::new(
                EventFilter::Proc { pid, flags: exit_events() },
                EventFlags::ADD | EventFlags::ONESHOT,
                std::ptr::null_mut(),
            );
            let mut none: [MaybeUninit<Event>; 0] = [];
            // SAFETY: a process filter refers to no descriptor, so nothing
            // has to outlive the queue.
            unsafe { kevent(&queue, &[change], &mut none, Some(Duration::ZERO)) }?;
            Ok(ProcExit { queue })
        }

        /// The descriptor to poll: readable once the process exited.
        pub(in crate::runner) fn fd(&self) -> BorrowedFd<'_> {
            self.queue.as_fd()
        }

        /// Take the exit event, waiting at most `wait` for it: `Some(raw
        /// wait status)` once the process exited, `None` before.
        pub(in crate::runner) fn take(&self, wait: Duration) -> io::Result<Option<i32>> {
            let mut slot: [MaybeUninit<Event>; 1] = [MaybeUninit::uninit()];
            // SAFETY: as in `watch`: the queue holds only a process filter.
            let (events, _) = unsafe { kevent(&self.queue, &[], &mut slot, Some(wait)) }?;
            for event in events.iter() {
                if event.flags().contains(EventFlags::ERROR) {
                    return Err(io::Error::from_raw_os_error(event.data() as i32));
                }
                if let EventFilter::Proc { flags, .. } = event.filter() {
                    if flags.contains(ProcessEvents::EXIT) {
                        return Ok(Some(event.data() as i32));
                    }
                }
            }
            Ok(None)
        }
    }
}
