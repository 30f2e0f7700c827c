"""The appeals file, as a head judge prints it: one A4 page per incident (the call, the board then
with hidden cards hidden, the ruling with its rule in English and in the rulebook's words, the
penalty, the decision on appeal, the deep link, the head hash at signing), then the match report as
the appendix: judge actions in its header, damage steps in words with both powers, and the whole at
most 12 A4 pages for a match of over 266 events. Pages are counted in headless Chromium's
print-to-PDF."""
from __future__ import annotations

import json
import os
import re
from markupsafe import escape  # as the templates escape

import pytest

from engine.store import EventStore
from engine.match import Match
from judge.report.appeals import appeals_context, incidents, write_appeals
from tests.browser import CHROMIUM, chromium
from tests.conftest import ROOT, run_cli

FEATURE = os.path.join(ROOT, "examples", "optcg", "feature-match-hidden.txt")  # 278 events, hands unseen
KNOWN_HANDS = os.path.join(ROOT, "examples", "optcg", "match.txt")  # a log that names cards in hand
EVIL = "<b>hit</b><script>alert(1)</script>"


def imported(db: str, path: str) -> str:
    r = run_cli("import", path, "--json", db=db)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["match"]


def judged(db: str, mid: str) -> dict[str, int]:
    """Two incidents at table 47: a call about a block with a ruling, a penalty and an appeal; then
    a call nobody answered."""
    pos = {}
    for name, args in (
        ("call", ["judge", "call", mid, "--caller", "Bob", "--at", "60", "--reason", EVIL]),
        ("ruling", ["judge", "ruling", mid, "--judge", "Kim", "--text", "a blocker may be attacked; the K.O. stands",
                    "--rule", "OPTCG-BATTLE-2"]),
        ("penalty", ["judge", "penalty", mid, "--judge", "Kim", "--player", "Bob", "--infraction", "Slow Play",
                     "--penalty", "Warning", "--reason", "took long"]),
        ("late_call", ["judge", "call", mid, "--caller", "Ann", "--reason", "is the game over?"]),
    ):
        r = run_cli(*args, "--json", db=db)
        assert r.returncode == 0, (name, r.stderr)
        pos[name] = json.loads(r.stdout)["event"]["position"]
    r = run_cli("judge", "appeal", mid, str(pos["ruling"]), "--judge", "Head Judge Rossi", "--decision", "upheld",
                "--by", "Zed", "--text", "the ruling stands", db=db)
    assert r.returncode == 2 and "unknown player 'Zed'" in r.stderr  # who appealed is a player of the match
    r = run_cli("judge", "appeal", mid, str(pos["ruling"]), "--judge", "Head Judge Rossi", "--decision", "upheld",
                "--by", "Bob", "--text", "the ruling stands", "--json", db=db)
    assert r.returncode == 0, r.stderr
    pos["appeal"] = json.loads(r.stdout)["event"]["position"]
    return pos


@pytest.fixture(scope="module")
def feature(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("appeals") / "log.db")
    mid = imported(db, FEATURE)
    return db, mid, judged(db, mid)


def test_incidents_group_the_judges_actions_under_their_call(feature):
    db, mid, pos = feature
    with EventStore.open(db) as store:
        found = incidents(Match(store, mid).events())
    assert [i.root.position for i in found] == [pos["call"], pos["late_call"]]
    first, second = found
    assert [e.position for e in first.actions] == [pos["ruling"], pos["penalty"]]
    assert [e.position for e in first.appeals] == [pos["appeal"]] and first.at == 60
    assert second.actions == [] and second.appeals == []


def test_an_incident_page_holds_what_an_appeal_needs(feature, tmp_path):
    db, mid, pos = feature
    with EventStore.open(db) as store:
        m = Match(store, mid)
        ctx = appeals_context(m, base_url="http://desk.local:8000")
        path = write_appeals(m, str(tmp_path / "a.html"), base_url="http://desk.local:8000")
        head = m.events()[-1]
    page = ctx["incidents"][0]
    assert page["link"] == f"http://desk.local:8000/m/{mid}#e60"
    assert "damage step" in page["moment"][-1]["text"] and "1,000" in page["moment"][-1]["text"]
    ruling = page["actions"][0]
    assert ruling["rule"]["id"] == "OPTCG-BATTLE-2" and ruling["rule"]["en"] and ruling["rule"]["quote"]
    assert page["actions"][1]["penalty"]["penalty"] == "Warning"
    assert page["appeals"][0]["decision"] == "upheld"
    assert ctx["signed"]["head_hash"] == head.hash
    html = open(path, encoding="utf-8").read()
    assert EVIL not in html and "&lt;script&gt;" in html  # hostile words stay text
    assert head.hash in html and str(escape(ruling["rule"]["quote"])) in html and str(escape(ruling["rule"]["en"])) in html
    # the appendix: judge actions in the report's header, damage steps in words with both powers
    header = html.split('id="judge-actions"')[1].split("</dd>")[0]
    assert f"#{pos['penalty']}" in header and "Warning to Bob" in header
    assert "damage step: OP01-025 Roronoa Zoro 5,000 against ST01-006 Tony Tony.Chopper 1,000 — the attack succeeds" \
        in html
    # the anchor printed on the file proves the log's head later
    r = run_cli("verify", mid, "--anchor", path, db=db)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_board_on_an_appeal_keeps_hidden_cards_hidden(tmp_path):
    db = str(tmp_path / "log.db")
    mid = imported(db, KNOWN_HANDS)
    assert run_cli("judge", "call", mid, "--caller", "Bob", "--reason", "hand size?", db=db).returncode == 0
    with EventStore.open(db) as store:
        m = Match(store, mid)
        staff_hand = [c.code for c in m.state().zone("Bob", "hand") if c.code]
        ctx = appeals_context(m, appendix=False)
    assert staff_hand  # the log names a card in Bob's hand...
    board = ctx["incidents"][0]["board"]
    hands = [z for p in board["players"] for z in p["zones"] if z["name"] == "hand"]
    assert hands and all(z["known"] == [] and z["unknown"] == z["count"] for z in hands)  # ...the appeal does not
    # nor do the event lines beside it (QA 2026-11-26: "draws LK-W05" sat above "hidden cards hidden")
    with EventStore.open(db) as store:
        draw = [e for e in Match(store, mid).events() if e.kind == "draw" and e.payload.get("cards")][-1]
    assert run_cli("judge", "call", mid, "--caller", "Bob", "--reason", "what did Ann draw?", "--at",
                   str(draw.position), db=db).returncode == 0
    with EventStore.open(db) as store:
        ctx = appeals_context(Match(store, mid), appendix=False)
    page = next(p for p in ctx["incidents"] if p["at"] == draw.position)
    line = next(r["text"] for r in page["moment"] if r["position"] == draw.position)
    assert "draw" in line and not any(c in line for c in draw.payload["cards"]), line


def pdf_pages(ctx, path: str) -> int:
    page = ctx.new_page()
    page.goto("file://" + path)
    return len(re.findall(rb"/Type\s*/Page[^s]", page.pdf(format="A4", print_background=True)))


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (Debian package chromium)")
def test_each_incident_prints_on_one_a4_page_and_the_whole_file_on_at_most_12(feature, tmp_path):
    db, mid, _ = feature
    with EventStore.open(db) as store:
        m = Match(store, mid)
        assert len(m.events()) > 266
        only = write_appeals(m, str(tmp_path / "incidents.html"), appendix=False)
        whole = write_appeals(m, str(tmp_path / "whole.html"))
        n = len(incidents(m.events()))
    with chromium() as ctx:
        assert pdf_pages(ctx, only) == n  # one A4 page per incident
        pages = pdf_pages(ctx, whole)
    assert n < pages <= 12, pages


def test_the_cli_writes_it_and_says_where(feature, tmp_path):
    db, mid, pos = feature
    out = str(tmp_path / "appeal-T47.html")
    r = run_cli("appeals", mid, "-o", out, "--json", db=db)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["file"] == out and os.path.exists(out)
    assert [i["call"]["position"] for i in data["incidents"]] == [pos["call"], pos["late_call"]]
    bad = run_cli("appeals", "nope", db=db)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
