"""CLI commands read and verify a match's log once (a review found the same work done twice or
three times on these paths). Each test counts the store's calls with a spy, in process, and checks
the output is what it was."""
from __future__ import annotations

import json

import pytest

from engine.match import Match
from engine.store import EventStore
from tests.conftest import run_in_process as run


@pytest.fixture
def calls(monkeypatch):
    """Counts of EventStore.read / read_raw / verify calls (each still does its work), and
    `log_reads`: the reads of more than one event (opening a match reads its event 1 alone)."""
    counts = {"read": 0, "read_raw": 0, "verify": 0, "log_reads": 0}

    def spy(name):
        real = getattr(EventStore, name)

        def wrapper(self, *a, **kw):
            counts[name] += 1
            out = real(self, *a, **kw)
            if name != "verify" and len(out) > 1:
                counts["log_reads"] += 1
            return out
        monkeypatch.setattr(EventStore, name, wrapper)
    for name in ("read", "read_raw", "verify"):
        spy(name)
    return counts


@pytest.fixture
def table_match(tmp_path):
    db = tmp_path / "t.db"
    store = EventStore.open(str(db))
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t", round="3")
    for i in range(2, 6):
        m.record("note", {"text": f"r {i}"})
    store.close()
    return db, m.id


def test_a_match_report_verifies_the_chain_once(table_match, calls, tmp_path):
    db, mid = table_match
    page = tmp_path / "r.html"
    code, out, err = run(db, "report", mid, "-o", page)
    assert code == 0, err
    assert out.strip() == str(page) and "verified" in page.read_text().lower()
    assert calls["verify"] == 1


def test_a_round_report_verifies_each_match_once(table_match, calls, tmp_path):
    """The round page and each match's own report carry one verification of the match."""
    db, mid = table_match
    code, out, err = run(db, "report", "--round", "3", "--out-dir", tmp_path / "round")
    assert code == 0, err
    assert (tmp_path / "round" / "round-3.html").exists() and (tmp_path / "round" / f"{mid}.html").exists()
    assert calls["verify"] == 1


def voiding_match(tmp_path):
    """A table match with a correction and a backup among its events."""
    db = tmp_path / "v.db"
    store = EventStore.open(str(db))
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    for i in range(2, 8):
        m.record("note", {"text": f"r {i}"})
    m.record("counter", {"player": "Ann", "name": "life", "add": -1})
    m.record("counter", {"player": "Bob", "name": "life", "add": -2})
    m.record("correction", {"voids": 8, "reason": "wrong player"})
    m.record("counter", {"player": "Bob", "name": "life", "add": -3})
    m.record("backup", {"to": 10, "reason": "misplay"})
    voided = m.state().voided
    store.close()
    return db, m.id, voided


@pytest.mark.parametrize("fmt", [(), ("--json",)])
def test_events_reads_the_log_once(tmp_path, calls, fmt):
    db, mid, voided = voiding_match(tmp_path)
    assert voided == [8, 11]
    calls.update(read=0, read_raw=0, verify=0, log_reads=0)
    code, out, err = run(db, "events", mid, *fmt)
    assert code == 0, err
    if fmt:
        rows = json.loads(out)
        assert [r["position"] for r in rows if r["voided"]] == voided
        assert len(rows) == 12 and not any(r["broken_link"] for r in rows)
    else:
        assert len(out.splitlines()) >= 12
    assert calls["verify"] == 1 and calls["log_reads"] == 1


@pytest.mark.parametrize("fmt", [(), ("--json",)])
def test_state_at_a_moment_before_every_void_reads_the_log_once(tmp_path, calls, fmt):
    db, mid, voided = voiding_match(tmp_path)
    calls.update(read=0, read_raw=0, verify=0, log_reads=0)
    code, out, err = run(db, "state", mid, "--at", "6", *fmt)  # the voids (8, 11) come after it
    assert code == 0, err
    if fmt:
        view = json.loads(out)
        assert view["position"] == 6 and view["view"] == "as corrected" and view["voided"] == []
    assert calls["log_reads"] == 1


@pytest.mark.parametrize("fmt", [(), ("--json",)])
def test_state_at_a_turn_reads_the_log_once_when_nothing_is_voided(tmp_path, calls, fmt):
    db = tmp_path / "turns.db"
    store = EventStore.open(str(db))
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    for turn in range(1, 5):
        m.record("turn", {"player": ["Ann", "Bob"][turn % 2], "number": turn})
        m.record("note", {"text": f"turn {turn}"})
    store.close()
    calls.update(read=0, read_raw=0, verify=0, log_reads=0)
    code, out, err = run(db, "state", m.id, "--turn", "3", *fmt)
    assert code == 0, err
    if fmt:
        assert json.loads(out)["position"] == 6  # the turn 3 event
    assert calls["log_reads"] == 1


def test_matches_names_the_seats_without_replaying_a_match(tmp_path, monkeypatch):
    """`matches` learns who a seat is now from the match's `player.named` events (and the voids
    that may take one back), not from a replay of each match: the same names as the table's."""
    from engine.names import names_now
    from engine.replay import Replayer

    db = tmp_path / "n.db"
    store = EventStore.open(str(db))
    seats = ["LeoIlPirata#3980", "Player 2"]

    def named(m, name, actor="-"):
        return m.record("player.named", {"player": "Player 2", "name": name, "reason": "a longer copy"},
                        actor=actor, recorded_by="t").event.position
    plain = Match.create(store, "optcg", seats, recorded_by="t", table="1")
    renamed = Match.create(store, "optcg", seats, recorded_by="t", table="2")
    named(renamed, "Theshyopop#27381")
    named(renamed, "Theshyopop#27382", actor="judge:Jo")  # the last standing one counts
    corrected = Match.create(store, "optcg", seats, recorded_by="t", table="3")
    named(corrected, "Theshyopop#27381")
    wrong = named(corrected, "Wrong#1", actor="judge:Jo")
    corrected.record("correction", {"voids": wrong, "reason": "not this player"}, actor="judge:Jo",
                     recorded_by="t")
    backed = Match.create(store, "optcg", seats, recorded_by="t", table="4")
    named(backed, "Early#1")
    backed.record("note", {"text": "x"}, recorded_by="t")
    named(backed, "Late#2", actor="judge:Jo")
    backed.record("backup", {"to": 3, "reason": "rewind"}, actor="judge:Jo", recorded_by="t")
    table = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t", table="5")
    expected = {m.id: list(names_now(Match(store, m.id).state()).values())
                for m in (plain, renamed, corrected, backed, table)}
    store.close()
    assert expected[renamed.id][1] == "Theshyopop#27382" and expected[corrected.id][1] == "Theshyopop#27381"
    assert expected[backed.id][1] == "Early#1"

    replays = []
    real = Replayer.state_at
    monkeypatch.setattr(Replayer, "state_at", lambda self, *a, **kw: replays.append(self.match) or real(self, *a, **kw))
    code, out, err = run(db, "matches", "--json")
    assert code == 0, err
    assert {r["id"]: r["named"] for r in json.loads(out)} == expected
    assert replays == []


def _stale_match(tmp_path):
    """An optcg match decided at the end of time, then corrected: its decision is stale."""
    from tests.desk.test_stale_decision import JUDGE, PLAIN, decided
    m = decided(tmp_path)
    m.record("correction", PLAIN[1](m), actor=JUDGE)
    return m


@pytest.fixture
def bases(monkeypatch):
    """Counts of Replayer.decision_basis calls (each a replay of a decision's table)."""
    from engine.replay import Replayer
    counts = {"n": 0}
    real = Replayer.decision_basis

    def wrapper(self, *a, **kw):
        counts["n"] += 1
        return real(self, *a, **kw)
    monkeypatch.setattr(Replayer, "decision_basis", wrapper)
    return counts


def test_verify_replays_a_decisions_basis_once(tmp_path, bases):
    """Its hash check and its staleness check replayed the same table twice."""
    m = _stale_match(tmp_path)
    bases["n"] = 0
    code, out, _ = run(tmp_path / "t.db", "verify", m.id)
    assert code == 1 and "is STALE" in out
    assert bases["n"] == 1


def test_a_match_report_works_out_staleness_once(tmp_path, monkeypatch):
    """The report's review worked out the stale decisions, then its verification again."""
    import engine.decisions as decisions
    m = _stale_match(tmp_path)
    n = {"stale": 0}
    real = decisions.stale_decisions

    def spy(*a, **kw):
        n["stale"] += 1
        return real(*a, **kw)
    import sys
    for mod in ("judge.desk.review", "engine.integrity"):  # the module (judge.desk.review is also a function)
        monkeypatch.setattr(sys.modules[mod], "stale_decisions", spy)
    page = tmp_path / "r.html"
    code, out, err = run(tmp_path / "t.db", "report", m.id, "-o", page)
    assert code != 0 and "decision out of date" in page.read_text()
    assert n["stale"] == 1


def test_timelimit_works_out_no_staleness_without_a_decision(tmp_path, monkeypatch):
    """`timelimit` worked out stale decisions on a match that has none to be stale."""
    import judge.desk.timelimit as tl
    from tests.desk.test_stale_decision import JUDGE
    from tests.rulesets.optcg.test_optcg_time_policies import game
    m = Match.create(EventStore.open(str(tmp_path / "t.db")), "optcg", ["Ann", "Bob"])
    for kind, actor, payload in game():
        m.record(kind, payload, actor=actor)
    m.record("note", {"text": "x"}, actor=JUDGE)
    m.record("correction", {"voids": m.head_position(), "reason": "wrong match"}, actor=JUDGE)
    n = {"stale": 0}
    real = tl.stale_decisions

    def spy(*a, **kw):
        n["stale"] += 1
        return real(*a, **kw)
    monkeypatch.setattr(tl, "stale_decisions", spy)
    code, out, err = run(tmp_path / "t.db", "timelimit", m.id, "--dry-run")
    assert code == 0 and "dry run: nothing recorded" in out, err
    assert n["stale"] == 0


def test_a_round_report_folds_each_tournament_once(tmp_path, monkeypatch):
    """Review: `report --round 1 --event NAME` folded the tournament's events into its state up to
    three times (the name for --event, its tables, the hint when nothing was chosen)."""
    import judge.tournament.aggregate as aggregate
    from judge.tournament.tablematch import new_match
    db = tmp_path / "t.db"
    with EventStore.open(str(db)) as store:
        t = aggregate.Tournament.create(store, name="Cup", game="optcg", tournament_id="t-cup")
        t.register_many(["Ann", "Bob", "Cid", "Dan"])
        t.pair()
        p = t.state().rounds[0].tables()[0]
        new_match(store, "optcg", [p.player1, p.player2], event="t-cup", round="1", table=str(p.table))
    folds = []
    real = aggregate.replay
    monkeypatch.setattr(aggregate, "replay", lambda events: folds.append(events[0].match) or real(events))
    code, out, err = run(db, "report", "--round", "1", "--event", "Cup", "--no-matches", "--out-dir", tmp_path / "r")
    assert code == 0, err
    assert folds == ["t-cup"], folds
    folds.clear()  # the hint naming the round's events: the tournament's name from the same fold
    code, out, err = run(db, "report", "--round", "1", "--event", "Nope", "--out-dir", tmp_path / "r")
    assert code == 2 and "its events: t-cup (Cup)" in err, err
    assert folds == ["t-cup"], folds
