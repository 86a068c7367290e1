//! The raw result of one hook, before a dialect reads it: what every
//! handler produces ([`crate::handler`]) and every dialect's reader reads.
//! It sits in the model so that readers and the merge need not know the
//! handlers that made it.

use serde_json::Value;

use crate::model::outcome::HookFailure;

/// What a handler of a type other than a command answered, when it is not
/// an exit code and output ([`HookExecution::answer`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Answer {
    /// The exit code, stdout and stderr of the execution say it all (a
    /// command; a callback hook; an MCP tool's text as stdout on exit 0).
    #[default]
    Exited,
    /// The handler failed before it had an answer: a connection error, no
    /// handler set, a handler that failed, a tool error. A non-blocking
    /// error (fail open unless `failClosed`).
    Failed {
        /// The report's `failure` kind.
        kind: HookFailure,
        /// What happened, for the message.
        message: String,
    },
    /// An http hook's response: its status and (capped) body, for the
    /// dialect's response table.
    Http {
        /// The HTTP status.
        status: u16,
        /// The body, decoded as UTF-8 lossily, at most `max_output_bytes`.
        body: String,
        /// Whether the body was longer than that.
        truncated: bool,
    },
    /// A prompt or agent hook's reply (`{"ok","reason","impossible"}`, as
    /// the host gave it), for the dialect's response schema.
    Verdict {
        /// The reply JSON (`null`: none given).
        reply: Value,
        /// An agent hook (it has no `impossible`).
        agent: bool,
        /// `continueOnBlock` (always true for agent hooks).
        continue_on_block: bool,
    },
}

/// What one hook produced, before a dialect reads it: a command's exit
/// code, stdout and stderr, or what a handler of another type stands for
/// them with (a callback hook: [`HookExecution::from_callback`]; the others:
/// [`answer`](HookExecution::answer)).
#[derive(Clone, Debug, Default)]
pub struct HookExecution {
    /// How messages name the hook: the command text, or the callback name.
    pub label: String,
    /// The exit code; `None` when killed by a signal (a non-zero exit) or timed out.
    pub exit_code: Option<i32>,
    /// The signal that killed the hook, if any.
    pub signal: Option<i32>,
    /// Whether the hook was killed at its timeout.
    pub timed_out: bool,
    /// The configured timeout, for the "timed out after N s" message.
    pub timeout_seconds: u64,
    /// The same in milliseconds (for dialects whose timeouts are).
    pub timeout_ms: u64,
    /// stdout, already decoded from UTF-8 lossily.
    pub stdout: String,
    /// stderr, already decoded from UTF-8 lossily.
    pub stderr: String,
    /// What a handler of another type answered ([`Answer::Exited`]: the
    /// fields above say it all).
    pub answer: Answer,
}
