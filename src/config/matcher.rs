//! A compiled matcher of a hook group and its generic matching: which
//! subjects it matches and how it reads in words. How a dialect's matcher
//! text compiles into one (its rule) is the dialect's
//! ([`crate::dialect::matcher`]).

/// A compiled matcher.
#[derive(Clone, Debug)]
pub enum Matcher {
    /// Matches every subject (absent, `""` or `"*"`).
    All,
    /// Claude dialect: exact, case-sensitive names.
    Names(Vec<String>),
    /// A regular expression (anchored `^(?:P)$` in the VT Code dialect,
    /// unanchored in the Claude dialect).
    Regex(regex::Regex),
    /// Claude-format names (Copilot CLI, PascalCase tool events): a name
    /// matches the subject itself or one of its aliases.
    AliasNames(Vec<String>, Aliases),
    /// Claude-format regex (Copilot CLI, PascalCase tool events), tested
    /// against the subject's first alias (the subject when it has none).
    AliasRegex(regex::Regex, Aliases),
    /// Exact names or a regular expression (Qwen Code): the subject, or
    /// one of its aliases, equal to one of the names; else the unanchored
    /// regular expression (`None`: it did not compile, no further match)
    /// found in the subject alone (aliases are exact-only).
    ExactOrRegex(Vec<String>, Option<regex::Regex>, Aliases),
}

/// The other names of a subject (Copilot CLI: the Claude names of a runtime
/// tool name).
pub type Aliases = fn(&str) -> &'static [&'static str];

/// Longest matcher pattern accepted (bytes). Real matchers are tool-name
/// alternations of a few hundred bytes at most; compiling a regex costs
/// hundreds of bytes of memory per pattern byte, so an unbounded pattern
/// (from a hostile repository's config, parsed before approval) could
/// exhaust the host.
pub const MAX_PATTERN_BYTES: usize = 8 * 1024;

/// Compiled-size budget of one matcher regex (and of each of its lazy DFA
/// caches). A pattern such as `\w{100}` that would compile to megabytes is
/// rejected as an invalid matcher instead of stalling the host.
pub const MAX_COMPILED_BYTES: usize = 256 * 1024;

pub(crate) fn compile(pattern: &str) -> Result<regex::Regex, regex::Error> {
    if pattern.len() > MAX_PATTERN_BYTES {
        return Err(regex::Error::Syntax(format!(
            "matcher pattern is {} bytes long; at most {MAX_PATTERN_BYTES} are accepted",
            pattern.len()
        )));
    }
    regex::RegexBuilder::new(pattern).size_limit(MAX_COMPILED_BYTES).dfa_size_limit(MAX_COMPILED_BYTES).build()
}

impl Matcher {
    /// A matcher for subjects that contain `text` literally.
    pub fn substring(text: &str) -> Result<Matcher, regex::Error> {
        Ok(Matcher::Regex(compile(&regex::escape(text))?))
    }

    /// Whether `subject` matches (case-sensitive).
    pub fn matches(&self, subject: &str) -> bool {
        match self {
            Matcher::All => true,
            Matcher::Names(names) => names.iter().any(|n| n == subject),
            Matcher::Regex(re) => re.is_match(subject),
            Matcher::AliasNames(names, aliases) => {
                let other = aliases(subject);
                names.iter().any(|n| n == subject || other.contains(&n.as_str()))
            }
            Matcher::AliasRegex(re, aliases) => re.is_match(aliases(subject).first().copied().unwrap_or(subject)),
            Matcher::ExactOrRegex(names, re, aliases) => {
                let other = aliases(subject);
                names.iter().any(|n| n == subject || other.contains(&n.as_str()))
                    || re.as_ref().is_some_and(|re| re.is_match(subject))
            }
        }
    }

    /// Whether a subject as returned by `match_subject` matches: `None`
    /// (the event ignores matchers) always matches.
    pub fn matches_subject(&self, subject: Option<&str>) -> bool {
        match subject {
            None => true,
            Some(s) => self.matches(s),
        }
    }

    /// This matcher in words: `title` is the dialect's name for people,
    /// `anchored` whether its regular expressions are anchored.
    pub fn describe(&self, title: &str, anchored: bool, raw: Option<&str>) -> String {
        match self {
            Matcher::All => match raw {
                None => "no matcher: matches everything".to_owned(),
                Some(r) => format!("matcher {r:?}: matches everything"),
            },
            Matcher::Names(names) => format!(
                "{title} exact tool name{} {}",
                if names.len() == 1 { "" } else { "s" },
                names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(" | ")
            ),
            Matcher::Regex(re) if anchored => format!("{title} regex, anchored: {}", re.as_str()),
            Matcher::Regex(re) => format!("{title} regex, unanchored: {}", re.as_str()),
            Matcher::AliasNames(names, _) => format!(
                "{title} Claude-format tool name{} {} (runtime or Claude name)",
                if names.len() == 1 { "" } else { "s" },
                names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(" | ")
            ),
            Matcher::AliasRegex(re, _) => {
                format!("{title} Claude-format regex, anchored, tested against the Claude tool name: {}", re.as_str())
            }
            Matcher::ExactOrRegex(names, re, _) => format!(
                "{title} exact value{} {} (or an alias), else {}",
                if names.len() == 1 { "" } else { "s" },
                names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(" | "),
                match re {
                    Some(re) => format!("regex, unanchored: {}", re.as_str()),
                    None => "nothing (not a valid regex)".to_owned(),
                }
            ),
        }
    }

    /// Whether this matcher matches everything.
    pub fn is_all(&self) -> bool {
        matches!(self, Matcher::All)
    }
}
