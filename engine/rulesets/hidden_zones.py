"""Taking a card out of a face-down zone (a hand, a deck, a pile of Life cards) by position, so that a
record naming every card and a scorekeeper's record naming none move the same card instance.

A scorekeeper never sees a hand or a deck: a fully known record says "Ann plays M-KEN" and the hand
holds a card known as M-KEN; the scorekeeper's record says the same while the hand holds only unknown
cards. If the table took "the card known as M-KEN" in one and "an unknown card" in the other, the two
tables would hold different instances (`c12` here, `c17` there), and a later event naming a card in
play by its id (ken's notation does: `attack c12>c40`) would mean different cards. So:

- **The instance that leaves is always the one at the zone's `where` end** (the top, by default). What
  the record says only decides what the table *knows* afterwards, never which instance moves.
- **Unordered zones (a hand):** the identities are re-dealt among the instances so the zone keeps
  exactly what a name-based take would leave: the card known as the named one (else an unknown card,
  else, when every card is known as something else, none: the record contradicts itself and the
  ruleset's check reports it) trades its identity with the top instance, which then leaves.
- **Ordered zones (a deck, Life cards):** a card's place is a fact there, so a card taken from
  anywhere but the known top makes the places of the zone's other known cards uncertain: they are
  forgotten (become unknown). A taken card is named by the record, or else unknown.

Both rules only ever make the table know less, never guess; a known card in a face-down zone is
always a fact of the record. A draw (the top card by position) is `take(..., by_position=True)`.
"""
from __future__ import annotations

from engine.state import Card, TableState


def take(s: TableState, player: str, zone: str, *, code: str | None = None, ordered: bool,
         where: str = "top", by_position: bool = False) -> Card | None:
    """Remove one card from a face-down zone (None when it is empty: the caller decides what an
    impossible move means). `code`: the card the record names, if any."""
    cards = s.zone(player, zone)
    if not cards:
        return None
    at = len(cards) - 1 if where == "top" else 0
    if by_position:
        card = cards.pop(at)
    elif ordered:
        if not (code is not None and cards[at].code == code):
            forget(cards)  # a card chosen from anywhere: the others' places are no longer known
        card = cards.pop(at)
    else:
        i = identified([c.code for c in cards], code)
        if i is not None and i != at:
            trade_identity(cards[i], cards[at])
        card = cards.pop(at)
    if code is not None:
        card.code = code
    return card


def identified(codes: list[str | None], code: str | None) -> int | None:
    """Index of the card a name identifies among a zone's known codes (None: unknown): the topmost
    known as it, else the topmost unknown card; None when every card is known as something else
    (or no name is given)."""
    if code is None:
        return None
    for want in (code, None):
        for j in range(len(codes) - 1, -1, -1):
            if codes[j] == want:
                return j
    return None


def trade_identity(a: Card, b: Card) -> None:
    """Two instances of an unordered face-down zone swap what is known of them."""
    a.code, b.code = b.code, a.code
    a.props, b.props = b.props, a.props


def forget(cards: list[Card]) -> None:
    """The record can no longer say which of these cards is which: they become unknown."""
    for c in cards:
        c.code = None
