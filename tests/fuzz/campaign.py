"""The measured fuzz campaign (issue 14 reported 5,700 bad files: 34 tracebacks, 8 hangs).

    python -m tests.fuzz.campaign [--cases 6000] [--seed 1] [--workers 2] [--hang-after 30]

Generates cases over every importer and the command line (tests/fuzz/hostile.py), runs each
through the real CLI boundary in a worker process with a fresh copy of a small log, and prints one
JSON object: cases run (per target), exit codes, tracebacks (a traceback, an 'internal error' or an
undocumented exit code), hangs (a case still running after --hang-after seconds: its worker is
killed and replaced), temporary files left behind, and the first few failing cases.
"""
from __future__ import annotations

import argparse
import collections
import json
import multiprocessing as mp
import os
import platform
import queue
import random
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)


def _worker(tasks, results, folder: str) -> None:
    from tests.fuzz.harness import base_log, run_case

    base = base_log(folder)
    while True:
        item = tasks.get()
        if item is None:
            return
        index, case = item
        outcome = run_case(case, os.path.join(folder, "case"), base)
        results.put((index, outcome.code, outcome.traceback, outcome.leftovers, outcome.output[-400:],
                     outcome.ruleset_failures))


class Slot:
    """One worker process, restarted after a hang."""

    def __init__(self, ctx, root: str, n: int):
        self.ctx, self.root, self.n, self.restarts = ctx, root, n, 0
        self.start()

    def start(self) -> None:
        self.tasks, self.results = self.ctx.Queue(), self.ctx.Queue()
        folder = os.path.join(self.root, f"w{self.n}-{self.restarts}")
        os.makedirs(folder)
        self.proc = self.ctx.Process(target=_worker, args=(self.tasks, self.results, folder), daemon=True)
        self.proc.start()

    def run(self, index: int, case, hang_after: float):
        self.tasks.put((index, case))
        try:
            return self.results.get(timeout=hang_after + (30 if self.restarts == 0 and index < 4 else 0))
        except queue.Empty:
            self.proc.kill()
            self.proc.join()
            self.restarts += 1
            self.start()
            return None

    def stop(self) -> None:
        self.tasks.put(None)
        self.proc.join(timeout=10)
        if self.proc.is_alive():
            self.proc.kill()


def campaign(n: int, seed: int, workers: int, hang_after: float) -> dict:
    from tests.fuzz.hostile import cases

    all_cases = cases(random.Random(seed), n)
    ctx = mp.get_context("fork")
    started = time.perf_counter()
    per_target: collections.Counter = collections.Counter()
    codes: collections.Counter = collections.Counter()
    tracebacks, hangs, leftovers, failures = 0, 0, 0, []
    ruleset_failures: collections.Counter = collections.Counter()
    lock = threading.Lock()
    todo = iter(enumerate(all_cases))

    with tempfile.TemporaryDirectory(prefix="tj-fuzz-") as root:
        slots = [Slot(ctx, root, i) for i in range(workers)]

        def drive(slot: Slot) -> None:
            nonlocal tracebacks, hangs, leftovers
            while True:
                with lock:
                    item = next(todo, None)
                if item is None:
                    return
                index, case = item
                got = slot.run(index, case, hang_after)
                with lock:
                    per_target[case.target] += 1
                    if got is None:
                        hangs += 1
                        failures.append({"case": case.describe(), "problem": "hang",
                                         "argv": case.data[:8] if case.target == "argv" else None})
                        continue
                    _, code, traceback, left, output, failed = got
                    codes[code] += 1
                    if failed:
                        ruleset_failures[case.target] += failed
                    if traceback or left:
                        tracebacks += bool(traceback)
                        leftovers += bool(left)
                        if len(failures) < 20:
                            failures.append({"case": case.describe(), "code": code, "output": output,
                                             "argv": [a[:60] for a in case.data] if case.target == "argv" else None})

        threads = [threading.Thread(target=drive, args=(s,)) for s in slots]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for s in slots:
            s.stop()
    return {"cases": sum(per_target.values()), "per_target": dict(sorted(per_target.items())),
            "exit_codes": {str(k): v for k, v in sorted(codes.items())}, "tracebacks": tracebacks,
            "hangs": hangs, "hang_after_s": hang_after,
            "ruleset_failures_flagged": dict(ruleset_failures), "temporary_files_left": leftovers,
            "seconds": round(time.perf_counter() - started, 1), "seed": seed, "workers": workers,
            "python": platform.python_version(), "cpus": os.cpu_count(), "failures": failures}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--hang-after", type=float, default=30.0)
    a = ap.parse_args()
    report = campaign(a.cases, a.seed, a.workers, a.hang_after)
    print(json.dumps(report, indent=2))
    sys.exit(1 if report["tracebacks"] or report["hangs"] or report["temporary_files_left"] else 0)


if __name__ == "__main__":
    main()
