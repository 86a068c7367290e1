//! The `command` handler: a command run by the process runner
//! ([`crate::runner`]) in the workspace, in its own process group, the
//! payload on stdin, stdout and stderr read while it runs, killed with its
//! group at the timeout or on cancel.
//!
//! - Shell form (no `args`): `/bin/sh -c <command>` (or its dialect's shell
//!   and command line, [`crate::dialect::Dialect::shell`]); `"shell":
//!   "bash"` runs `bash -c <command>` and `"shell": "powershell"` runs
//!   `pwsh -NoProfile -Command <command>`, each found on the hook
//!   environment's `PATH` (a missing one is a spawn failure saying so).
//! - Exec form (`args` set): `command` is resolved on `PATH` (a name
//!   without `/`; a relative path is taken from the workspace) and spawned
//!   directly with `args` as its arguments, no shell. The dialect's
//!   placeholders (`${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}`,
//!   `${CLAUDE_PLUGIN_DATA}` in Claude Code's) are replaced literally in
//!   `command` and in each argument by the values the hook's environment
//!   gives those variables (empty when unset).
//!
//! A command's [`Launch`] can say more (configs of some dialects do): a
//! program started directly (`argv`, its first word looked up on the
//! hook's `PATH` when it is a bare name), a working directory (relative to
//! the workspace), variables added to the environment (their `$NAME` and
//! `${NAME}` expanded when the launch asks for it), and a script named by
//! the command's first word made executable before it starts.
//!
//! A traced run hands its trace context on in the environment
//! (`TRACEPARENT`, `TRACESTATE`).

use std::borrow::Cow;
use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use super::environment::{with_trace_context, HOOKLINE_NAMES};
use super::{Call, Ran};
use crate::config::{Launch, Shell};
use crate::model::execution::HookExecution;
use crate::runner::{self, CommandSpec, Environment, Program};

/// The `PATH` searched when the hook environment has none.
#[cfg(unix)]
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";
#[cfg(windows)]
const DEFAULT_PATH: &str = r"C:\Windows\System32;C:\Windows";

/// Whether a command word is a path rather than a name to look up: it has
/// a `/` (or, on Windows, a `\`).
fn is_path(word: &str) -> bool {
    word.contains('/') || (cfg!(windows) && word.contains('\\'))
}

/// Run a command hook.
pub(crate) fn run(
    command: &str,
    args: Option<&[String]>,
    shell: Shell,
    launch: &Launch,
    call: &Call<'_>,
) -> io::Result<Ran> {
    let cwd: Cow<'_, Path> = match &launch.cwd {
        Some(dir) => Cow::Owned(call.cwd.join(dir)),
        None => Cow::Borrowed(call.cwd),
    };
    let env = environment(launch, call.env, call.reserved_env)?;
    let env: Cow<'_, Environment> = match call.trace {
        Some(trace) => Cow::Owned(with_trace_context(&env, trace)?),
        None => env,
    };
    let env: &Environment = &env;
    if launch.make_script_executable {
        make_script_executable(command, &cwd);
    }
    let argv0;
    let substituted;
    let resolved;
    #[cfg(windows)]
    let started;
    #[cfg(windows)]
    let mut shell_env: Option<Environment> = None;
    #[cfg(unix)]
    let shell_env: Option<Environment> = None;
    let (command_text, program) = match (launch.argv.as_deref(), args) {
        (Some(argv), _) => {
            let Some((first, rest)) = argv.split_first().filter(|(first, _)| !first.is_empty()) else {
                return Err(io::Error::new(io::ErrorKind::InvalidInput, "the hook's program is empty"));
            };
            resolved = resolve_program(first, &cwd, env)?;
            (first.as_str(), Program::Exec { path: &resolved, args: rest })
        }
        (None, Some(args)) => {
            argv0 = substitute(command, call.placeholders, env);
            substituted = args.iter().map(|a| substitute(a, call.placeholders, env)).collect::<Vec<_>>();
            resolved = resolve_executable(&argv0, &cwd, env)?;
            (argv0.as_str(), Program::Exec { path: &resolved, args: &substituted })
        }
        // On Windows a shell-form hook runs in its dialect's Windows shell
        // (`"shell": "powershell"` in the dialect's PowerShell).
        #[cfg(windows)]
        (None, None) => {
            use crate::config::windows_shell::WindowsShell;
            let (default, powershell) = call.windows_shell;
            let chosen = match shell {
                Shell::PowerShell => powershell,
                Shell::Bash => WindowsShell::BASH,
                Shell::Sh | Shell::User => default,
            };
            let line = call.command_line.unwrap_or(command);
            started = crate::config::windows_shell::start(&chosen, line, env, &|p| p.is_file())?;
            if !started.env.is_empty() {
                let mut changed = env.clone();
                for (name, value) in &started.env {
                    changed.set(OsStr::new(name), OsStr::new(value))?;
                }
                shell_env = Some(changed);
            }
            (started.command.as_str(), Program::Shell { path: &started.program, flags: &started.flags })
        }
        // A hook that names no shell runs in its dialect's, with the
        // command line its dialect makes of the command as written.
        #[cfg(unix)]
        (None, None) => {
            match (if shell == Shell::Sh { call.shell } else { shell }, call.command_line.unwrap_or(command)) {
                (Shell::Sh, command) => (command, Program::Sh),
                (Shell::Bash, command) => {
                    resolved = find_on_path("bash", env)
                        .ok_or_else(|| not_found("the hook's shell is bash, which is not on PATH"))?;
                    (command, Program::Shell { path: &resolved, flags: &["-c"] })
                }
                (Shell::User, command) => match user_shell(env) {
                    Some(path) => {
                        resolved = path;
                        (command, Program::Shell { path: &resolved, flags: &["-c"] })
                    }
                    None => (command, Program::Sh),
                },
                (Shell::PowerShell, command) => {
                    resolved = find_on_path("pwsh", env).ok_or_else(|| {
                        not_found("the hook's shell is powershell, which needs pwsh on PATH (not found)")
                    })?;
                    (command, Program::Shell { path: &resolved, flags: &["-NoProfile", "-Command"] })
                }
            }
        }
    };
    let spec = CommandSpec {
        command: command_text,
        program,
        cwd: &cwd,
        env: shell_env.as_ref().unwrap_or(env),
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
            timeout_ms: u64::try_from(call.timeout.as_millis()).unwrap_or(u64::MAX),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            ..HookExecution::default()
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

/// The program of a launch's `argv`: a name without `/` is looked up on
/// the hook environment's `PATH`, as a shell would; a path is kept
/// (relative paths are relative to `cwd`).
fn resolve_program(program: &str, cwd: &Path, env: &Environment) -> io::Result<PathBuf> {
    if is_path(program) {
        return Ok(cwd.join(program));
    }
    find_on_path(program, env).ok_or_else(|| not_found(&format!("{program}: not found on the hook's PATH")))
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
    use crate::platform::PermissionsExt;
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
    // Execute permission for whoever may read the file (on Windows every
    // file counts as executable: this is not reached).
    let mode = mode | ((mode & 0o444) >> 2);
    #[cfg(windows)]
    let _ = mode;
    #[cfg(unix)]
    match std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(mode)) {
        Ok(()) => crate::hl_debug!("made {} executable (mode {mode:o})", script.display()),
        Err(e) => crate::hl_warn!("cannot make {} executable: {e}", script.display()),
    }
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
    if is_path(command) {
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
/// `$SHELL` of the hook's environment when it is an executable bash, zsh
/// or sh given by its absolute path ([`Shell::User`]).
#[cfg_attr(windows, allow(dead_code))]
fn user_shell(env: &Environment) -> Option<PathBuf> {
    use crate::platform::PermissionsExt;
    let shell = Path::new(env.get(OsStr::new("SHELL"))?);
    let name = shell.file_name()?.to_str()?;
    let known = matches!(name, "bash" | "zsh" | "sh");
    let runnable = std::fs::metadata(shell).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    (shell.is_absolute() && known && runnable).then(|| shell.to_owned())
}

fn find_on_path(name: &str, env: &Environment) -> Option<PathBuf> {
    use crate::platform::PermissionsExt;
    let path = env.get(OsStr::new("PATH")).unwrap_or(OsStr::new(DEFAULT_PATH));
    // Windows: a name without an extension is tried with each of PATHEXT's
    // (`.COM;.EXE;.BAT;.CMD` when unset), as cmd.exe does.
    let names: Vec<String> = if cfg!(windows) && Path::new(name).extension().is_none() {
        let exts = env.get(OsStr::new("PATHEXT")).map_or(".COM;.EXE;.BAT;.CMD".into(), OsStr::to_string_lossy);
        exts.split(';').filter(|e| !e.is_empty()).map(|e| format!("{name}{}", e.to_ascii_lowercase())).collect()
    } else {
        vec![name.to_owned()]
    };
    std::env::split_paths(path).filter(|d| !d.as_os_str().is_empty()).find_map(|d| {
        names.iter().map(|n| d.join(n)).find(|candidate| {
            std::fs::metadata(candidate).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
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
