"""An op2009 best of three decided at time from the judge's facts (QA85 #2): the decision says the
match ends 2-1, so the tournament result taken from the match is 2-1-0 (not one game, 1-0-0: the
game-win tiebreakers read the games), and a result entered by hand with other game counts is
warned, naming both and the command that takes the result from the match."""
from __future__ import annotations

import json

from tests.conftest import run_in_process
from tests.tournament.test_best_of_three_sudden_death import _tournament


def _decided_at_time(tmp_path):
    """o.db: Ann and Bob paired in an op2009 tournament, time called between games at 1-0 (Ann
    ahead): OP09-TEMPO-SIDE-1 gives each a game, the match ends 2-1."""
    db, match = _tournament(tmp_path)
    assert run_in_process(db, "log", match, "time.called", "--clock", "15:40")[0] == 0
    first, second = json.loads(run_in_process(db, "state", match, "--json")[1])["players"]  # the seats, the table's
    facts = "games=1-0" if first == "Ann" else "games=0-1"  # in seat order: Ann is ahead
    code, out, err = run_in_process(db, "timelimit", match, "--facts", f"{facts} in_game=no", "--judge", "Kim")
    assert code == 0 and f"the match ends {first} " in out and "OP09-TEMPO-SIDE-1" in out, out + err
    return db, match, first, second


def test_a_result_from_a_best_of_three_decided_at_time_counts_the_decisions_games(tmp_path):
    db, match, first, second = _decided_at_time(tmp_path)
    code, out, err = run_in_process(db, "tournament", "result", "OP", "--match", match)
    ann = "2-1-0" if first == "Ann" else "1-2-0"
    assert code == 0 and f"{first} {ann} {second}" in out, out + err
    code, out, _ = run_in_process(db, "tournament", "standings", "OP", "--json")
    gw = {r["player"]: round(r["gw"] * 100, 2) for r in json.loads(out)}
    assert gw == {"Ann": 66.67, "Bob": 33.33}, gw
    code, out, _ = run_in_process(db, "tournament", "warnings", "OP")
    assert "result-decision" not in out, out


def test_a_hand_entered_result_with_other_game_counts_than_the_decision_is_warned(tmp_path):
    db, match, first, second = _decided_at_time(tmp_path)
    code, out, err = run_in_process(db, "tournament", "result", "OP", "1-0-0", "--player", "Ann")
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", "OP")
    ann = "2-1-0" if first == "Ann" else "1-2-0"
    entered = "1-0-0" if first == "Ann" else "0-1-0"
    assert f"({first} {entered} {second}, event" in out and f"ends {first} {ann} {second}" in out, out
    tid = json.loads(run_in_process(db, "tournament", "show", "OP", "--json")[1])["id"]
    assert f"tablejudge tournament result {tid} --match {match} --round 1 --overwrite" in out, out
    # the game counts the decision gives: no warning
    code, out, err = run_in_process(db, "tournament", "result", "OP", "2-1-0", "--player", "Ann", "--overwrite",
                                    "--reason", "as the time decision")
    assert code == 0, out + err
    assert "result-decision" not in run_in_process(db, "tournament", "warnings", "OP")[1]
