"""A player's table page on a phone-sized headless Chromium, where things go wrong: the server
refuses a report (the round closed meanwhile, a tampered link), the server cannot be reached when
a result is tapped, and the "live" badge after the table's part of the page is updated. The page
stays, says what happened and what to do next; no console error. Screenshots in
test-artifacts/serve-player/."""
from __future__ import annotations

import os
import signal
from contextlib import contextmanager

import pytest

from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.conftest import Api, new_event, player_tokens
from tests.web.hall import PHONE, WAIT, Hall
from tests.web.server import Server

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-player")
NOT_SENT = "not sent: the server cannot be reached — tap again when it is back"


def event_with_round(server: Server) -> tuple[Api, str, dict, str]:
    """An 8-player event with round 1 paired: the API, its id, table 1 and table 1's player link."""
    api = Api(server.url, server.token)
    tid = new_event(api, 8)
    api.do(tid, "pair")
    t1 = api.get(f"/api/t/{tid}/tables").json()[0]
    return api, tid, t1, f"{server.url}/t/{tid}/play?k={player_tokens(api, tid)[1]}"


@contextmanager
def phone_at_table_1(db: str, **server_args):
    """A server on `db` with round 1 paired, a browser, and a phone-sized page on table 1's player
    link, live, as its first player: (hall, server, browser, api, tid, table 1, link, phone)."""
    hall = Hall(ARTIFACTS)
    with Server(db, **server_args) as server, browser() as b:
        api, tid, t1, link = event_with_round(server)
        phone = hall.page(b.new_context(**PHONE))
        open_as(phone, link, t1["player1"])
        yield hall, server, b, api, tid, t1, link, phone


def open_as(page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_role("button", name=f"I am {name}").click()
    page.locator("#live-status.on", has_text="live").wait_for(timeout=WAIT)


def badge(page) -> tuple[str, str]:
    el = page.locator("#live-status")
    return el.inner_text().strip(), el.get_attribute("class")


def test_a_refused_report_keeps_the_page_and_says_why_and_what_next(tmp_path):
    with phone_at_table_1(str(tmp_path / "event.db")) as (hall, server, b, api, tid, t1, link, phone):
        # a tampered link in the form: 403, nothing stored, the page stays and says so
        phone.evaluate("""() => document.querySelectorAll('input[name=k]').forEach(
            i => { i.value = i.value.slice(0, -3) + (i.value.endsWith('AAA') ? 'BBB' : 'AAA'); })""")
        phone.locator(".choices button").first.click()
        alert = phone.locator("[role=alert]")
        alert.wait_for(timeout=WAIT)
        assert "Nothing was stored" in alert.inner_text()
        assert "Scan the slip's QR code again" in alert.inner_text()
        assert alert.evaluate("e => e.nextElementSibling.matches('form')")  # by the buttons tapped
        assert phone.locator("h1", has_text="Table 1").is_visible()
        hall.shot(phone, "tampered")
        assert api.get(f"/api/t/{tid}/tables").json()[0]["reports"] == {}

        # the round closes while the page is open, before its live update arrives (the page is
        # told to wait for none): a tap is refused; the page shows the refusal and where to go next
        phone.reload()
        phone.locator("#live-status.on").wait_for(timeout=WAIT)
        phone.evaluate("() => document.getElementById('table').removeAttribute('data-topics')")
        for t in api.get(f"/api/t/{tid}/tables").json():
            api.post(f"/api/t/{tid}/results", {"table": t["table"], "result": "2-1"})
        api.do(tid, "close")
        phone.locator(".choices button").first.click()
        alert = phone.locator("#table [role=alert]")
        alert.wait_for(timeout=WAIT)
        text = phone.locator("#table").inner_text()
        assert "is closed" in text and "Nothing was stored" in text
        for href in (f"/t/{tid}/pairings", f"/t/{tid}/standings", f"/t/{tid}/me"):
            assert phone.locator(f'#table a[href^="{href}"]').count() == 1, href
        hall.shot(phone, "closed")
        assert api.get(f"/api/t/{tid}/tables").json()[0]["reports"] == {}
    assert hall.errors == []


def test_a_tap_while_the_server_is_down_says_not_sent_and_the_badge_stops_saying_live(tmp_path):
    db = str(tmp_path / "event.db")
    with phone_at_table_1(db) as (hall, server, b, api, tid, t1, link, phone):
        grid = hall.page(b.new_context(viewport={"width": 1280, "height": 900}))
        grid.goto(f"{server.url}/t/{tid}/grid?k={server.token}")
        grid.locator("#live-status.on").wait_for(timeout=WAIT)

        os.killpg(server.proc.pid, signal.SIGKILL)  # the server's machine is gone, not shut down
        server.proc.wait(10)
        phone.locator(".choices button").first.click()
        note = phone.locator("[role=alert]", has_text=NOT_SENT)
        note.wait_for(timeout=WAIT)
        assert note.evaluate("e => e.nextElementSibling.matches('form')")  # by the buttons tapped
        phone.wait_for_function("() => document.querySelector('#live-status').textContent !== 'live'", timeout=WAIT)
        text, cls = badge(phone)
        assert "off" in cls.split() and text != "live", (text, cls)
        hall.shot(phone, "not-sent")
        # the results grid says the same, with the same code
        grid.locator("#entry").fill("1 2-0")
        grid.locator("#entry").press("Enter")
        grid.locator("#entry-said.bad", has_text=NOT_SENT).wait_for(timeout=WAIT)
        assert "off" in badge(grid)[1].split()

        with Server(db, port=server.port):  # back: the badge says live again and a tap is stored
            phone.locator("#live-status.on", has_text="live").wait_for(timeout=WAIT)
            grid.locator("#live-status.on", has_text="live").wait_for(timeout=WAIT)
            # QA70 #11: the "not sent" note goes once the page is live again, not at the next tap
            phone.locator("[role=alert]", has_text=NOT_SENT).wait_for(state="detached", timeout=WAIT)
            hall.errors.clear()  # the browser's own log of the refused and broken connections meanwhile
            phone.locator(".choices button").first.click()
            phone.locator("#status.reported").wait_for(timeout=WAIT)
            assert phone.locator("[role=alert]").count() == 0
            phone.close()
            grid.close()
    assert hall.errors == []


def test_the_live_badge_says_live_in_green_after_the_table_is_updated(tmp_path):
    with phone_at_table_1(str(tmp_path / "event.db")) as (hall, server, b, api, tid, t1, link, phone):
        token = link.split("k=")[1]
        r = api.post(f"/api/t/{tid}/report", {"player": t1["player2"], "result": "2-0"}, token=token)
        assert r.status_code == 200, r.text
        phone.locator("#status.reported").wait_for(timeout=WAIT)  # the table's part was swapped
        phone.wait_for_timeout(500)  # htmx settles the swapped part (its attributes) after 20 ms
        assert badge(phone) == ("live", "live on")
        assert phone.locator("#live-status").count() == 1
        hall.shot(phone, "badge-after-update")
        assert hall.errors == []
        # the server shuts down with the page open: it exits at once and the page says so
        os.killpg(server.proc.pid, signal.SIGTERM)
        server.proc.wait(5)
        phone.locator("#live-status.off", has_text="reconnecting…").wait_for(timeout=WAIT)


def test_a_connection_that_goes_quiet_without_an_error_is_noticed_and_picked_up_again(tmp_path):
    """A phone whose connection hangs without an error (here: the server frozen with SIGSTOP, its
    socket open) hears no `ping` for three pings: the badge stops saying live and the page
    reconnects; the server back, it says live again and updates."""
    with phone_at_table_1(str(tmp_path / "event.db"), env={"TABLEJUDGE_LIVE_PING_SECONDS": "1"}) as (
            hall, server, b, api, tid, t1, link, phone):
        phone.wait_for_timeout(3500)  # quiet, but pinged: still live
        assert badge(phone) == ("live", "live on")
        os.killpg(server.proc.pid, signal.SIGSTOP)
        try:
            phone.locator("#live-status.off", has_text="reconnecting…").wait_for(timeout=WAIT)
            hall.shot(phone, "quiet-connection")
        finally:
            os.killpg(server.proc.pid, signal.SIGCONT)
        phone.locator("#live-status.on", has_text="live").wait_for(timeout=WAIT)
        token = link.split("k=")[1]
        r = api.post(f"/api/t/{tid}/report", {"player": t1["player2"], "result": "2-0"}, token=token)
        assert r.status_code == 200, r.text
        phone.locator("#status.reported").wait_for(timeout=WAIT)  # live updates flow again
    assert hall.errors == []


def test_a_reloaded_page_shows_the_standing_call_until_a_judge_answers_it_from_the_queue(tmp_path):
    """A player called a judge and reloaded the page: it showed nothing of the call and offered
    "Call a judge" again (QA75 3). Now it says the call stands, with no button; a judge taps
    "Answered" on the queue (the card moves to the answered list by itself); the player's page
    offers a call again."""
    with phone_at_table_1(str(tmp_path / "event.db")) as (hall, server, b, api, tid, t1, link, phone):
        me = t1["player1"]
        phone.locator("input[name=reason]").fill("he looked at my Life")
        phone.locator("#call-judge").click()
        phone.locator("[role=status]", has_text="A judge is called to table 1").wait_for(timeout=WAIT)
        assert phone.locator("#call-judge").count() == 0
        open_as(phone, link, me)  # the page loaded again, as a reload does
        said = phone.locator("#my-call")
        assert said.inner_text().startswith("A judge is called to your table (")
        assert "“he looked at my Life”" in said.inner_text() and phone.locator("#call-judge").count() == 0
        hall.shot(phone, "call-after-reload")
        kim = api.do(tid, "mint", role="judge", name="Kim")["link"]
        desk = hall.page(b.new_context(**PHONE))
        desk.goto(f"{server.url}/t/{tid}/queue?k=" + kim.split("k=")[1])
        desk.locator("#live-status.on").wait_for(timeout=WAIT)
        desk.locator("button[data-answer-call]").click()
        desk.locator("#calls details summary", has_text="1 answered call").wait_for(timeout=WAIT)
        assert desk.locator(".call-card").count() == 0 and "judge Kim — answered at the table" in \
            desk.locator("#calls").text_content()  # in the folded list of answered calls
        hall.shot(desk, "queue-answered")
        calls = api.get(f"/api/t/{tid}/calls").json()
        assert [(c["caller"], c["open"]) for c in calls] == [(me, False)], calls
        open_as(phone, link, me)
        phone.locator("#call-judge").wait_for(timeout=WAIT)
        assert phone.locator("#my-call").count() == 0
    assert hall.errors == []


def test_a_second_call_a_judge_tap_stores_no_second_call_and_says_already_called(tmp_path):
    """QA70 #4, the QA's own steps on a phone: a call with a reason, then "Call a judge" tapped again
    on the page that answered it (its reason box empty). The answer page showed the log's head with
    the first call in it as `seen`, so the second tap stored a second call, "about event 2" (the
    first call). Now: one call, about the match's start (no play yet), and the page says so."""
    with phone_at_table_1(str(tmp_path / "event.db")) as (hall, server, b, api, tid, t1, link, phone):
        me = t1["player1"]
        phone.locator("input[name=reason]").fill("opponent <b>took</b> back a card")
        phone.locator("#call-judge").click()
        phone.locator("[role=status]", has_text="A judge is called to table 1").wait_for(timeout=WAIT)
        # the call stands: no second call is offered (a stale tab's is refused: test_call_seen.py)
        assert phone.locator("input[name=reason]").count() == 0 and phone.locator("#call-judge").count() == 0
        hall.shot(phone, "call-twice")
        calls = api.get(f"/api/t/{tid}/calls").json()
        assert [(c["caller"], c["reason"]) for c in calls] == [(me, "opponent <b>took</b> back a card")], calls
        assert calls[0]["at"] == 1, calls  # the match's start, not a call
    assert hall.errors == []
