"""Stated powers against replay (OPTCG-DON-2, OPTCG-END-2) when effects change power (issue 17, QA 3:
OPTCGSim states powers that effects changed; what the log names is recorded as `power.mod`, what it
does not name stays a warning that says so)."""
from __future__ import annotations

from tests.rulesets.optcg.support import TO_TURN_5, ev, last_findings, opening

A, B = "Ann", "Bob"
ATTACK = [ev("attack", {"player": B, "attacker": "OP01-001", "target": "OP01-001"})]


def test_an_unexplained_stated_power_says_an_unnamed_effect_may_explain_it():
    (f,) = last_findings(opening() + TO_TURN_5[:5] + ATTACK
                         + [ev("damage.step", {"attacker_power": 5000, "target_power": 6000})])
    assert (f.rule, f.severity) == ("OPTCG-DON-2", "warning")
    assert "stated as 6000; replay derives 5000" in f.message and "does not name" in f.message


def test_a_cut_that_ended_last_turn_is_not_taken_for_a_stale_bonus():
    """A -1000 for Ann's turn, then in Bob's turn her Leader's power is stated 1000 lower than replay's:
    the ended cut is no proof the player counted it (OPTCG-END-2 is for a bonus still counted)."""
    cut = ev("power.mod", {"player": A, "card": "OP01-001", "amount": -1000, "duration": "turn", "by": "x"})
    found = last_findings(opening() + [cut] + TO_TURN_5[:5] + ATTACK
                          + [ev("damage.step", {"attacker_power": 5000, "target_power": 4000})])
    assert [(f.rule, f.severity) for f in found] == [("OPTCG-DON-2", "warning")]
