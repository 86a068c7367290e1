//! The `command` handler: a shell command run by the process runner
//! ([`crate::runner`]): `/bin/sh -c <command>` in the workspace, in its own
//! process group, the payload on stdin, stdout and stderr read while it
//! runs, killed with its group at the timeout or on cancel.
//!
//! A command's [`Launch`] can say more (configs of some dialects do): a
//! program started directly (`argv`, its first word looked up on the
//! hook's `PATH` when it is a bare name), a working directory (relative to
//! the workspace), variables added to the environment (their `$NAME` and
//! `${NAME}` expanded when the launch asks for it), and a script named by
//! the command's first word made executable before it starts.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use super::environment::HOOKLINE_NAMES;
use super::{Call, HookExecution, Ran};
use crate::config::Launch;
use crate::runner::{self, CommandSpec, Environment};

/// Run `command` for one hook.
pub(crate) fn run(command: &str, launch: &Launch, call: &Call<'_>) -> io::Result<Ran> {
    let cwd: Cow<'_, Path> = match &launch.cwd {
        Some(dir) => Cow::Owned(call.cwd.join(dir)),
        None => Cow::Borrowed(call.cwd),
    };
    let env = environment(launch, call.env, call.reserved_env)?;
    let argv = match &launch.argv {
        Some(argv) => Some(resolve_program(argv, &env, &cwd)?),
        None => None,
    };
    if launch.make_script_executable {
        make_script_executable(command, &cwd);
    }
    let spec = CommandSpec {
        command,
        argv: argv.as_deref(),
        cwd: &cwd,
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

/// The hook's environment with the launch's variables added (borrowed
/// unchanged when it adds none). The engine's own variables (`HOOKLINE_*`
/// and the `reserved` names of the hook's dialect) are not replaced.
fn environment<'a>(launch: &Launch, base: &'a Environment, reserved: &[&str]) -> io::Result<Cow<'a, Environment>> {
    if launch.env.is_empty() {
        return Ok(Cow::Borrowed(base));
    }
    let mut env = base.clone();
    let own = |name: &str| HOOKLINE_NAMES.contains(&name) || reserved.contains(&name);
    for (name, value) in launch.env.iter().filter(|(name, _)| !own(name)) {
        let value = if launch.expand_env { expand(value, base) } else { Cow::Borrowed(value.as_str()) };
        env.set(OsStr::new(name), OsStr::new(value.as_ref()))?;
    }
    Ok(Cow::Owned(env))
}

/// `$NAME` and `${NAME}` in `value` replaced by the variable's value in
/// `env` (nothing when unset); `$` followed by anything else stays as it is.
pub(crate) fn expand<'v>(value: &'v str, env: &Environment) -> Cow<'v, str> {
    if !value.contains('$') {
        return Cow::Borrowed(value);
    }
    let lookup = |name: &str| env.get(OsStr::new(name)).map(|v| v.to_string_lossy().into_owned()).unwrap_or_default();
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(braced) = after.strip_prefix('{') {
            if let Some(end) = braced.find('}') {
                let name = &braced[..end];
                if !name.is_empty() && name.chars().all(is_name) {
                    out.push_str(&lookup(name));
                    rest = &braced[end + 1..];
                    continue;
                }
            }
        } else {
            let len = after.find(|c: char| !is_name(c)).unwrap_or(after.len());
            if len > 0 && !after.starts_with(|c: char| c.is_ascii_digit()) {
                out.push_str(&lookup(&after[..len]));
                rest = &after[len..];
                continue;
            }
        }
        out.push('$');
        rest = after;
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// `argv` with its program resolved: a name without `/` is looked up on
/// the environment's `PATH` (the first executable file of that name), as a
/// shell would; a path is kept (relative paths are relative to `cwd`).
fn resolve_program(argv: &[String], env: &Environment, cwd: &Path) -> io::Result<Vec<String>> {
    let Some(program) = argv.first().filter(|p| !p.is_empty()) else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "the hook's program is empty"));
    };
    if program.contains('/') {
        return Ok(argv.to_vec());
    }
    let path = env.get(OsStr::new("PATH")).map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    for dir in path.split(':') {
        let dir = if dir.is_empty() { cwd.to_owned() } else { cwd.join(dir) };
        let candidate = dir.join(program);
        if is_executable_file(&candidate) {
            let mut out = argv.to_vec();
            out[0] = candidate.to_string_lossy().into_owned();
            return Ok(out);
        }
    }
    Err(io::Error::new(io::ErrorKind::NotFound, format!("{program}: not found on the hook's PATH")))
}

fn is_executable_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The script a command starts with, when its first word is a path (`/…`,
/// `./…`, `../…`, or any word with a `/`), resolved against `cwd`.
pub(crate) fn script_of(command: &str, cwd: &Path) -> Option<PathBuf> {
    let first = command.split_whitespace().next()?;
    let first = first.trim_matches(|c| c == '"' || c == '\'');
    first.contains('/').then(|| cwd.join(first))
}

/// Add execute permission to the script a command starts with, when it is a
/// regular file that has none (what a failure here means is left to the
/// start of the command: it fails as it would have).
fn make_script_executable(command: &str, cwd: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let Some(script) = script_of(command, cwd) else {
        return;
    };
    let Ok(meta) = std::fs::metadata(&script) else {
        return;
    };
    let mode = meta.permissions().mode();
    if !meta.is_file() || mode & 0o111 != 0 {
        return;
    }
    // Execute permission for whoever may read the file.
    let mode = mode | ((mode & 0o444) >> 2);
    match std::fs::set_permissions(&script, std::fs::Permissions::from_mode(mode)) {
        Ok(()) => crate::hl_debug!("made {} executable (mode {mode:o})", script.display()),
        Err(e) => crate::hl_warn!("cannot make {} executable: {e}", script.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_values_expand_dollar_names_and_braced_names() {
        let env = Environment::from_pairs([("HOME", "/home/u"), ("A_B", "x")]).unwrap();
        assert_eq!(expand("$HOME/logs", &env), "/home/u/logs");
        assert_eq!(expand("${HOME}x-${A_B}", &env), "/home/ux-x");
        assert_eq!(expand("$UNSET.", &env), ".");
        assert_eq!(expand("cost: 5$ and $1 and ${not valid}", &env), "cost: 5$ and $1 and ${not valid}");
        assert_eq!(expand("plain", &env), "plain");
    }

    #[test]
    fn the_script_of_a_command_is_its_first_word_when_it_is_a_path() {
        let cwd = Path::new("/repo");
        assert_eq!(script_of("./scripts/guard.sh --strict", cwd), Some(PathBuf::from("/repo/./scripts/guard.sh")));
        assert_eq!(script_of("/opt/h.sh", cwd), Some(PathBuf::from("/opt/h.sh")));
        assert_eq!(script_of("python3 hook.py", cwd), None);
        assert_eq!(script_of("\"./a b.sh\"", cwd), Some(PathBuf::from("/repo/./a")));
    }
}
