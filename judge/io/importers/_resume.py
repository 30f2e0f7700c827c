"""A JSONL file that creates a stream the log already holds (a match's export, or a tournament's),
compared with it event by event: the log holds all of the file, or more (nothing is stored:
"already in the log"), or the start of it (the rest is appended after the stored head, in one
transaction: "resumed"); a line that differs is refused, naming it and the stored event it
differs from. Used by jsonl.py (matches) and _tournament.py (a tournament's own stream).
"""
from __future__ import annotations

from typing import Any

from engine.canonical import canonical_json
from engine.events import Draft, RecordedEvent
from engine.match import InputError
from engine.schema import shown
from engine.store import EventStore, HashMismatch

from judge.io.importers import ImportSummary, findings_after



def hash_refusal(e: HashMismatch, path: str, line_of: dict[int, int] | None, skip: int = 0) -> InputError:
    """A line's own hash (a JSONL export's) that is not what its content makes here, said at its
    line (`skip`: events of the file not stored before the first that was)."""
    line = (line_of or {}).get(e.position + skip)
    return InputError(str(e), where=f"{path}:{line}" if line else path, field="hash")

def onto_stored(store: EventStore, path: str, stream: str, stored: list[RecordedEvent],
                drafts: list[Draft], expected_hashes: list[str | None], given: list[dict[str, Any]],
                line_of: dict[int, int], *, judge: bool, thing: str = "match",
                extra: dict[str, Any] | None = None) -> ImportSummary:
    """The file creates a stream the log already holds (`thing`: what it is, in words): the stored
    events must be the file's first ones (or the file's events the log's first ones). Nothing
    stored but the file's events after the stored head. `judge`: count the findings of what was
    appended (a match's); `extra`: added to the summary."""
    extra = extra or {}
    common = min(len(stored), len(drafts))
    try:  # the file's own hashes must come out, as for a new stream (an edited export is refused)
        store.sealed(stream, drafts[:common], expected_hashes=expected_hashes[:common])
    except HashMismatch as e:
        raise hash_refusal(e, path, line_of) from None
    difference = first_difference(stored, drafts, given, expected_hashes)
    if difference:
        position, what, detail = difference
        raise InputError(
            f"differs from event {position} of {thing} {stream} in the log ({detail}): the file and "
            f"the log hold two different histories of this {thing}; nothing was stored",
            where=f"{path}:{line_of[position]}", field=what)
    if len(drafts) <= len(stored):
        more = len(stored) - len(drafts)
        return ImportSummary(file=path, match=stream, events=0, created=False, findings=0,
                             extra={**extra, "status": "already in the log", "already_in_log": len(drafts),
                                    "log_holds_more": more})
    try:  # after the head just compared: another writer's append since makes this a conflict
        events = store.append_after(stream, stored[-1], drafts[len(stored):],
                                    expected_hashes=expected_hashes[len(stored):])
    except HashMismatch as e:
        raise hash_refusal(e, path, line_of) from None
    findings = findings_after(store, stream, events[0].position) if judge else 0
    return ImportSummary(file=path, match=stream, events=len(events), created=False, findings=findings,
                         extra={**extra, "status": "resumed", "already_in_log": len(stored)})


def first_difference(stored: list[RecordedEvent], drafts: list[Draft], given: list[dict[str, Any]],
                     expected_hashes: list[str | None]) -> tuple[int, str, str] | None:
    """(position, field, what differs in words) of the first of the common events where the file
    and the log differ, or None if one is the start of the other. Also used by the OPTCGSim
    importer (_optcgsim_copies.py), which decides what a difference means for a copy of a game."""
    for i in range(min(len(stored), len(drafts))):
        differs = _differs(drafts[i], given[i], expected_hashes[i], stored[i])
        if differs:
            return i + 1, *differs
    return None


def _differs(draft: Draft, line: dict[str, Any], given_hash: str | None,
             event: RecordedEvent) -> tuple[str, str] | None:
    """None if the stored `event` is the file's line; else (field, what differs, in words).
    A line with a hash (checked against its own content before) is that event if the hashes
    agree; a line without is compared by content, and by the envelope fields it gives."""
    if given_hash is not None and given_hash == event.hash:
        return None
    theirs = [("kind", draft.kind, event.kind), ("version", draft.version, event.version),
              ("actor", draft.actor, event.actor)]
    for field, a, b in theirs:
        if a != b:
            return field, f"{field} {shown(a)} in the file, {shown(b)} in the log"
    if canonical_json(draft.payload) != canonical_json(event.payload):
        keys = sorted(k for k in set(draft.payload) | set(event.payload)
                      if canonical_json(draft.payload.get(k)) != canonical_json(event.payload.get(k)))
        return "payload", "its payload differs" + (f" in {shown(keys[0])}" if keys else "")
    envelope = [("recorded_at", draft.recorded_at), ("recorded_by", draft.recorded_by),
                ("write_id", draft.write_id), ("prev_hash", line.get("prev_hash"))]
    for field, value in envelope:
        if line.get(field) and value != getattr(event, field):
            return field, f"{field} {shown(value)} in the file, {shown(getattr(event, field))} in the log"
    if given_hash is not None:  # the same content, another chain (e.g. an earlier event differs)
        return "hash", f"hash {given_hash[:12]}... in the file, {event.hash[:12]}... in the log"
    return None
