"""Every write on a recorded match, once: the recorder page, the judges' desk, the player's page and
the JSON API come here. The grant is checked against the match's scope before anything is read
from the form: a recorder's link writes only its match, a player's only calls a judge for its own
table (and appeals a judge's ruling there), rulings, penalties, backups and extensions are a judge's (or the organizer's).

    scope = match_scope(desk, "3f2a9c01e4")                 # its tournament and (round, table)
    run_match_action(ctx, grant, "line", scope, {"line": "A: refresh", "seen": "14"})

Refusals: Forbidden (403) and InputError (422; LineRefused names the column) store nothing.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.desk import PENALTY_LADDER, describer, judge_of
from engine.events import RecordedEvent
from engine.match import InputError, Match
from engine.rulesets import UnknownRuleset, get_ruleset
from judge.desk.actions import (appeal_to_head_judge, call_answered_words, decide_appeal, last_game_event,
                                record as desk_record)
from judge.desk.calls import CALL_KINDS, open_call, standing_calls
from engine.penalty_guide import guide_for
from judge.desk.penalties import give_penalty
from judge.tournament import rounds
from judge.web.actions import Context, number, text
from judge.desk.clock import local_time
from judge.recorders import who_stored
from judge.web.auth import ACTION_WORDS, PLAYER, RECORDER, SCOREKEEPER, Forbidden, Grant, who_can
from judge.web.recording import LineOutcome, Recorder
from judge.web.replace import replace as replace_event
from judge.web.timedecide import policy_of


@dataclass(frozen=True)
class MatchScope:
    """Where a recorded match belongs: its tournament (None: a match of no tournament here, which
    only the organizer's own link may write) and the (round, table) the tournament played it at."""

    match: str
    tournament: str | None
    table: tuple[int, int] | None


def match_scope(desk: Any, mid: str) -> MatchScope:
    """KeyError for an unknown match."""
    desk.matches.match(mid)
    tid = desk.matches.tournament_of(mid)
    if not tid:
        return MatchScope(mid, None, None)
    try:
        st = desk.tournament(tid).state()
    except (KeyError, ValueError):  # the event label names no tournament of this log
        return MatchScope(mid, None, None)
    for rnd in st.rounds:
        for table, m in rnd.matches.items():
            if m == mid:
                return MatchScope(mid, tid, (rnd.number, table))
    return MatchScope(mid, tid, None)


RECORDING = ("record_event", "undo_event", "call_judge")  # what a match's recorder link may do there


class Act(NamedTuple):
    """One act on a recorded match: the permission of auth.ACTIONS it takes, what it is in the words
    of the person refused it, and (`step`) what that person does instead where who_can's step for the
    permission is no step (format field {role}: the refused link's role)."""
    permission: str
    what: str
    step: str | None = None


# The acts on a judge call already made (its page, its "Answered") and an appeal's decision (its form
# is on a call's page): "call a judge", who_can's step for a judge's acts, is no step for someone
# there (QA80 8: a scorekeeper on a call's page was told it)
_JUDGE_LINK = "with a judge's link (the organizer makes them); this link is a {role}'s"
_ON_A_CALL = f"a judge answers the calls, {_JUDGE_LINK}"

# Every act on a recorded match: the actions of MATCH_ACTIONS and the pages only some links open.
# Each says what it is in the words of the person refused it (QA76 7: a scorekeeper opening the
# replace form was told a fixed list, "rule, give penalties, back up, ...", not the act tried, and
# nothing to do). A test checks every act has words. An act that is its permission whole (a line, an
# undo, a call) says it in the permission's words (auth.ACTION_WORDS): one table of words serves both
# levels; a judge's acts each have their own.
MATCH_ACTS: dict[str, Act] = {
    **{act: Act(permission, ACTION_WORDS[permission])
       for act, permission in (("line", "record_event"), ("undo", "undo_event"), ("call", "call_judge"),
                               ("file_appeal", "appeal_ruling"))},
    "record": Act("record_event", "open the recorder page"),
    "ruling": Act("judge_match", "record a ruling"),
    "answer": Act("judge_match", "mark a judge call answered", _ON_A_CALL),
    "call_page": Act("judge_match", "open a judge call's page", _ON_A_CALL),
    "penalty": Act("judge_match", "give a penalty"),
    "backup": Act("judge_match", "back the game up"),
    "extend": Act("judge_match", "give extra time"),
    "time": Act("judge_match", "decide the end of time"),
    "decide": Act("judge_match", "decide the end of time again"),
    "decide_page": Act("judge_match", "decide the end of time"),
    "replace": Act("judge_match", "replace an event"),
    "appeals": Act("judge_match", "open the appeals file"),
    "appeal": Act("judge_match", "record an appeal's decision",
                  f"a judge records the head judge's decision, {_JUDGE_LINK}"),
}


def _at(table: tuple[int, int] | None) -> str:
    return f" (round {table[0]}, table {table[1]})" if table else ""


def require(grant: Grant, act: str, scope: MatchScope) -> None:
    """Forbidden unless `grant` may take `act` (a key of MATCH_ACTS) on the match of `scope`; the
    refusal names the act in words, who takes it and what the refused person does instead. A link
    for another tournament (or, on a match of none, a one-tournament link) never reaches here: the
    routes take the grant for the match's tournament (routes.common.grant_of), which refuses it in
    its own words; `allows_match` refuses one all the same."""
    permission, what, step = MATCH_ACTS[act]
    if grant.allows_match(permission, scope.tournament or "*", scope.match, scope.table):
        return
    match = f"match {scope.match}{_at(scope.table)}"
    if grant.role == PLAYER:
        raise Forbidden(f"this link is the players' link of round {grant.round}, table {grant.table}: it "
                        f"cannot {what} in {match}; ask a judge at the table")
    if grant.role == RECORDER and grant.match != scope.match:
        raise Forbidden(f"this link records only match {grant.match}; to record {match}, ask the organizer "
                        "for that match's recorder link (made on the round's page)")
    if grant.role == SCOREKEEPER and permission in RECORDING:
        raise Forbidden(f"this scorekeeper link enters results, not a match's events: to {what} in {match}, "
                        "ask the organizer for that match's recorder link (made on the round's page)")
    step = step.format(role=grant.role) if step else who_can(permission)
    raise Forbidden(f"a {grant.role} link cannot {what} in {match}: {step}")


# --- the actions --------------------------------------------------------------------------------


def recorder(m: Match, g: Grant, desk: Any = None) -> Recorder:
    """The recorder core for this link: its own acts are its role's (scorekeeper:NAME, judge:NAME).
    `desk`: its cached table as this link knows it narrows card names (a scorekeeper's link: hidden
    cards hidden but those it recorded itself, as its buttons)."""
    known = None
    if desk is not None and not g.full_view:
        known = lambda: desk.matches.table_known_to(m.id, g.recorded_by)  # noqa: E731
    return Recorder(m, g.match_actor, g.recorded_by, g.full_view, known)


def _line(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    seen = number(f, "seen", low=0, high=m.head_position())  # a page never saw past the log's end
    try:
        out: LineOutcome = recorder(m, g, ctx.desk).record(f.get("line") if isinstance(f.get("line"), str) else "", seen)
    except PermissionError as e:
        raise Forbidden(str(e)) from None
    d = out.to_dict(describer(m.ruleset.describe))
    if out.status == "moved":
        who = sorted({who_stored(e) for e in out.moved})  # as `live` names them
        d["message"] = (f"not stored: {len(out.moved)} event{'s' if len(out.moved) != 1 else ''} recorded since "
                        f"your page showed event {seen}" + (f" (by {', '.join(who)})" if who else "")
                        + (": your line repeats " + ", ".join(f"#{p}" for p in out.repeats) if out.repeats else ""))
    else:
        d["message"] = "recorded " + ", ".join(f"#{r.event.position}" for r in out.recorded)
    return d


UNDO_NEEDS_VOIDS = ("required: the number of the event to undo, one this link recorded (the recorder page's "
                    "\"Undo my #N\" button sends N; GET /api/m/ID lists the events). Nothing stored")


def _undo(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    # no "the link's last event" default: what is last when the request lands may not be what the
    # page showed (a call or another undo stored meanwhile)
    if f.get("voids") in (None, ""):
        raise InputError(UNDO_NEEDS_VOIDS, field="voids")
    voids = number(f, "voids", low=1, high=m.head_position())
    rec, target = recorder(m, g).undo(voids, text(f, "reason", required=False))
    # what the correction changed beyond its event (a time decision now out of date) is said with it
    said = "".join(f"; {f.message}" for f in rec.findings)
    return {"message": f"event {target.position} is void (correction #{rec.event.position}); it stays in the log{said}",
            "position": rec.event.position, "voids": target.position,
            "findings": [x.to_dict() for x in rec.findings]}


def _call(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    """A judge call about event `at` (by default the last game event). With `seen` (the head the
    page showed) a second tap of the same page stores nothing: this link's call by the same caller
    after `seen` already stands (the move buttons' `seen`, the same idea). Every page with a call
    button sends it (the recorder, a table's QR page); the caller counts because both players of a
    table share their QR page's link, and one's call does not swallow the other's. A player's call
    while their own earlier one is still open (no ruling answers it) stores nothing either, whatever
    `seen`: a reloaded page would otherwise queue the same call twice for the judges."""
    head = m.head_position()
    if g.role == PLAYER:
        caller = text(f, "player", limit=64)
        if caller not in m.players:
            raise Forbidden(f"{caller!r} does not play at table {g.table}")
        actor = caller
    else:
        caller = g.role if g.name in ("", g.role) else f"{g.role} {g.name}"
        actor = g.match_actor
    seen = number(f, "seen", required=False, low=0, high=head)
    if g.role == PLAYER:  # the page reloaded (a new `seen`) while this player's call is open: it stands alone
        called = open_call(m.store, m.id, caller)
        if called is not None:
            return _already(called, f"table {g.table}")
    since = max(seen, 1) if seen is not None and seen < head else None
    # one read serves both questions: the calls since `seen`, and (no `at` given) the last game event
    # (`number` gives no 0: an `at` given is never replaced by the default)
    default_at = f.get("at") in (None, "")
    log = m.store.read(m.id, after=1 if default_at else since, upto=head) \
        if default_at or since is not None else []
    if since is not None:
        for e in log:
            if e.position > since and e.kind == "judge.call" and e.recorded_by == g.recorded_by \
                    and e.payload.get("caller") == caller:
                return _already(e, f"table {g.table}" if g.role == PLAYER else "this match")
    at = number(f, "at", required=False, high=head) or last_game_event(m, log)
    reason = text(f, "reason", required=False, limit=500)
    rec = desk_record(m, "judge.call", {"caller": caller, "reason": reason, "at": at}, actor=actor,
                      recorded_by=g.recorded_by)
    return {"message": "a judge is called" + (f" (about event {at})" if at else ""), "position": rec.event.position}


def _already(call: RecordedEvent, where: str) -> dict[str, Any]:
    """A call not stored again: the call that stands, where the judge comes and since when."""
    when = local_time(call.recorded_at)
    return {"message": f"a judge is already called to {where}, called at {when} (#{call.position}); "
                       "nothing more stored", "position": call.position, "repeat": True,
            "where": where, "called_at": when}


def _ruling(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    payload = {"text": text(f, "text", limit=2000), "rule": text(f, "rule", required=False, limit=80),
               "call": number(f, "call", required=False, high=10**9)}
    rec = desk_record(m, "judge.ruling", payload, actor=g.match_actor, recorded_by=g.recorded_by)
    return {"message": f"ruling recorded (#{rec.event.position})", "position": rec.event.position,
            "findings": [x.to_dict() for x in rec.findings]}


def _appeal(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    """The head judge's decision on an appeal of a judge action (a call's page), recorded as
    `tablejudge judge appeal` records it (judge.desk.actions.decide_appeal), the judge its actor: a
    second decision on the same action is refused unless `override` says why (DESK-13)."""
    rec = decide_appeal(m, appealed=number(f, "appealed", high=m.head_position()),
                        decision=text(f, "decision", limit=20), text=text(f, "text", limit=2000),
                        by=text(f, "by", required=False, limit=200), override=text(f, "override", required=False,
                                                                                limit=1000),
                        actor=g.match_actor, recorded_by=g.recorded_by,
                        override_said='say why in "Replaces a decision given already on it, because"')
    p = rec.event.payload
    answered = f"; {call_answered_words(rec.event)}" if p.get("call") else ""
    notes = "".join(f". Note: {n}" for n in rec.notices)  # an appellant not the filer
    return {"message": f"appeal of event {p['appealed']}: {p['decision']}; recorded (#{rec.event.position})"
                       f"{answered}{notes}",
            "position": rec.event.position, "findings": [x.to_dict() for x in rec.findings]}


def _file_appeal(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    """A player's appeal of a judge's ruling at their own table to the head judge (`appeal.filed`,
    the player its actor) with the head judge's call, as `tablejudge judge appeal-filed` files it
    (judge.desk.actions.appeal_to_head_judge: one already filed or decided is refused)."""
    player = text(f, "player", limit=64)  # one of the match's players: file_appeal says so in words
    appealed = number(f, "appealed", high=m.head_position())
    reason = text(f, "reason", limit=1000)
    done = appeal_to_head_judge(m, appealed=appealed, player=player, reason=reason, recorded_by=g.recorded_by)
    return {"message": f"your appeal of event {appealed} is filed (#{done.filed.event.position}): the head judge "
                       "is called to your table", "position": done.filed.event.position, "appealed": appealed}


ANSWERED = "answered at the table"


def _answer(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    """The judges' queue's "Answered" (QA75 3): a judge marks a call answered without a ruling page
    of its own. A call closes the one way it always has, a `judge.ruling` naming it (`call`), the
    judge its actor; its text the judge's note, or "answered at the table". Only a call that still
    stands open: two judges tapping the same call store one answer, the second is told who answered."""
    position = number(f, "call", high=10**9)
    standing = dict((c.position, answer) for c, answer in standing_calls(m.store.read_kinds(m.id, CALL_KINDS)))
    if position not in standing:
        raise InputError(f"event {position} is not a judge call of this match that counts", field="call")
    if standing[position] is not None:
        done = standing[position]
        raise InputError(f"the call #{position} is already answered (judge {judge_of(done.actor)}, "
                         f"{local_time(done.recorded_at)}: {done.payload['text']})", field="call")
    note = text(f, "text", required=False, limit=2000) or ANSWERED
    rec = desk_record(m, "judge.ruling", {"text": note, "rule": "", "call": position}, actor=g.match_actor,
                      recorded_by=g.recorded_by)
    return {"message": f"call #{position} answered ({note}; ruling #{rec.event.position})",
            "position": rec.event.position, "findings": [x.to_dict() for x in rec.findings]}


def _penalty(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    player = text(f, "player", limit=64)
    penalty = text(f, "penalty", limit=40)
    if penalty not in PENALTY_LADDER:
        raise InputError(f"one of {', '.join(PENALTY_LADDER)}", field="penalty")
    infraction = text(f, "infraction", limit=200)
    reason = text(f, "reason", required=False, limit=2000)
    late = number(f, "minutes_late", required=False, low=0, high=10_000)
    guide = guide_for(m.ruleset.name)
    inf = guide.lookup(infraction)
    if inf is None:  # a free infraction category, as the CLI takes it: no suggestion to compare
        rec = desk_record(m, "judge.penalty", {"player": player, "penalty": penalty, "infraction": infraction,
                                               "reason": reason, "minutes_late": late},
                          actor=g.match_actor, recorded_by=g.recorded_by)
        return _penalty_recorded(rec)
    rec, s = give_penalty(m, player=player, infraction=inf, penalty=penalty, actor=g.match_actor, reason=reason,
                          minutes_late=late, recorded_by=g.recorded_by)
    return dict(_penalty_recorded(rec), suggestion=s.to_dict())


def _penalty_recorded(rec) -> dict[str, Any]:
    """A recorded penalty's answer: its deviation from the guide (DESK-11) and the desk's notices (DESK-5:
    minutes late not checked) in the message, which a page without htmx carries back as its flash too."""
    p, dev = rec.event.payload, rec.event.payload.get("deviation")
    said = [f"{p['penalty']} to {p['player']} recorded (#{rec.event.position})"]
    said += [f"deviation from the guide (DESK-11): {dev}"] if dev else []
    said += [f"notice: {n}" for n in rec.notices]
    return {"message": " — ".join(said), "position": rec.event.position, "deviation": dev, "notices": rec.notices}


def _backup(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    to = number(f, "to", high=10**9)
    reason = text(f, "reason", limit=1000)
    rule = text(f, "rule", required=False, limit=80)
    rec = desk_record(m, "backup", {"to": to, "reason": f"{reason} [{rule}]" if rule else reason},
                      actor=g.match_actor, recorded_by=g.recorded_by)
    return {"message": f"backed up to event {to} (#{rec.event.position}); the events after it stay, struck through",
            "position": rec.event.position}


def _extend(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    """Extra minutes go to the round clock (the table's end on the clock page, the slips and the
    player's page); a match of no tournament keeps its own clock (time.extension)."""
    minutes = number(f, "minutes", high=120)
    reason = text(f, "reason", required=False, limit=200) or "judge call"
    if scope.tournament is not None and scope.table is not None:
        round_no, table = scope.table
        ctx.desk.write(scope.tournament, g, lambda t: rounds.extend(t, table, minutes, reason, round_no=round_no))
        return {"message": f"table {table}: +{minutes} min on the round clock"}
    rec = m.record("time.extension", {"minutes": minutes, "reason": reason}, actor=g.match_actor,
                   recorded_by=g.recorded_by)
    return {"message": f"+{minutes} min on this match's clock (#{rec.event.position})", "position": rec.event.position}


def _time(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    """End of time on a table nobody recorded: the judge types what the table shows; the ruleset's
    procedure decides (judge.desk.timelimit, as `tablejudge timelimit --facts`)."""
    from judge.desk.timelimit import run  # the desk's time module loads only when a judge uses it
    facts = text(f, "facts", limit=1000)
    policy = policy_of(f)
    clock = text(f, "clock", required=False, limit=5)
    return time_answer(m, run(m, policy, judge=g.match_actor, recorded_by=g.recorded_by, facts=facts, clock=clock))


def _decide(ctx, m: Match, g: Grant, scope, f) -> dict[str, Any]:
    """"Decide again" (judge.web.timedecide's preview, then this): the end-of-time decision from the
    log, recorded by `timelimit`'s own `run` as `tablejudge timelimit` records it, the judge its actor.
    `seen`: the log's head the preview showed; a log that moved since is not decided on unseen: the
    judge looks again. A second tap finds its decision already recorded and stores nothing."""
    from judge.desk.timelimit import run
    policy = policy_of(f)
    seen = number(f, "seen", low=0, high=m.head_position())
    if seen != m.head_position():
        r = run(m, policy, dry_run=True)  # the same decision recorded meanwhile (a second tap): said, not refused
        if r.already_recorded is None:
            moved = m.head_position() - seen
            raise InputError(f"the log moved since your preview showed event {seen} ({moved} event"
                             f"{'s' if moved != 1 else ''} recorded since): nothing recorded; open the preview "
                             "again and decide on what it shows", field="seen")
        return time_answer(m, r)
    return time_answer(m, run(m, policy, judge=g.match_actor, recorded_by=g.recorded_by))


def time_answer(m: Match, r: Any) -> dict[str, Any]:
    """What a web write of an end-of-time decision answers (a `TimeLimitResult`): the verdict, where
    it is recorded, the steps and the rule they rest on."""
    d = r.decision
    verdict = f"{d.result}" + (f": {d.winner} wins" if d.winner else "")
    where = (f"recorded (#{r.recorded.position})" if r.recorded else
             f"already recorded (#{r.already_recorded.position}); nothing added" if r.already_recorded else
             "nothing recorded: the match was decided before time was called" if r.moot else "nothing recorded")
    if r.recorded is not None and r.supersedes is not None:
        where += f"; it supersedes the decision at event {r.supersedes.position}, {r.supersedes.mark()}"
    en = d.en
    if not en:  # a rulebook rule: its English rendering from the catalogue
        try:
            en = m.ruleset.rule(d.rule).en
        except (KeyError, AttributeError):
            en = ""
    return {"message": f"end of time — {verdict} ({d.branch}); {where}", "steps": d.steps, "rule": d.rule,
            "quote": d.quote, "en": en, "position": (r.recorded or r.already_recorded).position
            if (r.recorded or r.already_recorded) else None, "newly_recorded": r.recorded is not None}


Run = Callable[[Context, Match, Grant, MatchScope, dict[str, Any]], dict[str, Any]]

# the writes; what each takes (its permission) and its words: MATCH_ACTS
MATCH_ACTIONS: dict[str, Run] = {
    "line": _line, "undo": _undo, "call": _call, "ruling": _ruling, "answer": _answer, "penalty": _penalty,
    "backup": _backup, "extend": _extend, "time": _time, "decide": _decide, "appeal": _appeal,
    "file_appeal": _file_appeal,
    # "event N should have read X": the replace form's (judge.web.replace), as `log --instead`
    "replace": lambda ctx, m, g, scope, f: replace_event(m, g, f),
}


def run_match_action(ctx: Context, grant: Grant, name: str, scope: MatchScope, fields: dict[str, Any]) -> dict[str, Any]:
    """Check the grant against the match's scope, then write. Forbidden (403) or InputError (422)
    store nothing. Followers are told at once."""
    run = MATCH_ACTIONS.get(name)
    if run is None:
        raise InputError(f"no action {name!r}", field="action")
    require(grant, name, scope)
    m = ctx.desk.matches.match(scope.match)
    try:
        return run(ctx, m, grant, scope, fields)
    finally:
        ctx.desk.catch_up()


# --- a player's call from the table's page ------------------------------------------------------


def table_match(ctx: Context, grant: Grant, tid: str) -> MatchScope:
    """The recorded match of a player's table, created (as `tablejudge tournament matches` would)
    if the round has none for it yet: a call always lands in a match's log."""
    st = ctx.desk.tournament(tid).state()
    rnd = st.round(grant.round)
    mid = rnd.matches.get(grant.table) if rnd else None
    if mid is None:
        try:
            ruleset = get_ruleset(st.game).name
        except UnknownRuleset:
            ruleset = "table"
        made = ctx.desk.write(tid, grant, lambda t: rounds.create_matches(t, ruleset=ruleset, round_no=grant.round,
                                                                         tables=[grant.table]))
        mid = made[grant.table]
    return MatchScope(mid, tid, (grant.round, grant.table))
