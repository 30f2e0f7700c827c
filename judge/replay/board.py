"""The board at one moment, as plain data a page draws (the replay viewer's and the recorder's JS,
templates/replay/board.js): per player the counters and each zone, its cards grouped in runs of the
same card (a cost area of DON!! reads `DON!! ×3, DON!! ×2 rested`), an unseen card as `null`; a big
face-down pile only as a count. The ruleset's own summary lines (derived power, DON!!, scores) come
with it, so nothing here knows a game."""
from __future__ import annotations

from typing import Any

from engine.rulesets import Ruleset
from engine.state import TableState

LISTED_UP_TO = 15  # a zone of more cards than this, none of them known, is shown as a count only
FLAGS = ("rested", "face_down", "tapped", "exhausted")  # props a page marks on a card, where a ruleset sets them


def board(state: TableState, ruleset: Ruleset, seats: dict[str, str]) -> dict[str, Any]:
    players = []
    for p in state.players:
        zones = []
        for z in state.zone_names:
            cards = state.zones[p][z]
            entry: dict[str, Any] = {"zone": z, "n": len(cards)}
            if cards and (len(cards) <= LISTED_UP_TO or any(c.code for c in cards)):
                entry["cards"] = _runs(cards)
            zones.append(entry)
        players.append({"name": p, "seat": seats.get(p, ""), "counters": dict(state.counters.get(p, {})),
                        "zones": zones})
    try:
        summary = ruleset.summary_lines(state)
        label = ruleset.turn_label(state)
    except Exception:  # noqa: BLE001 - a ruleset bug must not hide the board (DESK-10 flags it elsewhere)
        summary, label = [], str(state.turn)
    return {"position": state.position, "turn": state.turn, "turn_label": label, "active": state.active,
            "phase": state.phase, "result": state.result, "players": players, "summary": summary}


def _runs(cards: list[Any]) -> list[list[Any]]:
    """[code, count, flags] per run of identical cards (code None: a card nobody saw)."""
    out: list[list[Any]] = []
    for c in cards:
        flags = [f for f in FLAGS if c.props.get(f)]
        if out and out[-1][0] == c.code and out[-1][2] == flags:
            out[-1][1] += 1
        else:
            out.append([c.code, 1, flags])
    return out


def codes_on(b: dict[str, Any]) -> set[str]:
    """Every card number a board shows (to look their names up once)."""
    return {run[0] for pl in b["players"] for z in pl["zones"] for run in z.get("cards", ()) if run[0]}
