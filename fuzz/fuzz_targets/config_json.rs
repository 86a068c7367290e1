//! Fuzz the JSON hooks configuration parser (VT Code and Claude Code
//! detected by shape: `HooksConfig::from_json_str` and `from_json_value`),
//! and every dialect's reader on the same value (`HooksConfig::read`).
//!
//! Oracles (docs/protocol.md §2, §10): every failure is `InvalidConfig`; the text
//! and the parsed-value entry points agree; an accepted configuration has
//! a 64-digit lowercase hex digest equal to the digest of its previews, one
//! preview per command, and previews that serialise to a JSON array.
#![no_main]

use hookline::config::{HooksConfig, SourceInfo};
use hookline::gate;
use hookline::Status;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let from_text = HooksConfig::from_json_str(text);
    match &from_text {
        Err(e) => assert_eq!(e.status, Status::InvalidConfig, "{e}"),
        Ok(cfg) => {
            let digest = gate::command_digest(cfg);
            assert_eq!(digest.len(), 64);
            assert!(digest.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
            let previews = gate::command_previews(cfg);
            assert_eq!(previews.len(), cfg.command_count());
            assert_eq!(gate::digest_of_previews(&previews), digest);
            let pj: serde_json::Value =
                serde_json::from_str(&gate::previews_json(&previews).expect("previews")).expect("previews JSON");
            assert_eq!(pj.as_array().map(Vec::len), Some(previews.len()));
            assert_eq!(cfg.is_empty(), cfg.command_count() == 0);
        }
    }
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text) {
        // Every dialect: a rejection is `InvalidConfig`, an accepted config
        // has a digest equal to its previews'.
        for d in hookline::dialect::ALL {
            match HooksConfig::read(&v, &SourceInfo::new(*d)) {
                Err(e) => assert_eq!(e.status, Status::InvalidConfig, "{}: {e}", d.name()),
                Ok(cfg) => {
                    let previews = gate::command_previews(&cfg);
                    assert_eq!(previews.len(), cfg.command_count(), "{}", d.name());
                    assert_eq!(gate::digest_of_previews(&previews), gate::command_digest(&cfg));
                }
            }
        }
        let from_value = HooksConfig::from_json_value(&v);
        match (&from_text, &from_value) {
            (Ok(a), Ok(b)) => assert_eq!(gate::command_digest(a), gate::command_digest(b)),
            (Err(_), Err(e)) => assert_eq!(e.status, Status::InvalidConfig, "{e}"),
            _ => panic!("from_json_str and from_json_value disagree on {text:?}"),
        }
    }
});
