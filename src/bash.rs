//! Splitting a Bash command line into the simple commands an `if`
//! condition checks (Claude Code: "each subcommand is checked",
//! "commands inside `$()` and backticks are checked", "leading `VAR=value`
//! assignments are stripped before matching").
//!
//! [`split`] scans the line once, outside quotes:
//!
//! - **Separators** end a command: `&&`, `||`, `;`, `|` (and `|&`), `&`
//!   (background), a newline, `(` and `)` (subshells, groups). Each
//!   separator character ends the current segment, so `a && b` gives the
//!   segments `a`, an empty one, and `b`: there are never fewer segments
//!   than separators plus one. An `&` or `|` that belongs to a redirection
//!   (`>&`, `<&`, `&>`, `>|`) is not a separator.
//! - **Quotes**: nothing inside single quotes is special; inside double
//!   quotes only `\`, `$(…)`, `` `…` `` and `$NAME` are. A backslash
//!   outside single quotes escapes the next character.
//! - **Substitutions** `$(…)` and `` `…` `` (also inside double quotes, and
//!   nested) are split too: their commands come first, then the command
//!   that contains them, with its text as written.
//!
//! Then each command is trimmed, and its leading `NAME=value` assignments
//! and shell keywords (`if`, `then`, `elif`, `else`, `while`, `until`, `do`,
//! `!`, `{`, `}`, `fi`, `done`, `esac`, `time`) are removed.
//!
//! The line cannot be parsed — [`split`] returns `None`, and an `if`
//! condition then fails open (the hook runs) — when a quote, a `$(` or a
//! backtick is not closed, or substitutions nest deeper than
//! [`MAX_DEPTH`]. [`split`] never panics, whatever the input.
//!
//! Choices the reference leaves open: comments and here-documents are not
//! recognised (their text may produce extra commands, which can only make
//! a hook run more often); `sudo`, `env`, `exec` and similar commands are
//! not removed (`sudo rm x` is the command `sudo`).

/// How deeply substitutions may nest before a line counts as unparsable.
pub const MAX_DEPTH: usize = 64;

/// One simple command of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The command's text: trimmed, without leading assignments and shell
    /// keywords (possibly empty: an empty segment between separators).
    pub text: String,
    /// Whether its command name is not known before the shell runs it (it
    /// starts with `$` or a substitution).
    pub dynamic_name: bool,
}

/// A line split into its commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// Every simple command, those inside substitutions first, one per
    /// segment between separators (empty segments included).
    pub commands: Vec<Command>,
    /// Whether the line has a part only the shell knows: `$(…)`,
    /// backticks, or a `$NAME` / `${…}` expansion outside single quotes.
    pub dynamic: bool,
}

/// Split a Bash command line; `None` when it cannot be parsed (see the
/// module documentation).
pub fn split(line: &str) -> Option<Split> {
    let mut s = Scanner { chars: line.chars().collect(), i: 0, raw: Vec::new(), dynamic: false };
    s.scan(End::Line, 0)?;
    let commands = s.raw.iter().map(|text| command(text)).collect();
    Some(Split { commands, dynamic: s.dynamic })
}

/// What ends a scan.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    /// The end of the line.
    Line,
    /// The `)` of a `$(`.
    Paren,
    /// The closing backtick.
    Backtick,
}

struct Scanner {
    chars: Vec<char>,
    i: usize,
    /// The commands found so far, as written.
    raw: Vec<String>,
    dynamic: bool,
}

impl Scanner {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    /// The text from `start` to the current position.
    fn since(&self, start: usize) -> String {
        self.chars[start..self.i].iter().collect()
    }

    /// Scan commands until `end`; every command found goes to `raw`.
    fn scan(&mut self, end: End, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut cur = String::new();
        loop {
            let Some(c) = self.bump() else {
                // Only the whole line may end at the end of the text.
                if end != End::Line {
                    return None;
                }
                self.raw.push(cur);
                return Some(());
            };
            match c {
                '\\' => {
                    cur.push(c);
                    cur.extend(self.bump());
                }
                '\'' => {
                    let start = self.i - 1;
                    loop {
                        match self.bump()? {
                            '\'' => break,
                            _ => continue,
                        }
                    }
                    cur.push_str(&self.since(start));
                }
                '"' => {
                    let start = self.i - 1;
                    self.double_quoted(depth)?;
                    cur.push_str(&self.since(start));
                }
                '`' if end == End::Backtick => {
                    self.raw.push(cur);
                    return Some(());
                }
                '`' => {
                    let start = self.i - 1;
                    self.dynamic = true;
                    self.scan(End::Backtick, depth + 1)?;
                    cur.push_str(&self.since(start));
                }
                '$' => {
                    let start = self.i - 1;
                    self.dollar(depth)?;
                    cur.push_str(&self.since(start));
                }
                ')' if end == End::Paren => {
                    self.raw.push(cur);
                    return Some(());
                }
                '&' if cur.ends_with(['>', '<']) || self.peek() == Some('>') => cur.push(c),
                '|' if cur.ends_with('>') => cur.push(c),
                ';' | '\n' | '&' | '|' | '(' | ')' => self.raw.push(std::mem::take(&mut cur)),
                _ => cur.push(c),
            }
        }
    }

    /// After an opening `"`: up to and including the closing one.
    fn double_quoted(&mut self, depth: usize) -> Option<()> {
        loop {
            match self.bump()? {
                '"' => return Some(()),
                '\\' => {
                    self.bump()?;
                }
                '`' => {
                    self.dynamic = true;
                    self.scan(End::Backtick, depth + 1)?;
                }
                '$' => self.dollar(depth)?,
                _ => {}
            }
        }
    }

    /// After a `$`: a substitution `$(…)` is scanned; `$NAME`, `${…}` and
    /// the special parameters only make the line dynamic.
    fn dollar(&mut self, depth: usize) -> Option<()> {
        match self.peek() {
            Some('(') => {
                self.i += 1;
                self.dynamic = true;
                self.scan(End::Paren, depth + 1)
            }
            Some(c)
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '{' | '@' | '*' | '#' | '?' | '$' | '!' | '-') =>
            {
                self.dynamic = true;
                Some(())
            }
            _ => Some(()),
        }
    }
}

/// Shell keywords that can start a command's text without being its name.
const KEYWORDS: &[&str] =
    &["if", "then", "elif", "else", "while", "until", "do", "!", "{", "}", "fi", "done", "esac", "time"];

/// A command as written → its text for matching.
fn command(raw: &str) -> Command {
    let mut rest = raw.trim();
    loop {
        let before = rest;
        if let Some(after) = strip_assignment(rest) {
            rest = after.trim_start();
        }
        for k in KEYWORDS {
            if let Some(after) = rest.strip_prefix(k) {
                if after.is_empty() || after.starts_with(char::is_whitespace) {
                    rest = after.trim_start();
                }
            }
        }
        if rest == before {
            break;
        }
    }
    let text = rest.trim_end().to_owned();
    let dynamic_name = text.starts_with(['$', '`']) || text.starts_with("\"$") || text.starts_with("\"`");
    Command { text, dynamic_name }
}

/// `NAME=value rest` → `rest` (the value may be quoted); `None` when the
/// text does not start with an assignment.
fn strip_assignment(text: &str) -> Option<&str> {
    let name_len = text.find('=')?;
    let name = &text[..name_len];
    let mut chars = name.chars();
    let first = chars.next()?;
    if !(first.is_ascii_alphabetic() || first == '_') || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    // The value runs to the first whitespace outside quotes.
    let value = &text[name_len + 1..];
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in value.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (Some('\''), '\'') => quote = None,
            (Some('\''), _) => {}
            (_, '\\') => escaped = true,
            (Some('"'), '"') => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, c) if c.is_whitespace() => return Some(&value[i..]),
            _ => {}
        }
    }
    Some("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<String> {
        split(line).unwrap_or_else(|| panic!("{line:?} did not parse")).commands.into_iter().map(|c| c.text).collect()
    }

    fn non_empty(line: &str) -> Vec<String> {
        texts(line).into_iter().filter(|t| !t.is_empty()).collect()
    }

    #[test]
    fn every_separator_outside_quotes_ends_a_command() {
        assert_eq!(non_empty("npm test && git push"), ["npm test", "git push"]);
        assert_eq!(non_empty("a || b; c | d & e\nf"), ["a", "b", "c", "d", "e", "f"]);
        assert_eq!(non_empty("(cd x && rm y)"), ["cd x", "rm y"]);
        assert_eq!(non_empty("a |& b"), ["a", "b"]);
    }

    #[test]
    fn separators_inside_quotes_do_not_split() {
        assert_eq!(non_empty("echo 'a && rm -rf /' \"b; c\""), ["echo 'a && rm -rf /' \"b; c\""]);
        assert_eq!(non_empty(r"echo a\;b \&\& c"), [r"echo a\;b \&\& c"]);
    }

    #[test]
    fn redirections_are_not_separators() {
        assert_eq!(non_empty("make 2>&1 &>/dev/null >| out"), ["make 2>&1 &>/dev/null >| out"]);
    }

    #[test]
    fn leading_assignments_and_keywords_are_stripped() {
        assert_eq!(non_empty("FOO=bar git push"), ["git push"]);
        assert_eq!(non_empty("A=1 B='x y' C=\"$(date)\" rm -rf x"), ["date", "rm -rf x"]);
        assert_eq!(non_empty("if true; then rm x; fi"), ["true", "rm x"]);
        assert_eq!(non_empty("git --x=y"), ["git --x=y"], "an option with = is no assignment");
        assert_eq!(non_empty("FOO=bar"), Vec::<String>::new(), "only an assignment");
    }

    #[test]
    fn commands_inside_substitutions_are_split_too() {
        assert_eq!(non_empty("echo $(rm -rf /)"), ["rm -rf /", "echo $(rm -rf /)"]);
        assert_eq!(non_empty("echo `rm -rf /`"), ["rm -rf /", "echo `rm -rf /`"]);
        assert_eq!(non_empty("echo \"$(a && b)\""), ["a", "b", "echo \"$(a && b)\""]);
        assert_eq!(non_empty("x $(y $(z; w))"), ["z", "w", "y $(z; w)", "x $(y $(z; w))"]);
    }

    #[test]
    fn dynamic_parts_are_noticed_outside_single_quotes() {
        assert!(split("echo $(date)").unwrap().dynamic);
        assert!(split("echo `date`").unwrap().dynamic);
        assert!(split("echo $HOME ${X}").unwrap().dynamic);
        assert!(split("echo \"$HOME\"").unwrap().dynamic);
        assert!(!split("echo '$HOME' \\$x price$").unwrap().dynamic);
        assert!(split("$CMD -rf /").unwrap().commands[0].dynamic_name);
        assert!(!split("rm $X").unwrap().commands[0].dynamic_name);
    }

    #[test]
    fn unterminated_quotes_and_substitutions_do_not_parse() {
        for line in ["echo 'a", "echo \"a", "echo $(a", "echo `a", "echo \"$(a\"", "x $(y `z)"] {
            assert!(split(line).is_none(), "{line:?}");
        }
        let deep = "$(".repeat(MAX_DEPTH + 2) + &")".repeat(MAX_DEPTH + 2);
        assert!(split(&deep).is_none());
    }

    #[test]
    fn there_are_never_fewer_commands_than_separators_plus_one() {
        for line in ["a;b", ";;;", "a && b || c", "|", "a\n\nb", "(a)", "a & b &", "x | c"] {
            let separators = line.chars().filter(|c| matches!(c, ';' | '|' | '&' | '\n' | '(' | ')')).count();
            assert_eq!(split(line).unwrap().commands.len(), separators + 1, "{line:?}");
        }
        // A substitution's separators give commands of their own, and the
        // command around it stays one.
        assert_eq!(split("x $(a;b) | c").unwrap().commands.len(), 4);
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let alphabet = ['a', ' ', '\'', '"', '\\', '$', '(', ')', '`', ';', '|', '&', '=', '>', '<', '\n', '{', 'é'];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let mut line = String::new();
            for _ in 0..(x % 24) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                line.push(alphabet[(x % alphabet.len() as u64) as usize]);
            }
            let parsed = split(&line);
            if !line.chars().any(|c| matches!(c, '\'' | '"' | '\\' | '`' | '$' | '<' | '>')) {
                let separators = line.chars().filter(|c| matches!(c, ';' | '|' | '&' | '\n' | '(' | ')')).count();
                assert_eq!(parsed.map(|s| s.commands.len()), Some(separators + 1), "{line:?}");
            }
        }
    }
}
