"""A time decision a later correction leaves out of date is STALE (engine/decisions.py): said when the
correction is recorded, failed by `verify`, never the match's result (review, reports, a tournament's
result from the match) until `timelimit` decides again on the corrected table."""
from __future__ import annotations

import json

import pytest
import sqlite_utils

from engine.match import InputError, Match
from engine.store import EventStore
from judge.desk import review
from judge.desk.timelimit import run
from judge.live import LiveSession
from judge.report.match import match_context
from judge.replay.timeline import walk
from judge.report.round import round_context
from tests.conftest import run_in_process
from tests.rulesets.optcg.test_optcg_time_policies import game

JUDGE = "judge:Zoe"


def decided(tmp_path, *, note: bool = False) -> Match:
    """An optcg match decided at the end of time: Ann wins (bandai, last-life: Life 4-4 after Ann
    took a Life card at event 32 and Bob at event 38), decision at event 44 based on event 43."""
    store = EventStore.open(str(tmp_path / "t.db"))
    m = Match.create(store, "optcg", ["Ann", "Bob"], round="2", table="9")
    for kind, actor, payload in game():
        m.record(kind, payload, actor=actor)
    if note:
        m.record("note", {"text": "judge present"}, actor=JUDGE)
    d = run(m).recorded
    assert (d.payload["result"], d.payload["winner"], d.payload["branch"]) == ("win", "Ann", "last-life")
    return m


def taken(m: Match, player: str) -> int:
    return next(e.position for e in m.events() if e.kind == "life.taken" and e.payload["player"] == player)


def placed(m: Match, player: str) -> int:
    return next(e.position for e in m.events() if e.kind == "life.placed" and e.payload["player"] == player)


PLAIN = ("plain", lambda m: {"voids": taken(m, "Ann"), "reason": "no damage was dealt"})
REPLACING = ("replacing", lambda m: {"voids": placed(m, "Bob"), "reason": "4 placed",
                                     "instead": {"actor": "Bob", "payload": {"player": "Bob", "count": 4}}})


@pytest.mark.parametrize("correction", [PLAIN, REPLACING], ids=lambda c: c[0])
def test_a_later_correction_leaves_the_decision_stale_everywhere(tmp_path, correction):
    m = decided(tmp_path)
    decision = m.events()[-1].position
    code, out, _ = run_in_process(tmp_path / "t.db", "log", m.id, "correction", "--actor", JUDGE,
                                  "--payload", json.dumps(correction[1](m)))
    fix = decision + 1
    assert code == 0
    said = f"the time decision at event {decision} is out of date after correction {fix}"
    assert f"DESK-15 [warning] {said}: decide again: tablejudge timelimit {m.id}" in out

    code, out, _ = run_in_process(tmp_path / "t.db", "verify", m.id)
    assert code == 1 and f"event {decision} (time.decision) is STALE: {said}" in out
    assert "tampered" not in out  # an out-of-date decision is not an edited one

    r = review(Match(m.store, m.id))
    assert r.outcome is None
    waiting = f"not decided ({said}: decide again: tablejudge timelimit {m.id})"
    assert r.not_decided() == waiting
    ctx = match_context(Match(m.store, m.id))
    assert ctx["result"]["text"] == waiting and ctx["decision"]["stale"] == said
    (row,) = round_context(m.store, "2")["matches"]
    assert row["result"] == waiting
    page = walk(Match(m.store, m.id), hidden=True, boards=False)  # the replay page, a viewer's too
    assert page.match["outcome"] is None and page.match["not_decided"] == waiting

    from judge.tournament.aggregate import Tournament
    t = Tournament.create(m.store, name="Cup", game="optcg", seed="7", rounds=1)
    t.register("Ann")
    t.register("Bob")
    t.pair()
    with pytest.raises(InputError, match=f"no outcome yet: {said}"):
        t.record_matches([m.id])


def test_deciding_again_supersedes_the_stale_decision(tmp_path):
    m = decided(tmp_path)
    stale = m.events()[-1].position
    m.record("correction", REPLACING[1](m), actor=JUDGE)  # Bob placed 4: Life 4-3 at the end
    again = run(m)
    assert again.recorded is not None and again.supersedes.position == stale  # not "already recorded"
    assert (again.recorded.payload["winner"], again.recorded.payload["branch"]) == ("Ann", "life")
    code, out, _ = run_in_process(tmp_path / "t.db", "verify", m.id)
    assert code == 0, out
    r = review(Match(m.store, m.id))
    # read as a first decision is: the ruleset applied it (engine/decisions.py StandingTable)
    assert (r.outcome.result, r.outcome.winner) == ("win", "Ann")
    assert f"event {again.recorded.position}" in r.outcome.explanation
    assert not [f for f in r.active_findings() if f.rule == "DESK-15"]
    assert run(m).already_recorded.position == again.recorded.position  # and it stands: nothing more


def test_a_correction_that_leaves_the_judged_table_as_it_was_is_not_stale(tmp_path):
    m = decided(tmp_path, note=True)
    note = next(e.position for e in m.events() if e.kind == "note")
    rec = m.record("correction", {"voids": note, "reason": "wrong table"}, actor=JUDGE)
    assert not [f for f in rec.findings if f.rule == "DESK-15"]
    code, out, _ = run_in_process(tmp_path / "t.db", "verify", m.id)
    assert code == 0, out
    assert review(Match(m.store, m.id)).outcome.winner == "Ann"


def test_the_live_recorder_says_it_when_a_judge_voids(tmp_path):
    m = decided(tmp_path)
    decision = m.events()[-1].position
    s = LiveSession(Match(m.store, m.id), judge="Zoe", recorded_by="laptop")
    reply = s.handle(f'judge Zoe: void {taken(m, "Ann")} "no damage was dealt"')
    assert not reply.refused, reply.text
    assert f"the time decision at event {decision} is out of date" in reply.text
    assert f"tablejudge timelimit {m.id}" in reply.text


def test_a_backup_past_the_judged_table_leaves_it_stale_too(tmp_path):
    m = decided(tmp_path)
    decision = m.events()[-1].position
    rec = m.record("backup", {"to": decision - 4, "reason": "rewind to before the last draw"}, actor=JUDGE)
    (said,) = [f.message for f in rec.findings if f.rule == "DESK-15"]
    assert said.startswith(f"the time decision at event {decision} is out of date after backup {rec.event.position}")
    code, out, _ = run_in_process(tmp_path / "t.db", "verify", m.id)
    assert code == 1 and "is STALE" in out


def test_timelimit_decides_again_after_a_backup_past_the_decision(tmp_path):
    """QA74 N1: the backup's span holds the decision, which decision_basis leaves out of its fold:
    `timelimit` crashed with KeyError (rc 70), so the stale warning's advice could not be followed."""
    m = decided(tmp_path)
    decision = m.events()[-1].position
    backup = m.record("backup", {"to": decision - 4, "reason": "rewind"}, actor=JUDGE).event.position
    code, out, err = run_in_process(tmp_path / "t.db", "timelimit", m.id, "--dry-run")
    assert code == 0, out + err
    assert "dry run: nothing recorded" in out and len(m.events()) == backup
    # the dry run says what the record would do, as its JSON does (QA74 N10)
    assert f"recorded, it would supersede the decision at event {decision}, out of date after backup {backup}" in out
    code, out, err = run_in_process(tmp_path / "t.db", "timelimit", m.id)
    assert code == 0, out + err
    assert f"it supersedes the decision at event {decision}, out of date after backup {backup}" in out
    code, out, _ = run_in_process(tmp_path / "t.db", "verify", m.id)
    assert code == 0, out


def test_state_and_the_replay_boards_give_no_result_for_a_stale_decision(tmp_path):
    """QA74 N3: `state --json` and the replay's last board gave the stale decision as the result."""
    m = decided(tmp_path)
    decision = m.events()[-1].position
    fix = m.record("correction", PLAIN[1](m), actor=JUDGE).event.position
    waiting = (f"not decided (the time decision at event {decision} is out of date after correction {fix}: "
               f"decide again: tablejudge timelimit {m.id})")
    code, out, _ = run_in_process(tmp_path / "t.db", "state", m.id, "--json")
    view = json.loads(out)
    assert code == 0 and view["result"] is None and view["not_decided"] == waiting
    code, out, _ = run_in_process(tmp_path / "t.db", "state", m.id)
    assert f"result: {waiting}" in out and "result: Ann" not in out
    code, out, _ = run_in_process(tmp_path / "t.db", "state", m.id, "--at", str(decision), "--as-recorded")
    assert "result: Ann (time)" in out  # what the judge saw then
    boards = walk(Match(m.store, m.id), hidden=True).boards
    assert boards[decision - 1]["result"]["winner"] == "Ann"  # the step as recorded then
    assert boards[-1]["result"] is None and boards[-1]["not_decided"] == waiting

    again = run(m).recorded.position  # decided again: the new decision is the result
    view = json.loads(run_in_process(tmp_path / "t.db", "state", m.id, "--json")[1])
    assert view["result"]["position"] == again and view["not_decided"] is None
    assert walk(Match(m.store, m.id), hidden=True).boards[-1]["result"]["position"] == again


def test_the_report_and_round_page_follow_verify_for_a_stale_decision(tmp_path):
    """QA74 N6: both said "verified" (the chain alone) while `verify` failed the stale decision."""
    m = decided(tmp_path)
    m.record("correction", PLAIN[1](m), actor=JUDGE)
    assert run_in_process(tmp_path / "t.db", "verify", m.id)[0] == 1
    ctx = match_context(Match(m.store, m.id))
    assert (ctx["integrity"]["ok"], ctx["integrity"]["verdict"]) == (False, "decision out of date")
    assert ctx["integrity"]["chain_ok"]  # the chain itself links up: not an edited log
    (row,) = round_context(m.store, "2")["matches"]
    assert (row["verified"], row["verdict"]) == (False, "decision out of date")
    run_in_process(tmp_path / "t.db", "readmodel", "-o", str(tmp_path / "rm.db"))
    mrow = sqlite_utils.Database(tmp_path / "rm.db")["matches"].get(m.id)
    assert mrow["chain_ok"] == 1 and "out of date" in mrow["not_decided"]  # stale, not a broken chain
    run(m)  # decided again: verify passes, and the pages say so
    assert match_context(Match(m.store, m.id))["integrity"]["verdict"] == "verified"
    assert round_context(m.store, "2")["matches"][0]["verdict"] == "verified"


def test_voiding_the_time_call_leaves_its_decision_stale(tmp_path):
    """QA74 N5: a void of the time call left the decision as the result, and verify passed."""
    m = decided(tmp_path)
    decision = m.events()[-1].position
    call = next(e.position for e in m.events() if e.kind == "time.called")
    fix = m.record("correction", {"voids": call, "reason": "time was not called"}, actor=JUDGE)
    said = (f"the time decision at event {decision} is out of date: correction {fix.event.position} "
            f"voided the time call it answered (event {call})")
    assert [f.message for f in fix.findings if f.rule == "DESK-15"] == [
        f"{said}: decide again: tablejudge judge time {m.id} if time was called, then tablejudge timelimit {m.id}"]
    r = review(Match(m.store, m.id))
    assert r.outcome is None and r.not_decided().startswith(f"not decided ({said}")
    code, out, _ = run_in_process(tmp_path / "t.db", "verify", m.id)
    assert code == 1 and f"event {decision} (time.decision) is STALE: {said};" in out
