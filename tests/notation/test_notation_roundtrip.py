"""The notation round trip: export(import(x)) == x up to whitespace for every example and for
generated games; import(export(log)) rebuilds the same events and the same state hash."""
from __future__ import annotations

import glob
import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.match import Match
from engine.store import EventStore
from judge.io.importers import jsonl as jsonl_import
from judge.io.importers import notation as notation_import
from engine.notation import bare_ok, has_grammar, normalise

from tests.conftest import ROOT, run_cli
from tests.notation.support import assert_round_trip, export_text

TXT_EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*", "*.txt")))
JSONL_EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*", "*.jsonl")))


def test_there_are_notation_examples_for_the_grammars():
    rulesets = {os.path.basename(os.path.dirname(p)) for p in TXT_EXAMPLES}
    assert {"table", "op2009", "optcg"} <= rulesets
    assert all(has_grammar(r) for r in rulesets)


def test_every_txt_example_round_trips_through_the_cli(tmp_path):
    for path in TXT_EXAMPLES:
        db = str(tmp_path / (os.path.basename(path) + ".db"))
        r = run_cli("import", path, "--json", db=db)
        assert r.returncode == 0, r.stderr
        match = json.loads(r.stdout)["match"]
        assert run_cli("verify", match, db=db).returncode == 0
        out = run_cli("export", match, "--format", "notation", "-o", "-", db=db)
        assert out.returncode == 0, out.stderr
        with open(path, encoding="utf-8") as f:
            assert normalise(out.stdout) == normalise(f.read()), path


def test_every_jsonl_example_survives_export_and_import(tmp_path):
    """Every ruleset, with or without a grammar of its own (the generic form covers any event)."""
    for path in JSONL_EXAMPLES:
        store = EventStore.open(str(tmp_path / (os.path.basename(path) + ".db")))
        original = Match(store, jsonl_import.import_file(store, path).match)
        assert_round_trip(store, original, tmp_path, path)
        store.close()


# --- generated games ------------------------------------------------------------------------------

CODES = st.sampled_from(["OP01-016", "OP01-013", "ST01-006", "LK-C01", "x"])
ZONES = st.sampled_from(["deck", "hand", "field", "trash", "life", "side"])
TEXT = st.text(alphabet=st.sampled_from(list("ab Z09-_.:'\"{}=;·?>#ü")), min_size=0, max_size=12)
WORD = st.text(alphabet=st.sampled_from(list("abcdefghij")), min_size=1, max_size=6)


def _word(text: str, *reserved: str) -> str:
    """A value as the canonical form writes it: bare when it reads back the same, else quoted."""
    return text if bare_ok(text, reserved) else json.dumps(text, ensure_ascii=False)


@st.composite
def table_line(draw, seat: str) -> str:
    """One canonical line of the table grammar, by the player at `seat`."""
    other = "B" if seat == "A" else "A"
    return draw(st.one_of(
        st.builds(lambda z, n: f"{seat}: setup {z} {n}", ZONES, st.integers(1, 9)),
        st.just(f"{seat}: draw"),
        st.builds(lambda n: f"{seat}: draw {n}", st.integers(2, 5)),
        st.builds(lambda c, k: f"{seat}: draw {c}" + (f" {k}x?" if k > 1 else " ?" if k else ""),
                  CODES, st.integers(0, 3)),
        st.builds(lambda a, b, c: f"{seat}: {a}>{b} {c}", ZONES, ZONES, CODES),
        st.builds(lambda a, b, n: f"{seat}: {a}.bottom>{other}.{b} {n}", ZONES, ZONES, st.integers(2, 4)),
        st.builds(lambda z, c: f"{seat}: reveal {z} {c}", ZONES, CODES),
        st.builds(lambda w, n: f"{seat}: counter {w} {n:+d}", WORD, st.integers(-5, 5).filter(bool)),
        st.builds(lambda w, n: f"{seat}: counter {w} ={n}", WORD, st.integers(0, 9)),
        st.builds(lambda w: "{" + w + "}", WORD),
        st.builds(lambda t: f"judge Kim: ruling {_word(t, 'text', 'rule', 'call')}", TEXT),
        st.builds(lambda t: f"{seat}: " + ("{" + t + "}" if t and t == t.strip() and "}" not in t
                                           else f"note {json.dumps(t, ensure_ascii=False)}"), TEXT),
        st.just(f"{seat}: shuffle deck"),
        st.just("phase main"),
    ))


@st.composite
def table_game(draw) -> str:
    lines = ['[Ruleset "table"]', '[A "Ann"]', '[B "Bob Lee"]', ""]
    for turn in range(1, draw(st.integers(1, 4)) + 1):
        seat = "AB"[(turn - 1) % 2]
        first = draw(table_line(seat))
        lines.append(f"T{turn} {first}" if first.startswith(f"{seat}: ") else f"T{turn} {seat}:")
        if not first.startswith(f"{seat}: "):
            lines.append(first)
        lines.extend(draw(st.lists(table_line(seat), max_size=5)))
    return "\n".join(lines) + "\n"


def _canonical(text: str, tmp_path) -> tuple[str, str]:
    db = tmp_path / "gen.db"
    for f in glob.glob(str(db) + "*"):
        os.remove(f)
    store = EventStore.open(str(db))
    path = tmp_path / "gen.txt"
    path.write_text(text, encoding="utf-8")
    m = Match(store, notation_import.import_file(store, str(path)).match)
    out = export_text(m)
    path.write_text(out, encoding="utf-8")
    again = Match(store, notation_import.import_file(store, str(path)).match)
    try:
        assert again.state().state_hash() == m.state().state_hash()
        return out, export_text(again)
    finally:
        store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table_game())
def test_generated_games_round_trip(tmp_path, text):
    out, again = _canonical(text, tmp_path)
    assert normalise(out) == normalise(text)
    assert again == out


# Events straight into a log (not written in notation first): any payload the schema accepts.
@st.composite
def table_event(draw):
    who = draw(st.sampled_from(["Ann", "Bob Lee", "-", "judge:Kim", "judge:Carla Rossi"]))
    player = draw(st.sampled_from(["Ann", "Bob Lee"]))
    code = draw(st.one_of(CODES, TEXT.filter(bool)))
    kind, payload = draw(st.sampled_from([
        ("move", {"player": player, "from_zone": draw(ZONES), "to_zone": draw(ZONES), "card": code,
                  "count": draw(st.integers(1, 3)), "to_where": draw(st.sampled_from(["top", "bottom"]))}),
        ("move", {"player": player, "from_zone": "hand", "to_zone": "field", "uid": "c" + str(draw(st.integers(1, 9))),
                  "to_player": draw(st.sampled_from(["Ann", "Bob Lee"]))}),
        ("draw", {"player": player, "count": 3, "cards": [code]}),
        ("setup", {"player": player, "zone": draw(ZONES), "count": draw(st.integers(0, 3)), "cards": [code]}),
        ("counter", {"name": draw(TEXT.filter(bool)), "player": player, "add": draw(st.integers(-3, 3))}),
        ("counter", {"name": draw(WORD), "set": draw(st.integers(0, 3))}),
        ("note", {"text": draw(TEXT)}),
        ("reveal", {"player": player, "zone": draw(ZONES), "card": code}),
        ("phase", {"name": draw(TEXT.filter(bool))}),
        ("game.end", {"how": draw(TEXT.filter(bool)), "winner": draw(st.sampled_from([None, "Ann"]))}),
        ("judge.ruling", {"text": draw(TEXT), "rule": draw(TEXT)}),
        ("turn", {"player": player, "number": draw(st.sampled_from([None, 1, 2, 7]))}),
    ]))
    return kind, {k: v for k, v in payload.items() if v is not None}, who


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(table_event(), max_size=12))
def test_generated_logs_survive_export_and_import(tmp_path, events):
    db = tmp_path / "log.db"
    for f in glob.glob(str(db) + "*"):
        os.remove(f)
    store = EventStore.open(str(db))
    try:
        m = Match.create(store, "table", ["Ann", "Bob Lee"])
        for kind, payload, actor in events:
            m.record(kind, payload, actor=actor)
        assert_round_trip(store, m, tmp_path)
    finally:
        store.close()
