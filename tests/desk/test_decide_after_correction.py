"""Deciding a time limit again after a correction that REPLACES an event before the time call
(engine/replacing.py): the new decision is made on the table as corrected, the replacement played in
its target's place, and comes out as it would on a log recorded right the first time; `timelimit
--dry-run`, `state`, the report and `verify` then agree on it."""
from __future__ import annotations

import json

from engine.integrity import verify_match
from engine.match import Match
from engine.store import EventStore
from judge.desk import review
from judge.desk.timelimit import run
from judge.report.match import match_context
from tests.conftest import run_in_process
from tests.rulesets.op2009.builder import ANN, BOB, Log
from tests.rulesets.op2009.test_op2009_time import game_won_by_concession
from tests.rulesets.optcg.test_optcg_time_policies import game

JUDGE = "judge:Zoe"


def _op2009(tmp_path, loser: str, name: str) -> Log:
    """Game 1 ends by `loser`'s concession; time is called while the players sideboard."""
    L = Log(tmp_path, name=name)
    L.register()
    game_won_by_concession(L, loser)
    L.time()
    return L


def test_op2009_a_concession_replaced_before_the_call_is_decided_on_the_corrected_score(tmp_path):
    """The bug: the procedure replayed the log itself, leaving the replaced concession out and
    nothing in its place, and read the call as 0-0 with game 1 in progress (a "continue")."""
    L = _op2009(tmp_path, BOB, "m.db")
    first = run(L.m).recorded
    assert first.payload["winner"] == ANN  # Ann 1-0 while sideboarding
    conceded = next(e for e in L.m.events() if e.kind == "concede")
    L.m.record("correction", {"voids": conceded.position, "reason": "Ann conceded, not Bob",
                              "instead": {"kind": "concede", "actor": ANN, "payload": {"player": ANN}}}, actor=JUDGE)
    right = run(_op2009(tmp_path, ANN, "right.db").m, dry_run=True).decision  # recorded right the first time
    assert (right.result, right.winner, right.branch) == ("win", BOB, "sideboard-1-0")

    code, out, _ = run_in_process(tmp_path / "m.db", "timelimit", L.m.id, "--dry-run", "--json")
    said = json.loads(out)
    assert code == 0 and (said["decision"], said["winner"], said["branch"]) == ("win", BOB, "sideboard-1-0")
    assert said["steps"] == right.steps and "games won: Ann 0 - 1 Bob" in said["steps"][0]
    assert said["supersedes_stale"]["position"] == first.position

    second = run(L.m).recorded
    assert (second.payload["winner"], second.payload["steps"]) == (BOB, right.steps)
    code, out, _ = run_in_process(tmp_path / "m.db", "timelimit", L.m.id, "--dry-run")
    assert code == 0 and f"already recorded as event {second.position}; nothing added" in out
    view = json.loads(run_in_process(tmp_path / "m.db", "state", L.m.id, "--json")[1])
    assert view["result"]["winner"] == BOB and view["result"]["score"] == {ANN: 1, BOB: 2}
    r = review(Match(L.store, L.m.id))
    assert (r.outcome.winner, r.outcome.how) == (BOB, "end of time: sideboard-1-0")
    ctx = match_context(Match(L.store, L.m.id))
    assert ctx["result"]["decided"] and "Bob" in ctx["result"]["text"] and ctx["integrity"]["ok"]
    assert ctx["decision"]["position"] == second.position and ctx["decision"]["quote"] == right.quote
    code, out, _ = run_in_process(tmp_path / "m.db", "verify", L.m.id)
    assert code == 0, out  # the new decision verifies as made; the old one as stale, superseded
    checked = verify_match(L.store, L.m.id).checked
    assert f"event {first.position} (time.decision) is stale (the time decision at event {first.position} is out " \
           f"of date after correction {first.position + 1}), superseded by the decision at event {second.position}" in checked


def test_optcg_a_turn_replaced_before_the_call_is_still_counted(tmp_path):
    """The bug: the procedure left every voided event out of its count of turns, a replaced one too,
    so time "was called during game turn 2" and the extra turns were over a turn early: a winner by
    the criteria where the match must play on."""
    m = Match.create(EventStore.open(str(tmp_path / "t.db")), "optcg", ["Ann", "Bob"])
    for kind, actor, payload in game(upto_turn=5):
        m.record(kind, payload, actor=actor)
    before = run(m, dry_run=True).decision
    assert before.result == "continue" and "during game turn 3" in before.steps[0]
    call = next(e.position for e in m.events() if e.kind == "time.called")
    turn = [e for e in m.events() if e.kind == "turn" and e.position < call][1]  # Bob's turn 2
    m.record("correction", {"voids": turn.position, "reason": "Bob began the turn, not the scorekeeper",
                            "instead": {"kind": "turn", "actor": "Bob", "payload": dict(turn.payload)}}, actor=JUDGE)
    code, out, _ = run_in_process(tmp_path / "t.db", "timelimit", m.id, "--dry-run", "--json")
    said = json.loads(out)
    assert code == 0 and (said["decision"], said["steps"]) == (before.result, before.steps)


def test_a_match_over_before_the_call_is_read_as_corrected(tmp_path):
    """The bug: whether the match was over before time was called was read off the table as
    recorded then, before the correction: Bob's concession, replaced by Ann's, still gave Ann the match."""
    from tests.rulesets.optcg.support import opening
    m = Match.create(EventStore.open(str(tmp_path / "t.db")), "optcg", ["Ann", "Bob"])
    for kind, actor, payload in opening():
        m.record(kind, payload, actor=actor)
    conceded = m.record("concede", {"player": "Bob"}, actor="Bob").event.position
    m.record("time.called", {"clock": "14:35"}, actor=JUDGE)
    m.record("correction", {"voids": conceded, "reason": "Ann conceded, not Bob",
                            "instead": {"actor": "Ann", "payload": {"player": "Ann"}}}, actor=JUDGE)
    code, out, _ = run_in_process(tmp_path / "t.db", "timelimit", m.id, "--json")
    said = json.loads(out)
    assert code == 0 and (said["decided_before_time"], said["winner"]) == (True, "Bob")
    assert "Ann conceded" in said["steps"] and said["recorded_at_position"] is None
    assert review(Match(m.store, m.id)).outcome.winner == "Bob"


def test_op2009_a_backup_over_a_decision_is_decided_again_without_a_traceback(tmp_path):
    """The bug: op2009's own replay looked up the kind of every position a backup spans among the
    events it was given, which leave decisions out: a backup past a "continue" ended `timelimit`
    in a KeyError. The backup keeps the call (a judge action) and rewinds the play after it."""
    from tests.rulesets.op2009.test_op2009_time import to_turn3
    L = Log(tmp_path)
    L.register()
    to_turn3(L)
    L.time()
    go_on = run(L.m).recorded
    assert go_on.payload["result"] == "continue"
    L.ev("note", actor=JUDGE, text="the players played on")
    L.m.record("backup", {"to": go_on.position - 2, "reason": "rewound to before the call"}, actor=JUDGE)
    code, out, err = run_in_process(tmp_path / "m.db", "timelimit", L.m.id, "--dry-run", "--json")
    assert code == 0 and not err, err
    said = json.loads(out)
    assert (said["decision"], said["branch"]) == ("continue", "parita/turno-in-corso")
    assert said["time_called"]["position"] == go_on.position - 1
