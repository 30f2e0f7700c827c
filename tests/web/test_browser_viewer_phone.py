"""The match viewer (`/m/ID`) on a phone, in headless Chromium on a real server (QA 2026-11-27):
it opened scrolled down on a 360 px phone, the header out of sight. Two causes, both in
replay.js's first view of the last event: `scrollIntoView` of the log's row also scrolled the
window (the log is under the board on a phone), and the "#eN" it wrote into the URL before the
page finished loading made Chromium scroll to that row at load. Screenshots in
test-artifacts/serve-viewer-phone/."""
from __future__ import annotations

import os

import pytest

from engine.match import Match
from engine.store import EventStore
from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.conftest import Api
from tests.web.hall import WAIT, Hall
from tests.web.matchsetup import optcg_event, set_up
from tests.web.server import Server

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
    hall = Hall(ARTIFACTS)
    db = str(tmp_path / "event.db")
    with Server(db) as server, browser() as b:
        api = Api(server.url, server.token)
        _, matches = optcg_event(api)
        mid = matches[1]
        set_up(db, mid)
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
