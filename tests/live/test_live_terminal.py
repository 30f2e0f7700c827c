"""The live recorder driven through a real pseudo-terminal (pexpect): a whole short game typed
line by line, then the log, the findings and the screen are checked. Two recorders on one SQLite
file see each other's events and lose none."""
from __future__ import annotations

import json
import os
import re
import sys

import pexpect

from tests.conftest import ROOT, run_cli

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[=>]|\r")
# prompt_toolkit switches bracketed paste on each time it draws a new prompt: the end of a reply
NEXT_PROMPT = r"\x1b\[\?2004h"


def spawn(db: str, *args: str, user: str = "tester") -> pexpect.spawn:
    env = dict(os.environ, PYTHONPATH=ROOT, TABLEJUDGE_USER=user, PROMPT_TOOLKIT_NO_CPR="1",
               TERM="xterm", COLUMNS="120", LINES="40")
    child = pexpect.spawn(sys.executable, ["-m", "judge", "--db", db, "live", *args], cwd=ROOT,
                          env=env, encoding="utf-8", timeout=30, dimensions=(40, 120))
    child.expect("live recorder")
    child.expect(NEXT_PROMPT)
    return child


def screen(child: pexpect.spawn) -> str:
    return ANSI.sub("", child.before or "")


def type_line(child: pexpect.spawn, line: str) -> str:
    """Type a line, press Enter, return what the recorder printed before the next prompt."""
    child.send(line + "\r")
    child.expect(NEXT_PROMPT)
    return screen(child)


def new_match(db: str, ruleset: str = "table") -> str:
    r = run_cli("match", "new", "--ruleset", ruleset, "--player", "Ann", "--player", "Bob", db=db)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def events(db: str, match: str) -> list[dict]:
    r = run_cli("events", match, "--json", db=db)
    return json.loads(r.stdout)["events"] if r.stdout.strip().startswith("{") else json.loads(r.stdout)


def test_a_whole_game_typed_at_the_terminal(tmp_path):
    db = str(tmp_path / "live.db")
    match = new_match(db)
    child = spawn(db, match, "--judge", "Kim")
    child.expect("setup>")
    assert "#2 A: setup deck 40" in type_line(child, "A: setup deck 40 · setup life 5")
    type_line(child, "B: setup deck 40")
    out = type_line(child, "T1 A: draw 5")
    assert "#5 T1 A:" in out and "#6 A: draw 5" in out
    child.expect(r"T1 A>")  # the prompt shows the turn and the active player
    # tab completion: a zone move, then a card number from the table
    child.send("A: hand>fi\t")
    child.send(" OP01-016\r")
    child.expect(NEXT_PROMPT)
    assert "#7 A: hand>field OP01-016" in screen(child)
    # a typo stores nothing and points at the column
    out = type_line(child, "A: frobnicate")
    assert "^" in out and "unknown action 'frobnicate'" in out
    # an illegal move is recorded and its finding shows under the line
    out = type_line(child, "A: trash>hand OP01-013")
    assert "#8 A: trash>hand OP01-013" in out and "TABLE-1 [error]" in out
    out = type_line(child, "undo")
    assert "#9 judge Kim: void 8" in out and "stays in the log" in out
    out = type_line(child, "penalty A Warning \"Game Play Error\" \"took a card from the trash\"")
    assert "#10 judge Kim: penalty A Warning" in out
    out = type_line(child, "round.start 50")
    assert "#11 judge Kim: round.start 50" in out
    assert re.search(r"\d+:\d\d left \(round 50 min\)", type_line(child, "clock"))
    out = type_line(child, "?")
    assert "legal now" in out and "T2 B:" in out
    out = type_line(child, "state")
    assert "Ann" in out and "field" in out and "OP01-016" in out and "state hash" in out
    type_line(child, "T2 B: draw · {Bob draws for the turn}")
    type_line(child, "B: concede")
    child.send("quit\r")
    child.expect(pexpect.EOF)
    log = events(db, match)
    kinds = [e["kind"] for e in log]
    assert kinds == ["match.created", "setup", "setup", "setup", "turn", "draw", "move", "move",
                     "correction", "judge.penalty", "round.start", "turn", "draw", "note", "concede"]
    assert log[8]["payload"] == {"voids": 8, "reason": "undone at the table (live recorder)"}
    assert log[9]["actor"] == "judge:Kim"
    assert all(e["recorded_by"] == "tester" for e in log[1:])
    r = run_cli("validate", match, "--json", db=db)
    findings = json.loads(r.stdout)["findings"]
    assert [(f["rule"], f["position"], f["backed_out"]) for f in findings] == [("TABLE-1", 8, True)]


def test_strict_refuses_a_flagged_action(tmp_path):
    db = str(tmp_path / "live.db")
    match = new_match(db)
    child = spawn(db, match, "--strict")
    out = type_line(child, "A: deck>hand")
    assert "refused (--strict)" in out and "TABLE-1" in out
    type_line(child, "A: setup deck 3")
    assert "#3 A: deck>hand" in type_line(child, "A: deck>hand")
    child.send("quit\r")
    child.expect(pexpect.EOF)
    assert [e["kind"] for e in events(db, match)] == ["match.created", "setup", "move"]


def test_live_new_creates_the_match(tmp_path):
    db = str(tmp_path / "live.db")
    child = spawn(db, "new", "--ruleset", "op2009", "--player", "Ann", "--player", "Bob")
    child.expect("setup>")
    type_line(child, "game A \"coin toss\"")
    out = type_line(child, "T1 A: iniziale")
    assert "#3 T1 A:" in out and "#4 A: iniziale" in out
    child.send("quit\r")
    child.expect(pexpect.EOF)
    matches = json.loads(run_cli("matches", "--json", db=db).stdout)
    assert len(matches) == 1 and matches[0]["ruleset"] == "op2009" and matches[0]["events"] == 4


def test_two_recorders_on_one_log(db_url):
    """Two laptops on one log: a SQLite file, and a real PostgreSQL server (the db_url fixture
    runs this test on both)."""
    db = db_url
    match = new_match(db)
    one = spawn(db, match, user="laptop1")
    two = spawn(db, match, user="laptop2")
    assert "#2 A: setup deck 40" in type_line(one, "A: setup deck 40")
    # the second recorder has not seen event 2: its line lands after it, and it is told so
    out = type_line(two, "B: setup deck 40")
    assert "[laptop1] #2 A: setup deck 40" in out
    assert "#3 B: setup deck 40" in out
    out = type_line(one, "")  # Enter on an empty line shows what the other recorder added
    assert "[laptop2] #3 B: setup deck 40" in out
    for k in range(3):
        type_line(one, "A: deck>hand")
        type_line(two, "B: deck>hand")
    for child in (one, two):
        child.send("quit\r")
        child.expect(pexpect.EOF)
    log = events(db, match)
    assert [e["position"] for e in log] == list(range(1, 10))
    assert sorted(e["recorded_by"] for e in log[1:]) == ["laptop1"] * 4 + ["laptop2"] * 4
    assert run_cli("verify", match, db=db).returncode == 0
