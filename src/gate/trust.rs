//! The trust store: workspace approvals persisted across processes
//! (`docs/protocol.md`, the approval gate).
//!
//! # File format
//!
//! A JSON object, written pretty-printed with mode `0600`:
//!
//! ```json
//! {
//!   "version": 2,
//!   "workspaces": {
//!     "/abs/canonical/workspace": {
//!       "digest": "dab52b17…",
//!       "approved_at": "2026-11-30T12:00:00Z",
//!       "pins_digest": "dab52b17…",
//!       "pins": [
//!         {"path": "/abs/canonical/workspace/.claude/hooks/guard.sh",
//!          "sha256": "9f86d0…", "named": "/abs/canonical/workspace/.claude/hooks/guard.sh"}
//!       ],
//!       "missing": ["/abs/canonical/workspace/hooks/not-yet.sh"]
//!     }
//!   }
//! }
//! ```
//!
//! - Version 2 (this one) adds the files of the approval: `pins`, one per
//!   file a command executes (`path`: its canonical path, `sha256`: its
//!   content, `named`: the path as the command names it), and `missing`,
//!   the paths the commands name where no file was. They belong to the
//!   digest in `pins_digest`; a record whose `pins_digest` is not its
//!   `digest` (written by version 1, which keeps unknown keys) or that has
//!   no `pins` is a version-1 approval: it still approves its digest, but
//!   no file, so a command that executes a file needs a new approval
//!   ([`ApprovedFiles::legacy`]). Version 1 stores read as such records.
//! - One record per workspace, keyed by its canonical path; the latest
//!   approval replaces the earlier. A path that is not valid UTF-8 is keyed
//!   as `hex:` followed by the hex of its bytes (canonical paths start with
//!   `/`, so such keys cannot collide with UTF-8 ones).
//! - `approved_at` is RFC 3339 UTC with second precision.
//! - Unknown top-level keys and unknown keys inside records are kept when the
//!   store is rewritten; a record without a string `digest` approves nothing.
//!
//! # Safety properties
//!
//! - The store is opened with `O_NOFOLLOW`: a symlink at its path reads as
//!   "nothing approved" (with a warning) and [`TrustStore::record`] fails with
//!   [`Status::Io`] without writing anything. Something that is not a regular
//!   file at the path is treated the same way.
//! - A corrupt or unreadable store reads as "nothing approved" with a warning;
//!   recording over a corrupt store replaces it (with a warning), recording
//!   over an unreadable one fails with [`Status::Io`] (it would lose records).
//! - Writes are atomic: a temporary file in the same directory (mode `0600`,
//!   fsynced) renamed over the store. Missing parent directories are created
//!   with mode `0700`.
//! - [`TrustStore::revoke`] removes a record with the same guarantees;
//!   [`TrustStore::list`] reads every record.
//! - Concurrent writers (threads or processes) serialise their
//!   read-modify-write on an exclusive `flock` of the sibling file
//!   `<path>.lock` (mode `0600`, never removed), so no record is lost.

use crate::platform::{DirBuilderExt, OpenOptionsExt, O_CLOEXEC, O_NOFOLLOW, O_NONBLOCK};
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::pins::{ApprovedFile, ApprovedFiles, Pin};
use crate::error::{Error, Result, Status};
use crate::paths::{self, System};

/// The trust store format version written by this library.
pub const TRUST_STORE_VERSION: u64 = 2;

/// A trust store file (see the module documentation for its format).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustStore {
    path: PathBuf,
}

/// One persisted approval, as [`TrustStore::list`] returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustRecord {
    /// The store key: the canonical workspace path (`hex:…` when not UTF-8).
    pub workspace: String,
    /// The approved digest (`None`: a record without one approves nothing).
    pub digest: Option<String>,
    /// When it was approved (RFC 3339 UTC), if recorded.
    pub approved_at: Option<String>,
    /// The files of the approval (`None`: a version-1 record, without pins).
    pub files: Option<ApprovedFiles>,
}

impl TrustRecord {
    /// The pins of the record, sorted by the path the commands name them
    /// by: `(named, pin)`.
    pub fn pins(&self) -> Vec<(PathBuf, Pin)> {
        self.files.as_ref().map(ApprovedFiles::pins).unwrap_or_default()
    }
}

/// A persisted approval of one workspace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredApproval {
    /// The approved digest.
    pub digest: String,
    /// What it says about the files ([`ApprovedFiles::legacy`] for a
    /// version-1 record).
    pub files: ApprovedFiles,
}

/// The files of a record: its pins and missing paths when they belong to
/// its digest, else `None` (a version-1 approval).
fn files_of(record: &Value) -> Option<ApprovedFiles> {
    let digest = record.get("digest")?.as_str()?;
    if record.get("pins_digest").and_then(Value::as_str) != Some(digest) {
        return None;
    }
    let mut files = ApprovedFiles::default();
    for pin in record.get("pins")?.as_array()? {
        let s = |k: &str| pin.get(k).and_then(Value::as_str);
        // An entry that cannot be read approves nothing (its file then
        // needs a new approval).
        if let (Some(path), Some(sha), Some(named)) = (s("path"), s("sha256"), s("named")) {
            if let Some(sha256) = super::unhex32(sha) {
                files.by_named.insert(PathBuf::from(named), ApprovedFile::File { path: PathBuf::from(path), sha256 });
            }
        }
    }
    for named in record.get("missing").and_then(Value::as_array).into_iter().flatten() {
        if let Some(n) = named.as_str() {
            files.by_named.entry(PathBuf::from(n)).or_insert(ApprovedFile::Missing);
        }
    }
    Some(files)
}

fn path_text(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Why reading the store failed.
enum ReadError {
    /// A symlink or a non-regular file at the path.
    NotRegular(String),
    /// The file exists but could not be read.
    Io(String),
    /// The file was read but is not a valid store.
    Corrupt(String),
}

impl TrustStore {
    /// Resolve the store path: the `trust_store` option, else
    /// `$HOOKLINE_TRUST_STORE`, else `hookline/trust.json` in the user's
    /// configuration directory ([`crate::paths`]): on Unix
    /// `$XDG_CONFIG_HOME` (only when absolute, as the XDG spec requires),
    /// else `$HOME/.config`; on Windows `%APPDATA%`, else
    /// `%USERPROFILE%\AppData\Roaming`. `None` when there is no home.
    /// Empty environment variables count as unset. The lock is the file
    /// beside it (`trust.json.lock`), so it moves with the store.
    pub fn resolve(option: Option<&Path>) -> Option<TrustStore> {
        TrustStore::resolve_in(option, System::HOST, &|n| std::env::var_os(n))
    }

    /// [`resolve`](Self::resolve) with the rules of `system` and the
    /// variables `get` gives.
    pub fn resolve_in(
        option: Option<&Path>,
        system: System,
        get: &dyn Fn(&str) -> Option<std::ffi::OsString>,
    ) -> Option<TrustStore> {
        if let Some(p) = option {
            return Some(TrustStore::at(p));
        }
        if let Some(p) = get("HOOKLINE_TRUST_STORE").filter(|v| !v.is_empty()) {
            return Some(TrustStore::at(PathBuf::from(p)));
        }
        paths::config_dir_in(system, get)
            .map(|d| TrustStore::at(paths::join_on(system, &d, &["hookline", "trust.json"])))
    }

    /// A store at an explicit path.
    pub fn at(path: impl Into<PathBuf>) -> TrustStore {
        TrustStore { path: path.into() }
    }

    /// The store's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The digest approved for `canonical_workspace`, if any. A missing store
    /// has no approvals; a corrupt, unreadable or symlinked one reads as no
    /// approvals, with a warning.
    pub fn approved_digest(&self, canonical_workspace: &Path) -> Option<String> {
        self.approval(canonical_workspace).map(|a| a.digest)
    }

    /// The approval persisted for `canonical_workspace`: its digest and
    /// files. Never fails: a missing, corrupt, unreadable or symlinked store
    /// has none (with a warning for the last three).
    pub fn approval(&self, canonical_workspace: &Path) -> Option<StoredApproval> {
        let doc = match self.read() {
            Ok(Some(doc)) => doc,
            Ok(None) => return None,
            Err(ReadError::NotRegular(m) | ReadError::Io(m) | ReadError::Corrupt(m)) => {
                crate::hl_warn!("trust store {}: {m}; treating it as empty", self.path.display());
                return None;
            }
        };
        let workspaces = doc.get("workspaces")?.as_object()?;
        let record = workspaces.get(&workspace_key(canonical_workspace))?;
        let digest = record.get("digest")?.as_str()?.to_owned();
        Some(StoredApproval { digest, files: files_of(record).unwrap_or_else(ApprovedFiles::legacy) })
    }

    /// True when the store has a record for this canonical workspace with
    /// exactly this digest. Never fails: problems read as "not approved".
    pub fn is_approved(&self, canonical_workspace: &Path, digest: &str) -> bool {
        self.approved_digest(canonical_workspace).is_some_and(|d| d == digest)
    }

    /// Record `{workspace → digest, approved_at: now}` without pins (an
    /// approval of a command set that executes no file), replacing an
    /// earlier record of the same workspace. Atomic, safe against
    /// concurrent writers (threads and processes), refuses symlinks
    /// ([`Status::Io`], nothing written).
    pub fn record(&self, canonical_workspace: &Path, digest: &str) -> Result<()> {
        self.record_approval(canonical_workspace, digest, &ApprovedFiles::default())
    }

    /// Record an approval: the digest and what it says about each file the
    /// commands execute (`pins`, `missing`), replacing an earlier record of
    /// the same workspace. Same guarantees as [`record`](Self::record).
    pub fn record_approval(&self, canonical_workspace: &Path, digest: &str, files: &ApprovedFiles) -> Result<()> {
        let path = &self.path;
        let display = path.display();
        if path.as_os_str().is_empty() || path.file_name().is_none() {
            return Err(Error::io(format!("trust store path is not a file path: {display}")));
        }
        // Refuse a symlink before creating anything.
        reject_symlink(path)?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)
            .map_err(|e| Error::io(format!("cannot create trust store directory {}: {e}", dir.display())))?;

        let _lock = self.lock()?;

        // Under the lock: read, modify, write.
        reject_symlink(path)?;
        let mut doc = match self.read() {
            Ok(Some(doc)) => doc,
            Ok(None) => Map::new(),
            Err(ReadError::Corrupt(m)) => {
                crate::hl_warn!("trust store {display} is corrupt ({m}); replacing it");
                Map::new()
            }
            Err(ReadError::NotRegular(m) | ReadError::Io(m)) => {
                return Err(Error::io(format!("trust store {display}: {m}")))
            }
        };
        doc.insert("version".into(), Value::from(TRUST_STORE_VERSION));
        let workspaces = doc.entry("workspaces").or_insert_with(|| Value::Object(Map::new()));
        if !workspaces.is_object() {
            *workspaces = Value::Object(Map::new());
        }
        let key = workspace_key(canonical_workspace);
        if let Value::Object(ws) = workspaces {
            let mut rec = match ws.remove(&key) {
                Some(Value::Object(old)) => old,
                _ => Map::new(),
            };
            rec.insert("digest".into(), Value::from(digest));
            rec.insert("approved_at".into(), Value::from(rfc3339_utc(SystemTime::now())));
            rec.insert("pins_digest".into(), Value::from(digest));
            let pins: Vec<Value> = files
                .pins()
                .into_iter()
                .map(|(named, pin)| {
                    serde_json::json!({"path": path_text(&pin.path), "sha256": pin.sha256, "named": path_text(&named)})
                })
                .collect();
            rec.insert("pins".into(), Value::from(pins));
            let missing: Vec<Value> = files.missing().iter().map(|n| Value::from(path_text(n))).collect();
            rec.insert("missing".into(), Value::from(missing));
            ws.insert(key, Value::Object(rec));
        }
        let mut text = serde_json::to_vec_pretty(&Value::Object(doc))
            .map_err(|e| Error::io(format!("cannot serialise trust store: {e}")))?;
        text.push(b'\n');
        write_atomically(&dir, path, &text)
    }

    /// Every persisted approval, in the store's order. A missing store has
    /// none. Unlike [`approved_digest`](Self::approved_digest), a store that
    /// cannot be used is an error here ([`Status::Io`]: a symlink, not a
    /// regular file, unreadable, or corrupt), so a user listing approvals
    /// learns about it.
    pub fn list(&self) -> Result<Vec<TrustRecord>> {
        let doc = match self.read() {
            Ok(Some(doc)) => doc,
            Ok(None) => return Ok(Vec::new()),
            Err(ReadError::NotRegular(m) | ReadError::Io(m) | ReadError::Corrupt(m)) => {
                return Err(Error::io(format!("trust store {}: {m}", self.path.display())))
            }
        };
        let Some(Value::Object(ws)) = doc.get("workspaces") else { return Ok(Vec::new()) };
        let str_of = |r: &Value, k: &str| r.get(k).and_then(Value::as_str).map(str::to_owned);
        Ok(ws
            .iter()
            .map(|(k, r)| TrustRecord {
                workspace: k.clone(),
                digest: str_of(r, "digest"),
                approved_at: str_of(r, "approved_at"),
                files: files_of(r),
            })
            .collect())
    }

    /// Remove the approval of `canonical_workspace`; `Ok(false)` when there
    /// was none. Same guarantees as [`record`](Self::record): atomic, under
    /// the lock, refuses symlinks; a corrupt or unreadable store is an error
    /// ([`Status::Io`]) and is left as it is.
    pub fn revoke(&self, canonical_workspace: &Path) -> Result<bool> {
        let path = &self.path;
        let display = path.display();
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(false),
            _ => reject_symlink(path)?,
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let _lock = self.lock()?;
        reject_symlink(path)?;
        let mut doc = match self.read() {
            Ok(Some(doc)) => doc,
            Ok(None) => return Ok(false),
            Err(ReadError::NotRegular(m) | ReadError::Io(m) | ReadError::Corrupt(m)) => {
                return Err(Error::io(format!("trust store {display}: {m}")))
            }
        };
        let removed = match doc.get_mut("workspaces") {
            Some(Value::Object(ws)) => ws.shift_remove(&workspace_key(canonical_workspace)).is_some(),
            _ => false,
        };
        if !removed {
            return Ok(false);
        }
        let mut text = serde_json::to_vec_pretty(&Value::Object(doc))
            .map_err(|e| Error::io(format!("cannot serialise trust store: {e}")))?;
        text.push(b'\n');
        write_atomically(&dir, path, &text)?;
        Ok(true)
    }

    /// Take the exclusive lock on `<path>.lock` (released when dropped).
    /// The lock file: `<store>.lock`, beside the store.
    pub fn lock_path(&self) -> PathBuf {
        let mut lock_path = self.path.clone().into_os_string();
        lock_path.push(".lock");
        PathBuf::from(lock_path)
    }

    fn lock(&self) -> Result<File> {
        let lock_path = self.lock_path();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(O_NOFOLLOW | O_CLOEXEC)
            .open(&lock_path)
            .map_err(|e| Error::io(format!("cannot open trust store lock {}: {e}", lock_path.display())))?;
        match crate::platform::lock_exclusive(&file) {
            Ok(()) => Ok(file),
            Err(e) => Err(Error::io(format!("cannot lock trust store {}: {e}", lock_path.display()))),
        }
    }

    /// Read the store without following symlinks. `Ok(None)`: no store yet.
    fn read(&self) -> std::result::Result<Option<Map<String, Value>>, ReadError> {
        let opened = OpenOptions::new()
            .read(true)
            // O_NONBLOCK: a FIFO planted at the path must not block the open.
            .custom_flags(O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            .open(&self.path);
        let mut file = match opened {
            Ok(f) => f,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) if e.raw_os_error() == Some(crate::platform::ELOOP) => {
                return Err(ReadError::NotRegular("is a symlink (not followed)".into()))
            }
            Err(e) => return Err(ReadError::Io(format!("cannot open: {e}"))),
        };
        let meta = file.metadata().map_err(|e| ReadError::Io(format!("cannot stat: {e}")))?;
        if !meta.is_file() {
            return Err(ReadError::NotRegular("is not a regular file".into()));
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| ReadError::Io(format!("cannot read: {e}")))?;
        let v: Value = serde_json::from_slice(&bytes).map_err(|e| ReadError::Corrupt(format!("invalid JSON: {e}")))?;
        let Value::Object(doc) = v else {
            return Err(ReadError::Corrupt("not a JSON object".into()));
        };
        match doc.get("workspaces") {
            None | Some(Value::Object(_)) => Ok(Some(doc)),
            Some(_) => Err(ReadError::Corrupt("`workspaces` is not an object".into())),
        }
    }
}

/// The store key of a workspace path.
fn workspace_key(p: &Path) -> String {
    match p.to_str() {
        Some(s) => s.to_owned(),
        None => {
            let bytes = p.as_os_str().as_encoded_bytes();
            let mut key = String::with_capacity(4 + bytes.len() * 2);
            key.push_str("hex:");
            for b in bytes {
                key.push_str(&format!("{b:02x}"));
            }
            key
        }
    }
}

fn reject_symlink(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(Error::new(
            Status::Io,
            format!("trust store {} is a symlink; refusing to write through it", path.display()),
        )),
        _ => Ok(()),
    }
}

/// Write `bytes` to a fresh temporary file in `dir` (mode 0600), fsync it,
/// and rename it over `path`.
fn write_atomically(dir: &Path, path: &Path, bytes: &[u8]) -> Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    let tmp =
        dir.join(format!(".{name}.{}.{}.{nanos}.tmp", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed)));
    let result = (|| -> std::io::Result<()> {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .custom_flags(O_NOFOLLOW | O_CLOEXEC)
            .open(&tmp)?;
        // The umask may only have removed bits; make the mode exactly 0600.
        #[cfg(unix)]
        f.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // Make the rename durable; failure here does not undo the write.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(format!("cannot write trust store {}: {e}", path.display()))
    })
}

/// Format a time as RFC 3339 UTC with second precision
/// (`2026-11-30T12:00:00Z`).
pub fn rfc3339_utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0) as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian
/// calendar (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = (if mp < 10 { mp + 3 } else { mp - 9 }) as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<std::ffi::OsString> + 'a {
        move |n| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| v.into())
    }

    #[test]
    fn the_store_is_under_appdata_on_windows_and_xdg_on_unix() {
        let vars = [
            ("HOME", "/home/me"),
            ("XDG_CONFIG_HOME", "/xdg"),
            ("USERPROFILE", r"C:\Users\me"),
            ("APPDATA", r"C:\Users\me\AppData\Roaming"),
        ];
        let at = |system, vars: &[(&str, &str)]| {
            TrustStore::resolve_in(None, system, &env(vars)).map(|s| s.path().to_string_lossy().into_owned())
        };
        assert_eq!(at(System::Unix, &vars).as_deref(), Some("/xdg/hookline/trust.json"));
        assert_eq!(at(System::Windows, &vars).as_deref(), Some(r"C:\Users\me\AppData\Roaming\hookline\trust.json"));
        // No APPDATA: the roaming folder under the profile.
        assert_eq!(
            at(System::Windows, &[("USERPROFILE", r"D:\u")]).as_deref(),
            Some(r"D:\u\AppData\Roaming\hookline\trust.json")
        );
        // HOME alone is not a Windows home (Git Bash sets it).
        assert_eq!(at(System::Windows, &[("HOME", "/c/Users/me")]), None);
        // The variable and the option win on both.
        let over = [("HOOKLINE_TRUST_STORE", r"E:\t.json"), ("APPDATA", r"C:\a")];
        assert_eq!(at(System::Windows, &over).as_deref(), Some(r"E:\t.json"));
        let opt = TrustStore::resolve_in(Some(Path::new("o.json")), System::Windows, &env(&over)).unwrap();
        assert_eq!(opt.path(), Path::new("o.json"));
        // The lock follows the store.
        let s = TrustStore::resolve_in(None, System::HOST, &env(&vars)).unwrap();
        assert_eq!(s.lock_path().file_name().unwrap(), "trust.json.lock");
        assert_eq!(s.lock_path().parent(), s.path().parent());
    }
    #[cfg(unix)]
    use std::os::unix::{ffi::OsStrExt, fs::PermissionsExt};
    use std::time::Duration;

    #[test]
    fn rfc3339_formats_known_instants() {
        assert_eq!(rfc3339_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_utc(UNIX_EPOCH + Duration::from_secs(951_782_400)), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339_utc(UNIX_EPOCH + Duration::from_secs(1_798_761_599)), "2026-12-31T23:59:59Z");
        assert_eq!(rfc3339_utc(UNIX_EPOCH + Duration::from_secs(4_107_542_400)), "2100-03-01T00:00:00Z");
    }

    #[cfg(unix)]
    #[test]
    fn list_and_revoke_round_trip_keeps_other_records() {
        let dir = tempfile::tempdir().unwrap();
        let store = TrustStore::at(dir.path().join("sub").join("trust.json"));
        assert_eq!(store.list().unwrap(), Vec::new(), "a missing store lists nothing");
        assert!(!store.revoke(Path::new("/ws/a")).unwrap(), "revoking from a missing store is a no-op");
        store.record(Path::new("/ws/a"), "d1").unwrap();
        store.record(Path::new("/ws/b"), "d2").unwrap();
        let list = store.list().unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!((list[0].workspace.as_str(), list[0].digest.as_deref()), ("/ws/a", Some("d1")));
        assert!(list[1].approved_at.as_deref().is_some_and(|t| t.ends_with('Z')));
        assert!(store.revoke(Path::new("/ws/a")).unwrap());
        assert!(!store.revoke(Path::new("/ws/a")).unwrap(), "a second revoke finds nothing");
        let list = store.list().unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].workspace, "/ws/b");
        assert!(!store.is_approved(Path::new("/ws/a"), "d1"));
        assert!(store.is_approved(Path::new("/ws/b"), "d2"));
        let mode = std::fs::metadata(store.path()).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the rewritten store stays private");
    }

    #[test]
    fn list_and_revoke_report_a_corrupt_store_and_leave_it_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trust.json");
        std::fs::write(&path, "{not json").unwrap();
        let store = TrustStore::at(&path);
        assert_eq!(store.list().unwrap_err().status, Status::Io);
        assert_eq!(store.revoke(Path::new("/ws/a")).unwrap_err().status, Status::Io);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{not json");
    }

    #[cfg(unix)]
    #[test]
    fn revoke_refuses_a_symlinked_store() {
        let dir = tempfile::tempdir().unwrap();
        let real = TrustStore::at(dir.path().join("real.json"));
        real.record(Path::new("/ws/a"), "d1").unwrap();
        let link = dir.path().join("trust.json");
        std::os::unix::fs::symlink(real.path(), &link).unwrap();
        let store = TrustStore::at(&link);
        assert_eq!(store.revoke(Path::new("/ws/a")).unwrap_err().status, Status::Io);
        assert_eq!(store.list().unwrap_err().status, Status::Io);
        assert!(real.is_approved(Path::new("/ws/a"), "d1"), "the link target is untouched");
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_workspace_key_cannot_collide_with_absolute_paths() {
        use std::ffi::OsStr;
        let p = Path::new(OsStr::from_bytes(b"/ws/\xff"));
        assert_eq!(workspace_key(p), "hex:2f77732fff");
        assert_eq!(workspace_key(Path::new("/ws/a")), "/ws/a");
    }
}
