"""The judges' queue of calls from recorded matches: every `judge.call` that still counts, open until
a `judge.ruling` or a head judge's `judge.appeal` answers it (`call`: its position), oldest first,
with the table it came from.

    call_queue(store, {"3f2a..": [events of kinds CALL_KINDS]})  -> [row, ...]

Only the kinds in CALL_KINDS are needed (a server keeps them as they arrive; the store gives them
by kind): a call, a ruling or an appeal's decision (which answers one), a correction (which may void a call or a ruling:
a backup never voids judge actions)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.desk import judge_of
from judge.desk.clock import local_time
from engine.events import RecordedEvent
from engine.store import EventStore

CALL_KINDS = ("judge.call", "judge.ruling", "judge.appeal", "correction")
ANSWER_KINDS = ("judge.ruling", "judge.appeal")  # what answers a call (its `call`)


def standing_calls(events: Iterable[RecordedEvent]) -> list[tuple[RecordedEvent, RecordedEvent | None]]:
    """A match's calls that still count, each with the ruling that answers it (None: open), in
    order. `events`: the match's events of CALL_KINDS (others are passed over)."""
    evs = list(events)
    voided = {e.payload.get("voids") for e in evs if e.kind == "correction"}
    rulings = {e.payload.get("call"): e for e in evs
               if e.kind in ANSWER_KINDS and e.position not in voided and e.payload.get("call")}
    return [(e, rulings.get(e.position)) for e in evs if e.kind == "judge.call" and e.position not in voided]


def call_about(c: RecordedEvent, player: str, at: int) -> bool:
    """Is `c` a judge call by `player` about event `at`: the call that goes with `player`'s appeal of
    event `at` (the table's page and `judge appeal-filed` record one with the filing unless one is
    open already; deciding the appeal answers it; the appeals file reads it as the appeal's). One
    rule for the three (review: each had its own)."""
    return c.kind == "judge.call" and c.payload.get("caller") == player and c.payload.get("at") == at


def open_call_about(events: Iterable[RecordedEvent], player: str, at: int) -> RecordedEvent | None:
    """`player`'s call about event `at` (`call_about`) that nothing answers yet, or None. A call of
    theirs about something else does not serve their appeal. `events`: the match's events that
    still count (those of CALL_KINDS are read)."""
    return next((c for c, answer in standing_calls(e for e in events if e.kind in CALL_KINDS)
                 if answer is None and call_about(c, player, at)), None)


def open_call(store: EventStore, match: str, caller: str,
              events: Iterable[RecordedEvent] | None = None) -> RecordedEvent | None:
    """`caller`'s first call in the match that nothing answers yet (a ruling, or the head judge's
    decision on an appeal filed with it: ANSWER_KINDS; None: none is open).
    `events`: the match's events of CALL_KINDS where the caller keeps them (the server's desk: a
    page drawn on every phone's refresh reads no store); read from the store otherwise."""
    evs = events if events is not None else store.read_kinds(match, CALL_KINDS)
    return next((c for c, answer in standing_calls(evs) if answer is None and c.payload.get("caller") == caller),
                None)


def round_open_calls(store: EventStore, tables: Mapping[int, str],
                     events: Mapping[str, Iterable[RecordedEvent]] | None = None) -> list[tuple[int, RecordedEvent]]:
    """The calls nothing answers yet (a ruling or an appeal's decision: ANSWER_KINDS) in a round's
    recorded matches (`tables`: table -> match), as
    (table, call), oldest first. `events`: each match's events of CALL_KINDS where the caller keeps
    them (the server's desk); read from the store otherwise."""
    found = []
    for table, mid in tables.items():
        evs = events.get(mid, []) if events is not None else store.read_kinds(mid, CALL_KINDS)
        found += [(table, c) for c, answer in standing_calls(evs) if answer is None]
    return sorted(found, key=lambda tc: tc[1].recorded_at)


def open_calls_warning(calls: list[tuple[int, RecordedEvent]], cli: bool = False) -> str | None:
    """What closing a round says of its calls still open (QA76 9: a round closed over one, and the
    call only moved to "unanswered calls from closed rounds"). A warning, not a refusal: a judge
    may have answered at the table without tapping Answered. `cli`: each call's match and event,
    for `judge ruling MATCH --call N`."""
    if not calls:
        return None
    each = "; ".join(f"table {table} ({c.payload.get('caller', '?')}, {local_time(c.recorded_at)}"
                     + (f", “{c.payload['reason']}”" if c.payload.get("reason") else "")
                     + (f": match {c.match}, event {c.position}" if cli else "") + ")"
                     for table, c in calls)
    n = len(calls)
    it = "them" if n != 1 else "it"
    how = (f"a judge answers {it} (`tablejudge judge ruling MATCH --call N`, or Answered on the web's judges' queue)"
           if cli else f"a judge answers {it} on the judges' queue (answered at the table: tap Answered there)")
    return f"{n} judge call{'s' if n != 1 else ''} still open: {each}: {how}"


def call_queue(store: EventStore, events: Mapping[str, Iterable[RecordedEvent]]) -> list[dict[str, Any]]:
    rows = []
    for mid, evs in events.items():
        created = store.created(mid).payload
        for e, answer in standing_calls(evs):
            p = e.payload
            rows.append({"match": mid, "position": e.position, "caller": p["caller"], "reason": p.get("reason", ""),
                         "at": p.get("at") or max(e.position - 1, 1), "recorded_at": e.recorded_at,
                         "recorded_by": e.recorded_by, "round": created.get("round"), "table": created.get("table"),
                         "players": created["players"], "ruleset": created["ruleset"],
                         "open": answer is None,
                         "answer": None if answer is None else {"position": answer.position,
                                                                "text": answer.payload["text"],
                                                                "rule": answer.payload.get("rule", ""),
                                                                "judge": judge_of(answer.actor),
                                                                "at": answer.recorded_at}})
    return sorted(rows, key=lambda r: (not r["open"], r["recorded_at"]))
