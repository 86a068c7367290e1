//! Which plugins goose runs (its plugin discovery): every folder of a
//! project's `.agents/plugins/` and of the user's `~/.agents/plugins/`,
//! less the plugins its settings disable, a project plugin replacing a
//! user's of the same name.
//!
//! The settings (the Open Plugins installation format): `{"enabledPlugins":
//! [names], "disabledPlugins": [names]}` in the project's
//! `.config/goose/settings.local.json` (local), `.config/goose/settings.json`
//! (project) and the user's `~/.config/goose/settings.json` (under
//! `$GOOSE_PATH_ROOT` when that is absolute). goose's `is_enabled`: the
//! first scope, in that order, that lists the plugin decides (disabled
//! first within a scope); a plugin no scope lists is enabled. A settings
//! file goose cannot read (not JSON, a value of the wrong type) is skipped.
//! goose's own `config.yaml` (`plugins: {<path>: {enabled}}`) is not read.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// One scope's settings: its enabled and disabled plugin names.
#[derive(Debug, Default, PartialEq)]
struct Settings {
    enabled: Vec<String>,
    disabled: Vec<String>,
}

/// A settings file as goose's serde shape reads it; `None` when it does not
/// exist or cannot be read.
fn read_settings(path: &Path) -> Option<Settings> {
    let text = std::fs::read_to_string(path).ok()?;
    let Value::Object(obj) = serde_json::from_str::<Value>(&text).ok()? else { return None };
    let names = |key: &str| -> Option<Vec<String>> {
        match obj.get(key) {
            None => Some(Vec::new()),
            Some(Value::Array(items)) => items.iter().map(|v| v.as_str().map(str::to_owned)).collect(),
            Some(_) => None,
        }
    };
    Some(Settings { enabled: names("enabledPlugins")?, disabled: names("disabledPlugins")? })
}

/// The user's `.config/goose/settings.json`: under `$GOOSE_PATH_ROOT`
/// when it is an absolute path, else the home directory.
fn user_settings_path(home: &Path, path_root: Option<std::ffi::OsString>) -> PathBuf {
    let base = path_root.map(PathBuf::from).filter(|p| p.is_absolute()).unwrap_or_else(|| home.to_owned());
    base.join(".config").join("goose").join("settings.json")
}

/// Whether goose runs plugin `name` for `workspace` (`home`: the user's
/// settings, when there is one).
fn is_enabled(name: &str, workspace: &Path, home: Option<&Path>) -> bool {
    let project = workspace.join(".config").join("goose");
    let user = home.map(|h| user_settings_path(h, std::env::var_os("GOOSE_PATH_ROOT")));
    let scopes = [Some(project.join("settings.local.json")), Some(project.join("settings.json")), user];
    for settings in scopes.iter().flatten().filter_map(|p| read_settings(p)) {
        if settings.disabled.iter().any(|n| n == name) {
            return false;
        }
        if settings.enabled.iter().any(|n| n == name) {
            return true;
        }
    }
    true
}

/// The plugin of a `…/<plugin>/hooks/hooks.json`: its folder's name.
fn plugin_name(hooks_file: &Path) -> Option<&str> {
    hooks_file.parent()?.parent()?.file_name()?.to_str()
}

/// Whether goose reads the plugin hooks file `path` found for `workspace`:
/// its plugin is enabled, and a user's plugin has no project plugin of the
/// same name (goose keeps the project's: `plugin_scope_rank`, then the
/// first of each name).
pub(crate) fn admits(workspace: &Path, home: Option<&Path>, path: &Path) -> bool {
    let Some(name) = plugin_name(path) else { return true };
    if !is_enabled(name, workspace, home) {
        return false;
    }
    let project_plugin = workspace.join(".agents").join("plugins").join(name);
    let from_project = path.starts_with(workspace.join(".agents").join("plugins"));
    from_project || !project_plugin.is_dir()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// goose's discovery tests: `disabled_in_project_settings_drops_plugin`,
    /// `local_scope_overrides_project_scope`,
    /// `project_scope_overrides_user_scope`,
    /// `explicit_enabled_filters_out_unlisted_plugins` (an unlisted plugin
    /// stays enabled).
    #[test]
    fn settings_scopes_decide_local_then_project_then_user() {
        let dir = tempfile::tempdir().unwrap();
        let (ws, home) = (dir.path().join("ws"), dir.path().join("home"));
        let settings = ws.join(".config/goose");
        assert!(is_enabled("demo", &ws, Some(&home)));
        write(&settings.join("settings.json"), r#"{"disabledPlugins":["demo"]}"#);
        assert!(!is_enabled("demo", &ws, Some(&home)));
        write(&settings.join("settings.local.json"), r#"{"enabledPlugins":["demo"]}"#);
        assert!(is_enabled("demo", &ws, Some(&home)), "local scope should win");
        std::fs::remove_file(settings.join("settings.local.json")).unwrap();
        write(&settings.join("settings.json"), r#"{"enabledPlugins":["demo"]}"#);
        if std::env::var_os("GOOSE_PATH_ROOT").is_none() {
            write(&home.join(".config/goose/settings.json"), r#"{"disabledPlugins":["demo", "other"]}"#);
            assert!(is_enabled("demo", &ws, Some(&home)), "project scope should win over user");
            assert!(!is_enabled("other", &ws, Some(&home)));
        }
        assert!(is_enabled("unlisted", &ws, Some(&home)));
        // A file goose cannot read is skipped.
        write(&settings.join("settings.json"), r#"{"disabledPlugins":"demo"}"#);
        assert_eq!(read_settings(&settings.join("settings.json")), None);
    }

    /// `disabled_project_plugin_falls_back_to_enabled_user_plugin_with_same_name`
    /// is about goose's `config.yaml`; without it, a project plugin replaces
    /// a user's of the same name, and a disabled name is off in both.
    #[test]
    fn a_project_plugin_replaces_the_users_of_the_same_name() {
        let dir = tempfile::tempdir().unwrap();
        let (ws, home) = (dir.path().join("ws"), dir.path().join("home"));
        let user = home.join(".agents/plugins/demo/hooks/hooks.json");
        write(&user, "{}");
        assert!(admits(&ws, Some(&home), &user));
        std::fs::create_dir_all(ws.join(".agents/plugins/demo")).unwrap();
        assert!(!admits(&ws, Some(&home), &user), "the project's demo (even without hooks) wins");
        let project = ws.join(".agents/plugins/demo/hooks/hooks.json");
        assert!(admits(&ws, Some(&home), &project));
        write(&ws.join(".config/goose/settings.json"), r#"{"disabledPlugins":["demo"]}"#);
        assert!(!admits(&ws, Some(&home), &project));
    }
}
