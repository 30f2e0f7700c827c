"""The minutes-late notice on the web penalty form (DESK-5): under a policy with no tardiness ladder
(the generic guide's, mtg-ipg) the minutes are recorded, not checked. The terminal said so after
recording (`tablejudge judge penalty ... --minutes-late N`); the call page's form said nothing, so a
judge could read the silence as "on the ladder". Now the desk's record says it (judge.desk.actions),
and the form shows it after recording (without a script: tests/web/test_penalty_policy.py).
Screenshot in test-artifacts/serve-penalty-notice/."""
from __future__ import annotations

import os

import pytest

from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.conftest import Api
from tests.web.hall import WAIT, Hall
from tests.web.server import Server
from tests.web.test_browser_match_phone import SMALL_PHONE
from tests.web.test_penalty_policy import NOTICE, called

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-penalty-notice")


def test_the_penalty_form_shows_the_minutes_late_notice_after_recording(tmp_path):
    hall = Hall(ARTIFACTS)
    with Server(str(tmp_path / "event.db")) as server, browser() as b:
        api = Api(server.url, server.token)
        mid, kim, call, player = called(api)
        page = hall.page(b.new_context(**SMALL_PHONE))
        page.goto(f"{server.url}/m/{mid}/call/{call}?k={kim}")
        page.select_option("#penalty-form select[name=player]", player)
        page.select_option("#penalty-form select[name=infraction]", "GEN-PG-TARDINESS")
        page.select_option("#penalty-form select[name=penalty]", "Warning")
        page.fill("#penalty-form input[name=minutes_late]", "6")
        page.click("#give-penalty")
        flash = page.locator("#flash-c .flash", has_text="recorded")
        flash.wait_for(timeout=WAIT)
        said = flash.inner_text()
        assert said.startswith(f"Warning to {player} recorded") and NOTICE in said, said
        assert "GEN-PG-TARDINESS" in said  # read against the guide's Tardiness (DESK-11)
        hall.shot(page, "penalty-minutes-late-notice")
        assert not hall.errors, hall.errors
