//! The runner's only `unsafe` code: thin, safe wrappers around
//! operating-system calls that have no safe wrapper in rustix or libc.
//!
//! - `posix_spawn` (Linux with glibc or musl, macOS): starts the hook shell
//!   with a prepared environment block, without `std::process::Command`,
//!   which rebuilds the whole environment as a map and a `CString` per
//!   variable at every spawn.
//! - `sigprocmask` in the child of `std::process::Command` (the spawner of
//!   other systems), so that a hook never inherits the host thread's
//!   blocked signals.
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

#[cfg(hookline_posix_spawn)]
pub(super) use spawn::posix_spawn_shell;

/// Make the child of `command` start with an empty signal mask. std's
/// `posix_spawn` path leaves the calling thread's mask in place (a host
/// thread that blocks SIGTERM would hand that to every hook); with a
/// `pre_exec` hook std forks instead, and the hook clears the mask just
/// before `exec`.
pub(super) fn clear_signal_mask_at_exec(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the forked child before `exec` and calls
    // only async-signal-safe functions (`sigemptyset`, `sigprocmask`) on a
    // set of its own; it touches no memory of the parent's other threads.
    unsafe {
        command.pre_exec(|| {
            let mut set = std::mem::MaybeUninit::<libc::sigset_t>::uninit();
            libc::sigemptyset(set.as_mut_ptr());
            if libc::sigprocmask(libc::SIG_SETMASK, set.as_ptr(), std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// `posix_spawn` of the hook shell.
#[cfg(hookline_posix_spawn)]
mod spawn {
    use std::ffi::{c_char, CStr};
    use std::io;
    use std::mem::MaybeUninit;
    use std::os::fd::{AsRawFd, BorrowedFd};

    use rustix::process::Pid;

    use crate::runner::Environment;

    /// A `posix_spawn*` return value (an errno value, 0 for success).
    fn check(rc: libc::c_int) -> io::Result<()> {
        if rc == 0 {
            Ok(())
        } else {
            Err(io::Error::from_raw_os_error(rc))
        }
    }

    /// An initialised `posix_spawn_file_actions_t`, destroyed on drop.
    struct FileActions(MaybeUninit<libc::posix_spawn_file_actions_t>);

    impl FileActions {
        fn new() -> io::Result<FileActions> {
            let mut fa = FileActions(MaybeUninit::uninit());
            // SAFETY: initialises the object in place; on failure it is not
            // destroyed (see the error path below).
            let rc = unsafe { libc::posix_spawn_file_actions_init(fa.0.as_mut_ptr()) };
            if rc != 0 {
                std::mem::forget(fa);
                return Err(io::Error::from_raw_os_error(rc));
            }
            Ok(fa)
        }

        fn ptr(&mut self) -> *mut libc::posix_spawn_file_actions_t {
            self.0.as_mut_ptr()
        }
    }

    impl Drop for FileActions {
        fn drop(&mut self) {
            // SAFETY: initialised by `new` (a failed init is forgotten).
            unsafe { libc::posix_spawn_file_actions_destroy(self.0.as_mut_ptr()) };
        }
    }

    /// An initialised `posix_spawnattr_t`, destroyed on drop.
    struct Attributes(MaybeUninit<libc::posix_spawnattr_t>);

    impl Attributes {
        fn new() -> io::Result<Attributes> {
            let mut attr = Attributes(MaybeUninit::uninit());
            // SAFETY: as for `FileActions::new`.
            let rc = unsafe { libc::posix_spawnattr_init(attr.0.as_mut_ptr()) };
            if rc != 0 {
                std::mem::forget(attr);
                return Err(io::Error::from_raw_os_error(rc));
            }
            Ok(attr)
        }

        fn ptr(&mut self) -> *mut libc::posix_spawnattr_t {
            self.0.as_mut_ptr()
        }
    }

    impl Drop for Attributes {
        fn drop(&mut self) {
            // SAFETY: initialised by `new` (a failed init is forgotten).
            unsafe { libc::posix_spawnattr_destroy(self.0.as_mut_ptr()) };
        }
    }

    /// Start `program` with `argv` in `cwd`, with exactly the environment
    /// `env`, the three descriptors as its stdin, stdout and stderr (each
    /// must be 3 or above, so that no `dup2` overwrites another's source),
    /// in a new process group of its own, with an empty signal mask and
    /// `SIGPIPE` at its default action (what `std::process::Command`
    /// does). Every other descriptor of ours is close-on-exec. Returns the
    /// child's pid; a failure to change directory or to execute is an
    /// `Err` (glibc, musl and macOS report both from `posix_spawn`).
    pub(in crate::runner) fn posix_spawn_shell(
        program: &CStr,
        argv: &[&CStr],
        cwd: &CStr,
        env: &Environment,
        stdio: [BorrowedFd<'_>; 3],
    ) -> io::Result<Pid> {
        if stdio.iter().any(|fd| fd.as_raw_fd() < 3) {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "hook stdio descriptors must be 3 or above"));
        }
        let mut actions = FileActions::new()?;
        let mut attr = Attributes::new()?;
        let argv_ptrs: Vec<*mut c_char> =
            argv.iter().map(|a| a.as_ptr() as *mut c_char).chain(std::iter::once(std::ptr::null_mut())).collect();
        let envp: Vec<*mut c_char> = env.entry_ptrs();
        let mut pid: libc::pid_t = 0;
        // SAFETY: every pointer handed to libc points into a live,
        // NUL-terminated string (`program`, `argv`, `cwd`, the entries of
        // `env`, which `Environment` keeps NUL-terminated) or a
        // NULL-terminated pointer array built above, all of which outlive the
        // call; the file actions and attributes are initialised objects; the
        // descriptors are open (borrowed) for the duration of the call.
        unsafe {
            for (fd, target) in stdio.iter().zip([0, 1, 2]) {
                check(libc::posix_spawn_file_actions_adddup2(actions.ptr(), fd.as_raw_fd(), target))?;
            }
            check(libc::posix_spawn_file_actions_addchdir_np(actions.ptr(), cwd.as_ptr()))?;
            let mut set = MaybeUninit::<libc::sigset_t>::uninit();
            libc::sigemptyset(set.as_mut_ptr());
            check(libc::posix_spawnattr_setsigmask(attr.ptr(), set.as_ptr()))?;
            libc::sigaddset(set.as_mut_ptr(), libc::SIGPIPE);
            check(libc::posix_spawnattr_setsigdefault(attr.ptr(), set.as_ptr()))?;
            check(libc::posix_spawnattr_setpgroup(attr.ptr(), 0))?;
            let flags = libc::POSIX_SPAWN_SETPGROUP | libc::POSIX_SPAWN_SETSIGMASK | libc::POSIX_SPAWN_SETSIGDEF;
            check(libc::posix_spawnattr_setflags(attr.ptr(), flags as libc::c_short))?;
            check(libc::posix_spawn(
                &mut pid,
                program.as_ptr(),
                actions.ptr(),
                attr.ptr(),
                argv_ptrs.as_ptr(),
                envp.as_ptr(),
            ))?;
        }
        Pid::from_raw(pid).ok_or_else(|| io::Error::other("posix_spawn returned pid 0"))
    }
}

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
    const PIDFD_GET_INFO: u64 = (3 << 30) | ((std::mem::size_of::<PidfdInfo>() as u64) << 16) | (0xFF << 8) | 11;

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

#[cfg(hookline_kqueue)]
pub(super) use kqueue::ProcExit;

#[cfg(hookline_kqueue)]
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
