"""The judges' desk on a real server, beyond the call's forms: end of time on a table nobody
recorded (a judge types what the table shows and gets the decision with its steps and the rule; the
time call and the decision are stored with the judge as actor and the facts in the payload) and the
appeals file; anyone but a judge is refused, with nothing stored."""
from __future__ import annotations

from tests.web.conftest import player_tokens
from tests.web.matchsetup import mint, optcg_event


def desk(api):
    """An optcg event's table 1 match, and a judge's, a scorekeeper's and a player's links."""
    tid, matches = optcg_event(api)
    return matches[1], mint(api, tid, "judge", "Kim"), mint(api, tid, "scorekeeper", "Lia"), \
        player_tokens(api, tid)[1]


def test_a_judge_decides_a_table_nobody_recorded_and_nobody_else_may(api, server):
    m1, judge, sk, player = desk(api)
    head = api.get(f"/api/m/{m1}", token=judge).json()["match"]["head"]
    for token in (sk, player):
        r = api.post(f"/api/m/{m1}/do/time", {"facts": "turn=3 life=2-3"}, token=token)
        assert r.status_code == 403, r.text
    assert api.get(f"/api/m/{m1}", token=judge).json()["match"]["head"] == head  # nothing stored
    r = api.post(f"/api/m/{m1}/do/time", {"facts": "turn=3 lif=2-3"}, token=judge)
    assert r.status_code == 422 and "unknown fact 'lif'" in r.text and "column 8" in r.text
    r = api.post(f"/api/m/{m1}/do/time", {"facts": "turn=3 life=2-3<script>", "clock": "15:40"}, token=judge)
    assert r.status_code == 422 and "not a whole number" in r.text
    assert api.get(f"/api/m/{m1}", token=judge).json()["match"]["head"] == head
    r = api.post(f"/api/m/{m1}/do/time", {"facts": "turn=3 life=2-3", "clock": "15:40"}, token=judge)
    assert r.status_code == 200, r.text
    out = r.json()
    assert "win: " in out["message"] and "wins" in out["message"]
    assert any("Life cards:" in s for s in out["steps"]) and out["rule"] and out["en"]
    events = api.get(f"/api/m/{m1}", token=judge).json()["events"]
    called, decision = events[-2], events[-1]
    assert (called["kind"], decision["kind"]) == ("time.called", "time.decision")
    assert decision["actor"] == "judge:Kim"


def test_the_call_page_offers_the_end_of_time_form_with_the_rulesets_facts(api, server):
    tid, matches = optcg_event(api)
    m1 = matches[1]
    judge = mint(api, tid, "judge", "Kim")
    r = api.post(f"/api/m/{m1}/do/call", {"reason": "time"}, token=judge)
    assert r.status_code == 200, r.text
    page = api.http.get(f"/m/{m1}/call/{r.json()['position']}", params={"k": judge})
    assert page.status_code == 200
    assert 'id="time-form"' in page.text and "extra turns over since turn 0" in page.text
    # the htmx answer lists the steps under the decision
    form = {"facts": "turn=3 life=2-2 deck=20-18", "k": judge}
    csrf = page.text.split('name="csrf" value="')[1].split('"')[0]
    r = api.http.post(f"/m/{m1}/do/time", data=dict(form, csrf=csrf), headers={"hx-request": "true"})
    assert r.status_code == 200, r.text
    assert 'id="time-steps"' in r.text and "cards in the deck" in r.text


def test_the_appeals_file_is_for_judges(api, server):
    m1, judge, sk, player = desk(api)
    call = api.post(f"/api/m/{m1}/do/call", {"reason": "<i>time</i>"}, token=judge).json()["position"]
    assert api.post(f"/api/m/{m1}/do/ruling", {"text": "play on", "rule": "OPTCG-FLOW-1", "call": call},
                    token=judge).status_code == 200
    page = api.http.get(f"/m/{m1}/call/{call}", params={"k": judge})
    assert 'id="appeals-link"' in page.text
    r = api.http.get(f"/m/{m1}/appeals", params={"k": judge})
    assert r.status_code == 200 and "Appeals file" in r.text and "Incident 1" in r.text
    assert f"{server.url}/m/{m1}#e" in r.text  # deep links as full addresses
    assert "<i>time</i>" not in r.text and "&lt;i&gt;time&lt;/i&gt;" in r.text
    for token in (sk, player):
        assert api.http.get(f"/m/{m1}/appeals", params={"k": token}).status_code == 403
