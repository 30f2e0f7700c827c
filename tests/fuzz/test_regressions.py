"""The fuzz corpus (tests/fuzz/corpus/) and the crash inputs of issue 14, as regression cases: each
is refused with a clear message (no traceback, no 'internal error', a documented exit code), quotes
at most about 80 characters of the bad value, stores nothing and leaves no temporary file."""
from __future__ import annotations

import os

import pytest

from tests.fuzz.harness import base_log, invoke, leftovers, run_case
from tests.fuzz.hostile import ROOT, Case

CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
TARGET = {"jsonl": "jsonl", "notation": "notation", "results": None, "cards": "cards"}
FILES = sorted(os.path.join(folder, name) for folder in TARGET
               for name in os.listdir(os.path.join(CORPUS, folder)))
OPTCGSIM_FUZZ = os.path.join(ROOT, "tests", "fixtures", "optcgsim", "fuzz")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return base_log(str(tmp_path_factory.mktemp("base")))


def _target(rel: str) -> str:
    folder = rel.split(os.sep)[0]
    if folder == "results":
        return "results-json" if rel.endswith(".json") else "results-csv"
    return TARGET[folder]


def _events(db: str) -> int:
    import sqlite3

    with sqlite3.connect(db) as c:
        return c.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]


def _assert_refused(outcome, case_folder: str) -> None:
    assert not outcome.traceback, outcome.output
    assert outcome.code == 2, outcome.output
    assert not outcome.leftovers
    # the message quotes a bad value short: never thousands of characters of it
    assert len(outcome.output) < 1_000, outcome.output[:300]


@pytest.mark.parametrize("rel", FILES)
def test_corpus_file_is_refused_clearly(rel, base, tmp_path):
    with open(os.path.join(CORPUS, rel), "rb") as f:
        data = f.read()
    folder = str(tmp_path / "case")
    outcome = run_case(Case(_target(rel), data, rel), folder, base)
    _assert_refused(outcome, folder)
    assert _events(os.path.join(folder, "t.db")) == _events(base)  # nothing stored


@pytest.mark.parametrize("name", sorted(os.listdir(OPTCGSIM_FUZZ)))
def test_optcgsim_fuzz_logs_never_crash(name, base, tmp_path):
    with open(os.path.join(OPTCGSIM_FUZZ, name), "rb") as f:
        outcome = run_case(Case("optcgsim", f.read(), name), str(tmp_path / "case"), base)
    assert outcome.ok, outcome.output


@pytest.mark.parametrize("rel", sorted(os.listdir(os.path.join(CORPUS, "decklist"))))
def test_decklist_copies_are_capped(rel, base, tmp_path):
    """`deck check` on 999999999xOP01-016 ran out of memory: the line is reported instead."""
    path = os.path.join(CORPUS, "decklist", rel)
    outcome = invoke(["deck", "check", path, "--leader", "OP01-001", "--cards", str(tmp_path / "none.db")])
    assert outcome.code == 1 and not outcome.traceback, outcome.output
    assert "unreadable" in outcome.output or "at most 50" in outcome.output


BUILT = {
    # nesting deeper than Python's JSON reader recurses
    "deep-nesting.jsonl": ("jsonl", b'{"kind": "match.created", "payload": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"),
    "deep-nesting-results.json": ("results-json", b"[" * 100_000 + b"]" * 100_000),
    "deep-nesting-cards.json": ("cards", b"[" * 100_000 + b"]" * 100_000),
    # a field over the csv module's 131,072-character limit
    "field-131k.csv": ("results-csv", b"round,player,opponent,wins,losses,draws\n1,Ann," + b"B" * 131_100 + b",1,0,0\n"),
    # a 10 MB text value: refused, and the message does not repeat it
    "note-10mb.jsonl": ("jsonl", b'{"kind": "match.created", "payload": {"ruleset": "table", "players": ["Ann", "Bob"]}}\n'
                        b'{"kind": "note", "payload": {"text": "' + b"x" * 10_000_000 + b'"}}\n'),
}


@pytest.mark.parametrize("name", sorted(BUILT))
def test_built_crash_inputs_are_refused(name, base, tmp_path):
    target, data = BUILT[name]
    outcome = run_case(Case(target, data, name), str(tmp_path / "case"), base)
    _assert_refused(outcome, str(tmp_path / "case"))


ARGUMENTS = {
    "lone surrogate": ["log", "fuzzmatch", "note", "--text", "bad \ud800"],
    "invalid UTF-8 byte (as Python keeps it)": ["log", "fuzzmatch", "note", "--text", "bad \udcff"],
    "count 2000000000": ["log", "fuzzmatch", "draw", "--player", "Ann", "--count", "2000000000"],
    "count of 5000 digits": ["log", "fuzzmatch", "draw", "--player", "Ann", "--count", "1" + "0" * 5000],
    "payload of 5000 digits": ["log", "fuzzmatch", "note", "--payload", '{"text": 1' + "0" * 5000 + "}"],
    "payload nested 100000 deep": ["log", "fuzzmatch", "note", "--payload", "[" * 100_000 + "]" * 100_000],
    "option of 5000 digits": ["match", "new", "-r", "table", "-p", "A", "-p", "B", "--option", "x=1" + "0" * 5000],
    "ruleset 5": ["match", "new", "-r", "5", "-p", "A", "-p", "B"],
    "match id traversal": ["match", "new", "-r", "table", "-p", "A", "-p", "B", "--id", "../../x"],
    "match id absolute": ["match", "new", "-r", "table", "-p", "A", "-p", "B", "--id", "/tmp/abs"],
    "player name of 10,000 characters": ["match", "new", "-r", "table", "-p", "A" * 10_000, "-p", "B"],
    "PostgreSQL port out of range": ["--db", "postgresql://u:secret@127.0.0.1:99999/db", "matches"],
    "PostgreSQL port not a number": ["--db", "postgresql://u:secret@127.0.0.1:abc/db", "matches"],
    "--at of 5000 digits": ["state", "fuzzmatch", "--at", "1" + "0" * 5000],
}


@pytest.mark.parametrize("name", sorted(ARGUMENTS))
def test_hostile_arguments_are_refused(name, base, tmp_path):
    args = ARGUMENTS[name]
    db = str(tmp_path / "t.db")
    import shutil

    shutil.copyfile(base, db)
    outcome = invoke(args if args[0] == "--db" else ["--db", db, *args])
    assert outcome.code == 2 and not outcome.traceback, outcome.output
    assert len(outcome.output) < 1_000, outcome.output[:300]
    assert "secret" not in outcome.output  # a URL's password is never echoed
    assert not leftovers(str(tmp_path))
