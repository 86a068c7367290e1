//go:build cgo

package hookline

import (
	"encoding/json"
	"fmt"
)

// SessionStartTrigger is the engine's "trigger" option (SessionStart source).
type SessionStartTrigger string

// Session start triggers.
const (
	TriggerStartup    SessionStartTrigger = "startup"
	TriggerResume     SessionStartTrigger = "resume"
	TriggerNewSession SessionStartTrigger = "new_session"
	TriggerCompact    SessionStartTrigger = "compact"
	TriggerClear      SessionStartTrigger = "clear"
)

// SessionEndReason is SessionEndInput.Reason.
type SessionEndReason string

// Session end reasons.
const (
	SessionEndCompleted  SessionEndReason = "completed"
	SessionEndExit       SessionEndReason = "exit"
	SessionEndCancelled  SessionEndReason = "cancelled"
	SessionEndError      SessionEndReason = "error"
	SessionEndNewSession SessionEndReason = "new_session"
)

// CompactTrigger is PreCompactInput.Trigger.
type CompactTrigger string

// Compaction triggers.
const (
	CompactManual      CompactTrigger = "manual"
	CompactAuto        CompactTrigger = "auto"
	CompactRecovery    CompactTrigger = "recovery"
	CompactModelSwitch CompactTrigger = "model_switch"
	CompactUnknown     CompactTrigger = "unknown"
)

// CompactMode is PreCompactInput.Mode.
type CompactMode string

// Compaction modes.
const (
	CompactModeProvider CompactMode = "provider"
	CompactModeLocal    CompactMode = "local"
	CompactModeUnknown  CompactMode = "unknown"
)

// SessionEndInput is the input of SessionEnd.
type SessionEndInput struct {
	TurnID string           `json:"turn_id"`
	Reason SessionEndReason `json:"reason"`
	// Extra fields are passed through to the hooks' payload unchanged.
	Extra map[string]any `json:"-"`
}

// SubagentInput is the input of SubagentStart and SubagentStop.
type SubagentInput struct {
	ParentSessionID string `json:"parent_session_id"`
	ChildThreadID   string `json:"child_thread_id"`
	AgentName       string `json:"agent_name"`
	DisplayLabel    string `json:"display_label"`
	Background      bool   `json:"background"`
	Status          string `json:"status"`
	// TranscriptPath (the child's), when set, replaces the session's in the payload.
	TranscriptPath string `json:"transcript_path,omitempty"`
	// AgentID and AgentType are Claude Code's fields; with a Claude Code
	// config the matchers of SubagentStart and SubagentStop test AgentType
	// (with a VT Code config, AgentName).
	AgentID   string         `json:"agent_id,omitempty"`
	AgentType string         `json:"agent_type,omitempty"`
	Extra     map[string]any `json:"-"`
}

// UserPromptSubmitInput is the input of UserPromptSubmit.
type UserPromptSubmitInput struct {
	TurnID string         `json:"turn_id"`
	Prompt string         `json:"prompt"`
	Extra  map[string]any `json:"-"`
}

// PreToolUseInput is the input of PreToolUse.
type PreToolUseInput struct {
	ToolName string `json:"tool_name"`
	// ToolInput is a JSON object (a map, a struct or a json.RawMessage) or nil.
	ToolInput  any            `json:"tool_input,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	Extra      map[string]any `json:"-"`
}

// PostToolUseInput is the input of PostToolUse.
type PostToolUseInput struct {
	ToolName  string `json:"tool_name"`
	ToolInput any    `json:"tool_input,omitempty"`
	// ToolResponse is any JSON value (nil sends null).
	ToolResponse any            `json:"tool_response"`
	ToolCallID   string         `json:"tool_call_id,omitempty"`
	Extra        map[string]any `json:"-"`
}

// PostToolUseFailureInput is the input of PostToolUseFailure.
type PostToolUseFailureInput struct {
	ToolName   string         `json:"tool_name"`
	ToolInput  any            `json:"tool_input,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	Error      string         `json:"error"`
	Extra      map[string]any `json:"-"`
}

// PermissionRequestInput is the input of PermissionRequest.
type PermissionRequestInput struct {
	ToolName  string `json:"tool_name"`
	ToolInput any    `json:"tool_input,omitempty"`
	// PermissionRequest must marshal to a JSON object.
	PermissionRequest any `json:"permission_request"`
	// PermissionSuggestions, when set, must marshal to a JSON array.
	PermissionSuggestions any            `json:"permission_suggestions,omitempty"`
	Extra                 map[string]any `json:"-"`
}

// PreCompactInput is the input of PreCompact.
type PreCompactInput struct {
	Trigger               CompactTrigger `json:"trigger"`
	Mode                  CompactMode    `json:"mode"`
	OriginalMessageCount  uint64         `json:"original_message_count"`
	CompactedMessageCount uint64         `json:"compacted_message_count"`
	HistoryArtifactPath   string         `json:"history_artifact_path,omitempty"`
	Extra                 map[string]any `json:"-"`
}

// StopInput is the input of Stop.
type StopInput struct {
	LastAssistantMessage string         `json:"last_assistant_message"`
	StopHookActive       bool           `json:"stop_hook_active"`
	Extra                map[string]any `json:"-"`
}

// NotificationInput is the input of Notification.
type NotificationInput struct {
	// NotificationType is free text ("permission_prompt", "idle_prompt", ...).
	NotificationType string         `json:"notification_type"`
	Title            string         `json:"title"`
	Message          string         `json:"message"`
	Extra            map[string]any `json:"-"`
}

// Message is one message of an outcome.
type Message struct {
	// Level is "info", "warning" or "error".
	Level string `json:"level"`
	Text  string `json:"text"`
}

// HookReport describes one hook that ran (or was skipped by the gate).
type HookReport struct {
	// Kind is the handler type: "command", "callback", "http", "mcp_tool",
	// "prompt" or "agent".
	Kind    string `json:"kind"`
	Command string `json:"command"` // "" for hooks of other types
	Name    string `json:"name"`    // "" for hooks other than callback hooks
	// URL is an http hook's URL, and Status the HTTP status of its
	// response (0 when it got none).
	URL    string `json:"url,omitempty"`
	Status int    `json:"status,omitempty"`
	// Server and Tool name an mcp_tool hook's tool.
	Server string `json:"server,omitempty"`
	Tool   string `json:"tool,omitempty"`
	// Prompt and Model are a prompt or agent hook's (Model "" when unset).
	Prompt string `json:"prompt,omitempty"`
	Model  string `json:"model,omitempty"`
	// ExitCode is nil when the hook timed out, was killed by a signal or
	// was skipped.
	ExitCode        *int    `json:"exit_code"`
	Signal          *int    `json:"signal,omitempty"`
	TimedOut        bool    `json:"timed_out"`
	DurationMs      float64 `json:"duration_ms"`
	StdoutTruncated bool    `json:"stdout_truncated"`
	StderrTruncated bool    `json:"stderr_truncated"`
	// Skipped is why the hook did not run: "not_approved" (the gate held
	// it back), "unsupported_on_event", "url_not_allowed"; else "".
	Skipped string `json:"skipped"`
	// Failure says how the hook failed: "" when it answered, else
	// "timeout", "signal", "spawn", "invalid_output", "exit", "http",
	// "no_handler", "handler", "tool_error" or "no_output" (a Cursor
	// failClosed hook that printed nothing).
	Failure string `json:"failure"`
	// StatusMessage is the hook's configured statusMessage (Claude Code dialect).
	StatusMessage string `json:"status_message,omitempty"`
	// Policy is true for a hook of a policy source (HookSource.Policy).
	Policy bool `json:"policy,omitempty"`
}

// Outcome holds the fields every event's outcome has.
type Outcome struct {
	Messages []Message `json:"messages"`
	// Continue is false when any hook returned "continue": false.
	Continue bool `json:"continue"`
	// StopReason is the stopReason of the first such hook ("" if none).
	StopReason string       `json:"stop_reason"`
	Hooks      []HookReport `json:"hooks"`
	// DialectFields holds what hooks wrote that has no canonical field, by
	// dialect and then by the agent's own field name (nil when none did),
	// e.g. DialectFields["codex"]["additionalContext"] for SubagentStart.
	// [Outcome.Gemini], [Outcome.Cursor], [Outcome.Copilot] and
	// [Outcome.VSCode] decode them.
	DialectFields map[Dialect]map[string]json.RawMessage `json:"dialect_fields,omitempty"`
	// Raw is the whole outcome JSON as hookline returned it.
	Raw json.RawMessage `json:"-"`
}

// Gemini decodes DialectFields["gemini"], what Gemini CLI hooks wrote
// (nil when none did, or when it does not decode).
func (o *Outcome) Gemini() *GeminiFields {
	fields, ok := o.DialectFields[DialectGemini]
	if !ok {
		return nil
	}
	raw, err := json.Marshal(fields)
	if err != nil {
		return nil
	}
	var g GeminiFields
	if json.Unmarshal(raw, &g) != nil {
		return nil
	}
	return &g
}

// GeminiFields are Gemini CLI's fields without a canonical slot, combined
// as Gemini CLI combines them (docs/dialects.md).
type GeminiFields struct {
	// GeminiDecision and Reason (BeforeModel, AfterModel) are the last
	// hook's, as it wrote them: "block" or "deny" blocks the model call or
	// the response chunk. The outcome's own "decision" is the canonical
	// one ("deny" or "continue").
	GeminiDecision string `json:"gemini_decision,omitempty"`
	Reason         string `json:"reason,omitempty"`
	// LLMRequest (BeforeModel) is the request override; LLMResponse is
	// BeforeModel's synthetic response or AfterModel's replacement chunk.
	LLMRequest  json.RawMessage `json:"llm_request,omitempty"`
	LLMResponse json.RawMessage `json:"llm_response,omitempty"`
	// ToolConfig (BeforeToolSelection) is the merged tool restriction.
	ToolConfig *GeminiToolConfig `json:"toolConfig,omitempty"`
	// TailToolCallRequest (AfterTool) is a tool to run next, whose result
	// replaces this one's: named and shaped canonically (Read, not
	// read_file) unless EngineOptions.ToolNames is ToolNamesNative.
	TailToolCallRequest *GeminiToolCall `json:"tailToolCallRequest,omitempty"`
	// ClearContext (AfterAgent) asks to reset the chat history.
	ClearContext bool `json:"clearContext,omitempty"`
}

// GeminiToolConfig is GeminiFields.ToolConfig.
type GeminiToolConfig struct {
	// Mode is "AUTO", "ANY" or "NONE".
	Mode                 string   `json:"mode"`
	AllowedFunctionNames []string `json:"allowedFunctionNames"`
}

// GeminiToolCall is GeminiFields.TailToolCallRequest.
type GeminiToolCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

// CursorFields are the answers of Cursor hooks that have no canonical slot
// in the outcome, under Cursor's own names (the first hook that gave each
// wins).
type CursorFields struct {
	// Permission is "ask" when a preToolUse hook asked: Cursor accepts it
	// and does not enforce it, so the decision stays "continue".
	Permission string `json:"permission,omitempty"`
	// AgentMessage (preToolUse, beforeShellExecution, beforeMCPExecution)
	// is the message a hook wrote for the agent; the deny reason is the
	// user_message when there is one.
	AgentMessage string `json:"agent_message,omitempty"`
	// UpdatedMCPToolOutput (postToolUse) replaces an MCP tool's output as
	// the model sees it.
	UpdatedMCPToolOutput json.RawMessage `json:"updated_mcp_tool_output,omitempty"`
	// PluginPaths (workspaceOpen) are plugin directories to load.
	PluginPaths []string `json:"pluginPaths,omitempty"`
}

// CopilotToolResult is a Copilot CLI tool result (postToolUse's
// modifiedResult).
type CopilotToolResult struct {
	// ResultType is "success" (or "failure", which routes the call to
	// postToolUseFailure).
	ResultType       string `json:"resultType"`
	TextResultForLLM string `json:"textResultForLlm"`
}

// CopilotFields are the answers of Copilot CLI hooks that have no
// canonical slot in the outcome (the last hook that gave each wins).
type CopilotFields struct {
	// ModifiedResult (postToolUse) replaces the tool's result.
	ModifiedResult *CopilotToolResult `json:"modifiedResult,omitempty"`
	// ModifiedResponse (subagentStop) replaces the subagent's response
	// when it is allowed to finish (a block discards it).
	ModifiedResponse *string `json:"modifiedResponse,omitempty"`
	// AdditionalContext (subagentStart, notification): prepended to the
	// subagent's prompt, or injected into the session.
	AdditionalContext *string `json:"additionalContext,omitempty"`
	// ModifiedTransformedPrompt (userPromptTransformed) replaces the
	// model-facing prompt.
	ModifiedTransformedPrompt *string `json:"modifiedTransformedPrompt,omitempty"`
	// MetaToUse (preMcpToolCall) is the MCP request's _meta.
	MetaToUse json.RawMessage `json:"metaToUse,omitempty"`
}

// VSCodeFields are the answers of VS Code hooks that have no canonical
// slot in the outcome.
type VSCodeFields struct {
	// AdditionalContext (SubagentStart) is added to the subagent's conversation.
	AdditionalContext *string `json:"additionalContext,omitempty"`
}

// DialectField decodes the dialect fields of dialect into v; false when
// no hook of that dialect gave one.
func (o *Outcome) DialectField(dialect Dialect, v any) (bool, error) {
	fields, ok := o.DialectFields[dialect]
	if !ok {
		return false, nil
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return true, err
	}
	return true, json.Unmarshal(b, v)
}

// Copilot returns the Copilot CLI dialect fields of the outcome, nil when
// no Copilot CLI hook gave one.
func (o *Outcome) Copilot() (*CopilotFields, error) {
	var f CopilotFields
	if ok, err := o.DialectField(DialectCopilot, &f); !ok || err != nil {
		return nil, err
	}
	return &f, nil
}

// Cursor returns the Cursor dialect fields of the outcome, nil when no
// Cursor hook gave one.
func (o *Outcome) Cursor() (*CursorFields, error) {
	var f CursorFields
	if ok, err := o.DialectField(DialectCursor, &f); !ok || err != nil {
		return nil, err
	}
	return &f, nil
}

// VSCode returns the VS Code dialect fields of the outcome, nil when no
// VS Code hook gave one.
func (o *Outcome) VSCode() (*VSCodeFields, error) {
	var f VSCodeFields
	if ok, err := o.DialectField(DialectVSCode, &f); !ok || err != nil {
		return nil, err
	}
	return &f, nil
}

// Gate decodes the outcome of an event the hooks' dialect makes a gate
// (Cursor's subagentStart, and beforeShellExecution, beforeMCPExecution,
// beforeReadFile and beforeTabFileRead fired with [Engine.RunNamed]):
// PreToolUse's shape, a decision with its reason.
func (o *Outcome) Gate() (PreToolUseOutcome, error) {
	var g PreToolUseOutcome
	if err := json.Unmarshal(o.Raw, &g); err != nil {
		return g, err
	}
	g.Raw = o.Raw
	g.UpdatedInput = nullToNil(g.UpdatedInput)
	return g, nil
}

// SessionStartOutcome is the outcome of SessionStart.
type SessionStartOutcome struct {
	Outcome
	AdditionalContext []string `json:"additional_context"`
	// Env holds what the hooks wrote to CLAUDE_ENV_FILE (Claude Code
	// profile; nil in the VT Code profile), for later commands.
	Env map[string]string `json:"env,omitempty"`
}

// UserPromptSubmitOutcome is the outcome of UserPromptSubmit.
type UserPromptSubmitOutcome struct {
	Outcome
	AllowPrompt       bool     `json:"allow_prompt"`
	BlockReason       string   `json:"block_reason"`
	AdditionalContext []string `json:"additional_context"`
}

// PreToolUseDecision is PreToolUseOutcome.Decision.
type PreToolUseDecision string

// PreToolUse decisions.
const (
	DecisionContinue PreToolUseDecision = "continue"
	DecisionAllow    PreToolUseDecision = "allow"
	DecisionDeny     PreToolUseDecision = "deny"
	DecisionAsk      PreToolUseDecision = "ask"
	// DecisionDefer (Claude Code's permissionDecision "defer"): pause at this
	// tool call so that the host can resume it later; a host that cannot
	// defer treats it like DecisionContinue.
	DecisionDefer PreToolUseDecision = "defer"
)

// PreToolUseOutcome is the outcome of PreToolUse.
type PreToolUseOutcome struct {
	Outcome
	Decision PreToolUseDecision `json:"decision"`
	Reason   string             `json:"reason"`
	// UpdatedInput is the tool input a hook substituted (nil if none).
	UpdatedInput      json.RawMessage `json:"updated_input"`
	AdditionalContext []string        `json:"additional_context"`
}

// PostToolUseOutcome is the outcome of PostToolUse and PostToolUseFailure.
type PostToolUseOutcome struct {
	Outcome
	BlockReason string `json:"block_reason"`
	// BlockReplacesResult: BlockReason replaces the tool's result for the
	// model instead of being feedback next to it (Gemini CLI's AfterTool).
	BlockReplacesResult bool     `json:"block_replaces_result,omitempty"`
	AdditionalContext   []string `json:"additional_context"`
}

// PermissionDecision is a PermissionRequest hook's decision.
type PermissionDecision struct {
	// Behavior is "allow" or "deny".
	Behavior string `json:"behavior"`
	// Scope is "once", "session" or "permanent".
	Scope             string            `json:"scope"`
	UpdatedInput      json.RawMessage   `json:"updated_input"`
	PermissionUpdates []json.RawMessage `json:"permission_updates"`
	Interrupt         bool              `json:"interrupt"`
	Message           string            `json:"message"`
}

// PermissionRequestOutcome is the outcome of PermissionRequest.
type PermissionRequestOutcome struct {
	Outcome
	// Decision is nil when no hook decided.
	Decision *PermissionDecision `json:"decision"`
}

// StopOutcome is the outcome of Stop (and SubagentStop, PreCompact).
type StopOutcome struct {
	Outcome
	// BlockReason: with a Claude Code config, every blocking hook's reason,
	// in configuration order, one per line.
	BlockReason string `json:"block_reason"`
	// AdditionalContext (Claude Code's Stop and SubagentStop): feedback
	// that keeps the conversation going without an error.
	AdditionalContext []string `json:"additional_context,omitempty"`
}

// SubagentStartOutcome is the outcome of SubagentStart; AdditionalContext
// is the subagent's context (Claude Code config; nil with a VT Code one).
type SubagentStartOutcome struct {
	Outcome
	AdditionalContext []string `json:"additional_context,omitempty"`
}

// NamedOutcome is the outcome of an event fired by name (Engine.RunNamed):
// the common fields, and the fields of the event's family (docs/profiles.md,
// "Events by name"); a field the event does not have keeps its zero value.
type NamedOutcome struct {
	Outcome
	// BlockReason: TaskCreated, TaskCompleted, TeammateIdle, ConfigChange,
	// PostToolBatch, UserPromptExpansion (and Stop fired by name).
	BlockReason string `json:"block_reason"`
	// AllowPrompt: UserPromptExpansion (nil for other events).
	AllowPrompt *bool `json:"allow_prompt"`
	// AdditionalContext: Setup, UserPromptExpansion, PostToolBatch.
	AdditionalContext []string `json:"additional_context"`
	// Env: what Setup hooks wrote to CLAUDE_ENV_FILE.
	Env map[string]string `json:"env"`
	// Retry: PermissionDenied; the model may retry the denied call.
	Retry bool `json:"retry"`
	// WorktreePath: WorktreeCreate; "" when creating the worktree fails.
	WorktreePath string `json:"worktree_path"`
	// Action ("accept", "decline", "cancel"; "" when no hook answered) and
	// Content: Elicitation, ElicitationResult.
	Action  string          `json:"action"`
	Content json.RawMessage `json:"content"`
}

// ConfigWarning is an entry of the hooks configuration that was skipped
// the way the agent skips it (a malformed entry or an unknown handler type
// in a Claude Code settings file): Engine.ConfigWarnings.
type ConfigWarning struct {
	// Path names the entry (hooks.PreToolUse[0].hooks[1]), prefixed with
	// its file or hook_sources[i].
	Path    string `json:"path"`
	Message string `json:"message"`
}

// CommandPreview is one configured command as the approval digest sees it.
type CommandPreview struct {
	// Type is the hook's handler type ("command", ...).
	Type string `json:"type"`
	// Dialect is the hook's dialect for dialects other than VT Code and
	// Claude Code (their lines carry none), e.g. DialectCodex.
	Dialect        Dialect `json:"dialect,omitempty"`
	Event          string  `json:"event"`
	Matcher        *string `json:"matcher"`
	Command        string  `json:"command"`
	TimeoutSeconds *int64  `json:"timeout_seconds"`
	// TimeoutMs is the timeout of dialects that write milliseconds (Gemini
	// CLI; TimeoutSeconds is then nil).
	TimeoutMs *int64 `json:"timeout_ms,omitempty"`
	// Argv is the program and arguments started instead of
	// /bin/sh -c Command (a Copilot CLI bash or exec entry), else nil.
	Argv []string `json:"argv,omitempty"`
	// Cwd is the working directory the config gives, as written ("": the workspace).
	Cwd string `json:"cwd,omitempty"`
	// ConfigEnv holds the variables the config adds (its "env"), as written.
	ConfigEnv map[string]string `json:"configEnv,omitempty"`
	// Pins are the files the command executes, as they are now: what an
	// approval made now binds (empty on an ungated engine).
	Pins []Pin `json:"pins"`
	// Env is the environment policy the command runs under (Set also
	// names the variables the hook sets in its own environment, Gemini
	// CLI's env).
	Env EnvPreview `json:"env"`
}

// Pin is a file an approval binds: its canonical path and the SHA-256 of
// its content (lowercase hex).
type Pin struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// EnvPreview is the environment policy of a previewed command: what it
// inherits of the host's environment (everything, nothing, or the names and
// globs in InheritOnly), the globs scrubbed, and the names set (not their
// values).
type EnvPreview struct {
	InheritAll  bool
	InheritOnly []string
	Scrub       []string
	Set         []string
}

// UnmarshalJSON reads {"inherit": true|false|[...], "scrub": [...], "set": [...]}.
func (p *EnvPreview) UnmarshalJSON(b []byte) error {
	var raw struct {
		Inherit json.RawMessage `json:"inherit"`
		Scrub   []string        `json:"scrub"`
		Set     []string        `json:"set"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*p = EnvPreview{Scrub: raw.Scrub, Set: raw.Set}
	if len(raw.Inherit) > 0 && raw.Inherit[0] == '[' {
		return json.Unmarshal(raw.Inherit, &p.InheritOnly)
	}
	return json.Unmarshal(raw.Inherit, &p.InheritAll)
}

// EnvPolicy is an environment policy for hook processes (EngineOptions
// HookEnv and UntrustedHookEnv; docs/trust.md). The zero value inherits
// everything and changes nothing.
type EnvPolicy struct {
	// InheritNone: inherit nothing of the host's environment.
	InheritNone bool
	// InheritOnly: inherit only the variables matching these names or globs
	// (* any run, ? one character). Not together with InheritNone.
	InheritOnly []string
	// ScrubSecrets removes the names of the "secrets" preset (*_TOKEN,
	// *_KEY, AWS_*, SSH_AUTH_SOCK, ...). Not together with Scrub.
	ScrubSecrets bool
	// Scrub removes the variables matching these names or globs.
	Scrub []string
	// Set adds variables after scrubbing.
	Set map[string]string
}

// MarshalJSON writes the option object {"inherit", "scrub", "set"}.
func (p EnvPolicy) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	switch {
	case p.InheritNone && p.InheritOnly != nil:
		return nil, fmt.Errorf("EnvPolicy: InheritNone and InheritOnly exclude each other")
	case p.InheritNone:
		m["inherit"] = false
	case p.InheritOnly != nil:
		m["inherit"] = p.InheritOnly
	}
	switch {
	case p.ScrubSecrets && p.Scrub != nil:
		return nil, fmt.Errorf("EnvPolicy: ScrubSecrets and Scrub exclude each other")
	case p.ScrubSecrets:
		m["scrub"] = "secrets"
	case p.Scrub != nil:
		m["scrub"] = p.Scrub
	}
	if p.Set != nil {
		m["set"] = p.Set
	}
	return json.Marshal(m)
}

// EngineOptions mirrors the options JSON of hl_engine_new (docs/protocol.md §7).
// Workspace and SessionID are required and must not be empty (the library
// rejects an empty session_id like a missing one, so the zero SessionID is
// ErrInvalidArgument, as an omitted key is in C and Node); at most one of
// Hooks, HooksTOML and HooksFile may be set (none: an engine without
// configured hooks).
type EngineOptions struct {
	// Workspace is an existing directory; hooks run there.
	Workspace string `json:"workspace"`
	SessionID string `json:"session_id"`
	// Trigger defaults to startup. With a Claude Code config (or none) any
	// source is accepted, e.g. SessionStartTrigger("fork").
	Trigger SessionStartTrigger `json:"trigger,omitempty"`
	// WorkspaceGated makes the engine spawn no command until approved.
	WorkspaceGated bool `json:"workspace_gated"`
	// Hooks is a hooks config as JSON (VT Code "lifecycle" or Claude Code
	// settings dialect, or the one Dialect names: a Gemini CLI settings.json
	// with Dialect "gemini", ...).
	Hooks json.RawMessage `json:"hooks,omitempty"`
	// HooksTOML is a vtcode.toml text (or its [lifecycle] tables).
	HooksTOML string `json:"hooks_toml,omitempty"`
	// HooksFile is a path to a .toml or .json hooks config, or a Cline
	// hooks folder.
	HooksFile      string            `json:"hooks_file,omitempty"`
	TranscriptPath string            `json:"transcript_path,omitempty"`
	TrustStore     string            `json:"trust_store,omitempty"`
	Env            map[string]string `json:"env,omitempty"`
	EnvRemove      []string          `json:"env_remove,omitempty"`
	// MaxOutputBytes caps each hook's stdout and stderr (0: the default, 1 MiB).
	MaxOutputBytes uint64 `json:"max_output_bytes,omitempty"`
	// StopHookBlockCap: after this many consecutive stops of the session
	// that Stop hooks kept from ending, the next one is allowed with a
	// warning (Claude Code profile). nil: the default, 8; 0: no cap.
	StopHookBlockCap *uint32 `json:"stop_hook_block_cap,omitempty"`
	// HookEnv is the environment policy of every hook (nil: inherit everything).
	HookEnv *EnvPolicy `json:"hook_env,omitempty"`
	// UntrustedHookEnv applies over HookEnv to hooks of untrusted sources only.
	UntrustedHookEnv *EnvPolicy `json:"untrusted_hook_env,omitempty"`
	// Dialect names the dialect of Hooks, HooksTOML or HooksFile (empty:
	// a file is recognised by its path, e.g. .codex/hooks.json is Codex's,
	// .cursor/hooks.json Cursor's, .github/hooks/*.json Copilot CLI's,
	// .gemini/settings.json Gemini CLI's, anything else by its shape).
	Dialect Dialect `json:"dialect,omitempty"`
	// HookSources loads several configs into one engine, in order (user,
	// project, local, plugins), instead of Hooks, HooksTOML or HooksFile.
	HookSources []HookSource `json:"hook_sources,omitempty"`
	// AllowedHTTPHookURLs lists the URL patterns ("*" is any text) http
	// hooks must match; others are skipped ("url_not_allowed"). nil: any
	// URL; an empty, non-nil slice allows none.
	AllowedHTTPHookURLs []string `json:"allowed_http_hook_urls"`
	// HTTPHookAllowedEnvVars are the only variables any http hook's headers
	// may interpolate (on top of its own allowedEnvVars). nil: no limit of
	// the engine's.
	HTTPHookAllowedEnvVars []string `json:"http_hook_allowed_env_vars"`
	// ToolNames says how the host names tools: ToolNamesCanonical (the
	// default, empty) passes Claude Code's names and inputs (Bash, Write,
	// mcp__<server>__<tool>), mapped to each hook's agent (Gemini CLI's
	// run_shell_command, Cursor's Shell, ...); ToolNamesNative passes them
	// to every hook unchanged.
	ToolNames ToolNames `json:"tool_names,omitempty"`
	// OnCallbackError (not sent to the library), when set, is called with
	// every failure of a callback hook (its error or panic value), on the
	// thread that ran it, before hookline counts the hook as exit code 1.
	// It must not block for long. See [Engine.AddCallbackHook] for what a
	// failure means for each event.
	OnCallbackError func(CallbackFailure) `json:"-"`
}

// HookSource is one entry of EngineOptions.HookSources: exactly one of
// Hooks, HooksTOML and HooksFile. Only untrusted sources are gated (their
// commands form the digest); PluginRoot becomes CLAUDE_PLUGIN_ROOT for the
// source's hooks.
type HookSource struct {
	Hooks      json.RawMessage `json:"hooks,omitempty"`
	HooksTOML  string          `json:"hooks_toml,omitempty"`
	HooksFile  string          `json:"hooks_file,omitempty"`
	Trusted    bool            `json:"trusted"`
	PluginRoot string          `json:"plugin_root,omitempty"`
	// Dialect names the source's dialect (empty: recognised by its path,
	// else by its shape).
	Dialect Dialect `json:"dialect,omitempty"`
	// Policy makes it a policy source, an administrator's file (Copilot
	// CLI's policy.d, Claude Code's managed settings, Cursor's enterprise
	// hooks.json): trusted, its hooks run first, no other source's
	// disableAllHooks or switch turns them off, and a failing one takes
	// its event's blocking decision (docs/protocol.md).
	Policy bool `json:"policy,omitempty"`
}

// ToolNames is the tool_names option: whether the host's tool names are
// the canonical ones (docs/protocol.md) or one agent's own.
type ToolNames string

// The tool_names values.
const (
	// ToolNamesCanonical: Claude Code's names and inputs, mapped to each
	// hook's agent; a rewrite a hook returns comes back canonical.
	ToolNamesCanonical ToolNames = "canonical"
	// ToolNamesNative: names and inputs reach every hook unchanged.
	ToolNamesNative ToolNames = "native"
)

// Dialect names a hooks format: the agent a config was written for. Each
// dialect's hooks get that agent's payload and decisions.
type Dialect string

// The dialects.
const (
	// DialectVTCode: vtcode.toml [hooks.lifecycle] or {"lifecycle": …}.
	DialectVTCode Dialect = "vtcode"
	// DialectClaude: Claude Code settings ({"hooks": {"PreToolUse": …}}).
	DialectClaude Dialect = "claude"
	// DialectCodex: OpenAI Codex .codex/hooks.json or the [hooks] of
	// .codex/config.toml.
	DialectCodex Dialect = "codex"
	// DialectGemini: Gemini CLI .gemini/settings.json or an extension's
	// hooks/hooks.json.
	DialectGemini Dialect = "gemini"
	// DialectCursor: Cursor's .cursor/hooks.json
	// ({"version": 1, "hooks": {"preToolUse": [{"command": …}]}}).
	DialectCursor Dialect = "cursor"
	// DialectCopilot: GitHub Copilot CLI hooks files (.github/hooks/*.json).
	DialectCopilot Dialect = "copilot"
	// DialectVSCode: VS Code agent hooks (chosen by the option only).
	DialectVSCode Dialect = "vscode"
	// DialectCline: a Cline hooks folder (.clinerules/hooks, .cline/hooks,
	// ~/Documents/Cline/Hooks): one executable file per event, given as
	// HooksFile.
	DialectCline Dialect = "cline"
	// DialectWindsurf: Windsurf / Devin Desktop Cascade hooks
	// (.devin/hooks.json, .windsurf/hooks.json: {"hooks": {"pre_run_command": [{"command": …}]}}).
	DialectWindsurf Dialect = "windsurf"
	// DialectQwen: Qwen Code .qwen/settings.json (Claude Code's event
	// names, Gemini CLI's settings layers).
	DialectQwen Dialect = "qwen"
	// DialectKiro: Kiro v1 hook files (.kiro/hooks/*.json:
	// {"version": "v1", "hooks": [{"name", "trigger", "action", …}]}).
	DialectKiro Dialect = "kiro"
	// DialectDevinCLI: Devin CLI .devin/hooks.v1.json (no "hooks" wrapper)
	// and .devin/config.json (Claude Code's format).
	DialectDevinCLI Dialect = "devin-cli"
	// DialectFactory: Factory Droid .factory/hooks.json (no wrapper) and
	// .factory/settings.json (Claude Code's format, Droid's tool names).
	DialectFactory Dialect = "factory"
	// DialectCrush: Crush crush.json / .crush.json ({"hooks": {"PreToolUse":
	// [{"matcher", "command", "timeout"}]}}: flat entries, its own reply envelope).
	DialectCrush Dialect = "crush"
	// DialectOpenHands: OpenHands .openhands/hooks.json (snake_case events,
	// a top-level "decision": "allow" | "deny").
	DialectOpenHands Dialect = "openhands"
	// DialectGoose: goose's plugin hooks (Open Plugins), a plugin's
	// hooks/hooks.json under .agents/plugins/<plugin>/.
	DialectGoose Dialect = "goose"
	// DialectAugment: Augment's Auggie CLI .augment/settings.json (and
	// settings.local.json, ~/.augment/settings.json, the policy file
	// /etc/augment/settings.json): millisecond timeouts, script paths.
	DialectAugment Dialect = "augment"
)
