"""The stored form of an event, written key by key (engine/events.py `envelope_parts` + `chain`),
is byte for byte the canonical JSON of its hashed fields with the hash spliced in: the form every
stored event has had, which `verify` recomputes the old way (RecordedEvent.computed_hash)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.canonical import GENESIS_HASH, canonical_bytes, canonical_json, sha256_hex
from engine.events import ManyEnvelopes, RecordedEvent, chain, envelope_parts

text = st.text(max_size=30)  # any Unicode: quotes, backslashes, controls, CJK, astral, lone surrogates
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4), max_leaves=12)
hashes = st.text("0123456789abcdef", min_size=64, max_size=64)


@settings(max_examples=300, deadline=None)
@given(match=text, position=st.integers(1, 10**9), kind=text, version=st.integers(1, 5), actor=text,
       payload=st.dictionaries(text, json_values, max_size=6), recorded_at=text, recorded_by=text,
       prev=hashes, write_id=st.none() | text)
def test_parts_and_chain_are_the_canonical_envelope(match, position, kind, version, actor, payload,
                                                    recorded_at, recorded_by, prev, write_id):
    fields = dict(match=match, position=position, kind=kind, version=version, actor=actor, payload=payload,
                  recorded_at=recorded_at, recorded_by=recorded_by)
    try:
        expected = canonical_bytes({**fields, "prev_hash": prev,
                                    **({"write_id": write_id} if write_id is not None else {})})
    except UnicodeEncodeError:  # a lone surrogate cannot be stored either way (the schema refuses it)
        with pytest.raises(UnicodeEncodeError):
            envelope_parts(**fields, write_id=write_id)
        return
    parts = envelope_parts(**fields, write_id=write_id)
    digest, stored = chain(parts, prev)
    assert parts.head + prev.encode() + parts.tail == expected
    assert digest == sha256_hex(expected)
    event = RecordedEvent(match, position, kind, version, actor, payload, recorded_at, recorded_by,
                          prev, digest, write_id)
    assert event.computed_hash() == digest
    assert stored == canonical_bytes(event.to_dict())  # the row: the envelope with its hash
    assert json.loads(stored)["hash"] == digest


def test_a_known_event_keeps_its_hash():
    """A fixed event and the hash it had before the envelope was written key by key."""
    event, stored = RecordedEvent.seal_with_bytes(
        match="m1", position=2, kind="draw", version=1, actor="Ann",
        payload={"player": "Ann", "count": 1, "cards": ["OP01-016"]},
        recorded_at="2026-11-26T22:00:00.000Z", recorded_by="ZoÃ« 鈴木", prev_hash=GENESIS_HASH)
    assert stored == canonical_bytes(event.to_dict())
    assert event.hash == sha256_hex(canonical_json(event.hashed_fields()).encode())
    assert event.hash == "34fbccffda13fd943edb4ea653d520460040c89498d13766a855d0607db0dda2"


def test_position_must_be_an_int():
    with pytest.raises(TypeError):
        envelope_parts(match="m", position=True, kind="k", version=1, actor="a", payload={},
                       recorded_at="t", recorded_by="b")


events = st.lists(st.tuples(st.integers(1, 10**9), st.sampled_from(["move", "draw", "ß", 'k"\\']),
                            st.integers(1, 3), st.sampled_from(["-", "Ann", "judge:Zoë", "\x00"]),
                            st.dictionaries(text, json_values, max_size=4),
                            st.sampled_from(["2026-01-01T00:00:00.000Z", "t\u2028", "\ud800"]),
                            st.sampled_from(["bench", "鈴木"]), st.none() | st.sampled_from(["w1", "w2"])),
                  max_size=12)


@settings(max_examples=200, deadline=None)
@given(match=st.sampled_from(["m1", "m-ü", 'm"']), batch=events)
def test_many_envelopes_are_envelope_parts(match, batch):
    """A bulk import's worker writes the repeating pieces once (ManyEnvelopes): each event's parts
    are envelope_parts' own, whatever repeats and whatever comes first, refusals included."""
    many = ManyEnvelopes(match)
    for position, kind, version, actor, payload, recorded_at, recorded_by, write_id in batch:
        fields = dict(match=match, position=position, kind=kind, version=version, actor=actor, payload=payload,
                      recorded_at=recorded_at, recorded_by=recorded_by, write_id=write_id)
        try:
            expected = tuple(envelope_parts(**fields))
        except UnicodeEncodeError:
            with pytest.raises(UnicodeEncodeError):
                many.parts(position, kind, version, actor, payload, recorded_at, recorded_by, write_id)
            continue
        assert many.parts(position, kind, version, actor, payload, recorded_at, recorded_by, write_id) == expected
    many.parts(2, "move", 1, "-", {}, "t", "b", None)
    with pytest.raises(TypeError):  # as envelope_parts, though the pieces of the same event are known
        many.parts(True, "move", 1, "-", {}, "t", "b", None)
    with pytest.raises(TypeError):
        many.parts(2, "move", True, "-", {}, "t", "b", None)
