"""Review: everything a judge looks at in one match (findings, the desk's findings, how it ended, the slip)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.desk import (
    DEFAULT_PENALTY_POLICY,
    JUDGE_ACTION_KINDS,
    JUDGE_PREFIX,
    LogOutcome,
    describer,
    judge_of,
)
from engine.decisions import StandingTable, StaleDecision, log_ending, not_decided_words, stale_decisions
from engine.events import RecordedEvent
from engine.findings import Finding
from engine.match import Match
from engine.penalty_guide import guide_for
from engine.replay import Validation
from engine.state import TableState
from judge.desk.actions import standing_appeals
from judge.desk.clock import Clock, clock_of
from judge.replay.hiding import seen_log


SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}

# --- review: everything a judge looks at ------------------------------------------------------


@dataclass
class Review:
    match: Match
    events: list[RecordedEvent]
    validation: Validation
    desk: list[Finding]
    outcome: LogOutcome | None
    clock: Clock
    # time decisions a later correction left out of date (engine/decisions.py): never the outcome
    stale: dict[int, StaleDecision] = field(default_factory=dict)
    # the log as stored (`events` is the log as the viewer sees it: hidden cards hidden, when
    # `hidden`): what the hash chain is verified on; None: `events` is the log as stored
    stored: list[RecordedEvent] | None = None
    hidden: bool = False
    standing: StandingTable | None = None  # the stale decisions' standing table (a replay's boards ask it)

    @property
    def log(self) -> list[RecordedEvent]:
        """The log as stored (its hashes hold), whatever the viewer sees."""
        return self.stored if self.stored is not None else self.events

    @property
    def state(self) -> TableState:
        return self.validation.state

    @property
    def voided(self) -> set[int]:
        return set(self.validation.state.voided)

    @property
    def findings(self) -> list[Finding]:
        """The ruleset's findings and the desk's, in log order."""
        return sorted(self.validation.findings + self.desk,
                      key=lambda f: (f.position, SEVERITY_ORDER.get(f.severity, 9), f.rule))

    def voided_by(self, f: Finding) -> tuple[int, ...] | None:
        """The corrections/backups that took a finding away, or None while it stands. A ruleset's
        finding is judged on the corrected log (engine.replay.Validation); a desk finding is void
        with its event."""
        if f in self.validation.voided_by:
            return self.validation.voided_by[f]
        if f in self._desk_set and f.position in self.voided:
            return tuple(e.position for e in self.events if e.kind in ("correction", "backup")
                         and f.position in _targets(e, self.events))
        return None

    def is_void(self, f: Finding) -> bool:
        return self.voided_by(f) is not None

    def active_findings(self) -> list[Finding]:
        return [f for f in self.findings if not self.is_void(f)]

    def void_findings(self) -> list[tuple[Finding, tuple[int, ...]]]:
        """The findings that no longer stand, apart, each with the events that voided it."""
        return [(f, by) for f in self.findings if (by := self.voided_by(f)) is not None]

    @property
    def _desk_set(self) -> set[Finding]:
        return set(self.desk)

    def slip(self) -> dict[str, Any] | None:
        """The latest result slip that still counts, with who confirmed or disputed it."""
        slips = [e for e in self.events if e.kind == "result.slip" and e.position not in self.voided]
        if not slips:
            return None
        s = slips[-1]
        confirmed, disputed = [], []
        for e in self.events:
            if e.kind == "result.confirm" and e.position not in self.voided and e.position > s.position:
                target = e.payload.get("slip") or s.position
                if target == s.position:
                    (confirmed if e.payload.get("agree", True) else disputed).append(e.payload["player"])
        players = self.match.players
        return dict(s.payload, position=s.position, confirmed=confirmed, disputed=disputed,
                    complete=all(p in confirmed for p in players) and not disputed)

    def time_decision(self) -> dict[str, Any] | None:
        """The latest time decision that counts; a stale one says so (`stale`: its words)."""
        ds = [e for e in self.events if e.kind == "time.decision" and e.position not in self.voided]
        if not ds:
            return None
        s = self.stale.get(ds[-1].position)
        return dict(ds[-1].payload, position=ds[-1].position, **({"stale": s.words()} if s else {}))

    def not_decided(self) -> str | None:
        """While no outcome stands and a stale decision waits for a new one: what to say instead."""
        return None if self.outcome is not None else not_decided_words(self.stale, self.match.id)

    def describe(self, e: RecordedEvent) -> str:
        return describer(self.match.ruleset.describe)(e)


def review(match: Match, upto: int | None = None, *, hidden: bool = False,
           events: list[RecordedEvent] | None = None) -> Review:
    """The match as one viewer sees it. `hidden`: a public viewer's (judge.replay.hiding: the
    replay's own notion), whose findings, descriptions and tables come from the log with hidden
    cards hidden (hiding never adds a finding, per each ruleset's invariant); otherwise the staff's.
    `events`: the log as stored, when the caller has read it already (up to where the view ends)."""
    stored = events if events is not None else match.events(upto)
    # time decisions out of date: judged on the log as stored (a hidden log lacks cards a table's
    # hash stands on)
    stale = stale_decisions(match.replayer, stored)
    standing = StandingTable(match.replayer, stored, stale)
    seen = seen_log(match, stored, hidden)
    validation = match.replayer.validate_events(seen[1:])  # as `validate`: void findings judged apart
    voided = set(validation.state.voided)
    try:  # the game's outcome as it stands: a stale decision's set aside, or the standing table's
        game = standing.outcome(match.ruleset.outcome(validation.state))
    except Exception:  # noqa: BLE001 - a ruleset bug (either table's) must not hide the match (DESK-10 flags it)
        game = None
    outcome, desk = log_ending(match, seen, voided, game, standing)
    return Review(match, seen, validation, desk, outcome, clock_of(seen, voided), stale,
                  stored=stored if hidden else None, hidden=hidden, standing=standing)


def finding_rows(r: Review) -> list[dict[str, Any]]:
    """One row per finding: `backed_out` says it no longer stands (void), `voided_by` which
    corrections or backups took it away."""
    rows = []
    for f in r.findings:
        by = r.voided_by(f)
        rows.append(dict(f.to_dict(), match=r.match.id, backed_out=by is not None, voided_by=list(by or ())))
    return rows


def _targets(e: RecordedEvent, events: list[RecordedEvent]) -> list[int]:
    from engine.replay import void_targets
    kinds = {x.position: x.kind for x in events}
    return void_targets(e, kinds.__getitem__)


def action_rows(match: Match, voided: set[int] | None = None) -> list[dict[str, Any]]:
    """Every judge action of a match (desk kinds, backups, corrections, time), one row each."""
    events = match.events()
    voided = set(match.state().voided) if voided is None else voided
    describe = describer(match.ruleset.describe)
    return [{"match": match.id, "position": e.position, "kind": e.kind, "actor": e.actor,
             "judge": judge_of(e.actor), "description": describe(e), "payload": e.payload,
             "recorded_at": e.recorded_at, "recorded_by": e.recorded_by,
             "backed_out": e.position in voided}
            for e in events if e.kind in JUDGE_ACTION_KINDS or e.actor.startswith(JUDGE_PREFIX)]


def _standing(decisions: list[Any] | None) -> str:
    """An appeal's standing outcome, in words: its last decision that still counts ("" if none)."""
    if not decisions:
        return ""
    d = decisions[-1]
    earlier = f"; replaces {', '.join(str(x.position) for x in decisions[:-1])}" if decisions[:-1] else ""
    return f"{d.payload['decision']} (event {d.position}{earlier}): {d.payload['text']}"


def penalty_rows(match: Match, voided: set[int] | None = None) -> list[dict[str, Any]]:
    """One row per penalty. `infraction`: the guide's name for it when it was given from the penalty
    guide ("Slow Play"), else what was typed; `category`: what the payload stores ("Event Error");
    `appeal`: the standing decision on its appeal, if any ("changed (event 35): reduced to Game Loss")."""
    voided = set(match.state().voided) if voided is None else voided
    guide = guide_for(match.ruleset.name)
    events = match.events()
    appeals = standing_appeals(match, events, voided)
    rows = []
    for e in events:
        if e.kind != "judge.penalty":
            continue
        p = e.payload
        inf = guide.lookup(p.get("guide"))
        rows.append({"match": match.id, "position": e.position, "player": p["player"],
                     "penalty": p["penalty"], "infraction": inf.name if inf else p["infraction"],
                     "category": p["infraction"],
                     "policy": p.get("policy", DEFAULT_PENALTY_POLICY), "reason": p.get("reason", ""),
                     "minutes_late": p.get("minutes_late"), "judge": judge_of(e.actor),
                     "recorded_at": e.recorded_at, "recorded_by": e.recorded_by,
                     "backed_out": e.position in voided, "appeal": _standing(appeals.get(e.position))})
    return rows
