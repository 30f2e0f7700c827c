"""A file appended to an existing match (`import FILE --match M`: a notation file's body, JSONL lines
without `match.created`) compared with the match's events, so that importing it twice does not
store its events twice. Used by notation.py and jsonl.py.

The file carries no position and no match head, so what it continues is only a guess from its
content (kind, version, actor, payload: _resume.py's comparison, the one a whole export's re-import
uses; times and recorders only where a JSONL line gives them). The match's off-table events that the
file does not have (a judge call, a note, the clock recorded at the desk: _held.py) are left out:
- the match ends with all of the file's events (a judge call made since aside): "already in the
  log", nothing stored, naming the events. The same actions may truly have happened twice, so
  `again` appends them anyway.
- the match holds all of the file's events (2 or more) as one run earlier in it (before the rest of
  a longer version of the file imported since): refused, nothing stored, unless `again`. Not
  "already" with exit 0: a short run recurs every turn, and a script would not notice real events
  dropped. A file of one event held earlier is appended (one event recurs by chance too often).
- the match ends with the file's first K events (K >= 2, the largest such K; off-table events after
  them aside): the file grew since an earlier import of its start (a scorekeeper adding to the same
  file). Refused, nothing stored, unless `resume` (append only the rest) or `again` (append all of
  it) says which: a wrong guess either way would store events that only a correction can take
  back, in a log that keeps both. One shared event is a coincidence too often (a `note`, one more
  DON!! attached) to be asked about.
- otherwise: appended.
A file that says where it goes is not guessed about (`placed`): `--expect N` (the writer saw the log
end at event N), or JSONL lines that carry their positions (checked to follow on from the log's end).
"""
from __future__ import annotations

from typing import Any

from engine.events import Draft, RecordedEvent
from engine.match import InputError
from engine.store import EventStore, HashMismatch
from engine.words import plural, positions

from judge.io.importers import ImportSummary, findings_after
from judge.io.importers._held import held as where_held
from judge.io.importers._resume import hash_refusal

ASKED_FROM = 2  # the fewest events held before the end, or overlapping it, that stop an import (see above)


def onto_tail(store: EventStore, path: str, match: str, head: int, drafts: list[Draft], *,
              given: list[dict[str, Any]] | None = None, expected_hashes: list[str | None] | None = None,
              line_of: dict[int, int] | None = None, again: bool = False, resume: bool = False,
              placed: bool = False, judge: bool = True) -> ImportSummary:
    """Append `drafts` (the file's events; `given`: its lines as read, `line_of`: the line of the
    event that would be at each position) after event `head` of `match`, unless the match already
    holds them (see the module's docstring; `again` wins over `resume`)."""
    hashes = expected_hashes or [None] * len(drafts)
    skip = 0
    if not again and not placed and drafts:
        found = where_held(store.read(match, upto=head), drafts, given or [{}] * len(drafts), hashes)
        if found.whole and found.at_end:
            first, last = found.whole[0].position, found.whole[-1].position
            return ImportSummary(file=path, match=match, events=0, created=False, findings=0,
                                 extra={"status": "already in the log", "already_in_log": len(drafts),
                                        "tail": True, "held": [first, last]})
        if found.whole and len(drafts) >= ASKED_FROM:
            # held earlier in the match: a re-import (the file, then the rest of a longer version)
            # or the same actions again (a short run recurs every turn): asked, never dropped silently
            raise InputError(
                f"match {match} already holds these {len(drafts)} events "
                f"({positions(found.whole[0].position, found.whole[-1].position)}; imported before?), though "
                f"not at its end: --again appends them (if they truly happened again); nothing stored",
                where=path, field="match")
        start = len(found.start)
        if resume and not start:
            raise InputError(f"--resume: match {match} does not end with this file's first event; "
                             "nothing stored (without --resume the whole file is appended)",
                             where=path, field="resume")
        if start >= ASKED_FROM and not resume:
            raise InputError(
                f"match {match} ends with this file's first {start} events ({_events(found.start, head)}; "
                f"imported before, from a shorter version of this file?): --resume appends only the other "
                f"{plural(len(drafts) - start, 'event')}, --again all {len(drafts)} (if they truly "
                f"happened again); --expect N (the last event you saw) places it exactly; nothing stored",
                where=path, field="match")
        skip = start if resume else 0
    try:
        events = store.append(match, drafts[skip:], expected_position=head, expected_hashes=hashes[skip:])
    except HashMismatch as e:
        raise hash_refusal(e, path, line_of, skip) from None
    findings = findings_after(store, match, events[0].position) if judge and events else 0
    return ImportSummary(file=path, match=match, events=len(events), created=False, findings=findings,
                         extra={"status": "resumed" if skip else "appended", "already_in_log": skip})


def _events(run: list[RecordedEvent], head: int) -> str:
    """Where the file's first events stand: `events 2-18`, and what the log holds after them
    (only off-table events, which the comparison leaves out)."""
    after = head - run[-1].position
    return positions(run[0].position, run[-1].position) + (
        f", then {plural(after, 'off-table event')}" if after else "")
