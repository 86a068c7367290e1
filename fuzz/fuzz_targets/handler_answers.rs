//! Fuzz how the answers of the handler types other than commands are read
//! (docs/profiles.md, "Handler types"): an http hook's status and body, a
//! prompt or agent hook's model reply, for every event, through the
//! Claude Code dialect's reader and the canonical merge.
//!
//! Input: byte 0 picks the event, byte 1 the answer (0 http, 1 prompt
//! verdict, 2 agent verdict, 3 prompt with continueOnBlock); for http bytes
//! 2-3 are the status (big-endian) and the rest the body; for a verdict the
//! rest is the reply JSON (anything that does not parse is `null`).
//!
//! Oracles: reading never panics; a failed answer reports `http` (http) or
//! `invalid_output` (verdict), never anything else; the outcome survives a
//! JSON round trip.
#![no_main]

use hookline::dialect::CLAUDE;
use hookline::model::execution::{Answer, HookExecution};
use hookline::interpret::{EventInterpreter, HookFailure, HookReport};
use hookline::{HookEvent, RunEvent};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let event = HookEvent::ALL[usize::from(data[0]) % HookEvent::ALL.len()];
    let answer = match data[1] % 4 {
        0 if data.len() >= 4 => Answer::Http {
            status: u16::from_be_bytes([data[2], data[3]]),
            body: String::from_utf8_lossy(&data[4..]).into_owned(),
            truncated: false,
        },
        0 => return,
        k => Answer::Verdict {
            reply: serde_json::from_slice(&data[2..]).unwrap_or(serde_json::Value::Null),
            agent: k == 2,
            continue_on_block: k != 1,
        },
    };
    let is_http = matches!(answer, Answer::Http { .. });
    let exec = HookExecution { label: "h".into(), timeout_seconds: 5, answer, ..HookExecution::default() };
    let mut interp = EventInterpreter::for_dialect(&RunEvent::Known(event), CLAUDE, false);
    interp.absorb(&exec);
    let outcome = interp.finish(vec![HookReport::command("h")]);
    let failure = outcome.common().hooks[0].failure;
    match failure {
        None => {}
        Some(HookFailure::Http) => assert!(is_http),
        Some(HookFailure::InvalidOutput) => assert!(!is_http),
        Some(other) => panic!("unexpected failure {other:?}"),
    }
    let json = outcome.to_json_string().expect("outcome JSON");
    let _: serde_json::Value = serde_json::from_str(&json).expect("outcome JSON parses");
});
