"""Bounded input (issue 14): every count, number and size has a maximum the schema enforces, and no
stored event, not even one an older version let through, can make replay hang."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.events import Draft
from engine.match import InputError, Match
from engine.rulesets import available
from engine.schema import (MAX_ITEMS, MAX_NUMBER, MAX_PAYLOAD_BYTES, MAX_TEXT, ParseContext, PayloadError,
                           _check, read_json)
from engine.store import EventStore

from tests.fuzz.harness import invoke


@pytest.fixture
def match(tmp_path):
    store = EventStore.open(str(tmp_path / "t.db"))
    yield Match.create(store, "table", ["Ann", "Bob"], match_id="lim")
    store.close()


@pytest.mark.parametrize("kind, payload, field", [
    ("draw", {"player": "Ann", "count": 2_000_000_000}, "payload.count"),
    ("setup", {"player": "Ann", "zone": "deck", "count": 1001}, "payload.count"),
    ("move", {"player": "Ann", "from_zone": "deck", "to_zone": "hand", "count": 2**31}, "payload.count"),
    ("counter", {"name": "life", "player": "Ann", "add": MAX_NUMBER + 1}, "payload.add"),
    ("counter", {"name": "life", "player": "Ann", "add": float("inf")}, "payload.add"),
    ("note", {"text": "x" * (MAX_TEXT + 1)}, "payload.text"),
    ("note", {"text": "bad \ud800"}, "payload.text"),
    ("setup", {"player": "Ann", "zone": "deck", "cards": ["OP01-016"] * (MAX_ITEMS + 1)}, "payload.cards"),
])
def test_input_beyond_a_limit_is_refused_naming_the_field(match, kind, payload, field):
    with pytest.raises(InputError) as e:
        match.record(kind, payload, actor="Ann")
    assert e.value.field == field
    assert len(str(e.value)) < 300  # the bad value is quoted short
    assert match.head_position() == 1


def test_a_payload_over_the_size_limit_is_refused(match):
    facts = {f"OP01-{i:03d}": {"text": "x" * 3000} for i in range(30)}  # each part within bounds
    big = Match.create(match.store, "optcg", ["Ann", "Bob"], match_id="big")
    with pytest.raises(InputError) as e:
        big.record("deck.registered", {"player": "Ann", "leader": "OP01-001", "cards": facts}, actor="Ann")
    assert f"{MAX_PAYLOAD_BYTES:,}" in str(e.value) and big.head_position() == 1


@pytest.mark.parametrize("name", sorted(available()))
def test_every_ruleset_declares_its_card_limit_and_counts(name):
    rs = available()[name]
    assert 0 < rs.max_cards <= 1000
    ctx = ParseContext(players=("Ann", "Bob"), zones=tuple(rs.zones), max_cards=rs.max_cards)
    counted = [(kind, f) for kind, cls in rs.vocabulary().items() for f in cls.count_fields]
    assert counted  # every game counts cards somewhere
    for kind, field in counted:  # a declared count field refuses one card beyond the limit
        with pytest.raises(PayloadError) as e:
            _check(rs.max_cards + 1, rs.vocabulary()[kind]._hints[field], field, ctx)
        assert f"at most {rs.max_cards}" in e.value.message


@given(st.text(max_size=50))
def test_read_json_never_raises_anything_but_payload_error(text):
    try:
        read_json(text)
    except PayloadError:
        pass


@pytest.mark.parametrize("text", ["1" + "0" * 5000, "[" * 100_000 + "]" * 100_000, "NaN", "[1e309, -Infinity]",
                                  '{"a": 1'])
def test_read_json_refuses_in_words(text):
    with pytest.raises(PayloadError) as e:
        read_json(text)
    assert len(e.value.message) <= 200


def _stored_as_an_older_version_would(match: Match, kind: str, payload: dict) -> None:
    """Append without the checks this version makes (as a version without limits stored it)."""
    match.store.append(match.id, [Draft(kind, 1, "Ann", payload, "old-version")])


def test_a_stored_oversize_event_never_hangs_replay(match, tmp_path, monkeypatch):
    _stored_as_an_older_version_would(match, "draw", {"player": "Ann", "count": 2_000_000_000})
    _stored_as_an_older_version_would(match, "setup", {"player": "Bob", "zone": "deck", "count": 10**12})
    m = Match.open(match.store, "lim")
    state = m.state()
    assert len(state.zone("Ann", "hand")) == 0 and len(state.zone("Bob", "deck")) == 0
    v = m.validate()
    flagged = [f for f in v.findings if f.rule == "DESK-9"]
    assert [f.position for f in flagged] == [2, 3] and "not replayed" in flagged[0].message
    # a correction voids it like any event; every command that replays still answers
    m.record("correction", {"voids": 2, "reason": "stored by an older version"}, actor="judge:Zoe")
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "t.db")
    for args in (["state", "lim"], ["validate", "lim"], ["report", "lim"], ["export", "lim", "--format", "csv"],
                 ["export", "lim", "--format", "notation"], ["audit", "lim", "--at", "3"], ["timelimit", "lim"]):
        out = invoke(["--db", db, *args])
        assert not out.traceback, f"{args}: {out.output}"


def test_a_stored_ken_deck_of_a_billion_copies_is_not_replayed(tmp_path):
    store = EventStore.open(str(tmp_path / "k.db"))
    m = Match.create(store, "ken", ["Ann", "Bob"], match_id="ken")
    store.append("ken", [Draft("deck.register", 1, "Ann", {"player": "Ann", "cards": [
        {"code": "X-1", "name": "x", "type": "Personaggio", "count": 10**9}]}, "old")])
    v = Match.open(store, "ken").validate()
    assert any(f.rule == "DESK-9" and f.position == 2 for f in v.findings)
    with pytest.raises(InputError):
        m.record("deck.register", {"player": "Bob", "cards": [
            {"code": "X-1", "name": "x", "type": "Personaggio", "count": 501}]}, actor="Bob")
    store.close()


@pytest.mark.parametrize("at", [10**20, -10**20, 2**63, MAX_NUMBER + 1])
def test_a_position_beyond_any_log_is_out_of_range_not_a_crash(match, tmp_path, at):
    """QA 2026-11-26: `state --at 100000000000000000000` was an internal error (SQLite's integers end
    at 2**63)."""
    from engine.replay import PositionOutOfRange

    with pytest.raises(PositionOutOfRange, match="there is no event"):
        match.state(at=at)
    out = invoke(["--db", str(tmp_path / "t.db"), "state", match.id, "--at", str(at)])
    assert out.code == 2 and f"there is no event {at}" in out.output, out.output
