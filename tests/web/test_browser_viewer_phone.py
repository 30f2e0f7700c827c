"""The match viewer (`/m/ID`) on a phone, in headless Chromium on a real server (QA 2026-11-27):
it opened scrolled down on a 360 px phone, the header out of sight. Two causes, both in
replay.js's first view of the last event: `scrollIntoView` of the log's row also scrolled the
window (the log is under the board on a phone), and the "#eN" it wrote into the URL before the
page finished loading made Chromium scroll to that row at load. QA 2026-11-27 also found it scrolling
sideways on a phone when a note held a long word (a URL): the "event N of N: note ..." line above
the board did not wrap (745 px wide at 360 px; 38,637 px with a 4,000-character note). Screenshots
in test-artifacts/serve-viewer-phone/."""
from __future__ import annotations

import os

import pytest

from engine.match import Match
from engine.store import EventStore
from tests.browser import needs_chromium
from tests.conftest import ROOT
from tests.web.hall import WAIT
from tests.web.matchsetup import served_match

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-viewer-phone")


def phone(width: int, height: int) -> dict:
    return {"viewport": {"width": width, "height": height}, "device_scale_factor": 2, "is_mobile": True,
            "has_touch": True}


def notes(db: str, mid: str, texts: list[str]) -> int:
    """Notes appended to the match's log (as another recorder would); the new head."""
    with EventStore.open(db) as store:
        m = Match(store, mid)
        for t in texts:
            m.record("note", {"text": t})
        return m.head_position()


def in_box(page, row: str) -> bool:
    """Whether the row is inside the log's box as it is scrolled."""
    return page.locator(row).evaluate(
        "r => { const a = r.getBoundingClientRect(), b = document.getElementById('log').getBoundingClientRect();"
        " return a.top >= b.top - 1 && a.bottom <= b.bottom + 1; }")


def test_the_viewer_opens_at_the_top_of_a_small_phone_and_still_follows_the_log(tmp_path):
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, _, mid):
        head = notes(db, mid, [f"note {i}" for i in range(30)])  # the log reaches far below the board
        page = hall.page(b.new_context(**phone(360, 780)))
        page.goto(f"{server.url}/m/{mid}")
        page.wait_for_load_state("load")
        page.locator("#live-status.on").wait_for(timeout=WAIT)
        page.wait_for_timeout(300)  # a scroll at load or just after it would have happened by now
        assert page.evaluate("window.scrollY") == 0
        assert page.locator("header.bar").bounding_box()["y"] >= 0
        assert page.url.endswith(f"/m/{mid}"), page.url  # the first view writes no "#eN"
        # the rest still works: the last event shown, its row brought into view inside the log's box
        assert page.locator("body").get_attribute("data-shown") == str(head)
        assert "current" in page.locator(f"#e{head}").get_attribute("class")
        assert in_box(page, f"#e{head}")
        hall.shot(page, "viewer-360-at-load")
        # stepping back: the board and the URL follow, the log's box scrolls, the window does not
        page.locator("#prev").tap()
        assert page.locator("body").get_attribute("data-shown") == str(head - 1)
        assert page.url.endswith(f"#e{head - 1}")
        page.locator("#first").tap()
        assert page.locator("body").get_attribute("data-shown") == "1"
        assert in_box(page, "#e1")
        assert page.evaluate("window.scrollY") == 0
        # live: at the end again, a new event is followed and the page stays at its top
        page.locator("#last").tap()
        new = notes(db, mid, ["one more"])
        page.locator(f'body[data-shown="{new}"]').wait_for(timeout=WAIT)
        assert in_box(page, f"#e{new}")
        assert page.evaluate("window.scrollY") == 0
        # a deep link still shows its event
        deep = hall.page(b.new_context(**phone(360, 780)))
        deep.goto(f"{server.url}/m/{mid}#e5")
        deep.locator('body[data-shown="5"]').wait_for(timeout=WAIT)
        assert "current" in deep.locator("#e5").get_attribute("class")
    assert hall.errors == [], "\n".join(hall.errors)


URL = ("decklist: https://onepiece.limitlesstcg.com/decks/list/abcdefghijklmnopqrstuvwxyz0123456789-ABCDEFGHIJKLMNOP"
       "?format=standard")


def test_a_note_with_a_long_word_wraps_on_a_phone(tmp_path):
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, _, mid):
        for text, name in ((URL, "url"), ("x" * 4000, "4000")):
            head = notes(db, mid, [text])
            for width, height in ((360, 780), (390, 844)):
                page = hall.page(b.new_context(**phone(width, height)))
                page.goto(f"{server.url}/m/{mid}")
                page.locator(f'body[data-shown="{head}"]').wait_for(timeout=WAIT)
                assert text[:40] in page.locator("#where").inner_text()  # the long line is shown
                # a mobile browser widens its layout viewport to fit a page too wide: both held
                scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                assert scroll <= width and inner <= width, (name, width, scroll, inner)
                hall.shot(page, f"viewer-long-note-{name}-{width}")
                page.context.close()
    assert hall.errors == [], "\n".join(hall.errors)


def judged(db: str, mid: str) -> list[int]:
    """A match whose judge marks crowd together: a call, its ruling and a correction on three
    events in a row (and two more calls) amid 80 notes, and one call alone near the start. Returns
    the positions the slider marks."""
    with EventStore.open(db) as store:
        m = Match(store, mid)
        judge = {"actor": "judge:Kim", "recorded_by": "judge:Kim"}
        alone = m.record("judge.call", {"caller": "judge Kim", "reason": "alone", "at": 2}, **judge).event.position
        for i in range(40):
            m.record("note", {"text": f"before {i}"})
        crowd = [m.record("judge.call", {"caller": "judge Kim", "reason": "a question", "at": alone + 3}, **judge),
                 m.record("judge.ruling", {"text": "the play stands"}, **judge),
                 m.record("correction", {"voids": alone + 5, "reason": "recorded twice"}, **judge),
                 m.record("judge.call", {"caller": "judge Kim", "reason": "again", "at": alone + 6}, **judge),
                 m.record("judge.call", {"caller": "judge Kim", "reason": "and again", "at": alone + 6}, **judge)]
        for i in range(40):
            m.record("note", {"text": f"after {i}"})
        return [alone] + [r.event.position for r in crowd]


MARKS = """() => [...document.querySelectorAll('#marks .mark')].map(m => {
  const r = m.getBoundingClientRect();
  return {x: r.left, right: r.right, y: r.top, bottom: r.bottom, text: m.textContent,
          positions: m.title.split('\\n').map(line => parseInt(line.slice(1), 10))};  // "#51 text" a line
})"""


def test_judge_marks_close_together_merge_into_one_readable_mark_on_a_phone(tmp_path):
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, _, mid):
        marked = judged(db, mid)
        for width, height in ((360, 780), (390, 844)):
            page = hall.page(b.new_context(**phone(width, height)))
            page.goto(f"{server.url}/m/{mid}")
            page.locator("#marks .mark").first.wait_for(timeout=WAIT)
            marks = page.evaluate(MARKS)
            # every marked event is on the slider, once
            assert sorted(p for m in marks for p in m["positions"]) == sorted(marked), marks
            # no two marks overlap
            ordered = sorted(marks, key=lambda m: m["x"])
            for a, c in zip(ordered, ordered[1:]):
                assert a["right"] + 4 <= c["x"], (width, a, c)  # apart, judge marks' 2 px outlines too
            for m in marks:
                assert 0 <= m["x"] and m["right"] <= width, (width, m)  # on the screen
                assert m["bottom"] - m["y"] <= 14, m
            # the lone call keeps a plain mark (8 px: not the 24 px `.controls button` once made it);
            # the crowd is one mark that says how many events it holds
            alone = next(m for m in marks if m["positions"] == [marked[0]])
            assert alone["right"] - alone["x"] == 8 and alone["text"] == "", alone
            crowd = next(m for m in marks if marked[1] in m["positions"])
            assert len(crowd["positions"]) >= 3 and crowd["text"] == str(len(crowd["positions"])), crowd
            hall.shot(page, f"viewer-marks-{width}")
            # a tap on the merged mark steps through its events
            button = page.locator(f'#marks .mark[data-positions="{" ".join(map(str, crowd["positions"]))}"]')
            for p in crowd["positions"] + crowd["positions"][:1]:
                button.tap()
                assert page.locator("body").get_attribute("data-shown") == str(p)
            # another width (a phone turned): the marks are placed again, still apart
            page.set_viewport_size({"width": height, "height": width})
            page.wait_for_function(f"document.getElementById('marks').clientWidth > {width}")
            turned = sorted(page.evaluate(MARKS), key=lambda m: m["x"])
            assert sorted(p for m in turned for p in m["positions"]) == sorted(marked)
            for a, c in zip(turned, turned[1:]):
                assert a["right"] + 4 <= c["x"], (height, a, c)
            assert turned[-1]["right"] > ordered[-1]["right"] + 100  # spread over the wider slider
    assert hall.errors == [], "\n".join(hall.errors)
