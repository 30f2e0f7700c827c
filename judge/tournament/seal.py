"""Round seals, and checking a tournament's recorded evidence.

When a round closes (`tournament close`, or the next round is paired), one hash is made over the tournament's head and
the head of every match of that round, and recorded as a `round.sealed` event. The seal
(`tj-seal:TOURNAMENT/ROUND:HASH`) is printed on the standings page and the round report, so it
leaves the log: `tablejudge verify --seal` later proves that nothing it covers was changed or
removed, whole matches included.

A round's matches: those its results were recorded from (`tournament result --match`), those made
for its tables (`round.matches`), and every match created for this tournament and round (`match new
--event TOURNAMENT --round N`, with the tournament's id or name as the event).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.events import RecordedEvent
from engine.integrity import SealResult, check_seal, seal_hash, seal_token
from engine.decisions import stale_decisions, standing_decision, table_changed
from engine.replay import VOIDING_KINDS, Replayer, voided_positions
from engine.store import MATCH_CREATED, EventStore, MatchNotFound
from engine.timefacts import read_again, timelimit_command

from judge.tournament.matchoutcome import by_names, standing_outcome
from judge.tournament.results import game_counts
from judge.tournament.standings import slip_text, slip_words
from judge.tournament.state import TournamentState, replay
from judge.tournament.vocab import CREATED

SEALED = "round.sealed"


def scope(tournament: str, round_no: int) -> str:
    return f"{tournament} round {round_no}"


def round_matches(store: EventStore, st: TournamentState, round_no: int) -> list[str]:
    rnd = st.round(round_no)
    ids = {m for r in (rnd.results.values() if rnd else ()) for m in (r.matches or ())}
    ids.update(rnd.matches.values() if rnd else ())  # made for its tables (round.matches)
    labels = {st.id, st.name}
    for created in store.created_events(MATCH_CREATED):
        p = created.payload
        if str(p.get("round")) == str(round_no) and p.get("event") in labels:
            ids.add(created.match)
    return sorted(ids)


def seal_payload(store: EventStore, st: TournamentState, round_no: int) -> dict[str, Any]:
    """The seal of a round as the log stands now: the tournament's head first, then each match's."""
    head = store.head(st.id)
    assert head is not None
    heads = [{"stream": st.id, "position": head.position, "hash": head.hash}]
    for mid in round_matches(store, st, round_no):
        h = store.head(mid)
        if h is not None:
            heads.append({"stream": mid, "position": h.position, "hash": h.hash})
    sc = scope(st.id, round_no)
    return {"round": round_no, "scope": sc, "heads": heads, "seal": seal_hash(sc, heads)}


def token(tournament: str, payload: dict[str, Any]) -> str:
    return seal_token(tournament, str(payload["round"]), payload["seal"])


def seal_events(store: EventStore, tournament: str | None = None) -> list[RecordedEvent]:
    """Every round.sealed event (of one tournament, or of all), in log order."""
    ids = [tournament] if tournament else store.stream_ids(CREATED)
    return [e for t in ids for e in store.read(t) if e.kind == SEALED]


def check(store: EventStore, event: RecordedEvent) -> SealResult:
    p = event.payload
    return check_seal(store, event.match, str(p.get("round")), str(p.get("scope")),
                      list(p.get("heads") or []), str(p.get("seal")))


def change_words(e: RecordedEvent, events: list[RecordedEvent]) -> str:
    """An event that changed a round's results, in words: `event 910 (table 10: 0-2-0, "slip misread")`."""
    p = e.payload
    if e.kind == "correction":
        target = events[p["voids"] - 1] if 0 < p.get("voids", 0) <= len(events) else None
        table = target.payload.get("table") if target is not None else None
        return (f"event {e.position} (voided the result of table {table}" if table is not None
                else f"event {e.position} (voided a result") + (f", {p['reason']!r})" if p.get("reason") else ")")
    return (f"event {e.position} (table {p.get('table')}: {slip_text(p)}"
            + (f", {p['reason']!r})" if p.get("reason") else ")"))


def staleness(st: TournamentState, event: RecordedEvent,
              events: list[RecordedEvent]) -> tuple[str | None, int | None]:
    """Whether seal `event` still matches its round's results as they stand now (`st`, folded from
    `events`): (None, None) if it does; else (what changed, in words, and the position of a later
    seal of the round that covers the change, if any: the stale seal is superseded, not current)."""
    round_no = event.payload.get("round")
    if not isinstance(round_no, int):
        return None, None
    later = st.changes_after(round_no, event.position)
    if not later:
        return None, None
    words = f"round {round_no}'s results changed after it: " + _first_five(
        [change_words(e, events) for e in later], "; ", "; and")
    resealed = st.sealed_at.get(round_no)
    return words, (resealed if resealed is not None and resealed > later[-1].position else None)


def find(store: EventStore, seal: str) -> list[RecordedEvent]:
    return [e for e in seal_events(store) if e.payload.get("seal") == seal]


@dataclass(frozen=True)
class BasisProblem:
    """A result recorded from a match (`event`, a result.recorded) that the match's log no longer
    gives. `out_of_date`: a correction or backup recorded in the match after the result was taken
    changed its table (the procedure: decide again if need be, take the result again); else the
    log does not give the recorded basis at all (an edit, or a basis that cannot be checked)."""

    event: RecordedEvent
    match: str
    position: int           # the match's head the result was taken at
    words: str              # what changed, or what is wrong
    out_of_date: bool
    decide_again: bool = False  # the decision it rests on is stale or void, and no later one decides the match
    facts: str | None = None    # that decision's facts line, where it was given from facts read off the table

    @property
    def table(self) -> Any:
        return self.event.payload.get("table")

    def fix(self, tournament: str) -> str:
        """The commands that settle it, as they work when typed: the table has a result (this one),
        which the match's outcome, if another, replaces only with --overwrite (QA80 #3); its round,
        as a later round may be the current one. With no outcome now: decide again (from facts
        again where the decision was: the log alone decides nothing then, QA83 #2), or enter the
        result by hand, which the warning does not wait on the match for (QA83 #1)."""
        rnd = self.event.payload.get("round")
        again = (f"`tablejudge tournament result {tournament} --match {self.match} --round "
                 f"{rnd} --overwrite --reason \"decided again after a correction\"`")
        if not self.decide_again:
            return f"record it again: {again}"
        return (f"decide again (`{timelimit_command(self.match, self.facts)}`"
                f"{read_again(self.facts)}), then {again}; or enter the result by hand: `tablejudge tournament "
                f"result {tournament} W-L-D --table {self.table} --round {rnd} --overwrite --reason \"...\"`")

    def warning(self, tournament: str) -> str:
        """'table 3's result came from match M at event 63; M's decision is out of date after ...'."""
        return (f"round {self.event.payload.get('round')} table {self.table}'s result came from match "
                f"{self.match} at event {self.position}; {self.words}: {self.fix(tournament)}")


def _first_five(items: list[str], sep: str, more: str) -> str:
    """The first five items joined by `sep`, and how many more there are ('...; and 3 more')."""
    return sep.join(items[:5]) + (f"{more} {len(items) - 5} more" if len(items) > 5 else "")


def _why_changed(store: EventStore, match: str, position: int,
                 events: list[RecordedEvent] | None = None) -> tuple[str, bool, str | None] | None:
    """Whether corrections or backups recorded in `match` after `position` (the head a result was
    taken at) changed the table there, or voided the time decision the result rests on (a void of a
    decision leaves the table what it was, yet the result came from that decision: QA83 #1): (what
    changed, in words; whether the match waits for a new decision: the one the result rests on is
    stale with none superseding it, or void with no outcome now; that decision's facts line, where
    it was given from facts) or None. Decided as a time decision's staleness is
    (engine/decisions.py): a plain void replays to the same head state, yet the table it gives is
    another one. `events`: the match's whole log, if the caller read it already."""
    if events is None:
        events = store.read(match)
    later = [e for e in events if e.position > position and e.kind in VOIDING_KINDS]
    if not later:
        return None
    replayer = Replayer(store, match)
    stale_now = stale_decisions(replayer, events)
    stale = [s for s in stale_now.values() if s.position <= position]
    if stale:
        s = max(stale, key=lambda s: s.position)
        again = (f" (decided again at event {s.superseded_by})" if s.superseded_by is not None else "")
        return f"{match}'s time decision (event {s.position}) is out of date after {s.because()}{again}", \
            s.superseded_by is None, None
    gone, upto = voided_positions(events), [e for e in events if e.position <= position]
    then = _decision_then(events, position, upto)
    # the decision it came from is void now (QA83 #1); not where a penalty decided the match over it
    if then is not None and then.position in gone and not _penalty_decided(store, match, upto):
        by = next(e for e in later if then.position in voided_positions([then, e]))
        now = standing_decision(events, gone, stale_now, after=then.position)
        # no outcome now (a "continue" decides nothing): the result waits for one, or is entered by hand
        ended = now is not None or _standing_outcome(store, match, list(events), stale_now) is not None
        return (f"the time decision it rests on (event {then.position}) was voided by {by.kind} {by.position}"
                + (f" (decided again at event {now.position})" if now is not None
                   else "" if ended else ", and the match gives no outcome now"),
                not ended, then.payload.get("facts"))
    try:
        if not table_changed(replayer, events, position):
            return None
    except (LookupError, ValueError, KeyError):
        return None
    return f"match {match} was changed after it by " + _first_five(
        [f"{e.kind} {e.position}" for e in later], ", ", " and"), False, None


def _penalty_decided(store: EventStore, match: str, upto: list[RecordedEvent]) -> bool:
    """Did a penalty (Match Loss, Disqualification: engine.desk.log_outcome's order) decide the match
    over its time decision in `upto` (its log as a result was taken)? Then the result did not come
    from the decision, and a void of the decision leaves it standing."""
    from engine.desk import log_outcome
    ending = log_outcome(upto, voided_positions(upto), store.created(match).payload["players"], None)
    return ending is not None and ending.source == "penalty"


def out_of_date(store: EventStore, event: RecordedEvent) -> bool:
    """Has a correction in a match a result (`event`) was taken from changed it since? The same
    slip taken again from the match then rests on the match as corrected: worth recording."""
    try:
        return any(_why_changed(store, str(b["match"]), int(b["position"])) is not None
                   for b in event.payload.get("based_on") or ())
    except (KeyError, TypeError, ValueError, LookupError, MatchNotFound):
        return False


def basis_problems(store: EventStore, events: list[RecordedEvent], *, changed_only: bool = False,
                   logs: dict[str, list[RecordedEvent]] | None = None) -> tuple[list[BasisProblem], int]:
    """Results recorded from matches carry each match's head and final state hash: the log must
    still hold that head, replaying the match to it must give that state, and no correction or
    backup recorded in the match since may have changed the table there. One check for
    `verify`, `tournament warnings` (and the web desk's) and `tournament close`. (problems, checked)
    `changed_only`: replay only the matches with a correction or backup after the head (the desk's
    cheap pass after every change; an edited log is `verify`'s to find). `logs`: the match logs
    read already in the same pass (match -> events), filled here: each match read once, however many
    results (and checks: appealed_results) rest on it."""
    problems: list[BasisProblem] = []
    checked = 0
    logs = {} if logs is None else logs
    for e in events:
        if e.kind != "result.recorded":
            continue
        for b in e.payload.get("based_on") or ():
            checked += 1
            match, position = str(b.get("match")), b.get("position")
            try:
                position = int(b["position"])
                if match not in logs:  # one read serves the cheap pass, _why_changed and the replay
                    logs[match] = store.read(match)
                log = logs[match]
                if changed_only and not any(x.kind in VOIDING_KINDS for x in log if x.position > position):
                    continue
                problem = store.holds(b["match"], position, b["hash"])
                if problem is None:
                    why = _why_changed(store, match, position, log)
                    if why is not None:  # out of date: the replay to the head below is not needed
                        problems.append(BasisProblem(e, match, position, why[0], True, why[1], why[2]))
                        continue
                    table = Replayer(store, match).state_at(
                        position, use_snapshots=False, save_snapshots=False, events=log)
                    if table.state_hash() != b["state_hash"]:
                        problem = _read_otherwise(e, match, position, table, b["state_hash"])
            except (KeyError, TypeError, ValueError, LookupError, MatchNotFound) as err:
                problem = f"its basis cannot be checked ({str(err)[:80]})"
            if problem:
                problems.append(BasisProblem(e, match, position if isinstance(position, int) else 0,
                                             problem, False))
    return problems, checked


def _read_otherwise(result: RecordedEvent, match: str, position: int, table: Any, stored: Any) -> str:
    """The words for a result whose match, its log unchanged (`store.holds`: the hash chain gives the
    head it was taken at), replays to another table than the result stored: this version of the tool
    reads the log otherwise (op2009 version 4 counts the game a sudden death decides: 1-1 became 2-1,
    docs/rulesets/op2009.md), so the result may no longer be the match's. Said with the match's
    result now beside the one recorded, and how to take it again, not as two bare hashes."""
    p, now = result.payload, table.result or {}
    score = now.get("score") or {}
    reads = "no result" if not now else (
        (f"{now['winner']} wins" if now.get("winner") else str(now.get("result")))
        + (" (games " + ", ".join(f"{x} {score[x]}" for x in table.players if x in score) + ")" if score else ""))
    return (f"match {match}'s log is unchanged to event {position}, but this version of tablejudge reads it "
            f"otherwise than when the result was taken (state {str(stored)[:16]}... then, {table.state_hash()[:16]}... "
            f"now): the match now reads {reads}, the result recorded {p.get('player1')} "
            f"{p.get('wins1')}-{p.get('wins2')}-{p.get('draws') or 0} {p.get('player2')}; a newer version counts some games otherwise "
            f"(the notes of the match's ruleset say which); if the match's reading is right, record the result "
            f"again: `tablejudge tournament result {result.match} --match {match} --round {p.get('round')} "
            f"--overwrite --reason \"read again by a newer version\"`")


def _standing(st: TournamentState) -> set[int]:
    """The positions of the result events that stand now."""
    return {e.position for r in st.rounds for e in r.result_events.values()} - st.voided


def standing_problems(store: EventStore, st: TournamentState, events: list[RecordedEvent] | None = None,
                      logs: dict[str, list[RecordedEvent]] | None = None) -> list[BasisProblem]:
    """The basis problems of the results that stand now (a result recorded again or voided since
    is no longer counted): what `tournament warnings` lists and `tournament close` refuses on."""
    standing = _standing(st)
    log = events if events is not None else store.read(st.id)
    # only the standing results are checked: a result replaced or voided since read and replayed
    # its match on every tournament change, to be dropped afterwards (review)
    problems, _ = basis_problems(store, [e for e in log if e.position in standing], changed_only=True, logs=logs)
    return problems


# The warnings a judge settles: a result its match no longer gives, or one resting on a decision the
# head judge overturned on appeal. A result entered by hand after them is taken as the head judge's
# (docs/judging.md), so entering one takes a judge or the organizer (a scorekeeper's link is refused,
# QA86 1), and a reason (QA86 8: `--overwrite` alone settled them).
JUDGES_WARNINGS = ("result-basis", "result-appealed")


def judges_warnings(store: EventStore, st: TournamentState, results: set[int]) -> list[Blocker]:
    """The warnings a judge settles (JUDGES_WARNINGS) on the standing results among `results`
    (their events' positions). Only these results' match logs are read, once for a whole batch."""
    return [b for b in blocking_problems(store, st, only=results) if b.kind in JUDGES_WARNINGS]


def settled_by_entering_again(store: EventStore, st: TournamentState, results: set[int]) -> set[int]:
    """The standing results among `results` (their events' positions) on which a warning that
    blocks closing (closing_blockers) rests that entering the same result again by hand settles:
    `result-basis` (its match no longer gives it) and `result-appealed` (entered or taken before
    the appeal), which a hand-entered result after the appeal answers as the head judge's. Not
    `result-decision`: the result disagrees with the match's outcome, and the same result again
    still does (QA85 3: the head judge's result, the same as the table's, was "unchanged" and the
    round stayed blocked)."""
    return {b.event.position for b in judges_warnings(store, st, results)}


def appealed_results(store: EventStore, st: TournamentState, events: list[RecordedEvent] | None = None,
                     logs: dict[str, list[RecordedEvent]] | None = None,
                     ) -> list[tuple[RecordedEvent, str, None, str]]:
    """The standing results taken from a match whose time decision, the one the result rests on
    (`_decision_then`: the match's standing decision as the result was taken), the head judge
    overturned or changed on appeal since (engine.desk.appealed_away): the appeal changes no result
    by itself, so the result still stands on it until the match's decision is replaced and the
    result taken again, or entered as the head judge gave it. A decision voided since is not said
    here: the result no longer rests on anything, and the `result-basis` warning says so with what
    settles it (judged on today's voids, an earlier decision the result never rested on was taken
    for it and its appeal said beside that warning). (result event, the warning's words, with the
    commands that settle it, no match to take the result from again (it gives the overturned decision
    until that is voided), and why taking it settles nothing yet: still_given_words.)
    `logs`: the whole match logs basis_problems read in the same pass;
    a match not among them is read for its decisions, appeals and voids only."""
    from engine.desk import decision_appealed
    standing = _standing(st)
    log = events if events is not None else store.read(st.id)
    logs = {} if logs is None else logs
    out: list[tuple[RecordedEvent, str, None, str]] = []
    for e in log:
        if e.kind != "result.recorded" or e.position not in standing:
            continue
        for b in e.payload.get("based_on") or ():
            try:
                match, position = str(b["match"]), int(b["position"])
                mlog = logs.get(match)
                if mlog is None:
                    mlog = store.read_kinds(match, ("time.decision", "judge.appeal", *VOIDING_KINDS))
            except (KeyError, TypeError, ValueError, LookupError, MatchNotFound):
                continue  # a basis that cannot be read is basis_problems' to say
            if not any(x.kind == "judge.appeal" for x in mlog):  # most matches: no replay, no more reading
                continue
            then, gone = _decision_then(mlog, position), voided_positions(mlog)
            a = decision_appealed(mlog, gone, then.position) if then is not None and then.position not in gone \
                else None
            if a is None:
                continue
            rnd, table = e.payload.get("round"), e.payload.get("table")
            # the match gives the overturned decision until a correction voids it (then the warning is
            # result-basis, which offers the match once decided again): taken again now, the result
            # would be that decision again (QA86 2: "taken again (#8)" of the old result)
            out.append((e, (f"round {rnd} table {table}'s result came from match {match}, whose time decision "
                            f"(event {a.action}) was {a.words()}: the result still stands on it. "
                            + _settle_appeal(st.id, match, rnd, table, a)), None, still_given_words(match, a)))
            break
    return out


def still_given_words(match: str, a: Any) -> str:
    """Why a result is not taken from `match` while its standing time decision is the one overturned
    on appeal (`a`, an engine.desk.AppealedAway), and what to do first: said by the warnings, and by
    Tournament.record_matches (`tournament result --match`, the desk's take_again) when it refuses
    (QA86 2, QA88 1)."""
    void, decide = a.redecide_commands(match)
    return (f"match {match} still gives the time decision the head judge {a.decision} on appeal (event "
            f"{a.action}, appeal event {a.appeal.position}): a result taken from it would take that decision "
            f"again; void event {a.action} and decide again first (`{void}`, then `{decide}`{read_again(a.facts)})"
            f", or enter the head judge's result by hand (`tablejudge tournament result ... W-L-D --table N "
            f"--overwrite --reason \"...\"`)")


def _decision_then(events: list[RecordedEvent], position: int,
                   upto: list[RecordedEvent] | None = None) -> RecordedEvent | None:
    """The time decision a result taken at the match's event `position` rests on: the match's
    standing decision (engine.decisions.standing_decision) among its events up to then, voided as
    they were then. `events`: the match's log, or its decisions, appeals and voids; `upto`: those
    up to `position`, where the caller has them already."""
    upto = [e for e in events if e.position <= position] if upto is None else upto
    return standing_decision(upto, voided_positions(upto), ())


def _settle_appeal(tid: str, match: str, rnd: Any, table: Any, a: Any) -> str:
    """What settles a table's result resting on a time decision overturned on appeal (`a`, an
    engine.desk.AppealedAway): the match's decision replaced (`redecide_commands`) and the result
    taken from it again, or the head judge's result entered. One wording for a result taken from
    the match and one entered by hand."""
    void, decide = a.redecide_commands(match)
    return (f"Void it and decide again in the match (`{void}`, then `{decide}`{read_again(a.facts)}), then "
            f"`tablejudge tournament result {tid} --match {match} --round {rnd} --overwrite --reason "
            f"\"decided again after an appeal\"`; "
            f"or enter the head judge's result: `tablejudge tournament result {tid} W-L-D --table {table} --round "
            f"{rnd} --overwrite --reason \"appeal, match {match} event {a.appeal.position}\"`")


def _coarse(winner: str | None, result: str) -> str:
    """A table's outcome as a time decision can say it: the winner's name, `draw` or `double-loss`."""
    return (winner or "?").strip() if result == "win" else result


def entered_against_decision(store: EventStore, st: TournamentState,
                             events: list[RecordedEvent] | None = None,
                             logs: dict[str, list[RecordedEvent]] | None = None,
                             ) -> list[tuple[RecordedEvent, str, str, str | None, str | None]]:
    """The standing results entered by hand (the players' agreed slips, the scorekeeper's, a judge's:
    no `based_on`) for a table whose linked match has a final time decision that stands, where the
    head judge would look again (review: only a result taken with `--match` was checked):
    - `result-appealed`: the decision was overturned or changed on appeal after the result was
      entered, so the result was entered on the table as it was decided then; one entered after the
      appeal is taken as the head judge's (what the warning asks for) and is not said;
    - `result-decision`: in a best-of-one round (a game is the match), the result does not say what
      the match's outcome as it stands does (engine.desk.log_outcome: a later Match Loss or
      Disqualification over the decision); in longer formats one game's decision does not fix the
      match's result, so nothing is compared, unless the match's log holds the whole match and its
      outcome gives the games won (op2009's best of three: `score`), then compared in any format;
      the right winner with other game counts is `result-decision` too (QA85 #2). A decision a correction left out of date (DESK-15) is
      no standing one: the match waits for a new decision, and nothing is compared.
    (result event, warning kind, the warning's words with the commands that settle it, the match to take
    the result from where that settles it: not where a penalty decided the match, nor on an overturned
    decision the match still gives; then why taking it settles nothing yet: still_given_words.) The match
    logs read already (`logs`) are used; the others are read for their decisions, appeals and voids
    only, and only for the tables that have a linked match."""
    from engine.desk import decision_appealed
    standing = _standing(st)
    log = events if events is not None else store.read(st.id)
    logs = {} if logs is None else logs
    out: list[tuple[RecordedEvent, str, str, str | None, str | None]] = []
    for e in log:
        p = e.payload
        if e.kind != "result.recorded" or e.position not in standing or p.get("based_on"):
            continue
        rnd = st.round(p["round"])
        match = rnd.matches.get(p["table"]) if rnd is not None else None
        if match is None:
            continue
        mlog = logs.get(match)
        if mlog is None:
            try:
                mlog = store.read_kinds(match, ("time.decision", "judge.appeal", *VOIDING_KINDS))
            except (LookupError, MatchNotFound):
                continue
        gone = voided_positions(mlog)
        if standing_decision(mlog, gone, ()) is None:  # no final decision counts: most tables stop here
            continue
        full, stale = None, {}  # no correction, nothing out of date
        if any(x.kind in VOIDING_KINDS for x in mlog):  # a correction may have left it out of date (DESK-15)
            full = _full_log(store, match, logs)
            stale = stale_decisions(Replayer(store, match), full)
            d = standing_decision(mlog, gone, stale)
            if d is None:  # out of date: the match waits for a new decision, and the result is not its
                continue
        else:
            d = standing_decision(mlog, gone, ())
        where = f"round {rnd.number} table {p['table']}'s result ({p['player1']} {slip_text(p)} {p['player2']}, " \
                f"event {e.position})"
        a = decision_appealed(mlog, gone, d.position)
        if a is not None:
            if e.recorded_at < a.appeal.recorded_at:
                # the match's standing decision is the overturned one: taking its result would take it (QA86 2)
                out.append((e, "result-appealed", (
                    f"{where} was entered before match {match}'s time decision (event {d.position}) was "
                    f"{a.words()}: it may rest on the overturned decision. " + _settle_appeal(st.id, match, rnd.number,
                                                                                        p["table"], a)), None,
                            still_given_words(match, a)))
            continue
        # the match's outcome as it stands, not the decision alone: a later Match Loss or
        # Disqualification decides the match over it (engine.desk.log_outcome's order)
        ending = _standing_outcome(store, match, full if full is not None else _full_log(store, match, logs), stale)
        if ending is None or (ending.score is None and st.match_format(rnd.stage).best_of != 1):
            continue  # a log of one game in a longer match: its decision does not fix the match's result
        w1, w2 = int(p["wins1"]), int(p["wins2"])
        entered = "double-loss" if p.get("double_loss") else p["player1"] if w1 > w2 else p["player2"] if w2 > w1 \
            else "draw"
        outcome = _coarse(ending.winner, ending.result)
        if entered == outcome:
            games = _other_games(ending, p)
            if games is not None:  # the right winner, not the games the decision gives (QA85 #2)
                out.append((e, "result-decision", (
                    f"{where} gives other game counts than match {match}'s standing time decision (event "
                    f"{d.position}), whose match ends {p['player1']} {games} {p['player2']}; the games count "
                    f"in the tiebreakers. Take the result from the match: `tablejudge tournament result {st.id} "
                    f"--match {match} --round {rnd.number} --overwrite --reason \"as the time decision\"`"), match,
                            None))
            continue
        said = f"{outcome} wins" if ending.result == "win" else f"a {outcome}"
        if ending.source == "penalty":  # `--match` takes the game's outcome: the penalty's is entered by hand
            slip = ("--double-loss" if ending.result == "double-loss" else "1-0-0" if outcome == p["player1"]
                    else "0-1-0" if outcome == p["player2"] else None)
            out.append((e, "result-decision", (
                f"{where} disagrees with match {match}'s outcome ({said}: {ending.how}), which decides the match "
                f"over its time decision (event {d.position}). "
                + (f"Enter it: `tablejudge tournament result {st.id} {slip} --table {p['table']} --round "
                   f"{rnd.number} --overwrite --reason \"penalty, match {match} event {ending.position}\"`"
                   if slip else "Enter the head judge's result with --overwrite and a reason")), None, None))
            continue
        out.append((e, "result-decision", (
            f"{where} disagrees with match {match}'s standing time decision (event {d.position}: {said}). "
            f"Take the result from the match: `tablejudge tournament result {st.id} --match {match} --round "
            f"{rnd.number} --overwrite --reason \"as the time decision\"`; or, if the entered result is "
            f"right, the decision is not: void it in the match (`tablejudge log {match} correction --actor "
            f"judge:NAME --voids {d.position} --reason \"...\"`) and decide again (`"
            f"{timelimit_command(match, d.payload.get('facts'))}`{read_again(d.payload.get('facts'))})"), match, None))
    return out


def _other_games(ending: Any, p: dict[str, Any]) -> str | None:
    """The game counts (W-L-D, player1's) the match's outcome gives, where they differ from the
    result event's payload `p`; None when they agree or the outcome gives none (a log of one game)."""
    if ending.score is None or p.get("double_loss"):
        return None
    counts = game_counts(ending, p["player1"], p["player2"])
    if counts == (int(p["wins1"]), int(p["wins2"]), int(p.get("draws", 0))):
        return None
    return slip_words(*counts, False)


def _full_log(store: EventStore, match: str, logs: dict[str, list[RecordedEvent]]) -> list[RecordedEvent]:
    """The match's whole log: the one read already, else read (and kept for the next table)."""
    if match not in logs:
        logs[match] = store.read(match)
    return logs[match]


def _standing_outcome(store: EventStore, match: str, events: list[RecordedEvent],
                      stale: Any = None) -> Any:
    """How the match ended as it stands (engine.desk.LogOutcome, its winner by the player's name
    now), with stale decisions (`stale`, the caller's stale_decisions of `events`, else worked out)
    set aside as `record --match` sets them aside (matchoutcome.standing_outcome, replayed from
    `events`); None while it has no outcome or its ruleset cannot read it (the result is then not
    compared, never a traceback)."""
    from engine.desk import log_outcome
    from engine.match import Match
    from engine.names import match_names
    try:  # opening it too: an unknown ruleset, a log that does not replay
        m = Match.open(store, match)
        stale = stale_decisions(m.replayer, events) if stale is None else stale
        game, state = standing_outcome(m, events, stale)
    except Exception:  # noqa: BLE001 - a ruleset bug: verify and the desk's review report it
        return None
    ending = log_outcome(events, state.voided, m.players, game, stale)
    return None if ending is None else by_names(ending, match_names(m))


def check_results(store: EventStore, events: list[RecordedEvent]) -> tuple[list[str], int]:
    """`verify`'s words for basis_problems. A result out of date after a correction in its match
    fails only while it stands: recorded again from the match (or voided), the procedure was kept."""
    problems, checked = basis_problems(store, events)
    if any(p.out_of_date for p in problems):
        standing = _standing(replay(events))
        problems = [p for p in problems if not p.out_of_date or p.event.position in standing]
    out = []
    for p in problems:
        where = f"event {p.event.position} (result of round {p.event.payload.get('round')} table {p.table})"
        out.append(f"{where}: out of date after a correction in match {p.match} ({p.words}); {p.fix(events[0].match)}"
                   if p.out_of_date else f"{where}: {p.words}")
    return out, checked


def closing_blockers(store: EventStore, st: TournamentState, results: set[int]) -> list[str]:
    """Why these standing results (`results`: their events' positions) cannot be sealed: the
    warnings no answer settles (judge.tournament.placings.warnings gives them no choices) — a
    result its match no longer gives, one resting on a time decision the head judge overturned on
    appeal, one entered against the match's standing decision (QA84 2: the round closed and sealed
    over an overturned decision). A seal would certify them; entering the result again settles
    each. `tournament close` refuses on them, and so does pairing the next round, which seals
    the round it follows (QA85 1: `pair` sealed over them after close was refused). One read of
    the tournament and of each of these results' matches (no other round's), shared by the three
    checks."""
    return [b.words for b in blocking_problems(store, st, only=results)]


@dataclass(frozen=True)
class Blocker:
    """A warning no answer settles, on the standing result `event`: `kind` result-basis,
    result-appealed or result-decision (placings.warnings' kinds), `words` with the commands that
    settle it; `decide_again`: the match to decide again (result-basis only); `take_from`: the match whose
    result, taken again (`tournament result --match`, the web's "Take the result from the match"),
    settles it, where the words say so (not while the match waits for a decision, nor where a penalty
    decided it: that result is entered by hand, nor while the match still gives a decision overturned on
    appeal); `still_given`: that last case, why taking the match's result again settles nothing yet and
    what to do first (QA86 2: the desk's button said "taken again" of the old result)."""
    event: RecordedEvent
    kind: str
    words: str
    decide_again: str | None = None
    take_from: str | None = None
    still_given: str | None = None


def blocking_problems(store: EventStore, st: TournamentState, log: list[RecordedEvent] | None = None,
                      logs: dict[str, list[RecordedEvent]] | None = None, *,
                      only: set[int] | None = None) -> list[Blocker]:
    """The three checks that block sealing, in one pass over one read of the tournament (`log`)
    and of each match (`logs`): what `tournament warnings`, `close`, `pair` and entering a result
    again each ask (standing_problems, appealed_results, entered_against_decision). `only`: the
    positions of the result events to check (one round's, one result), the others left out before
    any match is read: each check reads the matches of the results it is given."""
    if log is None and only is not None:  # the rounds' standing results: no read of the tournament's log
        log = [e for r in st.rounds for e in r.result_events.values() if e.position in only]
    log = store.read(st.id) if log is None else log
    if only is not None:
        log = [e for e in log if e.position in only]
    logs = {} if logs is None else logs
    out = [Blocker(p.event, "result-basis", p.warning(st.id), p.match if p.decide_again else None,
                   p.match if p.out_of_date and not p.decide_again else None)
           for p in standing_problems(store, st, log, logs)]
    out += [Blocker(e, "result-appealed", words, take_from=match, still_given=still)
            for e, words, match, still in appealed_results(store, st, log, logs)]
    out += [Blocker(e, kind, words, take_from=match, still_given=still)
            for e, kind, words, match, still in entered_against_decision(store, st, log, logs)]
    return out
