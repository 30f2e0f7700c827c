"""QA (low): after a judge decided a match's time again on the web, the tournament's result taken from
that match still rested on the old decision, and taking it again needed the terminal (`tablejudge
tournament result T --match M --round R --overwrite --reason ...`). The desk's warning now offers it
to a judge or the organizer ("Take the result from match M"): the same record_matches, the link's
actor on the event, the reason kept; other roles are refused and nothing is stored."""
from __future__ import annotations

import html
import re

from engine.store import EventStore
from judge.web.auth import Signer
from tests.web.decide_setup import result_out_of_date
from tests.web.matchsetup import mint
from tests.web.server import SECRET
from tests.web.test_decide_again import form_of


def decided_again_on_the_web(api, server) -> tuple[str, str, str]:
    """A result taken from a match, a correction that leaves its time decision out of date, and judge
    Kim's "Decide again" confirmed on the web. (tid, match, Kim's token.)"""
    tid, mid = result_out_of_date(api, server.db)
    kim = mint(api, tid, "judge", "Kim")
    basis = next(w for w in api.get(f"/api/t/{tid}/warnings").json() if w["kind"] == "result-basis")
    assert "take_from" not in basis  # waiting for a decision: taking it now would take nothing
    assert "data-take-again" not in api.http.get(f"/t/{tid}", params={"k": kim}).text
    form = form_of(api.http.get(f"/m/{mid}/decide", params={"k": kim}).text)
    assert api.http.post(f"/m/{mid}/decide", data=form, follow_redirects=False).status_code == 303
    return tid, mid, kim


def results(db: str, tid: str) -> list:
    with EventStore.open(db) as store:
        return [e for e in store.read(tid) if e.kind == "result.recorded"]


def test_a_judge_takes_the_result_from_the_match_again_on_the_desk(api, server):
    tid, mid, kim = decided_again_on_the_web(api, server)
    warning = next(w for w in api.get(f"/api/t/{tid}/warnings").json() if w["kind"] == "result-basis")
    assert warning["take_from"] == {"match": mid, "round": 1, "table": 1}
    assert "decided again at event" in warning["message"]
    desk = api.http.get(f"/t/{tid}", params={"k": kim}).text
    assert f'data-take-again="{mid}">Take the result from match {mid}</button>' in desk
    before = results(server.db, tid)
    # no reason: refused in words, nothing stored
    csrf = re.search(r'name="csrf" value="([^"]+)"', desk).group(1)
    r = api.http.post(f"/t/{tid}/do/take_again", data={"k": kim, "csrf": csrf, "warning": warning["id"]})
    assert r.status_code == 422 and "the reason is required: it was empty" in r.text, r.text
    assert results(server.db, tid) == before
    r = api.http.post(f"/t/{tid}/do/take_again", follow_redirects=False,
                      data={"k": kim, "csrf": csrf, "warning": warning["id"], "reason": "decided again on the web"})
    assert r.status_code == 303, r.text
    new = results(server.db, tid)[-1]
    assert len(results(server.db, tid)) == len(before) + 1
    assert new.actor == "judge:Kim" and "judge Kim" in new.recorded_by
    assert new.payload["reason"] == "decided again on the web" and new.payload["matches"] == [mid]
    assert new.payload["based_on"][0]["position"] > before[-1].payload["based_on"][0]["position"]
    assert not [w for w in api.get(f"/api/t/{tid}/warnings").json() if w["kind"].startswith("result-")]
    assert "taken again from match" in html.unescape(api.http.get(r.headers["location"]).text)
    # settled: the same form again is refused in words, nothing more stored
    r = api.post(f"/api/t/{tid}/do/take_again", {"warning": warning["id"], "reason": "again"}, token=kim)
    assert r.status_code == 422 and "settled already" in r.json()["error"], r.text
    assert len(results(server.db, tid)) == len(before) + 1


def test_only_a_judge_or_the_organizer_may_take_it_again(api, server):
    tid, mid, _ = decided_again_on_the_web(api, server)
    warning = next(w for w in api.get(f"/api/t/{tid}/warnings").json() if w["kind"] == "result-basis")
    keeper = mint(api, tid, "scorekeeper", "Sam")
    desk = api.http.get(f"/t/{tid}", params={"k": keeper}).text
    assert "decided again at event" in html.unescape(desk) and "data-take-again" not in desk
    before = results(server.db, tid)
    r = api.http.post(f"/t/{tid}/do/take_again", data={"k": keeper, "csrf": Signer(SECRET).csrf(keeper),
                                                        "warning": warning["id"], "reason": "x"})
    assert r.status_code == 403 and "take a table's result from its match again" in html.unescape(r.text), r.text
    r = api.post(f"/api/t/{tid}/do/take_again", {"warning": warning["id"], "reason": "x"}, token=keeper)
    assert r.status_code == 403, r.text
    assert results(server.db, tid) == before
    # the organizer may (the API, as the form); a warning with nothing to take is refused in words
    r = api.post(f"/api/t/{tid}/do/take_again", {"warning": "stale-bracket:0", "reason": "x"})
    assert r.status_code == 422 and "no open warning" in r.json()["error"], r.text
    r = api.post(f"/api/t/{tid}/do/take_again", {"warning": warning["id"], "reason": "the organizer's"})
    assert r.status_code == 200, r.text
    assert results(server.db, tid)[-1].actor == "organizer"


def test_the_message_names_the_match_or_says_none_is_named(monkeypatch):
    """The answer's words built from the event: a payload naming no match said "from match  (#N)"."""
    from types import SimpleNamespace

    from judge.web import actions

    def taken(payload):
        event = SimpleNamespace(payload={"round": 1, "table": 2, **payload}, position=9)
        monkeypatch.setattr(actions.placings, "take_again", lambda t, w, r: event)
        return actions._take_again(None, None, None, {"warning": "result-basis:1", "reason": "x"})["message"]

    assert taken({"matches": ["3f2a"]}) == "round 1 table 2: the result taken again from match 3f2a (#9)"
    assert taken({"matches": ["3f2a", "77b0"]}) == "round 1 table 2: the result taken again from matches 3f2a, 77b0 (#9)"
    assert taken({}) == "round 1 table 2: the result taken again from its match (#9)"
