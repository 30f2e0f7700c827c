"""Swiss pairing and the single-elimination top cut. Pure functions: players and history in,
pairings (with the reason for each) out.

Swiss, in this order of priority:
1. A player paired against nobody gets the bye. With an odd field the bye goes to the lowest-ranked
   player who has not had one yet ("eligible"); only when everyone has had one does a second bye go
   to the lowest-ranked player.
2. No rematches while avoidable: when the lowest eligible player's bye would force a rematch, the next
   eligible player up takes the bye instead (the explanation says so); only when no choice avoids a
   rematch are rematches made, as few as a maximum matching allows.
3. Players meet players on the same match points: the field is ordered by points, and inside a
   points group in an order drawn from the seed (`random.Random(f"{seed}:{round}")`), then each
   player, top down, meets the next player in that order they have not met; when the tail cannot
   be completed the search backtracks (the last choices are revisited first), so a player floats
   down only as far as needed.

Cost: the search walks a linked list of unpaired players (removal and restore in O(1)), so a
round without conflicts is O(n + past meetings); backtracking is bounded by a step budget, past which
an exact maximum matching (Edmonds' blossom algorithm) decides.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Pairing:
    table: int | None      # None for a bye
    player1: str
    player2: str | None    # None: a bye
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "player1": self.player1, "player2": self.player2,
                "reason": self.reason}


@dataclass
class RoundPairing:
    round: int
    pairings: list[Pairing]
    seed: str
    rematches: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "seed": self.seed,
                "pairings": [p.to_dict() for p in self.pairings],
                "rematches": [list(r) for r in self.rematches], "notes": self.notes}


@dataclass(frozen=True)
class Entrant:
    """A player to pair: name, match points, standings rank (1 = best)."""

    player: str
    points: int
    rank: int


class PairingError(ValueError):
    pass


def round_seed(seed: str | int, round_no: int) -> str:
    return f"{seed}:{round_no}"


def pair_swiss(entrants: Sequence[Entrant], *, round_no: int, seed: str | int = 0,
               opponents: Mapping[str, Iterable[str]] | None = None,
               byes: Mapping[str, int] | None = None, granted_byes: Iterable[str] = (),
               explain: bool = False, step_budget: int | None = None) -> RoundPairing:
    """Pair one Swiss round. `entrants` are the active (not dropped) players; `opponents` who
    each has met; `byes` how many byes each has had; `granted_byes` players the organizer gave a
    bye this round (not paired)."""
    opponents = opponents or {}
    byes = byes or {}
    rseed = round_seed(seed, round_no)
    rng = random.Random(rseed)
    granted = [e for e in entrants if e.player in set(granted_byes)]
    granted_names = {e.player for e in granted}
    active = sorted((e for e in entrants if e.player not in granted_names), key=lambda e: e.rank)
    names = [e.player for e in active]
    if len(set(names)) != len(names):
        raise PairingError("a player is listed twice")

    # Pairing order: points down, a seeded shuffle inside each points group.
    groups: dict[int, list[Entrant]] = {}
    for e in active:
        groups.setdefault(e.points, []).append(e)
    order: list[Entrant] = []
    for pts in sorted(groups, reverse=True):
        g = sorted(groups[pts], key=lambda e: e.player)
        rng.shuffle(g)
        order.extend(g)

    notes: list[str] = []
    bye_player: Entrant | None = None
    bye_reason = ""
    if len(order) % 2:
        by_rank_low_first = sorted(active, key=lambda e: -e.rank)
        eligible = [e for e in by_rank_low_first if byes.get(e.player, 0) == 0]
        candidates = eligible or by_rank_low_first
        all_had = not eligible
        tries = candidates if len(order) <= 64 else candidates[:8]
        chosen = None
        for k, cand in enumerate(tries):
            rest = [e for e in order if e.player != cand.player]
            found = _pair_without_rematch(rest, opponents, step_budget)
            if found is not None:
                chosen, pairs = cand, found
                if k:
                    notes.append(f"the bye went to {cand.player} (rank {cand.rank}): giving it to "
                                 f"{', '.join(c.player for c in tries[:k])} would have forced a rematch")
                break
        if chosen is None:
            chosen = candidates[0]
            rest = [e for e in order if e.player != chosen.player]
            pairs = _pair_min_rematches(rest, opponents)
        bye_player = chosen
        bye_reason = (f"bye: {'every player has had a bye; ' if all_had else ''}lowest-ranked "
                      f"{'' if all_had else 'eligible '}player (rank {chosen.rank}, {chosen.points} pts)"
                      if not notes else f"bye: rank {chosen.rank}, {chosen.points} pts; "
                      "a lower-ranked eligible player's bye would have forced a rematch")
        order = [e for e in order if e.player != chosen.player]
    else:
        pairs = _pair_without_rematch(order, opponents, step_budget)
        if pairs is None:
            pairs = _pair_min_rematches(order, opponents)

    rematches = [(a.player, b.player) for a, b in pairs if b.player in _opp_set(opponents, a.player)]
    if rematches:
        notes.append(f"{len(rematches)} rematch(es) could not be avoided: "
                     + "; ".join(f"{a} vs {b}" for a, b in rematches))

    reasons = _explain(order, pairs, opponents) if explain else {}
    # Tables: the highest points first, then the order the pairs were made.
    ranked_pairs = sorted(enumerate(pairs), key=lambda kp: (-max(kp[1][0].points, kp[1][1].points), kp[0]))
    out: list[Pairing] = []
    for table, (k, (a, b)) in enumerate(ranked_pairs, start=1):
        out.append(Pairing(table, a.player, b.player, reasons.get(k, "")))
    if bye_player is not None:
        out.append(Pairing(None, bye_player.player, None, bye_reason if explain else ""))
    for e in granted:
        out.append(Pairing(None, e.player, None, "bye granted by the organizer" if explain else ""))
    return RoundPairing(round_no, out, rseed, rematches, notes)


def _opp_set(opponents: Mapping[str, Iterable[str]], player: str) -> set[str]:
    o = opponents.get(player, ())
    return o if isinstance(o, set) else set(o)


def _pair_without_rematch(order: Sequence[Entrant], opponents: Mapping[str, Iterable[str]],
                          step_budget: int | None) -> list[tuple[Entrant, Entrant]] | None:
    """Top-down search with backtracking over a dancing-links list; None when no rematch-free
    pairing exists. Past the step budget, an exact maximum matching answers instead."""
    n = len(order)
    if n == 0:
        return []
    index = {e.player: i + 1 for i, e in enumerate(order)}
    played: list[set[int]] = [set()]
    for e in order:
        played.append({index[o] for o in _opp_set(opponents, e.player) if o in index})
    tail = n + 1
    nxt = list(range(1, n + 3))
    prv = list(range(-1, n + 1))
    budget = step_budget if step_budget is not None else 20 * n + 20_000
    stack: list[tuple[int, int]] = []
    p = nxt[0]
    cand = nxt[p]
    steps = 0
    while p != tail:
        q = cand
        conflicts = played[p]
        while q != tail and q in conflicts:
            q = nxt[q]
        if q != tail:
            nxt[prv[p]] = nxt[p]; prv[nxt[p]] = prv[p]
            nxt[prv[q]] = nxt[q]; prv[nxt[q]] = prv[q]
            stack.append((p, q))
            p = nxt[0]
            cand = nxt[p]
            continue
        steps += 1
        if not stack:
            return None  # the search was exhaustive: no rematch-free pairing
        if steps > budget:
            return _exact_without_rematch(order, played)
        p, q = stack.pop()
        nxt[prv[q]] = q; prv[nxt[q]] = q
        nxt[prv[p]] = p; prv[nxt[p]] = p
        cand = nxt[q]
    return [(order[a - 1], order[b - 1]) for a, b in stack]


def _exact_without_rematch(order: Sequence[Entrant], played: list[set[int]]
                           ) -> list[tuple[Entrant, Entrant]] | None:
    n = len(order)
    adj = [[j for j in range(n) if j != i and (j + 1) not in played[i + 1]] for i in range(n)]
    mate = max_matching(n, adj, greedy_order=range(n))
    if any(m < 0 for m in mate):
        return None
    return [(order[i], order[mate[i]]) for i in range(n) if i < mate[i]]


def _pair_min_rematches(order: Sequence[Entrant], opponents: Mapping[str, Iterable[str]]
                        ) -> list[tuple[Entrant, Entrant]]:
    """As few rematches as possible: a maximum matching among allowed pairs, then the players
    left over are paired in order (those are the unavoidable rematches)."""
    n = len(order)
    index = {e.player: i for i, e in enumerate(order)}
    played = [{index[o] for o in _opp_set(opponents, e.player) if o in index} for e in order]
    adj = [[j for j in range(n) if j != i and j not in played[i]] for i in range(n)]
    mate = max_matching(n, adj, greedy_order=range(n))
    pairs = [(order[i], order[mate[i]]) for i in range(n) if 0 <= i < mate[i]]
    left = [order[i] for i in range(n) if mate[i] < 0]
    pairs += [(left[k], left[k + 1]) for k in range(0, len(left) - 1, 2)]
    return pairs


def max_matching(n: int, adj: list[list[int]], greedy_order: Iterable[int] = ()) -> list[int]:
    """Edmonds' blossom algorithm: a maximum-cardinality matching of a general graph.
    Returns mate[i] (-1 when unmatched). Starts from a greedy matching in `greedy_order`."""
    mate = [-1] * n
    adjset = [set(a) for a in adj]
    for i in greedy_order:
        if mate[i] < 0:
            for j in adj[i]:
                if mate[j] < 0 and j != i:
                    mate[i], mate[j] = j, i
                    break

    def find_path(root: int) -> bool:
        used = [False] * n
        parent = [-1] * n
        base = list(range(n))
        used[root] = True
        queue = [root]
        head = 0

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] < 0:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while head < len(queue):
            v = queue[head]
            head += 1
            for to in adj[v]:
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] >= 0 and parent[mate[to]] >= 0):
                    cur = lca(v, to)
                    blossom = [False] * n
                    mark_path(v, cur, to, blossom)
                    mark_path(to, cur, v, blossom)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = cur
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] < 0:
                    parent[to] = v
                    if mate[to] < 0:
                        # augment along the path ending at `to`
                        while to >= 0:
                            pv = parent[to]
                            nv = mate[pv]
                            mate[to], mate[pv] = pv, to
                            to = nv
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False

    for v in range(n):
        if mate[v] < 0 and adjset[v]:
            find_path(v)
    return mate


def _explain(order: Sequence[Entrant], pairs: list[tuple[Entrant, Entrant]],
             opponents: Mapping[str, Iterable[str]]) -> dict[int, str]:
    pos = {e.player: i for i, e in enumerate(order)}
    paired_at = {}
    for k, (a, b) in enumerate(pairs):
        paired_at[a.player] = paired_at[b.player] = k
    out: dict[int, str] = {}
    for k, (a, b) in enumerate(pairs):
        if a.points == b.points:
            why = f"same points ({a.points})"
        else:
            why = f"{b.player} pairs up from {b.points} to {a.points} points (no one left on {a.points} to meet)"
        skipped = []
        met = _opp_set(opponents, a.player)
        for x in order[pos[a.player] + 1:pos[b.player]]:
            if paired_at[x.player] > k:
                skipped.append(f"{x.player} (already met)" if x.player in met
                               else f"{x.player} (kept free so the rest could be paired without a rematch)")
        text = f"{a.player} ({a.points}) vs {b.player} ({b.points}): {why}"
        if b.player in met:
            text += "; a rematch, unavoidable"
        if skipped:
            text += "; passed over " + ", ".join(skipped)
        out[k] = text
    return out


# --- single elimination ----------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket order, so that seeds 1 and 2 can only meet in the final:
    8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    if size < 2 or size & (size - 1):
        raise PairingError(f"a top cut has 2, 4, 8, 16, ... players, not {size}")
    seeds = [1, 2]
    while len(seeds) < size:
        m = 2 * len(seeds) + 1
        seeds = [x for s in seeds for x in (s, m - s)]
    return seeds


def pair_top_cut(seeded: Sequence[str], size: int) -> list[Pairing]:
    """The first elimination round: seeds from the standings (seeded[0] is seed 1)."""
    order = bracket_order(size)
    if len(seeded) < size:
        raise PairingError(f"a top {size} needs {size} players; the standings have {len(seeded)}")
    out = []
    for t in range(0, size, 2):
        a, b = order[t], order[t + 1]
        out.append(Pairing(t // 2 + 1, seeded[a - 1], seeded[b - 1], f"seed {a} vs seed {b}"))
    return out


def pair_next_elimination(previous: Sequence[Pairing], winners: Mapping[int, str]) -> list[Pairing]:
    """The next elimination round: the winners of tables 1 and 2 meet, of 3 and 4, ..."""
    tables = sorted(p.table for p in previous if p.table is not None)
    missing = [t for t in tables if t not in winners]
    if missing:
        raise PairingError(f"table(s) {', '.join(map(str, missing))} of the previous round have no winner yet")
    if len(tables) < 2:
        raise PairingError("the top cut is over: the final has been played")
    out = []
    for k in range(0, len(tables), 2):
        a, b = winners[tables[k]], winners[tables[k + 1]]
        out.append(Pairing(k // 2 + 1, a, b, f"winner of table {tables[k]} vs winner of table {tables[k + 1]}"))
    return out


def elimination_round_name(players_left: int) -> str:
    return {2: "Finals", 4: "Semifinals", 8: "Quarterfinals"}.get(players_left, f"Top {players_left}")


def entrants_from_standings(rows: Sequence[Any], order: Sequence[str], *, seed: str | int,
                            round_no: int, active: Iterable[str] | None = None) -> list[Entrant]:
    """Entrants in standings order; players the policy cannot tell apart (same points and every
    tiebreaker, e.g. everyone before round 1) are put in a seeded random order, so the bye of
    round 1 is drawn, not given by alphabetical order. `rows` are standings rows (player,
    points, tiebreakers); `order` the policy's tiebreakers."""
    from judge.tournament.standings import sort_key

    keep = None if active is None else set(active)
    rows = [r for r in rows if keep is None or r.player in keep]
    rng = random.Random(f"{round_seed(seed, round_no)}:ties")
    out: list[Any] = []
    i = 0
    while i < len(rows):
        key = sort_key(rows[i].points, rows[i].tiebreakers, order)
        j = i + 1
        while j < len(rows) and sort_key(rows[j].points, rows[j].tiebreakers, order) == key:
            j += 1
        group = list(rows[i:j])
        if len(group) > 1:
            rng.shuffle(group)
        out.extend(group)
        i = j
    return [Entrant(r.player, r.points, k) for k, r in enumerate(out, start=1)]
