"""JSONL import of a tournament's own stream (`tablejudge export TOURNAMENT --format jsonl`): the
file's first line is `tournament.created`. Each line's payload is checked against the tournament's
event schemas (judge/tournament/vocab.py), the stream is folded as `tournament show` would fold it,
and every hash must come out the same: the identical chain, or nothing stored. A tournament the log
already holds is compared with the file event by event, as a match is (_resume.py): "already in
the log" (nothing stored), "resumed" (the file's later events appended), or refused naming the line
that differs.

The tournament's matches are separate streams: export and import each of them too (a round's
seal covers its matches' heads, and a result recorded from matches names them).

Called by judge/io/importers/jsonl.py with its line checks (this module does not import it: no
import circle).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.events import TABLE_ACTOR, Draft, RecordedEvent
from engine.match import InputError, check_match_id, check_name
from engine.schema import PayloadError, shown
from engine.store import ConflictError, EventStore, HashMismatch, StreamExists, stream_thing

from judge.io.importers import ImportSummary
from judge.io.importers._resume import hash_refusal, onto_stored

# (the object, its event position, where) -> None, or InputError; (the object, where) -> recorded_at
LineCheck = Callable[[dict[str, Any], int, str, int], None]
TimeCheck = Callable[[dict[str, Any], str, int], str | None]


def import_lines(store: EventStore, path: str, lines: list[tuple[int, dict[str, Any]]], *,
                 match: str | None, recorded_by: str, check_line: LineCheck,
                 recorded_at: TimeCheck) -> ImportSummary:
    from judge.tournament.vocab import CREATED, KINDS

    first_line, first = lines[0]
    if match:
        raise InputError("the file creates its own tournament (first line is tournament.created); "
                         "drop --match", where=f"{path}:{first_line}", field="kind")
    if first.get("match") is None:
        raise InputError("a tournament's stream names its id on every line (`match`): import a file "
                         "written by `tablejudge export TOURNAMENT --format jsonl`",
                         where=f"{path}:{first_line}", field="match")
    stream = check_match_id(first["match"], where=f"{path}:{first_line}")
    stored = store.read(stream)  # a tournament the log holds: compared below (_resume.py)
    if stored and stored[0].kind != CREATED:
        raise InputError(f"{stream} is {stream_thing(stream, stored[0].kind)} in {store.describe()}, "
                         "not a tournament: the file cannot be imported into it",
                         where=f"{path}:{first_line}", field="tournament")
    drafts: list[Draft] = []
    expected: list[str | None] = []
    line_of: dict[int, int] = {}
    kinds: dict[int, str] = {}
    for position, (n, obj) in enumerate(lines, start=1):
        where = f"{path}:{n}"
        check_line(obj, position, path, n)
        if obj.get("match") != stream:
            raise InputError(f"belongs to {shown(obj.get('match'))}, not {stream!r}: every line of a "
                             "tournament's export names it", where=where, field="match")
        kind = obj.get("kind")
        if kind not in KINDS or (kind == CREATED) != (position == 1):
            raise InputError(f"{shown(kind)} is not an event of a tournament's stream here"
                             + (" (tournament.created is event 1 only)" if kind == CREATED else ""),
                             where=where, field="kind")
        try:
            parsed = KINDS[kind].parse(obj.get("payload", {}))
        except PayloadError as e:
            raise InputError(e.message, where=where, field=f"payload.{e.field}" if e.field else "payload") from None
        if "version" in obj and obj["version"] != parsed.version:
            raise InputError(f"{kind} version {shown(obj['version'])} is not known (this tablejudge "
                             f"writes version {parsed.version})", where=where, field="version")
        if kind == "correction":
            target = parsed.to_dict().get("voids")
            if not (isinstance(target, int) and 2 <= target < position) or kinds.get(target) in ("correction", "note"):
                raise InputError(f"correction names event {shown(target)}, which it cannot void",
                                 where=where, field="payload.voids")
        actor = check_name(obj.get("actor", TABLE_ACTOR), "an actor", field="actor", where=where)
        by = check_name(obj.get("recorded_by") or recorded_by, "a recorder", field="recorded_by", where=where)
        drafts.append(Draft(kind, parsed.version, actor, parsed.to_dict(), by, recorded_at(obj, path, n),
                            obj.get("write_id")))
        expected.append(obj.get("hash"))
        line_of[position] = n
        kinds[position] = kind
    _folds(stream, drafts, path)
    if stored:
        return onto_stored(store, path, stream, stored, drafts, expected, [obj for _, obj in lines], line_of,
                           judge=False, thing="tournament", extra={"stream": "tournament"})
    try:
        events = store.create(stream, drafts, expected_hashes=expected)
    except HashMismatch as e:
        raise hash_refusal(e, path, line_of) from None
    except StreamExists:  # created by another writer since it was looked for above
        raise ConflictError(stream, 1, "another writer created this tournament during the import") from None
    return ImportSummary(file=path, match=stream, events=len(events), created=True, findings=0,
                         extra={"stream": "tournament", "status": "created", "already_in_log": 0})


def _folds(stream: str, drafts: list[Draft], path: str) -> None:
    """The tournament's fold must take the stream (as every tournament command will): refused
    here, before anything is stored, if it does not."""
    from judge.tournament.state import replay

    events = [RecordedEvent(stream, i, d.kind, d.version, d.actor, d.payload, d.recorded_at or "",
                            d.recorded_by, "", "") for i, d in enumerate(drafts, start=1)]
    try:
        replay(events)
    except (KeyError, IndexError, TypeError, ValueError, LookupError) as e:
        raise InputError(f"the events do not make a tournament this version can read "
                         f"({type(e).__name__}: {str(e)[:80]})", where=path) from None
