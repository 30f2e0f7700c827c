"""Many writers at once, in real processes, against raw inserts measured in the same run.

- one match, 16 writers (SQLite and PostgreSQL): `Match.record` without `--expect`, as `tablejudge
  log` does; how many appends ended in a conflict (exit 3; bar < 1%) and the events/s.
- PostgreSQL, 16 writers on 16 matches: events/s of `Match.record`, and its ratio to raw psycopg
  single-row inserts (one commit each, same table shape) by 16 processes on the same server.
- What the eventsourcing PostgreSQL module's per-insert table lock (LOCK TABLE ... IN EXCLUSIVE
  MODE, which keeps notification ids in commit order for read models) costs: the same 16x16 run
  with the lock switched off, in this benchmark only.

The PostgreSQL server is started here like the test suite's (initdb + pg_ctl on loopback, fsync
off, tests/pg.py); without Debian's postgresql binaries those figures are skipped, and said so.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

WRITERS = 16
PER_WRITER = 40


def _record_worker(db: str, matches: list[str], name: str, n: int, no_lock: bool, barrier, out) -> None:
    from engine.match import Match
    from engine.store import ConflictError, EventStore

    store = EventStore.open(db)
    if no_lock:
        store.events._lock_table = lambda curs: None  # the measurement of what the lock costs
    ms = [Match.open(store, m) for m in matches]
    for m in ms:
        m.head_position()
    barrier.wait()
    conflicts = 0
    t0 = time.perf_counter()
    for i in range(n):
        m = ms[i % len(ms)]
        try:
            m.record("note", {"text": f"{name}-{i}"}, recorded_by=name)
        except ConflictError:
            conflicts += 1
    out.put((n - conflicts, conflicts, time.perf_counter() - t0))
    store.close()


def _raw_worker(url: str, name: str, n: int, barrier, out) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as c:
        barrier.wait()
        t0 = time.perf_counter()
        for i in range(n):
            c.execute("INSERT INTO raw_events VALUES (%s, %s, %s, %s)",
                      (name, i, "note", b'{"text": "raw"}' * 8))
        out.put((n, 0, time.perf_counter() - t0))


def _run(target, args_for, writers: int) -> dict:
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(writers), ctx.Queue()
    procs = [ctx.Process(target=target, args=(*args_for(i), barrier, out)) for i in range(writers)]
    for p in procs:
        p.start()
    results = [out.get(timeout=600) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    done = sum(r[0] for r in results)
    conflicts = sum(r[1] for r in results)
    wall = max(r[2] for r in results)
    return {"appends": done, "conflicts": conflicts, "events_per_s": round(done / wall),
            "conflict_rate": round(conflicts / (done + conflicts), 4) if done + conflicts else 0.0}


def one_match(db: str, writers: int = WRITERS, per_writer: int = PER_WRITER) -> dict:
    from engine.match import Match
    from engine.store import EventStore

    store = EventStore.open(db)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="bench")
    r = _run(_record_worker, lambda i: (db, [m.id], f"w{i}", per_writer, False), writers)
    r["verified"] = store.verify(m.id).ok and store.head(m.id).position == 1 + r["appends"]
    store.close()
    return r


def many_matches(db: str, no_lock: bool = False, writers: int = WRITERS, per_writer: int = PER_WRITER) -> dict:
    from engine.match import Match
    from engine.store import EventStore

    store = EventStore.open(db)
    ids = [Match.create(store, "table", ["Ann", "Bob"], recorded_by="bench").id for _ in range(writers)]
    store.close()
    return _run(_record_worker, lambda i: (db, [ids[i]], f"w{i}", per_writer, no_lock), writers)


def raw_inserts(url: str, writers: int = WRITERS, per_writer: int = PER_WRITER) -> dict:
    import psycopg

    with psycopg.connect(url, autocommit=True) as c:
        c.execute("CREATE TABLE raw_events (originator_id text, originator_version bigint, topic text, "
                  "state bytea, notification_id bigserial, PRIMARY KEY (originator_id, originator_version))")
    return _run(_raw_worker, lambda i: (url, f"w{i}", per_writer), writers)


def run_all(rounds: int = 3) -> dict:
    out: dict = {"writers": WRITERS, "appends_per_writer": PER_WRITER}
    with tempfile.TemporaryDirectory(prefix="tj-bench-writers-", dir=os.environ.get("TJ_BENCH_DIR")) as tmp:
        sq = [one_match(os.path.join(tmp, f"one{r}.db")) for r in range(rounds)]
    out["sqlite_one_match"] = _summary(sq)
    try:
        from tests.pg import PostgresServer, find_pg_bin
    except ImportError:
        find_pg_bin = lambda: None  # noqa: E731
    if find_pg_bin() is None:
        out["postgres"] = "skipped: PostgreSQL binaries (initdb, pg_ctl) not found"
    else:
        server = PostgresServer().start()
        try:
            out["postgres_one_match"] = _summary([one_match(server.new_database()) for _ in range(rounds)])
            ours, raw, nolock = [], [], []
            for _ in range(rounds):  # interleaved, so load on the machine hits all three alike
                ours.append(many_matches(server.new_database()))
                raw.append(raw_inserts(server.new_database()))
                nolock.append(many_matches(server.new_database(), no_lock=True))
            o = statistics.median(x["events_per_s"] for x in ours)
            w = statistics.median(x["events_per_s"] for x in raw)
            n = statistics.median(x["events_per_s"] for x in nolock)
            out["postgres_16_matches"] = {
                "events_per_s": round(o), "raw_psycopg_events_per_s": round(w), "ratio_to_raw": round(o / w, 3),
                "without_table_lock_events_per_s": round(n), "table_lock_cost": round(1 - o / n, 3),
                "conflicts": sum(x["conflicts"] for x in ours)}
        finally:
            server.stop()
    from bench.log_bench import bar

    bars = {"sqlite: 16 writers on one match, exit-3 rate < 1%": bar(out["sqlite_one_match"]["conflict_rate"], "<=", 0.0099)}
    if "postgres_one_match" in out:
        bars["postgres: 16 writers on one match, exit-3 rate < 1%"] = bar(
            out["postgres_one_match"]["conflict_rate"], "<=", 0.0099)
    out["bars"] = bars
    return out


def _summary(runs: list[dict]) -> dict:
    appends = sum(r["appends"] for r in runs)
    conflicts = sum(r["conflicts"] for r in runs)
    return {"runs": len(runs), "appends": appends, "conflicts": conflicts,
            "conflict_rate": round(conflicts / (appends + conflicts), 4) if appends + conflicts else 0.0,
            "events_per_s_median": round(statistics.median(r["events_per_s"] for r in runs)),
            "all_verified": all(r.get("verified", True) for r in runs)}


if __name__ == "__main__":
    import json

    print(json.dumps(run_all(), indent=2))
