//! The environment policy (docs/protocol.md §7, `hook_env` and
//! `untrusted_hook_env`): checked with hooks that print their environment.
//!
//! The test process's own environment is not changed (tests run on
//! threads); variables that stand for inherited secrets come in through
//! option `env`, which scrubbing applies to as well. The C tests
//! (ctests/test_gate_pins.c) scrub variables a host really inherits.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hookline::engine::HookSourceOption;
use hookline::{EngineOptions, HookEvent, HooksSource, LifecycleHookEngine, Status};
use serde_json::{json, Value};

struct Ws {
    _dir: tempfile::TempDir,
    ws: PathBuf,
}

impl Ws {
    fn new() -> Ws {
        let dir = tempfile::tempdir().unwrap();
        let ws = std::fs::canonicalize(dir.path()).unwrap();
        Ws { _dir: dir, ws }
    }

    fn options(&self, extra: Value) -> Value {
        let mut o = json!({"workspace": self.ws, "session_id": "s-env", "trust_store": self.ws.join("trust.json"),
            "env": {"GITHUB_TOKEN": "ghp_x", "MY_SERVICE_API_KEY": "k", "DB_PASSWORD": "p", "AWS_REGION": "eu",
                    "SSH_AUTH_SOCK": "/tmp/agent", "KEEP_ME": "yes"}});
        for (k, v) in extra.as_object().unwrap() {
            o[k] = v.clone();
        }
        o
    }

    fn env_of(&self, file: &str) -> BTreeMap<String, String> {
        let text = std::fs::read_to_string(self.ws.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        text.split('\0').filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_owned(), v.to_owned())).collect()
    }
}

/// A hook that writes its whole environment, NUL-separated, to `file`.
fn printing(file: &str) -> Value {
    json!({"Notification": [{"hooks": [{"type": "command", "command": format!("env -0 > {file}")}]}]})
}

fn engine(options: &Value) -> LifecycleHookEngine {
    LifecycleHookEngine::from_options_json(&options.to_string()).unwrap()
}

fn notify(e: &LifecycleHookEngine) {
    let out = e
        .run_blocking(
            HookEvent::Notification,
            &json!({"notification_type": "idle_prompt", "title": "t", "message": "m"}),
        )
        .unwrap()
        .to_json();
    assert!(out["hooks"].as_array().unwrap().iter().all(|h| h["exit_code"] == 0), "{out}");
}

#[test]
fn without_a_policy_every_variable_reaches_the_hook() {
    let w = Ws::new();
    let e = engine(&w.options(json!({"hooks": printing("env.txt")})));
    notify(&e);
    let env = w.env_of("env.txt");
    for k in ["GITHUB_TOKEN", "MY_SERVICE_API_KEY", "KEEP_ME", "PATH", "HOOKLINE_PROJECT_DIR"] {
        assert!(env.contains_key(k), "{k} missing: {env:?}");
    }
}

#[test]
fn scrub_secrets_removes_every_credential_name_of_the_preset_from_a_hook_that_prints_its_environment() {
    let w = Ws::new();
    let e = engine(&w.options(json!({"hooks": printing("env.txt"), "hook_env": {"scrub": "secrets"}})));
    notify(&e);
    let env = w.env_of("env.txt");
    for k in ["GITHUB_TOKEN", "MY_SERVICE_API_KEY", "DB_PASSWORD", "AWS_REGION", "SSH_AUTH_SOCK"] {
        assert!(!env.contains_key(k), "{k} reached the hook: {env:?}");
    }
    assert_eq!(env.get("KEEP_ME").map(String::as_str), Some("yes"));
    assert!(env.contains_key("PATH") && env.contains_key("HOME"), "other inherited variables stay");
    assert_eq!(env.get("HOOKLINE_PROJECT_DIR").map(PathBuf::from), Some(w.ws.clone()), "the engine's own stay");
}

#[test]
fn scrub_globs_and_set_are_applied_in_that_order() {
    let w = Ws::new();
    let policy = json!({"scrub": ["KEEP_*", "*_TOKEN"], "set": {"KEEP_SET": "1", "GITHUB_TOKEN": "replaced"}});
    let e = engine(&w.options(json!({"hooks": printing("env.txt"), "hook_env": policy})));
    notify(&e);
    let env = w.env_of("env.txt");
    assert!(!env.contains_key("KEEP_ME"));
    assert_eq!(env.get("KEEP_SET").map(String::as_str), Some("1"), "set comes after scrub");
    assert_eq!(env.get("GITHUB_TOKEN").map(String::as_str), Some("replaced"));
    assert_eq!(env.get("MY_SERVICE_API_KEY").map(String::as_str), Some("k"));
}

#[test]
fn inherit_false_passes_on_nothing_of_the_host_environment() {
    let w = Ws::new();
    let policy = json!({"inherit": false, "set": {"PATH": "/usr/bin:/bin"}});
    let e = engine(&w.options(json!({"hooks": printing("env.txt"), "hook_env": policy, "env": {"FROM_OPTION": "1"}})));
    notify(&e);
    let env = w.env_of("env.txt");
    assert!(!env.contains_key("HOME"), "HOME is inherited only when asked for: {env:?}");
    assert_eq!(env.get("FROM_OPTION").map(String::as_str), Some("1"), "option `env` is not inherited, it is set");
    assert_eq!(env.get("PATH").map(String::as_str), Some("/usr/bin:/bin"));
    assert!(env.contains_key("HOOKLINE_SESSION_ID") && env.contains_key("CLAUDE_PROJECT_DIR"));
}

#[test]
fn inherit_a_list_keeps_only_matching_names() {
    let w = Ws::new();
    let policy = json!({"inherit": ["PATH", "LC_*", "NO_SUCH_*"]});
    let e = engine(&w.options(json!({"hooks": printing("env.txt"), "hook_env": policy})));
    notify(&e);
    let env = w.env_of("env.txt");
    assert!(env.contains_key("PATH") && !env.contains_key("HOME"));
    let own = |k: &str| k.starts_with("HOOKLINE_") || k.starts_with("VT_") || k.starts_with("CLAUDE_");
    let shell = ["PWD", "SHLVL", "_", "OLDPWD"];
    let option_env = ["GITHUB_TOKEN", "MY_SERVICE_API_KEY", "DB_PASSWORD", "AWS_REGION", "SSH_AUTH_SOCK", "KEEP_ME"];
    let shell: Vec<&str> = shell.iter().chain(&option_env).copied().collect();
    for k in env.keys().filter(|k| !own(k) && !shell.contains(&k.as_str())) {
        assert!(k == "PATH" || k.starts_with("LC_"), "{k} was inherited (option `env` is set, not inherited)");
    }
}

#[test]
fn untrusted_hook_env_applies_only_to_hooks_of_untrusted_sources() {
    let w = Ws::new();
    let o = w.options(json!({
        "hook_sources": [
            {"hooks": printing("trusted.txt"), "trusted": true},
            {"hooks": printing("untrusted.txt")},
        ],
        "untrusted_hook_env": {"scrub": "secrets", "set": {"UNTRUSTED": "1"}},
    }));
    notify(&engine(&o));
    let trusted = w.env_of("trusted.txt");
    let untrusted = w.env_of("untrusted.txt");
    assert_eq!(trusted.get("GITHUB_TOKEN").map(String::as_str), Some("ghp_x"));
    assert!(!trusted.contains_key("UNTRUSTED"));
    assert!(!untrusted.contains_key("GITHUB_TOKEN") && !untrusted.contains_key("AWS_REGION"));
    assert_eq!(untrusted.get("UNTRUSTED").map(String::as_str), Some("1"));
    assert_eq!(untrusted.get("KEEP_ME").map(String::as_str), Some("yes"));
}

#[test]
fn previews_show_the_policy_a_gated_hook_runs_under() {
    let w = Ws::new();
    let o = w.options(json!({"workspace_gated": true, "hooks": printing("env.txt"),
        "hook_env": {"inherit": ["PATH", "HOME"], "set": {"A": "secret-value"}},
        "untrusted_hook_env": {"scrub": ["X_*"], "set": {"B": "2"}}}));
    let e = engine(&o);
    let p = serde_json::to_value(e.command_previews()).unwrap();
    assert_eq!(p[0]["env"], json!({"inherit": ["PATH", "HOME"], "scrub": ["X_*"], "set": ["A", "B"]}));
    assert!(!p.to_string().contains("secret-value"), "previews name what is set, not its value");
    let o = w.options(json!({"workspace_gated": true, "hooks": printing("env.txt"), "hook_env": {"scrub": "secrets"}}));
    let p = serde_json::to_value(engine(&o).command_previews()).unwrap();
    assert_eq!(p[0]["env"]["inherit"], true);
    assert_eq!(p[0]["env"]["scrub"].as_array().unwrap().len(), 13);
}

#[test]
fn a_policy_does_not_change_the_digest() {
    let w = Ws::new();
    let plain = engine(&w.options(json!({"hooks": printing("env.txt")}))).command_digest();
    let scrubbed =
        engine(&w.options(json!({"hooks": printing("env.txt"), "hook_env": {"scrub": "secrets"}}))).command_digest();
    assert_eq!(plain, scrubbed);
}

#[test]
fn bad_policies_are_invalid_arguments_naming_the_field() {
    let w = Ws::new();
    for (policy, field) in [
        (json!({"hook_env": []}), "hook_env"),
        (json!({"hook_env": {"inherit": 1}}), "hook_env.inherit"),
        (json!({"untrusted_hook_env": {"scrub": "everything"}}), "untrusted_hook_env.scrub"),
        (json!({"untrusted_hook_env": {"set": {"K": false}}}), "untrusted_hook_env.set.K"),
        (json!({"hook_env": {"unset": []}}), "hook_env.unset"),
    ] {
        let err = LifecycleHookEngine::from_options_json(&w.options(policy.clone()).to_string()).unwrap_err();
        assert_eq!(err.status, Status::InvalidArgument, "{policy}");
        assert!(err.message.contains(&format!("`{field}`")), "{policy}: {}", err.message);
    }
}

#[test]
fn a_hook_command_sees_home_as_its_policy_sets_it_for_tilde_pins() {
    let w = Ws::new();
    let home = w.ws.join("home");
    std::fs::create_dir_all(home.join("bin")).unwrap();
    std::fs::write(home.join("bin/check.sh"), "exit 0\n").unwrap();
    let mut o = EngineOptions::new(&w.ws, "s");
    o.workspace_gated = true;
    o.trust_store = Some(w.ws.join("trust.json"));
    o.hooks = HooksSource::Sources(vec![HookSourceOption::new(HooksSource::Json(json!({"Stop": [{"hooks": [
        {"type": "command", "command": "sh ~/bin/check.sh && ~/bin/check.sh"}]}]})))]);
    o.env = vec![("HOME".into(), home.to_str().unwrap().into())];
    let e = LifecycleHookEngine::with_options(&o).unwrap();
    let pins = &e.command_previews()[0].pins;
    assert_eq!(pins.len(), 1, "{pins:?}");
    assert_eq!(pins[0].path, Path::new(&home).join("bin/check.sh"));
}
