"""Plausible games from hypothesis: a list of integers drives a game-playing policy.

Each game's `games()` (tests/rulesets/<game>/games.py) draws a `Tape` and plays a whole game with it:
every decision (which card, attack or not, how many) reads the next integer, and once the tape runs
out a generator seeded with it goes on, so a short tape still plays a whole varied game and the same
tape always plays the same one (hypothesis replays and shrinks it). The policy looks at the real
table (the ruleset's own `check` and `apply`, as replay runs them), so it plays cards that are where
it says they are.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

from engine.events import RecordedEvent
from engine.rulesets import get_ruleset
from engine.schema import ParseContext

T = TypeVar("T")
Step = tuple[str, str, dict[str, Any]]


class Tape:
    def __init__(self, values: Sequence[int]):
        self.values = list(values)
        self.i = 0
        self.rest = random.Random(",".join(map(str, self.values)))  # once the tape has run out

    def int(self, n: int) -> int:
        """A number in 0..n-1. Hypothesis favours the ends of a range (0, 2**16), so each value is
        mixed with its place on the tape (Fibonacci hashing): a tape of equal values still plays a
        varied game. Past the end of the tape, a generator seeded with the tape goes on (the same
        tape always plays the same game)."""
        if n <= 1:
            return 0
        if self.i >= len(self.values):
            return self.rest.randrange(n)
        v = ((self.values[self.i] + 1) * 0x9E3779B1 + self.i * 0x85EBCA6B) % 2**32
        self.i += 1
        return (v >> 8) % n

    def pick(self, options: Sequence[T]) -> T:
        return options[self.int(len(options))]

    def chance(self, percent: int) -> bool:
        """True about `percent` times in 100."""
        return self.int(100) >= 100 - percent

    def shuffled(self, items: Sequence[T]) -> list[T]:
        rest, out = list(items), []
        while rest:
            out.append(rest.pop(self.int(len(rest))))
        return out


def tapes(min_size: int = 40, max_size: int = 400) -> st.SearchStrategy[Tape]:
    return st.lists(st.integers(0, 2**16), min_size=min_size, max_size=max_size).map(Tape)


class Table:
    """A game recorded in memory as replay would judge it: each step is parsed, checked against the
    table before it and applied, so a policy can read `state` (and the steps list is the log)."""

    def __init__(self, ruleset: str, players: Sequence[str], options: dict | None = None):
        self.rs = get_ruleset(ruleset)(options or {})
        self.players = list(players)
        self.options = dict(options or {})
        self.created = _seal(1, "match.created", "-", {"ruleset": ruleset, "players": self.players,
                                                        **({"options": self.options} if self.options else {})})
        self.state = self.rs.new_state(self.created)
        self.steps: list[Step] = []
        self.vocab = self.rs.vocabulary()

    def do(self, kind: str, actor: str = "-", **payload: Any) -> None:
        data = self.vocab[kind].parse(payload, ParseContext(tuple(self.players), tuple(self.rs.zones))).to_dict()
        e = _seal(len(self.steps) + 2, kind, actor, data)  # event 1 is match.created
        self.rs.check(self.state, e)
        self.rs.apply(self.state, e)
        self.state.position = e.position
        self.steps.append((kind, actor, data))

    def events(self) -> list[RecordedEvent]:
        """The log so far, match.created first (what an end-of-time procedure reads)."""
        return [self.created] + [_seal(i + 2, k, a, p) for i, (k, a, p) in enumerate(self.steps)]

    @property
    def over(self) -> bool:
        return self.rs.outcome(self.state) is not None


def _seal(position: int, kind: str, actor: str, payload: dict[str, Any]) -> RecordedEvent:
    return RecordedEvent.seal(match="g", position=position, kind=kind, version=1, actor=actor, payload=payload,
                              recorded_at="", recorded_by="games", prev_hash="")
