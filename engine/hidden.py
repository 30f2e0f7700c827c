"""Hidden information on the table: face-down zones, and moving cards out of them without guessing.

A scorekeeper never sees a hand, a deck or the Life cards, so most cards there are "a card" (a `Card`
whose `code` is None). The invariant every ruleset keeps: recording less (hiding who a card is) never
adds a finding and never changes an outcome. Two things make that hold whatever the record names:

1. **Which instance moves never depends on what the record knows.** Out of a face-down zone the
   record may name a card ("play OP01-016") or not ("deck>hand"); a fully known record and a hidden one
   then pick different instances of the zone. So a card that leaves a face-down zone for an open one
   gets a fresh instance id (`surface`): the ids a recorder sees on the field are the same, known or not.
   Ids of cards inside face-down zones mean nothing and hidden records never name them.
2. **The table never guesses.** When a card leaves a face-down zone and the record cannot say which
   one it was, what the table knew about that zone may no longer be true, so it is forgotten (the cards
   become unknown again). A known card in a hand, deck or Life area is therefore always a fact.

`FaceDown` holds one ruleset's face-down zones: `ordered` ones (a deck, a Life area: a card's place
matters, the top is the last card), `unordered` ones (a hand), and among them the `stirred` ones whose
order effects rearrange without a record (a deck: search it, look at the top N and put them back), where
a card put in is no longer known. Rulesets call `take` and `put` instead of `TableState.take`/`put` for
those zones. The rules of `take`, in order:

- by position (`by_position`: a draw takes the top card of the deck, a Life card the top of the Life
  area): that card, always; a name given identifies it (a card already known as something else is a
  contradiction the ruleset's check reports, see `contradicts`);
- by instance (`uid`, only a fully known record names cards in face-down zones that way): that card;
- by name: a card known as that name; else an unknown card, now identified; else (every card is known
  as something else: the record contradicts itself, and the check reports it) the card at `where`,
  renamed. In an ordered zone a named card found among the unknown ones may have come from anywhere,
  so the zone's other known cards lose their place and are forgotten; so are they when other copies
  apart from it (or unknown cards) could have been the one taken (a search that takes "an OP01-016"
  from a deck holding three leaves the rest in an order the record does not say);
- unnamed and not by position (an effect's choice the recorder did not see): the zone is forgotten,
  then the card at `where` moves.

An empty zone returns None: the caller decides what an impossible move means (rulesets make the card
appear from nowhere, flagged by their check, as before).

The other way to keep rule 1, for rulesets whose records name cards in play by instance id right as
they leave a face-down zone (ken's notation: `attack c12>c40`; op2009): `take_at_end`, where the
instance at the zone's end always leaves and the record only decides what the table knows of it
afterwards (see its docstring).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.state import Card, TableState


@dataclass(frozen=True)
class FaceDown:
    ordered: frozenset[str]
    unordered: frozenset[str] = frozenset()
    stirred: frozenset[str] = frozenset()

    @classmethod
    def zones(cls, ordered: Iterable[str], unordered: Iterable[str] = (), stirred: Iterable[str] = ()) -> "FaceDown":
        return cls(frozenset(ordered), frozenset(unordered), frozenset(stirred))

    def __contains__(self, zone: object) -> bool:
        return zone in self.ordered or zone in self.unordered

    # --- moving cards -------------------------------------------------------------------------

    def take(self, s: TableState, player: str, zone: str, *, code: str | None = None, uid: str | None = None,
             where: str = "top", by_position: bool = False) -> Card | None:
        """Remove one card from a face-down zone, following the rules in the module's docstring."""
        cards = s.zone(player, zone)
        if not cards:
            return None
        at = len(cards) - 1 if where == "top" else 0
        if by_position:
            i = at
        elif uid is not None and any(c.uid == uid for c in cards):
            i = next(j for j, c in enumerate(cards) if c.uid == uid)
        elif code is not None:
            i = identified([c.code for c in cards], code)
            if i is None:
                i = at
            elif zone in self.ordered and (cards[i].code is None or _which_unsure(cards, code)):
                # found among the unknown cards, or another card could have been the one taken:
                # the order of the rest is not known
                forget(cards, keep=i)
        else:
            forget(cards)
            i = at
        card = cards.pop(i)
        if code is not None:
            card.code = code
        return card

    def put(self, s: TableState, player: str, zone: str, card: Card, where: str = "top") -> None:
        """Put a card into a zone. Into a `stirred` zone it is no longer known; other zones keep what was
        seen going in."""
        if zone in self.stirred:
            card.code = None
        s.put(player, zone, card, where)

    @staticmethod
    def surface(s: TableState, card: Card) -> Card:
        """The card as it reaches an open zone from a face-down one: a fresh instance id (the same in a
        known and a hidden record, since both take exactly one card here), its name kept."""
        return s.new_card(card.owner, card.code)

    def move_out(self, s: TableState, player: str, src: str, dst: str, card: Card) -> Card:
        """`surface` when a card goes from a face-down zone to an open one; the card itself otherwise."""
        return self.surface(s, card) if src in self and dst not in self else card

    # --- the scorekeeper's view of an event (Ruleset.hide) ---------------------------------------

    def hide_move(self, payload: dict, src: str, dst: str, *, card: str = "card", uid: str = "uid") -> dict:
        """A move as a recorder who sees no face-down card writes it: an instance inside a face-down zone
        is never named (its id means nothing there), and a card going from one face-down zone to another
        is not seen at all. A card coming out into an open zone is seen as it lands, so it keeps its name."""
        out = dict(payload)
        if src in self:
            out.pop(uid, None)
            if dst in self:
                out.pop(card, None)
        return out

    # --- what the record allows ---------------------------------------------------------------

    @staticmethod
    def could_be(s: TableState, player: str, zone: str, code: str) -> bool:
        """Could one of the zone's cards be `code`: a card known as it, or an unknown card?"""
        return any(c.code in (code, None) for c in s.zone(player, zone))

    @staticmethod
    def contradicts(card: Card | None, code: str | None) -> bool:
        """Does naming `card` as `code` contradict what the table knew of it?"""
        return card is not None and code is not None and card.code is not None and card.code != code


def take_at_end(s: TableState, player: str, zone: str, *, code: str | None = None, ordered: bool,
                where: str = "top", by_position: bool = False) -> Card | None:
    """Remove one card from a face-down zone: always the instance at the zone's `where` end (the
    top, by default), so a record naming every card and a scorekeeper's record naming none move the
    same instance (`c12` in both), and a later event naming a card in play by its id means the same
    card. What the record says (`code`) only decides what the table knows afterwards:

    - unordered zones (a hand): the identities are re-dealt among the instances so the zone keeps
      exactly what a name-based take would leave: the card known as `code` (else an unknown card,
      else, when every card is known as something else, none: the record contradicts itself and
      the ruleset's check reports it) trades its identity with the end instance, which then leaves;
    - ordered zones (a deck, Life cards): a card's place is a fact there, so a card taken from
      anywhere but the known end makes the places of the zone's other known cards uncertain: they
      are forgotten. The taken card is named by the record, or else unknown.

    `by_position` (a draw: the top card): that card, nothing forgotten. None when the zone is empty:
    the caller decides what an impossible move means."""
    cards = s.zone(player, zone)
    if not cards:
        return None
    at = len(cards) - 1 if where == "top" else 0
    if not by_position:
        if ordered:
            if not (code is not None and cards[at].code == code):
                forget(cards)  # a card chosen from anywhere: the others' places are no longer known
        else:
            i = identified([c.code for c in cards], code)
            if i is not None and i != at:
                _trade_identity(cards[i], cards[at])
    card = cards.pop(at)
    if code is not None:
        card.code = code
    return card


def identified(codes: list[str | None], code: str | None) -> int | None:
    """The index of the card a name identifies among a zone's known codes (None: unknown): the
    topmost known as it, else the topmost unknown card; None when every card is known as something
    else (or no name is given)."""
    if code is None:
        return None
    for want in (code, None):
        for j in range(len(codes) - 1, -1, -1):
            if codes[j] == want:
                return j
    return None


def _trade_identity(a: Card, b: Card) -> None:
    """Two instances of an unordered face-down zone swap what is known of them."""
    a.code, b.code = b.code, a.code
    a.props, b.props = b.props, a.props


def _which_unsure(cards: list[Card], code: str) -> bool:
    """Taking a card named `code` out of an ordered zone (a search): could it have been more than
    one card, leaving the rest in different orders? Not when the candidates (cards known as `code`,
    and unknown cards, any of which may be it) are copies known as `code` side by side: taking any
    of them leaves the same zone. Otherwise the table cannot say which went, and does not guess."""
    spots = [j for j, c in enumerate(cards) if c.code in (code, None)]
    if len(spots) <= 1:
        return False
    return any(cards[j].code is None for j in spots) or spots[-1] - spots[0] + 1 != len(spots)


def forget(cards: list[Card], keep: int | None = None) -> None:
    """The record can no longer say which of these cards is which: they become unknown."""
    for j, c in enumerate(cards):
        if j != keep:
            c.code = None


def shown(cards: list[Card], code: str, count: int = 1) -> tuple[list[Card], int]:
    """The cards a reveal of `count` x `code` shows, and how many it could not find: copies already known
    as `code` first (the reveal confirms them; the topmost first), then the topmost unknown cards."""
    out = [c for c in reversed(cards) if c.code == code][:count]
    out += [c for c in reversed(cards) if c.code is None][:count - len(out)]
    return out, count - len(out)


def known_copies(s: TableState, player: str, code: str, zones: Iterable[str]) -> int:
    """How many of the player's cards in `zones` are known to be `code` (each instance once)."""
    return sum(1 for z in zones for c in s.zone(player, z) if c.code == code)
