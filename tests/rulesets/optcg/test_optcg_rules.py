"""One legal and one illegal case per checked rule of the optcg ruleset.

Each case is a list of events after a start (the standard opening, or the setup only). The legal
case must raise no finding on its last event; the illegal case must raise the rule's finding there.
"""
from __future__ import annotations

import pytest

from engine.rulesets import get_ruleset
from tests.rulesets.optcg.support import (TO_TURN_5, ev, judge, last_findings, opening, registration, rules_of,
                                         uid_on_field)

A, B = "Ann", "Bob"
HIT = [ev("don.attach", {"player": A, "card": "OP01-016", "count": 3}),
       ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
       ev("damage.step", {})]                      # 2000 + 3000 vs 5000: the attacker wins
MISS = [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"}),
        ev("damage.step", {})]                     # 2000 vs 5000: the attack fails
ATTACK = [ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"})]
REST_BLOCKER = [ev("rest", {"player": B, "card": "ST01-006", "by": "an effect"})]


def setup_only():
    return opening(first_turns=False)


def reg_with(**changes):
    payload = registration(A)
    payload.update(changes)
    return [ev("deck.registered", payload)]


def deck_swap(old, new, n=1):
    deck = list(registration(A)["deck"])
    for _ in range(n):
        deck[deck.index(old)] = new
    return deck


def with_facts(deck):
    from tests.rulesets.optcg.support import card_facts
    facts = card_facts()
    payload = registration(A, deck=deck)
    payload["cards"] = {c: facts[c] for c in set(deck + ["OP01-001"]) if c in facts}
    return payload


def play_by_effect(card):
    return ev("play", {"player": A, "card": card, "by": "an effect"})


FIVE = [play_by_effect("OP01-013"), play_by_effect("OP01-025"), play_by_effect("ST01-006"), play_by_effect("OP01-024"),
        ev("draw", {"player": A, "cards": ["OP01-016"], "by": "x"})]
A_013 = uid_on_field(opening() + FIVE, A, "OP01-013")


# (rule, start, legal suffix, illegal suffix)
CASES = [
    ("OPTCG-CARD-1", opening, [ev("play", {"player": A, "card": "OP01-013"})],
     [ev("play", {"player": A, "card": "OP01-013", "paid": 1})]),
    ("OPTCG-CARD-2", opening, ATTACK + [ev("counter", {"player": B, "card": "OP01-013"})],
     ATTACK + [ev("counter", {"player": B, "card": "OP01-026", "kind": "character"})]),
    ("OPTCG-CARD-3", opening, HIT + [ev("life.taken", {"player": B, "card": "OP01-016", "to": "trigger"})],
     HIT + [ev("life.taken", {"player": B, "card": "OP01-013", "to": "trigger"})]),
    ("OPTCG-CARD-6", opening, [ev("keyword.gain", {"player": A, "card": "OP01-016", "keyword": "rush", "by": "x"})],
     [ev("keyword.gain", {"player": A, "card": "OP01-029", "keyword": "rush", "by": "x"})]),
    ("OPTCG-ZONE-1", setup_only, [ev("turn", {"player": A})],
     [ev("deck.registered", registration(A))]),
    ("OPTCG-ZONE-2", opening, [ev("play", {"player": A, "card": "OP01-013"}), ev("draw", {"player": A, "cards": ["ST01-017"], "by": "x"}),
                               ev("move", {"player": A, "from_zone": "hand", "to_zone": "stage", "card": "ST01-017", "by": "x"})],
     [ev("draw", {"player": A, "cards": ["ST01-017", "OP01-030"], "count": 2, "by": "x"}),
      ev("play", {"player": A, "card": "ST01-017"}),
      ev("move", {"player": A, "from_zone": "hand", "to_zone": "stage", "card": "OP01-030", "by": "x"})]),
    ("OPTCG-ZONE-3", opening, [ev("life.taken", {"player": B, "by": "x"})] * 5,
     [ev("life.taken", {"player": B, "by": "x"})] * 6),
    ("OPTCG-DECK-1", lambda: [], reg_with(), reg_with(leader="OP01-013")),
    ("OPTCG-DECK-2", lambda: [], reg_with(), reg_with(deck=registration(A)["deck"][:49])),
    ("OPTCG-DECK-3", lambda: [], [ev("deck.registered", with_facts(list(registration(A)["deck"])))],
     [ev("deck.registered", with_facts(deck_swap("OP01-031", "OP01-070")))]),
    ("OPTCG-DECK-4", lambda: [], reg_with(), [ev("deck.registered", with_facts(deck_swap("OP01-031", "OP01-013")))]),
    ("OPTCG-DECK-5", lambda: [], reg_with(), reg_with(don=9)),
    ("OPTCG-COLOR-1", lambda: [], # OP01-051 is Green/Red: it holds the Leader's Red
     [ev("deck.registered", with_facts(list(registration(A)["deck"])))],
     [ev("deck.registered", with_facts(deck_swap("OP01-031", "OP01-071")))]),
    ("OPTCG-SETUP-4", lambda: setup_only()[:3], [ev("draw", {"player": A, "count": 5})],
     [ev("draw", {"player": A, "count": 6})]),
    ("OPTCG-SETUP-5", lambda: setup_only()[:5], [ev("mulligan", {"player": A})],
     [ev("mulligan", {"player": B})]),
    ("OPTCG-SETUP-6", lambda: setup_only()[:7], [ev("life.placed", {"player": A, "count": 5})],
     [ev("life.placed", {"player": A, "count": 6})]),
    ("OPTCG-SETUP-7", setup_only, [ev("turn", {"player": A})], [ev("turn", {"player": B})]),
    ("OPTCG-WIN-1", opening, [ev("life.taken", {"player": B, "by": "x"})] * 5 + HIT + [ev("game.end", {"how": "life", "winner": A})],
     [ev("life.taken", {"player": B, "by": "x"})] * 5 + HIT + [ev("play", {"player": A, "card": "OP01-013"})]),
    ("OPTCG-WIN-2", opening, [ev("draw", {"player": A, "count": 38, "by": "x"})],
     [ev("draw", {"player": A, "count": 39, "by": "x"}), ev("play", {"player": A, "card": "OP01-013"})]),
    ("OPTCG-STATE-1", opening, [ev("play", {"player": A, "card": "OP01-013"})],
     [ev("play", {"player": A, "card": "OP01-013", "rested": True})]),
    ("OPTCG-COST-1", opening, [ev("play", {"player": A, "card": "OP01-025"})],
     [ev("play", {"player": A, "card": "OP01-025", "paid": 4})]),
    ("OPTCG-FLOW-1", lambda: opening()[:-3], [ev("refresh", {"player": A}), ev("draw", {"player": A})],
     [ev("draw", {"player": A})]),
    ("OPTCG-FLOW-2", lambda: opening()[:-14], [ev("don", {"player": A, "count": 1})],
     [ev("draw", {"player": A})]),
    ("OPTCG-FLOW-3", lambda: opening()[:-1], [ev("don", {"player": A, "count": 2})],
     [ev("don", {"player": A, "count": 1}), ev("play", {"player": A, "card": "OP01-013"})]),
    ("OPTCG-FLOW-4", opening, [ev("play", {"player": A, "card": "OP01-013"})],
     [ev("play", {"player": B, "card": "OP01-013"})]),
    ("OPTCG-FLOW-5", opening, [ev("turn.end", {"player": A})], [ev("turn.end", {"player": B})]),
    ("OPTCG-END-3", opening, [ev("turn.end", {"player": A}), ev("turn", {"player": B})],
     [ev("turn.end", {"player": A}), ev("turn", {"player": A})]),
    ("OPTCG-PLAY-1", opening, [ev("play", {"player": A, "card": "OP01-024"})],
     [ev("play", {"player": A, "card": "OP01-016"})]),
    ("OPTCG-PLAY-2", opening, FIVE + [ev("play", {"player": A, "card": "OP01-016", "trash_uid": A_013})],
     FIVE + [ev("play", {"player": A, "card": "OP01-016"})]),
    ("OPTCG-PLAY-3", opening, [ev("draw", {"player": A, "cards": ["ST01-017"], "by": "x"}), ev("play", {"player": A, "card": "ST01-017"})],
     [ev("play", {"player": A, "card": "ST01-017"})]),
    ("OPTCG-PLAY-4", opening, [ev("draw", {"player": A, "cards": ["OP01-026"], "by": "x"}), ev("play", {"player": A, "card": "OP01-026"})],
     [ev("play", {"player": A, "card": "OP01-026"})]),
    ("OPTCG-DON-1", opening, [ev("don.attach", {"player": A, "card": "OP01-001", "count": 3})],
     [ev("don.attach", {"player": A, "card": "OP01-001", "count": 4})]),
    ("OPTCG-DON-2", opening, HIT[:2] + [ev("damage.step", {"attacker_power": 5000, "target_power": 5000})],
     HIT[:2] + [ev("damage.step", {"attacker_power": 2000, "target_power": 5000})]),
    ("OPTCG-BATTLE-0", lambda: [], opening() + ATTACK,
     opening()[:-14] + [ev("refresh", {"player": A}), ev("don", {"player": A, "count": 1}),
                        ev("attack", {"player": A, "attacker": "OP01-001", "target": "OP01-001"})]),
    ("OPTCG-BATTLE-1", opening, ATTACK, ATTACK + [ev("battle.end"), ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"})]),
    ("OPTCG-BATTLE-2", opening, ATTACK, [ev("attack", {"player": A, "attacker": "OP01-016", "target": "ST01-006"})]),
    ("OPTCG-BATTLE-3", opening, ATTACK + [ev("effect", {"player": A, "card": "OP01-016", "timing": "when_attacking"})],
     [ev("effect", {"player": A, "card": "OP01-016", "timing": "when_attacking"})]),
    ("OPTCG-BATTLE-4", opening, ATTACK + [ev("block", {"player": B, "card": "ST01-006"})],
     ATTACK + [ev("counter", {"player": B, "card": "OP01-013"}), ev("block", {"player": B, "card": "ST01-006"})]),
    ("OPTCG-BATTLE-5", opening, ATTACK + [ev("counter", {"player": B, "card": "OP01-013"})],
     ATTACK + [ev("counter", {"player": A, "card": "OP01-013"})]),
    ("OPTCG-BATTLE-6", opening, ATTACK + [ev("counter", {"player": B, "card": "OP01-029"})],
     ATTACK + [ev("counter", {"player": A, "card": "OP01-029"})]),
    ("OPTCG-BATTLE-7", opening, ATTACK + [ev("damage.step", {})], ATTACK + [ev("damage.step", {}), ev("damage.step", {})]),
    ("OPTCG-BATTLE-8", opening, HIT + [ev("life.taken", {"player": B}), ev("battle.end")], HIT + [ev("battle.end")]),
    ("OPTCG-BATTLE-9", opening, REST_BLOCKER + [ev("don.attach", {"player": A, "card": "OP01-016"}),
                                                ev("attack", {"player": A, "attacker": "OP01-016", "target": "ST01-006"}),
                                                ev("damage.step", {}), ev("ko", {"player": B, "card": "ST01-006"})],
     [ev("ko", {"player": B, "card": "ST01-006"})]),
    ("OPTCG-BATTLE-10", opening, MISS + [ev("battle.end")], MISS + [ev("life.taken", {"player": B})]),
    ("OPTCG-BATTLE-11", opening, HIT + [ev("life.taken", {"player": B})], [ev("life.taken", {"player": B})]),
    ("OPTCG-BATTLE-12", opening, HIT + [ev("life.taken", {"player": B})],
     HIT + [ev("life.taken", {"player": B}), ev("life.taken", {"player": B})]),
    ("OPTCG-BATTLE-14", opening, [ev("life.taken", {"player": B, "by": "x"})] * 5 + HIT + [ev("game.end", {"how": "life", "winner": A})],
     [ev("life.taken", {"player": B, "by": "x"})] * 5 + HIT + [ev("life.taken", {"player": B})]),
    ("OPTCG-REVEAL-1", opening, [ev("reveal", {"player": A, "zone": "hand", "card": "OP01-013"})],
     [ev("reveal", {"player": A, "zone": "hand", "card": "OP01-070"})]),
    ("OPTCG-BATTLE-13", opening, ATTACK + [ev("counter", {"player": B, "card": "OP01-013"}), ev("damage.step", {}), ev("battle.end")]
     + [ev("don.attach", {"player": A, "card": "OP01-001"}), ev("attack", {"player": A, "attacker": "OP01-001", "target": "OP01-001"}),
        ev("damage.step", {"attacker_power": 6000, "target_power": 5000})],
     ATTACK + [ev("counter", {"player": B, "card": "OP01-013"}), ev("damage.step", {}), ev("battle.end")]
     + [ev("don.attach", {"player": A, "card": "OP01-001"}), ev("attack", {"player": A, "attacker": "OP01-001", "target": "OP01-001"}),
        ev("damage.step", {"attacker_power": 6000, "target_power": 6000})]),
    ("OPTCG-END-2", opening, [ev("power.mod", {"player": A, "card": "OP01-001", "amount": 2000, "duration": "turn", "by": "x"})]
     + TO_TURN_5[:5] + [ev("attack", {"player": B, "attacker": "OP01-001", "target": "OP01-001"}),
                        ev("damage.step", {"attacker_power": 5000, "target_power": 5000})],
     [ev("power.mod", {"player": A, "card": "OP01-001", "amount": 2000, "duration": "turn", "by": "x"})]
     + TO_TURN_5[:5] + [ev("attack", {"player": B, "attacker": "OP01-001", "target": "OP01-001"}),
                        ev("damage.step", {"attacker_power": 5000, "target_power": 7000})]),
    ("OPTCG-LEAVE-1", opening, [ev("don.attach", {"player": A, "card": "OP01-016"}),
                                ev("don.detach", {"player": A, "card": "OP01-016", "by": "x"})],
     [ev("don.attach", {"player": A, "card": "OP01-016"}), ev("don.detach", {"player": A, "card": "OP01-016", "rested": False})]),
    ("OPTCG-TERM-1", opening, [ev("play", {"player": A, "card": "OP01-013"}), ev("effect", {"player": A, "card": "OP01-013", "timing": "on_play"})],
     [ev("effect", {"player": A, "card": "OP01-016", "timing": "on_play"})]),
    ("OPTCG-TERM-2", opening, [ev("effect", {"player": A, "card": "OP01-001", "timing": "activate_main"})],
     [ev("effect", {"player": B, "card": "OP01-001", "timing": "activate_main"})]),
    ("OPTCG-TERM-3", opening, [ev("effect", {"player": A, "card": "OP01-001", "timing": "during_turn"})],
     [ev("effect", {"player": B, "card": "OP01-001", "timing": "during_turn"})]),
    ("OPTCG-TERM-4", opening, [ev("effect", {"player": A, "card": "OP01-001", "timing": "end_of_turn"})],
     [ev("effect", {"player": B, "card": "OP01-001", "timing": "end_of_turn"})]),
    ("OPTCG-TERM-5", opening, [ev("effect", {"player": A, "card": "OP01-026", "timing": "main"})],
     [ev("effect", {"player": B, "card": "OP01-026", "timing": "main"})]),
    ("OPTCG-TERM-6", opening, ATTACK + [ev("effect", {"player": B, "card": "OP01-029", "timing": "counter"})],
     [ev("effect", {"player": B, "card": "OP01-029", "timing": "counter"})]),
    ("OPTCG-TERM-7", opening, [ev("effect", {"player": A, "card": "OP01-001", "timing": "activate_main", "once_per_turn": True})],
     [ev("effect", {"player": A, "card": "OP01-001", "timing": "activate_main", "once_per_turn": True})] * 2),
    ("OPTCG-TERM-8", opening, [ev("don.attach", {"player": A, "card": "OP01-016", "count": 2}),
                               ev("effect", {"player": A, "card": "OP01-016", "timing": "activate_main", "don_req": 2})],
     [ev("effect", {"player": A, "card": "OP01-016", "timing": "activate_main", "don_req": 2})]),
    ("OPTCG-TERM-9", opening, [ev("effect", {"player": A, "card": "OP01-001", "timing": "activate_main", "rest_don": 3})],
     [ev("effect", {"player": A, "card": "OP01-001", "timing": "activate_main", "rest_don": 4})]),
    ("OPTCG-TERM-10", opening, [ev("don.minus", {"player": A, "count": 3, "by": "x"})],
     [ev("don.minus", {"player": A, "count": 4, "by": "x"})]),
    ("OPTCG-TERM-11", opening, ATTACK + [ev("block", {"player": B, "card": "ST01-006"})],
     [ev("play", {"player": B, "card": "OP01-013", "by": "x"})] + ATTACK + [ev("block", {"player": B, "card": "OP01-013"})]),
    ("OPTCG-TERM-12", opening, [ev("play", {"player": A, "card": "OP01-025"}),
                                ev("attack", {"player": A, "attacker": "OP01-025", "target": "OP01-001"})],
     [ev("play", {"player": A, "card": "OP01-013"}), ev("attack", {"player": A, "attacker": "OP01-013", "target": "OP01-001"})]),
    ("OPTCG-TERM-13", opening, [play_by_effect("ST01-012")] + TO_TURN_5 + [
        ev("attack", {"player": A, "attacker": "ST01-012", "target": "OP01-001"}), ev("damage.step", {}),
        ev("life.taken", {"player": B}), ev("life.taken", {"player": B}), ev("battle.end")],
     [play_by_effect("ST01-012")] + TO_TURN_5 + [
        ev("attack", {"player": A, "attacker": "ST01-012", "target": "OP01-001"}), ev("damage.step", {}),
        ev("life.taken", {"player": B}), ev("battle.end")]),
    ("OPTCG-TERM-14", opening, [play_by_effect("OP02-013")] + TO_TURN_5 + [
        ev("attack", {"player": A, "attacker": "OP02-013", "target": "OP01-001"}), ev("damage.step", {}),
        ev("life.taken", {"player": B, "to": "trash"})],
     [play_by_effect("OP02-013")] + TO_TURN_5 + [
        ev("attack", {"player": A, "attacker": "OP02-013", "target": "OP01-001"}), ev("damage.step", {}),
        ev("life.taken", {"player": B})]),
    ("OPTCG-DATA-1", lambda: [], reg_with(), reg_with(deck=deck_swap(registration(A)["deck"][0], "ZZ99-001"))),
    ("OPTCG-DATA-2", lambda: [], reg_with(), reg_with(cards={})),
    ("OPTCG-SIM-1", opening, [ev("log.count", {"player": A, "zone": "leader", "count": 1, "line": 9})],
     [ev("log.count", {"player": A, "zone": "leader", "count": 2, "line": 9})]),
]


@pytest.mark.parametrize("rule,start,legal,illegal", CASES, ids=[c[0] for c in CASES])
def test_legal_case_has_no_finding(rule, start, legal, illegal):
    found = last_findings(start() + legal)
    assert found == [], [f"{f.rule}: {f.message}" for f in found]


@pytest.mark.parametrize("rule,start,legal,illegal", CASES, ids=[c[0] for c in CASES])
def test_illegal_case_is_flagged(rule, start, legal, illegal):
    found = last_findings(start() + illegal)
    assert rule in rules_of(found), [f"{f.rule}: {f.message}" for f in found]
    own_source = get_ruleset("optcg")().rule(rule).source  # a log format's rule cites that format
    for f in found:
        if f.rule == rule:  # tablejudge's own checks (OPTCG-DATA-*) quote nothing: they cite their source
            assert (f.quote or own_source) and f.section and f.source == (own_source or "optcg-bandai-v1.11.zh.md")


def test_every_checked_rule_has_a_case():
    checked = {r.id for r in get_ruleset("optcg").rules if r.status == "checked"}
    covered = {c[0] for c in CASES}
    assert checked - covered == set()


def test_the_opening_is_clean():
    assert last_findings(opening()) == []
    from tests.rulesets.optcg.support import judge
    _, findings, _ = judge(opening())
    assert findings == []


def test_don_without_a_count_is_what_the_don_phase_gives():
    """`A: don` records no count: 1 DON!! in the first player's first turn, 2 after (準備階段)."""
    first = opening(first_turns=False) + [ev("turn", {"player": "Ann"}), ev("refresh", {"player": "Ann"}),
                                          ev("don", {"player": "Ann"})]
    state, findings, _ = judge(first)
    assert len(state.zone("Ann", "cost")) == 1 and not findings
    later = first + [ev("turn.end", {"player": "Ann"}), ev("turn", {"player": "Bob"}),
                     ev("refresh", {"player": "Bob"}), ev("draw", {"player": "Bob"}), ev("don", {"player": "Bob"})]
    state, findings, _ = judge(later)
    assert len(state.zone("Bob", "cost")) == 2 and not findings


def test_an_unregistered_deck_gives_no_don_deck_of_0_findings():
    """QA76: without `deck` lines every DON!! phase read "Ann takes 1 DON!! in turn 1; the manual
    gives 0" (and "from a DON!! deck of 0"): the 0 was the unknown DON!! deck. The manual's count
    still bounds a phase; more than it says the deck is not registered."""
    plain = [e for e in opening() if e[0] != "deck.registered"]
    _, findings, _ = judge(plain)
    assert [f.rule for f in findings if f.rule in ("OPTCG-FLOW-3", "OPTCG-DECK-5")] == []
    _, findings, _ = judge(plain[:-1] + [ev("don", {"player": A, "count": 3})])
    flow = [f.message for f in findings if f.rule == "OPTCG-FLOW-3"]
    assert flow == [f"{A} takes 3 DON!! in turn 3; the manual gives 2 ({A}'s deck is not registered: its "
                    "DON!! deck is unknown)"], flow
