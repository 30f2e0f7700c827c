"""The end-of-round burst: every player of 150 tables reports from their own client (300 simulated
phones on loopback), some forms sent twice. Shared by tests/web/test_burst.py (every report stored
once) and bench/bench_serve.py (latency). `spread`: seconds over which the reports start."""
from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

import httpx


@dataclass
class BurstResult:
    latencies: list[float] = field(default_factory=list)   # seconds per request
    statuses: dict[int, int] = field(default_factory=dict)
    wall: float = 0.0


async def _burst(url: str, tid: str, seats: list[tuple[str, str, str]], spread: float, doubles: float,
                 seed: int) -> BurstResult:
    """`seats`: (player link token, player, their slip) per player; each is one client."""
    rng = random.Random(seed)
    out = BurstResult()
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)

    async def one(token: str, player: str, slip: str, at: float) -> None:
        await asyncio.sleep(at)
        async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as c:
            for _ in range(2 if rng.random() < doubles else 1):  # a double-submitted form
                t0 = time.perf_counter()
                r = await c.post(f"/api/t/{tid}/report", json={"player": player, "result": slip},
                                 headers={"Authorization": f"Bearer {token}"})
                out.latencies.append(time.perf_counter() - t0)
                out.statuses[r.status_code] = out.statuses.get(r.status_code, 0) + 1

    start = time.perf_counter()
    await asyncio.gather(*(one(tok, p, s, rng.uniform(0, spread)) for tok, p, s in seats))
    out.wall = time.perf_counter() - start
    return out


def run_burst(url: str, tid: str, seats, *, spread: float = 0.0, doubles: float = 0.1, seed: int = 1) -> BurstResult:
    return asyncio.run(_burst(url, tid, seats, spread, doubles, seed))


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]
