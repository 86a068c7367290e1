//! One table per ABI enum: the Rust definitions (statuses, events, hook
//! points, the enumerated input values and the dialect names) are the source, and every
//! binding's copy of them must list exactly the same names and numbers.
//! The C header is generated from the Rust code (its drift is `make
//! test-header`'s); the Go and Node bindings carry hand-written copies,
//! checked here, so a value added in Rust and forgotten in a binding fails
//! this test.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use hookline::{
    CompactionMode, CompactionTrigger, HookEvent, HookPoint, SessionEndReason, SessionStartTrigger, Status,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `PreToolUse` → `PRE_TOOL_USE`.
fn screaming(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// Every `"value"` assigned to a Go constant of type `ty` (`X ty = "value"`).
fn go_string_consts(src: &str, ty: &str) -> BTreeSet<String> {
    let needle = format!(" {ty} = \"");
    src.lines()
        .filter_map(|l| l.split_once(&needle).map(|(_, rest)| rest.split('"').next().unwrap_or("").to_owned()))
        .collect()
}

/// The string literals of the TypeScript union after `field` (`field: 'a' | 'b';`).
fn ts_union(src: &str, field: &str) -> BTreeSet<String> {
    let line =
        src.lines().find(|l| l.trim_start().starts_with(field)).unwrap_or_else(|| panic!("no `{field}` in d.ts"));
    line.split('\'').skip(1).step_by(2).map(str::to_owned).collect()
}

fn set(values: impl IntoIterator<Item = &'static str>) -> BTreeSet<String> {
    values.into_iter().map(str::to_owned).collect()
}

#[test]
fn every_binding_lists_every_event_with_its_number() {
    let (go, js, dts) =
        (read("bindings/go/engine.go"), read("bindings/node/lib/engine.js"), read("bindings/node/index.d.ts"));
    for (i, e) in HookEvent::ALL.iter().enumerate() {
        assert!(go.contains(&format!("C.HL_EVENT_{}", screaming(e.name()))), "Go lacks event {e}");
        assert!(js.contains(&format!("  {}: {i},", e.name())), "Node engine.js lacks event {e} = {i}");
        assert!(dts.contains(&format!("  {}: {i};", e.name())), "index.d.ts lacks event {e} = {i}");
        assert!(dts.contains(&format!("'{}'", e.key())), "index.d.ts lacks event key {}", e.key());
    }
}

#[test]
fn every_binding_lists_every_status_with_its_number() {
    let (go, js) = (read("bindings/go/errors.go"), read("bindings/node/lib/errors.js"));
    for s in Status::ALL {
        assert!(go.contains(&format!("C.{}", s.name())), "Go lacks status {}", s.name());
        assert!(js.contains(&format!("{}: {},", s.name(), s as i32)), "Node lacks status {} = {}", s.name(), s as i32);
    }
}

#[test]
fn every_binding_lists_every_hook_point_with_its_number() {
    let (go, js) = (read("bindings/go/registry.go"), read("bindings/node/lib/registry.js"));
    for (i, p) in HookPoint::ALL.iter().enumerate() {
        assert!(go.contains(&format!("C.HL_POINT_{}", p.label().to_ascii_uppercase())), "Go lacks point {}", p.label());
        assert!(js.contains(&format!("  {}: {i},", p.label())), "Node lacks point {} = {i}", p.label());
    }
}

#[test]
fn every_binding_lists_exactly_the_enumerated_input_values() {
    let (go, dts) = (read("bindings/go/events.go"), read("bindings/node/index.d.ts"));
    let triggers = set(SessionStartTrigger::ALL.iter().map(|t| t.as_str()));
    let reasons = set(SessionEndReason::ALL.iter().map(|t| t.as_str()));
    let compact = set(CompactionTrigger::ALL.iter().map(|t| t.as_str()));
    let modes = set(CompactionMode::ALL.iter().map(|t| t.as_str()));
    assert_eq!(go_string_consts(&go, "SessionStartTrigger"), triggers, "Go SessionStartTrigger");
    assert_eq!(go_string_consts(&go, "SessionEndReason"), reasons, "Go SessionEndReason");
    assert_eq!(go_string_consts(&go, "CompactTrigger"), compact, "Go CompactTrigger");
    assert_eq!(go_string_consts(&go, "CompactMode"), modes, "Go CompactMode");
    assert_eq!(ts_union(&dts, "trigger?:"), triggers, "index.d.ts trigger");
    assert_eq!(ts_union(&dts, "reason:"), reasons, "index.d.ts SessionEnd reason");
    assert_eq!(ts_union(&dts, "trigger:"), compact, "index.d.ts PreCompact trigger");
    assert_eq!(ts_union(&dts, "mode:"), modes, "index.d.ts PreCompact mode");
}

/// The dialect names (`dialect` option): Go's `Dialect` constants and the
/// TypeScript `Dialect` union list exactly the library's.
#[test]
fn every_binding_lists_exactly_the_dialect_names() {
    let (go, dts) = (read("bindings/go/events.go"), read("bindings/node/index.d.ts"));
    let names = set(hookline::dialect::names());
    assert_eq!(go_string_consts(&go, "Dialect"), names, "Go Dialect");
    assert_eq!(ts_union(&dts, "export type Dialect ="), names, "index.d.ts Dialect");
}

#[test]
fn every_binding_lists_exactly_the_pre_tool_use_decisions() {
    let (go, dts) = (read("bindings/go/events.go"), read("bindings/node/index.d.ts"));
    let decisions = set(hookline::interpret::PreToolHookDecision::ALL.iter().map(|d| d.as_str()));
    assert_eq!(go_string_consts(&go, "PreToolUseDecision"), decisions, "Go PreToolUseDecision");
    assert_eq!(ts_union(&dts, "decision: 'continue'"), decisions, "index.d.ts PreToolUseOutcome.decision");
    for d in hookline::interpret::PreToolHookDecision::ALL {
        let json = serde_json::to_value(d).unwrap();
        assert_eq!(json, d.as_str(), "the wire name of {d:?}");
    }
}

#[test]
fn the_drift_check_notices_a_missing_value() {
    let go = "const (\n\tTriggerStartup SessionStartTrigger = \"startup\"\n)\n";
    assert_ne!(go_string_consts(go, "SessionStartTrigger"), set(SessionStartTrigger::ALL.iter().map(|t| t.as_str())));
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
