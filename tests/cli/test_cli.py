"""The command line as a user runs it: real subprocesses, real files, exit codes 0/1/2/3."""
from __future__ import annotations

import json
import re
import os

import click
import pytest

from judge.cli import load_all

from tests.conftest import run_cli

cli = load_all()  # every command module registered (the CLI imports them lazily)


def _commands(group: click.Group, prefix=()):
    for name, cmd in group.commands.items():
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, prefix + (name,))
        else:
            yield prefix + (name,), cmd


@pytest.mark.parametrize("path", [p for p, _ in _commands(cli)], ids=lambda p: " ".join(p))
def test_every_command_has_help_with_an_example(path):
    cmd = dict(_commands(cli))[path]
    ctx = click.Context(cmd, info_name=" ".join(path))
    text = cmd.get_help(ctx)
    assert "Example" in text, f"`tablejudge {' '.join(path)} --help` has no example"


def test_a_whole_session(tmp_path):
    db = str(tmp_path / "t.db")
    r = run_cli("match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob",
                "--round", "3", "--table", "47", db=db)
    assert r.returncode == 0, r.stderr
    mid = r.stdout.strip()

    r = run_cli("log", mid, "note", "--text", "judge present", db=db)
    assert r.returncode == 0 and r.stdout.startswith("2  note: judge present")

    r = run_cli("matches", "--json", db=db)
    rows = json.loads(r.stdout)
    assert rows == [{"id": mid, "ruleset": "table", "players": ["Ann", "Bob"], "named": ["Ann", "Bob"],
                     "event": None, "round": "3", "table": "47", "events": 2}]

    run_cli("log", mid, "setup", "--player", "Ann", "--zone", "deck", "--count", "3", db=db)
    r = run_cli("log", mid, "draw", "--actor", "Ann", "--player", "Ann", "--count", "5", db=db)
    assert r.returncode == 0 and "TABLE-1" in r.stdout  # recorded, and flagged

    r = run_cli("validate", mid, "--json", db=db)
    assert r.returncode == 1
    assert [f["rule"] for f in json.loads(r.stdout)["findings"]] == ["TABLE-1"]

    r = run_cli("state", mid, "--at", "3", "--json", db=db)
    state = json.loads(r.stdout)
    assert state["position"] == 3 and state["players"]["Ann"]["zones"]["deck"]["count"] == 3

    r = run_cli("events", mid, "--csv", db=db)
    assert r.stdout.splitlines()[0].startswith("match,position,kind")

    r = run_cli("verify", mid, db=db)
    assert r.returncode == 0 and "ok, 4 events" in r.stdout

    out = tmp_path / "m.csv"
    r = run_cli("export", mid, "--format", "csv", "-o", str(out), db=db)
    assert r.returncode == 0 and out.read_text().count("\n") == 5


@pytest.mark.parametrize("args, code, words", [
    (["log", "MATCH", "draw", "--player", "Cat"], 2, "unknown player 'Cat'"),
    (["log", "MATCH", "draw", "--player", "Ann", "--count", "x"], 2, "must be a whole number"),
    (["log", "MATCH", "jump"], 2, "unknown event kind 'jump'"),
    (["log", "nosuchmatch", "note", "--text", "x"], 2, "no match 'nosuchmatch'"),
    (["log", "MATCH", "note", "--text", "x", "--expect", "0"], 3, "conflict on match"),
    (["log", "MATCH", "turn", "--player", "Ann", "--number", "4", "--strict"], 1, "refused (--strict)"),
    (["state", "MATCH", "--at", "99"], 2, "there is no event 99"),
    # QA73 10: turn 0 showed the table after event 2, mid set-up; -1 said "(last turn: 0)"
    (["state", "MATCH", "--turn", "0"], 2, "has no turn 0: turns start at 1 (the start of turn 1 is the table"),
    (["state", "MATCH", "--turn", "-1"], 2, "has no turn -1: turns start at 1"),
    (["match", "new", "--ruleset", "chess", "--player", "A", "--player", "B"], 2, "unknown ruleset 'chess'"),
    # QA71 item 12: a near name is suggested (the CLI takes a name in another case as it is meant)
    (["match", "new", "--ruleset", "optgc", "--player", "A", "--player", "B"], 2,
     "unknown ruleset 'optgc': did you mean 'optcg'?"),
    (["match", "new", "--ruleset", "OPTGC", "--player", "A", "--player", "B"], 2, "did you mean 'optcg'?"),
    (["export", "MATCH", "--format", "pdf"], 2, "unknown export format"),
])
def test_errors_are_clear_and_exit_codes_documented(tmp_path, args, code, words):
    db = str(tmp_path / "t.db")
    mid = run_cli("match", "new", "-r", "table", "-p", "Ann", "-p", "Bob", db=db).stdout.strip()
    r = run_cli(*[mid if a == "MATCH" else a for a in args], db=db)
    assert r.returncode == code, (r.stdout, r.stderr)
    assert words in r.stderr
    assert "Traceback" not in r.stderr
    events = json.loads(run_cli("matches", "--json", db=db).stdout)
    assert all(m["events"] == 1 for m in events)  # nothing was stored by a failed command


def test_a_round_report_refuses_o_and_names_out_dir(tmp_path):
    """QA73 13: `report --round 2 -o FILE` ignored -o and wrote the round where --out-dir said."""
    db = str(tmp_path / "t.db")
    run_cli("match", "new", "-r", "table", "-p", "Ann", "-p", "Bob", "--round", "2", db=db)
    folder = tmp_path / "round"
    r = run_cli("report", "--round", "2", "-o", str(tmp_path / "x"), "--out-dir", str(folder), db=db)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "give --out-dir DIR instead of -o" in r.stderr and "Traceback" not in r.stderr
    assert not folder.exists() and not (tmp_path / "x").exists()
    assert "a round writes a folder: --out-dir" in " ".join(run_cli("report", "--help").stdout.split())


def test_a_round_report_refuses_overwrite_it_would_ignore(tmp_path):
    """Review: `report --round 2 --overwrite` wrote the round and said nothing: --overwrite only
    lets one match's file replace the other view, and a round's files never do (named apart)."""
    db = str(tmp_path / "t.db")
    run_cli("match", "new", "-r", "table", "-p", "Ann", "-p", "Bob", "--round", "2", db=db)
    folder = tmp_path / "round"
    r = run_cli("report", "--round", "2", "--overwrite", "--out-dir", str(folder), db=db)
    assert r.returncode == 2 and "--overwrite applies to one match's file" in r.stderr, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and not folder.exists()


def test_ruleset_names_are_taken_in_any_case(tmp_path):
    """QA71 item 12: `--ruleset OPTCG` is optcg (one ruleset has that name), stored as `optcg`."""
    db = str(tmp_path / "t.db")
    mid = run_cli("match", "new", "-r", "TABLE", "-p", "Ann", "-p", "Bob", db=db).stdout.strip()
    assert [m["ruleset"] for m in json.loads(run_cli("matches", "--json", db=db).stdout)] == ["table"], mid
    assert run_cli("judge", "infractions", "OPTCG", db=db).returncode == 0


def test_verify_fails_with_exit_1_on_a_tampered_log(tmp_path):
    import sqlite3

    db = str(tmp_path / "t.db")
    mid = run_cli("match", "new", "-r", "table", "-p", "Ann", "-p", "Bob", db=db).stdout.strip()
    run_cli("log", mid, "note", "--text", "original", db=db)
    with sqlite3.connect(db) as c:
        c.execute("DROP TRIGGER tablejudge_no_update")
        c.execute("UPDATE stored_events SET state = replace(state, 'original', 'edited!!') "
                  "WHERE originator_version = 2")
    r = run_cli("verify", mid, "--json", db=db)
    assert r.returncode == 1
    report = json.loads(r.stdout)
    assert report["first_break"]["position"] == 2 and not report["ok"]


def test_db_from_environment_variable(tmp_path):
    db = str(tmp_path / "env.db")
    r = run_cli("match", "new", "-r", "table", "-p", "A", "-p", "B", env={"TABLEJUDGE_DB": db})
    assert r.returncode == 0
    assert json.loads(run_cli("matches", "--json", db=db).stdout)[0]["id"] == r.stdout.strip()


def test_demo_records_validates_decides_and_renders(tmp_path):
    r = run_cli("demo", "--out", str(tmp_path), "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["verified"]
    dispute, best_of_three, optcg = summary["matches"]
    assert dispute["findings"] == ["TABLE-2"]  # the corrected move no longer counts; the skipped turn does
    assert dispute["outcome"]["winner"] == "Ann"
    assert best_of_three["findings"] == []
    decision = best_of_three["time_decision"]
    assert (decision["result"], decision["winner"], decision["rule"]) == ("win", "Bob", "OP09-TEMPO-CAP-1")
    html = [p for p in summary["files"] if p.endswith(".html")]
    assert len(html) == 4  # the round page and one report per match
    assert optcg["findings"] == ["OPTCG-TERM-12"]  # Luffy attacks the turn he is played
    assert (optcg["time_decision"]["winner"], optcg["time_decision"]["policy"]) == ("Ann", "bandai")
    for path in summary["files"]:
        assert os.path.getsize(path) > 0
    assert "Bob wins" in open(os.path.join(str(tmp_path), f"{best_of_three['match']}.html")).read()


def test_the_demo_shows_an_optcg_match_with_card_names_and_english_rule_words(tmp_path):
    r = run_cli("demo", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    out = r.stdout[r.stdout.index("3. table 5 (ruleset optcg"):r.stdout.index("4. integrity")]
    assert "A: draw OP01-077 OP01-064 OP01-078 OP01-082 OP01-076" in out  # names typed, numbers stored
    assert "'chopper' could be 2 cards seen in this match for Bob: OP01-015 Tony Tony.Chopper, ST01-006 Tony Tony.Chopper" in out
    assert "OP01-024 Monkey.D.Luffy was played this turn and has no [Rush]" in out
    assert "[Rush] … an effect that lets the card attack in the turn it is played." in out  # English
    assert "«速攻 (速攻) … 在登場的回合中即可進行攻擊的效果。»" in out  # and the rulebook's words
    assert "hand         4  OP01-078 Boa Hancock" in out
    assert "source: Bandai ONE PIECE CARD GAME — Tournament Rules Manual §5.2 (secondary sources)" in out
    m = re.search(r"match ([0-9a-f]{10}): the scorekeeper says card names", out)
    html = open(os.path.join(str(tmp_path), f"{m.group(1)}.html"), encoding="utf-8").read()
    assert "OP01-024 Monkey.D.Luffy" in html and 'lang="zh-Hant"' in html


def test_rulesets_lists_table_and_its_kinds():
    r = run_cli("rulesets", "--json")
    names = [x["name"] for x in json.loads(r.stdout)]
    assert "table" in names
    kinds = json.loads(run_cli("rulesets", "--kinds", "table", "--json").stdout)
    assert {"note", "correction", "backup", "move", "draw"} <= {k["kind"] for k in kinds}


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("shopping list\n")
    r = run_cli("matches", db=str(path))
    assert r.returncode == 2
    assert "cannot open the event log" in r.stderr and "not a database" in r.stderr
    assert "Traceback" not in r.stderr
    assert path.read_text() == "shopping list\n"  # untouched


@pytest.mark.parametrize("args", [("matches",), ("verify", "M"), ("state", "M"), ("events", "M"),
                                  ("tournament", "list"), ("findings", "M")])
def test_a_command_that_only_reads_does_not_create_a_log(tmp_path, args):
    """QA 2026-11-26: `--db typo.db matches` printed "(none)" and left a new empty typo.db behind;
    a judge could read that as "nothing recorded"."""
    typo = tmp_path / "typo.db"
    out = run_cli(*args, db=str(typo))
    assert out.returncode == 2, out.stderr
    assert f"no event log at {typo}" in out.stderr and "Traceback" not in out.stderr
    assert not typo.exists()


def test_the_commands_that_start_something_create_the_log(tmp_path):
    for args in (("match", "new", "--ruleset", "table", "--player", "A", "--player", "B"),
                 ("tournament", "new", "--name", "Cup", "--game", "optcg"),
                 ("live", "new", "--ruleset", "table", "--player", "A", "--player", "B")):
        db = tmp_path / f"{args[0]}.db"
        out = run_cli(*args, db=str(db), input="")
        assert out.returncode == 0 and db.exists(), out.stderr


def test_lines_from_a_pipe_a_byte_order_mark_and_the_input_line_of_a_refusal(tmp_path):
    """QA 2026-11-26: a script saved by Windows Notepad (a BOM first) was refused on line 1
    (`unknown player '\\ufeffA'`), and a refusal said its column but not which line of the script."""
    db = str(tmp_path / "log.db")
    assert run_cli("match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob", "--id", "P1",
                   db=db).returncode == 0
    out = run_cli("live", "P1", db=db, input="\ufeffA: {bom}\nA: setup deck 40\nA: bogus 3\nB: draw\n")
    assert out.returncode == 2, out.stdout + out.stderr
    assert "input line 3:" in out.stdout and "unknown action 'bogus'" in out.stdout
    kinds = [e["kind"] for e in json.loads(run_cli("events", "P1", "--json", db=db).stdout)]
    assert kinds == ["match.created", "note", "setup", "draw"]


def test_csv_cells_say_true_and_false_as_the_json_does():
    """QA 2026-11-26: --csv printed Python's True/False where --json has true/false."""
    from judge.cli.common import to_csv

    assert to_csv([{"dropped": True, "late": False, "ids": [1, 2]}]).splitlines() == \
        ["dropped,late,ids", 'true,false,"[1, 2]"']


def test_text_tables_line_up_with_wide_characters():
    """QA 2026-11-26: a name in CJK characters pushed its row's later columns out of line."""
    from judge.cli.common import _width, table_text

    lines = table_text([{"player": "Fumiko 山田", "points": 9}, {"player": "Ann", "points": 3}],
                       ["player", "points"]).splitlines()
    assert len({_width(line[:line.rindex(" ") + 1]) for line in lines}) == 1  # the points column starts alike


def test_a_script_with_a_header_block_is_read_when_the_header_is_this_match(tmp_path):
    """QA 2026-11-26: a notation file with its header could not be fed to `live` (each tag was
    refused as an action). The header is checked against the match instead."""
    db = str(tmp_path / "log.db")
    assert run_cli("match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob", "--id", "H1",
                   db=db).returncode == 0
    head = '[Ruleset "table"]\n[Match "H1"]\n[A "Ann"]\n[B "Bob"]\n\n'
    assert run_cli("live", "H1", db=db, input=head + "A: setup deck 40\n").returncode == 0
    for other, words in (('[Ruleset "table"]\n[A "Ann"]\n[B "Zed"]\n\n', "seats Ann, Zed"),
                         ('[Ruleset "optcg"]\n[A "Ann"]\n[B "Bob"]\n\n', "ruleset is 'optcg'"),
                         ('[Ruleset "table"]\n[Match "X9"]\n[A "Ann"]\n[B "Bob"]\n\n', "names match X9")):
        out = run_cli("live", "H1", db=db, input=other + "A: setup deck 40\n")
        assert out.returncode == 2 and words in out.stdout, out.stdout
    kinds = [e["kind"] for e in json.loads(run_cli("events", "H1", "--json", db=db).stdout)]
    assert kinds == ["match.created", "setup"]


def test_import_match_checks_the_header_as_live_does(tmp_path):
    """`import FILE --match M` checked only the ruleset and the players; a header naming another
    match, another table or other options was appended to M. One check now serves it and `live`."""
    db = str(tmp_path / "log.db")
    assert run_cli("match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob", "--id", "H2",
                   "--table", "7", db=db).returncode == 0
    body = '[A "Ann"]\n[B "Bob"]\n\nA: setup deck 40\n'
    for head, words in (('[Ruleset "table"]\n[Match "X9"]\n', "the header names match X9, not H2"),
                        ('[Ruleset "table"]\n[Table "8"]\n', "the header's table is '8', but match H2's is '7'"),
                        ('[Ruleset "table"]\n', None)):
        path = tmp_path / "more.txt"
        path.write_text(head + body, encoding="utf-8")
        out = run_cli("import", str(path), "--match", "H2", db=db)
        if words is None:
            assert out.returncode == 0, out.stderr
        else:
            assert out.returncode == 2 and words in out.stderr and "more.txt:1:1" in out.stderr, out.stderr
    kinds = [e["kind"] for e in json.loads(run_cli("events", "H2", "--json", db=db).stdout)]
    assert kinds == ["match.created", "setup"]


def optcg_match_with_time_called(tmp_path, match: str) -> str:
    """A log with an optcg match `match` (Ann, Bob) whose time judge Kim called at 14:35: the db."""
    db = str(tmp_path / "log.db")
    assert run_cli("match", "new", "--ruleset", "optcg", "--player", "Ann", "--player", "Bob", "--id", match,
                   db=db).returncode == 0
    assert run_cli("judge", "time", match, "--clock", "14:35", "-j", "Kim", db=db).returncode == 0
    return db


def test_judge_clock_says_the_call_and_the_end_of_the_extra_minutes_without_a_round_start(tmp_path):
    """QA 2026-11-27: with no `judge start`, `judge clock` said only "never started", hiding the call;
    the end of the extra minutes was shown nowhere. `judge time`'s refusal says the commands."""
    db = optcg_match_with_time_called(tmp_path, "C1")
    again = run_cli("judge", "time", "C1", "--clock", "14:36", "-j", "Kim", db=db)
    assert again.returncode == 2 and "tablejudge judge time C1 --clock HH:MM --extra-minutes-over" in again.stderr
    assert run_cli("judge", "time", "C1", "--clock", "14:40", "--extra-minutes-over", "-j", "Kim",
                   db=db).returncode == 0
    out = run_cli("judge", "clock", "C1", db=db).stdout
    assert "never started" in out and "time called at 14:35 (event 2)" in out
    assert "the extra minutes ran out at 14:40 (event 3)" in out
    assert json.loads(run_cli("judge", "clock", "C1", "--json", db=db).stdout)["extra_minutes_over"]["clock"] == "14:40"


def test_judge_time_without_clock_stamps_the_local_wall_clock_as_clock_does(tmp_path):
    """Review 2026-11-27 (a bug): without --clock, `judge time` stamped UTC while --clock is the venue's
    local wall clock: at UTC+2 a call at --clock 14:35 then the end of the extra minutes at 14:40
    stored 12:40 and was refused "before the call". TZ pins the zone (POSIX: "-02" is two hours east)."""
    from datetime import datetime, timedelta, timezone

    db, env = str(tmp_path / "log.db"), {"TZ": "<+02>-02"}
    local = lambda: datetime.now(timezone(timedelta(hours=2)))  # noqa: E731 - the zone TZ says
    assert run_cli("match", "new", "--ruleset", "optcg", "--player", "Ann", "--player", "Bob", "--id", "LT",
                   db=db, env=env).returncode == 0
    called = (local() - timedelta(minutes=1)).strftime("%H:%M")
    assert run_cli("judge", "time", "LT", "--clock", called, "-j", "Kim", db=db, env=env).returncode == 0
    before = local().strftime("%H:%M")
    over = run_cli("judge", "time", "LT", "--extra-minutes-over", "-j", "Kim", db=db, env=env)
    assert over.returncode == 0, over.stderr
    mark = json.loads(run_cli("judge", "clock", "LT", "--json", db=db, env=env).stdout)["extra_minutes_over"]
    assert mark["clock"] in (before, local().strftime("%H:%M"))
    assert "local time" in run_cli("judge", "time", "--help").stdout


def test_a_refused_judge_time_adds_only_the_commands_that_fit(tmp_path):
    """Review 2026-11-27: every refusal got "to void a call" and "the end of extra minutes", even
    "call time first", "check the clock" and a ruleset without extra minutes (op2009)."""
    db = str(tmp_path / "log.db")
    void, over, call = "to void a call:", "the end of extra minutes:", "to call time:"
    for m, ruleset in (("O1", "optcg"), ("P1", "op2009")):
        assert run_cli("match", "new", "--ruleset", ruleset, "--player", "Ann", "--player", "Bob", "--id", m,
                       db=db).returncode == 0

    def hints(*args: str) -> set[str]:
        r = run_cli("judge", "time", *args, "-j", "Kim", db=db)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        return {h for h in (void, over, call) if h in r.stderr}

    assert hints("O1", "--clock", "14:40", "--extra-minutes-over") == {call}  # call time first
    assert hints("P1", "--clock", "14:40", "--extra-minutes-over") == set()  # no such policy
    for m in ("O1", "P1"):
        assert run_cli("judge", "time", m, "--clock", "14:35", "-j", "Kim", db=db).returncode == 0
    assert hints("O1", "--clock", "14:50") == {void, over}
    assert hints("P1", "--clock", "14:50") == {void}  # op2009 has no extra minutes to offer
    assert hints("O1", "--clock", "14:30", "--extra-minutes-over") == {over}  # check the clock
    assert run_cli("judge", "time", "O1", "--clock", "14:40", "--extra-minutes-over", "-j", "Kim",
                   db=db).returncode == 0
    assert hints("O1", "--clock", "14:41", "--extra-minutes-over") == set()  # recorded once


def test_judge_start_counts_from_the_announced_clock_not_from_when_it_was_typed(tmp_path):
    """QA 2026-11-27: `judge start --clock 14:00 --minutes 40` typed later counted 40 minutes from
    when it was typed ("time left 39:58"); --clock was for the record only. It is the start now."""
    from datetime import datetime, timedelta, timezone

    db, env = str(tmp_path / "log.db"), {"TZ": "<+02>-02"}
    local = datetime.now(timezone(timedelta(hours=2)))
    began = (local - timedelta(minutes=10)).strftime("%H:%M")
    # the clock's end as announced: began + 40 minutes (the minute `began` names, whole)
    ends = (local - timedelta(minutes=10)).replace(second=0, microsecond=0) + timedelta(minutes=40)
    assert run_cli("match", "new", "--ruleset", "optcg", "--player", "Ann", "--player", "Bob", "--id", "S1",
                   db=db).returncode == 0
    assert run_cli("judge", "start", "S1", "--minutes", "40", "--clock", began, "-j", "Kim", db=db,
                   env=env).returncode == 0
    before = datetime.now(timezone.utc)
    clock = json.loads(run_cli("judge", "clock", "S1", "--json", db=db, env=env).stdout)
    after = datetime.now(timezone.utc)
    # read between `before` and `after` (a loaded machine takes seconds for a command: a fixed
    # 29-30 minute window failed when `began` fell at a minute's end)
    assert (ends - after).total_seconds() - 1 <= clock["seconds_left"] <= (ends - before).total_seconds() + 1, clock
    assert clock["started_at"].endswith(f"{(local - timedelta(minutes=10, hours=2)).strftime('%H:%M')}:00Z")


def test_time_is_called_once(tmp_path):
    """QA 2026-11-26: `judge time --clock 15:40` after a call at 14:35 stored a second call, and the
    end-of-time procedure then decided from the later one."""
    db = optcg_match_with_time_called(tmp_path, "TC")
    again = run_cli("judge", "time", "TC", "--clock", "15:40", "-j", "Kim", db=db)
    assert again.returncode == 2 and "already called at 14:35 (event 2)" in again.stderr
    kinds = [e["kind"] for e in json.loads(run_cli("events", "TC", "--json", db=db).stdout)]
    assert kinds == ["match.created", "time.called"]


def test_log_and_live_say_the_desks_checks_and_call_time_once(tmp_path):
    """`log` and `live` said neither a ruling's DESK-4/DESK-8 nor refused a second time call (only
    the `judge` commands did); a live line with two calls stored both."""
    db = str(tmp_path / "log.db")
    assert run_cli("match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob", "--id", "TC",
                   db=db).returncode == 0
    r = run_cli("log", "TC", "judge.ruling", "--text", "no", "--rule", "OPTCG-BATTLE-2", "--actor", "Ann", db=db)
    assert r.returncode == 0 and "DESK-4 [warning]" in r.stdout and "DESK-8 [warning]" in r.stdout, r.stdout
    assert run_cli("log", "TC", "time.called", "--clock", "14:35", "--actor", "judge:Kim", db=db).returncode == 0
    again = run_cli("log", "TC", "time.called", "--clock", "15:40", "--actor", "judge:Kim", db=db)
    assert again.returncode == 2 and "already called at 14:35 (event 3)" in again.stderr
    head = '[Ruleset "table"]\n[Match "TC"]\n[A "Ann"]\n[B "Bob"]\n\n'
    live = run_cli("live", "TC", db=db, input=head + "judge Kim: time 15:41\n")
    assert live.returncode == 2 and "already called at 14:35 (event 3)" in live.stdout, live.stdout
    assert run_cli("match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob", "--id", "T2",
                   db=db).returncode == 0
    one_line = run_cli("live", "T2", db=db, input=head.replace("TC", "T2")
                       + "judge Kim: time 14:50 · judge Kim: time 14:55\nA: ruling \"x\" OPTCG-BATTLE-2\n")
    assert "this line already calls time (at 14:50)" in one_line.stdout, one_line.stdout
    assert "DESK-8 [warning]" in one_line.stdout
    kinds = {m: [e["kind"] for e in json.loads(run_cli("events", m, "--json", db=db).stdout)] for m in ("TC", "T2")}
    assert kinds == {"TC": ["match.created", "judge.ruling", "time.called"], "T2": ["match.created", "judge.ruling"]}


def test_a_folder_import_reads_its_logs_and_passes_over_the_rest(tmp_path):
    """QA 2026-11-26: a folder's README.md and build.py were read as JSONL (exit 2); an exported
    CSV or SQLite file was 'not valid JSON' / 'not UTF-8'."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "README.md").write_text("# where these come from\n", encoding="utf-8")
    (folder / "game.jsonl").write_text(
        '{"kind": "match.created", "payload": {"ruleset": "table", "players": ["Ann", "Bob"]}}\n'
        '{"kind": "note", "payload": {"text": "hi"}}\n', encoding="utf-8")
    db = str(tmp_path / "log.db")
    out = run_cli("import", str(folder), db=db)
    assert out.returncode == 0, out.stderr
    assert "passed over 1 file that is not a log: README.md" in out.stderr
    (tmp_path / "x.csv").write_text("match,position\n", encoding="utf-8")
    out = run_cli("import", str(tmp_path / "x.csv"), db=db)
    assert out.returncode == 2 and "import the JSONL export" in out.stderr


def test_verify_without_anything_to_check_says_what_to_give(tmp_path):
    """QA 2026-11-27: `tablejudge verify` alone said "field 'matches': ...", the name of a Python
    parameter; with a --db that did not exist it spoke of the missing log instead."""
    for db in (str(tmp_path / "none.db"), None):
        if db is None:
            db = str(tmp_path / "t.db")
            assert run_cli("match", "new", "-r", "table", "-p", "Ann", "-p", "Bob", db=db).returncode == 0
        r = run_cli("verify", db=db)
        assert r.returncode == 2, r.stderr
        assert ("verify needs something to check: a match or tournament id, --all (every stream of the log), "
                "--anchor HASH|TOKEN|FILE, --seal [SEAL|TOURNAMENT|FILE] or --repair") in r.stderr
        assert "field" not in r.stderr and "no event log" not in r.stderr
        assert "Usage: tablejudge verify [OPTIONS] [MATCH|TOURNAMENT]..." in r.stderr
    assert not (tmp_path / "none.db").exists()


def test_a_second_void_of_a_void_event_is_refused_and_stores_nothing(tmp_path):
    """Review: `log M correction --voids N` typed twice stored the second void too."""
    from tests.conftest import run_in_process
    db = str(tmp_path / "t.db")
    code, mid, _ = run_in_process(db, "match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob")
    mid = mid.strip()
    assert run_in_process(db, "log", mid, "note", "--text", "typed by mistake")[0] == 0
    void = ("log", mid, "correction", "--actor", "judge:Zoe", "--voids", "2", "--reason", "a mistake")
    assert run_in_process(db, *void)[0] == 0
    code, out, err = run_in_process(db, *void)
    assert code == 2 and "event 2 is already void: correction 3" in err and out == "", (code, out, err)
    code, out, err = run_in_process(db, *void, "--json")
    said = json.loads(out)["error"]
    assert code == 2 and said["field"] == "payload.voids" and said["message"].endswith("already void: correction 3")
    code, out, _ = run_in_process(db, "events", mid, "--json")
    assert [e["kind"] for e in json.loads(out)] == ["match.created", "note", "correction"]  # nothing stored
