"""The desk's checks of one event (DESK-4, -5, -8, -11) and "time is called once" (DESK-12) are said
as an event is recorded, on every path, by the engine (Match.record, Match.judge_batch), judged
against the head the event is written after: a writer that lost a race checks again under the lock."""
from __future__ import annotations

import json

import pytest

from engine.match import BatchInputError, InputError, Match
from engine.store import EventStore
from judge.desk.review import review
from judge.io.importers import jsonl
from tests.engine.race import at_once

BACKENDS = ("sqlite",)  # the SQLite write lock is what the race tests look at; the rest is backend-free

RULING = {"text": "the attack stands", "rule": "OPTCG-BATTLE-2"}  # not a rule of `table`
LATE = {"player": "Ann", "penalty": "Warning", "infraction": "Tardiness", "minutes_late": 7,
        "policy": "bandai"}  # Bandai's ladder: Game Loss (a table match's own policy, none, has none)


def new(store) -> Match:
    return Match.create(store, "table", ["Ann", "Bob"])


def rules(findings) -> list[str]:
    return sorted(f.rule for f in findings)


def test_record_says_the_desks_checks_of_the_event(store):
    m = new(store)
    rec = m.record("judge.ruling", RULING, actor="Ann")
    assert rules(rec.findings) == ["DESK-4", "DESK-8"]
    assert all(f.position == rec.event.position for f in rec.findings)
    assert rules(m.record("judge.penalty", LATE, actor="judge:Kim").findings) == ["DESK-5"]
    deviation = dict(LATE, minutes_late=None, infraction="Slow play", deviation="below the guide's Warning")
    assert rules(m.record("judge.penalty", deviation, actor="judge:Kim").findings) == ["DESK-11"]
    assert m.record("judge.ruling", dict(RULING, rule="DESK-4"), actor="judge:Kim").findings == []


def test_a_batch_says_them_too_and_they_are_not_said_twice_by_the_review(store):
    m = new(store)
    after = store.head(m.id)
    batch = m.judge_batch([("note", {"text": "hi"}, "-"), ("judge.ruling", RULING, "Ann"),
                           ("correction", {"voids": 2, "reason": "typo"}, "judge:Kim")], after=after)
    assert [rules(fs) for fs in batch.findings] == [[], ["DESK-4", "DESK-8"], []]
    m.store_batch(batch, after=after)
    assert rules(m.judge_batch([("judge.ruling", RULING, "Ann")], after=store.head(m.id)).findings[0]) \
        == ["DESK-4", "DESK-8"]  # the plain (no void) path
    r = review(m)
    assert rules(r.findings) == ["DESK-4", "DESK-8"]  # replay's Validation does not add them again


def test_time_is_called_once_on_record(store):
    m = new(store)
    m.record("time.called", {"clock": "14:35"}, actor="judge:Kim")
    with pytest.raises(InputError) as e:
        m.record("time.called", {"clock": "15:40"}, actor="judge:Kim")
    assert e.value.field == "clock"
    assert str(e.value) == ("field 'clock': time was already called at 14:35 (event 2); a second call is not "
                            "recorded (void event 2 first if it was a mistake)")  # table: no extra minutes
    assert m.head_position() == 2
    with pytest.raises(InputError):
        m.record("time.called", {"clock": "15:40"}, actor="judge:Kim", expected_position=2)
    m.record("correction", {"voids": 2, "reason": "wrong table"}, actor="judge:Kim")
    assert m.record("time.called", {"clock": "15:40"}, actor="judge:Kim").event.position == 4


def test_time_is_called_once_in_a_batch_and_in_one_line(store):
    m = new(store)
    after = store.head(m.id)
    with pytest.raises(BatchInputError) as e:
        m.judge_batch([("time.called", {"clock": "14:35"}, "judge:Kim"), ("note", {"text": "x"}, "-"),
                       ("time.called", {"clock": "14:36"}, "judge:Kim")], after=after)
    assert e.value.item == 2 and "this line already calls time (at 14:35)" in str(e.value)
    m.record("time.called", {"clock": "14:35"}, actor="judge:Kim")
    with pytest.raises(BatchInputError) as e:
        m.judge_batch([("time.called", {"clock": "14:40"}, "judge:Kim")], after=store.head(m.id))
    assert e.value.item == 0 and "already called at 14:35 (event 2)" in str(e.value)
    # a void earlier in the same line lets the call through (judged on the table after the void)
    head = store.head(m.id)
    ok = m.judge_batch([("correction", {"voids": 2, "reason": "wrong table"}, "judge:Kim"),
                        ("time.called", {"clock": "14:40"}, "judge:Kim")], after=head)
    assert [r.event.kind for r in m.store_batch(ok, after=head)] == ["correction", "time.called"]


def test_a_writer_that_lost_the_race_checks_again_under_the_lock(sqlite_path):
    """Both objects last saw event 2; the second's call is judged against its stale head (no call),
    loses the append, and is judged again under the lock against the head with the first's call."""
    one, two = EventStore.open(sqlite_path), EventStore.open(sqlite_path)
    m1 = new(one)
    m1.record("note", {"text": "seen by both"})
    m2 = Match.open(two, m1.id)
    m2.record("note", {"text": "m2 knows the head now"})
    m1.record("note", {"text": "m1 catches up"})
    m2.record("note", {"text": "and so does m2"})
    m1.record("time.called", {"clock": "14:35"}, actor="judge:Kim")
    with pytest.raises(InputError, match=r"already called at 14:35 \(event 6\)"):
        m2.record("time.called", {"clock": "14:36"}, actor="judge:Lia")
    assert [e.kind for e in one.read(m1.id)].count("time.called") == 1


def _caller(db: str, match: str, clock: str, barrier, results) -> None:
    store = EventStore.open(db)
    m = Match.open(store, match)
    m.head_position()
    barrier.wait()
    try:
        m.record("time.called", {"clock": clock}, actor="judge:Kim")
        results.put("called")
    except InputError as e:
        results.put(f"refused: {e}")
    store.close()


def test_two_judges_calling_time_at_once_store_one_call(sqlite_path):
    store = EventStore.open(sqlite_path)
    m = new(store)
    outcomes = at_once(_caller, [(sqlite_path, m.id, clock) for clock in ("14:35", "14:36")])
    assert outcomes[0] == "called" and outcomes[1].startswith("refused: field 'clock': time was already called")
    assert [e.kind for e in store.read(m.id)] == ["match.created", "time.called"]


def test_an_imported_second_call_is_stored_and_flagged_once(store, tmp_path):
    """Record, then judge: an imported log is a fact. Its second call is kept and flagged (DESK-12);
    the import's count and the review say it once, with the ruling's DESK-8."""
    lines = [{"kind": "match.created", "payload": {"ruleset": "table", "players": ["Ann", "Bob"]}},
             {"kind": "time.called", "payload": {"clock": "14:35"}, "actor": "judge:Kim"},
             {"kind": "judge.ruling", "payload": RULING, "actor": "judge:Kim"},
             {"kind": "time.called", "payload": {"clock": "14:40"}, "actor": "judge:Kim"}]
    path = tmp_path / "two-calls.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    summary = jsonl.import_file(store, str(path))
    assert summary.events == 4 and summary.findings == 2
    r = review(Match(store, summary.match))
    assert [(f.rule, f.position) for f in r.findings] == [("DESK-8", 3), ("DESK-12", 4)]
    assert "time was already called at 14:35 (event 2)" in r.findings[1].message


def test_the_end_of_a_policys_extra_minutes_is_its_own_mark_recorded_once_after_the_call(store):
    """optcg `regional`: the judge says the 5 extra minutes ran out. Before the mark, the only way was
    a second `time.called`, which is refused (DESK-12); the mark is recorded once, after the call."""
    m = Match.create(store, "optcg", ["Ann", "Bob"])
    over = {"clock": "14:40", "extra_minutes_over": True}
    with pytest.raises(InputError, match="cannot run out before time is called") as e:
        m.record("time.called", over, actor="judge:Kim")
    assert e.value.field == "extra_minutes_over" and m.head_position() == 1
    m.record("time.called", {"clock": "14:35"}, actor="judge:Kim")
    with pytest.raises(InputError, match="the call marked extra_minutes_over"):  # the refusal says how
        m.record("time.called", {"clock": "14:40"}, actor="judge:Kim")
    assert m.record("time.called", over, actor="judge:Kim").event.position == 3
    with pytest.raises(InputError, match=r"already ran out at 14:40 \(event 3\)"):
        m.record("time.called", dict(over, clock="14:41"), actor="judge:Kim")
    with pytest.raises(InputError, match="already called at 14:35"):  # the mark is not a call
        m.record("time.called", {"clock": "14:42"}, actor="judge:Kim")
    after = store.head(m.id)
    with pytest.raises(BatchInputError, match="earlier on this line"):
        n = Match.create(store, "optcg", ["Ann", "Bob"])
        head = store.head(n.id)
        n.judge_batch([("time.called", {"clock": "14:35"}, "judge:Kim"), ("time.called", over, "judge:Kim"),
                       ("time.called", over, "judge:Kim")], after=head)
    assert store.head(m.id) == after
    assert review(m).findings == []  # one call and one mark: nothing to flag
    from judge.desk.timelimit import decide
    # the mark ends the extra minutes; no deck was registered, so the counts are asked for (never 0)
    with pytest.raises(InputError, match=r"the extra minutes ran out at event 3, before game turn 4"):
        decide(m, "regional")


def test_an_imported_mark_before_the_call_or_twice_is_flagged(store, tmp_path):
    over = {"clock": "14:40", "extra_minutes_over": True}
    lines = [{"kind": "match.created", "payload": {"ruleset": "optcg", "players": ["Ann", "Bob"]}},
             {"kind": "time.called", "payload": over, "actor": "judge:Kim"},
             {"kind": "time.called", "payload": {"clock": "14:35"}, "actor": "judge:Kim"},
             {"kind": "time.called", "payload": over, "actor": "judge:Kim"},
             {"kind": "time.called", "payload": over, "actor": "judge:Kim"}]
    path = tmp_path / "marks.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    summary = jsonl.import_file(store, str(path))
    flagged = [(f.rule, f.position) for f in review(Match(store, summary.match)).findings if f.rule == "DESK-12"]
    assert flagged == [("DESK-12", 2), ("DESK-12", 5)]


def test_an_imported_mark_at_a_clock_before_the_call_is_flagged_as_live_input_refuses_it(store, tmp_path):
    """Review 2026-11-27: the live refusal ("before the call") had no counterpart over an imported
    log; the same check (_before_the_call) now flags it, in the same words. Past midnight is after."""
    lines = [{"kind": "match.created", "payload": {"ruleset": "optcg", "players": ["Ann", "Bob"]}},
             {"kind": "time.called", "payload": {"clock": "14:35"}, "actor": "judge:Kim"},
             {"kind": "time.called", "payload": {"clock": "12:40", "extra_minutes_over": True}, "actor": "judge:Kim"}]
    path = tmp_path / "early.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    found = [f for f in review(Match(store, jsonl.import_file(store, str(path)).match)).findings
             if f.rule == "DESK-12"]
    assert [f.position for f in found] == [3]
    assert "cannot run out at 12:40, before time was called at 14:35 (event 2)" in found[0].message
    m = Match.create(store, "optcg", ["Ann", "Bob"])
    m.record("time.called", {"clock": "23:58"}, actor="judge:Kim")
    m.record("time.called", {"clock": "00:03", "extra_minutes_over": True}, actor="judge:Kim")
    assert not [f for f in review(m).findings if f.rule == "DESK-12"]


def test_a_ruleset_without_extra_minutes_refuses_the_mark_and_nothing_takes_the_mark_for_the_call(store):
    """Review 2026-11-27: the mark was accepted on every ruleset (an op2009 match's time call moved
    to it), and the clock, the appeals' incidents and op2009 read it as the call."""
    from judge.desk.clock import clock_of
    from judge.report.appeals import incidents

    op = Match.create(store, "op2009", ["Ann", "Bob"])
    op.record("time.called", {"clock": "14:35"}, actor="judge:Kim")
    with pytest.raises(InputError, match="ruleset op2009 has no end-of-time policy with extra minutes"):
        op.record("time.called", {"clock": "14:40", "extra_minutes_over": True}, actor="judge:Kim")
    with pytest.raises(InputError) as e:
        op.record("time.called", {"clock": "14:40"}, actor="judge:Kim")
    assert "--extra-minutes-over" not in str(e.value)  # no such policy: not offered
    m = Match.create(store, "optcg", ["Ann", "Bob"])
    m.record("time.called", {"clock": "14:35"}, actor="judge:Kim")
    m.record("time.called", {"clock": "14:40", "extra_minutes_over": True}, actor="judge:Kim")
    events = m.events()
    assert clock_of(events).called["position"] == 2
    found = incidents(events)
    assert [(i.root.position, [a.position for a in i.actions]) for i in found] == [(2, [3])]


def test_the_end_of_the_extra_minutes_is_not_before_the_call_and_the_clock_says_both(store):
    """QA 2026-11-27: a mark at 14:45 after a call at 14:50 was stored; `judge clock` showed neither
    the mark nor, with no round start, the call; `timelimit --policy bandai` ignored the mark silently."""
    from judge.desk.clock import clock_of
    from judge.desk.timelimit import decide

    m = Match.create(store, "optcg", ["Ann", "Bob"])
    m.record("time.called", {"clock": "23:58"}, actor="judge:Kim")
    with pytest.raises(InputError, match="cannot run out at 23:50, before time was called at 23:58"):
        m.record("time.called", {"clock": "23:50", "extra_minutes_over": True}, actor="judge:Kim")
    m.record("time.called", {"clock": "00:03", "extra_minutes_over": True}, actor="judge:Kim")  # past midnight
    c = clock_of(m.events())
    assert not c.running and c.called["position"] == 2 and c.extra_minutes_over["position"] == 3
    steps = decide(m, "bandai").decision.steps
    assert any("event 3 does not count: policy bandai gives no extra minutes" in s for s in steps), steps


def test_an_end_of_the_extra_minutes_long_after_the_call_is_kept_and_flagged_live_and_in_the_log(store):
    """QA71 item 13: the regional policy's 5 minutes, marked over 4 hours after a call at 14:35, were
    taken in silence and decided on. A late mark is still a fact (not refused), but it is said: when
    recorded, one at a time or in a batch, and in the whole log, in the same words (DESK-14)."""
    m = Match.create(store, "optcg", ["Ann", "Bob"])
    m.record("time.called", {"clock": "14:35"}, actor="judge:Kim")
    batch = m.judge_batch([("time.called", {"clock": "18:40", "extra_minutes_over": True}, "judge:Kim")],
                          after=store.head(m.id))
    rec = m.record("time.called", {"clock": "18:40", "extra_minutes_over": True}, actor="judge:Kim")
    said = [f for f in rec.findings if f.rule == "DESK-14"]
    assert [f.message for f in batch.findings[0] if f.rule == "DESK-14"] == [f.message for f in said]
    assert len(said) == 1 and said[0].severity == "warning"
    assert "ran out at 18:40, 245 minutes after time was called at 14:35 (event 2), though they last 5 minutes" \
        in said[0].message
    logged = [f for f in review(m).findings if f.rule in ("DESK-12", "DESK-14")]
    assert [(f.rule, f.position, f.message) for f in logged] == [("DESK-14", 3, said[0].message)]
    ok = Match.create(store, "optcg", ["Ann", "Bob"])  # within 5 + 10 minutes, across midnight: nothing said
    ok.record("time.called", {"clock": "23:58"}, actor="judge:Kim")
    assert not ok.record("time.called", {"clock": "00:13", "extra_minutes_over": True}, actor="judge:Kim").findings


def test_a_live_time_call_is_read_once_for_its_refusal_and_its_warning(store, monkeypatch):
    """Review: a live `time.called` ran the DESK-12 reading (_time_call_faults) twice, once for the
    refusal and once for the warning; one verdict serves both now."""
    import engine.desk as desk

    reads = []
    faults = desk._time_call_faults

    def counted(*a, **k):
        reads.append(1)
        return faults(*a, **k)
    monkeypatch.setattr(desk, "_time_call_faults", counted)
    m = new(store)
    m.record("time.called", {"clock": "14:35"}, actor="judge:Kim")  # recorded: refusal and warning both asked
    assert len(reads) == 1
    with pytest.raises(InputError):  # refused: read once, against the head (a refusal is judged again
        m.record("time.called", {"clock": "15:40"}, actor="judge:Kim", expected_position=2)  # under the lock)
    assert len(reads) == 2


def test_the_log_before_a_head_is_cut_there_when_a_batch_read_it_already(store):
    """Review: `_log_upto(head, log)` returned the whole batch log, ignoring `head`, where its
    docstring says events 2..head: a check asking for an earlier head read events after it."""
    m = new(store)
    for i in range(3):
        m.record("note", {"text": f"n{i}"}, actor="judge:Kim")
    whole = store.read(m.id, after=1)
    assert [e.position for e in m._log_upto(3, lambda: whole)] == [2, 3]
    assert [e.position for e in m._log_upto(3, None)] == [2, 3]  # as read anew
