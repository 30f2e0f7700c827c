"""Replay: rebuild the table at any moment of a match's log, and judge each event on the way.

The state after event N is a pure function of events 1..N: fold `ruleset.apply` over them, except
that a `correction` voids one earlier event and a `backup` voids every event after its target. A
voided event stays in the log (and in reports, struck through); replay plays as if it had not
happened, by rebuilding from the last state before it.

Two views of a moment: *as recorded then* (`state_at(N)`: events 1..N, with the voids among them;
what a recorder saw at N, and what a result's or a seal's state hash stands on) and *as corrected*
(`state_at(N, corrected=True)`, `corrected_fold`: every void in the whole log applied from the
start). Validation's standing findings, `state --at`, the report's timeline and its charts all use
the corrected view, through the one `corrected_fold`, so they never disagree.

Snapshots (the eventsourcing snapshot table, keyed by ruleset version, state layout and options)
make a moment deep in a long match cheap: start from the nearest snapshot at or before it. They are
a cache that is checked, never trusted: a snapshot is used only at a position where replay itself
saves them, only if it carries the hash of the event it stands at (and that event is still there
with that hash), only if its state matches its own state hash, only while the store's guard is
intact, and only while no later event voids anything at or before it. `verify` replays every match
in full and compares every snapshot (engine/integrity.py).

Replay is linear in the log: every count an event carries is bounded by the ruleset's `max_cards`
when it is recorded, and a stored event beyond the limits (written by an older version that did not
check them) is kept, flagged (DESK-9) and not applied, so no stored event can make replay hang.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from engine.desk import OFF_TABLE_KINDS, failure_finding, limit_finding
from engine.events import RecordedEvent
from engine.findings import Finding
from engine.replacing import Replacement, from_correction, noted, replacements
from engine.rulesets import Ruleset, get_ruleset
from engine.schema import MAX_NUMBER
from engine.state import TableState
from engine.store import EventStore, MatchNotFound

SNAPSHOT_EVERY = 50  # a moment deep in a log costs one snapshot and at most 49 events
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
        # clamped: a stored `to` is not trusted to be a position of this log
        return list(range(max(event.payload["to"], 0) + 1, event.position))
    return []


def void_targets(event: RecordedEvent, kind_at: Callable[[int], str]) -> list[int]:
    """Positions an event voids. A backup rewinds the game, not the judge's desk: judge actions,
    the clock, result slips, notes and corrections inside its span keep counting."""
    span = void_span(event)
    if event.kind == "backup":
        return [p for p in span if kind_at(p) not in OFF_TABLE_KINDS]
    return span


def voided_positions(events: Sequence[RecordedEvent]) -> set[int]:
    """Every position the voiding events among `events` void (what `Fold` ends with in
    `state.voided`), found without replaying: the kinds alone decide it."""
    kinds = {e.position: e.kind for e in events}
    out: set[int] = set()
    for e in events:
        if e.kind in VOIDING_KINDS:
            out.update(p for p in void_targets(e, lambda p: kinds.get(p, "")) if p in kinds)
    return out


def corrections_of(events: Sequence[RecordedEvent]) -> tuple[frozenset[int], dict[int, Replacement]]:
    """What the corrections among `events` (a whole log) do to it: the positions they void, and
    what plays in place of those a correction replaces. The corrected replay folds with these;
    `as_corrected` lists with them."""
    return frozenset(voided_positions(events)), replacements(events)


def as_corrected(events: Sequence[RecordedEvent]) -> list[RecordedEvent]:
    """`events` (a whole log, or the kinds of it a caller reads) as the corrected replay plays
    them, without replaying: a void event left out, or, where a correction replaces it, the
    replacement in its place (at its position); the voiding events themselves kept. What reads a
    few kinds instead of replaying (`names.match_names`) sees the same events replay applies."""
    gone, instead = corrections_of(events)
    out = []
    for e in events:
        if e.kind in VOIDING_KINDS or e.position not in gone:
            out.append(e)
        elif e.position in instead:
            out.append(instead[e.position].event)
    return out


def as_played(events: Sequence[RecordedEvent]) -> list[RecordedEvent]:
    """`as_corrected` without the voiding events: what the corrected replay applies, in order. An
    end-of-time procedure reads the log through this (op2009 folds it step by step, optcg counts its
    turns), so a decision made after a correction stands on the table as corrected, a replacement
    in its target's place (a concession replaced before the call counts at the call)."""
    return [e for e in as_corrected(events) if e.kind not in VOIDING_KINDS]


class Fold:
    """The table event by event, as replay builds it, voids included: used by replay, and by
    anything that walks a log one event at a time (the notation reader and writer).

    Starts from `base` (a snapshot's state, the table after event `base_pos`) or, without one,
    from the ruleset's table right after `created`. `skip`: positions voided later in the log,
    left out from the start (the corrected view: `Replayer.corrected_fold`). `instead`: what the
    corrections of the whole log play in place of the positions they replace (the corrected view;
    without it, each correction's replacement counts from the correction on, as its void does).
    `left_out`: the kinds of events the caller leaves out of the events it pushes (decision_basis
    leaves out decisions): a backup's span may cover them, and only their kind says whether it
    voids them."""

    def __init__(self, ruleset: Ruleset, created: RecordedEvent, base: dict | None = None,
                 base_pos: int = 1, skip: frozenset[int] = frozenset(),
                 instead: dict[int, Replacement] | None = None,
                 left_out: Mapping[int, str] | None = None):
        self.ruleset = ruleset
        self.left_out: dict[int, str] = dict(left_out or {})
        self.created = created
        self.base = base
        self.base_pos = base_pos
        self.skip = skip
        self.instead: dict[int, Replacement] = dict(instead or {})
        self._noting = instead is None  # the view as recorded: learn replacements as they come
        self.state = self._base_state()
        self.state.voided = sorted(skip)
        self.applied: list[RecordedEvent] = []
        self.inert: set[int] = set()  # stored events beyond the limits: kept, flagged, not applied
        self.inert_instead: set[int] = set()  # the same of replacements, by the position they replace
        self._limits = ruleset.limit_checks()  # looked up per event: replay's hot path

    def push(self, e: RecordedEvent, *, check: bool = False) -> list[Finding]:
        """Apply one event (judging it first against the table before it, with `check`)."""
        played, by = e, 0
        if e.position in self.skip:  # voided later in the log: as if it had not happened
            sub = self.instead.get(e.position)
            if sub is None:
                self.state.position = e.position
                self.applied.append(e)
                return []
            played, by = sub.event, sub.by  # ... or as if it had read what a correction says
        findings = self._play(e, played, check)
        return [from_correction(f, by) for f in findings] if by else findings

    def _play(self, e: RecordedEvent, played: RecordedEvent, check: bool) -> list[Finding]:
        """Judge and apply `played`: `e` itself, or the replacement a correction plays in its place."""
        inert = self.inert if played is e else self.inert_instead
        problem = self.ruleset.limit_problem(played) if played.kind in self._limits else None
        if problem is not None:
            inert.add(e.position)
            self.state.position = e.position
            self.applied.append(e)
            return [limit_finding(e.position, f"event {e.position} ({e.kind}): {problem}; it is kept "
                                  "in the log but not replayed (void it with a correction)")] if check else []
        try:
            findings = self.ruleset.check(self.state, played, self.history) if check else []
        except Exception as err:  # noqa: BLE001 - a ruleset bug must not stop replay (DESK-10)
            findings = [failure_finding(e.position, f"the ruleset could not judge event {e.position} "
                                        f"({e.kind}): {type(err).__name__}: {str(err)[:120]}")]
        if e.kind in VOIDING_KINDS:
            span = void_span(e)
            if span and min(span) <= self.base_pos:  # the base state already holds what it voids
                raise _NeedEarlierBase(min(span))
            kinds = {**self.left_out, **{a.position: a.kind for a in self.applied}}
            new = sorted(set(void_targets(e, kinds.__getitem__)) - set(self.state.voided))
            replaced = self._noting and noted(self.instead, e)
            if new or replaced:
                self.state = self._rebuild(sorted(set(self.state.voided) | set(new)))
        else:
            try:
                self.ruleset.apply(self.state, played)
            except Exception as err:  # noqa: BLE001 - kept, flagged, not replayed (DESK-10)
                inert.add(e.position)
                self.applied.append(e)
                self.state = self._rebuild(list(self.state.voided))  # the table without its half
                return findings + ([failure_finding(
                    e.position, f"the ruleset could not apply event {e.position} ({e.kind}): "
                    f"{type(err).__name__}: {str(err)[:120]}; it is kept in the log but not replayed "
                    "(a bug in the ruleset: please report it)")] if check else [])
        self.state.position = e.position
        self.applied.append(e)
        return findings

    def _base_state(self) -> TableState:
        if self.base is not None:
            return TableState.from_dict(self.base)
        return self.ruleset.new_state(self.created)

    def history(self) -> list[RecordedEvent] | None:
        """The events pushed so far as they count on the table now (`engine.rulesets.base.History`,
        what a check may ask for): None from a snapshot, whose events before it are not here."""
        if self.base is not None:
            return None
        return [p for _, p in self._counting(set(self.state.voided) | self.skip) if p is not None]

    def _counting(self, gone: set[int]) -> Iterator[tuple[RecordedEvent, RecordedEvent | None]]:
        """Each event pushed, with what the table plays for it: itself, a correction's
        replacement in its place, or None (a voiding event, a void one, one kept but not replayed)."""
        for e in self.applied:
            if e.kind in VOIDING_KINDS:
                yield e, None
            elif e.position in gone:
                sub = self.instead.get(e.position)
                yield e, (sub.event if sub is not None and e.position not in self.inert_instead else None)
            else:
                yield e, (e if e.position not in self.inert else None)

    def _rebuild(self, voided: list[int]) -> TableState:
        """The table again from the base, skipping what is now void (and playing, in place of a
        void event a correction replaces, its replacement)."""
        state = self._base_state()
        state.voided = voided
        for e, played in self._counting(set(voided) | self.skip):
            if played is e:
                self.ruleset.apply(state, e)
            elif played is not None:
                try:
                    self.ruleset.apply(state, played)
                except Exception:  # noqa: BLE001 - kept, not replayed; the corrected fold flags it
                    self.inert_instead.add(e.position)
                    return self._rebuild(voided)  # the table without its half
            state.position = e.position
        return state


@dataclass
class Validation:
    """The findings of a log and the table after it.

    `findings` holds every finding: the ones that stand, judged on the log as corrected (voided
    events left out, so a finding that only a voided event caused is gone), and the ones raised
    as the events came in that no longer stand. `voided_by` maps each of the latter to the
    correction(s) or backup(s) that took it away."""

    state: TableState
    findings: list[Finding] = field(default_factory=list)
    voided_by: dict[Finding, tuple[int, ...]] = field(default_factory=dict)

    @property
    def backed_out(self) -> set[int]:
        return set(self.state.voided)

    def is_void(self, f: Finding) -> bool:
        return f in self.voided_by

    def active_findings(self) -> list[Finding]:
        """Findings that stand: on events that still count, and not caused by a voided event."""
        return [f for f in self.findings if f not in self.voided_by]

    def void_findings(self) -> list[tuple[Finding, tuple[int, ...]]]:
        """Findings that no longer stand, each with the voiding events that took it away."""
        return [(f, self.voided_by[f]) for f in self.findings if f in self.voided_by]


class Replayer:
    def __init__(self, store: EventStore, match: str, ruleset: Ruleset | None = None):
        self.store = store
        self.match = match
        self.created = store.match_created(match)  # NotAMatch for a tournament's id
        payload = self.created.payload
        self.ruleset = ruleset or get_ruleset(payload["ruleset"])(payload.get("options") or {})
        self.key = self.ruleset.snapshot_key()
        self.distrusted: list[int] = []  # snapshots found inconsistent with the log (not used)

    # --- public ---------------------------------------------------------------------------

    def state_at(self, position: int | None = None, *, use_snapshots: bool = True,
                 save_snapshots: bool = True, corrected: bool = False,
                 events: Sequence[RecordedEvent] | None = None) -> TableState:
        """The table right after event `position` (default: the last event): as recorded then
        (events 1..`position` and the voids among them), or with `corrected` as the whole log
        corrects it (every void applied, also those recorded after `position`). `events`: the
        whole stream as the caller read it already; replay takes its events from it (snapshots
        still checked against it) instead of reading the log again."""
        held = events
        if position is None:
            upto = held[-1].position if held else self._bounded(None)
        else:
            upto = position
        if upto < 1 or upto > MAX_NUMBER:  # (no log holds a billion events; SQLite's integers end at 2**63)
            self._bounded(upto)  # names the range
        if corrected:
            events = self._read(held, after=1, upto=None)
            gone = voided_positions(events)
            if any(p <= upto for p in gone):  # else both views are the same table
                if events and events[-1].position < upto:
                    self._bounded(upto)
                state, _ = self.corrected_fold([e for e in events if e.position <= upto], whole=events)
                state.voided = sorted(p for p in gone if p <= upto)
                return state
            held = events  # the same table as recorded then: replayed below from this one read
        snap = self._snapshot(upto) if use_snapshots else None
        while True:
            if snap is None:
                base_pos, base, events = 1, None, self._read(held, after=1, upto=upto)
            else:
                base_pos, base = snap.position, snap.state
                events = self._read(held, after=base_pos - 1, upto=upto)
                if not events or events[0].position != base_pos or events[0].hash != snap.event_hash:
                    # the snapshot does not stand on this log's event: never use it
                    self.distrusted.append(base_pos)
                    snap = self._snapshot(base_pos - 1)
                    continue
                events = events[1:]
            last = events[-1].position if events else base_pos
            if position is not None and last != upto:
                self._bounded(upto)  # beyond the end: say where the log ends
            try:
                state, _ = self.fold(base, base_pos, events, save=save_snapshots)
                return state
            except _NeedEarlierBase as need:
                snap = self._snapshot(need.position - 1) if use_snapshots else None

    def _read(self, held: Sequence[RecordedEvent] | None, *, after: int, upto: int | None) -> list[RecordedEvent]:
        """Events after < position <= upto: from `held` (read already) if given, else the store."""
        if held is None:
            return self.store.read(self.match, after=after, upto=upto)
        return [e for e in held if after < e.position and (upto is None or e.position <= upto)]

    def _snapshot(self, position: int):
        """The nearest usable snapshot at or before `position` (see the module's docstring)."""
        while position >= SNAPSHOT_EVERY:
            snap = self.store.snapshot_at_or_before(self.match, self.key, position)
            if snap is None:
                return None
            if snap.position % SNAPSHOT_EVERY == 0 and snap.position not in self.distrusted:
                return snap
            self.distrusted.append(snap.position)
            position = snap.position - 1
        return None

    def state_at_turn(self, turn: int, *, corrected: bool = False) -> TableState:
        """The table at the start of turn `turn`: right after the event that began it (with
        `corrected`, in the log as corrected: see `state_at`). Turns start at 1: the start of turn 1
        is the table when the set-up is done, and a moment inside the set-up has no turn number."""
        if turn < 1:  # QA73 10: turn 0 stopped after event 2, mid set-up; -1 said "(last turn: 0)"
            raise PositionOutOfRange(f"match {self.match} has no turn {turn}: turns start at 1 (the start of "
                                     "turn 1 is the table when the set-up is done; a moment inside the set-up "
                                     "is shown by its event's position)")
        held = None
        if corrected:
            held = self.store.read(self.match, after=1)
            gone = voided_positions(held)
            if gone:
                state, _ = self.corrected_fold(held, stop=lambda s: s.turn >= turn)
                state.voided = sorted(p for p in gone if p <= state.position)
                return self._reached(state, turn)
            # nothing voided: the table as recorded, replayed below from this one read
        base_pos, base = 1, None
        for pos in reversed(self.store.snapshot_positions(self.match, self.key)):
            snap = self._snapshot(pos)
            if snap is not None and snap.state["turn"] < turn:
                if held is not None:
                    event = next((e for e in held if e.position == snap.position), None)
                else:
                    event = self.store.event_at(self.match, snap.position)
                if event is not None and event.hash == snap.event_hash:
                    base_pos, base = snap.position, snap.state
                    break
        events = self._read(held, after=base_pos, upto=None)
        try:
            state, _ = self.fold(base, base_pos, events, stop=lambda s: s.turn >= turn)
        except _NeedEarlierBase:
            state, _ = self.fold(None, 1, self._read(held, after=1, upto=None),
                                 stop=lambda s: s.turn >= turn)
        return self._reached(state, turn)

    def _reached(self, state: TableState, turn: int) -> TableState:
        if state.turn != turn:
            raise PositionOutOfRange(f"match {self.match} never reaches turn {turn} (last turn: {state.turn})")
        return state

    def validate(self, upto: int | None = None) -> Validation:
        """Judge every event against the state before it. Returns the findings and final state."""
        limit = self._bounded(upto)
        return self.validate_events(self.store.read(self.match, after=1, upto=limit))

    def validate_events(self, events: Sequence[RecordedEvent]) -> Validation:
        """`validate` on events given (2 onwards): the log as a viewer may see it, say with hidden
        cards hidden (judge.replay.timeline)."""
        state, raised = self.fold(None, 1, events, check=True)
        if not state.voided:
            return Validation(state, raised)
        return Validation(state, *self._judge_corrected(events, raised))

    def _judge_corrected(self, events: Sequence[RecordedEvent],
                         raised: list[Finding]) -> tuple[list[Finding], dict[Finding, tuple[int, ...]]]:
        """Judge the log again as corrected (voided events and the voiding ones left out): what
        stands is what that finds; a finding raised as the events came in that it does not find
        is void, and names the voiding events that took it away."""
        voiders = [e for e in events if e.kind in VOIDING_KINDS]
        kinds = {e.position: e.kind for e in events}
        _, judged = self.corrected_fold(events, check=True)
        # a void's own findings: as raised when it came in (the corrected log leaves it out)
        standing = [f for f in judged if kinds.get(f.position) not in VOIDING_KINDS]
        standing += [f for f in raised if kinds.get(f.position) in VOIDING_KINDS]
        left = list(standing)
        void: dict[Finding, tuple[int, ...]] = {}
        targets = {v.position: set(void_targets(v, kinds.__getitem__)) for v in voiders}
        for f in raised:
            if f in left:
                left.remove(f)
                continue
            by = [p for p, t in targets.items() if f.position in t] or \
                 [p for p, t in targets.items() if p > f.position and any(x <= f.position for x in t)]
            void[f] = tuple(by)
        findings = sorted(standing + list(void), key=lambda f: f.position)
        return findings, void

    def events(self, upto: int | None = None) -> list[RecordedEvent]:
        return self.store.read(self.match, upto=upto)

    def decision_basis(self, events: Sequence[RecordedEvent] | None = None,
                       upto: int | None = None) -> TableState:
        """The table an end-of-time decision is judged on: events 1..`upto` (default: all given)
        except earlier decisions, which are the procedure's output, not its input. A recorded
        decision carries this table's state hash, and `verify` replays it again."""
        if events is None:
            events = self.store.read(self.match, upto=upto)
        within = [e for e in events[1:] if upto is None or e.position <= upto]
        game = [e for e in within if e.kind != "time.decision"]
        # a backup past a decision spans it: the fold must know what it left out (QA74 N1)
        state, _ = self.fold(None, 1, game, left_out={e.position: e.kind for e in within
                                                       if e.kind == "time.decision"})
        return state

    # --- the fold -------------------------------------------------------------------------

    def corrected_fold(self, events: Sequence[RecordedEvent], *, whole: Sequence[RecordedEvent] | None = None,
                       check: bool = False, after_each: Callable[[TableState], None] | None = None,
                       stop: Callable[[TableState], bool] | None = None,
                       leave_out: Iterable[int] = ()) -> tuple[TableState, list[Finding]]:
        """The log as corrected: `events` (2 onwards) played with every void among them (or among
        `whole`, a longer log they begin) left out from the start, and a replacement a correction
        gives played in its target's place. The one corrected replay: validation's standing
        findings, `state --at`, the report's timeline and charts. `leave_out`: more positions played
        as voids (the stale time decisions: engine/decisions.py `StandingTable`)."""
        log = events if whole is None else whole
        skip, instead = corrections_of(log)
        fold = Fold(self.ruleset, self.created, None, 1, skip=skip | frozenset(leave_out), instead=instead)
        findings: list[Finding] = []
        for e in events:
            findings.extend(fold.push(e, check=check and e.kind not in VOIDING_KINDS))
            if after_each is not None:
                after_each(fold.state)
            if stop is not None and stop(fold.state):
                break
        return fold.state, findings

    def fold(self, base: dict | None, base_pos: int, events: Sequence[RecordedEvent], *,
             check: bool = False, after_each: Callable[[TableState], None] | None = None,
             stop: Callable[[TableState], bool] | None = None,
             save: bool = False, left_out: Mapping[int, str] | None = None) -> tuple[TableState, list[Finding]]:
        """Play `events` on the base state. With `save`, keep a snapshot every SNAPSHOT_EVERY
        events (with the hash of the event it stands at). `left_out`: see `Fold`."""
        fold = Fold(self.ruleset, self.created, base, base_pos, left_out=left_out)
        findings: list[Finding] = []
        if not (check or after_each or stop or save):
            push = fold.push
            for e in events:
                push(e)
            return fold.state, findings
        for e in events:
            findings.extend(fold.push(e, check=check))
            if save and e.position % SNAPSHOT_EVERY == 0:
                self.store.save_snapshot(self.match, self.key, e.position, e.hash, fold.state.to_dict())
            if after_each is not None:
                after_each(fold.state)
            if stop is not None and stop(fold.state):
                break
        return fold.state, findings

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
