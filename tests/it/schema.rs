//! `include/hookline.schema.json`, the ABI schema the bindings are checked
//! against, is what the Rust model says: written by `make schema`
//! (`HOOKLINE_WRITE_SCHEMA=1`), checked here in every other run.

use std::path::PathBuf;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The schema of the code, with the functions of the committed header (its
/// own drift from `src/ffi/` is `make test-header`'s).
fn fresh() -> Value {
    let header = std::fs::read_to_string(root().join("include/hookline.h")).unwrap();
    hookline::schema::schema(&header)
}

fn text(schema: &Value) -> String {
    serde_json::to_string_pretty(schema).unwrap() + "\n"
}

#[test]
fn the_committed_schema_is_the_code_s() {
    let path = root().join("include/hookline.schema.json");
    let want = text(&fresh());
    if std::env::var_os("HOOKLINE_WRITE_SCHEMA").is_some() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    if have != want {
        let first = have.lines().zip(want.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "include/hookline.schema.json drifted from the code (first difference at line {}: {:?} here, {:?} in the code): run `make schema`",
            first + 1,
            have.lines().nth(first).unwrap_or(""),
            want.lines().nth(first).unwrap_or("")
        );
    }
}

#[test]
fn every_option_has_a_type_and_every_enumerated_input_names_its_enum() {
    let schema = fresh();
    for o in schema["options"].as_array().unwrap() {
        assert!(o["type"].is_string(), "option {} has no type: add it to option_type in src/schema.rs", o["name"]);
    }
    for o in schema["hook_source"].as_array().unwrap() {
        assert!(o["type"].is_string(), "hook_sources[].{} has no type: add it to hook_source_type", o["name"]);
    }
    for (event, fields) in schema["inputs"].as_object().unwrap() {
        for f in fields.as_array().unwrap() {
            if f.get("values").is_some() {
                assert!(f["enum"].is_string(), "{event}.{} lists values of no enum of the schema", f["name"]);
            }
        }
    }
}

#[test]
fn the_schema_lists_what_the_header_declares() {
    let schema = fresh();
    let names: Vec<&str> =
        schema["functions"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert!(names.len() > 30, "{names:?}");
    for f in ["hl_version", "hl_engine_new", "hl_engine_run", "hl_registry_new", "hl_string_free"] {
        assert!(names.contains(&f), "{f} missing: {names:?}");
    }
    let run = schema["functions"].as_array().unwrap().iter().find(|f| f["name"] == "hl_engine_run").unwrap();
    assert_eq!(run["returns"], "hl_status");
    assert_eq!(run["params"][1], "hl_event event");
    let events = schema["events"].as_array().unwrap();
    assert_eq!(events.len(), hookline::HookEvent::ALL.len());
    assert_eq!(events[5]["constant"], "HL_EVENT_PRE_TOOL_USE");
    assert_eq!(schema["statuses"][4]["name"], "HL_ERR_INVALID_ARGUMENT");
}
