"""Recording judge actions: a judge's actor name, and one desk event recorded like any other."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from types import SimpleNamespace

from engine.decisions import not_current_marks
from engine.desk import (JUDGE_PREFIX, OFF_TABLE_KINDS, JudgeAppeal, appeal_decisions, appeal_problem,
                         tardiness_unchecked)
from engine.events import RecordedEvent, default_recorder_name
from engine.match import InputError, Match, Recorded


# --- recording --------------------------------------------------------------------------------


def judge_actor(name: str | None) -> str:
    """`judge:NAME` for a judge's name (default: whoever is typing)."""
    name = (name or default_recorder_name()).strip()
    if name.startswith(JUDGE_PREFIX):
        name = name[len(JUDGE_PREFIX):]
    if not name:
        raise InputError("a judge needs a name", field="judge")
    return JUDGE_PREFIX + name


def last_game_event(match: Match, events: list[RecordedEvent] | None = None) -> int:
    """The event a judge call is about unless it says: the last event of the game itself (not a
    judge call, a ruling, a correction or a note: a call is about play), else event 1, the match's
    start (never the head: with no play yet the head may be an earlier call, and a call is never
    about a call — QA70 #4). The CLI's `judge call` and the web's call button both ask here.
    `events`: the log after event 1, when the caller has read it already."""
    for e in reversed(match.store.read(match.id, after=1) if events is None else events):
        if e.kind not in OFF_TABLE_KINDS:
            return e.position
    return 1


def record(match: Match, kind: str, payload: dict[str, Any], *, actor: str,
           recorded_by: str | None = None) -> Recorded:
    """Record one desk event (validated like any other: malformed input raises InputError, a second
    time call too). Its findings include the desk's own checks of it (Match.record says them on
    every path: a ruling citing a rule the game does not have), said now rather than only when the
    log is next reviewed; its notices, what the desk says to the judge that is no finding (DESK-5's
    minutes late not checked)."""
    payload = {k: v for k, v in payload.items() if v is not None}
    rec = match.record(kind, payload, actor=actor, recorded_by=recorded_by)
    if kind == "judge.penalty":
        # a penalty's minutes late under a policy with no ladder (none, mtg-ipg): said on every path that
        # records one (the CLI, the web's form, the API; a free infraction or a guide's), so silence is
        # not read as "on the ladder"
        from engine.penalty_guide import guide_for  # the guides load only where a penalty is recorded
        unchecked = tardiness_unchecked(rec.event.payload, guide_for(match.ruleset.name))
        rec.notices = [unchecked] if unchecked else []
    return rec


def appealable(kind: str, actor: str) -> bool:
    """Whether an event is a judge action an appeal may name: one of the kinds `judge.appeal`
    refers to, recorded by a judge (a scorekeeper's or a recorder's void is a correction, not a
    judge's decision: QA80 #7). One rule for `judge appeal`, the web's decision and the form's list."""
    return kind in JudgeAppeal.references["appealed"] and actor.startswith(JUDGE_PREFIX)


def live_events(match: Match, events: list[RecordedEvent] | None = None,
                voided: set[int] | None = None) -> list[RecordedEvent]:
    """The log's events that still count: not voided as the match's state says (`voided`, when the
    caller has it already). The one source the appeal readers and `decide_appeal` share, so the web
    Appeal list never offers what the write would judge otherwise."""
    voided = set(match.state().voided) if voided is None else voided
    return [e for e in (match.events() if events is None else events) if e.position not in voided]


def standing_appeals(match: Match, events: list[RecordedEvent] | None = None,
                     voided: set[int] | None = None) -> dict[int, list[RecordedEvent]]:
    """The decisions on appeals that still count, by the action appealed, in order (the last
    stands): what `decide_appeal` checks a new decision against."""
    return appeal_decisions(live_events(match, events, voided))


def appeal_choices(match: Match, words: dict[int, str], *, events: list[RecordedEvent] | None = None,
                   stale: Mapping[int, Any] | None = None) -> list[dict[str, Any]]:
    """The judge actions an appeal may name (`appealable`), not voided, latest first, each with
    its words (`words`: position -> text, as the page's timeline says them), where an appeal of
    it was decided that standing decision ("decided: upheld, #32"), and for a time decision no
    longer current its mark ("out of date, superseded by #75"; "superseded by #61" for one a
    later decision replaced: engine.decisions.not_current_marks, which `judge appeal` says too):
    the marks come first, so a phone's closed select shows them (QA81 L7, M1). The web's Appeal
    list; computed from the same live events as `decide_appeal`. `events` (the whole log) and
    `stale` (its stale time decisions): where the caller has them already (the web's cached
    timeline knows the staleness: a re-render replays no decision again)."""
    events = match.events() if events is None else events
    live = live_events(match, events)
    decided = {p: ds[-1] for p, ds in appeal_decisions(live).items()}
    current = not_current_marks(match.replayer, events, stale=stale)
    out = []
    for e in reversed(live):
        if not appealable(e.kind, e.actor):
            continue
        marks = [f"decided: {decided[e.position].payload['decision']}, #{decided[e.position].position}"] \
            if e.position in decided else []
        if e.position in current:
            marks.append(current[e.position])
        out.append({"position": e.position, "text": words.get(e.position, e.kind), "marks": marks})
    return out


def decide_appeal(match: Match, *, appealed: int, decision: str, text: str, actor: str, by: str | None = None,
                  override: str | None = None, recorded_by: str | None = None,
                  override_said: str = "--override REASON") -> Recorded:
    """Record the head judge's decision on an appeal of event `appealed`. Refused (InputError,
    nothing stored) when that appeal was decided already and `override` does not say why this
    decision replaces the standing one (DESK-13: QA71 found "changed", then "upheld", both
    accepted); the refusal names `override` as the caller asks for it (`override_said`: the CLI's
    option, the web form's box). A log recorded any other way is flagged instead
    (engine.desk._appeal_findings)."""
    payload = {"appealed": appealed, "decision": decision, "text": text, "by": by or None,
               "override": (override or "").strip() or None}
    live = live_events(match)
    target = next((e for e in live if e.position == appealed), None)
    if target is not None and target.kind in JudgeAppeal.references["appealed"] \
            and not appealable(target.kind, target.actor):  # another kind: the payload's check words it
        raise InputError(f"event {appealed} is a {target.kind} recorded by {target.actor}, not by a judge: an "
                         "appeal is of a judge's action", field="appealed")
    problem = appeal_problem(appeal_decisions(live).get(appealed, []), SimpleNamespace(payload=payload))
    if problem:
        raise InputError(problem.replace("(override)", f"({override_said})"), field="override")
    return record(match, "judge.appeal", payload, actor=actor, recorded_by=recorded_by)


def not_current_mark(match: Match, position: int) -> str | None:
    """The mark of event `position` when it is a time decision that no longer decides the match
    ("out of date, superseded by #75"), else None: what `judge appeal` says after recording an
    appeal of it. Accepted all the same: an appeal of an old decision happened, and the log keeps
    facts; the words are the web Appeal list's (engine.decisions.not_current_marks)."""
    return not_current_marks(match.replayer, match.events()).get(position)
