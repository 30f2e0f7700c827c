"""Recording judge actions: a judge's actor name, and one desk event recorded like any other."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dataclasses import dataclass
from types import SimpleNamespace

from engine.decisions import not_current_marks
from engine.desk import (
    JUDGE_PREFIX, OFF_TABLE_KINDS, JudgeAppeal, appeal_decisions, appeal_filings, appeal_problem, judge_of,
    tardiness_unchecked,
)
from engine.events import RecordedEvent, default_recorder_name
from engine.schema import shown
from engine.match import InputError, Match, Recorded
from engine.store import ConflictError
from judge.desk.calls import open_call_about
from judge.desk.clock import local_time


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
           recorded_by: str | None = None, expected_position: int | None = None) -> Recorded:
    """Record one desk event (validated like any other: malformed input raises InputError, a second
    time call too). Its findings include the desk's own checks of it (Match.record says them on
    every path: a ruling citing a rule the game does not have), said now rather than only when the
    log is next reviewed; its notices, what the desk says to the judge that is no finding (DESK-5's
    minutes late not checked). `expected_position`: only after that event (ConflictError, nothing
    stored, if the log ends elsewhere)."""
    payload = {k: v for k, v in payload.items() if v is not None}
    rec = match.record(kind, payload, actor=actor, recorded_by=recorded_by, expected_position=expected_position)
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


@dataclass(frozen=True)
class Appealable:
    """A judge action an appeal may name (`appealable`, not voided), with its appeal as the log
    stands: the players' filings that still count (`appeal.filed`, in order) and the head judge's
    standing decision (the last `judge.appeal` on it), if any."""

    event: RecordedEvent
    filed: tuple[RecordedEvent, ...] = ()
    decision: RecordedEvent | None = None

    @property
    def status(self) -> str | None:
        """upheld, overturned, changed (decided); pending (filed, not decided); None (not appealed)."""
        if self.decision is not None:
            return str(self.decision.payload["decision"])
        return "pending" if self.filed else None


def appeal_ledger(match: Match, events: list[RecordedEvent] | None = None,
                  voided: set[int] | None = None) -> list[Appealable]:
    """Every judge action an appeal may name, in log order, with its filings and standing decision:
    one reading of the live events (`live_events`; `events`, `voided`: where the caller has them)
    for the staff's Appeal list (`appeal_choices`), a player's page and `file_appeal`'s refusals."""
    live = live_events(match, events, voided)
    decided, filed = appeal_decisions(live), appeal_filings(live)
    return [Appealable(e, tuple(filed.get(e.position, ())), (decided.get(e.position) or [None])[-1])
            for e in live if appealable(e.kind, e.actor)]


def appeal_choices(match: Match, words: dict[int, str], *, events: list[RecordedEvent] | None = None,
                   stale: Mapping[int, Any] | None = None) -> list[dict[str, Any]]:
    """The judge actions an appeal may name (`appeal_ledger`), latest first, each with its words
    (`words`: position -> text, as the page's timeline says them), where an appeal of it was decided
    that standing decision ("decided: upheld, #32"), where a player filed one not decided yet who
    ("appealed by Ann, #31: pending"), and for a time decision no longer current its mark ("out of
    date, superseded by #75"; "superseded by #61" for one a later decision replaced:
    `not_current_mark`, which `judge appeal` says too): the marks come first, so a phone's closed
    select shows them (QA81 L7, M1). The web's Appeal list. `events` (the whole log) and `stale`
    (its stale time decisions): where the caller has them already (the web's cached timeline knows
    the staleness: a re-render replays no decision again). `filer`: the player whose filing still
    counts (`appeal.filed`), for the call page's "Appealed by" (QA86 #3)."""
    events = match.events() if events is None else events
    current = not_current_marks(match.replayer, events, stale=stale)
    out = []
    for a in reversed(appeal_ledger(match, events)):
        p = a.event.position
        marks = [f"decided: {a.status}, #{a.decision.position}"] if a.decision is not None else \
            [f"appealed by {f.payload['player']}, #{f.position}: pending" for f in a.filed]
        if p in current:
            marks.append(current[p])
        out.append({"position": p, "text": words.get(p, a.event.kind), "marks": marks,
                    "filer": a.filed[0].payload["player"] if a.filed else None})
    return out


def file_appeal(match: Match, *, appealed: int, player: str, reason: str, recorded_by: str | None = None,
                events: list[RecordedEvent] | None = None, voided: set[int] | None = None) -> Recorded:
    """A player's appeal of judge action `appealed` to the head judge (`appeal.filed`, the player
    its actor). Refused (InputError, nothing stored) where the action is not a judge's that still
    counts (voided since the page showed it, or never one), where its appeal is already decided
    (DESK-13: one standing decision; the head judge alone reconsiders) or already filed and waiting
    for the head judge (one hearing: the head judge hears both players). `events`, `voided`: the
    log as the caller read it.

    The filing lands only right after the log the checks read: two players filing at once (two
    servers on one log) would otherwise both pass "already filed". The one that lost the race is
    checked again against the log as it now ends (and so told who filed first); a second lost race
    is refused in words, nothing stored."""
    if player not in match.players:  # said as the caller names it (the payload would say "unknown actor")
        raise InputError(f"{shown(player)} does not play in this match ({', '.join(match.players)}): an appeal is "
                         "a player's", field="player")
    for _ in range(2):
        try:
            return _file_appeal_after(match, appealed, player, reason, recorded_by, events, voided)
        except ConflictError:
            events = voided = None  # the log moved under the check: read it again
    raise InputError(f"the match's log moved twice while your appeal of event {appealed} was being filed; nothing "
                     "was stored: appeal again", field="appealed")


def _file_appeal_after(match: Match, appealed: int, player: str, reason: str, recorded_by: str | None,
                       events: list[RecordedEvent] | None, voided: set[int] | None) -> Recorded:
    """`file_appeal`'s checks against the log up to its head, and the filing right after that head."""
    if events is None:
        head = match.head_position()
        events = match.store.read(match.id, upto=head)
    else:
        head = max(e.position for e in events)
    ledger = appeal_ledger(match, events, voided)
    row = next((a for a in ledger if a.event.position == appealed), None)
    if row is None:
        raise InputError(_not_appealable(match, appealed, events), field="appealed")
    said = _decision_said(row.event)
    if row.decision is not None:
        d = row.decision
        raise InputError(f"the appeal of {said} is already decided: {d.payload['decision']} by head judge "
                         f"{judge_of(d.actor) or d.actor} at {local_time(d.recorded_at)} (event {d.position}); an "
                         "appeal is decided once: ask the head judge at the table if something new came up",
                         field="appealed")
    if row.filed:
        f = row.filed[0]
        raise InputError(f"{said} is already appealed by {f.payload['player']} at {local_time(f.recorded_at)}: "
                         "the head judge hears both players; wait at your table", field="appealed")
    return record(match, "appeal.filed", {"appealed": appealed, "player": player, "reason": reason},
                  actor=player, recorded_by=recorded_by, expected_position=head)


@dataclass(frozen=True)
class FiledAppeal:
    """A player's appeal as filed (`appeal.filed`) and the head judge's call made with it (None: the
    player's own call was open already, and the queue shows that one)."""

    filed: Recorded
    call: Recorded | None


def appeal_to_head_judge(match: Match, *, appealed: int, player: str, reason: str,
                         recorded_by: str | None = None) -> FiledAppeal:
    """A player's appeal filed (`file_appeal`, the player its actor; refusals as there) and the head
    judge called with it: a `judge.call` by the player about the action appealed, unless their call
    about that action is open already (judge.desk.calls.open_call_about: one about something else
    is not), so the judges' queue shows it and the call's page holds the Appeal form that
    decides it. One way to file for the table's page and `tablejudge judge appeal-filed` (a floor
    judge writing down a player's appeal: the judge is `recorded_by`, never the actor, DESK-17)."""
    filed = file_appeal(match, appealed=appealed, player=player, reason=reason, recorded_by=recorded_by)
    call = None
    if open_call_about(live_events(match), player, appealed) is None:  # a call about another matter is not this one
        call = record(match, "judge.call", {"caller": player, "reason": f"appeal of event {appealed} to the head "
                                            f"judge: {reason}"[:500], "at": appealed}, actor=player,
                      recorded_by=recorded_by)
    return FiledAppeal(filed, call)


def _decision_said(e: RecordedEvent) -> str:
    """A judge's decision as a refusal names it: when it was made, the words a player at the table
    knows it by (their page lists decisions by time), then its event number for the staff, who
    type it (`judge appeal M EVENT`): "the judge's decision at 19:05 CET (event 11)"."""
    return f"the judge's decision at {local_time(e.recorded_at)} (event {e.position})"


def _not_appealable(match: Match, position: int, events: list[RecordedEvent] | None) -> str:
    """Why event `position` is no judge action an appeal may name now, in a player's words."""
    found = next((e for e in (match.events() if events is None else events) if e.position == position), None)
    if found is None:
        return f"there is no event {position} in this match"
    if appealable(found.kind, found.actor):  # a judge's action, voided since
        return (f"{_decision_said(found)} no longer counts: a correction or a backup voided it since your page "
                "showed it; reload the page to see the judges' decisions as they stand")
    return f"event {position} is not a judge's ruling or decision: an appeal is of a judge's decision"


def decide_appeal(match: Match, *, appealed: int, decision: str, text: str, actor: str, by: str | None = None,
                  override: str | None = None, recorded_by: str | None = None,
                  override_said: str = "--override REASON", events: list[RecordedEvent] | None = None) -> Recorded:
    """Record the head judge's decision on an appeal of event `appealed`. Refused (InputError,
    nothing stored) when that appeal was decided already and `override` does not say why this
    decision replaces the standing one (DESK-13: QA71 found "changed", then "upheld", both
    accepted); the refusal names `override` as the caller asks for it (`override_said`: the CLI's
    option, the web form's box). A log recorded any other way is flagged instead
    (engine.desk._appeal_findings). The decision answers the judge call a player's appeal came
    with (`call`: `appeal_call`), as a ruling answers its call. `events`: the whole log, where the
    caller read it already."""
    live = live_events(match, events)
    answers = appeal_call(live, appealed)
    payload = {"appealed": appealed, "decision": decision, "text": text, "by": by or None,
               "override": (override or "").strip() or None, "call": answers.position if answers else None}
    target = next((e for e in live if e.position == appealed), None)
    if target is not None and target.kind == "appeal.filed":  # the filing, not what it appeals (QA86 #10)
        p = target.payload
        raise InputError(f"event {appealed} is {p['player']}'s appeal of event {p['appealed']}: decide "
                         f"{p['appealed']}", field="appealed")
    if target is not None and target.kind in JudgeAppeal.references["appealed"] \
            and not appealable(target.kind, target.actor):  # another kind: the payload's check words it
        raise InputError(f"event {appealed} is a {target.kind} recorded by {target.actor}, not by a judge: an "
                         "appeal is of a judge's action", field="appealed")
    problem = appeal_problem(appeal_decisions(live).get(appealed, []), SimpleNamespace(payload=payload))
    if problem:
        raise InputError(problem.replace("(override)", f"({override_said})"), field="override")
    rec = record(match, "judge.appeal", payload, actor=actor, recorded_by=recorded_by)
    filed = appeal_filings(live).get(appealed)
    if by and filed and filed[0].payload["player"] != by:  # the judge's note stands as given: a fact, said
        rec.notices = [f"{filed[0].payload['player']} filed this appeal (event {filed[0].position}); the decision "
                       f"names {by} as the appellant, as given"]
    return rec


def appeal_call(live: list[RecordedEvent], appealed: int) -> RecordedEvent | None:
    """The judge call a player's appeal of event `appealed` came with, while no ruling or decision
    answers it: the filer's open call about that action (the web records one with each filing;
    a filing made while the player's call about it stood reuses that one). None where no filing
    counts or its call is answered (QA86 #4: deciding the appeal left its call open for ever).
    `live`: the log's events that still count."""
    filed = appeal_filings(live).get(appealed)
    if not filed:
        return None
    return open_call_about(live, filed[0].payload["player"], appealed)


def call_answered_words(decision: RecordedEvent) -> str:
    """What the CLI and the web say of the call a decision answered (`call` in its payload)."""
    return f"it answers judge call #{decision.payload['call']}, filed with the appeal"


def not_current_mark(match: Match, position: int, events: list[RecordedEvent] | None = None) -> str | None:
    """The mark of event `position` when it is a time decision that no longer decides the match
    ("out of date, superseded by #75"), else None: what `judge appeal` says after recording an
    appeal of it. Accepted all the same: an appeal of an old decision happened, and the log keeps
    facts; the words are the web Appeal list's (engine.decisions.not_current_marks). `events`: the
    whole log, where the caller read it already (`judge appeal` reads it once for both)."""
    return not_current_marks(match.replayer, match.events() if events is None else events).get(position)
