"""engine/hidden.py's two ways out of a face-down zone, on a bare table (the per-game invariant
tests are in tests/rulesets/test_hidden_information.py)."""
from __future__ import annotations

import pytest

from engine.hidden import FaceDown, take_at_end
from engine.state import TableState

A, B, C = "OP01-016", "OP01-013", "ST01-006"


def _deck(*codes: str | None) -> TableState:
    """Ann's deck, bottom first (the top is the last)."""
    s = TableState.new("table", ["Ann"], ["deck", "hand"])
    for code in codes:
        s.put("Ann", "deck", s.new_card("Ann", code))
    return s


def _codes(s: TableState) -> list[str | None]:
    return [c.code for c in s.zone("Ann", "deck")]


@pytest.mark.parametrize("deck, after", [
    # copies side by side: whichever went, the same deck is left
    ((B, A, A), [B, A]),
    ((A, A, B), [A, B]),
    # copies apart, or an unknown card that may be the one: the order left is not known
    ((A, B, A, A), [None, None, None]),
    ((A, B, A), [None, None]),
    ((B, None, A), [None, None]),
    # the only candidate
    ((B, A, C), [B, C]),
])
def test_a_search_by_name_in_a_deck_never_guesses_the_order_left(deck, after):
    """QA/CI 2026-11-26: hypothesis found a `table` game where a search took "an OP01-016" from a
    deck with copies apart; the table assumed the topmost, and a later draw named the wrong card."""
    s = _deck(*deck)
    card = FaceDown.zones(ordered=["deck"]).take(s, "Ann", "deck", code=A)
    assert card.code == A and _codes(s) == after


def test_the_end_instance_always_leaves_and_the_name_only_says_what_is_known():
    s = TableState.new("ken", ["Ann"], ["hand"], )
    for code in (A, None, B):
        s.put("Ann", "hand", s.new_card("Ann", code))
    top = s.zone("Ann", "hand")[-1].uid
    card = take_at_end(s, "Ann", "hand", code=A, ordered=False)
    assert card.uid == top and card.code == A
    assert sorted(c.code or "?" for c in s.zone("Ann", "hand")) == ["?", B]  # the A's identity went with it
