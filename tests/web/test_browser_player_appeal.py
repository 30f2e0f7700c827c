"""A player appeals a judge's ruling from their table's page on a 360 px phone (headless Chromium,
the page's own form with htmx): the appeal is recorded as that player's, the page lists it as
pending and offers no second one, and nothing scrolls sideways. Screenshots in
test-artifacts/serve-player-appeal/."""
from __future__ import annotations

import os
import time

import pytest

from engine.store import EventStore
from tests.browser import needs_chromium
from tests.conftest import ROOT
from tests.web.conftest import player_tokens
from tests.web.hall import WAIT
from tests.web.matchsetup import mint, served_match
from tests.web.test_browser_match_phone import SMALL_PHONE

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-player-appeal")


def heard_more(page, than: int) -> None:
    """Wait until the page's live stream has said more than `than` changes (`window.__heard`),
    asked from here: `wait_for_function` evaluates its test inside the page, which the pages'
    Content-Security-Policy refuses (no eval) once it has to poll (a CI run on a loaded machine)."""
    deadline = time.time() + WAIT / 1000
    while page.evaluate("window.__heard") <= than:
        assert time.time() < deadline, f"the live stream said nothing more than {than} change(s)"
        page.wait_for_timeout(50)


def ruled_at_the_table(hall, b, server, api, tid: str, mid: str, *, page: bool = True):
    """Judge Kim's ruling at table 1 (through the API) and, with `page`, the table's page for its
    first player on a 360 px phone, opened as that player (`&me=`). (Kim's token, the ruling's
    position, the player's name, the phone's page or None.)"""
    kim = mint(api, tid, "judge", "Kim")
    ruling = api.post(f"/api/m/{mid}/do/ruling", {"text": "the blocker was rested: the attack stands"},
                      token=kim).json()["position"]
    me = api.get(f"/api/t/{tid}/tables").json()[0]["player1"]
    if not page:
        return kim, ruling, me, None
    phone = hall.page(b.new_context(**SMALL_PHONE))
    phone.goto(f"{server.url}/t/{tid}/play?k={player_tokens(api, tid)[1]}&me={me}")
    return kim, ruling, me, phone


def test_a_player_files_an_appeal_on_a_phone_and_sees_it_listed(tmp_path):
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, tid, mid):
        kim, ruling, me, _ = ruled_at_the_table(hall, b, server, api, tid, mid, page=False)
        phone = hall.page(b.new_context(**SMALL_PHONE))
        phone.goto(f"{server.url}/t/{tid}/play?k={player_tokens(api, tid)[1]}")
        phone.get_by_role("button", name=f"I am {me}").click()  # the page's own way to say who you are
        item = phone.locator(f"#decision-{ruling}")
        item.wait_for(timeout=WAIT)
        assert "the blocker was rested" in item.inner_text()
        item.get_by_text("Appeal this decision to the head judge").click()
        item.locator("textarea[name=reason]").fill("the blocker was active: it was not rested this turn")
        hall.shot(phone, "appeal-form-360")
        item.get_by_role("button", name="File my appeal").click()
        notice = phone.locator(".flash", has_text="Your appeal of the judge's decision at")
        notice.wait_for(timeout=WAIT)
        assert "the blocker was rested" in notice.inner_text() and f"event {ruling}" not in notice.inner_text()
        listed = phone.locator(f"#decision-{ruling} .appeal.pending")
        assert f"Appeal filed by {me}" in listed.inner_text() and "pending" in listed.inner_text()
        assert phone.locator(f"#decision-{ruling} textarea").count() == 0  # no second appeal offered
        widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1] == 360, widths  # no sideways scroll
        hall.shot(phone, "appeal-filed-360")
        with EventStore.open(db) as store:
            filed = [e for e in store.read(mid) if e.kind == "appeal.filed"]
        assert [(e.actor, e.payload["appealed"]) for e in filed] == [(me, ruling)]
    assert hall.errors == []


def test_the_head_judges_decision_reaches_the_players_page_without_a_reload(tmp_path):
    """The player's page open at 360 px, live; the head judge decides the appeal through the API from
    their own link. The player's page shows the decision by itself (the live stream), not reloaded."""
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, tid, mid):
        kim, ruling, me, phone = ruled_at_the_table(hall, b, server, api, tid, mid)
        item = phone.locator(f"#decision-{ruling}")
        item.get_by_text("Appeal this decision to the head judge").click()
        item.locator("textarea[name=reason]").fill("the blocker was active")
        item.get_by_role("button", name="File my appeal").click()
        phone.locator(f"#decision-{ruling} .appeal.pending").wait_for(timeout=WAIT)
        phone.locator("#live-status.on").wait_for(timeout=WAIT)
        phone.evaluate("window.__same_page = 1")  # gone if the page were loaded again
        head = mint(api, tid, "judge", "Ada")
        r = api.post(f"/api/m/{mid}/do/appeal", {"appealed": str(ruling), "decision": "overturned",
                                                 "text": "the blocker was active: the attack is blocked"},
                     token=head)
        assert r.status_code == 200, r.text
        decided = phone.locator(f"#decision-{ruling} .appeal.overturned")
        decided.wait_for(timeout=WAIT)
        assert "overturned by head judge Ada" in decided.inner_text()
        assert "the attack is blocked" in decided.inner_text()
        assert phone.evaluate("window.__same_page") == 1  # no reload: the live stream brought it
        widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1] == 360, widths
        hall.shot(phone, "appeal-decided-live-360")
    assert hall.errors == []


def test_a_judges_act_at_the_table_keeps_the_appeal_being_typed(tmp_path):
    """The player is typing an appeal (its <details> open) when the judge records something else at
    their table: the live stream names the table, and refreshing the table's part would close the
    form and lose the text. The part waits: the text and the open form survive; the page catches up
    once the appeal is filed, or once the box is left empty."""
    with served_match(tmp_path, ARTIFACTS) as (hall, db, server, b, api, tid, mid):
        kim, ruling, me, phone = ruled_at_the_table(hall, b, server, api, tid, mid)
        phone.locator("#live-status.on").wait_for(timeout=WAIT)
        phone.evaluate("window.__heard = 0; document.addEventListener('tj:changed', () => window.__heard++)")
        item = phone.locator(f"#decision-{ruling}")
        item.get_by_text("Appeal this decision to the head judge").click()
        box = item.locator("textarea[name=reason]")
        box.fill("the blocker was active: it was not")
        second = api.post(f"/api/m/{mid}/do/ruling", {"text": "the game goes on from the attack"},
                          token=kim).json()["position"]
        heard_more(phone, 0)
        phone.wait_for_timeout(1500)  # what a refresh takes to come back and swap the part
        assert box.input_value() == "the blocker was active: it was not"
        assert item.locator("details").evaluate("d => d.open")
        assert phone.locator(f"#decision-{second}").count() == 0  # not yet: it waits for the player
        hall.shot(phone, "appeal-typing-kept-360")
        box.fill("the blocker was active: it was not rested")
        item.get_by_role("button", name="File my appeal").click()
        phone.locator(f"#decision-{ruling} .appeal.pending").wait_for(timeout=WAIT)
        phone.locator(f"#decision-{second}").wait_for(timeout=WAIT)  # filed: the page is current again
        # left empty: the page catches up as the player leaves the box
        later = phone.locator(f"#decision-{second}")
        later.get_by_text("Appeal this decision to the head judge").click()
        later.locator("textarea[name=reason]").fill("a second thought")
        heard = phone.evaluate("window.__heard")
        third = api.post(f"/api/m/{mid}/do/ruling", {"text": "time extension of two minutes"},
                         token=kim).json()["position"]
        heard_more(phone, heard)
        phone.wait_for_timeout(1500)
        assert phone.locator(f"#decision-{third}").count() == 0
        later.locator("textarea[name=reason]").fill("")
        phone.locator("h2", has_text="Judges' decisions").click()  # the box loses the focus
        phone.locator(f"#decision-{third}").wait_for(timeout=WAIT)
        widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1] == 360, widths
    assert hall.errors == []
