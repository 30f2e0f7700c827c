"""A judge takes a table's result from its match again on a phone, after deciding the match's time
again on the web (QA, low: it needed the terminal): the desk's warning offers "Take the result from
match M" with a reason; tapped, the answer says so and the warning goes. Screenshots in
test-artifacts/serve-take-again/."""
from __future__ import annotations

import os

import pytest

from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.conftest import Api
from tests.web.hall import PHONE, WAIT, Hall, see
from tests.web.server import Server
from tests.web.test_take_again import decided_again_on_the_web, results

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-take-again")


def test_a_judge_takes_the_result_again_from_the_desk_warning_on_a_phone(tmp_path):
    hall = Hall(ARTIFACTS)
    db = str(tmp_path / "event.db")
    with Server(db) as server, browser() as b:
        api = Api(server.url, server.token)
        tid, mid, kim = decided_again_on_the_web(api, server)
        page = hall.page(b.new_context(**PHONE))
        page.goto(f"{server.url}/t/{tid}?k={kim}")
        button = page.locator(f'[data-take-again="{mid}"]')
        button.wait_for(timeout=WAIT)
        warning = page.locator("#warnings .warning", has=button)
        assert "decided again at event" in warning.inner_text()
        warning.locator("input[name=reason]").fill("decided again on the web")
        hall.shot(page, "desk-warning-take-again")
        button.tap()
        see(page, f"taken again from match {mid}")
        page.locator(f'[data-take-again="{mid}"]').wait_for(state="detached", timeout=WAIT)  # the warning goes
        hall.shot(page, "taken-again")
        new = results(db, tid)[-1]
        assert new.actor == "judge:Kim" and new.payload["reason"] == "decided again on the web"
    assert hall.errors == []
