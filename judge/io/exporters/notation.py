"""The text notation (docs/notation.md): the header block and one canonical line per event.
Importing the file again rebuilds a log with the same state hash (times and recorders aside).
The match id is not written: importing the file makes a new match (a [Match "ID"] tag, added by
hand, keeps an id)."""
from __future__ import annotations

from typing import TextIO

from engine.match import Match

from engine.notation import format_game

EXTENSION = "txt"


def export_match(match: Match, out: TextIO) -> int:
    events = match.events()
    out.write(format_game(events[0], events, match.ruleset))
    return len(events)
