"""OP09-BATT-17: an Action of the Fase Principale waits for the Battle in progress to end (the
rulebook's Battle sequence runs to "Fine della Battaglia"). It is not OP09-BATT-14 (the used cards
go to the Oceano at the end of the Battle), which an Action mid-Battle used to cite."""
from __future__ import annotations

import pytest

from engine.rulesets.op2009.ruleset import RULESET
from tests.rulesets.op2009.builder import ANN, BOB, Log


@pytest.fixture
def T3(tmp_path):
    log = Log(tmp_path)
    log.register()
    log.prepare()
    log.quiet_turn(ANN)
    log.quiet_turn(BOB)
    log.begin(ANN)
    return log


def test_an_action_after_the_battle_ended_is_legal(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    T3.ev("battle.pass", player=ANN)
    T3.ev("battle.pass", player=BOB)
    T3.ev("battle.end")
    assert "OP09-BATT-17" not in T3.rules("logbook.update", player=ANN)


def test_an_action_while_a_battle_is_in_progress_cites_the_battle_sequence(T3):
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    rules = T3.rules("logbook.update", player=ANN)
    assert "OP09-BATT-17" in rules and "OP09-BATT-14" not in rules
    quote = RULESET(None).rule("OP09-BATT-17").quote
    assert "Fine della Battaglia" in quote and "la Battaglia è finita" in quote


def test_a_battle_never_closed_is_said_once_when_the_next_turn_starts(T3):
    """QA 2026-11-26: a Battle left open flagged OP09-BATT-17 on every later Action, into the next
    turns, and the turn change itself said nothing."""
    T3.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    T3.ev("pass", player=ANN)
    T3.finale(ANN)
    assert "OP09-BATT-17" in T3.rules("turn.start", player=BOB)
    T3.ev("fase.iniziale", player=BOB)
    assert "OP09-BATT-17" not in T3.rules("logbook.update", player=BOB)
