"""A judge's act at a tournament's table reaches that table's player page by the live stream: the
desk's follower publishes the table's topic (`table:R:N`) in the tournament's stream for a ruling,
a penalty, an appeal filed or decided and a correction in the table's recorded match, and nothing
there for a game event (its own pages follow the match's stream). The message names topics and a
position only: the page fetched again says what the public replay says."""
from __future__ import annotations

from engine.match import Match
from engine.store import EventStore
from judge.desk.actions import appeal_to_head_judge
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
        assert heard(q) == ["calls", "table:1:2"]  # a decision on appeal may answer a call: the queue too
        Match(store, mid).record("note", {"text": "a scorekeeper's aside"}, actor="judge:Kim", recorded_by="desk")
        desk.catch_up()
        assert heard(q) == []  # not a judge's act the page shows: the match's own stream alone


def test_deciding_a_players_appeal_refreshes_the_judges_queue(api, server):
    """The decision answers the judge call filed with the appeal (its `call`): the judges' queue
    (topic `calls`) must drop that call without a reload, as it does for a ruling answering one."""
    tid, matches = optcg_event(api)
    mid = matches[2]
    with EventStore.open(server.db) as store:
        desk = Desk(store)
        ruling = api.post(f"/api/m/{mid}/do/ruling", {"text": "the attack stands"}).json()["position"]
        m = Match(store, mid)
        filed = appeal_to_head_judge(m, appealed=ruling, player=m.players[0], reason="it was blocked")
        assert filed.call is not None
        desk.catch_up()
        q = desk.broker.subscribe(tid)
        r = api.post(f"/api/m/{mid}/do/appeal", {"appealed": str(ruling), "decision": "upheld",
                                                 "text": "the attack stands", "by": m.players[0]})
        assert r.status_code == 200, r.text
        assert "answers judge call" in r.json()["message"]
        desk.catch_up()
        assert "calls" in heard(q)
