//! The canonical model: events, inputs, the reply vocabulary, outcomes and
//! the columns of rule tables. Nothing in it knows a dialect: host code is
//! written against these types once, and a user's hooks in any dialect
//! ([`crate::dialect`]) are read into and out of them.
//!
//! | module | what |
//! |---|---|
//! | [`event`] | the twelve events (`hl_event`), and events fired by name |
//! | [`input`] | the event input table, its validation, the enums of input values |
//! | [`reply`] | what one hook said: messages, failure, decision, rewrites, context |
//! | [`outcome`] | what a run returns: the merged decision per event and the report of every hook |
//! | [`rules`] | the columns of a dialect's rule table |

pub mod event;
pub mod execution;
pub mod input;
pub mod outcome;
pub mod reply;
pub mod rules;

pub use event::{HookEvent, RunEvent};
