"""Where a match's log already holds a file's events (`import FILE --match M`, see _tail.py): the
file's events as one run anywhere in the log, and the file's first events that the log ends with.

What is compared is the log's events less its off-table events (engine.desk.OFF_TABLE_KINDS: judge
calls, rulings, notes, the clock, corrections, ...) that the file has none of: a judge called to
the table between an import and the next one, or during the game the file records, is the desk's
to record, not the file's to write, and it does not make the file's events another history. An
off-table event the file does have (the same kind, actor and payload: its notes, its round start)
stays in the comparison, so the file's own notes must be where it says; the game's events always
stay. Leaving out a fixed set of the log's events keeps the search exact and linear (below); what
it misses (the file's very note also written elsewhere in the log, between its events) is
appended or asked about, never dropped.

Each event is compared as a whole export's re-import compares it (_resume.first_difference: kind,
version, actor, payload, and the envelope fields and hash a JSONL line gives). To stay linear on a
long log (20,000 events, a 2,000-line file) the search runs Knuth-Morris-Pratt over a key of each
event (kind, version, actor, canonical payload), which two events the comparison calls the same
always share; a run the key finds is then compared in full (for a notation file, which gives no
envelope fields, the key is the whole comparison, so that is confirmed at once).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.canonical import canonical_json
from engine.desk import OFF_TABLE_KINDS
from engine.events import Draft, RecordedEvent

from judge.io.importers._resume import first_difference


@dataclass(frozen=True)
class Held:
    whole: list[RecordedEvent] | None  # the log's events that are all of the file's (the latest such run)
    at_end: bool  # `whole` is at the log's end (off-table events after it aside)
    start: list[RecordedEvent]  # the largest run at the log's end that is the file's first events


def held(log: list[RecordedEvent], drafts: list[Draft], given: list[dict[str, Any]],
         hashes: list[str | None]) -> Held:
    """Where `log` (a match's events, in order) holds the file's events (`drafts`, with `given`:
    its lines as read, and the hashes they give), see the module's docstring."""
    pattern = [_key(d) for d in drafts]
    theirs = set(pattern)
    seen: list[RecordedEvent] = []
    keys: list[tuple[str, int, str, str]] = []
    for event in log:
        k = _key(event)
        if event.kind not in OFF_TABLE_KINDS or k in theirs:
            seen.append(event)
            keys.append(k)
    border = _borders(pattern)
    ends: list[int] = []  # where a run of the file's events ends in `seen`, by key
    q = 0  # how many of the file's first events the events seen so far end with (by key)
    for i, k in enumerate(keys):
        while q and pattern[q] != k:
            q = border[q - 1]
        if pattern[q] == k:
            q += 1
        if q == len(pattern):
            ends.append(i + 1)
            q = border[q - 1]
    m = len(drafts)
    whole = next((seen[end - m:end] for end in reversed(ends)
                  if first_difference(seen[end - m:end], drafts, given, hashes) is None), None)
    while q and first_difference(seen[len(seen) - q:], drafts[:q], given[:q], hashes[:q]) is not None:
        q = border[q - 1]  # the next shorter start the log ends with, by key
    return Held(whole=whole, at_end=whole is not None and whole[-1] is seen[-1],
                start=seen[len(seen) - q:] if q else [])


def _key(event: Draft | RecordedEvent) -> tuple[str, int, str, str]:
    return event.kind, event.version, event.actor, canonical_json(event.payload)


def _borders(pattern: list[tuple[str, int, str, str]]) -> list[int]:
    """border[i]: the length of the longest proper prefix of pattern[:i + 1] that is also its
    suffix (KMP's failure function: where a search resumes after a mismatch, or after a match)."""
    border = [0] * len(pattern)
    q = 0
    for i in range(1, len(pattern)):
        while q and pattern[q] != pattern[i]:
            q = border[q - 1]
        if pattern[q] == pattern[i]:
            q += 1
        border[i] = q
    return border
