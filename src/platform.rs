//! The few file-system differences between Unix and Windows outside the
//! command runner, behind the names the Unix code already uses, so that
//! the callers read the same on both.
//!
//! On Unix every name is the standard library's or libc's own. On Windows:
//!
//! - `mode(…)` on [`OpenOptionsExt`] and [`DirBuilderExt`] does nothing
//!   (files and directories get the ACL they inherit from their parent:
//!   under `%APPDATA%` and `%TEMP%`, the user's own);
//! - [`O_NOFOLLOW`] opens a symbolic link (a reparse point) itself instead
//!   of its target, so a link is "not a regular file" where Unix would
//!   fail with `ELOOP`; [`O_NONBLOCK`] and [`O_CLOEXEC`] are nothing
//!   (Windows handles are not inherited unless asked; a named pipe or
//!   device at a trust-store path is not a regular file either);
//! - [`PermissionsExt::mode`] is `0o555` for a read-only file and `0o777`
//!   otherwise: Windows has no execute bit (a program is executable by
//!   its extension, `PATHEXT`), so every file passes an execute check;
//! - [`MetadataExt`] gives the size and the last-write and creation times
//!   (100 ns units since 1601) for the script-pin cache key; `dev` and
//!   `ino` are 0 (the stable standard library does not expose the volume
//!   serial number and file index).

#[cfg(unix)]
pub(crate) use libc::{ELOOP, ENOTDIR, O_CLOEXEC, O_NOFOLLOW, O_NONBLOCK};
#[cfg(unix)]
pub(crate) use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};

/// Take an exclusive lock on `file`, waiting for it (released when the
/// file is closed): `flock` on Unix, `LockFileEx` on Windows.
#[cfg(unix)]
pub(crate) fn lock_exclusive(file: &std::fs::File) -> std::io::Result<()> {
    loop {
        match rustix::fs::flock(file, rustix::fs::FlockOperation::LockExclusive) {
            Ok(()) => return Ok(()),
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(windows)]
pub(crate) use self::windows::*;

#[cfg(windows)]
mod windows {
    use std::fs::{DirBuilder, File, Metadata, OpenOptions, Permissions};

    /// `ERROR_CANT_RESOLVE_FILENAME`: too many levels of reparse points.
    pub(crate) const ELOOP: i32 = 1921;
    /// `ERROR_DIRECTORY`: a path component is not a directory.
    pub(crate) const ENOTDIR: i32 = 267;
    /// Open a symbolic link itself (`FILE_FLAG_OPEN_REPARSE_POINT`).
    pub(crate) const O_NOFOLLOW: i32 = 1;
    /// Nothing on Windows.
    pub(crate) const O_NONBLOCK: i32 = 2;
    /// Nothing on Windows (handles are not inherited unless asked).
    pub(crate) const O_CLOEXEC: i32 = 4;

    const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;

    pub(crate) trait OpenOptionsExt {
        fn mode(&mut self, mode: u32) -> &mut Self;
        fn custom_flags(&mut self, flags: i32) -> &mut Self;
    }

    impl OpenOptionsExt for OpenOptions {
        fn mode(&mut self, _mode: u32) -> &mut Self {
            self
        }

        fn custom_flags(&mut self, flags: i32) -> &mut Self {
            if flags & O_NOFOLLOW != 0 {
                std::os::windows::fs::OpenOptionsExt::custom_flags(self, FILE_FLAG_OPEN_REPARSE_POINT);
            }
            self
        }
    }

    pub(crate) trait DirBuilderExt {
        fn mode(&mut self, mode: u32) -> &mut Self;
    }

    impl DirBuilderExt for DirBuilder {
        fn mode(&mut self, _mode: u32) -> &mut Self {
            self
        }
    }

    pub(crate) trait PermissionsExt {
        fn mode(&self) -> u32;
    }

    impl PermissionsExt for Permissions {
        fn mode(&self) -> u32 {
            if self.readonly() {
                0o555
            } else {
                0o777
            }
        }
    }

    pub(crate) trait MetadataExt {
        fn dev(&self) -> u64;
        fn ino(&self) -> u64;
        fn size(&self) -> u64;
        fn mtime(&self) -> i64;
        fn mtime_nsec(&self) -> i64;
        fn ctime(&self) -> i64;
        fn ctime_nsec(&self) -> i64;
    }

    /// Seconds and nanoseconds since 1970 of a FILETIME (100 ns since 1601).
    fn unix_time(filetime: u64) -> (i64, i64) {
        const EPOCH_DIFFERENCE_SECS: i64 = 11_644_473_600;
        let secs = (filetime / 10_000_000) as i64 - EPOCH_DIFFERENCE_SECS;
        (secs, ((filetime % 10_000_000) * 100) as i64)
    }

    impl MetadataExt for Metadata {
        fn dev(&self) -> u64 {
            0
        }
        fn ino(&self) -> u64 {
            0
        }
        fn size(&self) -> u64 {
            std::os::windows::fs::MetadataExt::file_size(self)
        }
        fn mtime(&self) -> i64 {
            unix_time(std::os::windows::fs::MetadataExt::last_write_time(self)).0
        }
        fn mtime_nsec(&self) -> i64 {
            unix_time(std::os::windows::fs::MetadataExt::last_write_time(self)).1
        }
        fn ctime(&self) -> i64 {
            unix_time(std::os::windows::fs::MetadataExt::creation_time(self)).0
        }
        fn ctime_nsec(&self) -> i64 {
            unix_time(std::os::windows::fs::MetadataExt::creation_time(self)).1
        }
    }

    /// `LockFileEx` on the whole file, waiting for it. (`File::lock` is
    /// Rust 1.89+: building for Windows needs that release or later.)
    #[allow(clippy::incompatible_msrv)]
    pub(crate) fn lock_exclusive(file: &File) -> std::io::Result<()> {
        file.lock()
    }
}
