//! What the test modules share.

#![allow(dead_code)] // each module uses its own subset

use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

/// The libtest name of test `name` in the module whose `module_path!()` is
/// `module` (`it::trust` → `trust::name`): what `--exact` needs when a test
/// runs itself again in a child process.
pub fn test_name(module: &str, name: &str) -> String {
    match module.split_once("::") {
        Some((_, m)) => format!("{m}::{name}"),
        None => name.to_owned(),
    }
}

/// Tests that allocate or measure this process's memory (64 MiB arguments,
/// the resident size around a 100 MiB response body) hold this lock, so that
/// one does not count the other's memory.
pub fn memory_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Set in a child process that runs one test alone ([`alone`]).
const ALONE_ENV: &str = "HOOKLINE_IT_ALONE";

/// Run `body` in a child process that runs only the test `module::name` (so
/// that it may change process-wide state, such as environment variables,
/// with no other test running beside it); passes when the child ran it and
/// it passed. In that child, runs `body` itself.
pub fn alone(module: &str, name: &str, body: impl FnOnce()) {
    let full = test_name(module, name);
    if std::env::var(ALONE_ENV).as_deref() == Ok(full.as_str()) {
        body();
        return;
    }
    let out: Output = Command::new(std::env::current_exe().unwrap())
        .args([full.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(ALONE_ENV, &full)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{full} failed in its own process ({:?}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("1 passed"), "the child did not run {full}:\n{stdout}");
}
