//! Fuzz the trust store reader (docs/trust.md): the fuzzer's bytes are the
//! store file; `TrustStore::list`, `approved_digest`, `record` and
//! `revoke` read it.
//!
//! Oracles: a store that cannot be used is an `Io` error from `list`, never
//! a crash; `approved_digest` of a readable store agrees with `list`;
//! recording an approval in a readable store succeeds, is then approved,
//! and keeps every other workspace's record; recording into a corrupt
//! store replaces it with a store holding just that approval.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use hookline::trust::TrustStore;
use hookline::Status;
use libfuzzer_sys::fuzz_target;

const DIGEST: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

fn store() -> &'static TrustStore {
    static STORE: OnceLock<TrustStore> = OnceLock::new();
    STORE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("hookline-fuzz-trust-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("store directory");
        TrustStore::at(dir.join("trust.json"))
    })
}

fuzz_target!(|data: &[u8]| {
    let store = store();
    std::fs::write(store.path(), data).expect("write the store");
    let ws = Path::new("/fuzz/workspace");
    match store.list() {
        Err(e) => {
            assert_eq!(e.status, Status::Io, "{e}");
            assert_eq!(store.approved_digest(ws), None, "an unusable store approves nothing");
            // A corrupt store is replaced by the next approval.
            store.record(ws, DIGEST).expect("record replaces a corrupt store");
            assert!(store.is_approved(ws, DIGEST));
            let after = store.list().expect("list after record");
            assert_eq!(after.len(), 1, "{after:?}");
            assert_eq!(after[0].digest.as_deref(), Some(DIGEST));
        }
        Ok(before) => {
            for r in &before {
                if !r.workspace.starts_with('/') {
                    continue;
                }
                let listed = before.iter().rev().find(|o| o.workspace == r.workspace).and_then(|o| o.digest.clone());
                assert_eq!(store.approved_digest(Path::new(&r.workspace)), listed, "{r:?}");
            }
            store.record(ws, DIGEST).expect("record into a readable store");
            assert!(store.is_approved(ws, DIGEST));
            let after = store.list().expect("list after record");
            for r in before.iter().filter(|r| r.workspace != "/fuzz/workspace") {
                assert!(after.iter().any(|a| a == r), "record {r:?} lost by record");
            }
            assert!(store.revoke(ws).expect("revoke"));
            assert_eq!(store.approved_digest(ws), None);
        }
    }
});
