//! A Cline hooks folder read into hooks.
//!
//! Cline has no config file: "a hook is an executable file named after the
//! event". The rules, from the extension (hook-factory.ts) and the CLI
//! (hook-file-config.ts, hook-file-hooks.ts):
//!
//! | file | what hookline does |
//! |---|---|
//! | `<HookName>` (no extension), an executable regular file (Unix) | a hook of that event, run as Cline runs it: its path in `sh -c` (the extension's `spawn(escapedPath, [], {shell: true})`) |
//! | `<HookName>.<ext>`, `ext` one of `.sh .bash .zsh .js .mjs .cjs .ts .mts .cts .py` (the CLI's), executable (Unix) | a hook: its path in `sh -c` when it starts with `#!`, else its interpreter (`bash`, `node`, `bun run`, `python3`) with its path (the CLI's `inferHookCommand`) |
//! | the same, not executable (Unix) | skipped and reported: the executable bit turns a hook on ("Per-hook disable = chmod 0644 vs 0755") |
//! | `<HookName>.ps1` on Unix | skipped and reported: "`.ps1` hook files are intentionally ignored on Unix platforms" |
//! | `<HookName>.ps1` on Windows | a hook: `powershell -NoProfile -NonInteractive -ExecutionPolicy Bypass -File <path>` |
//! | any other hook file on Windows | skipped and reported: "Extensionless hooks are intentionally ignored on Windows" |
//! | `<HookName>.<another extension>`, a folder named like a hook | skipped and reported |
//! | an executable file named after no event | reported (with the closest hook name), never run |
//! | anything else (a README, a helper that is not executable) | ignored, as Cline ignores it |
//!
//! Hook names are matched without regard to case, as the CLI matches them
//! (`PRETOOLUSE.sh` is a PreToolUse hook). Files run in name order; every
//! hook of an event runs concurrently anyway.

use std::path::Path;
use std::sync::Arc;

use super::{canonical_event, HOOK_NAMES, PROFILE, TIMEOUT};
use crate::config::matcher::Matcher;
use crate::config::{HandlerSpec, HookGroup, HookSpec, HooksConfig, Launch, Shell, Source, SourceInfo};
use crate::error::{Error, Result};

/// The extensions the CLI accepts on a hook file (`""`: none).
pub(super) const EXTENSIONS: &[&str] =
    &["", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1"];

/// Which operating system's rules a folder is read with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Platform {
    /// Linux, macOS and the other Unixes: executable files, no `.ps1`.
    Unix,
    /// Windows: `<HookName>.ps1` only, no executable bit.
    Windows,
}

impl Platform {
    /// The platform hookline runs on.
    pub(super) fn current() -> Platform {
        if cfg!(windows) {
            Platform::Windows
        } else {
            Platform::Unix
        }
    }
}

/// Whether `path` is one of the folders Cline searches: `.clinerules/hooks`,
/// `.cline/hooks`, `Cline/Hooks` (the global `~/Documents/Cline/Hooks`; the
/// extension recognises a global folder by `[/\\][Cc]line[/\\][Hh]ooks`).
pub(crate) fn is_hooks_folder(path: &Path) -> bool {
    let (name, parent) = crate::dialect::file_and_dir_names(path);
    matches!((parent, name), (".clinerules" | ".cline", "hooks"))
        || (parent.eq_ignore_ascii_case("cline") && name.eq_ignore_ascii_case("hooks"))
}

/// The hook name (Cline's spelling) and the lowercased extension of a file
/// name, when the name is a hook's: `PreToolUse` → (`PreToolUse`, `""`),
/// `pretooluse.PY` → (`PreToolUse`, `".py"`). The extension is what Node's
/// `extname` gives (a leading dot does not start one); any extension is
/// returned, supported or not.
pub fn hook_file_event(file_name: &str) -> Option<(&'static str, String)> {
    let (stem, ext) = split_extension(file_name);
    let stem = stem.trim();
    HOOK_NAMES.iter().find(|n| n.eq_ignore_ascii_case(stem)).map(|n| (*n, ext.to_ascii_lowercase()))
}

/// Node's `basename` / `extname` split: the extension starts at the last
/// dot that is not the name's first character.
fn split_extension(name: &str) -> (&str, &str) {
    match name.rfind('.') {
        Some(i) if i > 0 => (&name[..i], &name[i..]),
        _ => (name, ""),
    }
}

/// Every path of `dir` where a file is a hook of `platform`: each hook
/// name (Cline's spelling) with each extension run there.
pub(super) fn places(dir: &Path, platform: Platform) -> Vec<std::path::PathBuf> {
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned());
    let runs: Vec<&str> =
        EXTENSIONS.iter().copied().filter(|ext| (*ext == ".ps1") == (platform == Platform::Windows)).collect();
    HOOK_NAMES
        .iter()
        .flat_map(|name| runs.iter().map(move |ext| format!("{name}{ext}")))
        .map(|file| dir.join(file))
        .collect()
}

/// Read the hooks folder `dir` with `platform`'s rules (see the module
/// documentation). A folder that cannot be listed is an I/O error.
pub(super) fn read(dir: &Path, info: &SourceInfo, platform: Platform) -> Result<HooksConfig> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::io(format!("cannot read the Cline hooks folder {}: {e}", dir.display())))?;
    let mut names: Vec<String> = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|e| Error::io(format!("cannot read the Cline hooks folder {}: {e}", dir.display())))?;
        match entry.file_name().into_string() {
            Ok(name) => names.push(name),
            Err(name) => crate::hl_debug!("{}: {name:?} is not UTF-8; not a hook name", dir.display()),
        }
    }
    names.sort();
    let dir_abs = std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned());
    let mut cfg = HooksConfig::empty_of(&super::CLINE);
    // The folder as the hooks' paths name it: the approval gate pins its
    // files (`crate::gate::pins`).
    let source = Arc::new(Source::new(SourceInfo { path: Some(dir_abs.clone()), ..info.clone() }, false));
    for name in names {
        let path = dir_abs.join(&name);
        if let Some(hook) = hook_of(&mut cfg, &source, &path, &name, platform) {
            let (event_name, hook) = hook;
            let group = HookGroup { matcher_raw: None, matcher: Matcher::All, sequential: false, hooks: vec![hook] };
            match canonical_event(event_name) {
                Some(event) => cfg.push_groups(event, [group]),
                None => cfg.push_named(event_name, [group]),
            }
        }
    }
    Ok(cfg)
}

/// The hook a folder entry is, if it is one; what Cline skips is reported.
fn hook_of(
    cfg: &mut HooksConfig,
    source: &Arc<Source>,
    path: &Path,
    name: &str,
    platform: Platform,
) -> Option<(&'static str, HookSpec)> {
    let meta = std::fs::metadata(path);
    let Some((event, ext)) = hook_file_event(name) else {
        if meta.is_ok_and(|m| m.is_file() && is_executable(&m)) && platform == Platform::Unix {
            let hint = crate::suggest::closest(split_extension(name).0, HOOK_NAMES.iter().copied())
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            cfg.push_skipped(
                name,
                format!("an executable file not named after a Cline hook is not a hook; it is ignored{hint}"),
            );
        }
        return None;
    };
    let meta = match meta {
        Ok(m) if m.is_file() => m,
        Ok(_) => {
            cfg.push_skipped(name, format!("is not a file, so Cline does not run it as the {event} hook"));
            return None;
        }
        Err(e) => {
            cfg.push_skipped(name, format!("cannot be read ({e}), so Cline does not run it as the {event} hook"));
            return None;
        }
    };
    if !EXTENSIONS.contains(&ext.as_str()) {
        cfg.push_skipped(
            name,
            format!(
                "Cline runs a hook file with no extension or one of {}; `{ext}` is not one, so it is skipped",
                EXTENSIONS[1..].join(" ")
            ),
        );
        return None;
    }
    let handler = match platform {
        Platform::Unix if ext == ".ps1" => {
            cfg.push_skipped(name, "a .ps1 hook runs only on Windows (Cline ignores .ps1 hook files on Unix); skipped");
            return None;
        }
        Platform::Unix if !is_executable(&meta) => {
            cfg.push_skipped(
                name,
                format!(
                    "is not executable, so the {event} hook is off (Cline runs a hook file only when it is \
                     executable: `chmod +x {}` turns it on)",
                    path.display()
                ),
            );
            return None;
        }
        Platform::Unix => unix_command(path, &ext),
        Platform::Windows if ext != ".ps1" => {
            cfg.push_skipped(
                name,
                format!("on Windows Cline runs only {event}.ps1 (through PowerShell); this file is skipped"),
            );
            return None;
        }
        Platform::Windows => powershell_command(path),
    };
    let hook = HookSpec {
        handler,
        timeout_seconds: None,
        default_timeout: TIMEOUT,
        if_rule: None,
        run_async: false,
        async_rewake: false,
        status_message: None,
        fail_closed: false,
        name: None,
        env: Vec::new(),
        native_event: None,
        loop_limit: None,
        path: name.to_owned(),
        source: source.clone(),
    };
    debug_assert_eq!(PROFILE.default_timeout, TIMEOUT);
    Some((event, hook))
}

/// Whether any execute bit is set (Cline's `fs.access(X_OK)`; on Windows
/// every file passes).
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use crate::platform::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

/// A word quoted for `sh` (single quotes).
fn sh_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// How a hook file starts on Unix: its path in `sh -c` (the extension's
/// way, and the kernel's `#!` for a file that has one), or, for a file of
/// the CLI's extensions without `#!`, its interpreter with its path.
fn unix_command(path: &Path, ext: &str) -> HandlerSpec {
    let quoted = sh_quote(&path.to_string_lossy());
    let interpreter = match ext {
        _ if starts_with_shebang(path) => None,
        ".sh" | ".bash" | ".zsh" => Some("bash"),
        ".js" | ".mjs" | ".cjs" => Some("node"),
        ".ts" | ".mts" | ".cts" => Some("bun run"),
        ".py" => Some("python3"),
        _ => None,
    };
    let command = match interpreter {
        Some(program) => format!("{program} {quoted}"),
        None => quoted,
    };
    HandlerSpec::Command { command, args: None, shell: Shell::Sh, launch: Launch::default() }
}

/// Whether the file's first two bytes are `#!`.
fn starts_with_shebang(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 2];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && head == *b"#!"
}

/// The program and arguments Cline starts a `.ps1` hook with on Windows.
pub(super) const POWERSHELL: &[&str] =
    &["powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File"];

/// `powershell -NoProfile -NonInteractive -ExecutionPolicy Bypass -File
/// <path>`, started directly (HookProcess.ts `getHookLaunchConfig`).
fn powershell_command(path: &Path) -> HandlerSpec {
    let path = path.to_string_lossy().into_owned();
    let argv: Vec<String> = POWERSHELL.iter().map(|s| (*s).to_owned()).chain([path.clone()]).collect();
    HandlerSpec::Command {
        command: path,
        args: None,
        shell: Shell::Sh,
        launch: Launch { argv: Some(argv), ..Launch::default() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_hook_names_without_regard_to_case() {
        assert_eq!(hook_file_event("PreToolUse"), Some(("PreToolUse", String::new())));
        assert_eq!(hook_file_event("pretooluse.PY"), Some(("PreToolUse", ".py".into())));
        assert_eq!(hook_file_event("TaskStart.ps1"), Some(("TaskStart", ".ps1".into())));
        assert_eq!(hook_file_event("PreToolUse.rb"), Some(("PreToolUse", ".rb".into())));
        assert_eq!(hook_file_event(".PreToolUse"), None, "a leading dot starts no extension");
        assert_eq!(hook_file_event("README.md"), None);
        assert_eq!(hook_file_event("agent_start"), None, "the CLI's event names are not file names");
    }

    #[test]
    fn the_search_folders_are_hooks_folders() {
        assert!(is_hooks_folder(Path::new("/w/.clinerules/hooks")));
        assert!(is_hooks_folder(Path::new("/w/.cline/hooks")));
        assert!(is_hooks_folder(Path::new("/home/u/Documents/Cline/Hooks")));
        assert!(!is_hooks_folder(Path::new("/w/hooks")));
        assert!(!is_hooks_folder(Path::new("/w/.github/hooks")));
    }

    fn commands(cfg: &HooksConfig) -> Vec<(String, Option<Vec<String>>)> {
        cfg.all_groups()
            .flat_map(|g| &g.hooks)
            .map(|h| match &h.handler {
                HandlerSpec::Command { command, launch, .. } => (command.clone(), launch.argv.clone()),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    /// "Windows: only `<HookName>.ps1` (`findWindowsHook`)", run as
    /// "`powershell -NoProfile -NonInteractive -ExecutionPolicy Bypass
    /// -File <script>`"; "Extensionless hooks are intentionally ignored on
    /// Windows".
    #[test]
    fn on_windows_only_ps1_files_run_through_powershell() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["PreToolUse", "PreToolUse.ps1", "TaskStart.sh", "notes.txt"] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let info = SourceInfo::new(&super::super::CLINE);
        let cfg = read(dir.path(), &info, Platform::Windows).unwrap();
        let ps1 = std::path::absolute(dir.path().join("PreToolUse.ps1")).unwrap().display().to_string();
        let argv: Vec<String> = POWERSHELL.iter().map(|s| s.to_string()).chain([ps1.clone()]).collect();
        assert_eq!(commands(&cfg), [(ps1, Some(argv))]);
        let warned: Vec<&str> = cfg.warnings().iter().map(|w| w.path.as_str()).collect();
        assert_eq!(warned, ["PreToolUse", "TaskStart.sh"]);
        assert!(cfg.warnings()[0].message.contains("only PreToolUse.ps1"), "{:?}", cfg.warnings());
    }

    /// The CLI's `inferHookCommand`: "interpreter from shebang or
    /// extension: `.sh`→`bash`, `.js`→`node`, `.ts`→`bun run`, `.py`→
    /// `python3`"; the extension's `spawn(escapedPath, [], {shell:true})`.
    #[cfg(unix)]
    #[test]
    fn on_unix_a_file_runs_by_its_shebang_or_its_interpreter() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
            sh_quote(&std::path::absolute(&p).unwrap().display().to_string())
        };
        let pre = write("PreToolUse", "echo");
        let py = write("PostToolUse.py", "print(1)");
        let js = write("TaskStart.js", "#!/usr/bin/env node\n");
        let ts = write("TaskCancel.ts", "x");
        let sh = write("UserPromptSubmit.sh", "x");
        let cfg = read(dir.path(), &SourceInfo::new(&super::super::CLINE), Platform::Unix).unwrap();
        let mut got: Vec<String> = commands(&cfg)
            .into_iter()
            .map(|(c, argv)| {
                assert_eq!(argv, None);
                c
            })
            .collect();
        got.sort();
        let mut want = vec![pre, format!("python3 {py}"), js, format!("bun run {ts}"), format!("bash {sh}")];
        want.sort();
        assert_eq!(got, want);
        assert!(cfg.warnings().is_empty(), "{:?}", cfg.warnings());
    }
}
