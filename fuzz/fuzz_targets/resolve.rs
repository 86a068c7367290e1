//! Fuzz the approval gate's script resolver (`hookline::gate::resolve`):
//! the input is shell text; its NUL-separated pieces are also an exec-form
//! word list.
//!
//! Oracles (docs/trust.md, "What the approval pins"): never a panic; at
//! most `MAX_REFERENCES` references; every path absolute with no `.` or
//! `..` component; a program's word has a `/`; an argument or input lies
//! inside the workspace or the plugin root; the same text gives the same
//! references.
#![no_main]

use std::path::{Component, Path};

use hookline::gate::resolve::{exec_references, shell_references, Reference, ResolveCtx, Role, MAX_REFERENCES};
use libfuzzer_sys::fuzz_target;

const PLACEHOLDERS: &[(&str, &str)] =
    &[("HOOKLINE_PROJECT_DIR", "/ws"), ("CLAUDE_PROJECT_DIR", "/ws"), ("CLAUDE_PLUGIN_ROOT", "/plug/in")];

fn check(refs: &[Reference]) {
    assert!(refs.len() <= MAX_REFERENCES);
    for r in refs {
        assert!(r.path.is_absolute(), "{r:?}");
        assert!(r.path.components().all(|c| !matches!(c, Component::CurDir | Component::ParentDir)), "{r:?}");
        match r.role {
            Role::Program => assert!(r.word.contains('/'), "{r:?}"),
            Role::Argument | Role::Input => {
                assert!(r.path.starts_with("/ws") || r.path.starts_with("/plug/in"), "{r:?}")
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let ctx = ResolveCtx {
        workspace: Path::new("/ws"),
        cwd: None,
        plugin_root: Some(Path::new("/plug/in")),
        home: Some(Path::new("/home/u")),
        placeholders: PLACEHOLDERS,
    };
    let a = shell_references(&text, &ctx);
    check(&a);
    assert_eq!(a, shell_references(&text, &ctx));
    let words: Vec<&str> = text.split('\0').collect();
    check(&exec_references(&words, &ctx));
});
