"""The round page shows each table's result as the tournament has it (QA80 4): it read the match
logs only, and said "not decided" of every table whose result the players confirmed, a
scorekeeper entered or a judge resolved in the tournament."""
from __future__ import annotations

from engine.store import EventStore
from judge.report.round import round_context
from judge.tournament import reports, rounds
from judge.tournament.aggregate import Tournament
from tests.conftest import run_cli


def _round(db: str) -> tuple:
    """A 4-player optcg round with a match per table: table 1 confirmed by both players' reports,
    table 2 entered by the organizer at a terminal."""
    with EventStore.open(db) as store:
        t = Tournament.create(store, name="Store OPTCG", game="optcg", seed="7", rounds=2)
        for p in ("Ann", "Bob", "Cid", "Dan"):
            t.register(p)
        t.pair()
        tables = rounds.create_matches(t, ruleset="optcg")
        rnd = t.state().rounds[0]
        one, two = (next(p for p in rnd.tables() if p.table == n) for n in (1, 2))
        reports.report_result(t.with_actor(one.player1), one.player1, "1-0")
        reports.report_result(t.with_actor(one.player2), one.player2, "0-1")
        t.record_slip("0-1", table=2)
        return t.id, tables, one, two


def test_the_round_page_shows_the_tournaments_results_and_who_entered_them(tmp_path):
    db = str(tmp_path / "t.db")
    tid, tables, one, two = _round(db)
    with EventStore.open(db) as store:
        rows = {r["table"]: r for r in round_context(store, "1")["matches"]}
        totals = round_context(store, "1")["totals"]
    assert rows["1"]["tournament"]["result"] == f"{one.player1} 1-0-0 {one.player2}"
    assert rows["1"]["tournament"]["who"] == "both players"
    assert rows["2"]["tournament"]["result"] == f"{two.player1} 0-1-0 {two.player2}"
    assert rows["2"]["tournament"]["who"] == "organizer"  # the CLI's actor `-`, in words
    assert rows["1"]["result"] == "not decided"  # the match log itself holds no game: said apart
    assert totals["undecided"] == 0

    out = tmp_path / "exports"
    r = run_cli("report", "--round", "1", "--out-dir", str(out), "--no-matches", db=db)
    assert r.returncode == 0, r.stderr
    html = (out / "round-1.html").read_text(encoding="utf-8")
    assert f"{one.player1} 1-0-0 {one.player2}" in html and "recorded by both players" in html
    assert f"{two.player1} 0-1-0 {two.player2}" in html and "recorded by organizer" in html
    assert "without a result" not in html and "not decided by the log" not in html


def test_event_takes_the_tournaments_name_and_the_hint_shows_it(tmp_path):
    """QA80 8: `--event "Store OPTCG"` was refused (the matches' label is the tournament's id),
    and the hint did not show the labels; a MATCH with --round was told to give one of them."""
    db = str(tmp_path / "t.db")
    tid, tables, _, _ = _round(db)
    out = tmp_path / "exports"
    r = run_cli("report", "--round", "1", "--event", "Store OPTCG", "--out-dir", str(out), "--no-matches", db=db)
    assert r.returncode == 0 and (out / "round-1.html").exists(), r.stderr
    r = run_cli("report", "--round", "1", "--event", "Store", "--no-matches", db=db)
    assert r.returncode == 2 and f"its events: {tid} (Store OPTCG)" in r.stderr, r.stderr
    r = run_cli("report", tables[1], "--round", "1", db=db)
    assert r.returncode == 2 and "MATCH and --round exclude each other" in r.stderr, r.stderr


def test_a_round_page_without_its_match_pages_links_only_the_pages_there(tmp_path):
    """QA81 L8: `report --round 1 --no-matches` linked every match page, none of them written."""
    db = str(tmp_path / "t.db")
    tid, tables, one, two = _round(db)
    out = tmp_path / "exports"
    for staff in ([], ["--staff"]):
        r = run_cli("report", "--round", "1", "--out-dir", str(out), "--no-matches", *staff, db=db)
        assert r.returncode == 0, r.stderr
        html = (out / ("round-1.staff.html" if staff else "round-1.html")).read_text(encoding="utf-8")
        assert '.html">' not in html.split("<table", 1)[1], staff  # no link to a page that is not there
    mid = tables[1]  # table 1's match
    assert run_cli("report", mid, "--out-dir", str(out), db=db).returncode in (0, 1)
    r = run_cli("report", "--round", "1", "--out-dir", str(out), "--no-matches", db=db)
    html = (out / "round-1.html").read_text(encoding="utf-8")
    assert html.count('.html">') == 1 and f'href="{mid}.html"' in html  # a page already there keeps its link
