"""Match formats: a result's game counts are checked against best of N (declared, or the game's
documented default); impossible slips are refused naming the field unless overridden."""
from __future__ import annotations

import functools
import json

import pytest
from hypothesis import given, strategies as hst

from engine.match import InputError
from judge.cli import cli
from judge.cli.common import run_guarded
from judge.tournament.formats import match_format
from judge.tournament.entry import record_results
from judge.tournament import Tournament


BACKENDS = ("sqlite",)  # what these tests look at does not depend on the backend (tests/conftest.py)


@functools.cache
def reachable(n: int) -> frozenset[tuple[int, int, int]]:
    """Every W-L-D a best-of-n match can show, found by playing it out game by game: the match
    stops when a player has won a majority of n, or after n games; time may be called at any point."""
    need = n // 2 + 1
    seen = set()
    todo = [(0, 0, 0)]
    while todo:
        w, l, d = todo.pop()
        if (w, l, d) in seen:
            continue
        seen.add((w, l, d))
        if w < need and l < need and w + l + d < n:
            todo += [(w + 1, l, d), (w, l + 1, d), (w, l, d + 1)]
    return frozenset(seen)


@given(n=hst.integers(1, 7), w=hst.integers(0, 8), l=hst.integers(0, 8), d=hst.integers(0, 8))
def test_the_check_accepts_exactly_the_results_a_match_can_reach(n, w, l, d):
    fmt = match_format("any", "swiss", n)
    assert (fmt.problem(w, l, d) is None) == ((w, l, d) in reachable(n))


def test_best_of_one_and_three_by_hand():
    bo1, bo3 = match_format("x", "swiss", 1), match_format("x", "swiss", 3)
    assert [s for s in ["1-0-0", "0-1-0", "0-0-1", "1-1-0", "2-0-0", "0-0-2"]
            if bo1.problem(*map(int, s.split("-"))) is None] == ["1-0-0", "0-1-0", "0-0-1"]
    assert [s for s in ["2-0-0", "2-1-0", "1-1-1", "0-0-3", "1-0-0", "3-0-0", "2-2-0", "2-1-1", "0-0-4"]
            if bo3.problem(*map(int, s.split("-"))) is None] == ["2-0-0", "2-1-0", "1-1-1", "0-0-3", "1-0-0"]


def test_the_game_decides_an_undeclared_format():
    assert (match_format("optcg", "swiss", None).best_of, match_format("optcg", "elimination", None).best_of) == (1, 3)
    assert (match_format("op2009", "swiss", None).best_of, match_format("op2009", "elimination", None).best_of) == (3, 3)
    assert match_format("table", "swiss", None).best_of == 3
    assert not match_format("optcg", "swiss", None).declared and match_format("optcg", "swiss", 3).declared


def _two_tables(store, **kw) -> Tournament:
    t = Tournament.create(store, name="Format cup", seed="1", rounds=2, top_cut=2, **kw)
    t.register_many(["Ann", "Bob", "Cid", "Dee"])
    t.pair()
    return t


def test_optcg_swiss_is_best_of_one_and_refuses_a_three_game_slip(store):
    t = _two_tables(store, game="optcg")
    with pytest.raises(InputError) as e:
        t.record_slip("2-1-0", table=1)
    assert e.value.field == "slip"
    assert "2-1-0 is impossible in a best of one match (the default for optcg)" in str(e.value)
    assert str(e.value).count("field '") == 1
    assert t.state().current.missing() == [1, 2]  # nothing stored
    t.record_slip("1-0-0", table=1)
    ev = t.record_slip("3-0-0", table=2, override_format=True)  # the organizer's explicit override
    assert ev.payload["format_override"] is True
    results = [e for e in t.events() if e.kind == "result.recorded"]
    assert "format_override" not in results[-2].payload  # an ordinary result says nothing
    assert t.state().current.complete
    # the top cut is best of three for optcg
    t.pair()
    for p in t.state().current.tables():
        t.record_slip("1-0-0", table=p.table)
    t.top_cut()
    with pytest.raises(InputError, match="best of three"):
        t.record_slip("3-0-0", table=1)
    t.record_slip("2-1-0", table=1)


def test_op2009_is_best_of_three_and_a_declared_format_wins(store):
    t = _two_tables(store, game="op2009")
    with pytest.raises(InputError, match=r"3-0-0 is impossible in a best of three match \(the default for op2009\)"):
        t.record_slip("3-0-0", table=1)
    with pytest.raises(InputError, match="at most 3 games are played, drawn games included"):
        record_results(t, [(1, "2-0-0"), (2, "1-1-2")])
    assert t.state().current.missing() == [1, 2]  # the batch is all or nothing
    record_results(t, [(1, "2-0-0"), (2, "1-1-1")])
    t5 = Tournament.create(store, name="Bo5", game="optcg", best_of=5, seed="2")
    t5.register_many(["A", "B"])
    t5.pair()
    t5.record_slip("3-1-0", table=1)
    with pytest.raises(InputError, match=r"declared for this tournament\): a player wins at most 3 games"):
        t5.record_slip("4-0-0", table=1)
    assert t5.state().summary()["match_format"]["swiss"]["best_of"] == 5


def test_cli_refuses_names_the_field_and_overrides(tmp_path, capsys):
    db = str(tmp_path / "c.db")

    def run(*args):
        code = run_guarded(cli, ["--db", db, "--by", "t", *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    assert run("tournament", "new", "--name", "X", "--game", "optcg", "--id", "t-f")[0] == 0
    run("tournament", "register", "t-f", "Ann", "Bob")
    run("tournament", "pair", "t-f")
    code, out, err = run("tournament", "result", "t-f", "3-0-0", "--table", "1")
    assert code == 2 and err.startswith("error: field 'slip': ") and "--override-format" in err
    code, out, err = run("tournament", "result", "t-f", "3-0-0", "--table", "1", "--override-format")
    assert code == 0 and "format override" in out
    code, out, _ = run("tournament", "show", "t-f", "--json")
    fmt = json.loads(out)["match_format"]
    assert (fmt["swiss"]["best_of"], fmt["swiss"]["declared"], fmt["elimination"]["best_of"]) == (1, False, 3)
    code, out, _ = run("tournament", "new", "--name", "Y", "--game", "optcg", "--best-of", "3", "--json")
    assert code == 0 and json.loads(out)["match_format"]["swiss"]["declared"] is True


def test_tournament_new_takes_the_ruleset_as_match_new_does(tmp_path, capsys):
    """QA: `tournament new -r optcg` said "No such option '-r'" while `match new`, `live new` and
    `judge infractions` take -r/--ruleset: one option, three names."""
    db = str(tmp_path / "r.db")
    for flag in ("-r", "--ruleset", "--game"):
        assert run_guarded(cli, ["--db", db, "tournament", "new", "--name", f"X {flag}", flag, "op2009", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["game"] == "op2009"
    assert run_guarded(cli, ["--db", db, "tournament", "new", "--help"]) == 0
    assert "-r, --game, --ruleset" in capsys.readouterr().out
