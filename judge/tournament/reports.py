"""Players report their own table's result; the opponent confirms; a disagreement goes to the
judges' queue. Nothing is overwritten: every report is an event and stays one.

    report_result(t, "Ann", "2-1")      # Ann's own view: her game wins first
    report_result(t, "Bob", "1-2")      # Bob agrees: the result is recorded (source "players")
    table_status(rnd, 3)                # pending / reported / disputed / confirmed
    judges_queue(st)                    # every disputed table, both reports, who said what

A table's status: `pending` (nothing yet), `reported` (one player's report, waiting for the
other's), `disputed` (the two latest reports differ, or a report differs from the recorded
result: a judge decides), `confirmed` (a result is recorded and no later report disputes it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.events import RecordedEvent
from engine.match import InputError

from judge.tournament.aggregate import Tournament, not_registered, resolve_player, who_entered
from judge.tournament.pairing import Pairing
from judge.tournament.results import parse_slip
from judge.tournament.standings import payload_slip
from judge.tournament.state import RoundState, TournamentState

PENDING, REPORTED, DISPUTED, CONFIRMED = "pending", "reported", "disputed", "confirmed"


class RoundClosedError(InputError):
    """The round is closed: players cannot report for it any more."""


@dataclass
class TableView:
    """One table of a round as the desk sees it."""

    round: int
    table: int
    player1: str
    player2: str
    status: str
    result: str | None                 # the recorded result, table order
    result_by: str | None
    reports: dict[str, str]            # player -> their report, table order (wins1-wins2-draws)
    result_position: int | None = None
    result_who: str | None = None      # who entered the result, in words ("scorekeeper Sam", "both players")

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _table_order(ev: RecordedEvent) -> str:
    return payload_slip(ev.payload)


def table_status(rnd: RoundState, table: int) -> TableView:
    p = next((x for x in rnd.tables() if x.table == table), None)
    if p is None:
        raise InputError(f"{rnd.name} has no table {table}", field="table")
    reports = rnd.reports.get(table, {})
    said = {player: _table_order(ev) for player, ev in reports.items()}
    res_ev = rnd.result_events.get(table)
    result = None if res_ev is None else _table_order(res_ev)
    res_at = 0 if res_ev is None else res_ev.position
    later = {v for pl, v in said.items() if reports[pl].position > res_at}
    if result is not None:
        status = DISPUTED if any(v != result for v in later) else CONFIRMED
    elif len(set(said.values())) > 1:
        status = DISPUTED
    elif said:
        status = REPORTED
    else:
        status = PENDING
    return TableView(rnd.number, table, p.player1, p.player2, status, result,
                     None if res_ev is None else res_ev.recorded_by, said,
                     None if res_ev is None else res_ev.position, None if res_ev is None else who_entered(res_ev))



def round_tables(rnd: RoundState) -> list[TableView]:
    return [table_status(rnd, p.table) for p in rnd.tables()]


def judges_queue(st: TournamentState) -> list[TableView]:
    """Every disputed table, in round and table order (a dispute is never forgotten by moving on)."""
    return [v for rnd in st.rounds for v in round_tables(rnd) if v.status == DISPUTED]


def find_player_table(rnd: RoundState, player: str, st: TournamentState | None = None) -> Pairing:
    hit = next((p for p in rnd.pairings if player in (p.player1, p.player2)), None)
    if hit is None and st is not None and player not in st.players:
        raise not_registered(st, player, rnd)
    if hit is None:
        raise InputError(f"{player!r} is not paired in {rnd.name}", field="player")
    if hit.player2 is None:
        raise InputError(f"{player!r} has a bye in {rnd.name}: nothing to report", field="player")
    return hit


def report_result(t: Tournament, player: str, slip: str, *, round_no: int | None = None,
                  table: int | None = None) -> tuple[list[RecordedEvent], TableView]:
    """A player's own report, `slip` in their view (their wins first). Appends `result.reported`
    and, when it agrees with the opponent's latest report, the `result.recorded` it makes (one
    batch). The same report again stores nothing (a double-submitted form). Refused: a closed
    round, a player not at `table` (when given), game counts the format cannot produce."""
    w, l, d = parse_slip(slip, field="result")
    st = t.state()
    rnd = st.rounds[-1] if round_no is None and st.rounds else st.round(round_no or 0)
    if rnd is None:
        raise InputError("no such round" if round_no else "no round has been paired yet", field="round")
    if st.is_closed(rnd):
        raise RoundClosedError(f"{rnd.name} is closed: results are no longer reported here; see a judge",
                               field="round")
    player = resolve_player(st, player, rnd)  # a name typed: the registered one it means
    p = find_player_table(rnd, player, st)
    if table is not None and p.table != table:
        raise InputError(f"{player!r} does not play at table {table} in {rnd.name}", field="player")
    w1, w2 = (w, l) if player == p.player1 else (l, w)
    mine = f"{w1}-{w2}-{d}"
    before = table_status(rnd, p.table)
    if before.reports.get(player) == mine:
        return [], before  # the same report again (a double-submitted form): nothing new
    # the format check is the recorded result's: build that draft whatever happens to it
    result_draft = t._result_draft(st, rnd, p, w1, w2, d, "players", None, field="result")
    drafts = [t._draft("result.reported", {"round": rnd.number, "table": p.table, "player": player,
                                           "wins1": w1, "wins2": w2, "draws": d})]
    opponent = p.player2 if player == p.player1 else p.player1
    if before.result is None and before.reports.get(opponent) == mine:
        drafts.append(result_draft)
    events = t.append(st, drafts)
    return events, table_status(t.state().round(rnd.number), p.table)


def resolve_dispute(t: Tournament, table: int, slip: str, *, reason: str,
                    round_no: int | None = None) -> RecordedEvent:
    """A judge decides a disputed table: the result (table order: player1's wins first), with
    the ruling's reason. Recorded as `result.recorded` source `judge` by the judge's actor."""
    if not reason.strip():
        raise InputError("a judge's decision says why", field="reason")
    w, l, d = parse_slip(slip, field="result")
    st = t.state()
    rnd, p = t._find_table(st, table, None, round_no)
    (ev,) = t.append(st, [t._result_draft(st, rnd, p, w, l, d, "judge", None, False, reason)])
    return ev
