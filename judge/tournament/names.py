"""Near-duplicate player names: the same person typed twice ("Luca Conte", "luca  conte ",
"Lùca Conte"). Two names are near-duplicates when they are equal after folding case, collapsing
runs of spaces and removing accents (Unicode NFKD, combining marks dropped)."""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable


def name_key(name: str) -> str:
    """The folded form two near-duplicate names share."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def clean_name(name: str) -> str:
    """A name as registered: outer spaces removed, inner runs of spaces made one."""
    return " ".join(name.split())


def similar_to(name: str, existing: Iterable[str]) -> str | None:
    """The registered name `name` is a near-duplicate of (None: none is)."""
    key = name_key(name)
    return next((e for e in existing if name_key(e) == key), None)


def near_duplicates(names: Iterable[str]) -> list[list[str]]:
    """Groups of two or more names that fold to the same key, in first-seen order."""
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(name_key(n), []).append(n)
    return [g for g in groups.values() if len(g) > 1]
