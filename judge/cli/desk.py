"""The judge's desk on the command line: `tablejudge judge call|ruling|penalty|extend|deckcheck|
backup|start|time|clock|slip|confirm`, `tablejudge audit`, and the exports of findings, penalties
and judge actions (`findings`, `penalties`, `actions`, `readmodel`)."""
from __future__ import annotations

import importlib.util
import os

import click

from engine.desk import PENALTY_LADDER, PENALTY_POLICIES, describer
from engine.events import TABLE_ACTOR
from engine.match import InputError, Match, TimeCallRefused
from engine.schema import shown
from engine.store import anchor_token

from judge import desk as lib
from judge.desk.clock import check_wall_clock, wall_clock_now
from judge.report.text import render_findings, render_judged
from judge.cli.common import EXIT_FINDINGS, Env, FindingsExit, emit_json, emit_rows, json_option
from judge.cli.common import output_options, pass_env, ruleset_name, table_text

DEFAULT_READMODEL = os.path.join("exports", "readmodel.sqlite")


def register(cli: click.Group) -> None:
    cli.add_command(judge_group)
    for cmd in (audit_cmd, findings_cmd, penalties_cmd, actions_cmd, readmodel_cmd):
        cli.add_command(cmd)


def judge_option(f):
    return click.option("--judge", "-j", "judge_name", metavar="NAME",
                        help="The judge (recorded as actor judge:NAME). Default: the global `tablejudge --by NAME` "
                             "(who is typing, before the command) / $TABLEJUDGE_USER / OS user.")(f)


def _echo_recorded(m: Match, rec, as_json: bool, extra: dict | None = None) -> None:
    describe = describer(m.ruleset.describe)
    if as_json:
        out = {"event": rec.event.to_dict(), "description": describe(rec.event),
               "findings": [f.to_dict() for f in rec.findings]}
        # what the terminal says as "notice:" on stderr (judge.desk.actions: a penalty's DESK-5, an
        # appeal's filer other than --by): a penalty's always carries the key, any other where it has one
        if rec.notices or rec.event.kind == "judge.penalty":
            out["notices"] = rec.notices
        out.update(extra or {})
        emit_json(out)
        return
    click.echo(f"{rec.event.position}  {describe(rec.event)}")
    if rec.findings:
        from judge.io.cardnames import CardNames
        click.echo(render_findings(rec.findings, names=CardNames.for_state(m.state(), m.ruleset)))
    for notice in rec.notices:
        click.echo(f"notice: {notice}", err=True)


def _record(env: Env, match: str, kind: str, payload: dict, actor: str, as_json: bool,
            extra=None) -> tuple[Match, object]:
    m = env.match(match)
    rec = lib.record(m, kind, payload, actor=actor, recorded_by=env.recorded_by)
    _echo_recorded(m, rec, as_json, extra(m, rec) if extra else None)
    return m, rec


def _actor(env: Env, judge_name: str | None) -> str:
    return lib.judge_actor(judge_name or env.recorded_by)


@click.group("judge")
def judge_group() -> None:
    """Record judge actions: calls, rulings, penalties, extensions, deck checks, backups, the
    match clock and the result slip. Each is an event in the match's log.

    \b
    Example:
      tablejudge judge call MATCH --caller Ann --reason "blocker declared late?"
      tablejudge judge ruling MATCH --judge Maria --text "the block stands" --rule TABLE-1
    """


@judge_group.command("call")
@click.argument("match")
@click.option("--caller", required=True, help="Who called the judge (a player, or who else).")
@click.option("--reason", default="", help="What the call is about, in the caller's words.")
@click.option("--at", type=int, metavar="N",
              help="The event the call is about (default: the last game event, not a judge action, "
                   "a correction or a note).")
@json_option
@pass_env
def call_cmd(env: Env, match, caller, reason, at, as_json) -> None:
    """A judge is called to the table.

    \b
    Example:
      tablejudge judge call MATCH --caller Ann --reason "was that card drawn?" --at 41
    """
    m = env.match(match)
    actor = caller if caller in m.players else TABLE_ACTOR
    _record(env, m.id, "judge.call", {"caller": caller, "reason": reason or None,
                                      "at": at if at is not None else lib.last_game_event(m)}, actor, as_json)


@judge_group.command("ruling")
@click.argument("match")
@click.option("--text", required=True, help="The ruling, in the judge's words.")
@click.option("--rule", default="", help="The rule cited: a rule id of the ruleset (see its docs page, e.g. OPTCG-BATTLE-2), or a section.")
@click.option("--call", "call_pos", type=int, metavar="N", help="The judge.call event it answers.")
@judge_option
@json_option
@pass_env
def ruling_cmd(env: Env, match, text, rule, call_pos, judge_name, as_json) -> None:
    """A judge's ruling, with the rule it cites.

    \b
    Example:
      tablejudge judge ruling MATCH --judge Maria --text "the draw stands" --rule TABLE-1 --call 42
    """
    _record(env, match, "judge.ruling", {"text": text, "rule": rule or None, "call": call_pos},
            _actor(env, judge_name), as_json)


@judge_group.command("appeal")
@click.argument("match")
@click.argument("appealed", type=int, metavar="EVENT")
@click.option("--decision", required=True, type=click.Choice(["upheld", "overturned", "changed"]),
              help="The head judge's decision on the action appealed.")
@click.option("--text", required=True, help="Why, in the head judge's words.")
@click.option("--appellant", "--by", "by", default="", metavar="PLAYER",
              help="Who appealed (a player; one who filed the appeal from the table's web page is named by "
                   "its appeal.filed event already: another player here is recorded as given, with a notice). "
                   "--by after the command is its older spelling, kept: not the global `tablejudge --by NAME` "
                   "(who is typing), which --judge defaults to.")
@click.option("--override", default="", metavar="REASON",
              help="Why this decision replaces one already given on the same EVENT (without it, a second "
                   "decision is refused: an appeal has one standing decision, DESK-13). Recorded.")
@judge_option
@json_option
@pass_env
def appeal_cmd(env: Env, match, appealed, decision, text, by, override, judge_name, as_json) -> None:
    """The head judge's decision on an appeal of judge action EVENT (a ruling, a penalty, a backup,
    a time decision, a deck check, a correction, an extension, recorded by a judge: a scorekeeper's
    or recorder's void is refused; the web's Appeal form lists the same). It goes on that incident's page of the appeals file (`tablejudge appeals`);
    `tablejudge penalties` shows a penalty's standing decision. An appeal is decided once: a second
    decision on EVENT needs --override REASON (or void the first with a correction). An appeal of a
    time decision no longer current is recorded too, and said with its mark ("out of date,
    superseded by #75", as the web's Appeal list marks it; --json: appealed_mark). A player's
    appeal filed from the table's web page or with `judge appeal-filed` (appeal.filed) waits as
    "pending" until this decides it; the decision answers the judge call filed with it (the judges'
    queue no longer lists it).

    \b
    Example:
      tablejudge judge appeal MATCH 57 --judge "Head Judge Rossi" --decision upheld --appellant Bob --text "the block was legal"
      tablejudge judge appeal MATCH 57 --decision changed --text "Game Loss" --override "new evidence: video"
    """
    m = env.match(match)
    events = m.events()  # one read of the log for the check and the mark (the appeal changes neither)
    mark = lib.not_current_mark(m, appealed, events)  # an old time decision: recorded, and said (QA81 M1)
    rec = lib.decide_appeal(m, appealed=appealed, decision=decision, text=text, by=by, override=override,
                            actor=_actor(env, judge_name), recorded_by=env.recorded_by, events=events)
    _echo_recorded(m, rec, as_json, {"appealed_mark": mark})
    if mark and not as_json:
        click.echo(f"note: event {appealed} is a time decision no longer current ({mark}): it does not decide "
                   "the match; the appeal is recorded as the fact it is")
    if rec.event.payload.get("call") and not as_json:
        click.echo(lib.call_answered_words(rec.event))


@judge_group.command("appeal-filed")
@click.argument("match")
@click.argument("appealed", type=int, metavar="EVENT")
@click.option("--player", required=True, help="Who appeals: a player of the match (recorded as the event's actor).")
@click.option("--reason", required=True, help="Why, in the player's words (the head judge reads it).")
@click.option("--judge", "-j", "judge_name", metavar="NAME",
              help="The floor judge writing it down (recorded_by judge:NAME; the actor is the player). "
                   "Default: the global `tablejudge --by NAME` (who is typing, before the command) / "
                   "$TABLEJUDGE_USER / OS user.")
@json_option
@pass_env
def appeal_filed_cmd(env: Env, match, appealed, player, reason, judge_name, as_json) -> None:
    """A player's appeal of judge action EVENT to the head judge, written down by a floor judge at a
    terminal: `appeal.filed`, the player its actor and the judge who writes it its recorded_by
    (judge:NAME; DESK-17 flags an appeal whose actor is not the player), with a judge call by the
    player about EVENT so the judges' queue shows it (unless the player's call about EVENT is open already), as
    the table's web page files it. An appeal already filed and waiting, one already decided, and
    one of an action voided or not a judge's are refused, nothing stored. The head judge decides it
    with `tablejudge judge appeal MATCH EVENT`; until then it is "pending" (appeals file, the
    table's page).

    \b
    Example:
      tablejudge judge appeal-filed MATCH 57 --judge Maria --player Bob --reason "the blocker was active"
    """
    m = env.match(match)
    done = lib.appeal_to_head_judge(m, appealed=appealed, player=player, reason=reason,
                                    recorded_by=_actor(env, judge_name))
    call = done.call
    _echo_recorded(m, done.filed, as_json, {"call": None if call is None else call.event.to_dict()})
    if not as_json:
        if call is not None:
            click.echo(f"{call.event.position}  {describer(m.ruleset.describe)(call.event)}")
        else:
            click.echo(f"note: {player}'s call about event {appealed} is open already: the judges' queue shows that one")


@judge_group.command("penalty")
@click.argument("match")
@click.option("--player", required=True, help="The penalised player.")
@click.option("--infraction", required=True,
              help="An infraction of the game's penalty guide, by id or name (`tablejudge judge infractions`): the "
                   "desk suggests the penalty. Or a free infraction category (e.g. 'Game Play Error').")
@click.option("--penalty", type=click.Choice(PENALTY_LADDER, case_sensitive=False),
              help="The penalty given. Without it, the guide's suggestion is shown and nothing is recorded.")
@click.option("--policy", default=None, type=click.Choice(list(PENALTY_POLICIES)),
              help="The penalty policy (default: the guide's for one of its infractions, else the game's: "
                   "bandai for optcg, none for the others).")
@click.option("--reason", default="", help="What happened.")
@click.option("--minutes-late", type=int,
              help="For tardiness: how many minutes late. Checked against the policy's ladder (DESK-5: "
                   "bandai); policy none has no ladder, so it is recorded, not checked (a notice says so).")
@judge_option
@json_option
@pass_env
def penalty_cmd(env: Env, match, player, infraction, penalty, policy, reason, minutes_late,
                judge_name, as_json) -> None:
    """A penalty: Caution, Warning, Game Loss, Match Loss, Disqualification or Suspension.

    With an infraction of the game's penalty guide (optcg: the ONE PIECE CARD GAME Tournament Rules
    Manual, chapter 7; other games: an IPG-style guide), the desk suggests the penalty from the
    player's earlier penalties in the event (upgraded for a repeat as the guide says) and a penalty
    that departs from it is recorded with the deviation (finding DESK-11). Without --penalty it only
    shows the suggestion.

    \b
    Examples:
      tablejudge judge penalty MATCH --player Bob --infraction "Looking at Unnecessary Cards"
      tablejudge judge penalty MATCH --judge Maria --player Bob --infraction OPTCG-PG-LOOKING-AT-UNNECESSARY-CARDS \\
          --penalty Warning --reason "saw the top card of his deck"
      tablejudge judge penalty MATCH --player Bob --penalty "Game Loss" --infraction Tardiness --minutes-late 6
    """
    from engine.penalty_guide import guide_for
    from judge.desk import penalties as guides
    m = env.match(match)
    guide = guide_for(m.ruleset.name)
    inf = guide.lookup(infraction)
    penalty = next((p for p in PENALTY_LADDER if p.lower() == penalty.lower()), None) if penalty else None
    if inf is None:
        if penalty is None:
            guide.find(infraction)  # refused in words, naming the closest infractions
        _record(env, m.id, "judge.penalty",
                {"player": player, "penalty": penalty, "infraction": infraction,
                 "policy": policy, "reason": reason or None,  # None: the game's (default_policy)
                 "minutes_late": minutes_late}, _actor(env, judge_name), as_json)
        return
    if policy is not None and policy != guide.policy:
        raise InputError(f"{inf.id} is in the {guide.game} guide, whose penalties are policy {guide.policy!r}, "
                         f"not {policy!r}", field="policy")
    if penalty is None:
        s = guides.suggest_for(m, player, inf, minutes_late=minutes_late)
        if as_json:
            emit_json(dict(s.to_dict(), match=m.id, recorded=False))
        else:
            click.echo(guides.render_suggestion(s))
            click.echo(f"nothing recorded: add --penalty {s.penalty!r} (or another) to give it")
        return
    rec, s = guides.give_penalty(m, player=player, infraction=inf, penalty=penalty, actor=_actor(env, judge_name),
                                 reason=reason, minutes_late=minutes_late, recorded_by=env.recorded_by)
    _echo_recorded(m, rec, as_json, {"suggestion": s.to_dict(), "above_guide": s.above(penalty)})
    if not as_json:
        click.echo(guides.render_suggestion(s, penalty))


@judge_group.command("infractions")
@click.argument("ruleset_arg", metavar="[RULESET]", required=False, callback=ruleset_name)
@click.option("--ruleset", "-r", "ruleset_opt", default=None, callback=ruleset_name,
              help="The game whose penalty guide to list, as RULESET says it (default: optcg; games without "
                   "a guide of their own use the generic one).")
@output_options
@pass_env
def infractions_cmd(env: Env, ruleset_arg, ruleset_opt, as_json, as_csv, as_nl) -> None:
    """The penalty guide of a game (RULESET, or -r/--ruleset as `match new -r` takes it; default
    optcg): each infraction's id, name, category, penalty and upgrades.

    \b
    Examples:
      tablejudge judge infractions optcg
      tablejudge judge infractions -r ken --json
      tablejudge judge infractions --ruleset op2009
    """
    if ruleset_arg and ruleset_opt and ruleset_arg != ruleset_opt:
        raise InputError(f"two rulesets: {shown(ruleset_arg)} and --ruleset {shown(ruleset_opt)}; give one",
                         field="ruleset")
    ruleset = ruleset_arg or ruleset_opt or "optcg"
    from engine.rulesets import UnknownRuleset, get_ruleset
    from engine.penalty_guide import guide_for, ordinal
    try:
        get_ruleset(ruleset)
    except UnknownRuleset as e:
        raise InputError(str(e), field="ruleset") from None
    g = guide_for(ruleset)
    rows = [{"id": i.id, "name": i.name, "category": i.category, "section": i.section, "default": i.default,
             "range": "-".join(i.range) if i.range else "",
             "upgrades": ", ".join(f"{p}{'' if u == p else f' (up to {u})'} from the {ordinal(a)}"
                                  for a, p, u in i.upgrades),
             "upgrade_mode": i.upgrade_mode, "confidence": i.confidence} for i in g.infractions]
    emit_rows(rows, as_json=as_json, as_csv=as_csv, as_nl=as_nl,
              text=lambda r: f"{g.document} ({g.document_date}); repeats counted per {g.count_scope}\n"
              + table_text(r, ["id", "name", "default", "upgrades"]))


@judge_group.command("extend")
@click.argument("match")
@click.option("--minutes", required=True, type=int, help="Minutes added to this match's clock.")
@click.option("--reason", required=True, help="Why (a long ruling, a deck check...).")
@judge_option
@json_option
@pass_env
def extend_cmd(env: Env, match, minutes, reason, judge_name, as_json) -> None:
    """A time extension for this match.

    \b
    Example:
      tablejudge judge extend MATCH --judge Maria --minutes 4 --reason "deck check"
    """
    _record(env, match, "time.extension", {"minutes": minutes, "reason": reason},
            _actor(env, judge_name), as_json)


@judge_group.command("deckcheck")
@click.argument("match")
@click.option("--player", help="Whose deck (default: both).")
@click.option("--result", default="ok", show_default=True, help="What the judge found.")
@judge_option
@json_option
@pass_env
def deckcheck_cmd(env: Env, match, player, result, judge_name, as_json) -> None:
    """A deck check.

    \b
    Example:
      tablejudge judge deckcheck MATCH --judge Maria --player Bob --result "49 cards, 1 missing"
    """
    _record(env, match, "judge.deck_check", {"player": player, "result": result},
            _actor(env, judge_name), as_json)


@judge_group.command("backup")
@click.argument("match")
@click.option("--to", "to", required=True, type=int, metavar="N",
              help="Rewind to just after event N: the events after it are backed out (kept, struck through).")
@click.option("--reason", required=True, help="Why.")
@judge_option
@json_option
@pass_env
def backup_cmd(env: Env, match, to, reason, judge_name, as_json) -> None:
    """A backup: the game goes back to just after event N. Nothing is deleted: the events after N
    stay in the log, marked as backed out, and replay plays as if they had not happened.

    \b
    Example:
      tablejudge judge backup MATCH --judge Maria --to 40 --reason "extra card drawn"
    """
    _record(env, match, "backup", {"to": to, "reason": reason}, _actor(env, judge_name), as_json)


@judge_group.command("start")
@click.argument("match")
@click.option("--minutes", required=True, type=int, help="The round's length in minutes.")
@click.option("--started-at", metavar="ISO", help="When the round began (ISO 8601; default: --clock, else now).")
@click.option("--clock", "wall", metavar="HH:MM",
              help="The wall clock the round began at, as announced, local time: the clock counts from it "
                   "(unless --started-at says otherwise), not from when the command was typed.")
@judge_option
@json_option
@pass_env
def start_cmd(env: Env, match, minutes, started_at, wall, judge_name, as_json) -> None:
    """Start the match clock (round start).

    \b
    Example:
      tablejudge judge start MATCH --minutes 35 --clock 14:00
    """
    if wall and not started_at:  # a start typed in late counts from the announced clock
        started_at = lib.started_at_clock(wall)
    _record(env, match, "round.start", {"minutes": minutes, "started_at": started_at, "clock": wall},
            _actor(env, judge_name), as_json)


@judge_group.command("time")
@click.argument("match")
@click.option("--clock", "wall", metavar="HH:MM", help="The wall clock when time was called, local time (default: now, local time).")
@click.option("--note", help="Anything to note.")
@click.option("--extra-minutes-over", "extra_over", is_flag=True,
              help="Not the call: the extra minutes a policy gives after it ran out (optcg regional). "
                   "Once, after time was called.")
@judge_option
@json_option
@pass_env
def time_cmd(env: Env, match, wall, note, extra_over, judge_name, as_json) -> None:
    """Call time: records time.called, once per match. The end-of-time procedure itself is
    `tablejudge timelimit MATCH`, which reads this event and records its decision (time.decision).
    A ruleset without one (table) says so: the judge decides by the event's rules and records a ruling.

    \b
    Example:
      tablejudge judge time MATCH --clock 14:35
      tablejudge judge time MATCH --clock 14:40 --extra-minutes-over   # optcg regional: 5 minutes later
      tablejudge timelimit MATCH
    """
    wall = check_wall_clock(wall) if wall else wall_clock_now()
    try:
        m, rec = _record(env, match, "time.called", {"clock": wall, "note": note,
                                                     "extra_minutes_over": True if extra_over else None},
                         _actor(env, judge_name), as_json)
    except TimeCallRefused as e:  # the engine says why on every path; here, the commands that do it
        raise TimeCallRefused(e.message + "".join(f"\n  {h}" for h in _time_hints(e, match)), reason=e.reason,
                              extra_minutes=e.extra_minutes, field=e.field) from None
    if not as_json:
        if not m.ruleset.has_end_of_time:  # QA77 5: `timelimit` would only refuse it
            click.echo(f"ruleset {m.ruleset.name} has no end-of-time procedure: the judge decides the match "
                       f"by the event's rules and records it (tablejudge judge ruling {m.id} --text ...)")
        elif importlib.util.find_spec("judge.desk.timelimit") is not None:
            click.echo(f"next: tablejudge timelimit {m.id}   (decides by the ruleset's end-of-time procedure)")
        else:
            click.echo("the end-of-time decision is made by `tablejudge timelimit` (not installed here)")


def _time_hints(refused: TimeCallRefused, match: str) -> list[str]:
    """The commands that fit a refused `judge time` (only those: "call time first" is not helped by
    how to void a call): voiding the call that stands, for a second plain call; recording the end of
    the extra minutes, when the ruleset has a policy that gives them and that is what is wrong
    (a second call that may have meant it, or the mark at a clock before the call's); calling time,
    for a mark with no call."""
    over = f"the end of extra minutes: tablejudge judge time {match} --clock HH:MM --extra-minutes-over"
    hints = {"called": [f"to void a call: tablejudge log {match} correction --actor judge:NAME --voids N "
                        "--reason \"...\""] + ([over] if refused.extra_minutes else []),
             "before": [over],
             "not-called": [f"to call time: tablejudge judge time {match} --clock HH:MM"]}
    return hints.get(refused.reason, [])


@judge_group.command("clock")
@click.argument("match")
@click.option("--now", metavar="ISO", help="Compute the time left at this moment (default: now).")
@json_option
@pass_env
def clock_cmd(env: Env, match, now, as_json) -> None:
    """The match clock: round start + extensions, time left, time called (and, under a policy with
    extra minutes after the call, when they ran out).

    \b
    Example:
      tablejudge judge clock MATCH --json
    """
    m = env.match(match)
    clock = lib.clock_of(m.events(), set(m.state().voided))
    t = lib.parse_time(now) if now else None
    if as_json:
        emit_json(dict(clock.to_dict(now=t), match=m.id))
        return
    d = clock.to_dict(now=t)
    if not clock.running:
        click.echo(f"{m.id}: the clock was never started (tablejudge judge start {m.id} --minutes N)")
    else:
        click.echo(f"{m.id}: started {d['started_at']}, {d['minutes']} min"
                   + (f" + {d['extra_minutes']} min extensions" if d["extra_minutes"] else "")
                   + f", ends {d['ends_at']}; time left {d['time_left']}")
    for x in d["extensions"]:
        click.echo(f"  +{x['minutes']} min at event {x['position']} ({x['reason']})")
    if d["called"]:  # said whether or not the clock was started: a call stands on its own
        click.echo(f"  time called at {d['called']['clock']} (event {d['called']['position']})")
    if d["extra_minutes_over"]:
        over = d["extra_minutes_over"]
        click.echo(f"  the extra minutes ran out at {over['clock']} (event {over['position']})")


def _slip_extra(m: Match, rec) -> dict:
    r = lib.review(m)
    return {"slip": r.slip(), "desk_findings": [f.to_dict() for f in r.desk],
            "anchor": anchor_token(m.id, rec.event.position, rec.event.hash)}


def _echo_slip(m: Match) -> None:
    r = lib.review(m)
    s = r.slip()
    if s:
        click.echo(f"slip (event {s['position']}): confirmed by {', '.join(s['confirmed']) or 'nobody yet'}"
                   + (f"; disputed by {', '.join(s['disputed'])}" if s["disputed"] else ""))
        event = m.store.event_at(m.id, s["position"])
        if event is not None:
            # the head this slip confirms leaves the log here (on the paper slip): a later deletion
            # of events up to it cannot escape `verify --anchor`
            click.echo(f"anchor: {anchor_token(m.id, event.position, event.hash)}")
    slip_findings = [f for f in r.desk if f.rule in ("DESK-1", "DESK-2", "DESK-3", "DESK-6", "DESK-7")]
    if slip_findings:
        click.echo(render_findings(slip_findings))


@judge_group.command("slip")
@click.argument("match")
@click.option("--result", required=True, type=click.Choice(["win", "draw", "double-loss"]))
@click.option("--winner", help="The winner (with --result win).")
@click.option("--games", help="Game score, e.g. 2-1.")
@judge_option
@json_option
@pass_env
def slip_cmd(env: Env, match, result, winner, games, judge_name, as_json) -> None:
    """The result slip: the match result as the players agree it. Each player then confirms it
    (`judge confirm`); a confirmed slip that disagrees with the log's own outcome is finding DESK-1.

    \b
    Example:
      tablejudge judge slip MATCH --result win --winner Ann
    """
    actor = _actor(env, judge_name) if judge_name else TABLE_ACTOR
    m, _ = _record(env, match, "result.slip", {"result": result, "winner": winner, "games": games},
                   actor, as_json, extra=_slip_extra)
    if not as_json:
        _echo_slip(m)


@judge_group.command("confirm")
@click.argument("match")
@click.option("--player", required=True, help="The player confirming.")
@click.option("--slip", "slip_pos", type=int, metavar="N", help="The slip's event (default: the latest).")
@click.option("--disagree", is_flag=True, help="The player disputes the slip instead.")
@json_option
@pass_env
def confirm_cmd(env: Env, match, player, slip_pos, disagree, as_json) -> None:
    """A player confirms (or disputes) the result slip: one event per player.

    \b
    Example:
      tablejudge judge confirm MATCH --player Ann
      tablejudge judge confirm MATCH --player Bob --disagree
    """
    m, _ = _record(env, match, "result.confirm",
                   {"player": player, "slip": slip_pos, "agree": False if disagree else None},
                   player, as_json, extra=_slip_extra)
    if not as_json:
        _echo_slip(m)


# --- audit and exports ------------------------------------------------------------------------


@click.command("audit")
@click.argument("match")
@click.option("--at", "at", required=True, type=int, metavar="N", help="The moment: right after event N.")
@click.option("--around", default=3, show_default=True, help="How many events to show either side.")
@json_option
@pass_env
def audit_cmd(env: Env, match, at, around, as_json) -> None:
    """A moment of the match for a dispute: the table right after event N, the events around it
    (who recorded them and when), every finding up to there, and the clock.

    \b
    Example:
      tablejudge audit MATCH --at 42
      tablejudge audit MATCH --at 42 --json
    """
    a = lib.audit(env.match(match, read=True), at, around)
    if as_json:
        emit_json(a)
    else:
        click.echo(lib.render_audit(a, lang=env.lang))


@click.command("findings")
@click.argument("match")
@output_options
@pass_env
def findings_cmd(env: Env, match, as_json, as_csv, as_nl) -> None:
    """Every finding of a match: the ruleset's and the judge's desk's (DESK-n), with rule ids,
    the rulebook's words and whether the event still counts. Exit 1 if an error still counts.

    \b
    Examples:
      tablejudge findings MATCH --csv > findings.csv
      tablejudge findings MATCH --json
    """
    r = lib.review(env.match(match, read=True))
    rows = lib.finding_rows(r)
    emit_rows(rows, as_json=as_json, as_csv=as_csv, as_nl=as_nl,
              text=lambda _: render_judged(r.active_findings(), r.void_findings(),
                                           names=env.names(r.match, r.state), lang=env.lang))
    if any(f.severity == "error" for f in r.active_findings()):
        raise FindingsExit(EXIT_FINDINGS)


def _matches(env: Env, refs: tuple[str, ...]) -> list[Match]:
    if refs:
        return [env.match(x) for x in refs]
    store = env.store()
    return [Match(store, i) for i in store.match_ids()]


@click.command("penalties")
@click.argument("matches", nargs=-1)
@output_options
@pass_env
def penalties_cmd(env: Env, matches, as_json, as_csv, as_nl) -> None:
    """Penalties given, in one match or (no MATCH) every match of the log, each with the standing
    decision on its appeal (`appeal`: the last that still counts), if any.

    \b
    Examples:
      tablejudge penalties --json
      tablejudge penalties MATCH --csv
    """
    rows = [row for m in _matches(env, matches) for row in lib.penalty_rows(m)]
    emit_rows(rows, as_json=as_json, as_csv=as_csv, as_nl=as_nl,
              text=lambda r: table_text(r, ["match", "position", "player", "penalty", "infraction",
                                            "policy", "judge", "reason", "appeal"]))


@click.command("actions")
@click.argument("matches", nargs=-1)
@output_options
@pass_env
def actions_cmd(env: Env, matches, as_json, as_csv, as_nl) -> None:
    """Judge actions (calls, rulings, penalties, extensions, deck checks, backups, corrections,
    the clock, result slips), in one match or every match of the log.

    \b
    Examples:
      tablejudge actions MATCH
      tablejudge actions --csv > actions.csv
    """
    rows = [row for m in _matches(env, matches) for row in lib.action_rows(m)]
    emit_rows(rows, as_json=as_json, as_csv=as_csv, as_nl=as_nl,
              text=lambda r: table_text(r, ["match", "position", "actor", "description", "backed_out"]))


@click.command("readmodel")
@click.option("--out", "-o", default=DEFAULT_READMODEL, show_default=True,
              type=click.Path(dir_okay=False), help="The read-model SQLite file (created or brought up to date).")
@click.option("--rebuild", is_flag=True, help="Start the file afresh instead of pulling only new events.")
@json_option
@pass_env
def readmodel_cmd(env: Env, out, rebuild, as_json) -> None:
    """Build or update a read-model SQLite file of the whole log (tables events, findings,
    penalties, matches) by pulling the store's notification log. Open it with Datasette or sqlite3.

    \b
    Examples:
      tablejudge readmodel                      # exports/readmodel.sqlite
      datasette exports/readmodel.sqlite
    """
    from judge.io.readmodel import build
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    summary = build(env.store(), out, rebuild=rebuild)
    if as_json:
        emit_json(summary)
    else:
        click.echo(f"{out}: {summary['new_events']} new events pulled (notification {summary['last_notification']}), "
                   f"{summary['matches_refreshed']} match(es) refreshed")


__all__ = ["register", "InputError"]
