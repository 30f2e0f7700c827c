"""A read model of the log in SQLite, built with sqlite-utils by pulling the store's notification
log (the eventsourcing way: a projection that remembers how far it has read).

Tables, all openable by Datasette or plain sqlite3:

- `events`: one row per event; the envelope (match, position, kind, actor, recorded_at,
  recorded_by, hashes), the event in plain words, `backed_out`, the payload as JSON and each payload
  field decoded into its own column `payload_<field>` (lists/objects as JSON text);
- `findings`: every finding (the ruleset's and the desk's) with rule id, severity, the rulebook's words;
- `penalties`: one row per judge.penalty;
- `matches`: one row per match: labels, players, result as the log shows it, the slip, counts,
  `chain_ok` (the chain and its guard, as `verify` checks them before any replay; a stale time
  decision is not a broken chain: `not_decided` says it) and the head hash;
- `_readmodel`: the last notification id pulled, and which log it follows (its first event's hash).

Running it again pulls only new notifications and refreshes the matches they touched (a later
backup changes which earlier events are backed out, so a touched match is re-derived whole).
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

import sqlite_utils

from engine.desk import judge_of
from engine.events import RecordedEvent
from engine.match import InputError, Match
from engine.store import MATCH_CREATED, EventStore

from judge import desk

PAGE = 500


def _payload_columns(payload: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in payload.items():
        out[f"payload_{k}"] = json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else v
    return out


def _event_row(e: RecordedEvent, note_id: int | None) -> dict[str, Any]:
    row = {"match": e.match, "position": e.position, "kind": e.kind, "version": e.version,
           "actor": e.actor, "judge": judge_of(e.actor), "recorded_at": e.recorded_at,
           "recorded_by": e.recorded_by, "payload": json.dumps(e.payload, ensure_ascii=False, sort_keys=True),
           "prev_hash": e.prev_hash, "hash": e.hash, "notification_id": note_id}
    row.update(_payload_columns(e.payload))
    return row


def _ensure_tables(db: sqlite_utils.Database) -> None:
    if "events" not in db.table_names():
        db["events"].create({"match": str, "position": int, "kind": str, "version": int, "actor": str,
                             "judge": str, "description": str, "backed_out": int, "recorded_at": str,
                             "recorded_by": str, "payload": str, "prev_hash": str, "hash": str,
                             "notification_id": int}, pk=("match", "position"))
        db["events"].create_index(["kind"])
    if "matches" not in db.table_names():
        db["matches"].create({"id": str, "ruleset": str, "players": str, "event": str, "round": str,
                              "table": str, "events": int, "result": str, "winner": str, "how": str,
                              "decided_by": str, "slip_result": str, "slip_winner": str,
                              "slip_confirmed": int, "findings": int, "errors": int, "penalties": int,
                              "chain_ok": int, "head_hash": str}, pk="id")
    if "findings" not in db.table_names():
        db["findings"].create({"id": int, "match": str, "position": int, "rule": str, "severity": str,
                               "message": str, "section": str, "quote": str, "source": str,
                               "backed_out": int}, pk="id", foreign_keys=[("match", "matches", "id")])
        db["findings"].create_index(["match", "position"])
    if "penalties" not in db.table_names():
        db["penalties"].create({"match": str, "position": int, "player": str, "penalty": str,
                                "infraction": str, "policy": str, "reason": str, "minutes_late": int,
                                "judge": str, "recorded_at": str, "recorded_by": str, "backed_out": int},
                               pk=("match", "position"), foreign_keys=[("match", "matches", "id")])
    if "_readmodel" not in db.table_names():
        db["_readmodel"].create({"key": str, "value": str}, pk="key")


def _last(db: sqlite_utils.Database) -> int:
    try:
        return int(db["_readmodel"].get("last_notification")["value"])
    except sqlite_utils.db.NotFoundError:
        return 0


def _log_identity(store: EventStore) -> str | None:
    """What names a log across copies and moves: the hash of its first event (None: empty)."""
    first = store.notifications(1, 1)
    return first[0][1].hash if first else None


def _same_log(db: sqlite_utils.Database, store: EventStore, path: str) -> None:
    """A read model follows one log: brought up to date from another, it would mix two logs' events
    (and positions of one match would go missing). Refused, with what to do."""
    mine = _log_identity(store)
    try:
        theirs = db["_readmodel"].get("log")["value"]
    except sqlite_utils.db.NotFoundError:
        theirs = None
    if theirs is None:
        if _last(db) and mine is not None:  # an older read model: it says nothing of its log
            raise InputError(f"{path} was built by an older version that does not say which log it follows: "
                             "rebuild it (--rebuild) or write to another file", where=path)
        if mine is not None:
            db["_readmodel"].upsert({"key": "log", "value": mine}, pk="key")
        return
    if mine is not None and theirs != mine:
        raise InputError(f"{path} is the read model of another event log: rebuild it from this one (--rebuild) "
                         "or write to another file", where=path)


def build(store: EventStore, path: str, *, rebuild: bool = False,
          only: Iterable[str] | None = None) -> dict[str, Any]:
    """Create or bring up to date the read model at `path`. `only`: restrict to these matches (a
    one-match export). Returns a summary (events pulled, last notification, matches refreshed)."""
    try:
        db = sqlite_utils.Database(path, recreate=rebuild)
        _ensure_tables(db)
    except sqlite3.OperationalError as e:  # a folder that cannot be written, a file that is not SQLite
        raise InputError(f"cannot write the read model {path}: {e}", where=path) from None
    _same_log(db, store, path)
    wanted = set(only) if only is not None else None
    start = _last(db) + 1
    touched: list[str] = []
    is_match: dict[str, bool] = {}
    pulled = 0
    last = start - 1
    while True:
        page = store.notifications(start, PAGE)
        rows = []
        for note_id, e in page:
            last = note_id
            if wanted is not None and e.match not in wanted:
                continue
            if e.match not in is_match:
                is_match[e.match] = store.created(e.match).kind == MATCH_CREATED
            if not is_match[e.match]:
                continue  # tournaments and other streams are not matches
            rows.append(_event_row(e, note_id))
            if e.match not in touched:
                touched.append(e.match)
        if rows:
            db["events"].insert_all(rows, pk=("match", "position"), alter=True, replace=True)
            pulled += len(rows)
        if len(page) < PAGE:
            break
        start = page[-1][0] + 1
    with db.conn:
        for mid in touched:
            _refresh_match(db, Match(store, mid))
        db["_readmodel"].upsert({"key": "last_notification", "value": str(last)}, pk="key")
    return {"path": path, "new_events": pulled, "last_notification": last,
            "matches_refreshed": len(touched), "matches": touched}


def _refresh_match(db: sqlite_utils.Database, m: Match) -> None:
    """Re-derive everything about one match: descriptions, backed-out marks, findings, penalties."""
    r = desk.review(m)
    voided = r.voided
    for e in r.events:
        db["events"].update((m.id, e.position), {"description": r.describe(e),
                                                 "backed_out": int(e.position in voided)})
    db["findings"].delete_where("match = ?", [m.id])
    db["findings"].insert_all(
        [{"match": m.id, "position": f.position, "rule": f.rule, "severity": f.severity,
          "message": f.message, "section": f.section, "quote": f.quote, "source": f.source,
          "backed_out": int(r.is_void(f))} for f in r.findings], pk="id")
    db["penalties"].delete_where("match = ?", [m.id])
    pens = desk.penalty_rows(m, voided)
    for p in pens:
        p["backed_out"] = int(p["backed_out"])
    db["penalties"].insert_all(pens, pk=("match", "position"), alter=True)
    slip = r.slip()
    verify = m.store.verify(m.id)
    c = m.created.payload
    db["matches"].upsert({
        "id": m.id, "ruleset": c["ruleset"], "players": json.dumps(c["players"], ensure_ascii=False),
        "event": c.get("event"), "round": c.get("round"), "table": c.get("table"),
        "events": len(r.events), "result": r.outcome.result if r.outcome else None,
        "winner": r.outcome.winner if r.outcome else None, "how": r.outcome.how if r.outcome else None,
        "decided_by": r.outcome.source if r.outcome else None,
        "not_decided": r.not_decided(),  # a stale time decision waits for a new one
        "slip_result": slip["result"] if slip else None, "slip_winner": slip.get("winner") if slip else None,
        "slip_confirmed": int(slip["complete"]) if slip else None,
        "findings": len(r.active_findings()),
        "errors": sum(1 for f in r.active_findings() if f.severity == "error"),
        "penalties": len(pens), "chain_ok": int(verify.ok), "head_hash": verify.head_hash,
    }, pk="id", alter=True)
