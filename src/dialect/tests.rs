use super::*;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::SessionFacts;
use serde_json::json;

/// Every agent lets a command hook deny a tool call: each dialect has a
/// blocking answer on PreToolUse (exit 2; Cline's is `{"cancel": true}`
/// on exit 0: "no special meaning for 2"), and none on SessionEnd.
#[test]
fn every_dialect_has_a_blocking_answer_where_its_hooks_can_block() {
    for d in ALL {
        let a = d.blocking_answer(&RunEvent::Known(HookEvent::PreToolUse), "why").unwrap_or_else(|| {
            panic!("{}: no blocking answer on PreToolUse", d.name());
        });
        assert_eq!(a.exit_code, if d.name() == "cline" { 0 } else { 2 }, "{}", d.name());
        let said = a.stdout.iter().chain(&a.stderr).any(|t| t.contains("why"));
        assert!(said, "{}: the reason is written: {a:?}", d.name());
        assert!(d.blocking_answer(&RunEvent::Known(HookEvent::SessionEnd), "why").is_none(), "{}", d.name());
    }
}

/// Every dialect declares, as pin placeholders, each variable its hooks
/// get that names the project directory (every one its environment sets
/// to the session's directory) and each plugin root variable, and
/// declares nothing its hooks do not get: a dialect cannot leave a
/// directory variable of its agent unpinned.
#[test]
fn every_directory_variable_a_dialect_sets_is_a_pin_placeholder() {
    let dir = "/sentinel/project dir";
    let facts = SessionFacts { session_id: "s", cwd: dir, transcript_path: Some("/t.jsonl"), trigger: "startup" };
    let values: Vec<&dyn Dialect> = ALL.iter().copied().chain([&copilot::COPILOT_COMPAT as &dyn Dialect]).collect();
    for d in values {
        let mut set: Vec<(&'static str, String)> = Vec::new();
        for e in HookEvent::ALL {
            d.environment(&RunEvent::Known(e), &facts, &mut |k, v| set.push((k, v.to_owned())));
        }
        let declared =
            |name: &str, value: PlaceholderValue| d.placeholders().iter().any(|p| p.name == name && p.value == value);
        for (name, value) in &set {
            if value == dir {
                assert!(declared(name, PlaceholderValue::ProjectDir), "{}: ${name} is not a placeholder", d.name());
            }
        }
        for name in d.plugin_root_variables() {
            assert!(declared(name, PlaceholderValue::PluginRoot), "{}: ${name} is not a placeholder", d.name());
        }
        for p in d.placeholders() {
            let given = match p.value {
                PlaceholderValue::ProjectDir => set.iter().any(|(n, v)| *n == p.name && v == dir),
                PlaceholderValue::PluginRoot => d.plugin_root_variables().contains(&p.name),
            };
            assert!(given, "{}: placeholder ${} is not what its hooks get", d.name(), p.name);
        }
    }
}

#[test]
fn unknown_dialect_names_list_the_valid_ones() {
    let e = by_name("cursr").unwrap_err();
    assert_eq!(e.status, crate::Status::InvalidArgument);
    for d in ALL {
        assert!(e.message.contains(d.name()), "{}", e.message);
    }
    assert_eq!(by_name("claude").unwrap().name(), "claude");
}

#[test]
fn shape_detection_is_the_fallback_lifecycle_means_vtcode() {
    assert_eq!(for_shape(&json!({"lifecycle": {}})).name(), "vtcode");
    assert_eq!(for_shape(&json!({"hooks": {"lifecycle": {}}})).name(), "vtcode");
    assert_eq!(for_shape(&json!({"PreToolUse": []})).name(), "claude");
    assert_eq!(for_shape(&json!({"hooks": {"Stop": []}})).name(), "claude");
    assert_eq!(for_shape(&json!({"version": 1, "hooks": {"stop": [], "beforeReadFile": []}})).name(), "cursor");
    assert_eq!(for_shape(&json!({"hooks": {"stop": []}})).name(), "claude", "Cursor's shape has a version");
    assert_eq!(for_shape(&json!({"version": 1, "hooks": {"Stop": []}})).name(), "claude");
}

#[test]
fn cursor_files_are_recognised_by_path_and_belong_to_the_project_above() {
    assert_eq!(for_path(Path::new("/p/.cursor/hooks.json")).map(|d| d.name()), Some("cursor"));
    assert_eq!(for_path(Path::new("/etc/cursor/hooks.json")).map(|d| d.name()), Some("cursor"));
    assert_eq!(for_path(Path::new("/p/hooks/hooks.json")).map(|d| d.name()), Some("claude"));
    assert_eq!(project_dir_of(Path::new("/p/.cursor/hooks.json")), Path::new("/p"));
    assert_eq!(select(Some(CURSOR), Some(Path::new("/p/hooks.json")), None).name(), "cursor");
}

#[test]
fn an_explicit_dialect_beats_the_path_and_the_path_beats_the_shape() {
    let settings = Path::new("/p/.claude/settings.json");
    let shape = json!({"lifecycle": {}});
    assert_eq!(select(None, Some(settings), Some(&shape)).name(), "claude");
    assert_eq!(select(Some(VTCODE), Some(settings), None).name(), "vtcode");
    assert_eq!(select(None, Some(Path::new("/p/hooks.json")), Some(&shape)).name(), "vtcode");
    assert_eq!(select(None, Some(Path::new("/p/vtcode.toml")), None).name(), "vtcode");
}

#[test]
fn codex_files_are_recognised_before_the_vt_code_toml_fallback() {
    assert_eq!(for_path(Path::new("/p/.codex/hooks.json")).map(|d| d.name()), Some("codex"));
    assert_eq!(for_path(Path::new("/p/.codex/config.toml")).map(|d| d.name()), Some("codex"));
    assert_eq!(for_path(Path::new("/home/u/.codex/config.toml")).map(|d| d.name()), Some("codex"));
    assert_eq!(for_path(Path::new("/p/config.toml")).map(|d| d.name()), Some("vtcode"));
    assert_eq!(for_path(Path::new("/p/.claude/settings.json")).map(|d| d.name()), Some("claude"));
    assert_eq!(for_path(Path::new("/p/hooks.json")).map(|d| d.name()), None);
    assert_eq!(select(Some(CODEX), Some(Path::new("/p/hooks.json")), None).name(), "codex");
}

#[test]
fn match_subject_follows_the_event_table() {
    use HookEvent::*;
    let input = json!({
        "reason": "exit", "agent_name": "explorer", "agent_type": "Explore", "prompt": "hi",
        "tool_name": "Bash", "trigger": "auto", "notification_type": "idle_prompt"
    });
    let subject = |d: &dyn Dialect, e: HookEvent, trigger: &'static str| {
        d.match_subject(&RunEvent::Known(e), &input, trigger).map(str::to_owned)
    };
    for d in [VTCODE, CLAUDE] {
        assert_eq!(subject(d, SessionStart, "resume").as_deref(), Some("resume"));
        assert_eq!(subject(d, SessionEnd, "startup").as_deref(), Some("exit"));
        for e in [PreToolUse, PostToolUse, PermissionRequest, PostToolUseFailure] {
            assert_eq!(subject(d, e, "startup").as_deref(), Some("Bash"));
        }
        assert_eq!(subject(d, PreCompact, "startup").as_deref(), Some("auto"));
        assert_eq!(subject(d, Notification, "startup").as_deref(), Some("idle_prompt"));
    }
    // VT Code matches `agent_name`; Claude Code "receive[s] agent_type with
    // the agent name that the matcher filters on".
    for e in [SubagentStart, SubagentStop] {
        assert_eq!(subject(VTCODE, e, "startup").as_deref(), Some("explorer"));
        assert_eq!(subject(CLAUDE, e, "startup").as_deref(), Some("Explore"));
    }
    assert_eq!(subject(VTCODE, UserPromptSubmit, "startup").as_deref(), Some("hi"));
    assert_eq!(subject(CLAUDE, UserPromptSubmit, "startup"), None);
    assert_eq!(subject(VTCODE, Stop, "startup").as_deref(), Some("stop"));
    assert_eq!(subject(CLAUDE, Stop, "startup"), None);
    // A missing subject field is the empty string.
    assert_eq!(VTCODE.match_subject(&RunEvent::Known(PreToolUse), &json!({}), "startup"), Some(""));
}

#[test]
fn a_config_belongs_to_the_workspace_above_its_place() {
    assert_eq!(project_dir_of(Path::new("/p/.claude/settings.json")), Path::new("/p"));
    assert_eq!(project_dir_of(Path::new("/p/.claude/settings.local.json")), Path::new("/p"));
    assert_eq!(project_dir_of(Path::new("/p/vtcode.toml")), Path::new("/p"));
    assert_eq!(project_dir_of(Path::new("/p/.codex/hooks.json")), Path::new("/p"));
    assert_eq!(project_dir_of(Path::new("/p/.codex/config.toml")), Path::new("/p"));
    assert_eq!(project_dir_of(Path::new("/p/conf/hooks.json")), Path::new("/p/conf"));
    assert_eq!(project_dir_of(Path::new(".claude/settings.json")), Path::new("."));
    assert_eq!(project_dir_of(Path::new("hooks.json")), Path::new("."));
    assert_eq!(project_dir_of(Path::new("/p/.github/hooks/guard.json")), Path::new("/p"));
    assert_eq!(project_dir_of(Path::new("/p/.github/copilot/settings.json")), Path::new("/p"));
}

#[test]
fn copilot_hooks_files_are_copilot_by_path_claude_settings_stay_claude() {
    assert_eq!(select(None, Some(Path::new("/p/.github/hooks/hooks.json")), None).name(), "copilot");
    assert_eq!(select(None, Some(Path::new("/p/.github/hooks/guard.json")), None).name(), "copilot");
    assert_eq!(select(None, Some(Path::new("/p/.claude/settings.json")), None).name(), "claude");
    assert_eq!(select(Some(COPILOT), Some(Path::new("/p/.claude/settings.json")), None).name(), "copilot");
    assert_eq!(select(None, Some(Path::new("/plugins/x/hooks/hooks.json")), None).name(), "claude");
    assert_eq!(select(Some(VSCODE), Some(Path::new("/p/.github/hooks/guard.json")), None).name(), "vscode");
}

#[test]
fn a_plugins_hooks_json_has_the_directory_above_hooks_as_its_root() {
    let root = |p: &str, d| plugin_root_of(Path::new(p), d);
    assert_eq!(root("/plugins/guard/hooks/hooks.json", None), Some("/plugins/guard".into()));
    assert_eq!(root("hooks/hooks.json", None), Some(".".into()));
    assert_eq!(root("/plugins/guard/hooks/hooks.json", Some(CODEX)), Some("/plugins/guard".into()));
    assert_eq!(root("/plugins/guard/hooks/hooks.json", Some(VTCODE)), None, "VT Code has no plugins");
    assert_eq!(root("/p/.claude/settings.json", None), None);
    assert_eq!(root("/p/.codex/hooks.json", None), None);
    assert_eq!(root("/p/hooks.json", None), None);
    assert_eq!(root("/p/hooks/other.json", None), None);
}

/// "Load the settings a host would": per dialect, the user's files
/// (trusted) then the workspace's, only those that exist; VT Code's
/// user file only when the workspace has no vtcode.toml.
#[test]
fn settings_files_are_the_users_then_the_workspaces_per_dialect() {
    if ["CLAUDE_CONFIG_DIR", "CODEX_HOME"].iter().any(|v| std::env::var_os(v).is_some()) {
        return; // the user files are elsewhere; the test is about the defaults
    }
    let dir = tempfile::tempdir().unwrap();
    let (home, ws) = (dir.path().join("home"), dir.path().join("ws"));
    let touch = |p: &std::path::PathBuf| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "{}").unwrap();
    };
    let files = [
        home.join(".claude/settings.json"),
        home.join(".codex/config.toml"),
        home.join(".vtcode/vtcode.toml"),
        ws.join(".claude/settings.json"),
        ws.join(".claude/settings.local.json"),
        ws.join(".codex/hooks.json"),
    ];
    files.iter().for_each(touch);
    let found = |home: Option<&Path>| -> Vec<(String, &'static str, bool)> {
        settings_files(&ws, home)
            .into_iter()
            .map(|f| (f.path.strip_prefix(dir.path()).unwrap().display().to_string(), f.dialect.name(), f.trusted))
            .collect()
    };
    let s = |p: &str, d, t| (p.to_owned(), d, t);
    assert_eq!(
        found(Some(&home)),
        [
            s("home/.vtcode/vtcode.toml", "vtcode", true),
            s("home/.claude/settings.json", "claude", true),
            s("ws/.claude/settings.json", "claude", false),
            s("ws/.claude/settings.local.json", "claude", false),
            s("home/.codex/config.toml", "codex", true),
            s("ws/.codex/hooks.json", "codex", false),
        ]
    );
    touch(&ws.join("vtcode.toml"));
    assert_eq!(found(Some(&home))[0], s("ws/vtcode.toml", "vtcode", false), "the workspace's vtcode.toml wins");
    assert_eq!(found(Some(&home)).len(), 6);
    assert!(found(None).iter().all(|f| !f.2), "without a home directory, only the workspace's files");
    // The machine-wide files come first in each dialect, trusted.
    let root = dir.path().join("root");
    let system = |p: &str| root.join(p.trim_start_matches('/'));
    touch(&system(CLAUDE.system_files()[0]));
    touch(&system(crate::dialect::cursor::CURSOR.system_files()[0]));
    touch(&system("/etc/codex/config.toml"));
    touch(&ws.join(".cursor/hooks.json"));
    let under: Vec<(String, &'static str, bool)> = settings_files_under(&ws, Some(&home), &root)
        .into_iter()
        .map(|f| (f.path.strip_prefix(dir.path()).unwrap().display().to_string(), f.dialect.name(), f.trusted))
        .collect();
    let names: Vec<&str> = under.iter().map(|f| f.0.as_str()).collect();
    let at = |p: &str| names.iter().position(|n| n.ends_with(p)).unwrap_or_else(|| panic!("{p} in {names:?}"));
    assert!(at("managed-settings.json") < at("home/.claude/settings.json"), "{names:?}");
    assert!(at("root/etc/codex/config.toml") < at("home/.codex/config.toml"), "{names:?}");
    let cursor_system = crate::dialect::cursor::CURSOR.system_files()[0].trim_start_matches('/');
    assert!(at(cursor_system) < at("ws/.cursor/hooks.json"), "{names:?}");
    assert!(under.iter().filter(|f| f.0.starts_with("root/")).all(|f| f.2), "system files are trusted");
    // Gemini CLI concatenates "system-defaults, user, project, system".
    let gemini = &crate::dialect::gemini::GEMINI;
    touch(&system(gemini.system_files()[0]));
    touch(&system(gemini.late_system_files()[0]));
    touch(&home.join(".gemini/settings.json"));
    touch(&ws.join(".gemini/settings.json"));
    let order: Vec<String> = settings_files_under(&ws, Some(&home), &root)
        .into_iter()
        .filter(|f| f.dialect.name() == "gemini")
        .map(|f| f.path.strip_prefix(dir.path()).unwrap().display().to_string())
        .collect();
    let defaults = gemini.system_files()[0].trim_start_matches('/');
    let settings = gemini.late_system_files()[0].trim_start_matches('/');
    assert_eq!(
        order,
        [
            format!("root/{defaults}"),
            "home/.gemini/settings.json".to_owned(),
            "ws/.gemini/settings.json".to_owned(),
            format!("root/{settings}"),
        ]
    );
}

/// Gemini CLI: "project ("workspace") `<project>/.gemini/settings.json`
/// | only if the folder is trusted, and not when the project dir is
/// `$HOME`": in the home directory the user's settings are read once,
/// as the user's; the other dialects still read their workspace files.
#[test]
fn gemini_reads_no_workspace_settings_in_the_home_directory() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let touch = |p: &Path| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "{}").unwrap();
    };
    touch(&home.join(".gemini/settings.json"));
    touch(&home.join(".codex/hooks.json"));
    let root = dir.path().join("root");
    let found = |ws: &Path| -> Vec<(String, &'static str, bool)> {
        settings_files_under(ws, Some(&home), &root)
            .into_iter()
            .map(|f| (f.path.strip_prefix(dir.path()).unwrap().display().to_string(), f.dialect.name(), f.trusted))
            .collect()
    };
    let gemini =
        |files: &[(String, &'static str, bool)]| files.iter().filter(|f| f.1 == "gemini").cloned().collect::<Vec<_>>();
    assert_eq!(gemini(&found(&home)), [("home/.gemini/settings.json".to_owned(), "gemini", true)]);
    // Another spelling of the home directory is the home directory too.
    assert_eq!(gemini(&found(&home.join("."))).len(), 1);
    assert!(found(&home).iter().any(|f| f.0 == "home/.codex/hooks.json" && !f.2), "Codex reads it as the workspace's");
    // Elsewhere the workspace's file is read after the user's.
    let ws = dir.path().join("ws");
    touch(&ws.join(".gemini/settings.json"));
    assert_eq!(gemini(&found(&ws)).len(), 2);
}

#[test]
fn dialect_indexes_follow_all() {
    for (i, d) in ALL.iter().enumerate() {
        assert_eq!(index_of(*d), i);
    }
}
