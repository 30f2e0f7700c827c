"""A finished op2009 match keeps the state hash it had before version 4 (review of ca8beed): a
tournament result taken from a match (`tournament result --match`) stores the match's state hash and
`tournament warnings`, `close` and `verify` replay it again (judge/tournament/seal.py); version 4's
result carried `"drawn": 0` on every finished match, so every op2009 result taken earlier read as
changed. The hashes below are the ones the code before ca8beed gave for these logs."""
from __future__ import annotations

import pytest

from engine.match import Match
from engine.store import EventStore
from tests.rulesets.op2009.builder import ANN, BOB, Log
from tests.rulesets.op2009.games import play_match
from tests.rulesets.op2009.test_op2009_time import game_won_by_concession
from tests.rulesets.tape import Tape


def _hash(m: Match) -> str:
    return m.replayer.state_at(use_snapshots=False, save_snapshots=False).state_hash()


def test_a_match_won_on_games_keeps_its_hash(tmp_path):
    players, steps = play_match(Tape([3] * 600))  # Ann wins 2-1, no game drawn
    m = Match.create(EventStore.open(str(tmp_path / "t.db")), "op2009", players)
    for kind, actor, payload in steps:
        m.record(kind, payload, actor=actor)
    assert m.state().result["how"] == "games 2-1" and "drawn" not in m.state().result
    assert _hash(m) == "ed6897358e4e77934aec4bd40d98ad5e1c7cead7a11bf65e44725d87075dac7d"


def test_a_match_decided_at_time_while_sideboarding_keeps_its_hash(tmp_path):
    L = Log(tmp_path)
    L.register()
    game_won_by_concession(L, BOB)  # Ann 1-0
    L.ev("sideboard", player=BOB, out=["BA-W01"], into=["BA-W09"])
    L.time()
    L.m.record("time.decision", {"result": "win", "winner": ANN, "branch": "sideboard-1-0",
                                 "rule": "OP09-TEMPO-SIDE-1", "steps": ["2 - 1"]}, actor="judge:Kim")
    assert L.state().result["score"] == {ANN: 2, BOB: 1} and "drawn" not in L.state().result
    assert _hash(L.m) == "b1f2f5132f92ec5bee6f564274e5a1e136f30d04c47d3f40b412e4ffcc21e166"
