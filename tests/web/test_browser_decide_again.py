"""A judge decides a match's out-of-date end of time again from a 390 px phone: the recorder page
says the decision is out of date and links "Decide again"; the preview fits the screen (the
terminal's report wraps); the confirm records the decision and the page says so; the recorder page
then no longer waits. Screenshots in test-artifacts/serve-decide-again/."""
from __future__ import annotations

import os

import pytest

from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.conftest import Api
from tests.web.decide_setup import decisions, stale_match
from tests.web.hall import PHONE, WAIT, Hall, see
from tests.web.matchsetup import mint
from tests.web.server import Server

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-decide-again")


def fits(page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1] + 1, widths  # nothing scrolls sideways


def test_a_judge_decides_again_on_a_phone(tmp_path):
    hall = Hall(ARTIFACTS)
    db = str(tmp_path / "event.db")
    with Server(db) as server, browser() as b:
        api = Api(server.url, server.token)
        tid, mid, stale = stale_match(api, db)
        judge = mint(api, tid, "judge", "Kim")
        page = hall.page(b.new_context(**PHONE))
        page.goto(f"{server.url}/m/{mid}/record?k={judge}")
        waiting = page.locator("#not-decided")
        waiting.wait_for(timeout=WAIT)
        assert f"event {stale} is out of date" in waiting.inner_text()
        hall.shot(page, "recorder-out-of-date")
        page.locator("#decide-again").tap()
        page.locator("#decision").wait_for(timeout=WAIT)
        assert "Ann wins" in page.locator("#decision h2").inner_text()
        page.locator("#terminal summary").tap()  # the terminal's words, opened
        assert f"would supersede the decision at event {stale}" in page.locator("#text-report").inner_text()
        fits(page)
        hall.shot(page, "decide-preview-390")
        box = page.locator("#decide-confirm").bounding_box()
        assert box is not None and box["height"] >= 40  # a thumb's tap
        page.locator("#decide-confirm").tap()
        see(page, "recorded (#")
        assert page.locator("#decided").is_visible() and page.locator("#decide-confirm").count() == 0
        fits(page)
        hall.shot(page, "decided")
        new = decisions(db, mid)[-1]
        assert new.actor == "judge:Kim" and new.payload["winner"] == "Ann"
        page.goto(f"{server.url}/m/{mid}/record?k={judge}")
        page.locator("#live-status.on").wait_for(timeout=WAIT)
        assert page.locator("#not-decided").count() == 0
    assert hall.errors == []
