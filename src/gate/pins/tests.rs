use super::watch::hash_file;
use super::*;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::time::{Duration, SystemTime};

/// The text of a shell-form hook is read in its agent's Windows shell's
/// syntax: Codex `%ComSpec% /C` (cmd.exe), Gemini CLI and Cursor
/// PowerShell, Claude Code Git Bash (POSIX text); `"shell":
/// "powershell"` PowerShell in every dialect.
#[test]
fn each_dialect_s_windows_shell_has_its_syntax() {
    let syntax = |name: &str| windows_syntax(&crate::dialect::by_name(name).unwrap().windows_shell());
    assert_eq!(syntax("codex"), Some(WindowsSyntax::Cmd));
    assert_eq!(syntax("vtcode"), Some(WindowsSyntax::Cmd));
    assert_eq!(syntax("gemini"), Some(WindowsSyntax::PowerShell));
    assert_eq!(syntax("cursor"), Some(WindowsSyntax::PowerShell));
    assert_eq!(syntax("claude"), None);
    for d in crate::dialect::ALL {
        assert_eq!(windows_syntax(&d.windows_powershell()), Some(WindowsSyntax::PowerShell), "{}", d.name());
    }
}

fn sha(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

#[test]
fn a_same_size_rewrite_right_after_a_hash_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.sh");
    std::fs::write(&p, "echo a\n").unwrap();
    let old = SystemTime::now() - Duration::from_secs(60);
    File::options().write(true).open(&p).unwrap().set_modified(old).unwrap();
    let w = Watched::new(p.clone(), Role::Program);
    let canonical = std::fs::canonicalize(&p).unwrap();
    assert_eq!(w.observe(), Seen::File { path: canonical.clone(), sha256: sha(b"echo a\n") });
    // ctime is now (set_modified changed it): not settled, so the next
    // observe hashes again; a write of the same size is seen.
    std::fs::write(&p, "echo b\n").unwrap();
    assert_eq!(w.observe(), Seen::File { path: canonical, sha256: sha(b"echo b\n") });
}

#[cfg(unix)]
#[test]
fn a_settled_file_is_rehashed_only_when_a_stat_field_changes() {
    let dir = tempfile::tempdir().unwrap();
    let dir = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(dir.join("hooks")).unwrap();
    let p = dir.join("hooks/x.sh");
    std::fs::write(&p, "echo a\n").unwrap();
    File::options().write(true).open(&p).unwrap().set_modified(SystemTime::now() - SETTLE * 10).unwrap();
    // Let ctime (set by the write and the mtime change) age past SETTLE.
    std::thread::sleep(SETTLE + Duration::from_millis(100));
    let w = Watched::new(p.clone(), Role::Program);
    let first = w.observe();
    assert_eq!(w.hash_count(), 1);
    for _ in 0..5 {
        assert_eq!(w.observe(), first);
    }
    assert_eq!(w.hash_count(), 1, "unchanged stat fields: the cached hash stands");
    std::fs::write(&p, "echo b\n").unwrap();
    assert_eq!(w.observe(), Seen::File { path: std::fs::canonicalize(&p).unwrap(), sha256: sha(b"echo b\n") });
    assert_eq!(w.hash_count(), 2);
    // A directory on the path swapped for a symlink: another file, seen
    // at its canonical path, even with the same bytes.
    std::fs::create_dir(dir.join("elsewhere")).unwrap();
    std::fs::write(dir.join("elsewhere/x.sh"), "echo b\n").unwrap();
    std::fs::rename(dir.join("hooks"), dir.join("hooks.old")).unwrap();
    std::os::unix::fs::symlink(dir.join("elsewhere"), dir.join("hooks")).unwrap();
    assert_eq!(w.observe(), Seen::File { path: dir.join("elsewhere/x.sh"), sha256: sha(b"echo b\n") });
}

#[test]
fn a_file_too_young_is_never_settled() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.sh");
    std::fs::write(&p, "1").unwrap();
    let (_, _, settled) = hash_file(&p).unwrap();
    assert!(!settled, "a file written just now cannot be trusted by its stat fields");
}

#[test]
fn check_names_the_file_in_every_change() {
    let named = Path::new("/ws/g.sh");
    let mut approved = ApprovedFiles::default();
    approved.by_named.insert(named.to_path_buf(), ApprovedFile::File { path: named.to_path_buf(), sha256: sha(b"a") });
    let same = Seen::File { path: named.to_path_buf(), sha256: sha(b"a") };
    assert_eq!(check(named, &same, &approved, false), FileCheck::Ok);
    for seen in [
        Seen::File { path: named.to_path_buf(), sha256: sha(b"b") },
        Seen::File { path: PathBuf::from("/tmp/evil.sh"), sha256: sha(b"a") },
        Seen::Missing,
    ] {
        match check(named, &seen, &approved, true) {
            FileCheck::Changed(m) => assert!(m.contains("/ws/g.sh"), "{m}"),
            other => panic!("{seen:?}: {other:?}"),
        }
    }
    let other = Path::new("/ws/other");
    assert_eq!(check(other, &same, &approved, false), FileCheck::NotApproved);
    assert_eq!(check(other, &Seen::Missing, &approved, false), FileCheck::NotApproved);
    assert_eq!(check(other, &Seen::Missing, &ApprovedFiles::legacy(), false), FileCheck::Ok);
    assert_eq!(check(named, &same, &ApprovedFiles::legacy(), false), FileCheck::NotApproved);
    // An optional path the approval does not pin is not checked; one it
    // pins is (the approved file came back changed).
    assert_eq!(check(other, &same, &approved, true), FileCheck::Ok);
    assert!(matches!(
        check(named, &Seen::File { path: named.to_path_buf(), sha256: sha(b"b") }, &approved, true),
        FileCheck::Changed(_)
    ));
}
