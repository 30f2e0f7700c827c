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


def _top_cut_event(tmp_path) -> Tournament:
    """8 players (member ids, one without), 2 Swiss rounds, a top 4 played to its final."""
    store = EventStore.open(str(tmp_path / "cut.db"))
    t = Tournament.create(store, name="Cut cup", game="op2009", rounds=2, top_cut=4, seed="c")
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Zoë", EVIL]):
        t.register(name, player_id=None if name == "Bob" else f"M{100 + i}")
    for _ in range(2):
        t.pair()
        for p in t.state().current.tables():
            t.record_slip("2-0-0", table=p.table)
    return t


def _cut_round(t: Tournament) -> None:
    t.top_cut()
    for p in t.state().current.tables():
        t.record_slip("2-1-0", table=p.table)


def test_the_sheet_shows_the_bracket_then_the_final_placings_above_the_swiss_table(tmp_path):
    """QA 2026-11-26 (300 players): after the final, `standings --html` showed the Swiss table and
    "Finals: pairings by table", but no places 1-8 and no bracket."""
    from judge.tournament.placings import final_placings

    t = _top_cut_event(tmp_path)
    assert 'id="top-cut-section"' not in standings_page(t.state())  # Swiss only: no top cut yet
    _cut_round(t)
    html = standings_page(t.state())  # the semifinals played: the bracket, no placings yet
    assert 'id="bracket"' in html and "Semifinals" in html and 'id="placings"' not in html
    assert "pairings by table" not in html  # the bracket stands for the top cut's pairings
    _cut_round(t)
    html = standings_page(t.state())
    places = final_placings(t.state())
    cut = html[html.index('id="top-cut-section"'):html.index('id="standings-section"')]
    assert cut.index("Final placings") < cut.index('id="bracket"') and "Finals" in cut
    rows = re.findall(r'<tr><td class="num">(\d+)</td><td class="player[^"]*">(.*?)</td><td>(.*?)</td><td>(.*?)</td>',
                      cut)
    ids = {p: i.player_id for p, i in t.state().players.items()}
    assert [(int(n), who, pid, how) for n, who, pid, how in rows] == [
        (p.place, p.player.replace("<", "&lt;").replace(">", "&gt;"), ids[p.player] or "", p.how)
        for p in places[:4]]
    assert "Places 5–8: the players who did not make the top cut" in cut
    assert EVIL not in html and "pairings by table" not in html
    assert html.index('id="top-cut-section"') < html.index('id="standings-section"')


def test_placings_prints_csv_and_writes_the_page(tmp_path, capsys):
    """`tournament placings` had terminal text and --json only (--csv was a usage error)."""
    import csv
    import io

    from judge.cli import cli
    from judge.cli.common import run_guarded

    t = _top_cut_event(tmp_path)
    _cut_round(t)
    _cut_round(t)
    db = str(tmp_path / "cut.db")
    page = tmp_path / "final.html"
    assert run_guarded(cli, ["--db", db, "tournament", "placings", t.id, "--csv", "--html", str(page)]) == 0
    out = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out.out)))
    assert list(rows[0]) == ["place", "player", "id", "how", "swiss_rank"] and len(rows) == 8
    assert rows[0]["how"] == "won the Finals" and {r["player"]: r["id"] for r in rows}["Bob"] == ""
    assert f"wrote {page}" in out.err
    html = page.read_text(encoding="utf-8")
    assert html.count('<td class="player name">') == 8 and "Swiss rank" in html and 'id="bracket"' in html
    assert 'id="standings-section"' not in html and EVIL not in html
    assert run_guarded(cli, ["--db", db, "tournament", "placings", t.id, "--excel"]) == 0
    assert capsys.readouterr().out == "\ufeff" + out.out
    assert run_guarded(cli, ["--db", db, "tournament", "placings", t.id]) == 0
    assert capsys.readouterr().out.splitlines()[0].split() == ["place", "player", "id", "how", "swiss_rank"]


def test_the_web_desk_and_board_show_the_same_placings_part_with_ids(tmp_path):
    """The printable sheet reuses the web's placings and bracket (templates/_placings.html)."""
    from fastapi.testclient import TestClient

    from judge.web.app import create_app

    t = _top_cut_event(tmp_path)
    _cut_round(t)
    _cut_round(t)
    app = create_app(t.store, "s" * 32)
    with TestClient(app) as client:
        k = app.state.web.organizer_token()
        desk = client.get(f"/t/{t.id}", params={"k": k})
        board = client.get(f"/t/{t.id}/standings")
    assert desk.status_code == board.status_code == 200
    for page, swiss_rank in ((desk.text, True), (board.text, False)):
        part = page[page.index('<table id="placings">'):]
        part = part[:part.index("</table>")]
        assert part.count("<tr>") == 9 and "<th>id</th>" in part and ("Swiss rank" in part) == swiss_rank
        assert '<td class="player name">Zoë</td><td>M106</td>' in part
    assert 'id="bracket"' in desk.text and 'class="winner"' in desk.text


def test_the_placings_page_does_not_print_a_stale_seal_as_current(tmp_path):
    """The final placings page printed every round's latest seal token, a stale one too (the
    standings sheet had stopped: a late correction makes the seal not current until sealed again)."""
    from judge.tournament.pages import placings_page
    from judge.tournament.seal import seal_token

    t = _top_cut_event(tmp_path)
    _cut_round(t)
    _cut_round(t)
    sealed = t.seal_round(1)
    old = seal_token(t.id, "1", sealed.payload["seal"])
    assert old in placings_page(t.state())
    t.record_slip("0-2-0", table=1, round_no=1, overwrite=True, reason="slip misread")
    html = placings_page(t.state())
    assert old not in html and "not current" in html and f"tournament seal {t.id} --round 1" in html


def test_a_late_double_loss_is_named_as_one_where_it_makes_a_seal_stale(tmp_path):
    """The stale seal's words read the correcting event's games: a double loss said `0-0-0`."""
    from judge.tournament.seal import change_words

    t = _top_cut_event(tmp_path)
    t.seal_round(1)
    e = t.record_slip("double-loss", table=1, round_no=1, overwrite=True, reason="both late")
    events = t.store.read(t.id)
    assert change_words(e, events) == f"event {e.position} (table 1: double-loss, 'both late')"


def test_one_page_computes_the_standings_once(tmp_path, monkeypatch):
    """Review: the placings, the bracket's seeds and the sheet's own table each computed the Swiss
    standings again (3 or 4 times a page, and the web desk more). Now once per state: counted."""
    from fastapi.testclient import TestClient

    import judge.tournament.state as state_mod
    from judge.tournament.pages import placings_page
    from judge.web.app import create_app

    t = _top_cut_event(tmp_path)
    _cut_round(t)
    _cut_round(t)
    calls = []
    real = state_mod.compute_standings
    monkeypatch.setattr(state_mod, "compute_standings", lambda *a, **k: calls.append(1) or real(*a, **k))
    placings_page(t.state())
    assert len(calls) == 1
    placings_page(t.state())  # the same state again: nothing computed
    assert len(calls) == 1
    calls.clear()
    standings_page(state_mod.replay(t.events()))  # the table after the last round, the placings, the
    assert len(calls) == 1                         # bracket: one computation
    t.record_slip("0-2-0", table=1, round_no=1, overwrite=True, reason="slip misread")
    calls.clear()
    placings_page(t.state())  # a new event: computed again, once
    assert len(calls) == 1
    app = create_app(t.store, "s" * 32)
    with TestClient(app) as client:
        k = app.state.web.organizer_token()
        calls.clear()
        assert client.get(f"/t/{t.id}", params={"k": k}).status_code == 200  # the desk's home page
        desk = len(calls)
        calls.clear()
        assert client.get(f"/t/{t.id}/standings").status_code == 200  # the same state: none again
        board_same = len(calls)
        t.record_slip("2-0-0", table=1, round_no=1, overwrite=True, reason="misread after all")
        calls.clear()
        assert client.get(f"/t/{t.id}/standings").status_code == 200
    assert (desk, board_same, len(calls)) == (1, 0, 1)


def test_one_state_keeps_the_standings_after_each_round_apart(tmp_path):
    """Review: the standings cache is keyed by (position, round); the position alone says when an
    entry is stale, but the round is needed too: one state is asked for the standings after several
    rounds (a pairings board's points before the round beside the table after the last round).
    Keyed by the position alone, the first round asked would answer for every other."""
    from judge.tournament.state import replay

    t = _event(tmp_path)  # two rounds played, the third paired
    st = t.state()
    asked = {n: [(r.player, r.points) for r in st.standings(n).rows] for n in (0, 1, 2)}
    alone = {n: [(r.player, r.points) for r in replay(t.events()).standings(n).rows] for n in (0, 1, 2)}
    assert asked == alone
    assert len({tuple(rows) for rows in asked.values()}) == 3  # three different tables
