"""CLI start-up (issue 17): what a person at the keyboard waits for on every command.

Times whole processes, as a user starts them (the installed `tablejudge` script next to this
Python, else `python -m judge`), against a bare `python -c pass` measured in the same run and
interleaved with them (A B A B ...), so a machine that slows down mid-run moves both:

- version: `tablejudge --version`. Bar: median <= 120 ms.
- log: `tablejudge log M note --text ...` on a 1,000-event log. Bar: median <= 250 ms.
- tournament_result: `tablejudge tournament result T 1-0-0 --table N` on a tournament of 16
  players in round 1 (a 1,000-event match log beside it). Bar: median <= 250 ms.

Compiled modules are kept (PYTHONDONTWRITEBYTECODE is unset for the runs), as on a user's machine.
Medians of `runs` runs after one warm-up; `*_ratio` is the command's median over the bare Python's;
`*_cpu_ms` the median CPU time (user + system) of the command's process, which a machine busy with
other work inflates less than wall time (the bars are on wall time).

    python -m bench.bench_startup [--runs 15]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BARS_MS = {"version": 120, "log": 250, "tournament_result": 250}


def tablejudge() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "tablejudge")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "judge"]


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system of the child, which a busy machine moves less)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.decode()[-300:]}")
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _prepare(tmp: str, env: dict[str, str]) -> tuple[str, str, str]:
    """A log with a 1,000-event table match and a 16-player tournament paired for round 1."""
    db = os.path.join(tmp, "startup.db")
    code = f"""
import sys
sys.path.insert(0, {ROOT!r})
from engine.store import EventStore
from engine.match import Match
from judge.tournament import Tournament
store = EventStore.open({db!r})
m = Match.create(store, "table", ["Ann", "Bob"], match_id="m1000")
m.record("setup", {{"player": "Ann", "zone": "deck", "count": 40}})
m.record("setup", {{"player": "Bob", "zone": "deck", "count": 40}})
while m.head_position() < 1000:
    m.record("note", {{"text": "n"}})
m.state()  # its snapshots, as any earlier command would have left them
t = Tournament.create(store, name="bench", game="optcg", policy="bandai", rounds=5)
for i in range(16):
    t.register(f"P{{i:02d}}")
t.pair()
print(t.id)
"""
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return db, "m1000", out.stdout.strip()


def run_all(runs: int = 15) -> dict:
    env = dict(os.environ, TABLEJUDGE_USER="bench", PYTHONPATH=ROOT)
    env.pop("TABLEJUDGE_DB", None)
    # as on a user's machine: Python keeps compiled modules (__pycache__). With
    # PYTHONDONTWRITEBYTECODE set (some CI and sandboxes set it), every start would compile the
    # whole import graph again and the figure would measure the compiler, not tablejudge.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(ROOT, "engine"),
                    os.path.join(ROOT, "judge")], env=env, check=False)
    with tempfile.TemporaryDirectory(prefix="tj-startup-", dir=os.environ.get("TJ_BENCH_DIR")) as tmp:
        db, match, tid = _prepare(tmp, env)
        tj = tablejudge()
        # each run of `tournament result` records a new slip: table 1..8, then round-robin again
        tables = iter(range(10_000))
        commands = {
            "version": lambda: tj + ["--version"],
            "log": lambda: tj + ["--db", db, "log", match, "note", "--text", "bench"],
            "tournament_result": lambda: tj + ["--db", db, "tournament", "result", tid, "1-0-0",
                                               "--table", str(next(tables) % 8 + 1)],
        }
        bare = [sys.executable, "-c", "pass"]
        times: dict[str, list[float]] = {name: [] for name in commands}
        times["python"] = []
        cpu: dict[str, list[float]] = {name: [] for name in times}
        for i in range(runs + 1):  # the first round warms the disk cache and is not counted
            for name, cmd in commands.items():
                b = _run(bare, env)
                a = _run(cmd(), env)
                if i:
                    times["python"].append(b[0])
                    cpu["python"].append(b[1])
                    times[name].append(a[0])
                    cpu[name].append(a[1])
        medians = {name: statistics.median(v) * 1000 for name, v in times.items()}
        cpu_medians = {name: statistics.median(v) * 1000 for name, v in cpu.items()}
        result = {"benchmark": "startup", "python": platform.python_version(),
                  "machine": platform.machine(), "cpus": os.cpu_count(), "runs": runs,
                  "command": " ".join(os.path.basename(c) for c in tj),
                  "python_pass_ms": round(medians["python"], 1),
                  "python_pass_cpu_ms": round(cpu_medians["python"], 1)}
        for name in commands:
            result[f"{name}_ms"] = round(medians[name], 1)
            result[f"{name}_min_ms"] = round(min(times[name]) * 1000, 1)
            result[f"{name}_ratio"] = round(medians[name] / medians["python"], 2)
            result[f"{name}_cpu_ms"] = round(cpu_medians[name], 1)
        result["bars"] = {f"{name}_ms <= {bar}": result[f"{name}_ms"] <= bar for name, bar in BARS_MS.items()}
        shutil.rmtree(tmp, ignore_errors=True)
        return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    print(json.dumps(run_all(ap.parse_args().runs), indent=2))


if __name__ == "__main__":
    main()
