"""Swiss pairing and the top cut: properties (hypothesis) and worked cases."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings, strategies as hst

from judge.tournament.pairing import (
    Entrant,
    PairingError,
    bracket_order,
    max_matching,
    pair_next_elimination,
    pair_swiss,
    pair_top_cut,
)
from judge.tournament.standings import MatchResult, compute_standings


def _perfect_without_rematch(players: list[str], opp: dict[str, set[str]]) -> bool:
    """Brute force: can `players` be paired with no rematch?"""
    if not players:
        return True
    a, rest = players[0], players[1:]
    for i, b in enumerate(rest):
        if b not in opp.get(a, set()) and _perfect_without_rematch(rest[:i] + rest[i + 1:], opp):
            return True
    return False


@hst.composite
def histories(draw):
    """A field of 2..11 players with a random past (some rounds played) and byes."""
    n = draw(hst.integers(2, 11))
    players = [f"P{i:02d}" for i in range(n)]
    opp: dict[str, set[str]] = {p: set() for p in players}
    byes: dict[str, int] = {}
    rounds = draw(hst.integers(0, min(n, 9)))
    for _ in range(rounds):
        order = draw(hst.permutations(players))
        for i in range(0, n - 1, 2):
            opp[order[i]].add(order[i + 1])
            opp[order[i + 1]].add(order[i])
        if n % 2:
            byes[order[-1]] = byes.get(order[-1], 0) + 1
    points = {p: draw(hst.integers(0, 3 * rounds)) for p in players}
    ranked = sorted(players, key=lambda p: (-points[p], p))
    entrants = [Entrant(p, points[p], k) for k, p in enumerate(ranked, start=1)]
    seed = draw(hst.integers(0, 10_000))
    return entrants, opp, byes, seed


@settings(max_examples=200, deadline=None)
@given(histories())
def test_every_player_once_no_avoidable_rematch_byes_spread(h):
    entrants, opp, byes, seed = h
    rp = pair_swiss(entrants, round_no=5, seed=seed, opponents=opp, byes=byes, explain=True)
    seen = [p.player1 for p in rp.pairings] + [p.player2 for p in rp.pairings if p.player2]
    assert sorted(seen) == sorted(e.player for e in entrants)
    bye_list = [p.player1 for p in rp.pairings if p.player2 is None]
    assert len(bye_list) == len(entrants) % 2
    names = [e.player for e in entrants]
    if bye_list:
        bye = bye_list[0]
        eligible = [p for p in names if byes.get(p, 0) == 0]
        if eligible:  # at most one bye per player while avoidable
            assert byes.get(bye, 0) == 0
        # the bye goes to the lowest-ranked eligible player unless that forced a rematch
        pool = eligible or names
        lowest = pool[-1]
        if bye != lowest:
            assert not _perfect_without_rematch([p for p in names if p != lowest], opp)
    if rp.rematches:
        # a rematch only when no choice of bye (among eligible players) avoids it
        pool = ([p for p in names if byes.get(p, 0) == 0] or names) if bye_list else [None]
        for b in pool:
            assert not _perfect_without_rematch([p for p in names if p != b], opp)
    assert rp.rematches == [(p.player1, p.player2) for p in rp.pairings
                            if p.player2 and p.player2 in opp.get(p.player1, set())]


@settings(max_examples=50, deadline=None)
@given(histories())
def test_reproducible_from_the_seed(h):
    entrants, opp, byes, seed = h
    a = pair_swiss(entrants, round_no=3, seed=seed, opponents=opp, byes=byes)
    b = pair_swiss(list(reversed(entrants)), round_no=3, seed=seed, opponents=opp, byes=byes)
    assert a.pairings == b.pairings


def test_pairs_within_points_groups_and_explains():
    entrants = [Entrant(p, pts, k) for k, (p, pts) in enumerate(
        [("A", 6), ("B", 6), ("C", 3), ("D", 3), ("E", 3), ("F", 0)], start=1)]
    opp = {"A": {"B"}, "B": {"A"}}
    rp = pair_swiss(entrants, round_no=3, seed=1, opponents=opp, explain=True)
    pairs = {frozenset((p.player1, p.player2)) for p in rp.pairings}
    assert frozenset(("A", "B")) not in pairs
    # A and B (6 points) each meet a 3-point player: they float no further than needed
    for p in rp.pairings:
        if "A" in (p.player1, p.player2) or "B" in (p.player1, p.player2):
            assert {p.player1, p.player2} - {"A", "B"} <= {"C", "D", "E"}
    text = " ".join(p.reason for p in rp.pairings)
    assert "already met" in text or "pairs up" in text
    assert rp.pairings[0].table == 1


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    entrants = [Entrant(p, 0, k) for k, p in enumerate("ABCDE", start=1)]
    rp = pair_swiss(entrants, round_no=2, seed=0, byes={"E": 1}, explain=True)
    bye = [p for p in rp.pairings if p.player2 is None]
    assert bye[0].player1 == "D" and "lowest-ranked eligible" in bye[0].reason
    rp = pair_swiss(entrants, round_no=2, seed=0, byes={p: 1 for p in "ABCDE"}, explain=True)
    assert [p.player1 for p in rp.pairings if p.player2 is None] == ["E"]


def test_granted_bye_is_not_paired():
    entrants = [Entrant(p, 0, k) for k, p in enumerate("ABCDE", start=1)]
    rp = pair_swiss(entrants, round_no=1, seed=0, granted_byes=["A"])
    byes = sorted(p.player1 for p in rp.pairings if p.player2 is None)
    assert "A" in byes and len(byes) == 1  # four left: no second bye


def test_unavoidable_rematches_are_as_few_as_possible():
    # 4 players who all met: every pairing is a rematch; 2 tables, 2 rematches, reported.
    opp = {p: set("ABCD") - {p} for p in "ABCD"}
    rp = pair_swiss([Entrant(p, 0, k) for k, p in enumerate("ABCD", 1)], round_no=4, opponents=opp)
    assert len(rp.rematches) == 2 and "could not be avoided" in rp.notes[0]


def test_max_matching_finds_a_maximum_matching_through_blossoms():
    # an odd cycle with a tail: greedy can miss the perfect matching, blossoms do not
    edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5)]
    adj = [[] for _ in range(6)]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    mate = max_matching(6, adj, greedy_order=[1, 2, 0, 3, 4, 5])
    assert all(m >= 0 for m in mate)
    rng = random.Random(3)
    for _ in range(30):
        n = rng.randint(2, 9)
        adj = [[] for _ in range(n)]
        for a, b in itertools.combinations(range(n), 2):
            if rng.random() < 0.4:
                adj[a].append(b)
                adj[b].append(a)
        mate = max_matching(n, adj, greedy_order=range(n))
        size = sum(1 for i in range(n) if mate[i] > i)
        best = max((k for k in range(n // 2 + 1) for combo in itertools.combinations(
            [(a, b) for a in range(n) for b in adj[a] if a < b], k)
            if len({x for e in combo for x in e}) == 2 * k), default=0)
        assert size == best


def test_a_simulated_event_never_rematches_at_200_players():
    players = [f"P{i:03d}" for i in range(201)]
    rng = random.Random(5)
    results: list[MatchResult] = []
    opp: dict[str, set[str]] = {p: set() for p in players}
    byes: dict[str, int] = {}
    for rnd in range(1, 9):
        st = compute_standings(results, "mtg", players=players)
        rp = pair_swiss([Entrant(r.player, r.points, r.rank) for r in st.rows], round_no=rnd,
                        seed="x", opponents=opp, byes=byes)
        assert rp.rematches == []
        for p in rp.pairings:
            if p.player2 is None:
                byes[p.player1] = byes.get(p.player1, 0) + 1
                results.append(MatchResult(rnd, p.player1, None, 0, 0))
            else:
                opp[p.player1].add(p.player2)
                opp[p.player2].add(p.player1)
                w, l = rng.choice([(2, 0), (2, 1), (0, 2), (1, 2)])
                results.append(MatchResult(rnd, p.player1, p.player2, w, l))
    assert max(byes.values()) == 1


# --- top cut ---------------------------------------------------------------------------------


def test_bracket_order_and_top_cut():
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    with pytest.raises(PairingError):
        bracket_order(6)
    seeded = [f"S{i}" for i in range(1, 10)]
    qf = pair_top_cut(seeded, 8)
    assert [(p.player1, p.player2) for p in qf] == [("S1", "S8"), ("S4", "S5"), ("S2", "S7"), ("S3", "S6")]
    sf = pair_next_elimination(qf, {1: "S1", 2: "S5", 3: "S2", 4: "S3"})
    assert [(p.player1, p.player2) for p in sf] == [("S1", "S5"), ("S2", "S3")]
    with pytest.raises(PairingError):
        pair_next_elimination(qf, {1: "S1"})
    with pytest.raises(PairingError):
        pair_top_cut(seeded[:3], 4)
