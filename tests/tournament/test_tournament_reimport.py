"""A tournament's JSONL export imported again, as a match's is: into the log that holds it
("already in the log"), into a log holding an earlier export ("resumed"), or refused naming the
line that differs. And a tournament id's prefix given to a match command: "is a tournament"."""
from __future__ import annotations

import json

BACKENDS = ("sqlite",)  # nothing here depends on the backend (tests/conftest.py)


def new_tournament(run, tid, *, db_path=None, players=("Ann", "Bob", "Cid", "Dee")):
    kw = {"db_path": db_path} if db_path else {}
    assert run("tournament", "new", "--name", f"Again {tid}", "--game", "optcg", "--best-of", "3",
               "--rounds", "2", "--seed", "1", "--id", tid, **kw)[0] == 0
    assert run("tournament", "register", tid, *players, **kw)[0] == 0


def export(run, tid, path, **kw):
    code, _, err = run("export", tid, "-o", str(path), **kw)
    assert code == 0, err
    return path.read_text(encoding="utf-8").splitlines()


def test_a_tournaments_export_imported_into_its_own_log_is_already_there(run, tmp_path):
    new_tournament(run, "t-s")
    lines = export(run, "t-s", tmp_path / "t.jsonl")
    code, out, err = run("import", str(tmp_path / "t.jsonl"))
    assert code == 0, err
    assert "already in the log" in out and "tournament t-s" in out and "nothing stored" in out
    code, out, err = run("import", str(tmp_path / "t.jsonl"), "--json")
    assert code == 0, err
    r = json.loads(out)
    assert r["status"] == "already in the log" and r["events"] == 0 and r["already_in_log"] == len(lines)
    assert r["stream"] == "tournament"
    assert export(run, "t-s", tmp_path / "after.jsonl") == lines  # nothing stored


def test_a_later_export_resumes_a_log_holding_the_earlier_one(run, tmp_path):
    other = str(tmp_path / "other.db")
    new_tournament(run, "t-s")
    early = export(run, "t-s", tmp_path / "early.jsonl")
    code, out, err = run("import", str(tmp_path / "early.jsonl"), db_path=other)
    assert code == 0 and "(new)" in out, err
    assert run("tournament", "pair", "t-s")[0] == 0  # events after the first export
    late = export(run, "t-s", tmp_path / "late.jsonl")
    added = len(late) - len(early)
    assert added >= 1
    code, out, err = run("import", str(tmp_path / "late.jsonl"), db_path=other)
    assert code == 0, err
    assert f"resumed: {len(early)} events were already in the log, {added} appended to tournament t-s" in out
    assert export(run, "t-s", tmp_path / "again.jsonl", db_path=other) == late  # the same chain
    code, out, err = run("verify", "t-s", db_path=other)
    assert code == 0 and "t-s: ok" in out, err
    # the earlier export, into the log that now holds more: nothing stored
    code, out, err = run("import", str(tmp_path / "early.jsonl"), "--json", db_path=other)
    assert code == 0, err
    r = json.loads(out)
    assert r["status"] == "already in the log" and r["log_holds_more"] == added


def test_another_history_of_the_same_tournament_id_is_refused_naming_the_line(run, tmp_path):
    other = str(tmp_path / "other.db")
    new_tournament(run, "t-s")
    new_tournament(run, "t-s", db_path=other, players=("Ann", "Zed", "Cid", "Dee"))
    theirs = export(run, "t-s", tmp_path / "theirs.jsonl", db_path=other)
    # the same events without their envelope times and hashes: compared by content, line 3 differs
    rows = [json.loads(x) for x in theirs]
    for r in rows:
        for key in ("hash", "prev_hash", "recorded_at", "write_id"):
            r.pop(key, None)
    (tmp_path / "bare.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    before = export(run, "t-s", tmp_path / "before.jsonl")
    code, _, err = run("import", str(tmp_path / "bare.jsonl"))
    assert code == 2
    assert "bare.jsonl:3: field 'payload'" in err and "differs from event 3 of tournament t-s" in err, err
    assert "field 'match'" not in err and "imported once" not in err
    # with hashes: refused at its first line (another chain), nothing stored
    code, _, err = run("import", str(tmp_path / "theirs.jsonl"))
    assert code == 2 and "theirs.jsonl:1:" in err and "of tournament t-s" in err, err
    assert export(run, "t-s", tmp_path / "after.jsonl") == before


# --- a tournament id's prefix given to a match command ------------------------------------------

def test_a_tournament_ids_prefix_given_to_a_match_command_says_it_is_a_tournament(run):
    new_tournament(run, "t-abc1")
    new_tournament(run, "t-abd2")
    assert run("match", "new", "--ruleset", "table", "--player", "Ann", "--player", "Bob", "--id", "m-100")[0] == 0
    code, _, err = run("state", "t-abc")
    assert code == 2
    assert err.startswith("error: t-abc1 is a tournament, not a match: ") and "tournament show t-abc1" in err, err
    code, _, err = run("validate", "t-abd")
    assert code == 2 and "t-abd2 is a tournament, not a match" in err, err
    code, _, err = run("state", "t-ab")
    assert code == 2 and "ambiguous" in err and "t-abc1" in err and "t-abd2" in err, err
    code, _, err = run("state", "m-10")  # a match's prefix as before
    assert code == 0, err
    code, _, err = run("state", "zz-nothing")
    assert code == 2 and "no match 'zz-nothing'" in err, err


def test_a_tournament_created_by_another_writer_during_the_import_is_a_conflict(run, tmp_path, monkeypatch):
    """The log had no such tournament when the file was read; another writer stores it before the
    import's own write: exit 3 (look and import again, which then compares), nothing doubled."""
    from engine.store import EventStore

    new_tournament(run, "t-s")
    export(run, "t-s", tmp_path / "t.jsonl")
    other = str(tmp_path / "other.db")
    real_create = EventStore.create

    def another_writer_first(self, stream, drafts, **kw):
        monkeypatch.setattr(EventStore, "create", real_create)
        real_create(self, stream, drafts, **kw)  # the other writer, with the same events
        return real_create(self, stream, drafts, **kw)

    monkeypatch.setattr(EventStore, "create", another_writer_first)
    code, out, err = run("import", str(tmp_path / "t.jsonl"), db_path=other)
    assert code == 3, (code, out, err)
    assert "another writer created this tournament during the import" in err
    code, out, err = run("import", str(tmp_path / "t.jsonl"), db_path=other)
    assert code == 0 and "already in the log" in out, err
