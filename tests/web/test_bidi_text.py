"""QA86 #5: a text direction control (U+202E RIGHT-TO-LEFT OVERRIDE and its kin) in a player's appeal
reason turned the server's own words after it around on the player's page and the judges' queue.
Typed, it is refused as other control characters are, naming the field and the character (Hebrew
text itself is taken); stored by an older version, every page writes it out (`\\u202e`)."""
from __future__ import annotations

import html as htmllib
import time

from engine.events import Draft
from engine.store import EventStore
from tests.web.test_player_appeal import file, head, ruling, said, table_event

RLO = "\u202e"
HEBREW = "הקלף עדיין היה במשחק"


def test_a_direction_control_in_a_reason_is_refused_naming_field_and_character(api):
    tid, matches, tables, links = table_event(api)
    m1, me = matches[1], tables[1]["player1"]
    r = ruling(api, m1, "the attack is legal")
    before = head(api, m1)
    refused = file(api, tid, links[1], me, r, reason=f"{HEBREW} {RLO} gnp.exe")
    assert refused.status_code == 422, refused.text
    words = said(refused.text, "flash error")
    assert "reason" in words and "U+202E (RIGHT-TO-LEFT OVERRIDE)" in words, words
    assert head(api, m1) == before
    # Hebrew itself, and a right-to-left mark, are text
    taken = file(api, tid, links[1], me, r, reason=f"{HEBREW}\u200f")
    assert taken.status_code == 200, taken.text
    assert f"{HEBREW}\u200f" in htmllib.unescape(taken.text)


def test_a_direction_control_stored_by_an_older_version_is_written_out(api, server):
    tid, matches, tables, links = table_event(api)
    m1, me = matches[1], tables[1]["player1"]
    r = ruling(api, m1, "the attack is legal")
    with EventStore.open(server.db) as store:  # the store checks no payload: the schema in front of it did not
        store.append(m1, [Draft("appeal.filed", 1, me, {"appealed": r, "player": me,
                                                        "reason": f"{HEBREW} {RLO} gnp.exe"}, "old"),
                          Draft("judge.call", 1, me, {"caller": me, "reason": f"appeal: {HEBREW} {RLO} gnp.exe",
                                                      "at": r}, "old")])
    for _ in range(100):  # the server reads what another process stored on its next poll (0.25 s)
        if api.get(f"/api/t/{tid}/calls").json():
            break
        time.sleep(0.05)
    for page in (api.http.get(f"/t/{tid}/play", params={"k": links[1], "me": me}).text,
                 api.http.get(f"/t/{tid}/queue", params={"k": api.token}).text):
        assert RLO not in page
        assert "\\u202e gnp.exe" in page and HEBREW in htmllib.unescape(page)


def test_a_textareas_line_breaks_are_line_breaks(api, server):
    # a browser sends a textarea's line breaks as CR LF: a ruling of two lines was refused for its CR
    tid, matches, tables, links = table_event(api)
    r = api.post(f"/api/m/{matches[1]}/do/ruling", {"text": "line one\r\nline two"})
    assert r.status_code == 200, r.text
    with EventStore.open(server.db) as store:
        assert store.read(matches[1])[-1].payload["text"] == "line one\nline two"


def test_a_lone_carriage_return_is_a_line_break_too(api, server):
    # a client sending old Mac line ends (a lone CR): the schema's "control character U+000D", naming
    # no box of the page, reached the user; a line break, as CR LF is
    tid, matches, tables, links = table_event(api)
    r = api.post(f"/api/m/{matches[1]}/do/ruling", {"text": "line one\rline two\r\nline three"})
    assert r.status_code == 200, r.text
    with EventStore.open(server.db) as store:
        assert store.read(matches[1])[-1].payload["text"] == "line one\nline two\nline three"
