"""The head judge's decision on an appeal, on a call's page on a 360 px phone (review: an appeal was
recorded only at a terminal, `tablejudge judge appeal`; the web desk had no way to). The form names
the judge actions an appeal may name, records the decision as the command does (the judge its
actor), and a second decision on the same action is refused in words unless it says why (DESK-13).
Screenshots in test-artifacts/serve-appeal-phone/."""
from __future__ import annotations

import os

import pytest

from engine.store import EventStore
from tests.browser import needs_chromium
from tests.conftest import ROOT
from tests.web.hall import WAIT
from tests.web.matchsetup import mint, served_match
from tests.web.test_browser_match_phone import SMALL_PHONE

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-appeal-phone")


def appeals(db: str, mid: str) -> list:
    with EventStore.open(db) as store:
        return [e for e in store.read(mid) if e.kind == "judge.appeal"]


def test_a_judge_records_an_appeals_decision_on_a_calls_page_on_a_phone(tmp_path):
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, tid, mid):
        kim = mint(api, tid, "judge", "Kim")
        call = api.post(f"/api/m/{mid}/do/call", {"reason": "was that legal?"}, token=kim).json()["position"]
        ruling = api.post(f"/api/m/{mid}/do/ruling", {"text": "the attack stands", "call": call},
                          token=kim).json()["position"]
        page = hall.page(b.new_context(**SMALL_PHONE))
        page.goto(f"{server.url}/m/{mid}/call/{call}?k={kim}")
        form = page.locator("#appeal-form")
        form.scroll_into_view_if_needed()
        assert form.locator("select[name=appealed]").input_value() == str(ruling)  # the latest judge action
        assert f"#{ruling} " in form.locator("select[name=appealed] option").first.inner_text()
        box = form.locator("textarea[name=text]").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box  # inside the screen
        player = form.locator("select[name=by] option").nth(1).get_attribute("value")
        form.locator("select[name=by]").select_option(player)
        form.locator("select[name=decision]").select_option("upheld")
        form.locator("textarea[name=text]").fill("the block was legal")
        hall.shot(page, "appeal-form-360")
        page.locator("#give-appeal").click()
        page.locator("#flash-c .flash", has_text=f"appeal of event {ruling}: upheld; recorded").wait_for(timeout=WAIT)
        (first,) = appeals(db, mid)
        assert (first.actor, first.payload["appealed"], first.payload["by"], first.payload["text"]) == (
            "judge:Kim", ruling, player, "the block was legal")
        assert "judge Kim" in first.recorded_by
        # a second decision on the same action, without saying why: refused in words, nothing stored
        form.locator("select[name=decision]").select_option("overturned")
        form.locator("textarea[name=text]").fill("on second thought")
        page.locator("#give-appeal").click()
        page.locator("#flash-c", has_text=f"the appeal of event {ruling} was already decided").wait_for(timeout=WAIT)
        said = page.locator("#flash-c").inner_text()
        assert 'say why in "Replaces a decision given already on it, because"' in said and "--override" not in said
        hall.shot(page, "appeal-refused-360")
        assert len(appeals(db, mid)) == 1
        # the appeals file shows it on the incident's page
        file = api.http.get(f"/m/{mid}/appeals", params={"k": kim}).text
        assert "the block was legal" in file
    assert hall.errors == []


PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}


def test_on_a_phone_the_ruling_and_appeal_forms_come_before_the_board_and_the_events(tmp_path):
    """QA80 8: on a 390x844 phone the Appeal form came at about 4,000 px, after the board, the
    events, the findings, the penalty guide and the backup: the forms now come first, the ruling
    and the appeal first among them. On a wide screen the table stays on the left."""
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, tid, mid):
        kim = mint(api, tid, "judge", "Kim")
        call = api.post(f"/api/m/{mid}/do/call", {"reason": "was that legal?"}, token=kim).json()["position"]
        api.post(f"/api/m/{mid}/do/ruling", {"text": "the attack stands", "call": call}, token=kim)
        page = hall.page(b.new_context(**PHONE))
        page.goto(f"{server.url}/m/{mid}/call/{call}?k={kim}")

        def top(selector: str) -> float:
            box = page.locator(selector).first.bounding_box()
            assert box is not None, selector
            return box["y"]
        appealed = top("#appeal-form select[name=appealed]")
        assert appealed + 34 <= 2 * PHONE["viewport"]["height"], appealed  # within the first two screens
        assert top("#ruling-form") < appealed < top("#penalty-form") < top(".board") < top(".audit-events")
        hall.shot(page, "call-page-390")
        wide = hall.page(b.new_context(viewport={"width": 1280, "height": 900}))
        wide.goto(f"{server.url}/m/{mid}/call/{call}?k={kim}")
        board, forms = wide.locator(".board").bounding_box(), wide.locator("#ruling-form").bounding_box()
        assert board and forms and board["x"] < forms["x"]  # the table on the left, the forms beside it
    assert hall.errors == []
