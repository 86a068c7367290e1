"""Statuses and exceptions: every failure libhookline reports carries its ``hl_status``."""

from __future__ import annotations

import enum
from typing import Dict, Type


class Status(enum.IntEnum):
    """The ``hl_status`` values of the C ABI (``docs/c-api.md``, section 2)."""

    OK = 0
    NULL_ARGUMENT = 1
    INVALID_UTF8 = 2
    INVALID_JSON = 3
    INVALID_ARGUMENT = 4
    INVALID_CONFIG = 5
    NOT_FOUND = 6
    CANCELLED = 7
    WRONG_THREAD = 8
    CLOSED = 9
    IO = 10
    PANIC = 11
    FORKED = 12

    @property
    def code(self) -> str:
        """The C constant's name, e.g. ``"HL_ERR_INVALID_JSON"``."""
        return "HL_OK" if self is Status.OK else f"HL_ERR_{self.name}"


def status_code(status: int) -> str:
    """The C constant's name of any status number (``HL_STATUS_<n>`` when unknown)."""
    try:
        return Status(status).code
    except ValueError:
        return f"HL_STATUS_{status}"


class HooklineError(Exception):
    """A failure reported by libhookline (or refused by this binding before the call).

    ``status`` is the ``hl_status`` number, ``code`` its constant name (``"HL_ERR_INVALID_CONFIG"``)
    and ``message`` the library's human-readable message. Catch a subclass
    (:class:`InvalidConfigError`, ...) to test for one status.
    """

    status: int
    code: str
    message: str

    def __init__(self, status: int, message: str = "") -> None:
        self.status = int(status)
        self.code = status_code(self.status)
        self.message = message or self.code
        super().__init__(self.message)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}" if self.message != self.code else self.code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code}, {self.message!r})"


class NullArgumentError(HooklineError, TypeError):
    """``HL_ERR_NULL_ARGUMENT``: a required argument was missing (``None``)."""


class InvalidUtf8Error(HooklineError, ValueError):
    """``HL_ERR_INVALID_UTF8``: a string could not be encoded as UTF-8 (e.g. a lone surrogate)."""


class InvalidJsonError(HooklineError, ValueError):
    """``HL_ERR_INVALID_JSON``: JSON that does not parse, or is nested too deeply."""


class InvalidArgumentError(HooklineError, ValueError):
    """``HL_ERR_INVALID_ARGUMENT``: a value of the wrong shape; the message names the field."""


class InvalidConfigError(HooklineError, ValueError):
    """``HL_ERR_INVALID_CONFIG``: the hooks configuration is invalid; the message names the entry."""


class NotFoundError(HooklineError, LookupError):
    """``HL_ERR_NOT_FOUND``: no callback of that name, or no run with that id in flight."""


class RunCancelledError(HooklineError):
    """``HL_ERR_CANCELLED``: the run was cancelled."""


class WrongThreadError(HooklineError):
    """``HL_ERR_WRONG_THREAD``: a blocking run was started on a hookline thread.

    Inside a callback hook of an asynchronous run (or any hookline thread) use the ``*_async``
    methods from an event loop instead.
    """


class ClosedError(HooklineError):
    """``HL_ERR_CLOSED``: the engine or registry is closed (or was closed during the run)."""


class HooklineIOError(HooklineError):
    """``HL_ERR_IO``: a file (``hooks_file``, the trust store) could not be read or written."""


class PanicError(HooklineError):
    """``HL_ERR_PANIC``: an internal error of libhookline (a bug: please report it)."""


class ForkedError(HooklineError):
    """``HL_ERR_FORKED``: the engine was created before ``fork()`` and used in the child."""


_BY_STATUS: Dict[int, Type[HooklineError]] = {
    Status.NULL_ARGUMENT: NullArgumentError,
    Status.INVALID_UTF8: InvalidUtf8Error,
    Status.INVALID_JSON: InvalidJsonError,
    Status.INVALID_ARGUMENT: InvalidArgumentError,
    Status.INVALID_CONFIG: InvalidConfigError,
    Status.NOT_FOUND: NotFoundError,
    Status.CANCELLED: RunCancelledError,
    Status.WRONG_THREAD: WrongThreadError,
    Status.CLOSED: ClosedError,
    Status.IO: HooklineIOError,
    Status.PANIC: PanicError,
    Status.FORKED: ForkedError,
}


def error_for(status: int, message: str = "") -> HooklineError:
    """The exception for ``status``: its subclass, or :class:`HooklineError` for an unknown one."""
    return _BY_STATUS.get(status, HooklineError)(status, message)
