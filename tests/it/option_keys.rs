//! Unknown top-level option keys are `InvalidArgument` naming the key (and
//! the intended option when one is close); an empty `session_id` is
//! rejected like a missing one.

use hookline::{LifecycleHookEngine, Status};
use serde_json::json;

fn workspace() -> String {
    std::env::temp_dir().to_string_lossy().into_owned()
}

fn new_err(options: serde_json::Value) -> hookline::Error {
    match LifecycleHookEngine::from_options_json(&options.to_string()) {
        Ok(_) => panic!("options {options} were accepted"),
        Err(e) => e,
    }
}

#[test]
fn misspelled_workspace_gated_is_rejected_with_the_intended_name() {
    for typo in ["workspacegated", "workspaceGated", "workspace_gate", "WorkspaceGated"] {
        let e = new_err(json!({"workspace": workspace(), "session_id": "s", typo: true}));
        assert_eq!(e.status, Status::InvalidArgument, "{typo}: {e:?}");
        assert_eq!(e.message, format!("unknown option `{typo}`; did you mean `workspace_gated`?"));
    }
}

#[test]
fn unknown_option_without_a_close_match_names_only_the_key() {
    let e = new_err(json!({"workspace": workspace(), "session_id": "s", "colour": "blue"}));
    assert_eq!(e.status, Status::InvalidArgument);
    assert_eq!(e.message, "unknown option `colour`");
}

#[test]
fn reload_rejects_unknown_option_and_keeps_the_gate() {
    let ws = workspace();
    let engine = LifecycleHookEngine::from_options_json(
        &json!({"workspace": ws, "session_id": "s", "workspace_gated": true}).to_string(),
    )
    .unwrap();
    let e = engine
        .reload_json(&json!({"workspace": ws, "session_id": "s", "workspaceGate": false}).to_string())
        .unwrap_err();
    assert_eq!(e.status, Status::InvalidArgument);
    assert!(e.message.contains("did you mean `workspace_gated`?"), "{}", e.message);
    assert!(engine.workspace_gated());
}

#[test]
fn all_known_option_keys_are_accepted() {
    let engine = LifecycleHookEngine::from_options_json(
        &json!({"workspace": workspace(), "session_id": "s", "trigger": "resume", "workspace_gated": true,
                "hooks": {}, "hooks_toml": null, "hooks_file": null, "transcript_path": null,
                "trust_store": null, "env": {}, "env_remove": [], "max_output_bytes": 10})
        .to_string(),
    )
    .unwrap();
    assert!(engine.workspace_gated());
}

#[test]
fn empty_session_id_is_rejected_like_a_missing_one() {
    let e = new_err(json!({"workspace": workspace(), "session_id": ""}));
    assert_eq!(e.status, Status::InvalidArgument);
    assert_eq!(e.message, "option `session_id` must be a non-empty string");
    let e = new_err(json!({"workspace": workspace()}));
    assert_eq!(e.message, "option `session_id` is required");
}
