"""Plain data for the web pages, built from a tournament's state (templates never call the
library): boards, the results grid, the round page, slips, the player's table."""
from __future__ import annotations

from typing import Any

from judge.desk.clock import local_time

from judge.tournament.names import name_keys, namesakes, near_matches, same_names
from judge.tournament.pages import pairings_by_name, standing_rows
from judge.tournament import placings
from judge.tournament.placings import warnings
from judge.tournament.tables import round_tables
from judge.tournament.rounds import clock_view
from judge.tournament.standings import TIEBREAKER_LABELS, TIEBREAKERS
from judge.tournament.state import RoundState, TournamentState


def standings_rows(st: TournamentState, round_no: int | None = None) -> dict[str, Any]:
    if round_no is None:
        round_no = st.last_complete_round() or 0
    s = st.standings(round_no)
    swiss = [r for r in st.swiss_rounds if r.number <= round_no]
    rows = standing_rows(s)
    return {"after": swiss[-1].name if swiss else "", "rows": rows, "warnings": s.warnings,
            "columns": [{"label": TIEBREAKER_LABELS[k], "help": TIEBREAKERS[k]} for k in s.policy.order],
            "order": "points, then " + ", then ".join(TIEBREAKERS[k] for k in s.policy.order)}


def points_before(st: TournamentState, rnd: RoundState) -> dict[str, int]:
    """Match points each player had when the round was paired (what pairings boards print)."""
    return {r.player: r.points for r in st.standings(rnd.number - 1).rows} if rnd.stage == "swiss" else {}


def pairings_board(st: TournamentState, rnd: RoundState) -> dict[str, Any]:
    pts = points_before(st, rnd)
    by_name = pairings_by_name(rnd)
    for r in by_name:
        r["points"] = pts.get(r["player"])
        r["opponent_points"] = pts.get(r["opponent"]) if r["opponent"] else None
    by_table = [{"table": p.table, "player1": p.player1, "player2": p.player2, "points1": pts.get(p.player1),
                 "points2": pts.get(p.player2) if p.player2 else None, "reason": p.reason}
                for p in rnd.pairings]
    return {"round": rnd.number, "name": rnd.name, "stage": rnd.stage, "by_name": by_name, "by_table": by_table}


def my_table(st: TournamentState, rnd: RoundState, query: str) -> dict[str, Any]:
    """The "my table" page's answer to a typed name, in `rnd`: `found`, the registered players the
    name means (the same name but for case, spaces and accents: same_names), else those whose name
    contains it (near_matches, as the CLI's "did you mean"); `others`, the players registered
    under a similar name (namesakes) listed apart. Each row: the pairing row (table, opponent,
    result) when paired in `rnd`, and `dropped_after_round`. QA70 #7: a dropped "Maria Rossi" typing
    her name saw only "Maria Rossi (M99999)"'s table, another person's, and no word of her drop."""
    paired = {r["player"]: r for r in pairings_board(st, rnd)["by_name"]}
    keys = name_keys(st.players)  # each name folded once, for the order and the namesakes
    ordered = sorted(st.players, key=lambda n: (keys[n], n))  # name_order, as the sheet by name

    def row(name: str) -> dict[str, Any]:
        return {"player": name, "table": None, "opponent": None, "result": None, "paired": name in paired,
                **paired.get(name, {}), "dropped_after_round": st.players[name].dropped_after_round}

    exact = list(same_names(query, ordered))
    found = exact or near_matches(query, ordered)
    # each found name's namesakes asked once, with the folded names: linear in the players (it
    # asked every player's namesakes once per player: quadratic)
    close = {n for f in exact for n in namesakes(f, ordered, keys=keys)} - set(found)
    others = [n for n in ordered if n in close]
    return {"found": [row(n) for n in found], "others": [row(n) for n in others]}


def grid(st: TournamentState, rnd: RoundState) -> list[dict[str, Any]]:
    return [v.to_dict() for v in round_tables(rnd)]


def round_page(st: TournamentState, rnd: RoundState) -> dict[str, Any]:
    clock = clock_view(rnd)
    if clock.get("running"):
        clock["ends_local"] = local_time(clock["ends_at"])
        for x in clock["tables"]:
            x["ends_local"] = local_time(x["ends_at"])
    return {"number": rnd.number, "name": rnd.name, "stage": rnd.stage, "closed": st.is_closed(rnd),
            "closed_explicitly": rnd.closed_at is not None, "notes": rnd.notes, "seed": rnd.seed,
            "tables": grid(st, rnd), "byes": [p.player1 for p in rnd.pairings if p.player2 is None],
            "pairings": pairings_board(st, rnd)["by_table"], "missing": rnd.missing(),
            "clock": clock, "matches": rnd.matches}




# the final placings and the bracket: the library's, shared with the printable standings sheet
placings_or_none = placings.placings_or_none
bracket = placings.bracket


def warning_list(st: TournamentState, include_resolved: bool = False, store: Any = None) -> list[dict[str, Any]]:
    """The tournament's warnings; with its `store`, also the results out of date with their match."""
    return [w.to_dict() for w in warnings(st, include_resolved=include_resolved, store=store)]


def result_choices(best_of: int, max_wins: int) -> list[dict[str, Any]]:
    """The W-L-D a player may report in this format, wins first: for the player page's buttons."""
    out = []
    for w in range(max_wins, -1, -1):
        for l in range(0, max_wins + 1):
            for d in range(0, best_of + 1):
                if w + l + d == 0 or w + l + d > best_of or (w == max_wins and l == max_wins):
                    continue
                if w != max_wins and l != max_wins and w + l + d < best_of and not d:
                    continue  # an unfinished match without drawn games is not a result
                label = ("I won" if w > l else "I lost" if l > w else "Draw") + f" {w}-{l}" + (f"-{d}" if d else "")
                out.append({"slip": f"{w}-{l}-{d}", "label": label, "outcome": "win" if w > l else "loss" if l > w else "draw"})
    order = {"win": 0, "draw": 1, "loss": 2}
    return sorted(out, key=lambda c: (order[c["outcome"]], c["slip"]))
