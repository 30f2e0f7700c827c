"""The printable standings page, rendered in headless Chromium (Debian's /usr/bin/chromium)."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from engine.store import EventStore
from judge.tournament import Tournament, standings_page

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
EVIL = "<script>window.__pwned = 1</script>"


def _event(tmp_path) -> Tournament:
    store = EventStore.open(str(tmp_path / "t.db"))
    t = Tournament.create(store, name="Lega <b>Pavia</b> & co.", game="optcg", rounds=3, seed="h")
    for name in ["Ann", "Bob", EVIL, "Dee & Eve", "Fay", "Gus", "Hal"]:
        t.register(name)
    rng = random.Random(4)
    for _ in range(2):
        t.pair()
        for p in t.state().current.tables():
            t.record_slip(rng.choice(["2-0-0", "2-1-0", "1-2-0"]), table=p.table)
    t.pair()
    return t


def test_the_page_escapes_user_text_without_a_browser(tmp_path):
    html = standings_page(_event(tmp_path).state())
    assert EVIL not in html and "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in html
    assert "Lega &lt;b&gt;Pavia&lt;/b&gt; &amp; co." in html
    assert "<script" not in html and "http://" not in html and "https://" not in html  # self-contained


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")
def test_the_page_renders_in_headless_chromium(tmp_path):
    from playwright.sync_api import sync_playwright

    t = _event(tmp_path)
    page_file = tmp_path / "standings.html"
    page_file.write_text(standings_page(t.state()), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = ctx.new_page()
            page.goto(page_file.as_uri())
            rows = page.locator("#standings tbody tr")
            assert rows.count() == 7
            assert page.locator("#standings thead th").all_inner_texts()[:3] == ["Rank", "Player", "Points"]
            players = page.locator("#standings tbody td.player").all_inner_texts()
            assert EVIL in players                       # shown as text ...
            assert page.evaluate("window.__pwned") is None  # ... never run
            assert page.locator("script").count() == 0
            assert page.locator("#pairings-by-table tbody tr").count() == 4
            by_name = page.locator("#pairings-by-name tbody tr td:first-child").all_inner_texts()
            assert sorted(by_name, key=str.casefold) == by_name and len(by_name) == 7
            assert page.locator("h1").inner_text() == "Lega <b>Pavia</b> & co."
            page.screenshot(path=str(ARTIFACTS / "tournament-standings.png"), full_page=True)
            page.emulate_media(media="print")
            assert page.locator("#standings").is_visible()
        finally:
            ctx.close()
    assert (ARTIFACTS / "tournament-standings.png").stat().st_size > 1000
