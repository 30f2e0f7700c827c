"""`keyword.gain`: a keyword an effect gives a card ("Give Rockstar Rush") counts for the rest of that
turn, and only then (issue 17, QA 2: OPTCGSim's Sanji gives [Rush]; without a record of it every such
attack was a false OPTCG-TERM-12)."""
from __future__ import annotations

from tests.rulesets.optcg.support import ev, last_findings, opening, rules_of, uid_on_field

A, B = "Ann", "Bob"
PLAYED = opening() + [ev("play", {"player": A, "card": "OP01-016"})]  # OP01-016: no [Rush] of its own
ATTACK = ev("attack", {"player": A, "attacker": "OP01-016", "target": "OP01-001"})


def test_a_character_given_rush_this_turn_attacks_the_turn_it_is_played():
    gain = ev("keyword.gain", {"player": A, "card": "OP01-016", "keyword": "rush", "by": "OP01-001"})
    assert rules_of(last_findings(PLAYED + [gain, ATTACK])) == []


def test_without_the_gain_the_same_attack_is_flagged():
    assert "OPTCG-TERM-12" in rules_of(last_findings(PLAYED + [ATTACK]))


def test_the_gain_names_one_card_by_uid_and_another_keyword_does_not_give_rush():
    uid = uid_on_field(PLAYED, A, "OP01-016")
    blocker = ev("keyword.gain", {"player": A, "uid": uid, "keyword": "blocker", "by": "OP01-001"})
    assert "OPTCG-TERM-12" in rules_of(last_findings(PLAYED + [blocker, ATTACK]))


def test_a_keyword_given_to_a_card_off_the_field_is_an_error_saying_where_it_is():
    """QA60 #3: a card not in the match, and an Event in the hand, gained a keyword with no finding."""
    nowhere = ev("keyword.gain", {"player": A, "card": "ZZ01-999", "keyword": "rush", "by": "OP01-001"})
    event = ev("keyword.gain", {"player": A, "card": "OP01-029", "keyword": "blocker", "by": "OP01-001"})
    for gain, where in ((nowhere, ""), (event, " (it is in Ann's hand)")):
        found = [f for f in last_findings(PLAYED + [gain]) if f.rule == "OPTCG-CARD-6"]
        assert [(f.severity, f.message) for f in found] == [
            ("error", f"{gain[2]['card']} gains [{gain[2]['keyword'].title()}] but is not a Leader or Character "
                      f"on Ann's field{where}")]
    leader = ev("keyword.gain", {"player": A, "card": "OP01-001", "keyword": "double attack", "by": "OP01-001"})
    assert rules_of(last_findings(PLAYED + [leader])) == []
