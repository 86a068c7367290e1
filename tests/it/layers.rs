//! The library's modules depend on each other in one direction
//! (`docs/architecture.md`, "Layers"): this test reads the `crate::…`
//! paths of every file under `src/` (comments and `#[cfg(test)]` items
//! left out), collapses them to the top-level modules of `src/`, and fails
//! on an import cycle, or on an edge that points up the layer order
//!
//! ```text
//! model ← config ← dialect ← {gate, handler} ← merge ← engine ← ffi
//! ```
//!
//! (a module may import any module below it; the modules off that line —
//! `runner`, `trace`, `error`, … — only need to stay out of cycles).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layer of each module on the line, lowest first (`gate` and
/// `handler` share one: `handler` may use `gate`, not the reverse, which
/// the cycle check enforces).
const LAYERS: &[(&str, u8)] = &[
    ("model", 0),
    ("config", 1),
    ("dialect", 2),
    ("gate", 3),
    ("handler", 3),
    ("merge", 4),
    ("engine", 5),
    ("ffi", 6),
];

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rs_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && path.file_name().is_some_and(|n| n != "tests.rs") {
            // A module's `tests.rs` is its `#[cfg(test)] mod tests;`: test
            // code, like the inline test modules stripped below.
            out.push(path);
        }
    }
}

/// `text` without comments, and with the contents of string and character
/// literals blanked (so that braces in them do not count).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if b[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if matches!(b.get(i + 1), Some(b'#' | b'"')) && (i == 0 || !is_ident(b[i - 1])) => {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                i += 2 + hashes;
                while i < b.len() && !b[i..].starts_with(&close) {
                    i += 1;
                }
                i += close.len();
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            // A character literal ('{', '\'', '\u{7b}'); a lifetime has no closing quote.
            b'\'' => {
                let end = if b.get(i + 1) == Some(&b'\\') {
                    b[i + 2..].iter().position(|&c| c == b'\'').map(|p| i + 2 + p)
                } else {
                    let len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                    (b.get(i + 1 + len) == Some(&b'\'')).then_some(i + 1 + len)
                };
                match end {
                    Some(e) => {
                        out.push_str("' '");
                        i = e + 1;
                    }
                    None => {
                        out.push('\'');
                        i += 1;
                    }
                }
            }
            _ => {
                let len = text[i..].chars().next().map_or(1, char::len_utf8);
                out.push_str(&text[i..i + len]);
                i += len;
            }
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `code` without the items under `#[cfg(test)]` (to the item's `;`, or to
/// the brace that closes its body).
fn without_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The top-level modules `code` names as `crate::NAME` (also inside
/// `use crate::{a, b::c}`).
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let b = code.as_bytes();
    let mut from = 0;
    while let Some(p) = code[from..].find("crate::") {
        let at = from + p;
        from = at + "crate::".len();
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let rest = &code[from..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 1 && (c == ',' || c == '}') || depth == 0 {
                    add_ident(&group[start..i], &mut names);
                    start = i + 1;
                }
                if depth == 0 {
                    break;
                }
            }
        } else {
            add_ident(rest, &mut names);
        }
    }
    names
}

fn add_ident(text: &str, names: &mut BTreeSet<String>) {
    let ident: String = text.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if !ident.is_empty() && ident != "self" {
        names.insert(ident);
    }
}

/// Each top-level module of `src/` and the modules its code names.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut files = Vec::new();
            rs_files(&path, &mut files);
            modules.insert(name, files);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            modules.insert(name, vec![path]);
        }
    }
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .into_iter()
        .map(|(module, files)| {
            let mut edges = BTreeSet::new();
            for file in files {
                let code = without_test_items(&code_only(&fs::read_to_string(&file).unwrap()));
                edges.extend(crate_paths(&code).into_iter().filter(|n| *n != module && known.contains(n)));
            }
            (module, edges)
        })
        .collect()
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(w: &mut Walk<'g>, v: &'g str) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        for u in &w.graph[v] {
            let u = u.as_str();
            if !w.index.contains_key(u) {
                visit(w, u);
                let low = w.low[v].min(w.low[u]);
                w.low.insert(v, low);
            } else if w.stack.contains(&u) {
                let low = w.low[v].min(w.index[u]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut component = Vec::new();
            while let Some(u) = w.stack.pop() {
                component.push(u.to_owned());
                if u == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                w.found.push(component);
            }
        }
    }
    let mut w = Walk { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for v in graph.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.found
}

fn describe(graph: &BTreeMap<String, BTreeSet<String>>) -> String {
    graph.iter().map(|(m, to)| format!("{m} -> {}\n", to.iter().cloned().collect::<Vec<_>>().join(" "))).collect()
}

#[test]
fn the_top_level_modules_import_each_other_without_a_cycle() {
    let graph = module_graph();
    assert!(graph.len() > 10 && graph.contains_key("engine"), "src/ was read:\n{}", describe(&graph));
    let found = cycles(&graph);
    assert!(found.is_empty(), "import cycles among src/'s modules: {found:?}\n{}", describe(&graph));
}

#[test]
fn no_module_imports_one_above_it_in_the_layer_order() {
    let graph = module_graph();
    let layer = |m: &str| LAYERS.iter().find(|(n, _)| *n == m).map(|(_, l)| *l);
    let mut upward = Vec::new();
    for (from, to) in &graph {
        for m in to {
            if let (Some(a), Some(b)) = (layer(from), layer(m)) {
                if b > a {
                    upward.push(format!("{from} -> {m}"));
                }
            }
        }
    }
    assert!(upward.is_empty(), "imports against the layer order: {upward:?}\n{}", describe(&graph));
    for (m, _) in LAYERS {
        assert!(graph.contains_key(*m), "module {m} of the layer order is not in src/");
    }
}

#[test]
fn the_reader_finds_the_paths_a_file_names() {
    let code = without_test_items(&code_only(
        r##"
        use crate::config::{HookSpec, HooksConfig};
        use crate::{dialect::{self, Dialect}, model::event::HookEvent};
        // use crate::commented;
        /* crate::block */
        let s = "crate::in_a_string {";
        let r = r#"crate::raw"#;
        let c = '{';
        fn f<'a>(x: &'a str) -> crate::error::Result<()> { crate::hl_warn!("{x}"); Ok(()) }
        #[cfg(test)]
        mod tests { use crate::tested; fn g() { if true { crate::nested(); } } }
        #[cfg(test)]
        use crate::test_only;
        use crate::after_tests::X;
        "##,
    ));
    let found: Vec<String> = crate_paths(&code).into_iter().collect();
    assert_eq!(found, ["after_tests", "config", "dialect", "error", "hl_warn", "model"]);
}

/// The most lines of code a source file of the library or the CLI may have
/// before its `#[cfg(test)]` module (`CONTRIBUTING.md`): past it, a module
/// becomes a folder of smaller files.
const MAX_FILE_LINES: usize = 700;

#[test]
fn no_source_file_is_longer_than_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rs_files(&root.join("src"), &mut files);
    rs_files(&root.join("cli/src"), &mut files);
    assert!(files.len() > 50, "the source files were not found: {files:?}");
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let text = fs::read_to_string(f).unwrap();
            let lines = text.lines().take_while(|l| !l.starts_with("#[cfg(test)]")).count();
            (lines > MAX_FILE_LINES).then(|| format!("{} ({lines} lines)", f.strip_prefix(root).unwrap().display()))
        })
        .collect();
    assert!(long.is_empty(), "files over {MAX_FILE_LINES} lines of code: {long:?}");
}
