"""A whole event as the people at it would run it, in headless Chromium: the organizer imports 16
players from a CSV file on a laptop, pairs 3 Swiss rounds and prints the slips; "players" on two
phone-sized browsers scan a table's link, report and confirm; one disagreement goes to the
judges' queue and a judge decides it; a scorekeeper types results into the grid; a player drops;
a top 4 is played and the final placings shown; a standings board in a third browser updates by
itself. Screenshots go to test-artifacts/serve/; no page may log a console error."""
from __future__ import annotations

import os
import re

import pytest

from tests.browser import browser, needs_chromium
from tests.conftest import FIXTURES, ROOT
from tests.web.hall import LAPTOP, PHONE, WAIT, Hall, see
from tests.web.server import Server

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve")


def report_on_phones(hall, phone_a, phone_b, link, p1, p2, slip1, slip2=None):
    """p1 reports `slip1` (their games first) on phone A; p2 confirms on phone B, or reports
    `slip2` (their own view) when given."""
    phone_a.goto(link)
    phone_a.get_by_role("button", name=f"I am {p1}").click()
    phone_a.locator(f'button[data-slip="{slip1}"]').click()
    phone_a.locator("#status.reported").wait_for(timeout=WAIT)
    phone_b.goto(link)
    phone_b.get_by_role("button", name=f"I am {p2}").click()
    if slip2 is None:
        phone_b.locator("#confirm").click()
        phone_b.locator("#status.confirmed").wait_for(timeout=WAIT)
    else:
        phone_b.locator(f'button[data-slip="{slip2}"]').click()
        phone_b.locator("#status.disputed").wait_for(timeout=WAIT)


def slips(page, server, tid, k) -> list[dict]:
    page.goto(f"{server.url}/t/{tid}/slips?k={k}")
    out = []
    for slip in page.locator("[data-slip-table]").all():
        names = slip.locator("p strong").all_inner_texts()
        out.append({"table": int(slip.get_attribute("data-slip-table")), "p1": names[0], "p2": names[1],
                    "link": slip.locator(".url a").get_attribute("href")})
    return out


def grid_entry(page, server, tid, k, entries: list[tuple[int, str]]) -> None:
    """The scorekeeper types each `TABLE W-L` and Enter, as fast as the grid answers."""
    page.goto(f"{server.url}/t/{tid}/grid?k={k}")
    box = page.locator("#entry")
    for table, slip in entries:
        box.fill(f"{table} {slip}")
        box.press("Enter")
        page.locator("#entry-said.ok", has_text=f"table {table}:").wait_for(timeout=WAIT)


def test_a_whole_event_in_the_browser(tmp_path):
    hall = Hall(ARTIFACTS)
    with Server(str(tmp_path / "event.db")) as server, browser() as b:
        laptop, phones = b.new_context(**LAPTOP), [b.new_context(**PHONE), b.new_context(**PHONE)]
        board_ctx, judge_ctx = b.new_context(viewport={"width": 1600, "height": 900}), b.new_context(**LAPTOP)
        org = hall.page(laptop)
        phone_a, phone_b = hall.page(phones[0]), hall.page(phones[1])
        k = server.token

        # --- the organizer creates the event and imports the registrations ------------------
        org.goto(f"{server.url}/?k={k}")
        org.fill("input[name=name]", "Browser Cup")
        org.select_option("select[name=game]", "optcg")
        org.fill("input[name=rounds]", "3")
        org.select_option("select[name=top_cut]", "4")
        org.get_by_role("button", name="Create", exact=True).click()
        org.wait_for_url(re.compile(r"/t/t-[0-9a-f]+\?"))
        tid = re.search(r"/t/(t-[0-9a-f]+)", org.url).group(1)
        # no policy chosen: the game's own standings policy (QA: an optcg event took mtg's)
        assert "optcg · standings policy bandai ·" in org.locator("main").inner_text(timeout=WAIT)
        org.set_input_files("input[name=csv]", os.path.join(FIXTURES, "web", "registrations-16.csv"))
        org.get_by_role("button", name="Import", exact=True).click()
        see(org, "registered 16 players")
        org.fill("textarea[name=names]", "luca  conte")
        org.get_by_role("button", name="Register", exact=True).click()
        assert "looks like 'Luca Conte'" in org.locator("#flash .error").inner_text(timeout=WAIT)
        hall.shot(org, "desk-registered")

        # staff links minted on the organizer page
        org.fill("input[name=name][placeholder='their name']", "Kim")
        org.select_option("select[name=role]", "judge")
        org.locator("#mint").click()
        judge_link = org.locator("#minted-link").inner_text(timeout=WAIT)
        org.reload()
        org.fill("input[name=name][placeholder='their name']", "Sam")
        org.select_option("select[name=role]", "scorekeeper")
        org.locator("#mint").click()
        sk_link = org.locator("#minted-link").inner_text(timeout=WAIT)
        sk = re.search(r"k=(\S+)", sk_link).group(1)
        judge = hall.page(judge_ctx)

        # the standings board on the hall's screen, left open: it must update by itself
        board = hall.page(board_ctx)
        board.goto(f"{server.url}/t/{tid}/standings")
        board.locator("#live-status.on").wait_for(timeout=WAIT)

        dropped = None
        for rnd in (1, 2, 3):
            org.goto(f"{server.url}/t/{tid}?k={k}")
            org.locator("#pair").click()
            see(org, f"Round {rnd} paired")
            tables = slips(org, server, tid, k)
            if rnd == 1:
                hall.shot(org, "slips-round-1")
            # two tables report on the players' phones and are confirmed
            for s in tables[:2]:
                report_on_phones(hall, phone_a, phone_b, s["link"], s["p1"], s["p2"], "1-0-0")
            if rnd == 1:
                hall.shot(phone_b, "phone-confirmed")
            rest = tables[2:]
            if rnd == 2:  # a disagreement: both claim the win; the judge decides
                s = tables[2]
                report_on_phones(hall, phone_a, phone_b, s["link"], s["p1"], s["p2"], "1-0-0", "1-0-0")
                hall.shot(phone_b, "phone-disputed")
                judge.goto(judge_link.replace("/t/" + tid + "?", "/t/" + tid + "/queue?"))
                card = judge.locator(f'[data-queue-table="{s["table"]}"]')
                card.wait_for(timeout=WAIT)
                hall.shot(judge, "judges-queue")
                card.locator("input[name=result]").fill("0-1-0")
                card.locator("input[name=reason]").fill("the players agree Bob won after a judge call")
                card.get_by_role("button", name="Decide").click()
                judge.get_by_text("No disputed table.").wait_for(timeout=WAIT)
                rest = tables[3:]
            # the scorekeeper types the others into the grid
            grid_entry(org, server, tid, sk, [(s["table"], "0-1") for s in rest])
            if rnd == 1:
                # overwriting asks, showing the old result; Escape keeps it; Ctrl+Z undoes the last entry
                box = org.locator("#entry")
                box.fill(f"{rest[0]['table']} 1-0")
                box.press("Enter")
                org.locator("#entry-ask").wait_for(timeout=WAIT)
                assert "0-1-0" in org.locator("#entry-ask .what").inner_text()
                hall.shot(org, "grid-overwrite-asks")
                box.press("Escape")
                box.press("Control+z")
                org.locator("#entry-said", has_text="undone").wait_for(timeout=WAIT)
                grid_entry(org, server, tid, sk, [(rest[-1]["table"], "0-1")])
                hall.shot(org, "grid-round-1")
                board.get_by_text("after Round 1").wait_for(timeout=WAIT)  # no reload: the board followed
                hall.shot(board, "standings-board-live")
            org.goto(f"{server.url}/t/{tid}?k={k}")
            org.locator("#close-round").click()
            see(org, f"round {rnd} closed")
            if rnd == 1:
                dropped = tables[-1]["p2"]
                org.locator(f'button[data-drop="{dropped}"]').click()
                see(org, f"{dropped} dropped")

        # a closed round's player link has expired
        phone_a.goto(tables[0]["link"])
        assert "is closed: this slip's link no longer reports anything" in phone_a.content()
        org.goto(f"{server.url}/t/{tid}?k={k}")
        board.get_by_text("after Round 3").wait_for(timeout=WAIT)

        # --- the top 4: semifinals, final, placings ---------------------------------------------
        org.locator("#top-cut").click()
        see(org, "Semifinals paired")
        grid_entry(org, server, tid, sk, [(1, "2-1"), (2, "0-2")])
        org.goto(f"{server.url}/t/{tid}?k={k}")
        org.locator("#top-cut").click()
        see(org, "Finals paired")
        grid_entry(org, server, tid, sk, [(1, "2-0")])
        org.goto(f"{server.url}/t/{tid}?k={k}")
        assert "Finals" in org.locator("#bracket").inner_text() and "Semifinals" in org.locator("#bracket").inner_text()
        places = org.locator("#placings tr").all_inner_texts()[1:]
        assert len(places) == 16 and places[0].startswith("1")
        assert any(dropped in p for p in places)
        hall.shot(org, "desk-final-placings")
        board.locator("#placings").wait_for(timeout=WAIT)
        assert len(board.locator("#placings tr").all()) == 17
        hall.shot(board, "standings-board-final")
        org.goto(f"{server.url}/t/{tid}/round/2?k={k}")
        assert "a judge's decision" in org.locator("#overrides").inner_text()
        hall.shot(org, "round-2-overrides")
        org.goto(f"{server.url}/t/{tid}/clock")
        hall.shot(org, "clock")
        for ctx in (laptop, *phones, board_ctx, judge_ctx):
            ctx.close()
    assert hall.errors == [], "\n".join(hall.errors)
