"""The event vocabulary of `op2009` (One Piece CardGame 2009, MM25 rules).

Each kind is a fact said at the table, in the rulebook's own terms. Card effects are not simulated:
their visible results are recorded with the ordinary kinds (`damage`, `move`, `modifier`, `effect`)
naming the card. Printed values a check needs (name, Life Points, crew, power, damage) travel with
the event that puts a Character on the Ponte, since the project ships no card database.
"""
from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Literal

from engine.schema import Count, Payload, PayloadError, Player, PositiveCount, Zone, event_kind

Space = Literal["capitano", "marinaio1", "marinaio2"]
SailorSpace = Literal["marinaio1", "marinaio2"]
Cause = Literal["battaglia", "rinforzo", "tecnica", "abilita", "effetto"]


def _nonneg(obj: Payload, *names: str) -> None:
    for n in names:
        v = getattr(obj, n)
        if v is not None and v < 0:
            raise PayloadError(n, "must be 0 or more")


# --- the match: decks, games, sideboarding ----------------------------------------------------


@event_kind("deck.register")
class DeckRegister(Payload):
    """A player's registered deck (card codes, e.g. LK-C07), the straw-hat limits printed on the
    cards that carry them ({code: hats}), and the sideboard."""

    player: Player
    cards: list[str]
    straw_hats: dict[str, int] = field(default_factory=dict)
    sideboard: list[str] = field(default_factory=list)


@event_kind("game.start")
class GameStart(Payload):
    """A game of the match begins: `first` starts. `method` says how game 1's starter was chosen."""

    first: Player
    game: int | None = None
    method: str | None = None


@event_kind("sideboard")
class Sideboard(Payload):
    """Between games: cards out of the deck into the sideboard and in from it."""

    player: Player
    out: list[str] = field(default_factory=list)
    into: list[str] = field(default_factory=list)


@event_kind("concede")
class Concede(Payload):
    player: Player


@event_kind("game.end")
class GameEnd(Payload):
    """A game result the table does not derive (a judge's Game Loss, an agreed draw). Results the
    table derives (the three victory conditions) need no event."""

    how: str
    winner: Player | None = None


# --- preparation ---------------------------------------------------------------------------


@event_kind("shuffle")
class Shuffle(Payload):
    player: Player
    by: Player | None = None


@event_kind("logbook.deal")
class LogbookDeal(Payload):
    """Preparation: the top cards of the Forziere face down to the Logpose (the Giornale di Bordo)."""

    player: Player
    count: Count = 6

    def validate(self) -> None:
        _nonneg(self, "count")


@event_kind("hand.deal")
class HandDeal(Payload):
    """Preparation: the opening hand drawn from the Forziere."""

    player: Player
    count: Count = 7
    cards: list[str] = field(default_factory=list)

    def validate(self) -> None:
        _nonneg(self, "count")


@event_kind("mulligan.pirate")
class PirateMulligan(Payload):
    """The hand is shuffled into the Forziere and 7 new cards drawn (once per match)."""

    player: Player
    cards: list[str] = field(default_factory=list)


@event_kind("redraw")
class Redraw(Payload):
    """The free redraw: the hand to the Oceano, 7 new cards from the Forziere (any number of times)."""

    player: Player
    discarded: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)


@dataclasses.dataclass(frozen=True, kw_only=True)
class _Character(Payload):
    """Printed values of a Character card, as read off the card."""

    card: str
    name: str
    life: int
    crew: str = ""
    power: int | None = None
    damage: int | None = None
    team: bool = False

    def validate(self) -> None:
        _nonneg(self, "life", "power", "damage")


@event_kind("prep.place")
class PrepPlace(_Character):
    """Preparation: a Character from the hand face down into the Captain's or a Sailor's space."""

    player: Player
    space: Space


@event_kind("prep.reveal")
class PrepReveal(Payload):
    """Both players turn their Characters face up and move Life Points from the Giornale di Bordo."""


# --- the turn ------------------------------------------------------------------------------


@event_kind("turn.start")
class TurnStart(Payload):
    player: Player


@event_kind("fase.iniziale")
class FaseIniziale(Payload):
    """The mandatory draw of the Fase Iniziale."""

    player: Player
    card: str | None = None


@event_kind("fase.finale")
class FaseFinale(Payload):
    """The hand brought to 4: `draw` cards drawn, or cards discarded to the Oceano (`discard` names
    them, `discard_count` counts unnamed ones)."""

    player: Player
    draw: Count = 0
    drawn: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    discard_count: Count = 0

    def validate(self) -> None:
        _nonneg(self, "draw", "discard_count")


# --- the seven actions of the Fase Principale ----------------------------------------------


@event_kind("battle.start")
class BattleStart(Payload):
    """Action 1: one of your Characters starts a Battle against an opposing Character. `cost` is the
    Actions spent (1, or an ability's cost); `via` names the card whose ability starts or allows it."""

    player: Player
    attacker: Space
    target: Space
    cost: int = 1
    via: str | None = None

    def validate(self) -> None:
        _nonneg(self, "cost")


@event_kind("battle.prevented")
class BattlePrevented(Payload):
    """A Battle declaration prevented by a card: no Battle, but the Character cannot declare another."""

    player: Player
    attacker: Space
    card: str
    cost: int = 1


@event_kind("ability")
class Ability(Payload):
    """Action 2: a Character's Special Ability with its Action cost; `effect` says what it did."""

    player: Player
    space: Space
    card: str
    cost: int = 0
    effect: str = ""

    def validate(self) -> None:
        _nonneg(self, "cost")


@event_kind("logbook.update")
class LogbookUpdate(Payload):
    """Action 3: the top card of the Forziere, unseen, onto the Giornale di Bordo."""

    player: Player


@event_kind("sailor.call")
class SailorCall(_Character):
    """Action 4: a Character from the hand into an empty Sailor space; Life Points from the Giornale.
    `cost` 0 for Characters whose text makes the call free."""

    player: Player
    space: SailorSpace
    cost: int = 1


@event_kind("sailor.move")
class SailorMove(Payload):
    """Action 5: a Character moves between Sailor spaces 1 and 2 (swapping if both are occupied)."""

    player: Player
    from_space: Space
    to_space: Space


@event_kind("hand.grow")
class HandGrow(Payload):
    """Action 6: draw the top card of the Forziere."""

    player: Player
    card: str | None = None


@event_kind("pass")
class Pass(Payload):
    """Action 7: pass the turn to the opponent (the Fase Finale follows)."""

    player: Player


# --- the Battle ----------------------------------------------------------------------------


@event_kind("reinforce")
class Reinforce(Payload):
    """Battle action: a Character card from the hand into the Reinforcement space (+100 power).
    `damage` is what the fighting Character took for it (1 for another crew)."""

    player: Player
    card: str
    name: str
    crew: str = ""
    team: bool = False
    damage: int = 0

    def validate(self) -> None:
        _nonneg(self, "damage")


@event_kind("technique")
class Technique(Payload):
    """A Technique card onto the Technique space. `usable_by` is its "Utilizzabile da" name
    ("Chiunque" for anyone); `limit` its "Limitato: N"; `interrupt` when played in the opponent's
    battle turn (it does not take a turn)."""

    player: Player
    card: str
    usable_by: str = "Chiunque"
    limit: int | None = None
    interrupt: bool = False
    effect: str = ""


@event_kind("team.call")
class TeamCall(_Character):
    """Battle action: a Team card replaces the fighting Character; `partner` is the Reinforcement
    card (by code) that is the Team's second Character."""

    player: Player
    partner: str
    crews: list[str] = field(default_factory=list)


@event_kind("battle.pass")
class BattlePass(Payload):
    player: Player


@event_kind("modifier")
class Modifier(Payload):
    """The visible result of an effect on a Character in the Battle: +power/+damage (negative for
    maluses) until the Battle ends."""

    player: Player
    space: Space
    card: str
    power: int = 0
    damage: int = 0


@event_kind("damage")
class Damage(Payload):
    """Characters take damage: for each hit, that many Life Point cards go from the top of the pile
    to the hand; a Character at 0 becomes a Trophy. Hits in one event happen at the same time."""

    hits: list[dict[str, str | int]]
    cause: Cause = "battaglia"
    card: str | None = None
    by: Player | None = None

    def validate(self) -> None:
        if not self.hits:
            raise PayloadError("hits", "give at least one hit {player, space, amount}")
        for i, h in enumerate(self.hits):
            if set(h) - {"player", "space", "amount", "by"}:
                raise PayloadError(f"hits[{i}]", "a hit has player, space, amount (and optional by)")
            if h.get("space") not in ("capitano", "marinaio1", "marinaio2"):
                raise PayloadError(f"hits[{i}].space", "must be capitano, marinaio1 or marinaio2")
            amount = h.get("amount")
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise PayloadError(f"hits[{i}].amount", "must be a whole number, 0 or more")
            if not isinstance(h.get("player"), str):
                raise PayloadError(f"hits[{i}].player", "must be a player name")


@event_kind("battle.end")
class BattleEnd(Payload):
    """The used Techniques and Reinforcements go face up to the Oceano; the Battle is over."""


# --- anything else an effect does -------------------------------------------------------------


@event_kind("draw")
class Draw(Payload):
    """A draw made by an effect. `forced` when the player must draw (an empty Forziere then loses)."""

    player: Player
    count: Count = 1
    cards: list[str] = field(default_factory=list)
    card: str | None = None
    forced: bool = True

    def validate(self) -> None:
        _nonneg(self, "count")


@event_kind("move")
class Move(Payload):
    """A card moved by an effect from one zone to another; `by_card` names the effect."""

    player: Player
    from_zone: Zone
    to_zone: Zone
    card: str | None = None
    count: PositiveCount = 1
    to_where: Literal["top", "bottom"] = "top"
    by_card: str | None = None


@event_kind("effect")
class Effect(Payload):
    """Any other visible result of a card effect, in words. `actions` changes this turn's Action
    budget (e.g. -1); `continuous` marks a continuous effect."""

    player: Player
    card: str
    text: str
    actions: int = 0


KINDS = (
    DeckRegister, GameStart, Sideboard, Concede, GameEnd,
    Shuffle, LogbookDeal, HandDeal, PirateMulligan, Redraw, PrepPlace, PrepReveal,
    TurnStart, FaseIniziale, FaseFinale,
    BattleStart, BattlePrevented, Ability, LogbookUpdate, SailorCall, SailorMove, HandGrow, Pass,
    Reinforce, Technique, TeamCall, BattlePass, Modifier, Damage, BattleEnd,
    Draw, Move, Effect,
)

# The seven actions of the Fase Principale (the kinds that spend Actions).
ACTION_KINDS = ("battle.start", "battle.prevented", "ability", "logbook.update", "sailor.call",
                "sailor.move", "hand.grow", "pass")
BATTLE_ACTION_KINDS = ("reinforce", "technique", "team.call", "battle.pass")
