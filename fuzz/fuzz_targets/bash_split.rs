//! Fuzz the Bash command-line splitter of `if` conditions
//! (`hookline::bash::split`, docs/profiles.md "`if` on Bash").
//!
//! Oracles: it never panics; on a line without quotes, backslashes,
//! substitutions, `$` or redirections it parses, with exactly one segment
//! more than the separators (`;`, `|`, `&`, newline, `(`, `)`); every
//! command's text is trimmed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else { return };
    let split = hookline::bash::split(line);
    if let Some(s) = &split {
        for c in &s.commands {
            assert_eq!(c.text, c.text.trim(), "{line:?}");
        }
    }
    let plain = !line.chars().any(|c| matches!(c, '\'' | '"' | '\\' | '`' | '$' | '<' | '>'));
    if plain {
        let s = split.expect("a line without quotes or substitutions parses");
        let separators = line.chars().filter(|c| matches!(c, ';' | '|' | '&' | '\n' | '(' | ')')).count();
        assert_eq!(s.commands.len(), separators + 1, "{line:?}");
    }
});
