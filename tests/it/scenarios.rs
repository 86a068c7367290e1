//! The scenario corpus, `tests/scenarios/<dialect>/<name>.json`, run through
//! the Rust API. Each file is one case of a vendor's rule written as data:
//! the engine options (the runner adds `workspace` and `session_id`; a
//! relative `hooks_file` is in the workspace), the `files` to write into the
//! workspace first (hook scripts, hooks files), the `event` and its `input`,
//! and `expect`, a subset of the outcome JSON: every key it has must be in
//! the outcome with a matching value (objects by the same rule, arrays
//! element by element and of the same length, anything else equal). The
//! Go, Node and Python bindings run the same files with their own small
//! runners, so the bindings are tested on the cases the core is.

use std::path::{Path, PathBuf};

use hookline::{HookEvent, LifecycleHookEngine};
use serde_json::Value;

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files = Vec::new();
    for dialect in std::fs::read_dir(&root).unwrap() {
        let dialect = dialect.unwrap().path();
        if !dialect.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dialect).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "json") {
                files.push(f);
            }
        }
    }
    files.sort();
    files
}

/// Where `actual` differs from the subset `expect` (`None`: it matches).
fn mismatch(expect: &Value, actual: &Value, at: &str) -> Option<String> {
    match (expect, actual) {
        (Value::Object(e), Value::Object(a)) => e.iter().find_map(|(k, v)| match a.get(k) {
            Some(av) => mismatch(v, av, &format!("{at}.{k}")),
            None => Some(format!("{at}.{k} is missing")),
        }),
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => {
            e.iter().zip(a).enumerate().find_map(|(i, (ev, av))| mismatch(ev, av, &format!("{at}[{i}]")))
        }
        _ if expect == actual => None,
        _ => Some(format!("{at}: expected {expect}, got {actual}")),
    }
}

/// Run one scenario; the outcome JSON.
fn run(scenario: &Value) -> Value {
    let ws = tempfile::tempdir().unwrap();
    let dir = std::fs::canonicalize(ws.path()).unwrap();
    if let Some(files) = scenario["files"].as_object() {
        for (rel, text) in files {
            crate::support::write_executable(&dir.join(rel), text.as_str().unwrap(), 0o755);
        }
    }
    let mut options = scenario["options"].clone();
    options["workspace"] = Value::from(dir.to_str().unwrap());
    options["session_id"] = Value::from("scenario");
    if let Some(file) = options["hooks_file"].as_str() {
        options["hooks_file"] = Value::from(dir.join(file).to_str().unwrap());
    }
    let engine = LifecycleHookEngine::from_options_json(&options.to_string()).unwrap();
    let event = HookEvent::from_name(scenario["event"].as_str().unwrap()).expect("a canonical event");
    engine.run_blocking(event, &scenario["input"]).unwrap().to_json()
}

#[test]
fn every_scenario_of_the_corpus_has_its_expected_outcome() {
    let files = corpus();
    assert!(files.len() >= 10, "the corpus is missing: {files:?}");
    let mut failures = Vec::new();
    for f in &files {
        let scenario: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        for key in ["rule", "event", "input", "expect", "options"] {
            assert!(scenario.get(key).is_some(), "{}: no `{key}`", f.display());
        }
        let out = run(&scenario);
        if let Some(m) = mismatch(&scenario["expect"], &out, "outcome") {
            failures.push(format!("{}: {m}\n  outcome: {out}", f.display()));
        }
    }
    assert!(failures.is_empty(), "{} of {} scenarios failed:\n{}", failures.len(), files.len(), failures.join("\n"));
}

#[test]
fn every_dialect_has_scenarios() {
    let files = corpus();
    for name in hookline::dialect::names() {
        assert!(files.iter().any(|f| f.parent().unwrap().ends_with(name)), "no scenario in tests/scenarios/{name}/");
    }
}

#[test]
fn the_subset_match_notices_a_difference() {
    let out = serde_json::json!({"decision": "deny", "hooks": [{"exit_code": 2}], "reason": "r"});
    assert_eq!(mismatch(&serde_json::json!({"decision": "deny"}), &out, "o"), None);
    assert!(mismatch(&serde_json::json!({"decision": "allow"}), &out, "o").is_some());
    assert!(mismatch(&serde_json::json!({"hooks": []}), &out, "o").is_some(), "arrays compare their length");
    assert!(mismatch(&serde_json::json!({"hooks": [{"exit_code": 1}]}), &out, "o").is_some());
    assert!(mismatch(&serde_json::json!({"missing": null}), &out, "o").is_some(), "null is not absent");
}
