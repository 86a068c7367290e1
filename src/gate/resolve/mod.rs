//! Which files a command names: the script resolver behind script pins
//! ([`super::pins`]).
//!
//! A command is read as a list of *words*, the way the program that runs it
//! will read it, and the words that can name a file hookline should pin are
//! returned as [`Reference`]s (absolute paths, lexically normalised; whether
//! a file is there is for the caller to find out):
//!
//! - the **program**: the first word of a simple command when it contains
//!   `/` (`./guard.sh`, `.claude/hooks/x.sh`, `~/bin/check`,
//!   `/usr/local/bin/audit`), wherever it points;
//! - **arguments** and **input redirections** (`< file`) that resolve to a
//!   path inside the workspace or the source's plugin root
//!   (`python3 .claude/hooks/x.py`, `bash "$CLAUDE_PROJECT_DIR"/h.sh`,
//!   `node ${CLAUDE_PLUGIN_ROOT}/a.js`) and read as paths: they have a `/`
//!   or a file extension. Words starting with `-` are options; bare words
//!   (`touch done`, `git commit -m msg`) are data, not files.
//!
//! Two forms, one word list:
//!
//! - [`exec_references`]: an exec-form command (`command` plus `args`, no
//!   shell) is already a word list; the dialect's `${NAME}` placeholders are
//!   substituted literally and relative paths resolve against the
//!   hook's working directory (the workspace, or the `cwd` its config gives).
//! - [`shell_references`]: a shell command is split into simple commands and
//!   words as a POSIX shell does (quotes, backslashes, `;` `&&` `||` `|` `&`
//!   and newlines, redirections, comments, here-documents), with `~`, `$HOME`
//!   and the dialect's placeholders (`$CLAUDE_PROJECT_DIR`,
//!   `${CLAUDE_PLUGIN_ROOT}`, …) expanded. Leading `NAME=value` assignments,
//!   reserved words (`if`, `then`, `do`, `!`, `{`, …) and the precommands
//!   `exec`, `command`, `builtin`, `nohup`, `time` and `env` are looked
//!   through; `cd DIR` moves where later relative words resolve; the
//!   command text of `sh -c TEXT` (and `bash`, `dash`, `zsh`, `ksh`, `ash`,
//!   `mksh`) and of `$(…)`, backquotes and `<(…)` is read in turn.
//!
//! A word whose value cannot be known from the command text alone — another
//! variable, a glob, brace expansion, a command substitution, `~user` — is
//! not a reference: nothing can be pinned for it (the command text itself
//! is in the digest, so it cannot change unseen).
//!
//! The resolver never fails and never panics, whatever the text: it is
//! fuzzed (`fuzz/fuzz_targets/resolve.rs`). Nesting is bounded
//! ([`MAX_DEPTH`]) and so is the number of references ([`MAX_REFERENCES`]).

mod lexer;

use lexer::{Lexer, Redir, Tok, Word};
use std::path::{Component, Path, PathBuf};

/// How deeply `sh -c`, `$(…)`, backquotes and `<(…)` are followed.
pub const MAX_DEPTH: usize = 8;

/// At most this many references per command (the rest are not pinned).
pub const MAX_REFERENCES: usize = 64;

/// What a resolver knows about where a command runs.
#[derive(Clone, Copy, Debug)]
pub struct ResolveCtx<'a> {
    /// The canonical workspace: the commands' working directory unless
    /// `cwd` names another.
    pub workspace: &'a Path,
    /// The hook's own working directory (a Copilot CLI or VS Code `cwd`):
    /// absolute, or relative to the workspace; `None`: the workspace.
    pub cwd: Option<&'a Path>,
    /// The source's plugin root, if any (absolute, or relative to the
    /// workspace).
    pub plugin_root: Option<&'a Path>,
    /// `$HOME` as the hook will see it (for `~` and `$HOME`).
    pub home: Option<&'a Path>,
    /// The placeholders the hook's dialect gives (`CLAUDE_PROJECT_DIR` →
    /// the workspace, …), by name.
    pub placeholders: &'a [(&'a str, &'a str)],
}

impl ResolveCtx<'_> {
    /// The directory the command starts in (lexically normalised).
    fn working_dir(&self) -> PathBuf {
        match self.cwd {
            Some(dir) => normalize(&self.workspace.join(dir)),
            None => self.workspace.to_path_buf(),
        }
    }
}

/// How a referenced file is used by the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The program a simple command executes (its first word, with a `/`).
    Program,
    /// An argument naming a file inside the workspace or plugin root.
    Argument,
    /// The file of an input redirection (`< file`) inside the workspace or
    /// plugin root.
    Input,
}

/// A file a command names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The word after expansion, as the command names the file.
    pub word: String,
    /// The absolute path it names, lexically normalised (`.` and `..`
    /// resolved without following symlinks).
    pub path: PathBuf,
    /// How the command uses it.
    pub role: Role,
}

/// What a command names: the files it references, and the words that
/// name a script (or a command to run) whose value cannot be known from
/// the text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resolution {
    /// The files the command names.
    pub references: Vec<Reference>,
    /// Words that name the program, a script argument or input, or the text
    /// of `sh -c`, but hold a variable no placeholder gives, a command
    /// substitution, a glob or `~user` (`$SCRIPTS/guard.sh`,
    /// `"$(git rev-parse --show-toplevel)"/x.sh`): as written, once each.
    /// Nothing can be pinned for them.
    pub unpinned: Vec<String>,
}

/// The references of an exec-form command: `words[0]` is the command (a
/// program looked up on `PATH` unless it contains `/`), the rest its
/// arguments. The dialect's placeholders are substituted literally where
/// they are written `${NAME}`.
pub fn exec_references(words: &[&str], ctx: &ResolveCtx<'_>) -> Vec<Reference> {
    resolve_exec(words, ctx).references
}

/// [`exec_references`] with the words that cannot be resolved (none: an
/// exec-form word is literal text).
pub fn resolve_exec(words: &[&str], ctx: &ResolveCtx<'_>) -> Resolution {
    let mut out = Resolution::default();
    let expanded: Vec<Word> = words.iter().map(|w| Word::known(substitute_braced(w, ctx.placeholders))).collect();
    let cwd = Some(ctx.working_dir());
    references_of_words(&expanded, cwd.as_deref(), ctx, &mut out);
    out
}

/// The references of a shell command (`/bin/sh -c <command>`).
pub fn shell_references(command: &str, ctx: &ResolveCtx<'_>) -> Vec<Reference> {
    resolve_shell(command, ctx).references
}

/// [`shell_references`] with the words that name a script but cannot be
/// resolved ([`Resolution::unpinned`]).
pub fn resolve_shell(command: &str, ctx: &ResolveCtx<'_>) -> Resolution {
    let mut out = Resolution::default();
    let mut cwd = Some(ctx.working_dir());
    shell_into(command.as_bytes(), ctx, 0, &mut cwd, &mut out);
    out
}

/// `${NAME}` of a placeholder replaced by its value, every occurrence.
fn substitute_braced(word: &str, placeholders: &[(&str, &str)]) -> String {
    let mut s = word.to_owned();
    for (name, value) in placeholders {
        let braced = format!("${{{name}}}");
        if s.contains(&braced) {
            s = s.replace(&braced, value);
        }
    }
    s
}

const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"];

/// Reserved words after which the next word is still in command position.
const LEADING_RESERVED: &[&str] = &["if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"];

/// Reserved words that end a compound command.
const TRAILING_RESERVED: &[&str] = &["fi", "done", "}", "esac"];

/// Words of a `for`/`case`/`select` header: no command in them.
const HEADER_RESERVED: &[&str] = &["for", "case", "select", "function"];

/// Precommands: the program is a later word.
const PRECOMMANDS: &[&str] = &["exec", "command", "builtin", "nohup", "time", "env"];

fn shell_into(text: &[u8], ctx: &ResolveCtx<'_>, depth: usize, cwd: &mut Option<PathBuf>, out: &mut Resolution) {
    if depth > MAX_DEPTH || out.references.len() >= MAX_REFERENCES {
        return;
    }
    let tokens = Lexer { s: text, i: 0, ctx, depth, nested: Vec::new() }.run();
    let (tokens, nested) = tokens;
    // Command substitutions run in the directory of the command they are in;
    // read them first, from where the command starts.
    for inner in nested {
        let mut inner_cwd = cwd.clone();
        shell_into(&inner, ctx, depth + 1, &mut inner_cwd, out);
    }
    let mut words: Vec<Word> = Vec::new();
    let mut pending: Option<Redir> = None;
    for tok in tokens {
        match tok {
            Tok::Word(w) => match pending.take() {
                Some(Redir::Input) => {
                    if let Some(r) = reference(&w, Role::Input, cwd.as_deref(), ctx) {
                        push(out, r);
                    }
                    note_unresolved(&w, Role::Input, cwd.as_deref(), out);
                }
                Some(_) => {}
                None => words.push(w),
            },
            Tok::Redirect(r) => pending = Some(r),
            Tok::Sep => {
                pending = None;
                simple_command(&std::mem::take(&mut words), ctx, depth, cwd, out);
            }
        }
    }
    simple_command(&words, ctx, depth, cwd, out);
}

fn push(out: &mut Resolution, r: Reference) {
    let refs = &mut out.references;
    if refs.len() < MAX_REFERENCES && !refs.iter().any(|o| o.path == r.path && o.role == r.role) {
        refs.push(r);
    }
}

/// A word that names the program (it has a `/`, `~` or an expansion) or a
/// script argument or input (it has a `/` and is no URL, or a file
/// extension) but whose value cannot be known — or a relative path after a
/// `cd` to a directory that cannot be known: listed as unpinned.
fn note_unresolved(w: &Word, role: Role, cwd: Option<&Path>, out: &mut Resolution) {
    let raw = w.raw.trim();
    if raw.is_empty() || out.unpinned.len() >= MAX_REFERENCES {
        return;
    }
    let names_a_file = match (&w.text, role) {
        (Some(t), Role::Program) => cwd.is_none() && t.contains('/') && !t.starts_with('/'),
        (Some(t), _) => cwd.is_none() && !t.starts_with(['/', '-']) && looks_like_a_path(t),
        (None, Role::Program) => raw.contains(['/', '~', '$', '`']),
        (None, Role::Argument | Role::Input) => {
            let bare = raw.trim_matches(['"', '\'']);
            !bare.starts_with('-') && !raw.contains("://") && (raw.contains('/') || looks_like_a_path(bare))
        }
    };
    if names_a_file && !out.unpinned.iter().any(|u| u == raw) {
        out.unpinned.push(raw.to_owned());
    }
}

/// One simple command of shell text: its program, `cd`, `sh -c`, arguments.
fn simple_command(words: &[Word], ctx: &ResolveCtx<'_>, depth: usize, cwd: &mut Option<PathBuf>, out: &mut Resolution) {
    let mut i = 0;
    // Reserved words and assignments before the program.
    while let Some(w) = words.get(i) {
        match w.plain() {
            Some(p) if HEADER_RESERVED.contains(&p) => return,
            Some(p) if LEADING_RESERVED.contains(&p) || TRAILING_RESERVED.contains(&p) => i += 1,
            _ if w.is_assignment() => i += 1,
            _ => break,
        }
    }
    let rest = &words[i.min(words.len())..];
    let Some(first) = rest.first() else { return };
    if first.plain() == Some("cd") {
        let target = rest[1..].iter().find(|w| !w.text.as_deref().is_some_and(|t| t.starts_with('-')));
        *cwd = match target {
            None => ctx.home.map(Path::to_path_buf),
            Some(w) => match (&w.text, cwd.as_deref()) {
                (Some(t), _) if t.starts_with('/') => Some(normalize(Path::new(t))),
                (Some(t), Some(base)) => Some(normalize(&base.join(t))),
                _ => None,
            },
        };
        return;
    }
    let mut shell_args = rest.to_vec();
    // `sh -c TEXT [args…]`: the text is a command of its own.
    if let Some((program, after)) = shell_args.split_first() {
        let base = program.text.as_deref().map(|t| t.rsplit('/').next().unwrap_or(t));
        if base.is_some_and(|b| SHELLS.contains(&b)) {
            let mut has_c = false;
            let mut text_at = None;
            for (k, w) in after.iter().enumerate() {
                match w.text.as_deref() {
                    Some(t) if t.starts_with('-') && !t.starts_with("--") && t.len() > 1 => has_c |= t.contains('c'),
                    Some("--") => {}
                    _ => {
                        if has_c {
                            text_at = Some(k + 1);
                        }
                        break;
                    }
                }
            }
            if let Some(k) = text_at {
                if let Some(text) = shell_args[k].text.clone() {
                    let mut inner_cwd = cwd.clone();
                    shell_into(text.as_bytes(), ctx, depth + 1, &mut inner_cwd, out);
                } else {
                    note_unresolved(&shell_args[k], Role::Program, cwd.as_deref(), out);
                }
                shell_args[k] = Word::default();
            }
        }
    }
    references_of_words(&shell_args, cwd.as_deref(), ctx, out);
}

/// The references of one simple command given as expanded words: the
/// program (through precommands), then its arguments.
fn references_of_words(words: &[Word], cwd: Option<&Path>, ctx: &ResolveCtx<'_>, out: &mut Resolution) {
    let mut i = 0;
    loop {
        let Some(w) = words.get(i) else { return };
        if let Some(r) =
            w.text.as_deref().filter(|t| t.contains('/')).and_then(|_| reference(w, Role::Program, cwd, ctx))
        {
            push(out, r);
        }
        note_unresolved(w, Role::Program, cwd, out);
        let base = w.text.as_deref().map(|t| t.rsplit('/').next().unwrap_or(t));
        i += 1;
        if !base.is_some_and(|b| PRECOMMANDS.contains(&b)) {
            break;
        }
        // Options and, for `env`, assignments before the program.
        while let Some(next) = words.get(i) {
            let opt = next.text.as_deref().is_some_and(|t| t.starts_with('-'));
            if opt || (base == Some("env") && next.is_assignment()) {
                i += 1;
            } else {
                break;
            }
        }
    }
    for w in &words[i.min(words.len())..] {
        if w.text.as_deref().is_some_and(|t| t.starts_with('-')) {
            continue;
        }
        if let Some(r) = reference(w, Role::Argument, cwd, ctx) {
            push(out, r);
        }
        note_unresolved(w, Role::Argument, cwd, out);
    }
}

/// A word with a `/` or a file extension (`x.py`, `.claude/hooks/g.sh`).
fn looks_like_a_path(word: &str) -> bool {
    word.contains('/')
        || word.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty() && !ext.is_empty() && ext.len() <= 8 && ext.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

/// Arguments and input redirections count only inside the workspace or the
/// plugin root.
fn role_applies(r: &Reference, ctx: &ResolveCtx<'_>) -> bool {
    if r.role == Role::Program {
        return true;
    }
    let root = ctx.plugin_root.map(|p| normalize(&ctx.workspace.join(p)));
    r.path.starts_with(ctx.workspace) || root.is_some_and(|root| r.path.starts_with(root))
}

/// The reference a word makes, if its value is known and not empty.
fn reference(w: &Word, role: Role, cwd: Option<&Path>, ctx: &ResolveCtx<'_>) -> Option<Reference> {
    let text = w.text.as_deref().filter(|t| !t.is_empty() && !t.contains('\0'))?;
    // `]`, `.`, `+`, `:` and the like are syntax or data, never a script;
    // a bare word (`touch done`, `git commit -m msg`) is taken for data too.
    if role != Role::Program && (!text.chars().any(char::is_alphanumeric) || !looks_like_a_path(text)) {
        return None;
    }
    let path = if text.starts_with('/') { normalize(Path::new(text)) } else { normalize(&cwd?.join(text)) };
    let r = Reference { word: text.to_owned(), path, role };
    (role == Role::Program || role_applies(&r, ctx)).then_some(r)
}

/// `.` and `..` resolved lexically (`..` at the root stays there).
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if out.parent().is_some() {
                    out.pop();
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests;
