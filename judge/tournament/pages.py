"""Pages for people: pairings by name and by table, records in words, the printable standings sheet."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from engine.integrity import seal_token
from engine.words import plural

from judge.tournament.standings import (
    DOUBLE_LOSS,
    TIEBREAKER_LABELS,
    TIEBREAKERS,
    format_fraction,
    record_text,
)
from judge.report.templating import render
from judge.tournament.placings import SWISS, bracket, final_placings, placings_or_none
from judge.tournament.names import name_order
from judge.tournament.state import RoundState, TournamentState


# --- pages: pairings and standings for people ------------------------------------------------


def pairings_by_name(rnd: RoundState) -> list[dict[str, Any]]:
    """Every player of a round alphabetically, with table, opponent and result so far (the sheet
    by name). The result is the player's own: their game wins first."""
    rows = []
    for p in rnd.pairings:
        r = rnd.results.get(p.table) if p.table is not None and p.player2 is not None else None
        rows.append({"player": p.player1, "table": p.table, "opponent": p.player2,
                     "result": None if r is None else _result(r.wins1, r.wins2, r)})
        if p.player2 is not None:
            rows.append({"player": p.player2, "table": p.table, "opponent": p.player1,
                         "result": None if r is None else _result(r.wins2, r.wins1, r)})
    return sorted(rows, key=lambda r: name_order(r["player"]))


def _result(mine: int, theirs: int, r: Any) -> str:
    """A result in one player's view (their games first), or `double-loss`."""
    return DOUBLE_LOSS if r.double_loss else f"{mine}-{theirs}-{r.draws}"


def pairings_by_table(rnd: RoundState) -> list[dict[str, Any]]:
    rows = []
    for p in rnd.pairings:
        r = rnd.results.get(p.table) if p.table is not None else None
        rows.append({"table": p.table, "player1": p.player1, "player2": p.player2,
                     "result": None if r is None else _result(r.wins1, r.wins2, r),
                     "reason": p.reason})
    return rows


def standing_rows(standings: Any) -> list[dict[str, Any]]:
    """Standings rows for people: rank, player, points, the record in words, the tiebreakers as
    the sheet prints them (percentages; head-to-head as a number)."""
    return [{"rank": r.rank, "player": r.player, "points": r.points,
             "record": record_text(r.wins, r.losses, r.draws, r.byes, r.missed), "dropped": r.dropped,
             "played": r.played,
             "tiebreakers": [(f"{r.tiebreakers.get(k):g}" if k == "h2h" and r.tiebreakers.get(k) is not None
                              else "" if k == "h2h" else format_fraction(r.tiebreakers.get(k)))
                             for k in standings.policy.order]} for r in standings.rows]


def standings_page(st: TournamentState, round_no: int | None = None) -> str:
    """The printable sheet: standings (after `round_no`, default the latest Swiss round) and the
    pairings of that round's successor (or of the current round), by table and by name. Once the
    top cut is paired, its bracket comes first (and stands for its pairings); once its final has a
    result, the final placings of the players who made the cut above it (the others follow the
    Swiss standings: `tournament placings` lists every place)."""
    if round_no is None:
        round_no = st.last_complete_round()  # a round in progress (its byes too) is not counted yet
    standings = st.standings(round_no) if round_no is not None else st.standings(0)
    swiss = [r for r in st.swiss_rounds if round_no is not None and r.number <= round_no]
    after = swiss[-1].name if swiss else ""
    if round_no is None:
        rnd = st.rounds[-1] if st.rounds else None
    else:
        rnd = next((r for r in st.rounds if r.number == round_no + 1), None) or next(
            (r for r in st.rounds if r.number == round_no), None)
    rows = standing_rows(standings)
    places = placings_or_none(st)
    cut = [p for p in places if p["how"] != SWISS] if places else []
    if rnd is not None and rnd.stage == "elimination":
        rnd = None  # the bracket shows the top cut's tables
    return render(
        "standings.html",
        placings=cut, placings_rest=(len(cut) + 1, len(places)) if places and len(places) > len(cut) else None,
        bracket=bracket(st),
        title=f"{st.name} — standings" + (f" after {after}" if after else ""),
        event_name=st.name,
        subtitle=f"{st.game} · {plural(len(st.players), 'player')} · {len(st.swiss_rounds)} of "
                 f"{st.rounds_planned or '?'} Swiss rounds paired" + (
                     f" · top {st.top_cut_size}" if st.top_cut_size else ""),
        policy_name=standings.policy.name,
        policy_order="points, then " + ", then ".join(TIEBREAKERS[k] for k in standings.policy.order),
        standings_round=after,
        tiebreak_columns=[{"label": TIEBREAKER_LABELS[k], "help": TIEBREAKERS[k]} for k in standings.policy.order],
        rows=rows, warnings=standings.warnings,
        pairings_round=rnd.name if rnd else "",
        by_table=pairings_by_table(rnd) if rnd else [],
        by_name_columns=_halves(pairings_by_name(rnd)) if rnd else [],
        any_byes=any(r.byes for r in standings.rows),
        any_missed=any(r.missed for r in standings.rows),
        source=st.id,
        seals=_seals(st, round_no),
        generated_at=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    )


def _seals(st: TournamentState, round_no: int | None) -> list[dict[str, Any]]:
    """The seals of the rounds the standings count. A round whose results changed after its latest
    seal (a late correction) has no current seal: it is said, with the command that seals it
    again, and the stale token is left off (the page must not vouch for results it does not show)."""
    stale = st.stale_seals()
    out = []
    for n in sorted(st.seals):
        if round_no is None or n > round_no:
            continue
        name = next((r.name for r in st.rounds if r.number == n), f"Round {n}")
        if n in stale:
            e = stale[n]
            out.append({"name": name, "token": "", "stale": (
                f"not current: its results changed after it was sealed (event {e.position}); "
                f"seal it again: tablejudge tournament seal {st.id} --round {n}")})
        else:
            out.append({"name": name, "token": seal_token(st.id, str(n), st.seals[n]["seal"]), "stale": ""})
    return out


def _halves(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The by-name list in two side-by-side tables (each with its own header; CSS columns would
    split one table and leave the second half without one)."""
    if len(rows) < 12:
        return [rows]
    half = (len(rows) + 1) // 2
    return [rows[:half], rows[half:]]


def placings_page(st: TournamentState) -> str:
    """The printable final placings: every player's place (with member id, how they went out and
    Swiss rank), the bracket and the round seals; InputError while the top cut is not over."""
    places = [p.to_dict() for p in final_placings(st)]
    return render(
        "standings.html",
        title=f"{st.name} — final placings",
        event_name=st.name,
        subtitle=f"{st.game} · {plural(len(st.players), 'player')} · {len(st.swiss_rounds)} Swiss rounds · "
                 + (f"top {st.top_cut_size or 2 * len(st.elimination_rounds[0].tables())}" if st.elimination_rounds
                    else "no top cut"),
        policy_name=st.policy.name,
        policy_order="points, then " + ", then ".join(TIEBREAKERS[k] for k in st.policy.order),
        placings=places, placings_all=True, bracket=bracket(st), rows=None,
        source=st.id,
        seals=_seals(st, max(st.seals, default=0)),  # every round's, a stale one said as such
        generated_at=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    )
