"""Pieces built separately, used together as a judge would: rulesets with the time-limit command,
reports for every example, the PostgreSQL settings the eventsourcing library reads."""
from __future__ import annotations

import json
import os
from urllib.parse import urlparse

import pytest

from engine.match import Match
from engine.store import EventStore

from tests.conftest import ROOT, run_cli


def _import(path: str, db: str) -> str:
    r = run_cli("import", path, "--json", db=db)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["match"]


def test_optcg_time_called_mid_game_plays_on_with_the_bandai_procedure(tmp_path):
    lines = open(os.path.join(ROOT, "examples", "optcg", "match.jsonl")).read().splitlines()[:60]
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines) + "\n")
    db = str(tmp_path / "o.db")
    match = _import(str(part), db)
    assert run_cli("judge", "time", match, "--clock", "14:35", db=db).returncode == 0
    r = run_cli("timelimit", match, "--json", db=db)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert (d["decision"], d["branch"], d["policy"]) == ("continue", "extra-turns", "bandai")
    assert any("3 extra turns" in step for step in d["steps"])
    again = json.loads(run_cli("timelimit", match, "--json", db=db).stdout)
    assert not again["newly_recorded"]  # deciding twice records nothing new
    events = json.loads(run_cli("events", match, "--json", db=db).stdout)
    assert [e["kind"] for e in events[-2:]] == ["time.called", "time.decision"]


@pytest.mark.parametrize("example", ["ken/quick-game.jsonl", "onigashima/full-game-2p.jsonl",
                                     "grandline/sample-profile.jsonl", "optcg/match.jsonl",
                                     "op2009/best-of-three-fine-tempo.jsonl"])
def test_every_game_reports_its_own_counters(tmp_path, example):
    db = str(tmp_path / "r.db")
    match = _import(os.path.join(ROOT, "examples", example), db)
    out = tmp_path / "report.html"
    r = run_cli("report", match, "-o", str(out), db=db)
    assert r.returncode == 0, r.stderr
    html = out.read_text()
    assert "<svg" in html and "integrity" in html.lower()
    m = Match.open(EventStore.open(db), match)
    charted = {name for per_player in m.ruleset.key_counters(m.state()).values() for name in per_player}
    assert charted, f"{m.ruleset.name} charts no counters"
    assert all(name in html for name in charted)


@pytest.mark.postgres
def test_cli_on_postgres_through_the_librarys_own_variables(pg_url):
    u = urlparse(pg_url)
    env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": u.path.lstrip("/"),
           "POSTGRES_HOST": u.hostname, "POSTGRES_PORT": str(u.port), "POSTGRES_USER": u.username,
           "POSTGRES_PASSWORD": "", "TABLEJUDGE_DB": ""}
    r = run_cli("match", "new", "-r", "table", "-p", "Ann", "-p", "Bob", env=env)
    assert r.returncode == 0, r.stderr
    match = r.stdout.strip()
    assert run_cli("log", match, "note", "--text", "on postgres", env=env).returncode == 0
    listed = json.loads(run_cli("matches", "--json", db=pg_url).stdout)
    assert [(m["id"], m["events"]) for m in listed] == [(match, 2)]
    assert run_cli("verify", match, env=env).returncode == 0


@pytest.mark.parametrize("example", ["ken/quick-game.jsonl", "onigashima/full-game-2p.jsonl",
                                     "grandline/sample-profile.jsonl", "optcg/match.jsonl",
                                     "op2009/best-of-three-fine-tempo.jsonl"])
def test_paperwork_after_the_game_is_not_play_after_the_game(tmp_path, example):
    """A result slip, its confirmations and a penalty come after the game has ended; no ruleset may
    flag them as 'played after the end'."""
    db = str(tmp_path / "p.db")
    match = _import(os.path.join(ROOT, "examples", example), db)
    if example.startswith("op2009"):  # this match is decided by the end-of-time procedure
        assert run_cli("timelimit", match, db=db).returncode == 0
    m = Match.open(EventStore.open(db), match)
    outcome = m.ruleset.outcome(m.state())
    assert outcome is not None, "the example should end its game"
    first_new = m.head_position() + 1
    a, b = m.players[:2]
    slip = ({"result": "win", "winner": outcome.winner} if outcome.winner
            else {"result": outcome.result if outcome.result in ("draw", "double-loss") else "draw"})
    m.record("judge.penalty", {"player": b, "penalty": "Caution", "infraction": "Procedural Error",
                               "reason": "slow play"}, actor="judge:Kim")
    m.record("result.slip", slip)
    m.record("result.confirm", {"player": a}, actor=a)
    m.record("result.confirm", {"player": b}, actor=b)
    late = [f for f in m.validate().findings if f.position >= first_new]
    assert late == [], [(f.rule, f.message) for f in late]


def test_time_called_after_the_game_ended_records_nothing(tmp_path):
    db = str(tmp_path / "o.db")
    match = _import(os.path.join(ROOT, "examples", "optcg", "match.jsonl"), db)  # won on Life at 93
    assert run_cli("judge", "time", match, "--clock", "14:35", db=db).returncode == 0
    r = run_cli("timelimit", match, "--json", db=db)
    d = json.loads(r.stdout)
    assert r.returncode == 0 and d["decided_before_time"] and not d["newly_recorded"]
    assert (d["decision"], d["winner"]) == ("win", "Ann")
    kinds = [e["kind"] for e in json.loads(run_cli("events", match, "--json", db=db).stdout)]
    assert kinds[-1] == "time.called"


def test_deciding_twice_after_the_extra_turns_records_one_decision(tmp_path):
    """optcg: time called, the three extra turns played, a decision recorded; asking again must
    find the same decision, not decide from the decision itself."""
    lines = open(os.path.join(ROOT, "examples", "optcg", "match.jsonl")).read().splitlines()[:60]
    part = tmp_path / "part.jsonl"
    part.write_text("\n".join(lines) + "\n")
    db = str(tmp_path / "o.db")
    match = _import(str(part), db)
    run_cli("judge", "time", match, "--clock", "14:35", db=db)
    m = Match.open(EventStore.open(db), match)
    for turn, player in ((6, "Bob"), (7, "Ann"), (8, "Bob")):
        m.record("turn.end", {"player": m.state().active}, actor=m.state().active)
        m.record("turn", {"player": player}, actor=player)
    m.record("turn.end", {"player": "Bob"}, actor="Bob")
    first = json.loads(run_cli("timelimit", match, "--json", db=db).stdout)
    assert first["newly_recorded"] and first["decision"] in ("win", "double-loss")
    second = json.loads(run_cli("timelimit", match, "--json", db=db).stdout)
    assert not second["newly_recorded"]
    assert (second["decision"], second["winner"], second["branch"]) == \
        (first["decision"], first["winner"], first["branch"])
