"""A judge call sent twice from the same page stores one call, on every page with a call button
(QA 2026-11-27: the table's QR page sent no `seen`, so a double tap stored two calls; the
recorder's is tested in test_undo_call.py). The page's form is posted as the browser posts it:
its own hidden fields, `seen` among them. Both players of a table share its QR link: one's call
does not swallow the other's, and a call after the page came back is a new call."""
from __future__ import annotations

import re

from tests.web.conftest import new_event, player_tokens
from tests.web.matchsetup import optcg_event


def call_form(api, tid: str, token: str, me: str) -> dict[str, str]:
    """The hidden fields of the QR page's "Call a judge" form, as the page gives them."""
    html = api.http.get(f"/t/{tid}/play", params={"k": token, "me": me}).text
    form = re.search(r'<form[^>]*action="/t/[^"]+/play/call".*?</form>', html, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def calls(api, tid: str) -> list[tuple[str, str]]:
    return [(c["caller"], c["reason"]) for c in api.get(f"/api/t/{tid}/calls").json()]


def post(api, tid: str, form: dict[str, str], reason: str):
    r = api.http.post(f"/t/{tid}/play/call", data={**form, "reason": reason})
    assert r.status_code == 200, r.text
    return r.text


def test_a_double_tap_on_the_qr_pages_call_stores_one_call(api, server):
    tid, _ = optcg_event(api)
    token = player_tokens(api, tid)[1]
    table = api.get(f"/api/t/{tid}/tables").json()[0]
    one, two = table["player1"], table["player2"]
    form = call_form(api, tid, token, one)
    post(api, tid, form, "he looked at my Life")
    second = post(api, tid, form, "he looked at my Life")  # the same page, tapped again
    assert calls(api, tid) == [(one, "he looked at my Life")]
    assert "already called" in second
    # the opponent, on the same link with a page shown before that call: their own call stands
    post(api, tid, call_form(api, tid, token, two) | {"seen": form.get("seen", "")}, "slow play")
    # a fresh `seen` (a reloaded page) while their call is open: still one call (it stored a second).
    # The reloaded page itself offers no call now (test_queue_answer.py); a tab loaded earlier, its
    # `seen` the head now, is what could still send one
    mid = api.get(f"/api/t/{tid}/calls").json()[0]["match"]
    head = len(api.get(f"/api/m/{mid}").json()["events"])
    again = post(api, tid, form | {"seen": str(head)}, "again")
    assert re.search(r"A judge is already called to table 1, called at \d\d:\d\d \S+ \(nothing more sent\)", again)
    assert calls(api, tid) == [(one, "he looked at my Life"), (two, "slow play")]
    # once a judge answered it, a new call is a new call
    mid = api.get(f"/api/t/{tid}/calls").json()[0]["match"]
    first = api.get(f"/api/t/{tid}/calls").json()[0]["position"]
    assert api.post(f"/api/m/{mid}/do/ruling", {"text": "play on", "call": first}).status_code == 200
    post(api, tid, call_form(api, tid, token, one), "again")
    assert calls(api, tid) == [(two, "slow play"), (one, "again"), (one, "he looked at my Life")]  # open first


def test_a_players_api_call_while_their_call_is_open_stores_nothing(api, server):
    """The API as the QR page: a player's second call with a fresh `seen` (or none) while their
    first is open is not stored; the answer names the table and when the standing call was made."""
    tid, matches = optcg_event(api)
    token = player_tokens(api, tid)[1]
    one = api.get(f"/api/t/{tid}/tables").json()[0]["player1"]
    mid = matches[1]
    first = api.post(f"/api/m/{mid}/do/call", {"player": one, "reason": "he looked at my Life"}, token=token)
    assert first.status_code == 200, first.text
    seen = len(api.get(f"/api/m/{mid}").json()["events"])  # the head a reloaded page shows
    for fields in ({"player": one}, {"player": one, "seen": seen, "reason": "again"}):
        r = api.post(f"/api/m/{mid}/do/call", fields, token=token)
        assert r.status_code == 200 and r.json()["position"] == first.json()["position"], r.text
        assert re.match(r"a judge is already called to table 1, called at \d\d:\d\d", r.json()["message"]), r.text
    assert calls(api, tid) == [(one, "he looked at my Life")]


def test_a_double_tap_stores_one_call_when_the_call_creates_the_tables_match(api, server):
    tid = new_event(api, 4, game="optcg", policy="bandai")
    api.do(tid, "pair")  # no recorded match yet: the first call makes one
    token = player_tokens(api, tid)[1]
    me = api.get(f"/api/t/{tid}/tables").json()[0]["player1"]
    form = call_form(api, tid, token, me)
    post(api, tid, form, "")
    post(api, tid, form, "")
    assert calls(api, tid) == [(me, "")]
    assert form["seen"] == "0"
    # the opponent's own call, no play recorded yet: about the match's start, never about the first
    # call (QA70 #4: "calls a judge about event 2", the head, when no game event was there)
    other = api.get(f"/api/t/{tid}/tables").json()[0]["player2"]
    post(api, tid, call_form(api, tid, token, other), "")
    assert [(c["caller"], c["at"]) for c in api.get(f"/api/t/{tid}/calls").json()] == [(me, 1), (other, 1)]


def test_a_confirmed_table_offers_a_judge_call_not_a_new_report(api, server):
    """QA70 #8: after both players confirmed, the shared link still said "Report again" with the
    result buttons, and a tap sent the confirmed table to the queue. A change now goes through a
    judge: the page offers the call and no report buttons."""
    tid, _ = optcg_event(api)
    token = player_tokens(api, tid)[1]
    table = api.get(f"/api/t/{tid}/tables").json()[0]
    for who in (table["player1"], table["player2"]):
        won = "1-0" if who == table["player1"] else "0-1"
        assert api.post(f"/api/t/{tid}/report", {"player": who, "result": won}, token=token).status_code == 200
    html = api.http.get(f"/t/{tid}/play", params={"k": token, "me": table["player2"]}).text
    assert "Report again" not in html and 'name="result"' not in html, html
    assert 'id="call-judge"' in html and "goes through a judge" in html


def test_the_queue_api_lists_the_calls_and_the_disputes_its_page_shows(api, server):
    """QA: /api/t/T/queue listed the disputed tables only, while the judges' queue page also shows
    the judge calls. It lists both now, each with a `type`, the fields as /calls and before."""
    tid, _ = optcg_event(api, players=4)
    links = player_tokens(api, tid)
    one = api.get(f"/api/t/{tid}/tables").json()[0]["player1"]
    post(api, tid, call_form(api, tid, links[1], one), "he looked at my Life")
    t2 = api.get(f"/api/t/{tid}/tables").json()[1]
    for who in (t2["player1"], t2["player2"]):  # both say they won: a dispute
        assert api.post(f"/api/t/{tid}/report", {"player": who, "result": "1-0"}, token=links[2]).status_code == 200
    items = api.get(f"/api/t/{tid}/queue").json()
    # both reports came from this one client's cookie jar: the table is flagged as one device too
    assert [x["type"] for x in items] == ["call", "dispute", "one_device"]
    assert {k: v for k, v in items[0].items() if k != "type"} == api.get(f"/api/t/{tid}/calls").json()[0]
    # QA73 6: a call gave round and table as strings ("1"), a dispute as numbers: numbers in every item
    assert [(x["round"], x["table"]) for x in items] == [(1, 1), (1, 2), (1, 2)]
    assert items[1]["table"] == 2 and set(items[1]["reports"]) == {t2["player1"], t2["player2"]}
    page = api.http.get(f"/t/{tid}/queue", params={"k": api.token}).text
    assert 'data-call="' in page and 'data-queue-table="2"' in page  # the page shows the same two
