//! Script pins: the files the gated commands execute, bound to the approval
//! and re-verified right before every spawn (rules in `docs/trust.md`).
//!
//! - [`PinSet`]: the files the commands of a command set name
//!   ([`super::resolve`] finds them), each a [`Watched`] file with the cache
//!   of its last hash. Built when the configuration is loaded; immutable
//!   but for the caches.
//! - [`ApprovedFiles`]: what an approval says about each of those files —
//!   this canonical path with this SHA-256, or "there was no file" — kept
//!   with the approved digest in memory and in the trust store.
//! - [`PinSet::verify`]: the check before a spawn. A file is re-hashed only
//!   when its device, inode, size, mtime or ctime differ from when it was
//!   last hashed, or when that hash was taken too soon after the file was
//!   written to trust the timestamps ([`SETTLE`]). When the path had no
//!   symlink and the file's stat fields are unchanged, the check is one
//!   `lstat`; otherwise the path is resolved again first.
//!
//! Which files are watched: every reference to an existing regular file
//! (pinned), and a program path where nothing exists yet (so that a script
//! appearing there after the approval needs a new one). An argument naming
//! no file when the command set is made (it may be what the hook writes) is
//! *optional*: checked only when the approval pins it — so a pinned script
//! deleted before a restart and put back changed is still caught — and
//! otherwise left alone. References to directories are not watched. A hook
//! of a hooks folder (Cline's) also watches every regular file of its
//! folder and every place in it where a hook file could appear
//! (`folder_references`): an approved folder that gains, loses or changes a
//! file needs a new approval.

use crate::platform::{MetadataExt, OpenOptionsExt};
use std::collections::HashMap;
use std::fs::{File, Metadata, OpenOptions};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::resolve::{self, Reference, Resolution, ResolveCtx, Role};
use super::resolve_windows::{self, WindowsSyntax};
use crate::config::windows_shell::WindowsShell;
use crate::config::{HookSpec, ScriptForm};
use crate::dialect::PlaceholderValue;
use crate::model::input::SessionFacts;
use crate::paths::System;
use crate::runner::Environment;

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
            Seen::File { path, sha256 } => Some(Pin { path: path.clone(), sha256: super::hex(sha256) }),
            Seen::Missing => None,
        }
    }
}

/// The stat fields a hash is cached under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct StatKey {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl StatKey {
    fn of(m: &Metadata) -> StatKey {
        StatKey {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        }
    }

    /// Whether both timestamps are at least [`SETTLE`] before `t`.
    fn settled_before(&self, t: SystemTime) -> bool {
        let at = |(s, ns): (i64, i64)| {
            let secs = Duration::from_secs(s.max(0) as u64) + Duration::from_nanos(ns.clamp(0, 999_999_999) as u64);
            UNIX_EPOCH + secs
        };
        let newest = at(self.mtime).max(at(self.ctime));
        newest.checked_add(SETTLE).is_some_and(|limit| limit <= t)
    }
}

#[derive(Clone, Debug)]
struct Cached {
    canonical: PathBuf,
    key: StatKey,
    sha256: [u8; 32],
    settled: bool,
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
    cache: Mutex<Option<Cached>>,
    /// How many times its content was hashed.
    hashes: AtomicU64,
}

impl Watched {
    fn new(named: PathBuf, role: Role) -> Watched {
        Watched { named, role, optional: false, cache: Mutex::new(None), hashes: AtomicU64::new(0) }
    }

    /// Compare what is there now with what `approved` says ([`check`]).
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
fn hash_file(path: &Path) -> std::io::Result<([u8; 32], StatKey, bool)> {
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

/// What an approval says about one watched file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApprovedFile {
    /// This canonical path with this content.
    File { path: PathBuf, sha256: [u8; 32] },
    /// No regular file was there.
    Missing,
}

/// What an approval says about the files of a command set, by the path
/// each command names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApprovedFiles {
    /// Per watched path (as named): what was approved.
    pub by_named: HashMap<PathBuf, ApprovedFile>,
    /// An approval recorded without pins (earlier versions of the trust
    /// store): it approves no file, only commands that name none.
    pub legacy: bool,
}

impl ApprovedFiles {
    /// An approval without pins (earlier versions): satisfies only
    /// commands whose files are all missing.
    pub fn legacy() -> ApprovedFiles {
        ApprovedFiles { by_named: HashMap::new(), legacy: true }
    }

    /// The pins it holds (present files), sorted by path.
    pub fn pins(&self) -> Vec<(PathBuf, Pin)> {
        let mut v: Vec<(PathBuf, Pin)> = self
            .by_named
            .iter()
            .filter_map(|(named, f)| match f {
                ApprovedFile::File { path, sha256 } => {
                    Some((named.clone(), Pin { path: path.clone(), sha256: super::hex(sha256) }))
                }
                ApprovedFile::Missing => None,
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// The paths approved as holding no file, sorted.
    pub fn missing(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> =
            self.by_named.iter().filter(|(_, f)| **f == ApprovedFile::Missing).map(|(n, _)| n.clone()).collect();
        v.sort();
        v
    }
}

/// How one watched file compares with the approval.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileCheck {
    /// As approved.
    Ok,
    /// The approval does not cover this file (it was approved without
    /// pins, or for other files).
    NotApproved,
    /// Changed since the approval; the text says how, naming the file.
    Changed(String),
}

fn short(sha: &[u8; 32]) -> String {
    super::hex(sha)[..12].to_owned()
}

/// Compare what is at a watched path with what the approval says. An
/// `optional` path (an argument that named no file when the command set was
/// made) the approval does not pin is not checked.
pub fn check(named: &Path, seen: &Seen, approved: &ApprovedFiles, optional: bool) -> FileCheck {
    match (approved.by_named.get(named), seen) {
        (Some(ApprovedFile::File { path, sha256 }), Seen::File { path: now, sha256: h }) => {
            if path != now {
                FileCheck::Changed(format!(
                    "{} now resolves to {} (approved: {})",
                    named.display(),
                    now.display(),
                    path.display()
                ))
            } else if sha256 != h {
                FileCheck::Changed(format!(
                    "{} changed since the workspace hooks were approved (sha256 {} approved, {} now)",
                    now.display(),
                    short(sha256),
                    short(h)
                ))
            } else {
                FileCheck::Ok
            }
        }
        (Some(ApprovedFile::File { path, .. }), Seen::Missing) => {
            let also = if path != named { format!(" (approved: {})", path.display()) } else { String::new() };
            FileCheck::Changed(format!(
                "{} is gone or no longer a regular file since the workspace hooks were approved{also}",
                named.display()
            ))
        }
        (Some(ApprovedFile::Missing), Seen::Missing) => FileCheck::Ok,
        (Some(ApprovedFile::Missing), Seen::File { path, .. }) => {
            FileCheck::Changed(format!("{} did not exist when the workspace hooks were approved", path.display()))
        }
        (None, Seen::Missing) if approved.legacy => FileCheck::Ok,
        (None, _) if optional => FileCheck::Ok,
        (None, _) => FileCheck::NotApproved,
    }
}

/// What the gate decides about one hook's files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every file is as approved (or the hook names none).
    Run,
    /// The approval does not cover the hook's files.
    NotApproved,
    /// A file changed since the approval; the message names it.
    Changed(String),
}

/// A watched file that differs from the approval, for `hookline trust diff`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PinChange {
    /// The path as the command names it.
    pub named: PathBuf,
    /// What was approved (`None`: no file, or not covered by the approval).
    pub approved: Option<Pin>,
    /// Whether the approval covers this path at all.
    pub covered: bool,
    /// What is there now (`None`: no regular file).
    pub now: Option<Pin>,
}

/// The key a hook's files are found under: its script, its plugin root,
/// its dialect and its working directory (they decide what the words name).
#[derive(Debug)]
struct HookKey {
    script: OwnedForm,
    plugin_root: Option<String>,
    dialect: &'static str,
    cwd: Option<String>,
}

/// An owned [`ScriptForm`].
#[derive(Debug)]
enum OwnedForm {
    Shell(String),
    Exec(String, Vec<String>),
}

impl HookKey {
    fn of(spec: &HookSpec) -> Option<HookKey> {
        let script = match spec.handler.script_form()? {
            ScriptForm::Shell(text) => OwnedForm::Shell(text.to_owned()),
            ScriptForm::Exec(command, args) => OwnedForm::Exec(command.to_owned(), args.to_vec()),
        };
        Some(HookKey {
            script,
            plugin_root: spec.plugin_root().map(str::to_owned),
            dialect: spec.dialect().name(),
            cwd: hook_cwd(spec).map(str::to_owned),
        })
    }

    fn hash_of(spec: &HookSpec) -> Option<u64> {
        let form = spec.handler.script_form()?;
        let mut h = DefaultHasher::new();
        form.hash(&mut h);
        spec.plugin_root().hash(&mut h);
        spec.dialect().name().hash(&mut h);
        hook_cwd(spec).hash(&mut h);
        Some(h.finish())
    }

    fn matches(&self, spec: &HookSpec) -> bool {
        let form = match &self.script {
            OwnedForm::Shell(text) => ScriptForm::Shell(text),
            OwnedForm::Exec(command, args) => ScriptForm::Exec(command, args),
        };
        spec.handler.script_form() == Some(form)
            && self.plugin_root.as_deref() == spec.plugin_root()
            && self.dialect == spec.dialect().name()
            && self.cwd.as_deref() == hook_cwd(spec)
    }
}

/// The working directory a hook's config gives (relative to the workspace).
fn hook_cwd(spec: &HookSpec) -> Option<&str> {
    spec.handler.launch().and_then(|l| l.cwd.as_deref())
}

/// The files of the hooks with one key.
type HookFiles = (HookKey, Arc<[usize]>);

/// The watched files of a command set.
#[derive(Debug, Default)]
pub struct PinSet {
    files: Vec<Watched>,
    /// Per preview (digest order): indices into `files`.
    of_preview: Vec<Vec<usize>>,
    /// Per preview (digest order): the script words that cannot be resolved.
    unpinned_of_preview: Vec<Vec<String>>,
    by_hook: HashMap<u64, Vec<HookFiles>>,
}

/// What the resolver needs besides a hook: where commands run.
#[derive(Clone, Debug)]
pub struct PinCtx {
    /// The canonical workspace.
    pub workspace: PathBuf,
    /// `$HOME` as hooks see it.
    pub home: Option<PathBuf>,
}

/// The references of one hook: its script words resolved with its
/// dialect's placeholders and its source's plugin root.
pub fn references_of(spec: &HookSpec, ctx: &PinCtx) -> Vec<Reference> {
    resolution_of(spec, ctx).references
}

/// [`references_of`] with the script words that cannot be resolved
/// ([`Resolution::unpinned`]).
///
/// The words are read as the hook's process will get them: a shell-form
/// command as its dialect hands it to the shell
/// ([`Dialect::command_line`](crate::dialect::Dialect::command_line):
/// Gemini CLI writes `$GEMINI_PROJECT_DIR` and an extension's
/// `${extensionPath}` into it), its variables with the values the hook's
/// environment gives them: `HOOKLINE_PROJECT_DIR` and the dialect's
/// [placeholders](crate::dialect::Dialect::placeholders), then the hook's
/// own `env` (set last, it wins). An exec-form command substitutes only
/// the names its dialect substitutes there, an unset one as empty text.
pub fn resolution_of(spec: &HookSpec, ctx: &PinCtx) -> Resolution {
    let Some(form) = spec.handler.script_form() else { return Resolution::default() };
    let Some(ws) = ctx.workspace.to_str() else { return Resolution::default() };
    let d = spec.dialect();
    let root = spec.plugin_root();
    let mut values: Vec<(&str, &str)> = vec![("HOOKLINE_PROJECT_DIR", ws)];
    for p in d.placeholders() {
        match p.value {
            PlaceholderValue::ProjectDir => values.push((p.name, ws)),
            PlaceholderValue::PluginRoot => {
                if let Some(r) = root {
                    values.push((p.name, r));
                }
            }
        }
    }
    for (name, value) in &spec.env {
        values.retain(|(n, _)| n != name);
        values.push((name, value));
    }
    let cwd = hook_cwd(spec).map(Path::new);
    let rctx = ResolveCtx {
        workspace: &ctx.workspace,
        cwd,
        plugin_root: root.map(Path::new),
        home: ctx.home.as_deref(),
        placeholders: &values,
    };
    // A hook of a hooks folder (Cline's) runs a file of that folder, named
    // by its absolute path: its words count inside the folder as inside a
    // plugin root (the pin set pins the folder itself: `folder_references`).
    let rctx = ResolveCtx { plugin_root: rctx.plugin_root.or(folder_of(spec)), ..rctx };
    match form {
        ScriptForm::Shell(_) => {
            let facts = SessionFacts { session_id: "", cwd: ws, transcript_path: None, trigger: "" };
            let line = d.command_line(spec, &facts, &Environment::new());
            match shell_syntax(spec, System::HOST) {
                Some(syntax) => resolve_windows::resolve_windows_shell(&line, syntax, &rctx),
                None => resolve::resolve_shell(&line, &rctx),
            }
        }
        ScriptForm::Exec(command, args) => {
            let exec_names = d.profile().exec_placeholders;
            let exec_values: Vec<(&str, &str)> = exec_names
                .iter()
                .map(|n| (*n, values.iter().find(|(v, _)| v == n).map_or("", |(_, value)| *value)))
                .collect();
            let rctx = ResolveCtx { placeholders: &exec_values, ..rctx };
            let words: Vec<&str> = std::iter::once(command).chain(args.iter().map(String::as_str)).collect();
            resolve::resolve_exec(&words, &rctx)
        }
    }
}

/// The hooks folder a hook comes from (Cline's), if it does.
fn folder_of(spec: &HookSpec) -> Option<&Path> {
    spec.source.info.path.as_deref().filter(|p| spec.dialect().reads_hooks_folders() && p.is_dir())
}

/// What a hook of the hooks folder `dir` pins besides its own file: every
/// regular file of the folder (the other hooks, the helpers they run, the
/// hook files that are off), and every place where a file would be a hook
/// ([`Dialect::hook_file_places`](crate::dialect::Dialect::hook_file_places))
/// where nothing is, watched as a program: a hook file added to an approved
/// folder, or one removed or changed, needs a new approval.
fn folder_references(d: &dyn crate::dialect::Dialect, dir: &Path) -> Vec<Reference> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))
        .collect();
    files.sort();
    for path in files {
        let path = resolve::normalize(&path);
        out.push(Reference { word: path.display().to_string(), path, role: Role::Argument });
    }
    for place in d.hook_file_places(dir) {
        let path = resolve::normalize(&place);
        if !out.iter().any(|r| r.path == path) && std::fs::symlink_metadata(&path).is_err() {
            out.push(Reference { word: path.display().to_string(), path, role: Role::Program });
        }
    }
    out
}

/// Which Windows shell reads a shell-form hook's text on `system`: its
/// dialect's Windows shell, or its PowerShell for `"shell": "powershell"`
/// (as the runner chooses them); `None` for POSIX shell text (every Unix
/// shell, and Git Bash on Windows).
pub fn shell_syntax(spec: &HookSpec, system: System) -> Option<WindowsSyntax> {
    if system != System::Windows {
        return None;
    }
    let crate::config::HandlerSpec::Command { shell, .. } = &spec.handler else { return None };
    let d = spec.dialect();
    let chosen = match shell {
        crate::config::Shell::PowerShell => d.windows_powershell(),
        crate::config::Shell::Bash => WindowsShell::BASH,
        _ => d.windows_shell(),
    };
    windows_syntax(&chosen)
}

/// How `shell` reads command text: cmd.exe's or PowerShell's syntax, or
/// POSIX shell text (`None`: Git Bash).
pub fn windows_syntax(shell: &WindowsShell) -> Option<WindowsSyntax> {
    match shell {
        WindowsShell::Cmd { .. } => Some(WindowsSyntax::Cmd),
        WindowsShell::PowerShell { .. } => Some(WindowsSyntax::PowerShell),
        WindowsShell::GitBash { .. } => None,
    }
}

impl PinSet {
    /// The watched files of `hooks` (the gated hooks, in digest order),
    /// each hashed once now.
    pub fn new<'a>(hooks: impl IntoIterator<Item = &'a HookSpec>, ctx: &PinCtx) -> PinSet {
        let mut set = PinSet::default();
        let mut by_named: HashMap<PathBuf, usize> = HashMap::new();
        for spec in hooks {
            let mut resolution = resolution_of(spec, ctx);
            if let Some(dir) = folder_of(spec) {
                for r in folder_references(spec.dialect(), dir) {
                    if !resolution.references.iter().any(|have| have.path == r.path) {
                        resolution.references.push(r);
                    }
                }
            }
            set.unpinned_of_preview.push(resolution.unpinned);
            let Some(h) = HookKey::hash_of(spec) else {
                set.of_preview.push(Vec::new());
                continue;
            };
            if let Some((_, files)) = set.by_hook.get(&h).and_then(|b| b.iter().find(|(k, _)| k.matches(spec))) {
                set.of_preview.push(files.to_vec());
                continue;
            }
            let mut files = Vec::new();
            for r in resolution.references {
                let idx = match by_named.get(&r.path) {
                    Some(&i) => Some(i),
                    None => watch(&r).map(|w| {
                        set.files.push(w);
                        by_named.insert(r.path.clone(), set.files.len() - 1);
                        set.files.len() - 1
                    }),
                };
                if let Some(i) = idx.filter(|i| !files.contains(i)) {
                    files.push(i);
                }
            }
            if let Some(key) = HookKey::of(spec) {
                set.by_hook.entry(h).or_default().push((key, files.clone().into()));
            }
            set.of_preview.push(files);
        }
        set
    }

    /// Every watched file.
    pub fn files(&self) -> &[Watched] {
        &self.files
    }

    /// Whether no file is watched.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    fn files_of(&self, spec: &HookSpec) -> Option<&[usize]> {
        let h = HookKey::hash_of(spec)?;
        self.by_hook.get(&h)?.iter().find(|(k, _)| k.matches(spec)).map(|(_, f)| &f[..])
    }

    /// The check before a spawn of `spec`: each of its files observed now
    /// and compared with the approval.
    pub fn verify(&self, spec: &HookSpec, approved: &ApprovedFiles) -> Verdict {
        let Some(files) = self.files_of(spec) else { return Verdict::Run };
        let mut changed: Vec<String> = Vec::new();
        for &i in files {
            let w = &self.files[i];
            match w.check(approved).1 {
                FileCheck::Ok => {}
                FileCheck::NotApproved => return Verdict::NotApproved,
                FileCheck::Changed(m) => changed.push(m),
            }
        }
        if changed.is_empty() {
            Verdict::Run
        } else {
            Verdict::Changed(changed.join("; "))
        }
    }

    /// Whether every watched file is as approved.
    pub fn all_approved(&self, approved: &ApprovedFiles) -> bool {
        self.files.iter().all(|w| w.check(approved).1 == FileCheck::Ok)
    }

    /// Every watched file as it is now: what an approval made now records
    /// (an optional path where no file is stays unrecorded).
    pub fn observe_all(&self) -> ApprovedFiles {
        let by_named = self
            .files
            .iter()
            .filter_map(|w| {
                let f = match w.observe() {
                    Seen::File { path, sha256 } => ApprovedFile::File { path, sha256 },
                    Seen::Missing if w.optional => return None,
                    Seen::Missing => ApprovedFile::Missing,
                };
                Some((w.named.clone(), f))
            })
            .collect();
        ApprovedFiles { by_named, legacy: false }
    }

    /// The pins of preview `i` as the files are now (present files only).
    pub fn pins_of_preview(&self, i: usize) -> Vec<Pin> {
        let Some(files) = self.of_preview.get(i) else { return Vec::new() };
        files.iter().filter_map(|&f| self.files[f].observe().pin()).collect()
    }

    /// The script words of preview `i` that cannot be resolved: nothing is
    /// pinned for them.
    pub fn unpinned_of_preview(&self, i: usize) -> Vec<String> {
        self.unpinned_of_preview.get(i).cloned().unwrap_or_default()
    }

    /// The watched files that differ from `approved`, in watch order.
    pub fn changes(&self, approved: &ApprovedFiles) -> Vec<PinChange> {
        self.files
            .iter()
            .filter_map(|w| {
                let (seen, result) = w.check(approved);
                (result != FileCheck::Ok).then(|| {
                    let entry = approved.by_named.get(&w.named);
                    PinChange {
                        named: w.named.clone(),
                        covered: entry.is_some(),
                        approved: match entry {
                            Some(ApprovedFile::File { path, sha256 }) => {
                                Some(Pin { path: path.clone(), sha256: super::hex(sha256) })
                            }
                            _ => None,
                        },
                        now: seen.pin(),
                    }
                })
            })
            .collect()
    }
}

/// The watched file of a reference, if it is watched (see the module
/// documentation): hashed once now.
fn watch(r: &Reference) -> Option<Watched> {
    let mut optional = false;
    match std::fs::metadata(&r.path) {
        Ok(m) if m.is_file() => {}
        Ok(_) => return None,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound) || e.raw_os_error() == Some(crate::platform::ENOTDIR) => {
            optional = r.role != Role::Program;
        }
        Err(_) => {}
    }
    let mut w = Watched::new(r.path.clone(), r.role);
    w.optional = optional;
    let _ = w.observe();
    Some(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of a shell-form hook is read in its agent's Windows shell's
    /// syntax: Codex `%COMSPEC% /C` (cmd.exe), Gemini CLI and Cursor
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
        approved
            .by_named
            .insert(named.to_path_buf(), ApprovedFile::File { path: named.to_path_buf(), sha256: sha(b"a") });
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
}
