"""Replay: determinism (property-tested), moments (--at, --turn), snapshots, corrections, backups."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import replay as replay_mod
from engine.match import InputError, Match
from engine.replay import PositionOutOfRange, Replayer
from engine.store import EventStore

PLAYERS = ["Ann", "Bob"]
ZONES = ["deck", "hand", "field", "trash", "life"]

player = st.sampled_from(PLAYERS)
zone = st.sampled_from(ZONES)
code = st.sampled_from(["OP01-001", "OP01-016", "ST01-012", None])

event = st.one_of(
    st.builds(lambda p, z, n: ("setup", {"player": p, "zone": z, "count": n}), player, zone, st.integers(1, 5)),
    st.builds(lambda p: ("turn", {"player": p}), player),
    st.builds(lambda p, n: ("draw", {"player": p, "count": n}), player, st.integers(1, 3)),
    st.builds(lambda p, a, b, c: ("move", {"player": p, "from_zone": a, "to_zone": b}
                                  | ({"card": c} if c else {})), player, zone, zone, code),
    st.builds(lambda p, z, c: ("reveal", {"player": p, "zone": z, "card": c}), player, zone,
              st.sampled_from(["OP01-001", "OP01-016"])),
    st.builds(lambda p, v: ("counter", {"player": p, "name": "life", "add": v}), player, st.integers(-2, 2)),
    # what a note can hold: no control character but a line break or a tab (QA71 item 3)
    st.builds(lambda t: ("note", {"text": t}),
              st.text(st.characters(blacklist_categories=("Cc", "Cs")) | st.sampled_from("\n\t"), max_size=20)),
    st.builds(lambda p: ("shuffle", {"player": p, "zone": "deck"}), player),
)


def record_all(store: EventStore, events, match_id: str | None = None) -> Match:
    m = Match.create(store, "table", PLAYERS, match_id=match_id, recorded_by="prop")
    for kind, payload in events:
        m.record(kind, payload, recorded_by="prop")
    return m


settings_ = settings(max_examples=40, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture])


@settings_
@given(events=st.lists(event, min_size=1, max_size=40), voids=st.lists(st.integers(2, 41), max_size=3))
def test_same_log_same_state_hash(tmp_path_factory, events, voids):
    """Two stores, the same events: identical state hash at every moment; with snapshots or without."""
    tmp = tmp_path_factory.mktemp("det")
    a = record_all(EventStore.open(str(tmp / "a.db")), events, "m1")
    b = record_all(EventStore.open(str(tmp / "b.db")), events, "m1")
    for target in dict.fromkeys(voids):  # a second plain void of one event is refused (already void)
        if target <= a.head_position() and a.kind_at(target) not in ("correction", "backup"):
            for m in (a, b):
                m.record("correction", {"voids": target, "reason": "prop"}, actor="judge:P",
                         recorded_by="prop")
    head = a.head_position()
    for pos in range(1, head + 1):
        assert a.state(at=pos).state_hash() == b.state(at=pos).state_hash()
    fresh = Replayer(a.store, a.id)
    assert fresh.state_at(head, use_snapshots=False).state_hash() == a.state().state_hash()


@settings_
@given(events=st.lists(event, min_size=30, max_size=60))
def test_snapshots_change_nothing(tmp_path_factory, events):
    tmp = tmp_path_factory.mktemp("snap")
    old = replay_mod.SNAPSHOT_EVERY
    replay_mod.SNAPSHOT_EVERY = 7
    try:
        m = record_all(EventStore.open(str(tmp / "s.db")), events)
        head = m.head_position()
        r = Replayer(m.store, m.id)
        r.state_at(head)  # writes snapshots at 7, 14, ...
        assert m.store.snapshot_positions(m.id, r.key)
        m.record("backup", {"to": 10, "reason": "judge backs up"}, actor="judge:Zoe")
        for pos in range(1, head + 2):
            with_snap = Replayer(m.store, m.id).state_at(pos)
            without = Replayer(m.store, m.id).state_at(pos, use_snapshots=False, save_snapshots=False)
            assert with_snap.to_dict() == without.to_dict()
    finally:
        replay_mod.SNAPSHOT_EVERY = old


@pytest.fixture
def game(sqlite_path) -> Match:
    m = Match.create(EventStore.open(sqlite_path), "table", PLAYERS)
    m.record("setup", {"player": "Ann", "zone": "deck", "count": 10})    # 2
    m.record("turn", {"player": "Ann", "number": 1})                     # 3
    m.record("draw", {"player": "Ann", "count": 2, "cards": ["A-1"]})    # 4
    m.record("turn", {"player": "Bob", "number": 2})                     # 5
    m.record("move", {"player": "Ann", "from_zone": "hand", "to_zone": "field", "card": "A-1"})  # 6
    m.record("turn", {"player": "Ann", "number": 3})                     # 7
    return m


def test_state_at_and_turn(game):
    assert game.state(at=3).zone("Ann", "hand") == []
    assert len(game.state(at=4).zone("Ann", "hand")) == 2
    assert game.state(turn=2).position == 5
    assert game.state(turn=3).position == 7
    with pytest.raises(PositionOutOfRange, match="never reaches turn 9"):
        game.state(turn=9)
    with pytest.raises(PositionOutOfRange, match="events 1..7"):
        game.state(at=8)


def test_correction_voids_one_event_and_keeps_it_visible(game):
    game.record("correction", {"voids": 6, "reason": "A-1 was not played"}, actor="judge:Zoe")
    s = game.state()
    assert s.voided == [6]
    assert [c.code for c in s.zone("Ann", "hand")] == ["A-1", None]
    assert s.zone("Ann", "field") == []
    assert s.turn == 3  # later events still count
    assert [e.kind for e in game.events()][5] == "move"  # the original stays in the log
    assert game.state(at=6).zone("Ann", "field")[0].code == "A-1"  # history before the correction is intact


def test_backup_rewinds_and_later_events_apply(game):
    game.record("backup", {"to": 4, "reason": "Bob's turn began too early"}, actor="judge:Zoe")  # 8
    s = game.state()
    assert s.voided == [5, 6, 7]
    assert s.turn == 1 and s.active == "Ann"
    game.record("move", {"player": "Ann", "from_zone": "hand", "to_zone": "trash"})  # 9
    assert len(game.state().zone("Ann", "trash")) == 1
    findings = game.validate().findings
    assert findings == []


def test_correction_input_errors(game):
    with pytest.raises(InputError, match="event 1 creates the match"):
        game.record("correction", {"voids": 1, "reason": "x"})
    game.record("correction", {"voids": 6, "reason": "x"})
    with pytest.raises(InputError, match="itself a correction"):
        game.record("correction", {"voids": 8, "reason": "undo the undo"})


def test_validate_reports_findings_with_rule_ids(game):
    game.record("move", {"player": "Bob", "from_zone": "hand", "to_zone": "field"})  # Bob has no cards
    game.record("turn", {"player": "Bob", "number": 7})
    v = game.validate()
    assert [(f.rule, f.position) for f in v.findings] == [("TABLE-1", 8), ("TABLE-2", 9)]
    game.record("correction", {"voids": 8, "reason": "misrecorded"}, actor="judge:Zoe")
    v = game.validate()
    assert [f.rule for f in v.active_findings()] == ["TABLE-2"]
    assert 8 in v.backed_out


def test_strict_refuses_and_stores_nothing(game):
    from engine.match import StrictRefusal

    with pytest.raises(StrictRefusal):
        game.record("turn", {"player": "Bob", "number": 9}, strict=True)
    assert game.head_position() == 7


def test_hidden_cards_are_counts_until_revealed(game):
    s = game.state(at=4)
    hand = s.zone("Ann", "hand")
    assert [c.known for c in hand] == [True, False]
    game.record("reveal", {"player": "Ann", "zone": "hand", "card": "B-2"})
    view = game.state().view()["players"]["Ann"]["zones"]["hand"]
    assert view["known"] == ["B-2"] and view["unknown"] == 0  # A-1 went to the field at event 6


def test_backup_rewinds_the_game_not_the_judges_desk(game):
    """A judge backs up to event 4: the game actions after it are backed out, but the clock, the
    call, the ruling and the penalty given meanwhile still count."""
    game.record("round.start", {"minutes": 35, "clock": "14:00"}, actor="judge:Maria")          # 8
    game.record("judge.call", {"caller": "Bob", "reason": "Ann drew extra cards", "at": 4})    # 9
    game.record("judge.ruling", {"text": "back up to event 4"}, actor="judge:Maria")           # 10
    game.record("judge.penalty", {"player": "Ann", "penalty": "Warning",
                                  "infraction": "Game Play Error"}, actor="judge:Maria")        # 11
    game.record("backup", {"to": 4, "reason": "extra cards drawn"}, actor="judge:Maria")       # 12
    s = game.state()
    assert s.voided == [5, 6, 7]
    assert s.turn == 1 and s.active == "Ann"
    from judge.desk import clock_of, penalty_rows

    assert [r["penalty"] for r in penalty_rows(game) if not r["backed_out"]] == ["Warning"]
    assert clock_of(game.events(), set(s.voided)).running


def test_a_finding_caused_only_by_a_voided_event_is_void(tmp_path):
    """The second draw from a one-card deck is flagged as it comes in; once the first draw is
    voided, the corrected log finds nothing there: the finding is void, with the correction named,
    and only a finding the corrected log still finds stands."""
    store = EventStore.open(str(tmp_path / "log.db"))
    m = Match.create(store, "table", ["Ann", "Bob"])
    m.record("setup", {"player": "Ann", "zone": "deck", "count": 1}, actor="Ann")
    m.record("move", {"player": "Ann", "from_zone": "deck", "to_zone": "hand"}, actor="Ann")
    flagged = m.record("move", {"player": "Ann", "from_zone": "deck", "to_zone": "hand"}, actor="Ann")
    assert [f.rule for f in flagged.findings] == ["TABLE-1"]
    m.record("move", {"player": "Bob", "from_zone": "deck", "to_zone": "hand"}, actor="Bob")  # stands
    fix = m.record("correction", {"voids": 3, "reason": "drawn once"}, actor="judge:Kim").event
    v = m.validate()
    assert [(f.position, f.rule) for f in v.active_findings()] == [(5, "TABLE-1")]
    assert [(f.position, by) for f, by in v.void_findings()] == [(4, (fix.position,))]
    assert len(m.state().zone("Ann", "hand")) == 1


def test_corrected_moment_before_every_void_reads_the_log_once_and_uses_snapshots(tmp_path, monkeypatch):
    """`state --at N` as corrected, when nothing at or before N is voided, is the table as
    recorded then: replayed (from a snapshot) out of the one read that found the voids."""
    store = EventStore.open(str(tmp_path / "s.db"))
    m = record_all(store, [("counter", {"player": "Ann", "name": "life", "add": i % 3 - 1}) for i in range(2, 121)])
    m.record("correction", {"voids": 110, "reason": "wrong"}, recorded_by="prop")
    assert m.state(115).position == 115  # replay saves the snapshots at 50 and 100
    expected = Replayer(store, m.id).state_at(60, use_snapshots=False, save_snapshots=False)
    reads = []
    real = EventStore.read
    monkeypatch.setattr(EventStore, "read", lambda self, *a, **kw: reads.append(kw) or real(self, *a, **kw))
    fresh = Replayer(store, m.id)
    got = fresh.state_at(60, corrected=True)
    assert got.to_dict() == expected.to_dict() and got.voided == []
    assert [kw.get("after") for kw in reads] == [1] and fresh.distrusted == []  # before: [1, 49]
