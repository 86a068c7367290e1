//! The few operating-system calls hookline needs that have no safe wrapper
//! in its dependencies. Kept here because this module tree is the only
//! place allowed to use `unsafe`; each function is safe to call.

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
/// `_IOWR(PIDFS_IOCTL_MAGIC = 0xFF, 11, struct pidfd_info)` with the 64-byte
/// version-0 struct.
const PIDFD_GET_INFO: u64 = (3 << 30) | ((std::mem::size_of::<PidfdInfo>() as u64) << 16) | (0xFF << 8) | 11;

/// The raw wait status of an exited process from its pidfd (Linux 6.15+,
/// `PIDFD_GET_INFO` with `PIDFD_INFO_EXIT`). This works after somebody
/// else reaped the process (a host that ignores SIGCHLD, so the kernel
/// reaps its children, or a host handler calling `waitpid(-1)`), as long as
/// the pidfd was opened before. `None` on older kernels or when the exit
/// information is not (yet) available.
pub(crate) fn pidfd_exit_status(pidfd: BorrowedFd<'_>) -> Option<i32> {
    const _: () = assert!(std::mem::size_of::<PidfdInfo>() == 64);
    let mut info = PidfdInfo { mask: PIDFD_INFO_EXIT, ..PidfdInfo::default() };
    // SAFETY: `info` is a properly sized, writable `pidfd_info` (version 0);
    // the kernel writes at most `_IOC_SIZE(PIDFD_GET_INFO)` bytes into it.
    let rc = unsafe { libc::ioctl(pidfd.as_raw_fd(), PIDFD_GET_INFO as _, &mut info as *mut PidfdInfo) };
    if rc == 0 && info.mask & PIDFD_INFO_EXIT != 0 {
        Some(info.exit_code)
    } else {
        None
    }
}
