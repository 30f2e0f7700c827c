"""Shared pieces of the optcg tests: the card fixture, a standard opening, and an in-memory judge.

The in-memory judge folds events through the ruleset exactly as engine.replay does (check on the
state before, then apply), without a store, so a rule's legal and illegal cases run in milliseconds.
Tests that need the store use real SQLite files in tmp_path.
"""
from __future__ import annotations

import json
import os
from typing import Any

from engine.events import RecordedEvent
from engine.rulesets import get_ruleset
from engine.state import TableState

from tests.conftest import ROOT

HERE = os.path.join(ROOT, "tests")  # the fixtures are in tests/fixtures
CARDS_JSON = os.path.join(HERE, "fixtures", "optcg", "cards.json")
SIM_LOG = os.path.join(HERE, "fixtures", "optcgsim", "esempio.log")

RED_DECK = (["OP01-013"] * 4 + ["OP01-016"] * 4 + ["OP01-024"] * 4 + ["OP01-025"] * 4 + ["ST01-006"] * 4
            + ["ST01-012"] * 4 + ["OP02-013"] * 4 + ["OP01-051"] * 4 + ["OP01-029"] * 4 + ["OP01-026"] * 4
            + ["ST01-017"] * 4 + ["OP01-030"] * 4 + ["OP01-031"] * 2)
assert len(RED_DECK) == 50


def card_facts() -> dict[str, dict[str, Any]]:
    """{number: facts} from the fixture, read as `tablejudge cards import` reads it."""
    from judge.io.carddb import CardDB
    db = CardDB(":memory:")
    db.import_file(CARDS_JSON)
    return db.facts_for(db._local_rows())


def registration(player: str, leader: str = "OP01-001", deck: list[str] | None = None) -> dict:
    deck = list(RED_DECK if deck is None else deck)
    facts = card_facts()
    return {"player": player, "leader": leader, "deck": deck,
            "cards": {c: facts[c] for c in dict.fromkeys([leader] + deck) if c in facts}}


def ev(kind: str, payload: dict | None = None, actor: str = "-") -> tuple[str, str, dict]:
    return (kind, actor, payload or {})


def turn_start(player: str, *, draw: bool | list[str] = True, don: int | None = None) -> list[tuple[str, str, dict]]:
    """A turn up to its main phase: turn, refresh, draw (True: one card unseen; a list: those
    cards; False: none), DON!! (`don` cards, else the payload's default)."""
    out = [ev("turn", {"player": player}), ev("refresh", {"player": player})]
    if draw:
        out.append(ev("draw", {"player": player} if draw is True else {"player": player, "cards": draw}))
    out.append(ev("don", {"player": player} if don is None else {"player": player, "count": don}))
    return out


# after opening(): Ann's turn 3 ends, Bob plays turn 4, Ann's turn 5 reaches its main phase
TO_TURN_5 = [ev("turn.end", {"player": "Ann"}), *turn_start("Bob"), ev("turn.end", {"player": "Bob"}),
             *turn_start("Ann")]


def opening(first_turns: bool = True) -> list[tuple[str, str, dict]]:
    """Setup, then turns 1 (Ann) and 2 (Bob), then Ann's turn 3 up to her main phase.

    After it (turn 3, Ann's DON!! phase): Ann has 3 active DON!!, OP01-016 on the field (played in
    turn 1, active), OP01-013, OP01-025, ST01-006, OP01-029, OP01-024 in hand; Bob has ST01-006
    (Blocker, active) on the field, 1 active + 1 rested DON!!, and OP01-016, OP01-013, OP01-029,
    OP01-024, OP01-026 in hand. Both have 5 Life.
    """
    out = [
        ev("deck.registered", registration("Ann")),
        ev("deck.registered", registration("Bob")),
        ev("turn.order", {"first": "Ann", "chosen_by": "Ann"}),
        ev("draw", {"player": "Ann", "count": 5, "cards": ["OP01-013", "OP01-016", "OP01-025", "ST01-006", "OP01-029"]}),
        ev("draw", {"player": "Bob", "count": 5, "cards": ["ST01-006", "OP01-016", "OP01-013", "OP01-029", "OP01-024"]}),
        ev("mulligan", {"player": "Ann", "decision": "keep"}),
        ev("mulligan", {"player": "Bob", "decision": "keep"}),
        ev("life.placed", {"player": "Ann", "count": 5}),
        ev("life.placed", {"player": "Bob", "count": 5}),
    ]
    if not first_turns:
        return out
    out += [
        *turn_start("Ann", draw=False, don=1),  # the first player does not draw in their first turn
        ev("play", {"player": "Ann", "card": "OP01-016"}),
        ev("turn.end", {"player": "Ann"}),
        *turn_start("Bob", draw=["OP01-026"], don=2),
        ev("play", {"player": "Bob", "card": "ST01-006"}),
        ev("turn.end", {"player": "Bob"}),
        *turn_start("Ann", draw=["OP01-024"], don=2),
    ]
    return out


def sealed(events: list[tuple[str, str, dict]], players=("Ann", "Bob"), options=None) -> list[RecordedEvent]:
    created = {"ruleset": "optcg", "players": list(players)}
    if options:
        created["options"] = options
    out = [RecordedEvent.seal(match="m", position=1, kind="match.created", version=1, actor="-",
                              payload=created, recorded_at="", recorded_by="t", prev_hash="")]
    for i, (kind, actor, payload) in enumerate(events, start=2):
        out.append(RecordedEvent.seal(match="m", position=i, kind=kind, version=1, actor=actor,
                                      payload=payload, recorded_at="", recorded_by="t", prev_hash=""))
    return out


def judge(events: list[tuple[str, str, dict]], options=None):
    """(final state, findings) folding the events through the ruleset (check before apply)."""
    rs = get_ruleset("optcg")(options or {})
    recs = sealed(events, options=options)
    state: TableState = rs.new_state(recs[0])
    findings = []
    for e in recs[1:]:
        findings += rs.check(state, e)
        rs.apply(state, e)
        state.position = e.position
    return state, findings, rs


def uid_on_field(events: list[tuple[str, str, dict]], player: str, code: str) -> str:
    """The instance id of `player`'s `code` on the field after `events` (ids are given as cards reach
    the field, so a test reads them from the table rather than guessing them)."""
    state, _, _ = judge(events)
    return next(c.uid for z in ("leader", "characters", "stage") for c in state.zone(player, z) if c.code == code)


def last_findings(events: list[tuple[str, str, dict]], options=None) -> list:
    """The findings on the last event only."""
    _, findings, _ = judge(events, options)
    last = len(events) + 1
    return [f for f in findings if f.position == last]


def rules_of(findings) -> list[str]:
    return sorted(f.rule for f in findings)
