"""A bare `timelimit` after a time decision given from facts (`--facts`) is refused only where that
decision is the current time call's and no play was recorded since (QA83 #2): the log then has not
the play the facts described. Where play was recorded event by event after it, or the time call was
voided and time called again, the log decides, "continue" included (review of QA83 #2: the refusal
looked at the last time decision of the whole log)."""
from __future__ import annotations

import pytest

from engine.match import Match
from engine.store import EventStore
from judge.desk.timelimit import TableFactsNeeded, run
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
