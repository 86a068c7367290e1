//! The `command` handler: a shell command run by the process runner
//! ([`crate::runner`]): `/bin/sh -c <command>` in the workspace, in its own
//! process group, the payload on stdin, stdout and stderr read while it
//! runs, killed with its group at the timeout or on cancel. A traced run
//! hands its trace context on in the environment (`TRACEPARENT`,
//! `TRACESTATE`).

use std::borrow::Cow;
use std::io;

use super::environment::with_trace_context;
use super::{Call, HookExecution, Ran};
use crate::runner::{self, CommandSpec};

/// Run `command` for one hook.
pub(crate) fn run(command: &str, call: &Call<'_>) -> io::Result<Ran> {
    let env = match call.trace {
        Some(trace) => Cow::Owned(with_trace_context(call.env, trace)?),
        None => Cow::Borrowed(call.env),
    };
    let spec = CommandSpec {
        command,
        cwd: call.cwd,
        env: &env,
        stdin: call.payload.as_bytes(),
        timeout: call.timeout,
        max_output_bytes: call.max_output_bytes,
    };
    let out = runner::run_command(&spec, call.token)?;
    if out.cancelled {
        return Ok(Ran::Cancelled);
    }
    Ok(Ran::Done {
        duration: out.duration,
        stdout_truncated: out.stdout_truncated,
        stderr_truncated: out.stderr_truncated,
        exec: HookExecution {
            label: command.to_owned(),
            exit_code: out.exit_code,
            signal: out.signal,
            timed_out: out.timed_out,
            timeout_seconds: call.timeout.as_secs(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        },
    })
}
