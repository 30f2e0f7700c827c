"""QA 2026-11-27: a command given --json that failed said so on stderr only, so a script reading
stdout got nothing. With --json a failure is also one JSON object on stdout (README, "Exit codes");
stderr and the exit code are as before."""
from __future__ import annotations

import json

import click
import pytest

from judge.cli.common import run_guarded
from tests.conftest import run_cli


@pytest.fixture
def log(tmp_path):
    db = str(tmp_path / "t.db")
    assert run_cli("match", "new", "-r", "table", "-p", "Ann", "-p", "Bob", "--id", "M1", db=db).returncode == 0
    return db


def _error(r) -> dict:
    out = json.loads(r.stdout)  # the whole of stdout is the one object
    assert list(out) == ["error"]
    assert "Traceback" not in r.stderr
    return out["error"]


def test_a_bad_file_import_names_file_line_and_field(log, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "match.created", "payload": {"ruleset": "table", "players": ["Ann", "Bob"]}}\n'
                   '{"kind": "note", "payload": {"txt": "hi"}}\n', encoding="utf-8")
    r = run_cli("import", str(bad), "--json", db=log)
    assert r.returncode == 2
    err = _error(r)
    assert err == {"code": 2, "message": f"{bad}:2: field 'payload.txt': 'note' has no field 'txt' (fields: text)",
                   "file": str(bad), "line": 2, "field": "payload.txt"}
    assert f"error: {err['message']}" in r.stderr  # the human line, as before


def test_a_notation_file_error_has_its_column(log, tmp_path):
    bad = tmp_path / "game.txt"
    bad.write_text('[Ruleset "table"]\n[A "Ann"]\n[B "Bob"]\n\nA: setup deck 40\nA: bogus 3\n', encoding="utf-8")
    err = _error(run_cli("import", str(bad), "--json", db=log))
    assert (err["code"], err["file"], err["line"], err["column"]) == (2, str(bad), 6, 4)
    assert "unknown action 'bogus'" in err["message"]


def test_a_conflict_an_unknown_match_a_strict_refusal_and_a_usage_error(log):
    r = run_cli("log", "M1", "note", "--text", "x", "--expect", "0", "--json", db=log)
    assert r.returncode == 3 and "error: conflict on match M1" in r.stderr
    err = _error(r)
    assert err["code"] == 3
    assert err["message"].startswith("conflict on match M1: you expected the log to end at event 0")

    r = run_cli("state", "nosuch", "--json", db=log)
    assert r.returncode == 2 and "error: no match 'nosuch'" in r.stderr
    assert _error(r) == {"code": 2, "message": f"no match 'nosuch' in {log} (see `tablejudge matches`)"}

    r = run_cli("log", "M1", "turn", "--player", "Ann", "--number", "4", "--strict", "--json", db=log)
    assert r.returncode == 1 and "refused (--strict)" in r.stderr
    assert _error(r) == {"code": 1, "message": "refused (--strict): nothing was recorded",
                         "findings": [{"rule": "TABLE-2", "severity": "error", "message": "turn 4 follows turn 0"}]}

    r = run_cli("state", "--json", db=log)  # click's own usage error
    assert r.returncode == 2 and "Usage: tablejudge state" in r.stderr
    assert _error(r) == {"code": 2, "message": "Missing argument 'MATCH'."}

    r = run_cli("state", "nosuch", db=log)  # without --json: stderr only, as before
    assert r.returncode == 2 and r.stdout == "" and "error: no match 'nosuch'" in r.stderr


def _toy() -> click.Group:
    @click.group()
    def cli():
        pass

    @cli.command()
    @click.option("--text")
    @click.option("--json", "as_json", is_flag=True)
    def note(text, as_json):
        raise RuntimeError("boom")

    @cli.command()
    @click.option("--text")
    def plain(text):
        raise click.BadParameter("no")

    return cli


def test_an_internal_error_is_json_too_and_a_json_that_is_a_value_is_not_the_flag(capsys):
    cli = _toy()
    assert run_guarded(cli, ["note", "--json"]) == 70
    out = capsys.readouterr()
    err = json.loads(out.out)["error"]
    assert err["code"] == 70 and err["message"].startswith("internal error (a bug in tablejudge")
    assert "RuntimeError: boom" in out.err and "TABLEJUDGE_DEBUG=1" in out.err

    assert run_guarded(cli, ["note", "--text", "--json"]) == 70  # "--json" is the note's text
    assert capsys.readouterr().out == ""
    assert run_guarded(cli, ["plain", "--text", "--json"]) == 2  # a command without --json
    assert capsys.readouterr().out == ""


def test_a_refused_results_file_lists_every_bad_line_in_the_json(tmp_path):
    """QA 9: `tournament results T bad.csv --json` printed its bad lines on stderr and nothing on
    stdout. Now the shared shape, each bad line in `errors` with its file, line, column, field."""
    db = str(tmp_path / "t.db")
    run_cli("tournament", "new", "--name", "E", "--game", "op2009", "--seed", "1", "--id", "t-e", db=db)
    run_cli("tournament", "register", "t-e", "P1", "P2", "P3", "P4", db=db)
    run_cli("tournament", "pair", "t-e", db=db)
    bad = tmp_path / "bad.csv"
    bad.write_text("table,result\n1,2-O\n9,2-0\n", encoding="utf-8")
    r = run_cli("tournament", "results", "t-e", str(bad), "--json", db=db)
    assert r.returncode == 2 and f"error: 2 lines of {bad} refused; nothing was stored:" in r.stderr
    err = _error(r)
    assert err["code"] == 2 and err["message"] == f"2 lines of {bad} refused; nothing was stored"
    assert [{k: v for k, v in e.items() if k != "message"} for e in err["errors"]] == [
        {"file": str(bad), "line": 2, "field": "result"}, {"file": str(bad), "line": 3, "field": "table"}]
    assert all(f"  {e['message']}" in r.stderr for e in err["errors"])  # each as stderr says it
    txt = tmp_path / "r.txt"
    txt.write_text("1 2-0\n2 2-0\n", encoding="utf-8")
    assert run_cli("tournament", "results", "t-e", str(txt), db=db).returncode == 0
    txt.write_text("1 0-2\n2 0-2\n", encoding="utf-8")  # different results already there: the same shape
    err = _error(run_cli("tournament", "results", "t-e", str(txt), "--json", db=db))
    assert "already have a different result" in err["message"] and len(err["errors"]) == 2
    assert err["errors"][0]["line"] == 1 and err["errors"][0]["field"] == "table"
    txt.write_text("1 2-O-0\n9 2-0\n", encoding="utf-8")  # text: the column too
    err = _error(run_cli("tournament", "results", "t-e", str(txt), "--json", db=db))
    assert err["errors"][0] == {"file": str(txt), "line": 1, "column": 3, "field": "result",
                                "message": f"{txt}:1:3: field 'result': a result is written W-L-D (e.g. 2-1-0) "
                                           "or double-loss, got '2-O-0'"}


def test_any_command_refusing_a_batch_is_said_by_the_error_boundary(capsys):
    """Review: `tournament results` printed its own refused batch (stderr and JSON) and exited
    through FindingsExit; now BatchRefused is the boundary's (`run_guarded`), so any command that
    lets one through says it the same way: the sentence, one line each, and `errors` in JSON."""
    from engine.match import InputError
    from judge.tournament.entry import BatchRefused

    @click.group()
    def cli():
        pass

    @cli.command()
    @click.option("--json", "as_json", is_flag=True)
    def batch(as_json):
        raise BatchRefused([InputError("bad result", field="result", where="r.txt:2:3"),
                            InputError("no table 9", field="table", where="r.txt:3")], "r.txt")

    assert run_guarded(cli, ["batch", "--json"]) == 2
    out = capsys.readouterr()
    assert out.err == ("error: 2 lines of r.txt refused; nothing was stored:\n"
                       "  r.txt:2:3: field 'result': bad result\n  r.txt:3: field 'table': no table 9\n")
    assert json.loads(out.out) == {"error": {"code": 2, "message": "2 lines of r.txt refused; nothing was stored",
                                             "errors": [{"file": "r.txt", "line": 2, "column": 3, "field": "result",
                                                         "message": "r.txt:2:3: field 'result': bad result"},
                                                        {"file": "r.txt", "line": 3, "field": "table",
                                                         "message": "r.txt:3: field 'table': no table 9"}]}}
    assert run_guarded(cli, ["batch"]) == 2 and capsys.readouterr().out == ""
