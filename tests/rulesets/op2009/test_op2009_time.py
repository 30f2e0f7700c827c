"""Every branch of "Situazione Fine Tempo", each from a hand-written match log in a SQLite file."""
from __future__ import annotations

import pytest

from judge.desk.timelimit import decide, run
from tests.rulesets.op2009.builder import ANN, BOB, Log, hit


def decision(L: Log, policy: str | None = None):
    return decide(L.m, policy).decision


def ann_kills_bobs_captain(L: Log) -> None:
    """Ann's Captain (500) beats Bob's Captain (500) with a +200/+2 modifier: 3 damage, Crocodile is a Trophy."""
    L.ev("battle.start", player=ANN, attacker="capitano", target="capitano")
    L.ev("technique", player=ANN, card="LK-W01", usable_by="Rufy")
    L.ev("modifier", player=ANN, space="capitano", card="LK-W01", power=200, damage=2)
    L.ev("battle.pass", player=BOB)
    L.ev("battle.pass", player=ANN)
    L.ev("battle.pass", player=BOB)
    L.ev("damage", hits=[hit(BOB, "capitano", 3)])


def to_turn3(L: Log, first: str = ANN) -> None:
    """Preparation and both players' first turns; the third turn begins (draw done)."""
    second = BOB if first == ANN else ANN
    L.prepare(first=first)
    L.quiet_turn(first)
    L.quiet_turn(second)
    L.begin(first)


def game_won_by_concession(L: Log, loser: str) -> None:
    """A short game: preparation (the previous game's loser starts), then `loser` concedes."""
    games = L.state().extra["games"]
    starter = (BOB if games[-1]["winner"] == ANN else ANN) if games else ANN
    L.prepare(first=starter)
    L.ev("concede", player=loser)


@pytest.fixture
def L(tmp_path):
    log = Log(tmp_path)
    log.register()
    return log


# --- tied match (0-0, 1-1) ---------------------------------------------------------------------


def test_tied_turn_not_finished_says_finish_the_turn(L):
    to_turn3(L)
    L.time()
    d = decision(L)
    assert (d.result, d.branch, d.rule) == ("continue", "parita/turno-in-corso", "OP09-TEMPO-PARI-1")
    assert "bisogna terminare il turno in corso" in d.quote


def test_tied_regular_condition_in_the_last_turn_wins(L):
    to_turn3(L)
    L.time()
    ann_kills_bobs_captain(L)
    d = decision(L)
    assert (d.result, d.winner, d.branch) == ("win", ANN, "parita/condizione-regolamentare")
    assert L.state().extra["score"] == {ANN: 1, BOB: 0}


def test_tied_additional_condition_turn_player_with_smaller_difference_wins(L):
    to_turn3(L)
    L.time()
    # Ann's Captain wins a Battle with a +100 modifier: Bob's Captain loses 1 Life Point.
    L.ev("battle.start", player=ANN, attacker="capitano", target="capitano")
    L.ev("modifier", player=ANN, space="capitano", card="LK-C01", power=100)
    L.ev("battle.pass", player=ANN)
    L.ev("battle.pass", player=BOB)
    L.ev("damage", hits=[hit(BOB, "capitano", 1)])
    L.ev("battle.end")
    L.finale(ANN)
    d = decision(L)
    assert (d.result, d.winner, d.branch, d.rule) == ("win", ANN, "parita/condizione-aggiuntiva", "OP09-TEMPO-PARI-3")
    assert any("difference 1" in s for s in d.steps)
    assert not L.all_findings()


def _bob_ahead_on_captain_life(L: Log) -> None:
    """Turn 3 is Ann's; Ann's Captain is damaged (by her own off-crew Reinforcement), Bob's is not."""
    to_turn3(L)
    L.ev("battle.start", player=ANN, attacker="capitano", target="marinaio1")
    L.ev("reinforce", player=ANN, card="BA-C10", name="Wapol", crew="Pirati di Wapol", damage=1)
    L.ev("battle.pass", player=BOB)
    L.ev("battle.pass", player=ANN)
    L.ev("damage", hits=[hit(BOB, "marinaio1", 1)])  # 600 vs 400: Ann's Captain deals 1
    L.ev("battle.end")
    L.time()
    L.finale(ANN)


def test_tied_additional_condition_is_the_turn_players_under_mm25(L):
    _bob_ahead_on_captain_life(L)
    d = decision(L, "mm25")
    # Bob's difference (0) is smaller, but it was Ann's turn: no winner yet, sudden death.
    assert (d.result, d.branch) == ("continue", "parita/morte-improvvisa")
    assert not L.all_findings()


def test_tied_additional_condition_either_player_under_mm25_entrambi(L):
    _bob_ahead_on_captain_life(L)
    d = decision(L, "mm25-entrambi")
    assert (d.result, d.winner, d.branch) == ("win", BOB, "parita/condizione-aggiuntiva")
    assert d.policy == "mm25-entrambi"


def test_tied_sudden_death_first_damage_to_the_captain_wins(L):
    to_turn3(L)
    L.time()
    L.finale(ANN)  # equal differences: sudden death
    L.begin(BOB)
    # Bob's Sailor attacks Ann's Sailor and wins: not a Captain, play on...
    L.battle(BOB, "marinaio1", "marinaio1", [hit(ANN, "marinaio1", 1)],
             modifier=dict(space="marinaio1", card="BA-W01", power=100))
    assert decision(L).result == "continue"
    # ...then Bob's Captain damages Ann's Captain (Ann's marinaio2 space is free): Bob wins.
    L.both_pass(BOB, "capitano", "capitano", modifier=dict(space="capitano", card="BA-W02", power=100))
    L.ev("damage", hits=[hit(ANN, "capitano", 1)])
    d = decision(L)
    assert (d.result, d.winner, d.branch) == ("win", BOB, "parita/morte-improvvisa/danno-al-capitano")
    assert not L.all_findings()


def test_tied_sudden_death_captains_tie_attacker_wins(L):
    to_turn3(L)
    L.time()
    L.finale(ANN)
    L.begin(BOB)
    L.ev("battle.start", player=BOB, attacker="capitano", target="capitano")
    L.ev("battle.pass", player=BOB)
    L.ev("battle.pass", player=ANN)
    L.ev("damage", hits=[hit(ANN, "capitano", 1), hit(BOB, "capitano", 1)])  # 500 = 500: both deal 1
    d = decision(L)
    assert (d.result, d.winner, d.rule) == ("win", BOB, "OP09-TEMPO-CAP-1")
    assert d.branch.endswith("capitani-pari")
    assert not L.all_findings()


def test_tied_sudden_death_self_damage_does_not_count(L):
    to_turn3(L)
    L.time()
    L.finale(ANN)
    L.begin(BOB)
    L.ev("battle.start", player=BOB, attacker="capitano", target="marinaio1")
    L.ev("reinforce", player=BOB, card="BA-C10", name="Chopper", crew="Pirati di Rufy", damage=1)
    d = decision(L)
    assert d.result == "continue"


def test_tied_1_1_in_game_three(L):
    game_won_by_concession(L, BOB)   # Ann 1-0
    game_won_by_concession(L, ANN)   # 1-1; Ann lost game 2 and starts game 3
    to_turn3(L, first=ANN)
    L.time()
    ann_kills_bobs_captain(L)
    d = decision(L)
    assert (d.result, d.winner, d.branch) == ("win", ANN, "parita/condizione-regolamentare")
    assert any("1-1" in s for s in d.steps)


# --- one game ahead (1-0 / 0-1) ----------------------------------------------------------------


def test_one_ahead_nobody_wins_the_turn_leader_wins(L):
    game_won_by_concession(L, ANN)   # Bob 1-0; Ann starts game 2
    to_turn3(L, first=ANN)
    L.time()
    L.finale(ANN)
    d = decision(L)
    assert (d.result, d.winner, d.branch, d.rule) == ("win", BOB, "vantaggio/vince-chi-e-avanti", "OP09-TEMPO-VANT-1")


def test_one_ahead_turn_not_finished(L):
    game_won_by_concession(L, ANN)
    to_turn3(L, first=ANN)
    L.time()
    d = decision(L)
    assert (d.result, d.branch) == ("continue", "vantaggio/turno-in-corso")


def test_one_ahead_leader_wins_the_game_in_the_last_turn(L):
    game_won_by_concession(L, BOB)   # Ann 1-0; Bob starts game 2
    L.prepare(first=BOB)
    L.quiet_turn(BOB)
    L.begin(ANN)
    L.time()
    L.ev("battle.start", player=ANN, attacker="capitano", target="capitano")
    L.ev("modifier", player=ANN, space="capitano", card="LK-W01", power=200, damage=2)
    L.ev("battle.pass", player=ANN)
    L.ev("battle.pass", player=BOB)
    L.ev("damage", hits=[hit(BOB, "capitano", 3)])
    d = decision(L)
    assert (d.result, d.winner, d.branch) == ("win", ANN, "vantaggio/condizione-regolamentare")
    # the match itself is over 2-0 by the games, too
    assert L.state().result["winner"] == ANN


def test_one_ahead_becomes_1_1_then_sudden_death_game(L):
    game_won_by_concession(L, ANN)   # Bob 1-0; Ann starts game 2
    to_turn3(L, first=ANN)
    L.time()
    ann_kills_bobs_captain(L)        # 1-1
    d = decision(L)
    assert (d.result, d.branch) == ("continue", "vantaggio/1-1-nuova-partita/da-giocare")
    # Game 3: Bob lost game 2 and starts; Ann, the second player, may attack first (in her first turn).
    L.prepare(first=BOB)
    L.quiet_turn(BOB)
    L.begin(ANN)
    assert L.state().extra["game"]["sudden_death"] is True
    L.both_pass(ANN, "capitano", "capitano", modifier=dict(space="capitano", card="LK-W01", power=100))
    L.ev("damage", hits=[hit(BOB, "capitano", 1)])
    d = decision(L)
    assert (d.result, d.winner, d.branch) == ("win", ANN, "vantaggio/1-1-nuova-partita/danno-al-capitano")
    assert "OP09-BATT-2" not in [f.rule for f in L.all_findings()]
    assert any("il secondo giocatore che inizia la partita" in s for s in d.steps)


def test_sudden_death_game_the_first_player_still_cannot_attack_in_turn_one(L):
    game_won_by_concession(L, ANN)
    game_won_by_concession(L, BOB)   # 1-1, Bob lost game 2: Bob starts game 3
    L.time()
    L.prepare(first=BOB)
    L.begin(BOB)
    assert L.rules("battle.start", player=BOB, attacker="capitano", target="capitano") == ["OP09-BATT-2"]


# --- time called while sideboarding --------------------------------------------------------------


def test_sideboarding_at_1_0_leader_wins_2_1(L):
    game_won_by_concession(L, BOB)   # Ann 1-0
    L.ev("sideboard", player=BOB, out=["BA-W01"], into=["BA-W09"])
    L.time()
    d = decision(L)
    assert (d.result, d.winner, d.branch, d.rule) == ("win", ANN, "sideboard-1-0", "OP09-TEMPO-SIDE-1")
    assert any("2 - 1" in s for s in d.steps)


def test_sideboarding_at_1_1_new_sudden_death_game(L):
    game_won_by_concession(L, BOB)
    game_won_by_concession(L, ANN)   # 1-1; Ann lost game 2
    L.ev("sideboard", player=ANN, out=["LK-W01"], into=["LK-W09"])
    L.time()
    d = decision(L)
    assert (d.result, d.branch, d.rule) == ("continue", "sideboard-1-1/da-giocare", "OP09-TEMPO-SIDE-2")
    L.prepare(first=ANN)
    L.quiet_turn(ANN)
    L.begin(BOB)
    # Bob, the second player, attacks in his first turn; 500 = 500 between the Captains: the attacker wins.
    L.ev("battle.start", player=BOB, attacker="capitano", target="capitano")
    L.ev("battle.pass", player=BOB)
    L.ev("battle.pass", player=ANN)
    L.ev("damage", hits=[hit(ANN, "capitano", 1), hit(BOB, "capitano", 1)])
    d = decision(L)
    assert (d.result, d.winner, d.branch) == ("win", BOB, "sideboard-1-1/capitani-pari")
    assert not L.all_findings()


def test_time_called_at_0_0_before_game_one_is_said_as_not_covered_by_the_rulebook(L):
    """QA71: 0-0 with no game in progress was given the 1-1 sideboarding rule. The book's sideboarding
    cases are 1-0 and 1-1; its tied case names 0-0 but begins with the turn in progress: the tool says
    the book does not cover it, and what it assumes (the tied case's sudden death)."""
    L.time()
    d = decision(L)
    assert (d.result, d.branch, d.rule) == ("continue", "parita-tra-partite/da-giocare", "OP09-TEMPO-PARI-4")
    said = " ".join(d.steps)
    assert "does not cover" in said and "The tool assumes" in said and "OP09-TEMPO-SIDE-2" not in said
    assert "bisogna terminare il turno in corso" in said and "game 1 had not begun" in said
    assert "second player is the first who may attack" not in said  # that is the 1-1 case's rule


def test_sudden_death_game_regular_condition(L):
    game_won_by_concession(L, BOB)
    game_won_by_concession(L, ANN)
    L.time()
    L.prepare(first=ANN)
    L.ev("concede", player=BOB)
    d = decision(L)
    assert (d.result, d.winner, d.branch) == ("win", ANN, "sideboard-1-1/condizione-regolamentare")


# --- edges ---------------------------------------------------------------------------------


def test_time_called_during_preparation_finishes_turn_one(L):
    L.prepare()
    L.time()
    d = decision(L)
    assert (d.result, d.branch) == ("continue", "parita/turno-in-corso")
    L.quiet_turn(ANN)
    assert decision(L).branch == "parita/morte-improvvisa"


def test_match_already_over(L):
    game_won_by_concession(L, BOB)
    game_won_by_concession(L, BOB)
    L.time()
    d = decision(L)
    # time called on a match already over changes nothing, and nothing is recorded
    assert (d.result, d.winner, d.branch) == ("win", ANN, "decided-before-time")
    head = L.m.head_position()
    assert run(L.m).moot and L.m.head_position() == head


def test_unknown_policy_is_an_input_error(L):
    from engine.match import InputError
    to_turn3(L)
    L.time()
    with pytest.raises(InputError, match="mm25"):
        decide(L.m, "bandai")


def test_recorded_decision_ends_the_match_and_is_not_repeated(L):
    game_won_by_concession(L, BOB)
    L.time()
    first = run(L.m, recorded_by="Rita")
    assert first.recorded is not None and first.recorded.kind == "time.decision"
    assert first.recorded.actor == "judge:Rita"  # the person recording, not the tool (QA81 M4)
    state = L.state()
    assert state.result["winner"] == ANN and state.result["how"] == "end of time: sideboard-1-0"
    again = run(L.m)
    assert again.recorded is None and again.already_recorded.position == first.recorded.position


# --- the game a decision by an end-of-time condition ends (the tool's reading, docs/rulesets/op2009.md) --


def test_the_game_won_in_sudden_death_counts_for_the_match_winner(L):
    """0-0, game 1: Bob's Captain is first to damage Ann's (OP09-TEMPO-PARI-4). The rulebook names
    only the match's winner; the tool counts game 1 for him: 0-1, not 0-0 (a match draw as a result)."""
    test_tied_sudden_death_first_damage_to_the_captain_wins(L)
    run(L.m)
    s = L.state()
    assert s.extra["score"] == {ANN: 0, BOB: 1} and s.result["score"] == {ANN: 0, BOB: 1}
    g = s.extra["games"][-1]
    assert (g["game"], g["winner"], g["rule"]) == (1, BOB, "OP09-TEMPO-PARI-4")
    o = L.m.ruleset.outcome(s)
    assert (o.winner, o.score, o.drawn) == (BOB, {ANN: 0, BOB: 1}, 0)


def test_both_captains_at_once_in_sudden_death_is_a_drawn_game(L):
    """Sudden death; one effect damages both Captains, not in a Battle between them: a draw (by analogy
    with OP09-VITT-4), and the game it ends counts as drawn (0-0-1), not as no game."""
    to_turn3(L)
    L.time()
    L.finale(ANN)
    L.begin(BOB)
    L.ev("damage", hits=[hit(ANN, "capitano", 1), hit(BOB, "capitano", 1)], cause="effetto", card="BA-W01")
    d = run(L.m).decision
    assert (d.result, d.branch) == ("draw", "parita/morte-improvvisa/contemporaneo")
    o = L.m.ruleset.outcome(L.state())
    assert (o.result, o.score, o.drawn) == ("draw", {ANN: 0, BOB: 0}, 1)
