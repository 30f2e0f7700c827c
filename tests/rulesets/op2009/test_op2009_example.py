"""The example best-of-three match replays with no findings and ends by the end-of-time procedure."""
from __future__ import annotations

import json
from pathlib import Path

from engine.match import Match
from engine.store import EventStore
from judge.desk.timelimit import run
from tests.conftest import ROOT

FIXTURE = Path(ROOT) / "tests" / "fixtures" / "op2009" / "best-of-three-fine-tempo.jsonl"
EXAMPLE = Path(ROOT) / "examples" / "op2009" / "best-of-three-fine-tempo.jsonl"


def load(path: Path, db: Path) -> Match:
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    head, rest = lines[0], lines[1:]
    assert head["kind"] == "match.created"
    p = head["payload"]
    m = Match.create(EventStore.open(str(db)), p["ruleset"], p["players"], event=p.get("event"),
                     round=p.get("round"), table=p.get("table"))
    for line in rest:
        m.record(line["kind"], line["payload"], actor=line.get("actor", "-"))
    return m


def test_the_fixture_is_the_example():
    assert FIXTURE.read_bytes() == EXAMPLE.read_bytes()


def test_example_match_from_preparation_to_the_end_of_time_decision(tmp_path):
    m = load(FIXTURE, tmp_path / "ex.db")
    assert m.validate().findings == []
    s = m.state()
    assert [g["winner"] for g in s.extra["games"]] == ["Ann", "Bob"]
    assert s.extra["game"]["sudden_death"] is True and s.result is None
    result = run(m)
    d = result.decision
    assert (d.result, d.winner, d.branch, d.rule) == ("win", "Bob", "vantaggio/1-1-nuova-partita/capitani-pari",
                                                      "OP09-TEMPO-CAP-1")
    assert m.state().result["winner"] == "Bob"
    assert m.validate().findings == []
