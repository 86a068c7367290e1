"""``hl_registry``: named in-process callbacks per hook point, in agy-bridge's ``Hooks`` shape."""

from __future__ import annotations

import ctypes
import json
import weakref
from typing import Any, Callable, List, Mapping, Optional, TypeVar, Union, overload

from . import _native as N
from ._callbacks import (
    CALLBACK,
    FREE,
    KIND_DECIDE,
    KIND_OBSERVER,
    KIND_TRANSFORM,
    CallbackErrorHandler,
    CallbackInfo,
    ErrorSink,
    Handler,
    Life,
    add_handler,
    drop_handler,
    in_callback,
)
from ._json import encode
from ._errors import InvalidArgumentError, NotFoundError, PanicError, Status
from ._types import (
    JSON,
    CompactionContext,
    Context,
    HookEntry,
    HookPoint,
    HookResult,
    InteractionContext,
    JsonReply,
    PostToolCallContext,
    PostTurnContext,
    PreToolCallDecideContext,
    PreTurnContext,
    RunResult,
    SessionContext,
    ToolErrorContext,
    parse_point,
)

_KIND = {
    HookPoint.PRE_TURN: KIND_DECIDE,
    HookPoint.PRE_TOOL_CALL_DECIDE: KIND_DECIDE,
    HookPoint.ON_INTERACTION: KIND_DECIDE,
    HookPoint.TRANSFORM_TOOL_INPUT: KIND_TRANSFORM,
}

DecideResult = Union[HookResult, bool, None, JsonReply, Mapping[str, JSON]]
"""What a decide callback returns: a :class:`HookResult` (``HookResult.allow()``,
``HookResult.deny(reason)``), ``True``/``False``, ``None`` (no opinion: allow), or a raw reply
(a dict ``{"allow", "message", "modified_args"}`` or a :class:`JsonReply`)."""

TransformResult = Any
"""What a transform returns: the new tool args (any JSON), ``None`` to keep them, or
``JsonReply(None)`` to set them to JSON null."""

PreTurnFn = Callable[[PreTurnContext], DecideResult]
PostTurnFn = Callable[[PostTurnContext], Any]
DecideFn = Callable[[PreToolCallDecideContext], DecideResult]
TransformFn = Callable[[PreToolCallDecideContext], TransformResult]
PostToolCallFn = Callable[[PostToolCallContext], Any]
ToolErrorFn = Callable[[ToolErrorContext], Any]
SessionFn = Callable[[SessionContext], Any]
CompactionFn = Callable[[CompactionContext], Any]
InteractionFn = Callable[[InteractionContext], DecideResult]
RawFn = Callable[[Any], Any]

F = TypeVar("F", bound=Callable[..., Any])


def _label(point: int) -> str:
    try:
        return HookPoint(point).label
    except ValueError:
        return f"hook_point({point})"


class Hooks:
    """A registry of named in-process callbacks per hook point (``Registry`` is the same class).

    Callbacks at a point run in registration order; registering an existing (point, name)
    replaces it in place. Register with decorators or the fluent ``with_*`` forms::

        hooks = Hooks()

        @hooks.on_pre_tool_call_decide("gate")
        def gate(ctx: PreToolCallDecideContext) -> HookResult:
            return HookResult.deny("no shell") if ctx.tool_name == "Bash" else HookResult.allow()

        hooks = Hooks().with_pre_turn("logger", lambda ctx: print(ctx.prompt))

    An exception in a callback is a callback failure, and the point's rule applies (the
    library's): ``pre_tool_call_decide`` denies with ``hook '<name>' failed`` (fail closed);
    ``pre_turn``, ``on_interaction`` and observers list it in ``RunResult.errors`` and go on;
    a transform keeps the args. ``on_callback_error(exception, info)`` is told about each one.

    Every method may be called from any thread, concurrently, also from inside a callback.
    Callbacks run on the thread that calls ``run*``.
    """

    def __init__(self, *, on_callback_error: Optional[CallbackErrorHandler] = None) -> None:
        ptr = N.hl_registry_new()
        if not ptr:
            raise PanicError(Status.PANIC, "hl_registry_new failed to create a registry")
        self._life = Life(ptr, N.hl_registry_free, "registry")
        self._sink = ErrorSink(on_callback_error)
        self._finalizer = weakref.finalize(self, _free_registry, self._life)

    # ---------------------------------------------------------------- life

    def close(self) -> None:
        """Free the registry and release every callback. Waits for runs in progress on other
        threads (not when called from inside a callback). Idempotent."""
        self._finalizer.detach()
        if self._life.begin_close():
            self._life.end_close(wait=not in_callback())
        elif not in_callback():
            self._life.wait_freed()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._life.closed

    def __enter__(self) -> "Hooks":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------- registration

    def register(self, point: Union[HookPoint, int, str], name: str, fn: RawFn) -> "Hooks":
        """Register ``fn`` at ``point`` working on the raw context dict (wire JSON, snake_case);
        its return value is applied as for the typed forms. Returns the registry."""
        p = parse_point(point)
        if not callable(fn):
            raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"the callback for {name!r} must be callable")
        self._register(p, name, fn)
        return self

    def _register(self, point: int, name: str, fn: RawFn) -> None:
        cname = N.c_string(name, "name")
        label = _label(point)
        kind = _KIND.get(point, KIND_OBSERVER)  # type: ignore[call-overload]
        hid = add_handler(Handler(fn, kind, CallbackInfo(str(name), kind, label), self._sink))
        ptr = self._life.acquire()
        try:
            err = ctypes.c_void_p()
            st = N.hl_registry_register(ptr, point, cname, CALLBACK, hid, FREE, ctypes.byref(err))
            if st != 0:
                drop_handler(hid)  # a failed registration leaves user_data with us
            N.check(st, err)
        except BaseException:
            drop_handler(hid)
            raise
        finally:
            self._life.release()

    def unregister(self, point: Union[HookPoint, int, str], name: str) -> bool:
        """Remove the callback ``name`` at ``point``; False when there was none."""
        p = parse_point(point)
        cname = N.c_string(name, "name")
        ptr = self._life.acquire()
        try:
            err = ctypes.c_void_p()
            try:
                N.check(N.hl_registry_unregister(ptr, p, cname, ctypes.byref(err)), err)
            except NotFoundError:
                return False
            return True
        finally:
            self._life.release()

    def entries(self) -> List[HookEntry]:
        """Every registration, all points, in one global registration order."""
        ptr = self._life.acquire()
        try:
            out, err = ctypes.c_void_p(), ctypes.c_void_p()
            N.check(N.hl_registry_entries(ptr, ctypes.byref(out), ctypes.byref(err)), err)
            return [HookEntry(e["name"], e["point"], e["callback_id"]) for e in json.loads(N.take_bytes(out.value) or b"[]")]
        finally:
            self._life.release()

    def __len__(self) -> int:
        return len(self.entries())

    # The typed registrations: `@hooks.on_x("name")` decorates; `hooks.on_x("name", fn)`
    # registers and returns fn; `hooks.with_x("name", fn)` registers and returns the registry.

    def _typed(self, point: HookPoint, name: str, fn: Optional[F], wrap: Callable[[Any], RawFn]) -> Any:
        if fn is None:
            def decorate(f: F) -> F:
                self._register(point, name, wrap(f))
                return f

            return decorate
        self._register(point, name, wrap(fn))
        return fn

    @overload
    def on_pre_turn(self, name: str) -> Callable[[PreTurnFn], PreTurnFn]: ...
    @overload
    def on_pre_turn(self, name: str, fn: PreTurnFn) -> PreTurnFn: ...
    def on_pre_turn(self, name: str, fn: Optional[PreTurnFn] = None) -> Any:
        """``pre_turn`` (decide): the first deny blocks the prompt; a failure is listed and skipped."""
        return self._typed(HookPoint.PRE_TURN, name, fn, lambda f: lambda c: f(PreTurnContext.from_json(c)))

    @overload
    def on_post_turn(self, name: str) -> Callable[[PostTurnFn], PostTurnFn]: ...
    @overload
    def on_post_turn(self, name: str, fn: PostTurnFn) -> PostTurnFn: ...
    def on_post_turn(self, name: str, fn: Optional[PostTurnFn] = None) -> Any:
        """``post_turn`` observer (its return value is ignored)."""
        return self._typed(HookPoint.POST_TURN, name, fn, lambda f: lambda c: f(PostTurnContext.from_json(c)))

    @overload
    def on_pre_tool_call_decide(self, name: str) -> Callable[[DecideFn], DecideFn]: ...
    @overload
    def on_pre_tool_call_decide(self, name: str, fn: DecideFn) -> DecideFn: ...
    def on_pre_tool_call_decide(self, name: str, fn: Optional[DecideFn] = None) -> Any:
        """``pre_tool_call_decide``: the first deny blocks the tool call; ``modified_args`` merge
        into the args later callbacks see; a failure denies (``hook '<name>' failed``)."""
        return self._typed(
            HookPoint.PRE_TOOL_CALL_DECIDE, name, fn, lambda f: lambda c: f(PreToolCallDecideContext.from_json(c))
        )

    @overload
    def on_transform_tool_input(self, name: str) -> Callable[[TransformFn], TransformFn]: ...
    @overload
    def on_transform_tool_input(self, name: str, fn: TransformFn) -> TransformFn: ...
    def on_transform_tool_input(self, name: str, fn: Optional[TransformFn] = None) -> Any:
        """``transform_tool_input``: return the new tool args (``None`` keeps them); transforms
        chain; a failure keeps the args."""
        return self._typed(
            HookPoint.TRANSFORM_TOOL_INPUT, name, fn, lambda f: lambda c: f(PreToolCallDecideContext.from_json(c))
        )

    @overload
    def on_post_tool_call(self, name: str) -> Callable[[PostToolCallFn], PostToolCallFn]: ...
    @overload
    def on_post_tool_call(self, name: str, fn: PostToolCallFn) -> PostToolCallFn: ...
    def on_post_tool_call(self, name: str, fn: Optional[PostToolCallFn] = None) -> Any:
        """``post_tool_call`` observer."""
        return self._typed(HookPoint.POST_TOOL_CALL, name, fn, lambda f: lambda c: f(PostToolCallContext.from_json(c)))

    @overload
    def on_tool_error(self, name: str) -> Callable[[ToolErrorFn], ToolErrorFn]: ...
    @overload
    def on_tool_error(self, name: str, fn: ToolErrorFn) -> ToolErrorFn: ...
    def on_tool_error(self, name: str, fn: Optional[ToolErrorFn] = None) -> Any:
        """``on_tool_error`` observer."""
        return self._typed(HookPoint.ON_TOOL_ERROR, name, fn, lambda f: lambda c: f(ToolErrorContext.from_json(c)))

    @overload
    def on_session_start(self, name: str) -> Callable[[SessionFn], SessionFn]: ...
    @overload
    def on_session_start(self, name: str, fn: SessionFn) -> SessionFn: ...
    def on_session_start(self, name: str, fn: Optional[SessionFn] = None) -> Any:
        """``on_session_start`` observer."""
        return self._typed(HookPoint.ON_SESSION_START, name, fn, lambda f: lambda c: f(SessionContext.from_json(c)))

    @overload
    def on_session_end(self, name: str) -> Callable[[SessionFn], SessionFn]: ...
    @overload
    def on_session_end(self, name: str, fn: SessionFn) -> SessionFn: ...
    def on_session_end(self, name: str, fn: Optional[SessionFn] = None) -> Any:
        """``on_session_end`` observer."""
        return self._typed(HookPoint.ON_SESSION_END, name, fn, lambda f: lambda c: f(SessionContext.from_json(c)))

    @overload
    def on_compaction(self, name: str) -> Callable[[CompactionFn], CompactionFn]: ...
    @overload
    def on_compaction(self, name: str, fn: CompactionFn) -> CompactionFn: ...
    def on_compaction(self, name: str, fn: Optional[CompactionFn] = None) -> Any:
        """``on_compaction`` observer."""
        return self._typed(HookPoint.ON_COMPACTION, name, fn, lambda f: lambda c: f(CompactionContext.from_json(c)))

    @overload
    def on_interaction(self, name: str) -> Callable[[InteractionFn], InteractionFn]: ...
    @overload
    def on_interaction(self, name: str, fn: InteractionFn) -> InteractionFn: ...
    def on_interaction(self, name: str, fn: Optional[InteractionFn] = None) -> Any:
        """``on_interaction`` (decide): the first deny blocks; a failure never blocks."""
        return self._typed(HookPoint.ON_INTERACTION, name, fn, lambda f: lambda c: f(InteractionContext.from_json(c)))

    # Fluent forms (the seed's builder): register and return the registry.

    def with_pre_turn(self, name: str, fn: PreTurnFn) -> "Hooks":
        self.on_pre_turn(name, fn)
        return self

    def with_post_turn(self, name: str, fn: PostTurnFn) -> "Hooks":
        self.on_post_turn(name, fn)
        return self

    def with_pre_tool_call_decide(self, name: str, fn: DecideFn) -> "Hooks":
        self.on_pre_tool_call_decide(name, fn)
        return self

    def with_transform_tool_input(self, name: str, fn: TransformFn) -> "Hooks":
        self.on_transform_tool_input(name, fn)
        return self

    def with_post_tool_call(self, name: str, fn: PostToolCallFn) -> "Hooks":
        self.on_post_tool_call(name, fn)
        return self

    def with_tool_error(self, name: str, fn: ToolErrorFn) -> "Hooks":
        self.on_tool_error(name, fn)
        return self

    def with_session_start(self, name: str, fn: SessionFn) -> "Hooks":
        self.on_session_start(name, fn)
        return self

    def with_session_end(self, name: str, fn: SessionFn) -> "Hooks":
        self.on_session_end(name, fn)
        return self

    def with_compaction(self, name: str, fn: CompactionFn) -> "Hooks":
        self.on_compaction(name, fn)
        return self

    def with_interaction(self, name: str, fn: InteractionFn) -> "Hooks":
        self.on_interaction(name, fn)
        return self

    # ---------------------------------------------------------------- runs

    def run(self, point: Union[HookPoint, int, str], context: Union[Mapping[str, JSON], Context, None] = None) -> RunResult:
        """Run the callbacks at ``point`` with ``context`` (a context dataclass or the wire dict);
        the library validates it (a missing or mistyped field is InvalidArgumentError naming it)."""
        p = parse_point(point)
        if context is None:
            context = {}
        data = encode(context, "context")
        ptr = self._life.acquire()
        try:
            out, err = ctypes.c_void_p(), ctypes.c_void_p()
            N.check(N.hl_registry_run_brief(ptr, p, data, ctypes.byref(out), ctypes.byref(err)), err)
            if not out.value:
                return RunResult()  # allowed, nothing else to say: the library wrote no result
            return RunResult.from_json(json.loads(N.take_bytes(out.value) or b"{}"))
        finally:
            self._life.release()

    def run_pre_turn(self, ctx: PreTurnContext) -> RunResult:
        return self.run(HookPoint.PRE_TURN, ctx)

    def run_post_turn(self, ctx: PostTurnContext) -> RunResult:
        return self.run(HookPoint.POST_TURN, ctx)

    def run_pre_tool_call_decide(self, ctx: PreToolCallDecideContext) -> RunResult:
        return self.run(HookPoint.PRE_TOOL_CALL_DECIDE, ctx)

    def run_transform_tool_input(self, ctx: PreToolCallDecideContext) -> RunResult:
        """The transform chain; the result's ``tool_args`` are the final args."""
        return self.run(HookPoint.TRANSFORM_TOOL_INPUT, ctx)

    def run_post_tool_call(self, ctx: PostToolCallContext) -> RunResult:
        return self.run(HookPoint.POST_TOOL_CALL, ctx)

    def run_on_tool_error(self, ctx: ToolErrorContext) -> RunResult:
        return self.run(HookPoint.ON_TOOL_ERROR, ctx)

    def run_on_session_start(self, ctx: SessionContext) -> RunResult:
        return self.run(HookPoint.ON_SESSION_START, ctx)

    def run_on_session_end(self, ctx: SessionContext) -> RunResult:
        return self.run(HookPoint.ON_SESSION_END, ctx)

    def run_on_compaction(self, ctx: Optional[CompactionContext] = None) -> RunResult:
        return self.run(HookPoint.ON_COMPACTION, ctx or CompactionContext())

    def run_on_interaction(self, ctx: InteractionContext) -> RunResult:
        return self.run(HookPoint.ON_INTERACTION, ctx)


Registry = Hooks


def _free_registry(life: Life) -> None:
    """A registry collected, or still open at interpreter exit (atexit): free it, waiting for runs
    in flight on other threads, so that no callback enters Python while it finalizes."""
    if life.begin_close():
        life.end_close(wait=not in_callback())

