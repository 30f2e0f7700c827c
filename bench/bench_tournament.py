"""Benchmark: Swiss pairing and standings at scale (pure functions, no event log).

    python bench/bench_tournament.py                 # 1,000 and 10,000 players, 15 rounds
    python bench/bench_tournament.py --players 1000 --rounds 15

Simulates a Swiss event: each round computes the `mtg` standings, pairs the round from them
(no rematches, byes spread), and plays random results. Prints JSON: per size, the pairing time of
every round, the standings time of every round, and their max/mean (seconds), plus rematches made;
and, for the smallest size, the same event run through the event-sourced tournament (SQLite log).
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.tournament.pairing import entrants_from_standings, pair_swiss
from judge.tournament.standings import MatchResult, compute_standings, get_policy

SLIPS = [(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1), (0, 0, 3)]


def run(players: int, rounds: int, seed: int = 1) -> dict:
    policy = get_policy("mtg")
    names = [f"Player {i:05d}" for i in range(players)]
    rng = random.Random(seed)
    results: list[MatchResult] = []
    opponents: dict[str, set[str]] = {p: set() for p in names}
    byes: dict[str, int] = {}
    pair_s, stand_s, rematches = [], [], 0
    for rnd in range(1, rounds + 1):
        t0 = time.perf_counter()
        st = compute_standings(results, policy, players=names)
        t1 = time.perf_counter()
        entrants = entrants_from_standings(st.rows, policy.order, seed=seed, round_no=rnd)
        rp = pair_swiss(entrants, round_no=rnd, seed=seed, opponents=opponents, byes=byes)
        t2 = time.perf_counter()
        stand_s.append(t1 - t0)
        pair_s.append(t2 - t1)
        rematches += len(rp.rematches)
        for p in rp.pairings:
            if p.player2 is None:
                byes[p.player1] = byes.get(p.player1, 0) + 1
                results.append(MatchResult(rnd, p.player1, None, 0, 0, 0))
            else:
                opponents[p.player1].add(p.player2)
                opponents[p.player2].add(p.player1)
                results.append(MatchResult(rnd, p.player1, p.player2, *rng.choice(SLIPS)))
    t0 = time.perf_counter()
    compute_standings(results, policy, players=names)
    final = time.perf_counter() - t0
    return {
        "players": players, "rounds": rounds,
        "pairing_seconds_per_round": [round(x, 4) for x in pair_s],
        "pairing_max": round(max(pair_s), 4), "pairing_mean": round(sum(pair_s) / len(pair_s), 4),
        "standings_seconds_per_round": [round(x, 4) for x in stand_s],
        "standings_max": round(max(stand_s + [final]), 4), "final_standings": round(final, 4),
        "rematches": rematches, "players_with_two_byes": sum(1 for v in byes.values() if v > 1),
    }


def run_event_log(players: int, rounds: int, seed: int = 1) -> dict:
    """The same through the event-sourced tournament on a SQLite file: every `pair()` replays the
    log, computes standings, pairs and appends; results go in as one batch per round."""
    import tempfile

    from engine.store import EventStore
    from judge.tournament import Tournament

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp, EventStore.open(str(Path(tmp) / "bench.db")) as store:
        t = Tournament.create(store, name="bench", game="table", rounds=rounds, seed=str(seed),
                              recorded_by="bench")
        t0 = time.perf_counter()
        t.register_many([f"Player {i:05d}" for i in range(players)])
        register_s = time.perf_counter() - t0
        pair_s, record_s = [], []
        for _ in range(rounds):
            t0 = time.perf_counter()
            t.pair()
            t1 = time.perf_counter()
            tables = t.state().current.tables()
            t2 = time.perf_counter()
            t.record_round([(p.table, "%d-%d-%d" % rng.choice(SLIPS)) for p in tables])
            t3 = time.perf_counter()
            pair_s.append(t1 - t0)
            record_s.append(t3 - t2)
        t0 = time.perf_counter()
        st = t.state()
        replay_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        st.standings()
        standings_s = time.perf_counter() - t0
        events = store.head(t.id).position
    return {"players": players, "rounds": rounds, "events": events,
            "register_batch_seconds": round(register_s, 4),
            "pair_with_replay_seconds_per_round": [round(x, 4) for x in pair_s],
            "pair_with_replay_max": round(max(pair_s), 4),
            "record_round_batch_max": round(max(record_s), 4),
            "replay_seconds": round(replay_s, 4), "standings_seconds": round(standings_s, 4)}


def run_all(sizes: tuple[int, ...] = (1000, 10_000), rounds: int = 15, seed: int = 1) -> dict:
    """Every figure of this benchmark (what `python -m bench` nests under "tournament")."""
    return {"benchmark": "tournament", "python": platform.python_version(),
            "machine": platform.machine(), "runs": [run(n, rounds, seed) for n in sizes],
            "event_log": run_event_log(min(sizes), rounds, seed)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, action="append", help="default: 1000 and 10000")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(json.dumps(run_all(tuple(args.players or (1000, 10_000)), args.rounds, args.seed), indent=2))


if __name__ == "__main__":
    main()
