"""The player's table page in a player's words (a real server, the page's own forms): a judge call
says where the judge comes and what the call says, never the log's event number; every result on
the page reads from the player's own side once they said who they are."""
from __future__ import annotations

import html as htmllib
import re

from tests.web.conftest import new_event, player_tokens


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def status_line(html: str) -> str:
    found = re.search(r'id="status">(.*?)</div>', html, re.S).group(1)
    return htmllib.unescape(re.sub(r"\s+", " ", found)).strip()


def test_a_judge_call_is_told_in_a_players_words(api):
    tid = new_event(api, 4)
    api.do(tid, "pair")
    t1 = api.get(f"/api/t/{tid}/tables").json()[0]
    k = player_tokens(api, tid)[1]
    page = api.http.get(f"/t/{tid}/play", params={"k": k, "me": t1["player1"]}).text
    r = api.http.post(f"/t/{tid}/play/call", data={"k": k, "csrf": csrf_of(page), "player": t1["player1"],
                                                   "reason": "my opponent drew two cards"})
    assert r.status_code == 200, r.text
    said = re.search(r'<div class="flash" role="status">(.*?)</div>', r.text, re.S).group(1)
    assert said == "A judge is called to table 1 (“my opponent drew two cards”): stay at your table"
    assert "event" not in said


def test_every_result_on_the_page_reads_from_the_players_own_side(api):
    tid = new_event(api, 4)
    api.do(tid, "pair")
    t1 = api.get(f"/api/t/{tid}/tables").json()[0]
    p1, p2 = t1["player1"], t1["player2"]
    k = player_tokens(api, tid)[1]
    # the scorekeeper's slip says player 2 won; player 1 reports a win: the judges' queue
    assert api.post(f"/api/t/{tid}/results", {"table": 1, "result": "0-2"}).status_code == 200
    page = api.http.get(f"/t/{tid}/play", params={"k": k, "me": p1}).text
    r = api.http.post(f"/t/{tid}/play", data={"k": k, "csrf": csrf_of(page), "player": p1, "result": "2-0-0"})
    assert r.status_code == 200 and 'class="status disputed"' in r.text, r.text
    for me, other, mine in ((p1, p2, "0-2-0"), (p2, p1, "2-0-0")):
        html = api.http.get(f"/t/{tid}/play", params={"k": k, "me": me}).text
        assert status_line(html) == f"disputed: judges' queue: {me} {mine} {other}"
        assert f"recorded {mine} (your games first)" in html
    # someone who has not said who they are sees the table's order
    assert status_line(api.http.get(f"/t/{tid}/play", params={"k": k}).text) == \
        f"disputed: judges' queue: {p1} 0-2-0 {p2}"
