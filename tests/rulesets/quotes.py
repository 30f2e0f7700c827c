"""Is every catalogue quote the rulebook's own words? A check for the tests of each game.

A quote may leave text out only where it says so: "[...]" marks a cut, and an editorial label in
brackets ending with a colon ("[COBRA:]", "[Mulligan Pirata:]") marks a jump to another passage. Each
piece between those marks must appear in the rulebook as written. The comparison ignores what a
scan or a markdown conversion adds and a reader does not see: emphasis marks, underline tags, symbol
glyphs, list bullets and dashes, punctuation, a word hyphenated across a page break, letter case.

    problems = quote_problems("ken", "ken-il-guerriero.it.md")
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from engine.rulesets import get_ruleset
from tests.conftest import ROOT

RULEBOOKS = Path(ROOT) / "tests" / "fixtures" / "rulebooks"
CUT = re.compile(r"\[\.\.\.\]|\[[^\]]*:\]")  # "[...]" or an editorial label "[COBRA:]"


def words(text: str) -> str:
    """The text as the sequence of its words, in lower case."""
    text = re.sub(r"</?u>|\*", "", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("So", "Sk", "Co", "Cn") and ch != "•")
    text = re.sub(r"(\w)-\s*\n\s*(\w)", r"\1\2", text)  # "com-\n\nbattimento": a page break
    text = text.replace("’", "'").replace("$", "")
    text = re.sub(r"[^\w'\s]|_", " ", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def quote_problems(ruleset: str, rulebook: str, *, tables: frozenset[str] = frozenset()) -> list[str]:
    """Each rule whose quote has a piece the rulebook does not contain, with that piece. `tables`:
    ids whose quote reads a table the scan lays out cell by cell (checked word by word instead)."""
    book = words((RULEBOOKS / rulebook).read_text("utf-8"))
    vocabulary = set(book.split())
    out = []
    for rule in get_ruleset(ruleset).rules:
        for piece in CUT.split(rule.quote):
            wanted = words(piece)
            if not wanted:
                continue
            if rule.id in tables:
                missing = [w for w in wanted.split() if w not in vocabulary]
                if missing:
                    out.append(f"{rule.id}: words not in the rulebook: {missing}")
            elif wanted not in book:
                out.append(f"{rule.id}: not in the rulebook as written: {piece.strip()!r}")
    return out
