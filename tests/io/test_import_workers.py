"""A long JSONL file drafted by worker processes (judge/io/importers/_jsonl_workers.py) imports
exactly as one process would: the same chain, the same refusals (the first bad line in file order,
wherever it was drafted), nothing stored on any refusal. The thresholds are lowered so that small
files cross chunk boundaries (the workers are forked: they see the lowered values)."""
from __future__ import annotations

import json
import os

import pytest

from engine.match import InputError, Match
from engine.store import EventStore
from judge.io.importers import _jsonl_workers
from judge.io.importers.jsonl import import_file

from tests.io.test_import_jsonl import GOOD, open_export, snapshot_of, write_jsonl

REAL_MIN_EVENTS = _jsonl_workers.MIN_EVENTS  # (before the fixture below lowers it in this process)
N = 230  # events after match.created: the main process's chunk and several workers' chunks


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch):
    monkeypatch.setattr(_jsonl_workers, "MIN_EVENTS", 50)
    monkeypatch.setattr(_jsonl_workers, "CHUNK", 40)


def game(n: int = N) -> list[dict]:
    """A table game: a deck, draws, notes, and corrections that name events in earlier chunks."""
    objs = [GOOD[0], {"kind": "setup", "payload": {"player": "Ann", "zone": "deck", "count": 100}}]
    while len(objs) - 1 < n:
        i = len(objs) + 1  # the position this line will have
        if i % 37 == 0:
            objs.append({"kind": "correction", "actor": "judge:Zoe",
                         "payload": {"voids": i - 35, "reason": f"misrecorded {i - 35}"}})
        elif i % 5 == 0:
            objs.append({"kind": "draw", "actor": "Ann", "payload": {"player": "Ann", "count": 1}})
        else:
            objs.append({"kind": "note", "payload": {"text": f"note {i} ✓ 鈴木"}})
    return objs


def stored(db: str, match_id: str) -> list[tuple]:
    store = EventStore.open(db)
    try:
        assert store.verify(match_id).ok
        return [(e.position, e.kind, e.actor, e.payload, e.recorded_by) for e in store.read(match_id)]
    finally:
        store.close()


def test_pool_size():
    assert _jsonl_workers.pool_size(None, 49) == 0  # a short file: no process started
    assert _jsonl_workers.pool_size(0, 10_000) == 0
    assert _jsonl_workers.pool_size(3, 10_000) == 3
    assert _jsonl_workers.pool_size(64, 10_000) == _jsonl_workers.MAX_WORKERS
    cpus = os.cpu_count() or 1
    assert _jsonl_workers.pool_size(None, 10_000) == (min(_jsonl_workers.MAX_WORKERS, cpus) if cpus > 1 else 0)


@pytest.mark.parametrize("workers", [1, 3])
def test_workers_store_what_one_process_stores(tmp_path, workers):
    path = write_jsonl(tmp_path / "g.jsonl", game())
    one, many = str(tmp_path / "one.db"), str(tmp_path / "many.db")
    a = import_file(EventStore.open(one), path, recorded_by="bench", workers=0)
    b = import_file(EventStore.open(many), path, recorded_by="bench", workers=workers)
    assert a.events == b.events == N + 1
    assert a.findings == b.findings
    assert stored(one, a.match) == stored(many, b.match)
    # the corrections' targets were checked across chunks: each voids the event it names
    assert Match.open(EventStore.open(many), b.match).state().position == N + 1


def test_an_export_imported_by_workers_is_the_identical_chain(tmp_path):
    src = str(tmp_path / "src.db")
    first = import_file(EventStore.open(src), write_jsonl(tmp_path / "g.jsonl", game()), workers=0)
    lines = open_export(EventStore.open(src), first.match, tmp_path)
    path = write_jsonl(tmp_path / "export.jsonl", lines)
    dst = str(tmp_path / "dst.db")
    again = import_file(EventStore.open(dst), path, workers=2)
    assert again.events == N + 1
    assert snapshot_of(dst) == snapshot_of(src)  # every hash the same: the export's own
    assert open_export(EventStore.open(dst), first.match, tmp_path) == lines


@pytest.mark.parametrize("bad_positions", [[150], [30, 150], [150, 200], [200, 229]])
def test_the_first_bad_line_in_file_order_is_reported_and_nothing_stored(tmp_path, bad_positions):
    """Lines 30 (the main process's chunk), 150 and 200 (workers' chunks): the earliest is said."""
    objs = game()
    for p in bad_positions:
        objs[p - 1] = {"kind": "draw", "actor": "Ann", "payload": {"player": "Zed", "count": 1}}
    path = write_jsonl(tmp_path / "bad.jsonl", objs)
    db = str(tmp_path / "log.db")
    EventStore.open(db).close()
    with pytest.raises(InputError) as e:
        import_file(EventStore.open(db), path, workers=2)
    assert e.value.where == f"{path}:{bad_positions[0]}"
    assert e.value.field == "payload.player"
    assert snapshot_of(db) == []


def test_a_correction_naming_a_later_event_is_refused_in_a_worker(tmp_path):
    objs = game()
    objs[180] = {"kind": "correction", "actor": "judge:Zoe", "payload": {"voids": 200, "reason": "x"}}
    path = write_jsonl(tmp_path / "bad.jsonl", objs)
    with pytest.raises(InputError) as e:
        import_file(EventStore.open(str(tmp_path / "log.db")), path, workers=2)
    assert e.value.where == f"{path}:181" and "event 200" in e.value.message


def test_a_correction_of_a_correction_is_refused_across_chunks(tmp_path):
    """Event 37 is a correction (the main process's chunk); voiding it from a worker's chunk is
    refused as one process refuses it."""
    objs = game()
    objs[160] = {"kind": "correction", "actor": "judge:Zoe", "payload": {"voids": 37, "reason": "x"}}
    path = write_jsonl(tmp_path / "bad.jsonl", objs)
    errors = []
    for workers in (0, 2):
        with pytest.raises(InputError) as e:
            import_file(EventStore.open(str(tmp_path / f"log{workers}.db")), path, workers=workers)
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "itself a correction" in errors[0]


def test_an_altered_line_in_a_workers_chunk_fails_the_hash_check(tmp_path):
    src = str(tmp_path / "src.db")
    first = import_file(EventStore.open(src), write_jsonl(tmp_path / "g.jsonl", game()), workers=0)
    lines = open_export(EventStore.open(src), first.match, tmp_path)
    obj = json.loads(lines[200])  # event 201, a note
    obj["payload"]["text"] = "altered"
    lines[200] = json.dumps(obj)
    db = str(tmp_path / "dst.db")
    EventStore.open(db).close()
    with pytest.raises(InputError) as e:
        import_file(EventStore.open(db), write_jsonl(tmp_path / "x.jsonl", lines), workers=2)
    assert e.value.field == "hash" and e.value.where.endswith(":201")
    assert snapshot_of(db) == []


def test_a_file_cut_in_a_workers_chunk_says_so(tmp_path):
    path = write_jsonl(tmp_path / "g.jsonl", game())
    text = open(path, encoding="utf-8").read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:-15])  # the last line cut mid-way, no line break at the end
    with pytest.raises(InputError) as e:
        import_file(EventStore.open(str(tmp_path / "log.db")), path, workers=2)
    assert e.value.where == f"{path}:{N + 1}" and "cut short" in e.value.message


def _die(start: int, stop: int) -> None:
    os._exit(9)  # a worker killed (out of memory, kill -9)


def test_a_worker_that_dies_stores_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(_jsonl_workers, "_draft_chunk", _die)
    path = write_jsonl(tmp_path / "g.jsonl", game())
    db = str(tmp_path / "log.db")
    EventStore.open(db).close()
    with pytest.raises(InputError) as e:
        import_file(EventStore.open(db), path, workers=2)
    assert "worker process" in e.value.message and "nothing was stored" in e.value.message
    assert snapshot_of(db) == []


def test_on_either_backend_workers_store_the_file_and_a_refusal_stores_nothing(db_url, tmp_path):
    """PostgreSQL gathers the workers' batches and stores them whole; SQLite inserts each as it comes."""
    path = write_jsonl(tmp_path / "g.jsonl", game())
    store = EventStore.open(db_url)
    try:
        s = import_file(store, path, recorded_by="bench", workers=2)
        assert s.events == N + 1 and s.extra["workers"] == 2
        assert store.verify(s.match).ok
        objs = game()
        objs[199] = {"kind": "draw", "actor": "Ann", "payload": {"player": "Zed", "count": 1}}
        before = store.event_counts()
        with pytest.raises(InputError) as e:
            import_file(store, write_jsonl(tmp_path / "bad.jsonl", objs), workers=2)
        assert e.value.where.endswith(":200")
        assert store.event_counts() == before
    finally:
        store.close()


def test_cli_import_with_workers(tmp_path):
    """`tablejudge import FILE --workers 2` as a user runs it (a file past the real threshold)."""
    from tests.conftest import run_cli

    objs = [GOOD[0]] + [{"kind": "note", "payload": {"text": f"n{i}"}} for i in range(REAL_MIN_EVENTS + 10)]
    path = write_jsonl(tmp_path / "long.jsonl", objs)
    db = str(tmp_path / "log.db")
    r = run_cli("import", path, "--workers", "2", "--json", db=db)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["events"] == len(objs) and out["workers"] == 2 and out["findings"] == 0
    store = EventStore.open(db)
    assert store.verify(out["match"]).ok


def test_ctrl_c_and_kill_during_an_import_with_workers_leave_no_worker_and_nothing_stored(tmp_path):
    """A user's Ctrl-C (SIGINT to the process group, as a terminal sends it) and a kill -9 of the
    importing process: the log holds the match whole or not at all, and no worker outlives it."""
    import signal
    import subprocess
    import sys
    import time

    from tests.conftest import ROOT

    objs = [GOOD[0]] + [{"kind": "note", "payload": {"text": f"n{i} " + "x" * 200}} for i in range(60_000)]
    path = write_jsonl(tmp_path / "long.jsonl", objs)
    for how, delay in (("int", 0.8), ("kill", 0.8), ("int", 1.5)):
        db = str(tmp_path / f"{how}{delay}.db")
        EventStore.open(db).close()
        proc = subprocess.Popen([sys.executable, "-m", "judge", "--db", db, "import", path, "--workers", "2"],
                                cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), start_new_session=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT) if how == "int" else proc.kill()
        out, err = proc.communicate(timeout=60)
        counts = EventStore.open(db).event_counts()
        assert all(c == len(objs) for c in counts.values()), counts  # whole, or not at all
        if how == "int" and not counts:
            assert proc.returncode == 130 and "Traceback" not in err, err
        deadline = time.time() + 10
        while time.time() < deadline:  # the process group: the importer and its workers
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            pytest.fail(f"a worker outlived the import ({how} after {delay} s)")
