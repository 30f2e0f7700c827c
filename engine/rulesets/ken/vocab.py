"""Ken il Guerriero: the event vocabulary (payload classes). See docs/rulesets/ken.md for examples.

Card facts travel inside the events (`facts`), validated by ken_cards.normalise_facts, so that a
log replays with no card database. Card effects are not simulated: what an effect visibly did is
recorded by the event that did it, naming the effect (`effect`).
"""
from __future__ import annotations

from dataclasses import field
from typing import Any, Literal

from engine.schema import Payload, PayloadError, Player, PositiveCount, Zone, event_kind
from .cards import normalise_facts
from engine.rulesets.table.vocab import Shuffle, Turn, one_card_by_uid  # the same kinds as the generic table's

PHASES = ("order", "disengage", "draw", "presentation", "combat", "epilogue")


@event_kind("deck.register")
class DeckRegister(Payload):
    """La sceneggiatura: the deck a player brings. Each entry is a card's printed facts plus `count`.
    Puts that many face-down cards into the player's Future."""

    player: Player
    cards: list[dict[str, Any]]

    def validate(self) -> None:
        for i, entry in enumerate(self.cards):
            normalise_facts(entry, f"cards[{i}]")
            count = entry.get("count", 1)
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise PayloadError(f"cards[{i}].count", "must be a whole number, 1 or more")
        problem = self.stored_limit_problem({"cards": self.cards}, MAX_CARDS)
        if problem:
            raise PayloadError("cards", problem)

    @classmethod
    def stored_limit_problem(cls, payload: dict[str, Any], max_cards: int) -> str | None:
        """Replay puts one card per copy into the Future: the copies must stay within the limit."""
        cards = payload.get("cards")
        if not isinstance(cards, list):
            return None
        counts = [e.get("count", 1) if isinstance(e, dict) else 1 for e in cards]
        if not all(type(c) is int for c in counts) or sum(counts) > max_cards:
            return f"the deck lists more than {max_cards} cards"
        return None


MAX_CARDS = 500  # a deck: the standard game needs at least 75 cards and sets no maximum
MAX_WAVES = 10  # damage dealt again and again (Doppi Danni: 2)


@event_kind("phase")
class Phase(Payload):
    """A phase of the active player's turn begins. In the Order phase `green` is what the players
    counted (optional): the tool derives the green Order points and flags a difference."""

    name: Literal["order", "disengage", "draw", "presentation", "combat", "epilogue"]
    green: int | None = None


@event_kind("draw")
class Draw(Payload):
    """Top of the Future into the hand. `effect` names a card effect (PESCA #) for draws outside
    the Draw phase; `cards` names the drawn cards when the recorder saw them."""

    player: Player
    count: PositiveCount = 1
    cards: list[str] = field(default_factory=list)
    effect: str | None = None


@event_kind("disengage")
class Disengage(Payload):
    """Engaged cards are straightened (Fase Disimpegno). No `units`: all of the player's cards."""

    player: Player
    units: list[str] | None = None


def _check_entries(entries: list[dict[str, Any]]) -> None:
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise PayloadError(f"cards[{i}]", "must be an object")
        unknown = sorted(set(entry) - {"code", "facts", "host", "stack", "top"})
        if unknown:
            raise PayloadError(f"cards[{i}].{unknown[0]}", "unknown field (code, facts, host, stack, top)")
        if "facts" in entry:
            normalise_facts(entry["facts"], f"cards[{i}].facts")
        elif not isinstance(entry.get("code"), str):
            raise PayloadError(f"cards[{i}]", "give the card's `facts`, or the `code` of a card registered with the deck")
        for key in ("host", "stack"):
            if key in entry and not isinstance(entry[key], str):
                raise PayloadError(f"cards[{i}].{key}", "must be a card id (or '#N' for the N-th card of this event)")
        if "top" in entry and not isinstance(entry["top"], bool):
            raise PayloadError(f"cards[{i}].top", "must be true or false")


@event_kind("play")
class Play(Payload):
    """Cards from the hand into the Present, together (an Inhabited Location and its Army are one
    play). Per card: `code` (registered with the deck) and/or `facts`; `host` for a card to assign
    (a card id, or '#N' for the N-th card of this same event); `stack` to place a Life on the
    Master/Character already in play; `top: false` to keep the old top card on top."""

    player: Player
    cards: list[dict[str, Any]]
    effect: str | None = None  # a Capacità Speciale that lets the card(s) enter play otherwise

    def validate(self) -> None:
        if not self.cards:
            raise PayloadError("cards", "play at least one card")
        _check_entries(self.cards)


@event_kind("move")
class Move(Payload):
    """A card moves between zones: a discard for the hand limit, a search, a card an effect
    discards or removes (`effect` names it: such cards give no Order points). Cards assigned to a
    card that leaves the Present follow it."""

    player: Player
    from_zone: Zone
    to_zone: Zone
    uid: str | None = None
    code: str | None = None
    count: PositiveCount = 1
    effect: str | None = None

    def validate(self) -> None:
        one_card_by_uid(self, "a move by uid moves")


@event_kind("life.top")
class LifeTop(Payload):
    """Choose which Life card of a Master/Character is on top (its values count)."""

    player: Player
    uid: str


@event_kind("combat.attack")
class CombatAttack(Payload):
    """The attacker's groups, in declaration order. Each: `target` (a Location, or a Protagonist
    when the defender has no Locations), `cards` (first = the top, nearest the opponent) and an
    optional Master `commander`."""

    player: Player
    groups: list[dict[str, Any]]

    def validate(self) -> None:
        _check_groups(self.groups)


@event_kind("combat.defend")
class CombatDefend(Payload):
    """The defender's groups: one per attacked Location (`target`)."""

    player: Player
    groups: list[dict[str, Any]]

    def validate(self) -> None:
        _check_groups(self.groups)


def _check_groups(groups: list[dict[str, Any]]) -> None:
    for i, g in enumerate(groups):
        if not isinstance(g, dict):
            raise PayloadError(f"groups[{i}]", "must be an object")
        unknown = sorted(set(g) - {"target", "cards", "commander"})
        if unknown:
            raise PayloadError(f"groups[{i}].{unknown[0]}", "unknown field (target, cards, commander)")
        if not isinstance(g.get("target"), str):
            raise PayloadError(f"groups[{i}].target", "required: the attacked card's id")
        cards = g.get("cards", [])
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise PayloadError(f"groups[{i}].cards", "must be a list of card ids")
        if not cards and not g.get("commander"):
            raise PayloadError(f"groups[{i}].cards", "a group needs at least one card")
        if g.get("commander") is not None and not isinstance(g["commander"], str):
            raise PayloadError(f"groups[{i}].commander", "must be a card id")


@event_kind("ability")
class Ability(Payload):
    """A Capacità Speciale is activated in combat. `lives` is the number of activation symbols
    printed before it, `school` their School (none: generic Life drops, or none at all)."""

    player: Player
    uid: str
    name: str
    lives: int = 0
    school: str | None = None
    text: str | None = None


SIDE_FIELDS = {"damage", "effects", "uses", "waves", "lethal", "massacre", "vanquished"}


def _check_side(side: dict[str, Any], path: str) -> None:
    unknown = sorted(set(side) - SIDE_FIELDS)
    if unknown:
        raise PayloadError(f"{path}.{unknown[0]}", f"unknown field ({', '.join(sorted(SIDE_FIELDS))})")
    dmg = side.get("damage")
    if isinstance(dmg, bool) or not isinstance(dmg, int) or dmg < 0:
        raise PayloadError(f"{path}.damage", "required: the damage this group deals, 0 or more")
    for i, eff in enumerate(side.get("effects", [])):
        if not isinstance(eff, dict) or not isinstance(eff.get("effect"), str) or \
                isinstance(eff.get("attack", 0), bool) or not isinstance(eff.get("attack", 0), int):
            raise PayloadError(f"{path}.effects[{i}]", "must be {\"effect\": name, \"attack\": +N}")
    for key in ("uses", "vanquished"):
        v = side.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise PayloadError(f"{path}.{key}", "must be a list of card ids")
    waves = side.get("waves", 1)
    if isinstance(waves, bool) or not isinstance(waves, int) or not 1 <= waves <= MAX_WAVES:
        raise PayloadError(f"{path}.waves", f"must be 1 to {MAX_WAVES} (2: Doppi Danni)")
    for key in ("lethal", "massacre"):
        if side.get(key) is not None and not isinstance(side[key], str):
            raise PayloadError(f"{path}.{key}", "must name the card whose Mortale/Massacratore applies")


@event_kind("combat.damage")
class CombatDamage(Payload):
    """One clash: the attacking group at `target` against its defending group. Per side: the damage
    it deals (`damage`, as the players added it), named `effects` that changed its Attack, the
    Technique/Spirit/one-use cards it `uses`, `waves` (2 = Doppi Danni), `lethal` (Mortale) or
    `massacre` (Massacratore) naming the card, and optionally the cards the players removed as
    `vanquished` (the tool recomputes them and flags a difference)."""

    target: str
    attacker: dict[str, Any]
    defender: dict[str, Any]

    def validate(self) -> None:
        _check_side(self.attacker, "attacker")
        _check_side(self.defender, "defender")

    @classmethod
    def stored_limit_problem(cls, payload: dict[str, Any], max_cards: int) -> str | None:
        """Replay deals the damage once per wave."""
        for side in ("attacker", "defender"):
            waves = payload.get(side, {}).get("waves", 1) if isinstance(payload.get(side), dict) else 1
            if type(waves) is not int or waves > MAX_WAVES:
                return f"{side}.waves is beyond the limit of {MAX_WAVES}"
        return None


@event_kind("combat.end")
class CombatEnd(Payload):
    """End of the Combat phase: Locations are conquered, group cards become Engaged. `conquered`
    and `order` are what the players said (optional; checked against the derived result)."""

    conquered: list[str] | None = None
    order: dict[str, int] | None = None


@event_kind("order.points")
class OrderPoints(Payload):
    """Order points from a card effect (BATTAGLIA, ...). `for_card` names a card whose points these are."""

    player: Player
    add: int
    effect: str
    for_card: str | None = None


@event_kind("effect")
class Effect(Payload):
    """A card effect whose visible result no other event carries (SORPRESA, ANNULLA, ...)."""

    player: Player
    name: str
    uid: str | None = None
    result: str | None = None


@event_kind("victory.declare")
class VictoryDeclare(Payload):
    """The active player declares victory in their Order phase (10+ Order points ahead)."""

    player: Player


@event_kind("concede")
class Concede(Payload):
    player: Player


KINDS = (DeckRegister, Turn, Phase, Draw, Disengage, Play, Move, Shuffle, LifeTop, CombatAttack,
         CombatDefend, Ability, CombatDamage, CombatEnd, OrderPoints, Effect, VictoryDeclare, Concede)
