"""The desk's event kinds: core kinds every ruleset accepts, validated field by field."""
import pytest

from engine.desk import DESK_KINDS, PENALTY_POLICIES, describe_desk_event
from engine.events import CORE_KINDS
from engine.match import InputError, Match
from engine.rulesets import available
from engine.store import EventStore


@pytest.fixture
def match(tmp_path):
    store = EventStore.open(str(tmp_path / "t.db"))
    yield Match.create(store, "table", ["Ann", "Bob"])
    store.close()


def test_desk_kinds_are_core_kinds_of_every_ruleset():
    for k in DESK_KINDS:
        assert CORE_KINDS[k.kind] is k
    for name, rs in available().items():
        vocab = rs.vocabulary()
        assert all(k.kind in vocab for k in DESK_KINDS), name
    # the existing core kinds are reused, not duplicated
    assert {"backup", "correction", "time.called", "time.decision"} <= set(CORE_KINDS)
    assert not {"judge.backup", "judge.time"} & set(CORE_KINDS)


def test_penalty_ladder_and_policies(match):
    rec = match.record("judge.penalty", {"player": "Bob", "penalty": "Caution", "infraction": "Slow play"},
                       actor="judge:Maria")
    assert rec.event.payload["penalty"] == "Caution"
    assert rec.event.payload["policy"] == "none"  # a table match's: no published policy (QA77 #6)
    # MTG's IPG has no Caution, and names its categories
    with pytest.raises(InputError) as e:
        match.record("judge.penalty", {"player": "Bob", "penalty": "Caution", "infraction": "Game Play Error",
                                       "policy": "mtg-ipg"}, actor="judge:Maria")
    assert e.value.field == "payload.penalty"
    with pytest.raises(InputError) as e:
        match.record("judge.penalty", {"player": "Bob", "penalty": "Warning", "infraction": "Slow play",
                                       "policy": "mtg-ipg"}, actor="judge:Maria")
    assert e.value.field == "payload.infraction"
    ok = match.record("judge.penalty", {"player": "Bob", "penalty": "Game Loss",
                                        "infraction": "Tournament Error", "policy": "mtg-ipg"},
                      actor="judge:Maria")
    assert ok.event.payload["policy"] == "mtg-ipg"
    for bad, field in (({"penalty": "Yellow Card"}, "payload.penalty"), ({"policy": "fifa"}, "payload.policy"),
                       ({"player": "Zed"}, "payload.player")):
        payload = dict({"player": "Bob", "penalty": "Warning", "infraction": "x"}, **bad)
        with pytest.raises(InputError) as e:
            match.record("judge.penalty", payload, actor="judge:Maria")
        assert e.value.field == field
    # the ONE PIECE CARD GAME Tournament Rules Manual's six penalties (7.2), Suspension the highest
    assert PENALTY_POLICIES["bandai"].penalties == ("Caution", "Warning", "Game Loss", "Match Loss",
                                                    "Disqualification", "Suspension")
    assert "Suspension" not in PENALTY_POLICIES["mtg-ipg"].penalties


def test_slip_clock_and_confirm_payloads(match):
    head = match.head_position()
    with pytest.raises(InputError) as e:
        match.record("result.slip", {"result": "win"})
    assert e.value.field == "payload.winner"
    with pytest.raises(InputError) as e:
        match.record("result.slip", {"result": "draw", "winner": "Ann"})
    assert e.value.field == "payload.winner"
    with pytest.raises(InputError):
        match.record("round.start", {"minutes": 0})
    with pytest.raises(InputError) as e:
        match.record("round.start", {"minutes": 35, "started_at": "half past two"})
    assert e.value.field == "payload.started_at"
    with pytest.raises(InputError):
        match.record("time.extension", {"minutes": -2, "reason": "x"})
    assert match.head_position() == head  # nothing stored by refused input
    match.record("round.start", {"minutes": 35, "started_at": "2025-03-30T14:00:00Z"})
    match.record("result.slip", {"result": "win", "winner": "Ann", "games": "2-1"})
    match.record("result.confirm", {"player": "Bob", "agree": False}, actor="Bob")
    assert match.head_position() == head + 3


def test_describe_in_plain_words():
    assert describe_desk_event("judge.penalty", {"player": "Bob", "penalty": "Warning",
                                                 "infraction": "Game Play Error"}, "judge:Maria") == \
        "penalty (judge Maria): Warning to Bob (Game Play Error; policy bandai)"
    assert describe_desk_event("time.extension", {"minutes": 3, "reason": "deck check"}, "judge:Li") == \
        "time extension (judge Li): +3 min (deck check)"
    assert describe_desk_event("result.confirm", {"player": "Bob", "agree": False}, "Bob") == \
        "Bob disputes the result slip"
    assert describe_desk_event("move", {}, "-") is None
