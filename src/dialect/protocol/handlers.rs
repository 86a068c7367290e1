//! The handler fields of one hook entry in a hooks-protocol config: what
//! each `type` needs and accepts (`docs/profiles.md`, "Handler types").
//!
//! | `type` | required | optional |
//! |---|---|---|
//! | `command` (also when `type` is absent) | `command` | `args` (exec form), `shell` (`"bash"`, `"powershell"`) |
//! | `http` | `url` (`http://` or `https://`) | `headers` (an object of strings), `allowedEnvVars` (an array of strings) |
//! | `mcp_tool` | `server`, `tool` | `input` (an object) |
//! | `prompt` | `prompt` | `model`, `continueOnBlock` |
//! | `agent` | `prompt` | `model` |
//!
//! Dialects whose configs only know commands (VT Code) accept only
//! `command`. Every error is `InvalidConfig` naming the entry's path; the
//! config reader decides what an error does to the rest of the file.
//! Unknown fields are ignored (Claude Code ignores them too); the config
//! reader lists them in the warnings.

use serde_json::{Map, Value};

use crate::config::{type_name, HandlerSpec, Shell};
use crate::error::{Error, Result};
use crate::model::outcome::HookKind;

fn cfg_err(msg: impl Into<String>) -> Error {
    Error::invalid_config(msg)
}

/// The handler of the hook entry `obj` at `path`. `all_types`: the
/// dialect's configs have every handler type (Claude Code), else only
/// `command`.
pub(crate) fn parse_handler(obj: &Map<String, Value>, path: &str, all_types: bool) -> Result<HandlerSpec> {
    let kind = match obj.get("type") {
        None => HookKind::Command,
        Some(Value::String(t)) => match HookKind::from_config_type(t) {
            Some(HookKind::Command) => HookKind::Command,
            Some(kind) if all_types => kind,
            _ if all_types => {
                return Err(cfg_err(format!(
                    "{path} has unsupported type \"{t}\" (the types are command, http, mcp_tool, prompt, agent)"
                )))
            }
            _ => return Err(cfg_err(format!("{path} has unsupported type \"{t}\" (only \"command\" is supported)"))),
        },
        Some(other) => return Err(cfg_err(format!("{path}.type must be a string, got {}", type_name(other)))),
    };
    let f = Fields { obj, path };
    Ok(match kind {
        HookKind::Command => {
            let command = f.required_text("command", "must specify a command")?;
            if !all_types {
                return Ok(HandlerSpec::command(command));
            }
            let args = f.strings("args")?;
            let shell = match f.text("shell")? {
                None => Shell::Sh,
                Some(s) if s == "bash" => Shell::Bash,
                Some(s) if s == "powershell" => Shell::PowerShell,
                Some(s) => {
                    return Err(cfg_err(format!("{path}.shell must be \"bash\" or \"powershell\", got {s:?}")));
                }
            };
            HandlerSpec::Command { command, args, shell, launch: crate::config::Launch::default() }
        }
        HookKind::Http => {
            let url = f.required_text("url", "must specify a url")?;
            let scheme_ok =
                ["http://", "https://"].iter().any(|s| url.len() > s.len() && url[..s.len()].eq_ignore_ascii_case(s));
            if !scheme_ok {
                return Err(cfg_err(format!("{path}.url must be an http:// or https:// URL, got {url:?}")));
            }
            let headers = match obj.get("headers") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Object(h)) => {
                    let mut out = Vec::with_capacity(h.len());
                    for (name, value) in h {
                        let Value::String(value) = value else {
                            return Err(cfg_err(format!(
                                "{path}.headers.{name} must be a string, got {}",
                                type_name(value)
                            )));
                        };
                        if !valid_header_name(name) {
                            return Err(cfg_err(format!("{path}.headers has an invalid header name {name:?}")));
                        }
                        out.push((name.clone(), value.clone()));
                    }
                    out
                }
                Some(other) => {
                    return Err(cfg_err(format!("{path}.headers must be an object, got {}", type_name(other))))
                }
            };
            let allowed_env_vars = f.strings("allowedEnvVars")?.unwrap_or_default();
            HandlerSpec::Http { url, headers, allowed_env_vars }
        }
        HookKind::McpTool => {
            let server = f.required_text("server", "must specify a server")?;
            let tool = f.required_text("tool", "must specify a tool")?;
            let input = match obj.get("input") {
                None | Some(Value::Null) => Value::Null,
                Some(v @ Value::Object(_)) => v.clone(),
                Some(other) => {
                    return Err(cfg_err(format!("{path}.input must be an object, got {}", type_name(other))))
                }
            };
            HandlerSpec::McpTool { server, tool, input }
        }
        HookKind::Prompt => HandlerSpec::Prompt {
            prompt: f.required_text("prompt", "must specify a prompt")?,
            model: f.text("model")?,
            continue_on_block: f.flag("continueOnBlock")?,
        },
        HookKind::Agent => {
            HandlerSpec::Agent { prompt: f.required_text("prompt", "must specify a prompt")?, model: f.text("model")? }
        }
        HookKind::Callback => unreachable!("not a configured type"),
    })
}

/// A header name as HTTP defines one (a token: visible ASCII without separators).
fn valid_header_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// The fields of one hook entry, read with errors naming their path.
struct Fields<'a> {
    obj: &'a Map<String, Value>,
    path: &'a str,
}

impl Fields<'_> {
    /// A string that must be present and not blank.
    fn required_text(&self, key: &str, missing: &str) -> Result<String> {
        match self.obj.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
            None | Some(Value::Null) | Some(Value::String(_)) => Err(cfg_err(format!("{} {missing}", self.path))),
            Some(other) => Err(cfg_err(format!("{}.{key} must be a string, got {}", self.path, type_name(other)))),
        }
    }

    /// An optional string (null is absent).
    fn text(&self, key: &str) -> Result<Option<String>> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(cfg_err(format!("{}.{key} must be a string, got {}", self.path, type_name(other)))),
        }
    }

    /// An optional boolean (null and absent are false).
    fn flag(&self, key: &str) -> Result<bool> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(cfg_err(format!("{}.{key} must be a boolean, got {}", self.path, type_name(other)))),
        }
    }

    /// An optional array of strings.
    fn strings(&self, key: &str) -> Result<Option<Vec<String>>> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::String(s) => Ok(s.clone()),
                    other => {
                        Err(cfg_err(format!("{}.{key}[{i}] must be a string, got {}", self.path, type_name(other))))
                    }
                })
                .collect::<Result<Vec<_>>>()
                .map(Some),
            Some(other) => {
                Err(cfg_err(format!("{}.{key} must be an array of strings, got {}", self.path, type_name(other))))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: Value) -> Result<HandlerSpec> {
        parse_handler(v.as_object().unwrap(), "hooks.PreToolUse[0].hooks[0]", true)
    }

    #[test]
    fn every_claude_code_handler_type_reads_its_identifying_fields() {
        let h = parse(json!({"type": "http", "url": "http://localhost:8080/h", "headers": {"Authorization": "Bearer $T"}, "allowedEnvVars": ["T"]})).unwrap();
        assert_eq!(
            h,
            HandlerSpec::Http {
                url: "http://localhost:8080/h".into(),
                headers: vec![("Authorization".into(), "Bearer $T".into())],
                allowed_env_vars: vec!["T".into()],
            }
        );
        let h =
            parse(json!({"type": "mcp_tool", "server": "s", "tool": "t", "input": {"p": "${tool_input.file_path}"}}))
                .unwrap();
        assert_eq!(h.label(), "s/t");
        let h = parse(json!({"type": "prompt", "prompt": "Check $ARGUMENTS", "model": "m", "continueOnBlock": true}))
            .unwrap();
        assert_eq!(
            h,
            HandlerSpec::Prompt { prompt: "Check $ARGUMENTS".into(), model: Some("m".into()), continue_on_block: true }
        );
        let h = parse(json!({"type": "agent", "prompt": "Verify", "continueOnBlock": true})).unwrap();
        assert_eq!(h, HandlerSpec::Agent { prompt: "Verify".into(), model: None });
        let h = parse(json!({"command": "node", "args": ["a b.js", "--fix"], "shell": "bash"})).unwrap();
        assert_eq!(h.label(), "node 'a b.js' --fix");
    }

    #[test]
    fn a_handler_missing_its_required_field_is_an_error_naming_the_entry() {
        for (v, want) in [
            (json!({"type": "http"}), "hooks.PreToolUse[0].hooks[0] must specify a url"),
            (json!({"type": "http", "url": "ftp://x"}), "must be an http:// or https:// URL"),
            (json!({"type": "http", "url": "http://x", "headers": {"A": 1}}), "headers.A must be a string"),
            (json!({"type": "mcp_tool", "server": "s"}), "must specify a tool"),
            (json!({"type": "mcp_tool", "server": "s", "tool": "t", "input": [1]}), "input must be an object"),
            (json!({"type": "prompt", "prompt": "  "}), "must specify a prompt"),
            (json!({"type": "agent"}), "must specify a prompt"),
            (json!({"command": "x", "args": [1]}), "args[0] must be a string"),
            (json!({"command": "x", "shell": "zsh"}), "shell must be \"bash\" or \"powershell\""),
            (json!({"type": "webhook", "url": "http://x"}), "unsupported type \"webhook\""),
        ] {
            let e = parse(v.clone()).unwrap_err();
            assert_eq!(e.status, crate::Status::InvalidConfig);
            assert!(e.message.contains(want), "{v}: {}", e.message);
        }
    }

    #[test]
    fn a_dialect_of_commands_only_rejects_the_other_types() {
        let obj = json!({"type": "prompt", "prompt": "p"});
        let e = parse_handler(obj.as_object().unwrap(), "hooks.stop[0].hooks[0]", false).unwrap_err();
        assert!(e.message.contains("only \"command\" is supported"), "{}", e.message);
    }
}
