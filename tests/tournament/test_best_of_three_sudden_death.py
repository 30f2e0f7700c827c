"""An op2009 best of three decided at the end of time after the call (QA, after QA85 #2): the game its
end-of-time condition decides (the first damage to a Captain, the Captains' tie, the smaller Captain
difference) counts for the match's winner, and games drawn in the match are read from the judge's
facts (`drawn=`), so the tournament result taken from the match (`tournament result --match`) gives
the match's winner the most games, as the decision does.

The rulebook (op2009-mm25.it.md, MM25, 7 April 2009, "Situazione Fine Tempo") names only the match's
winner after sudden death: «vince l'incontro il giocatore che raggiunge per primo una fra le 3
condizioni di vittoria regolamentari oppure raggiunge la condizione di vittoria aggiuntiva "Il primo
giocatore che infligge danno al capitano avversario vince"» (OP09-TEMPO-PARI-4), and calls that a
victory condition, which wins the game: «Il primo giocatore che raggiunge uno di questi 3 obiettivi
vince la partita» (OP09-PARTITA-1). That the game counts is the tool's documented reading."""
from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import ROOT, run_in_process

FIXTURE = Path(ROOT) / "tests" / "fixtures" / "op2009" / "best-of-three-fine-tempo.jsonl"


def _tournament(tmp_path):
    """o.db: Ann and Bob paired in a one-round op2009 tournament, and their match's id."""
    db = tmp_path / "o.db"
    assert run_in_process(db, "tournament", "new", "--name", "OP", "--game", "op2009", "--rounds", "1")[0] == 0
    assert run_in_process(db, "tournament", "register", "OP", "Ann", "Bob")[0] == 0
    assert run_in_process(db, "tournament", "pair", "OP")[0] == 0
    code, out, err = run_in_process(db, "tournament", "matches", "OP", "--json")
    assert code == 0, out + err
    return db, json.loads(out)[0]["match"]


def _result(db, match) -> dict[str, tuple[int, int, int]]:
    """`tournament result OP --match M`: each player's W-L-D as the result line says it."""
    code, out, err = run_in_process(db, "tournament", "result", "OP", "--match", match)
    assert code == 0, out + err
    m = re.search(r"table 1: (\w+) (\d)-(\d)-(\d) (\w+)", out)
    assert m, out
    p1, w, l, d, p2 = m.groups()
    return {p1: (int(w), int(l), int(d)), p2: (int(l), int(w), int(d))}


def _decide_from_facts(db, match, facts) -> str:
    """Time called on the paired match, decided from the judge's facts: `facts(each)` gives the facts
    line, `each(ann, bob)` writing a value per player in the match's seat order (players by name)."""
    assert run_in_process(db, "log", match, "time.called", "--clock", "15:40")[0] == 0
    seats = list(json.loads(run_in_process(db, "state", match, "--json")[1])["players"])

    def each(ann: int, bob: int) -> str:
        return "-".join(str({"Ann": ann, "Bob": bob}[p]) for p in seats)
    code, out, err = run_in_process(db, "timelimit", match, "--facts", facts(each), "--judge", "Kim")
    assert code == 0, out + err
    return out


def test_a_recorded_sudden_death_game_counts_for_its_winner(tmp_path):
    """The example match: Ann 1-0, time called, Bob makes it 1-1, and the sudden-death game 3 is
    decided by the Captains' tie (OP09-TEMPO-CAP-1): Bob wins 2-1, not 1-1 (a match draw in the
    standings, against the decision)."""
    db, _ = _tournament(tmp_path)
    code, out, err = run_in_process(db, "import", str(FIXTURE), "--json")
    assert code == 0, out + err
    match = json.loads(out)["match"]
    code, out, err = run_in_process(db, "timelimit", match, "--judge", "Kim")
    assert code == 0 and "OP09-TEMPO-CAP-1" in out and "That game counts as won by Bob" in out, out + err
    state = json.loads(run_in_process(db, "state", match, "--json")[1])
    game3 = state["extra"]["games"][-1]
    assert (game3["game"], game3["winner"], game3["rule"]) == (3, "Bob", "OP09-TEMPO-CAP-1")
    assert state["result"]["score"] == {"Ann": 1, "Bob": 2}
    assert _result(db, match) == {"Bob": (2, 1, 0), "Ann": (1, 2, 0)}


def test_from_facts_the_game_made_1_1_and_the_sudden_death_game_count(tmp_path):
    """Bob ahead 1-0; Ann wins the game in the turn after the call (won=A: 1-1), then the first damage
    to Bob's Captain in the new game (sudden=A): Ann wins the match 2-1 (the facts' score said 0-1)."""
    db, match = _tournament(tmp_path)
    out = _decide_from_facts(db, match, lambda each: f"games={each(0, 1)} in_game=yes turn_over=yes won=Ann "
                             "sudden=Ann")
    assert "vantaggio/1-1-nuova-partita/danno-al-capitano" in out or "OP09-TEMPO-VANT-2" in out, out
    assert _result(db, match) == {"Ann": (2, 1, 0), "Bob": (1, 2, 0)}


def test_from_facts_the_captains_difference_decides_the_game_in_progress(tmp_path):
    """1-1, game 3 in progress; at the end of Bob's turn his Captain has lost fewer Life Points
    (OP09-TEMPO-PARI-3, policy mm25): Bob wins the match, and game 3 with it: 2-1."""
    db, match = _tournament(tmp_path)
    out = _decide_from_facts(db, match, lambda each: f"games={each(1, 1)} in_game=yes turn_over=yes won=none "
                             f"damage={each(2, 0)} turn_of=Bob")
    assert "OP09-TEMPO-PARI-3" in out and "That game counts as won by Bob" in out, out
    assert _result(db, match) == {"Bob": (2, 1, 0), "Ann": (1, 2, 0)}


def test_a_drawn_game_read_from_the_facts_reaches_the_result(tmp_path):
    """Game 1 drawn (both reached a victory condition at once, OP09-VITT-4), Ann won game 2, time is
    called in game 3 and nobody wins its turn: Ann, ahead, wins (OP09-TEMPO-VANT-1), 1-0 with the drawn
    game kept: 1-0-1 (drawn= was refused as an unknown fact; without it, 1-0-0)."""
    db, match = _tournament(tmp_path)
    out = _decide_from_facts(db, match, lambda each: f"games={each(1, 0)} drawn=1 in_game=yes turn_over=yes "
                             "won=none")
    assert "OP09-TEMPO-VANT-1" in out, out
    assert _result(db, match) == {"Ann": (1, 0, 1), "Bob": (0, 1, 1)}


def test_0_0_after_a_drawn_game_says_a_game_was_played(tmp_path):
    """0-0 between games with drawn=1: the words say "between games", not "before game 1, or ..."."""
    db, match = _tournament(tmp_path)
    out = _decide_from_facts(db, match, lambda each: "games=0-0 drawn=1 in_game=no sudden=Bob")
    assert "No game was in progress at 0-0 (between games)" in out, out
    assert _result(db, match) == {"Bob": (1, 0, 1), "Ann": (0, 1, 1)}


def test_a_result_taken_under_the_old_reading_is_said_as_read_otherwise(tmp_path, monkeypatch):
    """A result taken from the sudden-death match before version 4 (1-1-0: the decided game counted
    for nobody) now rests on a table the tool no longer gives: the warning says the log is unchanged,
    the match's score now and the result's, and the command taking it again; not two bare hashes."""
    import engine.rulesets.op2009.ruleset as op2009
    db, _ = _tournament(tmp_path)
    code, out, err = run_in_process(db, "import", str(FIXTURE), "--json")
    match = json.loads(out)["match"]
    with monkeypatch.context() as old:  # the reading before version 4
        old.setattr(op2009, "decides_a_game", lambda branch: False)
        old.setattr(op2009.Op2009Ruleset, "version", 3)  # its snapshots are replayed again after
        assert run_in_process(db, "timelimit", match, "--judge", "Kim")[0] == 0
        assert _result(db, match) == {"Bob": (1, 1, 0), "Ann": (1, 1, 0)}
    code, out, err = run_in_process(db, "verify", "--all")
    said = out + err
    assert f"match {match}'s log is unchanged to event" in said and "reads it otherwise" in said, said
    assert "the match now reads Bob wins (games Ann 1, Bob 2)" in said, said
    assert re.search(r"the result recorded (Ann 1-1-0 Bob|Bob 1-1-0 Ann)", said) and "snapshot at event" not in said, said
    assert re.search(rf"tablejudge tournament result t-\w+ --match {match} --round 1 --overwrite", said), said
    assert "gives state" not in said
