"""The table as plain data for templates: zones and counters per player, and the grid's layout."""
from __future__ import annotations

from typing import Any

from engine.names import shown
from engine.state import TableState



# --- the table as plain data -----------------------------------------------------------------


# Zones and counters side by side, one row per player, fit an A4 page up to this many zones (a
# counter is a narrow number: up to GRID_MAX_COLUMNS zones and counters together). A ruleset with
# more (op2009 shows up to 14 zones, optcg 8) gets the grid turned: a row per counter and zone, a
# column per player.
GRID_MAX_ZONES = 7
GRID_MAX_COLUMNS = 10


def table_view(state: TableState, ruleset, names: Any = None) -> dict[str, Any]:
    """The table at one moment: per player counters and zones (count, known cards with their names
    when `names` (judge.io.cardnames.CardNames) knows them, unknown count),
    the zones and counters worth a column (a zone no player has a card in is left out), and the
    grid's layout ("columns": a row per player; "rows": a row per zone, see GRID_MAX_ZONES)."""
    players = []
    for p in state.players:
        zones = []
        for z in state.zone_names:
            cards = state.zones[p][z]
            known = [names.label(c.code) if names is not None else c.code for c in cards if c.code is not None]
            zones.append({"name": z, "count": len(cards), "known": known, "unknown": len(cards) - len(known)})
        players.append({"name": p, "counters": dict(state.counters.get(p, {})), "zones": zones,
                        "active": state.active == p})
    zone_names = [z for z in state.zone_names if any(state.zones[p][z] for p in state.players)]
    counter_names = list(dict.fromkeys(c for p in state.players for c in state.counters.get(p, {})))
    return {"position": state.position, "turn": state.turn, "phase": state.phase,
            "active": state.active, "players": players,
            "summary": [names.text(s) if names is not None else s for s in ruleset.summary_lines(state)],
            "voided": list(state.voided), "result": state.result,
            "zone_names": zone_names, "counter_names": counter_names,
            "layout": grid_layout(len(zone_names), len(zone_names) + len(counter_names))}


def grid_layout(zones: int, columns: int) -> str:
    return "rows" if zones > GRID_MAX_ZONES or columns > GRID_MAX_COLUMNS else "columns"


def same_layout(views: list[dict[str, Any]]) -> None:
    """One layout for every table of a report (the widest decides), so the grids read alike."""
    zones = max((len(v["zone_names"]) for v in views), default=0)
    columns = max((len(v["zone_names"]) + len(v["counter_names"]) for v in views), default=0)
    for v in views:
        v["layout"] = grid_layout(zones, columns)


def result_text(result: str | None, winner: str | None, names: dict[str, str] | None = None) -> str:
    """A result in words; the winner's seat as named now (`names`: engine.names.names_now)."""
    if result is None:
        return "not decided"
    if result == "win":
        return f"{shown(winner, names or {})} wins" if winner else "win"
    return {"draw": "draw", "double-loss": "double loss"}.get(result, result)
