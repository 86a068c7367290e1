"""JSON in and out of the C ABI."""

from __future__ import annotations

import json
import json.encoder
import os
from typing import Any, Callable

from ._errors import InvalidArgumentError, Status

def _default(value: Any) -> Any:
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    raise TypeError(f"a {type(value).__name__} is not JSON")


def _make_encoder() -> Callable[[Any], str]:
    """The compact, ASCII-only, NaN-refusing encoder, made once. ``JSONEncoder.encode`` builds a
    new C encoder on every call (about half the cost of encoding a small object): where CPython
    has its C encoder, it is built here once and reused. Cycles are not tracked (a cyclic value
    fails with RecursionError, reported like any value that is not JSON)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # an interpreter without the C accelerator
        return json.JSONEncoder(separators=(",", ":"), allow_nan=False, default=_default).encode
    c_encode = make(None, _default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, False)
    encode_str = json.encoder.encode_basestring_ascii

    def encode(value: Any) -> str:
        if isinstance(value, str):
            return encode_str(value)
        return "".join(c_encode(value, 0))

    return encode


_encode = _make_encoder()


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
