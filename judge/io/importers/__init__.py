"""Importers: turn a file into match events, all or nothing.

A format is a module in this package named after it (`jsonl`, `optcgsim`, `notation`, ...) with
`import_file(store, path, *, match=None, recorded_by=None) -> ImportSummary` (those that append to
an existing match also take `expect=N`: the log must still end at event N, else ConflictError). It
validates the whole
file first; on any problem it raises `engine.match.InputError` naming file, line and field, and
stores nothing.
"""
from __future__ import annotations

import re
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


SNIFF_BYTES = 4096  # a file's start, enough for the lines each format opens with
SNIFF_LINES = 30
# An OPTCGSim log opens with session lines, `Version is`, `[player] Leader is`, or RZ1 lines (a
# Unity Player.log's `[ReplaySync] RZ1|` too: the importer refuses it as what it is).
OPTCGSIM_START = re.compile(r"RZ1\||Version is \S|Waiting for a Connection|Attempting to connect to|"
                            r"\[[^\]]*\]\s*(?:Leader is |RZ1\|)")
NOTATION_TAG = re.compile(r'\[[A-Za-z]+\s+"')  # [Ruleset "optcg"], [Event "..."]
SNIFFED = ("optcgsim", "jsonl", "notation")  # what sniff() can tell apart


def sniff(path: str) -> str | None:
    """The format a file's first lines show, or None when they show none: a log saved as .txt or
    with no extension is still read as what it is."""
    from judge.io.text import utf16

    try:
        with open(path, "rb") as f:
            raw = f.read(SNIFF_BYTES)
    except OSError:
        return None  # the importer says why it cannot be read
    text = raw.decode(utf16(raw) or "utf-8", "replace").lstrip("\ufeff")
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()][:SNIFF_LINES]
    if not lines:
        return None
    if lines[0].startswith("{"):
        return "jsonl"
    if NOTATION_TAG.match(lines[0]):
        return "notation"
    if any(OPTCGSIM_START.match(ln) for ln in lines):
        return "optcgsim"
    return None


def by_extension(path: str) -> str:
    lower = path.lower()
    if lower.endswith((".jsonl", ".ndjson", ".json")):
        return "jsonl"
    if lower.endswith(".log"):
        return "optcgsim"
    if lower.endswith((".txt", ".tjn")):
        return "notation"
    return "jsonl"


def guess_format(path: str) -> str:
    """The format a file is read as without --format: what its content shows, else its extension."""
    return sniff(path) or by_extension(path)


def unsure_hint(path: str) -> str:
    """Said with a refusal of a file whose format was only guessed from its name."""
    return (f" (read as {by_extension(path)} by its name: its first lines look like none of "
            f"{', '.join(SNIFFED)}; if it is one of them, say which with --format)")
