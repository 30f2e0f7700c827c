"""QA71 item 11: an edited event is named with what can be known of it, everywhere it shows."""
from __future__ import annotations

import json

from engine.match import Match
from engine.store import EventStore
from tests.conftest import run_cli
from tests.engine.test_store_integrity import _tamper


def test_an_edited_event_is_shown_diffed_against_an_export_marked_and_fails_the_report(tmp_path):
    db = str(tmp_path / "log.db")
    store = EventStore.open(db)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t", round="3")
    for i in range(2, 6):
        m.record("note", {"text": f"r {i}"})
    store.close()
    export = tmp_path / "m.jsonl"
    assert run_cli("export", m.id, "-o", str(export), db=db).returncode == 0
    _tamper(db, m.id, edit=3)

    r = run_cli("verify", m.id, db=db)  # the guard missing too: the count is still said
    assert r.returncode == 1
    assert f"{m.id}: FAILED, 5 events, no trusted head (the chain breaks at event 3)" in r.stdout
    assert 'event 3 as stored now: {"kind": "note", "actor": "-", "payload": {"text": "edited"}' in r.stdout
    assert "which field was changed cannot be known from the log alone" in r.stdout
    r = run_cli("verify", m.id, "--anchor", str(export), db=db)
    assert f'event 3 compared with {export}: payload.text was "r 3", now "edited"' in r.stdout

    r = run_cli("events", m.id, db=db)
    assert r.returncode == 0
    line = next(x for x in r.stdout.splitlines() if x.strip().startswith("3 "))
    assert "edited  !! BROKEN LINK: the event's content does not match its hash" in line
    r = run_cli("events", m.id, "--json", db=db)
    rows = json.loads(r.stdout)
    assert [x["position"] for x in rows if x["broken_link"]] == [3]

    page = tmp_path / "r.html"
    r = run_cli("report", m.id, "-o", str(page), db=db)
    assert r.returncode == 1 and "FAILED" in page.read_text()
    assert "the log FAILED verification" in r.stderr
    r = run_cli("report", "--round", "3", "--out-dir", str(tmp_path / "round"), db=db)  # a round holding it
    assert r.returncode == 1 and f"match {m.id} failed verification" in r.stderr


def test_a_match_recorded_broken_is_still_read_with_a_warning_and_never_written(tmp_path):
    """A head judge who has seen `verify` report the break keeps reading the match: every read-only
    command goes on, saying first on stderr where the chain breaks; a write stays refused."""
    db = str(tmp_path / "log.db")
    store = EventStore.open(db)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    sound = Match.create(store, "table", ["Cy", "Di"], recorded_by="t")
    for i in range(2, 6):
        m.record("note", {"text": f"r {i}"})
    store.close()
    _tamper(db, m.id, edit=3)
    assert run_cli("verify", "--repair", m.id, db=db).returncode == 1
    warning = f"WARNING: The hash chain of {m.id} is broken at event 3"
    for args in (("state", m.id), ("state", m.id, "--json"), ("findings", m.id), ("validate", m.id),
                 ("audit", m.id, "--at", "4"), ("replay", m.id, "-o", str(tmp_path / "r.html"))):
        r = run_cli(*args, db=db)
        assert r.returncode == 0 and warning in r.stderr and "writes to it are refused" in r.stderr, args
    assert json.loads(run_cli("state", m.id, "--json", db=db).stdout)  # stdout stays the JSON alone
    r = run_cli("log", m.id, "note", "--text", "after", db=db)
    assert r.returncode == 1 and "refused: nothing was stored" in r.stderr and "Traceback" not in r.stderr
    with EventStore.open(db) as store:
        assert store.head(m.id).position == 5
    assert "WARNING" not in run_cli("state", sound.id, db=db).stderr


def test_timelimit_and_export_of_a_match_recorded_broken_say_so(tmp_path):
    """QA84 #5: `timelimit --dry-run` printed a decision read off the edited log, and `export`
    wrote it, with no warning; recording a decision was refused for the decision the edited log
    gave ("void it first", itself refused on a broken chain), never for the break."""
    from judge.desk.timelimit import run

    db = str(tmp_path / "log.db")
    store = EventStore.open(db)
    m = Match.create(store, "optcg", ["Ann", "Bob"], recorded_by="t")
    m.record("note", {"text": "r 2"})
    run(m, facts="turn=3 life=2-3", judge="Kim")
    store.close()
    _tamper(db, m.id, edit=2)
    assert run_cli("verify", "--repair", m.id, db=db).returncode == 1
    warning = f"WARNING: The hash chain of {m.id} is broken at event 2"
    r = run_cli("timelimit", m.id, "--dry-run", db=db)
    assert r.returncode == 0 and "Bob" in r.stdout and warning in r.stderr, r.stdout + r.stderr
    r = run_cli("export", m.id, "--format", "jsonl", "-o", str(tmp_path / "m.jsonl"), db=db)
    assert r.returncode == 0 and warning in r.stderr, r.stderr
    r = run_cli("timelimit", m.id, "--facts", "turn=3 life=3-2", "--judge", "Kim", db=db)
    assert r.returncode == 1 and "refused: nothing was stored. The hash chain of" in r.stderr, r.stderr
    assert "void event" not in r.stderr, r.stderr
    with EventStore.open(db) as store:
        assert store.head(m.id).position == 4
