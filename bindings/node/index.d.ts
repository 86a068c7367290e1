// Type declarations for the hookline Node binding (the C API is documented in docs/c-api.md).

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

// ---------------------------------------------------------------- status

/** `hl_status` numbers by constant name. */
export declare const Status: Readonly<{
  HL_OK: 0;
  HL_ERR_NULL_ARGUMENT: 1;
  HL_ERR_INVALID_UTF8: 2;
  HL_ERR_INVALID_JSON: 3;
  HL_ERR_INVALID_ARGUMENT: 4;
  HL_ERR_INVALID_CONFIG: 5;
  HL_ERR_NOT_FOUND: 6;
  HL_ERR_CANCELLED: 7;
  HL_ERR_WRONG_THREAD: 8;
  HL_ERR_CLOSED: 9;
  HL_ERR_IO: 10;
  HL_ERR_PANIC: 11;
  HL_ERR_FORKED: 12;
}>;
export type StatusCode = keyof typeof Status;

/** An error reported by libhookline. */
export declare class HooklineError extends Error {
  readonly name: 'HooklineError';
  /** The `hl_status` number. */
  readonly status: number;
  /** The status constant name, e.g. `"HL_ERR_INVALID_CONFIG"`. */
  readonly code: StatusCode | string;
  constructor(status: number, message?: string | null);
}

/** The rejection of a run cancelled through its AbortSignal; `cause` is the signal's reason. */
export declare class AbortError extends Error {
  readonly name: 'AbortError';
  readonly code: 'ABORT_ERR';
  constructor(message?: string, options?: { cause?: unknown });
}

// ---------------------------------------------------------------- replies

/** A reply built with allow(), deny() or replyJson() (hl_reply_allow / _deny / _set_json). */
export declare class Reply {
  private constructor();
  readonly type: 'allow' | 'deny' | 'json';
  readonly value: Json | string | undefined;
}
/** Reply "allow" (engine PreToolUse: `permissionDecision: "allow"`; registry decide: allow). */
export declare function allow(): Reply;
/** Reply "deny" (engine: exit 2 with `message` on stderr; registry decide: `allow:false`). */
export declare function deny(message?: string): Reply;
/** Reply with a JSON value, including `null`/`true`/`false` taken literally. */
export declare function replyJson(value: Json): Reply;

/** Told about exceptions thrown by callbacks (they still count as callback failures). */
export type CallbackErrorHandler = (
  error: unknown,
  info: { name: string; kind: 'decide' | 'transform' | 'observer' | 'hook' },
) => void;

// ---------------------------------------------------------------- registry

/** Hook point labels → `hl_hook_point` numbers. */
export declare const HookPoint: Readonly<{
  pre_turn: 0;
  post_turn: 1;
  pre_tool_call_decide: 2;
  post_tool_call: 3;
  on_compaction: 4;
  on_session_start: 5;
  on_session_end: 6;
  on_tool_error: 7;
  on_interaction: 8;
  transform_tool_input: 9;
  stop: 10;
}>;
export type HookPointLabel = keyof typeof HookPoint;

/**
 * The hook contract a registry follows (`hl_registry_contract`): agy-bridge's `Hooks`
 * (the default) or the Antigravity Python SDK's `HookRunner` (a failure stops the run;
 * `on_tool_error` and `on_interaction` answer with the first non-null reply, in `answer`;
 * an allowed tool call keeps the last allowing message; a `pre_turn` prompt may be any JSON).
 */
export type RegistryContract = 'agy_bridge' | 'antigravity_sdk';

/** `session` of the session contexts. */
export interface SessionInfo {
  session_id: string;
  agent_id: number;
  started_at?: Json;
  [extra: string]: unknown;
}

/** Context of `pre_turn`. */
export interface PreTurnContext { prompt: string; turn_number: number; [extra: string]: unknown }
/** Context of `post_turn`. */
export interface PostTurnContext { response_text: string; turn_number: number; [extra: string]: unknown }
/** Context of `pre_tool_call_decide` and `transform_tool_input` (callbacks see `tool_name`/`tool_args`; `name`/`args` are accepted aliases in `run`). */
export interface ToolCallContext {
  tool_name: string;
  tool_args: Json;
  [extra: string]: unknown;
}
/** Context of `post_tool_call`. */
export interface PostToolCallContext extends ToolCallContext { result: string; metadata?: Json }
/** Context of `on_tool_error`. */
export interface ToolErrorContext extends ToolCallContext { error: string; metadata?: Json }
/** Context of `on_session_start` / `on_session_end`. */
export interface SessionContext { session: SessionInfo; [extra: string]: unknown }
/** Context of `on_compaction` (no fields required). */
export interface CompactionContext { [extra: string]: unknown }
/** Context of `on_interaction`. */
export interface InteractionContext { message: string; [extra: string]: unknown }
/** Context of `stop` (the Antigravity SDK's `StopArgs`; every field optional in `run`). */
export interface StopContext {
  response_text: string;
  trajectory_id: string;
  continuation_count: number;
  stop_reason: Json;
  error_message: string;
  [extra: string]: unknown;
}

/** Contexts by point, as callbacks receive them. */
export interface PointContexts {
  pre_turn: PreTurnContext;
  post_turn: PostTurnContext;
  pre_tool_call_decide: ToolCallContext;
  post_tool_call: PostToolCallContext;
  on_compaction: CompactionContext;
  on_session_start: SessionContext;
  on_session_end: SessionContext;
  on_tool_error: ToolErrorContext;
  on_interaction: InteractionContext;
  transform_tool_input: ToolCallContext;
  stop: StopContext;
}

/** What a context given to `Registry.run` may look like (aliases allowed at tool points). */
export type RunContext<P extends HookPointLabel> = P extends
  | 'pre_tool_call_decide'
  | 'transform_tool_input'
  | 'post_tool_call'
  | 'on_tool_error'
  ? Omit<PointContexts[P], 'tool_name' | 'tool_args'> & { tool_name?: string; name?: string; tool_args?: Json; args?: Json }
  : P extends 'stop'
    ? Partial<StopContext>
    : PointContexts[P];

/** A decide callback's result (`pre_tool_call_decide`, `pre_turn`, `on_interaction`). */
export interface HookResult {
  allow: boolean;
  message?: string;
  /** pre_tool_call_decide only: shallow-merged into `tool_args`. */
  modified_args?: JsonObject;
}
/** What a decide callback may return (undefined/null: no opinion). */
export type DecideReturn = HookResult | boolean | Reply | null | undefined | void;
/** What a transform returns: the new `tool_args` (undefined: no opinion). */
export type TransformReturn = Json | Reply | undefined | void;

export type DecideCallback<C> = (context: C) => DecideReturn;
/** What a stop callback returns: `continue` keeps the agent going with `reason` (the first such answer wins); nothing lets it stop. */
export type StopReturn = { decision: 'continue' | 'allow_stop'; reason?: string } | null | undefined | void;
export type StopCallback = (context: StopContext) => StopReturn;
export type TransformCallback = (context: ToolCallContext) => TransformReturn;
export type ObserverCallback<C> = (context: C) => unknown;

/** The result of `Registry.run` (every point). */
export interface RegistryResult {
  allow: boolean;
  message: string;
  /** Final args for transform_tool_input, and for pre_tool_call_decide when modified_args applied; else null. */
  tool_args: Json;
  errors: { name: string; message: string }[];
  /**
   * At the points that answer (absent elsewhere; null when none did): `stop`'s
   * `{decision: "continue", reason}`, and under the `antigravity_sdk` contract the
   * recovery of `on_tool_error` and the answer of `on_interaction`.
   */
  answer?: Json;
}

/** An entry of `Registry.entries()`. */
export interface RegistryEntry {
  name: string;
  point: HookPointLabel;
  callback_id: string;
}

export interface RegistryOptions {
  onCallbackError?: CallbackErrorHandler;
  /** The hook contract (default `'agy_bridge'`). */
  contract?: RegistryContract;
}

/**
 * Named in-process callbacks per hook point. Callbacks
 * are synchronous; a thrown exception (or returned Promise) is a callback
 * failure (at pre_tool_call_decide: deny with `hook '<name>' failed`).
 */
export declare class Registry {
  constructor(options?: RegistryOptions);
  /** Register (or replace in place) `name` at `point`. */
  on<P extends HookPointLabel>(point: P | number, name: string, fn: (context: PointContexts[P]) => unknown): this;
  onPreTurn(name: string, fn: DecideCallback<PreTurnContext>): this;
  onPostTurn(name: string, fn: ObserverCallback<PostTurnContext>): this;
  onPreToolCallDecide(name: string, fn: DecideCallback<ToolCallContext>): this;
  onPostToolCall(name: string, fn: ObserverCallback<PostToolCallContext>): this;
  onCompaction(name: string, fn: ObserverCallback<CompactionContext>): this;
  onSessionStart(name: string, fn: ObserverCallback<SessionContext>): this;
  onSessionEnd(name: string, fn: ObserverCallback<SessionContext>): this;
  onToolError(name: string, fn: ObserverCallback<ToolErrorContext>): this;
  onInteraction(name: string, fn: DecideCallback<InteractionContext>): this;
  onTransformToolInput(name: string, fn: TransformCallback): this;
  /** `stop`: the first callback answering `{decision: 'continue', reason}` keeps the agent going. */
  onStop(name: string, fn: StopCallback): this;
  /** Remove `name` at `point`; false when it was not registered. */
  unregister(point: HookPointLabel | number, name: string): boolean;
  /** Run the point's callbacks in registration order. */
  run<P extends HookPointLabel>(point: P, context: RunContext<P>): RegistryResult;
  run(point: number, context: JsonObject): RegistryResult;
  /** All registrations, in registration order. */
  entries(): RegistryEntry[];
  readonly closed: boolean;
  /** Free the registry and release its callbacks (idempotent). */
  close(): void;
  [Symbol.dispose](): void;
}

// ---------------------------------------------------------------- engine

/** Event names → `hl_event` numbers. */
export declare const HookEvent: Readonly<{
  SessionStart: 0;
  SessionEnd: 1;
  SubagentStart: 2;
  SubagentStop: 3;
  UserPromptSubmit: 4;
  PreToolUse: 5;
  PostToolUse: 6;
  PermissionRequest: 7;
  PreCompact: 8;
  Stop: 9;
  Notification: 10;
  PostToolUseFailure: 11;
}>;
export type HookEventName = keyof typeof HookEvent;
export type HookEventKey =
  | 'session_start' | 'session_end' | 'subagent_start' | 'subagent_stop' | 'user_prompt_submit'
  | 'pre_tool_use' | 'post_tool_use' | 'permission_request' | 'pre_compact' | 'stop'
  | 'notification' | 'post_tool_use_failure';
/** An event as a name, a config key or an `hl_event` number. */
export type EventId = HookEventName | HookEventKey | number;

/**
 * Engine options (the library's options in camelCase). No index signature: a
 * misspelled option (`workspacegated`, `workspaceGate`) is a compile-time
 * error, and at run time the library rejects unknown options too.
 */
export interface EngineOptions {
  /** An existing directory; hooks run there. */
  workspace: string;
  sessionId: string;
  /** SessionStart source. Default `startup`. With a Claude Code config (or none) any source is accepted, e.g. `fork`. */
  trigger?: 'startup' | 'resume' | 'new_session' | 'compact' | 'clear' | (string & {});
  /** Gate commands behind approve(). Default false. */
  workspaceGated?: boolean;
  /** Hooks config as an object (VT Code `{lifecycle: …}`, Claude Code `{PreToolUse: […]}`, a Gemini CLI settings.json with `dialect: 'gemini'`, …), passed verbatim. */
  hooks?: JsonObject;
  /** Hooks config as vtcode.toml text. */
  hooksToml?: string;
  /** Path of a `.toml` or `.json` hooks config. */
  hooksFile?: string;
  transcriptPath?: string | null;
  /** Trust store file (default `$HOOKLINE_TRUST_STORE`, then `$XDG_CONFIG_HOME/hookline/trust.json`, `~/.config/hookline/trust.json`). */
  trustStore?: string | null;
  /** Extra environment for hooks. */
  env?: Record<string, string>;
  /** Inherited variables to remove from the hooks' environment. */
  envRemove?: string[];
  /** Per-stream output cap (default 1048576). */
  maxOutputBytes?: number;
  /** After this many consecutive stops Stop hooks kept from ending, the next is allowed with a warning (Claude Code profile). Default 8; 0: no cap. */
  stopHookBlockCap?: number;
  /** The environment policy of every hook (default: inherit everything). */
  hookEnv?: EnvPolicy | null;
  /** An environment policy applied over `hookEnv` to hooks of untrusted sources only. */
  untrustedHookEnv?: EnvPolicy | null;
  /**
   * The dialect of hooks/hooksToml/hooksFile. Default: a file is recognised by its path
   * (`.codex/hooks.json` and `.codex/config.toml` are Codex's, `.gemini/settings.json` Gemini CLI's,
   * `.cursor/hooks.json` Cursor's, `.github/hooks/*.json` Copilot CLI's, `.devin/hooks.json` and
   * `.windsurf/hooks.json` Windsurf's, `.kiro/hooks/*.json` Kiro's, `*.toml` VT Code's), anything else
   * by its shape; VS Code's (`vscode`) is chosen by this option only. A folder (`.clinerules/hooks`,
   * `.cline/hooks`, `~/Documents/Cline/Hooks`) is Cline's (`cline`).
   */
  dialect?: Dialect;
  /** Several configs in one engine, in order (user, project, local, plugins), instead of hooks/hooksToml/hooksFile. */
  hookSources?: HookSource[];
  /** URL patterns (`*` is any text) http hooks must match; others are skipped (`url_not_allowed`); `[]` allows none. Default: any URL. */
  allowedHttpHookUrls?: string[] | null;
  /** The only variables any http hook's `headers` may interpolate (on top of its own `allowedEnvVars`). Default: no engine limit. */
  httpHookAllowedEnvVars?: string[] | null;
  /**
   * How the host names tools: `'canonical'` (the default) passes Claude Code's names and inputs (`Bash`,
   * `Write`, `mcp__<server>__<tool>`), mapped to each hook's agent (Gemini CLI's `run_shell_command`,
   * Cursor's `Shell`, ...), and rewrites come back canonical; `'native'` passes them to every hook unchanged.
   */
  toolNames?: ToolNames;
  /** Not sent to the library: told about exceptions thrown by callback hooks. */
  onCallbackError?: CallbackErrorHandler;
}

/** One entry of `hookSources`: exactly one of `hooks`, `hooksToml`, `hooksFile`. */
export interface HookSource {
  hooks?: JsonObject;
  hooksToml?: string;
  hooksFile?: string;
  /** Trusted sources (the user's own settings) run without approval and are not in the digest. Default false. */
  trusted?: boolean;
  /** Becomes `CLAUDE_PLUGIN_ROOT` for this source's hooks (and `PLUGIN_ROOT` for Codex hooks). */
  pluginRoot?: string | null;
  /** This source's dialect (default: recognised by the file's path, else by the config's shape). */
  dialect?: Dialect;
  /**
   * A policy source, an administrator's file (Copilot CLI's `policy.d`, Claude Code's managed settings,
   * Cursor's enterprise `hooks.json`): trusted, its hooks run first, no other source's `disableAllHooks`
   * or switch turns them off, and a failing one takes its event's blocking decision. Default false.
   */
  policy?: boolean;
}

/** A hooks format: the agent a config was written for; its hooks get that agent's payload and decisions. */
export type Dialect = 'vtcode' | 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot' | 'vscode' | 'cline' | 'windsurf' | 'qwen' | 'kiro' | 'devin-cli' | 'factory' | 'crush' | 'openhands' | 'goose' | 'augment';

/** The `toolNames` option: canonical tool names mapped to each hook's agent, or native ones passed through. */
export type ToolNames = 'canonical' | 'native';

/** Per-call options of the async event methods. */
export interface RunOptions {
  /** Aborting cancels the run (its hook processes are killed) and rejects with AbortError. */
  signal?: AbortSignal;
}

/**
 * Every event input may carry `extra`: fields added to the hooks' payload
 * verbatim (keys unchanged, e.g. `{ permission_mode: 'plan' }`); a typed
 * field of the same wire name wins. The typed fields have no index
 * signature, so a misspelled field is a compile-time error.
 */
interface ExtraInput {
  /** Pass-through payload fields, sent as given (wire snake_case keys). */
  extra?: JsonObject;
}

export interface SessionStartInput extends ExtraInput {}
export interface SessionEndInput extends ExtraInput {
  turnId: string;
  reason: 'completed' | 'exit' | 'cancelled' | 'error' | 'new_session';
}
export interface SubagentInput extends ExtraInput {
  parentSessionId: string;
  childThreadId: string;
  agentName: string;
  /** Claude Code's agent type: what SubagentStart/SubagentStop matchers test with a Claude Code config. */
  agentType?: string;
  agentId?: string;
  displayLabel: string;
  background: boolean;
  status: string;
  transcriptPath?: string | null;
}
export interface UserPromptSubmitInput extends ExtraInput { turnId: string; prompt: string }
export interface PreToolUseInput extends ExtraInput {
  toolName: string;
  toolInput?: JsonObject | null;
  toolCallId?: string;
}
export interface PostToolUseInput extends ExtraInput {
  toolName: string;
  toolInput?: JsonObject | null;
  toolResponse: Json;
  toolCallId?: string;
}
export interface PostToolUseFailureInput extends ExtraInput {
  toolName: string;
  toolInput?: JsonObject | null;
  toolCallId?: string;
  error: string;
}
export interface PermissionRequestInput extends ExtraInput {
  toolName: string;
  toolInput?: JsonObject | null;
  permissionRequest: JsonObject;
  permissionSuggestions?: Json[];
}
export interface PreCompactInput extends ExtraInput {
  trigger: 'manual' | 'auto' | 'recovery' | 'model_switch' | 'unknown';
  mode: 'provider' | 'local' | 'unknown';
  originalMessageCount: number;
  compactedMessageCount: number;
  historyArtifactPath?: string | null;
}
export interface StopInput extends ExtraInput { lastAssistantMessage: string; stopHookActive: boolean }
export interface NotificationInput extends ExtraInput {
  notificationType: 'permission_prompt' | 'idle_prompt' | (string & {});
  title: string;
  message: string;
}

/** One hook that ran (or was skipped by the gate). */
export interface HookReport {
  kind: 'command' | 'callback' | 'http' | 'mcp_tool' | 'prompt' | 'agent';
  command: string | null;
  name: string | null;
  /** An http hook's URL, and the HTTP status of its response. */
  url?: string;
  status?: number;
  /** An mcp_tool hook's server and tool. */
  server?: string;
  tool?: string;
  /** A prompt or agent hook's prompt and model. */
  prompt?: string;
  model?: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  skipped: null | 'not_approved' | 'changed_since_approval' | 'unsupported_on_event' | 'url_not_allowed';
  /** How the hook failed; null when it answered (`no_output`: a Cursor `failClosed` hook printed nothing). */
  failure:
    | null
    | 'timeout'
    | 'signal'
    | 'spawn'
    | 'invalid_output'
    | 'exit'
    | 'http'
    | 'no_handler'
    | 'handler'
    | 'tool_error'
    | 'no_output';
  /** Present when the hook was killed by a signal. */
  signal?: number;
  /** The hook's configured `statusMessage` (Claude Code dialect), when set. */
  statusMessage?: string;
  /** `true` for a hook of a policy source (`HookSource.policy`); absent otherwise. */
  policy?: boolean;
}

export interface HookMessage { level: 'info' | 'warning' | 'error' | 'system_reminder'; text: string }

/** What a prompt or agent hook asks the host's model. */
export interface ModelRequest {
  type: 'prompt' | 'agent';
  event: string;
  /** The hook's prompt, `$ARGUMENTS` replaced by the hook input JSON. */
  prompt: string;
  model: string | null;
  timeout_ms: number;
  /** The hook input (what a command hook reads on stdin). */
  input: Record<string, unknown>;
}
/** The model's verdict (`reason` is required when `ok` is false). */
export interface ModelReply { ok: boolean; reason?: string; impossible?: boolean }
/** What an mcp_tool hook asks the host's MCP client. */
export interface McpRequest {
  type: 'mcp_tool';
  event: string;
  server: string;
  tool: string;
  /** The tool's arguments, `${path}` strings filled from the hook input. */
  input: unknown;
  timeout_ms: number;
}
/** The tool's text, or `{ text, isError }`. */
export type McpReply = string | { text: string; isError?: boolean };
/** Handlers get `signal`, aborted at the hook's timeout. */
export interface HandlerContext { signal: AbortSignal }
export type ModelHandler = (req: ModelRequest, ctx: HandlerContext) => ModelReply | Promise<ModelReply>;
export type McpHandler = (req: McpRequest, ctx: HandlerContext) => McpReply | Promise<McpReply>;

/** Cursor hooks' answers without a canonical slot, under Cursor's names (the first hook that gave each wins). */
export interface CursorFields {
  /** `'ask'` from a preToolUse hook: Cursor accepts it and does not enforce it (the decision stays `continue`). */
  permission?: 'ask';
  /** preToolUse, beforeShellExecution, beforeMCPExecution: the message a hook wrote for the agent. */
  agent_message?: string;
  /** postToolUse: replaces an MCP tool's output as the model sees it. */
  updated_mcp_tool_output?: Json;
  /** workspaceOpen: plugin directories to load. */
  pluginPaths?: string[];
}

/** A Copilot CLI tool result (postToolUse `modifiedResult`). */
export interface CopilotToolResult {
  resultType: 'success' | 'failure' | (string & {});
  textResultForLlm: string;
}

/** Copilot CLI hooks' answers without a canonical slot (the last hook that gave each wins). */
export interface CopilotFields {
  /** postToolUse: replaces the tool's result. */
  modifiedResult?: CopilotToolResult;
  /** subagentStop: replaces the subagent's response when it may finish. */
  modifiedResponse?: string;
  /** subagentStart, notification: prepended to the subagent's prompt, or injected into the session. */
  additionalContext?: string;
  /** userPromptTransformed: replaces the model-facing prompt. */
  modifiedTransformedPrompt?: string;
  /** preMcpToolCall: the MCP request's `_meta`. */
  metaToUse?: JsonObject;
}

/** VS Code hooks' answers without a canonical slot. */
export interface VSCodeFields {
  /** SubagentStart: added to the subagent's conversation. */
  additionalContext?: string;
}

/** By dialect, what hooks answered that has no canonical slot (vendor field names, unchanged). */
export interface DialectFields {
  cursor?: CursorFields;
  copilot?: CopilotFields;
  vscode?: VSCodeFields;
  gemini?: GeminiDialectFields;
  codex?: Record<string, Json>;
  vtcode?: Record<string, Json>;
  claude?: Record<string, Json>;
  qwen?: Record<string, Json>;
  'devin-cli'?: Record<string, Json>;
  factory?: Record<string, Json>;
  crush?: Record<string, Json>;
  openhands?: Record<string, Json>;
  /** goose: `banners` (the SessionStart hooks' `{"banner": …}` texts), `dropped` (what goose cannot express of a callback's reply). */
  goose?: Record<string, Json>;
  augment?: Record<string, Json>;
  windsurf?: WindsurfFields;
}

/** What a Windsurf (Cascade) run could not express, since Cascade reads only exit codes. */
export interface WindsurfFields {
  /** What hooks answered that Cascade has no way to say (`allow`, `ask`, `updated_input`, `additional_context`, ...): dropped. */
  dropped?: string[];
}

/** Fields of every outcome. */
export interface Outcome {
  messages: HookMessage[];
  continue: boolean;
  stopReason: string | null;
  hooks: HookReport[];
  /**
   * What hooks wrote that has no canonical field, by dialect and the agent's own field name
   * (e.g. Copilot CLI's `dialectFields.copilot.modifiedResult`, `dialectFields.codex.additionalContext`
   * on SubagentStart, `dialectFields.gemini.llm_request` on BeforeModel, Cursor's `agent_message`); absent
   * when none did.
   */
  dialectFields?: DialectFields;
}

/** Gemini CLI's fields without a canonical slot (Gemini CLI's own names). */
export interface GeminiDialectFields {
  /**
   * BeforeModel, AfterModel: the last hook's decision as it wrote it (`block`/`deny` block the model call
   * or chunk); the outcome's own `decision` is the canonical one (`deny` or `continue`).
   */
  gemini_decision?: string | null;
  reason?: string | null;
  /** BeforeModel: the request override. */
  llm_request?: Json;
  /** BeforeModel: a synthetic response; AfterModel: the replacement chunk. */
  llm_response?: Json;
  /** BeforeToolSelection: the merged tool restriction. */
  toolConfig?: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames: string[] };
  /** AfterTool: a tool to run next, whose result replaces this one's. */
  tailToolCallRequest?: { name: string; args?: JsonObject };
  /** AfterAgent: reset the chat history. */
  clearContext?: boolean;
}

export interface SessionStartOutcome extends Outcome {
  additionalContext: string[];
  /** What the hooks wrote to `CLAUDE_ENV_FILE` (Claude Code profile only). */
  env?: Record<string, string>;
}
export interface UserPromptSubmitOutcome extends Outcome {
  allowPrompt: boolean;
  blockReason: string | null;
  additionalContext: string[];
}
export interface PreToolUseOutcome extends Outcome {
  decision: 'continue' | 'allow' | 'deny' | 'ask' | 'defer';
  reason: string | null;
  /** The tool input as rewritten by hooks (`updatedInput`), else null. */
  updatedInput: Json;
  additionalContext: string[];
}
/**
 * The outcome of an event the hooks' dialect makes a gate, in PreToolUse's shape: Cursor's
 * subagentStart, and beforeShellExecution, beforeMCPExecution, beforeReadFile and
 * beforeTabFileRead fired with runNamed.
 */
export type GateOutcome = PreToolUseOutcome;
export interface PostToolUseOutcome extends Outcome {
  blockReason: string | null;
  /** `blockReason` replaces the tool's result for the model (Gemini CLI's AfterTool); absent otherwise. */
  blockReplacesResult?: boolean;
  additionalContext: string[];
}
export interface PermissionDecision {
  behavior: 'allow' | 'deny';
  scope: 'once' | 'session' | 'permanent';
  updatedInput: Json;
  permissionUpdates: Json[];
  interrupt: boolean;
  message: string | null;
}
export interface PermissionRequestOutcome extends Outcome { decision: PermissionDecision | null }
export interface StopOutcome extends Outcome {
  /** With a Claude Code config: every blocking hook's reason, in configuration order, one per line. */
  blockReason: string | null;
  /** Claude Code's Stop and SubagentStop: feedback that keeps the conversation going. */
  additionalContext?: string[];
}
/** SubagentStart: the subagent's context (Claude Code config). */
export interface SubagentStartOutcome extends Outcome { additionalContext?: string[] }

/** An entry of the hooks configuration that was skipped (`configWarnings()`). */
export interface ConfigWarning {
  /** The entry (`hooks.PreToolUse[0].hooks[1]`), prefixed with its file or `hook_sources[i]`. */
  path: string;
  message: string;
}

/**
 * An environment policy for hook processes (docs/trust.md): what is inherited of the host's
 * environment (`true`: all, `false`: nothing, or names and globs), what is scrubbed (globs, or
 * the `'secrets'` preset), and what is set after scrubbing.
 */
export interface EnvPolicy {
  inherit?: boolean | string[];
  scrub?: string[] | 'secrets';
  set?: Record<string, string>;
}

/** A file an approval binds: its canonical path and the SHA-256 of its content (hex). */
export interface Pin {
  path: string;
  sha256: string;
}

/** A digested command (`previews()`). */
export interface CommandPreview {
  /** The hook's handler type. */
  type: 'command' | string;
  /** The hook's dialect, for dialects other than VT Code and Claude Code (their previews carry none). */
  dialect?: Dialect;
  event: HookEventKey | string;
  matcher: string | null;
  command: string;
  timeoutSeconds: number | null;
  /** The timeout of dialects that write milliseconds (Gemini CLI; `timeoutSeconds` is then null). */
  timeoutMs?: number;
  /** The program and arguments started instead of `/bin/sh -c command` (Copilot CLI `bash`/`exec` entries). */
  argv?: string[];
  /** The working directory the config gives, as written. */
  cwd?: string;
  /** Variables the config adds (its `env`), as written. */
  configEnv?: Record<string, string>;
  /** The files the command executes, as they are now (empty on an ungated engine). */
  pins: Pin[];
  /** The environment policy it runs under (`set` lists names, not values, including those of the hook's own `env`, Gemini CLI's). */
  env: { inherit: boolean | string[]; scrub: string[]; set: string[] };
}

/** The JSON a hook receives on stdin (snake_case wire payload). */
export interface HookPayload {
  session_id: string;
  cwd: string;
  hook_event_name: HookEventName;
  transcript_path: string | null;
  /** Tool events: the tool's name. */
  tool_name?: string;
  /** Tool events: the tool's input (null when the host gave none). */
  tool_input?: JsonObject | null;
  /** The event's other fields (they differ per event). */
  [field: string]: Json | undefined;
}

/**
 * A callback hook: receives the payload a command reads on stdin, returns what
 * a command prints (a JSON object such as `{hookSpecificOutput: {…}}`),
 * `allow()`, `deny(message)`, `true`, or nothing. Must be synchronous; a
 * thrown exception is exit code 1.
 */
export type CallbackHook = (payload: HookPayload) => JsonObject | Reply | boolean | null | undefined | void;

/** A lifecycle-hook engine (VT Code `LifecycleHookEngine`). */
export declare class Engine {
  constructor(options: EngineOptions);

  /** Run any event asynchronously (hl_engine_run_async; answered in place when no hook matches). */
  run(event: EventId, input?: object, options?: RunOptions): Promise<Outcome & Record<string, unknown>>;
  /** Run any event on the JS thread (hl_engine_run); blocks until done. */
  runSync(event: EventId, input?: object): Outcome & Record<string, unknown>;
  /**
   * Fire an event by its config key (hl_engine_run_named_async). Known events keep
   * their rules; other keys run with observer rules, or with their dialect's rules
   * (`runNamed<GateOutcome>('beforeReadFile', …)` for Cursor's gates). `input.matcherValue`
   * is what matchers are tested against.
   */
  runNamed<T extends Outcome = Outcome & Record<string, unknown>>(name: string, input?: object, options?: RunOptions): Promise<T>;
  /** `runNamed` on the JS thread (hl_engine_run_named). */
  runNamedSync<T extends Outcome = Outcome & Record<string, unknown>>(name: string, input?: object): T;

  sessionStart(input?: SessionStartInput, options?: RunOptions): Promise<SessionStartOutcome>;
  sessionEnd(input: SessionEndInput, options?: RunOptions): Promise<Outcome>;
  /** With a Cursor config subagentStart is a gate: the outcome is a GateOutcome (`decision`, `reason`). */
  subagentStart(input: SubagentInput, options?: RunOptions): Promise<SubagentStartOutcome | GateOutcome>;
  /** `blockReason` is set only with a Claude Code config (a hook asks the subagent to go on). */
  subagentStop(input: SubagentInput, options?: RunOptions): Promise<Outcome & { blockReason?: string | null }>;
  userPromptSubmit(input: UserPromptSubmitInput, options?: RunOptions): Promise<UserPromptSubmitOutcome>;
  preToolUse(input: PreToolUseInput, options?: RunOptions): Promise<PreToolUseOutcome>;
  postToolUse(input: PostToolUseInput, options?: RunOptions): Promise<PostToolUseOutcome>;
  postToolUseFailure(input: PostToolUseFailureInput, options?: RunOptions): Promise<PostToolUseOutcome>;
  permissionRequest(input: PermissionRequestInput, options?: RunOptions): Promise<PermissionRequestOutcome>;
  /** `blockReason` is set only with a Claude Code config (a hook blocks the compaction). */
  preCompact(input: PreCompactInput, options?: RunOptions): Promise<Outcome & { blockReason?: string | null }>;
  stop(input: StopInput, options?: RunOptions): Promise<StopOutcome>;
  notification(input: NotificationInput, options?: RunOptions): Promise<Outcome>;

  sessionStartSync(input?: SessionStartInput): SessionStartOutcome;
  sessionEndSync(input: SessionEndInput): Outcome;
  subagentStartSync(input: SubagentInput): SubagentStartOutcome;
  subagentStopSync(input: SubagentInput): Outcome & { blockReason?: string | null };
  userPromptSubmitSync(input: UserPromptSubmitInput): UserPromptSubmitOutcome;
  preToolUseSync(input: PreToolUseInput): PreToolUseOutcome;
  postToolUseSync(input: PostToolUseInput): PostToolUseOutcome;
  postToolUseFailureSync(input: PostToolUseFailureInput): PostToolUseOutcome;
  permissionRequestSync(input: PermissionRequestInput): PermissionRequestOutcome;
  preCompactSync(input: PreCompactInput): Outcome & { blockReason?: string | null };
  stopSync(input: StopInput): StopOutcome;
  notificationSync(input: NotificationInput): Outcome;

  /** Add (or replace in place) an in-process hook; `matcher` follows the Claude rule (null/""/"*": all). */
  addCallbackHook(event: EventId, matcher: string | null, name: string, fn: CallbackHook): this;
  /** Answer prompt and agent hooks (null removes the handler); use the async run methods with async handlers. */
  setModelHandler(fn: ModelHandler | null): this;
  /** Answer mcp_tool hooks (null removes the handler). */
  setMcpHandler(fn: McpHandler | null): this;
  /** Lowercase hex SHA-256 of the configured command set. */
  digest(): string;
  previews(): CommandPreview[];
  /** The entries of the configuration that were skipped, as the agent skips them (malformed entries, unknown types). */
  configWarnings(): ConfigWarning[];
  /** Approve the current command set; `persist` records it in the trust store. */
  approve(options?: { persist?: boolean }): void;
  readonly needsApproval: boolean;
  readonly workspaceGated: boolean;
  /** Swap the configuration (full options); a failure changes nothing. */
  reload(options: EngineOptions): void;
  setTranscriptPath(path: string | null): void;
  readonly transcriptPath: string | null;
  /**
   * Send the spans of this engine's runs to `fn` (one per run that runs a hook, one per hook),
   * on the JS thread; `null` removes the handler. With a handler set, use close(), not closeSync().
   */
  setTraceHandler(fn: ((span: Span) => void) | null): this;
  /** Make every run join the trace `fn()` returns when the run is started (`null` removes it). */
  setTraceContext(fn: (() => TraceContext | null | undefined) | null): this;
  readonly closed: boolean;
  /** Free the engine off the JS thread; in-flight runs reject with HL_ERR_CLOSED ("<Event> run interrupted: engine closed"), never reported as unhandled. Idempotent. */
  close(): Promise<void>;
  /** Free the engine on the JS thread; throws when async runs are in flight or a trace handler was set. */
  closeSync(): void;
  [Symbol.asyncDispose](): Promise<void>;
}

// ---------------------------------------------------------------- tracing

/** A span attribute value. */
export type SpanAttributeValue = string | number | boolean;

/** One finished span of a run or of a hook (docs/c-api.md §12). */
export interface Span {
  /** 32 lowercase hex digits: the host's trace (from the input's traceparent) or a new one. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** A hook's run span; a run's: the host's span, or null for a new trace. */
  parentSpanId: string | null;
  /** W3C trace-flags (bit 0: sampled). */
  traceFlags: number;
  level: 'run' | 'hook';
  /** "hooks PreToolUse", "hook command", ... */
  name: string;
  /** Nanoseconds since the Unix epoch. */
  startUnixNano: bigint;
  endUnixNano: bigint;
  status: 'ok' | 'error';
  /** Why it is an error; null when it is not. */
  statusMessage: string | null;
  /** OpenTelemetry-style attributes: "hook.event", "hook.exit_code", ... */
  attributes: Record<string, SpanAttributeValue>;
}

/** A W3C trace context a run joins. */
export interface TraceContext {
  traceparent: string;
  tracestate?: string;
}

// ---------------------------------------------------------------- misc

/** The library version, e.g. "0.1.0". */
export declare function version(): string;
/** `hl_status` constant name; null if unknown. */
export declare function statusName(status: number): string | null;
/** `hl_hook_point` label; null if unknown. */
export declare function pointName(point: number): HookPointLabel | null;
/** `hl_event` name; null if unknown. */
export declare function eventName(event: number): HookEventName | null;
/** The path the native library was loaded from. */
export declare const libraryPath: string;

declare const hookline: {
  Engine: typeof Engine;
  Registry: typeof Registry;
  HookEvent: typeof HookEvent;
  HookPoint: typeof HookPoint;
  Status: typeof Status;
  HooklineError: typeof HooklineError;
  AbortError: typeof AbortError;
  Reply: typeof Reply;
  allow: typeof allow;
  deny: typeof deny;
  replyJson: typeof replyJson;
  version: typeof version;
  statusName: typeof statusName;
  pointName: typeof pointName;
  eventName: typeof eventName;
  libraryPath: string;
};
export default hookline;
