"""A time decision given from facts read off the table (`timelimit --facts`), a tournament's result
taken from it, and the decision then overturned on appeal or found against an entered result (QA83
#1, #2). The commands `tournament warnings` prints are run as printed: for a match nobody recorded
play by play they ask for the facts again (a placeholder the judge fills, refused unfilled), never a
bare `timelimit` that records "continue" from an empty log; and a result resting on a decision since
voided keeps its warning, and `tournament close` waits for it, until a result replaces it."""
from __future__ import annotations

import shlex

from engine.match import Match
from engine.store import EventStore
from judge.desk.timelimit import run
from judge.tournament.aggregate import Tournament
from tests.conftest import run_in_process
from tests.desk.test_appealed_decision import _linked_cup


def _from_facts(tmp_path) -> tuple[str, Match, int]:
    """An optcg match nobody recorded, decided from facts by judge Kim: Bob wins (more Life)."""
    db = tmp_path / "t.db"
    m = Match.create(EventStore.open(str(db)), "optcg", ["Ann", "Bob"], round="1", table="1")
    d = run(m, facts="turn=3 life=2-3", judge="Kim").recorded
    assert (d.payload["result"], d.payload["winner"], d.payload["facts"]) == ("win", "Bob", "turn=3 life=2-3")
    return db, m, d.position


def _commands(out: str, start: str) -> list[str]:
    """The back-quoted commands of the warning's text from `start` on, each without `tablejudge`."""
    text = out[out.index(start):]
    return [c.split(" ", 1)[1] for c in text.split("`")[1::2] if c.startswith("tablejudge ")]


def _taken_and_overturned(tmp_path):
    db, m, decision = _from_facts(tmp_path)
    t, slip = _linked_cup(m)
    code, out, err = run_in_process(db, "tournament", "result", t.id, "--match", m.id, "--round", "1")
    assert code == 0, out + err
    code, out, err = run_in_process(db, "judge", "appeal", m.id, str(decision), "--judge", "HJ Rossi",
                                    "--decision", "overturned", "--by", "Ann", "--text", "life miscounted")
    assert code == 0, out + err
    return db, m, t, slip, decision


def test_the_printed_commands_ask_for_the_facts_again_and_the_warning_stays_until_a_result_replaces_it(tmp_path):
    db, m, t, slip, decision = _taken_and_overturned(tmp_path)
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1 and "result-appealed" in out, out
    void, decide, again = _commands(out, "Void it and decide again")[:3]
    assert decide == f"timelimit {m.id} --facts \"turn=? life=?-?\" --judge NAME", out
    assert "turn=3 life=2-3" in out  # the facts given then, to read again

    code, out, err = run_in_process(db, *shlex.split(void.replace("NAME", "Kim")))
    assert code == 0, out + err
    # as printed, the placeholder unfilled: refused, nothing recorded (no "continue" from an empty log)
    before = len(m.events())
    code, out, err = run_in_process(db, *shlex.split(decide.replace("NAME", "Kim")))
    assert code == 2 and "turn" in out + err and len(m.events()) == before, out + err
    # and a bare `timelimit` (the old hint) is refused too: the match was decided from facts
    code, out, err = run_in_process(db, "timelimit", m.id, "--judge", "Kim")
    assert code == 2 and len(m.events()) == before, out + err
    assert f"--facts \"turn=? life=?-?\"" in out + err, out + err
    # its dry run says the same (review: it said "continue" and exit 0, the run refused)
    code, dry, dry_err = run_in_process(db, "timelimit", m.id, "--dry-run", "--judge", "Kim")
    assert (code, dry + dry_err) == (2, out + err), dry + dry_err

    # the result still counts the void decision: warned, and the round does not close
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1 and "no outcome now" in out, out
    code, out, err = run_in_process(db, "tournament", "close", t.id)
    assert code == 2 and "cannot close" in out + err and t.state().rounds[0].closed_at is None, out + err

    # the facts filled in as read again: decided, the result taken again as printed, settled
    code, out, err = run_in_process(db, *shlex.split(decide.replace("NAME", "Kim").replace("life=?-?", "life=3-2")
                                                     .replace("turn=?", "turn=3")))
    assert code == 0, out + err
    code, out, err = run_in_process(db, *shlex.split(again))
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out
    assert run_in_process(db, "tournament", "close", t.id)[0] == 0


def test_a_continue_recorded_after_the_void_does_not_hide_the_result_resting_on_it(tmp_path):
    """QA83 #1 as found: the decision voided, a "continue" recorded (here with facts that give it),
    `--match --overwrite` refused for no outcome: the table still counted Bob's win, unwarned, and
    the round closed and sealed. Entering the head judge's result by hand settles it."""
    db, m, t, slip, decision = _taken_and_overturned(tmp_path)
    code, out, err = run_in_process(db, "log", m.id, "correction", "--actor", "judge:Kim", "--voids", str(decision),
                                    "--reason", f"overturned on appeal, event {decision + 1}")
    assert code == 0, out + err
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "turn=2 life=3-3", "--judge", "Kim")
    assert code == 0 and "continue" in out, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1 and f"round 1 table 1's result came from match {m.id}" in out and "no outcome now" in out, out
    assert "enter the result by hand" in out, out
    code, out, err = run_in_process(db, "tournament", "close", t.id)
    assert code == 2 and "cannot close" in out + err, out + err
    enter = _commands(out + err, "no outcome now")[-1]
    assert "W-L-D" in enter, out + err
    code, out, err = run_in_process(db, *shlex.split(enter.replace("W-L-D", slip("Ann")).replace("\"...\"", "\"head judge's result\"")))
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out


def test_the_result_decision_hint_asks_for_the_facts_of_a_match_decided_from_facts(tmp_path):
    db, m, decision = _from_facts(tmp_path)  # Bob wins
    t, slip = _linked_cup(m)
    assert run_in_process(db, "tournament", "result", t.id, slip("Ann"), "--table", "1")[0] == 0
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1 and "result-decision" in out, out
    void, decide = _commands(out, "the decision is not")[:2]
    assert decide == f"timelimit {m.id} --facts \"turn=? life=?-?\" --judge NAME", out
    assert run_in_process(db, *shlex.split(void.replace("NAME", "Kim").replace('"..."', "misread")))[0] == 0
    before = len(m.events())
    code, out, err = run_in_process(db, *shlex.split(decide.replace("NAME", "Kim")))
    assert code == 2 and len(m.events()) == before, out + err
    code, out, err = run_in_process(db, *shlex.split(decide.replace("NAME", "Kim").replace("?-?", "3-2")
                                                     .replace("turn=?", "turn=3")))
    assert code == 0 and "Ann" in out, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out


def test_a_result_a_match_loss_decided_does_not_rest_on_the_time_decision_voided_after_it(tmp_path):
    # review: `_why_changed` said the result "rests on" the voided time decision although a Match
    # Loss, ranked above it (engine.desk.log_outcome), had decided the match the result was taken from
    db, m, decision = _from_facts(tmp_path)  # Bob wins on time
    m.record("judge.penalty", {"player": "Bob", "penalty": "Match Loss", "infraction": "Cheating"},
             actor="judge:Kim")
    t, slip = _linked_cup(m)
    code, out, err = run_in_process(db, "tournament", "result", t.id, "--match", m.id, "--round", "1")
    assert code == 0 and "Ann" in out, out + err
    code, out, err = run_in_process(db, "log", m.id, "correction", "--actor", "judge:Kim", "--voids", str(decision),
                                    "--reason", "misread")
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert "rests on" not in out and code == 0, out
