"""EventStore.create_many: several new streams in one transaction (a file with several games, a bulk
import's batch), all or none, on SQLite and PostgreSQL."""
from __future__ import annotations

import pytest

from engine.events import Draft
from engine.match import creation_draft
from engine.store import ConflictError


def stream(n: int) -> list[Draft]:
    return [creation_draft("table", ["Ann", "Bob"], recorded_by="t")] + \
        [Draft("note", 1, "-", {"text": f"note {i}"}, "t") for i in range(n)]


def test_streams_are_created_together_each_its_own_chain(store):
    made = store.create_many([("m-one", stream(2)), ("m-two", stream(3))])
    assert [len(e) for e in made] == [3, 4]
    assert sorted(store.match_ids()) == ["m-one", "m-two"]
    for match in ("m-one", "m-two"):
        assert store.verify(match).ok
    assert store.created("m-two") == made[1][0]


def test_one_taken_id_stores_none_of_the_batch(store):
    store.create("m-old", stream(1))
    with pytest.raises(ConflictError):
        store.create_many([("m-new", stream(2)), ("m-old", stream(1))])
    assert store.match_ids() == ["m-old"]
    assert store.head("m-new") is None and store.head("m-old").position == 2


def test_a_batch_must_be_streams(store):
    with pytest.raises(ValueError):
        store.create_many([("m", [Draft("note", 1, "-", {"text": "no head"}, "t")])])
    with pytest.raises(ValueError):
        store.create_many([("m", stream(0)), ("m", stream(0))])
    assert store.match_ids() == []
