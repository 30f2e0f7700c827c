"""Hiding what a scorekeeper cannot see never adds a finding nor changes the outcome (ken): what `hide`
keeps and drops; every example log; generated quick and standard games recorded with every card named;
card ids in play never depend on what the record knew of the hand; a reveal that contradicts the record
is a finding at the reveal (KEN-PRES-1); the old name-based take (a seeded bug) is caught."""
from __future__ import annotations

import random

import pytest

from engine.rulesets.ken import table as T
from engine.rulesets.ken.ruleset import KenRuleset
from engine.state import MissingCard
from tests.rulesets.hidden import hiding_problems
from tests.rulesets.ken.games import play_game
from tests.rulesets.ken.support import KEN, Game
from tests.rulesets.tape import Tape

RS = KenRuleset()


@pytest.mark.parametrize("kind, known, hidden", [
    ("draw", {"player": "Ann", "count": 2, "cards": ["M-KEN", "P-BAT"]}, {"player": "Ann", "count": 2}),
    ("draw", {"player": "Ann", "count": 1, "cards": ["M-KEN"], "effect": "PESCA #"},
     {"player": "Ann", "count": 1, "effect": "PESCA #"}),
    ("move", {"player": "Ann", "from_zone": "future", "to_zone": "hand", "code": "M-KEN", "count": 1},
     {"player": "Ann", "from_zone": "future", "to_zone": "hand", "count": 1}),  # a search nobody sees
    ("move", {"player": "Ann", "from_zone": "hand", "to_zone": "past", "code": "M-KEN", "count": 1},
     {"player": "Ann", "from_zone": "hand", "to_zone": "past", "code": "M-KEN", "count": 1}),  # face up
    ("move", {"player": "Ann", "from_zone": "past", "to_zone": "hand", "code": "M-KEN", "count": 1},
     {"player": "Ann", "from_zone": "past", "to_zone": "hand", "code": "M-KEN", "count": 1}),  # seen leaving
    ("play", {"player": "Ann", "cards": [{"code": "M-KEN"}]}, {"player": "Ann", "cards": [{"code": "M-KEN"}]}),
    ("victory.declare", {"player": "Ann"}, {"player": "Ann"}),
])
def test_hide_kind_by_kind(kind, known, hidden):
    assert RS.hide(kind, dict(known)) == hidden




def _hand_of_three(named: bool) -> Game:
    g = Game().setup()
    g.do("turn", player="Ann")
    g.do("phase", name="order")
    g.do("phase", name="draw")
    g.do("draw", player="Ann", count=3, **({"cards": ["P-BAT", "M-KEN", "M-RAO"]} if named else {}))
    g.do("phase", name="presentation")
    return g


def test_the_card_played_has_the_same_id_known_or_not():
    """Kenshiro drawn in the middle of three: the card that enters play is the hand's top instance
    either way, so later events naming it (c-ids in the notation) mean the same card."""
    known, hidden = _hand_of_three(True), _hand_of_three(False)
    for g in (known, hidden):
        assert g.play("Ann", KEN) == set()
    assert known.uid_of("Ann", "forces", "Kenshiro") == hidden.uid_of("Ann", "forces", "Kenshiro")
    # the known hand still holds what was not played: Bat and Raoul
    assert sorted(c.code for c in known.state.zone("Ann", "hand")[-2:]) == ["M-RAO", "P-BAT"]


def test_a_reveal_that_contradicts_the_record_is_a_finding_at_the_reveal():
    known = _hand_of_three(True)
    g = known
    while len(g.state.zone("Ann", "hand")) > 3:  # keep only the three named cards
        g.do("move", player="Ann", from_zone="hand", to_zone="past", uid=g.state.zone("Ann", "hand")[0].uid)
    assert "KEN-PRES-1" in g.play("Ann", {"code": "M-SOU"})  # Souther: never drawn
    (f,) = [f for f in g.last if f.rule == "KEN-PRES-1"]
    assert "the record says it holds" in f.message and "M-KEN" in f.message
    hidden = _hand_of_three(False)
    assert "KEN-PRES-1" not in hidden.play("Ann", {"code": "M-SOU"})  # an unseen hand may hold it


def test_a_seeded_bug_is_caught(tmp_path, monkeypatch):
    """Before this issue a card left the hand by name (the card known as it, else the topmost unknown):
    a known and a hidden record put different ids in play, and later events named the wrong card."""

    def take_by_name(s, player, zone, *, uid=None, code=None, by_position=False):
        try:
            return s.take(player, zone, uid=uid, code=code)
        except MissingCard:
            return s.new_card(player, code)

    monkeypatch.setattr(T, "take_card", take_by_name)
    rng = random.Random(3)
    players, steps = play_game(True, Tape([rng.randrange(2**16) for _ in range(500)]))
    assert hiding_problems("ken", players, steps, tmp_path, options={"game": "quick"})
