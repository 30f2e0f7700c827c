"""300 simulated phones report 150 tables at once on a real server (SQLite): every report is
stored once (double-submitted forms included), every table confirmed once, the chain intact."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.store import EventStore
from tests.web.burst import run_burst
from tests.web.conftest import events, new_event, player_tokens

pytestmark = pytest.mark.slow


def test_a_burst_of_300_clients_stores_every_report_once(api, server):
    tid = new_event(api, 300, game="optcg")
    api.do(tid, "pair")
    tables = {t["table"]: t for t in api.get(f"/api/t/{tid}/tables").json()}
    links = player_tokens(api, tid)
    assert len(tables) == 150 == len(links)
    rng = random.Random(5)
    seats = []
    for n, t in tables.items():
        w = rng.choice(["1-0", "0-1"])
        seats.append((links[n], t["player1"], w))
        seats.append((links[n], t["player2"], w[::-1]))  # the opponent confirms in their own view
    result = run_burst(server.url, tid, seats, spread=0.0, doubles=0.1)
    assert set(result.statuses) == {200}, result.statuses
    assert sum(result.statuses.values()) > 300  # double submits happened
    kinds = Counter(e["kind"] for e in events(api, tid))
    assert kinds["result.reported"] == 300 and kinds["result.recorded"] == 150
    grid = api.get(f"/api/t/{tid}/tables").json()
    assert {t["status"] for t in grid} == {"confirmed"}
    with EventStore.open(server.db) as s:
        assert s.verify(tid).ok
