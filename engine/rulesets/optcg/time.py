"""End of time for `optcg`: the policies in time_policies.toml, each quoting its source.

Events differ, so each practice is a named policy (`tablejudge timelimit MATCH --policy NAME`):

- `bandai` (default): the turn in progress when time is called is turn 0; 3 more turns are played;
  then the first criterion that separates the players decides: more Life cards, more cards in the
  deck, more Characters on the field, the player who did NOT take the last Life card; all equal: a
  double loss. The ruleset options `end_of_time_turns` and `end_of_time_criteria` tune this policy.
- `store`: the same, but the fourth criterion reads the other way (the player who took the last
  Life card wins), as one store publishes it.
- `regional`: the extra turns end after 3 turns or when the 5 extra minutes run out, whichever comes
  first; the judge records the end of the minutes as a `time.called` marked `extra_minutes_over`
  (`tablejudge judge time MATCH --extra-minutes-over`; older logs: a second `time.called`).
- `asia`: no extra turns: when time runs out (and the effect in progress has resolved), a double loss.

Each decision carries the policy's quote and its reference (`Decision.quote`, `Decision.source`).
"""
from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any
from importlib import resources

from engine.desk import time_calls
from engine.events import RecordedEvent
from engine.replay import as_played
from engine.state import TableState
from engine.rulesets.base import Decision, Ruleset
from engine.timefacts import LOG_NOTE, Fact, FactsError, FactsNeeded

from . import table as T


CRITERIA = ("life", "deck", "characters", "last-life", "took-last-life")
DEFAULT_CRITERIA = ("life", "deck", "characters", "last-life")
DEFAULT_POLICY = "bandai"
LABEL = {"life": "Life cards", "deck": "cards in the deck", "characters": "Characters on the field"}
ZONE = {"life": "life", "deck": "deck", "characters": "characters"}
FACT_OF = {"life": "life", "deck": "deck", "characters": "characters", "last-life": "last_life",
           "took-last-life": "last_life"}


@dataclass(frozen=True)
class Policy:
    name: str
    title: str
    reference: str
    quote: str
    en: str
    turns: int
    overtime_ends: str
    criteria: tuple[str, ...]
    all_equal: str
    extra_minutes: int | None = None  # turns-or-call: the minutes after the call (None: no such minutes)


@cache
def policies() -> dict[str, Policy]:
    data = tomllib.loads(resources.files(__package__).joinpath("time_policies.toml").read_text("utf-8"))
    out = {}
    for p in data["policy"]:
        pol = Policy(p["name"], p["title"], p["reference"], p["quote"].strip(), p["en"], int(p["turns"]),
                     p["overtime_ends"], tuple(p["criteria"]), p["all_equal"], p.get("extra_minutes"))
        unknown = [c for c in pol.criteria if c not in CRITERIA]
        if unknown or pol.overtime_ends not in ("turns", "turns-or-call"):
            raise ValueError(f"time_policies.toml: policy {pol.name}: unknown criterion or overtime_ends")
        if (pol.overtime_ends == "turns-or-call") != isinstance(pol.extra_minutes, int):
            raise ValueError(f"time_policies.toml: policy {pol.name}: extra_minutes (a whole number) is given "
                             "exactly when overtime_ends is turns-or-call")
        out[pol.name] = pol
    return out


def policy_of(rs: Ruleset, name: str) -> Policy:
    known = policies()
    if name not in known:
        raise ValueError(f"ruleset optcg has no end-of-time policy {name!r} (policies: {', '.join(known)})")
    pol = known[name]
    if name != DEFAULT_POLICY:
        return pol
    # the default policy follows the ruleset's options (turn count, order of the criteria)
    order = tuple(c.strip() for c in str(rs.opts["end_of_time_criteria"]).split(",") if c.strip())
    for c in order:
        if c not in CRITERIA:
            raise ValueError(f"unknown end-of-time criterion {c!r} (criteria: {', '.join(CRITERIA)})")
    return Policy(pol.name, pol.title, pol.reference, pol.quote, pol.en, int(rs.opts["end_of_time_turns"]),
                  pol.overtime_ends, order, pol.all_equal, pol.extra_minutes)


def decide_end_of_time(rs: Ruleset, s: TableState, events: list[RecordedEvent], *,
                       policy: str = DEFAULT_POLICY) -> Decision:
    pol = policy_of(rs, policy)

    def decision(result: str, winner: str | None, branch: str, steps: list[str]) -> Decision:
        return Decision(result, winner, branch, steps, f"{pol.title} (policy {pol.name})", pol.quote, pol.name,
                        en=pol.en, source=pol.reference)

    if s.result:
        r = s.result
        return decision(r["result"], r.get("winner"), "game-over",
                        [f"the game already ended at event {r.get('position')}: "
                         + (f"{r['winner']} won by {r.get('how')}" if r.get("winner") else f"{r['result']} ({r.get('how')})")])
    # as corrected: a void as if it had not happened, a replaced event as its correction has it read
    # (leaving a replaced turn out counted one turn less)
    events = as_played(events)
    called = [e for e in events if e.kind == "time.called"]
    calls = time_calls(called)
    if not calls:
        return decision("continue", None, "time-not-called", ["time has not been called (no time.called event)"])
    # the time call; under a turns-or-call policy the end of the extra minutes comes after it,
    # recorded as such (extra_minutes_over) or, in logs from before that field, as a later call
    at = (calls[0] if pol.overtime_ends == "turns-or-call" else calls[-1]).position
    turn0 = turns_begun(events, at)
    steps = [f"time was called at event {at}, during game turn {turn0} (turn 0 of the procedure)"
             if turn0 else f"time was called at event {at}, while the game was in its set-up: turn 0 of the "
             "procedure is game turn 1"]
    marks = [e for e in called if e not in calls]
    if marks and pol.overtime_ends != "turns-or-call":
        steps.append(f"the end of the extra minutes recorded at event {marks[0].position} does not count: policy "
                     f"{pol.name} gives no extra minutes after the call")
    told = "turn=0"  # what the record says of the extra turns, as a judge would give it (--facts)
    if pol.turns == 0:
        steps.append("this policy plays no extra turns: the effect in progress resolves, then the game ends")
    else:
        first = turn0 or 1  # the game turn that is the procedure's turn 0
        last = first + pol.turns
        done_last = extra_turns_over(s, first) >= pol.turns
        ended = [e for e in called if e.position > at and pol.overtime_ends == "turns-or-call"]
        if ended and not done_last:
            steps.append(f"the extra minutes ran out at event {ended[0].position}, before game turn {last} "
                         f"(extra turn {pol.turns}) ended")
            told = f"turn={ended_before(events, ended[0].position, first)} minutes_up=yes"
        elif not done_last:
            more = (" or until the extra minutes run out (record it: tablejudge judge time MATCH --clock HH:MM "
                    "--extra-minutes-over)") if pol.overtime_ends == "turns-or-call" else ""
            steps.append(f"{pol.turns} extra turns are played after turn 0 (game turn {first}): play on until game "
                         f"turn {last} ends{more}; now {where_now(s, first, pol.turns)}")
            return decision("continue", None, "extra-turns", steps)
        else:
            steps.append(f"turn 0 and {pol.turns} extra turns are over (game turn {last} ended) and nobody has won")
            told = f"turn={pol.turns}"
    return by_criteria(pol, s, steps, decision, told=told)


def turns_over(s: TableState, events: list[RecordedEvent]) -> int | None:
    """The `turn` fact as the log records it: the extra turns over since the turn in which time was
    called (turn 0; game turn 1 for a call during the set-up), on the table `s` now. None where the
    log cannot say: no time call; an end of the extra minutes recorded (the judge then gives the
    turns as they stood at that end); or no turn recorded after the call (the log may have stopped
    at the call while the table played on)."""
    events = as_played(events)
    called = [e for e in events if e.kind == "time.called"]
    calls = time_calls(called)
    if len(calls) != 1 or len(called) != 1:
        return None
    at = calls[0].position
    if not any(e.kind == "turn" and e.position > at for e in events):
        return None
    return extra_turns_over(s, turns_begun(events, at) or 1)


def logged_facts(s: TableState, events: list[RecordedEvent], given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Of TIME_FACTS, those the log knows (Ruleset.logged_facts): Life and deck counts where recorded,
    the Characters on the field where the log records plays
    (a deck never registered, Life never placed: unknown; before the first turn no Life placed is not
    yet said unknown by the table, so not known here), and the extra turns over since the time call
    where the log recorded play after it (QA76 #5). The counts are the table where the log stops: a
    judge's `turn` past it (`given`) reads a table that played on since, whose Life and deck the log
    has not seen: they are neither taken nor compared, but read off the table, and LOG_NOTE says why
    (QA88 #4: turn=3 on a log stopping at turn 0 took its 39-39 decks and refused the real 38-37)."""
    out: dict[str, Any] = {"life": {p: len(s.zone(p, "life")) for p in s.players
                                    if T.life_known(s, p) and (s.turn or s.zone(p, "life"))},
                           "deck": {p: len(s.zone(p, "deck")) for p in s.players if T.deck_known(s, p)}}
    if s.turn and any(e.kind == "play" for e in events):
        # the Characters on the field: public, known where the log records what is played (a log of
        # Life and turns alone does not: its empty field is not the table's); the log's own decision
        # counts them, so a reading against them is refused like Life's (QA89: characters=5-0
        # against the log's 2-3 was stored and gave the win to the other player)
        out["characters"] = {p: len(s.zone(p, "characters")) for p in s.players}
    turn = turns_over(s, events)
    if turn is not None:
        out["turn"] = turn
    read = (given or {}).get("turn")
    seen = turn or 0  # no turn recorded after the call (or no call): the log has seen no extra turn over
    if read is not None and read > seen:
        per_turn = [k for k in ("life", "deck", "characters") if out.pop(k, None)]
        if per_turn:
            out[LOG_NOTE] = (f"the log stops at turn {seen}" + ("" if turn is not None else
                             " (it records no turn after a time call)")
                             + f", before turn={read}: its {_listed(per_turn)} counts are not the table's "
                             "then, so they are read off the table")
    return out


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# The one count of the procedure's turns: `decide_end_of_time` (are the extra turns over? how many
# when the minutes ran out?) and `turns_over` (the `turn` fact the log gives, checked against
# --facts) read it here, so the decision and the check of a judge's count cannot drift apart.

def turns_begun(played: list[RecordedEvent], before: int) -> int:
    """The game turns begun before position `before` in a log as played (`as_played`: a replaced
    `turn` counts as its replacement reads, a void one not at all)."""
    return sum(1 for e in played if e.kind == "turn" and e.position < before)


def extra_turns_over(s: TableState, first: int) -> int:
    """The extra turns over on the table `s`, turn 0 being game turn `first`: a turn counts once
    it has ended (its end phase reached)."""
    return _over(s.turn - first, s.phase == "end")


def ended_before(played: list[RecordedEvent], position: int, first: int) -> int:
    """The extra turns over when event `position` was recorded (the end of the extra minutes): the
    turn in progress then is not over."""
    return _over(turns_begun(played, position) - first, False)


def _over(since_first: int, ended: bool) -> int:
    return max(0, since_first if ended else since_first - 1)


def where_now(s: TableState, first: int, extra: int) -> str:
    """Where the game is, in both counts a judge needs: the game's turn numbers (what the table
    shows) and the procedure's (turn 0 is game turn `first`, then extra turns 1..`extra`). Never
    "turn 0" for the set-up: the procedure's turn 0 and the game's turn 0 are not the same thing
    (a call during the set-up once read "until turn 4 ends (now turn 0, setup phase)")."""
    if s.turn == 0:
        return "the game is in its set-up (game turn 1, turn 0 of the procedure, has not started)"
    n = s.turn - first
    which = "turn 0 of the procedure" if n == 0 else f"extra turn {n} of {extra}"
    return f"game turn {s.turn}, {which}" + (f", {s.phase} phase" if s.phase else "")


NOBODY_TOOK = "nobody took a Life card: equal"


def by_criteria(pol: Policy, s: TableState, steps: list[str], decision, read: set[str] | None = None,
                told: str = "") -> Decision:
    """The policy's criteria in order on the table `s`, once the extra turns are over: a recorded
    match's table, or the one a judge read off a table nobody recorded (`decide_from_facts`; `read`:
    the facts the judge gave, so a criterion the decision reaches without its fact is asked for).
    On a recorded match (`told`: its extra turns as facts) a count the log does not know (a deck
    never registered, Life never placed) is asked for the same way: never compared as 0."""
    a, b = s.players[0], s.players[1]
    known = [told]  # the criteria passed so far, as facts: the line a judge completes
    for crit in pol.criteria:
        fact = FACT_OF[crit]
        if read is not None and fact not in read:
            f = next(f for f in TIME_FACTS if f.key == fact)
            raise FactsError(f"the decision needs {fact}= ({f.what}): " + (
                "; ".join(steps[1:]) if len(steps) > 1 else "the criteria before it are equal"), 0, fact)
        unknown = unrecorded(s, crit) if read is None else []
        if unknown:
            f = next(f for f in TIME_FACTS if f.key == fact)
            raise FactsNeeded(f"the decision needs the {f.what}, which the record does not know ("
                              + "; ".join(unknown) + "): " + "; ".join(steps[1:]), fact,
                              " ".join(known + [f"{fact}=" + "-".join("?" for _ in s.players)]))
        if crit in ("last-life", "took-last-life"):
            took = (s.extra.get("last_life_taken") or {}).get("player")
            if took is None:
                # last-life and took-last-life read one fact: when nobody took a card, it is said once
                # (QA71: the default order, which has both, said it twice as two steps)
                if NOBODY_TOOK not in steps:
                    steps.append(NOBODY_TOOK)
                    known.append("last_life=none")
                continue
            other = b if took == a else a
            winner = other if crit == "last-life" else took
            why = "did not take it" if crit == "last-life" else "took it, and this policy gives the win to that player"
            at = s.extra["last_life_taken"].get("position")
            steps.append(f"{took} took the last Life card{f' (event {at})' if at else ''}; "
                         f"{winner} {why}: {winner} wins")
            return decision("win", winner, crit, steps)
        va, vb = len(s.zone(a, ZONE[crit])), len(s.zone(b, ZONE[crit]))
        if va == vb:
            steps.append(f"{LABEL[crit]}: {a} {va}, {b} {vb}: equal")
            known.append(f"{fact}={va}-{vb}")
            continue
        winner = a if va > vb else b
        steps.append(f"{LABEL[crit]}: {a} {va}, {b} {vb}: {winner} has more and wins")
        return decision("win", winner, crit, steps)
    if pol.criteria:
        steps.append("every criterion is equal: both players receive a loss (double loss)")
    else:
        steps.append("no victory condition was met: both players receive a loss (double loss)")
    return decision("double-loss", None, "double-loss", steps)


def unrecorded(s: TableState, crit: str) -> list[str]:
    """Why each player's count for `crit` is not a recorded fact (facts, not derivations: a deck
    never registered is of unknown size, not empty; docs/rulesets/optcg.md), or nothing."""
    if crit == "deck":
        return [f"{p}'s deck was " + ("registered with its Leader alone" if T.pinfo(s, p).get("leader")
                                      else "never registered") + ", so its size is unknown"
                for p in s.players if not T.deck_known(s, p)]
    if crit == "life":
        return [f"{p}'s Life count was never recorded" for p in s.players if not T.life_known(s, p)]
    return []


# --- a table nobody recorded: the judge reads these facts off it (engine/timefacts.py) -----------

WHEN_REACHED = "needed only if the criteria before it are equal"
TIME_FACTS = (
    Fact("turn", "count", "extra turns over since turn 0 (the turn in which time was called)", 0, 20),
    Fact("life", "each", "Life cards of each player", 0, 20, required=False, optional=WHEN_REACHED),
    Fact("deck", "each", "cards in each player's deck", 0, 60, required=False, optional=WHEN_REACHED),
    Fact("characters", "each", "Characters on each player's field", 0, 20, required=False, optional=WHEN_REACHED),
    Fact("last_life", "player", "who took the last Life card (none: nobody took one)", required=False,
         none_ok=True, optional=WHEN_REACHED),
    Fact("minutes_up", "flag", "policy regional: the extra minutes ran out", required=False),
)


def table_from_facts(rs: Ruleset, created: RecordedEvent, facts: dict) -> TableState:
    """The zones the criteria count, filled with unknown cards; who took the last Life card."""
    s = rs.new_state(created)
    for fact, zone in (("life", "life"), ("deck", "deck"), ("characters", "characters")):
        for p, n in facts.get(fact, {}).items():
            s.zone(p, zone).extend(s.new_card(p) for _ in range(n))
    if facts.get("last_life"):
        s.extra["last_life_taken"] = {"player": facts["last_life"], "position": None}
    return s


def decide_from_facts(rs: Ruleset, created: RecordedEvent, facts: dict, *,
                      policy: str = DEFAULT_POLICY) -> Decision:
    """The policy on a table the judge read: the extra turns from `turn`, then the same criteria as
    a recorded match (`by_criteria`)."""
    pol = policy_of(rs, policy)

    def decision(result: str, winner: str | None, branch: str, steps: list[str]) -> Decision:
        return Decision(result, winner, branch, steps, f"{pol.title} (policy {pol.name})", pol.quote, pol.name,
                        en=pol.en, source=pol.reference)

    done = facts["turn"]
    if done > pol.turns:
        # QA71: turn=5 was accepted, and decided, though the procedure ends after the last extra turn:
        # a count past it is a misreading, and the table to read is the one at that turn's end
        stop = "plays no extra turns: give turn=0" if pol.turns == 0 else \
            f"stops after {pol.turns} extra turns: read the table as it was when extra turn {pol.turns} ended " \
            f"(turn={pol.turns})"
        raise FactsError(f"turn={done} is past the end of the procedure: policy {pol.name} {stop}", 0, "turn")
    steps = ["turn 0 is the turn in which time was called"]
    if pol.turns == 0:
        steps.append("this policy plays no extra turns: the effect in progress resolves, then the game ends")
    elif pol.overtime_ends == "turns-or-call" and facts.get("minutes_up") and done < pol.turns:
        steps.append(f"the extra minutes ran out after {done} of the {pol.turns} extra turns")
    elif done < pol.turns:
        more = " or until the extra minutes run out" if pol.overtime_ends == "turns-or-call" else ""
        steps.append(f"{pol.turns} more turns are played after turn 0 and {done} {'is' if done == 1 else 'are'} over: play on until extra "
                     f"turn {pol.turns} ends{more}, then read the table again")
        return decision("continue", None, "extra-turns", steps)
    else:
        steps.append(f"turn 0 and {pol.turns} more turns are over and nobody has won")
    return by_criteria(pol, table_from_facts(rs, created, facts), steps, decision, read=set(facts))
