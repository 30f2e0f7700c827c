"""The text notation (docs/notation.md): the header block and one canonical line per event.
Importing the file again rebuilds a log with the same state hash (times and recorders aside).
The match id is not written: importing the file makes a new match (a [Match "ID"] tag, added by
hand, keeps an id). A decklist whose card facts are the card data's is written as a [Deck] tag."""
from __future__ import annotations

from typing import TextIO

from engine.match import Match

from engine.notation import format_game
from judge.io import carddb

EXTENSION = "txt"


def export_match(match: Match, out: TextIO) -> int:
    events = match.events()
    db = carddb.for_store(match.store)
    out.write(format_game(events[0], events, match.ruleset, cards=lambda rs: carddb.match_cards(rs, db)))
    return len(events)
