//! A hook's complete environment, prepared once per run: every
//! `NAME=VALUE` entry, NUL-terminated, in one buffer. `posix_spawn` takes
//! it as `envp` through [`Environment::entry_ptrs`] without copying it
//! again; `std::process::Command` (the spawner of systems without
//! `posix_spawn_file_actions_addchdir_np`) gets it as pairs.
//!
//! Building it costs two allocations whatever the number of variables, and
//! dropping it two frees; `std::process::Command` makes a map entry and a
//! `CString` per variable at every spawn.
//!
//! On Windows the entries are kept as UTF-8 (a name or value that is not
//! valid Unicode, which Windows allows, is converted lossily: an unpaired
//! surrogate becomes U+FFFD), and names compare without regard to ASCII
//! case, as Windows compares them: `Path` and `PATH` are one variable.

use std::ffi::{c_char, OsStr};
use std::io;
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;

/// The environment a hook shell starts with (nothing else is inherited).
///
/// Entries keep the order they were added in. [`set`](Self::set) and
/// [`from_pairs`](Self::from_pairs) keep one entry per name (the last value
/// given wins, as with `std::process::Command::envs`); [`push`](Self::push)
/// appends without looking, for names known to be new. A NUL byte in a name
/// or value cannot be passed to a process: `InvalidInput` naming the
/// variable. Names are otherwise taken as given (an inherited entry such as
/// `=x=y`, which `std::env::vars_os` reads as the name `=x`, is passed on
/// unchanged).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    bytes: Vec<u8>,
    /// Per entry: where it starts in `bytes` and the length of its name.
    entries: Vec<(usize, usize)>,
}

fn nul_error(name: &[u8]) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "environment variable {:?} cannot be passed to a hook: it contains a NUL byte",
            String::from_utf8_lossy(name)
        ),
    )
}

impl Environment {
    /// An empty environment.
    pub fn new() -> Environment {
        Environment::default()
    }

    /// An empty environment with room for `entries` variables of `bytes`
    /// bytes in all (names, values, `=` and NUL included).
    pub fn with_capacity(entries: usize, bytes: usize) -> Environment {
        Environment { bytes: Vec::with_capacity(bytes), entries: Vec::with_capacity(entries) }
    }

    /// The environment of `pairs`; a name given twice keeps its last value.
    pub fn from_pairs<K: AsRef<OsStr>, V: AsRef<OsStr>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> io::Result<Environment> {
        let mut env = Environment::new();
        for (name, value) in pairs {
            env.set(name.as_ref(), value.as_ref())?;
        }
        Ok(env)
    }

    /// Append `name=value` without checking whether `name` is already
    /// there (callers that know it is not, such as a copy of the process
    /// environment).
    pub fn push(&mut self, name: &OsStr, value: &OsStr) -> io::Result<()> {
        #[cfg(unix)]
        let (name, value) = (name.as_bytes(), value.as_bytes());
        #[cfg(windows)]
        let (name, value) = (name.to_string_lossy(), value.to_string_lossy());
        #[cfg(windows)]
        let (name, value) = (name.as_bytes(), value.as_bytes());
        if name.contains(&0) || value.contains(&0) {
            return Err(nul_error(name));
        }
        self.entries.push((self.bytes.len(), name.len()));
        self.bytes.reserve(name.len() + value.len() + 2);
        self.bytes.extend_from_slice(name);
        self.bytes.push(b'=');
        self.bytes.extend_from_slice(value);
        self.bytes.push(0);
        Ok(())
    }

    /// Set `name` to `value`: an existing entry of that name is removed
    /// and the new one appended.
    pub fn set(&mut self, name: &OsStr, value: &OsStr) -> io::Result<()> {
        if self.get(name).is_some() {
            self.remove(name);
        }
        self.push(name, value)
    }

    /// A copy with `name` set to `value` (per-hook variables such as
    /// `CLAUDE_ENV_FILE` and `CLAUDE_PLUGIN_ROOT`).
    pub fn with_var(&self, name: &OsStr, value: &OsStr) -> io::Result<Environment> {
        let mut env = self.clone();
        env.set(name, value)?;
        Ok(env)
    }

    /// Remove `name` (nothing happens when it is not there).
    pub fn remove(&mut self, name: &OsStr) {
        if self.get(name).is_none() {
            return;
        }
        let old = std::mem::take(self);
        for (n, v) in old.iter() {
            if !same_name(n, name) {
                // Came from an environment that had no NUL: cannot fail.
                let _ = self.push(n, v);
            }
        }
    }

    /// The value of `name`, if set.
    pub fn get(&self, name: &OsStr) -> Option<&OsStr> {
        self.iter().find(|(n, _)| same_name(n, name)).map(|(_, v)| v)
    }

    /// The entries as `(name, value)`, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&OsStr, &OsStr)> + '_ {
        self.entries.iter().map(|&(start, name_len)| {
            let entry = &self.bytes[start..];
            let end = entry.iter().position(|&b| b == 0).unwrap_or(entry.len());
            (os_str(&entry[..name_len]), os_str(&entry[name_len + 1..end]))
        })
    }

    /// How many variables.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `envp`: a pointer to each NUL-terminated `NAME=VALUE` entry, then
    /// NULL. The pointers are valid while `self` is alive and unchanged.
    #[cfg_attr(not(hookline_posix_spawn), allow(dead_code))]
    pub(crate) fn entry_ptrs(&self) -> Vec<*mut c_char> {
        self.entries
            .iter()
            .map(|&(start, _)| self.bytes[start..].as_ptr() as *mut c_char)
            .chain(std::iter::once(std::ptr::null_mut()))
            .collect()
    }
}

/// An entry's name or value (bytes `push` stored).
#[cfg(unix)]
fn os_str(bytes: &[u8]) -> &OsStr {
    OsStr::from_bytes(bytes)
}

/// An entry's name or value (`push` stored UTF-8, split at ASCII bytes).
#[cfg(windows)]
fn os_str(bytes: &[u8]) -> &OsStr {
    OsStr::new(std::str::from_utf8(bytes).unwrap_or_default())
}

/// Whether two variable names are one: byte for byte on Unix, without
/// regard to ASCII case on Windows.
fn same_name(a: &OsStr, b: &OsStr) -> bool {
    #[cfg(windows)]
    return a.eq_ignore_ascii_case(b);
    #[cfg(unix)]
    return a == b;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> &OsStr {
        OsStr::new(s)
    }

    fn entries(env: &Environment) -> Vec<(String, String)> {
        env.iter().map(|(n, v)| (n.to_string_lossy().into_owned(), v.to_string_lossy().into_owned())).collect()
    }

    fn strings(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    #[test]
    fn entries_keep_their_order_and_envp_ends_with_null() {
        let env = Environment::from_pairs([("A", "1"), ("PATH", "/bin:/usr/bin"), ("EMPTY", "")]).unwrap();
        assert_eq!(entries(&env), strings(&[("A", "1"), ("PATH", "/bin:/usr/bin"), ("EMPTY", "")]));
        assert_eq!(env.bytes, b"A=1\0PATH=/bin:/usr/bin\0EMPTY=\0");
        let ptrs = env.entry_ptrs();
        assert_eq!(ptrs.len(), 4);
        assert!(ptrs[3].is_null());
        assert_eq!(ptrs[1] as usize - ptrs[0] as usize, 4);
    }

    #[test]
    fn a_repeated_name_keeps_its_last_value() {
        let env = Environment::from_pairs([("X", "first"), ("Y", "y"), ("X", "last")]).unwrap();
        assert_eq!(entries(&env), strings(&[("Y", "y"), ("X", "last")]));
        assert_eq!(env.get(os("X")), Some(os("last")));
    }

    #[test]
    fn with_var_replaces_or_appends_and_leaves_the_original() {
        let env = Environment::from_pairs([("A", "1"), ("B", "2")]).unwrap();
        let replaced = env.with_var(os("A"), os("9")).unwrap();
        assert_eq!(entries(&replaced), strings(&[("B", "2"), ("A", "9")]));
        let added = env.with_var(os("C"), os("3")).unwrap();
        assert_eq!(entries(&added), strings(&[("A", "1"), ("B", "2"), ("C", "3")]));
        assert_eq!(entries(&env), strings(&[("A", "1"), ("B", "2")]));
    }

    #[test]
    fn remove_drops_only_that_name() {
        let mut env = Environment::from_pairs([("A", "1"), ("B", "2"), ("C", "3")]).unwrap();
        env.remove(os("B"));
        env.remove(os("missing"));
        assert_eq!(entries(&env), strings(&[("A", "1"), ("C", "3")]));
        assert_eq!(env.len(), 2);
    }

    #[test]
    fn values_may_contain_equals_signs_and_odd_inherited_names_pass_unchanged() {
        let env = Environment::from_pairs([("OPTS", "a=b=c"), ("=x", "y")]).unwrap();
        assert_eq!(env.bytes, b"OPTS=a=b=c\0=x=y\0");
        assert_eq!(entries(&env), strings(&[("OPTS", "a=b=c"), ("=x", "y")]));
    }

    #[test]
    fn a_nul_byte_in_a_name_or_value_is_invalid_input() {
        for (name, value) in [("A\0B", "v"), ("NAME", "v\0w")] {
            let err = Environment::from_pairs([(name, value)]).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{name:?}");
            assert!(err.to_string().contains("contains a NUL byte"), "{err}");
        }
    }

    #[test]
    fn no_variables_is_an_empty_envp() {
        let env = Environment::new();
        assert!(env.is_empty());
        assert_eq!(env.entry_ptrs(), vec![std::ptr::null_mut()]);
    }
}
