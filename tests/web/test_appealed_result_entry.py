"""QA86: a result taken from a match whose time decision the head judge then overturned on appeal
(`result-appealed`), on the desk. While the match still gives the overturned decision, "Take the
result from match M" is not offered and `take_again` is refused with what to do first (#2: it said
"taken again" of the old result, storing nothing)."""
from __future__ import annotations

from engine.match import Match
from engine.store import EventStore
from judge.desk.timelimit import run
from tests.conftest import run_in_process
from tests.web.decide_setup import played
from tests.web.matchsetup import mint
from tests.web.test_take_again import results


def appealed(api, db: str) -> tuple[str, str, int]:
    """`played`, decided at the terminal (Ann wins), the result taken from the match, then the head
    judge overturns the decision on appeal. (tid, match, the decision's position.)"""
    tid, mid = played(api, db)
    with EventStore.open(db) as store:
        decision = run(Match(store, mid)).recorded.position
    code, out, err = run_in_process(db, "tournament", "result", tid, "--match", mid)
    assert code == 0, out + err
    code, out, err = run_in_process(db, "judge", "appeal", mid, str(decision), "--judge", "Rita", "--decision",
                                    "overturned", "--text", "Bob wins: the life count was misread")
    assert code == 0, out + err
    return tid, mid, decision


def test_taking_the_overturned_decision_again_is_not_offered_and_refused_in_words(api, server):
    tid, mid, decision = appealed(api, server.db)
    warning = next(w for w in api.get(f"/api/t/{tid}/warnings").json() if w["kind"] == "result-appealed")
    assert "take_from" not in warning, warning  # the match gives the overturned decision: nothing to take
    kim = mint(api, tid, "judge", "Kim")
    assert "data-take-again" not in api.http.get(f"/t/{tid}", params={"k": kim}).text
    before = results(server.db, tid)
    r = api.post(f"/api/t/{tid}/do/take_again", {"warning": warning["id"], "reason": "from the match"}, token=kim)
    assert r.status_code == 422, r.text
    said = r.json()["error"]
    assert f"match {mid} still gives the time decision the head judge overturned on appeal (event {decision}" in said
    assert f"void event {decision} and decide again first (`tablejudge log {mid} correction" in said, said
    assert "nothing was recorded" in said
    assert results(server.db, tid) == before
    assert any(w["id"] == warning["id"] for w in api.get(f"/api/t/{tid}/warnings").json())
