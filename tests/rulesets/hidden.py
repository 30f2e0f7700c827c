"""The hidden-information invariant, as a reusable check: record a game twice in a real SQLite log,
once with every card known and once as a scorekeeper sees it (`Ruleset.hide` on every event), then
replay both. Hiding information must never add a finding and never change the outcome.

    assert_hiding_adds_nothing("optcg", [("draw", "-", {...}), ...], tmp_path)

The game recorded "known" must be a true record (every card named is the card that was there); a
record that contradicts itself about cards can move where the contradiction shows (see
docs/rulesets/optcg.md, "Hidden information"). `knowledge=True` also checks the stronger property the
`optcg` and `table` rulesets keep: at the end, every card the hidden table claims to know is known the
same way, in the same zone, by the fully known table (hiding never makes the table guess).

`game_from_file` reads an example log (JSONL or notation) through the project's own importers.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine import replacing
from engine.events import Draft
from engine.match import Match
from engine.rulesets import get_ruleset
from engine.state import TableState
from engine.store import EventStore

Step = tuple[str, str, dict[str, Any]]  # (kind, actor, payload)


def _record(store: EventStore, ruleset: str, players: Sequence[str], steps: Sequence[Step],
            options: dict | None) -> Match:
    m = Match.create(store, ruleset, list(players), options=options, recorded_by="test")
    vocab = m.ruleset.vocabulary()
    drafts = [Draft(kind, vocab[kind].version, actor, payload, "test") for kind, actor, payload in steps]
    m.record_many(drafts)
    return m


def hide_steps(ruleset: str, steps: Sequence[Step], options: dict | None = None) -> list[Step]:
    """The steps as a scorekeeper records them (`Ruleset.hide` on each payload)."""
    rs = get_ruleset(ruleset)(options or {})
    return [(kind, actor, replacing.hide(rs, kind, dict(payload))) for kind, actor, payload in steps]


def known_and_hidden(ruleset: str, players: Sequence[str], steps: Sequence[Step], folder: Path,
                     options: dict | None = None) -> tuple[Match, Match]:
    """The same game recorded twice: all cards known, and hidden as a scorekeeper would record it."""
    hidden = hide_steps(ruleset, steps, options)
    store = EventStore.open(str(folder / f"hidden-{ruleset}.db"))
    return (_record(store, ruleset, players, steps, options),
            _record(store, ruleset, players, hidden, options))


def _keyed(match: Match) -> set[tuple[str, int]]:
    return {(f.rule, f.position) for f in match.validate().active_findings()}


def _outcome(match: Match) -> Any:
    o = match.ruleset.outcome(match.state())
    return None if o is None else (o.result, o.winner)


def guesses(known: TableState, hidden: TableState) -> list[str]:
    """Cards the hidden table knows that the known table does not know the same way, zone by zone."""
    out = []
    for player in known.players:
        for zone in known.zone_names:
            have = Counter(c.code for c in known.zone(player, zone) if c.code)
            claimed = Counter(c.code for c in hidden.zone(player, zone) if c.code)
            extra = claimed - have
            if extra:
                out.append(f"the hidden table claims {dict(extra)} in {player}'s {zone}; the known one has "
                           f"{dict(have) or 'none'} there")
    return out


def hiding_problems(ruleset: str, players: Sequence[str], steps: Sequence[Step], folder: Path,
                    options: dict | None = None, *, knowledge: bool = False) -> list[str]:
    """What hiding broke, in words (empty: the invariant holds)."""
    known, hidden = known_and_hidden(ruleset, players, steps, folder, options)
    problems = []
    added = sorted(_keyed(hidden) - _keyed(known), key=lambda k: (k[1], k[0]))
    if added:
        words = {(f.rule, f.position): f.message for f in hidden.validate().active_findings()}
        problems += [f"hiding added {rule} at event {pos}: {words[(rule, pos)]}" for rule, pos in added]
    if _outcome(known) != _outcome(hidden):
        problems.append(f"hiding changed the outcome: {_outcome(known)} -> {_outcome(hidden)}")
    if knowledge:
        problems += guesses(known.state(), hidden.state())
    return problems


def assert_hiding_adds_nothing(ruleset: str, steps: Sequence[Step], folder: Path,
                               players: Sequence[str] = ("Ann", "Bob"), options: dict | None = None,
                               *, knowledge: bool = False) -> None:
    problems = hiding_problems(ruleset, players, steps, folder, options, knowledge=knowledge)
    assert not problems, "\n".join(problems)


def game_from_file(path: str, folder: Path) -> tuple[str, list[str], dict | None, list[Step]]:
    """(ruleset, players, options, steps) of a log file, read by the importer `tablejudge import` would
    choose for it (JSONL, notation, OPTCGSim) into a scratch SQLite log, then read back."""
    from judge.io.importers import guess_format, importer

    store = EventStore.open(str(folder / "read.db"))
    summary = importer(guess_format(path)).import_file(store, path)
    events = store.read(summary.match)
    created = events[0].payload
    steps = [(e.kind, e.actor, e.payload) for e in events[1:]]
    return created["ruleset"], list(created["players"]), created.get("options") or None, steps


class Shadow:
    """The known table as a game generator writes it: each step is applied at once (check, then apply,
    as replay does), so a generator can read instance ids off the table and see the findings so far."""

    def __init__(self, ruleset: str, players: Sequence[str], options: dict | None = None):
        from engine.events import RecordedEvent

        self._seal = RecordedEvent.seal
        self.ruleset = get_ruleset(ruleset)(options or {})
        self.players = list(players)
        created = self._seal(match="g", position=1, kind="match.created", version=1, actor="-",
                             payload={"ruleset": ruleset, "players": self.players}, recorded_at="",
                             recorded_by="g", prev_hash="")
        self.state = self.ruleset.new_state(created)
        self.steps: list[Step] = []
        self.findings: list[Any] = []

    def push(self, kind: str, actor: str, payload: dict[str, Any]) -> None:
        e = self._seal(match="g", position=len(self.steps) + 2, kind=kind, version=1, actor=actor,
                       payload=payload, recorded_at="", recorded_by="g", prev_hash="")
        self.findings += self.ruleset.check(self.state, e)
        self.ruleset.apply(self.state, e)
        self.state.position = e.position
        self.steps.append((kind, actor, payload))

    def uid(self, player: str, zone: str, code: str) -> str | None:
        """The topmost instance of `code` in a player's zone, as the table shows it."""
        for c in reversed(self.state.zone(player, zone)):
            if c.code == code:
                return c.uid
        return None
