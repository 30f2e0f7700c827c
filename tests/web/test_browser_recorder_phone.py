"""The recorder page on phones (QA 2026-11-27, 360x780 and 390x844): a line pasted longer than the
server takes (4,000 characters) is cut by the box, and the page says so, and the Record after it
sends nothing until the scorekeeper has seen it; the box says how full it is near its limit; the
header's "live" badge keeps clear of the recorder's name. Screenshots in
test-artifacts/serve-recorder-phone/."""
from __future__ import annotations

import os

import pytest

from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.hall import WAIT, Hall
from tests.web.matchsetup import recorder_link, set_up
from tests.web.server import Server

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-recorder-phone")
PHONES = {360: {"viewport": {"width": 360, "height": 780}, "device_scale_factor": 3, "is_mobile": True,
                "has_touch": True},
          390: {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                "has_touch": True}}


def recorder_match(server) -> tuple[str, str]:
    """An optcg match set up for play, and a recorder's link (Sam) for it: (match, token)."""
    mid, token = recorder_link(server)
    set_up(server.db, mid)
    return mid, token


def test_a_pasted_line_cut_to_the_limit_is_said_and_not_sent(tmp_path):
    hall = Hall(ARTIFACTS)
    with Server(str(tmp_path / "event.db")) as server, browser() as b:
        mid, sam = recorder_match(server)
        ctx = b.new_context(**PHONES[360])
        ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
        page = hall.page(ctx)
        page.goto(f"{server.url}/m/{mid}/record?k={sam}")
        page.locator("#live-status.on").wait_for(timeout=WAIT)
        head = page.locator("#live-part").get_attribute("data-head")
        box = page.locator("#line")
        box.evaluate("(b, n) => navigator.clipboard.writeText('A: pass · ' + 'x'.repeat(n))", 10_000 - 10)
        box.focus()
        page.keyboard.press("Control+V")
        assert len(box.input_value()) == 4000
        note = page.locator("#line-limit")
        note.filter(has_text="cut to 4,000 characters").wait_for(timeout=WAIT)
        assert "10,000" in note.inner_text()
        hall.shot(page, "pasted-10000-360")
        page.locator("#record-line").tap()
        note.filter(has_text="nothing was sent").wait_for(timeout=WAIT)
        page.wait_for_timeout(500)  # a request would have come back by now
        assert page.locator("#live-part").get_attribute("data-head") == head
        assert page.locator("#line-error").count() == 0
        assert len(box.input_value()) == 4000  # kept in the box, to shorten
        hall.shot(page, "record-held-360")
        # typed near the limit: the box says how much room is left
        box.fill("x" * 3_950)
        box.press("x")
        note.filter(has_text="3,951 / 4,000").wait_for(timeout=WAIT)
    assert hall.errors == []


NAME_AND_BADGE = """w => {
  const badge = w.querySelector('#live-status');
  const r = document.createRange();
  r.selectNodeContents(w);
  r.setEndBefore(badge);
  const box = x => [x.left, x.top, x.right, x.bottom];
  return {name: Array.from(r.getClientRects()).filter(x => x.width > 0).map(box),
          badge: box(badge.getBoundingClientRect())};
}"""


def apart(a: list[float], b: list[float], gap: float = 4) -> bool:
    """Two boxes (left, top, right, bottom) with at least `gap` px between them, side by side, or
    on different lines."""
    return a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("name", ["Sam", "Samantha Okonkwo-Lindqvist"])
def test_the_live_badge_keeps_clear_of_the_recorders_name(tmp_path, name):
    hall = Hall(ARTIFACTS)
    with Server(str(tmp_path / "event.db")) as server, browser() as b:
        mid, token = recorder_link(server, name)
        for width, phone in PHONES.items():
            page = hall.page(b.new_context(**phone))
            page.goto(f"{server.url}/m/{mid}/record?k={token}")
            page.locator("#live-status.on").wait_for(timeout=WAIT)
            boxes = page.locator("header.bar .who").evaluate(NAME_AND_BADGE)
            assert boxes["name"], boxes
            for part in boxes["name"]:
                assert apart(part, boxes["badge"]), (width, boxes)
            assert boxes["badge"][2] <= width, (width, boxes)  # on the screen
            hall.shot(page, f"header-{len(name)}-{width}")
    assert hall.errors == []
