//! How a shell-form command hook runs on Windows: which shell, with which
//! flags, and what reaches it. Each dialect says which of these its agent
//! uses ([`crate::dialect::Dialect::windows_shell`] and
//! [`windows_powershell`](crate::dialect::Dialect::windows_powershell), in
//! the dialect's own module); this file finds the shell on the hook's
//! environment and builds the command line.
//!
//! The choice is plain data and the lookup takes the environment and a
//! file test as arguments, so the command lines built for PowerShell and
//! Git Bash (which Wine does not have) are unit-tested on every system.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use crate::runner::Environment;

/// PowerShell 7 then Windows PowerShell 5.1, the order of agents that try both.
pub const PWSH_THEN_WINDOWS_POWERSHELL: &[&str] = &["pwsh.exe", "powershell.exe"];

/// What a dialect's agent runs a shell-form hook in on Windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowsShell {
    /// cmd.exe (`%ComSpec%`, else `%SystemRoot%\System32\cmd.exe`) with
    /// `flags`, the command after them verbatim (cmd.exe does not parse
    /// arguments the way other programs do), in quotes when the flags
    /// have `/s`.
    Cmd { flags: &'static [&'static str] },
    /// PowerShell: `%ComSpec%` when it names PowerShell and
    /// `comspec_first`, else the first of `programs` found on the hook's
    /// `PATH` (then in `%SystemRoot%\System32\WindowsPowerShell\v1.0`), with
    /// `flags` and the command as one argument. With `propagate_exit` the
    /// command is followed by `; if ($LASTEXITCODE -ne 0) { exit
    /// $LASTEXITCODE }`, so a native program's exit code is the hook's.
    PowerShell {
        programs: &'static [&'static str],
        flags: &'static [&'static str],
        comspec_first: bool,
        propagate_exit: bool,
    },
    /// Git for Windows' bash: the file `path_variable` names (when set and
    /// present), else `bash.exe` in `bin` beside the `git.exe` found on
    /// `PATH` or under `%ProgramFiles%\Git`; with `flags` and the command as
    /// one argument. The values of `slash_variables` are passed with `/`
    /// for `\` (bash eats the backslashes of an unquoted `C:\Users\…`).
    /// When there is no Git Bash: `fallback`, or a spawn error naming what
    /// was looked for.
    GitBash {
        path_variable: Option<&'static str>,
        flags: &'static [&'static str],
        slash_variables: &'static [&'static str],
        fallback: Option<&'static WindowsShell>,
    },
}

impl WindowsShell {
    /// cmd.exe as the runner's default: `/d /s /c "<command>"` (`/d`: no
    /// AutoRun commands in the hook's output).
    pub const CMD: WindowsShell = WindowsShell::Cmd { flags: &["/d", "/s", "/c"] };

    /// PowerShell as most agents start it: `-NoProfile -Command`.
    pub const POWERSHELL: WindowsShell = WindowsShell::PowerShell {
        programs: PWSH_THEN_WINDOWS_POWERSHELL,
        flags: &["-NoProfile", "-Command"],
        comspec_first: false,
        propagate_exit: false,
    };

    /// bash from `PATH` (or Git for Windows'), no fallback: `"shell": "bash"`.
    pub const BASH: WindowsShell =
        WindowsShell::GitBash { path_variable: None, flags: &["-c"], slash_variables: &[], fallback: None };
}

/// A shell-form hook's start on Windows: the program, its flags, the text
/// it runs, and variables to change in its environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Started {
    pub program: PathBuf,
    pub flags: Vec<&'static str>,
    pub command: String,
    pub env: Vec<(String, String)>,
}

fn var<'e>(env: &'e Environment, name: &str) -> Option<&'e OsStr> {
    env.get(OsStr::new(name)).filter(|v| !v.is_empty())
}

/// `dir\name` (Windows paths are built as text, so that the lookups
/// behave the same, and are tested, on every system).
fn join(dir: &str, name: &str) -> PathBuf {
    PathBuf::from(format!("{}\\{name}", dir.trim_end_matches(['\\', '/'])))
}

/// `path` without its last component.
fn parent(path: &str) -> Option<&str> {
    path.rfind(['\\', '/']).map(|at| &path[..at])
}

/// The first `name` found in the directories of `PATH` (split at `;`).
fn on_path(name: &str, env: &Environment, is_file: &dyn Fn(&Path) -> bool) -> Option<PathBuf> {
    let path = var(env, "PATH")?.to_string_lossy().into_owned();
    path.split(';').filter(|d| !d.is_empty()).map(|d| join(d.trim_matches('"'), name)).find(|p| is_file(p))
}

/// Where `shell` is on the hook's environment (`is_file` tests a path),
/// and how the command reaches it.
pub fn start(
    shell: &WindowsShell,
    command: &str,
    env: &Environment,
    is_file: &dyn Fn(&Path) -> bool,
) -> io::Result<Started> {
    let comspec = var(env, "ComSpec").map(PathBuf::from);
    let system_root = var(env, "SystemRoot").map(|r| r.to_string_lossy().into_owned());
    match *shell {
        WindowsShell::Cmd { flags } => {
            let program = comspec
                .or_else(|| system_root.map(|r| join(&r, r"System32\cmd.exe")))
                .unwrap_or_else(|| "cmd.exe".into());
            Ok(Started { program, flags: flags.to_vec(), command: command.to_owned(), env: Vec::new() })
        }
        WindowsShell::PowerShell { programs, flags, comspec_first, propagate_exit } => {
            let is_powershell = |p: &Path| {
                let text = p.to_string_lossy();
                let name = text.rsplit(['\\', '/']).next().unwrap_or_default().to_ascii_lowercase();
                matches!(name.strip_suffix(".exe").unwrap_or(&name), "pwsh" | "powershell")
            };
            let program = comspec.filter(|c| comspec_first && is_powershell(c)).or_else(|| {
                programs.iter().find_map(|name| {
                    on_path(name, env, is_file).or_else(|| {
                        let dir = join(system_root.as_ref()?, r"System32\WindowsPowerShell\v1.0");
                        Some(join(&dir.to_string_lossy(), name)).filter(|p| is_file(p))
                    })
                })
            });
            let Some(program) = program else {
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("the hook's shell is PowerShell, and none of {} is on PATH", programs.join(", ")),
                ));
            };
            let command = if propagate_exit {
                format!("{command}; if ($LASTEXITCODE -ne 0) {{ exit $LASTEXITCODE }}")
            } else {
                command.to_owned()
            };
            Ok(Started { program, flags: flags.to_vec(), command, env: Vec::new() })
        }
        WindowsShell::GitBash { path_variable, flags, slash_variables, fallback } => {
            let named = path_variable.and_then(|v| var(env, v)).map(PathBuf::from).filter(|p| is_file(p));
            let found = named.or_else(|| git_bash(env, is_file));
            let Some(program) = found else {
                if let Some(other) = fallback {
                    return start(other, command, env, is_file);
                }
                let hint = path_variable.map(|v| format!(" (set {v} to its bash.exe)")).unwrap_or_default();
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("the hook's shell is bash, and Git Bash was not found{hint}"),
                ));
            };
            let env = slash_variables
                .iter()
                .filter_map(|name| {
                    let value = var(env, name)?.to_string_lossy();
                    value.contains('\\').then(|| (name.to_string(), value.replace('\\', "/")))
                })
                .collect();
            Ok(Started { program, flags: flags.to_vec(), command: command.to_owned(), env })
        }
    }
}

/// Git for Windows' `bin\bash.exe`: beside the `git.exe` on `PATH` (in
/// `cmd\` or `bin\` of the installation), else under `%ProgramFiles%\Git`,
/// else a `bash.exe` on `PATH`.
fn git_bash(env: &Environment, is_file: &dyn Fn(&Path) -> bool) -> Option<PathBuf> {
    let from_git = on_path("git.exe", env, is_file).and_then(|git| {
        let git = git.to_string_lossy().into_owned();
        let install = parent(parent(&git)?)?;
        Some(join(install, r"bin\bash.exe")).filter(|p| is_file(p))
    });
    from_git
        .or_else(|| {
            let root = var(env, "ProgramFiles")?.to_string_lossy().into_owned();
            Some(join(&root, r"Git\bin\bash.exe")).filter(|p| is_file(p))
        })
        .or_else(|| on_path("bash.exe", env, is_file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn env(pairs: &[(&str, &str)]) -> Environment {
        Environment::from_pairs(pairs.iter().copied()).unwrap()
    }

    /// A file test that knows exactly `files`.
    fn files(list: &[&str]) -> impl Fn(&Path) -> bool {
        let set: HashSet<String> = list.iter().map(|s| s.to_string()).collect();
        move |p: &Path| set.contains(&p.to_string_lossy().replace('/', "\\"))
    }

    const WINDOWS: &[(&str, &str)] = &[
        ("ComSpec", r"C:\Windows\system32\cmd.exe"),
        ("SystemRoot", r"C:\Windows"),
        ("PATH", r"C:\Windows\system32;C:\Program Files\Git\cmd;C:\Program Files\PowerShell\7"),
        ("ProgramFiles", r"C:\Program Files"),
    ];

    #[test]
    fn cmd_is_comspec_with_its_flags_and_the_command_verbatim() {
        let s = start(&WindowsShell::CMD, r#"echo "a & b""#, &env(WINDOWS), &files(&[])).unwrap();
        assert_eq!(s.program, PathBuf::from(r"C:\Windows\system32\cmd.exe"));
        assert_eq!(s.flags, ["/d", "/s", "/c"]);
        assert_eq!(s.command, r#"echo "a & b""#);
        let s = start(&WindowsShell::CMD, "x", &env(&[("SystemRoot", r"C:\Win")]), &files(&[])).unwrap();
        assert_eq!(s.program, PathBuf::from(r"C:\Win\System32\cmd.exe"));
    }

    #[test]
    fn powershell_is_pwsh_when_installed_else_windows_powershell() {
        let pwsh = r"C:\Program Files\PowerShell\7\pwsh.exe";
        let winps = r"C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe";
        let s = start(&WindowsShell::POWERSHELL, "Write-Output hi", &env(WINDOWS), &files(&[pwsh, winps])).unwrap();
        assert_eq!(s.program.to_string_lossy().replace('/', "\\"), pwsh);
        assert_eq!(s.flags, ["-NoProfile", "-Command"]);
        assert_eq!(s.command, "Write-Output hi");
        let s = start(&WindowsShell::POWERSHELL, "x", &env(WINDOWS), &files(&[winps])).unwrap();
        assert_eq!(s.program.to_string_lossy().replace('/', "\\"), winps);
        let err = start(&WindowsShell::POWERSHELL, "x", &env(WINDOWS), &files(&[])).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        assert!(err.to_string().contains("pwsh.exe, powershell.exe"), "{err}");
    }

    #[test]
    fn powershell_may_propagate_a_native_exit_code_and_prefer_a_powershell_comspec() {
        let shell = WindowsShell::PowerShell {
            programs: PWSH_THEN_WINDOWS_POWERSHELL,
            flags: &["-NoProfile", "-NonInteractive", "-Command"],
            comspec_first: true,
            propagate_exit: true,
        };
        let mut vars = WINDOWS.to_vec();
        vars[0] = ("ComSpec", r"C:\Tools\pwsh.exe");
        let s = start(&shell, "node check.js", &env(&vars), &files(&[])).unwrap();
        assert_eq!(s.program, PathBuf::from(r"C:\Tools\pwsh.exe"));
        assert_eq!(s.command, "node check.js; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }");
    }

    #[test]
    fn git_bash_comes_from_its_variable_then_beside_git_then_program_files() {
        let shell = WindowsShell::GitBash {
            path_variable: Some("CLAUDE_CODE_GIT_BASH_PATH"),
            flags: &["-c"],
            slash_variables: &["CLAUDE_PROJECT_DIR"],
            fallback: Some(&WindowsShell::POWERSHELL),
        };
        let beside_git = r"C:\Program Files\Git\bin\bash.exe";
        let git = r"C:\Program Files\Git\cmd\git.exe";
        let mut vars = WINDOWS.to_vec();
        vars.push(("CLAUDE_PROJECT_DIR", r"C:\Users\me\repo"));
        let s = start(&shell, "$CLAUDE_PROJECT_DIR/h.sh", &env(&vars), &files(&[git, beside_git])).unwrap();
        assert_eq!(s.program.to_string_lossy().replace('/', "\\"), beside_git);
        assert_eq!(s.flags, ["-c"]);
        assert_eq!(s.command, "$CLAUDE_PROJECT_DIR/h.sh");
        assert_eq!(s.env, [("CLAUDE_PROJECT_DIR".to_string(), "C:/Users/me/repo".to_string())]);

        vars.push(("CLAUDE_CODE_GIT_BASH_PATH", r"D:\git\bin\bash.exe"));
        let s = start(&shell, "x", &env(&vars), &files(&[git, beside_git, r"D:\git\bin\bash.exe"])).unwrap();
        assert_eq!(s.program, PathBuf::from(r"D:\git\bin\bash.exe"));

        // No Git Bash: PowerShell, as Claude Code falls back.
        let pwsh = r"C:\Program Files\PowerShell\7\pwsh.exe";
        let s = start(&shell, "x", &env(WINDOWS), &files(&[pwsh])).unwrap();
        assert_eq!(s.program.to_string_lossy().replace('/', "\\"), pwsh);
        assert!(s.env.is_empty());
    }

    #[test]
    fn bash_without_a_fallback_is_a_spawn_error_saying_what_was_looked_for() {
        let err = start(&WindowsShell::BASH, "x", &env(WINDOWS), &files(&[])).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::NotFound);
        assert!(err.to_string().contains("Git Bash was not found"), "{err}");
    }
}
