"""Parse errors name the line and column and what was expected, and refuse the whole file."""
from __future__ import annotations

import pytest

from engine.match import InputError
from engine.store import EventStore
from judge.io.importers import notation as notation_import

HEADER = '[Ruleset "table"]\n[A "Ann"]\n[B "Bob"]\n\n'

CASES = [
    # (body, line, col, words the message must hold)
    ("A: setup deck 40\nA: hnd>field\n", 6, 4, "unknown zone 'hnd'"),
    ("A: setup deck 40\nA: frobnicate 3\n", 6, 4, "unknown action 'frobnicate'"),
    ("C: draw\n", 5, 1, "unknown player 'C'"),
    ("A: draw {never closed\n", 5, 9, "expected '}'"),
    ("A: ruling \"open\n", 5, 11, "expected a closed \"string\""),
    ("A: setup deck 40 · \n", 5, 19, "expected an action after the separator"),
    ("A: counter life =x\n", 5, 12, "counter takes no more values here: expected key=value (fields: name, player, set, add)"),
    ("T1\n", 5, 3, "expected the player whose turn begins"),
    ("A: draw ? OP01-016\n", 5, 9, "expected the seen cards first"),
    ("A: reveal hand OP01-016 bogus=1\n", 5, 25, "reveal has no field 'bogus'"),
    ("A: setup deck 40\n[Event \"late\"]\n", 6, 1, "tags belong in the header"),
    # QA71 item 3: a control character is refused where it stands, not read into a card's name
    ("A: setup deck 40\nA: draw 2\x00\n", 6, 10, "control character U+0000 (NUL)"),
    ("A: hand>field \x07OP01\x1b[31m\n", 5, 15, "control character U+0007 (BEL)"),
    ("A: note {a\x9bb}\n", 5, 11, "control character U+009B (CSI)"),
    # QA71 item 12: a count past the limit says the limit, not "expected a card number"
    ("A: setup deck 40\nA: draw 100000000000000000000000000000\n", 6, 9,
     "at most 1000 cards (this game's limit), got 100000000000000000000000000000"),
    ("A: setup deck 40\nA: draw " + "9" * 5000 + "\n", 6, 9, "at most 1000 cards (this game's limit)"),
]


@pytest.mark.parametrize("body,line,col,words", CASES)
def test_error_names_line_column_and_expectation(tmp_path, body, line, col, words):
    path = tmp_path / "game.txt"
    path.write_text(HEADER + body, encoding="utf-8")
    store = EventStore.open(str(tmp_path / "log.db"))
    with pytest.raises(InputError) as err:
        notation_import.import_file(store, str(path))
    assert err.value.where == f"{path}:{line}:{col}", str(err.value)
    assert words in str(err.value)
    assert store.match_ids() == []  # the whole file is refused


@pytest.mark.parametrize("text,line,words", [
    ('[A "Ann"]\n[B "Bob"]\n\nA: draw\n', 1, "Ruleset"),
    ('[Ruleset "table"]\n[A "Ann"]\n\n', 1, "players"),
    ('[Ruleset "table"]\n[A "Ann"]\n[C "Cid"]\n', 3, "[B] is missing"),
    ('[Ruleset "table"]\n[Colour "red"]\n', 2, "unknown tag 'Colour'"),
    ('[Ruleset "nope"]\n[A "Ann"]\n[B "Bob"]\n', 1, "nope"),
    ('[Ruleset "table"]\n[A "Ann"\n', 2, "expected ']'"),
    ('[Ruleset "table"]\n[A "Ann\x1b[2J"]\n[B "Bob"]\n', 2, "control character U+001B (ESC)"),
])
def test_header_errors(tmp_path, text, line, words):
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    store = EventStore.open(str(tmp_path / "log.db"))
    with pytest.raises(InputError) as err:
        notation_import.import_file(store, str(path))
    assert err.value.where.startswith(f"{path}:{line}"), str(err.value)
    assert words in str(err.value)
    assert store.match_ids() == []


def test_a_late_error_stores_nothing_of_the_earlier_lines(tmp_path):
    good = "".join(f"A: setup deck {n}\n" for n in range(1, 50))
    path = tmp_path / "game.txt"
    path.write_text(HEADER + good + "A: oops\n", encoding="utf-8")
    store = EventStore.open(str(tmp_path / "log.db"))
    with pytest.raises(InputError) as err:
        notation_import.import_file(store, str(path))
    assert err.value.where == f"{path}:54:4"
    assert store.match_ids() == []


def test_derived_turn_numbers_are_checked(tmp_path):
    """op2009 derives the turn number: a header that disagrees is refused, T alone is fine."""
    head = '[Ruleset "op2009"]\n[A "Ann"]\n[B "Bob"]\n\ngame A\n'
    store = EventStore.open(str(tmp_path / "log.db"))
    ok = tmp_path / "ok.txt"
    ok.write_text(head + "T1 A: iniziale\nT B: iniziale\n", encoding="utf-8")
    assert notation_import.import_file(store, str(ok)).events == 6
    bad = tmp_path / "bad.txt"
    bad.write_text(head + "T1 A: iniziale\nT3 B: iniziale\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        notation_import.import_file(store, str(bad))
    assert err.value.where == f"{bad}:7:1" and "expected T2" in str(err.value)


def test_cli_import_reports_the_place(tmp_path):
    from tests.conftest import run_cli
    path = tmp_path / "game.txt"
    path.write_text(HEADER + "A: reveal hand\n", encoding="utf-8")
    r = run_cli("import", str(path), db=str(tmp_path / "log.db"))
    assert r.returncode == 2
    # a missing value is named as such, where it is missing (the end of the action)
    assert f"{path}:5:15: expected a value for card: reveal ZONE CARD" in r.stderr


def test_every_game_in_the_docs_reads(tmp_path):
    """docs/notation.md's annotated games are real: each ```notation block imports."""
    import os
    import re
    from engine.notation import read_game

    from tests.conftest import ROOT
    with open(os.path.join(ROOT, "docs", "notation.md"), encoding="utf-8") as f:
        blocks = re.findall(r"```notation\n(.*?)```", f.read(), re.S)
    assert len(blocks) == 6
    rulesets = set()
    for text in blocks:
        game = read_game(text, "docs/notation.md")
        rulesets.add(game.header.ruleset)
        assert len(game.drafts) > 20
    from engine.rulesets import available

    assert rulesets == set(available())  # one annotated game per ruleset
