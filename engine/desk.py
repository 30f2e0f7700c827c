"""The judge's desk: judge actions, the match clock and the result slip, as core event kinds.

Every ruleset accepts these kinds (engine/events.py adds them to CORE_KINDS). None of them changes
the table: a ruleset's apply() ignores them. A backup and a correction (engine/events.py) are the
two judge actions that *do* change what replay plays; `time.called` and `time.decision` are the end
of the clock. This module imports no engine module that imports engine.events (engine.schema,
engine.findings, engine.catalogue, engine.words, engine.superseding, engine.timefacts), so events.py
can import it.

The judge of a judge action is the event's actor (`judge:NAME`): the envelope already says who
acted, so the payloads do not repeat it. `judge_of(event)` reads it back.

The desk's own checks (DESK-n) run over the whole log, because most compare things far apart (a
result slip with the game's outcome, a penalty with the slip): `desk_findings(...)` below;
`judge.desk` calls it with the replayed outcome. The checks of one event on its own
(`event_desk_findings`) and the one time call (DESK-12) are also said when an event is recorded, on
every path (engine.match.Match judges each event with them).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from engine.catalogue import load
from engine.findings import Finding, Rule, finding
from engine.schema import JUDGE_PREFIX, TABLE_ACTOR, Payload, PayloadError, Player, event_kind, shown
from engine.superseding import superseded
from engine.timefacts import read_again, timelimit_command
from engine.words import plural, say

# names the docs shipped for users (a page and section they can open), never a source file (QA80 8)
POLICY_SOURCE = "docs/judging.md, \"The desk's rules (DESK-n)\""

# Lowest to highest. Suspension is the ONE PIECE CARD GAME Tournament Rules Manual's sixth penalty
# (TRM 2025-10-17, 7.2: decided by Bandai for a set time, above a Disqualification).
PenaltyName = Literal["Caution", "Warning", "Game Loss", "Match Loss", "Disqualification", "Suspension"]
PENALTY_LADDER: tuple[str, ...] = ("Caution", "Warning", "Game Loss", "Match Loss", "Disqualification",
                                   "Suspension")


@dataclass(frozen=True)
class PenaltyPolicy:
    """A tournament's penalty policy: which penalties exist, in order of severity, which infraction
    categories it names (empty: free text), and its tardiness ladder (minutes late -> penalty)."""

    name: str
    title: str
    penalties: tuple[str, ...]
    categories: tuple[str, ...] = ()
    tardiness: tuple[tuple[int, str], ...] = ()  # (from this many minutes late, penalty), ascending
    source: str = ""

    def tardiness_penalty(self, minutes_late: int) -> str | None:
        chosen = None
        for start, penalty in self.tardiness:
            if minutes_late >= start:
                chosen = penalty
        return chosen


PENALTY_POLICIES: dict[str, PenaltyPolicy] = {
    p.name: p for p in (
        PenaltyPolicy(
            "bandai", "Bandai / Digimon-style penalty ladder",
            PENALTY_LADDER,
            tardiness=((0, "Warning"), (5, "Game Loss"), (10, "Match Loss")),
            source="ONE PIECE CARD GAME Tournament Rules Manual (Bandai, 2025-10-17) 7.2: Caution, Warning, "
                   "Game Loss, Match Loss, Disqualification, Suspension; 7.4.2-1 tardiness: a Warning within 5 "
                   "minutes, a Game Loss at 5 or more, a Match Loss at 10 (the Digimon TRM says the same)",
        ),
        PenaltyPolicy(
            # what a penalty on a game whose guide's policy would refuse it (a Caution, a free
            # category under the generic guide's mtg-ipg) is recorded under when no policy is given:
            # it says no published policy applied, where `bandai` would wrongly name Bandai's
            "none", "No published penalty policy: the desk's ladder, free infraction text",
            PENALTY_LADDER,
            source="the project's own: a penalty on a game without a Bandai guide that names no policy",
        ),
        PenaltyPolicy(
            "mtg-ipg", "Magic: The Gathering Infraction Procedure Guide",
            ("Warning", "Game Loss", "Match Loss", "Disqualification"),
            categories=("Game Play Error", "Tournament Error", "Unsporting Conduct"),
            source="MTG Infraction Procedure Guide: Warning, Game Loss, Match Loss, Disqualification; "
                   "categories Game Play Error, Tournament Error, Unsporting Conduct",
        ),
    )
}
# What a stored judge.penalty without a `policy` field means (every one recorded before the game's
# own default, engine.penalty_guide.default_policy, was filled in on recording): never changes.
DEFAULT_PENALTY_POLICY = "bandai"


# --- the kinds ------------------------------------------------------------------------------


@event_kind("judge.call")
class JudgeCall(Payload):
    """Someone calls a judge. `caller`: a player (or who else called); `at`: the event the call is
    about (default: the last event before the call); `reason` in the caller's words."""

    caller: str
    reason: str = ""
    at: int | None = None


@event_kind("judge.ruling")
class JudgeRuling(Payload):
    """A judge's ruling: its text, the rule cited (a rule id or the rulebook's section), and the
    judge.call it answers (a position), if any."""

    references = {"call": ("judge.call",)}

    text: str
    rule: str = ""
    call: int | None = None


# The judge actions an appeal may name (`appeal.filed`, `judge.appeal`): one list for both, and
# for the appeals file's judge acts (judge/report/appeals.py ACTIONS).
APPEALABLE_KINDS = ("judge.ruling", "judge.penalty", "backup", "time.decision", "judge.deck_check", "correction",
                    "time.extension")


@event_kind("appeal.filed")
class AppealFiled(Payload):
    """A player appeals a floor judge's ruling to the head judge (the tournament rules' appeal
    procedure): `appealed` is the judge action's position, `player` who appeals (a player of the
    match; the event's actor is that player), `reason` in their words. A fact of its own, recorded
    before any decision: the head judge's decision is the `judge.appeal` on the same action. Logs
    from before it have none: an appeal noted only by the decision's `by` reads as it did."""

    references = {"appealed": APPEALABLE_KINDS}

    appealed: int
    player: Player
    reason: str

    def validate(self) -> None:
        if not self.reason.strip():
            raise PayloadError("reason", "say why you appeal: the head judge reads it")


@event_kind("judge.appeal")
class JudgeAppeal(Payload):
    """The head judge's decision on an appeal of an earlier judge action (a ruling, a penalty, a
    backup, a time decision): `appealed` is its position; `decision` upholds, overturns or changes
    it, in `text`. A player may have filed the appeal first (`appeal.filed`); the decision stands
    for it. Changing a penalty is done by recording the new one (and a correction voiding the
    old); this event records the decision and why, for the appeals file. An appeal has one standing
    decision (DESK-13): a second one on the same action is refused by `judge appeal` unless it says
    why in `override` (the first stays in the log; the later one stands), and flagged otherwise.
    `call`: the judge call the decision answers, as a ruling's `call` does (the call a player's
    appeal came with: QA86 #4, deciding it left that call open for ever)."""

    references = {"appealed": APPEALABLE_KINDS, "call": ("judge.call",)}

    appealed: int
    decision: Literal["upheld", "overturned", "changed"]
    text: str
    by: Player | None = None  # who appealed (a player of the match), if the judge notes it
    override: str | None = None  # why a decision replaces one already given on the same action
    call: int | None = None  # the judge.call it answers, if any


@event_kind("judge.penalty")
class JudgePenalty(Payload):
    """A penalty to a player: Caution, Warning, Game Loss, Match Loss, Disqualification or
    Suspension, its infraction category, and the penalty policy it comes from (`bandai`, `mtg-ipg`,
    `none`). Recorded without one, it gets its game's (engine.penalty_guide.default_policy: `bandai`
    for optcg, `none` for the others); stored without one (older logs), it reads `bandai`.

    Given from a penalty guide (engine/penalty_guides): `guide` names the infraction's id there,
    `suggested` what the desk suggested when it was given ("None": no penalty), and `deviation` the
    desk's words when the penalty departs from the guide (finding DESK-11)."""

    player: Player
    penalty: PenaltyName
    infraction: str
    policy: str = DEFAULT_PENALTY_POLICY
    reason: str = ""
    minutes_late: int | None = None  # for a tardiness penalty
    guide: str | None = None
    suggested: str | None = None
    deviation: str | None = None

    def validate(self) -> None:
        pol = PENALTY_POLICIES.get(self.policy)
        if pol is None:
            raise PayloadError("policy", f"unknown penalty policy {shown(self.policy)} "
                                         f"(policies: {', '.join(PENALTY_POLICIES)})")
        if self.penalty not in pol.penalties:
            raise PayloadError("penalty", f"policy {shown(pol.name)} has no {shown(self.penalty)} "
                                          f"(penalties: {', '.join(pol.penalties)})")
        if pol.categories and self.infraction not in pol.categories:
            raise PayloadError("infraction", f"policy {shown(pol.name)} names the categories "
                                             f"{', '.join(pol.categories)}; got {shown(self.infraction)}")
        if not self.infraction.strip():
            raise PayloadError("infraction", "name the infraction category")
        if self.minutes_late is not None and self.minutes_late < 0:
            raise PayloadError("minutes_late", "must be 0 or more")
        if self.suggested is not None and self.suggested not in PENALTY_LADDER + ("None",):
            raise PayloadError("suggested", f"must be a penalty ({', '.join(PENALTY_LADDER)}) or None, "
                                            f"got {shown(self.suggested)}")


@event_kind("judge.deck_check")
class DeckCheck(Payload):
    """A deck check. `player` (none: both decks), and what the judge found."""

    player: Player | None = None
    result: str = "ok"


@event_kind("round.start")
class RoundStart(Payload):
    """The match clock starts: the round's length in minutes. `started_at` (ISO 8601) is when the
    round began if not when this event was recorded; `clock` is the wall clock said aloud ("14:00")."""

    minutes: int
    started_at: str | None = None
    clock: str | None = None

    def validate(self) -> None:
        if self.minutes < 1:
            raise PayloadError("minutes", "a round lasts at least 1 minute")
        if self.started_at is not None:
            try:
                datetime.fromisoformat(self.started_at.replace("Z", "+00:00"))
            except ValueError:
                raise PayloadError("started_at", f"not an ISO 8601 time: {shown(self.started_at)}") from None


@event_kind("time.extension")
class TimeExtension(Payload):
    """A judge adds minutes to this match's clock (a long ruling, a deck check)."""

    minutes: int
    reason: str

    def validate(self) -> None:
        if self.minutes < 1:
            raise PayloadError("minutes", "an extension is at least 1 minute")


@event_kind("result.slip")
class ResultSlip(Payload):
    """The match result as the players agree it: `win` (with `winner`), `draw` or `double-loss`;
    `games` the game score if more than one game ("2-1")."""

    result: Literal["win", "draw", "double-loss"]
    winner: Player | None = None
    games: str | None = None

    def validate(self) -> None:
        if self.result == "win" and not self.winner:
            raise PayloadError("winner", "a win needs a winner")
        if self.result != "win" and self.winner:
            raise PayloadError("winner", f"a {self.result} has no winner")


@event_kind("result.confirm")
class ResultConfirm(Payload):
    """One player confirms (or disputes, `agree: false`) a result slip. `slip`: its position
    (default: the latest slip before this event)."""

    references = {"slip": ("result.slip",)}

    player: Player
    slip: int | None = None
    agree: bool = True


DESK_KINDS: tuple[type[Payload], ...] = (
    JudgeCall, JudgeRuling, AppealFiled, JudgeAppeal, JudgePenalty, DeckCheck, RoundStart, TimeExtension,
    ResultSlip, ResultConfirm,
)
# What the desk calls "judge actions": shown highlighted in reports, listed by `tablejudge actions`.
JUDGE_ACTION_KINDS = frozenset({"judge.call", "judge.ruling", "appeal.filed", "judge.appeal", "judge.penalty",
                                "judge.deck_check", "time.extension", "backup", "correction", "time.called",
                                "time.decision", "round.start", "result.slip", "result.confirm"})
# Kinds that must be recorded by a judge (actor judge:NAME).
JUDGE_ONLY_KINDS = frozenset({"judge.ruling", "judge.appeal", "judge.penalty", "judge.deck_check", "time.extension",
                              "backup"})
# Core kinds that never change the game: a ruleset should not flag them as "played after the end".
OFF_TABLE_KINDS = frozenset({k.kind for k in DESK_KINDS} | {"note", "correction", "backup",
                                                            "time.called", "time.decision"})


_DESK_KIND = {k.kind: k for k in DESK_KINDS}


def judge_of(actor: str) -> str | None:
    return actor[len(JUDGE_PREFIX):] if actor.startswith(JUDGE_PREFIX) else None


# --- the desk's rules -------------------------------------------------------------------------

DESK_RULES: tuple[Rule, ...] = load("engine", "desk_rules.toml").rules
RULE_ID = re.compile(r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$")
_RULES = {r.id: r for r in DESK_RULES}
LOSS_PENALTIES = ("Game Loss", "Match Loss", "Disqualification", "Suspension")
MATCH_LOSS_PENALTIES = ("Match Loss", "Disqualification", "Suspension")


def limit_finding(position: int, message: str) -> Finding:
    """DESK-9: a stored event beyond the log's limits, kept but not replayed."""
    return finding(_RULES["DESK-9"], position, message, source="README.md#limits")


def failure_finding(position: int, message: str) -> Finding:
    """DESK-10: an event the ruleset's code failed to apply or judge, kept but not replayed."""
    return finding(_RULES["DESK-10"], position, message, source="README.md#limits")


def _flag(rule_id: str, position: int, message: str, severity: str = "error") -> Finding:
    return finding(_RULES[rule_id], position, message, severity=severity,  # type: ignore[arg-type]
                   source=POLICY_SOURCE)


def stale_decision_finding(position: int, words: str) -> Finding:
    """DESK-15, said at the correction (or backup) that left a time decision out of date
    (engine/decisions.py): a warning, so a judge recording the correction with --strict is not
    refused for it; the match waits for a new decision."""
    return _flag("DESK-15", position, words, "warning")


@dataclass
class LogOutcome:
    """How the log itself says the match ended, and from which event."""

    result: str  # win | draw | double-loss
    winner: str | None
    how: str
    source: str  # "penalty" | "game" | "time.decision"
    position: int | None = None
    explanation: tuple[str, ...] = ()
    score: dict[str, int] | None = None  # the game's outcome's games won each (Outcome.score), if it gives them
    drawn: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"result": self.result, "winner": self.winner, "how": self.how, "source": self.source,
                "position": self.position, "explanation": list(self.explanation)}


def log_outcome(events: Sequence[Any], voided: Iterable[int], players: Sequence[str],
                game_outcome: Any, stale: Iterable[int] = ()) -> LogOutcome | None:
    """The match result the log shows, in this order: a Match Loss / Disqualification penalty; the
    game's own outcome (ruleset.outcome); a Game Loss penalty; a time.decision. None: not over.

    `game_outcome` is an engine.rulesets.base.Outcome (or None) as it stands: a table's result that came
    from a stale time decision is the caller's to set aside (engine/decisions.py `log_ending` does,
    by `StandingTable.outcome`). Events are RecordedEvents. `stale`: the positions of time decisions a
    later correction left out of date: never the result, though the log's latest decision be one."""
    void = set(voided)
    out_of_date = set(stale)
    live = [e for e in events if e.position not in void]
    losers: dict[str, tuple[str, int]] = {}
    for e in live:
        if e.kind == "judge.penalty" and e.payload["penalty"] in MATCH_LOSS_PENALTIES:
            losers.setdefault(e.payload["player"], (e.payload["penalty"], e.position))
    if losers:
        return _penalty_outcome(losers, players)
    if game_outcome is not None:
        return LogOutcome(game_outcome.result, game_outcome.winner, game_outcome.how, "game",
                          None, tuple(game_outcome.explanation), game_outcome.score, game_outcome.drawn)
    for e in live:
        if e.kind == "judge.penalty" and e.payload["penalty"] == "Game Loss":
            losers.setdefault(e.payload["player"], ("Game Loss", e.position))
    if losers:
        return _penalty_outcome(losers, players)
    decisions = [e for e in live if e.kind == "time.decision" and e.payload["result"] != "continue"
                 and e.position not in out_of_date]
    if decisions:
        d = decisions[-1]
        p = d.payload
        return LogOutcome(p["result"], p.get("winner"), f"time limit: {p['branch']}", "time.decision",
                          d.position, tuple(p.get("steps", ())))
    return None


def _penalty_outcome(losers: dict[str, tuple[str, int]], players: Sequence[str]) -> LogOutcome:
    rest = [p for p in players if p not in losers]
    first = min(pos for _, pos in losers.values())
    how = "; ".join(f"{name} to {p} (event {pos})" for p, (name, pos) in losers.items())
    if len(rest) == 1:
        return LogOutcome("win", rest[0], how, "penalty", first)
    return LogOutcome("double-loss" if not rest else "win", None, how, "penalty", first)


def event_desk_findings(e: Any, known: set[str] | None, guide: Any = None,
                        penalties: Sequence[Any] = (), players: Sequence[str] | None = None) -> list[Finding]:
    """The desk's checks of one event on its own: a judge's act by someone who is not a judge
    (DESK-4), a penalty's tardiness and deviation from its guide (DESK-11), a ruling citing a rule
    id the match's ruleset does not have (DESK-8; `known`: the ids it may cite, None skips it).
    Said when the event is recorded (Match._judge, Match.judge_batch), and again over the whole
    log (desk_findings), never by replay's Validation, so no report says them twice.

    DESK-11: a penalty given with the desk's suggestion (`judge penalty`) carries its verdict
    (`deviation`, computed over the whole event then). One recorded any other way is read against
    `guide` (the match's engine.penalty_guide.Guide; None skips it), counting repeats among
    `penalties`, the match's penalty events before it that still count.

    DESK-16: a replacing correction whose game event is by someone who plays no part in the match
    (`players`: the match's; None skips it). DESK-17: a player's appeal whose actor is not that
    player (the payload's player is one of the match's: the event's own check)."""
    p = e.payload
    out: list[Finding] = []
    if e.kind in JUDGE_ONLY_KINDS and judge_of(e.actor) is None:
        out.append(_flag("DESK-4", e.position, f"{e.kind} recorded by {shown(e.actor)}, not by a judge "
                         "(actor judge:NAME)", "warning"))
    if players is not None and e.kind == "correction":  # tested here: every live append passes by
        out.extend(_check_replacement_actor(e, players))
    if e.kind == "appeal.filed" and e.actor != p["player"]:
        out.append(_flag("DESK-17", e.position, f"the appeal of event {p['appealed']} names {p['player']} as who "
                         f"appeals but its actor is {shown(e.actor)}: an appeal is the player's own act (actor "
                         f"{p['player']}; who typed it in is its recorded_by)", "warning"))
    if e.kind == "judge.penalty":
        out.extend(_check_tardiness(e))
        deviation = p.get("deviation")
        if deviation is None and p.get("suggested") is None and guide is not None:
            deviation = guide.unsaid_deviation(e, penalties)
        if deviation:
            out.append(_flag("DESK-11", e.position, f"{p['penalty']} to {p['player']}: {deviation}",
                             "warning"))
    if e.kind == "judge.ruling" and known is not None:
        cited = p.get("rule", "").strip()
        if RULE_ID.match(cited) and cited not in known:
            out.append(_flag("DESK-8", e.position, f"the ruling cites {cited}, which is not a rule id "
                             "of this match's ruleset (a typo, or another game's rule?)", "warning"))
    return out


def _check_replacement_actor(e: Any, players: Sequence[str]) -> list[Finding]:
    """A replacement is a game event (only those are replaced), so its actor is a player, or the
    table (`-`, as any game event may be recorded). A judge or scorekeeper there is most likely the
    judge's own name copied in: the corrected log would say they made the play (DESK-16)."""
    x = e.payload.get("instead")
    actor = x.get("actor") if isinstance(x, dict) else None
    if actor is None or actor == TABLE_ACTOR or actor in players:
        return []
    return [_flag("DESK-16", e.position, f"event {e.payload['voids']} should read as played by {shown(actor)}, "
                  f"who is not a player of this match ({', '.join(players)}): a game event is a player's "
                  "act (or the table's, '-')", "warning")]


def ends_extra_minutes(e: Any) -> bool:
    """A `time.called` saying a policy's extra minutes ran out, not calling time itself."""
    return e.kind == "time.called" and e.payload.get("extra_minutes_over") is True


def time_calls(events: Iterable[Any], voided: Iterable[int] = ()) -> list[Any]:
    """The time calls among `events` that still count (`voided`: the positions that do not), in
    order: `time.called` events, but not the end of a policy's extra minutes (not a call). One in a
    live match; an imported log may hold more (DESK-12)."""
    void = set(voided)
    return [e for e in events if e.kind == "time.called" and e.position not in void and not ends_extra_minutes(e)]


def find_time_called(events: Iterable[Any], voided: Iterable[int]) -> Any | None:
    """The last time call among `events` that still counts (time_calls)."""
    found = time_calls(events, voided)
    return found[-1] if found else None


def _already_called(called: Any) -> str:
    return f"time was already called at {called.payload.get('clock')} (event {called.position})"


def _clock_minutes(clock: Any) -> int | None:
    """Minutes since midnight of an HH:MM wall clock, None if it is not one."""
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", str(clock or ""))
    return int(m.group(1)) * 60 + int(m.group(2)) if m else None


def _before_the_call(mark: Any, call: Any) -> str | None:
    """The end of the extra minutes said at a wall clock before the call's (within 12 hours: a round
    over midnight goes on the next day), or None."""
    said, called = _clock_minutes(mark.payload.get("clock")), _clock_minutes(call.payload.get("clock"))
    if said is None or called is None or not 0 < (called - said) % (24 * 60) < 12 * 60:
        return None
    return (f"the extra minutes cannot run out at {mark.payload.get('clock')}, before time was called at "
            f"{call.payload.get('clock')} (event {call.position}): check the clock")


# How far past the call plus its extra minutes a recorded end of them may be before it is flagged
# (DESK-14): wall clocks are read and typed by hand, a few minutes off is usual, a round's worth is not.
LATE_MARGIN = 10


def _long_after_the_call(mark: Any, call: Any, minutes: int | None) -> str | None:
    """The end of the extra minutes said at a wall clock later than the call's plus `minutes` (the
    most a policy gives) plus LATE_MARGIN, or None. A late mark is still a fact (the judge saw the
    minutes run out then): flagged, never refused."""
    said, called = _clock_minutes(mark.payload.get("clock")), _clock_minutes(call.payload.get("clock"))
    if said is None or called is None or minutes is None:
        return None
    after = (said - called) % (24 * 60)
    if after <= minutes + LATE_MARGIN or after > 12 * 60:  # within the minutes, or before the call
        return None
    return (f"the extra minutes ran out at {mark.payload.get('clock')}, {plural(after, 'minute')} after time was "
            f"called at {call.payload.get('clock')} (event {call.position}), though they last "
            f"{plural(minutes, 'minute')}: check the clock (the mark is kept, and the end-of-time procedure "
            "reads it as recorded)")


@dataclass(frozen=True)
class TimeCallFault:
    """What is wrong with one `time.called` after the ones before it (DESK-12), for either reader to
    word: "again" (time was called already: `call`), "not-called" (an end of the extra minutes with
    no call before it), "twice" (their end is recorded already: `over`), "before" (their end at a
    wall clock before the call's: `early`, the words both readers say), "late" (their end long after
    the call plus its extra minutes, DESK-14: `early` holds its words; a warning, never a refusal)."""
    reason: str
    call: Any = None
    over: Any = None
    early: str = ""

    @property
    def refused(self) -> bool:
        """Whether live input refuses it (every fault but a late mark, which is a fact said late)."""
        return self.reason != "late"


def _time_call_faults(calls: Iterable[Any],
                      minutes: int | None = None) -> Iterator[tuple[Any, TimeCallFault | None]]:
    """Each `time.called` among `calls` (that still count, in order) with its fault or None, judged
    after all those before it, flagged ones too: an imported log is stored as it is, and live input
    after it is judged against it. The call is the first that is not an end of the extra minutes;
    their end, the first such mark after the call (one before the call is a fault, not the end; one
    long after the call and its `minutes`, the most the ruleset's policies give, a warning).
    The one reading of DESK-12: live input refuses a fault (time_call_verdict), a log flags it
    (_time_call_findings)."""
    first = over = None
    for e in calls:
        if e.kind != "time.called":
            continue
        fault = None
        if not ends_extra_minutes(e):
            if first is None:
                first = e
            else:
                fault = TimeCallFault("again", call=first)
        elif first is None:
            fault = TimeCallFault("not-called")
        elif over is not None:
            fault = TimeCallFault("twice", call=first, over=over)
        else:
            over = e
            early = _before_the_call(e, first)
            late = None if early else _long_after_the_call(e, first, minutes)
            fault = (TimeCallFault("before", call=first, early=early) if early
                     else TimeCallFault("late", call=first, early=late) if late else None)
        yield e, fault


@dataclass(frozen=True)
class TimeCallVerdict:
    """What live input says of one `time.called` (time_call_verdict): `refusal` (reason, words), or
    None when it is recorded; `warnings`, what is said of one recorded (DESK-14)."""
    refusal: tuple[str, str] | None
    warnings: list[Finding]


def time_call_verdict(calls: Sequence[Any], probe: Any, head: int, *,
                      extra_minutes: Mapping[str, int], ruleset: str) -> TimeCallVerdict:
    """Live input's one reading of a `time.called` (`probe`) after `calls`, the time.called events
    before it that still count (stored ones have positions <= `head`; the others are earlier actions
    of the same line, not stored either): the refusal and the warning come from one pass of
    _time_call_faults (review: each ran it). Time is called once in a match (DESK-12): a second call
    would leave two times and the end-of-time procedure deciding from the later one. Under a policy
    with extra minutes (`extra_minutes`: the ruleset's policies that give them) their end is
    recorded once, after the call (`extra_minutes_over`). One long after the call is not refused
    but flagged (DESK-14: `warnings`, in the words the whole log says, _time_call_findings).
    The refusal is (reason, words): the reason ("called": a stored call stands; "line": this line
    calls time already; "no-policy", "not-called", "before", "twice": of the end of the extra
    minutes) lets a command add only the commands that fit (the words, said on every path, have none)."""
    if ends_extra_minutes(probe) and not extra_minutes:
        return TimeCallVerdict(("no-policy", (
            f"ruleset {ruleset} has no end-of-time policy with extra minutes after the call: there are no "
            "extra minutes to run out (record the call itself without extra_minutes_over)")), [])
    *_, (_, fault) = _time_call_faults([*calls, probe], _most(extra_minutes))
    if fault is None:
        return TimeCallVerdict(None, [])
    if not fault.refused:  # late: recorded, and said
        return TimeCallVerdict(None, [_late_finding(probe, fault)])
    return TimeCallVerdict(_refusal(fault, head, extra_minutes, ruleset), [])


def _refusal(fault: TimeCallFault, head: int, extra_minutes: Mapping[str, int], ruleset: str) -> tuple[str, str]:
    """A refused fault in live input's words (time_call_verdict)."""
    if fault.reason == "not-called":
        return "not-called", "the extra minutes cannot run out before time is called: call time first"
    if fault.reason == "before":
        return "before", fault.early
    if fault.reason == "twice":
        over = fault.over
        where = f"(event {over.position})" if over.position <= head else "(earlier on this line)"
        return "twice", (f"the extra minutes already ran out at {over.payload.get('clock')} {where}; it is "
                         "recorded once")
    first = fault.call
    if first.position > head:
        return "line", (f"this line already calls time (at {first.payload.get('clock')}); time is called once "
                        "in a match: a second call is not recorded")
    # Said on every path (CLI, live, a phone's recorder page): short, and no command line in it.
    mark = (f"; if {ruleset}'s extra minutes ({' or '.join(extra_minutes)}) ran out, record that instead: "
            "the call marked extra_minutes_over") if extra_minutes else ""
    return "called", (f"{_already_called(first)}; a second call is not recorded (void event {first.position} "
                      f"first if it was a mistake{mark})")


def _most(extra_minutes: Mapping[str, int] | None) -> int | None:
    """The most extra minutes any of the ruleset's policies gives (a mark is late only past it)."""
    return max(extra_minutes.values(), default=None) if extra_minutes else None


def _late_finding(e: Any, fault: TimeCallFault) -> Finding:
    return _flag("DESK-14", e.position, fault.early, "warning")


def _time_call_findings(live: Sequence[Any], extra_minutes: Mapping[str, int] | None = None) -> list[Finding]:
    """DESK-12 over a log (events that still count): every time call after the first, every end of
    the extra minutes but one after it, and that one at a wall clock before the call's. Live input
    refuses them all (Match.record, Match.judge_batch: `time_call_verdict`, the same reading,
    _time_call_faults); an imported log is a fact, stored and flagged here. DESK-14: that one long
    after the call and its extra minutes (`extra_minutes`: the ruleset's policies that give them),
    flagged live too (time_call_verdict's warnings)."""
    out: list[Finding] = []
    for e, fault in _time_call_faults(live, _most(extra_minutes)):
        if fault is None:
            continue
        if fault.reason == "late":
            out.append(_late_finding(e, fault))
            continue
        if fault.reason == "not-called":
            said = "the extra minutes ran out before time was called (their end comes after the call)"
        elif fault.reason == "before":
            said = fault.early  # the live refusal's own words
        elif fault.reason == "twice":
            said = f"the extra minutes already ran out (event {fault.over.position}): their end is recorded once"
        else:
            said = (f"{_already_called(fault.call)}: time is called once in a match, and the end-of-time "
                    "procedure may decide from the later call")
        out.append(_flag("DESK-12", e.position, f"{said}; void the one that is a mistake with a correction",
                         "warning"))
    return out


def appeal_decisions(live: Iterable[Any]) -> dict[int, list[Any]]:
    """The `judge.appeal` events among `live` (events that still count), by the position of the
    action appealed, in order: the last is the standing decision."""
    return _by_appealed(live, "judge.appeal")


def appeal_filings(live: Iterable[Any]) -> dict[int, list[Any]]:
    """The `appeal.filed` events among `live` (events that still count), by the position of the
    action appealed, in order."""
    return _by_appealed(live, "appeal.filed")


def _by_appealed(live: Iterable[Any], kind: str) -> dict[int, list[Any]]:
    """The events of `kind` among `live`, by the position of the action they appeal, in order."""
    out: dict[int, list[Any]] = {}
    for e in live:
        if e.kind == kind:
            out.setdefault(e.payload["appealed"], []).append(e)
    return out


@dataclass(frozen=True)
class AppealedAway:
    """A judge action (`action`, its position) whose standing decision on appeal (`appeal`, the last
    `judge.appeal` on it that still counts) overturns or changes it. The appeal records the head
    judge's decision and changes nothing itself (corrections are events): what replaces the action
    is recorded apart, and until it is, every reader that presents the action says this beside it."""

    action: int
    appeal: Any
    facts: str | None = None  # the action's facts line, where a time decision was given from facts

    @property
    def decision(self) -> str:
        return str(self.appeal.payload.get("decision"))

    def mark(self) -> str:
        """'overturned on appeal (event 78)': what a listing says beside the action."""
        return f"{self.decision} on appeal (event {self.appeal.position})"

    def words(self) -> str:
        """The mark with who decided and why, as a warning says it."""
        judge = judge_of(self.appeal.actor) or self.appeal.actor
        text = str(self.appeal.payload.get("text") or "").strip()
        return f"{self.mark()[:-1]}, head judge {judge}{': ' + text if text else ''})"

    def redecide_commands(self, match: str) -> tuple[str, str]:
        """The two commands that replace a time decision overturned or changed on appeal: void it
        with a correction that names the appeal, then decide again. One wording for every reader
        that says them (`of_time_decision`, the tournament's check of a result based on it)."""
        return (f"tablejudge log {match} correction --actor judge:NAME --voids {self.action} --reason "
                f"\"{self.decision} on appeal, event {self.appeal.position}\"",  # changed: not "overturned" (QA86 #11)
                timelimit_command(match, self.facts))

    def of_time_decision(self, match: str) -> str:
        """Said beside a time decision overturned or changed on appeal (`timelimit`, its web preview,
        `state`'s result): it counts until a correction voids it and what replaces it is recorded."""
        void, decide = self.redecide_commands(match)
        return (f"{self.words()}; it still counts until what replaces it is recorded: void it ({void}), then "
                f"decide again ({decide}){read_again(self.facts)} or enter the result the head judge gave")


def appealed_away(live: Iterable[Any]) -> dict[int, AppealedAway]:
    """The one reading of "this judge action was overturned or changed on appeal": each action
    among the appeals in `live` (events that still count) whose standing decision is not "upheld",
    by the action's position. The time-limit module, `state`, the tournament's warnings and the
    web's lists all ask here."""
    live = list(live)
    facts = {e.position: e.payload.get("facts") for e in live if e.kind == "time.decision"}
    return {p: AppealedAway(p, ds[-1], facts.get(p)) for p, ds in appeal_decisions(live).items()
            if ds[-1].payload.get("decision") != "upheld"}


def decision_appealed(events: Iterable[Any], voided: set[int], position: int,
                      upto: int | None = None) -> AppealedAway | None:
    """Has the (time) decision at `position` been overturned or changed on appeal? Its
    AppealedAway, or None: the standing decision among `events` not in `voided` (and, with `upto`,
    recorded by then: a later appeal was not there yet). One question for `timelimit`, `state`'s
    result and the tournament's check of a result based on the decision."""
    return appealed_away(e for e in events if e.position not in voided and (upto is None or e.position <= upto)
                         ).get(position)


def appeal_problem(decisions: Sequence[Any], probe: Any) -> str | None:
    """Why `probe`, a decision on an appeal, contradicts the decisions already given on the same
    action (`decisions`, that still count), or None. One reading of DESK-13 for both: `judge appeal`
    refuses it, a log flags it (_appeal_findings). A decision saying why it replaces the earlier one
    (`override`) is not a fault: the head judge reconsidered, on the record."""
    if not decisions or str(probe.payload.get("override") or "").strip():
        return None
    last = decisions[-1]
    return (f"the appeal of event {probe.payload['appealed']} was already decided: {last.payload['decision']} "
            f"(event {last.position}); an appeal has one standing decision, so a second one must say why it "
            f"replaces it (override), or void event {last.position} with a correction if it was a mistake")


def _appeal_findings(live: Sequence[Any]) -> list[Finding]:
    """DESK-13 over a log: each decision on an appeal already decided that does not say why."""
    out: list[Finding] = []
    for decisions in appeal_decisions(live).values():
        for i, e in enumerate(decisions):
            said = appeal_problem(decisions[:i], e)
            if said:
                out.append(_flag("DESK-13", e.position, said, "warning"))
    return out


def known_rule_ids(rule_ids: Iterable[str]) -> set[str]:
    """The rule ids a ruling may cite in a match: its ruleset's and the desk's own."""
    return set(rule_ids) | set(_RULES)


def desk_findings(events: Sequence[Any], voided: Iterable[int], players: Sequence[str],
                  outcome: LogOutcome | None, known_rules: Iterable[str] | None = None,
                  guide: Any = None, extra_minutes: Mapping[str, int] | None = None) -> list[Finding]:
    """The desk's checks over a whole log (events that still count). Sorted by position.
    `known_rules`: the rule ids a ruling may cite (the ruleset's); None skips that check. `guide`:
    the match's penalty guide (engine.penalty_guide.guide_for(ruleset)); None skips reading a
    penalty recorded without the desk's suggestion against it (DESK-11). `extra_minutes`: the
    ruleset's extra_minutes_policies; None skips reading the end of them against the call (DESK-14)."""
    known = None if known_rules is None else known_rule_ids(known_rules)
    void = set(voided)
    live = [e for e in events if e.position not in void]
    out: list[Finding] = []
    slips: dict[int, Any] = {}
    confirms: dict[int, dict[str, Any]] = {}
    penalties: list[Any] = []
    # a replacement a later correction of the same event overruled plays no more (the latest decides)
    stale = superseded(live).keys()
    for e in live:
        p = e.payload
        out.extend(event_desk_findings(e, known, guide, penalties, None if e.position in stale else players))
        if e.kind == "judge.penalty":
            penalties.append(e)
        if e.kind == "result.slip":
            slips[e.position] = e
        elif e.kind == "result.confirm":
            target = p.get("slip") or (max(slips) if slips else None)
            if target not in slips:
                out.append(_flag("DESK-7", e.position, f"{p['player']} confirms "
                                 + (f"event {target}, which is not a result slip that still counts"
                                    if target else "a result slip, but none was recorded before"),
                                 "warning"))
                continue
            confirms.setdefault(target, {})[p["player"]] = e
    out.extend(_time_call_findings(live, extra_minutes))
    out.extend(_appeal_findings(live))
    if slips:
        last = slips[max(slips)]
        out.extend(_check_slip(last, confirms.get(last.position, {}), players, outcome, live))
    return sorted(out, key=lambda f: (f.position, f.rule))


def tardiness_unchecked(payload: dict[str, Any], guide: Any) -> str | None:
    """Why a penalty's `minutes_late` is not read against a ladder (DESK-5), None if it is. Tardiness
    is a tournament-floor rule, but its minutes come from a published policy: `none` says no policy
    applied, and borrowing Bandai's numbers would say Bandai's manual rules a game it does not cover.
    Said to the judge who records it, so the silence is not taken for "on the ladder", with advice
    that `judge penalty` takes for the game (`guide`: its engine.penalty_guide.Guide): the guide's
    own Tardiness, read against its minutes (DESK-11); `--policy bandai` only where the guide's
    policy is bandai, as a guide's infraction under another policy is refused (QA84 #6)."""
    late = payload.get("minutes_late")
    pol = PENALTY_POLICIES.get(payload.get("policy", DEFAULT_PENALTY_POLICY))
    if late is None or pol is None or pol.tardiness:
        return None
    said = f"policy {shown(pol.name)} has no tardiness ladder: {plural(late, 'minute')} late is recorded, not checked (DESK-5)"
    tardy = guide.lookup("Tardiness")
    if tardy is not None and guide.infraction_of(payload) == tardy:
        return f"{said}; the penalty is read against the guide's {tardy.id} and its minutes (DESK-11)"
    advice = ([f"the guide's --infraction {tardy.id} (policy {guide.policy}), read against its minutes (DESK-11)"]
              if tardy is not None else []) + (["--policy bandai"] if guide.policy == "bandai" else [])
    return said + (f"; to have them checked, give {' or '.join(advice)}" if advice else "")


def _check_tardiness(e: Any) -> list[Finding]:
    p = e.payload
    late = p.get("minutes_late")
    pol = PENALTY_POLICIES.get(p.get("policy", DEFAULT_PENALTY_POLICY))
    if late is None or pol is None or not pol.tardiness:
        return []
    due = pol.tardiness_penalty(late)
    if due and due != p["penalty"]:
        return [_flag("DESK-5", e.position, f"{p['player']} was {plural(late, 'minute')} late: policy "
                      f"{shown(pol.name)} gives {due}, the judge gave {p['penalty']}", "warning")]
    return []


def _describe_result(result: str, winner: str | None) -> str:
    return f"{winner} wins" if result == "win" else result


def _check_slip(slip: Any, confirms: dict[str, Any], players: Sequence[str],
                outcome: LogOutcome | None, live: Sequence[Any]) -> list[Finding]:
    out: list[Finding] = []
    p = slip.payload
    said = _describe_result(p["result"], p.get("winner"))
    missing = [pl for pl in players if pl not in confirms]
    disputed = [pl for pl, c in confirms.items() if not c.payload.get("agree", True)]
    if missing or disputed:
        parts = []
        if missing:
            parts.append("not confirmed by " + ", ".join(missing))
        if disputed:
            parts.append("disputed by " + ", ".join(disputed))
        out.append(_flag("DESK-2", slip.position, f"result slip ({said}): " + "; ".join(parts), "warning"))
    for e in live:
        if (e.kind == "judge.penalty" and e.payload["penalty"] in LOSS_PENALTIES
                and p["result"] == "win" and p.get("winner") == e.payload["player"]):
            out.append(_flag("DESK-6", slip.position, f"the slip says {said}, but {e.payload['player']} "
                             f"received a {e.payload['penalty']} (event {e.position})"))
    if missing or disputed:
        return out  # only a slip every player confirmed is compared with the log
    if outcome is None:
        out.append(_flag("DESK-3", slip.position, f"the slip says {said}, but the log does not show how "
                         "the match ended (no game end, concession, loss penalty or time decision)",
                         "warning"))
        return out
    if (p["result"], p.get("winner")) != (outcome.result, outcome.winner):
        where = f" (event {outcome.position})" if outcome.position else ""
        out.append(_flag("DESK-1", slip.position, f"the confirmed slip says {said}; the log says "
                         f"{_describe_result(outcome.result, outcome.winner)}: {outcome.how}{where}"))
    return out


def describe_desk_event(kind: str, payload: dict[str, Any], actor: str) -> str | None:
    """Plain words for a desk kind (None: not a desk kind). Rulesets' describe() falls back to a
    generic `kind field=value`; reports call this first."""
    judge = judge_of(actor)
    if kind == "correction" and payload.get("instead"):  # its replacement in the ruleset's words
        return None
    if kind == "time.called" and payload.get("extra_minutes_over") is True:  # not a call: its own words
        note = f": {payload['note']}" if payload.get("note") else ""
        return f"the extra minutes ran out at {payload.get('clock')}{note}"
    words = say("engine", kind, payload, _DESK_KIND.get(kind), {"judge": judge})
    if words is not None:
        return words
    p = payload
    by = f" (judge {judge})" if judge else ""
    if kind == "judge.ruling":
        rule = f" [{p['rule']}]" if p.get("rule") else ""
        return f"ruling{by}{rule}: {p['text']}"
    if kind == "judge.penalty":
        late = f", {p['minutes_late']} min late" if p.get("minutes_late") is not None else ""
        why = f": {p['reason']}" if p.get("reason") else ""
        guide = f" [{p['guide']}]" if p.get("guide") else ""
        return (f"penalty{by}: {p['penalty']} to {p['player']} ({p['infraction']}{guide}{late}; "
                f"policy {p.get('policy', DEFAULT_PENALTY_POLICY)}){why}")
    if kind == "round.start":
        at = f" at {p['clock']}" if p.get("clock") else ""
        return f"round starts{at}: {plural(p['minutes'], 'minute')} on the clock"
    if kind == "result.slip":
        games = f" ({p['games']})" if p.get("games") else ""
        return f"result slip: {_describe_result(p['result'], p.get('winner'))}{games}"
    if kind == "result.confirm":
        which = f" (event {p['slip']})" if p.get("slip") else ""
        verb = "confirms" if p.get("agree", True) else "disputes"
        return f"{p['player']} {verb} the result slip{which}"
    return None


def describer(ruleset_describe: Callable[[Any], str]) -> Callable[[Any], str]:
    """Describe events with the desk's words for desk kinds and the ruleset's for the rest."""
    def describe(e: Any) -> str:
        return describe_desk_event(e.kind, e.payload, e.actor) or ruleset_describe(e)
    return describe
