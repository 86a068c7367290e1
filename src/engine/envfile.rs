//! `CLAUDE_ENV_FILE` for SessionStart hooks (Claude Code profile): each
//! hook of a SessionStart run gets the path of a fresh private file, and the
//! `export K=V` / `K=V` lines the hooks write there are returned in the
//! outcome as `env: {K: V}`.
//!
//! The files live in a private directory (mode 0700, created fresh under the
//! system temporary directory, never reused) that is removed when the run
//! ends; each file is created empty with mode 0600 before the hook starts.
//! Each hook gets its own file, so that the result is in configuration
//! order even though SessionStart hooks run concurrently: files are read in
//! configuration order and a later assignment of a name replaces an earlier
//! one.
//!
//! Line syntax (what shell hooks write with `echo`): blank lines and `#`
//! comments are skipped; `export NAME=VALUE` or `NAME=VALUE`, `NAME` made of
//! letters, digits and `_` and not starting with a digit; `VALUE` is taken
//! verbatim (trailing whitespace trimmed) unless it is wholly single-quoted
//! (taken literally) or double-quoted (`\"`, `\\`, `\$` and `` \` `` unescaped).
//! Other lines are ignored.

use crate::platform::{DirBuilderExt, OpenOptionsExt};
use std::fs::{DirBuilder, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value};

/// The private directory of one SessionStart run's env files.
#[derive(Debug)]
pub(crate) struct EnvFiles {
    dir: PathBuf,
    files: Vec<PathBuf>,
}

impl EnvFiles {
    /// Create the directory and one empty file per hook (`count`).
    pub(crate) fn create(count: usize) -> io::Result<EnvFiles> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        let mut attempt = 0;
        let dir = loop {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let name =
                format!("hookline-env-{}-{}-{nanos:x}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
            let dir = base.join(name);
            match DirBuilder::new().mode(0o700).create(&dir) {
                Ok(()) => break dir,
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 16 => attempt += 1,
                Err(e) => return Err(e),
            }
        };
        let mut env = EnvFiles { dir, files: Vec::with_capacity(count) };
        for i in 0..count {
            let path = env.dir.join(format!("hook-{i}.env"));
            OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path)?;
            env.files.push(path);
        }
        Ok(env)
    }

    /// The file of hook `i` (in plan order).
    pub(crate) fn path(&self, i: usize) -> Option<&Path> {
        self.files.get(i).map(PathBuf::as_path)
    }

    /// The assignments of every file, in order (later ones win).
    pub(crate) fn collect(&self) -> Map<String, Value> {
        let mut out = Map::new();
        for file in &self.files {
            // A hook may have replaced its file by something unreadable
            // (a directory, a FIFO): only regular files are read, and at most
            // 1 MiB of each.
            let Ok(meta) = std::fs::symlink_metadata(file) else { continue };
            if !meta.is_file() {
                continue;
            }
            let Ok(bytes) = std::fs::read(file) else { continue };
            let text = String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 20)]);
            for (k, v) in parse(&text) {
                out.remove(&k);
                out.insert(k, Value::String(v));
            }
        }
        out
    }
}

impl Drop for EnvFiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Parse env-file text into assignments, in order.
pub(crate) fn parse(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").map(str::trim_start).unwrap_or(line);
        let Some((name, value)) = line.split_once('=') else { continue };
        let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            continue;
        }
        out.push((name.to_owned(), unquote(value.trim_end())));
    }
    out
}

fn unquote(value: &str) -> String {
    if value.len() >= 2 && value.starts_with('\'') && value.ends_with('\'') {
        return value[1..value.len() - 1].to_owned();
    }
    if value.len() >= 2 && value.starts_with('"') && value.ends_with('"') {
        let inner = &value[1..value.len() - 1];
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some(n @ ('"' | '\\' | '$' | '`')) => out.push(n),
                    Some(n) => {
                        out.push('\\');
                        out.push(n);
                    }
                    None => out.push('\\'),
                }
            } else {
                out.push(c);
            }
        }
        return out;
    }
    value.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_and_plain_assignments_are_read_quotes_removed() {
        let got = parse("export A=1\nB=two\n# comment\n\nexport C='x y'\nD=\"q \\\"z\\\" \\$HOME\"\nnot an assignment\n1X=bad\nE=\n");
        let want: Vec<(String, String)> = [("A", "1"), ("B", "two"), ("C", "x y"), ("D", "q \"z\" $HOME"), ("E", "")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    #[cfg(unix)]
    #[test]
    fn files_are_private_read_in_order_and_removed() {
        use std::os::unix::fs::PermissionsExt;
        let files = EnvFiles::create(2).unwrap();
        let dir = files.dir.clone();
        assert_eq!(std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
        assert_eq!(std::fs::metadata(files.path(0).unwrap()).unwrap().permissions().mode() & 0o777, 0o600);
        std::fs::write(files.path(1).unwrap(), "A=second\n").unwrap();
        std::fs::write(files.path(0).unwrap(), "A=first\nB=b\n").unwrap();
        let env = files.collect();
        assert_eq!(env["A"], "second");
        assert_eq!(env["B"], "b");
        drop(files);
        assert!(!dir.exists());
    }
}
