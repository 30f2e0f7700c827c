"""JSONL import: all or nothing, errors naming file, line and field; export/import round trip."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.match import InputError, Match
from engine.store import EventStore
from judge.io.exporters import exporter
from judge.io.importers.jsonl import import_file

from tests.conftest import FIXTURES, ROOT, run_cli

GOOD = [
    {"kind": "match.created", "payload": {"ruleset": "table", "players": ["Ann", "Bob"]}},
    {"kind": "setup", "payload": {"player": "Ann", "zone": "deck", "count": 10}},
    {"kind": "turn", "actor": "Ann", "payload": {"player": "Ann"}},
    {"kind": "draw", "actor": "Ann", "payload": {"player": "Ann", "count": 2}},
]


def write_jsonl(path, objs) -> str:
    with open(path, "w", encoding="utf-8") as f:
        for o in objs:
            f.write((o if isinstance(o, str) else json.dumps(o)) + "\n")
    return str(path)


def snapshot_of(db: str) -> list:
    """Everything the log holds, for before/after comparisons."""
    store = EventStore.open(db)
    try:
        return [(e.match, e.position, e.hash) for _, e in store.notifications(1, 10**6)]
    finally:
        store.close()


def test_imports_a_new_match(tmp_path, sqlite_path):
    store = EventStore.open(sqlite_path)
    s = import_file(store, write_jsonl(tmp_path / "g.jsonl", GOOD))
    assert s.created and s.events == 4 and s.findings == 0
    assert Match.open(store, s.match).state().zone("Ann", "hand")[0].code is None


@pytest.mark.parametrize("line, field, words", [
    ('{"kind": "draw", "payload": {"player": "Cat"}}', "payload.player", "unknown player 'Cat'"),
    ('{"kind": "draw", "payload": {"player": "Ann", "count": "two"}}', "payload.count", "whole number"),
    ('{"kind": "teleport", "payload": {}}', "kind", "unknown event kind"),
    ('{"kind": "draw", "actor": "Zed", "payload": {"player": "Ann"}}', "actor", "unknown actor"),
    ('{"kind": "draw", "payload": {"player": "Ann"}, "colour": 1}', "colour", "unknown field"),
    ('{"kind": "draw", "payload": {"player": "Ann", "extra": 1}}', "payload.extra", "no field"),
    ('{"kind": "move", "payload": {"player": "Ann", "from_zone": "sky", "to_zone": "hand"}}',
     "payload.from_zone", "unknown zone"),
    ('{"kind": "draw", "payload": {"player": "Ann"}', "", "not valid JSON"),
    ('[1, 2]', "", "JSON object"),
    ('{"kind": "correction", "payload": {"voids": 99, "reason": "x"}}', "payload.voids", "events 1..3"),
])
def test_malformed_line_names_file_line_field_and_stores_nothing(tmp_path, sqlite_path, line, field, words):
    store = EventStore.open(sqlite_path)
    Match.create(store, "table", ["Ann", "Bob"], match_id="existing")
    before = snapshot_of(sqlite_path)
    objs = GOOD[:3] + [line] + GOOD[3:]
    path = write_jsonl(tmp_path / "bad.jsonl", objs)
    with pytest.raises(InputError) as err:
        import_file(store, path)
    msg = str(err.value)
    assert f"{path}:4" in msg and words in msg
    assert err.value.field == field
    assert snapshot_of(sqlite_path) == before


def test_error_in_append_mode_leaves_match_untouched(tmp_path, sqlite_path):
    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"])
    before = snapshot_of(sqlite_path)
    path = write_jsonl(tmp_path / "more.jsonl", [GOOD[1], GOOD[2], {"kind": "draw", "payload": {}}])
    with pytest.raises(InputError, match=r"more.jsonl:3: field 'payload.player'"):
        import_file(store, path, match=m.id)
    assert snapshot_of(sqlite_path) == before
    assert import_file(store, write_jsonl(tmp_path / "ok.jsonl", GOOD[1:]), match=m.id).events == 3


def test_export_then_import_rebuilds_the_identical_chain(tmp_path, sqlite_path):
    store = EventStore.open(sqlite_path)
    s = import_file(store, write_jsonl(tmp_path / "g.jsonl", GOOD))
    m = Match.open(store, s.match)
    m.record("correction", {"voids": 4, "reason": "misrecorded"}, actor="judge:Zoe")
    out = tmp_path / "export.jsonl"
    with open(out, "w") as f:
        exporter("jsonl").export_match(m, f)
    other = EventStore.open(str(tmp_path / "other.db"))
    s2 = import_file(other, str(out))
    assert s2.match == m.id
    assert other.verify(m.id).head_hash == store.verify(m.id).head_hash
    assert Match.open(other, m.id).state().state_hash() == m.state().state_hash()


def test_an_altered_export_is_refused(tmp_path, sqlite_path):
    store = EventStore.open(sqlite_path)
    s = import_file(store, write_jsonl(tmp_path / "g.jsonl", GOOD))
    lines = [json.loads(line) for line in open_export(store, s.match, tmp_path)]
    lines[3]["payload"]["count"] = 1  # someone "fixes" the draw after the fact
    path = write_jsonl(tmp_path / "altered.jsonl", lines)
    other_db = str(tmp_path / "other.db")
    with pytest.raises(InputError, match=r"altered.jsonl:4: field 'hash': event 4: its hash differs"):
        import_file(EventStore.open(other_db), path)
    assert snapshot_of(other_db) == []


def open_export(store, match_id, tmp_path):
    out = tmp_path / "e.jsonl"
    with open(out, "w") as f:
        exporter("jsonl").export_match(Match.open(store, match_id), f)
    return open(out).read().splitlines()


def test_killed_import_leaves_log_as_before_or_complete(tmp_path):
    """A process killed mid-import must leave the log exactly as before, or fully imported."""
    db = str(tmp_path / "kill.db")
    n = 30000
    objs = [GOOD[0], {"kind": "setup", "payload": {"player": "Ann", "zone": "deck", "count": n}}]
    objs += [{"kind": "note", "payload": {"text": f"n{i}"}} for i in range(n)]
    path = write_jsonl(tmp_path / "big.jsonl", objs)
    EventStore.open(db).close()
    outcomes = set()
    for delay in (0.3, 0.6, 0.9, 1.2):
        proc = subprocess.Popen([sys.executable, "-m", "judge", "--db", db, "import", path],
                                cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        counts = EventStore.open(db).event_counts()
        assert all(c == n + 2 for c in counts.values()), counts  # never a partial match
        outcomes.add(len(counts))
    store = EventStore.open(db)
    for mid in store.match_ids():
        assert store.verify(mid).ok


# --- numbers too large to read (QA71 item 12) ------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(number=st.one_of(st.integers(309, 99_999).map(lambda e: f"1e{e}"),
                        st.integers(309, 400).map(lambda e: f"-{e}.5e{e}"),
                        st.integers(4_301, 6_000).map(lambda n: "7" * n)),
       pad=st.integers(0, 5))
def test_a_number_too_large_to_read_is_named_with_its_column_and_field(tmp_path_factory, number, pad):
    """Not "got number inf", not Python's own words cut mid-word: the number, its column, its key."""
    path = tmp_path_factory.mktemp("big") / "big.jsonl"
    head = json.dumps(GOOD[0])
    line = '{"kind": "counter",' + " " * pad + ' "payload": {"name": "life", "player": "Ann", "add": '
    path.write_text(head + "\n" + line + number + "}}\n", encoding="utf-8")
    db = str(path.parent / "b.db")
    with pytest.raises(InputError) as e:
        import_file(EventStore.open(db), str(path))
    message = str(e.value)
    assert e.value.where == f"{path}:2" and e.value.field == "add", message
    assert f"at column {len(line) + 1} is too" in message, message
    assert "inf" not in message and "Exceeds" not in message and "sys." not in message
    assert snapshot_of(db) == []


# --- fuzz corpus and property test -------------------------------------------------------------

FUZZ_DIR = os.path.join(FIXTURES, "jsonl", "fuzz")


@pytest.mark.parametrize("name", sorted(os.listdir(FUZZ_DIR)))
def test_fuzz_corpus_imports_or_fails_cleanly(tmp_path, name):
    db = str(tmp_path / "f.db")
    store = EventStore.open(db)
    before = snapshot_of(db)
    try:
        s = import_file(store, os.path.join(FUZZ_DIR, name))
    except InputError as e:
        assert name in str(e)  # the message names the file
        assert snapshot_of(db) == before
    else:
        assert store.verify(s.match).ok


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def corrupted(raw: bytes, data, *, times: int, dup: int) -> bytearray:
    """`raw` damaged 1 to `times` times, each a byte flipped, the rest cut off (a byte always
    left) or up to `dup` bytes repeated, as hypothesis draws them."""
    out = bytearray(raw)
    for _ in range(data.draw(st.integers(1, times))):
        op = data.draw(st.sampled_from(["flip", "cut", "dup"]))
        i = data.draw(st.integers(0, len(out) - 1))
        if op == "flip":
            out[i] = data.draw(st.integers(0, 255))
        elif op == "cut":
            del out[max(i, 1):]
        else:
            out[i:i] = out[i:i + data.draw(st.integers(1, dup))]
    return out


@given(data=st.data())
def test_random_corruption_never_crashes_or_stores_part(tmp_path_factory, data):
    tmp = tmp_path_factory.mktemp("prop")
    text = "\n".join(json.dumps(o) for o in GOOD) + "\n"
    raw = corrupted(text.encode(), data, times=4, dup=20)
    path = tmp / "c.jsonl"
    path.write_bytes(bytes(raw))
    db = str(tmp / "c.db")
    store = EventStore.open(db)
    try:
        s = import_file(store, str(path))
    except InputError:
        assert snapshot_of(db) == []
    else:
        assert store.verify(s.match).ok
        assert store.event_counts()[s.match] == s.events


def test_cli_import_error_exit_code_and_message(tmp_path):
    db = str(tmp_path / "cli.db")
    path = write_jsonl(tmp_path / "bad.jsonl", GOOD[:2] + ['{"kind": "draw", "payload": {"player": 7}}'])
    r = run_cli("import", path, db=db)
    assert r.returncode == 2
    assert f"{path}:3: field 'payload.player': must be a player name" in r.stderr
    r = run_cli("matches", "--json", db=db)
    assert json.loads(r.stdout) == []


def test_cli_imports_a_folder_with_summary(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(3):
        write_jsonl(folder / f"g{i}.jsonl", GOOD)
    write_jsonl(folder / "broken.jsonl", GOOD[:1] + ["{"])
    db = str(tmp_path / "f.db")
    r = run_cli("import", str(folder), "--json", db=db)
    assert r.returncode == 2  # one file failed
    out = json.loads(r.stdout)
    assert len(out["imported"]) == 3 and len(out["failed"]) == 1
    assert "broken.jsonl:2" in out["failed"][0]["error"]
    assert random.choice(out["imported"])["events"] == 4


def test_ctrl_c_during_a_folder_import_says_what_was_stored(tmp_path):
    """SIGINT while a big file is being read: the files before it are imported (and listed), that
    file stores nothing, exit 130, and the message says so instead of a bare 'aborted'.

    The signal is timed from the outside (the small file seen in the log, then a pause): on a
    loaded machine the big file was once done before it landed (a fresh-clone CI, 2026-11-27). So
    a run the signal missed is tried again, sooner and with a bigger file; the times are said if
    every try missed."""
    missed = []
    for attempt, (n, pause) in enumerate(((150_000, 0.3), (300_000, 0.1), (300_000, 0.0))):
        folder = tmp_path / f"logs{attempt}"
        folder.mkdir()
        write_jsonl(folder / "a-small.jsonl", GOOD)
        big = [GOOD[0], {"kind": "setup", "payload": {"player": "Ann", "zone": "deck", "count": 5}}]
        big += [{"kind": "note", "payload": {"text": f"n{i}"}} for i in range(n)]
        write_jsonl(folder / "b-big.jsonl", big)
        db = str(tmp_path / f"i{attempt}.db")
        EventStore.open(db).close()
        started = time.time()
        # SIGINT as a terminal leaves it: a suite started in the background by a shell without job
        # control (`bash .ci/run &`) passes SIGINT on ignored, and Python keeps an ignored SIGINT
        # ignored (the two CI runs that "missed": the import ran 3-6 s past the signal)
        proc = subprocess.Popen([sys.executable, "-m", "judge", "--db", db, "import", str(folder)],
                                cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        store = EventStore.open(db)
        deadline = time.time() + 60
        while not store.match_ids() and time.time() < deadline:  # wait until the small file is in
            time.sleep(0.05)
        seen = time.time()
        time.sleep(pause)  # now reading the big one
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        store.close()
        if proc.returncode != 0:
            break
        missed.append(f"{n} lines, small file seen at {seen - started:.2f} s, signal {pause} s later, "
                      f"done at {time.time() - started:.2f} s")
    else:
        pytest.skip("the big file was imported before the signal arrived, in every try: " + "; ".join(missed))
    counts = EventStore.open(db).event_counts()
    assert proc.returncode == 130, (out, err)
    assert sorted(counts.values()) in ([4], [4, n + 2])  # never a partial file
    assert "a-small.jsonl" in out and "interrupted" in err and "Traceback" not in err


@pytest.mark.parametrize("workers", [0, 2])
def test_an_import_refuses_a_scorekeepers_void_over_a_judges_correction(tmp_path, workers):
    """QA76 #2: every input path refuses alike (the validator): a file's scorekeeper voiding an
    event a judge's correction in the same file replaced, or onto a match whose log holds it."""
    judged = {"kind": "correction", "actor": "judge:Zoe", "payload": {"voids": 2, "reason": "9 cards", "instead": {
        "actor": "-", "payload": {"player": "Ann", "zone": "deck", "count": 9}}}}
    over = {"kind": "correction", "actor": "scorekeeper:Sam", "payload": {"voids": 2, "reason": "hmm"}}
    # with workers: the judge's line in the main process's chunk, the scorekeeper's in a worker's
    filler = [{"kind": "note", "payload": {"text": f"n{i}"}} for i in range(5_100)] if workers else []
    db = str(tmp_path / "log.db")
    store = EventStore.open(db)
    path = write_jsonl(tmp_path / "a.jsonl", GOOD + [judged] + filler + [over])
    with pytest.raises(InputError, match="event 2 was replaced by judge Zoe's correction") as got:
        import_file(store, path, workers=workers or None)
    assert got.value.field == "payload.voids"
    done = import_file(store, write_jsonl(tmp_path / "b.jsonl", GOOD + [judged]))
    with pytest.raises(InputError, match="only a judge can correct it again"):
        import_file(store, write_jsonl(tmp_path / "c.jsonl", [over]), match=done.match)


def test_an_import_onto_a_match_reads_its_corrections_once(tmp_path, monkeypatch):
    """Review: each correction line (one without a hash: a new one, checked against the judge's
    corrections that stand) read the log again from its target on: k corrections, k reads, where a
    batch reads once. Now the log's corrections are read at the first line that asks, and not at
    all when no line is a correction; each line still sees the judge's correction in the log."""
    store = EventStore.open(str(tmp_path / "log.db"))
    notes = [{"kind": "note", "payload": {"text": f"n{i}"}} for i in range(6)]  # events 5..10
    judged = {"kind": "correction", "actor": "judge:Zoe", "payload": {"voids": 5, "reason": "r"}}  # 11
    mid = import_file(store, write_jsonl(tmp_path / "a.jsonl", GOOD + notes + [judged])).match
    spans: list[tuple] = []
    for name in ("read", "read_kinds"):
        real = getattr(store, name)

        def spy(*a, _real=real, **kw):
            got = _real(*a, **kw)
            if len(got) > 1 or (got and got[0].position != kw.get("upto")):  # not kind_at's one event
                spans.append((a[1:], kw))
            return got

        monkeypatch.setattr(store, name, spy)

    def reads(targets: range) -> int:
        spans.clear()
        fixes = [{"kind": "correction", "actor": "judge:Kim", "payload": {"voids": p, "reason": "r"}} for p in targets]
        import_file(store, write_jsonl(tmp_path / f"f{len(targets)}.jsonl", fixes + [notes[0]]), match=mid,
                    judge=False)
        return len(spans)

    none = reads(range(0))  # (what the append itself reads: the stored tail it compares the file with)
    assert [reads(range(6, 7)), reads(range(7, 11))] == [none + 1, none + 1], spans
    head = len(store.read(mid))
    with pytest.raises(InputError, match=r"sam.jsonl:2: .*event 5 was voided by judge Zoe's correction 11"):
        import_file(store, write_jsonl(tmp_path / "sam.jsonl", [notes[0], {
            "kind": "correction", "actor": "scorekeeper:Sam", "payload": {"voids": 5, "reason": "r"}}]), match=mid)
    assert len(store.read(mid)) == head
