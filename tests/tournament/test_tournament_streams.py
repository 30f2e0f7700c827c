"""A tournament's id given where a match's belongs (and the reverse): refused in words, or, where it
makes sense (`events`, `export --format jsonl`, `import`), done for the tournament's own stream.
And round seals that a late correction made stale: said at the correction, by `verify --seal` and
on the standings page."""
from __future__ import annotations

import json

import pytest

from judge.cli import cli
from judge.cli.common import run_guarded

BACKENDS = ("sqlite",)  # what these tests look at does not depend on the backend (tests/conftest.py)


@pytest.fixture
def event(run):
    """Tournament t-s (4 players, best of three, 2 rounds) with round 1 played and sealed, and a
    match m-1 of the table ruleset."""
    assert run("tournament", "new", "--name", "Streams", "--game", "optcg", "--best-of", "3",
               "--rounds", "2", "--seed", "1", "--id", "t-s")[0] == 0
    assert run("tournament", "register", "t-s", "Ann", "Bob", "Cid", "Dee")[0] == 0
    assert run("tournament", "pair", "t-s")[0] == 0
    assert run("tournament", "result", "t-s", "2-0-0", "--table", "1")[0] == 0
    assert run("tournament", "result", "t-s", "2-1-0", "--table", "2")[0] == 0
    code, out, err = run("tournament", "seal", "t-s", "--round", "1")
    assert code == 0, err
    assert run("match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob", "--id", "m-1")[0] == 0
    return run


# --- a tournament's id given to a match command -----------------------------------------------

REFUSED = {  # command -> words its refusal must hold (besides "t-s is a tournament, not a match")
    ("state", "t-s"): "tablejudge tournament show t-s",
    ("validate", "t-s"): "tablejudge verify t-s",
    ("report", "t-s"): "tablejudge tournament standings t-s --html",
    ("findings", "t-s"): "tablejudge tournament warnings t-s",
    ("audit", "t-s", "--at", "3"): "tablejudge events t-s",
    ("replay", "t-s"): "tablejudge events t-s",
    ("penalties", "t-s"): "penalties are given in its matches",
    ("appeals", "t-s"): "tablejudge tournament show t-s",
    ("export", "t-s", "--format", "csv"): "exports only as `--format jsonl`",
    ("export", "t-s", "--format", "notation"): "exports only as `--format jsonl`",
    ("timelimit", "t-s"): "tablejudge tournament show t-s",
    ("log", "t-s", "note", "--text", "x"): "tablejudge tournament result t-s",
    ("judge", "call", "t-s", "--caller", "Ann", "--reason", "x"): "tablejudge tournament show t-s",
}


@pytest.mark.parametrize("args", list(REFUSED), ids=lambda a: " ".join(a[:1] + a[2:4]))
def test_a_match_command_given_a_tournament_refuses_in_words(event, args):
    code, out, err = event(*args)
    assert code == 2, err
    assert err.startswith("error: t-s is a tournament, not a match: ") and REFUSED[args] in err
    assert "internal error" not in err and "KeyError" not in err


def test_events_lists_a_tournaments_own_events(event):
    code, out, err = event("events", "t-s")
    assert code == 0, err
    lines = out.splitlines()
    assert "created Streams" in lines[0] and "registered Ann" in lines[1]
    assert any("round 1 table 1: " in ln for ln in lines)
    assert any("sealed round 1 (1 stream): tj-seal:t-s/1:" in ln for ln in lines)
    code, out, _ = event("events", "t-s", "--json", "--from", "2", "--to", "3")
    rows = json.loads(out)
    assert [r["position"] for r in rows] == [2, 3] and rows[0]["kind"] == "player.registered"
    assert rows[0]["description"] == "registered Ann" and len(rows[0]["hash"]) == 64


def test_export_and_import_of_a_tournament_rebuild_the_identical_chain(event, tmp_path):
    first = tmp_path / "t-s.jsonl"
    code, out, err = event("export", "t-s", "-o", str(first))
    assert code == 0 and "events" in out, err
    lines = first.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["kind"] == "tournament.created"
    other = str(tmp_path / "other.db")
    code, out, err = event("import", str(first), db_path=other)
    assert code == 0, err
    assert "into tournament t-s (new)" in out
    again = tmp_path / "again.jsonl"
    assert event("export", "t-s", "-o", str(again), db_path=other)[0] == 0
    assert again.read_bytes() == first.read_bytes()  # byte for byte: the same chain, the same hashes
    code, out, err = event("verify", "t-s", db_path=other)
    assert code == 0 and "t-s: ok" in out, err
    code, out, _ = event("tournament", "show", "t-s", "--json", db_path=other)
    assert json.loads(out)["players"] == 4
    # again: already in the log (test_tournament_reimport.py); an altered line is refused, naming
    # it, with nothing stored
    code, out, err = event("import", str(first), db_path=other)
    assert code == 0 and "already in the log, tournament t-s: nothing stored" in out, err
    bad = tmp_path / "bad.jsonl"
    rows = [json.loads(x) for x in lines]
    rows[2]["payload"]["player"] = "Zed"
    bad.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    third = str(tmp_path / "third.db")
    code, _, err = event("import", str(bad), db_path=third)
    assert code == 2 and "bad.jsonl:3" in err and "hash" in err
    rows = [json.loads(x) for x in lines]
    rows[1]["payload"] = {"player": ""}
    bad.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, _, err = event("import", str(bad), db_path=third)
    assert code == 2 and "bad.jsonl:2" in err and "payload.player" in err
    assert event("tournament", "list", "--json", db_path=third)[1].strip() in ("[]", "")


def test_a_tournament_command_given_a_match_says_it_is_a_match(event):
    for args in (("tournament", "show", "m-1"), ("tournament", "standings", "m-1"),
                 ("tournament", "pair", "m-1"), ("tournament", "seal", "m-1")):
        code, _, err = event(*args)
        assert code == 2 and "m-1 is a match, not a tournament" in err, args
    code, _, err = event("tournament", "result", "t-s", "--match", "t-s")
    assert code == 2 and "t-s' is a tournament, not a match" in err


def test_a_web_match_page_given_a_tournament_is_a_404_in_words(event, tmp_path):
    from tests.web.server import Server

    # (and the desk page counts one table as one table)
    assert event("tournament", "new", "--name", "Two", "--game", "optcg", "--id", "t-two")[0] == 0
    event("tournament", "register", "t-two", "Ann", "Bob")
    event("tournament", "pair", "t-two")
    with Server(str(tmp_path / "t.db")) as s:
        import httpx
        with httpx.Client(base_url=s.url, timeout=30, headers={"Authorization": f"Bearer {s.token}"}) as http:
            for path in ("/m/t-s", "/m/t-s/data.json", "/m/t-s/replay.html", "/m/t-s/appeals",
                         "/m/t-s/record", "/api/m/t-s"):
                r = http.get(path, params={"k": s.token})
                assert r.status_code == 404, (path, r.status_code)
                assert "t-s" in r.text and "is a tournament, not a match" in r.text.replace("&#39;", "'"), path
            desk = http.get("/t/t-two", params={"k": s.token}).text
            assert "1 table;" in desk and "1 tables" not in desk
            for path in ("/t/m-1", "/api/t/m-1"):
                r = http.get(path, params={"k": s.token})
                assert r.status_code in (404, 422) and "is a match, not a tournament" in r.text.replace("&#39;", "'")


# --- a late correction makes a round's seal stale ---------------------------------------------


def _seal_token(run, tid: str, round_no: int) -> str:
    code, out, _ = run("events", tid, "--json")
    sealed = [r for r in json.loads(out) if r["kind"] == "round.sealed" and r["payload"]["round"] == round_no]
    return f"tj-seal:{tid}/{round_no}:{sealed[-1]['payload']['seal']}"


def test_a_correction_after_a_seal_says_the_seal_is_stale_until_sealed_again(event, tmp_path):
    run = event
    old = _seal_token(run, "t-s", 1)
    assert run("verify", "--seal", "t-s")[0] == 0
    code, out, err = run("tournament", "result", "t-s", "0-2-0", "--table", "1", "--round", "1",
                         "--overwrite", "--reason", "slip misread")
    assert code == 0, err
    assert "round 1's seal" in err and "out of date" in err and "standings printed with it" in err
    assert "tablejudge tournament seal t-s --round 1" in err
    position = json.loads(run("events", "t-s", "--json")[1])[-1]["position"]
    # verify --seal: stale, exit 1, naming the round and the correcting event
    for value in ("t-s", old, "all"):
        code, out, err = run("verify", "--seal", value)
        assert code == 1, (value, out)
        assert "round 1" in out and "STALE" in out and f"event {position} (table 1: 0-2-0, 'slip misread')" in out
        assert "tablejudge tournament seal t-s --round 1" in out
    code, out, _ = run("verify", "--seal", "t-s", "--json")
    seal = json.loads(out)["seals"][0]
    assert seal["ok"] is False and seal["problems"] == [] and f"event {position}" in seal["stale"]
    code, out, _ = run("verify", "t-s")
    assert code == 1 and "seal of round 1" in out and "is stale" in out
    # the standings page does not print the stale seal as if it were current
    page = tmp_path / "s.html"
    assert run("tournament", "standings", "t-s", "--round", "1", "--html", str(page))[0] == 0
    html = page.read_text(encoding="utf-8")
    assert old not in html and "not current" in html and "tournament seal t-s --round 1" in html
    # sealed again: the new seal is current; the old one is superseded (history) for the tournament,
    # and still out of date when asked about itself (a page printed with it)
    code, out, err = run("tournament", "seal", "t-s", "--round", "1")
    assert code == 0, err
    new = _seal_token(run, "t-s", 1)
    code, out, _ = run("verify", "--seal", "t-s")
    assert code == 0 and "superseded by the seal at event" in out and f"the current seal of round 1: {new}" in out
    code, out, _ = run("verify", "--seal", old)
    assert code == 1 and "STALE, superseded" in out
    assert run("verify", "--seal", new)[0] == 0 and run("verify", "t-s")[0] == 0
    assert run("tournament", "standings", "t-s", "--round", "1", "--html", str(page))[0] == 0
    html = page.read_text(encoding="utf-8")
    assert new in html and old not in html and "not current" not in html
    code, out, err = run("tournament", "result", "t-s", "0-2-0", "--table", "2", "--round", "1",
                         "--overwrite", "--reason", "again")
    assert "round 1's seal" in err  # a second correction makes the new seal stale in turn


# --- words: match formats, top-cut rounds, pair's columns, the desk's table count ---------------


def test_show_says_each_stage_declared_or_not_as_the_json_does(event):
    code, out, _ = event("tournament", "show", "t-s")
    line = next(ln for ln in out.splitlines() if ln.startswith("matches:"))
    assert line.startswith("matches: Swiss best of three (declared by the organizer); top cut best of three "
                           "(undeclared: default for optcg")
    fmt = json.loads(event("tournament", "show", "t-s", "--json")[1])["match_format"]
    assert fmt["swiss"]["declared"] is True and fmt["elimination"]["declared"] is False


def test_pair_prints_the_columns_pairings_prints_and_top_cut_rounds_by_name(run):
    assert run("tournament", "new", "--name", "Cut", "--game", "optcg", "--rounds", "1", "--top-cut", "4",
               "--seed", "3", "--id", "t-c")[0] == 0
    run("tournament", "register", "t-c", "Ann", "Bob", "Cid", "Dee")
    code, out, _ = run("tournament", "pair", "t-c")
    header = out.splitlines()[1].split()
    assert header == ["table", "player1", "player2"]
    assert run("tournament", "pairings", "t-c")[1].splitlines()[1].split()[:3] == header  # (+ result)
    for table in (1, 2):
        assert run("tournament", "result", "t-c", "1-0-0", "--table", str(table))[0] == 0
    assert run("tournament", "top-cut", "t-c")[0] == 0
    code, out, err = run("tournament", "result", "t-c", "2-0-0", "--table", "1")
    assert code == 0, err
    assert out.startswith("Semifinals (round 2) table 1: "), out
    assert "round 1 table" not in out
    events = run("events", "t-c")[1]
    assert "Semifinals (round 2) table 1: " in events and "round 1 table 1: " in events


def test_results_names_a_top_cut_round(tmp_path, capsys, monkeypatch):
    import io
    db = str(tmp_path / "r.db")

    def run(*args, stdin=""):
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = run_guarded(cli, ["--db", db, "--by", "t", *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    run("tournament", "new", "--name", "Cut", "--game", "optcg", "--rounds", "1", "--top-cut", "4",
        "--seed", "3", "--id", "t-c")
    run("tournament", "register", "t-c", "Ann", "Bob", "Cid", "Dee")
    run("tournament", "pair", "t-c")
    code, out, err = run("tournament", "results", "t-c", stdin="1 1-0\n2 1-0\n")
    assert code == 0 and out.strip().endswith("2 recorded (round 1); every table has a result"), (out, err)
    run("tournament", "top-cut", "t-c")
    code, out, err = run("tournament", "results", "t-c", stdin="1 2-0\n2 2-1\n")
    assert code == 0 and out.strip().endswith("2 recorded (Semifinals, round 2); every table has a result"), (out, err)
