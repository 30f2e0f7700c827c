"""Standings policies against the real melee.gg event 15004 and on constructed cases."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as hst

from engine.match import InputError
from judge.cli import cli
from judge.cli.common import run_guarded
from judge.tournament.results import parse_melee_json, parse_results_csv, read_results, results_to_csv
from judge.tournament.standings import (
    MatchResult,
    POLICIES,
    compare,
    compute_standings,
    get_policy,
    sort_key,
    PolicyError,
    uncompared_columns,
)

from tests.conftest import ROOT

FIXTURE = Path(ROOT) / "tests" / "fixtures" / "melee" / "pavia-15004.json"


@pytest.fixture(scope="module")
def pavia():
    return read_results(FIXTURE)


def run(args, capsys):
    code = run_guarded(cli, list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


# --- the fixture ---------------------------------------------------------------------------


def test_mtg_defaults_reproduce_every_published_tiebreaker(pavia):
    st = compute_standings(pavia.results, "mtg", players=pavia.players)
    ours = st.by_player()
    assert len(pavia.published) == 21 and len(st.rows) == 21
    for pub in pavia.published:
        row = ours[pub["Player"]]
        assert row.points == pub["Points"]
        assert row.rank == pub["Rank"]
        assert abs(row.tiebreakers["omw"] - pub["OMWP"]) <= 1e-6, pub["Player"]
        assert abs(row.tiebreakers["gw"] - pub["GWP"]) <= 1e-6, pub["Player"]
        assert abs(row.tiebreakers["ogw"] - pub["OGWP"]) <= 1e-6, pub["Player"]
    assert compare(st, pavia.published) == []


@pytest.mark.parametrize("options, at_least", [
    ({"mw_floor": "0.33", "gw_floor": "0.33"}, 10),   # the reference: 0.33 breaks 16 of 21 rows
    ({"drawn_game_points": "1"}, 4),                  # one point per drawn game breaks rows
    ({"bye_games": "0-0"}, 1),                        # the bye as no games in own GW%
])
def test_other_readings_do_not_reproduce_the_fixture(pavia, options, at_least):
    st = compute_standings(pavia.results, get_policy("mtg", options), players=pavia.players)
    diffs = compare(st, pavia.published)
    assert len({d["player"] for d in diffs}) >= at_least


def test_elimination_rounds_do_not_change_swiss_standings(pavia):
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    top = [s["Player"] for s in data["Standings"][:8]]
    data["Rounds"].append({"RoundName": "Quarterfinals", "Matches": [
        {"Player1": top[i], "Player2": top[7 - i], "Result": "0-2-0"} for i in range(4)]})
    data["Rounds"].append({"RoundName": "Semifinals", "Matches": [
        {"Player1": top[7], "Player2": top[6], "Result": "2-0-0"}]})
    with_cut = parse_melee_json(json.dumps(data), "cut.json")
    assert sum(r.elimination for r in with_cut.results) == 5
    a = compute_standings(pavia.results, "mtg", players=pavia.players).to_dicts()
    b = compute_standings(with_cut.results, "mtg", players=with_cut.players).to_dicts()
    assert a == b


def test_registered_but_never_played_is_listed_not_averaged(pavia):
    base = compute_standings(pavia.results, "mtg", players=pavia.players)
    st = compute_standings(pavia.results, "mtg", players=[*pavia.players, "Late Larry"])
    last = st.rows[-1]
    assert last.player == "Late Larry" and not last.played and last.points == 0
    assert all(v is None for v in last.tiebreakers.values())
    assert [r.to_dict() for r in st.rows[:-1]] == base.to_dicts()


def test_compare_reports_every_differing_row_and_column(pavia):
    st = compute_standings(pavia.results, "mtg", players=pavia.players)
    published = copy.deepcopy(pavia.published)
    published[0]["OMWP"] = 0.61
    published[0]["Points"] = 11
    published[5]["OGWP"] = 0.1
    published.pop(20)                       # a row the publisher lacks
    published.append({"Player": "Ghost", "Rank": 22, "Points": 0})
    diffs = compare(st, published)
    got = {(d["player"], d["column"]) for d in diffs}
    assert got == {(published[0]["Player"], "omw"), (published[0]["Player"], "points"),
                   (published[5]["Player"], "ogw"), ("Ghost", "row"),
                   (pavia.published[20]["Player"], "row")}


def test_compare_skips_the_columns_the_policy_does_not_compute(pavia):
    """bandai computes OMW% and OOMW%, not GW%/OGW%: those published columns are not compared (an
    empty "ours" is not a difference) and are listed with the reason."""
    st = compute_standings(pavia.results, "bandai", players=pavia.players)
    diffs = compare(st, pavia.published)
    assert {d["column"] for d in diffs} <= {"rank", "points", "omw"}
    assert all(d["ours"] is not None for d in diffs)
    skipped = uncompared_columns(st.policy, pavia.published)
    assert [(c["column"], c["reason"]) for c in skipped] == [
        ("GWP", "not computed by policy bandai"), ("OGWP", "not computed by policy bandai")]
    # a real difference in a computed column is still reported under bandai
    published = copy.deepcopy(pavia.published)
    published[0]["OMWP"] = 0.1
    assert (published[0]["Player"], "omw") in {(d["player"], d["column"]) for d in compare(st, published)}
    # mtg computes every published column: nothing is skipped
    assert uncompared_columns(get_policy("mtg"), pavia.published) == []


# --- CLI -------------------------------------------------------------------------------------


def test_cli_json_rows_have_the_documented_fields(capsys):
    code, out, _ = run(["standings", str(FIXTURE), "--policy", "mtg", "--json"], capsys)
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 21
    for key in ("rank", "player", "points", "wins", "losses", "draws", "omw", "gw", "ogw"):
        assert key in rows[0]
    assert all(0 <= r["omw"] <= 1 and 0 <= r["gw"] <= 1 for r in rows)
    assert rows[0]["player"] == "Giovanni Cremonesi" and (rows[0]["wins"], rows[0]["draws"]) == (3, 1)
    code, out, _ = run(["standings", str(FIXTURE), "--policy", "bandai", "--json"], capsys)
    assert code == 0 and "oomw" in json.loads(out)[0]


def test_cli_standings_of_a_file_names_the_policy_as_tournament_standings_does(capsys):
    """`tournament standings` names the policy that ranks (QA73 16); `standings FILE` did not, in
    text, CSV or JSON, though --policy changes every tiebreaker."""
    code, out, _ = run(["standings", str(FIXTURE), "--policy", "bandai"], capsys)
    assert code == 0 and out.splitlines()[0] == "standings policy bandai (points, then OMW%, OOMW%)", out
    code, out, err = run(["standings", str(FIXTURE), "--csv"], capsys)
    assert code == 0 and out.startswith("rank,") and "standings policy mtg (points, then OMW%, GW%, OGW%)" in err
    code, out, _ = run(["standings", str(FIXTURE), "--json"], capsys)
    assert {r["policy"] for r in json.loads(out)} == {"mtg"}
    code, out, _ = run(["standings", str(FIXTURE), "--compare", "--policy", "bandai", "--json"], capsys)
    assert json.loads(out)["policy"] == "bandai"


def test_cli_compare_exit_codes(tmp_path, capsys):
    code, out, _ = run(["standings", str(FIXTURE), "--compare"], capsys)
    assert code == 0 and "all 21 published rows agree" in out
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["Standings"][2]["GWP"] = 0.5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = run(["standings", str(bad), "--compare", "--json"], capsys)
    assert code == 1
    diffs = json.loads(out)["differences"]
    assert diffs == [{"player": "Luca Gallini", "column": "gw", "ours": pytest.approx(0.7), "published": 0.5}]


def test_cli_compare_says_which_columns_were_not_compared(capsys):
    code, out, _ = run(["standings", str(FIXTURE), "--compare", "--policy", "bandai"], capsys)
    assert "not compared: GWP (not computed by policy bandai)" in out
    assert "not compared: OGWP (not computed by policy bandai)" in out
    assert " gw " not in out and " ogw " not in out  # no row reports an uncomputed column
    code, out, _ = run(["standings", str(FIXTURE), "--compare", "--policy", "bandai", "--json"], capsys)
    report = json.loads(out)
    assert {d["column"] for d in report["differences"]} <= {"rank", "points", "omw"}
    assert [c["column"] for c in report["not_compared"]] == ["GWP", "OGWP"]
    code, out, err = run(["standings", str(FIXTURE), "--compare", "--policy", "bandai", "--csv"], capsys)
    assert "not compared: GWP" in err and "not compared" not in out


def test_cli_csv_round_trip(tmp_path, pavia, capsys):
    path = tmp_path / "r.csv"
    path.write_text(results_to_csv(pavia.results), encoding="utf-8")
    code, out, _ = run(["standings", str(path), "--csv"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("rank,player,points,wins,losses,draws")
    assert lines[1].startswith("1,Giovanni Cremonesi,10,3,0,1")


# --- readers: errors name file, line, field ---------------------------------------------------


def test_csv_reader_matches_json_reader(pavia):
    csv_file = parse_results_csv(results_to_csv(pavia.results), "x.csv")
    a = compute_standings(pavia.results, "mtg").to_dicts()
    b = compute_standings(csv_file.results, "mtg").to_dicts()
    assert a == b


def test_csv_single_rows_and_registration():
    text = "round,player,opponent,wins,losses,draws\n1,Ann,Bob,2,1,0\n1,Cid,,2,0,0\n,Dee,,,,\n"
    f = parse_results_csv(text, "x.csv")
    assert [(r.player1, r.player2) for r in f.results] == [("Ann", "Bob"), ("Cid", None)]
    st = compute_standings(f.results, "mtg", players=f.players)
    assert st.rows[-1].player == "Dee" and not st.rows[-1].played


@pytest.mark.parametrize("text, where, field", [
    ("round,player,opponent,wins,losses\n", "x.csv:1", "draws"),
    ("round,player,opponent,wins,losses,draws\n1,Ann,Bob,two,0,0\n", "x.csv:2", "wins"),
    ("round,player,opponent,wins,losses,draws\n1,Ann,Bob,2,0,0\n\n1,Bob,Ann,2,0,0\n", "x.csv:4", "opponent"),
    ("round,player,opponent,wins,losses,draws\n1,,Bob,2,0,0\n", "x.csv:2", "player"),
    ("round,player,opponent,wins,losses,draws\n1,Ann,Ann,2,0,0\n", "x.csv:2", "opponent"),
])
def test_csv_errors_name_line_and_field(text, where, field):
    with pytest.raises(InputError) as e:
        parse_results_csv(text, "x.csv")
    assert e.value.where == where and e.value.field == field


def test_json_errors_name_line_and_field():
    text = '{"Rounds": [\n {"RoundName": "Round 1", "Matches": [\n  {"Player1": "Ann", "Player2": "Bob", "Result": "2-x"}\n ]}\n]}'
    with pytest.raises(InputError) as e:
        parse_melee_json(text, "e.json")
    assert e.value.field == "Rounds[0].Matches[0].Result" and e.value.where == "e.json:3"
    with pytest.raises(InputError) as e:
        parse_melee_json('{"Rounds": [\n}', "e.json")
    assert e.value.where == "e.json:2"


def test_unknown_policy_and_option():
    with pytest.raises(PolicyError):
        get_policy("chess")
    with pytest.raises(PolicyError) as e:
        get_policy("mtg", {"mw_flor": "0.3"})
    assert e.value.field == "mw_flor"
    with pytest.raises(PolicyError):
        get_policy("mtg", {"order": "omw,luck"})


# --- the other policies ----------------------------------------------------------------------


def R(rnd, a, b, w, l, d=0):
    return MatchResult(rnd, a, b, w, l, d)


def test_bandai_oomw_is_the_average_of_opponents_omw():
    res = [R(1, "A", "B", 1, 0), R(1, "C", "D", 1, 0), R(2, "A", "C", 1, 0), R(2, "B", "D", 1, 0)]
    st = compute_standings(res, "bandai")
    rows = st.by_player()
    assert list(st.policy.order) == ["omw", "oomw"]
    assert rows["A"].tiebreakers["oomw"] == pytest.approx(
        (rows["B"].tiebreakers["omw"] + rows["C"].tiebreakers["omw"]) / 2)
    assert "gw" not in rows["A"].tiebreakers


def test_digimon_style_uses_own_rate_without_byes_and_head_to_head():
    st = compute_standings([R(1, "A", "B", 1, 0)], get_policy("bandai", {"style": "digimon"}))
    assert st.policy.order == ("mw", "omw", "h2h") and st.policy.mw_floor == 0.33
    # head-to-head orders players the keys before it leave tied: A and B on 3 points, B beat A.
    res = [R(1, "B", "A", 1, 0), R(1, "C", "D", 1, 0), R(2, "A", "D", 1, 0), R(2, "C", "B", 1, 0)]
    rows = compute_standings(res, get_policy("bandai", {"order": "h2h"})).by_player()
    assert rows["A"].points == rows["B"].points == 3
    assert rows["B"].rank < rows["A"].rank
    assert (rows["B"].tiebreakers["h2h"], rows["A"].tiebreakers["h2h"]) == (3.0, 0.0)
    # a bye does not count in the Digimon own rate
    res2 = [MatchResult(1, "A", None, 0, 0), R(2, "A", "B", 0, 1)]
    assert compute_standings(res2, get_policy("bandai", {"style": "digimon"})).by_player()["A"].tiebreakers["mw"] == pytest.approx(0.33)


def test_pokemon_floor_and_dropped_cap():
    res = [R(1, "A", "B", 1, 0), R(2, "A", "C", 1, 0), R(2, "B", "D", 0, 1), R(1, "C", "D", 1, 0),
           R(3, "A", "D", 1, 0), R(3, "B", "C", 0, 1)]
    st = compute_standings(res, "pokemon")
    rows = st.by_player()
    # B lost all: raised to the 25% floor; A's OWP averages B, C, D.
    assert rows["B"].tiebreakers["omw"] is not None
    expect = (0.25 + 2 / 3 + 1 / 3) / 3  # B 0-3 floored, C 2-1, D 1-2
    assert rows["A"].tiebreakers["omw"] == pytest.approx(expect)
    capped = compute_standings(res, "pokemon", dropped=["A"]).by_player()
    assert rows["B"].tiebreakers["omw"] > capped["B"].tiebreakers["omw"]  # A (100%) capped at 75%
    plain = compute_standings(res, get_policy("pokemon", {"dropped_cap": "none"}), dropped=["A"]).by_player()
    assert plain["B"].tiebreakers["omw"] == rows["B"].tiebreakers["omw"]


def test_op2009_flags_a_drawn_match():
    st = compute_standings([R(1, "A", "B", 1, 1, 1)], "op2009")
    assert st.warnings and "does not end in a draw" in st.warnings[0]
    assert compute_standings([R(1, "A", "B", 2, 1)], "op2009").warnings == []


# --- property: the order follows the policy's sort keys -------------------------------------

NAMES = [f"P{i}" for i in range(8)]


@hst.composite
def tournaments(draw):
    n = draw(hst.integers(2, 8))
    players = NAMES[:n]
    rounds = draw(hst.integers(1, 5))
    results = []
    for rnd in range(1, rounds + 1):
        order = draw(hst.permutations(players))
        for i in range(0, n - 1, 2):
            w, l, d = draw(hst.sampled_from([(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1), (0, 0, 3), (1, 0, 0)]))
            results.append(MatchResult(rnd, order[i], order[i + 1], w, l, d))
        if n % 2:
            results.append(MatchResult(rnd, order[-1], None, 0, 0, 0))
    dropped = draw(hst.lists(hst.sampled_from(players), max_size=2))
    return results, players, dropped


@settings(max_examples=150, deadline=None)
@given(tournaments(), hst.sampled_from(sorted(POLICIES)))
def test_standings_order_is_consistent_with_the_sort_keys(t, policy_name):
    results, players, dropped = t
    st = compute_standings(results, policy_name, players=[*players, "Never"], dropped=dropped)
    keys = [(r.played, *sort_key(r.points, r.tiebreakers, st.policy.order)) for r in st.rows]
    assert keys == sorted(keys, reverse=True)
    assert [r.rank for r in st.rows] == list(range(1, len(st.rows) + 1))
    assert st.rows[-1].player == "Never"
    for r in st.rows:
        if r.played:
            assert r.points == sum(
                3 if (m.player2 is None or m.wins1 > m.wins2) else 1 if m.wins1 == m.wins2 else 0
                for m in results if m.player1 == r.player) + sum(
                3 if m.wins2 > m.wins1 else 1 if m.wins1 == m.wins2 else 0
                for m in results if m.player2 == r.player)


def test_a_double_loss_in_a_results_file_json_and_csv(tmp_path, capsys):
    """Review: `tablejudge standings FILE` could not say a double loss, which a tournament's own
    results can (`--double-loss`): the JSON's Result says `double-loss`, the CSV has an optional
    `double_loss` column; both are a match loss for both players, as in the tournament."""
    melee = {"Rounds": [{"RoundName": "Round 1", "Matches": [
        {"Player1": "Ann", "Player2": "Bob", "Result": "double-loss"},
        {"Player1": "Cid", "Player2": "Dee", "Result": "2-0-0"}]}]}
    path = tmp_path / "e.json"
    path.write_text(json.dumps(melee), encoding="utf-8")
    f = read_results(path)
    assert [(r.player1, r.double_loss, r.wins1, r.wins2) for r in f.results] == [("Ann", True, 0, 0),
                                                                                 ("Cid", False, 2, 0)]
    code, out, err = run(["standings", str(path), "--json"], capsys)
    assert code == 0, err
    rows = {r["player"]: (r["points"], r["wins"], r["losses"], r["draws"]) for r in json.loads(out)}
    assert rows == {"Ann": (0, 0, 1, 0), "Bob": (0, 0, 1, 0), "Cid": (3, 1, 0, 0), "Dee": (0, 0, 1, 0)}
    text = results_to_csv(f.results)  # written with the column, read back the same
    assert text.splitlines()[0] == "round,player,opponent,wins,losses,draws,double_loss"
    assert [r.double_loss for r in parse_results_csv(text, "x.csv").results] == [True, False]
    csv_path = tmp_path / "e.csv"
    csv_path.write_text("round,player,opponent,wins,losses,draws,double_loss\n1,Ann,Bob,,,,yes\n"
                        "1,Cid,Dee,2,0,0,\n", encoding="utf-8")
    code, out2, err = run(["standings", str(csv_path), "--json"], capsys)
    assert code == 0 and json.loads(out2) == json.loads(out), err
    for bad, field in (("1,Ann,,,,,true\n", "double_loss"), ("1,Ann,Bob,1,0,0,true\n", "double_loss"),
                       ("1,Ann,Bob,,,,maybe\n", "double_loss"),
                       ("1,Ann,Bob,,,,true\n1,Bob,Ann,0,0,0,\n", "opponent")):  # the mirror must agree
        with pytest.raises(InputError) as e:
            parse_results_csv("round,player,opponent,wins,losses,draws,double_loss\n" + bad, "x.csv")
        assert e.value.field == field, str(e.value)
    melee["Rounds"][0]["Matches"][0]["Player2"] = "-"  # a bye is no double loss
    with pytest.raises(InputError) as e:
        parse_melee_json(json.dumps(melee), "e.json")
    assert e.value.field == "Rounds[0].Matches[0].Result"


def test_a_result_with_no_game_in_a_results_file_is_refused_as_a_tournament_refuses_it(tmp_path, capsys):
    """QA 2026-11-27: `standings FILE` read the CSV row `1,Ann,Bob,0,0,0` as a match draw (1 point
    each) without a word; a tournament refuses 0-0-0 and points to the double loss. The same rule
    (judge/tournament/results.refuse_no_game) now refuses it in both file readers, naming the line
    and the field; a bye with no counts stays a bye."""
    head = "round,player,opponent,wins,losses,draws\n"
    for body, line in (("1,Ann,Bob,0,0,0\n", 2), ("1,Cid,Dee,2,0,0\n1,Ann,Bob,,,\n", 3),
                       ("1,Ann,Bob,0,0,0\n1,Bob,Ann,0,0,0\n", 2)):  # with its mirror too
        path = tmp_path / "r.csv"
        path.write_text(head + body, encoding="utf-8")
        code, out, err = run(["standings", str(path)], capsys)
        assert code != 0 and out == "", (body, out)
        assert f"r.csv:{line}: field 'wins': a result with no game at all (0-0-0)" in err, err
        assert "double_loss column" in err and "Traceback" not in err, err
    melee = {"Rounds": [{"RoundName": "Round 1", "Matches": [
        {"Player1": "Cid", "Player2": "Dee", "Result": "2-0-0"},
        {"Player1": "Ann", "Player2": "Bob", "Result": "0-0-0"}]}]}
    path = tmp_path / "e.json"
    path.write_text(json.dumps(melee, indent=1), encoding="utf-8")
    code, out, err = run(["standings", str(path)], capsys)
    assert code != 0 and out == ""
    assert "e.json:" in err and "field 'Rounds[0].Matches[1].Result': a result with no game at all" in err, err
    assert '"Result": "double-loss"' in err, err
    # a bye with nothing written is still a bye; a 0-0-0 bye in JSON too
    path = tmp_path / "bye.csv"
    path.write_text(head + "1,Ann,,,,\n1,Bob,Cid,0,0,1\n", encoding="utf-8")
    assert [r.player2 for r in read_results(path).results] == [None, "Cid"]
    melee["Rounds"][0]["Matches"][1]["Player2"] = "-"
    assert parse_melee_json(json.dumps(melee), "e.json").results[1].is_bye
