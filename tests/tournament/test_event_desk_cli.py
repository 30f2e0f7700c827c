"""The event desk's commands as an organizer types them (real subprocesses, a real SQLite file)."""
from __future__ import annotations

import json
import re

from tests.conftest import run_cli


def test_150_results_in_one_command_overwrite_asks_and_undo(tmp_path):
    db = str(tmp_path / "t.db")
    assert run_cli("tournament", "new", "--name", "Big", "--game", "op2009", "--rounds", "2", "--top-cut", "4",
                   "--seed", "1", "--id", "t-big", db=db).returncode == 0
    csv = tmp_path / "reg.csv"
    csv.write_text("name,member_id\n" + "".join(f"Player {i:03d},{1000 + i}\n" for i in range(300)), encoding="utf-8")
    r = run_cli("tournament", "register", "t-big", "--csv", str(csv), db=db)
    assert r.returncode == 0, r.stderr
    r = run_cli("tournament", "register", "t-big", "player  007", db=db)
    assert r.returncode == 2 and "looks like 'Player 007'" in r.stderr and "--allow-similar" in r.stderr
    assert run_cli("tournament", "pair", "t-big", db=db).returncode == 0
    lines = "".join(f"{n} 2-1\n" for n in range(1, 151))
    r = run_cli("tournament", "results", "t-big", "--json", db=db, input=lines)
    assert r.returncode == 0, r.stderr
    assert len(json.loads(r.stdout)) == 150
    r = run_cli("tournament", "results", "t-big", db=db, input=lines)  # a second time: nothing new
    assert r.returncode == 0 and "150 unchanged" in r.stdout
    r = run_cli("tournament", "result", "t-big", "0-2", "--table", "12", db=db)
    assert r.returncode == 2 and "table 12 has" in r.stderr and "2-1-0" in r.stderr and "--overwrite" in r.stderr
    r = run_cli("tournament", "results", "t-big", "--overwrite", "--reason", "misread", db=db, input="12 0-2\n")
    assert r.returncode == 0 and "(was 2-1-0)" in r.stdout
    r = run_cli("tournament", "undo", "t-big", "--table", "12", db=db)
    assert r.returncode == 0 and "2-1-0 again" in r.stdout
    r = run_cli("tournament", "results", "t-big", db=db, input="12 2-1\n13 2:1\n")
    assert r.returncode == 2 and "<stdin>:2:4" in r.stderr
    assert run_cli("tournament", "close", "t-big", db=db).returncode == 0
    assert run_cli("tournament", "pair", "t-big", db=db).returncode == 0
    r = run_cli("tournament", "results", "t-big", db=db, input="".join(f"{n} 2-0\n" for n in range(1, 151)))
    assert r.returncode == 0, r.stderr
    assert run_cli("tournament", "top-cut", "t-big", db=db).returncode == 0
    # a Swiss result changed after the cut: accepted, and the organizer is told what it invalidates
    r = run_cli("tournament", "result", "t-big", "0-2", "--table", "1", "--round", "1", "--overwrite",
                "--reason", "slip misread", db=db)
    assert r.returncode == 0 and "warning:" in r.stderr and "tournament decide t-big" in r.stderr
    r = run_cli("tournament", "warnings", "t-big", "--json", db=db)
    assert r.returncode == 1
    ws = json.loads(r.stdout)
    for w in ws:
        assert run_cli("tournament", "decide", "t-big", w["id"], "keep", "--reason", "announced already",
                       db=db).returncode == 0
    assert run_cli("tournament", "warnings", "t-big", db=db).returncode == 0
    for _ in range(2):
        st = json.loads(run_cli("tournament", "pairings", "t-big", "--json", db=db).stdout)
        run_cli("tournament", "results", "t-big", db=db, input="".join(f"{p['table']} 2-1\n" for p in st))
        run_cli("tournament", "top-cut", "t-big", db=db)
    r = run_cli("tournament", "placings", "t-big", "--json", db=db)
    assert r.returncode == 0, r.stderr
    places = json.loads(r.stdout)
    assert len(places) == 300 and places[0]["place"] == 1 and places[0]["how"] == "won the Finals"


def test_standings_exports_carry_member_ids_and_excel_gets_a_bom(tmp_path):
    """QA 2026-11-26 (300 players): `standings --csv`/`--json` had no member id though `show --json`
    has it; and Excel on Windows showed "Zoë" as "ZoÃ«" in a CSV without a byte-order mark."""
    db = str(tmp_path / "t.db")
    assert run_cli("tournament", "new", "--name", "Ids", "--game", "optcg", "--rounds", "1", "--seed", "1",
                   "--id", "t-ids", db=db).returncode == 0
    csv = tmp_path / "reg.csv"
    csv.write_text("name,member_id\nZoë Suzuki,M1\n李 Wei,M2\nAnn,\nBob,M4\n", encoding="utf-8")
    assert run_cli("tournament", "register", "t-ids", "--csv", str(csv), db=db).returncode == 0
    assert run_cli("tournament", "pair", "t-ids", db=db).returncode == 0
    rows = json.loads(run_cli("tournament", "standings", "t-ids", "--json", db=db).stdout)
    assert {r["player"]: r["id"] for r in rows} == {"Zoë Suzuki": "M1", "李 Wei": "M2", "Ann": None, "Bob": "M4"}
    assert list(rows[0])[:3] == ["rank", "player", "id"]
    out = run_cli("tournament", "standings", "t-ids", "--csv", db=db).stdout
    assert out.startswith("rank,player,id,points") and "\ufeff" not in out
    assert {line.split(",")[1]: line.split(",")[2] for line in out.splitlines()[1:]}["Ann"] == ""
    for args in (["--excel"], ["--excel", "--csv"], ["--csv", "--excel"]):
        r = run_cli("tournament", "standings", "t-ids", *args, db=db)
        assert r.returncode == 0 and r.stdout == "\ufeff" + out, args
    # every --csv has its --excel: pairings, and the shared output options (`matches`)
    r = run_cli("tournament", "pairings", "t-ids", "--excel", db=db)
    assert r.stdout.startswith("\ufefftable,player1,player2") and "Zoë Suzuki" in r.stdout
    assert run_cli("match", "new", "--ruleset", "table", "--player", "Zoë", "--player", "Bob", db=db).returncode == 0
    r = run_cli("matches", "--excel", db=db)
    assert r.returncode == 0 and r.stdout.startswith("\ufeff") and "Zoë" in r.stdout


def test_a_judge_resolving_a_disputed_table_is_told_it_is_decided(tmp_path):
    """QA 2026-11-27: `tournament resolve` stored the decision, then printed "internal error
    (KeyError: 'draws')" and exited 70 — a result without draws leaves the field out — so the judge
    believed nothing was stored."""
    db = str(tmp_path / "t.db")
    assert run_cli("tournament", "new", "--name", "R", "--game", "optcg", "--id", "r1", "--seed", "1", db=db).returncode == 0
    assert run_cli("tournament", "register", "r1", "Ann", "Bob", "Cid", "Dee", db=db).returncode == 0
    assert run_cli("tournament", "pair", "r1", db=db).returncode == 0
    pairings = json.loads(run_cli("tournament", "pairings", "r1", "--json", db=db).stdout)
    a, b = next((p["player1"], p["player2"]) for p in pairings if p["table"] == 1)
    assert run_cli("tournament", "report", "r1", a, "1-0", db=db).returncode == 0
    assert run_cli("tournament", "report", "r1", b, "1-0", db=db).returncode == 0  # both claim the win
    # QA70 10: the queue said `b: 0-1-0` (table order), read as b admitting a loss: each report is
    # said from its reporter's side, and the column says so
    q = run_cli("tournament", "queue", "r1", db=db).stdout
    assert "reports (each player's own)" in q and f"{a}: I won 1-0; {b}: I won 1-0" in q, q
    r = run_cli("tournament", "resolve", "r1", "1-0", "--table", "1", "--judge", "Kim", "--reason", "x", db=db)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"table 1: {a} 1-0-0 {b} decided by Kim (event ")


def test_register_csv_lists_every_refused_line_and_answers_json(tmp_path):
    """QA70 5: `register --csv` stopped at the first problem (5 runs for 5 problems) and had no
    --json ("No such option"). Every line at once, the same error shape as `results --json`; a
    look-alike member id is a warning (stderr, and `warnings` in JSON)."""
    db = str(tmp_path / "t.db")
    run_cli("tournament", "new", "--name", "R", "--game", "op2009", "--id", "t-r", db=db)
    f = tmp_path / "players.csv"
    f.write_text("\ufeffname,member_id\nLuca Conte,M10001\nluca conte,M10002\n\n  \nJose Garcia,M10005\n"
                 "José García,M10006\nPino,M10001\n", encoding="utf-8")
    r = run_cli("tournament", "register", "t-r", "--csv", str(f), "--json", db=db)
    assert r.returncode == 2, r.stderr
    err = json.loads(r.stdout)["error"]
    assert err["message"] == f"3 lines of {f} refused; nothing was stored"
    assert [(x["line"], x["column"], x["field"]) for x in err["errors"]] == [
        (3, 1, "name"), (7, 1, "name"), (8, 6, "member_id")]  # QA75 4: the cell's column, the file's own name
    assert f"{f}:7:1: field 'name'" in r.stderr and f"{f}:8:6: field 'member_id'" in r.stderr
    f.write_text("name,member_id\nLuca Conte,M10001\nPino,M1000l\n", encoding="utf-8")
    r = run_cli("tournament", "register", "t-r", "--csv", str(f), "--json", db=db)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [(x["player"], x["id"]) for x in out["registered"]] == [("Luca Conte", "M10001"), ("Pino", "M1000l")]
    assert len(out["warnings"]) == 1 and "'M1000l' of 'Pino' looks like 'M10001'" in out["warnings"][0]
    assert f"warning: {f}:3: member id 'M1000l'" in r.stderr


def test_standings_text_says_the_round_it_is_as_after(tmp_path):
    """QA70 11: mid-round 2 `tournament standings` showed round 1's standings without saying so."""
    db = str(tmp_path / "t.db")
    run_cli("tournament", "new", "--name", "S", "--game", "optcg", "--id", "s1", "--seed", "1", db=db)
    run_cli("tournament", "register", "s1", "Ann", "Bob", "Cid", "Dee", db=db)
    run_cli("tournament", "pair", "s1", db=db)
    assert run_cli("tournament", "results", "s1", db=db, input="1 1-0\n2 1-0\n").returncode == 0
    run_cli("tournament", "pair", "s1", db=db)
    r = run_cli("tournament", "standings", "s1", db=db)
    assert r.stdout.splitlines()[0] == ("Standings as after Round 1 (Round 2 is in progress: its results do not count "
                                        "yet); standings policy bandai (points, then OMW%, OOMW%; optcg's own)")
    assert run_cli("tournament", "standings", "s1", "--json", db=db).stdout.startswith("[")  # JSON: rows only


def test_tournament_new_says_the_policy_it_picked_and_keeps_stdout_the_id(tmp_path):
    """QA73 16: `tournament new --game optcg` printed only the id; the policy was said only by `show`."""
    db = str(tmp_path / "t.db")
    r = run_cli("tournament", "new", "--name", "S", "--game", "optcg", "--id", "s1", db=db)
    assert r.returncode == 0 and r.stdout == "s1\n"  # scripts read the id
    assert "standings policy bandai (points, then OMW%, OOMW%; optcg's own)" in r.stderr
    r = run_cli("tournament", "new", "--name", "M", "--game", "optcg", "--policy", "mtg", "--id", "s2", db=db)
    assert r.stdout == "s2\n" and "standings policy mtg (" in r.stderr and "optcg's own is bandai" in r.stderr


def test_register_csv_reads_the_file_once_and_replays_once(tmp_path, monkeypatch):
    """Review: `register --csv` parsed the file twice (once for the look-alike warning, once for the
    batch; a third time for a refusal's column name). Counted in-process: a subprocess cannot be spied."""
    import click
    from click.testing import CliRunner

    import judge.tournament.aggregate as aggregate
    import judge.tournament.registration as registration
    from judge.cli import cli
    from judge.cli.common import run_guarded

    counts = {"parse": 0, "replay": 0}

    def counting(name, key, module):
        real = getattr(module, name)

        def spy(*a, **k):
            counts[key] += 1
            return real(*a, **k)
        monkeypatch.setattr(module, name, spy)
    counting("read_rows", "parse", registration)
    counting("replay", "replay", aggregate)

    @click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
    @click.argument("argv", nargs=-1, type=click.UNPROCESSED)
    def entry(argv):
        raise SystemExit(run_guarded(cli, ["--db", str(tmp_path / "t.db"), *argv]))

    assert CliRunner().invoke(entry, ["tournament", "new", "--name", "R", "--game", "optcg", "--id", "t-r"]).exit_code == 0
    f = tmp_path / "r.csv"
    for text, code in (("name,member_id\nLuca,M10001\nPino,M1000l\n", 0), ("name,member_id\nAnn,M10001\n", 2)):
        f.write_text(text, encoding="utf-8")
        counts.update(parse=0, replay=0)
        r = CliRunner().invoke(entry, ["tournament", "register", "t-r", "--csv", str(f), "--json"])
        assert r.exit_code == code, r.output
        assert counts == {"parse": 1, "replay": 1}, (text, counts)


def test_a_refused_register_says_its_lookalike_warnings_in_the_error_json_too(tmp_path):
    """QA: with --json, the look-alike member-id warning was on stderr only when the batch was
    refused; the error JSON carries it in `warnings`, as the success JSON does."""
    db = str(tmp_path / "t.db")
    run_cli("tournament", "new", "--name", "R", "--game", "op2009", "--id", "t-r", db=db)
    f = tmp_path / "players.csv"
    f.write_text("name,member_id\nLuca Conte,M10001\nPino,M1000l\nluca conte,M10009\n", encoding="utf-8")
    r = run_cli("tournament", "register", "t-r", "--csv", str(f), "--json", db=db)
    assert r.returncode == 2, r.stderr
    out = json.loads(r.stdout)
    assert out["error"]["message"].startswith(f"{f}:4") and list(out) == ["error", "warnings"]
    assert len(out["warnings"]) == 1 and f"{f}:3: member id 'M1000l' of 'Pino' looks like 'M10001'" in out["warnings"][0]
    assert f"warning: {f}:3: member id 'M1000l'" in r.stderr
    r = run_cli("tournament", "register", "t-r", "Ann", "Ann", "--json", db=db)  # no warning: none said
    assert r.returncode == 2 and list(json.loads(r.stdout)) == ["error"]


def test_a_tournament_takes_its_games_own_standings_policy_and_show_says_it(tmp_path):
    """QA: `tournament show` said "policy mtg" for an optcg event: the standings policy (points and
    tiebreakers) defaulted to MTG's for every game. A game's own is the default now (optcg: Bandai's
    OMW%, OOMW%), and show says what the policy ranks by and whether it is the game's own."""
    db = str(tmp_path / "t.db")
    for game, tid, policy in (("optcg", "t-o", None), ("op2009", "t-p", None), ("ken", "t-k", None),
                              ("optcg", "t-m", "mtg")):
        r = run_cli("tournament", "new", "--name", "E" if tid == "t-o" else f"E {tid}", "--game", game, "--id", tid,
                    *(["--policy", policy] if policy else []), db=db)
        assert r.returncode == 0, r.stderr
    said = {tid: run_cli("tournament", "show", tid, db=db).stdout.splitlines()[0] for tid in ("t-o", "t-p", "t-k", "t-m")}
    assert said["t-o"] == ("E (t-o) — optcg, standings policy bandai (points, then OMW%, OOMW%; optcg's own), "
                           "open Swiss rounds, top cut none")
    assert "standings policy op2009 (points, then OMW%, GW%, OGW%; op2009's own)" in said["t-p"]
    assert "standings policy mtg (points, then OMW%, GW%, OGW%; the default: ken has no policy of its own)" in said["t-k"]
    assert "standings policy mtg (points, then OMW%, GW%, OGW%; optcg's own is bandai)" in said["t-m"]
    assert json.loads(run_cli("tournament", "show", "t-o", "--json", db=db).stdout)["policy"] == "bandai"


def test_tournament_new_refuses_an_unknown_game_and_says_the_policy_without_contradiction(tmp_path):
    """QA N9: `--game optgc` (a typo) was accepted (rc 0, "optgc has no policy of its own") while
    `match new` refuses unknown rulesets; the fallback read "standings policy mtg (...; mtg has no
    policy of its own)"; and "--policy to choose another" was said even when --policy was given."""
    db = str(tmp_path / "t.db")
    r = run_cli("tournament", "new", "--name", "E", "--game", "optgc", db=db)
    assert r.returncode == 2 and "unknown ruleset 'optgc': did you mean 'optcg'?" in r.stderr, r.stderr
    assert "E" not in run_cli("tournament", "list", db=db).stdout  # nothing stored
    r = run_cli("tournament", "new", "--name", "E", "--game", "optcg", "--policy", "mtg", db=db)
    assert r.returncode == 0 and "standings policy mtg" in r.stderr and "--policy to choose" not in r.stderr
    r = run_cli("tournament", "new", "--name", "E2", "--game", "table", db=db)
    assert r.returncode == 0 and "the default: table has no policy of its own); --policy to choose" in r.stderr


def test_the_cli_says_totals_missing_tables_a_drop_and_sorts_accented_names_with_their_letter(tmp_path):
    """QA75 7, at 300 players: `register --csv` printed a line a player and no total; `results`
    did not say the tables left out; a result for a dropped player said only "not paired in Round
    2"; tied names starting with an accent sorted after Z (by code point)."""
    db = str(tmp_path / "t.db")
    run_cli("tournament", "new", "--name", "Acc", "--game", "op2009", "--id", "t-acc", db=db)
    f = tmp_path / "reg.csv"
    f.write_text("name\nZoë Sánchez\nÁlvaro Rossi\nbob Verdi\nCid Neri\n", encoding="utf-8")
    r = run_cli("tournament", "register", "t-acc", "--csv", str(f), db=db)
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "4 registered (4 players in Acc)", r.stdout
    assert run_cli("tournament", "pair", "t-acc", db=db).returncode == 0
    r = run_cli("tournament", "results", "t-acc", db=db, input="1 1-1-1\n")
    assert r.stdout.strip() == "1 recorded (round 1); still without a result: table(s) 2", r.stdout
    r = run_cli("tournament", "results", "t-acc", db=db, input="2 1-1-1\n")
    assert r.stdout.strip() == "1 recorded (round 1); every table has a result", r.stdout
    r = run_cli("tournament", "standings", "t-acc", "--json", db=db)
    rows = json.loads(r.stdout)["rows"] if isinstance(json.loads(r.stdout), dict) else json.loads(r.stdout)
    assert [x["player"] for x in rows] == ["Álvaro Rossi", "bob Verdi", "Cid Neri", "Zoë Sánchez"]  # all tied
    drop = run_cli("tournament", "drop", "t-acc", "Cid Neri", db=db)
    assert drop.returncode == 0, drop.stderr
    assert run_cli("tournament", "close", "t-acc", db=db).returncode == 0
    assert run_cli("tournament", "pair", "t-acc", db=db).returncode == 0
    r = run_cli("tournament", "result", "t-acc", "2-0", "--player", "cid neri", db=db)
    assert r.returncode == 2
    pos = re.search(r"\(event (\d+)\)", drop.stdout).group(1)
    assert f"'Cid Neri' dropped after round 1 (event {pos}): not paired in Round 2" in r.stderr, r.stderr


def test_tournament_matches_records_the_tournaments_game_without_ruleset(tmp_path):
    """QA77 #9: `tournament matches T` required --ruleset though the tournament declares its game."""
    db = str(tmp_path / "t.db")
    assert run_cli("tournament", "new", "--name", "Cup", "--game", "optcg", "--rounds", "1", "--id", "t-cup",
                   db=db).returncode == 0
    assert run_cli("tournament", "register", "t-cup", "Ann", "Bob", "Cy", "Di", db=db).returncode == 0
    assert run_cli("tournament", "pair", "t-cup", db=db).returncode == 0
    r = run_cli("tournament", "matches", "t-cup", "--json", db=db)
    assert r.returncode == 0, r.stderr
    assert len(json.loads(r.stdout)) == 2
    listed = json.loads(run_cli("matches", "--json", db=db).stdout)
    assert [m["ruleset"] for m in listed] == ["optcg", "optcg"], listed
