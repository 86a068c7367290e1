//! Fuzz hook-output interpretation (docs/protocol.md §6): arbitrary stdout, stderr,
//! exit codes, signals, timeouts, callback replies, gate skips and spawn
//! errors, for every event, fed to `EventInterpreter::absorb`, then
//! `finish().to_json()`. Input format: `hookline_fuzz::decode_interpret`.
//!
//! Oracles: `absorb` stops only decision events and keeps saying "stop"
//! once stopped; the outcome has every field of §5.3 with the right types,
//! trimmed texts, one report per hook that ran or was skipped, and it
//! survives a JSON round trip; PreToolUse's `updated_input` is an object.
#![no_main]

use hookline::interpret::{EventInterpreter, HookOutcome, HookReport};
use hookline_fuzz::{check_outcome, decode_interpret, report_for, Step};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(input) = decode_interpret(data) else { return };
    let event = input.event;
    let mut interp = EventInterpreter::new(event, input.quiet);
    let mut reports: Vec<HookReport> = Vec::new();
    for step in &input.steps {
        if interp.stopped() {
            // The engine does not run hooks after a decision; absorbing more
            // must still be harmless and keep saying "stop".
            if let Step::Ran { exec, .. } = step {
                assert!(interp.absorb(exec), "absorb after a stop must return true");
            }
            continue;
        }
        match step {
            Step::Ran { exec, kind } => {
                let stop = interp.absorb(exec);
                reports.push(report_for(exec, *kind));
                if !event.is_decision_event() {
                    assert!(!stop, "{} is not a decision event but absorb stopped", event.name());
                }
                assert_eq!(stop, interp.stopped());
            }
            Step::NotApproved { label } => {
                interp.absorb_not_approved(label);
                reports.push(HookReport::not_approved(label));
            }
            Step::SpawnError { label, error } => interp.absorb_spawn_error(label, error),
        }
        if let Some(u) = interp.updated_input() {
            assert!(u.is_object(), "updated_input must be an object, got {u}");
        }
    }
    let n = reports.len();
    let outcome: HookOutcome = interp.finish(reports);
    let json = outcome.to_json();
    check_outcome(event, &json, Some(n));
    let text = json.to_string();
    let back: serde_json::Value = serde_json::from_str(&text).expect("outcome JSON re-parses");
    assert_eq!(back, json);
});
