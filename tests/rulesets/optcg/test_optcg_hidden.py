"""optcg as a scorekeeper records it: hands, decks and Life cards unseen.

- the QA game (examples/optcg/feature-match-hidden.txt): a 17-turn feature match logged live with hands
  unknown, plays named, draws as counts; every finding on it would be false, and its outcome is the
  real one;
- the issue's own example (`draw 5`, then `play OP01-016 1`);
- a real OPTCGSim log (every card named) keeps the invariant when hidden;
- `hide` kind by kind, as docs/rulesets/optcg.md says.
"""
from __future__ import annotations

import os
from collections import Counter

import pytest

from engine.match import Match
from engine.rulesets import get_ruleset
from engine.store import EventStore
from judge.io.importers import notation
from tests.conftest import ROOT
from tests.rulesets.hidden import game_from_file, hiding_problems
from tests.rulesets.optcg.support import SIM_LOG, ev, last_findings, registration

QA_GAME = os.path.join(ROOT, "examples", "optcg", "feature-match-hidden.txt")
A, B = "Ann", "Bob"


@pytest.fixture
def qa_match(tmp_path):
    store = EventStore.open(str(tmp_path / "qa.db"))
    summary = notation.import_file(store, QA_GAME)
    return Match(store, summary.match)


def test_the_qa_game_raises_no_finding_and_ends_as_it_did(qa_match):
    v = qa_match.validate()
    assert [(f.position, f.rule, f.message) for f in v.active_findings()] == []
    outcome = qa_match.ruleset.outcome(v.state)
    last = qa_match.head_position()
    assert (outcome.result, outcome.winner, outcome.how) == ("win", A, "life")
    assert outcome.explanation[-1] == f"event {last}"  # decided by the second point of the Double Attack
    assert v.state.turn == 17


def test_the_qa_game_is_a_real_game_seen_from_the_side(qa_match):
    events = qa_match.events()
    kinds = Counter(e.kind for e in events)
    for kind in ("counter", "block", "don.attach", "ko", "effect", "life.taken", "attack"):
        assert kinds[kind] >= 2, kind
    assert any(e.kind == "life.taken" and e.payload.get("to") == "trigger" for e in events)
    assert any(e.kind == "ko" and e.payload.get("by") for e in events)  # an effect's K.O.
    assert any(e.kind == "attack" and e.payload.get("attacker") == "ST01-012" for e in events)  # [Double Attack]
    # what a scorekeeper cannot see is nowhere in it: draws are counts, Life cards go to the hand unnamed
    assert all(not e.payload.get("cards") for e in events if e.kind in ("draw", "life.placed"))
    assert all(not e.payload.get("card") for e in events if e.kind == "life.taken" and
               e.payload.get("to", "hand") == "hand")
    rs = get_ruleset("optcg")()
    assert all(rs.hide(e.kind, e.payload) == e.payload for e in events[1:])


def test_the_issue_example_a_play_from_five_unseen_cards():
    steps = [ev("deck.registered", registration(A)), ev("deck.registered", registration(B)),
             ev("turn.order", {"first": A}), ev("draw", {"player": A, "count": 5}),
             ev("draw", {"player": B, "count": 5}), ev("mulligan", {"player": A, "decision": "keep"}),
             ev("mulligan", {"player": B, "decision": "keep"}), ev("life.placed", {"player": A, "count": 5}),
             ev("life.placed", {"player": B, "count": 5}), ev("turn", {"player": A}), ev("refresh", {"player": A}),
             ev("don", {"player": A, "count": 1}), ev("play", {"player": A, "card": "OP01-016", "paid": 1})]
    assert last_findings(steps) == []


def test_a_real_simulator_log_hidden_gains_no_finding(tmp_path):
    ruleset, players, options, steps = game_from_file(SIM_LOG, tmp_path)
    hidden = [get_ruleset("optcg")().hide(k, p) for k, _, p in steps]
    assert sum(1 for (k, _, p), h in zip(steps, hidden) if p != h) > 50  # it names many unseen cards
    assert hiding_problems(ruleset, players, steps, tmp_path, options, knowledge=True) == []


# --- hide, kind by kind (the table in docs/rulesets/optcg.md) -------------------------------------

HIDE = [
    ("draw", {"player": A, "count": 2, "cards": ["OP01-016", "OP01-013"], "by": "x"},
     {"player": A, "count": 2, "by": "x"}),
    ("life.placed", {"player": A, "count": 5, "cards": ["OP01-016"]}, {"player": A, "count": 5}),
    ("life.taken", {"player": B, "card": "OP01-016"}, {"player": B}),
    ("life.taken", {"player": B, "card": "OP01-016", "to": "trigger"}, {"player": B, "card": "OP01-016", "to": "trigger"}),
    ("life.taken", {"player": B, "card": "OP01-016", "to": "trash"}, {"player": B, "card": "OP01-016", "to": "trash"}),
    ("play", {"player": A, "card": "OP01-016", "uid": "c12"}, {"player": A, "card": "OP01-016"}),
    ("counter", {"player": B, "card": "OP01-013"}, {"player": B, "card": "OP01-013"}),
    ("trash", {"player": A, "card": "OP01-016", "uid": "c12"}, {"player": A, "card": "OP01-016"}),
    ("trash", {"player": A, "from_zone": "characters", "uid": "c80"}, {"player": A, "from_zone": "characters", "uid": "c80"}),
    ("move", {"player": A, "from_zone": "deck", "to_zone": "hand", "card": "OP01-016", "by": "x"},
     {"player": A, "from_zone": "deck", "to_zone": "hand", "by": "x"}),
    ("move", {"player": A, "from_zone": "hand", "to_zone": "deck", "card": "OP01-016", "where": "bottom"},
     {"player": A, "from_zone": "hand", "to_zone": "deck", "where": "bottom"}),
    ("move", {"player": A, "from_zone": "deck", "to_zone": "life", "card": "OP01-016"},
     {"player": A, "from_zone": "deck", "to_zone": "life"}),
    ("move", {"player": A, "from_zone": "deck", "to_zone": "trash", "card": "OP01-016"},
     {"player": A, "from_zone": "deck", "to_zone": "trash", "card": "OP01-016"}),
    ("move", {"player": A, "from_zone": "characters", "to_zone": "hand", "card": "OP01-016", "uid": "c80"},
     {"player": A, "from_zone": "characters", "to_zone": "hand", "card": "OP01-016", "uid": "c80"}),
    ("move", {"player": A, "from_zone": "trash", "to_zone": "life", "card": "OP01-016"},
     {"player": A, "from_zone": "trash", "to_zone": "life", "card": "OP01-016"}),
    ("reveal", {"player": A, "zone": "hand", "card": "OP01-016", "uid": "c12"}, {"player": A, "zone": "hand", "card": "OP01-016"}),
    ("reveal", {"player": A, "zone": "trash", "card": "OP01-016", "uid": "c90"},
     {"player": A, "zone": "trash", "card": "OP01-016", "uid": "c90"}),
    ("attack", {"player": A, "attacker_uid": "c80", "target": "OP01-001"}, {"player": A, "attacker_uid": "c80", "target": "OP01-001"}),
    ("mulligan", {"player": A}, {"player": A}),
    ("deck.registered", registration(A), registration(A)),
]


@pytest.mark.parametrize("kind,payload,hidden", HIDE, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(HIDE)])
def test_hide_kind_by_kind(kind, payload, hidden):
    assert get_ruleset("optcg")().hide(kind, payload) == hidden


def test_every_kind_is_either_hidden_or_kept_on_purpose():
    """A new kind must be thought about: it is in HIDE above, or listed here as carrying no hidden card."""
    kept = {"turn.order", "turn", "refresh", "phase", "don", "don.rest", "don.activate", "don.attach",
            "don.detach", "don.minus", "effect", "rest", "set.active", "power.mod", "keyword.gain", "block", "damage.step",
            "ko", "shuffle", "battle.end", "turn.end", "concede", "game.end", "player.left", "annotation",
                "player.named",  # a seat's name: open information
            "log.count"}  # a count: how many cards a zone holds is open information
    covered = {k for k, _, _ in HIDE} | kept
    assert {k.kind for k in get_ruleset("optcg").kinds} == covered


def test_a_replacement_hides_what_the_event_it_replaces_hides(tmp_path):
    """A judge's correction saying what a draw should have read (engine/replacing.py) names the cards
    drawn: a viewer gets them hidden as the draw's own are, and hiding the log still adds nothing."""
    from judge.replay.timeline import hide_event
    ruleset, players, options, steps = game_from_file(SIM_LOG, tmp_path)
    at = next(i for i, (k, _, p) in enumerate(steps) if k == "draw" and p.get("cards"))
    kind, actor, draw = steps[at]
    fix = {"voids": at + 2, "reason": "the same draw, as the judge read it",
           "instead": {"kind": kind, "version": 1, "actor": actor, "payload": draw}}
    steps = steps + [("correction", "judge:Zoe", fix)]
    assert hiding_problems(ruleset, players, steps, tmp_path, options, knowledge=True) == []
    m = Match.create(EventStore.open(str(tmp_path / "fix.db")), ruleset, players, options=options)
    for k, a, p in steps[:at + 1]:
        m.record(k, p, actor=a)
    shown = hide_event(m, m.record("correction", fix, actor="judge:Zoe").event).payload["instead"]["payload"]
    assert shown == get_ruleset("optcg")().hide("draw", dict(draw)) and not shown.get("cards")
