"""A recorded match as the people at a table see it, in headless Chromium on a real server: a
scorekeeper records 10 turns of an optcg game by tapping buttons on a phone; a second recorder on
another browser sees every event as it lands; a page that missed the other's events is warned
before storing its line; a typed line refused keeps its text with the cursor at the error; undo is
the scorekeeper's correction; a player calls a judge from the table's QR page; the judge opens the
audit at that event, gives a ruling and a Warning (the penalty guide's suggestion shown); the replay
viewer steps to the event from its deep link; the saved replay works with the network off.
Hostile names and notes stay text on every page. Screenshots in test-artifacts/serve-match/; any
console error fails the test."""
from __future__ import annotations

import os
import re

import pytest

from tests.browser import browser, needs_chromium
from tests.conftest import FIXTURES, ROOT, run_cli
from tests.web.conftest import Api, player_tokens
from tests.web.hall import LAPTOP, PHONE, WAIT, Hall
from tests.web.matchsetup import mint, set_up
from tests.web.server import Server

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve-match")
EVIL = '<img src=x onerror="alert(1)">Eve'           # a player's name
NOTE = "</script><script>alert('note')</script> & co"  # a judge call's words
TURNS = 10


def head_of(page) -> int:
    return int(page.locator("#live-part").get_attribute("data-head"))


def tap(page, line: str) -> int:
    """Tap the button that records `line`; wait until the page shows the log one or more events on."""
    before = head_of(page)
    page.locator(f'#buttons button[data-line="{line}"]').tap()
    # (locator waits, not wait_for_function: the pages' Content-Security-Policy forbids eval)
    page.locator(f'#live-part:not([data-head="{before}"])').wait_for(timeout=WAIT)
    return head_of(page)


def lines_offered(page) -> list[str]:
    return page.locator("#buttons button[data-line]").evaluate_all("bs => bs.map(b => b.dataset.line)")


def play_turn(page, other, turn: int, seat: str, foe: str, hall) -> None:
    """One turn by buttons only: the turn, refresh, draw, DON!!, one DON!! on the Leader, the
    Leader attacks the Leader (from each player's second turn), damage and its Life card, pass.
    After every tap, the other recorder's page shows the same last event."""
    def step(line: str) -> None:
        h = tap(page, line)
        other.locator(f'#live-part[data-head="{h}"]').wait_for(timeout=WAIT)

    step(f"T{turn} {seat}:")
    for line in (f"{seat}: refresh", f"{seat}: draw", f"{seat}: don"):
        if line in lines_offered(page):
            step(line)
    offered = lines_offered(page)
    attack = f"{seat}: attack OP01-001>OP01-001"
    if f"{seat}: attach OP01-001" in offered and attack in offered:
        step(f"{seat}: attach OP01-001")
        step(attack)
        if turn == 4:
            hall.shot(page, "phone-battle-counters")
        step("damage")
        if f"{foe}: dmg" in lines_offered(page):
            step(f"{foe}: dmg")
        step("battle.end")
    step(f"{seat}: pass")


def test_a_table_recorded_judged_and_replayed_in_the_browser(tmp_path):
    hall = Hall(ARTIFACTS)
    db = str(tmp_path / "event.db")
    # the card data beside the log: names on every board ("OP01-016 Red Character B")
    assert run_cli("cards", "import", os.path.join(FIXTURES, "optcg", "cards.json"), db=db).returncode == 0
    with Server(db) as server, browser() as b:
        api = Api(server.url, server.token)
        html = api.http.get("/", params={"k": server.token}).text
        csrf = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
        r = api.http.post("/create", data={"k": server.token, "csrf": csrf, "name": "Store <b>Cup</b>",
                                           "game": "optcg", "policy": "bandai", "rounds": "3", "seed": "3"})
        tid = re.search(r"/t/(t-[0-9a-f]+)", r.headers["location"]).group(1)
        api.do(tid, "register", names="\n".join([EVIL, "Bob", "Cid", "Dan"]))
        api.do(tid, "pair")
        matches = {int(t): m for t, m in api.do(tid, "create_matches")["matches"].items()}
        evil_table = next(t["table"] for t in api.get(f"/api/t/{tid}/tables").json() if EVIL in (t["player1"], t["player2"]))
        mid = matches[evil_table]
        a, b_ = set_up(db, mid)
        sam = mint(api, tid, "recorder", "Sam", match=mid)
        lia = mint(api, tid, "recorder", "Lia", match=mid)  # a second recorder link for the match
        kim = mint(api, tid, "judge", "Kim")

        phone_ctx, lia_ctx, player_ctx, judge_ctx = (b.new_context(**PHONE), b.new_context(**PHONE),
                                                     b.new_context(**PHONE), b.new_context(**LAPTOP))
        phone, other = hall.page(phone_ctx), hall.page(lia_ctx)
        phone.goto(f"{server.url}/m/{mid}/record?k={sam}")
        other.goto(f"{server.url}/m/{mid}/record?k={lia}")
        for p in (phone, other):
            p.locator("#live-status.on").wait_for(timeout=WAIT)
        board = phone.locator("#board").inner_text()
        assert "OP01-001 Test Leader Red" in board  # names from the card data beside the log
        assert "hand\t5\t? ×5" in board  # a scorekeeper never sees hands (the desk registered them)
        assert EVIL in phone.locator("h1").inner_text()
        hall.shot(phone, "phone-recorder-start")

        # --- 10 turns by tapping buttons; the second recorder sees every event ----------------------
        seats = {a: "A", b_: "B"}
        for turn in range(1, TURNS + 1):
            active = a if turn % 2 else b_
            foe = b_ if active == a else a
            play_turn(phone, other, turn, seats[active], seats[foe], hall)
            if turn == 1:
                hall.shot(phone, "phone-after-turn-1")
        assert other.locator("#live-part").get_attribute("data-head") == phone.locator("#live-part").get_attribute("data-head")
        assert f"T{TURNS + 1} " in " ".join(lines_offered(phone))
        data = api.get(f"/api/m/{mid}").json()
        assert data["boards"][-1]["turn"] == TURNS
        recorded = [e for e in data["events"] if e["p"] > 10]
        assert all(e["by"].startswith("recorder Sam (link ") for e in recorded)
        lives = {p["name"]: next(z["n"] for z in p["zones"] if z["zone"] == "life") for p in data["boards"][-1]["players"]}
        assert lives[a] < 5 and lives[b_] < 5  # the attacks hit
        hall.shot(phone, "phone-after-10-turns")
        hall.shot(other, "second-recorder-after-10-turns")

        # --- a typed line refused: it stays, the cursor at the error --------------------------------
        bad = "B: don.rest 1 · frobnicate"
        n = head_of(phone)
        phone.fill("#line", bad)
        phone.locator("#record-line").tap()
        phone.locator("#line-error").wait_for(timeout=WAIT)
        assert phone.locator("#line").input_value() == bad
        # the cursor is placed when htmx settles the swap (20 ms after it), so wait for it
        phone.locator("#line:focus").wait_for(timeout=WAIT)
        assert phone.evaluate("document.getElementById('line').selectionStart") == bad.index("frobnicate")
        assert head_of(phone) == n
        hall.shot(phone, "phone-line-refused")

        # --- two recorders: a page that missed the other's event is asked before storing ------------
        stale = lia_ctx.new_page()  # its connection to the live stream is down: no news (the failed
        stale.on("pageerror", lambda e: hall.errors.append(f"stale page: {e}"))  # loads are the point here)
        stale.route("**/m/*/live", lambda route: route.abort())
        stale.goto(f"{server.url}/m/{mid}/record?k={lia}")
        seat = "A" if TURNS % 2 == 0 else "B"
        tap(phone, f"T{TURNS + 1} {seat}:")
        stale.fill("#line", f"T{TURNS + 1} {seat}:")
        stale.locator("#record-line").tap()
        stale.locator("#moved").wait_for(timeout=WAIT)
        assert "= your line" in stale.locator("#moved").inner_text() and "recorder Sam" in stale.locator("#moved").inner_text()
        hall.shot(stale, "second-recorder-warned")
        stale.locator("#discard").tap()
        assert stale.locator("#line").input_value() == ""
        assert api.get(f"/api/m/{mid}").json()["match"]["head"] == head_of(phone)  # nothing stored twice

        # --- undo: the scorekeeper's correction; the other page shows it struck through -------------
        h = head_of(phone)
        phone.locator("#undo").tap()
        phone.locator("#flash-m .flash", has_text="is void").wait_for(timeout=WAIT)
        other.locator(f"#r{h}.void").wait_for(timeout=WAIT)
        last = api.get(f"/api/m/{mid}").json()["events"][-1]
        assert (last["kind"], last["actor"]) == ("correction", "scorekeeper:Sam")

        # --- a player calls a judge from the table's QR page ----------------------------------------
        link = f"{server.url}/t/{tid}/play?k={player_tokens(api, tid)[evil_table]}"
        player = hall.page(player_ctx)
        player.goto(link)
        player.get_by_role("button", name=f"I am {EVIL}").tap()
        player.fill("input[name=reason]", NOTE)
        player.locator("#call-judge").tap()
        player.get_by_text("a judge is called").wait_for(timeout=WAIT)
        hall.shot(player, "player-called-a-judge")
        call = api.get(f"/api/t/{tid}/calls").json()[0]
        assert (call["caller"], call["reason"], call["open"]) == (EVIL, NOTE, True)

        # --- the judge: the queue, the audit at that event, a ruling and a Warning -------------------
        judge = hall.page(judge_ctx)
        judge.goto(f"{server.url}/t/{tid}/queue?k={kim}")
        card = judge.locator(f'[data-call="{mid}:{call["position"]}"]')
        card.wait_for(timeout=WAIT)
        assert NOTE in card.inner_text() and EVIL in card.inner_text()
        hall.shot(judge, "judges-queue-call")
        card.locator("[data-open-call]").click()
        judge.locator("#ruling-form").wait_for(timeout=WAIT)
        judge.wait_for_load_state("load")  # the desk's script (rule words, the guide's suggestion) has run
        at = call["at"]
        assert judge.locator("tr.current td").first.inner_text() == str(at)
        assert "recorder Sam" in judge.locator(".audit-events").inner_text()  # who recorded each
        judge.select_option("#ruling-form select[name=rule]", "OPTCG-BATTLE-8")
        assert "«" in judge.locator("#ruling-cite").inner_text()  # the rulebook's own words beside the English
        judge.fill("#ruling-form textarea[name=text]", "The damage stands; play on.")
        judge.locator("#give-ruling").click()
        judge.locator("#flash-c .flash", has_text="ruling recorded").wait_for(timeout=WAIT)
        judge.locator("#answers [data-ruling]").wait_for(timeout=WAIT)
        judge.select_option("#penalty-form select[name=player]", EVIL)
        judge.select_option("#penalty-form select[name=infraction]", "OPTCG-PG-LOOKING-AT-UNNECESSARY-CARDS")
        assert "The guide suggests Warning" in judge.locator("#suggestion").inner_text()
        assert judge.locator("#penalty-form select[name=penalty]").input_value() == "Warning"
        judge.select_option("#penalty-form select[name=penalty]", "Caution")
        assert "Deviation" in judge.locator("#suggestion").inner_text()
        judge.select_option("#penalty-form select[name=penalty]", "Warning")
        judge.fill("#penalty-form textarea[name=reason]", "looked at the top card of the deck")
        hall.shot(judge, "judge-call-audit-and-forms")
        judge.locator("#give-penalty").click()
        judge.locator("#flash-c .flash", has_text="Warning to").wait_for(timeout=WAIT)
        events = api.get(f"/api/m/{mid}", token=kim).json()["events"]
        ruling, penalty = events[-2], events[-1]
        assert (ruling["kind"], ruling["actor"]) == ("judge.ruling", "judge:Kim")
        assert (penalty["kind"], penalty["actor"]) == ("judge.penalty", "judge:Kim")
        assert api.get(f"/api/t/{tid}/calls").json()[0]["open"] is False

        # --- the appeals file: this incident on one A4 page in print, the report as its appendix -----
        call_url = judge.url
        judge.locator("#appeals-link").click()
        judge.locator("section.incident").first.wait_for(timeout=WAIT)
        incident = judge.locator("section.incident").first.inner_text()
        assert "Ruling:" in incident and "Penalty: Warning" in incident and "Log head at signing" in incident
        heights = judge.evaluate("(() => { const s = [...document.querySelectorAll('section.incident')];"
                                 " return s.map(x => x.getBoundingClientRect().height); })()")
        judge.emulate_media(media="print")
        judge.set_viewport_size({"width": 703, "height": 1017})  # A4 less the page margins, in CSS px
        printed = judge.evaluate("(() => [...document.querySelectorAll('section.incident')]"
                                 ".map(x => x.getBoundingClientRect().height))()")
        assert heights and all(h <= 1017 for h in printed), printed  # each incident fits one A4 page
        hall.shot(judge, "appeals-file-print")
        judge.emulate_media(media="screen")
        judge.set_viewport_size(LAPTOP["viewport"])
        judge.goto(call_url)

        # --- the replay steps to the event from its deep link ---------------------------------------
        judge.locator("#replay-link").click()
        judge.locator(f'body[data-shown="{at}"]').wait_for(timeout=WAIT)
        assert judge.url.endswith(f"#e{at}")
        assert "current" in judge.locator(f"#e{at}").get_attribute("class")
        judge.keyboard.press("ArrowRight")
        assert judge.locator("body").get_attribute("data-shown") == str(at + 1)
        # the call, the ruling, the penalty (and the undo): marks close together merge, each names its events
        marked = judge.evaluate("[...document.querySelectorAll('.mark.is-judge')]"
                                ".flatMap(m => m.getAttribute('data-positions').split(' '))")
        assert len(marked) >= 3, marked
        hall.shot(judge, "replay-deep-link")
        public = hall.page(player_ctx)
        public.goto(f"{server.url}/m/{mid}#e{at}")
        public.locator(f'body[data-shown="{at}"]').wait_for(timeout=WAIT)
        assert "Hidden information stays hidden" in public.locator(".notice").inner_text()
        assert NOTE in public.locator("#log").inner_text()
        # live: the next event reaches the open replay by itself (the turn the undo voided, again)
        tap(phone, f"T{TURNS + 1} {seat}:")
        public.locator(f"#e{head_of(phone)}").wait_for(timeout=WAIT)
        hall.shot(public, "replay-public-live")

        # --- the saved replay works with the network off --------------------------------------------
        with judge.expect_download() as dl:
            judge.get_by_role("link", name="save this replay").click()
        saved = str(tmp_path / "saved-replay.html")
        dl.value.save_as(saved)
        offline_ctx = b.new_context(offline=True, **LAPTOP)
        offline = hall.page(offline_ctx)
        fetched: list[str] = []
        offline.on("request", lambda req: fetched.append(req.url) if not req.url.startswith(("file:", "data:")) else None)
        offline.goto(f"file://{saved}#e{at}")
        assert offline.locator("body").get_attribute("data-shown") == str(at)
        offline.keyboard.press("ArrowLeft")
        assert offline.locator("body").get_attribute("data-shown") == str(at - 1)
        assert EVIL in offline.locator("header").inner_text()
        hall.shot(offline, "saved-replay-offline")
        assert fetched == []

        # --- hostile names and notes stayed text on every page -------------------------------------
        for p in (phone, other, judge, public, offline, player):
            assert p.evaluate("document.querySelectorAll('img[src=x], b').length") == 0, p.url
            assert p.evaluate("window.__pwned === undefined")
        for ctx in (phone_ctx, lia_ctx, player_ctx, judge_ctx, offline_ctx):
            ctx.close()
    assert hall.errors == [], "\n".join(hall.errors)
