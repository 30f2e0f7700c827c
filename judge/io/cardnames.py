"""Card names for people: `OP01-078` reads as `OP01-078 Boa Hancock` wherever a person reads it (state,
audit, findings, reports, the live recorder). The log keeps numbers; names are added when text is shown.

Names come from the log first (a `deck.registered` event carries each card's name with its facts), then,
for `optcg`, from the card data (judge.io.carddb), so a card nobody registered still has its name.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.match import InputError
from engine.state import TableState
from judge.io.cardsnapshot import GAMES

NUMBER_IN_TEXT = re.compile(r"(?<![\w-])([A-Z]{1,4}\d{0,3}-\d{3}[A-Z]?)(?![\w-])")
CARD_DATA_RULESETS = GAMES  # rulesets whose card numbers the card data knows


class CardNames:
    """Names by card number: `label(number)`, and `text(words)` naming every number in a text."""

    def __init__(self, known: Mapping[str, str] | None = None, db: Any = None):
        self.known = dict(known or {})
        self.db = db

    @classmethod
    def for_state(cls, state: TableState | None, ruleset: Any = None, db: Any = None) -> "CardNames":
        """Names the log gives (`facts` with a `name`), and the card data's for a game it covers."""
        facts = (state.extra.get("facts") if state is not None and isinstance(state.extra, dict) else None) or {}
        known = {code: f["name"] for code, f in facts.items() if isinstance(f, dict) and isinstance(f.get("name"), str)}
        if db is None and getattr(ruleset, "name", None) in CARD_DATA_RULESETS:
            from judge.io.carddb import CardDB
            db = CardDB()
        return cls(known, db)

    def name(self, number: str | None) -> str | None:
        if not number:
            return None
        if number not in self.known and self.db is not None:
            try:
                found = self.db.name(number)
            except InputError:  # no card snapshot at all ($TABLEJUDGE_CARD_SNAPSHOT wrong): numbers stay numbers
                found = None
            self.known[number] = found  # type: ignore[assignment]
        return self.known.get(number)

    def label(self, number: str | None) -> str:
        """`OP01-078 Boa Hancock`; the number alone when no name is known."""
        if not number:
            return "a card"
        name = self.name(number)
        return f"{number} {name}" if name else number

    def text(self, words: str) -> str:
        """Every card number in `words` followed by its name (once: a name already there stays)."""
        if not words:
            return words

        def named(m: re.Match) -> str:
            number = m.group(1)
            name = self.name(number)
            if not name or words[m.end():m.end() + len(name) + 1] == " " + name:
                return number
            return f"{number} {name}"

        return NUMBER_IN_TEXT.sub(named, words)

    def cards(self, numbers: list[str]) -> list[str]:
        return [self.label(n) for n in numbers]


NO_NAMES = CardNames()
