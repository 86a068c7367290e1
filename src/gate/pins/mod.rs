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

mod watch;

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use super::resolve::{self, Reference, Resolution, ResolveCtx, Role};
use super::resolve_windows::{self, WindowsSyntax};
use crate::config::windows_shell::WindowsShell;
use crate::config::{HookSpec, ScriptForm};
use crate::dialect::PlaceholderValue;
use crate::model::input::SessionFacts;
use crate::paths::System;
use crate::runner::Environment;

pub use watch::{Pin, Seen, Watched, SETTLE};

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
mod tests;
