"""Near-duplicate player names: the same person typed twice ("Luca Conte", "luca  conte ",
"Lùca Conte"). Two names are near-duplicates when they are equal after folding case, collapsing
runs of spaces and removing accents (Unicode NFKD, combining marks dropped).

A name typed to find someone ("my table" on the web, `--player`, `drop`) is matched the same way:
`near_matches` gives the names whose folded form contains the typed one's ("jose garcia" finds
"José García"; "garcia" finds every García), and `did_you_mean` says them; `namesakes` gives the
other registered names a found player may be taken for (either name contains the other's)."""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from engine.schema import shown

T = TypeVar("T")


def name_key(name: str) -> str:
    """The folded form two near-duplicate names share."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def name_order(name: str) -> tuple[str, str]:
    """A name's place in a list by name (the standings' last tiebreak, the pairings by name): case
    and accents folded, so `Álvaro` sorts with the A's (QA75 7: by code point it came after `Zoë`,
    300th of 300); the name itself breaks a tie of folded forms."""
    return name_key(name), name


def name_keys(names: Iterable[str]) -> dict[str, str]:
    """Each name's name_key, for a caller that compares many names with many (`namesakes`' keys)."""
    return {n: name_key(n) for n in names}


def clean_name(name: str) -> str:
    """A name as registered: outer spaces removed, inner runs of spaces made one."""
    return " ".join(name.split())


def same_names(name: str, existing: Iterable[str]) -> Iterator[str]:
    """The names among `existing` that `name` is a near-duplicate of (the same name_key), in
    order. Registration refuses one (similar_to); a typed name means the one there is
    (judge.tournament.aggregate.resolve_player)."""
    key = name_key(name)
    return (e for e in existing if name_key(e) == key)


def similar_to(name: str, existing: Iterable[str]) -> str | None:
    """The registered name `name` is a near-duplicate of (None: none is)."""
    return next(same_names(name, existing), None)


def near_matches(query: str, items: Iterable[T], *, key: Callable[[T], str] = str,
                 limit: int | None = 10) -> list[T]:
    """The items whose name (`key(item)`) may be what `query` means: its folded form (name_key)
    contains the query's. In the items' order, at most `limit`; none for a blank query. The web's
    "my table" page and the CLI's suggestions both ask this."""
    folded = name_key(query)
    hits = [i for i in items if _within(folded, name_key(key(i)))]
    return hits if limit is None else hits[:limit]


def _within(folded_query: str, folded: str) -> bool:
    """Does a folded name contain a folded typed one? A blank one means nobody."""
    return bool(folded_query) and folded_query in folded


def namesakes(name: str, names: Iterable[str], *, keys: dict[str, str] | None = None) -> list[str]:
    """The other names among `names` that `name` may be taken for: one's folded form contains the
    other's, either way (as near_matches matches), as "Maria Rossi" and "Maria Rossi (M99999)",
    registered apart as docs/tournaments.md advises for two people of the same name. In the names'
    order. What `drop` names as not dropped, and "my table" lists apart from the player found.
    `keys`: each name's name_key, folded already (a caller asking for several names folds once)."""
    fold = keys.__getitem__ if keys is not None else name_key
    mine = fold(name)
    return [n for n in names if n != name and (_within(mine, k := fold(n)) or _within(k, mine))]


def did_you_mean(query: str, names: Iterable[str], where: Callable[[str], str | None] = lambda n: None,
                 limit: int = 5) -> str:
    """`did you mean 'José García' (table 12) or 'Jose Garcia' (table 40)?` for the near matches
    of a name that is not registered ("" when there is none). `where(name)`: what to say in
    brackets after a name (its table this round), or None."""
    hits = near_matches(query, names, limit=limit + 1)
    if not hits:
        return ""

    def one(n: str) -> str:
        said = where(n)
        return shown(n) + (f" ({said})" if said else "")

    said = [one(n) for n in hits[:limit]] + (["another"] if len(hits) > limit else [])
    return "did you mean " + (said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]) + "?"


def near_duplicates(names: Iterable[str]) -> list[list[str]]:
    """Groups of two or more names that fold to the same key, in first-seen order."""
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(name_key(n), []).append(n)
    return [g for g in groups.values() if len(g) > 1]
