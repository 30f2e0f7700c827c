"""The judges' queue's "Answered" and calls of closed rounds (QA75 3), and the player's page saying
their own standing call on every load (QA75 3: a reloaded page showed nothing of it). Real server,
the pages' own forms."""
from __future__ import annotations

import re

from tests.web.conftest import player_tokens
from tests.web.matchsetup import optcg_event
from tests.web.test_call_seen import call_form, post


def queue_answer_form(html: str, position: int) -> dict[str, str]:
    form = re.search(rf'<form[^>]*do/answer"[^>]*>(?:(?!</form>).)*name="call" value="{position}".*?</form>',
                     html, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def report_every_table(api, tid: str) -> None:
    for t in api.get(f"/api/t/{tid}/tables").json():
        assert api.post(f"/api/t/{tid}/results", {"table": t["table"], "result": "1-0"}).status_code == 200


def round_with_an_open_call(api, reason: str) -> tuple[str, str]:
    """A new event's round 1 with table 1's first player's judge call open and every table's
    result in (ready to close): its id and the caller."""
    tid, _ = optcg_event(api)
    token = player_tokens(api, tid)[1]
    one = api.get(f"/api/t/{tid}/tables").json()[0]["player1"]
    post(api, tid, call_form(api, tid, token, one), reason)
    report_every_table(api, tid)
    return tid, one


def test_a_reloaded_players_page_says_their_call_stands_and_offers_no_second_call(api, server):
    tid, _ = optcg_event(api)
    token = player_tokens(api, tid)[1]
    table = api.get(f"/api/t/{tid}/tables").json()[0]
    one, two = table["player1"], table["player2"]
    post(api, tid, call_form(api, tid, token, one), "he drew 2 cards")
    page = api.http.get(f"/t/{tid}/play", params={"k": token, "me": one}).text  # the reload
    said = re.search(r'id="my-call">(.*?)</div>', page, re.S)
    assert said and re.fullmatch(r"A judge is called to your table \(\d\d:\d\d \S+, “he drew 2 cards”\): "
                                 r"stay at your table\.", said.group(1)), page
    assert 'id="call-judge"' not in page
    # the result buttons come first, then the call: "Report your result" and its buttons are one block
    assert page.index('class="choices"') < page.index('id="my-call"')
    # the opponent has no call of their own: their page offers it
    other = api.http.get(f"/t/{tid}/play", params={"k": token, "me": two}).text
    assert 'id="call-judge"' in other and 'id="my-call"' not in other
    assert other.index('class="choices"') < other.index('id="call-judge"')
    # answered by a judge: the player may call again
    call = api.get(f"/api/t/{tid}/calls").json()[0]
    assert api.post(f"/api/m/{call['match']}/do/answer", {"call": call["position"]}).status_code == 200
    page = api.http.get(f"/t/{tid}/play", params={"k": token, "me": one}).text
    assert 'id="call-judge"' in page and 'id="my-call"' not in page


def test_a_judge_marks_a_call_answered_from_the_queue_once(api, server):
    tid, matches = optcg_event(api)
    token = player_tokens(api, tid)[1]
    one = api.get(f"/api/t/{tid}/tables").json()[0]["player1"]
    post(api, tid, call_form(api, tid, token, one), "slow play")
    judge = api.do(tid, "mint", role="judge", name="Kim")["link"].split("k=")[1]
    scorekeeper = api.do(tid, "mint", role="scorekeeper", name="Sam")["link"].split("k=")[1]
    call = api.get(f"/api/t/{tid}/calls").json()[0]
    # a scorekeeper sees the queue without the button, and the API refuses it: nothing stored
    assert "do/answer" not in api.http.get(f"/t/{tid}/queue", params={"k": scorekeeper}).text
    r = api.post(f"/api/m/{call['match']}/do/answer", {"call": call["position"]}, token=scorekeeper)
    assert r.status_code == 403 and api.get(f"/api/t/{tid}/calls").json()[0]["open"]
    # the judge's queue page, its own form (no JavaScript: a 303 back to the queue)
    html = api.http.get(f"/t/{tid}/queue", params={"k": judge}).text
    form = queue_answer_form(html, call["position"])
    r = api.http.post(f"/m/{call['match']}/do/answer", data=form, headers={"Origin": api.url})
    assert r.status_code == 303 and r.headers["location"].startswith(f"/t/{tid}/queue"), r.text
    answered = api.get(f"/api/t/{tid}/calls").json()[0]
    assert not answered["open"] and answered["answer"]["judge"] == "Kim"
    assert answered["answer"]["text"] == "answered at the table"
    rulings = [e for e in api.get(f"/api/m/{call['match']}").json()["events"] if e["kind"] == "judge.ruling"]
    assert len(rulings) == 1 and answered["answer"]["position"] == rulings[0]["p"]  # the judge its actor: "Kim"
    # a second judge's tap on the same call: refused, who answered it said, nothing stored
    r = api.post(f"/api/m/{call['match']}/do/answer", {"call": call["position"], "text": "again"})
    assert r.status_code == 422 and "already answered (judge Kim" in r.json()["error"], r.text
    assert len([e for e in api.get(f"/api/m/{call['match']}").json()["events"] if e["kind"] == "judge.ruling"]) == 1
    # without the CSRF token: refused
    r = api.http.post(f"/m/{call['match']}/do/answer", data={**form, "csrf": "x"}, headers={"Origin": api.url})
    assert r.status_code == 403


def test_an_unanswered_call_of_a_closed_round_is_listed_apart(api, server):
    tid, _ = round_with_an_open_call(api, "he drew 2 cards")
    api.do(tid, "close")
    api.do(tid, "pair")
    calls = api.get(f"/api/t/{tid}/queue").json()
    assert [(c["round"], c["open"], c["round_closed"]) for c in calls if c["type"] == "call"] == [(1, True, True)]
    html = api.http.get(f"/t/{tid}/queue", params={"k": api.token}).text
    current = html[html.index('id="calls"'):html.index("earlier-calls")]
    assert "No open call." in current and "data-call=" not in current
    earlier = html[html.index("earlier-calls"):html.index("</details>", html.index("earlier-calls"))]
    assert "1 unanswered call from closed rounds" in earlier and "he drew 2 cards" in earlier
    assert "do/answer" in earlier  # still answerable


def test_closing_a_round_with_an_open_call_asks_first_and_says_it(api, server):
    """QA76 9: the organizer's Close closed a round over table 1's open call ("slow play") and the
    desk said only "round 1 closed". The Close button's confirmation lists the open calls with
    their tables; closing still closes (a judge may have answered at the table) and says them."""
    import html as html_lib
    tid, one = round_with_an_open_call(api, "slow play")
    page = html_lib.unescape(api.http.get(f"/t/{tid}", params={"k": api.token}).text)
    close = re.search(r'<form[^>]*do/close"[^>]*>', page).group(0)
    asked = re.search(r'hx-confirm="([^"]*)"', close).group(1)
    assert re.fullmatch(rf"Close Round 1\? 1 judge call still open: table 1 \({re.escape(one)}, \d\d:\d\d \S+, "
                        r"“slow play”\): a judge answers it on the judges' queue \(answered at the table: tap "
                        r"Answered there\)\.", asked), asked
    r = api.post(f"/api/t/{tid}/do/close", {})
    assert r.status_code == 200, r.text
    assert r.json()["warnings"] and r.json()["message"] == "round 1 closed; " + r.json()["warnings"][0]
    assert "table 1 (" in r.json()["warnings"][0]


def test_closing_a_round_without_an_open_call_asks_nothing(api, server):
    tid, _ = optcg_event(api)
    report_every_table(api, tid)
    page = api.http.get(f"/t/{tid}", params={"k": api.token}).text
    assert "hx-confirm" not in re.search(r'<form[^>]*do/close"[^>]*>', page).group(0)
    r = api.post(f"/api/t/{tid}/do/close", {})
    assert r.status_code == 200 and r.json()["message"] == "round 1 closed" and r.json()["warnings"] == []


def test_answered_calls_stay_oldest_first_whatever_their_round(monkeypatch):
    """Review: the answered calls were split by whether their round was closed, so an answered
    call of round 2 (open) came before one of round 1 (closed), against "oldest first"."""
    from types import SimpleNamespace

    from judge.web.routes.staff import tournament_calls

    rounds = [SimpleNamespace(number=1, matches={1: "m1"}), SimpleNamespace(number=2, matches={1: "m2"})]
    st = SimpleNamespace(rounds=rounds, is_closed=lambda rnd: rnd.number == 1)
    calls = [{"match": "m1", "open": False, "position": 5}, {"match": "m2", "open": False, "position": 7},
             {"match": "m1", "open": True, "position": 6}, {"match": "m2", "open": True, "position": 8}]
    desk = SimpleNamespace(matches=SimpleNamespace(calls=lambda mids: calls))
    order = [(c["match"], c["position"]) for c in tournament_calls(desk, st)]
    assert order == [("m2", 8), ("m1", 6), ("m1", 5), ("m2", 7)]  # open (open round, closed), then answered
