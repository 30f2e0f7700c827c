"""CLI commands read and verify a match's log once (a review found the same work done twice or
three times on these paths). Each test counts the store's calls with a spy, in process, and checks
the output is what it was."""
from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from engine.match import Match
from engine.store import EventStore
from judge.cli import cli
from judge.cli.common import run_guarded


def run(db, *args):
    @click.command(context_settings={"ignore_unknown_options": True})
    @click.argument("argv", nargs=-1, type=click.UNPROCESSED)
    def entry(argv):
        raise SystemExit(run_guarded(cli, ["--db", str(db), *argv]))
    res = CliRunner().invoke(entry, [str(a) for a in args])
    return res.exit_code, res.stdout, res.stderr


@pytest.fixture
def calls(monkeypatch):
    """Counts of EventStore.read / read_raw / verify calls (each still does its work)."""
    counts = {"read": 0, "read_raw": 0, "verify": 0}

    def spy(name):
        real = getattr(EventStore, name)

        def wrapper(self, *a, **kw):
            counts[name] += 1
            return real(self, *a, **kw)
        monkeypatch.setattr(EventStore, name, wrapper)
    for name in counts:
        spy(name)
    return counts


@pytest.fixture
def table_match(tmp_path):
    db = tmp_path / "t.db"
    store = EventStore.open(str(db))
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t", round="3")
    for i in range(2, 6):
        m.record("note", {"text": f"r {i}"})
    store.close()
    return db, m.id


def test_a_match_report_verifies_the_chain_once(table_match, calls, tmp_path):
    db, mid = table_match
    page = tmp_path / "r.html"
    code, out, err = run(db, "report", mid, "-o", page)
    assert code == 0, err
    assert out.strip() == str(page) and "verified" in page.read_text().lower()
    assert calls["verify"] == 1
