"""Where a live append's time goes: `python -m bench.live_split` (a diagnostic beside
`python -m bench log`, whose live_append_ratio it explains; README "Performance").

1. In-loop Python: `Match.record` over 3,000 events with the writer's commits made cheap
   (`PRAGMA synchronous=OFF` on its connection, for this measurement only), each part of the path
   timed by wrapping it; beside it the same writer path with pre-sealed rows, and a bare
   BEGIN/INSERT/COMMIT on the same connection.
2. With real commits (WAL, synchronous=FULL), in alternating blocks of 25 so all meet the same
   disk: ours, the writer path with the log's own stored rows, raw single-row commits of the bare
   lines, and raw commits of the stored rows into a guarded table.

Prints microseconds per event (medians where repeated)."""
from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time

from bench.log_bench import PLAYERS, _envelope_rows, _raw_db, _single_commits, synthetic_game
from engine.match import Match
from engine.store import EventStore

PARTS = {Match: ("draft", "_judge", "_recorded"), EventStore: ("_seal", "_write_sqlite", "check_writable")}


def _timed(spent: dict[str, float]) -> list[tuple[type, str, object]]:
    """Wrap the parts of the path so each adds its time to `spent`; returns what to put back."""
    saved = []
    for cls, names in PARTS.items():
        for name in names:
            original = getattr(cls, name)
            saved.append((cls, name, original))

            def wrapper(*a, _f=original, _name=name, **k):
                t0 = time.perf_counter()
                try:
                    return _f(*a, **k)
                finally:
                    spent[_name] = spent.get(_name, 0.0) + time.perf_counter() - t0
            setattr(cls, name, wrapper)
    return saved


def in_loop(tmp: str, n: int = 3000) -> dict[str, float]:
    lines = synthetic_game(n + 3)[1:n + 1]
    store = EventStore.open(os.path.join(tmp, "loop.db"))
    m = Match.create(store, "table", PLAYERS, recorded_by="bench")
    writer = store._writer
    with writer.transaction():
        pass  # opens the writer's connection
    writer._conn.execute("PRAGMA synchronous=OFF")
    spent: dict[str, float] = {}
    saved = _timed(spent)
    try:
        t0 = time.perf_counter()
        for line in lines:
            m.record(line["kind"], line["payload"], actor=line.get("actor", "-"), recorded_by="bench")
        total = time.perf_counter() - t0
    finally:
        for cls, name, original in saved:
            setattr(cls, name, original)
    rows = [(m.id + "w", i + 1, "k", b"x" * 600) for i in range(n)]
    t0 = time.perf_counter()
    for row in rows:
        with writer.transaction() as c:
            c.executemany(store._q_insert, [row])
            store._sqlite_write_checks(c, m.id + "w")
    writer_path = time.perf_counter() - t0
    conn = writer._conn
    t0 = time.perf_counter()
    for i, row in enumerate(rows):
        conn.execute("BEGIN")
        conn.execute("INSERT INTO stored_events (originator_id, originator_version, topic, state) "
                     "VALUES (?,?,?,?)", (m.id + "b", i + 1, "k", row[3]))
        conn.execute("COMMIT")
    bare = time.perf_counter() - t0
    store.close()
    out = {"record": total, "writer_path": writer_path, "bare_begin_insert_commit": bare, **spent}
    return {k: round(v / n * 1e6, 1) for k, v in out.items()}


def with_commits(tmp: str, n: int = 400, block: int = 25, rounds: int = 3) -> dict[str, float]:
    lines = synthetic_game(n + 3)[1:n + 1]
    payloads = [json.dumps(line).encode() for line in lines]
    stored = _envelope_rows(tmp, lines)
    per: dict[str, list[float]] = {"ours": [], "writer_path_stored_rows": [], "raw": [], "raw_guarded_stored_rows": []}
    for r in range(rounds):
        store = EventStore.open(os.path.join(tmp, f"ours{r}.db"))
        m = Match.create(store, "table", PLAYERS, recorded_by="bench")
        other = EventStore.open(os.path.join(tmp, f"writer{r}.db"))
        raw = _raw_db(os.path.join(tmp, f"raw{r}.db"))
        guarded = _raw_db(os.path.join(tmp, f"guarded{r}.db"), guarded=True)
        t = dict.fromkeys(per, 0.0)
        for start in range(0, n, block):
            t0 = time.perf_counter()
            for line in lines[start:start + block]:
                m.record(line["kind"], line["payload"], actor=line.get("actor", "-"), recorded_by="bench")
            t["ours"] += time.perf_counter() - t0
            t0 = time.perf_counter()
            for i in range(start, start + block):
                with other._writer.transaction() as c:
                    c.executemany(other._q_insert, [("m", i + 2, "k", stored[i])])
                    other._sqlite_write_checks(c, "m")
            t["writer_path_stored_rows"] += time.perf_counter() - t0
            t["raw"] += _single_commits(raw, payloads, start, start + block)
            t["raw_guarded_stored_rows"] += _single_commits(guarded, stored, start, start + block)
        for k, v in t.items():
            per[k].append(v / n * 1e6)
        store.close()
        other.close()
        raw.close()
        guarded.close()
    return {k: round(statistics.median(v), 1) for k, v in per.items()}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        result = {"in_loop_us_commits_cheap": in_loop(tmp), "with_commits_us": with_commits(tmp)}
    json.dump(result, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
