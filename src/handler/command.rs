//! The `command` handler: a command run by the process runner
//! ([`crate::runner`]) in the workspace, in its own process group, the
//! payload on stdin, stdout and stderr read while it runs, killed with its
//! group at the timeout or on cancel.
//!
//! - Shell form (no `args`): `/bin/sh -c <command>`; `"shell": "bash"` runs
//!   `bash -c <command>` and `"shell": "powershell"` runs `pwsh -NoProfile
//!   -Command <command>`, each found on the hook environment's `PATH` (a
//!   missing one is a spawn failure saying so).
//! - Exec form (`args` set): `command` is resolved on `PATH` (a name
//!   without `/`; a relative path is taken from the workspace) and spawned
//!   directly with `args` as its arguments, no shell. The dialect's
//!   placeholders (`${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}`,
//!   `${CLAUDE_PLUGIN_DATA}` in Claude Code's) are replaced literally in
//!   `command` and in each argument by the values the hook's environment
//!   gives those variables (empty when unset).

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use super::{Call, HookExecution, Ran};
use crate::config::Shell;
use crate::runner::{self, CommandSpec, Environment, Program};

/// The `PATH` searched when the hook environment has none.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Run a command hook.
pub(crate) fn run(command: &str, args: Option<&[String]>, shell: Shell, call: &Call<'_>) -> io::Result<Ran> {
    let argv0;
    let substituted;
    let resolved;
    let (command_text, program) = match args {
        Some(args) => {
            argv0 = substitute(command, call.placeholders, call.env);
            substituted = args.iter().map(|a| substitute(a, call.placeholders, call.env)).collect::<Vec<_>>();
            resolved = resolve_executable(&argv0, call.cwd, call.env)?;
            (argv0.as_str(), Program::Exec { path: &resolved, args: &substituted })
        }
        None => match shell {
            Shell::Sh => (command, Program::Sh),
            Shell::Bash => {
                resolved = find_on_path("bash", call.env)
                    .ok_or_else(|| not_found("the hook's shell is bash, which is not on PATH"))?;
                (command, Program::Shell { path: &resolved, flags: &["-c"] })
            }
            Shell::PowerShell => {
                resolved = find_on_path("pwsh", call.env)
                    .ok_or_else(|| not_found("the hook's shell is powershell, which needs pwsh on PATH (not found)"))?;
                (command, Program::Shell { path: &resolved, flags: &["-NoProfile", "-Command"] })
            }
        },
    };
    let spec = CommandSpec {
        command: command_text,
        program,
        cwd: call.cwd,
        env: call.env,
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
            label: call.label.to_owned(),
            exit_code: out.exit_code,
            signal: out.signal,
            timed_out: out.timed_out,
            timeout_seconds: call.timeout.as_secs(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            ..HookExecution::default()
        },
    })
}

fn not_found(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, message.to_owned())
}

/// `text` with each `${NAME}` of `names` replaced by the value `env` gives
/// `NAME` (empty when unset). Other text, other `${…}` included, is kept.
pub(crate) fn substitute(text: &str, names: &[&str], env: &Environment) -> String {
    if names.is_empty() || !text.contains("${") {
        return text.to_owned();
    }
    let mut out = text.to_owned();
    for name in names {
        let placeholder = format!("${{{name}}}");
        if out.contains(&placeholder) {
            let value = env.get(OsStr::new(name)).map(OsStr::to_string_lossy).unwrap_or_default();
            out = out.replace(&placeholder, &value);
        }
    }
    out
}

/// Exec form's executable: a name without `/` found on `PATH`, else the
/// path itself (relative ones taken from the working directory).
fn resolve_executable(command: &str, cwd: &Path, env: &Environment) -> io::Result<PathBuf> {
    if command.contains('/') {
        let path = Path::new(command);
        return Ok(if path.is_absolute() { path.to_owned() } else { cwd.join(path) });
    }
    if command.chars().any(char::is_whitespace) {
        return Err(not_found(&format!(
            "no executable named {command:?} on PATH: in exec form `command` is one executable (move its arguments into `args`)"
        )));
    }
    find_on_path(command, env).ok_or_else(|| not_found(&format!("no executable named {command:?} on PATH")))
}

/// The first executable regular file named `name` in the directories of
/// the hook environment's `PATH`.
fn find_on_path(name: &str, env: &Environment) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = env.get(OsStr::new("PATH")).map_or_else(|| DEFAULT_PATH.into(), OsStr::to_string_lossy);
    path.split(':').filter(|d| !d.is_empty()).map(|d| Path::new(d).join(name)).find(|candidate| {
        std::fs::metadata(candidate).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "path placeholders like `${CLAUDE_PLUGIN_ROOT}` are substituted into
    /// `command` and into each `args` element as plain strings."
    #[test]
    fn exec_form_placeholders_are_replaced_by_the_hook_environments_values() {
        let env = Environment::from_pairs([("CLAUDE_PROJECT_DIR", "/w p"), ("CLAUDE_PLUGIN_ROOT", "/plug")]).unwrap();
        let names = &["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];
        assert_eq!(substitute("${CLAUDE_PROJECT_DIR}/h.sh", names, &env), "/w p/h.sh");
        assert_eq!(substitute("${CLAUDE_PLUGIN_ROOT}:${CLAUDE_PLUGIN_DATA}|${HOME}", names, &env), "/plug:|${HOME}");
        assert_eq!(substitute("it's $ `x`", names, &env), "it's $ `x`");
    }

    #[test]
    fn exec_form_resolves_names_on_path_and_paths_from_the_workspace() {
        let env = Environment::from_pairs([("PATH", "/nonexistent:/bin:/usr/bin")]).unwrap();
        assert!(resolve_executable("sh", Path::new("/w"), &env).unwrap().ends_with("sh"));
        assert_eq!(resolve_executable("./x.sh", Path::new("/w"), &env).unwrap(), Path::new("/w/./x.sh"));
        assert_eq!(resolve_executable("/abs/x", Path::new("/w"), &env).unwrap(), Path::new("/abs/x"));
        let e = resolve_executable("node script.js", Path::new("/w"), &env).unwrap_err();
        assert!(e.to_string().contains("move its arguments into `args`"), "{e}");
        assert!(resolve_executable("no-such-program-here", Path::new("/w"), &env).is_err());
    }
}
