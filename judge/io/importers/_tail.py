"""A file appended to an existing match (`import FILE --match M`: a notation file's body, JSONL lines
without `match.created`) compared with the match's last events, so that importing it twice does
not store its events twice. Used by notation.py and jsonl.py.

The file carries no position and no match head, so what it continues is only a guess from its
content (kind, version, actor, payload: _resume.py's comparison, the one a whole export's re-import
uses; times and recorders only where a JSONL line gives them):
- the match ends with all of the file's events: "already in the log", nothing stored. The same
  actions may truly have happened twice, so `again` appends them anyway.
- the match ends with the file's first K events (K >= 2, the largest such K): the file grew since
  an earlier import of its start (a scorekeeper adding to the same file). Refused, nothing stored,
  unless `resume` (append only the rest) or `again` (append all of it) says which: a wrong guess
  either way would store events that only a correction can take back, in a log that keeps both.
  One shared event is a coincidence too often (a `note`, one more DON!! attached) to be asked about.
- otherwise: appended.
A file that says where it goes is not guessed about (`placed`): `--expect N` (the writer saw the log
end at event N), or JSONL lines that carry their positions (checked to follow on from the log's end).
"""
from __future__ import annotations

from typing import Any

from engine.events import Draft, RecordedEvent
from engine.match import InputError
from engine.store import EventStore, HashMismatch
from engine.words import plural

from judge.io.importers import ImportSummary, findings_after
from judge.io.importers._resume import first_difference

ASKED_FROM = 2  # the shortest overlap that refuses without --resume/--again (see above)


def onto_tail(store: EventStore, path: str, match: str, head: int, drafts: list[Draft], *,
              given: list[dict[str, Any]] | None = None, expected_hashes: list[str | None] | None = None,
              line_of: dict[int, int] | None = None, again: bool = False, resume: bool = False,
              placed: bool = False, judge: bool = True) -> ImportSummary:
    """Append `drafts` (the file's events; `given`: its lines as read, `line_of`: the line of the
    event that would be at each position) after event `head` of `match`, unless the match already
    ends with them (see the module's docstring; `again` wins over `resume`)."""
    hashes = expected_hashes or [None] * len(drafts)
    skip = 0
    if not again and not placed and drafts:
        tail = store.read(match, after=max(0, head - len(drafts)))
        held = overlap(tail, drafts, given or [{}] * len(drafts), hashes)
        if held == len(drafts):
            return ImportSummary(file=path, match=match, events=0, created=False, findings=0,
                                 extra={"status": "already in the log", "already_in_log": held,
                                        "tail": True})
        if resume and not held:
            raise InputError(f"--resume: match {match} does not end with this file's first event; "
                             "nothing stored (without --resume the whole file is appended)",
                             where=path, field="resume")
        if held >= ASKED_FROM and not resume:
            raise InputError(
                f"match {match} ends with this file's first {held} events (imported before, from a "
                f"shorter version of this file?): --resume appends only the other "
                f"{plural(len(drafts) - held, 'event')}, --again all {len(drafts)} (if they truly "
                f"happened again); --expect N (the last event you saw) places it exactly; nothing stored",
                where=path, field="match")
        skip = held if resume else 0
    try:
        events = store.append(match, drafts[skip:], expected_position=head, expected_hashes=hashes[skip:])
    except HashMismatch as e:  # a line's own hash (JSONL) is not what its content makes here
        line = (line_of or {}).get(e.position + skip)
        raise InputError(str(e), where=f"{path}:{line}" if line else path, field="hash") from None
    findings = findings_after(store, match, events[0].position) if judge and events else 0
    return ImportSummary(file=path, match=match, events=len(events), created=False, findings=findings,
                         extra={"status": "resumed" if skip else "appended", "already_in_log": skip})


def overlap(tail: list[RecordedEvent], drafts: list[Draft], given: list[dict[str, Any]],
            hashes: list[str | None]) -> int:
    """The largest K such that the log's last K events (`tail`: at most len(drafts) of them) are
    the file's first K, compared as a whole export's re-import compares them; 0 if none."""
    for k in range(min(len(tail), len(drafts)), 0, -1):
        if first_difference(tail[len(tail) - k:], drafts[:k], given[:k], hashes[:k]) is None:
            return k
    return 0
