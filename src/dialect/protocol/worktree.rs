//! WorktreeCreate (Claude Code, fired by name): the exit-code table.
//!
//! The hook creates the worktree and answers with its path; "hook failure
//! or missing path fails creation".
//!
//! | hook result | effect |
//! |---|---|
//! | timeout | error message; creation fails |
//! | any non-zero exit (2 included), signal | error message (with stderr); creation fails, whatever stdout says |
//! | exit 0, stdout JSON with `hookSpecificOutput.worktreePath` (an HTTP hook's answer) | the path |
//! | exit 0, plain stdout | the last non-empty line, ANSI escape sequences removed, is the path (a command hook "can't return JSON": its stdout is the path) |
//! | exit 0 without a path | no path |
//!
//! `systemMessage` and `continue` are discarded (the row's
//! `common_fields`). The merge: the first path in configuration order;
//! none when any hook failed.

use super::{text_field, Exit, HookRun, Out, Stdout};
use crate::model::reply::Decision;
use crate::model::rules::Column;

/// The reader columns this reader honours.
pub(crate) const HONOURS: &[Column] = &[Column::FailureLevelError, Column::CommonFields, Column::QuietSuccessStderr];

pub(crate) fn read(out: &mut Out<'_>, run: &HookRun<'_>) {
    if run.exit == Exit::TimedOut {
        out.timed_out(run);
        return;
    }
    out.exit_status(run);
    out.invalid_json(run);
    if run.json().is_some() {
        out.common_json(run);
    }
    if run.exit != Exit::Success {
        return;
    }
    let path = match &run.stdout {
        Stdout::Json(_) => run.specific().and_then(|spec| text_field(spec, "worktreePath")),
        Stdout::Plain(text) => last_line(text),
        Stdout::Empty | Stdout::Invalid => None,
    };
    out.reply.decision = path.map(Decision::Path);
}

/// The last non-empty line of `text` without ANSI escape sequences.
fn last_line(text: &str) -> Option<String> {
    let clean = strip_ansi(text);
    clean.lines().map(str::trim).rfind(|l| !l.is_empty()).map(str::to_owned)
}

/// `text` without ANSI escape sequences: CSI (`ESC [ … final`), OSC
/// (`ESC ] … BEL` or `ESC ] … ESC \`) and two-character escapes.
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\x07' {
                        break;
                    }
                    if c == '\x1b' && chars.peek() == Some(&'\\') {
                        chars.next();
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_is_the_last_non_empty_line_without_ansi_codes() {
        assert_eq!(last_line("banner\n\x1b[1;32m/tmp/wt\x1b[0m\n\n").as_deref(), Some("/tmp/wt"));
        assert_eq!(last_line("\x1b]0;title\x07/a b\n").as_deref(), Some("/a b"));
        assert_eq!(last_line("  \n \n"), None);
    }
}
