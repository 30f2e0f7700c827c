"""A bare `timelimit` after a time decision given from facts (`--facts`) is refused only where that
decision is the current time call's and no play was recorded since (QA83 #2): the log then has not
the play the facts described. Where play was recorded event by event after it, or the time call was
voided and time called again, the log decides, "continue" included (review of QA83 #2: the refusal
looked at the last time decision of the whole log)."""
from __future__ import annotations

import shlex

import pytest

from engine.match import Match
from engine.store import EventStore
from judge.desk.timelimit import TableFactsNeeded, run
from tests.conftest import run_in_process
from tests.rulesets.optcg.test_optcg_time_policies import game


def _voided(m: Match, position: int) -> None:
    m.record("correction", {"voids": position, "reason": "misread"}, actor="judge:Kim")


def test_play_recorded_after_a_voided_facts_decision_decides(tmp_path):
    m = Match.create(EventStore.open(str(tmp_path / "t.db")), "optcg", ["Ann", "Bob"])
    events = game(upto_turn=4)  # time called in turn 3, then Ann's end of turn and Bob's turn 4
    call = next(i for i, (kind, _, _) in enumerate(events) if kind == "time.called")
    for kind, actor, payload in events[:call + 1]:
        m.record(kind, payload, actor=actor)
    facts = run(m, facts="turn=0 life=5-5", judge="Kim").recorded
    _voided(m, facts.position)
    with pytest.raises(TableFactsNeeded):  # nothing played since: the facts are read again
        run(m, dry_run=True)
    for kind, actor, payload in events[call + 1:]:  # the play, recorded event by event
        m.record(kind, payload, actor=actor)
    d = run(m, judge="Kim").recorded
    assert (d.payload["result"], d.payload["branch"], d.position) == ("continue", "extra-turns", m.head_position())


def test_a_new_time_call_after_a_voided_one_is_decided_from_its_log(tmp_path):
    m = Match.create(EventStore.open(str(tmp_path / "t.db")), "optcg", ["Ann", "Bob"])
    first = run(m, facts="turn=3 life=2-3", judge="Kim")  # records the call with the decision
    _voided(m, first.recorded.position)
    _voided(m, first.time_called.position)  # the wrong match's table: time called here again
    m.record("time.called", {"clock": "15:00"}, actor="judge:Kim")
    d = run(m, judge="Kim").recorded
    assert (d.payload["result"], d.position) == ("continue", m.head_position())


def test_the_refusal_prints_the_facts_command_with_the_judge_as_typed(tmp_path):
    """QA85 #4: the command the refusal prints had no --judge, so copied as printed after
    `--judge Kim` it recorded the decision under the OS user. It now carries the typed judge, or
    NAME where none was typed; filled in and run as printed, it is recorded by that judge."""
    db = tmp_path / "t.db"
    m = Match.create(EventStore.open(str(db)), "optcg", ["Ann", "Bob"])
    facts = run(m, facts="turn=0 life=5-5", judge="Kim").recorded
    _voided(m, facts.position)
    code, out, err = run_in_process(db, "timelimit", m.id, "--judge", "Kim")
    assert code == 2 and "Nothing was recorded" in err, out + err
    printed = err.split("decide from the facts: ", 1)[1].split(" (fill in each ?)")[0]
    assert printed.endswith(" --judge Kim"), printed
    argv = shlex.split(printed.replace("?-?", "2-3").replace("?", "3"))
    assert argv[:2] == ["tablejudge", "timelimit"]
    code, out, err = run_in_process(db, *argv[1:])
    assert code == 0, out + err
    again = Match.open(EventStore.open(str(db)), m.id)
    assert again.events()[-1].actor == "judge:Kim"
    _voided(again, again.head_position())
    with pytest.raises(TableFactsNeeded, match=r'--facts "turn=\? life=\?-\?" --judge NAME \('):
        run(again, dry_run=True)
