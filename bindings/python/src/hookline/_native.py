"""Loading libhookline with ctypes, the C declarations (``include/hookline.h``) and the string and
status conventions of the C ABI.

Why ctypes: it is in the standard library (the package has no dependency), calls through a
``CDLL`` release the GIL for their whole duration (a blocking run, a close waiting for runs in
flight), and a ``CFUNCTYPE`` callback called from a thread Python has never seen (hookline's own
threads) takes the GIL itself (``PyGILState_Ensure``) before running Python code and releases it
when it returns. cffi's ABI mode would do the same with a dependency more.
"""

from __future__ import annotations

import ctypes
import os
import sys
from ctypes import (
    CFUNCTYPE,
    POINTER,
    byref,
    c_bool,
    c_char_p,
    c_int32,
    c_size_t,
    c_uint64,
    c_void_p,
)
from pathlib import Path
from typing import Any, List, Optional, Tuple

from ._errors import HooklineError, InvalidArgumentError, InvalidUtf8Error, Status, error_for

LIBRARY_FILE = {"darwin": "libhookline.dylib", "win32": "hookline.dll"}.get(sys.platform, "libhookline.so")
_PACKAGE_DIR = Path(__file__).resolve().parent


def _candidates() -> List[Tuple[str, Path]]:
    """Where the library may be, in the order tried."""
    found: List[Tuple[str, Path]] = []
    env = os.environ.get("HOOKLINE_LIB")
    if env:
        found.append(("HOOKLINE_LIB", Path(env)))
    # A wheel carries the library inside the package.
    found.append(("the package", _PACKAGE_DIR / LIBRARY_FILE))
    # Inside a hookline checkout (bindings/python/src/hookline): the checkout's release build.
    repo = _PACKAGE_DIR.parents[3] if len(_PACKAGE_DIR.parents) > 3 else None
    if repo is not None and (repo / "include" / "hookline.h").is_file():
        found.append(("the checkout", repo / "target" / "release" / LIBRARY_FILE))
    return found


def _load() -> Tuple[ctypes.CDLL, str]:
    tried = []
    for source, path in _candidates():
        if source != "HOOKLINE_LIB" and not path.is_file():
            tried.append(f"{path} ({source}: absent)")
            continue
        try:
            return ctypes.CDLL(str(path)), str(path)
        except OSError as e:
            if source == "HOOKLINE_LIB":
                raise ImportError(f"hookline: HOOKLINE_LIB={path} cannot be loaded: {e}") from e
            tried.append(f"{path} ({source}: {e})")
    raise ImportError(
        "hookline: no usable libhookline for this platform "
        f"({sys.platform}, {os.uname().machine if hasattr(os, 'uname') else '?'}); tried "
        + "; ".join(tried)
        + ". Install a hookline wheel built for this platform, or build the library from source "
        "(`cargo build --release` in the hookline repository) and set HOOKLINE_LIB to the path of "
        f"{LIBRARY_FILE}."
    )


lib, LIBRARY_PATH = _load()

# Callback types (section 4 of docs/c-api.md). Strings given to callbacks are read with
# ctypes.string_at (they are borrowed for the call), so they are declared as void pointers.
CALLBACK_FN = CFUNCTYPE(c_int32, c_void_p, c_void_p, c_size_t, c_void_p)
FREE_FN = CFUNCTYPE(None, c_void_p)
DONE_FN = CFUNCTYPE(None, c_void_p, c_int32, c_void_p, c_void_p)
LOG_FN = CFUNCTYPE(None, c_void_p, c_int32, c_void_p)

_out = POINTER(c_void_p)  # char ** / hl_engine ** out-parameters: kept as raw pointers
_P = c_void_p
_S = c_char_p


def _declare(name: str, restype: Any, *argtypes: Any) -> Any:
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


hl_version = _declare("hl_version", _S)
hl_status_name = _declare("hl_status_name", _S, c_int32)
hl_event_name = _declare("hl_event_name", _S, c_int32)
hl_point_name = _declare("hl_point_name", _S, c_int32)
hl_string_free = _declare("hl_string_free", None, _P)
hl_set_log_handler = _declare("hl_set_log_handler", None, LOG_FN, _P, c_int32)

hl_reply_set_json = _declare("hl_reply_set_json", c_int32, _P, _S, _out)
hl_reply_allow = _declare("hl_reply_allow", c_int32, _P)
hl_reply_deny = _declare("hl_reply_deny", c_int32, _P, _S)
hl_reply_fail = _declare("hl_reply_fail", c_int32, _P, _S)
hl_reply_defer = _declare("hl_reply_defer", c_int32, _P, _out, _out)
hl_deferred_finish = _declare("hl_deferred_finish", c_int32, _P, c_int32, _S, _out)

hl_registry_new = _declare("hl_registry_new", _P)
hl_registry_new_with_contract = _declare("hl_registry_new_with_contract", c_int32, c_int32, _out, _out)
hl_registry_free = _declare("hl_registry_free", None, _P)
hl_registry_register = _declare("hl_registry_register", c_int32, _P, c_int32, _S, CALLBACK_FN, _P, FREE_FN, _out)
hl_registry_unregister = _declare("hl_registry_unregister", c_int32, _P, c_int32, _S, _out)
hl_registry_run = _declare("hl_registry_run", c_int32, _P, c_int32, _S, _out, _out)
hl_registry_run_brief = _declare("hl_registry_run_brief", c_int32, _P, c_int32, _S, _out, _out)
hl_registry_entries = _declare("hl_registry_entries", c_int32, _P, _out, _out)

hl_engine_new = _declare("hl_engine_new", c_int32, _S, _out, _out)
hl_engine_free = _declare("hl_engine_free", None, _P)
hl_engine_run_async = _declare("hl_engine_run_async", c_int32, _P, c_int32, _S, DONE_FN, _P, POINTER(c_uint64), _out)
hl_engine_run_named = _declare("hl_engine_run_named", c_int32, _P, _S, _S, _out, _out)
hl_engine_run_named_async = _declare(
    "hl_engine_run_named_async", c_int32, _P, _S, _S, DONE_FN, _P, POINTER(c_uint64), _out
)
hl_engine_cancel = _declare("hl_engine_cancel", c_int32, _P, c_uint64, _out)
hl_engine_reserve_run = _declare("hl_engine_reserve_run", c_int32, _P, POINTER(c_uint64), _out)
hl_engine_run_reserved = _declare("hl_engine_run_reserved", c_int32, _P, c_uint64, c_int32, _S, _out, _out)
hl_engine_try_run_inline = _declare("hl_engine_try_run_inline", c_int32, _P, c_int32, _S, POINTER(c_bool), _out, _out)
hl_engine_add_callback_hook = _declare(
    "hl_engine_add_callback_hook", c_int32, _P, c_int32, _S, _S, CALLBACK_FN, _P, FREE_FN, _out
)
hl_engine_set_handler = _declare("hl_engine_set_handler", c_int32, _P, _S, CALLBACK_FN, _P, FREE_FN, _out)
hl_engine_reload = _declare("hl_engine_reload", c_int32, _P, _S, _out)
hl_engine_set_transcript_path = _declare("hl_engine_set_transcript_path", c_int32, _P, _S, _out)
hl_engine_transcript_path = _declare("hl_engine_transcript_path", c_int32, _P, _out, _out)
hl_engine_command_digest = _declare("hl_engine_command_digest", c_int32, _P, _out, _out)
hl_engine_command_previews = _declare("hl_engine_command_previews", c_int32, _P, _out, _out)
hl_engine_config_warnings = _declare("hl_engine_config_warnings", c_int32, _P, _out, _out)
hl_engine_approve_workspace_hooks = _declare("hl_engine_approve_workspace_hooks", c_int32, _P, c_bool, _out)
hl_engine_workspace_gated = _declare("hl_engine_workspace_gated", c_bool, _P)
hl_engine_workspace_hooks_need_approval = _declare("hl_engine_workspace_hooks_need_approval", c_bool, _P)


def take_bytes(ptr: Optional[int]) -> Optional[bytes]:
    """Copy a string hookline returned through a ``char **`` and free it (None for NULL)."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr)
    finally:
        hl_string_free(ptr)


def take_str(ptr: Optional[int]) -> Optional[str]:
    b = take_bytes(ptr)
    return None if b is None else b.decode("utf-8", "replace")


def check(status: int, err: c_void_p) -> None:
    """Raise the exception for a failed call, taking (and freeing) its message."""
    if status != 0:
        raise error_for(status, take_str(err.value) or "")


def borrowed_str(ptr: Optional[int]) -> Optional[str]:
    """A string borrowed for the duration of a callback (not freed)."""
    return None if not ptr else ctypes.string_at(ptr).decode("utf-8", "replace")


def c_string(value: Any, what: str, *, optional: bool = False) -> Optional[bytes]:
    """A Python string as the NUL-terminated UTF-8 a C parameter takes.

    ``None`` is NULL (which the library rejects with HL_ERR_NULL_ARGUMENT where a value is
    required, unless ``optional``). Refused here, because C would silently misread them: a string
    with a NUL character (C would cut it there) and one that is not valid Unicode text.
    """
    if value is None:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if isinstance(value, bytes):
        raw = value
    elif isinstance(value, str):
        try:
            raw = value.encode("utf-8")
        except UnicodeEncodeError as e:
            raise InvalidUtf8Error(Status.INVALID_UTF8, f"{what} is not valid UTF-8 text: {e.reason} at {e.start}") from None
    else:
        raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"{what} must be a string, got {type(value).__name__}")
    nul = raw.find(b"\0")
    if nul >= 0:
        raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"{what} contains a NUL character at byte {nul}")
    return raw


def version() -> str:
    """The version of the loaded library (``hl_version()``), e.g. ``"0.1.0"``."""
    v = hl_version()
    return v.decode() if v else ""


__all__ = [
    "CALLBACK_FN",
    "DONE_FN",
    "FREE_FN",
    "HooklineError",
    "LIBRARY_PATH",
    "LOG_FN",
    "borrowed_str",
    "byref",
    "c_string",
    "check",
    "lib",
    "take_bytes",
    "take_str",
    "version",
]
