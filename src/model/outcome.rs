//! The outcome of one engine run (`docs/protocol.md`): the execution report of every
//! hook, the messages hooks produced, and the per-event decision fields.
//!
//! Every type here serialises to exactly the documented JSON:
//! [`HookOutcome::to_json`] is what `hl_engine_run` returns as
//! `outcome_json`. The common fields (`messages`, `continue`,
//! `stop_reason`, `hooks`) live in [`CommonOutcome`], flattened into each
//! per-event outcome.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The kind of hook (its handler type), for reports and previews.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookKind {
    /// A configured shell command (`"type": "command"`).
    Command,
    /// A host callback added with `hl_engine_add_callback_hook`.
    Callback,
    /// A configured HTTP endpoint (`"type": "http"`).
    Http,
    /// A tool of an MCP server, called through the host (`"type": "mcp_tool"`).
    McpTool,
    /// A prompt for a model, answered through the host (`"type": "prompt"`).
    Prompt,
    /// A prompt for an agent with tools, answered through the host (`"type": "agent"`).
    Agent,
}

impl HookKind {
    /// The configured handler types, in the order configs name them.
    pub const CONFIGURED: [HookKind; 5] =
        [HookKind::Command, HookKind::Http, HookKind::McpTool, HookKind::Prompt, HookKind::Agent];

    /// The wire name (`"command"`, `"mcp_tool"`, ...): a config's `type`,
    /// the report's `kind`, a span's `hook.type`.
    pub fn as_str(self) -> &'static str {
        match self {
            HookKind::Command => "command",
            HookKind::Callback => "callback",
            HookKind::Http => "http",
            HookKind::McpTool => "mcp_tool",
            HookKind::Prompt => "prompt",
            HookKind::Agent => "agent",
        }
    }

    /// The kind a config's `type` names (`None`: not a configured type).
    pub fn from_config_type(name: &str) -> Option<HookKind> {
        HookKind::CONFIGURED.into_iter().find(|k| k.as_str() == name)
    }
}

/// One entry of the `hooks` execution report.
///
/// Serialises as `{"kind","command","name","exit_code","timed_out",
/// "duration_ms","stdout_truncated","stderr_truncated","skipped"}`, plus
/// `"signal": N` only when the hook was killed by a signal, and the fields
/// that name a hook of another type (`url`; `server` and `tool`; `prompt`
/// and `model`) only for those types.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HookReport {
    /// The handler type.
    pub kind: HookKind,
    /// The command text (command hooks: in exec form the command and its
    /// arguments), else `None`.
    pub command: Option<String>,
    /// The callback name (callback hooks), else `None`.
    pub name: Option<String>,
    /// The URL (http hooks; serialised only when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The HTTP status of the response (http hooks that got one;
    /// serialised only when set). Their `exit_code` is null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The MCP server (mcp_tool hooks; serialised only when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The MCP tool (mcp_tool hooks; serialised only when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The prompt as configured (prompt and agent hooks; serialised only when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// The configured model (prompt and agent hooks that name one;
    /// serialised only when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The exit code; `None` when killed by a signal, timed out, or skipped.
    pub exit_code: Option<i32>,
    /// The signal that killed the hook, if any (serialised only when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// Whether the hook was killed at its timeout.
    pub timed_out: bool,
    /// Wall-clock run time in milliseconds (0 for skipped hooks).
    pub duration_ms: f64,
    /// Whether stdout exceeded `max_output_bytes` and was cut.
    pub stdout_truncated: bool,
    /// Whether stderr exceeded `max_output_bytes` and was cut.
    pub stderr_truncated: bool,
    /// Why the hook did not run: `"not_approved"` or
    /// `"changed_since_approval"` (workspace gate), `"unsupported_on_event"`
    /// (the dialect does not run this handler type on this event),
    /// `"url_not_allowed"` (an http hook whose URL is not in the allowed
    /// list), else `None`.
    pub skipped: Option<String>,
    /// How the hook failed, `None` when it ran and answered (a deliberate
    /// exit 2 is an answer, not a failure). Lets a host tell a deny from a crash.
    #[serde(default)]
    pub failure: Option<HookFailure>,
    /// The hook's configured `statusMessage` (serialised only when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// Whether the hook comes from a policy source (`hook_sources[i].policy`:
    /// an administrator's file no other source can turn off; serialised,
    /// as `"policy": true`, only when set).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub policy: bool,
}

/// How a hook failed (the report's `failure` field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookFailure {
    /// Killed at its timeout.
    Timeout,
    /// Killed by a signal.
    Signal,
    /// Could not be started.
    Spawn,
    /// Exited 0 but printed stdout that looks like JSON and does not parse.
    InvalidOutput,
    /// Exited non-zero (other than an exit 2 the event gives a meaning to),
    /// or its exit status was lost.
    Exit,
    /// An http hook's request failed: a connection error, a status other
    /// than 2xx, or a 2xx body that is neither empty nor a JSON object.
    Http,
    /// A prompt, agent or mcp_tool hook ran while the host had set no
    /// handler for its type.
    NoHandler,
    /// The host's handler failed (returned non-zero, panicked, threw).
    Handler,
    /// An mcp_tool hook's tool answered `isError: true`.
    ToolError,
    /// Exited 0 without any output where the rules make that a failure of
    /// a `failClosed` hook (Cursor).
    NoOutput,
}

impl HookFailure {
    /// The wire name (`"timeout"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            HookFailure::Timeout => "timeout",
            HookFailure::Signal => "signal",
            HookFailure::Spawn => "spawn",
            HookFailure::InvalidOutput => "invalid_output",
            HookFailure::Exit => "exit",
            HookFailure::Http => "http",
            HookFailure::NoHandler => "no_handler",
            HookFailure::Handler => "handler",
            HookFailure::ToolError => "tool_error",
            HookFailure::NoOutput => "no_output",
        }
    }
}

impl HookReport {
    /// The `skipped` value of a command the workspace gate did not run.
    pub const NOT_APPROVED: &'static str = "not_approved";
    /// The `skipped` value of a hook whose handler type its dialect does
    /// not run on the event.
    pub const UNSUPPORTED_ON_EVENT: &'static str = "unsupported_on_event";
    /// The `skipped` value of an http hook whose URL the allowed list
    /// (`allowed_http_hook_urls`) does not match.
    pub const URL_NOT_ALLOWED: &'static str = "url_not_allowed";

    /// The `skipped` value of a command the workspace gate did not run
    /// because a file it executes changed since the approval.
    pub const CHANGED_SINCE_APPROVAL: &'static str = "changed_since_approval";

    /// The report of a command skipped by the workspace gate:
    /// `"skipped":"not_approved"`, `exit_code` null, `timed_out` false,
    /// `duration_ms` 0.
    pub fn not_approved(command: &str) -> HookReport {
        HookReport { skipped: Some(Self::NOT_APPROVED.to_owned()), ..HookReport::command(command) }
    }

    /// A command's report before it runs: every result field empty.
    pub fn command(command: &str) -> HookReport {
        HookReport {
            kind: HookKind::Command,
            command: Some(command.to_owned()),
            name: None,
            url: None,
            status: None,
            server: None,
            tool: None,
            prompt: None,
            model: None,
            exit_code: None,
            signal: None,
            timed_out: false,
            duration_ms: 0.0,
            stdout_truncated: false,
            stderr_truncated: false,
            skipped: None,
            failure: None,
            status_message: None,
            policy: false,
        }
    }

    /// A callback hook's report.
    pub fn callback(name: &str, exit_code: i32, duration_ms: f64) -> HookReport {
        HookReport {
            kind: HookKind::Callback,
            command: None,
            name: Some(name.to_owned()),
            exit_code: Some(exit_code),
            duration_ms,
            ..HookReport::command("")
        }
    }
}

/// Severity of a [`HookMessage`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookMessageLevel {
    /// Hook output meant for the user (`systemMessage`, plain stdout).
    Info,
    /// A hook misbehaved but the run was not affected much.
    Warning,
    /// A hook failed, timed out, was skipped, or returned unusable output.
    Error,
    /// For the model, as a system reminder: what an `asyncRewake` hook
    /// that exited 2 reported (Claude Code wakes the model with it).
    SystemReminder,
}

/// One message for the host to show:
/// `{"level":"info"|"warning"|"error"|"system_reminder","text":str}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookMessage {
    /// Severity.
    pub level: HookMessageLevel,
    /// Trimmed text.
    pub text: String,
}

impl HookMessage {
    /// An info message.
    pub fn info(text: impl Into<String>) -> HookMessage {
        HookMessage { level: HookMessageLevel::Info, text: text.into() }
    }
    /// A warning message.
    pub fn warning(text: impl Into<String>) -> HookMessage {
        HookMessage { level: HookMessageLevel::Warning, text: text.into() }
    }
    /// An error message.
    pub fn error(text: impl Into<String>) -> HookMessage {
        HookMessage { level: HookMessageLevel::Error, text: text.into() }
    }
}

/// The fields every outcome has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommonOutcome {
    /// Messages in configuration order of the hooks that produced them.
    pub messages: Vec<HookMessage>,
    /// False when any hook returned `"continue": false`. Serialised as `continue`.
    #[serde(rename = "continue")]
    pub continue_: bool,
    /// The `stopReason` of the first hook that returned `"continue": false`.
    pub stop_reason: Option<String>,
    /// One report per hook that ran or was skipped by the gate, in configuration order.
    pub hooks: Vec<HookReport>,
    /// What hooks answered that has no canonical slot, per dialect:
    /// `{"<dialect>": {"<the vendor's field name>": …}}` (how several hooks'
    /// values of one field combine is the dialect's `FieldMerge`).
    /// Serialised only when a hook wrote one (so outcomes without any stay
    /// as they were).
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub dialect_fields: serde_json::Map<String, Value>,
}

impl Default for CommonOutcome {
    fn default() -> Self {
        CommonOutcome {
            messages: Vec::new(),
            continue_: true,
            stop_reason: None,
            hooks: Vec::new(),
            dialect_fields: serde_json::Map::new(),
        }
    }
}

/// SessionStart outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionStartHookOutcome {
    /// Context for the model: plain stdout and `additionalContext` values.
    pub additional_context: Vec<String>,
    /// What the hooks wrote to `CLAUDE_ENV_FILE`, for the host to apply to
    /// later commands (Claude Code profile; absent in VT Code's), or the
    /// `env` objects of their output (Cursor: the engine gives them to the
    /// session's later hooks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<serde_json::Map<String, Value>>,
    /// Common fields.
    #[serde(flatten)]
    pub common: CommonOutcome,
}

/// UserPromptSubmit outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserPromptHookOutcome {
    /// False when a hook blocked the prompt.
    pub allow_prompt: bool,
    /// Why the prompt was blocked.
    pub block_reason: Option<String>,
    /// Context for the model: plain stdout and `additionalContext` values.
    pub additional_context: Vec<String>,
    /// Common fields.
    #[serde(flatten)]
    pub common: CommonOutcome,
}

impl Default for UserPromptHookOutcome {
    fn default() -> Self {
        UserPromptHookOutcome {
            allow_prompt: true,
            block_reason: None,
            additional_context: Vec::new(),
            common: CommonOutcome::default(),
        }
    }
}

/// The merged PreToolUse decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PreToolHookDecision {
    /// No hook decided: the host applies its normal permission flow.
    #[default]
    Continue,
    /// Run the tool without asking.
    Allow,
    /// Do not run the tool.
    Deny,
    /// Ask the user.
    Ask,
    /// Pause at this tool call so that the host can resume it later
    /// (Claude Code's `permissionDecision: "defer"`; a host that cannot
    /// defer treats it as it treats a call no hook decided).
    Defer,
}

impl PreToolHookDecision {
    /// Every decision, in declaration order.
    pub const ALL: [PreToolHookDecision; 5] = [
        PreToolHookDecision::Continue,
        PreToolHookDecision::Allow,
        PreToolHookDecision::Deny,
        PreToolHookDecision::Ask,
        PreToolHookDecision::Defer,
    ];

    /// The wire name (`"continue"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            PreToolHookDecision::Continue => "continue",
            PreToolHookDecision::Allow => "allow",
            PreToolHookDecision::Deny => "deny",
            PreToolHookDecision::Ask => "ask",
            PreToolHookDecision::Defer => "defer",
        }
    }
}

/// PreToolUse outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PreToolHookOutcome {
    /// The merged decision.
    pub decision: PreToolHookDecision,
    /// The reason given by the hook that made the decision.
    pub reason: Option<String>,
    /// The tool input after `updatedInput` rewrites (`None`: unchanged).
    pub updated_input: Option<Value>,
    /// `additionalContext` values, in order.
    pub additional_context: Vec<String>,
    /// Common fields.
    #[serde(flatten)]
    pub common: CommonOutcome,
}

/// PostToolUse / PostToolUseFailure outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PostToolHookOutcome {
    /// The reason of the first hook that returned `decision: "block"`.
    pub block_reason: Option<String>,
    /// The tool's result is replaced by `block_reason` (the model gets the
    /// reason instead of the result) rather than getting it as feedback next
    /// to the result (Gemini CLI's AfterTool). Serialised only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub block_replaces_result: bool,
    /// Context for the model: `additionalContext` values.
    pub additional_context: Vec<String>,
    /// Common fields.
    #[serde(flatten)]
    pub common: CommonOutcome,
}

/// What a PermissionRequest hook decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PermissionBehavior {
    /// Grant the permission.
    Allow,
    /// Refuse it.
    Deny,
}

impl PermissionBehavior {
    /// The wire name (`"allow"`, `"deny"`).
    pub fn as_str(self) -> &'static str {
        match self {
            PermissionBehavior::Allow => "allow",
            PermissionBehavior::Deny => "deny",
        }
    }
}

/// How long a PermissionRequest decision holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PermissionScope {
    /// This request only.
    #[default]
    Once,
    /// An update targets the `session`.
    Session,
    /// An update targets `projectSettings`.
    Permanent,
}

/// A PermissionRequest decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PermissionDecision {
    /// Allow or deny.
    pub behavior: PermissionBehavior,
    /// Once, session or permanent, derived from the update destinations.
    pub scope: PermissionScope,
    /// A replacement tool input, if the hook gave one.
    pub updated_input: Option<Value>,
    /// The permission update objects, as the hook gave them.
    pub permission_updates: Vec<Value>,
    /// Whether to interrupt the agent.
    pub interrupt: bool,
    /// A message for the model/user.
    pub message: Option<String>,
}

/// PermissionRequest outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PermissionRequestHookOutcome {
    /// The first decision, `None` when no hook decided.
    pub decision: Option<PermissionDecision>,
    /// Common fields.
    #[serde(flatten)]
    pub common: CommonOutcome,
}

/// Stop outcome (also SubagentStop's and PreCompact's, and that of the
/// events fired by name that block: TaskCreated, TaskCompleted,
/// TeammateIdle, ConfigChange).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StopHookOutcome {
    /// Why the agent must not stop yet (`None`: it may stop). Where every
    /// blocking hook's reason counts (Claude Code's Stop and SubagentStop),
    /// the reasons in configuration order, one per line.
    pub block_reason: Option<String>,
    /// Context for the model that keeps the conversation going without an
    /// error (Claude Code's Stop and SubagentStop
    /// `hookSpecificOutput.additionalContext`); absent where the profile
    /// reads none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_context: Option<Vec<String>>,
    /// Common fields.
    #[serde(flatten)]
    pub common: CommonOutcome,
}

/// The outcome of a context event other than SessionStart (SubagentStart
/// and Setup in the Claude Code profile): the same fields.
pub type ContextHookOutcome = SessionStartHookOutcome;

/// PermissionDenied outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RetryHookOutcome {
    /// True when a hook returned `hookSpecificOutput.retry: true`: the host
    /// tells the model it may retry the denied tool call.
    pub retry: bool,
    /// Common fields.
    #[serde(flatten)]
    pub common: CommonOutcome,
}

/// WorktreeCreate outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorktreeHookOutcome {
    /// The path of the worktree the hooks created; `None`: creation failed
    /// (a hook failed, or none printed a path).
    pub worktree_path: Option<String>,
    /// Common fields.
    #[serde(flatten)]
    pub common: CommonOutcome,
}

/// How an Elicitation or ElicitationResult hook answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitationAction {
    /// Accept, with `content`.
    Accept,
    /// Decline.
    Decline,
    /// Cancel.
    Cancel,
}

impl ElicitationAction {
    /// The wire name (`"accept"`, `"decline"`, `"cancel"`).
    pub fn as_str(self) -> &'static str {
        match self {
            ElicitationAction::Accept => "accept",
            ElicitationAction::Decline => "decline",
            ElicitationAction::Cancel => "cancel",
        }
    }
}

/// Elicitation and ElicitationResult outcome.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ElicitationHookOutcome {
    /// The hooks' answer; `None`: no hook answered (the host asks the user,
    /// or keeps the user's response).
    pub action: Option<ElicitationAction>,
    /// The form values of an `accept`.
    pub content: Option<Value>,
    /// Common fields.
    #[serde(flatten)]
    pub common: CommonOutcome,
}

/// The outcome of one run, typed by event family.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum HookOutcome {
    /// SessionStart.
    SessionStart(SessionStartHookOutcome),
    /// UserPromptSubmit.
    UserPromptSubmit(UserPromptHookOutcome),
    /// PreToolUse.
    PreToolUse(PreToolHookOutcome),
    /// PostToolUse and PostToolUseFailure.
    PostToolUse(PostToolHookOutcome),
    /// PermissionRequest.
    PermissionRequest(PermissionRequestHookOutcome),
    /// Stop.
    Stop(StopHookOutcome),
    /// SubagentStop in a profile where it can block (Claude Code; in VT Code's it is `Other`).
    SubagentStop(StopHookOutcome),
    /// PreCompact in a profile where it can block (Claude Code; in VT Code's it is `Other`).
    PreCompact(StopHookOutcome),
    /// A context event other than SessionStart (SubagentStart and Setup in
    /// the Claude Code profile).
    Context(ContextHookOutcome),
    /// PermissionDenied (fired by name, Claude Code profile).
    Retry(RetryHookOutcome),
    /// WorktreeCreate (fired by name, Claude Code profile).
    Worktree(WorktreeHookOutcome),
    /// Elicitation, ElicitationResult (fired by name, Claude Code profile).
    Elicitation(ElicitationHookOutcome),
    /// SessionEnd, SubagentStart, Notification, and events fired by name
    /// that the profile does not know.
    Other(CommonOutcome),
}

impl HookOutcome {
    /// The outcome JSON (every key present, `null` where null).
    pub fn to_json(&self) -> Value {
        // Serialising these types cannot fail: every map key is a string.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The outcome as compact JSON text (the same text as
    /// `to_json().to_string()`, without the intermediate value). It cannot
    /// fail (every map key is a string); if it ever did, it would be an
    /// internal error, never a made-up outcome.
    pub fn to_json_string(&self) -> crate::error::Result<String> {
        crate::error::Error::to_json_string(self, "the outcome")
    }

    /// The merged decision in one word, when the hooks made one: PreToolUse
    /// `allow`, `deny` or `ask`; PermissionRequest `allow` or `deny`;
    /// `block` where a hook blocked (a prompt, a stop, a compaction) or gave
    /// PostToolUse feedback; `retry` (PermissionDenied), `path` (a
    /// WorktreeCreate hook gave the worktree's path), the Elicitation
    /// action. `None` when no hook decided. (A run span's `hook.decision`.)
    pub fn decision_name(&self) -> Option<&'static str> {
        match self {
            HookOutcome::PreToolUse(o) => match o.decision {
                PreToolHookDecision::Continue => None,
                d => Some(d.as_str()),
            },
            HookOutcome::PermissionRequest(o) => o.decision.as_ref().map(|d| d.behavior.as_str()),
            HookOutcome::UserPromptSubmit(o) => (!o.allow_prompt).then_some("block"),
            HookOutcome::PostToolUse(o) => o.block_reason.as_ref().map(|_| "block"),
            HookOutcome::Stop(o) | HookOutcome::SubagentStop(o) | HookOutcome::PreCompact(o) => {
                o.block_reason.as_ref().map(|_| "block")
            }
            HookOutcome::Retry(o) => o.retry.then_some("retry"),
            HookOutcome::Worktree(o) => o.worktree_path.as_ref().map(|_| "path"),
            HookOutcome::Elicitation(o) => o.action.map(ElicitationAction::as_str),
            HookOutcome::SessionStart(_) | HookOutcome::Context(_) | HookOutcome::Other(_) => None,
        }
    }

    /// The common fields.
    pub fn common(&self) -> &CommonOutcome {
        match self {
            HookOutcome::SessionStart(o) | HookOutcome::Context(o) => &o.common,
            HookOutcome::Retry(o) => &o.common,
            HookOutcome::Worktree(o) => &o.common,
            HookOutcome::Elicitation(o) => &o.common,
            HookOutcome::UserPromptSubmit(o) => &o.common,
            HookOutcome::PreToolUse(o) => &o.common,
            HookOutcome::PostToolUse(o) => &o.common,
            HookOutcome::PermissionRequest(o) => &o.common,
            HookOutcome::Stop(o) | HookOutcome::SubagentStop(o) | HookOutcome::PreCompact(o) => &o.common,
            HookOutcome::Other(o) => o,
        }
    }

    /// The common fields, mutably (e.g. to attach the `hooks` report).
    pub fn common_mut(&mut self) -> &mut CommonOutcome {
        match self {
            HookOutcome::SessionStart(o) | HookOutcome::Context(o) => &mut o.common,
            HookOutcome::Retry(o) => &mut o.common,
            HookOutcome::Worktree(o) => &mut o.common,
            HookOutcome::Elicitation(o) => &mut o.common,
            HookOutcome::UserPromptSubmit(o) => &mut o.common,
            HookOutcome::PreToolUse(o) => &mut o.common,
            HookOutcome::PostToolUse(o) => &mut o.common,
            HookOutcome::PermissionRequest(o) => &mut o.common,
            HookOutcome::Stop(o) | HookOutcome::SubagentStop(o) | HookOutcome::PreCompact(o) => &mut o.common,
            HookOutcome::Other(o) => o,
        }
    }
}
