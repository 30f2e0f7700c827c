"""The live recorder driven through a real pseudo-terminal (pexpect): a whole short game typed
line by line, a refused line edited where the cursor is put back, two recorders typing at once on
one SQLite file and on one PostgreSQL database; then the log, the findings and the screen."""
from __future__ import annotations

import json
import re

from tests.conftest import run_cli
from tests.live.pty import NEXT_PROMPT, events, new_match, quit_, screen, spawn, type_line

DELETE = "\x1b[3~"


def test_a_whole_game_typed_at_the_terminal(tmp_path):
    db = str(tmp_path / "live.db")
    match = new_match(db)
    child = spawn(db, match, "--judge", "Kim", state=str(tmp_path / "state"))
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
    # a typo stores nothing, says which action and column, and suggests the verb
    out = type_line(child, "A: hand>field OP01-016 · drw")
    assert "action 2 (drw), column 26: unknown action 'drw': did you mean 'draw'?" in out
    child.send("\x03")  # Ctrl-C: leave the line that came back for editing
    child.expect(NEXT_PROMPT)
    # an illegal move is recorded and its finding shows under the line
    out = type_line(child, "A: trash>hand OP01-013")
    assert "#8 A: trash>hand OP01-013" in out and "TABLE-1 [error]" in out
    out = type_line(child, "undo")  # the scorekeeper's own correction, recorded as the scorekeeper's
    assert "#9 scorekeeper tester: void 8" in out and "stays in the log" in out
    out = type_line(child, "penalty A Warning \"Game Play Error\" \"took a card from the trash\"")
    assert "#10 judge Kim: penalty A Warning" in out
    out = type_line(child, "round.start 50")
    assert "#11 judge Kim: round.start 50" in out
    assert re.search(r"\d+:\d\d left \(round 50 min\)", type_line(child, "clock"))
    out = type_line(child, "?")
    assert "open now" in out and "T2 B:" in out
    out = type_line(child, "state")
    assert "Ann" in out and "field" in out and "OP01-016" in out and "state hash" in out
    type_line(child, "T2 B: draw · {Bob draws for the turn}")
    out = type_line(child, "B: concede")
    assert "*** game over: Ann wins: Bob conceded" in out
    quit_(child)
    log = events(db, match)
    kinds = [e["kind"] for e in log]
    assert kinds == ["match.created", "setup", "setup", "setup", "turn", "draw", "move", "move",
                     "correction", "judge.penalty", "round.start", "turn", "draw", "note", "concede"]
    assert log[8]["payload"] == {"voids": 8, "reason": "undone at the table (live recorder)"}
    assert log[8]["actor"] == "scorekeeper:tester" and log[9]["actor"] == "judge:Kim"
    assert all(e["recorded_by"] == "tester" for e in log[1:])
    r = run_cli("validate", match, "--json", db=db)
    findings = json.loads(r.stdout)["findings"]
    assert [(f["rule"], f["position"], f["backed_out"], f["voided_by"]) for f in findings] == \
        [("TABLE-1", 8, True, [9])]


def test_a_refused_line_comes_back_with_the_cursor_on_the_failing_action(tmp_path):
    db = str(tmp_path / "live.db")
    match = new_match(db, "optcg")
    child = spawn(db, match, state=str(tmp_path / "state"))
    type_line(child, "A: order A · A: draw 5 · B: draw 5 · A: life 5 · B: life 5")
    line = "T1 A: refresh · don 0 · pass"
    out = type_line(child, line)
    assert "action 2 (don 0), column 17: count: must be 1 or more" in out
    assert "nothing of this line was recorded" in out
    # the line is back at the prompt, the cursor on `don`: delete `don 0`, type `don` and Enter
    child.send(DELETE * 6 + "don ")
    child.send("\r")
    child.expect(NEXT_PROMPT)
    out = screen(child)
    assert "#7 T1 A:" in out and "#8 A: refresh" in out and "#9 A: don" in out and "#10 A: pass" in out
    quit_(child)
    kinds = [e["kind"] for e in events(db, match)]
    assert kinds[6:] == ["turn", "refresh", "don", "turn.end"]


def test_strict_refuses_a_flagged_action(tmp_path):
    db = str(tmp_path / "live.db")
    match = new_match(db)
    child = spawn(db, match, "--strict", state=str(tmp_path / "state"))
    out = type_line(child, "A: deck>hand")
    assert "the rules would flag it (--strict)" in out and "TABLE-1" in out
    child.send("\x03")
    child.expect(NEXT_PROMPT)
    type_line(child, "A: setup deck 3")
    assert "#3 A: deck>hand" in type_line(child, "A: deck>hand")
    quit_(child)
    assert [e["kind"] for e in events(db, match)] == ["match.created", "setup", "move"]


def test_live_new_creates_the_match(tmp_path):
    db = str(tmp_path / "live.db")
    child = spawn(db, "new", "--ruleset", "op2009", "--player", "Ann", "--player", "Bob",
                  state=str(tmp_path / "state"))
    child.expect("setup>")
    type_line(child, "game A \"coin toss\"")
    out = type_line(child, "T1 A: iniziale")
    assert "#3 T1 A:" in out and "#4 A: iniziale" in out
    quit_(child)
    matches = json.loads(run_cli("matches", "--json", db=db).stdout)
    assert len(matches) == 1 and matches[0]["ruleset"] == "op2009" and matches[0]["events"] == 4


def test_two_recorders_at_once(db_url, tmp_path):
    """A scorekeeper and a floor judge on one log, each at a real terminal: a SQLite file, and a
    real PostgreSQL server (the db_url fixture runs this test on both). They see each other's
    events (who, when), are asked before storing after them, and a turn both typed is stored once."""
    db = db_url
    match = new_match(db, "optcg")
    one = spawn(db, match, user="laptop1", state=str(tmp_path / "s1"))
    two = spawn(db, match, "--role", "judge", user="floor", state=str(tmp_path / "s2"))
    assert "#2 A: order A" in type_line(one, "A: order A")
    # the judge has not seen event 2: the line is not stored until they answer
    out = type_line(two, "A: draw 5")
    assert "the log moved before your line was stored: 1 new event by laptop1" in out
    assert re.search(r"\[laptop1 \d\d:\d\d:\d\d\] #2 A: order A", out)
    two.expect(r"S/d/e\?")
    two.send("\r")  # Enter: store it after them
    two.expect(NEXT_PROMPT)
    assert "#3 A: draw 5" in screen(two)
    out = type_line(one, "")  # Enter on an empty line shows what the other recorder added
    assert re.search(r"\[floor \d\d:\d\d:\d\d\] #3 A: draw 5", out)
    type_line(one, "B: draw 5 · A: life 5 · B: life 5")
    type_line(two, "")
    # both type the same turn at the same moment
    assert "#7 T1 A:" in type_line(one, "T1 A: refresh · don")
    out = type_line(two, "T1 A: refresh · don")
    assert "your line repeats what laptop1 just stored (#7-#9)" in out
    two.expect(r"D/s/e\?")
    two.send("\r")  # Enter: drop it
    two.expect(NEXT_PROMPT)
    assert "dropped: nothing of this line was recorded" in screen(two)
    # the judge's own undo is a judge's correction; the scorekeeper's line after it is asked about
    out = type_line(two, 'judge floor: note "watching"')
    out = type_line(two, "undo")
    assert "#11 judge floor: void 10" in out
    for child in (one, two):
        quit_(child)
    log = events(db, match)
    assert [e["position"] for e in log] == list(range(1, 12))
    assert [e["kind"] for e in log].count("turn") == 1
    assert {e["recorded_by"] for e in log[1:]} == {"laptop1", "floor"}
    assert run_cli("verify", match, db=db).returncode == 0
    r = run_cli("findings", match, "--json", db=db)
    assert "OPTCG-END-3" not in {f["rule"] for f in json.loads(r.stdout)}  # no turn taken twice
    assert [e["kind"] for e in log].count("don") == 1

