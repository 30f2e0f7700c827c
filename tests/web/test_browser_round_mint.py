"""The round page's "recorder link" on a 390×844 phone, in headless Chromium (QA: the link, shown only
once, never appeared: the form sat inside #tables and inherited its hx-select="#tables", so the
answer, which has no #tables, emptied #flash). Now the link shows under that table's form, focused and
in view, wrapped to the screen (also at 360 px), with a Copy button; a live refresh of the tables keeps
it; the link opens the recorder. Screenshots in test-artifacts/serve-round-mint/."""
from __future__ import annotations

import os
import re

import pytest

from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.conftest import Api
from tests.web.hall import PHONE, WAIT, Hall
from tests.web.matchsetup import optcg_event
from tests.web.server import Server

ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-round-mint")


def test_the_round_page_answers_a_recorder_link_in_the_tables_place(api):
    tid, matches = optcg_event(api, 8)
    html = api.http.get(f"/t/{tid}/round/1", params={"k": api.token}).text
    assert 'id="tables"' in html and 'hx-disinherit="*"' in html  # its forms answer where they say
    csrf = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
    form = {"k": api.token, "csrf": csrf, "part": "recorder", "role": "recorder", "match": matches[3], "name": "Sam",
            "back": f"/t/{tid}/round/1"}  # as the page's form sends it
    r = api.http.post(f"/t/{tid}/do/mint", data=form, headers={"hx-request": "true"})
    assert r.status_code == 200, r.text
    link = re.search(r'<code id="minted-link-3"[^>]*autofocus>([^<]+)</code>', r.text).group(1)
    assert f"/m/{matches[3]}/record?k=" in link and 'data-copy="minted-link-3"' in r.text
    assert 'data-mint-recorder="3"' in r.text and 'value="Sam"' not in r.text  # the form again, empty
    # without JavaScript: the link on a page of its own
    r = api.http.post(f"/t/{tid}/do/mint", data={**form, "name": "Lia"})
    assert r.status_code == 200 and f"/m/{matches[3]}/record?k=" in r.text and f"/t/{tid}/round/1" in r.text


@needs_chromium[0]
@needs_chromium[1]
@pytest.mark.slow
def test_a_recorder_link_made_on_the_round_page_is_shown_by_its_table(tmp_path):
    hall = Hall(ARTIFACTS)
    with Server(str(tmp_path / "event.db")) as server, browser() as b:
        api = Api(server.url, server.token)
        k = server.token
        tid, matches = optcg_event(api, 16)  # 8 tables: table 7 is below the fold on a phone
        phone = hall.page(b.new_context(**PHONE))
        phone.goto(f"{server.url}/t/{tid}/round/1?k={k}")
        phone.locator("#live-status.on").wait_for(timeout=WAIT)
        form = phone.locator("form:has(button[data-mint-recorder='7'])")  # as on the page before the fix
        form.locator("input[name=name]").fill("Sam")
        form.locator("button[data-mint-recorder='7']").click()
        phone.locator("[id^=minted-link]").first.wait_for(timeout=WAIT)  # (before the fix: never)
        link = phone.locator("#minted-link-7")
        assert link.is_visible()
        url = link.inner_text().strip()
        assert f"/m/{matches[7]}/record?k=" in url
        assert phone.evaluate("document.activeElement && document.activeElement.id") == "minted-link-7"
        box = link.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box  # in view, by the table
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box   # wrapped to the screen
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        assert phone.locator("#flash").count() == 1  # the message area is still there
        assert phone.locator("#mint-t7 input[name=name]").input_value() == ""
        phone.locator("button[data-copy=minted-link-7]").click()
        phone.locator("#mint-t7 .copy-said", has_text="opied").or_(
            phone.locator("#mint-t7 .copy-said", has_text="Selected")).wait_for(timeout=WAIT)
        hall.shot(phone, "round-recorder-link-made")

        # another table's result refreshes #tables live: the link stays
        r = api.post(f"/api/t/{tid}/results", {"table": 1, "result": "1-0"})  # optcg: best of one
        assert r.status_code == 200, r.text
        phone.locator("#tables tr.confirmed").first.wait_for(timeout=WAIT)
        assert link.is_visible() and link.inner_text().strip() == url

        # a 360 px phone: still wrapped
        phone.set_viewport_size({"width": 360, "height": 780})
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360
        hall.shot(phone, "round-recorder-link-360")

        # the link works: it opens table 7's recorder
        rec = hall.page(b.new_context(**PHONE))
        rec.goto(url)
        rec.locator("#board").wait_for(timeout=WAIT)
        assert rec.locator("body.record").count() == 1
        hall.shot(rec, "recorder-from-round-link")
        api.http.close()
    assert hall.errors == [], "\n".join(hall.errors)
