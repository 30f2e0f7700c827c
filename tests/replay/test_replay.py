"""The replay as data and as a saved file: every event with the board after it, findings and judge
actions marked, hidden information hidden unless the staff's view is asked for, and a file that
carries the whole log, fetches nothing and keeps hostile names as text."""
from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from engine.match import Match
from engine.store import EventStore
from judge.replay.export import replay_html, write_replay
from judge.replay.timeline import walk
from tests.conftest import ROOT, run_cli

OP2009 = os.path.join(ROOT, "examples", "op2009", "best-of-three-fine-tempo.jsonl")
OPTCG = os.path.join(ROOT, "examples", "optcg", "match.jsonl")


def imported(tmp_path, path) -> tuple[str, Match]:
    db = str(tmp_path / "log.db")
    r = run_cli("import", path, db=db)
    assert r.returncode == 0, r.stderr
    store = EventStore.open(db)
    return db, Match(store, store.match_ids()[0])


def known_in(tl, zone: str) -> list[str]:
    return [run[0] for b in tl.boards for p in b["players"] for z in p["zones"] if z["zone"] == zone
            for run in z.get("cards", []) if run[0]]


def test_every_event_has_its_board_findings_and_judge_actions_are_marked(tmp_path):
    _, m = imported(tmp_path, OPTCG)
    tl = walk(m, hidden=False)
    assert len(tl.events) == len(tl.boards) == m.head_position()
    assert [e["p"] for e in tl.events] == list(range(1, m.head_position() + 1))
    assert tl.boards[-1]["position"] == m.head_position()
    # the same findings as validate + the desk's (review), each with the rule's English and original words
    from judge.desk.review import review
    r = review(m)
    assert sorted((f["rule"], f["p"]) for f in tl.findings) == sorted((f.rule, f.position) for f in r.findings)
    assert all(f["en"] and f["quote"] for f in tl.findings if f["rule"].startswith("OPTCG"))
    turns = tl.turns()
    assert [t["turn"] for t in turns] == sorted({b["turn"] for b in tl.boards if b["turn"]})
    m.record("judge.ruling", {"text": "the attack stands"}, actor="judge:Kim")
    again = walk(m, hidden=False)
    assert again.events[-1]["judge"] and again.head == tl.head + 1
    data = again.data_from(again.head)
    assert [e["p"] for e in data["events"]] == [again.head] and len(data["boards"]) == 1
    assert data["findings"] == again.findings  # whole: a later event may change them


def test_hidden_information_stays_hidden_unless_the_staffs_view_is_asked(tmp_path):
    _, m = imported(tmp_path, OP2009)
    ann = m.players[0]
    m.record("draw", {"player": ann, "count": 1, "cards": ["LK-C05"]}, actor=ann)
    staff, hidden = walk(m, hidden=False), walk(m, hidden=True)
    assert "LK-C05" in known_in(staff, "mano") and "LK-C05" not in known_in(hidden, "mano")
    assert "LK-C05" in staff.events[-1]["text"] and "LK-C05" not in hidden.events[-1]["text"]
    # hiding never adds a finding (each ruleset's invariant), nor changes the outcome
    assert {(f["rule"], f["p"]) for f in hidden.findings} <= {(f["rule"], f["p"]) for f in staff.findings}
    assert hidden.match["outcome"] == staff.match["outcome"]
    assert (staff.match["hidden"], hidden.match["hidden"]) == (False, True)


def test_the_saved_file_carries_the_log_and_fetches_nothing(tmp_path):
    db, m = imported(tmp_path, OPTCG)
    out = tmp_path / "out" / "replay.html"
    r = run_cli("replay", m.id, "-o", str(out), "--json", db=db)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"file": str(out), "match": m.id, "staff": False, "events": m.head_position()}
    html = out.read_text(encoding="utf-8")
    assert "default-src 'none'" in html  # the page itself may fetch nothing
    assert not re.search(r'(src|href)="(https?:|//|/)', html)  # no script, style or link from anywhere
    data = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S).group(1))
    assert len(data["events"]) == m.head_position() and data["match"]["hidden"] is True
    assert "window.TJBoard" in html and "function show(" in html  # the viewer inline
    # the staff's view over the public file is refused (QA81 M3) unless asked for by name
    assert run_cli("replay", m.id, "--staff", "-o", str(out), db=db).returncode == 2
    assert run_cli("replay", m.id, "--staff", "-o", str(out), "--overwrite", db=db).returncode == 0
    assert '"hidden": false' in out.read_text(encoding="utf-8")
    default = run_cli("replay", m.id, db=db)
    assert default.stdout.strip() == os.path.join("exports", f"{m.id}-replay.html")
    # QA80 1: the staff's replay had the same default file, and replaced the public one silently
    staff = run_cli("replay", m.id, "--staff", db=db)
    staff_file = os.path.join("exports", f"{m.id}-replay.staff.html")
    assert staff.stdout.strip() == f"staff view (hidden cards shown): {staff_file} — do not hand to players"
    assert '"hidden": true' in open(os.path.join(ROOT, default.stdout.strip()), encoding="utf-8").read()
    os.unlink(os.path.join(ROOT, default.stdout.strip()))
    os.unlink(os.path.join(ROOT, staff_file))
    assert run_cli("replay", "nosuchmatch", db=db).returncode == 2


def test_hostile_names_and_notes_stay_text_in_the_file(tmp_path):
    store = EventStore.open(str(tmp_path / "log.db"))
    evil = "</script><script>alert(1)</script>"
    m = Match.create(store, "table", [evil, "Bob & <i>"], event="<b>x</b>")
    m.record("note", {"text": "<img src=x onerror=alert(1)> ]]> \u2028 end"})
    html = replay_html(walk(m, hidden=True))
    assert "</script><script>alert(1)" not in html and "<img src=x" not in html
    body = re.search(r'id="replay-data">(.*?)</script>', html, re.S).group(1)
    assert json.loads(body)["match"]["players"][0] == evil  # the data keeps the text as it was


@pytest.mark.skipif(shutil.which("chromium") is None and not os.path.exists("/usr/bin/chromium"),
                    reason="/usr/bin/chromium is missing (Debian package chromium)")
def test_the_file_steps_through_the_log_offline(tmp_path):
    from tests.browser import browser
    _, m = imported(tmp_path, OPTCG)
    path = tmp_path / "r.html"
    write_replay(m, str(path))
    errors: list[str] = []
    with browser() as b:
        ctx = b.new_context(offline=True, viewport={"width": 1000, "height": 800})
        page = ctx.new_page()
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda req: errors.append("fetched " + req.url) if not req.url.startswith(("file:", "data:")) else None)
        page.goto(path.as_uri() + "#e31")
        assert page.locator("body").get_attribute("data-shown") == "31"
        assert page.locator("#e31").get_attribute("class").count("current") == 1
        page.keyboard.press("ArrowRight")
        assert page.locator("body").get_attribute("data-shown") == "32"
        page.keyboard.press("Home")
        assert page.locator("body").get_attribute("data-shown") == "1"
        page.select_option("#turn", label="Turn 3 (Ann)")
        assert page.locator("#board .board-head").inner_text().startswith("Turn 3")
        assert page.locator(".mark.error").count() >= 1
        ctx.close()
    assert errors == []
