//! Follow-up messages bounded by a loop limit (the `follow_up_loop_limit`
//! column; Cursor's stop and subagentStop `followup_message` with
//! `loop_limit`).
//!
//! A Stop or SubagentStop block is then a follow-up: the message the agent
//! is given to work on next instead of stopping. Each hook may trigger at
//! most `loop_limit` of them in one session: its count is the input's
//! `loop_count` when the host sends one, else the engine's own count of the
//! follow-ups that hook has triggered in the session ([`FollowUpCounts`]).
//! A follow-up of a hook at its limit is dropped with an info message; the
//! first follow-up (in configuration order) under its hook's limit is the
//! outcome's `block_reason` and counts against that hook.
//!
//! The counts are shared by every run of the engine (its clones
//! included), runs on other threads among them: taking a follow-up is one
//! check-and-increment under the counts' lock, so concurrent runs never
//! take more than `loop_limit` follow-ups of one hook between them. The
//! lock is never held while anything else runs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The follow-ups each hook has triggered, per session.
#[derive(Debug, Default)]
pub struct FollowUpCounts {
    counts: Mutex<HashMap<(String, String), u64>>,
}

impl FollowUpCounts {
    /// New, empty counts.
    pub fn new() -> Arc<FollowUpCounts> {
        Arc::new(FollowUpCounts::default())
    }

    /// The follow-ups `hook` has triggered in `session`.
    pub fn count(&self, session: &str, hook: &str) -> u64 {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.get(&(session.to_owned(), hook.to_owned())).copied().unwrap_or(0)
    }

    /// Take one follow-up for `hook` in `session` if it is under `limit`
    /// (`None`: no limit): checked and counted at once. With `host_count`
    /// (the input's `loop_count`) that count is checked instead of the
    /// engine's; the engine's is counted either way.
    pub fn take(&self, session: &str, hook: &str, limit: Option<u64>, host_count: Option<u64>) -> bool {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let count = counts.entry((session.to_owned(), hook.to_owned())).or_insert(0);
        let used = host_count.unwrap_or(*count);
        if limit.is_some_and(|limit| used >= limit) {
            return false;
        }
        *count += 1;
        true
    }
}

/// The scope a run's follow-up counts belong to: the session for Stop; the
/// session and the subagent (the input's `subagent_id`, else its
/// `child_thread_id`) for SubagentStop, whose `loop_count` counts the
/// follow-ups of one subagent.
pub fn scope(
    event: &crate::model::event::RunEvent,
    session: &str,
    input: &serde_json::Map<String, serde_json::Value>,
) -> String {
    use crate::model::event::HookEvent;
    if event.known() == Some(HookEvent::SubagentStop) {
        let id = ["subagent_id", "child_thread_id"].iter().find_map(|k| input.get(*k).and_then(|v| v.as_str()));
        format!("{session}\n{}", id.unwrap_or(""))
    } else {
        session.to_owned()
    }
}

/// What the merge needs to bound one run's follow-ups: the engine's counts,
/// the session, and the input's `loop_count` if it has one.
#[derive(Clone, Debug)]
pub struct FollowUpRun {
    /// The engine's counts.
    pub counts: Arc<FollowUpCounts>,
    /// The scope the run's counts belong to ([`scope`]).
    pub session: String,
    /// The input's `loop_count`, when the host sent one.
    pub host_count: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hook_takes_at_most_its_limit_and_sessions_count_apart() {
        let counts = FollowUpCounts::new();
        for _ in 0..3 {
            assert!(counts.take("s", "h", Some(3), None));
        }
        assert!(!counts.take("s", "h", Some(3), None));
        assert_eq!(counts.count("s", "h"), 3);
        assert!(counts.take("other", "h", Some(3), None));
        assert!(counts.take("s", "no-limit", None, None));
    }

    #[test]
    fn the_hosts_loop_count_is_checked_instead_of_the_engines() {
        let counts = FollowUpCounts::new();
        assert!(!counts.take("s", "h", Some(5), Some(5)));
        assert!(counts.take("s", "h", Some(5), Some(4)));
        assert_eq!(counts.count("s", "h"), 1);
    }

    #[test]
    fn concurrent_takes_never_exceed_the_limit() {
        let counts = FollowUpCounts::new();
        let taken = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| {
                    for _ in 0..50 {
                        if counts.take("s", "h", Some(5), None) {
                            taken.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert_eq!(taken.into_inner(), 5);
        assert_eq!(counts.count("s", "h"), 5);
    }
}
