//! Matchers: which configured hook groups run for an event (the matcher
//! rules of the dialects, `docs/protocol.md`). A dialect picks its rule when
//! it reads its config; what each event's matcher is tested against is the
//! dialect's `match_subject`(crate::dialect::Dialect::match_subject).
//!
//! The rules:
//!
//! - **VT Code dialect** ([`Matcher::vtcode`]): the pattern is trimmed;
//!   absent, `""` or `"*"` match everything; anything else is a regular
//!   expression anchored as `^(?:P)$` (so `Edit` does not match
//!   `NotebookEdit`).
//! - **Claude Code dialect** ([`Matcher::claude`], also used for callback
//!   hooks): absent, `""` or `"*"` match everything; a value made only of
//!   letters, digits, `_`, `-`, space, `,` and `|` is an exact tool name or a
//!   list of names split on `|` and `,` (elements trimmed, empty elements
//!   dropped); anything else is an unanchored regular expression
//!   (`.*Edit` matches `NotebookEdit`).
//! - **Copilot CLI** ([`Matcher::anchored`]): the pattern exactly as written
//!   is the regular expression `^(?:P)$`, with no special case (`*` alone
//!   is an invalid expression); absent matches everything. Entries under
//!   PascalCase keys of tool events use **Claude-format matchers**
//!   ([`Matcher::claude_format`]): absent, `""`, `*` or `**` match
//!   everything; a value made only of letters, digits, `_` and `|` is a
//!   list of names, each compared with the runtime tool name and with its
//!   Claude names; anything else is `^(?:P)$` tested against the tool's
//!   first Claude name (its runtime name when it has none).
//! - **Codex dialect** ([`Matcher::codex`]): absent, `""` or `"*"` match
//!   everything; a value made only of ASCII letters, digits, `_` and `|`
//!   is an exact name or a `|` list of names (nothing trimmed); anything
//!   else is an unanchored regular expression used as written.
//! - **Gemini CLI dialect**: absent, blank (after trimming) or `"*"` match
//!   everything. Tool events ([`Matcher::gemini_tool`]): the trimmed
//!   matcher is an unanchored regular expression (`"Edit|Write"` matches
//!   `WriteTool`), and a matcher that does not compile as one is compared
//!   with the tool name exactly. SessionStart, SessionEnd and PreCompress
//!   ([`Matcher::gemini_exact`]): the trimmed matcher is compared exactly
//!   (`"startup|resume"` matches nothing).
//! - **Cursor dialect** ([`Matcher::search`]): absent, `""` or `"*"` match
//!   everything; anything else, untrimmed (`"nc "` keeps its space), is an
//!   unanchored regular expression searched for in the subject (`curl|wget`
//!   matches every command containing either). A pattern that is not a
//!   valid regular expression is a literal text searched for
//!   ([`Matcher::substring`]), with a warning.
//! - Matching is case-sensitive in every dialect.
//!
//! Choices the hooks protocols leave open (documented here on purpose):
//!
//! - A Claude matcher is trimmed before it is classified, so `" * "` and
//!   `"  "` match everything and `"mcp__.* "` is the regex `mcp__.*`.
//! - A Claude name list whose elements are all empty (e.g. `"|"` or `",,"`)
//!   matches nothing, as in Claude Code.
//! - When the field a matcher is tested against is missing from the input
//!   (the engine validates inputs first, so this should not happen), the
//!   subject is the empty string: only match-all matchers (and regexes that
//!   accept `""`) run.

use crate::config::matcher::compile;
use crate::config::matcher::{Aliases, Matcher};

/// Whether `c` is whitespace to JavaScript's `String.prototype.trim`: its
/// WhiteSpace (tab, vertical tab, form feed, space, no-break space, the
/// BOM and every other space separator) and LineTerminator (line feed,
/// carriage return, the line and paragraph separators). Unlike Rust's
/// whitespace it does not include U+0085 (next line).
pub(crate) fn js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// JavaScript's `String.prototype.trim`.
pub(crate) fn js_trim(s: &str) -> &str {
    s.trim_matches(js_whitespace)
}

/// Why JavaScript's `new RegExp(pattern)` (no flags) throws on a pattern
/// this engine's regular expressions accept: a group opened with `(?`
/// that is not `(?:`, a lookaround, a named group `(?<name>` or a modifier
/// group `(?ims-ims:` — Rust's inline flags `(?i)`, `(?x)`, `(?U)` and
/// its `(?P<name>` groups. `None` when JavaScript takes it.
fn js_rejects(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class && chars.get(i + 1) == Some(&'?') => {
                let rest: String = chars[i + 2..].iter().collect();
                let modifiers = {
                    let flags: String = rest.chars().take_while(|c| matches!(c, 'i' | 'm' | 's' | '-')).collect();
                    !flags.is_empty() && flags.matches('-').count() <= 1 && rest[flags.len()..].starts_with(':')
                };
                let ok = rest.starts_with([':', '=', '!'])
                    || rest.starts_with("<=")
                    || rest.starts_with("<!")
                    || (rest.starts_with('<')
                        && rest[1..].starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$'))
                    || modifiers;
                if !ok {
                    return Some(format!(
                        "`(?{}` is not a group JavaScript regular expressions accept",
                        rest.chars().take(2).collect::<String>()
                    ));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The dialects' matcher rules (the generic matching is
/// [`crate::config::matcher`]'s).
impl Matcher {
    /// Compile a matcher with the VT Code rule: the pattern is trimmed;
    /// `None`, `""` and `"*"` match all; anything else is the regular
    /// expression `^(?:P)$`.
    pub fn vtcode(raw: Option<&str>) -> Result<Matcher, regex::Error> {
        let Some(p) = raw.map(str::trim) else {
            return Ok(Matcher::All);
        };
        if p.is_empty() || p == "*" {
            return Ok(Matcher::All);
        }
        Ok(Matcher::Regex(compile(&format!("^(?:{p})$"))?))
    }

    /// Compile a matcher with the Claude Code rule: `None`, `""` and `"*"`
    /// match all; a value made only of `[A-Za-z0-9_\- ,|]` is a list of exact
    /// names split on `|` and `,` (trimmed, empty elements dropped);
    /// anything else is an unanchored regular expression.
    pub fn claude(raw: Option<&str>) -> Result<Matcher, regex::Error> {
        let Some(p) = raw.map(str::trim) else {
            return Ok(Matcher::All);
        };
        if p.is_empty() || p == "*" {
            return Ok(Matcher::All);
        }
        let is_name_list = p.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ',' | '|'));
        if is_name_list {
            let names = p.split(['|', ',']).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect();
            return Ok(Matcher::Names(names));
        }
        Ok(Matcher::Regex(compile(p)?))
    }

    /// Compile a matcher with Copilot CLI's native rule: `None` matches
    /// all; anything else, exactly as written, is the regular expression
    /// `^(?:P)$` (so `*` alone is invalid, as it is for Copilot CLI).
    pub fn anchored(raw: Option<&str>) -> Result<Matcher, regex::Error> {
        match raw {
            None => Ok(Matcher::All),
            Some(p) => Ok(Matcher::Regex(compile(&format!("^(?:{p})$"))?)),
        }
    }

    /// Compile a Claude-format matcher the way Copilot CLI applies it to
    /// PascalCase tool events: `None`, `""`, `"*"` and `"**"` match all; a
    /// value made only of `[A-Za-z0-9_|]` is a list of names split on `|`,
    /// each compared with the subject and its `aliases`; anything else is
    /// `^(?:P)$` tested against the subject's first alias.
    pub fn claude_format(raw: Option<&str>, aliases: Aliases) -> Result<Matcher, regex::Error> {
        let Some(p) = raw else {
            return Ok(Matcher::All);
        };
        if p.is_empty() || p == "*" || p == "**" {
            return Ok(Matcher::All);
        }
        if p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|') {
            let names = p.split('|').filter(|s| !s.is_empty()).map(str::to_owned).collect();
            return Ok(Matcher::AliasNames(names, aliases));
        }
        Ok(Matcher::AliasRegex(compile(&format!("^(?:{p})$"))?, aliases))
    }

    /// Compile a matcher with Claude Code's narrower rule for FileChanged
    /// and StopFailure: like [`Matcher::claude`], but only letters, digits,
    /// `_` and `|` make a name list (split on `|` only); a hyphen, space or
    /// comma keeps the matcher on the regular-expression path.
    pub fn claude_narrow(raw: Option<&str>) -> Result<Matcher, regex::Error> {
        let Some(p) = raw.map(str::trim) else {
            return Ok(Matcher::All);
        };
        if p.is_empty() || p == "*" {
            return Ok(Matcher::All);
        }
        if p.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '|')) {
            let names = p.split('|').filter(|s| !s.is_empty()).map(str::to_owned).collect();
            return Ok(Matcher::Names(names));
        }
        Ok(Matcher::Regex(compile(p)?))
    }

    /// Compile a matcher with the Codex rule: `None`, `""` and `"*"` match
    /// all; a value made only of ASCII letters, digits, `_` and `|` is a
    /// list of exact names split on `|` (never trimmed: `"Edit|Write"`,
    /// `"mcp__memory"` does not match `mcp__memory__create`); anything else
    /// is an unanchored regular expression, used as written (`" Bash"`
    /// needs the space, `"Edit, Write"` is a regex).
    pub fn codex(raw: Option<&str>) -> Result<Matcher, regex::Error> {
        let Some(p) = raw else {
            return Ok(Matcher::All);
        };
        if p.is_empty() || p == "*" {
            return Ok(Matcher::All);
        }
        if p.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '|')) {
            return Ok(Matcher::Names(p.split('|').map(str::to_owned).collect()));
        }
        Ok(Matcher::Regex(compile(p)?))
    }

    /// Compile a Gemini CLI tool-event matcher: trimmed; `None`, `""` and
    /// `"*"` match all; otherwise an unanchored regular expression, or, when
    /// it does not compile, the exact (trimmed) name. The compile error is
    /// returned alongside, for the config's warnings (Gemini CLI compiles
    /// JavaScript regular expressions, which accept lookaround and
    /// backreferences this engine does not).
    pub fn gemini_tool(raw: Option<&str>) -> (Matcher, Option<regex::Error>) {
        let Some(p) = raw.map(js_trim) else {
            return (Matcher::All, None);
        };
        if p.is_empty() || p == "*" {
            return (Matcher::All, None);
        }
        let compiled = match js_rejects(p) {
            Some(why) => Err(regex::Error::Syntax(why)),
            None => compile(p),
        };
        match compiled {
            Ok(re) => (Matcher::Regex(re), None),
            Err(e) => (Matcher::Names(vec![p.to_owned()]), Some(e)),
        }
    }

    /// Compile a Gemini CLI matcher of SessionStart, SessionEnd or
    /// PreCompress: trimmed; `None`, `""` and `"*"` match all; anything else
    /// is one exact value (no list, no regex).
    pub fn gemini_exact(raw: Option<&str>) -> Matcher {
        match raw.map(js_trim) {
            None | Some("" | "*") => Matcher::All,
            Some(p) => Matcher::Names(vec![p.to_owned()]),
        }
    }

    /// Compile a Qwen Code matcher (its `hook-matcher.ts`): trimmed;
    /// `None`, `""`, `"*"` and `".*"` match all; the whole matcher equal to
    /// the subject or one of its `aliases` matches; unless it starts with
    /// `^` or `(`, a matcher with an unescaped `|` is a list whose trimmed
    /// entries each match exactly (an entry `*` or `.*` matches all), and
    /// whose non-empty entries joined with `|` are the regular expression;
    /// otherwise the matcher is the regular expression, unanchored and
    /// tested against the subject only. A regular expression that does not
    /// compile matches nothing further; its error is returned alongside
    /// for the config's warnings.
    pub fn qwen(raw: Option<&str>, aliases: Aliases) -> (Matcher, Option<regex::Error>) {
        let Some(p) = raw.map(js_trim) else {
            return (Matcher::All, None);
        };
        if matches!(p, "" | "*" | ".*") {
            return (Matcher::All, None);
        }
        let mut names = vec![p.to_owned()];
        let mut expression = p.to_owned();
        if p.contains('|') && !p.starts_with('^') && !p.starts_with('(') {
            let mut entries = Vec::new();
            let mut current = String::new();
            let mut previous = None;
            for c in p.chars() {
                if c == '|' && previous != Some('\\') {
                    entries.push(std::mem::take(&mut current));
                } else {
                    current.push(c);
                }
                previous = Some(c);
            }
            entries.push(current);
            let entries: Vec<String> =
                entries.iter().map(|e| js_trim(e)).filter(|e| !e.is_empty()).map(str::to_owned).collect();
            if entries.iter().any(|e| e == "*" || e == ".*") {
                return (Matcher::All, None);
            }
            if entries.is_empty() {
                return (Matcher::ExactOrRegex(names, None, aliases), None);
            }
            expression = entries.join("|");
            names.extend(entries);
        }
        let compiled = match js_rejects(&expression) {
            Some(why) => Err(regex::Error::Syntax(why)),
            None => compile(&expression),
        };
        match compiled {
            Ok(re) => (Matcher::ExactOrRegex(names, Some(re), aliases), None),
            Err(e) => (Matcher::ExactOrRegex(names, None, aliases), Some(e)),
        }
    }

    /// Compile a matcher with the Cursor rule: `None`, `""` and `"*"`
    /// match all; anything else (untrimmed) is an unanchored regular
    /// expression searched for in the subject.
    pub fn search(raw: Option<&str>) -> Result<Matcher, regex::Error> {
        match raw {
            None | Some("") | Some("*") => Ok(Matcher::All),
            Some(p) => Ok(Matcher::Regex(compile(p)?)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vt(p: &str) -> Matcher {
        Matcher::vtcode(Some(p)).unwrap()
    }
    fn cl(p: &str) -> Matcher {
        Matcher::claude(Some(p)).unwrap()
    }

    #[test]
    fn vtcode_absent_empty_and_star_match_all() {
        for m in [Matcher::vtcode(None).unwrap(), vt(""), vt("*"), vt("  * "), vt("   ")] {
            assert!(m.is_all(), "{m:?}");
            assert!(m.matches("Bash"));
            assert!(m.matches(""));
        }
    }

    #[test]
    fn vtcode_matcher_is_anchored_edit_does_not_match_notebook_edit() {
        let m = vt("Edit");
        assert!(m.matches("Edit"));
        assert!(!m.matches("NotebookEdit"));
        assert!(!m.matches("EditFile"));
    }

    #[test]
    fn javascript_trim_and_group_syntax() {
        assert_eq!(js_trim("\u{feff}\u{3000} x\u{2028}\n"), "x");
        assert_eq!(js_trim("x\u{85}"), "x\u{85}", "NEL is not JavaScript whitespace");
        assert!(js_rejects("(?i)Edit").is_some());
        assert!(js_rejects("(?P<n>Edit)").is_some());
        assert!(js_rejects("(?x) a").is_some());
        for ok in ["(?:a|b)", "a(?=b)", "(?!x)", "(?<=a)b", "(?<!a)b", "(?<name>x)", "(?i:x)", "[(?i)]", r"\(?i\)"] {
            assert_eq!(js_rejects(ok), None, "{ok}");
        }
        let (m, e) = Matcher::gemini_tool(Some("(?i)edit"));
        assert!(e.is_some() && m.matches("(?i)edit") && !m.matches("EDIT") && !m.matches("edit"));
    }

    #[test]
    fn vtcode_matcher_is_trimmed() {
        let m = vt("  Bash  ");
        assert!(m.matches("Bash"));
        assert!(!m.matches(" Bash"));
    }

    #[test]
    fn vtcode_alternation_is_anchored_as_a_whole() {
        let m = vt("Bash|Edit");
        assert!(m.matches("Bash"));
        assert!(m.matches("Edit"));
        assert!(!m.matches("NotebookEdit"));
        assert!(!m.matches("Bashful"));
    }

    #[test]
    fn vtcode_regex_mcp_prefix() {
        let m = vt("mcp__.*");
        assert!(m.matches("mcp__github__create_issue"));
        assert!(!m.matches("xmcp__a"));
    }

    #[test]
    fn vtcode_matching_is_case_sensitive() {
        assert!(!vt("bash").matches("Bash"));
        assert!(!vt("Bash").matches("BASH"));
    }

    #[test]
    fn vtcode_invalid_regex_is_an_error() {
        assert!(Matcher::vtcode(Some("(")).is_err());
        assert!(Matcher::vtcode(Some("[a-")).is_err());
    }

    #[test]
    fn claude_absent_empty_and_star_match_all() {
        for m in [Matcher::claude(None).unwrap(), cl(""), cl("*"), cl(" * "), cl("  ")] {
            assert!(m.is_all(), "{m:?}");
            assert!(m.matches("anything"));
        }
    }

    #[test]
    fn claude_plain_name_is_exact_edit_does_not_match_notebook_edit() {
        let m = cl("Edit");
        assert!(matches!(m, Matcher::Names(_)));
        assert!(m.matches("Edit"));
        assert!(!m.matches("NotebookEdit"));
    }

    #[test]
    fn claude_regex_dot_star_edit_matches_notebook_edit() {
        let m = cl(".*Edit");
        assert!(matches!(m, Matcher::Regex(_)));
        assert!(m.matches("NotebookEdit"));
        assert!(m.matches("Edit"));
        assert!(!m.matches("Bash"));
    }

    #[test]
    fn claude_pipe_and_comma_lists_are_exact_names_trimmed() {
        let m = cl("Bash|Edit");
        assert!(m.matches("Bash") && m.matches("Edit"));
        assert!(!m.matches("NotebookEdit") && !m.matches("Bash|Edit"));
        let m = cl(" Bash , Edit ,, Write| ");
        match &m {
            Matcher::Names(n) => assert_eq!(n, &["Bash", "Edit", "Write"]),
            other => panic!("expected names, got {other:?}"),
        }
    }

    #[test]
    fn claude_names_with_dash_and_underscore_are_exact() {
        let m = cl("mcp__my-server__tool");
        assert!(matches!(m, Matcher::Names(_)));
        assert!(m.matches("mcp__my-server__tool"));
        assert!(!m.matches("mcp__my-server__tool2"));
    }

    #[test]
    fn claude_regex_is_unanchored() {
        let m = cl("mcp__.*");
        assert!(m.matches("mcp__github__create_issue"));
        assert!(m.matches("xmcp__a"), "unanchored regex finds a match anywhere");
        let m = cl("^Bash$");
        assert!(m.matches("Bash") && !m.matches("Bashful"));
    }

    #[test]
    fn claude_matching_is_case_sensitive() {
        assert!(!cl("bash").matches("Bash"));
        assert!(!cl("Bash|edit").matches("Edit"));
        assert!(!cl("b.sh").matches("Bash"));
    }

    #[test]
    fn claude_list_of_only_separators_matches_nothing() {
        let m = cl("|");
        assert!(!m.matches("Bash"));
        assert!(!m.matches(""));
    }

    #[test]
    fn claude_invalid_regex_is_an_error() {
        assert!(Matcher::claude(Some("(unclosed")).is_err());
    }

    #[test]
    fn matches_subject_none_always_matches() {
        assert!(cl("Bash").matches_subject(None));
        assert!(!cl("Bash").matches_subject(Some("Edit")));
    }
}

#[cfg(test)]
mod copilot_tests {
    use super::*;

    fn aliases(s: &str) -> &'static [&'static str] {
        match s {
            "bash" => &["Bash"],
            "task" => &["Agent", "Task"],
            _ => &[],
        }
    }

    #[test]
    fn copilot_native_matchers_are_anchored_and_star_alone_is_invalid() {
        let m = Matcher::anchored(Some("bash|edit")).unwrap();
        assert!(m.matches("bash") && m.matches("edit"));
        assert!(!m.matches("Bash") && !m.matches("bashful"));
        assert!(Matcher::anchored(Some("*")).is_err());
        assert!(Matcher::anchored(None).unwrap().is_all());
        // Not trimmed: the spaces are part of the pattern.
        assert!(!Matcher::anchored(Some(" bash")).unwrap().matches("bash"));
    }

    #[test]
    fn claude_format_matchers_accept_runtime_and_claude_names() {
        for all in [None, Some(""), Some("*"), Some("**")] {
            assert!(Matcher::claude_format(all, aliases).unwrap().is_all());
        }
        let m = Matcher::claude_format(Some("Bash"), aliases).unwrap();
        assert!(m.matches("bash"), "the Claude name of the runtime tool");
        let m = Matcher::claude_format(Some("bash|Task"), aliases).unwrap();
        assert!(m.matches("bash") && m.matches("task"));
        assert!(!m.matches("edit"));
        let m = Matcher::claude_format(Some("Ba.*"), aliases).unwrap();
        assert!(m.matches("bash"), "a regex is tested against the first Claude name");
        assert!(!Matcher::claude_format(Some("Tas.*"), aliases).unwrap().matches("task"), "Agent is the first");
        assert!(Matcher::claude_format(Some("my_.*"), aliases).unwrap().matches("my_tool"));
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;
    use crate::config::matcher::MAX_PATTERN_BYTES;

    #[test]
    fn oversized_or_explosive_patterns_are_invalid_matchers() {
        let long = format!("({})", ".".repeat(MAX_PATTERN_BYTES + 1));
        assert!(Matcher::vtcode(Some(&long)).is_err());
        assert!(Matcher::claude(Some(&long)).is_err());
        assert!(Matcher::claude(Some(r"\w{100}")).is_err(), "compiles to megabytes");
        // Ordinary matchers stay well within the budget.
        assert!(Matcher::claude(Some("mcp__.*__(read|write)_file")).is_ok());
        assert!(Matcher::vtcode(Some("Bash|Edit|Write|NotebookEdit|mcp__github__.*")).is_ok());
    }
}
