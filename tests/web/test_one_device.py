"""Both reports of a table from one browser (a real server, the player's page's own forms, each phone
its own cookie jar): the result stands, and the staff's round page and judges' queue flag it for a judge
to look; reports from two browsers are not flagged. The event keeps only the browser's random id."""
from __future__ import annotations

import re

import httpx

from engine.store import EventStore
from tests.web.conftest import new_event, player_tokens
from tests.web.matchsetup import mint
from tests.web.test_player_page import csrf_of

FLAG = "both reports of table {} came from one device"


def _report(phone: httpx.Client, tid: str, k: str, me: str, result: str) -> None:
    page = phone.get(f"/t/{tid}/play", params={"k": k, "me": me})
    assert page.status_code == 200, page.text
    r = phone.post(f"/t/{tid}/play", data={"k": k, "csrf": csrf_of(page.text), "player": me, "result": result})
    assert r.status_code == 200, r.text


def _reports(server, tid: str) -> list[dict]:
    """The tournament's `result.reported` payloads, as stored."""
    with EventStore.open(server.db) as store:
        return [e.payload for e in store.read(tid) if e.kind == "result.reported"]


def test_a_table_reported_and_confirmed_from_one_browser_is_flagged_and_stands(server, api):
    tid = new_event(api, 4)
    api.do(tid, "pair")
    t1, t2 = api.get(f"/api/t/{tid}/tables").json()
    tokens = player_tokens(api, tid)
    one, other, third = (httpx.Client(base_url=api.url, timeout=30) for _ in range(3))
    try:
        first = one.get(f"/t/{tid}/play", params={"k": tokens[1]})
        cookie = first.headers["set-cookie"]
        assert cookie.startswith("tj_device=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
        _report(one, tid, tokens[1], t1["player1"], "2-0-0")  # table 1: one phone handed around
        _report(one, tid, tokens[1], t1["player2"], "0-2-0")
        _report(other, tid, tokens[2], t2["player1"], "2-1-0")  # table 2: each player's own phone
        _report(third, tid, tokens[2], t2["player2"], "1-2-0")
        device = one.cookies["tj_device"]
    finally:
        for c in (one, other, third):
            c.close()
    tables = {v["table"]: v for v in api.get(f"/api/t/{tid}/tables").json()}
    assert tables[1]["status"] == tables[2]["status"] == "confirmed"  # the result stands either way
    assert tables[1]["one_device_flag"] == FLAG.format(1) and tables[2]["one_device_flag"] is None
    # the events keep the random id the browser sent, and nothing else about it
    reported = _reports(server, tid)
    assert [p.get("device") for p in reported if p["table"] == 1] == [device, device]
    assert len({p["device"] for p in reported if p["table"] == 2}) == 2
    assert all(set(p) <= {"round", "table", "player", "wins1", "wins2", "draws", "device"} for p in reported)
    judge, scorekeeper = mint(api, tid, "judge", "Kim"), mint(api, tid, "scorekeeper", "Sam")
    for k in (judge, scorekeeper):
        for path in (f"/t/{tid}/round/1", f"/t/{tid}/queue"):
            html = api.http.get(path, params={"k": k}).text
            assert FLAG.format(1) in html and 'data-one-device="1"' in html, path
            assert FLAG.format(2) not in html and 'data-one-device="2"' not in html, path
    queue = api.get(f"/api/t/{tid}/queue").json()
    assert [(q["type"], q["table"]) for q in queue if q["type"] == "one_device"] == [("one_device", 1)]


def test_a_cookie_not_of_ours_is_no_device_and_gets_replaced(server, api):
    tid = new_event(api, 4)
    api.do(tid, "pair")
    t1 = api.get(f"/api/t/{tid}/tables").json()[0]
    k = player_tokens(api, tid)[1]
    with httpx.Client(base_url=api.url, timeout=30, cookies={"tj_device": "192.168.1.7"}) as phone:
        page = phone.get(f"/t/{tid}/play", params={"k": k, "me": t1["player1"]})
        assert re.match(r"tj_device=[A-Za-z0-9_-]{22};", page.headers["set-cookie"])
        phone.cookies.clear()
        phone.cookies.set("tj_device", "192.168.1.7")
        r = phone.post(f"/t/{tid}/play", data={"k": k, "csrf": csrf_of(page.text), "player": t1["player1"],
                                                "result": "2-0-0"})
        assert r.status_code == 200, r.text
    assert ["device" in p for p in _reports(server, tid)] == [False]
