"""The match report fits the page: op2009's 14 zones turn the table grid (a row per zone, a column
per player) so no report is wider than a 1200 px window or an A4 sheet (checked in headless Chromium
via Playwright, as tests/test_report_browser.py does)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.match import Match
from engine.store import EventStore
from judge import report
from judge.io.importers import jsonl

from tests.browser import CHROMIUM, chromium
from tests.conftest import ROOT

EXAMPLES = Path(ROOT) / "examples"
A4_PRINTABLE_PX = 703  # 210 mm minus the 2 x 12 mm @page margins, at 96 px per inch


def write_report(tmp_path: Path, example: str) -> tuple[Path, dict]:
    store = EventStore.open(str(tmp_path / "t.db"))
    m = Match(store, jsonl.import_file(store, str(EXAMPLES / example)).match)
    ctx = report.match_context(m)
    path = Path(report.write_match_report(m, out_dir=str(tmp_path / "exports")))
    store.close()
    return path, ctx


def all_views(ctx: dict) -> list[dict]:
    return [seg["table"] for seg in ctx["segments"]] + [
        e["state"] for seg in ctx["segments"] for ph in seg["phases"] for e in ph["events"]]


def test_op2009_grid_is_a_row_per_zone(tmp_path):
    path, ctx = write_report(tmp_path, "op2009/best-of-three-fine-tempo.jsonl")
    views = all_views(ctx)
    assert max(len(v["zone_names"]) for v in views) > report.GRID_MAX_ZONES
    assert {v["layout"] for v in views} == {"rows"}
    html = path.read_text(encoding="utf-8")
    final = html[html.index('id="final-table"'):html.index('id="integrity"')]
    assert 'class="grid turn-table by-zone"' in final
    assert "<th>Zone</th><th>Ann</th><th>Bob <span" in final
    assert '<th scope="row">vita_capitano</th>' in final


def test_a_narrow_ruleset_keeps_a_row_per_player(tmp_path):
    _, ctx = write_report(tmp_path, "grandline/sample-profile.jsonl")
    assert {v["layout"] for v in all_views(ctx)} == {"columns"}


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM),
                    reason=f"{CHROMIUM} is missing (Debian package chromium; `make sysdeps` installs it)")
def test_op2009_report_is_no_wider_than_the_window_or_a4(tmp_path):
    path, _ = write_report(tmp_path, "op2009/best-of-three-fine-tempo.jsonl")
    with chromium(viewport={"width": 1200, "height": 1600}) as ctx:
        try:
            page = ctx.new_page()
            page.goto(path.resolve().as_uri())
            page.wait_for_load_state("load")
            widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert widths[0] <= widths[1], f"document {widths[0]} px wide in a {widths[1]} px window"
            final = page.locator("#final-table table").bounding_box()
            assert final["x"] + final["width"] <= widths[1]
            # printed: the page as wide as an A4 sheet's printable area
            page.emulate_media(media="print")
            page.set_viewport_size({"width": A4_PRINTABLE_PX, "height": 1000})
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= A4_PRINTABLE_PX, f"document {width} px wide on A4 ({A4_PRINTABLE_PX} px)"
        finally:
            ctx.close()
