//! Fuzz every dialect's config reader: byte 0 picks the dialect (VT Code,
//! Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI, VS Code, in
//! `dialect::ALL` order) and whether the rest is read as JSON
//! (`Dialect::read_json`) or as TOML (`Dialect::read_toml`).
//!
//! Oracles: every failure is `InvalidConfig` (bad input is an error, never
//! a crash); reading the same text twice gives the same digest, previews
//! and warnings; the digest is 64 lowercase hex digits and equals the
//! digest of the previews, one preview per command.
#![no_main]

use hookline::config::{HooksConfig, SourceInfo};
use hookline::{dialect, gate, Status};
use libfuzzer_sys::fuzz_target;

fn read(d: &'static dyn dialect::Dialect, toml: bool, text: &str) -> hookline::Result<HooksConfig> {
    let source = SourceInfo::new(d);
    if toml {
        d.read_toml(text, &source)
    } else {
        let value: serde_json::Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(_) => return Ok(HooksConfig::empty()),
        };
        d.read_json(&value, &source)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let d = dialect::ALL[usize::from(sel) % dialect::ALL.len()];
    let toml = sel & 0x80 != 0;
    let first = read(d, toml, text);
    let second = read(d, toml, text);
    match (&first, &second) {
        (Err(a), Err(b)) => {
            assert_eq!(a.status, Status::InvalidConfig, "{a}");
            assert_eq!(a.to_string(), b.to_string(), "the same text fails the same way");
        }
        (Ok(a), Ok(b)) => {
            let digest = gate::command_digest(a);
            assert_eq!(digest, gate::command_digest(b), "reading twice gives the same digest");
            assert_eq!(digest.len(), 64);
            assert!(digest.bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)));
            let previews = gate::command_previews(a);
            assert_eq!(previews.len(), a.command_count());
            assert_eq!(gate::digest_of_previews(&previews), digest);
            assert_eq!(
                gate::previews_json(&previews).expect("previews"),
                gate::previews_json(&gate::command_previews(b)).expect("previews")
            );
            assert_eq!(format!("{:?}", a.warnings()), format!("{:?}", b.warnings()));
        }
        _ => panic!("reading the same text twice disagrees: {text:?}"),
    }
});
