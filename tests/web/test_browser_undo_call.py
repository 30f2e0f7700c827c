"""The recorder's undo and judge call on a phone, in headless Chromium on a real server (QA: the
undo button kept an old number after a call or an undo, and voided a different event than its
confirm box named; a double tap on "Call a judge" stored several calls and kept the reason): the
button's number follows every action, its confirm box names what is voided, a double tap stores
one call and the reason box is emptied. Any console error fails the test."""
from __future__ import annotations

import os

import pytest

from tests.browser import needs_chromium
from tests.conftest import ROOT
from tests.web.hall import PHONE, WAIT
from tests.web.matchsetup import mint, served_match

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-undo-call")


def kinds(api, mid: str) -> list[tuple[int, str, bool]]:
    return [(e["p"], e["kind"], e["void"]) for e in api.get(f"/api/m/{mid}").json()["events"]]


def test_undo_names_what_it_voids_and_a_double_tapped_call_stores_once(tmp_path):
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, tid, mid):
        sam = mint(api, tid, "recorder", "Sam", match=mid)
        phone = hall.page(b.new_context(**PHONE))
        asked: list[str] = []
        phone.on("dialog", lambda d: asked.append(d.message))
        phone.goto(f"{server.url}/m/{mid}/record?k={sam}")
        phone.locator("#live-status.on").wait_for(timeout=WAIT)
        assert phone.locator("#undo").count() == 0  # nothing of Sam's yet

        # two taps: the undo button follows each
        first_line = phone.locator("#buttons button[data-line]").first.get_attribute("data-line")
        before = phone.locator("#live-part").get_attribute("data-head")
        phone.locator(f'#buttons button[data-line="{first_line}"]').tap()
        phone.locator(f'#live-part:not([data-head="{before}"])').wait_for(timeout=WAIT)
        first = int(before) + 1
        phone.locator(f'#undo[data-voids="{first}"]').wait_for(timeout=WAIT)
        second_line = phone.locator("#buttons button[data-line]").first.get_attribute("data-line")
        phone.locator(f'#buttons button[data-line="{second_line}"]').tap()
        second = first + 1
        phone.locator(f'#undo[data-voids="{second}"]').wait_for(timeout=WAIT)
        assert phone.locator("#undo").inner_text() == f"Undo my #{second}"

        # a double tap on "Call a judge": one call, about the game's last event; the reason box emptied
        phone.fill("#call-reason", "opponent looked at the top card")
        phone.locator("#call-judge").dblclick()
        phone.locator("#flash-m .flash", has_text="a judge is called").wait_for(timeout=WAIT)
        phone.wait_for_timeout(500)  # a second request, were one sent, would have landed by now
        calls = [p for p, k, _ in kinds(api, mid) if k == "judge.call"]
        assert calls == [second + 1], kinds(api, mid)
        assert f"about event {second}" in phone.locator("#flash-m").inner_text()
        assert phone.locator("#call-reason").input_value() == ""
        assert phone.locator("#undo").inner_text() == f"Undo my #{second}"  # the call is not undone here
        hall.shot(phone, "phone-after-call")

        # undo: the confirm box, the button and the voided event agree; then the button names the one before
        phone.locator("#undo").tap()
        phone.locator("#flash-m .flash", has_text=f"event {second} is void").wait_for(timeout=WAIT)
        assert asked and asked[-1].startswith(f"Undo #{second} ("), asked
        void = {p for p, _, v in kinds(api, mid) if v}
        assert void == {second}, kinds(api, mid)
        phone.locator(f'#undo[data-voids="{first}"]').wait_for(timeout=WAIT)
        assert phone.locator("#undo").inner_text() == f"Undo my #{first}"
        hall.shot(phone, "phone-after-undo")
    assert hall.errors == [], "\n".join(hall.errors)
