"""Importers: turn a file into match events, all or nothing.

A format is a module in this package named after it (`jsonl`, `optcgsim`, `notation`, ...) with
`import_file(store, path, *, match=None, recorded_by=None) -> ImportSummary` (those that append to
an existing match also take `expect=N`: the log must still end at event N, else ConflictError). It
validates the whole
file first; on any problem it raises `engine.match.InputError` naming file, line and field, and
stores nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from judge.io import plugins


@dataclass
class ImportSummary:
    file: str
    match: str | None
    events: int
    created: bool = False
    findings: int | None = 0  # None: the import was stored, but judging it was interrupted
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def judged(self) -> bool:
        return self.findings is not None

    def to_dict(self) -> dict[str, Any]:
        d = {"file": self.file, "match": self.match, "events": self.events,
             "created": self.created, "findings": self.findings}
        d.update(self.extra)
        return d


def findings_after(store: Any, match_id: str, first_position: int) -> int | None:
    """How many findings (on events that still count) the events from `first_position` on raise:
    the ruleset's and the desk's (a ruling citing an unknown rule, a second time call: DESK-n), as
    `findings` shows them; an imported log is recorded whole, then judged whole.

    Called after an import was stored: a Ctrl-C here must not read as "the import failed", since it
    did not; None says "stored, not judged" and the CLI says so."""
    from engine.match import Match
    from judge.desk.review import review

    try:
        found = review(Match(store, match_id)).active_findings()
    except KeyboardInterrupt:
        return None
    return sum(1 for f in found if f.position >= first_position)


def formats() -> list[str]:
    return plugins.names(__path__)


def importer(fmt: str) -> ModuleType:
    return plugins.load(__name__, __path__, fmt, "import format")


def guess_format(path: str) -> str:
    lower = path.lower()
    if lower.endswith((".jsonl", ".ndjson", ".json")):
        return "jsonl"
    if lower.endswith(".log"):
        return "optcgsim"
    if lower.endswith((".txt", ".tjn")):
        return "notation"
    return "jsonl"
