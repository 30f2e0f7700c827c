"""A judge replaces an event on a phone (390x844): from the recorder's event list, "replace" beside
Bob's Life opens the form filled from the event; a refusal comes back in the form with its box
marked and nothing stored; the replacement sent, the recorder says what event 10 should read and
lists the correction. Screenshots in test-artifacts/serve-replace/."""
from __future__ import annotations

import os

import pytest

from engine.match import Match
from engine.store import EventStore
from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.hall import PHONE, WAIT, Hall
from tests.web.matchsetup import mint, served_match

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-replace")

NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


def test_a_judge_replaces_bobs_life_on_a_phone_and_sees_it_read_so(tmp_path):
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, tid, mid):
        zoe = mint(api, tid, "judge", "Zoe")
        with EventStore.open(db) as store:
            bob = Match(store, mid).players[1]
        page = hall.page(b.new_context(**PHONE))
        page.goto(f"{server.url}/m/{mid}/record?k={zoe}")
        page.locator("#live-status.on").wait_for(timeout=WAIT)
        page.locator('a[data-replace="10"]').tap()
        page.locator("#replace-form").wait_for(timeout=WAIT)
        assert page.locator("#box-kind").input_value() == "life.placed"
        assert page.locator("#box-actor").input_value() == bob
        assert page.locator('[name="payload.count"]').input_value() == "5"
        assert page.evaluate(NO_SIDEWAYS)
        hall.shot(page, "form-390")

        page.locator('[name="payload.count"]').fill("4")
        page.locator("#box-reason").fill("4 Life cards placed")
        page.locator("#box-kind").fill("draw")  # another act: refused, in the form
        page.locator("#replace-submit").tap()
        error = page.locator("#replace-error")
        error.wait_for(timeout=WAIT)
        said = error.inner_text()  # the terminal's words, without its `field '...':` prefix (QA76)
        assert said.startswith("event 10 is a life.placed") and "field '" not in said
        assert page.locator("#box-kind").get_attribute("aria-invalid") == "true"
        assert page.locator('[name="payload.count"]').input_value() == "4"  # kept as typed
        assert page.evaluate(NO_SIDEWAYS)
        hall.shot(page, "refused-390")
        with EventStore.open(db) as store:
            assert Match(store, mid).head_position() == 10  # nothing stored

        page.locator("#box-kind").fill("life.placed")
        page.locator("#replace-submit").tap()
        page.locator(".flash", has_text="event 10 should read").wait_for(timeout=WAIT)
        said = f"event 10 should read: {bob} places 4 Life cards"
        assert said in page.locator(".flash", has_text="event 10 should read").inner_text()
        row = page.locator("#r11")
        assert said in row.inner_text() and "judge" in (row.get_attribute("class") or "")
        assert "void" in (page.locator("#r10").get_attribute("class") or "")
        assert page.evaluate(NO_SIDEWAYS)
        hall.shot(page, "replaced-390")
        with EventStore.open(db) as store:
            last = Match(store, mid).events()[-1]
        assert (last.actor, last.payload["instead"]["payload"]) == ("judge:Zoe", {"player": bob, "count": 4})
    assert hall.errors == []
