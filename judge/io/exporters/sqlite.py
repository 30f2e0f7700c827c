"""SQLite read model of one match (tables events, findings, penalties, matches; see
judge/readmodel.py). `tablejudge readmodel` builds the same file for the whole log."""
from __future__ import annotations

from engine.match import Match

from judge.io.files import atomic_path
from judge.io.readmodel import build

EXTENSION = "sqlite"


def export_match_to_path(match: Match, path: str) -> int:
    with atomic_path(path) as tmp:  # built beside the target, renamed onto it: never half a file
        summary = build(match.store, tmp, rebuild=True, only=[match.id])
    return summary["new_events"]
