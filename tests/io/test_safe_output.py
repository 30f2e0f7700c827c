"""Safe paths and cells (issue 14): default output names stay inside their folder and never collide;
every CSV output neutralises text a spreadsheet would run as a formula (OWASP)."""
from __future__ import annotations

import csv
import io
import os

from hypothesis import given
from hypothesis import strategies as st

from engine.match import creation_draft
from engine.store import EventStore
from judge.io.csvcells import FORMULA_STARTS
from judge.io.files import safe_name

from tests.fuzz.harness import invoke

FORMULAS = ["=HYPERLINK(\"http://evil\",\"x\")", "=cmd|' /C calc'!A0", "@SUM(1+1)", "+1+1", "-1+1", "\t=1", "\r=1"]


@given(st.text(max_size=80), st.text(max_size=80))
def test_safe_names_are_plain_and_distinct(a, b):
    for text in (a, b):
        name = safe_name(text)
        assert name not in (".", "..") and "/" not in name and "\\" not in name and not name.startswith(".")
        assert len(name) <= 64
    if a != b:
        assert safe_name(a) != safe_name(b)


def _old_match(db: str, match_id: str) -> None:
    """A match whose id an older version accepted (ids are checked at creation now)."""
    with EventStore.open(db) as store:
        store.create(match_id, [creation_draft("table", ["Ann", "Bob"], round="1", recorded_by="old")])


def test_default_outputs_of_a_hostile_old_id_stay_inside_and_apart(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "t.db")
    for mid in ("../../x", "/tmp/abs-tablejudge-test", "x"):
        _old_match(db, mid)
    written = set()
    for mid in ("../../x", "/tmp/abs-tablejudge-test", "x"):
        for fmt in ("jsonl", "csv", "sqlite", "notation"):
            r = invoke(["--db", db, "export", mid, "--format", fmt])
            assert r.code == 0, r.output
            path = r.output.split(":")[0]
            assert os.path.realpath(path).startswith(str(tmp_path / "exports") + os.sep), path
            written.add(path)
        r = invoke(["--db", db, "report", mid])
        assert r.code == 0, r.output
        assert os.path.realpath(r.output.strip()).startswith(str(tmp_path / "exports") + os.sep)
        written.add(r.output.strip())
    assert len(written) == 3 * 5  # no two ids share a file
    assert not os.path.exists("/tmp/abs-tablejudge-test.jsonl") and not (tmp_path.parent / "x.jsonl").exists()
    # the round page links each match's report by the name it was written under
    r = invoke(["--db", db, "report", "--round", "1"])
    assert r.code == 0, r.output
    page = open(r.output.split()[0], encoding="utf-8").read()
    for path in r.output.split()[1:]:
        assert f'href="{os.path.basename(path)}"' in page


def _cells(text: str) -> list[str]:
    return [c for row in csv.reader(io.StringIO(text, newline="")) for c in row]


def _assert_neutral(text: str) -> None:
    cells = _cells(text)
    for c in cells:
        if c.startswith(FORMULA_STARTS):
            float(c)  # only a number may start with - or +: everything else was neutralised


def test_every_csv_output_neutralises_formulas(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "t.db")
    run = lambda *a: invoke(["--db", db, *a])  # noqa: E731
    r = run("match", "new", "-r", "table", "-p", FORMULAS[0], "-p", "@Bob", "--id", "m1", "--round", "=1")
    assert r.code == 0, r.output
    for text in FORMULAS:  # a CR is a control character, refused in a note since QA71 item 3
        assert run("log", "m1", "note", "--text", text).code == (2 if "\r" in text else 0)
    assert run("log", "m1", "counter", "--name", "=life", "--player", "@Bob", "--add", "-3").code == 0
    assert run("log", "m1", "draw", "--player", "@Bob").code == 0  # a finding: "@Bob draws 1 but ..."
    assert run("judge", "penalty", "m1", "-j", "=Zoe", "--player", "@Bob", "--penalty", "Warning",
               "--infraction", "=cmd|' /C calc'!A0").code == 0
    outputs = {
        "export csv": run("export", "m1", "--format", "csv", "-o", "-"),
        "events --csv": run("events", "m1", "--csv"),
        "matches --csv": run("matches", "--csv"),
        "findings --csv": run("findings", "m1", "--csv"),
        "penalties --csv": run("penalties", "m1", "--csv"),
        "actions --csv": run("actions", "--csv"),
    }
    # tournaments: players with formula names, standings and pairings as CSV
    r = run("tournament", "new", "--name", "=T", "--game", "optcg", "--rounds", "2")
    tid = r.output.split()[0]  # stdout (the id) comes before stderr (the policy said)
    assert run("tournament", "register", tid, "=HYPERLINK(1)", "@SUM(2)", "+C", "--", "-D").code == 0
    outputs["tournament pair --csv"] = run("tournament", "pair", tid, "--csv")
    assert run("tournament", "result", tid, "1-0-0", "--table", "1").code == 0
    assert run("tournament", "result", tid, "0-1-0", "--table", "2").code == 0
    outputs["tournament standings --csv"] = run("tournament", "standings", tid, "--csv")
    results = tmp_path / "results.csv"
    results.write_text("round,player,opponent,wins,losses,draws\n1,=HYPERLINK(1),@SUM(2),2,0,0\n"
                       "1,@SUM(2),=HYPERLINK(1),0,2,0\n")
    outputs["standings FILE --csv"] = run("standings", str(results), "--csv")
    from judge.tournament.results import read_results, results_to_csv

    outputs["results_to_csv"] = type("R", (), {"code": 0, "output": results_to_csv(read_results(results).results)})()
    for name, r in outputs.items():
        assert r.code in (0, 1), f"{name}: {r.output}"
        assert r.output.strip(), f"{name}: no output"
        _assert_neutral(r.output)
    # and the formula text is still there to read, behind its quote
    assert "'=HYPERLINK(1)" in _cells(outputs["standings FILE --csv"].output)
    assert any(c.startswith("'@Bob") for c in _cells(outputs["export csv"].output))  # '@Bob =life -3'


# --- where -o points at something that is not a new regular file (QA, 2026-11-26) -------------------

def _one_match(tmp_path) -> tuple[str, str]:
    db = str(tmp_path / "t.db")
    _old_match(db, "m1")
    return db, "m1"


def test_outputs_get_the_mode_a_plain_open_gives(tmp_path, monkeypatch):
    """Not the temporary file's private 0600: a report is meant to be shared."""
    monkeypatch.chdir(tmp_path)
    db, m = _one_match(tmp_path)
    old = os.umask(0o022)
    try:
        assert invoke(["--db", db, "export", m, "--format", "csv", "-o", "new.csv"]).code == 0
        assert invoke(["--db", db, "report", m, "-o", "r.html"]).code == 0
        os.chmod("new.csv", 0o640)  # an existing file keeps its own mode
        assert invoke(["--db", db, "export", m, "--format", "csv", "-o", "new.csv"]).code == 0
    finally:
        os.umask(old)
    assert oct(os.stat("r.html").st_mode & 0o777) == oct(0o644)
    assert oct(os.stat("new.csv").st_mode & 0o777) == oct(0o640)


def test_a_symbolic_link_is_followed_and_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db, m = _one_match(tmp_path)
    os.mkdir("real")
    os.symlink("real/out.csv", "link.csv")  # dangling until written
    assert invoke(["--db", db, "export", m, "--format", "csv", "-o", "link.csv"]).code == 0
    assert os.path.islink("link.csv") and "match.created" in open("real/out.csv", encoding="utf-8").read()


def test_a_fifo_is_written_through_not_replaced(tmp_path, monkeypatch):
    import stat
    import threading

    monkeypatch.chdir(tmp_path)
    db, m = _one_match(tmp_path)
    os.mkfifo("pipe")
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(open("pipe", encoding="utf-8").read()))
    reader.start()
    out = invoke(["--db", db, "export", m, "--format", "csv", "-o", "pipe"])
    reader.join(10)
    assert out.code == 0, out.output
    assert stat.S_ISFIFO(os.stat("pipe").st_mode)
    assert got and "match.created" in got[0]


def test_a_folder_or_a_nul_in_the_name_is_refused_cleanly(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db, m = _one_match(tmp_path)
    os.mkdir("dir")
    out = invoke(["--db", db, "export", m, "--format", "csv", "-o", "dir"])
    assert out.code == 2 and "is a directory" in out.output and "internal error" not in out.output
    out = invoke(["--db", db, "export", m, "--format", "csv", "-o", "a\0b"])
    assert out.code == 2 and "NUL" in out.output, out.output
    out = invoke(["--db", db, "export", m, "--format", "sqlite", "-o", "a\0b.sqlite"])
    assert out.code == 2 and "NUL" in out.output, out.output
    assert sorted(os.listdir(".")) == ["dir", "t.db"]


def test_a_read_model_follows_one_log(tmp_path, monkeypatch):
    """QA 2026-11-26: a read model brought up to date from a second log mixed both logs' events,
    then failed with an internal error half-way."""
    monkeypatch.chdir(tmp_path)
    _old_match(str(tmp_path / "a.db"), "m1")
    _old_match(str(tmp_path / "b.db"), "m2")
    assert invoke(["--db", "a.db", "readmodel", "-o", "rm.sqlite"]).code == 0
    before = open("rm.sqlite", "rb").read()
    out = invoke(["--db", "b.db", "readmodel", "-o", "rm.sqlite"])
    assert out.code == 2 and "read model of another event log" in out.output, out.output
    assert open("rm.sqlite", "rb").read() == before
    assert invoke(["--db", "b.db", "readmodel", "-o", "rm.sqlite", "--rebuild"]).code == 0
    assert invoke(["--db", "a.db", "readmodel", "-o", "rm.sqlite"]).code == 2
