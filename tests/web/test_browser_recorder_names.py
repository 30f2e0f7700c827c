"""Card names on the recorder page at 360x740 (QA70 item 3): a name is narrowed by the speaker's seat,
as the terminal recorder does, from what this link may see; how it was narrowed is said beside the
stored line, and a name still ambiguous is refused with the candidates and the number to type.
Screenshots in test-artifacts/serve-recorder-names/."""
from __future__ import annotations

import os

import pytest

from engine.match import Match
from engine.store import EventStore
from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.hall import WAIT, Hall
from tests.web.matchsetup import recorder_link
from tests.web.server import Server

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-recorder-names")
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}


def test_b_play_nami_is_never_read_as_the_opponents_card_and_a_narrowed_name_is_said(tmp_path):
    """QA70 item 3 (bug): after A played OP01-016 Nami, 'B: play nami' was stored as OP01-016, A's
    card, with no question. A match from a pairing: no decks registered; another link (the desk)
    recorded B drawing OP01-016, which Sam's link may not learn by narrowing either."""
    hall = Hall(ARTIFACTS)
    with Server(str(tmp_path / "event.db")) as server, browser() as b:
        mid, sam = recorder_link(server)
        with EventStore.open(server.db) as store:
            m = Match(store, mid)
            bob = m.players[1]
            m.record("draw", {"player": bob, "count": 1, "cards": ["OP01-016"]}, actor=bob, recorded_by="desk")
        page = hall.page(b.new_context(**PHONE))
        page.goto(f"{server.url}/m/{mid}/record?k={sam}")
        page.locator("#live-status.on").wait_for(timeout=WAIT)
        box = page.locator("#line")

        def send(text: str) -> None:
            head = page.locator("#live-part").get_attribute("data-head")
            box.fill(text)
            page.locator("#record-line").tap()
            page.wait_for_function(
                "h => document.querySelector('#line-error') || document.querySelector('#live-part')"
                ".dataset.head !== h", arg=head, timeout=WAIT)

        send("A: play OP01-016")
        page.locator("#done").wait_for(timeout=WAIT)
        head = page.locator("#live-part").get_attribute("data-head")
        send("B: play nami")
        error = page.locator("#line-error")
        error.wait_for(timeout=WAIT)
        said = error.inner_text()
        assert "'nami' could be" in said and f"(none seen in this match for {bob})" in said
        assert "OP01-016 Nami" in said and "type the card number in its place" in said
        assert "nothing of this line was recorded" in said
        assert page.locator("#live-part").get_attribute("data-head") == head  # nothing stored
        assert box.input_value() == "B: play nami"  # kept, to type the number in its place
        hall.shot(page, "nami-refused-360")
        with EventStore.open(server.db) as store:
            assert not [e for e in Match(store, mid).events() if e.kind == "play" and e.actor == bob]

        send("B: deck OP01-060 deck_size=50")  # Doflamingo: a Blue Leader, no decklist
        page.locator("#done").wait_for(timeout=WAIT)
        send("B: play monet")  # 3 Monets; one a Blue deck may hold
        note = page.locator("#done .card-note")
        note.wait_for(timeout=WAIT)
        assert note.inner_text() == f"= monet \u2192 OP01-082, the only Monet in {bob}'s deck colours (Blue)"
        box_right = note.evaluate("n => n.getBoundingClientRect().right")
        assert box_right <= 360 and page.evaluate("document.documentElement.scrollWidth") <= 360
        hall.shot(page, "monet-said-360")
        with EventStore.open(server.db) as store:
            plays = [e.payload["card"] for e in Match(store, mid).events() if e.kind == "play" and e.actor == bob]
        assert plays == ["OP01-082"]
    assert hall.errors == []
