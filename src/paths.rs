//! Where the user's files are on each system: the home directory and the
//! configuration directory, as the agents themselves find them.
//!
//! - **home**: `$HOME` on Unix. On Windows `%USERPROFILE%` (what Node's
//!   `os.homedir()`, Python's `Path.home()` and Rust's `std::env::home_dir`
//!   read, so where Claude Code, Gemini CLI, Codex, Copilot CLI and Cursor
//!   look for `~/.claude`, `~/.gemini`, `~/.codex`, ...), else
//!   `%HOMEDRIVE%%HOMEPATH%`. A `HOME` that Git Bash or MSYS sets on Windows
//!   is not the agents' home and is not read.
//! - **configuration directory** (hookline's own files: the trust store):
//!   `$XDG_CONFIG_HOME` (only when absolute, as the XDG specification
//!   requires), else `$HOME/.config` on Unix; on Windows `%APPDATA%` (the
//!   roaming application data folder, only when absolute), else
//!   `<home>\AppData\Roaming`.
//!
//! Empty variables count as unset. The lookups take the system and the
//! environment as arguments (`*_in`), so the Windows rules are unit-tested
//! on every system.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Which system's rules to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    /// Linux, macOS, the BSDs.
    Unix,
    /// Windows.
    Windows,
}

impl System {
    /// The system this library was built for.
    pub const HOST: System = if cfg!(windows) { System::Windows } else { System::Unix };
}

fn nonempty(get: &dyn Fn(&str) -> Option<OsString>, name: &str) -> Option<OsString> {
    get(name).filter(|v| !v.is_empty())
}

/// A Windows path is absolute when it has a drive and a root
/// (`C:\…`, `C:/…`) or is a UNC path (`\\server\share`); tested as text so
/// that the rule holds on every system.
pub fn is_absolute_on(system: System, path: &Path) -> bool {
    match system {
        System::Unix => path.to_string_lossy().starts_with('/'),
        System::Windows => {
            let s = path.to_string_lossy();
            let b = s.as_bytes();
            (b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'\\' | b'/'))
                || s.starts_with(r"\\")
                || s.starts_with("//")
        }
    }
}

/// `dir` joined with `parts` by the separator of `system` (as text, so
/// that a Windows path built on Linux in a test reads as on Windows).
pub fn join_on(system: System, dir: &Path, parts: &[&str]) -> PathBuf {
    if system == System::HOST {
        let mut p = dir.to_path_buf();
        p.extend(parts);
        return p;
    }
    let sep = if system == System::Windows { '\\' } else { '/' };
    let mut s = dir.to_string_lossy().trim_end_matches(['\\', '/']).to_owned();
    for part in parts {
        s.push(sep);
        s.push_str(part);
    }
    PathBuf::from(s)
}

/// The user's home directory on `system`, from the variables `get` gives
/// (see the module documentation).
pub fn home_dir_in(system: System, get: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    match system {
        System::Unix => nonempty(get, "HOME").map(PathBuf::from),
        System::Windows => nonempty(get, "USERPROFILE").map(PathBuf::from).or_else(|| {
            let (drive, path) = (nonempty(get, "HOMEDRIVE")?, nonempty(get, "HOMEPATH")?);
            let mut s = drive;
            s.push(path);
            Some(PathBuf::from(s))
        }),
    }
}

/// The user's home directory (see the module documentation).
pub fn home_dir() -> Option<PathBuf> {
    home_dir_in(System::HOST, &|n| std::env::var_os(n))
}

/// The name of the variable that holds the home directory on `system`
/// (`HOME`, `USERPROFILE`).
pub fn home_variable(system: System) -> &'static str {
    match system {
        System::Unix => "HOME",
        System::Windows => "USERPROFILE",
    }
}

/// The user's configuration directory on `system` (see the module
/// documentation); `None` when there is no home either.
pub fn config_dir_in(system: System, get: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    match system {
        System::Unix => nonempty(get, "XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| is_absolute_on(system, p))
            .or_else(|| home_dir_in(system, get).map(|h| join_on(system, &h, &[".config"]))),
        System::Windows => nonempty(get, "APPDATA")
            .map(PathBuf::from)
            .filter(|p| is_absolute_on(system, p))
            .or_else(|| home_dir_in(system, get).map(|h| join_on(system, &h, &["AppData", "Roaming"]))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |n| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn home_is_home_on_unix_and_userprofile_on_windows() {
        let vars = [("HOME", "/c/Users/me-git-bash"), ("USERPROFILE", r"C:\Users\me")];
        assert_eq!(home_dir_in(System::Unix, &env(&vars)), Some(PathBuf::from("/c/Users/me-git-bash")));
        // Node's os.homedir() on Windows: "USERPROFILE", whatever HOME says.
        assert_eq!(home_dir_in(System::Windows, &env(&vars)), Some(PathBuf::from(r"C:\Users\me")));
        let drive = [("HOME", "/x"), ("USERPROFILE", ""), ("HOMEDRIVE", "D:"), ("HOMEPATH", r"\Users\me")];
        assert_eq!(home_dir_in(System::Windows, &env(&drive)), Some(PathBuf::from(r"D:\Users\me")));
        assert_eq!(home_dir_in(System::Windows, &env(&[("HOME", "/x")])), None);
        assert_eq!(home_dir_in(System::Unix, &env(&[("HOME", "")])), None);
        assert_eq!(home_variable(System::Windows), "USERPROFILE");
    }

    #[test]
    fn config_dir_is_xdg_on_unix_and_appdata_on_windows() {
        let vars = [
            ("HOME", "/home/me"),
            ("XDG_CONFIG_HOME", "/xdg"),
            ("USERPROFILE", r"C:\Users\me"),
            ("APPDATA", r"C:\Users\me\AppData\Roaming"),
        ];
        assert_eq!(config_dir_in(System::Unix, &env(&vars)), Some(PathBuf::from("/xdg")));
        assert_eq!(config_dir_in(System::Windows, &env(&vars)), Some(PathBuf::from(r"C:\Users\me\AppData\Roaming")));
        // A relative XDG_CONFIG_HOME or APPDATA is ignored.
        let rel =
            [("HOME", "/home/me"), ("XDG_CONFIG_HOME", "rel"), ("USERPROFILE", r"C:\Users\me"), ("APPDATA", "rel")];
        assert_eq!(config_dir_in(System::Unix, &env(&rel)), Some(PathBuf::from("/home/me/.config")));
        assert_eq!(config_dir_in(System::Windows, &env(&rel)), Some(PathBuf::from(r"C:\Users\me\AppData\Roaming")));
        assert_eq!(config_dir_in(System::Windows, &env(&[("HOME", "/home/me")])), None);
    }

    #[test]
    fn windows_absolute_paths_have_a_drive_and_root_or_are_unc() {
        for p in [r"C:\x", "c:/x", r"\\server\share\x", "//server/share"] {
            assert!(is_absolute_on(System::Windows, Path::new(p)), "{p}");
        }
        for p in ["C:x", r"\x", "x", "/x", ""] {
            assert!(!is_absolute_on(System::Windows, Path::new(p)), "{p}");
        }
        assert!(is_absolute_on(System::Unix, Path::new("/x")) && !is_absolute_on(System::Unix, Path::new("x")));
    }
}
