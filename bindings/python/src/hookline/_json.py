"""JSON in and out of the C ABI."""

from __future__ import annotations

import json
import os
from typing import Any

from ._errors import InvalidArgumentError, Status

def _default(value: Any) -> Any:
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    raise TypeError(f"a {type(value).__name__} is not JSON")


_encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False, default=_default).encode


def encode(value: Any, what: str) -> bytes:
    """``value`` as compact JSON bytes for a ``const char *`` parameter.

    Refused with InvalidArgumentError naming ``what``: values that are not JSON (a set, an
    object, NaN). Path objects are written as their path. The text is ASCII (non-ASCII characters
    are escaped), so it never contains a NUL byte or invalid UTF-8; a lone surrogate becomes an
    escape the library rejects as invalid JSON.
    """
    try:
        return _encode(value).encode("ascii")
    except (TypeError, ValueError, RecursionError) as e:
        raise InvalidArgumentError(Status.INVALID_ARGUMENT, f"{what} is not JSON: {e}") from None


_decode = json.JSONDecoder().decode


def decode(data: bytes) -> Any:
    """JSON text from the library (always UTF-8: decoding it first skips json's encoding sniffing)."""
    return _decode(data.decode("utf-8", "replace"))
