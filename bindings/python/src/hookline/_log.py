"""hookline's log messages (``hl_set_log_handler``)."""

from __future__ import annotations

import atexit
import threading
from typing import Callable, Optional

from . import _native as N

ERROR = 1
WARN = 2
INFO = 3
DEBUG = 4
TRACE = 5

LogHandler = Callable[[int, str], None]

_lock = threading.Lock()
_current: Optional[LogHandler] = None


def _trampoline(user_data: Optional[int], level: int, message: Optional[int]) -> None:
    fn = _current
    if fn is None:
        return
    try:
        fn(level, N.borrowed_str(message) or "")
    except BaseException:  # nothing may unwind into C
        pass


_LOG = N.LOG_FN(_trampoline)


def set_log_handler(handler: Optional[LogHandler], max_level: int = WARN) -> None:
    """Send hookline's log messages of level ``<= max_level`` (ERROR 1, WARN 2, INFO 3, DEBUG 4,
    TRACE 5) to ``handler(level, message)``; ``None`` restores the default (silent, or stderr as
    ``HOOKLINE_LOG`` says).

    The handler is called from any thread, concurrently, sometimes while hookline holds an
    internal lock: it must return promptly and must not call hookline (``logging`` is fine).
    """
    global _current
    with _lock:
        if handler is None:
            N.hl_set_log_handler(N.LOG_FN(), None, 0)
            _current = None
        else:
            _current = handler
            N.hl_set_log_handler(_LOG, None, int(max_level))


@atexit.register
def _reset() -> None:
    # No log call may reach Python while it finalizes.
    if _current is not None:
        set_log_handler(None)
