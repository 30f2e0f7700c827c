"""The hidden-information invariant, as a reusable check: record a game twice in a real SQLite log,
once with every card known and once as a scorekeeper sees it (`Ruleset.hide` on every event), then
replay both. Hiding information must never add a finding and never change the outcome.

    assert_hiding_adds_nothing("optcg", [("draw", "-", {...}), ...], tmp_path)
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.events import Draft
from engine.match import Match
from engine.rulesets import get_ruleset
from engine.store import EventStore

Step = tuple[str, str, dict[str, Any]]  # (kind, actor, payload)


def _record(store: EventStore, ruleset: str, players: Sequence[str], steps: Sequence[Step],
            options: dict | None) -> Match:
    m = Match.create(store, ruleset, list(players), options=options, recorded_by="test")
    vocab = m.ruleset.vocabulary()
    drafts = [Draft(kind, vocab[kind].version, actor, payload, "test") for kind, actor, payload in steps]
    m.record_many(drafts)
    return m


def known_and_hidden(ruleset: str, players: Sequence[str], steps: Sequence[Step], folder: Path,
                     options: dict | None = None) -> tuple[Match, Match]:
    """The same game recorded twice: all cards known, and hidden as a scorekeeper would record it."""
    rs = get_ruleset(ruleset)(options or {})
    hidden = [(kind, actor, rs.hide(kind, dict(payload))) for kind, actor, payload in steps]
    store = EventStore.open(str(folder / f"hidden-{ruleset}.db"))
    return (_record(store, ruleset, players, steps, options),
            _record(store, ruleset, players, hidden, options))


def _keyed(match: Match) -> set[tuple[str, int]]:
    return {(f.rule, f.position) for f in match.validate().active_findings()}


def _outcome(match: Match) -> Any:
    o = match.ruleset.outcome(match.state())
    return None if o is None else (o.result, o.winner)


def hiding_problems(ruleset: str, players: Sequence[str], steps: Sequence[Step], folder: Path,
                    options: dict | None = None) -> list[str]:
    """What hiding broke, in words (empty: the invariant holds)."""
    known, hidden = known_and_hidden(ruleset, players, steps, folder, options)
    problems = []
    added = sorted(_keyed(hidden) - _keyed(known), key=lambda k: (k[1], k[0]))
    if added:
        words = {(f.rule, f.position): f.message for f in hidden.validate().active_findings()}
        problems += [f"hiding added {rule} at event {pos}: {words[(rule, pos)]}" for rule, pos in added]
    if _outcome(known) != _outcome(hidden):
        problems.append(f"hiding changed the outcome: {_outcome(known)} -> {_outcome(hidden)}")
    return problems


def assert_hiding_adds_nothing(ruleset: str, steps: Sequence[Step], folder: Path,
                               players: Sequence[str] = ("Ann", "Bob"), options: dict | None = None) -> None:
    problems = hiding_problems(ruleset, players, steps, folder, options)
    assert not problems, "\n".join(problems)
