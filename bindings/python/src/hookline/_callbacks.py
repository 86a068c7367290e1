"""The process-wide trampolines and the life of C handles.

Three ctypes callbacks exist for the life of the process (the callback, its finalizer and the
asynchronous ``done``); every Python callback and every pending run is an entry in a dict keyed
by an integer that travels through ``user_data``. hookline calls ``free_user_data`` exactly once
per registration, which removes the entry, so nothing outlives its registration.

GIL: the trampolines are ``CFUNCTYPE`` functions, so a call from any thread (a host thread in a
blocking run, or one of hookline's own threads) takes the GIL before any Python code runs and
releases it on return; every call into the library releases the GIL while it runs (``CDLL``).
So hookline threads waiting for Python callbacks never deadlock with a Python thread waiting for
hookline.
"""

from __future__ import annotations

import asyncio
import ctypes
import inspect
import itertools
import threading
from typing import Any, Callable, Dict, Optional, Tuple

from . import _native as N
from ._json import decode, encode
from ._errors import ClosedError, HooklineError, Status
from ._types import HookResult, JsonReply

# What a Python callback is, for applying its return value.
KIND_DECIDE = "decide"
KIND_OBSERVER = "observer"
KIND_TRANSFORM = "transform"
KIND_HOOK = "hook"  # an engine callback hook
KIND_HANDLER = "handler"  # a prompt/agent/mcp_tool handler (hl_engine_set_handler)

CallbackErrorHandler = Callable[[BaseException, "CallbackInfo"], None]


class CallbackInfo:
    """Where a failing callback was registered: ``name`` and ``kind`` (``"decide"``,
    ``"observer"``, ``"transform"`` for registry callbacks, ``"hook"`` for engine callback hooks)."""

    __slots__ = ("name", "kind", "where")

    def __init__(self, name: str, kind: str, where: str) -> None:
        self.name = name
        self.kind = kind
        self.where = where

    def __repr__(self) -> str:
        return f"CallbackInfo(name={self.name!r}, kind={self.kind!r}, where={self.where!r})"


class Handler:
    __slots__ = ("fn", "kind", "info", "on_error", "encode", "loop")

    def __init__(
        self,
        fn: Callable[..., Any],
        kind: str,
        info: CallbackInfo,
        on_error: "ErrorSink",
        encode: Optional[Callable[[Any], Any]] = None,
        loop: Optional[asyncio.AbstractEventLoop] = None,
    ) -> None:
        self.fn = fn
        self.kind = kind
        self.info = info
        self.on_error = on_error
        # Handlers (KIND_HANDLER): the reply JSON of a return value, and the event loop that
        # runs a coroutine handler (its reply is deferred: the hookline thread is not held).
        self.encode = encode
        self.loop = loop


class ErrorSink:
    """The ``on_callback_error`` handler of an engine or registry (replaceable, e.g. by reload)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Optional[CallbackErrorHandler]) -> None:
        self.fn = fn

    def report(self, error: BaseException, info: CallbackInfo) -> None:
        fn = self.fn
        if fn is None:
            return
        try:
            fn(error, info)
        except BaseException:  # an error handler that fails must not become a second failure
            pass


_handlers: Dict[int, Handler] = {}
_ids = itertools.count(1)
_tls = threading.local()


def in_callback() -> bool:
    """Whether this thread is inside a hookline callback (or a ``done``)."""
    return getattr(_tls, "depth", 0) > 0


def add_handler(handler: Handler) -> int:
    hid = next(_ids)
    _handlers[hid] = handler
    return hid


def drop_handler(hid: int) -> None:
    """Forget a handler whose registration failed (hookline will not free it)."""
    _handlers.pop(hid, None)


def handler_count() -> int:
    """Live callback registrations (for leak tests)."""
    return len(_handlers)


def _set_json(reply: int, value: Any) -> None:
    err = ctypes.c_void_p()
    N.check(N.hl_reply_set_json(reply, encode(value, "the callback's reply"), ctypes.byref(err)), err)


def _apply(kind: str, reply: int, result: Any) -> None:
    """Turn a Python callback's return value into one of the three reply calls (the library
    decides what each means at its point or event)."""
    if kind == KIND_OBSERVER or result is None:
        return  # observers' replies are ignored; None is "no opinion" everywhere
    if isinstance(result, HookResult):
        if kind == KIND_DECIDE and (result.modified_args is not None or (result.allow and result.message)):
            _set_json(reply, result.to_json())
        elif result.modified_args is not None:
            raise TypeError("modified_args only applies to pre_tool_call_decide callbacks of a registry")
        elif result.allow:
            N.hl_reply_allow(reply)
        else:
            N.hl_reply_deny(reply, N.c_string(result.message, "deny message"))
        return
    if isinstance(result, JsonReply):
        _set_json(reply, result.value)
        return
    if isinstance(result, bool) and kind != KIND_TRANSFORM:
        if result:
            N.hl_reply_allow(reply)
        else:
            N.hl_reply_deny(reply, b"")
        return
    if inspect.isawaitable(result):
        if inspect.iscoroutine(result):
            result.close()
        raise TypeError("hookline callbacks are synchronous (hookline waits for their reply): do not return an awaitable")
    _set_json(reply, result)


def failure_reason(error: BaseException) -> bytes:
    """What hookline is told about a failed callback: the exception's text (its class name when the
    text is empty), as UTF-8 (unencodable characters replaced)."""
    try:
        text = str(error)
    except BaseException:  # noqa: B036 - a broken __str__ must not become a second failure
        text = ""
    return (text or type(error).__name__).encode("utf-8", "replace").replace(b"\0", b" ")


def _fail(reply: int, error: BaseException) -> None:
    """Tell hookline why the callback failed (hl_reply_fail); the callback then returns 1."""
    try:
        N.hl_reply_fail(reply, failure_reason(error))
    except BaseException:  # noqa: B036 - nothing may unwind into C
        pass


def _finish_deferred(handler: Handler, deferred: int, future: "Any") -> None:
    """Give a coroutine handler's reply (or its failure and reason) to hookline, from the loop's
    thread."""
    rc, text = 1, None
    try:
        assert handler.encode is not None
        text = encode(handler.encode(future.result()), "the handler's reply")
        rc = 0
    except BaseException as e:  # noqa: B036 - a failed handler is a non-zero reply, never an unwind
        text = failure_reason(e)
        if not (isinstance(e, asyncio.CancelledError)):
            handler.on_error.report(e, handler.info)
    N.hl_deferred_finish(deferred, rc, text, None)


def _apply_handler(handler: Handler, reply: int, result: Any) -> None:
    """A handler's return value: its reply now, or (an awaitable) a deferred reply."""
    assert handler.encode is not None
    if not inspect.isawaitable(result):
        _set_json(reply, handler.encode(result))
        return
    loop = handler.loop
    if loop is None or loop.is_closed():
        if inspect.iscoroutine(result):
            result.close()
        raise TypeError("a coroutine handler needs the event loop it was set from (set it inside a running loop)")
    deferred = ctypes.c_void_p()
    err = ctypes.c_void_p()
    N.check(N.hl_reply_defer(reply, ctypes.byref(deferred), ctypes.byref(err)), err)
    handle = deferred.value or 0

    async def run() -> Any:
        return await result

    future = asyncio.run_coroutine_threadsafe(run(), loop)
    future.add_done_callback(lambda f: _finish_deferred(handler, handle, f))


def _callback(user_data: Optional[int], context: Optional[int], length: int, reply: Optional[int]) -> int:
    handler = _handlers.get(user_data or 0)
    if handler is None or not context or not reply:
        return 1
    _tls.depth = getattr(_tls, "depth", 0) + 1
    try:
        ctx = decode(ctypes.string_at(context, length))
        if handler.kind == KIND_HANDLER:
            _apply_handler(handler, reply, handler.fn(ctx))
        else:
            _apply(handler.kind, reply, handler.fn(ctx))
        return 0
    except BaseException as e:  # noqa: B036 - nothing may unwind into C; a failure is non-zero
        _fail(reply, e)
        handler.on_error.report(e, handler.info)
        return 1
    finally:
        _tls.depth -= 1


def _free(user_data: Optional[int]) -> None:
    _handlers.pop(user_data or 0, None)


# ------------------------------------------------------------------------- asynchronous runs


RunResultTuple = Tuple[int, Optional[bytes], str]  # (status, outcome JSON, error message)


class PendingRun:
    """An asynchronous run waiting for its ``done``: ``deliver(result)`` is called once, on the
    hookline thread that runs ``done`` (it must only hand the result over)."""

    __slots__ = ("deliver",)

    def __init__(self, deliver: Callable[[RunResultTuple], None]) -> None:
        self.deliver = deliver


def future_run(loop: asyncio.AbstractEventLoop, future: "asyncio.Future[RunResultTuple]") -> PendingRun:
    """A pending run settling ``future`` on its event loop's thread."""

    def deliver(result: RunResultTuple) -> None:
        loop.call_soon_threadsafe(_settle, future, result)

    return PendingRun(deliver)


_runs: Dict[int, PendingRun] = {}


def add_run(run: PendingRun) -> int:
    rid = next(_ids)
    _runs[rid] = run
    return rid


def remove_run(rid: int) -> None:
    _runs.pop(rid, None)


def pending_run_count() -> int:
    """Pending asynchronous runs (for leak tests)."""
    return len(_runs)


def _settle(future: "asyncio.Future[RunResultTuple]", result: RunResultTuple) -> None:
    if not future.done():
        future.set_result(result)


def _done(user_data: Optional[int], status: int, outcome: Optional[int], errmsg: Optional[int]) -> None:
    run = _runs.pop(user_data or 0, None)
    if run is None:
        return
    _tls.depth = getattr(_tls, "depth", 0) + 1
    try:
        # Both strings are borrowed for this call only: copy them.
        run.deliver((status, ctypes.string_at(outcome) if outcome else None, N.borrowed_str(errmsg) or ""))
    except BaseException:  # e.g. the event loop is closed: nobody waits for this run any more
        pass
    finally:
        _tls.depth -= 1


CALLBACK = N.CALLBACK_FN(_callback)
FREE = N.FREE_FN(_free)
DONE = N.DONE_FN(_done)


# ------------------------------------------------------------------------- handle life


class Life:
    """Guards a C handle against use after free without holding a lock across C calls (callbacks
    may re-enter the binding from inside one). ``refs`` is 1 (the owner's, dropped by close) plus
    one per call in progress; whoever drops the last reference frees the handle."""

    __slots__ = ("_lock", "_refs", "closed", "_freed", "_free", "ptr", "what")

    def __init__(self, ptr: int, free: Callable[[int], None], what: str) -> None:
        self._lock = threading.Lock()
        self._refs = 1
        self.closed = False
        self._freed = threading.Event()
        self._free = free
        self.ptr = ptr
        self.what = what

    def acquire(self) -> int:
        """Take a reference for one call and return the handle; ClosedError once closing."""
        with self._lock:
            if self.closed:
                raise ClosedError(Status.CLOSED, f"the {self.what} is closed")
            self._refs += 1
        return self.ptr

    def release(self) -> None:
        with self._lock:
            self._refs -= 1
            last = self._refs == 0
        if last:
            try:
                self._free(self.ptr)
            finally:
                self._freed.set()

    def begin_close(self) -> bool:
        """Mark the handle closing (no new call starts); False if it already was."""
        with self._lock:
            if self.closed:
                return False
            self.closed = True
            return True

    def end_close(self, wait: bool) -> None:
        """Drop the owner's reference (call once, after begin_close returned True) and wait until
        the handle is freed, unless ``wait`` is false."""
        self.release()
        if wait:
            self._freed.wait()

    def wait_freed(self) -> None:
        self._freed.wait()


def closed_error(label: str) -> HooklineError:
    return ClosedError(Status.CLOSED, f"{label} run interrupted: engine closed")
