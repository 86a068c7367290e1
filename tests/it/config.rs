//! Hooks configuration parsing and validation (docs/protocol.md §2).

use hookline::config::HooksConfig;
use hookline::dialect::VTCODE;
use hookline::gate::command_previews;
use hookline::{HookEvent, RunEvent, Status};
use serde_json::{json, Value};

fn parse(v: Value) -> HooksConfig {
    HooksConfig::from_json_value(&v).unwrap_or_else(|e| panic!("config {v} rejected: {e}"))
}

fn parse_err(v: Value) -> String {
    match HooksConfig::from_json_value(&v) {
        Ok(c) => panic!("config {v} accepted: {c:?}"),
        Err(e) => {
            assert_eq!(e.status, Status::InvalidConfig, "{e}");
            e.message
        }
    }
}

/// A Claude Code config that loads, and the warnings of the entries it skipped.
fn skipped(v: Value) -> (HooksConfig, Vec<String>) {
    let c = parse(v);
    let w = c.warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect();
    (c, w)
}

/// The one warning of a config whose only hook is skipped.
fn skip_warning(v: Value) -> String {
    let (c, w) = skipped(v.clone());
    assert_eq!(c.command_count(), 0, "{v}");
    assert_eq!(w.len(), 1, "{v}: {w:?}");
    w.into_iter().next().unwrap_or_default()
}

fn toml_err(text: &str) -> String {
    match HooksConfig::from_toml_str(text) {
        Ok(c) => panic!("TOML accepted: {c:?}"),
        Err(e) => {
            assert_eq!(e.status, Status::InvalidConfig, "{e}");
            e.message
        }
    }
}

fn commands(cfg: &HooksConfig, event: HookEvent) -> Vec<String> {
    cfg.groups(event).iter().flat_map(|g| g.hooks.iter().map(|h| h.label().to_owned())).collect()
}

fn assert_contains(haystack: &str, needle: &str) {
    assert!(haystack.contains(needle), "`{haystack}` does not contain `{needle}`");
}

// ---------------------------------------------------------------- shapes

#[test]
fn empty_inputs_are_an_empty_config() {
    for v in [json!({}), json!({"hooks": {}}), json!({"lifecycle": {}}), json!({"hooks": {"lifecycle": {}}})] {
        let c = parse(v);
        assert!(c.is_empty());
        assert_eq!(c.command_count(), 0);
        for e in HookEvent::ALL {
            assert!(c.groups(e).is_empty());
        }
    }
    assert!(HooksConfig::empty().is_empty());
    assert!(HooksConfig::from_toml_str("").unwrap().is_empty());
    assert!(HooksConfig::from_toml_str("[agent]\nprovider = \"x\"\n").unwrap().is_empty());
}

#[test]
fn vtcode_lifecycle_json_is_parsed() {
    let c = parse(json!({"lifecycle": {
        "quiet_success_output": true,
        "pre_tool_use": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout_seconds": 10}]}],
        "session_start": [{"hooks": [{"command": "echo hi"}]}]
    }}));
    assert_eq!(c.dialect().name(), "vtcode");
    assert!(c.quiet_success_output());
    assert_eq!(c.command_count(), 2);
    let g = &c.groups(HookEvent::PreToolUse)[0];
    assert_eq!(g.matcher_raw.as_deref(), Some("Bash"));
    assert_eq!(g.hooks[0].label(), "./check.sh");
    assert_eq!(g.hooks[0].timeout_seconds, Some(10));
    assert_eq!(g.hooks[0].timeout().as_secs(), 10);
    let s = &c.groups(HookEvent::SessionStart)[0];
    assert_eq!(s.matcher_raw, None);
    assert_eq!(s.hooks[0].timeout_seconds, None);
    assert_eq!(s.hooks[0].timeout().as_secs(), 60);
}

#[test]
fn whole_vtcode_toml_as_json_is_accepted() {
    let c = parse(json!({
        "agent": {"provider": "x"},
        "hooks": {"lifecycle": {"stop": [{"hooks": [{"command": "a"}]}]}, "other": 1}
    }));
    assert_eq!(c.dialect().name(), "vtcode");
    assert_eq!(commands(&c, HookEvent::Stop), ["a"]);
}

#[test]
fn quiet_success_output_defaults_to_false() {
    assert!(!parse(json!({"lifecycle": {}})).quiet_success_output());
    assert!(!parse(json!({"PreToolUse": []})).quiet_success_output());
}

#[test]
fn every_vtcode_event_key_maps_to_its_event() {
    let mut lifecycle = serde_json::Map::new();
    for e in HookEvent::ALL {
        lifecycle.insert(e.key().into(), json!([{"hooks": [{"command": format!("cmd-{}", e.key())}]}]));
    }
    let c = parse(json!({ "lifecycle": lifecycle }));
    for e in HookEvent::ALL {
        assert_eq!(commands(&c, e), [format!("cmd-{}", e.key())]);
    }
}

#[test]
fn every_claude_event_name_maps_to_its_event() {
    let mut hooks = serde_json::Map::new();
    for e in HookEvent::ALL {
        hooks
            .insert(e.name().into(), json!([{"hooks": [{"type": "command", "command": format!("cmd-{}", e.name())}]}]));
    }
    let c = parse(Value::Object(hooks.clone()));
    assert_eq!(c.dialect().name(), "claude");
    for e in HookEvent::ALL {
        assert_eq!(commands(&c, e), [format!("cmd-{}", e.name())]);
    }
    // Same under a settings.json `hooks` key.
    let c2 = parse(json!({"hooks": hooks, "permissions": {"allow": []}, "model": "x"}));
    assert_eq!(c2.dialect().name(), "claude");
    assert_eq!(c2.command_count(), 12);
}

#[test]
fn claude_settings_json_reads_timeout() {
    let c = parse(json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [
        {"type": "command", "command": "./a", "timeout": 7},
        {"command": "./b"}
    ]}]}}));
    let g = &c.groups(HookEvent::PreToolUse)[0];
    assert_eq!(g.hooks[0].timeout_seconds, Some(7));
    assert_eq!(g.hooks[1].timeout_seconds, None);
    // The Claude Code profile's default timeout (the VT Code profile's is 60 s).
    assert_eq!(g.hooks[1].timeout().as_secs(), 600);
}

#[test]
fn configuration_order_is_kept_within_an_event() {
    let c = parse(json!({"lifecycle": {"post_tool_use": [
        {"matcher": "A", "hooks": [{"command": "1"}, {"command": "2"}]},
        {"matcher": "B", "hooks": [{"command": "3"}]}
    ]}}));
    assert_eq!(commands(&c, HookEvent::PostToolUse), ["1", "2", "3"]);
}

#[test]
fn task_completion_and_task_completed_are_appended_after_stop_in_that_order() {
    // Key order in the object must not matter.
    let c = parse(json!({"lifecycle": {
        "task_completed": [{"hooks": [{"command": "completed"}]}],
        "task_completion": [{"hooks": [{"command": "completion"}]}],
        "stop": [{"hooks": [{"command": "stop"}]}]
    }}));
    assert_eq!(commands(&c, HookEvent::Stop), ["stop", "completion", "completed"]);
    let events: Vec<_> = command_previews(&c).into_iter().map(|p| p.event).collect();
    assert_eq!(events, ["stop", "stop", "stop"]);
}

#[test]
fn unknown_event_keys_are_ignored() {
    let c = parse(json!({"lifecycle": {"teammate_idle": [{"hooks": [{"command": "x"}]}], "pre_tool_used": 5}}));
    assert!(c.is_empty());
}

#[test]
fn claude_unknown_event_keys_are_kept_by_name() {
    let c = parse(
        json!({"hooks": {"FutureEvent": [{"hooks": [{"command": "x"}]}], "Stop": [{"hooks": [{"command": "s"}]}],
                                  "disableAllHooks": false}}),
    );
    assert_eq!(c.command_count(), 2);
    assert_eq!(c.named_events().len(), 1);
    assert_eq!(c.named_events()[0].name, "FutureEvent");
    assert_eq!(c.groups_named("FutureEvent")[0].hooks[0].label(), "x");
    assert_eq!(c.groups_named("Stop")[0].hooks[0].label(), "s");
    assert!(c.groups_named("Other").is_empty());
    let (c, w) = skipped(json!({"FutureEvent": [{"hooks": [{"command": " "}]}]}));
    assert_eq!(c.command_count(), 0);
    assert!(w.iter().any(|m| m.contains("hooks.FutureEvent[0].hooks[0] must specify a command")), "{w:?}");
    assert!(w.iter().any(|m| m.contains("unknown event key `FutureEvent`")), "{w:?}");
}

/// A misspelt event key is reported (the hooks under it never run unless
/// a host fires that name), with the event it probably means.
#[test]
fn claude_a_misspelt_event_key_is_a_config_warning_with_did_you_mean() {
    let (c, w) = skipped(json!({"hooks": {"PreTooluse": [{"hooks": [{"command": "x"}]}]}}));
    assert_eq!(c.named_events()[0].name, "PreTooluse", "kept by name");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].starts_with("hooks.PreTooluse: unknown event key `PreTooluse`"), "{w:?}");
    assert!(w[0].ends_with("did you mean `PreToolUse`?"), "{w:?}");
    assert!(c.warnings()[0].never_runs);
    // Claude Code's own events without a canonical meaning are no typo.
    let (_, w) = skipped(json!({"hooks": {"TaskCreated": [{"hooks": [{"command": "x"}]}]}}));
    assert!(w.is_empty(), "{w:?}");
}

#[test]
fn claude_hook_fields_if_async_status_message_fail_closed_are_read() {
    let c = parse(json!({"PreToolUse": [{"hooks": [
        {"command": "a", "if": "Bash(git *)", "async": true, "statusMessage": "Checking", "failClosed": true},
        {"command": "b"}
    ]}]}));
    let hooks = &c.groups(HookEvent::PreToolUse)[0].hooks;
    assert_eq!(hooks[0].if_rule.as_ref().map(|r| r.raw()), Some("Bash(git *)"));
    assert!(hooks[0].run_async && hooks[0].fail_closed);
    assert_eq!(hooks[0].status_message.as_deref(), Some("Checking"));
    assert!(hooks[1].if_rule.is_none() && !hooks[1].run_async && !hooks[1].fail_closed);
    for (hook, needle) in [
        (json!({"command": "a", "if": 5}), "hooks.PreToolUse[0].hooks[0].if must be a string"),
        (json!({"command": "a", "if": "Bash(git *"}), "Invalid if condition in hooks.PreToolUse[0].hooks[0]"),
        (json!({"command": "a", "async": "yes"}), "hooks.PreToolUse[0].hooks[0].async must be a boolean"),
        (json!({"command": "a", "failClosed": 1}), "hooks.PreToolUse[0].hooks[0].failClosed must be a boolean"),
        (json!({"command": "a", "statusMessage": []}), "hooks.PreToolUse[0].hooks[0].statusMessage must be a string"),
    ] {
        // "Fixed a malformed hooks entry in settings.json no longer invalidating
        // the entire file" (Claude Code 2.1.101): the hook is skipped.
        let m = skip_warning(json!({"PreToolUse": [{"hooks": [hook]}]}));
        assert!(m.starts_with("hooks.PreToolUse[0].hooks[0]: ") && m.contains(needle), "{m}");
    }
}

#[test]
fn vtcode_dialect_ignores_claude_hook_fields() {
    let c = parse(
        json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "a", "if": 5, "async": "x", "failClosed": true}]}]}}),
    );
    let hook = &c.groups(HookEvent::PreToolUse)[0].hooks[0];
    assert!(hook.if_rule.is_none() && !hook.run_async && !hook.fail_closed);
}

#[test]
fn unknown_keys_inside_entries_are_ignored() {
    let c = parse(json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "note": 1,
        "hooks": [{"command": "x", "statusMessage": "hi", "extra": [1]}]}]}}));
    assert_eq!(c.command_count(), 1);
}

#[test]
fn missing_type_means_command() {
    let c = parse(json!({"PreToolUse": [{"hooks": [{"command": "x"}]}]}));
    assert_eq!(commands(&c, HookEvent::PreToolUse), ["x"]);
}

#[test]
fn null_matcher_is_absent() {
    let c = parse(json!({"lifecycle": {"stop": [{"matcher": null, "hooks": [{"command": "x"}]}]}}));
    assert_eq!(c.groups(HookEvent::Stop)[0].matcher_raw, None);
    assert!(c.groups(HookEvent::Stop)[0].matcher.is_all());
}

#[test]
fn matcher_raw_is_kept_exactly_as_written() {
    let c = parse(json!({"lifecycle": {"pre_tool_use": [
        {"matcher": "  Bash ", "hooks": [{"command": "x"}]},
        {"matcher": "", "hooks": [{"command": "y"}]},
        {"matcher": "*", "hooks": [{"command": "z"}]}
    ]}}));
    let raws: Vec<_> = c.groups(HookEvent::PreToolUse).iter().map(|g| g.matcher_raw.clone()).collect();
    assert_eq!(raws, [Some("  Bash ".to_string()), Some(String::new()), Some("*".to_string())]);
    // ...while the compiled VT matcher is trimmed.
    assert!(c.groups(HookEvent::PreToolUse)[0].matcher.matches("Bash"));
}

// ---------------------------------------------------------------- dialect matchers

#[test]
fn vtcode_config_uses_anchored_regex_matchers() {
    let c = parse(json!({"lifecycle": {"pre_tool_use": [{"matcher": "Edit", "hooks": [{"command": "x"}]}]}}));
    let g = &c.groups(HookEvent::PreToolUse)[0];
    assert!(g.matches(Some("Edit")));
    assert!(!g.matches(Some("NotebookEdit")));
    let c = parse(json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash|Edit", "hooks": [{"command": "x"}]}]}}));
    let g = &c.groups(HookEvent::PreToolUse)[0];
    assert!(g.matches(Some("Bash")) && g.matches(Some("Edit")) && !g.matches(Some("MultiEdit")));
}

#[test]
fn claude_config_uses_exact_names_or_unanchored_regex() {
    let c = parse(json!({"PreToolUse": [
        {"matcher": "Edit", "hooks": [{"command": "exact"}]},
        {"matcher": ".*Edit", "hooks": [{"command": "regex"}]},
        {"matcher": "mcp__.*", "hooks": [{"command": "mcp"}]}
    ]}));
    let g = c.groups(HookEvent::PreToolUse);
    assert!(g[0].matches(Some("Edit")) && !g[0].matches(Some("NotebookEdit")));
    assert!(g[1].matches(Some("NotebookEdit")));
    assert!(g[2].matches(Some("mcp__github__search")) && !g[2].matches(Some("Bash")));
}

#[test]
fn claude_user_prompt_submit_and_stop_always_match() {
    let c = parse(json!({"UserPromptSubmit": [{"matcher": "never", "hooks": [{"command": "x"}]}],
                         "Stop": [{"matcher": "never", "hooks": [{"command": "y"}]}]}));
    let input = json!({"prompt": "hello"});
    for e in [HookEvent::UserPromptSubmit, HookEvent::Stop] {
        let subject = c.dialect().match_subject(&RunEvent::Known(e), &input, "startup");
        assert!(c.groups(e)[0].matches(subject), "{e}");
    }
}

#[test]
fn vtcode_user_prompt_submit_matches_the_prompt_and_stop_the_literal_stop() {
    let c = parse(json!({"lifecycle": {
        "user_prompt_submit": [{"matcher": "deploy.*", "hooks": [{"command": "x"}]}],
        "stop": [{"matcher": "stop", "hooks": [{"command": "y"}]}, {"matcher": "other", "hooks": [{"command": "z"}]}]
    }}));
    let up = &c.groups(HookEvent::UserPromptSubmit)[0];
    assert!(up.matches(VTCODE.match_subject(
        &RunEvent::Known(HookEvent::UserPromptSubmit),
        &json!({"prompt": "deploy now"}),
        "startup"
    )));
    assert!(!up.matches(VTCODE.match_subject(
        &RunEvent::Known(HookEvent::UserPromptSubmit),
        &json!({"prompt": "hello"}),
        "startup"
    )));
    let empty = json!({});
    let subject = VTCODE.match_subject(&RunEvent::Known(HookEvent::Stop), &empty, "startup");
    assert!(c.groups(HookEvent::Stop)[0].matches(subject));
    assert!(!c.groups(HookEvent::Stop)[1].matches(subject));
}

#[test]
fn session_start_matches_the_trigger() {
    let c =
        parse(json!({"lifecycle": {"session_start": [{"matcher": "resume|compact", "hooks": [{"command": "x"}]}]}}));
    let g = &c.groups(HookEvent::SessionStart)[0];
    assert!(g.matches(VTCODE.match_subject(&RunEvent::Known(HookEvent::SessionStart), &json!({}), "resume")));
    assert!(!g.matches(VTCODE.match_subject(&RunEvent::Known(HookEvent::SessionStart), &json!({}), "startup")));
}

// ---------------------------------------------------------------- TOML

#[test]
fn toml_hooks_lifecycle_tables_are_parsed() {
    let c = HooksConfig::from_toml_str(
        r#"
[agent]
provider = "openai"

[hooks.lifecycle]
quiet_success_output = true

[[hooks.lifecycle.pre_tool_use]]
matcher = "Bash"
[[hooks.lifecycle.pre_tool_use.hooks]]
type = "command"
command = "./check.sh"
timeout_seconds = 10

[[hooks.lifecycle.task_completion]]
[[hooks.lifecycle.task_completion.hooks]]
command = "notify"
"#,
    )
    .unwrap();
    assert_eq!(c.dialect().name(), "vtcode");
    assert!(c.quiet_success_output());
    let g = &c.groups(HookEvent::PreToolUse)[0];
    assert_eq!(g.matcher_raw.as_deref(), Some("Bash"));
    assert_eq!(g.hooks[0].label(), "./check.sh");
    assert_eq!(g.hooks[0].timeout_seconds, Some(10));
    assert_eq!(commands(&c, HookEvent::Stop), ["notify"]);
}

#[test]
fn toml_bare_lifecycle_tables_are_parsed() {
    let c = HooksConfig::from_toml_str(
        r#"
[[lifecycle.post_tool_use]]
matcher = "Write"
hooks = [{ command = "fmt", timeout_seconds = 3 }]
"#,
    )
    .unwrap();
    assert_eq!(commands(&c, HookEvent::PostToolUse), ["fmt"]);
}

#[test]
fn toml_and_json_forms_are_equivalent() {
    let t = HooksConfig::from_toml_str(
        "[[hooks.lifecycle.pre_tool_use]]\nmatcher = \"Bash\"\nhooks = [{ command = \"./check.sh\", timeout_seconds = 10 }]\n",
    )
    .unwrap();
    let j = parse(
        json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [{"command": "./check.sh", "timeout_seconds": 10}]}]}}),
    );
    assert_eq!(command_previews(&t), command_previews(&j));
}

#[test]
fn claude_dialect_toml_is_rejected() {
    assert_contains(&toml_err("[[PreToolUse]]\nhooks = [{ command = \"x\" }]\n"), "PreToolUse");
    assert_contains(&toml_err("[[hooks.PreToolUse]]\nhooks = [{ command = \"x\" }]\n"), "not accepted in TOML");
}

#[test]
fn invalid_toml_is_invalid_config() {
    toml_err("[hooks.lifecycle\n");
    toml_err("x = ");
}

#[test]
fn toml_validation_errors_name_the_entry() {
    let m = toml_err("[[hooks.lifecycle.pre_tool_use]]\n[[hooks.lifecycle.pre_tool_use.hooks]]\ncommand = \"  \"\n");
    assert_eq!(m, "hooks.pre_tool_use[0].hooks[0] must specify a command");
    let m = toml_err("[[lifecycle.stop]]\nhooks = [{ command = \"x\", timeout_seconds = 1.5 }]\n");
    assert_contains(&m, "hooks.stop[0].hooks[0].timeout_seconds must be a positive integer");
}

#[test]
fn toml_with_both_lifecycle_forms_is_rejected() {
    toml_err("[hooks.lifecycle]\n[lifecycle]\n");
}

#[test]
fn deeply_nested_toml_fails_with_a_status() {
    let deep = format!("x = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    toml_err(&deep);
}

// ---------------------------------------------------------------- validation errors

#[test]
fn blank_or_missing_command_is_an_error_naming_the_path() {
    for hook in [json!({}), json!({"command": ""}), json!({"command": "   \n\t"}), json!({"type": "command"})] {
        let m = parse_err(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "ok"}, hook]}]}}));
        assert_eq!(m, "hooks.pre_tool_use[0].hooks[1] must specify a command");
    }
}

#[test]
fn claude_warning_paths_use_pascal_case_keys() {
    let (c, w) = skipped(
        json!({"hooks": {"PreToolUse": [{"hooks": [{"command": "ok"}]}, {"hooks": [{"command": "ok2"}, {"command": " "}]}]}}),
    );
    assert_eq!(
        w,
        ["hooks.PreToolUse[1].hooks[1]: hooks.PreToolUse[1].hooks[1] must specify a command; this hook is skipped"]
    );
    assert_eq!(commands(&c, HookEvent::PreToolUse), ["ok", "ok2"]);
    let m = skip_warning(json!({"PostToolUse": [{"matcher": "(", "hooks": [{"command": "x"}]}]}));
    assert_contains(&m, "Invalid matcher in hooks.PostToolUse[0]");
    assert_contains(&m, "this group is skipped");
}

#[test]
fn invalid_matcher_is_an_error_naming_the_group() {
    let m = parse_err(
        json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [{"command": "x"}]}, {"matcher": "[a-", "hooks": [{"command": "x"}]}]}}),
    );
    assert!(m.starts_with("Invalid matcher in hooks.pre_tool_use[1]: "), "{m}");
}

#[test]
fn group_without_hooks_or_with_empty_hooks_is_an_error() {
    for g in [json!({"matcher": "Bash"}), json!({"hooks": []}), json!({"hooks": null})] {
        let m = parse_err(json!({"lifecycle": {"session_end": [g]}}));
        assert_contains(&m, "hooks.session_end[0] must define at least one hook command");
    }
    let m = skip_warning(json!({"Notification": [{"hooks": []}]}));
    assert_contains(&m, "hooks.Notification[0] must define at least one hook command");
}

#[test]
fn unknown_hook_type_is_an_error_in_vt_code_and_skipped_in_claude_code() {
    let m = parse_err(json!({"lifecycle": {"stop": [{"hooks": [{"type": "prompt", "prompt": "is it safe?"}]}]}}));
    assert_contains(&m, "hooks.stop[0].hooks[0] has unsupported type \"prompt\" (only \"command\" is supported)");
    let m = parse_err(json!({"lifecycle": {"stop": [{"hooks": [{"type": 1, "command": "x"}]}]}}));
    assert_contains(&m, "hooks.stop[0].hooks[0].type must be a string");
    let m = skip_warning(json!({"PreToolUse": [{"hooks": [{"type": "webhook", "url": "x"}]}]}));
    assert_contains(&m, "hooks.PreToolUse[0].hooks[0] has unsupported type \"webhook\"");
}

#[test]
fn non_positive_or_non_integer_timeout_is_an_error() {
    for t in [json!(0), json!(-1), json!(1.5), json!(10.0), json!("10"), json!(null), json!(true)] {
        let m =
            parse_err(json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": "x", "timeout_seconds": t}]}]}}));
        assert_contains(&m, "hooks.pre_tool_use[0].hooks[0].timeout_seconds must be a positive integer");
        let m = skip_warning(json!({"PreToolUse": [{"hooks": [{"command": "x", "timeout": t}]}]}));
        assert_contains(&m, "hooks.PreToolUse[0].hooks[0].timeout must be a positive integer");
    }
}

#[test]
fn wrong_json_types_are_errors_naming_the_path() {
    let cases = [
        (json!({"lifecycle": {"pre_tool_use": {"hooks": []}}}), "hooks.pre_tool_use must be an array"),
        (json!({"lifecycle": {"pre_tool_use": null}}), "hooks.pre_tool_use must be an array"),
        (json!({"lifecycle": {"pre_tool_use": ["echo"]}}), "hooks.pre_tool_use[0] must be an object"),
        (
            json!({"lifecycle": {"pre_tool_use": [{"matcher": 5, "hooks": [{"command": "x"}]}]}}),
            "hooks.pre_tool_use[0].matcher must be a string",
        ),
        (
            json!({"lifecycle": {"pre_tool_use": [{"hooks": {"command": "x"}}]}}),
            "hooks.pre_tool_use[0].hooks must be an array",
        ),
        (
            json!({"lifecycle": {"pre_tool_use": [{"hooks": ["x"]}]}}),
            "hooks.pre_tool_use[0].hooks[0] must be an object",
        ),
        (
            json!({"lifecycle": {"pre_tool_use": [{"hooks": [{"command": ["ls"]}]}]}}),
            "hooks.pre_tool_use[0].hooks[0].command must be a string",
        ),
        (json!({"lifecycle": {"quiet_success_output": "yes"}}), "hooks.quiet_success_output must be a boolean"),
        (json!({"lifecycle": []}), "lifecycle must be an object"),
        (json!({"hooks": {"lifecycle": 1}}), "hooks.lifecycle must be an object"),
        (json!([]), "must be a JSON object"),
        (json!("x"), "must be a JSON object"),
    ];
    for (v, expected) in cases {
        let m = parse_err(v);
        assert_contains(&m, expected);
    }
    // The Claude Code dialect skips what is malformed, naming it.
    for (v, expected) in [
        (json!({"PreToolUse": "echo"}), "hooks.PreToolUse must be an array"),
        (json!({"hooks": []}), "hooks must be an object, got an array; the file contributes no hooks"),
        (json!({"hooks": {"Stop": [{"hooks": ["x"]}]}}), "hooks.Stop[0].hooks[0] must be an object"),
    ] {
        assert_contains(&skip_warning(v), expected);
    }
}

#[test]
fn mixing_lifecycle_with_pascal_case_keys_is_an_error() {
    let hook = json!([{"hooks": [{"command": "x"}]}]);
    for (v, key) in [
        (json!({"lifecycle": {"pre_tool_use": hook}, "PreToolUse": hook}), "PreToolUse"),
        (json!({"lifecycle": {"PreToolUse": hook}}), "PreToolUse"),
        (json!({"hooks": {"lifecycle": {}, "Stop": hook}}), "Stop"),
        (json!({"hooks": {"lifecycle": {"Stop": hook}}}), "Stop"),
    ] {
        let m = parse_err(v);
        assert_contains(&m, "mixes");
        assert_contains(&m, &format!("`{key}`"));
    }
}

#[test]
fn lifecycle_and_hooks_at_the_top_level_are_ambiguous() {
    parse_err(json!({"lifecycle": {}, "hooks": {}}));
}

// ---------------------------------------------------------------- files

#[test]
fn from_file_reads_toml_and_json_of_either_dialect() {
    let dir = tempfile::tempdir().unwrap();
    let toml_path = dir.path().join("vtcode.toml");
    std::fs::write(&toml_path, "[[hooks.lifecycle.stop]]\nhooks = [{ command = \"t\" }]\n").unwrap();
    assert_eq!(commands(&HooksConfig::from_file(&toml_path).unwrap(), HookEvent::Stop), ["t"]);

    let vt_json = dir.path().join("hooks.json");
    std::fs::write(&vt_json, r#"{"lifecycle":{"stop":[{"hooks":[{"command":"v"}]}]}}"#).unwrap();
    let c = HooksConfig::from_file(&vt_json).unwrap();
    assert_eq!((c.dialect().name(), commands(&c, HookEvent::Stop)), ("vtcode", vec!["v".to_string()]));

    let cl_json = dir.path().join("settings.JSON");
    std::fs::write(&cl_json, r#"{"hooks":{"Stop":[{"hooks":[{"command":"c"}]}]}}"#).unwrap();
    let c = HooksConfig::from_file(&cl_json).unwrap();
    assert_eq!((c.dialect().name(), commands(&c, HookEvent::Stop)), ("claude", vec!["c".to_string()]));
}

#[test]
fn from_file_unreadable_is_io() {
    let dir = tempfile::tempdir().unwrap();
    let e = HooksConfig::from_file(&dir.path().join("missing.json")).unwrap_err();
    assert_eq!(e.status, Status::Io);
    assert!(e.message.contains("hooks_file") && e.message.contains("missing.json"), "{e}");
    let sub = dir.path().join("dir.toml");
    std::fs::create_dir(&sub).unwrap();
    let e = HooksConfig::from_file(&sub).unwrap_err();
    assert_eq!(e.status, Status::Io);
    assert!(e.message.contains("hooks_file") && e.message.contains("dir.toml"), "{e}");
}

#[test]
fn from_file_other_extension_is_invalid_argument() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["hooks.yaml", "hooks", "hooks.json.bak"] {
        let p = dir.path().join(name);
        std::fs::write(&p, "{}").unwrap();
        let e = HooksConfig::from_file(&p).unwrap_err();
        assert_eq!(e.status, Status::InvalidArgument, "{name}");
        assert!(
            e.message.contains("hooks_file") && e.message.contains(".toml or .json") && e.message.contains(name),
            "{name}: {e}"
        );
    }
}

#[test]
fn from_file_bad_content_is_invalid_config() {
    let dir = tempfile::tempdir().unwrap();
    // Each error names what is wrong: the file, or the path of the entry.
    let cases: [(&str, &[u8], &str); 4] = [
        ("a.json", b"{not json", "not valid JSON"),
        ("b.json", b"\xff\xfe", "b.json is not valid UTF-8"),
        ("c.toml", b"[[hooks.lifecycle.stop]]\nhooks = []\n", "hooks.stop[0]"),
        ("d.json", br#"{"lifecycle":{"stop":[{"hooks":[{"command":""}]}]}}"#, "hooks.stop[0].hooks[0]"),
    ];
    for (name, content, names) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, content).unwrap();
        let e = HooksConfig::from_file(&p).unwrap_err();
        assert_eq!(e.status, Status::InvalidConfig, "{name}");
        assert!(e.message.contains(names), "{name}: message should name `{names}`: {e}");
    }
}

#[test]
fn from_json_str_syntax_error_is_invalid_config() {
    let e = HooksConfig::from_json_str("{").unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("not valid JSON"), "{e}");
    let deep = "[".repeat(100_000);
    let e = HooksConfig::from_json_str(&deep).unwrap_err();
    assert_eq!(e.status, Status::InvalidConfig);
    assert!(e.message.contains("not valid JSON") && e.message.contains("recursion limit"), "{e}");
}

fn warnings(cfg: &HooksConfig) -> Vec<String> {
    cfg.warnings().iter().map(|w| format!("{}: {}", w.path, w.message)).collect()
}

/// "Unknown hook fields are ignored" — by the agent, so a misspelt
/// `matcher` makes the group match every tool and a misspelt `timeout`
/// leaves the default in force. The reader lists each unknown key with the
/// closest field the dialect reads; a dialect's own fields (every Claude
/// Code handler type's) are never listed.
#[test]
fn unknown_group_and_hook_fields_are_listed_with_the_closest_field_of_the_dialect() {
    let cfg = parse(json!({"hooks": {"PreToolUse": [
        {"matchr": "Bash", "hooks": [{"type": "command", "command": "guard", "timout": 5}]}
    ]}}));
    assert_eq!(
        warnings(&cfg),
        [
            "hooks.PreToolUse[0]: unknown field `matchr` is ignored; did you mean `matcher`?",
            "hooks.PreToolUse[0].hooks[0]: unknown field `timout` is ignored; did you mean `timeout`?",
        ]
    );
    let group = &cfg.groups(HookEvent::PreToolUse)[0];
    assert!(group.matcher.is_all(), "the misspelt matcher is not applied: the group matches every tool");
    assert_eq!(group.hooks[0].timeout_seconds, None);
    // Claude Code's own fields, of every handler type, and hookline's failClosed.
    let cfg = parse(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard",
        "timeout": 5, "if": "Bash(rm *)", "async": false, "asyncRewake": false, "shell": "bash", "once": true,
        "statusMessage": "checking", "failClosed": true, "args": [], "model": "m"}]}]}));
    assert_eq!(warnings(&cfg), Vec::<String>::new());
    // VT Code reads `timeout_seconds`: Claude Code's `timeout` is unknown there.
    let cfg = parse(json!({"lifecycle": {"pre_tool_use": [{"matcher": "Bash", "hooks": [
        {"command": "guard", "timeout": 5, "comand": "x"}
    ]}]}}));
    assert_eq!(
        warnings(&cfg),
        [
            "hooks.pre_tool_use[0].hooks[0]: unknown field `timeout` is ignored",
            "hooks.pre_tool_use[0].hooks[0]: unknown field `comand` is ignored; did you mean `command`?",
        ]
    );
    let cfg = HooksConfig::from_toml_str("[[hooks.lifecycle.stop]]\nmatchr = \"x\"\nhooks = [{ command = \"c\" }]\n")
        .unwrap();
    assert_eq!(warnings(&cfg), ["hooks.stop[0]: unknown field `matchr` is ignored; did you mean `matcher`?"]);
}
