"""A player's appeal on the call page it creates (QA86 #3, #4): the Appeal form comes with the
appealed ruling and its filer chosen, and deciding the appeal answers the call filed with it."""
from __future__ import annotations

import html as htmllib
import re

from tests.web.test_player_appeal import file, last_events, ruling, table_event


def chosen(page: str, name: str) -> list[str]:
    """The values of the options chosen in the select `name` of the Appeal form."""
    form = re.search(r'<form[^>]*id="appeal-form".*?</form>', page, re.S).group(0)
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', form, re.S).group(1)
    return re.findall(r'<option value="([^"]*)" selected', select)


def test_the_call_page_of_a_players_appeal_chooses_the_ruling_and_the_player(api, server):
    tid, matches, tables, links = table_event(api)
    m1, me = matches[1], tables[1]["player2"]
    appealed = ruling(api, m1, "the attack is legal")
    ruling(api, m1, "a later ruling nobody appealed")  # the newest action: what the form chose before
    assert file(api, tid, links[1], me, appealed).status_code == 200
    call = last_events(server.db, m1, 1)[0]
    page = htmllib.unescape(api.http.get(f"/m/{m1}/call/{call.position}", params={"k": api.token}).text)
    assert chosen(page, "appealed") == [str(appealed)]
    assert chosen(page, "by") == [me]


def test_deciding_the_appeal_on_its_call_page_answers_the_call(api, server):
    tid, matches, tables, links = table_event(api)
    m1, me = matches[1], tables[1]["player1"]
    appealed = ruling(api, m1, "no penalty")
    assert file(api, tid, links[1], me, appealed).status_code == 200
    call = last_events(server.db, m1, 1)[0].position
    assert [c["open"] for c in api.get(f"/api/t/{tid}/calls").json() if c["position"] == call] == [True]
    page = api.http.get(f"/m/{m1}/call/{call}", params={"k": api.token}).text
    form = {"k": api.token, "csrf": re.search(r'name="csrf" value="([^"]+)"', page).group(1),
            "back": f"/m/{m1}/call/{call}", "appealed": str(appealed), "by": me, "decision": "overturned",
            "text": "it was a draw"}
    done = api.http.post(f"/m/{m1}/do/appeal", data=form, headers={"HX-Request": "true"})
    assert done.status_code == 200, done.text
    assert f"it answers judge call #{call}, filed with the appeal" in htmllib.unescape(done.text)
    (row,) = [c for c in api.get(f"/api/t/{tid}/calls").json() if c["position"] == call]
    assert row["open"] is False and row["answer"]["text"] == "it was a draw"
    page = htmllib.unescape(api.http.get(f"/m/{m1}/call/{call}", params={"k": api.token}).text)
    assert f"the appeal of event {appealed} overturned: it was a draw" in page


def test_an_empty_appeal_reason_is_refused_naming_the_reason(api):
    # QA86 #11: "this field is required" named no box of the page
    from tests.web.test_player_appeal import said
    tid, matches, tables, links = table_event(api)
    appealed = ruling(api, matches[1], "no penalty")
    r = file(api, tid, links[1], tables[1]["player1"], appealed, reason="   ")
    assert r.status_code == 422, r.text
    assert said(r.text, "flash error").startswith("the reason is required: it was empty. Nothing was stored.")
