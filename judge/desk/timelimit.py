"""The time-limit module: decide a match when its round's time is called, by its ruleset's own
end-of-time procedure, and record the decision.

Generic over rulesets: it finds the `time.called` event (the last one that still counts), asks
`ruleset.end_of_time(state, events, policy=...)` for a `Decision` (engine/rulesets/base.py) and, unless
told not to, appends it as a core `time.decision` event (engine/events.py) carrying the branch taken
and the step-by-step explanation quoting the rule. A ruleset plugs in by implementing `end_of_time`;
nothing here names a game.
"""
from __future__ import annotations

import shlex
import dataclasses
from dataclasses import dataclass, field
from collections.abc import Callable, Mapping
from typing import Any

from engine.decisions import StaleDecision, latest_decision, stale_decisions, standing_decision
from engine.desk import AppealedAway, decision_appealed, find_time_called
from engine.events import CORE_KINDS, RecordedEvent
from engine.match import InputError, Match
from engine.names import any_named, match_names, shown, shown_players
from engine.rulesets.base import Decision, Ruleset
from engine.state import TableState
from judge.desk.actions import judge_actor
from judge.desk.clock import check_wall_clock, wall_clock_now
from engine.timefacts import (FactsError, FactsNeeded, blank, facts_text, from_log, log_words, parse_facts,
                              require, timelimit_command, usage, value_text)


class TableFactsNeeded(InputError):
    """The log alone does not decide the match: the procedure reached a count nobody recorded
    (engine.timefacts.FactsNeeded), or the time call was decided from facts read off the table and
    the log has no play since (`_refuse_continue_after_facts`): to be read off the table and given
    as facts (field `facts[.KEY]`). Its own class, so that only this refusal is said after the
    decision that stands and offers the facts form (`needs_facts`). `facts`: the facts line to fill
    in (each `?` a value to read), which the web's form starts from."""

    def __init__(self, message: str, *, field: str, facts: str = "") -> None:
        super().__init__(message, field=field)
        self.facts = facts


class NoTimeCalled(InputError):
    """The match holds no (still valid) `time.called` event. `message` is the terminal's words;
    `on_page` a page's (judge.web.routes.common.page_error): a judge on a phone calls time on the
    match's recorder page, and reads no event kind or JSON payload (QA80 8)."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id} has no time.called event: record one first "
                         f"(e.g. kind time.called, payload {{\"clock\": \"14:35\"}})")
        self.on_page = (f"time was never called for match {match_id}: call it on the match's recorder page, "
                        "by typing `time 14:35` (the clock when time was called) in its line box")


@dataclass
class TimeLimitResult:
    match: str
    ruleset: str
    time_called: RecordedEvent
    decision: Decision
    recorded: RecordedEvent | None = None
    already_recorded: RecordedEvent | None = None
    # a different final decision (another result, or the same under another policy) recorded after
    # the same time call: this one is not recorded over it
    contradicts: RecordedEvent | None = None
    # the latest decision after the same time call is out of date (a later correction changed its
    # table, engine/decisions.py): this one is recorded and supersedes it
    supersedes: StaleDecision | None = None
    moot: bool = False  # the match was decided before time was called: nothing to record
    # (last event considered, the table's state hash then): recorded with the decision, so
    # `verify` can replay that table again and compare
    basis: tuple[int, str] | None = None
    facts: str | None = None  # decided from what the judge read off the table (engine/timefacts.py)
    names: dict[str, str] = field(default_factory=dict)  # seat -> name now (engine.names), set by `run`
    # the standing decision's appeal, where the head judge overturned or changed it (engine.desk):
    # it still counts until replaced, and everything that shows it says so
    appealed: AppealedAway | None = None

    @property
    def standing(self) -> RecordedEvent | None:
        """The decision recorded after this time call that still decides the match (not void, not out
        of date), when this one was not just recorded: what a dry run says first."""
        return self.already_recorded or self.contradicts

    def standing_words(self) -> str | None:
        """'Cid wins (event 3, policy store, from facts given by judge W1)': the standing decision,
        as the terminal, the decide page and a refusal say it."""
        e = self.standing
        return None if e is None else decided_words(e, self.names)

    def appealed_words(self) -> str | None:
        """'overturned on appeal (event 78, ...): void it ...': said beside the standing decision."""
        a = self.appealed
        return None if a is None else a.of_time_decision(self.match)

    def to_dict(self) -> dict[str, Any]:
        d = self.decision.to_dict()
        return {
            "match": self.match,
            "ruleset": self.ruleset,
            "time_called": {"position": self.time_called.position, **self.time_called.payload},
            "decision": d["result"],
            "winner": d["winner"],
            "branch": d["branch"],
            "rule": d["rule"],
            "quote": d["quote"],
            "en": d["en"],
            "source": d["source"],
            "policy": d["policy"],
            "steps": d["steps"],
            "recorded_at_position": (self.recorded or self.already_recorded).position
            if (self.recorded or self.already_recorded) else None,
            "newly_recorded": self.recorded is not None,
            "decided_before_time": self.moot,
            "facts": self.facts,
            "contradicts_position": self.contradicts.position if self.contradicts else None,
            # the decision that stands (what the dry run says first), with its policy and facts
            "standing": None if self.standing is None else {
                "position": self.standing.position, "words": self.standing_words(),
                **{k: self.standing.payload.get(k) for k in ("result", "winner", "policy", "facts")},
                "by": self.standing.actor, "appealed": self.appealed_words()},
            "supersedes_stale": self.supersedes.to_dict() if self.supersedes else None,
            # the players as named now, where a later event named a seat the log calls otherwise
            **({"named": self.names} if any_named(self.names) else {}),
        }


def decided_words(e: RecordedEvent, names: Mapping[str, str]) -> str:
    """A recorded `time.decision` in words: its result, where it is, its policy, and the facts it
    was decided from (read off the table by whom), when it was."""
    p = e.payload
    said = f"{shown(p['winner'], names)} wins" if p.get("winner") else str(p.get("result", "?"))
    if p.get("result") == "continue":  # an instruction to play on, not a result (QA81 M4)
        said = f"play continues ({str(p.get('branch') or 'end-of-time procedure').replace('-', ' ')}); no result yet"
    how = [f"event {e.position}"] + ([f"policy {p['policy']}"] if p.get("policy") else [])
    if p.get("facts"):
        how.append(f"from facts given by {e.actor.replace(':', ' ', 1)}: {p['facts']}")
    return f"{said} ({', '.join(how)})"


def log_and_voided(match: Match) -> tuple[list[RecordedEvent], set[int]]:
    """All events, and the positions that no longer count (corrected away or backed out): the whole
    log with its voids apart, where judge.desk.actions.live_events gives only the events that count."""
    state = match.state()
    return match.events(), set(state.voided)


def decide(match: Match, policy: str | None = None) -> TimeLimitResult:
    """The ruleset's decision for this match's time call. Raises NoTimeCalled (exit 2) when time
    was never called, InputError for a policy the ruleset does not know, and InputError (field
    `facts.KEY`, exit 2, nothing stored) when the decision reaches a count the log does not know:
    it says which facts to read off the table and the command that decides from them."""
    events, voided = log_and_voided(match)
    called = find_time_called(events, voided)
    if called is None:
        raise NoTimeCalled(match.id)
    # the table before the call as the log now has it: a correction recorded since counts at its
    # target (as recorded then, a concession replaced or voided later still ended the match)
    before = match.replayer.state_at(called.position - 1, corrected=True, events=events)
    earlier = match.ruleset.outcome(before)
    if earlier is not None and earlier.result != "continue":
        # Time called on a match that was already over changes nothing: say so, record nothing.
        decision = Decision(earlier.result, earlier.winner, "decided-before-time",
                            [f"the match was already decided before time was called (event "
                             f"{called.position}): {earlier.how}"] + list(earlier.explanation),
                            rule="-", policy=policy or "")
        return TimeLimitResult(match.id, match.ruleset.name, called, decision, moot=True)
    # Decide from the game as played: decisions recorded earlier are this procedure's output, not
    # its input (deciding twice must give the same decision, so nothing new is recorded).
    game = [e for e in events if e.kind != "time.decision"]
    state = match.replayer.decision_basis(events)
    try:
        decision = _cited(match.ruleset, match.ruleset.end_of_time(state, game, policy=policy))
    except NotImplementedError as e:
        raise InputError(str(e)) from None
    except FactsNeeded as e:  # never a winner from an unknown count: the judge reads it off the table
        raise TableFactsNeeded(f"{e.message}.\nRead the table and decide from what you read (each ? is a count, in "
                         f"seat order: {' - '.join(state.players)}; check the other values against the table):\n"
                         f"  tablejudge timelimit {match.id} --facts \"{e.facts}\""
                         + (f" --policy {policy}" if policy else ""), field=f"facts.{e.key}", facts=e.facts) from None
    except ValueError as e:  # an unknown policy, or a log the procedure cannot read
        raise InputError(str(e), field="policy") from None
    result = TimeLimitResult(match.id, match.ruleset.name, called, decision,
                             basis=(events[-1].position, state.state_hash()))
    _against_recorded(result, events, voided, lambda: stale_decisions(match.replayer, events))
    return result


def decide_from_facts(match: Match, text: str, policy: str | None = None,
                      clock: str | None = None) -> TimeLimitResult:
    """The decision for a table nobody recorded event by event, from what the judge read off it
    (`text`, e.g. "turn=4 life=2-3 deck=20-18"; engine/timefacts.py). The facts must be the table
    as it is NOW: one the log knows then and reads otherwise is refused (`_against_log`). A match
    with no time call gets one (at `clock`) with the decision. InputError (field `facts`, with the column) on facts
    the ruleset does not read, of the wrong shape or out of range, or missing where the decision
    needs them."""
    rs = match.ruleset
    if not rs.time_facts:
        if not rs.has_end_of_time:
            raise InputError(f"ruleset {rs.name} has no end-of-time procedure", field="facts")
        raise InputError(f"ruleset {rs.name} cannot decide from facts read off the table; record the "
                         f"match's events and run `tablejudge timelimit {match.id}`", field="facts")
    events, voided = log_and_voided(match)
    created = events[0]
    players = list(created.payload["players"])

    def refused(e: FactsError) -> InputError:
        return InputError(e.message + (f" (column {e.col})" if e.col else "") + "\nthe facts " + rs.name
                          + " reads:\n" + usage(rs.time_facts, players), field="facts" + (f".{e.key}" if e.key else ""))

    try:
        facts = parse_facts(text, rs.time_facts, players, complete=False)
    except FactsError as e:
        raise refused(e) from None
    # what was given against the log first: a judge is not sent to count decks for a table whose
    # Life the log already has otherwise (QA76 #5); then what the log has and the judge did not
    # give is taken from it, so only what the log lacks is asked for (QA84 #7)
    table = match.replayer.decision_basis(events)
    known = _against_log(match, events, facts, table)
    logged = from_log(known, facts, rs.time_facts, players)
    had = log_words(known, logged, players)
    try:
        require({**logged, **facts}, rs.time_facts)
        decision = _cited(rs, rs.end_of_time_from_facts(created, {**logged, **facts}, policy=policy))
    except FactsError as e:
        if had:  # what else the judge is asked for, beside what the log gave
            e.message += f" ({had})"
        raise refused(e) from None
    except ValueError as e:  # an unknown policy
        raise InputError(str(e), field="policy") from None
    called = find_time_called(events, voided)
    # the facts recorded are the judge's reading; what the log had is its own events (said in the steps)
    shown_facts = facts_text(facts, players)
    decision.steps.insert(0, f"the judge read the table: {shown_facts}" + (f"; {had}" if had else ""))
    if clock is not None:
        check_wall_clock(clock)
    if called is None:  # the judge calls time and reads the table at once: the call is recorded too
        called = RecordedEvent(match.id, 0, "time.called", 1, "", {"clock": clock or wall_clock_now()}, "", "", "", "")
    elif clock is not None and clock != called.payload.get("clock"):
        raise InputError(f"time was already called at {called.payload.get('clock')} (event {called.position}); "
                         "--clock only says when a call this command records was made", field="clock")
    # a decision resting on the log's counts records the table it read, as one from the log alone
    # does: a later correction of that Life or deck leaves it out of date (engine/decisions.py), and
    # the tournament result taken from it is flagged. From the judge's reading alone it has none.
    basis = (events[-1].position, table.state_hash()) if logged else None
    result = TimeLimitResult(match.id, rs.name, called, decision, basis=basis, facts=shown_facts)
    if called.position:
        _against_recorded(result, events, voided, lambda: stale_decisions(match.replayer, events))
    return result


def _against_log(match: Match, events: list[RecordedEvent], facts: Mapping[str, Any],
                 table: TableState) -> dict[str, Any]:
    """Record, then judge: a fact the log knows (the ruleset's `logged_facts` on the table now,
    `table`: Replayer.decision_basis, decisions left out) that --facts reads otherwise is refused,
    each field with both values, before anything is decided or stored. A log of no game event knows
    nothing (the ruleset says so). Returns what the log knows, for the facts the judge left out
    (engine.timefacts.from_log)."""
    known = match.ruleset.logged_facts(table, [e for e in events if e.kind != "time.decision"], given=facts)
    wrong = []  # (fact, as read, as logged, the fact as the log gives it)
    for key, read in facts.items():
        logged = known.get(key)
        if isinstance(read, Mapping) and isinstance(logged, Mapping):
            differ = [p for p in read if p in logged and logged[p] != read[p]]
            if differ:
                wrong.append((key, ", ".join(f"{p} {read[p]}" for p in differ),
                              ", ".join(f"{p} {logged[p]}" for p in differ), {**read, **logged}))
        elif logged is not None and not isinstance(logged, Mapping) and logged != read:
            wrong.append((key, value_text(read, []), value_text(logged, []), logged))
    if wrong:
        said = "; ".join(f"{k}: --facts reads {r}, the log has {lg}" for k, r, lg, _ in wrong)
        players = list(events[0].payload["players"])
        raise InputError(
            f"the facts contradict the recorded log ({said}). Nothing was recorded. Record, then judge: if the "
            f"log is wrong, record a correction first (tablejudge log {match.id} correction --actor judge:NAME "
            f"--voids N --reason \"...\"), then decide; if the log is right, give what it has "
            f"({facts_text({k: v for k, _, _, v in wrong}, players)}) or leave "
            f"{', '.join(k + '=' for k, *_ in wrong)} out: the log's are taken",
            field="facts" + (f".{wrong[0][0]}" if len(wrong) == 1 else ""))
    return known


def run(match: Match, policy: str | None = None, *, dry_run: bool = False,
        judge: str | None = None, recorded_by: str | None = None, facts: str | None = None,
        clock: str | None = None) -> TimeLimitResult:
    """Decide and, unless `dry_run` or the same decision is already recorded after this time
    call, record it as a `time.decision` event by `judge` (default: the person recording, as every
    judge command: `recorded_by`, else $TABLEJUDGE_USER or the OS user; once it was the tool's own
    name, judge:timelimit, an appealable judge action by nobody: QA81 M4. Logs holding it read as
    they always did). With `facts` (what the judge read off a table nobody recorded), decide from
    them; a missing time call is recorded with the decision, in one transaction."""
    result = decide_from_facts(match, facts, policy, clock) if facts is not None else decide(match, policy)
    result.names = match_names(match)
    if result.moot or result.already_recorded is not None:
        return result
    if facts is None and result.contradicts is None and result.decision.result == "continue":
        # before a dry run returns: what `--dry-run` and the web's preview show is what a run records
        _refuse_continue_after_facts(match, result.time_called, judge)
    if dry_run:
        return result
    if result.contradicts is not None:
        e, d = result.contradicts, result.decision
        void = (f"void event {e.position} first (tablejudge log {match.id} correction --actor judge:NAME --voids {e.position} "
                f"--reason \"...\"), then decide again")
        if _outcome(e.payload) == (d.result, d.winner):  # the same result, asked under another policy
            raise InputError(
                f"this time call is already decided: {result.standing_words()}. Nothing was recorded. "
                f"To decide it under policy {_policy_of(d, policy)} instead, {void}", field="policy")
        said = d.result + (f", {shown(d.winner, result.names)} wins" if d.winner else "")
        raise InputError(
            f"a decision is already recorded for this time call: {result.standing_words()}, and this one "
            f"differs ({said}, policy {_policy_of(d, policy)}). Nothing was recorded. If the recorded one "
            f"is wrong, {void}", field="decision")
    actor = judge_actor(judge or recorded_by)
    d = result.decision
    payload = {"result": d.result, "branch": d.branch, "steps": d.steps, "rule": d.rule,
               "winner": d.winner, "policy": _policy_of(d, policy),
               "based_on": result.basis[0] if result.basis else None,
               "state_hash": result.basis[1] if result.basis else None, "facts": result.facts}
    items = [("time.decision", {k: v for k, v in payload.items() if v is not None}, actor)]
    if not result.time_called.position:  # recorded with the decision: both or neither
        items.insert(0, ("time.called", result.time_called.payload, actor))
    after = match.store.head(match.id)
    batch = match.judge_batch(items, after=after, recorded_by=recorded_by)
    stored = match.store_batch(batch, after=after)
    if len(stored) == 2:
        result.time_called = stored[0].event
    result.recorded = stored[-1].event
    return result


def _refuse_continue_after_facts(match: Match, called: RecordedEvent, judge: str | None) -> None:
    """TableFactsNeeded (field `facts`, nothing stored) where the last time decision after this time
    call (`called`), voided or not, was given from facts read off the table and no game event counts
    after it: the log has not the play those facts described, so a "continue" from the log alone is
    no decision on the table, and recorded it would stand in for the one it replaces while saying
    nothing (QA83 #2). Read the table again and give --facts. A decision of an earlier time call
    (voided since, a new one made), or play recorded event by event after it: the log decides.
    The command it prints carries --judge as typed (`judge`), else NAME: copied without it, the
    decision would be recorded under whoever runs it (QA85 #4)."""
    events, voided = log_and_voided(match)
    last = next((e for e in reversed(events) if e.position > called.position and e.kind == "time.decision"), None)
    told = last.payload.get("facts") if last is not None else None
    if told and not any(e.kind not in CORE_KINDS and e.position not in voided
                        for e in events if e.position > last.position):
        raise TableFactsNeeded(
            f"match {match.id}'s last time decision (event {last.position}) was given from facts read off the "
            f"table ({told}); its log has no play since that decides the match, and from the log alone this "
            f"decision would be \"continue\". Nothing was recorded. Read the table again and decide from the "
            f"facts: {timelimit_command(match.id, told, judge=shlex.quote(judge) if judge else 'NAME')} (fill in each ?)", field="facts",
            facts=blank(told))


def _policy_of(d: Decision, asked: str | None) -> str | None:
    """The policy a decision is (or would be) recorded under."""
    return d.policy or asked or None


def _outcome(payload: Mapping[str, Any]) -> tuple[Any, Any]:
    return payload.get("result"), payload.get("winner")


def _cited(rs: Ruleset, d: Decision) -> Decision:
    """The decision with its rule's words from the ruleset's catalogue where the procedure gave none:
    the rulebook's own (`quote`) and the English rendering (`en`) every rule carries."""
    try:
        rule = rs.rule(d.rule)
    except KeyError:  # a policy's rule ("-", a source outside the rulebook): cited as it is
        return d
    return dataclasses.replace(d, quote=d.quote or rule.quote, en=d.en or rule.en)


def _against_recorded(result: TimeLimitResult, events: list[RecordedEvent], voided: set[int],
                      stale: Callable[[], Mapping[int, StaleDecision]]) -> None:
    """Compare the decision with the latest one recorded after the same time call (so re-running is
    harmless): the same one is `already_recorded`; a different one after a final decision (a win,
    a draw: not "continue", which the procedure supersedes as the game goes on) `contradicts` it,
    and is not recorded over it. A final decision is the same when its result, winner and policy are
    (its steps' wording may come from another version; a decision under another policy is another
    decision, even of the same result: QA80 #5); a "continue" also by its branch and steps (the
    play after the call moves it on). A stale one (`stale`: a later correction changed the table it
    judged) is neither: this decision, on the corrected table, is recorded and `supersedes` it.
    `stale` works staleness out: asked only when a decision follows the call (most matches have none)."""
    d = result.decision
    e = latest_decision(events, voided, result.time_called.position)
    if e is None:
        return
    out_of_date = stale().get(e.position)
    if out_of_date is not None:
        result.supersedes = out_of_date
        return
    p = e.payload
    # a policy is compared where both name one (a ruleset that names none decides one way)
    same = _outcome(p) == (d.result, d.winner) and (not d.policy or p.get("policy") in (d.policy, None, ""))
    if same and d.result == "continue":
        same = (p.get("branch"), p.get("steps")) == (d.branch, d.steps)
    if same:
        result.already_recorded = e
    elif p.get("result") != "continue":
        result.contradicts = e
    if result.standing is not None:
        result.appealed = decision_appealed(events, voided, e.position)


@dataclass(frozen=True)
class RecordedStanding:
    """A decision that stands after the time call, said where the log alone decides nothing (its
    counts are missing): what a dry run says first, as TimeLimitResult.standing_words does."""
    event: RecordedEvent
    time_called: RecordedEvent
    words: str                 # decided_words
    appealed: str | None       # AppealedAway.of_time_decision, where the head judge overturned or changed it


def recorded_standing(match: Match) -> RecordedStanding | None:
    """The final decision recorded after the match's time call that still decides it (not void, not
    out of date; a "continue" decides nothing), found without deciding: the standing that
    `_against_recorded` finds beside a decision, for a log the procedure cannot decide alone."""
    events, voided = log_and_voided(match)
    called = find_time_called(events, voided)
    e = None if called is None else standing_decision(events, voided, stale_decisions(match.replayer, events),
                                                       after=called.position)
    if e is None:
        return None
    appealed = decision_appealed(events, voided, e.position)
    return RecordedStanding(e, called, decided_words(e, match_names(match)),
                            appealed.of_time_decision(match.id) if appealed else None)


def needs_facts(e: InputError) -> bool:
    """The refusal asks for counts the log does not have (read off the table): `decide`'s
    TableFactsNeeded. Not any refusal of a `facts` field: typed `--facts` refused (a syntax error, a
    ruleset with no end-of-time procedure) asks for nothing to be read."""
    return isinstance(e, TableFactsNeeded)


def standing_lines(words: str, appealed: str | None, facts: str | None = None) -> list[str]:
    """The terminal's lines for the decision that stands, said first, before what the log alone gives
    (a decision, or a refusal asking for counts): text_report and `refused_after_standing`. `facts`:
    the decision below was given from facts read off the table, not from the log alone (QA88 #2: it
    was labelled "the log alone gives")."""
    below = f"the facts {facts} give" if facts else "the log alone gives"
    return ([f"decided: {words}"] + ([f"  {appealed}"] if appealed else [])
            + ["", f"{below} (for comparison; the recorded decision stands):"])


def refused_after_standing(match: Match, e: InputError) -> str | None:
    """Where `run` refused for counts the log lacks but a decision recorded after the time call
    stands (the facts form or `--facts` decided it): the terminal's words for it, said before the
    refusal, as the decide page says it first. None where nothing stands or the refusal is another."""
    standing = recorded_standing(match) if needs_facts(e) else None
    return None if standing is None else "\n".join(standing_lines(standing.words, standing.appealed))


def text_report(result: TimeLimitResult, lang: str = "en") -> str:
    """The decision for a terminal. A policy from outside the rulebook is quoted with its source;
    `lang` "en" or "both" adds what it does in plain English ("orig": the quote alone)."""
    d = result.decision
    who = f" - winner: {shown(d.winner, result.names)}" if d.winner else ""
    at = f"event {result.time_called.position}" if result.time_called.position else "not recorded"
    lines = [f"match {result.match} ({result.ruleset}): time called at {result.time_called.payload['clock']} "
             f"({at})"]
    if any_named(result.names):  # the steps say the seats, as the log does
        lines.append(f"players: {', '.join(shown_players(result.names))}")
    standing = result.standing_words()
    if standing is not None:  # what stands first; what follows is only the procedure on the log (QA80 #2)
        lines += standing_lines(standing, result.appealed_words(), result.facts)
    lines += [f"decision: {d.result}{who}", f"branch: {d.branch}   rule: {d.rule}   policy: {d.policy}", ""]
    lines += [f"  {i}. {s}" for i, s in enumerate(d.steps, 1)]
    if d.source:
        lines += ["", f"source: {d.source}"]
        if d.en and lang in ("en", "both"):
            lines.append(f"  in short: {d.en}")
        if d.quote:
            lines.append(f"  «{d.quote}»")
    elif d.en or d.quote:  # the rulebook's rule the decision rests on (--lang: en, orig or both)
        lines.append("")
        if d.en and lang in ("en", "both"):
            lines.append(f"rule {d.rule}: {d.en}")
        if d.quote and (lang in ("orig", "both") or not d.en):
            lines.append(f"  «{d.quote}»" if lang == "both" and d.en else f"rule {d.rule}: «{d.quote}»")
    if result.moot:
        lines += ["", "nothing recorded: the match was decided before time was called"]
    elif result.recorded is not None:
        lines += ["", f"recorded as event {result.recorded.position} (time.decision)"]
        if result.supersedes is not None:
            lines.append(f"it supersedes the decision at event {result.supersedes.position}, out of date after "
                         f"{result.supersedes.because()}")
    elif result.already_recorded is not None:
        lines += ["", f"already recorded as event {result.already_recorded.position}; nothing added"]
    elif result.contradicts is not None:  # a dry run: no conflict to settle until one is recorded
        lines += ["", f"dry run: nothing recorded; the decision recorded as event {result.contradicts.position} "
                      f"stands"]
    else:
        lines += ["", "dry run: nothing recorded"]
        if result.supersedes is not None:  # as the JSON says it (QA74 N10)
            lines.append(f"recorded, it would supersede the decision at event {result.supersedes.position}, "
                         f"out of date after {result.supersedes.because()}")
    return "\n".join(lines)
