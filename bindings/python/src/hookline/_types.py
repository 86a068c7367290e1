"""Events, hook points, outcomes, registry contexts and replies: the typed face of the wire JSON.

Nothing here decides anything: every rule (matching, precedence, validation, merging) is the
library's. These classes only name the fields of the JSON that crosses the C ABI
(``docs/protocol.md`` for events and outcomes, ``docs/c-api.md`` section 5 for the registry).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
import os
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Tuple, TypedDict, Union, overload

# Any JSON value (what json.loads returns).
JSON = Any


class HookEvent(enum.IntEnum):
    """The twelve lifecycle events (``hl_event``), numbered as in the C header."""

    SESSION_START = 0
    SESSION_END = 1
    SUBAGENT_START = 2
    SUBAGENT_STOP = 3
    USER_PROMPT_SUBMIT = 4
    PRE_TOOL_USE = 5
    POST_TOOL_USE = 6
    PERMISSION_REQUEST = 7
    PRE_COMPACT = 8
    STOP = 9
    NOTIFICATION = 10
    POST_TOOL_USE_FAILURE = 11

    @property
    def event_name(self) -> str:
        """The event's name (``hl_event_name``), e.g. ``"PreToolUse"``: the Claude Code config key."""
        return "".join(part.capitalize() for part in self.name.split("_"))

    @property
    def config_key(self) -> str:
        """The VT Code config key, e.g. ``"pre_tool_use"``."""
        return self.name.lower()


_EVENT_BY_TEXT: Dict[str, HookEvent] = {}
for _e in HookEvent:
    _EVENT_BY_TEXT[_e.event_name] = _e
    _EVENT_BY_TEXT[_e.config_key] = _e


def parse_event(event: Union[HookEvent, int, str]) -> int:
    """An event given as a :class:`HookEvent`, a number, a name (``"PreToolUse"``) or a config key
    (``"pre_tool_use"``). Unknown numbers are passed on for the library to reject."""
    if isinstance(event, str):
        found = _EVENT_BY_TEXT.get(event)
        if found is None:
            from ._errors import InvalidArgumentError, Status

            raise InvalidArgumentError(
                Status.INVALID_ARGUMENT,
                f"unknown event {event!r} (one of {', '.join(e.event_name for e in HookEvent)}; "
                "run_named fires any other event by name)",
            )
        return int(found)
    if isinstance(event, bool) or not isinstance(event, int):
        from ._errors import InvalidArgumentError, Status

        raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"event must be a HookEvent, got {type(event).__name__}")
    return int(event)


class HookPoint(enum.IntEnum):
    """The registry hook points (``hl_hook_point``), numbered as in the C header."""

    PRE_TURN = 0
    POST_TURN = 1
    PRE_TOOL_CALL_DECIDE = 2
    POST_TOOL_CALL = 3
    ON_COMPACTION = 4
    ON_SESSION_START = 5
    ON_SESSION_END = 6
    ON_TOOL_ERROR = 7
    ON_INTERACTION = 8
    TRANSFORM_TOOL_INPUT = 9
    STOP = 10

    @property
    def label(self) -> str:
        """The wire label (``hl_point_name``), e.g. ``"pre_tool_call_decide"``."""
        return self.name.lower()


_POINT_BY_LABEL = {p.label: p for p in HookPoint}


def parse_point(point: Union[HookPoint, int, str]) -> int:
    """A hook point given as a :class:`HookPoint`, a number or a label (``"pre_turn"``)."""
    if isinstance(point, str):
        found = _POINT_BY_LABEL.get(point)
        if found is None:
            from ._errors import InvalidArgumentError, Status

            raise InvalidArgumentError(
                Status.INVALID_ARGUMENT, f"unknown hook point {point!r} (one of {', '.join(_POINT_BY_LABEL)})"
            )
        return int(found)
    if isinstance(point, bool) or not isinstance(point, int):
        from ._errors import InvalidArgumentError, Status

        raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"point must be a HookPoint, got {type(point).__name__}")
    return int(point)


# ---------------------------------------------------------------------------------------- options

#: A hooks format (the ``dialect`` option): the agent a config was written for.
Dialect = Literal[
    "vtcode",
    "claude",
    "codex",
    "gemini",
    "cursor",
    "copilot",
    "vscode",
    "cline",
    "windsurf",
    "qwen",
    "kiro",
    "devin-cli",
    "factory",
    "crush",
    "openhands",
    "goose",
    "augment",
]

#: How the host names tools (the ``tool_names`` option): ``"canonical"`` (the default) passes Claude
#: Code's names and inputs, mapped to each hook's agent; ``"native"`` passes them to every hook unchanged.
ToolNames = Literal["canonical", "native"]


class _RequiredEngineOptions(TypedDict):
    workspace: Union[str, "os.PathLike[str]"]
    session_id: str


class EngineOptions(_RequiredEngineOptions, total=False):
    """The options of :class:`Engine` (``hl_engine_new``'s ``options_json``, ``docs/protocol.md``
    section 7), for type checkers; a plain dict with the same keys works as well."""

    trigger: str
    workspace_gated: bool
    hooks: Dict[str, JSON]
    hooks_toml: str
    hooks_file: Union[str, "os.PathLike[str]"]
    hook_sources: List[Dict[str, JSON]]
    dialect: Optional[Dialect]
    transcript_path: Optional[Union[str, "os.PathLike[str]"]]
    trust_store: Optional[Union[str, "os.PathLike[str]"]]
    env: Dict[str, str]
    env_remove: List[str]
    hook_env: Optional[Dict[str, JSON]]
    untrusted_hook_env: Optional[Dict[str, JSON]]
    max_output_bytes: int
    stop_hook_block_cap: int
    allowed_http_hook_urls: Optional[List[str]]
    http_hook_allowed_env_vars: Optional[List[str]]
    tool_names: ToolNames


# ---------------------------------------------------------------------------------------- replies


class _AllowField:
    """``HookResult.allow`` is both the constructor ``HookResult.allow()`` (on the class, as in the
    seed's SDK) and the decision ``result.allow`` (on an instance)."""

    @overload
    def __get__(self, obj: None, owner: type) -> Callable[..., "HookResult"]: ...

    @overload
    def __get__(self, obj: "HookResult", owner: type) -> bool: ...

    def __get__(self, obj: Optional["HookResult"], owner: type) -> Union[bool, Callable[..., "HookResult"]]:
        if obj is None:
            return _allow_result
        return bool(obj._allow)

    def __set__(self, obj: "HookResult", value: bool) -> None:
        raise AttributeError("HookResult is immutable: make a new one")


class HookResult:
    """A decision: what decide callbacks return (``pre_tool_call_decide``, ``pre_turn``,
    ``on_interaction``) and what engine callback hooks may return.

    ``HookResult.allow()`` and ``HookResult.deny("reason")`` make one; ``result.allow`` and
    ``result.message`` read it. ``modified_args`` (``pre_tool_call_decide`` only, a dict) is
    shallow-merged by the library into the tool args later callbacks see.
    """

    __slots__ = ("_allow", "message", "modified_args")
    allow = _AllowField()
    _allow: bool
    message: str
    modified_args: Optional[Mapping[str, JSON]]

    def __init__(self, allow: bool = True, message: str = "", modified_args: Optional[Mapping[str, JSON]] = None):
        object.__setattr__(self, "_allow", bool(allow))
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "modified_args", modified_args)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("HookResult is immutable: make a new one")

    @classmethod
    def deny(cls, reason: str = "") -> "HookResult":
        """Deny, with a reason."""
        return cls(False, reason)

    def with_modified_args(self, args: Mapping[str, JSON]) -> "HookResult":
        """This result with ``modified_args`` (a dict merged into the tool args)."""
        return HookResult(self._allow, self.message, args)

    def to_json(self) -> Dict[str, JSON]:
        """The reply JSON the library reads: ``{"allow", "message"[, "modified_args"]}``."""
        reply: Dict[str, JSON] = {"allow": self._allow, "message": self.message}
        if self.modified_args is not None:
            reply["modified_args"] = dict(self.modified_args)
        return reply

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HookResult):
            return NotImplemented
        return (self._allow, self.message, self.modified_args) == (other._allow, other.message, other.modified_args)

    def __hash__(self) -> int:
        return hash((self._allow, self.message))

    def __repr__(self) -> str:
        extra = f", modified_args={self.modified_args!r}" if self.modified_args is not None else ""
        return f"HookResult(allow={self._allow}, message={self.message!r}{extra})"


def _allow_result(message: str = "") -> HookResult:
    """Allow (optionally with a message)."""
    return HookResult(True, message)


@dataclass(frozen=True)
class JsonReply:
    """Reply with exactly this JSON value (``hl_reply_set_json``), e.g. ``None`` as a transform's
    new args (returning ``None`` means "keep the args"), or a hook's stdout JSON."""

    value: JSON


def reply_json(value: JSON) -> JsonReply:
    """A reply of exactly ``value`` as JSON (``JsonReply(value)``)."""
    return JsonReply(value)


# ---------------------------------------------------------------------------------------- contexts


def _split(d: Mapping[str, JSON], known: Tuple[str, ...]) -> Dict[str, JSON]:
    return {k: v for k, v in d.items() if k not in known}


@dataclass
class PreTurnContext:
    """``pre_turn``: the user prompt about to be sent."""

    prompt: str
    turn_number: int
    extra: Dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> Dict[str, JSON]:
        return {**self.extra, "prompt": self.prompt, "turn_number": self.turn_number}

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "PreTurnContext":
        return cls(d["prompt"], d["turn_number"], _split(d, ("prompt", "turn_number")))


@dataclass
class PostTurnContext:
    """``post_turn``: the model's response for a turn."""

    response_text: str
    turn_number: int
    extra: Dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> Dict[str, JSON]:
        return {**self.extra, "response_text": self.response_text, "turn_number": self.turn_number}

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "PostTurnContext":
        return cls(d["response_text"], d["turn_number"], _split(d, ("response_text", "turn_number")))


@dataclass
class PreToolCallDecideContext:
    """``pre_tool_call_decide`` and ``transform_tool_input``: a tool call about to run
    (``tool_args`` is any JSON, usually a dict; ``None`` by default)."""

    tool_name: str
    tool_args: JSON = None
    extra: Dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> Dict[str, JSON]:
        return {**self.extra, "tool_name": self.tool_name, "tool_args": self.tool_args}

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "PreToolCallDecideContext":
        return cls(d["tool_name"], d.get("tool_args"), _split(d, ("tool_name", "tool_args")))


@dataclass
class PostToolCallContext:
    """``post_tool_call``: a tool call that returned."""

    tool_name: str
    result: str
    tool_args: JSON = None
    metadata: JSON = None
    extra: Dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> Dict[str, JSON]:
        d = {**self.extra, "tool_name": self.tool_name, "tool_args": self.tool_args, "result": self.result}
        if self.metadata is not None:
            d["metadata"] = self.metadata
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "PostToolCallContext":
        known = ("tool_name", "tool_args", "result", "metadata")
        return cls(d["tool_name"], d["result"], d.get("tool_args"), d.get("metadata"), _split(d, known))


@dataclass
class ToolErrorContext:
    """``on_tool_error``: a tool call that failed."""

    tool_name: str
    error: str
    tool_args: JSON = None
    metadata: JSON = None
    extra: Dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> Dict[str, JSON]:
        d = {**self.extra, "tool_name": self.tool_name, "tool_args": self.tool_args, "error": self.error}
        if self.metadata is not None:
            d["metadata"] = self.metadata
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "ToolErrorContext":
        known = ("tool_name", "tool_args", "error", "metadata")
        return cls(d["tool_name"], d["error"], d.get("tool_args"), d.get("metadata"), _split(d, known))


@dataclass
class SessionInfo:
    """The session of ``on_session_start`` / ``on_session_end``."""

    session_id: str
    agent_id: int
    started_at: JSON = None
    extra: Dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> Dict[str, JSON]:
        d = {**self.extra, "session_id": self.session_id, "agent_id": self.agent_id}
        if self.started_at is not None:
            d["started_at"] = self.started_at
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "SessionInfo":
        known = ("session_id", "agent_id", "started_at")
        return cls(d["session_id"], d["agent_id"], d.get("started_at"), _split(d, known))


@dataclass
class SessionContext:
    """``on_session_start`` / ``on_session_end``."""

    session: SessionInfo
    extra: Dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> Dict[str, JSON]:
        return {**self.extra, "session": self.session.to_json()}

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "SessionContext":
        return cls(SessionInfo.from_json(d["session"]), _split(d, ("session",)))


@dataclass
class CompactionContext:
    """``on_compaction``: no required field; every field the host sends is in ``extra``."""

    extra: Dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> Dict[str, JSON]:
        return dict(self.extra)

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "CompactionContext":
        return cls(dict(d))


@dataclass
class InteractionContext:
    """``on_interaction``: a message from the user."""

    message: str
    extra: Dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> Dict[str, JSON]:
        return {**self.extra, "message": self.message}

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "InteractionContext":
        return cls(d["message"], _split(d, ("message",)))


# The seed's other names for the same contexts, after their hook points.
ToolCallContext = PreToolCallDecideContext
TransformToolInputContext = PreToolCallDecideContext
ToolResultContext = PostToolCallContext
OnToolErrorContext = ToolErrorContext
OnSessionStartContext = SessionContext
OnSessionEndContext = SessionContext
OnCompactionContext = CompactionContext
OnInteractionContext = InteractionContext

Context = Union[
    PreTurnContext,
    PostTurnContext,
    PreToolCallDecideContext,
    PostToolCallContext,
    ToolErrorContext,
    SessionContext,
    CompactionContext,
    InteractionContext,
]


@dataclass
class CallbackError:
    """A registry callback that failed during a run (its message contains ``hook '<name>' failed``)."""

    name: str
    message: str


@dataclass
class RunResult:
    """The result of a registry run: ``allow`` is false when a decide callback denied (or, at
    ``pre_tool_call_decide``, failed); ``tool_args`` is the final args of ``transform_tool_input``
    and, at ``pre_tool_call_decide``, the merged args when any ``modified_args`` applied, else
    ``None``; ``errors`` lists every callback that failed; ``answer`` is what answered at the
    points that answer (``stop``; ``on_tool_error`` and ``on_interaction`` of an Antigravity SDK
    contract registry), ``None`` elsewhere or when none did."""

    allow: bool = True
    message: str = ""
    tool_args: JSON = None
    errors: List[CallbackError] = field(default_factory=list)
    answer: JSON = None

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "RunResult":
        return cls(
            d.get("allow", True),
            d.get("message", ""),
            d.get("tool_args"),
            [CallbackError(e.get("name", ""), e.get("message", "")) for e in d.get("errors") or ()],
            d.get("answer"),
        )


@dataclass
class HookEntry:
    """One registration, as :meth:`Hooks.entries` lists it (``callback_id`` is the name)."""

    name: str
    point: str
    callback_id: str


# ---------------------------------------------------------------------------------------- outcomes


@dataclass
class Message:
    """One message of an outcome; ``level`` is ``"info"``, ``"warning"`` or ``"error"``."""

    level: str
    text: str


@dataclass
class HookReport:
    """One hook that ran (or that the gate skipped), in configuration order.

    ``kind`` is ``"command"`` or ``"callback"``; ``exit_code`` is None when the hook timed out, was
    killed by a signal (``signal``) or was skipped (``skipped == "not_approved"``); ``failure``
    (Claude Code profile) says how it failed: ``"timeout"``, ``"signal"``, ``"spawn"``,
    ``"invalid_output"`` or ``"exit"``.
    """

    kind: str
    command: Optional[str] = None
    name: Optional[str] = None
    exit_code: Optional[int] = None
    signal: Optional[int] = None
    timed_out: bool = False
    duration_ms: float = 0.0
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    skipped: Optional[str] = None
    failure: Optional[str] = None
    status_message: Optional[str] = None
    #: http hooks: the URL, and the response's HTTP status when there was one.
    url: Optional[str] = None
    status: Optional[int] = None
    #: mcp_tool hooks: the server and the tool.
    server: Optional[str] = None
    tool: Optional[str] = None
    #: prompt and agent hooks: the prompt as configured, and the model when one is named.
    prompt: Optional[str] = None
    model: Optional[str] = None
    #: True for a hook of a policy source (``hook_sources[i]["policy"]``: an administrator's file
    #: no other source turns off).
    policy: bool = False

    @classmethod
    def from_json(cls, d: Mapping[str, JSON]) -> "HookReport":
        return cls(
            d.get("kind", ""),
            d.get("command"),
            d.get("name"),
            d.get("exit_code"),
            d.get("signal"),
            bool(d.get("timed_out", False)),
            float(d.get("duration_ms", 0.0)),
            bool(d.get("stdout_truncated", False)),
            bool(d.get("stderr_truncated", False)),
            d.get("skipped"),
            d.get("failure"),
            d.get("status_message"),
            d.get("url"),
            d.get("status"),
            d.get("server"),
            d.get("tool"),
            d.get("prompt"),
            d.get("model"),
            bool(d.get("policy", False)),
        )


@dataclass
class Outcome:
    """What every event's outcome has (``docs/protocol.md`` section 5).

    ``continue_`` (the wire's ``continue``) is false when a hook asked to halt the agent, with
    ``stop_reason``; ``hooks`` reports each hook that ran; ``dialect_fields`` holds what hooks
    wrote that has no canonical field, by dialect and the agent's field name (``{"codex":
    {"additionalContext": [...]}}`` on a Codex SubagentStart; empty when none did); ``raw`` is the
    whole outcome JSON, fields this class does not name included.
    """

    messages: List[Message] = field(default_factory=list)
    continue_: bool = True
    stop_reason: Optional[str] = None
    hooks: List[HookReport] = field(default_factory=list)
    dialect_fields: Dict[str, Dict[str, JSON]] = field(default_factory=dict)
    raw: Dict[str, JSON] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, d: Dict[str, JSON]) -> "Outcome":
        return cls(*_common(d))


def _common(
    d: Dict[str, JSON],
) -> Tuple[List[Message], bool, Optional[str], List[HookReport], Dict[str, Dict[str, JSON]], Dict[str, JSON]]:
    """The fields every outcome has, in the dataclass's order."""
    ms = d.get("messages")
    hs = d.get("hooks")
    return (
        [Message(m.get("level", ""), m.get("text", "")) for m in ms] if ms else [],
        bool(d.get("continue", True)),
        d.get("stop_reason"),
        [HookReport.from_json(h) for h in hs] if hs else [],
        d.get("dialect_fields") or {},
        d,
    )


def _strings(value: JSON) -> List[str]:
    return list(value) if value else []


@dataclass
class SessionStartOutcome(Outcome):
    """SessionStart: ``additional_context`` for the model; ``env`` (Claude Code profile) holds
    what the hooks wrote to ``CLAUDE_ENV_FILE``, for the host's later commands."""

    additional_context: List[str] = field(default_factory=list)
    env: Optional[Dict[str, str]] = None

    @classmethod
    def from_json(cls, d: Dict[str, JSON]) -> "SessionStartOutcome":
        return cls(*_common(d), _strings(d.get("additional_context")), d.get("env"))


@dataclass
class UserPromptSubmitOutcome(Outcome):
    """UserPromptSubmit: ``allow_prompt`` false means the prompt must not be sent (``block_reason``)."""

    allow_prompt: bool = True
    block_reason: Optional[str] = None
    additional_context: List[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, d: Dict[str, JSON]) -> "UserPromptSubmitOutcome":
        return cls(*_common(d), bool(d.get("allow_prompt", True)), d.get("block_reason"), _strings(d.get("additional_context")))


@dataclass
class PreToolUseOutcome(Outcome):
    """PreToolUse: ``decision`` is ``"continue"`` (no hook decided: apply your own policy),
    ``"allow"``, ``"deny"``, ``"ask"`` (or ``"defer"`` in the Claude Code profile);
    ``updated_input`` is the rewritten tool input to use, when a hook gave one."""

    decision: str = "continue"
    reason: Optional[str] = None
    updated_input: JSON = None
    additional_context: List[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, d: Dict[str, JSON]) -> "PreToolUseOutcome":
        return cls(
            *_common(d), d.get("decision", "continue"), d.get("reason"), d.get("updated_input"),
            _strings(d.get("additional_context")),
        )


@dataclass
class PostToolUseOutcome(Outcome):
    """PostToolUse and PostToolUseFailure: ``block_reason`` is feedback for the model."""

    block_reason: Optional[str] = None
    additional_context: List[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, d: Dict[str, JSON]) -> "PostToolUseOutcome":
        return cls(*_common(d), d.get("block_reason"), _strings(d.get("additional_context")))


@dataclass
class PermissionDecision:
    """A PermissionRequest decision: ``behavior`` ``"allow"``/``"deny"``, ``scope`` ``"once"``,
    ``"session"`` or ``"permanent"``."""

    behavior: str
    scope: str = "once"
    updated_input: JSON = None
    permission_updates: List[JSON] = field(default_factory=list)
    interrupt: bool = False
    message: Optional[str] = None


@dataclass
class PermissionRequestOutcome(Outcome):
    """PermissionRequest: ``decision`` is None when no hook decided."""

    decision: Optional[PermissionDecision] = None

    @classmethod
    def from_json(cls, d: Dict[str, JSON]) -> "PermissionRequestOutcome":
        p = d.get("decision")
        decision = (
            None
            if not isinstance(p, dict)
            else PermissionDecision(
                p.get("behavior", ""),
                p.get("scope", "once"),
                p.get("updated_input"),
                list(p.get("permission_updates") or ()),
                bool(p.get("interrupt", False)),
                p.get("message"),
            )
        )
        return cls(*_common(d), decision)


@dataclass
class StopOutcome(Outcome):
    """Stop (and SubagentStop and PreCompact, which the Claude Code profile lets block):
    ``block_reason`` set means the agent must not stop (the reason is its next instruction)."""

    block_reason: Optional[str] = None

    @classmethod
    def from_json(cls, d: Dict[str, JSON]) -> "StopOutcome":
        return cls(*_common(d), d.get("block_reason"))


SubagentStopOutcome = StopOutcome
PreCompactOutcome = StopOutcome
PostToolUseFailureOutcome = PostToolUseOutcome

OUTCOME_CLASS: Dict[int, type] = {
    HookEvent.SESSION_START: SessionStartOutcome,
    HookEvent.SESSION_END: Outcome,
    HookEvent.SUBAGENT_START: Outcome,
    HookEvent.SUBAGENT_STOP: StopOutcome,
    HookEvent.USER_PROMPT_SUBMIT: UserPromptSubmitOutcome,
    HookEvent.PRE_TOOL_USE: PreToolUseOutcome,
    HookEvent.POST_TOOL_USE: PostToolUseOutcome,
    HookEvent.PERMISSION_REQUEST: PermissionRequestOutcome,
    HookEvent.PRE_COMPACT: StopOutcome,
    HookEvent.STOP: StopOutcome,
    HookEvent.NOTIFICATION: Outcome,
    HookEvent.POST_TOOL_USE_FAILURE: PostToolUseOutcome,
}


@dataclass
class CommandPreview:
    """One configured command as the approval digest sees it (``raw`` keeps every field)."""

    event: str
    command: str
    matcher: Optional[str] = None
    timeout_seconds: Optional[int] = None
    raw: Dict[str, JSON] = field(default_factory=dict, repr=False, compare=False)
    #: The dialect, for dialects other than VT Code and Claude Code (``"codex"``, ``"gemini"``,
    #: ``"cursor"``, ``"copilot"``, ``"vscode"``, ``"cline"``, ``"windsurf"``, ``"qwen"``, ``"kiro"``,
    #: ``"devin-cli"``, ``"factory"``, ``"crush"``, ``"openhands"``, ``"goose"``, ``"augment"``).
    dialect: Optional[str] = None
    #: The timeout of dialects that write milliseconds (Gemini CLI; ``timeout_seconds`` is then None).
    timeout_ms: Optional[int] = None

    @classmethod
    def from_json(cls, d: Dict[str, JSON]) -> "CommandPreview":
        return cls(
            d.get("event", ""),
            d.get("command", ""),
            d.get("matcher"),
            d.get("timeout_seconds"),
            d,
            dialect=d.get("dialect"),
            timeout_ms=d.get("timeout_ms"),
        )


# ------------------------------------------------------------------ host handlers


@dataclass
class ModelRequest:
    """What a ``prompt`` or ``agent`` hook asks the host's model (``engine.set_model_handler``):
    ``prompt`` has ``$ARGUMENTS`` replaced by the hook input JSON; ``model`` is ``""`` when the
    hook names none; ``input`` is the hook input (what a command hook reads on stdin)."""

    type: str
    event: str
    prompt: str
    model: str
    timeout_ms: int
    input: Any

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> "ModelRequest":
        return ModelRequest(
            type=str(d.get("type", "")),
            event=str(d.get("event", "")),
            prompt=str(d.get("prompt", "")),
            model=str(d.get("model") or ""),
            timeout_ms=int(d.get("timeout_ms") or 0),
            input=d.get("input"),
        )


@dataclass
class ModelReply:
    """The model's verdict: ``ok`` True allows; ``ok`` False with a ``reason`` blocks, denies or
    feeds the reason back, as the event says; ``impossible`` (prompt hooks on Stop and
    SubagentStop) lets the turn end although ``ok`` is False."""

    ok: bool
    reason: Optional[str] = None
    impossible: bool = False

    def to_json(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {"ok": bool(self.ok)}
        if self.reason is not None:
            d["reason"] = str(self.reason)
        if self.impossible:
            d["impossible"] = True
        return d


@dataclass
class McpRequest:
    """What an ``mcp_tool`` hook asks the host's MCP client (``engine.set_mcp_handler``):
    ``input`` is the tool's arguments with ``${path}`` strings filled from the hook input."""

    type: str
    event: str
    server: str
    tool: str
    input: Any
    timeout_ms: int

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> "McpRequest":
        return McpRequest(
            type=str(d.get("type", "")),
            event=str(d.get("event", "")),
            server=str(d.get("server", "")),
            tool=str(d.get("tool", "")),
            input=d.get("input"),
            timeout_ms=int(d.get("timeout_ms") or 0),
        )


@dataclass
class McpReply:
    """An MCP tool's result: its text (read like a command hook's stdout on exit 0), or
    ``is_error`` for a tool error (a non-blocking error)."""

    text: str = ""
    is_error: bool = False

    def to_json(self) -> Dict[str, Any]:
        return {"content": [{"type": "text", "text": self.text}], "isError": bool(self.is_error)}
