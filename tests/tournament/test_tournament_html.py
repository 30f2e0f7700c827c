"""The printable standings page, rendered in headless Chromium (Debian's /usr/bin/chromium)."""
from __future__ import annotations

import os
import random
import re
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.store import EventStore
from judge.tournament import Tournament, pairings_by_name, standings_page

from tests.browser import CHROMIUM, chromium
from tests.conftest import ROOT

ARTIFACTS = Path(ROOT) / "test-artifacts"
EVIL = "<script>window.__pwned = 1</script>"


def _event(tmp_path, extra: int = 0) -> Tournament:
    store = EventStore.open(str(tmp_path / "t.db"))
    t = Tournament.create(store, name="Lega <b>Pavia</b> & co.", game="optcg", rounds=3, seed="h",
                          best_of=3)  # the slips below are best-of-three results
    for name in ["Ann", "Bob", EVIL, "Dee & Eve", "Fay", "Gus", "Hal"] + [f"Extra {i:02d}" for i in range(extra)]:
        t.register(name)
    rng = random.Random(4)
    for _ in range(2):
        t.pair()
        for p in t.state().current.tables():
            t.record_slip(rng.choice(["2-0-0", "2-1-0", "1-2-0"]), table=p.table)
    t.pair()
    return t


@contextmanager
def standings_in_chromium(tmp_path, t: Tournament):
    """The tournament's standings page written to a file and opened in headless Chromium."""
    page_file = tmp_path / "standings.html"
    page_file.write_text(standings_page(t.state()), encoding="utf-8")
    with chromium() as ctx:
        try:
            page = ctx.new_page()
            page.goto(page_file.as_uri())
            yield page
        finally:
            ctx.close()


def test_the_page_escapes_user_text_without_a_browser(tmp_path):
    html = standings_page(_event(tmp_path).state())
    assert EVIL not in html and "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in html
    assert "Lega &lt;b&gt;Pavia&lt;/b&gt; &amp; co." in html
    assert "<script" not in html and "http://" not in html and "https://" not in html  # self-contained


def test_byes_are_said_in_the_record_and_by_name_has_results(tmp_path):
    t = _event(tmp_path)
    st = t.state()
    html = standings_page(st)
    byes: dict[str, int] = {}
    for rnd in st.rounds[:2]:  # the page shows the standings after round 2 (round 3 is in progress)
        for p in rnd.pairings:
            if p.player2 is None:
                byes[p.player1] = byes.get(p.player1, 0) + 1
    assert byes  # 7 players: a bye in each of the two rounds played
    for row in st.standings(2).rows:
        record = f"{row.wins}-{row.losses}-{row.draws}"
        n = byes.get(row.player, 0)
        assert row.byes == n
        if n:
            assert f">{record} ({n} bye{'s' if n > 1 else ''})<" in html
    assert "W-L-D counts a bye as a won match" in html
    # the pairings by name have a Result column, the player's own games first
    rnd = st.rounds[1]
    for r in pairings_by_name(rnd):
        if r["opponent"] is None:
            assert r["result"] is None
            continue
        res = rnd.results[r["table"]]
        mine, theirs = (res.wins1, res.wins2) if res.player1 == r["player"] else (res.wins2, res.wins1)
        assert r["result"] == f"{mine}-{theirs}-{res.draws}"


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")
def test_the_page_renders_in_headless_chromium(tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    with standings_in_chromium(tmp_path, _event(tmp_path)) as page:
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
        heads = page.locator("#pairings-by-name thead").all_inner_texts()
        assert [h.split() for h in heads] == [["Player", "Table", "Opponent", "Result"]]
        assert page.locator("h1").inner_text() == "Lega <b>Pavia</b> & co."
        page.screenshot(path=str(ARTIFACTS / "tournament-standings.png"), full_page=True)
        page.emulate_media(media="print")
        assert page.locator("#standings").is_visible()
    assert (ARTIFACTS / "tournament-standings.png").stat().st_size > 1000


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium")
def test_each_by_name_block_has_its_header_and_the_page_prints_on_a4(tmp_path):
    """A long by-name list is two side-by-side tables, each with its own header; printed, the page
    is A4 and every table fits the page width."""
    with standings_in_chromium(tmp_path, _event(tmp_path, extra=12)) as page:  # 19 players: 19 rows by name
        blocks = page.locator("#pairings-by-name table")
        assert blocks.count() == 2
        for i in range(2):
            head = blocks.nth(i).locator("thead th").all_inner_texts()
            assert head == ["Player", "Table", "Opponent", "Result"]
        names = page.locator("#pairings-by-name tbody tr td:first-child").all_inner_texts()
        assert len(names) == 19 and names == sorted(names, key=str.casefold)
        left, right = (blocks.nth(i).bounding_box() for i in range(2))
        assert left["x"] + left["width"] <= right["x"]  # side by side, not overlapping
        page.emulate_media(media="print")
        page.set_viewport_size({"width": 703, "height": 1000})  # A4 less 2 x 12 mm margins, at 96 dpi
        for sel in ("#standings", "#pairings-by-table", "#pairings-by-name"):
            box = page.locator(sel).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 703 + 1, sel
        pdf = page.pdf(prefer_css_page_size=True)
    sizes = {tuple(round(float(v)) for v in m.split()[2:4])
             for m in re.findall(rb"/MediaBox \[([^\]]+)\]", pdf) for m in [m.decode()]}
    assert sizes == {(595, 842)}  # A4 in points
