"""Canonical JSON and hashing.

One byte-exact encoding is used for everything that is hashed (events, states), so that
"same log in, same state out" can be checked by comparing hashes.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS_HASH = "0" * 64

_encoder = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
)


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, UTF-8 kept as is, NaN refused."""
    return _encoder.encode(value)


def canonical_bytes(value: Any) -> bytes:
    return _encoder.encode(value).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
