"""QA86: a result taken from a match whose time decision the head judge then overturned on appeal
(`result-appealed`), on the desk. While the match still gives the overturned decision, "Take the
result from match M" is not offered and `take_again` is refused with what to do first (#2: it said
"taken again" of the old result, storing nothing)."""
from __future__ import annotations

import html
import re

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


def slip_of(db: str, tid: str) -> str:
    """Table 1's standing result as the grid takes it (W-L-D, its first player's)."""
    p = results(db, tid)[-1].payload
    return f"{p['wins1']}-{p['wins2']}-{p.get('draws', 0)}"


def test_a_scorekeeper_does_not_settle_the_head_judges_warning_by_entering_a_result(api, server):
    """QA86 1: Sam's scorekeeper link re-entered the result the head judge overturned (`overwrite`, a
    reason): 200 "overwritten", the warning gone, and the round closed on it. A result entered over
    the warning is taken as the head judge's: a judge or the organizer enters it. Refused (403) in
    words for the API, the grid's form and another result alike, and an undo, nothing stored; Kim's
    judge link may."""
    tid, mid, decision = appealed(api, server.db)
    sam, kim = mint(api, tid, "scorekeeper", "Sam"), mint(api, tid, "judge", "Kim")
    warning = next(w for w in api.get(f"/api/t/{tid}/warnings").json() if w["kind"] == "result-appealed")
    same = slip_of(server.db, tid)
    other = "-".join([same.split("-")[1], same.split("-")[0], "0"])
    before = results(server.db, tid)
    for result in (same, other):
        r = api.post(f"/api/t/{tid}/results", {"table": 1, "result": result, "overwrite": True,
                                                "reason": "slip says so"}, token=sam)
        assert r.status_code == 403, r.text
        said = r.json()["error"]
        assert f"has a warning a judge settles ({warning['id']})" in said, said
        assert "a judge or the organizer enters the head judge's result" in said and "call a judge" in said, said
        assert results(server.db, tid) == before
    desk = api.http.get(f"/t/{tid}/grid", params={"k": sam}).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', desk).group(1)
    r = api.http.post(f"/t/{tid}/do/record_results", data={"k": sam, "csrf": csrf, "entry": f"1 {other}",
                                                            "overwrite": "1", "reason": "slip"})
    assert r.status_code == 403 and "a warning a judge settles" in html.unescape(r.text), r.text
    assert results(server.db, tid) == before
    # nor by undoing it (then entering the table afresh, after the appeal: taken as the head judge's)
    with EventStore.open(server.db) as store:
        position = store.head(tid).position
    r = api.post(f"/api/t/{tid}/do/undo_result", {"table": 1}, token=sam)
    assert r.status_code == 403 and "a warning a judge settles" in r.json()["error"], r.text
    with EventStore.open(server.db) as store:
        assert store.head(tid).position == position
    assert any(w["id"] == warning["id"] for w in api.get(f"/api/t/{tid}/warnings").json())
    # the judge enters the head judge's result: recorded, the warning settled
    r = api.post(f"/api/t/{tid}/results", {"table": 1, "result": other, "overwrite": True,
                                            "reason": f"appeal, match {mid} event {decision + 1}"}, token=kim)
    assert r.status_code == 200, r.text
    assert len(results(server.db, tid)) == len(before) + 1
    assert not [w for w in api.get(f"/api/t/{tid}/warnings").json() if w["kind"] == "result-appealed"]
