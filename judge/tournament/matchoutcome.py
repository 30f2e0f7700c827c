"""A recorded match's outcome as a tournament reads it: `tournament result --match` takes it
(Tournament.record_matches) and `tournament warnings` compares a hand-entered result with it
(seal.entered_against_decision). One reading for both, so the two cannot drift apart."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from engine.decisions import StaleDecision, StandingTable
from engine.events import RecordedEvent
from engine.match import Match
from engine.state import TableState


def standing_outcome(m: Match, events: Sequence[RecordedEvent],
                     stale: Mapping[int, StaleDecision]) -> tuple[Any, TableState]:
    """(The ruleset's outcome of match `m` as it stands, None while it has none; the table it was
    read from). Stale decisions (`stale`: stale_decisions of `events`) are set aside as the replay
    sets them aside (StandingTable). The table is replayed from `events`, the caller's read of the
    whole log: the log is not read again. A ruleset's error is the caller's to word."""
    state = m.replayer.state_at(events=events)
    return StandingTable(m.replayer, events, stale).outcome(m.ruleset.outcome(state)), state


def by_names(outcome: Any, names: Mapping[str, str]) -> Any:
    """`outcome` (a ruleset's, or an engine.desk.LogOutcome) with its winner and the games each
    won (`score`, where it gives them) by the players' names now (`names`: engine.names.match_names),
    not the seats the log calls them by; None stays None."""
    if outcome is None:
        return None
    if getattr(outcome, "score", None) is not None:
        outcome = dataclasses.replace(outcome, score={names.get(k, k): n for k, n in outcome.score.items()})
    if outcome.winner is not None:
        outcome = dataclasses.replace(outcome, winner=names.get(outcome.winner, outcome.winner))
    return outcome
