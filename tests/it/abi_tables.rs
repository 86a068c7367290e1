//! The C header declares only hookline's names. (The header itself is
//! generated from `src/ffi/`, its drift is `make test-header`'s; the bindings'
//! copies of the ABI's enums, options and functions are checked against
//! `include/hookline.schema.json` by each binding's own schema test, and the
//! schema against the code by `schema.rs`.)

use std::path::Path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The names `include/hookline.h` declares: macros, typedefs, functions.
fn header_names(text: &str) -> Vec<String> {
    // Drop comments first.
    let mut code = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        code.push_str(&rest[..i]);
        rest = rest[i + 2..].split_once("*/").map_or("", |(_, after)| after);
    }
    code.push_str(rest);
    let ident = |s: &str| -> Option<String> {
        let s = s.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
        let start = s.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
        (start < s.len()).then(|| s[start..].to_owned())
    };
    let mut names = Vec::new();
    let mut statement = String::new();
    for line in code.lines() {
        let t = line.trim();
        if let Some(def) = t.strip_prefix("#define ") {
            names.extend(def.split_whitespace().next().map(str::to_owned));
            continue;
        }
        if t.starts_with('#') || t.starts_with("extern \"C\"") || t == "}" || t.is_empty() {
            continue;
        }
        statement.push_str(t);
        statement.push(' ');
        if !t.ends_with(';') {
            continue;
        }
        let s = std::mem::take(&mut statement);
        if let Some(open) = s.find("(*") {
            names.extend(ident(&s[..s[open..].find(')').map_or(s.len(), |c| open + c)]));
        } else if let Some(paren) = s.find('(') {
            names.extend(ident(&s[..paren]));
        } else {
            names.extend(ident(&s));
        }
    }
    names
}

#[test]
fn the_header_declares_only_hl_names() {
    let names = header_names(&read("include/hookline.h"));
    assert!(names.len() > 60, "the parser found too few names: {names:?}");
    assert!(names.iter().any(|n| n == "hl_engine_run") && names.iter().any(|n| n == "hl_done_fn"), "{names:?}");
    let foreign: Vec<&String> =
        names.iter().filter(|n| !(n.starts_with("hl_") || n.starts_with("HL_") || *n == "HOOKLINE_H")).collect();
    assert!(foreign.is_empty(), "include/hookline.h declares names that are not hookline's: {foreign:?}");
    // The check itself notices a leaked constant.
    assert!(header_names("#define WARM_THREADS 2\n").contains(&"WARM_THREADS".to_owned()));
}
