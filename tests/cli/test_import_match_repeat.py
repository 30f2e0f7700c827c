"""`import FILE --match M` compared with the match's last events (judge/io/importers/_tail.py): the
same file imported twice stores its events once ("already in the log"); `--again` stores them
again; a file that grew since its import is refused until `--resume` (only the rest) or `--again`
says which; a file that shares only one event with the match's end is appended as before."""
from __future__ import annotations

import json

from tests.conftest import run_cli
from tests.live.pty import events, new_match

HEADER = '[Ruleset "table"]\n[A "Ann"]\n[B "Bob"]\n\n'
BODY = "A: setup deck 5\nB: setup deck 5\n"


def _kinds_and_payloads(db: str, match: str) -> list[tuple[str, dict]]:
    return [(e["kind"], e["payload"]) for e in events(db, match)]


def test_notation_imported_twice_is_already_in_the_log(tmp_path):
    db = str(tmp_path / "log.db")
    match = new_match(db)
    path = tmp_path / "body.txt"
    path.write_text(HEADER + BODY, encoding="utf-8")
    assert run_cli("import", str(path), "--match", match, db=db).returncode == 0
    before = events(db, match)
    r = run_cli("import", str(path), "--match", match, db=db)
    assert r.returncode == 0, r.stderr
    assert (f"already in the log: match {match} ends with these 2 events (imported before?); "
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
    db = str(tmp_path / "log.db")
    match = new_match(db)
    path = tmp_path / "body.txt"
    path.write_text(HEADER + BODY, encoding="utf-8")
    assert run_cli("import", str(path), "--match", match, db=db).returncode == 0
    r = run_cli("import", str(path), "--match", match, "--again", db=db)
    assert r.returncode == 0, r.stderr
    assert "2 events into match" in r.stdout
    rows = _kinds_and_payloads(db, match)
    assert len(rows) == 5 and rows[1:3] == rows[3:5]


def test_a_grown_file_is_refused_then_resumed(tmp_path):
    db = str(tmp_path / "log.db")
    match = new_match(db)
    path = tmp_path / "body.txt"
    path.write_text(HEADER + BODY, encoding="utf-8")
    assert run_cli("import", str(path), "--match", match, db=db).returncode == 0
    path.write_text(HEADER + BODY + "A: setup hand 2\n", encoding="utf-8")  # the scorekeeper wrote on
    r = run_cli("import", str(path), "--match", match, db=db)
    assert r.returncode == 2
    assert f"match {match} ends with this file's first 2 events" in r.stderr
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
