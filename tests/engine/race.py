"""Two (or more) processes doing one thing at the same moment, for the tests of what a race leaves."""
from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from typing import Any


def at_once(target: Callable[..., None], args: Sequence[tuple[Any, ...]]) -> list[Any]:
    """Start one spawned process per tuple of `args`, each calling target(*its args, barrier,
    results): it waits at the barrier so all go at once, and puts one result on the queue. The
    results, sorted."""
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(len(args)), ctx.Queue()
    procs = [ctx.Process(target=target, args=(*a, barrier, results)) for a in args]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    return sorted(results.get(timeout=10) for _ in args)
