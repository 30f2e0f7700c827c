"""Card names for the replay and the recorder: the log keeps card numbers, a board shows
`OP01-016 Nami` where a name is known (judge.io.cardnames: the names the match's deck registrations
carry, then the card data: a `cards.db` beside the log first, then the card list shipped with
tablejudge, for the games it covers); a number with no known name stays a number. A file in the
card database's place that is not one does not fail a page: the names come from the card list, and
the server's log says why."""
from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from engine.schema import InputError
from engine.state import TableState
from judge.io.cardnames import CARD_DATA_RULESETS, NUMBER_IN_TEXT, CardNames

log = logging.getLogger("tablejudge.serve")


def card_names(codes: Iterable[str], state: TableState | None, ruleset: Any,
               event_db: str | None = None) -> dict[str, str]:
    """{number: name} for the numbers whose name is known (the others are left out)."""
    db = None
    if getattr(ruleset, "name", None) in CARD_DATA_RULESETS:
        from judge.io.carddb import CardDB
        try:
            db = CardDB.for_log(event_db)
        except InputError as e:
            # names only decorate a page (the replay, the recorder): a bad local card database must
            # not fail it; the commands that need the card facts refuse with the same words
            log.warning("card names from the card snapshot only: %s", e.message)
            db = CardDB()
    names = CardNames.for_state(state, ruleset, db=db)
    return {c: n for c in sorted({c for c in codes if isinstance(c, str) and c}) if (n := names.name(c))}


def names_in(texts: Iterable[str], state: TableState | None, ruleset: Any, event_db: str | None = None,
             known: dict[str, str] | None = None) -> CardNames:
    """Names for the card numbers written in `texts` (an event list, the recorder's buttons), looked
    up as the board's are (`card_names`), beside the ones `known` already (the board's): its
    `text(words)` writes each number with its name."""
    codes = {c for t in texts if t for c in NUMBER_IN_TEXT.findall(t)} - set(known or {})
    return CardNames({**(known or {}), **card_names(codes, state, ruleset, event_db)})
