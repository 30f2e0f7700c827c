"""JSONL import: one event per line, validated completely before anything is stored.

Each line is a JSON object: `{"kind": ..., "actor": ..., "payload": {...}}`, optionally with
`recorded_by` and `recorded_at`. The first line may be `{"kind": "match.created", "payload":
{"ruleset": ..., "players": [...]}}` to create the match; otherwise `--match` names an existing one.
Lines exported by `tablejudge export --format jsonl` carry their envelope (`match`, `position`,
`version`, `prev_hash`, `hash`, and `write_id` on the first event of each original write): positions must follow on, and each hash must come out the same, so
an exported log re-imports into the identical chain or not at all.

A file that creates a match the log already holds (same match id) is compared with it, event by
event (by the hash a line carries, else by its content: kind, version, actor, payload, and the
envelope fields it gives): the log holds all of the file, or more (nothing is stored: "already in
the log"), or the start of it (the rest is appended after the stored head, in one transaction:
"resumed", so a transfer cut short is finished by importing the whole file again); a line that
differs is refused, naming it and the stored event it differs from. Another writer appending to
the match meanwhile makes the append a ConflictError (nothing stored). The comparison is _resume.py's
(a tournament's export is compared the same way: _tournament.py).
"""
from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from engine.events import TABLE_ACTOR, Draft, default_recorder_name
from engine.match import (Corrections, EventValidator, InputError, Match, check_match_id, creation_draft,
                          new_match_id)
from engine.replacing import StandingAfter
from engine.rulesets import get_ruleset
from engine.schema import PayloadError, cut, read_json, shown
from engine.store import ConflictError, EventStore, HashMismatch, MatchNotFound, StreamExists

from judge.io.importers import ImportSummary, _jsonl_workers, findings_after
from judge.io.importers._resume import hash_refusal, onto_stored
from judge.io.importers._tail import onto_tail
from judge.io.text import read_text

EVENT_KEYS = {"kind", "actor", "payload", "recorded_by", "recorded_at"}
ENVELOPE_KEYS = {"match", "position", "version", "prev_hash", "hash", "write_id"}
LINE_KEYS = frozenset(EVENT_KEYS | ENVELOPE_KEYS)
CUT_SHORT = ("; it is the last line and the file does not end with a line break: the file looks cut "
             "short (copied or downloaded in part). Import the whole file once you have it: what the "
             "log already holds of its match is recognised, the rest appended")


def numbered_lines(path: str) -> list[tuple[int, str, bool]]:
    """(line number, text, cut) of every non-blank line: one event each. `cut`: it is the file's
    last line and the file does not end with a line break (copied or downloaded in part?)."""
    text = read_text(path)
    rows = text.splitlines()
    out = [(n, line, False) for n, line in enumerate(rows, start=1) if line.strip()]
    if out and out[-1][0] == len(rows) and not text.endswith(("\n", "\r")):
        out[-1] = (out[-1][0], out[-1][1], True)
    return out


def read_line(line: str, path: str, n: int, cut: bool = False) -> dict[str, Any]:
    """The line's JSON object; InputError names the line and column (and, for a `cut` last line
    that is not JSON, says the file looks cut short)."""
    try:
        obj = read_json(line)
    except PayloadError as e:
        # the field: the key a refused number is the value of (read_json finds it), when it is one
        raise InputError(e.message + (CUT_SHORT if cut else ""), field=e.field, where=f"{path}:{n}") from None
    if not isinstance(obj, dict):
        raise InputError("each line must be a JSON object", where=f"{path}:{n}")
    return obj


def import_file(store: EventStore, path: str, *, match: str | None = None, expect: int | None = None,
                recorded_by: str | None = None, judge: bool = True, workers: int | None = None,
                again: bool = False, resume: bool = False) -> ImportSummary:
    """Import a JSONL file, all or nothing. With `judge`, the imported events are then validated
    and the summary counts their findings (a full replay of the match). A long file that creates
    its match is drafted by `workers` processes as well (default: one per CPU; 0: none;
    see _jsonl_workers.py). `again`, `resume`: for lines appended to `match` (_tail.py)."""
    with gc_paused():
        return _import(store, path, match, expect, recorded_by, judge, workers, again, resume)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cycle collector off while a file is read, stored and judged: every event made
    lives until the commit, so each collection would scan them all again for nothing (about a
    tenth of a long import's time). Back as it was after (a cycle made meanwhile is collected
    then)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _import(store: EventStore, path: str, match: str | None, expect: int | None, recorded_by: str | None,
            judge: bool, workers: int | None, again: bool, resume: bool) -> ImportSummary:
    lines = numbered_lines(path)
    if not lines:
        raise InputError("the file holds no events", where=path)
    recorded_by = recorded_by or default_recorder_name()  # once, not per line
    first_line = lines[0][0]
    first = read_line(lines[0][1], path, first_line, lines[0][2])
    if first.get("kind") == "tournament.created":  # a tournament's own stream (export TOURNAMENT)
        from judge.io.importers import _tournament
        return _tournament.import_lines(
            store, path, [(n, read_line(text, path, n, cut)) for n, text, cut in lines],
            match=match, recorded_by=recorded_by, recorded_at=_recorded_at,
            check_line=lambda obj, pos, p, n: (_check_keys(obj, p, n), _check_envelope(obj, pos, p, n)))
    created = first.get("kind") == "match.created"
    if created and match:
        raise InputError("the file creates its own match (first line is match.created); "
                         "drop --match, or drop that line to append to an existing match",
                         where=f"{path}:{first_line}", field="kind")
    if not created and not match:
        raise InputError("the file does not start with match.created: name the match to append to "
                         "with --match", where=f"{path}:{first_line}", field="kind")

    expected_hashes: list[str | None] = []
    line_of: dict[int, int] = {1: first_line}  # event position -> line of the file
    if created:
        _check_keys(first, path, first_line)
        match_id = (check_match_id(first["match"], where=f"{path}:{first_line}")
                    if first.get("match") is not None else new_match_id())
        payload = first.get("payload")
        if not isinstance(payload, dict):
            raise InputError("must be an object", where=f"{path}:{first_line}", field="payload")
        unknown = set(payload) - {"ruleset", "players", "event", "round", "table", "options"}
        if unknown:
            name = sorted(unknown)[0]
            raise InputError(f"match.created has no field {shown(name)}",
                             where=f"{path}:{first_line}", field=f"payload.{cut(name, 40)}")
        try:
            head_draft = creation_draft(
                payload.get("ruleset", ""), payload.get("players") or [], event=payload.get("event"),
                round=payload.get("round"), table=payload.get("table"), options=payload.get("options"),
                recorded_by=first.get("recorded_by") or recorded_by,
                recorded_at=_recorded_at(first, path, first_line))
        except InputError as e:
            raise InputError(e.message, where=f"{path}:{first_line}", field=f"payload.{e.field}") from None
        _check_envelope(first, 1, path, first_line)
        head_draft = head_draft._replace(write_id=first.get("write_id"))
        expected_hashes.append(first.get("hash"))
        rs = get_ruleset(head_draft.payload["ruleset"])(head_draft.payload.get("options") or {})
        validator = EventValidator(rs, head_draft.payload["players"])
        head, rest = 1, lines[1:]
        drafts: list[Draft] = [head_draft]
        given: list[dict[str, Any]] = [first]  # the line of each draft, as the file gives it
        known_kinds = {1: "match.created"}
        existing = None
    else:
        try:
            existing = Match.open(store, match)  # type: ignore[arg-type]
        except MatchNotFound as e:
            raise InputError(str(e), where=path, field="match") from None
        match_id = existing.id
        validator = existing.validator
        head = existing.head_position()
        if expect is not None and head != expect:  # --expect N: the log must still end at N
            raise ConflictError.stale(match_id, expect, head)
        rest = lines
        drafts = []
        given = []
        known_kinds = {}

    def kind_at(position: int) -> str | None:
        if position in known_kinds:
            return known_kinds[position]
        return existing.kind_at(position) if existing is not None else None

    # the standing corrections: the log's (its corrections read once, at the first line that asks:
    # a correction or a backup without a hash), then this file's
    corrections = StandingAfter(None if existing is None else
                                lambda: ((e.position, e) for e in store.read_kinds(match_id, ("correction",))))

    # worker processes for a long new match (one the log holds is compared line by line: below)
    stored = store.read(match_id) if created and first.get("match") is not None else []
    pool = _jsonl_workers.pool_size(workers, len(rest)) if created and not stored else 0
    if pool:
        return _import_with_workers(store, path, match_id, drafts[0], expected_hashes[0], rest, validator,
                                    recorded_by, pool, line_of, judge=judge)
    body = [(n, read_line(text, path, n, cut)) for n, text, cut in rest]  # all read before any is judged
    for n, obj in body:
        position = head + 1
        draft = draft_line(validator, obj, path, n, position, match_id, created, recorded_by, kind_at,
                           corrections)
        if draft.kind == "correction":  # (as the workers do: the other lines have nothing to add)
            corrections.note(position, draft)
        drafts.append(draft)
        expected_hashes.append(obj.get("hash"))
        given.append(obj)
        known_kinds[position] = draft.kind
        line_of[position] = n
        head = position

    if stored:
        return onto_stored(store, path, match_id, stored, drafts, expected_hashes, given, line_of,
                           judge=judge)
    if not created:  # appended to --match, unless the match already holds these lines
        placed = expect is not None or any("position" in obj for obj in given)
        return onto_tail(store, path, match_id, head - len(drafts), drafts, given=given,
                         expected_hashes=expected_hashes, line_of=line_of, again=again, resume=resume,
                         placed=placed, judge=judge)
    try:
        events = store.create(match_id, drafts, expected_hashes=expected_hashes)
    except HashMismatch as e:
        raise hash_refusal(e, path, line_of) from None
    except StreamExists:  # created by another writer since it was looked for just above
        raise ConflictError(match_id, 1, "another writer created this match during the import") from None
    findings = findings_after(store, match_id, events[0].position) if judge and events else 0
    return ImportSummary(file=path, match=match_id, events=len(events), created=True,
                         findings=findings, extra={"status": "created", "already_in_log": 0})


def _import_with_workers(store: EventStore, path: str, match_id: str, head: Draft, head_hash: str | None,
                         rest: list[tuple[int, str, bool]], validator: EventValidator, recorded_by: str,
                         workers: int, line_of: dict[int, int], *, judge: bool) -> ImportSummary:
    """A long file creating a new match: drafted by worker processes beside this one, which
    chains each chunk as it comes back and stores them all in one transaction (see
    _jsonl_workers.py)."""
    batches = _jsonl_workers.batches_from_workers(path, rest, validator, match_id, recorded_by, workers,
                                                  read_line, draft_line, line_of)
    try:
        events = store.create_in_batches(match_id, head, head_hash, batches)
    except HashMismatch as e:
        raise hash_refusal(e, path, line_of) from None
    except StreamExists:  # created by another writer since it was looked for
        raise ConflictError(match_id, 1, "another writer created this match during the import") from None
    finally:
        batches.close()  # stops the workers at once if the import was refused
    findings = findings_after(store, match_id, 1) if judge else 0
    return ImportSummary(file=path, match=match_id, events=events, created=True, findings=findings,
                         extra={"status": "created", "already_in_log": 0, "workers": workers})


def draft_line(validator: EventValidator, obj: dict[str, Any], path: str, n: int, position: int,
               match_id: str, created: bool, recorded_by: str,
               kind_at: Callable[[int], str | None], corrections: Corrections | None = None) -> Draft:
    """One line of the file as the draft of event `position`, checked whole (its keys, its
    envelope, its payload against the ruleset), or InputError naming the line and field."""
    _check_keys(obj, path, n)
    _check_envelope(obj, position, path, n, match_id if created or obj.get("match") else None)
    try:
        draft = validator.draft(
            obj.get("kind"), obj.get("payload", {}), actor=obj.get("actor", TABLE_ACTOR),
            recorded_by=obj.get("recorded_by") or recorded_by,
            recorded_at=_recorded_at(obj, path, n), head=position - 1, kind_at=kind_at,
            corrections=corrections, recorded="hash" in obj)  # an export's line: recorded so already
    except InputError as e:
        raise InputError(e.message, where=f"{path}:{n}", field=e.field) from None
    if "version" in obj and obj["version"] != draft.version:
        raise InputError(f"{draft.kind} version {shown(obj['version'])} is not known (this tablejudge "
                         f"writes version {draft.version})", where=f"{path}:{n}", field="version")
    return draft._replace(write_id=obj.get("write_id")) if "write_id" in obj else draft


def _check_keys(obj: dict[str, Any], path: str, n: int) -> None:
    if LINE_KEYS.issuperset(obj) and "kind" in obj:  # the common line, said in one C call (bulk import)
        return
    unknown = sorted(set(obj) - LINE_KEYS)
    if unknown:
        raise InputError(f"unknown field {shown(unknown[0])} (an event line has: "
                         f"{', '.join(sorted(EVENT_KEYS))})", where=f"{path}:{n}", field=cut(unknown[0], 40))
    if "kind" not in obj:
        raise InputError("every line needs a 'kind'", where=f"{path}:{n}", field="kind")


def _check_envelope(obj: dict[str, Any], position: int, path: str, n: int,
                    match_id: str | None = None) -> None:
    if ENVELOPE_KEYS.isdisjoint(obj):  # a line that is not an export's: nothing here to check
        return
    where = f"{path}:{n}"
    if "position" in obj and obj["position"] != position:
        raise InputError(f"position {shown(obj['position'])} does not follow on (expected {position}): "
                         "a line is missing, repeated or out of order", where=where, field="position")
    if match_id is not None and "match" in obj and obj["match"] != match_id:
        raise InputError(f"belongs to match {shown(obj['match'])}, not {match_id!r}", where=where, field="match")
    for key in ("hash", "prev_hash"):
        if key in obj and not (isinstance(obj[key], str) and len(obj[key]) == 64):
            raise InputError("must be a sha256 hex digest", where=where, field=key)
    if "write_id" in obj and not (isinstance(obj["write_id"], str) and 0 < len(obj["write_id"]) <= 64):
        raise InputError("must be the write id an export carries (text, at most 64 characters)",
                         where=where, field="write_id")


def _recorded_at(obj: dict[str, Any], path: str, n: int) -> str | None:
    value = obj.get("recorded_at")
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError("must be an ISO 8601 time as text", where=f"{path}:{n}", field="recorded_at")
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise InputError(f"{shown(value)} is not an ISO 8601 time", where=f"{path}:{n}",
                         field="recorded_at") from None
    return value
