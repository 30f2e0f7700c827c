"""An adversarial review of the `optcg` ruleset against the rule manual (optcg-bandai-v1.11.zh.md), read
section by section by someone who did not write the ruleset: edge values (the last Life card, the
last DON!!, the last card of the deck, the 4th and 5th copy), ordering (a counter after the damage
step, a [When Attacking] after the block, a second point of damage after a [Trigger]), hidden hands.
Every scenario has a legal half (its last event raises nothing) and an illegal half (its last event
raises the named rule); every half is also replayed hidden, from real SQLite logs, and must gain no
finding. What the review found and changed is in docs/rulesets/optcg.md ("Review").
"""
from __future__ import annotations

import pytest

from tests.rulesets.hidden import assert_hiding_adds_nothing
from tests.rulesets.optcg.support import TO_TURN_5, ev, judge, last_findings, opening, registration, uid_on_field

A, B = "Ann", "Bob"


def bob_life(n):
    """Bob's Life brought down to n by an effect (not a battle)."""
    return [ev("life.taken", {"player": B, "by": "an effect"})] * (5 - n)


def double_attack(life):
    """Ann's ST01-012 ([Double Attack], 6000) wins a battle against Bob's Leader (5000) holding `life`."""
    return (opening() + bob_life(life) + [ev("play", {"player": A, "card": "ST01-012", "by": "an effect"})]
            + TO_TURN_5 + [ev("attack", {"player": A, "attacker": "ST01-012", "target": "OP01-001"}),
                           ev("damage.step", {})])


def single_hit(life):
    """Ann's OP01-016 with 3 DON!! (5000) wins a battle against Bob's Leader (5000) holding `life`."""
    return opening() + bob_life(life) + [ev("don.attach", {"player": A, "card": "OP01-016", "count": 3}),
                                         ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                                         ev("damage.step", {})]


TRIGGER_ADDS_LIFE = [ev("life.taken", {"player": B, "card": "OP01-026", "to": "trigger"}),
                     ev("effect", {"player": B, "card": "OP01-026", "timing": "trigger"}),
                     ev("move", {"player": B, "from_zone": "deck", "to_zone": "life", "by": "OP01-026 [Trigger]"})]


def named_life_start():
    """The opening with Bob's Life cards named as they were placed (a simulator's log): the first at the
    bottom, ST01-006 on top."""
    out = opening()
    i = next(i for i, (k, _, p) in enumerate(out) if k == "life.placed" and p["player"] == B)
    out[i] = ev("life.placed", {"player": B, "count": 5,
                                "cards": ["OP01-016", "OP01-013", "OP01-024", "OP01-025", "ST01-006"]})
    return out


def hidden_start():
    """Setup as a scorekeeper sees it: opening hands drawn unseen; Ann's turn 1 then Bob's turn 2."""
    return [ev("deck.registered", registration(A)), ev("deck.registered", registration(B)),
            ev("turn.order", {"first": A}), ev("draw", {"player": A, "count": 5}),
            ev("draw", {"player": B, "count": 5}), ev("mulligan", {"player": A, "decision": "keep"}),
            ev("mulligan", {"player": B, "decision": "keep"}), ev("life.placed", {"player": A, "count": 5}),
            ev("life.placed", {"player": B, "count": 5}), ev("turn", {"player": A}), ev("refresh", {"player": A}),
            ev("don", {"player": A, "count": 1})]


FIVE_BY_EFFECT = [ev("play", {"player": A, "card": c, "by": "an effect"})
                  for c in ("OP01-013", "OP01-025", "ST01-006", "OP01-024")]
BOUNCED = [ev("move", {"player": A, "from_zone": "characters", "to_zone": "hand", "card": "OP01-016", "by": "x"})]

SCENARIOS = [
    # (name, rule, legal, illegal)
    ("Double Attack with 2 Life takes both cards; one taken is short", "OPTCG-TERM-13",
     double_attack(2) + [ev("life.taken", {"player": B})] * 2 + [ev("battle.end")],
     double_attack(2) + [ev("life.taken", {"player": B}), ev("battle.end")]),
    ("Double Attack with 1 Life: the last card, then the second point finds 0 Life and the game ends; "
     "playing on after that", "OPTCG-WIN-1",
     double_attack(1) + [ev("life.taken", {"player": B}), ev("game.end", {"how": "life", "winner": A})],
     double_attack(1) + [ev("life.taken", {"player": B}), ev("battle.end"), ev("turn.end", {"player": A})]),
    ("a [Trigger] adds a Life card between the two points, so the second takes it and Bob lives; "
     "a win announced then", "OPTCG-WIN-1",
     double_attack(1) + TRIGGER_ADDS_LIFE + [ev("life.taken", {"player": B}), ev("battle.end"),
                                            ev("turn.end", {"player": A})],
     double_attack(1) + TRIGGER_ADDS_LIFE + [ev("life.taken", {"player": B}),
                                            ev("game.end", {"how": "life", "winner": A})]),
    ("taking the last Life card is no loss: the game goes on; a win announced then", "OPTCG-WIN-1",
     single_hit(1) + [ev("life.taken", {"player": B}), ev("battle.end"), ev("turn.end", {"player": A})],
     single_hit(1) + [ev("life.taken", {"player": B}), ev("game.end", {"how": "life", "winner": A})]),
    ("hit with 0 Life the attacker wins at the damage step; a Life card taken then", "OPTCG-BATTLE-14",
     single_hit(0) + [ev("game.end", {"how": "life", "winner": A})],
     single_hit(0) + [ev("life.taken", {"player": B})]),
    ("with 0 Life a failed attack changes nothing; a Life card taken after it", "OPTCG-BATTLE-10",
     opening() + bob_life(0) + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                                ev("damage.step", {}), ev("battle.end"), ev("turn.end", {"player": A})],
     opening() + bob_life(0) + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                                ev("damage.step", {}), ev("life.taken", {"player": B})]),
    ("the top Life card is the one taken; a card further down", "OPTCG-BATTLE-11",
     named_life_start() + [ev("don.attach", {"player": A, "card": "OP01-016", "count": 3}),
                           ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                           ev("damage.step", {}), ev("life.taken", {"player": B, "card": "ST01-006"})],
     named_life_start() + [ev("don.attach", {"player": A, "card": "OP01-016", "count": 3}),
                           ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                           ev("damage.step", {}), ev("life.taken", {"player": B, "card": "OP01-016"})]),
    ("equal power: the attacker wins; 1000 less: the attack fails and no Life card is taken", "OPTCG-BATTLE-10",
     opening() + [ev("attack", {"player": A, "attacker": "OP01-001", "target": "OP01-001"}),
                  ev("damage.step", {}), ev("life.taken", {"player": B})],
     opening() + [ev("power.mod", {"player": A, "card": "OP01-001", "amount": -1000, "by": "an effect"}),
                  ev("attack", {"player": A, "attacker": "OP01-001", "target": "OP01-001"}),
                  ev("damage.step", {}), ev("life.taken", {"player": B})]),
    ("a counter in the counter step; after the damage step", "OPTCG-BATTLE-5",
     opening() + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                  ev("counter", {"player": B, "card": "OP01-013"}), ev("damage.step", {})],
     opening() + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                  ev("damage.step", {}), ev("counter", {"player": B, "card": "OP01-013"})]),
    ("[When Attacking] at the attack declaration; after the block step", "OPTCG-BATTLE-3",
     opening() + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                  ev("effect", {"player": A, "card": "OP01-016", "timing": "when_attacking"})],
     opening() + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                  ev("block", {"player": B, "card": "ST01-006"}),
                  ev("effect", {"player": A, "card": "OP01-016", "timing": "when_attacking"})]),
    ("one [Blocker] per attack, even with two on the field", "OPTCG-BATTLE-4",
     opening() + [ev("play", {"player": B, "card": "ST01-006", "by": "an effect"}),
                  ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                  ev("block", {"player": B, "card": "ST01-006"})],
     opening() + [ev("play", {"player": B, "card": "ST01-006", "by": "an effect"}),
                  ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                  ev("block", {"player": B, "card": "ST01-006"}), ev("block", {"player": B, "card": "ST01-006"})]),
    ("a Character returned to the hand and played again is new: with [Rush] it attacks; without, not",
     "OPTCG-TERM-12",
     opening() + [ev("play", {"player": A, "card": "OP01-025"})] + [
         ev("move", {"player": A, "from_zone": "characters", "to_zone": "hand", "card": "OP01-025", "by": "x"}),
         ev("play", {"player": A, "card": "OP01-025", "paid": 0}),
         ev("attack", {"player": A, "attacker": "OP01-025", "target": "OP01-001"})],
     opening() + BOUNCED + [ev("play", {"player": A, "card": "OP01-016"}),
                            ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"})]),
    ("a Character brought back from the trash by an effect in the opponent's turn attacks in its owner's; "
     "brought back in its owner's turn it has to wait", "OPTCG-TERM-12",
     opening() + [ev("ko", {"player": A, "card": "OP01-016", "by": "x"}), ev("turn.end", {"player": A}),
                  ev("turn", {"player": B}),
                  ev("move", {"player": A, "from_zone": "trash", "to_zone": "characters", "card": "OP01-016",
                              "by": "x"})] + TO_TURN_5[2:] + [
         ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"})],
     opening() + [ev("ko", {"player": A, "card": "OP01-016", "by": "x"}),
                  ev("move", {"player": A, "from_zone": "trash", "to_zone": "characters", "card": "OP01-016",
                              "by": "x"}),
                  ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"})]),
    ("with 5 Characters, one trashed first and then a new one played; played without room", "OPTCG-PLAY-2",
     opening() + FIVE_BY_EFFECT + [ev("trash", {"player": A, "from_zone": "characters", "card": "OP01-013",
                                                "by": "to make room"}),
                                   ev("play", {"player": A, "card": "OP01-029", "area": "event", "paid": 0}),
                                   ev("draw", {"player": A, "cards": ["OP01-016"], "by": "x"}),
                                   ev("play", {"player": A, "card": "OP01-016"})],
     opening() + FIVE_BY_EFFECT + [ev("draw", {"player": A, "cards": ["OP01-016"], "by": "x"}),
                                   ev("play", {"player": A, "card": "OP01-016"})]),
    ("one DON!! left in the DON!! deck: the DON!! phase gives 1; taking 2", "OPTCG-FLOW-3",
     opening() + [ev("don", {"player": A, "count": 6, "by": "an effect"})] + TO_TURN_5[:-1]
     + [ev("don", {"player": A, "count": 1})],
     opening() + [ev("don", {"player": A, "count": 6, "by": "an effect"})] + TO_TURN_5[:-1]
     + [ev("don", {"player": A, "count": 2})]),
    ("the last card of the deck drawn: a deck-out at once, announced; playing on", "OPTCG-WIN-2",
     opening() + [ev("draw", {"player": A, "count": 39, "by": "x"}),
                  ev("game.end", {"how": "deck-out", "winner": B})],
     opening() + [ev("draw", {"player": A, "count": 39, "by": "x"}),
                  ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"})]),
    ("a Character rested by its attack is active after the refresh; without the refresh it cannot attack",
     "OPTCG-BATTLE-1",
     opening() + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                  ev("damage.step", {}), ev("battle.end")] + TO_TURN_5
     + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"})],
     opening() + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                  ev("damage.step", {}), ev("battle.end")] + TO_TURN_5[:7] + TO_TURN_5[8:]
     + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"})]),
    ("a [Counter] Event paid with the defender's last active DON!!; with none", "OPTCG-COST-1",
     opening() + [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                  ev("counter", {"player": B, "card": "OP01-029", "amount": 2000})],
     opening() + [ev("don.rest", {"player": B, "count": 1, "by": "an effect"}),
                  ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
                  ev("counter", {"player": B, "card": "OP01-029", "amount": 2000})]),
    ("[Banish]: the Life card to the trash; revealed for its [Trigger]", "OPTCG-TERM-14",
     opening() + [ev("play", {"player": A, "card": "OP02-013", "by": "x"})] + TO_TURN_5
     + [ev("attack", {"player": A, "attacker": "OP02-013", "target": "OP01-001"}), ev("damage.step", {}),
        ev("life.taken", {"player": B, "to": "trash"})],
     opening() + [ev("play", {"player": A, "card": "OP02-013", "by": "x"})] + TO_TURN_5
     + [ev("attack", {"player": A, "attacker": "OP02-013", "target": "OP01-001"}), ev("damage.step", {}),
        ev("life.taken", {"player": B, "card": "OP01-016", "to": "trigger"})]),
    ("[Once Per Turn] again in the next turn; twice in one turn", "OPTCG-TERM-7",
     opening() + [ev("effect", {"player": A, "card": "OP01-001", "timing": "activate_main", "once_per_turn": True})]
     + TO_TURN_5 + [ev("effect", {"player": A, "card": "OP01-001", "timing": "activate_main", "once_per_turn": True})],
     opening() + [ev("effect", {"player": A, "card": "OP01-001", "timing": "activate_main", "once_per_turn": True})] * 2),
    ("a Life card taken by an effect with Life left; with none left", "OPTCG-ZONE-3",
     opening() + bob_life(1) + [ev("life.taken", {"player": B, "by": "an effect"})],
     opening() + bob_life(0) + [ev("life.taken", {"player": B, "by": "an effect"})]),
    ("hidden hand: a play from cards nobody saw; from a hand played empty", "OPTCG-PLAY-1",
     hidden_start() + [ev("play", {"player": A, "card": "OP01-016"})],
     hidden_start() + [ev("play", {"player": A, "card": c, "by": "x"}) for c in
                       ("OP01-013", "OP01-024", "OP01-025", "OP01-051", "OP01-031")]
     + [ev("play", {"player": A, "card": "OP01-016"})]),
    ("hidden hand: the hand shown holds 4 OP01-013; 5 (the deck lists 4)", "OPTCG-REVEAL-1",
     hidden_start() + [ev("draw", {"player": A, "by": "x"}),
                       ev("reveal", {"player": A, "zone": "hand", "card": "OP01-013", "count": 4})],
     hidden_start() + [ev("draw", {"player": A, "by": "x"}),
                       ev("reveal", {"player": A, "zone": "hand", "card": "OP01-013", "count": 5})]),
    ("hidden hand: three OP01-013 played, then a 4th shown in the hand; then two more", "OPTCG-REVEAL-1",
     hidden_start() + [ev("play", {"player": A, "card": "OP01-013", "by": "x"})] * 3
     + [ev("reveal", {"player": A, "zone": "hand", "card": "OP01-013"})],
     hidden_start() + [ev("play", {"player": A, "card": "OP01-013", "by": "x"})] * 3
     + [ev("reveal", {"player": A, "zone": "hand", "card": "OP01-013", "count": 2})]),
    ("hidden hand: a card shown twice is the same card; a card shown where every card is known otherwise",
     "OPTCG-REVEAL-1",
     hidden_start() + [ev("reveal", {"player": A, "zone": "hand", "card": "OP01-024"})] * 2,
     hidden_start() + [ev("reveal", {"player": A, "zone": "hand", "card": c}) for c in
                       ("OP01-024", "OP01-013", "OP01-016", "OP01-025", "ST01-006", "OP01-051")]),
]


@pytest.mark.parametrize("name,rule,legal,illegal", SCENARIOS, ids=[s[0][:60] for s in SCENARIOS])
def test_legal_half_raises_nothing(name, rule, legal, illegal):
    found = last_findings(legal)
    assert found == [], [f"{f.rule}: {f.message}" for f in found]


@pytest.mark.parametrize("name,rule,legal,illegal", SCENARIOS, ids=[s[0][:60] for s in SCENARIOS])
def test_illegal_half_raises_its_rule(name, rule, legal, illegal):
    found = last_findings(illegal)
    assert rule in {f.rule for f in found}, [f"{f.rule}: {f.message}" for f in found]


@pytest.mark.parametrize("name,rule,legal,illegal", SCENARIOS, ids=[s[0][:60] for s in SCENARIOS])
def test_every_half_keeps_the_invariant(name, rule, legal, illegal, tmp_path):
    """Hidden as a scorekeeper records it, no half gains a finding (real SQLite logs); a legal half, a
    true record, also leaves the hidden table knowing nothing the known one does not."""
    for half, steps in (("legal", legal), ("illegal", illegal)):
        (tmp_path / half).mkdir()
        assert_hiding_adds_nothing("optcg", steps, tmp_path / half, knowledge=half == "legal")


def test_at_least_fifteen_scenarios_and_the_docs_say_how_many():
    import os
    from tests.conftest import ROOT
    assert len(SCENARIOS) >= 15
    page = open(os.path.join(ROOT, "docs", "rulesets", "optcg.md"), encoding="utf-8").read()
    assert f"test_optcg_review.py`: {len(SCENARIOS)} adversarial scenarios" in page


# --- the damage procedure, point by point: outcomes ----------------------------------------------

def outcome(events):
    state, _, rs = judge(events)
    o = rs.outcome(state)
    return None if o is None else (o.winner, o.how, o.explanation[-1])


def test_double_attack_on_one_life_is_decided_by_the_second_point_not_the_damage_step():
    # before the fix the game ended at the damage step, with Bob's last Life card still there
    assert outcome(double_attack(1)) is None
    assert judge(double_attack(1))[0].zone(B, "life")
    events = double_attack(1) + [ev("life.taken", {"player": B})]
    assert outcome(events) is None  # the first point: the last card is taken, the [Trigger] could follow
    won = outcome(events + [ev("battle.end")])
    assert won[:2] == (A, "life") and won[2] == f"event {len(events) + 2}"


def test_the_second_point_recorded_at_zero_life_ends_the_game_there():
    first = double_attack(1) + [ev("life.taken", {"player": B})]
    events = first + [ev("life.taken", {"player": B})]
    state, findings, _ = judge(events)
    assert outcome(events)[:2] == (A, "life")
    assert [f.rule for f in findings if f.position == len(events) + 1] == []  # a point at 0 Life is no mistake
    assert len(state.zone(B, "hand")) == len(judge(first)[0].zone(B, "hand"))  # and takes no card


def test_a_trigger_that_adds_life_between_the_points_keeps_the_game_going():
    events = double_attack(1) + TRIGGER_ADDS_LIFE + [ev("life.taken", {"player": B}), ev("battle.end")]
    state, findings, _ = judge(events)
    assert outcome(events) is None and state.zone(B, "life") == []
    assert [f for f in findings if f.position > len(double_attack(1)) + 1] == []


def test_hit_at_zero_life_wins_at_the_damage_step():
    assert outcome(single_hit(0))[:2] == (A, "life")
    assert outcome(single_hit(1)) is None


def test_uids_of_cards_played_from_a_hidden_hand_match_the_known_record():
    from tests.rulesets.hidden import hide_steps
    events = opening() + [ev("play", {"player": A, "card": "OP01-013"})]
    known = uid_on_field(events, A, "OP01-013")
    assert uid_on_field(hide_steps("optcg", events), A, "OP01-013") == known
