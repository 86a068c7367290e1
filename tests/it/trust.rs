//! The trust store: persisted workspace approvals (docs/protocol.md §10, docs/trust.md).

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

use hookline::trust::TrustStore;
use hookline::Status;
use serde_json::Value;

const D1: &str = "dab52b17fd76003bdb76b274ea78a3c98e23aee6eadbe388d34d5d946751bc89";
const D2: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn mode(p: &Path) -> u32 {
    std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
}

fn running_as_root() -> bool {
    rustix::process::geteuid().is_root()
}

#[test]
fn record_then_is_approved_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::at(dir.path().join("trust.json"));
    let ws = Path::new("/projects/alpha");
    assert!(!store.is_approved(ws, D1), "a missing store approves nothing");
    store.record(ws, D1).unwrap();
    assert!(store.is_approved(ws, D1));
    assert_eq!(store.approved_digest(ws).as_deref(), Some(D1));
    // A fresh instance at the same path reads the same record.
    assert!(TrustStore::at(store.path()).is_approved(ws, D1));
}

#[test]
fn other_workspace_is_not_approved() {
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::at(dir.path().join("trust.json"));
    store.record(Path::new("/projects/alpha"), D1).unwrap();
    assert!(!store.is_approved(Path::new("/projects/beta"), D1));
    assert!(!store.is_approved(Path::new("/projects/alpha/sub"), D1));
    assert!(!store.is_approved(Path::new("/projects"), D1));
}

#[test]
fn changed_digest_is_not_approved() {
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::at(dir.path().join("trust.json"));
    let ws = Path::new("/projects/alpha");
    store.record(ws, D1).unwrap();
    assert!(!store.is_approved(ws, D2));
    assert!(!store.is_approved(ws, &D1.to_uppercase()));
    assert!(!store.is_approved(ws, ""));
}

#[test]
fn latest_approval_replaces_the_earlier_one_record_per_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    let store = TrustStore::at(&path);
    let ws = Path::new("/projects/alpha");
    store.record(ws, D1).unwrap();
    store.record(Path::new("/projects/beta"), D1).unwrap();
    store.record(ws, D2).unwrap();
    assert!(store.is_approved(ws, D2));
    assert!(!store.is_approved(ws, D1));
    assert!(store.is_approved(Path::new("/projects/beta"), D1));
    let doc = read_json(&path);
    assert_eq!(doc["version"], 2, "the format with pins");
    let wss = doc["workspaces"].as_object().unwrap();
    assert_eq!(wss.len(), 2);
    assert_eq!(wss["/projects/alpha"]["digest"], D2);
}

#[test]
fn record_format_has_digest_and_rfc3339_utc_approved_at() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    TrustStore::at(&path).record(Path::new("/w"), D1).unwrap();
    let doc = read_json(&path);
    let rec = &doc["workspaces"]["/w"];
    assert_eq!(rec["digest"], D1);
    let at = rec["approved_at"].as_str().unwrap();
    let re = regex::Regex::new(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$").unwrap();
    assert!(re.is_match(at), "{at}");
    assert!(at.as_bytes()[0] == b'2', "a year 2xxx timestamp: {at}");
}

#[test]
fn unknown_keys_of_the_store_are_kept_when_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    std::fs::write(&path, r#"{"version":1,"comment":"keep me","workspaces":{"/a":{"digest":"x","note":"n"}}}"#)
        .unwrap();
    TrustStore::at(&path).record(Path::new("/b"), D1).unwrap();
    let doc = read_json(&path);
    assert_eq!(doc["comment"], "keep me");
    assert_eq!(doc["workspaces"]["/a"]["note"], "n");
    assert_eq!(doc["workspaces"]["/b"]["digest"], D1);
}

#[test]
fn corrupt_store_is_not_approved_and_a_later_record_replaces_it() {
    for corrupt in ["not json at all", "[1,2]", r#"{"workspaces": []}"#, "", "{\"workspaces\":{\"/w\":{\"digest\":"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trust.json");
        std::fs::write(&path, corrupt).unwrap();
        let store = TrustStore::at(&path);
        assert!(!store.is_approved(Path::new("/w"), D1), "{corrupt:?}");
        store.record(Path::new("/w"), D1).unwrap();
        assert!(store.is_approved(Path::new("/w"), D1), "{corrupt:?}");
        assert_eq!(read_json(&path)["workspaces"]["/w"]["digest"], D1);
    }
}

#[test]
fn record_without_digest_string_approves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    std::fs::write(&path, r#"{"version":1,"workspaces":{"/w":{"digest":5},"/v":"x"}}"#).unwrap();
    let store = TrustStore::at(&path);
    assert!(!store.is_approved(Path::new("/w"), "5"));
    assert!(!store.is_approved(Path::new("/v"), "x"));
}

#[test]
fn symlinked_store_reads_as_not_approved_and_record_fails_with_io_leaving_target_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.json");
    // The target holds a valid approval: it must still not count.
    let good = TrustStore::at(&target);
    good.record(Path::new("/w"), D1).unwrap();
    let before = std::fs::read(&target).unwrap();

    let link = dir.path().join("trust.json");
    symlink(&target, &link).unwrap();
    let store = TrustStore::at(&link);
    assert!(!store.is_approved(Path::new("/w"), D1));
    let err = store.record(Path::new("/w"), D2).unwrap_err();
    assert_eq!(err.status, Status::Io, "{err}");
    assert_eq!(std::fs::read(&target).unwrap(), before, "target untouched");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "link untouched");
    assert!(!dir.path().join("trust.json.lock").exists(), "nothing written next to the link");
}

#[test]
fn dangling_symlink_store_record_fails_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("sub").join("created.json");
    let link = dir.path().join("trust.json");
    symlink(&target, &link).unwrap();
    let store = TrustStore::at(&link);
    assert!(!store.is_approved(Path::new("/w"), D1));
    assert_eq!(store.record(Path::new("/w"), D1).unwrap_err().status, Status::Io);
    assert!(!target.exists());
    assert!(!dir.path().join("sub").exists());
}

#[test]
fn symlinked_lock_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    symlink(&victim, dir.path().join("trust.json.lock")).unwrap();
    let store = TrustStore::at(dir.path().join("trust.json"));
    assert_eq!(store.record(Path::new("/w"), D1).unwrap_err().status, Status::Io);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    assert!(!dir.path().join("trust.json").exists());
}

#[test]
fn store_file_is_mode_0600_and_created_directories_0700() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("a").join("b");
    let path = nested.join("trust.json");
    TrustStore::at(&path).record(Path::new("/w"), D1).unwrap();
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&nested), 0o700);
    assert_eq!(mode(&dir.path().join("a")), 0o700);
    assert_eq!(mode(&nested.join("trust.json.lock")), 0o600);
}

#[test]
fn rewrite_resets_a_loose_mode_to_0600() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    std::fs::write(&path, "{}").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
    TrustStore::at(&path).record(Path::new("/w"), D1).unwrap();
    assert_eq!(mode(&path), 0o600);
}

#[test]
fn writes_leave_no_temporary_files() {
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::at(dir.path().join("trust.json"));
    for i in 0..5 {
        store.record(Path::new(&format!("/w{i}")), D1).unwrap();
    }
    let mut names: Vec<_> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["trust.json", "trust.json.lock"]);
}

const UNPRIVILEGED_CHILD_ENV: &str = "HOOKLINE_TRUST_TEST_UNPRIVILEGED";

/// Run `body` where file permission bits are enforced. Not root: directly.
/// Root (as in CI), which permission bits do not restrict: in a copy of this
/// test binary re-executed as the unprivileged uid/gid 65534, and the test
/// passes only if that child ran the test and it passed.
fn with_permission_bits_enforced(test_name: &str, body: impl FnOnce()) {
    if std::env::var_os(UNPRIVILEGED_CHILD_ENV).is_some() {
        assert!(!running_as_root(), "the child must not run as root");
        body();
        return;
    }
    if !running_as_root() {
        body();
        return;
    }
    use std::os::unix::process::CommandExt;
    // A copy of the binary in a world-readable directory, so the check does
    // not depend on where the checkout lives.
    let bin_dir = tempfile::Builder::new().prefix("hookline-trust-test").tempdir().unwrap();
    std::fs::set_permissions(bin_dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let exe = bin_dir.path().join("trust-test");
    std::fs::copy(std::env::current_exe().unwrap(), &exe).unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    let test_name = &crate::support::test_name(module_path!(), test_name);
    let out = Command::new(&exe)
        .args([test_name, "--exact", "--nocapture", "--test-threads=1"])
        .env(UNPRIVILEGED_CHILD_ENV, "1")
        .env("TMPDIR", "/tmp")
        .current_dir("/")
        .uid(65534)
        .gid(65534)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{test_name} failed as uid 65534 ({:?}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("1 passed"), "the unprivileged child did not run {test_name}:\n{stdout}");
}

#[test]
fn unreadable_store_is_not_approved_and_record_fails_with_io() {
    with_permission_bits_enforced("unreadable_store_is_not_approved_and_record_fails_with_io", unreadable_store_body);
}

fn unreadable_store_body() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    let store = TrustStore::at(&path);
    store.record(Path::new("/w"), D1).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    assert!(!store.is_approved(Path::new("/w"), D1));
    assert_eq!(store.record(Path::new("/v"), D1).unwrap_err().status, Status::Io);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert!(store.is_approved(Path::new("/w"), D1), "the failed record lost nothing");
}

#[test]
fn directory_at_store_path_is_not_approved_and_record_fails_with_io() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    std::fs::create_dir(&path).unwrap();
    let store = TrustStore::at(&path);
    assert!(!store.is_approved(Path::new("/w"), D1));
    assert_eq!(store.record(Path::new("/w"), D1).unwrap_err().status, Status::Io);
}

#[test]
fn fifo_at_store_path_does_not_block_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    rustix::fs::mknodat(rustix::fs::CWD, &path, rustix::fs::FileType::Fifo, rustix::fs::Mode::from_raw_mode(0o600), 0)
        .unwrap();
    let store = TrustStore::at(&path);
    assert!(!store.is_approved(Path::new("/w"), D1));
    assert_eq!(store.record(Path::new("/w"), D1).unwrap_err().status, Status::Io);
}

#[test]
fn non_utf8_workspace_paths_are_distinct_records() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let store = TrustStore::at(dir.path().join("trust.json"));
    let a = Path::new(OsStr::from_bytes(b"/ws/\xff"));
    let b = Path::new(OsStr::from_bytes(b"/ws/\xfe"));
    store.record(a, D1).unwrap();
    assert!(store.is_approved(a, D1));
    assert!(!store.is_approved(b, D1));
    assert!(!store.is_approved(Path::new("/ws/\u{fffd}"), D1));
}

#[test]
fn resolve_follows_option_then_env_then_xdg_then_home() {
    // It changes process-wide environment variables: alone in a child
    // process, with no other test of the binary reading them meanwhile.
    crate::support::alone(module_path!(), "resolve_follows_option_then_env_then_xdg_then_home", resolve_order_body);
}

fn resolve_order_body() {
    let saved: Vec<(&str, Option<std::ffi::OsString>)> =
        ["HOOKLINE_TRUST_STORE", "XDG_CONFIG_HOME", "HOME"].into_iter().map(|k| (k, std::env::var_os(k))).collect();
    std::env::set_var("HOOKLINE_TRUST_STORE", "/env/store.json");
    std::env::set_var("XDG_CONFIG_HOME", "/xdg");
    std::env::set_var("HOME", "/home/u");
    let resolved = |opt: Option<&Path>| TrustStore::resolve(opt).map(|s| s.path().to_path_buf());

    assert_eq!(resolved(Some(Path::new("/opt/t.json"))), Some(PathBuf::from("/opt/t.json")));
    assert_eq!(resolved(None), Some(PathBuf::from("/env/store.json")));
    std::env::set_var("HOOKLINE_TRUST_STORE", "");
    assert_eq!(resolved(None), Some(PathBuf::from("/xdg/hookline/trust.json")));
    std::env::remove_var("HOOKLINE_TRUST_STORE");
    assert_eq!(resolved(None), Some(PathBuf::from("/xdg/hookline/trust.json")));
    std::env::set_var("XDG_CONFIG_HOME", "relative/dir");
    assert_eq!(resolved(None), Some(PathBuf::from("/home/u/.config/hookline/trust.json")));
    std::env::remove_var("XDG_CONFIG_HOME");
    assert_eq!(resolved(None), Some(PathBuf::from("/home/u/.config/hookline/trust.json")));
    std::env::remove_var("HOME");
    assert_eq!(resolved(None), None);
    assert_eq!(resolved(Some(Path::new("/opt/t.json"))), Some(PathBuf::from("/opt/t.json")));

    for (k, v) in saved {
        match v {
            Some(v) => std::env::set_var(k, v),
            None => std::env::remove_var(k),
        }
    }
}

// ---------------------------------------------------------------- concurrency

const CHILD_STORE_VAR: &str = "HOOKLINE_TEST_TRUST_CHILD_STORE";
const CHILD_PREFIX_VAR: &str = "HOOKLINE_TEST_TRUST_CHILD_PREFIX";
const PER_WRITER: usize = 6;

/// Helper run in child processes by the concurrency test (re-executes this
/// test binary); does nothing when run directly.
#[test]
#[ignore = "helper: run in child processes by concurrent_writers_lose_no_record"]
fn child_process_records_workspaces() {
    let (Some(store), Some(prefix)) = (std::env::var_os(CHILD_STORE_VAR), std::env::var(CHILD_PREFIX_VAR).ok()) else {
        return;
    };
    let store = TrustStore::at(PathBuf::from(store));
    for i in 0..PER_WRITER {
        store.record(Path::new(&format!("/{prefix}/{i}")), D1).unwrap();
    }
}

#[test]
fn concurrent_writers_lose_no_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep").join("trust.json");
    let exe = std::env::current_exe().unwrap();
    let child_test = crate::support::test_name(module_path!(), "child_process_records_workspaces");
    let children: Vec<_> = (0..4)
        .map(|c| {
            Command::new(&exe)
                .args(["--ignored", "--exact", &child_test, "--test-threads=1", "--quiet"])
                .env(CHILD_STORE_VAR, &path)
                .env(CHILD_PREFIX_VAR, format!("proc{c}"))
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let path = path.clone();
            std::thread::spawn(move || {
                // Each thread has its own instance (its own lock file descriptor).
                let store = TrustStore::at(&path);
                for i in 0..PER_WRITER {
                    store.record(Path::new(&format!("/thread{t}/{i}")), D2).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    for mut c in children {
        assert!(c.wait().unwrap().success(), "child writer failed");
    }

    let doc = read_json(&path);
    let wss = doc["workspaces"].as_object().unwrap();
    assert_eq!(wss.len(), (8 + 4) * PER_WRITER, "every record kept");
    let store = TrustStore::at(&path);
    for t in 0..8 {
        for i in 0..PER_WRITER {
            assert!(store.is_approved(Path::new(&format!("/thread{t}/{i}")), D2));
        }
    }
    for c in 0..4 {
        for i in 0..PER_WRITER {
            assert!(store.is_approved(Path::new(&format!("/proc{c}/{i}")), D1));
        }
    }
    assert_eq!(mode(&path), 0o600);
}
