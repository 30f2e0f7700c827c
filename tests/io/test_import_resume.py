"""Importing a JSONL file whose match the log already holds: already in the log (all of it, or more),
resumed (the log holds its first events: the rest is appended), or refused where they differ; a
file cut mid-line refused naming its last line; another writer meanwhile is a conflict (exit 3)."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.match import InputError, Match
from engine.store import ConflictError, EventStore
from judge.cli import cli
from judge.cli.common import run_guarded
from judge.io.exporters import exporter
from judge.io.importers.jsonl import import_file

from tests.conftest import run_cli
from tests.io.test_import_jsonl import corrupted, snapshot_of, write_jsonl


def record_source(db: str, match_id: str = "m1", notes: int = 2) -> Match:
    """The first laptop's log: a match with a setup, a draw and `notes` notes."""
    m = Match.create(EventStore.open(db), "table", ["Ann", "Bob"], match_id=match_id)
    m.record("setup", {"player": "Ann", "zone": "deck", "count": 10})
    m.record("draw", {"player": "Ann", "count": 2}, actor="Ann")
    for i in range(notes):
        m.record("note", {"text": f"note {i}"})
    return m


def export(m: Match, path) -> list[str]:
    with open(path, "w", encoding="utf-8") as f:
        exporter("jsonl").export_match(m, f)
    return open(path, encoding="utf-8").read().splitlines()


def first_lines(lines: list[str], n: int, path) -> str:
    return write_jsonl(path, lines[:n])


def heads(db: str, match_id: str) -> tuple[int, str]:
    s = EventStore.open(db)
    try:
        report = s.verify(match_id)
        assert report.ok, report
        head = s.head(match_id)
        return head.position, head.hash
    finally:
        s.close()


def imported(path: str, db: str) -> tuple[int, dict, str]:
    r = run_cli("import", path, "--json", db=db)
    return r.returncode, (json.loads(r.stdout) if r.stdout.strip() else {}), r.stderr


def another_writer_first(monkeypatch, db: str, text: str) -> None:
    """The next append (the import's, after it compared the log) finds that another writer on
    `db` recorded a note just before it."""
    real = EventStore.append_after

    def first(self, match, head, drafts, **kw):
        monkeypatch.setattr(EventStore, "append_after", real)  # once (recording uses it too)
        other = EventStore.open(db)
        Match.open(other, match).record("note", {"text": text})
        other.close()
        return real(self, match, head, drafts, **kw)

    monkeypatch.setattr(EventStore, "append_after", first)


# --- the four cases, through the CLI ---------------------------------------------------------------


def test_the_log_holds_exactly_the_file_already_in_the_log_exit_0(tmp_path):
    a = str(tmp_path / "a.db")
    path = tmp_path / "m1.jsonl"
    export(record_source(a), path)
    before = snapshot_of(a)
    code, out, err = imported(str(path), a)
    assert code == 0, err
    assert (out["status"], out["events"], out["already_in_log"], out["log_holds_more"]) == \
        ("already in the log", 0, 5, 0)
    r = run_cli("import", str(path), db=a)
    assert r.returncode == 0 and r.stdout.strip() == f"{path}: already in the log, match m1: nothing stored"
    # the same export "fixed" after the fact, its hashes left as they were: refused, not "already there"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[2]["payload"]["count"] = 1
    altered = write_jsonl(tmp_path / "altered.jsonl", lines)
    r = run_cli("import", altered, db=a)
    assert r.returncode == 2 and f"{altered}:3: field 'hash': event 3: its hash differs" in r.stderr
    assert snapshot_of(a) == before


def test_the_log_holds_the_first_events_the_rest_is_appended(tmp_path):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    lines = export(record_source(a, notes=3), tmp_path / "m1.jsonl")
    assert imported(first_lines(lines, 2, tmp_path / "part.jsonl"), b)[0] == 0  # the transfer cut short
    r = run_cli("import", str(tmp_path / "m1.jsonl"), db=b)
    assert r.returncode == 0, r.stderr
    assert "resumed: 2 events were already in the log, 4 appended to match m1; 0 findings" in r.stdout
    assert heads(b, "m1") == heads(a, "m1")  # the chain continued from the stored head: the same chain
    code, out, _ = imported(str(tmp_path / "m1.jsonl"), b)  # and now it is all there
    assert code == 0 and out["status"] == "already in the log"


def test_resumed_in_json(tmp_path):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    lines = export(record_source(a), tmp_path / "m1.jsonl")
    imported(first_lines(lines, 1, tmp_path / "one.jsonl"), b)
    code, out, err = imported(str(tmp_path / "m1.jsonl"), b)
    assert code == 0, err
    assert (out["status"], out["already_in_log"], out["events"], out["created"]) == ("resumed", 1, 4, False)
    assert heads(b, "m1") == heads(a, "m1")


def test_the_log_holds_more_than_the_file_already_in_the_log_exit_0(tmp_path):
    a = str(tmp_path / "a.db")
    lines = export(record_source(a), tmp_path / "m1.jsonl")
    part = first_lines(lines, 3, tmp_path / "part.jsonl")
    before = snapshot_of(a)
    code, out, err = imported(part, a)
    assert code == 0, err
    assert (out["status"], out["already_in_log"], out["log_holds_more"]) == ("already in the log", 3, 2)
    r = run_cli("import", part, db=a)
    assert r.returncode == 0
    assert "already in the log (the log holds 2 more events than this file), match m1: nothing stored" in r.stdout
    assert snapshot_of(a) == before


def test_diverging_histories_are_refused_naming_the_line_and_the_stored_event(tmp_path):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    lines = export(record_source(a), tmp_path / "m1.jsonl")
    imported(first_lines(lines, 3, tmp_path / "part.jsonl"), b)
    Match.open(EventStore.open(b), "m1").record("note", {"text": "recorded on the other laptop"})
    before = snapshot_of(b)
    r = run_cli("import", str(tmp_path / "m1.jsonl"), db=b)
    assert r.returncode == 2
    assert f"{tmp_path / 'm1.jsonl'}:4: field 'payload': differs from event 4 of match m1 in the log " \
           "(its payload differs in 'text')" in r.stderr
    assert "two different histories" in r.stderr
    assert snapshot_of(b) == before


def test_a_file_without_hashes_is_compared_by_content(tmp_path):
    db = str(tmp_path / "h.db")
    objs = [{"kind": "match.created", "match": "hand", "payload": {"ruleset": "table", "players": ["Ann", "Bob"]}},
            {"kind": "setup", "payload": {"player": "Ann", "zone": "deck", "count": 10}},
            {"kind": "draw", "actor": "Ann", "payload": {"player": "Ann", "count": 2}}]
    assert imported(write_jsonl(tmp_path / "two.jsonl", objs[:2]), db)[0] == 0
    code, out, err = imported(write_jsonl(tmp_path / "three.jsonl", objs), db)
    assert code == 0, err
    assert (out["status"], out["already_in_log"], out["events"]) == ("resumed", 2, 1)
    objs[1]["payload"]["count"] = 9
    before = snapshot_of(db)
    path = write_jsonl(tmp_path / "other.jsonl", objs)
    r = run_cli("import", path, db=db)
    assert r.returncode == 2
    assert f"{path}:2: field 'payload': differs from event 2 of match hand in the log (its payload differs " \
           "in 'count')" in r.stderr
    assert snapshot_of(db) == before


def test_a_hostile_line_in_the_part_to_append_is_refused_and_nothing_stored(tmp_path):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    lines = export(record_source(a), tmp_path / "m1.jsonl")
    imported(first_lines(lines, 2, tmp_path / "part.jsonl"), b)
    bad = [json.loads(line) for line in lines]
    bad[3]["payload"] = {"text": "x" * 5000}
    path = write_jsonl(tmp_path / "bad.jsonl", bad)
    before = snapshot_of(b)
    r = run_cli("import", path, db=b)
    assert r.returncode == 2 and f"{path}:4: field 'payload.text'" in r.stderr
    assert snapshot_of(b) == before
    assert imported(str(tmp_path / "m1.jsonl"), b)[1]["status"] == "resumed"  # the good file still resumes


# --- a file cut mid-line ------------------------------------------------------------------------


def test_a_file_cut_mid_line_is_refused_naming_its_last_line_then_the_whole_file_resumes(tmp_path):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    path = tmp_path / "m1.jsonl"
    lines = export(record_source(a), path)
    imported(first_lines(lines, 2, tmp_path / "part.jsonl"), b)
    data = path.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[:len("\n".join(lines[:3])) + 1 + len(lines[3]) // 2])  # 3 lines and half the 4th
    before = snapshot_of(b)
    r = run_cli("import", str(cut), db=b)
    assert r.returncode == 2
    assert f"{cut}:4: not valid JSON" in r.stderr and "the file looks cut short" in r.stderr
    assert snapshot_of(b) == before  # not even the three whole lines
    code, out, err = imported(str(path), b)
    assert code == 0 and out["status"] == "resumed" and out["already_in_log"] == 2, err
    assert heads(b, "m1") == heads(a, "m1")


# --- the laptops' round trip ---------------------------------------------------------------------


def test_export_import_record_more_export_again_import_again_resumes(tmp_path):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    m = record_source(a)
    export(m, tmp_path / "first.jsonl")
    assert imported(str(tmp_path / "first.jsonl"), b)[1]["status"] == "created"
    m.record("note", {"text": "after the first transfer"})
    m.record("correction", {"voids": 3, "reason": "misrecorded"}, actor="judge:Zoe")
    export(m, tmp_path / "second.jsonl")
    code, out, err = imported(str(tmp_path / "second.jsonl"), b)
    assert code == 0, err
    assert (out["status"], out["already_in_log"], out["events"]) == ("resumed", 5, 2)
    assert heads(b, "m1") == heads(a, "m1")
    assert Match.open(EventStore.open(b), "m1").state().state_hash() == m.state().state_hash()


# --- a folder --------------------------------------------------------------------------------------


def test_a_folder_says_per_file_resumed_or_already_in_the_log(tmp_path):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    folder = tmp_path / "usb"
    folder.mkdir()
    lines1 = export(record_source(a, "m1"), folder / "m1.jsonl")
    export(record_source(a, "m2"), folder / "m2.jsonl")
    export(record_source(a, "m3"), folder / "m3.jsonl")
    imported(first_lines(lines1, 2, tmp_path / "m1-part.jsonl"), b)  # m1 cut short before
    imported(str(folder / "m2.jsonl"), b)  # m2 already whole
    r = run_cli("import", str(folder), db=b)
    assert r.returncode == 0, r.stderr
    rows = {line.split()[0]: line for line in r.stdout.splitlines()[1:]}
    assert "resumed: 2 events were already in the log" in rows[str(folder / "m1.jsonl")]
    assert rows[str(folder / "m2.jsonl")].endswith("already in the log")
    assert rows[str(folder / "m3.jsonl")].endswith("created")
    out = json.loads(run_cli("import", str(folder), "--json", db=b).stdout)
    assert [row["status"] for row in out["imported"]] == ["already in the log"] * 3 and out["failed"] == []
    for match_id in ("m1", "m2", "m3"):
        assert heads(b, match_id) == heads(a, match_id)


# --- another writer meanwhile: exit 3 --------------------------------------------------------------


def test_another_writer_appending_during_the_import_is_a_conflict_exit_3(tmp_path, monkeypatch, capsys):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    lines = export(record_source(a), tmp_path / "m1.jsonl")
    imported(first_lines(lines, 2, tmp_path / "part.jsonl"), b)
    another_writer_first(monkeypatch, b, "another judge, just now")
    code = run_guarded(cli, ["--db", b, "import", str(tmp_path / "m1.jsonl")])
    err = capsys.readouterr().err
    assert code == 3, err
    assert "conflict on match m1: position 3 was taken by another writer" in err
    monkeypatch.undo()
    assert [e.payload.get("text") for e in EventStore.open(b).read("m1")][2:] == ["another judge, just now"]


def test_a_conflict_in_a_folder_import_fails_that_file_only_the_others_are_listed_exit_3(
        tmp_path, monkeypatch, capsys):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    folder = tmp_path / "usb"
    folder.mkdir()
    lines = export(record_source(a, "m1"), folder / "m1.jsonl")
    export(record_source(a, "m2"), folder / "m2.jsonl")
    imported(first_lines(lines, 2, tmp_path / "part.jsonl"), b)
    real = EventStore.append_after

    def another_writer_first(self, match, head, drafts, **kw):
        monkeypatch.setattr(EventStore, "append_after", real)
        Match.open(EventStore.open(b), match).record("note", {"text": "another judge, just now"})
        return real(self, match, head, drafts, **kw)

    monkeypatch.setattr(EventStore, "append_after", another_writer_first)
    code = run_guarded(cli, ["--db", b, "import", str(folder), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 3
    assert [row["match"] for row in out["imported"]] == ["m2"]
    assert len(out["failed"]) == 1 and "conflict on match m1" in out["failed"][0]["error"]
    assert heads(b, "m2") == heads(a, "m2")


# --- the library, on SQLite and PostgreSQL ----------------------------------------------------------


def test_resume_already_diverge_and_conflict_on_each_backend(tmp_path, db_url, monkeypatch):
    source = record_source(str(tmp_path / "a.db"))
    lines = export(source, tmp_path / "m1.jsonl")
    store = EventStore.open(db_url)
    import_file(store, first_lines(lines, 3, tmp_path / "part.jsonl"))
    s = import_file(store, str(tmp_path / "m1.jsonl"))
    assert (s.events, s.extra["status"], s.extra["already_in_log"]) == (2, "resumed", 3)
    assert store.head("m1").hash == source.store.head("m1").hash and store.verify("m1").ok
    assert import_file(store, str(tmp_path / "m1.jsonl")).extra["status"] == "already in the log"
    source.record("note", {"text": "more"})
    export(source, tmp_path / "m1.jsonl")
    another_writer_first(monkeypatch, db_url, "a writer on this log, just now")
    with pytest.raises(ConflictError, match="position 6 was taken by another writer"):
        import_file(store, str(tmp_path / "m1.jsonl"))
    monkeypatch.undo()
    assert store.head("m1").payload["text"] == "a writer on this log, just now"
    with pytest.raises(InputError, match=r"m1.jsonl:6: field 'payload': differs from event 6 of match m1"):
        import_file(store, str(tmp_path / "m1.jsonl"))
    assert store.head("m1").position == 6
    store.close()


# --- a corrupted export onto a log that holds its start: refused whole, or stored whole ------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_corrupted_export_onto_a_stored_prefix_is_refused_or_continues_the_chain(tmp_path_factory, data):
    tmp = tmp_path_factory.mktemp("prop")
    source = record_source(str(tmp / "a.db"), notes=3)
    lines = export(source, tmp / "m1.jsonl")
    db = str(tmp / "b.db")
    store = EventStore.open(db)
    held = data.draw(st.integers(1, len(lines)))
    import_file(store, first_lines(lines, held, tmp / "part.jsonl"))
    raw = corrupted(("\n".join(lines) + "\n").encode(), data, times=3, dup=40)
    path = tmp / "c.jsonl"
    path.write_bytes(bytes(raw))
    before = snapshot_of(db)
    try:
        s = import_file(store, str(path))
    except InputError as e:
        assert "c.jsonl" in str(e)
        assert snapshot_of(db) == before
    else:
        assert store.verify("m1").ok
        after = snapshot_of(db)
        assert after[:len(before)] == before and len(after) == len(before) + s.events
        if s.events:  # what was appended is the source's own events (the hashes are checked)
            assert store.head("m1").hash == source.store.event_at("m1", len(after)).hash
