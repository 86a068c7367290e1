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

/// One word of a simple command after expansion.
#[derive(Clone, Debug, Default)]
struct Word {
    /// Its value; `None` when it cannot be known from the text.
    text: Option<String>,
    /// The word as written when it has no quotes, escapes or expansions
    /// (reserved words, assignments and fd numbers are recognised on it).
    plain: Option<String>,
    /// The word as written, quotes and all.
    raw: String,
}

impl Word {
    fn known(text: String) -> Word {
        Word { plain: Some(text.clone()), raw: text.clone(), text: Some(text) }
    }

    fn plain(&self) -> Option<&str> {
        self.plain.as_deref()
    }

    /// `NAME=value` written without quotes before the `=`.
    fn is_assignment(&self) -> bool {
        let Some(t) = self.plain.as_deref().or(self.text.as_deref()) else { return false };
        match t.find('=') {
            Some(i) if i > 0 => {
                let name = &t.as_bytes()[..i];
                (name[0].is_ascii_alphabetic() || name[0] == b'_')
                    && name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_')
            }
            _ => false,
        }
    }
}

/// A token of shell text.
#[derive(Debug)]
enum Tok {
    Word(Word),
    /// `;` `&` `|` `&&` `||` `;;` `(` `)`, a newline: ends a simple command.
    Sep,
    /// A redirection operator; the next word is its target.
    Redirect(Redir),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Redir {
    /// `<` or `<>`: the target is read.
    Input,
    /// `>`, `>>`, `>|`, `&>`, `<&`, `>&`, `<<<`: the target is written, a
    /// descriptor or a string.
    Other,
    /// `<<` / `<<-`: the target is a here-document delimiter.
    HereDoc { strip_tabs: bool },
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

/// The shell lexer: tokens of one level of text, and the text of the
/// command substitutions found in it (read by the caller).
struct Lexer<'a, 'c> {
    s: &'a [u8],
    i: usize,
    ctx: &'a ResolveCtx<'c>,
    depth: usize,
    nested: Vec<Vec<u8>>,
}

impl Lexer<'_, '_> {
    fn peek(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    fn run(mut self) -> (Vec<Tok>, Vec<Vec<u8>>) {
        let mut toks = Vec::new();
        let mut heredocs: Vec<(Vec<u8>, bool)> = Vec::new();
        let mut want_heredoc: Option<bool> = None;
        while let Some(c) = self.peek(0) {
            match c {
                b' ' | b'\t' | b'\r' => self.i += 1,
                b'\\' if self.peek(1) == Some(b'\n') => self.i += 2,
                b'#' => {
                    while self.peek(0).is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                b'\n' => {
                    self.i += 1;
                    toks.push(Tok::Sep);
                    for (delim, strip) in std::mem::take(&mut heredocs) {
                        self.skip_heredoc(&delim, strip);
                    }
                }
                b';' | b'|' | b'(' | b')' => {
                    self.i += 1;
                    if matches!(self.peek(0), Some(b';' | b'|' | b'&')) && c != b'(' && c != b')' {
                        self.i += 1;
                    }
                    toks.push(Tok::Sep);
                }
                b'&' => {
                    if self.peek(1) == Some(b'>') {
                        self.i += 2;
                        if self.peek(0) == Some(b'>') {
                            self.i += 1;
                        }
                        toks.push(Tok::Redirect(Redir::Other));
                    } else {
                        self.i += if self.peek(1) == Some(b'&') { 2 } else { 1 };
                        toks.push(Tok::Sep);
                    }
                }
                b'<' | b'>' => {
                    if self.peek(1) == Some(b'(') {
                        // Process substitution: a command of its own.
                        self.i += 2;
                        let inner = self.until_close_paren();
                        self.nested.push(inner);
                        toks.push(Tok::Word(Word::default()));
                        continue;
                    }
                    let r = self.redirection(c);
                    if let Redir::HereDoc { strip_tabs } = r {
                        want_heredoc = Some(strip_tabs);
                    }
                    toks.push(Tok::Redirect(r));
                }
                _ => {
                    let w = self.word();
                    // A descriptor number right before a redirection (`2>`).
                    let fd = matches!(self.peek(0), Some(b'<' | b'>'))
                        && w.plain().is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
                    if fd {
                        continue;
                    }
                    if let Some(strip) = want_heredoc.take() {
                        let delim = w.text.clone().or(w.plain.clone()).unwrap_or_default();
                        heredocs.push((delim.into_bytes(), strip));
                    }
                    toks.push(Tok::Word(w));
                }
            }
        }
        (toks, self.nested)
    }

    fn redirection(&mut self, c: u8) -> Redir {
        self.i += 1;
        match (c, self.peek(0)) {
            (b'<', Some(b'<')) => {
                self.i += 1;
                match self.peek(0) {
                    Some(b'<') => {
                        self.i += 1;
                        Redir::Other
                    }
                    Some(b'-') => {
                        self.i += 1;
                        Redir::HereDoc { strip_tabs: true }
                    }
                    _ => Redir::HereDoc { strip_tabs: false },
                }
            }
            (b'<', Some(b'&')) | (b'>', Some(b'&' | b'>' | b'|')) => {
                self.i += 1;
                Redir::Other
            }
            (b'<', Some(b'>')) => {
                self.i += 1;
                Redir::Input
            }
            (b'<', _) => Redir::Input,
            _ => Redir::Other,
        }
    }

    /// Skip a here-document body: lines up to one equal to the delimiter.
    fn skip_heredoc(&mut self, delim: &[u8], strip_tabs: bool) {
        while self.i < self.s.len() {
            let start = self.i;
            while self.peek(0).is_some_and(|c| c != b'\n') {
                self.i += 1;
            }
            let mut line = &self.s[start..self.i];
            if self.peek(0) == Some(b'\n') {
                self.i += 1;
            }
            if strip_tabs {
                while let [b'\t', rest @ ..] = line {
                    line = rest;
                }
            }
            if line == delim {
                return;
            }
        }
    }

    /// The text up to the `)` that closes an opening already consumed,
    /// quotes and nesting respected; the `)` is consumed.
    fn until_close_paren(&mut self) -> Vec<u8> {
        let start = self.i;
        let mut depth = 1usize;
        while let Some(c) = self.peek(0) {
            match c {
                b'\\' => self.i += 1,
                b'\'' => {
                    self.i += 1;
                    while self.peek(0).is_some_and(|c| c != b'\'') {
                        self.i += 1;
                    }
                }
                b'"' => {
                    self.i += 1;
                    while let Some(d) = self.peek(0) {
                        if d == b'\\' {
                            self.i += 1;
                        } else if d == b'"' {
                            break;
                        }
                        self.i += 1;
                    }
                }
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        let inner = self.s[start..self.i].to_vec();
                        self.i += 1;
                        return inner;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        self.s.get(start..).unwrap_or_default().to_vec()
    }

    /// Backquoted text up to the closing backquote (consumed), with `\``,
    /// `\\` and `\$` unescaped.
    fn until_backquote(&mut self) -> Vec<u8> {
        let mut inner = Vec::new();
        while let Some(c) = self.peek(0) {
            self.i += 1;
            match c {
                b'`' => return inner,
                b'\\' => match self.peek(0) {
                    Some(d @ (b'`' | b'\\' | b'$')) => {
                        self.i += 1;
                        inner.push(d);
                    }
                    _ => inner.push(c),
                },
                _ => inner.push(c),
            }
        }
        inner
    }

    /// One word: up to unquoted blank or operator.
    fn word(&mut self) -> Word {
        let mut text: Vec<u8> = Vec::new();
        let mut known = true;
        let mut plain = true;
        let mut brace = false;
        let start = self.i;
        while let Some(c) = self.peek(0) {
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')' => break,
                b'\\' => {
                    plain = false;
                    self.i += 1;
                    match self.peek(0) {
                        Some(b'\n') => self.i += 1,
                        Some(d) => {
                            text.push(d);
                            self.i += 1;
                        }
                        None => {}
                    }
                }
                b'\'' => {
                    plain = false;
                    self.i += 1;
                    loop {
                        match self.peek(0) {
                            Some(b'\'') => {
                                self.i += 1;
                                break;
                            }
                            Some(d) => {
                                text.push(d);
                                self.i += 1;
                            }
                            None => {
                                known = false;
                                break;
                            }
                        }
                    }
                }
                b'"' => {
                    plain = false;
                    self.i += 1;
                    loop {
                        match self.peek(0) {
                            Some(b'"') => {
                                self.i += 1;
                                break;
                            }
                            Some(b'\\') => {
                                self.i += 1;
                                match self.peek(0) {
                                    Some(d @ (b'$' | b'`' | b'"' | b'\\')) => {
                                        text.push(d);
                                        self.i += 1;
                                    }
                                    Some(b'\n') => self.i += 1,
                                    _ => text.push(b'\\'),
                                }
                            }
                            Some(b'$') => known &= self.dollar(&mut text),
                            Some(b'`') => {
                                self.i += 1;
                                let inner = self.until_backquote();
                                self.nested.push(inner);
                                known = false;
                            }
                            Some(d) => {
                                text.push(d);
                                self.i += 1;
                            }
                            None => {
                                known = false;
                                break;
                            }
                        }
                    }
                }
                b'$' => {
                    plain = false;
                    known &= self.dollar(&mut text);
                }
                b'`' => {
                    plain = false;
                    self.i += 1;
                    let inner = self.until_backquote();
                    self.nested.push(inner);
                    known = false;
                }
                b'~' if self.i == start => {
                    self.i += 1;
                    match (self.peek(0), self.ctx.home) {
                        (
                            None | Some(b'/' | b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b')'),
                            Some(h),
                        ) => {
                            text.extend_from_slice(h.as_os_str().as_encoded_bytes());
                            plain = false;
                        }
                        _ => {
                            text.push(b'~');
                            known = false;
                        }
                    }
                }
                b'*' | b'?' | b'[' => {
                    known = false;
                    text.push(c);
                    self.i += 1;
                }
                b'{' | b'}' => {
                    brace = true;
                    text.push(c);
                    self.i += 1;
                }
                _ => {
                    text.push(c);
                    self.i += 1;
                }
            }
        }
        let s = String::from_utf8_lossy(&text).into_owned();
        if brace && s != "{" && s != "}" {
            known = false;
        }
        let raw = String::from_utf8_lossy(self.s.get(start..self.i.min(self.s.len())).unwrap_or_default()).into_owned();
        Word { plain: plain.then(|| s.clone()), text: known.then_some(s), raw }
    }

    /// A `$` expansion at the cursor, appended to `text`; false when its
    /// value cannot be known.
    fn dollar(&mut self, text: &mut Vec<u8>) -> bool {
        self.i += 1;
        match self.peek(0) {
            Some(b'{') => {
                self.i += 1;
                let start = self.i;
                while self.peek(0).is_some_and(|c| c != b'}') {
                    self.i += 1;
                }
                let name = &self.s[start..self.i.min(self.s.len())];
                if self.peek(0) == Some(b'}') {
                    self.i += 1;
                } else {
                    return false;
                }
                self.lookup(name, text)
            }
            Some(b'(') => {
                self.i += 1;
                if self.peek(0) == Some(b'(') {
                    self.i += 1;
                    let _ = self.until_close_paren();
                    if self.peek(0) == Some(b')') {
                        self.i += 1;
                    }
                } else {
                    let inner = self.until_close_paren();
                    if self.depth < MAX_DEPTH {
                        self.nested.push(inner);
                    }
                }
                false
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let start = self.i;
                while self.peek(0).is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
                    self.i += 1;
                }
                let name = self.s[start..self.i].to_vec();
                self.lookup(&name, text)
            }
            Some(c) if c.is_ascii_digit() || b"@*#?$!-".contains(&c) => {
                self.i += 1;
                false
            }
            _ => {
                text.push(b'$');
                true
            }
        }
    }

    fn lookup(&self, name: &[u8], text: &mut Vec<u8>) -> bool {
        if name == b"HOME" {
            return match self.ctx.home {
                Some(h) => {
                    text.extend_from_slice(h.as_os_str().as_encoded_bytes());
                    true
                }
                None => false,
            };
        }
        match self.ctx.placeholders.iter().find(|(n, _)| n.as_bytes() == name) {
            Some((_, value)) => {
                text.extend_from_slice(value.as_bytes());
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WS: &str = "/ws";

    fn ctx<'a>(placeholders: &'a [(&'a str, &'a str)], root: Option<&'a Path>) -> ResolveCtx<'a> {
        ResolveCtx {
            workspace: Path::new(WS),
            cwd: None,
            plugin_root: root,
            home: Some(Path::new("/home/u")),
            placeholders,
        }
    }

    const CLAUDE: &[(&str, &str)] =
        &[("HOOKLINE_PROJECT_DIR", WS), ("CLAUDE_PROJECT_DIR", WS), ("CLAUDE_PLUGIN_ROOT", "/plug")];

    fn refs(cmd: &str) -> Vec<(String, Role)> {
        let root = Path::new("/plug");
        shell_references(cmd, &ctx(CLAUDE, Some(root)))
            .into_iter()
            .map(|r| (r.path.to_string_lossy().into_owned(), r.role))
            .collect()
    }

    fn paths(cmd: &str) -> Vec<String> {
        refs(cmd).into_iter().map(|(p, _)| p).collect()
    }

    /// A hook with its own `cwd` (Copilot CLI, VS Code) names files
    /// relative to that directory, in both forms.
    #[test]
    fn relative_paths_resolve_against_the_hooks_cwd() {
        let c = ResolveCtx { cwd: Some(Path::new("scripts")), ..ctx(CLAUDE, None) };
        let shell: Vec<_> = shell_references("./guard.sh", &c).into_iter().map(|r| r.path).collect();
        assert_eq!(shell, [Path::new("/ws/scripts/guard.sh")]);
        let exec: Vec<_> = exec_references(&["./guard.sh"], &c).into_iter().map(|r| r.path).collect();
        assert_eq!(exec, [Path::new("/ws/scripts/guard.sh")]);
    }

    #[test]
    fn an_interpreter_on_path_is_not_a_reference_its_script_is() {
        assert_eq!(refs("python3 .claude/hooks/x.py"), [("/ws/.claude/hooks/x.py".into(), Role::Argument)]);
    }

    #[test]
    fn a_first_word_with_a_slash_is_the_program_wherever_it_points() {
        assert_eq!(refs("./guard.sh"), [("/ws/guard.sh".into(), Role::Program)]);
        assert_eq!(refs("/opt/audit --all"), [("/opt/audit".into(), Role::Program)]);
        assert_eq!(refs("~/bin/check"), [("/home/u/bin/check".into(), Role::Program)]);
    }

    fn unpinned(cmd: &str) -> Vec<String> {
        resolve_shell(cmd, &ctx(CLAUDE, Some(Path::new("/plug")))).unpinned
    }

    /// A script path the resolver cannot know is listed, never dropped in
    /// silence; words that name no file are not.
    #[test]
    fn script_words_that_cannot_be_resolved_are_unpinned() {
        assert_eq!(unpinned("$SCRIPTS/guard.sh"), ["$SCRIPTS/guard.sh"]);
        assert_eq!(
            unpinned(r#""$(git rev-parse --show-toplevel)"/.claude/hooks/x.sh"#),
            [r#""$(git rev-parse --show-toplevel)"/.claude/hooks/x.sh"#]
        );
        assert_eq!(unpinned("python3 ${HOOKS_DIR}/lint.py"), ["${HOOKS_DIR}/lint.py"]);
        assert_eq!(unpinned("bash ./hooks/*.sh"), ["./hooks/*.sh"]);
        assert_eq!(unpinned("cd \"$X\" && ./guard.sh"), ["./guard.sh"]);
        assert_eq!(unpinned("sh -c \"$CMD\""), ["\"$CMD\""]);
        assert_eq!(unpinned("~nobody/bin/x"), ["~nobody/bin/x"]);
        for fine in [
            "./guard.sh",
            r#"bash "$CLAUDE_PROJECT_DIR"/h.sh"#,
            "[ -f x ] && echo \"$MSG\"",
            "curl -s http://localhost:$PORT/hook",
            "jq -r .tool_input.command | grep -q \"$PATTERN\"",
            "echo \"$HOOK_INPUT\" > /tmp/log",
            "node ${CLAUDE_PLUGIN_ROOT}/a.js",
        ] {
            assert!(unpinned(fine).is_empty(), "{fine}: {:?}", unpinned(fine));
        }
    }

    #[test]
    fn placeholders_expand_quoted_braced_or_bare() {
        assert_eq!(paths(r#"bash "$CLAUDE_PROJECT_DIR"/h.sh"#), ["/ws/h.sh"]);
        assert_eq!(paths("node ${CLAUDE_PLUGIN_ROOT}/a.js"), ["/plug/a.js"]);
        assert_eq!(paths("$HOOKLINE_PROJECT_DIR/.claude/hooks/g.sh"), ["/ws/.claude/hooks/g.sh"]);
        assert_eq!(paths(r#""${CLAUDE_PROJECT_DIR}/with space.sh""#), ["/ws/with space.sh"]);
    }

    #[test]
    fn bare_words_are_data_not_references() {
        assert_eq!(paths("touch done && git commit -m msg && bash myscript"), Vec::<String>::new());
        assert_eq!(paths("bash ./myscript hooks/run"), ["/ws/myscript", "/ws/hooks/run"]);
    }

    #[test]
    fn arguments_outside_the_workspace_and_plugin_root_are_not_references() {
        assert_eq!(paths("cat /etc/passwd ../elsewhere/x.sh"), Vec::<String>::new());
        assert_eq!(paths("python3 -u x.py --flag=y.py"), ["/ws/x.py"]);
    }

    #[test]
    fn words_with_unknown_values_are_not_references() {
        assert_eq!(paths("$OTHER/x.sh"), Vec::<String>::new());
        assert_eq!(paths("bash hooks/*.sh"), Vec::<String>::new());
        assert_eq!(paths("bash x.{sh,py}"), Vec::<String>::new());
        assert_eq!(paths("~other/x.sh"), Vec::<String>::new());
        assert_eq!(paths("bash ${CLAUDE_PROJECT_DIR:-.}/x.sh"), Vec::<String>::new());
    }

    #[test]
    fn every_simple_command_of_a_list_or_pipeline_is_read() {
        assert_eq!(
            paths("FOO=1 ./a.sh && bash b.sh | ./c.sh; if [ -x ./d.sh ]; then ./e.sh; fi & wait"),
            ["/ws/a.sh", "/ws/b.sh", "/ws/c.sh", "/ws/d.sh", "/ws/e.sh"]
        );
    }

    #[test]
    fn precommands_are_looked_through() {
        assert_eq!(refs("exec ./a.sh"), [("/ws/a.sh".into(), Role::Program)]);
        assert_eq!(
            refs("/usr/bin/env -i A=1 python3 x.py"),
            [("/usr/bin/env".into(), Role::Program), ("/ws/x.py".into(), Role::Argument)]
        );
    }

    #[test]
    fn sh_c_text_and_command_substitutions_are_read_too() {
        assert_eq!(paths("bash -ec './inner.sh arg' zero.sh"), ["/ws/inner.sh", "/ws/zero.sh"]);
        assert_eq!(paths("echo $(./sub.sh) `./bq.sh`"), ["/ws/sub.sh", "/ws/bq.sh"]);
        assert_eq!(paths("diff <(./p.sh) x.txt"), ["/ws/p.sh", "/ws/x.txt"]);
    }

    #[test]
    fn input_redirections_are_references_outputs_are_not() {
        assert_eq!(refs("sh < guard.sh > out.log 2>err.log"), [("/ws/guard.sh".into(), Role::Input)]);
        assert_eq!(paths("./a.sh 2>&1 >>log"), ["/ws/a.sh"]);
    }

    #[test]
    fn cd_moves_where_later_relative_words_resolve() {
        assert_eq!(paths("cd .claude/hooks && ./x.sh"), ["/ws/.claude/hooks/x.sh"]);
        assert_eq!(paths("cd $SOMEWHERE && ./x.sh"), Vec::<String>::new());
    }

    #[test]
    fn comments_and_here_documents_are_not_commands() {
        assert_eq!(paths("./a.sh # ./b.sh\ncat <<EOF\n./c.sh\nEOF\n./d.sh"), ["/ws/a.sh", "/ws/d.sh"]);
    }

    #[test]
    fn dot_dot_is_resolved_lexically() {
        assert_eq!(paths("./x/../y.sh"), ["/ws/y.sh"]);
        assert_eq!(paths("/../../z"), ["/z"]);
    }

    #[test]
    fn exec_form_is_a_word_list_with_braced_placeholders() {
        let c = ctx(CLAUDE, Some(Path::new("/plug")));
        let r = exec_references(&["${CLAUDE_PLUGIN_ROOT}/bin/run", "--x", "${CLAUDE_PROJECT_DIR}/a.py", "rel.txt"], &c);
        let got: Vec<(&str, Role)> = r.iter().map(|r| (r.path.to_str().unwrap(), r.role)).collect();
        assert_eq!(
            got,
            [("/plug/bin/run", Role::Program), ("/ws/a.py", Role::Argument), ("/ws/rel.txt", Role::Argument)]
        );
        // Exec form has no shell: `$NAME`, `~` and quotes are literal.
        let r = exec_references(&["python3", "$CLAUDE_PROJECT_DIR/x.py", "~/y.py"], &c);
        let got: Vec<&str> = r.iter().map(|r| r.path.to_str().unwrap()).collect();
        assert_eq!(got, ["/ws/$CLAUDE_PROJECT_DIR/x.py", "/ws/~/y.py"]);
        assert!(exec_references(&["python3"], &c).is_empty());
        assert!(exec_references(&[], &c).is_empty());
    }

    /// The fuzz target's oracles (`fuzz/fuzz_targets/resolve.rs`) over
    /// pseudo-random text built from shell syntax, so that `cargo test`
    /// exercises them without a fuzzer.
    #[test]
    fn random_shell_text_keeps_the_resolver_oracles() {
        const PIECES: &[&str] = &[
            " ",
            "\t",
            "\n",
            ";",
            "&",
            "&&",
            "|",
            "||",
            "(",
            ")",
            "<",
            ">",
            ">>",
            "<<",
            "<<-",
            "2>",
            "<(",
            "$(",
            "`",
            "'",
            "\"",
            "\\",
            "$",
            "${",
            "}",
            "{",
            "~",
            "~/",
            "*",
            "?",
            "[",
            "#",
            "=",
            "A=1",
            "./",
            "../",
            "/",
            ".",
            "x.sh",
            "dir/",
            "-c",
            "sh",
            "bash",
            "cd",
            "exec",
            "env",
            "if",
            "then",
            "fi",
            "EOF",
            "$HOME",
            "$CLAUDE_PROJECT_DIR",
            "${CLAUDE_PLUGIN_ROOT}",
            "${X:-y}",
            "é",
            "日本",
            "\u{0}",
        ];
        let root = Path::new("/plug");
        let c = ctx(CLAUDE, Some(root));
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            let text: String = (0..len).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect();
            let refs = shell_references(&text, &c);
            assert!(refs.len() <= MAX_REFERENCES);
            for r in &refs {
                assert!(r.path.is_absolute(), "{text:?}: {r:?}");
                assert!(
                    r.path.components().all(|c| !matches!(c, Component::CurDir | Component::ParentDir)),
                    "{text:?}: {r:?}"
                );
                match r.role {
                    Role::Program => assert!(r.word.contains('/'), "{text:?}: {r:?}"),
                    _ => assert!(r.path.starts_with(WS) || r.path.starts_with("/plug"), "{text:?}: {r:?}"),
                }
            }
            assert_eq!(refs, shell_references(&text, &c), "deterministic: {text:?}");
            let words: Vec<&str> = text.split(' ').collect();
            assert!(exec_references(&words, &c).len() <= MAX_REFERENCES);
        }
    }

    #[test]
    fn the_resolver_never_panics_on_odd_text() {
        for cmd in [
            "",
            "'",
            "\"",
            "\\",
            "$",
            "${",
            "$(",
            "$((",
            "`",
            "<",
            "<<",
            "<<-",
            "<(",
            "2>",
            "&>",
            ";;",
            "((((",
            "))))",
            "~",
            "$'\\x'",
            "a\\\n/b",
            "cd",
            "cd ..; cd ..; cd ..; ./x",
            "sh -c",
            "sh -c \"$(sh -c '$(sh -c x)')\"",
            "é/ü.sh 日本/x",
            "\u{0}",
            "a\u{0}/b",
            "{",
            "}",
            "$((1+(2)))",
            "x=$(",
            "<<EOF",
            "cat <<'E'\nE",
        ] {
            let _ = refs(cmd);
        }
        let deep = "$(".repeat(10_000);
        let _ = refs(&deep);
        let many = "./a.sh; ".repeat(10_000);
        assert!(refs(&many).len() <= MAX_REFERENCES);
    }
}
