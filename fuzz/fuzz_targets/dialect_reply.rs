//! Fuzz every dialect's reply reader (`Dialect::read_reply` through the
//! canonical merge): byte 0 picks the dialect (VT Code, Claude Code, Codex,
//! Gemini CLI, Cursor, Copilot CLI, VS Code, in `dialect::ALL` order), byte
//! 1 the event (the canonical ones, then the dialect's named events, such as
//! Gemini CLI's `BeforeModel` or Cursor's `beforeReadFile`), byte 2 how
//! the hook ended (exit 0, 1, 2, another code, a signal, a timeout, an http
//! answer with the status in bytes 3-4, for the dialects whose configs have
//! http hooks); the rest is stdout, then stderr after the first 0x01 byte
//! (an http answer's body is all of it).
//!
//! Oracles: reading never panics; exactly one report per hook; a failed
//! http answer reports `http`; the outcome serialises to a JSON object.
//! Property (Claude Code and Codex): a canonical PreToolUse deny encoded
//! as the dialect's `hookSpecificOutput` and read back is a deny with the
//! same (trimmed) reason; likewise (Gemini CLI) a BeforeTool
//! `{"decision":"deny","reason":…}`.
#![no_main]

use hookline::dialect::{self, Dialect};
use hookline::model::execution::Answer;
use hookline::interpret::{EventInterpreter, HookExecution, HookFailure, HookKind, HookReport};
use hookline::{HookEvent, RunEvent};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

fn outcome(d: &'static dyn Dialect, event: &RunEvent, exec: &HookExecution) -> Value {
    let mut interp = EventInterpreter::for_dialect(event, d, false);
    interp.absorb(exec);
    let out = interp.finish(vec![HookReport::command("h")]);
    assert_eq!(out.common().hooks.len(), 1, "one report per hook");
    if let Some(f) = out.common().hooks[0].failure {
        if matches!(exec.answer, Answer::Http { .. }) {
            assert!(matches!(f, HookFailure::Http | HookFailure::InvalidOutput), "{f:?}");
        }
    }
    let text = out.to_json_string().expect("outcome JSON");
    let v: Value = serde_json::from_str(&text).expect("outcome JSON parses");
    assert!(v.is_object());
    v
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 5 {
        return;
    }
    let d = dialect::ALL[usize::from(data[0]) % dialect::ALL.len()];
    let native = d.profile().named;
    let pick = usize::from(data[1]) % (HookEvent::ALL.len() + native.len());
    let event = match HookEvent::ALL.get(pick) {
        Some(e) => RunEvent::Known(*e),
        None => RunEvent::Named(native[pick - HookEvent::ALL.len()].name.into()),
    };
    let rest = &data[5..];
    let (out, err) = match rest.iter().position(|&b| b == 0x01) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let mut exec = HookExecution {
        label: "h".into(),
        timeout_seconds: 5,
        stdout: String::from_utf8_lossy(out).into_owned(),
        stderr: String::from_utf8_lossy(err).into_owned(),
        ..HookExecution::default()
    };
    match data[2] % 7 {
        0 => exec.exit_code = Some(0),
        1 => exec.exit_code = Some(1),
        2 => exec.exit_code = Some(2),
        3 => exec.exit_code = Some(i32::from(data[3] as i8)),
        4 => exec.signal = Some(i32::from(data[3] % 32)),
        5 => exec.timed_out = true,
        // Only where an http hook can exist: the VT Code and Claude Code
        // config readers are the ones with an `http` type (Codex, Gemini
        // CLI, Cursor, Copilot CLI and VS Code run command hooks only), and
        // the support table skips it on some events.
        _ if !(dialect::same(d, dialect::CLAUDE) || dialect::same(d, dialect::VTCODE))
            || !d.supports(HookKind::Http, &event) =>
        {
            return
        }
        _ => {
            exec.answer = Answer::Http {
                status: u16::from_be_bytes([data[3], data[4]]),
                body: String::from_utf8_lossy(rest).into_owned(),
                truncated: data[2] & 0x80 != 0,
            };
            exec.stdout.clear();
            exec.stderr.clear();
        }
    }
    outcome(d, &event, &exec);

    // Round trip of a canonical deny through the dialects that write it as
    // hookSpecificOutput.permissionDecision.
    let reason = String::from_utf8_lossy(out).trim().to_owned();
    if reason.is_empty() || reason.len() > 4096 {
        return;
    }
    for d in [dialect::CLAUDE, dialect::CODEX] {
        let stdout = json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }});
        let exec = HookExecution {
            label: "h".into(),
            timeout_seconds: 5,
            exit_code: Some(0),
            stdout: stdout.to_string(),
            ..HookExecution::default()
        };
        let v = outcome(d, &RunEvent::Known(HookEvent::PreToolUse), &exec);
        assert_eq!(v["decision"], "deny", "{} read back {v}", d.name());
        assert_eq!(v["reason"], Value::String(reason.clone()), "{} read back {v}", d.name());
    }
    let exec = HookExecution {
        label: "h".into(),
        timeout_seconds: 5,
        exit_code: Some(0),
        stdout: json!({"decision": "deny", "reason": reason}).to_string(),
        ..HookExecution::default()
    };
    let v = outcome(dialect::GEMINI, &RunEvent::Known(HookEvent::PreToolUse), &exec);
    assert_eq!(v["decision"], "deny", "gemini read back {v}");
    assert_eq!(v["reason"], Value::String(reason), "gemini read back {v}");
});
