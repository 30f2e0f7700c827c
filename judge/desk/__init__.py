"""The judge's desk as a library: record judge actions, read the match clock, review a match (its
findings, the desk's findings, how it ended, the result slip) and audit one moment of it.

The CLI (`judge/cli/desk.py`) is a thin shell over these functions; reports and exports use
`review()` so every output shows the same findings.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from engine.desk import (
    JUDGE_ACTION_KINDS,
    JUDGE_PREFIX,
    LogOutcome,
    describer,
    desk_findings,
    judge_of,
    log_outcome,
)
from engine.events import RecordedEvent, default_recorder_name
from engine.findings import Finding
from engine.match import InputError, Match, Recorded
from engine.replay import Validation
from engine.state import TableState

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


# --- recording --------------------------------------------------------------------------------


def judge_actor(name: str | None) -> str:
    """`judge:NAME` for a judge's name (default: whoever is typing)."""
    name = (name or default_recorder_name()).strip()
    if name.startswith(JUDGE_PREFIX):
        name = name[len(JUDGE_PREFIX):]
    if not name:
        raise InputError("a judge needs a name", field="judge")
    return JUDGE_PREFIX + name


def record(match: Match, kind: str, payload: dict[str, Any], *, actor: str,
           recorded_by: str | None = None) -> Recorded:
    """Record one desk event (validated like any other: malformed input raises InputError)."""
    payload = {k: v for k, v in payload.items() if v is not None}
    return match.record(kind, payload, actor=actor, recorded_by=recorded_by)


# --- the clock --------------------------------------------------------------------------------


def parse_time(text: str) -> datetime:
    t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


@dataclass
class Clock:
    """The match clock from the log: round start + extensions. Times are UTC."""

    started_at: datetime | None = None
    start_position: int | None = None
    minutes: int = 0
    extensions: list[dict[str, Any]] = field(default_factory=list)
    called: dict[str, Any] | None = None

    @property
    def running(self) -> bool:
        return self.started_at is not None

    @property
    def extra_minutes(self) -> int:
        return sum(x["minutes"] for x in self.extensions)

    @property
    def ends_at(self) -> datetime | None:
        if self.started_at is None:
            return None
        return self.started_at + timedelta(minutes=self.minutes + self.extra_minutes)

    def time_left(self, now: datetime) -> timedelta | None:
        """Time left at `now` (negative: over time). None: the round was never started."""
        end = self.ends_at
        return None if end is None else end - now

    def to_dict(self, now: datetime | None = None) -> dict[str, Any]:
        now = now or datetime.now(timezone.utc)
        left = self.time_left(now)
        return {
            "started_at": _iso(self.started_at), "start_position": self.start_position,
            "minutes": self.minutes, "extensions": self.extensions,
            "extra_minutes": self.extra_minutes, "ends_at": _iso(self.ends_at),
            "now": _iso(now), "seconds_left": None if left is None else int(left.total_seconds()),
            "time_left": None if left is None else format_left(left), "called": self.called,
        }


def _iso(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat(timespec="seconds").replace("+00:00", "Z")


def format_left(left: timedelta) -> str:
    secs = int(left.total_seconds())
    sign = "-" if secs < 0 else ""
    secs = abs(secs)
    return f"{sign}{secs // 60}:{secs % 60:02d}" + (" (over time)" if sign else "")


def clock_of(events: list[RecordedEvent], voided: set[int] = frozenset()) -> Clock:
    """The clock as the log sets it. A later round.start replaces an earlier one (a restart)."""
    c = Clock()
    for e in events:
        if e.position in voided:
            continue
        p = e.payload
        if e.kind == "round.start":
            c = Clock(parse_time(p.get("started_at") or e.recorded_at), e.position, p["minutes"])
        elif e.kind == "time.extension":
            c.extensions.append({"position": e.position, "minutes": p["minutes"], "reason": p["reason"],
                                 "judge": judge_of(e.actor)})
        elif e.kind == "time.called":
            c.called = {"position": e.position, "clock": p["clock"], "recorded_at": e.recorded_at}
    return c


# --- review: everything a judge looks at ------------------------------------------------------


@dataclass
class Review:
    match: Match
    events: list[RecordedEvent]
    validation: Validation
    desk: list[Finding]
    outcome: LogOutcome | None
    clock: Clock

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

    def active_findings(self) -> list[Finding]:
        return [f for f in self.findings if f.position not in self.voided]

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
        ds = [e for e in self.events if e.kind == "time.decision" and e.position not in self.voided]
        return dict(ds[-1].payload, position=ds[-1].position) if ds else None

    def describe(self, e: RecordedEvent) -> str:
        return describer(self.match.ruleset.describe)(e)


def review(match: Match, upto: int | None = None) -> Review:
    validation = match.validate(upto)
    events = match.events(upto)
    voided = set(validation.state.voided)
    game = match.ruleset.outcome(validation.state)
    outcome = log_outcome(events, voided, match.players, game)
    desk = desk_findings(events, voided, match.players, outcome,
                         known_rules=[r.id for r in match.ruleset.rules])
    return Review(match, events, validation, desk, outcome, clock_of(events, voided))


def finding_rows(r: Review) -> list[dict[str, Any]]:
    voided = r.voided
    return [dict(f.to_dict(), match=r.match.id, backed_out=f.position in voided) for f in r.findings]


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


def penalty_rows(match: Match, voided: set[int] | None = None) -> list[dict[str, Any]]:
    voided = set(match.state().voided) if voided is None else voided
    rows = []
    for e in match.events():
        if e.kind != "judge.penalty":
            continue
        p = e.payload
        rows.append({"match": match.id, "position": e.position, "player": p["player"],
                     "penalty": p["penalty"], "infraction": p["infraction"],
                     "policy": p.get("policy", "bandai"), "reason": p.get("reason", ""),
                     "minutes_late": p.get("minutes_late"), "judge": judge_of(e.actor),
                     "recorded_at": e.recorded_at, "recorded_by": e.recorded_by,
                     "backed_out": e.position in voided})
    return rows


# --- audit: one moment ------------------------------------------------------------------------


def audit(match: Match, at: int, around: int = 3) -> dict[str, Any]:
    """The table right after event `at`, the events around it (who recorded them and when), every
    finding up to there, and the clock at that moment."""
    head = match.head_position()
    if not 1 <= at <= head:
        raise InputError(f"match {match.id} has events 1..{head}; there is no event {at}", field="at")
    r = review(match, upto=at)
    state = match.state(at=at)
    final_voided = set(match.state().voided)  # what a later backup/correction voided
    window = match.store.read(match.id, after=max(0, at - around - 1), upto=min(head, at + around))
    describe = describer(match.ruleset.describe)
    event_at = next(e for e in window if e.position == at)
    view = state.view()
    return {
        "match": match.id, "at": at, "head": head,
        "labels": {k: match.created.payload.get(k) for k in ("event", "round", "table")},
        "ruleset": match.ruleset.name, "players": match.players,
        "event": _event_row(event_at, describe, final_voided),
        "state": view, "summary": match.ruleset.summary_lines(state),
        "events": [dict(_event_row(e, describe, final_voided), current=e.position == at) for e in window],
        "findings": [dict(f.to_dict(), backed_out=f.position in r.voided) for f in r.findings],
        "clock": r.clock.to_dict(now=parse_time(event_at.recorded_at)) if r.clock.running else None,
        "outcome": r.outcome.to_dict() if r.outcome else None,
    }


def _event_row(e: RecordedEvent, describe, voided: set[int]) -> dict[str, Any]:
    return {"position": e.position, "kind": e.kind, "actor": e.actor, "description": describe(e),
            "recorded_at": e.recorded_at, "recorded_by": e.recorded_by, "hash": e.hash,
            "backed_out": e.position in voided, "judge_action": e.kind in JUDGE_ACTION_KINDS}


def render_audit(a: dict[str, Any]) -> str:
    """The audit as text for the terminal."""
    from judge.report.text import render_findings
    lab = ", ".join(f"{k} {v}" for k, v in a["labels"].items() if v)
    lines = [f"audit of match {a['match']} ({a['ruleset']}) at event {a['at']} of {a['head']}"
             + (f" · {lab}" if lab else "")]
    st = a["state"]
    lines.append(f"table after event {a['at']}: turn {st['turn']}"
                 + (f", active {st['active']}" if st["active"] else "")
                 + (f", phase {st['phase']}" if st["phase"] else ""))
    for p, pv in st["players"].items():
        ctr = ", ".join(f"{k} {v}" for k, v in pv["counters"].items())
        lines.append(f"  {p}" + (f": {ctr}" if ctr else ""))
        for z, zv in pv["zones"].items():
            if zv["count"]:
                shown = ", ".join(zv["known"] + ([f"? ×{zv['unknown']}"] if zv["unknown"] else []))
                lines.append(f"    {z:<10} {zv['count']:>3}  {shown}")
    lines.extend("  " + s for s in a["summary"])
    if st["voided"]:
        lines.append(f"  backed out / corrected away so far: {', '.join(map(str, st['voided']))}")
    if a["clock"]:
        c = a["clock"]
        lines.append(f"clock at that moment: {c['time_left']} left (round {c['minutes']} min"
                     + (f" + {c['extra_minutes']} min extensions" if c["extra_minutes"] else "") + ")")
    lines.append("")
    lines.append("events around it (position, actor, recorded by, at):")
    for e in a["events"]:
        mark = ">" if e["current"] else " "
        void = " [backed out]" if e["backed_out"] else ""
        lines.append(f"{mark}{e['position']:>5}  {e['actor']:<14} {e['description']}{void}")
        lines.append(f"        recorded by {e['recorded_by']} at {e['recorded_at']}")
    lines.append("")
    lines.append(f"findings up to event {a['at']}:")
    from engine.findings import Finding
    fs = [Finding(**{k: v for k, v in f.items() if k != "backed_out"}) for f in a["findings"]]
    lines.append(render_findings(fs, {f["position"] for f in a["findings"] if f["backed_out"]}))
    return "\n".join(lines)
