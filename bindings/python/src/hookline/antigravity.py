"""A drop-in for the Antigravity Python SDK's ``HookRunner`` that runs every hook through hookline.

``google.antigravity.hooks.hook_runner.HookRunner`` (the ``google-antigravity`` package) registers
the SDK's hook objects (``PreToolCallDecideHook``, ``StopHook``, the ``@pre_tool_call_decide``
decorators, ...) and dispatches them. This module's :class:`HookRunner` has the same constructor,
``register_hook``, hook-list properties, ``has_hooks``, ``session_context`` and ``dispatch_*``
coroutines with the same return types; an Antigravity host swaps one import::

    from hookline.antigravity import HookRunner   # was: from google.antigravity.hooks.hook_runner import HookRunner

Every hook is a callback of one hookline registry following the SDK's contract
(``HL_CONTRACT_ANTIGRAVITY_SDK``, docs/c-api.md): hookline decides the order, the short-circuits,
the merging of ``modified_args``, which message an allowed tool call keeps, the error recovery,
the interaction answer and the stop decision. The hooks receive the SDK's own objects (the
``ToolCall``, the exception, the ``StopArgs``, a multimodal prompt) and contexts unchanged.

How a hook runs inside a registry run: its ``run`` coroutine is driven on the spot. A hook that
really suspends (awaits I/O) makes the run stop at it (a callback failure, which stops an SDK
contract run); the dispatch then awaits the rest of that coroutine on the event loop and runs the
registry again, answering the hooks that already ran with their recorded results, so each hook
runs exactly once and in order. A hook's exception propagates out of the dispatch as in the SDK
(``dispatch_on_tool_error`` turns it into ``allow=False``, ``Error recovery failed: ...``).

The SDK's internal telemetry step hooks (``_PreStepHook``, ``_PostStepHook``) have no hookline
point: they run here, in order, as the SDK runs them.

Requires ``google-antigravity`` (importing this module without it raises ImportError).
"""

from __future__ import annotations

import ctypes
import importlib
import inspect
import itertools
import json
import logging
import threading
import types as _pytypes
import weakref
from typing import Any, Callable, Dict, Generator, List, Optional, Sequence, Tuple

from . import _native as N
from ._callbacks import Life, failure_reason, in_callback
from ._errors import PanicError, Status
from ._json import encode

try:
    _sdk_hooks: Any = importlib.import_module("google.antigravity.hooks.hooks")
    _sdk_types: Any = importlib.import_module("google.antigravity.types")
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        "hookline.antigravity needs the Antigravity Python SDK: pip install google-antigravity"
    ) from e

__all__ = ["HookRunner"]

# Registry points (hl_hook_point) and the contract (hl_registry_contract).
_PRE_TURN, _POST_TURN, _PRE_TOOL, _POST_TOOL = 0, 1, 2, 3
_COMPACTION, _SESSION_START, _SESSION_END, _TOOL_ERROR, _INTERACTION = 4, 5, 6, 7, 8
_STOP = 10
_CONTRACT_ANTIGRAVITY_SDK = 1

# The SDK's hook classes, the attribute holding each list, and the registry point each runs at
# (None: no hookline point, run here). The order is the SDK's isinstance precedence.
_HOOK_TYPES: List[Tuple[Any, str, Optional[int]]] = [
    (_sdk_hooks.OnSessionStartHook, "_on_session_start_hooks", _SESSION_START),
    (_sdk_hooks.OnSessionEndHook, "_on_session_end_hooks", _SESSION_END),
    (_sdk_hooks.PreTurnHook, "_pre_turn_hooks", _PRE_TURN),
    (_sdk_hooks.PostTurnHook, "_post_turn_hooks", _POST_TURN),
    (_sdk_hooks.PreToolCallDecideHook, "_pre_tool_call_decide_hooks", _PRE_TOOL),
    (_sdk_hooks.PostToolCallHook, "_post_tool_call_hooks", _POST_TOOL),
    (_sdk_hooks.OnToolErrorHook, "_on_tool_error_hooks", _TOOL_ERROR),
    (_sdk_hooks.OnInteractionHook, "_on_interaction_hooks", _INTERACTION),
    (_sdk_hooks.OnCompactionHook, "_on_compaction_hooks", _COMPACTION),
    (_sdk_hooks.StopHook, "_stop_hooks", _STOP),
    (_sdk_hooks._PreStepHook, "_pre_step_hooks_list", None),  # pylint: disable=protected-access
    (_sdk_hooks._PostStepHook, "_post_step_hooks_list", None),  # pylint: disable=protected-access
]
_POINT_ATTRS = [(attr, point) for _, attr, point in _HOOK_TYPES if point is not None]

_HookResult = _sdk_hooks.HookResult
_CONTINUE = _sdk_types.StopDecision.CONTINUE
_encode_compact = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode



# The hot path's C calls go through a ``ctypes.PyDLL`` without argtypes: a registry run has no
# threads of its own and calls its Python callbacks on this thread, so releasing the GIL only to
# take it back in the first callback costs two hand-offs per dispatch; and ctypes' argtypes
# conversion costs more than the run itself. Every argument is passed in the form C receives it
# as is: a handle or pointer as a ``c_void_p`` object (a Python int would be cut to a C int), a
# point as a small int, a string as ``bytes``, an out-parameter as a prebuilt ``byref``.
_pydll = ctypes.PyDLL(N.LIBRARY_PATH)


def _holding_the_gil(name: str) -> Any:
    fn = getattr(_pydll, name)
    fn.restype = ctypes.c_int32 if getattr(N, name).restype is ctypes.c_int32 else None
    fn.argtypes = None
    return fn


# A run whose result says nothing beyond "allowed" (the common answer) writes no result string.
_registry_run = _holding_the_gil("hl_registry_run_brief")
_string_free = _holding_the_gil("hl_string_free")
_coroutine_type = _pytypes.CoroutineType


class _Thread:
    """Per thread: the dispatch whose registry run is in progress (the innermost, when a hook
    dispatches), and the out-parameters of ``hl_registry_run`` (a nested run reads its result before
    the outer one's is written, so they are shared)."""

    __slots__ = ("dispatch", "out", "err", "out_ref", "err_ref", "out_text")

    def __init__(self) -> None:
        self.dispatch: Optional[_Dispatch] = None
        self.out = ctypes.c_void_p()
        self.err = ctypes.c_void_p()
        self.out_ref = ctypes.byref(self.out)
        self.err_ref = ctypes.byref(self.err)
        # The same pointer read as a C string: bytes without a ctypes.string_at call.
        self.out_text = ctypes.c_char_p.from_buffer(self.out)


_tls = threading.local()


# What a hook's run gave (kept per dispatch, so that a run repeated after a suspension answers the
# hooks that already ran without running them again).
_OK, _RAISED = 0, 1


class _Dispatch:
    """One dispatch in progress on this thread: what its hooks receive and what they gave."""

    __slots__ = ("point", "context", "data", "memo", "cursor", "pending", "error", "last", "last_allow", "args", "original", "said")

    def __init__(self, point: int, context: Any, data: Any) -> None:
        self.point = point
        self.context = context
        self.data = data  # what each hook receives (the current ToolCall at pre_tool_call_decide)
        self.memo: List[Tuple[int, Any]] = []
        self.cursor = 0
        self.pending: Any = None  # (coroutine or awaitable, what it yielded, started) of a suspended hook
        self.error: Optional[BaseException] = None
        self.last: Any = None  # the last hook's result object
        self.last_allow: Any = None  # pre_tool_call_decide: the last allowing result object
        self.args: Any = None  # pre_tool_call_decide: a hook changed the args since data was made
        self.original = data  # pre_tool_call_decide: the ToolCall as dispatched
        self.said = False  # pre_tool_call_decide: an allowing hook gave a message


_SUSPENDED = b"the hook suspended: it finishes on the event loop"


@_pytypes.coroutine
def _finish(coro: Any, yielded: Any) -> Generator[Any, Any, Any]:
    """Await the rest of a coroutine that already ran up to its first suspension."""
    while True:
        try:
            sent = yield yielded
        except GeneratorExit:
            coro.close()
            raise
        except BaseException as e:  # noqa: B036 - thrown in by the event loop: hand it on
            try:
                yielded = coro.throw(e)
            except StopIteration as stop:
                return stop.value
        else:
            try:
                yielded = coro.send(sent)
            except StopIteration as stop:
                return stop.value


class HookRunner:
    """Registers the SDK's hooks and dispatches events through hookline's registry: a drop-in for
    ``google.antigravity.hooks.hook_runner.HookRunner`` (same constructor and methods)."""

    def __init__(
        self,
        hooks: Optional[Sequence[Any]] = None,
        *,
        on_session_start_hooks: Optional[List[Any]] = None,
        on_session_end_hooks: Optional[List[Any]] = None,
        pre_turn_hooks: Optional[List[Any]] = None,
        post_turn_hooks: Optional[List[Any]] = None,
        pre_tool_call_decide_hooks: Optional[List[Any]] = None,
        post_tool_call_hooks: Optional[List[Any]] = None,
        on_tool_error_hooks: Optional[List[Any]] = None,
        on_interaction_hooks: Optional[List[Any]] = None,
        on_compaction_hooks: Optional[List[Any]] = None,
        stop_hooks: Optional[List[Any]] = None,
        _pre_step_hooks: Optional[List[Any]] = None,  # noqa: N803 - the SDK's parameter name
        _post_step_hooks: Optional[List[Any]] = None,  # noqa: N803
    ) -> None:
        self._on_session_start_hooks: List[Any] = on_session_start_hooks or []
        self._on_session_end_hooks: List[Any] = on_session_end_hooks or []
        self._pre_turn_hooks: List[Any] = pre_turn_hooks or []
        self._post_turn_hooks: List[Any] = post_turn_hooks or []
        self._pre_tool_call_decide_hooks: List[Any] = pre_tool_call_decide_hooks or []
        self._post_tool_call_hooks: List[Any] = post_tool_call_hooks or []
        self._on_tool_error_hooks: List[Any] = on_tool_error_hooks or []
        self._on_interaction_hooks: List[Any] = on_interaction_hooks or []
        self._on_compaction_hooks: List[Any] = on_compaction_hooks or []
        self._stop_hooks: List[Any] = stop_hooks or []
        self._pre_step_hooks_list: List[Any] = _pre_step_hooks or []
        self._post_step_hooks_list: List[Any] = _post_step_hooks or []

        self.session_context = _sdk_hooks.SessionContext()

        out, err = ctypes.c_void_p(), ctypes.c_void_p()
        N.check(N.hl_registry_new_with_contract(_CONTRACT_ANTIGRAVITY_SDK, ctypes.byref(out), ctypes.byref(err)), err)
        if not out.value:
            raise PanicError(Status.PANIC, "hl_registry_new_with_contract gave no registry")
        self._ptr: int = out.value
        self._handle = ctypes.c_void_p(out.value)  # what the hot path passes (see _holding_the_gil)
        # The registry lives as long as this runner (there is no close: a dispatch holds the runner,
        # so the finalizer cannot free the registry under a run).
        self._life = Life(out.value, N.hl_registry_free, "hook runner's registry")
        self._finalizer = weakref.finalize(self, _free_registry, self._life)
        self._lock = threading.Lock()
        # What is registered with hookline at each point: the hooks, in order.
        self._registered: Dict[int, List[Any]] = {point: [] for _, point in _POINT_ATTRS}

        if hooks:
            for hook in hooks:
                self.register_hook(hook)

    # ------------------------------------------------------------------ the SDK's accessors

    @property
    def has_hooks(self) -> bool:
        """Returns True if any hooks are registered."""
        return any(getattr(self, attr) for _, attr, _ in _HOOK_TYPES)

    @property
    def on_session_start_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._on_session_start_hooks)

    @property
    def on_session_end_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._on_session_end_hooks)

    @property
    def pre_turn_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._pre_turn_hooks)

    @property
    def post_turn_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._post_turn_hooks)

    @property
    def pre_tool_call_decide_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._pre_tool_call_decide_hooks)

    @property
    def post_tool_call_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._post_tool_call_hooks)

    @property
    def on_tool_error_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._on_tool_error_hooks)

    @property
    def on_interaction_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._on_interaction_hooks)

    @property
    def on_compaction_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._on_compaction_hooks)

    @property
    def stop_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._stop_hooks)

    @property
    def _pre_step_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._pre_step_hooks_list)

    @property
    def _post_step_hooks(self) -> Tuple[Any, ...]:
        return tuple(self._post_step_hooks_list)

    def register_hook(self, hook: Any) -> None:
        """Registers a hook by inferring its type (every hook class it is an instance of).

        Raises:
          ValueError: If the hook type is unknown.
        """
        registered = False
        for hook_type, attr, _ in _HOOK_TYPES:
            if isinstance(hook, hook_type):
                getattr(self, attr).append(hook)
                registered = True
        if not registered:
            raise ValueError(f"Unknown hook type: {type(hook)}")

    # ------------------------------------------------------------------ registry plumbing

    def _sync(self, point: int, hooks: List[Any]) -> None:
        """Make the registry's callbacks at ``point`` the hooks of ``hooks`` (the lists may be
        changed by ``register_hook`` or by the host directly)."""
        with self._lock:
            if self._registered[point] == hooks:
                return
            ptr = self._life.acquire()
            try:
                for name in _names(self._registered[point]):
                    N.hl_registry_unregister(ptr, point, name, None)
                for hook, name in zip(hooks, _names(hooks)):
                    hid = next(_hook_ids)
                    _hook_runs[hid] = hook.run
                    err = ctypes.c_void_p()
                    status = N.hl_registry_register(ptr, point, name, _HOOK_CALLBACK, hid, _HOOK_FREE, ctypes.byref(err))
                    if status != 0:
                        _hook_runs.pop(hid, None)  # a failed registration leaves user_data with us
                        N.check(status, err)
                self._registered[point] = list(hooks)
            finally:
                self._life.release()

    def _run(self, point: int, hooks: List[Any], ctx: bytes, st: _Dispatch) -> Any:
        """Run the registry at ``point`` for one dispatch: the result (a dict, or None for a plain
        allow). When a hook suspended, ``st.pending`` is set: await :meth:`_resume` instead."""
        if self._registered[point] != hooks:
            self._sync(point, hooks)
        try:
            th: _Thread = _tls.state
        except AttributeError:
            th = _tls.state = _Thread()
        st.cursor = 0
        outer = th.dispatch
        th.dispatch = st
        try:
            status = _registry_run(self._handle, point, ctx, th.out_ref, th.err_ref)
        finally:
            th.dispatch = outer
        if status:
            N.check(status, th.err)
        text = th.out_text.value
        if text is None:  # allowed, nothing else to say
            return None
        _string_free(th.out)
        if st.pending is not None:
            return None
        return json.loads(text)

    async def _resume(self, point: int, hooks: List[Any], ctx: bytes, st: _Dispatch) -> Any:
        """Finish the suspended hook on the event loop, then run the registry again (the hooks
        that already ran answer from ``st.memo``), until no hook is left suspended."""
        while st.pending is not None:
            aw, yielded, started = st.pending
            st.pending = None
            try:
                # A coroutine that already ran to its first suspension (it yielded `yielded`,
                # None for a bare yield like asyncio.sleep(0)) is finished; another awaitable is
                # awaited.
                value = await (_finish(aw, yielded) if started else aw)
                st.memo.append((_OK, value))
            except Exception as e:  # noqa: BLE001 - recorded like an exception raised at once
                st.memo.append((_RAISED, e))
            st.error = None
            result = self._run(point, hooks, ctx, st)
        return result

    async def _dispatch(self, point: int, hooks: List[Any], ctx: bytes, st: _Dispatch) -> Any:
        result = self._run(point, hooks, ctx, st)
        if st.pending is not None:
            result = await self._resume(point, hooks, ctx, st)
        return result

    # ------------------------------------------------------------------ dispatches

    async def dispatch_session_start(self) -> None:
        """Dispatches session start events to all registered hooks."""
        st = _Dispatch(_SESSION_START, self.session_context, None)
        await self._dispatch(_SESSION_START, self._on_session_start_hooks, b"{}", st)
        _raise(st)

    async def dispatch_session_end(self) -> None:
        """Dispatches session end events to all registered hooks."""
        st = _Dispatch(_SESSION_END, self.session_context, None)
        await self._dispatch(_SESSION_END, self._on_session_end_hooks, b"{}", st)
        _raise(st)

    async def dispatch_pre_turn(self, prompt: Any) -> Tuple[Any, Any]:
        """Dispatches pre-turn events: ``(HookResult, TurnContext)``. A ``None`` prompt is
        ``""``; a multimodal prompt (a list of parts) reaches the hooks unchanged."""
        prompt = prompt or ""
        turn_context = _sdk_hooks.TurnContext(self.session_context)
        st = _Dispatch(_PRE_TURN, turn_context, prompt)
        ctx = b'{"prompt":' + encode(prompt, "the prompt") + b"}" if isinstance(prompt, str) else b"{}"
        result = await self._dispatch(_PRE_TURN, self._pre_turn_hooks, ctx, st)
        _raise(st)
        if result is not None and not result["allow"]:
            return st.last, turn_context
        return _HookResult(allow=True), turn_context

    async def dispatch_post_turn(self, turn_context: Any, response: str) -> None:
        """Dispatches post-turn events."""
        st = _Dispatch(_POST_TURN, turn_context, response)
        await self._dispatch(_POST_TURN, self._post_turn_hooks, b"{}", st)
        _raise(st)

    async def dispatch_pre_tool_call(self, turn_context: Any, tool_call: Any) -> Tuple[Any, Any, Any]:
        """Dispatches pre-tool call events: ``(HookResult, ToolCall, OperationContext)``. An
        allowed call's result is the last allowing hook's (with ``modified_args`` the merged args
        when a hook changed them); a deny is the denying hook's result."""
        op_context = _sdk_hooks.OperationContext(turn_context)
        st = _Dispatch(_PRE_TOOL, op_context, tool_call)
        # The arguments stay the ToolCall's (Python objects, never converted): hookline merges the
        # hooks' modified_args over null, and the call's args are those changes over its own (a
        # shallow merge, key by key, gives the same either way).
        ctx = _tool_contexts.get(tool_call.name) or _tool_context(tool_call.name)
        hooks = self._pre_tool_call_decide_hooks
        result = self._run(_PRE_TOOL, hooks, ctx, st)  # the hot path: no inner coroutine
        if st.pending is not None:
            result = await self._resume(_PRE_TOOL, hooks, ctx, st)
        if st.error is not None:
            raise st.error  # as _raise
        if st.args is not None:  # the last hook changed the args: nobody after it read them yet
            st.data = _with_changes(st, result["tool_args"])
        if result is None:
            return (st.last_allow or _HookResult(allow=True)), st.data, op_context
        if not result["allow"]:
            return st.last, st.data, op_context
        allowed = st.last_allow or _HookResult(allow=True)
        if result["tool_args"] is not None:
            allowed = allowed.model_copy(update={"modified_args": dict(st.data.args)})
        return allowed, st.data, op_context

    async def dispatch_post_tool_call(self, op_context: Any, result: Any) -> None:
        """Dispatches post-tool call events."""
        st = _Dispatch(_POST_TOOL, op_context, result)
        await self._dispatch(_POST_TOOL, self._post_tool_call_hooks, b"{}", st)
        _raise(st)

    async def dispatch_on_tool_error(self, op_context: Any, error: Exception) -> Tuple[Any, Any]:
        """Dispatches tool error events: ``(HookResult, adjusted_error)``. The first hook that
        returns something other than ``None`` recovers (``allow=True`` and its value); a hook that
        raises gives ``allow=False``, ``Error recovery failed: ...``; none: ``allow=False``."""
        st = _Dispatch(_TOOL_ERROR, op_context, error)
        result = await self._dispatch(_TOOL_ERROR, self._on_tool_error_hooks, b"{}", st)
        if st.error is not None:
            logging.error("Critical failure in OnToolErrorHook", exc_info=st.error)
            if not isinstance(st.error, Exception):
                raise st.error  # KeyboardInterrupt, SystemExit, a cancellation: never swallowed
        if result["allow"]:
            return _HookResult(allow=True), _answer(st, result)
        return _HookResult(allow=False, message=result["message"]), None

    async def dispatch_interaction(self, turn_context: Any, interaction_spec: Any) -> Tuple[Any, Any, Any]:
        """Dispatches interaction events: ``(HookResult, response, OperationContext)``; the first
        hook answering something other than ``None`` wins."""
        op_context = _sdk_hooks.OperationContext(turn_context)
        st = _Dispatch(_INTERACTION, op_context, interaction_spec)
        result = await self._dispatch(_INTERACTION, self._on_interaction_hooks, b"{}", st)
        _raise(st)
        if result["allow"]:
            return _HookResult(allow=True), _answer(st, result), op_context
        return _HookResult(allow=False, message=result["message"]), None, op_context

    async def dispatch_compaction(self, turn_context: Any, data: Any) -> None:
        """Dispatches compaction events."""
        op_context = _sdk_hooks.OperationContext(turn_context)
        st = _Dispatch(_COMPACTION, op_context, data)
        await self._dispatch(_COMPACTION, self._on_compaction_hooks, b"{}", st)
        _raise(st)

    async def dispatch_stop(self, turn_context: Any, args: Any) -> Any:
        """Dispatches stop hook events: the first ``StopDecision.CONTINUE`` result is returned;
        otherwise ``StopHookResult(decision=ALLOW_STOP)``."""
        st = _Dispatch(_STOP, turn_context, args)
        result = await self._dispatch(_STOP, self._stop_hooks, b"{}", st)
        _raise(st)
        if result is not None and not result["allow"]:
            return st.last
        return _sdk_types.StopHookResult(decision=_sdk_types.StopDecision.ALLOW_STOP)

    async def dispatch_pre_step(self, turn_context: Any, step: Any) -> None:
        """Dispatches internal pre-step observability events (run here: no hookline point)."""
        for hook in self._pre_step_hooks:
            await hook.run(context=turn_context, data=step)

    async def dispatch_post_step(self, turn_context: Any, step: Any) -> None:
        """Dispatches internal post-step observability events (run here: no hookline point)."""
        for hook in self._post_step_hooks:
            await hook.run(context=turn_context, data=step)


_tool_contexts: Dict[Any, bytes] = {}


def _tool_context(name: Any) -> bytes:
    """The context of a tool call, ``{"tool_name":...}`` (the names a host uses are few: each kept
    once encoded)."""
    text = b'{"tool_name":' + encode(str(name), "the tool name") + b"}"
    if len(_tool_contexts) < 1024:
        _tool_contexts[name] = text
    return text


def _with_changes(st: _Dispatch, changes: Any) -> Any:
    """The dispatched ToolCall with the argument changes hookline merged so far."""
    st.args = None
    args = dict(st.original.args)
    if isinstance(changes, dict):
        args.update(changes)
    return st.original.model_copy(update={"args": args})


def _names(hooks: List[Any]) -> List[bytes]:
    """The registry names of a point's hooks: unique, and naming the hook's class in messages."""
    return [f"{type(hook).__name__}#{i}".encode("utf-8", "replace") for i, hook in enumerate(hooks)]


def _raise(st: _Dispatch) -> None:
    """A hook's exception propagates out of the dispatch, as in the SDK."""
    if st.error is not None:
        raise st.error


def _answer(st: _Dispatch, result: Any) -> Any:
    """The answering hook's value: hookline's answer is its position among the hooks that ran."""
    pos = result.get("answer")
    if isinstance(pos, int) and 0 <= pos < len(st.memo):
        return st.memo[pos][1]
    return None


def _reply(st: _Dispatch, pos: int, value: Any, reply: int) -> int:
    """Tell hookline what hook number ``pos`` answered."""
    point = st.point
    if point == _PRE_TOOL or point == _PRE_TURN:
        if value is None:
            return 0  # no opinion
        st.last = value
        if not value.allow:
            N.hl_reply_set_json(reply, encode({"allow": False, "message": value.message}, "the hook's result"), None)
            return 0
        st.last_allow = value
        if point == _PRE_TOOL and value.modified_args is not None:
            st.args = True
            text = encode({"allow": True, "message": value.message, "modified_args": value.modified_args}, "the hook's result")
            N.hl_reply_set_json(reply, text, None)
        elif value.message:
            st.said = True
            N.hl_reply_set_json(reply, encode({"allow": True, "message": value.message}, "the hook's result"), None)
        elif st.said:
            N.hl_reply_allow(reply)
        # else: an allow without a message after no message reads as no opinion (the run's message
        # stays ""): the reply call is saved.
        return 0
    if point == _TOOL_ERROR or point == _INTERACTION:
        if value is not None:
            # The answer may be any Python object: hookline is told which hook answered.
            N.hl_reply_set_json(reply, str(pos).encode(), None)
        return 0
    if point == _STOP:
        if value is not None and value.decision == _CONTINUE:
            st.last = value
            N.hl_reply_set_json(reply, encode({"decision": "continue", "reason": value.reason}, "the stop result"), None)
        return 0
    return 0  # observers


def _free_registry(life: Life) -> None:
    if life.begin_close():
        life.end_close(wait=not in_callback())


# ---------------------------------------------------------------------- the hooks' trampoline

# Every hook of every runner is one registration of this one trampoline; ``user_data`` is the
# hook's number in ``_hook_runs`` (its ``run``), dropped by hookline's ``free_user_data`` call
# when the registration ends. Both ctypes callbacks live as long as the process.
_hook_runs: Dict[int, Any] = {}
_hook_ids = itertools.count(1)


def _hook_callback(user_data: Optional[int], context: Optional[int], length: int, reply: Optional[int]) -> int:
    """Run one hook inside a registry run (on the thread of the dispatch) and reply for it.
    Nothing may unwind into C: every failure is a non-zero return with its reason."""
    st: Optional[_Dispatch] = None
    try:
        try:
            st = _tls.state.dispatch
            run = _hook_runs[user_data or 0]
        except (AttributeError, KeyError):
            st = None
        if st is None:
            N.hl_reply_fail(reply, b"the hook runs outside a dispatch")
            return 1
        pos = st.cursor
        st.cursor = pos + 1
        if pos < len(st.memo):
            kind, value = st.memo[pos]
        else:
            if st.args is not None and st.point == _PRE_TOOL:
                # An earlier hook changed the args: this hook sees the call with the changes
                # hookline merged so far.
                st.data = _with_changes(st, json.loads(ctypes.string_at(context or 0, length))["tool_args"])
            try:
                aw = run(context=st.context, data=st.data)
                if type(aw) is _coroutine_type or inspect.iscoroutine(aw):
                    try:
                        yielded = aw.send(None)
                    except StopIteration as stop:
                        kind, value = _OK, stop.value
                    else:
                        st.pending = (aw, yielded, True)
                        N.hl_reply_fail(reply, _SUSPENDED)
                        return 1
                elif inspect.isawaitable(aw):
                    st.pending = (aw, None, False)
                    N.hl_reply_fail(reply, _SUSPENDED)
                    return 1
                else:
                    kind, value = _OK, aw
            except BaseException as e:  # noqa: B036 - recorded; the dispatch raises it
                kind, value = _RAISED, e
            st.memo.append((kind, value))
        if kind == _RAISED:
            st.error = value
            N.hl_reply_fail(reply, failure_reason(value))
            return 1
        if (
            st.point == _PRE_TOOL
            and value is not None
            and value.allow is True
            and value.modified_args is None
            and not value.message
            and not st.said
        ):
            # The common answer, as _reply gives it: an allow without a message after no message
            # is no opinion (the run's message stays ""), so no reply call.
            st.last = st.last_allow = value
            return 0
        return _reply(st, pos, value, reply or 0)
    except BaseException as e:  # noqa: B036 - a result the SDK could not read either
        if st is not None:
            st.error = e
        try:
            N.hl_reply_fail(reply, failure_reason(e))
        except BaseException:  # noqa: B036 - nothing may unwind into C
            pass
        return 1


def _hook_free(user_data: Optional[int]) -> None:
    _hook_runs.pop(user_data or 0, None)


_HOOK_CALLBACK = N.CALLBACK_FN(_hook_callback)
_HOOK_FREE = N.FREE_FN(_hook_free)
