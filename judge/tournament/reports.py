"""Players report their own table's result; the opponent confirms; a disagreement goes to the
judges' queue. Nothing is overwritten: every report is an event and stays one.

    report_result(t, "Ann", "2-1")      # Ann's own view: her game wins first
    report_result(t, "Bob", "1-2")      # Bob agrees: the result is recorded (source "players")

A table's status (pending / reported / disputed / confirmed) and the judges' queue (every
disputed table, both reports, who said what): judge/tournament/tables.py.
"""
from __future__ import annotations


from engine.events import RecordedEvent
from engine.match import InputError

from judge.tournament.aggregate import Tournament, not_paired, resolve_player
from judge.tournament.pairing import Pairing
from judge.tournament.results import parse_slip
from judge.tournament.state import RoundState, TournamentState
from judge.tournament.tables import CONFIRMED, TableView, table_status



class RoundClosedError(InputError):
    """The round is closed: players cannot report for it any more."""


class ResultConfirmed(InputError):
    """A player's report that would change a confirmed table the player already had their say
    on (`_settled_for`): refused, nothing stored (QA70 #8: anyone holding the table's shared link
    reopened a result both players had confirmed by tapping another one). A change after
    confirmation goes through a judge (`resolve`, or an entry with `overwrite` and a reason);
    the web answers 409."""


def _settled_for(rnd: RoundState, table: int, view: TableView, player: str) -> bool:
    """Whether a confirmed table's result is settled for `player`: they reported it themselves
    (a result both players confirmed, or a slip entered as they reported), or a judge decided it
    (a ruling, or an entry over a report with its reason). A result a scorekeeper entered before
    the player said anything is not: the player's different report is their first say, and it
    sends the table to the judges' queue (tables.py: a report that differs from the result)."""
    ev = rnd.result_events[table]
    return (view.reports.get(player) == view.result or ev.payload.get("source") == "judge"
            or bool(ev.payload.get("reason")))


def find_player_table(st: TournamentState, rnd: RoundState, player: str) -> Pairing:
    """The table of `player` (a registered name: resolve_player first) in `rnd` of `st`."""
    hit = next((p for p in rnd.pairings if player in (p.player1, p.player2)), None)
    if hit is None:
        raise not_paired(st, player, rnd)
    if hit.player2 is None:
        raise InputError(f"{player!r} has a bye in {rnd.name}: nothing to report", field="player")
    return hit


def report_result(t: Tournament, player: str, slip: str, *, round_no: int | None = None,
                  table: int | None = None, device: str | None = None) -> tuple[list[RecordedEvent], TableView]:
    """A player's own report, `slip` in their view (their wins first). Appends `result.reported`
    and, when it agrees with the opponent's latest report, the `result.recorded` it makes (one
    batch). The same report again stores nothing (a double-submitted form). Refused: a closed
    round, a player not at `table` (when given), game counts the format cannot produce, and a
    report that differs from a confirmed table's result the player already confirmed, or a
    judge decided (ResultConfirmed: a judge changes it; a report that agrees with it is stored,
    it changes nothing). `device`: the opaque id of the browser it came from (the web desk's), kept
    in the event: tables.py flags a table whose two reports share one."""
    w, l, d = parse_slip(slip, field="result")
    st = t.state()
    rnd = st.rounds[-1] if round_no is None and st.rounds else st.round(round_no or 0)
    if rnd is None:
        raise InputError("no such round" if round_no else "no round has been paired yet", field="round")
    if st.is_closed(rnd):
        raise RoundClosedError(f"{rnd.name} is closed: results are no longer reported here; see a judge",
                               field="round")
    player = resolve_player(st, player, rnd)  # a name typed: the registered one it means
    p = find_player_table(st, rnd, player)
    if table is not None and p.table != table:
        raise InputError(f"{player!r} does not play at table {table} in {rnd.name}", field="player")
    w1, w2 = (w, l) if player == p.player1 else (l, w)
    mine = f"{w1}-{w2}-{d}"
    before = table_status(rnd, p.table)
    if before.reports.get(player) == mine:
        return [], before  # the same report again (a double-submitted form): nothing new
    if before.status == CONFIRMED and before.result != mine and _settled_for(rnd, p.table, before, player):
        raise ResultConfirmed(f"table {p.table}'s result is confirmed ({before.result}, {p.player1}'s games "
                              "first): a change now goes through a judge — call one", field="result")
    # the format check is the recorded result's: build that draft whatever happens to it
    result_draft = t._result_draft(st, rnd, p, w1, w2, d, "players", None, field="result")
    drafts = [t._draft("result.reported", {"round": rnd.number, "table": p.table, "player": player,
                                           "wins1": w1, "wins2": w2, "draws": d,
                                           **({"device": device} if device else {})})]
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
