"""Counts in CLI and report text agree with their number: "1 event", "2 events"."""
from __future__ import annotations

import json

from engine.words import plural
from judge.report.templating import environment

from tests.conftest import run_cli


def test_plural():
    assert plural(1, "event") == "1 event"
    assert plural(0, "event") == "0 events"
    assert plural(2, "match", "matches") == "2 matches"


def test_templates_have_the_plural_filter():
    t = environment().from_string('{{ 1 | plural("error") }}, {{ 3 | plural("warning") }}')
    assert t.render() == "1 error, 3 warnings"


def test_import_export_and_report_of_a_one_event_match_say_1_event(tmp_path):
    src = tmp_path / "one.jsonl"
    src.write_text(json.dumps({"kind": "match.created", "payload": {"ruleset": "table", "players": ["Ann", "Bob"]}})
                   + "\n")  # a match and nothing else: its log holds 1 event
    db = str(tmp_path / "log.db")
    out = run_cli("import", str(src), db=db)
    assert out.returncode == 0, out.stderr
    assert ": 1 event into match " in out.stdout and "; 0 findings" in out.stdout
    match = out.stdout.split("into match ")[1].split()[0]
    exported = run_cli("export", match, "-o", str(tmp_path / "one-out.jsonl"), db=db)
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout.strip().endswith(": 1 event")
    report = run_cli("report", match, "-o", str(tmp_path / "r.html"), db=db)
    assert report.returncode == 0, report.stderr
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "0 errors</span>, 0 warnings" in html and "0 judge actions" in html and "1 event · integrity" in html
    assert "(s)" not in html


def test_round_starts_with_one_minute_says_minute():
    from engine.desk import describe_desk_event
    assert describe_desk_event("round.start", {"minutes": 1}, "judge:Zoe") == "round starts: 1 minute on the clock"
