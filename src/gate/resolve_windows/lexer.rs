//! The lexers of the Windows script resolver: cmd.exe and PowerShell text
//! → words, separators and redirections, with `%VAR%`/`$env:VAR` expanded
//! where the value is known.

use super::super::resolve::ResolveCtx;

/// One word: its value (`None`: unknown) and the text as written.
#[derive(Clone, Debug, Default)]
pub(super) struct Word {
    pub(super) text: Option<String>,
    pub(super) raw: String,
    /// Whether any part was quoted (a quoted `&` is not the call operator).
    pub(super) quoted: bool,
}

#[derive(Debug)]
pub(super) enum Tok {
    Word(Word),
    Sep,
    /// `<`: the next word is read.
    Input,
    /// `>` and the like: the next word is written (or a stream number).
    Output,
}

/// The value of variable `name` for these commands: a placeholder of the
/// dialect, or the home directory; `None` when unknown.
pub(super) fn variable(name: &str, ctx: &ResolveCtx<'_>) -> Option<String> {
    if let Some((_, v)) = ctx.placeholders.iter().rev().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
        return Some((*v).to_owned());
    }
    let home = || ctx.home.map(|h| h.to_string_lossy().into_owned());
    if name.eq_ignore_ascii_case("USERPROFILE") || name.eq_ignore_ascii_case("HOME") {
        return home();
    }
    None
}

pub(super) struct Building {
    pub(super) text: Option<String>,
    pub(super) raw: String,
    pub(super) quoted: bool,
    pub(super) started: bool,
}

impl Building {
    pub(super) fn new() -> Building {
        Building { text: Some(String::new()), raw: String::new(), quoted: false, started: false }
    }
    pub(super) fn push(&mut self, c: char) {
        self.started = true;
        if let Some(t) = &mut self.text {
            t.push(c);
        }
    }
    pub(super) fn push_str(&mut self, s: Option<&str>) {
        self.started = true;
        match (s, &mut self.text) {
            (Some(s), Some(t)) => t.push_str(s),
            _ => self.text = None,
        }
    }
    pub(super) fn finish(&mut self, toks: &mut Vec<Tok>) {
        if self.started {
            let b = std::mem::replace(self, Building::new());
            toks.push(Tok::Word(Word { text: b.text, raw: b.raw, quoted: b.quoted }));
        } else {
            self.raw.clear();
        }
    }
}

pub(super) fn lex_cmd(text: &str, ctx: &ResolveCtx<'_>) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let mut w = Building::new();
    let mut in_quotes = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '%' {
            // `%NAME%`: a variable, also inside quotes.
            if let Some(len) = chars[i + 1..].iter().position(|&d| d == '%') {
                let name: String = chars[i + 1..i + 1 + len].iter().collect();
                if !name.is_empty() && !name.contains([' ', '"', '\t']) {
                    w.raw.push_str(&format!("%{name}%"));
                    let value = if name.eq_ignore_ascii_case("HOMEDRIVE") {
                        // `%HOMEDRIVE%%HOMEPATH%` is the home directory.
                        let after: String = chars[i + 2 + len..].iter().take(10).collect();
                        if after.to_ascii_uppercase().starts_with("%HOMEPATH%") {
                            w.raw.push_str("%HOMEPATH%");
                            i += 10;
                            variable("USERPROFILE", ctx)
                        } else {
                            None
                        }
                    } else {
                        variable(&name, ctx)
                    };
                    w.push_str(value.as_deref());
                    i += len + 2;
                    continue;
                }
            }
            w.raw.push(c);
            w.push(c);
            i += 1;
            continue;
        }
        if in_quotes {
            w.raw.push(c);
            if c == '"' {
                in_quotes = false;
            } else {
                w.push(c);
            }
            i += 1;
            continue;
        }
        match c {
            '"' => {
                in_quotes = true;
                w.quoted = true;
                w.started = true;
                w.raw.push(c);
            }
            '^' => {
                w.raw.push(c);
                if let Some(&n) = chars.get(i + 1) {
                    w.raw.push(n);
                    if n != '\n' {
                        w.push(n);
                    }
                    i += 1;
                }
            }
            ' ' | '\t' | '\r' => w.finish(&mut toks),
            '&' | '|' | '\n' | '(' | ')' => {
                w.finish(&mut toks);
                toks.push(Tok::Sep);
                if matches!(chars.get(i + 1), Some(&n) if n == c && c != '\n') {
                    i += 1;
                }
            }
            '<' => {
                w.finish(&mut toks);
                toks.push(Tok::Input);
            }
            '>' => {
                // `2>`: the digit was the stream, not a word.
                if w.raw.len() == 1 && w.raw.chars().all(|d| d.is_ascii_digit()) {
                    w = Building::new();
                }
                w.finish(&mut toks);
                if chars.get(i + 1) == Some(&'>') {
                    i += 1;
                }
                if chars.get(i + 1) == Some(&'&') {
                    i += 2;
                    toks.push(Tok::Output);
                    toks.push(Tok::Word(Word { text: Some(String::new()), raw: String::new(), quoted: false }));
                    continue;
                }
                toks.push(Tok::Output);
            }
            c => {
                w.raw.push(c);
                w.push(c);
            }
        }
        i += 1;
    }
    w.finish(&mut toks);
    toks
}

pub(super) fn lex_powershell(text: &str, ctx: &ResolveCtx<'_>) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let mut w = Building::new();
    let mut i = 0;
    // `$env:NAME`, `${env:NAME}`, `$HOME`, other variables (unknown), `$(…)`.
    let dollar = |i: usize, w: &mut Building| -> usize {
        let rest: String = chars[i + 1..].iter().collect();
        let ident = |s: &str| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':').count();
        if let Some(braced) = rest.strip_prefix('{') {
            let Some(end) = braced.find('}') else {
                w.push_str(None);
                return chars.len() - i;
            };
            let name = &braced[..end];
            w.raw.push_str(&format!("${{{name}}}"));
            let value = match name.get(..4) {
                Some(p) if p.eq_ignore_ascii_case("env:") => variable(&name[4..], ctx),
                _ if name.eq_ignore_ascii_case("HOME") => variable("HOME", ctx),
                _ => None,
            };
            w.push_str(value.as_deref());
            return 1 + 1 + braced[..end].chars().count() + 1;
        }
        if rest.starts_with('(') {
            // A subexpression: its value is unknown; skip to the matching `)`.
            let mut level = 0;
            for (k, c) in rest.chars().enumerate() {
                match c {
                    '(' => level += 1,
                    ')' => {
                        level -= 1;
                        if level == 0 {
                            let s: String = rest.chars().take(k + 1).collect();
                            w.raw.push('$');
                            w.raw.push_str(&s);
                            w.push_str(None);
                            return k + 2;
                        }
                    }
                    _ => {}
                }
            }
            w.push_str(None);
            return chars.len() - i;
        }
        let n = ident(&rest);
        if n == 0 {
            w.raw.push('$');
            w.push('$');
            return 1;
        }
        let name: String = rest.chars().take(n).collect();
        w.raw.push('$');
        w.raw.push_str(&name);
        let value = match name.get(..4) {
            Some(p) if p.eq_ignore_ascii_case("env:") => variable(&name[4..], ctx),
            _ if name.eq_ignore_ascii_case("HOME") => variable("HOME", ctx),
            _ => None,
        };
        w.push_str(value.as_deref());
        1 + n
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\'' => {
                w.quoted = true;
                w.started = true;
                w.raw.push(c);
                i += 1;
                while i < chars.len() {
                    let d = chars[i];
                    w.raw.push(d);
                    if d == '\'' {
                        if chars.get(i + 1) == Some(&'\'') {
                            w.raw.push('\'');
                            w.push('\'');
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    w.push(d);
                    i += 1;
                }
            }
            '"' => {
                w.quoted = true;
                w.started = true;
                w.raw.push(c);
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    match chars[i] {
                        '`' => {
                            w.raw.push('`');
                            if let Some(&n) = chars.get(i + 1) {
                                w.raw.push(n);
                                w.push(n);
                            }
                            i += 2;
                        }
                        '$' => i += dollar(i, &mut w),
                        d => {
                            w.raw.push(d);
                            w.push(d);
                            i += 1;
                        }
                    }
                }
                w.raw.push('"');
            }
            '`' => {
                w.raw.push(c);
                if let Some(&n) = chars.get(i + 1) {
                    w.raw.push(n);
                    if n != '\n' {
                        w.push(n);
                    }
                    i += 1;
                }
            }
            '$' => {
                i += dollar(i, &mut w);
                continue;
            }
            '~' if !w.started && matches!(chars.get(i + 1).copied(), None | Some('\\' | '/' | ' ')) => {
                w.raw.push('~');
                w.push_str(variable("HOME", ctx).as_deref());
            }
            '#' if !w.started => {
                w.finish(&mut toks);
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            ' ' | '\t' | '\r' => w.finish(&mut toks),
            ';' | '|' | '\n' | '{' | '}' | '(' | ')' => {
                w.finish(&mut toks);
                toks.push(Tok::Sep);
                if c == '|' && chars.get(i + 1) == Some(&'|') {
                    i += 1;
                }
            }
            '&' if chars.get(i + 1) == Some(&'&') => {
                w.finish(&mut toks);
                toks.push(Tok::Sep);
                i += 1;
            }
            '&' if !w.started => {
                // The call operator: a word of its own.
                w.raw.push('&');
                w.push('&');
                w.finish(&mut toks);
            }
            '>' => {
                if w.raw.len() == 1 && w.raw.chars().all(|d| d.is_ascii_digit() || d == '*') {
                    w = Building::new();
                }
                w.finish(&mut toks);
                if chars.get(i + 1) == Some(&'>') {
                    i += 1;
                }
                if chars.get(i + 1) == Some(&'&') {
                    i += 2;
                    toks.push(Tok::Output);
                    toks.push(Tok::Word(Word { text: Some(String::new()), raw: String::new(), quoted: false }));
                    continue;
                }
                toks.push(Tok::Output);
            }
            c => {
                w.raw.push(c);
                w.push(c);
            }
        }
        i += 1;
    }
    w.finish(&mut toks);
    toks
}
