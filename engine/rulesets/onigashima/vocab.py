"""The vocabulary of `onigashima`: camps, captains, deals, character stats, turns, fights (initiative,
transformations, cards, attacks, dodges) and the end of a fight."""
from __future__ import annotations

from dataclasses import field
from typing import Literal

from engine.schema import Count, Payload, PayloadError, Player, event_kind

Camp = Literal["alliance", "empereurs"]
Haki = Literal["perceptif", "offensif", "royal", "perceptif_avance", "offensif_avance", "royal_avance"]


def _d6(name: str, value: int | None) -> None:
    if value is not None and not 1 <= value <= 6:
        raise PayloadError(name, f"a D6 shows 1 to 6, got {value}")


# --- vocabulary ---------------------------------------------------------------------------------


@event_kind("camps")
class Camps(Payload):
    """The two camps: the players of the alliance and of the emperors."""

    alliance: list[Player]
    empereurs: list[Player]


@event_kind("captain")
class Captain(Payload):
    """A player chooses its captain among its camp's characters."""

    player: Player
    character: str


@event_kind("deal")
class Deal(Payload):
    """A camp draws its character cards: named (`characters`) or only counted (`count`)."""

    camp: Camp
    count: Count = 0
    characters: list[str] = field(default_factory=list)

    def validate(self) -> None:
        if not self.count and not self.characters:
            raise PayloadError("count", "give the cards drawn or their count")
        if self.count and self.characters and self.count != len(self.characters):
            raise PayloadError("count", f"says {self.count} but {len(self.characters)} cards are named")


@event_kind("character.stats")
class CharacterStats(Payload):
    """A character's printed values as read off the card, for this match: corrects the scanned
    table or adds a character missing from it (weaknesses are only on the cards)."""

    name: str
    base: str | None = None
    camp: Camp | None = None
    initiative: int | None = None
    dice: int | None = None
    defence: int | None = None
    energy: int | None = None
    haki: list[Haki] | None = None
    weaknesses: list[str] | None = None


@event_kind("turn")
class Turn(Payload):
    """A turn begins (one fight per turn). `number` defaults to the previous turn + 1."""

    number: int | None = None


@event_kind("fight.start")
class FightStart(Payload):
    """The two face-down characters are revealed: player -> character (its form as sent)."""

    fighters: dict[str, str]


@event_kind("initiative.roll")
class InitiativeRoll(Payload):
    """Equal initiative: each fighter's player rolls a die; the higher attacks first."""

    rolls: dict[str, int]

    def validate(self) -> None:
        for p, r in self.rolls.items():
            _d6(f"rolls.{p}", r)


@event_kind("transform")
class Transform(Payload):
    """A transformation roll. `to`: the form taken (none when it failed); `need`: the card's
    TRANSFO value (default: the value the rulebook gives, when it gives one)."""

    player: Player
    roll: int
    to: str | None = None
    need: int | None = None

    def validate(self) -> None:
        _d6("roll", self.roll)
        _d6("need", self.need)


@event_kind("card")
class Card(Payload):
    """An Attack, Defence or Weakness card, with what it did as recorded: `damage` to the opponent
    (an attack that can be dodged), `heal`, `cancel` (annuls the opponent's last attack or card),
    `take_initiative` (its player attacks first), `instead_of_attack` (played in place of the dice)."""

    player: Player
    name: str
    type: Literal["attaque", "defense", "faiblesse"]
    haki: Haki | None = None
    weakness: Literal["Orgueil", "Gourmandise", "Peur", "Granit Marin"] | None = None
    damage: int | None = None
    heal: int | None = None
    cancel: bool = False
    take_initiative: bool = False
    instead_of_attack: bool = False
    text: str | None = None

    def validate(self) -> None:
        if self.type == "faiblesse" and self.weakness is None:
            raise PayloadError("weakness", "a Weakness card names the weakness it exploits")
        for name in ("damage", "heal"):
            v = getattr(self, name)
            if v is not None and v < 0:
                raise PayloadError(name, "must be 0 or more")


@event_kind("attack")
class Attack(Payload):
    """A dice attack: the final dice (after rerolls), the ability in force as recorded, and the
    energy the table said the defender lost (`energy_lost`), which the tool checks."""

    player: Player
    dice: list[int] = field(default_factory=list)
    ability_faces: list[int] = field(default_factory=list)
    ability_energy: int = 0
    bonus: int = 0
    defence_minus: int = 0
    cancelled_dice: list[int] = field(default_factory=list)
    dice_removed: int = 0
    energy_lost: int | None = None

    def validate(self) -> None:
        for i, d in enumerate(self.dice):
            _d6(f"dice[{i}]", d)
        for i, d in enumerate(self.ability_faces):
            _d6(f"ability_faces[{i}]", d)
        if self.ability_faces and self.ability_energy <= 0:
            raise PayloadError("ability_energy", "the ability's energy per die is needed with its faces")
        if not self.dice and self.energy_lost is None:
            raise PayloadError("dice", "give the dice, or at least the energy_lost the table applied")
        if self.energy_lost is not None and self.energy_lost < 0:
            raise PayloadError("energy_lost", "must be 0 or more")


@event_kind("dodge")
class Dodge(Payload):
    """An advanced-haki dodge of the opponent's last attack: the defender's D6."""

    player: Player
    roll: int

    def validate(self) -> None:
        _d6("roll", self.roll)


@event_kind("fight.end")
class FightEnd(Payload):
    """The fight is over. `how`: "energy" (the loser is at 0), "card" (a card decided it), "flee"
    (a card let a fighter leave: no winner)."""

    winner: Player | None = None
    how: Literal["energy", "card", "flee"] = "energy"

    def validate(self) -> None:
        if self.how != "flee" and self.winner is None:
            raise PayloadError("winner", "a fight won by energy or by a card has a winner")


# --- the ruleset ---------------------------------------------------------------------------------


KINDS = (Camps, Captain, Deal, CharacterStats, Turn, FightStart, InitiativeRoll, Transform, Card, Attack, Dodge, FightEnd)
