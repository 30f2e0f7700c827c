"""`import FILE --match M` compared with the match's events (judge/io/importers/_tail.py, _held.py):
the same file imported twice stores its events once ("already in the log"), wherever in the match
they are and whatever off-table events (a judge call) came between; `--again` stores them again; a
file that grew since its import is refused until `--resume` (only the rest) or `--again` says which;
a file that shares only one event with the match's end is appended as before."""
from __future__ import annotations

import json
import os

from tests.conftest import ROOT, run_cli
from tests.live.pty import events, new_match

HEADER = '[Ruleset "table"]\n[A "Ann"]\n[B "Bob"]\n\n'
BODY = "A: setup deck 5\nB: setup deck 5\n"


def _kinds_and_payloads(db: str, match: str) -> list[tuple[str, dict]]:
    return [(e["kind"], e["payload"]) for e in events(db, match)]


def _body_imported_once(tmp_path) -> tuple[str, str, object]:
    """A log with a `table` match and BODY imported into it once: (db, match, the file)."""
    db = str(tmp_path / "log.db")
    match = new_match(db)
    path = tmp_path / "body.txt"
    path.write_text(HEADER + BODY, encoding="utf-8")
    assert run_cli("import", str(path), "--match", match, db=db).returncode == 0
    return db, match, path


def test_notation_imported_twice_is_already_in_the_log(tmp_path):
    db, match, path = _body_imported_once(tmp_path)
    before = events(db, match)
    r = run_cli("import", str(path), "--match", match, db=db)
    assert r.returncode == 0, r.stderr
    assert (f"already in the log: match {match} holds these 2 events (events 2-3; imported before?); "
            "nothing stored") in r.stdout
    assert "--again" in r.stdout
    assert events(db, match) == before
    r = run_cli("import", str(path), "--match", match, "--json", db=db)
    assert json.loads(r.stdout)["status"] == "already in the log" and json.loads(r.stdout)["events"] == 0
    # a file that only starts with the match's last event is another one (one event in common is
    # no reason to ask): appended whole
    other = tmp_path / "other.txt"
    other.write_text(HEADER + "B: setup deck 5\nA: setup hand 2\n", encoding="utf-8")
    r = run_cli("import", str(other), "--match", match, db=db)
    assert r.returncode == 0 and "2 events into match" in r.stdout, r.stdout + r.stderr
    assert len(events(db, match)) == 5


def test_again_appends_the_same_events_once_more(tmp_path):
    db, match, path = _body_imported_once(tmp_path)
    r = run_cli("import", str(path), "--match", match, "--again", db=db)
    assert r.returncode == 0, r.stderr
    assert "2 events into match" in r.stdout
    rows = _kinds_and_payloads(db, match)
    assert len(rows) == 5 and rows[1:3] == rows[3:5]


def test_a_grown_file_is_refused_then_resumed(tmp_path):
    db, match, path = _body_imported_once(tmp_path)
    path.write_text(HEADER + BODY + "A: setup hand 2\n", encoding="utf-8")  # the scorekeeper wrote on
    r = run_cli("import", str(path), "--match", match, db=db)
    assert r.returncode == 2
    assert f"match {match} ends with this file's first 2 events (events 2-3; imported before" in r.stderr
    assert "--resume" in r.stderr and "--again" in r.stderr and "--expect N" in r.stderr
    assert "nothing stored" in r.stderr and "Traceback" not in r.stderr
    assert len(events(db, match)) == 3
    r = run_cli("import", str(path), "--match", match, "--resume", db=db)
    assert r.returncode == 0, r.stderr
    assert "resumed: 2 events were already in the log, 1 appended" in r.stdout
    rows = _kinds_and_payloads(db, match)
    assert len(rows) == 4 and rows[-1][1]["zone"] == "hand"


def test_jsonl_lines_imported_twice_are_already_in_the_log(tmp_path):
    db = str(tmp_path / "log.db")
    match = new_match(db)
    path = tmp_path / "notes.jsonl"
    lines = [{"kind": "note", "payload": {"text": "hi"}}, {"kind": "note", "payload": {"text": "ho"}}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert run_cli("import", str(path), "--match", match, db=db).returncode == 0
    r = run_cli("import", str(path), "--match", match, db=db)
    assert r.returncode == 0 and "already in the log" in r.stdout, r.stdout + r.stderr
    assert len(events(db, match)) == 3
    path.write_text(path.read_text() + json.dumps({"kind": "note", "payload": {"text": "hu"}}) + "\n")
    assert run_cli("import", str(path), "--match", match, db=db).returncode == 2
    r = run_cli("import", str(path), "--match", match, "--resume", db=db)
    assert r.returncode == 0 and "1 appended" in r.stdout, r.stdout + r.stderr
    assert [e["payload"].get("text") for e in events(db, match)] == [None, "hi", "ho", "hu"]


def test_again_and_resume_are_refused_where_they_mean_nothing(tmp_path):
    db = str(tmp_path / "log.db")
    match = new_match(db)
    path = tmp_path / "body.txt"
    path.write_text(HEADER + BODY, encoding="utf-8")
    r = run_cli("import", str(path), "--again", db=db)
    assert r.returncode == 2 and "--again goes with --match" in r.stderr
    r = run_cli("import", str(path), "--match", match, "--again", "--resume", db=db)
    assert r.returncode == 2 and "give one" in r.stderr
    log = tmp_path / "game.log"  # an OPTCGSim log by its name: its importer has no such choice
    log.write_text("hello\n", encoding="utf-8")
    r = run_cli("import", str(log), "--match", match, "--resume", db=db)
    assert r.returncode == 2 and "--again and --resume are for notation and JSONL files" in r.stderr
    assert "Traceback" not in r.stderr
    assert len(events(db, match)) == 1


CLUB_NIGHT = os.path.join(ROOT, "examples", "table", "club-night.txt")


def _club_night_start(tmp_path) -> tuple[str, str]:
    """QA's setup (qa61 item 2): match I2 of table, Ann and Bob, and part.txt, the first 22 lines of
    examples/table/club-night.txt (its header and 17 events: a round start, notes, the game's)."""
    db = str(tmp_path / "log.db")
    r = run_cli("match", "new", "-r", "table", "-p", "Ann", "-p", "Bob", "--id", "I2", db=db)
    assert r.returncode == 0, r.stderr
    with open(CLUB_NIGHT, encoding="utf-8") as f:
        (tmp_path / "part.txt").write_text("".join(f.readlines()[:22]), encoding="utf-8")
    r = run_cli("import", str(tmp_path / "part.txt"), "--match", "I2", db=db)
    assert r.returncode == 0 and "17 events into match I2" in r.stdout, r.stdout + r.stderr
    return db, str(tmp_path / "part.txt")


def test_a_judge_call_after_an_import_does_not_hide_it(tmp_path):
    """QA case a: a judge call after the import is normal at a table; the same file again is
    already in the log (it appended the 17 events a second time)."""
    db, part = _club_night_start(tmp_path)
    r = run_cli("judge", "call", "I2", "--caller", "Ann", "--reason", "x", db=db)
    assert r.returncode == 0, r.stderr
    r = run_cli("import", part, "--match", "I2", db=db)
    assert r.returncode == 0, r.stderr
    assert ("already in the log: match I2 holds these 17 events (events 2-18; imported before?); "
            "nothing stored (--again appends them again)") in r.stdout
    assert len(events(db, "I2")) == 19
    r = run_cli("import", part, "--match", "I2", "--json", db=db)
    assert json.loads(r.stdout)["held"] == [2, 18] and json.loads(r.stdout)["events"] == 0


def test_an_older_shorter_copy_after_a_resume_is_asked_about_not_appended(tmp_path):
    """QA case b: part.txt, then the whole file with --resume, then part.txt again (it appended 17
    duplicates). Held earlier than the match's end, the file is refused (exit 2, nothing stored):
    a short run of events recurs every turn, so it is asked about, never dropped with exit 0 (a
    review found a two-event file silently "already in the log"); --again appends it."""
    db, part = _club_night_start(tmp_path)
    r = run_cli("import", CLUB_NIGHT, "--match", "I2", "--resume", db=db)
    assert r.returncode == 0 and "17 events were already in the log" in r.stdout, r.stdout + r.stderr
    stored = events(db, "I2")
    r = run_cli("import", part, "--match", "I2", db=db)
    assert r.returncode == 2, r.stdout
    assert "match I2 already holds these 17 events (events 2-18; imported before?), though not at its end" in r.stderr
    assert events(db, "I2") == stored
    assert run_cli("import", part, "--match", "I2", "--again", db=db).returncode == 0
    assert len(events(db, "I2")) == len(stored) + 17


def test_a_grown_file_is_asked_about_through_a_judge_call_and_then_held_around_it(tmp_path):
    """The grown-file rule sees through off-table events after the match's end, and the whole file
    is then held with the judge call between its two parts (it was appended whole, twice)."""
    db, part = _club_night_start(tmp_path)
    assert run_cli("judge", "call", "I2", "--caller", "Ann", "--reason", "x", db=db).returncode == 0
    r = run_cli("import", CLUB_NIGHT, "--match", "I2", db=db)
    assert r.returncode == 2, r.stdout
    assert ("match I2 ends with this file's first 17 events (events 2-18, then 1 off-table event; "
            "imported before") in r.stderr
    assert "nothing stored" in r.stderr and "Traceback" not in r.stderr
    assert len(events(db, "I2")) == 19
    r = run_cli("import", CLUB_NIGHT, "--match", "I2", "--resume", db=db)
    assert r.returncode == 0 and "17 events were already in the log" in r.stdout, r.stdout + r.stderr
    stored = events(db, "I2")
    assert stored[18]["kind"] == "judge.call"
    r = run_cli("import", CLUB_NIGHT, "--match", "I2", db=db)
    assert r.returncode == 0, r.stderr
    assert f"holds these {len(stored) - 2} events (events 2-{len(stored)};" in r.stdout
    assert events(db, "I2") == stored


def test_events_that_really_happened_twice_are_appended_only_with_again(tmp_path):
    db, part = _club_night_start(tmp_path)
    assert run_cli("judge", "call", "I2", "--caller", "Ann", "--reason", "x", db=db).returncode == 0
    assert "already in the log" in run_cli("import", part, "--match", "I2", db=db).stdout
    r = run_cli("import", part, "--match", "I2", "--again", db=db)
    assert r.returncode == 0 and "17 events into match I2" in r.stdout, r.stdout + r.stderr
    rows = _kinds_and_payloads(db, "I2")
    assert len(rows) == 36 and rows[1:18] == rows[19:36]
    # and a third time it is held twice: the latest run is named
    r = run_cli("import", part, "--match", "I2", db=db)
    assert "holds these 17 events (events 20-36;" in r.stdout and len(events(db, "I2")) == 36
    # one event held only before the end is a coincidence too often: appended, as before
    one = tmp_path / "one.txt"
    one.write_text(HEADER + "A: setup deck 40\n", encoding="utf-8")
    r = run_cli("import", str(one), "--match", "I2", db=db)
    assert r.returncode == 0 and "1 event into match I2" in r.stdout, r.stdout + r.stderr


OPTCG_MATCH = os.path.join(ROOT, "examples", "optcg", "match.txt")


def _optcg_to_turn_5(tmp_path) -> tuple[str, str, list[str], list[str]]:
    """examples/optcg/match.txt imported up to the line before `T6 B: refresh` (turn 5), as match
    M5: (db, the first file, the header lines, the rest of the body)."""
    lines = open(OPTCG_MATCH, encoding="utf-8").read().splitlines()
    t6 = next(i for i, line in enumerate(lines) if line.startswith("T6 "))
    head = lines[:lines.index("")]
    db = str(tmp_path / "log.db")
    first = tmp_path / "first.txt"
    first.write_text("\n".join(['[Match "M5"]'] + lines[:t6]) + "\n", encoding="utf-8")
    assert run_cli("import", str(first), db=db).returncode == 0
    return db, str(first), head, lines[t6:]


def test_a_body_appended_to_a_match_counts_its_turns_on_from_the_match(tmp_path):
    """QA77 #1: a file appended at turn 5 with `T6 B: refresh` was refused ("the log makes this
    turn 1"): the turns were counted from the file's own start."""
    db, _first, head, rest = _optcg_to_turn_5(tmp_path)
    more = tmp_path / "more.txt"
    more.write_text("\n".join(head + [""] + rest) + "\n", encoding="utf-8")
    r = run_cli("import", str(more), "--match", "M5", db=db)
    assert r.returncode == 0, r.stderr
    # a number that is neither the match's turn nor the file's own count names both
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("\n".join(head + ["", "T9 A: refresh"]) + "\n", encoding="utf-8")
    r = run_cli("import", str(wrong), "--match", "M5", db=db)
    assert r.returncode == 2
    assert ("the file alone makes this turn 1, the match makes this turn 8, the header says T9: "
            "expected T1 or T8 (or T alone)") in r.stderr, r.stderr


def test_a_whole_game_imported_again_onto_its_match_keeps_its_own_count(tmp_path):
    """A grown copy of the file (its turns counted from its own start) still resumes."""
    db, _first, _head, _rest = _optcg_to_turn_5(tmp_path)
    r = run_cli("import", OPTCG_MATCH, "--match", "M5", "--resume", db=db)
    assert r.returncode == 0 and "events were already in the log" in r.stdout, r.stdout + r.stderr
