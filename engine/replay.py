"""Replay: rebuild the table at any moment of a match's log, and judge each event on the way.

The state after event N is a pure function of events 1..N: fold `ruleset.apply` over them, except
that a `correction` voids one earlier event and a `backup` voids every event after its target. A
voided event stays in the log (and in reports, struck through); replay plays as if it had not
happened, by rebuilding from the last state before it.

Snapshots (the eventsourcing snapshot table, keyed by ruleset version, state layout and options)
make a moment deep in a long match cheap: start from the nearest snapshot at or before it. A
snapshot is used only while no later event voids anything at or before it.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .desk import OFF_TABLE_KINDS
from .events import RecordedEvent
from .findings import Finding
from .rules import Ruleset, get_ruleset
from .state import TableState
from .store import EventStore, MatchNotFound

SNAPSHOT_EVERY = 500
VOIDING_KINDS = ("correction", "backup")


class PositionOutOfRange(LookupError):
    pass


class _NeedEarlierBase(Exception):
    def __init__(self, position: int):
        self.position = position


def void_span(event: RecordedEvent) -> list[int]:
    """Positions an event may void: a correction its one target; a backup everything between `to`
    and itself. Which of a backup's span it really voids depends on their kinds: see `void_targets`."""
    if event.kind == "correction":
        return [event.payload["voids"]]
    if event.kind == "backup":
        return list(range(event.payload["to"] + 1, event.position))
    return []


def void_targets(event: RecordedEvent, kind_at: Callable[[int], str]) -> list[int]:
    """Positions an event voids. A backup rewinds the game, not the judge's desk: judge actions,
    the clock, result slips, notes and corrections inside its span keep counting."""
    span = void_span(event)
    if event.kind == "backup":
        return [p for p in span if kind_at(p) not in OFF_TABLE_KINDS]
    return span


@dataclass
class Validation:
    state: TableState
    findings: list[Finding] = field(default_factory=list)

    @property
    def backed_out(self) -> set[int]:
        return set(self.state.voided)

    def active_findings(self) -> list[Finding]:
        """Findings on events that still count (not corrected away or backed out)."""
        return [f for f in self.findings if f.position not in self.backed_out]


class Replayer:
    def __init__(self, store: EventStore, match: str, ruleset: Ruleset | None = None):
        self.store = store
        self.match = match
        self.created = store.created(match)
        payload = self.created.payload
        self.ruleset = ruleset or get_ruleset(payload["ruleset"])(payload.get("options") or {})
        self.key = self.ruleset.snapshot_key()

    # --- public ---------------------------------------------------------------------------

    def state_at(self, position: int | None = None, *, use_snapshots: bool = True,
                 save_snapshots: bool = True) -> TableState:
        """The table right after event `position` (default: the last event)."""
        upto = self._bounded(position)
        snap = self.store.snapshot_at_or_before(self.match, self.key, upto) if use_snapshots else None
        while True:
            base_pos, base = snap if snap else (1, None)
            events = self.store.read(self.match, after=base_pos, upto=upto)
            save = self._saver() if save_snapshots else None
            try:
                state, _ = self.fold(base, base_pos, events, after_each=save)
                return state
            except _NeedEarlierBase as need:
                snap = self.store.snapshot_at_or_before(self.match, self.key, need.position - 1)

    def state_at_turn(self, turn: int) -> TableState:
        """The table at the start of turn `turn`: right after the event that began it."""
        base_pos, base = 1, None
        for pos in reversed(self.store.snapshot_positions(self.match, self.key)):
            snap = self.store.snapshot_at_or_before(self.match, self.key, pos)
            if snap and snap[1]["turn"] < turn:
                base_pos, base = snap
                break
        events = self.store.read(self.match, after=base_pos)
        try:
            state, _ = self.fold(base, base_pos, events, stop=lambda s: s.turn >= turn)
        except _NeedEarlierBase:
            state, _ = self.fold(None, 1, self.store.read(self.match, after=1),
                                 stop=lambda s: s.turn >= turn)
        if state.turn != turn:
            raise PositionOutOfRange(f"match {self.match} never reaches turn {turn} (last turn: {state.turn})")
        return state

    def validate(self, upto: int | None = None) -> Validation:
        """Judge every event against the state before it. Returns the findings and final state."""
        limit = self._bounded(upto)
        events = self.store.read(self.match, after=1, upto=limit)
        state, findings = self.fold(None, 1, events, check=True)
        return Validation(state, findings)

    def events(self, upto: int | None = None) -> list[RecordedEvent]:
        return self.store.read(self.match, upto=upto)

    # --- the fold -------------------------------------------------------------------------

    def fold(self, base: dict | None, base_pos: int, events: Sequence[RecordedEvent], *,
             check: bool = False, after_each: Callable[[TableState], None] | None = None,
             stop: Callable[[TableState], bool] | None = None) -> tuple[TableState, list[Finding]]:
        ruleset = self.ruleset
        state = self._base_state(base)
        findings: list[Finding] = []
        applied: list[RecordedEvent] = []
        for e in events:
            if e.kind in VOIDING_KINDS:
                if check:
                    findings.extend(ruleset.check(state, e))
                span = void_span(e)
                if span and min(span) <= base_pos:  # the base state already holds what it voids
                    raise _NeedEarlierBase(min(span))
                kinds = {a.position: a.kind for a in applied}
                new = sorted(set(void_targets(e, kinds.__getitem__)) - set(state.voided))
                if new:
                    state = self._rebuild(base, applied, sorted(set(state.voided) | set(new)))
            else:
                if check:
                    findings.extend(ruleset.check(state, e))
                ruleset.apply(state, e)
            state.position = e.position
            applied.append(e)
            if after_each is not None:
                after_each(state)
            if stop is not None and stop(state):
                break
        return state, findings

    def _base_state(self, base: dict | None) -> TableState:
        return TableState.from_dict(base) if base is not None else self.ruleset.new_state(self.created)

    def _rebuild(self, base: dict | None, applied: list[RecordedEvent], voided: list[int]) -> TableState:
        state = self._base_state(base)
        state.voided = voided
        skip = set(voided)
        for e in applied:
            if e.position not in skip and e.kind not in VOIDING_KINDS:
                self.ruleset.apply(state, e)
            state.position = e.position
        return state

    def _saver(self) -> Callable[[TableState], None]:
        def save(state: TableState) -> None:
            if state.position % SNAPSHOT_EVERY == 0:
                self.store.save_snapshot(self.match, self.key, state.position, state.to_dict())
        return save

    def _bounded(self, position: int | None) -> int:
        head = self.store.head(self.match)
        if head is None:
            raise MatchNotFound(f"no match {self.match!r}")
        if position is None:
            return head.position
        if position < 1 or position > head.position:
            raise PositionOutOfRange(
                f"match {self.match} has events 1..{head.position}; there is no event {position}")
        return position
