"""The vocabulary of `table`: the generic event kinds (setup, turn, phase, draw, move, reveal, shuffle,
counter, concede, game.end). Other rulesets reuse the generic ones that fit their game as they are."""
from __future__ import annotations

from dataclasses import field
from typing import Literal

from engine.schema import Count, Payload, PayloadError, Player, PositiveCount, Zone, event_kind, named_cards_within_count

Where = Literal["top", "bottom"]


def one_card_by_uid(payload: Payload, does: str) -> None:
    """A card named by instance (`uid`) is one card: a count beside it must be 1."""
    if getattr(payload, "uid", None) is not None and getattr(payload, "count", 1) != 1:
        raise PayloadError("count", f"{does} exactly one card")


@event_kind("setup")
class Setup(Payload):
    """Put cards into a zone before play: `count` unknown cards and/or the listed known cards."""

    player: Player
    zone: Zone
    count: Count = 0
    cards: list[str] = field(default_factory=list)

    def validate(self) -> None:
        if not self.count and not self.cards:
            raise PayloadError("count", "give a count of unknown cards, or cards, or both")


@event_kind("turn")
class Turn(Payload):
    """A player's turn begins. `number` defaults to the previous turn + 1."""

    player: Player
    number: int | None = None


@event_kind("phase")
class Phase(Payload):
    name: str


@event_kind("draw")
class Draw(Payload):
    """Top of the deck to the hand. `cards` names the drawn cards when the recorder saw them."""

    player: Player
    count: PositiveCount = 1
    cards: list[str] = field(default_factory=list)

    validate = named_cards_within_count


@event_kind("move")
class Move(Payload):
    """One or more cards from a zone to a zone. Name the card by number (`card`), by instance (`uid`),
    or neither: then the top (or bottom) card moves, known or not."""

    player: Player
    from_zone: Zone
    to_zone: Zone
    card: str | None = None
    uid: str | None = None
    count: PositiveCount = 1
    from_where: Where = "top"
    to_where: Where = "top"
    to_player: Player | None = None

    def validate(self) -> None:
        one_card_by_uid(self, "a move by uid moves")


@event_kind("reveal")
class Reveal(Payload):
    """Cards are shown: the card with `uid`; else `count` cards of the zone (1 by default) are shown to
    be `card`: copies already known as it first (the reveal confirms them), then the topmost unknown
    cards, which become known."""

    player: Player
    zone: Zone
    card: str
    uid: str | None = None
    count: PositiveCount = 1

    def validate(self) -> None:
        one_card_by_uid(self, "a reveal by uid shows")


@event_kind("shuffle")
class Shuffle(Payload):
    player: Player
    zone: Zone


@event_kind("counter")
class Counter(Payload):
    """Set or change a counter (Life, points, ...). Give exactly one of `set` and `add`."""

    name: str
    player: Player | None = None
    set: int | None = None
    add: int | None = None

    def validate(self) -> None:
        if (self.set is None) == (self.add is None):
            raise PayloadError("set", "give exactly one of 'set' and 'add'")


@event_kind("concede")
class Concede(Payload):
    player: Player


@event_kind("game.end")
class GameEnd(Payload):
    """The game is over: a winner (or none, for a draw) and how, in words."""

    how: str
    winner: Player | None = None
