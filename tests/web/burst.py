"""The end-of-round burst: every player of 150 tables reports from their own client (300 simulated
phones on loopback), some forms sent twice. Shared by tests/web/test_burst.py (every report stored
once) and bench/bench_serve.py (latency). `spread`: seconds over which the reports start.

Each simulated phone is its own TCP connection speaking plain HTTP/1.1 through asyncio streams: a
full HTTP client object per phone (httpx builds an SSL context each) costs the load generator more
CPU than the server spends answering, and on a 2-core machine that would be measured as latency."""
from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

import json
from urllib.parse import urlparse


@dataclass
class BurstResult:
    latencies: list[float] = field(default_factory=list)   # seconds per request
    statuses: dict[int, int] = field(default_factory=dict)
    wall: float = 0.0


async def post_json(host: str, port: int, path: str, body: dict, token: str) -> tuple[int, bytes]:
    """One POST on its own connection; (status, body)."""
    data = json.dumps(body).encode()
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n"
                     .encode() + data)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    head, _, rest = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), rest


async def _burst(url: str, tid: str, seats: list[tuple[str, str, str]], spread: float, doubles: float,
                 seed: int) -> BurstResult:
    """`seats`: (player link token, player, their slip) per player; each is one client."""
    rng = random.Random(seed)
    out = BurstResult()
    u = urlparse(url)
    path = f"/api/t/{tid}/report"

    async def one(token: str, player: str, slip: str, at: float, times: int) -> None:
        await asyncio.sleep(at)
        for _ in range(times):  # a double-submitted form
            t0 = time.perf_counter()
            status, _ = await post_json(u.hostname, u.port, path, {"player": player, "result": slip}, token)
            out.latencies.append(time.perf_counter() - t0)
            out.statuses[status] = out.statuses.get(status, 0) + 1

    start = time.perf_counter()
    await asyncio.gather(*(one(tok, p, s, rng.uniform(0, spread), 2 if rng.random() < doubles else 1)
                           for tok, p, s in seats))
    out.wall = time.perf_counter() - start
    return out


def run_burst(url: str, tid: str, seats, *, spread: float = 0.0, doubles: float = 0.1, seed: int = 1) -> BurstResult:
    return asyncio.run(_burst(url, tid, seats, spread, doubles, seed))


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]
