//! The shell lexer of the script resolver: shell text → words, separators
//! and redirections, with the command substitutions found on the way.

use super::{ResolveCtx, MAX_DEPTH};

/// One word of a simple command after expansion.
#[derive(Clone, Debug, Default)]
pub(super) struct Word {
    /// Its value; `None` when it cannot be known from the text.
    pub(super) text: Option<String>,
    /// The word as written when it has no quotes, escapes or expansions
    /// (reserved words, assignments and fd numbers are recognised on it).
    pub(super) plain: Option<String>,
    /// The word as written, quotes and all.
    pub(super) raw: String,
}

impl Word {
    pub(super) fn known(text: String) -> Word {
        Word { plain: Some(text.clone()), raw: text.clone(), text: Some(text) }
    }

    pub(super) fn plain(&self) -> Option<&str> {
        self.plain.as_deref()
    }

    /// `NAME=value` written without quotes before the `=`.
    pub(super) fn is_assignment(&self) -> bool {
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
pub(super) enum Tok {
    Word(Word),
    /// `;` `&` `|` `&&` `||` `;;` `(` `)`, a newline: ends a simple command.
    Sep,
    /// A redirection operator; the next word is its target.
    Redirect(Redir),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Redir {
    /// `<` or `<>`: the target is read.
    Input,
    /// `>`, `>>`, `>|`, `&>`, `<&`, `>&`, `<<<`: the target is written, a
    /// descriptor or a string.
    Other,
    /// `<<` / `<<-`: the target is a here-document delimiter.
    HereDoc { strip_tabs: bool },
}

/// The shell lexer: tokens of one level of text, and the text of the
/// command substitutions found in it (read by the caller).
pub(super) struct Lexer<'a, 'c> {
    pub(super) s: &'a [u8],
    pub(super) i: usize,
    pub(super) ctx: &'a ResolveCtx<'c>,
    pub(super) depth: usize,
    pub(super) nested: Vec<Vec<u8>>,
}

impl Lexer<'_, '_> {
    pub(super) fn peek(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    pub(super) fn run(mut self) -> (Vec<Tok>, Vec<Vec<u8>>) {
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

    pub(super) fn redirection(&mut self, c: u8) -> Redir {
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
    pub(super) fn skip_heredoc(&mut self, delim: &[u8], strip_tabs: bool) {
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
    pub(super) fn until_close_paren(&mut self) -> Vec<u8> {
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
    pub(super) fn until_backquote(&mut self) -> Vec<u8> {
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
    pub(super) fn word(&mut self) -> Word {
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
    pub(super) fn dollar(&mut self, text: &mut Vec<u8>) -> bool {
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

    pub(super) fn lookup(&self, name: &[u8], text: &mut Vec<u8>) -> bool {
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
