"""Every page on a phone: at 390×844 and 360×740, in headless Chromium, the page never scrolls
sideways (`document.documentElement.scrollWidth <= window.innerWidth`) and what its reader comes
for is on screen: each player's name, a W-L-D record on one line. Two events on one server: the
seeded demo (`serve --demo`, its ordinary names) and one with two 64-character names, one of them a
single word, paired into a second round with a disputed table. QA 2026-11-27 found the pairings
board 504 px wide, the standings 555 px (W-L-D on three lines), the round page 656 px and the same
pages near 800-900 px with a long name. Screenshots go to test-artifacts/serve/narrow/."""
from __future__ import annotations

import os
import re

import pytest

from tests.browser import browser, needs_chromium
from tests.conftest import ROOT
from tests.web.conftest import Api, player_tokens
from tests.web.hall import WAIT, Hall
from tests.web.server import Server

pytestmark = [*needs_chromium, pytest.mark.slow]
ARTIFACTS = os.path.join(ROOT, "test-artifacts", "serve", "narrow")
PHONES = {"390": {"width": 390, "height": 844}, "360": {"width": 360, "height": 740}}
ONE_WORD = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaftsch"
SPACED = "Bartholomew-Maximilian Alessandro von Hohenzollern-Sigmaringen X"
assert len(ONE_WORD) == len(SPACED) == 64
LONG_EVENT = ["Ann Rossi", "Bob Verdi", ONE_WORD, SPACED, "Eva Russo", "Fabio Galli", "Gina Costa", "Hugo Ferri"]

# Where each occurrence of a text is on screen: every rendered occurrence must lie inside the
# viewport (not cut off, not in a part that has to be scrolled to), and `one_line` ones must not wrap.
PLACE = """([vw, checks]) => {
  const bad = [];
  const nodes = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) nodes.push(walk.currentNode);
  for (const [text, oneLine] of checks) {
    let shown = 0;
    for (const node of nodes) {
      let at = node.textContent.indexOf(text);
      while (at >= 0) {
        const r = document.createRange();
        r.setStart(node, at); r.setEnd(node, at + text.length);
        const box = r.getBoundingClientRect();
        if (box.width > 0 && box.height > 0) {
          shown++;
          if (box.left < -0.5 || box.right > vw + 0.5)
            bad.push(`${text}: at x ${Math.round(box.left)}..${Math.round(box.right)}, the screen is ${vw}`);
          const tops = new Set([...r.getClientRects()].filter(q => q.width > 0).map(q => Math.round(q.top)));
          if (oneLine && tops.size > 1) bad.push(`${text}: wraps onto ${tops.size} lines`);
        }
        at = node.textContent.indexOf(text, at + 1);
      }
    }
    if (!shown) bad.push(`${text}: not shown`);
  }
  return bad;
}"""


def setup_long_event(api: Api) -> dict:
    """A second event: eight players, two with 64-character names; round 1 played and closed, round 2
    paired with a disputed table (in the judges' queue) and a reported one."""
    html = api.http.get("/", params={"k": api.token}).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', html).group(1)
    r = api.http.post("/create", data={"k": api.token, "csrf": csrf, "name": "Long Names Open", "game": "op2009",
                                       "policy": "mtg", "rounds": "3", "top_cut": "0", "seed": "7"})
    assert r.status_code == 303, r.text
    tid = re.search(r"/t/(t-[0-9a-f]+)", r.headers["location"]).group(1)
    api.do(tid, "register", names="\n".join(LONG_EVENT))
    api.do(tid, "pair")
    tables = api.get(f"/api/t/{tid}/tables").json()
    r = api.post(f"/api/t/{tid}/results", {"lines": "\n".join(f"{t['table']} 2-1" for t in tables)})
    assert r.status_code == 200, r.text
    api.do(tid, "close")
    api.do(tid, "pair")
    tables = {t["table"]: t for t in api.get(f"/api/t/{tid}/tables").json()}
    links = player_tokens(api, tid)
    long_table = next(n for n, t in tables.items() if ONE_WORD in (t["player1"], t["player2"]))
    t = tables[long_table]
    for player in (t["player1"], t["player2"]):  # both claim the win: the judges' queue
        r = api.post(f"/api/t/{tid}/report", {"player": player, "result": "2-0"}, token=links[long_table])
        assert r.status_code == 200, r.text
    other = next(n for n in tables if n != long_table)
    r = api.post(f"/api/t/{tid}/report", {"player": tables[other]["player1"], "result": "2-1"}, token=links[other])
    assert r.status_code == 200, r.text
    return {"tid": tid, "round": 2, "play": links[long_table], "me": ONE_WORD, "players": LONG_EVENT}


def pages(ev: dict, org: str, judge: str, sk: str) -> list[tuple[str, str, list[tuple[str, bool]]]]:
    """(name, path, what must be on screen) for each page, opened with its reader's link."""
    tid, players = ev["tid"], ev["players"]
    names = [(p, False) for p in players]
    records = [(r, True) for r in ev["records"]]
    return [
        ("home", f"/?k={org}", []),
        ("desk", f"/t/{tid}?k={org}", names),
        ("round", f"/t/{tid}/round/{ev['round']}?k={org}", []),
        ("grid", f"/t/{tid}/grid?k={sk}", []),
        ("queue", f"/t/{tid}/queue?k={judge}", []),
        ("audit", f"/t/{tid}/audit?k={org}", []),
        ("slips", f"/t/{tid}/slips?k={org}", []),
        ("pairings", f"/t/{tid}/pairings", names),
        ("standings", f"/t/{tid}/standings", names + records),
        ("standings-print", f"/t/{tid}/standings?print=1", []),
        ("me", f"/t/{tid}/me?name={ev['me']}", [(ev["me"], False)]),
        ("clock", f"/t/{tid}/clock", []),
        ("play", f"/t/{tid}/play?k={ev['play']}", []),
    ]


def test_every_page_fits_a_phone(tmp_path):
    hall = Hall(ARTIFACTS)
    with Server(str(tmp_path / "event.db"), "--demo") as server, browser() as b:
        api = Api(server.url, server.token)
        demo_links = player_tokens(api, "t-demo")
        demo = {"tid": "t-demo", "round": 1, "play": demo_links[min(demo_links)], "me": "Ines Conti",
                "players": [r["player"] for r in api.get("/api/t/t-demo/standings").json()["rows"]]}
        long = setup_long_event(api)
        for ev in (demo, long):
            ev["records"] = sorted({r["record"] for r in api.get(f"/api/t/{ev['tid']}/standings").json()["rows"]})
        assert len(demo["players"]) == 16 and "1-0-0" in long["records"]
        judge = re.search(r"k=(\S+)", api.do("t-demo", "mint", role="judge", name="Kim")["link"]).group(1)
        sk = re.search(r"k=(\S+)", api.do("t-demo", "mint", role="scorekeeper", name="Sam")["link"]).group(1)
        judge_l = re.search(r"k=(\S+)", api.do(long["tid"], "mint", role="judge", name="Kim")["link"]).group(1)
        sk_l = re.search(r"k=(\S+)", api.do(long["tid"], "mint", role="scorekeeper", name="Sam")["link"]).group(1)
        api.http.close()

        failures: list[str] = []
        for phone, viewport in PHONES.items():
            ctx = b.new_context(viewport=viewport, is_mobile=True, has_touch=True, device_scale_factor=2)
            page = hall.page(ctx)
            for label, ev, j, s in (("demo", demo, judge, sk), ("long", long, judge_l, sk_l)):
                for name, path, checks in pages(ev, server.token, j, s):
                    page.goto(server.url + path)
                    page.wait_for_load_state("load", timeout=WAIT)
                    # a mobile browser widens its layout viewport (and innerWidth) to fit a page that
                    # is too wide, and zooms out: both numbers are held to the phone's width
                    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                    where = f"{phone} px, {label}, {name} ({path.split('?')[0]})"
                    if width > inner or inner > viewport["width"]:
                        failures.append(f"{where}: the page is {max(width, inner)} px wide")
                    found = page.evaluate(PLACE, [viewport["width"], checks])
                    failures += [f"{where}: {m}" for m in dict.fromkeys(found)]
                    page.screenshot(path=os.path.join(ARTIFACTS, f"{phone}-{label}-{name}.png"), full_page=True)
                # the standings' tiebreakers, hidden on a phone, are one tap away; shown, they
                # scroll inside their box and the page still does not
                page.goto(f"{server.url}/t/{long['tid']}/standings")
                tb = page.locator("#standings-table th.tb").first
                assert not tb.is_visible()
                page.locator("label[for=show-tb]").click()
                assert tb.is_visible()
                width = page.evaluate("document.documentElement.scrollWidth")
                if width > viewport["width"]:
                    failures.append(f"{phone} px, standings with its tiebreakers shown: the page is {width} px wide")
                page.screenshot(path=os.path.join(ARTIFACTS, f"{phone}-long-standings-tiebreakers.png"), full_page=True)
            ctx.close()

        # printed on A4 (190 mm between the margins, about 718 CSS px): every column, nothing cut
        ctx = b.new_context(viewport={"width": 718, "height": 1000})
        page = hall.page(ctx)
        page.emulate_media(media="print")
        for ev in (demo, long):
            page.goto(f"{server.url}/t/{ev['tid']}/standings?print=1")
            assert page.locator("#standings-table th.tb").first.is_visible()
            assert not page.locator("label[for=show-tb]").is_visible()
            found = page.evaluate(PLACE, [718, [(p, False) for p in ev["players"]]])
            failures += [f"print, {ev['tid']}: {m}" for m in found]
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 718:
                failures.append(f"print, {ev['tid']} standings: {width} px wide")
            page.screenshot(path=os.path.join(ARTIFACTS, f"print-{ev['tid']}-standings.png"), full_page=True)
        ctx.close()
    assert failures == [], "\n".join(failures)
    assert hall.errors == [], "\n".join(hall.errors)
