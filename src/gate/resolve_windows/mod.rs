//! Which files a command names when cmd.exe or PowerShell runs it on
//! Windows: the script resolver of [`super::resolve`] for those shells.
//!
//! A hook's command on Windows runs in its dialect's Windows shell
//! ([`crate::config::windows_shell`]). Git Bash reads POSIX shell text, so
//! [`super::resolve::resolve_shell`] reads it; cmd.exe (Codex, VT Code) and
//! PowerShell (Gemini CLI, Cursor, Copilot CLI, VS Code, `"shell":
//! "powershell"`) read their own: this module splits their text into simple
//! commands and words the way each does, with Windows paths.
//!
//! - **paths**: `C:\dir\x.cmd`, `C:/dir/x.ps1`, `\\server\share\x`,
//!   `\\?\C:\…`; relative paths (`.\hooks\x.cmd`, `hooks/x.py`) resolve
//!   against the hook's working directory, a path from the root of a drive
//!   (`\hooks\x.cmd`) against the working directory's drive. `.` and `..`
//!   are resolved lexically, `/` becomes `\`, and a path is inside the
//!   workspace when it starts with it without regard to case (as Windows'
//!   file systems compare names). The result is the text of the path, so
//!   that these rules hold, and are tested, on every system.
//! - **cmd.exe**: `&`, `&&`, `||`, `|`, parentheses and newlines separate
//!   commands; `"` quotes (the quotes are removed from a word's value), `^`
//!   escapes; `%NAME%` expands a placeholder of the dialect
//!   (`%CLAUDE_PROJECT_DIR%`, …), `%USERPROFILE%` and `%HOMEDRIVE%%HOMEPATH%`
//!   the home directory, any other variable is unknown; `<` reads a file;
//!   `@`, `call` are looked through, `cd` / `cd /d` / `pushd` move where
//!   later relative words resolve, and `cmd /c TEXT` is read in turn.
//! - **PowerShell**: `;`, `|`, `&&`, `||`, braces, parentheses and newlines
//!   separate commands; `'…'` is literal, `"…"` expands, a backquote
//!   escapes; `$env:NAME` and `${env:NAME}` expand a placeholder (or
//!   `USERPROFILE`), `$HOME` and a leading `~` the home directory, any other
//!   variable or `$(…)` is unknown; `#` starts a comment; the call and
//!   dot-source operators (`& "C:\x\y.ps1"`, `. .\lib.ps1`) are looked
//!   through, `cd` / `Set-Location` / `Push-Location` move, and
//!   `powershell`/`pwsh` `-File X` (X is a reference) and `-Command TEXT`
//!   (read in turn) are followed.
//!
//! As in the POSIX resolver, the program (a first word with `\` or `/`) is
//! a reference wherever it points; an argument or input only inside the
//! workspace or the plugin root and when it reads as a path (a `\`, a `/`
//! or a file extension); words starting with `-` (and, for cmd.exe, `/`
//! followed by a letter) are options. Unknown words that name a script are
//! [unpinned](super::resolve::Resolution::unpinned). Nesting and the
//! number of references are bounded as there.

mod lexer;

use lexer::{lex_cmd, lex_powershell, Tok, Word};
use std::path::PathBuf;

use super::resolve::{Reference, Resolution, ResolveCtx, Role, MAX_DEPTH, MAX_REFERENCES};

/// Which Windows shell reads the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowsSyntax {
    /// cmd.exe.
    Cmd,
    /// Windows PowerShell or PowerShell 7.
    PowerShell,
}

/// The references of a command run by `syntax`, and the words that name a
/// script but cannot be resolved.
pub fn resolve_windows_shell(command: &str, syntax: WindowsSyntax, ctx: &ResolveCtx<'_>) -> Resolution {
    let mut out = Resolution::default();
    let mut cwd = Some(win_normalize(&ctx.working_dir_text()));
    read(command, syntax, ctx, 0, &mut cwd, &mut out);
    out
}

fn read(
    text: &str,
    syntax: WindowsSyntax,
    ctx: &ResolveCtx<'_>,
    depth: usize,
    cwd: &mut Option<String>,
    out: &mut Resolution,
) {
    if depth > MAX_DEPTH || out.references.len() >= MAX_REFERENCES {
        return;
    }
    let tokens = match syntax {
        WindowsSyntax::Cmd => lex_cmd(text, ctx),
        WindowsSyntax::PowerShell => lex_powershell(text, ctx),
    };
    let mut words: Vec<Word> = Vec::new();
    let mut pending: Option<bool> = None;
    for tok in tokens {
        match tok {
            Tok::Word(w) => match pending.take() {
                Some(true) => {
                    if let Some(r) = reference(&w, Role::Input, cwd.as_deref(), ctx) {
                        push(out, r);
                    } else {
                        note_unresolved(&w, Role::Input, out);
                    }
                }
                Some(false) => {}
                None => words.push(w),
            },
            Tok::Input => pending = Some(true),
            Tok::Output => pending = Some(false),
            Tok::Sep => {
                pending = None;
                simple_command(&std::mem::take(&mut words), syntax, ctx, depth, cwd, out);
            }
        }
    }
    simple_command(&words, syntax, ctx, depth, cwd, out);
}

fn push(out: &mut Resolution, r: Reference) {
    let refs = &mut out.references;
    if refs.len() < MAX_REFERENCES && !refs.iter().any(|o| o.path == r.path && o.role == r.role) {
        refs.push(r);
    }
}

fn note_unresolved(w: &Word, role: Role, out: &mut Resolution) {
    let raw = w.raw.trim();
    if w.text.is_some() || raw.is_empty() || out.unpinned.len() >= MAX_REFERENCES {
        return;
    }
    let bare = raw.trim_matches(['"', '\'']);
    let names_a_file = match role {
        Role::Program => raw.contains(['\\', '/', '%', '$', '~']),
        Role::Argument | Role::Input => {
            !bare.starts_with('-') && !raw.contains("://") && (raw.contains(['\\', '/']) || looks_like_a_path(bare))
        }
    };
    if names_a_file && !out.unpinned.iter().any(|u| u == raw) {
        out.unpinned.push(raw.to_owned());
    }
}

/// The last component of a program word, lower case, without `.exe`.
fn program_name(text: &str) -> String {
    let base = text.rsplit(['\\', '/']).next().unwrap_or(text).to_ascii_lowercase();
    base.strip_suffix(".exe").map(str::to_owned).unwrap_or(base)
}

fn is_option(text: &str, syntax: WindowsSyntax) -> bool {
    text.starts_with('-')
        || (syntax == WindowsSyntax::Cmd
            && text.starts_with('/')
            && text.len() <= 3
            && text[1..].chars().all(|c| c.is_ascii_alphanumeric() || c == '?'))
}

fn simple_command(
    words: &[Word],
    syntax: WindowsSyntax,
    ctx: &ResolveCtx<'_>,
    depth: usize,
    cwd: &mut Option<String>,
    out: &mut Resolution,
) {
    let mut i = 0;
    // Operators and precommands before the program.
    while let Some(w) = words.get(i) {
        let t = w.text.as_deref().unwrap_or("");
        let through = match syntax {
            WindowsSyntax::Cmd => t.eq_ignore_ascii_case("call") || t == "@",
            WindowsSyntax::PowerShell => !w.quoted && (t == "&" || t == "."),
        };
        if !through {
            break;
        }
        i += 1;
    }
    let mut rest = words[i.min(words.len())..].to_vec();
    // cmd.exe: `@` before a command only hides its echo.
    if syntax == WindowsSyntax::Cmd {
        if let Some(first) = rest.first_mut() {
            if let Some(t) = first.text.as_deref().and_then(|t| t.strip_prefix('@')) {
                first.text = Some(t.to_owned());
                first.raw = first.raw.trim_start_matches('@').to_owned();
            }
            if first.text.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("call")) {
                rest.remove(0);
            }
        }
    }
    let Some(first) = rest.first() else { return };
    let name = first.text.as_deref().map(program_name);
    // `cd`, `pushd`, `Set-Location`: later relative words resolve there.
    if matches!(name.as_deref(), Some("cd" | "chdir" | "pushd" | "set-location" | "sl" | "push-location")) {
        let target = rest[1..].iter().find(|w| !w.text.as_deref().is_some_and(|t| is_option(t, syntax)));
        *cwd = match target {
            None if syntax == WindowsSyntax::PowerShell => ctx.home.map(|h| win_normalize(&h.to_string_lossy())),
            None => cwd.clone(),
            Some(w) => w.text.as_deref().and_then(|t| win_join(cwd.as_deref(), t)),
        };
        return;
    }
    // The program: a word with `\` or `/`; for cmd.exe also a batch file
    // named with its extension (`check.cmd`), which cmd.exe looks for in
    // the working directory before `PATH`.
    let runs_from_cwd = |t: &str| {
        syntax == WindowsSyntax::Cmd
            && [".cmd", ".bat"].iter().any(|e| t.to_ascii_lowercase().ends_with(e))
            && t.len() > 4
    };
    if let Some(r) = first
        .text
        .as_deref()
        .filter(|t| t.contains(['\\', '/']) || runs_from_cwd(t))
        .and_then(|_| reference(first, Role::Program, cwd.as_deref(), ctx))
    {
        push(out, r);
    }
    note_unresolved(first, Role::Program, out);
    let args = &rest[1..];
    let mut skip = vec![false; args.len()];
    match name.as_deref() {
        // `cmd /c TEXT`: the rest of the line is a command of its own.
        Some("cmd") => {
            if let Some(k) = args.iter().position(|w| {
                w.text.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("/c") || t.eq_ignore_ascii_case("/k"))
            }) {
                let inner: Vec<&str> = args[k + 1..].iter().map(|w| w.raw.as_str()).collect();
                let inner = inner.join(" ");
                // cmd.exe removes the outer quotes of `/c "…"`.
                let inner = inner.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(&inner);
                let mut inner_cwd = cwd.clone();
                read(inner, WindowsSyntax::Cmd, ctx, depth + 1, &mut inner_cwd, out);
                skip[k..].iter_mut().for_each(|s| *s = true);
            }
        }
        // `powershell -File X` / `-Command TEXT`.
        Some("powershell" | "pwsh") => {
            let mut k = 0;
            while k < args.len() {
                let t = args[k].text.as_deref().unwrap_or("").to_ascii_lowercase();
                if t == "-file" || t == "-f" {
                    if let Some(script) = args.get(k + 1) {
                        match reference(script, Role::Argument, cwd.as_deref(), ctx) {
                            Some(r) => push(out, r),
                            None => note_unresolved(script, Role::Argument, out),
                        }
                    }
                    skip[k..].iter_mut().for_each(|s| *s = true);
                    break;
                }
                if t == "-command" || t == "-c" {
                    let inner: Vec<String> =
                        args[k + 1..].iter().map(|w| w.text.clone().unwrap_or_else(|| w.raw.clone())).collect();
                    let mut inner_cwd = cwd.clone();
                    read(&inner.join(" "), WindowsSyntax::PowerShell, ctx, depth + 1, &mut inner_cwd, out);
                    skip[k..].iter_mut().for_each(|s| *s = true);
                    break;
                }
                k += 1;
            }
        }
        _ => {}
    }
    for (w, skipped) in args.iter().zip(skip) {
        if skipped || w.text.as_deref().is_some_and(|t| is_option(t, syntax)) {
            continue;
        }
        match reference(w, Role::Argument, cwd.as_deref(), ctx) {
            Some(r) => push(out, r),
            None => note_unresolved(w, Role::Argument, out),
        }
    }
}

/// A word with a `\`, a `/` or a file extension.
fn looks_like_a_path(word: &str) -> bool {
    word.contains(['\\', '/'])
        || word.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty() && !ext.is_empty() && ext.len() <= 8 && ext.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

fn reference(w: &Word, role: Role, cwd: Option<&str>, ctx: &ResolveCtx<'_>) -> Option<Reference> {
    let text = w.text.as_deref().filter(|t| !t.is_empty() && !t.contains('\0'))?;
    if role != Role::Program && (!text.chars().any(char::is_alphanumeric) || !looks_like_a_path(text)) {
        return None;
    }
    if text.contains("://") {
        return None;
    }
    let path = win_join(cwd, text)?;
    if role != Role::Program {
        let ws = win_normalize(&ctx.workspace.to_string_lossy());
        let root = ctx.plugin_root.and_then(|p| win_join(Some(&ws), &p.to_string_lossy()));
        if !win_within(&path, &ws) && !root.is_some_and(|r| win_within(&path, &r)) {
            return None;
        }
    }
    Some(Reference { word: text.to_owned(), path: PathBuf::from(path), role })
}

/// The prefix of a Windows path (`C:`, `\\server\share`, `\\?\C:`) and
/// whether a root follows it; `None` for a relative path.
fn split_prefix(p: &str) -> (Option<&str>, &str) {
    let b = p.as_bytes();
    let sep = |c: u8| c == b'\\' || c == b'/';
    if b.len() >= 4 && sep(b[0]) && sep(b[1]) && (b[2] == b'?' || b[2] == b'.') && sep(b[3]) {
        // `\\?\C:\…` or `\\?\UNC\server\share\…`: the verbatim prefix and what follows.
        let rest = &p[4..];
        let (inner, tail) = split_prefix(rest);
        return match inner {
            Some(d) => (Some(&p[..4 + d.len()]), tail),
            None => (Some(&p[..4]), rest),
        };
    }
    if b.len() >= 2 && sep(b[0]) && sep(b[1]) {
        // UNC: `\\server\share`.
        let mut seps = 0;
        for (i, &c) in b.iter().enumerate().skip(2) {
            if sep(c) {
                seps += 1;
                if seps == 2 {
                    return (Some(&p[..i]), &p[i..]);
                }
            }
        }
        return (Some(p), "");
    }
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        return (Some(&p[..2]), &p[2..]);
    }
    (None, p)
}

/// `.` and `..` resolved lexically, `/` as `\`, no trailing separator.
pub fn win_normalize(p: &str) -> String {
    let (prefix, rest) = split_prefix(p);
    let rooted = rest.starts_with(['\\', '/']);
    let mut parts: Vec<&str> = Vec::new();
    for c in rest.split(['\\', '/']) {
        match c {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            c => parts.push(c),
        }
    }
    let mut s = prefix.map(|p| p.replace('/', "\\")).unwrap_or_default();
    if rooted {
        s.push('\\');
    }
    s.push_str(&parts.join("\\"));
    s
}

/// `text` resolved against the directory `cwd` (itself normalised), as
/// Windows resolves it; `None` when it cannot be known (no working
/// directory, or a drive-relative `C:x`).
pub fn win_join(cwd: Option<&str>, text: &str) -> Option<String> {
    let (prefix, rest) = split_prefix(text);
    let rooted = rest.starts_with(['\\', '/']);
    match (prefix, rooted) {
        (Some(_), true) => Some(win_normalize(text)),
        (Some(p), false) if p.starts_with(['\\', '/']) => Some(win_normalize(text)),
        (Some(_), false) => None,
        (None, true) => {
            let (drive, _) = split_prefix(cwd?);
            Some(win_normalize(&format!("{}{text}", drive.unwrap_or(""))))
        }
        (None, false) => Some(win_normalize(&format!("{}\\{text}", cwd?))),
    }
}

/// Whether `path` is `root` or inside it (both normalised), without
/// regard to case and to a verbatim `\\?\` prefix.
pub fn win_within(path: &str, root: &str) -> bool {
    let plain = |s: &str| s.strip_prefix(r"\\?\").unwrap_or(s).to_ascii_lowercase();
    let (path, root) = (plain(path), plain(root));
    let root = root.trim_end_matches('\\');
    path == root || path.strip_prefix(root).is_some_and(|r| r.starts_with('\\'))
}

/// The working directory of a context as text.
impl ResolveCtx<'_> {
    fn working_dir_text(&self) -> String {
        let ws = self.workspace.to_string_lossy();
        match self.cwd {
            Some(dir) => win_join(Some(&win_normalize(&ws)), &dir.to_string_lossy()).unwrap_or_else(|| ws.into_owned()),
            None => ws.into_owned(),
        }
    }
}

#[cfg(test)]
mod tests;
