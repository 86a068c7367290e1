//! One Cursor hook's result → the canonical reply.
//!
//! | hook result | effect |
//! |---|---|
//! | exit 0, stdout a JSON object | the answer: its flat snake_case fields (below) |
//! | exit 0, stdout empty | no answer; with `failClosed` where the rules say `empty_output_fails_closed` (the gates, beforeSubmitPrompt), a failure of kind `no_output` |
//! | exit 0, stdout anything else (plain text, a JSON array or number, invalid JSON) | a failure (`invalid_output`): never context, never a message of the hook's |
//! | exit 2 | where the rules make it blocking (`Exit2Reason::RawStdout`: the gates, beforeSubmitPrompt) **deny** / **block**, the reason the trimmed raw stdout, JSON unparsed, else `Hook "<command>" blocked this action (exit code 2) but provided no reason.`; elsewhere (`Exit2::Ignored`) no effect, not a failure |
//! | other exit codes, signals, a lost exit status | a failure (`exit`, `signal`): stdout ignored, even a deny |
//! | timeout | a failure (`timeout`) |
//!
//! stderr is never an answer: it is part of a failure's text and otherwise
//! goes to the log. A failure is a warning message naming the hook (an
//! error for a timeout); its text, the reason a `failClosed` hook's failure
//! blocks with, is Cursor's: `Tool blocked because this hook is configured
//! to fail closed (block when it fails). Hook "<command>" failed with exit
//! code <n>: <stderr>` (`… timed out.`, `… returned no output.`, `…
//! returned invalid JSON.`).
//!
//! The JSON fields each event reads (others are ignored; Claude Code's
//! `hookSpecificOutput`, `decision` and `systemMessage` get a warning, as
//! Cursor does not read them):
//!
//! | event | fields |
//! |---|---|
//! | preToolUse | `permission` (`allow`, `deny`; `ask` per the `ask` column: not enforced), `user_message`, `agent_message`, `updated_input` |
//! | beforeShellExecution, beforeMCPExecution | `permission` (`allow`, `deny`, `ask`), `user_message`, `agent_message` |
//! | beforeReadFile, beforeTabFileRead | `permission`, `user_message` |
//! | subagentStart | `permission` (`ask` is `deny`), `user_message` |
//! | beforeSubmitPrompt | `continue: false` blocks, `user_message` the reason |
//! | postToolUse | `additional_context`, `updated_mcp_tool_output` (only when the tool is an MCP tool, `MCP:<tool>`) |
//! | sessionStart | `additional_context`, `env` (`continue` and `user_message` are not enforced) |
//! | stop, subagentStop | `followup_message` |
//! | preCompact | `user_message` (an info message) |
//! | workspaceOpen | `pluginPaths` |
//!
//! A deny's or ask's reason is `user_message`, else `agent_message`; a
//! `user_message` without one is an info message. Fields without a
//! canonical slot go to the outcome's `dialect_fields.cursor` by Cursor's
//! names: `agent_message`, `updated_mcp_tool_output`, `pluginPaths`, and
//! `permission: "ask"` where the ask was not enforced.

use serde_json::{Map, Value};

use super::event_name;
use crate::dialect::ReadCtx;
use crate::hl_debug;
use crate::model::event::EventFamily;
use crate::model::execution::HookExecution;
use crate::model::outcome::{HookFailure, HookMessageLevel, PreToolHookDecision};
use crate::model::reply::{Decision, Failure, HookReply};
use crate::model::rules::{AskRule, BlockFields, Column, Exit2};

/// The reader columns this reader honours, by the family the rules give
/// the event.
pub(crate) fn honours(family: EventFamily) -> &'static [Column] {
    match family {
        EventFamily::Tool => &[
            Column::Exit2Block,
            Column::Exit2RawStdout,
            Column::Exit2Ignored,
            Column::AskIgnored,
            Column::AskDenies,
            Column::EmptyOutputFailsClosed,
            Column::ToolGate,
            Column::FailureLevelError,
        ],
        EventFamily::Prompt => &[
            Column::Exit2Block,
            Column::Exit2RawStdout,
            Column::Exit2Ignored,
            Column::EmptyOutputFailsClosed,
            Column::FailureLevelError,
        ],
        EventFamily::Stop => &[Column::FollowupMessage, Column::Exit2Ignored, Column::FailureLevelError],
        EventFamily::Context => {
            &[Column::ContextNeedsExit0, Column::SessionEnvFromOutput, Column::Exit2Ignored, Column::FailureLevelError]
        }
        EventFamily::PostTool => &[Column::ContextNeedsExit0, Column::Exit2Ignored, Column::FailureLevelError],
        EventFamily::Permission
        | EventFamily::Retry
        | EventFamily::Worktree
        | EventFamily::Elicitation
        | EventFamily::Observe => &[Column::Exit2Ignored, Column::FailureLevelError],
    }
}

/// The fields one event reads.
#[derive(Default)]
struct Reads {
    permission: bool,
    agent_message: bool,
    updated_input: bool,
    continue_blocks: bool,
    context: bool,
    env: bool,
    followup: bool,
    user_message_info: bool,
    mcp_output: bool,
    plugin_paths: bool,
}

fn reads(name: &str) -> Reads {
    match name {
        "preToolUse" => Reads { permission: true, agent_message: true, updated_input: true, ..Default::default() },
        "beforeShellExecution" | "beforeMCPExecution" => {
            Reads { permission: true, agent_message: true, ..Default::default() }
        }
        "beforeReadFile" | "beforeTabFileRead" | "subagentStart" => Reads { permission: true, ..Default::default() },
        "beforeSubmitPrompt" => Reads { continue_blocks: true, ..Default::default() },
        "postToolUse" => Reads { context: true, mcp_output: true, ..Default::default() },
        "sessionStart" => Reads { context: true, env: true, ..Default::default() },
        "stop" | "subagentStop" => Reads { followup: true, ..Default::default() },
        "preCompact" => Reads { user_message_info: true, ..Default::default() },
        "workspaceOpen" => Reads { plugin_paths: true, ..Default::default() },
        _ => Reads::default(),
    }
}

/// A string field, trimmed; `None` when absent, not a string or blank.
fn text(json: &Map<String, Value>, key: &str) -> Option<String> {
    let t = json.get(key)?.as_str()?.trim();
    (!t.is_empty()).then(|| t.to_owned())
}

/// The fields of Claude Code's output Cursor does not read.
const CLAUDE_FIELDS: &[&str] = &["hookSpecificOutput", "decision", "systemMessage", "stopReason", "suppressOutput"];

/// Cursor 1.7's camelCase spellings of the message fields, which the
/// current Cursor does not read.
const OLD_FIELDS: &[(&str, &str)] = &[("userMessage", "user_message"), ("agentMessage", "agent_message")];

/// Read one hook's result (see the module documentation).
pub(crate) fn read(cx: &ReadCtx<'_>, exec: &HookExecution) -> HookReply {
    let name = event_name(cx.event);
    let family = cx.family;
    let mut r = Reader { cx, exec, name, family, reply: HookReply::default() };
    r.read();
    r.reply
}

struct Reader<'a> {
    cx: &'a ReadCtx<'a>,
    exec: &'a HookExecution,
    name: &'a str,
    family: EventFamily,
    reply: HookReply,
}

impl Reader<'_> {
    /// `<event> hook `<command>``: how hookline's messages name the hook.
    fn who(&self) -> String {
        format!("{} hook `{}`", self.name, self.exec.label)
    }

    /// A failure: a message naming the hook, and Cursor's fail-closed text.
    fn fail(&mut self, kind: HookFailure, level: HookMessageLevel, message: String, why: String) {
        self.reply.push(level, message);
        let what = match self.family {
            EventFamily::Prompt => "Prompt",
            _ => "Tool",
        };
        let text = format!(
            "{what} blocked because this hook is configured to fail closed (block when it fails). Hook \"{}\" {why}",
            self.exec.label
        );
        self.reply.failure = Some(Failure { kind, text, timeout_or_lost: matches!(kind, HookFailure::Timeout) });
    }

    fn stderr(&self) -> Option<&str> {
        let t = self.exec.stderr.trim();
        (!t.is_empty()).then_some(t)
    }

    fn read(&mut self) {
        let level = self.cx.rules.failure_level;
        if self.exec.timed_out {
            let after = match self.exec.timeout_seconds {
                0 => String::new(),
                s => format!(" after {s} s"),
            };
            self.fail(
                HookFailure::Timeout,
                HookMessageLevel::Error,
                format!("{} timed out{after}", self.who()),
                "timed out.".into(),
            );
            return;
        }
        match self.exec.exit_code {
            None => {
                let (kind, how) = match self.exec.signal {
                    Some(signal) => (HookFailure::Signal, format!("was killed by signal {signal}")),
                    None => (HookFailure::Exit, crate::dialect::protocol::UNKNOWN_STATUS.to_owned()),
                };
                self.fail(kind, level, format!("{} {how}", self.who()), format!("{how}."));
            }
            Some(0) => self.exit_0(),
            Some(2) if self.cx.rules.exit2 != Exit2::Ordinary => self.exit_2(),
            Some(code) => {
                let (message, why) = match self.stderr() {
                    Some(stderr) => (
                        format!("{} exited with code {code}: {stderr}", self.who()),
                        format!("failed with exit code {code}: {stderr}"),
                    ),
                    None => {
                        (format!("{} exited with code {code}", self.who()), format!("failed with exit code {code}."))
                    }
                };
                self.fail(HookFailure::Exit, level, message, why);
            }
        }
    }

    /// Exit 2: deny or block with the raw stdout, where the event can
    /// block; no effect elsewhere.
    fn exit_2(&mut self) {
        if !matches!(self.cx.rules.exit2, Exit2::Block { .. }) {
            hl_debug!("{} exited with code 2, which has no effect on {}", self.who(), self.name);
            return;
        }
        let reason = match self.exec.stdout.trim() {
            "" => format!("Hook \"{}\" blocked this action (exit code 2) but provided no reason.", self.exec.label),
            raw => raw.to_owned(),
        };
        self.reply.decision = match self.family {
            EventFamily::Tool => Some(Decision::Tool(PreToolHookDecision::Deny, Some(reason))),
            _ => Some(Decision::Block(reason)),
        };
    }

    fn exit_0(&mut self) {
        if let Some(stderr) = self.stderr() {
            hl_debug!("{} wrote to stderr: {stderr}", self.who());
        }
        let out = self.exec.stdout.trim();
        if out.is_empty() {
            if self.cx.rules.empty_output_fails_closed && self.cx.fail_closed {
                self.fail(
                    HookFailure::NoOutput,
                    self.cx.rules.failure_level,
                    format!("{} returned no output", self.who()),
                    "returned no output.".into(),
                );
            }
            return;
        }
        match serde_json::from_str::<Value>(out) {
            Ok(Value::Object(json)) => self.json(&json),
            _ => self.fail(
                HookFailure::InvalidOutput,
                self.cx.rules.failure_level,
                format!("{} returned output that is not a JSON object; it is ignored", self.who()),
                "returned invalid JSON.".into(),
            ),
        }
    }

    fn json(&mut self, json: &Map<String, Value>) {
        let reads = reads(self.name);
        let foreign: Vec<&str> = CLAUDE_FIELDS.iter().copied().filter(|k| json.contains_key(*k)).collect();
        if !foreign.is_empty() {
            self.reply.push(
                HookMessageLevel::Warning,
                format!(
                    "{} returned {} (Claude Code's output), which Cursor does not read; Cursor's fields are flat \
                     snake_case (`permission`, `user_message`, ...)",
                    self.who(),
                    foreign.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                ),
            );
        }
        for (old, current) in OLD_FIELDS.iter().filter(|(old, _)| json.contains_key(*old)) {
            self.reply.push(
                HookMessageLevel::Warning,
                format!(
                    "{} returned `{old}`, an older Cursor spelling that is not read; Cursor reads `{current}`",
                    self.who()
                ),
            );
        }
        let user_message = text(json, "user_message");
        let agent_message = if reads.agent_message { text(json, "agent_message") } else { None };
        if let Some(message) = &agent_message {
            self.reply.dialect_fields.insert("agent_message".into(), Value::String(message.clone()));
        }
        if reads.permission && self.family == EventFamily::Tool {
            self.permission(json, &reads, user_message.clone(), agent_message);
        } else if reads.continue_blocks && self.family == EventFamily::Prompt {
            if json.get("continue").and_then(Value::as_bool) == Some(false) {
                let reason = user_message
                    .unwrap_or_else(|| format!("Hook \"{}\" blocked the prompt (continue: false).", self.exec.label));
                self.reply.decision = Some(Decision::Block(reason));
            } else if let Some(message) = user_message {
                self.reply.push(HookMessageLevel::Info, message);
            }
        } else if reads.user_message_info {
            if let Some(message) = user_message {
                self.reply.push(HookMessageLevel::Info, message);
            }
        }
        if reads.followup && self.cx.rules.block_fields == BlockFields::FollowupMessage {
            if let Some(message) = text(json, "followup_message") {
                self.reply.decision = Some(Decision::Block(message));
            }
        }
        if reads.context {
            crate::dialect::protocol::push_context(&mut self.reply.context, json.get("additional_context"));
        }
        if reads.env && self.cx.rules.session_env_from_output {
            self.env(json.get("env"));
        }
        if reads.mcp_output {
            if let Some(v) = json.get("updated_mcp_tool_output").filter(|v| !v.is_null()) {
                // "For MCP tools only": another tool's output is not replaced.
                if self.cx.tool_name.is_some_and(|t| t.starts_with("MCP:")) {
                    self.reply.dialect_fields.insert("updated_mcp_tool_output".into(), v.clone());
                } else {
                    hl_debug!(
                        "{} returned updated_mcp_tool_output for {}, which is not an MCP tool; ignored",
                        self.who(),
                        self.cx.tool_name.unwrap_or("a tool call without a tool_name")
                    );
                }
            }
        }
        if reads.plugin_paths {
            if let Some(v @ Value::Array(_)) = json.get("pluginPaths") {
                self.reply.dialect_fields.insert("pluginPaths".into(), v.clone());
            }
        }
    }

    /// `permission` on a gate, with the event's `ask` rule; `updated_input`
    /// on preToolUse.
    fn permission(
        &mut self,
        json: &Map<String, Value>,
        reads: &Reads,
        user_message: Option<String>,
        agent_message: Option<String>,
    ) {
        if reads.updated_input {
            match json.get("updated_input") {
                None | Some(Value::Null) => {}
                Some(v @ Value::Object(_)) => self.reply.updated_input = Some(v.clone()),
                Some(_) => self.reply.push(
                    HookMessageLevel::Warning,
                    format!("{} returned an updated_input that is not a JSON object; ignored", self.who()),
                ),
            }
        }
        let decision = match json.get("permission") {
            None | Some(Value::Null) => None,
            Some(Value::String(p)) => match p.trim().to_ascii_lowercase().as_str() {
                "allow" => Some(PreToolHookDecision::Allow),
                "deny" => Some(PreToolHookDecision::Deny),
                "ask" => match self.cx.rules.ask {
                    AskRule::Kept => Some(PreToolHookDecision::Ask),
                    AskRule::Denies => Some(PreToolHookDecision::Deny),
                    AskRule::Ignored => {
                        self.reply.dialect_fields.insert("permission".into(), Value::String("ask".into()));
                        None
                    }
                },
                other => {
                    self.reply.push(
                        HookMessageLevel::Warning,
                        format!("{} returned an unknown permission \"{other}\"; ignored", self.who()),
                    );
                    None
                }
            },
            Some(other) => {
                self.reply.push(
                    HookMessageLevel::Warning,
                    format!("{} returned a permission that is not a string ({other}); ignored", self.who()),
                );
                None
            }
        };
        match decision {
            Some(d @ (PreToolHookDecision::Deny | PreToolHookDecision::Ask)) => {
                self.reply.decision = Some(Decision::Tool(d, user_message.or(agent_message)));
            }
            other => {
                if let Some(message) = user_message {
                    self.reply.push(HookMessageLevel::Info, message);
                }
                self.reply.decision = other.map(|d| Decision::Tool(d, None));
            }
        }
    }

    /// sessionStart `env`: an object of strings (numbers and booleans are
    /// written as text; other values are ignored with a warning).
    fn env(&mut self, env: Option<&Value>) {
        match env {
            None | Some(Value::Null) => {}
            Some(Value::Object(vars)) => {
                for (name, value) in vars {
                    let value = match value {
                        Value::String(s) => s.clone(),
                        Value::Number(n) => n.to_string(),
                        Value::Bool(b) => b.to_string(),
                        _ => {
                            self.reply.push(
                                HookMessageLevel::Warning,
                                format!("{} returned env.{name} that is not a string; ignored", self.who()),
                            );
                            continue;
                        }
                    };
                    if name.is_empty() || name.contains(['=', '\0']) || value.contains('\0') {
                        self.reply.push(
                            HookMessageLevel::Warning,
                            format!("{} returned an env variable that cannot be set ({name:?}); ignored", self.who()),
                        );
                        continue;
                    }
                    self.reply.env.insert(name.clone(), Value::String(value));
                }
            }
            Some(_) => self.reply.push(
                HookMessageLevel::Warning,
                format!("{} returned an env that is not an object; ignored", self.who()),
            ),
        }
    }
}

/// The columns the Cursor reader honours for `event`.
pub(crate) fn honours_event(event: &crate::model::event::RunEvent) -> &'static [Column] {
    honours(super::PROFILE.family_of(event))
}
