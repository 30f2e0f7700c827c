"""The recorder page's answers (QA 2026-11-27): the quick buttons offer plays of the cards this
link recorded into a hand itself (and only to this link: another recorder, who saw none of them,
gets none), and the setup actions while the match has none."""
from __future__ import annotations

import html
import re

from engine.match import Match
from engine.store import EventStore
from tests.rulesets.optcg.support import registration
from tests.web.matchsetup import mint, optcg_event


def buttons(api, mid: str, token: str) -> list[str]:
    """The lines of the recorder page's quick buttons, as this link gets them."""
    r = api.http.get(f"/m/{mid}/record", params={"k": token})
    assert r.status_code == 200, r.text
    return [html.unescape(v) for v in re.findall(r'<button class="act" name="line" value="([^"]*)"', r.text)]


def head(api, mid: str) -> int:
    return api.get(f"/api/m/{mid}").json()["match"]["head"]


def sam_drew_two_known_cards(api, server) -> tuple[str, str, str]:
    """An optcg match whose decks and first player the desk registered; recorder Sam then records
    A's opening hand naming two of its cards (OP01-016, cost 1; OP01-013, cost 2), B's hidden one,
    Life, and A's first turn up to one DON!!: (tid, match, Sam's token)."""
    tid, matches = optcg_event(api)
    mid = matches[1]
    with EventStore.open(server.db) as store:
        m = Match(store, mid)
        a, b = m.players
        for p in (a, b):
            m.record("deck.registered", registration(p), actor=p, recorded_by="desk")
        m.record("turn.order", {"first": a, "chosen_by": a}, actor=a, recorded_by="desk")
    sam = mint(api, tid, "recorder", "Sam", match=mid)
    for text in ("A: draw OP01-016 OP01-013 ? ? ?", "B: draw 5", "A: life 5 · B: life 5", "T1 A: refresh · don 1"):
        r = api.post(f"/api/m/{mid}/lines", {"line": text, "seen": head(api, mid)}, token=sam)
        assert r.status_code == 200 and r.json()["status"] == "stored", r.text
    return tid, mid, sam


def test_plays_of_cards_this_recorder_drew_are_offered_to_it_alone(api, server):
    tid, mid, sam = sam_drew_two_known_cards(api, server)
    lia = mint(api, tid, "recorder", "Lia", match=mid)
    mine = buttons(api, mid, sam)
    assert "A: play OP01-016" in mine, mine      # Sam named it as it was drawn: cost 1, 1 DON!! active
    assert "A: play OP01-013" not in mine        # cost 2: not affordable
    theirs = buttons(api, mid, lia)
    assert not any("play" in line for line in theirs), theirs  # Lia never saw the hand


def test_the_buttons_and_the_event_list_name_the_cards_beside_their_numbers(api, server):
    """QA 2026-11-27: the board said `OP01-016 Red Character B`, the buttons and the event list
    only `OP01-016`. Now both name it as the board does (the card names of the deck registrations,
    then the card data); the line a button sends stays the number."""
    tid, mid, sam = sam_drew_two_known_cards(api, server)
    page = api.http.get(f"/m/{mid}/record", params={"k": sam}).text
    button = re.search(r'<button class="act" name="line" value="A: play OP01-016"[^>]*>(.*?)</button>', page, re.S)
    assert button and "OP01-016 Red Character B" in html.unescape(button.group(1)), button
    r = api.post(f"/api/m/{mid}/lines", {"line": "A: play OP01-016", "seen": head(api, mid)}, token=sam)
    assert r.status_code == 200, r.text
    page = api.http.get(f"/m/{mid}/record", params={"k": sam}).text
    recent = re.search(r'<ol class="recent".*?</ol>', page, re.S).group(0)
    assert "OP01-016 Red Character B" in html.unescape(recent), recent[:600]


def test_an_unregistered_deck_has_a_button_that_fills_its_line(api, server):
    """The deck line to complete fills the box (data-fill), and is no button that sends a line."""
    tid, matches = optcg_event(api)
    sam = mint(api, tid, "recorder", "Sam", match=matches[1])
    page = api.http.get(f"/m/{matches[1]}/record", params={"k": sam}).text
    assert 'data-fill="A: deck LEADER deck_size=50"' in page and 'data-fill="B: deck LEADER deck_size=50"' in page
    assert not any("LEADER" in b for b in buttons(api, matches[1], sam))


def test_a_void_said_twice_on_the_page_is_refused_in_its_words_and_stores_nothing(api, server):
    """Review: a judge's `void N` sent twice (a double tap, the same line typed again) was stored twice."""
    tid, mid, sam = sam_drew_two_known_cards(api, server)
    kim = mint(api, tid, "judge", "Kim")
    target = head(api, mid)  # Sam's DON!!
    said = f'judge Kim: void {target} "typed on the wrong table"'
    r = api.post(f"/api/m/{mid}/lines", {"line": said, "seen": head(api, mid)}, token=kim)
    assert r.status_code == 200 and r.json()["status"] == "stored", r.text
    void = head(api, mid)
    r = api.post(f"/api/m/{mid}/lines", {"line": said, "seen": void}, token=kim)
    assert r.status_code == 422 and f"event {target} is already void: correction {void}" in r.json()["error"], r.text
    # QA80 8: said once, as the terminal says it (was "field 'line': field 'payload.voids': ...")
    assert r.json()["error"] == f"field 'line': voids: event {target} is already void: correction {void}", r.text
    page = api.http.get(f"/m/{mid}/record", params={"k": kim}).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    r = api.http.post(f"/m/{mid}/record", data={"k": kim, "csrf": csrf, "line": said, "seen": str(void), "typed": "1"})
    assert r.status_code == 422 and f"event {target} is already void: correction {void}" in html.unescape(r.text)
    assert said in html.unescape(r.text)  # the line kept in its box
    assert head(api, mid) == void  # nothing stored


def test_a_number_the_card_data_lacks_is_said_to_the_recorder_who_typed_it(api, server):
    """QA78 LOW-3: a typed number no card data holds (a typo?) is stored, and the answer to the link
    that typed it (the API's JSON, the page's flash) says so; the log and the other views do not."""
    tid, mid, sam = sam_drew_two_known_cards(api, server)
    said = "OP99-999 is not in the card data (cards.db or the card snapshot): a typo? see `tablejudge cards find`"
    r = api.post(f"/api/m/{mid}/lines", {"line": "A: play OP99-999", "seen": head(api, mid)}, token=sam)
    assert r.status_code == 200 and r.json()["status"] == "stored" and r.json()["notices"] == [said], r.text
    page = api.http.get(f"/m/{mid}/record", params={"k": sam}).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    r = api.http.post(f"/m/{mid}/record", data={"k": sam, "csrf": csrf, "line": "A: play OP99-999",
                                                "seen": str(head(api, mid)), "typed": "1"})
    assert r.status_code == 200 and f"notice: {said}" in html.unescape(r.text), r.text
    assert said not in html.unescape(api.http.get(f"/m/{mid}/record", params={"k": sam}).text)  # said once
