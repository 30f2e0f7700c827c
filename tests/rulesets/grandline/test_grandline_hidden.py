"""Hiding what a scorekeeper cannot see never adds a finding nor changes the outcome (grandline). The
vocabulary names no hidden card (draws and the set-up are counts; cards are named when they go face up),
so `hide` keeps every payload: checked kind by kind, on every example log and on generated games."""
from __future__ import annotations


from hypothesis import HealthCheck, given, settings

from engine.rulesets.grandline.ruleset import GrandlineRuleset
from tests.rulesets.hiding import assert_game_hides_nothing
from tests.rulesets.grandline.games import games

RS = GrandlineRuleset()


def test_no_kind_of_the_vocabulary_names_a_hidden_card():
    fields = {k.kind: set(k.__dataclass_fields__) for k in GrandlineRuleset.kinds}
    assert fields["draw"] == {"player", "count"}  # a count, never the card drawn
    assert {"deck", "hand"} <= fields["setup"] and "cards" not in fields["setup"]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_hide_keeps_every_payload_and_the_game_with_it(game):
    players, steps = game
    assert all(RS.hide(kind, dict(p)) == p for kind, _, p in steps)
    assert_game_hides_nothing("grandline", players, steps)

