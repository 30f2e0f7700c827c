"""The `optcg` event vocabulary: what happens at a ONE PIECE CARD GAME table, one payload class per act.

Cards are named by card number (`card`, e.g. "OP01-016") and/or by instance (`uid`, from `tablejudge
state`). Effects are not simulated: an event caused by an effect names it in `by` (free text, e.g.
"OP01-016 [On Play]"). Power, Life totals and whose turn it is are never stored: replay derives them.
"""
from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Any, Literal

from engine.schema import Count, Payload, PayloadError, Player, PositiveCount, Zone, event_kind, named_cards_within_count
from engine.rulesets.table.vocab import Reveal

Timing = Literal["main", "activate_main", "on_play", "when_attacking", "on_block", "counter", "trigger",
                 "on_ko", "end_of_turn", "during_turn", "opponent_turn", "battle_end", "other"]
Duration = Literal["battle", "turn", "permanent"]
Area = Literal["character", "stage", "event"]
Keyword = Literal["blocker", "rush", "double attack", "banish"]  # table.KEYWORDS


def _card_or_uid(obj: Any, card: str = "card", uid: str = "uid") -> None:
    if getattr(obj, card) is None and getattr(obj, uid) is None:
        raise PayloadError(card, f"name the card by number ('{card}') or by instance ('{uid}')")


@event_kind("deck.registered")
class DeckRegistered(Payload):
    """A player's Leader, 50-card deck and DON!! deck, with the card facts the checks need copied in
    (`cards`: {number: {category, cost, power, counter, colors, life, trigger, keywords}}), so replay
    never depends on a card database. `deck` lists the 50 card numbers when known; else `deck_size`."""

    player: Player
    leader: str
    deck: list[str] = field(default_factory=list)
    deck_size: Count | None = None
    don: Count = 10
    cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    source: str | None = None

    def validate(self) -> None:
        if self.deck and self.deck_size is not None and self.deck_size != len(self.deck):
            raise PayloadError("deck_size", f"is {self.deck_size} but deck lists {len(self.deck)} cards")


@event_kind("turn.order")
class TurnOrder(Payload):
    """Who goes first; `chosen_by` is the player who won rock-paper-scissors and chose."""

    first: Player
    chosen_by: Player | None = None


@event_kind("draw")
class Draw(Payload):
    """Top of the deck to the hand (opening hand, draw phase, or an effect named in `by`)."""

    player: Player
    count: PositiveCount = 1
    cards: list[str] = field(default_factory=list)
    by: str | None = None

    validate = named_cards_within_count


@event_kind("mulligan")
class Mulligan(Payload):
    """The one mulligan decision. `decision: keep` keeps the hand. With `return_hand` (default) a
    mulligan puts the whole hand back and shuffles (then record `draw` 5); an importer that records
    each card's move sets it false."""

    player: Player
    decision: Literal["mulligan", "keep"] = "mulligan"
    return_hand: bool = True


@event_kind("life.placed")
class LifePlaced(Payload):
    """Cards from the top of the deck, one by one, face down into the Life area (the first at the
    bottom). `cards` names them when known (a simulator log does). No `count`: as many as `cards`
    names, else the Leader's Life (遊戲的準備 ⑥), else unknown (flagged). `by`: an effect, or a
    judge's fix of the Life area after the game began (docs/rulesets/optcg.md)."""

    player: Player
    count: PositiveCount | None = None
    cards: list[str] = field(default_factory=list)
    by: str | None = None

    def validate(self) -> None:
        if self.count is not None:  # (no count: as many as named)
            named_cards_within_count(self)


@event_kind("turn")
class Turn(Payload):
    """A player's turn begins."""

    player: Player


@event_kind("refresh")
class Refresh(Payload):
    """Refresh phase: the player's rested cards become active and attached DON!! return to the cost area."""

    player: Player


@event_kind("phase")
class Phase(Payload):
    """An explicit phase marker (optional: draw/DON!!/main/end are also derived from the actions)."""

    player: Player
    name: Literal["refresh", "draw", "don", "main", "end"]


@event_kind("don")
class Don(Payload):
    """DON!! phase (or an effect in `by`): DON!! cards from the DON!! deck to the cost area, active.
    No `count`: what the DON!! phase gives (準備階段: 2, and 1 in the first player's first turn)."""

    player: Player
    count: PositiveCount | None = None
    rested: bool = False
    by: str | None = None


@event_kind("play")
class Play(Payload):
    """A Character / Stage / Event from the hand. `paid` DON!! are rested from the cost area (default:
    the card's cost, or 0 when an effect in `by` plays it). `trash_uid`: the Character trashed first
    to make room for a 6th. `area` says where it goes when the card facts are unknown."""

    player: Player
    card: str
    uid: str | None = None
    paid: int | None = None
    by: str | None = None
    trash_uid: str | None = None
    area: Area | None = None
    rested: bool = False

    def validate(self) -> None:
        if self.paid is not None and self.paid < 0:
            raise PayloadError("paid", "must be 0 or more")


@event_kind("don.rest")
class DonRest(Payload):
    """Rest active DON!! in the cost area (a cost like ①, or paying before a play)."""

    player: Player
    count: PositiveCount = 1
    by: str | None = None


@event_kind("don.activate")
class DonActivate(Payload):
    """Set rested DON!! in the cost area active (only an effect, named in `by`, does this)."""

    player: Player
    count: PositiveCount = 1
    by: str | None = None


@event_kind("don.attach")
class DonAttach(Payload):
    """Attach active DON!! from the cost area to the player's Leader or a Character (`to` uid or
    `card` number). `rested`: the attached DON!! come from rested ones (an effect in `by`)."""

    player: Player
    to: str | None = None
    card: str | None = None
    count: PositiveCount = 1
    rested: bool = False
    by: str | None = None

    def validate(self) -> None:
        _card_or_uid(self, "card", "to")


@event_kind("don.detach")
class DonDetach(Payload):
    """Attached DON!! go back to the cost area (`rested` by default: the card left the field)."""

    player: Player
    uid: str | None = None
    card: str | None = None
    count: PositiveCount = 1
    rested: bool = True
    by: str | None = None


@event_kind("don.minus")
class DonMinus(Payload):
    """DON!! −N: return DON!! from the field (cost area first, or `attached`) to the DON!! deck."""

    player: Player
    count: PositiveCount = 1
    source: Literal["cost", "attached"] = "cost"
    by: str | None = None


@event_kind("effect")
class Effect(Payload):
    """An effect is activated: its card, its timing, and its costs (① = `rest_don`, DON!!−N =
    `don_minus`, DON!!×N = `don_req`). Its visible results are recorded as ordinary events with `by`."""

    player: Player
    card: str
    uid: str | None = None
    timing: Timing = "other"
    once_per_turn: bool = False
    don_req: int | None = None
    rest_don: int = 0
    don_minus: int = 0
    text: str | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class _OnOneCard(Payload):
    """Something happens to one card on the field, named by `uid` or card number, caused by `by`.
    (Not a kind itself: the kinds below share its fields.)"""

    player: Player
    uid: str | None = None
    card: str | None = None
    by: str | None = None

    def validate(self) -> None:
        _card_or_uid(self)


@event_kind("rest")
class Rest(_OnOneCard):
    """A Leader / Character / Stage is rested by an effect (`by`)."""


@event_kind("set.active")
class SetActive(_OnOneCard):
    """A Leader / Character / Stage is set active by an effect (`by`)."""


@event_kind("power.mod")
class PowerMod(Payload):
    """A power change from an effect, lasting `duration` (battle, turn, or while on the field)."""

    player: Player
    amount: int
    uid: str | None = None
    card: str | None = None
    duration: Duration = "turn"
    by: str | None = None

    def validate(self) -> None:
        _card_or_uid(self)


@event_kind("keyword.gain")
class KeywordGain(Payload):
    """A Leader / Character gains a keyword ([Rush], [Blocker], [Double Attack], [Banish]) from an
    effect (`by`), for the rest of this turn: the [Rush], [Blocker], [Double Attack] and [Banish] checks
    count it."""

    player: Player
    keyword: Keyword
    uid: str | None = None
    card: str | None = None
    by: str | None = None

    def validate(self) -> None:
        _card_or_uid(self)


@event_kind("attack")
class Attack(Payload):
    """Attack declaration: the attacker (Leader or Character, rested now) and the target (the
    opponent's Leader or a rested Character)."""

    player: Player
    attacker: str | None = None
    attacker_uid: str | None = None
    target: str | None = None
    target_uid: str | None = None

    def validate(self) -> None:
        _card_or_uid(self, "attacker", "attacker_uid")
        _card_or_uid(self, "target", "target_uid")


@event_kind("block")
class Block(Payload):
    """Block step: the defending player rests a [Blocker] Character; it becomes the target."""

    player: Player
    card: str | None = None
    uid: str | None = None

    def validate(self) -> None:
        _card_or_uid(self)


@event_kind("counter")
class Counter(Payload):
    """Counter step: the defender trashes a Character with a counter value from the hand (+counter to
    `target` during this battle), or activates a [Counter] Event (`kind: event`, pays `paid`)."""

    player: Player
    card: str
    kind: Literal["character", "event"] | None = None
    amount: int | None = None
    target: str | None = None
    target_uid: str | None = None
    paid: int | None = None


@event_kind("damage.step")
class DamageStep(Payload):
    """Damage step: the powers are compared. `attacker_power`/`target_power` as stated at the table
    (optional: replay derives them when the card facts are known)."""

    attacker_power: int | None = None
    target_power: int | None = None


@event_kind("life.taken")
class LifeTaken(Payload):
    """A Leader takes 1 damage: the top Life card goes to the hand, or is revealed for its [Trigger]
    (`to: trigger`, then trashed unless an effect says otherwise), or to the trash with [Banish]."""

    player: Player
    card: str | None = None
    to: Literal["hand", "trigger", "trash"] = "hand"
    by: str | None = None


@event_kind("ko")
class KO(_OnOneCard):
    """A Character is K.O.'d (in battle, or by an effect in `by`) and goes to the trash."""


@event_kind("trash")
class Trash(Payload):
    """A card goes to its owner's trash from `from_zone` (discard from hand, trash a Character or
    Stage by an effect or to make room)."""

    player: Player
    from_zone: Zone = "hand"
    card: str | None = None
    uid: str | None = None
    by: str | None = None


@event_kind("move")
class Move(Payload):
    """Any other card movement (return to hand, to the bottom of the deck, deck to Life, ...)."""

    player: Player
    from_zone: Zone
    to_zone: Zone
    card: str | None = None
    uid: str | None = None
    where: Literal["top", "bottom"] = "top"
    by: str | None = None


@event_kind("shuffle")
class Shuffle(Payload):
    player: Player
    zone: Zone = "deck"
    by: str | None = None


@event_kind("battle.end")
class BattleEnd(Payload):
    """The battle is over: effects "during this battle" end. (Also implied by the next attack or the
    end of the turn.)"""


@event_kind("turn.end")
class TurnEnd(Payload):
    """End phase done: effects "during this turn" end and the turn passes."""

    player: Player


@event_kind("concede")
class Concede(Payload):
    player: Player


@event_kind("game.end")
class GameEnd(Payload):
    """The game's end as announced at the table (checked against what replay derives)."""

    how: Literal["life", "deck-out", "concession", "time", "other"]
    winner: Player | None = None


@event_kind("player.left")
class PlayerLeft(Payload):
    """A player left the game (`how`: quit, or disconnect) with no result before it, as an imported
    log says (`line`, `text`: the log's own line). Not a result: no winner is derived from it (the
    simulator's record makes it an uncertain loss for the player who left); `state` and the report
    say it. `player` is None when the log does not say who (an own-view log whose owner is unknown)."""

    how: Literal["quit", "disconnect"]
    player: Player | None = None
    line: int | None = None
    text: str | None = None


@event_kind("annotation")
class Annotation(Payload):
    """A line of an imported log that the importer keeps as it is (not understood, or pure chat)."""

    text: str
    line: int | None = None
    source: str | None = None


@event_kind("player.named")
class PlayerNamed(Payload):
    """A correction of a seat's name: the match knew `player` only by the simulator's placeholder
    ("Player 2": its copy of the log was cut before it named them), and a longer copy names them
    `name`. The match's events keep the seat's name (stored rows are never rewritten); `state`, the
    report and standings show `name` (TableState.extra["names"]). A correction voiding it undoes it."""

    player: Player
    name: str
    reason: str


@event_kind("log.count")
class LogCount(Payload):
    """An imported log's own statement of how many cards a player's zone holds at this point (an
    OPTCGSim `RZ1|CHK` line, `line` in the file): a fact of the record, which replay compares with the
    zone it derives (OPTCG-SIM-1). It changes nothing on the table."""

    player: Player
    zone: Zone
    count: Count
    line: int | None = None
    source: str = "RZ1|CHK"


KINDS = (DeckRegistered, TurnOrder, Draw, Mulligan, LifePlaced, Turn, Refresh, Phase, Don, Play,
         DonRest, DonActivate, DonAttach, DonDetach, DonMinus, Effect, Rest, SetActive, PowerMod,
         KeywordGain, Attack, Block, Counter, DamageStep, LifeTaken, KO, Trash, Move, Reveal, Shuffle, BattleEnd,
         TurnEnd, Concede, GameEnd, PlayerLeft, PlayerNamed, Annotation, LogCount)
