"""The log's own consistency tests against the replayed table (one job: compare, say what differs).

- `RZ1|CHK` (1.42+): after each move, the count of cards in each of the player's ten zones.
- Summaries (every version; the only test in 1.40a): `[X] Hand: [ids]`, `Board: [ids]`,
  `Trash: [ids]`, `Life: n`, printed for both players after each End Turn and some effects.

A card the replay holds but cannot name (a Life card taken into the hand in a 1.40a log, which
writes no move for it) matches any card of the log's list: the counts must agree and every card the
replay can name must be in the list.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from engine.state import TableState

from judge.io.importers._optcgsim_lines import ZONES
from judge.numbers import whole_number

SUMMARY_ZONES = {"Hand": "hand", "Board": "characters", "Trash": "trash"}


def count_mismatches(state: TableState, player: str, counts: list[int]) -> list[tuple[str, int, int]]:
    """(zone, log, replay) for each zone whose count differs from the check line's."""
    zones = state.zones[player]
    return [(ZONES[zi], want, len(zones[ZONES[zi]])) for zi, want in enumerate(counts)
            if len(zones[ZONES[zi]]) != want]


def summary_mismatch(state: TableState, player: str, what: str, value: str) -> dict[str, Any] | None:
    """None when the summary agrees with the replayed zone, else what each side says."""
    if what == "Life":
        got = len(state.zone(player, "life"))
        text = value.strip()
        # ASCII digits only, as every other number of the log (judge.numbers; str.isdigit took any script's)
        number = whole_number(text, negative=True, digits=5)
        want: Any = text if number is None else number
        return None if got == want else {"log": want, "replay": got}
    listed = Counter(x.strip() for x in value.strip("[] ").split(",") if x.strip())
    cards = state.zone(player, SUMMARY_ZONES[what])
    known = Counter(c.code for c in cards if c.code)
    unknown = len(cards) - sum(known.values())
    if sum(listed.values()) == len(cards) and not known - listed and unknown >= 0:
        return None
    return {"log": sorted(listed.elements()), "replay": sorted(c.code or "?" for c in cards)}
