"""``hl_engine``: configured shell hooks and host callback hooks at the lifecycle events."""

from __future__ import annotations

import asyncio
import ctypes
import os
import threading
import weakref
from ctypes import byref, c_bool, c_uint64, c_void_p
from typing import Any, Callable, Dict, List, Mapping, Optional, Type, TypeVar, Union, cast, overload

from . import _native as N
from ._callbacks import (
    CALLBACK,
    DONE,
    FREE,
    KIND_HANDLER,
    KIND_HOOK,
    CallbackErrorHandler,
    CallbackInfo,
    ErrorSink,
    Handler,
    Life,
    PendingRun,
    future_run,
    add_handler,
    add_run,
    closed_error,
    drop_handler,
    in_callback,
    remove_run,
)
from ._errors import HooklineError, InvalidArgumentError, NotFoundError, Status, error_for
from ._json import decode, encode
from ._types import (
    EngineOptions,
    JSON,
    OUTCOME_CLASS,
    CommandPreview,
    HookEvent,
    HookResult,
    JsonReply,
    McpReply,
    McpRequest,
    ModelReply,
    ModelRequest,
    Outcome,
    PermissionRequestOutcome,
    PostToolUseOutcome,
    PreToolUseOutcome,
    SessionStartOutcome,
    StopOutcome,
    UserPromptSubmitOutcome,
    parse_event,
)

O = TypeVar("O", bound=Outcome)
EventLike = Union[HookEvent, int, str]

HookReply = Union[HookResult, JsonReply, Mapping[str, JSON], str, bool, None]
"""What an engine callback hook returns: a dict (read as the JSON a command prints on stdout),
``HookResult.allow()`` (PreToolUse ``permissionDecision: "allow"``), ``HookResult.deny(msg)``
(exit code 2 with ``msg`` on stderr), a str (plain stdout text), ``JsonReply(value)``, or
``None`` (exit 0, no output). An exception is exit code 1."""

HookFn = Callable[[Dict[str, JSON]], HookReply]
H = TypeVar("H", bound=HookFn)

# Outcomes no hook contributed to (every list empty, no object inside), kept by their exact text:
# the outcome of a run that matches no hook is the same text every time for an event, and it is
# the common case on the path of every tool call. A hit costs a dict lookup and a shallow copy
# instead of a JSON parse.
_EMPTY_OUTCOMES: Dict[bytes, Dict[str, JSON]] = {}
_EMPTY_OUTCOMES_MAX = 32


def _outcome(cls: Type[O], data: Optional[bytes]) -> O:
    if data:
        template = _EMPTY_OUTCOMES.get(data)
        if template is not None:
            return cast(O, cls.from_json({k: [] if v == [] else v for k, v in template.items()}))
    d = decode(data) if data else {}
    if not isinstance(d, dict):
        raise HooklineError(Status.PANIC, f"the library returned an outcome that is not an object: {d!r}")
    if (
        data
        and not d.get("hooks")
        and len(_EMPTY_OUTCOMES) < _EMPTY_OUTCOMES_MAX
        and all(v == [] or not isinstance(v, (list, dict)) for v in d.values())
    ):
        _EMPTY_OUTCOMES[data] = dict(d)
    return cast(O, cls.from_json(d))


def _with_extra(fields: Dict[str, JSON], extra: Optional[Mapping[str, JSON]]) -> Dict[str, JSON]:
    """The input dict: the typed fields, plus the pass-through ``extra`` fields they do not name
    (a typed field wins over an ``extra`` field of the same name)."""
    if extra:
        for k, v in extra.items():
            fields.setdefault(k, v)
    return fields


def _put(d: Dict[str, JSON], key: str, value: JSON) -> None:
    if value is not None:
        d[key] = value


class Engine:
    """A lifecycle-hook engine: the configured shell hooks of one workspace and session, and the
    callback hooks the host adds, run at the twelve lifecycle events.

    ``options`` is the options object of ``hl_engine_new`` (``docs/protocol.md`` section 7), keys
    as documented there: ``workspace`` and ``session_id`` are required; ``hooks`` (a dict),
    ``hooks_toml`` or ``hooks_file``, ``workspace_gated``, ``trigger``, ``transcript_path``,
    ``trust_store``, ``env``, ``env_remove``, ``max_output_bytes``, ``hook_sources``, ...; path
    values may be ``pathlib.Path``. Every field is validated by the library (a wrong one raises
    :class:`InvalidArgumentError` or :class:`InvalidConfigError` naming it).

    Runs: one method per event, blocking (``engine.pre_tool_use(tool_name=...)``) or for asyncio
    (``await engine.pre_tool_use_async(...)``; cancelling the task cancels the run and kills its
    hook processes). A run that no hook matches is answered in place, without a thread hand-off.
    Blocking runs execute on the calling thread (so do their callback hooks); asynchronous runs
    on hookline's threads. ``close()`` (or leaving a ``with`` / ``async with`` block) cancels the
    runs in flight; they raise :class:`ClosedError`.

    ``on_callback_error(exception, info)`` is told about every exception raised by a callback
    hook (which hookline counts as exit code 1).
    """

    def __init__(self, options: Union[EngineOptions, Mapping[str, Any]], *, on_callback_error: Optional[CallbackErrorHandler] = None) -> None:
        if not isinstance(options, Mapping):
            raise InvalidArgumentError(
                Status.INVALID_ARGUMENT, f"engine options must be a dict, got {type(options).__name__}"
            )
        data = encode(dict(options), "options")
        out, err = c_void_p(), c_void_p()
        N.check(N.hl_engine_new(data, byref(out), byref(err)), err)
        self._life = Life(cast(int, out.value), N.hl_engine_free, "engine")
        self._sink = ErrorSink(on_callback_error)
        self._lock = threading.Lock()
        self._reserved: Dict[int, int] = {}  # blocking runs in progress -> their thread (close cancels them)
        self._finalizer = weakref.finalize(self, _finalize_engine, self._life, self._lock, self._reserved)

    # ---------------------------------------------------------------- life

    def close(self) -> None:
        """Free the engine: no new run starts; runs in flight are cancelled (their processes are
        killed, and they raise :class:`ClosedError`); returns once every pending run has ended and
        every callback hook has been released (from inside a callback it does not wait).
        Idempotent."""
        self._finalizer.detach()
        _close_engine(self._life, self._lock, self._reserved, not in_callback())

    async def aclose(self) -> None:
        """:meth:`close` on a worker thread, so that the event loop keeps running meanwhile."""
        await asyncio.get_running_loop().run_in_executor(None, self.close)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._life.closed

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> "Engine":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ---------------------------------------------------------------- generic runs

    def run(self, event: EventLike, input: Optional[Mapping[str, JSON]] = None) -> Outcome:
        """Run ``event`` (a :class:`HookEvent`, ``"PreToolUse"`` or ``"pre_tool_use"``) with
        ``input`` (the wire dict, ``docs/protocol.md`` section 3) on the calling thread; returns
        the event's outcome class."""
        ev = parse_event(event)
        return self._run_sync(ev, encode({} if input is None else input, "input"), OUTCOME_CLASS.get(ev, Outcome))

    async def run_async(self, event: EventLike, input: Optional[Mapping[str, JSON]] = None) -> Outcome:
        """:meth:`run` for asyncio: the hooks run on hookline's threads; cancelling the task
        cancels the run (``hl_engine_cancel``) and raises ``asyncio.CancelledError`` once the
        run has ended."""
        ev = parse_event(event)
        data = encode({} if input is None else input, "input")
        return await self._run_async(ev, None, data, OUTCOME_CLASS.get(ev, Outcome))

    def run_named(self, name: str, input: Optional[Mapping[str, JSON]] = None) -> Outcome:
        """Fire an event by its config key (``hl_engine_run_named``): the twelve known events keep
        their rules; any other key (``"PostCompact"``, ``"Setup"``, events Claude Code adds later)
        runs that key's hooks with observer rules, matched against ``input["matcher_value"]``.

        It waits for an asynchronous run (the C ABI has no cancellable blocking named run), so
        :meth:`close` from another thread cancels it and its callback hooks run on hookline's
        threads; called inside a hookline callback it runs as a blocking call on that thread.
        """
        cname = N.c_string(name, "event name")
        data = encode({} if input is None else input, "input")
        cls = _named_class(name)
        if in_callback():
            ptr = self._life.acquire()
            try:
                out, err = c_void_p(), c_void_p()
                st = N.hl_engine_run_named(ptr, cname, data, byref(out), byref(err))
                self._raise_for(st, err, name)
                return _outcome(cls, N.take_bytes(out.value))
            finally:
                self._life.release()
        return self._wait(cname, data, cls, name)

    async def run_named_async(self, name: str, input: Optional[Mapping[str, JSON]] = None) -> Outcome:
        """:meth:`run_named` for asyncio (cancelling the task cancels the run)."""
        cname = N.c_string(name, "event name")
        data = encode({} if input is None else input, "input")
        return await self._run_async(None, cname, data, _named_class(name))

    # ---------------------------------------------------------------- the machinery

    def _raise_for(self, status: int, err: c_void_p, label: str) -> None:
        if status == 0:
            return
        message = N.take_str(err.value) or ""
        if status == Status.CANCELLED and self._life.closed:
            raise closed_error(label)
        raise error_for(status, message)

    def _run_sync(self, ev: int, data: bytes, cls: Type[O]) -> O:
        label = _event_label(ev)
        ptr = self._life.acquire()
        try:
            out, err = c_void_p(), c_void_p()
            ran = c_bool()
            # A run that no hook matches is answered in place.
            N.check(N.hl_engine_try_run_inline(ptr, ev, data, byref(ran), byref(out), byref(err)), err)
            if ran.value:
                return _outcome(cls, N.take_bytes(out.value))
            # Otherwise a reserved blocking run, so that close() can cancel it from another thread.
            rid = c_uint64()
            N.check(N.hl_engine_reserve_run(ptr, byref(rid), byref(err)), err)
            run_id = rid.value
            with self._lock:
                self._reserved[run_id] = threading.get_ident()
                closing = self._life.closed
            if closing:  # close() began before it could see this reservation
                N.hl_engine_cancel(ptr, run_id, None)
            try:
                st = N.hl_engine_run_reserved(ptr, run_id, ev, data, byref(out), byref(err))
            finally:
                with self._lock:
                    self._reserved.pop(run_id, None)
            self._raise_for(st, err, label)
            return _outcome(cls, N.take_bytes(out.value))
        finally:
            self._life.release()

    def _start(self, ev: Optional[int], cname: Optional[bytes], data: bytes, rid: int, run_id: c_uint64) -> None:
        """Start an asynchronous run whose ``done`` settles pending run ``rid``."""
        ptr = self._life.acquire()
        try:
            err = c_void_p()
            try:
                if ev is not None:
                    st = N.hl_engine_run_async(ptr, ev, data, DONE, rid, byref(run_id), byref(err))
                else:
                    st = N.hl_engine_run_named_async(ptr, cname, data, DONE, rid, byref(run_id), byref(err))
            except BaseException:
                remove_run(rid)
                raise
            if st != 0:
                remove_run(rid)  # `done` is never called for a refused run
                N.check(st, err)
        finally:
            self._life.release()

    def _cancel(self, run_id: int) -> None:
        try:
            ptr = self._life.acquire()
        except HooklineError:
            return  # closing: close() cancels every run itself
        try:
            err = c_void_p()
            try:
                N.check(N.hl_engine_cancel(ptr, run_id, byref(err)), err)
            except NotFoundError:
                pass  # the run has finished: its result is on its way
        finally:
            self._life.release()

    def _finish(self, result: Any, cls: Type[O], label: str) -> O:
        status, outcome, errmsg = result
        if status == 0:
            return _outcome(cls, outcome)
        if status == Status.CANCELLED and self._life.closed:
            raise closed_error(label)
        raise error_for(status, errmsg)

    async def _run_async(self, ev: Optional[int], cname: Optional[bytes], data: bytes, cls: Type[O]) -> O:
        label = _event_label(ev) if ev is not None else (cname or b"").decode()
        if ev is not None:
            ptr = self._life.acquire()
            try:
                out, err = c_void_p(), c_void_p()
                ran = c_bool()
                N.check(N.hl_engine_try_run_inline(ptr, ev, data, byref(ran), byref(out), byref(err)), err)
                if ran.value:
                    return _outcome(cls, N.take_bytes(out.value))
            finally:
                self._life.release()
        loop = asyncio.get_running_loop()
        future: "asyncio.Future[Any]" = loop.create_future()
        rid = add_run(future_run(loop, future))
        run_id = c_uint64()
        self._start(ev, cname, data, rid, run_id)
        try:
            result = await asyncio.shield(future)
        except asyncio.CancelledError:
            # The task was cancelled: cancel the run (its processes are killed) and wait until
            # it has ended, so that nothing of it is left when the cancellation propagates.
            self._cancel(run_id.value)
            while not future.done():
                try:
                    await asyncio.shield(future)
                except asyncio.CancelledError:
                    pass
            raise
        return self._finish(result, cls, label)

    def _wait(self, cname: Optional[bytes], data: bytes, cls: Type[O], label: str) -> O:
        """A named run started asynchronously and waited for on this thread (Ctrl-C cancels it)."""
        done = threading.Event()
        box: List[Any] = []

        def deliver(result: Any) -> None:
            box.append(result)
            done.set()

        rid = add_run(PendingRun(deliver))
        run_id = c_uint64()
        self._start(None, cname, data, rid, run_id)
        try:
            done.wait()
        except BaseException:
            self._cancel(run_id.value)
            done.wait()
            raise
        return self._finish(box[0], cls, label)

    # ---------------------------------------------------------------- callback hooks

    @overload
    def add_callback_hook(self, event: EventLike, name: str, *, matcher: Optional[str] = None) -> Callable[[H], H]: ...
    @overload
    def add_callback_hook(self, event: EventLike, name: str, fn: H, *, matcher: Optional[str] = None) -> H: ...
    @overload
    def add_callback_hook(self, event: EventLike, matcher: Optional[str], name: str) -> Callable[[H], H]: ...
    @overload
    def add_callback_hook(self, event: EventLike, matcher: Optional[str], name: str, fn: H) -> H: ...
    def add_callback_hook(
        self,
        event: EventLike,
        *args: Any,
        name: Optional[str] = None,
        fn: Optional[HookFn] = None,
        matcher: Optional[str] = None,
    ) -> Any:
        """Add a host function that runs at ``event`` after the configured hooks, in the order
        added (``hl_engine_add_callback_hook``); usable as a decorator::

            @engine.add_callback_hook("PreToolUse", "Edit", "policy")
            def policy(payload: dict) -> HookReply: ...

        The arguments come in the C function's order, as in the Go and Node bindings:
        ``add_callback_hook(event, matcher, name, fn)`` (``matcher`` may be ``None``). The
        earlier order ``add_callback_hook(event, name, fn, matcher=...)`` keeps working: two
        strings after the event are (matcher, name), one string is the name.

        ``fn(payload)`` receives the payload dict a command reads on stdin and returns what a
        command would print (see :data:`HookReply`). ``matcher`` follows the Claude Code rule
        (``None``, ``""`` and ``"*"`` match all). Adding an existing (event, name) replaces it in
        place. A callback hook is host code: no timeout, never gated.
        """
        ev = parse_event(event)
        if name is not None or fn is not None:
            # Keywords name the earlier order's parameters: (event, name, fn, matcher=).
            rest = list(args)
            if name is None and rest:
                name = rest.pop(0)
            if fn is None and rest:
                fn = rest.pop(0)
            if rest:
                raise TypeError("add_callback_hook(event, name, fn, matcher=): too many arguments")
        elif len(args) >= 2 and (isinstance(args[1], str) or (args[0] is None and len(args) == 3)):
            # (event, matcher, name[, fn]): the C order.
            if matcher is not None or len(args) > 3:
                raise TypeError("add_callback_hook(event, matcher, name, fn): too many arguments")
            matcher, name, fn = args[0], args[1], (args[2] if len(args) == 3 else None)
        elif 1 <= len(args) <= 2:
            # (event, name[, fn], matcher=...): the earlier order.
            name, fn = args[0], (args[1] if len(args) == 2 else None)
        else:
            raise TypeError("add_callback_hook(event, matcher, name, fn) takes 2 or 3 arguments after the event")
        hook_name: str = name  # type: ignore[assignment]  # checked by the library (a str, not blank)
        if fn is None:
            def decorate(f: H) -> H:
                self._add_callback_hook(ev, hook_name, f, matcher)
                return f

            return decorate
        self._add_callback_hook(ev, hook_name, fn, matcher)
        return fn

    def _add_callback_hook(self, ev: int, name: str, fn: HookFn, matcher: Optional[str]) -> None:
        if not callable(fn):
            raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"the callback hook {name!r} must be callable")
        cname = N.c_string(name, "name")
        cmatcher = N.c_string(matcher, "matcher")
        hid = add_handler(Handler(fn, KIND_HOOK, CallbackInfo(str(name), KIND_HOOK, _event_label(ev)), self._sink))
        try:
            ptr = self._life.acquire()
            try:
                err = c_void_p()
                st = N.hl_engine_add_callback_hook(ptr, ev, cmatcher, cname, CALLBACK, hid, FREE, byref(err))
                if st != 0:
                    drop_handler(hid)  # a failed registration leaves user_data with us
                N.check(st, err)
            finally:
                self._life.release()
        except BaseException:
            drop_handler(hid)
            raise

    # ---------------------------------------------------------------- configuration and gate

    def reload(self, options: Mapping[str, Any], *, on_callback_error: Optional[CallbackErrorHandler] = None) -> None:
        """Swap in a whole new set of options (as for the constructor). A failure changes
        nothing; runs in flight finish with the configuration they started with. The approval
        carries over only when the command digest is unchanged."""
        if not isinstance(options, Mapping):
            raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"engine options must be a dict, got {type(options).__name__}")
        data = encode(dict(options), "options")
        self._call(lambda ptr, err: N.hl_engine_reload(ptr, data, err))
        if on_callback_error is not None:
            self._sink.fn = on_callback_error

    def set_transcript_path(self, path: Union[str, "os.PathLike[str]", None]) -> None:
        """Set (or clear, with None) the session transcript path given to hooks."""
        cpath = N.c_string(path, "transcript path")
        self._call(lambda ptr, err: N.hl_engine_set_transcript_path(ptr, cpath, err))

    @property
    def transcript_path(self) -> Optional[str]:
        """The current transcript path, or None."""
        return self._call_out(N.hl_engine_transcript_path)

    def digest(self) -> str:
        """The lowercase hex SHA-256 of the configured command set (what an approval covers)."""
        return self._call_out(N.hl_engine_command_digest) or ""

    def previews(self) -> List[CommandPreview]:
        """The commands the digest covers, in digest order: show them before :meth:`approve`."""
        text = self._call_out(N.hl_engine_command_previews) or "[]"
        return [CommandPreview.from_json(p) for p in decode(text.encode())]

    def config_warnings(self) -> List[Dict[str, str]]:
        """The entries of the hooks configuration that were skipped the way the agent skips them
        (a malformed entry or an unknown handler type in a Claude Code settings file does not
        reject the file; every other hook loads): ``[{"path": ..., "message": ...}]``."""
        text = self._call_out(N.hl_engine_config_warnings) or "[]"
        return [{"path": str(w["path"]), "message": str(w["message"])} for w in decode(text.encode())]

    def approve(self, persist: bool = False) -> None:
        """Approve the current command set; ``persist`` also records it in the trust store, so
        later engines for this workspace and these commands start approved."""
        self._call(lambda ptr, err: N.hl_engine_approve_workspace_hooks(ptr, bool(persist), err))

    @property
    def needs_approval(self) -> bool:
        """True when the engine is gated, has commands, and their digest is not approved."""
        return self._call_bool(N.hl_engine_workspace_hooks_need_approval)

    @property
    def workspace_gated(self) -> bool:
        """Whether the engine was created with ``workspace_gated: true``."""
        return self._call_bool(N.hl_engine_workspace_gated)

    def _call(self, fn: Callable[[int, Any], int]) -> None:
        ptr = self._life.acquire()
        try:
            err = c_void_p()
            N.check(fn(ptr, byref(err)), err)
        finally:
            self._life.release()

    def _call_out(self, fn: Any) -> Optional[str]:
        ptr = self._life.acquire()
        try:
            out, err = c_void_p(), c_void_p()
            N.check(fn(ptr, byref(out), byref(err)), err)
            return N.take_str(out.value)
        finally:
            self._life.release()

    def _call_bool(self, fn: Any) -> bool:
        try:
            ptr = self._life.acquire()
        except HooklineError:
            return False  # as the C functions answer for NULL
        try:
            return bool(fn(ptr))
        finally:
            self._life.release()

    # ---------------------------------------------------------------- the events
    # Required fields are the seed method's parameters; the library validates every value.
    # `extra` holds pass-through fields (e.g. `permission_mode`), added to the payload unchanged.

    def session_start(self, *, extra: Optional[Mapping[str, JSON]] = None) -> SessionStartOutcome:
        """SessionStart (its source is the engine's ``trigger`` option)."""
        return self._run_sync(HookEvent.SESSION_START, encode(_with_extra({}, extra), "input"), SessionStartOutcome)

    async def session_start_async(self, *, extra: Optional[Mapping[str, JSON]] = None) -> SessionStartOutcome:
        return await self._run_async(HookEvent.SESSION_START, None, encode(_with_extra({}, extra), "input"), SessionStartOutcome)

    @staticmethod
    def _session_end(turn_id: str, reason: str, extra: Optional[Mapping[str, JSON]]) -> bytes:
        return encode(_with_extra({"turn_id": turn_id, "reason": reason}, extra), "input")

    def session_end(self, *, turn_id: str, reason: str, extra: Optional[Mapping[str, JSON]] = None) -> Outcome:
        """SessionEnd; ``reason`` is ``completed``, ``exit``, ``cancelled``, ``error`` or ``new_session``."""
        return self._run_sync(HookEvent.SESSION_END, self._session_end(turn_id, reason, extra), Outcome)

    async def session_end_async(self, *, turn_id: str, reason: str, extra: Optional[Mapping[str, JSON]] = None) -> Outcome:
        return await self._run_async(HookEvent.SESSION_END, None, self._session_end(turn_id, reason, extra), Outcome)

    @staticmethod
    def _subagent(
        parent_session_id: str,
        child_thread_id: str,
        agent_name: str,
        display_label: str,
        background: bool,
        status: str,
        transcript_path: Optional[str],
        extra: Optional[Mapping[str, JSON]],
    ) -> bytes:
        d: Dict[str, JSON] = {
            "parent_session_id": parent_session_id,
            "child_thread_id": child_thread_id,
            "agent_name": agent_name,
            "display_label": display_label,
            "background": background,
            "status": status,
        }
        _put(d, "transcript_path", transcript_path)
        return encode(_with_extra(d, extra), "input")

    def subagent_start(
        self,
        *,
        parent_session_id: str,
        child_thread_id: str,
        agent_name: str,
        display_label: str,
        background: bool,
        status: str,
        transcript_path: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> Outcome:
        """SubagentStart (matched against ``agent_name``)."""
        data = self._subagent(parent_session_id, child_thread_id, agent_name, display_label, background, status, transcript_path, extra)
        return self._run_sync(HookEvent.SUBAGENT_START, data, Outcome)

    async def subagent_start_async(
        self,
        *,
        parent_session_id: str,
        child_thread_id: str,
        agent_name: str,
        display_label: str,
        background: bool,
        status: str,
        transcript_path: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> Outcome:
        data = self._subagent(parent_session_id, child_thread_id, agent_name, display_label, background, status, transcript_path, extra)
        return await self._run_async(HookEvent.SUBAGENT_START, None, data, Outcome)

    def subagent_stop(
        self,
        *,
        parent_session_id: str,
        child_thread_id: str,
        agent_name: str,
        display_label: str,
        background: bool,
        status: str,
        transcript_path: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> StopOutcome:
        """SubagentStop (the Claude Code profile lets it block: ``block_reason``)."""
        data = self._subagent(parent_session_id, child_thread_id, agent_name, display_label, background, status, transcript_path, extra)
        return self._run_sync(HookEvent.SUBAGENT_STOP, data, StopOutcome)

    async def subagent_stop_async(
        self,
        *,
        parent_session_id: str,
        child_thread_id: str,
        agent_name: str,
        display_label: str,
        background: bool,
        status: str,
        transcript_path: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> StopOutcome:
        data = self._subagent(parent_session_id, child_thread_id, agent_name, display_label, background, status, transcript_path, extra)
        return await self._run_async(HookEvent.SUBAGENT_STOP, None, data, StopOutcome)

    @staticmethod
    def _user_prompt_submit(turn_id: str, prompt: str, extra: Optional[Mapping[str, JSON]]) -> bytes:
        return encode(_with_extra({"turn_id": turn_id, "prompt": prompt}, extra), "input")

    def user_prompt_submit(self, *, turn_id: str, prompt: str, extra: Optional[Mapping[str, JSON]] = None) -> UserPromptSubmitOutcome:
        """UserPromptSubmit: ``allow_prompt`` false means the prompt must not be sent."""
        return self._run_sync(HookEvent.USER_PROMPT_SUBMIT, self._user_prompt_submit(turn_id, prompt, extra), UserPromptSubmitOutcome)

    async def user_prompt_submit_async(
        self, *, turn_id: str, prompt: str, extra: Optional[Mapping[str, JSON]] = None
    ) -> UserPromptSubmitOutcome:
        data = self._user_prompt_submit(turn_id, prompt, extra)
        return await self._run_async(HookEvent.USER_PROMPT_SUBMIT, None, data, UserPromptSubmitOutcome)

    @staticmethod
    def _tool(
        tool_name: str, tool_input: Optional[Mapping[str, JSON]], tool_call_id: Optional[str], extra: Optional[Mapping[str, JSON]], **more: JSON
    ) -> Dict[str, JSON]:
        d: Dict[str, JSON] = {"tool_name": tool_name}
        _put(d, "tool_input", tool_input)
        _put(d, "tool_call_id", tool_call_id)
        d.update(more)
        return _with_extra(d, extra)

    def pre_tool_use(
        self,
        *,
        tool_name: str,
        tool_input: Optional[Mapping[str, JSON]] = None,
        tool_call_id: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> PreToolUseOutcome:
        """PreToolUse: ``decision`` (``continue``/``allow``/``deny``/``ask``), ``reason``,
        ``updated_input`` (the rewritten tool input to use, when a hook gave one)."""
        data = encode(self._tool(tool_name, tool_input, tool_call_id, extra), "input")
        return self._run_sync(HookEvent.PRE_TOOL_USE, data, PreToolUseOutcome)

    async def pre_tool_use_async(
        self,
        *,
        tool_name: str,
        tool_input: Optional[Mapping[str, JSON]] = None,
        tool_call_id: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> PreToolUseOutcome:
        data = encode(self._tool(tool_name, tool_input, tool_call_id, extra), "input")
        return await self._run_async(HookEvent.PRE_TOOL_USE, None, data, PreToolUseOutcome)

    def post_tool_use(
        self,
        *,
        tool_name: str,
        tool_response: JSON,
        tool_input: Optional[Mapping[str, JSON]] = None,
        tool_call_id: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> PostToolUseOutcome:
        """PostToolUse: ``block_reason`` is feedback for the model."""
        data = encode(self._tool(tool_name, tool_input, tool_call_id, extra, tool_response=tool_response), "input")
        return self._run_sync(HookEvent.POST_TOOL_USE, data, PostToolUseOutcome)

    async def post_tool_use_async(
        self,
        *,
        tool_name: str,
        tool_response: JSON,
        tool_input: Optional[Mapping[str, JSON]] = None,
        tool_call_id: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> PostToolUseOutcome:
        data = encode(self._tool(tool_name, tool_input, tool_call_id, extra, tool_response=tool_response), "input")
        return await self._run_async(HookEvent.POST_TOOL_USE, None, data, PostToolUseOutcome)

    def post_tool_use_failure(
        self,
        *,
        tool_name: str,
        error: str,
        tool_input: Optional[Mapping[str, JSON]] = None,
        tool_call_id: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> PostToolUseOutcome:
        """PostToolUseFailure (a tool call that failed with ``error``)."""
        data = encode(self._tool(tool_name, tool_input, tool_call_id, extra, error=error), "input")
        return self._run_sync(HookEvent.POST_TOOL_USE_FAILURE, data, PostToolUseOutcome)

    async def post_tool_use_failure_async(
        self,
        *,
        tool_name: str,
        error: str,
        tool_input: Optional[Mapping[str, JSON]] = None,
        tool_call_id: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> PostToolUseOutcome:
        data = encode(self._tool(tool_name, tool_input, tool_call_id, extra, error=error), "input")
        return await self._run_async(HookEvent.POST_TOOL_USE_FAILURE, None, data, PostToolUseOutcome)

    @staticmethod
    def _permission(
        tool_name: str,
        permission_request: Mapping[str, JSON],
        tool_input: Optional[Mapping[str, JSON]],
        permission_suggestions: Optional[List[JSON]],
        extra: Optional[Mapping[str, JSON]],
    ) -> bytes:
        d = Engine._tool(tool_name, tool_input, None, None, permission_request=permission_request)
        _put(d, "permission_suggestions", permission_suggestions)
        return encode(_with_extra(d, extra), "input")

    def permission_request(
        self,
        *,
        tool_name: str,
        permission_request: Mapping[str, JSON],
        tool_input: Optional[Mapping[str, JSON]] = None,
        permission_suggestions: Optional[List[JSON]] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> PermissionRequestOutcome:
        """PermissionRequest: ``decision`` is None when no hook decided."""
        data = self._permission(tool_name, permission_request, tool_input, permission_suggestions, extra)
        return self._run_sync(HookEvent.PERMISSION_REQUEST, data, PermissionRequestOutcome)

    async def permission_request_async(
        self,
        *,
        tool_name: str,
        permission_request: Mapping[str, JSON],
        tool_input: Optional[Mapping[str, JSON]] = None,
        permission_suggestions: Optional[List[JSON]] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> PermissionRequestOutcome:
        data = self._permission(tool_name, permission_request, tool_input, permission_suggestions, extra)
        return await self._run_async(HookEvent.PERMISSION_REQUEST, None, data, PermissionRequestOutcome)

    @staticmethod
    def _pre_compact(
        trigger: str,
        mode: str,
        original_message_count: int,
        compacted_message_count: int,
        history_artifact_path: Optional[str],
        extra: Optional[Mapping[str, JSON]],
    ) -> bytes:
        d: Dict[str, JSON] = {
            "trigger": trigger,
            "mode": mode,
            "original_message_count": original_message_count,
            "compacted_message_count": compacted_message_count,
        }
        _put(d, "history_artifact_path", history_artifact_path)
        return encode(_with_extra(d, extra), "input")

    def pre_compact(
        self,
        *,
        trigger: str,
        mode: str,
        original_message_count: int,
        compacted_message_count: int,
        history_artifact_path: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> StopOutcome:
        """PreCompact; ``trigger`` ``manual``/``auto``/``recovery``/``model_switch``/``unknown``,
        ``mode`` ``provider``/``local``/``unknown`` (the Claude Code profile lets it block)."""
        data = self._pre_compact(trigger, mode, original_message_count, compacted_message_count, history_artifact_path, extra)
        return self._run_sync(HookEvent.PRE_COMPACT, data, StopOutcome)

    async def pre_compact_async(
        self,
        *,
        trigger: str,
        mode: str,
        original_message_count: int,
        compacted_message_count: int,
        history_artifact_path: Optional[str] = None,
        extra: Optional[Mapping[str, JSON]] = None,
    ) -> StopOutcome:
        data = self._pre_compact(trigger, mode, original_message_count, compacted_message_count, history_artifact_path, extra)
        return await self._run_async(HookEvent.PRE_COMPACT, None, data, StopOutcome)

    @staticmethod
    def _stop(last_assistant_message: str, stop_hook_active: bool, extra: Optional[Mapping[str, JSON]]) -> bytes:
        d: Dict[str, JSON] = {"last_assistant_message": last_assistant_message, "stop_hook_active": stop_hook_active}
        return encode(_with_extra(d, extra), "input")

    def stop(self, *, last_assistant_message: str, stop_hook_active: bool, extra: Optional[Mapping[str, JSON]] = None) -> StopOutcome:
        """Stop: ``block_reason`` set means the agent must keep working (it is the next instruction)."""
        return self._run_sync(HookEvent.STOP, self._stop(last_assistant_message, stop_hook_active, extra), StopOutcome)

    async def stop_async(
        self, *, last_assistant_message: str, stop_hook_active: bool, extra: Optional[Mapping[str, JSON]] = None
    ) -> StopOutcome:
        return await self._run_async(HookEvent.STOP, None, self._stop(last_assistant_message, stop_hook_active, extra), StopOutcome)

    @staticmethod
    def _notification(notification_type: str, title: str, message: str, extra: Optional[Mapping[str, JSON]]) -> bytes:
        d: Dict[str, JSON] = {"notification_type": notification_type, "title": title, "message": message}
        return encode(_with_extra(d, extra), "input")

    def notification(self, *, notification_type: str, title: str, message: str, extra: Optional[Mapping[str, JSON]] = None) -> Outcome:
        """Notification (``notification_type`` is free text: ``permission_prompt``, ``idle_prompt``, ...)."""
        return self._run_sync(HookEvent.NOTIFICATION, self._notification(notification_type, title, message, extra), Outcome)

    async def notification_async(
        self, *, notification_type: str, title: str, message: str, extra: Optional[Mapping[str, JSON]] = None
    ) -> Outcome:
        data = self._notification(notification_type, title, message, extra)
        return await self._run_async(HookEvent.NOTIFICATION, None, data, Outcome)

    # ---------------------------------------------------------------- host handlers

    def set_model_handler(self, fn: Optional[ModelHandler]) -> None:
        """Set the handler that answers ``prompt`` and ``agent`` hooks (None removes it).
        ``fn(request)`` receives a :class:`ModelRequest` and returns a :class:`ModelReply` (or a
        dict ``{"ok", "reason", "impossible"}``); an ``async def`` handler is run on the event
        loop it was set from, and the hook waits for it without holding a hookline thread busy
        (until the hook's timeout). An exception is a failed handler (a non-blocking error
        unless the hook is ``failClosed``). Without a handler such hooks are reported with
        ``failure: "no_handler"``."""
        self._set_handler("prompt", fn, _model_request, _model_reply)
        self._set_handler("agent", fn, _model_request, _model_reply)

    def set_mcp_handler(self, fn: Optional[McpHandler]) -> None:
        """Set the handler that answers ``mcp_tool`` hooks (None removes it). ``fn(request)``
        receives an :class:`McpRequest` and returns the tool's text (a str), an
        :class:`McpReply`, or an MCP ``CallToolResult`` dict (``{"content": [...], "isError"}``);
        ``async def`` handlers as for :meth:`set_model_handler`."""
        self._set_handler("mcp_tool", fn, _mcp_request, _mcp_reply)

    def _set_handler(
        self, handler_type: str, fn: Optional[Callable[[Any], Any]], request: Callable[[Any], Any], reply: Callable[[Any], Any]
    ) -> None:
        ctype = N.c_string(handler_type, "handler type")
        if fn is None:
            self._call(lambda ptr, err: N.hl_engine_set_handler(ptr, ctype, N.CALLBACK_FN(), None, N.FREE_FN(), err))
            return
        if not callable(fn):
            raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"the {handler_type} handler must be callable or None")
        try:
            loop: Optional[asyncio.AbstractEventLoop] = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        handler = fn

        def call(payload: Any) -> Any:
            return handler(request(payload))

        info = CallbackInfo(handler_type, KIND_HANDLER, "handler")
        hid = add_handler(Handler(call, KIND_HANDLER, info, self._sink, encode=reply, loop=loop))
        try:
            ptr = self._life.acquire()
            try:
                err = c_void_p()
                st = N.hl_engine_set_handler(ptr, ctype, CALLBACK, hid, FREE, byref(err))
                if st != 0:
                    drop_handler(hid)  # a failed registration leaves user_data with us
                N.check(st, err)
            finally:
                self._life.release()
        except BaseException:
            drop_handler(hid)
            raise


ModelHandler = Callable[[ModelRequest], Any]
"""A model handler: ``ModelRequest`` in, a ``ModelReply`` (or an awaitable of one) out."""
McpHandler = Callable[[McpRequest], Any]
"""An MCP handler: ``McpRequest`` in, the tool's text, an ``McpReply`` or a ``CallToolResult`` dict
(or an awaitable of one) out."""


def _model_request(payload: Any) -> ModelRequest:
    if not isinstance(payload, Mapping):
        raise TypeError("a model request must be a JSON object")
    return ModelRequest.from_json(payload)


def _mcp_request(payload: Any) -> McpRequest:
    if not isinstance(payload, Mapping):
        raise TypeError("an MCP request must be a JSON object")
    return McpRequest.from_json(payload)


def _model_reply(v: Any) -> Dict[str, JSON]:
    if isinstance(v, ModelReply):
        return v.to_json()
    if isinstance(v, Mapping) and "ok" in v:
        return ModelReply(bool(v["ok"]), v.get("reason"), bool(v.get("impossible", False))).to_json()
    raise TypeError(f"a model handler must return a ModelReply or a dict with `ok`, got {type(v).__name__}")


def _mcp_reply(v: Any) -> Dict[str, JSON]:
    if isinstance(v, str):
        return McpReply(v).to_json()
    if v is None:
        return {"content": []}
    if isinstance(v, McpReply):
        return v.to_json()
    if isinstance(v, Mapping) and isinstance(v.get("content"), list):
        return {"content": cast(JSON, v["content"]), "isError": bool(v.get("isError", False))}
    raise TypeError(f"an MCP handler must return a str, an McpReply or a CallToolResult dict, got {type(v).__name__}")


def _event_label(ev: int) -> str:
    try:
        return HookEvent(ev).event_name
    except ValueError:
        return f"hl_event({ev})"


_NAMED_CLASS = {e.event_name: OUTCOME_CLASS[e] for e in HookEvent}


def _named_class(name: str) -> Type[Outcome]:
    return cast(Type[Outcome], _NAMED_CLASS.get(name, Outcome))


def _finalize_engine(life: Life, lock: threading.Lock, reserved: Dict[int, int]) -> None:
    """An engine collected, or still open at interpreter exit (weakref.finalize runs then, from
    atexit): close it and wait until it is freed, so that no hookline thread calls into Python
    after this point (a thread taking the GIL while the interpreter finalizes is ended with
    pthread_exit, which must never unwind through the library's frames)."""
    _close_engine(life, lock, reserved, not in_callback())


def _close_engine(life: Life, lock: threading.Lock, reserved: Dict[int, int], wait: bool) -> None:
    if life.begin_close():
        # The owner's reference still keeps the handle alive: cancel the blocking runs in
        # progress on other threads (the library's free cancels the asynchronous ones). A run of
        # this thread is on the stack below the callback that closes: it finishes normally.
        me = threading.get_ident()
        with lock:
            ids = [run_id for run_id, thread in reserved.items() if thread != me]
        for run_id in ids:
            N.hl_engine_cancel(life.ptr, run_id, None)
        life.end_close(wait)
    elif wait:
        life.wait_freed()

