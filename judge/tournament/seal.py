"""Round seals, and checking a tournament's recorded evidence.

When a round closes (`tournament close`, or the next round is paired), one hash is made over the tournament's head and
the head of every match of that round, and recorded as a `round.sealed` event. The seal
(`tj-seal:TOURNAMENT/ROUND:HASH`) is printed on the standings page and the round report, so it
leaves the log: `tablejudge verify --seal` later proves that nothing it covers was changed or
removed, whole matches included.

A round's matches: those its results were recorded from (`tournament result --match`), those made
for its tables (`round.matches`), and every match created for this tournament and round (`match new
--event TOURNAMENT --round N`, with the tournament's id or name as the event).
"""
from __future__ import annotations

from typing import Any

from engine.events import RecordedEvent
from engine.integrity import SealResult, check_seal, seal_hash, seal_token
from engine.replay import Replayer
from engine.store import MATCH_CREATED, EventStore, MatchNotFound

from judge.tournament.standings import slip_text
from judge.tournament.state import TournamentState
from judge.tournament.vocab import CREATED

SEALED = "round.sealed"


def scope(tournament: str, round_no: int) -> str:
    return f"{tournament} round {round_no}"


def round_matches(store: EventStore, st: TournamentState, round_no: int) -> list[str]:
    rnd = st.round(round_no)
    ids = {m for r in (rnd.results.values() if rnd else ()) for m in (r.matches or ())}
    ids.update(rnd.matches.values() if rnd else ())  # made for its tables (round.matches)
    labels = {st.id, st.name}
    for created in store.created_events(MATCH_CREATED):
        p = created.payload
        if str(p.get("round")) == str(round_no) and p.get("event") in labels:
            ids.add(created.match)
    return sorted(ids)


def seal_payload(store: EventStore, st: TournamentState, round_no: int) -> dict[str, Any]:
    """The seal of a round as the log stands now: the tournament's head first, then each match's."""
    head = store.head(st.id)
    assert head is not None
    heads = [{"stream": st.id, "position": head.position, "hash": head.hash}]
    for mid in round_matches(store, st, round_no):
        h = store.head(mid)
        if h is not None:
            heads.append({"stream": mid, "position": h.position, "hash": h.hash})
    sc = scope(st.id, round_no)
    return {"round": round_no, "scope": sc, "heads": heads, "seal": seal_hash(sc, heads)}


def token(tournament: str, payload: dict[str, Any]) -> str:
    return seal_token(tournament, str(payload["round"]), payload["seal"])


def seal_events(store: EventStore, tournament: str | None = None) -> list[RecordedEvent]:
    """Every round.sealed event (of one tournament, or of all), in log order."""
    ids = [tournament] if tournament else store.stream_ids(CREATED)
    return [e for t in ids for e in store.read(t) if e.kind == SEALED]


def check(store: EventStore, event: RecordedEvent) -> SealResult:
    p = event.payload
    return check_seal(store, event.match, str(p.get("round")), str(p.get("scope")),
                      list(p.get("heads") or []), str(p.get("seal")))


def change_words(e: RecordedEvent, events: list[RecordedEvent]) -> str:
    """An event that changed a round's results, in words: `event 910 (table 10: 0-2-0, "slip misread")`."""
    p = e.payload
    if e.kind == "correction":
        target = events[p["voids"] - 1] if 0 < p.get("voids", 0) <= len(events) else None
        table = target.payload.get("table") if target is not None else None
        return (f"event {e.position} (voided the result of table {table}" if table is not None
                else f"event {e.position} (voided a result") + (f", {p['reason']!r})" if p.get("reason") else ")")
    return (f"event {e.position} (table {p.get('table')}: {slip_text(p)}"
            + (f", {p['reason']!r})" if p.get("reason") else ")"))


def staleness(st: TournamentState, event: RecordedEvent,
              events: list[RecordedEvent]) -> tuple[str | None, int | None]:
    """Whether seal `event` still matches its round's results as they stand now (`st`, folded from
    `events`): (None, None) if it does; else (what changed, in words, and the position of a later
    seal of the round that covers the change, if any: the stale seal is superseded, not current)."""
    round_no = event.payload.get("round")
    if not isinstance(round_no, int):
        return None, None
    later = st.changes_after(round_no, event.position)
    if not later:
        return None, None
    words = (f"round {round_no}'s results changed after it: "
             + "; ".join(change_words(e, events) for e in later[:5])
             + (f"; and {len(later) - 5} more" if len(later) > 5 else ""))
    resealed = st.sealed_at.get(round_no)
    return words, (resealed if resealed is not None and resealed > later[-1].position else None)


def find(store: EventStore, seal: str) -> list[RecordedEvent]:
    return [e for e in seal_events(store) if e.payload.get("seal") == seal]


def check_results(store: EventStore, events: list[RecordedEvent]) -> tuple[list[str], int]:
    """Results recorded from matches carry each match's head and final state hash: the log must
    still hold that head, and replaying the match to it must give that state. (problems, checked)"""
    problems: list[str] = []
    checked = 0
    for e in events:
        if e.kind != "result.recorded":
            continue
        for b in e.payload.get("based_on") or ():
            checked += 1
            where = f"event {e.position} (result of round {e.payload.get('round')} table {e.payload.get('table')})"
            try:
                problem = store.holds(b["match"], int(b["position"]), b["hash"])
                if problem is None:
                    got = Replayer(store, b["match"]).state_at(
                        int(b["position"]), use_snapshots=False, save_snapshots=False).state_hash()
                    if got != b["state_hash"]:
                        problem = (f"match {b['match']} replayed to event {b['position']} gives state "
                                   f"{got[:16]}..., not the {str(b['state_hash'])[:16]}... the result was based on")
            except (KeyError, TypeError, ValueError, LookupError, MatchNotFound) as err:
                problem = f"its basis cannot be checked ({str(err)[:80]})"
            if problem:
                problems.append(f"{where}: {problem}")
    return problems, checked
