"""Table helpers for the `optcg` ruleset: card facts, finding cards, DON!!, derived power.

Facts (cost, power, counter, colours, Life, [Trigger], keywords) come from the `deck.registered`
events and live in `state.extra["facts"]`; nothing here reads a card database. Power is never stored:
`power()` derives it from the base power, the DON!! attached (only in the owner's turn) and the
recorded modifiers that are still in force.
"""
from __future__ import annotations

from typing import Any, Callable

from engine.hidden import FaceDown
from engine.state import Card, MissingCard, TableState

DON = "DON!!"
FIELD = ("leader", "characters", "stage")
ZONES = ("deck", "hand", "leader", "characters", "stage", "trash", "life", "don_deck", "cost", "attached")
# Face down: the deck (its order rearranged by effects without a record), the Life area (ordered: the
# top card is taken), the hand (unordered). Everything else is open to everyone (the DON!! deck holds
# only DON!!). See engine/hidden.py.
FACE_DOWN = FaceDown.zones(ordered=("deck", "life"), unordered=("hand",), stirred=("deck",))
# Where a player's own cards can be, for counting copies against the registered deck.
CARD_ZONES = ("deck", "hand", "characters", "stage", "trash", "life")
KEYWORDS = ("blocker", "rush", "double attack", "banish")


# --- facts --------------------------------------------------------------------------------------

def facts(s: TableState, code: str | None) -> dict[str, Any]:
    if not code:
        return {}
    return s.extra.get("facts", {}).get(code, {})


def category(s: TableState, code: str | None) -> str | None:
    cat = facts(s, code).get("category")
    return cat.lower() if isinstance(cat, str) else None


def has_keyword(s: TableState, code: str | None, word: str) -> bool | None:
    """True/False when the card's facts are known, None when they are not."""
    f = facts(s, code)
    if not f:
        return None
    return word in [k.lower() for k in f.get("keywords", [])]


def card_has_keyword(s: TableState, card: Card | None, word: str) -> bool | None:
    """Like `has_keyword`, for one card on the table: a keyword an effect gave it this turn
    (`keyword.gain`) counts; True/False/None as `has_keyword`."""
    if card is None:
        return None
    if s.turn is not None and card.props.get("gained", {}).get(word) == s.turn:
        return True
    return has_keyword(s, card.code, word)


def battle_attacker_has(s: TableState, b: dict[str, Any] | None, word: str) -> bool | None:
    """The keyword of the attacker of battle `b` (its card if still on the table, else its number)."""
    if not b:
        return None
    hit = where_is(s, b["attacker"]) if b.get("attacker") else None
    return card_has_keyword(s, hit[2], word) if hit else has_keyword(s, b.get("attacker_code"), word)


def pinfo(s: TableState, player: str) -> dict[str, Any]:
    return s.extra.setdefault("players", {}).setdefault(player, {})


def leader_life(s: TableState, player: str) -> int | None:
    leader = pinfo(s, player).get("leader")
    life = facts(s, leader).get("life")
    return life if isinstance(life, int) else None


def deck_known(s: TableState, player: str) -> bool:
    """Is the size of `player`'s deck a recorded fact? Only a registration that gives it (a deck
    list or `deck_size`) makes it one: a deck never registered is of unknown size, not empty."""
    info = pinfo(s, player)
    return bool(info.get("leader")) and not info.get("deck_unknown")


def life_known(s: TableState, player: str) -> bool:
    """Is the number of `player`'s Life cards a recorded fact? Not when no Life was placed at the
    set-up (none recorded, or voided by a correction), nor after a `life.placed` of unknown count."""
    return not pinfo(s, player).get("life_unknown")


def opponent(s: TableState, player: str) -> str:
    others = [p for p in s.players if p != player]
    return others[0] if others else player


# --- finding cards ------------------------------------------------------------------------------

def locate(s: TableState, player: str, zones: tuple[str, ...], *, uid: str | None = None,
           code: str | None = None, prefer: Callable[[Card], bool] | None = None) -> tuple[str, Card] | None:
    """A card of `player` in one of `zones`, by uid or by number (preferring cards `prefer` likes)."""
    found: list[tuple[str, Card]] = []
    for z in zones:
        for c in s.zone(player, z):
            if uid is not None:
                if c.uid == uid:
                    return z, c
            elif code is not None and c.code == code:
                found.append((z, c))
    if not found:
        return None
    if prefer is not None:
        liked = [fc for fc in found if prefer(fc[1])]
        if liked:
            return liked[-1]
    return found[-1]


def take(s: TableState, player: str, zone: str, *, uid: str | None = None, code: str | None = None,
         where: str = "top") -> Card:
    """Take a card; if it is not there the act still happened at the table (record, then judge),
    so a card appears from nowhere and check() has flagged it."""
    try:
        return s.take(player, zone, uid=uid, code=code, where=where)
    except MissingCard:
        return s.new_card(player, code)


def take_hidden(s: TableState, player: str, zone: str, dst: str, *, code: str | None = None,
                uid: str | None = None, where: str = "top", by_position: bool = False) -> Card:
    """Take a card out of a face-down zone bound for `dst` (engine/hidden.py: which instance moves never
    depends on what the record knows; a card reaching an open zone gets a fresh id). From an empty zone
    the act still happened at the table: a card appears from nowhere and check() has flagged it."""
    card = FACE_DOWN.take(s, player, zone, code=code, uid=uid, where=where, by_position=by_position)
    if card is None:
        return s.new_card(player, code)
    return FACE_DOWN.move_out(s, player, zone, dst, card)


def is_rested(c: Card) -> bool:
    return bool(c.props.get("rested"))


def set_rested(c: Card, rested: bool) -> None:
    if rested:
        c.props["rested"] = True
    else:
        c.props.pop("rested", None)


# --- DON!! -------------------------------------------------------------------------------------

def cost_don(s: TableState, player: str, *, rested: bool | None = None) -> list[Card]:
    return [c for c in s.zone(player, "cost") if rested is None or is_rested(c) == rested]


def attached_to(s: TableState, player: str, uid: str) -> list[Card]:
    return [c for c in s.zone(player, "attached") if c.props.get("on") == uid]


def rest_don(s: TableState, player: str, n: int) -> None:
    for c in cost_don(s, player, rested=False)[:n]:
        set_rested(c, True)


def detach(s: TableState, player: str, don: Card, *, rested: bool) -> None:
    s.zone(player, "attached").remove(don)
    don.props.pop("on", None)
    set_rested(don, rested)
    s.put(player, "cost", don)


def leave_field(s: TableState, player: str, card: Card) -> None:
    """A card leaves the field: its DON!! return to the cost area rested (附加咚!!卡的角色卡離開場地時),
    its modifiers end, and it forgets being rested or played this turn."""
    for don in attached_to(s, player, card.uid):
        detach(s, player, don, rested=True)
    s.extra["mods"] = [m for m in s.extra.get("mods", []) if m["uid"] != card.uid]
    for key in ("rested", "played_turn"):
        card.props.pop(key, None)


# --- power -------------------------------------------------------------------------------------

def base_power(s: TableState, card: Card) -> int | None:
    p = facts(s, card.code).get("power")
    return p if isinstance(p, int) else None


def power(s: TableState, owner: str, card: Card) -> int | None:
    """Derived power: base + 1000 per attached DON!! in the owner's turn + modifiers in force."""
    base = base_power(s, card)
    if base is None:
        return None
    don = len(attached_to(s, owner, card.uid)) * 1000 if s.active == owner else 0
    mods = sum(m["amount"] for m in s.extra.get("mods", []) if m["uid"] == card.uid)
    return base + don + mods


def power_parts(s: TableState, owner: str, card: Card) -> tuple[int, int]:
    """(DON!! bonus, modifiers): the derived parts that do not depend on the card facts."""
    don = len(attached_to(s, owner, card.uid)) * 1000 if s.active == owner else 0
    mods = sum(m["amount"] for m in s.extra.get("mods", []) if m["uid"] == card.uid)
    return don, mods


def expire_mods(s: TableState, duration: str) -> None:
    """End modifiers of one duration; remember them, so a judge can see a stale one being used."""
    keep, gone = [], []
    for m in s.extra.get("mods", []):
        (gone if m["duration"] == duration else keep).append(m)
    s.extra["mods"] = keep
    if gone:
        s.extra["expired"] = gone


def where_is(s: TableState, uid: str) -> tuple[str, str, Card] | None:
    hit = s.find(uid)
    if hit is None:
        return None
    player, zone, i = hit
    return player, zone, s.zone(player, zone)[i]
