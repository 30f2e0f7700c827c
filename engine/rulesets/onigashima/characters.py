"""The Onigashima character table (engine/data/onigashima_characters.json) and name lookup.

Names are matched loosely (case, dots, spaces and accents ignored) because recorders type them.
Values recorded in a match with `character.stats` take precedence over the table (the table was
scanned and is incomplete).
"""
from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources
from typing import Any

CAMPS = ("alliance", "empereurs")


def key(name: str) -> str:
    """'Monkey.D.Luffy (Gear Fifth)' -> 'monkeydluffygearfifth'."""
    plain = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in plain.lower() if ch.isalnum())


@cache
def table() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("characters.json").read_text("utf-8")
    return json.loads(text)


@cache
def _by_key() -> dict[str, dict[str, Any]]:
    return {key(c["name"]): c for c in table()["characters"]}


def lookup(name: str, overrides: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """A character's printed values: the match's recorded stats over the table's row."""
    row = _by_key().get(key(name))
    over = (overrides or {}).get(key(name))
    if row is None and over is None:
        return None
    merged = dict(row or {"name": name, "base": name, "guessed": [], "weaknesses": None, "haki": []})
    if over:
        merged.update({k: v for k, v in over.items() if v is not None})
        # a value read off the card at the table is no longer a guess
        merged["guessed"] = [g for g in merged.get("guessed", []) if over.get(g) is None]
    return merged


def base_of(name: str, overrides: dict[str, Any] | None = None) -> str:
    row = lookup(name, overrides)
    return key(row["base"]) if row else key(name)


def transfo_need(to: str) -> int | None:
    for t in table()["transformations"]:
        if key(t["to"]) == key(to):
            return t["need"]
    return None


def advanced_haki(row: dict[str, Any]) -> int:
    return sum(1 for h in row.get("haki") or () if h.endswith("_avance"))


def has_haki(row: dict[str, Any], symbol: str) -> bool:
    """An advanced symbol also allows the normal card of the same haki (worked example)."""
    have = set(row.get("haki") or ())
    return symbol in have or (not symbol.endswith("_avance") and symbol + "_avance" in have)
