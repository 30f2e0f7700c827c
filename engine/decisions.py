"""Recorded time decisions against the log as corrected: current, or STALE.

A `time.decision` records the table it judged: `based_on` (the last event it considered) and
`state_hash` (that table as recorded then: `Replayer.decision_basis`). The log is append-only, so
a correction recorded later cannot change what the judge saw; it can change what the table WAS (a
void, or a replacement, of an event at or before `based_on`). The decision is then out of date:
STALE, as a round seal is whose results changed after it (judge/tournament/seal.py). It is not
tampered with (`verify` tells the two apart: a recorded basis the log as recorded does not give is
an edit, engine/integrity.py), and it no longer decides the match: the judge decides again
(`tablejudge timelimit`), and the new decision supersedes it.

One place decides staleness (`stale_decisions`) for `verify`, the desk's outcome (review, reports,
`matches`, the read model, a tournament's result from `--match`), the time-limit module and the
words said when a correction is recorded (DESK-15).

Only final decisions (a win, a draw, a double loss) go stale: a "continue" is an instruction to
play on, superseded by the procedure itself as play goes on (as `timelimit` treats it).
"""
from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence
import dataclasses
import functools
from dataclasses import dataclass
from typing import Any

from engine.desk import LogOutcome, desk_findings, find_time_called, log_outcome, stale_decision_finding
from engine.events import RecordedEvent
from engine.findings import Finding
from engine.penalty_guide import guide_for
from engine.replay import VOIDING_KINDS, Replayer, void_targets, voided_positions
from engine.state import TableState

DECISION = "time.decision"


@dataclass(frozen=True)
class StaleDecision:
    """A final time decision (at `position`, judged on events 1..`based_on`) whose table the log as
    corrected no longer gives, because of the voiding events `by` (recorded after `based_on`).
    `superseded_by`: a later decision that still stands, recorded after all of them."""

    position: int
    based_on: int
    by: tuple[tuple[int, str], ...]  # (position, kind) of each correction or backup that changed it
    superseded_by: int | None = None
    call: int | None = None  # the time call it answered, when `by` voided that call (not the table)

    def because(self) -> str:
        """'correction 64', 'corrections 64 and 66', 'backup 70': what changed the judged table."""
        kinds = {k for _, k in self.by}
        if len(kinds) == 1:
            kind = kinds.pop()
            return f"{kind}{'s' if len(self.by) > 1 else ''} {_listed([str(p) for p, _ in self.by])}"
        return _listed([f"{k} {p}" for p, k in self.by])

    def mark(self) -> str:
        """'out of date after correction 57': what a listing of the log says beside the decision."""
        if self.call is not None:
            return f"out of date: {self.because()} voided the time call it answered (event {self.call})"
        return f"out of date after {self.because()}"

    def words(self) -> str:
        return f"the time decision at event {self.position} is {self.mark()}"

    def redo(self, match: str) -> str:
        """The command that decides again (it supersedes this one): without its time call, a
        decision has nothing to answer until time is called again."""
        if self.call is not None:
            return f"tablejudge judge time {match} if time was called, then tablejudge timelimit {match}"
        return f"tablejudge timelimit {match}"

    def to_dict(self) -> dict:
        return {"position": self.position, "based_on": self.based_on, "by": [p for p, _ in self.by],
                "superseded_by": self.superseded_by, "call": self.call, "words": self.words()}


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _changed_by(events: Sequence[RecordedEvent], kinds: Mapping[int, str], hit: Callable[[int], bool],
                after: int = 0) -> tuple[tuple[int, str], ...]:
    """The corrections and backups among `events` recorded after `after` that void or replace a
    position `hit` accepts (the game events a decision judged; the time call it answered). Cheap:
    no replay."""
    def kind_at(p: int) -> str:
        return kinds.get(p, "")
    return tuple((e.position, e.kind) for e in events
                 if e.position > after and e.kind in VOIDING_KINDS and any(map(hit, void_targets(e, kind_at))))


def table_changed(replayer: Replayer, events: Sequence[RecordedEvent], based_on: int,
                  recorded: TableState | None = None) -> bool:
    """Does the log as corrected give another table at `based_on` than the log as recorded then?
    Both leave decisions out (Replayer.decision_basis; `recorded`: that table, where the caller
    replayed it already). The lists of voided positions are set aside: a note voided after the
    decision leaves the judged table what it was."""
    recorded = recorded if recorded is not None else replayer.decision_basis(events, based_on)
    game = [e for e in events[1:] if e.kind != DECISION]
    corrected, _ = replayer.corrected_fold([e for e in game if e.position <= based_on], whole=game)
    corrected.voided = list(recorded.voided)
    corrected.position = recorded.position
    return corrected.state_hash() != recorded.state_hash()


def stale_decisions(replayer: Replayer, events: Sequence[RecordedEvent] | None = None, *,
                    bases: Mapping[int, TableState] | None = None) -> dict[int, StaleDecision]:
    """Every final time decision that still counts (no correction voids it) and whose judged table
    a later correction or backup changed: position -> StaleDecision. `events`: the whole log, as
    the caller read it (else read here). A decision without a recorded basis (decided from facts
    read off the table alone) is judged on no log table, so none of the log's corrections makes it
    stale; one from facts that took counts from the log records the table it read, and goes stale.
    A basis the log cannot replay is `verify`'s to report, not staleness. `bases`: the tables as
    recorded at some `based_on` positions, replayed already (verify's check of each recorded hash).

    A decision a later one supersedes (the next decision that counts, a "continue" too: the judge
    decided again on the corrected table) is judged on the log as it was when superseded: only the
    standing decision is checked against the corrections recorded since (QA N8)."""
    if events is None:
        events = replayer.store.read(replayer.match)
    if not any(e.kind in VOIDING_KINDS for e in events):
        return {}
    gone = voided_positions(events)
    kinds = {e.position: e.kind for e in events}
    decisions = [e for e in events if e.kind == DECISION and e.position not in gone]
    out: dict[int, StaleDecision] = {}
    for i, d in enumerate(decisions):
        nxt = decisions[i + 1].position if i + 1 < len(decisions) else None
        s = _stale(replayer, events if nxt is None else [e for e in events if e.position < nxt], d, gone, kinds,
                   bases or {})
        if s is not None:
            out[d.position] = dataclasses.replace(s, superseded_by=nxt)
    return out


def _stale(replayer: Replayer, events: Sequence[RecordedEvent], d: RecordedEvent, gone: set[int],
           kinds: Mapping[int, str], bases: Mapping[int, TableState]) -> StaleDecision | None:
    """Decision `d` against the corrections and backups among `events`: stale, or None."""
    p = d.payload
    if p.get("result") == "continue":
        return None
    call = find_time_called([e for e in events if e.position < d.position], ())
    if call is not None and call.position in gone:  # the call it answered is void (QA74 N5)
        by = _changed_by(events, kinds, lambda q: q == call.position)
        if not by:  # voided by a correction recorded after the decision that superseded this one
            return None
        return StaleDecision(d.position, p.get("based_on", d.position - 1), by, call=call.position)
    if "state_hash" not in p:
        return None
    based_on = p.get("based_on", d.position - 1)
    # a game event at or before the judged table (a decision voided is the procedure's output, not its table)
    by = _changed_by(events, kinds, lambda q: q <= based_on and kinds.get(q, DECISION) != DECISION, after=based_on)
    if not by:
        return None
    try:
        if not table_changed(replayer, events, based_on, bases.get(based_on)):
            return None
    except (LookupError, ValueError, KeyError):
        return None
    return StaleDecision(d.position, based_on, by)


def latest_decision(events: Sequence[RecordedEvent], voided: Container[int],
                    after: int = 0) -> RecordedEvent | None:
    """The latest `time.decision` recorded after position `after` (a time call's) that still counts
    (no correction voids it), whatever it says, or None."""
    for e in reversed(events):
        if e.position <= after:
            return None
        if e.kind == DECISION and e.position not in voided:
            return e
    return None


def standing_decision(events: Sequence[RecordedEvent], voided: Container[int], stale: Container[int],
                      after: int = 0) -> RecordedEvent | None:
    """The time decision that decides the match: the latest that counts (`latest_decision`), where
    it is final (a "continue" decides nothing: the game goes on) and not out of date (`stale`: the
    positions `stale_decisions` gives; the judge decides again). One rule for the time-limit
    module's standing decision and a tournament's check of a result entered beside one."""
    e = latest_decision(events, voided, after)
    return None if e is None or e.payload.get("result") == "continue" or e.position in stale else e


def outstanding(stale: Mapping[int, StaleDecision]) -> StaleDecision | None:
    """The latest stale decision no later decision supersedes: the match waits for a new one."""
    left = [s for s in stale.values() if s.superseded_by is None]
    return max(left, key=lambda s: s.position) if left else None


def not_current_marks(replayer: Replayer, events: Sequence[RecordedEvent],
                      stale: Mapping[int, StaleDecision] | None = None) -> dict[int, str]:
    """Each time decision that counts (no correction voids it) but no longer decides the match:
    position -> its mark, as a list of judge actions says it beside the decision ("out of date",
    "out of date, superseded by #75"; "superseded by #61" for a current one a later decision
    replaced). The web's Appeal list and `judge appeal`'s words ask here, so an appeal of an old
    decision is offered and recorded with the same words (QA81 M1). `events`: the whole log;
    `stale`: its stale decisions, where the caller has them (else found here)."""
    stale = stale_decisions(replayer, events) if stale is None else stale
    gone = voided_positions(events)
    times = [e.position for e in events if e.kind == DECISION and e.position not in gone]
    out: dict[int, str] = {}
    for p, later in zip(times, times[1:] + [None]):
        if p in stale:
            s = stale[p]
            out[p] = "out of date" + (f", superseded by #{s.superseded_by}" if s.superseded_by else "")
        elif later is not None:
            out[p] = f"superseded by #{later}"
    return out


class StandingTable:
    """The table as corrected with every stale decision left out, folded once when first asked (a
    log with no stale decision behind its result never is): each decision that stands applied by
    the ruleset's own rule (`apply_time_decision`: optcg's win, op2009's games awarded by the
    branch), a "continue" leaving the game in play until the game, or a later decision, ends it."""

    def __init__(self, replayer: Replayer, events: Sequence[RecordedEvent], stale: Mapping[int, StaleDecision]):
        self.replayer, self.events, self.stale = replayer, events, stale
        self._with: dict[int, TableState] = {}

    @functools.cached_property
    def table(self) -> TableState:
        return self.replayer.corrected_fold(self.events[1:], leave_out=self.stale.keys())[0]

    def outcome(self, outcome: Any) -> Any:
        """A ruleset's outcome (`ruleset.outcome(state)`, which a ruleset may take from the first
        time decision it applied) as it stands: the standing table's, where it came from a stale
        decision some later decision supersedes; None while none does (decide again)."""
        s = self.stale.get(getattr(outcome, "position", None))
        if s is None:
            return outcome
        return None if s.superseded_by is None else self.replayer.ruleset.outcome(self.table)

    def result(self, result: Mapping[str, Any] | None, match: str, *, at: int | None = None,
               upto: int | None = None) -> tuple[Mapping[str, Any] | None, str | None]:
        """A table's `result` (what a ruleset set when it applied a time decision: `state --json`,
        the replay's boards) as it stands: (result, None), or (None, the not-decided words) while
        the decision it came from is stale; the standing table's once a later decision supersedes
        it. `at`: the moment of a table as recorded then (a replay step): the decision stood until
        the first event that left it out of date. None: the table as corrected, where every later
        correction counts. `upto` (default `at`): the table's position; a result set later (play
        went on after a "continue") is not yet one.

        A ruleset's result is the first decision it applied, so the decision that stands is found
        by following the supersedings: the decision that superseded a stale one may be stale in
        turn (decide, correct, decide again, correct again: QA76 #1), and then it is the one that
        waits for a new decision."""
        s = self.stale.get((result or {}).get("position"))
        if s is None or (at is not None and at < s.by[0][0]):
            return result, None
        while s.superseded_by is not None and (at is None or at >= s.superseded_by):
            after = self.stale.get(s.superseded_by)
            if after is None or (at is not None and at < after.by[0][0]):
                # the superseding decision stands (at this moment): the table with it applied
                now, upto = self._table_with(s.superseded_by).result, upto if upto is not None else at
                return (now if now is not None and (upto is None or now.get("position", 0) <= upto) else None), None
            s = after
        return None, _not_decided(s, match)

    def _table_with(self, position: int) -> TableState:
        """The standing table, or (for a stale decision that stood at a replay step) the table as
        corrected with that decision applied and every other stale one left out."""
        if position not in self.stale:
            return self.table
        if position not in self._with:
            self._with[position] = self.replayer.corrected_fold(
                self.events[1:], leave_out=self.stale.keys() - {position})[0]
        return self._with[position]


def not_decided_words(stale: Mapping[int, StaleDecision], match: str) -> str | None:
    """What a page says for the result while a stale decision waits for a new one."""
    s = outstanding(stale)
    return None if s is None else _not_decided(s, match)


def _not_decided(s: StaleDecision, match: str) -> str:
    return f"not decided ({s.words()}: decide again: {s.redo(match)})"


def stale_findings(stale: Mapping[int, StaleDecision], match: str) -> list[Finding]:
    """DESK-15 for each stale decision no later one supersedes, at the last event that changed its
    table: the words the correction was recorded with (Match records them), said again by the log."""
    return [stale_decision_finding(s.by[-1][0], f"{s.words()}: decide again: {s.redo(match)}")
            for s in stale.values() if s.superseded_by is None]


def log_ending(match: Any, events: Sequence[RecordedEvent], voided: Iterable[int], game_outcome: Any,
               standing: StandingTable) -> tuple[LogOutcome | None, list[Finding]]:
    """How the log says `match` ended, as it stands, and the desk's findings on it (DESK-15 for a
    stale decision among them), for judge.desk.review (the replay's timeline reads it from there).
    `game_outcome`: the ruleset's outcome as it stands (`standing.outcome` of the validated table's:
    the caller's, which guards both ruleset calls); `standing`: the stale decisions of `events`."""
    rs, stale = match.ruleset, standing.stale
    outcome = log_outcome(events, voided, match.players, game_outcome, stale)
    desk = desk_findings(events, voided, match.players, outcome, known_rules=[r.id for r in rs.rules],
                         guide=guide_for(rs.name), extra_minutes=rs.extra_minutes_policies)
    return outcome, desk + stale_findings(stale, match.id)
