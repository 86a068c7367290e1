//! Trace and span ids: 64 random bits at a time, never all zeros.
//!
//! Each thread draws from SipHash-1-3 (std's `DefaultHasher`) keyed by a
//! `RandomState` — whose keys come from the operating system's random
//! source when the thread first asks — over a per-thread counter and the
//! process id (a child forked from a thread that made ids keeps the keys
//! but not the pid, so it does not repeat its parent's ids). No system
//! call per id and no dependency beyond std; ids need to be unique and
//! hard to guess, not secret.

use std::cell::Cell;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

thread_local! {
    static KEYS: RandomState = RandomState::new();
    static COUNTER: Cell<u64> = const { Cell::new(0) };
}

/// 64 random bits, never 0.
fn next_u64() -> u64 {
    loop {
        let n = COUNTER.with(|c| {
            let n = c.get().wrapping_add(1);
            c.set(n);
            n
        });
        let v = KEYS.with(|k| {
            let mut h = k.build_hasher();
            h.write_u64(n);
            h.write_u32(std::process::id());
            h.finish()
        });
        if v != 0 {
            return v;
        }
    }
}

/// A new span id.
pub(crate) fn span_id() -> [u8; 8] {
    next_u64().to_be_bytes()
}

/// A new trace id.
pub(crate) fn trace_id() -> [u8; 16] {
    let mut id = [0u8; 16];
    id[..8].copy_from_slice(&next_u64().to_be_bytes());
    id[8..].copy_from_slice(&next_u64().to_be_bytes());
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_distinct_across_threads_and_never_zero() {
        let ids: Vec<[u8; 8]> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4).map(|_| s.spawn(|| (0..10_000).map(|_| span_id()).collect::<Vec<_>>())).collect();
            hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        let set: HashSet<_> = ids.iter().collect();
        assert_eq!(set.len(), ids.len());
        assert!(ids.iter().all(|id| *id != [0; 8]));
        assert_ne!(trace_id(), trace_id());
    }
}
