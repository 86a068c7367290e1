//! The environment block of a hook shell: every `NAME=VALUE` entry,
//! NUL-terminated, in one buffer, which `posix_spawn` takes as `envp`
//! through [`EnvBlock::entry_ptrs`]. Built once per spawn from the
//! [`CommandSpec`](super::CommandSpec)'s pairs: two allocations, where
//! `std::process::Command` makes a map entry and a `CString` per variable.

use std::ffi::{c_char, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;

/// `NAME=VALUE\0` entries, in the order given, one per name.
#[derive(Debug)]
pub(crate) struct EnvBlock {
    bytes: Vec<u8>,
    /// Where each entry starts in `bytes`.
    starts: Vec<usize>,
}

impl EnvBlock {
    /// The block of `env`. A name given twice keeps its last value (as
    /// `std::process::Command::envs` does). A NUL byte in a name or value
    /// cannot be passed to a process: `InvalidInput` naming the variable.
    /// Names are otherwise passed as given, as std does (an inherited
    /// entry such as `=x=y`, which `std::env::vars_os` reads as the name
    /// `=x`, is passed on unchanged).
    pub(crate) fn new(env: &[(OsString, OsString)]) -> io::Result<EnvBlock> {
        let len: usize = env.iter().map(|(k, v)| k.len() + v.len() + 2).sum();
        let mut block = EnvBlock { bytes: Vec::with_capacity(len), starts: Vec::with_capacity(env.len()) };
        for (i, (name, value)) in env.iter().enumerate() {
            let (name, value) = (name.as_bytes(), value.as_bytes());
            if name.contains(&0) || value.contains(&0) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "environment variable {:?} cannot be passed to a hook: it contains a NUL byte",
                        String::from_utf8_lossy(name)
                    ),
                ));
            }
            // A later entry of the same name replaces this one.
            if env[i + 1..].iter().any(|(later, _)| later.as_bytes() == name) {
                continue;
            }
            block.starts.push(block.bytes.len());
            block.bytes.extend_from_slice(name);
            block.bytes.push(b'=');
            block.bytes.extend_from_slice(value);
            block.bytes.push(0);
        }
        Ok(block)
    }

    /// `envp`: a pointer to each entry, then NULL. The pointers are valid
    /// while `self` is alive (it cannot change).
    pub(crate) fn entry_ptrs(&self) -> Vec<*mut c_char> {
        self.starts
            .iter()
            .map(|&start| self.bytes[start..].as_ptr() as *mut c_char)
            .chain(std::iter::once(std::ptr::null_mut()))
            .collect()
    }

    /// The entries, without their NULs (for tests).
    #[cfg(test)]
    fn entries(&self) -> Vec<&[u8]> {
        self.starts
            .iter()
            .map(|&s| {
                let rest = &self.bytes[s..];
                &rest[..rest.iter().position(|&b| b == 0).unwrap()]
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        list.iter().map(|(k, v)| (k.into(), v.into())).collect()
    }

    #[test]
    fn entries_keep_their_order_and_end_with_nul() {
        let block = EnvBlock::new(&pairs(&[("A", "1"), ("PATH", "/bin:/usr/bin"), ("EMPTY", "")])).unwrap();
        assert_eq!(block.entries(), vec![&b"A=1"[..], b"PATH=/bin:/usr/bin", b"EMPTY="]);
        assert_eq!(block.bytes.last(), Some(&0));
        let ptrs = block.entry_ptrs();
        assert_eq!(ptrs.len(), 4);
        assert!(ptrs[3].is_null());
    }

    #[test]
    fn a_repeated_name_keeps_its_last_value() {
        let block = EnvBlock::new(&pairs(&[("X", "first"), ("Y", "y"), ("X", "last")])).unwrap();
        assert_eq!(block.entries(), vec![&b"Y=y"[..], b"X=last"]);
    }

    #[test]
    fn values_may_contain_equals_signs_and_odd_inherited_names_pass_unchanged() {
        let block = EnvBlock::new(&pairs(&[("OPTS", "a=b=c"), ("=x", "y")])).unwrap();
        assert_eq!(block.entries(), vec![&b"OPTS=a=b=c"[..], b"=x=y"]);
    }

    #[test]
    fn a_nul_byte_in_a_name_or_value_is_invalid_input() {
        for bad in [("A\0B", "v"), ("NAME", "v\0w")] {
            let err = EnvBlock::new(&pairs(&[bad])).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{bad:?}");
            assert!(err.to_string().contains("contains a NUL byte"), "{err}");
        }
    }

    #[test]
    fn no_variables_is_an_empty_envp() {
        let block = EnvBlock::new(&[]).unwrap();
        assert_eq!(block.entry_ptrs(), vec![std::ptr::null_mut()]);
    }
}
