"""The vocabulary of `grandline`: setup, rounds, phases, draws, plays, attacks, discards, destroys, damage,
island visits, victory points, concessions."""
from __future__ import annotations

from typing import Literal

from engine.schema import Count, Payload, PayloadError, Player, PositiveCount, event_kind

CardType = Literal["character", "item", "event", "island", "location", "treasure"]
PhaseName = Literal["preparation", "main", "action", "combat", "end"]


@event_kind("setup")
class Setup(Payload):
    """A player's Captain, its initiative and life value (as printed), and the cards in deck/hand."""

    player: Player
    captain: str
    initiative: int = 0
    captain_life: int | None = None
    deck: Count = 49
    hand: Count = 0

    def validate(self) -> None:
        if self.deck < 0 or self.hand < 0:
            raise PayloadError("deck", "card counts are 0 or more")


@event_kind("round")
class Round(Payload):
    """A round begins with its start player. `rolls`: the die rolls that chose the first one."""

    start_player: Player
    number: int | None = None
    rolls: dict[str, int] | None = None


@event_kind("phase")
class Phase(Payload):
    """A phase of the round: preparation, main (A) or action (B), combat, end."""

    name: PhaseName


@event_kind("draw")
class Draw(Payload):
    player: Player
    count: PositiveCount = 1


@event_kind("play")
class Play(Payload):
    """A card from the hand, with its cost and printed values. `quick`: a Schnell/Reaktion card,
    playable outside the main phase. `typ`: the printed Typ line (Pirat, Marine, ...)."""

    player: Player
    card: str
    type: CardType
    cost: int = 0
    attack: int | None = None
    defence: int | None = None
    life: int | None = None
    typ: str | None = None
    quick: bool = False

    def validate(self) -> None:
        if self.cost < 0:
            raise PayloadError("cost", "must be 0 or more")


@event_kind("attack")
class Attack(Payload):
    """`attacker`: a character of the player's field (card name or uid). `target`: "direct" (the
    opponent's life / Captain) or an opposing card. `blocker`: the defender's blocking character."""

    player: Player
    attacker: str
    target: str = "direct"
    target_player: Player | None = None
    blocker: str | None = None
    unblockable: bool = False


@event_kind("discard")
class Discard(Payload):
    player: Player
    count: Count = 1
    card: str | None = None


@event_kind("destroy")
class Destroy(Payload):
    """A card destroyed by an effect (not by combat)."""

    player: Player
    card: str
    reason: str = ""


@event_kind("damage")
class Damage(Payload):
    """Life lost to an effect (not by combat)."""

    player: Player
    amount: int
    reason: str = ""


@event_kind("island.visit")
class IslandVisit(Payload):
    player: Player
    island: str
    vp: int


@event_kind("vp")
class VictoryPoints(Payload):
    """Victory points from another source ('das Erfüllen von bestimmten Bedingungen')."""

    player: Player
    add: int
    reason: str = ""


@event_kind("concede")
class Concede(Payload):
    player: Player


KINDS = (Setup, Round, Phase, Draw, Play, Attack, Discard, Destroy, Damage, IslandVisit, VictoryPoints, Concede)
