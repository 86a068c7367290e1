//! `if` conditions of Claude Code hooks: Claude Code's permission-rule
//! syntax, tested against one tool call before the hook spawns.
//!
//! | rule | matches |
//! |---|---|
//! | `Bash` | every call of the tool `Bash` (exact, case-sensitive name) |
//! | `Bash(*)`, `Bash()` | the same |
//! | `Bash(git *)` | a Bash call one of whose subcommands matches the glob `git *`: `*` is any text (spaces and `/` included); a trailing ` *` also accepts the bare word (`git`) |
//! | `Bash(npm run test:*)` | the legacy prefix form: a subcommand is `npm run test` or starts with `npm run test ` |
//! | `Edit(*.ts)`, `Read(./src/**)`, `Write(/docs/*.md)` | a file tool whose path (`file_path`, else `notebook_path`, else `path`) matches a gitignore-style pattern: without a `/` it matches the file name at any depth; `./p` and `p/q` are relative to the workspace, `/p` is relative to the workspace root too, `//p` is absolute, `~/p` is under `$HOME`; `*` stays within one path segment, `**` spans segments, `?` is one character |
//! | `WebFetch(domain:example.com)` | a WebFetch whose `url`'s host is `example.com` or a subdomain of it |
//! | `mcp__server__tool` | that MCP tool; `mcp__server` and `mcp__server__*` match every tool of the server |
//! | `Tool(pattern)` for other tools | the glob against the first string among `command`, `file_path`, `notebook_path`, `path`, `url`, `pattern`, `query` in `tool_input` |
//!
//! Bash patterns are matched against each subcommand of the command, as
//! Claude Code's reference says ([`crate::bash`] splits the line):
//!
//! | `if` pattern | Bash command | hook runs? | why |
//! |---|---|---|---|
//! | `Bash(git *)` | `FOO=bar git push` | yes | "leading assignments are stripped; `git push` matches" |
//! | `Bash(git *)` | `npm test && git push` | yes | "each subcommand is checked" (`&&`, `\|\|`, `;`, `\|`, `&`, newlines, subshells) |
//! | `Bash(rm *)` | `echo $(rm -rf /)` | yes | "commands inside `$()` and backticks are checked" |
//! | `Bash(rm *)` | `echo $(date)` | no | "no subcommand matches `rm *`" |
//! | `Bash(git push *)` | `echo $(date)` | yes | "patterns that specify more than the command name run the hook anyway on `$()`, backticks, or `$VAR`" |
//! | any content | a line that cannot be parsed (an unclosed quote or substitution) | yes | "The filter also fails open ... when the Bash command can't be parsed" |
//! | any content | a subcommand whose name is `$VAR` or a substitution (`$(which rm) -rf /`) | yes | hookline's choice: the name is unknown until the shell runs it, so the filter fails open |
//!
//! Choices where Claude Code's reference is silent (documented here):
//! - A condition is only true for a tool call; on events without a tool
//!   (SessionStart, Stop, ...) a hook with `if` never runs.
//! - A pattern "specifies more than the command name" when more than its
//!   first word remains once a trailing ` *` or `:*` is removed
//!   (`git push *`, `rm -rf *`, `npm run test:*`; not `rm *` or `git*`).
//! - A tool call without the field a pattern needs does not match.
//! - A relative file path in `tool_input` is taken relative to the workspace.

use std::path::{Component, Path, PathBuf};

use serde_json::Value;

/// A parsed `if` condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    raw: String,
    tool: ToolPattern,
    content: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ToolPattern {
    /// An exact tool name.
    Exact(String),
    /// Every tool of an MCP server: names starting with `mcp__<server>__`.
    McpServer(String),
}

/// Tools whose rule content is a file path.
const FILE_TOOLS: &[&str] =
    &["Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "NotebookRead", "Glob", "Grep", "LS"];

impl Rule {
    /// Parse a rule. Errors name what is wrong (an empty rule, a tool name
    /// with characters other than letters, digits, `_` and `-`, unbalanced
    /// parentheses).
    pub fn parse(raw: &str) -> Result<Rule, String> {
        let text = raw.trim();
        if text.is_empty() {
            return Err("an `if` condition must not be empty".into());
        }
        let (name, content) = match text.find('(') {
            None => (text, None),
            Some(open) => {
                if !text.ends_with(')') {
                    return Err(format!("`if` condition {text:?} has no closing parenthesis"));
                }
                let inner = &text[open + 1..text.len() - 1];
                let inner = inner.trim();
                let content = if inner.is_empty() || inner == "*" { None } else { Some(inner.to_owned()) };
                (text[..open].trim_end(), content)
            }
        };
        let valid_name =
            |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let tool = if let Some(server) = name.strip_prefix("mcp__") {
            let server_only = server.strip_suffix("__*").unwrap_or(server);
            if !server_only.contains("__") {
                if !valid_name(server_only) {
                    return Err(format!("`if` condition {text:?} has an invalid MCP server name"));
                }
                ToolPattern::McpServer(server_only.to_owned())
            } else if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                ToolPattern::Exact(name.to_owned())
            } else {
                return Err(format!("`if` condition {text:?} has an invalid tool name"));
            }
        } else if valid_name(name) {
            ToolPattern::Exact(name.to_owned())
        } else {
            return Err(format!("`if` condition {text:?} must look like Tool or Tool(pattern)"));
        };
        Ok(Rule { raw: raw.to_owned(), tool, content })
    }

    /// The rule exactly as written.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// Whether a tool call matches. `tool_name` `None` (an event without a
    /// tool) never matches; `workspace` resolves relative paths.
    pub fn matches(&self, tool_name: Option<&str>, tool_input: Option<&Value>, workspace: &Path) -> bool {
        let Some(tool_name) = tool_name else {
            return false;
        };
        let tool_ok = match &self.tool {
            ToolPattern::Exact(name) => name == tool_name,
            ToolPattern::McpServer(server) => tool_name
                .strip_prefix("mcp__")
                .and_then(|rest| rest.strip_prefix(server.as_str()))
                .is_some_and(|rest| rest.is_empty() || rest.starts_with("__")),
        };
        if !tool_ok {
            return false;
        }
        let Some(pattern) = &self.content else {
            return true;
        };
        let field = |key: &str| tool_input.and_then(|i| i.get(key)).and_then(Value::as_str);
        if tool_name == "Bash" {
            return field("command").is_some_and(|command| bash_line_matches(pattern, command));
        }
        if tool_name == "WebFetch" {
            if let Some(domain) = pattern.strip_prefix("domain:") {
                return field("url").and_then(host_of).is_some_and(|host| {
                    let domain = domain.trim().to_ascii_lowercase();
                    host == domain || host.ends_with(&format!(".{domain}"))
                });
            }
        }
        if FILE_TOOLS.contains(&tool_name) {
            let path = field("file_path").or_else(|| field("notebook_path")).or_else(|| field("path"));
            return path.is_some_and(|p| path_matches(pattern, p, workspace));
        }
        ["command", "file_path", "notebook_path", "path", "url", "pattern", "query"]
            .iter()
            .find_map(|k| field(k))
            .is_some_and(|text| glob(pattern.as_bytes(), text.as_bytes(), true))
    }
}

/// A Bash command line against a rule's content: any subcommand matches;
/// fails open (true) when the line cannot be parsed, when a subcommand's
/// name is dynamic, and when the pattern names more than a command and the
/// line has a part only the shell knows.
fn bash_line_matches(pattern: &str, line: &str) -> bool {
    let Some(split) = crate::bash::split(line) else {
        return true;
    };
    if split.dynamic && names_more_than_the_command(pattern) {
        return true;
    }
    split.commands.iter().filter(|c| !c.text.is_empty()).any(|c| c.dynamic_name || bash_matches(pattern, &c.text))
}

/// Whether a Bash pattern says more than the command name (`git push *`,
/// not `git *`).
fn names_more_than_the_command(pattern: &str) -> bool {
    let p = pattern.trim();
    let p = p.strip_suffix(":*").or_else(|| p.strip_suffix(" *")).unwrap_or(p);
    p.split_whitespace().count() > 1
}

/// One simple command against a rule's content.
fn bash_matches(pattern: &str, command: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(":*") {
        let prefix = prefix.trim_end();
        return command == prefix || command.starts_with(&format!("{prefix} "));
    }
    if let Some(word) = pattern.strip_suffix(" *") {
        if command == word.trim_end() {
            return true;
        }
    }
    glob(pattern.as_bytes(), command.as_bytes(), true)
}

/// A glob: `*` any run of characters (across `/` when `cross_slash`), `**`
/// any run including `/`, `?` one character; everything else literal.
fn glob(pattern: &[u8], text: &[u8], cross_slash: bool) -> bool {
    // Iterative matcher that backtracks to the last star (and, when that
    // star cannot cross a `/`, to the last `**`): no recursion, O(len²) at
    // worst, since patterns come from untrusted configurations.
    let (mut p, mut t) = (0usize, 0usize);
    let mut star: Option<(usize, usize, bool)> = None; // (pattern after the star, text index, crosses '/')
    let mut double: Option<(usize, usize)> = None; // the last `**`
    loop {
        if t == text.len() {
            while p < pattern.len() && pattern[p] == b'*' {
                p += 1;
            }
            if p == pattern.len() {
                return true;
            }
        } else if p < pattern.len() && pattern[p] == b'*' {
            let is_double = p + 1 < pattern.len() && pattern[p + 1] == b'*';
            let mut next = p + if is_double { 2 } else { 1 };
            if is_double && next < pattern.len() && pattern[next] == b'/' {
                next += 1; // `**/` also matches zero directories
            }
            if is_double {
                double = Some((next, t));
            }
            star = Some((next, t, is_double || cross_slash));
            p = next;
            continue;
        } else if p < pattern.len()
            && ((pattern[p] == b'?' && (cross_slash || text[t] != b'/')) || pattern[p] == text[t])
        {
            p += 1;
            t += 1;
            continue;
        }
        // Mismatch (or text left over): let the last star take one more character.
        match star {
            Some((sp, st, crosses)) if st < text.len() && (crosses || text[st] != b'/') => {
                star = Some((sp, st + 1, crosses));
                p = sp;
                t = st + 1;
            }
            _ => match double {
                Some((dp, dt)) if dt < text.len() => {
                    double = Some((dp, dt + 1));
                    star = Some((dp, dt + 1, true));
                    p = dp;
                    t = dt + 1;
                }
                _ => return false,
            },
        }
    }
}

/// A file path against a gitignore-style rule content.
fn path_matches(pattern: &str, path: &str, workspace: &Path) -> bool {
    let absolute = normalize(&if Path::new(path).is_absolute() { PathBuf::from(path) } else { workspace.join(path) });
    let home = crate::paths::home_dir();
    let (base, rest): (PathBuf, &str) = if let Some(rest) = pattern.strip_prefix("//") {
        (PathBuf::from("/"), rest)
    } else if let Some(rest) = pattern.strip_prefix("~/") {
        match home {
            Some(h) => (h, rest),
            None => return false,
        }
    } else if let Some(rest) = pattern.strip_prefix("./") {
        (workspace.to_path_buf(), rest)
    } else if let Some(rest) = pattern.strip_prefix('/') {
        (workspace.to_path_buf(), rest)
    } else if !pattern.contains('/') {
        // A bare name pattern matches the file name at any depth.
        return absolute
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|name| glob(pattern.as_bytes(), name.as_bytes(), false));
    } else {
        (workspace.to_path_buf(), pattern)
    };
    let base = normalize(&base);
    let Ok(relative) = absolute.strip_prefix(&base) else {
        return false;
    };
    let Some(relative) = relative.to_str() else {
        return false;
    };
    glob(rest.as_bytes(), relative.as_bytes(), false)
}

/// `.` and `..` removed lexically (the file may not exist yet).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The lowercase host of a URL (`scheme://[user@]host[:port]/...`).
fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = host.split(':').next()?;
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ws() -> &'static Path {
        Path::new("/ws")
    }

    fn bash(rule: &str, command: &str) -> bool {
        Rule::parse(rule).unwrap().matches(Some("Bash"), Some(&json!({ "command": command })), ws())
    }

    fn file(rule: &str, tool: &str, path: &str) -> bool {
        Rule::parse(rule).unwrap().matches(Some(tool), Some(&json!({ "file_path": path })), ws())
    }

    #[test]
    fn bare_tool_name_matches_every_call_of_that_tool_only() {
        let r = Rule::parse("Bash").unwrap();
        assert!(r.matches(Some("Bash"), None, ws()));
        assert!(!r.matches(Some("BashOutput"), None, ws()));
        assert!(!r.matches(Some("bash"), None, ws()));
        assert!(Rule::parse("Bash(*)").unwrap().matches(Some("Bash"), None, ws()));
    }

    #[test]
    fn bash_git_star_matches_git_commands_only() {
        assert!(bash("Bash(git *)", "git status"));
        assert!(bash("Bash(git *)", "git commit -m 'x y'"));
        assert!(bash("Bash(git *)", "git"));
        assert!(!bash("Bash(git *)", "gitk"));
        assert!(!bash("Bash(git *)", "echo git status"));
        assert!(!bash("Bash(git *)", "echo git && ls"));
        assert!(bash("Bash(git*)", "gitk"));
    }

    #[test]
    fn bash_if_strips_leading_assignments() {
        // "Leading VAR=value assignments are stripped before matching."
        assert!(bash("Bash(git *)", "FOO=bar git push"));
        assert!(bash("Bash(rm *)", "A=1 B='x y' rm -rf x"));
        assert!(!bash("Bash(rm *)", "RM=rm echo hi"));
    }

    #[test]
    fn bash_if_checks_each_subcommand() {
        // "Bash(git *) | npm test && git push | yes | each subcommand is checked"
        assert!(bash("Bash(git *)", "npm test && git push"));
        for line in ["npm test || rm -rf x", "ls; rm -rf x", "ls | rm -rf x", "sleep 1 & rm -rf x", "ls\nrm -rf x"] {
            assert!(bash("Bash(rm *)", line), "{line:?}");
        }
        assert!(!bash("Bash(rm *)", "echo 'a && rm -rf x'"), "quoted separators do not split");
        assert!(bash("Bash(npm test)", "cd web && npm test"));
    }

    #[test]
    fn bash_if_checks_commands_inside_substitutions() {
        // "Bash(rm *) | echo $(rm -rf /) | yes | commands inside $() and backticks are checked"
        assert!(bash("Bash(rm *)", "echo $(rm -rf /)"));
        assert!(bash("Bash(rm *)", "echo `rm -rf /`"));
        assert!(bash("Bash(rm *)", "echo \"$(rm -rf /)\""));
        // "Bash(rm *) | echo $(date) | no | no subcommand matches rm *"
        assert!(!bash("Bash(rm *)", "echo $(date)"));
    }

    #[test]
    fn bash_if_with_more_than_a_command_name_runs_on_dynamic_parts() {
        // "Bash(git push *) | echo $(date) | yes | patterns that specify more
        // than the command name run the hook anyway on $(), backticks, or $VAR"
        assert!(bash("Bash(git push *)", "echo $(date)"));
        assert!(bash("Bash(git push *)", "echo `date`"));
        assert!(bash("Bash(git push *)", "echo $HOME"));
        assert!(!bash("Bash(git push *)", "echo '$HOME'"), "a quoted $ is no expansion");
        assert!(!bash("Bash(git *)", "echo $HOME"), "only the command name: no");
    }

    #[test]
    fn bash_if_fails_open_when_the_command_cannot_be_parsed() {
        // "The filter also fails open, running your hook regardless of
        // pattern, when the Bash command can't be parsed."
        assert!(bash("Bash(git *)", "echo 'unterminated"));
        assert!(bash("Bash(git *)", "echo $(unterminated"));
        // A command name only the shell knows.
        assert!(bash("Bash(rm *)", "$(which rm) -rf /"));
    }

    #[test]
    fn bash_legacy_colon_star_is_a_word_prefix() {
        assert!(bash("Bash(npm run test:*)", "npm run test"));
        assert!(bash("Bash(npm run test:*)", "npm run test -- --watch"));
        assert!(!bash("Bash(npm run test:*)", "npm run testing"));
    }

    #[test]
    fn bash_rule_without_star_is_the_exact_command() {
        assert!(bash("Bash(npm test)", "npm test"));
        assert!(!bash("Bash(npm test)", "npm test --watch"));
        assert!(bash("Bash(rm -rf *)", "rm -rf /tmp/x"));
    }

    #[test]
    fn edit_star_ts_matches_ts_files_at_any_depth() {
        assert!(file("Edit(*.ts)", "Edit", "/ws/src/a/b.ts"));
        assert!(file("Edit(*.ts)", "Edit", "rel/c.ts"));
        assert!(!file("Edit(*.ts)", "Edit", "/ws/src/b.tsx"));
        assert!(!file("Edit(*.ts)", "Write", "/ws/src/b.ts"), "the tool name must match too");
    }

    #[test]
    fn read_dot_src_double_star_is_relative_to_the_workspace() {
        assert!(file("Read(./src/**)", "Read", "/ws/src/a/b/c.rs"));
        assert!(file("Read(./src/**)", "Read", "src/lib.rs"));
        assert!(!file("Read(./src/**)", "Read", "/ws/tests/a.rs"));
        assert!(!file("Read(./src/**)", "Read", "/other/src/a.rs"));
        assert!(!file("Read(./src/**)", "Read", "/ws/src/../tests/a.rs"), "`..` is resolved");
    }

    #[test]
    fn single_star_stays_within_one_path_segment() {
        assert!(file("Write(docs/*.md)", "Write", "/ws/docs/a.md"));
        assert!(!file("Write(docs/*.md)", "Write", "/ws/docs/sub/a.md"));
        assert!(file("Write(docs/**/*.md)", "Write", "/ws/docs/sub/a.md"));
        assert!(file("Write(docs/**/*.md)", "Write", "/ws/docs/a.md"));
    }

    #[test]
    fn double_slash_is_absolute_and_slash_is_the_workspace_root() {
        assert!(file("Edit(//etc/**)", "Edit", "/etc/hosts"));
        assert!(!file("Edit(//etc/**)", "Edit", "/ws/etc/hosts"));
        assert!(file("Edit(/etc/**)", "Edit", "/ws/etc/hosts"));
    }

    #[test]
    fn mcp_rules_match_one_tool_or_a_whole_server() {
        let one = Rule::parse("mcp__github__create_issue").unwrap();
        assert!(one.matches(Some("mcp__github__create_issue"), None, ws()));
        assert!(!one.matches(Some("mcp__github__list_issues"), None, ws()));
        for raw in ["mcp__github", "mcp__github__*"] {
            let server = Rule::parse(raw).unwrap();
            assert!(server.matches(Some("mcp__github__list_issues"), None, ws()), "{raw}");
            assert!(!server.matches(Some("mcp__githubx__list"), None, ws()), "{raw}");
            assert!(!server.matches(Some("Bash"), None, ws()), "{raw}");
        }
    }

    #[test]
    fn webfetch_domain_matches_host_and_subdomains() {
        let r = Rule::parse("WebFetch(domain:example.com)").unwrap();
        let call = |url: &str| r.matches(Some("WebFetch"), Some(&json!({ "url": url })), ws());
        assert!(call("https://example.com/x"));
        assert!(call("https://docs.Example.com:443/x"));
        assert!(!call("https://example.com.evil.org/"));
        assert!(!call("https://notexample.com/"));
    }

    #[test]
    fn events_without_a_tool_never_match() {
        assert!(!Rule::parse("Bash").unwrap().matches(None, None, ws()));
    }

    #[test]
    fn a_call_without_the_needed_field_does_not_match() {
        assert!(!Rule::parse("Bash(git *)").unwrap().matches(Some("Bash"), Some(&json!({})), ws()));
        assert!(!Rule::parse("Edit(*.ts)").unwrap().matches(Some("Edit"), None, ws()));
    }

    #[test]
    fn malformed_rules_are_errors() {
        for raw in ["", "  ", "Bash(git *", "Ba sh", "(x)", "Bash)(", "mcp__"] {
            assert!(Rule::parse(raw).is_err(), "{raw:?}");
        }
    }

    #[test]
    fn glob_backtracking_is_not_exponential() {
        let pattern = "*a*a*a*a*a*a*a*a*a*a*b";
        let text = "a".repeat(5000);
        assert!(!glob(pattern.as_bytes(), text.as_bytes(), true));
    }
}
