"""The player's table page in a player's words (a real server, the page's own forms): a judge call
says where the judge comes and what the call says, never the log's event number; every result on
the page reads from the player's own side once they said who they are."""
from __future__ import annotations

import html as htmllib
import re
from html.parser import HTMLParser

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


def test_a_judge_call_with_a_stale_csrf_token_says_reload_then_call_again(api):
    """A judge call refused for its CSRF token (a page from before the server's secret changed, or
    a form from elsewhere) ended "Check your result and tap again": the same tap is refused the same,
    and it was no result. It says what to do: reload the page, then call again."""
    tid = new_event(api, 4)
    api.do(tid, "pair")
    t1 = api.get(f"/api/t/{tid}/tables").json()[0]
    k = player_tokens(api, tid)[1]
    before = len(api.get(f"/api/t/{tid}/audit").json())
    r = api.http.post(f"/t/{tid}/play/call", data={"k": k, "csrf": "stale", "player": t1["player1"]})
    assert r.status_code == 403, r.text
    said = re.sub(r"\s+", " ", htmllib.unescape(re.search(r'id="refusal">(.*?)</div>', r.text, re.S).group(1)))
    assert said.endswith("Nothing was stored. Reload the page, then call a judge again; if this happens again, "
                         "ask a judge."), said
    assert "tap again" not in said and "result" not in said
    assert len(api.get(f"/api/t/{tid}/audit").json()) == before
    # a report's refusal says the same for a report
    r = api.http.post(f"/t/{tid}/play", data={"k": k, "csrf": "stale", "player": t1["player1"], "result": "2-0-0"})
    assert r.status_code == 403 and "Reload the page, then report again" in r.text, r.text


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


def test_a_confirmed_table_refuses_a_players_new_report(api):
    """QA70 #8: the page no longer offered "Report again" after both players confirmed, but the
    server still took a report from the shared link and turned the table into a dispute. It is
    refused (409, in words, nothing stored) from the page and the API; a judge still decides."""
    tid = new_event(api, 4)
    api.do(tid, "pair")
    t1 = api.get(f"/api/t/{tid}/tables").json()[0]
    p1, p2 = t1["player1"], t1["player2"]
    k = player_tokens(api, tid)[1]
    for who, won in ((p1, "2-0"), (p2, "0-2")):
        assert api.post(f"/api/t/{tid}/report", {"player": who, "result": won}, token=k).status_code == 200
    before = len(api.get(f"/api/t/{tid}/audit").json())
    said = "table 1's result is confirmed (2-0-0, " + p1 + "'s games first): a change now goes through a judge — call one"
    page = api.http.get(f"/t/{tid}/play", params={"k": k, "me": p2}).text
    r = api.http.post(f"/t/{tid}/play", data={"k": k, "csrf": csrf_of(page), "player": p2, "result": "2-0-0"})
    assert r.status_code == 409 and said in htmllib.unescape(r.text), r.text
    assert "Call a judge with the button below" in r.text and 'id="call-judge"' in r.text
    r = api.post(f"/api/t/{tid}/report", {"player": p1, "result": "0-2"}, token=k)
    assert r.status_code == 409 and r.json()["message"] == said, r.text
    assert len(api.get(f"/api/t/{tid}/audit").json()) == before
    assert api.get(f"/api/t/{tid}/tables").json()[0]["status"] == "confirmed"
    # the organizer (or a judge) changes it with a reason, as before
    r = api.post(f"/api/t/{tid}/results", {"table": 1, "result": "0-2", "overwrite": True, "reason": "slip misread"})
    assert r.status_code == 200, r.text
    assert api.get(f"/api/t/{tid}/tables").json()[0]["result"] == "0-2-0"


def test_my_table_tells_a_dropped_player_so_and_lists_namesakes_apart(api):
    """QA70 #7: with "Maria Rossi" (dropped) and "Maria Rossi (M99999)" registered, "my table" for
    "maria rossi" showed only the other Maria's table, and no "you have dropped". The web desk's
    drop names the namesake it did not drop, as the CLI does."""
    tid = new_event(api, 6)
    api.do(tid, "register", names="Maria Rossi\nMaria Rossi (M99999)")
    out = api.do(tid, "drop", player="maria rossi", reason="left")
    assert out["message"] == f"Maria Rossi dropped (event {out['position']}); also registered: Maria Rossi (M99999), " \
        "not dropped"
    api.do(tid, "pair")
    page = api.http.get(f"/t/{tid}/me", params={"name": "maria rossi"}).text
    text = re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", "", page)))
    found = re.findall(r'data-me="([^"]+)"', page)
    assert found == ["Maria Rossi"], page
    assert "Maria Rossi has dropped (before round 1): not paired in Round 1" in text
    assert "Also registered under a similar name" in text
    assert re.findall(r'data-namesake="([^"]+)"', page) == ["Maria Rossi (M99999)"]
    table = next(t for t in api.get(f"/api/t/{tid}/tables").json() if "Maria Rossi (M99999)" in
                 (t["player1"], t["player2"]))
    assert f"Maria Rossi (M99999): Round 1, table {table['table']} against" in text
    # the other Maria typing her own name: her table first, the dropped namesake apart
    page = api.http.get(f"/t/{tid}/me", params={"name": "Maria Rossi (M99999)"}).text
    assert re.findall(r'data-me="([^"]+)"', page) == ["Maria Rossi (M99999)"]
    assert re.findall(r'data-namesake="([^"]+)"', page) == ["Maria Rossi"]
    # a part of a name still finds every player it may mean, none set apart
    page = api.http.get(f"/t/{tid}/me", params={"name": "rossi"}).text
    assert re.findall(r'data-me="([^"]+)"', page) == ["Maria Rossi", "Maria Rossi (M99999)"]
    assert "data-namesake" not in page


def test_my_table_folds_each_registered_name_a_bounded_number_of_times(tmp_path, monkeypatch):
    """"My table" found the namesakes by folding every registered name once per registered name
    (quadratic: 3 x 300 x 300 folds for one typed name at a 300-player event); now a few per name."""
    from engine.store import EventStore
    from judge.tournament import Tournament
    from judge.tournament import names
    from judge.web.views import my_table

    store = EventStore.open(str(tmp_path / "t.db"))
    t = Tournament.create(store, name="Big", game="optcg", seed="7", rounds=3)
    t.register_many([f"Player {i:03d}" for i in range(298)] + ["Maria Rossi", "Maria Rossi (M99999)"])
    t.pair()
    st = t.state()
    folds = []
    real = names.name_key
    monkeypatch.setattr(names, "name_key", lambda n: folds.append(n) or real(n))
    mine = my_table(st, st.current, "maria rossi")
    store.close()
    assert [r["player"] for r in mine["found"]] == ["Maria Rossi"]
    assert [r["player"] for r in mine["others"]] == ["Maria Rossi (M99999)"]
    # linear: a few folds a name (the order, the pairings by name, the typed name's matches); the
    # quadratic search folded 357,307 times here
    assert len(folds) <= 5 * len(st.players), len(folds)


class _ButtonsInLinks(HTMLParser):
    """The <button>s found inside an <a> (invalid HTML: interactive content in a link)."""

    def __init__(self) -> None:
        super().__init__()
        self.links = 0
        self.inside: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links += 1
        elif tag == "button" and self.links:
            self.inside.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag):
        if tag == "a":
            self.links -= 1


def test_who_are_you_is_no_button_inside_a_link_and_still_says_who(api):
    """QA80 8: "I am Bob" was a <button> inside an <a>; it is a GET form's button: the same URL."""
    tid = new_event(api, 4)
    api.do(tid, "pair")
    t1 = api.get(f"/api/t/{tid}/tables").json()[0]
    k = player_tokens(api, tid)[1]
    page = api.http.get(f"/t/{tid}/play", params={"k": k}).text
    assert f"I am {t1['player1']}" in htmllib.unescape(page) and f"I am {t1['player2']}" in htmllib.unescape(page)
    found = _ButtonsInLinks()
    found.feed(page)
    assert found.inside == [], found.inside
    # the form sends what the link did: ?k=...&me=NAME opens the page as that player
    form = re.search(r'<form method="get">(.*?)</form>', page, re.S).group(1)
    fields = {n: htmllib.unescape(v) for n, v in re.findall(r'name="(k|me)" value="([^"]*)"', form)}
    assert fields == {"k": k, "me": t1["player1"]}
    mine = api.http.get(f"/t/{tid}/play", params=fields).text
    assert f"You are <strong>{htmllib.escape(t1['player1'])}</strong>" in mine
