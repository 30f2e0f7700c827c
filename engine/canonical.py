"""Canonical JSON and hashing.

One byte-exact encoding is used for everything that is hashed (events, states), so that
"same log in, same state out" can be checked by comparing hashes.
"""
from __future__ import annotations

import hashlib
import json
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

GENESIS_HASH = "0" * 64

_encoder = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
)


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# The same encoding through the C encoder made once: JSONEncoder.encode builds a new one per call,
# which is most of the cost of sealing an event (a hot path of every append and import).
# `"".join(c_encode(value, 0))` is canonical_json of a dict or list (None where json has no C
# encoder); engine/events.py calls it directly for each event's payload.
c_encode = (c_make_encoder(None, _not_json, encode_basestring, None, ":", ",", True, False, False)
             if c_make_encoder is not None else None)


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, UTF-8 kept as is, NaN refused."""
    if c_encode is not None and isinstance(value, (dict, list)):
        return "".join(c_encode(value, 0))
    return _encoder.encode(value)


def canonical_bytes(value: Any) -> bytes:
    return canonical_json(value).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
