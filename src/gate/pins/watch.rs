//! One watched file: what is at its path now ([`Seen`]), the stat fields a
//! hash was taken under, and the cache that makes an unchanged file
//! cost one `lstat` ([`Watched`]).

use crate::platform::{MetadataExt, OpenOptionsExt};
use std::fs::{File, Metadata, OpenOptions};
use std::hash::Hash;
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::gate::resolve::Role;

use super::{check, ApprovedFiles, FileCheck};

/// A hash is trusted to stand for a file's content only when the file's
/// mtime and ctime are at least this much older than the moment hashing
/// started. File timestamps are coarse (a kernel tick on Linux, a second or
/// two on some file systems): a file written twice within one tick, to the
/// same size, keeps every stat field, so a hash taken inside that tick
/// could miss the second write. Until a file is that old, it is re-hashed
/// at every check.
pub const SETTLE: Duration = Duration::from_secs(2);

/// A pinned file as previews show it: `{"path": <canonical path>,
/// "sha256": <hex>}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Pin {
    /// The canonical path (symlinks resolved).
    pub path: PathBuf,
    /// The SHA-256 of its content, lowercase hex.
    pub sha256: String,
}

/// What is at a watched path now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// A regular file: its canonical path and content hash.
    File { path: PathBuf, sha256: [u8; 32] },
    /// Nothing, or something that is not a regular file.
    Missing,
}

impl Seen {
    /// The pin of a file.
    pub fn pin(&self) -> Option<Pin> {
        match self {
            Seen::File { path, sha256 } => Some(Pin { path: path.clone(), sha256: crate::gate::hex(sha256) }),
            Seen::Missing => None,
        }
    }
}

/// The stat fields a hash is cached under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct StatKey {
    pub(super) dev: u64,
    pub(super) ino: u64,
    pub(super) size: u64,
    pub(super) mtime: (i64, i64),
    pub(super) ctime: (i64, i64),
}

impl StatKey {
    pub(super) fn of(m: &Metadata) -> StatKey {
        StatKey {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        }
    }

    /// Whether both timestamps are at least [`SETTLE`] before `t`.
    pub(super) fn settled_before(&self, t: SystemTime) -> bool {
        let at = |(s, ns): (i64, i64)| {
            let secs = Duration::from_secs(s.max(0) as u64) + Duration::from_nanos(ns.clamp(0, 999_999_999) as u64);
            UNIX_EPOCH + secs
        };
        let newest = at(self.mtime).max(at(self.ctime));
        newest.checked_add(SETTLE).is_some_and(|limit| limit <= t)
    }
}

#[derive(Clone, Debug)]
pub(super) struct Cached {
    pub(super) canonical: PathBuf,
    pub(super) key: StatKey,
    pub(super) sha256: [u8; 32],
    pub(super) settled: bool,
}

/// One file the gated commands name, and the cache of its last hash.
#[derive(Debug)]
pub struct Watched {
    /// The absolute path as the command names it (lexically normalised).
    pub named: PathBuf,
    /// How the command uses it.
    pub role: Role,
    /// An argument that named no file when the command set was made (it
    /// may be a file the hook writes): checked only against an approval
    /// that pins it.
    pub optional: bool,
    pub(super) cache: Mutex<Option<Cached>>,
    /// How many times its content was hashed.
    pub(super) hashes: AtomicU64,
}

impl Watched {
    pub(super) fn new(named: PathBuf, role: Role) -> Watched {
        Watched { named, role, optional: false, cache: Mutex::new(None), hashes: AtomicU64::new(0) }
    }

    /// Compare what is there now with what `approved` says ([`check`](super::check)).
    pub fn check(&self, approved: &ApprovedFiles) -> (Seen, FileCheck) {
        let seen = self.observe();
        let result = check(&self.named, &seen, approved, self.optional);
        (seen, result)
    }

    /// How many times the file's content was hashed (the stat cache spares
    /// the others).
    pub fn hash_count(&self) -> u64 {
        self.hashes.load(Ordering::Relaxed)
    }

    /// What is at the path now: the canonical path is resolved again (a
    /// swapped symlink shows as another path), the file is stat'ed, and
    /// hashed again only when its stat fields changed since it was last
    /// hashed or that hash was not settled.
    pub fn observe(&self) -> Seen {
        // The common case in one system call: no symlink on the path when it
        // was last hashed, and the same file (device, inode, size, times)
        // there now. A symlink swapped in anywhere on the path leads `lstat`
        // to another inode, or to this one (the same file).
        if let Ok(m) = std::fs::symlink_metadata(&self.named) {
            if m.file_type().is_file() {
                let key = StatKey::of(&m);
                let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(c) = cache.as_ref().filter(|c| c.settled && c.key == key && c.canonical == self.named) {
                    return Seen::File { path: c.canonical.clone(), sha256: c.sha256 };
                }
            }
        }
        let Ok(canonical) = std::fs::canonicalize(&self.named) else { return Seen::Missing };
        let key = match std::fs::symlink_metadata(&canonical) {
            Ok(m) if m.file_type().is_file() => StatKey::of(&m),
            _ => return Seen::Missing,
        };
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = cache.as_ref() {
            if c.settled && c.key == key && c.canonical == canonical {
                return Seen::File { path: canonical, sha256: c.sha256 };
            }
        }
        self.hashes.fetch_add(1, Ordering::Relaxed);
        match hash_file(&canonical) {
            Ok((sha256, key, settled)) => {
                *cache = Some(Cached { canonical: canonical.clone(), key, sha256, settled });
                Seen::File { path: canonical, sha256 }
            }
            Err(_) => {
                *cache = None;
                Seen::Missing
            }
        }
    }
}

/// Hash a regular file without following a symlink at its last component;
/// the stat key of what was hashed and whether the hash is settled (the
/// file did not change while it was read, and its timestamps are old
/// enough).
pub(super) fn hash_file(path: &Path) -> std::io::Result<([u8; 32], StatKey, bool)> {
    let started = SystemTime::now();
    let mut f: File = OpenOptions::new()
        .read(true)
        // O_NONBLOCK: a FIFO swapped in must not block the spawn path.
        .custom_flags(crate::platform::O_NOFOLLOW | crate::platform::O_NONBLOCK | crate::platform::O_CLOEXEC)
        .open(path)?;
    let before = f.metadata()?;
    if !before.file_type().is_file() {
        return Err(std::io::Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    let mut hasher = Sha256::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    let key = StatKey::of(&before);
    let after = StatKey::of(&f.metadata()?);
    Ok((hasher.finalize().into(), key, after == key && key.settled_before(started)))
}
