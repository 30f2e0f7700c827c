"""The ONE PIECE CARD GAME card database: card facts imported from vegapull-records JSON, stored with
sqlite-utils in a SQLite file (default `cards.db` beside the event log), and decklist text parsing.

A vegapull record: `{"id", "name", "category", "colors", "cost", "power", "counter", "types",
"trigger", "effect", ...}`; a Leader's Life is stored in `cost`. Keywords ([Blocker], [Rush],
[Double Attack], [Banish], [Counter]) are read from the start of an effect's lines (a keyword granted
by a condition, "gains [Rush]", is not the card's own).

When a deck is registered in a match, `registration_payload()` copies the facts the checks need into
the `deck.registered` event: replay never looks anything up.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from engine.match import InputError
from engine.schema import PayloadError, read_json, shown

DEFAULT_NAME = "cards.db"
CATEGORIES = ("leader", "character", "event", "stage", "don")
KEYWORD_RE = re.compile(r"(?:^|[\r\n])\s*(?:\[[^\]]*\]\s*)*?\[(Blocker|Rush|Double Attack|Banish|Counter)\]", re.I)
DECK_LINE = re.compile(r"^\s*(\d{1,9})\s*[xX×]?\s*([A-Z]{1,4}\d{0,3}-\d{3}[A-Z]?)\s*$")
DECK_LINE_AFTER = re.compile(r"^\s*([A-Z]{1,4}\d{0,3}-\d{3}[A-Z]?)\s*[xX×]\s*(\d{1,9})\s*$")
MAX_FACT = 1_000_000  # a cost, power, counter or Life: far above any printed card (1e309 is refused)
MAX_COPIES = 50  # copies of one card on a decklist line: a whole deck (the rulebook allows 4)
FACT_FIELDS = ("category", "cost", "power", "counter", "colors", "life", "trigger", "keywords")


def default_path(event_db: str | None = None) -> str:
    """`cards.db` beside the event log (a SQLite path), else in the current folder."""
    if event_db and "://" not in event_db:
        return os.path.join(os.path.dirname(os.path.abspath(event_db)), DEFAULT_NAME)
    return os.path.abspath(DEFAULT_NAME)


def keywords(effect: str | None) -> list[str]:
    if not effect:
        return []
    found = []
    for m in KEYWORD_RE.finditer(effect):
        word = m.group(1).title() if m.group(1).lower() != "double attack" else "Double Attack"
        if word not in found:
            found.append(word)
    return found


def _int(value: Any, where: str, name: str) -> int | None:
    if value is None or value == "" or value == "-":
        return None
    if isinstance(value, bool):
        raise InputError(f"must be a number, got {shown(value)}", where=where, field=name)
    if isinstance(value, int) and abs(value) <= MAX_FACT:
        return value
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,9}", value.strip()):
        return int(value.strip())
    raise InputError(f"must be a whole number of at most {MAX_FACT:,}, got {shown(value)}",
                     where=where, field=name)


def normalize(rec: Any, where: str) -> dict[str, Any]:
    """One vegapull record -> one row of the `cards` table."""
    if not isinstance(rec, dict):
        raise InputError("each card must be a JSON object", where=where)
    cid = rec.get("id")
    if not isinstance(cid, str) or not cid.strip():
        raise InputError("every card needs an 'id' (card number)", where=where, field="id")
    cat = str(rec.get("category") or "").strip().lower()
    if cat not in CATEGORIES:
        raise InputError(f"unknown category {rec.get('category')!r} (one of {', '.join(CATEGORIES)})",
                         where=where, field="category")
    colors = rec.get("colors") or []
    if isinstance(colors, str):
        colors = [c.strip() for c in re.split(r"[/,]", colors) if c.strip()]
    if not isinstance(colors, list) or not all(isinstance(c, str) for c in colors):
        raise InputError("must be a list of colour names", where=where, field="colors")
    cost = _int(rec.get("cost"), where, "cost")
    trigger = rec.get("trigger")
    effect = rec.get("effect") or ""
    return {
        "id": cid.strip(),
        "name": str(rec.get("name") or ""),
        "category": cat,
        "colors": colors,
        # a Leader's Life is stored in `cost` by vegapull
        "cost": None if cat == "leader" else cost,
        "life": cost if cat == "leader" else _int(rec.get("life"), where, "life"),
        "power": _int(rec.get("power"), where, "power"),
        "counter": _int(rec.get("counter"), where, "counter"),
        "types": rec.get("types") or [],
        "trigger": trigger if isinstance(trigger, str) and trigger.strip() else None,
        "effect": effect if isinstance(effect, str) else "",
        "keywords": keywords(effect if isinstance(effect, str) else ""),
    }


@dataclass
class DeckReport:
    leader: str
    cards: list[str]
    unknown: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "count": len(self.cards), "unknown": self.unknown,
                "problems": self.problems, "findings": self.findings}


class CardDB:
    def __init__(self, path: str):
        self.path = path
        self.db = sqlite_utils.Database(path)

    @classmethod
    def open_existing(cls, path: str) -> "CardDB":
        if not os.path.exists(path):
            raise InputError(f"no card database at {path} (create it with `tablejudge cards import FILE`)",
                             field="cards")
        return cls(path)

    # --- import -----------------------------------------------------------------------------

    def import_json(self, path: str) -> int:
        """Import a vegapull JSON file (a list of cards, or {"cards": [...]}); all or nothing."""
        try:
            with open(path, encoding="utf-8") as f:
                data = read_json(f.read())  # NaN, 4,300+ digit numbers, deep nesting: refused in words
        except OSError as e:
            raise InputError(f"cannot read {path}: {e.strerror}", where=path) from None
        except UnicodeDecodeError as e:
            raise InputError(f"not UTF-8 text ({e.reason})", where=path) from None
        except PayloadError as e:
            raise InputError(e.message, where=path) from None
        if isinstance(data, dict):
            data = data.get("cards")
        if not isinstance(data, list):
            raise InputError("expected a JSON list of cards (vegapull-records format)", where=path)
        rows = [normalize(rec, f"{path}: card {i + 1}") for i, rec in enumerate(data)]
        with self.db.conn:
            self.db["cards"].upsert_all(rows, pk="id", alter=True)
        return len(rows)

    # --- look-ups ---------------------------------------------------------------------------

    def get(self, cid: str) -> dict[str, Any] | None:
        if "cards" not in self.db.table_names():
            return None
        try:
            row = self.db["cards"].get(cid)
        except sqlite_utils.db.NotFoundError:
            return None
        for key in ("colors", "types", "keywords"):
            if isinstance(row.get(key), str):
                row[key] = json.loads(row[key])
        return row

    def facts_for(self, codes: list[str]) -> dict[str, dict[str, Any]]:
        """{number: facts} for the known numbers among `codes` (the unknown are left out)."""
        out = {}
        for code in dict.fromkeys(codes):
            row = self.get(code)
            if row is not None:
                out[code] = {k: row[k] for k in FACT_FIELDS if row.get(k) not in (None, [], "")}
                out[code]["category"] = row["category"]
                out[code].setdefault("keywords", [])
        return out


# --- decklists ----------------------------------------------------------------------------------

def parse_decklist(text: str, where: str = "decklist") -> tuple[list[str], list[str]]:
    """`4xOP01-016` per line (also `4 x OP01-016`, `4 OP01-016`, `OP01-016 x4`); `#` starts a comment.
    Returns (card numbers, one per copy) and the lines it could not read (reported, not fatal)."""
    cards: list[str] = []
    problems: list[str] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = DECK_LINE.match(line)
        if m:
            count, code = int(m.group(1)), m.group(2)
        else:
            m = DECK_LINE_AFTER.match(line)
            if not m:
                problems.append(f"{where}:{n}: cannot read {raw.strip()!r} (expected e.g. 4xOP01-016)")
                continue
            code, count = m.group(1), int(m.group(2))
        if count > MAX_COPIES:  # expanded below: "999999999x" must not build a billion-item list
            problems.append(f"{where}:{n}: {count:,} copies of {code}: at most {MAX_COPIES} on one line")
            continue
        cards.extend([code] * count)
    return cards, problems


def check_decklist(db: CardDB | None, text: str, leader: str, *, where: str = "decklist") -> DeckReport:
    """Parse a decklist and run the deck rules on it. A Leader listed in the text is taken as the
    Leader and left out of the 50."""
    from engine.rulesets import get_ruleset
    from engine.rulesets.optcg.ruleset import check_deck

    cards, problems = parse_decklist(text, where)
    facts = db.facts_for(cards + [leader]) if db is not None else {}
    listed_leaders = [c for c in cards if facts.get(c, {}).get("category") == "leader"]
    if leader in listed_leaders:
        cards.remove(leader)
    rs = get_ruleset("optcg")()
    findings = check_deck(rs, os.path.basename(where), leader, cards, facts)
    unknown = sorted({c for c in cards + [leader] if c not in facts})
    return DeckReport(leader, cards, unknown, problems, [f.to_dict() for f in findings])


def registration_payload(db: CardDB | None, player: str, leader: str, deck: list[str], *,
                         source: str | None = None) -> dict[str, Any]:
    """A `deck.registered` payload with the card facts copied in (facts, not look-ups)."""
    facts = db.facts_for([leader] + deck) if db is not None else {}
    payload: dict[str, Any] = {"player": player, "leader": leader, "deck": list(deck), "cards": facts}
    if source:
        payload["source"] = source
    return payload
