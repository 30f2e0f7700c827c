"""A match's own pages on a 360 px phone (QA 2026-11-26): the recorder's entry area uses the
screen's width (the results grid's big-box style once matched its `#entry` too and squeezed it
into a 224 px column of 25 px text), and the viewer wraps a long unbroken word in the event log
instead of cutting it off. Screenshots in test-artifacts/serve-match-phone/."""
from __future__ import annotations

import os

import pytest

from engine.match import Match
from engine.store import EventStore
from tests.browser import needs_chromium
from tests.conftest import ROOT
from tests.web.hall import WAIT
from tests.web.matchsetup import mint, served_match

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-match-phone")
SMALL_PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 3, "is_mobile": True,
               "has_touch": True}


def test_the_recorder_entry_and_the_viewer_log_fit_a_small_phone(tmp_path):
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, tid, mid):
        with EventStore.open(db) as store:
            Match(store, mid).record("note", {"text": "W" * 300})
        sam = mint(api, tid, "recorder", "Sam", match=mid)
        page = hall.page(b.new_context(**SMALL_PHONE))
        page.goto(f"{server.url}/m/{mid}/record?k={sam}")
        page.locator("#live-status.on").wait_for(timeout=WAIT)
        box = page.locator("#entry textarea, #entry input[type=text], #entry input:not([type])").first.bounding_box()
        assert box is not None and box["width"] >= 360 * 0.6, box  # the notation box: most of the width
        size = page.locator("#entry button").first.evaluate("b => parseFloat(getComputedStyle(b).fontSize)")
        assert size < 22, size  # not the results grid's 1.6rem
        hall.shot(page, "recorder-360")
        viewer = hall.page(b.new_context(**SMALL_PHONE))
        viewer.goto(f"{server.url}/m/{mid}")
        log = viewer.locator(".log")
        log.wait_for(timeout=WAIT)
        widths = log.evaluate("l => [l.scrollWidth, l.clientWidth]")
        assert widths[0] <= widths[1] + 1, widths  # the 300 W's wrap inside the log
        hall.shot(viewer, "viewer-long-word-360")
    assert hall.errors == []
