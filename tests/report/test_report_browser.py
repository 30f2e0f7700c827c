"""The match and round reports in a real browser: headless Chromium driven by Playwright.

Checks: no console errors, header/result/timeline/chart/findings visible, a finding's link scrolls
its event into view, a player named <script>alert(1)</script> stays text (no dialog), and a
screenshot is saved into test-artifacts/.
"""
import re
from pathlib import Path

import pytest

from engine.match import Match
from engine.store import EventStore
from judge import report
from judge.io.importers import jsonl

from tests.browser import chromium, needs_chromium
from tests.conftest import ROOT

FIXTURE = Path(ROOT) / "tests" / "fixtures" / "desk" / "dispute.jsonl"
ARTIFACTS = Path(ROOT) / "test-artifacts"
BAD = "<script>alert(1)</script>"

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def browser_context():
    with chromium(viewport={"width": 1000, "height": 800}) as ctx:
        yield ctx


@pytest.fixture
def reports(tmp_path):
    store = EventStore.open(str(tmp_path / "t.db"))
    m = Match(store, jsonl.import_file(store, str(FIXTURE)).match)
    other = Match.create(store, "table", ["Cy", "Di"], event="Regional", round="3", table="2")
    other.record("game.end", {"how": "Di decked out", "winner": "Cy"})
    paths, _ = report.write_round_report(store, "3", out_dir=str(tmp_path / "exports"))
    store.close()
    return {"round": Path(paths[0]), "match": Path(tmp_path / "exports" / f"{m.id}.html"), "id": m.id}


def open_page(ctx, path):
    page = ctx.new_page()
    problems, dialogs = [], []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("request", lambda r: problems.append(f"network request {r.url}")
            if not r.url.startswith("file://") else None)
    page.goto(path.resolve().as_uri())
    page.wait_for_load_state("load")
    return page, problems, dialogs


def in_viewport(page, selector):
    return page.eval_on_selector(selector, """el => { const r = el.getBoundingClientRect();
        return r.top > -2 && r.top < window.innerHeight; }""")


def test_match_report_in_chromium(browser_context, reports):
    page, problems, dialogs = open_page(browser_context, reports["match"])
    for sel in ("#header", "#result", "#timeline", "#chart svg", "#findings table", "#integrity"):
        assert page.locator(sel).first.is_visible(), sel
    assert page.locator("#result").inner_text().strip() == "Ann wins"
    assert "more-life" in page.locator("#time-decision").inner_text()
    assert page.locator("#chart polyline").count() == 2
    # the escaped name is shown as text, and nothing ran
    assert BAD in page.locator("h1").inner_text()
    assert page.locator("#header").get_by_text(BAD).first.is_visible()
    # backed-out events are struck through but visible
    desc = page.locator("#event-12 .desc")
    assert desc.is_visible() and "line-through" in desc.evaluate("e => getComputedStyle(e).textDecorationLine")
    # a finding's link scrolls to its event
    assert not in_viewport(page, "#event-25")
    page.locator('#findings a.finding-link[href="#event-25"]').click()
    page.wait_for_function("location.hash === '#event-25'")
    assert in_viewport(page, "#event-25")
    assert page.locator("#event-25").is_visible()
    # the state after an event opens without JavaScript (a <details>)
    page.locator("#event-12 details summary").click()
    assert page.locator("#event-12 details table").is_visible()
    page.evaluate("window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "report-match.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert problems == [] and dialogs == []
    page.close()


def test_round_report_in_chromium(browser_context, reports):
    page, problems, dialogs = open_page(browser_context, reports["round"])
    rows = page.locator("#matches tbody tr")
    assert rows.count() == 2
    row = page.locator(f"#match-{reports['id']}")
    assert row.is_visible() and BAD in row.inner_text() and "Ann wins" in row.inner_text()
    assert row.locator("td.findings").inner_text().startswith("2")
    row.locator("a").first.click()  # to the match's own report, next to it
    page.wait_for_load_state("load")
    assert page.url.endswith(f"{reports['id']}.html")
    assert page.locator("#result").is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.go_back()
    page.screenshot(path=str(ARTIFACTS / "report-round.png"), full_page=True)
    assert problems == [] and dialogs == []
    page.close()


def test_print_layout_is_a4(browser_context, reports, tmp_path):
    """Printing to PDF (A4, from the report's own @page rule) works and keeps every section."""
    page, problems, _ = open_page(browser_context, reports["match"])
    pdf = tmp_path / "report.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    boxes = re.findall(rb"/MediaBox ?\[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert boxes and all(abs(float(w) - 595.3) < 1 and abs(float(h) - 841.9) < 1 for w, h in boxes)  # A4
    assert problems == []
    page.close()
