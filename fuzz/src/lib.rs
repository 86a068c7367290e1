//! Shared input formats and oracles of the hookline fuzz targets.
//!
//! Each target turns the fuzzer's bytes into calls on hookline and checks
//! what the reference docs (docs/c-api.md, docs/protocol.md) promise about the answer, not only "no crash".
//! The byte formats are defined here once, together with the encoders the
//! seed generator (`examples/make_seeds.rs`) uses, so seeds and targets
//! cannot drift apart.

use hookline::interpret::{HookExecution, HookKind, HookReport};
use hookline::{CallResult, HookEvent, Reply};
use serde_json::Value;

/// Separator between records of the `interpret` format.
pub const RECORD_SEP: u8 = 0x00;
/// Separator between stdout and stderr inside one `interpret` record.
pub const STREAM_SEP: u8 = 0x01;
/// At most this many hook records are read from one input.
pub const MAX_RECORDS: usize = 64;

/// How one hook of the `interpret` format ended (the record's first byte,
/// modulo 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// Exit 0.
    Exit0 = 0,
    /// Exit 1.
    Exit1 = 1,
    /// Exit 2.
    Exit2 = 2,
    /// Exit with the code in the next byte (as `i8`).
    ExitCode = 3,
    /// Killed by the signal in the next byte.
    Signal = 4,
    /// Killed at its timeout.
    TimedOut = 5,
    /// A callback hook that returned 0; the next byte picks the reply.
    CallbackOk = 6,
    /// A callback hook that returned non-zero; the next byte picks the reply.
    CallbackFailed = 7,
    /// A command the workspace gate skipped.
    NotApproved = 8,
    /// A command that could not be started (stderr is the error).
    SpawnError = 9,
}

impl RecordKind {
    fn from_byte(b: u8) -> RecordKind {
        match b % 10 {
            0 => RecordKind::Exit0,
            1 => RecordKind::Exit1,
            2 => RecordKind::Exit2,
            3 => RecordKind::ExitCode,
            4 => RecordKind::Signal,
            5 => RecordKind::TimedOut,
            6 => RecordKind::CallbackOk,
            7 => RecordKind::CallbackFailed,
            8 => RecordKind::NotApproved,
            _ => RecordKind::SpawnError,
        }
    }

    fn takes_arg(self) -> bool {
        matches!(self, RecordKind::ExitCode | RecordKind::Signal | RecordKind::CallbackOk | RecordKind::CallbackFailed)
    }
}

/// One hook result of the `interpret` format.
#[derive(Clone, Debug)]
pub enum Step {
    /// A hook that ran (command or callback).
    Ran { exec: HookExecution, kind: HookKind },
    /// A command skipped by the gate.
    NotApproved { label: String },
    /// A command that could not be started.
    SpawnError { label: String, error: String },
}

/// A decoded `interpret` input: the event, `quiet_success_output`, the hooks.
#[derive(Clone, Debug)]
pub struct InterpretInput {
    /// The event being interpreted.
    pub event: HookEvent,
    /// `quiet_success_output`.
    pub quiet: bool,
    /// The hook results in configuration order.
    pub steps: Vec<Step>,
}

/// Decode the `interpret` format:
/// `[event % 12] [flags: bit0 quiet] record (0x00 record)*` where a record is
/// `[kind] [arg if the kind takes one] stdout [0x01 stderr]`.
pub fn decode_interpret(data: &[u8]) -> Option<InterpretInput> {
    let (&ev, rest) = data.split_first()?;
    let (&flags, rest) = rest.split_first()?;
    let event = HookEvent::ALL[usize::from(ev) % HookEvent::ALL.len()];
    let mut steps = Vec::new();
    for (i, rec) in rest.split(|&b| b == RECORD_SEP).enumerate().take(MAX_RECORDS) {
        let Some((&k, body)) = rec.split_first() else { continue };
        let kind = RecordKind::from_byte(k);
        let (arg, body) = if kind.takes_arg() {
            match body.split_first() {
                Some((&a, b)) => (a, b),
                None => (0, body),
            }
        } else {
            (0, body)
        };
        let (out, err) = match body.iter().position(|&b| b == STREAM_SEP) {
            Some(p) => (&body[..p], &body[p + 1..]),
            None => (body, &[][..]),
        };
        let stdout = String::from_utf8_lossy(out).into_owned();
        let stderr = String::from_utf8_lossy(err).into_owned();
        let label = format!("./hook-{i}.sh");
        let command = |exit_code: Option<i32>, signal: Option<i32>, timed_out: bool| Step::Ran {
            exec: HookExecution {
                label: label.clone(),
                exit_code,
                signal,
                timed_out,
                timeout_seconds: 7,
                stdout: stdout.clone(),
                stderr: stderr.clone(),
                ..HookExecution::default()
            },
            kind: HookKind::Command,
        };
        let step = match kind {
            RecordKind::Exit0 => command(Some(0), None, false),
            RecordKind::Exit1 => command(Some(1), None, false),
            RecordKind::Exit2 => command(Some(2), None, false),
            RecordKind::ExitCode => command(Some(i32::from(arg as i8)), None, false),
            RecordKind::Signal => command(None, Some(i32::from(arg)), false),
            RecordKind::TimedOut => command(None, None, true),
            RecordKind::CallbackOk | RecordKind::CallbackFailed => {
                let reply = match arg % 4 {
                    0 => Reply::NoOpinion,
                    1 => Reply::Allow,
                    2 => Reply::Deny(stderr.clone()),
                    _ => Reply::Json(serde_json::from_str(&stdout).unwrap_or(Value::String(stdout.clone()))),
                };
                let result = CallResult { ok: kind == RecordKind::CallbackOk, reply };
                let name = format!("callback-{i}");
                Step::Ran { exec: HookExecution::from_callback(event, &name, &result), kind: HookKind::Callback }
            }
            RecordKind::NotApproved => Step::NotApproved { label },
            RecordKind::SpawnError => Step::SpawnError { label, error: stderr },
        };
        steps.push(step);
    }
    Some(InterpretInput { event, quiet: flags & 1 == 1, steps })
}

/// One record for [`encode_interpret`]: kind, argument byte, stdout, stderr.
pub struct SeedRecord<'a> {
    /// The record kind.
    pub kind: RecordKind,
    /// The argument byte (exit code, signal, reply choice); ignored by kinds without one.
    pub arg: u8,
    /// stdout bytes (must not contain 0x00 or 0x01).
    pub stdout: &'a [u8],
    /// stderr bytes (must not contain 0x00).
    pub stderr: &'a [u8],
}

/// Encode an `interpret` input (the inverse of [`decode_interpret`]).
pub fn encode_interpret(event: HookEvent, quiet: bool, records: &[SeedRecord<'_>]) -> Vec<u8> {
    let mut out = vec![event as u8, u8::from(quiet)];
    for (i, r) in records.iter().enumerate() {
        if i > 0 {
            out.push(RECORD_SEP);
        }
        out.push(r.kind as u8);
        if r.kind.takes_arg() {
            out.push(r.arg);
        }
        out.extend_from_slice(r.stdout);
        if !r.stderr.is_empty() {
            out.push(STREAM_SEP);
            out.extend_from_slice(r.stderr);
        }
    }
    out
}

/// The report a hook that ran gets in the outcome.
pub fn report_for(exec: &HookExecution, kind: HookKind) -> HookReport {
    HookReport {
        kind,
        command: (kind == HookKind::Command).then(|| exec.label.clone()),
        name: (kind == HookKind::Callback).then(|| exec.label.clone()),
        exit_code: exec.exit_code,
        signal: exec.signal,
        timed_out: exec.timed_out,
        duration_ms: 1.0,
        stdout_truncated: false,
        stderr_truncated: false,
        skipped: None,
        failure: None,
        status_message: None,
        ..HookReport::command("")
    }
}

/// Turn a byte into a 32-bit enum argument for the C ABI: mostly a valid
/// value (`b % n` when the top bit is clear), else one of the out-of-range
/// values a careless host could pass.
pub fn enum_arg(b: u8, n: i32) -> i32 {
    if b & 0x80 == 0 {
        i32::from(b) % n
    } else {
        match b % 5 {
            0 => -1,
            1 => n,
            2 => i32::MIN,
            3 => i32::MAX,
            _ => i32::from(b as i8) * 7919,
        }
    }
}

/// Whether a string is already trimmed (docs/protocol.md §5: hookline trims reasons,
/// contexts and message texts).
pub fn is_trimmed(s: &str) -> bool {
    s.trim() == s
}

/// Check the fields every engine outcome has (docs/protocol.md §5) and the per-event
/// ones; panics (a fuzzer finding) on a violation.
pub fn check_outcome(event: HookEvent, v: &Value, hooks_len: Option<usize>) {
    let o = v.as_object().unwrap_or_else(|| panic!("outcome is not an object: {v}"));
    let messages = o["messages"].as_array().expect("messages array");
    for m in messages {
        let level = m["level"].as_str().expect("message level");
        assert!(matches!(level, "info" | "warning" | "error"), "bad level {level}");
        let text = m["text"].as_str().expect("message text");
        assert!(is_trimmed(text), "message text not trimmed: {text:?}");
    }
    assert!(o["continue"].is_boolean(), "continue not bool");
    assert!(o["stop_reason"].is_null() || o["stop_reason"].is_string(), "stop_reason");
    let hooks = o["hooks"].as_array().expect("hooks array");
    if let Some(n) = hooks_len {
        assert_eq!(hooks.len(), n, "hooks report length");
    }
    for h in hooks {
        for key in [
            "kind",
            "command",
            "name",
            "exit_code",
            "timed_out",
            "duration_ms",
            "stdout_truncated",
            "stderr_truncated",
            "skipped",
        ] {
            assert!(h.get(key).is_some(), "hook report lacks {key}: {h}");
        }
    }
    let ctx_ok = |key: &str| {
        let arr = o[key].as_array().unwrap_or_else(|| panic!("{key} not an array: {v}"));
        for c in arr {
            let s = c.as_str().unwrap_or_else(|| panic!("{key} entry not a string"));
            assert!(is_trimmed(s), "{key} entry not trimmed: {s:?}");
        }
    };
    let opt_trimmed = |key: &str| match &o[key] {
        Value::Null => {}
        Value::String(s) => assert!(is_trimmed(s), "{key} not trimmed: {s:?}"),
        other => panic!("{key} is neither null nor a string: {other}"),
    };
    match event {
        HookEvent::SessionStart => ctx_ok("additional_context"),
        HookEvent::UserPromptSubmit => {
            assert!(o["allow_prompt"].is_boolean());
            opt_trimmed("block_reason");
            ctx_ok("additional_context");
            if o["allow_prompt"] == Value::Bool(false) {
                let r = o["block_reason"].as_str().unwrap_or("");
                assert!(!r.is_empty(), "blocked prompt without a reason: {v}");
            }
        }
        HookEvent::PreToolUse => {
            let d = o["decision"].as_str().expect("decision string");
            assert!(matches!(d, "continue" | "allow" | "deny" | "ask"), "decision {d}");
            opt_trimmed("reason");
            assert!(o.contains_key("updated_input"));
            ctx_ok("additional_context");
        }
        HookEvent::PostToolUse | HookEvent::PostToolUseFailure => {
            opt_trimmed("block_reason");
            ctx_ok("additional_context");
        }
        HookEvent::PermissionRequest => match &o["decision"] {
            Value::Null => {}
            Value::Object(d) => {
                let b = d["behavior"].as_str().expect("behavior");
                assert!(matches!(b, "allow" | "deny"), "behavior {b}");
                let s = d["scope"].as_str().expect("scope");
                assert!(matches!(s, "once" | "session" | "permanent"), "scope {s}");
                assert!(d.contains_key("updated_input"));
                assert!(d["permission_updates"].is_array(), "permission_updates");
                assert!(d["interrupt"].is_boolean(), "interrupt");
                assert!(d["message"].is_null() || d["message"].is_string(), "message");
            }
            other => panic!("PermissionRequest decision {other}"),
        },
        HookEvent::Stop => opt_trimmed("block_reason"),
        _ => {}
    }
}
