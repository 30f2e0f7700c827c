"""The envelope's canonical form and hash (property-tested)."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.canonical import canonical_bytes
from engine.events import RecordedEvent

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)


@given(actor=st.text(max_size=12), payload=st.dictionaries(st.text(max_size=8), json_values, max_size=5),
       position=st.integers(1, 10**6), by=st.text(max_size=8))
def test_sealed_bytes_are_the_canonical_envelope_and_hash_matches(actor, payload, position, by):
    event, data = RecordedEvent.seal_with_bytes(
        match="m", position=position, kind="note", version=1, actor=actor, payload=payload,
        recorded_at="2026-01-01T00:00:00.000Z", recorded_by=by, prev_hash="0" * 64)
    assert data == canonical_bytes(event.to_dict())
    assert event.hash == event.computed_hash()
    assert RecordedEvent.from_dict(__import__("json").loads(data)) == event


@given(payload=st.dictionaries(st.text(max_size=8), json_values, max_size=5))
def test_any_change_changes_the_hash(payload):
    a = RecordedEvent.seal(match="m", position=2, kind="note", version=1, actor="-", payload=payload,
                           recorded_at="t", recorded_by="r", prev_hash="0" * 64)
    b = RecordedEvent.seal(match="m", position=2, kind="note", version=1, actor="-",
                           payload=dict(payload, __tamper__=1), recorded_at="t", recorded_by="r",
                           prev_hash="0" * 64)
    assert a.hash != b.hash
