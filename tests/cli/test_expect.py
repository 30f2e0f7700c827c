"""`--expect N` for `log` and `import --match`: a log that moved since N is shown (each event, who
recorded it and when; a repeat of your event named); a script gets exit 3 and nothing stored, a
person at a terminal is asked."""
from __future__ import annotations

import sys

import pexpect

from tests.conftest import ROOT, run_cli
from tests.live.pty import events, new_match


def test_log_with_expect_shows_what_moved_and_refuses(tmp_path):
    db = str(tmp_path / "log.db")
    match = new_match(db)
    run_cli("log", match, "setup", "--actor", "Ann", "--player", "Ann", "--zone", "deck", "--count", "5", db=db)
    r = run_cli("log", match, "setup", "--actor", "Ann", "--player", "Ann", "--zone", "deck", "--count", "5",
                "--expect", "1", db=db)
    assert r.returncode == 3
    assert "the log moved since event 1: 1 new event" in r.stderr
    assert "#2 [tester at " in r.stderr and "your event repeats #2 (by tester)" in r.stderr
    assert len(events(db, match)) == 2
    # at a terminal it asks, and stores after them when told to
    child = pexpect.spawn("bash", ["-c", f"cd {tmp_path} && TABLEJUDGE_USER=tester PYTHONPATH={ROOT} "
                                   f"{sys.executable} -m judge --db {db} log {match} note --text hi --expect 1"],
                          encoding="utf-8", timeout=60)
    child.expect(r"store your event after them anyway .*\[y/N\]")
    child.send("y\r")
    child.expect(pexpect.EOF)
    assert [e["kind"] for e in events(db, match)][-1] == "note"


def test_import_with_expect(tmp_path):
    db = str(tmp_path / "log.db")
    match = new_match(db)
    path = tmp_path / "more.txt"
    path.write_text('[Ruleset "table"]\n[A "Ann"]\n[B "Bob"]\n\nA: setup deck 5\n', encoding="utf-8")
    assert run_cli("import", str(path), "--match", match, "--expect", "1", db=db).returncode == 0
    r = run_cli("import", str(path), "--match", match, "--expect", "1", db=db)
    assert r.returncode == 3 and "the log moved since event 1" in r.stderr and "5 cards into deck" in r.stderr
    assert len(events(db, match)) == 2
