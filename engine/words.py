"""Small helpers for text a person reads: "1 event", "2 events"."""
from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """`n` and the noun in the right number: plural(1, "card") -> "1 card", plural(2, "copy", "copies")."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
