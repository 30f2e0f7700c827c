"""What a judge reads off a table when time is called on a match nobody recorded event by event.

At a real event almost no match is recorded move by move, yet the end-of-time procedure must still
be applied. The judge walks to the table and reads what the procedure needs (the turn, Life, deck
sizes, Characters, games won...) and types it:

    tablejudge timelimit M1 --facts "turn=4 life=2-3 deck=20-18"

Each ruleset declares the facts its procedure reads (`Ruleset.time_facts`, a tuple of `Fact`) and
builds a table from them (`Ruleset.table_from_facts`); the procedure itself is the very one that
decides a recorded match (`Ruleset.end_of_time`), so the two can never disagree. This module only
reads the text, strictly: an unknown key, a value of the wrong shape or out of its range, a missing
fact or one given twice is refused with the key and the column, and nothing is recorded.

Shapes:
- `count`: a whole number in [low, high] (`turn=4`);
- `each`: one whole number per player, in seat order, joined by `-` (`life=2-3`; three players
  `vp=3-5-2`);
- `player`: a player's name or seat letter (A, B, ...), or `none` (nobody) or `both` (both players at
  once) where the fact allows it;
- `flag`: yes/no (also true/false, 1/0).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.schema import shown

MAX_TEXT = 1000  # a facts line is a few dozen characters; anything longer is refused unread
YES = {"yes": True, "y": True, "true": True, "1": True, "no": False, "n": False, "false": False, "0": False}
_PAIR = re.compile(r"\S+")
BOTH = "both"  # a `player` fact's value where both players did it at once (Fact.both_ok)


class FactsError(ValueError):
    """A facts line that cannot be read; `col` is the 1-based column of the offending item."""

    def __init__(self, message: str, col: int = 0, key: str | None = None):
        super().__init__(message)
        self.message = message
        self.col = col
        self.key = key

    def __str__(self) -> str:
        return f"{self.message} (column {self.col})" if self.col else self.message


class FactsNeeded(FactsError):
    """A recorded match whose end-of-time decision reaches a count the log does not know (an optcg
    deck never registered): the procedure stops there rather than derive a winner from it, and the
    judge reads the table and decides from `facts`, a facts line with what the record knows filled
    in and `?` where the count must be read (`tablejudge timelimit MATCH --facts "..."`)."""

    def __init__(self, message: str, key: str, facts: str):
        super().__init__(message, 0, key)
        self.facts = facts


@dataclass(frozen=True)
class Fact:
    """One thing the judge reads off the table. `what` says it for the judge (help, errors, forms)."""

    key: str
    shape: str            # count | each | player | flag
    what: str
    low: int = 0
    high: int = 99
    required: bool = True
    none_ok: bool = False  # player: `none` allowed (nobody did it)
    both_ok: bool = False  # player: `both` allowed (both players at once: BOTH)
    optional: str = "optional"  # how --help and errors call a fact that is not required
    eg: str = ""  # the example --help and errors print, where the generic one is no possible value

    def example(self, players: list[str]) -> str:
        if self.eg:
            return self.eg
        if self.shape == "each":
            return "-".join(str(min(self.high, 3 + i)) for i in range(len(players)))
        if self.shape == "player":
            return "A"
        if self.shape == "flag":
            return "yes"
        return str(min(self.high, max(self.low, 3)))


def usage(facts: tuple[Fact, ...], players: list[str]) -> str:
    """One line per fact, for --help, errors and the web form."""
    seats = ", ".join(f"{chr(65 + i)} = {p}" for i, p in enumerate(players))
    lines = [f"  {f.key}={f.example(players)}   {f.what}{'' if f.required else f' ({f.optional})'}" for f in facts]
    return "\n".join(lines + [f"  (seats: {seats}; values per player in seat order, joined by '-')"])


def parse_facts(text: str, facts: tuple[Fact, ...], players: list[str], *, complete: bool = True) -> dict[str, Any]:
    """The facts of `text` as {key: value} (`each` -> {player: n}); FactsError on anything else.
    `complete=False`: the required facts are not asked for yet (`require`: a caller that first
    checks what was given against the log, QA76 #5)."""
    if not isinstance(text, str):
        raise FactsError("the facts must be text, e.g. \"turn=4 life=2-3\"")
    if len(text) > MAX_TEXT:
        raise FactsError(f"the facts are {len(text):,} characters long; at most {MAX_TEXT:,}", MAX_TEXT + 1)
    by_key = {f.key: f for f in facts}
    out: dict[str, Any] = {}
    for m in _PAIR.finditer(text):
        item, col = m.group(), m.start() + 1
        key, eq, raw = item.partition("=")
        key = key.strip().lower()
        if not eq or not key or not raw:
            raise FactsError(f"{shown(item)}: write key=value, e.g. {facts[0].key}={facts[0].example(players)}"
                             if facts else f"{shown(item)}: this ruleset reads no facts", col, key or None)
        fact = by_key.get(key)
        if fact is None:
            known = ", ".join(by_key) or "none"
            raise FactsError(f"unknown fact {shown(key)} (this ruleset reads: {known})", col, key)
        if key in out:
            raise FactsError(f"{key} is given twice", col, key)
        out[key] = _value(fact, raw, col + len(key) + 1, players)
    if complete:
        require(out, facts)
    return out


def require(values: dict[str, Any], facts: tuple[Fact, ...]) -> None:
    """FactsError naming each required fact `values` lacks."""
    missing = [f for f in facts if f.required and f.key not in values]
    if missing:
        raise FactsError("missing " + ", ".join(f"{f.key} ({f.what})" for f in missing), 0, missing[0].key)


def _number(fact: Fact, raw: str, col: int) -> int:
    if not re.fullmatch(r"[0-9]{1,6}", raw):
        raise FactsError(f"{fact.key}: {shown(raw)} is not a whole number from {fact.low} to {fact.high}",
                         col, fact.key)
    n = int(raw)
    if not fact.low <= n <= fact.high:
        raise FactsError(f"{fact.key}: {n} is out of range ({fact.what}: {fact.low} to {fact.high})", col, fact.key)
    return n


def _value(fact: Fact, raw: str, col: int, players: list[str]) -> Any:
    if fact.shape == "count":
        return _number(fact, raw, col)
    if fact.shape == "each":
        parts = raw.split("-")
        if len(parts) != len(players):
            raise FactsError(f"{fact.key}: give {len(players)} numbers joined by '-', one per player in seat "
                             f"order ({' - '.join(players)}), e.g. {fact.key}={fact.example(players)}", col, fact.key)
        out, at = {}, col
        for p, part in zip(players, parts):
            out[p] = _number(fact, part, at)
            at += len(part) + 1
        return out
    if fact.shape == "player":
        if fact.none_ok and raw.lower() in ("none", "nobody", "-"):
            return None
        if fact.both_ok and raw.lower() == BOTH:
            return BOTH
        return player_of(raw, players, fact, col)
    if fact.shape == "flag":
        if raw.lower() not in YES:
            raise FactsError(f"{fact.key}: {shown(raw)} is not yes or no", col, fact.key)
        return YES[raw.lower()]
    raise ValueError(f"fact {fact.key}: unknown shape {fact.shape!r}")  # a ruleset's bug, not input


def player_of(raw: str, players: list[str], fact: Fact, col: int) -> str:
    """A player by seat letter (A, B, ...) or name (case-insensitive)."""
    if len(raw) == 1 and raw.isalpha() and ord(raw.upper()) - 65 < len(players):
        return players[ord(raw.upper()) - 65]
    for p in players:
        if p.lower() == raw.lower():
            return p
    allowed = (", ".join(f"{chr(65 + i)}/{p}" for i, p in enumerate(players)) + (", none" if fact.none_ok else "")
               + (", both" if fact.both_ok else ""))
    raise FactsError(f"{fact.key}: {shown(raw)} is not a player of this match ({allowed})", col, fact.key)


def from_log(known: Mapping[str, Any], given: Mapping[str, Any], facts: tuple[Fact, ...],
             players: list[str]) -> dict[str, Any]:
    """Of the facts a recorded log knows (`known`: a ruleset's `logged_facts`), those `given` (a
    judge's --facts) leaves out, in the ruleset's order: the judge is asked only for what the log
    lacks (QA84 #7: `--facts "turn=3"` on a recorded match asked for the Life it had). An `each`
    fact only where the log knows every player's count (one count alone is no fact to decide on)."""
    out: dict[str, Any] = {}
    for f in facts:
        value = known.get(f.key)
        if f.key in given or value is None:
            continue
        if f.shape == "each" and not (isinstance(value, Mapping) and all(p in value for p in players)):
            continue
        out[f.key] = {p: value[p] for p in players} if f.shape == "each" else value
    return out


LOG_NOTE = "_log_note"  # in a ruleset's logged_facts: why counts the log has are not the table's (no fact)


def log_words(known: Mapping[str, Any], logged: Mapping[str, Any], players: list[str]) -> str:
    """What a decision from facts took from the log (`logged`, from_log's) and why it took no more
    (`known`'s LOG_NOTE): "the log has life=4-4; the log stops at turn 0 ...", or ''."""
    return "; ".join(([f"the log has {facts_text(dict(logged), players)}"] if logged else [])
                     + ([known[LOG_NOTE]] if known.get(LOG_NOTE) else []))


def facts_text(values: dict[str, Any], players: list[str]) -> str:
    """The facts as the judge would type them (stored beside the decision, shown in reports)."""
    return " ".join(f"{k}={value_text(v, players)}" for k, v in values.items())


def value_text(v: Any, players: list[str]) -> str:
    """One fact's value as the judge types it (a flag yes/no, not Python's True/False)."""
    if isinstance(v, Mapping):
        return "-".join(str(v[p]) for p in players)
    if isinstance(v, bool):
        return "yes" if v else "no"
    return "none" if v is None else str(v)


def blank(text: str) -> str:
    """A facts line with each value a `?` the judge fills (`each` values keep their '-': life=?-?):
    the facts a decision was given from, asked for again. Refused as typed (not a value), so a
    command printed with it records nothing until the judge has read the table again. Each part
    between the separators is blanked whole, empty ones too (`life=-2` is `life=?-?`, not `-?`)."""
    return " ".join(f"{k}={'-'.join('?' for _ in v.split('-'))}" for k, _, v in (m.group().partition("=")
                                                                                for m in _PAIR.finditer(text)))


def timelimit_command(match: str, facts: str | None = None, judge: str | None = "NAME") -> str:
    """`tablejudge timelimit MATCH`, as a hint prints it to decide (again). `facts`: the facts line
    of the decision it replaces, where that one was given from facts read off the table: the log
    has no play to decide on then, so the command asks for the facts again (`blank`); without them
    the log alone gives "continue" (QA83 #2). `judge`: the --judge placeholder, None for none."""
    return (f"tablejudge timelimit {match}" + (f" --facts \"{blank(facts)}\"" if facts else "")
            + (f" --judge {judge}" if judge else ""))


def read_again(facts: str | None) -> str:
    """Said after a `timelimit_command` printed with `facts`: that the facts are read off the table
    again (its `?`s), and what they were; '' for a decision from the log."""
    return (f" (decided from facts read off the table, {facts}: read them again and fill in each ?)"
            if facts else "")
