//! Finding hooks files and choosing their dialect: the files a host reads
//! in a workspace and a home directory ([`settings_files`]), policy files,
//! plugin roots, and selection by option, path or shape ([`select`]).

use std::path::Path;

use serde_json::Value;

use crate::config::HooksConfig;
use crate::model::event::{HookEvent, RunEvent};

use super::{cursor, windsurf, Dialect, ALL, CLAUDE, CURSOR, VTCODE, WINDSURF};

/// Every dialect's workspace hooks files, in the order of [`ALL`].
pub fn workspace_files() -> Vec<&'static str> {
    ALL.iter().flat_map(|d| d.workspace_files()).copied().collect()
}

/// One hooks file a host reads ([`settings_files`]).
#[derive(Clone, Debug)]
pub struct SettingsFile {
    /// Where it is.
    pub path: std::path::PathBuf,
    /// The dialect whose file it is.
    pub dialect: &'static dyn Dialect,
    /// A system or user file (trusted: runs without workspace approval),
    /// not one of the workspace's.
    pub trusted: bool,
    /// A [system file](Dialect::system_files).
    pub system: bool,
    /// A policy file ([`Dialect::system_files_are_policy`]): load it as a
    /// policy source (`hook_sources[i].policy`).
    pub policy: bool,
}

/// The hooks files that exist which hosts of the dialects read for
/// `workspace` and the home directory `home` (`None`: no user files), the
/// settings a host would load: per dialect, in the order of [`ALL`], its
/// [user files](Dialect::user_files) (trusted) and then its
/// [workspace files](Dialect::workspace_files) (Claude Code: user, project,
/// local; Cursor: project, then user), or only the first of them that exists for a dialect whose user
/// files are a fallback (VT Code).
pub fn settings_files(workspace: &Path, home: Option<&Path>) -> Vec<SettingsFile> {
    settings_files_under(workspace, home, Path::new("/"))
}

/// [`settings_files`] with the [system files](Dialect::system_files) looked
/// up under `root` instead of `/`.
pub fn settings_files_under(workspace: &Path, home: Option<&Path>, root: &Path) -> Vec<SettingsFile> {
    let mut out = Vec::new();
    for d in ALL.iter().copied() {
        let file = |path: std::path::PathBuf, trusted| SettingsFile {
            path,
            dialect: d,
            trusted,
            system: false,
            policy: false,
        };
        let system = |files: &'static [&'static str], policy: bool| {
            files
                .iter()
                .flat_map(|p| existing_files(&root.join(p.trim_start_matches('/'))))
                .filter(|p| d.admits_system_file(p))
                .map(|path| SettingsFile { path, dialect: d, trusted: true, system: true, policy })
                .collect::<Vec<_>>()
        };
        out.extend(system(d.system_files(), d.system_files_are_policy()));
        let user = home.map(|h| d.user_files(h)).unwrap_or_default().into_iter().filter(|p| {
            let exists = if d.reads_hooks_folders() { p.is_dir() } else { p.is_file() };
            exists && d.admits_found_file(workspace, home, p)
        });
        let at_home = home.is_some_and(|h| same_dir(h, workspace));
        let project: Vec<SettingsFile> = d
            .workspace_files()
            .iter()
            .filter(|_| d.reads_workspace_at_home() || !at_home)
            .flat_map(|f| existing_sources(d, &workspace.join(f)))
            .filter(|p| d.admits_found_file(workspace, home, p))
            .map(|p| file(p, false))
            .collect();
        if d.user_files_are_a_fallback() {
            match project.into_iter().next() {
                Some(first) => out.push(first),
                None => out.extend(user.take(1).map(|p| file(p, true))),
            }
        } else if d.user_files_come_last() {
            out.extend(project);
            out.extend(user.map(|p| file(p, true)));
        } else {
            out.extend(user.map(|p| file(p, true)));
            out.extend(project);
        }
        out.extend(system(d.late_system_files(), false));
    }
    out
}

/// The dialect whose policy file `path` is: one of the
/// [system files](Dialect::system_files) of a dialect whose system files
/// are policy ([`Dialect::system_files_are_policy`]), that the dialect's
/// host reads ([`Dialect::admits_system_file`]). A file given by path (the
/// command line's `--config`) is then a policy source as when a host finds
/// it.
pub fn policy_file_dialect(path: &Path) -> Option<&'static dyn Dialect> {
    let path = std::path::absolute(path).ok()?;
    ALL.iter().copied().filter(|d| d.system_files_are_policy()).find(|d| {
        d.system_files().iter().any(|pattern| {
            let pattern = Path::new(pattern);
            let by_pattern = match pattern.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_prefix('*')) {
                Some(suffix) => {
                    path.parent() == pattern.parent()
                        && path
                            .file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.len() > suffix.len() && n.ends_with(suffix))
                }
                None => path == pattern,
            };
            by_pattern && path.is_file() && d.admits_system_file(&path)
        })
    })
}

/// Whether `a` and `b` name the same directory (compared canonically when
/// both exist).
fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The sources a path of `dialect`'s names that exist: the folder itself
/// for a dialect whose hooks are folders (Cline), else its
/// [existing files](existing_files).
fn existing_sources(dialect: &dyn Dialect, path: &Path) -> Vec<std::path::PathBuf> {
    match dialect.reads_hooks_folders() {
        true if path.is_dir() => vec![path.to_owned()],
        true => Vec::new(),
        false => existing_files(path),
    }
}

/// The files a settings-file path names that exist: the path itself, or,
/// for a `*.ext` file name (`.github/hooks/*.json`), every file of that
/// directory with that extension, in name order.
fn existing_files(path: &Path) -> Vec<std::path::PathBuf> {
    if let Some(expanded) = expand_star_dir(path) {
        return expanded;
    }
    let pattern = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_prefix('*'));
    match (pattern, path.parent()) {
        (Some(suffix), Some(dir)) => {
            let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
            let mut files: Vec<_> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.len() > suffix.len() && n.ends_with(suffix))
                })
                .collect();
            files.sort();
            files
        }
        _ if path.is_file() => vec![path.to_owned()],
        _ => Vec::new(),
    }
}

/// The files of a path with a `*` folder (`.agents/plugins/*/hooks/hooks.json`:
/// every folder there, in name order), `None` when no folder of the path is
/// `*`.
fn expand_star_dir(path: &Path) -> Option<Vec<std::path::PathBuf>> {
    let parts: Vec<_> = path.components().collect();
    let at = parts[..parts.len().saturating_sub(1)].iter().position(|c| c.as_os_str() == "*")?;
    let dir: std::path::PathBuf = parts[..at].iter().collect();
    let rest: std::path::PathBuf = parts[at + 1..].iter().collect();
    let Ok(entries) = std::fs::read_dir(&dir) else { return Some(Vec::new()) };
    let mut dirs: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
    dirs.sort();
    Some(dirs.into_iter().flat_map(|d| existing_files(&d.join(&rest))).collect())
}

/// The [borrowed workspace files](Dialect::borrowed_workspace_files) of
/// `dialect` that exist under `workspace`, in its order: what a host of
/// that agent alone reads after the files [`settings_files`] gives it.
pub fn borrowed_settings_files(workspace: &Path, dialect: &'static dyn Dialect) -> Vec<SettingsFile> {
    dialect
        .borrowed_workspace_files()
        .iter()
        .flat_map(|f| existing_files(&workspace.join(f)))
        .map(|path| SettingsFile { path, dialect, trusted: false, system: false, policy: false })
        .collect()
}

/// The plugin root of a hooks file at `path` (see
/// [`Dialect::plugin_root_of`]), asking `explicit` when given, else the
/// dialect that recognises the path.
pub fn plugin_root_of(path: &Path, explicit: Option<&'static dyn Dialect>) -> Option<std::path::PathBuf> {
    explicit.or_else(|| for_path(path))?.plugin_root_of(path)
}

/// The plugin root of a plugin's `…/hooks/hooks.json`: the directory above
/// `hooks/` (`.` for a relative `hooks/hooks.json`).
pub(crate) fn plugin_hooks_json_root(path: &Path) -> Option<std::path::PathBuf> {
    let dir = path.parent()?;
    if path.file_name()? != "hooks.json" || dir.file_name()? != "hooks" {
        return None;
    }
    Some(match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => Path::new(".").to_owned(),
    })
}

/// Each key of `entry` (a group or hook object at `path`) that is not one
/// of `known`, as a config warning with the closest known name: the agent
/// ignores such a key, so a misspelt `matcher` makes a group match every
/// tool and a misspelt `timeout` leaves the default in force.
pub(crate) fn warn_unknown_fields(cfg: &mut HooksConfig, path: &str, entry: &Value, known: &[&str]) {
    let Some(obj) = entry.as_object() else {
        return;
    };
    for key in obj.keys().filter(|k| !known.contains(&k.as_str())) {
        let hint = match crate::suggest::closest(key, known.iter().copied()) {
            Some(s) => format!("; did you mean `{s}`?"),
            None => String::new(),
        };
        cfg.push_warning(path, format!("unknown field `{key}` is ignored{hint}"));
    }
}

/// The workspace a hooks file belongs to: the directory above the file's
/// place among its dialect's workspace files (`/p` for
/// `/p/.claude/settings.json`), else the file's own directory.
pub fn project_dir_of(config: &Path) -> std::path::PathBuf {
    for rel in workspace_files() {
        let mut dir = Some(config);
        let mut matched = true;
        for part in Path::new(rel).components().rev() {
            match dir {
                Some(d) if d.file_name().is_some_and(|name| name_matches(part.as_os_str(), name)) => dir = d.parent(),
                _ => {
                    matched = false;
                    break;
                }
            }
        }
        if let (true, Some(d)) = (matched, dir) {
            return if d.as_os_str().is_empty() { Path::new(".").to_owned() } else { d.to_owned() };
        }
    }
    match config.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => Path::new(".").to_owned(),
    }
}

/// A file name against a workspace-file pattern: exact, or `*.ext` (any
/// name with that extension).
fn name_matches(pattern: &std::ffi::OsStr, name: &std::ffi::OsStr) -> bool {
    match (pattern.to_str().and_then(|p| p.strip_prefix('*')), name.to_str()) {
        (Some(suffix), Some(name)) => name.len() > suffix.len() && name.ends_with(suffix),
        _ => pattern == name,
    }
}

/// The hooks files of a workspace, in the dialects' order: every
/// [`Dialect::workspace_files`] entry that exists under `workspace`, a
/// `*.json` pattern giving the directory's JSON files in name order (a
/// Cline hooks folder is one source).
pub fn workspace_configs(workspace: &Path) -> Vec<std::path::PathBuf> {
    ALL.iter()
        .flat_map(|d| d.workspace_files().iter().flat_map(move |rel| existing_sources(*d, &workspace.join(rel))))
        .collect()
}

/// The dialect that recognises a hooks file by its path, if one does (the
/// most specific: the last in [`ALL`] that recognises it).
pub fn for_path(path: &Path) -> Option<&'static dyn Dialect> {
    ALL.iter().rev().copied().find(|d| d.recognises_path(path))
}

/// The dialect of a JSON config by its shape, when neither an option nor
/// the file's path names one: a `lifecycle` key (at the top level or under
/// `hooks`) is VT Code; `version` with a `hooks` object of Cursor's
/// camelCase events only is Cursor; a `hooks` object alone, of Cascade's
/// snake_case events only, is Windsurf; anything else Claude Code.
pub fn for_shape(value: &Value) -> &'static dyn Dialect {
    let has_lifecycle = |v: &Value| v.as_object().is_some_and(|o| o.contains_key("lifecycle"));
    if has_lifecycle(value) || value.get("hooks").is_some_and(has_lifecycle) {
        VTCODE
    } else if cursor::has_shape(value) {
        CURSOR
    } else if windsurf::has_shape(value) {
        WINDSURF
    } else {
        CLAUDE
    }
}

/// The event key of `dialect` that `key` is probably a misspelling of (the
/// same letters once case, `_` and `-` are ignored, or a few letters off:
/// [`crate::suggest::closest`]), among its keys of the canonical events and
/// its [native event keys](Dialect::native_event_keys), if any.
pub fn suggest_event_key(dialect: &dyn Dialect, key: &str) -> Option<&'static str> {
    let keys = HookEvent::ALL.iter().flat_map(|e| dialect.event_keys(*e)).chain(dialect.native_event_keys());
    crate::suggest::closest(key, keys.copied())
}

/// What a callback hook's matcher (`hl_engine_add_callback_hook`) is tested
/// against: callback hooks are host code, and their matchers follow the
/// Claude Code rule whatever the config's dialect — except that on
/// SubagentStart and SubagentStop an input without Claude Code's
/// `agent_type` is matched on VT Code's `agent_name`, so that a VT Code
/// host's callback matchers keep working.
pub fn callback_match_subject<'a>(event: &RunEvent, input: &'a Value, trigger: &'a str) -> Option<&'a str> {
    if matches!(event, RunEvent::Known(HookEvent::SubagentStart | HookEvent::SubagentStop))
        && !input.get("agent_type").is_some_and(Value::is_string)
    {
        return VTCODE.match_subject(event, input, trigger);
    }
    CLAUDE.match_subject(event, input, trigger)
}

/// How a config source's dialect is chosen: `explicit` (the option), else
/// the file's path, else the shape of its JSON (TOML text is VT Code's).
pub fn select(
    explicit: Option<&'static dyn Dialect>,
    path: Option<&Path>,
    json: Option<&Value>,
) -> &'static dyn Dialect {
    if let Some(d) = explicit {
        return d;
    }
    if let Some(d) = path.and_then(for_path) {
        return d;
    }
    match json {
        Some(v) => for_shape(v),
        None => VTCODE,
    }
}
