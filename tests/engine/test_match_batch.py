"""Match.judge_batch / store_batch: a batch (a live recorder's line) judged whole on a copy of the
table, then stored in one transaction right after the event it was judged against."""
from __future__ import annotations

import pytest

from engine.match import BatchInputError, Match
from engine.store import ConflictError, EventStore


def _match(db_url):
    store = EventStore.open(db_url)
    return store, Match.create(store, "table", ["Ann", "Bob"])


def test_a_batch_is_stored_whole_after_the_event_it_was_judged_against(db_url):
    store, m = _match(db_url)
    head = store.head(m.id)
    batch = m.judge_batch([("setup", {"player": "Ann", "zone": "deck", "count": 1}, "Ann"),
                           ("move", {"player": "Ann", "from_zone": "deck", "to_zone": "hand"}, "Ann"),
                           ("move", {"player": "Ann", "from_zone": "deck", "to_zone": "hand"}, "Ann")],
                          after=head, recorded_by="t")
    assert store.head(m.id).position == 1  # judging stores nothing
    assert [(k, [f.rule for f in fs]) for k, fs in batch.errors()] == [(2, ["TABLE-1"])]
    recs = m.store_batch(batch, after=head)
    assert [r.event.position for r in recs] == [2, 3, 4] and recs[2].findings[0].position == 4
    assert m.state().state_hash() == batch.state.state_hash()


def test_a_batch_after_a_moved_log_stores_nothing(db_url):
    store, m = _match(db_url)
    head = store.head(m.id)
    batch = m.judge_batch([("note", {"text": "a"}, "-"), ("note", {"text": "b"}, "-")], after=head)
    Match(store, m.id).record("note", {"text": "the other recorder"})
    with pytest.raises(ConflictError):
        m.store_batch(batch, after=head)
    assert [e.payload.get("text") for e in m.events()[1:]] == ["the other recorder"]


def test_malformed_input_names_the_item_and_a_batch_may_refer_to_itself(db_url):
    store, m = _match(db_url)
    head = store.head(m.id)
    with pytest.raises(BatchInputError) as err:
        m.judge_batch([("note", {"text": "ok"}, "-"), ("draw", {"player": "Cid"}, "-")], after=head)
    assert err.value.item == 1 and err.value.field == "payload.player"
    batch = m.judge_batch([("judge.call", {"caller": "Ann"}, "judge:Kim"),
                           ("judge.ruling", {"text": "fine", "call": 2}, "judge:Kim")], after=head)
    assert [r.event.kind for r in m.store_batch(batch, after=head)] == ["judge.call", "judge.ruling"]
