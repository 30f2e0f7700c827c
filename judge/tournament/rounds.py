"""A round's life at the organizer's desk: undo or re-pair it before results, swap two players
by hand, close it, run its clock, and create the recorded matches its tables will play.

    unpair(t, reason="wrong players list")      # the last round's pairing is void (before results)
    repair(t, reason="late entry arrived")       # void and pair again, in one batch
    swap_players(t, "Ann", "Cid", reason="...")   # a manual pairing: an override on the round page
    close_round(t)                               # every result in, no dispute: players' links expire
    start_clock(t, 50); extend(t, 7, 5, "deck check"); call_time(t)   # one event per table
    create_matches(t, ruleset="optcg")           # a match stream per table of the current round
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from shlex import quote
from collections.abc import Collection
from typing import Any

from engine.events import RecordedEvent
from engine.match import InputError, creation_draft, new_match_id
from engine.rulesets import UnknownRuleset, get_ruleset
from engine.store import ConflictError

from judge.desk.calls import open_calls_warning, round_open_calls
from judge.desk.clock import format_left, parse_time
from judge.tournament.aggregate import Tournament, not_paired, not_registered, resolve_player
from judge.tournament.pairing import RoundPairing
from judge.tournament.tables import DISPUTED, round_tables
from judge.tournament.tablematch import plays_table, unlinked_matches
from judge.tournament.state import RoundState, TournamentState, replay
from judge.tournament.seal import closing_blockers


def _current(st: TournamentState, round_no: int | None = None) -> RoundState:
    if not st.rounds:
        raise InputError("no round has been paired yet", field="round")
    rnd = st.rounds[-1] if round_no is None else st.round(round_no)
    if rnd is None:
        raise InputError(f"round {round_no} has not been paired", field="round")
    return rnd


# events that belong to a round by its number: voided with the round, so that a round paired
# again under the same number does not inherit them
ROUND_KINDS = ("result.recorded", "result.reported", "round.closed", "pairing.swapped", "clock.started",
               "clock.extended", "clock.time_called", "round.matches")


def round_voids(t: Tournament, st: TournamentState, rounds: list[RoundState], reason: str) -> list:
    """Correction drafts voiding `rounds` (their round.paired) and every event that belongs to
    them, latest first."""
    numbers = {r.number for r in rounds}
    targets = {r.paired_at for r in rounds}
    targets |= {e.position for e in t.events() if e.kind in ROUND_KINDS and e.position not in st.voided
                and e.payload.get("round") in numbers}
    return [t._draft("correction", {"voids": pos, "reason": reason}) for pos in sorted(targets, reverse=True)]


def state_without(t: Tournament, st: TournamentState, drafts: list) -> TournamentState:
    """The state as if the corrections `drafts` were already stored (to pair from it)."""
    gone = {d.payload["voids"] for d in drafts}
    rest = replay([e for e in t.events() if e.position not in gone])
    rest.position = st.position
    return rest


def _unpair_drafts(t: Tournament, st: TournamentState, reason: str):
    rnd = _current(st)
    if rnd.results or any(rnd.reports.values()):
        raise InputError(f"{rnd.name} already has results or reports: it can no longer be undone "
                         "(correct its results first)", field="round")
    return rnd, round_voids(t, st, [rnd], reason)


def unpair(t: Tournament, *, reason: str) -> list[RecordedEvent]:
    """Void the last round's pairing (before any result or report of it), with what belonged to
    it (a manual swap, its clock)."""
    st = t.state()
    _, drafts = _unpair_drafts(t, st, reason)
    return t.append(st, drafts)


def repair_drafts(t: Tournament, st: TournamentState, reason: str) -> tuple[RoundPairing, list]:
    rnd, drafts = _unpair_drafts(t, st, reason)
    without = state_without(t, st, drafts)
    if rnd.stage == "swiss":
        rp, draft = t.swiss_round_draft(without)
    else:
        # the top cut was started already: re-pairing it keeps Swiss ended where it ended
        rp, draft = t.elimination_round_draft(without, end_swiss_early=True)
    return rp, drafts + [draft]


def repair(t: Tournament, *, reason: str) -> RoundPairing:
    """Void the last round's pairing and pair it again from the log as it is now (drops, late
    entries and byes since are taken in), atomically. Same log in, same pairing out: a re-pair
    changes only what the log changed."""
    st = t.state()
    rp, drafts = repair_drafts(t, st, reason)
    t.append(st, drafts)
    return rp


def swap_players(t: Tournament, a: str, b: str, *, reason: str, round_no: int | None = None) -> RecordedEvent:
    """Two players of a round trade seats (a manual pairing), before either table has a result."""
    st = t.state()
    rnd = _current(st, round_no)
    if st.is_closed(rnd):
        raise InputError(f"{rnd.name} is closed", field="round")
    a, b = (resolve_player(st, who, rnd, field="players") for who in (a, b))  # as registered
    seats = {}
    for p in rnd.pairings:
        for who in (p.player1, p.player2):
            if who is not None:
                seats[who] = p.table
    for who in (a, b):
        if who not in seats and who not in st.players:
            raise not_registered(st, who, rnd, field="players")
        if who not in seats:
            raise not_paired(st, who, rnd, field="players")
        if seats[who] is not None and (seats[who] in rnd.results or rnd.reports.get(seats[who])):
            raise InputError(f"table {seats[who]} already has a result or a report: {who} cannot be moved",
                             field="players")
    if seats[a] == seats[b]:
        raise InputError(f"{a} and {b} already play each other", field="players")
    (ev,) = t.append(st, [t._draft("pairing.swapped", {"round": rnd.number, "players": [a, b],
                                                         "reason": reason})])
    return ev


def close_round(t: Tournament, round_no: int | None = None) -> RecordedEvent:
    """Close a round: every table has a result and none is disputed. Its players' links expire."""
    st = t.state()
    rnd = _current(st, round_no)
    if rnd.closed_at is not None:
        raise InputError(f"{rnd.name} is already closed", field="round")
    disputed = [v.table for v in round_tables(rnd) if v.status == DISPUTED]
    if disputed:
        raise InputError(f"{rnd.name} has disputed table(s) {', '.join(map(str, disputed))}: a judge "
                         "decides them first", field="round")
    if missing := rnd.missing():
        raise InputError(f"{rnd.name} still misses results for table(s) "
                         f"{', '.join(map(str, missing))}", field="round")
    if behind := closing_blockers(t.store, st, {e.position for e in rnd.result_events.values()}):
        raise InputError(f"{rnd.name} cannot close: " + "; ".join(behind), field="round")
    (ev,) = t.append(st, [t._draft("round.closed", {"round": rnd.number})])
    try:
        t.seal_round(rnd.number)  # its seal, over the log as it stands closed (judge/tournament/seal.py)
    except ConflictError:
        pass  # another writer came first: the round is sealed before the next is paired
    return ev


def close_warning(t: Tournament, closed: RecordedEvent, cli: bool = False) -> str | None:
    """What the CLI and the desk say after `closed` (a round.closed): the judge calls its recorded
    matches still have open (judge.desk.calls), or None."""
    rnd = t.state().round(closed.payload["round"])
    return open_calls_warning(round_open_calls(t.store, rnd.matches), cli=cli) if rnd else None


# --- the round clock ----------------------------------------------------------------------------


def start_clock(t: Tournament, minutes: int, round_no: int | None = None) -> RecordedEvent:
    """Start (or restart) the current round's clock: it ends `minutes` after this event."""
    st = t.state()
    rnd = _current(st, round_no)
    if st.is_closed(rnd):
        raise InputError(f"{rnd.name} is closed", field="round")
    (ev,) = t.append(st, [t._draft("clock.started", {"round": rnd.number, "minutes": minutes})])
    return ev


def extend(t: Tournament, table: int, minutes: int, reason: str | None = None,
           round_no: int | None = None) -> RecordedEvent:
    """Extra minutes for one table (set by a judge; shown on the clock page and the slips)."""
    st = t.state()
    rnd = _current(st, round_no)
    if table not in {p.table for p in rnd.tables()}:
        raise InputError(f"{rnd.name} has no table {table}", field="table")
    (ev,) = t.append(st, [t._draft("clock.extended", {"round": rnd.number, "table": table,
                                                        "minutes": minutes, "reason": reason})])
    return ev


def call_time(t: Tournament, round_no: int | None = None) -> list[RecordedEvent]:
    """Time is called for the whole room: one `clock.time_called` per table still playing (no
    result yet, time not already called), in one batch."""
    st = t.state()
    rnd = _current(st, round_no)
    tables = [p.table for p in rnd.tables() if p.table not in rnd.results and p.table not in rnd.time_called]
    if not tables:
        raise InputError(f"no table of {rnd.name} is still playing", field="round")
    return t.append(st, [t._draft("clock.time_called", {"round": rnd.number, "table": n}) for n in tables])


def clock_view(rnd: RoundState, now: datetime | None = None) -> dict[str, Any]:
    """The round clock for pages: when it ends, the time left, each table's extension and end."""
    now = now or datetime.now(timezone.utc)
    if rnd.clock is None:
        return {"running": False, "round": rnd.number, "name": rnd.name, "tables": []}
    start = parse_time(rnd.clock.recorded_at)
    ends = start + timedelta(minutes=rnd.clock.payload["minutes"])
    tables = []
    for p in rnd.tables():
        extra = sum(e.payload["minutes"] for e in rnd.extensions.get(p.table, []))
        t_end = ends + timedelta(minutes=extra)
        tables.append({"table": p.table, "extra_minutes": extra,
                       "reasons": [e.payload.get("reason") for e in rnd.extensions.get(p.table, [])
                                   if e.payload.get("reason")],
                       "ends_at": _iso(t_end), "time_left": format_left(t_end - now),
                       "time_called": p.table in rnd.time_called, "finished": p.table in rnd.results})
    return {"running": True, "round": rnd.number, "name": rnd.name, "minutes": rnd.clock.payload["minutes"],
            "started_at": _iso(start), "ends_at": _iso(ends), "now": _iso(now),
            "seconds_left": int((ends - now).total_seconds()), "time_left": format_left(ends - now),
            "tables": tables, "extended": [x for x in tables if x["extra_minutes"]]}


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds").replace("+00:00", "Z")


# --- recorded matches from pairings ---------------------------------------------------------------


def game_ruleset(st: TournamentState) -> str:
    """The ruleset the tournament's game is recorded with (InputError, field `game`, if none)."""
    try:
        return get_ruleset(st.game).name
    except UnknownRuleset:
        raise InputError(f"the game {st.game!r} has no ruleset to record its matches with", field="game") from None


@dataclass(frozen=True)
class TableOutcome:
    """What `create_matches` did for one table: `existing` (linked before), `created`, `linked` (a
    match that named the table, made before), or `skipped` (no match: `reason` says why and what to
    do). The CLI says `reason` on stderr, and --json carries every row (`row()`)."""
    table: int
    status: str
    match: str | None = None
    reason: str | None = None

    def row(self) -> dict[str, Any]:
        return {"table": self.table, "match": self.match, "status": self.status, "reason": self.reason}

    def line(self) -> str:
        return f"table {self.table}: {self.reason}"


def create_matches(t: Tournament, *, ruleset: str | None = None, round_no: int | None = None,
                   tables: Collection[int] | None = None,
                   outcomes: list[TableOutcome] | None = None) -> dict[int, str]:
    """A recorded match (its own stream: `match.created` with the tournament, round and table) for
    every table of a round that has none yet (or only for `tables`), then one `round.matches`
    event naming them; `ruleset` by default the tournament's game. Returns table -> match id for
    every table (old and new).

    A table that a match already names (its labels: this tournament's id, the round, the table) but
    that is not linked to it gets no second match (QA81 M5: it got one, silently): the one match
    with the table's players is linked, otherwise the table is left without. `outcomes`, if given,
    gets one TableOutcome per table of the round (of `tables`), in table order: a linked or
    skipped one with its reason."""
    st = t.state()
    if ruleset is None:
        ruleset = game_ruleset(st)
    rnd = _current(st, round_no)
    made = []
    why: dict[int, str] = {}  # table -> the reason for a table linked or skipped
    unlinked = unlinked_matches(t.store, st, rnd)
    for p in rnd.tables():
        if p.table in rnd.matches or (tables is not None and p.table not in tables):
            continue
        if p.table in unlinked:
            found = unlinked[p.table]
            ids = ", ".join(e.match for e in found)
            if len(found) == 1 and plays_table(found[0].payload.get("players") or (), p):
                made.append({"table": p.table, "match": found[0].match, "linked": True})  # the audit tells them apart
                why[p.table] = f"linked match {ids}, made for this table before (not a second match)"
            else:
                but = "more than one" if len(found) > 1 else f"not {p.player1} vs {p.player2}"
                why[p.table] = (f"no match made: {ids} name{'s' if len(found) == 1 else ''} this table "
                                f"but {but}, and none is linked to it; record the table in one of them, or make its "
                                f"match with `tablejudge match new --event {t.id} --round {rnd.number} --table {p.table} "
                                f"--player {quote(p.player1)} --player {quote(p.player2)} --ruleset {ruleset}`")
            continue
        draft = creation_draft(ruleset, [p.player1, p.player2], event=t.id, round=str(rnd.number),
                               table=str(p.table), recorded_by=t.recorded_by)
        mid = new_match_id()
        t.store.create(mid, [draft])
        made.append({"table": p.table, "match": mid})
    for _ in range(10):  # link them; another writer in between only delays it (the streams exist)
        if not made:
            break
        try:
            t.append(st, [t._draft("round.matches", {"round": rnd.number, "ruleset": ruleset, "matches": made})])
            break
        except ConflictError:
            st = t.state()
            rnd = _current(st, rnd.number)
            made = [m for m in made if m["table"] not in rnd.matches]
    else:
        raise ConflictError(t.id, st.position + 1, "the matches were created but not linked; run again")
    if outcomes is not None:
        ours = {m["table"]: m for m in made}
        for p in rnd.tables():
            if tables is not None and p.table not in tables:  # only the tables asked for are said
                continue
            if p.table in ours:
                status = "linked" if ours[p.table].get("linked") else "created"
                outcomes.append(TableOutcome(p.table, status, ours[p.table]["match"], why.get(p.table)))
            elif p.table in rnd.matches:  # before this run, or by another writer meanwhile
                outcomes.append(TableOutcome(p.table, "existing", rnd.matches[p.table]))
            elif p.table in why:
                outcomes.append(TableOutcome(p.table, "skipped", None, why[p.table]))
    return {**rnd.matches, **{m["table"]: m["match"] for m in made}}
