"""A recorded match's outcome as a tournament reads it: `tournament result --match` takes it
(Tournament.record_matches) and `tournament warnings` compares a hand-entered result with it
(seal.entered_against_decision). One reading for both, so the two cannot drift apart."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from engine.decisions import StaleDecision, StandingTable, standing_decision
from engine.desk import AppealedAway, decision_appealed
from engine.events import RecordedEvent
from engine.match import Match
from engine.replay import voided_positions
from engine.state import TableState


def standing_outcome(m: Match, events: Sequence[RecordedEvent],
                     stale: Mapping[int, StaleDecision]) -> tuple[Any, TableState]:
    """(The ruleset's outcome of match `m` as it stands, None while it has none; the table it was
    read from). Stale decisions (`stale`: stale_decisions of `events`) are set aside as the replay
    sets them aside (StandingTable). The table is replayed from `events`, the caller's read of the
    whole log: the log is not read again. A ruleset's error is the caller's to word."""
    state = m.replayer.state_at(events=events)
    return StandingTable(m.replayer, events, stale).outcome(m.ruleset.outcome(state)), state


def appealed_standing(events: Sequence[RecordedEvent], stale: Mapping[int, StaleDecision]) -> AppealedAway | None:
    """The match's standing time decision (engine.decisions.standing_decision) where the head judge
    overturned or changed it on appeal (engine.desk.decision_appealed) and nothing replaced it yet:
    neither voided nor decided again. The appeal changes no result by itself, so the match still
    gives that decision: a result taken from it is refused, whatever a tournament's warnings say
    (QA88 1: once the head judge's result was entered and its warning settled, `--match` put the
    overturned winner back). None: no such decision. `events`: the whole log; `stale`: its stale
    decisions."""
    gone = voided_positions(events)
    d = standing_decision(events, gone, stale)
    return None if d is None else decision_appealed(events, gone, d.position)


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
