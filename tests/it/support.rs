//! What the test modules share: a temporary workspace (`Ws`), running an
//! event, hook commands that print a reply, reading an outcome's messages,
//! the fixture scripts, and running one test alone in a child process.
//!
//! A module's own way of building an engine from a config (`engine(...)`)
//! stays in the module, as a small trait on [`Ws`]: each dialect writes its
//! config differently.

#![allow(dead_code)] // each module uses its own subset

use std::borrow::Borrow;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

use hookline::config::HooksConfig;
use hookline::{HookEvent, LifecycleHookEngine};
use serde_json::{json, Value};

/// A workspace in a fresh temporary directory (removed on drop), and the
/// session id its engines get.
pub struct Ws {
    pub dir: tempfile::TempDir,
    pub session_id: &'static str,
}

impl Ws {
    /// A workspace whose engines have the session id `s-1`.
    pub fn new() -> Ws {
        Ws::with_session("s-1")
    }

    /// A workspace whose engines have `session_id`.
    pub fn with_session(session_id: &'static str) -> Ws {
        Ws { dir: tempfile::tempdir().unwrap(), session_id }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The text of `name`, empty when it does not exist.
    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.file(name)).unwrap_or_default()
    }

    /// `name` parsed as JSON (panics, with the text, when it is not).
    pub fn json(&self, name: &str) -> Value {
        serde_json::from_str(&self.read(name)).unwrap_or_else(|e| panic!("{name}: {e}: {:?}", self.read(name)))
    }

    pub fn exists(&self, name: &str) -> bool {
        self.file(name).exists()
    }

    /// Write `text` at `rel` (directories created); its path.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.file(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Write `v` as JSON at `rel` (directories created); its path.
    pub fn write_json(&self, rel: &str, v: &Value) -> PathBuf {
        self.write(rel, &v.to_string())
    }

    /// An executable script `scripts/<name>`; the command that runs it
    /// from the workspace (`./scripts/<name>`).
    pub fn script(&self, name: &str, text: &str) -> String {
        write_executable(&self.file(&format!("scripts/{name}")), text, 0o755);
        format!("./scripts/{name}")
    }

    /// Engine options: this workspace and session, and the keys of `extra`.
    pub fn options(&self, extra: Value) -> Value {
        let mut o = json!({ "workspace": self.path(), "session_id": self.session_id });
        for (k, v) in extra.as_object().unwrap() {
            o[k] = v.clone();
        }
        o
    }

    pub fn try_engine_with(&self, extra: Value) -> hookline::Result<LifecycleHookEngine> {
        LifecycleHookEngine::from_options_json(&self.options(extra).to_string())
    }

    pub fn engine_with(&self, extra: Value) -> LifecycleHookEngine {
        self.try_engine_with(extra).unwrap()
    }
}

/// Write an executable file with mode `mode`, its content written by a
/// child process (`sh -c 'cat > FILE'`), never by this one.
///
/// The tests run in parallel threads of one process, and many of them
/// spawn hooks. A file this process opened for writing is inherited by a
/// child forked on another thread until that child execs, and executing a
/// file someone holds open for writing fails with "Text file busy"
/// (ETXTBSY; `sh` exits 126). When the writer is a child process, no
/// thread of this process holds the file, so a hook that executes the file
/// right after it was written does not race with the other tests' forks.
pub fn write_executable(path: &Path, text: &str, mode: u32) {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut child = Command::new("sh")
        .args(["-c", "cat > \"$1\"", "sh"])
        .arg(path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success(), "could not write {}", path.display());
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Run `event` with `input`; the outcome JSON.
pub fn run(e: &LifecycleHookEngine, event: HookEvent, input: impl Borrow<Value>) -> Value {
    e.run_blocking(event, input.borrow()).unwrap().to_json()
}

/// A command hook (`{"type": "command", "command": …}`).
pub fn cmd(command: impl Into<String>) -> Value {
    json!({ "type": "command", "command": command.into() })
}

/// A shell command that reads its payload and prints `json`.
pub fn say(json: Value) -> String {
    format!("cat >/dev/null; printf '%s\\n' '{}'", json.to_string().replace('\'', "'\\''"))
}

/// The texts of the outcome's messages at `level`.
pub fn texts(out: &Value, level: &str) -> Vec<String> {
    out["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["level"] == level)
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect()
}

/// A config's warnings as `path: message`.
pub fn warnings(cfg: &HooksConfig) -> Vec<String> {
    cfg.warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect()
}

/// `tests/fixtures/<dialect>/<name>`.
pub fn fixture_path(dialect: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dialect).join(name)
}

/// The command that runs fixture `name` of `dialect`: `python3` for `.py`,
/// `node` for `.js`, else `other` (`node` for an extensionless Claude fixture).
pub fn fixture_command(dialect: &str, name: &str, other: &str) -> String {
    let path = fixture_path(dialect, name);
    let interpreter = match path.extension().and_then(|e| e.to_str()) {
        Some("py") => "python3",
        Some("js") => "node",
        _ => other,
    };
    format!("{interpreter} '{}'", path.display())
}

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
