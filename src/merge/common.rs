//! The fields every outcome shares, as they accumulate over one run's
//! hooks: messages, `continue` and its reason, the reasons stated, and the
//! fields with no canonical slot (`dialect_fields`).

use serde_json::{Map, Value};

use crate::dialect::Dialect;
use crate::model::event::RunEvent;
use crate::model::outcome::{CommonOutcome, HookMessage, HookMessageLevel, HookReport};
use crate::model::reply::HookReply;
use crate::model::rules::{EventRules, HaltReason, HaltRule, Reasons};

/// The shared fields of every outcome, as they accumulate.
pub(crate) struct Common {
    pub(super) messages: Vec<HookMessage>,
    pub(super) continue_: bool,
    pub(super) stop_reason: Option<String>,
    pub(super) dialect_fields: Map<String, Value>,
    /// The `stopReason` given by every hook that asked to halt, in order.
    pub(super) stop_reasons: Vec<String>,
    /// The `reason` every hook stated, whatever it decided, in order.
    pub(super) stated_reasons: Vec<String>,
}

impl Common {
    pub(super) fn new() -> Common {
        Common {
            messages: Vec::new(),
            continue_: true,
            stop_reason: None,
            dialect_fields: Map::new(),
            stop_reasons: Vec::new(),
            stated_reasons: Vec::new(),
        }
    }

    /// Add a message (trimmed; a blank one is dropped).
    pub(crate) fn push(&mut self, level: HookMessageLevel, text: impl Into<String>) {
        let text = text.into();
        let text = text.trim();
        if !text.is_empty() {
            self.messages.push(HookMessage { level, text: text.to_owned() });
        }
    }

    /// A reply's messages and its request to halt.
    pub(super) fn absorb(&mut self, rules: &EventRules, reply: &mut HookReply) {
        self.messages.append(&mut reply.messages);
        self.stated_reasons.extend(reply.reason.take());
        if let Some(stop_reason) = reply.halt.take() {
            self.stop_reasons.extend(stop_reason.iter().cloned());
            let first_given = rules.halt_reason == HaltReason::FirstGiven && self.stop_reason.is_none();
            if self.continue_ || first_given || rules.halt == HaltRule::LastWord {
                self.stop_reason = stop_reason;
            }
            self.continue_ = false;
        } else if reply.resumes && rules.halt == HaltRule::LastWord {
            self.continue_ = true;
            self.stop_reason = None;
        }
    }

    /// The fields a hook of `dialect` wrote that have no canonical slot,
    /// combined with those of earlier hooks of the same dialect as the
    /// dialect says (by default as its profile's
    /// [`FieldMerge`](crate::model::rules::FieldMerge) says).
    pub(super) fn absorb_dialect_fields(
        &mut self,
        dialect: &dyn Dialect,
        event: &RunEvent,
        fields: Map<String, Value>,
    ) {
        if fields.is_empty() {
            return;
        }
        let slot = self.dialect_fields.entry(dialect.name()).or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(slot) = slot {
            dialect.merge_fields(event, slot, fields);
        }
    }

    /// With `reasons: EveryReasonJoined`, the one reason of the run: every
    /// halting hook's `stopReason` joined, else every stated reason joined
    /// (`None`: no hook gave one, or the table's reasons are the deciding
    /// hook's).
    pub(super) fn joined_reason(&self, rules: &EventRules) -> Option<String> {
        match rules.reasons {
            Reasons::Deciding => None,
            Reasons::EveryReasonJoined(separator) if !self.stop_reasons.is_empty() => {
                Some(self.stop_reasons.join(separator))
            }
            Reasons::EveryReasonJoined(separator) if !self.stated_reasons.is_empty() => {
                Some(self.stated_reasons.join(separator))
            }
            Reasons::EveryReasonJoined(_) => None,
        }
    }

    pub(super) fn into_outcome(self, joined: Option<&String>, hooks: Vec<HookReport>) -> CommonOutcome {
        let stop_reason = match (self.continue_, joined) {
            (false, Some(joined)) => Some(joined.clone()),
            _ => self.stop_reason,
        };
        CommonOutcome {
            messages: self.messages,
            continue_: self.continue_,
            stop_reason,
            hooks,
            dialect_fields: self.dialect_fields,
        }
    }
}
