"""The organizer's desk and the results grid on a 390×844 phone, in headless Chromium, as the QA tester
used them (2026-11-26): no top-cut button while Swiss rounds remain, only "End Swiss early" behind a
confirmation; "Make a link" shows the link where the form is, in view, wrapped to the screen, with a copy
button, the form cleared and the table updated, and asks before a second link for the same person; the
grid has a Record button and a number pad, and an entry against a player's report asks "replace?" with
a reason that the round page then lists under Overrides. Screenshots in test-artifacts/serve-desk/."""
from __future__ import annotations

import os

import pytest

from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.conftest import Api, new_event, player_tokens
from tests.web.hall import PHONE, WAIT, Hall
from tests.web.server import Server

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-desk")


def test_the_desk_and_the_grid_on_a_phone(tmp_path):
    hall = Hall(ARTIFACTS)
    with Server(str(tmp_path / "event.db")) as server, browser() as b:
        api = Api(server.url, server.token)
        k = server.token
        tid = new_event(api, 8)  # 3 Swiss rounds, top 4
        api.do(tid, "pair")
        tables = api.get(f"/api/t/{tid}/tables").json()
        t1 = tables[0]
        assert api.post(f"/api/t/{tid}/report", {"player": t1["player1"], "result": "2-0"},
                        token=player_tokens(api, tid)[1]).status_code == 200
        phone = hall.page(b.new_context(**PHONE))

        # --- the grid: a Record button, a number pad, and "replace?" with a reason ---------------
        phone.goto(f"{server.url}/t/{tid}/grid?k={k}")
        box = phone.locator("#entry")
        assert box.get_attribute("inputmode") == "decimal" and box.get_attribute("enterkeyhint") == "send"
        assert phone.locator("#record").is_visible()
        box.fill("2.2.1")  # the phone's number pad
        phone.locator("#record").click()
        phone.locator("#entry-said.ok", has_text="Table 2:").wait_for(timeout=WAIT)
        said = phone.locator("#entry-said").bounding_box()
        assert said["x"] < 40 and said["width"] <= 390  # a line of its own, not beside the buttons
        box.fill(f"{t1['table']} 0-2")
        phone.locator("#record").click()
        ask = phone.locator("#entry-ask")
        ask.wait_for(timeout=WAIT)
        assert f"{t1['player1']} reported 2-0-0" in ask.inner_text()
        hall.shot(phone, "grid-asks-a-reason")
        ask.locator(".yes").click()
        phone.locator("#entry-said.bad", has_text="say why").wait_for(timeout=WAIT)
        ask.locator(".why").fill("the slip signed by both says 0-2")
        ask.locator(".yes").click()
        phone.locator("#entry-said.ok", has_text=f"Table {t1['table']}:").wait_for(timeout=WAIT)
        phone.goto(f"{server.url}/t/{tid}/round/1?k={k}")
        overrides = phone.locator("#overrides").inner_text()
        assert "the slip signed by both says 0-2" in overrides and "not as reported" in overrides

        # --- the desk: no top cut while Swiss rounds remain -------------------------------------------
        for t in tables[2:]:
            api.post(f"/api/t/{tid}/results", {"table": t["table"], "result": "2-0"})
        phone.goto(f"{server.url}/t/{tid}?k={k}")
        assert phone.locator("#pair").is_visible() and phone.locator("#top-cut").count() == 0
        assert phone.locator("#end-swiss summary").is_visible()
        assert not phone.locator("#end-swiss-early").is_visible()  # folded away

        # --- "Make a link": the link where the form is -----------------------------------------------
        name = phone.locator("#staff-links input[name=name]")
        name.fill("Kim")
        phone.select_option("#staff-links select[name=role]", "judge")
        phone.locator("#mint").click()
        link = phone.locator("#minted-link")
        link.wait_for(timeout=WAIT)
        assert f"/t/{tid}?k=" in link.inner_text()
        box = link.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box  # in view, not at the page's top
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box   # wrapped to the screen
        assert phone.evaluate("document.getElementById('staff-links').scrollWidth") <= 390
        assert phone.locator("#staff-links input[name=name]").input_value() == ""
        assert phone.locator("#staff tr", has_text="Kim").count() == 1
        phone.locator("button[data-copy=minted-link]").click()
        phone.locator(".copy-said", has_text="opied").or_(phone.locator(".copy-said", has_text="Selected")) \
            .wait_for(timeout=WAIT)
        hall.shot(phone, "desk-link-made")
        # the same person again: asked
        phone.locator("#staff-links input[name=name]").fill("kim")
        phone.select_option("#staff-links select[name=role]", "judge")
        phone.locator("#mint").click()
        phone.locator("#mint-again").wait_for(timeout=WAIT)
        assert "Kim already has a judge link" in phone.locator("#mint-again").inner_text()
        hall.shot(phone, "desk-second-link-asked")
        phone.locator("#mint-again-yes").click()
        phone.locator("#minted-link").wait_for(timeout=WAIT)
        assert phone.locator("#staff tr", has_text="Kim").count() == 2

        # --- End Swiss early: asked, then paired with the note -----------------------------------
        phone.locator("#end-swiss summary").click()
        phone.locator("#end-swiss input[name=end_swiss_early]").check()
        phone.locator("#end-swiss-early").click()  # the hall accepts hx-confirm's question
        phone.locator(".flash", has_text="Swiss ended early").first.wait_for(timeout=WAIT)
        hall.shot(phone, "desk-swiss-ended-early")
        api.http.close()
    assert hall.errors == [], "\n".join(hall.errors)
