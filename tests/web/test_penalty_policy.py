"""QA77 #6 on the web desk: the penalty form's free infraction on a game whose guide is not Bandai's
(op2009) is recorded under policy `none` and shown so, never as `bandai`; optcg's stays `bandai`."""
from __future__ import annotations

from engine.match import Match
from engine.store import EventStore
from tests.web.conftest import new_event
from tests.web.matchsetup import mint, optcg_event


def penalty_on(api, server, tid: str, mid: str) -> dict:
    r = api.post(f"/api/m/{mid}/do/penalty", {"player": "Player 01", "infraction": "Game Play Error",
                                                "penalty": "Caution"}, token=mint(api, tid, "judge", "Kim"))
    assert r.status_code == 200, r.text
    with EventStore.open(server.db) as store:
        return Match(store, mid).events()[r.json()["position"] - 1].payload


def test_the_penalty_form_records_the_games_policy(api, server):
    tid = new_event(api, 4)  # op2009: the generic guide, whose policy is mtg-ipg
    api.do(tid, "pair")
    mid = api.do(tid, "create_matches")["matches"]["1"]
    assert penalty_on(api, server, tid, mid)["policy"] == "none"
    shown = api.get(f"/api/m/{mid}").json()["events"][-1]
    assert "policy none" in str(shown) and "bandai" not in str(shown)
    tid, matches = optcg_event(api)
    assert penalty_on(api, server, tid, matches[1]).get("policy", "bandai") == "bandai"
