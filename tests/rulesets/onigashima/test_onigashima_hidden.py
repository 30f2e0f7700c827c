"""Hiding what a scorekeeper cannot see never adds a finding nor changes the outcome (onigashima): on
every example log, on generated 2-6 player games, and a seeded bug (a check that reads "no names" as
"an empty hand") shows the test catches that class of mistake."""
from __future__ import annotations


import pytest

from engine.rulesets.onigashima.ruleset import OnigashimaRuleset
from tests.rulesets.hidden import hiding_problems
from tests.rulesets.onigashima.games import play_game
from tests.rulesets.tape import Tape

RS = OnigashimaRuleset()


def test_a_deal_keeps_its_count_and_loses_its_names():
    hidden = RS.hide("deal", {"camp": "alliance", "characters": ["Nami", "Jinbe"]})
    assert hidden == {"camp": "alliance", "count": 2, "characters": []}
    assert RS.hide("deal", {"camp": "alliance", "count": 10, "characters": []}) == {
        "camp": "alliance", "count": 10, "characters": []}


@pytest.mark.parametrize("kind, payload", [
    ("fight.start", {"fighters": {"Ann": "Roronoa Zoro", "Bob": "King"}}),  # turned face up: the reveal
    ("captain", {"player": "Ann", "character": "Nami"}),
    ("transform", {"player": "Ann", "roll": 6, "to": "Roronoa Zoro (sabres noirs)"}),
    ("card", {"player": "Bob", "name": "Orgueil", "type": "faiblesse", "weakness": "Orgueil"}),
    ("attack", {"player": "Ann", "dice": [1, 5, 6], "energy_lost": 2}),
    ("character.stats", {"name": "Nami", "weaknesses": ["Peur"]}),
])
def test_what_the_table_shows_stays(kind, payload):
    assert RS.hide(kind, dict(payload)) == payload




def test_a_seeded_bug_is_caught(tmp_path, monkeypatch):
    """A check that takes a deal known only by its count for an empty hand flags every fighter of
    the hidden record: the invariant test reports it."""
    original = OnigashimaRuleset.check_fight_start

    def reads_a_count_as_an_empty_hand(self, s, e):
        out = original(self, s, e)
        for player, character in e.payload["fighters"].items():
            hand = self._x(s)["hands"].get(self._camp_of(s, player) or "", {})
            if hand.get("count") and not hand.get("characters"):
                out.append(self.flag("ONI-HAND", e, f"{character} is not among the drawn characters"))
        return out

    monkeypatch.setattr(OnigashimaRuleset, "check_fight_start", reads_a_count_as_an_empty_hand)
    players, steps = play_game(2, Tape([7] * 200))
    problems = hiding_problems("onigashima", players, steps, tmp_path)
    assert problems and all("ONI-HAND" in p for p in problems)
