"""Benchmarks of the log against raw sqlite3, measured in the same run, on the same disk, with the
same durability settings (WAL journal, SQLite's default synchronous=FULL, the same table shape as
the eventsourcing recorder's). Medians of repeated runs; ratios are what to read.

- live_append_ratio: tablejudge `Match.record` (validate input, judge the move, hash, insert, one
  transaction per event) vs raw single-row INSERT + COMMIT. Goal >= 0.5.
- import_ratio: importing a 20,000-event JSONL file (parse, validate every line against the
  schema, hash, one transaction) vs raw: read lines + json.loads + executemany in one transaction.
  Goal >= 0.3. The CLI then also judges what it imported (a full replay with checks), reported
  apart as import_then_validate_events_per_s.
- state_at_ms: state after event 19,000 of 20,000, from a fresh process (open the log, find the
  match, load the nearest snapshot, replay the rest); median of fresh processes. Goal <= 5 ms.
- replay_ratio: a full replay of 20,000 events (no snapshots) vs raw SELECT + json.loads of the
  same rows. Goal <= 4.
"""
from __future__ import annotations

import json
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from engine.match import Match  # noqa: E402
from engine.replay import Replayer  # noqa: E402
from engine.store import EventStore  # noqa: E402
from judge.io.importers.jsonl import import_file

PLAYERS = ["Ann", "Bob"]
CREATE_RAW = ("CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER, "
              "topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))")


def synthetic_game(n: int, seed: int = 7) -> list[dict]:
    """A long, legal table game: decks, turns, draws, plays, trashes, recycling, Life, notes. The
    generator tracks zone sizes so every move is possible (a state that stays game-sized)."""
    rng = random.Random(seed)
    lines = [{"kind": "match.created", "payload": {"ruleset": "table", "players": PLAYERS}}]
    size = {p: {"deck": 50, "hand": 0, "field": 0, "trash": 0} for p in PLAYERS}
    for p in PLAYERS:
        lines.append({"kind": "setup", "payload": {"player": p, "zone": "deck", "count": 50}})
    turn = 0

    def move(p: str, a: str, b: str, **extra) -> None:
        size[p][a] -= 1
        size[p][b] += 1
        lines.append({"kind": "move", "actor": p, "payload": {"player": p, "from_zone": a, "to_zone": b, **extra}})

    while len(lines) < n:
        turn += 1
        p = PLAYERS[turn % 2]
        lines.append({"kind": "turn", "actor": p, "payload": {"player": p, "number": turn}})
        if size[p]["deck"] < 5:
            for _ in range(size[p]["trash"]):
                move(p, "trash", "deck", to_where="bottom")
            lines.append({"kind": "shuffle", "actor": p, "payload": {"player": p, "zone": "deck"}})
        if size[p]["deck"]:
            size[p]["deck"] -= 1
            size[p]["hand"] += 1
            lines.append({"kind": "draw", "actor": p, "payload": {
                "player": p, "count": 1, "cards": [f"OP01-{rng.randint(1, 120):03d}"]}})
        for _ in range(rng.randint(2, 8)):
            r = rng.random()
            if r < 0.35 and size[p]["hand"] and size[p]["field"] < 6:
                move(p, "hand", "field")
            elif r < 0.6 and size[p]["field"]:
                move(p, "field", "trash")
            elif r < 0.7 and size[p]["deck"] > 1:
                move(p, "deck", "hand")
            elif r < 0.9:
                lines.append({"kind": "counter", "actor": p, "payload": {
                    "player": PLAYERS[(turn + 1) % 2], "name": "life", "add": rng.choice([-1, 1])}})
            else:
                lines.append({"kind": "note", "payload": {"text": f"turn {turn}: effect resolved"}})
    return lines[:n]


def _raw_db(path: str) -> sqlite3.Connection:
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL")
    c.execute(CREATE_RAW)
    return c


def bench_live_append(tmp: str, n: int = 400, rounds: int = 3) -> dict:
    lines = synthetic_game(n + 3)
    ours, raw = [], []
    for r in range(rounds):
        store = EventStore.open(os.path.join(tmp, f"live{r}.db"))
        m = Match.create(store, "table", PLAYERS, recorded_by="bench")
        body = lines[1:n + 1]
        t0 = time.perf_counter()
        for line in body:
            m.record(line["kind"], line["payload"], actor=line.get("actor", "-"), recorded_by="bench")
        ours.append(n / (time.perf_counter() - t0))
        store.close()

        c = _raw_db(os.path.join(tmp, f"liveraw{r}.db"))
        payloads = [json.dumps(line).encode() for line in body]
        t0 = time.perf_counter()
        for i, data in enumerate(payloads, start=2):
            c.execute("BEGIN")
            c.execute("INSERT INTO stored_events VALUES (?,?,?,?)", ("m", i, "k", data))
            c.execute("COMMIT")
        raw.append(n / (time.perf_counter() - t0))
        c.close()
    o, w = statistics.median(ours), statistics.median(raw)
    return {"live_append_events_per_s": round(o), "raw_single_commit_events_per_s": round(w),
            "live_append_ratio": round(o / w, 3)}


def bench_import(tmp: str, n: int = 20000, rounds: int = 3) -> tuple[dict, str, str]:
    path = os.path.join(tmp, "game.jsonl")
    with open(path, "w") as f:
        for line in synthetic_game(n):
            f.write(json.dumps(line) + "\n")
    ours, raw = [], []
    db = match = ""
    for r in range(rounds):
        db = os.path.join(tmp, f"import{r}.db")
        store = EventStore.open(db)
        t0 = time.perf_counter()
        summary = import_file(store, path, recorded_by="bench", judge=False)
        ours.append(n / (time.perf_counter() - t0))
        match = summary.match
        store.close()
        if r == 0:  # the CLI's default also validates what it imported: measured apart
            t0 = time.perf_counter()
            judged = import_file(EventStore.open(os.path.join(tmp, "judged.db")), path, recorded_by="bench")
            with_findings = n / (time.perf_counter() - t0)
            assert judged.findings == 0

        c = _raw_db(os.path.join(tmp, f"importraw{r}.db"))
        t0 = time.perf_counter()
        with open(path) as f:
            rows = [("m", i, obj["kind"], json.dumps(obj).encode())
                    for i, obj in enumerate((json.loads(line) for line in f), start=1)]
        c.execute("BEGIN")
        c.executemany("INSERT INTO stored_events VALUES (?,?,?,?)", rows)
        c.execute("COMMIT")
        raw.append(n / (time.perf_counter() - t0))
        c.close()
    o, w = statistics.median(ours), statistics.median(raw)
    return ({"import_events_per_s": round(o), "raw_executemany_events_per_s": round(w),
             "import_ratio": round(o / w, 3),
             "import_then_validate_events_per_s": round(with_findings)}, db, match)


STATE_AT_PROBE = """
import sys, time, json
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
from engine.store import EventStore
from engine.match import Match
import engine.rulesets.table, eventsourcing.sqlite  # module imports are start-up, timed apart
t1 = time.perf_counter()
store = EventStore.open({db!r})
m = Match.open(store, {match!r})
s = m.state(at={at})
t2 = time.perf_counter()
print(json.dumps({{"import_ms": (t1 - t0) * 1000, "state_ms": (t2 - t1) * 1000, "hash": s.state_hash()}}))
"""


def bench_state_at(db: str, match: str, at: int = 19000, runs: int = 7) -> dict:
    code = STATE_AT_PROBE.format(root=ROOT, db=db, match=match, at=at)

    def probe() -> dict:
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        d = json.loads(out.stdout)
        d["process_ms"] = (time.perf_counter() - t0) * 1000
        return d

    first = probe()  # builds the snapshots this log did not have yet
    probes = [probe() for _ in range(runs)]
    assert len({p["hash"] for p in probes + [first]}) == 1, "state hash differs between runs"
    store = EventStore.open(db)
    full = []
    for _ in range(3):
        t0 = time.perf_counter()
        Replayer(store, match).state_at(at, use_snapshots=False, save_snapshots=False)
        full.append((time.perf_counter() - t0) * 1000)
    store.close()
    median = statistics.median(p["state_ms"] for p in probes)
    return {"state_at_ms": round(median, 2), "state_at_first_ms": round(first["state_ms"], 1),
            "state_at_full_replay_ms": round(statistics.median(full), 1),
            "state_at_speedup": round(statistics.median(full) / median, 1),
            "state_at_process_ms": round(statistics.median(p["process_ms"] for p in probes), 1),
            "state_at_python_imports_ms": round(statistics.median(p["import_ms"] for p in probes), 1)}


def bench_replay(db: str, match: str, rounds: int = 5) -> dict:
    store = EventStore.open(db)
    ours, raw = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        s = Replayer(store, match).state_at(use_snapshots=False, save_snapshots=False)
        ours.append(time.perf_counter() - t0)
        c = sqlite3.connect(db)
        t0 = time.perf_counter()
        rows = [json.loads(r[0]) for r in c.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? ORDER BY originator_version", (match,))]
        raw.append(time.perf_counter() - t0)
        c.close()
        assert len(rows) == s.position
    store.close()
    o, w = statistics.median(ours), statistics.median(raw)
    return {"replay_ms": round(o * 1000, 1), "raw_select_json_ms": round(w * 1000, 1),
            "replay_ratio": round(o / w, 2)}


def machine() -> dict:
    return {"python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count(), "sqlite": sqlite3.sqlite_version}


def run(n: int = 20000) -> dict:
    with tempfile.TemporaryDirectory(prefix="tj-bench-", dir=os.environ.get("TJ_BENCH_DIR")) as tmp:
        result = {"machine": machine(), "events": n}
        result.update(bench_live_append(tmp))
        imported, db, match = bench_import(tmp, n)
        result.update(imported)
        result.update(bench_state_at(db, match, at=n - 1000))
        result.update(bench_replay(db, match))
        result["goals"] = {
            "live_append_ratio >= 0.5": result["live_append_ratio"] >= 0.5,
            "import_ratio >= 0.3": result["import_ratio"] >= 0.3,
            "state_at_ms <= 5": result["state_at_ms"] <= 5,
            "replay_ratio <= 4": result["replay_ratio"] <= 4,
        }
        return result
