"""The appeals file on a judge's phone (360 px, headless Chromium): QA87 found it 459 px wide for an
ordinary match (the board's zone table) and 8,454 px with a reason typed as one long word (the web
takes up to 1,000 characters). The page must not scroll sideways; a wide board scrolls in its box."""
from __future__ import annotations

import os

import pytest

from tests.browser import needs_chromium
from tests.conftest import ROOT
from tests.web.conftest import player_tokens
from tests.web.matchsetup import served_match
from tests.web.test_browser_player_appeal import ruled_at_the_table
from tests.web.test_browser_match_phone import SMALL_PHONE

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-appeals-file")


def test_the_appeals_file_fits_a_phone_with_a_long_unbroken_reason(tmp_path):
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, tid, mid):
        kim, ruling, me, _ = ruled_at_the_table(hall, b, server, api, tid, mid, page=False)
        filed = api.post(f"/api/m/{mid}/do/file_appeal", {"appealed": ruling, "player": me, "reason": "x" * 900},
                         token=player_tokens(api, tid)[1])
        assert filed.status_code == 200, filed.text
        phone = hall.page(b.new_context(**SMALL_PHONE))
        phone.goto(f"{server.url}/m/{mid}/appeals?k={kim}")
        phone.locator("section.incident").first.wait_for()
        widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        hall.shot(phone, "appeals-file-360")
        assert widths[0] <= widths[1] == 360, widths
        assert "x" * 40 in phone.locator("section.incident").first.inner_text()  # the reason is there, wrapped
    assert hall.errors == []
