"""Ken il Guerriero: reading and changing the table (units, Life stacks, assigned cards).

A card in play keeps its printed facts in `props["f"]`. A Protagonist is a *unit*: one card, or for a
Master/Character with Life the stack of its Life cards (they share `props["unit"]`, the id of the
first Life played; one of them has `props["top"]`, whose values count). Cards assigned to a unit or
a Location sit in the `assigned` zone with `props["host"]` = that unit's id.
"""
from __future__ import annotations

from typing import Any

from engine.hidden import take_at_end
from engine.state import Card, MissingCard, TableState
from .cards import has_life

PRESENT = ("forces", "territory", "destiny", "assigned")
FACE_DOWN = ("future", "hand")  # what a scorekeeper never sees: the deck and the hands
ORDERED = ("future",)  # a card's place there is a fact (the next draw is the top card)
ONE_USE_DESTINATION = {
    "gioca-e-scarta": "past", "scartare-dopo-uso": "past",
    "gioca-e-togli": "removed", "togliere-dopo-uso": "removed",
    "gioca-e-riprendi": "hand", "riprendi-dopo-uso": "hand",
}


def facts(card: Card) -> dict[str, Any] | None:
    return card.props.get("f")


def unit_of(card: Card) -> str:
    return card.props.get("unit", card.uid)


def opponent(s: TableState, player: str) -> str:
    others = [p for p in s.players if p != player]
    return others[0] if others else player


def unit_cards(s: TableState, unit: str) -> tuple[str | None, list[Card]]:
    """The owner and the cards (bottom to top of play) of a unit in the forces or the territory."""
    for p in s.players:
        for zone in ("forces", "territory"):
            cards = [c for c in s.zone(p, zone) if unit_of(c) == unit]
            if cards:
                return p, cards
    return None, []


def top_card(cards: list[Card]) -> Card | None:
    for c in cards:
        if c.props.get("top"):
            return c
    return cards[-1] if cards else None


def unit_facts(s: TableState, unit: str) -> dict[str, Any] | None:
    _, cards = unit_cards(s, unit)
    top = top_card(cards)
    return facts(top) if top is not None else None


def lives(s: TableState, unit: str) -> int:
    _, cards = unit_cards(s, unit)
    f = unit_facts(s, unit)
    return len(cards) if f and has_life(f) else 0


def resolve_unit(s: TableState, ref: str) -> str | None:
    """A card id (any Life of a stack) or a unit id -> the unit id, if it is in play."""
    owner, cards = unit_cards(s, ref)
    if cards:
        return ref
    where = s.find(ref)
    if where and where[1] in ("forces", "territory"):
        return unit_of(s.zone(where[0], where[1])[where[2]])
    return None


def units(s: TableState, player: str) -> list[str]:
    seen: list[str] = []
    for c in s.zone(player, "forces"):
        if unit_of(c) not in seen:
            seen.append(unit_of(c))
    return seen


def assigned_to(s: TableState, host: str) -> list[tuple[str, Card]]:
    return [(p, c) for p in s.players for c in s.zone(p, "assigned") if c.props.get("host") == host]


def find_present(s: TableState, uid: str) -> tuple[str, str, Card] | None:
    where = s.find(uid)
    if where is None or where[1] not in PRESENT:
        return None
    return where[0], where[1], s.zone(where[0], where[1])[where[2]]


def host_facts(s: TableState, ref: str) -> tuple[str, dict[str, Any] | None] | None:
    """The host a card is assigned to: a unit (its top facts) or an Event in the Destiny."""
    unit = resolve_unit(s, ref)
    if unit is not None:
        return unit, unit_facts(s, unit)
    found = find_present(s, ref)
    if found and found[1] == "destiny":
        return ref, facts(found[2])
    return None


def is_engaged(s: TableState, unit: str) -> bool:
    _, cards = unit_cards(s, unit)
    return any(c.props.get("engaged") for c in cards)


def set_engaged(s: TableState, unit: str, value: bool) -> None:
    _, cards = unit_cards(s, unit)
    for c in cards:
        if value:
            c.props["engaged"] = True
        else:
            c.props.pop("engaged", None)


def set_top(cards: list[Card], top: Card) -> None:
    for c in cards:
        c.props.pop("top", None)
    top.props["top"] = True


def leave_play(s: TableState, player: str, card: Card, dest: str, dest_player: str | None = None) -> list[Card]:
    """Move a card out of the Present (already taken from its zone) to `dest`; when it was the last
    card of its unit, the cards assigned to it share its fate. Returns every card moved."""
    moved = [card]
    unit = unit_of(card)
    was_top = card.props.pop("top", None)
    for key in ("unit", "engaged", "host"):
        card.props.pop(key, None)
    s.put(dest_player or player, dest, card)
    _, rest = unit_cards(s, unit)
    if rest:
        if was_top:
            set_top(rest, rest[-1])
        return moved
    for owner, a in assigned_to(s, unit):
        s.zone(owner, "assigned").remove(a)
        a.props.pop("host", None)
        s.put(owner, dest if dest in ("past", "removed") else "past", a)
        moved.append(a)
    return moved


def take_card(s: TableState, player: str, zone: str, *, uid: str | None = None, code: str | None = None,
              by_position: bool = False) -> Card:
    """Take a card; if it is not there the move still happened (record, then judge): a card appears.

    Out of a face-down zone (the Future, the hand) by position, whatever the record names
    (engine.hidden.take_at_end): the instance that leaves does not depend on what the recorder
    could see, so a scorekeeper's record and a fully known one give the same card ids in play."""
    if uid is None and zone in FACE_DOWN:
        card = take_at_end(s, player, zone, code=code, ordered=zone in ORDERED, by_position=by_position)
        return card if card is not None else s.new_card(player, code)
    try:
        return s.take(player, zone, uid=uid, code=code)
    except MissingCard:
        return s.new_card(player, code)


def green_points(s: TableState, player: str) -> int:
    """Green Order points of a player's cards in play: a Life stack counts its top card only."""
    total = 0
    seen_units: set[str] = set()
    for c in s.zone(player, "forces"):
        u = unit_of(c)
        if u in seen_units:
            continue
        seen_units.add(u)
        f = unit_facts(s, u)
        total += (f or {}).get("green", 0)
    for zone in ("territory", "destiny", "assigned"):
        total += sum((facts(c) or {}).get("green", 0) for c in s.zone(player, zone))
    return total


def life_to_lose(cards: list[Card]) -> Card:
    """Which Life card goes when one Life is lost: the book is silent. Our choice: the oldest card
    that is not on top, so the Protagonist keeps the values it fought with; else the top one."""
    for c in cards:
        if not c.props.get("top"):
            return c
    return cards[-1]
