"""A judge's act at a tournament's table reaches that table's player page by the live stream: the
desk's follower publishes the table's topic (`table:R:N`) in the tournament's stream for a ruling,
a penalty, an appeal filed or decided and a correction in the table's recorded match, and nothing
there for a game event (its own pages follow the match's stream). The message names topics and a
position only: the page fetched again says what the public replay says."""
from __future__ import annotations

from engine.match import Match
from engine.store import EventStore
from judge.web.desk import Desk
from tests.web.matchsetup import optcg_event


def heard(q) -> list[str]:
    topics: list[str] = []
    while not q.empty():
        msg = q.get_nowait()
        assert set(msg) == {"stream", "topics", "position"}, msg  # nothing of the event itself
        topics += msg["topics"]
    return topics


def test_judge_acts_at_a_table_reach_its_player_page_and_game_events_do_not(api, server):
    tid, matches = optcg_event(api)
    mid = matches[2]
    with EventStore.open(server.db) as store:
        desk = Desk(store)
        q = desk.broker.subscribe(tid)
        ruling = api.post(f"/api/m/{mid}/do/ruling", {"text": "the attack stands"}).json()["position"]
        desk.catch_up()
        assert "table:1:2" in heard(q)
        r = api.post(f"/api/m/{mid}/do/appeal", {"appealed": str(ruling), "decision": "overturned",
                                                 "text": "the blocker was active"})
        assert r.status_code == 200, r.text
        desk.catch_up()
        assert heard(q) == ["table:1:2"]  # a decision on appeal: the table's page, no call in the queue
        Match(store, mid).record("note", {"text": "a scorekeeper's aside"}, actor="judge:Kim", recorded_by="desk")
        desk.catch_up()
        assert heard(q) == []  # not a judge's act the page shows: the match's own stream alone
