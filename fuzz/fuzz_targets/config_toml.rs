//! Fuzz the vtcode.toml hooks parser: `HooksConfig::from_toml_str`.
//!
//! Oracles (docs/protocol.md §2, §10): every failure is `InvalidConfig`; an accepted
//! configuration is VT Code dialect, and its digest is 64 lowercase hex
//! digits equal to the digest of its previews.
#![no_main]

use hookline::config::HooksConfig;
use hookline::Status;
use hookline::{dialect, gate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match HooksConfig::from_toml_str(text) {
        Err(e) => assert_eq!(e.status, Status::InvalidConfig, "{e}"),
        Ok(cfg) => {
            assert!(dialect::same(cfg.dialect(), dialect::VTCODE), "TOML accepted as {} dialect", cfg.dialect().name());
            let digest = gate::command_digest(&cfg);
            assert_eq!(digest.len(), 64);
            let previews = gate::command_previews(&cfg);
            assert_eq!(previews.len(), cfg.command_count());
            assert_eq!(gate::digest_of_previews(&previews), digest);
        }
    }
});
