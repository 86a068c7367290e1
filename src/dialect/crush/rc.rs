//! Crush's `crushrc` and `.crushrc`: shell scripts Crush runs at startup,
//! whose config builtins build its configuration
//! (charmbracelet/crush `internal/shellconfig/` @37f36e93). Their hooks
//! come from the `hook` builtin:
//!
//! ```sh
//! hook add <event> --command CMD [--name NAME] [--matcher REGEX] [--timeout N]
//! hook remove <event> [--name NAME]      # alias: rm
//! ```
//!
//! hookline does not run a configuration file to learn its hooks: it reads
//! the `hook` lines as written. A `hook add` adds an entry to the event
//! (`{command, name, matcher, timeout}`), a `hook remove` drops the named
//! entries added before it in the same file (all of the event's without
//! `--name`), and the entries are then read as a `crush.json`'s `hooks`
//! are, with the same validation. What the reader cannot know without
//! running the script is reported and its hook is left out: a `hook`
//! command whose words use expansions (`$VAR`, `$(…)`, backquotes), one
//! that runs only under a condition (after `&&` or `||`, inside `if`,
//! `case`, a loop, a function or braces), and a `source`/`.` of another
//! file. The script's other builtins (`provider`, `model`, `mcp`, …) are
//! not hooks and are ignored. Crush's own errors stay errors: an unknown
//! flag, a missing value, `hook add` without `--command`, a non-number
//! `--timeout`.

use serde_json::{json, Map, Value};

use crate::config::{HooksConfig, SourceInfo};
use crate::error::{Error, Result};

/// One word of a command line, and whether the shell would expand it.
#[derive(Debug, PartialEq)]
struct Word {
    text: String,
    expands: bool,
    /// The line it starts on (1-based).
    line: usize,
}

/// A token of a line: a word, or an operator between commands.
#[derive(Debug, PartialEq)]
enum Token {
    Word(Word),
    /// `;`, `&`, a newline: the next command always runs.
    Sep,
    /// `&&`, `||`, `|`: the next command runs depending on this one.
    Cond,
}

/// Split a script into tokens: words (quotes and backslashes removed),
/// separators and conditional operators; comments dropped.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut expands = false;
    let mut i = 0;
    let mut start = 1;
    // The line of the character at `i` (1-based); scripts are small.
    let line_at = |i: usize| chars[..i].iter().filter(|c| **c == '\n').count() + 1;
    let flush = |out: &mut Vec<Token>, word: &mut String, in_word: &mut bool, expands: &mut bool, start: usize| {
        if *in_word {
            out.push(Token::Word(Word { text: std::mem::take(word), expands: *expands, line: start }));
        }
        *in_word = false;
        *expands = false;
    };
    while i < chars.len() {
        let c = chars[i];
        if !in_word {
            start = line_at(i);
        }
        match c {
            '\\' if chars.get(i + 1) == Some(&'\n') => i += 1,
            '\\' => {
                if let Some(n) = chars.get(i + 1) {
                    word.push(*n);
                }
                in_word = true;
                i += 1;
            }
            '\'' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    match chars[i] {
                        '\\' if matches!(chars.get(i + 1), Some('$' | '`' | '"' | '\\' | '\n')) => {
                            i += 1;
                            if chars[i] != '\n' {
                                word.push(chars[i]);
                            }
                        }
                        '`' => {
                            expands = true;
                            word.push('`');
                        }
                        '$' => {
                            expands |= expansion_at(&chars, i, false);
                            word.push('$');
                        }
                        other => word.push(other),
                    }
                    i += 1;
                }
            }
            '`' => {
                expands = true;
                in_word = true;
                word.push(c);
            }
            '$' => {
                expands |= expansion_at(&chars, i, true);
                in_word = true;
                word.push(c);
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            ' ' | '\t' | '\r' => flush(&mut out, &mut word, &mut in_word, &mut expands, start),
            '\n' | ';' => {
                flush(&mut out, &mut word, &mut in_word, &mut expands, start);
                out.push(Token::Sep);
            }
            '&' | '|' => {
                flush(&mut out, &mut word, &mut in_word, &mut expands, start);
                let double = chars.get(i + 1) == Some(&c);
                if double {
                    i += 1;
                }
                out.push(if c == '&' && !double { Token::Sep } else { Token::Cond });
            }
            '(' | ')' | '{' | '}' if !in_word => {
                flush(&mut out, &mut word, &mut in_word, &mut expands, start);
                out.push(Token::Word(Word { text: c.to_string(), expands: false, line: line_at(i) }));
                out.push(Token::Sep);
            }
            other => {
                in_word = true;
                word.push(other);
            }
        }
        i += 1;
    }
    flush(&mut out, &mut word, &mut in_word, &mut expands, start);
    out
}

/// Whether the `$` at `i` starts an expansion (`$NAME`, `${…}`, `$(…)`,
/// `$?`, …, and unquoted `$'…'`); a `$` before anything else is itself
/// (`"^bash$"`).
fn expansion_at(chars: &[char], i: usize, unquoted: bool) -> bool {
    match chars.get(i + 1) {
        Some(c) if c.is_ascii_alphanumeric() || *c == '_' => true,
        Some('{' | '(' | '?' | '!' | '#' | '@' | '*' | '-' | '$') => true,
        Some('\'' | '"') => unquoted,
        _ => false,
    }
}

/// Words that open a block whose commands run only under a condition (or
/// later, or repeatedly), and those that close one.
const OPENS: &[&str] = &["if", "case", "for", "while", "until", "select", "{", "("];
const CLOSES: &[&str] = &["fi", "esac", "done", "}", ")"];

/// The flags of `hook add` (`hookAddFlags`) and whether each takes an
/// integer.
const ADD_FLAGS: &[(&str, &str)] = &[("--command", "command"), ("--matcher", "matcher"), ("--name", "name")];

fn usage(msg: String) -> Error {
    Error::invalid_config(format!("{msg} (Crush cannot run this crushrc)"))
}

/// Read a `crushrc` (see the module documentation).
pub(crate) fn read(text: &str, info: &SourceInfo) -> Result<HooksConfig> {
    let mut hooks: Map<String, Value> = Map::new();
    let mut unread: Vec<(String, String)> = Vec::new();
    let mut depth = 0usize;
    let mut conditional = false;
    let mut command: Vec<Word> = Vec::new();
    let mut toks = tokens(text).into_iter();
    loop {
        let tok = toks.next();
        let ends = !matches!(tok, Some(Token::Word(_)));
        if let Some(Token::Word(w)) = tok {
            if command.is_empty() {
                if OPENS.contains(&w.text.as_str()) || w.text.ends_with("()") {
                    depth += 1;
                    continue;
                }
                if CLOSES.contains(&w.text.as_str()) {
                    depth = depth.saturating_sub(1);
                    continue;
                }
                if matches!(w.text.as_str(), "then" | "else" | "elif" | "do") {
                    continue;
                }
            }
            command.push(w);
            continue;
        }
        if ends && !command.is_empty() {
            let words = std::mem::take(&mut command);
            let at = format!("line {}", words[0].line);
            let guarded = depth > 0 || conditional;
            match words[0].text.as_str() {
                "hook" if words.iter().any(|w| w.expands) => unread.push((
                    at,
                    "this `hook` command uses shell expansion, which hookline does not run: its hook is not loaded"
                        .to_owned(),
                )),
                "hook" if guarded => unread.push((
                    at,
                    "this `hook` command runs only under a condition the script decides when it runs: its hook is \
                     not loaded"
                        .to_owned(),
                )),
                "hook" => hook(&words, &at, &mut hooks)?,
                "source" | "." => unread.push((
                    at,
                    format!(
                        "`{}` reads another script, whose hooks hookline does not read",
                        words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ")
                    ),
                )),
                _ => {}
            }
        }
        match tok {
            None => break,
            Some(Token::Cond) => conditional = true,
            Some(Token::Sep) => conditional = false,
            Some(Token::Word(_)) => {}
        }
    }
    let mut cfg = super::config::read(&json!({ "hooks": hooks }), info)?;
    for (at, why) in unread {
        cfg.push_never_runs(at, why);
    }
    Ok(cfg)
}

/// One `hook` command: `add` appends an entry, `remove`/`rm` drops entries.
fn hook(words: &[Word], at: &str, hooks: &mut Map<String, Value>) -> Result<()> {
    let args: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let (Some(sub), Some(event)) = (args.get(1), args.get(2)) else {
        return Err(usage(format!(
            "{at}: usage: hook add <event> --command CMD [flags] | hook remove <event> [--name NAME]"
        )));
    };
    let mut entry = Map::new();
    let mut i = 3;
    let remove = match *sub {
        "add" => false,
        "remove" | "rm" => true,
        other => return Err(usage(format!("{at}: hook: unknown subcommand {other:?} (expected add or remove)"))),
    };
    let cmd = if remove { "hook remove" } else { "hook add" };
    while i < args.len() {
        let flag = args[i];
        let value = args.get(i + 1).ok_or_else(|| usage(format!("{at}: {cmd}: {flag} needs a value")))?;
        let key = match (remove, flag) {
            (true, "--name") => "name",
            (false, "--timeout") => {
                let n: i64 = value
                    .parse()
                    .map_err(|_| usage(format!("{at}: {cmd}: --timeout needs a whole number, got {value:?}")))?;
                entry.insert("timeout".into(), json!(n));
                i += 2;
                continue;
            }
            (false, f) => match ADD_FLAGS.iter().find(|(name, _)| *name == f) {
                Some((_, key)) => key,
                None => return Err(usage(format!("{at}: {cmd}: unknown flag {f}"))),
            },
            (true, f) => return Err(usage(format!("{at}: {cmd}: unknown flag {f}"))),
        };
        entry.insert(key.into(), json!(value));
        i += 2;
    }
    if remove {
        match entry.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()) {
            None => {
                hooks.shift_remove(*event);
            }
            Some(name) => {
                if let Some(Value::Array(list)) = hooks.get_mut(*event) {
                    list.retain(|h| h.get("name").and_then(Value::as_str) != Some(name));
                }
            }
        }
        return Ok(());
    }
    if !entry.contains_key("command") {
        return Err(usage(format!("{at}: hook add: --command is required")));
    }
    match hooks.entry(event.to_string()).or_insert_with(|| json!([])) {
        Value::Array(list) => list.push(Value::Object(entry)),
        _ => unreachable!("hooks hold arrays"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::event::HookEvent;

    fn read_text(text: &str) -> Result<HooksConfig> {
        read(text, &SourceInfo::new(&super::super::CRUSH))
    }

    fn commands(cfg: &HooksConfig) -> Vec<String> {
        cfg.groups(HookEvent::PreToolUse).iter().map(|g| g.hooks[0].command_text().unwrap().to_owned()).collect()
    }

    /// `TestHookRemoveByName`, `TestHookRemoveByNameAlias`,
    /// `TestHookClearEvent` (internal/shellconfig/hook_test.go).
    #[test]
    fn add_and_remove_as_crushs_tests_do() {
        let cfg = read_text(
            "hook add PreToolUse --command \"echo fmt\" --name fmt\nhook add PreToolUse --command \"echo lint\" \
             --name lint\nhook remove PreToolUse --name fmt",
        )
        .unwrap();
        assert_eq!(commands(&cfg), ["echo lint"]);
        let cfg = read_text(
            "hook add PreToolUse --command \"echo fmt\" --name fmt\nhook add PreToolUse --command \"echo lint\" \
             --name lint\nhook rm PreToolUse --name lint",
        )
        .unwrap();
        assert_eq!(commands(&cfg), ["echo fmt"]);
        let cfg =
            read_text("hook add PreToolUse --command \"echo a\" --name a\nhook add PreToolUse --command 'echo b'\nhook remove PreToolUse")
                .unwrap();
        assert!(commands(&cfg).is_empty());
    }

    /// `TestHookAddRequiresCommand`: "--command is required".
    #[test]
    fn crushs_own_errors_stay_errors() {
        let e = read_text("hook add PreToolUse --name x").unwrap_err();
        assert!(e.message.contains("--command is required"), "{}", e.message);
        for bad in [
            "hook add PreToolUse --command x --bogus y",
            "hook add PreToolUse --command",
            "hook add PreToolUse --command x --timeout soon",
            "hook frob PreToolUse",
            "hook add PreToolUse --command x --matcher '('",
        ] {
            assert!(read_text(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_dollar_that_expands_nothing_is_itself() {
        let cfg = read_text("hook add PreToolUse --matcher \"^bash$\" --command ./a.sh\nhook add PreToolUse --matcher '^(edit|view)$' --command 'echo $HOME'\n").unwrap();
        assert_eq!(commands(&cfg), ["./a.sh", "echo $HOME"]);
        assert_eq!(cfg.groups(HookEvent::PreToolUse)[0].matcher_raw.as_deref(), Some("^bash$"));
        for expands in ["\"$X\"", "${X}", "\"$(pwd)/a\"", "`pwd`", "$'a'", "\"$1\""] {
            let cfg = read_text(&format!("hook add PreToolUse --command {expands}")).unwrap();
            assert!(commands(&cfg).is_empty(), "{expands}");
        }
    }

    #[test]
    fn flags_quotes_comments_and_continuations() {
        let cfg = read_text(
            "# guards\nmodel large openai gpt-5  # not a hook\nhook add pre_tool_use \\\n  --matcher '^bash$' \
             --timeout 5 --command './guard.sh \"x\"' --name g; hook add PreToolUse --command \"echo \\\"q\\\"\"\n",
        )
        .unwrap();
        assert_eq!(commands(&cfg), ["./guard.sh \"x\"", "echo \"q\""]);
        let g = &cfg.groups(HookEvent::PreToolUse)[0];
        assert_eq!(g.matcher_raw.as_deref(), Some("^bash$"));
        assert_eq!(g.hooks[0].timeout_seconds, Some(5));
        assert_eq!(g.hooks[0].name.as_deref(), Some("g"));
    }

    #[test]
    fn what_only_running_the_script_tells_is_reported_not_loaded() {
        let cfg = read_text(
            "hook add PreToolUse --command \"$HOME/guard.sh\"\n\
             [ -x ./guard.sh ] && hook add PreToolUse --command ./guard.sh\n\
             if true; then\n  hook add PreToolUse --command ./in-if.sh\nfi\n\
             source ./more-hooks.sh\n\
             hook add PreToolUse --command ./plain.sh\n",
        )
        .unwrap();
        assert_eq!(commands(&cfg), ["./plain.sh"]);
        let w = cfg.warnings();
        assert_eq!(w.iter().filter(|w| w.never_runs).count(), 4, "{w:?}");
        assert!(w.iter().any(|w| w.path == "line 1" && w.message.contains("expansion")), "{w:?}");
        assert!(w.iter().any(|w| w.path == "line 2" && w.message.contains("condition")), "{w:?}");
        assert!(w.iter().any(|w| w.message.contains("more-hooks.sh")), "{w:?}");
    }
}
