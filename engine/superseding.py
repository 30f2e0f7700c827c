"""Which correction a later correction of the same event overrules: the latest decides.

A leaf module (it reads only an event's `kind`, `payload` and `position`, and imports nothing of
the engine), so engine.desk, which engine.events imports, and engine.replacing share one rule.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def superseded(events: Sequence[Any]) -> dict[int, int]:
    """Each correction a later correction of the same event supersedes (the latest decides), with
    the position of the one that superseded it next."""
    last: dict[int, int] = {}
    out: dict[int, int] = {}
    for e in events:
        if e.kind == "correction":
            target = e.payload["voids"]
            if target in last:
                out[last[target]] = e.position
            last[target] = e.position
    return out
