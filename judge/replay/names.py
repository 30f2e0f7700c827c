"""Card names for people: the log keeps card numbers, a page shows `OP01-016 Nami` where a name is
known. Names come from the card facts a match registered (a `name` among a card's facts, when the
registration carried one), then from the card database beside the log (`cards.db`, judge.io.carddb,
filled by `tablejudge cards import`); a number with no known name stays a number."""
from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from engine.state import TableState


def registered_names(state: TableState | None) -> dict[str, str]:
    """Names the log itself gives: facts a deck registration copied in, with a `name`."""
    facts = state.extra.get("facts") if state is not None and isinstance(state.extra, dict) else None
    if not isinstance(facts, dict):
        return {}
    return {code: f["name"] for code, f in facts.items()
            if isinstance(f, dict) and isinstance(f.get("name"), str) and f["name"].strip()}


def card_names(codes: Iterable[str], state: TableState | None = None, cards_db: str | None = None) -> dict[str, str]:
    """{number: name} for the numbers whose name is known (the others are left out)."""
    wanted = {c for c in codes if isinstance(c, str) and c}
    known = {c: n for c, n in registered_names(state).items() if c in wanted}
    missing = wanted - set(known)
    if missing and cards_db and os.path.exists(cards_db):
        known.update(_from_db(cards_db, missing))
    return known


def _from_db(path: str, codes: set[str]) -> dict[str, str]:
    from judge.io.carddb import CardDB  # sqlite-utils: only when a card database is there
    db = CardDB(path)
    out = {}
    for code in sorted(codes):
        row: Any = db.get(code)
        if row and isinstance(row.get("name"), str) and row["name"].strip():
            out[code] = row["name"]
    return out


def cards_db_beside(store_description: str) -> str | None:
    """The card database `tablejudge cards` keeps beside a SQLite log (None for PostgreSQL: then
    ./cards.db, as the CLI uses)."""
    from judge.io.carddb import default_path
    if "://" in store_description:
        return default_path(None)
    return default_path(store_description)
