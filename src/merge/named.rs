//! The merges of the families only events fired by name have (Claude
//! Code's PermissionDenied, WorktreeCreate, Elicitation and
//! ElicitationResult).
//!
//! | family | rule |
//! |---|---|
//! | retry (PermissionDenied) | `retry` is true when any hook said so |
//! | worktree (WorktreeCreate) | `worktree_path` is the first path in configuration order; none (creation fails) when any hook failed, with an error message when no hook gave one |
//! | elicitation (Elicitation, ElicitationResult) | a `decline` or `cancel` (the first in configuration order) wins over an `accept`; otherwise the first `accept`, with its `content` |

use serde_json::Value;

use crate::model::outcome::{
    CommonOutcome, ElicitationAction, ElicitationHookOutcome, HookMessage, RetryHookOutcome, WorktreeHookOutcome,
};
use crate::model::reply::{Decision, HookReply};

/// PermissionDenied so far.
#[derive(Default)]
pub(crate) struct RetryMerge {
    retry: bool,
}

impl RetryMerge {
    pub(crate) fn absorb(&mut self, reply: HookReply) -> bool {
        self.retry |= matches!(reply.decision, Some(Decision::Retry));
        false
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> RetryHookOutcome {
        RetryHookOutcome { retry: self.retry, common }
    }
}

/// WorktreeCreate so far.
#[derive(Default)]
pub(crate) struct WorktreeMerge {
    path: Option<String>,
    failed: bool,
}

impl WorktreeMerge {
    pub(crate) fn absorb(&mut self, reply: HookReply) -> bool {
        self.failed |= reply.failure.is_some();
        if let (None, Some(Decision::Path(path))) = (&self.path, reply.decision) {
            self.path = Some(path);
        }
        false
    }

    pub(crate) fn finish(self, mut common: CommonOutcome) -> WorktreeHookOutcome {
        if !self.failed && self.path.is_none() && !common.hooks.is_empty() {
            common
                .messages
                .push(HookMessage::error("WorktreeCreate hooks printed no worktree path: creating the worktree fails"));
        }
        let worktree_path = if self.failed { None } else { self.path };
        WorktreeHookOutcome { worktree_path, common }
    }
}

/// Elicitation, ElicitationResult so far.
#[derive(Default)]
pub(crate) struct ElicitationMerge {
    answer: Option<(ElicitationAction, Option<Value>)>,
}

impl ElicitationMerge {
    pub(crate) fn absorb(&mut self, reply: HookReply) -> bool {
        if let Some(Decision::Elicitation(action, content)) = reply.decision {
            let replace = match &self.answer {
                None => true,
                Some((ElicitationAction::Accept, _)) => action != ElicitationAction::Accept,
                Some(_) => false,
            };
            if replace {
                self.answer = Some((action, content));
            }
        }
        false
    }

    pub(crate) fn finish(self, common: CommonOutcome) -> ElicitationHookOutcome {
        let (action, content) = match self.answer {
            Some((action, content)) => (Some(action), content),
            None => (None, None),
        };
        ElicitationHookOutcome { action, content, common }
    }
}
